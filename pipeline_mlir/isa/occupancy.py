"""gfx950's occupancy model: the waves per SIMD a kernel's VGPR allocation, SGPRs, LDS and
workgroup size allow (the rules: :mod:`pipeline_mlir.isa.report`'s module docstring).

Apart from the report, which prints it beside LLVM's ``; Occupancy``, so that
``merge_k=auto``'s rule (``frontend/kmerge_auto.py``) and the driver's confirmation of it
(``driver/merge_confirm.py``) read it without the report's readers of assembly and code
objects (pyelftools, YAML, msgpack).  No MLIR and no LLVM.
"""

from __future__ import annotations

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.target.gfx950 import (LDS_BYTES, MAX_WAVES_PER_SIMD, NAME, SGPR_WAVES,
                                         SGPR_WAVES_ABOVE, SIMDS_PER_CU, VGPR_GRANULE, VGPRS,
                                         waves_of_threads)

__all__ = ["ReportError", "align", "occupancy_gfx950"]


class ReportError(PipelineError):
    """A code object or assembly the report cannot read (or resources past the chip's)."""


def align(x: int, a: int) -> int:
    """``x`` rounded up to a multiple of ``a``."""
    return (x + a - 1) // a * a


def occupancy_gfx950(vgpr_alloc: int, sgprs: int, lds_bytes: int,
                     workgroup_size: int) -> tuple[int, dict[str, int]]:
    """(waves per SIMD, the limit of each resource).

    ``vgpr_alloc``: VGPRs (architected + accumulation) per lane the kernel is
    allocated (``.amdhsa_next_free_vgpr``); ``sgprs``: SGPRs counted for waves
    per EU; ``lds_bytes`` per workgroup; ``workgroup_size`` in work items.
    """
    if vgpr_alloc > VGPRS:
        raise ReportError(f"{vgpr_alloc} VGPRs exceed the {NAME} file of {VGPRS}")
    if lds_bytes > LDS_BYTES:
        raise ReportError(f"{lds_bytes} bytes of LDS exceed the {LDS_BYTES} of a {NAME} CU")
    by_vgpr = min(MAX_WAVES_PER_SIMD,
                  VGPRS // max(VGPR_GRANULE, align(vgpr_alloc, VGPR_GRANULE)))
    by_sgpr = next((w for most, w in SGPR_WAVES if sgprs <= most), SGPR_WAVES_ABOVE)
    waves_per_group = waves_of_threads(max(workgroup_size, 1))
    # the waves of the workgroups LDS admits, on 4 SIMDs: the most on one (rounded up, as
    # LLVM's '; Occupancy' counts them for a workgroup of 1 or 2 waves)
    by_lds = -(-(LDS_BYTES // lds_bytes) * waves_per_group // SIMDS_PER_CU) if lds_bytes \
        else MAX_WAVES_PER_SIMD
    limits = {"vgpr": by_vgpr, "sgpr": by_sgpr, "lds": by_lds, "max": MAX_WAVES_PER_SIMD}
    return min(limits.values()), limits
