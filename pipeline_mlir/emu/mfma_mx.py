"""MX matrix instructions: ``v_mfma_scale_f32_16x16x128_f8f6f4`` (block-scaled) and the
unscaled ``v_mfma_f32_16x16x128_f8f6f4`` with FP4 (E2M1) operands.

Operand layout (wave64, lane ``l``, ``q = l // 16``, ``r = l % 16``), as the sources give
it and ``test_mfma_mx.py`` pins with one-hot inputs:

* A row ``r`` (B column ``r``) holds the 32 consecutive K values ``32q .. 32q + 31``: one
  MX block.  FP4: element ``e`` is nibble ``e % 2`` (low first) of byte ``e // 2`` of the
  lane's 4 registers; FP8 (scaled form): byte ``e`` of its 8 registers.  Sources: IREE's
  ``MFMA_SCALE_F32_16x16x128_B32`` layout (``IREEGPUAttrs.cpp``: LHS thread {16, 4}
  strides {1, 16}, element {1, 1, 32}); Modular's ``mxfp4_matmul_amd`` ("Each lane loads
  16 contiguous bytes from its assigned matrix row. lane_row = lane_id % MMA_M,
  lane_chunk = lane_id / MMA_M"); AMD aiter's ``test_mxfp.cu`` (16 contiguous bytes per
  lane at ``group4 * 16``, low nibble first).  For FP8 the unscaled instruction's layout
  in :mod:`~pipeline_mlir.emu.mfma` (16-element chunks, ROCm) differs; the K order is
  invisible there, here it decides which scale an element gets: IREE's layout is taken.
* The scales: lane ``l`` of scale register A (B) holds, in the byte the op_sel bits select
  (:func:`pipeline_mlir.emu.scaled.scale_bytes`), the E8M0 scale of row (column) ``r``,
  block ``q``: "lane_row = lane % 16 (matrix row), lane_k_group = lane / 16" (Modular's
  ``BlockScaledMmaOp``), IREE's LHS scale layout thread {16, 4} strides {1, 16}.  Value
  ``2^(E - 127)``, 0xFF NaN (OCP MX v1.0; aiter's test: "127 = no scaling").
* Formats (cbsz for A, blgp for B): 0 E4M3 (OCP E4M3FN), 1 E5M2, 4 E2M1; FP6 (2, 3) is
  refused: its packing is not pinned.  Scale operands must be VGPRs: "For all
  Inline/SGPR constants, SP HW use bits [30:23] as the scale" (LLVM's AMDGPU backend, a
  hardware defect), which is refused rather than modelled.

D = C + sum over blocks of (A block x its scale) (B block x its scale)^T: every product
exact, summed in float64 and rounded once to f32 (:mod:`~pipeline_mlir.emu.mfma`).
The 32x32x64 form is decoded but refused: its C/D layout is not pinned.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.instr import VGPR0, Instr
from pipeline_mlir.emu.mfma import E4M3, E5M2, MfmaOperands, check_exec
from pipeline_mlir.emu.operands import Step, refuse
from pipeline_mlir.emu.scaled import is_scaled, scale_bytes

#: E2M1 (OCP MX v1.0 FP4): codes 0..7 are +0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 is the sign
E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0] * 2) * np.repeat([1.0, -1.0], 8)
#: the element table of each supported f8f6f4 format code
MX_TABLES = {0: E4M3, 1: E5M2, 4: E2M1}
FP4 = 4
#: E8M0 scale value of each byte: 2^(E - 127), 0xFF NaN
E8M0 = np.where(np.arange(256) == 0xFF, np.nan, np.ldexp(1.0, np.arange(256) - 127))
#: the MX instruction this module runs (16x16x128 only)
SHAPE_16 = ("v_mfma_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4")


def runs_here(ins: Instr) -> bool:
    """A scaled MFMA, or an f8f6f4 MFMA with an FP4 operand: this module's."""
    f = ins.f
    return is_scaled(ins) or (ins.name.endswith("_f8f6f4") and FP4 in (f.get("cbsz"),
                                                                         f.get("blgp")))


def lane_values(regs: np.ndarray, code: int) -> np.ndarray:
    """(dwords, G, 64) operand registers -> (G, 64, 32) float64: each lane's 32 elements
    in order (FP4: low nibble first; FP8: byte order)."""
    b = np.ascontiguousarray(regs.transpose(1, 2, 0)).view(np.uint8)   # (G, 64, 4 * dwords)
    if code == FP4:
        codes = np.empty(b.shape[:2] + (2 * b.shape[2],), dtype=np.uint8)
        codes[..., 0::2], codes[..., 1::2] = b & 0xF, b >> 4
    else:
        codes = b
    return MX_TABLES[code].take(codes.astype(np.intp))


def k_matrix(lanes: np.ndarray) -> np.ndarray:
    """(G, 64, 32) lane elements -> (G, 16, 128): row (A) / column (B) ``l % 16``, K
    ``32 * (l // 16) + e``."""
    G = lanes.shape[0]
    return lanes.reshape(G, 4, 16, 32).transpose(0, 2, 1, 3).reshape(G, 16, 128)


def scale_matrix(reg: np.ndarray, byte: int) -> np.ndarray:
    """(G, 64) scale register -> (G, 16, 128): the scale of each element, from byte ``byte``
    of lane ``16 * block + r``."""
    codes = (reg >> np.uint32(8 * byte)) & np.uint32(0xFF)
    G = reg.shape[0]
    s = E8M0.take(codes.astype(np.intp)).reshape(G, 4, 16).transpose(0, 2, 1)
    return np.repeat(s, 32, axis=2)


def compile_mx_mfma(ins: Instr) -> Step:
    f = ins.f
    if ins.name not in SHAPE_16:
        raise refuse(ins, "the 32x32x64 MX form's C/D layout is not pinned")
    if f["abid"]:
        raise refuse(ins, "abid broadcast")
    for key in ("cbsz", "blgp"):
        if f[key] not in MX_TABLES:
            raise refuse(ins, f"{key}:{f[key]}: FP6 operand formats are not pinned")
    if not is_scaled(ins) and FP4 not in (f["cbsz"], f["blgp"]):
        raise refuse(ins, "an unscaled FP8 MFMA is mfma.py's")
    ops = MfmaOperands(ins)
    scales = ()
    if is_scaled(ins):
        for key in ("scale_src0", "scale_src1"):
            if f[key] < VGPR0:
                raise refuse(ins, "a scale operand that is not a VGPR (gfx950 reads bits "
                                  "30:23 of an SGPR or constant scale, a defect LLVM avoids)")
        scales = tuple(zip((f["scale_src0"] - VGPR0, f["scale_src1"] - VGPR0),
                           scale_bytes(f)))
    ta, tb = f["cbsz"], f["blgp"]

    def run(w):
        check_exec(w, step)
        A = k_matrix(lane_values(ops.a(w), ta))
        B = k_matrix(lane_values(ops.b(w), tb))
        if scales:
            A = A * scale_matrix(w.V[scales[0][0]], scales[0][1])
            B = B * scale_matrix(w.V[scales[1][0]], scales[1][1])
        ops.write_d(w, ops.c(w) + A @ B.transpose(0, 2, 1))

    reads = set(ops.reads) | {r for r, _ in scales}
    step = Step(ins, run, "mfma", vreads=frozenset(reads), vwrites=frozenset(ops.writes))
    return step
