"""Transposing fragment reads regrouped per MFMA operand.

IREE reads the ``K x N`` B tile of a plain ``A x B`` with ``amdgpu.transpose_load``
(``ds_read_b64_tr_b16``) laid out for its own loop: each wave's reads cover one K row
and 64 N columns each, the 4 elements a lane receives go to 4 different N fragments, and
every MFMA operand gathers one element of each of 8 reads (``vector.from_elements`` in the
late form; ``insert_strided_slice`` / ``shape_cast`` / ``vector.transpose`` / ``extract``
at the prefetch point).  Every read then feeds both of the schedule's subtiles and the
loop does not split.  :func:`regroup_transpose_reads` rewrites such reads into 2
transposing reads per operand, each the 4 K values of one half of the operand:

* an element-level tracer (:class:`ElementTracer`) runs the pure vector ops between the
  reads and the MFMAs on element ids (read number * 4 + element;
  :func:`~pipeline_mlir.analysis.vector_moves.moved`, the evaluation
  :mod:`~pipeline_mlir.frontend.unused_rows` runs on accumulator elements too), so it
  knows which element of which read every element of every MFMA operand is; ops it does
  not model are refused at the op;
* the LDS element each lane receives is computed from every lane's address (the
  instruction's lane exchange, :func:`_exchange`, as the emulator's
  ``pipeline_mlir/emu/lds_transpose.py`` runs it), so each element
  of each operand is an LDS element per thread;
* the new read of half ``h`` has lane ``16 q + 4 e + a`` point at the element its group
  wants as element ``4 h + e`` in lane ``16 q + 4 a``; the 4 lanes ``16 q + 4 a + j``
  must want 4 consecutive elements, 8-byte aligned (checked for every thread);
* the new addresses are one program of the thread id (a mixed-radix strided block,
  :func:`~pipeline_mlir.frontend.block_fit.fit_digits`, plus thread 0's element), emitted
  before the loop; the old addresses must not move with the K step or the workgroup.

The two halves are joined with ``vector.shuffle``; the old reads and the ops that only
they fed are erased.  What does not fit is an error at the op that breaks it.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, index_constant
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import dense_row_major
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.vector_moves import int_list, moved
from pipeline_mlir.frontend.kernel_ir import erase_unused
from pipeline_mlir.frontend.block_fit import fit_digits
from pipeline_mlir.frontend.layout import Emitter
from pipeline_mlir.frontend.scan import LoopScan, read_access
from pipeline_mlir.target.gfx950 import WAVE_SIZE, tr_source

TRANSPOSE = "amdgpu.transpose_load"
#: the element ids of lanes no read fills (constants, poison)
NONE = -1
#: received elements carry the number of their LDS buffer above this bit (an operand
#: that mixes buffers is refused by :func:`operand_plans`; the reads of one are emitted
#: on the buffer the bits name)
BUFFER_SHIFT = 40
#: the element types of the transposing reads regrouped -> elements per read (of 8 bytes)
PER_READ = {"bf16": 4, "f16": 4, "f8E4M3FN": 8, "f8E5M2": 8, "i8": 8}


def regroup_transpose_reads(scan: LoopScan) -> None:
    """Rewrite the loop's ``amdgpu.transpose_load`` reads into 2 per MFMA operand (see the
    module docstring); no-op without transposing reads."""
    old = [a for a in scan.reads if a.op.name == TRANSPOSE]
    if not old:
        return
    per = read_width(old)
    tracer = ElementTracer({a.op.results[0]: k for k, a in enumerate(old)}, per)
    users = []                      # (mfma, operand index, element ids)
    for m, i, ids in operand_ids(scan, tracer):
        n = ids.size // per
        fits = ids.ndim == 1 and ids.size % per == 0 and n & (n - 1) == 0
        if not fits or np.any(ids == NONE):
            want = ids.size if fits else f"a power of two times {per}"
            raise IRError(m, f"'{m.name}' op: operand #{i} is built from "
                             f"amdgpu.transpose_load elements but is not {want} of "
                             f"them (shape {list(ids.shape)}, "
                             f"{int(np.sum(ids == NONE))} elements from no read); the "
                             f"front end regroups transposing reads for MFMA operands "
                             f"that whole reads of {per} elements fill")
        users.append((m, i, ids))
    used = {int(x) // per for _m, _i, ids in users for x in ids}
    for k, a in enumerate(old):
        if k not in used or len(list(a.op.results[0].uses)) == 0:
            raise IRError(a.op, f"'{TRANSPOSE}' op feeds no MFMA operand: the front end "
                                f"regroups transposing reads by the operands they feed")
    roots, received = _received(scan, old, per)
    plans = operand_plans(users, received, per)
    emit_regrouped(scan, old, users, plans, tracer, roots, read_points(scan, old, plans, per))


def operand_ids(scan: LoopScan, tracer):
    """``(mfma, operand index, element ids)`` of each MFMA operand of the loop built from
    the reads ``tracer`` follows (those it traces to none left out)."""
    for m in scan.mfmas:
        for i in (0, 1):
            ids = tracer.ids(m.operands[i])
            if ids is not None:
                yield m, i, ids


def operand_plans(users: list, received: np.ndarray, per: int) -> dict:
    """{the element ids of an MFMA operand: the address of each of its reads of ``per``
    elements (:func:`half_address`)}, for every ``(mfma, operand index, element ids)`` of
    ``users``, each distinct operand once; an :class:`IRError` where an operand cannot be
    read so."""
    plans = {}
    for m, i, ids in users:
        key = tuple(int(x) for x in ids)
        if key in plans:
            continue
        bufs = {int(received[x // per, 0, x % per]) >> BUFFER_SHIFT for x in key}
        if len(bufs) > 1:
            raise IRError(m, f"'{m.name}' op: operand #{i} gathers the elements of "
                             f"transposing reads of {len(bufs)} LDS buffers; the front end "
                             f"regroups the reads of an operand that one buffer holds")
        plans[key] = [half_address(m, i, received, ids, h, per) for h in range(ids.size // per)]
    return plans


def read_width(old: list) -> int:
    """The elements each of the transposing reads ``old`` delivers (4 16-bit ones or 8
    8-bit ones, all alike); an error at a read of another type or width."""
    widths = set()
    for a in old:
        t = ir.VectorType(a.op.results[0].type)
        per = PER_READ.get(str(t.element_type))
        if per is None or list(t.shape) != [per]:
            raise IRError(a.op, f"'{TRANSPOSE}' op reads {t}; the front end regroups "
                                f"transposing reads of 4 16-bit elements "
                                f"(ds_read_b64_tr_b16) or 8 8-bit elements "
                                f"(ds_read_b64_tr_b8), not other element types or widths")
        widths.add(per)
    if len(widths) > 1:
        raise IRError(old[0].op, f"'{TRANSPOSE}' op: the loop mixes transposing reads of "
                                 f"16-bit and 8-bit elements; the front end regroups one "
                                 f"kind per loop")
    return widths.pop()


class ElementTracer:
    """The element ids of a value computed from transposing reads through pure vector
    ops (None for a value no transposing read feeds)."""

    def __init__(self, read_of_value: dict, per: int = 4) -> None:
        self.read_of_value = read_of_value
        self.per = per
        self.memo: dict = {}
        self.visited: list = []

    def ids(self, v):
        if v in self.read_of_value:
            return self.read_of_value[v] * self.per + np.arange(self.per)
        if v not in self.memo:
            self.memo[v] = None if isinstance(v.owner, ir.Block) else self._run(_op(v.owner))
        return self.memo[v]

    def _run(self, o):
        """The ids of ``o``'s result, None if no transposing read feeds ``o``."""
        ins = [self.ids(x) for x in o.operands]
        if all(x is None for x in ins):
            return None
        self.visited.append(o)
        return _apply(o, [x if x is not None else _filled(t.type) for x, t in
                          zip(ins, o.operands)])


def _filled(t):
    """Element ids of a value no read feeds (-1 everywhere), by its type."""
    if isinstance(t, ir.VectorType):
        return np.full(list(t.shape), NONE, dtype=np.int64)
    return np.array(NONE, dtype=np.int64)


#: the vector ops :class:`ElementTracer` follows (:func:`~pipeline_mlir.analysis.
#: vector_moves.moved` runs them)
_TRACED = ("vector.shape_cast", "vector.transpose", "vector.from_elements", "vector.extract",
           "vector.insert", "vector.insert_strided_slice", "vector.extract_strided_slice",
           "vector.shuffle")


def _apply(o, ins: list) -> np.ndarray:
    """``o`` run on element ids (a numpy array per operand)."""
    name = o.name
    position = None
    if (name, len(o.operands)) in (("vector.extract", 1), ("vector.insert", 2)):
        position = tuple(int_list(o, "static_position"))
    out = moved(o, ins, 0, position) if name in _TRACED else None
    if out is None:
        raise IRError(o, f"'{name}' op computes with elements of an "
                         f"amdgpu.transpose_load in a way the front end does not trace (it "
                         f"follows vector.extract, insert, insert_strided_slice, "
                         f"extract_strided_slice, from_elements, shape_cast, transpose and "
                         f"shuffle)")
    return out


def read_addresses(scan: LoopScan, old: list) -> tuple[list, list]:
    """(the LDS buffers read, per read: the element of its buffer each thread's address
    points at, plus ``buffer number << BUFFER_SHIFT``); an error at a read whose view is
    swizzled or not dense, or whose address moves with the K step or the workgroup."""
    ev = Evaluator(scan.block)
    other = Evaluator(scan.block, workgroup_id=ev.workgroup_id + 1)
    iv = scan.loop.regions[0].blocks[0].arguments[0]
    lb, step = ev.uniform(scan.loop.operands[0]), ev.uniform(scan.loop.operands[2])
    ev.where = other.where = scan.loop
    out, roots = [], []
    for a in old:
        got = []
        for e, k in ((ev, lb), (ev, (lb or 0) + (step or 1)), (other, lb)):
            e.bind(iv, 0 if k is None else k)
            v = e.view(a.view)
            if v.swizzle is not None:
                raise IRError(a.op, f"'{a.op.name}' op reads a swizzled LDS view; the front "
                                    f"end regroups transposing reads of unswizzled tiles")
            got.append(v.element([e.value(i) for i in a.indices]))
        if not (np.array_equal(got[0], got[1]) and np.array_equal(got[0], got[2])):
            raise IRError(a.op, f"'{a.op.name}' op: its LDS address moves with the K step or "
                                f"the workgroup; the front end regroups reads whose "
                                f"addresses depend on the thread alone")
        root = dense_root(ev.view(a.view).root, a.op)
        if root not in roots:
            roots.append(root)
        out.append(np.asarray(got[0], dtype=np.int64) + (roots.index(root) << BUFFER_SHIFT))
    return roots, out


def _received(scan: LoopScan, old: list, per: int) -> np.ndarray:
    """(the LDS buffers read, (reads, threads, per): the element each thread receives as
    each element of each old read, ``buffer number << BUFFER_SHIFT`` plus the element of
    the buffer)."""
    roots, addrs = read_addresses(scan, old)
    out = []
    for addr in addrs:
        base = (np.arange(len(addr)) // WAVE_SIZE) * WAVE_SIZE
        lane = np.arange(len(addr)) % WAVE_SIZE
        src_lane, src_element = _exchange(lane, per)
        out.append(addr[base[:, None] + src_lane] + src_element)
    return roots, np.stack(out)


def _exchange(lane: np.ndarray, per: int) -> tuple[np.ndarray, np.ndarray]:
    """The transposing read's lane exchange (:func:`~pipeline_mlir.target.gfx950.
    tr_source`): the (lane, element) each of ``lane``'s ``per`` elements comes from, each
    (lanes, per)."""
    return tr_source(lane[:, None], np.arange(per)[None, :], per)


def half_address(m, i: int, received: np.ndarray, ids: np.ndarray, h: int,
                 per: int = 4) -> np.ndarray:
    """Per thread, the element a new transposing read's lane points at so that it delivers
    elements ``per h .. per h + per - 1`` of the operand ``ids`` (checked for every
    thread; ``per`` elements of 8 bytes per read)."""
    want = np.stack([received[x // per, :, x % per] for x in ids[per * h:per * (h + 1)]],
                    axis=1)
    t = np.arange(want.shape[0])
    lane = t % WAVE_SIZE
    base = t - lane
    row_lanes = 16 // per
    q, e, a = lane // 16, (lane % 16) // row_lanes, lane % row_lanes
    src = base + 16 * q + per * a                     # the lane that wants the values
    addr = want[src, e]
    run = np.stack([want[src + j, e] for j in range(per)], axis=1)
    if not np.array_equal(run, addr[:, None] + np.arange(per)[None, :]) or \
            np.any(addr % per):
        raise IRError(m, f"'{m.name}' op: the K values operand #{i} wants in lanes "
                         f"{per} a .. {per} a + {per - 1} of a 16-lane group are not {per} "
                         f"consecutive, 8-byte aligned LDS elements of one row, so no "
                         f"transposing read delivers them")
    return addr


def emit_regrouped(scan: LoopScan, old: list, users: list, plans: dict,
                   tracer: ElementTracer, roots: list, points: dict, read_type=None,
                   read_attrs: dict | None = None) -> None:
    """The new reads (addresses computed before the loop; each operand's before the op
    ``points`` names, :func:`read_points`; of ``read_type`` with ``read_attrs``, by
    default those of the old reads), the operands joined from them,
    the old reads and the ops only they fed erased; ``scan.reads`` / ``scan.ops``
    updated."""
    loop = scan.loop
    ref = old[0]
    em = Emitter(SimpleNamespace(scan=scan), ir.InsertionPoint(loop), index_constant)
    o = em.ops
    addr_of = {}
    for key, halves in plans.items():
        for addr in halves:
            k = tuple(int(x) for x in addr)
            if k in addr_of:
                continue
            digits = fit_digits(addr - addr[0])
            if digits is None:
                raise IRError(ref.op, f"'{TRANSPOSE}' op: the regrouped reads' addresses "
                                      f"are not a strided block of the thread id in one "
                                      f"LDS buffer")
            root = roots[int(addr[0]) >> BUFFER_SHIFT]
            shape = ir.MemRefType(root.type).shape
            with em.point, ref.op.location:   # the addresses derive from the old reads
                tid, off = em.tid(), int(addr[0]) & ((1 << BUFFER_SHIFT) - 1)
                for mm, r, s in digits:
                    off = o.add(off, o.mul(o.rem(o.div(tid, mm), r), s))
                addr_of[k] = [root] + [o._v(x) for x in _indices(o, off, shape)]
    rt = read_type or ref.op.results[0].type
    attrs = _attrs(ref.op) if read_attrs is None else read_attrs
    new_reads, joined = [], {}
    for key, halves in plans.items():
        at = points[key]
        with ir.InsertionPoint(at), at.location:
            parts = []
            for addr in halves:
                r = ir.Operation.create(TRANSPOSE, results=[rt],
                                        operands=addr_of[tuple(int(x) for x in addr)],
                                        attributes=attrs)
                parts.append(r.results[0])
                new_reads.append(r)
            joined[key] = _join(parts)
    for m, i, ids in users:
        v = joined[tuple(int(x) for x in ids)]
        if m.operands[i].type != v.type:
            with ir.InsertionPoint(m), m.location:
                v = ir.Operation.create("vector.shape_cast", results=[m.operands[i].type],
                                        operands=[v]).results[0]
        m.operands[i] = v
    # by identity: comparing an erased op (invalidated) raises
    left = {id(x) for x in erase_unused(tracer.visited + [a.op for a in old])}
    for a in old:
        if id(a.op) in left:
            users = sorted({_op(u.owner).name for r in a.op.results for u in r.uses})
            raise IRError(a.op, f"'{TRANSPOSE}' op: its elements are also used by "
                                f"{', '.join(users)} (directly or through vector ops), not "
                                f"only by MFMA operands; the front end regroups transposing "
                                f"reads that only MFMAs use")
    gone = {id(a) for a in old}
    scan.reads = [a for a in scan.reads if id(a) not in gone] + \
        [read_access(r) for r in new_reads]
    scan.ops = [_op(x) for x in loop.regions[0].blocks[0].operations][:-1]


def read_points(scan: LoopScan, old: list, plans: dict, per: int) -> dict:
    """{an operand's element ids (each key of ``plans``): the op its new reads go before
    (:func:`read_point`)}, all found before anything is emitted, so that a refusal leaves
    the loop as it was (``old``: the reads regrouped, ``per`` elements each)."""
    ops = [_op(o) for o in scan.ops]
    fences = [_op(c.op) for c in scan.copies] + [_op(o) for o in scan.syncs] + \
        [_op(c.store) for c in scan.copies if c.store is not None]
    first = _positions(ops, [a.op for a in old])[0]
    return {key: read_point(ops, fences, _positions(ops, [old[x // per].op for x in key]),
                            first) for key in plans}


def _positions(ops: list, reads: list) -> list[int]:
    """The positions in ``ops`` of ``reads``, in order (an operation hashes and compares as
    the one it is)."""
    wanted = {_op(r) for r in reads}
    return [i for i, o in enumerate(ops) if o in wanted]


def read_point(ops: list, fences: list, at: list[int], first: int):
    """Where an operand's new reads go, in the loop body ``ops``: before ``ops[first]`` (the
    loop's first read regrouped, where all go when they can), or else before the first of
    its old reads (at positions ``at``: a merged loop's K steps each read their own slab
    after their own copies).  They read the LDS elements those reads did, so none of
    ``fences`` (copies, LDS stores, barriers) may lie between that point and the last of
    the old reads; an error at that read when none fits."""
    fenced = set(fences)        # (an operation hashes and compares as the one it is)

    def clear(i: int) -> list:
        return [o for o in ops[i:at[-1]] if o in fenced]
    start = min(at[0], first)
    if not clear(start):
        return ops[start]
    between = clear(at[0])
    if between:
        last = ops[at[-1]]
        raise IRError(last, f"'{last.name}' op: an MFMA operand gathers its elements from "
                            f"transposing reads on both sides of '{between[0].name}' op; the "
                            f"front end regroups the reads of one operand when no copy, LDS "
                            f"store or barrier lies between them")
    return ops[at[0]]


def _join(parts: list):
    """The vectors ``parts`` (a power of two of them, alike) concatenated in order, by a
    tree of ``vector.shuffle``."""
    while len(parts) > 1:
        t = ir.VectorType(parts[0].type)
        vt = ir.VectorType.get([2 * t.shape[0]], t.element_type)
        mask = ir.DenseI64ArrayAttr.get(list(range(2 * t.shape[0])))
        parts = [ir.Operation.create("vector.shuffle", results=[vt], operands=pair,
                                     attributes={"mask": mask}).results[0]
                 for pair in zip(parts[0::2], parts[1::2])]
    return parts[0]


def dense_root(root, op):
    """``root`` if it is a dense row-major memref, else an error at ``op``."""
    if not dense_row_major(root.type):
        raise IRError(op, f"'{TRANSPOSE}' op reads {root.type}, not a dense row-major LDS "
                          f"buffer")
    return root


def _indices(o, off, shape) -> list:
    out = []
    for d in range(len(shape)):
        x = o.div(off, int(np.prod(shape[d + 1:])))
        out.append(x if d == 0 else o.rem(x, shape[d]))
    return out


def _attrs(op) -> dict:
    return {n.name: n.attr for n in op.attributes}
