"""A remainder loop on the schedule's own LDS, when its own buffers do not fit.

A remainder loop of :func:`~pipeline_mlir.frontend.tails.split_tail` (the K tiles after
the pipelined loop: an odd trip count, a peeled masked K tile) runs the natural loop as
written, masks (:mod:`~pipeline_mlir.frontend.masks`) included if it has any, on LDS
buffers of its own: ``split_tail`` allocates them (IREE's swizzle made explicit in their
reads and writes) and marks each :data:`OWN_ATTR`.  Masked and unmasked remainders alike
keep such buffers, except an unmasked one whose buffers could never fit beside the
schedule's two stages (rebuilt on stage 0 at once,
:mod:`~pipeline_mlir.frontend.shared_remainder`, which cannot take a masked one: its
copies are the pipelined loop's, unmasked).  When the schedule's buffers and the
remainder's own do not fit in LDS together (IREE's f16 ``C +=`` 64x128 tile at K step 128
with an unaligned K: 96 KiB of schedule buffers, 36 KiB of C's tile and 49.5 KiB of IREE's),
the planner marks the remainder's allocations :data:`ALIAS_ATTR` and the partition does
not count them; ``sched-adopt-loop`` then (:func:`alias`) puts each on one of the
schedule's new buffers (a ``memref.reinterpret_cast`` of its first elements: the same
element type, at least as many elements, each schedule buffer taken once), so the
remainder's ops are unchanged, and *drains* the pipelined code before the remainder:

* ``s_waitcnt vmcnt(0)``: every copy the pipelined code issued into the buffers has
  landed (the schedule's waits already keep none in flight past its epilogue's reads; the
  drain does not rely on it);
* ``gpu.barrier`` (its workgroup fence waits for the wave's LDS reads, ``lgkmcnt(0)``):
  every wave is past its last read and write of the schedule's buffers before any wave's
  remainder writes them.

With a run-time trip count the drain follows the guard of the pipelined part (both of its
branches).  The LDS model of the issued kernel (``sched-stage-copies``' check of the
staged form, :func:`pipeline_mlir.analysis.lds_order.staged_hazards`; the remainder's
copies through registers make every such kernel staged) sees the remainder's accesses on
the schedule's buffers, so a remainder write that a pipelined read still needs is found
there, at the write.

Whether a remainder is aliased, rebuilt on the schedule's stage-0 buffers instead
(:mod:`~pipeline_mlir.frontend.shared_remainder`) or refused is
:mod:`~pipeline_mlir.frontend.remainder_plan`'s decision; this module is its "alias"
outcome: :func:`marked`, :func:`assign` and :func:`alias`.  A remainder of either kind is
aliased when each of its buffers finds a free schedule buffer; when one finds none, an
unmasked remainder that steps like the pipelined loop falls back to the stage-0 rebuild;
any other is aliased still when the largest free schedule buffer of the element type can
grow to hold it in the LDS the kernel leaves unused (:func:`spare_bytes`; that ``C +=``
kernel's 128x132 f16 tile beside schedule buffers of 8192 elements), the allocation made
longer and the schedule's accesses kept to its
first elements; else it is refused, saying what growth it would need.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.barriers import BARRIERS, orders
from pipeline_mlir.analysis.ir_facts import element_bytes, row_major_strides, static_bytes
from pipeline_mlir.analysis.lds_order import VIEWS
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.frontend.kernel_ir import describe, in_lds, kernel_of, lds_left
from pipeline_mlir.frontend.marks import ALIAS_ATTR, OWN_ATTR, REMAINDER_ATTR, SHAREABLE_ATTR
from pipeline_mlir.isa.waitcnt import waitcnt_imm
from pipeline_mlir.target import gfx950


def allocations(loop, attr: str, *more: str) -> list:
    """The ``memref.alloc`` ops of ``loop``'s kernel marked ``attr``, in walk order; with
    ``more`` attribute names, one such list per name (one walk)."""
    kernel = kernel_of(loop)
    names = (attr,) + more
    allocs = [] if kernel is None else walk_ops(kernel, lambda x: x.name == "memref.alloc")
    out = [[o for o in allocs if name in o.attributes] for name in names]
    return out if more else out[0]


def nbytes(alloc) -> int:
    return static_bytes(ir.MemRefType(alloc.results[0].type))


def marked(loop) -> list:
    """The allocations :func:`~pipeline_mlir.frontend.remainder_plan.count` marked
    :data:`ALIAS_ATTR` in ``loop``'s kernel, largest first; the :data:`OWN_ATTR` marks
    dropped (they have served: the partition counted)."""
    own, aliased = allocations(loop, OWN_ATTR, ALIAS_ATTR)   # (one walk: no op is made)
    for a in own:
        set_attribute(a, OWN_ATTR, None)
    return sorted(aliased, key=nbytes, reverse=True)


def fit(needs: list, frees: list, spare: int = 0,
        width=lambda i: 1) -> tuple[list | None, tuple | None]:
    """The one fitting of allocations to alias onto free schedule buffers, in order:
    ``needs`` ``(element type, elements)`` of each allocation, ``frees`` the same of each
    free buffer, smallest first.  Each need takes the smallest free buffer of its element
    type with at least as many elements, each buffer taken once; when none holds it, the
    largest free one of its type grown to its size if the growth (``width(i)``: bytes per
    element of need ``i``, asked only then) fits in ``spare`` bytes (what is left of it
    goes to the next).  Returns
    (the index in ``frees`` each need takes, None) or (None, ``(need index, elements of
    the largest free buffer of its type or None, growth in bytes, spare bytes left)``) for
    the first that no free buffer holds or can grow to hold."""
    free, picks = list(range(len(frees))), []
    for i, (t, n) in enumerate(needs):
        same = [j for j in free if frees[j][0] == t]
        held = [j for j in same if frees[j][1] >= n]
        if not held:
            if not same:
                return None, (i, None, 0, spare)
            growth = (n - frees[same[-1]][1]) * width(i)
            if growth > spare:
                return None, (i, frees[same[-1]][1], growth, spare)
            held, spare = [same[-1]], spare - growth
        free.remove(held[0])
        picks.append(held[0])
    return picks, None


def all_held(needs: list, frees: list) -> bool:
    """Whether each of ``needs`` (``(element type, elements)`` of an allocation to alias)
    finds one of ``frees`` (the same of a free schedule buffer), the largest first, with no
    buffer grown: :func:`fit`, as :func:`assign` chooses."""
    order = sorted(needs, key=lambda x: x[1], reverse=True)
    picks, _ = fit(order, sorted(frees, key=lambda f: f[1]))
    return picks is not None


def assign(allocs: list, buffers: dict, spare: int = 0) -> tuple[list, object]:
    """(``[(allocation, schedule buffer, its type)]``, None): a free buffer of
    ``buffers``' new ones (the schedule's, ``{buffer: BufferLayout}``) for each of
    ``allocs`` as :func:`fit` chooses, grown by :func:`alias` when it is smaller (the
    growth within ``spare`` bytes: the LDS the kernel leaves unused); or (``[]``,
    ``(allocation, elements, type, why)``) of the first that no free buffer holds or can
    grow to hold."""
    free = sorted((v for buf in buffers.values() for v in buf.new.values()),
                  key=lambda v: nbytes(_op(v.owner)))
    types = [ir.MemRefType(a.results[0].type) for a in allocs]
    picks, miss = fit([(t.element_type, int(np.prod(t.shape))) for t in types],
                      [(ir.MemRefType(v.type).element_type, ir.MemRefType(v.type).shape[0])
                       for v in free], spare, lambda i: element_bytes(types[i]))
    if miss is None:
        return [(a, free[j], t) for a, j, t in zip(allocs, picks, types)], None
    i, has, growth, left = miss
    a, t = allocs[i], types[i]
    n = int(np.prod(t.shape))
    if has is None:
        return [], (a, n, t, f"no free buffer of the schedule holds {t.element_type}")
    return [], (a, n, t, f"the largest free buffer of the schedule holds {has} x "
                         f"{t.element_type}, and growing it to {n} needs {growth} bytes "
                         f"more than the {left} the kernel leaves unused")


def alias(chosen: list, remainders: list) -> None:
    """Put every allocation of ``chosen`` (:func:`assign`'s) on its schedule buffer, grown
    to hold it if it is smaller, and drain the pipelined code before each of
    ``remainders`` (module docstring)."""
    for a, v, t in chosen:
        _grow(v, int(np.prod(t.shape)))
        _replace(a, v, t)
    for rem in remainders:
        with ir.InsertionPoint(rem), rem.location:
            drain = B.rocdl.s_waitcnt(waitcnt_imm(vmcnt=0))
            if not barrier_first(rem, _op(drain)):
                B.gpu.BarrierOp()


def _grow(buffer, n: int) -> None:
    """The schedule buffer ``buffer`` (a 1-D ``memref.alloc``) made ``n`` elements long if
    it is shorter: the schedule's own accesses keep to its first elements."""
    bt = ir.MemRefType(buffer.type)
    if bt.shape[0] < n:
        buffer.set_type(ir.MemRefType.get([n], bt.element_type, memory_space=bt.memory_space))


def spare_bytes(loop, marked_allocs: list, natural) -> int:
    """The LDS bytes ``loop``'s kernel leaves unused once the remainder's allocations
    (``marked_allocs``) are on the schedule's buffers and the natural loop's (``natural``,
    their values) are gone: what a schedule buffer may grow by.  Every other LDS the kernel
    declares counts (:func:`~pipeline_mlir.frontend.kernel_ir.lds_left`: allocations,
    the schedule's among them, ``workgroup(...)`` attributions, workgroup globals)."""
    return lds_left(kernel_of(loop), [a.results[0] for a in marked_allocs] + list(natural))


def remainder_name(remainders: list) -> str:
    """What ``remainders`` are, for messages: ``masked`` when one has masked copies (no
    :data:`~pipeline_mlir.frontend.scan.SHAREABLE_ATTR`: ``tails`` marks every remainder
    without masked copies that keeps buffers of its own), ``unmasked`` when none has,
    neither when there are none."""
    if not remainders:
        return "remainder loop"
    masked = any(SHAREABLE_ATTR not in r.attributes for r in remainders)
    return f"{'masked' if masked else 'unmasked'} remainder loop"


def no_room(loop, alloc, n: int, t, why: str, remainders: list) -> str:
    """Why ``loop``'s remainder (``remainders``: the loops that use ``alloc``) cannot
    alias ``alloc`` (``n`` elements of type ``t``; ``why``: :func:`assign`'s reason)."""
    return (f"'scf.for' op: the {remainder_name(remainders)} (the K tiles after the "
            f"pipelined loop) needs an LDS buffer of {n} x {t.element_type} "
            f"({describe(alloc)}), and neither it nor a free buffer of the schedule that "
            f"large fits in the {gfx950.LDS_BYTES} bytes of LDS a {gfx950.NAME} workgroup "
            f"can have ({why})")


def users(allocs) -> list:
    """The remainder loops (:data:`~pipeline_mlir.frontend.scan.REMAINDER_ATTR`) whose
    bodies use ``allocs``, through views; any other user is an error at it (the buffers
    are the remainder's own)."""
    out, todo = [], [a.results[0] for a in allocs]
    while todo:
        v = todo.pop()
        for u in v.uses:
            o = _op(u.owner)
            if o.name in VIEWS or o.name == "iree_codegen.swizzle_hint":
                todo.extend(o.results)
                continue
            p = o.parent
            while p is not None and not (_op(p).name == "scf.for"
                                         and REMAINDER_ATTR in _op(p).attributes):
                p = _op(p).parent
            if p is None and o.name != "memref.dealloc":
                raise IRError(o, f"{describe(o)} uses an LDS buffer of a remainder loop's "
                                 f"own outside it; the front end puts those buffers "
                                 f"on the schedule's")
            if p is not None and _op(p) not in out:
                out.append(_op(p))
    return out


def barrier_first(loop, drain) -> bool:
    """Whether ``loop``'s body passes, before its first op that touches LDS, a barrier
    that orders every LDS access of the code before ``drain`` (the drain's wait, just
    before ``loop``) by the one rule (:func:`pipeline_mlir.analysis.barriers.orders`):
    one that fences workgroup memory, or a bare one behind waits of ``vmcnt(0)`` (the
    drain's, for the copies) and ``lgkmcnt(0)`` (for the reads and register copies' LDS
    stores).  Then every wave is past the code before the loop when any wave's first
    iteration touches LDS, and the drain needs no barrier of its own."""
    body = [_op(o) for o in loop.regions[0].blocks[0].operations]
    seq = [loop, drain] + body      # position 0: the code before the drain
    for b, o in enumerate(seq[2:], 2):
        if o.name in BARRIERS and all(orders(seq, 0, b, c) for c in ("vmcnt", "lgkmcnt")):
            return True
        if walk_ops(o, lambda x: x.name not in VIEWS and any(in_lds(v) for v in x.operands)):
            return False
    return False


def _replace(alloc, buffer, t) -> None:
    """``alloc`` replaced by the first elements of schedule buffer ``buffer``."""
    if buffer.type == t:
        return _retire(alloc, buffer)
    with ir.InsertionPoint(alloc), alloc.location:
        view = ir.Operation.create("memref.reinterpret_cast", results=[t], operands=[buffer],
                                   attributes={
                                       "operandSegmentSizes": ir.DenseI32ArrayAttr.get(
                                           [1, 0, 0, 0]),
                                       "static_offsets": ir.DenseI64ArrayAttr.get([0]),
                                       "static_sizes": ir.DenseI64ArrayAttr.get(
                                           list(t.shape)),
                                       "static_strides": ir.DenseI64ArrayAttr.get(
                                           row_major_strides(t.shape))})
    _retire(alloc, view.results[0])


def _retire(alloc, value) -> None:
    """``alloc``'s uses but its deallocations moved to ``value``; ``alloc`` erased."""
    for u in list(alloc.results[0].uses):
        if _op(u.owner).name == "memref.dealloc":
            _op(u.owner).erase()
    alloc.results[0].replace_all_uses_with(value)
    alloc.erase()


