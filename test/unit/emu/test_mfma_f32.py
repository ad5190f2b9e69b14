"""gfx950's f32 MFMAs, which it keeps from gfx908 on: ``v_mfma_f32_16x16x4_f32``
(what LLVM 22 makes of IREE's ``amdgpu.mfma 16x16x4`` on f32 operands) and
``v_mfma_f32_32x32x2_f32``, pinned with one-hot inputs, checked against numpy on random
operands (VGPR and AGPR forms, and the bytes ``llvm-mc-22`` assembles), their refusals and
their wait states (against ``llc-22``'s hazard recognizer when it is installed).

The positions are written here from the documents, not from the emulator (the AMD matrix
instruction calculator; IREE's ``MFMA_F32_16x16x4_F32``, ``IREEGPUAttrs.cpp``: A thread
``{16, 4}``, strides ``{1, 16}``, element ``{1, 1}``, the accumulator as the other 16x16
forms'):

* A and B one VGPR, one f32 a lane: lane ``l`` holds A ``[l % m][l // m]`` and B
  ``[l // m][l % m]`` (``m`` = 16 or 32: K = 4 or 2);
* C and D: 16x16x4: 4 registers, register ``r`` of lane ``l`` holding ``[4 (l // 16) + r][l %
  16]``; 32x32x2: 16 registers, ``[8 (r // 4) + 4 (l // 32) + r % 4][l % 32]``.

D = C + A x B: f32 x f32 products are exact in float64; the emulator sums them in float64
and rounds once to f32, so the reference here is the float64 sum rounded to f32.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

from emu_helpers import run_snippet, snippet_kernel
from llvm_hazards import LLC, missing_wait_states, pair_mir
from pipeline_mlir.emu.codeobj import Kernel
from pipeline_mlir.emu.decode import decode
from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.machine import GlobalMemory, Machine

LLVM_MC = shutil.which("llvm-mc-22")
#: each form by its rows M: (mnemonic, D's VGPRs)
FORMS = {16: ("v_mfma_f32_16x16x4_f32", "v[0:3]"), 32: ("v_mfma_f32_32x32x2_f32", "v[0:15]")}
A_REG, B_REG = 20, 21


def _program(m: int, with_c: bool = False, mods: str = "") -> str:
    """The ``m`` x ``m`` f32 MFMA, A v20, B v21, D in v[0:..]; C its D's registers or 0."""
    name, d = FORMS[m]
    return f"{name} {d}, v{A_REG}, v{B_REG}, {d if with_c else '0'}{mods}\ns_endpgm"


def _d(regs: np.ndarray, m: int) -> np.ndarray:
    """The ``m`` x ``m`` D of its (m * m / 64, 64) registers, placed as the documents say."""
    f = np.ascontiguousarray(regs).view(np.float32)
    if m == 32:
        return np.array([[f[4 * (i // 8) + i % 4, j + 32 * ((i // 4) % 2)] for j in range(32)]
                         for i in range(32)], dtype=np.float64)
    return np.array([[f[i % 4, j + 16 * (i // 4)] for j in range(16)] for i in range(16)],
                    dtype=np.float64)


def _c_registers(c: np.ndarray, m: int) -> np.ndarray:
    """Inverse of :func:`_d`: an ``m`` x ``m`` f32 matrix -> its registers' uint32 bits."""
    regs = np.zeros((m * m // 64, 64), dtype=np.float32)
    for i in range(m):
        for j in range(m):
            if m == 32:
                regs[4 * (i // 8) + i % 4, j + 32 * ((i // 4) % 2)] = c[i, j]
            else:
                regs[i % 4, j + 16 * (i // 4)] = c[i, j]
    return regs.view(np.uint32)


def _lanes(mat: np.ndarray, by_row: bool, m: int) -> np.ndarray:
    """A (``m`` x K, ``by_row``) or B (K x ``m``) as the 64 lanes of its one VGPR: lane
    ``l`` holds row (column) ``l % m``, K ``l // m``."""
    lanes = np.zeros(64, dtype=np.float32)
    for lane in range(64):
        lanes[lane] = mat[lane % m, lane // m] if by_row else mat[lane // m, lane % m]
    return lanes.view(np.uint32)


@pytest.mark.parametrize("m,i,k,j", [
    (16, 0, 0, 0), (16, 5, 1, 3), (16, 15, 3, 15), (16, 4, 2, 12), (16, 13, 3, 1),
    (16, 9, 0, 8), (16, 1, 2, 14),
    (32, 0, 0, 0), (32, 5, 1, 3), (32, 31, 1, 31), (32, 4, 0, 12), (32, 13, 1, 30),
    (32, 22, 1, 17), (32, 7, 0, 24)])
def test_one_hot(m, i, k, j):
    """A[i][k] = 1.0, B[k][j] = 2.0: D is 2.0 at [i][j] only."""
    def setup(machine):
        V = machine.waves[0].V
        V[A_REG:B_REG + 1] = 0
        V[A_REG, 0, i + m * k] = np.float32(1.0).view(np.uint32)
        V[B_REG, 0, j + m * k] = np.float32(2.0).view(np.uint32)

    machine = run_snippet(_program(m), setup=setup)
    want = np.zeros((m, m))
    want[i, j] = 2.0
    assert np.array_equal(_d(machine.waves[0].V[0:m * m // 64, 0], m), want)


@pytest.mark.parametrize("m", sorted(FORMS))
def test_one_hot_k_must_match(m):
    """A's K and B's K are the same K: A[3][0] = 1 with B[1][5] = 2 multiply nothing."""
    def setup(machine):
        V = machine.waves[0].V
        V[A_REG:B_REG + 1] = 0
        V[A_REG, 0, 3] = np.float32(1.0).view(np.uint32)
        V[B_REG, 0, 5 + m] = np.float32(2.0).view(np.uint32)

    machine = run_snippet(_program(m), setup=setup)
    assert not _d(machine.waves[0].V[0:m * m // 64, 0], m).any()


def _random(rng, shape, kind: str) -> np.ndarray:
    """f32 values: small integers (every sum exact) or general floats (normals of widely
    spread magnitudes, both signs)."""
    if kind == "int":
        return rng.integers(-8, 9, size=shape).astype(np.float32)
    scale = np.ldexp(1.0, rng.integers(-30, 30, size=shape))
    return (rng.standard_normal(shape) * scale).astype(np.float32)


@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("m", sorted(FORMS))
def test_matches_numpy_with_c(m, kind):
    """Random A, B and C: D = C + A x B, the float64 sum rounded to f32 (exact for the
    small integers)."""
    rng = np.random.default_rng(11 + m)
    k = 64 // m
    A, B, C = _random(rng, (m, k), kind), _random(rng, (k, m), kind), _random(rng, (m, m), kind)

    def setup(machine):
        V = machine.waves[0].V
        V[A_REG, 0], V[B_REG, 0] = _lanes(A, True, m), _lanes(B, False, m)
        V[0:m * m // 64, 0] = _c_registers(C, m)

    machine = run_snippet(_program(m, with_c=True), setup=setup)
    want = (C.astype(np.float64) + A.astype(np.float64) @ B.astype(np.float64))
    got = _d(machine.waves[0].V[0:m * m // 64, 0], m)
    assert np.array_equal(got, want.astype(np.float32).astype(np.float64))
    if kind == "int":
        assert np.array_equal(got, want)


def test_the_sum_is_rounded_once():
    """The emulator's model: 1 + 2^-24 + 2^-24 is 1 + 2^-23 (rounded once), not 1 (each
    addition rounded to f32, ties to even)."""
    tiny = 2.0 ** -24

    def setup(machine):
        V = machine.waves[0].V
        V[A_REG:B_REG + 1] = 0
        for kk, a in enumerate((1.0, tiny, tiny)):          # A[0][kk] = a, B[kk][0] = 1
            V[A_REG, 0, 16 * kk] = np.float32(a).view(np.uint32)
            V[B_REG, 0, 16 * kk] = np.float32(1.0).view(np.uint32)

    machine = run_snippet(_program(16), setup=setup)
    assert _d(machine.waves[0].V[0:4, 0], 16)[0, 0] == 1.0 + 2.0 ** -23


@pytest.mark.parametrize("m", sorted(FORMS))
def test_agpr_accumulator_and_operand(m):
    """D and C in AGPRs (where LLVM keeps accumulators), A from an AGPR, B from a VGPR."""
    name, _ = FORMS[m]
    n = m * m // 64
    rng = np.random.default_rng(5)
    k = 64 // m
    A, B, C = (_random(rng, s, "float") for s in ((m, k), (k, m), (m, m)))

    def setup(machine):
        w = machine.waves[0]
        w.A[40, 0], w.V[B_REG, 0] = _lanes(A, True, m), _lanes(B, False, m)
        w.A[0:n, 0] = _c_registers(C, m)
        w.V[0:n] = 0

    machine = run_snippet(f"{name} a[0:{n - 1}], a40, v{B_REG}, a[0:{n - 1}]\ns_endpgm",
                          setup=setup)
    w = machine.waves[0]
    want = C.astype(np.float64) + A.astype(np.float64) @ B.astype(np.float64)
    assert np.array_equal(_d(w.A[0:n, 0], m), want.astype(np.float32).astype(np.float64))
    assert not w.V[0:n].any()                             # no VGPR written


@pytest.mark.parametrize("m", sorted(FORMS))
@pytest.mark.parametrize("mods", [" blgp:1", " cbsz:1 abid:1", " abid:1"])
def test_broadcast_modifiers_are_refused(m, mods):
    """cbsz/abid/blgp on these MFMAs broadcast A or B between blocks: refused, as for the
    other MFMAs; the same instruction without them runs."""
    with pytest.raises(EmuError, match="cbsz/abid/blgp broadcast modifiers"):
        run_snippet(_program(m, mods=mods))
    run_snippet(_program(m))


@pytest.mark.parametrize("m", sorted(FORMS))
def test_partial_exec_is_a_finding(m):
    name, d = FORMS[m]
    with pytest.raises(Finding, match="mfma-exec"):
        run_snippet(f"s_mov_b64 exec, 1\n{name} {d}, v20, v21, 0\ns_endpgm")


# ---- the bytes llvm-mc-22 assembles ------------------------------------------------------

#: forms LLVM writes: VGPR and AGPR accumulators, an AGPR A, a zero C
MC_FORMS = [
    "v_mfma_f32_16x16x4_f32 v[0:3], v20, v21, v[0:3]",
    "v_mfma_f32_16x16x4_f32 a[0:3], v20, v21, a[0:3]",
    "v_mfma_f32_16x16x4_f32 a[4:7], a20, v21, 0",
    "v_mfma_f32_32x32x2_f32 v[0:15], v20, v21, v[0:15]",
    "v_mfma_f32_32x32x2_f32 a[0:15], v20, a21, a[0:15]",
]


def _assemble(line: str) -> tuple[bytes, str]:
    """``line``'s encoding and text as ``llvm-mc-22`` gives them (gfx950)."""
    out = subprocess.run([LLVM_MC, "-triple=amdgcn", "-mcpu=gfx950", "-show-encoding"],
                         input=line + "\n", capture_output=True, text=True, check=True).stdout
    text, enc = out.strip().split(" ; encoding: ")
    return bytes(int(b, 16) for b in enc.strip("[]").split(",")), text.strip()


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 (LLVM 22) is not installed")
@pytest.mark.parametrize("line", MC_FORMS)
def test_llvm_mc_bytes_decode_and_run(line):
    """The emulator decodes LLVM's encoding to LLVM's text and runs it: D = C + A x B."""
    data, text = _assemble(line)
    end, _ = _assemble("s_endpgm")
    instrs = decode(data + end)
    assert instrs[0].text == text == line
    m = 32 if "32x32" in line else 16
    n = m * m // 64
    d_file, d0, a_file, b_file, c = re.match(
        r"\S+ ([av])\[(\d+):\d+\], ([av])20, ([av])21, (\S+)$", line).groups()
    d0 = int(d0)
    rng = np.random.default_rng(3)
    k = 64 // m
    A, B, C = (_random(rng, s, "float") for s in ((m, k), (k, m), (m, m)))
    if c == "0":
        C[:] = 0
    machine = Machine(Kernel("mc", instrs, snippet_kernel("s_endpgm").launch, "asm"),
                      GlobalMemory(), [0], 1, "eager", 0)
    w = machine.waves[0]
    files = {"v": w.V, "a": w.A}
    files[a_file][20, 0], files[b_file][21, 0] = _lanes(A, True, m), _lanes(B, False, m)
    files[d_file][d0:d0 + n, 0] = _c_registers(C, m)
    machine.run()
    want = C.astype(np.float64) + A.astype(np.float64) @ B.astype(np.float64)
    got = _d(files[d_file][d0:d0 + n, 0], m)
    assert np.array_equal(got, want.astype(np.float32).astype(np.float64))


# ---- wait states -------------------------------------------------------------------------

def _vgprs(first: int, n: int) -> str:
    return "$" + "_".join(f"vgpr{i}" for i in range(first, first + n))


def _mf(m: int, d: int, a: int, b: int, c: int, acc: bool = False) -> tuple[str, str]:
    """An f32 MFMA of VGPRs (AGPR D and C if ``acc``): (assembly, LLVM's MIR)."""
    n = m * m // 64
    f = "a" if acc else "v"
    asm = f"{FORMS[m][0]} {f}[{d}:{d + n - 1}], v{a}, v{b}, {f}[{c}:{c + n - 1}]"
    op = f"V_MFMA_F32_{m}X{m}X{64 // m}F32_{'e64' if acc else 'vgprcd_e64'}"
    regs = (_vgprs(d, n), _vgprs(c, n))
    if acc:
        regs = tuple(r.replace("vgpr", "agpr") for r in regs)
    mir = (f"{regs[0]} = {op} $vgpr{a}, $vgpr{b}, {regs[1]}, 0, 0, 0, implicit $mode, "
           f"implicit $exec")
    return asm, mir


VALU_V1 = ("v_mov_b32_e32 v60, v1", "$vgpr60 = V_MOV_B32_e32 $vgpr1, implicit $exec")
#: rule -> (first (asm, MIR), second, required wait states): gfx950's counts for an MFMA
#: that is not XDL (target/gfx950.py: 8 and 16 passes; D: passes + 2, an overlapping C read
#: by another such MFMA: passes)
CASES = [
    ("mfma-d-valu", _mf(16, 0, 20, 21, 0), VALU_V1, 10),
    ("mfma-d-valu", _mf(32, 0, 20, 21, 0), VALU_V1, 18),
    ("mfma-d-valu", _mf(16, 0, 20, 21, 0, acc=True),
     ("v_accvgpr_read_b32 v60, a1", "$vgpr60 = V_ACCVGPR_READ_B32_e64 $agpr1, implicit $exec"),
     10),
    ("mfma-d-srcab", _mf(16, 0, 20, 21, 0), _mf(16, 40, 1, 21, 44), 10),
    ("mfma-d-srcab", _mf(32, 0, 20, 21, 0), _mf(16, 40, 15, 61, 44), 18),
    ("mfma-d-srcc", _mf(16, 0, 20, 21, 0), _mf(16, 40, 50, 51, 2), 8),
    ("mfma-d-srcc", _mf(32, 0, 20, 21, 0), _mf(32, 40, 60, 61, 14), 16),
]


def _nops(n: int, mir: bool = False) -> list[str]:
    """``n`` wait states of s_nop (one gives 1..16)."""
    return [f"{'S_NOP' if mir else 's_nop'} {min(n - k, 16) - 1}" for k in range(0, n, 16)]


@pytest.mark.parametrize("rule,first,second,need", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_wait_states(rule, first, second, need):
    """On the machine, one wait state too few is the rule's finding and ``need`` are enough;
    ``llc-22``'s hazard recognizer (when installed) inserts ``need`` for the pair back to
    back and nothing for it ``need`` apart (32 wait states after it, more than any rule
    needs)."""
    program = "\n".join([first[0], *_nops(need - 1), second[0], "s_endpgm"])
    where = re.escape(f"{need - 1} wait states after 0x0000 '{first[0]}', {need} required "
                      f"({rule}")
    with pytest.raises(Finding, match=where):
        run_snippet(program)
    run_snippet("\n".join([first[0], *_nops(need), second[0], "s_endpgm"]))
    if LLC is not None:
        both = [first[1], second[1], "S_NOP 15", "S_NOP 15", first[1],
                *_nops(need, mir=True), second[1]]
        assert missing_wait_states(pair_mir(both)) == need


#: pairs that need nothing: an accumulation chain (C identical to the D before it), an XDL
#: MFMA reading an overlapping C, a VALU overwriting the C an f32 MFMA read
SAFE = [
    (_mf(16, 0, 20, 21, 0), _mf(16, 0, 22, 23, 0)),
    (_mf(32, 0, 20, 21, 0), _mf(32, 0, 22, 23, 0)),
    (_mf(16, 0, 20, 21, 0),
     ("v_mfma_f32_16x16x32_bf16 v[40:43], v[24:27], v[28:31], v[2:5]",
      "$vgpr40_vgpr41_vgpr42_vgpr43 = V_MFMA_F32_16X16X32_BF16_vgprcd_e64 "
      "$vgpr24_vgpr25_vgpr26_vgpr27, $vgpr28_vgpr29_vgpr30_vgpr31, $vgpr2_vgpr3_vgpr4_vgpr5, "
      "0, 0, 0, implicit $mode, implicit $exec")),
    (_mf(16, 0, 20, 21, 8), ("v_mov_b32_e32 v9, v60",
                             "$vgpr9 = V_MOV_B32_e32 $vgpr60, implicit $exec")),
]


@pytest.mark.parametrize("first,second", SAFE)
def test_pairs_that_need_no_wait_states(first, second):
    run_snippet("\n".join([first[0], second[0], "s_endpgm"]))
    if LLC is not None:
        assert missing_wait_states(pair_mir([first[1], second[1]])) == 0


# ---- the simulator's cost ----------------------------------------------------------------

@pytest.mark.parametrize("m,cycles", [(16, 32), (32, 64)])
def test_the_simulator_prices_them_at_their_passes(m, cycles):
    """The measured table has them (8 and 16 passes of 4 cycles, not a defaulted price);
    the llvm table keeps llvm-mca-22's HWXDL 8 and 16."""
    from pipeline_mlir.sim.costs import get_table
    from pipeline_mlir.sim.instr import Instr
    from pipeline_mlir.sim.wave_model import simulate

    name = FORMS[m][0]
    c = get_table("measured").cost(Instr("mfma", name))
    assert (c.units, c.latency, c.defaulted) == ((("XDL", cycles),), cycles + 2, False)
    assert "ASSUMPTION" in c.source
    chain = [Instr("mfma", name, (f"c{k}",), ("a", "b", f"c{k}")) for k in range(3)]
    assert simulate(chain, "measured").issue == [0, cycles, 2 * cycles]
    assert get_table("llvm").cost(Instr("mfma", name)).units == (("XDL", cycles // 4),)
