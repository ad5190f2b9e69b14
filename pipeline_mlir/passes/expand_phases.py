"""``sched-expand-phases``: prologue, steady-state kernel and epilogue.

Adds ``sched.prologue``, ``sched.kernel`` and ``sched.epilogue`` ops holding the
ordered entries, and on the pipeline ``warp_stagger_index``, ``kernel_deps`` and
the lgkm-per-load counts the kernel uses.  Kernel entries carry ``block = i``
(their program block) so the lowering can fence block boundaries.
"""

from __future__ import annotations

from pipeline_mlir.schedule import stages
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.ir_io import get, set_attr, write_phase

from pipeline_mlir.passes._common import SchedPass, location_index


class ExpandPhases(SchedPass):
    name = "sched-expand-phases"
    summary = "derive the prologue / kernel / epilogue entry lists, kernel deps and warp stagger"
    produces = "phases"

    def run_pipeline(self, p) -> None:
        s = p.schedule_object()
        # a concrete pipeline's counts are its input's, checked against its payload ops
        ph = stages.phases(s, p.body, p.edges, p.program,
                           input_counts=bool(get(p.op, "concrete", S.UNIT, False)))
        loc_of = location_index(p)
        write_phase(p.block, S.PROLOGUE, ph.prologue, p.schedule_name, loc_of)
        write_phase(p.block, S.KERNEL, ph.kernel, p.schedule_name, loc_of, ph.kernel_blocks or None)
        write_phase(p.block, S.EPILOGUE, ph.epilogue, p.schedule_name, loc_of)
        set_attr(p.op, "warp_stagger_index", S.INT, ph.warp_stagger_index)
        set_attr(p.op, "kernel_deps", S.STRS, [str(e) for e in ph.kernel_deps])
        # per channel: A, B, then (the MX scale channels) A's and B's scales
        for n, count in zip(("a", "b", "sa", "sb"), stages.lgkm_per_load(s)):
            set_attr(p.op, f"lgkm_per_load_{n}", S.INT, count)
