"""``sched-unmask-loads``: a masked load of a range-checked buffer whose every dword is
wholly inside the buffer or wholly past its end made a plain load and a select.

A ``vector.maskedload`` that reaches LLVM becomes ``llvm.masked.load``, which the AMDGPU
back end scalarises: a branch and a load per element.  IREE's prefetch point keeps such
loads where a dispatch reads C (``C += A x B``) or an epilogue input at C's edge, a
thread's whole tile (``vector<64xf32>``, 32 of them in an f16 520x300 kernel): LLVM 22's
register coalescer then ran for minutes on the 2048 branches; and where a remainder step
reads A or B at M's or N's edge (``vector<8xf16>``: 8 ``buffer_load_ushort`` in 8 branches
each).  IREE's own build runs upstream ``amdgpu-maskedload-to-load`` there (after
``iree-llvmgpu-1d-vector-canonicalizations``), which this wheel does not register; this
pass does its rewrite for the loads where it needs no guard:

* the memref is a view of an ``amdgpu.fat_raw_buffer_cast`` whose range check is on (no
  ``boundsCheck(false)``), found through the view ops between them;
* each dword the plain load reads is wholly inside the buffer's records or wholly past
  them.  gfx950 range-checks a raw buffer access per dword: a dword any byte of which lies
  at or past ``num_records`` reads 0 whole (a ``vector<2xi32>`` read at byte 2 of a buffer
  of 4 bytes reads 0 into its first element), a narrower access (``buffer_load_ushort``)
  by its own bytes.  Elements of 32 bits or more are whole dwords (``f32``, ``i32``,
  ``f64``, ...).  Elements of 16 or 8 bits (``f16``, ``bf16``, ``i8``, the FP8 types) need
  the load's vector to be whole dwords, its first byte a multiple of 4 from the buffer's
  start and the buffer's records a multiple of 4 bytes: then the dwords the load reads
  start where the records' dwords do, and one holding a lane inside the records is inside
  whole.  The byte offset is the memref's static offset plus each index times its static
  stride, in element bytes; its low zero bits come from
  :func:`pipeline_mlir.analysis.twos.low_zeros` (constants, sums, products, ``min`` /
  ``max``, selects, remainders: an index built from a thread id times 8 is a multiple of
  8).  The records are the cast's ``validBytes``, or its memref's largest extent
  ``max(size_i * stride_i)`` in bytes (how ``fat_raw_buffer_cast`` lowers): static, or a
  dynamic size whose stride and element bytes make a multiple of 4 anyway.  The cast must
  put the buffer's start at the memref's element 0 (``resetOffset``, or an offset of 0);
* the mask is a prefix of the lanes (``vector.create_mask`` or ``vector.constant_mask``
  of one dimension, a splat constant, or an ``arith.select`` on one ``i1`` between two
  such masks, as a 2-D ``create_mask`` unrolls into rows: IREE's i8 ``C += A x B``
  491x125x320 prefetch point masks C's row r with ``select(r inside M, constant_mask
  [125], no lane)``): a masked lane lies after every kept one.  A lane the mask keeps at
  or past the buffer's start must read the same dword in the plain load, yet an access
  whose start lies before the buffer's start wraps its 32-bit offset and reads 0 in every
  dword, the ones inside the buffer too (a ``buffer_load_dwordx4`` at offset -8 reads
  0 at offsets 0 and 4); under a prefix mask that start is a kept lane's, a read before
  the memref's first element, which ``vector.maskedload`` leaves undefined.  Another mask
  (one keeping lanes 4 to 7 of a load at a row's start minus 4 elements) is left masked;
* ``vector.load`` of the same memref, indices and type, then ``arith.select`` of the mask
  between it and the pass-through: a lane the mask keeps reads what the masked load
  reads; a masked lane loads bytes inside the buffer (discarded by the select) or a dword
  past its end (zero, discarded too), never a fault.

A ``vector.store`` of the select into a private ``memref.alloca`` in the same block moves to
just after it when no op between them touches that alloca (through any view) or defines the
store's memref or indices: nothing else reads or writes the alloca in between, so the move
changes no value.  A tile read row by row into private memory (that kernel's 64x128 i32 C
tile, 64 ``vector<128xi32>`` rows per thread) otherwise reaches LLVM as every row's load
before any store, 8192 dwords live at once: LLVM 22's greedy register allocator took 62 s
of CPU on it (minutes on a loaded machine), 10 s with each store after its row.

A masked load of 8- or 16-bit elements whose dwords the analysis cannot place (fp8 rows of
271 bytes: a run may start anywhere in a dword) is guarded as upstream
``amdgpu-maskedload-to-load`` guards it (IREE's own build runs it; this wheel does not
register it): ``scf.if`` on whether the run crosses the buffer's end inside a dword (the
elements left from the load's first to the buffer's end, ``d``, fewer than the run's and
not a whole number of dwords: ``d < n and d % (4 / element bytes) != 0``, computed in 32
bits as IREE narrows it, a buffer's records being a 32-bit byte count), the masked load
in the ``then`` branch, marked ``amdgpu.buffer_maskedload_needs_mask`` (so that
``sched-fold-mask-guards`` folds a branch that never runs), the plain load and the select
in the ``else`` branch: away from the buffer's end every dword the plain load reads is
wholly inside the records (a lane the mask keeps reads what the masked load reads) or, past
the end, wholly outside (zero, discarded).  It needs the load's memref a view of static
strides and offset of a range-checked cast whose start is the memref's element 0 and whose
records are known (``validBytes`` a constant, or a static shape).  LLVM scalarises the
masked load left in the ``then`` branch (a branch and a load per element, run only near the
buffer's end) where, left unguarded, every such load was: the remainder K tile of fp8
``A x B^T`` 95x90x271 loaded its runs byte by byte, 32 ``buffer_load_ubyte`` in branches
(its whole kernel 3.4 times IREE's own in the emulator's measured cycles, against 0.68
times through IREE's lowering, which guards them).

Unlike upstream, the select is not in the ``else`` branch: both branches yield the loaded
vector bitcast to dwords (``vector<4xi32>`` for ``vector<8xbf16>``), and the select of the
mask comes after the ``scf.if``, on the vector cast back.  The masked load of the ``then``
branch keeps the pass-through in the lanes it masks, so selecting them again changes no
lane.  The select (and its cast) then moves down its block, past every op after it that
neither uses it nor does more than read memory (loads, ops without effects, other guards),
to before the first that does (a store, a barrier, an op with effects it does not state, a
loop).  A select in the branch uses the loaded registers there, so LLVM waited for each
guarded load inside its branch before the next one was issued: the peeled K tile of
IREE's bf16 batch 2 x 267x969x181 (4 guarded loads a thread, its loads issued ahead of the
pipelined loop) waited some 790 measured-table cycles four times in a row.  The dwords keep
LLVM from splitting an 8-bit vector yielded by a branch into its bytes (16 shifts in the
branch, the wait with them).  A vector that is not a whole number of dwords
(``vector<3xf16>``) keeps the select in the ``else`` branch.

A masked load under a mask that is not a prefix, or of another buffer, is left as it is.
It is part of the LLVM step, after IREE's tail and before ``sched-fold-mask-guards``, and
it never fails.
"""

from __future__ import annotations

import functools

from pipeline_mlir.analysis.ir_facts import DYNAMIC, constant_int, element_bytes, memory_space, \
    segments
from pipeline_mlir.analysis.twos import byte_offset_zeros, low_zeros, zeros_of
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op, walk_ops
from pipeline_mlir.frontend.kernel_ir import bounds_checked, effects, fat_root, next_op
from pipeline_mlir.passes._common import ModulePass, OpError
from pipeline_mlir.passes.fold_mask_guards import NEEDS_MASK

WORD_BITS = 32
#: low zero bits of a byte offset or count that is a whole number of dwords
DWORD_ZEROS = 2


def whole_words(t) -> bool:
    """Whether the vector type ``t``'s elements are whole 32-bit words."""
    bits = getattr(ir.VectorType(t).element_type, "width", None)
    return bits is not None and bits % WORD_BITS == 0


def _static(values) -> bool:
    return all(x != DYNAMIC for x in values)


def records_zeros(cast) -> int:
    """Low zero bits of the ``num_records`` (bytes) of ``amdgpu.fat_raw_buffer_cast``
    ``cast``, and 0 when the buffer's start is not its memref's element 0 (module
    docstring)."""
    t = ir.MemRefType(cast.results[0].type)
    strides, offset = t.get_strides_and_offset()
    if offset != 0 or not _static(strides):
        return 0
    if "operandSegmentSizes" in cast.attributes and segments(cast)[1]:
        return low_zeros(segments(cast)[1][0])
    eb = zeros_of(element_bytes(t))
    if t.rank == 0:
        return eb
    return eb + min((0 if n == DYNAMIC else zeros_of(n)) + zeros_of(s)
                    for n, s in zip(t.shape, strides))


def start_zeros(load) -> int:
    """Low zero bits of the byte offset of ``vector.maskedload`` ``load``'s first element
    from its memref's element 0 of offset 0 (0 when a stride or the offset is dynamic)."""
    t = ir.MemRefType(load.operands[0].type)
    strides, offset = t.get_strides_and_offset()
    if not _static([*strides, offset]):
        return 0
    memo: dict = {}
    terms = [byte_offset_zeros(i, t, memo) + zeros_of(s)
             for i, s in zip(load.operands[1:1 + t.rank], strides)]
    return min([zeros_of(offset) + zeros_of(element_bytes(t)), *terms])


def whole_dwords(load) -> bool:
    """Whether every dword a plain load in place of ``load`` (a masked load of 8- or
    16-bit elements of a range-checked fat buffer) reads is wholly inside the buffer's
    records or wholly past them (module docstring)."""
    t = ir.VectorType(load.results[0].type)
    bits = getattr(t.element_type, "width", None)
    if bits not in (8, 16) or (t.rank != 1 or t.shape[0] * bits % WORD_BITS):
        return False
    return start_zeros(load) >= DWORD_ZEROS and \
        records_zeros(_op(fat_root(load.operands[0]).owner)) >= DWORD_ZEROS


#: the ops whose 1-D mask keeps a prefix of the lanes
PREFIX_MASKS = ("vector.create_mask", "vector.constant_mask")


def _splat_mask(op) -> bool:
    """Whether ``op`` is an ``arith.constant`` splat of ``i1`` (no lane kept, or all)."""
    value = op.attributes["value"] if op.name == "arith.constant" else None
    return isinstance(value, ir.DenseElementsAttr) and value.is_splat


def prefix_mask(mask) -> bool:
    """Whether the 1-D mask ``mask`` keeps a prefix of the lanes (module docstring): a
    ``create_mask`` or ``constant_mask``, a splat constant (none or all), or an
    ``arith.select`` on one ``i1`` between two such masks."""
    if isinstance(mask.owner, ir.Block) or ir.VectorType(mask.type).rank != 1:
        return False
    op = _op(mask.owner)
    if op.name == "arith.select":
        cond, *arms = op.operands
        return isinstance(cond.type, ir.IntegerType) and all(prefix_mask(a) for a in arms)
    return op.name in PREFIX_MASKS or _splat_mask(op)


def unmaskable(root) -> list:
    """The ``vector.maskedload`` ops under ``root`` this pass rewrites (module docstring)."""
    return walk_ops(root, lambda o: o.name == "vector.maskedload"
                    and bounds_checked(o.operands[0]) and prefix_mask(o.operands[-2])
                    and (whole_words(o.results[0].type) or whole_dwords(o)))


def rewrite(load) -> None:
    """``load`` (one of :func:`unmaskable`) made a plain load and a select."""
    with ir.InsertionPoint(load), load.location:
        out = _plain_select(load)
    load.results[0].replace_all_uses_with(out.results[0])
    load.erase()
    _stores_after(out)


def _plain_select(load):
    """A plain ``vector.load`` of masked load ``load``'s memref and indices and the
    ``arith.select`` of its mask between that and its pass-through (at the insertion
    point); the select."""
    base, *rest = load.operands
    t = load.results[0].type
    plain = ir.Operation.create("vector.load", results=[t], operands=[base, *rest[:-2]])
    return ir.Operation.create("arith.select", results=[t],
                               operands=[rest[-2], plain.results[0], rest[-1]])


def _stores_after(op) -> None:
    """Each store of ``op``'s value into private memory moved to just after it, where it
    may move (:func:`_movable`)."""
    for use in list(op.results[0].uses):
        store = _op(use.owner)
        if store.name == "vector.store" and use.operand_number == 0 and _movable(store, op):
            store.move_after(op)


def _defined_by(v, ops) -> bool:
    return not isinstance(v.owner, ir.Block) and _op(v.owner) in ops


def _movable(store, value_op) -> bool:
    """Whether ``vector.store`` ``store`` of ``value_op``'s result into a private
    ``memref.alloca`` may move to just after ``value_op`` (module docstring): the same
    block, no op between them touching that alloca through any view, nor defining the
    store's memref or indices."""
    root = view_root(store.operands[1])
    if isinstance(root.owner, ir.Block) or _op(root.owner).name != "memref.alloca" or \
            memory_space(root.type) != "private" or store.block != value_op.block:
        return False
    ops = [_op(o) for o in value_op.block.operations]
    start, end = ops.index(value_op), ops.index(store)
    between = ops[start + 1:end]
    if end < start or any(_defined_by(v, between) for v in store.operands[1:]):
        return False
    return not any(walk_ops(o, lambda x: any(
        isinstance(v.type, ir.MemRefType) and view_root(v) == root for v in x.operands))
        for o in between)


def records_elements(cast) -> int | None:
    """The elements of ``amdgpu.fat_raw_buffer_cast`` ``cast``'s records when they are
    known and its start is its memref's element 0: ``validBytes`` a constant, else the
    static extent of its memref (``max(size_i * stride_i)``); None otherwise."""
    t = ir.MemRefType(cast.results[0].type)
    strides, offset = t.get_strides_and_offset()
    eb = element_bytes(t)
    if offset != 0 or not _static(strides):
        return None
    if "operandSegmentSizes" in cast.attributes and segments(cast)[1]:
        valid = constant_int(segments(cast)[1][0])
        return None if valid is None else valid // eb
    if not t.has_static_shape:
        return None
    return max((n * s for n, s in zip(t.shape, strides)), default=1)


def guardable(root) -> list:
    """``(load, records)`` for each ``vector.maskedload`` under ``root`` of 8- or 16-bit
    elements of a range-checked buffer under a prefix mask that :func:`unmaskable` left:
    its memref of static strides and offset, the records' elements known (module
    docstring)."""
    out = []
    for load in walk_ops(root, lambda o: o.name == "vector.maskedload"):
        t = ir.VectorType(load.results[0].type)
        mt = ir.MemRefType(load.operands[0].type)
        strides, offset = mt.get_strides_and_offset()
        if t.rank != 1 or getattr(t.element_type, "width", None) not in (8, 16) or \
                NEEDS_MASK in load.attributes or not _static([*strides, offset]) or \
                not bounds_checked(load.operands[0]) or not prefix_mask(load.operands[-2]):
            continue
        end = records_elements(_op(fat_root(load.operands[0]).owner))
        if end is not None:
            out.append((load, end))
    return out


def guard(load, end: int) -> None:
    """``load`` (one of :func:`guardable`, ``end`` its buffer's elements) put in the
    ``then`` branch of an ``scf.if`` on whether its run crosses the buffer's end inside a
    dword, a plain load in the ``else`` branch, the select of the mask after the ``scf.if``
    (module docstring)."""
    base, *rest = load.operands
    t = load.results[0].type
    strides, offset = ir.MemRefType(base.type).get_strides_and_offset()
    n = ir.VectorType(t).shape[0]
    per_word = WORD_BITS // ir.VectorType(t).element_type.width
    i32 = ir.IntegerType.get_signless(32)

    def const(v: int):
        return B.arith.constant(i32, ir.IntegerAttr.get(i32, v))
    with ir.InsertionPoint(load), load.location:
        # (in 32 bits, as IREE narrows it: a buffer's records are a 32-bit byte count, and
        # 32-bit arithmetic is what the ISA check's lane values evaluate)
        narrow = [(B.arith.index_cast(i32, i), s) for i, s in zip(rest[:-2], strides) if s]
        terms = [i if s == 1 else B.arith.muli(i, const(s)) for i, s in narrow] + \
            ([const(offset)] if offset else [])
        first = functools.reduce(B.arith.addi, terms) if terms else const(0)
        left = B.arith.subi(const(end), first)
        near = B.arith.cmpi(B.arith.CmpIPredicate.ult, left, const(n))
        cut = B.arith.cmpi(B.arith.CmpIPredicate.ne, B.arith.remui(left, const(per_word)),
                           const(0))
        words = _word_type(t)
        branch = B.scf.IfOp(B.arith.andi(near, cut), [words or t], has_else=True)
    uses = [(_op(u.owner), u.operand_number) for u in load.results[0].uses]
    with ir.InsertionPoint(branch.then_block), load.location:
        B.scf.YieldOp([_as(words, load.results[0])])
    load.move_before(_op(branch.then_block.operations[0]))
    load.attributes[NEEDS_MASK] = ir.UnitAttr.get()
    with ir.InsertionPoint(branch.else_block), load.location:
        if words is None:       # (not whole dwords: the select stays in the branch)
            B.scf.YieldOp([_plain_select(load).results[0]])
        else:
            plain = ir.Operation.create("vector.load", results=[t],
                                        operands=[base, *rest[:-2]])
            B.scf.YieldOp([_as(words, plain.results[0])])
    out = branch
    if words is not None:
        with ir.InsertionPoint(next_op(branch.operation)), load.location:
            value = _as(t, branch.results[0])
            out = ir.Operation.create("arith.select", results=[t],
                                      operands=[rest[-2], value, rest[-1]])
    for user, k in uses:
        user.operands[k] = out.results[0]
    if words is not None:
        _sink(out)
        _op(value.owner).move_before(out)
    _stores_after(out)


def _word_type(t):
    """The vector of ``i32`` as wide as vector type ``t``, or None when ``t`` is not a
    whole number of dwords."""
    vt = ir.VectorType(t)
    bits = vt.shape[0] * vt.element_type.width
    if bits % WORD_BITS:
        return None
    return ir.VectorType.get([bits // WORD_BITS], ir.IntegerType.get_signless(WORD_BITS))


def _as(t, v):
    """``v`` bitcast to vector type ``t`` (``v`` itself when ``t`` is None or its type)."""
    if t is None or v.type == t:
        return v
    return B.vector.bitcast(t, v)


def _sink(op) -> None:
    """``op`` (the select after a guard, pure) moved down its block past the ops after it
    that neither use its result nor do more than read memory (loads, pure ops, other
    guards), so that LLVM issues the loads after it before waiting for the guard's load
    (module docstring)."""
    v, last = op.results[0], None
    for o in _after(op):
        if walk_ops(o, lambda x: any(u == v for u in x.operands)) or not _reads_only(o):
            break
        last = o
    if last is not None:
        op.move_after(last)


def _after(op) -> list:
    """The ops after ``op`` in its block but its terminator."""
    ops = [_op(o) for o in op.block.operations]
    return ops[ops.index(op) + 1:-1]


def _reads_only(op) -> bool:
    """Whether ``op`` at most reads memory: it states its effects and they are reads
    (none: a pure op), or it is an ``scf.if`` whose ops are such (a guard)."""
    if op.name == "scf.if":
        return all(_op(x).name == "scf.yield" or _reads_only(_op(x)) for r in op.regions
                   for b in r.blocks for x in b.operations)
    if len(op.regions):
        return False
    e = effects(op)
    return e is not None and all(k == "read" for k, _ in e)


class UnmaskLoads(ModulePass):
    """Every masked load of a range-checked buffer whose dwords are wholly inside or
    wholly past its records a load and a select."""

    name = "sched-unmask-loads"
    summary = ("a vector.maskedload of a range-checked fat_raw_buffer whose dwords are "
               "wholly inside or wholly past the buffer's records (32-bit or wider "
               "elements; 16- or 8-bit ones at a byte offset and of a buffer size that are "
               "whole dwords) under a prefix mask made a vector.load and an arith.select "
               "(LLVM scalarises the masked load: a branch per element); its store into "
               "private memory moved next to it; other 8- and 16-bit ones guarded as "
               "upstream amdgpu-maskedload-to-load guards them (the masked load kept only "
               "where the run crosses the buffer's end inside a dword), the select after the "
               "guard, moved down past the loads after it")

    def run(self, module) -> list[OpError]:
        with module.context, ir.Location.unknown():
            for load in unmaskable(module):
                rewrite(load)
            for load, end in guardable(module):
                guard(load, end)
        return []
