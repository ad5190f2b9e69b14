"""The front end's soundness checks on their own (the located refusals of whole kernels are
in ``test/lit/passes/sched-adopt-loop-soundness.mlir``)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.edges import check_in_global


class _Op:
    name = "amdgpu.gather_to_lds"
    location = None


def test_reads_inside_the_buffer_pass():
    check_in_global(_Op(), np.arange(0, 100), 100, 0)


@pytest.mark.parametrize("workgroup", [0, 1, 7])
@pytest.mark.parametrize("when", ["first", "last"])
def test_a_read_before_the_buffer_is_refused(workgroup, when):
    with pytest.raises(IRError, match=rf"outside its buffer in the loop's {when} iteration "
                                      rf".*element -8 of 100.*workgroup id {workgroup}"):
        check_in_global(_Op(), np.arange(-8, 8), 100, workgroup, when)


def test_a_read_past_the_end_is_refused_only_in_workgroup_0():
    """Workgroup 0 must read inside; another workgroup, at the edge of C, may point rows
    past the end (IREE's kernels for sizes their tiles do not divide)."""
    with pytest.raises(IRError, match=r"element 120 of 100"):
        check_in_global(_Op(), np.arange(90, 121), 100, 0)
    with pytest.raises(IRError, match=r"last iteration \(element 120 of 100"):
        check_in_global(_Op(), np.arange(90, 121), 100, 0, "last")
    check_in_global(_Op(), np.arange(90, 121), 100, 1)
