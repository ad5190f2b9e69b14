"""IREE's bias of a square C (f16 ``relu(A x B^T + bias)`` and ``A x B^T + bias[row]``,
19x19x560): the bias has as many elements as C has rows and columns, and C's one
workgroup covers it all, so moving the workgroup says nothing of which side the bias
follows; ``--emulate`` refused both forms (``... follows neither as the workgroup moves``,
sweep 29, seed 4).  ``frontend/bias_axis.py`` asks the threads then: over the threads
whose accesses are inside C (and inside the bias), the bias element moves with the written
element's column, or with its row.  Both forms of both kinds exact in late mode, each
against its own side (a wrong side is a wrong C: the bias is random per element); a bias
read at one element for every thread follows neither and is refused at the read."""

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


@pytest.fixture(scope="module")
def forms():
    return {kind: G.forms(E.epilogue_source(kind, "f16", m=19, n=19, k=560))
            for kind in FORMULA}


@needs_iree
@pytest.mark.parametrize("kind", list(FORMULA))
@pytest.mark.parametrize("form", ["prefetch", "late"])
def test_a_square_bias_follows_the_side_its_threads_move_with(forms, kind, form, tmp_path,
                                                              capsys):
    path = tmp_path / f"{kind}.{form}.mlir"
    path.write_text(forms[kind][form])
    rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-mode=late",
               "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0 in C (361 elements)" in out, out + err
    assert out.rstrip().endswith(FORMULA[kind]), out


@needs_iree
def test_a_bias_read_at_one_element_follows_neither(forms, tmp_path, capsys):
    text = forms["bias_relu"]["late"]
    read = re.search(r"(%\d+) = vector\.load (%\d+)\[(%\d+)\] : memref<19xf32", text)
    assert read is not None, "IREE's bias read changed"
    bad = text.replace(read.group(0), read.group(0).replace(f"[{read.group(3)}]", "[%c0]"))
    assert "%c0 = arith.constant 0 : index" in bad
    path = tmp_path / "one.mlir"
    path.write_text(bad)
    rc = main(["--pipeline=4wave", str(path), "--emulate", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err, out + err
    assert re.search(r"one\.mlir:\d+:\d+: error: --emulate: 'vector\.load' op at line \d+:\d+: "
                     r"bias has as many elements as C has rows and columns, and the element "
                     r"it reads follows neither as the workgroup and its threads move", err), err
