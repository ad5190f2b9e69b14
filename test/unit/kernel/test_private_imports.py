"""The kernel writers share code through public names only: no module of
``pipeline_mlir.kernel`` imports another module's private (``_``-prefixed) names, so the
MX kernel builds on the GEMM kernel's documented interface (``gemm_mlir``'s module doc)."""

from __future__ import annotations

import ast
from pathlib import Path

import pipeline_mlir.kernel as kernel_pkg

KERNEL_DIR = Path(kernel_pkg.__file__).parent


def private_imports(source: str) -> list[tuple[str, str]]:
    """(module, name) of every ``from pipeline_mlir... import _name`` in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipeline_mlir"):
            out += [(node.module, a.name) for a in node.names if a.name.startswith("_")]
    return out


def test_no_kernel_module_imports_private_names():
    found = {p.name: private_imports(p.read_text()) for p in sorted(KERNEL_DIR.glob("*.py"))}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_check_sees_a_private_import():
    src = "from pipeline_mlir.kernel.gemm_mlir import TaggedParts, _end\n"
    assert private_imports(src) == [("pipeline_mlir.kernel.gemm_mlir", "_end")]


def test_mx_kernel_uses_the_public_interface():
    from pipeline_mlir.kernel import gemm_mlir, mx_gemm_mlir
    for name in ("KernelText", "kernel_text", "write_signature", "write_global_offsets",
                 "write_fragment_bases", "write_mfmas", "entry_tag"):
        assert getattr(mx_gemm_mlir, name) is getattr(gemm_mlir, name)
