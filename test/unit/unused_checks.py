"""What the proof of unused LDS rows (``pipeline_mlir/frontend/unused_rows.py``) answers
in a run of IREE's batch ``A x B^T`` 2 x 300x520x262 late form, and what it must answer:
shared by ``frontend/test_unused_rows.py`` (a mutant) and ``tools/test_iree_epilogues.py``
(the kernel as IREE writes it, pipelined and emulated); and a mutant of a batch late form
that test and ``tools/test_iree_mutants.py`` (the campaign's verdict) share."""

from __future__ import annotations

import re

import numpy as np

import pipeline_mlir.frontend.unused_rows as U
from pipeline_mlir.frontend.marks import MERGED_ATTR

M, N, K = 300, 520, 262
#: the late form's tiles (IREE's choice at these sizes) and the row of K elements in LDS
TILE_M, TILE_N, K_TILE = 64, 128, 32


def spied(monkeypatch, merged: dict | None = None) -> dict:
    """What :meth:`UnusedElements.unused` answers in a run, by (the LDS buffer's
    elements, the workgroup): how many elements it proves unused, where it makes the proof
    for the kernel's loop; for a loop of K steps merged (a merge's trial, proven with the
    kernel loop's epilogue: ``unused_rows.results_replacing``), in ``merged`` by (the K
    steps merged, the elements, the workgroup), or left out."""
    seen: dict = {}
    unused = U.UnusedElements.unused

    def spy(self, wid):
        out = unused(self, wid)
        size = int(np.prod(self.an.buffers[self.buffer].type.shape))
        m = self.an.scan.loop.attributes[MERGED_ATTR].value \
            if MERGED_ATTR in self.an.scan.loop.attributes else 1
        if out is not None and m == 1:
            seen[size, wid] = int(out.sum())
        elif out is not None and merged is not None:
            merged[m, size, wid] = int(out.sum())
        return out
    monkeypatch.setattr(U.UnusedElements, "unused", spy)
    return seen


def check_batch_late(seen: dict, widened: int = 0) -> None:
    """The elements the proof spares in the batch's late form (its run's ``seen``): in
    the last row of tiles of batch 0, the A rows from ``M - 256`` on (``widened`` rows
    more stored: fewer), in the last column of tiles the B rows from ``N - 512`` on."""
    a, b = TILE_M * K_TILE, TILE_N * K_TILE
    last_m, last_n = -(-M // TILE_M) - 1, -(-N // TILE_N) - 1
    tiles_n = last_n + 1
    asked_a = {w for (size, w) in seen if size == a}
    assert asked_a and asked_a <= {(last_m * tiles_n + j,) for j in range(tiles_n)}, seen
    for w in asked_a:
        assert seen[a, w] == (TILE_M * (last_m + 1) - M - widened) * K_TILE, seen
    for w in {w for (size, w) in seen if size == b}:
        assert w[0] % tiles_n == last_n and seen[b, w] == (TILE_N * (last_n + 1) - N) * K_TILE


def row_tile_moved(text: str) -> str:
    """IREE's batch late form ``text`` with the epilogue's first load of the private
    buffer (its row tile's index, the C loop's variable) made to read row tile 1: the
    values of one column tile of row tile 0 taken from row tile 1, 16 rows further down
    (an MFMA row tile), the store mask left as it is."""
    pat = re.compile(r"memref\.load (%alloca\w*)\[%c0, (%\d+), %c0, (%\d+), %c0\]")
    first = pat.search(text)
    assert first is not None and "%c1 = arith.constant 1 : index" in text, text
    return text[:first.start()] + first.group(0).replace(f", {first.group(2)},", ", %c1,") + \
        text[first.end():]
