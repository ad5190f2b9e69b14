"""The race check of global memory (emu/globalrace.py): two accesses to one byte, one of
them a store, by waves nothing orders; two lanes of one store writing one byte with
different values.  Small programs pin the ordering rules; real kernels with one store
changed are caught (two waves storing one element of C, a store into B that other
workgroups read, every lane storing to one address)."""

from __future__ import annotations

import dataclasses
import functools
import re

import numpy as np
import pytest

from emu_helpers import c_stores, moved_store, run_snippet, snippet_kernel
from kernel_builds import build
from pipeline_mlir.emu import gemm as emu_gemm
from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.gemm import emulate_gemm, run_workgroups
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.machine import GlobalMemory, Machine

#: wave 0 (lanes 0..63) does ``first`` then a barrier, wave 1 a barrier then ``second``;
#: both address dword ``lane`` of the buffer at s[8:9]
TWO_WAVES = """
    v_readfirstlane_b32 s20, v0
    v_and_b32_e32 v1, 63, v0
    v_lshlrev_b32_e32 v1, 2, v1
    v_mov_b32_e32 v2, 7
    s_cmp_lt_u32 s20, 64
    s_cbranch_scc0 second
    {first}
    {wait}
    s_barrier
    s_waitcnt vmcnt(0)
    s_endpgm
second:
    s_barrier
    {second}
    s_waitcnt vmcnt(0)
    s_endpgm
"""
STORE = "global_store_dword v1, v2, s[8:9]"
LOAD = "global_load_dword v3, v1, s[8:9]"


def _run(text: str, waves: int = 2, workgroups=(0,), track: bool = True):
    glob = GlobalMemory()
    base = glob.add("C", bytes(1024))
    if track:
        glob.track("C")

    def setup(m):
        for w in m.waves:
            w.S[8], w.S[9] = base & 0xFFFFFFFF, base >> 32
    return run_snippet(text, waves=waves, workgroups=workgroups, mode="late", glob=glob,
                       setup=setup)


@pytest.mark.parametrize("first,second,earlier", [(STORE, STORE, "write"),
                                                  (STORE, LOAD, "write"),
                                                  (LOAD, STORE, "read")])
def test_another_wave_is_ordered_only_by_a_wait_and_a_barrier(first, second, earlier):
    _run(TWO_WAVES.format(first=first, second=second, wait="s_waitcnt vmcnt(0)"))
    what = "write" if second == STORE else "read"
    with pytest.raises(Finding, match=rf"global-race: wave 1 of workgroup 0, .*: global "
                                      rf"{what} of buffer C byte 0 .* by workgroup 0 races "
                                      rf"the {earlier} by wave 0 of workgroup 0 at .*'"
                                      rf"global_\w+_dword .*' \(not yet waited for\)"):
        _run(TWO_WAVES.format(first=first, second=second, wait=""))


def test_the_same_wave_is_ordered_and_no_store_no_race():
    _run(f"v_lshlrev_b32_e32 v1, 2, v0\nv_mov_b32_e32 v2, 7\n{STORE}\n{LOAD}\n{STORE}\n"
         "s_waitcnt vmcnt(0)\ns_endpgm", waves=1)


def test_two_waves_storing_one_byte_before_the_barrier_race():
    with pytest.raises(Finding, match=r"global-race: .*races the write by wave \d .*"
                                      r"\(waited for at epoch 0, no barrier since\)"):
        _run(TWO_WAVES.format(first=STORE, second="", wait="s_waitcnt vmcnt(0)").replace(
            "second:\n    s_barrier", f"second:\n    {STORE}\n    s_waitcnt vmcnt(0)\n"
                                     f"    s_barrier"))


SAME_ADDRESS = """
    v_lshrrev_b32_e32 v1, 4, v0
    v_lshlrev_b32_e32 v1, 2, v1
    {value}
    global_store_dword v1, v2, s[8:9]
    s_waitcnt vmcnt(0)
    s_endpgm
"""


def test_lanes_of_one_store_writing_one_byte():
    """16 lanes store to each dword: the same value is one write, different values race; two
    workgroups of a batch storing to one byte race whatever the values."""
    _run(SAME_ADDRESS.format(value="v_lshrrev_b32_e32 v2, 4, v0"), waves=1)
    with pytest.raises(Finding, match=r"global-race: .*within this one store: lanes 0 and 1 "
                                      r"of workgroup 0 store different values to it"):
        _run(SAME_ADDRESS.format(value="v_mov_b32_e32 v2, v0"), waves=1)
    with pytest.raises(Finding, match=r"within this one store: workgroups 0 and 1 \(lanes "
                                      r"\d+ and \d+\) store to it: nothing orders them"):
        _run(SAME_ADDRESS.format(value="v_lshrrev_b32_e32 v2, 4, v0"), waves=1,
             workgroups=(0, 1))


def test_workgroups_in_two_runs_race_and_a_workgroup_run_again_does_not():
    glob = GlobalMemory()
    base = glob.add("C", bytes(1024))
    text = f"v_lshlrev_b32_e32 v1, 2, v0\nv_mov_b32_e32 v2, 7\n{STORE}\ns_endpgm"

    def run(g):
        m = Machine(snippet_kernel(text), glob, [g], 1, "late")
        m.waves[0].S[8], m.waves[0].S[9] = base & 0xFFFFFFFF, base >> 32
        m.run()
    run(0)
    run(0)                    # a batch re-run one workgroup at a time, a probe run
    with pytest.raises(Finding, match=r"global-race: wave 0 of workgroup 1, .*races the "
                                      r"write by wave 0 of workgroup 0 .*another workgroup"):
        run(1)


def test_16_bit_stores_to_the_halves_of_a_dword_do_not_race():
    """bf16 and f16 elements: the marks are per halfword."""
    glob = GlobalMemory()
    base = glob.add("C", bytes(256))
    glob.track("C")

    def setup(m):
        for w in m.waves:
            w.S[8:12] = np.array([base & 0xFFFFFFFF, base >> 32, 256, 0x27000],
                                 dtype=np.uint32)[:, None]
    text = TWO_WAVES.format(first="buffer_store_short v2, v1, s[8:11], 0 offen",
                            second="buffer_store_short v2, v1, s[8:11], 0 offen offset:2",
                            wait="")
    m = run_snippet(text, waves=2, mode="late", glob=glob, setup=setup)
    assert m.glob.stored("C").all()


def _bytes_run(first: str, second: str, per_byte: bool, wait: str = ""):
    """TWO_WAVES with buffer stores, C tracked per halfword or per ``per_byte``."""
    glob = GlobalMemory()
    base = glob.add("C", bytes(256), per_byte=per_byte)
    glob.track("C")

    def setup(m):
        for w in m.waves:
            w.S[8:12] = np.array([base & 0xFFFFFFFF, base >> 32, 256, 0x27000],
                                 dtype=np.uint32)[:, None]
    return run_snippet(TWO_WAVES.format(first=first, second=second, wait=wait), waves=2,
                       mode="late", glob=glob, setup=setup)


BYTE = "buffer_store_byte v2, v1, s[8:11], 0 offen"


def test_8_bit_stores_to_the_bytes_of_a_halfword_race_only_in_halfword_marks():
    """FP8 and i8 elements (an output tracked per byte): two waves storing the two bytes of
    each halfword do not race (IREE's fp8 C at an odd N: the last column of one
    workgroup's tile and the first of the next share a halfword); with marks per halfword
    the same stores are reported."""
    m = _bytes_run(BYTE, BYTE + " offset:1", per_byte=True)
    stored = m.glob.stored("C")
    assert stored[0:256:4].all() and stored[1:256:4].all() and not stored[2:256:4].any()
    assert len(m.glob.marks_of("C")) == 256
    with pytest.raises(Finding, match=r"global write of buffer C byte 0 .* races the write"):
        _bytes_run(BYTE, BYTE + " offset:1", per_byte=False)


@pytest.mark.parametrize("second", [BYTE, "buffer_store_dword v2, v1, s[8:11], 0 offen",
                                    "buffer_store_short v2, v1, s[8:11], 0 offen offset:2"])
def test_a_byte_marked_buffer_still_reports_a_store_to_a_byte_another_wave_stored(second):
    """The negative of the above: per byte, the same byte (a byte store over a byte, a dword
    store over a byte) or a byte a load recorded races; the other halfword of the dword
    does not."""
    want = r"global write of buffer C byte (0|4) .* races the (write|read) by wave 0"
    if "offset:2" in second:
        _bytes_run(BYTE, second, per_byte=True)
        return
    with pytest.raises(Finding, match=want):
        _bytes_run(BYTE, second, per_byte=True)
    with pytest.raises(Finding, match=want):
        _bytes_run("buffer_load_ubyte v3, v1, s[8:11], 0 offen", second, per_byte=True)
    _bytes_run(BYTE, second, per_byte=True, wait="s_waitcnt vmcnt(0)")


def _kernarg_kernel(body: str):
    """A one-wave program whose buffer addresses are the kernel arguments (B's in s[8:9], C's
    in s[10:11]); v1 addresses the lane's dword, v4 its dword of its workgroup's 64."""
    return snippet_kernel("s_load_dwordx4 s[8:11], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n"
                          "v_lshlrev_b32_e32 v1, 2, v0\n"
                          "s_lshl_b32 s3, s2, 8\nv_add_u32_e32 v4, s3, v1\n" + body +
                          "\ns_waitcnt vmcnt(0)\ns_endpgm")


def _launch(kernel, workgroups, glob=None, jobs=1):
    glob = glob or GlobalMemory()
    bases = [glob.add(name, np.arange(256, dtype=np.uint32)) for name in "BC"]
    glob.track("C")
    at = glob.add("kernargs", np.array(bases, dtype=np.uint64))
    run_workgroups(kernel, glob, list(workgroups), 1, "late", 0, at, jobs=jobs)
    return glob


def test_loads_of_a_buffer_nothing_stores_to_are_not_recorded():
    glob = _launch(_kernarg_kernel(LOAD), [0, 1])
    assert glob.marks[0] is None and not glob.race.readers and \
        glob.race.unrecorded == {0, 2}          # B and the kernel arguments


def test_a_store_to_what_another_workgroup_loaded_before_races():
    """Workgroups 0 and 1 load dwords 0..63 of B, then each stores to its own 64 dwords
    (``s2``: the workgroup id): workgroup 0's store races workgroup 1's load, which came
    first.  B's loads were not recorded (nothing had stored to it): the run is repeated
    from the memory it started with, B's loads recorded."""
    racy = _kernarg_kernel(f"{LOAD}\ns_waitcnt vmcnt(0)\nglobal_store_dword v4, v3, s[8:9]")
    with pytest.raises(Finding, match=r"global-race: .*global write of buffer B byte 0 .* "
                                      r"races the read by wave 0 of workgroup 1 .*'"
                                      r"global_load_dword v3, v1, s\[8:9\]' \(another "
                                      r"workgroup: nothing orders them\)"):
        _launch(racy, [0, 1])
    # C and B each workgroup's own dwords, loaded and stored + 1: ordered; the run again
    # (for B) from the C it started with: each + 1 once
    own = _kernarg_kernel("\n".join(f"global_load_dword v3, v4, s[{r}]\ns_waitcnt vmcnt(0)\n"
                                     f"v_add_u32_e32 v3, 1, v3\nglobal_store_dword v4, v3, s[{r}]"
                                     for r in ("10:11", "8:9")))
    glob = _launch(own, [0, 1])
    for name in "BC":
        got = glob.buffer(name).view(np.uint32)
        assert (got == np.arange(256) + (np.arange(256) < 128)).all(), name
    assert glob.race.recorded == {0}


def _races_in_one_or_two_processes(kernel, race: str, used: str = "") -> None:
    """Workgroups 0..3 one per batch, in one process and in two (0, 1 and 2, 3): the same
    ``race`` found by workgroup 2's wave 0 against workgroup 0's, said to be across
    processes when it is.  ``used``: the race is workgroup 0's load of what workgroup 2
    stores, whose value the instruction ``used`` stores: one process reports it there
    (racy_loads.py; two processes as the stores and loads merge)."""
    for jobs, how in ((1, r"\)$"), (2, r"; run by two processes\)$")):
        header = "wave 0 of workgroup 2, "
        if used and jobs == 1:
            header = rf"wave 0 of workgroup 0, 0x\w+ '{re.escape(used)}': "
            how = (r"\): lane 0 of workgroup 0 loads it at 0x\w+ 'global_load_dword .*' "
                   r"\(wave 0\), and the value loaded reaches its address or stored data "
                   r"here: the race is observable$")
        with pytest.raises(Finding, match=r"global-race: " + header + r".*global "
                                          + race + r" by wave 0 of workgroup 0 .*another "
                                          r"workgroup: nothing orders them" + how):
            _launch(kernel, [0, 1, 2, 3], jobs=jobs)


def test_workgroups_of_two_processes_storing_one_byte_race(monkeypatch):
    """``--emulate-jobs``: workgroups 0 and 2 store to one dword in two processes; the
    merge finds it (one process finds it as the store issues)."""
    monkeypatch.setattr(emu_gemm, "BATCH", 1)
    kernel = _kernarg_kernel("s_and_b32 s3, s2, 1\ns_lshl_b32 s3, s3, 8\n"
                             "v_add_u32_e32 v4, s3, v1\nglobal_store_dword v4, v1, s[8:9]")
    _races_in_one_or_two_processes(kernel, r"write of buffer B byte 0 .* by workgroup 2 "
                                           r"races the write")


def test_a_read_and_a_write_of_two_processes_race(monkeypatch):
    """``--emulate-jobs``: each workgroup stores its own 64 dwords of C, then loads those of
    workgroup ``id ^ 2`` (workgroups 0, 1 in one process, 2, 3 in the other).  One process
    finds workgroup 2's store racing workgroup 0's earlier load; two processes must find it
    too, as their loads and stores are merged (they found only two stores)."""
    monkeypatch.setattr(emu_gemm, "BATCH", 1)
    use = "global_store_dword v4, v3, s[8:9]"
    kernel = _kernarg_kernel("global_store_dword v4, v1, s[10:11]\n"
                             "s_xor_b32 s4, s2, 2\ns_lshl_b32 s4, s4, 8\n"
                             "v_add_u32_e32 v5, s4, v1\nglobal_load_dword v3, v5, s[10:11]\n"
                             f"s_waitcnt vmcnt(0)\n{use}")
    _races_in_one_or_two_processes(kernel, r"write of buffer C byte 512 .* by workgroup 2 "
                                           r"races the read", use)


def test_an_unrecorded_load_and_a_store_of_two_processes_race(monkeypatch):
    """Workgroups 0 and 1 only load B (workgroup ``id ^ 2``'s dwords), 2 and 3 only store
    their own: in two processes neither sees the other, and B (no store yet where it is
    loaded) has its loads unrecorded there.  The merge sees a buffer one process stored to
    and another loaded unrecorded, and the run goes again with B's loads recorded."""
    monkeypatch.setattr(emu_gemm, "BATCH", 1)
    use = "global_store_dword v4, v3, s[10:11]"
    kernel = _kernarg_kernel("s_cmp_lt_u32 s2, 2\ns_cbranch_scc0 store\n"
                             "s_xor_b32 s4, s2, 2\ns_lshl_b32 s4, s4, 8\n"
                             "v_add_u32_e32 v5, s4, v1\nglobal_load_dword v3, v5, s[8:9]\n"
                             f"s_waitcnt vmcnt(0)\n{use}\n"
                             "s_branch done\nstore:\nglobal_store_dword v4, v1, s[8:9]\ndone:")
    _races_in_one_or_two_processes(kernel, r"write of buffer B byte 512 .* by workgroup 2 "
                                           r"races the read", use)


@functools.lru_cache(maxsize=None)
def _fp8():
    b = build("4wave-fp8-64")
    return load_kernel(b.hsaco), b.kernel


def _edited(kernel, ins, **fields):
    new = dataclasses.replace(ins, f=dict(ins.f, **fields))
    new.text = format_instr(new)
    return dataclasses.replace(kernel, instrs=[new if i is ins else i for i in kernel.instrs],
                               _compiled={})


def test_real_kernel_mutants_race():
    """The 4-wave FP8 kernel (2 x 2 workgroups, late): exact unchanged; its first C store
    moved onto the elements another wave stores (half a tile right, plus the offset of the
    store that writes them); the store's descriptor replaced by B's (B's bytes the other
    workgroups load); ``offen`` dropped (every lane stores to one address)."""
    k, gemm = _fp8()
    g = gemm.geometry
    size = (2 * g.BM, 2 * g.BN, 2 * g.BK)
    assert emulate_gemm(k, gemm, *size, "late").exact
    stores = c_stores(k)
    first, other = stores[0], next(s for s in stores if s.f["offset"])
    # the copies' descriptors: A's, then B's
    b_desc = max(i.f["srsrc"] for i in k.instrs if i.name == "buffer_load_dwordx4")
    cases = [
        (moved_store(k, first, 4 * g.BN // 2 + other.f["offset"]),
         r"global write of buffer C .* by workgroup 0 races the write by wave \d of workgroup "
         r"0 at .*offset:\d+' \(waited for at epoch \d+, no barrier since\)"),
        (_edited(k, first, srsrc=b_desc),
         r"global write of buffer B .* races the read by wave \d of workgroup \d at .*"
         r"buffer_load_dwordx4 .*another workgroup"),
        (_edited(k, first, offen=0),
         r"global write of buffer C byte 0 .* within this one store: lanes 0 and 1 of "
         r"workgroup 0 store different values"),
    ]
    for mutant, message in cases:
        with pytest.raises(Finding, match="global-race: .*" + message):
            emulate_gemm(mutant, gemm, *size, "late")


def test_the_check_limits_are_errors():
    """More stores than a stamp can number, more workgroups in lockstep than it has slots."""
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.globalrace import MAX_SLOTS

    glob = GlobalMemory()
    glob.race.limit = glob.race.next_serial + 1
    with pytest.raises(EmuError, match=r"more than \d+ memory operations to track for the "
                                       r"global race check in one run"):
        for _ in range(2):
            glob.race.new_op(())
    with pytest.raises(EmuError, match=rf"{MAX_SLOTS + 1} workgroups in lockstep: at most "
                                       rf"{MAX_SLOTS}"):
        Machine(snippet_kernel("s_endpgm"), GlobalMemory(), list(range(MAX_SLOTS + 1)), 1)


#: lane L stores ``7`` to dword L, then ``{value}`` to dword L + 1 (lane L + 1's), one wave
LANE_PAIRS = """
    v_and_b32_e32 v1, 63, v0
    v_lshlrev_b32_e32 v1, 2, v1
    v_add_u32_e32 v4, 4, v1
    v_mov_b32_e32 v2, 7
    v_mov_b32_e32 v3, {value}
    global_store_dword v1, v2, s[8:9]
    {between}
    global_store_dword v4, v3, s[8:9]
    s_waitcnt vmcnt(0)
    s_endpgm
"""


@pytest.mark.parametrize("value, between, found", [
    (9, "", "lanes 1 and 0 of wave 0 store byte 4 of buffer C in two stores, no barrier "
            "between them, values 0x07 and 0x09"),
    (7, "", None),                                  # the same value: either order
    (9, "s_waitcnt vmcnt(0)\n    s_barrier", None),  # a barrier between them
])
def test_lanes_of_one_wave_storing_one_byte_in_two_stores(value, between, found):
    """``lanes_watched`` notes a byte two lanes of one wave store in two stores no barrier
    orders, with different values (an order the hardware keeps and a compiler's thread
    model does not); not run outside it, it is no race of the emulator's."""
    from pipeline_mlir.emu.globalrace import lanes_watched

    text = LANE_PAIRS.format(value=value, between=between)
    with lanes_watched() as noted:
        _run(text, waves=1)
    assert (str(noted[0]) if noted else None) == found
    before = len(noted)
    _run(text, waves=1)             # outside the block: no finding, nothing noted
    assert len(noted) == before
