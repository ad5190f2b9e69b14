"""A tile staged row by row through a private buffer and read back element by element,
each element read from its source instead.

IREE's late form of a ``C +=`` kernel whose C the tile cuts (f16 257x129x512, say) reads
C's initial values so: every thread loads the whole workgroup tile of C, one masked row
at a time (``scf.if %false`` of a ``vector.maskedload`` and of a ``vector.load`` selected
against the pad: IREE's lowering of one masked read), writes each row to a
``memref.alloca`` of the private space (``vector.store %row_c, %p[c, 0]``), and then reads
back its own accumulators' elements at indices that depend on the thread
(``vector.load %p[%i, %j] : vector<1xf32>``).  That is 64 rows of 128 words per thread
for the 32 it keeps; LLVM cannot promote a buffer indexed by the thread, keeps the 32 KiB
in scratch and spills thousands of registers around the loads (two minutes of code
generation, IREE's own build as much as the pipelined one).

:func:`forward_private_rows` reads each such element from C directly: the element
``(i, j)`` of row ``c`` is ``mask_c[j] ? G[r_c, col + j] : pad``, and when the rows are one
pattern in ``c`` it is that pattern at ``c = i``:

* every use of the buffer (a private ``memref.alloca`` of a static ``R x W`` shape) is a
  ``vector.store`` of a whole row at the constant index ``[c, 0]``, each row
  ``0 <= c < R`` written once, or a ``vector.load`` of one element after all the stores,
  all in one block, at indices proven inside the buffer (``unsigned_bounds``);
* each row is read from one global buffer ``G`` at ``[r_c, col]`` with one column index
  ``col`` and one constant splat pad, as a ``vector.maskedload``, an ``arith.select`` of a
  ``vector.load`` against the pad, or an ``scf.if`` choosing between the two (both read
  the same masked row);
* its row ``r_c`` is ``B + c`` for one ``B`` (``B`` itself at ``c = 0``; an
  ``arith.index_castui`` of it taken alike; the constant ``c`` where the tile starts at
  C's row 0), rows from some ``R0 > 0`` on may instead be stored as the pad (rows past
  C's last: a tile of 64 rows over M = 41; the element is then read only where ``i <
  R0``), and its mask ``mask_c`` is one
  ``vector.create_mask %n`` (or ``vector.constant_mask [n]``, where the columns left are
  the same in every workgroup: i8 ``C += A x B`` 491x125x320; or the ``arith.constant``
  of its bits, true in lanes ``0 .. n - 1`` only, as IREE folds it where the grid is one
  workgroup: bf16 ``C += A x B`` 64x56x352) or that mask selected
  against all-false by
  ``arith.cmpi pred, L, c`` for one ``pred`` and ``L``; or, where N is one tile, the row
  is read whole (``n`` the row's width: a plain ``vector.load``, a constant all-true
  mask, or that ``cmpi`` broadcast to the row);
* no op between the first row's read (a selected row's plain load) and the last element
  read may write memory other than the buffer (the element is read where the thread read
  it back: the same C); where a barrier lies between them, no op from the last element
  read to the next barrier may write memory outside LDS either (the other threads, let
  past that barrier, no longer wait for this one's reads of C).

At the prefetch point the tile is one ``vector.transfer_read`` of a unit-stride
``memref.subview`` of ``G`` at ``[o0, o1]``, masked by ``vector.create_mask a, b`` and
padded with zero (where the grid is one workgroup, IREE folds both: a read of ``G`` itself
at ``[0, 0]`` masked by ``vector.constant_mask [a, b]``, bf16 ``C += A x B^T`` 128x100x400),
written whole to the buffer, and read back by in-bounds, unmasked
``vector.transfer_read`` ops of the buffer or of a ``memref.expand_shape`` of it, each of
fewer elements than the buffer holds (at most :data:`MAX_ELEMENTS`): element ``(r, c)`` is
``r < a and c < b ? G[o0 + r, o1 + c] : 0``, each read rebuilt from one load per element.
That is the buffer's element only inside the view, so a read back's ``in_bounds`` is not
taken on trust: each index, evaluated for every thread of the workgroup from the thread
ids and constants alone, plus the vector's size along it, must lie in its dimension
(:func:`_read_inside`); a read back not shown so is left as written.
A buffer used inside a loop (a copy of the K-loop staged through private memory) is left
to :mod:`~pipeline_mlir.frontend.private_values` and
:mod:`~pipeline_mlir.frontend.private_stage`, as is one read back whole.

The pad must be zero and ``G`` a range-checked buffer of a static row-major shape (an
``amdgpu.fat_raw_buffer_cast``): the element is then read at ``ok ? [r(i), col + j] :
[rows, 0]``, with ``r(i)`` computed as the rows compute theirs and ``ok`` the row's
condition at ``i`` (``pred L, i``, or ``i`` one of the rows read unconditionally) and
``j < n``; a masked-off element reads zero just past the buffer's end.  So the thread
reads only what its masked rows read (the row's plain load, which reads the whole row
and selects, would read elements of other workgroups' tiles, a race once they are
stored).  Anything else is left as it is (exact, only slow).  No refusal: the rewrite
only replaces what it proves equal.
"""

from __future__ import annotations

import math

from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.analysis.ir_facts import (block_size, constant_int, constant_trips,
                                             dense_row_major, enclosing_ops, memory_space,
                                             segments, splat_mask, zero_bits)
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, index_constant, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.constant_masks import prefix_lanes
from pipeline_mlir.frontend.kernel_ir import (ORDERING_ONLY, effects, erase_dead, kernel_of,
                                             owner, range_checked, writes_outside_lds)
from pipeline_mlir.frontend.private_stage import whole_access


def forward_private_rows(kernel) -> None:
    """Forward every private buffer of ``kernel`` that stages a tile row by row for reads
    of single elements (module docstring); the others are left."""
    if kernel is None:
        return
    for alloca in walk_ops(kernel, lambda o: o.name == "memref.alloca"):
        if any(_in_loop(_op(u.owner)) for u in alloca.results[0].uses):
            continue        # (a copy staged in the K-loop: private_values, private_stage)
        plan = _plan(alloca)
        if plan is not None:
            _rewrite(alloca, *plan)
            continue
        plan = tile_plan(alloca)
        if plan is not None:
            rewrite_tile(alloca, *plan)


def _in_loop(op) -> bool:
    """Whether ``op`` lies inside an ``scf.for`` or ``scf.while``."""
    return any(p.name in ("scf.for", "scf.while") for p in enclosing_ops(op))


def _splat(v):
    """The scalar attribute of constant splat vector ``v``, else None."""
    c = owner(v, "arith.constant")
    if c is None or not isinstance(c.attributes["value"], ir.DenseElementsAttr):
        return None
    attr = ir.DenseElementsAttr(c.attributes["value"])
    return attr.get_splat_value() if attr.is_splat else None


def _masked_row(v) -> tuple | None:
    """``(G, row, col, mask, pad)`` of a row read as a masked load, a select of a plain
    load against the pad, or an ``scf.if`` of the two reading the same; else None."""
    if isinstance(v.owner, ir.Block):
        return None
    o = _op(v.owner)
    if o.name == "vector.maskedload" and len(o.operands) == 5:
        g, row, col, mask, pad = o.operands
        return (g, row, col, mask, pad) if _splat(pad) is not None else None
    if o.name == "arith.select":
        load = owner(o.operands[1], "vector.load")
        if load is None or len(load.operands) != 3 or _splat(o.operands[2]) is None:
            return None
        g, row, col = load.operands
        return g, row, col, o.operands[0], o.operands[2]
    if o.name == "vector.load" and len(o.operands) == 3:
        return (*o.operands, FULL, None)        # (IREE's else-branch of a full row)
    if o.name != "scf.if" or len(o.results) != 1:
        return None
    sides = []
    for region in o.regions:
        ops = [_op(x) for x in region.blocks[0].operations]
        if not ops or ops[-1].name != "scf.yield":
            return None
        sides.append(_masked_row(ops[-1].operands[0]))
        if any(not _reads_only(x) for x in ops[:-1]):
            return None
    if None in sides:
        return None
    first, second = ([*r[:3], FULL if _all_true(r[3]) else r[3], r[4]] for r in sides)
    if first[:4] != second[:4] or (first[3] is not FULL and
                                   _splat(first[4]) != _splat(second[4])):
        return None
    return tuple(first if first[4] is not None else second)


#: the mask of a row read whole (a plain load, or a mask that is a constant all-true)
FULL = "full"


def _all_true(m) -> bool:
    """Whether mask ``m`` is :data:`FULL` or a constant all-true splat."""
    return m is FULL or splat_mask(m) is True


def _reads_only(op) -> bool:
    """An op with no regions that at most reads memory."""
    e = effects(op)
    return not len(op.regions) and e is not None and all(k == "read" for k, _ in e)


def _row_of(v, c: int) -> tuple | None:
    """``(cast, B)``: ``v`` is ``B + c`` (``B`` at ``c = 0``), through an
    ``arith.index_castui`` when ``cast``; else None."""
    cast = owner(v, "arith.index_castui")
    x = cast.operands[0] if cast is not None else v
    if constant_int(x) == c:
        return cast is not None, None       # (B folded: the tile's first row is 0)
    add = owner(x, "arith.addi")
    if add is not None and constant_int(add.operands[1]) == c:
        return cast is not None, add.operands[0]
    return (cast is not None, x) if c == 0 else None


def _mask_of(m, c: int) -> tuple | None:
    """``(n, cond)``: mask ``m`` is ``create_mask n`` (``cond`` None) or it selected
    against all-false by ``cond = (pred, L)``, ``arith.cmpi pred, L, c``; else None.
    A row read whole has ``n`` :data:`FULL`: a constant all-true mask, or ``cond``
    broadcast (IREE's late form where N is one tile)."""
    if _all_true(m):
        return FULL, None
    cast = owner(m, "vector.broadcast")
    cmp = None if cast is None else owner(cast.operands[0], "arith.cmpi")
    if cmp is not None and constant_int(cmp.operands[1]) == c:
        return FULL, (ir.IntegerAttr(cmp.attributes["predicate"]).value, cmp.operands[0])
    sel = owner(m, "arith.select")
    cond = None
    if sel is not None:
        cmp = owner(sel.operands[0], "arith.cmpi")
        zero = _splat(sel.operands[2])
        if cmp is None or constant_int(cmp.operands[1]) != c or zero is None or \
                not isinstance(zero, ir.BoolAttr) or zero.value:
            return None
        cond = (ir.IntegerAttr(cmp.attributes["predicate"]).value, cmp.operands[0])
        m = sel.operands[1]
    fixed = owner(m, "vector.constant_mask")
    if fixed is not None:       # the same columns left in every workgroup (N = 125 of 128)
        sizes = list(ir.DenseI64ArrayAttr(fixed.attributes["mask_dim_sizes"]))
        return (sizes[0], cond) if len(sizes) == 1 else None
    lanes = prefix_lanes(m)
    if lanes is not None:       # the same folded to its bits (one workgroup: 64x56 of 64x64)
        return lanes, cond
    create = owner(m, "vector.create_mask")
    if create is None or len(create.operands) != 1:
        return None
    return create.operands[0], cond


def _uses(p) -> tuple | None:
    """``(rows, reads)`` of private buffer ``p``: its row stores by row, its element loads
    in order (module docstring), all in one block; else None."""
    shape = ir.MemRefType(p.type).shape
    rows, reads, block = {}, [], None
    for use in p.uses:
        o = _op(use.owner)
        block = o.block if block is None else block
        if o.block != block:
            return None
        if o.name == "vector.store" and use.operand_number == 1 and len(o.operands) == 4 \
                and ir.VectorType(o.operands[0].type).shape == [shape[1]] \
                and constant_int(o.operands[3]) == 0:
            c = constant_int(o.operands[2])
            if c is None or c in rows or not 0 <= c < shape[0]:
                return None
            rows[c] = o
        elif o.name == "vector.load" and len(o.operands) == 3 and \
                ir.VectorType(o.results[0].type).shape == [1] and \
                all(_inside(x, n) for x, n in zip(o.operands[1:], shape)):
            reads.append(o)
        else:
            return None
    if sorted(rows) != list(range(shape[0])) or not reads:
        return None
    return rows, reads


def _inside(x, size: int) -> bool:
    """Index ``x`` proven in ``[0, size)`` in every run."""
    r = unsigned_bounds(x, threads=True)
    return r is not None and r[1] < size


def _plan(alloca) -> tuple | None:
    """``(rows, reads, pattern)`` when ``alloca`` stages a tile by rows of one pattern
    (module docstring), else None."""
    p = alloca.results[0]
    mt = ir.MemRefType(p.type)
    if memory_space(p.type) != "private" or not mt.has_static_shape or mt.rank != 2:
        return None
    uses = _uses(p)
    if uses is None:
        return None
    rows, reads = uses
    keys, conds, free, pad = set(), set(), [], None
    pads = sorted(c for c, st in rows.items() if owner(st.operands[0], "arith.constant"))
    for c, store in rows.items():
        if c in pads:
            continue
        row = _masked_row(store.operands[0])
        if row is None or row[4] is None:
            return None         # (a plain load alone: no pad to read the row's type from)
        g, r, col, m, pad = row
        base, mask = _row_of(r, c), _mask_of(m, c)
        if base is None or mask is None:
            return None
        keys.add((g, col, str(_splat(pad)), base, mask[0]))
        if mask[1] is None:
            free.append(c)
        else:
            conds.add(mask[1])
    if len(keys) != 1 or len(conds) > 1:
        return None
    g, col, _, base, n = keys.pop()
    if not _reads_zero_past_end(g) or not zero_bits(pad) or \
            not _unwritten(rows, reads):
        return None
    limit = pads[0] if pads else None       # (rows past C's last: a suffix, the pad)
    if pads and (pads != list(range(limit, len(rows))) or any(
            str(_splat(rows[c].operands[0])) != str(_splat(pad)) for c in pads)):
        return None
    return rows, reads, (g, col, base, n, conds.pop() if conds else None, pad, limit), free


def _reads_zero_past_end(g) -> bool:
    """Whether a read of ``g`` at row ``rows`` (its static row count), column 0 reads zero:
    a range-checked buffer of a static row-major 2-D shape at offset 0."""
    t = ir.MemRefType(g.type)
    return range_checked(g) and t.rank == 2 and t.has_static_shape and dense_row_major(t)


def _unwritten(rows: dict, reads: list) -> bool:
    """No op from the first row's read (a selected row's plain load among them) to the
    last element read writes memory other than the staging buffer, and every row store
    comes before every element read.  A barrier or a wait there only orders it (every
    thread runs the same ops, none of which writes the source), but a barrier lets the
    other threads past it before this one's element reads, which the source is then read
    at instead of before it: from the last element read to the next barrier, no op may
    write memory another thread could read (:func:`_quiet_until_barrier`)."""
    block = reads[0].block
    ops = [_op(o) for o in block.operations]
    where = {o: i for i, o in enumerate(ops)}
    values = [s.operands[0] for s in rows.values()]
    if any(isinstance(v.owner, ir.Block) for v in values):
        return False
    row_ops = {_op(v.owner) for v in values}
    row_ops |= {_op(o.operands[1].owner) for o in list(row_ops) if o.name == "arith.select"}
    if not all(o in where for o in [*rows.values(), *reads, *row_ops]):
        return False        # (all in one block)
    loads = [where[r] for r in reads]
    if max(where[s] for s in rows.values()) > min(loads):
        return False
    span = ops[min(where[o] for o in row_ops):max(loads) + 1]
    for o in span:
        if o in row_ops or o in rows.values() or o in reads or o.name in ORDERING_ONLY:
            continue
        e = effects(o)
        if len(o.regions) or e is None or any(k == "write" for k, _ in e):
            return False
    return not any(o.name in _BARRIERS for o in span) or \
        _quiet_until_barrier(ops[max(loads) + 1:]) is not False


#: the ops every thread of the workgroup waits at
_BARRIERS = ("gpu.barrier", "amdgpu.lds_barrier", "rocdl.s.barrier")


def _quiet_until_barrier(ops: list) -> bool | None:
    """Whether ``ops`` (in order) reach a barrier (True) before any writes memory outside
    LDS and the thread's private memory (False: an op with regions other than an
    ``scf.for`` counted as writing; a private write, a copy staged through registers,
    is seen by no other thread), or end
    without either (None); an ``scf.for`` looked into, its barrier reached when it runs
    at least once."""
    for o in ops:
        if o.name in _BARRIERS:
            return True
        if o.name == "scf.for":
            inner = _quiet_until_barrier([_op(x) for x in o.regions[0].blocks[0].operations])
            if inner is False:
                return False
            if inner and (constant_trips(o) or 0) > 0:
                return True
        elif writes_outside_lds(o, private=True):
            return False
    return None


def _rewrite(alloca, rows: dict, reads: list, pattern: tuple, free: list) -> None:
    """Each element read replaced by its read of the source (module docstring); the
    stores, the buffer and the rows' reads left unused erased."""
    g, col, (cast, base), n, cond, pad, limit = pattern
    for read in reads:
        with ir.InsertionPoint(read), read.location:
            one = ir.VectorType.get([1], ir.VectorType(pad.type).element_type)
            i, j = read.operands[1], read.operands[2]
            if base is None:                # (row c read at c)
                row = i
            else:
                ii = i if isinstance(base.type, ir.IndexType) else \
                    B.arith.index_cast(base.type, i)
                row = B.arith.addi(base, ii)
                if cast:
                    row = B.arith.index_castui(ir.IndexType.get(), row)
            width = index_constant(ir.VectorType(pad.type).shape[0])
            ok = B.arith.cmpi(B.arith.CmpIPredicate.slt, j, width if n is FULL else _as_index(n))
            if cond is not None:
                at_l = i if isinstance(cond[1].type, ir.IndexType) else \
                    B.arith.index_cast(cond[1].type, i)
                live = B.arith.cmpi(B.arith.CmpIPredicate(cond[0]), cond[1], at_l)
                for c in free:
                    at = B.arith.cmpi(B.arith.CmpIPredicate.eq, i, index_constant(c))
                    live = B.arith.ori(live, at)
                ok = B.arith.andi(ok, live)
            if limit is not None:
                ok = B.arith.andi(ok, B.arith.cmpi(B.arith.CmpIPredicate.slt, i,
                                                   index_constant(limit)))
            new = _element(g, _as_index(row), B.arith.addi(col, j), ok, one)
        read.results[0].replace_all_uses_with(new)
        read.erase()
    values = [s.operands[0] for s in rows.values()]
    for s in rows.values():
        s.erase()
    alloca.erase()
    ifs, rest = [], []
    for v in values:
        o = None if isinstance(v.owner, ir.Block) else _op(v.owner)
        (ifs if o is not None and o.name == "scf.if" else rest).append(o or v)
    for o in dict.fromkeys(ifs):
        if not any(list(r.uses) for r in o.results):
            operands = list(o.operands)
            o.erase()
            erase_dead(operands)
    erase_dead([o.results[0] for o in rest if not isinstance(o, ir.Value)])

def _element(g, row, col, ok, one):
    """``ok ? g[row, col] : 0`` as a ``vector.load`` of ``one`` (a vector of one element),
    built at the insertion point: masked off, the element just past the end of ``g``
    (:func:`_reads_zero_past_end`)."""
    at = [B.arith.select(ok, row, index_constant(ir.MemRefType(g.type).shape[0])),
          B.arith.select(ok, col, index_constant(0))]
    return B.vector.load(one, g, at)


def _as_index(v):
    """``v`` as an ``index`` (an ``arith.index_castui`` of it, or itself; a constant of an
    int)."""
    if isinstance(v, int):
        return index_constant(v)
    return v if isinstance(v.type, ir.IndexType) else \
        B.arith.index_castui(ir.IndexType.get(), v)


# ---------------------------------------------------------------------------------------------
# the prefetch point's form: the tile read whole, read back through an expand_shape view
# ---------------------------------------------------------------------------------------------

#: the most elements one read back is rebuilt from (one load each): a thread's accumulators,
#: which the read backs seed, fit in its 512 registers (gfx950's 256 VGPRs and 256 AccVGPRs
#: a lane); IREE's bf16 128x256 tile over 256 threads reads back 128 (finding 116)
MAX_ELEMENTS = 512


def tile_plan(alloca) -> tuple | None:
    """``(write, reads, (g, o0, o1, a, b))`` when ``alloca`` (``R x W``) is written once
    whole by a masked read of a subview ``S`` of ``g`` at ``[o0, o1]`` (mask
    ``create_mask a, b``, pad zero) and read back only by in-bounds, unmasked,
    identity transfer reads of it or of an ``expand_shape`` of it after the write
    (module docstring of the prefetch point's form); else None."""
    p = alloca.results[0]
    mt = ir.MemRefType(p.type)
    if memory_space(p.type) != "private" or not mt.has_static_shape or mt.rank != 2:
        return None
    writes, reads = [], []
    for use in p.uses:
        o = _op(use.owner)
        if o.name == "vector.transfer_write" and use.operand_number == 1 and \
                whole_access(o, mt.shape):
            writes.append(o)
        elif o.name == "memref.expand_shape" and use.operand_number == 0:
            groups = [list(ir.ArrayAttr(g)) for g in ir.ArrayAttr(o.attributes["reassociation"])]
            shape = ir.MemRefType(o.results[0].type).shape
            views = [(_op(u.owner), [[shape[ir.IntegerAttr(d).value] for d in g]
                                     for g in groups]) for u in o.results[0].uses]
            reads += views
        elif o.name == "vector.transfer_read" and use.operand_number == 0:
            reads.append((o, [[mt.shape[0]], [mt.shape[1]]]))
        else:
            return None
    if len(writes) != 1 or not reads or not all(_plain_read(r, dims) for r, dims in reads):
        return None     # (a whole read back is a value passed on: private_values)
    if not all(_read_inside(r, dims) for r, dims in reads):
        return None     # (its in_bounds not shown: the rewrite's element would be another)
    source = _masked_tile(writes[0].operands[0], mt.shape)
    if source is None or not _unwritten({0: writes[0]}, [r for r, _ in reads]):
        return None
    return writes[0], reads, source


def _plain_read(op, dims: list) -> bool:
    """``op`` an in-bounds, unmasked, identity ``vector.transfer_read`` of a view of
    ``dims`` (its dimensions by group) of at most :data:`MAX_ELEMENTS` elements, fewer
    than the buffer's."""
    shape = [d for g in dims for d in g]
    if op.name != "vector.transfer_read" or op.block is None:
        return False
    vt = ir.VectorType(op.results[0].type)
    n = math.prod(vt.shape)
    return vt.rank == len(shape) and n <= MAX_ELEMENTS and n < math.prod(shape) and \
        whole_access(op, vt.shape, at_zero=False)



def _read_inside(op, dims: list) -> bool:
    """Whether read back ``op`` of a view of ``dims`` lies inside that view in every thread
    of every workgroup, as its ``in_bounds`` says: each index, evaluated for every thread
    of the workgroup from the thread ids and constants alone (nothing sampled), plus the
    vector's size along that dimension, within the dimension's size.  The rewrite reads
    the element at the read's row and column of the tile (:func:`rewrite_tile`), which is
    the buffer's element only there; an index it cannot evaluate so is not shown."""
    kernel = kernel_of(op)
    size = None if kernel is None else block_size(kernel)
    if size is None:
        return False
    ev = Evaluator(size, thread_only=True)
    shape = [d for g in dims for d in g]
    try:
        values = [ev.value(x) for x in segments(op)[1]]
    except IRError:
        return False
    return all(v.min() >= 0 and v.max() + n <= d for v, n, d in
               zip(values, ir.VectorType(op.results[0].type).shape, shape))


def _masked_tile(v, shape) -> tuple | None:
    """``(g, o0, o1, a, b)``: ``v`` is a ``vector.transfer_read`` of a whole ``shape`` tile
    at ``[0, 0]`` of a unit-stride ``memref.subview`` of ``g`` at ``[o0, o1]`` (each a value,
    or an int where the subview states it: C's columns at 0 where N is one tile), masked by
    ``vector.create_mask a, b``, padded with zero; or of ``g`` itself, masked by
    ``vector.constant_mask [a, b]`` (``o0 = o1 = 0``, ``a`` and ``b`` ints: a grid of one
    workgroup, both folded by IREE); ``g`` reads zero past its end."""
    read = owner(v, "vector.transfer_read")
    if read is None:
        return None
    g = segments(read)
    if len(g) < 4 or len(g[3]) != 1 or not all(constant_int(i) == 0 for i in g[1]) or \
            not zero_bits(g[2][0]) or not whole_access(read, shape, masked=True):
        return None
    mask, sub = owner(g[3][0], "vector.create_mask"), owner(g[0][0], "memref.subview")
    if sub is None:             # one workgroup: C itself at [0, 0], the mask folded
        fixed = owner(g[3][0], "vector.constant_mask")
        sizes = [] if fixed is None else list(
            ir.DenseI64ArrayAttr(fixed.attributes["mask_dim_sizes"]))
        ok = len(sizes) == 2 and _reads_zero_past_end(g[0][0])
        return (g[0][0], 0, 0, *sizes) if ok else None
    if mask is None or len(mask.operands) != 2:
        return None
    sg = segments(sub)
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    static = list(ir.DenseI64ArrayAttr(sub.attributes["static_offsets"]))
    if len(static) != 2 or len(sg[1]) != static.count(dynamic) or \
            list(ir.DenseI64ArrayAttr(sub.attributes["static_strides"])) != [1, 1] or \
            not _reads_zero_past_end(sg[0][0]):
        return None
    dyn = iter(sg[1])
    offsets = [next(dyn) if o == dynamic else o for o in static]
    return (sg[0][0], *offsets, *mask.operands)



def rewrite_tile(alloca, write, reads: list, source: tuple) -> None:
    """Each read back rebuilt element by element from ``g`` (:func:`_element`), the write,
    the views, the buffer and the tile's read erased."""
    g, o0, o1, a, b = source
    with ir.InsertionPoint(write), write.location:
        o0, o1, a, b = (index_constant(o) if isinstance(o, int) else o
                        for o in (o0, o1, a, b))
    for read, dims in reads:
        vt = ir.VectorType(read.results[0].type)
        with ir.InsertionPoint(read), read.location:
            one = ir.VectorType.get([1], vt.element_type)
            base = segments(read)[1]
            elements = []
            for at in _offsets(vt.shape):
                q = [x if k == 0 else B.arith.addi(x, index_constant(k))
                     for x, k in zip(base, at)]
                r, c = (_linear(q[sum(len(d) for d in dims[:n]):][:len(dims[n])], dims[n])
                        for n in range(2))
                ok = B.arith.andi(B.arith.cmpi(B.arith.CmpIPredicate.slt, r, a),
                                  B.arith.cmpi(B.arith.CmpIPredicate.slt, c, b))
                e = _element(g, B.arith.addi(o0, r), B.arith.addi(o1, c), ok, one)
                elements.append(B.vector.extract(e, [], [0]))
            flat = B.vector.from_elements(
                ir.VectorType.get([len(elements)], vt.element_type), elements)
            new = B.vector.shape_cast(vt, flat)
        read.results[0].replace_all_uses_with(new)
        read.erase()
    views = {_op(u.owner) for u in alloca.results[0].uses} - {write}
    tile = write.operands[0]
    write.erase()
    for v in views:
        v.erase()
    alloca.erase()
    erase_dead([tile])


def _offsets(shape) -> list:
    """Every element's offsets in a vector of ``shape``, row-major."""
    out = [[]]
    for d in shape:
        out = [o + [k] for o in out for k in range(d)]
    return out


def _linear(q: list, dims: list):
    """The row-major linear index of ``q`` in ``dims``, built at the insertion point."""
    out = q[0]
    for x, d in zip(q[1:], dims[1:]):
        out = B.arith.addi(B.arith.muli(out, index_constant(d)), x)
    return out
