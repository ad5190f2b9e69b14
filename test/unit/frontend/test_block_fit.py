"""Rows pointed past the end of their buffer in the fit of the front end's layout
(``pipeline_mlir/frontend/block_fit.py``), on small made-up tables.

IREE's tile of N = 63 rows under a 64-row tile points row 63 past the end of B (an
``arith.select`` of the row): the table of the global elements workgroup 0's LDS buffer
holds is a strided block but for that row, which reads zero, as every element the fit
puts past the end would.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline_mlir.analysis.ir_facts import xor_shuffle
from pipeline_mlir.frontend import block_fit as BF
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.tools.pipeline_opt import main

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


def test_a_kept_channel_may_fill_a_free_element_inside_the_buffer():
    """A kept channel's copies test each lane's run against the buffer, and kept_layout.py
    proves what they read over the grid: the fit may then put a free element inside the
    buffer (row 10 pointed past the end: the block's row 10, data), which it refuses
    otherwise; a fit with every free element past the end is still the one taken."""
    table = _selected(10, 1000)
    assert BF.filled_layout(table, None, ZERO)[1] is None
    sw, digits, filled = BF.filled_layout(table, None, ZERO, kept=True)
    assert (sw, digits) == (None, ((1, COLS, 1), (COLS, ROWS, LD)))
    assert np.array_equal(filled, _block()) and filled[10 * COLS] < END
    past = _selected(63, 1000)          # (as without kept: row 63 stays past the end)
    assert np.array_equal(BF.filled_layout(past, None, ZERO, kept=True)[2],
                          BF.filled_layout(past, None, ZERO)[2])
    # never past what a buffer load's offset reaches
    assert BF.filled_layout(table, None, (END, 63 * LD + 8), kept=True)[1] is None


def test_rows_no_stored_output_needs_are_free_inside_the_buffer():
    """IREE's late form of a batch of M = 33 inside one 64-row tile clamps rows 34 to 63
    to row 33 (the next batch's first): no strided block, the kernel's copy of the tile
    does not split and the front end's own copies have no layout.  The rows the
    unused-rows proof spares in workgroup 0 (``spare``) are free, filled with the block's
    rows, data inside the buffer; a spared row still past what a buffer load reaches, or
    a row clamped but not spared (row 33 is the block's), is refused."""
    table = _block()
    for row in range(34, ROWS):
        table[row * COLS:(row + 1) * COLS] = 33 * LD + np.arange(COLS)
    zero = (ROWS * 2 * LD, 2 ** 30)     # the buffer: 2 batches of 64 rows, every row inside
    assert BF.filled_layout(table, None, zero)[1] is None
    spare = np.zeros(len(table), bool)
    spare[33 * COLS:] = True
    sw, digits, filled = BF.filled_layout(table, None, zero, spare=spare)
    assert (sw, digits) == (None, ((1, COLS, 1), (COLS, ROWS, LD)))
    assert np.array_equal(filled, _block()) and filled.max() < zero[0]
    assert BF.filled_layout(table, None, (zero[0], 40 * LD), spare=spare)[1] is None
    spare[63 * COLS:] = False
    assert BF.filled_layout(table, None, zero, spare=spare)[1] is None
    # rows read backwards from row 5, the spared ones filled before the buffer's start
    down = _block()
    down[:6 * COLS] = (5 - np.arange(6 * COLS) // COLS) * LD + np.arange(6 * COLS) % COLS
    spare[:] = False
    spare[6 * COLS:] = True
    assert BF.filled_layout(down, None, zero, spare=spare)[1] is None
    # without zero reads past the end (no zero): nothing is spared
    assert BF.filled_layout(table, None, None, spare=np.ones(len(table), bool))[1] is None


def test_free_elements_cannot_decide_a_stride():
    """The fit reads each digit's stride off one element: a free one decides nothing."""
    table = _block()
    table[1] = 10 ** 6
    assert BF.fit_digits(table - table[0], table >= END) is None
    # a stride read off the free element would fit every other element here
    assert BF.fit_digits(np.array([0, END]), np.array([False, True])) is None
    assert BF.fit_digits(np.array([0, 5]), np.array([True, False])) is None


def test_every_element_not_free_is_checked():
    """The fit checks each element that is not free, the last one too (not only every
    61st): one element off the block is no block."""
    for x in (ROWS * COLS - 1, ROWS * COLS // 2 + 1):
        table = _block()
        table[x] = 0
        assert BF.fit_digits(table, table >= END) is None, x


def test_a_lane_run_across_the_end_is_refused():
    rows = np.array([[END - 8 + i for i in range(8)], [END - 4 + i for i in range(8)]])
    BF.check_runs(rows[:1], END, "B", None)        # wholly inside
    BF.check_runs(rows[:1] + 8, END, "B", None)    # wholly past
    BF.check_runs(rows, None, "B", None)           # no end known: nothing to check
    with pytest.raises(LM.LoopRefusal, match=r"channel B: a lane of the front end's copies "
                       r"would read across the end of its buffer's 2520 elements \(elements "
                       r"2516\.\.2523\)"):
        BF.check_runs(rows, END, "B", None)


#: IREE's bf16 A x B^T 17x1024x512, late form (generate.py's LIT_INPUTS): A's rows 17 to 31
#: pointed at row 17, past the end of A's fat buffer, by an arith.select
M17 = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / \
    "iree-bf16-abt-17x1024x512.late.mlir"
A_CAST = ("%1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<17x512xbf16, "
          "#gpu.address_space<global>> to")
A_BINDING = "binding(0) alignment(64) offset(%c0) flags(\"ReadOnly|Indirect\") " \
            "{iree_gpu.use_rocdl_buffer_instructions} : memref<17x512xbf16"


ROWS_LEFT = "%17 = arith.subi %c17_i32, %16 : i32"
#: the rows left of every workgroup but 0 computed as 16: row 16 pointed past the end there
ROWS_LEFT_WG = ("%wgm = hal.interface.workgroup.id[0] upper_bound 16 : index\n"
                "%wgi = arith.index_castui %wgm : index to i32\n"
                "%c1_wg = arith.constant 1 : i32\n"
                "%wg1 = arith.minui %wgi, %c1_wg : i32\n"
                "%c17_wg = arith.subi %c17_i32, %wg1 : i32\n"
                "%17 = arith.subi %c17_wg, %16 : i32")


@pytest.mark.parametrize("rows_left, message", [
    (ROWS_LEFT.replace("%c17_i32", "%c16_i32"), "channel A: the global elements its LDS "
     "buffer holds are not a strided block of one buffer, swizzled or not (not even with "
     "the 1920 of its 4096 elements no stored element of C depends on in workgroup 0 taken "
     "as free)"),
    (ROWS_LEFT_WG, "channel A's copies do not move as one block from one workgroup to "
     "another: with every workgroup id 1 at the loop's first K step, LDS element 2048 gets "
     "global element 17408, where workgroup 0's block moved gives 8704 (elements past the "
     "buffer's 9216 only where both are)"),
], ids=["row-16", "row-16-past-workgroup-0"])
def test_a_cast_of_a_view_into_a_bigger_buffer_ends_at_its_offset(rows_left, message,
                                                                  tmp_path, capsys):
    """A's fat buffer cast of a view one row into a 40-row binding (its 17 rows are the
    binding's 1 to 17, its end the binding's element 18 x 512, where the copies' reads
    count), row 16 too pointed past the end (it reads zero).  In every workgroup: the fit's
    free rows are those past the cast's end, row 16 is not, so the block, which would read
    row 16's data there, is refused, even with rows 17 to 31, which no stored element of C
    depends on, free (the refusal says so).  In every workgroup but 0: the block moved
    reads row 16 where the kernel's copies read zero, an element inside the cast's end.
    Before, each was taken, and on the emulator the pipelined C's row 16 (in those
    workgroups) was A's row 16 times B where the kernel's is 0."""
    text = M17.read_text()
    assert A_CAST in text and A_BINDING in text and ROWS_LEFT in text, \
        "IREE's kernel changed shape"
    view = "memref<17x512xbf16, strided<[512, 1], offset: 512>, #gpu.address_space<global>>"
    text = text.replace(A_BINDING, A_BINDING.replace("17x512", "40x512")).replace(
        "%assume_align = memref.assume_alignment %0, 64 : memref<17x512xbf16",
        "%assume_align = memref.assume_alignment %0, 64 : memref<40x512xbf16").replace(
        A_CAST, f"%sv = memref.subview %assume_align[1, 0] [17, 512] [1, 1] : "
        f"memref<40x512xbf16, #gpu.address_space<global>> to {view}\n"
        f"%1 = amdgpu.fat_raw_buffer_cast %sv resetOffset : {view} to")
    path = tmp_path / "view.mlir"
    path.write_text(text.replace(ROWS_LEFT, rows_left))
    rc = main([str(path), "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"])
    err = capsys.readouterr().err
    assert rc == 1 and message in err, err[-2000:]


def test_a_kept_run_range_is_one_unsigned_comparison():
    """``kept_layout._between`` (each range test of the kept-mask proof: a run inside the
    buffer, past its end within a buffer load's reach, a coordinate inside its dimension)
    is ``lo <= x <= hi`` for values of both signs and the ends themselves, as one unsigned
    comparison of ``x - lo``; nothing is in an empty range."""
    from pipeline_mlir.frontend.kept_layout import _between
    x = np.array([-(1 << 62), -5, -1, 0, 1, 9, 10, 11, 2 ** 31, 1 << 62], dtype=np.int64)
    for lo, hi in [(0, 10), (0, 0), (10, 11), (-5, 1), (11, 2 ** 31), (3, 2), (0, -1)]:
        want = [lo <= v <= hi for v in x.tolist()]
        assert _between(x, lo, hi).tolist() == want, (lo, hi)
        assert _between(x.astype(np.int32), lo, hi).tolist() == \
            [lo <= v <= hi for v in x.astype(np.int32).tolist()], (lo, hi)
