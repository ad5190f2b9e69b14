"""The names of the ``sched-*`` passes, known without importing them (no MLIR).

``pipeline-opt --help`` lists the passes from here, so that it starts without the MLIR
bindings; :mod:`pipeline_mlir.passes.registry` imports the pass classes and checks at
import that their names are exactly these, in this order (the order ``--list-passes``
shows).
"""

from __future__ import annotations

#: every sched pass, in the order the listings show them
PASS_NAMES = ("sched-normalize-producers", "sched-adopt-loop", "sched-import", "sched-verify",
              "sched-annotate",
              "sched-reorder", "sched-derive-edges", "sched-schedule", "sched-derive-waits",
              "sched-explicit-blocks", "sched-expand-phases", "sched-fix-hazards",
              "sched-lower-to-rocdl", "sched-stage-copies", "sched-gpu-kernel",
              "sched-check-device-input", "sched-buffer-soffset", "sched-rocdl-to-llvm-intrinsics",
              "sched-extract-device-module")

#: the LLVM step as one name in a pass pipeline
LLVM_STEP = "sched-to-llvm"
