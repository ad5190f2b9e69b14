"""Pipeline specs ``NAME{key=value ...}``: syntax, mapping onto the schedules, every error kind."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline_mlir.errors import ConfigError, PipelineError, SchedulingError
from pipeline_mlir.schedule.config import ScheduleConfig, SchedulingStrategy
from pipeline_mlir.schedule.printing import format_schedule
from pipeline_mlir.schedules.fourwave import FourWave, Pipeline4Wave
from pipeline_mlir.schedules.geometry import four_wave_geometry
from pipeline_mlir.options import Option, OptionTable, split_spec
from pipeline_mlir.schedule.stages import lgkm_per_load
from pipeline_mlir.schedules.pingpong import DeclarativeSchedule, PingPong
from pipeline_mlir.schedules.registry import (
    KERNEL_SCHEDULES,
    SCHEDULE_CONFIG_OPTIONS,
    SCHEDULES,
    NamedSchedule,
    compile_spec,
    describe_pipelines,
    make_schedule,
    parse_pipeline,
)
from pipeline_mlir.schedules.single_buffer import SingleBuffer, SingleBufferSchedule

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "reference"


def golden(name: str) -> str:
    p = GOLDEN / name
    return p.read_text()


def config_error(spec: str) -> str:
    with pytest.raises(ConfigError) as ei:
        parse_pipeline(spec).build()
    return str(ei.value)


# ---- syntax ------------------------------------------------------------------

@pytest.mark.parametrize("spec, name, pairs", [
    ("pingpong", "pingpong", []),
    ("  pingpong  ", "pingpong", []),
    ("pingpong{}", "pingpong", []),
    ("pingpong{ }", "pingpong", []),
    ("4wave{dtype=fp8 BM=128}", "4wave", [("dtype", "fp8"), ("BM", "128")]),
    ("4wave{dtype=fp8,BM=128}", "4wave", [("dtype", "fp8"), ("BM", "128")]),
    ("4wave{ dtype=fp8 ,  BM=128, }", "4wave", [("dtype", "fp8"), ("BM", "128")]),
    ("4wave{dtype = fp8 BM= 128 BN =64}", "4wave", [("dtype", "fp8"), ("BM", "128"), ("BN", "64")]),
    ("single-buffer{T=3}", "single-buffer", [("T", "3")]),
])
def test_split_spec(spec, name, pairs):
    assert split_spec(spec) == (name, pairs)


@pytest.mark.parametrize("spec, fragment", [
    ("", "empty pipeline spec"),
    ("   ", "empty pipeline spec"),
    ("{BM=1}", "missing pipeline name"),
    ("4wave{BM=128", "missing closing '}'"),
    ("4wave{BM=128} BN=2", "missing closing '}'"),
    ("4wave BM=128", "malformed pipeline name"),
    ("4wave{BM}", "option 'BM' has no value"),
    ("4wave{BM=}", "option 'BM' has an empty or malformed value"),
    ("4wave{BM=,BN=1}", "option 'BM' has an empty or malformed value"),
    ("4wave{=128}", "expected key=value"),
    ("4wave{1BM=128}", "expected key=value"),
    ("4wave{BM=1=2}", "unexpected '='"),
    ("4wave{BM=1{}", "unexpected '{'"),
    ("4wave{BM=1}}", "unexpected '}'"),
])
def test_syntax_errors(spec, fragment):
    with pytest.raises(ConfigError) as ei:
        parse_pipeline(spec)
    assert fragment in str(ei.value)


@pytest.mark.parametrize("word, name, rest", [
    ("4waveBN=128", "4wave", "BN=128"),             # bash: --pipeline=4wave{BM=128,BN=128}
    ("pingpongis_fp8=true", "pingpong", "is_fp8=true"),
    ("single-bufferT=1", "single-buffer", "T=1"),
])
def test_a_spec_the_shell_split_says_to_quote_it(word, name, rest):
    with pytest.raises(ConfigError) as ei:
        parse_pipeline(word)
    msg = str(ei.value)
    assert msg.startswith(f"pipeline spec '{word}': '{name}' directly followed by '{rest}' is "
                          f"what bash leaves of an unquoted spec with commas")
    assert msg.endswith(f"quote the whole spec, every option inside the quotes: "
                        f"'{name}{{...,{rest}}}'")


@pytest.mark.parametrize("spec, fragment", [
    ("4wave=3", "malformed pipeline name '4wave=3'"),      # no KEY after the name
    ("8waveBN=128", "malformed pipeline name '8waveBN=128'"),  # not a known name
    ("4wavex", "unknown pipeline '4wavex'"),
])
def test_only_a_known_name_and_key_look_split(spec, fragment):
    with pytest.raises(ConfigError) as ei:
        parse_pipeline(spec)
    assert fragment in str(ei.value) and "bash" not in str(ei.value)
    # the syntax alone (no known names) never guesses
    with pytest.raises(ConfigError, match="malformed pipeline name '4waveBN=128'"):
        split_spec("4waveBN=128")


# ---- mapping onto the schedules -----------------------------------------------

REFERENCE_PINGPONG = "pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2 waits=block}"


def test_pingpong_defaults_are_the_kernels_counts():
    """One spec, one schedule: the defaults are the counts the complete kernel issues, so
    --emit=schedule prints the schedule --emit=hsaco builds."""
    for spec, mg in (("pingpong", 1), ("pingpong{is_fp8=true}", 0)):
        s = parse_pipeline(spec).build()
        assert isinstance(s, DeclarativeSchedule) and lgkm_per_load(s) == (8, 4)
        cfg = s.config()
        assert (cfg.vm_per_load_a, cfg.vm_per_load_b, cfg.block_sizing.max_globals) == (2, 2, mg)
        k = parse_pipeline(spec).kernel_geometry()
        assert (k.vm_per_load_a, k.lgkm_per_load_a, k.max_globals) == (2, 8, mg)


def test_the_reference_pingpong_is_one_spec_away():
    s = parse_pipeline(REFERENCE_PINGPONG).build()
    assert (s.is_fp8, *lgkm_per_load(s)) == (False, 2, 2)
    cfg = s.config()
    assert (cfg.vm_per_load_a, cfg.vm_per_load_b, cfg.block_sizing.max_globals) == (4, 4, 1)
    assert s.schedule_config() == ScheduleConfig(scheduling=SchedulingStrategy.CSP, auto_waits=True,
                                                 lgkm_per_load_a=2, lgkm_per_load_b=2)
    assert format_schedule(compile_spec(REFERENCE_PINGPONG)) == \
        golden("pingpong_bf16_l2_2.txt")


def test_pingpong_options_reach_the_schedule():
    s = parse_pipeline("pingpong{is_fp8=true max_globals=0 vm_per_load_a=2 vm_per_load_b=3 "
                       "lgkm_per_load_a=8 lgkm_per_load_b=4}").build()
    assert (s.is_fp8, *lgkm_per_load(s)) == (True, 8, 4)
    cfg = s.config()
    assert (cfg.vm_per_load_a, cfg.vm_per_load_b, cfg.block_sizing.max_globals) == (2, 3, 0)
    sc = s.schedule_config()
    assert (sc.lgkm_per_load_a, sc.lgkm_per_load_b) == (8, 4)
    c = parse_pipeline("pingpong{lgkm_per_load_a=8 lgkm_per_load_b=4}").compile()
    assert c.lgkm_per_load == (8, 4)


def test_pingpong_config_overrides_apply_on_the_csp_base():
    s = parse_pipeline("pingpong{scheduling=greedy wait_vm_last=3 "
                       "sched_barrier_mask=0xF0 auto_waits=0 minimal_barriers=FALSE}").build()
    sc = s.schedule_config()
    assert sc.scheduling == SchedulingStrategy.GREEDY
    assert (sc.wait_vm_last, sc.sched_barrier_mask, sc.auto_waits,
            sc.minimal_barriers) == (3, 0xF0, False, False)
    # untouched fields keep the ping-pong base (CSP default config)
    assert sc.max_vgpr == 999999 and sc.wait_lgkm_first == 8
    assert parse_pipeline("pingpong{sched_barrier_mask=0b101}").build() \
        .schedule_config().sched_barrier_mask == 5


def test_pingpong_lds_penalty_compiles_with_the_csp():
    c = compile_spec("pingpong{lds_contention_penalty=4}")
    assert c.sched.lds_contention_penalty == 4
    assert c.schedule_result is not None and c.schedule_result.proven_optimal


@pytest.mark.parametrize("dtype, BM, BN, BK, gold", [
    ("fp8", 128, 128, 128, "4wave_fp8_128x128x128.txt"),
    ("bf16", 128, 128, 64, "4wave_bf16_128x128x64.txt"),
])
def test_fourwave_golden(dtype, BM, BN, BK, gold):
    c = compile_spec(f"4wave{{dtype={dtype} BM={BM} BN={BN} BK={BK}}}")
    assert format_schedule(c) == golden(gold)


def test_fourwave_defaults_and_geometry():
    r = parse_pipeline("4wave")
    assert r.geometry() == four_wave_geometry("bf16", 128, 128, 64)
    s = r.build()
    assert isinstance(s, Pipeline4Wave)
    sc = s.schedule_config()
    # kernel config with fences (BM >= 128, not fp8), plus the flags the schedule forces
    assert (sc.sched_barrier_mask, sc.wrap_waits_with_sched_barrier) == (0xFF, True)
    assert sc.minimal_barriers and sc.omit_mma_set_prio and sc.inter_block_lgkm_drain
    c = r.compile()
    assert c.lgkm_per_load == (4, 4)
    assert format_schedule(c) == format_schedule(compile_spec("4wave{BK=64 dtype=BF16}"))


def test_fourwave_fences_follow_the_geometry_unless_overridden():
    assert not parse_pipeline("4wave{dtype=fp8 BK=128}").geometry().fences
    assert not parse_pipeline("4wave{BM=64 BN=64}").geometry().fences
    s = parse_pipeline("4wave{fences=false}").build()
    assert s.geometry.fences is False
    assert (s.schedule_config().sched_barrier_mask,
            s.schedule_config().wrap_waits_with_sched_barrier) == (0, False)
    s = parse_pipeline("4wave{dtype=fp8 BK=128 fences=true}").build()
    assert s.schedule_config().wrap_waits_with_sched_barrier


def test_fourwave_geometry_overrides():
    r = parse_pipeline("4wave{vm_per_load_a=3 vm_per_load_b=5 lgkm_per_load_a=6 "
                       "lgkm_per_load_b=7 max_globals=0}")
    g = r.geometry()
    assert (g.vm_per_load_a, g.vm_per_load_b, g.lgkm_per_load_a, g.lgkm_per_load_b,
            g.max_globals) == (3, 5, 6, 7, 0)
    assert (g.BM, g.BN, g.BK, g.dtype) == (128, 128, 64, "bf16")
    s = r.build()
    cfg = s.config()
    assert (cfg.vm_per_load_a, cfg.vm_per_load_b, cfg.lgkm_per_load_a, cfg.lgkm_per_load_b,
            cfg.block_sizing.max_globals) == (3, 5, 6, 7, 0)
    c = r.compile()
    assert c.lgkm_per_load == (6, 7)
    assert "wait=6 " in format_schedule(c)


def test_fourwave_accepts_forced_flags_with_the_forced_value():
    s = parse_pipeline("4wave{scheduling=identity minimal_barriers=true global_before_frag=true}"
                       ).build()
    assert s.schedule_config().global_before_frag


@pytest.mark.parametrize("spec, why", [
    # options once accepted without any effect: each an error saying why
    ("4wave{sched_barrier_mask=0}", "minimal_barriers=true leaves out the barrier after the "
                                    "MMA it would follow"),
    ("4wave{lgkm_after_last=true}", "minimal_barriers=true leaves out the barrier"),
    ("4wave{max_vgpr=64}", "only the csp scheduler reads it (this configuration uses "
                           "scheduling=identity)"),
    ("4wave{lds_contention_penalty=3}", "only the csp scheduler reads it"),
    ("4wave{wait_lgkm_first=2}", "auto_waits=true derives the waits from the blocks (give "
                                 "auto_waits=false to set them by hand)"),
    ("4wave{wait_vm_last=2}", "auto_waits=true derives the waits"),
    ("4wave{auto_waits=false wait_lgkm_first=2}", "the first block of each 4-wave K partition "
                                                  "opens with its entry wait"),
    ("4wave{drain_lgkm_mask=1}", "the 4-wave blocks never wait before their loads"),
    ("4wave{auto_drain=true}", "the 4-wave blocks never wait before their loads"),
    ("pingpong{wait_lgkm_first=3}", "auto_waits=true derives the waits"),
    ("pingpong{wait_vm_last=3}", "auto_waits=true derives the waits"),
    ("pingpong{omit_mma_set_prio=true}", "only the minimal-barrier blocks (minimal_barriers=true) "
                                         "read it"),
    ("pingpong{scheduling=greedy max_vgpr=1}", "only the csp scheduler reads it (this "
                                               "configuration uses scheduling=greedy)"),
    ("pingpong{scheduling=greedy lds_contention_penalty=4}", "only the csp scheduler reads it"),
    ("pingpong{auto_waits=false auto_drain=true}", "the drain mask is derived with the waits"),
    ("pingpong{auto_drain=true drain_lgkm_mask=3}", "auto_drain=true derives the drain mask"),
    ("pingpong{minimal_barriers=true sched_barrier_mask=1}", "minimal_barriers=true leaves out"),
    ("4wave{auto_waits=false barrier_before_pre_ops=true}", "the 4-wave blocks read it only for "
                                                            "the entry waits they derive"),
])
def test_an_option_nothing_reads_is_an_error_saying_why(spec, why):
    key = re.findall(r"(\w+)=\w+\}", spec)[0]
    with pytest.raises(ConfigError, match=re.escape(f"option '{key}=") + r"\w+' has no effect: "
                       + re.escape(why)):
        parse_pipeline(spec).build()


@pytest.mark.parametrize("spec, same_as", [
    # ... and where they are read, they change the schedule
    ("4wave{global_before_frag=true}", "4wave"),
    ("4wave{auto_waits=false wait_vm_last=2}", "4wave{auto_waits=false}"),
    ("pingpong{auto_waits=false wait_lgkm_first=1}", "pingpong{auto_waits=false}"),
    ("pingpong{auto_waits=false wait_vm_last=1}", "pingpong{auto_waits=false}"),
    ("pingpong{minimal_barriers=true omit_mma_set_prio=true}", "pingpong{minimal_barriers=true}"),
    ("pingpong{lds_contention_penalty=4}", "pingpong"),
    ("pingpong{lgkm_after_last=true}", "pingpong"),
    ("pingpong{sched_barrier_mask=0}", "pingpong"),
    ("pingpong{drain_lgkm_mask=3}", "pingpong"),
    ("pingpong{barrier_before_pre_ops=true}", "pingpong"),
    ("4wave{barrier_before_pre_ops=true}", "4wave"),
    ("4wave{dtype=fp8 BM=64 BN=64 BK=128 barrier_before_pre_ops=true}",
     "4wave{dtype=fp8 BM=64 BN=64 BK=128}"),
])
def test_an_option_that_is_read_changes_the_schedule(spec, same_as):
    assert format_schedule(compile_spec(spec)) != format_schedule(compile_spec(same_as))


@pytest.mark.parametrize("spec", ["4wave{barrier_before_pre_ops=true}",
                                  "4wave{barrier_before_pre_ops=false}",
                                  "4wave{dtype=fp8 BM=64 BN=64 BK=128 barrier_before_pre_ops=true}"])
def test_an_option_no_kernel_shows_is_an_error_for_the_kernel_only(spec):
    """barrier_before_pre_ops changes the 4-wave schedule (the test above), but what it
    changes, every 4-wave kernel does anyway (test_the_kernel_never_shows_..._4wave below)."""
    schedule = parse_pipeline(spec)
    schedule.compile()  # the schedule takes it
    with pytest.raises(ConfigError, match=re.escape(
            "pipeline '4wave': option 'barrier_before_pre_ops=") + r"(true|false)' has no "
            r"effect on the kernel: in the 4-wave blocks it only sets the entry wait of each K "
            r"partition's first block .* \(sched-fix-hazards: .*\); it changes only the printed "
            r"schedule \(--emit=schedule or schedule-json\)$"):
        schedule.check_kernel_options()


@pytest.mark.parametrize("spec", ["4wave", "4wave{global_before_frag=true fences=false}",
                                  "pingpong{barrier_before_pre_ops=true}",
                                  "pingpong{sched_barrier_mask=0}", "single-buffer{T=3}"])
def test_options_a_kernel_shows_pass_the_kernel_check(spec):
    assert parse_pipeline(spec).check_kernel_options() is None


def test_the_kernel_check_reports_an_unread_option_as_such_first():
    with pytest.raises(ConfigError, match=r"option 'barrier_before_pre_ops=true' has no effect: "
                                          r"the 4-wave blocks read it only"):
        parse_pipeline("4wave{auto_waits=false barrier_before_pre_ops=true}"
                       ).check_kernel_options()


@pytest.mark.parametrize("dtype, BM, BN, BK, fences", [
    ("bf16", 128, 128, 64, None), ("bf16", 128, 128, 64, "false"), ("bf16", 256, 256, 64, None),
    ("bf16", 256, 128, 64, None), ("f16", 128, 128, 64, None), ("fp8", 128, 128, 128, None),
    ("fp8", 128, 128, 128, "true"), ("fp8", 64, 64, 128, None), ("fp8", 256, 256, 128, None)])
def test_the_kernel_never_shows_barrier_before_pre_ops_on_4wave(dtype, BM, BN, BK, fences):
    """Why the kernel check rejects it: for any 4-wave tile, the phases sched-fix-hazards
    leaves (what the kernel runs) are the same with and without it."""
    from pipeline_mlir.kernel.gemm import gemm_kernel
    from pipeline_mlir.sim.repair import repair
    from pipeline_mlir.sim.trace import kernel_shape

    def kernel_phases(extra):
        spec = f"4wave{{dtype={dtype} BM={BM} BN={BN} BK={BK}{extra}" + \
            (f" fences={fences}}}" if fences else "}")
        schedule = gemm_kernel(parse_pipeline(spec)).schedule
        compiled = schedule.compile()
        fixed = repair(compiled, kernel_shape(schedule), range(0, 7))
        return compiled, [[e.op for e in getattr(fixed, ph)]
                          for ph in ("prologue", "kernel", "epilogue")]

    (printed, kernel), (printed_b, kernel_b) = kernel_phases(""), kernel_phases(
        " barrier_before_pre_ops=true")
    assert format_schedule(printed) != format_schedule(printed_b)
    assert kernel == kernel_b


def test_fences_blocks_is_the_schedules_choice():
    """The lowering fences every change of block, but for blocks that end with the schedule
    barriers of sched_barrier_mask (ping-pong without minimal_barriers): those are then the
    fences."""
    assert not parse_pipeline("pingpong").fences_blocks
    assert not parse_pipeline("pingpong{is_fp8=true sched_barrier_mask=0}").fences_blocks
    assert parse_pipeline("pingpong{minimal_barriers=true}").fences_blocks
    assert parse_pipeline("4wave").fences_blocks
    assert parse_pipeline("single-buffer").fences_blocks


def test_single_buffer():
    s = parse_pipeline("single-buffer").build()
    assert isinstance(s, SingleBufferSchedule) and s.T == 2
    assert parse_pipeline("single-buffer{T=1}").build().T == 1
    assert len(compile_spec("single-buffer{T=1}").kernel) == 38
    assert len(compile_spec("single-buffer").kernel) == 56


def test_request_get_and_spec():
    r = parse_pipeline("4wave{BK=128, dtype=fp8 lds_contention_penalty=2}")
    assert r.get("BK") == 128 and r.get("BM") == 128 and r.get("dtype") == "fp8"
    assert r.get("fences") is None  # derived from the geometry
    assert r.config == (("lds_contention_penalty", 2),)
    assert r.spec() == "4wave{BK=128 dtype=fp8 lds_contention_penalty=2}"
    assert parse_pipeline("pingpong").spec() == "pingpong"
    with pytest.raises(KeyError):
        r.get("nope")


def test_every_schedule_config_field_is_an_option():
    assert [o.name for o in SCHEDULE_CONFIG_OPTIONS] == ScheduleConfig.field_names()
    for kind in ("pingpong", "4wave"):
        keys = SCHEDULES[kind].valid_keys()
        assert set(ScheduleConfig.field_names()) <= set(keys)
        assert len(keys) == len(set(keys))


def test_describe_pipelines_lists_every_key():
    text = describe_pipelines()
    for kind in SCHEDULES.values():
        assert kind.name in text
        for o in kind.options():
            assert o.name + "=" in text
    for name in ScheduleConfig.field_names():
        assert name in text


# ---- errors: one per kind ------------------------------------------------------

def test_error_unknown_pipeline():
    msg = config_error("fourwave{BM=128}")
    assert "unknown pipeline 'fourwave'" in msg
    assert "pingpong, 4wave, single-buffer" in msg
    assert "did you mean '4wave'" in config_error("4Wave")


def test_error_unknown_key_lists_valid_keys():
    msg = config_error("4wave{BQ=128}")
    assert "pipeline '4wave'" in msg and "unknown option 'BQ'" in msg
    assert "valid keys: dtype, BM, BN, BK" in msg and "scheduling" in msg
    assert "did you mean 'BM'" in config_error("4wave{bm=128}")
    msg = config_error("pingpong{BM=128}")
    assert "pipeline 'pingpong'" in msg and "unknown option 'BM'" in msg
    assert "is_fp8, dtype" in msg


@pytest.mark.parametrize("spec, geometry", [
    ("pingpong", ("bf16", 64)), ("pingpong{is_fp8=true}", ("fp8", 128)),
    ("pingpong{dtype=f16}", ("f16", 64)), ("pingpong{dtype=fp8}", ("fp8", 128)),
    ("pingpong{dtype=i8}", ("i8", 128)), ("pingpong{dtype=fp8 is_fp8=true}", ("fp8", 128)),
])
def test_pingpong_dtype_selects_its_geometry(spec, geometry):
    g = parse_pipeline(spec).kernel_geometry()
    assert (g.dtype, g.BK) == geometry


@pytest.mark.parametrize("spec", ["pingpong{is_fp8=true dtype=f16}",
                                  "pingpong{dtype=fp8 is_fp8=false}"])
def test_pingpong_dtype_contradicting_is_fp8(spec):
    msg = config_error(spec)
    assert "pipeline 'pingpong'" in msg and "contradicts dtype=" in msg
    assert config_error("pingpong{dtype=f8}").startswith("pipeline 'pingpong': option 'dtype'")


def test_error_duplicate_key():
    msg = config_error("4wave{BM=128 BN=128, BM=64}")
    assert msg == "pipeline '4wave': option 'BM' given twice ('128' and '64')"


@pytest.mark.parametrize("spec, key, expected", [
    ("4wave{BM=abc}", "BM", "an integer >= 1"),
    ("4wave{BM=12.5}", "BM", "an integer"),
    ("4wave{dtype=int8}", "dtype", "one of bf16|f16|fp8|i8|f32|mxfp4|mxfp8"),
    ("4wave{fences=yes}", "fences", "a boolean"),
    ("pingpong{is_fp8=2}", "is_fp8", "a boolean"),
    ("pingpong{scheduling=optimal}", "scheduling", "one of identity|greedy|csp"),
    ("pingpong{auto_waits=maybe}", "auto_waits", "a boolean"),
    ("pingpong{max_vgpr=lots}", "max_vgpr", "an integer >= 1"),
    ("single-buffer{T=two}", "T", "an integer in 1..256"),
])
def test_error_bad_value_type(spec, key, expected):
    msg = config_error(spec)
    assert f"option '{key}' expects {expected}" in msg
    assert msg.startswith(f"pipeline '{spec.split('{')[0]}'")


@pytest.mark.parametrize("spec, key", [
    ("4wave{BM=0}", "BM"),
    ("4wave{BK=-64}", "BK"),
    ("4wave{vm_per_load_a=0}", "vm_per_load_a"),
    ("4wave{lgkm_per_load_b=61}", "lgkm_per_load_b"),
    ("4wave{max_globals=-1}", "max_globals"),
    ("pingpong{vm_per_load_b=64}", "vm_per_load_b"),
    ("pingpong{lgkm_per_load_a=-1}", "lgkm_per_load_a"),
    ("pingpong{max_vgpr=0}", "max_vgpr"),
    ("pingpong{lds_contention_penalty=-4}", "lds_contention_penalty"),
    ("pingpong{wait_vm_last=-1}", "wait_vm_last"),
    ("single-buffer{T=0}", "T"),
    ("single-buffer{T=100000}", "T"),
])
def test_error_out_of_range(spec, key):
    msg = config_error(spec)
    assert f"option '{key}' is out of range" in msg
    assert msg.startswith(f"pipeline '{spec.split('{')[0]}'")


def test_error_schedule_config_key_on_single_buffer():
    msg = config_error("single-buffer{T=2 scheduling=csp}")
    assert "pipeline 'single-buffer'" in msg and "'scheduling' is a ScheduleConfig field" in msg
    assert "never reads ScheduleConfig" in msg and "valid keys: T" in msg
    assert "ScheduleConfig field" in config_error("single-buffer{lds_contention_penalty=4}")


@pytest.mark.parametrize("spec, key", [
    ("4wave{scheduling=csp}", "scheduling"),
    ("4wave{minimal_barriers=false}", "minimal_barriers"),
    ("4wave{partial_prologue_drain=0}", "partial_prologue_drain"),
])
def test_error_option_the_schedule_overrides(spec, key):
    msg = config_error(spec)
    assert msg.startswith(f"pipeline '4wave': option '{key}=")
    assert "cannot be honoured" in msg


def test_error_geometry_names_the_pipeline():
    msg = config_error("4wave{dtype=fp8 BK=64}")
    assert msg.startswith("pipeline '4wave': geometry:") and "BK" in msg
    assert "pipeline '4wave': geometry:" in config_error("4wave{BM=100}")


def test_compile_errors_name_the_pipeline():
    with pytest.raises(SchedulingError) as ei:
        compile_spec("pingpong{max_vgpr=10}")
    assert str(ei.value).startswith("pipeline 'pingpong{max_vgpr=10}': ")
    assert isinstance(ei.value, PipelineError)


def test_errors_are_pipeline_errors():
    assert issubclass(ConfigError, PipelineError)
    with pytest.raises(PipelineError):
        parse_pipeline("nope")


# ---- property: the canonical spec parses back to the same schedule ---------------

def _value_text(opt, draw):
    if opt.kind == "bool":
        return draw(st.sampled_from(["true", "false", "1", "0", "TRUE", "False"]))
    if opt.kind == "enum":
        return draw(st.sampled_from(list(opt.choices)))
    lo = opt.min if opt.min is not None else 0
    hi = opt.max if opt.max is not None else lo + 1000
    return str(draw(st.integers(lo, hi)))


@st.composite
def specs(draw):
    kind = SCHEDULES[draw(st.sampled_from(sorted(SCHEDULES)))]
    keys = draw(st.lists(st.sampled_from(kind.valid_keys()), unique=True, max_size=6))
    pairs = [f"{k}={_value_text(kind.option(k), draw)}" for k in keys]
    sep = draw(st.sampled_from([" ", ",", ", ", "  ,"]))
    return f"{kind.name}{{{sep.join(pairs)}}}" if pairs or draw(st.booleans()) else kind.name


@settings(max_examples=200, deadline=None)
@given(specs())
def test_canonical_spec_round_trips(spec):
    r = parse_pipeline(spec)
    assert isinstance(r, NamedSchedule)
    again = parse_pipeline(r.spec())
    assert again == r
    assert again.spec() == r.spec()


# ---- the option machinery (pipeline_mlir/options.py) ------------------------------------------

def test_option_parses_checks_and_accepts_each_kind():
    i = Option("n", "int", 3, "a count", min=1, max=8)
    assert (i.parse("o", "0x4"), i.parse("o", "0b11"), i.parse("o", "+5")) == (4, 3, 5)
    assert i.check("o", 7) == 7 and i.accept("o", "2") == 2 and i.accept("o", 2) == 2
    b = Option("flag", "bool", False, "a flag")
    assert (b.parse("o", "TRUE"), b.parse("o", "0"), b.check("o", True)) == (True, False, True)
    e = Option("dtype", "enum", "bf16", "type", choices=("bf16", "fp8"))
    assert e.parse("o", "FP8") == "fp8" and e.check("o", "BF16") == "bf16"
    s = Option("schedule", "str", None, "a name")
    assert s.accept("o", "4wave") == "4wave"


@pytest.mark.parametrize("opt, how, value, message", [
    (Option("n", "int", 3, "h", min=1, max=8), "parse", "9",
     "owner: option 'n' is out of range: expects an integer in 1..8, got 9"),
    (Option("n", "int", 3, "h", min=1, max=8), "parse", "three",
     "owner: option 'n' expects an integer in 1..8, got 'three'"),
    (Option("n", "int", 3, "h", max=8), "check", 9,
     "owner: option 'n' is out of range: expects an integer <= 8, got 9"),
    (Option("n", "int", 3, "h"), "check", True, "owner: option 'n' expects an integer, got 'true'"),
    (Option("n", "int", 3, "h"), "check", "3", "owner: option 'n' expects an integer, got '3'"),
    (Option("f", "bool", True, "h"), "check", 1,
     "owner: option 'f' expects a boolean (true, false, 1 or 0), got '1'"),
    (Option("f", "bool", True, "h"), "accept", "yes",
     "owner: option 'f' expects a boolean (true, false, 1 or 0), got 'yes'"),
    (Option("d", "enum", "a", "h", choices=("a", "b")), "check", 2,
     "owner: option 'd' expects one of a|b, got '2'"),
    (Option("s", "str", None, "h"), "parse", "", "owner: option 's' expects a name, got ''"),
    (Option("n", "int", 3, "h"), "parse", "9223372036854775808",
     "owner: option 'n' is out of range: 9223372036854775808 does not fit in a 64-bit integer "
     "(-9223372036854775808..9223372036854775807)"),
    (Option("n", "int", 3, "h"), "check", -(1 << 63) - 1,
     "owner: option 'n' is out of range: -9223372036854775809 does not fit in a 64-bit integer "
     "(-9223372036854775808..9223372036854775807)"),
])
def test_option_errors_name_the_option_the_range_and_the_value(opt, how, value, message):
    with pytest.raises(ConfigError) as ei:
        getattr(opt, how)("owner", value)
    assert str(ei.value) == message


def test_option_kind_is_checked():
    with pytest.raises(ValueError, match="unknown kind 'float'"):
        Option("x", "float", 0.0, "h")


def test_option_table_pairs_values_unknown_keys_and_help():
    t = OptionTable([Option("fence-waits", "bool", True, "fence waits"),
                     Option("max-iterations", "int", 6, "trips", min=1, max=64)])
    assert t.read_pairs("pass 'p'", [("max-iterations", "3")]) == {"max-iterations": 3}
    assert t.read_values("pass 'p'", {"fence-waits": "false"}) == {"fence-waits": False}
    with pytest.raises(ConfigError, match=r"expects a boolean .*got 'false'"):
        t.read_values("pass 'p'", {"fence-waits": "false"}, text_allowed=False)
    with pytest.raises(ConfigError) as ei:
        t.read_pairs("pass 'p'", [("fence-wait", "1")])
    assert str(ei.value) == ("pass 'p': unknown option 'fence-wait' (did you mean "
                             "'fence-waits'?); valid keys: fence-waits, max-iterations")
    with pytest.raises(ConfigError, match=r"option 'max-iterations' given twice \('3' and '4'\)"):
        t.read_pairs("pass 'p'", [("max-iterations", "3"), ("max-iterations", "4")])
    assert t.describe("  ", 20) == [
        "  fence-waits=true     fence waits; a boolean (true, false, 1 or 0)",
        "  max-iterations=6     trips; an integer in 1..64"]
    with pytest.raises(ValueError, match="duplicate option names"):
        OptionTable([Option("a", "int", 0, "h"), Option("a", "int", 1, "h")])


def test_split_spec_accepts_pass_option_names():
    assert split_spec("sched-lower-to-rocdl{fence-waits=false, fence-blocks=1}", "pass") == (
        "sched-lower-to-rocdl", [("fence-waits", "false"), ("fence-blocks", "1")])
    with pytest.raises(ConfigError, match="pass 'p': option 'k' has no value"):
        split_spec("p{k}", "pass")


# ---- the typed schedule objects --------------------------------------------------------------

def test_schedule_objects_are_typed_and_checked_however_they_are_made():
    s = FourWave(BM=64, dtype="FP8", BK=128)
    assert (s.dtype, s.BM, s.BK) == ("fp8", 64, 128)  # enumerations are lower case
    assert s.spec() == "4wave{dtype=fp8 BM=64 BK=128}"  # not given: printed when not default
    assert s == parse_pipeline("4wave{BK=128 BM=64 dtype=fp8}")  # the given order is not identity
    assert hash(s) == hash(parse_pipeline("4wave{BK=128 BM=64 dtype=fp8}"))
    assert s != parse_pipeline("4wave{BK=128 BM=64 dtype=fp8 scheduling=identity}")
    assert make_schedule("4wave", {"BM": 64, "dtype": "fp8", "BK": 128}) == s
    with pytest.raises(ConfigError, match="pipeline '4wave': option 'BM' is out of range"):
        FourWave(BM=0)
    with pytest.raises(ConfigError, match="pipeline '4wave': option 'BM' expects an integer"):
        make_schedule("4wave", {"BM": "64"})  # typed values only, unless text is allowed
    assert make_schedule("4wave", {"BM": "64"}, text_allowed=True).BM == 64
    with pytest.raises(ConfigError, match="is the schedule's own option"):
        FourWave(config=(("BM", 64),))
    with pytest.raises(ConfigError, match="'auto_waits' is a ScheduleConfig field"):
        SingleBuffer(config=(("auto_waits", False),))
    with pytest.raises(ConfigError, match="option 'auto_waits' given twice"):
        PingPong(config=(("auto_waits", False), ("auto_waits", True)))
    with pytest.raises(ConfigError, match="unknown pipeline 'eightwave'"):
        make_schedule("eightwave", {})


def test_with_changes_options_and_keeps_the_given_order():
    s = parse_pipeline("pingpong{max_globals=0}").with_(vm_per_load_a=2, lgkm_per_load_b="4")
    assert s.spec() == "pingpong{max_globals=0 vm_per_load_a=2 lgkm_per_load_b=4}"
    with pytest.raises(ConfigError, match="option 'vm_per_load_a' is out of range"):
        s.with_(vm_per_load_a=64)
    with pytest.raises(KeyError):
        s.get("scheduling")  # a ScheduleConfig override, not an own option


def test_kernel_facts_come_from_the_schedule():
    assert KERNEL_SCHEDULES == ("4wave", "pingpong")
    for name in SCHEDULES:
        s = parse_pipeline(name)
        assert s.has_kernel == (name in KERNEL_SCHEDULES)
        assert s.lgkm_per_load == s.compile().lgkm_per_load
    assert parse_pipeline("4wave").kernel_traits.zero_trip_fence
    assert not parse_pipeline("pingpong").kernel_traits.zero_trip_fence
    assert parse_pipeline("pingpong{vm_per_load_b=3}").vm_per_load == (2, 3)
    assert parse_pipeline("4wave{dtype=fp8 BK=128}").lgkm_per_load == (4, 4)
    assert parse_pipeline("single-buffer").lgkm_per_load == (0, 0)


def test_tune_knobs_are_options_of_their_schedule():
    """Each schedule class declares the knobs --tune searches; each is one of its options and
    every value tried parses as that option's value."""
    tuned = {name: cls for name, cls in SCHEDULES.items() if cls.tune_knobs}
    assert sorted(tuned) == sorted(KERNEL_SCHEDULES)
    for cls in tuned.values():
        names = [k.name for k in cls.tune_knobs]
        assert len(set(names)) == len(names)
        for knob in cls.tune_knobs:
            opt = cls.option(knob.name)
            assert opt is not None, f"{cls.name}: knob {knob.name} is not an option"
            for v in knob.values:
                opt.parse(cls.owner(), v)
    assert SingleBuffer.tune_knobs == ()


@pytest.mark.parametrize("body, pairs", [
    ("force-sources=0,1", [("force-sources", "0,1")]),
    ("force-sources=0,1 ahead=false", [("force-sources", "0,1"), ("ahead", "false")]),
    ("ahead=false,force-sources=2,0,1", [("ahead", "false"), ("force-sources", "2,0,1")]),
    # one comma after a one-element value separates pairs, as after any value (BM=128,)
    ("force-sources=0, ahead=true,", [("force-sources", "0"), ("ahead", "true")]),
    ("force-sources=0,-1", [("force-sources", "0,-1")]),
    # a comma before a key still separates pairs
    ("force-sources=1,ahead=true", [("force-sources", "1"), ("ahead", "true")]),
])
def test_split_spec_reads_a_list_value(body, pairs):
    """A comma followed by an item that cannot begin a key continues the value (a list of
    numbers, as ``sched-stage-copies{force-sources=0,1}`` is documented)."""
    assert split_spec(f"p{{{body}}}", "pass") == ("p", pairs)


@pytest.mark.parametrize("body, fragment", [
    ("force-sources=0,,1", "option 'force-sources' has an empty element between '0' and "
                           "'1' (force-sources=0...;"),
    ("force-sources=2,0,,1", "option 'force-sources' has an empty element between '0' and "
                             "'1' (force-sources=2,0...;"),
    ("force-sources=0,1,,", "option 'force-sources' is followed by an empty element after "
                            "'1', at the end (force-sources=0,1,,...;"),
    ("force-sources=0,1 , ,", "option 'force-sources' is followed by an empty element after "
                              "'1', at the end"),
    ("ahead=false,,force-sources=0", "option 'ahead' is followed by an empty element after "
                                     "'false', before 'force-sources'"),
    ("force-sources=0,1,", "option 'force-sources' ends in a comma after its last element "
                           "'1' (force-sources=0,1,;"),
    ("ahead=true force-sources=2,0,1,", "option 'force-sources' ends in a comma after its "
                                        "last element '1'"),
    ("force-sources=0 1", "option 'force-sources' has '1' after it, separated by a space "
                          "(force-sources=0...;"),
    ("force-sources=0,x", "option 'x' has no value"),
    ("=3", "expected key=value at '=3'"),
])
def test_split_spec_list_value_errors(body, fragment):
    with pytest.raises(ConfigError, match=re.escape(fragment)):
        split_spec(f"p{{{body}}}", "pass")


@pytest.mark.parametrize("spec, wait", [
    # the reference's own rectangular geometry keeps its count: block 0's global (A,
    # 4 reads per load) though the block before issued B's 8
    ("4wave{dtype=bf16 BM=64 BN=128 BK=128}", 4),
    # K-half subtiles (IREE's 16x128 one-wave tile, 8 accumulators sharing A): the
    # fragment loads of the block before the top of the half, B's 8, not A's 2
    ("4wave{dtype=f16 BM=16 BN=128 BK=64 k_subtiles=a lgkm_per_load_a=2 waves=1}", 8),
])
def test_fourwave_top_of_half_wait(spec, wait):
    text = format_schedule(parse_pipeline(spec).compile())
    (first,) = [ln for ln in text.splitlines() if ln.startswith("KRN") and "WAIT_LGKM" in ln][:1]
    assert f"wait={wait} " in first, first
