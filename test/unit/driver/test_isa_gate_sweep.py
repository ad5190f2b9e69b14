"""The ISA gate on the suite's own kernels, built as a user builds them (the gate on).

The suite's shared builds skip the gate (``build_cache.share_code_objects`` builds ``obj``
and ``hsaco`` as ``--no-isa-check``), so a false refusal, a kernel exact and race-free on
the emulator that a default ``pipeline-opt`` build refuses, is seen by no emulating test.
Here one kernel of each family the suite pipelines is built with ``--emit=asm`` (the gate
runs on every code build) and must pass: IREE's TileAndFuse and VectorDistribute kernels,
register-staged copies at an unaligned K, the loops LLVM unrolls (a zero-trip loop, K
halved and merged), the 1- and 16-wave grids, the 8-wave ping-pong kernels, the dynamic
shapes, run-time K, the epilogues and batches, an odd trip count's remainder, the
committed inputs and the examples (docs/testing.md, "The ISA gate on the suite's
kernels").  Each family's item is long-tier (1 to 3 s of CPU for the build, an IREE kernel
generated once per run through the build cache before it) but those of :data:`DEFAULT`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402
from iree_configs import CONFIGS, VECTOR_DISTRIBUTE, WAVES  # noqa: E402

LIT = ROOT / "test" / "lit" / "passes" / "Inputs"


def _iree(form: str, flags: tuple = (), **source):
    """IREE's kernel of ``matmul_source(**source)`` in ``form`` (generated once per run)."""
    return lambda: G.forms(G.matmul_source(**source), flags)[form]


def _config(table: dict, name: str, form: str):
    cfg, flags, _ = table[name]
    return _iree(form, flags, **cfg)


def _example(script: str, *args: str):
    def text():
        import subprocess

        return subprocess.run([sys.executable, str(ROOT / "examples" / script), *args],
                              capture_output=True, text=True, check=True).stdout
    return text


def _file(path: Path):
    def text():
        from pipeline_mlir.driver.inputs import upgraded

        return upgraded(path.read_text(), str(path))
    return text


#: family -> (the schedule, the kernel's text): one kernel of each family the suite builds
FAMILIES = {
    "tile-and-fuse": ("4wave", _config(CONFIGS, "bf16_ab_2048x2048x1024", "prefetch")),
    "vector-distribute": ("4wave", _config(
        CONFIGS, "fp8_abt_1024x1024x1536_vector_distribute", "late")),
    "register-staged": ("4wave", _config(CONFIGS, "bf16_abt_2048x2048x1023", "late")),
    "zero-trips": ("4wave", _config(CONFIGS, "fp8_abt_64x31x96", "late")),
    "half-k-merged": ("4wave", _config(CONFIGS, "bf16_atb_300x200x160", "prefetch")),
    "16-waves": ("4wave", _config(WAVES, "bf16_abt_1024x1024x384_16wave", "prefetch")),
    "8-wave-pingpong": ("pingpong", lambda: G.forms(G.matmul_source(
        **G.EIGHT_WAVE["matmul_bf16_abt_256x256_8wave"]))["late"]),
    "dynamic-mn": ("4wave", lambda: D.dynamic(G.prefetch_point(G.matmul_source(
        dtype="bf16", m=512, n=512, k=512)), n=True)),
    "dynamic-k": ("4wave", lambda: G.forms(D.dynamic_k_source(True))["prefetch"]),
    "padded-late": ("4wave", lambda: G.late_form(D.padded_source(True, 200))),
    "epilogue": ("4wave", lambda: G.late_form(E.epilogue_source(
        kind="bias_relu", dtype="f16", m=251, n=251))),
    "batch": ("4wave", lambda: G.forms(E.epilogue_source(
        kind="batch", dtype="i8", m=257, n=33, k=1000))["late"]),
    "remainder": ("4wave", _iree("prefetch", dtype="bf16", m=2048, n=2048, k=1120)),
    "vd-ab": ("4wave", _iree("late", VECTOR_DISTRIBUTE, dtype="bf16", m=2048, n=2048, k=1024,
                             transpose_b=False)),
    "committed-late": ("4wave", _file(ROOT / "test" / "data" / "iree" /
                                      "matmul_bf16_abt_4096.late.mlir")),
    "committed-lit": ("4wave", _file(LIT / "iree-f16-atb-1000x600x1030.late.mlir")),
    "wave-unrolled": ("4wave", _file(ROOT / "test" / "data" / "wave" /
                                     "gemm_f16_128x128x256.mlir")),
    "natural-example": ("4wave", _example("natural_kernel.py")),
    "concrete-example": ("pingpong", _example("concrete_kernel.py", "pingpong")),
}


def _gated(spec: str, text: str):
    """The ``--emit=asm`` build of ``text`` under ``spec``, the ISA gate on (an ``asm``
    build is always checked; kept in the run's store, which keeps only builds that
    passed)."""
    from pipeline_mlir.driver import CompileOptions, compile

    with share_code_objects(emits=("asm",)):
        return compile(CompileOptions(schedule=spec, text=text, emit="asm"))


#: the families the default run builds here: gate paths no other gate-on build of the
#: default run takes (an adopted IREE kernel held to a ``pingpong`` plan; a batch's unrolled
#: straight code of 0 loop copies, i8 with a masked K), about 1 and 2.5 s of CPU (the IREE
#: kernels from the run's build cache, generated by test_iree_pingpong.py and
#: test_iree_epilogues.py; each one iree-compile run more without them)
DEFAULT = ("8-wave-pingpong", "batch")
#: the marker of the others
LONG = pytest.mark.long("each of these kernels is emulated by its family's module; the gate "
                        "paths its build takes are test_isa_gate.py's and DEFAULT's")


@pytest.mark.parametrize("family", [f if f in DEFAULT else pytest.param(f, marks=LONG)
                                    for f in FAMILIES])
def test_each_family_passes_the_gate(family):
    """The family's kernel builds with the gate on: pipelined (a plan lowered, so the gate
    ran) and not refused."""
    spec, text = FAMILIES[family]
    result = _gated(spec, text())
    assert not result.failed and result.plans, [d.message for d in result.diagnostics]


@pytest.mark.parametrize("way, refused", [("later", False), ("earlier", True)])
def test_an_mfma_of_a_dma_kernel_moved_later_is_no_error(way, refused):
    """In a kernel whose copies are all DMAs (the shipped 4-wave BF16 one, the run's build),
    an MFMA the comparison finds moved earlier is an error (above the reads filling its
    registers it multiplies what they held), one moved later is a note: the gate refused
    ``pingpong{minimal_barriers=true}`` (15 epilogue MFMAs later across an ``s_barrier``),
    exact and race-free on the emulator (late mode, 2 workgroups at K = 512, 1 at K = 128:
    the sweep of docs/iree-audits.md).  Under 0.5 s beside the run's build of the kernel."""
    from kernel_builds import build
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.built_check import errors
    from pipeline_mlir.isa.check import check_kernel_asm
    from pipeline_mlir.isa.findings import Finding

    built = build("4wave-bf16")
    isa = check_kernel_asm(parse_asm(built.asm).function(), built.plan)
    moved = Finding("mfma-moved", "epilogue", (), (1,),
                    f"15 x v_mfma_f32_16x16x32_bf16 moved {way}, across s_barrier (line 2)")
    assert errors([moved], isa) == ([moved] if refused else [])
