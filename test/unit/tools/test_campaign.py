"""The property campaign: random valid pipeline configurations and problem shapes, each built
into its complete kernel exactly as ``pipeline-opt --emit=hsaco`` builds it and run on the
emulator in ``late`` and ``random`` modes: C must equal the reference and the run must have
no finding (race, pending register, barrier mismatch, out-of-range access).

What is drawn (``hypothesis``): for ``4wave`` the element type, a tile from the ones its
geometry accepts (:func:`four_wave_tiles`) and the schedule's own tuning knobs that do not
change what the kernel issues (``tune_knobs`` without ``kernel_fixed``); for ``pingpong``
``is_fp8`` and its knobs the same way; then a grid of 1..2 x 1..2 workgroups, a main loop of
0..3 iterations and the random mode's seed. A configuration the compiler refuses with a
located diagnostic (options the schedule rejects together, a layout the front end cannot
place) is not a failure but is counted (hypothesis ``event``); an internal error is a
failure, and so is a kernel the emulator cannot load (an instruction it lacks).  A kernel
LLVM spilled to scratch is checked like any other (the emulator runs the private segment).
``single-buffer`` has no complete kernel: its schedules are compiled and verified only.

Bounded and seeded: the committed seed and a few examples per CI run (each compiles with
LLVM: about a second): the default run's sample, the first of them per schedule; the long
tier's ``_whole`` tests the seed's next draws, :data:`EXAMPLES` per schedule in all.
``PIPELINE_CAMPAIGN_EXAMPLES=N`` runs N per schedule (in the sample, and the long tier one
more) and ``PIPELINE_CAMPAIGN_SEED=S`` another seed (docs/testing.md). A failure prints the
configuration as the ``pipeline-opt ... --emulate=...`` command that reproduces it.
"""

from __future__ import annotations

import functools
import os
import shlex

import pytest
from hypothesis import HealthCheck, Phase, event, given, note, reject, seed, settings
from hypothesis import strategies as st

from build_cache import share_code_objects
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.schedules.registry import SCHEDULES, parse_pipeline

EXAMPLES = int(os.environ.get("PIPELINE_CAMPAIGN_EXAMPLES", "4"))
SEED = int(os.environ.get("PIPELINE_CAMPAIGN_SEED", "20260422"))
#: the tile sizes drawn for 4wave (its kernel's tiles beyond these spill or overflow LDS)
TILE_SIZES = (64, 128, 192, 256)
#: the largest accumulator a 4-wave tile may hold without spilling (BM * BN elements)
MAX_TILE_ELEMENTS = 256 * 256

#: no shrinking (each example compiles with LLVM: a shrink would take minutes, and the failing
#: configuration is printed as a command anyway)
CAMPAIGN = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=False,
                    phases=(Phase.explicit, Phase.generate),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@functools.lru_cache(maxsize=None)
def four_wave_tiles() -> tuple[tuple[str, int, int, int], ...]:
    """Every (dtype, BM, BN, BK) of :data:`TILE_SIZES` (BK: 1..4 MFMA K steps) whose 4-wave
    kernel the schedule accepts and whose LDS fits, without compiling anything."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.schedules.geometry import DTYPES
    from pipeline_mlir.target.gfx950 import LDS_BYTES, MFMA_BY_DTYPE

    out = []
    for dtype in DTYPES:
        mma_k = MFMA_BY_DTYPE[dtype].shape[2]
        for BM in TILE_SIZES:
            for BN in TILE_SIZES:
                if BM * BN > MAX_TILE_ELEMENTS:
                    continue
                for BK in (mma_k, 2 * mma_k, 4 * mma_k):
                    try:
                        gemm = gemm_kernel(parse_pipeline(
                            f"4wave{{dtype={dtype} BM={BM} BN={BN} BK={BK}}}"))
                    except PipelineError:
                        continue
                    if gemm.lds_bytes <= LDS_BYTES:
                        out.append((dtype, BM, BN, BK))
    return tuple(out)


def knob_pairs(name: str):
    """A strategy of ``key=value`` pairs: each of the schedule's knobs that leave the
    kernel's counts alone, given or not, with one of its values."""
    knobs = [k for k in SCHEDULES[name].tune_knobs if not k.kernel_fixed]
    per_knob = [st.one_of(st.none(), st.sampled_from(k.values).map(
        functools.partial("{}={}".format, k.name))) for k in knobs]
    return st.tuples(*per_knob).map(lambda pairs: [p for p in pairs if p is not None])


def spec_text(name: str, pairs: list[str]) -> str:
    return f"{name}{{{' '.join(pairs)}}}" if pairs else name


@st.composite
def four_wave_specs(draw):
    dtype, BM, BN, BK = draw(st.sampled_from(four_wave_tiles()))
    return spec_text("4wave", [f"dtype={dtype}", f"BM={BM}", f"BN={BN}", f"BK={BK}"]
                     + draw(knob_pairs("4wave")))


@st.composite
def ping_pong_specs(draw):
    return spec_text("pingpong", [f"is_fp8={str(draw(st.booleans())).lower()}"]
                     + draw(knob_pairs("pingpong")))


@st.composite
def problems(draw, gemm):
    """(M, N, K): 1..2 x 1..2 tiles, a main loop of 0..3 iterations, at least the trips the
    kernel always runs (``loop_once``: one; ``GemmKernel.min_k``)."""
    g = gemm.geometry
    least = gemm.shape.min_trips
    return (g.BM * draw(st.integers(1, 2)), g.BN * draw(st.integers(1, 2)),
            2 * g.BK * (draw(st.integers(least, max(least, 3))) + 1))


def command(spec: str, sizes, mode: str) -> str:
    """The ``pipeline-opt`` command that builds and runs this configuration."""
    return (f"pipeline-opt --pipeline={shlex.quote(spec)} --emulate={','.join(map(str, sizes))}"
            f" --emulate-mode={mode}")


def build(spec: str):
    """(the GemmKernel, the emulator's kernel) of ``spec`` built as ``--emit=hsaco`` builds it,
    or None when the compiler refuses the configuration with a diagnostic."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.kernel.gemm import gemm_kernel

    try:
        gemm = gemm_kernel(parse_pipeline(spec))
        with share_code_objects(own_kernels=True):   # once per run (each mode, each test)
            result = compile(CompileOptions(schedule=spec, emit="hsaco"))
    except PipelineError as e:
        event(f"refused: {str(e)[:100]}")
        return None
    errors = [d for d in result.diagnostics if d.severity == "error"]
    internal = [d for d in errors if "internal error" in d.message]
    assert not internal, f"pipeline-opt --pipeline={shlex.quote(spec)} --emit=hsaco: " \
                         f"{internal[0].message}"
    if errors or result.output is None:
        event(f"refused by the compiler: {errors[0].message[:100]}" if errors
              else "refused: no output")
        return None
    try:
        return gemm, load_kernel(result.output, gemm.name)
    except EmuError as e:      # a kernel the emulator cannot load is a failure
        g = gemm.geometry
        pytest.fail(f"{e}\nreproduce: {command(spec, (g.BM, g.BN, 2 * g.BK), 'eager')}")


def check_configuration(spec: str, data, skip: list[int] | None = None) -> None:
    """``spec`` built and run on a drawn problem in late and random modes; with ``skip`` (the
    count of configurations built so far), one of the first :data:`SAMPLE` built, the
    sample's, is passed over (rejected: hypothesis draws another)."""
    from pipeline_mlir.emu.errors import Finding
    from pipeline_mlir.emu.gemm import emulate_gemm

    built = build(spec)
    if built is None:
        reject()
    if skip is not None:
        skip[0] += 1
        if skip[0] <= SAMPLE:
            event("the sample's configuration: passed over")
            reject()
    gemm, kernel = built
    sizes = data.draw(problems(gemm), label="M, N, K")
    modes = ["late", f"random:{data.draw(st.integers(0, 1 << 16), label='random seed')}"]
    for mode in modes:
        cmd = command(spec, sizes, mode)
        note(f"reproduce: {cmd}")
        name, _, mode_seed = mode.partition(":")
        try:
            run = emulate_gemm(kernel, gemm, *sizes, name, int(mode_seed or 0))
        except Finding as e:
            pytest.fail(f"{e}\nreproduce: {cmd}")
        assert run.exact, f"{run.summary()} first wrong element {run.first_bad}\nreproduce: {cmd}"
    event("built and exact in late and random modes" +
          (" (spills to scratch)" if kernel.launch.private_bytes else ""))


#: the examples per schedule of the default run: the campaign's sample, the first of the
#: committed seed's draws.  ``PIPELINE_CAMPAIGN_EXAMPLES`` given, the default run runs that
#: many too (a longer campaign asked for by name)
SAMPLE = EXAMPLES if "PIPELINE_CAMPAIGN_EXAMPLES" in os.environ else 1
#: the whole campaign of a schedule beyond its sample (long tier): the committed seed's draws
#: after the sample's, :data:`EXAMPLES` in all with the sample's (one more when the variable
#: is given)
WHOLE_EXAMPLES = max(EXAMPLES - SAMPLE, 1)
WHOLE = pytest.mark.long("the rest of the campaign's seeded draws: the schedule's "
                         "sample (the test of the same name without '_whole') runs the first "
                         "of them, through the same build and the same checks")


@pytest.fixture
def drawn() -> list[int]:
    """The configurations built so far by one run of a ``_whole`` test (one item: hypothesis
    calls the test once per example with the same fixture value)."""
    return [0]


def campaign_tests(specs, name: str):
    """The sample test of schedule ``name``'s configurations (``specs``) and its ``_whole``
    test (long tier), from one body: both draw from the committed seed in the same order;
    the whole test passes over the configurations the sample runs (the first :data:`SAMPLE`
    that build: built once per run, not emulated again) and checks the next
    :data:`WHOLE_EXAMPLES`."""
    @seed(SEED)
    @settings(CAMPAIGN, max_examples=SAMPLE)
    @given(spec=specs(), data=st.data())
    def sample(spec, data):
        check_configuration(spec, data)

    @WHOLE
    @seed(SEED)
    @settings(CAMPAIGN, max_examples=WHOLE_EXAMPLES, suppress_health_check=[
        *CAMPAIGN.suppress_health_check, HealthCheck.function_scoped_fixture])
    @given(spec=specs(), data=st.data())
    def whole(drawn, spec, data):
        check_configuration(spec, data, skip=drawn)

    sample.__name__ = sample.__qualname__ = f"test_{name}_configurations_run_exact_and_race_free"
    whole.__name__ = whole.__qualname__ = f"{sample.__name__}_whole"
    return sample, whole


test_four_wave_configurations_run_exact_and_race_free, \
    test_four_wave_configurations_run_exact_and_race_free_whole = \
    campaign_tests(four_wave_specs, "four_wave")
test_ping_pong_configurations_run_exact_and_race_free, \
    test_ping_pong_configurations_run_exact_and_race_free_whole = \
    campaign_tests(ping_pong_specs, "ping_pong")


@seed(SEED)
@settings(max_examples=4 * EXAMPLES, deadline=None, database=None)
@given(T=st.integers(1, 12))
def test_single_buffer_schedules_compile_and_verify(T):
    """single-buffer has no complete kernel (nothing to emulate): its schedule of any T
    compiles through sched-verify, and the kernel emit kinds are refused in one message."""
    from pipeline_mlir.driver import CompileOptions, compile

    spec = f"single-buffer{{T={T}}}"
    schedule = compile(CompileOptions(schedule=spec, emit="schedule"))
    assert schedule.checked_output().startswith("WARP_STAGGER_INDEX"), spec
    from pipeline_mlir.driver.base import UsageError

    try:
        refused = compile(CompileOptions(schedule=spec, emit="hsaco"))
    except (UsageError, PipelineError) as e:
        assert "single-buffer" in str(e)
    else:
        assert any(d.severity == "error" for d in refused.diagnostics), spec


def test_the_tiles_drawn_cover_every_dtype_and_a_non_square_tile():
    tiles = four_wave_tiles()
    assert {t[0] for t in tiles} == {"bf16", "f16", "fp8", "i8"}
    assert any(BM != BN for _, BM, BN, _ in tiles)
    assert ("bf16", 128, 128, 64) in tiles


@pytest.mark.parametrize("loop_once", [False, True])
def test_the_problems_drawn_are_ones_the_kernel_runs(loop_once):
    """Every K drawn is one the kernel computes (``min_k``: ``loop_once=true`` runs its main
    loop at least once, so 2 K tiles alone are too few; seed 61's long campaign drew them),
    and the smallest one it computes is among the draws."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample
    from pipeline_mlir.kernel.gemm import gemm_kernel

    gemm = gemm_kernel(parse_pipeline(
        f"4wave{{dtype=bf16 BM=64 BN=64 BK=64 loop_once={str(loop_once).lower()}}}"))
    with pytest.raises(NoSuchExample):
        find(problems(gemm), lambda size: size[2] < gemm.min_k)
    assert find(problems(gemm), lambda size: size[2] == gemm.min_k)[2] == \
        (256 if loop_once else 128)


def test_a_failure_prints_a_command_that_reproduces_it():
    cmd = command("4wave{dtype=fp8 BM=64 BN=64 BK=128}", (128, 64, 512), "random:7")
    assert cmd == ("pipeline-opt --pipeline='4wave{dtype=fp8 BM=64 BN=64 BK=128}' "
                   "--emulate=128,64,512 --emulate-mode=random:7")
    from pipeline_mlir.tools.pipeline_opt import main

    argv = shlex.split(cmd)[1:]
    with share_code_objects(own_kernels=True):   # the run's build of this kernel
        assert main(argv) == 0


#: a ping-pong configuration whose kernel LLVM spills two VGPRs for (12 bytes of scratch, one
#: scratch_store_dwordx2 and its reload; the BF16 one used before spills nothing since the
#: C offset is computed before the loop)
SPILLING = "pingpong{is_fp8=true barrier_before_pre_ops=true}"
#: bytes per lane of each scratch access
_SCRATCH_BYTES = {"": 4, "x2": 8, "x3": 12, "x4": 16}


def _scratch_bytes(name: str) -> int:
    return _SCRATCH_BYTES[name.rpartition("dword")[2]]


@pytest.mark.parametrize("mode", ["late", "random:7"])
def test_a_kernel_that_spills_to_scratch_runs_exact(mode):
    """The spills and reloads run through the emulator's private segment, exact and
    race-free; a reload moved to an offset never written reads poison (C is wrong, or, where
    the poison is a C store's address, that store's lanes race on one address): in late
    mode only, for what the reload reads does not depend on the order memory completes in."""
    from pipeline_mlir.emu.errors import Finding
    from pipeline_mlir.emu.gemm import emulate_gemm

    built = build(SPILLING)
    assert built is not None
    gemm, kernel = built
    assert kernel.launch.private_bytes > 0, "the configuration no longer spills: pick another"
    names = [ins.name for ins in kernel.instrs]
    assert any(n.startswith("scratch_store_dword") for n in names)
    assert any(n.startswith("scratch_load_dword") for n in names)
    name, _, mode_seed = mode.partition(":")
    assert emulate_gemm(kernel, gemm, 512, 512, 256, name, int(mode_seed or 0)).exact
    if name != "late":
        return
    reload = next(ins for ins in kernel.instrs if ins.name.startswith("scratch_load_dword"))
    written = {ins.f["offset"] + b for ins in kernel.instrs
               if ins.name.startswith("scratch_store_dword")
               for b in range(_scratch_bytes(ins.name))}
    width = _scratch_bytes(reload.name)
    reload.f["offset"] = next(o for o in range(0, kernel.launch.private_bytes - width + 1, 4)
                              if not set(range(o, o + width)) <= written)
    try:
        run = emulate_gemm(kernel, gemm, 512, 512, 256, name, int(mode_seed or 0))
    except Finding as e:   # the poison reached a C store's address: its lanes collide
        assert e.kind == "global-race" and "within this one store" in str(e), e
    else:
        assert not run.exact
