"""Padding rows left out of the front end's own copies (``pipeline_mlir/frontend/unread_bits.py``).

On made-up buffers: the bits taken (a marked buffer's rows no read reads, a K merge's copies
of it; none for an unmarked buffer, a bit a read sets, one of the K sub-step's or whose
deletion would move other elements), the swizzle check and the coverage check (each refusing
what it must), the reads' elements with the bits deleted, and the kept proof's tables leaving
the skipped elements uncompared.  ``test/unit/tools/test_iree_f32.py`` checks the plan of
IREE's f32 ``A^T x B`` 94x1826x2660 (its B subtiles of 128 elements, one copy a thread).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np
import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend import unread_bits as U
from pipeline_mlir.frontend.kept_compare import RunTables
from pipeline_mlir.frontend.marks import PADDING_ROWS_ATTR
from pipeline_mlir.kernel.loop_model import LoopRefusal


def _an(shape: list, reads: list, marked: bool = True, swizzle=None):
    """An analysis of one LDS buffer of ``shape`` (f32), read at ``reads`` (element lists),
    marked with padding rows or not."""
    ctx = new_context()
    with ctx, ir.Location.unknown():
        t = ir.MemRefType.get(shape, ir.F32Type.get())
    owner = SimpleNamespace(attributes={PADDING_ROWS_ATTR: None} if marked else {})
    root = SimpleNamespace(owner=owner, type=t)
    view = SimpleNamespace(root=root, swizzle=swizzle)
    rs = [SimpleNamespace(buffer=0, lds=np.asarray(r, np.int64).reshape(-1, 1))
          for r in reads]
    return SimpleNamespace(buffer_views={0: view}, reads=rs, _ctx=ctx)


@dataclass
class _Read:
    buffer: int
    lds: np.ndarray


@dataclass
class _Reads:
    reads: list = field(default_factory=list)


def _rows(first: int, n: int, cols: int = 16) -> list:
    return list(range(first * cols, (first + n) * cols))


def test_the_padding_rows_bit_is_taken():
    # IREE's 4 x 16 tile in a buffer grown to 8 x 16: rows 4 to 7 (bit 6) no read reads
    assert U.unread_bits(_an([8, 16], [_rows(0, 2), _rows(2, 2)]), 0) == (6,)
    # 4 K steps merged (4 x 8 x 16): each step's padding rows, bit 6 again
    reads = [[s * 128 + e for e in _rows(0, 4)] for s in range(4)]
    assert U.unread_bits(_an([4, 8, 16], reads), 0) == (6,)
    # a tile of 2 rows grown to 8: bits 5 and 6
    assert U.unread_bits(_an([8, 16], [_rows(0, 2)]), 0) == (5, 6)


def test_no_bit_is_taken_where_it_must_not_be():
    assert U.unread_bits(_an([8, 16], [_rows(0, 4)], marked=False), 0) == ()
    assert U.unread_bits(_an([8, 16], [_rows(0, 4) + [64]]), 0) == ()      # (a padding read)
    assert U.unread_bits(_an([8, 16], [_rows(0, 4)]), 0, kbits=(6,)) == ()
    # 12 rows, 2 read: bit 5 (rows 2, 3, 6, 7, 10, 11) is taken, not bit 6, whose deletion
    # would not halve them (rows 8 to 11 have it clear)
    assert U.unread_bits(_an([12, 16], [_rows(0, 2)]), 0) == (5,)
    assert U.unread_bits(_an([8, 16], []), 0) == ()


def test_a_swizzle_that_moves_the_bits_refuses():
    U.check_unswizzled((6,), None, "B", 3)
    U.check_unswizzled((), (64, 8), "B", 3)
    U.check_unswizzled((7,), (32, 8), "B", 3)       # (moves and reads bits 3 to 6)
    for swizzle in ((32, 8), (24, 8), (32, 6)):
        with pytest.raises(LoopRefusal, match=r"channel B: the swizzle \(\d+, \d+\) of its "
                                              r"LDS buffer moves its padding rows' element "
                                              r"bits \(6,\)") as e:
            U.check_unswizzled((6,), swizzle, "B", 3)
        assert e.value.ops == (3,)


def test_reads_the_plan_does_not_copy_are_refused():
    plan = SimpleNamespace(channel=1)
    written = [(np.arange(0, 64).reshape(-1, 1), None, 0, 0),
               (np.arange(128, 192).reshape(-1, 1), None, 1, 0)]
    U.check_covered(plan, [(np.arange(16), 0), (np.arange(130, 140), 1)], written, 7)
    with pytest.raises(LoopRefusal, match=r"channel B: the front end's copies of subtile 1 "
                                          r"would not write 2 elements its fragment reads "
                                          r"read \(element 64 of the kernel's buffer; an "
                                          r"internal error\)") as e:
        U.check_covered(plan, [(np.arange(16), 0), (np.array([64, 65, 130]), 1)], written, 7)
    assert e.value.ops == (7,)
    with pytest.raises(LoopRefusal, match="subtile 1"):     # (a subtile it copies nothing of)
        U.check_covered(plan, [(np.arange(4), 1)], written[:1], 7)


@pytest.mark.parametrize("seed", range(6))
def test_the_coverage_check_names_what_setdiff1d_finds(seed):
    """Against numpy's ``setdiff1d`` of each read and its subtile's written elements, on
    random plans (written elements repeated, unsorted; reads of 1 to 40 elements, some past
    what is written): the same count and the same least element missing, or no refusal."""
    rng = np.random.default_rng(seed)
    plan = SimpleNamespace(channel=0)
    written = [(rng.integers(0, 90, size=(rng.integers(1, 30), 2)), None,
                int(rng.integers(0, 3)), j) for j in range(4)]
    for _ in range(30):
        lds, sub = rng.integers(0, 100, size=int(rng.integers(1, 40))), int(rng.integers(0, 3))
        have = [p.ravel() for p, _t, s, _j in written if s == sub] or [np.zeros(0, np.int64)]
        missing = np.setdiff1d(lds, np.concatenate(have))
        if not missing.size:
            U.check_covered(plan, [(lds, sub)], written, 2)
            continue
        with pytest.raises(LoopRefusal, match=rf"subtile {sub} would not write "
                                              rf"{missing.size} elements .* \(element "
                                              rf"{missing[0]} of"):
            U.check_covered(plan, [(lds, sub)], written, 2)


def test_the_bits_are_deleted_from_the_reads():
    an = _Reads([_Read(0, np.array([[0], [17], [63]])), _Read(0, np.array([[1]])),
                 _Read(1, np.array([[64]]))])
    out = U.deleted(an, {0: (5,)}, {0: (4,)})
    assert [r.lds.ravel().tolist() for r in out.reads] == [[0, 1, 15], [1], [64]]
    assert U.deleted(an, {}, {0: ()}) is an


def test_the_kept_proof_skips_the_padding_rows():
    kernel = [np.arange(8).reshape(8, 1)]       # the kernel's copies: rows 0 to 7
    own = [np.arange(4).reshape(4, 1)]          # the front end's: rows 0 to 3
    starts_k, starts_o = np.arange(8)[None, :] * 10, np.arange(4)[None, :] * 10
    assert RunTables(kernel, own, 8).first_difference(starts_k, starts_o, -2) is not None
    skip = np.arange(8) >= 4
    assert RunTables(kernel, own, 8, skip).first_difference(starts_k, starts_o, -2) is None
    starts_o[0, 1] = 99                         # (a compared element still differs)
    assert RunTables(kernel, own, 8, skip).first_difference(starts_k, starts_o, -2)[1] == 1
