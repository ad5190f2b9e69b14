"""The front end's soundness checks on their own (the located refusals of whole kernels are
in ``test/lit/passes/sched-adopt-loop-soundness.mlir``)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.soundness import check_in_global


class _Op:
    name = "amdgpu.gather_to_lds"
    location = None


def test_reads_inside_the_buffer_pass():
    check_in_global(_Op(), np.arange(0, 100), 100)


@pytest.mark.parametrize("past_end", [True, False])
def test_a_read_before_the_buffer_is_refused(past_end):
    with pytest.raises(IRError, match=r"outside its buffer .*element -8 of 100"):
        check_in_global(_Op(), np.arange(-8, 8), 100, past_end=past_end)


def test_a_read_past_the_end_is_refused_only_where_asked():
    """Workgroup 0 must read inside; a sample workgroup at the edge of C may point rows past
    the end (IREE's kernels for sizes their tiles do not divide)."""
    with pytest.raises(IRError, match=r"element 120 of 100"):
        check_in_global(_Op(), np.arange(90, 121), 100)
    check_in_global(_Op(), np.arange(90, 121), 100, past_end=False)
