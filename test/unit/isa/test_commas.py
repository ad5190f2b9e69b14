"""The one top-level comma splitter (``pipeline_mlir/isa/commas.py``); its callers' own tests:
test_attrs.py (attribute fields), test_passes.py (pass pipelines), the asm reader's."""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.commas import Unbalanced, split_top


@pytest.mark.parametrize("text, brackets, strings, parts", [
    ("v[0:1], s[2:3], 0", "[(", False, ["v[0:1]", "s[2:3]", "0"]),
    ("a<1, 2>, b", "([", False, ["a<1", "2>", "b"]),          # <> only where asked
    ("a<1, 2>, b", "<([", False, ["a<1, 2>", "b"]),
    ('"x,y", z', "(", True, ['"x,y"', "z"]),
    ('"x,y", z', "(", False, ['"x', 'y"', "z"]),
    ('"a\\",b", c', "(", True, ['"a\\",b"', "c"]),
    ("", "(", False, []), ("x,", "(", False, ["x", ""]), ("a,,b", "(", False, ["a", "", "b"]),
])
def test_commas_split_outside_the_brackets_asked(text, brackets, strings, parts):
    assert split_top(text, brackets, strings) == parts


@pytest.mark.parametrize("text, closed", [("a), b", True), ("f(a, b", False)])
def test_unbalanced_text_is_refused_only_when_strict(text, closed):
    with pytest.raises(Unbalanced) as e:
        split_top(text, "({[", strict=True)
    assert e.value.closed is closed
    assert split_top(text, "({[")          # not strict: split as it stands
