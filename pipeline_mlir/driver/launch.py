"""The host side of a schedule's complete GEMM kernel for one problem size (``--launch``)."""

from __future__ import annotations


def launch(schedule, m: int, n: int, k: int) -> str:
    """The launch configuration of the complete GEMM kernel of ``schedule`` (a spec or the
    schedule object) for ``m x n x k``: grid, workgroup, LDS and the kernel-argument layout
    (:func:`pipeline_mlir.kernel.launch.format_launch`); a
    :class:`~pipeline_mlir.errors.PipelineError` when the size does not fit the kernel (or
    the spec does not parse: its ConfigError, naming the option)."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.kernel.launch import check_launch, format_launch
    from pipeline_mlir.schedules.registry import parse_pipeline

    if isinstance(schedule, str):
        schedule = parse_pipeline(schedule)
    return format_launch(check_launch(gemm_kernel(schedule), m, n, k))
