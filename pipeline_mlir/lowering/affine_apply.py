"""``affine.apply`` lowered to ``arith``, exactly, for kernels outside IREE's flow.

IREE's own tail (``registry.IREE_TAIL``) lowers the affine ops of a kernel inside a
``hal.executable``; a kernel in any other container (a top-level ``func.func``, a
``gpu.func``, IREE Wave's ``stream.executable``) reaches the LLVM step with its
``affine.apply`` ops, which ``iree-convert-to-rocdl`` leaves half converted (an
``unrealized_conversion_cast`` reported at an unrelated op).  :func:`lower_affine` rewrites
each ``affine.apply`` into ``arith`` ops: ``+`` ``arith.addi``, ``*`` ``arith.muli``,
``floordiv`` ``arith.floordivsi``, ``ceildiv`` ``arith.ceildivsi``, ``x mod c``
``x - floordiv(x, c) * c`` (affine's ``mod`` is non-negative for the positive ``c`` it
allows); any other ``affine`` op is a located error.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops


def lower_affine(root) -> None:
    """Every ``affine.apply`` under ``root`` lowered; another ``affine`` op is an error."""
    for o in walk_ops(root, lambda o: o.name.startswith("affine.")):
        if o.name != "affine.apply":
            raise IRError(o, f"'{o.name}' op: the LLVM step lowers only affine.apply outside "
                             f"IREE's hal.executable (lower the others before)")
        lower_affine_apply(o)


def lower_affine_apply(o) -> None:
    """``affine.apply`` ``o`` -> ``arith`` ops computing the same index, exactly."""
    amap = ir.AffineMapAttr(o.attributes["map"]).value
    if len(amap.results) != 1:
        raise IRError(o, f"'affine.apply' op: a map of {len(amap.results)} results")
    operands = list(o.operands)
    dims, syms = operands[:amap.n_dims], operands[amap.n_dims:]
    with ir.InsertionPoint(o), o.location:
        v = _expr(amap.results[0], dims, syms, o)
    o.results[0].replace_all_uses_with(v)
    o.erase()


def _arith(name: str, a, b):
    return ir.Operation.create(f"arith.{name}", results=[a.type], operands=[a, b]).results[0]


def _index_const(k: int):
    t = ir.IndexType.get()
    return ir.Operation.create("arith.constant", results=[t], attributes={
        "value": ir.IntegerAttr.get(t, k)}).results[0]


def _expr(e, dims, syms, where):
    if isinstance(e, ir.AffineConstantExpr):
        return _index_const(e.value)
    if isinstance(e, ir.AffineDimExpr):
        return dims[e.position]
    if isinstance(e, ir.AffineSymbolExpr):
        return syms[e.position]
    kinds = ((ir.AffineAddExpr, "addi"), (ir.AffineMulExpr, "muli"),
             (ir.AffineFloorDivExpr, "floordivsi"), (ir.AffineCeilDivExpr, "ceildivsi"),
             (ir.AffineModExpr, "mod"))
    for kind, name in kinds:
        if isinstance(e, kind):
            lhs, rhs = _expr(e.lhs, dims, syms, where), _expr(e.rhs, dims, syms, where)
            if name != "mod":
                return _arith(name, lhs, rhs)
            q = _arith("floordivsi", lhs, rhs)
            return _arith("subi", lhs, _arith("muli", q, rhs))
    raise IRError(where, f"'affine.apply' op: cannot lower the expression {e}")
