"""Every ``pipeline-opt`` command the READMEs show in a shell block runs as written (exit 0).

The commands name files the reader would have: ``prefetch.mlir`` (an IREE dispatch),
``dump.txt`` (a schedule dump), ``kernel.s`` / ``kernel.hsaco`` (the assembly and code
object of the command's own spec), ``in.mlir``; each is made here the way the README says, in
a scratch directory, and the command runs there unchanged."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/dialect.md", "benchmarks/README.md")


def shown_commands() -> list[tuple[str, str]]:
    """``(where, command)`` of each pipeline-opt line in a shell block (not the synopsis
    lines with ``[...]`` or ``|`` alternatives), trailing comments removed."""
    out = []
    for doc in DOCS:
        block = False
        for n, line in enumerate((ROOT / doc).read_text().splitlines(), 1):
            if line.startswith("```"):
                block = line.strip() in ("```sh", "```bash", "```console") and not block
                continue
            text = line.split("  #")[0].strip()
            if block and text.startswith("pipeline-opt ") and "[" not in text \
                    and " | " not in text:
                out.append((f"{doc}:{n}", text))
    return out


COMMANDS = shown_commands()


def test_the_readmes_show_commands():
    assert len(COMMANDS) >= 10, COMMANDS


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    d = tmp_path_factory.mktemp("readme")
    shutil.copy(ROOT / "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir", d / "prefetch.mlir")
    (d / "in.mlir").write_text("")
    assert main(["--pipeline=pingpong", "-o", str(d / "dump.txt")]) == 0
    return d


@pytest.mark.parametrize("where, command", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_a_shown_command_runs_as_written(scratch, monkeypatch, capsys, where, command):
    argv = shlex.split(command)[1:]
    spec = next((a for a in argv if a.startswith("--pipeline=")), None)
    for name, emit in (("kernel.s", "asm"), ("kernel.hsaco", "hsaco")):
        if name in argv and spec is not None:  # the kernel of the command's own spec
            assert main([spec, f"--emit={emit}", "-o", str(scratch / name)]) == 0
    monkeypatch.chdir(scratch)
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 0, f"{where}: {command}\n{err}"
    assert re.search(r"\berror\b", err) is None, err
