"""A copy of the K-loop's tile that only some threads of the workgroup run, spread over all.

IREE copies a tile smaller than the workgroup's threads by part of them: the prefetch point
under ``scf.if %tid < n``, the late form in a per-thread loop ``scf.for %j = %tid to n step
S`` that threads ``0`` to ``n - 1`` run once and the others never (f16 ``A x B^T``
100x17x520: B's 32x8 tile, 4 bytes a lane, by threads 0 to 127 of 256).  The schedule
issues each of a channel's copies in every wave, so :func:`spread_copy` makes the same LDS
bytes a copy of every thread, from both forms alike, before the tail is cut off (the
remainder loop's copies too): with ``f = S / n``, thread ``t'`` copies piece ``t' mod f``
(``w / f`` of the ``w`` elements) of what thread ``t' div f`` copied, to the same LDS
elements.  The copy's side-effect free ops are cloned with the thread id (or the per-thread
loop's variable) taken at ``t' div f``; the source's innermost index moves by the piece,
and the LDS element is the one the copy's lane wrote (a direct-to-LDS copy writes its
wave's lanes in order from one wave-uniform index) plus the piece.  The spread copy is a
copy through registers (a ``vector.load`` and a ``vector.store`` of ``w / f`` elements),
which :mod:`~pipeline_mlir.frontend.regcopy` takes as any other: a direct-to-LDS copy where
the piece is 4 or 16 bytes, else (2 bytes, the 100x17x520's) a narrow copy that only the
front end's own copies of its channel (:mod:`~pipeline_mlir.frontend.layout`, 4 or 16
bytes a lane) replace in the loop to pipeline, and a remainder loop runs as written.

Taken only where the front end can tell, for every thread, which elements it copies: the
times each thread runs the region are evaluated per thread from thread ids and constants
(a guard of the workgroup, a launch value or the K step is not, and stays refused); they
are 1 in threads ``0`` to ``n - 1`` and 0 in the rest, ``n`` a whole fraction ``1/f`` of
the workgroup with ``f`` dividing the wave and the copy's elements; the region holds one
``amdgpu.gather_to_lds`` and pure ops, none of a thread id but ``gpu.thread_id x``; its LDS
index is the same in every running lane of a wave; where the pieces are not whole dwords
(2-byte halves of a 4-byte run), each lane's run starts on a dword of a buffer of whole
dwords in every workgroup and K step (:func:`~pipeline_mlir.frontend.dword_runs.
dword_refusal`: a dword straddling a range-checked buffer's end reads zeros whole, a piece
of it its own element).  The new copy is then checked against
the old on every thread (the per-lane evaluator: each piece's source and LDS element the
old copy's), so that what is emitted, not its derivation, is what is proven.  Otherwise
the op is refused (:func:`partial_copy_refusal`), naming it, the copy, the threads that
run it and why it is not spread.  Whether the spread copies fill the tile the MFMAs read
is the partition's (a guard that drops elements: ``channel B's copies do not fill its LDS
buffer``).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.ir_facts import (THREAD_ID_OPS, block_size, element_bytes, segments,
                                             transfer)
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, index_constant, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import (depends, describe, in_lds, in_space, is_pure,
                                              kernel_of, same_attributes)
from pipeline_mlir.frontend.dword_runs import DWORD, dword_refusal, pieces_note
from pipeline_mlir.frontend.guarded_pairs import fuse_staged_guards
from pipeline_mlir.frontend.index_ops import arith_op as _arith
from pipeline_mlir.frontend.partial_elements import (element_copy, first_step_evaluator,
                                                     spread_elements)
from pipeline_mlir.target.gfx950 import WAVE_SIZE

__all__ = ["lds_copy", "partial_copy_refusal", "spread_copy", "spread_guarded_copies"]

#: the ops that write a tile's LDS in a copy, and the operand that is the LDS memref
LDS_WRITES = {"amdgpu.gather_to_lds": None, "vector.store": 1, "vector.transfer_write": 1,
              "memref.store": 1, "memref.copy": 1}
GATHER = "amdgpu.gather_to_lds"
#: where a copy is spread, said in a refusal that does not say which condition fails
WHERE = ("where its guard is of the thread id alone, threads 0 to n - 1 running it once, n a "
         "whole fraction of the workgroup")


def lds_copy(op):
    """The first op in ``op``'s regions that writes LDS (a copy's write), or None."""
    found = walk_ops(op, lambda o: o.name in LDS_WRITES and (
        LDS_WRITES[o.name] is None or in_lds(o.operands[LDS_WRITES[o.name]])))
    return found[0] if found else None


def partial(runs: np.ndarray) -> bool:
    """``runs`` (the times each thread runs a region) is 0 in some threads and not all."""
    return bool(runs.any() and not runs.all())


def partial_copy_refusal(op, runs: np.ndarray, why: str = "") -> str | None:
    """Why ``op`` (an ``scf.if`` or a per-thread ``scf.for`` in the K-loop) is refused when
    its region copies into LDS and ``runs`` (the times each thread of the workgroup runs it)
    is 0 in some threads and not in others (``why``: why it is not spread); else None."""
    copy = lds_copy(op)
    if copy is None or not partial(runs):
        return None
    some = int(np.count_nonzero(runs))
    a, b = int(np.flatnonzero(runs)[0]), int(np.flatnonzero(runs == 0)[0])
    return (f"{describe(op)} runs the tile's copy {describe(copy)} in {some} of the "
            f"workgroup's {len(runs)} threads (thread {a}: {int(runs[a])} time(s), thread "
            f"{b}: {int(runs[b])}): a copy made by part of the workgroup, which the front end "
            f"spreads over every thread only {why or WHERE}")


def spread_guarded_copies(loop) -> int:
    """Spread every ``scf.if`` with no results directly in ``loop``'s body whose condition,
    of thread ids and constants alone, holds in part of the workgroup and whose region
    copies into LDS (:func:`spread_copy`); returns how many.  Any other ``scf.if`` is left
    to the scan."""
    bs = block_size(kernel_of(loop))
    if bs is None:
        return 0
    fuse_staged_guards(loop)        # (a copy staged through private memory: one guard)
    count = 0
    for o in [_op(x) for x in loop.regions[0].blocks[0].operations]:
        if o.name != "scf.if" or len(o.results) or lds_copy(o) is None:
            continue
        try:
            runs = (Evaluator(bs, thread_only=True).value(o.operands[0]) != 0)
        except IRError:             # (Unevaluable: not of the threads alone)
            continue
        runs = runs.astype(np.int64)
        if not partial(runs):
            continue
        if bs[1] * bs[2] != 1:      # (thread id x is the thread's index in one dimension)
            raise IRError(o, partial_copy_refusal(o, runs, f"in a workgroup of one "
                                                           f"dimension, not "
                                                           f"{'x'.join(map(str, bs))}"))
        if len(o.regions) > 1 and len(o.regions[1].blocks) and \
                len(list(o.regions[1].blocks[0].operations)) > 1:
            raise IRError(o, partial_copy_refusal(o, runs, "when the guard has no else ops"))
        spread_copy(o, runs, None, loop)
        count += 1
    return count


def spread_copy(op, runs: np.ndarray, iv, loop) -> None:
    """``op`` (an ``scf.if``, or a per-thread ``scf.for`` of variable ``iv`` whose lower
    bound is the thread id) whose region runs ``runs`` times in each thread, replaced by
    the same copy spread over every thread of the workgroup (module docstring); an
    ``IRError`` at ``op`` saying why it is not.  ``loop``: the K-loop."""
    threads = len(runs)

    def refuse(why: str):
        return IRError(op, partial_copy_refusal(op, runs, why))

    n = int(np.count_nonzero(runs))
    if not (np.array_equal(np.flatnonzero(runs), np.arange(n)) and runs.max() == 1):
        raise refuse("where threads 0 to n - 1 run it once and the others never")
    if threads % n or WAVE_SIZE % (threads // n):
        raise refuse(f"where n divides the workgroup's {threads} threads, {threads} / n a "
                     f"divisor of the wave's {WAVE_SIZE}")
    f = threads // n
    body = [_op(x) for x in op.regions[0].blocks[0].operations][:-1]
    copy = lds_copy(op)
    pairs = register_copies(body)
    one = element_copy(body) if len(pairs) <= 1 else None
    if one is not None:             # (one copy a thread: too few for f threads to share)
        spread_elements(op, body, one, runs, iv, loop, refuse, _thread_id(op, body, refuse),
                        _cloner)
        return
    if pairs:
        _spread_registers(op, body, pairs, runs, iv, loop, f, refuse)
        return
    if copy.name != GATHER or any(o is not copy and o != copy and not is_pure(o)
                                   for o in body):
        raise refuse(f"when its region is one '{GATHER}' and side-effect free ops, or "
                     f"copies through registers and side-effect free ops")
    tid = _thread_id(op, body, refuse)
    w = ir.VectorType(ir.TypeAttr(copy.attributes["transferType"]).value)
    width, elem = w.shape[0], w.element_type
    if width % f:
        raise refuse(f"where each lane's {width} elements split into the {f} pieces of "
                     f"{threads} / {n} threads")
    piece = width // f
    if piece * element_bytes(w) % DWORD:     # (pieces range-checked alone, not by dword)
        src = list(copy.operands)[:len(copy.operands) - 1 - _dst_rank(copy)]
        why = dword_refusal(src[0], src[1:], (threads, 1, 1), width * element_bytes(w),
                            pieces_note(piece * element_bytes(w)), iv)
        if why is not None:
            raise refuse(why)
    dst = ir.MemRefType(copy.operands[len(copy.operands) - 1 - _dst_rank(copy)].type)
    shape = list(dst.shape)
    if any(s < 0 for s in shape) or not _contiguous(dst) or dst.element_type != elem:
        raise refuse(f"where its LDS view is of static sizes, contiguous and of the copy's "
                     f"elements ({dst}, {w})")
    new = _emit(op, body, copy, tid, iv, f, piece, width, shape, elem, threads)
    _prove(op, copy, new, runs, iv, loop, f, piece, width, refuse)
    op.erase()


def _thread_id(op, body: list, refuse):
    """The ``gpu.thread_id x`` results the region's values are computed from (a set,
    maybe empty); a refusal for any other thread or lane id."""
    found = []

    def thread_value(v) -> bool:
        if isinstance(v.owner, ir.Block):
            return False
        o = _op(v.owner)
        if o.name in THREAD_ID_OPS:
            found.append(o)
        return False

    for o in body:
        for v in o.operands:
            depends(v, thread_value)
    for o in found:
        if o.name != "gpu.thread_id" or not str(o.attributes["dimension"]).endswith("x>"):
            raise refuse(f"when its region reads the thread id x alone, not {describe(o)}")
    ids = {o.results[0] for o in found}
    return ids


def _dst_rank(copy) -> int:
    """The LDS indices of ``amdgpu.gather_to_lds`` ``copy``."""
    seg = list(ir.DenseI32ArrayAttr(copy.attributes["operandSegmentSizes"]))
    return seg[3]


def _contiguous(t) -> bool:
    strides, _ = t.get_strides_and_offset()
    want, acc = [], 1
    for s in reversed(t.shape):
        want.append(acc)
        acc *= s
    return list(strides) == list(reversed(want))


def shares(t, f: int, block: int = 1) -> tuple:
    """(the copying thread, the share ``h``) thread ``t`` of the workgroup takes when ``f``
    threads share each copying thread's copies, in blocks of ``block`` threads: ``((t div
    f block) block + t mod block, (t div block) mod f)``; ``(t div f, t mod f)`` for
    ``block`` 1.  ``t`` an integer array, or an index value (the ops built at the
    insertion point)."""
    if isinstance(t, np.ndarray):
        return (t // (f * block)) * block + t % block, (t // block) % f
    if block == 1:
        return _arith("divui", t, index_constant(f)), _arith("remui", t, index_constant(f))
    return (_arith("addi", _arith("muli", _arith("divui", t, index_constant(f * block)),
                                  index_constant(block)), _arith("remui", t, index_constant(block))),
            _arith("remui", _arith("divui", t, index_constant(block)), index_constant(f)))


def _cloner(body, tids, iv, f: int, threads: int, block: int = 1, split=None):
    """(``get``, ``clone``, ``t``, ``h``), at the insertion point: ``t`` the copying thread
    and ``h`` the share of thread id ``t'`` (:func:`shares`); ``clone(o)`` clones ``o``
    (an op of ``body``) with the thread ids ``tids`` (and ``iv``) taken at ``t``,
    ``get(v)`` gives ``v`` so taken (an op outside the region of the thread id cloned
    before); ``split(tid)``, if given, gives ``(t, h)`` in place of :func:`shares`."""
    idx = ir.IndexType.get()
    tid = next(iter(tids)) if tids else None
    if tid is None:
        from pipeline_mlir.dialect import bindings as B
        tid = B.gpu.thread_id(B.gpu.Dimension.x, upper_bound=threads)
    t, h = split(tid) if split is not None else shares(tid, f, block)
    mapping = {x: t for x in tids}
    if iv is not None:
        mapping[iv] = t if iv.type == idx else ir.Operation.create(
            "arith.index_castui", results=[iv.type], operands=[t]).results[0]
    inside = set(body)

    def get(v):
        if v in mapping:
            return mapping[v]
        if isinstance(v.owner, ir.Block) or _op(v.owner) in inside or \
                not depends(v, set(mapping)):
            return v
        o = _op(v.owner)            # (outside the region, of the thread id: cloned)
        if not is_pure(o):
            raise IRError(o, f"{describe(o)} is of the thread id but not side-effect free")
        clone(o)
        return mapping[v]

    def clone(o):
        # (the operands first: a clone of an op outside the region that they make is
        # put before ``op``, and so must come before the op that uses it)
        operands = [get(x) for x in o.operands]
        c = o.clone()
        for k, x in enumerate(operands):
            c.operands[k] = x
        for r, nr in zip(o.results, c.results):
            mapping[r] = nr
        return c

    return get, clone, t, h


def _emit(op, body, copy, tids, iv, f, piece, width, shape, elem, threads):
    """The spread copy, before ``op``: ``body``'s ops cloned with the thread ids ``tids``
    (and ``iv``) taken at ``t' div f``."""
    const, arith = index_constant, _arith
    with ir.InsertionPoint(op), op.location:
        get, clone, t, h = _cloner(body, tids, iv, f, threads)
        for o in body:
            if o == copy:
                break
            clone(o)
        ops = [get(x) for x in copy.operands]
        k = _dst_rank(copy)
        src = ops[:len(ops) - 1 - k]
        src[-1] = arith("addi", src[-1], arith("muli", h, const(piece)))
        dst, didx = ops[len(ops) - 1 - k], ops[len(ops) - k:]
        lin = const(0)
        for i, d in enumerate(didx):
            lin = arith("addi", lin, arith("muli", d, const(int(np.prod(shape[i + 1:])))))
        lin = arith("addi", lin, arith("addi", arith("muli", arith("remui", t, const(WAVE_SIZE)),
                                                      const(width)),
                                         arith("muli", h, const(piece))))
        didx = [arith("remui", arith("divui", lin, const(int(np.prod(shape[i + 1:])))),
                      const(s)) if i else arith("divui", lin, const(int(np.prod(shape[1:]))))
                for i, s in enumerate(shape)]
    with ir.InsertionPoint(op), copy.location:        # (the copy's, in a message)
        vt = ir.VectorType.get([piece], elem)
        load = ir.Operation.create("vector.load", results=[vt], operands=src)
        store = ir.Operation.create("vector.store", operands=[load.results[0], dst] + didx)
    return load, store


def _prove(op, copy, new, runs, iv, loop, f, piece, width, refuse) -> None:
    """Each thread ``t'`` of the register copy ``new`` (its load and store) copies piece
    ``t' mod f`` of what thread ``t' div f`` of ``copy`` copied: the same source and LDS
    elements, evaluated per lane at the K-loop's first step and the sampled workgroup;
    ``copy`` writes its waves' lanes from one LDS address."""
    try:
        ev = first_step_evaluator(op, iv, loop)
        k = _dst_rank(copy)
        old = _elements(ev, copy.operands[0], copy.operands[1:len(copy.operands) - 1 - k],
                        copy.operands[len(copy.operands) - 1 - k],
                        copy.operands[len(copy.operands) - k:])
        load, store = new
        got = _elements(ev, load.operands[0], load.operands[1:], store.operands[1],
                        store.operands[2:])
    except IRError as e:
        why = f"where its addresses evaluate per thread ({e.args[0].splitlines()[0][:160]})"
    else:
        why = _differs(old, got, runs, f, piece, width)
    if why is not None:
        for o in reversed(new):
            o.erase()
        raise refuse(why)


def _differs(old, got, runs, f: int, piece: int, width: int) -> str | None:
    """Why the spread copy's elements ``got`` are not those of the copy's ``old`` (each
    (source elements, LDS elements, the two roots)); None when they are."""
    t = np.arange(len(runs))
    run = t[runs > 0]
    if old[2] != got[2]:
        return ("where the spread copy moves the copy's buffers (an internal error: it "
                "does not)")
    d = old[1][run]
    waves = run // WAVE_SIZE
    if any(len(set(d[waves == w].tolist())) > 1 for w in set(waves.tolist())):
        return "where its LDS index is the same in every running lane of a wave"
    o, h = t // f, t % f
    if not (np.array_equal(got[0], old[0][o] + h * piece) and
            np.array_equal(got[1], old[1][o] + (o % WAVE_SIZE) * width + h * piece)):
        return ("where the spread copy, evaluated per lane, reads and writes what the copy "
                "did (an internal error: it does not)")
    return None


def _elements(ev, src, src_idx, dst, dst_idx):
    """(the source's and the LDS index's root element per thread, the two roots)."""
    sv, dv = ev.view(src), ev.view(dst)
    return (sv.element([ev.value(i) for i in src_idx]),
            dv.element([ev.value(i) for i in dst_idx]), (sv.root, dv.root))


#: a copy through registers in a guard's region: its read of global memory, its LDS write
REG_READS = ("vector.transfer_read", "vector.load")
REG_WRITES = ("vector.transfer_write", "vector.store")


def register_copies(body: list) -> list:
    """The copies through registers of a guard's region ``body`` (its ops but the
    terminator), in order, as (read, write) pairs: each read of a memory other than LDS
    and private memory, its one use the value an LDS write stores, every other op side-effect
    free; an empty list if ``body`` is not so (or holds none)."""
    pairs = []
    for o in body:
        if o.name in REG_READS and not in_lds(o.operands[0]) and \
                not in_space(o.operands[0], "private"):
            uses = [_op(u.owner) for u in o.results[0].uses]
            if len(uses) != 1 or uses[0].name not in REG_WRITES or \
                    uses[0].operands[0] != o.results[0] or not in_lds(uses[0].operands[1]):
                return []
            pairs.append((o, uses[0]))
        elif o.name in REG_WRITES:
            if not any(w is o or w == o for _r, w in pairs):
                return []
        elif not is_pure(o):
            return []
    return pairs


def _spread_registers(op, body, pairs, runs, iv, loop, f: int, refuse) -> None:
    """``op``'s copies through registers ``pairs`` (``c`` of them a thread), made by
    threads 0 to ``n - 1``, spread over every thread: thread ``t'`` makes copies ``p f +
    h`` of thread ``s`` for ``p`` below ``c / f`` (``s``, ``h``: :func:`shares` of ``t'``,
    in the first block of threads that puts each wave's lanes in LDS order, if one does),
    their indices chosen by ``h`` (``chosen``), the reads and writes cloned (the
    same buffers, padding and attributes); proven per lane (:func:`_prove_registers`)."""
    c = len(pairs)
    r0, w0 = pairs[0]
    if c % f or any(r.name != r0.name or w.name != w0.name or r.results[0].type !=
                    r0.results[0].type or r.operands[0] != r0.operands[0] or
                    w.operands[1] != w0.operands[1] or not same_attributes(r, r0) or
                    not same_attributes(w, w0) for r, w in pairs):
        raise refuse(f"where its {c} copies through registers a thread (of one source and "
                     f"LDS buffer, vector type and attributes) are a multiple of the {f} "
                     f"threads that share a copying thread's")
    if r0.name == "vector.transfer_read" and len(segments(r0)) > 3 and segments(r0)[3]:
        raise refuse("where its copies through registers read unmasked")
    if w0.name == "vector.transfer_write" and not transfer(w0).plain:
        raise refuse("where its copies through registers write LDS unmasked and in bounds")
    if r0.name == "vector.transfer_read" and not transfer(r0).plain and \
            any(d < 0 for d in ir.MemRefType(r0.operands[0].type).shape):
        raise refuse(f"where a copy through registers that pads reads a view of static "
                     f"sizes, not {r0.operands[0].type}")
    tids = _thread_id(op, body, refuse)
    old = _accesses(op, [x for pair in pairs for x in pair], iv, loop, refuse)
    block = _lane_order(old[1::2], f, int(np.count_nonzero(runs)),
                        ir.VectorType(r0.results[0].type).shape[-1])
    new = []
    with ir.InsertionPoint(op), op.location:
        get, clone, _t, h = _cloner(body, tids, iv, f, len(runs), block)
        for o in body:
            if all(o is not r and o != r and o is not w and o != w for r, w in pairs):
                clone(o)
        # (no i1 in an index: the masks' evaluation reads integer arithmetic only)
        steps = [None] + [_arith("minui", h, index_constant(k)) if k == 1 else _arith(
            "subi", _arith("minui", h, index_constant(k)), _arith("minui", h, index_constant(k - 1)))
            for k in range(1, f)]

        def chosen(group, position):
            """The index ``position`` of copy ``h`` of ``group``: the first's plus, for
            each ``k <= h``, the difference of the ``k``-th and the one before."""
            v = get(group[0].operands[position])
            for k in range(1, f):
                v = _arith("addi", v, _arith("muli", steps[k], _arith(
                    "subi", get(group[k].operands[position]),
                    get(group[k - 1].operands[position]))))
            return v

        for p in range(c // f):
            group = pairs[p * f:(p + 1) * f]
            reads, writes = [r for r, _w in group], [w for _r, w in group]
            # (the operands first: a clone goes before ``op``, after what is built before it)
            rv = [chosen(reads, k) if k in _index_positions(r0) else get(x)
                  for k, x in enumerate(r0.operands)]
            wv = [None] + [chosen(writes, k) if k in _index_positions(w0) else get(x)
                           for k, x in enumerate(w0.operands) if k]
            read = r0.clone()
            for k, x in enumerate(rv):
                read.operands[k] = x
            write = w0.clone()
            for k, x in enumerate([read.results[0]] + wv[1:]):
                write.operands[k] = x
            new.append((read, write))
    got = _accesses(op, [x for pair in new for x in pair], iv, loop, refuse, new)
    for p in range(c // f):
        for a in (0, 1):                                    # (the read, the write)
            if not _taken(got[2 * p + a], old[2 * p * f + a::2][:f], f, block):
                _erase(new)
                raise refuse("where the spread copies, evaluated per lane, read and write "
                             "what the copies did (an internal error: they do not)")
    op.erase()


def _erase(new: list) -> None:
    for read, write in reversed(new):
        write.erase()
        read.erase()


def _index_positions(o) -> set:
    """The operand positions of the memref indices of read or write ``o``."""
    if o.name == "vector.load":
        return set(range(1, len(o.operands)))
    if o.name == "vector.store":
        return set(range(2, len(o.operands)))
    g = segments(o)
    start = len(g[0]) + (len(g[1]) if o.name == "vector.transfer_write" else 0)
    group = g[2] if o.name == "vector.transfer_write" else g[1]
    return set(range(start, start + len(group)))


def _accesses(op, ops: list, iv, loop, refuse, new: list = ()) -> list:
    """Per op of ``ops`` (reads and writes in ``op``'s region or before it), per thread:
    its memref indices, its view's first element, the element its indices name, the
    view's root; evaluated at the K-loop's first step and the sampled workgroup.  A
    refusal of ``op`` (the ``new`` copies erased) where they do not evaluate."""
    out = []
    try:
        ev = first_step_evaluator(op, iv, loop)
        for o in ops:
            view = ev.view(o.operands[0] if o.name in REG_READS else o.operands[1])
            idx = [ev.value(o.operands[k]) for k in sorted(_index_positions(o))]
            out.append((np.stack(idx), view.element([np.zeros_like(i) for i in idx]),
                        view.element(idx), view.root))
    except IRError as e:
        _erase(new)
        raise refuse(f"where its addresses evaluate per thread "
                     f"({e.args[0].splitlines()[0][:160]})") from None
    return out


def _lane_order(writes: list, f: int, n: int, width: int) -> int:
    """The first block (a divisor of the ``n`` copying threads) in which the threads'
    shares (:func:`shares`) of the copies whose LDS accesses are ``writes`` (per copy, in
    order) write each wave's lanes in order, ``width`` elements apart; 1 if none does."""
    t = np.arange(n * f)
    for block in (b for b in range(1, n + 1) if n % b == 0):
        s, h = shares(t, f, block)
        ok = True
        for p in range(len(writes) // f):
            e = np.stack([w[2] for w in writes[p * f:(p + 1) * f]])[h, s].reshape(-1, WAVE_SIZE)
            ok &= bool(np.all(e - e[:, :1] == np.arange(WAVE_SIZE) * width))
        if ok:
            return block
    return 1


def _taken(got, old: list, f: int, block: int) -> bool:
    """Each thread's access ``got`` of a spread copy is the access its share (:func:`shares`)
    names in ``old`` (the ``f`` copies' accesses): the same indices in the same view."""
    t = np.arange(len(got[1]))
    s, h = shares(t, f, block)
    return all(np.array_equal(got[k], np.stack([o[k] for o in old])[h, :, s].T
                              if k == 0 else np.stack([o[k] for o in old])[h, s])
               for k in range(3)) and all(o[3] == got[3] for o in old)
