"""Rows pointed past the end of their buffer in the fit of the front end's layout
(``pipeline_mlir/frontend/block_fit.py``), on small made-up tables.

IREE's tile of N = 63 rows under a 64-row tile points row 63 past the end of B (an
``arith.select`` of the row): the table of the global elements workgroup 0's LDS buffer
holds is a strided block but for that row, which reads zero, as every element the fit
puts past the end would.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.analysis.ir_facts import xor_shuffle
from pipeline_mlir.frontend import block_fit as BF
from pipeline_mlir.kernel import loop_model as LM

ROWS, COLS, LD = 64, 32, 40             # a 64 x 32 tile of a 63 x 40 buffer
END = 63 * LD
ZERO = (END, 2 ** 30)                   # (its elements, what a buffer load's offset reaches)


def _block(rows: int = ROWS) -> np.ndarray:
    x = np.arange(rows * COLS, dtype=np.int64)
    return (x // COLS) * LD + x % COLS


def _selected(row: int, to: int) -> np.ndarray:
    """The block with ``row``'s elements pointed at row ``to`` (IREE's select)."""
    t = _block()
    t[row * COLS:(row + 1) * COLS] = to * LD + np.arange(COLS)
    return t


def test_a_row_past_the_end_is_filled_with_the_block():
    table = _selected(63, 1000)          # row 63 pointed far past the end
    sw, digits, filled = BF.filled_layout(table, None, ZERO)
    assert (sw, digits) == (None, ((1, COLS, 1), (COLS, ROWS, LD)))
    assert np.array_equal(filled, _block())
    assert np.all(filled[63 * COLS:] >= END)
    # swizzled: the row is found through the buffer's own swizzle
    logical = xor_shuffle(np.arange(ROWS * COLS), COLS, 8)
    swizzled = np.empty_like(table)
    swizzled[logical] = table
    assert BF.filled_layout(swizzled, (COLS, 8), ZERO)[:2] == ((COLS, 8), digits)


def test_without_zero_reads_no_row_is_free():
    """A buffer that does not read zero past its end (no ``zero``): no element is free."""
    assert BF.filled_layout(_selected(63, 1000), None, None)[1] is None
    assert BF.data_layout(_selected(63, 1000), None) == (None, None)


@pytest.mark.parametrize("table, zero, why", [
    # row 10 pointed past the end, where the block puts it inside: it would read data
    (_selected(10, 1000), ZERO, "a free element the fit puts inside the buffer"),
    # row 63 pointed inside the buffer (at row 62): not free, not the block's
    (_selected(63, 62), ZERO, "a row read twice"),
    # the block past the offset a buffer load reaches
    (_selected(63, 1000), (END, 63 * LD + 8), "past the 32-bit offset"),
])
def test_a_fit_that_would_read_other_data_is_refused(table, zero, why):
    assert BF.filled_layout(table, None, zero)[1] is None, why


def test_free_elements_cannot_decide_a_stride():
    """The fit reads each digit's stride off one element: a free one decides nothing."""
    table = _block()
    table[1] = 10 ** 6
    assert BF.fit_digits(table - table[0], table >= END) is None


def test_a_lane_run_across_the_end_is_refused():
    rows = np.array([[END - 8 + i for i in range(8)], [END - 4 + i for i in range(8)]])
    BF.check_runs(rows[:1], END, "B", None)        # wholly inside
    BF.check_runs(rows[:1] + 8, END, "B", None)    # wholly past
    BF.check_runs(rows, None, "B", None)           # no end known: nothing to check
    with pytest.raises(LM.LoopRefusal, match=r"channel B: a lane of the front end's copies "
                       r"would read across the end of its buffer's 2520 elements \(elements "
                       r"2516\.\.2523\)"):
        BF.check_runs(rows, END, "B", None)
