"""The per-element store marks (``coverage.stored_elements``) read an element's marks as one
word: the same verdict as asking whether any of its bytes was stored, for raw marks and for
bool marks, for every element size and for marks that are not contiguous."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.emu.coverage import stored_elements


@pytest.mark.parametrize("item", [1, 2, 3, 4, 8])
def test_stored_elements_is_any_byte_stored(item):
    rng = np.random.default_rng(item)
    shape = (5, 7)
    raw = np.where(rng.random(shape[0] * shape[1] * item) < 0.1, 0xFF, 0).astype(np.uint8)
    want = raw.reshape(shape[0], shape[1], item).any(axis=2)
    assert want.any() and not want.all()
    assert np.array_equal(stored_elements(raw, shape), want)
    assert np.array_equal(stored_elements(raw != 0, shape), want)
    # every other byte of a twice-as-long buffer: not contiguous
    spread = np.zeros(2 * raw.size, dtype=np.uint8)
    spread[::2] = raw
    assert np.array_equal(stored_elements(spread[::2], shape), want)


def test_stored_elements_reads_only_the_stamped_pages():
    """Marks of 2 uint32 per f32 element (the emulator's: a stamp per halfword): with the map
    of the 4096-byte pages a store stamped, the same verdict, pages not in it not read."""
    shape = (64, 1024)
    marks = np.zeros(shape[0] * shape[1] * 2, dtype=np.uint32)
    marks[[3, 2048 + 5, 2 * shape[0] * shape[1] - 1]] = 7
    want = stored_elements(marks, shape)
    pages = np.zeros(len(marks) // 1024 + 1, dtype=bool)
    pages[[0, 2, len(marks) // 1024 - 1]] = True
    assert want.sum() == 3 and np.array_equal(stored_elements(marks, shape, pages), want)
    pages[2] = False                     # a page not in the map is not read
    assert stored_elements(marks, shape, pages).sum() == 2
