"""Every LDS, buffer, global and flat instruction the emulator implements moves the bytes the
ISA says, with every lane active and with some inactive, into VGPRs and AGPRs.

Each case runs one instruction on one wave whose registers, LDS and global buffer hold
known random bytes, and compares the registers, LDS and buffer afterwards with what the
instruction's address rule (:mod:`pipeline_mlir.emu.memops`) and data width give: loads
fill the active lanes' registers (small DS reads zero- or sign-extended) and leave the
inactive lanes' as they were; stores and LDS DMA write the active lanes' bytes and nothing
else.  Buffer accesses with all lanes active run twice: through the machine's in-region
fast path (the descriptor covers exactly the buffer) and lane by lane (the descriptor
claims more bytes than the buffer has).
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from emu_helpers import run_snippet
from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.machine import GlobalMemory
from pipeline_mlir.emu.memops import compile_memory
from pipeline_mlir.emu.opcodes import TABLES

LANES = np.arange(64)
#: the active lanes of the partial-EXEC runs: every third lane and the last four
PARTIAL = (LANES % 3 == 0) | (LANES >= 60)
MEM = 4096              # bytes of LDS and of the global buffer
M0_BASE = 0x100         # the LDS DMA base
INST_OFFSET = 16        # the instruction offset of every access (DS: 8)
DATA = 4                # the first data register
EXEC, M0 = 126, 124

DS_SIZES = {"b8": 1, "b16": 2, "u8": 1, "i8": 1, "u16": 2, "i16": 2, "b32": 4, "b64": 8,
            "b96": 12, "b128": 16}
DWORD_SIZES = {"dword": 4, "dwordx2": 8, "dwordx3": 12, "dwordx4": 16, "short": 2,
               "ubyte": 1, "byte": 1}

#: every memory instruction the emulator implements (checked below against the opcode
#: tables), with ``lds`` for the buffer forms that load into LDS
INSTRUCTIONS = (
    [f"ds_write_{s}" for s in ("b8", "b16", "b32", "b64", "b96", "b128")] +
    [f"ds_read_{s}" for s in ("u8", "i8", "u16", "i16", "b32", "b64", "b96", "b128")] +
    ["ds_write2_b32", "ds_write2_b64", "ds_read2_b32", "ds_read2_b64"] +
    [f"{p}_{op}_{w}" for p in ("buffer", "global", "flat") for op in ("load", "store")
     for w in DWORD_SIZES if w not in ("short", "ubyte", "byte")] +
    ["buffer_load_dword lds", "buffer_load_dwordx4 lds", "global_load_lds_dword",
     "global_load_lds_dwordx4", "buffer_store_short", "buffer_store_short_d16_hi",
     "buffer_store_byte", "buffer_store_byte_d16_hi",
     "buffer_load_ushort", "buffer_load_ubyte", "global_load_ushort", "global_load_ubyte"])


def _implemented() -> set[str]:
    """The memory instructions :func:`compile_memory` accepts (plain fields)."""
    fields = dict(offset0=0, offset1=0, gds=0, acc=0, addr=0, data0=0, data1=0, dst=0,
                  offset=0, offen=1, idxen=0, sc0=0, nt=0, lds=0, sc1=0, vaddr=0, data=0,
                  srsrc=8, soffset=128, saddr=2)
    out = set()
    for enc in ("DS", "MUBUF", "GLOBAL", "FLAT", "SCRATCH"):
        for op, name in TABLES[enc].items():
            for lds in (0, 1) if enc == "MUBUF" else (0,):
                ins = Instr(0, 8, enc, op, name,
                            dict(fields, lds=lds, saddr=0 if enc == "FLAT" else 2))
                try:
                    ins.text = format_instr(ins)
                    compile_memory(ins)
                except Exception:
                    continue
                out.add(name + (" lds" if lds else ""))
    return out


#: DS instructions that move data between lanes, not memory (test_machine.py tests them)
PERMUTES = {"ds_permute_b32", "ds_bpermute_b32"}
#: DS reads that exchange data between lanes (test_transpose_load.py and
#: test_transpose_load_b8.py test them)
TRANSPOSES = {"ds_read_b64_tr_b16", "ds_read_b64_tr_b8"}
#: atomic updates, which add or compare rather than move bytes (test_atomics.py and
#: test_cmpswap.py test them)
ATOMICS = {f"{p}_atomic_{op}" for p in ("buffer", "global")
           for op in ("add_f32", "cmpswap", "cmpswap_x2")}


def test_the_cases_cover_every_implemented_memory_instruction():
    """(with the 64-element-stride pairs test_ds_st64.py tests)"""
    st64 = {f"ds_{op}2st64_{s}" for op in ("read", "write") for s in ("b32", "b64")}
    assert set(INSTRUCTIONS) | PERMUTES | TRANSPOSES | ATOMICS | st64 == _implemented()


# ---- one case --------------------------------------------------------------------------------

class Case:
    """One instruction's form: what it moves per lane and where."""

    def __init__(self, name: str, acc: bool) -> None:
        self.name, self.acc = name, acc
        self.lds_dma = name.endswith(" lds") or "_lds_" in name
        mnem = name.split()[0]
        parts = mnem.split("_")
        self.family = parts[0]
        self.two = parts[1] in ("read2", "write2")
        self.store = parts[1].startswith(("write", "store"))
        #: the first byte of the data register a store writes (16- and 8-bit stores: 0 or
        #: 2, d16_hi)
        self.skip = 2 if mnem.endswith("_d16_hi") else 0
        width_key = "short" if "short" in parts or "ushort" in parts else \
            "byte" if "byte" in parts else parts[-1]
        self.size = DS_SIZES[parts[-1]] if self.family == "ds" else DWORD_SIZES[width_key]
        width = self.size * (2 if self.two else 1)
        self.stride = 1 << max(0, (width - 1).bit_length())       # bytes between lanes
        self.dwords = max(1, self.size // 4) * (2 if self.two else 1)
        self.offset = 8 if self.family == "ds" else INST_OFFSET

    def text(self) -> str:
        mnem = self.name.split()[0]
        kind = "a" if self.acc else "v"
        n = max(1, self.size // 4)
        reg = f"{kind}{DATA}" if n == 1 else f"{kind}[{DATA}:{DATA + n - 1}]"
        if self.family == "ds":
            mods = "offset1:1" if self.two else f"offset:{self.offset}"
            if not self.store:
                if self.two:
                    reg = f"{kind}[{DATA}:{DATA + 2 * n - 1}]"
                return f"{mnem} {reg}, v1 {mods}"
            if self.two:
                reg2 = f"{kind}{DATA + 8}" if n == 1 else f"{kind}[{DATA + 8}:{DATA + 8 + n - 1}]"
                return f"{mnem} v1, {reg}, {reg2} {mods}"
            return f"{mnem} v1, {reg} {mods}"
        off = f"offset:{self.offset}"
        if self.family == "buffer":
            if self.lds_dma:
                return f"{mnem} v1, s[8:11], 0 offen {off} lds"
            return f"{mnem} {reg}, v1, s[8:11], 0 offen {off}"
        if self.lds_dma:
            return f"{mnem} v1, s[2:3] {off}"
        addr, saddr = ("v[2:3]", "") if self.family == "flat" else ("v1", ", s[2:3]")
        if self.store:
            return f"{mnem} {addr}, {reg}{saddr} {off}"
        return f"{mnem} {reg}, {addr}{saddr} {off}"


def _run(case: Case, partial: bool, lane_by_lane: bool, mode: str, shift: int = 0):
    """(machine, LDS before, buffer before, data registers before, the buffer); ``shift``:
    bytes added to every lane's address."""
    rng = np.random.default_rng(zlib.crc32(f"{case.name} {case.acc}".encode()))
    lds0 = rng.integers(0, 256, MEM, dtype=np.uint8)
    buf0 = rng.integers(0, 256, MEM, dtype=np.uint8)
    regs0 = rng.integers(0, 1 << 32, (16, 64), dtype=np.uint32)
    glob = GlobalMemory()
    base = glob.add("X", buf0.tobytes())
    active = PARTIAL if partial else np.ones(64, dtype=bool)
    bits = int(sum(1 << int(k) for k in np.flatnonzero(active)))

    def setup(m):
        w = m.waves[0]
        m.lds[0, :MEM] = lds0
        (w.A if case.acc else w.V)[DATA:DATA + 16, 0] = regs0
        w.V[1] = (LANES * case.stride + shift).astype(np.uint32)[None]
        addr = base + LANES * case.stride
        w.V[2], w.V[3] = (addr & 0xFFFFFFFF)[None], (addr >> 32)[None]
        w.S[2], w.S[3] = base & 0xFFFFFFFF, base >> 32
        w.S[8], w.S[9] = base & 0xFFFFFFFF, base >> 32
        w.S[10], w.S[11] = 2 * MEM if lane_by_lane else MEM, 0x27000
        w.S[M0] = M0_BASE
        w.S[EXEC], w.S[EXEC + 1] = bits & 0xFFFFFFFF, bits >> 32
        w.exec_changed()
    m = run_snippet(f"{case.text()}\ns_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm", glob=glob,
                    setup=setup, mode=mode, lds_bytes=MEM)
    return m, lds0, buf0, regs0, glob.buffer("X"), active


def _loaded(src: np.ndarray, case: Case, shift: int = 0) -> np.ndarray:
    """(dwords, 64) uint32: what a load of ``case`` puts in its registers, read from the
    bytes ``src`` (LDS or the buffer) at each lane's address (plus ``shift`` bytes)."""
    start = LANES * case.stride + case.offset * (0 if case.two else 1) + shift
    raw = np.stack([src[s:s + case.size * (2 if case.two else 1)] for s in start])
    if case.size >= 4:
        return raw.view("<u4").T
    val = raw.view("<u1" if case.size == 1 else "<u2")[:, 0].astype(np.int64)
    if case.name.split("_")[-1].startswith("i"):
        bits = 8 * case.size
        val = np.where(val >= 1 << (bits - 1), val - (1 << bits), val)
    return (val & 0xFFFFFFFF).astype(np.uint32)[None]


def _stored(regs0: np.ndarray, case: Case) -> np.ndarray:
    """(64, bytes): the bytes a store of ``case`` writes for each lane."""
    n = max(1, case.size // 4)
    parts = [regs0[:n]] + ([regs0[8:8 + n]] if case.two else [])
    return np.concatenate([np.ascontiguousarray(p.T).view(np.uint8)[:, case.skip:case.skip +
                                                                      case.size]
                           for p in parts], axis=1)


def _written(before: np.ndarray, data: np.ndarray, starts, active) -> np.ndarray:
    out = before.copy()
    for lane in np.flatnonzero(active):
        out[starts[lane]:starts[lane] + data.shape[1]] = data[lane]
    return out


CASES = [(name, acc) for name in INSTRUCTIONS for acc in (False, True)
         if not (acc and (name.endswith(" lds") or "_lds_" in name))]


#: (name, acc, active): full and partial EXEC for every case; for buffer accesses, which have
#: a fast path (the descriptor covers exactly the buffer), also full EXEC lane by lane
RUNS = [(n, a, active) for n, a in CASES
        for active in ("full", "partial", "full, lane by lane")
        if active != "full, lane by lane" or Case(n, a).family == "buffer"]


@pytest.mark.parametrize("mode", ["eager", "late"])
@pytest.mark.parametrize("name,acc,active", RUNS,
                         ids=[f"{n}{' agpr' if a else ''}-{act}" for n, a, act in RUNS])
def test_memory_round_trip(name, acc, active, mode):
    case = Case(name, acc)
    m, lds0, buf0, regs0, buf, lanes = _run(case, active == "partial",
                                            active.endswith("lane by lane"), mode)
    w = m.waves[0]
    regs = (w.A if acc else w.V)[DATA:DATA + 16, 0]
    lds = m.lds[0, :MEM]
    if case.lds_dma:                        # global -> LDS: M0 + offset + lane * size
        data = np.stack([buf0[s:s + case.size]
                         for s in LANES * case.stride + case.offset])
        starts = M0_BASE + case.offset + LANES * case.size
        assert np.array_equal(lds, _written(lds0, data, starts, lanes))
        assert np.array_equal(buf, buf0) and np.array_equal(regs, regs0)
        return
    mem0, mem = (lds0, lds) if case.family == "ds" else (buf0, buf)
    if case.store:
        starts = LANES * case.stride + (0 if case.two else case.offset)
        assert np.array_equal(mem, _written(mem0, _stored(regs0, case), starts, lanes))
        assert np.array_equal(regs, regs0)
    else:
        got = regs[:case.dwords]
        want = np.where(lanes[None], _loaded(mem0, case), regs0[:case.dwords])
        assert np.array_equal(got, want)
        assert np.array_equal(regs[case.dwords:], regs0[case.dwords:])
        assert np.array_equal(mem, mem0)
    other = (buf, buf0) if case.family == "ds" else (lds, lds0)
    assert np.array_equal(*other)           # the other memory untouched


#: buffer loads from addresses that are not a multiple of their size: ROCm runs gfx950 in
#: unaligned mode (SH_MEM_CONFIG), which LLVM's amdhsa code assumes (it loads rows of 8190
#: bytes with buffer_load_dwordx4), so the bytes at the exact address are loaded
UNALIGNED = [(n, s, active) for n in ("buffer_load_dword", "buffer_load_dwordx2",
                                      "buffer_load_dwordx4", "buffer_load_ushort",
                                      "buffer_load_ubyte")
             for s in (1, 2, 3) for active in ("full", "partial", "full, lane by lane")]


@pytest.mark.parametrize("name,shift,active", UNALIGNED,
                         ids=[f"{n}+{s}-{a}" for n, s, a in UNALIGNED])
def test_unaligned_buffer_load(name, shift, active):
    case = Case(name, False)
    m, _lds0, buf0, regs0, _buf, lanes = _run(case, active == "partial",
                                              active.endswith("lane by lane"), "late", shift)
    got = m.waves[0].V[DATA:DATA + case.dwords, 0]
    want = np.where(lanes[None], _loaded(buf0, case, shift), regs0[:case.dwords])
    assert np.array_equal(got, want)
