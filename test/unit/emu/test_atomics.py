"""``buffer_atomic_add_f32`` (``pipeline_mlir/emu/memops.py``) against the ISA's definition
(each lane adds its f32 to the dword at its address, the old value replaced by the rounded
sum), one-hot: each lane's address and addend its own; and the race check's view of it
(``pipeline_mlir/emu/globalrace.py``): atomic updates race no other atomic update, and do
race a plain access of another workgroup."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import GlobalMemory, buffer_setup, run_snippet
from pipeline_mlir.emu.errors import EmuError, Finding

ADD = "buffer_atomic_add_f32 v1, v0, s[0:3], 0 offen"
WORDS = 128


def _setup(addends, offsets, start=None, active=None):
    """Every wave: s[0:3] a raw buffer of WORDS f32 (``start``, else 0.25 x index; s[0:1]
    its address), v0 the lane's byte offset, v[2:3] its address, v1 its addend; EXEC from
    ``active`` if given."""
    words = np.arange(WORDS, dtype=np.float32) * np.float32(0.25) if start is None else \
        np.asarray(start, dtype=np.float32)
    return buffer_setup(words, offsets, {1: np.asarray(addends, dtype=np.float32)}, active)


def _c_of(glob) -> np.ndarray:
    return glob.buffers[glob.names.index("C")][:4 * WORDS].view(np.float32)


def _c(m) -> np.ndarray:
    return _c_of(m.glob)


def test_each_lane_adds_to_its_own_dword():
    lanes = np.arange(64)
    addends = (lanes + 1).astype(np.float32) * np.float32(1.5)
    offsets = 4 * ((lanes * 37) % WORDS)             # a permutation of dwords, one-hot
    m = run_snippet(f"{ADD}\ns_waitcnt vmcnt(0)\ns_endpgm", setup=_setup(addends, offsets))
    want = np.arange(WORDS, dtype=np.float32) * np.float32(0.25)
    want[offsets // 4] += addends
    assert np.array_equal(_c(m), want)


def test_inactive_lanes_add_nothing():
    lanes = np.arange(64)
    active = lanes % 3 == 0
    m = run_snippet(f"{ADD}\ns_endpgm", setup=_setup(np.ones(64), 4 * lanes, active=active))
    want = np.arange(WORDS, dtype=np.float32) * np.float32(0.25)
    want[lanes[active]] += 1
    assert np.array_equal(_c(m), want)


def test_lanes_on_one_dword_all_add_each_sum_rounded():
    """64 lanes add 2^-24 to 1.0 one after another: each sum is a tie that rounds to even
    (1.0), so the dword stays 1.0, where one add of the exact total would give 1 + 2^-18."""
    start = np.zeros(WORDS, dtype=np.float32)
    start[3] = 1.0
    m = run_snippet(f"{ADD}\ns_endpgm",
                    setup=_setup(np.full(64, 2.0 ** -24), np.full(64, 12), start=start))
    assert _c(m)[3] == np.float32(1.0)
    m = run_snippet(f"{ADD}\ns_endpgm",
                    setup=_setup(np.full(64, 0.5), np.full(64, 12), start=start))
    assert _c(m)[3] == np.float32(33.0)


def test_two_workgroups_adding_to_one_dword_do_not_race():
    m = run_snippet(f"{ADD}\ns_endpgm", workgroups=(0, 1),
                    setup=_setup(np.ones(64), np.full(64, 8), start=np.zeros(WORDS)))
    assert _c(m)[2] == np.float32(128.0)


@pytest.mark.parametrize("later, race", [
    ("buffer_store_dword v1, v0, s[0:3], 0 offen", True),
    ("buffer_load_dword v5, v0, s[0:3], 0 offen", True),
    (ADD, False),
])
def test_an_atomic_races_a_plain_access_of_another_workgroup(later, race):
    """Workgroup 0 adds, then workgroup 1 (another run on the same memory) stores, loads or
    adds to the same dwords: nothing orders workgroups, but two atomic updates need no
    order."""
    glob = GlobalMemory()
    setup = _setup(np.ones(64), 4 * np.arange(64))
    run_snippet(f"{ADD}\ns_endpgm", glob=glob, setup=setup)
    second = f"{later}\ns_waitcnt vmcnt(0)\ns_endpgm"
    if race:
        with pytest.raises(Finding, match="global-race: .*races the write by wave 0 of "
                                          "workgroup 0 at 0x0000 'buffer_atomic_add_f32"):
            run_snippet(second, workgroups=(1,), glob=glob, setup=setup)
    else:
        run_snippet(second, workgroups=(1,), glob=glob, setup=setup)
        assert np.array_equal(_c_of(glob)[:64], np.arange(64) * np.float32(0.25) + 2)


@pytest.mark.parametrize("addend, start, why", [
    (1e-40, 0.0, "subnormal"),                       # a subnormal addend
    (1.0, float("inf"), "infinite"),                  # an infinite old value
    (3e38, 3e38, "infinite"),                         # a sum that overflows
])
def test_what_is_not_pinned_is_refused(addend, start, why):
    with pytest.raises(EmuError, match=f"buffer_atomic_add_f32.*not implemented.*{why}"):
        run_snippet(f"{ADD}\ns_endpgm",
                    setup=_setup(np.full(64, addend), 4 * np.arange(64),
                                 start=np.full(WORDS, start)))


@pytest.mark.parametrize("text, why", [
    ("buffer_atomic_add_f32 v1, v0, s[0:3], 0 offen sc0", "returned old value"),
    ("buffer_atomic_add_f32 v1, v0, s[0:3], 0 offen offset:512", "past the buffer's records"),
    ("buffer_atomic_pk_add_f16 v1, v0, s[0:3], 0 offen", ""),
    ("global_atomic_add_f32 v0, v1, s[0:1] offset:2", "not a multiple of 4"),
    ("global_atomic_add_f32 v5, v0, v1, s[0:1] sc0", "returned old value"),
    ("flat_atomic_add_f32 v[2:3], v1", ""),
])
def test_other_forms_are_refused_by_name(text, why):
    name = text.split()[0]
    with pytest.raises(EmuError, match=f"{name}.*not implemented by the emulator.*{why}"):
        run_snippet(text + "\ns_endpgm", setup=_setup(np.ones(64), 4 * np.arange(64)))


@pytest.mark.parametrize("atomic, race", [(True, False), (False, True)])
def test_two_processes_merged_race_unless_both_updates_are_atomic(atomic, race):
    """``--emulate-jobs``: the store marks of two worker processes on one dword are a race
    when merged (:func:`~pipeline_mlir.emu.globalrace.crossed`), unless both are atomic."""
    from types import SimpleNamespace

    from pipeline_mlir.emu.globalrace import ATOMIC, SLOT_BITS, crossed, touch

    glob = GlobalMemory()
    glob.add("C", np.zeros(WORDS, dtype=np.float32))
    ins = SimpleNamespace(addr=0, text=ADD)
    glob.race.records.update({1: (0, 0, 0, ins), 2: (1, 0, 0, ins)})
    glob.race.runs.update({0: ("0",), 1: ("1",)})
    bits = np.packbits(np.ones(2, dtype=bool))       # one dword: its two halfwords

    def change(serial, flag):
        return (0, 4, 6, bits, np.full(2, (serial << SLOT_BITS) | flag, dtype=np.uint32))
    touched = {}
    touch(glob, touched, change(1, ATOMIC))
    later = change(2, ATOMIC if atomic else 0)
    if race:
        with pytest.raises(Finding, match="global-race: .*run by two processes"):
            crossed(glob, touched, later)
    else:
        crossed(glob, touched, later)


@pytest.mark.parametrize("text", ["global_atomic_add_f32 v0, v1, s[0:1] offset:8",
                                  "global_atomic_add_f32 v[2:3], v1, off offset:8"])
def test_the_global_form_adds_at_its_address(text):
    """LLVM's ``global_atomic_add_f32 v0, v1, s[0:1]`` (an SGPR base and a VGPR offset) and
    the 64-bit VGPR address form, one-hot as the buffer form."""
    lanes = np.arange(64)
    addends = (lanes + 1).astype(np.float32) * np.float32(0.5)
    offsets = 4 * ((lanes * 37) % (WORDS - 2))        # distinct, 8 bytes short of the end
    setup = _setup(addends, offsets)
    m = run_snippet(f"{text}\ns_endpgm", setup=setup)
    want = np.arange(WORDS, dtype=np.float32) * np.float32(0.25)
    want[offsets // 4 + 2] += addends
    assert np.array_equal(_c(m), want)
