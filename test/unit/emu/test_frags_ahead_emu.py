"""The ping-pong FP8 kernels with fragment reads issued one MMA run ahead (``frags_ahead``)
run exactly in the emulator in late and random modes (the default one in test_kernels.py),
and the vmcnt guard the schedule derives for the early reads is needed: without it, or one
too weak, an LDS race."""

from __future__ import annotations

import re

import pytest

from kernel_builds import build
from pipeline_mlir.emu.errors import Finding
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.schedule.types import WAIT_VM
from pipeline_mlir.schedules.registry import parse_pipeline

#: the default FP8 ping-pong kernel (balanced-across: reads chosen to even out the load
#: blocks, over the loop's back edge too); within: only the early reads; across: those over
#: the back edge too; balanced: inside one iteration
KEYS = ("pingpong-fp8", "pingpong-fp8-within", "pingpong-fp8-across",
        "pingpong-fp8-balanced")


def run(k, key: str, K: int, mode: str) -> str:
    b = build(key)
    try:
        r = emulate_gemm(k, b.kernel, 256, 256, K, mode, seed=3)
    except Finding as e:
        return e.kind
    return "exact" if r.exact else "wrong result"


#: the kernels whose exactness this module checks: the default one (pingpong-fp8) runs in
#: late and random modes, with and without main-loop iterations, in test_kernels.py
EXACT_KEYS = tuple(k for k in KEYS if k != "pingpong-fp8")


#: the kernel whose random mode the default run keeps (the default balanced-across one runs
#: random in test_kernels.py too); the others' random runs are the long tier's
RANDOM_KEY = "pingpong-fp8-across"


def _case(K: int, mode: str, key: str):
    """One parameter of :func:`test_kernel_is_exact`: random mode on a kernel but
    :data:`RANDOM_KEY` runs in the long tier, its late mode and that kernel's random mode
    standing for it."""
    marks = () if mode == "late" or key == RANDOM_KEY else pytest.mark.long(
        f"an extra mode of a kernel whose late mode test_kernel_is_exact[{K}-late-{key}] "
        f"runs; random mode runs on test_kernel_is_exact[{K}-random-{RANDOM_KEY}]")
    return pytest.param(key, mode, K, marks=marks, id=f"{K}-{mode}-{key}")


# K = 256: no main-loop iteration; 768: two
@pytest.mark.parametrize("key, mode, K", [_case(K, mode, key) for K in (256, 768)
                                          for mode in ("late", "random") for key in EXACT_KEYS])
def test_kernel_is_exact(key, mode, K):
    assert run(load_kernel(build(key).hsaco), key, K, mode) == "exact"


def guard_values(key: str) -> set[int]:
    """The vmcnt values of the main loop's waits that the ``frags_ahead=none`` form of the
    kernel's schedule does not have (the guards frags_ahead derived)."""
    schedule = parse_pipeline(build(key).spec)
    def vm(c):
        return {e.op.wait_value for e in c.kernel if e.op.tag == WAIT_VM}
    return vm(schedule.compile()) - vm(schedule.with_(frags_ahead="none").compile())


def _edit(edit: str, key: str):
    """One parameter of :func:`test_guard_removed_or_weakened_is_an_lds_race`: a guard
    removed leaves in flight at the reads after it every DMA the guard one too weak does (late
    mode: a load completes at the first wait that forces it), so the weakened guard's race
    stands for the removed one's, which runs in the long tier."""
    marks = () if edit == "one too weak" else pytest.mark.long(
        "the guard removed leaves in flight every DMA it leaves one too weak: "
        f"test_guard_removed_or_weakened_is_an_lds_race[one too weak-{key}]")
    return pytest.param(key, edit, marks=marks, id=f"{edit}-{key}")


@pytest.mark.parametrize("key, edit", [_edit(edit, key) for edit in ("removed", "one too weak")
                                       for key in KEYS])
def test_guard_removed_or_weakened_is_an_lds_race(key, edit):
    values = guard_values(key)
    assert values
    lines = build(key).asm.split("\n")
    start = next(i for i, ln in enumerate(lines) if "Inner Loop Header" in ln)
    end = next(i for i in range(start, len(lines)) if re.match(r"^\s*s_cbranch\w* \.LBB", lines[i]))
    found = [i for i in range(start, end)
             if re.fullmatch(r"\s*s_waitcnt vmcnt\((\d+)\)", lines[i])
             and int(re.search(r"\d+", lines[i]).group()) in values]
    assert found
    for i in found:
        n = int(re.search(r"\d+", lines[i]).group())
        new = [] if edit == "removed" else [f"\ts_waitcnt vmcnt({n + 1})"]
        asm = "\n".join(lines[:i] + new + lines[i + 1:])
        assert run(load_kernel(asm), key, 768, "late") == "lds-race", (i, lines[i])
