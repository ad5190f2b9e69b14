"""gfx950's VGPR index mode: ``s_set_gpr_idx_on`` / ``_off`` / ``_mode`` / ``_idx`` and
what it does to the vector ALU instructions a wave runs while it is on.

The state (CDNA3 ISA, the SOPC/SOP1/SOPP instructions and M0): ``MODE.gpr_idx_en`` (a flag
of the wave, :attr:`Wave.gpr_idx` in :mod:`~pipeline_mlir.emu.machine`), the index in
``M0[7:0]`` and the operand mask in ``M0[15:12]`` (bit 0 src0, 1 src1, 2 src2, 3 the
destination: ``gpr_idx(SRC0,SRC1,SRC2,DST)``).

* ``s_set_gpr_idx_on S0, MASK``: on; ``M0[7:0] = S0[7:0]``, ``M0[15:12] = MASK`` (the raw
  4-bit field), the other bits of M0 kept.
* ``s_set_gpr_idx_off``: off; M0 untouched.
* ``s_set_gpr_idx_mode MASK``: ``M0[15:12] = MASK``; ``s_set_gpr_idx_idx S0``:
  ``M0[7:0] = S0[7:0]`` (neither turns the mode on or off).

While the mode is on, each VOP1/VOP2/VOPC/VOP3 instruction reads M0 when it runs and adds
the index to the register number of each operand the mask enables that is a VGPR (an SGPR,
a constant or a literal in that slot is read as it is), so LLVM's ``s_set_gpr_idx_on s6,
gpr_idx(SRC0)`` / ``v_mov_b32 v66, v2`` copies ``v[2 + s6[7:0]]``.  The instruction is
compiled again with those registers (:func:`indexed_step`, kept per mask and index), so its
register reads and writes, the pending-load check and the wait-state rules see the
registers it really uses.  Refused at the instruction, when it runs: an enabled operand
wider than one VGPR, a register past v255 after indexing, src2 or dst indexing of an
instruction whose destination is also a source (``v_fmac_f32``), SDWA, packed, matrix, memory and
other instructions with VGPR operands while the mask is not 0 (the ISA applies the mode to
vector ALU operands; the emulator does not guess for the others).
"""

from __future__ import annotations

import dataclasses

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import (VGPR0, Instr, gpr_idx_text, operand_widths,
                                     vop3_sources)
from pipeline_mlir.emu.operands import M0, U32, Reader, Step, refuse
from pipeline_mlir.emu.valu import compile_valu

#: the M0 bits the mode keeps: the index (7:0) and the operand mask (15:12)
INDEX_BITS, MASK_SHIFT = 0xFF, 12
_M0_MODE_BITS = 0xF000 | INDEX_BITS
#: the encodings whose VGPR operands the mode indexes
_INDEXED_ENCODINGS = ("VOP1", "VOP2", "VOPC", "VOP3")
_SCALAR_DST = ("v_readlane_b32", "v_readfirstlane_b32")
#: instructions whose destination is also a source: which mask bit indexes that read is
#: not pinned, so src2 or dst indexing of them is refused
_TIED = ("v_mac_", "v_fmac_", "v_dot2c_", "v_pk_fmac_")


def compile_gpr_idx(ins: Instr) -> Step:
    """The step of ``s_set_gpr_idx_on`` / ``_off`` / ``_mode`` / ``_idx``."""
    n = ins.name
    if n == "s_set_gpr_idx_off":
        if ins.f["imm"]:
            raise refuse(ins, "s_set_gpr_idx_off with an operand")

        def off(w):
            w.gpr_idx = False
        return Step(ins, off, "salu")
    if n == "s_set_gpr_idx_mode":
        mask = ins.f["imm"]
        if mask > 15:
            raise refuse(ins, "an index-mode mask wider than 4 bits")
        return _set_m0(ins, None, 0xF000, mask << MASK_SHIFT, None)
    rd = Reader(ins)
    src = rd.scalar(ins.f["src0"])
    if n == "s_set_gpr_idx_idx":
        return _set_m0(ins, src, INDEX_BITS, 0, None, frozenset(rd.sr))
    if n == "s_set_gpr_idx_on":
        mask = ins.f["src1"]
        if mask > 15:
            raise refuse(ins, "an index-mode mask wider than 4 bits")
        return _set_m0(ins, src, _M0_MODE_BITS, mask << MASK_SHIFT, True, frozenset(rd.sr))
    raise refuse(ins)


def _set_m0(ins: Instr, src, keep_out: int, bits: int, turn_on, sreads=frozenset()) -> Step:
    """A step writing ``M0 = (M0 & ~keep_out) | bits | (src & 0xFF)`` (``src`` None: no
    index) and turning the mode on when ``turn_on``."""
    keep = U32(~keep_out & 0xFFFFFFFF)

    def run(w):
        m0 = (w.S[M0] & keep) | U32(bits)
        if src is not None:
            m0 = m0 | (src(w) & U32(INDEX_BITS))
        w.S[M0] = m0
        if turn_on:
            w.gpr_idx = True
    return Step(ins, run, "salu", sreads=sreads | {M0}, swrites=frozenset({M0}))


def mode_of(w) -> tuple[int, int] | None:
    """(mask, index) of the wave's M0, the same in every workgroup it runs; None when they
    differ (the caller runs the workgroups one at a time)."""
    m0 = w.S[M0]
    first = int(m0[0])
    if w.G > 1 and not (m0 == U32(first)).all():
        mode = (m0 >> U32(MASK_SHIFT)) & U32(0xF), m0 & U32(INDEX_BITS)
        if not ((mode[0] == mode[0][0]).all() and (mode[1] == mode[1][0]).all()):
            return None
    return (first >> MASK_SHIFT) & 0xF, first & INDEX_BITS


def indexed_step(st: Step, mask: int, index: int) -> Step:
    """``st`` as it runs with the index mode on, mask
    ``mask`` and index ``index`` (kept on the step); ``st`` itself when nothing of it is
    indexed."""
    if mask == 0:
        return st
    cache = st.__dict__.setdefault("gpr_idx_steps", {})
    got = cache.get((mask, index))
    if got is None:
        got = cache[(mask, index)] = _relocated(st, mask, index)
    return got


def _relocated(st: Step, mask: int, index: int) -> Step:
    ins = st.ins
    if ins.enc not in _INDEXED_ENCODINGS or ins.f.get("sdwa") or st.kind != "valu":
        if not st.vtouched:
            return st
        raise refuse(ins, f"the VGPR index mode is on ({gpr_idx_text(mask)}, index {index}) "
                          f"and the emulator applies it to vector ALU operands only")
    if mask & 0b1100 and ins.base.startswith(_TIED):
        raise refuse(ins, f"the VGPR index mode ({gpr_idx_text(mask)}) on an instruction "
                          f"whose destination is also its accumulator (not pinned)")
    widths = operand_widths(ins)
    nsrc = {"VOP1": 1, "VOP2": 2, "VOPC": 2}.get(ins.enc) or vop3_sources(ins)
    f = dict(ins.f)
    changed = False
    for bit, key in enumerate(("src0", "src1", "src2", "dst")):
        if not mask >> bit & 1 or key not in f or (bit < 3 and bit >= nsrc) \
                or not _is_vgpr(ins, key):
            continue
        if widths.get(key, 1) != 1:
            raise refuse(ins, f"the VGPR index mode on the {widths[key]}-register operand "
                              f"{key} (not pinned)")
        first = f[key] - (VGPR0 if key != "dst" else 0)
        if first + index > 255:
            raise refuse(ins, f"the VGPR index mode moves {key} v{first} by {index}, past "
                              f"v255")
        f[key] += index
        changed = True
    if not changed:
        return st
    moved = dataclasses.replace(ins, f=f)
    try:
        out = compile_valu(moved)
    except EmuError as e:
        raise refuse(ins, f"indexed by {index}: {e}") from None
    out.ins = dataclasses.replace(moved, text=f"{ins.text} (index {index})")
    return out


def _is_vgpr(ins: Instr, key: str) -> bool:
    """Is the operand ``key`` of ``ins`` a VGPR (the only operands the mode indexes)?"""
    if key != "dst":
        return ins.f[key] >= VGPR0
    if ins.enc == "VOPC" or (ins.enc == "VOP3" and ins.op < 0x100):
        return False                        # a compare writes a lane mask (SGPRs)
    return ins.base not in _SCALAR_DST

