"""The front end's own copy distribution, for loops whose copies do not split into subtiles.

The schedules keep one LDS buffer per (operand, stage, subtile) and issue each subtile's
copies on their own; :func:`~pipeline_mlir.kernel.loop_model.partition` takes the
kernel's copies as they are when every fragment read of a subtile needs only copies of
that subtile.  IREE distributes its copies for its own loop, not for the schedule's
subtiles: a small or skinny problem (64x128 tile, K step 128) gives each wave a block
of rows across the whole K step, so every fragment read needs the data of several
copies that the other subtile's reads need too.  There the front end distributes the
copies itself (:func:`redistribute`):

* the reads alone are split into the two subtiles (one accumulator's reads on one side,
  equal ``ds_read`` counts), and an element bit of the LDS buffer must tell the two
  subtiles' data apart (each subtile is stored densely, that bit deleted: the layout of
  the kernel, its swizzle included, is kept); among the splits and bits that do, the one
  the LDS bank model (:mod:`pipeline_mlir.sim.lds_banks`) prices cheapest for the
  reads is taken (IREE's swizzled tiles: conflict-free);
* the global element each LDS element holds is read off the kernel's copies (at the
  loop's first K step), and must be a strided block: ``sum(((x // m) % r) * s)`` of the
  element's unswizzled index ``x`` plus a base that only the workgroup and the K step
  move (checked at two K steps and two workgroup ids);
* each subtile gets its own copies, as many as its elements need at the kernel's width
  per lane: lane ``t`` of copy ``j`` writes the dense subtile buffer at ``(j * threads +
  t) * width`` and reads the global elements that LDS element holds, an address computed
  from the thread id (:func:`source_offset`, the same program checked here in numpy and
  emitted as index arithmetic by :func:`emit_copies`) plus the source address of one of
  the kernel's copies at thread 0, its thread ids replaced by 0 (:class:`Cloner`).

Where no split by accumulator exists (a tile one fragment wide per wave), an operand's
subtiles are its K halves instead (:mod:`pipeline_mlir.frontend.k_subtiles`: the bit is
one of the unswizzled index, ``ChannelPlan.logical``).

A buffer given padding rows for a copy spread an element a thread
(:mod:`~pipeline_mlir.frontend.partial_elements`) has them left out of the plan where they
are element bits no read sets (:mod:`~pipeline_mlir.frontend.unread_bits`,
``ChannelPlan.unread``, deleted as the K sub-step's bits are); every plan's copies must
write every element its subtile's reads read (``check_covered``).

A channel whose copies keep a mask of C's edge in their address
(:mod:`~pipeline_mlir.frontend.kept_masks`) gets copies whose lanes each test their own
run against the buffer, proven the kernel's mask in every workgroup and iteration
(:mod:`~pipeline_mlir.frontend.kept_layout`), in place of the sampled comparison of
:func:`~pipeline_mlir.frontend.edges.check_copy_reads`.

The fragment reads keep their addresses (compacted as every subtile buffer is).
Anything that does not fit is a :class:`~pipeline_mlir.kernel.loop_model.LoopRefusal`
saying what; :func:`~pipeline_mlir.frontend.partition.partition_loop` adds it to the
kernel's own refusal.

Size: one concern, a channel's plan: the plan, its checks against the kernel's copies and
the program its copies run (checked here in numpy, emitted as index arithmetic) share
``ChannelPlan`` and :func:`source_offset`, which the emitters must compute exactly as the
checks do.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_new_operands
from pipeline_mlir.analysis.ir_facts import LANE_STRIDE, THREAD_ID_OPS, attr_names, element_bytes
from pipeline_mlir.analysis.loop_eval import xor_shuffle
from pipeline_mlir.analysis.twos import zeros_of
from pipeline_mlir.frontend.copy_source import dim_indices
from pipeline_mlir.frontend.block_fit import check_runs
from pipeline_mlir.frontend.every_workgroup import check_reads
from pipeline_mlir.frontend.index_ops import IrOps, NumpyOps
from pipeline_mlir.frontend.extent import source_base, static_end
from pipeline_mlir.frontend.copy_widths import (no_whole_copies, channel_width, is_staged,
                                                odd_pieces, padded, run_limit, run_limited)
from pipeline_mlir.frontend.marks import DIAGONAL_ATTR, NARROW, ODD, STAGED
from pipeline_mlir.frontend.kept_layout import (keep_in_bounds, kept_copies,
                                               prove_kept)
from pipeline_mlir.frontend.kept_masks import unkept
from pipeline_mlir.frontend.launch_stride import (check_launch_strides, fat_buffer,
                                                  has_launch_strides, kernel_dims, launch_aligned,
                                                  launch_strided_base, view_stride_divisors)
from pipeline_mlir.frontend.dword_runs import (base_zeros, implied_base_zeros,
                                               regrouped_refusal, unaligned_refusal)
from pipeline_mlir.frontend.kernel_ir import describe, is_pure
from pipeline_mlir.frontend.kernel_layout import kernel_layout
from pipeline_mlir.frontend.k_subtiles import check_groups, held_of, k_split, telling_bits
from pipeline_mlir.frontend.read_banks import choose_swizzle as _choose_swizzle
from pipeline_mlir.frontend.read_banks import read_cost as _read_cost
from pipeline_mlir.frontend.unread_bits import (check_covered, check_unswizzled, deleted,
                                                left_out, unread_bits, unswizzled_reads)
from pipeline_mlir.kernel.int_arrays import distinct
from pipeline_mlir.target.gfx950 import WAVE_SIZE


@dataclass
class ChannelPlan:
    """The copies the front end makes for one channel (operand)."""

    channel: int
    buffer: int                 # the channel's LDS buffer (analysis buffer id)
    bit: int                    # element bit that tells the subtiles apart (deleted)
    width: int                  # elements per lane of every copy
    copies: int                 # copies per subtile
    threads: int
    swizzle: tuple | None       # the buffer's xor_shuffle (row, access), elements
    digits: tuple               # ((m, r, s), ...): global offset of unswizzled element x
    dims: tuple                 # strides of the global buffer's dimensions (row-major)
    ref_copy: int               # the kernel's copy whose thread-0 source is the base
    ref_x: int                  # the unswizzled LDS element of that copy's thread 0
    reswizzle: tuple | None = None   # XOR swizzle of the dense subtile buffers (row, access)
    bank: str = ""              # the reads' bank cost, worded
    kbits: tuple = ()           # element bits of the K sub-step, kept 0 (frontend/ksplit.py)
    logical: bool = False       # ``bit`` of the unswizzled index (frontend/k_subtiles.py)
    kept: object = None         # each lane's run tested against the buffer (kept_layout.py)
    direct: bool = False        # copies of a narrow kernel copy proven aligned: not staged
    pieces: tuple = ()          # ((offset, elements), ...) each lane's run is copied in, a
    #                             copy per piece, register-staged (copy_widths.odd_pieces)
    whole: bool = False         # one subtile, the whole buffer (``bit`` above its elements:
    #                             marks.HELD_ATTR)
    staged: bool = False        # copies narrower than any DMA, register-staged (a subtile
    #                             too small for DMA copies of every thread: staged_width)
    elements: int = 0           # the subtile's elements where its copies' last lanes copy
    #                             past them into a padding of its buffer (copy_widths.py's
    #                             padded_width); 0: copies * threads * width, no padding
    unread: tuple = ()          # element bits of padding rows no read reads, deleted as
    #                             ``kbits`` are (frontend/unread_bits.py)
    k_logical: bool = False     # ``kbits`` and ``bit`` of the unswizzled index: the buffer's
    #                             swizzle mixes the K sub-step's bits (frontend/ksplit.py)

    @property
    def unswizzled(self) -> bool:
        """Whether the bits inserted into a subtile's dense index are the unswizzled
        index's (``logical`` or ``k_logical``), the buffer's swizzle applied after."""
        return self.logical or self.k_logical

    @property
    def deleted(self) -> tuple:
        """The element bits deleted from the subtiles, ascending: ``kbits`` and ``unread``."""
        return tuple(sorted(self.kbits + self.unread))

    @property
    def padding(self) -> int:
        """Elements of the subtile buffer past the subtile's own, which only the copies'
        last lanes write (none read them): the buffer holds ``copies * threads * width``."""
        return self.copies * self.threads * self.width - self.elements if self.elements \
            else 0

    @property
    def subtiles(self) -> tuple:
        """The subtiles the plan copies: (0,) for a channel held whole, else (0, 1)."""
        return (0,) if self.whole else (0, 1)


@dataclass
class RedistributedPartition(LM.Partition):
    """A partition whose channels' copies the front end makes itself (``plans``, by
    channel); the kernel's copies of those channels are replaced."""

    plans: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# the address program, once for numpy and once for the IR
# ---------------------------------------------------------------------------------------------

def source_offset(o, plan: ChannelPlan, tid, subtile: int, j: int) -> list:
    """The offset, per dimension of the global buffer, from the base (the reference copy's
    thread-0 source) of the first element thread ``tid`` copies in copy ``j`` of
    ``subtile``; ``o`` is :class:`NumpyOps` or :class:`IrOps`."""
    q = o.add(o.mul(tid, plan.width), j * plan.threads * plan.width)
    if plan.reswizzle is not None:
        q = xor_shuffle_ir(o, q, *plan.reswizzle)
    p = o.add(o.add(o.mul(o.div(q, 1 << plan.bit), 1 << (plan.bit + 1)),
                    subtile << plan.bit), o.rem(q, 1 << plan.bit))
    for kb in plan.deleted:     # ascending: the K sub-step's bits, 0 (the first sub-step)
        p = o.add(o.mul(o.div(p, 1 << kb), 1 << (kb + 1)), o.rem(p, 1 << kb))
    x = p if plan.swizzle is None or plan.unswizzled else xor_shuffle_ir(o, p, *plan.swizzle)
    ref = _dim_terms(NumpyOps, plan, plan.ref_x)
    return [o.add(t, -r) for t, r in zip(_dim_terms(o, plan, x), ref)]


def xor_shuffle_ir(o, p, row: int, access: int):
    """``xor_shuffle`` (an involution) in the program's operations."""
    r = o.div(p, row)
    chunk = o.xor(o.div(o.rem(p, row), access), o.rem(r, row // access))
    return o.add(o.add(o.mul(r, row), o.mul(chunk, access)), o.rem(p, access))


def _dim_terms(o, plan: ChannelPlan, x) -> list:
    """The global offset of unswizzled element ``x`` per dimension: each digit's stride
    goes to the outermost dimension whose stride divides it."""
    out = [0] * len(plan.dims)
    for m, r, s in plan.digits:
        d = next(k for k, st in enumerate(plan.dims) if s % st == 0)
        out[d] = o.add(out[d], o.mul(o.rem(o.div(x, m), r), s // plan.dims[d]))
    return out


# ---------------------------------------------------------------------------------------------
# the plan
# ---------------------------------------------------------------------------------------------

def redistribute(an, names, kbits: dict | None = None, copy_channel: list | None = None,
                 proofs: list | None = None,
                 unswizzled: dict | None = None) -> RedistributedPartition:
    """The partition of ``an`` (an ``Analysis``) with every channel's copies made by the
    front end (module docstring); a :class:`LoopRefusal` if that is not possible.
    ``kbits`` ({buffer: ascending element bits}, :mod:`~pipeline_mlir.frontend.ksplit`):
    only the elements with those bits 0 (the first K sub-step) are copied, the reads'
    elements given with those bits deleted; ``copy_channel`` then gives each copy's
    channel as the loop's reads of every sub-step tell it (a copy of a later sub-step
    alone, as IREE's copies of a ``K x N`` B are, has no reader among the kept ones).
    ``proofs``: a list to leave the whole-grid proofs in, in the order they would run (each
    a callable of the partition's ``plans``, which a kept channel's completes:
    :func:`~pipeline_mlir.frontend.partition.settle_proofs`), or None to run them here.
    ``unswizzled`` ({buffer: its ``xor_shuffle``}): the buffers whose ``kbits`` are of the
    unswizzled index (the swizzle mixes them): their reads' elements unswizzled before the
    bits are deleted, the plan's subtiles laid out by that index (``ChannelPlan.k_logical``)."""
    kbits, unswizzled = kbits or {}, unswizzled or {}
    diagonal = DIAGONAL_ATTR in an.scan.loop.attributes
    held = held_of(an.scan.loop)       # (the operand held whole: whole=a / whole=b)
    full = {b: int(np.prod(ir.MemRefType(v.type).shape)) for b, v in enumerate(an.buffers)}
    if copy_channel is None:
        deps = LM.read_dependencies(an.copies, an.reads, full, names)
        read_channel, copy_channel = LM.channels(an.copies, an.reads, an.mfmas, deps, names)
    else:
        read_channel = LM.read_channels(an.reads, an.mfmas, names)
    sizes = {b: n >> len(kbits.get(b, ())) for b, n in full.items()}
    kernel, logical = an, unswizzled_reads(an, unswizzled)
    unread = {b: unread_bits(logical, b, kbits.get(b, ())) for b in full}
    an = deleted(logical, kbits)     # (the plan sees the reads with kbits deleted)
    read_sub = [0] * len(an.reads)
    plans, lgkm, vm = {}, [0, 0], [0, 0]
    for ch in (0, 1):     # B split along K after A: crosswise (frontend/k_subtiles.py)
        # (a loop marked DIAGONAL_ATTR: B's K halves A's, frontend/k_subtiles.py)
        cross = ch == 1 and plans[0].logical and not diagonal
        plan, subs = left_out(lambda gone: _plan_channel(
            deleted(logical, kbits, gone), ch, read_channel, copy_channel, sizes, names, kbits,
            crosswise=cross, proofs=proofs, whole=held == "AB"[ch], unread=gone,
            unswizzled=unswizzled),
            an, ch, copy_channel, unread, proofs)
        check_covered(plan, [(kernel.reads[r].lds, s) for r, s in subs.items()],
                      _plan_elements(plan), an.copies[plan.ref_copy].op)
        for r, s in subs.items():
            read_sub[r] = s
        plans[ch] = plan
        vm[ch] = plan.copies * len(plan_pieces(plan))
        lgkm[ch] = sum(an.reads[r].instructions for r, s in subs.items() if s == 0)
    groups = []
    for m in an.mfmas:
        groups.append(({read_sub[r] for r in m.a_reads}.pop(),
                       {read_sub[r] for r in m.b_reads}.pop()))
    check_groups(groups, an, diagonal, held)
    return RedistributedPartition(copy_channel, [0] * len(an.copies), read_channel, read_sub,
                                  groups, (vm[0], vm[1]), (lgkm[0], lgkm[1]), plans)


def _plan_channel(an, ch: int, read_channel: list, copy_channel: list, sizes: dict,
                  names, kbits: dict | None = None, crosswise: bool = False,
                  proofs: list | None = None, whole: bool = False,
                  unread: dict | None = None,
                  unswizzled: dict | None = None) -> tuple[ChannelPlan, dict]:
    """The plan of channel ``ch`` and the subtile of each of its reads (``sizes``: the
    buffers' elements with their ``kbits`` deleted; ``crosswise``: A is split along K;
    ``proofs``: where the whole-grid proofs are left, :func:`redistribute`; ``whole``: the
    channel the loop's :data:`~pipeline_mlir.frontend.marks.HELD_ATTR` names, held
    whole, one subtile of all its elements; ``unread``: {buffer: bits}, left out too)."""
    label = "AB"[ch]
    copies = [i for i, c in enumerate(copy_channel) if c == ch]
    reads = [i for i, c in enumerate(read_channel) if c == ch]
    bufs = {an.copies[i].buffer for i in copies} | {an.reads[i].buffer for i in reads}
    if len(bufs) != 1:
        raise LM.LoopRefusal(f"channel {label}'s data is in {len(bufs)} LDS buffers; the "
                             f"front end distributes the copies of one buffer per operand",
                             (an.copies[copies[0]].op,))
    b = bufs.pop()
    kbits, gone = (kbits or {}).get(b, ()), (unread or {}).get(b, ())
    size, view = sizes[b] >> len(gone), an.buffer_views[b]
    full = sizes[b] << len(kbits)     # the kernel's buffer
    threads = an.scan.threads
    # (a channel that may be held whole: its copies' width once its split is known)
    width = None if whole else channel_width(an, copies, size // 2, view.elem_bytes, label)
    _global_table(an, copies, full, label)
    kept = kept_copies(an, copies)
    chan, ev, (raw, base0, table), zero, (swizzle, digits) = kernel_layout(
        an, copies, b, full, label, bool(kept))
    check_unswizzled(gone, swizzle, label, an.copies[copies[0]].op)
    k_logical = _k_logical(unswizzled or {}, b, swizzle, label, an.copies[copies[0]].op)
    logical = np.arange(full, dtype=np.int64)
    logical = logical if swizzle is None else xor_shuffle(logical, *swizzle)
    _check_moves(an, copies, label)
    k0 = copies[0]
    base = _base(an.scan.copies[k0].src)
    if base is None:
        raise LM.LoopRefusal(f"channel {label}'s copies read a view of a global buffer that "
                             f"is not contiguous, row-major and at offset 0 with strides "
                             f"known at compile time (a size known only at launch in its "
                             f"first dimension at most) or proven by launch_stride.py",
                             (an.copies[k0].op,))
    dims = tuple(an.evaluator.view(base).strides)   # a stride known at launch: the sample's
    # (a kept channel's copies are compared in every workgroup instead: kept_layout.py)
    reads_proof = functools.partial(check_reads, an, copies, None if kept else chan._replace(
        table=table, base0=base0, elements=static_end(ev, base)), ev)
    _now_or_later(proofs, lambda plans: reads_proof())
    x0 = int(logical[an.copies[k0].lds[0, 0]])
    subs, bit, seen, split_k, held = _split(an, ch, reads, read_channel, size, view, swizzle,
                                            kbits, crosswise, whole)
    half = size if held else size // 2
    width = width or channel_width(an, copies, half, view.elem_bytes, label, held)
    width, widened = run_limited(an, copies, width, bit, run_limit(bit, kbits + gone),
                                 half, view.elem_bytes, label)
    pad = _padding(an, copies, label, half, width, base, held)
    reswizzle, bank = (None, "") if pad else \
        _choose_swizzle(seen, reads, bit, half, width, view.elem_bytes)
    plan = ChannelPlan(ch, b, bit, width, -(-half // (threads * width)), threads,
                       swizzle, digits, dims, k0, x0, reswizzle, bank, kbits,
                       split_k, whole=held, staged=is_staged(width, view.elem_bytes),
                       elements=half if pad else 0, unread=gone, k_logical=k_logical)
    _check_plan(an, plan, table, base0, zero)
    if has_launch_strides(base):
        _check_launch_plan(an, plan, copies, base, full, label)
    plan = _cut_plan(an, plan, copies, kept, (raw, table), base, zero, view.elem_bytes, widened)
    if kept:
        plan = _kept_or_deferred(an, ch, plan, (copies, kept, base, full, label), proofs)
    return plan, subs


def _k_logical(unswizzled: dict, b: int, swizzle, label: str, op: int) -> bool:
    """Whether buffer ``b``'s K sub-step bits are of its unswizzled index (``unswizzled``,
    :func:`redistribute`); a refusal where the swizzle its copies apply is another."""
    if b not in unswizzled:
        return False
    if swizzle != unswizzled[b]:
        raise LM.LoopRefusal(f"channel {label}'s copies apply the swizzle {swizzle}, not the "
                             f"{unswizzled[b]} its K sub-step was found under", (op,))
    return True


def _padding(an, copies: list, label: str, half: int, width: int, base, held: bool) -> bool:
    """Whether the channel's copies of ``width`` elements a lane cover its subtiles of
    ``half`` elements only with a padding (copy_widths.py's ``padded_width``; then left
    unswizzled: the padding's lanes are past the subtile's rows); a refusal where its
    copies read a buffer of strides known at launch or the operand is held whole."""
    pad = padded(half, an.scan.threads, width)
    if pad and (has_launch_strides(base) or held):
        view = an.buffer_views[an.copies[copies[0]].buffer]
        raise no_whole_copies(an, copies, label, half, [view.elem_bytes], whole=held,
                              why="" if held else "its copies read a buffer of strides "
                                                  "known at launch, and ")
    return pad


def _kept_or_deferred(an, ch, plan: ChannelPlan, args: tuple, proofs: list | None):
    """``plan`` of channel ``ch`` proven its kept mask (:func:`_kept_plan` of ``args``), or,
    with ``proofs``, the proof left there to set it once the partition's structure holds;
    a plan that leaves padding rows out (``plan.unread``) proven now, so that a refusal
    there falls back to the plan that copies them (unread_bits.py's ``left_out``)."""
    copies, kept, _base, _full, label = args
    kept_proof = functools.partial(_kept_plan, an, plan, *args)
    if proofs is None or plan.unread:
        return kept_proof()
    proofs.append(lambda plans: plans.__setitem__(ch, kept_proof()))
    return plan     # (its kept lanes and direct copies: set once proven)


def _cut_plan(an, plan: ChannelPlan, copies: list, kept: list, tables: tuple, base,
              zero, elem_bytes: int, widened: bool) -> ChannelPlan:
    """``plan`` with its runs copied in pieces whose ends are the cuts (copy_widths.py's
    :func:`odd_pieces`), each proven the kernel's mask later as a run is: for a run cut at
    an odd size (cut_runs.py's :data:`ODD`), at the sizes C's edge cuts its runs at; for a
    kept channel (``kept``) whose kernel copies keep the first elements of some run of the
    plan's and pad the rest (a narrow copy of an element per lane under a row of an odd
    size: f16 ``A x B`` 100x17x520's B, its 2-element runs cut at 1), at those sizes
    (``tables``: the kernel's table of workgroup 0's first K step as read and as filled),
    and where the plan's runs are wider than the kernel's copies (``widened``: copy_widths.py's
    ``channel_width`` widened them, 4-byte pieces of runs cut by C's edge being too many for
    ``vmcnt``), at the sizes C's edge cuts them at too.  Else ``plan`` as it is."""
    if plan.width == 1:
        return plan
    if any(ODD in an.ops[an.copies[i].op].attributes for i in copies):
        cuts = _cuts(plan, tables[1], base)
    elif kept and zero is not None:
        cuts = _kept_cuts(plan, tables[0], zero[0])
        if widened:
            cuts |= _cuts(plan, tables[1], base)
    else:
        cuts = set()
    return replace(plan, pieces=odd_pieces(plan.width, cuts, elem_bytes)) if cuts else plan


def _kept_cuts(plan: ChannelPlan, raw: np.ndarray, end: int) -> set:
    """The sizes ``c`` (``0 < c < width``) at which a run of ``plan``'s copies holds ``c``
    elements the kernel's copies read inside the buffer (``raw``: their global element per
    LDS element, -1 where none writes; ``end``: the first element past the buffer) and then
    only elements they pad (read past the end, or not written)."""
    cuts = set()
    lanes = np.arange(plan.width)
    for p, _, _, _ in _plan_elements(plan):
        inside = (raw[p] >= 0) & (raw[p] < end)
        c = inside.sum(axis=1)
        prefix = (inside == (lanes[None, :] < c[:, None])).all(axis=1)
        cuts |= {int(k) for k in distinct(c[prefix & (c > 0) & (c < plan.width)])}
    return cuts


def _cuts(plan: ChannelPlan, table: np.ndarray, base) -> set:
    """The sizes C's edge cuts ``plan``'s runs at, if its tiles move by whole runs: the
    elements of each run inside its row at the first K step of workgroup 0 (``table``),
    modulo the run (the last workgroup along the row holds the edge)."""
    n = ir.MemRefType(base.type).shape[-1]
    starts = np.concatenate([table[p[:, 0]] for p, _, _, _ in _plan_elements(plan)])
    return {int(c) for c in np.unique((n - starts[starts >= 0] % n) % plan.width)}


def _kept_plan(an, plan: ChannelPlan, copies: list, kept: list, base, full: int,
               label: str) -> ChannelPlan:
    """``plan`` of a channel whose copies keep a mask in their address
    (frontend/kept_masks.py; ``kept``: those of ``copies`` that keep one,
    :func:`~pipeline_mlir.frontend.kept_layout.kept_copies`) with the test each lane of its
    copies makes of its run, proven the kernel's mask
    (:func:`~pipeline_mlir.frontend.kept_layout.prove_kept`)."""
    if plan.kbits:
        raise LM.LoopRefusal(f"channel {label}'s copies keep a mask that moves with the "
                             f"workgroup in their address (frontend/kept_masks.py), proven "
                             f"for the front end's own copies of whole K steps only, not of "
                             f"K sub-steps", (an.copies[kept[0]].op,))
    lanes = list(_piece_lanes(plan))
    # a narrow kernel copy (regcopy.py) is register-staged; the front end's own copies of
    # it are direct-to-LDS copies where every run they read inside the buffer, in every
    # workgroup and K step, is aligned to its size (proven with the kept mask)
    narrow = NARROW in an.ops[an.copies[plan.ref_copy].op].attributes
    aligned = [narrow]
    skip = np.arange(full) & sum(1 << b for b in plan.unread) != 0 if plan.unread else None
    proven = prove_kept(an, copies, kept, base, plan.width, lanes, plan.ref_copy, full, label,
                        aligned if narrow else None, skip)    # (padding rows: not compared)
    size = plan.width * an.buffer_views[plan.buffer].elem_bytes
    # (the runs aligned from the buffer's start, which must be stated aligned: finding 95)
    return replace(plan, kept=proven, direct=aligned[0] and launch_aligned(base, size) and
                   base_zeros(base) >= zeros_of(size) and
                   not plan.pieces and not plan.staged)  # (pieces, narrow copies: staged)


def plan_pieces(plan: ChannelPlan) -> tuple:
    """The pieces ``((offset, elements), ...)`` each lane's run of ``plan``'s copies is
    copied in: its ``pieces``, else the whole run."""
    return plan.pieces or ((0, plan.width),)


def _piece_lanes(plan: ChannelPlan):
    """(the kernel buffer's elements (threads, elements), per-dimension offsets from the
    reference copy's thread-0 index) of every piece of every copy of ``plan``: a piece at
    ``offset`` of each lane's run reads that many elements further along the contiguous
    dimension."""
    for p, tid, sub, j in _plan_elements(plan):
        offs = source_offset(NumpyOps, plan, tid, sub, j)
        for o, z in plan_pieces(plan):
            yield p[:, o:o + z], offs[:-1] + [NumpyOps.add(offs[-1], o)]


def _base(src):
    """The buffer the front end's copies of a copy reading ``src`` index: of static
    strides (:func:`~pipeline_mlir.frontend.extent.source_base`) or of strides known at
    launch (:func:`~pipeline_mlir.frontend.launch_stride.launch_strided_base`)."""
    return source_base(src) or launch_strided_base(src)


def _now_or_later(proofs: list | None, proof) -> None:
    """Run ``proof`` (of the channels' plans, by channel) now, or leave it in ``proofs``
    (:func:`redistribute`'s deferred whole-grid proofs).  One use, kept as a function: the
    reads proof of :func:`_plan_channel` is one line there, which holds that function at
    the size limit (test_sizes.py: folded in, it is 83 lines); the kept proof beside it
    sets the plan when it runs now, and appends directly."""
    if proofs is None:
        proof(None)
    else:
        proofs.append(proof)


def _check_launch_plan(an, plan: ChannelPlan, copies: list, base, full: int,
                       label: str) -> None:
    """The plan's copies of a buffer of strides known at launch read, per dimension, what
    the kernel's copies read, aligned at every stride
    (:func:`~pipeline_mlir.frontend.launch_stride.check_launch_strides`)."""
    want = kernel_dims(an, copies, base, full, label)
    g0 = [int(w[an.copies[plan.ref_copy].lds[0, 0]]) for w in want]
    got = [np.full(full, -1, dtype=np.int64) for _ in want]
    lanes = np.arange(plan.width, dtype=np.int64)
    for p, tid, sub, j in _plan_elements(plan):
        for d, t in enumerate(source_offset(NumpyOps, plan, tid, sub, j)):
            inner = lanes[None, :] if d == len(want) - 1 else 0
            # (a dimension the copies do not move along, a batch's, is one number)
            at = np.broadcast_to(np.asarray(g0[d] + t, dtype=np.int64), p.shape[:1])
            got[d][p] = np.broadcast_to(at[:, None] + inner, p.shape)
    ref = an.copies[plan.ref_copy].op
    check_launch_strides(base, want, got, plan.width * an.buffer_views[plan.buffer].elem_bytes,
                         an.buffer_views[plan.buffer].elem_bytes, label, (ref,),
                         staged=STAGED in an.ops[ref].attributes)


def _global_table(an, copies: list, size: int, label: str) -> np.ndarray:
    """The global element (at the loop's first K step) each LDS element holds."""
    table = np.full(size, -1, dtype=np.int64)
    sources = {an.copies[i].source for i in copies}
    if len(sources) != 1:
        raise LM.LoopRefusal(f"channel {label}'s copies read {len(sources)} global buffers",
                             (an.copies[copies[0]].op,))
    for i in copies:
        c = an.copies[i]
        table[c.lds.ravel()] = c.src0.ravel()
    if np.any(table < 0):
        raise LM.LoopRefusal(f"channel {label}'s copies do not fill its LDS buffer "
                             f"({int(np.sum(table < 0))} elements stay unwritten)",
                             (an.copies[copies[0]].op,))
    return table


def _check_moves(an, copies: list, label: str) -> None:
    """The channel's global elements move as one block from one K step to the next (one
    constant; from one workgroup to another: :func:`~pipeline_mlir.frontend.edges.check_copy_reads`)."""
    first = an.copies[copies[0]]
    moves = {int(x) for i in copies for x in distinct(an.copies[i].src1 - an.copies[i].src0)}
    if len(moves) != 1:
        raise LM.LoopRefusal(f"channel {label}'s copies move by different amounts from one K "
                             f"step to the next ({sorted(moves)[:4]} elements)", (first.op,))


def _split(an, ch: int, reads: list, read_channel: list, size: int, view, swizzle,
           kbits: tuple, crosswise: bool, whole) -> tuple:
    """(the subtile of each of the channel's reads, the element bit that tells the
    subtiles apart, the analysis the bank model prices the reads in, whether the split is
    along K, whether the channel is held whole): held whole (:func:`_held`) for the operand
    the loop holds ``whole``; else by accumulator (:func:`_choose_split`), else (one
    fragment per wave, no K sub-step) along K
    (:func:`~pipeline_mlir.frontend.k_subtiles.k_split`)."""
    if whole:
        return _held(reads, size, an)
    try:
        subs, bit = _choose_split(an, ch, reads, read_channel, size, view, "AB"[ch])
        return subs, bit, an, False, False
    except LM.LoopRefusal as e:      # one fragment per wave: split along K, if no K sub-step
        if kbits:
            raise
        subs, bit, seen = k_split(an, ch, reads, size, swizzle, e, crosswise)
        return subs, bit, seen, True, False    # ChannelPlan.logical: along K


def _held(reads: list, size: int, an) -> tuple:
    """:func:`_split`'s answer for a channel held whole: every read in subtile 0, the bit the
    first above the buffer's ``size`` elements (deleting it changes none)."""
    return {r: 0 for r in reads}, max(size - 1, 1).bit_length(), an, False, True


def _choose_split(an, ch: int, reads: list, read_channel: list, size: int, view,
                  label: str) -> tuple[dict, int]:
    """The split of the channel's reads into subtiles and the element bit that tells the
    subtiles' data apart, the cheapest for the reads in the bank model."""
    best = None
    for subs in LM.read_splits(an.reads, an.mfmas, read_channel, ch):
        for b, set0 in telling_bits(an, reads, subs, size):
            # subtile 0's data has the bit set: number the subtiles the other way
            cand = {r: 1 - s for r, s in subs.items()} if set0 else subs
            cost = _read_cost(an, reads, b, view.elem_bytes)
            if best is None or cost[0] < best[0]:
                best = (cost[0], cand, b)
    if best is None:
        raise LM.LoopRefusal(f"channel {label}: no split of its fragment reads into two "
                             f"subtiles has data that one element bit tells apart",
                             (an.reads[reads[0]].op,))
    return best[1], best[2]


def _check_plan(an, plan: ChannelPlan, table: np.ndarray, base: int,
                zero: tuple | None = None) -> None:
    """The address program, run in numpy from ``base`` (the reference copy's thread-0
    element where ``table`` was taken), copies into every subtile element exactly the
    global elements the kernel's copies put there (``table``; a run past the end of a
    buffer that reads zero there, ``zero``, wholly past it: frontend/block_fit.py)."""
    lanes = np.arange(plan.width, dtype=np.int64)
    for p, tid, sub, j in _plan_elements(plan):
        got = base + sum(t * st for t, st in
                         zip(source_offset(NumpyOps, plan, tid, sub, j), plan.dims))
        check_runs(got[:, None] + lanes[None, :], zero and zero[0], "AB"[plan.channel],
                   an.copies[plan.ref_copy].op)
        if not np.array_equal(got[:, None] + lanes[None, :], table[p]):
            raise LM.LoopRefusal(f"channel {'AB'[plan.channel]}: the front end's copies "
                                 f"would not read what the kernel's copies read (subtile "
                                 f"{sub}, copy {j})", (an.copies[plan.ref_copy].op,))


def _plan_elements(plan: ChannelPlan):
    """(the kernel buffer's elements, (threads, width), thread ids, subtile, copy) of every
    copy of ``plan``: where lane ``t`` of copy ``j`` of the subtile puts its elements."""
    lanes = np.arange(plan.width, dtype=np.int64)
    for sub in plan.subtiles:
        for j in range(plan.copies):
            tid = np.arange(plan.threads, dtype=np.int64)
            if plan.padding:       # (the lanes that copy into the padding: none of the tile's)
                tid = tid[(j * plan.threads + tid) * plan.width < plan.elements]
            q = ((j * plan.threads + tid) * plan.width)[:, None] + lanes[None, :]
            if plan.reswizzle is not None:
                q = xor_shuffle(q, *plan.reswizzle)
            p = ((q >> plan.bit) << (plan.bit + 1)) | (sub << plan.bit) | \
                (q & ((1 << plan.bit) - 1))
            for kb in plan.deleted:
                p = ((p >> kb) << (kb + 1)) | (p & ((1 << kb) - 1))
            if plan.unswizzled and plan.swizzle is not None:
                p = xor_shuffle(p, *plan.swizzle)
            yield p, tid, sub, j


# ---------------------------------------------------------------------------------------------
# the IR
# ---------------------------------------------------------------------------------------------

class Cloner:
    """Clones the pure ops of the natural loop body on demand, with a value mapping (at
    the insertion point).  Given ``outside`` (an insertion point before the new loop), it
    also gives the thread ids the value 0: ops outside the body are cloned there when one
    of their operands changes, and value hints are dropped (they describe the lanes)."""

    def __init__(self, body_set, mapping: dict, outside=None) -> None:
        self.body_set = body_set
        self.map = dict(mapping)
        self.outside = outside

    def get(self, v):
        if v in self.map:
            return self.map[v]
        owner = v.owner
        if isinstance(owner, ir.Block):
            return v
        o = _op(owner)
        if self.outside is not None and o.name in THREAD_ID_OPS:
            self.map[v] = B.arith.constant(v.type, ir.IntegerAttr.get(v.type, 0),
                                           ip=self.outside)
            return self.map[v]
        if self.outside is not None and o.name in ("iree_codegen.index_hint",
                                                   "util.assume.int"):
            self.map[v] = self.get(o.operands[list(o.results).index(v)])
            return self.map[v]
        inside = o in self.body_set
        if not inside and self.outside is None:
            return v
        if inside and not is_pure(o):
            raise IRError(o, f"'{o.name}' op: its result is used for an address or an MFMA "
                             f"operand, but it is not side-effect free")
        operands = [self.get(x) for x in o.operands]
        if not inside:
            if all(a == b for a, b in zip(operands, o.operands)):
                self.map[v] = v
                return v
            if not is_pure(o):
                raise IRError(o, f"'{o.name}' op: its result is used for a copy's address, "
                                 f"but it is not side-effect free")
        new = o.clone(ip=None if inside else self.outside)
        set_new_operands(new, operands)     # (a clone no one has read: no cache told)
        for r, nr in zip(o.results, new.results):
            self.map[r] = nr
        return self.map[v]


def gather_to_lds(old, src, src_indices: list, dst, idx, width: int | None = None,
                  direct: bool = False):
    """An ``amdgpu.gather_to_lds`` like ``old`` (its attributes), from ``src[src_indices]``
    to ``dst[idx]``, at ``old``'s location; ``width``: elements per lane, if not ``old``'s.
    A copy made for a kernel's copy too narrow for a direct-to-LDS copy
    (:data:`~pipeline_mlir.frontend.marks.NARROW`,
    :func:`~pipeline_mlir.frontend.copy_widths.copy_width` then a direct-to-LDS width) is not
    narrow; it stays register-staged as the narrow copy was unless ``direct``
    (its runs proven aligned: :func:`_kept_plan`)."""
    drop = ("operandSegmentSizes", NARROW) + ((STAGED,) if direct else ())
    attrs = {a: old.attributes[a] for a in attr_names(old) if a not in drop}
    if width is not None:
        et = ir.VectorType(ir.TypeAttr(old.attributes["transferType"]).value).element_type
        attrs["transferType"] = ir.TypeAttr.get(ir.VectorType.get([width], et))
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(src_indices), 1, 1])
    with old.location:
        return ir.Operation.create("amdgpu.gather_to_lds",
                                   operands=[src] + list(src_indices) + [dst, idx],
                                   attributes=attrs)


class Emitter:
    """The front end's copies in the IR of one rewrite: the thread id is read once, before
    the new loop (``point``)."""

    def __init__(self, an, point, const) -> None:
        self.an = an
        self.point = point
        self.ops = IrOps(const)
        self._tid = None
        self._casts: dict = {}

    def tid(self):
        if self._tid is None:
            bx, by, bz = self.an.scan.block
            o = self.ops
            with self.point:
                d = B.gpu.Dimension
                self._tid = B.gpu.thread_id(d.x, upper_bound=bx)
                if by * bz > 1:
                    self._tid = o.add(o.add(self._tid, o.mul(B.gpu.thread_id(d.y), bx)),
                                      o.mul(B.gpu.thread_id(d.z), bx * by))
        return self._tid

    def indices(self, base, off) -> list:
        """The indices of element ``off`` of the row-major buffer ``base``."""
        shape = ir.MemRefType(base.type).shape
        o, out = self.ops, []
        for d in range(len(shape)):
            x = o.div(off, int(np.prod(shape[d + 1:])))
            out.append(x if d == 0 else o.rem(x, shape[d]))
        return out

    def copies(self, rw, plan: ChannelPlan, subtile: int, iv_value, dst) -> list:
        """The copies of ``plan``'s ``subtile`` into ``dst`` at the K step of ``iv_value``
        (``rw``: the rewriter: its body ops, accesses and ``_linear``)."""
        ref = self.an.copies[plan.ref_copy]
        with self.an.ops[ref.op].location:    # the copies and their addresses derive from it
            return self._copies(rw, plan, subtile, iv_value, dst)

    def _kernel_runs(self, rw, plan: ChannelPlan) -> list:
        """(op, source, indices, bytes a lane) of each of the kernel's copies of ``plan``'s
        channel (:func:`~pipeline_mlir.frontend.dword_runs.regrouped_refusal`)."""
        out = []
        for c in self.an.copies:
            op = self.an.ops[c.op]
            acc = rw.copy_acc.get(op)
            if c.buffer == plan.buffer and acc is not None and acc.src is not None:
                out.append((op, acc.src, list(acc.src_indices),
                            acc.elements * element_bytes(ir.MemRefType(acc.src.type))))
        return out

    def _copies(self, rw, plan: ChannelPlan, subtile: int, iv_value, dst) -> list:
        an, o = self.an, self.ops
        ref = an.copies[plan.ref_copy]
        old = an.ops[ref.op]
        acc = rw.copy_acc[old]
        base = _base(acc.src)
        cast = fat_buffer(base, self.point, self._casts)
        cl = Cloner(rw.body_set, {rw.iv: iv_value}, self.point)
        idx = list(acc.src_indices)
        if plan.kept is not None:
            idx = unkept(idx) or idx             # (each lane tests its own run below)
        g0 = dim_indices(rw.ix, cl, acc.src, idx, base)
        if g0 is None and plan.kept is not None:
            raise IRError(old, "a kept copy's own copies need its index per dimension")
        if g0 is None:
            g0 = rw._linear(acc.src, cl, base)
            for i, s in zip(acc.src_indices, an.evaluator.view(acc.src).strides):
                g0 = rw.ix.add(g0, rw.ix.mul(cl.get(i), s))
            g0 = self.indices(base, g0 if g0 is not None else 0)
        tid = self.tid()
        wave = o.mul(o.div(tid, WAVE_SIZE), WAVE_SIZE * plan.width)
        out = []
        # (a kept plan's lanes test their own runs against the buffer: kept_layout.py)
        runs = self._kernel_runs(rw, plan)
        kernel = runs if plan.kept is None else []
        # (the start the kernel's own DMA copies of the buffer need aligned: finding 95)
        implied = implied_base_zeros([r for r in runs if _base(r[1]) == base],
                                     an.scan.block, view_stride_divisors)
        for j in range(plan.copies):
            run = [o._v(o.add(g, t)) for g, t in
                   zip(g0, source_offset(o, plan, tid, subtile, j))]
            for off, n in plan_pieces(plan):     # (a piece: its own width, lanes a run apart)
                at = run if not off else run[:-1] + [o._v(o.add(run[-1], off))]
                bad = regrouped_refusal(kernel, cast, at, an.scan.block,
                                        n * element_bytes(ir.MemRefType(cast.type)))
                if bad is not None:
                    raise IRError(bad[0], f"{describe(bad[0])}: the front end's own copies "
                                          f"of channel {plan.channel} replace it only {bad[1]}")
                if plan.kept is not None:
                    at = keep_in_bounds(at, n, plan.kept)
                idx = rw.read_bases.wave_uniform(
                    o._v(o.add(wave, j * plan.threads * plan.width + off)),
                    rw.new_loop.operation)
                out.append(gather_to_lds(old, cast, at, dst, idx, n, plan.direct))
                if plan.pieces:       # (no DMA writes lanes apart: staged)
                    out[-1].attributes[LANE_STRIDE] = ir.IntegerAttr.get(
                        ir.IntegerType.get_signless(64), plan.width)
                if plan.pieces or plan.staged:     # (nor moves 1 or 2 bytes a lane)
                    out[-1].attributes[STAGED] = ir.UnitAttr.get()
                _check_aligned(out[-1], old, cast, at, an.scan.block, plan.channel, implied)
        return out


def _check_aligned(copy, old, cast, at: list, block: tuple, channel: int,
                   implied: int) -> None:
    """An error at the kernel's copy ``old`` where ``copy``, one of the front end's own
    copies of ``channel`` made for it, is a direct-to-LDS copy (not :data:`STAGED`) whose
    global start is not proven a multiple of the bytes it moves a lane in every workgroup,
    K step and launch (:func:`~pipeline_mlir.frontend.dword_runs.unaligned_refusal` of the
    emitted indices ``at`` into ``cast``, the buffer's start as stated or ``implied`` by
    the kernel's own DMA copies of it): the hardware's DMA wants it so, the emulator
    reads any address (finding 95 of ``docs/iree-audits.md``)."""
    if STAGED in copy.attributes:
        return
    n = ir.VectorType(ir.TypeAttr(copy.attributes["transferType"]).value).shape[0]
    why = unaligned_refusal(cast, at, block, n * element_bytes(ir.MemRefType(cast.type)),
                            view_stride_divisors, implied)
    if why is not None:
        raise IRError(old, f"{describe(old)}: the front end's own copies of channel "
                           f"{'AB'[channel]} replace it only where {why}")
