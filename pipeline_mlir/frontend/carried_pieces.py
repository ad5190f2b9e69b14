"""A vector the K-loop carries whole, carried as its pieces.

When the accumulators of a thread are one ``iter_arg`` (IREE's dynamic-K kernel, once its
LDS accumulator is carried: :mod:`~pipeline_mlir.frontend.lds_accumulators`,
``vector<4x4x4x1xf32>``), the body takes each MFMA's accumulator out of it
(``vector.extract %acc[i, j]``, then a ``vector.shape_cast`` to the MFMA's
``vector<4xf32>``) and rebuilds the vector from the MFMA results
(``vector.insert_strided_slice`` at ``[i, j, 0, 0]``) to yield it.  :func:`split_carried`
carries each piece as an ``iter_arg`` of its own, of the pieces' elements as a 1-D
vector, the form in which the front end finds an MFMA's accumulator.  Exact when every use
of the carried vector in the body is a ``vector.extract`` at a static position of its
leading dimensions, and the yielded value is a chain of ``vector.insert_strided_slice``
that writes every such position whole (the last write of a position wins, as the chain
computes): the pieces before the loop are the initial vector's, the vector after it is
rebuilt from the carried pieces on the initial one.  Otherwise the vector is carried
whole (and the scan refuses the MFMA whose accumulator it is).
"""

from __future__ import annotations

import itertools
import math

from pipeline_mlir.analysis.ir_facts import dense_i64
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import next_op, owner

__all__ = ["split_carried", "gather_scalars", "take_over"]


def _cast(v, t):
    """``v`` as type ``t`` (a ``vector.shape_cast`` at the insertion point unless it is)."""
    if v.type == t:
        return v
    if not isinstance(v.owner, ir.Block) and _op(v.owner).name == "vector.shape_cast" and \
            _op(v.owner).operands[0].type == t:
        return _op(v.owner).operands[0]
    return ir.Operation.create("vector.shape_cast", results=[t], operands=[v]).results[0]


def _pieces(loop, k, lead: int):
    """{position: yielded piece} of iter_arg ``k`` (the chain of inserts), or None."""
    body = loop.regions[0].blocks[0]
    v = list(_op(body.operations[-1]).operands)[k]
    pieces = {}
    while not isinstance(v.owner, ir.Block) and \
            _op(v.owner).name == "vector.insert_strided_slice":
        ins = _op(v.owner)
        offsets = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(ins.attributes["offsets"])]
        st = ir.VectorType(ins.operands[0].type)
        if any(offsets[lead:]) or list(st.shape)[:lead] != [1] * lead or \
                len(list(st.shape)) != len(offsets):
            return None
        pieces.setdefault(tuple(offsets[:lead]), ins.operands[0])
        v = ins.operands[1]
    return pieces


def _split_plan(loop, k):
    """(lead dims, positions, extracts) for splitting iter_arg ``k``, or None."""
    arg = loop.regions[0].blocks[0].arguments[1 + k]
    vt = ir.VectorType(arg.type)
    extracts, lead = [], None
    for u in arg.uses:
        o = _op(u.owner)
        if o.name != "vector.extract" or len(o.operands) != 1:
            return None
        pos = dense_i64(o, "static_position")
        lead = len(pos) if lead is None else lead
        if len(pos) != lead or lead == 0 or lead >= vt.rank:
            return None
        extracts.append(o)
    if lead is None:
        return None
    positions = list(itertools.product(*(range(d) for d in list(vt.shape)[:lead])))
    pieces = _pieces(loop, k, lead)
    if pieces is None or set(pieces) != set(positions):
        return None
    return lead, positions, extracts, pieces


def take_over(loop, new, keep: list):
    """``new`` (the rebuilt ``scf.for``) takes ``loop``'s attributes and the uses of its
    results ``keep`` (in order, its first results); returns (``new``'s results, the
    insertion point after it)."""
    for a in loop.attributes:
        new.operation.attributes[a] = loop.attributes[a]
    res = list(new.results)
    for j, i in enumerate(keep):
        loop.results[i].replace_all_uses_with(res[j])
    return res, ir.InsertionPoint(next_op(new.operation))


def split_carried(loop):
    """``loop`` with every iter_arg it can split carried as pieces (module docstring): a
    new ``scf.for``, or ``loop`` when none could be."""
    for k in range(len(loop.results)):
        plan = _split_plan(loop, k)
        if plan is not None:
            return split_carried(_split(loop, k, *plan))
    return loop


def _split(loop, k, lead, positions, extracts, pieces):
    vt = ir.VectorType(loop.results[k].type)
    trailing = list(vt.shape)[lead:]
    pt = ir.VectorType.get([math.prod(trailing)], vt.element_type)
    st = ir.VectorType.get([1] * lead + trailing, vt.element_type)
    et = ir.VectorType.get(trailing, vt.element_type)
    inits = list(loop.operands)[3:]
    with ir.InsertionPoint(loop), loop.location:
        firsts = [_cast(B.vector.ExtractOp(inits[k], [], list(p)).result, pt) for p in positions]
        new = B.scf.ForOp(loop.operands[0], loop.operands[1], loop.operands[2],
                          inits[:k] + inits[k + 1:] + firsts)
    old, nb = loop.regions[0].blocks[0], new.body
    args = list(nb.arguments)
    n = len(inits)
    keep = [i for i in range(n) if i != k]
    old.arguments[0].replace_all_uses_with(args[0])
    for j, i in enumerate(keep):
        old.arguments[1 + i].replace_all_uses_with(args[1 + j])
    piece_arg = {p: args[n + j] for j, p in enumerate(positions)}
    for e in extracts:
        arg = piece_arg[tuple(dense_i64(e, "static_position"))]
        for u in list(e.results[0].uses):
            o = _op(u.owner)
            if o.name == "vector.shape_cast" and o.results[0].type == pt:
                o.results[0].replace_all_uses_with(arg)
                o.erase()
        if list(e.results[0].uses):
            with ir.InsertionPoint(e), e.location:
                e.results[0].replace_all_uses_with(_cast(arg, et))
        e.erase()
    ops = [_op(o) for o in old.operations]
    for o in ops[:-1]:
        nb.append(o)
    y = list(ops[-1].operands)
    with ir.InsertionPoint(nb), loop.location:
        B.scf.YieldOp([y[i] for i in keep] + [_cast(pieces[p], pt) for p in positions])
    res, after = take_over(loop, new, keep)
    with after, loop.location:
        whole = inits[k]
        for j, p in enumerate(positions):
            whole = B.vector.InsertStridedSliceOp(_cast(res[n - 1 + j], st), whole,
                                                  list(p) + [0] * len(trailing),
                                                  [1] * (lead + len(trailing))).result
    loop.results[k].replace_all_uses_with(whole)
    loop.erase()
    return new.operation


def gather_scalars(loop):
    """``loop`` with the one-element iter_args that the body assembles into one vector
    carried as that vector (IREE's late form, its LDS accumulators carried one
    ``vector<1xf32>`` per element): ``n`` iter_args ``a_0 .. a_{n-1}`` whose only use is a
    ``vector.extract %a_i[0]``, each of those the ``i``-th operand of one
    ``vector.from_elements`` ``F`` (its only use), and whose yielded values are
    ``vector.broadcast`` of ``vector.extract %M[i]`` of one value ``M`` of ``F``'s type.
    Exact: every iteration enters with ``a_i = M[i]`` of the one before (the initial
    values at the first), so ``F`` is the carried ``M``; after the loop each ``a_i`` is
    ``M[i]`` again.  Returns the new ``scf.for``, or ``loop`` when nothing is gathered."""
    groups = _scalar_groups(loop)
    return _gather(loop, groups) if groups else loop


def _scalar_of(arg):
    """The ``vector.from_elements`` and position that one-element iter_arg ``arg`` feeds
    (module docstring of :func:`gather_scalars`), or None."""
    t = arg.type
    if not str(t).startswith("vector<") or list(ir.VectorType(t).shape) != [1]:
        return None
    uses = list(arg.uses)
    if len(uses) != 1 or _op(uses[0].owner).name != "vector.extract":
        return None
    e = _op(uses[0].owner)
    if len(e.operands) != 1 or dense_i64(e, "static_position") != [0]:
        return None
    eu = list(e.results[0].uses)
    if len(eu) != 1 or _op(eu[0].owner).name != "vector.from_elements":
        return None
    return _op(eu[0].owner), eu[0].operand_number


def _yielded_part(v):
    """(M, i) when ``v`` is ``vector.broadcast(vector.extract %M[i])``, else None."""
    b = owner(v, "vector.broadcast")
    x = None if b is None else owner(b.operands[0], "vector.extract")
    if x is None or len(x.operands) != 1:
        return None
    pos = dense_i64(x, "static_position")
    return (x.operands[0], pos[0]) if len(pos) == 1 else None


def _scalar_groups(loop) -> list:
    """[(F, M, [iter_arg index per position of F])] of :func:`gather_scalars`."""
    body = loop.regions[0].blocks[0]
    yielded = list(_op(body.operations[-1]).operands)
    by_f: dict = {}
    for k, arg in enumerate(list(body.arguments)[1:]):
        fed = _scalar_of(arg)
        part = _yielded_part(yielded[k]) if fed is not None else None
        if part is None or part[1] != fed[1]:
            continue
        by_f.setdefault(fed[0], {})[fed[1]] = (k, part[0])
    out = []
    for f, slots in by_f.items():
        n = len(f.operands)
        ms = {m for _, m in slots.values()}
        if sorted(slots) != list(range(n)) or len(ms) != 1:
            continue
        m = ms.pop()
        if m.type != f.results[0].type:
            continue
        out.append((f, m, [slots[i][0] for i in range(n)]))
    return out


def _gather(loop, groups: list):
    body = loop.regions[0].blocks[0]
    inits = list(loop.operands)[3:]
    gone = {k for _, _, ks in groups for k in ks}
    keep = [k for k in range(len(inits)) if k not in gone]
    with ir.InsertionPoint(loop), loop.location:
        firsts = []
        for f, _, ks in groups:
            parts = [B.vector.ExtractOp(inits[k], [], [0]).result for k in ks]
            firsts.append(B.vector.FromElementsOp(f.results[0].type, parts).result)
        new = B.scf.ForOp(loop.operands[0], loop.operands[1], loop.operands[2],
                          [inits[k] for k in keep] + firsts)
    nb = new.body
    args = list(nb.arguments)
    body.arguments[0].replace_all_uses_with(args[0])
    for j, k in enumerate(keep):
        body.arguments[1 + k].replace_all_uses_with(args[1 + j])
    for g, (f, _, ks) in enumerate(groups):
        f.results[0].replace_all_uses_with(args[1 + len(keep) + g])
        f.erase()
        for k in ks:
            _op(list(body.arguments[1 + k].uses)[0].owner).erase()
    ops = [_op(o) for o in body.operations]
    y = list(ops[-1].operands)
    for o in ops[:-1]:
        nb.append(o)
    with ir.InsertionPoint(nb), loop.location:
        B.scf.YieldOp([y[k] for k in keep] + [m for _, m, _ in groups])
    for k in gone:     # the yielded parts, now unused
        b = _op(y[k].owner)
        x = _op(b.operands[0].owner)
        if not list(b.results[0].uses):
            b.erase()
            if not list(x.results[0].uses):
                x.erase()
    res, after = take_over(loop, new, keep)
    with after, loop.location:
        for g, (_, _, ks) in enumerate(groups):
            whole = res[len(keep) + g]
            for i, k in enumerate(ks):
                part = B.vector.ExtractOp(whole, [], [i]).result
                loop.results[k].replace_all_uses_with(
                    B.vector.BroadcastOp(loop.results[k].type, part).result)
    loop.erase()
    return new.operation
