"""The remainder loop's global loads issued a K tile ahead, in registers.

A remainder loop (:mod:`~pipeline_mlir.frontend.tails`: the odd last K tile, the peeled
masked one, the K steps a merge leaves) runs IREE's loop as written, so each of its
iterations loads its tiles from global memory and waits for them before writing LDS.
:func:`load_ahead` overlaps those loads with the work before them, as IREE's own
prefetch does: the loads of the loop's first iteration are issued before the loop, those
of iteration ``i + 1`` in iteration ``i`` right after the last op that consumes the
current ones (the LDS stores of the copies), carried across the back edge in new
``iter_args``.  The loads (``vector.load``, ``vector.maskedload``,
``vector.transfer_read`` of global memory, and an ``scf.if`` that only chooses between
such loads: the buffer-end guards of IREE's late form) and the index arithmetic they
depend on are cloned at the iteration they load for; every mask, guard and address is
computed from the induction variable as the loop computes it, so each clone loads what
the iteration it serves would load.  The last iteration loads its own tile again
(``iv + step`` selected only below the upper bound), so no load leaves the K rows the
loop reads; a trip count known only at run time puts the first loads under
``scf.if lb < ub`` (zeros otherwise, which the loop never stores).

What it relies on, checked here (else the loop stays as written and the reason is
returned, never a wrong kernel):

* nothing in the body writes memory other than LDS (a load moved an iteration earlier
  then reads what it read before), nor does anything before the loop in the kernel, or
  anywhere in the body of a loop around it (a load moved above a barrier would not see
  another wave's write the barrier ordered before it; in a loop around the remainder, a
  write after it comes before it in that loop's next iteration);
* the body has no direct-to-LDS copy and no wait of a memory counter: a ``vmcnt`` wait
  counts the loads issued after the copy it waits for, and moving a load would change
  what it waits for;
* a moved load depends only on the induction variable, values defined before the loop
  and side-effect free ops of the body (no ``iter_arg``, no LDS read);
* the loop's step is a positive constant, and the loop runs an iteration when its bounds
  are constants (the first loads of constant bounds are not guarded).
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import constant_int, descendants, memory_space
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute, set_new_operands
from pipeline_mlir.frontend.kernel_ir import (close_grown, effects, erase_unused, grown_loop,
                                             in_lds, is_pure, next_op, writes_outside_lds,
                                             zero_vector)
from pipeline_mlir.frontend.marks import (LOADS_AHEAD_ATTR as AHEAD_ATTR,
                                          LOADS_IN_PLACE_ATTR as IN_PLACE_ATTR, REMAINDER_ATTR)

__all__ = ["AHEAD_ATTR", "IN_PLACE_ATTR", "body_slice", "clone_at", "load_ahead", "loads_ahead",
           "pure_slice",
           "why_not_ahead", "write_before"]

#: ops that copy straight into LDS, and ops that wait for a memory counter (module
#: docstring)
TO_LDS = ("amdgpu.gather_to_lds", "rocdl.global.load.lds", "rocdl.raw.ptr.buffer.load.lds")
WAITS = ("rocdl.s.waitcnt", "amdgpu.memory_counter_wait", "rocdl.asyncmark",
         "rocdl.wait.asyncmark", "rocdl.s.wait.loadcnt")
#: the functions a kernel is
KERNELS = ("func.func", "gpu.func")
#: the ops whose body one workgroup may run more than once, in order (a remainder inside one
#: runs again after the ops that follow it there); not ``scf.forall``: IREE's loop over
#: workgroups at the prefetch point, one iteration a workgroup
LOOPS = ("scf.for", "scf.while", "scf.parallel", "affine.for", "affine.parallel")
#: the reads of global memory into registers that may be moved
LOADS = ("vector.load", "vector.maskedload", "vector.transfer_read")


def _global_read(op) -> bool:
    """``op`` (no regions) only reads global memory, into registers."""
    if op.name not in LOADS or len(op.regions):
        return False
    e = effects(op)
    return bool(e) and all(k == "read" and v is not None and not in_lds(v)
                           and memory_space(v.type) != "private" for k, v in e)


def _guarded_read(op) -> bool:
    """``op`` is an ``scf.if`` whose branches hold only global reads and side-effect
    free ops, and that yields values, all vectors (the zeros the first loads' guard yields
    when the loop runs no iteration, :func:`_guarded_firsts`)."""
    return op.name == "scf.if" and len(op.results) > 0 and all(
        isinstance(r.type, ir.VectorType) for r in op.results) and all(
        o.name == "scf.yield" or _global_read(o) or is_pure(o) for o in descendants(op))


def _free_operands(op) -> list:
    """The values ``op`` uses, its nested ops' included, that are defined outside it."""
    inner = {r for o in descendants(op) for r in o.results}
    inner |= {a for o in [op, *descendants(op)] for reg in o.regions for b in reg.blocks
              for a in b.arguments}
    out = list(op.operands)
    for o in descendants(op):
        out += [v for v in o.operands if v not in inner]
    return out


def body_slice(roots: list, body, iv) -> list | str:
    """The ops of ``body`` that ``roots`` (its loads) and their operands depend on, in
    body order, or why they cannot move."""
    need, todo = set(roots), [v for r in roots for v in _free_operands(r)]
    while todo:
        v = todo.pop()
        if isinstance(v.owner, ir.Block):
            if v.owner == body and v != iv:
                return "a load depends on a value the loop carries"
            continue
        o = _op(v.owner)
        if o.block != body or o in need:
            continue
        if not is_pure(o):
            return "a load depends on an op that is not free of side effects"
        need.add(o)
        todo.extend(o.operands)
    return [_op(o) for o in body.operations if _op(o) in need]


def why_not_ahead(loop) -> str | None:
    """Why :func:`load_ahead` leaves ``loop`` as written (module docstring), or None."""
    plan = _plan(loop)
    return plan if isinstance(plan, str) else None


def _plan(loop) -> tuple | str:
    """What :func:`load_ahead` moves: (its global loads, the slice of the body they need);
    or why ``loop`` stays as written."""
    step = constant_int(loop.operands[2])
    if step is None or step <= 0:
        return "its step is not a positive constant"
    lb, ub = (constant_int(v) for v in list(loop.operands)[:2])
    if lb is not None and ub is not None and lb >= ub:
        # (its first loads would go unguarded: at lb, past the K rows it reads)
        return "it runs no iteration"
    body = loop.regions[0].blocks[0]
    # (the reasons name no op: the loop's printed attribute is not an op of its body)
    for o in descendants(loop):
        if o.name in TO_LDS:
            return "its body copies straight to LDS"
        if o.name in WAITS:
            return "its body waits for a memory counter"
    roots = _roots(body)
    if not roots:
        return "its body loads nothing from global memory into registers"
    for o in body.operations:
        o = _op(o)
        if o not in roots and _writes_outside_lds(o):
            return "its body may write memory other than LDS"
    s = body_slice(roots, body, body.arguments[0])
    if isinstance(s, str):
        return s
    before = write_before(loop)
    if before is not None:
        return ("the kernel may write memory other than LDS before it, which another "
                "wave's loads may have to see past a barrier")
    return roots, s


def write_before(loop):
    """An op that may write memory other than LDS and runs before ``loop`` in the kernel, or
    None: one before it in its block and every enclosing one, up to the function, and any
    op of the body of a loop around it (after it too: the next iteration of that loop runs
    ``loop`` after it)."""
    op = loop
    while op.parent is not None and op.name not in KERNELS:
        block = [_op(o) for o in op.block.operations]
        # (in a loop's body every op, ``op`` too: a write after the remainder inside an
        # op around it, an ``scf.if``, also comes before it in the next iteration; the
        # remainder's own body writes nothing, why_not_ahead checks it first)
        around = _op(op.parent).name in LOOPS
        for o in block if around else block[:block.index(op)]:
            if _writes_outside_lds(o):
                return o
        op = _op(op.parent)
    return None


def _roots(body) -> list:
    return [_op(o) for o in body.operations if _global_read(_op(o)) or _guarded_read(_op(o))]


def clone_at(ops: list, iv, at_iv, known: dict | None = None) -> dict:
    """``ops`` cloned at the insertion point with ``iv`` replaced by ``at_iv`` (in nested
    regions too), and each value of ``known`` (old to new, of ops cloned before) by its
    new one; returns the mapping of old results to new."""
    mapping = {**(known or {}), iv: at_iv}
    for o in ops:
        new = o.clone()
        for x in [new, *descendants(new)]:      # (clones: no cache told, ir_changes.py)
            set_new_operands(x, {k: mapping[v] for k, v in enumerate(x.operands)
                                 if v in mapping})
        for old_r, new_r in zip(o.results, new.results):
            mapping[old_r] = new_r
    return mapping


def load_ahead(loop):
    """Issue ``loop``'s global loads an iteration ahead (module docstring); returns the
    rewritten loop, or the reason (a string) it stays as written."""
    plan = _plan(loop)
    if isinstance(plan, str):
        return plan
    roots, ops = plan
    iv = loop.regions[0].blocks[0].arguments[0]
    values = [r for o in roots for r in o.results]
    lb, ub, step = list(loop.operands)[:3]
    with ir.InsertionPoint(_earliest(loop, ops)), loop.location:
        if constant_int(lb) is not None and constant_int(ub) is not None:
            m = clone_at(ops, iv, lb)
            firsts = [m[v] for v in values]
        else:
            firsts = _guarded_firsts(ops, values, iv, lb, ub)
    n = len(list(loop.operands)) - 3
    new = grown_loop(loop, firsts)
    nb = new.body
    carried = list(nb.arguments)[1 + n:]
    for v, c in zip(values, carried):
        v.replace_all_uses_with(c)
    last = _last_consumer(carried, nb)
    where = ir.InsertionPoint.at_block_begin(nb) if last is None else \
        ir.InsertionPoint(next_op(last))
    with where, loop.location:
        nxt = B.arith.addi(nb.arguments[0], step)
        at = B.arith.select(B.arith.cmpi(B.arith.CmpIPredicate.slt, nxt, ub), nxt,
                            nb.arguments[0])
        m = clone_at(ops, nb.arguments[0], at)
        nexts = [m[v] for v in values]
    for name in list(loop.attributes):
        set_attribute(new.operation, name, loop.attributes[name])
    set_attribute(new.operation, AHEAD_ATTR, ir.UnitAttr.get())
    close_grown(loop, new, nexts)
    rest = [o for o in ops if o not in roots]
    for r in reversed(roots):
        r.erase()
    erase_unused(rest)
    return new.operation


def _writes_outside_lds(op) -> bool:
    """``op`` or an op nested in it may write memory other than LDS: an op without regions
    as :func:`~pipeline_mlir.frontend.kernel_ir.writes_outside_lds` says, one with regions
    by the effects it states itself, if it states any (``memref.generic_atomic_rmw``, a
    ``linalg`` op on memrefs: their regions only compute the value written), and by its
    nested ops either way (``scf.for``, ``scf.if``: their effects are their bodies')."""
    for x in [op, *descendants(op)]:
        if not len(x.regions):
            if writes_outside_lds(x):
                return True
            continue
        e = effects(x)
        if e is not None and any(k == "write" and (v is None or not in_lds(v)) for k, v in e):
            return True
    return False


def _earliest(loop, ops: list):
    """The op before which the first iteration's loads go: ``loop``, or the loop before it
    in its block (the pipelined loop, or the ``scf.if`` guarding it) when the loads'
    operands are defined before it, so that the loads overlap the pipelined loop's last K
    tiles.  (Nothing before ``loop`` writes memory other than LDS: :func:`why_not_ahead`
    refuses a kernel that does; the check here only keeps the walk from ever passing one.)"""
    block = [_op(o) for o in loop.block.operations]
    at = block.index(loop)
    outside = {v for o in ops for v in _free_operands(o)} - {r for o in ops for r in o.results}
    outside |= set(list(loop.operands)[:2])
    defined = set()
    for k in range(at - 1, -1, -1):
        o = block[k]
        if _writes_outside_lds(o):
            return block[k + 1]
        defined |= {r for x in [o, *descendants(o)] for r in x.results}
        if defined & outside:
            return block[k + 1]
        if o.name == "scf.for" or (o.name == "scf.if" and any(
                x.name == "scf.for" for x in descendants(o))):
            return o
    return loop


def loads_ahead(kernel) -> None:
    """:func:`load_ahead` on every remainder loop of ``kernel`` not yet seen; a loop left
    as written carries the reason in :data:`IN_PLACE_ATTR`."""
    for loop in walk_ops(kernel, lambda o: o.name == "scf.for" and REMAINDER_ATTR in
                         o.attributes and AHEAD_ATTR not in o.attributes
                         and IN_PLACE_ATTR not in o.attributes):
        with loop.location:
            out = load_ahead(loop)
            if isinstance(out, str):
                loop.attributes[IN_PLACE_ATTR] = ir.StringAttr.get(
                    f"its loads stay in their iteration: {out}")


def _last_consumer(carried: list, body):
    """The last op of ``body`` that uses a carried value, directly or through side-effect
    free ops of the body; None when none does."""
    ops = [_op(o) for o in body.operations]
    seen, todo, last = set(), list(carried), -1
    while todo:
        for u in todo.pop().uses:
            o = _op(u.owner)
            while o.block != body:
                o = _op(o.parent)
            if o in seen:
                continue
            seen.add(o)
            last = max(last, ops.index(o))
            if is_pure(o) or o.name == "scf.if":
                todo.extend(o.results)
    return None if last < 0 else ops[last]


def _guarded_firsts(ops: list, values: list, iv, lb, ub) -> list:
    """The first iteration's loads before a loop whose bounds are known only at run time,
    inside ``scf.if lb < ub`` (zeros otherwise: a loop that runs no iteration stores none
    of them)."""
    guard = B.scf.IfOp(B.arith.cmpi(B.arith.CmpIPredicate.slt, lb, ub),
                       [v.type for v in values], has_else=True)
    with ir.InsertionPoint(guard.then_block):
        m = clone_at(ops, iv, lb)
        B.scf.YieldOp([m[v] for v in values])
    with ir.InsertionPoint(guard.else_block):
        B.scf.YieldOp([zero_vector(v.type) for v in values])
    return list(guard.results)


def pure_slice(values: list, window: list, stop=None):
    """The ops of ``window`` (ops of one block, in order) that ``values`` need, following
    operands back inside the window, in window order, when each is free of memory effects;
    else the op that stops it: ``stop`` when a value is its result, or an op of the window
    with effects (what a move of the values' users above the window must not cross)."""
    need, todo = set(), list(values)
    while todo:
        v = todo.pop()
        if isinstance(v.owner, ir.Block):
            continue
        o = _op(v.owner)
        if stop is not None and o == stop:
            return stop
        if o not in window or o in need:
            continue
        if not is_pure(o):
            return o
        need.add(o)
        todo.extend(o.operands)
    return [o for o in window if o in need]
