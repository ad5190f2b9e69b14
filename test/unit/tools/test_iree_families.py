"""What each IREE family must do, for the families the per-configuration tests leave a point of.

``test_iree_configurations.py``, ``test_iree_pingpong.py``, ``test_iree_epilogues.py`` and
the tails tests generate each family with ``iree-compile`` and check that its kernel is
pipelined and exact on the emulator; this module adds, for the families that lacked them:

* both forms, one schedule: the prefetch point and the late form of the kernel give the
  same schedule (``--emit=schedule-json``), where no other test compares them;
* the round trip: the kernel pipelined from the prefetch point, handed back to
  ``iree-compile`` by executable substitution, builds a ``.vmfb`` whose kernel multiplies
  with the family's MFMA, one configuration per family that had no such test.

The kernels are those the other modules generate (the same sources and flags: one
``iree-compile`` per kernel and run, through the suite's build cache).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from build_cache import cached, share_code_objects
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
DATA = ROOT / "test" / "data" / "iree"
sys.path.insert(0, str(DATA))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402
from iree_configs import (CONFIGS, FAMILIES_BUILD, LONG, TARGET_LINE,  # noqa: E402
                          built_by_default, forms_agree)
from kernel_builds import shared_build  # noqa: E402
from test_iree_emulate import needs_iree  # noqa: E402
from test_iree_epilogues import CONFIGS as EPILOGUE_CONFIGS  # noqa: E402
from long_tier import FUNCTIONS_RUN, marked  # noqa: E402

#: the other epilogues of test_iree_epilogues.CONFIGS (their kernels, the same sources),
#: whose two forms are compared here: kind -> epilogue_source arguments (not its bias per
#: column, which it does not run: bias + relu's forms, compared here, gather it the same way)
EPILOGUES = {kind: EPILOGUE_CONFIGS[kind][0] for kind in ("bias_row", "trunc_bf16", "trunc_f16")}
#: family -> the iree_configs.CONFIGS kernel standing for it (``4wave``)
CONFIG_OF = {
    "fp8-abt": "fp8_abt_4096", "i8-abt-64x128": "i8_abt_512",
    "no-dma": "bf16_abt_2048x2048x1024_no_dma", "fp8-k1028": "fp8_abt_2048x2048x1028",
    "i8-vector-distribute": "i8_abt_2048x2048x1536_vector_distribute",
    "bf16-ab": "bf16_ab_2048x2048x1024", "fp8-ab": "fp8_ab_2048x2048x1024",
    "bf16-atb": "bf16_atb_2048x2048x1024", "bf16-ab-k128": "bf16_ab_1024x1024x512",
    "redistributed": "bf16_abt_512", "mfma32": "bf16_abt_512_mfma32",
    "unaligned-sizes": "bf16_abt_300x500x200", "unaligned-k": "bf16_abt_2048x2048x1023",
    "vector-distribute": "bf16_abt_2048x2048x1024_vector_distribute",
    "vector-distribute-ab": "bf16_ab_2048x2048x1024_vector_distribute",
    "vector-distribute-fp8": "fp8_abt_2048x2048x1024_vector_distribute",
    "vector-distribute-odd": "bf16_abt_2048x2048x1152_vector_distribute",
    "f16-abt": "f16_abt_2048x2048x1024", "fp8e5m2-abt": "fp8e5m2_abt_2048x2048x1024",
    "i8-abt-edges-k2": "i8_abt_33x257x512",
    "halved-merged": "bf16_atb_300x200x160", "halved-merged-atbt": "bf16_atbt_300x200x160",
    "i8-abt-edges-k1030": "i8_abt_63x33x1030",
    # B held whole in each stage (whole=b), A split by MFMA rows; at 31x64x96 A's halves
    # copied through registers, 2 bytes a lane (frontend/copy_widths.py's staged_width)
    "held-whole": "fp8_abt_64x31x96", "held-whole-staged": "fp8_abt_31x64x96",
}
#: the other families -> (what makes its MLIR source: ("committed", file stem) |
#: ("matmul", matmul_source arguments) | ("epilogue", epilogue_source arguments) |
#: ("8wave", EIGHT_WAVE name), the schedule that pipelines it)
KERNELS = {f: (("config", name), "4wave") for f, name in CONFIG_OF.items()} | {
    "bf16-abt-4096": (("committed", "matmul_bf16_abt_4096"), "4wave"),
    "odd-k-steps": (("matmul", dict(dtype="bf16", m=2048, n=2048, k=1120)), "4wave"),
    "unaligned-k-small": (("matmul", dict(dtype="bf16", m=1024, n=1024, k=1020)), "4wave"),
    # (test_iree_epilogues.py's batch, 300x520x262: both forms built and emulated there)
    "epilogue-batch": (("epilogue", EPILOGUE_CONFIGS["batch"][0]), "4wave"),
    # (test_iree_epilogues.py's bias + relu: C square and cut by the tile, the same builds)
    "epilogue-bias-relu-f16": (("epilogue", dict(kind="bias_relu", dtype="f16", m=251, n=251)),
                               "4wave"),
    # (test_iree_epilogues.py's C += f16 257x129x1024, C cut by the tile, IREE's default
    # flags: the same builds)
    "epilogue-accumulate": (("epilogue", EPILOGUE_CONFIGS["accumulate_edge"][0]), "4wave"),
    "8wave-odd-k-steps": (("matmul", dict(G._eight_wave("bf16", (256, 256), (8, 4), 2),
                                          k=192)), "pingpong"),
    "8wave-atbt-k128": (("8wave", "matmul_bf16_atbt_128x128_k128_8wave"), "pingpong"),
    # fp8's A at C's edge in M (47 of a 64-row tile) selected by conditions true in every
    # thread, false in every thread (rows 48 to 63: a store of zero in the late form) and
    # C's edge at the prefetch point (as i8-abt-edges-k2's): the schedule alone (UNBUILT)
    "fp8-abt-edges-k2": (("matmul", dict(dtype="fp8", m=47, n=257, k=512)), "4wave"),
    # ... and i8's at M = 33 with K = 1000, the masked last K tile peeled: in the late form
    # the copy of rows 48 to 63 a guarded load half folded (its mask false, its else region
    # the zero), the rows clamped to 33 (pad_stores.py, masked_rows_k_late.py; the prefetch
    # point's schedule alone, UNBUILT_FORMS; the late form emulated, RANDOM; the
    # masked_rows_k_late test takes its late form too)
    "i8-abt-edges-k1000": (("matmul", dict(dtype="i8", m=33, n=257, k=1000)), "4wave"),
    # f16 C += A x B^T + a bias of M, M = 48 of a 64-row tile and K = 878: the late form's
    # copy of rows 48 to 63 a guarded load half folded, into a flat LDS buffer, so no
    # sibling copy of its rank says its index; its own masked load does (pad_stores.py;
    # refused in the late form before, a fourteenth-sweep draw; the late form emulated,
    # RANDOM)
    "epilogue-accumulate-bias-row-m48": (("epilogue", dict(
        kind="accumulate_bias_row", dtype="f16", m=48, n=148, k=878)), "4wave"),
    # A in E4M3FN, B in E5M2: IREE's mixed 16x16x128 MFMA (its format operands one per
    # side), the front end's fp8 path with two element types (the late form emulated,
    # RANDOM; iree-compile builds no such kernel at some shapes: docs/iree-audits.md)
    "fp8-mixed": (("matmul", dict(dtype="fp8", b_dtype="fp8e5m2", m=256, n=256, k=2048)),
                  "4wave"),
} | {f"epilogue-{kind.replace('_', '-')}": (("epilogue", args), "4wave")
     for kind, args in EPILOGUES.items()}
#: the families whose two forms no other test compares
FORMS_AGREE = ["bf16-abt-4096", "fp8-abt", "i8-abt-64x128", "no-dma", "fp8-k1028",
               "i8-vector-distribute", "odd-k-steps", "epilogue-batch",
               "epilogue-bias-relu-f16", "epilogue-accumulate", "8wave-odd-k-steps",
               "i8-abt-edges-k2", "fp8-abt-edges-k2", "halved-merged", "i8-abt-edges-k1030",
               "i8-abt-edges-k1000", "epilogue-accumulate-bias-row-m48", "fp8-mixed",
               "halved-merged-atbt", "held-whole", "held-whole-staged",
               *(f"epilogue-{kind.replace('_', '-')}" for kind in EPILOGUES
                 if kind != "trunc_f16")]     # its twin truncf to bf16: _as_f16
#: one configuration of each family with no other round-trip test (test_iree_round_trip.py:
#: bf16 4096^3 and i8; test_iree_pingpong.py: IREE's 8-wave kernels but A^T x B^T); fp8
#: K = 1028 and i8 VectorDistribute are other element types of unaligned K and
#: VectorDistribute, one epilogue stands for them all, f16 and E5M2 are here for the
#: random order only
#: (not again where another family's round trip hands back the same mechanism: the odd
#: VectorDistribute remainder as vector-distribute-fp8's loop, the K-step-128 A x B and the
#: 64x128 i8 tile as the redistributed copies, the no-DMA copies as the register copies,
#: the halved and merged A^T x B as bf16-atb's transposing reads; the short edge kernels,
#: and the operand held whole (its copies those of the redistributed tiles, the schedule's
#: form the loop's own), here for their two forms only)
ROUND_TRIP = [f for f in KERNELS if f not in ("bf16-abt-4096", "epilogue-bias-relu-f16",
                                              "epilogue-accumulate", "fp8-k1028",
                                              "i8-vector-distribute", "f16-abt",
                                              "fp8e5m2-abt", "vector-distribute-odd",
                                              "bf16-ab-k128", "i8-abt-64x128", "no-dma",
                                              "i8-abt-edges-k2", "fp8-abt-edges-k2",
                                              "halved-merged", "i8-abt-edges-k1030",
                                              "i8-abt-edges-k1000", "fp8-mixed",
                                              "halved-merged-atbt", "held-whole",
                                              "held-whole-staged")
              and not (f.startswith("epilogue-") and f != "epilogue-batch")]
#: the MFMA each family's loop multiplies with, in the assembly (default: bf16 16x16x32)
MFMA = {"fp8-abt": "v_mfma_f32_16x16x128_f8f6f4", "fp8-ab": "v_mfma_f32_16x16x128_f8f6f4",
        "fp8-k1028": "v_mfma_f32_16x16x128_f8f6f4", "i8-abt-64x128": "v_mfma_i32_16x16x64_i8",
        "i8-vector-distribute": "v_mfma_i32_16x16x64_i8",
        "vector-distribute-fp8": "v_mfma_f32_16x16x128_f8f6f4",
        "epilogue-bias-relu-f16": "v_mfma_f32_16x16x32_f16",
        "mfma32": "v_mfma_f32_32x32x16_bf16", "unaligned-sizes": "v_mfma_f32_32x32x8_bf16"}


@pytest.fixture(autouse=True)
def _code_objects_shared():
    """A kernel test_iree_configurations.py built (``--emit=hsaco``) is emulated here
    without building it again, and a kernel pipelined for a round trip (``-o``, MLIR) that
    another module hands back too is pipelined once (``build_cache.share_code_objects``)."""
    with share_code_objects(emits=("hsaco", "mlir")):
        yield


def _source(family: str) -> tuple[str, tuple]:
    """The MLIR source of ``family``'s matmul and its iree-compile flags."""
    (kind, what), _ = KERNELS[family]
    if kind == "config":
        args, flags, _reason = CONFIGS[what]
        return G.matmul_source(**args), tuple(flags)
    if kind == "committed":
        return G.matmul_source(**G.CONFIGS[what]), ()
    if kind == "epilogue":
        return E.epilogue_source(**what), ()
    return G.matmul_source(**(G.EIGHT_WAVE[what] if kind == "8wave" else what)), ()


def _form(family: str, form: str, directory: Path) -> Path:
    """IREE's kernel of ``family`` in ``form``, written to ``directory`` (the committed file
    for the committed inputs)."""
    (kind, what), _ = KERNELS[family]
    if kind == "committed":
        return DATA / f"{what}.{form}.mlir"
    source, flags = _source(family)
    fn = G.prefetch_point if form == "prefetch" else G.late_form
    path = directory / f"{family}.{form}.mlir"
    path.write_text(fn(source, flags))
    return path


#: the families of :data:`FORMS_AGREE` no other module builds: taken to their schedule only
UNBUILT = {"fp8-abt-edges-k2"}
#: ... and the forms of others taken to their schedule only: i8-abt-edges-k1000's prefetch
#: point (its late form is built, for :data:`RANDOM`, which emulates it from that build)
UNBUILT_FORMS = {("i8-abt-edges-k1000", "prefetch"),
                 # (the same: its late form built for RANDOM, the one its fix is in)
                 ("epilogue-accumulate-bias-row-m48", "prefetch"), ("fp8-mixed", "prefetch"),
                 # test_iree_epilogues.py emulates truncf to bf16 at the prefetch point and
                 # to f16 in its late form only (one text but for the type: its ONE_FORM)
                 ("epilogue-trunc-bf16", "late"),
                 # ... and bias + relu and the bias of M at the prefetch point only (their late
                 # forms' builds and runs are of the long tier: its LONG)
                 ("epilogue-bias-relu-f16", "late"), ("epilogue-bias-row", "late")}
#: the families of :data:`ROUND_TRIP` whose prefetch point the run builds to a code object
#: anyway (test_iree_configurations.py: those of :data:`CONFIG_OF`; test_iree_pingpong.py:
#: IREE's 8-wave kernels; :func:`test_both_forms_give_one_schedule`: the rest of
#: :data:`FORMS_AGREE` but :data:`UNBUILT`): the round trip hands back the lowered MLIR that
#: build keeps on the way (``build_cache.KEPT_STAGES``: ``--emit=mlir``'s text), the passes
#: run once; the others are pipelined with ``-o pipelined.mlir``
BUILT_ELSEWHERE = {f for f in ROUND_TRIP if KERNELS[f][0][0] in ("config", "8wave") or
                   (f in FORMS_AGREE and f not in UNBUILT)}


#: the items of :func:`test_both_forms_give_one_schedule` and
#: :func:`test_round_trip_builds_a_vmfb` in the long tier only (2026-12-07, the function
#: rule of docs/testing.md, "The long tier": every function of pipeline_mlir each runs is
#: run by the default items left of the IREE modules, coverage.py per item) -> the item of
#: the default run that checks the same on another family
FORMS_LONG = {f: f"{FUNCTIONS_RUN}; test_both_forms_give_one_schedule[{by}] compares another "
              "family's two forms" for f, by in (
                  ("no-dma", "epilogue-bias-row"), ("8wave-odd-k-steps", "bf16-abt-4096"),
                  ("epilogue-batch", "epilogue-accumulate-bias-row-m48"),
                  ("fp8-mixed", "epilogue-bias-relu-f16"),
                  ("halved-merged", "epilogue-bias-row"), ("odd-k-steps", "bf16-abt-4096"),
                  ("i8-abt-edges-k1000", "epilogue-accumulate-bias-row-m48"))}
ROUND_TRIP_LONG = {f: f"{FUNCTIONS_RUN}; test_round_trip_builds_a_vmfb[{by}] hands another "
                   "family's kernel back" for f, by in (
                       ("unaligned-k-small", "fp8-ab"), ("redistributed", "fp8-ab"),
                       ("unaligned-sizes", "mfma32"), ("epilogue-batch", "unaligned-k"))}


@needs_iree
@pytest.mark.parametrize("family", marked(FORMS_AGREE, FORMS_LONG))
def test_both_forms_give_one_schedule(family, tmp_path, generated):
    """The schedule (``--emit=schedule-json``'s) of each form: the one its code object is
    built with, kept on the way by that build (``build_cache.KEPT_STAGES``), where the
    modules that emulate the family build that form anyway, through the run's code-object
    store (test_iree_emulate.py, test_iree_epilogues.py, test_tails_iree.py,
    test_shared_remainder_iree.py; of a configuration of ``iree_configs.CONFIGS``, the forms
    ``iree_configs.forms_agree`` takes from test_iree_configurations.py's builds): the passes
    run once per form; of :data:`UNBUILT` and :data:`UNBUILT_FORMS`,
    ``--emit=schedule-json`` itself (no lowering, no LLVM; once per run)."""
    if KERNELS[family][0][0] == "config":
        forms_agree(generated, KERNELS[family][0][1])
        return
    schedules = []
    for form in ("prefetch", "late"):
        src = str(_form(family, form, tmp_path))
        if family in UNBUILT or (family, form) in UNBUILT_FORMS:
            spec, text = KERNELS[family][1], Path(src).read_text()
            schedules.append(cached(f"{spec}-schedule-json", text, lambda: compile(
                CompileOptions(schedule=spec, emit="schedule-json", text=text)
            ).checked_output()))
            continue
        result = compile(CompileOptions(schedule=KERNELS[family][1], emit="hsaco", input=src,
                                        stages=("schedule-json",)))
        result.checked_output()         # PipelineError with the diagnostics if it failed
        schedules.append(result.stages["schedule-json"])
    assert schedules[0] == schedules[1]


def _as_f16(text: str) -> str:
    """A form of IREE's truncf-to-bf16 epilogue kernel as its truncf-to-f16 one's: ``bf16``
    renamed ``f16`` (A, B, the MFMA, C; the target's line, which lists every type, aside).
    The f16 kernel's two forms are so (checked below), so their schedules are bf16's
    (compared above) and not compared again."""
    return TARGET_LINE.sub("", text.replace("bf16", "f16"))


@needs_iree
def test_truncf_to_f16_is_truncf_to_bf16_renamed(tmp_path):
    """Each form of the truncf-to-f16 kernel is the truncf-to-bf16 one's, renamed
    (:func:`_as_f16`); the rename does not make one form the other."""
    texts = {(f, form): _form(f"epilogue-trunc-{f}", form, tmp_path).read_text()
             for f in ("bf16", "f16") for form in ("prefetch", "late")}
    for form in ("prefetch", "late"):
        assert _as_f16(texts["bf16", form]) == TARGET_LINE.sub("", texts["f16", form]), form
    assert _as_f16(texts["bf16", "prefetch"]) != TARGET_LINE.sub("", texts["f16", "late"])


@needs_iree
@pytest.mark.parametrize("family", marked(ROUND_TRIP, ROUND_TRIP_LONG))
def test_round_trip_builds_a_vmfb(family, tmp_path, capsys):
    """Pipelined from the prefetch point, handed back by executable substitution:
    ``iree-compile`` takes our executable and builds the ``.vmfb``, and the kernel it
    compiled multiplies with the family's MFMA (its loop may be unrolled by LLVM when
    it runs few iterations)."""
    pipelined, src = tmp_path / "pipelined.mlir", _form(family, "prefetch", tmp_path)
    if family in BUILT_ELSEWHERE:   # --emit=mlir's text, kept by the run's build of the kernel
        pipelined.write_text(shared_build(KERNELS[family][1], stages=("mlir",),
                                          input=str(src)).stages["mlir"])
    else:
        rc = main([f"--pipeline={KERNELS[family][1]}", str(src), "-o", str(pipelined)])
        assert rc == 0, capsys.readouterr().err
    source, _flags = _source(family)
    vmfb, dump = tmp_path / "k.vmfb", tmp_path / "dump"
    note = G.substitute(source, str(pipelined), vmfb, dump)
    assert "substituted with MLIR source" in note and vmfb.stat().st_size > 0, note
    (asm,) = dump.glob("*.rocmasm")
    fn = next(f for f in parse_asm(asm.read_text()).functions
              if any(i.kind == "mfma" for i in f.instrs()))
    kinds = {i.mnemonic for i in fn.instrs() if i.kind == "mfma"}
    assert kinds == {MFMA.get(family, "v_mfma_f32_16x16x32_bf16")}, kinds
    assert any(i.kind == "barrier" for i in fn.instrs())


#: (family, form) pairs of the families no other test runs with memory completing in a
#: random order (test_iree_configurations.py runs every configuration in late mode): IREE's
#: default kernel (f16 2048x2048x1024: the 4096^3 ones take seconds more to emulate), fp8
#: A x B^T (E5M2, K = 1024), i8 at 64x128, no DMA, i8 VectorDistribute, the MFMAs halved
#: and 2 K steps merged (bf16 A^T x B 300x200x160), i8 A x B^T 33x257x1000's late form (its
#: clamped rows read at the tile's rows, its half-folded copy a plain read past the end;
#: workgroups 0 and 4, the one with B's single row left), f16 C += A x B^T + a bias of M
#: 48x148x878's late form (its half-folded copy read at its own masked load's index), fp8
#: with B in E5M2 (the mixed MFMA)
RANDOM = [("f16-abt", "prefetch"), ("fp8e5m2-abt", "late"), ("i8-abt-64x128", "prefetch"),
          ("no-dma", "late"), ("i8-vector-distribute", "late"), ("halved-merged", "late"),
          ("i8-abt-edges-k1000", "late"), ("epilogue-accumulate-bias-row-m48", "late"),
          ("fp8-mixed", "late")]


def test_the_forms_built_here_for_the_configurations_are_named():
    """``iree_configs.FAMILIES_BUILD``, the forms whose schedule ``forms_agree`` takes from a
    build of this module, is every form of a configuration the default run does not build
    otherwise that this module builds to a code object through the run's store: the
    prefetch point a round trip hands back (:data:`BUILT_ELSEWHERE`: the kept MLIR of that
    build) and the form a random-order run emulates.  A form named and no longer built here
    would cost a build; one built and not named, a schedule pipelined twice."""
    built = {(CONFIG_OF[f], "prefetch") for f in ROUND_TRIP
             if f in CONFIG_OF and f in BUILT_ELSEWHERE} | \
        {(CONFIG_OF[f], form) for f, form in RANDOM if f in CONFIG_OF}
    assert FAMILIES_BUILD == {(name, form) for name, form in built
                              if name not in LONG and not built_by_default(name, form)}


#: the items of :data:`RANDOM` in the long tier only (2026-12-07): no line or branch of
#: pipeline_mlir they run is left unrun by the default items of this module and of
#: test_iree_configurations.py and test_iree_config_tiles.py (coverage.py per item,
#: docs/testing.md, "The long tier") -> what stands for them
RANDOM_LONG = {
    ("f16-abt", "prefetch"): "f16 2048x2048x1024 is bf16 1024x4096x2048's text but for the "
    "type and the numbers (iree_configs.LONG), whose prefetch point "
    "test_iree_configurations.py's test_configuration[bf16_abt_1024x4096x2048-prefetch] "
    "builds and runs exact; random orders of the configurations in test_iree_config_tiles.py",
}


@needs_iree
@pytest.mark.parametrize("family, form", [
    pytest.param(f, form, marks=pytest.mark.long(RANDOM_LONG[f, form]))
    if (f, form) in RANDOM_LONG else (f, form) for f, form in RANDOM])
def test_exact_in_random_order(family, form, tmp_path, capsys):
    """The kernel computes C exactly on the emulator (two workgroups), memory completing in
    a random order the counters allow."""
    rc = main([f"--pipeline={KERNELS[family][1]}", "--emulate",
               str(_form(family, form, tmp_path)), "--emulate-workgroups=2",
               "--emulate-mode=random:29"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=random" in out and ": exact, max error 0" in out, out + err
