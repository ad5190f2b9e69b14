"""``sched-lower-to-rocdl``: control entries to ``rocdl`` ops, per the lowering contract.

WAIT_VM / WAIT_LGKM become one ``rocdl.s.waitcnt`` each with the SPEC 4.7
encoding (a count over vmcnt 63 / lgkmcnt 15 is an error), BARRIER
``rocdl.s.barrier``, SET_PRIO ``rocdl.s.setprio``, SCHEDULE_BARRIER
``rocdl.sched.barrier none`` and SCHED_GROUP_BARRIER ``rocdl.sched.group.barrier``.
Runs of waits and kernel block boundaries are fenced with ``rocdl.sched.barrier
none`` (options ``fence-waits``, ``fence-blocks``) so that LLVM cannot move
MFMAs across them.

Abstract pipelines keep their data ops as ``sched`` ops with a ``tag`` attribute
(the schedule's op name); the body and the program, no longer needed, are
removed.  Concrete pipelines (``concrete``) are materialized into the real
prologue / loop / epilogue around their ``scf.for`` (``dialect/concrete.py``).
"""

from __future__ import annotations

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, drop_attr, get, ops_of, read_entry, set_attr
from pipeline_mlir.dialect.rocdl_build import create_control, fenced_sequence, sched_barrier_none
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.types import MAX_KERNEL_TAG, default_op_name

from ._common import CONSUMED, PassOption, SchedPass, in_context


class LowerToROCDL(SchedPass):
    name = "sched-lower-to-rocdl"
    summary = "lower waits/barriers/priorities/sched barriers to rocdl ops, fenced; place payloads"
    requires, produces = "phases", "lowered"
    options = (
        PassOption("fence-waits", "bool", True,
                   "fence every run of s_waitcnt with rocdl.sched.barrier none"),
        PassOption("fence-blocks", "bool", True,
                   "fence every kernel block boundary with rocdl.sched.barrier none"),
    )

    @in_context
    def run_pipeline(self, p) -> None:
        if get(p.op, "concrete", S.UNIT, False):
            from pipeline_mlir.dialect.concrete import materialize

            materialize(p, self["fence-waits"], self["fence-blocks"])
            return CONSUMED
        s = p.schedule_object()
        positions = {}
        for name in S.PHASE_OPS:
            ph = p.phase_ops.get(name)
            if ph is not None:
                positions[name] = self._lower_phase(ph, p.schedule, dict(s.tag_names))
        for op in p.body_ops:
            op.erase()
        if p.program_op is not None:
            p.program_op.erase()
        # index attributes of the removed body and of the unlowered entry lists go too;
        # the stagger index moves with its prologue entry (fences were inserted)
        for attr in ("edges", "order", "kernel_deps"):
            drop_attr(p.op, attr)
        stagger = get(p.op, "warp_stagger_index", S.INT)
        pro = positions.get(S.PROLOGUE)
        if stagger is not None and pro is not None:
            new = pro[0][stagger] if stagger < len(pro[0]) else pro[1] + (stagger - len(pro[0]))
            set_attr(p.op, "warp_stagger_index", S.INT, new)

    def _lower_phase(self, ph, schedule: str, names: dict) -> tuple[list[int], int]:
        """Lower one phase in place; returns (new position of each old entry, new length)."""
        entries = ops_of(ph.regions[0])
        descs = [read_entry(e, schedule) for e in entries]
        blocks = [get(e, "block", S.INT) for e in entries]
        seq = fenced_sequence(descs, blocks if any(b is not None for b in blocks) else None,
                              self["fence-waits"], self["fence-blocks"])
        by_desc = iter(zip(entries, descs))
        block = ph.regions[0].blocks[0]
        anchor_ops = []
        pending = []
        for item in seq:
            if item is None:
                pending.append(None)
                continue
            e_op, d = next(by_desc)
            anchor_ops.append((pending, e_op, d))
            pending = []
        # emit: fences before each entry, the entry (lowered or tagged), trailing fences
        positions, pos = [], 0
        for before, e_op, d in anchor_ops:
            positions.append(pos)  # an entry starts at its fences
            pos += len(before) + 1
            with ir.InsertionPoint(e_op), e_op.location:
                for _ in before:
                    sched_barrier_none()
                if d.tag > MAX_KERNEL_TAG:
                    try:
                        create_control(d)
                    except (PipelineError, ValueError) as err:
                        raise IRError(e_op, f"'{e_op.name}' op: {err}") from None
            if d.tag > MAX_KERNEL_TAG:
                e_op.erase()
            else:
                e_op.attributes["tag"] = ir.StringAttr.get(default_op_name(d.tag, names))
        if pending:
            with ir.InsertionPoint(block), ph.location:
                for _ in pending:
                    sched_barrier_none()
        return positions, pos + len(pending)
