"""The scaled matrix instructions (``v_mfma_scale_f32_*_f8f6f4``): how they are encoded and
written, for the decoder, the assembly reader and the disassembler.

gfx950 encodes a scaled MFMA as two VOP3P dwords pairs, 16 bytes: ``v_mfma_ld_scale_b32``
(VOP3P opcode 44) carrying the two scale operands and their byte selects, then the
``f8f6f4`` MFMA itself with bit 11 of its first dword set (LLVM's VOP3PX encoding, "which
bundles the pre-scale v_mfma_ld_scale_b32", LLVM's AMDGPU backend; checked against
``llvm-mc-22 -show-encoding`` and ``llvm-objdump-22``, which print the pair as one
instruction).  The record is one :class:`~pipeline_mlir.emu.instr.Instr` of 16 bytes
named by the scaled mnemonic, with the MFMA's opcode and fields plus:

* ``scale_src0`` / ``scale_src1``: the A and B scale operands (9-bit source codes);
* ``scale_opsel`` / ``scale_opsel_hi``: the ``op_sel`` / ``op_sel_hi`` bits of the pair.
  Byte ``op_sel[i] + 2 * op_sel_hi[i]`` of scale register ``i`` is the scale (LLVM's
  ``opsel`` argument of ``llvm.amdgcn.mfma.scale.*`` is that byte index, 0..3:
  ``opselA = 1`` prints ``op_sel:[1,0,0]``, ``2`` prints ``op_sel_hi:[1,0,0]``).

``abid`` of the pair is the MFMA's field without that bit 11.
"""

from __future__ import annotations

from pipeline_mlir.emu.instr import Instr

#: VOP3P opcode of ``v_mfma_ld_scale_b32``
LD_SCALE_OP = 44
#: the scaled mnemonic of each f8f6f4 MFMA
SCALED_NAME = {"v_mfma_f32_16x16x128_f8f6f4": "v_mfma_scale_f32_16x16x128_f8f6f4",
               "v_mfma_f32_32x32x64_f8f6f4": "v_mfma_scale_f32_32x32x64_f8f6f4"}
#: the MFMA mnemonic of each scaled mnemonic
UNSCALED_NAME = {v: k for k, v in SCALED_NAME.items()}
#: the MFMA dword's bit that marks it as the second half of a scaled pair (in ``abid``)
SCALE_BIT = 1


def is_scaled(ins: Instr) -> bool:
    return ins.name in UNSCALED_NAME


def pair(ld: Instr, mfma: Instr) -> Instr | None:
    """The scaled MFMA of ``v_mfma_ld_scale_b32`` ``ld`` followed by ``mfma``, or None when
    they do not form one (another instruction, or the MFMA without the scale bit)."""
    if mfma.name not in SCALED_NAME or not mfma.f.get("abid", 0) & SCALE_BIT:
        return None
    f = dict(mfma.f)
    f.update(abid=f["abid"] & ~SCALE_BIT, scale_src0=ld.f["src0"], scale_src1=ld.f["src1"],
             scale_opsel=ld.f["opsel"], scale_opsel_hi=ld.f["opsel_hi"])
    return Instr(ld.addr, ld.size + mfma.size, mfma.enc, mfma.op, SCALED_NAME[mfma.name], f)


def scale_bytes(f: dict) -> tuple[int, int]:
    """The byte (0..3) of the A and of the B scale register that holds the scale."""
    lo, hi = f["scale_opsel"], f["scale_opsel_hi"]
    return tuple(((lo >> i) & 1) | (((hi >> i) & 1) << 1) for i in range(2))


def scale_text(f: dict, src_text) -> str:
    """``, vA, vB`` and the op_sel modifiers as LLVM prints them (``op_sel`` when set,
    ``op_sel_hi`` unless all three bits are set, which they never are in a pair)."""
    text = f", {src_text(f['scale_src0'])}, {src_text(f['scale_src1'])}"
    lo, hi = f["scale_opsel"], f["scale_opsel_hi"]
    if lo:
        text += " op_sel:[" + ",".join(str((lo >> k) & 1) for k in range(3)) + "]"
    if hi != 7:
        text += " op_sel_hi:[" + ",".join(str((hi >> k) & 1) for k in range(3)) + "]"
    return text


def scale_fields(ops: list[str], mods: list[str], parse_src, bits) -> dict:
    """The scale fields of an assembly line's two trailing operands and its op_sel
    modifiers, absent ones 0 as llvm-mc-22 reads them (``parse_src``: operand -> (code, literal, agpr); ``bits(key, default)``:
    a modifier list ``key:[..]`` as bits)."""
    out = {}
    for k, t in enumerate(ops):
        code, lit, agpr = parse_src(t, agpr=True)
        if lit is not None or agpr:
            raise ValueError(f"scale operand {t!r}: a VGPR, SGPR or inline constant")
        out[f"scale_src{k}"] = code
    out.update(scale_opsel=bits("op_sel", 0), scale_opsel_hi=bits("op_sel_hi", 0))
    return out
