"""Register copies whose masked lanes are an ``arith.select`` of the loaded value.

When a K-loop's last K tile is partial, IREE does not always mask the global load of a
register copy: where a copy's run of elements lies in one row of the operand (a ``K x N``
B, a ``K x M`` A: each copy one K row), it reads the row unmasked and selects the loaded
value or a padding value by whether the row is inside K, ``arith.select %c, %load, %pad``
with ``%c`` an ``i1`` (at the prefetch point ``arith.index_castui`` of the row count of
the copy's subview, 0 or 1; in the late form the same of a ``minsi(K left - row, 1)``), and
stores the select's result to LDS.  :func:`selected_loads` finds these selects in the
loop body; :func:`~pipeline_mlir.frontend.masks.peel_masked_tail` peels the masked last K
tile into the remainder loop (which keeps them as written) and, for the loop that stays,
:func:`check_kept` proves every select the identity on its load (the condition true for
every thread in every iteration the pipelined loop runs) and :func:`unselect` drops it,
leaving the load's one use the LDS store: a register copy as any other.

The condition is evaluated per thread (:class:`~pipeline_mlir.analysis.loop_eval.
Evaluator`) by :func:`truth`, exactly at one bit: a cast or truncation to ``i1`` keeps the
low bit of its operand, ``cmpi`` is 0 or 1, ``andi`` / ``ori`` / ``xori`` of ``i1`` values
combine their bits; a vector condition is a ``vector.create_mask`` (true where every size
covers its dimension) or a ``vector.broadcast`` of an ``i1``.  It must depend only on the
loop variable, the thread and constants, so the evaluation covers every workgroup (a
condition that also depends on the workgroup, an M or N edge, is kept in its copy before
this by :mod:`~pipeline_mlir.frontend.kept_masks`).  A select that picks the loaded value
where its condition is false, a condition false for some thread in a kept iteration (a
mask of the row or of anything but the K left), one of another form, or a trip count
known only at run time, is an error at the select.

A select whose condition depends on the threads and constants alone (not on the loop
variable, nor on the workgroup) and is true in every thread keeps its load in every
iteration of every workgroup: no K tail's mask, and nothing to peel.  IREE writes one at
the prefetch point for a copy whose rows all lie inside M (rows 0 to 15 of the i8
``A x B^T`` 31x257x512's 32-row tile: ``min(31 - row, 1)``, 1 for each of them), which
its later passes fold away, so the late form has none.  :func:`drop_thread_identities`
proves it by evaluation and drops it before the peel is decided: otherwise the loop of
two K steps would be cut to none (the last peeled as if masked) at the prefetch point and
pipelined in the late form.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import Evaluator, memory_space
from pipeline_mlir.analysis.exact_ints import exact_on_machine
from pipeline_mlir.frontend.dynamic_masks import foreign_source, source_text
from pipeline_mlir.frontend.kernel_ir import describe, is_pure, kernel_of
from pipeline_mlir.frontend.scan import COPY_LOADS, GLOBAL_SPACES

#: casts to ``i1`` that keep the low bit of their operand
BIT_CASTS = ("arith.index_castui", "arith.index_cast", "arith.trunci")
#: ``i1`` logic combined bit by bit
LOGIC = {"arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or,
         "arith.xori": np.bitwise_xor}


def _global_load(v):
    """The op loading ``v`` from global memory into registers, or None."""
    if isinstance(v.owner, ir.Block):
        return None
    o = _op(v.owner)
    if o.name not in COPY_LOADS:       # the first half of a register copy
        return None
    return o if memory_space(o.operands[0].type) in GLOBAL_SPACES else None


def selected_loads(loop) -> list:
    """The ``arith.select`` ops directly in ``loop``'s body that choose between a global
    load of the body (one use: the select) and another value.  A select whose false
    operand is the load is an error at it."""
    body = [_op(o) for o in loop.regions[0].blocks[0].operations]
    out = []
    for o in body:
        if o.name != "arith.select":
            continue
        cond, on_true, on_false = o.operands
        if _global_load(on_false) is not None and _global_load(on_true) is None:
            raise IRError(o, f"{describe(o)} selects the value loaded from global memory where "
                             f"its condition is false: the front end takes a select that "
                             f"keeps the loaded value where its mask is true (the lanes "
                             f"inside K) and pads the others")
        load = _global_load(on_true)
        if load is None or load not in body or len(list(on_true.uses)) != 1:
            continue
        out.append(o)
    return out


def drop_thread_identities(loop) -> int:
    """Drop (:func:`unselect`) each select of :func:`selected_loads` whose condition is
    computed from the threads and constants alone and is true in every thread (module
    docstring): the identity in every iteration of every workgroup; the number dropped.
    A condition that cannot be evaluated, or is false in some thread, is left to the
    proofs after the peel (which say why where they refuse it)."""
    sels = [s for s in selected_loads(loop) if foreign_source(s.operands[0]) is None]
    threads = block_size(kernel_of(loop)) if sels else None
    if threads is None:
        return 0
    ev = Evaluator(threads)
    ev.where = loop
    dropped = 0
    for s in sels:
        try:
            t = truth(s, ev, s.operands[0])
        except (IRError, Unevaluable):
            continue
        if np.all(t):
            unselect(s)
            dropped += 1
    return dropped


def check_static(selects: list) -> None:
    """A trip count known only at run time: the selects cannot be proven the identity by
    evaluation (an error at the first)."""
    if selects:
        s = selects[0]
        raise IRError(s, f"{describe(s)} masks a global load of a K-loop whose trip count is "
                         f"known only at run time; the front end proves a select's mask "
                         f"full by evaluating it at every iteration, so only with a "
                         f"constant trip count")


def check_kept(loop, selects: list, iv, ev, iterations=None) -> None:
    """Every select of ``selects`` keeps its load in every thread in every iteration of
    ``loop`` (constant bounds; or the values ``iterations``), its condition computed from
    the loop variable, the thread and constants only."""
    if iterations is None:
        lb, ub, step = (ev.uniform(loop.operands[i]) for i in range(3))
        iterations = range(lb, ub, step)
    for s in selects:
        _check_sources(s, s.operands[0], iv)
    for k in iterations:
        ev.bind(iv, k)
        for s in selects:
            t = truth(s, ev, s.operands[0])
            if not np.all(t):
                bad = int(np.flatnonzero(~t.all(axis=tuple(range(1, t.ndim))))[0])
                raise IRError(s, f"{describe(s)} pads the loaded value in thread {bad} in "
                                 f"iteration {k}, which the pipelined loop runs: its "
                                 f"condition is not true there; the front end peels a "
                                 f"mask of the last K tile only")


def truth(s, ev, c) -> np.ndarray:
    """Condition ``c`` of select ``s`` per thread as booleans (threads,) for an ``i1``,
    (threads, lanes...) for a vector of them (module docstring)."""
    if isinstance(c.owner, ir.Block):
        raise _unknown(s, "a block argument")
    o = _op(c.owner)
    if isinstance(c.type, ir.VectorType):
        if o.name == "vector.broadcast" and not isinstance(o.operands[0].type,
                                                           ir.VectorType):
            b = truth(s, ev, o.operands[0])
            return np.broadcast_to(b.reshape((-1,) + (1,) * c.type.rank),
                                   b.shape + tuple(c.type.shape))
        if o.name == "vector.create_mask":
            dims = list(ir.VectorType(c.type).shape)
            full = np.ones(ev.const(0).shape, dtype=bool)
            for d, v in zip(dims, o.operands):
                full &= _integer(s, ev, v) >= d
            return np.broadcast_to(full.reshape((-1,) + (1,) * len(dims)),
                                   full.shape + tuple(dims))
        raise _unknown(s, f"'{o.name}'")
    if o.name in BIT_CASTS:
        return (_integer(s, ev, o.operands[0]) & 1) == 1
    if o.name == "arith.cmpi" and o.operands[0].type != c.type:
        for x in o.operands:
            _integer(s, ev, x)
        _machine_exact(s, ev, [o])
        return ev.value(c) != 0
    if o.name == "arith.constant":
        return (ev.value(c) & 1) == 1
    if o.name in LOGIC:
        a, b = (truth(s, ev, x).astype(np.int64) for x in o.operands)
        return LOGIC[o.name](a, b) == 1
    raise _unknown(s, f"'{o.name}'")


def _integer(s, ev, v) -> np.ndarray:
    """The integer ``v`` per thread, which no ``i1`` value may compute: the evaluator holds
    a cast to ``i1`` as its operand's value, not its low bit, so a bit inside the integer
    arithmetic is refused (at the top of the condition :func:`truth` reads it exactly).
    The ops are read off the IR once per evaluator (its ``structure``) until the IR
    changes."""
    structure = getattr(ev, "structure", None)
    ops = None if structure is None else structure.get((_integer, v))
    if ops is None:
        ops = _integer_ops(s, v)
        if structure is not None:
            structure[(_integer, v)] = ops
    value = ev.value(v)
    _machine_exact(s, ev, ops)
    return value


def _integer_ops(s, v) -> list:
    """The ops that compute the integer ``v`` (:func:`_integer`), none of them of an
    ``i1`` value."""
    seen, todo, ops = set(), [v], {}
    i1 = ir.IntegerType.get_signless(1)
    while todo:
        x = todo.pop()
        if x in seen or isinstance(x.owner, ir.Block):
            continue
        seen.add(x)
        if x.type == i1:
            raise IRError(s, f"{describe(s)} has a condition whose integer arithmetic goes "
                             f"through an i1 value ({describe(_op(x.owner))}); the front end "
                             f"evaluates a cast to i1 only where the condition takes it")
        ops[_op(x.owner)] = None
        todo.extend(_op(x.owner).operands)
    return list(ops)


def _machine_exact(s, ev, ops: list) -> None:
    """The evaluator's exact integers are the machine's for ``ops`` (no result wraps, no
    unsigned op or comparison reads a negative operand), or ``s`` is refused."""
    if not exact_on_machine(ev, ops):
        raise IRError(s, f"{describe(s)} has a condition whose integer arithmetic the front "
                         f"end cannot evaluate exactly for every thread (a result wraps its "
                         f"type, or an unsigned operation reads a negative value)")


def _unknown(s, what: str) -> IRError:
    return IRError(s, f"{describe(s)} has a condition computed by {what}, which the front "
                      f"end does not evaluate as a mask (a cast of an integer to i1, "
                      f"cmpi, andi/ori/xori, vector.create_mask, vector.broadcast)")


def _check_sources(s, v, iv) -> None:
    """``v`` is computed by side-effect-free ops from ``iv``, thread ids and constants."""
    bad = foreign_source(v, {iv})
    if bad is not None:
        what = "a block argument" if isinstance(bad.owner, ir.Block) else source_text(bad)
        raise IRError(s, f"{describe(s)} has a condition that depends on {what}, not only "
                         f"on the loop variable, the thread and constants; the front end "
                         f"proves a select's mask full for every workgroup by evaluating it")


def unselect(s) -> None:
    """Select ``s`` replaced by its loaded value (proven the identity), and what computed
    its condition erased where nothing else uses it."""
    cond = s.operands[0]
    s.results[0].replace_all_uses_with(s.operands[1])
    s.erase()
    while not isinstance(cond.owner, ir.Block) and not list(cond.uses):
        o = _op(cond.owner)
        if not is_pure(o) or len(o.results) != 1:
            break
        nxt = o.operands[0] if len(o.operands) == 1 else None
        o.erase()
        if nxt is None:
            break
        cond = nxt
