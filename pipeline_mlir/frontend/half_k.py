"""MFMAs halved along K, for a wave whose accumulators get too few MFMAs per K step.

The schedules keep two subtiles per operand.  A wave one fragment wide in an operand splits
that operand along K (:mod:`~pipeline_mlir.frontend.k_subtiles`), which needs an even chain
of MFMAs per accumulator and iteration, and the front end merges K steps into one K tile to
make one (:mod:`~pipeline_mlir.frontend.kmerge`).  A loop too short for the merge (IREE's
f16 32x512x96 and bf16 ``A^T x B`` 64x64x96: 3 K steps of one 16x16x32 MFMA per
accumulator, two pipelined and the odd one left to the remainder loop; a merge of 2 needs 4)
has neither.

:func:`halve_mfmas` gives it one: each f16 / bf16 MFMA of the loop becomes two MFMAs of
half its K (``16x16x32`` -> ``16x16x16``, ``32x32x16`` -> ``32x32x8``, gfx950 runs both at
their gfx942 rate), chained through the accumulator, the first multiplying the low half of
each lane's operand elements, the second the high half.  The halves are sound because the
two MFMAs lay K out the same way on both operands: in the deep form lane ``l`` holds K
``8q + e`` of its row (column) for element ``e`` (0..7, ``q = l // 16``; ``l // 32`` for the
32x32 forms), in the half form K ``4q + e`` (0..3), so the first half MFMA multiplies the
products of K ``8q + 0..3`` of both operands, the second those of ``8q + 4..7``: every
product of the deep MFMA once, in two sums (a float chain adds them in that order, as the
K split of :mod:`~pipeline_mlir.frontend.k_subtiles` does).  Each half operand is taken
from where its elements come from: a read of the fragment becomes two reads of 4 elements
(the second at the innermost index + 4), a fragment built from pieces
(``vector.insert_strided_slice``, ``vector.from_elements``) takes the pieces of its half;
anything else is refused and the loop keeps its refusal.  Each accumulator then gets two
MFMAs per K step, whose reads the K split can tell apart (a K bit of the element index).

Only the operand the K split cuts needs its halves read apart.  Where one operand is one
fragment per wave (``k_subtiles.one_fragment_wide``), it is split along K and the other by
accumulator, so both halves of the other's fragment go to one fragment load: it keeps its
whole read, each half MFMA taking a slice of it (``whole``).  Read as two adjacent 8-byte
reads, LLVM would merge them into one ``ds_read_b128`` the plan's reads and counted waits
know nothing of (the ISA gate refuses such a build: IREE's f16 ``A x B^T`` 192x256x48 with
a 32x32x16 MFMA in a 64x128 tile of 2x1 waves); whole, it is half the instructions.

The 8-bit floats' 16x16x128 (``f8E4M3FN``, ``f8E5M2``) has no MFMA of half its K on
gfx950; it is cut into 4 of gfx942's 16x16x32 instead, whose lane holds 8 of its row's
(column's) K where the deep form's holds 32, laid out alike on A and B: the ``j``-th takes
elements ``8j .. 8j + 7`` of each lane's operands, so the four add every product once
(IREE's 8-byte transposing reads of a ``K x M`` operand are those pieces).  The loop's mark
holds the pieces (2 or 4: :func:`pieces_of`).

A loop of one accumulator with a chain of 2 MFMAs per K step (IREE's f16 and bf16
``A^T x B^T`` 300x200x192: one wave of a 16x16 tile, 3 K steps of 64, 2 once the odd one
goes to the remainder loop, too few to merge 2 by 2) is halved the same way: its chain of 4
is the crosswise split's 4 runs, unmerged
(:func:`~pipeline_mlir.frontend.kmerge_factor.halves_to_parts`; the fp8 ones' chain of 2 cut into
4 gives 8, 2 per run: IREE's fp8 ``A^T x B`` 64x129x512).

gfx950's i8 16x16x64 and 32x32x32 are halved into gfx942's 16x16x32 and 32x32x16 i8, whose
lane holds 8 consecutive K elements of its row (column) where the deep form's holds 16,
laid out alike on A and B: the first takes elements 0 .. 7 of each lane's operands, the
second 8 .. 15 (integer sums: exact in any order).  IREE's i8 ``A^T x B^T`` 129x129x129
(2 K steps of one 16x16x64 each) is taken so, in the diagonal form
(:data:`~pipeline_mlir.frontend.marks.DIAGONAL_ATTR`): halved, its chain of 2 per K
step does not make the crosswise split's 4 runs, and 2 K steps do not merge.

The loop records it (``HALVED_ATTR``); the adopted loop's form and ``--emit=report`` say it
(:mod:`~pipeline_mlir.kernel.subtile_form`).  A halved loop that still does not partition
(one accumulator, both operands split along K crosswise: a chain of 4 wanted, 2 made) may
be merged 2 by 2 where it runs 4 to 7 K steps (:mod:`~pipeline_mlir.frontend.kmerge`; the
merged loop keeps the mark), never for time.
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import index_constant
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import transfer
from pipeline_mlir.frontend.kernel_ir import (at, erase_dead, erase_unused, mfma_variant,
                                              narrow_read)
from pipeline_mlir.frontend.marks import HALVED_ATTR, PIECE_ATTR

#: (m, n, k, the operands' element type) of the MFMAs cut along K -> (the pieces each is cut
#: into, their K): f16 / bf16 halved; the 8-bit floats' 16x16x128 cut into 4 of gfx942's
#: 16x16x32, whose lane holds 8 of the deep form's 32 elements the same way; i8's 16x16x64
#: and 32x32x32 halved into gfx942's 16x16x32 and 32x32x16
HALVES = {**{(16, 16, 32, e): (2, 16) for e in ("f16", "bf16")},
          **{(32, 32, 16, e): (2, 8) for e in ("f16", "bf16")},
          **{(16, 16, 128, e): (4, 32) for e in ("f8E4M3FN", "f8E5M2")},
          (16, 16, 64, "i8"): (2, 32), (32, 32, 32, "i8"): (2, 16)}


def halve_mfmas(scan, whole: str = "", mark_pieces: bool = False) -> str | None:
    """Halve every MFMA of ``scan``'s loop along K (module docstring), in place; None when
    done, else why not (nothing rewritten then).  ``whole`` (``"a"``, ``"b"``): the operand
    whose fragment reads stay whole, each MFMA taking its piece as a slice of the read
    (:func:`_whole_plan`).  ``mark_pieces``: each read of a piece made carries
    :data:`~pipeline_mlir.frontend.marks.PIECE_ATTR` (the fragment read it is a piece of,
    by number; its first element; its elements), for
    :mod:`~pipeline_mlir.frontend.half_join`."""
    mfmas = list(scan.mfmas)
    why = _unhalvable(mfmas)
    if why is not None:
        return why
    reads = {a.op.results[0]: a.op for a in scan.reads}
    halves: dict = {}
    plans = []
    for m in mfmas:
        pieces, _k = HALVES[_kind(m)]
        size = _elements(m.operands[0]) // pieces
        pair = []
        for side, v in zip("ab", m.operands[:2]):
            plan = [_plan(v, j * size, reads, size) for j in range(pieces)]
            if side == whole:
                plan = [_whole_plan(p) for p in plan]
            if any(p is None for p in plan):
                return (f"an operand of '{m.name}' op at {at(m)} is not made of fragment "
                        f"reads or pieces the front end can take "
                        f"{'half' if pieces == 2 else f'a {pieces}th'} of")
            pair.append(plan)
        plans.append((m, size, pair))
    old_reads = list(reads.values())
    pieces = HALVES[_kind(mfmas[0])][0]
    for m, size, (a, b) in plans:
        with ir.InsertionPoint(m), m.location:
            acc = m.operands[2]
            for pa, pb in zip(a, b):
                acc = _half_mfma(m, _build(pa, halves, size), _build(pb, halves, size), acc)
        m.results[0].replace_all_uses_with(acc)
    if mark_pieces:
        number = {r: n for n, r in enumerate(old_reads)}
        for (read, off), value in halves.items():
            read_of(value).attributes[PIECE_ATTR] = ir.DenseI64ArrayAttr.get(
                [number[read], off, _elements(value)])
    operands = [v for m in mfmas for v in list(m.operands)[:2]]
    for m in mfmas:
        m.erase()
    erase_dead(operands, scan.loop.regions[0].blocks[0])
    erase_unused(old_reads)
    scan.loop.attributes[HALVED_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                           pieces)
    return None


def cut_pieces(mfmas) -> int:
    """The pieces along K :func:`halve_mfmas` would cut each of ``mfmas`` into (2 where it
    has none: it refuses them then)."""
    return HALVES.get(_kind(mfmas[0]), (2,))[0] if mfmas else 2


def _kind(m) -> tuple:
    """(m, n, k, the operands' element type) of the MFMA ``m``."""
    return tuple(ir.IntegerAttr(m.attributes[k]).value for k in ("m", "n", "k")) + \
        (_element(m.operands[0]),)


def _element(v) -> str:
    """The element type of MFMA operand ``v``: a vector's, or the scalar's own (f32)."""
    t = v.type
    return str(t.element_type if isinstance(t, ir.VectorType) else t)


def pieces_of(loop) -> int:
    """The pieces along K each MFMA of ``loop`` was cut into (:data:`HALVED_ATTR`'s value: 2,
    or 4 for the 8-bit floats'), 1 for a loop not cut."""
    if HALVED_ATTR not in loop.attributes:
        return 1
    return ir.IntegerAttr(loop.attributes[HALVED_ATTR]).value


def _unhalvable(mfmas: list) -> str | None:
    """Why the MFMAs ``mfmas`` are not halved (a shape or element type without a half
    form, a block or broadcast variant), else None."""
    for m in mfmas:
        kind, t = _kind(m), m.operands[0].type
        if kind not in HALVES or t.rank != 1 or t.shape[0] % HALVES[kind][0]:
            return (f"'{m.name}' op at {at(m)} is a {'x'.join(map(str, kind[:3]))} MFMA of "
                    f"{kind[3]}, which the front end does not cut along K (it halves "
                    f"16x16x32 and 32x32x16 f16 / bf16 ones and 16x16x64 and 32x32x32 i8 "
                    f"ones and cuts the 8-bit floats' 16x16x128 into 4 of 16x16x32)")
        first = mfmas[0]
        if HALVES[kind][0] != HALVES[_kind(first)][0]:    # (the loop's mark holds one count)
            return (f"'{m.name}' op at {at(m)} would be cut into {HALVES[kind][0]} along K "
                    f"and '{first.name}' op at {at(first)} into {HALVES[_kind(first)][0]}; "
                    f"the front end cuts a loop's MFMAs into one number of pieces")
        b_el = _element(m.operands[1])
        if b_el != kind[3]:     # (gfx942's mixed fp8 x bf8 16x16x32: not tried here)
            return (f"'{m.name}' op at {at(m)} multiplies {kind[3]} by {b_el}; the front end "
                    f"cuts MFMAs whose operands are of one element type only")
        variant = mfma_variant(m)
        if variant is not None:
            return f"'{m.name}' op at {at(m)} {variant}"
    return None


# A plan of a half operand: ("read", read op, offset) a new read of 4 elements;
# ("elements", [scalar values]) a vector.from_elements; ("value", v, offset) a slice of v.

def _plan(v, off: int, reads: dict, size: int):
    """How to build elements ``off .. off + size`` of the fragment ``v`` from what it is
    made of, or None."""
    while True:
        if _elements(v) == size and off == 0:
            return ("value", v, None)          # a piece of the half's size: itself
        if v in reads:
            return _read_plan(reads[v], off, size)
        if isinstance(v.owner, ir.Block):
            return None
        o = _op(v.owner)
        if o.name == "vector.shape_cast" or (o.name == "vector.extract" and
                                             _elements(o.results[0]) == _elements(o.operands[0])):
            v = o.operands[0]
        elif o.name in ("arith.constant", "ub.poison"):
            return ("value", v, off)
        elif o.name == "vector.from_elements" and len(o.operands) == _elements(v):
            return ("elements", list(o.operands)[off:off + size])
        elif o.name == "vector.insert_strided_slice":
            at = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(o.attributes["offsets"])]
            start, n = at[-1], _elements(o.operands[0])
            if len(at) != 1:
                return None
            if start <= off and off + size <= start + n:
                v, off = o.operands[0], off - start
            elif off + size <= start or start + n <= off:
                v = o.operands[1]
            else:
                return None
        elif o.name == "vector.shuffle":
            picked = _shuffled(o, off, size)
            if picked is None:
                return None
            v, off = picked
        else:
            return None


def _shuffled(op, off: int, size: int):
    """(source, offset) whose elements ``offset .. offset + size`` the ``vector.shuffle``
    ``op`` puts at ``off .. off + size``, or None (the piece's elements not consecutive in
    one source; a shuffle of vectors of rank 2 or more, whose mask picks whole rows; a
    poison entry, -1, in the piece)."""
    if any(ir.VectorType(v.type).rank != 1 for v in op.operands):
        return None
    mask = list(ir.DenseI64ArrayAttr(op.attributes["mask"]))[off:off + size]
    n0 = ir.VectorType(op.operands[0].type).shape[0]
    if len(mask) != size or min(mask) < 0:
        return None
    first = mask[0]
    src, base = (0, first) if first < n0 else (1, first - n0)
    if mask != list(range(first, first + size)) or (src == 0 and first + size > n0):
        return None
    return op.operands[src], base


def _read_plan(read, off: int, size: int):
    """A read of the piece of fragment read ``read`` (a ``vector.load`` of a 1-D vector, or
    an unmasked minor-identity ``vector.transfer_read`` of one fragment) at ``off``, or
    None."""
    vt = ir.VectorType(read.results[0].type)
    if vt.shape[-1] % size or vt.shape[-1] == size or off + size > vt.shape[-1] or \
            any(d != 1 for d in vt.shape[:-1]):
        return None
    if read.name == "vector.transfer_read":
        access = transfer(read)
        if access.masked or not access.minor_identity:
            return None
    elif read.name != "vector.load":
        return None
    return ("read", read, off)


def _whole_plan(plan):
    """``plan`` with a piece of a fragment read taken as a slice of the read's value, the
    read kept whole (``None`` and other plans as they are)."""
    if plan is None or plan[0] != "read":
        return plan
    return ("value", plan[1].results[0], plan[2])


def _elements(v) -> int:
    n = 1
    for d in ir.VectorType(v.type).shape:
        n *= d
    return n


def _build(plan, halves: dict, size: int):
    """The vector<size> of ``plan`` (built before the MFMA being rewritten; a piece read
    once per read and piece, before its read)."""
    kind = plan[0]
    if kind == "elements":
        t = ir.VectorType.get([size], plan[1][0].type)
        return B.vector.from_elements(t, plan[1])
    if kind == "value":
        v, off = plan[1], plan[2]
        vt = ir.VectorType(v.type)
        flat = ir.VectorType.get([size], vt.element_type)
        if off is None:
            return v if str(vt) == str(flat) else B.vector.shape_cast(flat, v)
        whole = B.vector.shape_cast(ir.VectorType.get([_elements(v)], vt.element_type), v) \
            if vt.rank != 1 else v
        return B.vector.extract_strided_slice(flat, whole, [off], [size], [1])
    read, off = plan[1], plan[2]
    key = (read, off)
    if key not in halves:
        halves[key] = piece_read(read, off, size)
    return halves[key]


def piece_read(read, off: int, size: int):
    """Elements ``off .. off + size`` of the fragment ``read`` reads, read on their own (a
    vector<size>, built just before ``read``; ``off + size`` may pass ``read``'s own
    elements: :mod:`~pipeline_mlir.frontend.half_join` reads two pieces as one so)."""
    vt = ir.VectorType(read.results[0].type)
    with ir.InsertionPoint(read), read.location:
        if read.name == "vector.load":
            idx = list(read.operands[1:])
            if off:
                idx[-1] = B.arith.addi(idx[-1], index_constant(off))
            half_t = ir.VectorType.get(vt.shape[:-1] + [size], vt.element_type)
            new = B.vector.load(half_t, read.operands[0], idx)
        else:
            new = narrow_read(read, off, size)
        flat = ir.VectorType.get([size], vt.element_type)
        return new if vt.rank == 1 else B.vector.shape_cast(flat, new)


def read_of(value):
    """The read op of the flat value :func:`piece_read` returns (through its shape cast)."""
    made = _op(value.owner)
    return _op(made.operands[0].owner) if made.name == "vector.shape_cast" else made


def _half_mfma(m, a, b, c):
    """``m``'s MFMA at the K of its pieces (:data:`HALVES`) on the operands ``a``, ``b`` and
    accumulator ``c``."""
    attrs = {n: m.attributes[n] for n in m.attributes}
    attrs["k"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), HALVES[_kind(m)][1])
    return ir.Operation.create("amdgpu.mfma", results=[m.results[0].type],
                               operands=[a, b, c], attributes=attrs).results[0]
