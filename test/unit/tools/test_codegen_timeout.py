"""``--codegen-timeout=SECONDS`` (and ``PIPELINE_OPT_CODEGEN_TIMEOUT`` when the flag is not
given): how long each child-process step of a build may take (the translation to LLVM IR when
it runs in a child, LLVM's code generation, the link; 120 s by default; a build under heavy
load could hit it with no way round).

A value that is not a finite number of seconds above 0 is one error naming the flag or the
variable; the flag where LLVM makes nothing (``--emit=mlir``, ``--simulate``, ``--launch``)
is refused rather than ignored.  A step past its time is one error naming the option, and
the function it was compiling (at that function when the module defines one)."""

from __future__ import annotations

import pytest
from cli_helpers import one_error, run_cli

from pipeline_mlir.isa import worker
from pipeline_mlir.isa.codegen import DEFAULT_TIMEOUT
from pipeline_mlir.tools.argv import CODEGEN_TIMEOUT_ENV

TINY = "module {\n  llvm.func @f() {\n    llvm.return\n  }\n}\n"
TRANSLATION = "translation to LLVM IR"



@pytest.mark.parametrize("value", ["0", "-3", "abc", "inf", "nan", ""])
def test_a_bad_timeout_names_the_flag(capsys, value):
    code, _, err = run_cli(capsys, "--pipeline=4wave", "--emit=asm", f"--codegen-timeout={value}")
    one_error(code, err, f"--codegen-timeout={value}: expected a number of seconds above 0")


def test_a_bad_variable_names_the_variable(capsys, monkeypatch):
    monkeypatch.setenv(CODEGEN_TIMEOUT_ENV, "2m")
    code, _, err = run_cli(capsys, "--pipeline=4wave", "--emit=asm")
    one_error(code, err, f"{CODEGEN_TIMEOUT_ENV}=2m: expected a number of seconds above 0")


@pytest.mark.parametrize("argv, fragment", [
    (["--pipeline=4wave", "--emit=mlir"], "it goes with --emit=llvm/asm/obj/hsaco/report"),
    (["--pipeline=4wave", "--launch=256,256,256"], "(not --launch or --tune)"),
    (["--pipeline=4wave", "--simulate"], "--simulate cannot be combined with "
                                         "--codegen-timeout")])
def test_the_flag_where_no_code_is_generated_is_refused(capsys, argv, fragment):
    code, _, err = run_cli(capsys, *argv, "--codegen-timeout=30")
    one_error(code, err, fragment)


def test_the_timeout_reaches_every_worker_flag_before_variable(capsys, monkeypatch, tmp_path):
    """The flag's seconds bound the translation worker and the code-generation worker, over
    the variable's; the variable's when the flag is not given; 120 s with neither (no worker
    is started: a stand-in takes the timeout, translates to an empty LLVM module and fails
    code generation as a worker past its time does)."""
    seen = []

    def stand_in(module, payload, *, timeout, error, doing, **kwargs):
        seen.append((doing, timeout))
        if doing == TRANSLATION:
            return worker.Exit(0, [b"define void @f() {\n  ret void\n}\n"], "")
        raise error(worker.timed_out(doing, timeout))
    monkeypatch.setattr(worker, "run", stand_in)
    src = tmp_path / "f.mlir"
    src.write_text(TINY)
    argv = [str(src), "--pass-pipeline=builtin.module(cse)", "--emit=asm"]
    monkeypatch.setenv(CODEGEN_TIMEOUT_ENV, "45")
    # the whole module's step, at the one function it defines, named
    one_error(*run_cli(capsys, *argv, "--codegen-timeout=7.5")[::2],
              f"{src}:2:3: error: function 'f': LLVM code generation for gfx950 did not "
              f"finish in 7.5 s (--codegen-timeout=SECONDS or {CODEGEN_TIMEOUT_ENV} sets the "
              f"limit)")
    one_error(*run_cli(capsys, *argv)[::2], "did not finish in 45 s")
    monkeypatch.delenv(CODEGEN_TIMEOUT_ENV)
    one_error(*run_cli(capsys, *argv)[::2], "did not finish in 120 s")
    codegen = "LLVM code generation for gfx950"
    assert seen == [(TRANSLATION, 7.5), (codegen, 7.5), (TRANSLATION, 45.0), (codegen, 45.0),
                    (TRANSLATION, DEFAULT_TIMEOUT), (codegen, DEFAULT_TIMEOUT)]
    # two functions defined (a declaration is not one): at the input, each named
    src.write_text(TINY.replace("  llvm.func @f", "  llvm.func @g() {\n    llvm.return\n  }\n"
                                "  llvm.func @h()\n  llvm.func @f"))
    one_error(*run_cli(capsys, *argv)[::2],
              f"{src}: error: functions 'g', 'f': LLVM code generation for gfx950 did not")


@pytest.mark.parametrize("given", ["flag", "variable"])
def test_a_translation_past_its_time_is_one_located_error(capsys, monkeypatch, tmp_path,
                                                          given):
    """A real translation worker given a millisecond: killed, one error at the input naming
    the option, exit 1; the output file is not written."""
    src, out = tmp_path / "f.mlir", tmp_path / "f.ll"
    src.write_text(TINY)
    argv = [str(src), "--pass-pipeline=builtin.module(cse)", "--emit=llvm", "-o", str(out)]
    if given == "flag":
        argv.append("--codegen-timeout=0.001")
    else:
        monkeypatch.setenv(CODEGEN_TIMEOUT_ENV, "0.001")
    code, _, err = run_cli(capsys, *argv)
    one_error(code, err, f"{src}: error: {TRANSLATION} did not finish in 0.001 s "
                         f"(--codegen-timeout=SECONDS or {CODEGEN_TIMEOUT_ENV} sets the limit)")
    assert not out.exists()


def test_emit_llvm_with_a_timeout_translates_in_a_child_it_bounds(capsys):
    """--emit=llvm of the complete kernel translates in process, where no timeout could
    hold; given one, it translates in a child the timeout bounds (never ignored)."""
    code, _, err = run_cli(capsys, "--pipeline=4wave", "--emit=llvm", "--codegen-timeout=0.001")
    one_error(code, err, f"pipeline-opt: error: pipeline '4wave': {TRANSLATION} did not finish "
                         f"in 0.001 s")
