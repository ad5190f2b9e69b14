"""The front end's own copy distribution (``pipeline_mlir/frontend/layout.py``).

The numpy side on small made-up data (the block fit, the swizzle found from the data,
the address program in both of its forms, the checks of a channel's copies), and the
refusals at the IR level on the natural example with its copies split along K (the
``kcols`` layout, which the front end pipelines by distributing the copies itself)
changed so that one property the rewrite relies on no longer holds.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest

from pipeline_mlir.analysis.ir_facts import xor_shuffle
from pipeline_mlir.frontend import block_fit as BF
from pipeline_mlir.frontend import copy_widths as CW
from pipeline_mlir.frontend import layout as L
from pipeline_mlir.frontend.index_ops import IrOps, NumpyOps
from pipeline_mlir.kernel import loop_model as LM

from test_natural import kernel_text, run_text


def _block(rows: int, cols: int, ld: int) -> np.ndarray:
    """The global offsets of a rows x cols block of a row-major matrix of ``ld`` columns."""
    x = np.arange(rows * cols)
    return (x // cols) * ld + x % cols


def test_fit_digits_reads_a_strided_block():
    assert BF.fit_digits(_block(16, 128, 512)) == ((1, 128, 1), (128, 16, 512))
    # two row groups of 16, 32 rows apart (a subtile of every wave's first fragment)
    d = np.concatenate([_block(16, 64, 1000), 32 * 1000 + _block(16, 64, 1000)])
    assert BF.fit_digits(d) == ((1, 64, 1), (64, 16, 1000), (1024, 2, 32000))


@pytest.mark.parametrize("d", [
    _block(8, 16, 64)[::-1] + 0,                      # does not start at 0
    (np.arange(32) * 3) % 32,                         # rows 3r mod 32: not a block
    np.array([0, 1, 2, 4]),                           # a gap inside the innermost run
])
def test_fit_digits_refuses_what_is_no_block(d):
    assert BF.fit_digits(d) is None


def test_the_swizzle_is_found_from_the_data():
    """IREE's late form writes its XOR swizzle as address arithmetic: the physical
    element at xor_shuffle(x) holds the block's element x."""
    size = 64 * 32
    block = _block(32, 64, 4096)
    table = np.empty(size, dtype=np.int64)
    table[xor_shuffle(np.arange(size), 64, 8)] = block + 777
    assert BF.data_layout(table, None) == ((64, 8), BF.fit_digits(block))
    assert BF.data_layout(block + 5, None) == (None, BF.fit_digits(block))
    scrambled = table.copy()
    scrambled[[0, 8]] = scrambled[[8, 0]]
    assert BF.data_layout(scrambled, None) == (None, None)


def _plan(**kw) -> L.ChannelPlan:
    base = dict(channel=0, buffer=0, bit=11, width=8, copies=2, threads=256,
                swizzle=(64, 8), digits=((1, 128, 1), (128, 32, 512)), dims=(512, 1),
                ref_copy=0, ref_x=0)
    base.update(kw)
    return L.ChannelPlan(**base)


@pytest.mark.parametrize("tid,sub,j", [(0, 0, 0), (5, 1, 1), (255, 0, 1), (63, 1, 0)])
def test_the_address_program_folds_as_numpy_computes(tid, sub, j):
    """Given Python ints, the IR form folds to the numbers the numpy form computes."""
    plan = _plan(ref_x=72)
    ir_ops = IrOps(const=None)   # never called: everything folds
    assert L.source_offset(ir_ops, plan, tid, sub, j) == \
        [int(x) for x in L.source_offset(NumpyOps, plan, np.int64(tid), sub, j)]


def _fake(copies, reads=(), buffers=1, threads=256, elem_bytes=2) -> SimpleNamespace:
    return SimpleNamespace(copies=list(copies), reads=list(reads),
                           buffer_views={b: SimpleNamespace(swizzle=None,
                                                            elem_bytes=elem_bytes)
                                         for b in range(buffers)},
                           evaluator=SimpleNamespace(threads=threads),
                           scan=SimpleNamespace(threads=threads),
                           ops=[SimpleNamespace(attributes={}) for _ in range(8)])


def _copy(op, buffer, first, width=8, source=0, threads=256):
    lds = first + np.arange(threads * width).reshape(threads, width)
    return LM.Copy(op, buffer, lds, source, lds + 10_000, lds + 10_032)


@pytest.mark.parametrize("copies,sizes,message", [
    ([_copy(0, 0, 0), _copy(1, 1, 0)], {0: 4096, 1: 4096}, "data is in 2 LDS buffers"),
    ([_copy(0, 0, 0), _copy(1, 0, 2048, width=4)], {0: 4096},
     "copies move different numbers of elements per lane"),
    # 2-byte copies: no copy of 16 or 4 bytes per lane fills half the 768 elements (the
    # kernel's 2 bytes are no direct-to-LDS size: copy_width does not try them), nor do
    # register-staged ones of 2 bytes (384 elements over 256 lanes: staged_width)
    ([_copy(k, 0, 256 * k, width=1) for k in range(3)], {0: 768},
     "half of its 768-element tile is not a whole number of copies of 256 threads x 16, "
     "4, 2 or 1 bytes (2 and 1 register-staged)"),
    ([_copy(0, 0, 0), _copy(1, 0, 2048, source=1)], {0: 4096}, "read 2 global buffers"),
    ([_copy(0, 0, 0)], {0: 8192}, "do not fill its LDS buffer (6144 elements stay"),
])
def test_a_channel_whose_copies_cannot_be_redistributed(copies, sizes, message):
    an = _fake(copies, buffers=len(sizes))
    with pytest.raises(LM.LoopRefusal, match=re.escape(message)):
        L._plan_channel(an, 0, [], [0] * len(copies), sizes, str)


def test_the_plan_is_checked_against_the_kernels_copies():
    """A plan whose program would copy other elements than the kernel's copies hold is
    refused (the numpy run of the address program is the check)."""
    copies = [_copy(0, 0, 0), _copy(1, 0, 2048)]
    an = _fake(copies)
    table = L._global_table(an, [0, 1], 4096, "A")
    plan = _plan(bit=11, copies=1, swizzle=None, digits=((1, 4096, 1),), dims=(1,))
    base = int(copies[0].src0[0, 0])
    L._check_plan(an, plan, table, base)       # the identity block: right
    wrong = _plan(bit=11, copies=1, swizzle=None, digits=((1, 64, 1), (64, 64, 65)),
                  dims=(1,))
    with pytest.raises(LM.LoopRefusal, match="would not read what the kernel's copies read"):
        L._check_plan(an, wrong, table, base)
    with pytest.raises(LM.LoopRefusal, match="would not read what the kernel's copies read"):
        L._check_plan(an, plan, table, base + 8)   # the block one chunk further


@pytest.mark.parametrize("width,half,elem_bytes,want", [
    (8, 2048, 2, 8),     # the kernel's 16-byte copies fill a subtile
    (8, 1024, 2, 2),     # half a 16-byte copy: 4-byte copies (IREE's 1000^3 B tile)
    (2, 512, 2, 2),      # the kernel's 4-byte copies
    (2, 2048, 2, 2),     # the kernel's own first, though 16-byte copies would fill it too
    (16, 4096, 1, 16),   # i8 / fp8: 16 bytes
    (16, 1024, 1, 4),    # ... or 4
    (1, 384, 2, None),   # nothing fills 384 elements over 256 lanes
    (1, 512, 2, 2),      # the kernel's 2-byte copies (regcopy's NARROW) fill it, but are
                         # no direct-to-LDS size: 4-byte copies
])
def test_copy_width_the_kernels_else_the_widest_dma_that_fills_a_subtile(width, half,
                                                                         elem_bytes, want):
    assert CW.copy_width(width, half, 256, elem_bytes) == want


@pytest.mark.parametrize("half,elem_bytes,want", [
    (512, 1, 2),      # IREE's fp8 A x B^T 31x64x96: A's halves of 512 bytes, 2 bytes a lane
    (256, 1, 1),      # ... a quarter of it: a byte a lane
    (1536, 1, 2),     # 3 copies of 2 bytes (no 4-byte copy fills 1536 bytes over 256 lanes)
    (256, 2, 1),      # one 2-byte element a lane; no 1-byte piece of a 2-byte element
    (384, 2, None),   # 1.5 elements a lane
    (128, 1, None),   # fewer elements than lanes: copies by some of the threads, not built
])
def test_staged_width_fills_a_subtile_too_small_for_dma_with_every_lane(half, elem_bytes,
                                                                        want):
    """A subtile no direct-to-LDS copy of every thread fills is copied through registers, 2
    or 1 bytes a lane, every lane copying (every wave issues each copy: the waits count the
    same in each); what neither fills is refused (``channel_width``)."""
    assert CW.copy_width(1, half, 256, elem_bytes) is None or want is None
    assert CW.staged_width(half, 256, elem_bytes) == want
    assert want is None or CW.is_staged(want, elem_bytes)


@pytest.mark.parametrize("half,threads,elem_bytes,want", [
    (64, 128, 4, 1),      # f32: a 64-element subtile over 128 threads, padded to 128
    (192, 128, 4, 1),     # ... 192 over 128: 2 copies, padded to 256
    (256, 128, 4, None),  # ... whole copies fill it: no padding
    (64, 128, 2, None),   # a 2-byte element: the staged 2- and 1-byte copies are its way
    (64, 128, 8, None),   # an 8-byte element (no such MFMA operand): not padded
])
def test_padded_width_only_for_4_byte_elements_and_only_when_allowed(half, threads,
                                                                    elem_bytes, want):
    """An f32 is not cut into narrower pieces: a subtile no whole number of copies of every
    thread fills gets one element a lane and a padding (``padded``), but only within
    ``padding_allowed`` (the loop's last way, frontend/natural.py)."""
    assert CW.padded_width(half, threads, elem_bytes) is None
    with CW.padding_allowed():
        assert CW.padded_width(half, threads, elem_bytes) == want
        assert want is None or CW.padded(half, threads, want)
    assert CW.padded_width(half, threads, elem_bytes) is None


@pytest.mark.parametrize("bit,kbits,width,want", [
    # bf16 A^T x B^T 300x200x160, B (N x K) split along K crosswise on bit 2: K 0 to 3 in
    # subtile 0, so runs of 4 elements at most: the kernel's 8 would read K 0-3 and 8-11
    # (refused before: "the front end's copies would not read what the kernel's copies
    # read"); 4 elements are 8 bytes, no direct-to-LDS size: 4-byte copies
    (2, (), 8, 2),
    (6, (), 8, 8),       # a split on a row bit above the run: the kernel's width
    (6, (3,), 8, 8),     # a K sub-step's bit (ksplit.py) cuts runs of more than 8
    (6, (2,), 8, 2),
    (0, (), 8, None),    # runs of one element: no direct-to-LDS copy is 2 bytes
])
def test_copy_width_keeps_a_run_inside_the_split(bit, kbits, width, want):
    most = CW.run_limit(bit, kbits)
    assert CW.copy_width(width, 512, 64, 2, most) == want


# ---- refusals at the IR level ----------------------------------------------------------------

def _k_moves_twice(text: str) -> str:
    """Copy 1 moves two K tiles per iteration, copy 0 one."""
    return text.replace("%gk1 = arith.addi %kt, %gcol1 : index",
                        "%kt2 = arith.addi %kt, %kt : index\n"
                        "        %gk1 = arith.addi %kt2, %gcol1 : index")


def _b_rows_follow_twice(text: str) -> str:
    """B's copy 1 takes the workgroup's row offset twice: the two copies move apart from
    one workgroup to another."""
    return text.replace("%gbrow1 = arith.addi %row0b, %trow1 : index",
                        "%row0b2 = arith.addi %row0b, %row0b : index\n"
                        "      %gbrow1 = arith.addi %row0b2, %trow1 : index")


def _dynamic_rows(text: str) -> str:
    """A and B of a dynamic number of rows and a row stride known only at launch (the new
    copies index the buffer itself; a dynamic first dimension alone is taken, and a row
    stride proven aligned: test_dynamic_shapes.py)."""
    return text.replace("memref<4096x4096xbf16, #gpu.address_space<global>>",
                        "memref<?x?xbf16, #gpu.address_space<global>>")


@pytest.mark.parametrize("mutate,message", [
    (_k_moves_twice, "channel A's copies move by different amounts from one K step to "
                     "the next"),
    (_b_rows_follow_twice, "channel B's copies do not move as one block from one "
                           "workgroup to another"),
    # (a row stride known at launch is taken when proven to keep the copies aligned:
    # frontend/launch_stride.py; a function argument's size carries no such fact)
    (_dynamic_rows, "channel A: the row stride of memref<?x?xbf16, #gpu.address_space<"
                    "global>> is known only at launch and proven a multiple of 1 element(s) "
                    "of 2 bytes only"),
])
def test_redistribution_refusals_are_located(capsys, tmp_path, mutate, message):
    text = kernel_text(layout="kcols")
    changed = mutate(text)
    assert changed != text
    rc, out, err = run_text(capsys, tmp_path, changed, "--pipeline=4wave")
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert "nor can the front end distribute the copies itself: " + message in err, err
    line = int(err.split(":")[1])
    assert "vector.load" in changed.splitlines()[line - 1]



def test_a_split_no_copy_fits_under_is_refused_at_the_copy(capsys, tmp_path, monkeypatch):
    """Where the bit that tells the subtiles apart cuts a lane's run below every
    direct-to-LDS size (no IREE kernel seen does: bf16 ``A^T x B^T`` 300x200x160's B is cut
    at 4 elements, which 4-byte copies fill), the front end's copies are refused at the
    kernel's copy, naming the run limit, not built of runs the kernel never reads (the
    limit forced to one element here)."""
    monkeypatch.setattr(L, "run_limit", lambda bit, kbits: 1)
    text = kernel_text(layout="kcols")
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert "nor can the front end distribute the copies itself: channel A: its subtiles, " \
        "split on element bit " in err and "hold runs of at most 1 elements of its " \
        "buffer" in err, err
    line = int(err.split(":")[1])
    assert "vector.load" in text.splitlines()[line - 1]

def _reads(rows_apart: int) -> list:
    """One 16-byte read per lane of 4 waves, lane l at row l (rows ``rows_apart`` bf16
    elements apart)."""
    t = np.arange(256)
    return [LM.Read(0, 0, ((t % 64) * rows_apart)[:, None] + np.arange(8)[None, :])]


def test_a_conflicted_layout_gets_a_swizzle_from_the_bank_model():
    """Lanes reading rows of 256 bytes all hit the same banks: the bank model prices the
    kernel's layout 16-way conflicted and an XOR swizzle of 16-byte chunks makes it
    conflict-free; a layout that is conflict-free already is kept."""
    an = _fake([], _reads(128))
    swizzle, worded = L._choose_swizzle(an, [0], 14, 8192, 8, 2)
    assert swizzle is not None and swizzle[1] == 8 and worded == "conflict-free"
    cost = L._read_cost(an, [0], 14, 2)
    assert cost[0] > cost[1] and cost[2].startswith("16x the conflict-free")
    assert L._read_cost(an, [0], 14, 2, swizzle)[:2] == (cost[1], cost[1])
    assert L._choose_swizzle(_fake([], _reads(8)), [0], 14, 8192, 8, 2) == \
        (None, "conflict-free")
