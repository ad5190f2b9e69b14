"""IREE's 4096^3 ``A x B^T`` dispatch (``matmul_bf16_abt_4096.prefetch.mlir``) with M known
only at launch: what IREE's own dispatch of ``tensor<?x4096xbf16>`` operands would hold if
its tiles were full (``iree-compile`` 3.13 writes no MFMA K-loop for a dynamic M without a
``padding`` lowering config, and with one it masks the rows past M).

:func:`dynamic_m` rewrites the text: two push constants (the low and high words of M, as
IREE passes an ``index``) combined, ``util.assume.int`` and
``iree_tensor_ext.dispatch.workload.ordinal`` as IREE writes them; bindings A and C of
``?x4096`` elements, sized by that value; the workgroup loop over ``ceildiv(M, 128)`` rows
of tiles.  Every op that views A or C takes the dynamic type.
"""

from __future__ import annotations

import re

SIZE = ("          %dyn_lo = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32\n"
        "          %dyn_hi = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32\n"
        "          %dyn_l = arith.extui %dyn_lo : i32 to i64\n"
        "          %dyn_h = arith.extui %dyn_hi : i32 to i64\n"
        "          %dyn_c32 = arith.constant 32 : i64\n"
        "          %dyn_s = arith.shli %dyn_h, %dyn_c32 : i64\n"
        "          %dyn_o = arith.ori %dyn_l, %dyn_s : i64\n"
        "          %dyn_i = arith.index_castui %dyn_o : i64 to index\n"
        "          %dyn_a = util.assume.int %dyn_i<umin = 0, umax = 9007199254740991> : index\n"
        "          %dyn_m = iree_tensor_ext.dispatch.workload.ordinal %dyn_a, 0 : index\n"
        "          %dyn_tiles = affine.apply affine_map<()[s0] -> (s0 ceildiv 128)>()[%dyn_m]\n"
        "          %dyn_rows = affine.apply affine_map<()[s0] -> (s0 ceildiv 16)>()[%dyn_m]\n")


def _retype(text: str, binding: int, old: str, new: str) -> str:
    """``text`` with binding ``binding``'s type ``old`` (e.g. ``4096x4096xbf16``) made
    ``new`` on its subspan (sized by ``%dyn_m``) and on every op that views it."""
    m = re.search(rf"(%\w+) = hal\.interface\.binding\.subspan [^\n]* binding\({binding}\)"
                  rf"[^\n]*: memref<{old}", text)
    assert m, f"no binding {binding} of {old}"
    names, lines = [m.group(1)], text.split("\n")
    for i, line in enumerate(lines):
        if f"binding({binding})" in line and "subspan" in line:
            lines[i] = line.replace(f"memref<{old}", f"memref<{new}") + "{%dyn_m}"
            continue
        used = [n for n in names if re.search(rf"{re.escape(n)}\b(?![_\w])", line.split("=", 1)[-1])]
        if not used or f"memref<{old}" not in line:
            continue
        lines[i] = line.replace(f"memref<{old}", f"memref<{new}")
        d = re.match(r"\s*(%\w+) = (memref\.assume_alignment|amdgpu\.fat_raw_buffer_cast)", line)
        if d:
            names.append(d.group(1))
    return "\n".join(lines)


def dynamic_m(text: str, k: int = 4096) -> str:
    """The dispatch ``text`` (IREE's 4096^3 bf16 ``A x B^T`` at the prefetch point) with M
    a launch value (module docstring); ``k``: a K of that many elements instead (a multiple
    of the K step, 32: the same kernel with rows of ``k`` and ``k / 32`` iterations, cheaper
    to emulate)."""
    if k != 4096:
        text = text.replace("strided<[4096, 1], offset: ?>", f"strided<[{k}, 1], offset: ?>")
        text = text.replace("memref<4096x4096xbf16", f"memref<4096x{k}xbf16")
        text = re.sub(r"(scf\.for %arg2 = %c0 to )%c128( step %c1)", r"\g<1>%dyn_trips\2", text)
        text = re.sub(r"(\n\s*)(%c128 = arith\.constant 128 : index)",
                      rf"\1\2\1%dyn_trips = arith.constant {k // 32} : index", text, count=1)
    text = text.replace("#hal.pipeline.layout<bindings", "#hal.pipeline.layout<constants = 2, "
                        "bindings", 1)
    text = re.sub(r"(\n\s*%\w+ = hal\.interface\.binding\.subspan [^\n]*binding\(0\))",
                  lambda m: "\n" + SIZE.rstrip("\n") + m.group(1), text, count=1)
    text = _retype(text, 0, f"4096x{k}xbf16", f"?x{k}xbf16")
    text = _retype(text, 2, "4096x4096xf32", "?x4096xf32")
    text = text.replace("output_shape [256, 16, 256, 16] : memref<?x4096xf32",
                        "output_shape [%dyn_rows, 16, 256, 16] : memref<?x4096xf32")
    text = re.sub(r"into memref<256x16x256x16xf32", "into memref<?x16x256x16xf32", text)
    text = re.sub(r"(memref\.subview %expand_shape\[[^\n]*: )memref<256x16x256x16xf32",
                  r"\1memref<?x16x256x16xf32", text)
    return text.replace("scf.forall (%arg0, %arg1) in (32, 32)",
                        "scf.forall (%arg0, %arg1) in (%dyn_tiles, 32)", 1)
