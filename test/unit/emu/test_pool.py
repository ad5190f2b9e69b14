"""Workgroups spread over processes (``pipeline_mlir/emu/pool.py``): the same C, the same
instruction count and the same findings for every number of processes; the earliest batch's
error raised; a worker that dies is one error."""

from __future__ import annotations

import os
import pickle
import sys

import numpy as np
import pytest

from kernel_builds import build
from pipeline_mlir.emu import gemm as G
from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.gemm import emulate_gemm
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.pool import chunks, workers


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of 2 workgroups: a 2 x 2 grid is two batches, 4 x 2 four."""
    monkeypatch.setattr(G, "BATCH", 2)


def kernel(key: str = "4wave-fp8-64"):
    b = build(key)
    return load_kernel(b.hsaco), b.kernel


def test_chunks_are_contiguous_and_cover_every_batch():
    assert chunks(5, 2) == [range(0, 2), range(2, 5)]
    assert chunks(3, 8) == [range(0, 1), range(1, 2), range(2, 3)]
    for count in range(1, 12):
        for jobs in range(1, 5):
            parts = chunks(count, jobs)
            assert [i for p in parts for i in p] == list(range(count))
            assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_a_worker_is_started_only_for_two_batches_or_more():
    assert workers(1, 8) == 1 and workers(3, 8) == 1
    assert workers(4, 8) == 2 and workers(64, 2) == 2 and workers(64, 1) == 1


@pytest.mark.parametrize("mode", [pytest.param("late", marks=pytest.mark.long(
    "the same C in late mode from 1 and 2 processes: test_the_workers_start_through_the_"
    "launcher_named (same sizes); 3 processes, the instruction count, the findings and the "
    "progress: test_the_result_does_not_depend_on_the_processes[random:5]")), "random:5"])
def test_the_result_does_not_depend_on_the_processes(small_batches, mode):
    k, gemm = kernel()
    g = gemm.geometry
    M, N, K = 4 * g.BM, 2 * g.BN, 4 * g.BK       # 8 workgroups: 4 batches
    name, _, seed = mode.partition(":")
    seen = []

    runs = {jobs: emulate_gemm(k, gemm, M, N, K, name, int(seed or 0), collect=True,
                               jobs=jobs, progress=lambda d, t: seen.append((d, t)))
            for jobs in (1, 2, 3)}
    one = runs[1]
    assert one.exact and one.workgroups == 8
    for jobs in (2, 3):
        run = runs[jobs]
        assert run.exact and np.array_equal(run.C, one.C)
        assert run.instructions == one.instructions and run.findings == one.findings
    assert seen[-1] == (8, 8) and all(t == 8 for _, t in seen)


def racy_kernel():
    """The 4-wave FP8 kernel's assembly with the first s_barrier of its main loop deleted
    (a race, test_mutants.py)."""
    b = build("4wave-fp8-64")
    lines = b.asm.split("\n")
    start = next(i for i, ln in enumerate(lines) if "Inner Loop Header" in ln)
    at = next(i for i in range(start, len(lines)) if lines[i].strip() == "s_barrier")
    return load_kernel("\n".join(lines[:at] + lines[at + 1:])), b.kernel


def test_the_same_finding_is_raised_for_every_number_of_processes(small_batches):
    k, gemm = racy_kernel()
    g = gemm.geometry
    sizes = (4 * g.BM, 2 * g.BN, 6 * g.BK)
    raised = []
    for jobs in (1, 2):
        with pytest.raises(Finding) as e:
            emulate_gemm(k, gemm, *sizes, "late", jobs=jobs)
        raised.append((e.value.kind, str(e.value)))
    assert raised[0] == raised[1]
    collected = [emulate_gemm(k, gemm, *sizes, "late", collect=True, jobs=jobs).findings
                 for jobs in (1, 2)]
    assert collected[0] and [str(f) for f in collected[0]] == [str(f) for f in collected[1]]


def test_a_finding_survives_pickling():
    k, _ = kernel()
    f = Finding("lds-race", "two waves wrote 0x40", wave="wg0 w1", instr=k.instrs[3])
    back = pickle.loads(pickle.dumps(f))
    assert type(back) is Finding and str(back) == str(f)
    assert (back.kind, back.wave, back.instr.addr) == ("lds-race", "wg0 w1", k.instrs[3].addr)


class _ExitOnArrival:
    """Unpickled in the worker, it ends the worker at once (a crash of the child)."""

    def __reduce__(self):
        return os._exit, (7,)


def test_a_worker_that_dies_is_one_error():
    from pipeline_mlir.emu.machine import GlobalMemory
    from pipeline_mlir.emu.pool import run_spread

    k, _ = kernel()
    items = [(p, 2 * p, [2 * p, 2 * p + 1]) for p in range(4)]
    with pytest.raises(EmuError, match=r"worker process ended without its result \(exit "
                                       r"status 7\)"):
        run_spread(k, GlobalMemory(), items, _ExitOnArrival(), 2)


def test_the_workers_start_through_the_launcher_named(small_batches, monkeypatch, tmp_path):
    """``$PIPELINE_EMU_WORKER_LAUNCHER`` (the test run's zygote of the workers,
    ``test/unit/zygote.py``) goes before each worker's command line, which it runs as it
    is: the same C as one process; a launcher that cannot start is the pool's error."""
    from pipeline_mlir.emu import pool

    k, gemm = kernel()
    g = gemm.geometry
    sizes = (4 * g.BM, 2 * g.BN, 4 * g.BK)
    seen = tmp_path / "seen"
    script = tmp_path / "launcher"
    script.write_text(f'#!/bin/sh\necho "$@" >> {seen}\nexec "$@"\n')
    script.chmod(0o755)
    monkeypatch.setenv(pool.LAUNCHER_ENV, str(script))
    one = emulate_gemm(k, gemm, *sizes, "late", jobs=1)
    two = emulate_gemm(k, gemm, *sizes, "late", jobs=2)
    assert two.exact and np.array_equal(two.C, one.C)
    assert seen.read_text().splitlines() == [f"{sys.executable} -m pipeline_mlir.emu.pool "
                                             f"--worker"] * 2
    monkeypatch.setenv(pool.LAUNCHER_ENV, str(tmp_path / "no-launcher"))
    with pytest.raises(EmuError, match=r"^cannot start an emulator worker process "):
        emulate_gemm(k, gemm, *sizes, "late", jobs=2)


def test_the_test_runs_launcher_is_the_one_the_pool_reads():
    """``zygote.py`` names the pool's variable and single-threaded BLAS without importing
    numpy in the run's first process: the same as the pool's."""
    import zygote
    from pipeline_mlir.emu import pool

    assert zygote.EMU_LAUNCHER_ENV == pool.LAUNCHER_ENV
    assert zygote.EMU_SINGLE_THREADED == pool.SINGLE_THREADED
