"""IREE's one-wave 16x16 MFMA kernels LLVM spills in its default allocator order (finding
122, docs/iree-audits.md): the LLVM step builds them again in the reversed order of local
live ranges and keeps the build that spills less (``isa/alloc_retry.py``; the decision's
own tests are ``test/unit/isa/test_alloc_retry.py``).  Long tier: each builds IREE's kernel
and runs it on the emulator."""

from __future__ import annotations

import re

import pytest

from iree_configs import G
from test_iree_emulate import needs_iree

#: IREE's forced E5M2 ``A x B`` in one wave's 128x128 tile, 16x16x128 MFMAs, a K step of 256
E5M2_AB = dict(transpose_a=False, transpose_b=False, mma="MFMA_F32_16x16x128_F8E5M2", stages=2,
               tile=(128, 128, 256), waves=(1, 1))


@needs_iree
@pytest.mark.long("test_alloc_retry.py checks the decision with the worker stubbed and "
                  "LLVM's two builds of a small module; this builds one of finding 122's "
                  "kernels and runs it on the emulator")
def test_the_e5m2_kernel_builds_with_no_spill_and_is_exact(tmp_path, capsys,
                                                           shared_code_objects):
    """E5M2 ``A x B`` 512x640x768 (22 VGPRs spilled in the default order, late form) is
    kept in the reversed order: no VGPR or SGPR spilled, the report says both builds, and
    it runs exact in late mode."""
    from iree_configs import built_unspilled_and_exact

    late = G.late_form(G.matmul_source("fp8e5m2", 512, 640, 768, **E5M2_AB))
    _, report = built_unspilled_and_exact(tmp_path, late, capsys, workgroups=2)
    line = next(ln for ln in report.splitlines() if "register allocation" in ln)
    assert re.search(r"built twice: [1-9]\d* VGPRs and 0 SGPRs spilled in LLVM's default "
                     r"order .*, 0 VGPRs and 0 SGPRs spilled in the reversed order "
                     r".*; kept the second build \(the reversed order\)$", line), line
