"""``sched-lower-to-rocdl``: control entries to ``rocdl`` ops, per the lowering contract.

WAIT_VM / WAIT_LGKM become one ``rocdl.s.waitcnt`` each with the gfx9 ``s_waitcnt`` encoding
(a count over vmcnt 63 / lgkmcnt 15 is an error), BARRIER ``rocdl.s.barrier``, SET_PRIO
``rocdl.s.setprio``, SCHEDULE_BARRIER ``rocdl.sched.barrier none`` and SCHED_GROUP_BARRIER
``rocdl.sched.group.barrier``. Runs of waits and kernel block boundaries are fenced with
``rocdl.sched.barrier none`` (options ``fence-waits``, ``fence-blocks``) so that LLVM cannot
move MFMAs across them (by default the block boundaries of a schedule whose blocks end with
the schedule barriers of its ``sched_barrier_mask`` are not: those barriers are its fences,
and a boundary the mask leaves open stays open); so is every change between fragment loads
and global loads (``fence-loads``), so that LLVM keeps the schedule's order of the two kinds
of loads instead of hoisting the global loads above the fragment reads.  In a concrete
pipeline an MMA that directly follows its block's loads shares one scheduling region with
them, the MFMAs interleaved with the loads by an IGroupLP pipeline
(``rocdl.sched.group.barrier``, sync id 1) in place of the schedule barrier between fragment
and global loads, a wait that the same wait repeats right after the MMA is not emitted, and
a block's fragment reads directly followed by its LDS DMAs (or, without ``fence-loads``, any
region of the two without MFMAs) get a pipeline that puts a fragment read before each DMA
(option ``interleave``; ``pipeline_mlir/schedule/fences.py``).

Abstract pipelines keep their data ops as ``sched`` ops with a ``tag`` attribute
(the schedule's op name); the body and the program, no longer needed, are
removed.  Concrete pipelines (``concrete``) are materialized into the real
prologue / loop / epilogue around their ``scf.for`` (``pipeline_mlir/lowering/materialize.py``); the
pass object keeps the kernel plan of each (:attr:`LowerToROCDL.plans`), which the
ISA check of ``--emit=report`` compares the final assembly with.  After a pipelined loop of
no trip (straight code), a remainder loop of one iteration that stores the registers it
loaded ahead into LDS of its own has those stores moved before the epilogue's last MMA
block (option ``remainder-stores``; ``pipeline_mlir/lowering/remainder_stores.py``).
"""

from __future__ import annotations

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.lowering.materialize import materialize, reserves_agprs
from pipeline_mlir.dialect.ir_io import (drop_attr, get, ops_of, read_entry, region_block,
                                          set_attr)
from pipeline_mlir.lowering.remainder_stores import remainder_after, stores_before_last_mma
from pipeline_mlir.lowering.rocdl_build import emit_entries
from pipeline_mlir.lowering.straight_pair import concrete_loop
from pipeline_mlir.lowering.xdl_window import guard_exits
from pipeline_mlir.passes._common import CONSUMED, Option, SchedPass

from pipeline_mlir.schedule.types import default_op_name


class LowerToROCDL(SchedPass):
    name = "sched-lower-to-rocdl"
    summary = "lower waits/barriers/priorities/sched barriers to rocdl ops, fenced; place payloads"
    produces = "lowered"
    options = (
        Option("fence-waits", "bool", True,
               "fence every run of s_waitcnt with rocdl.sched.barrier none"),
        Option("fence-blocks", "bool", None,
               "fence every kernel block boundary with rocdl.sched.barrier none (default: "
               "unless the schedule's blocks end with the schedule barriers of its "
               "sched_barrier_mask, which then are the only fences between blocks)"),
        Option("fence-loads", "bool", True,
               "fence every change between fragment loads and global loads with "
               "rocdl.sched.barrier none (keeps the schedule's order of the two)"),
        Option("interleave", "bool", True,
               "interleave an MMA's MFMAs with the loads of its block before it "
               "(rocdl.sched.group.barrier), a fragment read before each LDS DMA, and drop "
               "a wait the same wait repeats right after an MMA (concrete pipelines)"),
        Option("remainder-stores", "bool", True,
               "after a pipelined loop of no trip (straight code), store the registers a "
               "one-iteration remainder loaded ahead into its own LDS before the epilogue's "
               "last MMA block (lowering/remainder_stores.py)"),
        Option("spread-loads", "bool", None,
               "in each interleave pipeline, spread the global loads evenly over the MFMAs "
               "after the fragment reads instead of one after each of the next MFMAs "
               "(default: for kernels with accumulators in AGPRs, one wave per SIMD)"),
    )

    def __init__(self, **values) -> None:
        super().__init__(**values)
        #: the kernel plan of every concrete pipeline this pass materialized, in order
        self.plans: list = []

    def fence_blocks(self, p) -> bool:
        """``fence-blocks`` as given, else the schedule's choice (``fences_blocks`` of
        :class:`~pipeline_mlir.schedules.named.NamedSchedule`)."""
        given = self["fence-blocks"]
        if given is not None:
            return given
        p.schedule_object()  # one that does not build is an error located at the op
        return p.named().fences_blocks

    def spread_loads(self, p) -> bool:
        """``spread-loads`` as given, else whether the kernel keeps its accumulators in
        AGPRs (:func:`~pipeline_mlir.lowering.materialize.reserves_agprs`): its four
        waves, one per SIMD, run in step after each barrier, and their global loads issued
        together right after the first MFMAs hold the MFMA streams up in the CU's VMEM
        unit and L2 share (measured table: 4-wave 256x256 BF16 5073 -> 4461 cycles per
        iteration, FP8 4586 -> 4108); on the smaller 4-wave tiles it is slower."""
        given = self["spread-loads"]
        return reserves_agprs(p) if given is None else given

    def run(self, module) -> None:
        super().run(module)
        # every other exit from code issuing a 16-pass XDL MFMA needs the guard too (a
        # remainder, an unpipelined loop, any loop or branch: decided by the IR)
        with module.context, module.location:
            guard_exits(module)

    def run_pipeline(self, p) -> None:
        if get(p.op, "concrete", S.UNIT, False):
            loop = concrete_loop(p)
            rem = remainder_after(loop) if loop is not None else None
            plan = materialize(p, self["fence-waits"], self.fence_blocks(p),
                               self["fence-loads"], self["interleave"], self.spread_loads(p))
            self.plans.append(plan)
            if rem is not None and plan.shape.max_trips == 0 and self["remainder-stores"]:
                stores_before_last_mma(rem)
            return CONSUMED
        s = p.schedule_object()
        fence_blocks = self.fence_blocks(p)
        positions = {}
        for name in S.PHASE_OPS:
            ph = p.phase_ops.get(name)
            if ph is not None:
                positions[name] = self._lower_phase(ph, p.schedule_name, dict(s.tag_names),
                                                    fence_blocks)
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

    def _lower_phase(self, ph, schedule: str, names: dict,
                     fence_blocks: bool) -> tuple[list[int], int]:
        """Lower one phase in place; returns (new position of each old entry, new length)."""
        entries = ops_of(ph.regions[0])
        block = region_block(ph.regions[0])  # an empty region (``({})``) has no block
        ip = ir.InsertionPoint(block)

        def keep_data(e_op, d) -> None:  # data ops stay, tagged, in their new place
            e_op.attributes["tag"] = ir.StringAttr.get(default_op_name(d.tag, names))
            e_op.detach_from_parent()
            ip.insert(e_op)

        with ip:  # the lowered phase is built after the old entries, which then go
            result = emit_entries(entries, [read_entry(e, schedule) for e in entries],
                                  self["fence-waits"], fence_blocks, keep_data,
                                  fence_loads=self["fence-loads"])
        for e_op in entries:
            if "tag" not in e_op.attributes:
                e_op.erase()
        return result
