"""``sched-fix-hazards``: the waits and barriers the kernel needs beyond the schedule's own.

Runs the functional simulator (``pipeline_mlir/sim/functional.py``) on the expanded
phases as the schedule's complete kernel runs them (warp groups, stagger,
the 4-wave zero-trip fence) for 0..``max-iterations`` main-loop trips, and inserts
into ``sched.prologue`` / ``sched.kernel`` / ``sched.epilogue`` the ``sched.wait_vm``,
``sched.wait_lgkm`` and ``sched.barrier`` entries that remove every hazard it finds
(``pipeline_mlir/sim/repair.py`` says which and why).  The reference 4-wave schedules
need four (a fragment read still in flight when the next prefetch overwrites its
slot; epilogue reads whose loads were waited for but not barriered); the shipped
ping-pong schedules need none, other ping-pong configurations may need waits and
barriers between the two warp groups (inserted where both groups run them, so their
barrier counts stay equal) or waits that keep a counter from overflowing.
Last, a vmcnt wait at the end of the main loop that the loop's head repeats (only MMAs,
fences and lgkmcnt waits after it) moves to the loop's exit, the epilogue's start
(``pipeline_mlir/schedule/loop_waits.py``): the 4-wave schedules' last MMA then waits
for no load it does not read.
A concrete pipeline whose loop's constant bounds leave its main loop no trip (and whose copies
are all DMA copies) is simulated on that path alone, without the fence, its epilogue's vmcnt waits
derived for the prologue's copies (``pipeline_mlir/lowering/straight_pair.py``).
``--emit=schedule`` never runs this pass: the printed schedule stays the reference's.
Hazards no wait or barrier removes (a load larger than its counter, a barrier-count
mismatch, wrong K tiles) are errors located at the pipeline.
"""

from __future__ import annotations

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import compiled_from_ir, create_entry, get, ops_of, set_attr
from pipeline_mlir.lowering.straight_pair import as_run
from pipeline_mlir.passes._common import Option, SchedPass

from pipeline_mlir.sim.repair import repair
from pipeline_mlir.sim.trace import kernel_shape

_PHASE_OP = {"prologue": S.PROLOGUE, "kernel": S.KERNEL, "epilogue": S.EPILOGUE}


class FixHazards(SchedPass):
    name = "sched-fix-hazards"
    summary = ("insert the waits and barriers that make the kernel hazard-free (functional "
               "simulator, 0..N main-loop iterations)")
    requires, produces = "phases", "phases"
    options = (Option("max-iterations", "int", 6, "simulate main loops of 0..max-iterations "
                      "trips", min=1, max=64),)

    def run_pipeline(self, p) -> None:
        n = self["max-iterations"]
        compiled = compiled_from_ir(p)
        # (a loop whose constant bounds leave it no trip: straight code, lowering/straight_pair.py)
        fixed = repair(compiled, as_run(kernel_shape(p.named()), p), range(0, n + 1))
        for fix in fixed.fixes:
            self._insert(p, fix)
        if fixed.fixes:
            set_attr(p.op, "warp_stagger_index", S.INT, fixed.warp_stagger_index)

    @staticmethod
    def _insert(p, fix) -> None:
        region = p.phase_ops[_PHASE_OP[fix.phase]].regions[0]
        entries = ops_of(region)
        neighbour = entries[fix.index] if fix.index < len(entries) else entries[-1]
        extra = {}
        block = get(neighbour, "block", S.INT)
        if block is not None:
            extra["block"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), block)
        after = fix.index + fix.replaces
        ip = (ir.InsertionPoint(entries[after]) if after < len(entries)
              else ir.InsertionPoint(region.blocks[0]))
        with ip, neighbour.location:
            for op in fix.ops:
                create_entry(op, p.schedule_name, extra)
        for old in entries[fix.index:after]:
            old.erase()
