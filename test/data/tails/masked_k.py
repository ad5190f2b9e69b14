"""The example natural kernel with a run-time K and IREE's masked copies of the K left.

Provenance: ``iree-compile`` 3.13 writes no MFMA K-loop for a K known only at run time
(``test/unit/tools/test_dynamic_k_iree.py``), so this input is made of two parts that exist:
the example natural kernel (``examples/natural_kernel.py``: 4 waves, a 128x128 tile, K step
32, a ``%K`` argument) and the masked copies IREE writes for an unaligned K at its prefetch
point (IREE's 1024x1024x1020 kernel: per lane a ``vector.create_mask`` of
``affine.min(K - k0 - column, 8)`` elements, a masked ``vector.transfer_read`` of 8 elements
from the global rows, stored to LDS), with K a symbol where IREE has the constant 1020, and
the loop's upper bound ``K ceildiv 32`` where IREE has ``ceildiv(1020, 32)``.  Each of the
kernel's four direct-to-LDS copies per K tile becomes such a copy through registers, the
same elements to the same LDS place; ``dyn_bound`` picks the bound's form.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))
from natural_kernel import kernel_text  # noqa: E402

BOUNDS = {"ceildiv": "%kq = affine.apply affine_map<()[s0] -> (s0 ceildiv 32)>()[%K]",
          "divui": None}   # the example's own: K / 32 (the partial tile never runs)
_COPY = re.compile(r"amdgpu\.gather_to_lds (%\w+)\[(%\w+), (%gk(\d))\], (%\w+)\[(%\w+)\] : "
                   r"vector<8x(\w+)>, (memref<.*>), (memref<.*>)$")


def masked_kernel(kmax: int = 256, big: bool = False, bound: str = "ceildiv",
                  form: str = "arith") -> str:
    """The kernel text; A and B have ``kmax`` columns (the largest K it may be launched
    with); ``big``: LDS buffers of 32 KiB (the remainder's own do not fit beside the
    schedule's two stages); ``form``: the mask size as IREE's ``affine.min`` (which the
    LLVM step lowers only inside IREE's executables) or as ``arith`` ops (the same value)."""
    text = kernel_text(src="buffer", k=kmax, dynamic=True, lds="alloc")
    if bound != "divui":
        text = text.replace("%kq = arith.divui %K, %c32 : index", BOUNDS[bound])
    if big:
        text = text.replace("memref<4096xbf16, #gpu.address_space<workgroup>>",
                            "memref<16384xbf16, #gpu.address_space<workgroup>>")
    out = []
    for n, line in enumerate(text.splitlines()):
        m = _COPY.search(line)
        if m is None:
            out.append(line)
            continue
        src, row, col, j, dst, base, et, gmem, lmem = m.groups()
        pad = " " * (len(line) - len(line.lstrip()))
        s = f"{n}"
        size = ([f"%sz{s} = affine.min affine_map<(d0, d1)[s0] -> (s0 - d0 * 32 - d1, 8)>"
                 f"(%ivx, %gcol{j})[%K]"] if form == "affine" else
                [f"%kl{s} = arith.subi %K, %kt : index",
                 f"%kc{s} = arith.subi %kl{s}, %gcol{j} : index",
                 f"%sz{s} = arith.minsi %kc{s}, %c8 : index"])
        out += [pad + x for x in (
            f"%pad{s} = arith.constant 0.0 : {et}", *size,
            f"%mk{s} = vector.create_mask %sz{s} : vector<8xi1>",
            f"%rv{s} = vector.transfer_read {src}[{row}, {col}], %pad{s}, %mk{s} "
            f"{{in_bounds = [true]}} : {gmem}, vector<8x{et}>",
            f"%l8{s} = arith.muli %lane, %c8 : index",
            f"%le{s} = arith.addi {base}, %l8{s} : index",
            f"vector.store %rv{s}, {dst}[%le{s}] : {lmem}, vector<8x{et}>")]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(masked_kernel(), end="")
