"""Facts about ops and the kernel around a loop that every front-end reader asks: where an op
is (for messages), the op defining a value and what it is computed from, its memory
effects, the enclosing kernel function, its workgroup size and every LDS buffer it
declares (:func:`declared_lds`, what each LDS budget of the front end counts); a rewrite's
IR verified before anything walks it (:func:`check_built`); the one eraser
of what a rewrite leaves without uses (:func:`erase_unused`, :func:`erase_dead` and
:func:`erase_unused_buffer`); and the builders of a range-checked view of a global buffer the
front end's copies read and of a zero vector."""

from __future__ import annotations

import numpy as np


from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.analysis.ir_facts import (DYNAMIC, dense_row_major, element_bytes, function_of,
                                            memory_space, segments)
from pipeline_mlir.analysis.views import VIEW_OPS
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, index_constant, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.locations import location_text, op_name
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.target import gfx950

def at(op) -> str:
    """Where ``op`` is, for a message (``file:line:col``, or ``line L:C`` for a buffer)."""
    text = location_text(op.location)[0]
    return "line " + text[2:] if text.startswith("-:") else text


def describe(op) -> str:
    """``op`` for a message: its name (the user's op where the front end made ``op`` in its
    place, :func:`~pipeline_mlir.dialect.ir_io.op_name`) and where it is."""
    return f"'{op_name(op)}' op at {at(op)}"


def mfma_variant(m) -> str | None:
    """What an ``amdgpu.mfma`` does besides one block's ``D = C + A x B``: ``broadcasts its
    operands (cbsz = 1)`` for a ``blocks``, ``cbsz`` or ``abid`` other than 1, 0, 0, ``permutes
    its B operand (blgp)`` for a ``blgp`` other than none; None for the plain MFMA (the one
    the front end and the emulator take)."""
    for k, plain in (("blocks", 1), ("cbsz", 0), ("abid", 0)):
        if k in m.attributes and ir.IntegerAttr(m.attributes[k]).value != plain:
            return f"broadcasts its operands ({k} = {ir.IntegerAttr(m.attributes[k]).value})"
    if "blgp" in m.attributes and "none" not in str(m.attributes["blgp"]):
        return "permutes its B operand (blgp)"
    return None


# ---------------------------------------------------------------------------------------------
# what defines a value
# ---------------------------------------------------------------------------------------------

def owner(v, name: str):
    """The op defining ``v`` if it is a ``name``, else None."""
    if isinstance(v.owner, ir.Block):
        return None
    o = _op(v.owner)
    return o if o.name == name else None


def fat_root(v):
    """The buffer memref ``v`` views: the first ``amdgpu.fat_raw_buffer_cast`` result on
    its chain of views, else its root."""
    while not isinstance(v, ir.BlockArgument) and _op(v.owner).name in VIEW_OPS:
        if _op(v.owner).name == "amdgpu.fat_raw_buffer_cast":
            return v
        v = _op(v.owner).operands[0]
    return v


def bounds_checked(buf) -> bool:
    """Whether ``buf`` is (or views: :func:`fat_root`) an ``amdgpu.fat_raw_buffer_cast``
    with its range check on (no ``boundsCheck(false)``): a read outside its records reads
    zero, a store there is dropped."""
    cast = owner(fat_root(buf), "amdgpu.fat_raw_buffer_cast")
    return cast is not None and not (
        "boundsCheck" in cast.attributes and str(cast.attributes["boundsCheck"]) == "false")


def range_checked(buf) -> bool:
    """Whether ``buf`` is (not views) an ``amdgpu.fat_raw_buffer_cast`` range-checked by its
    own shape (:func:`bounds_checked`, no ``validBytes``): a read past its end reads zero."""
    cast = owner(buf, "amdgpu.fat_raw_buffer_cast")
    return cast is not None and bounds_checked(buf) and not (
        "operandSegmentSizes" in cast.attributes and segments(cast)[1])


def depends(v, values, seen: set | None = None) -> bool:
    """Whether ``v`` is computed from any of ``values`` (through the ops defining it):
    a set of values, or a predicate of a value."""
    seen = set() if seen is None else seen
    if values(v) if callable(values) else v in values:
        return True
    if isinstance(v.owner, ir.Block) or v in seen:
        return False
    seen.add(v)
    return any(depends(x, values, seen) for x in _op(v.owner).operands)


# ---------------------------------------------------------------------------------------------
# side effects
# ---------------------------------------------------------------------------------------------

def effects(op) -> list | None:
    """[(kind, value)] with kind 'read'/'write'/'alloc'/'free', from the op's
    MemoryEffectOpInterface; None when the op does not describe its effects (unknown)."""
    try:
        iface = ir.MemoryEffectsOpInterface(op)
    except (ValueError, TypeError, RuntimeError):
        return None
    out = []
    for e in iface.get_effects():
        kind = ("read" if e.effect == ir.MemoryEffect.Read else
                "write" if e.effect == ir.MemoryEffect.Write else
                "alloc" if e.effect == ir.MemoryEffect.Allocate else "free")
        out.append((kind, e.value))
    return out


def collapsed(root):
    """The memref ``root`` as one dimension (itself when it is one): a
    ``memref.collapse_shape`` right after its definition (at the top of its block for a
    block argument)."""
    mt = ir.MemRefType(root.type)
    if mt.rank == 1:
        return root
    flat_t = ir.MemRefType.get([int(np.prod(mt.shape))], mt.element_type,
                               memory_space=mt.memory_space)
    if isinstance(root.owner, ir.Block):
        where, loc = ir.InsertionPoint.at_block_begin(root.owner), _op(root.owner.owner).location
    else:
        where, loc = ir.InsertionPoint.after(_op(root.owner)), _op(root.owner).location
    with where, loc:
        i64 = ir.IntegerType.get_signless(64)
        reassoc = ir.ArrayAttr.get([ir.ArrayAttr.get(
            [ir.IntegerAttr.get(i64, d) for d in range(mt.rank)])])
        return ir.Operation.create("memref.collapse_shape", results=[flat_t], operands=[root],
                                   attributes={"reassociation": reassoc}).results[0]


def users_of(v) -> list:
    """The ops that use the value ``v``, once per use."""
    return [_op(u.owner) for u in v.uses]


def same_attributes(a, b) -> bool:
    """Ops ``a`` and ``b`` carry the same attributes (names and printed values)."""
    def printed(op) -> dict:
        return {(x if isinstance(x, str) else x.name):
                str(op.attributes[x] if isinstance(x, str) else x.attr) for x in op.attributes}
    return printed(a) == printed(b)


def is_pure(op) -> bool:
    """No memory effects according to MLIR (ops with regions: none here)."""
    if len(op.regions):
        return False
    e = effects(op)
    return e is not None and not e


#: ops that report no memory effects to MLIR but write nothing a global read could see
ORDERING_ONLY = ("gpu.barrier", "amdgpu.lds_barrier", "rocdl.s.barrier", "rocdl.s.waitcnt",
                  "amdgpu.memory_counter_wait", "rocdl.asyncmark", "rocdl.wait.asyncmark")


def writes_outside_lds(op, private: bool = False) -> bool:
    """Whether ``op`` may write memory other than LDS (with ``private``, nor the thread's
    private memory, which no other thread reads): it has regions (but an ``scf.if``, which
    writes what its branches' ops write: IREE's guarded loads), does not describe its
    effects (an op that only orders memory excepted), or writes another memory."""
    if op.name == "scf.if":
        return any(writes_outside_lds(_op(o), private) for r in op.regions
                   for b in r.blocks for o in b.operations)
    if len(op.regions):
        return True
    e = [] if op.name in ORDERING_ONLY else effects(op)
    return e is None or any(k == "write" and (v is None or not (
        in_lds(v) or private and in_space(v, "private"))) for k, v in e)


def check_read_movable(read, to, why: str) -> None:
    """Refuse (at ``read``) moving a read of global memory down to ``to``, an op after it in
    its block, unless nothing in between may write memory outside LDS (an op with regions,
    one that does not describe its effects, or a write to another memory); ``why`` says
    what the move is for."""
    block = [_op(o) for o in read.block.operations]
    if to not in block or block.index(to) < block.index(read):
        raise IRError(read, f"{describe(read)} cannot be moved to {describe(to)} ({why}): "
                            f"they are not in one block in that order")
    for o in block[block.index(read) + 1:block.index(to)]:
        if writes_outside_lds(o):
            raise IRError(read, f"{describe(read)} is moved to {describe(to)} ({why}), "
                                f"past {describe(o)}, which may write the memory it reads")


# ---------------------------------------------------------------------------------------------
# erasing what a rewrite left without uses
# ---------------------------------------------------------------------------------------------

def _unused(op) -> bool:
    """``op`` has results and none of them is used (a terminator never is unused)."""
    return len(op.results) > 0 and not any(list(r.uses) for r in op.results)


def erase_unused(ops: list) -> list:
    """Erase the ops of ``ops`` left without uses, users first (an op whose users were
    erased goes next); returns the ops kept, the very handles given.  Ops are compared only
    while alive: an erased op's handle must not be looked at again."""
    pending = list(dict.fromkeys(ops))
    changed = True
    while changed:
        changed = False
        for x in list(pending):
            if _unused(x):
                pending.remove(x)
                x.erase()
                changed = True
    return pending


def narrow_read(op, offset: int, width: int):
    """A ``vector.transfer_read`` of ``width`` elements of the one ``op`` (a
    ``vector.transfer_read``) reads, from its innermost index + ``offset``, with ``op``'s
    memref, padding, ``in_bounds`` and permutation map (unmasked), built at the current
    insertion point; its result."""
    vt = ir.VectorType(op.results[0].type)
    g = segments(op)
    mem, idx, pad = g[0][0], list(g[1]), g[2][0]
    if offset:
        idx[-1] = B.arith.addi(idx[-1], index_constant(offset))
    piece_t = ir.VectorType.get(list(vt.shape[:-1]) + [width], vt.element_type)
    attrs = {a: op.attributes[a] for a in ("in_bounds", "permutation_map")}
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(idx), 1, 0])
    return ir.Operation.create("vector.transfer_read", results=[piece_t],
                               operands=[mem] + idx + [pad], attributes=attrs).results[0]


def replace_masked_read(read, new, mask) -> None:
    """The masked read ``read`` replaced by ``new`` (an op built before it: its uses moved
    there) and erased, and with it the op computing its ``mask`` when nothing else uses
    the mask (the unmasked reads of :mod:`~pipeline_mlir.frontend.masks` and
    :mod:`~pipeline_mlir.frontend.kept_masks`)."""
    read.results[0].replace_all_uses_with(new.results[0])
    read.erase()
    if not list(mask.uses) and not isinstance(mask.owner, ir.Block):
        _op(mask.owner).erase()


def _pure_slice(values: list, block=None) -> list:
    """The side-effect free ops that compute ``values`` (theirs and their operands',
    transitively; ``block``: only ops of that block), each once."""
    ops, todo = {}, list(values)
    while todo:
        x = todo.pop()
        if isinstance(x.owner, ir.Block):
            continue
        o = _op(x.owner)
        if o in ops or (block is not None and o.block != block) or not is_pure(o):
            continue
        ops[o] = None
        todo.extend(o.operands)
    return list(ops)


def erase_dead(values: list, block=None) -> None:
    """Erase the side-effect free ops computing ``values`` (:func:`_pure_slice`) that are
    left without uses, users first."""
    erase_unused(_pure_slice(values, block))


def _pure_users(root) -> list:
    """The side-effect free ops that use ``root`` (a deallocation aside), theirs and their
    results' side-effect free users, transitively."""
    ops, todo = {}, [root]
    while todo:
        for u in todo.pop().uses:
            o = _op(u.owner)
            if o not in ops and o.name != "memref.dealloc" and is_pure(o):
                ops[o] = None
                todo.extend(o.results)
    return list(ops)


def in_use(v) -> bool:
    """Whether an op other than a deallocation uses ``v``: one with effects or a
    terminator, or a side-effect free op (a view) one of whose results is in use."""
    for u in v.uses:
        o = _op(u.owner)
        if o.name != "memref.dealloc" and (not is_pure(o) or not len(o.results) or
                                          any(in_use(r) for r in o.results)):
            return True
    return False


def is_buffer_root(v) -> bool:
    """``v`` is an LDS buffer itself: an attribution or a ``memref.alloc``."""
    return isinstance(v.owner, ir.Block) or _op(v.owner).name == "memref.alloc"


def erase_unused_buffer(root, attribution: bool = False) -> None:
    """Erase the side-effect free users of the buffer ``root`` left without uses (its dead
    views, :func:`_pure_users`) and, when nothing but deallocations uses it (of it or of
    its views, :func:`in_use`), the buffer with those and its views: a ``memref.alloc``,
    or a ``gpu.func`` workgroup attribution only when ``attribution`` (it is part of the
    kernel's signature: a caller that still holds the kernel's buffer values keeps it)."""
    erase_unused(_pure_users(root))
    if not is_buffer_root(root) or in_use(root):
        return
    if isinstance(root.owner, ir.Block) and not attribution:
        return
    _erase_users(root)      # deallocations, and views only deallocations use
    if isinstance(root.owner, ir.Block):
        _erase_attribution(root, root.owner)
    else:
        _op(root.owner).erase()


def _erase_users(v) -> None:
    """Erase every op that uses ``v``, each after the users of its results (the uses looked
    up again after each erasure: an op may use ``v`` twice)."""
    while list(v.uses):
        o = _op(list(v.uses)[0].owner)
        for r in o.results:
            _erase_users(r)
        o.erase()


def _erase_attribution(arg, block) -> None:
    """Drop a gpu.func workgroup attribution nothing uses any more (its LDS would otherwise
    stay declared, and shift where LLVM places the schedule's buffers)."""
    f = block.owner
    f = _op(f) if f is not None else None
    if f is None or f.name != "gpu.func" or list(arg.uses) or \
            "workgroup_attributions" not in f.attributes:
        return
    n_in = len(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).inputs)
    n_wg = ir.IntegerAttr(f.attributes["workgroup_attributions"]).value
    if not n_in <= arg.arg_number < n_in + n_wg:
        return
    block.erase_argument(arg.arg_number)
    set_attribute(f, "workgroup_attributions", ir.IntegerAttr.get(
        ir.IntegerType.get_signless(64), n_wg - 1))


def next_op(op):
    """The op after ``op`` in its block (a loop always has one: the block's terminator)."""
    ops = [_op(o) for o in op.block.operations]
    return ops[ops.index(op) + 1]


def grown_loop(loop, inits: list):
    """A new ``scf.for`` before ``loop`` with its bounds and ``iter_args`` and ``inits``
    after them, ``loop``'s body moved into it (its block arguments replaced by the new
    loop's, its ``scf.yield`` still to be given the new values); ``loop`` is left empty,
    its results still in use."""
    with ir.InsertionPoint(loop), loop.location:
        new = B.scf.ForOp(*list(loop.operands)[:3], list(loop.operands)[3:] + list(inits))
        with ir.InsertionPoint(new.body):
            holder = B.scf.YieldOp([])
    body = loop.regions[0].blocks[0]
    for o in list(body.operations):
        _op(o).move_before(holder.operation)
    holder.operation.erase()
    for old, nw in zip(list(body.arguments), list(new.body.arguments)):
        old.replace_all_uses_with(nw)
    return new


def close_grown(loop, new, nexts: list) -> None:
    """Finish :func:`grown_loop`: ``new``'s ``scf.yield`` yields ``nexts`` after its own
    values, ``loop``'s results are replaced by ``new``'s first ones, ``loop`` is erased."""
    old_yield = _op(new.body.operations[-1])
    with ir.InsertionPoint(old_yield), loop.location:
        B.scf.YieldOp(list(old_yield.operands) + list(nexts))
    old_yield.erase()
    for old, nw in zip(loop.results, list(new.results)):
        old.replace_all_uses_with(nw)
    loop.erase()


# ---------------------------------------------------------------------------------------------
# the kernel around a loop
# ---------------------------------------------------------------------------------------------

def kernel_of(loop):
    """The ``gpu.func`` or ``func.func`` around ``loop``, None outside one
    (:func:`~pipeline_mlir.analysis.ir_facts.function_of`)."""
    return function_of(loop)


def check_built(op, rewrite: str) -> None:
    """The kernel around ``op`` (or the op itself, outside one) verified right after
    ``rewrite`` built ``op``, before the front end walks it or erases what it was built
    from: invalid IR there (a bug of the rewrite: a type the op does not take, a value that
    does not dominate its use) is an internal error at ``op`` naming the rewrite and the
    verifier's first message, not a crash of the bindings on the dangling value later."""
    top = kernel_of(op) or _op(op)
    try:
        top.verify()
    except ir.MLIRError as e:
        first = e.error_diagnostics[0] if e.error_diagnostics else None
        where = location_text(first.location)[0] if first else ""
        where = "line " + where[2:] if where.startswith("-:") else where
        what = f"{first.message} (at {where})" if first else str(e)
        raise IRError(op, f"internal error: {rewrite} built invalid IR: {what}; please "
                          f"report it") from None


#: the ops that allocate LDS in a kernel's body (an ``alloca`` too, in workgroup memory)
LDS_ALLOCS = ("memref.alloc", "memref.alloca")
#: the ops :func:`declared_lds` walks for: allocations and uses of a global
_DECLARING = frozenset(LDS_ALLOCS + ("memref.get_global",))


def declared_lds(kernel) -> list[tuple[tuple, int]]:
    """Every LDS buffer ``kernel`` (a ``gpu.func`` or ``func.func``) declares, as
    ``(values, bytes)``: ``values`` the SSA values that name it, ``bytes`` its size.  Each
    is counted once: a workgroup ``memref.alloc`` (or ``alloca``), a ``gpu.func``'s
    ``workgroup(...)`` attribution, and a workgroup ``memref.global`` the kernel reads
    through ``memref.get_global`` (its uses of one symbol are one buffer).  LLVM gives each
    its own LDS, so the front end's budgets count them all.  An allocation of a size known
    only at run time counts at a proven upper bound of its size (the front end also gives
    one in the K-loop that constant bound before the partition counts,
    ``frontend/lds_bounds.py``); one with no such bound is an ``IRError`` at the
    allocation: a budget that left it out could pass a kernel over the LDS."""
    if kernel is None:      # (a loop outside any function: no kernel, no LDS)
        return []
    out = []
    for v in _attributions(kernel):
        out.append(((v,), _lds_size(v)))
    globals_: dict = {}
    for o in walk_ops(kernel, lambda x: x.name in _DECLARING):
        v = o.results[0]
        if not in_lds(v):
            continue
        if o.name == "memref.get_global":
            globals_.setdefault(str(o.attributes["name"]), []).append(v)
            continue
        out.append(((v,), _lds_size(v)))
    for uses in globals_.values():
        out.append((tuple(uses), _lds_size(uses[0])))
    return [(values, n) for values, n in out if n is not None]


def lds_bytes(kernel, without=()) -> int:
    """The bytes of :func:`declared_lds` of ``kernel`` but the buffers named by a value of
    ``without`` (those the front end replaces or puts elsewhere)."""
    skip = set(without)
    return sum(n for values, n in declared_lds(kernel) if not skip.intersection(values))


def other_lds(loop, roots) -> int:
    """The bytes of :func:`lds_bytes` of ``loop``'s kernel but ``roots`` (the buffers the
    front end replaces or puts elsewhere)."""
    return lds_bytes(kernel_of(loop), roots)


def lds_left(kernel, without=()) -> int:
    """The LDS bytes of a workgroup that :func:`lds_bytes` leaves (negative: over)."""
    return gfx950.LDS_BYTES - lds_bytes(kernel, without)


def _attributions(kernel) -> list:
    """The ``workgroup(...)`` attributions of a ``gpu.func`` (none for a ``func.func``):
    the entry block's arguments after the function's inputs."""
    if kernel.name != "gpu.func" or "workgroup_attributions" not in kernel.attributes:
        return []
    n_in = len(ir.FunctionType(ir.TypeAttr(kernel.attributes["function_type"]).value).inputs)
    n_wg = ir.IntegerAttr(kernel.attributes["workgroup_attributions"]).value
    return list(kernel.regions[0].blocks[0].arguments)[n_in:n_in + n_wg]


def in_space(v, space: str) -> bool:
    """``v`` is a memref in memory ``space`` (:func:`~pipeline_mlir.analysis.ir_facts.
    memory_space`'s names); False for any other value."""
    try:
        return memory_space(v.type) == space
    except Exception:
        return False


def in_lds(v) -> bool:
    """``v`` is a memref in LDS (workgroup memory); False for any other value."""
    return in_space(v, "workgroup")


def _lds_size(v) -> int | None:
    """The bytes of LDS buffer ``v``: for a size known only at run time, at its proven
    upper bound (:func:`_size_bound`); an ``IRError`` at the allocation when a size has
    none (the budget cannot count it).  None for a buffer of no allocation op."""
    t = ir.MemRefType(v.type)
    shape = list(t.shape)
    if not t.has_static_shape:
        alloc = None if isinstance(v.owner, ir.Block) else _op(v.owner)
        if alloc is None or alloc.name not in LDS_ALLOCS:
            return None
        sizes = list(alloc.operands)[:sum(d == DYNAMIC for d in shape)]
        bounds = iter([_size_bound(x) for x in sizes])
        shape = [next(bounds) if d == DYNAMIC else d for d in shape]
        if None in shape:
            raise IRError(alloc, f"{describe(alloc)} allocates workgroup memory (LDS) of a "
                                 f"size known only at run time with no upper bound the front "
                                 f"end can prove (a constant, or arith.minui / affine.min of "
                                 f"one): the kernel's LDS budget cannot count it; give it a "
                                 f"constant size or bound it by one")
    n = 1
    for d in shape:
        n *= d
    return n * element_bytes(t)


def _size_bound(v) -> int | None:
    """A proven upper bound of the dynamic size ``v`` of an allocation: its unsigned range's
    (:func:`~pipeline_mlir.analysis.index_bounds.unsigned_bounds`), else
    :func:`constant_bound`'s (a negative size allocates nothing); None when there is none."""
    r = unsigned_bounds(v)
    if r is not None:
        return r[1]
    b = constant_bound(v)
    return None if b is None else max(0, b)


def constant_bound(v) -> int | None:
    """A constant ``b`` with ``v <= b`` (signed) on every execution, or None: a constant, the
    least constant result of an ``affine.min``, the least bound of an ``arith.minsi`` /
    ``arith.minui`` operand (the LDS tile sizes IREE writes, ``lds_bounds.py``)."""
    if isinstance(v.owner, ir.Block):
        return None
    op = _op(v.owner)
    if op.name in ("arith.constant", "index.constant"):
        try:
            return ir.IntegerAttr(op.attributes["value"]).value
        except (KeyError, ValueError, TypeError):
            return None
    if op.name == "affine.min":
        m = ir.AffineMapAttr(op.attributes["map"]).value
        found = [e.value for e in m.results if isinstance(e, ir.AffineConstantExpr)]
        return min(found) if found else None
    if op.name in ("arith.minsi", "arith.minui"):
        found = [b for b in map(constant_bound, op.operands) if b is not None and
                 (op.name == "arith.minsi" or b >= 0)]
        return min(found) if found else None
    return None


def zero_vector(t):
    """A new ``arith.constant`` of vector type ``t``, every element 0 (integer or float), at
    the current insertion point."""
    et = ir.VectorType(t).element_type
    z = ir.IntegerAttr.get(et, 0) if isinstance(et, ir.IntegerType) else ir.FloatAttr.get(et, 0.0)
    return B.arith.constant(t, ir.DenseElementsAttr.get_splat(ir.VectorType(t), z))


def fat_raw_view(buf, point, loc, cache: dict):
    """``buf`` (a global memref) as a fat raw buffer: an ``amdgpu.fat_raw_buffer_cast``
    with ``resetOffset`` (its range the buffer's), inserted at ``point`` with location
    ``loc`` once per buffer (``cache``: buffer -> cast); shape, element type and layout
    kept."""
    if buf not in cache:
        t = ir.MemRefType(buf.type)
        ft = ir.MemRefType.get(t.shape, t.element_type, t.layout, ir.Attribute.parse(
            "#amdgpu.address_space<fat_raw_buffer>"))
        with point, loc:
            cache[buf] = B.amdgpu.fat_raw_buffer_cast(buf, reset_offset=True, results=[ft])
    return cache[buf]


#: the bytes a buffer load's 32-bit offset reaches
OFFSET_LIMIT = 2 ** 31


def zero_end(src, ev) -> tuple[int, int] | None:
    """(one past the last element of the buffer a copy's source ``src`` views, one past the
    last a buffer load's 32-bit offset reaches), in elements of the root ``ev``'s views
    index (:meth:`~pipeline_mlir.analysis.loop_eval.Evaluator.view`, as the copies' reads
    are), when a read past the first reads zero: ``src`` views (through casts and views)
    an ``amdgpu.fat_raw_buffer_cast`` of static row-major shape at offset 0, range-checked
    by that shape (:func:`range_checked`), whose start
    lies at one root element in every thread (a cast of a view at an offset into a bigger
    buffer ends that offset past its own shape: the elements between are the bigger
    buffer's data); else None."""
    root = fat_root(src)
    if memory_space(root.type) != "fat_raw_buffer" or not range_checked(root):
        return None
    t = ir.MemRefType(root.type)
    if not t.has_static_shape or not dense_row_major(t) or t.get_strides_and_offset()[1]:
        return None
    start = ev.view(root).offset
    if not np.all(start == start[0]):
        return None
    return int(start[0]) + int(np.prod(t.shape)), int(start[0]) + OFFSET_LIMIT // element_bytes(t)
