"""The main loop's iteration as it executes when the loop holds inner loops.

A main K-loop may hold loops of its own: a waterfall loop around a memory instruction
(``v_readfirstlane``, ``s_and_saveexec``, ``s_cbranch_execnz``), a copy loop LLVM kept
as a loop.  Laid out once, such a body times every inner loop as if it ran exactly once;
:func:`executed_iteration` gives the instructions one iteration of the main loop executes
instead:

* an inner loop whose trip count the assembly states is repeated that many times: a
  counter ``sN`` set by ``s_mov_b32 sN, INIT`` in the main loop before the inner loop,
  changed by one ``s_add_u32`` / ``s_add_i32`` / ``s_sub_u32`` / ``s_sub_i32 sN, sN,
  STEP`` inside it, compared with a constant by the ``s_cmp_*`` whose SCC the inner loop's
  back branch (``s_cbranch_scc0`` / ``s_cbranch_scc1`` to its header: the block entered
  from outside the loop, not always its first in layout) reads;
* an inner loop nested in an inner loop, to any depth, by the same rule one level down:
  its counter set in the enclosing inner loop before it, its body (with its own inner
  loops expanded) repeated by its trip count on every trip of the enclosing one;
* any other inner loop (a waterfall loop runs once per distinct value among the lanes,
  and a loop of per-lane counters ending when the exec mask empties until every lane's
  bound is reached, which the assembly does not state; a counter set outside the loop
  enclosing it), and
  a main-loop iteration of more than ``MAX_EXECUTED`` instructions, is an
  :class:`InnerLoopError` naming the inner loop's lines: the timing model gives no figure
  rather than a too-fast one;
* unless the counts were measured on the emulator (:mod:`pipeline_mlir.emu.trips`,
  ``measured``): then each such loop runs its measured trips in each trip of the loop
  around it, each block every lane skipped is left out, and a stated count is kept.

A main loop without inner loops is returned unchanged (its layout order; with measured
counts, less the blocks every lane skipped).
"""

from __future__ import annotations

from pipeline_mlir.errors import PipelineError

#: the most trips an inner loop may be unrolled to for the timing model
MAX_TRIPS = 4096
#: the most instructions one iteration of the main loop may execute through its inner loops
MAX_EXECUTED = 1 << 20
_STEP = {"s_add_u32": 1, "s_add_i32": 1, "s_sub_u32": -1, "s_sub_i32": -1}
_COMPARE = {"eq": lambda a, b: a == b, "lg": lambda a, b: a != b,
            "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
            "lt": lambda a, b: a < b, "le": lambda a, b: a <= b}


class InnerLoopError(PipelineError):
    """The main loop holds an inner loop whose trip count the assembly does not state."""


def executed_iteration(fn, loop: list, said: list | None = None,
                       measured: dict | None = None) -> list:
    """The instructions one iteration of the main loop (``loop``: its blocks, layout
    order, of function ``fn``) executes (module docstring); ``said``: gets a line per
    inner loop repeated, with its trip count.  ``measured``: trip counts measured on the
    emulator (:mod:`pipeline_mlir.emu.trips`) for the loops whose count the assembly does
    not state, ``{header label: (trips in each trip of the loop around it, in order)}``."""
    ids = {id(b) for b in loop}
    inner = [lp for lp in fn.loops() if {id(b) for b in lp} < ids]
    headers = loop_headers(fn, inner)
    if measured is None:
        return _expanded(loop, inner, "the main loop", said, headers)
    counts = _Counts({label: list(trips) for label, trips in measured.items()})
    out = _expanded(loop, inner, "the main loop", said, headers, counts)
    over = sorted(label for label, trips in counts.left.items() if trips)
    if over:
        raise InnerLoopError(f"the trip counts measured for {', '.join(over)} are more than "
                             f"the loop nest runs: they are not this main loop's")
    for (lines, per, how), trips in counts.seen.items():
        if said is not None:
            said.append(f"{lines} runs {_times(trips)} per {per} ({how})")
    return out


class _Counts:
    """The measured trip counts left to take (by header label) and the trips each inner
    loop was laid out with (by its lines, what it runs per, and whence the count)."""

    def __init__(self, left: dict) -> None:
        self.left = left
        self.seen: dict[tuple, list] = {}


def _times(trips: list) -> str:
    if len(set(trips)) == 1:
        return f"{trips[0]} time{'s' if trips[0] != 1 else ''}"
    return f"{min(trips)} to {max(trips)} times ({sum(trips)} trips in {len(trips)})"


def loop_headers(fn, loops: list) -> dict[int, object]:
    """Each loop's header (by the loop's first block's id): its block entered from outside
    it, which need not be its first block in layout (a rotated loop)."""
    out = {}
    for lp in loops:
        labels = {b.label for b in lp}
        entered = {s for b in fn.blocks if b.label not in labels for s in b.succs} & labels
        out[id(lp[0])] = next((b for b in lp if b.label in entered), lp[0])
    return out


def _expanded(blocks: list, inner: list, where: str, said: list | None,
              headers: dict, measured: dict | None = None) -> list:
    """The instructions one trip of ``blocks`` (a loop: the main loop or an inner loop,
    called ``where`` in ``said``) executes: each loop of ``inner`` (the loops strictly
    inside it) repeated by its trip count, its own inner loops expanded the same way;
    ``measured``: the measured counts left to take, by header label (consumed)."""
    sets = [{id(b) for b in lp} for lp in inner]
    outer = [lp for lp, s in zip(inner, sets) if not any(s < o for o in sets)]
    out: list = []
    done: set[int] = set()
    for k, block in enumerate(blocks):
        if id(block) in done:
            continue
        lp = next((lp for lp in outer if id(lp[0]) == id(block)), None)
        if lp is None:
            if measured is None or _runs(block, measured, headers, blocks):
                out.extend(block.instrs)
            continue
        lids = {id(b) for b in lp}
        before = [i for b in blocks[:k] for i in b.instrs]
        nested = [m for m, s in zip(inner, sets) if s < lids]
        if measured is not None:
            out.extend(_measured(lp, before, headers, nested, where, said, measured, len(out)))
            done |= lids
            continue
        trips = trip_count(lp, before, headers[id(block)])
        body = _expanded(lp, nested, _lines(lp), said, headers)
        if len(out) + len(body) * trips > MAX_EXECUTED:
            raise InnerLoopError(f"{_lines(lp)}: {trips} trips of its {len(body)} executed "
                                 f"instructions make {where} execute more than "
                                 f"{MAX_EXECUTED} instructions: too long for the timing model")
        out.extend(body * trips)
        if said is not None:
            per = "iteration of the main loop" if where == "the main loop" else f"trip of {where}"
            said.append(f"{_lines(lp)} runs {trips} time{'s' if trips != 1 else ''} per "
                        f"{per} (its counter's trip count)")
        done |= lids
    return out


def _runs(block, measured: _Counts, headers: dict, blocks: list) -> int:
    """Whether ``block`` (not a loop's own header) runs in this trip of ``blocks``: its
    next measured count (1 without one)."""
    left = measured.left.get(block.label)
    if not left or headers.get(id(blocks[0])) is block:
        return 1
    return left.pop(0)


def _measured(lp: list, before: list, headers: dict, nested: list, where: str,
              said: list | None, measured: _Counts, size: int) -> list:
    """One trip's worth of the inner loop ``lp`` in the loop ``where`` (``size``
    instructions laid out so far): its stated trip count, else the next measured one; each
    trip laid out on its own (the loops in it may run other counts in each)."""
    label = headers[id(lp[0])].label
    left = measured.left.get(label)
    try:
        trips, how = trip_count(lp, before, headers[id(lp[0])]), "its counter's trip count"
        if left:
            left.pop(0)                       # stated: the count kept, the measured dropped
    except InnerLoopError:
        if not left:
            raise
        trips, how = left.pop(0), "measured on the emulator"
    out: list = []
    for _ in range(trips):
        out.extend(_expanded(lp, nested, _lines(lp), said, headers, measured))
        if size + len(out) > MAX_EXECUTED:
            raise InnerLoopError(f"{_lines(lp)}: {trips} trips make {where} execute more "
                                 f"than {MAX_EXECUTED} instructions: too long for the "
                                 f"timing model")
    per = "iteration of the main loop" if where == "the main loop" else f"trip of {where}"
    measured.seen.setdefault((_lines(lp), per, how), []).append(trips)
    return out


def _lines(lp: list) -> str:
    instrs = [i for b in lp for i in b.instrs]
    if not instrs:
        return f"inner loop {lp[0].label}"
    return f"the inner loop at lines {instrs[0].line}-{instrs[-1].line} ({lp[0].label})"


def trip_count(lp: list, before: list, header=None) -> int:
    """Trips of the inner loop ``lp`` (its blocks in layout order; ``header``: the one
    entered from outside it, by default the first) that the instructions
    ``before`` it in the loop around it (the main loop or an inner loop) set up (module
    docstring); an :class:`InnerLoopError` saying why the count is unknown otherwise."""
    where = _lines(lp)
    instrs = [i for b in lp for i in b.instrs]
    head = (header or lp[0]).label
    back = [k for k, i in enumerate(instrs) if i.kind == "branch" and i.operands[:1] == (head,)]
    if not back or instrs[back[-1]].mnemonic not in ("s_cbranch_scc0", "s_cbranch_scc1"):
        branch = instrs[back[-1]].mnemonic if back else "no branch"
        labels = {b.label for b in lp}
        exits = sorted({i.mnemonic for i in instrs if i.kind == "branch" and i.operands[:1]
                        and i.operands[0] not in labels})
        raise InnerLoopError(f"{where}: its trip count is not stated ({branch} back to its "
                             f"header {head}; its exits {', '.join(exits) or 'none'}; a loop "
                             f"the lanes' exec mask ends runs once per distinct value among "
                             f"the lanes (a waterfall loop) or until every lane's own bound is "
                             f"reached): the timing model gives no figure for this main loop")
    latch = back[-1]
    cmp = next((k for k in range(latch - 1, -1, -1) if "scc" in instrs[k].defs), None)
    found = _compare(instrs, cmp)
    if found is None:
        raise InnerLoopError(f"{where}: its back branch's SCC is not a compare of a counter "
                             f"with a constant: the trip count is unknown")
    reg, op, bound, swapped = found
    steps = [(k, i) for k, i in enumerate(instrs) if reg in i.defs]
    if len(steps) != 1 or steps[0][1].mnemonic not in _STEP or \
            steps[0][1].uses != (reg,) or _imm(steps[0][1].operands[2]) is None:
        raise InnerLoopError(f"{where}: its counter {reg} is not changed by one constant "
                             f"s_add / s_sub: the trip count is unknown")
    at, step_ins = steps[0]
    step = _STEP[step_ins.mnemonic] * _imm(step_ins.operands[2])
    init = _initial(before, reg)
    if init is None:
        raise InnerLoopError(f"{where}: its counter {reg} is not set to a constant before it in "
                             f"the loop around it: the trip count is unknown")
    return _run(init, step, at < cmp, op, bound, swapped, instrs[latch].mnemonic, where)


def _run(value: int, step: int, step_first: bool, op: str, bound: int, swapped: bool,
         branch: str, where: str) -> int:
    """Trips of the counter loop, each: the step and the compare in their order, then the
    back branch on SCC."""
    for trips in range(1, MAX_TRIPS + 1):
        seen = value + step if step_first else value
        value += step
        a, b = (bound, seen) if swapped else (seen, bound)
        scc = _COMPARE[op](a, b)
        if scc != (branch == "s_cbranch_scc1"):
            return trips
    raise InnerLoopError(f"{where}: it runs more than {MAX_TRIPS} trips (or never ends)")


def _compare(instrs: list, k: int | None):
    """(counter register, predicate, constant, whether the constant comes first) of the
    ``s_cmp_*`` at ``k``, or None."""
    if k is None or not instrs[k].mnemonic.startswith("s_cmp_"):
        return None
    parts = instrs[k].mnemonic.split("_")
    if len(parts) != 4 or parts[2] not in _COMPARE:
        return None
    x, y = instrs[k].operands[:2]
    reg = _scalar(instrs[k].uses)
    if reg and _imm(y) is not None:
        return reg, parts[2], _imm(y), False
    if reg and _imm(x) is not None:
        return reg, parts[2], _imm(x), True
    return None


def _initial(before: list, reg: str) -> int | None:
    """The constant the last write of ``reg`` in ``before`` gives it (``s_mov_b32``)."""
    for i in reversed(before):
        if reg in i.defs:
            if i.mnemonic in ("s_mov_b32", "s_movk_i32") and i.defs == (reg,):
                return _imm(i.operands[1])
            return None
    return None


def _scalar(regs: tuple[str, ...]) -> str | None:
    """The one scalar register ``sN`` among the registers the parser read from an
    instruction's operands, or None."""
    if len(regs) == 1 and regs[0].startswith("s") and regs[0][1:].isascii() \
            and regs[0][1:].isdigit():
        return regs[0]
    return None


def _imm(text: str) -> int | None:
    try:
        return int(text, 0)
    except ValueError:
        return None
