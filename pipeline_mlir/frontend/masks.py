"""A masked last K tile: peeled into the remainder loop, the masks dropped before it.

A mask or select whose condition also depends on the workgroup (C's edge) is kept in its
copy first (:func:`~pipeline_mlir.frontend.kept_masks.keep_moving_masks`); what is left is
peeled or proven here.

When K is not a multiple of the K step, IREE masks its global loads by how much of the
tile is left (at its prefetch point, a ``vector.transfer_read`` whose mask is a
``vector.create_mask`` of sizes computed from the loop variable and the thread; in the
late form of its dynamic-K kernel, a ``vector.maskedload`` of an LDS row, which becomes a
``vector.load`` where the mask is proven full).  Only the
last K tile is partial, so :func:`peel_masked_tail` cuts the loop
(:func:`~pipeline_mlir.frontend.tails.split_tail`) so that the remainder loop runs the last
iteration (the last two when the rest would be odd) with the masks as written, and proves
that every mask is full in every iteration the pipelined loop keeps: each mask size is
evaluated for every thread of the workgroup at every value of the loop variable (the
per-lane evaluator), and must depend on nothing else (no workgroup id, no launch value),
so the evaluation covers every workgroup.  With a trip count known only at run time, the
masks are proven full for every K by :mod:`~pipeline_mlir.frontend.dynamic_masks` instead,
and the remainder loop runs the last iteration at least after the guarded pipelined loop.
A mask size that also sizes an LDS tile in the loop and whose constant bound
is the mask's dimension (IREE's dynamic-K kernel: the K left, at most one K step) is that
constant in the loop to pipeline (:func:`~pipeline_mlir.frontend.lds_bounds.pin_full_sizes`).
The masked reads of the loop to pipeline are
then plain reads; what follows takes them as any other copy.  A mask that is partial in
an iteration the pipelined loop would keep, or that the evaluation cannot cover, is an
error at the read.

In IREE's late form the masked read is a *guarded load* (:func:`guarded_loads`): an
``scf.if`` on a buffer-end condition (which depends on the workgroup) whose one branch
yields a ``vector.maskedload`` and the other a ``vector.load`` of the same elements
selected by the same mask.  Once the mask is proven full (as above), both branches yield
the plain load, whatever the condition, so the ``scf.if`` becomes that ``vector.load`` in
the loop to pipeline; the remainder loop keeps it as written.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import (block_size, constant_trips,
                                             memory_space, segments)
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.frontend.guarded_load import guard_parts
from pipeline_mlir.frontend.dynamic_masks import foreign_source, prove_full, source_text
from pipeline_mlir.frontend.copy_source import dim_indices
from pipeline_mlir.frontend.constant_masks import select_note
from pipeline_mlir.frontend.cut_runs import fold_k_parts, k_parts, mark_cut_runs
from pipeline_mlir.frontend.marks import CUT, is_whole_remainder
from pipeline_mlir.frontend.cut_runs import run_mask_only
from pipeline_mlir.frontend.edge_version import version_edges
from pipeline_mlir.frontend.loop_choices import last_is_tail, settle_choices
from pipeline_mlir.frontend.kernel_ir import depends, describe, kernel_of, replace_masked_read
from pipeline_mlir.frontend.kept_masks import (drop_mask, keep_moving_masks,
                                               whole_run_refusal)
from pipeline_mlir.frontend.kept_tail import keep_tail_in_pair, refused_before
from pipeline_mlir.frontend.launch_stride import stride_divisors
from pipeline_mlir.frontend.lds_bounds import pin_full_sizes
from pipeline_mlir.frontend.padded_reads import keep_padded_reads
from pipeline_mlir.frontend.select_masks import (check_kept, check_static, drop_thread_identities,
                                                 selected_loads, unselect)
from pipeline_mlir.frontend.tails import PAIR, check_step, cut_back, split_tail



def masked_reads(loop) -> list:
    """The ``vector.transfer_read`` ops directly in ``loop``'s body that have a mask (but
    a run cut at C's edge, :data:`~pipeline_mlir.frontend.cut_runs.CUT`, copied in pieces),
    and its ``vector.maskedload`` ops (IREE's late form reads its LDS tiles so)."""
    out = []
    for o in loop.regions[0].blocks[0].operations:
        o = _op(o)
        if o.name == "vector.transfer_read" and CUT not in o.attributes:
            g = segments(o)
            if len(g) > 3 and g[3]:
                out.append(o)
        elif o.name == "vector.maskedload":
            out.append(o)
    return out


def _mask_of(read):
    """The mask value of masked read ``read`` (a masked ``vector.transfer_read``, a
    ``vector.maskedload`` or a guarded load)."""
    if read.name == "scf.if":
        return guard_parts(read)[0]
    if read.name == "vector.maskedload":
        return read.operands[len(read.operands) - 2]
    return segments(read)[3][0]


def guarded_loads(loop) -> list:
    """The ``scf.if`` ops directly in ``loop``'s body that guard a masked load (module
    docstring): one vector result; the then-branch yields a ``vector.maskedload`` with
    mask ``M`` and pass-through ``P``, the else-branch ``arith.select M, L, P`` of a
    ``vector.load`` ``L`` of the same memref and indices.  Other ``scf.if`` ops are left
    for the scan to refuse."""
    return [o for o in map(_op, loop.regions[0].blocks[0].operations)
            if o.name == "scf.if" and guard_parts(o) is not None]


def peel_masked_tail(loop, whole_steps: bool = False) -> object | None:
    """Peel ``loop``'s masked last K tile into a remainder loop and drop the masks of the
    loop that stays (module docstring); nothing when no read of ``loop`` is masked.
    ``whole_steps``: :func:`~pipeline_mlir.frontend.tails.split_tail`'s; when the K
    steps it keeps before the masked one are odd and a mask of theirs is not full (a K
    left that ends before the loop's last tile), the cut moves back to the pairs'
    (:func:`~pipeline_mlir.frontend.tails.cut_back`) and the masks are checked again.
    Returns the remainder loop, if one was cut."""
    mark_cut_runs(loop)
    keep_moving_masks(loop)
    drop_thread_identities(loop)    # (no K tail's: folded away in the late form)
    keep_padded_reads(loop)
    versioned = version_edges(loop, lambda r: _plain_load(r) if r.name == "vector.maskedload"
                              else drop_mask(r, kept=False), _k_tail, _interior_k_masks)
    if versioned is not None:   # (the edge workgroups' loop: the remainder, as written)
        return versioned
    reads = masked_reads(loop) + guarded_loads(loop)
    selects = selected_loads(loop)
    cuts = _cut_k_reads(loop)
    if not reads and not selects and not cuts:
        return None
    iv, ev = _evaluator(loop)
    dynamic = constant_trips(loop) is None
    if dynamic:   # proven for every K before the cut, from the loop's own upper bound
        check_step(loop)
        check_static(selects)
        _static_cuts(cuts)
        prove_full(loop, {r: _mask_sizes(r, iv, checked=False) for r in reads}, ev)
    why = refused_before(loop)
    if why is None and not dynamic and constant_trips(loop) == PAIR:   # (no pair once peeled)
        why = keep_tail_in_pair(loop, reads, selects, cuts, iv, ev)
        if why is None:
            return None     # (the masks kept in the copies: the tail stays in the pair)
    rem = split_tail(loop, peel_last=True, whole_steps=whole_steps, why=why)
    if rem is None or is_whole_remainder(loop):
        for r in cuts:
            fold_k_parts(r)
        return None  # (no pair left: the whole loop runs as written, masks included)
    for r in _cut_k_reads(rem):
        fold_k_parts(r)
    if not dynamic:
        try:
            _check_kept(loop, reads, cuts, selects, iv, ev)
        except IRError:
            if not whole_steps or constant_trips(loop) % PAIR == 0:
                raise
            cut_back(loop, rem)     # (the pairs' cut: the odd step's masks run in rem)
            _check_kept(loop, reads, cuts, selects, iv, ev)
    for r in cuts:
        run_mask_only(r)
    _drop_masks(loop, reads, selects, iv)
    return rem


def _check_kept(loop, reads: list, cuts: list, selects: list, iv, ev) -> None:
    """The masks of ``reads``, ``cuts`` and ``selects`` full in every iteration ``loop``
    (constant bounds) keeps, by evaluation; refused at the read otherwise."""
    _evaluate_kept(loop, reads, iv, ev)
    _evaluate_cut_k(loop, cuts, iv, ev)
    check_kept(loop, selects, iv, ev)


def _evaluator(loop) -> tuple:
    """(``loop``'s variable, an evaluator of its body for every thread of the workgroup)."""
    ev = Evaluator(block_size(kernel_of(loop)))
    ev.where = loop
    return loop.regions[0].blocks[0].arguments[0], ev


def _drop_masks(loop, reads: list, selects: list, iv) -> None:
    """The masks of ``reads`` and the selects ``selects`` of ``loop``, proven full (the
    identity) wherever it runs, dropped."""
    pin_full_sizes(loop, {r: _mask_sizes(r, iv, checked=False) for r in reads})
    for r in reads:
        if r.name == "scf.if":
            _unguard(r)
        elif r.name == "vector.maskedload":
            _plain_load(r)
        else:
            drop_mask(r, kept=False)
    for s in selects:
        unselect(s)


def _k_masked(loop) -> list:
    """The masked reads of ``loop``'s body whose mask is the K left alone (computed from
    the loop variable, the threads and constants: the same in every workgroup)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    out = []
    for r in masked_reads(loop) + guarded_loads(loop):
        m = _mask_of(r).owner
        if not isinstance(m, ir.Block) and _op(m).name == "vector.create_mask" and \
                all(foreign_source(v, {iv}) is None for v in _op(m).operands):
            out.append(r)
    return out


def _k_tail(loop, iterations) -> bool:
    """Whether the last of ``iterations`` is a partial K tile of a loop about to be
    versioned on the workgroup's tile: a clamp of it settles only before it
    (:func:`~pipeline_mlir.frontend.loop_choices.last_is_tail`), or a mask of the K left
    is short in it."""
    iterations = list(iterations)
    if last_is_tail(loop, iterations):
        return True
    reads = _k_masked(loop)
    if not reads or not iterations:
        return False
    iv, ev = _evaluator(loop)
    ev.bind(iv, iterations[-1])
    for r in reads:
        dims, vals = _mask_sizes(r, iv, checked=False)
        if any(np.any(ev.value(v) < d) for d, v in zip(dims, vals)):
            return True
    return False


def _interior_k_masks(loop, iterations) -> None:
    """The loop to pipeline of a loop versioned on the workgroup's tile, which runs
    ``iterations``: its K clamps settled, and the masks of the K left its reads and selects
    still hold (the edge masks dropped already) proven full at every one of them and
    dropped, as for a loop of constant bounds (an :class:`IRError` at the read where one
    is short)."""
    settle_choices(loop, iterations)
    reads, selects = _k_masked(loop), selected_loads(loop)
    if not reads and not selects:
        return
    iv, ev = _evaluator(loop)
    _evaluate_kept(loop, reads, iv, ev, iterations)
    check_kept(loop, selects, iv, ev, iterations)
    _drop_masks(loop, reads, selects, iv)


def _evaluate_kept(loop, reads: list, iv, ev, iterations=None) -> None:
    """Every mask of ``reads`` full for every thread in every iteration of ``loop`` (the
    pipelined loop, constant bounds; or the values ``iterations``), by evaluation."""
    if iterations is None:
        lb, ub, step = (ev.uniform(loop.operands[i]) for i in range(3))
        iterations = range(lb, ub, step)
    sizes = {r: _mask_sizes(r, iv) for r in reads}
    for k in iterations:
        ev.bind(iv, k)
        for r, (dims, vals) in sizes.items():
            for d, v in zip(dims, vals):
                short = ev.value(v) < d
                if np.any(short):
                    t = int(np.flatnonzero(short)[0])
                    size = int(ev.value(v)[t])
                    raise IRError(r, f"{describe(r)} is masked to {size} of {d} "
                                     f"elements in thread {t} in iteration {k}, which the "
                                     f"pipelined loop runs; the front end peels a mask of "
                                     f"the last K tile only"
                                     f"{_fixed_note(loop, r, v, iv, size)}")


def _fixed_note(loop, read, v, iv, size: int) -> str:
    """Why a mask size ``v`` of ``read``, of the threads and constants alone, short in the
    pipelined loop (``size`` in the thread refused), is no K tail's, as a note to the
    refusal; empty if it depends on ``iv``."""
    if depends(v, {iv}):
        return ""
    kept = whole_run_refusal(loop, read) if size == 0 else None
    why = ("; here the lane's run is masked to none of its elements, which cuts no run "
           "inside, and the front end keeps a mask of the whole run or nothing in its copy "
           "(frontend/kept_masks.py) only where it is one i1 per run and meets what a kept "
           "mask needs" + (f"; this one does not: {'it ' if kept.startswith(('needs', 're')) else ''}"
                           f"{kept}" if kept else "")
           ) if size == 0 else ""
    return (" (this mask does not move with K, so it is no K tail's: a run C's edge cuts "
            "inside the one tile along M or N is such a mask, which the front end copies in "
            "pieces, frontend/cut_runs.py, only along the contiguous dimension of a global "
            f"buffer of two or more dimensions whose size it evaluates over the whole grid{why})")


def _cut_k_reads(loop) -> list:
    """The reads directly in ``loop``'s body whose run C's edge cuts
    (:data:`~pipeline_mlir.frontend.cut_runs.CUT`) and whose mask also holds the K rows
    left (:func:`~pipeline_mlir.frontend.cut_runs.k_parts`)."""
    return [o for o in map(_op, loop.regions[0].blocks[0].operations)
            if CUT in o.attributes and k_parts(o)]


def _static_cuts(cuts: list) -> None:
    if cuts:
        raise IRError(cuts[0], f"{describe(cuts[0])} masks a run cut at C's edge and the K "
                               f"rows left at once; the front end peels that K part only "
                               f"from a loop of constant bounds, not one whose trip count is "
                               f"known only at run time")


def _evaluate_cut_k(loop, cuts: list, iv, ev) -> None:
    """The K part of every mask of ``cuts`` full for every thread in every iteration of
    ``loop`` (the pipelined loop, constant bounds), by evaluation."""
    lb, ub, step = (ev.uniform(loop.operands[i]) for i in range(3))
    for r in cuts:
        for v, _ in k_parts(r):
            _check_sources(r, v, iv)
    for k in range(lb, ub, step):
        ev.bind(iv, k)
        for r in cuts:
            for v, least in k_parts(r):
                short = np.asarray(ev.value(v)).astype(np.int64) < least
                if np.any(short):
                    t = int(np.flatnonzero(short)[0])
                    raise IRError(r, f"{describe(r)} masks the K rows left to "
                                     f"{int(np.asarray(ev.value(v))[t])} (of {least}) in "
                                     f"thread {t} in iteration {k}, which the pipelined loop "
                                     f"runs; the front end peels a mask of the last K tile "
                                     f"only")


def _mask_sizes(read, iv, checked: bool = True) -> tuple[list, list]:
    """(the vector's dimensions, the mask's size values) of masked read ``read``, whose
    mask is a ``vector.create_mask`` of values that depend only on ``iv``, threads and
    constants (``checked``; else :func:`~pipeline_mlir.frontend.dynamic_masks.prove_full`
    checks what they depend on)."""
    m = _mask_of(read).owner
    if isinstance(m, ir.Block) or _op(m).name != "vector.create_mask":
        raise IRError(read, f"{describe(read)} is masked by a value that is not a "
                            f"vector.create_mask; the front end peels masks of the sizes "
                            f"left in the last K tile{select_note(_mask_of(read))}")
    vals = list(_op(m).operands)
    for v in vals if checked else ():
        _check_sources(read, v, iv)
    return list(ir.VectorType(read.results[0].type).shape), vals


#: what a mask that moves with the workgroup is, and what the front end takes of those
_EDGE = ("; a mask that moves with the workgroup cuts C's edge tiles, which the front end "
         "takes only as whole rows past the end of a range-checked buffer (a run masked by "
         "its row: IREE's padded and partial-tile copies), not as elements masked inside a "
         "row, which lie inside the buffer")


def _check_sources(read, v, iv) -> None:
    """``v`` is computed by side-effect-free ops from ``iv``, thread ids and constants."""
    bad = foreign_source(v, {iv})
    if bad is not None:
        what = source_text(bad)
        edge = "workgroup" in what
        raise IRError(read, f"{describe(read)} has a mask whose size depends on {what}, "
                            f"not only on the loop variable, the thread and constants; the "
                            f"front end proves masks full for every workgroup by evaluating "
                            f"them" + (_edge_reason(read, v, iv) if edge else ""))


def _edge_reason(read, v, iv) -> str:
    """What the front end takes of a mask that moves with the workgroup, and, for a size
    ``v`` of ``read``'s mask along its buffer's contiguous dimension, why not that one."""
    inside = _inside_rows(read, v, iv)
    return _EDGE + ("" if inside is None else inside)


def _inside_rows(read, v, iv) -> str | None:
    """Why a mask size ``v`` of ``read`` that moves with the workgroup is not a whole row
    past the end, when it sizes the lane's run along the contiguous dimension of a global
    buffer of rows: the elements it masks lie inside the buffer (this row's or the
    next's), and a run is cut inside unless that dimension's size is proven a multiple of
    the run; a column that does not move with K (``iv``) while the row does is a ``K x M``
    A or ``K x N`` B cut at C's edge, said so.  None for other masks."""
    m = _mask_of(read).owner
    shape = ir.VectorType(read.results[0].type).shape
    if isinstance(m, ir.Block) or _op(m).name != "vector.create_mask" or \
            _op(m).operands[len(shape) - 1] != v or shape[-1] < 2:
        return None
    load = guard_parts(read)[1] if read.name == "scf.if" else read
    src = load.operands[0]
    if not isinstance(src.type, ir.MemRefType):
        return None
    root = view_root(src)
    t = ir.MemRefType(root.type)
    if t.rank < 2 or memory_space(t) not in ("global", "fat_raw_buffer"):
        return None
    d, w = t.rank - 1, shape[-1]
    n = ir.MemRefType(src.type).rank
    moves = dim_indices(_MovesWith(iv), _MovesWith(iv), src, list(load.operands[1:1 + n]),
                        root)
    kxm = moves is not None and not moves[-1] and any(moves[:-1])
    out = (f"; this one sizes the lane's run of {w} elements along dimension {d} of "
           f"{root.type}, its contiguous dimension"
           + (" (rows along K, columns along M or N: a K x M A or K x N B cut at C's edge)"
              if kxm else "") +
           ": the elements it masks lie inside the buffer (in the row or the next), where "
           "no read past a range-checked end zeroes them, so no copy of the whole run made "
           "for every lane reads what the kernel's masked one does")
    if ir.ShapedType.is_dynamic_size(t.shape[d]):
        div = stride_divisors(root)[d - 1]
        if div % w:
            out += ("; that size is known only at launch and "
                    + ("nothing proves it" if div == 1 else f"proven a multiple of {div} only, "
                       "not") + f" a multiple of {w} (util.assume.int's udiv), so a run may "
                    "be cut inside, which a direct-to-LDS or register-staged copy of whole "
                    "runs cannot hold")
    return out


class _MovesWith:
    """:func:`~pipeline_mlir.frontend.copy_source.dim_indices`'s operations on whether an
    index moves with the value ``iv``."""

    def __init__(self, iv) -> None:
        self.iv = iv

    def get(self, v) -> bool:
        return depends(v, {self.iv})

    @staticmethod
    def c(x) -> bool:
        return False

    @staticmethod
    def add(a, b) -> bool:
        return bool(a) or bool(b)

    @staticmethod
    def mul(a, b) -> bool:
        return bool(a) or bool(b)


def _plain_load(read) -> None:
    """``vector.maskedload`` ``read`` as the ``vector.load`` of its elements (its mask
    full in every iteration of its loop)."""
    mask = _mask_of(read)
    with ir.InsertionPoint(read), read.location:
        new = ir.Operation.create("vector.load", results=[read.results[0].type],
                                  operands=list(read.operands)[:-2])
    replace_masked_read(read, new, mask)


def _unguard(guard) -> None:
    """Guarded load ``guard`` replaced by its plain ``vector.load`` (its mask full in every
    iteration of its loop)."""
    mask, load = guard_parts(guard)
    attrs = {a.name: a.attr for a in load.attributes}
    with ir.InsertionPoint(guard), guard.location:
        new = ir.Operation.create("vector.load", results=[load.results[0].type],
                                  operands=list(load.operands), attributes=attrs)
    guard.results[0].replace_all_uses_with(new.results[0])
    guard.erase()
    if not list(mask.uses) and not isinstance(mask.owner, ir.Block):
        _op(mask.owner).erase()
