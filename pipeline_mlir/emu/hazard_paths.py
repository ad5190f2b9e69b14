"""The wait states on every path of a kernel, not only on the paths a run takes.

The machine checks wait states on the instructions a wave executes (:mod:`.hazards`), so a
path no launch of a run takes (a zero-trip loop, a branch on the thread id, the
``s_cbranch_execz`` that skips a block when no lane is active) is not checked there.  For
the MFMA rules that matters most: LLVM 22's hazard recognizer looks back only 19 wait states
for the MFMA that wrote a register, so a reader of a 16-pass XDL MFMA's result that issues
exactly 19 wait states after it gets no ``s_nop`` (20 needed), and which path puts it there
depends on branches.  Every rule of :data:`~pipeline_mlir.emu.hazards.RULES` is decided by
the two instructions' encodings alone (registers, opcodes, fields), none by a value, so
:func:`path_violations` checks them all on every path: from every instruction that leaves
an entry in a producer table (an MFMA's D and C, a VALU's VGPRs and SGPRs, a
transcendental or partial write, a wide store's data, an SALU's M0, ``s_setreg``) it walks
the control-flow graph of the code (:func:`successors`: fall-through, branch targets,
LLVM's long branches) for as many wait states as a rule on that table can need and reports
each instruction that issues too early after it on some path, with the same rules and
counts as the machine's tracker (the instruction's
:class:`~pipeline_mlir.emu.hazards.Info`).  A later instruction that records the same
register in the same table ends the first one's hazard on that path, as in the tracker.
The walk visits each (instruction, wait states since the producer, registers still
tracked) once, so loops end.

:func:`basic_blocks` is the one control-flow graph of a code object's instructions in
blocks (the tests' main-loop finder reads it too).
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.emu.hazards import (RULES, Violation, infos, need_after_d, need_after_srcc,
                                       reg_name)
from pipeline_mlir.emu.instr import BRANCHES
from pipeline_mlir.emu.long_branch import long_branch_targets

_ENDS = ("s_endpgm", "s_trap", "s_setpc_b64")


@dataclass(frozen=True)
class PathViolation:
    """A reader issued too few wait states after its producer (an MFMA, a VALU write, an M0
    or SGPR write, ...: any row of the wait-state tables) on some path."""

    violation: Violation
    reader: object                # the Instr that issues too early


def successors(instrs: list) -> list[tuple[int, ...]]:
    """Per instruction index, the indices of the instructions that may issue next."""
    at = {ins.addr: i for i, ins in enumerate(instrs)}
    far = long_branch_targets(instrs)
    out = []
    for i, ins in enumerate(instrs):
        nxt = (i + 1,) if i + 1 < len(instrs) else ()
        if ins.name == "s_setpc_b64" and ins.addr in far:
            out.append((at[far[ins.addr]],))
        elif ins.name in _ENDS:
            out.append(())
        elif ins.name in BRANCHES and ins.target in at:
            target = (at[ins.target],)
            out.append(target if ins.name == "s_branch" else nxt + target)
        else:
            out.append(nxt)
    return out


def basic_blocks(instrs: list, succ: list | None = None) -> tuple[list[int], list[list[int]]]:
    """The basic blocks of ``instrs``: their first instructions' indices, and per block the
    blocks it may go to (:func:`successors` of its last instruction: a conditional branch
    falls through and branches; ``s_branch``, a long branch's ``s_setpc_b64`` and the ends
    of the program go only where they go)."""
    succ = successors(instrs) if succ is None else succ
    starts = {0}
    for i, nxt in enumerate(succ):
        if nxt != (i + 1,):
            starts.add(i + 1)
            starts.update(nxt)
    starts = sorted(k for k in starts if k < len(instrs))
    block_of = {k: b for b, k in enumerate(starts)}
    ends = [*starts[1:], len(instrs)]
    return starts, [list(dict.fromkeys(block_of[k] for k in succ[e - 1])) for e in ends]


def _fixed_horizons(info: list) -> dict:
    """Per producer table, the most wait states a rule with a fixed count needs after an
    entry of it (in this kernel's instructions)."""
    out: dict = {}
    for step in info:
        for table, _, _, need in step.checks:
            if isinstance(need, int) and need > out.get(table, 0):
                out[table] = need
    return out


def _horizon(table: str, payload, fixed: dict) -> int:
    """The wait states after which no rule on ``table`` can still apply to this entry (the
    rules' own counts: :func:`~pipeline_mlir.emu.hazards.need_after_d` of an MFMA's D,
    :func:`~pipeline_mlir.emu.hazards.need_after_srcc` of its C, the largest fixed count
    of the other tables)."""
    if table == "v_mfma":       # (passes, XDL, D)
        return need_after_d(payload)
    if table == "v_srcc":       # passes
        return need_after_srcc(payload)
    return fixed.get(table, 0)


def _from_producer(i: int, info: list, succ: list, fixed: dict) -> PathViolation | None:
    """The first instruction too early on a path from the producer at ``i`` (depth-first)."""
    source = info[i]
    horizon = {t: _horizon(t, p, fixed) for t, _, p in source.records}
    tracked = {t: frozenset(r) for t, r, _ in source.records if horizon[t] > 0}
    entries = {t: (0, source.ins, p) for t, _, p in source.records}
    seen = set()
    todo = [(j, 0, tuple(sorted(tracked.items()))) for j in succ[i]] if tracked else []
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        j, have, live = state
        step = info[j]
        regs = dict(live)
        for table, rs, rule, need in step.checks:
            hit = regs.get(table, frozenset()).intersection(rs)
            if hit:
                req = need if isinstance(need, int) else need(entries[table])
                if have < req:
                    return PathViolation(Violation(RULES[rule], reg_name(table, min(hit)),
                                                   source.ins, req, have), step.ins)
        for table, rs, _ in step.records:
            if table in regs:
                regs[table] = regs[table] - frozenset(rs)
        have += step.ws
        regs = {t: r for t, r in regs.items() if r and have < horizon[t]}
        if not regs:
            continue
        live = tuple(sorted(regs.items()))
        todo.extend((k, have, live) for k in succ[j])
    return None


def path_violations(kernel, info: list | None = None) -> list[PathViolation]:
    """Every producer of ``kernel`` (a :class:`~pipeline_mlir.emu.codeobj.Kernel`) with an
    instruction too few wait states after it on some path: the first such instruction
    found per producer, in the producers' order; computed once per kernel's instructions.
    ``info``: the instructions' :class:`~pipeline_mlir.emu.hazards.Info` if the caller has
    them (they do not depend on the workgroup count the steps were compiled for)."""
    return kernel.memo("wait-state paths", lambda k: _path_violations(k, info))


def _path_violations(kernel, info: list | None) -> list[PathViolation]:
    info = infos(kernel.steps()) if info is None else info
    succ = successors(kernel.instrs)
    fixed = _fixed_horizons(info)
    out = []
    for i, step in enumerate(info):
        if step.records:
            bad = _from_producer(i, info, succ, fixed)
            if bad is not None:
                out.append(bad)
    return out
