"""Where the front end locates a loop no way takes (``pipeline_mlir/frontend/natural.py``):
the loop as written, its K steps merged, its MFMAs halved, an operand held whole.  The
refusal's text chains every way's reason ("...; nor with B held whole ..."); its location
is where the first way (the loop as written) failed, the op the user must look at, taken
when that refusal is raised (a later way may erase or replace the op), not where the last
way failed.

IREE's fp8 ``A x B^T`` 64x31x160 (late form: 5 K steps of 32) with its second A fragment
read made the first's: refused through every fallback (the merge of its K steps refused for
its reads, not for the loop's length), the last B held whole.  At 64x31x96 (3 K steps; the
run's ``iree-compile`` of it, which ``test_iree_configurations.py`` builds too) the merge is
refused for the loop's length alone, so the loop runs as written, said at the loop
(``frontend/natural.py``'s ``_short_as_written``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend import natural
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[3] / "test" / "data" / "iree"))

#: an A fragment read of the kernel's LDS tile of A
A_READ = re.compile(r"^( *%\w+ = )(vector\.load %\w+)\[(%\w+), (%\w+)\] : memref<64x40xf8E4M3FN, "
                    r"#gpu\.address_space<workgroup>>, vector<8xf8E4M3FN>$", re.M)


def _same_rows(text: str, tmp_path):
    """(the kernel ``text`` with its second A fragment read made the first's, written to a
    file: its path, the line:column of its first A fragment read)."""
    first, second = list(A_READ.finditer(text))[:2]
    assert first.group(2) == second.group(2) and first.group(3) != second.group(3)
    text = text[:second.start(3)] + first.group(3) + text[second.end(3):]
    src = tmp_path / "same_rows.mlir"
    src.write_text(text)
    line = text[:first.start()].count("\n") + 1
    return src, f"{line}:{len(first.group(1)) + 1}"


@pytest.fixture
def no_way(tmp_path):
    """(the mutated kernel's path, the line:column of its first A fragment read)."""
    import generate as G

    return _same_rows(G.late_form(G.matmul_source(dtype="fp8", m=64, n=31, k=160)), tmp_path)


def test_a_loop_too_short_for_the_merge_runs_as_written(generated, tmp_path, capsys):
    """The same mutant at 3 K steps: every way refused, the merge for the loop's length
    alone (2 K steps once the odd one is cut off): run as written, said at the loop."""
    src, _ = _same_rows(generated("fp8_abt_64x31x96", "late").read_text(), tmp_path)
    rc = main(["--pipeline=4wave", str(src), "-o", str(tmp_path / "out.mlir")])
    err = capsys.readouterr().err
    assert rc == 0 and "error" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: warning: sched-adopt-loop: the K-loop is "
                    rf"not pipelined: no form takes it as it is \(.*\), and its K steps "
                    rf"merged, the one form left, need more of them: the loop runs 2 K steps, "
                    rf"fewer than the ", err), err
    assert "scf.for" in err.splitlines()[1], err
    assert "sched.unpipelined" in (tmp_path / "out.mlir").read_text()


def _refusal(capsys, src) -> str:
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err and "internal error" not in err, err
    return err


def test_a_loop_no_way_takes_is_refused_with_every_reason(no_way, capsys):
    src, first = no_way
    err = _refusal(capsys, src)
    assert err.startswith(f"{src}:{first}: error: sched-adopt-loop: channel A: "), err
    assert "; nor can the front end merge its K steps: " in err and \
        "; nor can the front end halve its MFMAs along K: " in err and \
        "; nor with B held whole in each stage (whole=b): channel A: " in err, err


def test_the_refusal_is_located_at_the_first_failure_not_the_last(no_way, capsys,
                                                                   monkeypatch):
    """The last way (B held whole) refused at another op than the first (here the loop's
    first MFMA, where IREE's kernel gives no other): the refusal stays at the first."""
    held = natural._held

    def held_elsewhere(an, schedule, refused):
        try:
            return held(an, schedule, refused)
        except IRError as e:
            if e is refused:
                raise
            mfma = walk_ops(an.scan.loop, lambda o: o.name == "amdgpu.mfma")[0]
            raise IRError(mfma, str(e)) from None
    monkeypatch.setattr(natural, "_held", held_elsewhere)
    src, first = no_way
    err = _refusal(capsys, src)
    assert err.startswith(f"{src}:{first}: error: sched-adopt-loop: channel A: "), err
    assert "; nor with B held whole in each stage (whole=b): " in err, err
