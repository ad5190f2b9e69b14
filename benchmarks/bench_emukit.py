"""The emulation kit: twelve ``pipeline-opt --emulate`` runs like the test suite's
emulation-heavy tests, the emulation timed apart from the build.

Cases: IREE's committed 4096^3 dispatch on two workgroups (late); the ping-pong kernel
256 x 256 x 512 (late); the 4-wave FP8 64x64 kernel (eager) and BF16 128x128 kernel
(``random:1``); the padded-M dispatch of ``test_edge_version.py`` at M = 129 (late); with
``iree-compile``, IREE's bf16 K = 1023 and 200 x 1000 x 1030 kernels, an i8 512 x 512 x 1768
kernel and the bias and C += epilogues of ``test_tails_masked.py`` and
``test_iree_epilogues.py`` (random or late), and two launches of the described path
(``emulate_described``) like ``test_iree_configurations.py``'s: ``A^T x B`` kernels, fp8
1024 x 1024 x 1536 and i8 1024 x 1024 x 512 (late).  Each case is run once in this process to
build it (builds shared through ``code_cache.sharing``, not timed), then three times with
the emulator's per-code-object caches cleared first (as a test meets its kernel): the best
of three, ``time.process_time``, and the summary line, which must be the same each time.

    .venv/bin/python benchmarks/bench_emukit.py [CASE ...]
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ROOT / "test" / "lit" / "passes" / "Inputs"
IREE_4096 = ROOT / "test" / "data" / "iree" / "matmul_bf16_abt_4096.prefetch.mlir"
TIMES = re.compile(r"\d[\d,.]* (s|instructions/s)\b")


def cases(work: Path) -> dict[str, list[str]]:
    """name -> the ``pipeline-opt`` arguments of one emulation."""
    out = {
        "iree4096-late": ["--pipeline=4wave", "--emulate", str(IREE_4096),
                          "--emulate-workgroups=2", "--emulate-mode=late"],
        "pingpong-late": ["--pipeline=pingpong", "--emulate=256,256,512", "--emulate-mode=late"],
        "fp8-64-eager": ["--pipeline=4wave{dtype=fp8 BM=64 BN=64 BK=128}",
                         "--emulate=128,128,1024", "--emulate-mode=eager"],
        "bf16-128-random": ["--pipeline=4wave{dtype=bf16 BM=128 BN=128 BK=64}",
                            "--emulate=256,256,384", "--emulate-mode=random:1"],
        "edge129-late": ["--pipeline=4wave", str(INPUTS / "iree-bf16-atbt-padded-m.prefetch.mlir"),
                         "--emulate=129,4096,256", "--emulate-workgroups=2",
                         "--emulate-mode=late"],
    }
    sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
    try:
        import epilogues as E
        import generate as G

        G.tool("iree-compile")
        made = {
            "k1023-random": (G.prefetch_point(G.matmul_source(dtype="bf16", m=2048, n=2048,
                                                              k=1023), ()), "random:3"),
            "200x1000x1030-late-random": (G.late_form(G.matmul_source(
                dtype="bf16", m=200, n=1000, k=1030), ()), "random:7"),
            "i8-late-random": (G.late_form(G.matmul_source(dtype="i8", m=512, n=512,
                                                           k=1768), ()), "random:11"),
            "bias-prefetch": (G.prefetch_point(E.epilogue_source(
                kind="bias", dtype="f16", m=1000, n=520), ()), "late"),
            "accumulate-late": (G.late_form(E.epilogue_source(
                kind="accumulate", dtype="f16", m=1024, n=1024, k=1020),
                ("--iree-llvmgpu-prefetch-num-stages=2",)), "random:1"),
            "fp8-atb-late": (G.late_form(G.matmul_source(dtype="fp8", m=1024, n=1024, k=1536,
                                                         transpose_a=True), ()), "late"),
            "i8-atb-late": (G.late_form(G.matmul_source(dtype="i8", m=1024, n=1024, k=512,
                                                        transpose_a=True), ()), "late"),
        }
    except Exception as e:          # no iree-compile, or it failed: say so, run the rest
        print(f"IREE cases skipped ({str(e).splitlines()[0][:100]})")
        return out
    for name, (text, mode) in made.items():
        path = work / f"{name}.mlir"
        path.write_text(text)
        out[name] = ["--pipeline=4wave", "--emulate", str(path), "--emulate-workgroups=2",
                     f"--emulate-mode={mode}"]
    return out


def _clear() -> None:
    """The emulator's caches of code objects, problems' inputs and references."""
    from pipeline_mlir.emu import codeobj, gemm, iree_data

    codeobj._PREPARED.clear()
    iree_data._DATA.clear()
    for f in vars(gemm).values():
        if hasattr(f, "cache_clear"):
            f.cache_clear()


def _run(args: list[str]) -> tuple[int, str]:
    from pipeline_mlir.tools.pipeline_opt import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = main(args)
    return rc, TIMES.sub("<t>", out.getvalue().strip())


def main() -> None:
    from pipeline_mlir.driver import code_cache

    store: dict = {}

    def cached(kind, key, build):
        if (kind, key) not in store:
            store[kind, key] = build()
        return store[kind, key]

    total = 0.0
    with tempfile.TemporaryDirectory() as tmp, code_cache.sharing(cached, own_kernels=True):
        for name, args in cases(Path(tmp)).items():
            if sys.argv[1:] and name not in sys.argv[1:]:
                continue
            rc, summary = _run(args)                  # the build, not timed
            best = float("inf")
            for _ in range(3):
                _clear()
                t = time.process_time()
                again = _run(args)
                best = min(best, time.process_time() - t)
                if again != (rc, summary):
                    raise SystemExit(f"{name}: the runs differ:\n{summary}\n{again[1]}")
            total += best
            print(f"{name:28} exit {rc} {best:7.3f} s  {summary[:110]}", flush=True)
    print(f"{'all':28}        {total:7.3f} s")


if __name__ == "__main__":
    main()
