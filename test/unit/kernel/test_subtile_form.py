"""The schedule form's one writer and one reader (``pipeline_mlir/kernel/subtile_form.py``)."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.subtile_form import SubtileForm, parse_form


@pytest.mark.parametrize("form, text", [
    (SubtileForm("B"), "B along K"),
    (SubtileForm("A"), "A along K"),
    (SubtileForm("A, B"), "A, B along K, crosswise"),
    (SubtileForm("A, B", 2), "A, B along K, crosswise; 2 of the kernel's K steps merged "
                             "into each K tile"),
    (SubtileForm("A", halved=True), "A along K; each of the kernel's MFMAs halved along K"),
    (SubtileForm("B", 2, True), "B along K; each of the kernel's MFMAs halved along K; 2 of "
                                "the kernel's K steps merged into each K tile"),
    (SubtileForm("A, B", halved=True, pieces=4), "A, B along K, crosswise; each of the "
                                                 "kernel's MFMAs cut into 4 along K"),
    (SubtileForm("A, B", halved=True, diagonal=True),
     "A, B along K, diagonal (both the same K halves, MFMAs in the MMAs (0, 0) and (1, 1) "
     "only); each of the kernel's MFMAs halved along K"),
    # an operand held whole in each stage (whole=b / whole=a): no split along K
    (SubtileForm("B", whole=True), "stage form: B whole (one load and one fragment of it per "
                                   "stage, A's two subtiles by MFMA rows against it: the MMAs "
                                   "(0, 0) and (1, 0) only)"),
    (SubtileForm("A", 2, whole=True), "stage form: A whole (one load and one fragment of it "
                                      "per stage, B's two subtiles by MFMA columns against "
                                      "it: the MMAs (0, 0) and (0, 1) only); 2 of the "
                                      "kernel's K steps merged into each K tile"),
])
def test_the_text_reads_back_as_the_form(form, text):
    assert form.text() == str(form) == text
    assert parse_form(text) == form
    assert form.crosswise == ("," in form.operands and not form.diagonal)
    assert bool(form.merged_text) == (form.merged > 1)
    assert bool(form.halved_text) == form.halved


@pytest.mark.parametrize("text", [
    "B along J", "C along K", "B along K, crosswise", "A, B along K",
    "B along K; 1 of the kernel's K steps merged into each K tile",
    "B along K; 0 of the kernel's K steps merged into each K tile",
    "B along K; 02 of the kernel's K steps merged into each K tile", " B along K", "",
    "B along K; 2 of the kernel's K steps merged into each K tile; each of the kernel's "
    "MFMAs halved along K", "B along K; each of the kernel's MFMAs halved",
    "B along K; each of the kernel's MFMAs cut into 2 along K",
    "B along K; each of the kernel's MFMAs cut into 3 along K",
    "B along K; each of the kernel's MFMAs cut into 04 along K",
    "B along K, diagonal (both the same K halves, MFMAs in the MMAs (0, 0) and (1, 1) only)",
    "A, B along K, diagonal",
    # held whole: the other operand's subtiles and MMAs must be the ones that form has
    "stage form: B whole (one load and one fragment of it per stage, B's two subtiles by "
    "MFMA rows against it: the MMAs (0, 0) and (1, 0) only)",
    "stage form: A whole (one load and one fragment of it per stage, B's two subtiles by "
    "MFMA columns against it: the MMAs (0, 0) and (1, 0) only)", "stage form: B whole ()",
])
def test_a_text_the_front_end_does_not_write_is_refused(text):
    with pytest.raises(ConfigError, match="is none the front end writes"):
        parse_form(text)


@pytest.mark.parametrize("operands, merged, field", [
    ("C", 1, "the operands split along K"), ("B, A", 1, "the operands split along K"),
    ("B", 0, "the merged K steps"), ("B", True, "the merged K steps"),
])
def test_a_form_out_of_range_is_refused(operands, merged, field):
    with pytest.raises(ConfigError, match=f"subtile form: {field} must be"):
        SubtileForm(operands, merged)
    with pytest.raises(ConfigError, match="subtile form: halved must be a bool, got 1"):
        SubtileForm("B", 1, 1)


@pytest.mark.parametrize("operands, diagonal", [("B", True), ("A, B", 1)])
def test_a_diagonal_form_of_one_operand_is_refused(operands, diagonal):
    with pytest.raises(ConfigError, match="the diagonal form splits A, B along K"):
        SubtileForm(operands, diagonal=diagonal)


@pytest.mark.parametrize("operands, whole", [("A, B", True), ("B", 1)])
def test_a_whole_form_of_both_operands_is_refused(operands, whole):
    with pytest.raises(ConfigError, match="the whole-operand stage form holds one operand"):
        SubtileForm(operands, whole=whole)


@pytest.mark.parametrize("halved, pieces", [(True, 3), (True, 1), (True, True), (False, 4)])
def test_pieces_out_of_range_are_refused(halved, pieces):
    """A cut MFMA makes 2 or 4 pieces (half_k.py: halves, the 8-bit floats' quarters); a
    form with none cut has none to count."""
    with pytest.raises(ConfigError, match="subtile form: the pieces of a cut MFMA must be "
                                          "2 or 4"):
        SubtileForm("B", 1, halved, pieces)
