"""Vector index values per thread, for the evaluation of a dispatch's output writes.

:mod:`~pipeline_mlir.analysis.output_tiles` reads the elements a ``vector.scatter`` writes
from its offsets and mask, vectors computed per element (``vector.broadcast``,
``shape_cast``, ``transpose``, ``step``, ``from_elements``, ``arith`` element-wise);
:class:`Vectors` evaluates them, one row per thread, over the scalars an
:class:`~pipeline_mlir.analysis.loop_eval.Evaluator` gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pipeline_mlir.analysis.int_ranges import signed
from pipeline_mlir.analysis.ir_facts import VALUE_CASTS
from pipeline_mlir.analysis.lane_ops import (BINARY, Unevaluable, arith_binary, cast_value,
                                             compare_at)
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation

if TYPE_CHECKING:
    from pipeline_mlir.analysis.loop_eval import Evaluator

_SAME = ("iree_codegen.index_hint", "util.assume.int")
#: the integer casts, evaluated at their widths
_CASTS = VALUE_CASTS + ("arith.trunci",)


class Vectors:
    """Vector index values per thread: arrays of (threads, elements), row-major.

    One for all the workgroups and iterations of an evaluation: a value computed here is
    kept with the scalars it was computed from (the values ``ev`` gives: ids, induction
    variables, thread ids, and what is computed from them) and their arrays, and used
    again while ``ev`` gives each of them the same array: what does not depend on the
    workgroup (a scatter's per-thread column offsets, its constants) is computed once."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev
        # value -> (its scalars: ((value, array), ...), its array, the pass it was checked in)
        self.memo: dict = {}
        self.reads: list[dict] = []     # per value being computed, the scalars it read
        self.passes = 0     # one per write evaluated (ev's values fixed during one)

    def next_pass(self) -> None:
        """A new write or binding: every value kept is checked again when used."""
        self.passes += 1

    def value(self, v) -> np.ndarray:
        if isinstance(v.owner, ir.Block):
            if isinstance(v.type, ir.VectorType):
                raise IRError(as_operation(v.owner.owner), "a vector index passed through a "
                              "block argument: the output's tiles cannot be evaluated")
            return self._scalar(v)
        op = as_operation(v.owner)
        if not isinstance(v.type, ir.VectorType):
            try:
                return self._scalar(v)
            except Unevaluable:         # an element of a vector index: evaluated here
                pass
        kept = self.memo.get(v)
        if kept is not None and (kept[2] == self.passes or self._holds(kept[0])):
            if kept[2] != self.passes:
                self.memo[v] = (kept[0], kept[1], self.passes)
            if self.reads:
                self.reads[-1].update((s, (s, a)) for s, a in kept[0])
            return kept[1]
        self.reads.append({})
        try:
            out = self._eval(op, v)
        finally:
            read = self.reads.pop()
        self.memo[v] = (tuple(read.values()), out, self.passes)
        if self.reads:
            self.reads[-1].update(read)
        return out

    def _scalar(self, v) -> np.ndarray:
        a = self.ev.value(v)
        if self.reads:
            self.reads[-1][v] = (v, a)
        return a[:, None]

    def _holds(self, scalars: tuple) -> bool:
        """Whether ``ev`` gives each of ``scalars`` its array still."""
        for s, a in scalars:
            try:
                now = self.ev.value(s)
            except Unevaluable:
                return False
            if now is not a and not np.array_equal(now, a):
                return False
        return True

    def scalar(self, v) -> np.ndarray:
        return self.value(v)[:, 0]

    def _element(self, op, v) -> np.ndarray:
        """The element of a vector ``vector.extract`` (static position) or
        ``vector.to_elements`` gives."""
        src = op.operands[0]
        shape = list(ir.VectorType(src.type).shape)
        if op.name == "vector.to_elements":
            return self.value(src)[:, list(op.results).index(v)]
        pos = list(ir.DenseI64ArrayAttr(op.attributes["static_position"]))
        if len(op.operands) != 1 or any(p < 0 for p in pos) or len(pos) != len(shape):
            raise IRError(op, f"'{op.name}' op: an element of a vector index at a dynamic "
                              f"position: the output's tiles cannot be evaluated")
        return self.value(src)[:, int(np.ravel_multi_index(pos, shape)) if pos else 0]

    def _eval(self, op, v) -> np.ndarray:
        shape = list(ir.VectorType(v.type).shape) if isinstance(v.type, ir.VectorType) \
            else []
        n = int(np.prod(shape))
        name = op.name
        if name in ("vector.extract", "vector.to_elements"):
            return self._element(op, v)[:, None]
        if name == "arith.constant":
            vals = _dense_ints(op.attributes["value"])
            return np.broadcast_to(vals if vals.size == n else vals[:1], (self.ev.threads, n))
        if name == "vector.step":
            return np.broadcast_to(np.arange(n, dtype=np.int64), (self.ev.threads, n))
        if name == "vector.from_elements":
            return np.stack([self.scalar(x) for x in op.operands], axis=1)
        if name == "vector.broadcast":
            src = op.operands[0]
            sshape = list(ir.VectorType(src.type).shape) if isinstance(
                src.type, ir.VectorType) else []
            a = self.value(src).reshape([self.ev.threads] + sshape)
            a = a.reshape([self.ev.threads] + [1] * (len(shape) - len(sshape)) + sshape)
            return np.broadcast_to(a, [self.ev.threads] + shape).reshape(self.ev.threads, n)
        if name in ("vector.shape_cast",) + _SAME:
            return self.value(op.operands[0])
        if name in _CASTS:
            return cast_value(op, self.value(op.operands[0]))
        if name == "vector.transpose":
            src = op.operands[0]
            perm = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
            a = self.value(src).reshape([self.ev.threads] + list(ir.VectorType(src.type).shape))
            return a.transpose([0] + [p + 1 for p in perm]).reshape(self.ev.threads, n)
        if name == "arith.cmpi":
            a, b = (self.value(x) for x in op.operands)
            return compare_at(op, a, b)
        if name == "arith.select":
            c, a, b = (self.value(x) for x in op.operands)
            return np.where(c != 0, a, b)
        if name.startswith("arith.") and name[6:] in BINARY:
            a, b = (self.value(x) for x in op.operands)
            return np.broadcast_to(arith_binary(name[6:], a, b, op), (self.ev.threads, n))
        raise IRError(op, f"'{name}' op: a vector index the output's tiles are read through "
                          f"is computed by it, which the evaluation does not follow")


def _dense_ints(attr) -> np.ndarray:
    """The elements of a dense integer constant as int64, read signed: the bindings read an
    ``index`` element unsigned (``dense<-1> : vector<4xindex>`` as 2^64 - 1, which no int64
    holds), the others signed."""
    return np.array([signed(x, 64) for x in map(int, ir.DenseIntElementsAttr(attr))],
                    dtype=np.int64)
