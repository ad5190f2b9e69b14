"""The epilogue's fragment reads whose results nothing uses: the lowering does not emit them.

The 4-wave epilogue is the loop's blocks with the copies they prefetch stripped
(:func:`~pipeline_mlir.schedule.phases.strip_drain_fuse_blocks`), each block's fragment
reads kept.  The last block of each K partition reads subtile 0 of A and of B from the other
stage for MMA (0, 0) of the next partition: in the loop the next iteration runs that MMA;
after the epilogue's last partition none does.  The reference prints those reads (``EPI[25]``
and ``EPI[29]`` of its 4-wave BF16 schedule) and the printed schedule keeps them, but their
results feed nothing.  The lowering emitted them (40 LDS reads in IREE's i8 128x64
one-wave kernel of ``docs/iree-audits.md`` finding 39, 8 in the 4-wave BF16 kernel) and
LLVM deleted them as dead, while the ISA check expected them.  :func:`unused_reads` names
them and the plan marks them (``KernelPlan.unissued``): the lowering does not emit them,
the fences and waits around them stay as they were
(:meth:`~pipeline_mlir.kernel.plan.KernelPlan.fenced` marks them dropped), the ISA check
expects none of their reads, and a warp's executed stream
(:meth:`~pipeline_mlir.kernel.plan.KernelPlan.run`) leaves them out.

A read is left out only where the waits stay exact without it: an LDS read counts on
``lgkmcnt`` alone, so no counted ``lgkmcnt`` wait (count above 0) may follow it in the
epilogue (one would count it as issued); a ``lgkmcnt(0)`` waits for everything issued
whatever it is (:func:`~pipeline_mlir.kernel.unread_frags.droppable`).  A plan built from
a schedule alone marks the same reads by the complete kernels' rule of which fragments an MMA
reads (:mod:`pipeline_mlir.kernel.unread_frags`).
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import ops_of
from pipeline_mlir.frontend.tagged import PAYLOAD_ATTR
from pipeline_mlir.kernel.unread_frags import droppable
from pipeline_mlir.schedule.types import WAIT_FRAG, KOffsetKind, OpDesc, OpRole
from pipeline_mlir.lowering.keep_alive import accumulators
from pipeline_mlir.lowering.rocdl_build import CONTROL_TAGS


_NONE: frozenset = frozenset()


def k_shift(template: OpDesc, entry: OpDesc) -> int:
    """The K tiles (of BK) between where ``entry`` is placed and its payload ``template``:
    the lowering clones the payload's address math shifted by as many."""
    return _k(entry.k_offset) - _k(template.k_offset)


def _k(k: KOffsetKind) -> int:
    return 0 if k == KOffsetKind.NONE else k.signed_bk_multiple()


class _Shadow:
    """The lowering's placing of one phase (``materialize._Emitter``) followed on entry
    indices instead of values: for each payload result the entry that last placed it, and
    for each op of the body that is no payload op (the math the lowering clones once per
    phase and K shift, where first needed) the entries its clone reads."""

    def __init__(self, body: list) -> None:
        self.body = set(body)
        self.env: dict = {}       # payload result -> the entry that last placed it
        self.memo: dict = {}      # (cloned op, shift) -> the entries its clone reads

    def value(self, v, shift: int) -> frozenset:
        owner = v.owner
        if owner.__class__ is ir.Block:
            return _NONE
        op = _op(owner)
        if op not in self.body:
            return _NONE
        if PAYLOAD_ATTR in op.attributes:
            i = self.env.get(v)
            return _NONE if i is None else frozenset((i,))
        got = self.memo.get((op, shift))
        if got is None:
            got = self.memo[(op, shift)] = self.reads(op, shift)
        return got

    def reads(self, op, shift: int) -> frozenset:
        """The entries whose results ``op`` (placed now, shifted by ``shift``) reads, also
        through the ops nested in it."""
        return _NONE.union(*(self.value(v, shift) for v in _operands(op)))


def _operands(op) -> list:
    out = list(op.operands)
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                out += _operands(_op(inner))
    return out


def placed_yields(loop, yields: list) -> set[int]:
    """The positions of the values ``loop`` yields (``yields``) that the epilogue places for
    the loop's results: a result used after the loop, or an accumulator (which
    :mod:`~pipeline_mlir.lowering.keep_alive` keeps).  The others (a fragment the loop
    carries to its next iteration) would be placed for nothing."""
    return {k for k, (y, result) in enumerate(zip(yields, loop.results))
            if next(iter(result.uses), None) is not None or accumulators([y], [y])}


def unused_reads(entries, phase_op, templates, loop, yields, body: list) -> frozenset[int]:
    """The indices of the epilogue's fragment reads whose results nothing after them uses.

    ``entries``: the plan's epilogue entries, ``phase_op`` the ``sched.epilogue`` op holding
    them in the IR; ``templates``: the lowering's payload ops of each entry (its ``find``,
    from the start of the phase); ``yields``: the values ``loop`` yields, of which the
    epilogue places those of :func:`placed_yields` anew for the loop's results; ``body``:
    the loop body's ops.  Every entry defining a payload result the lowering reads there
    counts as used."""
    shadow = _Shadow(body)
    templates.start_phase()
    used: set[int] = set()
    reads: list[int] = []
    for i, (e, e_op) in enumerate(zip(entries, ops_of(phase_op.regions[0]))):
        d = e.op
        if d.tag in CONTROL_TAGS or d.tag == WAIT_FRAG:
            continue
        template, group = templates.find(d, e_op)
        shift = k_shift(template, d)
        for op in group:
            used |= shadow.reads(op, shift)
            for r in op.results:
                shadow.env[r] = i
        if d.role == OpRole.FRAGMENT_LOAD and all(len(op.results) for op in group):
            reads.append(i)
    for k in placed_yields(loop, yields):
        used |= shadow.value(yields[k], 0)
    return droppable(entries, [i for i in reads if i not in used])

