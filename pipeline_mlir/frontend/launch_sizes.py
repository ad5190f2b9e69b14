"""A dispatch whose bindings are sized at launch: the push constants and the grid of one
launch, for ``--emulate=M,N,K``.

IREE binds a buffer of dynamic shape (``memref<?x4096xbf16>{%m}``) with its sizes computed
from push constants: an ``index`` arrives as two ``i32`` constants (low and high word),
combined (``arith.extui``, ``arith.shli`` by 32, ``arith.ori``), cast
(``arith.index_castui``), hinted (``util.assume.int``) and named
(``iree_tensor_ext.dispatch.workload.ordinal``).  IREE's runtime computes the constants
from the tensors' sizes; the emulator runs the launch the other way round:

* :func:`dynamic_dims` lists, per binding, the dynamic dimensions and the value that sizes
  each (the subspan's operand; a kernel argument's memref sizes itself: None);
* :func:`solve_constants` finds the push constants that give each of those values the size
  asked for, following the value back through the ops above (the inverse of each);
  anything else (a size IREE does not compute so) is an error at the op.  Every value is
  then evaluated forwards with the constants found and must equal its size, and every
  ``util.assume.int`` on the way must hold (its ``umin``, ``umax``, ``udiv``), so a launch
  the kernel was compiled not to take is refused rather than run;
* :func:`evaluate` gives index values (e.g. the ``scf.forall``'s bounds: the grid) at
  those constants;
* :func:`at_launch` makes a dispatch read with sizes unknown (None) the dispatch of one
  launch: its sizes, its bindings' shapes, its push constants and its grid.  A (``M x K``
  or ``K x M``), B (``N x K`` or ``K x N``) and C (``M x N``) may be sized at launch in any
  of their two matrix dimensions; a batch dimension or an epilogue input may not.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pipeline_mlir.analysis.ir_facts import (LAUNCH_PASS_THROUGH, SIGN_EXTENDING, VALUE_CASTS,
                                             int_bits)
from pipeline_mlir.analysis.loop_eval import Evaluator, workgroup_grid
from pipeline_mlir.dialect.attrs import pipeline_layout
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import describe

_WORD = 1 << 32


def dynamic_dims(value) -> list[tuple[int, object]]:
    """(dimension, the value that sizes it) of each dynamic dimension of binding ``value``
    (a ``hal.interface.binding.subspan`` result; for a function argument the value is
    None: its memref descriptor carries the size)."""
    t = ir.MemRefType(value.type)
    dims = [i for i, d in enumerate(t.shape) if ir.ShapedType.is_dynamic_size(d)]
    if isinstance(value.owner, ir.Block):
        return [(i, None) for i in dims]
    op = _op(value.owner)
    sizes = list(op.operands)[len(list(op.operands)) - len(dims):]
    return list(zip(dims, sizes))


def solve_constants(f, wanted: list[tuple[object, int]]) -> tuple[int, ...]:
    """The push constants (``i32`` words, in ordinal order) under which each value of
    ``wanted`` (a value, its size) has its size (module docstring)."""
    found: dict[int, tuple[int, object]] = {}
    for value, size in wanted:
        _solve(value, size, found)
    loads = walk_ops(f, lambda o: o.name == "hal.interface.constant.load")
    count = constant_count(f)
    missing = [o for o in loads if _ordinal(o) not in found]
    if missing:
        raise IRError(missing[0], f"{describe(missing[0])}: push constant "
                                  f"#{_ordinal(missing[0])} sizes no binding, so a matmul "
                                  f"launch does not say its value")
    constants = tuple(found[i][0] if i in found else 0 for i in range(count))
    got = evaluate(f, constants, [v for v, _ in wanted])
    for (value, size), g in zip(wanted, got):
        if g != size:
            where = f if isinstance(value.owner, ir.Block) else _op(value.owner)
            raise IRError(where, f"{describe(where)}: push constants {list(constants)} give "
                                 f"a size of {g}, not the {size} asked for")
    return constants


def constant_count(f) -> int:
    """How many push constants a launch of kernel ``f`` passes: the ``constants = N`` of its
    ``#hal.pipeline.layout`` (IREE pushes all of them, loaded or not; ``sched-gpu-kernel``
    makes one kernel argument of each), else one past the largest ordinal loaded."""
    ops = walk_ops(f, lambda o: o.name in ("hal.interface.constant.load",
                                           "hal.interface.binding.subspan"))
    loads = [o for o in ops if o.name == "hal.interface.constant.load"]
    counts = next((pipeline_layout(o.attributes["layout"], o) for o in ops
                   if "layout" in o.attributes), None)
    # (IREE's verifier refuses a load of an ordinal past the layout's)
    return 1 + max((_ordinal(o) for o in loads), default=-1) if counts is None else counts[0]


def evaluate(f, constants: tuple[int, ...], values: list) -> list[int]:
    """The values (uniform index or integer values of kernel ``f``) at push constants
    ``constants``; every ``util.assume.int`` they go through must hold."""
    ev = Evaluator((1, 1, 1), launch_values=False)
    for o in walk_ops(f, lambda o: o.name == "hal.interface.constant.load"):
        ev.bind(o.results[0], constants[_ordinal(o)])
    for o in walk_ops(f, lambda o: o.name in ("iree_tensor_ext.dispatch.workload.ordinal",
                                                "util.assume.int")):
        for i, r in enumerate(o.results):
            v = int(ev.value(list(o.operands)[i])[0])
            if o.name == "util.assume.int":
                _check_assumption(o, i, v)
            ev.bind(r, v)
    return [int(ev.value(v)[0]) for v in values]


def _ordinal(op) -> int:
    return ir.IntegerAttr(op.attributes["ordinal"]).value


def _solve(value, target: int, found: dict) -> None:
    """Record in ``found`` (ordinal -> (word, the op asking)) what makes ``value`` equal
    ``target``."""
    if isinstance(value.owner, ir.Block):
        raise IRError(_op(value.owner.owner), f"{describe(_op(value.owner.owner))}: a binding "
                                              f"is sized by block argument #{value.arg_number}, "
                                              f"not by push constants")
    op = _op(value.owner)
    if target < 0:
        raise IRError(op, f"{describe(op)}: a size of {target}")
    if op.name == "hal.interface.constant.load":
        if target >= _WORD:
            raise IRError(op, f"{describe(op)}: an i32 push constant cannot be {target}")
        prior = found.setdefault(_ordinal(op), (target, op))
        if prior[0] != target:
            raise IRError(op, f"{describe(op)}: push constant #{_ordinal(op)} would be both "
                              f"{prior[0]} and {target} (two sizes from one constant)")
    elif op.name in LAUNCH_PASS_THROUGH:
        _check_fits(op, target)
        _solve(list(op.operands)[0], target, found)
    elif op.name == "util.assume.int":
        _solve(list(op.operands)[list(op.results).index(value)], target, found)
    elif op.name == "arith.ori" and _high_word(op) is not None:
        low, high = _high_word(op)
        _solve(low, target % _WORD, found)
        _solve(high, target // _WORD, found)
    else:
        raise IRError(op, f"{describe(op)}: a binding's size is computed by it, and the "
                          f"emulator finds push constants only for sizes IREE passes (i32 "
                          f"words combined, cast, assumed: "
                          f"pipeline_mlir/frontend/launch_sizes.py)")


def _check_fits(op, target: int) -> None:
    """``target`` passes through the cast ``op`` unchanged: below 2^bits of the narrower
    of its operand and result, 2^(bits - 1) for a sign-extending cast (a word with its top
    bit set would arrive negative)."""
    if op.name not in VALUE_CASTS:
        return
    signed = op.name in SIGN_EXTENDING
    bits = min(int_bits(op.operands[0].type), int_bits(op.results[0].type))
    if target >= 1 << (bits - signed):
        kind = "a signed" if signed else "an unsigned"
        raise IRError(op, f"{describe(op)}: a size of {target} does not pass through it "
                          f"unchanged ({kind} {bits}-bit value)")


def _high_word(op) -> tuple[object, object] | None:
    """(low, high) of ``arith.ori low, (arith.shli high, 32)`` (either order), else None."""
    a, b = list(op.operands)
    for low, shifted in ((a, b), (b, a)):
        if isinstance(shifted.owner, ir.Block) or _op(shifted.owner).name != "arith.shli":
            continue
        high, amount = list(_op(shifted.owner).operands)
        if not isinstance(amount.owner, ir.Block) and _op(amount.owner).name == "arith.constant" \
                and ir.IntegerAttr(_op(amount.owner).attributes["value"]).value == 32:
            return low, high
    return None


def _check_assumption(op, i: int, v: int) -> None:
    """An IRError unless ``v`` satisfies the ``i``-th operand's assumption of ``op``."""
    text = str(ir.ArrayAttr(op.attributes["assumptions"])[i])
    for key, bound in re.findall(r"\b(umin|umax|udiv)\s*=\s*(\d+)", text):
        n = int(bound)
        if (key == "umin" and v < n) or (key == "umax" and v > n) or \
                (key == "udiv" and n and v % n):
            raise IRError(op, f"{describe(op)}: the launch makes operand #{i} {v}, and the "
                              f"kernel was compiled assuming {key} = {n}")


def at_launch(f, d, values: list, sizes: tuple[int, int, int] | None):
    """Dispatch ``d`` of kernel ``f`` (bindings ``values``, in order) at the launch of
    ``sizes`` (M, N, K), its grid the one it needs at those sizes
    (:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`); ``d`` itself
    when nothing of it is known only at launch."""
    dyn = [dynamic_dims(v) for v in values]
    loads = walk_ops(f, lambda o: o.name == "hal.interface.constant.load")
    if not any(dyn) and not loads:     # the layout's constants pushed all the same
        return replace(d, constants=(0,) * constant_count(f)) if constant_count(f) else d
    first = next((i for i, dims in enumerate(dyn) if dims), None)
    if sizes is None:
        where = f if first is None or isinstance(values[first].owner, ir.Block) \
            else _op(values[first].owner)
        what = (f"binding {d.bindings[first].name} ({values[first].type}) is sized at launch"
                if first is not None else f"{describe(loads[0])}: the kernel reads push "
                                          f"constants")
        raise IRError(where, f"{what}: the launch's M, N and K must be given")
    M, N, K = sizes
    roles = {"A": (K, M) if d.transpose_a else (M, K), "C": (M, N),
             "B": (N, K) if d.transpose_b is not False else (K, N)}
    wanted, bindings = [], []
    for b, v, dims in zip(d.bindings, values, dyn):
        shape = list(b.shape)
        for i, size_value in dims:
            if b.name not in roles or i < len(shape) - 2:
                where = f if isinstance(v.owner, ir.Block) else _op(v.owner)
                raise IRError(where, f"binding {b.name} ({v.type}) is sized at launch in "
                                     f"dimension {i}: only the matrix dimensions of A, B "
                                     f"and C may be")
            shape[i] = roles[b.name][i - len(shape) + 2]
            if size_value is not None:
                wanted.append((size_value, shape[i]))
        bindings.append(replace(b, shape=tuple(shape)))
    constants = solve_constants(f, wanted) if loads else ()
    A, B = (bindings[[b.name for b in bindings].index(n)] for n in ("A", "B"))
    k = A.shape[-2] if d.transpose_a else A.shape[-1]
    n = B.shape[-1] if d.transpose_b is False else B.shape[-2]
    m = A.shape[-1] if d.transpose_a else A.shape[-2]
    return replace(d, M=m, N=n, K=k, bindings=tuple(bindings), constants=constants,
                   grid=workgroup_grid(f, lambda vs: evaluate(f, constants, vs)))
