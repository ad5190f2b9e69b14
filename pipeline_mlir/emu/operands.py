"""The pieces every instruction's semantics is built from: :class:`Step` (one compiled
instruction: a Python function over a wave's state plus the registers it reads and
writes), :class:`Reader` (operand readers), register writes under EXEC, lane masks, and
:func:`refuse` (the error for an instruction the emulator does not implement).

Values are numpy arrays with a leading workgroup axis (the machine runs several
workgroups in lockstep): scalar operands are ``(G,)`` arrays, vector operands ``(G, 64)``.
32-bit values are ``uint32``; 64-bit operands are ``uint64`` assembled from register pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.instr import FLOAT_CONSTANTS, LITERAL, VCC, VGPR0, Instr

U32, U64, I32, I64, F32 = np.uint32, np.uint64, np.int32, np.int64, np.float32
M32 = 0xFFFFFFFF
M0, EXEC, SCC_SRC, VCCZ, EXECZ = 124, 126, 253, 251, 252


@dataclass
class Step:
    """One compiled instruction (``run`` None: the register effects of one the machine does
    not run, :func:`~pipeline_mlir.emu.hazards.effects_of`)."""

    ins: Instr
    run: object                    # fn(wave) -> None (next) or an instruction index
    kind: str                      # 'salu' 'valu' 'mfma' 'smem' 'ds' 'vmem' 'wait' 'barrier'
    #                                'branch' 'end' 'nop' 'trap'
    vreads: frozenset = frozenset()    # VGPRs (0..255) and AGPRs (256..511) read
    vwrites: frozenset = frozenset()
    sreads: frozenset = frozenset()    # SGPR numbers (incl. VCC 106/107, M0 124, EXEC 126/7)
    swrites: frozenset = frozenset()
    mem: dict = field(default_factory=dict)   # memory instructions: what the machine needs
    target: int | None = None          # branch target (instruction index)

    def __post_init__(self) -> None:
        #: every register read or written (the machine's pending-load check looks here
        #: first)
        self.vtouched = self.vreads | self.vwrites
        self.stouched = self.sreads | self.swrites
        #: the same as bit masks (bit ``r``: register ``r``), against a wave's pending ones
        self.vbits, self.sbits = reg_bits(self.vtouched), reg_bits(self.stouched)


def reg_bits(regs) -> int:
    """The registers ``regs`` (numbers) as one int, bit ``r`` set for register ``r``."""
    out = 0
    for r in regs:
        out |= 1 << r
    return out


def refuse(ins: Instr, why: str = "") -> EmuError:
    extra = f" ({why})" if why else ""
    return EmuError(f"0x{ins.addr:04x}: instruction '{ins.text}' ({ins.name}) is not "
                    f"implemented by the emulator{extra}")


# ---------------------------------------------------------------------------
# operands

def _const(code: int, lit: int | None, wide: bool, is_float: bool) -> int | None:
    """The value of a constant operand (inline or literal) as raw bits, else None."""
    if 128 <= code <= 192:
        v = code - 128
    elif 193 <= code <= 208:
        v = 192 - code
    elif code in FLOAT_CONSTANTS:
        x = FLOAT_CONSTANTS[code]
        if wide:
            return int(np.array(x, np.float64).view(U64))
        return int(np.array(x, np.float32).view(U32))
    elif code == LITERAL:
        if wide and is_float:
            return (lit & M32) << 32
        if wide and lit & 0x80000000:
            raise EmuError("a 64-bit integer operand with a literal whose bit 31 is set: the "
                           "extension of such literals is not pinned, so the emulator refuses "
                           "it")
        return lit & M32
    else:
        return None
    return v & ((1 << 64) - 1) if wide else v & M32


def sregs(code: int, n: int) -> tuple[int, ...]:
    return tuple(range(code, code + n)) if code <= 127 else ()


def vregs(code: int, n: int, acc: bool = False) -> tuple[int, ...]:
    if code < VGPR0:
        return ()
    first = code - VGPR0 + (256 if acc else 0)
    return tuple(range(first, first + n))


def per_slots(make):
    """fn(w) -> ``make(w.G)``, made once per workgroup count: what a step uses that has
    the shape of the batch it runs on (a step is compiled once for every batch size)."""
    made: dict = {}

    def get(w):
        got = made.get(w.G)
        if got is None:
            got = made[w.G] = make(w.G)
        return got
    return get


class Reader:
    """Builds the functions that read operands of one instruction (for any number of
    workgroups in lockstep: a constant is an array of the running batch's size)."""

    def __init__(self, ins: Instr, is_float: bool = False) -> None:
        self.ins, self.is_float = ins, is_float
        self.vr: set[int] = set()
        self.sr: set[int] = set()

    def scalar(self, code: int, n: int = 1):
        """fn(w) -> (G,) uint32 (n=1) or uint64 (n=2)."""
        ins = self.ins
        try:
            c = _const(code, ins.lit, n == 2, self.is_float)
        except EmuError as e:
            raise refuse(ins, str(e)) from None
        if c is not None:
            dtype = U64 if n == 2 else U32
            return per_slots(lambda G: np.full(G, c, dtype=dtype))
        if code <= 127:
            self.sr.update(sregs(code, n))
            if n == 1:
                return lambda w: w.S[code]
            return lambda w: pair_u64(w.S, code)
        if code == SCC_SRC:
            return lambda w: w.scc.astype(U32)
        if code == VCCZ:
            return lambda w: ((w.S[VCC] | w.S[VCC + 1]) == 0).astype(U32)
        if code == EXECZ:
            return lambda w: ((w.S[EXEC] | w.S[EXEC + 1]) == 0).astype(U32)
        raise refuse(ins, f"operand {code} is not a scalar source the emulator provides")

    def vector(self, code: int, n: int = 1, acc: bool = False):
        """fn(w) -> (G, 64) or (G, 1) uint32 / uint64."""
        if code >= VGPR0:
            r = code - VGPR0
            self.vr.update(vregs(code, n, acc))
            if acc:
                if n == 1:
                    return lambda w: w.A[r]
                return lambda w: pair_u64(w.A, r)
            if n == 1:
                return lambda w: w.V[r]
            return lambda w: pair_u64(w.V, r)
        s = self.scalar(code, n)
        return lambda w: s(w)[:, None]


def pair_u64(regs: np.ndarray, r: int) -> np.ndarray:
    """Registers ``r`` and ``r + 1`` of the file ``regs`` (n, ...) uint32 as one uint64 per
    element, ``r`` the low word (a new array): the pair's words side by side are that
    uint64's bytes (little-endian, as every view of the emulator's)."""
    pair = regs[r:r + 2]
    if len(pair) != 2:
        raise IndexError(f"registers {r}..{r + 1} of a file of {len(regs)}")
    moved = pair.T if pair.ndim == 2 else pair.transpose(1, 2, 0)
    return moved.copy().view(U64)[..., 0]     # (always a copy: of one slot, .T is a view)


def write_v(w, r: int, val, n: int = 1, acc: bool = False) -> None:
    """Write VGPR(s) ``r`` (``n`` dwords) under EXEC."""
    reg = w.A if acc else w.V
    m = w.exec
    if n == 1:
        if w.exec_full and isinstance(val, (np.ndarray, np.generic)):
            reg[r] = val                     # the same conversion as copyto's unsafe cast
        else:
            np.copyto(reg[r], val, where=m, casting="unsafe")
    else:
        v = np.asarray(val, dtype=U64)
        np.copyto(reg[r], (v & U64(M32)), where=m, casting="unsafe")
        np.copyto(reg[r + 1], (v >> U64(32)), where=m, casting="unsafe")


def lane_bytes(reg, r: int, n: int) -> np.ndarray:
    """(G, 64, 4 * n) uint8, a copy: the ``n`` dwords of registers ``r ..`` of the register
    file ``reg`` (n, G, 64) side by side per lane, as a store reads them at issue."""
    block = reg[r:r + n]
    if len(block) != n:
        raise IndexError(f"registers {r}..{r + n - 1} of a file of {len(reg)}")
    G, lanes = block.shape[1:]
    return block.transpose(1, 2, 0).copy().view(np.uint8).reshape(G, lanes, 4 * n)


def write_s(w, r: int, val, n: int = 1) -> None:
    if n == 1:
        w.S[r] = val
    else:
        v = np.asarray(val, dtype=U64)
        if v.ndim == 1 and r + 2 <= len(w.S):   # the low and high words: a view of v's bytes
            w.S[r:r + 2] = np.ascontiguousarray(v).view(U32).reshape(-1, 2).T
        else:
            w.S[r] = (v & U64(M32)).astype(U32)
            w.S[r + 1] = (v >> U64(32)).astype(U32)
    if r <= EXEC + 1 and r + n > EXEC:      # EXEC_LO / EXEC_HI written: new lane mask
        w.exec_changed()


def mask_bits(mask) -> np.ndarray:
    """(G, 64) bool -> (G,) uint64 lane mask."""
    packed = np.packbits(mask, axis=1, bitorder="little")
    return packed.view(U64).reshape(-1)


def bits_mask(bits) -> np.ndarray:
    """(G,) uint64 -> (G, 64) bool."""
    b = np.ascontiguousarray(np.asarray(bits, dtype=U64)).view(np.uint8).reshape(-1, 8)
    return np.unpackbits(b, axis=1, bitorder="little").astype(bool)


def pair_mask(S, r: int) -> np.ndarray:
    """(G, 64) bool: the lane mask in the SGPR pair ``r``, ``r + 1`` of ``S`` (128, G)
    uint32, as :func:`bits_mask` of ``S[r] | S[r + 1] << 32``: the pair's words side by
    side are that uint64's bytes (little-endian, as every view of the emulator's)."""
    pair = np.ascontiguousarray(S[r:r + 2].T).view(np.uint8)
    return np.unpackbits(pair, axis=1, bitorder="little").view(bool)


def f32(x):
    return np.asarray(x, dtype=U32).view(F32)


def from_f32(x):
    return np.asarray(x, dtype=F32).view(U32)
