"""``merge_k=auto``'s occupancy rule confirmed on the built kernel
(``pipeline_mlir/driver/merge_confirm.py``): a merge for time whose kernel LLVM built with
fewer than 2 waves per SIMD is built again unmerged, saying why."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.driver import merge_confirm as MC
from pipeline_mlir.driver.arguments import PrintIR
from pipeline_mlir.driver.job import REBUILT_DUMPS

sys.path.insert(0, str(Path(__file__).parents[1] / "frontend"))
from test_kmerge import EXAMPLE  # noqa: E402
from long_tier import FUNCTIONS_RUN  # noqa: E402

#: the note of a loop auto merged for time (frontend/kmerge.py's merge_note)
TIMED = ("merge_k=auto: 2 K steps merged into each K tile (two stages of one K step hold 512 "
         "cycles of MFMAs, less than a global load's 790)")


def _report(vgprs: int, lds: int = 65536, spills: int = 0):
    return SimpleNamespace(resources=SimpleNamespace(vgpr_alloc=vgprs, sgprs_for_waves=40,
                                                     lds_bytes=lds, workgroup_size=256,
                                                     vgpr_spills=spills))


def test_the_built_vgprs_decide_on_both_sides_of_two_waves():
    """256 VGPRs allocated keep 2 waves per SIMD, 264 leave one (the 512 of a lane's file,
    in granules of 8): only then, and only for a merge ``auto`` made for time, is the kernel
    built again."""
    plans = [SimpleNamespace(merge_note=TIMED)]
    assert MC.unconfirmed("report", None, _report(256), plans, 1) is None
    why = MC.unconfirmed("report", None, _report(264), plans, 1)
    assert why == ("merged, the kernel LLVM built runs 1 wave per SIMD (fewer than 2; "
                   "limited by vgpr: 264 VGPRs allocated a wave, 65536 bytes of LDS per "
                   "workgroup of 256 threads), so it was built again unmerged"), why
    assert "limited by lds: " in MC.unconfirmed("report", None, _report(128, 98304), plans, 1)
    # the merged kernel asks LLVM for 2 waves (frontend/kmerge.py's ask_merged_waves), which
    # LLVM may meet by spilling: built again unmerged too
    why = MC.unconfirmed("report", None, _report(256, spills=6), plans, 1)
    assert why == ("merged, the kernel LLVM built spills 6 VGPRs to scratch to run 2 waves "
                   "per SIMD, so it was built again unmerged"), why
    # nothing merged, a merge the pipeline asked for, or one auto declined: kept as built
    for note in (None, "merge_k=true: 2 K steps merged into each K tile (two stages of ...",
                 "merge_k=auto: 2 K steps merged into each K tile (the pipeline sets BK=64, "
                 "2 of the loop's K steps of 32)",
                 "merge_k=auto leaves its K steps as they are: the pipeline sets BK=32"):
        for built in (_report(264), _report(256, spills=6)):
            assert MC.unconfirmed("report", None, built,
                                  [SimpleNamespace(merge_note=note)], 1) is None, note


def test_a_report_kept_beside_the_code_says_why_it_was_built_again(tmp_path, monkeypatch):
    """A report kept beside ``--emit=hsaco`` (the compile API's ``stages``) of a kernel built
    again unmerged is the rebuilt kernel's and says why, as ``--emit=report`` does: the
    text kept is the report object's, which carries the note."""
    from pipeline_mlir.driver.code_cache import sharing

    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(lds="alloc", k=512))
    monkeypatch.setattr(MC, "MIN_WAVES_PER_SIMD", 3)
    with sharing(None):
        got = compile(CompileOptions(input=str(path), schedule="4wave", emit="hsaco",
                                     stages=("report",)))
    note = got.report.merge_note
    assert note.startswith("merge_k=auto leaves its K steps as they are: merged") and \
        note.endswith("so it was built again unmerged"), note
    assert [p.merge_note for p in got.plans] == [note]
    assert got.stages["report"] == got.report.format()
    assert f"K steps: {note}" in got.stages["report"]


def _two_kernels(text: str) -> str:
    """``text``'s one ``gpu.func`` and a copy of it named ``@natural2``: code of two
    kernels, which the rule judges as well (by the kernel of the fewest waves)."""
    start = text.index("    gpu.func @natural")
    end = text.index("    }\n", text.index("gpu.return", start)) + len("    }\n")
    return text[:end] + text[start:end].replace("@natural", "@natural2") + text[end:]


#: ``--mlir-print-ir-after=sched-adopt-loop``
ADOPTED = PrintIR(after=frozenset({"sched-adopt-loop"}))


def _dumps(err: str, n: int) -> list[str]:
    """The ``n`` IR dumps after ``sched-adopt-loop`` in ``err`` (each to the next)."""
    dumps = err.split("// -----// IR Dump After sched-adopt-loop //----- //")[1:]
    assert len(dumps) == n, err[-3000:]
    return dumps


def test_a_merge_below_the_waves_is_built_again_unmerged_for_every_emit(tmp_path,
                                                                        monkeypatch, capfd):
    """The 4-wave example's loop in two kernels, merged by default (64 KiB of LDS: 2 waves
    per SIMD), with the rule asking for 3: the driver reads the built kernels' 2 waves and
    builds them again with ``merge_k=false`` (32 KiB of LDS), their plans saying why (code
    of two kernels was kept merged unjudged before); and ``--emit=mlir`` and
    ``--emit=schedule``, which build no machine code, give those kernels too (``mlir``
    through a build store: the hsaco build it asks for is ``--emit=hsaco``'s; ``schedule``
    of the module given parsed, without its text, with no store: on its own module taken
    on to LLVM's code), not the merged ones (before, they did): one kernel for every emit,
    so the MLIR handed back is the kernel ``--emulate`` checks.  ``schedule``'s confirmation
    runs no pass of the front end again and judges the merged kernel's assembly to the
    letter (before, with no store, a whole second build).  The IR dumps and timings asked
    for come from both runs of the kernel built again, a line between them saying that the
    ones above are of the merged kernel, not emitted."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.code_cache import sharing
    from pipeline_mlir.isa.codeobject import read_code_object
    from pipeline_mlir.passes import adopt_loop

    path = tmp_path / "natural.mlir"
    path.write_text(_two_kernels(EXAMPLE.kernel_text(lds="alloc", k=512)))
    monkeypatch.setattr(MC, "MIN_WAVES_PER_SIMD", 3)
    kept: dict = {}         # (a store of this test's own: its builds are the rule's at 3)
    with sharing(lambda kind, key, build: kept[kind, key] if (kind, key) in kept else
                 kept.setdefault((kind, key), build())):
        got = {emit: compile(CompileOptions(input=str(path), schedule="4wave", emit=emit))
               for emit in ("hsaco", "mlir")}
    # one hsaco build: the file's, shared by --emit=mlir's confirmation
    assert len(kept) == 1, kept.keys()
    # with no store, --emit=schedule of a module given parsed (no text) takes its own module
    # on to LLVM's code to confirm, and builds the module's text again unmerged
    monkeypatch.setattr(MC, "confirmed_by_build", lambda *a: pytest.fail("built again"))
    # (the assembly it judged, and the runs of the front end: the first and the one again)
    judged, runs = [], []
    unconfirmed, run = MC.unconfirmed, adopt_loop.AdoptLoop.run
    monkeypatch.setattr(MC, "unconfirmed", lambda emit, out, *a: judged.append((emit, out))
                        or unconfirmed(emit, out, *a))
    monkeypatch.setattr(adopt_loop.AdoptLoop, "run",
                        lambda self, *a: runs.append(1) or run(self, *a))
    capfd.readouterr()
    with new_context() as ctx:
        given = ir.Module.parse(path.read_text(), ctx)
        got["schedule"] = compile(CompileOptions(module=given, schedule="4wave",
                                                 emit="schedule", print_ir=ADOPTED,
                                                 timing=True))
        # the caller's module is left as the run's passes made it (its schedule), not taken
        # on to LLVM's code by the confirmation (before, it was: llvm.func, no gpu.func)
        left = str(given)
        assert "gpu.func @natural" in left and "llvm.func" not in left, left[:2000]
    assert len(judged) == 1 and judged[0][0] == "asm" and len(runs) == 2, (judged, runs)
    # what it judged is, to the letter, the merged kernel's assembly (--emit=asm of the
    # merge the pipeline asks for, which is kept as built): the emits cannot disagree
    merged_asm = compile(CompileOptions(text=path.read_text(), schedule="4wave{merge_k=true}",
                                        emit="asm"))
    assert judged[0][1] == merged_asm.output
    merged, emitted = _dumps(capfd.readouterr().err, 2)
    # (the first run's dumps labelled as not the kernel emitted: before, unlabelled)
    assert f"// -----// {REBUILT_DUMPS}: merge_k=auto leaves its K steps as they are: merged" \
           in merged and "; the IR dumps and timings above are of the merged kernel" in merged
    assert "BK = 64 : i64" in merged and "BK = 32 : i64" in emitted and \
        REBUILT_DUMPS not in emitted
    # each run's --mlir-timing report on its side of the line (before, MLIR printed the
    # merged run's when its PassManager went, after the run again: both below the line)
    timing = "Execution time report"
    assert merged.index(timing) < merged.index(REBUILT_DUMPS) and timing in emitted and \
        merged.count(timing) == emitted.count(timing) == 1, merged[-3000:]
    for emit, result in got.items():
        assert not result.failed, (emit, result.diagnostics)
    code = read_code_object(got["hsaco"].output)
    assert [k.fields["group_segment_fixed_size"] for k in code.kernels.values()] == [32768] * 2
    for emit in ("mlir", "hsaco"):
        [note] = {p.merge_note for p in got[emit].plans if len(got[emit].plans) == 2}
        assert re.fullmatch(r"merge_k=auto leaves its K steps as they are: merged, the kernel "
                            r"LLVM built runs 2 waves per SIMD \(fewer than 3; limited by vgpr "
                            r"and lds: \d+ VGPRs allocated a wave, 65536 bytes of LDS per "
                            r"workgroup of 256 threads\), so it was built again unmerged",
                            note), (emit, note)
    for emit in ("mlir", "schedule"):
        unmerged = compile(CompileOptions(input=str(path), schedule="4wave{merge_k=false}",
                                          emit=emit))
        assert got[emit].output == unmerged.output, emit
    # the verdict kept for the process: the same input's next emit builds no code to confirm
    import pipeline_mlir.driver.api as api
    monkeypatch.setattr(api, "compile", lambda *a: pytest.fail("the merge confirmed again"))
    again = compile(CompileOptions(input=str(path), schedule="4wave", emit="schedule"))
    assert again.output == got["schedule"].output



def test_a_store_without_the_inputs_build_confirms_on_the_runs_own_module(monkeypatch):
    """``--emit=mlir`` of a kernel merged for time, under a build store that holds no
    ``--emit=hsaco`` build of the input, confirms the merge on its own module taken on to
    LLVM's code (``merge_ask.continued``: no pass run again) and builds nothing through the
    store (before, the store's hsaco build from the input ran the front end and every pass
    again); where the store holds that build, the same emit reads its verdict and takes
    nothing on to code (a build held here that says it was built again unmerged: so is
    this emit's kernel)."""
    from pipeline_mlir.driver import merge_ask
    from pipeline_mlir.driver.api import CompileResult
    from pipeline_mlir.driver.code_cache import sharing

    text = EXAMPLE.kernel_text(lds="alloc", k=512)
    kept: dict = {}
    taken: list = []        # (each confirmation on the run's own module)
    continued = merge_ask.continued
    monkeypatch.setattr(merge_ask, "continued", lambda *a, **k: taken.append(1) or
                        continued(*a, **k))

    def store(kind, key, build):
        if (kind, key) not in kept:
            kept[kind, key] = build()
        return kept[kind, key]

    def mlir():
        monkeypatch.setattr(MC, "_VERDICTS", {})
        with sharing(store):
            return compile(CompileOptions(text=text, schedule="4wave", emit="mlir"))
    first = mlir()
    assert kept == {} and taken == [1], kept.keys()
    assert [p.merge_note for p in first.plans] == [TIMED]
    spilled = ("merged, the kernel LLVM built spills 6 VGPRs to scratch to run 2 waves per "
               "SIMD, so it was built again unmerged")
    kept["hsaco", ("4wave", text)] = CompileResult(b"held", [], plans=[
        SimpleNamespace(merge_note=MC.declined_note(spilled))])
    again = mlir()
    assert taken == [1] and len(kept) == 1
    assert [p.merge_note for p in again.plans] == [MC.declined_note(spilled)]
    assert again.output != first.output


def test_a_confirmation_that_cannot_build_keeps_the_emit_as_it_is(tmp_path, monkeypatch):
    """``--emit=schedule``'s confirmation on its own module meets an error on the way to code
    (here the kernel's options refused when the pipeline goes on to LLVM): the schedule is
    written as the run made it, nothing said (the input's own ``--emit=hsaco`` says why),
    and no verdict kept (before, the error failed the schedule emit)."""
    from pipeline_mlir.driver.code_cache import sharing
    from pipeline_mlir.errors import ConfigError
    from pipeline_mlir.passes import registry

    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(lds="alloc", k=512))
    named = registry.named_pipeline

    def refused(schedule, end="lowered", chip=registry.DEFAULT_CHIP):
        if end == "llvm":
            raise ConfigError("an option the kernel cannot show")
        return named(schedule, end, chip)
    monkeypatch.setattr(registry, "named_pipeline", refused)
    monkeypatch.setattr(MC, "_VERDICTS", {})
    with sharing(None):
        got = compile(CompileOptions(input=str(path), schedule="4wave", emit="schedule"))
    assert not got.failed and not got.diagnostics and "PROLOGUE" in got.output, got.diagnostics
    assert MC._VERDICTS == {}


#: a merged kernel short of the waves for its VGPRs alone (merge_confirm.unconfirmed's words)
_SHORT = ("merged, the kernel LLVM built runs 1 wave per SIMD (fewer than 2; limited by vgpr: "
          "264 VGPRs allocated a wave, 65536 bytes of LDS per workgroup of 256 threads), so it "
          "was built again unmerged")


def test_only_a_kernel_short_of_waves_for_its_vgprs_asks_llvm_for_them():
    """The reasons that build a merged kernel again asking LLVM for the waves: too few for
    its VGPRs alone; not its LDS (no allocation changes it), not spills (what the ask
    costs where LLVM cannot meet it otherwise)."""
    plans = [SimpleNamespace(merge_note=TIMED)]
    assert MC.wants_ask(MC.unconfirmed("report", None, _report(264), plans, 1))
    for built in (_report(128, 98304), _report(264, 98304), _report(256, spills=6)):
        assert not MC.wants_ask(MC.unconfirmed("report", None, built, plans, 1))
    assert MC.asked_note(TIMED, _SHORT) == (
        TIMED + "; the kernel asks LLVM for 2 waves per SIMD (without the ask, the kernel LLVM "
        "built runs 1 wave per SIMD (fewer than 2; limited by vgpr: 264 VGPRs allocated a "
        "wave, 65536 bytes of LDS per workgroup of 256 threads))")


#: (2026-12-07) items whose every function of pipeline_mlir the default run's items left run
#: (the function rule of docs/testing.md, "The long tier"; coverage.py per item)


@pytest.mark.parametrize("asked", ["kept", pytest.param("spills", marks=pytest.mark.long(
    f"{FUNCTIONS_RUN}; a merge short of waves built again asking LLVM for them in [kept]"))])
def test_a_merge_short_of_waves_is_built_again_asking_llvm_for_them(tmp_path, monkeypatch,
                                                                    asked):
    """The 4-wave example's loop, merged by default, its first build judged short of waves
    for its VGPRs (``unconfirmed`` made to say so): built again merged, its kernel asking
    LLVM for 2 waves per SIMD (``rocdl.waves_per_eu``), that build judged in turn.  Kept
    (``kept``): every emit gives the asked kernel, the plans and the report saying why it
    asks (``--emit=mlir`` with no build store: judged on its own module taken on to LLVM's
    code, then built again asking); spilling to meet the ask (``spills``): built again
    unmerged, saying so."""
    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(lds="alloc", k=512))
    spilled = ("merged, the kernel LLVM built spills 6 VGPRs to scratch to run 2 waves per "
               "SIMD, so it was built again unmerged")
    # each merged kernel judged: the first build of each emit short of waves, the build
    # again that asks as ``asked`` says (the judgings alternate: each emit's first build,
    # then its build again)
    judged = []

    def judge(emit, out, report, plans, timeout):
        if not MC.merged_by_auto(plans):
            return None
        judged.append(emit)
        return _SHORT if len(judged) % 2 else None if asked == "kept" else spilled
    monkeypatch.setattr(MC, "_VERDICTS", {})
    monkeypatch.setattr(MC, "unconfirmed", judge)
    got = {emit: compile(CompileOptions(input=str(path), schedule="4wave", emit=emit,
                                        **({"stages": ("mlir", "report")}
                                           if emit == "hsaco" else {})))
           for emit in ("hsaco", "mlir")}
    for emit, result in got.items():
        assert not result.failed, (emit, result.diagnostics)
        [note] = {p.merge_note for p in result.plans}
        mlir = result.stages["mlir"] if emit == "hsaco" else result.output
        if asked == "kept":
            assert note == MC.asked_note(TIMED, _SHORT), note
            assert "rocdl.waves_per_eu = 2 : i32" in mlir, emit
        else:
            assert note == MC.declined_note(spilled), note
            assert "rocdl.waves_per_eu" not in mlir, emit
    # the first build of each judged (hsaco's; mlir's on its own module's assembly), then
    # its build again
    assert judged == ["hsaco", "hsaco", "asm", "asm"], judged
    assert f"K steps: {got['hsaco'].plans[0].merge_note}" in got["hsaco"].stages["report"]


def _first_judged_short(monkeypatch) -> list:
    """The outputs the merge's confirmation judges, in order (the list returned, filled as
    it judges), the first kernel merged for time judged too short of waves (:data:`_SHORT`)
    and every other kept; no verdict kept from an earlier build."""
    judged: list = []

    def judge(kind, out, report, plans, timeout):
        if not MC.merged_by_auto(plans):
            return None
        judged.append(out)
        return _SHORT if len(judged) == 1 else None
    monkeypatch.setattr(MC, "_VERDICTS", {})
    monkeypatch.setattr(MC, "unconfirmed", judge)
    return judged


#: the stages the test suite's build store keeps with an ``--emit=hsaco`` build
#: (``build_cache.KEPT_STAGES``), and its report beside
STORE_STAGES = ("adopted", "schedule-json", "mlir", "report")


@pytest.mark.parametrize("emit", ["asm"] + [pytest.param(e, marks=pytest.mark.long(
    f"{FUNCTIONS_RUN}; the asked kernel judged on the run's module is the build asking in [asm]"))
    for e in ("llvm", "report", "hsaco")])
def test_the_asked_kernel_judged_on_the_runs_module_is_the_build_asking(tmp_path, monkeypatch,
                                                                         emit):
    """The kernel asking LLVM for the waves, judged on the first run's own module with the
    ask set (``driver/merge_ask.py``: ``amdgpu-waves-per-eu`` in the extracted module's
    ``passthrough`` for ``--emit=asm``, ``rocdl.waves_per_eu`` before the LLVM step for
    ``--emit=llvm``'s confirmation), is to the letter the build asking from the input (the
    judged assembly), and each emit (output, diagnostics, plans, the stages kept) is the one
    it was: the build from the input made where the shortcut cannot say (``ask_on`` made to
    refuse).  A code emit is then the first run's, with that code, its stages made before
    the LLVM step the first run's with the ask set (``hsaco`` keeping the build store's
    stages: ``merge_ask.asked_stages``)."""
    from pipeline_mlir.driver import merge_ask

    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(lds="alloc", k=512))
    stages = STORE_STAGES if emit == "hsaco" else ()

    def built(shortcut: bool) -> tuple[tuple, list[str]]:
        judged = _first_judged_short(monkeypatch)
        if not shortcut:
            monkeypatch.setattr(merge_ask, "ask_on", lambda module, extracted: False)
        got = compile(CompileOptions(input=str(path), schedule="4wave", emit=emit,
                                     stages=stages))
        monkeypatch.undo()
        assert not got.failed, got.diagnostics
        assert got.plans[0].merge_note == MC.asked_note(TIMED, _SHORT)
        assert set(got.stages) == set(stages), got.stages.keys()
        return (got.output, got.diagnostics, got.plans, got.stages), judged

    (out, judged), (again, judged_again) = built(True), built(False)
    assert len(judged) == 2 and (emit == "report" or judged[1] != judged[0]), len(judged)
    assert judged[1] == judged_again[1] and out == again
    if emit == "llvm":
        assert '"amdgpu-waves-per-eu"="2"' in out[0]
    if emit == "report":
        assert "the kernel asks LLVM for 2 waves per SIMD" in out[0]
    if emit == "hsaco":
        assert "rocdl.waves_per_eu = 2 : i32" in out[3]["mlir"], out[3]["mlir"][:2000]
        assert "rocdl.waves_per_eu = 2 : i32" in out[3]["adopted"]


def test_the_asked_build_on_the_runs_module_falls_back_only_where_it_does_not_build(
        tmp_path, monkeypatch):
    """The asking build judged on the run's own module (``driver/merge_ask.py``) leaves it
    to the build again from the input where that code does not build (a located failure,
    an error of LLVM's: the build from the input says it, here it builds), and lets any other
    exception out: a bug is not taken for a kernel that does not build."""
    from pipeline_mlir.driver import emit as emit_module
    from pipeline_mlir.driver import merge_ask
    from pipeline_mlir.driver.diagnostics import Failure

    path = tmp_path / "natural.mlir"
    path.write_text(EXAMPLE.kernel_text(lds="alloc", k=512))
    calls: list[bool] = []

    def run(error: Exception):
        def emit(*args, **kwargs):          # (the run's own emits are job.py's import)
            calls.append(True)
            raise error
        _first_judged_short(monkeypatch)
        monkeypatch.setattr(emit_module, "emit_output", emit)
        monkeypatch.setattr(merge_ask, "ask_on", lambda module, extracted: True)
        try:
            return compile(CompileOptions(input=str(path), schedule="4wave", emit="asm"))
        finally:
            monkeypatch.undo()

    got = run(Failure.at("the asked code does not build"))
    assert not got.failed, got.diagnostics
    assert got.plans[0].merge_note == MC.asked_note(TIMED, _SHORT)
    assert calls == [True]
    with pytest.raises(RuntimeError, match="a bug"):
        run(RuntimeError("a bug"))


def test_the_asked_stages_are_the_runs_with_the_ask_or_none(tmp_path):
    """``merge_ask.asked_stages``: the stages a run kept before the LLVM step as the build
    asking for the waves makes them (the schedule as it is, the module's parsed and printed
    again with ``rocdl.waves_per_eu``; the LLVM step's left to the code made), and None
    where the text may not parse back to its module (another printing than MLIR's
    default) or the module defines more than one kernel function."""
    from pipeline_mlir.dialect.bindings import build_context
    from pipeline_mlir.driver.arguments import AsmFormat
    from pipeline_mlir.driver.merge_ask import asked_stages

    text = EXAMPLE.kernel_text(lds="alloc", k=512)
    # (a build of the run's stages before the LLVM step; unmerged: nothing to confirm)
    options = CompileOptions(text=text, schedule="4wave{merge_k=false}", emit="mlir",
                             stages=("adopted", "schedule-json"))
    built = compile(options)
    run = {**built.stages, "mlir": built.checked_output(), "report": "left to the code"}
    assert "rocdl.waves_per_eu" not in run["mlir"]
    with build_context() as ctx:
        asked = asked_stages(run, options, "natural.mlir", ctx)
        assert list(asked) == ["adopted", "schedule-json", "mlir"], asked.keys()
        assert asked["schedule-json"] == run["schedule-json"]
        for kind in ("adopted", "mlir"):
            assert asked[kind] != run[kind]
            assert asked[kind].count("rocdl.waves_per_eu = 2 : i32") == 1, kind
            assert run[kind] in (asked[kind].replace("rocdl.waves_per_eu = 2 : i32, ", ""),
                                 asked[kind].replace(", rocdl.waves_per_eu = 2 : i32", "")), kind
        other = CompileOptions(text=text, schedule="4wave", emit="mlir",
                               asm_format=AsmFormat(local_scope=True))
        assert asked_stages(run, other, "natural.mlir", ctx) is None
        assert asked_stages({"schedule-json": run["schedule-json"], "asm": "x"}, other,
                            "natural.mlir", ctx) == {"schedule-json": run["schedule-json"]}
        two = {"mlir": _two_kernels(run["mlir"])}
        assert two["mlir"].count("gpu.func @natural") == 2
        assert asked_stages(two, options, "natural.mlir", ctx) is None
