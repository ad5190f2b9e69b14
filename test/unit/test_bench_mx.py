"""benchmarks/bench_mx.py --gaps: the compiled MX kernel's MFMA pipe idle cycles by cause
(it asserts nothing about speed, only that the gaps account for the loop's cycles)."""

from __future__ import annotations

import sys
from pathlib import Path

from script_loader import run_script

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"


def test_gaps_account_for_the_cycles_over_the_mfma_bound():
    spec = "4wave{dtype=mxfp4 BM=128 BN=128 BK=128}"
    sys.path.insert(0, str(BENCH))
    try:
        import bench_mx
    finally:
        sys.path.remove(str(BENCH))
    cycles, causes = bench_mx.gap_figures(spec)
    bound = bench_mx.schedule_figures(spec)["bound"]
    assert causes and all(n > 0 for n in causes.values())
    # the pipe idles the cycles an iteration takes beyond its MFMAs (window edges aside)
    assert abs(sum(causes.values()) - (cycles - bound)) <= 0.05 * cycles


def test_gaps_of_a_kernel_that_does_not_build_is_one_message():
    # twice the LDS a workgroup has: LLVM refuses it; the script run in this process as
    # its own __main__ (an exception other than its exit would fail the test here)
    code, _, err = run_script(BENCH / "bench_mx.py",
                              ["--gaps", "4wave{dtype=mxfp8 BM=256 BN=256 BK=256}"])
    assert code == 1 and "Traceback" not in err
    assert err.startswith("bench_mx: --gaps: ") and "exceeds limit (163840)" in err
