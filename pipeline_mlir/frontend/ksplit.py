"""A K tile whose stages do not fit in LDS, split along K into sub-steps.

The schedules hold two stages of every LDS buffer.  A loop whose K step is so wide that two
copies of its tiles exceed the workgroup's LDS (IREE's VectorDistribute fp8 kernel: a
64x128 tile with a K step of 512, two stages of 196608 bytes) is run as a loop of ``n``
times the trip count whose step is ``1/n`` of the kernel's, ``n`` the fewest sub-steps
(a power of two) whose two stages fit; a loop whose constant trip count leaves the
schedule's loop one pair (no steady trip) is split into 2 whatever its LDS
(``at_least``, :func:`~pipeline_mlir.frontend.natural.adopt_loop`), but not where the
sub-step's copies of a channel would move fewer elements a lane than the kernel's own
(:func:`_narrowed`: more copies per K step than the steady trip saves).  :func:`split_k`
checks, on the per-lane addresses of the analysis, that the loop is one sub-step repeated
``n`` times and keeps the first:

* no remainder loop is to run on the schedule's buffers (they hold one sub-step), but as
  whole K steps; the copies may be direct-to-LDS or staged through registers (the
  sub-step's copies stay staged as the kernel's were);
* every LDS buffer holds a strided block of one global buffer, unswizzled or under an XOR
  swizzle (:func:`~pipeline_mlir.frontend.block_fit.data_layout`: the view's, or the one the
  copies' addresses apply), whose digit that spans the K step (``r * s`` the elements the
  copies move from one K step to the next) splits into ``n`` parts on element bits
  (``kbits``) of the unswizzled index; where the swizzle does not permute them (IREE's
  8-wave bf16 tiles at K step 128: ``xor_shuffle<64, 8>`` permutes bits 3..5, the sub-step
  is bit 6) they number the sub-step in the buffer as laid out; where it does (the
  one-wave i8 tiles' ``xor_shuffle<128, 16>``, bits 4..6, and a quarter K step's bits 6
  and 7), only with ``unswizzle`` (the split for a lane's registers): the front end's
  copies then lay the sub-step out by the unswizzled index and the kept reads are
  re-addressed through it (unswizzled, ``kbits`` deleted, reswizzled by the front end's
  own choice: ``layout.redistribute``'s ``unswizzled``), which ``unread_bits.check_covered``
  and the plan's check against the kernel's table hold lane by lane to the elements the
  kernel's reads read (the reads' IR re-addressed by the same steps, ``adopt.py``'s
  ``_lds_index``); the copies' global addresses move by ``1/n`` of a K step when the loop
  variable does;
* every fragment read reads one sub-step (its ``kbits`` the same for every lane and
  element; a read that spans two is refused at the read: the split would cut it), and
  every MFMA multiplies fragments of one sub-step (these checks, and the next, on the
  reads' unswizzled elements);
* each accumulator's chain runs the sub-steps in K order, as many MFMAs in each, and the
  ``i``-th MFMA of sub-step ``h`` is the ``i``-th of sub-step 0 (the same op, attributes
  and read kinds) on the LDS elements ``h`` sub-steps further along K.

The loop then keeps sub-step 0's reads and MFMAs (the accumulators chain in the same order
as before: bit-identical sums), its step becomes ``step / n``, and the front end makes the
copies of that sub-step itself (:func:`~pipeline_mlir.frontend.layout.redistribute` with
``kbits``: each buffer stored with those bits deleted); every wait is derived from that
loop as usual.  A loop whose copies do not allow that is refused at the op
(:class:`KSplitRefusal`, its reason apart from the message's preamble).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.locations import op_name
from pipeline_mlir.analysis.ir_facts import attr_strings, constant_bounds, constant_int
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.kernel.int_arrays import distinct
from pipeline_mlir.target import gfx950
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.kernel_ir import describe, zero_end
from pipeline_mlir.frontend.remainder_plan import stage0_loops
from pipeline_mlir.frontend.block_fit import data_layout, filled_layout
from pipeline_mlir.frontend.layout import redistribute
from pipeline_mlir.frontend.partition import layout_buffers, lds_refusal, stage_bytes
from pipeline_mlir.frontend.unread_bits import unswizzled_reads

__all__ = ["KSplitRefusal", "split_k"]


class KSplitRefusal(IRError):
    """:func:`split_k`'s refusal of a loop the split would cut, at the op: ``reason`` says
    why the split cannot be made, apart from the message's preamble (the loop's LDS
    refusal, or the split's own wording), so that a caller (the split for a lane's
    registers, :mod:`~pipeline_mlir.frontend.fragment_budget`) can say it alone."""

    def __init__(self, op, message: str, reason: str) -> None:
        super().__init__(op, message)
        self.reason = reason


def split_k(an: Analysis, at_least: int = 1, unswizzle: bool = False) -> Analysis:
    """``an`` itself if two stages of its buffers fit in LDS and ``at_least`` is 1 (or no
    split makes them fit: the schedule's LDS check refuses the loop then), else the
    analysis of the loop split into the fewest K sub-steps, ``at_least`` of them, whose two
    stages fit, its IR step divided (module docstring).  A loop the split would cut is
    refused at the op (:class:`KSplitRefusal`).  With ``unswizzle``, a buffer whose XOR
    swizzle mixes the sub-step's bits is split on its unswizzled index (:func:`_mixes`);
    without, such a loop is refused (the splits for LDS and for a steady trip)."""
    total, other = stage_bytes(an, layout_buffers(an, check=False))
    if at_least < 2 and total + other <= gfx950.LDS_BYTES:
        return an
    loop = an.scan.loop
    step = an.evaluator.uniform(loop.operands[2])
    chain = an.chain()
    tile = sum(int(np.prod(ir.MemRefType(v.type).shape)) * an.buffer_views[b].elem_bytes
               for b, v in enumerate(an.buffers))
    n = max(2, at_least)
    while n <= chain and (chain % n or 2 * tile // n + other > gfx950.LDS_BYTES):
        n *= 2
    if n > chain:                       # no split fits: the LDS check refuses the loop
        return an

    def not_taken(reason: str) -> KSplitRefusal:
        """The split does not apply: the loop's LDS refusal, the reason added."""
        into = f"{n} sub-steps" + (f" of {step // n}" if step and step % n == 0 else "")
        return KSplitRefusal(loop, f"'scf.for' op: {lds_refusal(total, other)}; nor can the "
                                   f"front end split its K step into {into}: {reason}", reason)
    if step is None or step % n:
        raise not_taken(f"the loop's step ({'not one constant' if step is None else step}) "
                        f"is not a multiple of {n}")
    reason = _not_taken(an)
    if reason:
        raise not_taken(reason)
    why = (f"{lds_refusal(total, other)}; split along K into {n} sub-steps of "
           f"{step // n}")
    kbits, moves, swizzles = {}, {}, {}
    for b in range(len(an.buffers)):
        bits = _substep_bits(an, b, n)
        if isinstance(bits, str):
            raise not_taken(bits)
        kbits[b], moves[b], swizzles[b] = bits
    mixed = {b: sw for b, sw in swizzles.items() if sw is not None and _mixes(sw, kbits[b])}
    if mixed and not unswizzle:
        b = min(mixed)
        raise not_taken(f"LDS buffer {an.buffers[b].type} is swizzled "
                        f"({_swizzle_words(mixed[b])}), which mixes the K sub-step's element "
                        f"bit(s) {', '.join(map(str, kbits[b]))}")
    logical = unswizzled_reads(an, swizzles)
    sub = _read_substeps(logical, kbits, n, why)
    keep = _check_mfmas(logical, sub, kbits, n, why)
    _check_moves_linearly(an, step // n, moves, n, why)
    an2 = _first_substep(an, sub, keep)
    names = lambda i: describe(an.ops[i])  # noqa: E731
    try:
        an2.partition = redistribute(an2, names, kbits, _copy_channels(an, names),
                                     unswizzled=mixed)
    except LM.LoopRefusal as e:
        where = an.ops[e.ops[0]] if e.ops else loop
        raise _refused(where, why, f"the front end cannot make the sub-step's copies: "
                                   f"{e}") from None
    narrowed = _narrowed(an, an2.partition) if at_least >= 2 else None
    if narrowed is not None:        # (the split for a steady trip alone: it costs copies)
        raise not_taken(narrowed)
    with loop.context, loop.location, ir.InsertionPoint(loop):
        t = loop.operands[2].type
        loop.operands[2] = B.arith.constant(t, ir.IntegerAttr.get(t, step // n))
    for rem in _shared_remainders(an):   # n sub-steps per K step of its own
        with loop.context, rem.location, ir.InsertionPoint(rem):
            t = rem.operands[2].type
            if constant_bounds(rem) is None:
                rem.operands[1] = _whole_steps_bound(rem, step)
            rem.operands[2] = B.arith.constant(t, ir.IntegerAttr.get(t, step // n))
    return an2


def _narrowed(an: Analysis, partition) -> str | None:
    """Why the sub-step's copies (``partition``'s plans) cost more than they save when the
    split is made for a steady trip alone: a channel whose copies move fewer elements a lane
    than the kernel's own (a 64x128 bf16 tile at a K step of 64: A's sub-step of 64x32 is
    4 elements a lane where IREE's copies move 8, twice the copies per K step, and four
    times where the rows are not 4-byte aligned and each 4-byte piece is staged); else
    None."""
    for ch, plan in sorted(partition.plans.items()):
        own = [c.lds.shape[-1] for c, k in zip(an.copies, partition.copy_channel) if k == ch]
        if own and plan.width and plan.width < min(own):
            return (f"its sub-step's copies of channel {'AB'[ch]} would move {plan.width} "
                    f"elements a lane where the kernel's move {min(own)}: more copies per K "
                    f"step than a steady trip of the pipelined loop saves")
    return None


def _copy_channels(an: Analysis, names) -> list:
    """The channel (0: A, 1: B) of each copy of ``an``, told by the reads of every
    sub-step: a copy may hold only a later sub-step's data (B ``K x N``, its rows along K)."""
    full = {b: int(np.prod(ir.MemRefType(v.type).shape)) for b, v in enumerate(an.buffers)}
    deps = LM.read_dependencies(an.copies, an.reads, full, names)
    return LM.channels(an.copies, an.reads, an.mfmas, deps, names)[1]


def _whole_steps_bound(rem, step: int):
    """``lb + ceildiv(max(ub - lb, 0), step) * step`` for the remainder loop ``rem`` of
    bounds known only at run time, emitted before it: the end of the last K step it runs,
    so that its sub-step loop runs every sub-step of each (``ub`` need not be a whole
    number of steps past ``lb``: the natural loop then reads its last K step whole)."""
    A = B.arith
    lb, ub = rem.operands[0], rem.operands[1]
    t = lb.type
    c = lambda x: A.constant(t, ir.IntegerAttr.get(t, x))  # noqa: E731
    left = A.maxsi(A.subi(ub, lb), c(0))
    return A.addi(lb, A.muli(A.divsi(A.addi(left, c(step - 1)), c(step)), c(step)))


def _shared_remainders(an: Analysis) -> list:
    """The kernel's remainder loops to be rebuilt on the schedule's LDS buffers
    (:mod:`~pipeline_mlir.frontend.remainder_plan`'s ``STAGE0``): with the split, one
    sub-step per iteration."""
    return stage0_loops(an.scan.loop)


def _substep_bits(an: Analysis, b: int, n: int) -> tuple[tuple, int, tuple | None] | str:
    """(the element bits of buffer ``b``'s unswizzled index that number its K sub-step,
    ascending; the global elements its copies move from one K step to the next; the
    buffer's XOR swizzle ``(row, access)`` or None), or why there are none.  Where the
    swizzle does not permute those bits (:func:`_mixes`) they number the sub-step in the
    buffer as laid out too; where it does, the sub-step's elements are those bits of the
    unswizzled index, which the front end's copies and the kept reads are re-addressed by
    (``layout.redistribute``'s ``unswizzled``)."""
    mine = [i for i, c in enumerate(an.copies) if c.buffer == b]
    copies = [an.copies[i] for i in mine]
    size = int(np.prod(ir.MemRefType(an.buffers[b].type).shape))
    name = f"LDS buffer {an.buffers[b].type}"
    table = np.full(size, -1, dtype=np.int64)
    for c in copies:
        table[c.lds.ravel()] = c.src0.ravel()
    moves = {int(x) for c in copies for x in distinct(c.src1 - c.src0)}
    if np.any(table < 0) or len(moves) != 1 or len({c.source for c in copies}) != 1:
        return (f"the copies of {name} do not fill it from one global buffer, moving by "
                f"one amount per K step")
    move = moves.pop()
    swizzle, digits = data_layout(table, an.buffer_views[b].swizzle)
    if digits is None and mine:
        # (rows past the buffer's end free: the sampled workgroup's tile may be cut by C's
        # edge, IREE's prefetch point pointing its rows past M out of the range-checked
        # buffer; tried second, so that a table that is a block as it is keeps its fit)
        zero = zero_end(an.scan.copies[mine[0]].src, an.evaluator)
        if zero is not None:
            swizzle, digits, _filled = filled_layout(table, an.buffer_views[b].swizzle, zero)
    digits = digits or ()
    spans = [(m, r) for m, r, s in digits if r * s == move]
    if len(spans) != 1 or not _pow2(spans[0][0]) or not _pow2(spans[0][1]) or \
            spans[0][1] % n:
        return (f"{name} does not hold the K step's {move} elements of a row on element "
                f"bits that split into {n} parts")
    m, r = spans[0]
    top = (m * r).bit_length() - 1
    k = n.bit_length() - 1
    return tuple(range(top - k, top)), move, swizzle


def _mixes(swizzle: tuple, bits: tuple) -> bool:
    """Whether ``xor_shuffle<row, access>`` (``swizzle``) permutes one of the element
    ``bits`` (those of the chunk within a row): IREE's 8-wave bf16 tiles'
    ``xor_shuffle<64, 8>`` permutes bits 3..5, not a sub-step's bit 6; the one-wave i8
    tiles' ``xor_shuffle<128, 16>`` permutes bits 4..6, a quarter K step's bit 6."""
    return any(kb in _permuted(swizzle) for kb in bits)


def _swizzle_words(swizzle: tuple) -> str:
    """``xor_shuffle<row, access> permutes its element bits lo..hi``."""
    bits = _permuted(swizzle)
    return f"xor_shuffle<{swizzle[0]}, {swizzle[1]}> permutes its element bits " \
        f"{bits.start}..{bits.stop - 1}"


def _permuted(swizzle: tuple) -> range:
    """The element bits ``xor_shuffle<row, access>`` (``swizzle``) permutes: those of the
    chunk within a row, from ``log2(access)`` up to ``log2(row)``."""
    row, access = swizzle
    return range(access.bit_length() - 1, row.bit_length() - 1)


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def _not_taken(an: Analysis) -> str | None:
    """Why the split does not take the loop (a remainder loop to be rebuilt on the
    schedule's buffers, which would hold only a sub-step), or None."""
    step = an.evaluator.uniform(an.scan.loop.operands[2])
    for rem in _shared_remainders(an):
        bounds = constant_bounds(rem)
        if bounds is None and constant_int(rem.operands[2]) == step:
            continue     # bounds known at run time: its end rounded to a whole K step
        if bounds is None or bounds[2] != step or (bounds[1] - bounds[0]) % step:
            return (f"its remainder loop ({describe(rem)}) runs on the schedule's LDS "
                    f"buffers, one sub-step at a time, which takes the loop's step "
                    f"({step}) and constant bounds a whole number of steps apart (or "
                    f"bounds known only at run time)")
    return None


def _refused(op, why: str, reason: str) -> KSplitRefusal:
    """The split's refusal at ``op``: ``why`` (the split's wording), ``, but`` and
    ``reason``."""
    return KSplitRefusal(op, f"'{op_name(op)}' op: {why}, but {reason}", reason)


def _read_substeps(an: Analysis, kbits: dict, n: int, why: str) -> list:
    """The K sub-step of every fragment read; one that spans two is refused at the read."""
    out = []
    for r in an.reads:
        low = kbits[r.buffer][0]
        subs = distinct((r.lds >> low) & (n - 1))
        if len(subs) != 1:
            op = an.ops[r.op]
            raise _refused(op, why, f"it would cut a fragment read (its lanes read K columns "
                                    f"of sub-steps {', '.join(map(str, subs))})")
        out.append(int(subs[0]))
    return out


def _check_mfmas(an: Analysis, sub: list, kbits: dict, n: int, why: str) -> list:
    """The MFMAs of sub-step 0 (indices into ``an.mfmas``), after checking that every
    other sub-step repeats them ``h`` sub-steps along K (module docstring)."""
    per_acc: dict = {}
    for k, m in enumerate(an.mfmas):
        op = an.ops[m.op]
        subs = {sub[r] for r in m.a_reads | m.b_reads}
        if len(subs) != 1:
            raise _refused(op, why, f"it multiplies fragments of sub-steps "
                                    f"{', '.join(map(str, sorted(subs)))}")
        h = subs.pop()
        lst = per_acc.setdefault(m.acc, [[] for _ in range(n)])
        if any(lst[g] for g in range(h + 1, n)):
            raise _refused(op, why, "its accumulator's chain does not run the sub-steps in "
                                    "K order")
        lst[h].append(k)
    for lst in per_acc.values():
        for h in range(1, n):
            if len(lst[h]) != len(lst[0]):
                op = an.ops[an.mfmas[(lst[h] or lst[0])[0]].op]
                raise _refused(op, why, f"its accumulator's chain has {len(lst[0])} MFMAs in "
                                        f"sub-step 0 and {len(lst[h])} in sub-step {h}")
            for k0, kh in zip(lst[0], lst[h]):
                _check_repeats(an, k0, kh, h, kbits, why)
    return sorted(k for lst in per_acc.values() for k in lst[0])


def _check_repeats(an: Analysis, k0: int, kh: int, h: int, kbits: dict, why: str) -> None:
    """MFMA ``kh`` (sub-step ``h``) is MFMA ``k0`` (sub-step 0) ``h`` sub-steps along K."""
    m0, mh = an.mfmas[k0], an.mfmas[kh]
    op0, oph = an.ops[m0.op], an.ops[mh.op]
    same = attr_strings(op0) == attr_strings(oph)
    for r0s, rhs in ((m0.a_reads, mh.a_reads), (m0.b_reads, mh.b_reads)):
        r0s, rhs = sorted(r0s), sorted(rhs)
        same = same and len(r0s) == len(rhs)
        for r0, rh in zip(r0s, rhs) if same else ():
            a, z = an.reads[r0], an.reads[rh]
            shift = h << kbits[a.buffer][0]
            o0, oh = an.ops[a.op], an.ops[z.op]
            same = same and a.buffer == z.buffer and o0.name == oh.name and \
                str(o0.results[0].type) == str(oh.results[0].type) and \
                np.array_equal(a.lds + shift, z.lds)
    if not same:
        raise _refused(oph, why, f"it does not repeat the first sub-step's MFMA of its "
                                 f"accumulator ({describe(op0)}) {h} sub-step(s) along K")


def _check_moves_linearly(an: Analysis, sub_step: int, moves: dict, n: int,
                          why: str) -> None:
    """The copies' global addresses move by ``1/n`` of a K step when the loop variable
    moves by ``sub_step``: the sub-step loop's copies are the kernel's, moved."""
    ev, scan = an.evaluator, an.scan
    iv = scan.loop.regions[0].blocks[0].arguments[0]
    lb = ev.uniform(scan.loop.operands[0]) or 0
    ev.bind(iv, lb + sub_step)
    try:
        for a, c in zip(scan.copies, an.copies):
            v = ev.view(a.src)
            start = v.element([ev.value(i) for i in a.src_indices])
            move = moves[c.buffer]
            if move % n or not np.array_equal(start, c.src0[:, 0] + move // n):
                op = an.ops[c.op]
                raise _refused(op, why, f"its global address does not move by 1/{n} of a K "
                                        f"step when the loop variable moves by {sub_step}")
    finally:
        ev.bind(iv, lb)


def _first_substep(an: Analysis, sub: list, keep: list) -> Analysis:
    """``an`` with the reads and MFMAs of sub-step 0 only (reads renumbered)."""
    kept = [i for i, s in enumerate(sub) if s == 0]
    new = {old: i for i, old in enumerate(kept)}
    mfmas = [replace(an.mfmas[k], a_reads=frozenset(new[r] for r in an.mfmas[k].a_reads),
                     b_reads=frozenset(new[r] for r in an.mfmas[k].b_reads)) for k in keep]
    scan = replace(an.scan, reads=[an.scan.reads[i] for i in kept],
                   mfmas=[an.scan.mfmas[k] for k in keep])
    return replace(an, scan=scan, reads=[an.reads[i] for i in kept], mfmas=mfmas,
                   partition=None)
