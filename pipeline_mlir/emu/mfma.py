"""Matrix instructions (MFMA): operand layouts and arithmetic.

Layouts (wave64; lane ``l``, ``q = l // 16``, ``r = l % 16``), as the AMD documents give
them and ``test_mfma.py`` pins with one-hot inputs:

* ``v_mfma_f32_16x16x32_bf16`` / ``_f16``: A row ``r``, K ``8q + e`` for element ``e`` (0..7;
  element ``e`` is half ``e % 2`` of register ``e // 2``, low half first); B column ``r``,
  the same K.  (The 16x16x16 form's documented "k = 4*floor(lane/16) + 2*GPR_num +
  floor(GPR_bits/16)", with K doubled on gfx950.)
* ``v_mfma_f32_16x16x16_bf16`` / ``_f16`` (gfx942's, which gfx950 keeps): the same with 2
  registers per operand, K ``4q + e`` for element ``e`` (0..3): the calculator's layout itself.
* ``v_mfma_f32_16x16x128_f8f6f4`` with FP8/BF8 operands: byte ``b`` of the 32 bytes of a lane
  is K ``16q + 64 (b // 16) + b % 16`` (interleaved 16-element chunks), for A and B alike;
  the A format is ``cbsz``, the B format ``blgp`` (0 = E4M3, 1 = E5M2; the FP6/FP4 formats
  are refused).  gfx950's FP8 is OCP E4M3FN / E5M2 (not the FNUZ variants of gfx942).
* ``v_mfma_i32_16x16x64_i8``: byte ``b`` of the 16 bytes of a lane (byte ``b % 4`` of
  register ``b // 4``) is K ``16q + b``, for A and B alike: 16 consecutive K values per lane
  (IREE's layout of ``MFMA_I32_16x16x64_I8``, ``IREEGPUAttrs.cpp``: thread ``{16, 4}``,
  strides ``{1, 16}``, element ``{1, 16}``); signed bytes, an i32 C and D.
* ``v_mfma_f32_16x16x32_{fp8,bf8}_{fp8,bf8}`` (gfx942's, which gfx950 keeps): byte ``b`` of
  the 8 bytes of a lane (byte ``b % 4`` of register ``b // 4``) is K ``8q + b``, for A and B
  alike (IREE's layout of ``MFMA_F32_16x16x32_F8E4M3FN``: thread ``{16, 4}``, element
  ``{1, 8}``); the formats are the mnemonic's, A's first (``fp8`` E4M3FN, ``bf8`` E5M2).
* C and D: register ``k`` of lane ``l`` holds element ``[4q + k][r]``.
* ``v_mfma_f32_32x32x16_bf16`` / ``_f16`` (lane ``l``, ``h = l // 32``, ``s = l % 32``): A
  row ``s``, K ``8h + e`` for element ``e`` (0..7, half ``e % 2`` of register ``e // 2``);
  B column ``s``, the same K; C and D in 16 registers, register ``k`` of lane ``l`` holding
  element ``[8 (k // 4) + 4h + k % 4][s]`` (the AMD matrix instruction calculator's
  32x32x8 layout, "i = 8 floor(GPR / 4) + 4 floor(lane / 32) + GPR % 4", with K doubled
  on gfx950 as for the 16x16 forms).
* ``v_mfma_f32_32x32x8_bf16`` / ``_f16``: the same with 2 registers per operand, K
  ``4h + e`` for element ``e`` (0..3): the calculator's 32x32x8 layout itself.
* ``v_mfma_i32_32x32x32_i8`` (``h``, ``s`` as above): A row ``s``, B column ``s``, byte ``b``
  of the lane's 16 (byte ``b % 4`` of register ``b // 4``) K ``16h + b`` (the 16x16x64 form's
  16 consecutive K values per lane, over two lane halves); an i32 C and D laid out as the
  32x32 f32 ones.
* ``v_mfma_f32_32x32x16_{fp8,bf8}_{fp8,bf8}`` (gfx942's, which gfx950 keeps; ``h``, ``s`` as
  above): A row ``s``, B column ``s``, byte ``b`` of the lane's 8 (byte ``b % 4`` of register
  ``b // 4``) K ``8h + b`` (the layout of gfx942's 32x32x16 i8; IREE's of
  ``MFMA_F32_32x32x16_F8E4M3FN``: thread ``{32, 2}``, element ``{1, 8}``); formats as for
  the 16x16x32 ones; C and D as the 32x32 f32 ones.
* ``v_mfma_f32_32x32x64_f8f6f4`` with FP8/BF8 operands: byte ``b`` of the lane's 32 is K
  ``16h + 32 (b // 16) + b % 16`` (the interleaved 16-element chunks of the 16x16x128 form,
  ROCm's "K=64 (32x32x64)" case), for A and B alike; formats as for the 16x16x128 form.
* ``v_mfma_f32_16x16x4_f32`` and ``v_mfma_f32_32x32x2_f32`` (the f32 MFMAs of CDNA since
  gfx908, which gfx950 keeps; IREE's ``MFMA_F32_16x16x4_F32``; ``test_mfma_f32.py`` pins
  them): A and B one VGPR each, one f32 a lane: lane ``l`` holds A row (B column) ``l % 16``,
  K ``l // 16`` (32x32x2: ``l % 32``, K ``l // 32``; the AMD matrix instruction calculator's
  layouts, IREE's ``mfmaLhs16xK(4)``: thread ``{16, 4}``, strides ``{1, 16}``, element
  ``{1, 1}``); C and D as the other 16x16 (4 registers) and 32x32 (16 registers) f32 forms.

The products are exact and summed in float64, then rounded once to f32 (the hardware's
accumulation order and intermediate rounding are not modelled; exact for the small-integer
inputs of the tests).  That holds for the f32 MFMAs too: an f32 x f32 product (24-bit
significands, 48 bits) is exact in float64; the float64 sum of the products and C, rounded
to f32, is the exactly rounded result unless the float64 sum itself rounded (operands of
widely different magnitudes); subnormal operands are taken at their value (the MODE
register's denormal controls are not modelled).  The i8 MFMAs are exact integer arithmetic,
D = C + A x B^T modulo 2^32 (two's complement).  MFMAs ignore no lanes: EXEC must be all ones.
"""

from __future__ import annotations

import functools

import numpy as np

from pipeline_mlir.emu.instr import Instr, mfma_regs
from pipeline_mlir.emu.operands import Step, refuse, vregs
from pipeline_mlir.kernel.mx import minifloat
from pipeline_mlir.target.gfx950 import MFMA_BY_DTYPE, MFMAS, WAVE_SIZE, fp8_mnemonic_formats

U32 = np.uint32


#: the value of every byte as OCP E4M3FN and as E5M2 (gfx950's FP8 formats)
E4M3 = minifloat(4, 3, "fn")
E5M2 = minifloat(5, 2, "ieee")
FP8_FORMATS = {0: ("E4M3", E4M3), 1: ("E5M2", E5M2)}


def _operand_layout(ids: np.ndarray, n: int, G: int, elem_bytes: int) -> np.ndarray:
    """The elements of an A (or B) operand, ``ids`` laid out as the registers
    ``(n, G, 64 lanes, 4 / elem_bytes)``, rearranged to (G, 16, K): row (A) or column (B)
    ``l % 16`` of lane ``l``, K as the module docstring gives it."""
    if elem_bytes == 2:
        h = ids.reshape(n, G, 4, 16, 2)                             # [reg, g, q, r, half]
        return h.transpose(1, 3, 2, 0, 4).reshape(G, 16, 4 * n * 2)   # k = 8 q + 2 reg + half
    b = ids.reshape(n, G, 4, 16, 4)                                 # [reg, g, q, r, byte]
    if n in (2, 4):            # i8 16x16x64, FP8 16x16x32: k = 4 n q + 4 reg + byte
        return b.transpose(1, 3, 2, 0, 4).reshape(G, 16, 16 * n)
    b = b.transpose(1, 3, 0, 4, 2)                      # [g, r, reg, byte, q]
    return b.reshape(G, 16, 2, 16, 4).transpose(0, 1, 2, 4, 3).reshape(G, 16, 4 * n * 4)
    #                                                     k = 64 i + 16 q + j (byte 16 i + j)


@functools.lru_cache(maxsize=None)
def _operand_index(n: int, G: int, elem_bytes: int) -> np.ndarray:
    """Flat indices (into the elements of the registers) of :func:`_operand_layout`."""
    return np.ascontiguousarray(_operand_layout(np.arange(n * G * 256 // elem_bytes), n, G,
                                                elem_bytes))


@functools.lru_cache(maxsize=None)
def _operand_index32(G: int, n: int = 4) -> np.ndarray:
    """Flat indices (into the halves of ``n`` registers) of a 32x32 operand: (G, 32, 4 n);
    K ``2 n h + e`` (32x32x16: 4 registers, 32x32x8: 2)."""
    h = np.arange(n * G * 128).reshape(n, G, 2, 32, 2)              # [reg, g, h, s, half]
    return np.ascontiguousarray(h.transpose(1, 3, 2, 0, 4).reshape(G, 32, 4 * n))


@functools.lru_cache(maxsize=None)
def _byte_index32(G: int, n: int) -> np.ndarray:
    """Flat indices (into the bytes of ``n`` registers) of a 32x32 8-bit operand: (G, 32,
    4 n); K ``4nh + b`` for 2 or 4 registers (gfx942's 32x32x16 i8 and FP8, the 32x32x32 i8),
    ``16h + 32 (b // 16) + b % 16`` for the ``f8f6f4`` 32x32x64's 8."""
    b = np.arange(n * G * 256).reshape(n, G, 2, 32, 4)              # [reg, g, h, s, byte]
    b = b.transpose(1, 3, 2, 0, 4).reshape(G, 32, 2, n * 4)          # [g, s, h, byte b]
    if n == 8:                                 # [g, s, h, chunk, j] -> [g, s, chunk, h, j]
        b = b.reshape(G, 32, 2, 2, 16).transpose(0, 1, 3, 2, 4)
    return np.ascontiguousarray(b.reshape(G, 32, 8 * n))


@functools.lru_cache(maxsize=None)
def _f32_index(G: int, m: int) -> np.ndarray:
    """Flat indices (into the dwords of one register) of an f32 operand of an ``m`` x ``m``
    MFMA: (G, m, 64 / m), row (A) or column (B) ``l % m`` of lane ``l``, K ``l // m``."""
    ids = np.arange(G * WAVE_SIZE).reshape(G, WAVE_SIZE // m, m)   # [g, K, row]
    return np.ascontiguousarray(ids.transpose(0, 2, 1))


@functools.lru_cache(maxsize=None)
def _acc_index(G: int, m: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices of an ``m`` x ``m`` C/D: (register element of each matrix element, and
    the inverse)."""
    if m == 32:                        # [kb, kk, g, h, s] -> row 8 kb + 4 h + kk, col s
        fwd = np.arange(16 * G * WAVE_SIZE).reshape(4, 4, G, 2, 32).transpose(2, 0, 3, 1, 4)
        fwd = fwd.reshape(-1)
    else:
        fwd = np.arange(4 * G * WAVE_SIZE).reshape(4, G, 4, 16).transpose(1, 2, 0, 3)
        fwd = fwd.reshape(-1)                             # [k, g, q, r] -> row 4q+k, col r
    return fwd, np.argsort(fwd)


def _half_tables() -> dict[str, np.ndarray]:
    bits = np.arange(1 << 16, dtype=U32)
    with np.errstate(invalid="ignore"):          # signalling NaN patterns
        return {"bf16": (bits << 16).view(np.float32).astype(np.float64),
                "f16": bits.astype(np.uint16).view(np.float16).astype(np.float64)}


#: the value of every 16-bit pattern as bf16 and f16
HALF_TABLES = _half_tables()


def int8_matrix(regs: np.ndarray, m: int = 16) -> np.ndarray:
    """(4, G, 64) uint32 registers of an i8 A (or B) operand of an ``m`` x ``m`` MFMA ->
    (G, m, 64 or 32) int64 (signed bytes) whose row (A) or column (B) is ``l % m``."""
    n, G = regs.shape[0], regs.shape[1]
    flat = np.ascontiguousarray(regs).reshape(-1).view(np.int8)
    index = _byte_index32(G, n) if m == 32 else _operand_index(n, G, 1)
    return flat.take(index).astype(np.int64)


def acc_matrix(regs: np.ndarray) -> np.ndarray:
    """(4, G, 64) uint32 accumulator registers -> (G, 16, 16) float32 [row][col]; 16
    registers (a 32x32 MFMA's) -> (G, 32, 32)."""
    G, m = regs.shape[1], 32 if regs.shape[0] == 16 else 16
    flat = np.ascontiguousarray(regs).reshape(-1).view(np.float32)
    return flat.take(_acc_index(G, m)[0]).reshape(G, m, m)


def acc_registers(mat: np.ndarray) -> np.ndarray:
    """Inverse of :func:`acc_matrix`: (G, m, m) -> (m * m / 64, G, 64) uint32 (rounded to
    f32)."""
    G, m = mat.shape[0], mat.shape[1]
    flat = mat.astype(np.float32).reshape(-1)
    return flat.take(_acc_index(G, m)[1]).view(U32).reshape(m * m // WAVE_SIZE, G, WAVE_SIZE)


#: gfx950's f32 MFMA the target's table leaves out (no schedule issues it; its 16x16x4, the
#: table's, comes from ``MFMAS``), by its rows
_OTHER_F32_ROWS = {"v_mfma_f32_32x32x2_f32": 32}
_KINDS = {m.mnemonic: m.operands for m in MFMA_BY_DTYPE.values()}
_KINDS.update({m.mnemonic: m.operands for m in MFMAS if not m.scaled})
_KINDS.update(dict.fromkeys(_OTHER_F32_ROWS, "f32"))
_UNSCALED_F8F6F4 = frozenset(m.mnemonic for m in MFMAS
                             if m.operands == "f8f6f4" and not m.scaled)
#: rows (and columns) of each MFMA's C
_ROWS = {m.mnemonic: m.m for m in MFMAS}
_ROWS.update(_OTHER_F32_ROWS)


class MfmaOperands:
    """Where an MFMA's operands live: first registers of A, B, C (``src2``: its 9-bit code,
    a register or the constant 0) and D, their counts and files, the registers read and
    written (AGPRs as 256 + n).  A constant A/B, or a C that is neither registers nor 0,
    is refused."""

    def __init__(self, ins: Instr) -> None:
        f = ins.f
        self.na, self.nb, self.nc = mfma_regs(ins)
        self.acc, self.acc_cd = f["acc"], bool(f["acc_cd"])
        self.a0, self.b0 = f["src0"] - 256, f["src1"] - 256
        if self.a0 < 0 or self.b0 < 0:
            raise refuse(ins, "scalar or constant A/B operands")
        self.src2, self.d0 = f["src2"], f["dst"]
        reads = set(vregs(f["src0"], self.na, bool(self.acc & 1))) | \
            set(vregs(f["src1"], self.nb, bool(self.acc & 2)))
        if self.src2 >= 256:
            reads |= set(vregs(self.src2, self.nc, self.acc_cd))
        elif self.src2 != 128:
            raise refuse(ins, "a C operand other than registers or 0")
        self.reads = reads
        self.writes = vregs(256 + self.d0, self.nc, self.acc_cd)

    def a(self, w) -> np.ndarray:
        return (w.A if self.acc & 1 else w.V)[self.a0:self.a0 + self.na]

    def b(self, w) -> np.ndarray:
        return (w.A if self.acc & 2 else w.V)[self.b0:self.b0 + self.nb]

    def c(self, w):
        """C as a (G, 16, 16) matrix, or 0.0."""
        if self.src2 < 256:
            return 0.0
        return acc_matrix(self.c_regs(w))

    def c_regs(self, w) -> np.ndarray:
        """C's registers (a register C only)."""
        first = self.src2 - 256
        return (w.A if self.acc_cd else w.V)[first:first + self.nc]

    def write_d(self, w, D) -> None:
        self.write_d_bits(w, acc_registers(D))

    def write_d_bits(self, w, bits: np.ndarray) -> None:
        (w.A if self.acc_cd else w.V)[self.d0:self.d0 + self.nc] = bits


def fp8_operand_formats(ins: Instr) -> tuple[int, int] | None:
    """(A, B) FP8 format codes of an FP8 MFMA: an ``f8f6f4`` one's cbsz / blgp, a 16x16x32
    one's mnemonic's; None for any other instruction (a scaled MFMA's too)."""
    if ins.name in _UNSCALED_F8F6F4:
        return ins.f["cbsz"], ins.f["blgp"]
    return fp8_mnemonic_formats(ins.name)


def check_exec(w, step) -> None:
    """An MFMA's finding when EXEC is not all ones (its result is undefined)."""
    if not w.exec_full:
        w.machine.finding("mfma-exec", w, step, "an MFMA runs with EXEC not all ones "
                          "(its result is undefined)")


def compile_mfma(ins: Instr) -> Step:
    f, n = ins.f, ins.name
    kind = _KINDS.get(n)
    if kind is None:
        raise refuse(ins, "this MFMA's operand layout is not pinned")
    if f["cbsz"] and kind != "f8f6f4" or f["abid"] or (f["blgp"] and kind != "f8f6f4"):
        raise refuse(ins, "cbsz/abid/blgp broadcast modifiers")
    ta = tb = None
    if kind == "f8f6f4":
        if f["cbsz"] not in FP8_FORMATS or f["blgp"] not in FP8_FORMATS:
            raise refuse(ins, "FP6/FP4 operand formats")
        ta, tb = FP8_FORMATS[f["cbsz"]][1], FP8_FORMATS[f["blgp"]][1]
    elif kind == "fp8":
        ta, tb = (FP8_FORMATS[c][1] for c in fp8_operand_formats(ins))
    ops = MfmaOperands(ins)
    if kind == "i8":
        return _int8_step(ins, ops)

    m = _ROWS[n]
    run = _float_run(ops, m, _Gather(ops.na, kind, ta, m), _Gather(ops.nb, kind, tb, m))
    step = Step(ins, lambda w: run(w, step), "mfma", vreads=frozenset(ops.reads),
                vwrites=frozenset(ops.writes))
    return step


#: the operand matrices last gathered, by their gatherer's layout and their registers' bits
#: (:class:`_Gather`): an MFMA block reads each A (or B) fragment with several B (or A)
#: ones, so most gathers repeat one just made
_GATHERED: dict = {}
#: how many operand matrices :data:`_GATHERED` keeps (cleared when full)
GATHERED = 32


class _Gather:
    """An A or B operand of ``n`` registers of an ``m`` x ``m`` MFMA: called with its
    (n, G, 64) uint32 registers, the (G, m, K) float64 matrix whose row (A) or column (B)
    is ``l % m`` (read only: kept in :data:`_GATHERED` for the same layout and bits); its
    value table looked up once, at compile time, its index once per workgroup count G.
    An f32 operand has no table: its dwords are the values."""

    def __init__(self, n: int, kind: str, table, m: int) -> None:
        if kind == "f32":
            self.unit, self.table = np.float32, None
            self.index_for = lambda G: _f32_index(G, m)
        elif table is not None:
            self.unit, self.table = np.uint8, table
            self.index_for = (lambda G: _byte_index32(G, n)) if m == 32 else \
                (lambda G: _operand_index(n, G, 1))
        else:
            self.unit, self.table = np.uint16, HALF_TABLES[kind]
            self.index_for = (lambda G: _operand_index32(G, n)) if m == 32 else \
                (lambda G: _operand_index(n, G, 2))
        #: what the matrix depends on besides the bits (the tables are module constants)
        self.layout = (kind if self.table is None else id(self.table), n, m)
        self.indices: dict = {}

    def __call__(self, regs: np.ndarray) -> np.ndarray:
        G = regs.shape[1]
        key = (self.layout, G, regs.tobytes())
        hit = _GATHERED.get(key)
        if hit is not None:
            return hit
        index = self.indices.get(G)
        if index is None:
            index = self.indices[G] = self.index_for(G)
        # a run of whole registers of one file: contiguous, so reshape is a view
        elements = regs.reshape(-1).view(self.unit).take(index)
        got = elements.astype(np.float64) if self.table is None else self.table.take(elements)
        got.flags.writeable = False
        if len(_GATHERED) >= GATHERED:
            _GATHERED.clear()
        _GATHERED[key] = got
        return got


def acc_view(mat: np.ndarray, m: int) -> np.ndarray:
    """The (G, m, m) [row][col] ``mat`` viewed in the accumulator registers' order (a view,
    no copy): (4, G, 4, 16) [k, g, q, r] for m = 16 (row 4q + k, col r), (4, 4, G, 2, 32)
    [kb, kk, g, h, s] for m = 32 (row 8 kb + 4 h + kk, col s): :func:`_acc_index`'s order."""
    G = mat.shape[0]
    if m == 32:
        return mat.reshape(G, 4, 2, 4, 32).transpose(1, 3, 0, 2, 4)
    return mat.reshape(G, 4, 4, 16).transpose(2, 0, 1, 3)


def _float_run(ops: MfmaOperands, m: int, gather_a: _Gather, gather_b: _Gather):
    """fn(w, step): D = C + A x B^T of a float MFMA (:func:`acc_matrix` and
    :func:`acc_registers` as strided views, :func:`acc_view`)."""
    a0, b0, na, nb, nc, d0 = ops.a0, ops.b0, ops.na, ops.nb, ops.nc, ops.d0
    a_acc, b_acc, cd_acc = bool(ops.acc & 1), bool(ops.acc & 2), ops.acc_cd
    c0 = ops.src2 - 256 if ops.src2 >= 256 else None
    shape = (4, 4) if m == 32 else (4,)
    inner = (2, 32) if m == 32 else (4, 16)

    def run(w, step):
        G = w.G
        if not w.exec_full:
            check_exec(w, step)
        A = gather_a((w.A if a_acc else w.V)[a0:a0 + na])
        B = gather_b((w.A if b_acc else w.V)[b0:b0 + nb])
        D = A @ B.transpose(0, 2, 1)                 # (NaN/overflow warnings off)
        cd = w.A if cd_acc else w.V
        regs = (*shape, G, *inner)
        out = cd[d0:d0 + nc].view(np.float32).reshape(regs)
        if c0 is None:
            out[...] = acc_view(D, m)
        else:      # C widened, added in float64, the sum rounded to f32 as it is stored
            np.add(acc_view(D, m), cd[c0:c0 + nc].view(np.float32).reshape(regs), out=out,
                   casting="same_kind")
    return run


def _int8_step(ins: Instr, ops: MfmaOperands) -> Step:
    """``v_mfma_i32_16x16x64_i8`` / ``_32x32x32_i8``: D = C + A x B^T in exact integers,
    wrapped to i32."""
    m = _ROWS[ins.name]

    def run(w):
        check_exec(w, step)
        a = ops.a(w)
        G = a.shape[1]
        A, B = int8_matrix(a, m), int8_matrix(ops.b(w), m)
        D = A @ B.transpose(0, 2, 1)
        if ops.src2 >= 256:
            fwd = _acc_index(G, m)[0]
            C = np.ascontiguousarray(ops.c_regs(w)).reshape(-1).view(np.int32)
            D = D + C.take(fwd).reshape(G, m, m)
        wrapped = (D & 0xFFFFFFFF).astype(U32).reshape(-1)
        ops.write_d_bits(w, wrapped.take(_acc_index(G, m)[1]).reshape(ops.nc, G, WAVE_SIZE))

    step = Step(ins, run, "mfma", vreads=frozenset(ops.reads), vwrites=frozenset(ops.writes))
    return step
