"""``sched-stage-copies``: a copy DMA cannot move, staged through registers in its slot.

The front end marks an ``amdgpu.gather_to_lds`` whose global source is not aligned to the
size it moves (IREE's copies of rows of 8190 bytes when K = 4095) with the unit attribute
``sched.register_staged`` (:data:`pipeline_mlir.frontend.marks.STAGED`).  Up to here it is
a copy like any other: the schedule places it, the tag check and the hazard check see it.
This pass, the last of a named pipeline (so the emitted MLIR, also when it is handed back
to ``iree-compile``, holds no marked copy) and again in the LLVM step, after
``sched-check-divisors`` (for pass pipelines that stop at ``sched-lower-to-rocdl``), replaces each marked copy by what a
direct-to-LDS copy does, through registers.  In a K-loop that allows it, the copy's load is
issued an iteration ahead and its store placed at the copy's slot
(:mod:`pipeline_mlir.passes._stage_ahead`, which says when); every other marked copy is
staged in its slot:

* at the copy's place, a ``vector.load`` of the lane's ``n`` elements from the global
  source (a buffer load, which on gfx950 takes any byte-aligned address);
* later in the same block, just before the first wait (``rocdl.s.waitcnt``), barrier, op
  with regions or the block's end after the copy, a ``vector.store`` of them to LDS at the
  copy's wave-uniform destination plus the lane's position (``lane * n`` elements: the
  lanes of a wave in order, as the DMA writes them); LLVM waits for the load (``vmcnt``)
  before the store, the register dependency.  Before a loop staged ahead beside DMA
  copies (the prologue), the store goes later, just before the first wait the schedule
  derived for the copy (:func:`pipeline_mlir.passes._stage_mixed.vmcnt_waits`);
* ``s_waitcnt lgkmcnt(0)`` after the store, so the LDS write is complete before that wait
  or barrier: every wait and barrier the schedule placed after the copy (for the DMA, on
  ``vmcnt``) then finds the data in LDS, as it would have found the DMA's.

A DMA copy may write LDS at any time between its issue and the wait the schedule derived
for it, and the schedule is correct for every such time (the emulator's random mode runs
them); the staged store lands inside that window, before the first wait or barrier after
the copy, so what holds for the DMA holds for it.  Between the copy and the store the
loaded registers stay live and the load's latency overlaps the ops in between (the MFMAs
the schedule interleaves with the copy); what is left of it is exposed at the store.  A
marked op that is not a one-index copy into a one-dimensional LDS buffer is an error at
the op.

Last, the staged form is checked as it is issued (:mod:`pipeline_mlir.analysis.lds_order`
reads each function's copies, global loads, LDS stores and reads, waits and barriers in
program order, :mod:`pipeline_mlir.sim.lds_events` simulates them): an LDS read that may
see a staged store or copy incomplete in another wave, or a write that may overwrite LDS a
read in another wave still reads, is an error at the op (the schedule's own check,
``sched-fix-hazards``, saw every copy as a DMA).

Options: ``force-sources=0,1`` marks every copy of the named global sources first, aligned
or not (:mod:`pipeline_mlir.passes._stage_force`), and ``ahead=false`` keeps every staged
copy in its slot; tests and benchmarks choose the staged form with them.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.block_scan import block_ops, ops_from
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.analysis.barriers import BARRIERS, wait_counts
from pipeline_mlir.analysis.ir_facts import LANE_STRIDE, lane_stride, segments
from pipeline_mlir.analysis.lds_order import staged_hazards
from pipeline_mlir.frontend.marks import STAGED
from pipeline_mlir.isa.waitcnt import waitcnt_imm
from pipeline_mlir.passes._common import ModulePass, OpError, Option, as_operation
from pipeline_mlir.passes._join_stores import join_runs
from pipeline_mlir.passes._stage_force import OPTION as FORCE, force, parse_sources
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.passes._stage_ahead import (copy_vector_type, apply as stage_ahead, check_budget,
                                              plan)


class StageCopies(ModulePass):
    """Register-stage every ``amdgpu.gather_to_lds`` marked ``sched.register_staged``."""

    name = "sched-stage-copies"
    summary = "stage marked global->LDS copies through registers (load, store, lgkmcnt wait)"
    options = (Option(FORCE, "str", "", "also stage every copy of these global sources "
                      "(comma-separated numbers, in the order of their first copy)"),
               Option("ahead", "bool", True, "issue a K-loop's staged loads an iteration "
                      "ahead where the loop allows it (false: every staged copy in its slot)"))

    def __init__(self, **values) -> None:
        """A malformed ``force-sources`` is an error of the option (the command line), before
        any module is read; a number that names no source is one of the module."""
        super().__init__(**values)
        bad = parse_sources(self[FORCE])
        if isinstance(bad, str):
            raise ConfigError(f"{self.owner()}: {bad}")

    def run(self, module) -> list[OpError]:
        # (the module's copies walked once: nothing below changes it before the staging;
        # the forced sources' marks are attributes)
        copies = walk_ops(as_operation(module), lambda o: o.name == "amdgpu.gather_to_lds")
        errors = force(module, self[FORCE], copies)
        if errors:
            return errors
        strided = [op for op in copies if LANE_STRIDE in op.attributes]
        errors = [OpError(op, why) for op in strided
                  if (why := _bad_lane_stride(op)) is not None]
        if errors:
            return errors
        unmarked = any(STAGED not in op.attributes for op in copies)   # a DMA copy
        pieces = {segments(op)[2][0] for op in strided}
        by_parent: dict = {}
        for op in copies:
            if STAGED in op.attributes:
                by_parent.setdefault(op.parent, []).append(op)
        slot, ahead = [], []
        for parent, copies in by_parent.items():
            p = plan(parent, copies, unmarked) if self["ahead"] else "option ahead=false"
            if isinstance(p, str):
                slot.extend(copies)
            elif (err := check_budget(p)) is not None:
                errors.append(err)
            else:
                ahead.append(p)
        # the prologue copies of a loop staged ahead beside DMA copies first: their stores
        # go before waits that loop's re-derived waits may erase
        points = {c: at for p in ahead for c, at in p.stores.items()}
        later = [op for op in slot if op not in points]
        _stage_all([op for op in slot if op in points], points, errors)
        for p in ahead:
            stage_ahead(p, _store_point, _lane_address)
        _stage_all(later, {}, errors, _StorePoints())
        if not errors:
            join_runs(as_operation(module), pieces)
        if (slot or ahead) and not errors:
            errors = [OpError(op, f"the register-staged form: {msg}")
                      for op, msg in staged_hazards(module)]
        return errors


def _bad_lane_stride(op) -> str | None:
    """Why ``op``'s :data:`LANE_STRIDE` cannot be staged, if so: only a staged copy writes
    its lanes apart, and only an integer of at least the elements a lane moves keeps each
    lane's LDS elements its own (a smaller one would have lanes overwrite each other)."""
    if STAGED not in op.attributes:
        return (f"'{op.name}' op carries {LANE_STRIDE} (its lanes' LDS places apart) but not "
                f"{STAGED}: a direct-to-LDS copy writes its lanes one after the other")
    try:
        lane_stride(op, copy_vector_type(op).shape[0])
    except IRError as e:
        return str(e)
    return None


def _stage_all(ops: list, points: dict, errors: list, found=None) -> None:
    """Each of ``ops`` staged in its slot, its store before ``points[op]`` or else its
    :func:`_store_point` (as ``found``, a :class:`_StorePoints`, finds it, where given: no
    op has a point then); a copy into a buffer that is not 1-D is an error in ``errors``."""
    for op in ops:
        (src,), src_idx, (dst,), dst_idx = segments(op)
        if len(dst_idx) != 1:
            errors.append(OpError(op, f"'{op.name}' op marked {STAGED} writes LDS "
                                      f"{dst.type}; a staged copy writes a 1-D buffer"))
            continue
        if op in points:
            _reads_done_before(op, points[op])
        point = points.get(op) or (found.of(op) if found is not None else _store_point(op))
        wait = _stage(op, src, src_idx, dst, dst_idx[0], point)
        if found is not None:
            found.waited(wait)


def _reads_done_before(op, point) -> None:
    """``s_waitcnt lgkmcnt(0)`` before the last barrier between copy ``op`` and ``point``
    (where a prologue copy's store goes, past barriers: :mod:`_stage_mixed`), if there is
    one and no wait for ``lgkmcnt`` 0 stands just before it: the LDS reads this wave issued before that
    barrier are then done when the other waves, past it, write LDS from registers (the ISA
    check's rule, blind to addresses, asks it of every such barrier)."""
    ops, at = _through(op, point)
    if at is None:                      # (a point before the copy: no barrier between)
        return
    bars = [k for k in range(at + 1, len(ops) - 1) if ops[k].name in BARRIERS]
    if not bars:
        return
    bar = ops[bars[-1]]
    counts = wait_counts(ops[bars[-1] - 1])
    if counts is not None and counts[1] == 0:
        return
    with ir.InsertionPoint(bar), bar.location:
        B.rocdl.s_waitcnt(waitcnt_imm(lgkmcnt=0))


def _stage(op, src, src_idx: list, dst, base, point):
    """``op`` (copying from ``src[src_idx]`` to ``dst[base]``) replaced by load, and store
    and wait before ``point`` (module docstring); the wait."""
    vt = copy_vector_type(op)
    n = vt.shape[0]
    with ir.InsertionPoint(op), op.location:
        val = B.vector.load(vt, src, src_idx)
        at = _lane_address(base, lane_stride(op, n))
    with ir.InsertionPoint(point), op.location:
        B.vector.store(val, dst, [at])
        wait = B.rocdl.s_waitcnt(waitcnt_imm(lgkmcnt=0))
    op.erase()
    return as_operation(wait)


def _lane_address(base, n: int):
    """The LDS index of the lane's elements of a copy whose wave writes from ``base``, its
    lanes ``n`` elements apart (the elements it moves, or its lane stride)."""
    t = ir.IndexType.get()
    A = B.arith
    return A.addi(base, A.muli(B.gpu.lane_id(), A.constant(t, ir.IntegerAttr.get(t, n))))


#: the ops a staged copy's LDS store does not move past
FENCES = ("rocdl.s.waitcnt", "rocdl.s.barrier", "gpu.barrier", "amdgpu.lds_barrier")


def _store_point(op):
    """The op before which copy ``op``'s staged store goes: the first wait, barrier or op
    with regions after it in its block, or the block's terminator."""
    last = None
    for o in ops_from(op):          # (read from the copy only up to the point: blocks are long)
        if last is not None and (o.name in FENCES or len(o.regions)):
            return o
        last = o
    return last


class _StorePoints:
    """:func:`_store_point` of each copy of a run of :func:`_stage_all` without points, each
    block's ops read once: per block, its ops that end a scan (:data:`FENCES`, ops with
    regions) and its last op, in order, the first after a copy found by bisection
    (``is_before_in_block``).  :func:`_store_point` reads every op of the block up to the
    copy and on to its point, for each copy: blocks of thousands of ops, copies by the
    hundred (IREE's bf16 ``A^T x B`` 522x653x704, prefetch point: 1.4 of a 5 s build).  The
    one change of a block's list while the run lasts is the wait :func:`_stage` places
    before each store (:meth:`waited`); the load, the lane address and the store it makes
    end no scan, and the copy it erases is in no list."""

    def __init__(self) -> None:
        self.ends: dict = {}

    def of(self, op):
        """:func:`_store_point` of ``op``."""
        op = as_operation(op)
        ends = self.ends.get(op.block)
        if ends is None:
            ends = self.ends[op.block] = _scan_ends(op.block)
        at = _first_after(ends, op)
        return ends[at] if at < len(ends) else op

    def waited(self, wait) -> None:
        """Note ``wait``, just placed in the block of a copy this run staged."""
        ends = self.ends.get(wait.block)
        if ends is not None:
            ends.insert(_first_after(ends, wait), wait)


def _scan_ends(block) -> list:
    """The ops of ``block`` that end :func:`_store_point`'s scan, and its last op, in order."""
    ops = block_ops(block)
    ends = [o for o in ops if o.name in FENCES or len(o.regions)]
    if ops and (not ends or ends[-1] != ops[-1]):
        ends.append(ops[-1])
    return ends


def _first_after(ends: list, op) -> int:
    """The position of the first of ``ends`` (ops of ``op``'s block, in order) after
    ``op``: ``len(ends)`` if none is."""
    lo, hi = 0, len(ends)
    while lo < hi:
        mid = (lo + hi) // 2
        if op.is_before_in_block(ends[mid]):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _through(op, point) -> tuple[list, int | None]:
    """The ops of ``op``'s block from ``op`` through ``point``, read only that far (the
    blocks are long, and each staged copy reads its own), and the position of ``op`` among
    them: 0 (None: ``point`` is not after ``op``)."""
    op, point = as_operation(op), as_operation(point)
    if point.block != op.block:
        raise ValueError(f"'{point.name}' op is not in the block of '{op.name}' op")
    if not op.is_before_in_block(point):
        return [], None
    ops = []
    for o in ops_from(op):
        ops.append(o)
        if o == point:
            break
    return ops, 0
