"""IREE's prefetch pipelining that left no loop, rebuilt into the natural K-loop.

IREE's ``prefetch_num_stages = S`` pipelining (:mod:`~pipeline_mlir.frontend.reroll`) of a
K-loop of as many K tiles as stages leaves a loop of one trip, which its canonicalizer
inlines and folds: the kernel's block then holds the K tiles straight, ``T`` groups of
copies (``amdgpu.gather_to_lds async``, each group closed by a ``rocdl.asyncmark``) into
slots ``0 .. T-1`` of each operand's ``memref<S x ...>`` LDS buffer, waits
(``rocdl.wait.asyncmark``) and barriers among them, and ``T`` repeats of the K tile's LDS
reads and MFMAs, tile ``j`` reading slot ``j`` and accumulating onto tile ``j - 1``'s
results, each tile's index arithmetic folded in its own way (f16 ``A x B`` 256x512x96, a
64x128x32 tile, 3 stages; every such late form was refused "no K-loop" while its prefetch
point pipelined).

:func:`reroll_straight` rebuilds the loop the prefetch point holds: ``scf.for %t = 0 to T
step 1`` whose body is a barrier, the first group's copies (synchronous), each global
index moved by ``t`` times its step from one group to the next, a barrier, and the first
tile's reads and MFMAs accumulating in ``iter_args``; the other groups and tiles go, and
the buffers keep one slot.  Nothing is matched by its index arithmetic (IREE folds it
differently per tile): what each op reads and writes is evaluated.  Each of these is
proven before the IR changes, anything else a located error:

* the straight part (the first copy into LDS to the last MFMA) holds the copies, marks,
  waits and barriers, the tiles' LDS reads, and ops free of memory effects, nothing else;
  ``T >= 2`` groups of one number of copies, ``T`` tiles of one number of MFMAs (in order);
* the MFMAs: tile ``j``'s ``k``-th is tile 0's (name, attributes, types), accumulating onto
  what tile 0's does inside its tile, else onto tile ``j - 1``'s last MFMA of the same
  chain; each result used by its chain alone, the last tile's chain ends only after the
  straight part;
* the fragments: each MFMA's A and B are made from LDS reads by the same ops in every
  tile (names, attributes, types, operands; a value from outside the tiles the same
  value); each read of tile ``j`` reads, in every thread (a thread-only evaluator), the
  elements tile 0's reads moved by ``j`` slots, inside tile 0's slot, through a view of
  the same strides and placing;
* the copies: group ``i``'s ``c``-th copy is group 0's (attributes, the same global buffer
  value); each global index is group 0's plus ``i`` times one constant in every thread of
  every workgroup (:mod:`pipeline_mlir.analysis.id_forms`, else the kernel's grid
  enumerated, :class:`~pipeline_mlir.frontend.reroll_proof.Workgroups`); its LDS elements
  group 0's moved by ``i`` slots, inside the slot;
* the waits: each read of tile ``j`` follows a ``rocdl.wait.asyncmark`` and a barrier
  (fencing workgroup memory) after which group ``j`` is complete (all groups closed
  before the wait but its count);
* the LDS buffers: each a ``memref.alloc`` of ``memref<S x ...>`` (row-major, no swizzle
  attribute) with ``S >= T``, used only by the copies, the tiles' reads, views and
  deallocation.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.barriers import fences_lds
from pipeline_mlir.analysis.id_forms import Forms
from pipeline_mlir.analysis.ir_facts import int_attr, row_major_strides
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.loop_eval import Evaluator, segments
from pipeline_mlir.analysis.views import view_root, view_users
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import index_constant
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import at, erase_dead, in_lds, is_pure
from pipeline_mlir.frontend.reroll_ops import COPY, MARK, WAIT
from pipeline_mlir.frontend.reroll_proof import Workgroups, access, kernel_block, \
    same_op_but_operands
from pipeline_mlir.frontend.reroll_slots import one_slot
from pipeline_mlir.frontend.straight_tiles import BARRIER, MFMA, READS, StraightTiles, \
    form_step, rebuild_each

#: how the refusals name the form
WHAT = "IREE's prefetch pipelining with every K tile peeled (no loop left)"


def reroll_straight(root) -> None:
    """Each kernel of ``root`` whose K tiles IREE's prefetch pipelining left straight
    (:func:`_form`) given its natural K-loop back, as the module docstring says."""
    rebuild_each(root, _form, _Straight)


def _form(ops: list, first: int) -> bool:
    """Copies into LDS closed by ``rocdl.asyncmark`` before the first MFMA (the form of the
    module docstring; else left to the front end's refusal of a kernel without a
    K-loop)."""
    return any(o.name == MARK for o in ops[:first]) and \
        any(o.name == COPY for o in ops[:first])


class _Straight(StraightTiles):
    """One kernel's straight K tiles: read and proven, then rebuilt into a loop."""

    def __init__(self, block) -> None:
        super().__init__(block, WHAT)

    def _prove(self) -> None:
        self._copies()
        self._waits()
        self._uses()
        self.grid.check_covers()
        self.grid.release()

    # ---- the parts -----------------------------------------------------------------------
    def _parts(self) -> None:
        """The straight part, its groups of copies and its tiles of MFMAs."""
        ops = self.ops
        lo = next(i for i, o in enumerate(ops) if o.name == COPY)
        hi = max(i for i, o in enumerate(ops) if o.name == MFMA)
        self.region = ops[lo:hi + 1]
        self.after = set(ops[hi + 1:])
        for o in ops[:lo] + ops[hi + 1:]:
            if o.name in (COPY, MARK, WAIT):
                self.fail(o, "lies outside the K tiles IREE's pipelining peeled (from the "
                             "first copy into LDS to the last MFMA)")
        self.groups, group = [], []
        for o in self.region:
            if o.name == COPY:
                if "async" not in o.attributes:
                    self.fail(o, "is synchronous among the K tiles IREE's prefetch "
                                 "pipelining peeled (its copies are asynchronous)")
                group.append(o)
            elif o.name == MARK:
                self.groups.append(group)
                group = []
            elif o.name not in (WAIT, BARRIER, MFMA) and not is_pure(o) and \
                    not (o.name in READS and in_lds(o.operands[0])):
                self.fail(o, "(among the K tiles IREE's prefetch pipelining peeled) is "
                             "neither a copy, a wait, a barrier, an LDS read, an MFMA nor "
                             "free of memory effects: the rebuilt loop has no place for it")
        if group:
            self.fail(group[0], "copies into LDS after the last rocdl.asyncmark of the K "
                                "tiles IREE's prefetch pipelining peeled")
        n = len(self.groups[0]) if self.groups else 0
        if len(self.groups) < 2 or not n or any(len(g) != n for g in self.groups):
            self.fail(self.region[0], f"starts K tiles peeled by IREE's prefetch pipelining "
                                      f"that are not 2 or more groups of one number of "
                                      f"copies, each closed by a rocdl.asyncmark (found "
                                      f"{[len(g) for g in self.groups]})")
        self.tiles_n = t = len(self.groups)
        mfmas = [o for o in self.region if o.name == MFMA]
        if len(mfmas) % t:
            self.fail(mfmas[0], f"is one of {len(mfmas)} MFMAs after {t} groups of copies: "
                                f"not {t} K tiles of one number of MFMAs")
        m = len(mfmas) // t
        self.tiles = [mfmas[j * m:(j + 1) * m] for j in range(t)]
        self.wg = kernel_block(self.region[0], "the K tiles IREE's prefetch pipelining "
                                               "peeled")

    # ---- the LDS buffers -----------------------------------------------------------------
    def _buffers(self) -> None:
        """Each buffer the copies fill: a ``memref.alloc`` of ``memref<S x ...>``, ``S >=
        T``, row-major; its users the copies, the reads, views and deallocation."""
        copies = {c for g in self.groups for c in g}
        reads = {r for r0, rj, _j in self.pairs for r in (r0, rj)}
        self.size, self.allocs = {}, []
        for c in copies:
            root = view_root(segments(c)[2][0])
            if root in self.size:
                continue
            alloc = _defining(root)
            t = ir.MemRefType(root.type)
            if alloc is None or alloc.name != "memref.alloc" or len(alloc.operands) or \
                    not t.has_static_shape or t.shape[0] < self.tiles_n or \
                    "iree_codegen.swizzle" in alloc.attributes or \
                    t.get_strides_and_offset() != (row_major_strides(t.shape), 0):
                self.fail(alloc or c, f"(the LDS buffer of a copy at {at(c)}) is not a "
                                      f"memref.alloc of memref<S x ...>, S >= {self.tiles_n} "
                                      f"K tiles (one slot per tile in dim 0, row-major, no "
                                      f"swizzle attribute)")
            self.size[root] = int(np.prod(t.shape[1:]))
            self.allocs.append(alloc)
            self._users(root, copies, reads)
        for r0, rj, _j in self.pairs:
            if view_root(r0.operands[0]) not in self.size:
                self.fail(r0, "reads LDS that no copy of the peeled K tiles fills")

    def _users(self, v, copies: set, reads: set) -> None:
        for o, x in view_users(v):
            if not ((o in copies and segments(o)[2][0] == x) or
                    (o in reads and o.operands[0] == x) or o.name == "memref.dealloc"):
                self.fail(o, "uses an LDS buffer of the peeled K tiles' slots other than "
                             "by their copies, their fragments' reads and views: the rebuilt "
                             "loop keeps one slot")

    # ---- the copies ----------------------------------------------------------------------
    def _copies(self) -> None:
        """Group ``i``'s copies group 0's moved ``i`` K tiles: the LDS elements by ``i``
        slots, each global index by ``i`` times its step (``steps``, per copy)."""
        ev = self.ev
        forms = Forms(Evaluator(self.wg, thread_only=True))
        self.grid = Workgroups(self.region[0], self.wg, self.fail, "peeled K tiles'")
        self.steps = []
        for c, base in enumerate(self.groups[0]):
            src0, sidx0, dst0, didx0 = segments(base)
            steps: list = [None] * len(sidx0)
            todo = []
            for i in range(1, self.tiles_n):
                o = self.groups[i][c]
                src, sidx, dst, didx = segments(o)
                if not same_op_but_operands(base, o) or src[0] != src0[0]:
                    self.fail(o, f"(K tile {i}'s copy) is not K tile 0's copy at {at(base)} "
                                 f"(its attributes, types or global buffer differ)")
                size = self.size[view_root(dst0[0])]
                try:
                    a, b = access(ev, dst0[0], didx0), access(ev, dst[0], didx)
                except Unevaluable as e:
                    self.fail(o, f"copies to LDS elements that depend on more than the "
                                 f"thread ids ({e})")
                if not self._placed(a, b, i * size, 0, size):
                    self.fail(o, f"(K tile {i}'s copy) does not write the LDS elements K "
                                 f"tile 0's copy at {at(base)} writes, moved {i} slots of "
                                 f"{size} elements (or that copy leaves slot 0)")
                for d, (x0, x) in enumerate(zip(sidx0, sidx)):
                    step = form_step(forms, x0, x, i)
                    if step is None or steps[d] not in (None, step):
                        todo.append((i, d, x0, x))
                    else:
                        steps[d] = step
            if todo:
                self._grid_steps(base, steps, todo)
            self.steps.append(steps)

    def _grid_steps(self, base, steps: list, todo: list) -> None:
        """The global index steps the forms did not decide, proven over the kernel's grid
        (the step of an index taken from its first thread where no form gave it)."""
        def differs(ev):
            for i, d, x0, x in todo:
                diff = np.asarray(ev.value(x), dtype=np.int64) - \
                    np.asarray(ev.value(x0), dtype=np.int64)
                if steps[d] is None and diff.size and int(diff.flat[0]) % i == 0:
                    steps[d] = int(diff.flat[0]) // i
                if steps[d] is None or not np.all(diff == i * steps[d]):
                    return (f"(the copy of K tile {i}) is not K tile 0's copy at {at(base)} "
                            f"moved {i} K tiles: its global index #{d} does not move by "
                            f"one step per tile")
            return None
        self.grid.prove(self.groups[todo[0][0]][self.groups[0].index(base)],
                        "its global indices are not K tile 0's plus a constant in their "
                        "forms", "(a copy of a peeled K tile) is not proven K tile 0's "
                        "copy moved by whole K tiles", differs)

    # ---- the waits -----------------------------------------------------------------------
    def _waits(self) -> None:
        """Each read of tile ``j`` after a wait and a barrier that complete group ``j``."""
        closed, pending, visible = 0, None, 0
        for o in self.region:
            if o.name == MARK:
                closed += 1
            elif o.name == WAIT:
                pending = closed - int_attr(o, "count")
            elif o.name == BARRIER and pending is not None and fences_lds(o):
                visible = max(visible, pending)
            elif o in self.read_tile and visible < self.read_tile[o] + 1:
                j = self.read_tile[o]
                self.fail(o, f"reads K tile {j}'s slot before a rocdl.wait.asyncmark and a "
                             f"gpu.barrier complete its copies ({visible} of the groups "
                             f"complete there): the rebuilt loop would not compute what "
                             f"this kernel does")

    # ---- what stays, moves and goes ------------------------------------------------------
    def _uses(self) -> None:
        """The ops that move into the loop (tile 0's MFMAs and fragments, group 0's copies)
        and those that go (the rest of the tiles and groups, the marks, waits and barriers)
        used only by each other, the chains' ends of the last tile only after the straight
        part."""
        self.moved = set(self.tiles[0]) | self.slice0 | set(self.groups[0])
        self.gone = {o for j in range(1, self.tiles_n) for o in self.tiles[j]}
        for m in self.maps:
            self.gone |= set(m.values()) - self.slice0
        self.gone |= {c for g in self.groups[1:] for c in g}
        self.gone |= {o for o in self.region if o.name in (MARK, WAIT, BARRIER)}
        self._kept_uses(self.moved | self.gone, lambda o, user: user in self.gone or
                        (user in self.moved and o in self.moved))

    # ---- the rewrite ---------------------------------------------------------------------
    def _rewrite(self) -> None:
        region = self.region
        unit = self.loop_step([s for steps in self.steps for s in steps if s])

        def copies(iv, body, loop):
            for c, steps in zip(self.groups[0], self.steps):
                self._move_copy(c, [s // unit if s else s for s in steps], iv, body, loop)
        self._loop(unit, copies, {o for o in self.moved if o.name != COPY})
        gone = [o for o in region if o in self.gone]
        dead = [x for o in gone for x in o.operands     # (not of an op erased with them)
                if isinstance(x.owner, ir.Block) or _op(x.owner) not in self.gone]
        for o in reversed(gone):
            o.erase()
        erase_dead(dead, self.block)
        for alloc in self.allocs:
            one_slot(alloc)

    @staticmethod
    def _move_copy(c, steps: list, iv, body, loop) -> None:
        """Group 0's copy ``c`` moved into the ``loop``'s ``body``, synchronous, each global
        index plus ``iv`` times its step per trip (a constant made before the loop)."""
        body.append(c)
        del c.attributes["async"]
        for d, step in enumerate(steps):
            if step:
                with ir.InsertionPoint(loop):
                    k = index_constant(step)
                with ir.InsertionPoint(c):
                    moved = B.arith.AddIOp(c.operands[1 + d], B.arith.MulIOp(iv, k).result)
                c.operands[1 + d] = moved.result


