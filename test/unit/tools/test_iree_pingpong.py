"""``--pipeline=pingpong`` on IREE's 8-wave (512-thread) bf16, f16, fp8 and i8 kernels.

IREE 3.13 builds a 256x256 or 256x128 workgroup tile with 8 waves when the matmul carries
a ``compilation_info`` (``test/data/iree/generate.py``: ``compilation_info``,
``EIGHT_WAVE``); each is generated here with ``iree-compile`` (1024x1024xK, K of 6 K steps
or more: ``generate.steady_k``, once per session), taken at IREE's prefetch point and in its
late form, and pipelined with ``--pipeline=pingpong`` and no other option:

* both forms give the same schedule, and that schedule (``--emit=schedule``, before
  ``sched-fix-hazards`` could add anything) is hazard-free in the simulator;
* the kernel runs 8 waves per workgroup on the emulator and computes C exactly, memory
  completing as late as the counters allow and in a random order they allow, every wave
  going round the pipelined loop at least twice (``steady_loop.assert_steady``);
* a kernel that is another's text but for the element type in both forms (``TWINS``: f16
  of bf16, E5M2 of E4M3FN) is built from the prefetch point only, its code object that
  kernel's instruction for instruction but for the MFMAs' type, and run in the late mode
  (its MFMAs); its late form and its random order are its twin's;
* handed back to ``iree-compile`` (executable substitution), the code object it builds is
  exact too (one kernel per family: ``HANDED_BACK``);
* the schedule takes the geometry of the loop's element type (bf16, f16, fp8 E4M3FN and
  E5M2 with their 16x16x128 MFMA and K step 128, i8), read from the kernel (checked in the
  item that compares the forms' schedules);
* a K step of 128 (bf16 / f16 ``A x B``, bf16 ``A^T x B^T`` at 128x128): 16 transposing
  reads per subtile, more than lgkmcnt holds (``schedule/long_loads.py``);
* a K step of 128 at 256x256 and 256x128 (bf16): two stages do not fit LDS, so the K step
  is split into two sub-steps of 64 (``frontend/ksplit.py``), IREE's XOR swizzle kept
  because it does not permute the sub-step's element bit; a swizzle that does
  (``xor_shuffle<128, 8>``, made consistently in copies and reads) is refused with that
  reason;
* 32x32 MFMAs (bf16's 32x32x16, i8's 32x32x32, FP8's 32x32x64): ``pingpong{mfma=...}``,
  read from the kernel; further configurations (``EIGHT_WAVE_VARIANTS``: f16, other wave
  grids, 256x128, K steps 32 and 128) are checked more cheaply: the same schedule from both
  forms, exact from the prefetch point in the late and the random mode (and one late
  form, ``LATE_RUN``, built and exact in the late mode in the long tier);
* a 32x32 MFMA tile one fragment wide per wave (i8 256x128 in 2x4 waves of 128x32): that
  operand's subtiles are its K halves (``frontend/k_subtiles.py``); one fragment wide in
  both operands (i8 64x128 in 2x4 waves of 32x32): both split along K crosswise;
* a tile one fragment wide in both operands per wave whose K step is too small for the
  crosswise split (one MFMA per MMA block, or a chain of 2 that does not cut into its 4
  runs: FP8 64x128 in 2x4 waves of 32x32 at K step 128) has two K steps merged into each
  K tile (``frontend/kmerge.py``);
* what the ping-pong schedule does not take is refused at an op of IREE's kernel: IREE's
  default 4-wave kernel, that FP8 tile with too few K steps to merge (2).

A kernel that takes the path of another the default run keeps (:data:`LONG`: i8 16x16 and
32x32 of bf16's, the other 32x32 tiles and wave grids, two :data:`TWINS`) has its items in
the long tier (``PIPELINE_TEST_LONG=1``), a twin's text check staying in the default run;
so do the build and run of most late forms (:data:`LATE_UNBUILT`: taken to their schedule
only in the default run).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from build_cache import cached, share_code_objects
from iree_configs import assert_type_twin
from steady_loop import assert_steady, counting_loops
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.driver.simulate import SimulateOptions, simulate
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import Matmul, emulate_matmul
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402
from long_tier import FUNCTIONS_RUN  # noqa: E402

IREE = ROOT / "test" / "data" / "iree"
NAMES = list(G.EIGHT_WAVE)
#: 8-wave configurations too short for the one form that takes them, run as written:
#: name -> (matmul_source arguments, the warning at the loop, the workgroups emulated)
SHORT = {
    # FP8 32x32x64 MFMAs on a 64x128 tile in 2x4 waves of 32x32, K step 128: one fragment
    # of A and one of B per wave, and 2 K steps, too few to split both along K crosswise;
    # merged in pairs (frontend/kmerge.py) they would be (K = 896 is: iree-pingpong.md), but
    # K = 256 is 2 K steps, fewer than two iterations of 2 merged ones (before: refused)
    "fp8_abt_64x128_2x4_32x32_k256": (
        G.matmul_source(dtype="fp8", m=1024, n=1024, k=256, mma="MFMA_F32_32x32x64_F8E4M3FN",
                        tile=(64, 128, 128), waves=(2, 4)),
        "no form takes it as it is (its copies split into the schedule's subtiles, its MFMAs "
        "halved along K, an operand held whole: each refused), and its K steps merged, the "
        "one form left, need more of them: the loop runs 2 K steps, fewer than the 4 that 2 "
        "iterations of 2 merged K steps (the schedule's loop and its two stages) need; the "
        "loop runs as written", 2),
    # f16 A x B, 32x32x16 MFMAs on a 64x128 tile in 2x4 waves, K step 16, 5 K steps (the
    # twenty-fourth sweep's draw: refused before, saying "the loop runs 4 K steps" of 5)
    "f16_ab_64x128_2x4_32x32_k80": (
        G.matmul_source(dtype="f16", m=384, n=256, k=80, transpose_b=False,
                        mma="MFMA_F32_32x32x16_F16", tile=(64, 128, 16), waves=(2, 4)),
        "need more of them: the loop runs 4 K steps, fewer than the 8 that 2 iterations of 4 "
        "merged K steps (the schedule's loop and its two stages) need (4 of the loop's 5: 1 "
        "cut off into a remainder loop after it); the loop runs as written", 12),
}


#: kernel -> the kernel whose text it is in both forms but for the element type (IREE's
#: names of it renamed, ``iree_configs.assert_type_twin``):
#: its late form is not built (the twin's is, and gives the twin's one schedule, which is
#: ours: checked), and its code object is the twin's but for the MFMAs' type (checked), so
#: its random-order run is the twin's (or, :data:`RANDOM_BY`, that of the twin's spec)
TWINS = {"matmul_f16_abt_256x256_8wave": "matmul_bf16_abt_256x256_8wave",
         "matmul_fp8e5m2_abt_256x256_8wave": "matmul_fp8_abt_256x256_8wave",
         "matmul_f16_ab_128x128_k128_8wave": "matmul_bf16_ab_128x128_k128_8wave",
         "matmul_f16_abt_256x256_32x32_8wave": "matmul_bf16_abt_256x256_32x32_8wave",
         "matmul_f16_abt_256x256_k128_8wave": "matmul_bf16_abt_256x256_k128_8wave"}

#: the long tier (``long_tier.py``): kernel -> why the default run does not need its items,
#: naming the default-run items that check what they check.  Each takes the path of a kernel
#: the default run keeps: the same lines of the front end, the schedule and the lowering run
#: from both forms (traced by hand) and the same schedule-json, or modulo its numbers; its
#: MFMAs run exact in a kept kernel of its type.  Or it is a :data:`TWINS` kernel whose text
#: check stays (:func:`test_a_twin_is_its_twins_text_but_for_the_type`)
_BOTH = "test_both_forms_give_one_hazard_free_schedule"
_RUN = "test_pipelined_kernel_is_exact_with_8_waves"
_I8 = f"its i8 16x16x64 MFMAs run in {_RUN}[matmul_i8_ab_128x128_8wave-*]"
_I8_32 = f"its i8 32x32x32 MFMAs run in {_RUN}[matmul_i8_abt_256x128_2x4_32x32_8wave-*]"
_AT_256X128 = f"256x128's schedule (max_globals=0) that of {_BOTH}[matmul_bf16_abt_256x128_8wave]"
LONG = {
    "matmul_i8_abt_256x256_8wave":
        f"the path and schedule of {_BOTH}[matmul_bf16_abt_256x256_8wave] (both forms); "
        f"{_I8}; i8 handed back in test_handed_back_to_iree_compile_is_exact",
    "matmul_i8_abt_256x128_8wave":
        f"the path and schedule of {_BOTH}[matmul_bf16_abt_256x128_8wave] (both forms); {_I8}",
    "matmul_i8_abt_256x256_32x32_8wave":
        f"the path and schedule of {_BOTH}[matmul_bf16_abt_256x256_32x32_8wave] (both "
        f"forms); {_I8_32}, handed back in test_handed_back_to_iree_compile_is_exact",
    "matmul_f16_abt_256x256_8wave":
        "a TWINS kernel, bf16 256x256's text but for the type "
        "(test_a_twin_is_its_twins_text_but_for_the_type); f16's 16x16x32 MFMAs run in "
        f"{_RUN}[matmul_f16_ab_128x128_k128_8wave-prefetch]",
    "matmul_bf16_abt_256x256_32x32_4x2_8wave":
        f"the path and schedule form of {_BOTH}[matmul_bf16_abt_256x256_32x32_8wave] (both "
        "forms; 4x2 waves swap the per-load counts)",
    "matmul_bf16_abt_256x128_32x32_8wave":
        f"the path of {_BOTH}[matmul_bf16_abt_256x256_32x32_8wave] (both forms), {_AT_256X128}",
    "matmul_bf16_abt_256x256_32x32_k32_8wave":
        f"the path of {_BOTH}[matmul_bf16_abt_256x256_32x32_8wave] (both forms), {_AT_256X128}",
    "matmul_i8_abt_256x128_32x32_8wave":
        f"the path of {_BOTH}[matmul_bf16_abt_256x256_32x32_8wave] (both forms), "
        f"{_AT_256X128}; {_I8_32}",
    "matmul_fp8_abt_256x128_32x32_8wave":
        f"the path and schedule form of {_BOTH}[matmul_fp8_abt_256x256_32x32_8wave] (both "
        "forms)",
    "matmul_f16_abt_256x256_k128_8wave":
        "a TWINS kernel, bf16 256x256 K step 128's text but for the type "
        "(test_a_twin_is_its_twins_text_but_for_the_type), whose split K step "
        f"{_BOTH}[matmul_bf16_abt_256x256_k128_8wave] checks",
}
#: kernels whose late form the default run takes to its schedule only (``--emit=schedule-json``
#: in :func:`test_both_forms_give_one_hazard_free_schedule`: the front end's whole run on
#: it), its build and run exact in the long tier.  A late form's lowering runs the lines of
#: its prefetch point's and 12 more, the same for every kernel but one line of
#: passes/buffer_soffset.py (traced by hand), all of which bf16 256x256's late form runs; the
#: default run builds that one and those of 256x256 at K step 128 and with 32x32 MFMAs
#: (whose late runs test_iree_mutants.py counts on: its ``PINGPONG_RUN``); 256x128 at K step
#: 128 (the mutation campaign's ``k128wn``, long tier there too) takes 256x256's split K
#: step from both forms
LATE_UNBUILT = ["matmul_bf16_abt_256x128_8wave", "matmul_bf16_abt_256x128_k32_8wave",
                "matmul_fp8_abt_256x256_8wave", "matmul_fp8_abt_256x128_8wave",
                "matmul_bf16_ab_128x128_k128_8wave", "matmul_bf16_atbt_128x128_k128_8wave",
                "matmul_fp8_abt_256x256_32x32_8wave", "matmul_i8_abt_256x128_2x4_32x32_8wave",
                "matmul_fp8_ab_128x128_8wave", "matmul_i8_ab_128x128_8wave",
                "matmul_bf16_abt_256x128_k128_8wave"]
LONG.update({f"{n}-late": f"its late form's front end runs in {_BOTH}[{n}] (one schedule "
             f"from both forms), its lowering the lines of {_RUN}[{n}-prefetch] and of "
             f"{_RUN}[matmul_bf16_abt_256x256_8wave-late]" for n in LATE_UNBUILT})
LONG["matmul_bf16_abt_256x128_k128_8wave-late"] += \
    f"; a split K step's late form built and run in " \
    f"{_RUN}[matmul_bf16_abt_256x256_k128_8wave-late]"


#: items of one test function each in the long tier only (2026-12-07, the function rule of
#: docs/testing.md, "The long tier": every function of pipeline_mlir each runs is run by the
#: default items left of the IREE modules, coverage.py per item), by id -> the default item
#: that checks the same on another kernel
BOTH_LONG = {n: f"{FUNCTIONS_RUN}; {_BOTH}[{by}] checks another kernel's two forms" for n, by in (
    ("matmul_f16_ab_128x128_k128_8wave", "matmul_bf16_ab_128x128_k128_8wave"),
    ("matmul_fp8e5m2_abt_256x256_8wave", "matmul_fp8_abt_256x256_8wave"))}
VARIANT_LONG = {n: f"{FUNCTIONS_RUN}; test_variant_forms_agree_and_run_exact"
                "[matmul_fp8_abt_64x128_2x4_32x32_8wave] checks another variant"
                for n in ("matmul_i8_abt_64x128_2x4_32x32_8wave",
                          "matmul_i8_abt_128x128_32x32_8wave")}


def _items(keys, values=None, own: dict | None = None) -> list:
    """The parameters ``values`` (default ``keys``) with ids ``keys``, an item of :data:`LONG`
    (by its id, or its kernel's: the id up to its first ``-``) or of ``own`` (one test
    function's long items, by id) marked for the long tier."""
    def marks(key: str) -> list:
        reason = (own or {}).get(key) or LONG.get(key, LONG.get(key.split("-")[0]))
        return [] if reason is None else [pytest.mark.long(reason)]
    return [pytest.param(*(v if isinstance(v, tuple) else (v,)), id=k, marks=marks(k))
            for k, v in zip(keys, keys if values is None else values)]


@pytest.fixture(autouse=True)
def _code_objects_shared():
    """A kernel emulated in both memory modes is compiled once per run
    (``build_cache.share_code_objects``)."""
    with share_code_objects():
        yield


@pytest.fixture
def generated(tmp_path_factory):
    """(config, form) -> the path of IREE's kernel, generated once per run (both forms from
    one ``iree-compile`` run, kept in the run's build cache: the tests spread over the
    workers without building a kernel twice)."""
    def source(name: str) -> str:
        if name in G.EIGHT_WAVE or name in G.EIGHT_WAVE_VARIANTS:
            return G.matmul_source(**{**G.EIGHT_WAVE, **G.EIGHT_WAVE_VARIANTS}[name])
        return SHORT[name][0]
    return G.form_files(tmp_path_factory.mktemp("iree_8wave"), source)


def _pipelined(src: Path, form: str):
    """The ``CompileResult`` of IREE's kernel ``src`` pipelined with ``pingpong``: the code
    object, and from the same run of the passes (the compile API's ``stages``) the module
    after ``sched-adopt-loop``, the schedule (``--emit=schedule-json``'s text) and, for the
    prefetch point, the lowered MLIR (``--emit=mlir``'s, handed back to ``iree-compile``).
    Built once per run through the code-object store (``share_code_objects``), which then
    holds the plain ``--emit=hsaco`` build too: ``--emulate`` of the kernel compiles
    nothing."""
    stages = ("adopted", "schedule-json") + (("mlir",) if form == "prefetch" else ())
    result = compile(CompileOptions(schedule="pingpong", input=str(src), emit="hsaco",
                                    stages=stages))
    result.checked_output()         # PipelineError with the diagnostics if it failed
    return result


def _scheduled(src: Path) -> SimpleNamespace:
    """IREE's kernel ``src`` pipelined with ``pingpong`` to its schedule only
    (``--emit=schedule-json``: no lowering, no LLVM), the module after ``sched-adopt-loop``
    kept on the way: ``stages`` as :func:`_pipelined`'s."""
    result = compile(CompileOptions(schedule="pingpong", input=str(src), emit="schedule-json",
                                    stages=("adopted",)))
    return SimpleNamespace(stages={"adopted": result.stages["adopted"],
                                   "schedule-json": result.checked_output()})


def _run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _refused(rc: int, err: str, src: Path, reason: str) -> None:
    assert rc == 1 and reason in err and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err  # at an op


@pytest.mark.parametrize("name", _items(NAMES, own=BOTH_LONG))
def test_both_forms_give_one_hazard_free_schedule(generated, name, capsys, tmp_path):
    """Both forms: 512 threads, the loop's ``sched.options`` naming its element type's
    geometry (:func:`_check_geometry`), and one schedule; that schedule is the one its adopted
    spec compiles to, and hazard-free in the simulator (one item per kernel: the schedule is
    the same for both forms, and the simulations take only the spec and the schedule).  A
    :data:`TWINS` kernel's late form is its twin's but for the type, and its schedule the
    twin's (:func:`_as_its_twin`)."""
    schedules = {}
    for form in ("prefetch",) if name in TWINS else ("prefetch", "late"):
        src = generated(name, form)
        assert "gpu.known_block_size = array<i32: 512, 1, 1>" in src.read_text()
        # one front-end run per form (the kernel's build): the schedule, and the loop as
        # sched-adopt-loop left it; a LATE_UNBUILT late form to its schedule only
        done = _scheduled(src) if form == "late" and name in LATE_UNBUILT else \
            _pipelined(src, form)
        spec, options, text = _adopted_spec(done.stages["adopted"])
        _check_geometry(name, text)
        schedules[form] = done.stages["schedule-json"]
        if form == "prefetch":
            built = done
    if name in TWINS:
        schedules["late"] = _as_its_twin(generated, name, built)
    assert schedules["prefetch"] == schedules["late"]
    # the kernel's schedule is its spec's own: every field of the compiled schedule
    # (schedule-json: the printed format's fields and more), so the spec's printed schedule
    # is the kernel's too
    rc, out, err = _run(capsys, f"--pipeline={spec}", "--emit=schedule-json")
    assert rc == 0 and out == schedules["late"], err
    dump = tmp_path / "schedule.txt"
    rc, _, err = _run(capsys, f"--pipeline={spec}", "--emit=schedule", "-o", str(dump))
    assert rc == 0, err
    rc, out, err = _simulated(spec)
    assert rc == 0 and ": safe for main loops of 0..6 iterations: no hazard, every " \
        "accumulator receives each K tile once" in out, out + err
    # the schedule as printed (before sched-fix-hazards): no hazard; with a load issued in
    # runs (more reads than lgkmcnt holds), whose last run leaves up to 15 reads in flight,
    # at most counter overflows at the next fragment load, which sched-fix-hazards fixes
    # with a wait before it (the kernel above is safe)
    rc, out, err = _simulated(spec, dump)
    found = set(re.findall(r"^  \[([a-z-]+/[a-z]+)\]", out, re.M))
    split = max(int(options["lgkm_per_load_a"]), int(options["lgkm_per_load_b"])) > 15
    assert found <= ({"counter/lgkmcnt"} if split else set()), out + err
    assert (rc == 0) == (not found) and "\n  hazards:" in out, out + err


def _as_its_twin(generated, name: str, built) -> str:
    """The schedule of the :data:`TWINS` kernel ``name``'s twin (``--emit=schedule-json``,
    the one of both its forms: its own item checks it), after checking that both forms of
    ``name`` are the twin's text with the type renamed (:func:`_same_text_but_type`), that
    the twin's schedule is ``name``'s (``built``: its prefetch point's build) and that
    ``name``'s code object is the twin's instruction for instruction but for its MFMAs'
    type (the opcode, or FP8's format fields ``cbsz`` and ``blgp``)."""
    twin = TWINS[name]
    assert twin in NAMES and twin not in TWINS, (name, twin)
    _same_text_but_type(generated, name, twin)
    other = _pipelined(generated(twin, "prefetch"), "prefetch")     # the run's build of it
    assert built.stages["schedule-json"] == other.stages["schedule-json"], (name, twin)
    assert _but_mfma_type(built.output) == _but_mfma_type(other.output), \
        f"{name}'s code object is not its twin {twin}'s but for the MFMAs' type"
    return other.stages["schedule-json"]


def _same_text_but_type(generated, name: str, twin: str) -> None:
    """Both forms of ``name`` are ``twin``'s text with the type renamed
    (``iree_configs.assert_type_twin``)."""
    assert_type_twin(generated, name, twin,
                     {**G.EIGHT_WAVE, **G.EIGHT_WAVE_VARIANTS}[name]["dtype"],
                     "take it out of TWINS")


def _but_mfma_type(hsaco: bytes) -> list:
    """The code object's instructions (name and fields), an MFMA's without its type."""
    def plain(ins):
        if not ins.name.startswith("v_mfma"):
            return ins.name, ins.f
        return re.sub(r"_(bf16|f16)$", "", ins.name), \
            {k: v for k, v in ins.f.items() if k not in ("cbsz", "blgp")}
    return [plain(ins) for ins in load_kernel(hsaco).instrs]


def _simulated(spec: str, dump: Path | None = None) -> tuple[int, str, str]:
    """(exit status, report, error line) of ``pipeline-opt --simulate --pipeline=SPEC`` of the
    spec's own kernel, or with ``dump`` of that printed schedule (``--report``): what it
    gives depends on the spec and the schedule's text only, so kernels whose loops adopt the
    same spec (bf16 256x256 at K step 64 and 128, fp8 E4M3FN and E5M2, ...) simulate it once
    per run (the run's build cache).  Both are the functional model's alone (``--simulate``'s
    API with no cost table, ``SimulateOptions.tables`` empty): what is checked here is
    hazard-freedom, and the hazards it lists take no costs.  The timing runs were nearly
    all of the CPU (0.2 to 0.6 s a spec against 0.01 to 0.1 s); the one thing they checked
    beyond the functional model, a barrier deadlock (from the waves' barrier counts), the
    emulator checks on every kernel's code object, both forms, in
    test_pipelined_kernel_is_exact_with_8_waves (``barrier-mismatch``: the waves' barrier
    counts differ, a finding that fails the run).  test_simulate.py runs the timing model."""
    text = None if dump is None else dump.read_text()
    return cached("pingpong-hazards-report", (spec, text), lambda: _hazards_report(spec, dump))


def _hazards_report(spec: str, dump: Path | None) -> tuple[int, str, str]:
    """(exit status, report, error line) of ``pipeline-opt --simulate [DUMP]
    --pipeline=SPEC --report`` with no timing run (``SimulateOptions.tables`` empty)."""
    result = simulate(SimulateOptions(spec, None if dump is None else str(dump), tables=()))
    return (0 if result.problem is None else 1), result.report.text(), result.problem or ""


def _check_geometry(name: str, options: str) -> None:
    """The schedule the loop stands for names the loop's element type (bf16, f16, fp8, i8:
    each its own ping-pong geometry), never another type's, and the loop's MFMA shape when
    it is not the type's own (``mfma``: IREE's forced 32x32x16)."""
    cfg = G.EIGHT_WAVE[name]
    dtype = cfg["dtype"].removesuffix("e5m2")  # E5M2: the fp8 geometry
    shape = re.search(r"_(\d+x\d+x\d+)_", cfg.get("mma", ""))  # the forced MFMA, if any
    assert f'dtype = "{dtype}"' in options and \
        f'is_fp8 = {str(dtype == "fp8").lower()}' in options, options
    assert (f'mfma = "{shape.group(1)}"' in options) if shape else "mfma" not in options, \
        options


def _adopted_spec(dump: str) -> tuple[str, dict, str]:
    """The ping-pong spec the front end infers (the one ``sched.options`` of the loop in
    ``dump``, the module after ``sched-adopt-loop``: dtype and the kernel's per-load
    counts), those options and their text."""
    found = re.findall(r"sched\.options = \{([^}]*)\}", dump)
    assert len(found) == 1, found
    options = dict(re.findall(r'(\w+) = "?([\w-]+)"?(?: : i64)?', found[0]))
    return ("pingpong{" + " ".join(f"{k}={v}" for k, v in options.items()) + "}", options,
            found[0])


#: kernels run in the late mode only -> the kernel whose loop adopts the same spec (so
#: compiles to the same schedule: the same waits and barriers), which runs in the random
#: order too: the bf16 K step of 128 split into two of 64 (frontend/ksplit.py) and the same
#: tile at K step 64 (checked where it is used: :func:`_same_spec_runs_random`; the
#: :data:`TWINS` run in the late mode only too)
RANDOM_BY = {
    "matmul_bf16_abt_256x256_8wave": "matmul_bf16_abt_256x256_k128_8wave",
    "matmul_bf16_abt_256x128_8wave": "matmul_bf16_abt_256x128_k128_8wave",
}


def _same_spec_runs_random(generated, name: str, built) -> bool:
    """Whether the kernel ``name`` (its prefetch point's build ``built``) runs in the random
    order: unless :data:`RANDOM_BY` names a kernel whose loop adopts the same spec (both
    builds from the run's cache), which does, or it is a :data:`TWINS` kernel (its code
    object its twin's but for the MFMAs' type: the same memory operations, waits and
    barriers, :func:`_as_its_twin`), whose twin's run (or its spec's) is its own."""
    if name in TWINS:
        _as_its_twin(generated, name, built)
        return False
    by = RANDOM_BY.get(name)
    if by is None:
        return True
    assert by in NAMES and by not in RANDOM_BY and by not in TWINS, (name, by)
    other = _pipelined(generated(by, "prefetch"), "prefetch")
    assert _adopted_spec(built.stages["adopted"])[0] == \
        _adopted_spec(other.stages["adopted"])[0], (name, by)
    return False


_FORM_ITEMS = [(n, f) for n in NAMES for f in ("prefetch", "late")
               if not (n in TWINS and f == "late")]


@pytest.mark.parametrize("name,form", _items([f"{n}-{f}" for n, f in _FORM_ITEMS],
                                             _FORM_ITEMS))
def test_pipelined_kernel_is_exact_with_8_waves(generated, name, form, capsys):
    """The kernel pipelined from ``form`` runs 8 waves exact, memory completing as late as
    the counters allow: one item per form, for the two forms' code objects differ (IREE's
    index arithmetic); the prefetch point's also in a random order the counters allow (one
    compile: the build cache shares it).  The random order checks the waits and barriers,
    which are the schedule's: one schedule for both forms
    (test_both_forms_give_one_hazard_free_schedule), so one form's run covers them, and one
    kernel per spec (:data:`RANDOM_BY`) and of its :data:`TWINS` (the late form of a twin
    is not built: its twin's is, the same text but for the type)."""
    built = _pipelined(generated(name, form), form)  # the one build, whichever item runs first
    random = form == "prefetch" and _same_spec_runs_random(generated, name, built)
    for mode in ("late", "random:11") if random else ("late",):
        with counting_loops() as loops:
            rc, out, err = _run(capsys, "--pipeline=pingpong", "--emulate",
                                str(generated(name, form)), "--emulate-workgroups=2",
                                f"--emulate-mode={mode}")
        assert rc == 0, out + err
        assert_steady(loops)      # the steady loop ran (generate.steady_k)
        # (a K x M A runs as a launch description, which also says how many elements it
        # checked)
        assert re.search(rf"mode={mode.split(':')[0]}: exact, max error 0(?: in C \(\d+ "
                         rf"elements\))?, 2 of ", out), out
        assert "workgroups x 8 waves" in out, out


@pytest.mark.parametrize("name,form", [
    pytest.param(n, f, marks=pytest.mark.long(
        f"{FUNCTIONS_RUN}; [matmul_bf16_abt_256x128_8wave-prefetch] checks a prefetch "
        "point's copies"))
    if (n, f) == (NAMES[0], "prefetch") else (n, f) for n in NAMES[:2]
    for f in ("prefetch", "late")])
def test_every_copy_keeps_its_k_column_in_soffset(generated, name, form):
    """Every buffer->LDS copy of the pipelined kernel takes its K column in ``soffset``
    (``sched-buffer-soffset``): the K index the copies address with is counted in ``i64``
    beside the loop's tested ``i32`` trip counter and bounded by that counter's test
    (``BranchFacts.in_step``, ``test/unit/analysis/test_int_in_step.py``).  Without it, half
    the copies kept their whole offset in ``voffset`` (a vector add per copy: IREE's 4096^3
    256x128 kernel went from 311 to 318 cycles per K tile in the llvm table)."""
    ll = compile(CompileOptions(schedule="pingpong", input=str(generated(name, form)),
                                emit="llvm")).checked_output()
    calls = re.findall(r"call void @llvm\.amdgcn\.((?:raw\.ptr\.buffer\.)?load\.(?:to\.)?lds)", ll)
    assert len(calls) >= 16 and set(calls) == {"raw.ptr.buffer.load.lds"}, sorted(set(calls))


#: the variant whose late form the long tier builds and runs (:func:`test_late_run_is_exact`):
#: FP8's 32x32x64 MFMAs at 64x128, two K steps merged into each K tile, whose late form
#: lowers to code of its own (545 instructions, the prefetch point's 500) and issues a
#: 16-pass XDL MFMA, whose wait states every build checks on every path
#: (driver/wait_check.py)
LATE_RUN = "matmul_fp8_abt_64x128_2x4_32x32_8wave"


@pytest.mark.parametrize("name", _items(list(G.EIGHT_WAVE_VARIANTS), own=VARIANT_LONG))
def test_variant_forms_agree_and_run_exact(generated, name, capsys):
    """A further configuration: both forms give one schedule, and the kernel pipelined from
    the prefetch point is exact with 8 waves, memory completing as late as the counters
    allow and, unless another kernel of its spec does (:data:`RANDOM_BY`), in a random order
    they allow (one compile: the build cache shares it).  The
    late form is taken to its schedule only (``--emit=schedule-json``: no lowering, no
    LLVM; :data:`LATE_RUN`'s is built and run in the long tier), and a :data:`TWINS`
    kernel's is its twin's but for the type (not built)."""
    built = _pipelined(generated(name, "prefetch"), "prefetch")
    late = _as_its_twin(generated, name, built) if name in TWINS else \
        compile(CompileOptions(schedule="pingpong", input=str(generated(name, "late")),
                               emit="schedule-json")).checked_output()
    assert built.stages["schedule-json"] == late
    modes = ["late"] + (["random:7"] if _same_spec_runs_random(generated, name, built) else [])
    for mode in modes:
        _exact_with_8_waves(capsys, generated(name, "prefetch"), mode)


def _exact_with_8_waves(capsys, src: Path, mode: str) -> None:
    """``src`` pipelined with ``pingpong`` runs 8 waves exact on 2 workgroups in ``mode``,
    round its steady loop."""
    with counting_loops() as loops:
        rc, out, err = _run(capsys, "--pipeline=pingpong", "--emulate", str(src),
                            "--emulate-workgroups=2", f"--emulate-mode={mode}")
    assert rc == 0 and f"mode={mode.split(':')[0]}: exact, max error 0, 2 of " in out, \
        out + err
    assert_steady(loops)      # the steady loop ran (generate.steady_k)
    assert "workgroups x 8 waves" in out, out


@pytest.mark.parametrize("name", [pytest.param(LATE_RUN, marks=pytest.mark.long(
    "its late form's front end runs in test_variant_forms_agree_and_run_exact[" + LATE_RUN +
    "] (one schedule from both forms, its prefetch point exact); a late form of this "
    "kernel with K known at launch (merged, its remainders on the schedule's buffers) is "
    "built and exact in test_kmerge.py::test_a_merged_loop_of_sizes_known_at_launch_is_exact"))])
def test_late_run_is_exact(generated, name, capsys):
    """:data:`LATE_RUN`'s late form, built: the schedule of its prefetch point, and exact with
    8 waves in the late mode."""
    late = _pipelined(generated(name, "late"), "late").stages["schedule-json"]
    assert _pipelined(generated(name, "prefetch"), "prefetch").stages["schedule-json"] == late
    _exact_with_8_waves(capsys, generated(name, "late"), "late")


def test_a_kernel_that_is_not_its_twin_is_told(generated):
    """The twins' checks fail where the kernels differ beyond the type: f16 256x256 is not
    bf16 256x128's text (the tile), and f16's 32x32x16 MFMAs are not bf16's 16x16x32 ones
    (the code objects of two kernels the run builds anyway)."""
    with pytest.raises(AssertionError, match="is not its twin matmul_bf16_abt_256x128_8wave"):
        _same_text_but_type(generated, "matmul_f16_abt_256x256_8wave",
                            "matmul_bf16_abt_256x128_8wave")
    ours, other = (_pipelined(generated(n, "prefetch"), "prefetch").output for n in
                   ("matmul_f16_abt_256x256_32x32_8wave", "matmul_bf16_abt_256x256_8wave"))
    assert _but_mfma_type(ours) != _but_mfma_type(other)


@pytest.mark.parametrize("name", [n for n in TWINS if n in LONG])
def test_a_twin_is_its_twins_text_but_for_the_type(generated, name):
    """A :data:`TWINS` kernel whose items are all of the long tier (:data:`LONG`) is its
    twin's text in both forms but for the type (``iree_configs.assert_type_twin``), so that
    the twin's items stand for it in the default run (IREE's kernels only: its build, the
    twin's code object but for the MFMAs' type, is checked by its long-tier items)."""
    _same_text_but_type(generated, name, TWINS[name])


@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_pingpong_refuses_iree_default_4_wave_kernel(form, capsys):
    src = IREE / f"matmul_bf16_abt_4096.{form}.mlir"
    rc, _, err = _run(capsys, "--pipeline=pingpong", str(src), "-o", "-")
    _refused(rc, err, src, "the kernel runs 256 threads (4 waves) but the 'pingpong' "
                           "schedule is written for 8 waves (512 threads)")


def test_pipeline_dtype_that_is_not_the_loops_is_refused(generated, capsys):
    """``pingpong{dtype=bf16}`` on an f16 loop: the payload's element type wins, and the
    disagreement is reported at the loop."""
    src = generated("matmul_f16_abt_256x256_8wave", "prefetch")
    rc, _, err = _run(capsys, "--pipeline=pingpong{dtype=bf16}", str(src), "-o", "-")
    _refused(rc, err, src, "the pipeline asks for dtype=bf16, but the loop's payload has "
                           "dtype=f16")


@pytest.mark.parametrize("form", ["prefetch", "late"])
@pytest.mark.parametrize("name", list(SHORT))
def test_8_wave_loops_too_short_for_their_one_form_run_as_written(generated, name, form,
                                                                  capsys):
    """A loop that only its K steps merged would take, too short for the merge: not
    pipelined, said at the loop (a warning, exit 0), run as written; exact."""
    src = generated(name, form)
    _, warning, workgroups = SHORT[name]
    rc, out, err = _run(capsys, "--pipeline=pingpong", str(src), "-o", "-")
    assert rc == 0 and "sched.pipeline" not in out and "sched.unpipelined" in out, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: warning: sched-adopt-loop: the K-loop "
                    rf"is not pipelined: ", err) and warning in err, err
    assert "scf.for" in err.splitlines()[1], err        # (at the loop)
    rc, out, err = _run(capsys, "--pipeline=pingpong", "--emulate", str(src),
                        "--emulate-mode=late", f"--emulate-workgroups={workgroups}",
                        "--emulate-jobs=1")
    assert rc == 0 and ": exact, max error 0" in out, out + err


#: IREE's xor_shuffle<64, 8> at the prefetch point (the hint and the copies' inverse
#: swizzle) made xor_shuffle<128, 8>: the chunk bits 3..6 then include K's bit 6
MIXING_SWIZZLE = {
    "xor_shuffle<64, 8>": "xor_shuffle<128, 8>",
    "(s0 mod 64) floordiv 8": "(s0 mod 128) floordiv 8",
    "(s0 floordiv 64) mod 8": "(s0 floordiv 128) mod 16",
    "(s0 floordiv 64) * 64": "(s0 floordiv 128) * 128",
}


def test_k_split_refuses_a_swizzle_that_mixes_the_split_bit(generated, capsys, tmp_path):
    text = generated("matmul_bf16_abt_256x256_k128_8wave", "prefetch").read_text()
    for old, new in MIXING_SWIZZLE.items():
        assert old in text, old
        text = text.replace(old, new)
    src = tmp_path / "mixing.mlir"
    src.write_text(text)
    rc, _, err = _run(capsys, "--pipeline=pingpong", str(src), "-o", "-")
    _refused(rc, err, src, "split its K step into 2 sub-steps of 2: LDS buffer "
                           "memref<32768xbf16, #gpu.address_space<workgroup>> is swizzled "
                           "(xor_shuffle<128, 8> permutes its element bits 3..6), which "
                           "mixes the K sub-step's element bit(s) 6")


#: the kernels handed back to ``iree-compile``: one per family of the pipelined MLIR IREE
#: substitutes, a family being an element type (bf16, f16, fp8 E4M3FN, E5M2, i8: its
#: executable's bindings and its MFMA) or a way of reading or multiplying the 8-wave loop
#: needs of the front end (the split K step, frontend/ksplit.py; ``A x B``'s transposing
#: reads, 16-bit ones issued in runs and 8-bit ones; 32x32 MFMAs), each kernel standing for
#: as many families as it has: bf16 256x256 at K step 128 (bf16, the split K step), f16
#: ``A x B`` at K step 128 (f16, 16-bit transposing reads in runs), fp8 ``A x B`` (E4M3FN,
#: 8-bit transposing reads), E5M2 256x256 (its 16x16 MFMA) and i8 256x128 with 32x32 MFMAs
#: (i8, 32x32 MFMAs; i8 ``A x B``, its 16x16 MFMA, in the long tier: :data:`HANDED_BACK_LONG`;
#: kernels the default run builds anyway, where i8 256x256's 16x16 and 32x32 kernels, the
#: same executable interface and MFMAs, are of the long tier; so, since 2026-12-07, are
#: bf16 256x256 K step 128, f16 ``A x B`` and E5M2, whose functions the others run).  The
#: other kernels (other tiles and K steps, the other element types of each way of reading
#: and multiplying) hand back one of these executable interfaces and ways, and are exact in
#: our own build from one form above.  Not A^T x B^T (a code object does not say that A is
#: K x M)
HANDED_BACK = ["matmul_bf16_abt_256x256_k128_8wave", "matmul_f16_ab_128x128_k128_8wave",
               "matmul_fp8_ab_128x128_8wave", "matmul_fp8e5m2_abt_256x256_8wave",
               "matmul_i8_ab_128x128_8wave", "matmul_i8_abt_256x128_2x4_32x32_8wave"]
#: the kernels of :data:`HANDED_BACK` handed back in the long tier only: a second kernel of
#: a family the default run hands back -> why
HANDED_BACK_LONG = {
    "matmul_i8_ab_128x128_8wave": "i8's executable interface handed back with the i8 "
    "256x128 32x32x32 kernel ([matmul_i8_abt_256x128_2x4_32x32_8wave]), 8-bit transposing "
    "reads with fp8 A x B ([matmul_fp8_ab_128x128_8wave]); i8's 16x16x64 MFMAs handed back "
    "and exact in test_iree_round_trip.py::test_i8_round_trip_builds_a_vmfb_that_computes_c",
    # (2026-12-07, the function rule, as BOTH_LONG's)
    **{n: f"{FUNCTIONS_RUN}; a kernel handed back and exact in "
          "[matmul_fp8_ab_128x128_8wave] (8-bit "
          "transposing reads) and [matmul_i8_abt_256x128_2x4_32x32_8wave]"
       for n in ("matmul_bf16_abt_256x256_k128_8wave", "matmul_f16_ab_128x128_k128_8wave",
                 "matmul_fp8e5m2_abt_256x256_8wave")}}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.long(HANDED_BACK_LONG[n]))
                                  if n in HANDED_BACK_LONG else n for n in HANDED_BACK])
def test_handed_back_to_iree_compile_is_exact(generated, name, capsys, tmp_path):
    """The pipelined kernel, given back to ``iree-compile`` by executable substitution: the
    code object it builds runs 8 waves with IREE's HAL bindings and computes C exactly (one
    kernel per family: :data:`HANDED_BACK`)."""
    pipelined = tmp_path / "pipelined.mlir"     # --emit=mlir's text, from the kernel's build
    pipelined.write_text(_pipelined(generated(name, "prefetch"), "prefetch").stages["mlir"])
    cfg = G.EIGHT_WAVE[name]
    hsaco = tmp_path / "k.hsaco"
    hsaco.write_bytes(G.iree_hsaco(G.matmul_source(**cfg), executable=str(pipelined)))
    if not cfg["transpose_b"]:    # a code object does not say that B is K x N
        with counting_loops() as loops:
            run = emulate_matmul(load_kernel(hsaco.read_bytes()),
                                 Matmul(cfg["m"], cfg["n"], cfg["k"], cfg["dtype"], False),
                                 count=2, mode="random", seed=3)
        assert run.exact and run.waves == 8, run.summary()
        assert_steady(loops)
        return
    with counting_loops() as loops:
        rc, out, err = _run(capsys, f"--emulate={cfg['m']},{cfg['n']},{cfg['k']}", str(hsaco),
                            "--emulate-workgroups=2", "--emulate-mode=random:3")
    assert rc == 0 and "mode=random: exact, max error 0, 2 of " in out, out + err
    assert_steady(loops)
    assert "workgroups x 8 waves" in out and "IREE's HAL bindings" in out, out

