"""What each integer op computes, per thread: the handlers of
:class:`pipeline_mlir.analysis.loop_eval.Evaluator`.

Each handler takes the evaluator and the op and returns one numpy ``int64`` array per
result (one entry per thread of the workgroup).  Values known only at launch take the
sample values :data:`SAMPLE_ARG` (arguments, push constants, grid sizes) and the
evaluator's ``workgroup_id`` (workgroup ids).

Two kinds of integer ops, with their own semantics:

* ``arith``, ``index`` and ``affine`` (the front end's kernels): as MLIR defines them, at
  the type's width, ``index`` as 64 bits: ``addi``/``subi``/``muli`` (and shifts) of fewer
  bits wrap, the casts extend (``extsi``, ``index_cast`` to more bits: the sign, so an
  ``i1`` ``true`` is -1; ``extui``, ``index_castui``: zeros) or truncate (two's
  complement), unsigned divisions, remainders and min/max read their operands modulo
  2^N, signed ones (``cmpi``'s signed predicates, ``divsi`` ... ``shrsi``, ``maxsi``,
  ``minsi``) read an ``i1`` as 0 / -1; an ``iN`` value is held as its signed value, an
  ``i1`` as 0 / 1.  A division by zero for some thread, or an unsigned op (``divui``,
  ``remui``, ``ceildivui``, ``shrui``, ``maxui``, ``minui``) on a negative 64-bit
  operand, is an error at the op.
* The LLVM dialect (``llvm.add`` ... ``llvm.srem``, shifts, bitwise ops, casts, ``icmp``,
  ``select``, min/max intrinsics, constants, ``rocdl.mbcnt``; the kernels
  ``sched-buffer-soffset`` rewrites): as LLVM computes them, at the type's width,
  wrapping.  An ``iN`` value is held as its signed value (``i1`` as 0 / 1); unsigned ops
  read their operands modulo 2^N.  A division by zero or a shift by the width or more
  (poison) is an error at the op.  A pointer into a buffer (``rocdl.make.buffer.rsrc``,
  then one-index ``llvm.getelementptr`` read as
  :func:`~pipeline_mlir.analysis.llvm_values.gep_index` reads them) evaluates to its byte
  offset in the buffer, exactly.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.analysis.ir_facts import (DYNAMIC, VALUE_CASTS, dense_i64, fold_tree,
                                             int_attr, is_opaque_identity, map_trees,
                                             segments)
from pipeline_mlir.analysis.llvm_values import gep_element_bytes, gep_index, int_width
from pipeline_mlir.dialect.attrs import DIMS, dimension
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.kernel.lds_data import (OPAQUE_ASM, OPAQUE_CONSTRAINTS,
                                           OPAQUE_SCALAR_CONSTRAINTS)

#: sample value of a launch-time integer (kernel argument, push constant)
SAMPLE_ARG = 4096
#: sample value of a workgroup id / workgroup-loop induction variable
SAMPLE_WORKGROUP = 1


class Unevaluable(IRError):
    """An index value the evaluation cannot compute: ``value`` (an op's result or a block
    argument) and ``op``, where the error is reported."""

    def __init__(self, op, value, message: str) -> None:
        super().__init__(op, message)
        self.value = value


class NegativeUnsigned(IRError):
    """An unsigned division or remainder of a negative operand: no exact integer (an
    index analysis refuses it at the op; a comparison of forms takes it as an atom)."""


def compare(pred: int, a, b):
    """``arith.cmpi`` of predicate ``pred`` (its integer value) on ``a`` and ``b``, element
    by element: 0 or 1."""
    if pred >= 6 and (_negative(a) or _negative(b)):
        a, b = a.astype(np.uint64), b.astype(np.uint64)
    return _PREDICATES[pred](a, b).astype(np.int64)


#: each ``arith.cmpi`` predicate's comparison (the unsigned ones on operands :func:`compare`
#: has read unsigned where either is negative): only the one asked is computed
_PREDICATES = {0: np.equal, 1: np.not_equal, 2: np.less, 3: np.less_equal, 4: np.greater,
               5: np.greater_equal, 6: np.less, 7: np.less_equal, 8: np.greater,
               9: np.greater_equal}


#: the ufuncs' own reductions, without the ``ndarray.min`` / ``max`` wrappers (their cost
#: dominates at a workgroup's lanes): :func:`_least`, :func:`_greatest`
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce


def _least(x):
    """The least element of the non-empty array ``x`` (over all its axes)."""
    return _MIN(x, None)


def _greatest(x):
    """The greatest element of the non-empty array ``x`` (over all its axes)."""
    return _MAX(x, None)


def _negative(x) -> bool:
    """Whether some element of ``x`` (an array, or a number) is negative."""
    if type(x) is np.ndarray:
        return x.size > 0 and _least(x) < 0
    return bool(np.less(x, 0).any())


def _nonneg(op, *xs):
    for x in xs:
        if _negative(x):
            raise NegativeUnsigned(op, f"'{op.name}' op: negative operand in an unsigned "
                                       f"operation (the address analysis evaluates indices "
                                       f"as exact integers)")


def _div(a, b, op, kind):
    if (np.count_nonzero(b) != b.size) if type(b) is np.ndarray else np.equal(b, 0).any():
        raise IRError(op, f"'{op.name}' op divides by zero for some thread")
    if kind == "u":
        _nonneg(op, a, b)
        return a // b
    if kind == "floor":
        return np.floor_divide(a, b)
    if kind == "ceil":
        return -np.floor_divide(-a, b)
    q = np.abs(a) // np.abs(b)  # signed: truncation toward zero
    return np.where((a < 0) ^ (b < 0), -q, q)


def _rem(a, b, op, kind):
    """The remainder of :func:`_div` (``kind`` ``u`` or ``s``)."""
    return a - _div(a, b, op, kind) * b


BINARY = {
    "addi": lambda a, b, op: a + b, "subi": lambda a, b, op: a - b,
    "muli": lambda a, b, op: a * b,
    "divui": lambda a, b, op: _div(a, b, op, "u"), "divsi": lambda a, b, op: _div(a, b, op, "s"),
    "floordivsi": lambda a, b, op: _div(a, b, op, "floor"),
    "ceildivsi": lambda a, b, op: _div(a, b, op, "ceil"),
    "ceildivui": lambda a, b, op: _div(a, b, op, "ceil"),
    "remui": lambda a, b, op: _rem(a, b, op, "u"), "remsi": lambda a, b, op: _rem(a, b, op, "s"),
    "andi": lambda a, b, op: a & b, "ori": lambda a, b, op: a | b,
    "xori": lambda a, b, op: a ^ b, "shli": lambda a, b, op: a << b,
    "shrui": lambda a, b, op: a >> b, "shrsi": lambda a, b, op: a >> b,
    "maxsi": lambda a, b, op: np.maximum(a, b), "minsi": lambda a, b, op: np.minimum(a, b),
    "maxui": lambda a, b, op: np.maximum(a, b), "minui": lambda a, b, op: np.minimum(a, b),
}


#: the ``arith`` ops of :data:`BINARY` that read their operands unsigned
UNSIGNED_BINARY = ("divui", "remui", "ceildivui", "shrui", "maxui", "minui")
#: the ``arith`` ops of :data:`BINARY` that read their operands signed (an ``i1`` held as
#: 0 / 1 read as 0 / -1)
_SIGNED = ("divsi", "remsi", "floordivsi", "ceildivsi", "shrsi", "maxsi", "minsi")


def bit_width(v) -> int | None:
    """The width of integer or index value ``v`` (or of its vector's elements); ``index``
    is 64 bits; None for any other type."""
    t = v.type
    if type(t) is ir.IntegerType:       # (the bindings' type already cast: the common case)
        return t.width
    if isinstance(t, ir.VectorType):
        t = ir.VectorType(t).element_type
    if isinstance(t, ir.IndexType):
        return 64
    return ir.IntegerType(t).width if isinstance(t, ir.IntegerType) else None


def arith_binary(kind: str, a, b, op, result=None):
    """``arith.<kind>`` (a :data:`BINARY` op) of ``a`` and ``b`` at the width of ``op``'s
    result (``result``, if the caller holds it; module docstring): below 64 bits, unsigned
    ops read their operands modulo 2^N and the result wraps."""
    w = bit_width(op.results[0] if result is None else result)
    if w is None or w >= 64:
        if kind in UNSIGNED_BINARY:
            _nonneg(op, a, b)
        return BINARY[kind](a, b, op)
    if kind in UNSIGNED_BINARY:
        a, b = _unsigned(a, w), _unsigned(b, w)
    elif kind in _SIGNED:
        a, b = _signed(a, w), _signed(b, w)
    return _wrap(BINARY[kind](a, b, op), w)


def compare_at(op, a, b):
    """``arith.cmpi`` ``op`` of ``a`` and ``b`` at its operands' width: an ``i1`` held as
    0 / 1 compares signed as 0 / -1."""
    w = bit_width(op.operands[0])
    if w is not None and w < 64:
        a, b = _signed(a, w), _signed(b, w)
    return compare(int_attr(op, "predicate"), a, b)


#: the integer casts of ``arith`` and ``index`` that read their operand unsigned
_ZERO_EXTENDING = ("arith.index_castui", "arith.extui", "index.castu")


def cast_value(op, x):
    """``x``, the operand of integer cast ``op`` (``arith`` ``index_cast``,
    ``index_castui``, ``extsi``, ``extui``, ``trunci``, ``index.casts``/``castu``), as its
    result holds it (module docstring)."""
    w_in, w_out = bit_width(op.operands[0]), bit_width(op.results[0])
    if w_in is None or w_out is None or max(w_in, w_out) > 64:
        raise Unevaluable(op, op.results[0], f"'{op.name}' op: the evaluation follows "
                                             f"integers of at most 64 bits")
    x = _unsigned(x, w_in) if op.name in _ZERO_EXTENDING else _signed(x, w_in)
    return _wrap(x, w_out)


def _cast(ev, op):
    return [cast_value(op, ev.value(op.operands[0]))]


def _int_constant(ev, op):
    a = op.attributes["value"]
    if isinstance(a, ir.IntegerAttr):
        w = bit_width(op.results[0])
        return [_wrap(ev.const(ir.IntegerAttr(a).value), w if w is not None else 64)]
    if isinstance(a, ir.BoolAttr):
        return [ev.const(int(ir.BoolAttr(a).value))]
    raise IRError(op, f"'{op.name}' op: only integer constants take part in address "
                      f"computations (got {a})")


def _same(ev, op):
    return [ev.value(op.operands[0])]


def _each(ev, op):
    """Each operand passed on to its result (``util.assume.int`` of several values)."""
    return [ev.value(x) for x in op.operands]


#: each kind of binary affine expression (:func:`~pipeline_mlir.analysis.ir_facts.fold_affine`)
#: on the lanes' values
_AFFINE = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "mod": np.mod,
           "floordiv": np.floor_divide, "ceildiv": lambda a, b: -np.floor_divide(-a, b)}


def _same_value(c):
    return c


def _affine_binary(kind, a, b, _e):
    return _AFFINE[kind](a, b)


def _affine_map_results(ev, op):
    """Each result of affine op ``op``'s map, per thread, its trees read once per map
    (:attr:`~pipeline_mlir.analysis.loop_eval.Evaluator.maps`)."""
    attr = op.attributes["map"]
    found = ev.maps.get(attr)
    if found is None:
        found = ev.maps[attr] = map_trees(attr)
    n_dims, trees = found
    vals = [ev.value(x) for x in op.operands]
    dims, syms = vals[:n_dims], vals[n_dims:]
    out = []
    for t in trees:
        r = fold_tree(t, dims, syms, _same_value, _affine_binary)
        if type(r) is not np.ndarray or r.dtype != np.int64 or r.shape != (ev.threads,) or \
                any(r is x for x in vals):      # (a new array of every thread: no copy)
            r = np.broadcast_to(np.asarray(r, dtype=np.int64), (ev.threads,)).copy()
        out.append(r)
    return out


def _affine_apply(ev, op):
    return _affine_map_results(ev, op)


def _affine_minmax(fn):
    def h(ev, op):
        res = _affine_map_results(ev, op)
        out = res[0]
        for r in res[1:]:
            out = fn(out, r)
        return [out]
    return h


def _basis(ev, op, dynamic):
    dyn = iter(dynamic)
    return [ev.value(next(dyn)) if b == DYNAMIC else b for b in dense_i64(op, "static_basis")]


def _delinearize(ev, op):
    operands = list(op.operands)
    x = ev.value(operands[0])
    basis = _basis(ev, op, operands[1:])
    n = len(op.results)
    if len(basis) == n - 1:
        basis = [None] + basis
    out = []
    rest = x
    for b in reversed(basis[1:]):
        out.append(np.mod(rest, b))
        rest = np.floor_divide(rest, b)
    out.append(rest)
    return list(reversed(out))


def _linearize(ev, op):
    groups = segments(op)
    idx = [ev.value(x) for x in groups[0]]
    basis = _basis(ev, op, groups[1])
    if len(basis) == len(idx):
        basis = basis[1:]
    out = idx[0]
    for i, b in zip(idx[1:], basis):
        out = out * b + i
    return [out]


def id_dimension(op) -> int:
    """0, 1, 2: the dimension of an id or count op: its ``dimension`` attribute
    (``#gpu.dim<...>`` or the HAL ops' integer; the attribute, not its text; 0 without
    one), or the suffix of a ``rocdl.workgroup.id.x|y|z``."""
    if op.name.startswith("rocdl.workgroup.id."):
        return "xyz".index(op.name[-1])
    if "dimension" not in op.attributes:
        return 0
    d = dimension(op.attributes["dimension"])
    if d is None:
        raise IRError(op, f"'{op.name}' op: dimension {op.attributes['dimension']} is not x, y "
                          f"or z")
    return d


def _thread_id(ev, op):
    d = id_dimension(op)
    if "upper_bound" in op.attributes and int_attr(op, "upper_bound") < ev.block_size[d]:
        raise IRError(op, f"'{op.name}' op: upper_bound {int_attr(op, 'upper_bound')}, but the "
                          f"kernel's workgroup has {ev.block_size[d]} threads along "
                          f"{DIMS[d]} (a thread id at or above the bound is undefined)")
    return [ev._thread_dim(DIMS[d])]


def _workitem(dim):
    def h(ev, op):
        return [ev._thread_dim(dim)]
    return h


def _lane_id(ev, op):
    return [ev.tid % WAVE_SIZE]


def _subgroup_id(ev, op):
    return [ev.tid // WAVE_SIZE]


def _sample_workgroup(ev, op):
    return [ev.sampled_workgroup() for _ in op.results]


def _block_dim(ev, op):
    return [ev.const(ev.block_size[id_dimension(op)])]


def _readfirstlane(ev, op):
    v = ev.value(op.operands[0])
    first = v[(ev.tid // WAVE_SIZE) * WAVE_SIZE]
    return [first]




def _inline_asm(ev, op):
    if not is_opaque_identity(op):
        raise Unevaluable(op, op.results[0] if len(op.results) else None,
                          f"'llvm.inline_asm' op: the address analysis evaluates only the "
                          f"opaque identity (asm \"{OPAQUE_ASM}\", constraints "
                          f"\"{OPAQUE_CONSTRAINTS}\" or \"{OPAQUE_SCALAR_CONSTRAINTS}\", "
                          f"one operand)")
    return [ev.value(op.operands[0])]


def _cmpi(ev, op):
    a, b = (ev.value(x) for x in op.operands)
    return [compare_at(op, a, b)]


def _select(ev, op):
    c, a, b = (ev.value(x) for x in op.operands)
    return [np.where(c != 0, a, b)]


def _sample_arg(ev, op):
    if not ev.launch_values:
        raise Unevaluable(op, op.results[0], f"'{op.name}' op: a value known only at launch, "
                                             f"which this evaluation does not sample")
    return [ev.const(SAMPLE_ARG) for _ in op.results]


def _memref_dim(ev, op):
    v = ev.view(op.operands[0])
    i = ev.uniform(op.operands[1])
    d = v.shape[i]
    return [ev.const(SAMPLE_ARG if d == DYNAMIC else d)]


# ---- the LLVM dialect: at the type's width ------------------------------------------------

def _width(op, value) -> int:
    w = int_width(value)
    if w is None or w > 64:
        raise Unevaluable(op, value, f"'{op.name}' op: the evaluation follows integers of at "
                                     f"most 64 bits (got {value.type})")
    return w


def _unsigned(x, w: int):
    """``x`` (held signed) modulo 2^w: int64 below 64 bits, uint64 at 64."""
    if w == 64:     # (the same bits read unsigned: a view, no copy)
        return x.view(np.uint64) if isinstance(x, np.ndarray) and x.dtype == np.int64 \
            else x.astype(np.uint64)
    return x & ((1 << w) - 1)


def _wrap(x, w: int):
    """``x`` modulo 2^w as it is held: signed, ``i1`` as 0 / 1."""
    x = np.asarray(x).view(np.int64) if np.asarray(x).dtype == np.uint64 else x
    if w == 1:
        return x & 1
    if w == 64:
        return x
    narrow = _NARROW.get(w)
    half = 1 << (w - 1)
    if narrow is not None and isinstance(x, np.ndarray) and x.dtype == np.int64:
        if x.size and -half <= int(_least(x)) and int(_greatest(x)) < half:
            return x        # (nothing to wrap, the common case: two reductions, no copy)
        return x.astype(narrow).astype(np.int64)    # (two's complement: the same, cheaper)
    return ((x + half) & ((1 << w) - 1)) - half


#: the numpy types of the widths :func:`_wrap` truncates to by a cast
_NARROW = {8: np.int8, 16: np.int16, 32: np.int32}


def _signed(x, w: int):
    return -(x & 1) if w == 1 else x


def _llvm_operands(ev, op):
    return [ev.value(x) for x in op.operands], _width(op, op.results[0])


def _shift_amount(op, b, w):
    if np.any((b < 0) | (b >= w)):
        raise IRError(op, f"'{op.name}' op shifts by {w} bits or more for some thread (poison)")
    return b.astype(np.uint64) if w == 64 else b


def _llvm_binary(fn):
    def h(ev, op):
        (a, b), w = _llvm_operands(ev, op)
        return [_wrap(fn(a, b, w, op), w)]
    return h


def _udiv(a, b, w, op):
    return (_div if op.name == "llvm.udiv" else _rem)(_unsigned(a, w), _unsigned(b, w), op, "u")


def _sdiv(a, b, w, op):
    a, b = _signed(a, w), _signed(b, w)
    return _div(a, b, op, "s") if op.name == "llvm.sdiv" else _rem(a, b, op, "s")


LLVM_BINARY = {
    "add": lambda a, b, w, op: a + b, "sub": lambda a, b, w, op: a - b,
    "mul": lambda a, b, w, op: a * b,
    "and": lambda a, b, w, op: a & b, "or": lambda a, b, w, op: a | b,
    "xor": lambda a, b, w, op: a ^ b,
    "shl": lambda a, b, w, op: _unsigned(a, w) << _shift_amount(op, b, w),
    "lshr": lambda a, b, w, op: _unsigned(a, w) >> _shift_amount(op, b, w),
    "ashr": lambda a, b, w, op: _signed(a, w) >> _shift_amount(op, b, w).astype(np.int64),
    "udiv": _udiv, "urem": _udiv, "sdiv": _sdiv, "srem": _sdiv,
}

_MINMAX = {"smax": (np.maximum, False), "smin": (np.minimum, False),
           "umax": (np.maximum, True), "umin": (np.minimum, True)}


def _llvm_minmax(ev, op):
    (a, b), w = _llvm_operands(ev, op)
    fn, unsigned = _MINMAX[op.name.rsplit(".", 1)[1]]
    if unsigned:
        return [_wrap(fn(_unsigned(a, w), _unsigned(b, w)), w)]
    return [fn(_signed(a, w), _signed(b, w))]


def _llvm_constant(ev, op):
    a = op.attributes["value"]
    if not isinstance(a, ir.IntegerAttr):
        raise Unevaluable(op, op.results[0], f"'{op.name}' op: only integer constants take "
                                             f"part in an offset (got {a})")
    return [_wrap(ev.const(ir.IntegerAttr(a).value), _width(op, op.results[0]))]


def _llvm_cast(ev, op):
    x = ev.value(op.operands[0])
    w_in, w_out = _width(op, op.operands[0]), _width(op, op.results[0])
    if op.name == "llvm.zext":
        x = _unsigned(x, w_in)
    elif op.name == "llvm.sext":
        x = _signed(x, w_in)
    return [_wrap(x, w_out)]


def _llvm_icmp(ev, op):
    a, b = (ev.value(x) for x in op.operands)
    w = _width(op, op.operands[0])
    return [compare(int_attr(op, "predicate"), _signed(a, w), _signed(b, w))]


def _mbcnt(ev, op):
    """``rocdl.mbcnt.lo`` / ``hi``: the accumulator plus the set bits of the mask's low /
    high 32 bits that stand for the lanes below this one."""
    mask, acc = (ev.value(x) for x in op.operands)
    lane = ev.tid % WAVE_SIZE
    below = lane if op.name == "rocdl.mbcnt.lo" else lane - 32
    bits = np.where(below >= 32, 0xFFFFFFFF, (1 << np.clip(below, 0, 32)) - 1)
    count = np.bitwise_count(_unsigned(mask, 32) & bits).astype(np.int64)
    return [_wrap(acc + count, 32)]


def _buffer_base(ev, op):
    return [ev.const(0)]


def _gep(ev, op):
    index, size = gep_index(op), gep_element_bytes(op)
    if index is None or size is None:
        raise Unevaluable(op, op.results[0], f"'{op.name}' op: the evaluation follows GEPs with "
                                             f"one index over integers, floats or vectors")
    value, k = index
    offset = ev.const(k) if value is None else _signed(ev.value(value), _width(op, value))
    return [ev.value(op.operands[0]) + offset * size]


#: ops that pass their (first) operand on, element for element in any shape: the integer
#: casts (the value kept only when it fits the result and, for a zero-extending one, is not
#: negative, which :mod:`~pipeline_mlir.analysis.id_forms` checks; the evaluator computes
#: them at their widths, :func:`cast_value`) and IREE's index hint
PASS_THROUGH = VALUE_CASTS + ("iree_codegen.index_hint",)
#: the ops (name prefixes) a thread-only evaluation follows (``Evaluator(thread_only=True)``):
#: integer arithmetic, affine maps, the thread's own ids (exact for every thread) and the
#: casts and hints that pass their operand on; nothing a workgroup or a launch sets
THREAD_OPS = ("arith.", "index.", "affine.apply", "affine.min", "affine.max",
              "affine.delinearize_index", "affine.linearize_index", "gpu.thread_id",
              "gpu.lane_id", "gpu.subgroup_id", "rocdl.workitem.id.") + PASS_THROUGH

HANDLERS = {
    "arith.constant": _int_constant,
    **dict.fromkeys(VALUE_CASTS, _cast), "iree_codegen.index_hint": _same,
    "arith.trunci": _cast, "arith.bitcast": _same,
    "arith.cmpi": _cmpi, "arith.select": _select,
    "index.constant": lambda ev, op: [ev.const(int_attr(op, "value"))],
    "index.add": lambda ev, op: [ev.value(op.operands[0]) + ev.value(op.operands[1])],
    "index.sub": lambda ev, op: [ev.value(op.operands[0]) - ev.value(op.operands[1])],
    "index.mul": lambda ev, op: [ev.value(op.operands[0]) * ev.value(op.operands[1])],
    "index.divu": lambda ev, op: [_div(*(ev.value(x) for x in op.operands), op, "u")],
    "index.remu": lambda ev, op: [_rem(*(ev.value(x) for x in op.operands), op, "u")],
    "index.casts": _cast, "index.castu": _cast,
    "affine.apply": _affine_apply,
    "affine.min": _affine_minmax(np.minimum), "affine.max": _affine_minmax(np.maximum),
    "affine.delinearize_index": _delinearize, "affine.linearize_index": _linearize,
    "gpu.thread_id": _thread_id, "gpu.lane_id": _lane_id, "gpu.subgroup_id": _subgroup_id,
    "gpu.block_id": _sample_workgroup, "gpu.block_dim": _block_dim,
    "gpu.grid_dim": _sample_arg,
    "rocdl.workitem.id.x": _workitem("x"), "rocdl.workitem.id.y": _workitem("y"),
    "rocdl.workitem.id.z": _workitem("z"),
    "rocdl.workgroup.id.x": _sample_workgroup, "rocdl.workgroup.id.y": _sample_workgroup,
    "rocdl.workgroup.id.z": _sample_workgroup,
    "hal.interface.workgroup.id": _sample_workgroup,
    "hal.interface.workgroup.count": _sample_arg,
    "hal.interface.workgroup.size": _sample_arg,
    "hal.interface.constant.load": _sample_arg,
    "rocdl.readfirstlane": _readfirstlane,
    "llvm.inline_asm": _inline_asm,
    "util.assume.int": _each,
    "iree_tensor_ext.dispatch.workload.ordinal": _same,
    "memref.dim": _memref_dim,
    "llvm.mlir.constant": _llvm_constant,
    "llvm.zext": _llvm_cast, "llvm.sext": _llvm_cast, "llvm.trunc": _llvm_cast,
    "llvm.bitcast": _same, "llvm.freeze": _same,
    "llvm.icmp": _llvm_icmp, "llvm.select": _select,
    "llvm.intr.smax": _llvm_minmax, "llvm.intr.smin": _llvm_minmax,
    "llvm.intr.umax": _llvm_minmax, "llvm.intr.umin": _llvm_minmax,
    "rocdl.make.buffer.rsrc": _buffer_base, "llvm.getelementptr": _gep,
    "rocdl.mbcnt.lo": _mbcnt, "rocdl.mbcnt.hi": _mbcnt,
    **{f"llvm.{k}": _llvm_binary(fn) for k, fn in LLVM_BINARY.items()},
}

#: ops whose values the evaluation takes at one launch sample (:data:`SAMPLE_ARG`)
LAUNCH_VALUE_OPS = tuple(n for n, h in HANDLERS.items() if h in (_sample_arg, _memref_dim))
