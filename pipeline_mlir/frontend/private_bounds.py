"""Private buffers indexed outside their bounds, refused at the access.

A ``memref.load``/``store`` of a private buffer (a memref of
``#gpu.address_space<private>``, or a view of a ``memref.alloca``) at an index that lies
outside the buffer's static size whenever it runs is undefined behaviour (upstream
``memref``), and so is a ``vector.transfer_read``/``transfer_write`` past it along a
dimension its ``in_bounds`` declares in bounds (upstream ``vector``: the tenth audit's
mutant of a bias read back from a 4x1 buffer at row 1 as a ``vector<4x1xf32>``, pipelined
and WRONG against its unpipelined build); a ``vector.load``/``store`` past its buffer's end
is target-specific upstream,
and what LLVM makes of it on gfx950 is not something the pipelined kernel can be held to
either: LLVM may drop the access, keep it on another private variable or on the registers
it promoted the buffer to, and the pipelined kernel need not do what the unpipelined one
happens to do (the mutation campaign found an accumulator kept in private memory, stored
at ``[.., 11, ..]`` of a dimension of 4: its two builds differed, and nothing said why).
The front end refuses such a kernel at the access (:func:`check_private_bounds`), naming
the dimension, the index's range and the size. A ``memref.subview`` of a private buffer
whose offset (with the elements its sizes and strides span) lies outside the buffer is
refused at the subview the same way (upstream ``memref``: a view past its source is
undefined behaviour; the thirty-sixth sweep's mutant of IREE's i8 ``C +=`` kernel took its
rows at ``%i + 16`` of a 4-row private view, and every access of the view lay in the view).

An index is out of bounds when :func:`~pipeline_mlir.analysis.index_bounds.
unsigned_bounds` proves it (with the elements a vector access spans along the dimension,
and the range of an ``scf.for`` induction variable of constant bounds inside its loop)
beyond the last element in every run, or when it is a negative constant. An index that
may or may not be out of bounds (a range over both) is left alone: the check refuses what
it sees is wrong, it does not prove accesses in bounds (the emulator's run of the code
LLVM emits sees the rest: an access outside the private segment is an ``out-of-range``
finding).

Accesses that never run are not looked at: the branch of an ``scf.if`` whose condition
is a constant that is not taken,
and the body of an ``scf.for`` of no iterations
(:func:`~pipeline_mlir.analysis.ir_facts.constant_trips` 0). Run-time guards are not:
an access under an ``scf.if`` on a value known only at run time is checked as if it ran
(an access that is out of bounds whenever it runs has no run in bounds to guard).
"""

from __future__ import annotations

from pipeline_mlir.analysis.index_bounds import unsigned_bounds
from pipeline_mlir.analysis.ir_facts import constant_int, constant_trips
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.attrs import memory_space_name
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op

#: the accesses checked: op name -> the position of the memref operand
ACCESSES = {"memref.load": 0, "memref.store": 1, "vector.load": 0, "vector.store": 1,
            "vector.transfer_read": 0, "vector.transfer_write": 1}
TRANSFERS = ("vector.transfer_read", "vector.transfer_write")


def _private(v) -> bool:
    """Memref value ``v`` is private memory: of the private space, or a view of an
    alloca (through :data:`~pipeline_mlir.analysis.views.VIEW_OPS`)."""
    if not isinstance(v.type, ir.MemRefType):
        return False
    if memory_space_name(v.type) == "private":
        return True
    root = view_root(v)
    return not isinstance(root.owner, ir.Block) and _op(root.owner).name == "memref.alloca"


def _spans(op, rank: int) -> list[int | None]:
    """The elements the access spans along each of the memref's ``rank`` dimensions: 1,
    and a vector access's vector shape along the innermost ones (all 1 when the memref's
    elements are vectors: the access is one of them); a transfer's, along the dimension
    its ``permutation_map`` sends each vector dimension to, where its ``in_bounds`` says so
    (None: a dimension it may read or write past, masked: not checked)."""
    out = [1] * rank
    if op.name in TRANSFERS:
        value = op.results[0] if op.name == "vector.transfer_read" else op.operands[0]
        shape = list(ir.VectorType(value.type).shape)
        amap = ir.AffineMapAttr(op.attributes["permutation_map"]).value
        flags = [ir.BoolAttr(b).value for b in ir.ArrayAttr(op.attributes["in_bounds"])] \
            if "in_bounds" in op.attributes else [False] * len(shape)
        for n, e, inside in zip(shape, amap.results, flags):
            if isinstance(e, ir.AffineDimExpr):
                out[e.position] = n if inside else None
        return out
    if op.name.startswith("vector.") and \
            not isinstance(ir.MemRefType(op.operands[ACCESSES[op.name]].type).element_type,
                           ir.VectorType):
        value = op.results[0] if op.name == "vector.load" else op.operands[0]
        shape = list(ir.VectorType(value.type).shape)
        for i, n in enumerate(reversed(shape)):
            if i < rank:
                out[rank - 1 - i] = n
    return out


def _condition(v) -> bool | None:
    """The value of ``scf.if`` condition ``v`` when constants define it, else None (an
    ``i1`` ``arith.constant`` holds a ``BoolAttr``, which :func:`constant_int` leaves)."""
    c = constant_int(v)
    if c is not None:
        return c != 0
    if isinstance(v.owner, ir.Block) or _op(v.owner).name != "arith.constant":
        return None
    attr = _op(v.owner).attributes["value"]
    return attr.value if isinstance(attr, ir.BoolAttr) else None


def _live_regions(op) -> list:
    """The regions of ``op`` that may run: an ``scf.if`` on a constant, only the branch it
    takes; an ``scf.for`` of no iterations, none (module docstring)."""
    regions = list(op.regions)
    if op.name == "scf.if":
        c = _condition(op.operands[0])
        if c is not None:
            return regions[:1] if c else regions[1:]
    if op.name == "scf.for" and constant_trips(op) == 0:
        return []
    return regions


def _accesses(op):
    """The ``ACCESSES`` and ``memref.subview`` ops under ``op`` that may run, in program
    order."""
    for region in _live_regions(op):
        for block in region.blocks:
            for o in block.operations:
                o = _op(o)
                if o.name in ACCESSES or o.name == "memref.subview":
                    yield o
                yield from _accesses(o)


def _outside(x, size: int, span: int) -> str | None:
    """The range of index ``x`` (an access spanning ``span`` elements from it; a value, or
    a subview's static offset) when it lies outside a dimension of ``size`` elements
    whenever it runs, as the message says it; else None (module docstring)."""
    if isinstance(x, int):
        return str(x) if x < 0 or x + span > size else None
    c = constant_int(x)
    if c is not None and c < 0:
        return str(c)
    r = unsigned_bounds(x, ivs=True)
    if r is None or r[0] + span <= size:
        return None
    return str(r[0]) if r[0] == r[1] else f"{r[0]}..{r[1]}"


def _subview_dims(op) -> list:
    """(offset, elements it spans) along each dimension of ``memref.subview`` ``op``'s
    source: a static offset as an int, a dynamic one as its value; the span (size - 1) x
    stride + 1, None where the size or the stride is dynamic (not checked)."""
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    values = iter(list(op.operands)[1:])
    offsets = [next(values) if o == dynamic else o
               for o in ir.DenseI64ArrayAttr(op.attributes["static_offsets"])]
    sizes = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
    strides = list(ir.DenseI64ArrayAttr(op.attributes["static_strides"]))
    return [(o, None if n < 0 or s == dynamic else 0 if n == 0 else (n - 1) * s + 1)
            for o, n, s in zip(offsets, sizes, strides)]


def _dims(op, mem) -> list:
    """(index, elements spanned) along each dimension of access or subview ``op`` of
    memref ``mem`` (:func:`_spans`, :func:`_subview_dims`)."""
    if op.name == "memref.subview":
        return _subview_dims(op)
    rank = ir.MemRefType(mem.type).rank
    at = ACCESSES[op.name]
    return list(zip(list(op.operands)[at + 1:at + 1 + rank], _spans(op, rank)))


def check_private_bounds(kernel) -> None:
    """An IRError at the first access (or subview) of a private buffer in ``kernel`` (a
    function op) whose index (offset) lies outside the buffer's static size whenever it
    runs (module docstring)."""
    if kernel is None:
        return
    for op in _accesses(_op(kernel)):
        mem = op.operands[ACCESSES.get(op.name, 0)]
        if not _private(mem):
            continue
        shape = list(ir.MemRefType(mem.type).shape)
        for d, (size, (x, span)) in enumerate(zip(shape, _dims(op, mem))):
            if size < 0 or span is None:     # a dynamic size, a masked transfer's dimension
                continue
            seen = _outside(x, size, span)
            if seen is not None:
                what = "" if span == 1 else f" (spanning {span} elements)"
                ub = "target-specific behaviour" if op.name.startswith("vector.") and \
                    op.name not in TRANSFERS else "undefined behaviour"
                does = "takes a view of" if op.name == "memref.subview" else "indexes"
                raise IRError(op, f"'{op.name}' op {does} dimension {d} of its private "
                                  f"buffer ({mem.type}) at {seen}{what}, outside its {size} "
                                  f"elements whenever it runs: {ub}, which the pipelined "
                                  f"kernel need not reproduce; the front end pipelines "
                                  f"kernels whose private accesses stay in their buffers")
