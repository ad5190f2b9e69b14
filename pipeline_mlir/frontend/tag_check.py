"""Check a concrete loop's hand-written tags against the addresses its payload touches.

The concrete form (``docs/dialect.md``) says in tags which schedule op each payload op
is: a global load fills the LDS slot (channel, stage, subtile), a fragment load reads
that slot, an MMA multiplies the A fragments of one subtile with the B fragments of
another.  The schedule derives its waits and barriers from the tags alone, so a tag that
does not describe what the op does makes a kernel that races or computes garbage.  This
module evaluates every payload op's addresses for every lane of every wave (the same
evaluator as the front end's address analysis, ``pipeline_mlir/frontend/address.py``) and
reports, at the op, every tag that disagrees:

* the LDS a global load writes must not overlap what global loads of another slot write;
* a fragment load must read only LDS that the global loads of its own slot write;
* an MMA's A operand must come from fragment loads of channel 0 and the MMA's row
  subtile, its B operand from channel 1 and its column subtile, both of one stage;
* the loads of one channel and subtile must move K tiles exactly their ``k_offset``
  difference apart (the addresses of the loop variable's next K step tell the tile size).

The addresses are evaluated at K tiles the loop loads (a constant upper bound tells them):
one K step after the lower bound, else the earliest point where every load's tile is one
of the loop's; the tile size is measured from the loads whose next tile is the loop's too.
Past the loop's tiles a kernel may peel a masked tile whose addresses are not the loop's
(IREE's padded kernel of K = 100: one iteration).  Of those points, one where no load's
tile is the loop's last is taken first: the last may be a K tail the kernel masks
without peeling it, whose masked runs tell no K tile.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, int_value
from pipeline_mlir.dialect.locations import op_name
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.kernel.int_arrays import distinct
from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.analysis.loop_eval import (Evaluator, segments,
                                             xor_shuffle)
from pipeline_mlir.analysis.ir_facts import block_size, lane_stride
from pipeline_mlir.frontend.kernel_ir import at, is_pure, kernel_of, zero_end
from pipeline_mlir.frontend.marks import KEPT

_K = {"k0": 0, "k1": 1, "k_next": 2, "k_prev": -1}


_at = at


def _int(fields, name, default=0) -> int:
    a = fields.get(name)
    return int_value(a) if a is not None else default  # integers: checked on import


def _describe(fields, kind) -> str:
    keys = ("channel", "stage", "subtile") if kind != S.MMA_OP else ("stage", "subtile")
    return ", ".join(f"{k} {_int(fields, k)}" for k in keys)


def read_elements(ev: Evaluator, op) -> tuple[object, np.ndarray]:
    """(LDS root, (threads, n) elements) an LDS read op reads (swizzle applied)."""
    name = op.name
    if name == "vector.transfer_read":
        g = segments(op)
        mem, idx = g[0][0], list(g[1])
    elif name in ("vector.load", "amdgpu.transpose_load", "memref.load"):
        mem, idx = op.operands[0], list(op.operands[1:])
    else:
        raise IRError(op, f"'{name}' op is tagged as a fragment load, but the tag check knows "
                          f"only vector.load, vector.transfer_read and amdgpu.transpose_load "
                          f"from LDS")
    v = ev.view(mem)
    if v.space != "workgroup":
        raise IRError(op, f"'{name}' op is tagged as a fragment load but reads {mem.type}, "
                          f"not LDS")
    start = v.element([ev.value(i) for i in idx])
    shape = list(ir.VectorType(op.results[0].type).shape) if name != "memref.load" else []
    offs = np.zeros(1, dtype=np.int64)
    strides = v.strides[len(v.strides) - len(shape):] if shape else []
    for d, s in zip(shape, strides):
        offs = (offs[:, None] + np.arange(d)[None, :] * s).ravel()
    el = start[:, None] + offs[None, :]
    if v.swizzle is not None:
        el = xor_shuffle(el, *v.swizzle)
    return v.root, el


def copy_elements(ev: Evaluator, op) -> tuple[object, np.ndarray, object, np.ndarray]:
    """(LDS root, (threads, n) LDS elements, global root, (threads, n) global elements)
    of an ``amdgpu.gather_to_lds``: each wave writes its lanes' data contiguously from its
    wave-uniform destination."""
    if op.name != "amdgpu.gather_to_lds":
        raise IRError(op, f"'{op_name(op)}' op is tagged as a global load, but the tag check "
                          f"knows only amdgpu.gather_to_lds (global -> LDS)")
    g = segments(op)
    tt = ir.TypeAttr(op.attributes["transferType"]).value
    n = ir.VectorType(tt).shape[0] if isinstance(tt, ir.VectorType) else 1
    dv = ev.view(g[2][0])
    base = dv.element([ev.value(i) for i in g[3]])
    wave0 = (ev.tid // WAVE_SIZE) * WAVE_SIZE
    if np.any(base != base[wave0]):
        raise IRError(op, f"'{op_name(op)}' op: its LDS destination differs between the lanes of "
                          f"a wave; the DMA writes from one wave-uniform address")
    lane = ev.tid % WAVE_SIZE
    lds = base[wave0][:, None] + lane[:, None] * lane_stride(op, n) + np.arange(n)[None, :]
    sv = ev.view(g[0][0])
    src = sv.element([ev.value(i) for i in g[1]])
    return dv.root, lds, sv.root, src[:, None] + np.arange(n)[None, :]


def check_tags(loop, entries) -> None:
    """Raise an IRError at the first payload op whose tag disagrees with its addresses.

    ``entries``: ``[(payload ops, sched op name, tag fields)]`` as ``import_loop`` groups
    them."""
    kernel = kernel_of(loop)
    bs = block_size(kernel) if kernel is not None else None
    if bs is None:
        where = kernel if kernel is not None else loop
        raise IRError(where, f"'{op_name(where)}' op: the tag check evaluates every thread's "
                             f"addresses and needs the kernel's workgroup size "
                             f"(known_block_size, gpu.known_block_size or IREE's "
                             f"translation_info)")
    ev = Evaluator(bs)
    ev.where = loop
    blk = loop.regions[0].blocks[0]
    iv = blk.arguments[0]
    lb = ev.uniform(loop.operands[0])
    step = ev.uniform(loop.operands[2])
    lb = 0 if lb is None else lb
    if step is None or step % 2:
        # the concrete form's step is two K tiles; without a known step there is no K tile
        # size to compare the loads' addresses with
        step = None
    loads = [(ops, f) for ops, name, f in entries if name == S.GLOBAL_LOAD]
    frags = [(ops, f) for ops, name, f in entries if name == S.FRAG_LOAD]
    mmas = [(ops, f) for ops, name, f in entries if name == S.MMA_OP]
    span = _span(ev, loop, lb, step)
    first = _first_point(lb, step, [_k_of(f) for _, f in loads], span)
    ev.bind(iv, first)
    check = _TagCheck(ev)
    check.loads(loads)
    check.fragment_loads(frags)
    check.mmas(blk, mmas)
    if step is None or not check.load_info:
        return
    second = first + step // 2
    ev.bind(iv, second)
    check.k_offsets(lambda k: _inside(second + k * (step // 2), step // 2, span))


def _k_of(fields) -> int:
    """A global load's K offset in K tiles (``k_prev`` -1, ``k0`` 0, ...)."""
    ko = fields.get("k_offset")
    return _K.get(ir.StringAttr(ko).value, 0) if ko is not None else 0


def _span(ev: Evaluator, loop, lb: int, step: int | None) -> tuple[int, int] | None:
    """The loop variable's values whose K tiles the loop's iterations load, ``[lb, end)``
    (two K tiles of ``step / 2`` per iteration); None when the upper bound is known only
    at run time."""
    ub = ev.uniform(loop.operands[1])
    if ub is None or step is None or step <= 0:
        return None
    return lb, lb + max(0, -(-(ub - lb) // step)) * step


def _inside(start: int, tile: int, span: tuple[int, int] | None) -> bool:
    """Whether the K tile at loop variable ``start`` (``tile`` wide) is one the loop loads."""
    return span is None or (span[0] <= start and start + tile <= span[1])


def _first_point(lb: int, step: int | None, ks: list[int], span) -> int:
    """The loop variable the tags are checked at: one K step after the lower bound, where a
    ``k_prev`` load's tile (one before the variable) exists (the pipelined loop starts after
    its prologue), unless a load's tile there is past the loop's K tiles (a loop of one
    iteration, its last tiles peeled after it, masked: their addresses are not the loop's);
    then the earliest point whose every load's tile is the loop's.

    At either point, a point whose loads' tiles, there and one K step on, are none of them
    the loop's last tile is taken first: the last may be an unpeeled K tail, whose runs
    past K read zeros where the kernel masks them (IREE's f16 ``A^T x B^T`` 24x5x1000, two
    iterations: its ``k0`` loads would move onto the tail, and its ``k1`` loads load it at
    the first point, with fewer lanes than their ``k0`` tiles)."""
    if step is None:
        return lb
    h = step // 2
    ks = ks or [0]
    candidates = [lb + step, lb + max(0, -min(ks)) * h]
    for q in candidates:
        if all(_inside(q + k * h, 3 * h, span) for k in ks):
            return q
    for q in candidates:
        if all(_inside(q + k * h, h, span) for k in ks):
            return q
    return candidates[0]


class _TagCheck:
    """The checks of :func:`check_tags`, in order; each reads what the ones before found
    (which slot writes which LDS, which slot each fragment load reads)."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev
        self.slots: list = []       # (channel, stage, subtile) per slot id
        self.slot_ids: dict = {}
        self.written: dict = {}     # root -> (slot id per element or -1, writing op per element)
        self.load_ops: list = []
        self.load_info: list = []   # (ops, fields, slot, [(global root, elements)]) per load
        self.frag_of: dict = {}     # fragment load op -> (channel, stage, subtile)

    def _table(self, root):
        if root not in self.written:
            n = int(np.prod(ir.MemRefType(root.type).shape))
            self.written[root] = (np.full(n, -1, np.int64), np.full(n, -1, np.int64))
        return self.written[root]

    def loads(self, loads: list) -> None:
        """The LDS a global load writes is not written by a global load of another slot."""
        for ops, f in loads:
            slot = (_int(f, "channel", -1), _int(f, "stage"), _int(f, "subtile"))
            sid = self.slot_ids.setdefault(slot, len(self.slots))
            if sid == len(self.slots):
                self.slots.append(slot)
            src0, per_op = [], []
            for op in ops:
                root, lds, groot, src = copy_elements(self.ev, op)
                per_op.append((op, root, lds))
                src0.append((groot, src))
            for op, root, lds in per_op:
                self._write(op, root, lds, slot, sid)
            self.load_info.append((ops, f, slot, src0))

    def _write(self, op, root, lds, slot, sid: int) -> None:
        owner, who = self._table(root)
        e = distinct(lds)
        if e.min() < 0 or e.max() >= owner.size:
            raise IRError(op, f"'{op_name(op)}' op writes outside its LDS buffer "
                              f"({root.type})")
        prev = owner[e]
        clash = (prev >= 0) & (prev != sid)
        if np.any(clash):
            other, oop = _culprit(clash, prev, who, e, self.slots, self.load_ops)
            raise IRError(op, f"'{op_name(op)}' op tagged as the global load of channel "
                              f"{slot[0]}, stage {slot[1]}, subtile {slot[2]} writes LDS "
                              f"that the global load tagged channel {other[0]}, stage "
                              f"{other[1]}, subtile {other[2]} at {_at(oop)} also writes: "
                              f"one LDS slot per (channel, stage, subtile)")
        owner[e] = sid
        who[e] = len(self.load_ops)
        self.load_ops.append(op)

    def fragment_loads(self, frags: list) -> None:
        """A fragment load reads only LDS that the global loads of its own slot write."""
        for ops, f in frags:
            slot = (_int(f, "channel", -1), _int(f, "stage"), _int(f, "subtile"))
            for op in ops:
                root, el = read_elements(self.ev, op)
                e = distinct(el)
                owner, who = self.written.get(root, (None, None))
                if owner is None or e.min() < 0 or e.max() >= owner.size or \
                        np.any(owner[e] < 0):
                    raise IRError(op, f"'{op_name(op)}' op tagged as the fragment load of channel "
                                      f"{slot[0]}, stage {slot[1]}, subtile {slot[2]} reads LDS "
                                      f"that no global load of the loop writes")
                got = owner[e]
                sid = self.slot_ids.get(slot, -2)
                bad = got != sid
                if np.any(bad):
                    other, oop = _culprit(bad, got, who, e, self.slots, self.load_ops)
                    raise IRError(op, f"'{op_name(op)}' op tagged as the fragment load of channel "
                                      f"{slot[0]}, stage {slot[1]}, subtile {slot[2]} reads LDS "
                                      f"written by the global load tagged channel {other[0]}, "
                                      f"stage {other[1]}, subtile {other[2]} at {_at(oop)}")
                self.frag_of[op] = slot

    def mmas(self, blk, mmas: list) -> None:
        """An MMA's A operand comes from fragment loads of channel 0 and its row subtile, its
        B operand from channel 1 and its column subtile, both of one stage."""
        body = set(_op(o) for o in blk.operations)
        term = _op(blk.operations[-1])    # (a list of the block's ops first: 5x slower)
        iter_args = list(blk.arguments)[1:]
        for ops, f in mmas:
            row, col = _int(f, "stage"), _int(f, "subtile")
            for op in ops:
                if op.name not in ("amdgpu.mfma", "amdgpu.scaled_mfma"):
                    continue
                stages = set()
                for side, want_ch, want_sub, what in ((0, 0, row, "row"), (1, 1, col, "column")):
                    srcs = _frag_sources(op.operands[side], body, term, iter_args, self.frag_of)
                    for src in srcs:
                        ch, st, sub = self.frag_of[src]
                        if ch != want_ch or sub != want_sub:
                            raise IRError(op, f"'{op.name}' op tagged as the MMA of row {row}, "
                                              f"column {col} takes its {'AB'[side]} operand from "
                                              f"the fragment load at {_at(src)} tagged channel "
                                              f"{ch}, subtile {sub}; the {what} subtile "
                                              f"{want_sub} of channel {want_ch} ({'AB'[side]}) "
                                              f"is expected")
                        stages.add(st)
                if len(stages) > 1:
                    raise IRError(op, f"'{op.name}' op tagged as the MMA of row {row}, column "
                                      f"{col} multiplies fragments of stages {sorted(stages)}: A "
                                      f"and B must come from one K tile")

    def k_offsets(self, inside) -> None:
        """The loads of one channel and subtile move K tiles exactly their ``k_offset``
        difference apart (the evaluator is bound to the next K step; ``inside(k)``: whether
        a load of K offset ``k`` there loads a K tile of the loop, whose move then measures
        its channel's K tile)."""
        by_key = self._k_moves(inside)
        for (ch, sub, _), items in by_key.items():
            ref_op, ref_k, ref_addrs, dd, ref_next = items[0]
            for op, k, addrs, _, nxt in items[1:]:
                if not _same_tiles(addrs, k, nxt, ref_addrs, ref_k, ref_next, dd):
                    # (as many addresses: past-the-end lanes are left out, :func:`_past_end`)
                    diff = addrs - ref_addrs if addrs.shape == ref_addrs.shape else \
                        np.array([0, 1])
                    whole = dd != 0 and np.all(diff == diff.flat[0]) and diff.flat[0] % dd == 0
                    actual = (f"the K tile {_kname(ref_k + int(diff.flat[0]) // dd)}" if whole
                              else "another K tile")
                    raise IRError(op, f"'{op_name(op)}' op is tagged k_offset {_kname(k)} but "
                                      f"moves {actual} relative to the global load of "
                                      f"channel {ch}, subtile {sub} at {_at(ref_op)} (tagged "
                                      f"{_kname(ref_k)})")

    def _k_moves(self, inside) -> dict:
        """{(channel, subtile): [(first op, k_offset, sorted global addresses, elements per K
        tile, sorted addresses one K step on or None)]} of every global load; each load that
        stays in the loop's K tiles moves by one K step as a whole, and every such load of a
        channel by the same number of elements (a channel's other loads take that number),
        measured on the lanes inside the buffer at both steps: a lane past the end at
        either reads zeros there (a K tail's lane past K, kept, at the second)."""
        delta: dict = {}
        later: dict = {}     # (load's index, root) -> its sorted addresses one K step on
        for n, (ops, f, slot, src0) in enumerate(self.load_info):
            if not inside(_k_of(f)):
                continue
            s1 = [copy_elements(self.ev, op)[3] for op in ops]
            for root in dict.fromkeys(a[0] for a in src0):
                later[(n, root)] = np.sort(np.concatenate(
                    [b[~_past_end([op], root, b, self.ev)]
                     for op, a, b in zip(ops, src0, s1) if a[0] == root]))
            # per global source (an operand, and an MX operand's scales): one K step each
            for root in dict.fromkeys(a[0] for a in src0):
                # (per copy: a load's copies may keep a mask or not, one row's kept)
                d = np.concatenate([(b - a[1])[~(_past_end([op], root, a[1], self.ev) |
                                                 _past_end([op], root, b, self.ev))]
                                    for op, a, b in zip(ops, src0, s1) if a[0] == root])
                if d.size == 0:
                    continue          # every lane reads past the end: zeros, no K tile
                if np.any(d != d.flat[0]):
                    raise IRError(ops[0], f"'{op_name(ops[0])}' op: its global addresses do not "
                                          f"move by one K step when the loop variable does; "
                                          f"the tag check cannot relate its k_offset to its "
                                          f"addresses")
                key, dd = (slot[0], root), int(d.flat[0])
                if key in delta and delta[key][0] != dd:
                    raise IRError(ops[0], f"'{op_name(ops[0])}' op moves {dd} elements per K "
                                          f"tile, the global load at {_at(delta[key][1])} of the "
                                          f"same channel {delta[key][0]}")
                delta.setdefault(key, (dd, ops[0]))
        by_key: dict = {}
        for n, (ops, f, slot, src0) in enumerate(self.load_info):
            for root in dict.fromkeys(a[0] for a in src0):
                if (slot[0], root) not in delta:
                    continue          # no load of the channel stays in the loop's K tiles
                addrs = np.sort(np.concatenate([a[1][~_past_end([op], root, a[1], self.ev)]
                                                for op, a in zip(ops, src0) if a[0] == root]))
                by_key.setdefault((slot[0], slot[2], root), []).append(
                    (ops[0], _k_of(f), addrs, delta[(slot[0], root)][0],
                     later.get((n, root))))
        return by_key


def _same_tiles(addrs, k: int, nxt, ref_addrs, ref_k: int, ref_next, dd: int) -> bool:
    """Whether a load of K offset ``k`` (its sorted addresses ``addrs`` at the first point,
    ``nxt`` one K step on, None where that tile is not the loop's) loads the K tiles a
    load of ``ref_k`` (``ref_addrs``, ``ref_next``) loads ``k - ref_k`` tiles on, past-the-
    end lanes left out (:func:`_past_end`).  One tile apart, the two loads of one tile are
    compared as they are: where that tile is the loop's last, a K tail the kernel masks
    without peeling (IREE's f16 ``A^T x B^T`` 24x5x232: one iteration of a whole K step and
    a masked one), its lanes past K read zeros, which a move of the other tile by ``dd``
    elements would not show; otherwise the other's addresses moved ``k - ref_k`` tiles."""
    if k - ref_k == 1 and ref_next is not None:
        return np.array_equal(addrs, ref_next)
    if k - ref_k == -1 and nxt is not None:
        return np.array_equal(nxt, ref_addrs)
    return np.array_equal(addrs - (k - ref_k) * dd, ref_addrs)


def _past_end(ops, root, elements: np.ndarray, ev: Evaluator) -> np.ndarray:
    """Which ``elements`` of the global buffer ``root`` that the copies ``ops`` read lie
    past its end, where they keep a mask in their address
    (:data:`~pipeline_mlir.frontend.kernel_ir.KEPT`; not where the buffer's size is known
    only at run time) or where every one reads a buffer that reads zero past its end
    (:func:`~pipeline_mlir.frontend.kernel_ir.zero_end`: the rows a tile C's edge cuts,
    pointed past it, :mod:`~pipeline_mlir.frontend.block_fit`): a lane whose kept
    condition is false, or pointed past the end, reads zeros there, at a fixed element that
    no K step moves, so it tells no K tile and the K moves are measured without it (a
    copy of neither kind moves every lane)."""
    shape = ir.MemRefType(root.type).shape
    if all(KEPT in op.attributes for op in ops):
        if any(ir.ShapedType.is_dynamic_size(x) for x in shape):
            return np.zeros(elements.shape, bool)
        return elements >= int(np.prod(shape))
    ends = [_zero_end(op, ev) for op in ops]
    if any(e is None for e in ends) or len(set(ends)) != 1:
        return np.zeros(elements.shape, bool)
    end, limit = ends[0]
    return (elements >= end) & (elements < limit)


def _zero_end(op, ev: Evaluator) -> tuple[int, int] | None:
    """:func:`~pipeline_mlir.frontend.kernel_ir.zero_end` of the copy ``op``'s source."""
    return zero_end(segments(op)[0][0], ev)


def _culprit(mask, owners, who, elements, slots, load_ops):
    """(slot, global load op) of the first element ``mask`` marks."""
    k = int(np.argmax(mask))
    return slots[int(owners[k])], load_ops[int(who[elements[k]])]


def _kname(k: int) -> str:
    return {v: n for n, v in _K.items()}.get(k, str(k))


def _frag_sources(v, body, term, iter_args, frag_of, seen=None) -> list:
    """The tagged fragment loads a (vector) value is computed from, through pure ops and
    the loop's iter_args (a carried fragment: the yield operand)."""
    seen = set() if seen is None else seen
    if v in seen:
        return []
    seen.add(v)
    owner = v.owner
    if isinstance(owner, ir.Block):
        if v in iter_args:
            return _frag_sources(term.operands[iter_args.index(v)], body, term, iter_args,
                                 frag_of, seen)
        return []
    o = _op(owner)
    if o in frag_of:
        return [o]
    if o not in body or not is_pure(o):
        return []
    out = []
    for x in o.operands:
        if isinstance(x.type, ir.VectorType):
            out += _frag_sources(x, body, term, iter_args, frag_of, seen)
    return out
