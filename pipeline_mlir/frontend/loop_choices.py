"""The K-loop's own choices settled where the pipelined loop runs.

A K-loop whose last K tile is partial computes its K rows through choices that only that
tile needs: IREE clamps each copy's K offset and row count to K (``affine.min`` of ``200``
and ``32 k``, of ``200 - 32 k``, ``32`` and the thread's row), and the front end's own
kept K rows (:mod:`~pipeline_mlir.frontend.kept_rows`) point a row not read past the
buffer's end (``ok ? row : rows``).  Once the loop is cut so that the pipelined part runs
only full K tiles (the interior workgroups' loop of
:mod:`~pipeline_mlir.frontend.edge_version`, whose trip count is then known only at run
time), each such choice takes the same operand on every thread at every iteration the
pipelined loop runs, and the copies' global index is the K step's part plus the thread's,
the additive form the front end's own copies are compared with at one K step.

:func:`settle_choices` proves it by evaluation (the per-lane evaluator, every thread of the
workgroup, every value of the loop variable the pipelined loop takes) and puts the chosen
operand in place: a chooser (:data:`CHOOSERS`; an affine one's chosen map result as an
``affine.apply``, :func:`candidates`) equal to one candidate everywhere, an
``arith.select`` of a scalar condition true everywhere (``truth`` of
:mod:`~pipeline_mlir.frontend.select_masks`, exact at one bit).  Only choices directly in
the loop's body, computed from the loop variable, the threads and constants alone (the
same in every workgroup, so one workgroup's evaluation covers all), and whose integers the
evaluator holds exactly as the machine does, are settled; any other is left as it is, for
what follows to take or refuse.
"""

from __future__ import annotations

import re

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.exact_ints import exact_on_machine
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.frontend.dynamic_masks import foreign_source
from pipeline_mlir.frontend.kernel_ir import depends, erase_unused, is_pure, kernel_of
from pipeline_mlir.frontend.select_masks import truth

__all__ = ["CHOOSERS", "candidates", "drop_unused", "last_is_tail", "settle_choices"]

#: the ops whose value is one of their operands (or map results)
CHOOSERS = ("affine.min", "affine.max", "arith.minsi", "arith.minui", "arith.maxsi",
            "arith.maxui")


def candidates(op) -> list:
    """Values ``op`` (one of :data:`CHOOSERS`) may equal: its operands, or for an affine
    one an ``affine.apply`` of each map result, built before ``op``."""
    if not op.name.startswith("affine."):
        return list(op.operands)
    am = ir.AffineMapAttr(op.attributes["map"]).value
    out = []
    with ir.InsertionPoint(op), op.location:
        for e in am.results:
            t = op.results[0].type
            if isinstance(e, ir.AffineConstantExpr):    # (a constant: no apply of nothing)
                value = e.value
                out.append(ir.Operation.create("arith.constant", results=[t], attributes={
                    "value": ir.IntegerAttr.get(t, value)}).results[0])
                continue
            m, operands = used_only(str(e), am.n_dims, list(op.operands))
            out.append(ir.Operation.create(
                "affine.apply", results=[t], operands=operands,
                attributes={"map": ir.AffineMapAttr.get(m)}).results[0])
    return out


def used_only(expr: str, n_dims: int, operands: list) -> tuple:
    """The one-result map of affine expression ``expr`` (over ``n_dims`` dimensions and
    the symbols after them in ``operands``) and its operands, only those it uses: a map
    result that does not use the size is then not computed from it."""
    used = sorted({(k, int(i)) for k, i in re.findall(r"\b([ds])(\d+)\b", expr)})
    dims = [i for k, i in used if k == "d"]
    syms = [i for k, i in used if k == "s"]
    names = {("d", i): f"d{j}" for j, i in enumerate(dims)}
    names.update({("s", i): f"s{j}" for j, i in enumerate(syms)})
    text = re.sub(r"\b([ds])(\d+)\b", lambda g: names[(g.group(1), int(g.group(2)))], expr)
    head = "(" + ", ".join(f"d{j}" for j in range(len(dims))) + ")" + (
        "[" + ", ".join(f"s{j}" for j in range(len(syms))) + "]" if syms else "")
    m = ir.AffineMapAttr(ir.Attribute.parse(f"affine_map<{head} -> ({text})>")).value
    return m, [operands[i] for i in dims] + [operands[n_dims + i] for i in syms]


def drop_unused(values) -> None:
    """The ``affine.apply`` and ``arith.constant`` ops of ``values`` that nothing uses
    erased (candidates not chosen)."""
    for v in values:
        if not isinstance(v.owner, ir.Block) and \
                _op(v.owner).name in ("affine.apply", "arith.constant") and not list(v.uses):
            _op(v.owner).erase()


def _settled_here(o, iv) -> bool:
    """Whether ``o`` is a choice :func:`settle_choices` looks at (module docstring)."""
    if o.name == "arith.select":
        if isinstance(o.operands[0].type, ir.VectorType):
            return False
        ins = [o.operands[0]]
    elif o.name in CHOOSERS:
        ins = list(o.operands)
    else:
        return False
    return any(depends(v, {iv}) for v in ins) and \
        all(foreign_source(v, {iv}) is None for v in ins)


def _cone(v, loop=None) -> list:
    """The side-effect-free ops that compute ``v`` (with ``loop``, only those in its
    body)."""
    out, todo, seen = [], [v], set()
    while todo:
        x = todo.pop()
        if x in seen or isinstance(x.owner, ir.Block):
            continue
        seen.add(x)
        o = _op(x.owner)
        if is_pure(o) and (loop is None or o.parent == loop):
            out.append(o)
            todo += list(o.operands)
    return out


def _evaluated(loop, iterations) -> tuple:
    """(the choices of ``loop``'s body, their candidates, per choice and value of
    ``iterations`` the indices of the candidates it equals there)."""
    iv = loop.regions[0].blocks[0].arguments[0]
    found = [o for o in map(_op, loop.regions[0].blocks[0].operations) if _settled_here(o, iv)]
    # (lists, not dicts of ops: an op's handle is compared only while it is alive)
    cands = [candidates(o) if o.name in CHOOSERS else [o.operands[1]] for o in found]
    seen = [[] for _ in found]
    if found:
        ev = Evaluator(block_size(kernel_of(loop)))
        ev.where = loop
        for k in iterations:
            ev.bind(iv, k)
            for i, o in enumerate(found):
                seen[i].append(_equal(o, cands[i], ev))
    return found, cands, seen


def _unchosen(found: list, cands: list) -> list:
    """The candidates :func:`candidates` built (an affine chooser's; another's are its own
    operands, which ``erase_unused`` takes where nothing uses them)."""
    return [v for o, vs in zip(found, cands) if o.name.startswith("affine.") for v in vs]


def last_is_tail(loop, iterations) -> bool:
    """Whether some choice of ``loop``'s body takes one operand at every value of
    ``iterations`` but the last and not at the last: the loop's last iteration is a
    partial K tile (IREE's clamps of a K that is not a multiple of the K step), which the
    pipelined loop must leave to the remainder.  Nothing is changed."""
    iterations = list(iterations)
    found, cands, seen = _evaluated(loop, iterations)
    drop_unused(_unchosen(found, cands))
    return len(iterations) > 1 and any(
        set.intersection(*s[:-1]) and not set.intersection(*s) for s in seen)


def settle_choices(loop, iterations) -> int:
    """Each choice of ``loop``'s body that takes one operand on every thread at every value
    of ``iterations`` (the loop variable's values where ``loop`` runs) replaced by that
    operand (module docstring); the number replaced."""
    found, cands, seen = _evaluated(loop, iterations)
    ok = [set.intersection(*s) if s else set() for s in seen]
    settled = [(o, cands[i][min(ok[i])]) for i, o in enumerate(found) if ok[i]]
    feeding = [x for o, _ in settled for v in o.operands for x in _cone(v, loop)]
    unchosen = _unchosen(found, cands)
    for o, chosen in settled:   # (a select's operand as it is now: a choice settled before)
        o.results[0].replace_all_uses_with(o.operands[1] if o.name == "arith.select"
                                           else chosen)
    erase_unused([o for o, _ in settled] + feeding)     # (an erased handle is not looked
    drop_unused(unchosen)                               #  at again)
    return len(settled)


def _equal(o, vs: list, ev) -> set:
    """The indices of ``vs`` that ``o``'s value equals on every thread at the evaluator's
    iteration (a select: its true operand, when its condition is true on every thread),
    exactly as the machine computes them; empty when that cannot be settled."""
    try:
        if o.name == "arith.select":
            return {0} if np.all(truth(o, ev, o.operands[0])) else set()
        ops = _cone(o.results[0]) + [x for v in vs for x in _cone(v)]
        if not exact_on_machine(ev, ops):
            return set()
        have = np.asarray(ev.value(o.results[0]))
        return {j for j, v in enumerate(vs) if np.array_equal(np.asarray(ev.value(v)), have)}
    except IRError:     # (an op the evaluator does not compute: left as it is)
        return set()
