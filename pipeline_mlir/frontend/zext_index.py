"""A copy's global index ``index_castui(a + iv)`` (i32) cloned as ``index_castui(a) +
index_castui(iv)`` (index): one form of the K index from both of IREE's forms.

IREE's late form computes a copy's K index in i32 and casts the sum
(``arith.index_castui (arith.addi %col, %iv overflow<nsw> : i32)``); at the prefetch point
the same index is ``arith.addi %col, (arith.index_castui %iv)`` in ``index``.  Cloned as
written into the pipelined loop, the two leave LLVM different scalar address arithmetic
(which copy's offset it keeps and which it derives), so one configuration gave two main
loops.  :func:`cloned_index` clones the late form's index in the prefetch point's form.

The two are equal when both addends are non-negative i32 values (``nsw``: their sum
does not wrap, so it is below 2^31 and its zero extension is the sum of theirs).  Proven
here, else the index is cloned as written:

* ``iv`` is the natural loop's variable, the loop's lower bound a constant >= 0 and its
  step positive (every value it takes is >= 0), and the clone's ``iv`` that variable or
  a K tile ahead of it (the caller, ``frontend/adopt.py``, asks only then);
* ``a`` is computed from constants and thread ids alone (no workgroup id, argument or
  load), so evaluating it for every thread of the workgroup
  (:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`) covers every value it takes: it
  and every value it is computed from must lie in ``[0, 2^31)`` for every thread (then no
  op wrapped and the evaluator's ``int64`` values are the kernel's).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import THREAD_ID_OPS, constant_int
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import is_pure, owner

#: the overflow flags under which the i32 sum is known not to wrap (signed)
_NO_SIGNED_WRAP = ("#arith.overflow<nsw>", "#arith.overflow<nsw, nuw>")


def cloned_index(cl, v, iv, block: tuple[int, int, int]):
    """``v`` (a copy's source index) cloned by ``cl`` (a
    :class:`~pipeline_mlir.frontend.layout.Cloner`), in the prefetch point's form when it
    is the late form's ``index_castui(a + iv)`` and the rewrite is proven (module
    docstring); ``iv``: the natural loop's variable, ``block``: the workgroup size."""
    parts = _zext_sum(v, iv, block)
    if parts is None:
        return cl.get(v)
    a, flags = parts
    index = ir.IndexType.get()
    wide_a = B.arith.index_castui(index, cl.get(a))
    wide_iv = B.arith.index_castui(index, cl.get(iv))
    return B.arith.addi(wide_a, wide_iv, overflow_flags=flags)


def _zext_sum(v, iv, block):
    """(``a``, the add's overflow flags) when ``v`` is ``index_castui(a + iv)`` of
    non-negative i32 addends; None otherwise."""
    cast = owner(v, "arith.index_castui")
    add = None if cast is None else owner(cast.operands[0], "arith.addi")
    if add is None or add.results[0].type != ir.IntegerType.get_signless(32):
        return None
    flags = add.attributes["overflowFlags"] if "overflowFlags" in add.attributes else None
    if flags is None or not any(flags == ir.Attribute.parse(t) for t in _NO_SIGNED_WRAP):
        return None
    lhs, rhs = add.operands
    a = lhs if rhs == iv else rhs if lhs == iv else None
    slice_ = _thread_slice(a) if a is not None and _iv_non_negative(iv) else None
    if slice_ is None:
        return None
    ev = Evaluator(block)
    try:
        # every value on the way in [0, 2^31): no op wrapped, and signed and unsigned ops
        # read them alike, so the evaluator's int64 values are the kernel's
        if all(np.all((ev.value(x) >= 0) & (ev.value(x) < 2 ** 31)) for x in slice_):
            return a, flags
    except IRError:          # (Unevaluable among them) not evaluable: not proven
        pass
    return None


def _iv_non_negative(iv) -> bool:
    """Whether the loop of block argument ``iv`` starts at a constant >= 0 and steps by a
    positive constant."""
    if not isinstance(iv.owner, ir.Block):
        return False
    loop = _op(iv.owner.owner)
    if loop.name != "scf.for" or iv != loop.regions[0].blocks[0].arguments[0]:
        return False
    lb, step = constant_int(loop.operands[0]), constant_int(loop.operands[2])
    return lb is not None and lb >= 0 and step is not None and step > 0


def _thread_slice(v) -> list | None:
    """The values ``v`` is computed from (``v`` among them) when pure ``arith`` ops compute
    it from constants and thread ids alone; None otherwise."""
    todo, seen, out = [v], set(), []
    while todo:
        x = todo.pop()
        if isinstance(x.owner, ir.Block):
            return None
        o = _op(x.owner)
        if o in seen:
            continue
        seen.add(o)
        out.append(x)
        if o.name in THREAD_ID_OPS:
            continue
        if not (o.name.startswith("arith.") and is_pure(o)):
            return None
        todo.extend(o.operands)
    return out
