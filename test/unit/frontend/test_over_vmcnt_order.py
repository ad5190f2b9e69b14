"""``partition._over_vmcnt``: a channel whose copies take more global loads per subtile than
``vmcnt`` counts is refused at its first copy before the schedule is made of the options,
unless an option the schedule checks before that count is refused first (as the schedule
would: ``from_values`` checks its values in order), or the pipeline asked for the count.
The whole kernel's case is ``test_cut_run_widths.py``'s."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.partition import _over_vmcnt
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.target.gfx950 import VMCNT_MAX


def _analysis(vm_a: int, vm_b: int = 4):
    """A stand-in of the front end's analysis: one copy per channel, A's first."""
    ops = [SimpleNamespace(name="amdgpu.gather_to_lds", tag=ch) for ch in (0, 1)]
    return SimpleNamespace(ops=ops, copies=[SimpleNamespace(op=0), SimpleNamespace(op=1)],
                           partition=SimpleNamespace(vm_per_load=(vm_a, vm_b),
                                                     copy_channel=[0, 1]))


def _values(spec: str, **counts) -> tuple:
    schedule = parse_pipeline(spec)
    values = dict(schedule.items())
    values.update(counts)
    return schedule, values


@pytest.mark.parametrize("spec", ["4wave", "pingpong"])
def test_a_count_over_vmcnt_is_refused_at_the_copy(spec):
    an = _analysis(VMCNT_MAX + 1)
    schedule, values = _values(spec, vm_per_load_a=VMCNT_MAX + 1, vm_per_load_b=4)
    with pytest.raises(IRError, match=r"channel A's copies take 64 global load instructions "
                                      r"per subtile, more than the 63") as e:
        _over_vmcnt(an, schedule, values)
    assert e.value.op is an.ops[0]
    # within the count, nothing
    _over_vmcnt(_analysis(VMCNT_MAX), *_values(spec, vm_per_load_a=VMCNT_MAX))


def test_an_option_checked_before_it_is_refused_first():
    """The schedule checks its values in their order: a refused option before the count is
    its refusal (left to the schedule here), one after it is not reached."""
    an = _analysis(VMCNT_MAX + 1)
    vm = dict(vm_per_load_a=VMCNT_MAX + 1, vm_per_load_b=4)
    for spec in ("4wave", "pingpong"):
        _over_vmcnt(an, *_values(spec, lgkm_per_load_a=10 ** 6, **vm))
        with pytest.raises(IRError):
            _over_vmcnt(an, *_values(spec, **vm, lgkm_per_load_a=10 ** 6))


def test_the_schedule_names_its_first_refusal():
    """``first_refusal``: the first key ``from_values`` refuses, in the values' order; None
    where it takes each."""
    for spec in ("4wave", "pingpong"):
        schedule, values = _values(spec)
        cls = type(schedule)
        assert cls.first_refusal(values) is None
        _, values = _values(spec, lgkm_per_load_a=10 ** 6, vm_per_load_a=VMCNT_MAX + 1)
        assert cls.first_refusal(values) == "lgkm_per_load_a"
        assert cls.first_refusal({"vm_per_load_a": 0, "lgkm_per_load_a": 10 ** 6}) == \
            "vm_per_load_a"
        assert cls.first_refusal({"no_such_option": 1}) == "no_such_option"


def test_an_asked_count_is_the_options():
    schedule, values = _values("4wave{vm_per_load_a=8}", vm_per_load_a=VMCNT_MAX + 1)
    _over_vmcnt(_analysis(VMCNT_MAX + 1), schedule, values)
