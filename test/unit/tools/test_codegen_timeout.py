"""``--codegen-timeout=SECONDS`` (and ``PIPELINE_OPT_CODEGEN_TIMEOUT`` when the flag is not
given): how long LLVM's code generation of a kernel, and the link, may take in their child
processes (120 s by default; a build under heavy load could hit it with no way round).

A value that is not a finite number of seconds above 0 is one error naming the flag or the
variable; the flag where no code is generated (``--emit=mlir``, ``--simulate``, ``--launch``)
is refused rather than ignored."""

from __future__ import annotations

import pytest
from cli_helpers import one_error, run_cli

from pipeline_mlir.isa import worker
from pipeline_mlir.isa.codegen import DEFAULT_TIMEOUT
from pipeline_mlir.tools.argv import CODEGEN_TIMEOUT_ENV

TINY = "module {\n  llvm.func @f() {\n    llvm.return\n  }\n}\n"



@pytest.mark.parametrize("value", ["0", "-3", "abc", "inf", "nan", ""])
def test_a_bad_timeout_names_the_flag(capsys, value):
    code, _, err = run_cli(capsys, "--pipeline=4wave", "--emit=asm", f"--codegen-timeout={value}")
    one_error(code, err, f"--codegen-timeout={value}: expected a number of seconds above 0")


def test_a_bad_variable_names_the_variable(capsys, monkeypatch):
    monkeypatch.setenv(CODEGEN_TIMEOUT_ENV, "2m")
    code, _, err = run_cli(capsys, "--pipeline=4wave", "--emit=asm")
    one_error(code, err, f"{CODEGEN_TIMEOUT_ENV}=2m: expected a number of seconds above 0")


@pytest.mark.parametrize("argv, fragment", [
    (["--pipeline=4wave", "--emit=mlir"], "it goes with --emit=asm/obj/hsaco/report"),
    (["--pipeline=4wave", "--launch=256,256,256"], "(not --launch or --tune)"),
    (["--pipeline=4wave", "--simulate"], "--simulate cannot be combined with "
                                         "--codegen-timeout")])
def test_the_flag_where_no_code_is_generated_is_refused(capsys, argv, fragment):
    code, _, err = run_cli(capsys, *argv, "--codegen-timeout=30")
    one_error(code, err, fragment)


def test_the_timeout_reaches_the_worker_flag_before_variable(capsys, monkeypatch, tmp_path):
    """The flag's seconds bound the code-generation worker, over the variable's; the
    variable's when the flag is not given; 120 s with neither (the worker is not started:
    a stand-in takes the timeout and fails as a worker past it does)."""
    seen = []

    def stand_in(*args, timeout, error, doing, **kwargs):
        seen.append(timeout)
        raise error(f"{doing} did not finish in {timeout:g} s")
    monkeypatch.setattr(worker, "run", stand_in)
    src = tmp_path / "f.mlir"
    src.write_text(TINY)
    argv = [str(src), "--pass-pipeline=builtin.module(cse)", "--emit=asm"]
    monkeypatch.setenv(CODEGEN_TIMEOUT_ENV, "45")
    one_error(*run_cli(capsys, *argv, "--codegen-timeout=7.5")[::2], "did not finish in 7.5 s")
    one_error(*run_cli(capsys, *argv)[::2], "did not finish in 45 s")
    monkeypatch.delenv(CODEGEN_TIMEOUT_ENV)
    one_error(*run_cli(capsys, *argv)[::2], "did not finish in 120 s")
    assert seen == [7.5, 45.0, DEFAULT_TIMEOUT]
