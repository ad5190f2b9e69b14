"""The tails of a natural K-loop: the K tiles the pipelined loop does not run.

The schedule's loop takes two K tiles per iteration (its prologue and epilogue one pair
each), so it runs an even number of the natural loop's iterations, at least two.
:func:`split_tail` gives the rest a *remainder path* before the loop is analysed: the
natural loop is cut at ``split`` into

* the loop to pipeline, ``lb .. split``: an even number of iterations, and
* the remainder loop, ``split .. ub``: a copy of the natural loop as it was written (its
  copies, barriers, reads and MFMAs, in order, unpipelined), on LDS buffers of its own,
  its accumulators starting from the pipelined loop's results.  It carries
  :data:`~pipeline_mlir.frontend.scan.REMAINDER_ATTR`, so the front end does not take it
  for another loop to pipeline.

With a constant trip count ``N``, ``split`` is the constant ``lb + (N - N mod 2) * step``
and the remainder runs the last iteration when ``N`` is odd.  With a trip count known only
at run time, ``split = lb + ((ub - lb) / (2 step)) * 2 step`` is computed before the loop
(with a masked last K tile ``lb + (max(ub - step - lb, 0) / (2 step)) * 2 step``, so that
the last iteration is always the remainder's: :mod:`~pipeline_mlir.frontend.dynamic_masks`)
and the remainder runs zero or one iteration (one or two) when the pipelined loop runs,
every iteration when it has no pair: the pipelined loop (its prologue and epilogue with it) sits in an
``scf.if (split > lb)`` whose ``else`` hands the initial accumulators straight to the
remainder (:func:`_guard_pairs`); its bounds must be the same in every wave
(:func:`check_uniform_bounds`).  The remainder reads and writes only its own LDS, so
no wave's remainder can race with another wave still in the pipelined loop; its waits and
barriers are the natural loop's own, which LLVM lowers as for any unpipelined kernel; its
global loads into registers are issued a K tile ahead once the remainders are placed
(:mod:`~pipeline_mlir.frontend.remainder_ahead`).
When three copies of the loop's LDS (two stages and the remainder's) do not fit, an
unmasked remainder is planned onto the schedule's stage-0 buffers instead
(:func:`~pipeline_mlir.frontend.remainder_plan.at_split`) and ``sched-adopt-loop``
rebuilds it there (:mod:`~pipeline_mlir.frontend.shared_remainder`).

The K steps a merged loop leaves (:mod:`~pipeline_mlir.frontend.kmerge`) take the same
path: :func:`guarded_pairs` cuts the merged loop of a run-time trip count as above, and
:func:`make_remainder` makes the kernel's loop after it the remainder.

A masked last K tile (:mod:`~pipeline_mlir.frontend.masks`) is peeled the same way: the
remainder runs the last iteration with the masks as written, and the pipelined loop's
copies are proven unmasked in every iteration it runs.
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute
from pipeline_mlir.analysis.ir_facts import (constant_bounds, constant_int, constant_trips,
                                             defined_in, static_bytes)
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.analysis.wg_uniform import WHY, varying_source
from pipeline_mlir.frontend.adopt import even_trips_proven
from pipeline_mlir.frontend.kernel_ir import (describe, erase_unused_buffer, in_lds, in_use,
                                             is_buffer_root, is_pure, kernel_of, lds_bytes,
                                             next_op, other_lds)
from pipeline_mlir.frontend.remainder_plan import STAGE0
from pipeline_mlir.frontend.remainder_plan import at_split as plan_at_split
from pipeline_mlir.frontend.tail_swizzle import resolve_swizzles, unswizzled_clone
from pipeline_mlir.target import gfx950
from pipeline_mlir.frontend.marks import OWN_ATTR, PAIR_GUARD_ATTR, REMAINDER_ATTR, WHOLE_ATTR

#: the natural loop's iterations the schedule's loop runs per iteration of its own
PAIR = 2
#: the largest position :func:`clamp_split` lets the pipelined loop's counter reach
I32_MAX = (1 << 31) - 1
#: the view ops between an LDS buffer and the remainder's uses that it clones
VIEW_OPS = ("memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast",
            "memref.reinterpret_cast", "memref.assume_alignment", "memref.memory_space_cast",
            "iree_codegen.swizzle_hint")


def check_step(loop) -> None:
    """A constant step of ``loop`` that is not positive is an error at the loop (it never
    ends; the rewrite relies on the loop advancing), and so is an unsigned loop
    (``scf.for unsigned``) whose bounds are not constants >= 0 (its trip count may differ
    from the signed one the front end counts)."""
    step = constant_int(loop.operands[2])
    if step is not None and step <= 0:
        raise IRError(loop, f"'scf.for' op has step {step}; the front end pipelines loops "
                            f"with a positive constant step")
    if "unsignedCmp" in loop.attributes and constant_bounds(loop) is None:
        raise IRError(loop, "'scf.for' op compares its bounds unsigned ('scf.for unsigned') "
                            "and they are not constants >= 0; the front end counts a loop's "
                            "iterations signed, and pipelines loops whose signed and unsigned "
                            "trip counts agree")


def check_uniform_bounds(loop) -> None:
    """A trip count known only at run time must be the workgroup's, not a thread's or a
    wave's: a bound that may differ between the waves
    (:func:`~pipeline_mlir.analysis.wg_uniform.varying_source`: from a thread id, one lane's
    value, a load, an op with regions, a loop-carried value or an op the rule does not know)
    is an error at the loop naming it (the
    schedule's barriers, and the guard of :func:`_guard_pairs`, need every wave to run the
    same iterations)."""
    for v in list(loop.operands)[:3]:
        why = varying_source(v)
        if why is None:
            continue
        where = "" if why.op is None else f" ({describe(why.op)}" + (
            ")" if why.arg is None else f", its argument #{why.arg})")
        raise IRError(loop, f"'scf.for' op has a trip count known only at run time that "
                            f"depends on {WHY[why.kind]}{where}; the front end pipelines a "
                            f"loop whose trip count every wave of the workgroup shares")


def _exact_upper_bound(loop) -> None:
    """With constant bounds, make ``loop``'s upper bound ``lb + trips * step``: the same
    iterations, and the bound the schedule's loop and its remainder are cut from (the
    ping-pong loop took an upper bound the step does not divide for one more pair)."""
    bounds = constant_bounds(loop)
    if bounds is None or bounds[2] <= 0 or bounds[1] <= bounds[0]:
        return
    lb, ub, step = bounds
    if (ub - lb) % step == 0:
        return
    with ir.InsertionPoint(loop), loop.location:
        t = loop.operands[1].type
        loop.operands[1] = B.arith.constant(t, ir.IntegerAttr.get(t, lb + constant_trips(loop)
                                                                  * step))


def split_tail(loop, peel_last: bool = False, whole_steps: bool = False,
               why: str | None = None) -> object | None:
    """Cut ``loop`` (a natural K-loop) so that it runs an even number of iterations and
    a remainder loop after it runs the rest (module docstring); ``peel_last`` makes the
    remainder run the last iteration at least (a masked K tail).  ``whole_steps`` (with
    ``peel_last`` and a constant trip count): when the pairs would be one, the loop keeps
    every iteration before the last, an odd number perhaps, for the front end to split
    into sub-steps (:func:`~pipeline_mlir.frontend.natural.adopt_loop`, which moves the
    cut back with :func:`cut_back` when the split does not take the loop).  ``why``: why
    the masks of two K steps are not kept in the pair instead
    (:func:`~pipeline_mlir.frontend.kept_tail.keep_tail_in_pair`), for the note of a loop
    run as written.  Returns the remainder loop, or None when ``loop`` needs none."""
    check_step(loop)
    _exact_upper_bound(loop)
    trips = constant_trips(loop)
    if trips is not None:
        keep = trips - trips % PAIR
        if peel_last and trips % PAIR == 0:
            keep -= PAIR
        if whole_steps and peel_last and keep == PAIR:
            keep = trips - 1
        if keep == trips:
            return None   # even (none at all: sched-adopt-loop says so)
        if keep < PAIR:
            return whole_remainder(loop, unpipelined_note(trips, peel_last, why))
        with ir.InsertionPoint(loop), loop.location:
            t = loop.operands[0].type
            lb, _ub, step = constant_bounds(loop)
            split = B.arith.constant(t, ir.IntegerAttr.get(t, lb + keep * step))
    else:
        check_uniform_bounds(loop)
        if PAIR_GUARD_ATTR in loop.attributes or (even_trips_proven(loop) and not peel_last):
            return None     # (cut already: a masked tail's peel)
        with ir.InsertionPoint(loop), loop.location:
            split = clamp_split(loop, _masked_split(loop) if peel_last else _even_split(loop))
        rem = _remainder(loop, split, shareable=not peel_last)
        _guard_pairs(loop, split)
        return rem
    return _remainder(loop, split, shareable=not peel_last)


def cut_back(loop, rem) -> None:
    """Move the cut between ``loop`` (a constant trip count, odd: :func:`split_tail`'s
    ``whole_steps``) and its remainder loop ``rem`` one iteration back, so that ``loop``
    runs an even number and ``rem`` (the kernel's loop as written) one more."""
    lb, ub, step = constant_bounds(loop)
    with ir.InsertionPoint(loop), loop.location:
        t = loop.operands[1].type
        split = B.arith.constant(t, ir.IntegerAttr.get(t, ub - step))
    loop.operands[1] = split
    rem.operands[0] = split


def guarded_pairs(loop):
    """``loop`` (its trip count known only at run time) cut to the pairs of iterations it
    holds, as :func:`split_tail` cuts a natural loop: it ends at the split (clamped,
    :func:`clamp_split`) and runs inside the guard of :func:`_guard_pairs`; returns the
    split, where the iterations left over start (the caller's remainder loop runs them)."""
    check_uniform_bounds(loop)
    with ir.InsertionPoint(loop), loop.location:
        split = clamp_split(loop, _even_split(loop))
    loop.operands[1] = split
    _guard_pairs(loop, split)
    return split


def guarded_remainder(loop, split):
    """``loop`` (constant or run-time bounds) cut at ``split``, a value emitted before it
    that is ``lb`` or ``lb`` plus pairs of iterations (clamped, :func:`clamp_split`): it
    runs ``lb .. split`` inside the guard of :func:`_guard_pairs` and a remainder loop
    (masks as written, LDS of its own) runs ``split .. ub`` after it; returns the remainder
    loop (the workgroups' versions of :mod:`~pipeline_mlir.frontend.edge_version`)."""
    rem = _remainder(loop, split)
    check_uniform_bounds(loop)
    _guard_pairs(loop, split)
    return rem


def make_remainder(rem, loop, shareable: bool) -> None:
    """``rem``, a loop that runs as written after the pipelined ``loop`` (its bounds and
    ``iter_args`` already the rest of the K steps and ``loop``'s results), made the
    remainder path: marked :data:`~pipeline_mlir.frontend.scan.REMAINDER_ATTR`, its LDS
    planned (:func:`~pipeline_mlir.frontend.remainder_plan.at_split`; ``shareable``: it may
    be rebuilt on the schedule's stage-0 buffers, which needs unmasked copies and the
    pipelined loop's step) and, unless planned onto the schedule's, given buffers of its
    own (IREE's swizzle made explicit in its accesses).  The buffers it used before that
    nothing else uses any more are erased."""
    set_attribute(rem, REMAINDER_ATTR, ir.UnitAttr.get())
    roots = _outside_lds(rem)
    other = other_lds(rem, roots)
    if plan_at_split(rem, shareable, sum(roots.values()), PAIR + 1, other) == STAGE0:
        return
    _own_lds(rem, loop)
    for root in roots:
        erase_unused_buffer(root)


def unpipelined_note(trips: int, peeled: bool, why: str | None = None) -> str:
    """Why a loop of ``trips`` K steps (``peeled``: its copies masked, so its last K step
    peeled) is left unpipelined: what ``--emit=report`` says of it (``whole_remainder``'s
    note).  The masks need not be a K tail's: a copy masked at C's edge that is neither
    kept in the copy nor true in every lane is peeled the same way (``frontend/masks.py``),
    so the note says the copies are masked, not which K step.  ``why``: why the masks are
    not kept in the copies instead, which would keep the tail in the pair
    (``frontend/kept_tail.py``), said after it."""
    steps = f"{trips} K step{'s' if trips != 1 else ''}"
    if peeled:
        steps += (" with masked copies, so its last K step is peeled as a masked K tail"
                  if trips > 1 else " with masked copies")
    kept = "" if why is None else f"; its masks are not kept in the copies instead: {why}"
    return (f"not pipelined: the K-loop runs {steps}, which leaves no pair of K steps for "
            f"the schedule's loop (it runs them in pairs); the loop runs as written "
            f"(the remainder path, its LDS its own){kept}")


def whole_remainder(loop, note: str):
    """``loop`` (constant trip count below :data:`PAIR`, or no pair left once its masked
    last K tile is peeled) becomes the remainder path itself: marked
    :data:`~pipeline_mlir.frontend.scan.REMAINDER_ATTR` and run as written, on LDS buffers
    of its own with IREE's swizzle made explicit, as a remainder loop is; no pipelined loop
    precedes it.  :data:`WHOLE_ATTR` keeps ``note``, why (:func:`unpipelined_note`), which
    ``sched-adopt-loop`` passes to the report.  Returns ``loop``."""
    loop.attributes[REMAINDER_ATTR] = ir.UnitAttr.get()
    loop.attributes[WHOLE_ATTR] = ir.StringAttr.get(note)
    _own_lds(loop, loop, stages=1)
    return loop


def _even_split(loop):
    """``lb + ((ub - lb) / (2 step)) * 2 step``, emitted before ``loop``."""
    A = B.arith
    lb, ub, step = list(loop.operands)[:3]
    t = lb.type
    pair = A.muli(step, A.constant(t, ir.IntegerAttr.get(t, PAIR)))
    pairs = A.divsi(A.subi(ub, lb), pair)
    return A.addi(lb, A.muli(pairs, pair))


def _masked_split(loop):
    """``lb + (max(ub - step - lb, 0) / (2 step)) * 2 step``, emitted before ``loop``: the
    pairs among the iterations before the last (the masked K tile), none when there are
    fewer than three."""
    A = B.arith
    lb, ub, step = list(loop.operands)[:3]
    t = lb.type
    pair = A.muli(step, A.constant(t, ir.IntegerAttr.get(t, PAIR)))
    before_last = A.maxsi(A.subi(A.subi(ub, step), lb), A.constant(t, ir.IntegerAttr.get(t, 0)))
    return A.addi(lb, A.muli(A.divsi(before_last, pair), pair))


def clamp_split(loop, split):
    """``split`` (emitted before ``loop``, whose trip count is known only at run time)
    clamped to ``[lb, cap]``: ``maxsi(minsi(split, cap), lb)``, ``cap`` the last position
    ``lb + n * 2 step`` from which the pipelined loop (step ``2 step``) still ends on a
    32-bit counter that cannot wrap, signed or unsigned (``cap + 2 step - 1 <= 2**31 - 1``:
    LLVM compares it either way, and a 64-bit ``cap`` of bit 31 set would be a literal
    whose extension gfx950 does not pin, which the emulator refuses).  The
    pipelined loop then runs ``lb .. split`` on that counter
    (:mod:`pipeline_mlir.lowering.loop_i32`, which proves it from the clamp:
    :func:`pipeline_mlir.analysis.index_bounds.unsigned_bounds`), and a trip count beyond
    ``cap`` leaves the pairs after it to the remainder loop, which runs any number of
    iterations as written: the same iterations, in order, for every trip count.  A
    split below ``lb`` (no pair) becomes ``lb``: the guard skips the pipelined loop and the
    remainder runs from ``lb``, as it did from the split (``ub <= split`` then).
    ``split`` as it is for a loop that is not on ``index`` or whose lower bound or step is
    not a constant (nothing would prove a narrower counter)."""
    lb, step = constant_int(loop.operands[0]), constant_int(loop.operands[2])
    t = loop.operands[0].type
    if not isinstance(t, ir.IndexType) or lb is None or step is None or lb < 0 or step <= 0:
        return split
    pair = PAIR * step
    cap = lb + (I32_MAX + 1 - pair - lb) // pair * pair
    if cap <= lb:
        return split
    A = B.arith
    return A.maxsi(A.minsi(split, A.constant(t, ir.IntegerAttr.get(t, cap))), loop.operands[0])


def _guard_pairs(loop, split) -> None:
    """Run ``loop`` (``lb .. split``, cut by :func:`_even_split`) only when it has a pair
    of iterations: it moves into the ``then`` region of an ``scf.if (split > lb)`` that
    yields its results, and whose ``else`` yields its initial values, so that a trip count
    below :data:`PAIR` skips the pipelined loop (prologue and epilogue included) and the
    remainder loop runs every iteration.  Marks ``loop`` :data:`PAIR_GUARD_ATTR`."""
    A = B.arith
    with ir.InsertionPoint(loop), loop.location:
        has_pair = A.cmpi(A.CmpIPredicate.sgt, split, loop.operands[0])
        guard = B.scf.IfOp(has_pair, [r.type for r in loop.results], has_else=True)
    for old, new in zip(loop.results, guard.results):
        old.replace_all_uses_with(new)
    with ir.InsertionPoint(guard.then_block), loop.location:
        loop.move_before(_op(B.scf.YieldOp(list(loop.results))))
    with ir.InsertionPoint(guard.else_block), loop.location:
        B.scf.YieldOp(list(loop.operands)[3:])
    loop.attributes[PAIR_GUARD_ATTR] = ir.UnitAttr.get()


def _remainder(loop, split, shareable: bool = False):
    """The remainder loop ``split .. ub`` after ``loop``, which now ends at ``split``;
    ``shareable``: it may run on the schedule's buffers when its own do not fit
    (:mod:`~pipeline_mlir.frontend.shared_remainder`; not with masked copies)."""
    rem = loop.clone(ir.InsertionPoint(next_op(loop)))
    n = len(loop.results)
    for old, new in zip(loop.results, rem.results):
        old.replace_all_uses_with(new)
    rem.operands[0] = split
    for i in range(n):
        rem.operands[3 + i] = loop.results[i]
    loop.operands[1] = split
    make_remainder(rem, loop, shareable)
    return rem


def _own_lds(rem, loop, stages: int = PAIR + 1) -> None:
    """Give the remainder loop ``rem`` LDS buffers of its own: every LDS value its body
    uses from outside is rebuilt before it on a new allocation of the same buffer.  The
    schedule's buffers (two stages of every buffer of ``loop``) and the remainder's must
    fit in LDS together (``stages`` copies of each; 1 when no pipelined loop runs)."""
    mapping: dict = {}
    swizzled: dict = {}
    for op in walk_ops(rem, lambda o: o != rem):
        for i, v in enumerate(op.operands):
            if not in_lds(v) or defined_in(v, rem):
                continue
            if v not in mapping:
                _clone_view(v, mapping, swizzled, rem)
            op.operands[i] = mapping[v]
    resolve_swizzles(swizzled)
    if stages > 1:   # after a pipelined loop: the partition counts them, or aliases them
        for v in mapping.values():
            if not isinstance(v.owner, ir.Block) and _op(v.owner).name == "memref.alloc":
                set_attribute(_op(v.owner), OWN_ATTR, ir.UnitAttr.get())
        return
    # no pipelined loop: the remainder's buffers and every other LDS the kernel keeps
    # (its buffers the remainder replaced go when nothing else uses them)
    gone = [v for v in mapping if is_buffer_root(v) and not in_use(v)]
    need = lds_bytes(kernel_of(rem), gone)
    if need > gfx950.LDS_BYTES:
        raise IRError(loop, f"'scf.for' op: the loop's LDS buffers, rebuilt for it to run "
                            f"as written (its trip count leaves the schedule no pair), and "
                            f"the kernel's other LDS need {need} bytes, more than the "
                            f"{gfx950.LDS_BYTES} bytes of LDS a {gfx950.NAME} workgroup "
                            f"can have")


def _outside_lds(rem) -> dict:
    """The LDS buffers (allocations and attributions) that ``rem``'s body uses from
    outside, through views: ``{root value: bytes}``."""
    roots = {}
    for op in walk_ops(rem, lambda o: o != rem):
        for v in op.operands:
            if not in_lds(v) or defined_in(v, rem):
                continue
            v = view_root(v, VIEW_OPS)
            mt = ir.MemRefType(v.type)
            if mt.has_static_shape:
                roots[v] = static_bytes(mt)
    return roots


def _clone_view(v, mapping: dict, swizzled: dict, rem) -> None:
    """``mapping[v]``: LDS value ``v`` rebuilt on a new allocation (the view ops from the
    buffer to ``v`` cloned before ``rem``; a swizzled buffer's swizzle recorded in
    ``swizzled``)."""
    owner = v.owner
    if isinstance(owner, ir.Block) or _op(owner).name == "memref.alloc":
        mapping[v], sw = _new_buffer(v, rem)
        if sw is not None:
            swizzled[mapping[v]] = sw
        return
    o = _op(owner)
    if o.name not in VIEW_OPS or not is_pure(o):
        raise IRError(o, f"{describe(o)} makes an LDS value that the K-loop uses, and the "
                         f"remainder loop after the pipelined one needs it on buffers of its "
                         f"own; the front end rebuilds {', '.join(VIEW_OPS)} views of a "
                         f"memref.alloc or a workgroup attribution")
    src = o.operands[0]
    if src not in mapping:
        _clone_view(src, mapping, swizzled, rem)
    new = o.clone(ir.InsertionPoint(rem))
    new.operands[0] = mapping[src]
    for r, nr in zip(o.results, new.results):
        mapping[r] = nr


def _new_buffer(root, rem):
    """(a new LDS allocation like ``root``, its IREE swizzle or None): a ``memref.alloc``
    is cloned beside it (without the swizzle, which the remainder's reads apply), a
    workgroup attribution allocated at the top of the kernel."""
    owner = root.owner
    if not isinstance(owner, ir.Block):
        return unswizzled_clone(_op(owner))
    kernel = kernel_of(rem)
    first = _op(list(kernel.regions[0].blocks[0].operations)[0])
    with ir.InsertionPoint(first), rem.location:
        a = ir.Operation.create("memref.alloc", results=[root.type], attributes={
            "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0])})
    return a.results[0], None
