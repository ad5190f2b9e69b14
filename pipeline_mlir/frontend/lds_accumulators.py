"""Accumulators kept in LDS across the K-loop's iterations, carried in registers instead.

IREE's dynamic-K kernel keeps the workgroup's C tile in LDS: zeroed before the K-loop,
each thread reads its part at the top of every iteration (``vector.transfer_read`` of a
``vector<4x4x4x1xf32>``), accumulates the iteration's MFMAs into it and writes it back at
the end; after the loop the tile is copied to C.  :func:`carry_lds_accumulators` makes
that part an ``iter_arg`` of the loop: read once before the loop, carried, written back
once after it.  Exact when, checked for every thread of the workgroup by the per-lane
evaluator with no launch value sampled:

* the LDS buffer is allocated outside the loop and, within the loop (at any depth), is
  accessed only by one ``vector.transfer_read`` whose value reaches an MFMA as its
  accumulator and one later ``vector.transfer_write``,
  both directly in the body, unmasked, in bounds, of the same vector type with the
  memref's rank (a minor identity permutation); or (IREE's late form) by ``n``
  ``vector.load``s each reaching an MFMA as (part of) its accumulator, then ``n``
  ``vector.store``s of the same vector type, each store paired with the load of the same
  elements (below), all carried in one rebuild of the loop;
* for every thread, the write stores each vector element where the read loaded it, at
  addresses that depend on the thread and constants only (not on the loop's variable or
  the workgroup), and no two threads touch the same element: so each iteration reads
  what the same thread wrote in the one before (no other thread or op writes it), and
  the first reads what was there before the loop;
* the ops that compute the read's and the write's operands are side-effect free; they
  are cloned before and after the loop;
* the read, moved to the loop's entry, is ordered behind the kernel's writes of the
  buffer before the loop (IREE zeroes it) by a barrier on the way into the loop
  (:func:`pipeline_mlir.frontend.soundness.check_entry`): in the loop the kernel's own
  barriers ordered them, which the moved read no longer has.

The carried vector is then carried as its pieces where it can be, and one-element pieces
as the vector an MFMA assembles from them (:mod:`~pipeline_mlir.frontend.carried_pieces`).

A buffer that the loop accesses otherwise is left for the scan to refuse; a read and
write pair that fails the address checks is refused at the op, saying why.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import block_size, defined_in, encloses, segments
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.carried_pieces import gather_scalars, split_carried, take_over
from pipeline_mlir.frontend.kernel_ir import describe, erase_dead, is_pure, kernel_of
from pipeline_mlir.frontend.private_stage import root_of, whole_access
from pipeline_mlir.frontend.soundness import check_entry
from pipeline_mlir.frontend.thread_loops import workgroup_dependent
from pipeline_mlir.kernel.int_arrays import distinct

__all__ = ["carry_lds_accumulators"]


def carry_lds_accumulators(loop):
    """``loop`` with each LDS accumulator of its body carried (module docstring): the new
    ``scf.for`` if one was, else ``loop`` itself."""
    groups = _groups(loop)
    pairs = [p for reads, writes in groups for p in _check_addresses(loop, reads, writes)]
    for reads, _ in groups:   # the carried read moves to the loop's entry
        root = root_of(_access(reads[0])[0])
        check_entry(loop, lambda x, root=root: root_of(x) == root, reads[0])
    if pairs:
        loop = _carry(loop, pairs)
    return gather_scalars(split_carried(loop)) if pairs else loop


def _groups(loop) -> list:
    """([reads], [writes]) of each LDS accumulator buffer of ``loop``'s body."""
    body = [_op(o) for o in loop.regions[0].blocks[0].operations]
    by_root: dict = {}

    def visit(o):
        o = _op(o)
        for x in o.operands:
            if str(x.type).startswith("memref<") and "workgroup" in str(x.type):
                by_root.setdefault(root_of(x), set()).add(o)
        return ir.WalkResult.ADVANCE

    for o in body:
        o.walk(visit)
    out = []
    for root, users in by_root.items():
        if not isinstance(root.owner, ir.Block) and encloses(loop, root.owner):
            continue
        accesses = [o for o in users if o.name not in ("memref.subview", "memref.expand_shape",
                                                       "memref.collapse_shape", "memref.cast")]
        if any(o not in body for o in accesses):
            continue
        accesses.sort(key=body.index)
        group = _whole_pair(accesses) or _piece_pairs(accesses)
        if group is not None:
            out.append(group)
    return out


def _whole_pair(accesses: list):
    """([read], [write]): one ``vector.transfer_read`` then one ``transfer_write`` of the
    whole vector, or None."""
    if len(accesses) != 2:
        return None
    r, w = accesses
    if r.name != "vector.transfer_read" or w.name != "vector.transfer_write" or \
            w.operands[0] == r.results[0] or not _feeds_accumulator(r.results[0]):
        return None
    vt = ir.VectorType(r.results[0].type)
    if vt != ir.VectorType(w.operands[0].type) or not whole_access(r, vt.shape, False) \
            or not whole_access(w, vt.shape, False) or \
            ir.MemRefType(r.operands[0].type).rank != vt.rank or \
            ir.MemRefType(w.operands[1].type).rank != vt.rank:
        return None
    return [r], [w]


def _piece_pairs(accesses: list):
    """([reads], [writes]): ``vector.load``s of the buffer, each reaching an MFMA as (part
    of) its accumulator, then as many ``vector.store``s of the same vector type (IREE's
    late form: one ``vector<1xf32>`` per accumulator element), or None.  Which write
    stores which read's elements is decided by their addresses
    (:func:`_check_addresses`)."""
    reads = [o for o in accesses if o.name == "vector.load"]
    writes = [o for o in accesses if o.name == "vector.store"]
    if not reads or len(reads) != len(writes) or len(reads) + len(writes) != len(accesses) \
            or accesses[:len(reads)] != reads:
        return None
    t = reads[0].results[0].type
    if any(r.results[0].type != t or not _feeds_accumulator(r.results[0]) for r in reads) or \
            any(w.operands[0].type != t or w.operands[0] in [r.results[0] for r in reads]
                for w in writes):
        return None
    return reads, writes


def _feeds_accumulator(v) -> bool:
    """Whether ``v`` reaches an MFMA as its accumulator (through ``vector.extract``,
    ``vector.shape_cast`` and ``vector.from_elements``): the buffer holds accumulators, not
    operand tiles."""
    for u in v.uses:
        o = _op(u.owner)
        if o.name == "amdgpu.mfma" and u.operand_number == 2:
            return True
        if o.name in ("vector.extract", "vector.shape_cast", "vector.from_elements") and \
                _feeds_accumulator(o.results[0]):
            return True
    return False


def _access(op) -> tuple:
    """(memref, indices) of LDS access ``op`` (a transfer op, ``vector.load`` or
    ``vector.store``)."""
    if op.name == "vector.transfer_read":
        g = segments(op)
        return g[0][0], g[1]
    if op.name == "vector.transfer_write":
        g = segments(op)
        return g[1][0], g[2]
    first = 0 if op.name == "vector.load" else 1
    return op.operands[first], list(op.operands)[first + 1:]


def _elements(ev, memref, indices, shape) -> np.ndarray:
    """(threads, vector elements): the root element each thread's access touches (the
    vector's dimensions along the memref's trailing ones)."""
    view = ev.view(memref)
    base = view.offset + sum(ev.value(i) * s for i, s in zip(indices, view.strides))
    pos = np.indices(shape).reshape(len(shape), -1)
    step = sum(p * s for p, s in zip(pos, list(view.strides)[-len(shape):]))
    return base[:, None] + step[None, :]


def _check_addresses(loop, reads: list, writes: list) -> list:
    """The (read, write) pairs of one LDS accumulator buffer, each write storing the
    elements its read loaded; refused at the op when the addresses do not prove it."""
    ev = Evaluator(block_size(kernel_of(loop)), launch_values=False)
    ev.where = loop
    shape = list(ir.VectorType(reads[0].results[0].type).shape)
    for op in reads + writes:
        memref, indices = _access(op)
        if any(workgroup_dependent(x, set()) for x in [memref, *indices]):
            raise IRError(op, f"{describe(op)} accesses an accumulator kept in LDS at an "
                              f"address that depends on the workgroup; the front end "
                              f"carries one whose address depends on the thread only")
    elements = {}
    for op in reads + writes:
        try:
            elements[op] = _elements(ev, *_access(op), shape)
        except IRError as e:
            raise IRError(op, f"{describe(op)} accesses an accumulator kept in LDS at an "
                              f"address the front end cannot evaluate for every thread "
                              f"from the thread alone ({str(e).splitlines()[0][:160]}); it "
                              f"carries one whose address depends on the thread only") \
                from None
    pairs = []
    for w in writes:
        r = next((r for r in reads if np.array_equal(elements[r], elements[w])), None)
        if r is None or r in [p[0] for p in pairs]:
            a, b = elements[reads[len(pairs)]], elements[w]
            t = int(np.flatnonzero((a != b).any(axis=1))[0]) if a.shape == b.shape else 0
            raise IRError(w, f"{describe(w)} writes an accumulator kept in LDS back to other "
                             f"elements than {describe(reads[len(pairs)])} read (thread {t}); "
                             f"the front end carries an accumulator each thread reads and "
                             f"writes in place")
        pairs.append((r, w))
    a = np.concatenate([elements[r] for r in reads], axis=1)
    if len(distinct(a)) != a.size:
        r = reads[0]
        raise IRError(r, f"{describe(r)} reads an accumulator kept in LDS of which two "
                         f"threads (or two elements) share an element; the front end "
                         f"carries one each thread owns alone")
    return pairs


def _slice_clone(values, loop, where, mapping: dict) -> list:
    """``values`` with the pure ops of ``loop``'s body that compute them cloned at
    ``where`` (an insertion point), via and into ``mapping``."""
    out = []
    for v in values:
        if v in mapping:
            out.append(mapping[v])
            continue
        if isinstance(v.owner, ir.Block):
            if defined_in(v, loop):
                raise ValueError("a block argument of the loop")
            out.append(v)
            continue
        o = _op(v.owner)
        if not encloses(loop, o):
            out.append(v)
            continue
        if not is_pure(o):
            raise ValueError(f"{describe(o)}, which has side effects")
        ops = _slice_clone(list(o.operands), loop, where, mapping)
        new = o.clone(where)
        for i, x in enumerate(ops):
            new.operands[i] = x
        for old, nv in zip(o.results, new.results):
            mapping[old] = nv
        out.append(mapping[v])
    return out


def _carry(loop, pairs: list):
    """The loop rebuilt with each pair's read value an iter_arg (read before, written
    after)."""
    inits = list(loop.operands)[3:]
    before: dict = {}
    for r, _ in pairs:
        try:
            pre = _slice_clone(list(r.operands), loop, ir.InsertionPoint(loop), before)
        except ValueError as e:
            raise IRError(r, f"{describe(r)} reads an accumulator kept in LDS at an address "
                             f"computed from {e}; the front end carries one whose address "
                             f"it can compute before the loop") from None
        init = r.clone(ir.InsertionPoint(loop))
        for i, x in enumerate(pre):
            init.operands[i] = x
        inits.append(init.results[0])
    n = len(loop.results)
    with ir.InsertionPoint(loop), loop.location:
        new = B.scf.ForOp(loop.operands[0], loop.operands[1], loop.operands[2], inits)
    old_body, nb = loop.regions[0].blocks[0], new.body
    args = list(nb.arguments)
    for old_arg, new_arg in zip(old_body.arguments, args[:n + 1]):
        old_arg.replace_all_uses_with(new_arg)
    for j, (r, _) in enumerate(pairs):
        r.results[0].replace_all_uses_with(args[n + 1 + j])
    dropped = {o for p in pairs for o in p}
    ops = [_op(o) for o in old_body.operations]
    for o in ops[:-1]:
        if o not in dropped:
            nb.append(o)
    with ir.InsertionPoint(nb), loop.location:
        B.scf.YieldOp(list(ops[-1].operands) + [w.operands[0] for _, w in pairs])
    res, after = take_over(loop, new, list(range(n)))
    mapping: dict = {}
    for j, (_, w) in enumerate(pairs):
        try:
            post = _slice_clone(list(w.operands)[1:], new.operation, after, mapping)
        except ValueError as e:
            raise IRError(w, f"{describe(w)} writes an accumulator kept in LDS at an address "
                             f"computed from {e}; the front end carries one whose address "
                             f"it can compute after the loop") from None
        back = w.clone(after)
        back.operands[0] = res[n + j]
        for i, x in enumerate(post):
            back.operands[1 + i] = x
    address = [x for r, w in pairs for x in list(r.operands) + list(w.operands)[1:]]
    loop.erase()
    # a view of the accumulators' LDS left in the loop would read as a use of that buffer
    erase_dead(address, nb)
    return new.operation
