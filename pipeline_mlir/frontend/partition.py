"""Partitioning a natural K-loop into the schedule's channels, stages and subtiles.

:func:`partition_loop` assigns every copy and fragment read a channel (A or B) and a
subtile, and every MFMA an MMA group (``pipeline_mlir.kernel.loop_model``);
:func:`layout_buffers` decides how each LDS buffer is stored in the schedule's loop (one
buffer per subtile and stage); :func:`infer_schedule` names the schedule the loop's
payload stands for (its tile, per-load counts and waves), and :func:`check_waves` refuses a
kernel whose wave count the schedule cannot run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.int_arrays import distinct
from pipeline_mlir.options import value_text
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.target import gfx950
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend import waves as W
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.frontend.kernel_ir import describe, kernel_of, mfma_variant, other_lds
from pipeline_mlir.frontend.elements import SCALAR_OPERANDS, SCHEDULE_DTYPES
from pipeline_mlir.frontend.element_reads import element_reads, why_left
from pipeline_mlir.frontend.layout import redistribute
from pipeline_mlir.frontend.marks import NARROW
from pipeline_mlir.frontend.unread_bits import has_padding_rows
from pipeline_mlir.frontend.k_subtiles import along_k, k_subtiles_value, unread_counts, whole
from pipeline_mlir.frontend.scan import LoopScan
from pipeline_mlir.frontend.remainder_plan import count as plan_remainder_lds
from pipeline_mlir.schedules.fourwave import MERGE_K_OPTION
from pipeline_mlir.schedules.pingpong import PING_PONG_DTYPES
from pipeline_mlir.schedules.geometry import (MFMA_AUTO, MFMA_SHAPES, mfma_shape,
                                             square_grid)

#: MFMA operand element types -> the schedules' dtype names
DTYPES = SCHEDULE_DTYPES


def partition_loop(an: Analysis, defer: bool = False) -> None:
    """Set ``an.partition``: the channel and subtile of every copy and read, the MMA group
    of every MFMA; a loop that cannot be split so is an error at the op that says why.
    The whole-grid proofs of the front end's copies
    (:func:`~pipeline_mlir.frontend.every_workgroup.prove_every_workgroup`,
    :func:`~pipeline_mlir.frontend.kept_layout.prove_kept`) run once the partition's
    structure holds (the split, both channels' plans, the MMA groups): a loop refused for
    its structure is refused without them, which cost seconds on a large grid (IREE's fp8
    E5M2 ``A^T x B`` 1817x998x1273 register-copy kernel: 11 s proving channel A's kept
    masks, then refused at channel B's split).  ``defer``: the proofs are left in
    ``an.proofs`` for :func:`settle_proofs`, for a loop that may be merged away before it
    is built (``frontend/natural.py``)."""
    proofs: list = []
    _partition(an, proofs)
    if defer:
        an.proofs = proofs
        return
    for proof in proofs:
        proof(an.partition.plans)


def settle_proofs(an: Analysis) -> IRError | None:
    """Run the whole-grid proofs :func:`partition_loop` left in ``an.proofs`` (the loop is
    built as it is, or its refusal is asked for), completing ``an.partition``: None when
    they hold, else the first one's refusal."""
    proofs, an.proofs = getattr(an, "proofs", None) or [], None
    try:
        for proof in proofs:
            proof(an.partition.plans)
    except IRError as e:
        return e
    return None


def _partition(an: Analysis, proofs: list) -> None:
    """:func:`partition_loop`, the whole-grid proofs left in ``proofs``, each raising its
    refusal as the partition's (:func:`_refusal`)."""
    sizes = {b: int(np.prod(ir.MemRefType(v.type).shape)) for b, v in enumerate(an.buffers)}
    names = lambda i: describe(an.ops[i])  # noqa: E731
    narrow = [c.op for c in an.copies if NARROW in an.ops[c.op].attributes]
    try:
        if narrow:      # (frontend/regcopy.py: only the front end's own copies replace it)
            raise LM.LoopRefusal(ir.StringAttr(an.ops[narrow[0]].attributes[NARROW]).value,
                                 (narrow[0],))
        an.partition = LM.partition(an.copies, an.reads, an.mfmas, sizes, names)
    except LM.LoopRefusal as e:
        where = an.ops[e.ops[0]] if e.ops else an.scan.loop
        try:
            an.partition = redistribute(an, names, proofs=proofs)
        except LM.LoopRefusal as e2:
            raise _refusal(e, e2, where) from None
        proofs[:] = [_worded(p, e, where) for p in proofs]


def _refusal(e: LM.LoopRefusal, e2: LM.LoopRefusal, where) -> IRError:
    """The loop's refusal at ``where``: its own partition's ``e``, and why the front end's
    distribution of the copies does not take it either (``e2``)."""
    why = "" if str(e2) == str(e) else \
        f"; nor can the front end distribute the copies itself: {e2}"
    return IRError(where, f"{e}{why}")


def _worded(proof, e: LM.LoopRefusal, where):
    """``proof``, its refusal raised as :func:`_refusal` words the partition's."""
    def run(plans):
        try:
            proof(plans)
        except LM.LoopRefusal as e2:
            raise _refusal(e, e2, where) from None
    return run


# ---------------------------------------------------------------------------------------------
# the schedule the loop stands for
# ---------------------------------------------------------------------------------------------

def check_waves(loop, schedule) -> None:
    """The kernel around the natural loop ``loop`` must run waves ``schedule`` can run
    (:func:`pipeline_mlir.frontend.waves.check_waves`; once per loop, before its analysis),
    and a schedule without a kernel has no loop to build.  A loop in no kernel, or in one
    that declares no workgroup size, is left to :func:`~pipeline_mlir.frontend.scan.scan_loop`,
    which refuses it."""
    if schedule.kernel_traits is None:
        raise IRError(loop, f"'scf.for' op: the front end builds the loop of a schedule "
                            f"with a complete kernel (4wave, pingpong); '{schedule.name}' "
                            f"has no K offsets to place the copies of two K tiles")
    kernel = kernel_of(loop)
    block = block_size(kernel) if kernel is not None else None
    if block is not None:
        W.check_waves(kernel, int(np.prod(block)), schedule)


def infer_schedule(an: Analysis, schedule):
    """The schedule the loop's payload stands for (a ``NamedSchedule`` of the kind of
    ``schedule``): the tile and every per-load count taken from the payload; an option
    ``schedule`` was given that disagrees is an error."""
    loop = an.scan.loop
    dtype, shape = _mfma_kind(an.scan)
    chain = _chain_length(an)
    counts = _payload_counts(an, chain)
    schedule = W.with_kernel_waves(loop, an.scan.threads, schedule)
    inferred = _inferred_options(an, schedule, dtype, shape, chain, counts)
    own = type(schedule).options()
    given = dict(schedule.items())
    for key in schedule.given:
        want = inferred.get(key, counts.get(key))
        if key == "mfma" and want is None and _takes(dtype, given[key]) and \
                mfma_shape(dtype, given[key]) != shape:
            want = MFMA_AUTO      # (inferred names only an MFMA other than the dtype's own)
        if key in own and want is not None and given[key] != want:
            raise IRError(loop, f"'scf.for' op: the pipeline asks for "
                                f"{key}={value_text(given[key])}, but the loop's payload has "
                                f"{key}={value_text(want)}" + (
                                    f" (its MFMAs are {'x'.join(map(str, shape))}, the "
                                    f"dtype's own)" if want == MFMA_AUTO else ""))
    values = dict(given)
    values.update(inferred)
    if "waves_m" in inferred and "waves_m" not in schedule.given and \
            inferred["waves_m"] == square_grid(schedule.kernel_waves())[0]:
        del values["waves_m"]      # (the default grid: not written in the spec)
    # the K steps merged (frontend/kmerge.py) or not: the spec's tile is the loop's as it is
    values.pop(MERGE_K_OPTION, None)
    if "frags_ahead" in own and "frags_ahead" not in schedule.given and along_k(an.partition):
        # (split along K: MMAs of 4 MFMAs between barriers; reads issued a run early are
        # faster in both of the simulator's tables, docs/iree-pingpong.md)
        values["frags_ahead"] = "balanced-across"
    _over_vmcnt(an, schedule, values)
    try:
        return type(schedule).from_values(values)
    except ConfigError as e:
        left = why_left(an.scan)
        if left is not None:     # one-element reads not regrouped: too many to count
            read, why = left
            n = len(element_reads(an.scan))
            raise IRError(read, f"'{read.name}' op: the loop's {n} one-element LDS reads "
                                f"stay as they are (regrouping them into transposing reads "
                                f"needs {why}), and so many reads are more than the "
                                f"schedule counts: {e}") from None
        raise IRError(loop, f"'scf.for' op: {e}") from None


def _mfma_kind(scan: LoopScan) -> tuple[str, tuple[int, int, int]]:
    """(dtype, (M, N, K)) of the loop's MFMAs: one kind (shape and element type) per loop."""
    mf = scan.mfmas[0]
    shape, et = _one_kind(mf)
    if et not in DTYPES:
        raise IRError(mf, f"'{mf.name}' op multiplies {et}; the schedules know "
                          f"{', '.join(DTYPES)}")
    for op in scan.mfmas[1:]:
        s, e = _one_kind(op)
        if s != shape or e != et:
            raise IRError(op, f"'{op.name}' op is a {s[0]}x{s[1]}x{s[2]} {e} MFMA, but "
                              f"the loop's first MFMA is {shape[0]}x{shape[1]}x{shape[2]} {et}; "
                              f"one MFMA kind per loop")
    named = "x".join(map(str, shape))
    issued = _issued_shapes(DTYPES[et])
    if named not in issued:
        raise IRError(mf, f"'{mf.name}' op is a {named} {et} MFMA, which the schedules do not "
                          f"issue for {DTYPES[et]} (they issue {' and '.join(issued)})")
    return DTYPES[et], shape


def _issued_shapes(dtype: str) -> list[str]:
    """The MFMA shapes (``MxNxK``) the schedules issue for ``dtype``: the MFMAs of its
    operands (``target/gfx950.py``'s ``dtype_mfmas``, i8's gfx942 halves among them, which
    the 4-wave schedule issues: the ping-pong one refuses them at its geometry)."""
    return list(gfx950.dtype_mfmas(dtype, halves=True))


def _one_kind(op) -> tuple[tuple[int, int, int], str]:
    """((M, N, K), element type) of one MFMA; scalar operands only of the element types
    whose MFMA takes one element a lane (``amdgpu.mfma 16x16x4`` on ``f32``), else refused
    at the op (``f64``: the schedules move no f64 fragments)."""
    t = op.operands[0].type
    if not isinstance(t, ir.VectorType) and str(t) not in SCALAR_OPERANDS:
        vectors = ", ".join(d for d in DTYPES if d not in SCALAR_OPERANDS)
        raise IRError(op, f"'{op.name}' op multiplies scalar {t} operands; the schedules "
                          f"take scalar operands of {', '.join(sorted(SCALAR_OPERANDS))} and "
                          f"vector operands of {vectors}")
    variant = mfma_variant(op)
    if variant is not None:
        raise IRError(op, f"'{op.name}' op {variant}; the schedules keep each MFMA as it is "
                          f"and the emulator proves only plain ones (blocks = 1, cbsz = 0, "
                          f"abid = 0, blgp = none)")
    et = str(ir.VectorType(t).element_type) if isinstance(t, ir.VectorType) else str(t)
    b = op.operands[1].type
    b = ir.VectorType(b).element_type if isinstance(b, ir.VectorType) else b
    if et in DTYPES and DTYPES.get(str(b)) != DTYPES[et]:
        # (the kind is A's: B may be another format of A's dtype, OCP E5M2 beside E4M3FN)
        raise IRError(op, f"'{op.name}' op multiplies {et} by {b}; the schedules take "
                          f"both operands of {', '.join(DTYPES)}, B of A's dtype")
    c = op.operands[2].type
    c = str(ir.VectorType(c).element_type if isinstance(c, ir.VectorType) else c)
    want = "i32" if DTYPES.get(et) == "i8" else "f32"
    if et in DTYPES and c != want:   # (the verifier lets an i8 MFMA add into f32)
        raise IRError(op, f"'{op.name}' op accumulates {et} products into {c}; an MFMA of "
                          f"{DTYPES[et]} accumulates into {want}")
    shape = tuple(ir.IntegerAttr(op.attributes[a]).value for a in ("m", "n", "k"))
    return shape, et


def _chain_length(an: Analysis) -> int:
    """MFMAs per accumulator and iteration (the same for every accumulator)."""
    chains: dict = {}
    for m in an.mfmas:
        chains[m.acc] = chains.get(m.acc, 0) + 1
    chain = set(chains.values())
    if len(chain) != 1:
        raise IRError(an.scan.loop, f"'scf.for' op: the accumulators get different numbers of "
                                    f"MFMAs per iteration ({sorted(chain)}); the schedule's "
                                    f"MMAs are uniform")
    return chain.pop()


def _dword_contradicts(base, schedule, counts: dict) -> bool:
    """Whether ``base`` (the schedule of the loop's inferred tile) resolves ``dma=auto`` to
    dword DMAs, whose vm counts are not the payload's ``counts``."""
    if "dma" not in type(schedule).options() or "dma" in schedule.given or \
            base.dma_width() != "dword":
        return False
    g = base.geometry()
    return any(getattr(g, k) != counts[k] for k in ("vm_per_load_a", "vm_per_load_b"))


def _over_vmcnt(an: Analysis, schedule, values: dict) -> None:
    """Refuse, at its first copy, a channel whose copies take more global loads per subtile
    than ``vmcnt`` counts, where the pipeline did not ask for that count (``values``: the
    options the schedule is about to be made of): the count is the kernel's, not an option
    the user gave, and the schedule waits for a subtile's loads by it.  An option the
    schedule would refuse before that count (it checks ``values`` in order:
    ``first_refusal``) is left to it."""
    key = type(schedule).first_refusal(values)
    ch = {"vm_per_load_a": 0, "vm_per_load_b": 1}.get(key)
    if ch is None or key in schedule.given:
        return
    n = an.partition.vm_per_load[ch]
    if values[key] != n or n <= gfx950.VMCNT_MAX:
        return
    op = next(an.ops[c.op] for c, k in zip(an.copies, an.partition.copy_channel) if k == ch)
    raise IRError(op, f"'{op.name}' op: channel {'AB'[ch]}'s copies take {n} global load "
                      f"instructions per subtile, more than the {gfx950.VMCNT_MAX} that "
                      f"vmcnt counts, and the schedule waits for a subtile's loads by their "
                      f"count ({key})")


def _payload_counts(an: Analysis, chain: int) -> dict:
    """The per-load counts and global loads per MMA block the payload issues."""
    p = an.partition
    per_group: dict = {}
    for g in p.mfma_group:
        per_group[g] = per_group.get(g, 0) + 1
    mfmas_per_mma = min(per_group.values())
    return {"vm_per_load_a": p.vm_per_load[0], "vm_per_load_b": p.vm_per_load[1],
            "lgkm_per_load_a": p.lgkm_per_load[0], "lgkm_per_load_b": p.lgkm_per_load[1],
            "max_globals": 0 if mfmas_per_mma < 8 else (1 if chain >= 2 else 0)}


def _tile_elements(an: Analysis, c: LM.Copy) -> int:
    """The elements of the tile copy ``c`` writes: all of them, but in a buffer with padding
    rows (:data:`~pipeline_mlir.frontend.marks.PADDING_ROWS_ATTR`) only those a read reads."""
    if not has_padding_rows(an, c.buffer):
        return c.lds.size
    read = [r.lds.ravel() for r in an.reads if r.buffer == c.buffer]
    return int(np.isin(c.lds, np.concatenate(read)).sum()) if read else 0


def _inferred_options(an: Analysis, schedule, dtype: str, shape: tuple, chain: int,
                      counts: dict) -> dict:
    """The options of ``schedule``'s kind the payload fixes: a tile geometry's dtype, MFMA
    and tile with the counts the geometry would not derive; else the counts it has."""
    bk = shape[2] * chain
    elems = [0, 0]
    for c, ch in zip(an.copies, an.partition.copy_channel):
        elems[ch] += _tile_elements(an, c)
    # (a loop split into K sub-steps, frontend/ksplit.py: the kernel's copies hold every
    # sub-step, the tile one)
    plans = getattr(an.partition, "plans", {})
    bm, bn = ((elems[ch] >> len(plans[ch].kbits if ch in plans else ())) // bk
              for ch in (0, 1))
    own = type(schedule).options()
    inferred = {}
    if "BM" in own:  # a tile geometry (4-wave): the counts the geometry would not derive
        inferred.update(dtype=dtype, BM=bm, BN=bn, BK=bk)
        if "mfma" in own and shape != mfma_shape(dtype):
            inferred["mfma"] = "x".join(str(d) for d in shape)
        if schedule.lockstep():
            grid = _wave_grid(an, shape, bm, bn, schedule.kernel_waves())
            if grid is not None:
                inferred["waves_m"] = grid[0]
        split = along_k(an.partition)     # a wave tile one MFMA tall or wide (k_subtiles.py)
        if split and "k_subtiles" in own:
            inferred["k_subtiles"] = k_subtiles_value(an.partition)
        held = whole(an.partition)     # an operand held whole in each stage (k_subtiles.py)
        if held and "whole" in own:
            inferred["whole"] = held.lower()
        waves = {W.WAVES_OPTION: schedule.kernel_waves()} if schedule.lockstep() else {}
        try:
            base = type(schedule).from_values({**inferred, **waves})
            if _dword_contradicts(base, schedule, counts):
                # (the complete kernel's timing rule would split each x4 DMA into dwords:
                # the loop's copies are its own, counted from the payload)
                inferred["dma"] = "x4"
                base = type(schedule).from_values({**inferred, **waves})
            g = base.geometry()
        except ConfigError as e:
            raise IRError(an.scan.loop, f"'scf.for' op: the loop's tile ({dtype} {bm}x{bn}x{bk}) "
                                        f"is not one the {schedule.name} schedule's geometry "
                                        f"accepts: {e}") from None
        for k, v in counts.items():
            if getattr(g, k) != v:
                inferred[k] = v
    else:
        if "is_fp8" in own:
            inferred.update(_ping_pong_dtype(an.scan, schedule, dtype, shape))
        if "waits" in own and along_k(an.partition):   # an MMA reads half a fragment load
            if "waits" not in schedule.given:
                inferred["waits"] = "block"   # (faster in the simulator's llvm table)
            elif schedule.waits == "fragment" and "unread_a" in own:   # each MMA's unread
                inferred.update({k: v for k, v in zip(("unread_a", "unread_b"),
                                                      unread_counts(an)) if v})
        inferred.update({k: v for k, v in counts.items() if k in own})
    return inferred


def _wave_grid(an: Analysis, shape: tuple, bm: int, bn: int, waves: int):
    """The waves (M, N) the kernel tiles its ``bm x bn`` tile with: the MMA rows of a wave
    are its accumulators' distinct A operands (the reads they come from), its columns the
    distinct B operands; None when the tile is no whole grid of such waves tiles (the
    geometry's default grid then stands, and its checks say what does not fit)."""
    rows: dict = {}
    cols: dict = {}
    for m in an.mfmas:
        rows[m.acc] = rows.get(m.acc, frozenset()) | m.a_reads
        cols[m.acc] = cols.get(m.acc, frozenset()) | m.b_reads
    num_m, num_n = len(set(rows.values())), len(set(cols.values()))
    wm, wn = num_m * shape[0], num_n * shape[1]
    if not (wm and wn) or bm % wm or bn % wn or (bm // wm) * (bn // wn) != waves:
        return None
    return bm // wm, bn // wn


def _ping_pong_dtype(scan: LoopScan, schedule, dtype: str, shape: tuple) -> dict:
    """``dtype`` and ``is_fp8`` of a ping-pong schedule for a loop of ``shape`` MFMAs
    multiplying ``dtype`` (the schedule has a geometry for each element type the front end
    knows, ``PING_PONG_DTYPES``): that geometry, whose MFMA must be the loop's: the dtype's
    own, or one of its 32x32 MFMAs (``mfma``; every dtype of ``PING_PONG_DTYPES`` has one);
    another shape, or a dtype with no ping-pong geometry (f32), is refused at the first MFMA,
    not given the geometry's."""
    mf = scan.mfmas[0]
    if dtype not in PING_PONG_DTYPES:
        raise IRError(mf, f"'{mf.name}' op multiplies {dtype}; the '{schedule.name}' schedule "
                          f"has geometries of {', '.join(PING_PONG_DTYPES)} (the 4-wave one "
                          f"takes {dtype}: --pipeline=4wave)")
    out = {"dtype": dtype, "is_fp8": dtype == "fp8"}
    if shape == mfma_shape(dtype):
        return out
    named = "x".join(map(str, shape))
    others = [s for s in MFMA_SHAPES[1:] if _takes(dtype, s)]
    if named in others and "mfma" in type(schedule).options():
        return {**out, "mfma": named}
    want = "x".join(map(str, mfma_shape(dtype)))
    raise IRError(mf, f"'{mf.name}' op is a {named} MFMA; the '{schedule.name}' schedule's "
                      f"{dtype} geometry issues {want} MFMAs or (mfma=) {', '.join(others)}")


def _takes(dtype: str, mfma: str) -> bool:
    """Whether ``mfma`` (an ``MFMA_SHAPES`` name) is an MFMA of ``dtype``'s operands."""
    try:
        mfma_shape(dtype, mfma)
    except ConfigError:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# the LDS buffers of the schedule's loop
# ---------------------------------------------------------------------------------------------

@dataclass
class BufferLayout:
    """How one LDS buffer of the natural loop is stored in the schedule's loop."""

    channel: int
    subtiles: tuple
    bit: int | None                # element bit deleted to store each subtile densely
    new: dict = field(default_factory=dict)   # (subtile, stage) -> new buffer value
    elements: int = 0              # elements per new buffer
    elem_type: object = None
    reswizzle: tuple | None = None  # XOR swizzle of the new buffers (the front end's copies)
    windows: dict = field(default_factory=dict)  # subtile -> (period, first, width) kept
    kbits: tuple = ()              # element bits deleted: the K sub-step's (frontend/ksplit.py)
    #                                and padding rows' (frontend/unread_bits.py)
    unswizzle: tuple | None = None  # undone before ``bit`` is deleted (frontend/k_subtiles.py)

    def elements_of(self, subtile: int) -> int:
        """Elements of the new buffer of ``subtile`` (its window's, if it keeps one)."""
        if subtile not in self.windows:
            return self.elements
        period, _first, width = self.windows[subtile]
        return self.elements // period * width


#: a subtile's window starts on a whole row of LDS banks, so its bank mapping is kept
_WINDOW_ALIGN = gfx950.LDS_BANKS * 4


def subtile_windows(by_sub: dict, size: int, elem_bytes: int) -> dict:
    """{subtile: (period, first, width)} of a ``size``-element buffer whose
    subtiles no element bit tells apart: in every ``period`` elements of the buffer a
    subtile touches only the ``width`` elements from ``first`` on, taken cyclically (past
    the period's end they go on at its start), and keeps just those (element ``e`` ->
    ``e // period * width + (e % period - first) mod period``: :func:`window_index`).
    Periods, firsts and widths are whole rows of LDS banks, so the bank of every element
    is kept; the period that stores the fewest elements in all wins, and {} if none saves
    anything.  A subtile of the outer rows of a period (IREE's 4-wave B tile read by its
    16-row fragments 0 and 3 of 4, the other subtile by 1 and 2) keeps a window that wraps.
    ``BufferLayout.elements`` stays the whole buffer's size: each subtile's own is
    :meth:`BufferLayout.elements_of`."""
    align = max(1, _WINDOW_ALIGN // elem_bytes)
    best, windows = size * len(by_sub), {}
    # each subtile's distinct blocks of ``align`` elements, sorted once: a period's blocks
    # are theirs modulo the period (``e % period // align``, for ``period`` a multiple of
    # ``align``), marked in a table of the period's blocks instead of sorted again
    touched = {sub: distinct(np.concatenate([e.ravel() for e in els]) // align)
               for sub, els in by_sub.items()}
    for period in range(align, size + 1, align):
        if size % period:
            continue
        win, total = {}, 0
        for sub, blocks in touched.items():
            n = period // align
            first, width = _cyclic_window(np.flatnonzero(np.bincount(blocks % n, minlength=n)),
                                          n)
            win[sub] = (period, first * align, width * align)
            total += size // period * width * align
        if total < best and all(_seamless(by_sub[sub], *w) for sub, w in win.items()):
            best, windows = total, win
    return windows


def _seamless(accesses: list, period: int, first: int, width: int) -> bool:
    """No access of ``accesses`` (arrays whose last axis is one access's elements) is cut
    by the window's seam: elements one apart in the buffer stay one apart in the window
    (the rewrite moves an access's first element only).  A window that does not wrap has
    its seam at a period's end, which no access of it crosses (:func:`_cyclic_window` then
    keeps the whole period); one that wraps has it inside the touched range."""
    if first + width <= period:
        return True
    for e in accesses:
        e = np.asarray(e)
        if e.ndim == 0 or e.shape[-1] < 2:
            continue
        step = np.diff(e, axis=-1) == 1
        moved = np.diff(window_index(e, period, first, width), axis=-1)
        if np.any(moved[step] != 1):
            return False
    return True


def _cyclic_window(blocks: np.ndarray, n: int) -> tuple[int, int]:
    """(first, width) in blocks of the shortest cyclic run of ``n`` blocks holding every
    one of ``blocks`` (sorted, distinct): it starts after the widest gap between two
    touched blocks (the one from the last back round to the first included); a run that
    need not wrap starts at the first touched block."""
    gaps = np.diff(np.append(blocks, blocks[0] + n))       # from each block to the next
    wide = int(np.argmax(gaps[::-1]))                      # the last of the widest wins
    end = len(blocks) - 1 - wide                           # the gap after block ``end``
    first = int(blocks[(end + 1) % len(blocks)])
    return first, n - int(gaps[end]) + 1


def window_index(x, period: int, first: int, width: int):
    """Element ``x`` (an integer or numpy array) of a buffer in its subtile's window
    (:func:`subtile_windows`)."""
    return x // period * width + (x % period - first) % period


def layout_buffers(an: Analysis, check: bool = True) -> dict:
    """{buffer id: BufferLayout} of every LDS buffer of the loop: one operand's data, used
    only by the loop (and its remainder: :func:`~pipeline_mlir.frontend.lds_extent.
    loop_lds_outside`, before the analysis); two subtiles are stored densely when an
    element bit tells them apart (``loop_model.compaction_bit``).  Two stages of all of
    them must fit in LDS."""
    p = an.partition
    planned = {pl.buffer: pl for pl in getattr(p, "plans", {}).values()}
    out = {}
    for b, root in enumerate(an.buffers):
        chans = {p.copy_channel[i] for i, c in enumerate(an.copies) if c.buffer == b} | \
                {p.read_channel[i] for i, r in enumerate(an.reads) if r.buffer == b}
        where = next(an.ops[c.op] for c in an.copies if c.buffer == b) \
            if any(c.buffer == b for c in an.copies) else an.scan.loop
        if len(chans) != 1:
            raise IRError(where, f"'{where.name}' op: one LDS buffer holds both A and B data; the "
                                 f"front end multi-buffers one buffer per operand")
        by_sub: dict = {}
        for i, c in enumerate(an.copies):
            if c.buffer == b:
                by_sub.setdefault(p.copy_subtile[i], []).append(c.lds)
        for i, r in enumerate(an.reads):
            if r.buffer == b:
                by_sub.setdefault(p.read_subtile[i], []).append(r.lds)
        mt = ir.MemRefType(root.type)
        size = int(np.prod(mt.shape))
        bit = None
        plan = planned.get(b)
        if plan is not None:  # the front end's own copies: the bit it chose
            bit = plan.bit
        elif len(by_sub) == 2:
            bit = LM.compaction_bit(by_sub, size, 0)
        windows = subtile_windows(by_sub, size, an.buffer_views[b].elem_bytes) \
            if bit is None and plan is None else {}
        kbits = plan.deleted if plan is not None else ()    # (padding rows' bits too)
        out[b] = BufferLayout(chans.pop(), tuple(sorted(by_sub)), bit,
                              elements=((size // 2 if bit is not None and not
                                         (plan is not None and plan.whole) else size)
                                        >> len(kbits)) + (plan.padding if plan else 0),
                              elem_type=mt.element_type,
                              reswizzle=plan.reswizzle if plan is not None else None,
                              windows=windows, kbits=kbits,
                              unswizzle=plan.swizzle if plan is not None and plan.unswizzled
                              else None)
    total, other = stage_bytes(an, out, mark=check)
    if check and total + other > gfx950.LDS_BYTES:
        raise IRError(an.scan.loop, f"'scf.for' op: {lds_refusal(total, other)}")
    return out


def lds_refusal(total: int, other: int) -> str:
    """Why a loop whose schedule's buffers need ``total`` bytes beside ``other`` bytes of
    the kernel's own LDS is refused."""
    besides = (f" and the kernel's other LDS buffers (a remainder loop's own, the K tiles "
               f"after the pipelined loop) {other} more" if other else "")
    return (f"the schedule's LDS buffers (two stages of every subtile) need {total} "
            f"bytes{besides}, more than the {gfx950.LDS_BYTES} bytes of LDS a {gfx950.NAME} "
            f"workgroup can have")


def stage_bytes(an: Analysis, layouts: dict, mark: bool = False) -> tuple[int, int]:
    """(bytes of two stages of every new buffer of ``layouts``, bytes of the kernel's
    other LDS allocations that stay beside them: a masked remainder's own buffers that do
    not fit go onto the schedule's, marked so when ``mark``)."""
    total = sum(2 * buf.elements_of(sub) * an.buffer_views[b].elem_bytes
                for b, buf in layouts.items() for sub in buf.subtiles)
    other = other_lds(an.scan.loop, an.buffers)
    return total, plan_remainder_lds(an.scan.loop, total, other, mark=mark)

