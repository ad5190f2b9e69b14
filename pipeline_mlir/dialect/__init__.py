"""The sched dialect (generic-form MLIR ops); see docs/dialect.md. Filled in by the MLIR layer."""
