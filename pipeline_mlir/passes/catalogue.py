"""The names of the ``sched-*`` passes, known without importing them (no MLIR).

``pipeline-opt --help`` lists the passes from here, so that it starts without the MLIR
bindings.  :mod:`pipeline_mlir.passes.registry` imports a pass's module only when the pass
is used (:data:`PASS_CLASSES`: a ``--pass-pipeline`` of one pass loads neither the front end
nor numpy) and checks then that the class has the name, and a stage pass the state, given
here; the order of :data:`PASS_NAMES` is the one the listings show.
"""

from __future__ import annotations

#: every sched pass, in the order the listings show them
PASS_NAMES = ("sched-normalize-producers", "sched-adopt-loop", "sched-import", "sched-verify",
              "sched-annotate",
              "sched-reorder", "sched-derive-edges", "sched-schedule", "sched-derive-waits",
              "sched-explicit-blocks", "sched-expand-phases", "sched-fix-hazards",
              "sched-lower-to-rocdl", "sched-check-divisors", "sched-stage-copies", "sched-unit-masks",
              "sched-cancel-deltas", "sched-unmask-loads", "sched-fold-mask-guards",
              "sched-word-masks", "sched-gpu-kernel",
              "sched-check-device-input", "sched-xdl-guard", "sched-order-copies",
              "sched-buffer-soffset", "sched-rocdl-to-llvm-intrinsics",
              "sched-extract-device-module")

#: the LLVM step as one name in a pass pipeline
LLVM_STEP = "sched-to-llvm"

#: where each pass's class is: ``<module of pipeline_mlir.passes>.<class>``
PASS_CLASSES = {
    "sched-normalize-producers": "normalize_producers.NormalizeProducers",
    "sched-adopt-loop": "adopt_loop.AdoptLoop",
    "sched-import": "import_.Import",
    "sched-verify": "verify.Verify",
    "sched-annotate": "annotate.Annotate",
    "sched-reorder": "reorder.Reorder",
    "sched-derive-edges": "derive_edges.DeriveEdges",
    "sched-schedule": "schedule.Schedule",
    "sched-derive-waits": "derive_waits.DeriveWaits",
    "sched-explicit-blocks": "explicit_blocks.ExplicitBlocks",
    "sched-expand-phases": "expand_phases.ExpandPhases",
    "sched-fix-hazards": "fix_hazards.FixHazards",
    "sched-lower-to-rocdl": "lower_to_rocdl.LowerToROCDL",
    "sched-check-divisors": "check_divisors.CheckDivisors",
    "sched-stage-copies": "stage_copies.StageCopies",
    "sched-unit-masks": "unit_masks.UnitMasks",
    "sched-cancel-deltas": "cancel_deltas.CancelDeltas",
    "sched-unmask-loads": "unmask_loads.UnmaskLoads",
    "sched-fold-mask-guards": "fold_mask_guards.FoldMaskGuards",
    "sched-word-masks": "word_masks.WordMasks",
    "sched-gpu-kernel": "gpu_kernel.GpuKernel",
    "sched-check-device-input": "check_device_input.CheckDeviceInput",
    "sched-xdl-guard": "xdl_guard.XdlGuard",
    "sched-order-copies": "order_copies.OrderCopies",
    "sched-buffer-soffset": "buffer_soffset.BufferSoffset",
    "sched-rocdl-to-llvm-intrinsics": "rocdl_to_llvm_intrinsics.RocdlToLLVMIntrinsics",
    "sched-extract-device-module": "extract_device_module.ExtractDeviceModule",
}

#: state -> the stage pass that takes a pipeline to it from the state before it (in
#: ``dialect.ops.STATES``); the pass class declares the same ``produces``
STAGE_PASS = {"annotated": "sched-annotate", "reordered": "sched-reorder",
              "edges": "sched-derive-edges", "scheduled": "sched-schedule",
              "blocks": "sched-derive-waits", "explicit": "sched-explicit-blocks",
              "phases": "sched-expand-phases", "lowered": "sched-lower-to-rocdl"}
