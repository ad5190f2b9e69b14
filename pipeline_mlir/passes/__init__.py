"""MLIR passes, one per file, wrapping the scheduling core."""
