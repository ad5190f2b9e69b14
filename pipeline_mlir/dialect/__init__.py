"""The sched dialect (generic-form MLIR ops); see README.md. Filled in by the MLIR layer."""
