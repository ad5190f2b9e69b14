"""The large global buffers a finished launch hands to the next (``pipeline_mlir/emu/spare.py``):
never one that a launch or a view of it still holds, every byte written again, and no more
kept than the limit."""

from __future__ import annotations

import numpy as np

from pipeline_mlir.emu import poison, spare
from pipeline_mlir.emu.machine import GlobalMemory

SIZE = spare.SMALLEST + 4096


def test_a_held_buffer_is_never_handed_out_again(monkeypatch):
    monkeypatch.setattr(spare, "_kept", [])
    first = spare.buffer(SIZE)
    view = first[8:16]                  # a view holds its base
    address = first.ctypes.data
    del first
    second = spare.buffer(SIZE)
    assert second.ctypes.data != address and view.base is not second
    del view, second
    assert spare.buffer(SIZE).ctypes.data == address      # the first kept, unused now


def test_a_reused_buffer_shows_nothing_of_the_launch_before(monkeypatch):
    monkeypatch.setattr(spare, "_kept", [])
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


def test_no_more_than_the_limit_is_kept(monkeypatch):
    monkeypatch.setattr(spare, "_kept", [])
    monkeypatch.setattr(spare, "KEPT_BYTES", 3 * SIZE)
    held = [spare.buffer(SIZE) for _ in range(5)]    # all in use: two are not kept
    assert spare.kept() == 3 * SIZE
    del held
    big = spare.buffer(2 * SIZE)      # room made by dropping unused ones
    assert spare.kept() <= 3 * SIZE and any(a is big for a in spare._kept)
