"""The large global buffers a finished launch hands to the next (``pipeline_mlir/emu/spare.py``):
never one that a launch or a view of it still holds, on any path, every byte written
again, nothing a launch did to its array seen by the next, and no more kept than the
limit."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from pipeline_mlir.emu import poison, spare
from pipeline_mlir.emu.machine import GlobalMemory

SIZE = spare.SMALLEST + 4096


@pytest.fixture
def pool(monkeypatch):
    """A pool of the test's own: its blocks go back to it, not to the session's."""
    monkeypatch.setattr(spare, "_pool", spare._Pool())
    return spare._pool


def test_a_held_buffer_is_never_handed_out_again(pool):
    first = spare.buffer(SIZE)
    view = first[8:16].view(np.uint16)[1:]      # a view of a view holds the array too
    address = first.ctypes.data
    del first
    second = spare.buffer(SIZE)
    assert second.ctypes.data != address
    del view, second
    assert spare.buffer(SIZE).ctypes.data == address      # the first block kept, free now


def test_a_launch_that_fails_keeps_its_buffer_until_its_error_goes(pool):
    """An error that drops a launch gives its block back; while its traceback (which
    holds the launch's frame) lives, the block stays out."""
    def launch():
        glob = GlobalMemory()
        glob.add_poisoned("C", SIZE)
        raise RuntimeError(glob.buffer("C").ctypes.data)

    with pytest.raises(RuntimeError) as failed:
        launch()
    address = failed.value.args[0]
    held = spare.buffer(SIZE)
    assert held.ctypes.data != address
    del failed
    assert spare.buffer(SIZE).ctypes.data == address


def test_what_a_launch_did_to_its_array_is_not_seen_by_the_next(pool):
    """A launch that made its array read-only or reshaped it in place: the next one gets
    the block as a plain writable array of its size (the same array object was handed
    out again, read-only: the next launch's copy into it failed)."""
    first = spare.buffer(SIZE)
    address = first.ctypes.data
    first.flags.writeable = False
    first.shape = (SIZE // 4, 4)
    del first
    glob = GlobalMemory()
    glob.add("A", np.full(SIZE, 5, dtype=np.uint8))
    again = glob.buffer("A")
    assert again.ctypes.data == address and again.shape == (SIZE,) and again.flags.writeable
    assert (again == 5).all()


def test_no_reference_count_is_read(pool, monkeypatch):
    """An interpreter whose counts read otherwise (one that passes arguments borrowed, or a
    free-threaded one): a held buffer is still never handed out again."""
    monkeypatch.setattr(sys, "getrefcount", lambda _obj: 2)
    first = spare.buffer(SIZE)
    assert spare.buffer(SIZE).ctypes.data != first.ctypes.data


def test_a_reused_buffer_shows_nothing_of_the_launch_before(pool):
    data = np.arange(SIZE // 2, dtype=np.uint16)
    glob = GlobalMemory()
    glob.add("A", np.full(SIZE // 2, 7, dtype=np.uint16))
    glob.add_poisoned("C", SIZE)
    glob.buffer("C")[:100] = 3
    used = {glob.buffer("A").ctypes.data, glob.buffer("C").ctypes.data}
    del glob
    again = GlobalMemory()
    again.add("A", data)
    again.add_poisoned("C", SIZE)
    assert {again.buffer("A").ctypes.data, again.buffer("C").ctypes.data} == used
    assert np.array_equal(again.buffer("A").view(np.uint16), data)
    assert (again.buffer("C") == poison.byte()).all()


def test_no_more_than_the_limit_is_kept(pool, monkeypatch):
    monkeypatch.setattr(spare, "KEPT_BYTES", 3 * SIZE)
    held = [spare.buffer(SIZE) for _ in range(5)]    # all in use: two are not kept
    assert spare.kept() == 3 * SIZE
    one = held.pop(0)
    del held
    big = spare.buffer(2 * SIZE)      # room made by dropping free ones, the oldest first
    assert spare.kept() == 3 * SIZE
    del big
    # the blocks in use leave no room for 3 more: the free one (2 * SIZE) is kept
    assert len(spare.buffer(3 * SIZE)) == 3 * SIZE and spare.kept() == 3 * SIZE
    assert [len(b) for b in pool.free] == [2 * SIZE]
    again = spare.buffer(2 * SIZE)
    assert not pool.free and len(again) == 2 * SIZE
    del one
