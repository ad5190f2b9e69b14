"""The schedule compiler's path (body, edges, order, blocks and waits, phases) cut into
the steps the MLIR passes run one at a time.

``ScheduleCompiler.compile`` calls these in order; each ``sched-*`` pass calls
exactly one of them on the state it read back from IR.  Keeping one
implementation for both routes is what makes "the passes, run one by one,
reproduce the golden schedules" a test of the IR round trip rather than of a
second copy of the algorithm.

Steps (double-buffer path, ``depth >= 2``):

==================  ==========================================  ==================
step                what it computes                            pass
==================  ==========================================  ==================
annotate            cost-model fields of every body op          sched-annotate
reorder             the schedule's body reorder                 sched-reorder
edges               FLOW/ANTI edges with loop distance          sched-derive-edges
order               IDENTITY / GREEDY / CSP op order            sched-schedule
blocks              MMA blocks, redistribution, derived waits   sched-derive-waits
explicit            explicit per-block op lists (4-wave)        sched-explicit-blocks
phases              prologue, kernel, epilogue, deps, stagger   sched-expand-phases
==================  ==========================================  ==================

The single-buffer path (``depth < 2``) has no order, blocks or waits: those
steps are identities and ``phases`` uses the default recipes.
"""

from __future__ import annotations

from pipeline_mlir.errors import BodyError, ConfigError
from pipeline_mlir.records import field, record, replace
from pipeline_mlir.schedule.frag_waits import fragment_waits
from pipeline_mlir.schedule.frags_ahead import NONE, frags_ahead
from pipeline_mlir.schedule.vm_cap import cap_vm_waits
from pipeline_mlir.schedule.phases import (default_epilogue, default_kernel, default_prologue,
                     derive_epilogue_from_program, derive_prologue_from_program, warp_stagger_index)
from pipeline_mlir.schedule.program import PipelineProgram
from pipeline_mlir.schedule.program_builder import (DerivedWaits, build_program_with_waits,
                              default_kernel_deps_double_buffer, loop_body, order_body,
                              verify_program)
from pipeline_mlir.target.gfx950 import LGKMCNT_MAX, NAME, VMCNT_MAX
from pipeline_mlir.schedule.types import (
    FRAMEWORK_TAG_NAMES,
    MAX_KERNEL_TAG,
    WAIT_FRAG,
    WAIT_LGKM,
    WAIT_VM,
    DepEdge,
    OpDesc,
    OpRole,
    Phase,
    ScheduleEntry,
    annotate_ops,
)


def is_double_buffer(s) -> bool:
    return s.config().depth >= 2


def lgkm_per_load(s) -> tuple[int, int]:
    """lgkmcnt entries one fragment load of A / of B produces, as the derived waits count
    them: the pipeline config's count, else the schedule config's (0: not counted)."""
    sched = s.schedule_config()
    return s.config().lgkm_per_load(sched.lgkm_per_load_a, sched.lgkm_per_load_b)


def annotate(s, ops: list[OpDesc]) -> list[OpDesc]:
    """Fill resource/latency/role/costs from the schedule's cost model (tags < 128 only)."""
    check_body_size(s, ops)
    return annotate_ops(list(ops), s.cost_model())


def reorder(s, ops: list[OpDesc]) -> list[OpDesc]:
    check_body_size(s, ops)
    return list(s.reorder_body(list(ops)))


def edges(s, body: list[OpDesc]) -> list[DepEdge]:
    check_body_size(s, body)
    return list(s.derive_edges(list(body)))


#: fragment loads and global loads one MMA block holds at most
PER_BLOCK = 2


def check_body_size(s, ops: list[OpDesc]) -> None:
    """A double-buffer body fits its blocks: at most one MMA per block and at most 2 fragment
    and 2 global loads per block (block construction refuses anything more).  Checked at once
    (linear), before the edges, whose number grows with the square of the body; a body with
    too few MMAs is left to block construction, which says which block is missing one."""
    if not is_double_buffer(s):
        return
    blocks = s.config().total_blocks
    try:
        model = s.cost_model()
    except NotImplementedError:  # a schedule without a cost model: annotated ops only
        model = None
    count = {OpRole.COMPUTE: 0, OpRole.FRAGMENT_LOAD: 0, OpRole.GLOBAL_LOAD: 0}
    for op in ops:
        role = op.role
        if role == OpRole.NONE and model is not None and op.tag <= MAX_KERNEL_TAG:
            role = model.get_cost(op.tag).role
        if role in count:
            count[role] += 1
    limits = ((OpRole.COMPUTE, blocks, "MMAs", "one per block"),
              (OpRole.FRAGMENT_LOAD, PER_BLOCK * blocks, "fragment loads",
               f"at most {PER_BLOCK} per block"),
              (OpRole.GLOBAL_LOAD, PER_BLOCK * blocks, "global loads",
               f"at most {PER_BLOCK} per block"))
    for role, hi, what, rule in limits:
        if count[role] > hi:
            raise BodyError(f"the body has {count[role]} {what}, but the '{s.name}' "
                            f"schedule's {blocks} MMA blocks take at most {hi} ({rule})")


def order(s, body: list[OpDesc], edge_list: list[DepEdge]):
    """(order, ScheduleResult or None); the identity on the single-buffer path."""
    if not is_double_buffer(s):
        return list(range(len(body))), None
    return order_body(loop_body(body, s.config(), edge_list), s.config(), s.schedule_config())


def blocks(s, body: list[OpDesc], edge_list: list[DepEdge],
           op_order: list[int]) -> tuple[PipelineProgram, DerivedWaits | None]:
    """MMA-centred blocks, global redistribution and (auto_waits) derived, patched waits."""
    if not is_double_buffer(s):
        raise BodyError(f"schedule '{s.name}' is single-buffer (depth "
                        f"{s.config().depth}): it has no MMA blocks")
    if sorted(op_order) != list(range(len(body))):
        raise BodyError(f"the op order {list(op_order)} is not a permutation of the "
                        f"{len(body)} body ops")
    return build_program_with_waits(loop_body(body, s.config(), edge_list), list(op_order),
                                    s.config(), s.schedule_config())


def verify(s, program: PipelineProgram, waits: DerivedWaits | None) -> None:
    """The structural checks of a program; raises VerificationError."""
    verify_program(program, s.config(), s.schedule_config(), waits)


def explicit(s, body: list[OpDesc], program: PipelineProgram) -> list[list[OpDesc]]:
    """The schedule's explicit block lists (empty: template expansion)."""
    lists = s.build_explicit_blocks(list(body), program)
    if lists and len(lists) != len(program.blocks):
        raise BodyError(f"build_explicit_blocks must return one entry per program block "
                        f"({len(program.blocks)} blocks, got {len(lists)})")
    return [list(b) for b in lists]


@record
class Phases:
    prologue: list[ScheduleEntry] = field(default_factory=list)
    kernel: list[ScheduleEntry] = field(default_factory=list)
    epilogue: list[ScheduleEntry] = field(default_factory=list)
    kernel_deps: list[DepEdge] = field(default_factory=list)
    warp_stagger_index: int = 0
    #: kernel entry index -> program block index (double-buffer path only)
    kernel_blocks: list[int] = field(default_factory=list)


def phases(s, body: list[OpDesc], edge_list: list[DepEdge],
           program: PipelineProgram | None, input_counts: bool = False) -> Phases:
    """The prologue, kernel and epilogue of ``s``.  ``input_counts``: the per-load counts
    are an input kernel's (a concrete pipeline, whose counts are checked against the
    instructions its payload ops issue), so where a ``WAIT_VM`` derived for them leaves
    more loads in flight than ``vmcnt`` holds the waits are lowered as the ``dma=dword``
    schedules' are (:func:`~pipeline_mlir.schedule.vm_cap.cap_vm_waits`, a stronger wait)
    rather than the kernel refused; counts a pipeline's options give for its own kernel
    keep the limit's error (:func:`check_wait_limits`)."""
    out = _phases(s, body, edge_list, program)
    if input_counts and not getattr(s, "cap_vm_waits", False) and _over_vm_limit(out):
        s.cap_vm_waits = True       # (the schedule says its waits are capped, as dword's)
        _cap_vm(out, s.config())
    check_wait_limits(out)
    return out


def _over_vm_limit(ph: Phases) -> bool:
    """Whether a ``WAIT_VM`` of ``ph`` waits for more than ``vmcnt`` holds."""
    return any(e.op.tag == WAIT_VM and e.op.wait_value > VMCNT_MAX
               for entries in (ph.prologue, ph.kernel, ph.epilogue) for e in entries)


def _cap_vm(ph: Phases, config) -> None:
    """``ph``'s global-load waits capped at what ``vmcnt`` holds (:mod:`.vm_cap`)."""
    ph.prologue, ph.kernel, ph.epilogue = cap_vm_waits(
        ph.prologue, ph.kernel, ph.epilogue, lambda op: config.vm_per_channel(op.channel))


def _phases(s, body: list[OpDesc], edge_list: list[DepEdge],
            program: PipelineProgram | None) -> Phases:
    """:func:`phases`' entries, their waits capped where ``s`` asks (``cap_vm_waits``),
    not yet held to the counters' limits."""
    config = s.config()
    out = Phases()
    if not is_double_buffer(s):
        out.prologue = default_prologue(body, config)
        out.kernel = s.transform_kernel(default_kernel(body), body)
        out.epilogue = default_epilogue(body, config)
        out.kernel_deps = list(edge_list)
    else:
        if program is None:
            raise BodyError(f"schedule '{s.name}' needs its MMA blocks before phase expansion")
        out.prologue = derive_prologue_from_program(program, config, s.schedule_config(),
                                                    s.bootstrap_frags())
        out.kernel = program.expand_to_list(Phase.KERNEL)
        out.epilogue = derive_epilogue_from_program(program, config)
        out.kernel_deps = default_kernel_deps_double_buffer(out.kernel, config)
        out.kernel_blocks = [i for i in range(len(program.blocks))
                             for _ in range(program.block_entry_count(i))]
        out.kernel_blocks += [len(program.blocks)] * (len(out.kernel) - len(out.kernel_blocks))
        ahead = getattr(s, "frags_ahead", NONE)
        if ahead != NONE:
            out.prologue, out.kernel, out.epilogue, out.kernel_blocks = frags_ahead(
                out.prologue, out.kernel, out.epilogue, out.kernel_blocks, lgkm_per_load(s),
                config.vm_per_channel, ahead)
        if getattr(s, "fragment_waits", False):
            out.prologue, out.kernel, out.epilogue = fragment_waits(
                out.prologue, out.kernel, out.epilogue, lgkm_per_load(s),
                getattr(s, "frag_unread", (0, 0)))
        if max(lgkm_per_load(s)) > LGKMCNT_MAX:
            cap_long_load_waits(out)
    out.warp_stagger_index = warp_stagger_index(body, config, len(out.prologue))
    if getattr(s, "cap_vm_waits", False):
        _cap_vm(out, config)
    return out


#: counter name, gfx950 limit and what the counter counts, by wait tag
COUNTER_LIMITS = {WAIT_VM: ("vmcnt", VMCNT_MAX, "global loads"),
                  WAIT_LGKM: ("lgkmcnt", LGKMCNT_MAX, "fragment (LDS) loads"),
                  WAIT_FRAG: ("lgkmcnt", LGKMCNT_MAX, "fragment (LDS) loads")}


def cap_long_load_waits(ph: Phases) -> None:
    """A schedule with a fragment load of more reads than ``lgkmcnt`` holds
    (:mod:`pipeline_mlir.schedule.long_loads`) relies on the hardware, which keeps at most
    ``LGKMCNT_MAX`` LDS instructions in flight at any point.  A derived ``lgkmcnt(n)`` with
    ``n > LGKMCNT_MAX`` (all but the ``n`` youngest complete, counting every read of such a
    load) then asks for less than the hardware already ensures; it becomes
    ``lgkmcnt(LGKMCNT_MAX)``, which requires more (all but the 15 youngest complete), so
    everything the derived wait protected stays protected.  The lowered wait records the
    count it replaces (``OpDesc.derived_count``, as :mod:`pipeline_mlir.schedule.vm_cap`'s
    do): the order walks pin the derived count's cut and the ISA check refuses an actual
    count above it (``wait-over-derived``).  Only waits over the limit change; a schedule
    whose loads fit keeps the limit check (:func:`check_wait_limits`)."""
    for entries in (ph.prologue, ph.kernel, ph.epilogue):
        for i, e in enumerate(entries):
            if e.op.tag in (WAIT_LGKM, WAIT_FRAG) and e.op.wait_value > LGKMCNT_MAX:
                entries[i] = replace(e, op=e.op.with_(wait_value=LGKMCNT_MAX,
                                                      derived_count=e.op.order_count()))


def check_wait_limits(ph: Phases) -> None:
    """Every wait of the phases within the gfx950 counter limits (checked where the waits
    are made, so every output -- printed schedule, JSON, IR, code -- reports it)."""
    for label, entries in (("PRO", ph.prologue), ("KRN", ph.kernel), ("EPI", ph.epilogue)):
        for i, e in enumerate(entries):
            limit = COUNTER_LIMITS.get(e.op.tag)
            if limit is not None and e.op.wait_value > limit[1]:
                counter, hi, what = limit
                name = FRAMEWORK_TAG_NAMES[e.op.tag]
                raise ConfigError(
                    f"{label}[{i}] {name} waits for {counter}({e.op.wait_value}), over the "
                    f"{NAME} limit {counter} <= {hi}: the schedule keeps more {what} in flight "
                    f"than the counter holds (fewer instructions per load, or a smaller tile)")
