"""The direct-to-LDS copies of a one-iteration remainder issued before the pipelined loop.

A remainder loop (:mod:`~pipeline_mlir.frontend.tails`) whose body copies straight to LDS
(IREE's DMA kernels: ``amdgpu.gather_to_lds``) runs as written: a barrier, its copies, a
barrier that waits for them, its reads and MFMAs, so the whole latency of its copies is
exposed after the pipelined loop's epilogue.  :func:`copies_ahead` issues the copies of a
remainder that runs exactly one iteration before the pipelined loop instead (before the
schedule's prologue, when the kernel is lowered), so they complete under the pipelined
loop; the remainder keeps its barriers, reads and MFMAs.  Each copy is cloned with the
side-effect free ops its operands need (of the body, the induction variable replaced by
the lower bound; and of the ops between the pipelined loop and the remainder, the views
of its buffers), so it copies what the iteration copied.

Why this is sound, each point checked here (else the loop stays as written and the reason
is put on it, :data:`IN_PLACE_ATTR`):

* no wait changes what it waits for: the copies are the oldest memory operations of the
  pipelined code, and a ``vmcnt(k)`` wait (every VMEM operation but the ``k`` issued last
  complete) still completes the operations it was derived for when older ones are added;
  the remainder's body waits for no memory counter itself (a count there would count
  other operations once the copies are older);
* the buffers the copies write are the remainder's own: each is a ``memref.alloc`` that
  nothing but ops inside the remainder reads or writes (views aside), so no access before
  the remainder, in any wave, races with the early copies (a remainder on the schedule's
  buffers, rebuilt on stage 0 or aliased, is left as written);
* another wave reads a copy's data only after its own copies completed and a barrier:
  the pipelined loop's first wait of ``vmcnt`` completes them and its barriers, or the
  remainder's own barrier that waited for them before, order them before the remainder's
  reads (the barriers of the body stay where they are);
* the remainder runs once: its trip count is the constant 1 and no loop around it in the
  kernel runs it again, ``scf.parallel`` and an ``scf.forall`` without a mapping included
  (a copy issued early would write buffers a wave may still read in the previous run: an
  ``lds-race`` of the emulator on IREE's kernel in a sequential ``scf.parallel`` whose
  barriers at the ends of its body were removed); nor any op around it other than an
  ``scf.if`` (or another op of :data:`ONCE`);
* the body does nothing before its last copy but barriers and side-effect free ops (the
  copies move above those only), and nothing before the remainder in the kernel writes
  memory other than LDS
  (:func:`~pipeline_mlir.frontend.remainder_ahead.write_before`: a copy moved above a
  barrier could miss another wave's write);
* a copy's operands depend only on the induction variable, values defined before the
  pipelined loop and side-effect free ops (no ``iter_arg``, no LDS read).

A remainder that no pipelined loop precedes (the whole loop run as written) keeps its
copies: there is nothing to overlap them with.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import constant_trips, descendants, encloses
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import effects, erase_unused, in_lds, is_pure
from pipeline_mlir.frontend.remainder_ahead import (KERNELS, LOOPS, TO_LDS, WAITS, body_slice,
                                                    clone_at, pure_slice, write_before)
from pipeline_mlir.frontend.marks import (COPIES_AHEAD_ATTR as AHEAD_ATTR,
                                          COPIES_IN_PLACE_ATTR as IN_PLACE_ATTR, REMAINDER_ATTR)

__all__ = ["AHEAD_ATTR", "IN_PLACE_ATTR", "copies_ahead", "dma_copies_ahead", "why_not_ahead"]

#: the ops around a remainder that run it at most once (besides a mapped ``scf.forall``:
#: IREE's loop over workgroups, one iteration a workgroup); any other one may run it again
ONCE = ("scf.if", "scf.index_switch", "scf.execute_region")
#: ops that only order the waves (the copies may move above them: module docstring)
BARRIERS = ("gpu.barrier", "rocdl.s.barrier", "rocdl.barrier")


def _copies(body) -> list:
    return [_op(o) for o in body.operations if _op(o).name in TO_LDS]


def _pipelined_before(loop):
    """The pipelined loop before ``loop`` in its block (an ``scf.for``, or an ``scf.if``
    holding one), past the remainder loops between them (a merged loop's left-over K
    steps run before the odd one's), or None."""
    block = [_op(o) for o in loop.block.operations]
    for o in reversed(block[:block.index(loop)]):
        if o.name == "scf.for" and REMAINDER_ATTR in o.attributes:
            continue
        if o.name == "scf.for" or (o.name == "scf.if" and any(
                x.name == "scf.for" for x in descendants(o))):
            return o
    return None


def _lds_target(copy):
    """The LDS memref ``copy`` writes (its one write effect in LDS), or None."""
    e = effects(copy)
    out = [v for k, v in e or [] if k == "write" and v is not None and in_lds(v)]
    return out[0] if len(out) == 1 else None


def _owned(root, loop) -> bool:
    """``root`` (a buffer) is a ``memref.alloc`` that only ops inside ``loop`` read or write:
    every user, through side-effect free ops (views), is inside ``loop`` or a view (not a
    terminator, which would pass it on under another name: ``kernel_ir.in_use``'s rule)."""
    if isinstance(root, ir.BlockArgument) or _op(root.owner).name != "memref.alloc":
        return False
    todo, seen = [root], set()
    while todo:
        for u in todo.pop().uses:
            o = _op(u.owner)
            if o in seen:
                continue
            seen.add(o)
            if o == loop or encloses(loop, o):
                continue
            if o.name == "memref.dealloc":
                continue
            if not is_pure(o) or not len(o.results):   # (an effect, or a terminator
                return False                          # passing it on: scf.yield)
            todo.extend(o.results)
    return True


def _outside_slice(ops: list, loop, start) -> list | str:
    """The side-effect free ops between ``start`` (the pipelined loop) and ``loop`` in
    their block that ``ops`` and ``loop``'s lower bound (the copies' induction variable)
    need, in block order, or why the copies cannot go before ``start``."""
    block = [_op(o) for o in loop.block.operations]
    between = block[block.index(start) + 1:block.index(loop)]
    made = {r for o in ops for r in o.results}
    todo = [v for o in ops for x in [o, *descendants(o)] for v in x.operands if v not in made]
    todo.append(loop.operands[0])   # (the lower bound the copies are cloned at)
    got = pure_slice(todo, between, stop=start)
    if got is start:
        return "a copy depends on a result of the pipelined loop"
    if not isinstance(got, list):
        return "a copy depends on an op after the pipelined loop that has side effects"
    return got


def why_not_ahead(loop) -> str | None:
    """Why :func:`copies_ahead` leaves ``loop`` (a remainder loop whose body copies to LDS)
    as written (module docstring), or None."""
    plan = _plan(loop)
    return plan if isinstance(plan, str) else None


def _plan(loop) -> tuple | str:
    """What :func:`copies_ahead` moves: (the copies, the slice of the body they need, the
    pipelined loop they go before, the ops between the loops the slice needs); or why
    ``loop`` stays as written."""
    if constant_trips(loop) != 1:
        return "it does not run exactly one iteration (its trip count is not the constant 1)"
    op = _op(loop.parent)
    while op.name not in KERNELS:
        if op.name in LOOPS or (op.name == "scf.forall" and "mapping" not in op.attributes):
            return f"a loop around it ('{op.name}') runs it again"
        if op.name not in ONCE and op.name != "scf.forall":
            return f"an op around it ('{op.name}') may run it again"
        if op.parent is None:
            break
        op = _op(op.parent)
    body = loop.regions[0].blocks[0]
    copies = _copies(body)
    if not copies:
        return "its body has no copy to LDS of its own (none outside a nested op)"
    if any(o.name in TO_LDS and o not in copies for o in descendants(loop)):
        return "a copy to LDS is nested in an op of its body"
    for c in copies:
        target = _lds_target(c)
        if target is None or not _owned(view_root(target), loop):
            return "a copy writes an LDS buffer that is not the remainder's own"
    if any(o.name in WAITS for o in descendants(loop)):
        return "its body waits for a memory counter"
    ops = [_op(o) for o in body.operations]
    for o in ops[:ops.index(copies[-1])]:
        if o.name not in TO_LDS and o.name not in BARRIERS and not is_pure(o):
            return "its body accesses memory before its last copy"
    s = body_slice(copies, body, body.arguments[0])
    if isinstance(s, str):
        return s.replace("a load", "a copy")
    if write_before(loop) is not None:
        return ("the kernel may write memory other than LDS before it, which another "
                "wave's copies may have to see past a barrier")
    start = _pipelined_before(loop)
    if start is None:
        return "no pipelined loop precedes it in its block"
    pre = _outside_slice(s, loop, start)
    return pre if isinstance(pre, str) else (copies, s, start, pre)


def copies_ahead(loop):
    """Issue the copies of ``loop`` (a one-iteration remainder) before the pipelined loop
    (module docstring); returns the loop, or the reason (a string) it stays as written."""
    plan = _plan(loop)
    if isinstance(plan, str):
        return plan
    copies, ops, start, pre = plan
    iv = loop.regions[0].blocks[0].arguments[0]
    lb = loop.operands[0]
    with ir.InsertionPoint(start), loop.location:
        outside = clone_at(pre, iv, lb)     # (outside the loop, no iv; the bound may be one)
        clone_at(ops, iv, outside.get(lb, lb), outside)
    rest = [o for o in ops if o not in copies]
    for c in reversed(copies):
        c.erase()
    erase_unused(rest + pre)     # (the views only the copies used)
    loop.attributes[AHEAD_ATTR] = ir.UnitAttr.get()
    return loop


def dma_copies_ahead(kernel) -> None:
    """:func:`copies_ahead` on every remainder loop of ``kernel`` whose body copies to LDS
    and that a pipelined loop precedes; one left as written carries the reason in
    :data:`IN_PLACE_ATTR`."""
    for loop in walk_ops(kernel, lambda o: o.name == "scf.for" and REMAINDER_ATTR in
                         o.attributes and AHEAD_ATTR not in o.attributes
                         and IN_PLACE_ATTR not in o.attributes):
        if not _copies(loop.regions[0].blocks[0]) or _pipelined_before(loop) is None:
            continue
        out = copies_ahead(loop)
        if isinstance(out, str):
            loop.attributes[IN_PLACE_ATTR] = ir.StringAttr.get(
                f"its copies stay in their iteration: {out}")
