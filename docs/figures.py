#!/usr/bin/env python3
"""Every figure the documentation shows, re-run from the command that prints it.

A figure is the text between ``<!-- figure: NAME -->`` and ``<!-- end figure -->`` in one of
the documents (:func:`documents`).  :data:`FIGURES` says for each name the command that
prints it and which part of its output the document shows; this script runs the command
from the repository root with this tree's code and writes the block, so that no figure (a
table of cycles, a tuning table, an emulator run) can drift from what the code prints::

    python docs/figures.py                  # rewrite every figure
    python docs/figures.py --check          # compare only; exit 1 and show the difference
    python docs/figures.py --cheap --check  # only the figures cheap enough for the test suite
    python docs/figures.py tune-pingpong    # only the named ones

A block shows the command on its first line (``$ ...``) and the output below it; ``...``
marks lines left out.  Times (which depend on the machine) are never shown: a figure whose
output holds one masks it.  ``test/unit/test_docs.py`` re-runs the cheap figures.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN = re.compile(r"^<!-- figure: ([\w-]+) -->$", re.MULTILINE)
END = "<!-- end figure -->"
ELIDED = "..."


def documents() -> list[Path]:
    """The documents whose commands and figures are kept true: README.md, every page of
    docs/ and benchmarks/README.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            ROOT / "benchmarks" / "README.md"]


def tree_env() -> dict:
    """The environment of a command run on this tree: its ``pipeline_mlir`` first on
    ``PYTHONPATH``, this interpreter's scripts first on ``PATH``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _all(lines: list[str]) -> list[str]:
    return lines


def _until_blank(lines: list[str]) -> list[str]:
    """The first paragraph of the output, then ``...`` if anything follows."""
    n = lines.index("") if "" in lines else len(lines)
    return lines[:n] + ([ELIDED] if n < len(lines) else [])


def _between(first: str, stop: str | None = None) -> Callable[[list[str]], list[str]]:
    """The lines from the first that starts with ``first`` up to (without) the first after it
    that starts with ``stop`` (None: to the end), with ``...`` where lines were left out."""
    def select(lines: list[str]) -> list[str]:
        i = next(n for n, line in enumerate(lines) if line.startswith(first))
        j = next((n for n in range(i, len(lines)) if stop and lines[n].startswith(stop)),
                 len(lines))
        return ([ELIDED] if i else []) + lines[i:j] + ([ELIDED] if j < len(lines) else [])
    return select


def _untimed(lines: list[str]) -> list[str]:
    """The emulator's line with its time and speed (this machine's) masked."""
    return [re.sub(r" in [\d.]+ s \([\d,]+ instructions/s\)", " in ... s (... instructions/s)", x)
            for x in lines]


@dataclass(frozen=True)
class Figure:
    name: str
    doc: str                       # the document holding it, relative to the repository
    command: str                   # as a reader types it, from the repository root
    select: Callable[[list[str]], list[str]] = _all
    cheap: bool = True             # re-run by the test suite (a few CPU seconds)
    markdown: bool = False         # the output is a Markdown table: shown as it is

    def argv(self) -> list[str]:
        words = shlex.split(self.command)
        if words[0] == "pipeline-opt":
            return [sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt", *words[1:]]
        if words[0] == "python":
            return [sys.executable, *words[1:]]
        raise ValueError(f"figure {self.name}: a command of pipeline-opt or python, not {words[0]}")

    def render(self) -> str:
        """The block as the document shows it, from a fresh run of the command."""
        proc = subprocess.run(self.argv(), cwd=ROOT, env=tree_env(), capture_output=True,
                              text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"figure {self.name}: `{self.command}` exited with "
                               f"{proc.returncode}:\n{proc.stderr}")
        return self.block(proc.stdout)

    def block(self, stdout: str) -> str:
        """The block as the document shows it, from what the command printed."""
        lines = self.select([line.rstrip() for line in stdout.rstrip("\n").split("\n")])
        if self.markdown:
            return "\n".join(lines + ["", f"(`{self.command}`)"]) + "\n"
        return "\n".join(["```text", f"$ {self.command}", *lines, "```"]) + "\n"


def _tune(name: str, spec: str, cheap: bool) -> Figure:
    return Figure(name, "docs/tuning.md", f"pipeline-opt --pipeline={shlex.quote(spec)} --tune",
                  cheap=cheap)


FIGURES: dict[str, Figure] = {f.name: f for f in (
    Figure("report-pingpong", "docs/kernels.md", "pipeline-opt --pipeline=pingpong --emit=report",
           _between("main loop", "ISA check")),
    Figure("agpr", "docs/kernels.md", "python benchmarks/bench_agpr.py", cheap=False,
           markdown=True),
    Figure("iree-emulate", "docs/iree-soundness.md",
           "pipeline-opt --pipeline=4wave --emulate "
           "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir --emulate-workgroups=2 "
           "--emulate-mode=late", _untimed),
    Figure("iree", "docs/iree-own-pipelining.md", "python benchmarks/bench_iree.py", cheap=False,
           markdown=True),
    Figure("iree-i8", "docs/iree-own-pipelining.md", "python benchmarks/bench_iree.py --dtype=i8",
           cheap=False, markdown=True),
    Figure("iree-8wave-256x256", "docs/iree-pingpong.md",
           "python benchmarks/bench_iree.py --dtype=bf16-256x256-8wave", cheap=False,
           markdown=True),
    Figure("iree-8wave-256x128", "docs/iree-pingpong.md",
           "python benchmarks/bench_iree.py --dtype=bf16-256x128-8wave", cheap=False,
           markdown=True),
    *(Figure(f"iree-8wave-{t}-k128", "docs/iree-vector-distribute.md",
             f"python benchmarks/bench_iree.py --dtype=bf16-{t}-k128-8wave", cheap=False,
             markdown=True) for t in ("256x256", "256x128")),
    *(Figure(f"iree-8wave-{d}", "docs/iree-pingpong.md",
             f"python benchmarks/bench_iree.py --dtype={d}-256x256-8wave", cheap=False,
             markdown=True) for d in ("f16", "fp8", "i8")),
    Figure("iree-8wave-32x32", "docs/iree-pingpong.md",
           "python benchmarks/bench_iree.py --dtype=bf16-256x256-32x32-8wave", cheap=False,
           markdown=True),
    *(Figure(f"iree-8wave-{d}-32x32", "docs/iree-pingpong.md",
             f"python benchmarks/bench_iree.py --dtype={d}-256x256-32x32-8wave", cheap=False,
             markdown=True) for d in ("i8", "fp8")),
    Figure("iree-mfma32", "docs/iree-configurations.md",
           "python benchmarks/bench_iree.py --dtype=bf16-mfma32", cheap=False, markdown=True),
    *(Figure(f"iree-{d}-mfma32", "docs/iree-configurations.md",
             f"python benchmarks/bench_iree.py --dtype={d}-mfma32", cheap=False,
             markdown=True) for d in ("i8", "fp8")),
    Figure("iree-1000", "docs/iree-configurations.md",
           "python benchmarks/bench_iree.py --dtype=bf16-1000", cheap=False, markdown=True),
    *(Figure(name, "docs/iree-vector-distribute.md", f"python benchmarks/bench_iree.py --dtype={d}",
             cheap=False, markdown=True)
      for name, d in (("iree-vector-distribute", "bf16-vector-distribute"),
                      ("iree-vector-distribute-ab", "bf16-ab-vector-distribute"),
                      ("iree-vector-distribute-fp8", "fp8-vector-distribute"))),
    Figure("simulate", "docs/simulator.md", "python benchmarks/bench_simulate.py --repeat 1",
           _until_blank),
    Figure("device", "docs/simulator.md", "python benchmarks/bench_device.py"),
    _tune("tune-pingpong", "pingpong", cheap=False),
    _tune("tune-pingpong-fp8", "pingpong{is_fp8=true}", cheap=False),
    _tune("tune-4wave-bf16", "4wave{dtype=bf16 BM=128 BN=128 BK=64}", cheap=True),
    _tune("tune-4wave-fp8-128", "4wave{dtype=fp8 BM=128 BN=128 BK=128}", cheap=True),
    _tune("tune-4wave-fp8-64", "4wave{dtype=fp8 BM=64 BN=64 BK=128}", cheap=True),
    Figure("tune-4wave-size", "docs/tuning.md",
           "pipeline-opt --pipeline='4wave{dtype=fp8 BM=64 BN=64 BK=128}' --tune "
           "--tune-knobs=loop_once,dma --tune-size=4096,4096,256", cheap=False),
    Figure("reference", "benchmarks/README.md", "python benchmarks/bench_reference.py --no-mca",
           _between("ratio = ")),
)}


def blocks(text: str) -> dict[str, tuple[int, int]]:
    """``name -> (start, end)`` of the text inside each figure marker pair of ``text``."""
    out = {}
    for m in BEGIN.finditer(text):
        end = text.find(END, m.end())
        if end < 0:
            raise ValueError(f"figure {m.group(1)}: no '{END}' after its marker")
        if m.group(1) in out:
            raise ValueError(f"figure {m.group(1)}: shown twice")
        out[m.group(1)] = (m.end() + 1, end)
    return out


def shown(figure: Figure) -> str:
    """The block the document holds now."""
    text = (ROOT / figure.doc).read_text()
    start, end = blocks(text)[figure.name]
    return text[start:end]


def write(figure: Figure, block: str) -> None:
    path = ROOT / figure.doc
    text = path.read_text()
    start, end = blocks(text)[figure.name]
    path.write_text(text[:start] + block + text[end:])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="figures to re-run (default: all)")
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    ap.add_argument("--cheap", action="store_true", help="only the figures the tests re-run")
    a = ap.parse_args(argv)
    unknown = [n for n in a.names if n not in FIGURES]
    if unknown:
        ap.error(f"unknown figure(s) {', '.join(unknown)}; known: {', '.join(FIGURES)}")
    stale = 0
    for f in (FIGURES[n] for n in (a.names or FIGURES)):
        if a.cheap and not f.cheap:
            continue
        new, old = f.render(), shown(f)
        if new == old:
            print(f"{f.name}: current")
        elif a.check:
            stale += 1
            print(f"{f.name}: STALE in {f.doc}")
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       "shown", "printed now"))
        else:
            write(f, new)
            print(f"{f.name}: rewritten in {f.doc}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
