"""The LLVM step's second build of a module that reserves AGPRs and spills.

LLVM's greedy register allocator assigns the live ranges inside one block in instruction
order, or reversed (``-greedy-reverse-local-assignment=true``,
:data:`~pipeline_mlir.isa.codegen.REVERSE_LOCAL`).  With every AGPR an accumulator, which
order spills less depends on the kernel, and no feature of the IR found so far tells (the
one-wave 16x16 MFMA kernels of docs/iree-audits.md, findings 119 and 122: the reversed order
spills none of the 22 VGPRs E5M2 ``A x B`` 512x640x768 spills in the default order, and 54
where fp8 ``A x B`` 384x384x896 spills 18).  So :func:`~pipeline_mlir.isa.codegen.compile_llvm_ir`,
for a module that reserves AGPRs built with the options the IR asks for, builds a module
whose build spills once more in the other order and keeps the build that spills less
(:func:`better`; the first where the second fails); a build that spills nothing is built
once.  This module reads the spill counts of a build and words what was kept; no MLIR and
no LLVM here.
"""

from __future__ import annotations

from pipeline_mlir.isa.asm import document_spills, kernel_spills

__all__ = ["spills_of", "better", "order_name", "retry_note", "failed_note"]


def spills_of(kind: str, built) -> tuple[int, int]:
    """(VGPRs, SGPRs) the kernels of ``built`` spill, summed over its kernels: a build of
    ``kind`` (``compile_llvm_ir``'s: ``asm`` text, ``obj`` bytes, ``both`` the two), read
    from the assembly's kernel metadata (:func:`~pipeline_mlir.isa.asm.kernel_spills`) or,
    for an object alone, from its ``NT_AMDGPU_METADATA`` note (the same counts:
    :func:`~pipeline_mlir.isa.codeobject.read_metadata`)."""
    if kind == "obj":
        from pipeline_mlir.isa.codeobject import read_metadata

        counts = document_spills(read_metadata(built))
    else:
        counts = kernel_spills(built[0] if kind == "both" else built)
    return sum(v for v, _ in counts), sum(s for _, s in counts)


def better(first: tuple[int, int], again: tuple[int, int]) -> bool:
    """Whether the build spilling ``again`` (VGPRs, SGPRs) is kept over the first build's
    ``first``: fewer VGPRs spilled (to scratch, in the loop), then fewer SGPRs (to VGPR
    lanes, cheaper); a tie keeps the first."""
    return again < first


def order_name(reversed_local: bool, option: str) -> str:
    """The allocator order a build used, for the report (``option``: LLVM's option that
    reverses it)."""
    return (f"the reversed order of local live ranges ({option})" if reversed_local
            else "LLVM's default order of local live ranges")


def _count(spills: tuple[int, int]) -> str:
    return f"{spills[0]} VGPR{'s' * (spills[0] != 1)} and {spills[1]} SGPR" \
        f"{'s' * (spills[1] != 1)} spilled"


def retry_note(first: tuple[int, int], again: tuple[int, int], first_reversed: bool,
               option: str, kept_again: bool) -> str:
    """The report's line on a module built twice: each build's order and spill counts,
    and which was kept."""
    kept = "reversed" if first_reversed != kept_again else "default"
    return (f"built twice: {_count(first)} in {order_name(first_reversed, option)}, "
            f"{_count(again)} in {order_name(not first_reversed, option)}; kept the "
            f"{'second' if kept_again else 'first'} build (the {kept} order)")


def failed_note(first: tuple[int, int], first_reversed: bool, option: str, error: str) -> str:
    """The report's line on a module whose second build failed (LLVM's ``error``): the first
    build, which did build, is kept."""
    return (f"{_count(first)} in {order_name(first_reversed, option)}; built again in "
            f"{order_name(not first_reversed, option)}, which failed ({error}); kept the "
            f"first build")
