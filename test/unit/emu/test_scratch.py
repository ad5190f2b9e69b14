"""Scratch (the private segment, :mod:`pipeline_mlir.emu.scratch`): every ``scratch_*`` dword
form round-trips per lane through the private memory, in full and partial EXEC, into VGPRs
and AGPRs, with the VGPR, the SGPR, both or neither in the address, whenever the ops
complete; accesses outside the segment, a reload used before its wait and descriptors that
ask for what gfx950 does not have are reported."""

from __future__ import annotations

import numpy as np
import pytest

from emu_helpers import run_snippet, snippet_kernel
from pipeline_mlir.emu.codeobj import launch_from_descriptor
from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.machine import GlobalMemory, Machine

LANES = np.arange(64)
PARTIAL = (LANES % 3 == 0) | (LANES >= 60)
EXEC = 126
PRIVATE = 64                    # bytes per lane
WIDTHS = {"dword": 1, "dwordx2": 2, "dwordx3": 3, "dwordx4": 4}
#: (VGPR part, SGPR part) of the address forms: ``off`` or a register
FORMS = [("off", "off"), ("v1", "off"), ("off", "s3"), ("v1", "s3")]


def _regs(kind: str, first: int, n: int) -> str:
    return f"{kind}{first}" if n == 1 else f"{kind}[{first}:{first + n - 1}]"


def _run(text: str, private: int = PRIVATE, mode: str = "eager", setup=None, seed: int = 0):
    kernel = snippet_kernel(text)
    kernel.launch.private_bytes = private
    m = Machine(kernel, GlobalMemory(), [0], 1, mode, seed)
    if setup is not None:
        setup(m)
    m.run()
    return m


def _set_exec(w, active) -> None:
    bits = int(sum(1 << int(k) for k in np.flatnonzero(active)))
    w.S[EXEC], w.S[EXEC + 1] = bits & 0xFFFFFFFF, bits >> 32
    w.exec_changed()


CASES = [(width, acc, form, partial, mode) for width in WIDTHS for acc in (False, True)
         for form in FORMS for partial in (False, True) for mode in ("eager", "late", "random")
         if mode == "eager" or (form == ("v1", "s3") and not acc)]


@pytest.mark.parametrize("width,acc,form,partial,mode", CASES,
                         ids=[f"{w}{' agpr' if a else ''}-{f[0]},{f[1]}-"
                              f"{'partial' if p else 'full'}-{m}" for w, a, f, p, m in CASES])
def test_scratch_round_trip(width, acc, form, partial, mode):
    n, kind = WIDTHS[width], "a" if acc else "v"
    size = 4 * n
    vaddr, saddr = form
    per_lane = (LANES % 3) * size if vaddr != "off" else np.zeros(64, dtype=np.int64)
    sbase = 4 if saddr != "off" else 0
    rng = np.random.default_rng(n * 8 + acc)
    data = rng.integers(0, 1 << 32, (n, 64), dtype=np.uint32)
    before = rng.integers(0, 1 << 32, (n, 64), dtype=np.uint32)
    active = PARTIAL if partial else np.ones(64, dtype=bool)

    def setup(m):
        w = m.waves[0]
        reg = w.A if acc else w.V
        reg[4:4 + n, 0] = data
        reg[20:20 + n, 0] = before
        w.V[1] = per_lane.astype(np.uint32)[None]
        w.S[3] = sbase
        _set_exec(w, active)
    offset = 8
    text = (f"scratch_store_{width} {vaddr}, {_regs(kind, 4, n)}, {saddr} offset:{offset}\n"
            f"scratch_load_{width} {_regs(kind, 20, n)}, {vaddr}, {saddr} offset:{offset}\n"
            "s_waitcnt vmcnt(0)\ns_endpgm")
    m = _run(text, mode=mode, setup=setup, seed=3)
    w = m.waves[0]
    got = (w.A if acc else w.V)[20:20 + n, 0]
    assert np.array_equal(got, np.where(active[None], data, before))
    private = w.private[0]                               # (64, PRIVATE) bytes
    start = per_lane + sbase + offset
    want = np.full((64, PRIVATE), 0xFF, dtype=np.uint8)
    raw = np.ascontiguousarray(data.T).view(np.uint8)     # (64, size)
    for lane in np.flatnonzero(active):
        want[lane, start[lane]:start[lane] + size] = raw[lane]
    assert np.array_equal(private, want)


def test_each_lane_and_wave_has_its_own_segment():
    """The same offset in two lanes and in two waves names different bytes."""
    def setup(m):
        for w in m.waves:
            w.V[4] = (LANES + 1000 * w.index).astype(np.uint32)[None]
    text = ("scratch_store_dword off, v4, off\ns_waitcnt vmcnt(0)\n"
            "scratch_load_dword v5, off, off\ns_waitcnt vmcnt(0)\ns_endpgm")
    kernel = snippet_kernel(text)
    kernel.launch.private_bytes = 4
    m = Machine(kernel, GlobalMemory(), [0, 1], 2, "late")
    setup(m)
    m.run()
    for w in m.waves:
        assert np.array_equal(w.V[5], np.broadcast_to(LANES + 1000 * w.index, (2, 64)))


@pytest.mark.parametrize("text,private,detail", [
    ("scratch_store_dword off, v4, off offset:12", 12, "scratch offset 12 + 4 bytes"),
    ("scratch_load_dwordx4 v[4:7], off, off offset:4", 16, "scratch offset 4 + 16 bytes"),
    ("scratch_load_dword v4, off, s3", 16, "scratch offset 4294967292 + 4 bytes"),
    ("scratch_load_dword v4, off, off offset:-4", 16, "scratch offset 4294967292 + 4"),
    ("scratch_load_dword v4, off, off", 0, "private segment of 0 bytes"),
])
def test_an_access_outside_the_private_segment_is_an_error_finding(text, private, detail):
    def setup(m):
        m.waves[0].S[3] = 0xFFFFFFFC          # -4
    with pytest.raises(Finding) as e:
        _run(f"{text}\ns_waitcnt vmcnt(0)\ns_endpgm", private=private, setup=setup)
    assert e.value.kind == "out-of-range"
    assert detail in str(e.value) and ".private_segment_fixed_size" in str(e.value)
    # the phrase test/data/iree/mutants.py (PRIVATE_OOB) calls an undefined input by
    assert "is outside the private segment" in str(e.value)


def test_an_inactive_lane_outside_the_segment_is_not_an_error():
    def setup(m):
        w = m.waves[0]
        w.V[1] = np.where(LANES == 5, 1 << 20, 0).astype(np.uint32)[None]
        _set_exec(w, LANES != 5)
    _run("scratch_load_dword v4, v1, off\ns_waitcnt vmcnt(0)\ns_endpgm", private=4,
         setup=setup)


def test_a_reload_used_before_its_wait_is_a_pending_register():
    text = ("scratch_store_dword off, v4, off\nscratch_load_dword v5, off, off\n"
            "v_mov_b32_e32 v6, v5\ns_waitcnt vmcnt(0)\ns_endpgm")
    with pytest.raises(Finding) as e:
        _run(text, mode="late")
    assert e.value.kind == "pending-register" and "v5" in str(e.value)


def test_scratch_counts_on_vmcnt():
    """vmcnt(1) after a store and a reload covers the store only: the reload is pending."""
    text = ("scratch_store_dword off, v4, off\nscratch_load_dword v5, off, off\n"
            "s_waitcnt vmcnt(1)\nv_mov_b32_e32 v6, v5\ns_endpgm")
    with pytest.raises(Finding) as e:
        _run(text, mode="late")
    assert e.value.kind == "pending-register"
    m = _run(text.replace("vmcnt(1)", "vmcnt(0)"), mode="late")
    assert np.array_equal(m.waves[0].V[6], m.waves[0].V[4])


def test_scratch_byte_forms_are_refused_by_name():
    with pytest.raises(EmuError, match="scratch_load_ubyte.*not implemented"):
        run_snippet("scratch_load_ubyte v1, off, off\ns_endpgm")


RSRC2 = 0x84 | 1            # USER_SGPR 2, workgroup id x, ENABLE_PRIVATE_SEGMENT


def test_the_descriptor_sets_up_the_private_segment():
    launch = launch_from_descriptor("k", 0, 12, 88, 0, RSRC2, 0, 1 << 3)
    assert launch.private_bytes == 12
    # the private segment size user SGPR carries it
    props = (1 << 3) | (1 << 6)
    launch = launch_from_descriptor("k", 0, 12, 88, 0, RSRC2 + 2, 0, props)
    assert launch.inputs() == ("kernarg_ptr", "private_segment_size")


@pytest.mark.parametrize("rsrc2,props,message", [
    (0x84, 1 << 3, "12 bytes of scratch (private segment) but "
                   "COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT is 0"),
    (RSRC2 + 4, (1 << 3) | (1 << 5), "flat scratch init in user SGPRs, which gfx950"),
    (RSRC2 + 8, (1 << 3) | 1, "private segment buffer in user SGPRs, which gfx950"),
])
def test_descriptors_gfx950_cannot_run_are_one_error(rsrc2, props, message):
    with pytest.raises(EmuError, match="kernel k: ") as e:
        launch_from_descriptor("k", 0, 12, 88, 0, rsrc2, 0, props)
    assert message in str(e.value)


def test_what_nothing_wrote_holds_the_poison_of_the_run():
    """A load of private bytes nothing wrote, and a register nothing wrote, hold the poison
    (0xFF), or the byte a run is made with under ``poisoned_with`` (how the mutant campaign
    tells a result computed from what nothing wrote from one that holds 0xFF by value); the
    default comes back after the block."""
    from pipeline_mlir.emu.poison import poisoned_with

    text = "scratch_load_dword v5, off, off\ns_waitcnt vmcnt(0)\ns_endpgm"
    assert (_run(text).waves[0].V[5:7] == 0xFFFFFFFF).all()
    with poisoned_with(0x5A):
        m = _run(text)
        glob = GlobalMemory()
        assert (glob.buffers[(glob.add_poisoned("p", 4) >> 32) - 1] == 0x5A).all()
    assert (m.waves[0].V[5] == 0x5A5A5A5A).all() and (m.waves[0].V[6] == 0x5A5A5A5A).all()
    assert (_run(text).waves[0].V[6] == 0xFFFFFFFF).all()
    with pytest.raises(ValueError):
        with poisoned_with(256):
            pass
