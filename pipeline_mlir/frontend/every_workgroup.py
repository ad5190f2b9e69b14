"""The front end's own copies of a channel read what the kernel's read in every workgroup.

Where the front end distributes a channel's copies itself (:mod:`~pipeline_mlir.frontend.
layout`), lane ``t`` of its copies reads the global element the reference copy's thread 0
reads, moved by an offset of ``t`` alone; the layout (which global element each LDS element
holds) is read off the kernel's copies in workgroup 0.
:func:`~pipeline_mlir.frontend.edges.check_copy_reads` compares the two at a few sampled
workgroups (:func:`~pipeline_mlir.frontend.edges.sample_ids`, every workgroup id the same
value); :func:`prove_every_workgroup` makes the comparison hold at every workgroup of the
launch, one of two ways:

* by structure: every global index of the channel's copies (and every dynamic offset of
  their views) is a part that moves with the workgroup alone plus a part that does not,
  joined only as an offset (:func:`~pipeline_mlir.frontend.workgroup_offset.
  workgroup_mixed`), and in workgroup 0, at every K step of a constant trip count (else
  the first: a run-time trip count's middle K steps are not compared), every LDS element
  gets from the kernel's copies
  exactly the element the front end's give it (none differs, not even past the buffer's
  end), and no sum narrower than 64 bits that joins the two parts may wrap (their ranges
  over the grid and over workgroup 0's threads and K steps: :func:`wrap_op`).  The
  kernel's element is then ``G(w) + H(t, k)`` and the front end's ``G(w) + H(0, k) +
  offset(t)``: equal at workgroup 0, so equal at every ``w`` whatever ``G``, as 64-bit
  values.  A buffer load sees 32 bits of it, split otherwise in the pipelined copies (a
  scalar part and the lane's) than in the kernel's, so each element must also lie in the
  buffer's first ``2^31`` bytes: workgroup 0's span moved by ``G(w) - G(0)``, evaluated
  for thread 0 of every workgroup of an enumerated grid (:func:`_far`; a grid not
  enumerated, sized at launch or of more than ``GRID_LIMIT`` workgroups, leaves it
  unbounded: not proven);
* by evaluation, where either fails (IREE's padded kernels: a row ``select(row >=
  rows_left, pad, row)`` with ``rows_left`` of the workgroup; a mutant's ``select`` on a
  tile): every workgroup of the kernel's static grid
  (:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`, each workgroup id and
  workgroup loop variable bound per dimension, side by side in numpy, one lane per thread
  and workgroup), at every K step of a constant trip count (else the sampled check's: the
  first; at most :data:`~pipeline_mlir.frontend.grid_eval.EVAL_BUDGET` lane reads: threads
  x workgroups x K steps x the channel's copies, more compared over boxes of workgroups
  and K steps, :func:`~pipeline_mlir.frontend.grid_tables.compare_by_boxes`, a difference
  they find compared there lane by lane), each LDS element must get the
  same global element from both, inside the reach of a buffer load's 32-bit offset
  (:func:`_reach`), or an element outside the buffer from both (a read of
  zeros), and no element before the buffer's start.  A lane's run that straddles the
  buffer's end is judged element by element: a buffer access is range-checked per dword
  (the emulator's :mod:`~pipeline_mlir.emu.memops`, as the CDNA3/4 ISA says), so an
  element of 4 bytes or more reads its own data or zero whatever run holds it; a narrower
  one does where no dword of the run straddles the end, which
  :mod:`~pipeline_mlir.frontend.dword_runs` proves where the two split the runs otherwise
  across the dword (the front end's own 4-byte lanes for the kernel's 2-byte pieces, or
  the reverse; a kept channel's lanes test their own runs).  A loop over workgroups (IREE's
  linearised one) is evaluated one iteration per workgroup, its variable and the id bound
  alike: an index that reads the workgroup id itself inside it (a workgroup of a smaller
  launch runs several iterations with one id) is refused.

Both compare at the launch values the analysis samples, so what differs between launches
is refused first: an index that mixes a value known only at launch with the thread
otherwise than as an offset (:func:`launch_mixing_op`), but for the row of a guarded row
copy the front end made a read past the buffer's end, proven for every workgroup and size
by the masks' own proofs (:func:`proven_row`); with a trip
count known only at launch (whose middle K steps are not compared), one that mixes the
K-loop's variable with the rest so (:func:`k_mixing_op`).  The grid is the kernel's; a
bound known only at launch gives none (the sample's grid is not the launch's).  What
neither proves is a :class:`~pipeline_mlir.kernel.loop_model.LoopRefusal` at the channel's
copy naming the op that mixes the workgroup with the thread or the K-loop: the first
workgroup, K step and LDS element where the two differ, or, for a buffer of static size, a
grid with no bound, or of more than :data:`~pipeline_mlir.frontend.kept_layout.GRID_LIMIT`
workgroups or more lane reads than :data:`~pipeline_mlir.frontend.grid_eval.EVAL_BUDGET`
where the boxes give up.
A buffer sized at launch whose grid is not enumerable (IREE's padded dispatches of M and N
known at launch: a grid-stride loop over ``ceildiv`` of launch values) is proven by
structure outside its proven rows: an index that mixes the workgroup with the thread
otherwise than as an offset anywhere but in them is refused (:func:`_only_rows_mix`); the
rows themselves are the masks' proofs' (:mod:`~pipeline_mlir.frontend.masked_rows_late`,
:mod:`~pipeline_mlir.frontend.row_proof_late`) and the sampled check's.  The reach and
the narrow sums' ranges are bounded at the sampled launch values only: an index that moves
with a launch value as an offset may leave them at another launch (not proven).

The sampled check's own rules on the kernel's copies (no element before the buffer's
start; in workgroup 0 none past its end) are checked at every K step of a constant trip
count and every workgroup of a static grid too (:func:`~pipeline_mlir.frontend.every_read.
check_every_read`, from the address analysis, for every copy: kept or distributed alike);
the evaluation here checks the first of them on the copies it evaluates, in every workgroup
and K step (:func:`~pipeline_mlir.frontend.grid_tables._starts`), and so stands for that check's own evaluation of them
(:func:`~pipeline_mlir.frontend.grid_eval.grid_proven`).
"""

from __future__ import annotations

import functools

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import (VALUE_CASTS, WORKGROUP_ID_OPS, constant_int,
                                             constant_trips, element_bytes, memory_space,
                                             workgroup_id_bound)
from pipeline_mlir.analysis.lane_ops import LAUNCH_VALUE_OPS
from pipeline_mlir.analysis.loop_eval import Evaluator, Repeated, grid_points, grid_stride
from pipeline_mlir.frontend.edges import check_copy_reads, read_copies, table_of
from pipeline_mlir.frontend.grid_eval import (CHUNK, GridFirsts, box_limit, grid_launch_ops,
                                             grid_proven, k_steps, kernel_grid, over_budget,
                                             shared_firsts, wide_evaluator)
from pipeline_mlir.frontend.grid_tables import compare_by_boxes, compare_over_grid
from pipeline_mlir.frontend.kept_layout import GRID_LIMIT
from pipeline_mlir.frontend.kernel_ir import (OFFSET_LIMIT, depends, describe, fat_root, kernel_of,
                                              zero_end)
from pipeline_mlir.frontend.marks import PROVEN_ROW
from pipeline_mlir.frontend.unused_spare import proof_for, spare_sampled
from pipeline_mlir.frontend.workgroup_offset import (VIEWS_FOLLOWED, index_values,
                                                     joined_values, moves,
                                                     workgroup_dependence, workgroup_mixed,
                                                     workgroup_vars)

def check_reads(an, copies: list, chan, ev) -> None:
    """The kernel's copies ``copies`` (indices into ``an.copies``) read inside their buffers
    at the sampled points (:func:`~pipeline_mlir.frontend.edges.check_copy_reads`) and,
    unless ``chan`` is None (a kept channel, proven by
    :mod:`~pipeline_mlir.frontend.kept_layout`), what the front end's copies of channel
    ``chan`` read, there and in every workgroup (:func:`prove_every_workgroup`); ``ev``:
    the channel's evaluator, workgroup 0's reads in it."""
    spare = None if chan is None else \
        functools.partial(spare_sampled, an, an.copies[chan.copies[0]].buffer)
    check_copy_reads(an.scan, an.read_points, copies, chan, ev, spare)
    if chan is not None:
        prove_every_workgroup(an, chan, ev)


def mixing_op(scan, copies: list, outer: list | None = None, ids: bool | None = True,
              neutral=(), roots=(), rows: bool = False, kinds: dict | None = None):
    """The first op that mixes the workgroup with the rest of an index of ``copies``
    (indices into ``scan.copies``) otherwise than as an offset, or None; a view the
    indices are not followed through (:func:`~pipeline_mlir.frontend.workgroup_offset.
    index_values`) whose operands move with the workgroup counts as one.  ``outer`` in place
    of the workgroup's values, ``ids`` and ``neutral`` what the workgroup ids and those
    values count as (:func:`~pipeline_mlir.frontend.workgroup_offset.workgroup_mixed`:
    :func:`k_mixing_op`, :func:`launch_mixing_op`); a view op named in ``roots`` is not
    looked at, nor, with ``rows``, an index that is a proven row (:func:`proven_row`);
    ``kinds``: what each value moves with, kept between calls of the same ``outer``, ``ids``
    and ``neutral`` (:func:`~pipeline_mlir.frontend.workgroup_offset.workgroup_mixed`)."""
    wg = workgroup_vars(scan.loop) if outer is None else outer
    kinds = {} if kinds is None else kinds
    for i in copies:
        for x in index_values(scan.copies[i]):
            if rows and proven_row(x):
                continue
            mixed = workgroup_mixed(x, wg, kinds, ids, neutral)
            if mixed is not None:
                return mixed
        root = _view_end(scan.copies[i].src)
        if root is not None and root.name not in roots and any(workgroup_dependence(x, wg, kinds, ids, neutral) is not None
                                    for x in root.operands
                                    if not isinstance(x.type, ir.MemRefType)):
            return root
    return None


def k_mixing_op(scan, copies: list):
    """The first op that mixes the K-loop's variable (or a value it carries) with the rest
    of an index of ``copies`` otherwise than as an offset, or None: with none, each
    lane's element is a part of the K step plus a part of the workgroup and the thread, so
    a lane's offset from thread 0 is the same at every K step."""
    return mixing_op(scan, copies, list(scan.loop.regions[0].blocks[0].arguments), False)


def launch_mixing_op(scan, copies: list):
    """The first op that mixes a value known only at launch (a push constant, a dynamic
    size, the grid's size, a kernel argument) with the thread otherwise than as an offset in
    an index of ``copies``, or None: with none, a lane's offset from thread 0 is the same
    at every launch, so the one the analysis samples (:data:`~pipeline_mlir.analysis.
    lane_ops.SAMPLE_ARG`) shows it.  The workgroup and the K-loop count as neither."""
    kernel = kernel_of(scan.loop)
    launch = [r for o in walk_ops(kernel, lambda o: o.name in LAUNCH_VALUE_OPS)
              for r in o.results]
    launch += [a for a in kernel.regions[0].blocks[0].arguments
               if not isinstance(a.type, ir.MemRefType)]
    neutral = workgroup_vars(scan.loop) + list(scan.loop.regions[0].blocks[0].arguments)
    # (a binding's dynamic sizes and offset: the buffer's extent, and one offset for all)
    return mixing_op(scan, copies, launch, None, neutral, ("hal.interface.binding.subspan",),
                     rows=True)


def proven_row(x) -> bool:
    """Whether the copy index ``x`` is the row of a guarded row copy the front end made a
    read past the buffer's end (``select(guard, row, L)`` marked :data:`~pipeline_mlir.
    frontend.kernel_ir.PROVEN_ROW`): its guard and row proven for every workgroup and size
    by the masks' own proofs (:mod:`~pipeline_mlir.frontend.row_proof_late`).  Only the
    index itself counts, not a value computed from it."""
    return not isinstance(x.owner, ir.Block) and PROVEN_ROW in _op(x.owner).attributes


def _view_end(v):
    """The op where :func:`~pipeline_mlir.frontend.workgroup_offset.view_index_values`
    stops following the views of ``v`` (None: a block argument)."""
    while not isinstance(v.owner, ir.Block):
        o = _op(v.owner)
        if o.name not in VIEWS_FOLLOWED:
            return o
        v = o.operands[0]
    return None


def _mixing(ch, what: str, op, why: str) -> LM.LoopRefusal:
    """The refusal of channel ``ch``'s copies whose global index mixes ``what`` otherwise
    than as an offset at ``op``, and ``why`` that is not proven (", and ..." or ": ...")."""
    sep = ", " if why.startswith("and ") else ": "
    return LM.LoopRefusal(f"channel {ch.label}'s copies: their global index mixes {what} "
                          f"otherwise than as an offset ({describe(op)}){sep}{why}", (ch.op,))


def prove_every_workgroup(an, ch, ev) -> None:
    """The kernel's copies of channel ``ch`` (:class:`~pipeline_mlir.frontend.edges.Channel`
    with workgroup 0's ``table`` and ``base0``) and the front end's, moved from workgroup 0
    by what the reference copy's thread 0 reads, agree in every workgroup (module
    docstring); ``ev``: the evaluator of the sampled check (workgroup 0's reads)."""
    scan = an.scan
    steps, every_step = k_steps(scan, an.read_points), constant_trips(scan.loop) is not None
    lmix = launch_mixing_op(scan, ch.copies)
    if lmix is not None:
        raise _mixing(ch, "a value known only at launch with the thread", lmix,
                      "the front end's own copies, moved by what thread 0 reads, are compared "
                      "with them at one sample of the launch values only")
    kmix = None if every_step else k_mixing_op(scan, ch.copies)
    if kmix is not None:
        raise _mixing(ch, "the K-loop's variable with the rest", kmix,
                      "and the loop's trip count is known only at launch: the front end's own "
                      "copies, moved from the first K step by what thread 0 reads, are "
                      "compared there only")
    mixed, kernel, wraps, far = mixing_op(scan, ch.copies), kernel_of(scan.loop), None, None
    reach, found = _reach(scan, ch, ev), grid_launch_ops(kernel)
    span = None if mixed is not None else _span(scan, ch, ev, steps)
    if span is not None:
        firsts = shared_firsts(an, steps) or _firsts(scan, kernel, ev, steps, found)
        wraps = wrap_op(scan, ch.copies, ev, kernel, steps, firsts)
        far = None if wraps is not None else _far(an, ch, firsts, span, reach)
        if wraps is None and far is None:
            return
    why = (f"its global index mixes the workgroup with the thread or the K-loop otherwise "
           f"than as an offset ({describe(mixed)})" if mixed is not None else
           f"a sum of the workgroup's part and the rest in its global index may wrap at its "
           f"width in some workgroup ({describe(wraps)})" if wraps is not None else
           f"in workgroup {far} an element it reads lies before the buffer or past what a "
           f"buffer load's 32-bit offset reaches" if far is not None else
           "in workgroup 0 some of its lanes read, at some K step, elements the front "
           "end's copies do not")
    grid, at_launch = kernel_grid(kernel, ev, found)
    big = None if grid is None else \
        over_budget(an.scan.threads, int(np.prod(grid)), len(steps), len(ch.copies))
    zero = zero_end(scan.copies[ch.ref].src, ev) if every_step else None
    if grid is not None and not at_launch and big:
        big = _over_budget(an, ch, (kernel, found, grid_points(grid), steps), (zero, reach),
                           why, big)
        if big is None:
            return
    if grid is None or big or (at_launch and ch.elements is not None):
        if ch.elements is None:     # a buffer sized at launch: the rows' proofs (docstring)
            _only_rows_mix(scan, ch)
            return
        size = "has no static bound" if grid is None else \
            f"is too large: its {big}" if big else \
            "has a bound known only at launch (the sample's grid is not the launch's)"
        raise LM.LoopRefusal(
            f"channel {ch.label}'s copies: {why}, so the front end's own copies, moved from "
            f"workgroup 0 by what thread 0 reads, are proven by evaluating every workgroup, "
            f"and the grid {size}", (ch.op,))
    _one_id_per_iteration(scan, ch, kernel, why)
    points = grid_points(grid)
    unused = None if at_launch else \
        proof_for(an, an.copies[ch.copies[0]].buffer)     # (static grid only)
    compare_over_grid(an, ch, (kernel, found, points, steps), why, (zero, reach), unused,
                      lambda i: mixing_op(scan, [i]))
    if not at_launch:       # (every_read.py's evaluation of these copies: this one)
        grid_proven(an, ch.copies, grid, steps)


def _over_budget(an, ch, grid: tuple, ends: tuple, why: str, cost: str) -> str | None:
    """The comparison of :func:`prove_every_workgroup` over a grid too large to evaluate
    lane by lane (``cost``), made over boxes of workgroups and K steps
    (:func:`~pipeline_mlir.frontend.grid_tables.compare_by_boxes`): None where it holds
    (the kernel's copies then evaluated over the grid, :func:`grid_proven`); a refusal at
    the workgroup and K step where it fails; else what to say of the size."""
    kernel, found, points, steps = grid
    _one_id_per_iteration(an.scan, ch, kernel, why)
    reads = an.scan.threads * len(points) * len(steps) * len(ch.copies)
    got = compare_by_boxes(an, ch, grid, ends, box_limit(reads))
    if got is None:
        grid_proven(an, ch.copies, tuple(int(n) + 1 for n in points.max(axis=0)), steps)
        return None
    if isinstance(got, tuple):      # (compared there lane by lane: refused, or spared)
        unused = proof_for(an, an.copies[ch.copies[0]].buffer)
        compare_over_grid(an, ch, (kernel, found, np.asarray([got[:-1]], np.int64),
                                   [steps[got[-1]]]), why, ends, unused,
                          lambda i: mixing_op(an.scan, [i]))
        got = (f"the proof over boxes of workgroups and K steps found a difference at "
               f"workgroup {got[:-1]} that feeds no stored element of C")
    return f"{cost} ({got})"


def wrap_op(scan, copies: list, ev, kernel, steps: list, firsts=None, kinds=None):
    """The first value narrower than 64 bits of the global indices of ``copies`` (indices into
    ``scan.copies``: a channel's) that joins the
    workgroup's part and the rest (:func:`~pipeline_mlir.frontend.workgroup_offset.
    joined_values`) and may leave ``[0, 2^(width-1))`` (wrap, or read differently signed and
    unsigned) at some workgroup, thread or K step, by the ranges of its parts: a workgroup
    part's over the kernel's grid, the rest's in workgroup 0 at every K step of ``steps``
    (side by side: :func:`over_steps`), through sums,
    differences, products by a constant and value casts (an op of another kind, or a grid
    not evaluated, counts as unbounded); None if none does.  Only without a wrap is the sum
    ``G(w) + H(t, k)`` of the structural proof the element read.  ``firsts``: the
    :class:`~pipeline_mlir.frontend.grid_eval.GridFirsts` of the kernel's grid (of at most
    ``GRID_LIMIT`` workgroups) at ``steps``' first, if the caller has one; ``kinds``:
    :func:`mixing_op`'s, if the caller keeps them."""
    wg, kinds = workgroup_vars(scan.loop), {} if kinds is None else kinds
    joined = list(dict.fromkeys(y for i in copies for x in index_values(scan.copies[i])
                                for y in joined_values(x, wg, kinds)))
    narrow = [y for y in joined if _bits(y.type) < 64]
    if not narrow:
        return None
    if firsts is None:
        firsts = _firsts(scan, kernel, ev, steps)
    points = None if firsts is None else firsts.points
    iv = scan.loop.regions[0].blocks[0].arguments[0]
    memo: dict = {}
    rest: list = []                     # (whether ``ev`` was rebound: left at the last step)

    def leaf(y) -> tuple[int, int]:
        on_wg, on_rest = moves(y, wg, kinds)
        if on_wg and points is None:    # no grid to evaluate: the ops' own bounds
            return _wg_interval(y, wg)
        if on_wg and not on_rest:       # the workgroup's part: thread 0 of every workgroup
            vals = [np.asarray(firsts.evaluator().value(y))]
        elif on_wg:                     # ... and every thread where it moves with them too
            vals = []
            for start in range(0, len(points), CHUNK):
                wide = wide_evaluator(scan, kernel, points[start:start + CHUNK], None,
                                      firsts.found)
                wide.bind(iv, steps[0][0])
                vals.append(np.asarray(wide.value(y)))
        else:               # the rest (or a constant): workgroup 0, every K step
            ev.set_workgroup(0)
            ev.bind(iv, steps[0][0])
            ev.value(y)                 # (what no K step moves, evaluated once)
            vals = [np.asarray(rep.value(y)) for _part, rep in
                    over_steps(ev, iv, [k for k, _ in steps])]
            rest.append(y)
        return min(int(v.min()) for v in vals), max(int(v.max()) for v in vals)

    def rng(y):
        if y not in memo:
            memo[y] = leaf(y) if y not in joined else _joined_range(_op(y.owner), rng)
        return memo[y]

    try:
        for y in narrow:
            r = rng(y)
            if r is None or r[0] < 0 or r[1] >= 1 << (_bits(y.type) - 1):
                return _op(y.owner)
        return None
    finally:
        if rest:
            ev.bind(iv, steps[-1][0])
        rng = None      # (it calls itself through its closure's cell: a cycle)


def _firsts(scan, kernel, ev, steps: list, found: tuple | None = None) -> GridFirsts | None:
    """The :class:`~pipeline_mlir.frontend.grid_eval.GridFirsts` of ``kernel``'s grid
    (:func:`~pipeline_mlir.frontend.grid_eval.kernel_grid`, at the analysis's launch values)
    at ``steps``' first; None for a grid with no bound or of more than ``GRID_LIMIT``
    workgroups."""
    found = grid_launch_ops(kernel) if found is None else found
    grid, _ = kernel_grid(kernel, ev, found)
    if grid is None or int(np.prod(grid)) > GRID_LIMIT:
        return None
    return GridFirsts(scan, kernel, grid_points(grid), steps[0][0], found)


def _wg_interval(y, wg: list) -> tuple[int, int] | None:
    """Bounds of the workgroup's part ``y`` from its ops alone (a grid not enumerable: a
    bound known only at launch): an id by its ``upper_bound``, else any non-negative value
    of its width; a remainder or quotient by a positive constant; :func:`_joined_range`'s
    ops; None for another."""
    if y in wg or isinstance(y.owner, ir.Block):
        return 0, (1 << (_bits(y.type) - 1)) - 1
    op = _op(y.owner)
    c = constant_int(y)
    if c is not None:
        return c, c
    if op.name in WORKGROUP_ID_OPS:
        b = workgroup_id_bound(op)
        return 0, ((1 << (_bits(y.type) - 1)) if b is None else b) - 1
    if op.name in ("arith.remui", "arith.divui"):
        a, d = _wg_interval(op.operands[0], wg), constant_int(op.operands[1])
        if a is None or d is None or d <= 0 or a[0] < 0:
            return None
        return (0, min(a[1], d - 1)) if op.name == "arith.remui" else (a[0] // d, a[1] // d)
    return _joined_range(op, lambda x: _wg_interval(x, wg))


def _joined_range(op, rng) -> tuple[int, int] | None:
    """The range of ``op``'s result from its operands' (``rng``), for the ops
    :func:`wrap_op` follows; None for another."""
    xs = [rng(x) for x in op.operands]
    if any(x is None for x in xs):
        return None
    if op.name in VALUE_CASTS + ("arith.trunci",):
        return xs[0]
    if op.name == "arith.addi":
        return xs[0][0] + xs[1][0], xs[0][1] + xs[1][1]
    if op.name == "arith.subi":
        return xs[0][0] - xs[1][1], xs[0][1] - xs[1][0]
    if op.name == "arith.muli" and any(x[0] == x[1] for x in xs):
        (c, _), other = (xs[0], xs[1]) if xs[0][0] == xs[0][1] else (xs[1], xs[0])
        return min(other[0] * c, other[1] * c), max(other[0] * c, other[1] * c)
    return None


def _bits(t) -> int:
    """The width of the integer type ``t`` (``index``: 64)."""
    return t.width if isinstance(t, ir.IntegerType) else 64


def _only_rows_mix(scan, ch) -> None:
    """A buffer sized at launch whose grid is not enumerated: no index of the channel's
    copies may mix the workgroup with the thread otherwise than as an offset but in the
    rows the masks' proofs take for every workgroup and size (:func:`proven_row`)."""
    rest = mixing_op(scan, ch.copies, rows=True)
    if rest is not None:
        raise LM.LoopRefusal(
            f"channel {ch.label}'s copies: their global index mixes the workgroup with the "
            f"thread or the K-loop otherwise than as an offset ({describe(rest)}) outside "
            f"the rows of its row masks, proven for every size, and the buffer is sized at "
            f"launch with a grid that is not enumerated: the front end's own copies, moved "
            f"from workgroup 0 by what thread 0 reads, are compared with them at sampled "
            f"workgroups only", (ch.op,))


def _one_id_per_iteration(scan, ch, kernel, why: str) -> None:
    """Inside a loop over workgroups (IREE's linearised one) the evaluation binds the
    workgroup id and the loop's variable to one value, as in a launch of one workgroup per
    iteration; a launch of fewer runs several iterations per workgroup, so a copy index that
    reads the workgroup id itself there is refused (module docstring)."""
    if not walk_ops(kernel, lambda o: o.name == "scf.for" and grid_stride(o)):
        return
    for i in ch.copies:
        for x in index_values(scan.copies[i]):
            if depends(x, lambda v: not isinstance(v.owner, ir.Block) and
                       _op(v.owner).name in WORKGROUP_ID_OPS):
                copy = describe(scan.copies[i].op)
                raise LM.LoopRefusal(
                    f"channel {ch.label}'s copies: {why}, so the front end's own copies are "
                    f"proven by evaluating every workgroup, and an index of {copy} reads the "
                    f"workgroup id inside the loop over workgroups, where a workgroup may run "
                    f"several of its iterations", (ch.op,))


def _span(scan, ch, ev, steps: list) -> tuple[int, int] | None:
    """(the first, the last) global element workgroup 0's copies of the channel read over
    ``steps``, or None if at some step their table is not workgroup 0's block moved
    (:func:`_exact`)."""
    lo, hi = None, None
    for iv, _when in steps:
        got = table_of(ch, read_copies(scan, ch.copies, 0, iv, ev))
        if not _exact(ch, got):
            return None
        read = got[0][got[0] >= 0]
        if read.size:
            lo = int(read.min()) if lo is None else min(lo, int(read.min()))
            hi = int(read.max()) if hi is None else max(hi, int(read.max()))
    return (0, -1) if lo is None else (lo, hi)


def _reach(scan, ch, ev) -> int | None:
    """One past the last element (of the root ``ev``'s views index) of the channel's
    buffer that a buffer load's 32-bit offset reaches from its start (the
    :data:`~pipeline_mlir.frontend.kernel_ir.OFFSET_LIMIT` bytes of
    :func:`~pipeline_mlir.frontend.kernel_ir.zero_end`), for a fat raw buffer whose start is
    one element in every thread; None for another (a global pointer: 64-bit addresses)."""
    root = fat_root(scan.copies[ch.ref].src)
    if memory_space(root.type) != "fat_raw_buffer":
        return None
    start = np.asarray(ev.view(root).offset)
    if start.size == 0 or not np.all(start == start.flat[0]):
        return None
    return int(start.flat[0]) + OFFSET_LIMIT // element_bytes(ir.MemRefType(root.type))


def _far(an, ch, firsts, span: tuple[int, int], reach: int | None):
    """With the channel's elements ``G(w) + H(t, k)`` (the structural proof), the first
    workgroup of the kernel's grid where one lies before the buffer's start or at or past
    ``reach`` (:func:`_reach`): ``span`` (workgroup 0's, :func:`_span`) moved by what the
    reference copy's thread 0 reads there (``firsts``: :func:`_firsts`, thread 0 of every
    workgroup); None if none does, or (left unproven: module docstring) if the grid is not
    enumerated (``firsts`` None)."""
    if reach is None or firsts is None:
        return None
    start = reach - OFFSET_LIMIT // element_bytes(ir.MemRefType(
        fat_root(an.scan.copies[ch.ref].src).type))
    a, wide = an.scan.copies[ch.ref], firsts.evaluator()
    moved = wide.view(a.src).element([wide.value(x) for x in a.src_indices]) - ch.base0
    bad = (span[0] + moved < start) | (span[1] + moved >= reach)
    if bad.any():
        return tuple(int(v) for v in firsts.points[int(np.argmax(bad))])
    return None


def _exact(ch, got: tuple) -> bool:
    """Whether the table and base ``got`` (:func:`~pipeline_mlir.frontend.edges.table_of`)
    are workgroup 0's block moved by its base, element for element."""
    table, base = got
    return np.array_equal(table, ch.table + (base - ch.base0))


#: lanes an evaluation of :func:`over_steps` holds at once
STEP_LANES = 1 << 15


def over_steps(source: Evaluator, varying, values: list, lanes: int = STEP_LANES):
    """Evaluators of ``source``'s lanes with ``varying`` (a loop's induction variable) at
    each of ``values``, side by side: (the part of ``values``, a :class:`Repeated` of
    ``source`` with ``varying`` bound to each value of the part in turn, value-major),
    parts of at most ``lanes`` lanes (at least one value each).  What ``source`` has
    memoized that does not read ``varying`` is not evaluated again: evaluate it there
    first."""
    per = max(1, lanes // source.threads)
    for first in range(0, len(values), per):
        part = values[first:first + per]
        rep = Repeated(source, len(part), varying)
        rep.bind(varying, np.repeat(np.array(part, np.int64), source.threads))
        yield part, rep
