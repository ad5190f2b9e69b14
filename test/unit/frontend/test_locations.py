"""Ops the front end creates carry the location of the op they derive from: the index
arithmetic of a copy or a fragment read that of the copy or read, a new LDS buffer that of
the buffer (or the function declaring it), so an error at one of them points at the line
it came from, not at the ``scf.for``.  Only what derives from the loop itself (its doubled
step, the shifted induction variable, the zeroed carried fragments, the yield) stays at the
loop."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

INPUT = Path(__file__).resolve().parents[2] / "lit" / "passes" / "Inputs" / "natural-4wave.mlir"
_LOC = re.compile(r'^(#loc\d+) = loc\(".*":(\d+):\d+\)$')
_OP = re.compile(r'(?:=\s+|^\s*)"?([a-z_]+\.[a-z_.]+)"?[ (].*loc\((#loc\d+)\)\s*$')


def _ops_by_line() -> dict[int, list[str]]:
    out = subprocess.run(
        [sys.executable, "-m", "pipeline_mlir.tools.pipeline_opt", str(INPUT),
         "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})",
         "--mlir-print-debuginfo"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    loc_line = {m.group(1): int(m.group(2)) for m in map(_LOC.match, lines) if m}
    by_line: dict[int, list[str]] = {}
    for ln in lines:
        m = _OP.search(ln)
        if m and m.group(2) in loc_line:
            by_line.setdefault(loc_line[m.group(2)], []).append(m.group(1))
    return by_line


def test_created_ops_are_located_at_what_they_derive_from():
    src = INPUT.read_text().splitlines()
    loop_line = next(i for i, ln in enumerate(src, 1) if "scf.for" in ln)
    by_line = _ops_by_line()
    at_loop = sorted(set(by_line.get(loop_line, [])))
    # the loop's own: its step doubled, the shifted induction variable, zeroed carried
    # fragments, the new loop and its yield -- no address arithmetic, no buffer
    assert set(at_loop) <= {"arith.constant", "arith.muli", "arith.addi", "scf.for",
                            "scf.yield"}, at_loop
    assert by_line[loop_line].count("arith.muli") + by_line[loop_line].count("arith.addi") <= 4
    # the copies' and reads' address arithmetic sits at their lines
    access_lines = {i for i, ln in enumerate(src, 1)
                    if "amdgpu.gather_to_lds" in ln or "vector.load" in ln}
    derived = [op for line in access_lines for op in by_line.get(line, [])]
    assert {"arith.divui", "arith.remui"} <= set(derived), sorted(set(derived))
