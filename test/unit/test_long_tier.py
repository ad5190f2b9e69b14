"""The long tier (``long_tier.py``): its items deselected by default, a reason required."""

from __future__ import annotations

import os

import pytest

import long_tier


class _Item:
    def __init__(self, nodeid: str, mark=None):
        self.nodeid, self._mark = nodeid, mark

    def get_closest_marker(self, name):
        return self._mark if name == long_tier.MARKER else None


def test_the_default_run_leaves_the_long_tier_out():
    plain = _Item("t.py::a")
    held = _Item("t.py::b", pytest.mark.long("t.py::a checks it").mark)
    assert long_tier.split([plain, held], run_long=False) == ([plain], [held])
    assert long_tier.split([plain, held], run_long=True) == ([plain, held], [])


@pytest.mark.parametrize("mark", [pytest.mark.long().mark, pytest.mark.long("  ").mark,
                                  pytest.mark.long(reason=3).mark])
def test_a_long_item_without_a_reason_is_an_error(mark):
    with pytest.raises(pytest.UsageError, match=r"t\.py::c: @pytest\.mark\.long needs a reason"):
        long_tier.split([_Item("t.py::c", mark)], run_long=True)


def test_the_variable_takes_one_or_zero_only():
    assert long_tier.runs_long({}) is False
    assert long_tier.runs_long({long_tier.ENV: "0"}) is False
    assert long_tier.runs_long({long_tier.ENV: "1"}) is True
    with pytest.raises(pytest.UsageError, match=r"PIPELINE_TEST_LONG='yes': give 1"):
        long_tier.runs_long({long_tier.ENV: "yes"})


@pytest.mark.long("the tier's own wiring: it runs only when the run asks for the long tier")
def test_an_item_of_the_long_tier_runs_only_when_asked():
    assert os.environ.get(long_tier.ENV) == "1"


def test_marked_values_carry_their_reason_and_the_others_stay_plain():
    one, two, three = long_tier.marked(["a", ("b", "c"), "d"], {("b", "c"): "why", "d": "so"})
    assert one == "a"
    assert two.values == ("b", "c") and [m.args for m in two.marks] == [("why",)]
    assert two.marks[0].name == long_tier.MARKER
    assert three.values == ("d",) and [m.args for m in three.marks] == [("so",)]
