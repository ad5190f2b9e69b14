"""Use the sched passes inside your own MLIR pass pipeline.

The sched passes are Python objects, so MLIR's textual pipeline parser cannot
name them.  Instead you build a ``PassManager`` yourself, add the sched passes
with ``registry.add`` and add upstream passes as text, in any order.  This
script:

1. parses a hand-written ``sched.pipeline`` (the 4-wave logical body of a
   128x128x64 bf16 tile, written in MLIR's generic syntax),
2. runs the scheduling passes with ``canonicalize,cse`` in between,
3. lowers the control ops to ``rocdl`` and prints the module.

Run it with the project's virtual environment::

    .venv/bin/python examples/embed_passes.py

See ``docs/dialect.md`` for the ops and the passes.
"""

from __future__ import annotations

import sys

# Always import the MLIR bindings through this module: it picks the
# iree-base-compiler bindings (or the upstream ``mlir`` package).
from pipeline_mlir.dialect.bindings import ir, new_context, passmanager
from pipeline_mlir.passes import registry

# A 4-wave loop body: one op per logical load or MMA, in declaration order.
# global_load channel 0/1 = the A/B tile (global -> LDS), frag_load channel 0/1 =
# an A/B fragment (LDS -> registers), mma stage/subtile = the MMA's row/column.
MODULE = """
module {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64} : () -> ()
    "sched.frag_load"() {channel = 1 : i64, stage = 0 : i64, subtile = 1 : i64} : () -> ()
    "sched.mma"() {stage = 0 : i64, subtile = 0 : i64} : () -> ()
    "sched.global_load"() {channel = 1 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64} : () -> ()
    "sched.frag_load"() {channel = 0 : i64, stage = 0 : i64, subtile = 1 : i64} : () -> ()
    "sched.mma"() {stage = 0 : i64, subtile = 1 : i64} : () -> ()
    "sched.global_load"() {channel = 1 : i64, k_offset = "k0", stage = 0 : i64, subtile = 1 : i64} : () -> ()
    "sched.frag_load"() {channel = 0 : i64, stage = 1 : i64, subtile = 0 : i64} : () -> ()
    "sched.mma"() {stage = 1 : i64, subtile = 0 : i64} : () -> ()
    "sched.global_load"() {channel = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 1 : i64} : () -> ()
    "sched.frag_load"() {channel = 1 : i64, stage = 1 : i64, subtile = 0 : i64} : () -> ()
    "sched.mma"() {stage = 1 : i64, subtile = 1 : i64} : () -> ()
    "sched.global_load"() {channel = 0 : i64, k_offset = "k1", stage = 1 : i64, subtile = 0 : i64} : () -> ()
    "sched.frag_load"() {channel = 1 : i64, stage = 1 : i64, subtile = 1 : i64} : () -> ()
    "sched.mma"() {stage = 0 : i64, subtile = 0 : i64} : () -> ()
    "sched.global_load"() {channel = 1 : i64, k_offset = "k1", stage = 1 : i64, subtile = 0 : i64} : () -> ()
    "sched.frag_load"() {channel = 0 : i64, stage = 1 : i64, subtile = 1 : i64} : () -> ()
    "sched.mma"() {stage = 0 : i64, subtile = 1 : i64} : () -> ()
    "sched.global_load"() {channel = 1 : i64, k_offset = "k1", stage = 1 : i64, subtile = 1 : i64} : () -> ()
    "sched.frag_load"() {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64} : () -> ()
    "sched.mma"() {stage = 1 : i64, subtile = 0 : i64} : () -> ()
    "sched.global_load"() {channel = 0 : i64, k_offset = "k1", stage = 1 : i64, subtile = 1 : i64} : () -> ()
    "sched.frag_load"() {channel = 1 : i64, stage = 0 : i64, subtile = 0 : i64} : () -> ()
    "sched.mma"() {stage = 1 : i64, subtile = 1 : i64} : () -> ()
  }) {schedule = "4wave", options = {dtype = "bf16", BM = 128 : i64, BN = 128 : i64, BK = 64 : i64}} : () -> ()
}
"""


def build_pass_manager():
    """The pipeline: sched passes and upstream passes mixed freely.

    Returns the PassManager and the sched pass objects.  The bindings do not
    keep Python passes alive, so the caller must hold on to that list until
    ``pm.run`` has returned.
    """
    pm = passmanager.PassManager("builtin.module")
    keep = []

    def sched(name, **options):
        keep.append(registry.add(pm, name, **options))

    sched("sched-verify")               # check the hand-written input first
    sched("sched-annotate")             # cost-model attributes on every body op
    sched("sched-reorder")
    pm.add("canonicalize,cse")          # upstream passes leave sched ops alone
    sched("sched-derive-edges")
    sched("sched-schedule")
    sched("sched-derive-waits")
    sched("sched-explicit-blocks")
    sched("sched-expand-phases")
    sched("sched-verify")               # structural checks and the wait limits
    pm.add("canonicalize,cse")
    # Option names contain '-', so pass them as a dict.
    sched("sched-lower-to-rocdl", **{"fence-waits": True, "fence-blocks": True})
    pm.add("canonicalize,cse")
    return pm, keep


def main() -> int:
    with new_context(), ir.Location.unknown():
        module = ir.Module.parse(MODULE)
        pm, keep = build_pass_manager()
        try:
            pm.run(module.operation)
        except ir.MLIRError as e:
            # Errors from sched passes are located diagnostics, like any MLIR error.
            for d in e.error_diagnostics:
                print(f"{d.location}: error: {d.message}", file=sys.stderr)
            return 1
        del keep
        print(module)
    return 0


if __name__ == "__main__":
    sys.exit(main())
