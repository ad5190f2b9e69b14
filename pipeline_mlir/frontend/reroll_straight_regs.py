"""IREE's prefetch pipelining through registers that left no loop, rebuilt into the K-loop.

IREE's ``prefetch_num_stages = 3`` pipelining of a K-loop whose copies go through
registers (fp8 and i8 matmuls, a ``K x M`` operand, an unaligned K) peels every K tile
when K holds as many tiles as stages, or fewer: the kernel's block then holds ``T`` K
tiles straight, each a group of loads of global memory into registers (plain, or IREE's
guarded load of a tile an unaligned K cuts) and their ``vector.store``\\ s into one LDS
buffer per operand, the tile's LDS reads and MFMAs, and barriers between (tile ``j+1``'s
loads issued before tile ``j``'s MFMAs, its stores after them and a barrier).  Each tile's
index arithmetic, masks and guards are folded in their own way (fp8 E5M2 ``A x B^T``
95x90x271: the last K tile's column is clamped to the 15 columns left and its mask sized
by them).  Such a late form was refused at its first MFMA while its prefetch point
pipelined.

:func:`reroll_straight_regs` rebuilds the loop of the prefetch point: ``scf.for %t = 0 to
T step 1`` whose body is a barrier, K tile 0's loads and stores with each value that
differs from tile to tile chosen by ``%t``, a barrier, and tile 0's reads and MFMAs
accumulating in ``iter_args``; the other tiles go.  The copies are not matched by their
index arithmetic: tile ``j``'s copies are read as tile 0's made by the same ops (a guarded
load's regions too) from other values
(:class:`~pipeline_mlir.frontend.straight_copies.TileCopies`), and iteration ``t`` of the loop
makes them from tile ``t``'s values, ``x_0 + t * c`` where every tile's is (its forms over
the thread and the workgroup, :mod:`pipeline_mlir.analysis.id_forms`), else selected by
``%t == j``; so the loop's iteration ``t`` loads and stores exactly what tile ``t`` does.
What is proven before the IR changes, anything else a located error:

* the straight part (from the first LDS store, or the first load of global memory whose
  value one writes, to the last MFMA; loads before it for no LDS store, such as C's rows an
  accumulating kernel stages in private memory, stay before the loop) holds loads of
  memory other than LDS, ``vector.store``\\ s to LDS, barriers, ``amdgpu.sched_barrier``\\
  s, the tiles' LDS reads, MFMAs and ops free of memory effects, nothing else; ``T >= 2``
  runs of one number of stores, each followed by a run of one number of MFMAs;
* the MFMAs continue tile 0's accumulator chains and the fragments are made alike from
  LDS reads, each read of tile ``j`` reading, in every thread, what tile 0's read reads
  (:class:`~pipeline_mlir.frontend.straight_tiles.StraightTiles`);
* each store of tile ``j`` and the ops making its value are tile 0's but for values made
  before the straight part or without memory effects in it (integers, indices or masks,
  the same LDS and global buffers);
* the order: each read of tile ``j`` after a barrier (one fencing workgroup memory) after
  the last store of tile ``j``, each store of tile ``j`` after such a barrier after the
  last read of tile ``j - 1``; so the LDS sees the loop's order of stores and reads, the
  loads moved past nothing that writes memory;
* every value the rewrite drops is used only by what it drops, the chains' last values
  only after the straight part.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.id_forms import Forms
from pipeline_mlir.analysis.barriers import fences_lds
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.guarded_load import fold_mismatch, guard_mismatch
from pipeline_mlir.frontend.kernel_ir import at, erase_dead, in_lds, is_pure
from pipeline_mlir.frontend.reroll_ops import MARK
from pipeline_mlir.frontend.reroll_parts import SCHED_BARRIER, STORE, load_parts_of, \
    stored_value
from pipeline_mlir.frontend.reroll_proof import kernel_block
from pipeline_mlir.frontend.straight_copies import TileCopies
from pipeline_mlir.frontend.straight_tiles import BARRIER, MFMA, READS, StraightTiles, \
    rebuild_each

#: how the refusals name the form
WHAT = "IREE's prefetch pipelining through registers with every K tile peeled (no loop left)"


def reroll_straight_regs(root) -> None:
    """Each kernel of ``root`` whose K tiles IREE's prefetch pipelining through registers
    left straight (:func:`_form`) given its K-loop back, as the module docstring says."""
    rebuild_each(root, _form, _RegTiles)


def _is_lds_store(o) -> bool:
    return o.name == STORE and in_lds(o.operands[1])


def _form(ops: list, first: int) -> bool:
    """No ``rocdl.asyncmark`` and an LDS ``vector.store`` after the first MFMA (the form of
    the module docstring; else left to the front end's refusal of a kernel without a
    K-loop)."""
    return not any(o.name == MARK for o in ops) and any(_is_lds_store(o) for o in ops[first:])


class _RegTiles(StraightTiles):
    """One kernel's straight K tiles of copies through registers: read and proven, then
    rebuilt into a loop."""
    SLOTTED = False

    def __init__(self, block) -> None:
        super().__init__(block, WHAT)

    def _prove(self) -> None:
        self.joint = TileCopies(self)
        for c in range(len(self.stores[0])):
            self.joint.copy(tuple(g[c] for g in self.stores))
        self.joint.leaves(Forms(self.ev))
        self._order()
        self._uses()

    # ---- the parts -----------------------------------------------------------------------
    def _parts(self) -> None:
        """The straight part; its runs of LDS stores (``stores``) and of MFMAs (``tiles``)."""
        ops = self.ops
        copied = {_defining(stored_value(o)) for o in ops if _is_lds_store(o)}
        lo = next(i for i, o in enumerate(ops) if _is_lds_store(o) or
                  (o in copied and load_parts_of(o) is not None))
        hi = max(i for i, o in enumerate(ops) if o.name == MFMA)
        self.region = ops[lo:hi + 1]
        self.after = set(ops[hi + 1:])
        runs: list = []          # [kind, ops]
        for o in self.region:
            if _is_lds_store(o) or o.name == MFMA:
                kind = "s" if o.name == STORE else "m"
                if runs and runs[-1][0] == kind:
                    runs[-1][1].append(o)
                else:
                    runs.append([kind, [o]])
            elif o.name not in (BARRIER, SCHED_BARRIER) and not is_pure(o) and \
                    load_parts_of(o) is None and \
                    not (o.name in READS and in_lds(o.operands[0])):
                why = (fold_mismatch(o) or guard_mismatch(o)) if o.name == "scf.if" else None
                if why:
                    self.fail(o, f"(among the K tiles IREE's prefetch pipelining peeled) is "
                                 f"not IREE's guarded load: {why}")
                self.fail(o, "(among the K tiles IREE's prefetch pipelining peeled) is "
                             "neither a load of global memory, an LDS store, a barrier, an "
                             "LDS read, an MFMA nor free of memory effects: the rebuilt loop "
                             "has no place for it")
        self.stores = [r[1] for r in runs if r[0] == "s"]
        self.tiles = [r[1] for r in runs if r[0] == "m"]
        self.tiles_n = t = len(self.tiles)
        shape = [(r[0], len(r[1])) for r in runs]
        if t < 2 or runs[0][0] != "s" or len(self.stores) != t or \
                len({n for k, n in shape if k == "s"}) != 1 or \
                len({n for k, n in shape if k == "m"}) != 1:
            self.fail(self.region[0], f"starts K tiles peeled by IREE's prefetch pipelining "
                                      f"through registers that are not 2 or more runs of "
                                      f"one number of LDS stores each followed by a run of "
                                      f"one number of MFMAs (found "
                                      f"{' '.join(f'{n}{k}' for k, n in shape)}: s a run of "
                                      f"stores, m of MFMAs)")
        self.wg = kernel_block(self.region[0], "the K tiles IREE's prefetch pipelining "
                                               "peeled")
        self.dep: set = set()    # the ops reading memory and those made from them
        for o in self.region:
            if not is_pure(o) or any(not isinstance(x.owner, ir.Block) and
                                     _op(x.owner) in self.dep for x in o.operands):
                self.dep.add(o)

    # ---- the LDS buffers -----------------------------------------------------------------
    def _buffers(self) -> None:
        """Each buffer the tiles read: a ``memref.alloc`` of a static shape (its elements
        ``size``); the tiles' stores go to those buffers."""
        self.size = {}
        for r0, _rj, _j in self.pairs:
            root = view_root(r0.operands[0])
            alloc = _defining(root)
            if alloc is None or alloc.name != "memref.alloc" or \
                    not ir.MemRefType(root.type).has_static_shape:
                self.fail(alloc or r0, f"(the LDS buffer of the read at {at(r0)}) is not a "
                                       f"memref.alloc of a static shape")
            self.size[root] = int(np.prod(ir.MemRefType(root.type).shape))
        for s in (s for g in self.stores for s in g):
            if view_root(s.operands[1]) not in self.size:
                self.fail(s, "stores to LDS that no fragment read of the peeled K tiles "
                             "reads")

    # ---- the order -----------------------------------------------------------------------
    def _order(self) -> None:
        """Each read of tile ``j`` after a barrier after tile ``j``'s last store; each store
        of tile ``j`` after a barrier after tile ``j - 1``'s last read."""
        pos = {o: i for i, o in enumerate(self.region)}
        # (a barrier whose memfence leaves out workgroup memory orders no LDS access)
        barriers = [pos[o] for o in self.region if o.name == BARRIER and fences_lds(o)]
        reads = [[] for _ in range(self.tiles_n)]
        for r0, rj, j in self.pairs:
            reads[0].append(r0)
            reads[j].append(rj)
        paired = {r for rs in reads for r in rs}
        for o in self.region:
            if o.name in READS and in_lds(o.operands[0]) and o not in paired:
                self.fail(o, "reads LDS among the peeled K tiles for no MFMA operand: the "
                             "rebuilt loop has no place for it")

        def fenced(a: int, b: int) -> bool:
            return any(a < x < b for x in barriers)
        for j in range(self.tiles_n):
            last = max(pos[s] for s in self.stores[j])
            for r in reads[j]:
                if not fenced(last, pos[r]):
                    self.fail(r, f"(K tile {j}) reads LDS with no gpu.barrier after K tile "
                                 f"{j}'s last store ({at(self.region[last])}): the rebuilt "
                                 f"loop would not compute what this kernel does")
            if j:
                last = max(pos[r] for r in reads[j - 1])
                for s in self.stores[j]:
                    if not fenced(last, pos[s]):
                        self.fail(s, f"(K tile {j}) stores to LDS with no gpu.barrier after "
                                     f"K tile {j - 1}'s last read ({at(self.region[last])}): "
                                     f"the rebuilt loop would not compute what this kernel "
                                     f"does")

    # ---- what stays, moves and goes ------------------------------------------------------
    def _uses(self) -> None:
        """The region's ops that read memory or depend on such (``dep``: all go but tile
        0's reads, fragments and MFMAs, which move into the loop) used only inside the
        straight part, the last tile's chains' ends after it too."""
        self.moved = set(self.tiles[0]) | self.slice0
        inside = set(self.region)
        self._kept_uses(self.dep, lambda o, user: user in inside)

    # ---- the rewrite ---------------------------------------------------------------------
    def _rewrite(self) -> None:
        region = self.region
        self._loop(self.joint.unit(self.loop_step), self.joint.emit, self.moved)
        kept = []
        for o in reversed(region):
            if o in self.moved:
                continue
            if o in self.dep:
                o.erase()
            else:
                kept.extend(o.results)
        erase_dead(kept, self.block)
