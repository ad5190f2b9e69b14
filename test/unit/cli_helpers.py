"""``pipeline-opt`` run in-process for a test: its exit status and output, and the check of
a usage error (one line, no traceback); standard input replaced for one."""

from __future__ import annotations

from pipeline_mlir.tools.pipeline_opt import main


def with_stdin(monkeypatch, data: bytes) -> None:
    """Standard input made ``data`` for the rest of the test (``-`` reads it)."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """(exit status, standard output, standard error) of ``pipeline-opt argv``."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_cli_text(capsys, tmp_path, text: str, *argv) -> tuple[int, str, str]:
    """:func:`run_cli` of ``text`` written to ``k.mlir`` in ``tmp_path``, the input of
    ``pipeline-opt argv``."""
    src = tmp_path / "k.mlir"
    src.write_text(text)
    return run_cli(capsys, str(src), *argv)


def run_cli_shared(capsys, *argv) -> tuple[int, str, str]:
    """:func:`run_cli` with the run's code objects shared (each kernel, a named schedule's
    own complete kernel too, built once per test run: ``build_cache``)."""
    from build_cache import share_code_objects

    with share_code_objects(own_kernels=True):
        return run_cli(capsys, *argv)


def refusal(capsys, tmp_path, text: str, spec: str = "4wave") -> str:
    """The error of ``pipeline-opt --pipeline=SPEC k.mlir --emit=schedule-json -o out.json``
    refusing ``text`` (written to ``k.mlir`` in ``tmp_path``): exit 1, nothing on standard
    output, no traceback, the message located in the file."""
    src = tmp_path / "k.mlir"
    code, out, err = run_cli_text(capsys, tmp_path, text, f"--pipeline={spec}",
                                  "--emit=schedule-json", "-o", str(tmp_path / "out.json"))
    assert code == 1 and out == "" and "Traceback" not in err, err
    assert err.startswith(f"{src}:"), err
    return err


def one_error(code: int, err: str, fragment: str) -> None:
    """Exit 1 with one error line holding ``fragment``, and no traceback."""
    assert code == 1 and "Traceback" not in err and err.count("error:") == 1, err
    assert fragment in err, err
