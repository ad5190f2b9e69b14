"""What the rebuilds of K tiles IREE's prefetch pipelining left straight share.

IREE's pipelining of a K-loop of as many K tiles as stages leaves no loop: its copies
(DMA into slots, :mod:`~pipeline_mlir.frontend.reroll_straight`, or through registers into
one buffer, :mod:`~pipeline_mlir.frontend.reroll_straight_regs`) and ``T`` repeats of the
K tile's LDS reads and MFMAs lie straight in the kernel's block.  :class:`StraightTiles`
proves what both rebuilds need of the repeats: tile ``j``'s MFMAs continue tile 0's
accumulator chains (:meth:`StraightTiles._chains`), its fragments are made by the same ops
from LDS reads (:meth:`StraightTiles._fragments`), and each of those reads reads, in every
thread, the elements tile 0's read reads, moved ``j`` slots where the tiles have slots
(:meth:`StraightTiles._reads_placed`).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.barriers import fences_lds
from pipeline_mlir.analysis.id_forms import Forms
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.views import same_placing, view_root
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, index_constant, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import at, in_lds, is_pure
from pipeline_mlir.frontend.reroll_proof import access, same_op_but_operands

MFMA, BARRIER = "amdgpu.mfma", "gpu.barrier"
#: the LDS reads a tile's fragments are made from (each reads its vector's elements in a
#: row of its view's last dimension)
READS = ("vector.load", "amdgpu.transpose_load", "memref.load")


def rebuild_each(root, form, tiles) -> None:
    """``tiles(block).run()`` for each kernel of ``root`` whose MFMAs all lie in one block
    outside any ``scf.for`` and ``form(ops, first)`` holds of that block's ops (``first``
    the index of its first MFMA): the kernels whose K tiles IREE left straight in that
    form."""
    for f in walk_ops(root, lambda o: o.name in ("func.func", "gpu.func")):
        mfmas = walk_ops(f, lambda o: o.name == MFMA)
        if not mfmas or len({_op(m).block for m in mfmas}) != 1:
            continue
        block = _op(mfmas[0]).block
        p = block.owner
        while p is not None and _op(p) != f and _op(p).name != "scf.for":
            p = _op(p).parent
        if p is not None and _op(p) != f:
            continue
        ops = [_op(o) for o in block.operations]
        if form(ops, ops.index(_op(mfmas[0]))):
            with f.context, f.location:
                tiles(block).run()


class StraightTiles:
    """One kernel's straight K tiles (``block`` holds them; ``what`` names the form in the
    refusals).  A subclass's ``_parts`` sets ``region`` (the straight part), ``tiles_n``,
    ``tiles`` (each tile's MFMAs, in order) and ``wg`` (the workgroup size), its
    ``_buffers`` ``size`` (each LDS buffer's elements per slot); its ``_prove`` proves the
    copies, its ``_rewrite`` rebuilds the loop."""
    #: whether tile ``j`` reads slot ``j`` of its buffers (else the tiles share one)
    SLOTTED = True

    def __init__(self, block, what: str) -> None:
        self.block = block
        self.what = what
        self.ops = [_op(o) for o in block.operations]

    def run(self) -> None:
        """Read and prove the K tiles (the form's own proofs: :meth:`_prove`), then
        rebuild them into a loop (:meth:`_rewrite`)."""
        self._parts()
        self._chains()
        self._fragments()
        self._buffers()
        self.ev = Evaluator(self.wg, thread_only=True)
        self._reads_placed()
        self._prove()
        self.ev = None     # (an evaluator is told of every later change to the IR)
        self._rewrite()

    def fail(self, op, what: str):
        raise IRError(op, f"'{op.name}' op {what}; the front end rebuilds the K-loop of "
                          f"{self.what} only when it is exactly IREE's form: give the kernel "
                          f"with prefetch_num_stages = 1 otherwise")

    # ---- the MFMAs' chains ---------------------------------------------------------------
    def _chains(self) -> None:
        """Tile 0's accumulator chains (``inner[k]``: the tile-0 MFMA that MFMA ``k`` accumulates
        onto, None for a chain's start; ``last[c]``: chain ``c``'s end), each later tile's
        MFMAs proven the same chains continued."""
        t0 = self.tiles[0]
        pos = {o: k for k, o in enumerate(t0)}
        self.inner, chain = [], []
        for k, o in enumerate(t0):
            d = _defining(o.operands[2])
            self.inner.append(pos.get(d))
            chain.append(k if d not in pos else chain[pos[d]])
        self.starts = [k for k in range(len(t0)) if self.inner[k] is None]
        self.last = {c: max(k for k in range(len(t0)) if chain[k] == c) for c in self.starts}
        self.chain = chain      # (each tile-0 MFMA's chain: its start)
        for j in range(1, self.tiles_n):
            for k, o in enumerate(self.tiles[j]):
                if not same_op_but_operands(t0[k], o):
                    self.fail(o, f"is not K tile 0's MFMA at {at(t0[k])} repeated for K "
                                 f"tile {j} (its name, attributes or types differ)")
                prev = self.tiles[j][self.inner[k]] if self.inner[k] is not None else \
                    self.tiles[j - 1][self.last[chain[k]]]
                if o.operands[2] != prev.results[0]:
                    self.fail(o, f"(K tile {j}) does not accumulate onto {at(prev)}, where "
                                 f"K tile 0's MFMA at {at(t0[k])} continues its chain")

    def _kept_uses(self, checked: set, allowed) -> None:
        """Refuse a use of a result of an op of ``checked`` (of the straight part) that
        ``allowed(op, user)`` does not allow (``user`` the op of the kernel's block it is
        in), but for the last tile's chains' ends used after the straight part."""
        ends = {self.tiles[-1][self.last[c]] for c in self.starts}
        for o in self.region:
            if o not in checked:
                continue
            for r in o.results:
                for u in r.uses:
                    user = top_op(_op(u.owner), self.block)
                    if not (allowed(o, user) or (o in ends and user in self.after)):
                        self.fail(user, f"uses a value of the peeled K tiles (made at "
                                        f"{at(o)}) that the rebuilt loop does not keep")

    def loop_step(self, steps) -> int:
        """The rebuilt loop's step: a K tile's MFMAs along each accumulator chain, as
        IREE's loop variable counts them (so that the front end may cut a pair of K tiles
        into sub-steps where the prefetch point's loop is cut, frontend/ksplit.py), where
        the chains are of one length and every per-tile step of ``steps`` a multiple of
        it; else 1."""
        lengths = {self.chain.count(c) for c in self.starts}
        n = lengths.pop() if len(lengths) == 1 else 1
        return n if all(s % n == 0 for s in steps if s) else 1

    def _loop(self, unit: int, copies, moved: set):
        """The rebuilt loop, after the straight part: ``scf.for %t = 0 to unit * T step
        unit`` of a barrier, the copies ``copies(iv, body, loop)`` puts in its body, a
        barrier, then the ops of ``moved`` (tile 0's reads, fragments and MFMAs) in their
        order, the chains' starts made ``iter_args``; the last tile's chain ends' uses
        made the loop's results."""
        t0, region = self.tiles[0], self.region
        nxt = self.ops[self.ops.index(region[-1]) + 1]
        with ir.InsertionPoint(nxt):
            lb, ub, step = (index_constant(v) for v in (0, unit * self.tiles_n, unit))
            loop = B.scf.ForOp(lb, ub, step, [t0[k].operands[2] for k in self.starts])
        body = loop.body
        barrier = next(o for o in region if o.name == BARRIER and fences_lds(o))
        barrier.clone(ir.InsertionPoint(body))
        copies(body.arguments[0], body, loop.operation)
        barrier.clone(ir.InsertionPoint(body))
        for o in region:
            if o in moved:
                body.append(o)
        for i, k in enumerate(self.starts):
            t0[k].operands[2] = body.arguments[1 + i]
        with ir.InsertionPoint(body):
            B.scf.YieldOp([t0[self.last[k]].results[0] for k in self.starts])
        for i, k in enumerate(self.starts):
            self.tiles[-1][self.last[k]].results[0].replace_all_uses_with(loop.results[i])
        return loop

    # ---- the fragments -------------------------------------------------------------------
    def _fragments(self) -> None:
        """Each later tile's A and B fragments made as tile 0's (:meth:`_same`); the LDS
        reads paired (``pairs``: tile 0's read, tile ``j``'s, ``j``)."""
        self.inside = set(self.region)
        self.pairs, self.maps = [], []
        for j in range(1, self.tiles_n):
            m: dict = {}
            for a, b in zip(self.tiles[0], self.tiles[j]):
                for x in (0, 1):
                    self._same(a.operands[x], b.operands[x], m, j)
            self.maps.append(m)
        if not self.pairs:
            self.fail(self.tiles[0][0], "(K tile 0) makes its operands from no LDS read: the "
                                        "peeled K tiles do not read what their copies fill")
        self.slice0 = set(self.maps[0])
        self.read_tile = {}     # each read -> its K tile
        for r0, rj, j in self.pairs:
            self.read_tile[r0], self.read_tile[rj] = 0, j

    def _same(self, v0, vj, m: dict, j: int) -> None:
        """``vj`` (of tile ``j``) is made as ``v0`` (tile 0's) is; ``m`` maps tile 0's ops
        of the fragments to tile ``j``'s."""
        o0 = None if isinstance(v0.owner, ir.Block) else _op(v0.owner)
        if o0 is None or o0 not in self.inside:
            if vj != v0:
                self.fail(_op(vj.owner) if not isinstance(vj.owner, ir.Block)
                          else self.tiles[j][0],
                          f"(K tile {j}) makes an MFMA operand from another value than K "
                          f"tile 0 uses at {at(self.tiles[0][0])}")
            return
        oj = None if isinstance(vj.owner, ir.Block) else _op(vj.owner)
        if oj is None or oj not in self.inside or \
                list(oj.results).index(vj) != list(o0.results).index(v0):
            self.fail(o0, f"makes a fragment of K tile 0 that K tile {j} does not make "
                          f"alike (from an op among the peeled K tiles)")
        if o0 in m:
            if m[o0] != oj:
                self.fail(oj, f"(K tile {j}) makes a fragment K tile 0 makes once, at "
                              f"{at(o0)}, twice")
            return
        if not same_op_but_operands(o0, oj):
            self.fail(oj, f"(K tile {j}) is not K tile 0's op at {at(o0)} (its name, "
                          f"attributes or types differ): each K tile makes its fragments "
                          f"alike")
        m[o0] = oj
        if o0.name in READS and in_lds(o0.operands[0]):
            self.pairs.append((o0, oj, j))
            return
        if o0.name == MFMA or not is_pure(o0):
            self.fail(o0, "makes an MFMA operand with memory effects or from an MFMA: the "
                          "rebuilt loop reads its fragments from LDS")
        for a, b in zip(o0.operands, oj.operands):
            self._same(a, b, m, j)

    def _placed(self, a, b, shift: int, span: int, size: int) -> bool:
        """Accesses ``a`` and ``b`` (of ``span`` more elements each) of one root, placed
        alike: ``b``'s elements ``a``'s moved by ``shift``, ``a``'s inside its first
        ``size`` elements."""
        ev = self.ev
        return a.view.root == b.view.root and a.view.strides == b.view.strides and \
            same_placing(a.view, b.view,
                         lambda x, y: np.array_equal(ev.value(x), ev.value(y))) and \
            np.array_equal(b.element, a.element + shift) and \
            a.element.min() >= 0 and a.element.max() + span < size

    def _reads_placed(self) -> None:
        """Tile ``j``'s reads read tile 0's elements moved by ``j`` slots."""
        ev = self.ev
        for r0, rj, j in self.pairs:
            try:
                a = access(ev, r0.operands[0], list(r0.operands)[1:])
                b = access(ev, rj.operands[0], list(rj.operands)[1:])
            except Unevaluable as e:
                self.fail(rj, f"reads LDS at elements that depend on more than the thread "
                              f"ids ({e})")
            t = rj.results[0].type
            n = int(np.prod(ir.VectorType(t).shape)) if isinstance(t, ir.VectorType) else 1
            if isinstance(t, ir.VectorType) and ir.VectorType(t).rank > 1:
                self.fail(rj, "reads a vector of more than one dimension from LDS")
            size = self.size[view_root(r0.operands[0])]
            shift = j * size if self.SLOTTED else 0
            if not self._placed(a, b, shift, (n - 1) * a.view.strides[-1], size):
                moved = f", moved {j} slots of {size} elements (or that read leaves slot " \
                    f"0)" if self.SLOTTED else f" (or reads past its buffer's {size})"
                self.fail(rj, f"(K tile {j}) does not read the elements K tile 0's read at "
                              f"{at(r0)} reads{moved}")


def form_step(forms: Forms, x0, x, i: int) -> int | None:
    """The constant ``(x - x0) / i`` when the forms prove it one for every thread of every
    workgroup, else None."""
    try:
        diff = forms.form(x).plus(forms.form(x0), -1)
    except Unevaluable:
        return None
    d = diff.constant()     # (Form drops the atoms whose coefficients cancel)
    return None if d is None or d % i else d // i


def top_op(o, block):
    """``o``, or the op of ``block`` it is nested in."""
    while o.block != block:
        o = _op(o.parent)
    return o
