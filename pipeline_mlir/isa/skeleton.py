"""The skeletons the ISA check (:mod:`pipeline_mlir.isa.check`) compares: what each
assembly phase must hold, and what it holds.

The lowering (``pipeline_mlir/lowering/materialize.py``,
``pipeline_mlir/lowering/rocdl_build.py``) turns each
schedule entry into instructions: a global load into ``vm_cost``
``buffer_load ... lds``, a fragment load into ``lgkm_cost`` ``ds_read_b128``, an
MMA into ``mfmas_per_mma`` MFMAs, WAIT_VM / WAIT_LGKM into one ``s_waitcnt``,
BARRIER ``s_barrier``, SET_PRIO ``s_setprio``, SCHEDULE_BARRIER and the fences
of :func:`pipeline_mlir.schedule.fences.fenced_sequence` ``sched_barrier`` (mask 0, the
order fences :data:`~pipeline_mlir.schedule.fences.ORDER_FENCE_MASK`; where
an MMA is interleaved with its block's loads, the schedule barrier between those loads is
not emitted, and the interleave pipeline's ``sched_group_barrier`` s, sync id 1, are no
part of the skeleton).  Around the
phases it adds what the kernel plan (:mod:`pipeline_mlir.kernel.plan`) says: the wait
for the kernel arguments before the prologue, the warp groups' stagger barriers, the
zero-trip fence.  That is the *expected* skeleton of each assembly phase
(:meth:`pipeline_mlir.isa.asm.AsmFunction.main_loop_phases`: prologue = blocks
before the main loop, loop, epilogue = blocks after it).  The plan is the one the
lowering used: its phases are the schedule as the passes left it (after
``sched-fix-hazards``), nothing is recompiled here.

The *actual* skeleton is the assembly's MFMAs, ds ops, vector-memory loads,
waits, barriers, priorities and fences.  Scalar loads (kernel arguments) and
vector stores (the C tile) are never part of a schedule; they, and
separators before the first / after the last one the schedule accounts for in
a phase, are listed as *outside the schedule*.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa.asm import AsmFunction, AsmInstr
from pipeline_mlir.kernel.plan import ENTRIES, LOOP, KernelPlan
from pipeline_mlir.schedule.fences import (INTERLEAVE, INTERLEAVE_SYNC_ID, LOAD_GROUPS,
                                           ORDER_FENCE, ORDER_FENCE_MASK, Dropped, Interleaved,
                                           interleaves)
from pipeline_mlir.schedule.targets import HINT_GROUP_MASKS
from pipeline_mlir.schedule.types import (BARRIER, SCHED_GROUP_BARRIER, SCHEDULE_BARRIER,
                                          SET_PRIO, WAIT_LGKM, WAIT_VM, OpDesc, OpRole)

PHASES = ("prologue", "loop", "epilogue")
SEPARATORS = ("wait", "barrier", "setprio", "sched_barrier", "sched_group_barrier")
#: data kinds compared gap by gap, and their names in findings
DATA_CLASSES = {"mfma": "mfma", "ds_read": "ds-read", "ds_write": "ds-write",
                "vmem_load_lds": "load-lds", "vmem_load": "load"}
#: the instruction a fragment load becomes (one per 16 bytes, ``payload_instructions``)
DS_READ = "ds_read_b128"
#: the instruction a global load becomes (``amdgpu.gather_to_lds`` of 16 bytes)
LOAD_LDS = "buffer_load_dwordx4"


class IsaCheckError(PipelineError):
    """The assembly and the schedule cannot be compared (no main loop, bad counts)."""


@dataclass(frozen=True)
class Token:
    """One skeleton instruction.

    ``kind`` is an instruction kind (:data:`pipeline_mlir.sim.instr.KINDS`),
    ``name`` the mnemonic (``None`` when any mnemonic of the kind is right),
    ``vm`` / ``lgkm`` the wait counts, ``value`` the priority or sched mask.
    ``origin``: expected tokens name their schedule entries (``('KRN[3]',)``,
    several for merged waits) or ``('lowering:<what>',)``; actual tokens are
    ``()``.  ``lines``: the assembly lines (actual tokens).  ``guards``: expected waits,
    the counters (``"vmcnt"``, ``"lgkmcnt"``) whose every merged schedule wait is an overflow
    guard (``OpDesc.overflow_guard``: it relies on no issue order).  ``derived``: expected
    waits, ``(counter, count)`` for each counter whose wait was lowered below the count the
    schedule derived (``OpDesc.derived_count``): the count whose cut the order rule pins.
    """

    kind: str
    name: str | None = None
    vm: int | None = None
    lgkm: int | None = None
    value: int = 0
    origin: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()
    parts: int = 1          # waits: how many waits were merged into this token
    guards: frozenset = field(default=frozenset(), compare=False)
    derived: tuple = field(default=(), compare=False)

    def describe(self) -> str:
        if self.kind == "wait":
            return "s_waitcnt " + (" ".join(
                f"{n}({v})" for n, v in (("vmcnt", self.vm), ("lgkmcnt", self.lgkm))
                if v is not None) or "(nothing)")
        if self.kind == "setprio":
            return f"s_setprio {self.value}"
        if self.kind == "barrier":
            return "s_barrier"
        if self.kind in ("sched_barrier", "sched_group_barrier"):
            return f"{self.kind} mask(0x{self.value:x})"
        return self.name or self.kind

    def where(self) -> str:
        if self.lines:
            return "line " + ",".join(str(x) for x in self.lines)
        return "/".join(self.origin) or "?"


@dataclass(frozen=True)
class Outside:
    phase: str
    line: int
    text: str
    reason: str

    def __str__(self) -> str:
        return f"{self.phase:<8} line {self.line:<5} {self.text:<44} {self.reason}"


# ---------------------------------------------------------------------------
# expected skeleton

@dataclass(frozen=True)
class Expansion:
    """How many instructions a logical op issues: per channel (0 = A, 1 = B) for
    global loads (``vm``) and fragment loads (``lgkm``), per MMA entry for MFMAs."""

    vm: tuple[int, ...]               # per channel (2, 3: the MX scale channels)
    lgkm: tuple[int, ...]
    mfmas_per_mma: int
    mfma_name: str | None = None      # None: any instruction of the kind
    load_name: str | None = None
    ds_name: str | None = None


#: the instructions of the MX scale channels' ops (2: A's scales, 3: B's): a scale DMA and
#: a scale read
SCALE_LOAD, SCALE_READ = "buffer_load_dword", "ds_read_u8"


def sep_key(t: Token) -> str:
    """The one-letter class of a separator token the alignments compare."""
    if t.kind == "wait":
        return "W"
    if t.kind == "setprio":
        return "P"
    if t.kind == "sched_group_barrier":
        return "G"
    if t.kind == "sched_barrier" and t.value:
        return "O"      # an order fence (memory instructions only): not a full fence
    return {"barrier": "B", "sched_barrier": "F"}[t.kind]


def _per_channel(counts: tuple[int, ...], op, label: str, what: str) -> int:
    if not 0 <= op.channel < len(counts):
        known = "0 = A or 1 = B" if len(counts) == 2 else \
            "0 = A, 1 = B, 2 = A's scales or 3 = B's scales"
        raise IsaCheckError(f"schedule entry {label}: {what} of channel {op.channel} (expected "
                            f"{known})")
    return counts[op.channel]


def _op_tokens(op: OpDesc, label: str, x: Expansion) -> list[Token]:
    o = (label,)
    if op.tag in (WAIT_VM, WAIT_LGKM):
        counter = "vmcnt" if op.tag == WAIT_VM else "lgkmcnt"
        guards = frozenset((counter,) if op.overflow_guard else ())
        derived = ((counter, op.derived_count),) if op.derived_count is not None else ()
        return [Token("wait", **{counter[:-3]: op.wait_value}, origin=o, guards=guards,
                      derived=derived)]
    if op.tag == BARRIER:
        return [Token("barrier", origin=o)]
    if op.tag == SET_PRIO:
        return [Token("setprio", value=op.wait_value, origin=o)]
    if op.tag == SCHEDULE_BARRIER:
        return [Token("sched_barrier", value=0, origin=o)]
    if op.tag == SCHED_GROUP_BARRIER:
        return [Token("sched_group_barrier", value=HINT_GROUP_MASKS[op.subtile], origin=o)]
    if op.role == OpRole.GLOBAL_LOAD:
        n = _per_channel(x.vm, op, label, "global load")
        name = SCALE_LOAD if op.channel >= 2 else x.load_name
        return [Token("vmem_load_lds", name, origin=o) for _ in range(n)]
    if op.role == OpRole.FRAGMENT_LOAD:
        n = _per_channel(x.lgkm, op, label, "fragment load")
        return [Token("ds_read", SCALE_READ if op.channel >= 2 else x.ds_name, origin=o)
                for _ in range(n)]
    if op.role == OpRole.COMPUTE:
        return [Token("mfma", x.mfma_name, origin=o) for _ in range(x.mfmas_per_mma)]
    raise IsaCheckError(f"schedule entry {label} (tag {op.tag}, role {op.role!r}) has no "
                        f"known instructions")


#: how findings name the entries of each phase
_PREFIX = {"prologue": "PRO", "kernel": "KRN", "epilogue": "EPI"}


def _part_tokens(plan: KernelPlan, part, x: Expansion) -> list[Token]:
    """The tokens of one part of the kernel's skeleton: its entries with the lowering's
    fences, or the instructions the kernel adds (named ``lowering:<what>``)."""
    if part.kind not in (ENTRIES, LOOP):
        return [t for op in part.ops() for t in _op_tokens(op, f"lowering:{part.label()}", x)]
    prefix = _PREFIX[part.name]
    entries = plan.entries(part.name)
    out: list[Token] = []
    for i in plan.fenced(part):
        if i is None:
            out.append(Token("sched_barrier", value=0, origin=(f"lowering:fence@{prefix}",)))
        elif i is ORDER_FENCE:
            out.append(Token("sched_barrier", value=ORDER_FENCE_MASK,
                             origin=(f"lowering:order-fence@{prefix}",)))
        elif isinstance(i, Interleaved):
            if not interleaves(x.mfmas_per_mma):
                out += _op_tokens(entries[i.entry].op, f"{prefix}[{i.entry}]", x)
        elif i is not INTERLEAVE and i is not LOAD_GROUPS and not isinstance(i, Dropped):
            out += _op_tokens(entries[i].op, f"{prefix}[{i}]", x)
    return out


def expected_skeleton(plan: KernelPlan, x: Expansion) -> dict[str, list[Token]]:
    """The instructions each assembly phase must hold, per the lowering contract.

    ``plan``: the kernel plan the lowering used (its phases, stagger, fences and the
    instructions the kernel adds); ``x``: instructions per logical op.  A kernel of one
    wave expects no ``s_barrier``: LLVM lowers the barrier of a workgroup of at most one
    wave to no instruction (the waits either side of one then meet, and merge).
    """
    out: dict[str, list[Token]] = {ph: [] for ph in PHASES}
    for part in plan.parts:
        out[plan.asm_phase(part)] += _part_tokens(plan, part, x)
    if plan.shape.waves == 1:
        out = {ph: [t for t in toks if t.kind != "barrier"] for ph, toks in out.items()}
    return {ph: _merge_waits(toks) for ph, toks in out.items()}


def combine_counts(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def order_count(t: Token, counter: str) -> int | None:
    """The count of ``counter`` whose cut wait ``t`` relies on: its derived count when it
    was lowered below it (``Token.derived``), else its own (None: it has no such count)."""
    return dict(t.derived).get(counter, getattr(t, counter[:-3]))


def merge_waits(p: Token, t: Token, lines: tuple[int, ...] = ()) -> Token:
    """Two waits as one: the stricter count of each counter, both origins; a counter is an
    overflow guard only if it is one in every wait that has it; the count whose cut the
    merged wait relies on is the stricter of the two (with its cut pinned, the merged
    wait completes what either needs), recorded as derived when it is not the merged count."""
    guards = frozenset(c for c in ("vmcnt", "lgkmcnt")
                       if any(getattr(x, c[:-3]) is not None for x in (p, t))
                       and all(getattr(x, c[:-3]) is None or c in x.guards for x in (p, t)))
    vm, lgkm = combine_counts(p.vm, t.vm), combine_counts(p.lgkm, t.lgkm)
    derived = tuple((c, n) for c, own in (("vmcnt", vm), ("lgkmcnt", lgkm))
                    if (n := combine_counts(order_count(p, c), order_count(t, c))) != own)
    return Token("wait", vm=vm, lgkm=lgkm, origin=p.origin + t.origin, lines=lines,
                 parts=p.parts + t.parts, guards=guards, derived=derived)


def _merge_waits(tokens: list[Token]) -> list[Token]:
    """Adjacent waits as one token (LLVM merges them into one ``s_waitcnt``)."""
    out: list[Token] = []
    for t in tokens:
        if t.kind == "wait" and out and out[-1].kind == "wait":
            p = out[-1]
            out[-1] = merge_waits(p, t, lines=p.lines + t.lines)
        else:
            out.append(t)
    return out


# ---------------------------------------------------------------------------
# actual skeleton

def _instr_token(i: AsmInstr) -> Token:
    if i.kind == "wait":
        return Token("wait", vm=i.vm, lgkm=i.lgkm, lines=(i.line,))
    if i.kind in ("setprio", "sched_barrier", "sched_group_barrier"):
        return Token(i.kind, value=i.value, lines=(i.line,))
    if i.kind == "barrier":
        return Token("barrier", lines=(i.line,))
    return Token(i.kind, i.mnemonic, lines=(i.line,))


def _sync_id(i: AsmInstr) -> int | None:
    for o in i.operands:
        if o.startswith("SyncID(") and o.endswith(")"):
            return int(o[7:-1], 0)
    return None


def actual_skeleton(fn: AsmFunction) -> tuple[dict[str, list[Token]], list[Outside]]:
    """Skeleton tokens per assembly phase, and the instructions no schedule issues
    (scalar loads, vector stores; a vector store is a token too, which only the order rule
    reads: it counts on vmcnt)."""
    try:
        phases = fn.main_loop_phases()
    except PipelineError as e:
        raise IsaCheckError(f"ISA check: {e}") from None
    out: dict[str, list[Token]] = {}
    outside: list[Outside] = []
    guards = fn.guard_fences()
    for ph in PHASES:
        toks: list[Token] = []
        prev = None
        for i in phases[ph]:
            if i.kind == "wait" and prev is not None and prev.kind == "wait":
                # consecutive s_waitcnt instructions act as one (LLVM merges its own in)
                toks[-1] = _merge_waits([toks[-1], _instr_token(i)])[0]
                prev = i
                continue
            prev = i
            if i.kind == "smem":
                outside.append(Outside(ph, i.line, i.text, "scalar load (kernel arguments)"))
            elif i.kind == "vmem_store":
                # no schedule entry, but on vmcnt (gfx9 counts stores there too): a token
                # for the order rule, which the comparison passes over
                outside.append(Outside(ph, i.line, i.text, "vector store (the C tile)"))
                toks.append(_instr_token(i))
            elif i.kind == "sched_group_barrier" and _sync_id(i) == INTERLEAVE_SYNC_ID:
                continue  # the lowering's interleave pipeline: no separator of the schedule
            elif id(i) in guards:
                continue  # a wait-state guard's fence: no separator of the schedule
            elif i.kind in SEPARATORS or i.kind in DATA_CLASSES:
                toks.append(_instr_token(i))
        out[ph] = toks
    return out, outside
