"""Register-staged copies of a K-loop with their global loads issued one iteration ahead.

A helper of ``sched-stage-copies`` (:mod:`pipeline_mlir.passes.stage_copies`), which calls
:func:`plan` for every ``scf.for`` whose body holds marked copies and :func:`apply` when it
returns one.  In the loop, each marked copy (iteration ``i`` moves ``src[f(i)]`` to
``dst[base]``) becomes:

* at the copy's slot (where the schedule placed the DMA, whose LDS write lands between
  that slot and the wait derived for it), a ``vector.store`` to LDS of a register value
  the loop carries (a new ``iter_arg``): the lane's elements of ``src[f(i)]``, loaded one
  iteration earlier; then the load of the next iteration's elements ``src[f(i')]``, the
  index slice of the copy cloned with ``i' = i + step`` (or ``i`` in the last iteration,
  so no load leaves the rows the loop reads), yielded to the next iteration.  Before the
  loop, the slice cloned at the lower bound loads the first iteration's elements;
* ``s_waitcnt lgkmcnt(0)`` just before the first wait, barrier or op with regions after
  the copy (as in the slot form): the store is complete before the barrier that hands the
  buffer to its readers;
* the wait on the load before the store is the register dependency, which LLVM's wait
  insertion derives (a ``vmcnt`` of the loads issued since, across the back edge); the
  ``vmcnt`` parts of the loop's own ``s_waitcnt`` ops, which the schedule derived for DMA
  copies that now write nothing, are dropped (their ``lgkmcnt`` and ``expcnt`` kept); when
  the function also has copies that stay DMA copies, each is re-derived for them instead
  (:mod:`pipeline_mlir.passes._stage_mixed`).

A loop whose bounds are known only at run time (IREE's dynamic-K kernel: the pipelined
loop runs from the prologue's last K tile to a bound of K) is staged ahead too: the first
iteration's loads before it sit in ``scf.if lb < ub`` (zeros otherwise, never stored: a
loop that runs no iteration forms no address outside the rows it would read), and the next
iteration's index is clamped by the loop's own upper bound.

:func:`plan` returns a reason instead of a plan (the caller keeps the slot form,
``stage_copies._stage``) when the loop is not an ``scf.for`` with a positive constant
step, when its constant bounds give no iteration, when its bounds are known only at run
time and the function also has DMA copies (their waits are re-derived from a stream of
known length, ``_stage_mixed``), when some copy is not directly in its body or has an index that is not pure
arithmetic of the loop (no regions, no memory), when the loop reads or writes global
memory otherwise, or when the function also has DMA copies and the stream of VMEM
operations their ``vmcnt`` waits count cannot be modelled (``_stage_mixed``).  The
registers the loop then carries across its back edge (its ``iter_args`` and the staged
values, in 32-bit VGPRs per lane) must fit :data:`REGISTER_BUDGET`; otherwise the loop is
an error at the ``scf.for``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.analysis.ir_facts import (constant_bounds, constant_int, constant_trips,
                                             descendants, lane_stride, memory_space,
                                             segments)
from pipeline_mlir.analysis.views import INDEXING_VIEWS
from pipeline_mlir.frontend.kernel_ir import close_grown, grown_loop, zero_vector
from pipeline_mlir.isa.waitcnt import waitcnt_imm
from pipeline_mlir.passes._common import OpError, as_operation
from pipeline_mlir.analysis.barriers import waitcnt_fields
from pipeline_mlir.passes._stage_mixed import vmcnt_waits
from pipeline_mlir.target.gfx950 import VGPRS

#: VGPRs per lane the values live across the loop's back edge may take (the unified file)
REGISTER_BUDGET = VGPRS
#: the wait after a staged LDS write, before the wait or barrier that follows it
WRITE_DONE = waitcnt_imm(lgkmcnt=0)
#: ops that only view memory (no access)
VIEWS = INDEXING_VIEWS
#: ops an index slice may clone (pure, regionless)
PURE_PREFIXES = ("arith.", "index.", "affine.apply", "affine.min", "affine.max",
                 "affine.delinearize_index", "affine.linearize_index",
                 "gpu.thread_id", "gpu.lane_id",
                 "gpu.block_id", "gpu.block_dim", "gpu.grid_dim") + VIEWS


@dataclass
class Plan:
    loop: object        # the scf.for operation
    copies: list        # its marked copies, in body order
    lb: int | None      # None: a bound known only at run time (the loop's own operand)
    ub: int | None
    step: int
    waits: dict | None  # with DMA copies too: {wait: new immediate} (_stage_mixed)
    stores: dict        # with DMA copies too: {staged copy before the loop: its store point}


def _slice(copy, body) -> list | str:
    """The ops of ``body`` the copy's source view and index depend on, in body order, or
    why not."""
    (src,), src_idx, _, _ = segments(copy)
    need, todo = set(), [src] + list(src_idx)
    while todo:
        v = todo.pop()
        if isinstance(v, ir.BlockArgument):
            continue
        o = as_operation(v.owner)
        if o.block != body:
            continue
        if not o.name.startswith(PURE_PREFIXES) or len(o.regions):
            return f"its source index depends on '{o.name}'"
        if o not in need:
            need.add(o)
            todo.extend(o.operands)
    # in body order: a sort of the few ops found, not a pass over the whole body per copy
    return sorted(need, key=cmp_to_key(lambda a, b: -1 if a.is_before_in_block(b) else 1))


def _global_access(o) -> bool:
    return any(isinstance(v.type, ir.MemRefType) and memory_space(v.type) != "workgroup"
               for v in list(o.operands) + list(o.results))


def plan(loop, copies: list, unmarked: bool) -> Plan | str:
    """A :class:`Plan` for ``loop`` (an operation) and its marked ``copies``, or the reason
    the slot form stays (module docstring); ``unmarked``: the function has DMA copies."""
    if loop.name != "scf.for":
        return f"the copies are in '{loop.name}', not an scf.for body"
    trips, step = constant_trips(loop), constant_int(loop.operands[2])
    if trips == 0:
        return "the loop runs no iteration"
    if step is None or step <= 0:
        return "the loop's step is not a positive constant"
    if trips is None and unmarked:
        return ("the loop's bounds are known only at run time and the kernel also has "
                "direct-to-LDS copies")
    lb, ub, _ = constant_bounds(loop) or (None, None, step)
    body = loop.regions[0].blocks[0]
    for o in descendants(loop):
        if o.name == "amdgpu.gather_to_lds":
            if o.block != body:
                return "a copy of the loop is not directly in its body"
        elif not o.name.startswith(VIEWS) and _global_access(o):
            return f"the loop accesses global memory with '{o.name}'"
    for c in copies:
        if len(segments(c)[3]) != 1:
            return "a copy writes LDS with more than one index"
        s = _slice(c, body)
        if isinstance(s, str):
            return s
    waits, stores = None, {}
    if unmarked:
        derived = vmcnt_waits(loop, trips)
        if isinstance(derived, str):
            return f"the kernel also has direct-to-LDS copies and {derived}"
        waits, stores = derived
    return Plan(loop, copies, lb, ub, step, waits, stores)


def _regs(t) -> int:
    """32-bit registers per lane a value of type ``t`` takes."""
    if isinstance(t, ir.ShapedType):
        n = 1
        for d in t.shape:
            n *= d
        return -(-n * t.element_type.width // 32)
    return -(-t.width // 32)


def check_budget(p: Plan) -> OpError | None:
    carried = sum(_regs(a.type) for a in list(p.loop.regions[0].blocks[0].arguments)[1:])
    staged = sum(_regs(copy_vector_type(c)) for c in p.copies)
    if carried + staged > REGISTER_BUDGET:
        return OpError(p.loop, f"'scf.for' op would carry {carried + staged} VGPRs per "
                               f"lane across its back edge with its register-staged copies "
                               f"loaded an iteration ahead ({carried} for its iter_args, "
                               f"{staged} for the copies), more than the budget of "
                               f"{REGISTER_BUDGET}")
    return None


def copy_vector_type(copy):
    """The vector a copy (``amdgpu.gather_to_lds``) moves per lane: its transfer type, a
    scalar one as a vector of one."""
    vt = ir.TypeAttr(copy.attributes["transferType"]).value
    return vt if isinstance(vt, ir.VectorType) else ir.VectorType.get([1], vt)


def _load(copy, body, iv, at_iv):
    """The copy's global load with ``iv`` replaced by ``at_iv`` (its slice, source view
    and index, cloned at the insertion point)."""
    (src,), src_idx, _, _ = segments(copy)
    mapping = {iv: at_iv}
    for o in _slice(copy, body):
        new = o.clone()
        for k, v in enumerate(o.operands):
            if v in mapping:
                new.operands[k] = mapping[v]
        for old_r, new_r in zip(o.results, new.results):
            mapping[old_r] = new_r
    return B.vector.load(copy_vector_type(copy), mapping.get(src, src),
                         [mapping.get(v, v) for v in src_idx])


def apply(p: Plan, store_point, lane_address) -> None:
    """Rewrite ``p``'s loop (module docstring); ``store_point(op)`` is the op before which
    the copy's LDS write must be complete, ``lane_address(base, n)`` the lane's LDS index."""
    loop, body = p.loop, p.loop.regions[0].blocks[0]
    t = body.arguments[0].type
    A = B.arith
    with ir.InsertionPoint(loop), loop.location:
        if p.lb is None or p.ub is None:
            firsts = _guarded_firsts(p, body)
        else:
            lb = A.constant(t, ir.IntegerAttr.get(t, p.lb))
            firsts = [_load(c, body, body.arguments[0], lb) for c in p.copies]
    n = len(list(body.arguments)) - 1
    new = grown_loop(loop, firsts)
    nb = new.body
    iv, nexts = nb.arguments[0], []
    for k, c in enumerate(p.copies):
        nexts.append(_stage_ahead(c, nb, iv, nb.arguments[1 + n + k], p, lane_address,
                                  store_point))
    close_grown(loop, new, nexts)
    if p.waits is None:
        _drop_vmcnt(new.operation)
    else:
        _set_waits(p.waits)


def _stage_ahead(c, body, iv, carried, p: Plan, lane_address, store_point):
    """Copy ``c`` made a store of ``carried`` and the next iteration's load, which it
    returns."""
    _, _, (dst,), (base,) = segments(c)
    fence = store_point(c)
    with ir.InsertionPoint(c), c.location:
        B.vector.store(carried, dst, [lane_address(base, lane_stride(
            c, copy_vector_type(c).shape[0]))])
        value = _load(c, body, iv, _next_iv(iv, p))
    with ir.InsertionPoint(fence), c.location:
        B.rocdl.s_waitcnt(WRITE_DONE)
    c.erase()
    return value


def _next_iv(iv, p: Plan):
    """``iv + step``, or ``iv`` in the loop's last iteration (emitted here)."""
    t = iv.type
    A = B.arith
    step = A.constant(t, ir.IntegerAttr.get(t, p.step))
    ub = _bound(p.ub, p.loop.operands[1])
    nxt = A.addi(iv, step)
    return A.select(A.cmpi(A.CmpIPredicate.slt, nxt, ub), nxt, iv)


def _bound(value: int | None, operand):
    """A loop bound at the insertion point: the constant ``value``, or the loop's own
    ``operand`` (defined before the loop) when it is known only at run time."""
    if value is None:
        return operand
    return B.arith.constant(operand.type, ir.IntegerAttr.get(operand.type, value))


def _guarded_firsts(p: Plan, body) -> list:
    """The first iteration's loads before a loop whose bounds are known only at run time:
    inside ``scf.if lb < ub`` (a loop that runs no iteration reads nothing, so no address
    outside the rows it reads is formed), zeros otherwise (the loop never stores them)."""
    loop = p.loop
    lb, ub = list(loop.operands)[:2]
    types = [copy_vector_type(c) for c in p.copies]
    runs = B.arith.cmpi(B.arith.CmpIPredicate.slt, lb, ub)
    guard = B.scf.IfOp(runs, types, has_else=True)
    with ir.InsertionPoint(guard.then_block):
        B.scf.YieldOp([_load(c, body, body.arguments[0], lb) for c in p.copies])
    with ir.InsertionPoint(guard.else_block):
        B.scf.YieldOp([zero_vector(t) for t in types])
    return list(guard.results)


def _set_waits(waits: dict) -> None:
    for w, imm in waits.items():
        _set_wait(w, imm)


def _set_wait(w, imm: int) -> None:
    """Wait ``w`` given immediate ``imm``, or erased when that waits for nothing."""
    if imm == waitcnt_imm():
        w.erase()
    else:
        w.attributes["bitfield"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), imm)


def _drop_vmcnt(loop) -> None:
    for o in list(descendants(loop)):
        if o.name == "rocdl.s.waitcnt":
            _, exp, lgkm = waitcnt_fields(o)
            _set_wait(o, waitcnt_imm(expcnt=exp, lgkmcnt=lgkm))
