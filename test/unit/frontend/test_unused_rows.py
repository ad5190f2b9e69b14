"""LDS elements no stored element of C depends on (``pipeline_mlir/frontend/unused_rows.py``).

IREE's batch ``A x B^T`` 2 x 300x520x262 in its late form (64x128 tiles, a 50-workgroup
grid) clamps the rows of A past M to row M and the rows of B past N to row N: in batch 0
those are batch 1's first rows, while the front end's own copies read rows M, M+1, ...
(N, N+1, ...).  The two differ only in LDS rows that feed accumulator rows (columns) the
epilogue's scatter masks off, which the proof finds from the kernel itself: in the last
row of tiles, the A rows from ``M - 256`` on; in the last column of tiles, the B rows from
``N - 512`` on.  With the scatter's row bound widened by two rows, the LDS row the kernel
clamps and the front end does not (local row ``M - 256 + 1``) feeds a stored row of C:
refused at the copy, as before the proof.  (With the proof made to spare every element,
that mutant was pipelined with exit 0 and "exact" on the 2 workgroups the emulator runs,
while all 50 race on C.)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

import pipeline_mlir.frontend.unused_rows as U
from pipeline_mlir.tools.pipeline_opt import main

DATA = Path(__file__).resolve().parents[2] / "data" / "iree"
sys.path.insert(0, str(DATA))
import epilogues as E  # noqa: E402
import generate as G  # noqa: E402

M, N, K = 300, 520, 262
#: the late form's tiles (IREE's choice at these sizes) and the row of K elements in LDS
TILE_M, TILE_N, K_TILE = 64, 128, 32


def _late() -> str:
    return G.forms(E.epilogue_source(kind="batch", m=M, n=N, k=K))["late"]


def _widened(text: str, rows: int) -> str:
    """The scatter's bound on C's rows (the ``vector.broadcast`` of the rows left that the
    row mask compares with) made ``rows`` larger."""
    pat = re.compile(r"(%\d+) = vector\.broadcast (%\d+) : i32 to vector<1xi32>\n"
                     r"(\s+)(%\d+) = arith\.index_castui \1 : vector<1xi32> to vector<1xindex>")
    hit = [m for m in pat.finditer(text)
           if re.search(r"arith\.cmpi ult, %\d+, " + m.group(4) + " ", text)]
    assert len(hit) == 1, [m.group(0) for m in hit]
    m, sp = hit[0], hit[0].group(3)
    new = (f"%c_wide = arith.constant {rows} : i32\n{sp}%rows_wide = arith.addi {m.group(2)}, "
           f"%c_wide : i32\n{sp}{m.group(1)} = vector.broadcast %rows_wide : i32 to "
           f"vector<1xi32>\n{sp}{m.group(4)} = arith.index_castui {m.group(1)} : vector<1xi32> "
           f"to vector<1xindex>")
    return text[:m.start()] + new + text[m.end():]


def _run(tmp_path, text: str) -> tuple[int, str]:
    src = tmp_path / "batch.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json", "-o",
               str(tmp_path / "out.json")])
    return rc, str(src)


def test_rows_past_m_and_n_are_proven_unused(tmp_path, capsys, monkeypatch):
    seen: dict = {}
    unused = U.UnusedElements.unused

    def spy(self, wid):
        out = unused(self, wid)
        seen[self.an.buffers[self.buffer].type.shape[0], wid] = out
        return out
    monkeypatch.setattr(U.UnusedElements, "unused", spy)
    rc, _src = _run(tmp_path, _late())
    assert rc == 0, capsys.readouterr().err
    a, b = TILE_M * K_TILE, TILE_N * K_TILE
    last_m, last_n = -(-M // TILE_M) - 1, -(-N // TILE_N) - 1
    tiles_n = last_n + 1
    # the last row of tiles in batch 0 (A) and the last column of tiles (B): what the
    # proof was asked for, and the rows it finds unused
    asked_a = {w for (size, w) in seen if size == a}
    assert asked_a == {(last_m * tiles_n + j,) for j in range(tiles_n)}, asked_a
    for w in asked_a:
        assert int(seen[a, w].sum()) == (TILE_M * (last_m + 1) - M) * K_TILE
    asked_b = {w for (size, w) in seen if size == b}
    assert (last_n,) in asked_b and all(w[0] % tiles_n == last_n for w in asked_b)
    for w in asked_b:
        assert int(seen[b, w].sum()) == (TILE_N * (last_n + 1) - N) * K_TILE
    # an LDS row is unused whole or not at all
    rows = seen[a, (last_m * tiles_n,)].reshape(TILE_M, K_TILE)
    assert np.array_equal(rows.all(axis=1), rows.any(axis=1))


def test_a_differing_row_that_feeds_a_stored_row_is_refused(tmp_path, capsys):
    rc, src = _run(tmp_path, _widened(_late(), 2))
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert err.startswith(f"{src}:"), err
    row = M - (-(-M // TILE_M) - 1) * TILE_M + 1       # the first row clamped and stored
    wid = (-(-M // TILE_M) - 1) * -(-N // TILE_N)
    assert re.search(r"channel A's copies do not move as one block from one workgroup to "
                     r"another \(its global index mixes .*'arith\.minui' op at line \d+:\d+\)"
                     rf"\): in workgroup \({wid},\) at the loop's first K step, LDS element "
                     rf"{row * K_TILE} gets global element {M * K} from the kernel's copies "
                     rf"and {(M + 1) * K} from the front end's", err), err
