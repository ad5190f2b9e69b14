"""LLVM's long branches: ``s_getpc_b64`` and ``s_setpc_b64``.

A branch farther than a SOPP's 16-bit offset reaches (a kernel of more than 128 KiB of
code between the branch and its target) is written by LLVM's branch relaxation as

    s_getpc_b64 s[a:a+1]                 ; the address of the next instruction
    s_add_u32  s<a>,   s<a>,   (target - next) & 0xffffffff
    s_addc_u32 s<a+1>, s<a+1>, (target - next) >> 32
    s_setpc_b64 s[a:a+1]                 ; jump there

The emulator runs instructions by index, so it resolves such a jump when the kernel is
loaded (:func:`long_branch_targets`): an ``s_setpc_b64`` is taken only as the last of
exactly these four instructions, in a row, on one register pair, with constant offsets,
and its target must be the start of an instruction; it is then an unconditional branch.
``s_getpc_b64`` writes the byte offset of its next instruction from the kernel's entry
(the code's base address is 0 in the emulator), so the SGPRs hold what the sequence
computes relative to the entry.  Any other ``s_setpc_b64`` (a return, an indirect jump)
is refused at load.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.operands import U64, Step, write_s

#: the source operand code of a 32-bit literal
LITERAL = 255


def long_branch_targets(instrs: list) -> dict[int, int]:
    """``s_setpc_b64`` byte offset -> its target's byte offset, for every long branch of
    ``instrs`` (module docstring)."""
    out = {}
    for i, ins in enumerate(instrs):
        if ins.name != "s_setpc_b64" or i < 3:
            continue
        get, add, addc = instrs[i - 3:i]
        a = ins.f["src0"]
        if (get.name, add.name, addc.name) != ("s_getpc_b64", "s_add_u32", "s_addc_u32") \
                or get.f["dst"] != a or (add.f["dst"], add.f["src0"]) != (a, a) \
                or (addc.f["dst"], addc.f["src0"]) != (a + 1, a + 1):
            continue
        lo, hi = _constant(add), _constant(addc)
        if lo is None or hi is None:
            continue
        offset = (lo & 0xFFFFFFFF) | ((hi & 0xFFFFFFFF) << 32)
        out[ins.addr] = (get.addr + get.size + offset) & 0xFFFFFFFFFFFFFFFF
    return out


def _constant(ins: Instr) -> int | None:
    """The second source of ``ins`` when it is a literal or an inline integer, else None."""
    code = ins.f["src1"]
    if code == LITERAL:
        return ins.lit
    if 128 <= code <= 192:
        return code - 128
    return -(code - 192) if 193 <= code <= 208 else None


def compile_pc(ins: Instr, index_of: dict[int, int], far: dict[int, int]) -> Step:
    """``s_getpc_b64`` or ``s_setpc_b64`` (the last of a long branch, ``far``)."""
    if ins.name == "s_getpc_b64":
        d, nxt = ins.f["dst"], ins.addr + ins.size

        def run(w):
            write_s(w, d, np.full(w.G, nxt, dtype=U64), 2)
        return Step(ins, run, "salu", swrites=frozenset((d, d + 1)))
    t = far.get(ins.addr)
    if t is None:
        raise EmuError(f"0x{ins.addr:04x}: '{ins.text}' jumps to an address the emulator "
                       f"does not know when loading the kernel (it takes s_setpc_b64 only as "
                       f"the end of a long branch: s_getpc_b64, s_add_u32, s_addc_u32)")
    if t not in index_of:
        raise EmuError(f"0x{ins.addr:04x}: '{ins.text}' jumps to 0x{t:04x}, which is not the "
                       f"start of an instruction of the kernel")
    a = ins.f["src0"]
    return Step(ins, None, "branch", sreads=frozenset((a, a + 1)), target=index_of[t])
