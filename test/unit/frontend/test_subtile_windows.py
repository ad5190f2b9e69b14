"""LDS buffers whose two subtiles no element bit tells apart keep only each subtile's
window (``partition.subtile_windows``): the 64x192 4-wave tile's B buffers (a 48-row and a
96-row subtile interleaved in 96-row periods) fit in LDS, pipelined and exact."""

from __future__ import annotations

import numpy as np
import pytest

from build_cache import share_code_objects
from pipeline_mlir.frontend.partition import BufferLayout, subtile_windows, window_index
from pipeline_mlir.tools.pipeline_opt import main


def _rows(*ranges):
    return [np.arange(a, b, dtype=np.int64).reshape(-1, 8) for a, b in ranges]


def test_interleaved_subtiles_keep_their_periodic_windows():
    # 6 blocks of 256 elements (bf16 -> 128-element bank rows): subtile 0 owns block 0 of
    # every 3, subtile 1 the two after it
    by_sub = {0: _rows((0, 256), (768, 1024)), 1: _rows((256, 768), (1024, 1536))}
    win = subtile_windows(by_sub, 1536, 2)
    assert win == {0: (768, 0, 256), 1: (768, 256, 512)}
    buf = BufferLayout(1, (0, 1), None, elements=1536, windows=win)
    assert (buf.elements_of(0), buf.elements_of(1)) == (512, 1024)
    # every element maps into its subtile's buffer, one to one
    for sub, els in by_sub.items():
        period, first, width = win[sub]
        e = np.concatenate([x.ravel() for x in els])
        new = e // period * width + e % period - first
        assert new.min() == 0 and new.max() < buf.elements_of(sub)
        assert len(np.unique(new)) == len(e)


def test_a_subtile_of_the_outer_rows_keeps_a_window_that_wraps():
    """IREE's 4-wave B tile at an unaligned K (128 x 128 f16, staged copies): subtile 0
    is the 16-row fragments 0 and 3 of every 64 rows, subtile 1 fragments 1 and 2.
    Subtile 0's window wraps round its period (rows 48..63, then 0..15): half the buffer
    each, not the whole for subtile 0; every element lands in its window once, on its
    bank.  Elements a wrapped window does not hold would land outside it (the rotation is
    not the identity on them)."""
    frag = [np.arange(r * 2048, (r + 1) * 2048, dtype=np.int64) for r in range(8)]
    by_sub = {0: [frag[i] for i in (0, 3, 4, 7)], 1: [frag[i] for i in (1, 2, 5, 6)]}
    win = subtile_windows(by_sub, 16384, 2)
    assert win == {0: (8192, 6144, 4096), 1: (8192, 2048, 4096)}
    buf = BufferLayout(1, (0, 1), None, elements=16384, windows=win)
    assert (buf.elements_of(0), buf.elements_of(1)) == (8192, 8192)
    for sub, els in by_sub.items():
        e = np.concatenate(els)
        new = window_index(e, *win[sub])
        assert sorted(new.tolist()) == list(range(8192))
        assert ((new - e) % 128 == 0).all()         # 128 f16: one row of 64 4-byte banks
    assert window_index(np.arange(2048, 6144), *win[0]).min() >= 4096


def test_a_wrapped_window_never_cuts_an_access():
    """The rewrite moves an access's first element into the window, the rest following:
    a window that wraps must not put its seam inside an access.  Subtile 0's 8-element
    access at 8188 crosses the 8192 boundary, where the wrap of the test above would cut
    it (8188..8191 at the window's end, 8192..8195 at its start); the window chosen keeps
    every access whole."""
    acc0 = [np.arange(b, b + 8, dtype=np.int64)[None, :] for b in (8188, 8184, 100)]
    acc1 = [np.arange(b, b + 8, dtype=np.int64)[None, :]
            for b in [*range(2048, 6144, 8), *range(10240, 14336, 8)]]
    win = subtile_windows({0: acc0, 1: acc1}, 16384, 2)
    for sub, accs in ((0, acc0), (1, acc1)):
        for a in accs:
            new = window_index(a, *win[sub])
            assert (np.diff(new, axis=-1) == 1).all(), (sub, a, new, win[sub])


def test_a_window_starts_on_a_whole_row_of_banks():
    """Subtile 1 starts 64 bytes into a bank row: its window starts at the row (the
    element keeps its bank)."""
    win = subtile_windows({0: _rows((0, 512)), 1: _rows((544, 1024))}, 1024, 2)
    assert win[1][1] % 128 == 0 and win[1][1] <= 544


def test_subtiles_that_cover_the_buffer_keep_it_whole():
    assert subtile_windows({0: _rows((0, 1024)), 1: _rows((0, 1024))}, 1024, 2) == {}


@pytest.mark.parametrize("mode", ["late", "random:3"])
def test_the_64x192_tile_fits_and_is_exact(capsys, mode):
    """One build for both modes (the run's store keeps the schedule's own kernel)."""
    with share_code_objects(own_kernels=True):
        rc = main(["--pipeline=4wave{dtype=bf16 BM=64 BN=192 BK=128}",
                   "--emulate=128,384,512", f"--emulate-mode={mode}",
                   "--emulate-workgroups=2"])
    out, err = capsys.readouterr()
    assert rc == 0 and err == "", err
    assert f"mode={mode.split(':')[0]}: exact, max error 0" in out


def test_a_tile_past_the_lds_is_still_refused(capsys):
    """Windows save only what the subtiles leave unused: a tile whose two stages of data
    (2 x (128 + 256) x 128 bf16) are more than LDS is refused, naming the bytes."""
    rc = main(["--pipeline=4wave{dtype=bf16 BM=128 BN=256 BK=128}", "--emit=mlir"])
    _out, err = capsys.readouterr()
    assert rc == 1 and "'scf.for' op: the schedule's LDS buffers" in err, err
    assert "need 196608 bytes, more than the 163840 bytes" in err
