"""A register copy of 8 bytes per lane made two 4-byte direct-to-LDS copies, LDS unchanged.

gfx950's direct-to-LDS copy moves 4 or 16 bytes per lane
(:data:`~pipeline_mlir.target.gfx950.LDS_DMA_BYTES`) and ``amdgpu.gather_to_lds`` takes no
8-byte transfer, neither as a DMA nor as the register-staged copy ``sched-stage-copies``
makes of it.  IREE's small tiles copy 8 bytes per lane (a 32x16 f16 tile over 128 threads,
a 128x8 bf16 one over 256).  Such a copy, once :mod:`~pipeline_mlir.frontend.regcopy` has
checked that its lanes write a wave's 512 bytes of LDS in order from one wave-uniform
address, is made two 4-byte copies that together write the same 512 bytes:

* copy ``h`` (0 or 1) writes, from lane ``l``, the 4 bytes at ``256 h + 4 l`` of the
  wave's block, which the 8-byte copy wrote from lane ``L = 32 h + l // 2``, its half
  ``l % 2``.  So lane ``l`` of copy ``h`` reads what lane ``L`` of the kernel's copy read,
  ``4 (l % 2)`` bytes on.  The LDS layout, its views and the fragment reads (transposing
  reads included) stay as they are: only which lane fetches which 4 bytes changes;
* the global address of lane ``L`` is the kernel's own index computation with the thread
  ids replaced (:func:`split_copy`): ``gpu.thread_id x`` by ``64 (x // 64) + 32 h +
  (x % 64) // 2`` (the same wave), ``gpu.lane_id`` by ``32 h + lane // 2``, the other
  dimensions and ``gpu.subgroup_id`` kept; each op of the computation that reads a thread
  id is cloned before itself with the new operands, value hints on the way (which describe
  the kernel's lanes) are passed over.  Whatever the address carries (a mask kept in it by
  :mod:`~pipeline_mlir.frontend.kept_masks`, the loop variable) is recomputed for lane
  ``L`` with it.  A wave must be 64 consecutive ids along x (the workgroup's x size a
  multiple of 64), the computation free of side effects and of other thread-id ops;
* the result is checked per lane (:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`,
  the two iterations the front end evaluates): each lane of each copy reads the run it
  should, or an error at the copy.

Each copy is a direct-to-LDS copy of 4 bytes (``buffer_load_dword ... lds``), or, where the
source is not 4-byte aligned in some lane, one the schedule register-stages
(:data:`~pipeline_mlir.frontend.marks.STAGED`).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_changes import set_new_operands
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.locations import written_as
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import THREAD_ID_OPS
from pipeline_mlir.frontend.cut_runs import cut_mask_size
from pipeline_mlir.frontend.marks import CUT
from pipeline_mlir.frontend.kept_masks import KEPT, buffer_indices, kept_parts, unkept
from pipeline_mlir.frontend.kernel_ir import describe, is_pure
from pipeline_mlir.target.gfx950 import LDS_DMA_BYTES, WAVE_SIZE

#: the bytes per lane a copy moves as two copies of ``LDS_DMA_BYTES[0]``
SPLIT_BYTES = 2 * LDS_DMA_BYTES[0]
#: the direct-to-LDS copy the front end makes of a register copy
GATHER = "amdgpu.gather_to_lds"
#: ops that pass their operand on, hints about the kernel's lanes (dropped for another lane)
HINTS = ("iree_codegen.index_hint", "util.assume.int")
#: ops whose result is the same in every lane of a wave (the other lane's value is theirs)
UNIFORM = ("rocdl.readfirstlane",)


def split_copy(a, flat, base, block, where, odd, parts: int = 2) -> list:
    """The ``parts`` ``amdgpu.gather_to_lds`` of 4 bytes per lane that replace the copy
    ``a`` of ``4 x parts`` bytes per lane (an ``Access`` of
    :mod:`~pipeline_mlir.frontend.scan`) writing ``flat`` from element ``base`` of its wave
    (module docstring; two for 8 bytes, four for a 16-byte run cut at C's edge,
    :mod:`~pipeline_mlir.frontend.cut_runs`), created before ``where``: a list of (op, LDS
    base, global memref, global indices).  ``odd`` is ``lane % parts`` times the elements
    of a part, an index value defined before the loop (:func:`lane_odd`)."""
    if block[0] % WAVE_SIZE:
        raise IRError(a.op, f"{describe(a.op)} copies {LDS_DMA_BYTES[0] * parts} bytes per "
                            f"lane in a workgroup of {block[0]} threads along x; the front end "
                            f"makes it {_count(parts)} {LDS_DMA_BYTES[0]}-byte copies within "
                            f"each wave, which needs a multiple of {WAVE_SIZE} threads along x")
    half = a.elements // parts
    et = ir.MemRefType(flat.type).element_type
    t = ir.IndexType.get()
    cut = _cut_parts(a) if CUT in a.op.attributes else None
    out = []
    for h in range(parts):
        remap = _Remap(a.op, h, parts)
        if cut is None:
            src = remap.get(a.src)
            idx = [remap.get(i) for i in a.src_indices]
        else:
            src, idx = cut[0], [remap.get(i) for i in cut[1]]
        with ir.InsertionPoint(where), a.op.location:
            if cut is None:
                idx[-1] = _plus_odd(a.op, idx, odd)
            else:
                idx = _cut_piece(idx, remap.get(cut[2]), odd, cut[3])
            lds = B.arith.addi(base, B.arith.constant(t, ir.IntegerAttr.get(
                t, h * WAVE_SIZE * half)))
            attrs = {"transferType": ir.TypeAttr.get(ir.VectorType.get([half], et)),
                     "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, len(idx), 1, 1])}
            op = ir.Operation.create(GATHER, operands=[src] + idx + [flat, lds],
                                     attributes=attrs, loc=written_as(a.op, GATHER))
        out.append((op, lds, src, idx))
    return out


def _cut_parts(a) -> tuple:
    """(the fat buffer, the kernel lane's index per dimension of it, its mask size ``s``,
    the rows ``delta`` past the end) of copy ``a`` whose run C's edge cuts inside
    (:data:`~pipeline_mlir.frontend.cut_runs.CUT`), the indices built before its read."""
    s = cut_mask_size(a.op)
    with ir.InsertionPoint(a.op), a.op.location:
        root, idx = buffer_indices(a.src, list(a.src_indices))
    return root, idx, s, ir.IntegerAttr(a.op.attributes[CUT]).value


def _cut_piece(idx: list, s, odd, delta: int) -> list:
    """The indices of the piece ``odd`` elements into a run at ``idx`` masked to its first
    ``s``: kept where ``s > odd`` (:mod:`~pipeline_mlir.frontend.kept_masks`' form,
    ``select(c, i0, delta)`` then ``select(c, i_d, 0)``), past the end otherwise."""
    t = ir.IndexType.get()
    A = B.arith
    idx = idx[:-1] + [A.addi(idx[-1], odd)]
    c = A.cmpi(A.CmpIPredicate.sgt, s, odd)
    return [A.select(c, i, A.constant(t, ir.IntegerAttr.get(t, delta if d == 0 else 0)))
            for d, i in enumerate(idx)]


def _plus_odd(copy, idx: list, odd):
    """The last index ``idx[-1] + odd``; of a copy that keeps a mask
    (:data:`~pipeline_mlir.frontend.kept_masks.KEPT`), inside its select: ``select(c,
    i + odd, k)``, so a lane whose condition is false still reads its fixed element past the
    end (and :func:`~pipeline_mlir.frontend.kept_masks.unkept` reads the indices back)."""
    if KEPT not in copy.attributes:
        return B.arith.addi(idx[-1], odd)
    parts = unkept(idx)
    if parts is None:
        raise IRError(copy, f"{describe(copy)} keeps a mask in its address, which the front "
                            f"end splits into two {LDS_DMA_BYTES[0]}-byte copies only with "
                            f"each index the select it built")
    sel = _op(idx[-1].owner)
    return B.arith.select(sel.operands[0], B.arith.addi(parts[-1], odd), sel.operands[2])


def lane_odd(where, half: int, parts: int = 2):
    """``(thread id x % parts) * half`` as an index value, created before ``where`` (a
    wave's lanes are 64 consecutive x ids, so that is the lane's)."""
    t = ir.IndexType.get()
    with ir.InsertionPoint(where), where.location:
        x = B.gpu.thread_id(B.gpu.Dimension.x)
        two = B.arith.constant(t, ir.IntegerAttr.get(t, parts))
        return B.arith.muli(B.arith.remui(x, two),
                            B.arith.constant(t, ir.IntegerAttr.get(t, half)))


def check_split(ev, a, halves: list) -> None:
    """Each lane ``l`` of copy ``h`` of ``p`` reads, at the loop variable's binding, the
    run lane ``(64 / p) h + l // p`` of its wave read in the kernel's copy ``a``, ``l % p``
    parts on; of a run cut at C's edge (:data:`~pipeline_mlir.frontend.cut_runs.CUT`), that
    element where it keeps the piece, and keeps it exactly where the kernel's mask size
    for that lane exceeds the piece's offset; of a copy that keeps a mask in its address
    (:data:`~pipeline_mlir.frontend.kept_masks.KEPT`), the run where the kernel's lane
    keeps its run and the fixed element past the end that lane reads where it does not,
    kept exactly where that lane's is (:func:`_kept_piece`)."""
    parts = len(halves)
    half = a.elements // parts
    want = ev.view(a.src).element([ev.value(i) for i in a.src_indices])
    tid = np.arange(want.shape[0])
    lane = tid % WAVE_SIZE
    cut = CUT in a.op.attributes
    if cut:
        sizes = ev.value(cut_mask_size(a.op))
    kept = None if cut or KEPT not in a.op.attributes else kept_parts(a.src_indices[0])
    if kept is not None:
        kept_lane = ev.value(kept[1]).astype(bool)
    for h, (op, _, src, idx) in enumerate(halves):
        other_lane = tid - lane + WAVE_SIZE // parts * h + lane // parts
        offset = (lane % parts) * half
        if cut:
            keep = ev.value(_op(idx[0].owner).operands[0]).astype(bool)
            if not np.array_equal(keep, sizes[other_lane] > offset):
                t = int(np.flatnonzero(keep != (sizes[other_lane] > offset))[0])
                raise IRError(a.op, f"{describe(a.op)}: copied in {parts} pieces, thread {t} "
                                    f"of copy {h} {'keeps' if keep[t] else 'drops'} its piece "
                                    f"of {half} element{'s' if half != 1 else ''} at {int(offset[t])}, where the "
                                    f"kernel's mask keeps {int(sizes[other_lane][t])}")
            idx = unkept(idx)
        got = ev.view(src).element([ev.value(i) for i in idx])
        other = want[other_lane] + offset
        if kept is not None:
            other = _kept_piece(ev, a, (h, parts), idx, kept_lane[other_lane],
                                (other, want[other_lane]))
        if not np.array_equal(got, other):
            t = int(np.flatnonzero(got != other)[0])
            raise IRError(a.op, f"{describe(a.op)}: split into {_count(parts)} "
                                f"{LDS_DMA_BYTES[0]}-byte "
                                f"copies, thread {t} of copy {h} reads element {int(got[t])}, "
                                f"not {int(other[t])}: its address is not the kernel's for "
                                f"the lane whose bytes it moves")


def _kept_piece(ev, a, piece: tuple, idx: list, kernel_keeps, elements: tuple):
    """The element each lane of piece ``h`` of ``count`` (``piece``) of kept copy ``a`` (at
    indices ``idx``) must read, of ``elements`` (the kernel's lane's element that far on,
    the kernel's lane's own): the first where the kernel's lane keeps its run
    (``kernel_keeps``), else the second, the fixed element past the end that lane reads
    (the piece's select gives it unshifted: :func:`_plus_odd`).  The piece must keep its
    run exactly where that lane does, else an error at the copy."""
    h, count = piece
    parts = kept_parts(idx[0])
    keeps = None if parts is None else ev.value(parts[1]).astype(bool)
    if keeps is None or not np.array_equal(keeps, kernel_keeps):
        t = 0 if keeps is None else int(np.flatnonzero(keeps != kernel_keeps)[0])
        said = "keeps no mask" if keeps is None else \
            ("keeps" if keeps[t] else "drops") + " its run"
        raise IRError(a.op, f"{describe(a.op)}: split into {_count(count)} "
                            f"{LDS_DMA_BYTES[0]}-byte copies, thread {t} of copy {h} {said} "
                            f"where the kernel's lane whose bytes it moves "
                            f"{'keeps' if kernel_keeps[t] else 'drops'} its run")
    return np.where(keeps, *elements)


def _count(parts: int) -> str:
    return {2: "two", 4: "four"}.get(parts, str(parts))


class _Remap:
    """Values of the kernel's index computation recomputed for lane ``(64 / p) h + l // p``
    of each wave (module docstring; ``p`` parts), cloned on demand."""

    def __init__(self, copy, h: int, parts: int = 2) -> None:
        self.copy, self.h, self.parts, self.map = copy, h, parts, {}

    def get(self, v):
        if v in self.map:
            return self.map[v]
        self.map[v] = v if isinstance(v.owner, ir.Block) else self._op_value(v, _op(v.owner))
        return self.map[v]

    def _op_value(self, v, o):
        if o.name in THREAD_ID_OPS:
            return self._thread(v, o)
        if o.name in UNIFORM:
            return v                         # (the same in every lane of the wave)
        ins = [self.get(x) for x in o.operands]
        if all(a == b for a, b in zip(ins, o.operands)):
            return v
        if o.name in HINTS:
            return ins[list(o.results).index(v)]
        if not is_pure(o):
            raise IRError(self.copy, f"{describe(self.copy)}: its address is computed by "
                                     f"{describe(o)}, which reads a thread id and has side "
                                     f"effects (or regions); the front end recomputes an "
                                     f"8-byte copy's address for another lane by cloning it")
        new = o.clone(ip=ir.InsertionPoint(o))
        set_new_operands(new, ins)          # (a clone: no cache told, ir_changes.py)
        for old, r in zip(o.results, new.results):
            self.map[old] = r
        return self.map[v]

    def _thread(self, v, o):
        dim = str(o.attributes["dimension"]) if "dimension" in o.attributes else ""
        if o.name == "gpu.subgroup_id" or (o.name == "gpu.thread_id" and not dim.endswith("x>")):
            return v                         # the same wave, the same y and z
        if o.name not in ("gpu.thread_id", "gpu.lane_id"):
            raise IRError(self.copy, f"{describe(self.copy)}: its address reads {describe(o)}; "
                                     f"the front end recomputes an 8-byte copy's address for "
                                     f"another lane from gpu.thread_id and gpu.lane_id only")
        t = ir.IndexType.get()
        A = B.arith

        def c(k: int):
            return A.constant(t, ir.IntegerAttr.get(t, k))
        with ir.InsertionPoint.after(o), o.location:
            lane = A.remui(v, c(WAVE_SIZE)) if o.name == "gpu.thread_id" else v
            other = A.addi(A.divui(lane, c(self.parts)),
                           c(WAVE_SIZE // self.parts * self.h))
            if o.name == "gpu.thread_id":
                other = A.addi(A.muli(A.divui(v, c(WAVE_SIZE)), c(WAVE_SIZE)), other)
        return other
