"""What ``pipeline-opt`` loads to start: the default body's ``--emit=schedule``, ``--help``,
``--version`` and usage errors import none of the heavy modules (numpy, networkx, pyelftools,
msgpack, yaml, the emulator, the simulator, the MLIR bindings, llvmlite), and none of the
lighter ones whose cost is most of a start (:data:`NOT_LOADED`: dataclasses, typing,
importlib.metadata, the other schedules, the scheduler, ...).

Deterministic, not timed: each command runs ``main([...])`` in a fresh interpreter, which then
lists the named modules in ``sys.modules``.  ``benchmarks/bench_startup.py`` measures the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

#: top-level packages and project packages that must not be loaded to start
HEAVY = ("numpy", "networkx", "elftools", "msgpack", "yaml", "iree", "mlir", "llvmlite",
         "pipeline_mlir.emu", "pipeline_mlir.sim")

_PROBE = """
import json, sys
from pipeline_mlir.tools.pipeline_opt import main
code = main(json.loads(sys.argv[1]))
heavy = json.loads(sys.argv[2])
loaded = sorted({h for h in heavy for m in list(sys.modules) if m == h or m.startswith(h + ".")})
with open(sys.argv[3], "w") as f:
    json.dump({"code": code, "loaded": loaded}, f)
"""


def heavy_loaded(argv: list[str], tmp_path: Path, heavy=HEAVY) -> tuple[int, list[str]]:
    """(exit status of ``main(argv)``, the modules of ``heavy`` it left in ``sys.modules``)."""
    result = tmp_path / "probe.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv), json.dumps(heavy),
                           str(result)], capture_output=True, text=True, env=env, timeout=300,
                          cwd=tmp_path)
    assert result.exists(), proc.stderr
    data = json.loads(result.read_text())
    return data["code"], data["loaded"]


@pytest.mark.parametrize("argv, code", [
    (["--pipeline=4wave", "--emit=schedule", "-o", "out.txt"], 0),
    (["--pipeline=pingpong{lds_contention_penalty=4}", "--emit=schedule-json", "-o", "out.txt"],
     0),
    (["--help"], 0),
    (["--version"], 0),
    (["--pipeline=4wave", "--frobnicate"], 1),               # argparse's usage error
    (["--pipeline=4wave", "--emit=bitcode"], 1),             # ours
    (["--pipeline=nope"], 1),                                # the core's
    ([], 1),
], ids=["schedule", "schedule-json", "help", "version", "unknown-flag", "bad-emit",
        "unknown-pipeline", "nothing-to-do"])
def test_start_up_loads_nothing_heavy(argv, code, tmp_path):
    assert heavy_loaded(argv, tmp_path) == (code, [])


#: modules a start-up command does not need (each costs a part of a bare interpreter's start):
#: the standard library's dataclasses (it imports inspect), typing, importlib.metadata, and
#: the modules only other commands or other schedules use
_ELSEWHERE = ("pipeline_mlir.schedule.schedulers", "pipeline_mlir.schedule.evaluate",
              "pipeline_mlir.schedule.body", "pipeline_mlir.passes.registry",
              "pipeline_mlir.dialect", "pipeline_mlir.kernel", "pipeline_mlir.isa")
_STDLIB = ("dataclasses", "typing", "inspect", "importlib.metadata", "difflib", "threading")
NOT_LOADED = _STDLIB + _ELSEWHERE + ("pipeline_mlir.schedules.pingpong",
                                     "pipeline_mlir.schedules.single_buffer")
#: what a command line of only --pipeline, --emit and --mcpu does not load either: the
#: argument parser (tools/argv.py reads it)
NOT_LOADED_BY_SIMPLE = NOT_LOADED + ("argparse", "gettext", "pipeline_mlir.tools.cli")
#: what --help does not load (it lists every schedule's options): the compiler's stages
NOT_LOADED_BY_HELP = _STDLIB + _ELSEWHERE + ("pipeline_mlir.schedule.stages",
                                             "pipeline_mlir.schedule.program_builder",
                                             "pipeline_mlir.schedule.phases")
#: what --version alone does not load either: the argument parser
NOT_LOADED_BY_VERSION = NOT_LOADED + ("argparse", "gettext", "pipeline_mlir.schedules")


@pytest.mark.parametrize("argv, code, not_loaded", [
    (["--pipeline=4wave", "--emit=schedule"], 0, NOT_LOADED_BY_SIMPLE),
    (["--pipeline=4wave{BM=64 BN=64}", "--emit=schedule-json"], 0, NOT_LOADED_BY_SIMPLE),
    (["--pipeline=4wave", "--emit=bitcode"], 1,
     tuple(m for m in NOT_LOADED_BY_SIMPLE if m != "difflib")),  # the message suggests
    (["--help"], 0, NOT_LOADED_BY_HELP),
    (["--version"], 0, NOT_LOADED_BY_VERSION),
    (["-version"], 0, NOT_LOADED_BY_VERSION),
    (["--pipeline=4wave", "--frobnicate"], 1, NOT_LOADED),
    (["--pipeline=4wav"], 1, tuple(m for m in NOT_LOADED if m != "difflib")),  # suggests
], ids=["schedule", "schedule-json", "bad-emit", "help", "version", "version-one-dash",
        "unknown-flag", "unknown-pipeline"])
def test_start_up_loads_only_what_it_needs(argv, code, not_loaded, tmp_path):
    assert heavy_loaded(argv, tmp_path, not_loaded) == (code, [])


def test_the_probe_sees_heavy_modules(tmp_path):
    """The check is not vacuous: a command that needs a heavy module is seen loading it
    (and the kernel file's schedule below, the MLIR bindings and numpy)."""
    code, loaded = heavy_loaded(["--pipeline=4wave", "--simulate", "-o", "out.txt"], tmp_path)
    assert code == 0 and "numpy" in loaded


#: what printing the schedule of a tagged kernel file loads besides the MLIR bindings and
#: numpy (the tag check evaluates the tagged ops' addresses): not the front end's rewriting
#: of a natural loop (``sched-adopt-loop`` finds none), the ISA report and the ELF, YAML and
#: msgpack readers under it, the emulator, the simulator, the LLVM step, the kernel
#: builders, the other schedules or the scheduler they use
NOT_LOADED_BY_KERNEL_SCHEDULE = (
    "pipeline_mlir.frontend.natural", "pipeline_mlir.frontend.adopt",
    "pipeline_mlir.frontend.kmerge", "pipeline_mlir.frontend.kmerge_auto",
    "pipeline_mlir.frontend.tails", "pipeline_mlir.isa.report", "pipeline_mlir.isa.codeobject",
    "elftools", "yaml", "msgpack", "llvmlite", "networkx", "pipeline_mlir.emu",
    "pipeline_mlir.sim", "pipeline_mlir.passes.translate", "pipeline_mlir.isa.worker",
    "pipeline_mlir.kernel.gemm", "pipeline_mlir.schedules.pingpong",
    "pipeline_mlir.schedule.schedulers")


def test_a_kernel_files_schedule_loads_no_rewriting_or_report(tmp_path):
    """``pipeline-opt --pipeline=4wave --emit=schedule examples/gemm_loop_4wave.mlir`` (a
    tagged loop) starts in about half the time it took with the front end's rewriting and
    the ISA report loaded (``benchmarks/bench_startup.py``'s ``kernel-schedule``)."""
    argv = [str(ROOT / "examples/gemm_loop_4wave.mlir"), "--pipeline=4wave", "--emit=schedule",
            "-o", "out.txt"]
    assert heavy_loaded(argv, tmp_path, NOT_LOADED_BY_KERNEL_SCHEDULE + ("iree", "numpy")) \
        == (0, ["iree", "numpy"])
    assert (tmp_path / "out.txt").read_text().startswith("WARP_STAGGER_INDEX")


def test_the_assembly_reader_finds_loops_without_networkx():
    """Its loops are plain sets (pipeline_mlir/isa/natural_loops.py): networkx (~0.1 s to
    import) is not loaded, not even to find them."""
    code = ("import sys\nfrom pipeline_mlir.isa import asm\nassert 'networkx' not in sys.modules\n"
            "text = 'k:\\n.LBB0_1:\\n\\ts_cbranch_scc1 .LBB0_1\\n\\ts_endpgm\\n'\n"
            "assert len(asm.parse_asm(text).functions[0].loops()) == 1\n"
            "assert 'networkx' not in sys.modules\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("dist", ["pipeline-mlir", "iree-base-compiler", "llvmlite", "PyYAML",
                                  "pyyaml", "no-such-distribution"])
def test_version_reads_what_importlib_metadata_reads(dist):
    """``--version`` reads the installed versions without importlib.metadata: the same."""
    from importlib import metadata

    from pipeline_mlir.tools.version import installed_version

    try:
        want = metadata.version(dist)
    except metadata.PackageNotFoundError:
        want = "not installed"
    assert installed_version(dist) == want


def test_the_simple_reader_knows_every_default_of_the_parser():
    import argparse

    from pipeline_mlir.tools.argv import DEFAULTS
    from pipeline_mlir.tools.cli import build_parser

    parser = build_parser()
    assert DEFAULTS == {a.dest: a.default for a in parser._actions
                        if a.default is not argparse.SUPPRESS}, \
        "an option was added or changed: give tools/argv.py's DEFAULTS its default"


@pytest.mark.parametrize("argv", [
    ["--pipeline=4wave"], ["--pipeline=4wave", "--emit=schedule"],
    ["-pipeline=pingpong{is_fp8=true}", "-emit=schedule-json", "--mcpu=gfx942"],
    ["--emit=schedule", "--pipeline=4wave", "--pipeline=pingpong", "-emit=mlir"],
    ["--pipeline=", "--emit=a=b"], ["--mcpu=gfx950"],
])
def test_a_simple_command_line_is_read_as_the_parser_reads_it(argv):
    from pipeline_mlir.tools.argv import parse_simple
    from pipeline_mlir.tools.cli import build_parser, normalize_argv

    parser = build_parser()
    assert vars(parse_simple(argv)) == vars(parser.parse_args(normalize_argv(parser, argv)))


@pytest.mark.parametrize("argv", [
    [], ["--pipeline", "4wave"], ["--pipeline=4wave", "in.mlir"], ["--pipeline=4wave", "-o=x"],
    ["--pipeline=4wave", "--emit"], ["---pipeline=4wave"], ["pipeline=4wave"],
    ["--pipeline=4wave", "--"], ["--pipeline=4wave", "--tune"], ["--pipelin=4wave"],
    ["--version"], ["--pipeline=4wave", "--help"],
])
def test_any_other_command_line_goes_to_the_parser(argv):
    from pipeline_mlir.tools.argv import parse_simple

    assert parse_simple(argv) is None


@pytest.mark.parametrize("columns", [None, "57", "200", "0", "-3", "wide"])
def test_help_is_wrapped_to_the_width_shutil_gives(columns, monkeypatch):
    """--help asks the terminal's width without shutil (it imports the compression modules):
    the same width as shutil.get_terminal_size(), which argparse would use."""
    import shutil

    from pipeline_mlir.tools.cli import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns


#: what a --pass-pipeline of scheduling passes does not load: numpy, the front end, the
#: simulator, the passes it does not name, the kernel builders
NOT_LOADED_BY_SCHEDULING = ("numpy", "pipeline_mlir.sim", "pipeline_mlir.emu",
                            "pipeline_mlir.frontend.tag_check", "pipeline_mlir.frontend.layout",
                            "pipeline_mlir.passes.adopt_loop", "pipeline_mlir.passes.stage_copies",
                            "pipeline_mlir.passes.lower_to_rocdl",
                            "pipeline_mlir.passes.fix_hazards", "pipeline_mlir.kernel.gemm_mlir")


@pytest.mark.parametrize("lit, passes", [("sched-reorder", "sched-reorder"),
                                         ("sched-annotate", "sched-verify,sched-annotate,cse")])
def test_a_pass_pipeline_loads_only_the_passes_it_names(lit, passes, tmp_path):
    """Pass modules load on first use (passes/registry.py), and the MLIR bindings without
    numpy (dialect/bindings.py): a lit RUN line of one scheduling pass starts in about half
    the time."""
    source = ROOT / f"test/lit/passes/{lit}.mlir"
    argv = [str(source), "--split-input-file", f"--pass-pipeline=builtin.module({passes})",
            "-o", "out.mlir"]
    assert heavy_loaded(argv, tmp_path, NOT_LOADED_BY_SCHEDULING) == (0, [])
    assert "sched.pipeline" in (tmp_path / "out.mlir").read_text()


def test_the_pass_probe_sees_the_passes_a_pipeline_names(tmp_path):
    """Not vacuous: the same probe sees the pass module a pipeline names, and numpy with
    the front end's passes."""
    source = ROOT / "test/lit/passes/sched-reorder.mlir"
    argv = [str(source), "--split-input-file", "--pass-pipeline=builtin.module(sched-reorder,"
            "sched-derive-edges)", "-o", "out.mlir"]
    wanted = ("pipeline_mlir.passes.reorder", "pipeline_mlir.passes.derive_edges",
              "pipeline_mlir.passes.schedule")
    assert heavy_loaded(argv, tmp_path, wanted) == (0, sorted(wanted[:2]))
