"""The compile API (``pipeline_mlir.driver``): typed options in, a typed result out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline_mlir.driver import CompileOptions, CompileResult, UsageError, compile
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.schedule.printing import format_schedule
from pipeline_mlir.schedules.registry import parse_pipeline

ABSTRACT = '''"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
'''


def test_the_default_body_schedule_is_the_cores():
    want = format_schedule(parse_pipeline("4wave").compile())
    for schedule in ("4wave", parse_pipeline("4wave")):   # spec text or the schedule object
        result = compile(CompileOptions(schedule=schedule))
        assert isinstance(result, CompileResult)
        assert (result.output, result.diagnostics, result.failed) == (want, [], False)


def test_through_the_passes_the_schedule_is_the_same():
    """A pass dump asked for sends the default body through MLIR: same schedule text."""
    fast = compile(CompileOptions(schedule="pingpong"))
    slow = compile(CompileOptions(schedule="pingpong", timing=True))
    assert slow.output == fast.output and not slow.failed


@pytest.mark.parametrize("options, message", [
    (CompileOptions(), "nothing to do"),
    (CompileOptions(schedule="4wave", pass_pipeline="builtin.module(cse)"), "cannot be combined"),
    (CompileOptions(schedule="4wave", emit="bitcode"), "unknown --emit kind 'bitcode'"),
    (CompileOptions(schedule="4wave", chip="gfx942"), "unsupported processor"),
])
def test_options_that_make_no_compilation_are_a_usage_error(options, message):
    with pytest.raises(UsageError, match=message):
        compile(options)


SOURCES = {"schedule": {}, "kernel": {"emit": "asm"}, "input": {"text": ABSTRACT}}
UNPARSED = {"nope": "unknown pipeline 'nope'",
            "4wave{bogus=1}": "pipeline '4wave': unknown option 'bogus'; valid keys: dtype, BM,",
            "4wave{BM=}": "pipeline '4wave': option 'BM' has an empty or malformed value"}
#: a spec that parses but whose schedule does not compile (on an input, the passes locate
#: that error at the input's op)
UNCOMPILED = ("4wave{BM=512 BN=512 BK=128}", "pipeline '4wave{BM=512 BN=512 BK=128}': KRN[1] "
                                             "WAIT_VM waits for vmcnt(64), over the gfx950 limit")


@pytest.mark.parametrize("spec, message, source", [
    *((spec, message, source) for spec, message in UNPARSED.items() for source in SOURCES),
    (*UNCOMPILED, "schedule"), (*UNCOMPILED, "kernel")],
    ids=lambda v: v if v in SOURCES or v in UNPARSED or v == UNCOMPILED[0] else "")
def test_a_bad_spec_is_one_error_diagnostic(spec, message, source):
    """A spec that does not parse (or whose schedule does not compile) is a failed result
    with the core's message, which names the key, as one error without a location: it
    raised the ConfigError before (only the command line made it an error line).  Printing
    it, for an input, or for the kernel it would build (which is never built: milliseconds
    each)."""
    source = SOURCES[source]
    result = compile(CompileOptions(schedule=spec, **source))
    assert result.failed and result.output is None
    (d,) = result.diagnostics
    assert (d.severity, d.location()) == ("error", None)
    assert d.message.startswith(message)
    with pytest.raises(PipelineError, match=re.escape(message)):
        result.checked_output()


def test_input_text_errors_are_located_diagnostics():
    result = compile(CompileOptions(pass_pipeline="builtin.module(sched-verify)", text="}",
                                    filename="x.mlir"))
    assert result.failed and result.output is None
    (d,) = result.diagnostics
    assert (d.severity, d.file, d.line) == ("error", "x.mlir", 1)
    assert result.sources.line("x.mlir", 1) == "}"      # for the caret under the column
    with pytest.raises(PipelineError, match=r"^x\.mlir:1:1: error: "):
        result.checked_output()


WAVE_GEMM = Path(__file__).parents[2] / "data" / "wave" / "gemm_f16_128x128x256.mlir"


@pytest.mark.parametrize("given", ["text", "file", "stdin"])
def test_an_older_iree_syntax_is_read_from_text_as_from_a_file(given, monkeypatch):
    """IREE Wave's GEMM (wave-lang 3.9's syntax: ``pipeline = None``, ``blgp = none``) is
    read the same way from ``text=``, a file and standard input: ``text=`` skipped the
    upgrade and failed to parse.  (A one-pass pipeline on a small file: well under a
    second.)"""
    from cli_helpers import with_stdin

    data = WAVE_GEMM.read_text()
    assert "translation_info<pipeline = None" in data and re.search(r"blgp =\s+none", data)
    source = {"text": {"text": data, "filename": str(WAVE_GEMM)},
              "file": {"input": str(WAVE_GEMM)}, "stdin": {"input": "-"}}[given]
    if given == "stdin":
        with_stdin(monkeypatch, data.encode())
    result = compile(CompileOptions(pass_pipeline="builtin.module(sched-verify)", **source))
    assert (result.failed, result.diagnostics) == (False, [])
    assert "pass_pipeline<\"\">" in result.output and "blgp" not in result.output


def test_an_older_syntax_text_cannot_read_is_located_in_text_as_in_a_file(tmp_path):
    """The upgrade's refusal (a ``blgp`` other than the default) from ``text=`` is the
    file's: one error naming the file and line, no output."""
    data = re.sub(r"blgp =\s+none", "blgp = bcast1", WAVE_GEMM.read_text(), count=1)
    line = data[:data.index("blgp = bcast1")].count("\n") + 1
    path = tmp_path / "w.mlir"
    path.write_text(data)
    results = [compile(CompileOptions(pass_pipeline="builtin.module(sched-verify)", **src))
               for src in ({"text": data, "filename": str(path)}, {"input": str(path)})]
    for result in results:
        (d,) = result.diagnostics
        assert result.output is None and d.severity == "error"
        assert d.message.startswith(f"{path}:{line}: 'amdgpu.mfma' in an older syntax with "
                                    f"blgp = bcast1")
    assert results[0].diagnostics == results[1].diagnostics


def test_a_parsed_module_is_compiled_without_parsing_again(monkeypatch):
    from pipeline_mlir.dialect.bindings import ir, new_context

    options = CompileOptions(pass_pipeline="builtin.module(sched-annotate)", text=ABSTRACT,
                             filename="a.mlir")
    want = compile(options).checked_output()
    with new_context() as ctx:
        module = ir.Module.parse(ABSTRACT, ctx)

        def no_parse(*a, **k):
            raise AssertionError("parsed again")

        monkeypatch.setattr(ir.Module, "parse", no_parse)
        from dataclasses import replace

        assert compile(replace(options, module=module)).checked_output() == want
    assert 'state = "annotated"' in want


def test_the_kernel_plan_and_the_report_come_with_the_result():
    """The report's build hands back the plan and the report; and one build keeps every
    output of the LLVM step (and the lowered MLIR) beside ``--emit=hsaco``: each the bytes
    ``--emit`` of its kind writes alone, the report object the one it prints."""
    from pipeline_mlir.isa.report import KernelReport
    from pipeline_mlir.kernel.plan import KernelPlan

    spec = "4wave{dtype=fp8 BM=64 BN=64 BK=128}"
    result = compile(CompileOptions(schedule=spec, emit="report"))
    (plan,) = result.plans
    assert isinstance(plan, KernelPlan) and isinstance(result.report, KernelReport)
    assert result.report.isa is not None          # the ISA check ran: it had the plan
    assert result.checked_output() == result.report.format()
    kinds = ("mlir", "llvm", "asm", "obj", "report")
    one = compile(CompileOptions(schedule=spec, emit="hsaco", stages=kinds))
    assert list(one.stages) == list(kinds) and one.report.format() == one.stages["report"]
    assert one.stages["report"] == result.output
    for kind in ("mlir", "llvm", "asm", "obj", "hsaco"):
        alone = compile(CompileOptions(schedule=spec, emit=kind)).checked_output()
        assert (one.output if kind == "hsaco" else one.stages[kind]) == alone, kind


IREE_4096 = "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir"


def test_stages_kept_on_the_way_are_the_emits_own_outputs(capsys):
    """One run of the passes keeps the module after ``sched-adopt-loop`` and the schedule
    after the phases and gives the lowered MLIR: each the text ``--emit`` of its kind
    writes (the adopted module: ``--mlir-print-ir-after=sched-adopt-loop``'s dump), byte for
    byte; through a store, the stages' build fills the plain build's key too (a plain build
    after it compiles nothing)."""
    from pathlib import Path

    from pipeline_mlir.driver.arguments import PrintIR
    from pipeline_mlir.driver.code_cache import sharing

    text = (Path(__file__).parents[3] / IREE_4096).read_text()
    store: dict = {}

    def keep(kind, key, build):
        if (kind, key) not in store:
            store[kind, key] = build()
        return store[kind, key]
    with sharing(keep, emits=("mlir",)):
        both = compile(CompileOptions(schedule="4wave", text=text, emit="mlir",
                                      stages=("adopted", "schedule", "schedule-json")))
        assert len(store) == 2 and not both.failed
        plain = compile(CompileOptions(schedule="4wave", text=text, emit="mlir"))
        assert len(store) == 2 and plain.stages == {}
    assert plain.output == both.output
    capsys.readouterr()
    for kind in ("schedule", "schedule-json"):
        alone = compile(CompileOptions(schedule="4wave", text=text, emit=kind, print_ir=PrintIR(
            after=frozenset({"sched-adopt-loop"}) if kind == "schedule" else frozenset())))
        assert both.stages[kind] == alone.checked_output()
    dump = capsys.readouterr().err
    head = "// -----// IR Dump After sched-adopt-loop //----- //\n"
    assert dump.startswith(head) and "sched.options" in both.stages["adopted"]
    assert dump == head + both.stages["adopted"] + "\n"


@pytest.mark.parametrize("options, message", [
    (dict(schedule="4wave", text="x", emit="hsaco", stages=("bitcode",)),
     "'bitcode' is not an output kept on the way"),
    (dict(schedule="4wave", text="x", emit="hsaco", stages=("hsaco",)),
     "'hsaco' is not made before --emit=hsaco's output .* or one the LLVM step makes"),
    (dict(schedule="4wave", text="x", emit="mlir", stages=("asm",)),
     "'asm' is not made before --emit=mlir's output"),
    (dict(schedule="4wave", text="x", emit="schedule", stages=("mlir",)),
     "'mlir' is not made before --emit=schedule's output"),
    (dict(schedule="4wave", text="x", emit="mlir", stages=("mlir",)),
     "'mlir' is not made before --emit=mlir's output"),
    (dict(schedule="4wave", text="x", emit="schedule", stages=("schedule-json",)),
     "'schedule-json' is not made before"),
    (dict(pass_pipeline="builtin.module(cse)", text="x", emit="hsaco", stages=("mlir",)),
     "only a named pipeline"),
    (dict(schedule="4wave", emit="schedule", stages=("adopted",)), "run on an input"),
    (dict(schedule="4wave", text="x", emit="hsaco", stages=("mlir",), timing=True),
     "a plain build only"),
    (dict(schedule="4wave", text="x", emit="mlir", stages=("schedule",),
          split_input_file=True), "a plain build only"),
])
def test_stages_that_are_not_on_the_way_are_a_usage_error(options, message):
    with pytest.raises(UsageError, match=message):
        compile(CompileOptions(**options))


TWO_KERNELS = '''module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @first() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
    gpu.func @second() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}
'''


def test_a_report_of_two_kernels_is_refused_at_the_second(capsys, tmp_path):
    """``--emit=report`` reports on one kernel: a module of two is a located error at the
    second (the compile API's diagnostic, ``checked_output``'s PipelineError, the CLI's one
    line and exit status 1), not the assembly reader's unlocated error escaping; the
    reader's own error is typed and names both."""
    from cli_helpers import run_cli_text

    from pipeline_mlir.isa.asm import FunctionCountError, parse_asm

    want = ("error: --emit=report reports on one kernel, and the module has 2 (first, "
            "second): compile each in a module of its own")
    result = compile(CompileOptions(text=TWO_KERNELS, filename="two.mlir", emit="report"))
    (d,) = result.diagnostics
    assert result.failed and (d.file, d.line, d.col) == ("two.mlir", 6, 5)
    with pytest.raises(PipelineError) as raised:
        result.checked_output()
    assert str(raised.value).startswith("two.mlir:6:5: " + want)
    code, out, err = run_cli_text(capsys, tmp_path, TWO_KERNELS, "--emit=report")
    assert (code, out) == (1, "") and err.count("error:") == 1 and "Traceback" not in err
    assert err.splitlines()[0] == f"{tmp_path / 'k.mlir'}:6:5: {want}"
    with pytest.raises(FunctionCountError) as caught:
        parse_asm("\t.text\nfirst:\n\ts_endpgm\nsecond:\n\ts_endpgm\n").function()
    assert caught.value.names == ["first", "second"]


def test_a_parsed_module_run_as_written_builds_through_a_store_that_keeps_stages():
    """A store that keeps ``adopted``, ``schedule-json`` and ``mlir`` with every ``hsaco``
    build (the test suite's) builds a kernel whose loop the front end runs as written
    (one K step: no schedule to print) again as it was asked; given parsed (what
    ``--emulate`` hands the API), that build again parses the caller's text: the failed
    build's passes took the module (before, the build again ran on it and said "nothing to
    pipeline").  Without the store, the same code object."""
    import subprocess
    import sys
    from dataclasses import replace

    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.code_cache import sharing

    root = Path(__file__).parents[3]
    text = subprocess.run([sys.executable, str(root / "examples" / "natural_kernel.py"),
                           "k=32"], capture_output=True, text=True, check=True).stdout
    options = CompileOptions(schedule="4wave", text=text, filename="k.mlir", emit="hsaco")
    want = compile(replace(options, isa_check=False))
    assert not want.failed and "not pipelined" in want.diagnostics[0].message
    store: dict = {}

    def keep(kind, key, build):
        if (kind, key) not in store:
            store[kind, key] = build()
        return store[kind, key]
    with new_context() as ctx, sharing(keep, stages=("adopted", "schedule-json", "mlir"),
                                       isa_check=False):
        module = ir.Module.parse(text, ctx)
        got = compile(replace(options, module=module))
    assert not got.failed, [d.message for d in got.diagnostics]
    assert got.output == want.output


def test_what_a_store_holds_is_read_without_building():
    """``code_cache.stored``: the result a store holds for a plain build (one it shares,
    built already, under the plain key a build with stages fills too), else None, building
    nothing and leaving nothing in the store: no store, a build it does not share (another
    emit kind, an option of its own), or none held yet."""
    from pipeline_mlir.driver.code_cache import sharing, stored

    text = "module {}"
    plain = CompileOptions(schedule="4wave", text=text, emit="hsaco")
    store: dict = {}

    def keep(kind, key, build):
        if (kind, key) not in store:
            store[kind, key] = build()
        return store[kind, key]
    assert stored(plain) is None
    with sharing(keep):
        assert stored(plain) is None and store == {}
        store["hsaco", ("4wave", text)] = "held"
        assert stored(plain) == "held"
        assert stored(CompileOptions(schedule="4wave", text=text, emit="asm")) is None
        assert stored(CompileOptions(schedule="4wave", text=text, emit="hsaco",
                                     chip="gfx942")) is None
        assert stored(CompileOptions(schedule="4wave", text=text, emit="hsaco",
                                     stages=("mlir",))) == "held"
    assert len(store) == 1
