"""The tuner's simulation of a candidate, and ``--simulate``'s of a spec's own schedule, shared
through the code-object store (``driver/code_cache.shared_result``): with a store that shares
named schedules' own kernels (what ``--tune`` builds), a candidate evaluated once, or a spec
simulated once, is not simulated again; without one, every call works (the determinism check
of ``test_tune.py`` compares a run inside the store with one outside it)."""

from __future__ import annotations

from build_cache import share_code_objects
from pipeline_mlir.driver import code_cache
from pipeline_mlir.driver.tune import TuneOptions, tune


def _dict_store(calls: list):
    kept = {}

    def store(kind, key, build):
        calls.append(kind)
        if (kind, key) not in kept:
            kept[kind, key] = build()
        return kept[kind, key]
    return store


def test_shared_result_goes_through_a_store_of_own_kernels_only():
    done = []

    def work():
        done.append(1)
        return {"cycles": len(done)}
    calls = []
    with code_cache.sharing(_dict_store(calls), emits=("asm",), own_kernels=True):
        first = code_cache.shared_result("evaluate", "4wave{BK=64}", work)
        assert code_cache.shared_result("evaluate", "4wave{BK=64}", work) == first
        code_cache.shared_result("evaluate", "4wave{BK=128}", work)
    assert len(done) == 2 and calls == ["tune-evaluate"] * 3
    with code_cache.sharing(_dict_store(calls), emits=("asm",), own_kernels=False):
        code_cache.shared_result("evaluate", "4wave{BK=64}", work)
    code_cache.shared_result("evaluate", "4wave{BK=64}", work)     # no store
    assert len(done) == 4 and len(calls) == 3


def test_a_second_tune_simulates_nothing_the_first_simulated(monkeypatch):
    from pipeline_mlir.sim import tune as T

    simulated = []
    evaluate, timed = T.evaluate, T.assembly_cycles
    monkeypatch.setattr(T, "evaluate", lambda *a: simulated.append("schedule") or evaluate(*a))
    monkeypatch.setattr(T, "assembly_cycles",
                        lambda *a: simulated.append("assembly") or timed(*a))
    options = TuneOptions("4wave{dtype=fp8 BM=64 BN=64 BK=128}", knobs="fences", budget=1)
    with share_code_objects(emits=("asm", "hsaco"), own_kernels=True):
        first = tune(options)
        simulated.clear()
        second = tune(options)
    assert simulated == [] and second.table == first.table and second.chosen == first.chosen


def test_a_second_simulation_of_a_spec_simulates_nothing(monkeypatch):
    """``--simulate`` (no dump) of one spec text, cost tables and iterations twice in a store
    of own kernels: simulated once, the same report; another iteration count, a parsed
    schedule or no store: simulated again.  (~0.5 s: the small 4-wave FP8 schedule.)"""
    from pipeline_mlir.driver.simulate import SimulateOptions, simulate
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim import report as R

    simulated = []
    real = R.simulate_schedule
    monkeypatch.setattr(R, "simulate_schedule",
                        lambda *a, **k: simulated.append(a[2]) or real(*a, **k))
    spec = "4wave{dtype=fp8 BM=64 BN=64 BK=128}"
    with code_cache.sharing(_dict_store([]), emits=("asm",), own_kernels=True):
        first = simulate(SimulateOptions(spec)).report.text()
        assert simulate(SimulateOptions(spec)).report.text() == first
        assert len(simulated) == 1
        simulate(SimulateOptions(spec, iterations=2))
        simulate(SimulateOptions(parse_pipeline(spec)))
        assert len(simulated) == 3
    assert simulate(SimulateOptions(spec)).report.text() == first
    assert len(simulated) == 4
