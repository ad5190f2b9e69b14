"""``buffer_atomic_cmpswap`` / ``_x2`` (and the global form) and the cache controls
``buffer_wbl2`` / ``buffer_inv`` (``pipeline_mlir/emu/memops.py``,
``pipeline_mlir/emu/atomics.py``): what LLVM 22 makes of an ``atomicrmw`` on a buffer fat
pointer at system scope (IREE's ``memref.atomic_rmw``), a compare-and-swap loop between a
write-back and an invalidate.

Against the ISA's definition (``tmp = MEM[ADDR]; src = DATA[0]; cmp = DATA[1]; MEM[ADDR]
= (tmp == cmp) ? src : tmp; RETURN_DATA[0] = tmp``), one-hot: each lane's address, source
and compare value its own; the lanes on one word in workgroup-slot then lane order; the
decoder and the assembly reader against LLVM 22's encodings (pinned here, re-read with
``llvm-mc-22`` when it is installed); and a kernel LLVM 22 builds (``llc-22``, skipped
without it)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from emu_helpers import GlobalMemory, buffer_arg, buffer_setup, launch_toml, run_snippet
from pipeline_mlir.emu.asmline import parse_instruction
from pipeline_mlir.emu.decode import decode
from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.program import compile_instr

CAS = "buffer_atomic_cmpswap v[4:5], v0, s[0:3], 0 offen"
CAS2 = "buffer_atomic_cmpswap_x2 v[4:7], v0, s[0:3], 0 offen"
WORDS = 256
LANES = np.arange(64)
LLVM_MC = shutil.which("llvm-mc-22")
LLC = shutil.which("llc-22")


def _setup(data, offsets, start=None, active=None):
    """Every wave: s[0:3] a raw buffer ``C`` of WORDS uint32 (``start``, else 7 x index),
    v0 the lane's byte offset, v[2:3] its address, the data registers from v4 on ``data``
    (a list of per-lane values, one register each), EXEC from ``active`` if given."""
    words = np.arange(WORDS, dtype=np.uint32) * np.uint32(7) if start is None else \
        np.asarray(start, dtype=np.uint32)
    return buffer_setup(words, offsets, {4 + k: np.asarray(d, dtype=np.uint32)
                                         for k, d in enumerate(data)}, active)


def _c(m) -> np.ndarray:
    return m.glob.buffers[m.glob.names.index("C")][:4 * WORDS].view(np.uint32)


def _one_hot():
    """(byte offsets: a permutation of dwords, the words there at the start, sources,
    compare values: equal to the word for the even lanes, one more for the odd ones)."""
    dwords = (LANES * 37) % WORDS
    old = dwords.astype(np.uint32) * np.uint32(7)
    src = (1000 + LANES * 3).astype(np.uint32)
    cmp = old + (LANES % 2).astype(np.uint32)
    return 4 * dwords, old, src, cmp


@pytest.mark.parametrize("sc0", [True, False])
def test_swaps_where_equal_and_returns_the_old_word(sc0):
    offsets, old, src, cmp = _one_hot()
    text = CAS + (" sc0" if sc0 else "")
    m = run_snippet(f"{text}\ns_waitcnt vmcnt(0)\ns_endpgm", setup=_setup([src, cmp], offsets))
    want = np.arange(WORDS, dtype=np.uint32) * np.uint32(7)
    even = LANES % 2 == 0
    want[offsets[even] // 4] = src[even]                 # swapped where equal, kept where not
    assert np.array_equal(_c(m), want)
    w = m.waves[0]
    assert np.array_equal(w.V[4, 0], old if sc0 else src)   # sc0: the word found
    assert np.array_equal(w.V[5, 0], cmp)                   # the second half unchanged


def test_lanes_on_one_word_apply_in_lane_order():
    """Lane k swaps k for k + 1: in lane order each finds what the lane before it left,
    so all 64 swap (any other order stops at the first lane out of turn)."""
    start = np.zeros(WORDS, dtype=np.uint32)
    m = run_snippet(f"{CAS} sc0\ns_waitcnt vmcnt(0)\ns_endpgm",
                    setup=_setup([LANES + 1, LANES], np.full(64, 20), start=start))
    assert _c(m)[5] == 64
    assert np.array_equal(m.waves[0].V[4, 0], LANES)


def test_workgroups_of_a_batch_apply_in_slot_order():
    """Two workgroups run in lockstep: slot 0's lanes, then slot 1's (which compare with
    64 + k: each finds what slot 0 left)."""
    def setup(m):
        _setup([LANES + 1, LANES], np.full(64, 20), start=np.zeros(WORDS))(m)
        w = m.waves[0]
        w.V[4, 1], w.V[5, 1] = LANES + 65, LANES + 64
    m = run_snippet(f"{CAS} sc0\ns_waitcnt vmcnt(0)\ns_endpgm", workgroups=(0, 1), setup=setup)
    assert _c(m)[5] == 128
    assert np.array_equal(m.waves[0].V[4], np.stack([LANES, LANES + 64]))


def test_inactive_lanes_touch_neither_memory_nor_registers():
    offsets, old, src, _ = _one_hot()
    active = LANES % 3 == 0
    m = run_snippet(f"{CAS} sc0\ns_waitcnt vmcnt(0)\ns_endpgm",
                    setup=_setup([src, old], offsets, active=active))
    want = np.arange(WORDS, dtype=np.uint32) * np.uint32(7)
    want[offsets[active] // 4] = src[active]
    assert np.array_equal(_c(m), want)
    assert np.array_equal(m.waves[0].V[4, 0], np.where(active, old, src))


def test_the_64_bit_form():
    """``_x2``: source v[4:5], compare value v[6:7] (low dword first); ``sc0`` returns the
    qword found into v[4:5]."""
    qwords = (LANES * 5) % (WORDS // 2)
    start = (np.arange(WORDS // 2, dtype=np.uint64) << np.uint64(32)) | np.uint64(0xABC)
    old = start[qwords]
    src = (LANES.astype(np.uint64) << np.uint64(33)) | np.uint64(0x5)
    cmp = old ^ (LANES % 2).astype(np.uint64) << np.uint64(32)     # odd lanes: high differs
    parts = [v.astype(np.uint32) for x in (src, cmp) for v in (x, x >> np.uint64(32))]
    m = run_snippet(f"{CAS2} sc0\ns_waitcnt vmcnt(0)\ns_endpgm",
                    setup=_setup(parts, 8 * qwords, start=start.view(np.uint32)))
    want = start.copy()
    even = LANES % 2 == 0
    want[qwords[even]] = src[even]
    assert np.array_equal(_c(m).view(np.uint64), want)
    w = m.waves[0]
    got = w.V[4, 0].astype(np.uint64) | (w.V[5, 0].astype(np.uint64) << np.uint64(32))
    assert np.array_equal(got, old)
    assert np.array_equal(w.V[6, 0], parts[2]) and np.array_equal(w.V[7, 0], parts[3])


def test_the_returned_word_is_pending_until_the_wait():
    """Late mode: the old word arrives when the op completes, as a load's data; reading it
    before the wait is the machine's pending-register finding."""
    offsets, old, src, cmp = _one_hot()
    setup = _setup([src, cmp], offsets)
    with pytest.raises(Finding, match=r"pending-register: .*v4 is used while the load at "
                                      r"0x0000 'buffer_atomic_cmpswap"):
        run_snippet(f"{CAS} sc0\nv_mov_b32_e32 v8, v4\ns_waitcnt vmcnt(0)\ns_endpgm",
                    mode="late", setup=setup)
    m = run_snippet(f"{CAS} sc0\ns_waitcnt vmcnt(0)\nv_mov_b32_e32 v8, v4\ns_endpgm",
                    mode="late", setup=setup)
    assert np.array_equal(m.waves[0].V[8, 0], old)


@pytest.mark.parametrize("cache", ["buffer_wbl2 sc0 sc1", "buffer_inv sc0 sc1", "buffer_inv sc1"])
def test_a_cache_control_counts_on_vmcnt(cache):
    """Late mode: after a load and a cache control, ``vmcnt(1)`` completes the load (the
    control is the op left in flight); before it, the load is the one left."""
    load = "buffer_load_dword v8, v0, s[0:3], 0 offen"
    setup = _setup([], 4 * LANES)
    m = run_snippet(f"{load}\n{cache}\ns_waitcnt vmcnt(1)\nv_mov_b32_e32 v9, v8\ns_endpgm",
                    mode="late", setup=setup)
    assert np.array_equal(m.waves[0].V[9, 0], 7 * LANES)
    with pytest.raises(Finding, match="pending-register: .*v8 is used while the load"):
        run_snippet(f"{cache}\n{load}\ns_waitcnt vmcnt(1)\nv_mov_b32_e32 v9, v8\ns_endpgm",
                    mode="late", setup=setup)


def test_cache_controls_change_nothing():
    offsets, _, src, cmp = _one_hot()
    text = f"buffer_wbl2 sc0 sc1\n{CAS} sc0\ns_waitcnt vmcnt(0)\nbuffer_inv sc0 sc1\ns_endpgm"
    plain = run_snippet(f"{CAS} sc0\ns_waitcnt vmcnt(0)\ns_endpgm", setup=_setup([src, cmp],
                                                                                 offsets))
    m = run_snippet(text, setup=_setup([src, cmp], offsets))
    assert np.array_equal(_c(m), _c(plain))
    assert np.array_equal(m.waves[0].V[:8], plain.waves[0].V[:8])


@pytest.mark.parametrize("later, race", [
    ("buffer_store_dword v4, v0, s[0:3], 0 offen", True),
    ("buffer_load_dword v9, v0, s[0:3], 0 offen", True),
    (CAS + " sc0", False),
    ("buffer_atomic_add_f32 v4, v0, s[0:3], 0 offen", False),
])
def test_a_compare_swap_races_a_plain_access_of_another_workgroup(later, race):
    """Workgroup 0 compare-swaps, then workgroup 1 (another run on the same memory) stores,
    loads or updates the same dwords atomically: only the plain accesses race it."""
    glob = GlobalMemory()
    offsets = 4 * LANES
    start = (np.arange(WORDS) + 1).astype(np.float32).view(np.uint32)   # f32 for the add
    half = np.full(64, np.float32(0.5).view(np.uint32))
    setup = _setup([half, start[:64]], offsets, start=start)
    run_snippet(f"{CAS} sc0\ns_waitcnt vmcnt(0)\ns_endpgm", glob=glob, setup=setup)
    second = f"{later}\ns_waitcnt vmcnt(0)\ns_endpgm"
    if race:
        with pytest.raises(Finding, match="global-race: .*races the write by wave 0 of "
                                          "workgroup 0 at 0x0000 'buffer_atomic_cmpswap"):
            run_snippet(second, workgroups=(1,), glob=glob, setup=setup)
    else:
        run_snippet(second, workgroups=(1,), glob=glob, setup=setup)


@pytest.mark.parametrize("text, why", [
    (CAS + " offset:1024", "past the buffer's records"),       # as the add: refused
    (CAS2 + " offset:4", "not a multiple of 8"),
    ("global_atomic_cmpswap_x2 v[8:9], v[2:3], v[4:7], off offset:4 sc0", "multiple of 8"),
    ("global_atomic_cmpswap v9, v[2:3], v[4:5], off offset:2 sc0", "multiple of 4"),
    ("buffer_atomic_cmpswap v[4:5], v0, s[0:3], 0 idxen sc0", "idxen"),
    ("buffer_atomic_cmpswap a[4:5], v0, s[0:3], 0 offen sc0", "AGPR"),
    ("buffer_atomic_swap v4, v0, s[0:3], 0 offen sc0", ""),
    ("buffer_atomic_add v4, v0, s[0:3], 0 offen", ""),
    ("global_atomic_swap v[0:1], v4, off", ""),
    ("flat_atomic_cmpswap v[0:1], v[4:5]", ""),
])
def test_other_forms_are_refused_by_name(text, why):
    name = text.split()[0]
    with pytest.raises(EmuError, match=f"{name}.*not implemented by the emulator.*{why}"):
        run_snippet(text + "\ns_waitcnt vmcnt(0)\ns_endpgm",
                    setup=_setup([np.zeros(64), np.zeros(64)], 4 * LANES))


@pytest.mark.parametrize("text", ["global_atomic_cmpswap v9, v[2:3], v[4:5], off sc0",
                                  "global_atomic_cmpswap v9, v0, v[4:5], s[0:1] sc0"])
def test_the_global_form_returns_into_vdst(text):
    """LLVM's compare-swap through a global pointer (IREE's dispatches without buffer
    instructions): the 64-bit VGPR address or an SGPR base and a VGPR offset; the old word
    into ``vdst``, the data registers unchanged."""
    offsets, old, src, cmp = _one_hot()
    m = run_snippet(f"{text}\ns_waitcnt vmcnt(0)\ns_endpgm", setup=_setup([src, cmp], offsets))
    want = np.arange(WORDS, dtype=np.uint32) * np.uint32(7)
    even = LANES % 2 == 0
    want[offsets[even] // 4] = src[even]
    assert np.array_equal(_c(m), want)
    w = m.waves[0]
    assert np.array_equal(w.V[9, 0], old) and np.array_equal(w.V[4, 0], src)


def test_a_global_address_in_no_buffer_is_reported():
    """An address whose high dword is all ones (a poisoned register) is in no buffer: the
    machine's finding, for an atomic as for a load."""
    def setup(m):
        _setup([np.zeros(64), np.zeros(64)], 4 * LANES)(m)
        m.waves[0].V[1] = 0xFFFFFFFF
    for text in ("global_atomic_cmpswap v[0:1], v[4:5], off", "global_load_dword v9, v[0:1], off"):
        with pytest.raises(Finding, match=r"out-of-range: .*address 0xffffffff00000000 "
                                          r"\(lane 0\) is in no buffer"):
            run_snippet(f"{text}\ns_waitcnt vmcnt(0)\ns_endpgm", setup=setup)


# ---- decoding ---------------------------------------------------------------------------

#: LLVM 22's encodings (``llvm-mc-22 -mcpu=gfx950 -show-encoding``) and text
ENCODINGS = [
    ("00c0a0e000000000", "buffer_wbl2 sc0 sc1"),
    ("0080a0e000000000", "buffer_wbl2 sc1"),
    ("0000a0e000000000", "buffer_wbl2"),
    ("00c0a4e000000000", "buffer_inv sc0 sc1"),
    ("0040a4e000000000", "buffer_inv sc0"),
    ("7c4004e100040780", "buffer_atomic_cmpswap v[4:5], off, s[28:31], 0 offset:124 sc0"),
    ("001006e101040780", "buffer_atomic_cmpswap v[4:5], v1, s[28:31], 0 offen nt"),
    ("005084e101040780", "buffer_atomic_cmpswap_x2 v[4:7], v1, s[28:31], 0 offen sc0"),
    # the cache bits apart: MUBUF sc1 is bit 15, nt bit 17; GLOBAL nt bit 17, sc1 bit 25
    ("009050e002010080", "buffer_load_dword v1, v2, s[0:3], 0 offen sc1"),
    ("001052e002010080", "buffer_load_dword v1, v2, s[0:3], 0 offen nt"),
    ("008050de02000001", "global_load_dword v1, v2, s[0:1] sc1"),
    ("008052dc02000001", "global_load_dword v1, v2, s[0:1] nt"),
]


@pytest.mark.parametrize("hexs, text", ENCODINGS, ids=[t for _, t in ENCODINGS])
def test_llvm_encodings_decode_to_llvm_text_and_read_back(hexs, text):
    (ins,) = decode(bytes.fromhex(hexs))
    assert ins.text == text
    back, _ = parse_instruction(text, 0)
    assert back.key() == ins.key()
    compile_instr(ins, {0: 0})          # each of them runs


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 (LLVM 22) is not installed")
def test_the_encodings_are_llvm_22s():
    src = "\n".join(t for _, t in ENCODINGS) + "\n"
    out = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx950",
                          "-show-encoding"], input=src, capture_output=True, text=True,
                         check=True, timeout=60).stdout
    got = [bytes(int(b, 16) for b in ln.split("encoding: [", 1)[1].rstrip("]").split(",")).hex()
           for ln in out.splitlines() if "encoding:" in ln]
    assert got == [h for h, _ in ENCODINGS]


def test_a_cache_control_with_address_fields_is_refused():
    (ins,) = decode(bytes.fromhex("0010a0e000000000"))      # offen set: LLVM rejects it
    with pytest.raises(EmuError, match="buffer_wbl2.*not implemented.*offen"):
        compile_instr(ins, {0: 0})


# ---- a kernel LLVM 22 builds ------------------------------------------------------------

#: an ``atomicrmw fadd`` of 2.0 into ``C[tid % 16]`` through a buffer fat pointer (16
#: floats); ``{scope}``: "" (system: a compare-swap loop) or ``syncscope("agent")`` (LLVM
#: then uses ``buffer_atomic_add_f32``)
ATOMIC_IR = """
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @cas(ptr addrspace(1) %c, ptr addrspace(1) %d) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i = and i32 %tid, 15
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %c,
                                                                    i16 0, i64 64, i32 159744)
  %fat = addrspacecast ptr addrspace(8) %rsrc to ptr addrspace(7)
  %p = getelementptr float, ptr addrspace(7) %fat, i32 %i
  %old = atomicrmw fadd ptr addrspace(7) %p, float 2.0 {scope} seq_cst
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
"""


def _llvm_build(scope: str) -> str:
    done = subprocess.run([LLC, "-O3", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950", "-o",
                           "-", "-"], input=ATOMIC_IR.replace("{scope}", scope),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-400:]
    return done.stdout


def _run_built(asm: str, block: int, grid: int, mode: str):
    """The run of ``asm`` on ``grid`` workgroups of ``block`` work-items, C starting at 1.0
    and checked against 1 + 2.0 x the work-items on each element (``D``)."""
    from pipeline_mlir.emu.described import emulate_described
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.launchfile import read_launch

    per = 2.0 * block * grid // 16
    spec = read_launch("cas.toml", launch_toml(
        dict(grid=[grid], block=[block]),
        [buffer_arg("C", "f32", [16], init={"value": 1}),
         buffer_arg("D", "f32", [16], init={"value": per})],
        [dict(output="C", expect="C + D")]))
    return emulate_described(load_kernel(asm), spec, mode).outputs[0]


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
@pytest.mark.parametrize("mode", ["eager", "late", "random"])
def test_llvm22s_compare_swap_loop_runs(mode):
    """System scope: LLVM 22's loop (a load, then ``buffer_wbl2 sc0 sc1``, the returning
    ``buffer_atomic_cmpswap``, ``buffer_inv sc0 sc1`` until the word returned is the one
    compared); one wave, four lanes on each element: each pass one lane's swap succeeds."""
    asm = _llvm_build("")
    for piece in ("buffer_wbl2 sc0 sc1", "buffer_atomic_cmpswap v[", " sc0\n",
                  "buffer_inv sc0 sc1", "s_cbranch_execnz"):
        assert piece in asm
    out = _run_built(asm, 64, 1, mode)
    assert out.first_bad is None and out.unwritten == 0
    assert np.array_equal(out.values, np.full(16, 9.0))


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
def test_llvm22s_agent_scope_add_runs_on_two_workgroups():
    """Agent scope: ``buffer_wbl2 sc1``, ``buffer_atomic_add_f32`` (no loop),
    ``buffer_inv sc1``; two workgroups of two waves: atomics race no other atomic."""
    asm = _llvm_build('syncscope("agent")')
    assert "buffer_wbl2 sc1" in asm and "buffer_atomic_add_f32" in asm
    out = _run_built(asm, 128, 2, "late")
    assert out.first_bad is None and np.array_equal(out.values, np.full(16, 33.0))


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
def test_two_waves_in_llvm22s_loop_are_reported_at_its_first_load():
    """What the race check does not know: the loop's first plain load of the word races
    the other wave's compare-swap (nothing orders them), and its value reaches the loop's
    branch, but a stale value only costs the loop a pass.  The check reports it (an
    over-approximation: docs/emulator.md)."""
    with pytest.raises(Finding, match=r"global-race: .*'buffer_load_dword v\d+, v\d+, "
                                      r"s\[0:3\], 0 offen'.*races the write by wave \d of "
                                      r"workgroup 0 at 0x[0-9a-f]+ 'buffer_atomic_cmpswap"):
        _run_built(_llvm_build(""), 128, 1, "random")
