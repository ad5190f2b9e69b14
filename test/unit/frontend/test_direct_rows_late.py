"""pipeline_mlir/frontend/direct_rows_late.py: the late form's guarded rows of A stored
straight to LDS (IREE's padded bf16 ``A x B`` with M and N known at launch,
``test/lit/passes/Inputs/iree-bf16-ab-padded-mn.late.mlir``) made reads of a range-checked
buffer at ``[guard ? row : M, col]``.

Each property the rewrite relies on, broken in IREE's text, is refused at the ``scf.if``,
saying which; the rewrite runs on the parsed kernel alone (no pipeline), so each case costs
a parse.  The whole kernel pipelined and emulated: ``test_dynamic_shapes.py``
(``padded-kxn-late``); its column tile and versioning: ``test_edge_version.py`` (no lit
file holds this kernel's versioned loop).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend.direct_rows_late import unmask_direct_rows

LATE = (Path(__file__).resolve().parents[2] / "lit" / "passes" / "Inputs"
        / "iree-bf16-ab-padded-mn.late.mlir")
#: A's first guarded row, as IREE writes it
GUARD = ("              %291 = scf.if %203 -> (vector<8xbf16>) {\n"
         "                %365 = vector.load %assume_align[%221, %290] : "
         "memref<?x256xbf16, #gpu.address_space<global>>, vector<8xbf16>\n"
         "                scf.yield %365 : vector<8xbf16>\n"
         "              } else {\n"
         "                scf.yield %cst_0 : vector<8xbf16>\n")


@pytest.fixture(scope="module")
def late() -> str:
    text = LATE.read_text()
    assert text.count(GUARD) == 1
    return text


def _unmask(text: str) -> tuple[int, str]:
    """(the rows replaced, the K-loop's text after) of ``text``'s K-loop."""
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for" and
                           len(o.results) == 16)
        return unmask_direct_rows(loop), str(loop)


def test_each_guarded_row_becomes_a_read_of_the_range_checked_buffer(late):
    """Both of A's guarded rows: a read of a fat buffer at ``select(guard, row, M)`` stored
    as IREE stores its row; no ``scf.if`` left."""
    n, text = _unmask(late)
    assert n == 2 and "scf.if" not in text
    fat = "memref<?x256xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>"
    assert text.count(fat) == 2 and text.count("arith.select %203, %221, %15#0") == 1


def _mutant(late: str, old: str, new: str) -> str:
    guard = GUARD.replace(old, new)
    assert guard != GUARD, old
    return late.replace(GUARD, guard)


@pytest.mark.parametrize("old,new,message", [
    # a pad of -0.0 (its sign bit set): the range check reads +0.0
    ("scf.yield %cst_0", "scf.yield %m0", "pads masked rows with a value other than zero"),
    # the guard true one row further: row M read where IREE's guard holds
    ("scf.if %203", "scf.if %true_row", "reads a row outside the buffer's L rows where its "
                                        "guard holds"),
    # the guard moving with K
    ("scf.if %203", "scf.if %kg", "its guard or row changes with the K-loop"),
    # a column one element on: the last run of a row ends past it
    ("[%221, %290]", "[%221, %col1]", "reads columns 249 .. 256 in K iteration 7"),
    # a column moving with the workgroup: its loop's variable, or its id itself (which an
    # evaluator samples)
    ("[%221, %290]", "[%221, %colw]", "its column moves with the workgroup"),
    ("[%221, %290]", "[%221, %colid]", "its column moves with the workgroup"),
])
def test_what_the_rewrite_relies_on_is_refused_at_the_guard(late, old, new, message):
    text = _mutant(late, old, new)
    extra = {"%m0": "%m0 = arith.constant dense<-0.0> : vector<8xbf16>",
             "%true_row": "%true_row = arith.cmpi sge, %202, %c0 : index",
             "%kg": "%kg = arith.cmpi sgt, %arg1, %c0_i32 : i32",
             "%col1": "%col1 = arith.addi %290, %c1 : index",
             "%colw": "%colw = arith.addi %290, %177 : index",
             "%colid": "%colid = arith.addi %290, %workgroup_id_x : index"}
    for name, line in extra.items():
        if name in new:
            text = text.replace(GUARD.replace(old, new),
                                f"              {line}\n" + GUARD.replace(old, new))
    with pytest.raises(IRError, match="'scf.if' op at line 3") as e:
        _unmask(text)
    assert message in str(e.value), str(e.value)
