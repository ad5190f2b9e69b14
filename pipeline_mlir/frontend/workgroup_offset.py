"""Indices that move with the workgroup: only as an offset, or not at all.

The front end takes a loop's LDS layout from one workgroup's addresses, and re-derives
a channel's copies from thread 0's source indices plus the offsets its copies take at a
few sampled workgroups (:func:`~pipeline_mlir.frontend.edges.sample_ids`: 0, the sample,
its next, the last).  What a sample shows holds at every workgroup only for indices of a
known structure:

* a global index of a copy is a part that moves with the workgroup alone (a tile, a row
  of tiles: the workgroup's coordinate) plus a part that does not (the thread, the
  K-loop), joined only by sums, differences, products by a constant, value casts and
  ``affine.apply``s in which the workgroup's terms are linear (:func:`workgroup_mixed`;
  applied to buffers whose row stride is known only at launch by
  :func:`~pipeline_mlir.frontend.launch_stride.kernel_dims`);
* an LDS index of a copy or a read (and the dynamic offsets of its views) does not move
  with the workgroup at all (:func:`check_lds_workgroup_free`, from
  :mod:`~pipeline_mlir.frontend.address`): an ``arith.select`` on the workgroup's tile
  would put the data elsewhere in a workgroup no sample sees.

A value stands for the workgroup when it is a workgroup id, the late form's workgroup
loop's variable or an ``scf.forall``'s variable at the prefetch point
(:func:`workgroup_vars`).
"""

from __future__ import annotations

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.analysis.ir_facts import VALUE_CASTS, WORKGROUP_ID_OPS, constant_int
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.locations import op_name
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import describe
from pipeline_mlir.frontend.row_proof_late import workgroup_loop_of

#: views from a copy's source down to the buffer's binding that keep its shape
SHAPE_VIEWS = ("memref.cast", "memref.assume_alignment", "amdgpu.fat_raw_buffer_cast",
               "memref.memory_space_cast")


#: ops through which a value of the workgroup stays an offset of an index: ``a + b``,
#: ``a - b``, a product by a constant and the value casts
_OFFSET_OPS = ("arith.addi", "arith.subi", "arith.muli") + VALUE_CASTS
#: what a value moves with (:func:`workgroup_mixed`): the workgroup, anything else
_WG, _OTHER = 1, 2


def workgroup_vars(loop) -> list:
    """The values that stand for the workgroup around ``loop``: the linearised workgroup
    loop's variable (the late form) or the variables of the ``scf.forall`` loops around it
    (IREE's prefetch point)."""
    wl = workgroup_loop_of(loop)
    if wl is not None:
        return [wl.regions[0].blocks[0].arguments[0]]
    out, p = [], loop.parent
    while p is not None:
        if _op(p).name == "scf.forall":
            out += list(_op(p).regions[0].blocks[0].arguments)
        p = p.parent
    return out


def _affine_offset(op, moving: list) -> bool:
    """Whether the ``affine.apply`` ``op`` is a sum in which each of its ``moving``
    operands appears only times a constant."""
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    dims = amap.n_dims
    pos = {i for i, x in enumerate(op.operands) if x in moving}

    def moves(e) -> bool:
        if isinstance(e, (ir.AffineDimExpr, ir.AffineSymbolExpr)):
            return e.position + (0 if isinstance(e, ir.AffineDimExpr) else dims) in pos
        return hasattr(e, "lhs") and (moves(e.lhs) or moves(e.rhs))

    def linear(e) -> bool:
        if isinstance(e, ir.AffineAddExpr):
            return linear(e.lhs) and linear(e.rhs)
        if isinstance(e, ir.AffineMulExpr):
            for x, y in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
                if isinstance(y, ir.AffineConstantExpr):
                    return linear(x)
        return not hasattr(e, "lhs") or not moves(e)

    return len(amap.results) == 1 and linear(amap.results[0])


def _kind(x, wg_vars: list, kinds: dict, ids: bool | None = True, neutral=()) -> int:
    """What the value ``x`` moves with: ``_WG`` (a value of ``wg_vars`` or, with ``ids``, a
    workgroup id), ``_OTHER`` (a thread id, a block argument, a load; a workgroup id with
    ``ids`` False), both or neither (a constant, a value of ``neutral``, a workgroup id with
    ``ids`` None); memoised in ``kinds`` (one dict per ``wg_vars``, ``ids`` and ``neutral``:
    a value there is none of those the tests before the memo take)."""
    got = kinds.get(x)
    if got is not None:
        return got
    if x in wg_vars:
        return _WG
    if x in neutral:
        return 0
    if isinstance(x.type, ir.MemRefType):
        return 0
    if isinstance(x.owner, ir.Block):
        return _OTHER
    if x not in kinds:
        op = _op(x.owner)
        if op.name in WORKGROUP_ID_OPS:
            kinds[x] = _WG if ids else _OTHER if ids is False else 0
        elif op.name in ("gpu.thread_id", "gpu.lane_id") or \
                any(isinstance(y.type, ir.MemRefType) for y in op.operands):
            kinds[x] = _OTHER
        else:
            kinds[x] = 0
            for y in op.operands:
                kinds[x] |= _kind(y, wg_vars, kinds, ids, neutral)
    return kinds[x]


def workgroup_mixed(v, wg_vars: list, kinds: dict, ids: bool | None = True,
                    neutral=()) -> object | None:
    """The first op on the way from ``v`` back to the workgroup (``wg_vars``:
    :func:`workgroup_vars`, a workgroup id) that combines a value moving with the workgroup
    alone (a tile, a row of tiles: the workgroup's coordinate) with one moving with
    anything else (a thread id, another loop's variable, a load) otherwise than as an
    offset (a sum, a difference, a product by a constant, a value cast, an
    ``affine.apply`` of such a sum); None if ``v`` is such a sum.  ``kinds`` memoises what
    each value moves with; with ``ids`` False or None only ``wg_vars`` count as the
    workgroup does (:func:`~pipeline_mlir.frontend.every_workgroup.mixing_op`'s other
    outer values: the K-loop's, the launch's), the ids and ``neutral`` values with the
    rest or with nothing (:func:`_kind`)."""

    def kind(x) -> int:
        return _kind(x, wg_vars, kinds, ids, neutral)

    todo, done = [v], set()
    while todo:
        x = todo.pop()
        if x in done or kind(x) != _WG | _OTHER:
            continue
        done.add(x)
        op = _op(x.owner)
        moving = [y for y in op.operands if kind(y) & _WG]
        if op.name == "affine.apply" and _affine_offset(op, moving):
            todo += moving
            continue
        if op.name not in _OFFSET_OPS or \
                (op.name == "arith.muli" and (len(moving) > 1 or all(
                    constant_int(y) is None for y in op.operands if y not in moving))):
            return op
        todo += moving
    return None


def joined_values(v, wg_vars: list, kinds: dict) -> list:
    """The values on the way from ``v`` back to the workgroup (:func:`workgroup_mixed`'s
    walk) that move with the workgroup and with the rest at once: the sums that join the
    two, whose range :func:`~pipeline_mlir.frontend.every_workgroup.prove_every_workgroup`
    bounds; each value's own operands follow it, and ``moves(x)`` of each operand tells
    what it moves with (``_WG``, ``_OTHER``, both or neither)."""
    out, todo = [], [v]
    while todo:
        x = todo.pop()
        if x in out or _kind(x, wg_vars, kinds) != _WG | _OTHER:
            continue
        out.append(x)
        todo += [y for y in _op(x.owner).operands if not isinstance(y.type, ir.MemRefType)]
    return out


def moves(x, wg_vars: list, kinds: dict) -> tuple[bool, bool]:
    """(whether ``x`` moves with the workgroup, whether with the rest: a thread, a loop, a
    load; :func:`_kind`)."""
    k = _kind(x, wg_vars, kinds)
    return bool(k & _WG), bool(k & _OTHER)


def workgroup_dependence(v, wg_vars: list, kinds: dict, ids: bool | None = True,
                         neutral=()) -> object | None:
    """The op through which the index ``v`` moves with the workgroup (``wg_vars``, a
    workgroup id; :func:`workgroup_mixed` where it mixes the two, else the op of ``v``);
    None if it does not."""
    if v in wg_vars:
        return _op(v.owner.owner) if isinstance(v.owner, ir.Block) else _op(v.owner)
    if not _kind(v, wg_vars, kinds, ids, neutral) & _WG:
        return None
    return workgroup_mixed(v, wg_vars, kinds, ids, neutral) or _op(v.owner)


def index_values(acc) -> list:
    """The index values of copy ``acc``'s source: its indices and the dynamic offsets of
    the views between it and the buffer."""
    return view_index_values(acc.src, acc.src_indices)


#: the views :func:`view_index_values` follows (a subview's offsets are index values)
VIEWS_FOLLOWED = SHAPE_VIEWS + ("memref.subview", "memref.expand_shape",
                                "memref.collapse_shape")


def view_index_values(v, indices: list) -> list:
    """``indices`` (of an access of ``v``) and the dynamic offsets of the views between
    ``v`` and its buffer (through :data:`VIEWS_FOLLOWED`)."""
    vals = list(indices)
    while not isinstance(v.owner, ir.Block):
        o = _op(v.owner)
        if o.name not in VIEWS_FOLLOWED:
            break
        if o.name == "memref.subview":
            vals += [x for x in list(o.operands)[1:] if not isinstance(x.type, ir.MemRefType)]
        v = o.operands[0]
    return vals


def offset_refusal(label: str, what: str, mixed, where) -> LM.LoopRefusal:
    """The refusal of channel ``label``'s copies of ``what`` (the buffer, described) at an
    index :func:`workgroup_mixed` found mixed at ``mixed``."""
    return LM.LoopRefusal(
        f"channel {label}'s copies read {what} at an index that combines the workgroup's "
        f"coordinate with the thread or the K-loop otherwise than as an offset "
        f"({describe(mixed)}): the front end moves the copies of the sampled workgroups by "
        f"what thread 0 reads, which holds at every workgroup only for an index that is "
        f"the workgroup's part plus the rest", where)


def check_lds_workgroup_free(scan) -> None:
    """The LDS index of every copy and read of ``scan``'s loop (and the dynamic offsets of
    its views) does not move with the workgroup: the pipeliner lays out LDS from one
    workgroup's addresses, which a sample of workgroups cannot prove for an index that
    depends on the workgroup; else an IRError at the access naming the op."""
    wg, kinds = workgroup_vars(scan.loop), {}
    for what, accesses in (("writes", scan.copies), ("reads", scan.reads)):
        for a in accesses:
            for x in view_index_values(a.view, a.indices):
                why = workgroup_dependence(x, wg, kinds)
                if why is not None:
                    raise IRError(a.op, f"'{op_name(a.op)}' op: the LDS elements it {what} move "
                                        f"with the workgroup ({describe(why)}); the pipeliner "
                                        f"lays out LDS from one workgroup's addresses and "
                                        f"needs them the same in every workgroup")
