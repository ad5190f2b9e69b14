"""How many low bits of an integer (or ``index``) value are known to be zero in every run.

:func:`low_zeros` gives ``z`` such that ``2**z`` divides the value wherever it is computed
(:data:`ALL` for a value that is always 0); 0 when it cannot tell.  Divisibility by a power
of two survives wrapping (a sum, difference or product taken modulo ``2**w`` keeps the low
bits of the exact one), so no range is needed:

* a constant: its own trailing zero bits;
* ``arith.addi`` / ``subi``, the ``min`` / ``max`` ops, ``arith.select``'s two values,
  ``ori`` / ``xori``: the fewer of the operands';
* ``arith.muli``: the sum; ``arith.shli`` by a constant ``c``: ``c`` more; ``arith.andi``: the
  more of the two;
* ``arith.remsi`` / ``remui``: ``x - q*y`` for some integer ``q``, the fewer of ``x``'s and
  ``y``'s;
* the casts and extensions (``index_cast``, ``index_castui``, ``extsi``, ``extui``,
  ``trunci``): the operand's (a truncated value keeps its low bits; one whose kept bits are
  all zero is 0); the value hints (``iree_codegen.index_hint``, ``util.assume.int``,
  ``iree_tensor_ext.dispatch.workload.ordinal``): the operand they pass on, or a
  ``util.assume.int``'s stated divisor's (its ``udiv``) where that has more;
* ``affine.apply``: its expression's, by the rules above (a ``mod`` by a constant is a
  remainder; a ``floordiv`` or ``ceildiv`` gives 0); ``affine.min`` / ``max``: the fewest
  of its expressions' (the value is one of them); ``affine.linearize_index`` of a static
  basis: the fewest of each index's plus the basis' sizes after it; the last result of
  ``affine.delinearize_index`` (the index modulo the basis' last size): the fewer of the
  two, any other result 0;
* an ``scf.for``'s induction variable (``lb + j * step``): the fewer of ``lb``'s and
  ``step``'s;
* anything else (a division, another block argument, a thread or workgroup id, a load): 0.

``exact``, if given, is asked first of each value: the zeros it knows otherwise (a value of
the thread ids and constants alone, evaluated in every thread), or None; the larger of its
answer and the rules' is taken.

:func:`byte_offset_zeros` gives the same of a byte offset, an index times its element
bytes.  Used where a load's byte address must be a whole number of dwords
(:mod:`pipeline_mlir.passes.unmask_loads`) and where joined LDS stores must start at a
multiple of their size (:mod:`pipeline_mlir.passes._join_stores`).  No rewriting.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, assumed_divisor, constant_int,
                                             element_bytes, fold_affine, segments)
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op

#: the answer for a value that is always 0 (every bit of a 64-bit value is zero)
ALL = 64

_FEWER = ("arith.addi", "arith.subi", "arith.minsi", "arith.maxsi", "arith.minui",
          "arith.maxui", "arith.ori", "arith.xori", "arith.remsi", "arith.remui")
_SAME = ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui",
         "arith.trunci")
#: the value hints, each result the operand at its position
_HINTS = ("iree_codegen.index_hint", "util.assume.int",
          "iree_tensor_ext.dispatch.workload.ordinal")


def zeros_of(k: int) -> int:
    """The trailing zero bits of the integer ``k`` (:data:`ALL` for 0)."""
    return ALL if k == 0 else min(ALL, (k & -k).bit_length() - 1)


def byte_offset_zeros(index, t, memo: dict | None = None) -> int:
    """How many low bits of the byte offset ``index`` elements of the memref or vector
    type ``t`` make are zero in every run: :func:`low_zeros` of the index plus the
    element bytes' own (a multiple of 4 bf16 elements is a multiple of 8 bytes)."""
    return low_zeros(index, memo=memo) + zeros_of(element_bytes(t))


#: how deep :func:`low_zeros` follows a value's chain by default (below that: 0)
DEPTH = 32


def low_zeros(v, depth: int = DEPTH, memo: dict | None = None, exact=None) -> int:
    """How many low bits of integer value ``v`` are zero in every run (module docstring)."""
    memo = {} if memo is None else memo
    if v in memo:
        return memo[v]
    memo[v] = 0                 # a cycle through a block argument proves nothing
    known = exact(v) if exact is not None else None
    out = _low_zeros(v, depth, memo, exact) if depth > 0 else 0
    out = out if known is None else max(out, known)
    memo[v] = out
    return out


def _low_zeros(v, depth: int, memo: dict, exact) -> int:
    def zeros(x) -> int:
        return low_zeros(x, depth - 1, memo, exact)

    if isinstance(v.owner, ir.Block):
        return _induction_zeros(v, zeros)
    op = _op(v.owner)
    name = op.name

    def sub(i: int) -> int:
        return zeros(op.operands[i])

    if name.startswith("affine."):
        return _affine_zeros(op, v, zeros)
    if name in _HINTS:
        i = list(op.results).index(v)
        stated = zeros_of(assumed_divisor(op, i)) if name == "util.assume.int" else 0
        return max(sub(i), stated)

    if name == "arith.constant":
        k = constant_int(v)
        return 0 if k is None else zeros_of(k)
    if name in _FEWER:
        return min(sub(0), sub(1))
    if name == "arith.select":
        return min(sub(1), sub(2))
    if name == "arith.muli":
        return min(ALL, sub(0) + sub(1))
    if name == "arith.andi":
        return max(sub(0), sub(1))
    if name == "arith.shli":
        shift = constant_int(op.operands[1])
        return sub(0) if shift is None else min(ALL, sub(0) + shift)
    if name in _SAME:
        return sub(0)
    return 0


def _induction_zeros(v, zeros) -> int:
    """An ``scf.for``'s induction variable ``lb + j * step``: the fewer of ``lb``'s and
    ``step``'s zeros; any other block argument 0."""
    owner = v.owner.owner
    if owner is None or ir.BlockArgument(v).arg_number != 0:
        return 0
    loop = _op(owner)
    if loop.name != "scf.for" or v.owner != loop.regions[0].blocks[0]:
        return 0
    return min(zeros(loop.operands[0]), zeros(loop.operands[2]))


def _affine_zeros(op, v, zeros) -> int:
    """``affine.apply``, ``affine.min`` / ``max``, ``affine.linearize_index`` and
    ``affine.delinearize_index`` (module docstring); 0 for any other affine op."""
    if op.name in ("affine.apply", "affine.min", "affine.max"):
        m = ir.AffineMapAttr(op.attributes["map"]).value
        if op.name == "affine.apply" and len(m.results) != 1:
            return 0
        dims = list(op.operands)[:m.n_dims]
        syms = list(op.operands)[m.n_dims:]
        return min(_expr_zeros(e, dims, syms, zeros) for e in m.results)
    if op.name not in ("affine.delinearize_index", "affine.linearize_index"):
        return 0
    basis = _static_basis(op)
    if op.name == "affine.delinearize_index":
        results = list(op.results)
        if v != results[-1]:
            return 0
        if len(results) == 1:
            return zeros(op.operands[0])
        return 0 if basis is None else min(zeros(op.operands[0]), zeros_of(basis[-1]))
    if op.name == "affine.linearize_index" and basis is not None:
        idx = segments(op)[0]
        after = basis[1:] if len(basis) == len(idx) else basis
        out = ALL
        for k, x in enumerate(idx):
            out = min(out, zeros(x) + sum(zeros_of(b) for b in after[k:]))
        return min(ALL, out)
    return 0


def _static_basis(op) -> list | None:
    """The sizes of an ``affine`` (de)linearization's basis, None if any is dynamic."""
    basis = list(ir.DenseI64ArrayAttr(op.attributes["static_basis"]))
    return None if any(b == DYNAMIC for b in basis) else basis


def _expr_zeros(e, dims: list, syms: list, zeros) -> int:
    """The low zero bits of affine expression ``e`` over the values ``dims`` and ``syms``
    (:func:`~pipeline_mlir.analysis.ir_facts.fold_affine` in the algebra of zero bits)."""
    return fold_affine(e, [zeros(d) for d in dims], [zeros(x) for x in syms], zeros_of,
                       _binary_zeros)


def _binary_zeros(kind: str, a: int, b: int, e) -> int:
    """A sum's or a remainder's (``x - q * y``, ``y`` a constant) zeros are the fewer of
    its operands', a product's their sum; a division keeps none."""
    if kind in ("add", "mod"):
        return min(a, b)
    if kind == "mul":
        return min(ALL, a + b)
    return 0
