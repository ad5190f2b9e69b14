"""What the two roll-backs of IREE's prefetch pipelining prove alike.

:mod:`pipeline_mlir.frontend.reroll` (copies to LDS by DMA) and
:mod:`pipeline_mlir.frontend.reroll_regs` (copies through registers) each rebuild a loop from
a prologue, a body and an epilogue; both need, in the same words and by the same rules:

* the loop's bounds (:func:`loop_bounds`): constants, a positive step, both >= 0 when
  the loop compares them unsigned, and the rolled loop's upper bound representable in the
  induction variable's type (signed, as ``scf.for`` compares), else a refusal at the loop;
* two ops the same but for their operands (:func:`same_op_but_operands`);
* one access (a memref operand and its indices) the same as another: the same buffer, the
  same placing of an index (the swizzle and the buffer casts' bounds:
  :func:`~pipeline_mlir.analysis.views.same_placing`) and the same elements, per thread
  (:func:`access`, :func:`access_difference`), or the same linear forms for every workgroup
  (:func:`forms_difference`, over :mod:`pipeline_mlir.analysis.id_forms`);
* the kernel's grid enumerated where the forms do not decide (:class:`Workgroups`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.analysis.id_forms import same_memref, same_vector
from pipeline_mlir.analysis.ir_facts import (WORKGROUP_ID_OPS, block_size, constant_bounds,
                                             constant_trips, signed_bounds)
from pipeline_mlir.analysis.lane_ops import Unevaluable, id_dimension
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.loop_eval import (Evaluator, SideBySide, grid_stride,
                                              grid_stride_range, workgroup_grid)
from pipeline_mlir.analysis.output_tiles import bind_workgroup, check_grid_covers
from pipeline_mlir.analysis.views import View, same_placing
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import kernel_of

#: the ops that tell workgroups apart
WORKGROUP_IDS = WORKGROUP_ID_OPS + ("scf.forall",)
#: workgroups whose copies are compared, at most (every one of the kernel's grid, side by
#: side), when their forms do not prove them the body's: IREE's i8 ``A^T x B``
#: 5865x7364x5973, 16x16 tiles in one wave, has 169,187, some 10 s of comparisons (the
#: front end's own proofs over the grid take up to ``kept_layout.GRID_LIMIT``, 8 times as
#: many: they settle over boxes, not workgroup by workgroup)
MAX_WORKGROUPS = 1 << 18
#: workgroup iterations compared one by one, at most, in a kernel with loops over
#: workgroups (each iteration its own evaluator)
MAX_ITERATIONS = 4096
#: workgroups compared side by side (:meth:`Workgroups.prove`)
CHUNK = 512
#: lanes (threads x workgroups) of the chunks whose evaluators are kept from one proof to
#: the next, at most (each keeps what it evaluated, some 300 bytes a lane: the i8 kernel
#: above kept 3.4 GB when every chunk's was kept; the later chunks are evaluated again)
KEPT_LANES = 1 << 20


def grid_point(point: tuple[int, ...]) -> str:
    """A grid point as a refusal names it: ``3``, or ``(3, 1)``."""
    return str(point[0]) if len(point) == 1 else f"({', '.join(map(str, point))})"


def loop_bounds(loop, fail, what: str) -> tuple[int, int, int]:
    """``(lb, step, trips)`` of ``loop``, an ``scf.for`` (``trips`` none when its upper bound
    is below its lower one); ``fail(op, text)`` refuses bounds that are not constants or a
    step that is not positive (``what`` the loop's description)."""
    bounds = signed_bounds(loop)
    if bounds is not None and bounds[2] <= 0:
        fail(loop, f"({what}) has a step that is not positive ({bounds[2]})")
    if bounds is not None and constant_bounds(loop) is None:
        fail(loop, f"({what}) compares its bounds unsigned ('scf.for unsigned') and they "
                   f"read as {bounds[0]} to {bounds[1]} signed: its unsigned trip count is "
                   f"not the signed one the roll-back counts")
    trips = constant_trips(loop)
    if bounds is None or trips is None:
        fail(loop, f"({what}) has bounds that are not constants")
    return bounds[0], bounds[2], trips


def rolled_upper(loop, lb: int, trips: int, step: int, fail, what: str) -> int:
    """The upper bound ``lb + trips * step`` of the rolled loop, which runs ``trips``
    iterations; refused at ``loop`` when it does not fit its induction variable's type
    (signed: ``scf.for`` compares so; ``index`` is 64 bits), where it would wrap.

    An unsigned loop (``scf.for unsigned``) needs no check of its own: :func:`loop_bounds`
    took its bounds only when both read >= 0 signed, so ``lb`` and ``ub`` both lie in
    ``[0, 2**(bits-1))`` here and the signed and unsigned comparisons agree on them (the
    rolled loop, built signed, runs the same iterations)."""
    t = loop.regions[0].blocks[0].arguments[0].type
    bits = 64 if isinstance(t, ir.IndexType) else ir.IntegerType(t).width
    ub = lb + trips * step
    if not -(1 << (bits - 1)) <= ub < 1 << (bits - 1):
        fail(loop, f"({what}) rolled back would run to {ub}, which its {t} induction "
                   f"variable cannot hold")
    return ub


def same_op_but_operands(a, b) -> bool:
    """``a`` and ``b`` are the same op but for their operands' values: name, attributes,
    result and operand types."""
    return a.name == b.name and len(a.operands) == len(b.operands) and \
        [r.type for r in a.results] == [r.type for r in b.results] and \
        [x.type for x in a.operands] == [x.type for x in b.operands] and \
        set(a.attributes) == set(b.attributes) and \
        all(a.attributes[k] == b.attributes[k] for k in b.attributes)


def stored_constant(store):
    """The ``arith.constant`` op whose value the ``vector.store`` ``store`` writes, else
    None: IREE folds a register copy of rows wholly past C's edge, padded in every thread
    and K tile, to a store of its padding (B's rows 24 to 31 of f16 ``A^T x B^T``
    5x24x1000 in its 32-row tile over N = 24), in the body of a loop it pipelined through
    registers and in that loop's prologue; a constant is the same value at every tile."""
    c = _defining(store.operands[0])
    return c if c is not None and c.name == "arith.constant" else None


@dataclass
class Access:
    """One access as an evaluator sees it: its view and first element, per thread."""

    view: View
    element: np.ndarray
    ev: Evaluator


def access(ev, mem, indices) -> Access:
    """The access of memref ``mem`` at ``indices`` (values), as ``ev`` evaluates it."""
    view = ev.view(mem)
    return Access(view, view.element([ev.value(x) for x in indices]), ev)


def access_difference(a: Access, b: Access, what: str) -> str | None:
    """None when accesses ``a`` and ``b`` touch the same bytes for every thread: the same
    buffer placed alike (swizzle, the buffer casts' bounds with their operands'
    values) and the same elements; else the part that differs (``what`` names the
    memory: "global", "LDS")."""
    if a.view.root != b.view.root:
        return "buffers"
    if not same_placing(a.view, b.view,
                        lambda x, y: np.array_equal(a.ev.value(x), b.ev.value(y))):
        return f"{what} swizzles or buffer bounds"
    if not np.array_equal(a.element, b.element):
        return f"{what} elements"
    return None


def forms_difference(fa, fb, parts) -> str | None:
    """None when the forms prove the operands of each part the same for every workgroup:
    ``parts`` are ``(name, xs, ys)``, ``xs`` one side's memrefs
    (:func:`~pipeline_mlir.analysis.id_forms.same_memref`) or other values: integers (of
    the same type, equal forms) or values made from integers, such as a mask
    (:func:`~pipeline_mlir.analysis.id_forms.same_vector` takes both) (``fa`` their
    :class:`~pipeline_mlir.analysis.id_forms.Forms`), ``ys`` the other's; else what they
    did not prove."""
    for part, xs, ys in parts:
        if len(xs) != len(ys):
            return f"its {part} differs"
        for j, (x, y) in enumerate(zip(xs, ys)):
            same = same_memref(fa, x, fb, y) if isinstance(x.type, ir.MemRefType) \
                else same_vector(fa, x, fb, y)      # integers: their forms equal
            if not same:
                return f"its {part}{f' #{j}' if 'index' in part else ''} is not the same " \
                       f"form over the workgroup's values"
    return None


def kernel_block(loop, what: str) -> tuple:
    """The workgroup size of ``loop``'s kernel; a kernel that does not state it refused at
    ``loop`` (``what`` names the loop in the message)."""
    kernel = kernel_of(loop)
    block = block_size(kernel) if kernel is not None else None
    if block is None:
        raise IRError(loop, f"'{_op(loop).name}' op: {what} is not in a kernel that "
                            f"states its workgroup size")
    return block


class RolledLoop:
    """A loop IREE pipelined itself, read for its roll-back (``reroll.py``,
    ``reroll_regs.py``): its body, ``ops``, block arguments, yielded values and the
    kernel's workgroup size (:func:`kernel_block`, ``what`` naming the loop); :meth:`fail`
    refuses at an op, naming the roll-back's :attr:`FORM`."""
    #: what the roll-back undoes, as its refusals name it
    FORM = "IREE's prefetch pipelining"

    def __init__(self, loop, ops: list, what: str) -> None:
        self.loop = loop
        self.body = loop.regions[0].blocks[0]
        self.ops = ops
        self.args = list(self.body.arguments)
        self.yields = list(self.ops[-1].operands)
        self.block = kernel_block(loop, what)

    def fail(self, op, what: str):
        raise IRError(op, f"'{op.name}' op {what}; the front end rolls {self.FORM} back only "
                          f"when it is exactly IREE's form: give the kernel with "
                          f"prefetch_num_stages = 1 otherwise")


class Workgroups:
    """The workgroup iterations of ``loop``'s kernel, enumerated when first needed:
    ``fail(op, text)`` the caller's refusal, ``what`` its loop's description."""

    def __init__(self, loop, block: tuple, fail, what: str) -> None:
        self.loop, self.block, self.fail, self.what = loop, block, fail, what
        self.points = None
        self.wide: dict = {}    # chunk start -> its side-by-side evaluator (:meth:`prove`)
        self.compared = False   # a copy proven by comparing the grid's workgroups

    def check_covers(self) -> None:
        """When a copy was proven by comparing the grid's workgroups (:meth:`prove`), that
        the grid covers C (:func:`~pipeline_mlir.analysis.output_tiles.check_grid_covers`):
        else the kernel is launched on more workgroups than were compared."""
        if self.compared:
            check_grid_covers(kernel_of(self.loop), self.points[2], self.block)

    def release(self) -> None:
        """Drop the evaluators of :meth:`prove`, once the proofs are done: each lives until
        it is collected and is told of every change to the IR until then
        (:func:`~pipeline_mlir.dialect.ir_changes.forget_on_change`), and this object,
        holding its caller's ``fail``, is in a reference cycle: the 3,591 per-workgroup
        evaluators of IREE's fp8 1817x998x1273 register-copy kernel were told of every
        erasure of the rewrite and of the rest of the front end's run."""
        self.points = None
        self.wide = {}

    def prove(self, pro, why: str, lead: str, differs) -> None:
        """Refuse ``pro`` (the prologue op whose forms did not decide: ``why``; ``lead`` what
        it is not proven, for the message) unless ``differs(ev)`` is None in every
        workgroup iteration of the kernel's grid, else what differs (the refusal's text,
        the workgroup named after it).  Where no loop over workgroups needs its iterations
        enumerated, ``ev`` evaluates :data:`CHUNK` workgroups side by side (one lane per
        thread of each: :meth:`_side_by_side`), trusted only where it finds nothing: a chunk
        where it finds a difference, or raises a refusal, is evaluated again one workgroup
        at a time (:meth:`_one_by_one`) for the refusal of the first that fails.  A grid
        that cannot be enumerated is refused at ``pro``, or at the workgroup loop whose
        bound is known only at launch."""
        if self.points is None:
            self.points = self._grid_points()
        if len(self.points) == 2:      # a refusal (_grid_points)
            what, where = self.points
            if what == "launch":
                self.fail(where, f"(a loop over workgroups around the {self.what} loop) has "
                                 f"a bound known only at launch: its workgroups cannot all "
                                 f"be compared ({why})")
            self.fail(pro, f"{lead} by its index arithmetic ({why}), and {what}")
        strides, _dims, _grid, points = self.points
        self.compared = True
        if strides:
            self._one_by_one(pro, differs, points)
            return
        for start in range(0, len(points), CHUNK):
            chunk = points[start:start + CHUNK]
            try:
                text = differs(self._side_by_side(start, chunk))
            except (IRError, Unevaluable) as e:     # (a workgroup's own, found again)
                text = str(e)
            if text is not None:
                self._one_by_one(pro, differs, chunk)
                self.fail(pro, f"{lead}: in workgroups {grid_point(chunk[0][0])} to "
                               f"{grid_point(chunk[-1][0])} side by side, not one by one "
                               f"({text})")

    def _one_by_one(self, pro, differs, points: list) -> None:
        """:meth:`prove` in each workgroup iteration of ``points`` in turn (their
        evaluators made where :meth:`_grid_points` did not), the first that fails
        refused."""
        strides, dims, grid, _points = self.points
        for point, ev, ranges in points:
            if ev is None:
                ev = self._evaluator(point)
            for ivs in itertools.product(*ranges):
                for o, d, iv in zip(strides, dims, ivs):
                    ev.bind(o.regions[0].blocks[0].arguments[0], iv)
                    ev.bind(o.operands[2], grid[d])     # the workgroup count
                text = differs(ev)
                if text is not None:
                    self.fail(pro, f"{text} (workgroup {grid_point(point)})")

    def _evaluator(self, point: tuple) -> Evaluator:
        """An evaluator of the workgroup ``point``: the id ops of :data:`WORKGROUP_IDS` bound
        per dimension to its coordinates; values known only at launch refused, not
        sampled."""
        ev = Evaluator(self.block, workgroup_id=point[0], launch_values=False)
        bind_workgroup(ev, kernel_of(self.loop), point + (0,) * (3 - len(point)))
        return ev

    def _side_by_side(self, start: int, chunk: list) -> SideBySide:
        """The evaluator of the workgroups ``chunk`` (the points from ``start`` on) side by
        side, made once and kept (with what it has evaluated) for the next proof while the
        chunks up to it hold :data:`KEPT_LANES` lanes at most, else made for this proof."""
        if start in self.wide:
            return self.wide[start]
        ev = SideBySide(self.block, len(chunk), launch_values=False)
        ids = np.array([p for p, _e, _r in chunk], dtype=np.int64)
        bind_workgroup(ev, kernel_of(self.loop), ev.lane_ids(ids))
        if (start + len(chunk)) * int(np.prod(self.block)) <= KEPT_LANES:
            self.wide[start] = ev
        return ev

    def _grid_points(self):
        """The kernel's grid (:func:`~pipeline_mlir.analysis.loop_eval.workgroup_grid`),
        one pass over its points: each point, its evaluator (:meth:`_evaluator`; made here
        only for a kernel with linearised workgroup loops, else None) and the ranges of
        those loops (:func:`~pipeline_mlir.analysis.loop_eval.grid_stride_range`), counted
        as they are found: ``(loops, their dimensions, grid, [(point, evaluator,
        ranges)])``; one point when nothing in the kernel tells workgroups apart.  Else why
        not, for :meth:`prove`: ``("launch", loop)``, or the refusal's end and None."""
        kernel = kernel_of(self.loop)
        ids = walk_ops(kernel, lambda o: o.name in WORKGROUP_IDS or
                       (o.name == "scf.for" and grid_stride(o)))
        if not ids:
            return [], [], (1,), [((0,), None, [])]
        grid = workgroup_grid(kernel)
        if grid is not None and any(   # ids the grid does not bound: rocdl's own
                o.name.startswith("rocdl.") or id_dimension(o) >= len(grid)
                for o in ids if o.name not in ("scf.forall", "scf.for")):
            grid = None
        strides = [o for o in ids if o.name == "scf.for"]
        most = MAX_ITERATIONS if strides else MAX_WORKGROUPS
        if grid is None or int(np.prod(grid)) > most:
            return (f"the kernel's grid of "
                    f"{'unbounded' if grid is None else int(np.prod(grid))} workgroups is "
                    f"too large to compare each (at most {most})", None)
        dims = [id_dimension(_defining(o.operands[0])) for o in strides]
        if not strides:
            return [], [], grid, [(p, None, []) for p in itertools.product(*map(range, grid))]
        points, total = [], 0
        for point in itertools.product(*(range(n) for n in grid)):
            ev = self._evaluator(point)
            ranges = []
            for o in strides:
                try:
                    ranges.append(grid_stride_range(ev, o, point, grid))
                except Unevaluable:
                    return "launch", o
            total += int(np.prod([len(r) for r in ranges]))
            if total > MAX_ITERATIONS:
                return (f"the kernel runs more than {MAX_ITERATIONS} workgroup iterations "
                        f"to compare each", None)
            points.append((point, ev, ranges))
        return strides, dims, grid, points
