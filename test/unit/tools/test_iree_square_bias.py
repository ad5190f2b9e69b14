"""IREE's bias of a square C (f16 ``relu(A x B^T + bias)`` and ``A x B^T + bias[row]``,
19x19x560): the bias has as many elements as C has rows and columns, and C's one
workgroup covers it all, so moving the workgroup says nothing of which side the bias
follows; ``--emulate`` refused both forms (``... follows neither as the workgroup moves``,
sweep 29, seed 4).  ``frontend/bias_axis.py`` asks the threads then: over the threads
whose accesses are inside C (and inside the bias), the bias element moves with the written
element's column, or with its row.  Both forms of both kinds exact in late mode, each
against its own side (a wrong side is a wrong C: the bias is random per element); a bias
read at one element for every thread follows neither and is refused at the read.  At
50x50x512 (sweep 31) C is written by ``vector.scatter`` ops cut at C's edge and, at the
prefetch point, the bias gathered by ``iree_linalg_ext.map_load``: the threads are
compared at each scatter's first lane its mask keeps and each gather's first element
(before, refused: ``... follows neither``); a gather of one element for every thread is
refused at the ``map_load``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from iree_configs import G
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import epilogues as E  # noqa: E402

pytestmark = pytest.mark.usefixtures("shared_code_objects")

#: kind -> the formula ``--emulate`` checks C against
FORMULA = {"bias_relu": "C = relu(A @ B.T + bias)", "bias_row": "C = ((A @ B.T).T + bias).T"}


#: (kind, M = N) -> its two forms, made once
_MADE: dict = {}


@pytest.fixture(scope="module")
def forms():
    def made(kind: str, size: int = 19) -> dict:
        if (kind, size) not in _MADE:
            k = 560 if size == 19 else 512
            _MADE[kind, size] = G.forms(E.epilogue_source(kind, "f16", m=size, n=size, k=k))
        return _MADE[kind, size]
    return made


@needs_iree
@pytest.mark.parametrize("kind, size", [("bias_relu", 19), ("bias_row", 19),
                                        ("bias_row", 50)])
@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_a_square_bias_follows_the_side_its_threads_move_with(forms, kind, size, form,
                                                              tmp_path, capsys):
    text = forms(kind, size)[form]
    if size == 50:      # C written by scatters; the prefetch point gathers the bias
        assert "vector.scatter" in text and ("map_load" in text) == (form == "prefetch")
    path = tmp_path / f"{kind}.{form}.mlir"
    path.write_text(text)
    rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-mode=late",
               "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and f": exact, max error 0 in C ({size * size} elements)" in out, out + err
    assert out.rstrip().endswith(FORMULA[kind]), out


def _follows_neither(bad: str, name: str, op: str, tmp_path, capsys) -> None:
    """``bad`` (with a ``%c0`` index constant) refused by ``--emulate`` at its ``op``: the
    bias follows neither side of C."""
    assert "%c0 = arith.constant 0 : index" in bad
    path = tmp_path / f"{name}.mlir"
    path.write_text(bad)
    rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err, out + err
    assert re.search(rf"{name}\.mlir:\d+:\d+: error: --emulate: '{re.escape(op)}' op at line "
                     r"\d+:\d+: bias has as many elements as C has rows and columns, and the "
                     r"element it reads follows neither as the workgroup and its threads "
                     r"move", err), err


@needs_iree
def test_a_bias_read_at_one_element_follows_neither(forms, tmp_path, capsys):
    text = forms("bias_relu")["late"]
    read = re.search(r"(%\d+) = vector\.load (%\d+)\[(%\d+)\] : memref<19xf32", text)
    assert read is not None, "IREE's bias read changed"
    bad = text.replace(read.group(0), read.group(0).replace(f"[{read.group(3)}]", "[%c0]"))
    _follows_neither(bad, "one", "vector.load", tmp_path, capsys)


@needs_iree
def test_a_bias_gathered_alike_in_every_thread_follows_neither(forms, tmp_path, capsys):
    """The gather's per-thread start made 0: every thread gathers the same elements."""
    text = forms("bias_row", 50)["prefetch"]
    start = re.search(r"(%\d+) = arith\.addi (%\d+), (%arg\d+) overflow<nsw> : index\n"
                      r" *%\d+ = affine\.linearize_index", text)
    assert start is not None and "iree_linalg_ext.map_load" in \
        text[start.start() - 200:start.start()], "IREE's gather changed"
    bad = text.replace(start.group(0), start.group(0).replace(f"addi {start.group(2)},",
                                                              "addi %c0,"))
    _follows_neither(bad, "gather", "iree_linalg_ext.map_load", tmp_path, capsys)
