"""The MX kernel builds on the GEMM kernel's documented interface (``gemm_mlir``'s module
doc), not on its private names (the project-wide rule: ``test/unit/test_private_names.py``)."""

from __future__ import annotations


def test_mx_kernel_uses_the_public_interface():
    from pipeline_mlir.kernel import gemm_mlir, mx_gemm_mlir
    for name in ("KernelText", "kernel_text", "write_signature", "write_global_offsets",
                 "write_fragment_bases", "write_mfmas", "entry_tag"):
        assert getattr(mx_gemm_mlir, name) is getattr(gemm_mlir, name)
