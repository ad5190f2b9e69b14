"""A run the front end copies in pieces narrower than a dword starts on a dword boundary.

A buffer access of 4 bytes or more is range-checked per dword: a dword that is not wholly
inside the buffer's records reads 0 in all its bytes (the CDNA3/CDNA4 ISA; the emulator's
:mod:`~pipeline_mlir.emu.memops`).  A copy of 1- or 2-byte pieces is range-checked per
piece.  Where the front end copies a lane's run of 4 bytes or more in narrower pieces
(:mod:`~pipeline_mlir.frontend.partial_copy`'s spread of a copy by part of the workgroup,
2-byte halves of a ``vector<2xf16>`` run), its proofs judge the run element by element:
each element its own data inside the buffer, zero past its end.  That is what the
kernel's copy reads only where no dword of the run straddles the buffer's end, which
holds when the run starts on a dword boundary of its buffer and the buffer is whole
dwords.  A run that starts one 2-byte element off (``pc17`` mutant 0, finding 84 of
``docs/iree-audits.md``) whose last dword crosses the end reads zero in both halves from
the kernel's copy, and its in-range half from the pieces.

:func:`dword_refusal` proves both for a copy's source and indices, in every workgroup, K
step and launch, without evaluating them: the run's first element, in elements of its
buffer from the buffer's start, is the indices times the views' static strides plus each
view's offsets times its source's (``memref.subview``; a static offset of a view's type
ends the chain), and each term's low zero bits are
:func:`~pipeline_mlir.analysis.twos.low_zeros`' (constants, sums, products, remainders,
``affine`` maps and (de)linearizations, a loop's induction variable), a value of the
thread ids and constants alone evaluated in every thread of the workgroup
(:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`, thread-only).  The buffer's records
are its static extent's bytes (or its ``validBytes``, proven whole dwords the same way).  A
source that is not range-checked (no ``amdgpu.fat_raw_buffer_cast``, or one with
``boundsCheck(false)``) reads past its end what memory holds there, element by element
whatever the width: nothing to prove.  Otherwise the reason is returned for the caller to
refuse the op with.

:func:`start_zeros` gives the low zero bits of a start's byte offset by the same terms, for
:mod:`~pipeline_mlir.frontend.regcopy`, which makes a copy through registers a direct-to-LDS
copy only where its global address is proven a multiple of the bytes that copy moves (a
stride known only at launch counted by a proven divisor its caller gives), and
:func:`base_zeros` those of the buffer's start it counts from, as the kernel states them.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, attr_names, dense_i64, element_bytes,
                                             enclosing_ops, segments)
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.twos import ALL, DEPTH, low_zeros, zeros_of
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_changes import forget_on_change
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import bounds_checked, describe, fat_root, owner
from pipeline_mlir.frontend.marks import STAGED

__all__ = ["DWORD", "base_zeros", "dword_refusal", "implied_base_zeros", "pieces_note",
           "regrouped_refusal", "shared_starts", "start_terms", "start_zeros", "static_strides",
           "unaligned_refusal"]

#: the bytes a buffer access is range-checked by
DWORD = 4
#: views that keep their source's offset
_SAME_OFFSET = ("memref.assume_alignment", "memref.memory_space_cast", "memref.cast",
                "amdgpu.fat_raw_buffer_cast", "iree_codegen.swizzle_hint",
                "memref.expand_shape", "memref.collapse_shape")


def static_strides(m) -> list | None:
    """The strides of the memref value ``m``'s type, None if one is dynamic."""
    strides, _ = ir.MemRefType(m.type).get_strides_and_offset()
    return None if DYNAMIC in strides else list(strides)


def start_terms(src, indices: list, strides_of=static_strides) -> list | None:
    """The terms ``(value or int, stride)`` whose sum is the element ``src[indices]`` is in
    its root buffer (module docstring); None where a view's strides are not known or a view
    is not one of those followed.  ``strides_of``: a memref value's strides in elements, or
    None (:func:`static_strides`; a caller that knows a proven divisor of a dynamic stride
    may give it instead, the term's low zero bits then a lower bound as well)."""
    strides = strides_of(src)
    if strides is None:
        return None
    terms = list(zip(indices, strides))
    m = src
    while True:
        t = ir.MemRefType(m.type)
        _, offset = t.get_strides_and_offset()
        if offset != DYNAMIC:
            return terms + [(offset, 1)]
        if isinstance(m.owner, ir.Block):
            return None
        op = _op(m.owner)
        if op.name == "memref.subview":
            base = strides_of(op.operands[0])
            if base is None:
                return None
            dyn = iter(segments(op)[1])
            terms += [(next(dyn) if o == DYNAMIC else o, s)
                      for o, s in zip(dense_i64(op, "static_offsets"), base)]
        elif op.name == "memref.reinterpret_cast":
            so = dense_i64(op, "static_offsets")[0]
            return terms + [(segments(op)[1][0] if so == DYNAMIC else so, 1)]
        elif op.name not in _SAME_OFFSET:
            return None
        m = op.operands[0]


def _thread_zeros(block: tuple, iv=None):
    """``exact`` for :func:`~pipeline_mlir.analysis.twos.low_zeros`: the low zero bits every
    thread's value has, for a value of the thread ids and constants alone (``iv``, a
    per-thread loop's variable, taken at its lower bound: the one value it has where the
    loop runs once, as the callers' loops do)."""
    ev = Evaluator(block, thread_only=True)
    if iv is not None:
        try:
            ev.bind(iv, ev.value(_op(iv.owner.owner).operands[0]))
        except IRError:
            pass

    def exact(v) -> int | None:
        if not isinstance(v.type, (ir.IndexType, ir.IntegerType)):
            return None
        try:
            x = ev.value(v)
        except IRError:             # (not of the thread ids and constants alone)
            return None
        return zeros_of(int(np.bitwise_or.reduce(np.asarray(x, dtype=np.int64).ravel())))
    return exact


def _term_zeros(value, stride: int, exact, memo: dict) -> int:
    z = zeros_of(value) if isinstance(value, int) else low_zeros(value, memo=memo, exact=exact)
    return min(ALL, z + zeros_of(stride))


def dword_refusal(src, indices: list, block: tuple, run_bytes: int, note: str,
                  iv=None) -> str | None:
    """Why each lane's run of ``run_bytes`` read from ``src[indices]`` (a workgroup of
    ``block`` threads; ``iv``: the variable of a per-thread loop around it that each thread
    runs once from its lower bound, or None) is not proven to start on a dword boundary of
    a buffer of whole dwords in every workgroup and K step (module docstring; ``note``: why
    it must, said in the reason); None when it is, or when ``src`` is not range-checked."""
    if not bounds_checked(src):
        return None
    need = zeros_of(DWORD)
    exact, memo = _thread_zeros(block, iv), {}
    what = (f"each lane's {run_bytes}-byte run starts on a {DWORD}-byte boundary of a "
            f"buffer of whole dwords in every workgroup and K step ({note})")
    size = _records_zeros(fat_root(src), exact, memo)
    if size is None or size < need:
        return (f"where {what}: its buffer ({fat_root(src).type}) is "
                f"{'not of a static size' if size is None else 'not whole dwords'}, so a "
                f"dword of a run may straddle its end")
    start = _start_zeros(src, indices, exact, memo)
    if start is None:
        return (f"where {what}: its views ({src.type}) are not followed to the buffer "
                f"(static strides, subviews, reshapes and casts)")
    got, (v, stride) = start
    if got >= need:
        return None
    part = (f"the constant offset {v}" if isinstance(v, int) else
            f"{_source_of(v)} times the stride {stride}")
    return (f"where {what}: a run that starts off a {DWORD}-byte boundary is not excluded "
            f"({part} is a multiple of {2 ** min(got, 62)} byte(s) only)")


def start_zeros(src, indices: list, block: tuple, strides_of=static_strides) -> tuple | None:
    """``(z, term)``: ``2**z`` divides the byte offset of ``src[indices]`` from its root
    buffer's start in every workgroup, K step and launch (a workgroup of ``block``
    threads; the terms of :func:`start_terms`, each one's low zero bits as
    :func:`dword_refusal` takes them, ``strides_of`` as there), and the term ``(value or
    int, stride)`` that bounds it; None where the views are not followed to the buffer.
    Within :func:`shared_starts`, the zeros of each value are worked out once while the
    IR stays (:class:`_Starts`)."""
    terms = start_terms(src, indices, strides_of)
    if terms is None:
        return None
    table = _SHARED_STARTS[-1] if _SHARED_STARTS else None
    if table is not None and all(isinstance(v, int) or table.height(v) < DEPTH
                                 for v, _ in terms):
        return _terms_zeros(src, terms, *table.of_block(tuple(block)))
    return _terms_zeros(src, terms, _thread_zeros(block), {})


class _Starts(dict):
    """What :func:`start_zeros` shares within :func:`shared_starts`: per workgroup shape,
    the ``exact`` of :func:`_thread_zeros` and a memo of
    :func:`~pipeline_mlir.analysis.twos.low_zeros`; per value the height of its chain
    (:meth:`height`).  A memo shared by calls gives what each call's own would only where
    no chain is followed to ``low_zeros``' depth (its answer below that depth depends on
    the path it was reached by): a start whose every term's chain is shorter
    (:func:`start_zeros`) takes it, any other its own as before.  Forgotten at every
    change of the IR an evaluator is told of (told itself); an op made meanwhile changes
    no answer (a value's chain is made before the value; only an erasure frees a handle a
    new op may take)."""

    def of_block(self, block: tuple) -> tuple:
        key = ("block", block)
        if key not in self:
            self[key] = (_thread_zeros(block), {})
        return self[key]

    def height(self, v) -> int:
        """The longest chain of operands below value ``v`` (a block argument's: its op's
        operands; an induction variable's bounds and step among them), up to
        :data:`~pipeline_mlir.analysis.twos.DEPTH`: a bound on how deep ``low_zeros``
        follows it; ``DEPTH`` for a chain through a cycle."""
        heights = self.setdefault("heights", {})
        todo = [v]
        while todo:
            x = todo[-1]
            if heights.get(x, -1) >= 0:
                todo.pop()
                continue
            below = _operands_below(x)
            if x not in heights:
                heights[x] = -1             # (in progress: met again, a cycle)
                todo += [y for y in below if y not in heights]
                continue
            todo.pop()
            hs = [heights.get(y, DEPTH) for y in below]
            heights[x] = min(DEPTH, 1 + max((DEPTH if h < 0 else h for h in hs), default=-1))
        return heights[v]

    def forget_ops(self, _ops) -> None:
        self.clear()

    forget_uses = forget_attributes = forget_all = forget_ops


def _operands_below(x) -> list:
    """The values ``low_zeros`` may follow from ``x``: its op's operands, or a block
    argument's op's (none for a block of no op)."""
    owner = x.owner
    if isinstance(owner, ir.Block):
        parent = owner.owner
        return [] if parent is None else list(_op(parent).operands)
    return list(_op(owner).operands)


#: the tables of the :func:`shared_starts` scopes entered
_SHARED_STARTS: list[_Starts] = []


@contextmanager
def shared_starts():
    """Within it, :func:`start_zeros` works out the zeros of each value once while the IR
    stays as it is: the front end's own copies of a channel ask it of each copy they emit
    (``layout.Emitter``), whose indices share the kernel's copy's chain."""
    table = _Starts()
    forget_on_change(table)
    _SHARED_STARTS.append(table)
    try:
        yield
    finally:
        _SHARED_STARTS.pop()


def _start_zeros(src, indices: list, exact, memo: dict,
                 strides_of=static_strides) -> tuple | None:
    terms = start_terms(src, indices, strides_of)
    if terms is None:
        return None
    return _terms_zeros(src, terms, exact, memo)


def _terms_zeros(src, terms: list, exact, memo: dict) -> tuple:
    weakest = min(terms, key=lambda t: _term_zeros(t[0], t[1], exact, memo))
    got = _term_zeros(weakest[0], weakest[1], exact, memo)
    return min(ALL, got + zeros_of(element_bytes(ir.MemRefType(src.type)))), weakest


def implied_base_zeros(runs: list, block: tuple, strides_of=static_strides) -> int:
    """The low zero bits of a buffer's start that the input kernel's own direct-to-LDS
    copies from it imply: ``runs`` are ``(op, source, indices, bytes a lane)`` of its copies
    of that buffer (as :func:`regrouped_refusal` takes them); one that is an
    ``amdgpu.gather_to_lds`` the front end has not marked register-staged, under no
    ``scf.if``, of ``W`` bytes a lane whose offset from the start is proven a multiple of
    ``W`` in every workgroup, K step and launch (:func:`start_zeros`) needs the start a
    multiple of ``W`` as well, or the input itself is wrong on the hardware: a kernel that
    states nothing of its buffer (a function argument, Wave's ``stream.binding.subspan``)
    states that much by copying so.  Register copies imply nothing (a global load takes
    any address)."""
    got = 0
    for op, src, indices, nbytes in runs:
        op = _op(op)
        if op.name != "amdgpu.gather_to_lds" or STAGED in attr_names(op) or \
                any(o.name == "scf.if" for o in enclosing_ops(op)):
            continue
        start = start_zeros(src, indices, block, strides_of)
        if start is not None and start[0] >= zeros_of(nbytes):
            got = max(got, zeros_of(nbytes))
    return got


def unaligned_refusal(src, indices: list, block: tuple, run_bytes: int,
                      strides_of=static_strides, implied: int = 0) -> str | None:
    """Why a direct-to-LDS copy of ``run_bytes`` a lane from ``src[indices]`` (a workgroup
    of ``block`` threads) is not proven to start at a multiple of ``run_bytes`` of memory
    in every workgroup, K step and launch: the byte offset from its buffer's start
    (:func:`start_zeros`, ``strides_of`` as there) and that start as the kernel states it
    (:func:`base_zeros`, or ``implied`` by the kernel's own copies where more:
    :func:`implied_base_zeros`); None when both are (the front end's own copies,
    ``layout.Emitter``, finding 95 of ``docs/iree-audits.md``)."""
    need = zeros_of(run_bytes)
    start = start_zeros(src, indices, block, strides_of)
    base = max(base_zeros(src), implied)
    if start is not None and start[0] >= need and base >= need:
        return None
    if start is None:
        why = (f"its views ({src.type}) are not followed to the buffer (strides, subviews, "
               f"reshapes and casts)")
    elif start[0] < need:
        v, stride = start[1]
        part = (f"the constant offset {v}" if isinstance(v, int) else
                f"{_source_of(v)} times the stride {stride}")
        why = f"{part} is a multiple of {2 ** min(start[0], 62)} byte(s) only"
    else:
        why = (f"its buffer's start is stated (or implied by the kernel's own direct-to-LDS "
               f"copies) a multiple of {2 ** min(base, 62)} byte(s) only")
    return (f"a direct-to-LDS copy of {run_bytes} bytes a lane needs each lane's start a "
            f"multiple of {run_bytes} bytes in every workgroup, K step and launch, and "
            f"{why}")


#: views whose descriptor keeps its source's aligned pointer (the buffer's start)
_SAME_BASE = _SAME_OFFSET + ("memref.subview", "memref.reinterpret_cast")


def base_zeros(m) -> int:
    """The low zero bits of the start of the buffer the memref value ``m`` views (its
    descriptor's aligned pointer, from which :func:`start_zeros` counts), as the kernel
    states them: an IREE binding's ``alignment`` with its byte ``offset``, a
    ``memref.assume_alignment`` of a memref at offset 0, followed through views that keep
    their source's start and an ``amdgpu.fat_raw_buffer_cast`` that resets the offset into
    it (a static offset); 0 where nothing states it (a function argument, an allocation)."""
    if isinstance(m.owner, ir.Block):
        return 0
    op = _op(m.owner)
    _, offset = ir.MemRefType(m.type).get_strides_and_offset()
    if op.name == "hal.interface.binding.subspan":
        at = op.attributes["alignment"] if "alignment" in attr_names(op) else None
        if at is None or offset != 0:
            return 0
        where = segments(op)[0]
        return min(zeros_of(ir.IntegerAttr(at).value),
                   low_zeros(where[0]) if where else ALL)
    if op.name == "memref.assume_alignment":
        stated = zeros_of(ir.IntegerAttr(op.attributes["alignment"]).value) \
            if offset == 0 else 0
        return max(stated, base_zeros(op.operands[0]))
    if op.name == "amdgpu.fat_raw_buffer_cast" and "resetOffset" in attr_names(op):
        t = ir.MemRefType(op.operands[0].type)
        _, off = t.get_strides_and_offset()
        return 0 if off == DYNAMIC else min(base_zeros(op.operands[0]),
                                            zeros_of(off * element_bytes(t)))
    return base_zeros(op.operands[0]) if op.name in _SAME_BASE else 0


def _source_of(v) -> str:
    if isinstance(v.owner, ir.Block):
        return f"a block argument ({v.type})"
    return f"the value of {describe(_op(v.owner))}"


def _records_zeros(cast_value, exact, memo: dict) -> int | None:
    """The low zero bits of the records of the fat raw buffer ``cast_value`` (bytes): its
    ``validBytes``, else its memref's largest extent ``max(size_i * stride_i)`` in bytes (as
    the cast lowers, ``sched-unmask-loads``' records); None where neither is known."""
    cast = owner(cast_value, "amdgpu.fat_raw_buffer_cast")
    if cast is None:
        return None
    if "operandSegmentSizes" in cast.attributes and segments(cast)[1]:
        return low_zeros(segments(cast)[1][0], memo=memo, exact=exact)
    t = ir.MemRefType(cast_value.type)
    strides, _ = t.get_strides_and_offset()
    if not t.has_static_shape or any(s == DYNAMIC for s in strides):
        return None
    return zeros_of(max((n * s for n, s in zip(t.shape, strides)), default=1) *
                    element_bytes(t))


def pieces_note(piece_bytes: int) -> str:
    """Why a run copied in pieces of ``piece_bytes`` must start on a dword boundary."""
    return (f"its {piece_bytes}-byte pieces are range-checked one by one, the copy's dwords "
            f"whole")


def regrouped_refusal(kernel: list, src, indices: list, block: tuple,
                      run_bytes: int) -> tuple | None:
    """(the op, why) where the front end's own copy of a channel, each lane's run of
    ``run_bytes`` read from ``src[indices]``, and the kernel's copies of the channel
    (``kernel``: (op, source, indices, run bytes) each) split the buffer into range-checked
    parts differently and the runs of the wider are not proven to start on dwords
    (:func:`dword_refusal`): the front end's where a kernel's copy moves fewer than 4 bytes
    a lane and its own 4 or more, a kernel's copy where it moves 4 or more and the front
    end's fewer; None otherwise (both 4 or more: dwords of the same runs, each lane of
    either starting a whole number of dwords into a run of the other's; both fewer: each
    element on its own)."""
    narrow = [k for k in kernel if k[3] < DWORD]
    if run_bytes >= DWORD and narrow:
        why = dword_refusal(src, indices, block, run_bytes, (
            f"the front end's own copies read it {run_bytes} bytes a lane, each dword "
            f"range-checked whole, where the kernel's copies read {narrow[0][3]} bytes a "
            f"lane, range-checked one by one"))
        return None if why is None else (narrow[0][0], why)
    if run_bytes < DWORD:
        for op, ksrc, kidx, kbytes in kernel:
            if kbytes >= DWORD:
                why = dword_refusal(ksrc, kidx, block, kbytes, (
                    f"the front end's own copies read it {run_bytes} bytes a lane, "
                    f"range-checked one by one, where the kernel's copy reads {kbytes}, "
                    f"each dword range-checked whole"))
                if why is not None:
                    return op, why
    return None
