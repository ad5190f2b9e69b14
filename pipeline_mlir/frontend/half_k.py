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

A loop of one accumulator with a chain of 2 MFMAs per K step (IREE's f16 and bf16
``A^T x B^T`` 300x200x192: one wave of a 16x16 tile, 3 K steps of 64, 2 once the odd one
goes to the remainder loop, too few to merge 2 by 2) is halved the same way: its chain of 4
is the crosswise split's 4 runs, unmerged
(:func:`~pipeline_mlir.frontend.kmerge.halves_to_parts`).

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
from pipeline_mlir.analysis.ir_facts import segments
from pipeline_mlir.frontend.kernel_ir import (at, erase_dead, erase_unused, mfma_variant,
                                              narrow_read)

#: the loop's attribute once its MFMAs are halved (the analysis is not asked twice)
HALVED_ATTR = "sched.k_halved"
#: the MFMA shapes (m, n, k) halved, and their operands' element types
HALVES = {(16, 16, 32): 16, (32, 32, 16): 8}
_ELEMENTS = ("f16", "bf16")
#: elements per lane of a halved operand
_HALF = 4


def halve_mfmas(scan) -> str | None:
    """Halve every MFMA of ``scan``'s loop along K (module docstring), in place; None when
    done, else why not (nothing rewritten then)."""
    mfmas = list(scan.mfmas)
    why = _unhalvable(mfmas)
    if why is not None:
        return why
    reads = {a.op.results[0]: a.op for a in scan.reads}
    halves: dict = {}
    plans = []
    for m in mfmas:
        pair = []
        for v in m.operands[:2]:
            lo, hi = _plan(v, 0, reads), _plan(v, _HALF, reads)
            if lo is None or hi is None:
                return (f"an operand of '{m.name}' op at {at(m)} is not made of fragment "
                        f"reads or pieces the front end can take half of")
            pair.append((lo, hi))
        plans.append((m, pair))
    old_reads = list(reads.values())
    for m, ((alo, ahi), (blo, bhi)) in plans:
        with ir.InsertionPoint(m), m.location:
            a_lo, a_hi = _build(alo, halves), _build(ahi, halves)
            b_lo, b_hi = _build(blo, halves), _build(bhi, halves)
            first = _half_mfma(m, a_lo, b_lo, m.operands[2])
            second = _half_mfma(m, a_hi, b_hi, first)
        m.results[0].replace_all_uses_with(second)
    operands = [v for m in mfmas for v in list(m.operands)[:2]]
    for m in mfmas:
        m.erase()
    erase_dead(operands, scan.loop.regions[0].blocks[0])
    erase_unused(old_reads)
    scan.loop.attributes[HALVED_ATTR] = ir.UnitAttr.get()
    return None


def _unhalvable(mfmas: list) -> str | None:
    """Why the MFMAs ``mfmas`` are not halved (a shape or element type without a half
    form, a block or broadcast variant), else None."""
    for m in mfmas:
        shape = tuple(ir.IntegerAttr(m.attributes[k]).value for k in ("m", "n", "k"))
        el = str(ir.VectorType(m.operands[0].type).element_type)
        if shape not in HALVES or el not in _ELEMENTS or \
                ir.VectorType(m.operands[0].type).shape != [2 * _HALF]:
            return (f"'{m.name}' op at {at(m)} is a {'x'.join(map(str, shape))} MFMA of "
                    f"{el}, which has no MFMA of half its K (the front end halves 16x16x32 "
                    f"and 32x32x16 f16 / bf16 ones)")
        variant = mfma_variant(m)
        if variant is not None:
            return f"'{m.name}' op at {at(m)} {variant}"
    return None


# A plan of a half operand: ("read", read op, offset) a new read of 4 elements;
# ("elements", [scalar values]) a vector.from_elements; ("value", v, offset) a slice of v.

def _plan(v, off: int, reads: dict):
    """How to build elements ``off .. off + 4`` of the fragment ``v`` (8 elements) from
    what it is made of, or None."""
    while True:
        if _elements(v) == _HALF and off == 0:
            return ("value", v, None)          # a piece of the half's size: itself
        if v in reads:
            return _read_plan(reads[v], off)
        if isinstance(v.owner, ir.Block):
            return None
        o = _op(v.owner)
        if o.name == "vector.shape_cast" or (o.name == "vector.extract" and
                                             _elements(o.results[0]) == _elements(o.operands[0])):
            v = o.operands[0]
        elif o.name in ("arith.constant", "ub.poison"):
            return ("value", v, off)
        elif o.name == "vector.from_elements" and len(o.operands) == 2 * _HALF:
            return ("elements", list(o.operands)[off:off + _HALF])
        elif o.name == "vector.insert_strided_slice":
            at = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(o.attributes["offsets"])]
            start, n = at[-1], _elements(o.operands[0])
            if len(at) != 1:
                return None
            if start <= off and off + _HALF <= start + n:
                v, off = o.operands[0], off - start
            elif off + _HALF <= start or start + n <= off:
                v = o.operands[1]
            else:
                return None
        elif o.name == "vector.shuffle":
            picked = _shuffled(o, off)
            if picked is None:
                return None
            v, off = picked
        else:
            return None


def _shuffled(op, off: int):
    """(source, offset) whose elements ``offset .. offset + 4`` the ``vector.shuffle``
    ``op`` puts at ``off .. off + 4``, or None (the half's elements not consecutive in one
    source; a shuffle of vectors of rank 2 or more, whose mask picks whole rows; a poison
    entry, -1, in the half)."""
    if any(ir.VectorType(v.type).rank != 1 for v in op.operands):
        return None
    mask = list(ir.DenseI64ArrayAttr(op.attributes["mask"]))[off:off + _HALF]
    n0 = ir.VectorType(op.operands[0].type).shape[0]
    if len(mask) != _HALF or min(mask) < 0:
        return None
    first = mask[0]
    src, base = (0, first) if first < n0 else (1, first - n0)
    if mask != list(range(first, first + _HALF)) or (src == 0 and first + _HALF > n0):
        return None
    return op.operands[src], base


def _read_plan(read, off: int):
    """A half read of fragment read ``read`` (a ``vector.load`` of a 1-D vector, or an
    unmasked minor-identity ``vector.transfer_read`` of one fragment), or None."""
    vt = ir.VectorType(read.results[0].type)
    if vt.shape[-1] != 2 * _HALF or any(d != 1 for d in vt.shape[:-1]):
        return None
    if read.name == "vector.transfer_read":
        g = segments(read)
        mt = ir.MemRefType(g[0][0].type)
        pm = ir.AffineMapAttr(read.attributes["permutation_map"]).value
        if (len(g) > 3 and g[3]) or \
                str(pm) != str(ir.AffineMap.get_minor_identity(mt.rank, vt.rank)):
            return None
    elif read.name != "vector.load":
        return None
    return ("read", read, off)


def _elements(v) -> int:
    n = 1
    for d in ir.VectorType(v.type).shape:
        n *= d
    return n


def _build(plan, halves: dict):
    """The vector<4> of ``plan`` (built before the MFMA being rewritten; a half read once per
    read and half, before its read)."""
    kind = plan[0]
    if kind == "elements":
        t = ir.VectorType.get([_HALF], plan[1][0].type)
        return B.vector.from_elements(t, plan[1])
    if kind == "value":
        v, off = plan[1], plan[2]
        vt = ir.VectorType(v.type)
        flat = ir.VectorType.get([_HALF], vt.element_type)
        if off is None:
            return v if str(vt) == str(flat) else B.vector.shape_cast(flat, v)
        whole = B.vector.shape_cast(ir.VectorType.get([_elements(v)], vt.element_type), v) \
            if vt.rank != 1 else v
        return B.vector.extract_strided_slice(flat, whole, [off], [_HALF], [1])
    read, off = plan[1], plan[2]
    key = (read, off)
    if key not in halves:
        halves[key] = _half_read(read, off)
    return halves[key]


def _half_read(read, off: int):
    """Elements ``off .. off + 4`` of the fragment ``read`` reads, read on their own (a
    vector<4>, built just before ``read``)."""
    vt = ir.VectorType(read.results[0].type)
    with ir.InsertionPoint(read), read.location:
        if read.name == "vector.load":
            idx = list(read.operands[1:])
            if off:
                idx[-1] = B.arith.addi(idx[-1], index_constant(off))
            half_t = ir.VectorType.get(vt.shape[:-1] + [_HALF], vt.element_type)
            new = B.vector.load(half_t, read.operands[0], idx)
        else:
            new = narrow_read(read, off, _HALF)
        flat = ir.VectorType.get([_HALF], vt.element_type)
        return new if vt.rank == 1 else B.vector.shape_cast(flat, new)


def _half_mfma(m, a, b, c):
    """``m``'s MFMA at half its K on the operands ``a``, ``b`` and accumulator ``c``."""
    attrs = {n: m.attributes[n] for n in m.attributes}
    k = ir.IntegerAttr(m.attributes["k"]).value
    shape = (ir.IntegerAttr(m.attributes["m"]).value, ir.IntegerAttr(m.attributes["n"]).value, k)
    attrs["k"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), HALVES[shape])
    return ir.Operation.create("amdgpu.mfma", results=[m.results[0].type],
                               operands=[a, b, c], attributes=attrs).results[0]
