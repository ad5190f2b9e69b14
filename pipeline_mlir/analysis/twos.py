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
  all zero is 0);
* anything else (a division, a block argument, a thread or workgroup id, a load): 0.

:func:`byte_offset_zeros` gives the same of a byte offset, an index times its element
bytes.  Used where a load's byte address must be a whole number of dwords
(:mod:`pipeline_mlir.passes.unmask_loads`) and where joined LDS stores must start at a
multiple of their size (:mod:`pipeline_mlir.passes._join_stores`).  No rewriting.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import constant_int, element_bytes
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op

#: the answer for a value that is always 0 (every bit of a 64-bit value is zero)
ALL = 64

_FEWER = ("arith.addi", "arith.subi", "arith.minsi", "arith.maxsi", "arith.minui",
          "arith.maxui", "arith.ori", "arith.xori", "arith.remsi", "arith.remui")
_SAME = ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui",
         "arith.trunci")


def zeros_of(k: int) -> int:
    """The trailing zero bits of the integer ``k`` (:data:`ALL` for 0)."""
    return ALL if k == 0 else min(ALL, (k & -k).bit_length() - 1)


def byte_offset_zeros(index, t, memo: dict | None = None) -> int:
    """How many low bits of the byte offset ``index`` elements of the memref or vector
    type ``t`` make are zero in every run: :func:`low_zeros` of the index plus the
    element bytes' own (a multiple of 4 bf16 elements is a multiple of 8 bytes)."""
    return low_zeros(index, memo=memo) + zeros_of(element_bytes(t))


def low_zeros(v, depth: int = 32, memo: dict | None = None) -> int:
    """How many low bits of integer value ``v`` are zero in every run (module docstring)."""
    memo = {} if memo is None else memo
    if v in memo:
        return memo[v]
    memo[v] = 0                 # a cycle through a block argument proves nothing
    out = _low_zeros(v, depth, memo) if depth > 0 else 0
    memo[v] = out
    return out


def _low_zeros(v, depth: int, memo: dict) -> int:
    if isinstance(v.owner, ir.Block):
        return 0
    op = _op(v.owner)
    name = op.name

    def sub(i: int) -> int:
        return low_zeros(op.operands[i], depth - 1, memo)

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
