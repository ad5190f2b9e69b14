"""Command-line tools (pipeline-opt)."""
