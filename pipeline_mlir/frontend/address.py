"""The per-lane address analysis of a natural K-loop.

:func:`analyse` evaluates every copy's and fragment read's addresses for every thread
(:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`) in two consecutive iterations:
the LDS elements each copy writes and each read reads (swizzle applied), the global
elements each copy reads and how they move by one K step, and which fragment reads feed
each MFMA operand and which ``iter_arg`` each MFMA accumulates into.  The result, an
:class:`Analysis`, is what the partition (:mod:`pipeline_mlir.frontend.partition`) and
the rewrite (:mod:`pipeline_mlir.frontend.adopt`) work on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.locations import op_name
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import at, is_pure
from pipeline_mlir.frontend.kept_masks import KEPT, kept_parts, unkept
from pipeline_mlir.frontend.select_masks import truth
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.frontend.scan import Access, LoopScan
from pipeline_mlir.frontend.edges import check_copy_reads, copy_evaluator, sample_points
from pipeline_mlir.frontend.every_read import check_every_read
from pipeline_mlir.frontend.workgroup_offset import check_lds_workgroup_free
from pipeline_mlir.analysis.ir_facts import constant_trips
from pipeline_mlir.frontend.soundness import check_order, check_same
from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.analysis.loop_eval import SAMPLE_WORKGROUP, Evaluator, View, xor_shuffle


@dataclass
class Analysis:
    scan: LoopScan
    evaluator: Evaluator
    buffers: list                   # LDS root values
    buffer_views: dict              # buffer id -> View of the root
    copies: list                    # loop_model.Copy
    reads: list                     # loop_model.Read
    mfmas: list                     # loop_model.Mfma
    acc_of_yield: list              # iter_arg index per yield operand
    partition: object = None        # loop_model.Partition (frontend.partition.partition_loop)
    ops: list = field(default_factory=list)   # op index -> op
    #: where the copies' global reads are checked (frontend.edges.sample_points)
    read_points: list = field(default_factory=list)
    #: what ``merge_k`` decided for a loop short of a global load's latency, merged or
    #: not, and why (``frontend/kmerge.py``; the adopted loop's ``sched.merge_k``)
    merge_note: str | None = None
    #: the K step split for a lane's registers, or left over their budget, and why
    #: (``frontend/fragment_budget.py``; the adopted loop's ``sched.k_split``)
    ksplit_note: str | None = None
    #: LDS buffer id -> its proof of unused elements, made once for every comparison
    #: that asks (``frontend/unused_rows.py``: :func:`~pipeline_mlir.frontend.unused_rows.
    #: proof_for`)
    unused: dict = field(default_factory=dict)
    #: the kernel's copies' reads left to check over the whole grid once the analysis is
    #: settled (``frontend/every_read.py``: :func:`~pipeline_mlir.frontend.every_read.
    #: finish_every_read`), None if none is left
    grid_reads: object = None

    def chain(self) -> int:
        """MFMAs per accumulator and iteration (the fewest, if they differ; 0 without
        MFMAs)."""
        counts: dict = {}
        for m in self.mfmas:
            counts[m.acc] = counts.get(m.acc, 0) + 1
        return min(counts.values(), default=0)

    def accumulators(self) -> int:
        """The accumulators the loop's MFMAs add into."""
        return len({m.acc for m in self.mfmas})


def loop_bounds(ev: Evaluator, loop):
    """(lower bound, upper bound, step) of ``loop`` where every thread has the same one
    (None where not)."""
    lb, ub, step = (ev.uniform(loop.operands[i]) for i in range(3))
    return lb, ub, step


def _check_workgroup_invariant(scan: LoopScan, ev: Evaluator, copy_lds: list,
                               read_lds: list) -> None:
    """The LDS elements of every copy and read are the same in another workgroup
    (:func:`~pipeline_mlir.frontend.soundness.check_same`), and their indices do not move
    with it (:func:`~pipeline_mlir.frontend.workgroup_offset.check_lds_workgroup_free`:
    what the sample cannot prove; checked after it, which names the elements).  ``ev``:
    the analysis's evaluator, which gave ``copy_lds`` and ``read_lds``, taken to the other
    workgroup and back (what reads no workgroup id stays evaluated)."""
    wid = ev.workgroup_id
    ev.set_workgroup(SAMPLE_WORKGROUP + 5)
    try:
        acc = _Accesses(ev)
        for a, (_b, el) in zip(scan.copies, copy_lds):
            check_same(a.op, "writes", el, acc.lds_of_copy(a)[1])
        for a, (_b, el) in zip(scan.reads, read_lds):
            check_same(a.op, "reads", el, acc.lds_of_read(a)[1])
    finally:
        ev.set_workgroup(wid)
    check_lds_workgroup_free(scan)


def _check_k_free(ev: Evaluator, scan: LoopScan, iv) -> None:
    """No copy's or read's LDS index (its view's offsets, its indices) is computed from the
    loop variable ``iv`` (``ev`` has evaluated them): the two iterations compared by
    :meth:`_Accesses.check_invariant` cannot show an index that moves only in later ones,
    and the pipeliner lays out LDS from the first."""
    for what, accesses in (("writes", scan.copies), ("reads", scan.reads)):
        for a in accesses:
            if any(x == iv or ev.computed_from(x, iv) for x in [a.view] + list(a.indices)):
                raise IRError(a.op, f"'{op_name(a.op)}' op {what} LDS at an index computed from "
                                    f"the loop variable; the front end takes a single-stage "
                                    f"loop, the same LDS elements in every iteration")


def _contiguous(view: View, op, what: str) -> None:
    if view.strides and view.strides[-1] != 1:
        raise IRError(op, f"'{op_name(op)}' op {what} with a stride of {view.strides[-1]} "
                          f"elements in the innermost dimension; fragments must be contiguous "
                          f"per lane")


def analyse(scan: LoopScan) -> Analysis:
    """The addresses of every access of ``scan``'s loop for every thread, checked: each LDS
    access stays inside its buffer and touches the same elements in every iteration."""
    loop = scan.loop
    ev = Evaluator(scan.block)
    ev.where = loop
    if ev.threads % WAVE_SIZE:
        raise IRError(scan.kernel, f"'{op_name(scan.kernel)}' op: {ev.threads} threads is not a "
                                   f"whole number of 64-lane waves")
    iv = loop.regions[0].blocks[0].arguments[0]
    lb, _ub, step = loop_bounds(ev, loop)
    lb = 0 if lb is None else lb
    step_v = 1 if step is None else step
    acc = _Accesses(ev)
    ev.bind(iv, lb)
    copy_lds = [acc.lds_of_copy(a) for a in scan.copies]
    src0 = [acc.src_of_copy(a) for a in scan.copies]
    read_lds = [acc.lds_of_read(a) for a in scan.reads]
    acc.check_in_buffers(scan, copy_lds, read_lds)
    _check_workgroup_invariant(scan, ev, copy_lds, read_lds)
    points = sample_points(scan, lb, step_v, constant_trips(loop))
    reads_ev = copy_evaluator(scan)     # (one for both: what no workgroup moves, once)
    check_copy_reads(scan, points, ev=reads_ev)
    grid_reads = check_every_read(scan, points, reads_ev)
    check_order(loop, [a.op for a in scan.copies], copy_lds, [a.op for a in scan.reads],
                read_lds)
    ev.bind(iv, lb + step_v)
    acc.check_invariant(scan, copy_lds, read_lds)
    _check_k_free(ev, scan, iv)
    src1 = _kept_moves(src0, [acc.src_of_copy(a) for a in scan.copies],
                       _kept_truths(scan, iv, (lb, lb + step_v)),
                       [ev.view(a.src).root for a in scan.copies])
    ev.bind(iv, lb)
    global_ids = {}
    copies = []
    for a, (b, el), s0, s1 in zip(scan.copies, copy_lds, src0, src1):
        root = ev.view(a.src).root
        gid = global_ids.setdefault(root, len(global_ids))
        copies.append(LM.Copy(acc.idx(a.op), b, el, gid, s0, s1, 1))
    reads = []
    for a, (b, el) in zip(scan.reads, read_lds):
        eb = acc.buffer_views[b].elem_bytes
        n_bytes = a.elements * eb
        instr = 1 if a.op.name == "amdgpu.transpose_load" else max(1, -(-n_bytes // 16))
        reads.append(LM.Read(acc.idx(a.op), b, el, instr))
    mfmas = _products(scan, acc)
    acc_of_yield = _carried_accumulators(scan, mfmas)
    return Analysis(scan, ev, acc.buffers, acc.buffer_views, copies, reads,
                    [m for m, _ in mfmas], acc_of_yield, None, acc.ops, points,
                    grid_reads=grid_reads)


def _kept_truths(scan: LoopScan, iv, steps: tuple) -> list:
    """Per copy of ``scan``, per thread, whether the mask kept in its index
    (:mod:`~pipeline_mlir.frontend.kept_masks`) keeps its run at each loop variable of
    ``steps``: ``[(at the first, at the second), ...]``, None for a copy with no kept mask
    or one whose truth cannot be read.  Evaluated by an evaluator of its own, dropped with
    its facts (of ops the rewrites erase) when this returns."""
    ev = Evaluator(scan.block)
    ev.where = scan.loop
    out = []
    for a in scan.copies:
        parts = kept_parts(a.src_indices[0]) if KEPT in a.op.attributes else None
        truths = []
        for k in steps if parts is not None else ():
            ev.bind(iv, k)
            try:
                t = np.asarray(truth(a.op, ev, parts[1]), dtype=bool)
            except (IRError, Unevaluable):
                break
            if t.shape != (ev.threads,):    # (one i1 per lane's run, as kept_masks keeps)
                break
            truths.append(t)
        out.append(tuple(truths) if len(truths) == len(steps) else (None, None))
    return out


def _kept_moves(src0: list, src1: list, keeps: list, roots: list) -> list:
    """The global elements each copy reads at the loop's second K step (``src1``; ``src0``
    the first's; ``keeps``: each copy's kept mask's truth per thread in each,
    :func:`_kept_truths`; ``roots``: the global buffer each reads), where a kept mask is
    false there for some lane: those lanes' runs moved as the copies of the buffer move
    where their masks keep them in both steps, when that is one amount.  A lane whose kept
    mask is false reads zeros whatever index it computed (a K row clamped to the K left in
    a last, partial K tile: IREE's f16 ``A^T x B^T`` 24x5x232, whose 2 K steps are a whole
    one and a masked one; B's rows past N = 5, a copy none of whose lanes is kept), so that
    index says nothing of how the copy moves; what the front end's copies read in its place
    is proven against the kernel's condition in every K step and workgroup
    (:mod:`~pipeline_mlir.frontend.kept_layout`).  ``src1`` as it is otherwise."""
    moves: dict = {}
    for s0, s1, (k0, k1), root in zip(src0, src1, keeps, roots):
        if k0 is not None and k1 is not None:
            moves.setdefault(root, set()).update(int(m) for m in np.unique((s1 - s0)[k0 & k1]))
    out = []
    for s0, s1, (k0, k1), root in zip(src0, src1, keeps, roots):
        move = moves.get(root, ())
        if k0 is None or k1 is None or np.all(k1) or len(move) != 1:
            out.append(s1)
        else:
            out.append(np.where(k1[:, None], s1, s0 + next(iter(move))))
    return out


class _Accesses:
    """The elements the copies and reads touch for every thread at the loop variable's
    current binding; numbers the ops (``idx``) and LDS buffers (``buffer_id``) as it meets
    them."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev
        self.ops: list = []
        self.index_of: dict = {}
        self.buffers: list = []
        self.buffer_views: dict = {}
        self.buffer_ids: dict = {}
        self.lane = ev.tid % WAVE_SIZE
        self.wave0 = (ev.tid // WAVE_SIZE) * WAVE_SIZE

    def idx(self, op) -> int:
        if op not in self.index_of:
            self.index_of[op] = len(self.ops)
            self.ops.append(op)
        return self.index_of[op]

    def buffer_id(self, view: View, op) -> int:
        if view.root not in self.buffer_ids:
            rt = ir.MemRefType(view.root.type)
            if not rt.has_static_shape:
                raise IRError(op, f"'{op_name(op)}' op accesses LDS of dynamic size "
                                  f"({view.root.type})")
            self.buffer_ids[view.root] = len(self.buffers)
            self.buffers.append(view.root)
            self.buffer_views[self.buffer_ids[view.root]] = view
        return self.buffer_ids[view.root]

    def lds_of_copy(self, a: Access) -> tuple[int, np.ndarray]:
        ev = self.ev
        v = ev.view(a.view)
        base = v.element([ev.value(i) for i in a.indices])
        first = base[self.wave0]
        if np.any(base != first):
            raise IRError(a.op, f"'{op_name(a.op)}' op: its LDS destination differs between the "
                                f"lanes of a wave; the DMA writes a wave's lanes contiguously "
                                f"from one wave-uniform address")
        el = first[:, None] + self.lane[:, None] * a.elements + \
            np.arange(a.elements)[None, :]
        return self.buffer_id(v, a.op), el

    def src_of_copy(self, a: Access) -> np.ndarray:
        ev = self.ev
        v = ev.view(a.src)
        _contiguous(v, a.op, "reads global memory")
        idx = list(a.src_indices)
        if KEPT in a.op.attributes:           # the run its lane computed (kept_masks.py)
            idx = unkept(idx) or idx
        start = v.element([ev.value(i) for i in idx])
        return start[:, None] + np.arange(a.elements)[None, :]

    def lds_of_read(self, a: Access) -> tuple[int, np.ndarray]:
        ev = self.ev
        v = ev.view(a.view)
        _contiguous(v, a.op, "reads LDS")
        start = v.element([ev.value(i) for i in a.indices])
        el = start[:, None] + np.arange(a.elements)[None, :]
        if v.swizzle is not None:
            el = xor_shuffle(el, *v.swizzle)
        return self.buffer_id(v, a.op), el

    def check_in_buffers(self, scan: LoopScan, copy_lds: list, read_lds: list) -> None:
        for a, (b, el) in list(zip(scan.copies, copy_lds)) + list(zip(scan.reads, read_lds)):
            size = int(np.prod(ir.MemRefType(self.buffers[b].type).shape))
            if el.min() < 0 or el.max() >= size:
                raise IRError(a.op, f"'{op_name(a.op)}' op accesses LDS outside its buffer "
                                    f"({self.buffers[b].type}) for some lane: element "
                                    f"{int(el.max() if el.max() >= size else el.min())}")

    def check_invariant(self, scan: LoopScan, copy_lds: list, read_lds: list) -> None:
        """The LDS elements at the current binding (the next iteration) are those of the
        first: the loop is single-stage."""
        for a, (b, el) in zip(scan.copies, copy_lds):
            if not np.array_equal(self.lds_of_copy(a)[1], el):
                raise IRError(a.op, f"'{op_name(a.op)}' op writes different LDS addresses in "
                                    f"different iterations; the front end takes a "
                                    f"single-stage loop (one LDS buffer per operand) and "
                                    f"multi-buffers it itself")
        for a, (b, el) in zip(scan.reads, read_lds):
            if not np.array_equal(self.lds_of_read(a)[1], el):
                raise IRError(a.op, f"'{op_name(a.op)}' op reads different LDS addresses in "
                                    f"different iterations; the front end takes a "
                                    f"single-stage loop")


def _is_int_like(t) -> bool:
    return isinstance(t, (ir.IndexType, ir.IntegerType))


class _FragmentSources:
    """The fragment reads an MFMA operand is computed from (through pure ops of the body)."""

    def __init__(self, scan: LoopScan) -> None:
        self.read_of_value = {a.op.results[0]: k for k, a in enumerate(scan.reads)}
        self.body_set = set(scan.ops)
        self.iter_args = list(scan.loop.regions[0].blocks[0].arguments)[1:]
        self.memo: dict = {}

    def reads(self, v, user) -> frozenset:
        if v in self.read_of_value:
            return frozenset([self.read_of_value[v]])
        if v in self.memo:
            return self.memo[v]
        owner = v.owner
        if not isinstance(owner, ir.Block) and _op(owner).name in ("arith.constant",
                                                                    "ub.poison"):
            return frozenset()  # constant lanes (e.g. the vector a fragment is built in)
        if isinstance(owner, ir.Block) or _op(owner) not in self.body_set:
            raise IRError(user, f"'{op_name(user)}' op: an MFMA operand comes from "
                                f"{'an iter_arg' if v in self.iter_args else 'outside the loop'}"
                                f", not from an LDS fragment read of the iteration")
        o = _op(owner)
        if o.name == "amdgpu.mfma" or not is_pure(o):
            raise IRError(user, f"'{op_name(user)}' op: an MFMA operand comes from "
                                f"'{o.name}' at {at(o)}, not from an "
                                f"LDS fragment read")
        out = frozenset()
        # integer scalars are index arithmetic, except the elements an op builds a vector
        # from (an i8 operand's elements, read one at a time: vector.from_elements)
        builds = any(isinstance(r.type, ir.VectorType) for r in o.results)
        for x in o.operands:
            if isinstance(x.type, ir.VectorType) or not _is_int_like(x.type) or \
                    (builds and isinstance(x.type, ir.IntegerType)):
                out = out | self.reads(x, user)
        self.memo[v] = out
        return out


def _products(scan: LoopScan, acc: _Accesses) -> list:
    """[(loop_model.Mfma, op)] of every MFMA: the fragment reads of its A and B operands and
    the iter_arg its accumulator chain starts at."""
    sources = _FragmentSources(scan)
    mfma_acc = {}
    out = []
    for op in scan.mfmas:
        a_reads = sources.reads(op.operands[0], op)
        b_reads = sources.reads(op.operands[1], op)
        for side, reads in (("A", a_reads), ("B", b_reads)):
            if not reads:
                raise IRError(op, f"'{op_name(op)}' op: its {side} operand is a constant, not "
                                  f"from an LDS fragment read of the iteration")
        c = op.operands[2]
        if c in sources.iter_args:
            chain = sources.iter_args.index(c)
        elif not isinstance(c.owner, ir.Block) and _op(c.owner) in mfma_acc:
            chain = mfma_acc[_op(c.owner)]
        else:
            raise IRError(op, f"'{op_name(op)}' op: its accumulator is neither an iter_arg of the "
                              f"loop nor the result of an earlier MFMA of the same iteration")
        mfma_acc[op] = chain
        out.append((LM.Mfma(acc.idx(op), a_reads, b_reads, chain), op))
    return out


def _carried_accumulators(scan: LoopScan, mfmas: list) -> list:
    """The iter_arg index of each yield operand: every one must be the end of the MFMA
    accumulator chain that starts at the same iter_arg."""
    chain_of = {op: m.acc for m, op in mfmas}
    term = _op(list(scan.loop.regions[0].blocks[0].operations)[-1])
    acc_of_yield = []
    for i, y in enumerate(term.operands):
        owner = y.owner
        if isinstance(owner, ir.Block) or _op(owner) not in chain_of or \
                chain_of[_op(owner)] != i:
            raise IRError(term, f"'scf.yield' op: loop-carried value #{i} is not an MFMA "
                                f"accumulator chain starting at iter_arg #{i}; the front end "
                                f"carries only accumulators across iterations")
        acc_of_yield.append(i)
    return acc_of_yield
