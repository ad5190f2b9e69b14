"""``sched-unit-masks``: a mask's test of a unit dimension made explicit, so no rewrite of
the MLIR stack downstream can drop it.

A ``vector.create_mask s_0, .., s_n`` of a vector whose dimension ``d`` has one element
holds its bits only where ``s_d > 0``: in a masked read of a ``[b, k, m]`` buffer
(``vector<1x1x8>``, the sizes ``1, k_left, m_left``) that size says whether the row is one
of K at all.  The stack the LLVM step runs (IREE's codegen tail, and ``iree-compile``
when a pipelined kernel is handed back to it) loses it: once the transfer's unit
dimensions are dropped (a ``vector.shape_cast`` of the mask), canonicalization folds
``shape_cast(create_mask 1, k, s)`` to ``create_mask s``, the sizes of the unit dimensions
dropped whatever they are (also ``create_mask s, k, 1`` of a ``vector<8x1x1>``, or two
leading unit dimensions of four), so a row past K (``k = 0``) is read whole.  Likewise a
``vector.transfer_read`` or ``transfer_write`` whose ``in_bounds`` is ``false`` on a unit
dimension loses that dimension's bounds test when its unit dimensions are dropped (it
becomes a plain ``vector.load`` of the row, whether the row is in the buffer or not).

This pass rewrites both into a form that holds the test where no such fold reaches it:

* every ``vector.create_mask`` with two or more unit dimensions, one of whose sizes is not
  the constant 1 (the folds fire when one unit dimension they drop has the size 1, the
  outermost of leading ones, ``1, k, s``, or the innermost of trailing ones, ``s, k, 1``,
  and drop the others' with it; a mask of one unit dimension keeps its test, and its IR
  is left as it is): each such size set to the constant 1 and its test (``s_d > 0``)
  folded into the size of the mask's last dimension of more than one element,
  ``select(all s_d > 0, s_t, 0)`` (the same bits: a mask is empty when any of its sizes
  is not positive); a mask whose dimensions all have one element becomes
  ``vector.broadcast`` of the ``i1`` test;
* every transfer whose ``in_bounds`` is ``false`` on a unit dimension of the vector that
  reads along a memref dimension (not a broadcast): that dimension marked in bounds and
  its test (``index < size`` of the memref dimension) put in the transfer's mask,
  ``select(test, mask, false)`` (the mask of the ``vector.mask`` around it, if any; one
  with a passthru is left, its masked-off lanes take the passthru), or a mask
  ``vector.broadcast`` of the test where it had none (masked elements read the padding
  or are not written, as out-of-bounds elements are).

A ``vector.constant_mask`` needs nothing (its verifier allows a zero size only when all
are zero).  The pass is the last of every named pipeline (the emitted MLIR, also when it is
handed back to ``iree-compile``) and runs in the LLVM step before IREE's tail (for kernels
it builds as they are: IREE's own kernels, the front end's reference builds); it never
fails.  IREE's own build of such a kernel has no such pass: its batch ``A^T x B`` with a
K tail (both operands' rows masked by ``k_left``) is wrong there
(docs/iree-soundness.md).
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op, index_constant, walk_ops
from pipeline_mlir.analysis.ir_facts import attr_names, constant_int, segments
from pipeline_mlir.passes._common import ModulePass, OpError

_TRANSFERS = ("vector.transfer_read", "vector.transfer_write")


def unit_masks(root) -> int:
    """Every create_mask and transfer under ``root`` rewritten (module docstring); the
    number of ops rewritten."""
    masks: list = []        # (one walk for both: the transfers' rewrites erase no mask)

    def transfer(o) -> bool:
        name = o.name
        if name == "vector.create_mask":
            masks.append(o)
        return name in _TRANSFERS
    n = 0
    for op in walk_ops(root, transfer):
        n += _explicit_bounds(op)
    for op in masks:
        n += _unit_sizes(op)
    return n


def _all(tests: list):
    out = tests[0]
    for t in tests[1:]:
        out = B.arith.andi(out, t)
    return out


def _unit_sizes(op) -> int:
    """``vector.create_mask`` ``op`` with its unit dimensions' sizes the constant 1 (1 if
    rewritten, else 0)."""
    vt = ir.VectorType(op.results[0].type)
    shape = list(vt.shape)
    sizes = list(op.operands)
    if len(shape) < 2 or any(vt.scalable_dims):
        return 0
    ones = [d for d, n in enumerate(shape) if n == 1]
    unit = [d for d in ones if constant_int(sizes[d]) != 1]
    if len(ones) < 2 or not unit:
        return 0            # (a fold drops unit dimensions only beside a size of 1)
    wide = [d for d, n in enumerate(shape) if n != 1]
    with ir.InsertionPoint(op), op.location:
        zero = index_constant(0)
        test = _all([B.arith.cmpi(B.arith.CmpIPredicate.sgt, sizes[d], zero) for d in unit])
        if wide:
            t = wide[-1]
            one = index_constant(1)
            new = [one if d in unit else s for d, s in enumerate(sizes)]
            new[t] = B.arith.select(test, sizes[t], zero)
            mask = ir.Operation.create("vector.create_mask", results=[vt],
                                       operands=new).results[0]
        else:
            mask = B.vector.broadcast(vt, test)
    op.results[0].replace_all_uses_with(mask)
    op.erase()
    return 1


def _explicit_bounds(op) -> int:
    """Transfer ``op`` with the bounds test of each unit dimension it may read or write
    past put in its mask (1 if rewritten, else 0)."""
    if "in_bounds" not in op.attributes or "permutation_map" not in op.attributes:
        return 0
    flags = [ir.BoolAttr(x).value for x in ir.ArrayAttr(op.attributes["in_bounds"])]
    g = segments(op)
    reading = op.name == "vector.transfer_read"
    src, idx = (g[0][0], g[1]) if reading else (g[1][0], g[2])
    masks = g[3]
    vt = ir.VectorType((op.results[0] if reading else op.operands[0]).type)
    if not isinstance(src.type, ir.MemRefType) or any(vt.scalable_dims):
        return 0
    pm = ir.AffineMapAttr(op.attributes["permutation_map"]).value
    loose = []
    for j, (n, ok) in enumerate(zip(vt.shape, flags)):
        e = pm.results[j]
        if n == 1 and not ok and isinstance(e, ir.AffineDimExpr):
            loose.append((j, e.position))
    if not loose:
        return 0
    mt = ir.MemRefType(src.type)
    # a transfer masked by the vector.mask around it: the test goes into that mask
    holder = _op(op.parent) if op.parent is not None else None
    wrapped = holder is not None and holder.name == "vector.mask"
    if wrapped:
        if len(holder.operands) > 1:
            return 0    # masked-off lanes take its passthru, out-of-bounds ones the padding
        masks = [holder.operands[0]]
    with ir.InsertionPoint(holder if wrapped else op), op.location:
        tests = []
        for _, r in loose:
            size = B.memref.dim(src, index_constant(r)) if mt.is_dynamic_dim(r) else \
                index_constant(mt.shape[r])
            tests.append(B.arith.cmpi(B.arith.CmpIPredicate.slt, idx[r], size))
        test = _all(tests)
        mt_i1 = masks[0].type if masks else _mask_type(vt, pm)
        if masks:
            none = B.arith.constant(mt_i1, ir.DenseElementsAttr.get_splat(
                mt_i1, ir.BoolAttr.get(False)))
            mask = B.arith.select(test, masks[0], none)
        else:
            mask = B.vector.broadcast(mt_i1, test)
    for j, _ in loose:
        flags[j] = True
    op.attributes["in_bounds"] = ir.ArrayAttr.get([ir.BoolAttr.get(f) for f in flags])
    if wrapped:
        holder.operands[0] = mask
    elif masks:
        op.operands[len(op.operands) - 1] = mask
    else:
        sizes = [len(x) for x in g[:3]] + [1]
        new = ir.Operation.create(op.name, results=[r.type for r in op.results],
                                  operands=list(op.operands) + [mask],
                                  attributes={**{a: op.attributes[a] for a in attr_names(op)},
                                              "operandSegmentSizes":
                                              ir.DenseI32ArrayAttr.get(sizes)},
                                  loc=op.location, ip=ir.InsertionPoint(op))
        for old, r in zip(op.results, new.results):
            old.replace_all_uses_with(r)
        op.erase()
    return 1


def _mask_type(vt, pm):
    """The mask type of a transfer of vector type ``vt`` and permutation map ``pm``: the
    dimensions it reads along memref dimensions, in the memref's order (a broadcast
    dimension has none); what the op's verifier infers."""
    dims = sorted((e.position, n) for e, n in zip(pm.results, vt.shape)
                  if isinstance(e, ir.AffineDimExpr))
    return ir.VectorType.get([n for _, n in dims], ir.IntegerType.get_signless(1))


class UnitMasks(ModulePass):
    """Every mask's unit-dimension test made explicit (module docstring)."""

    name = "sched-unit-masks"
    summary = ("masks' and transfers' tests of unit dimensions made explicit, where no fold "
               "of the MLIR stack drops them (a row past K read whole)")

    def run(self, module) -> list[OpError]:
        with module.context:
            unit_masks(module)
        return []
