"""The one check that the front end's copies read what the kernel's copies read.

The pipelined kernel's copies read global memory with their offset split into parts (per
lane, per wave, per K step: ``sched-buffer-soffset`` moves the K column into the scalar
offset), and a buffer load's range check may see only some of them (LLVM documents
``soffset`` as excluded from it; ``sched-buffer-soffset`` keeps a split whose verdict could
change in ``voffset``): a read out of the buffer, which the unpipelined kernel's range check
turns into zeros, would not stay one.
And where the front end distributes a channel's copies itself
(:mod:`pipeline_mlir.frontend.layout`), its copies read one strided block per workgroup,
the block the kernel's copies read in workgroup 0 moved by what the reference copy's
thread 0 reads elsewhere.

:func:`check_copy_reads` evaluates the kernel's copies at every :func:`sample_points`
point (workgroup ids 0, the sample's, its next and the last of every static bound of the
grid: ``scf.forall`` bounds, workgroup-id upper bounds; the loop's first K step and, when
the trip count is a constant, its last) and requires at each

* no element before the start of the buffer;
* in workgroup 0, the one the layout is read from, no element past its end
  (:func:`check_in_global`), but for whole runs of a lane past the end of a fat buffer
  range-checked by its own static shape (:func:`zero_end`), which read zero in the kernel
  and in the front end's copies alike: IREE's kernels whose only tile along N or M crosses
  C's edge point the rows past it there in every workgroup, 0 included;
* for a channel the front end distributes (``channel``), every LDS element to get from
  the kernel's copies the global element the front end's copies would read, or both to
  lie out of the buffer (both read zero).  A workgroup at the edge of C may point whole
  rows past the end (IREE's kernels for sizes their tiles do not divide: an
  ``arith.select`` of an index past the end), which every split keeps out of range.  An
  element both read where a read is harmless (inside the buffer, or past its end within
  the reach of :func:`zero_end`: zeros) is spared where the point is a workgroup of a static
  grid and no stored element of C is computed from it there
  (:func:`~pipeline_mlir.frontend.unused_spare.spare_sampled`, the proof every workgroup's
  comparison uses: IREE's late form of a batch clamps A's rows past M to row M, the next
  batch's, where the front end's copies read rows M, M+1, ...; IREE's prefetch point and
  late form of a batch point them past the buffer's end, where the front end's copies read
  the next batch's first rows).

The kernel's own copies, which the rewrite keeps, read what they read (their index is
cloned): the first two rules are all they need, and
:func:`~pipeline_mlir.frontend.every_read.check_every_read` checks them at every K step
of a constant trip count and every workgroup of a static grid (a grid known only at launch
keeps these samples).  A refusal of the first two is an
:class:`~pipeline_mlir.dialect.ir_io.IRError` at the copy; of the third, a
:class:`~pipeline_mlir.kernel.loop_model.LoopRefusal` (the kernel's copies stay unusable).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_changes import forget_on_change
from pipeline_mlir.analysis.ir_facts import WORKGROUP_ID_OPS, workgroup_id_bound
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.locations import op_name
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.lane_ops import SAMPLE_WORKGROUP
from pipeline_mlir.frontend.extent import declared_extent
from pipeline_mlir.frontend.kernel_ir import zero_end


class Channel(NamedTuple):
    """A channel the front end distributes: ``copies`` (indices of the kernel's copies),
    ``lds`` (per copy, the LDS elements of each lane), ``table`` (workgroup 0's global
    element per LDS element at the first K step), ``ref``/``base0`` (the reference copy and
    the element its thread 0 reads there), ``elements`` (of the global buffer), ``label``,
    ``op`` (where a refusal is located)."""

    copies: list
    lds: list
    table: np.ndarray
    ref: int
    base0: int
    elements: int | None
    label: str
    op: object


def sample_ids(scan) -> list[int]:
    """Workgroup-id values to evaluate the copies at (every id takes the value): 0, the
    sample, its next and the last value of every static bound of the grid."""
    bounds = set()
    kernel = _op(scan.kernel)      # (its nested ops of those names, in one walk of the IR)
    for op in walk_ops(kernel, lambda o: o.name == "scf.forall" or o.name in WORKGROUP_ID_OPS):
        if op == kernel:
            continue
        if op.name == "scf.forall" and "staticUpperBound" in op.attributes:
            bounds |= {b for b in ir.DenseI64ArrayAttr(op.attributes["staticUpperBound"])
                       if b > 0}
        elif op.name in WORKGROUP_ID_OPS and workgroup_id_bound(op) is not None:
            bounds.add(workgroup_id_bound(op))
    return sorted({0, SAMPLE_WORKGROUP, SAMPLE_WORKGROUP + 1} | {b - 1 for b in bounds})


def sample_points(scan, lb: int, step: int, trips: int | None) -> list[tuple[int, int, str]]:
    """(workgroup id, induction variable, "first" or "last") of each point the copies are
    checked at: every :func:`sample_ids` workgroup at the loop's first K step and, with a
    constant trip count of at least 2, its last."""
    steps = [(lb, "first")]
    if trips is not None and trips > 1:
        steps.append((lb + (trips - 1) * step, "last"))
    return [(w, iv, when) for w in sample_ids(scan) for iv, when in steps]


def check_in_global(op, elements: np.ndarray, size: int | None, workgroup: int,
                    when: str = "first", zero: tuple[int, int] | None = None) -> None:
    """The global elements a copy reads (relative to its buffer of ``size`` elements,
    None: not known; per lane a row of its run) in workgroup id ``workgroup`` at the loop's
    ``when`` K step: none before the buffer; in workgroup 0 none past its end, unless
    ``zero`` (:func:`zero_end`) says ``size`` and each lane's run lies inside or wholly past
    it, within a buffer load's 32-bit offset (module docstring)."""
    lo, hi = int(elements.min()), int(elements.max())
    past = None if size is None else elements >= size
    if past is not None and zero is not None and zero[0] == size and hi < zero[1] and \
            np.array_equal(past.all(axis=-1), past.any(axis=-1)):
        past = None                     # whole runs past the end: zeros (module docstring)
    if lo < 0 or (workgroup == 0 and past is not None and hi >= size):
        raise IRError(op, f"'{op_name(op)}' op reads global memory outside its buffer in the "
                          f"loop's {when} iteration (element {lo if lo < 0 else hi} of "
                          f"{size if size is not None else 'a buffer'}); the pipeliner needs "
                          f"the copies' reads in bounds (every workgroup id {workgroup})")


def past_end_note(table: np.ndarray, end: int | None) -> str:
    """How many of the global elements ``table`` (workgroup 0's, of a channel whose layout
    is no strided block) lie past its buffer's ``end`` (None: not known), as a note to the
    refusal; empty if none."""
    if end is None or table.max() < end:
        return ""
    return (f" (in workgroup 0, {int(np.sum(table >= end))} of them lie past the end of its "
            f"{end} elements, where a read gives zero: rows of a tile C's edge cuts, pointed "
            f"past the end, are no part of a strided block with the others)")


def copy_evaluator(scan) -> Evaluator:
    """A new evaluator of ``scan``'s kernel for :func:`read_copies` (errors at its loop)."""
    ev = Evaluator(scan.block)
    ev.where = scan.loop
    return ev


class _Reads(dict):
    """What :func:`read_copies` evaluated within :func:`shared_reads`, by copy and point:
    forgotten at every change of the IR an evaluator is told of (told itself)."""

    def forget_ops(self, _ops) -> None:
        self.clear()

    forget_uses = forget_attributes = forget_all = forget_ops


#: the tables of the :func:`shared_reads` scopes entered
_SHARED_READS: list[_Reads] = []


@contextmanager
def shared_reads():
    """Within it, a copy's reads at a point (:func:`read_copies`) are evaluated once while
    the IR stays as it is: the address analysis checks every copy at the sampled points,
    and each channel's proof checks its copies at the same points again."""
    table = _Reads()
    forget_on_change(table)
    _SHARED_READS.append(table)
    try:
        yield
    finally:
        _SHARED_READS.pop()


def _plain(ev: Evaluator, scan, iv) -> bool:
    """``ev`` is a :func:`copy_evaluator` of ``scan`` with nothing bound but ``iv`` (what
    it evaluates is what any such evaluator would)."""
    return type(ev) is Evaluator and ev.launch_values and not ev.thread_only and \
        ev.block_size == tuple(scan.block) and all(k == iv for k in ev.bound)


def read_copies(scan, copies: list, wid: int, iv: int,
                ev: Evaluator | None = None) -> list[tuple[np.ndarray, int | None]]:
    """(the global elements each thread reads, the buffer's elements or None) of each copy
    of ``copies`` (indices into ``scan.copies``) with every workgroup id ``wid`` and the
    loop's induction variable ``iv``; ``ev``: an evaluator of ``scan``'s kernel to reuse
    (it keeps what reads neither: :meth:`~pipeline_mlir.analysis.loop_eval.Evaluator.
    set_workgroup`), else a new one.  Within :func:`shared_reads`, taken from what an
    evaluator like ``ev`` evaluated at the point since the IR last changed (read-only)."""
    ev = copy_evaluator(scan) if ev is None else ev
    ev.set_workgroup(wid)
    var = scan.loop.regions[0].blocks[0].arguments[0]
    ev.bind(var, iv)
    table = _SHARED_READS[-1] if _SHARED_READS and _plain(ev, scan, var) else None
    out = []
    for i in copies:
        a = scan.copies[i]
        key = (a.op, a.src, tuple(a.src_indices), a.elements, var, wid, iv, ev.block_size)
        got = None if table is None else table.get(key)
        if got is None:
            v = ev.view(a.src)
            start = v.element([ev.value(x) for x in a.src_indices])
            got = (start[:, None] + np.arange(a.elements)[None, :], declared_extent(ev, a.src))
            if table is not None:
                got[0].flags.writeable = False
                table[key] = got
        out.append(got)
    return out


def table_of(ch: Channel, reads: list) -> tuple[np.ndarray, int]:
    """(the global element each LDS element of the channel gets from ``reads``, the kernel's
    copies' reads in :func:`read_copies` order; -1 where no copy writes, the element thread 0 of
    the reference copy reads)."""
    table = np.full(len(ch.table), -1, dtype=np.int64)
    base = 0
    for i, lds, (el, _size) in zip(ch.copies, ch.lds, reads):
        table[lds.ravel()] = el.ravel()
        if i == ch.ref:
            base = int(el[0, 0])
    return table, base


def check_copy_reads(scan, points: list, copies: list | None = None,
                     channel: Channel | None = None, ev: Evaluator | None = None,
                     spare=None) -> None:
    """The kernel's copies ``copies`` (indices into ``scan.copies``; None: all) checked at
    every point of ``points`` (:func:`sample_points`); with ``channel`` (whose ``copies``
    they are), the front end's copies of it compared with them (module docstring);
    ``ev``: an evaluator of ``scan``'s kernel to reuse (:func:`read_copies`), else a new one;
    ``spare``: what takes out of the LDS elements that differ those proven to feed no
    stored element of C (``spare(differ, both inside, workgroup id)``: :func:`~pipeline_mlir.
    frontend.unused_spare.spare_sampled`), None: nothing spared."""
    copies = list(range(len(scan.copies))) if copies is None else copies
    ev = copy_evaluator(scan) if ev is None else ev   # one for every point: the IR stays
    zeros: dict = {}                    # copy -> its zero_end, read at its first check
    table = _SHARED_READS[-1] if _SHARED_READS else None
    for wid, iv, when in points:
        reads = read_copies(scan, copies, wid, iv, ev)
        for i, (el, size) in zip(copies, reads):
            if i not in zeros:
                zeros[i] = zero_end(scan.copies[i].src, ev)
            # (reads shared by read_copies, checked alike before: passed; the entry holds
            # them, so their id names them while it lasts)
            passed = ("passed", id(el), size, wid, zeros[i])
            if table is None or passed not in table:
                check_in_global(scan.copies[i].op, el, size, wid, when, zeros[i])
                if table is not None and not el.flags.writeable:
                    table[passed] = el
        if channel is not None:
            _compare(channel, reads, wid, when, spare,
                     {zeros.get(i, ()) for i in channel.copies})


def _compare(ch: Channel, reads: list, wid: int, when: str, spare=None,
             zeros: set = frozenset()) -> None:
    got, base = table_of(ch, reads)
    want = ch.table + (base - ch.base0)
    # a buffer of dynamic shape (``elements`` None): only elements before its start are out
    end = ch.elements if ch.elements is not None else np.iinfo(np.int64).max
    outside = [(x < 0) | (x >= end) for x in (got, want)]
    differ = (got != want) & ~(outside[0] & outside[1])
    if spare is not None:           # (harmless on both sides: proven unused)
        zero = next(iter(zeros)) if len(zeros) == 1 else None   # (the copies' zero_end)
        reach = zero[1] if zero and zero[0] == ch.elements else end
        harmless = [(x >= 0) & (x < reach) for x in (got, want)]
        differ = spare(differ, harmless[0] & harmless[1], wid)
    bad = np.flatnonzero(differ)
    if len(bad):
        x = int(bad[0])
        where = (f"elements past the buffer's {ch.elements}" if ch.elements is not None else
                 "elements before the buffer's start")
        raise LM.LoopRefusal(
            f"channel {ch.label}'s copies do not move as one block from one workgroup to "
            f"another: with every workgroup id {wid} at the loop's {when} K step, LDS element "
            f"{x} gets global element {int(got[x])}, where workgroup 0's block moved gives "
            f"{int(want[x])} ({where} only where both are)",
            (ch.op,))
