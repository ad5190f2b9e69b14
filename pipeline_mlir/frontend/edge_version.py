"""Interior workgroups pipelined, edge workgroups run the loop as written.

IREE's padded kernels with a size known only at launch (``padding`` in the lowering config,
``test/data/iree/dynamic.py``'s ``padded_source``) mask each lane's run by what is left of
the size ``L`` (M or N) in the workgroup's tile: ``min(8, min(L - T g, T) - col)`` for the
tile ``g`` of ``T`` rows or columns.  Where the run lies along the operand's contiguous
dimension (a ``K x M`` A, a ``K x N`` B), the masked elements lie inside the buffer and a
run may be cut inside, which no copy of whole runs reads: the masked-tail peel
(:mod:`~pipeline_mlir.frontend.masks`) refuses it.  In every workgroup whose tile lies
inside ``L`` (``T (g + 1) <= L``) every such mask is full and every ``min`` over the size
picks one operand, so there the loop is the one IREE would write for full tiles.

:func:`version_edges` versions the K-loop on that condition, computed in the kernel from
the workgroup id and the launch value (uniform per workgroup): the loop to pipeline runs
``lb .. split`` with ``split = interior ? lb + 2n step : lb`` (its pairs of iterations,
clamped as :func:`~pipeline_mlir.frontend.tails.clamp_split` clamps a run-time split) inside
the guard ``split > lb``, and the remainder loop after it runs ``split .. ub`` exactly as
IREE wrote it, masks included, on LDS buffers of its own
(:func:`~pipeline_mlir.frontend.tails.guarded_remainder`): every iteration in an edge
workgroup, the odd last one (if any) in an interior one.  Both are the same loop cut at
``split`` and chained by its loop-carried values, so the code after the loop sees the
state it expects either way, and the remainder's LDS is not the pipelined loop's.  With a K
that is not a multiple of the K step the last iteration is a partial K tile: the loop to
pipeline keeps the pairs before it (the caller's ``tail`` tells it), and what only that
tile needs, IREE's K clamps and the masks of the K left, is settled and proven full over
the iterations it keeps (the caller's ``settle``: :mod:`~pipeline_mlir.frontend.loop_choices`,
:mod:`~pipeline_mlir.frontend.masks`).

What the rewrite relies on is proven, not sampled: with ``L = T g + d`` (:mod:`~pipeline_mlir.
frontend.row_proof`'s forms, the interior the piece ``d >= T`` for every ``g >= 0``), on
every thread and at every iteration the pipelined loop runs, each mask size of the loop's
masked reads is its vector's dimension, and each ``min``/``max`` computed outside the loop
from ``L`` that the loop uses equals one of its operands (the same one on every thread and
piece).  The loop to pipeline then reads values computed with that operand in place of the
``min`` (equal in every interior workgroup), its masks dropped and the sizes of its reads'
views proven constant made static.  A mask that depends on anything the forms do not cover
(another launch value, such as the K left with K known only at launch; another workgroup
dimension; a product of two varying values) or that is not full in some interior workgroup
is refused at the read, with the thread and sizes.  A loop whose trip count is known only at
run time is not versioned (its masks are left to
:mod:`~pipeline_mlir.frontend.dynamic_masks`, which refuses one that moves with the
workgroup).
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.marks import CUT, VERSIONED_ATTR
from pipeline_mlir.analysis.ir_facts import (DYNAMIC, block_size, constant_bounds,
                                             dense_i64, segments)
from pipeline_mlir.frontend.kernel_ir import depends, describe, is_pure, kernel_of, owner
from pipeline_mlir.frontend.row_proof_late import inside, late_tiles, workgroup_loop_of
from pipeline_mlir.frontend.loop_choices import CHOOSERS as _CHOOSERS
from pipeline_mlir.frontend.loop_choices import candidates as _candidates
from pipeline_mlir.frontend.loop_choices import drop_unused, last_is_tail, settle_choices
from pipeline_mlir.frontend.row_proof import (MAX_PIECES, Form, Piece, Split, SymbolicRows,
                                              Unproven)
from pipeline_mlir.frontend.tails import PAIR, clamp_split, guarded_remainder


class Wrong(Exception):
    """A property fails on a thread and piece: ``why``."""


def _forall_of(loop):
    p = loop.parent
    while p is not None and _op(p).name != "scf.forall":
        p = p.parent
    return None if p is None else _op(p)


def launch_tiles(loop) -> list:
    """(workgroup value ``g``, launch value ``L``, candidate tiles ``T``) of each way the
    workgroups around ``loop`` tile a value known at launch: a dimension of the
    ``scf.forall`` over ``ceildiv(L, T)`` tiles (IREE's prefetch point; ``g`` its variable),
    or, in a grid-stride loop over the workgroups (the late form), each divide or remainder
    of its variable proven a tile along a dynamic size ``L`` of a binding
    (:func:`~pipeline_mlir.frontend.row_proof_late.late_tiles`; any ``T`` is sound: the
    proof holds it to the condition built from it)."""
    forall = _forall_of(loop)
    if forall is not None:
        return _forall_tiles(forall)
    wl = workgroup_loop_of(loop)
    if wl is None or not edge_reads(loop, [(wl.regions[0].blocks[0].arguments[0], None, 0)]):
        return []   # (no masked read moves with the workgroup: no tile proven for nothing)
    return late_tiles(loop)


def _forall_tiles(forall) -> list:
    out, ubs = [], iter(segments(forall)[1])
    args = forall.regions[0].blocks[0].arguments
    for i, ub in enumerate(dense_i64(forall, "staticUpperBound")):
        if ub != DYNAMIC:
            continue
        ap = owner(next(ubs), "affine.apply")
        m = ap and ir.AffineMapAttr(ap.attributes["map"]).value
        text = str(m.results[0]) if m and len(m.results) == 1 else ""
        if len(list(ap.operands) if ap else []) == 1 and text.startswith("s0 ceildiv ") and \
                text.split()[-1].isdigit():
            out.append((args[i], ap.operands[0], int(text.split()[-1])))
    return out


def _mask_sizes(read) -> list | None:
    """The sizes of ``read``'s mask (a ``vector.transfer_read``'s or a
    ``vector.maskedload``'s), if it is a ``vector.create_mask``."""
    m = [read.operands[len(read.operands) - 2]] if read.name == "vector.maskedload" else \
        segments(read)[3]
    if not m or isinstance(m[0].owner, ir.Block) or _op(m[0].owner).name != "vector.create_mask":
        return None
    return list(_op(m[0].owner).operands)


def _mask_shape(read) -> list:
    """The shape of ``read``'s mask (:func:`_mask_sizes`): a transposing or broadcasting
    ``vector.transfer_read``'s is its memory dimensions', not its vector's."""
    m = read.operands[len(read.operands) - 2] if read.name == "vector.maskedload" else \
        segments(read)[3][0]
    return list(ir.VectorType(m.type).shape)


def edge_reads(loop, tiles: list) -> list:
    """The masked ``vector.transfer_read`` ops of ``loop``'s body (a cut run's aside) whose
    mask is a ``vector.create_mask`` of a size that moves with a workgroup of ``tiles``."""
    wgs = {w for w, _, _ in tiles}
    out = []
    for o in map(_op, loop.regions[0].blocks[0].operations):
        if o.name not in ("vector.transfer_read", "vector.maskedload") or CUT in o.attributes:
            continue
        sizes = _mask_sizes(o)
        if sizes and any(depends(v, wgs) for v in sizes):
            out.append(o)
    return out


def _view_sizes(read) -> list:
    """The dynamic size operands of the ``memref.subview`` ``read`` reads (if it does)."""
    if read.name != "vector.transfer_read":
        return []
    sv = owner(segments(read)[0][0], "memref.subview")
    return [] if sv is None else list(segments(sv)[2])


def _outside_cone(loop, launches: set) -> list:
    """The side-effect free ops outside ``loop`` whose results ``loop`` uses (directly or
    through others) and that are computed from a value of ``launches``, in program order."""
    found, todo = set(), []
    for o in walk_ops(loop, lambda x: True):
        todo += [x for x in o.operands if not inside(x, loop)]
    while todo:
        v = todo.pop()
        if isinstance(v.owner, ir.Block) or v in launches:
            continue
        o = _op(v.owner)
        if o in found or not is_pure(o) or not depends(v, launches):
            continue
        found.add(o)
        todo += list(o.operands)
    kernel = kernel_of(loop)
    return [_op(o) for o in walk_ops(kernel, lambda x: True) if _op(o) in found]


def _prove(read, tiles_of: dict, threads: int, iters: list, check) -> None:
    """``check(sr, k)`` on every thread, every iteration ``k`` of ``iters`` and every piece
    of the interior (``d >= T``, every ``g >= 0``) of each of ``tiles_of``'s pairs: an
    :class:`IRError` at ``read`` where it fails or is not settled.  What each value's op
    is (``SymbolicRows.plans``) is read once for them all: the checks never change the
    IR."""
    plans: dict = {}
    for (wg, launch, T) in tiles_of:
        for k, iv in iters:
            leaves = {wg: Form(g=1), launch: Form(g=T, d=1)}
            if iv is not None:
                leaves[iv] = Form(c=k)
            shared, tid_free = {}, {}
            for tid in range(threads):
                pieces, done = [Piece(T, None)], 0
                while pieces:
                    piece = pieces.pop()
                    try:
                        check(SymbolicRows(leaves, piece, tid, shared.setdefault(
                            (piece.lo, piece.hi), {}), tid_free, plans), tid)
                        done += 1
                    except Split as s:
                        pieces += [Piece(piece.lo, s.at - 1), Piece(s.at, piece.hi)]
                    except Wrong as w:
                        where = _where(tid, iv, k, T, piece)
                        raise IRError(read, f"{describe(read)} {w} {where}, in a workgroup "
                                            f"whose tile lies inside the size; {_WHY}") \
                            from None
                    except Unproven as u:
                        where = _where(tid, iv, k, T, piece)
                        raise IRError(read, f"{describe(read)}: its mask is not proven full "
                                            f"in every workgroup whose tile lies inside the "
                                            f"size ({u}, {where}); {_WHY}") from None
                    if len(pieces) + done > MAX_PIECES:
                        raise IRError(read, f"{describe(read)}: its mask is not proven full "
                                            f"in the interior workgroups (more than "
                                            f"{MAX_PIECES} pieces "
                                            f"{_where(tid, iv, k, T, piece)})")


def _where(tid: int, iv, k: int, T: int, piece: Piece) -> str:
    """Where :func:`_prove` is, as words: the thread, the iteration and the piece."""
    return (f"on thread {tid}" + ("" if iv is None else f" in iteration {k}")
            + f" at sizes {T} g + d for d in {piece.lo} .. "
            f"{piece.hi if piece.hi is not None else 'any'}")


_WHY = ("the front end pipelines such a loop only in the workgroups whose tile lies inside "
        "the sizes known at launch (every mask full and every min over the size one of its "
        "operands there, proven for every size and workgroup), the edge workgroups running "
        "the loop as written")


def version_edges(loop, unmask, tail=last_is_tail, settle=settle_choices):
    """Version ``loop`` on its workgroup's tile lying inside the sizes known at launch
    (module docstring) when a masked read of its body moves with such a workgroup, each
    masked read of the loop to pipeline made a plain one by ``unmask``; returns the
    remainder loop (IREE's loop as written, run for the rest), or None when there is
    nothing to version (an :class:`IRError` at the read where it cannot be proven).
    ``tail(loop, iterations)``: whether the last of the loop's iterations is a partial K
    tile, left to the remainder; ``settle(loop, iterations)``: what the loop to pipeline,
    which runs ``iterations``, makes of what the partial tile alone needs (IREE's clamps,
    :func:`~pipeline_mlir.frontend.loop_choices.settle_choices`)."""
    tiles = launch_tiles(loop)
    reads = edge_reads(loop, tiles) if tiles else []
    if not reads:
        return None
    bounds = constant_bounds(loop)
    if bounds is None or bounds[2] <= 0:
        return None     # (a trip count known only at run time: the masks' own proofs decide)
    lb, ub, step = bounds
    n = (ub - lb) // step   # (the last iteration a K tail's: left to the remainder)
    keep = (n - bool(tail(loop, range(lb, ub, step)))) // PAIR * PAIR
    size = block_size(kernel_of(loop))
    threads = 1 if size is None else size[0] * size[1] * size[2]
    iv = loop.regions[0].blocks[0].arguments[0]
    statics, used = {}, []
    for (g, launch), ts in _pairs(tiles).items():
        mine = [r for r in reads if any(depends(v, {g}) and depends(v, {launch})
                                        for v in _mask_sizes(r) + _view_sizes(r))]
        if not mine or g.type != launch.type:
            continue
        for i, T in enumerate(ts):      # (the first tile the proof holds)
            try:
                statics.update(_check_masks(mine, [(g, launch, T)], threads, iv, lb, keep,
                                            step))
                used.append((g, launch, T))
                break
            except IRError:
                if i == len(ts) - 1:
                    raise
    left = [r for r in reads if r not in statics]
    if left:
        raise IRError(left[0], f"{describe(left[0])} has a mask that moves with the workgroup "
                               f"but not with a size known at launch that the workgroups "
                               f"tile; {_WHY}")
    cone = _outside_cone(loop, {launch for _, launch, _ in used})
    cands = {o: _candidates(o) for o in cone if o.name in _CHOOSERS}
    try:
        choice = _choose(reads[0], cands, used, threads)
    except IRError:
        for vs in cands.values():
            drop_unused(vs)
        raise
    with ir.InsertionPoint(loop), loop.location:
        A = B.arith
        t = loop.operands[0].type
        full = A.constant(t, ir.IntegerAttr.get(t, lb + keep * step))
        split = clamp_split(loop, A.select(interior(used), full, loop.operands[0]))
    rem = guarded_remainder(loop, split)
    _interior_values(loop, cone, choice, cands)
    for r, sizes in statics.items():
        _static_view(r, sizes)
        unmask(r)
    settle(loop, range(lb, lb + keep * step, step))
    loop.attributes[VERSIONED_ATTR] = ir.UnitAttr.get()
    return rem


def _pairs(tiles: list) -> dict:
    """{(workgroup value, launch value): its candidate tiles, ascending}."""
    out = {}
    for g, launch, T in tiles:
        out.setdefault((g, launch), []).append(T)
    return {k: sorted(set(v)) for k, v in out.items()}


def interior(used: list):
    """``T (g + 1) <= L`` for each (workgroup ``g``, launch value ``L``, ``T``) of ``used``,
    and-ed, emitted at the current insertion point: the workgroup's tile lies inside every
    size (the piece ``d >= T`` of :func:`_prove`)."""
    A = B.arith
    inside = None
    for wg, launch, T in used:
        c_t = A.constant(wg.type, ir.IntegerAttr.get(wg.type, T))
        end = A.muli(A.addi(wg, A.constant(wg.type, ir.IntegerAttr.get(wg.type, 1))), c_t)
        ok = A.cmpi(A.CmpIPredicate.sle, end, launch)
        inside = ok if inside is None else A.andi(inside, ok)
    return inside


def _choose(read, cands: dict, used: list, threads: int) -> dict:
    """For each op of ``cands``, the index of the candidate equal to it on every thread
    and piece of the interior (proven: :func:`_prove`)."""
    ok = {o: set(range(len(vs))) for o, vs in cands.items()}
    result = {o: o.results[0] for o in cands}      # (read off the IR once, not per piece)
    out = {}
    for pair in used:
        failed = set()

        def check(sr, _tid, failed=failed):
            for o, vs in cands.items():
                if o in failed:
                    continue
                try:
                    f = sr.form(result[o])
                except Unproven:
                    failed.add(o)   # (not over this pair's forms)
                    continue
                for j in list(ok[o]):
                    try:
                        if sr.piece.sign(sr.form(vs[j]) - f) != 0:
                            ok[o].discard(j)
                    except Unproven:
                        ok[o].discard(j)

        _prove(read, [pair], threads, [(0, None)], check)
        out.update({o: min(js) for o, js in ok.items() if o not in failed and js})
    return out


def _check_masks(reads: list, used: list, threads: int, iv, lb: int, keep: int,
                 step: int) -> dict:
    """Every mask size of ``reads`` its vector's dimension on every thread, at every
    iteration of the loop to pipeline, in the interior (:func:`_prove`); returns, per read,
    the constant of each dynamic size of its view (None where it is not one)."""
    out = {}
    for r in reads:
        sizes, views = _mask_sizes(r), _view_sizes(r)
        # (the mask's own shape: a transposing or broadcasting read's is not its vector's)
        dims = _mask_shape(r)
        moves = any(depends(v, {iv}) for v in sizes + views)
        iters = [(lb + i * step, iv) for i in range(keep)] if moves else [(lb, iv)]
        consts = [None] * len(views)
        seen = [set() for _ in views]

        def check(sr, _tid, dims=dims, sizes=sizes, views=views, seen=seen):
            for d, v in zip(dims, sizes):
                f = sr.form(v)
                if f.const() != d:
                    raise Wrong(f"is masked to {f if f.const() is None else f.const()} of "
                                f"{d} elements")
            for i, v in enumerate(views):
                try:
                    f = sr.form(v)
                except Unproven:
                    seen[i].add(None)
                    continue
                seen[i].add(f.const())

        _prove(r, used, threads, iters, check)
        for i, s in enumerate(seen):
            consts[i] = next(iter(s)) if len(s) == 1 and None not in s else None
        out[r] = consts
    return out


def _interior_values(loop, cone: list, choice: dict, cands: dict) -> None:
    """In ``loop`` (the loop to pipeline), each value of ``cone`` that a chooser's chosen
    candidate feeds replaced by a copy computed with that candidate in its place (equal in
    the interior; the others, the workgroup's tiles among them, are the kernel's own); the
    candidates not chosen erased."""
    mapping = {}
    with ir.InsertionPoint(loop), loop.location:
        for o in cone:
            src = o
            if o in choice:
                v = cands[o][choice[o]]
                if not o.name.startswith("affine."):
                    mapping[o.results[0]] = mapping.get(v, v)
                    continue
                src = _op(v.owner)  # (an affine result: its apply, on the copies' values)
            elif not any(x in mapping for x in src.operands):
                continue    # (nothing chosen feeds it: the loop keeps the op itself; a
                #             copy of a tile's divide is no tile to row_proof_late)
            new = src.clone()
            for i, x in enumerate(new.operands):
                if x in mapping:
                    new.operands[i] = mapping[x]
            for a, b in zip(o.results, new.results):
                mapping[a] = b
    for o in walk_ops(loop, lambda x: True):
        for i, x in enumerate(o.operands):
            if x in mapping:
                o.operands[i] = mapping[x]
    for vs in cands.values():
        drop_unused(vs)


def _static_view(read, consts: list) -> None:
    """The ``memref.subview`` ``read`` reads with each dynamic size of ``consts`` (a
    constant, or None: kept) made static."""
    if not consts or all(c is None for c in consts):
        return
    sv = owner(segments(read)[0][0], "memref.subview")
    src_t, res_t = ir.MemRefType(sv.operands[0].type), ir.MemRefType(sv.results[0].type)
    if src_t.rank != res_t.rank:
        return
    g = segments(sv)
    it = iter(zip(g[2], consts))
    sizes, dyn = [], []
    for s in dense_i64(sv, "static_sizes"):
        if s != DYNAMIC:
            sizes.append(s)
            continue
        v, c = next(it)
        sizes.append(DYNAMIC if c is None else c)
        if c is None:
            dyn.append(v)
    attrs = {n: sv.attributes[n] for n in ("static_offsets", "static_strides")}
    attrs["static_sizes"] = ir.DenseI64ArrayAttr.get(sizes)
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(g[1]), len(dyn), len(g[3])])
    t = ir.MemRefType.get(sizes, res_t.element_type, res_t.layout, res_t.memory_space)
    with ir.InsertionPoint(sv), sv.location:
        new = ir.Operation.create("memref.subview", results=[t],
                                  operands=[g[0][0], *g[1], *dyn, *g[3]], attributes=attrs)
    sv.results[0].replace_all_uses_with(new.results[0])
    sv.erase()
