"""The front end: a natural K-loop becomes the schedule's tagged loop.

A *natural* K-loop is what a compiler writes before software pipelining: an
``scf.for`` over K tiles whose body copies the tiles of A and B from global memory to
LDS, synchronises, reads MFMA fragments from LDS and multiplies, with the accumulators
in ``iter_args``.  :func:`scan_loop` recognises every op's role from its kind and the
memory it touches, :func:`analyse` evaluates every access for every thread
(``loop_eval``) and partitions copies and reads into the schedule's channels and
subtiles (``pipeline_mlir.kernel.loop_model``), and :func:`adopt` rewrites the loop
into the concrete form of ``docs/dialect.md``: two K tiles per iteration (the
schedule's two stages), one LDS buffer per (channel, stage, subtile), the payload ops in
the schedule's body order with their tags, the loop's own barriers removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, schedule_attrs
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import at, block_size, describe, effects, is_pure, kernel_of
from pipeline_mlir.frontend.tagged import TAG_ATTRS, tag_of
from pipeline_mlir.analysis.loop_eval import (WAVE, Evaluator, View, dense_i64, memory_space,
                                             segments, xor_shuffle)

#: ops that order or hint the schedule of the loop body; the pipeliner derives its own
SYNC_OPS = ("gpu.barrier", "amdgpu.lds_barrier", "rocdl.s.barrier", "rocdl.s.waitcnt",
            "amdgpu.memory_counter_wait", "rocdl.sched.barrier", "amdgpu.sched_barrier",
            "rocdl.sched.group.barrier", "rocdl.s.setprio", "rocdl.iglp.opt")
READ_OPS = ("vector.load", "vector.transfer_read", "amdgpu.transpose_load")
LDS = "workgroup"
GLOBAL_SPACES = ("global", "fat_raw_buffer")


# ---------------------------------------------------------------------------------------------
# recognising the loop
# ---------------------------------------------------------------------------------------------

@dataclass
class Access:
    op: object
    view: object = None            # memref value accessed (LDS for copies/reads)
    indices: list = field(default_factory=list)
    elements: int = 0              # elements per thread
    src: object = None             # copies: global memref
    src_indices: list = field(default_factory=list)


@dataclass
class LoopScan:
    loop: object
    kernel: object
    block: tuple[int, int, int]
    copies: list
    reads: list
    mfmas: list
    syncs: list
    ops: list                      # every op of the body, in order (yield excluded)


def is_natural_candidate(loop) -> bool:
    """An scf.for whose body holds MFMAs (directly)."""
    return any(_op(o).name == "amdgpu.mfma" for o in loop.regions[0].blocks[0].operations)


def find_natural_loops(module) -> list:

    loops = []

    def visit(o):
        o = _op(o)
        if o.name == "scf.for" and is_natural_candidate(o):
            body = [_op(x) for x in o.regions[0].blocks[0].operations]
            if not any(tag_of(x) for x in body):
                loops.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return loops


#: ops that multiply whole workgroup-level tiles: a loop holding one is not distributed to
#: threads (and MFMAs) yet
UNDISTRIBUTED_PRODUCTS = ("vector.contract", "iree_codegen.inner_tiled", "iree_gpu.multi_mma",
                          "linalg.matmul", "linalg.matmul_transpose_b", "linalg.batch_matmul")


def no_loop_reason(module):
    """Why a module without natural K-loops has nothing the front end can pipeline, as
    (op, message), when it is a kernel with products but no pipelinable loop: MFMAs outside
    any ``scf.for`` (IREE removes a loop of one iteration), or a loop that multiplies
    undistributed tiles.  None for anything else (tagged input: left to sched-import)."""

    found, tagged, products = [], [], []

    def inside_for(o) -> bool:
        p = o.parent
        while p is not None:
            p = _op(p)
            if p.name == "scf.for":
                return True
            if p.name in ("builtin.module", "gpu.module"):
                return False
            p = p.parent
        return False

    def visit(o):
        o = _op(o)
        if o.name == "amdgpu.mfma":
            found.append((o, inside_for(o)))
        elif o.name in UNDISTRIBUTED_PRODUCTS and inside_for(o):
            products.append(o)
        if o.name.startswith("sched.") or tag_of(o):
            tagged.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    if tagged:
        return None
    if found and not any(inside for _o, inside in found):
        return found[0][0], ("'amdgpu.mfma' op is not inside an scf.for: the kernel has no "
                             "K-loop to pipeline (IREE removes a loop of one iteration: the "
                             "whole reduction is a single K step)")
    if products and not found:
        o = products[0]
        return o, (f"'{o.name}' op multiplies whole tiles inside the K-loop: the loop is not "
                   f"distributed to threads and MFMAs yet (the front end takes a loop of "
                   f"amdgpu.mfma ops; with IREE's VectorDistribute pipeline, take its late "
                   f"form)")
    return None


def _space(v) -> str:
    try:
        return memory_space(v.type)
    except Exception:
        return ""


def scan_loop(loop) -> LoopScan:
    """Classify every op of the loop body; anything the pipeliner cannot move is an error."""
    kernel = kernel_of(loop)
    if kernel is None:
        raise IRError(loop, "'scf.for' op: the K-loop must be inside a gpu.func or func.func "
                            "kernel")
    bs = block_size(kernel)
    if bs is None:
        raise IRError(kernel, f"'{kernel.name}' op: the kernel does not declare its workgroup "
                              f"size (known_block_size, gpu.known_block_size or IREE's "
                              f"translation_info workgroup_size); the analysis evaluates every "
                              f"thread's addresses and needs it")
    blk = loop.regions[0].blocks[0]
    body = [_op(o) for o in blk.operations]
    copies, reads, mfmas, syncs = [], [], [], []
    for op in body[:-1]:
        name = op.name
        if len(op.regions):
            raise IRError(op, f"'{name}' op with regions inside the K-loop: the pipeliner moves "
                              f"the loop's ops one by one and cannot move nested regions")
        if name in SYNC_OPS:
            syncs.append(op)
            continue
        if name == "amdgpu.mfma":
            mfmas.append(op)
            continue
        if name == "amdgpu.gather_to_lds":
            g = segments(op)
            src, dst = op.operands[0], g[2][0]
            if _space(dst) != LDS:
                raise IRError(op, f"'{name}' op copies into {dst.type}, not LDS")
            tt = ir.TypeAttr(op.attributes["transferType"]).value
            n = ir.VectorType(tt).shape[0] if isinstance(tt, ir.VectorType) else 1
            copies.append(Access(op, dst, list(g[3]), n, src, list(g[1])))
            continue
        eff = effects(op)
        if eff is None:
            raise IRError(op, f"'{name}' op inside the K-loop does not declare its side effects "
                              f"(MLIR knows nothing of what it touches), so the pipeliner cannot "
                              f"move it")
        if not eff:
            continue
        touched = {(k, _space(v)) for k, v in eff if v is not None}
        if name in READ_OPS and touched == {("read", LDS)}:
            reads.append(_read_access(op))
            continue
        what = ", ".join(sorted(f"{k}s {s or 'memory'}" for k, s in touched)) or \
            ", ".join(sorted({k for k, _ in eff}))
        if any(s in GLOBAL_SPACES for _, s in touched) and all(k == "read" for k, _ in touched):
            raise IRError(op, f"'{name}' op reads global memory into registers inside the K-loop; "
                              f"the schedule moves A and B tiles with direct-to-LDS copies "
                              f"(amdgpu.gather_to_lds), and a global load that is not the first "
                              f"half of a global->LDS copy cannot be pipelined")
        raise IRError(op, f"'{name}' op has side effects the pipeliner cannot move ({what}): "
                          f"the K-loop may only copy global memory to LDS, read LDS fragments, "
                          f"synchronise and multiply")
    if not mfmas:
        raise IRError(loop, "'scf.for' op has no amdgpu.mfma")
    if not copies:
        raise IRError(loop, "'scf.for' op has no global->LDS copy (amdgpu.gather_to_lds)")
    return LoopScan(loop, kernel, bs, copies, reads, mfmas, syncs, body[:-1])


def _read_access(op) -> Access:
    name = op.name
    if name == "vector.transfer_read":
        g = segments(op)
        vt = ir.VectorType(op.results[0].type)
        return Access(op, g[0][0], list(g[1]), vt.shape[-1])
    vt = ir.VectorType(op.results[0].type)
    n = 1
    for d in vt.shape:
        n *= d
    return Access(op, op.operands[0], list(op.operands[1:]), n)


# ---------------------------------------------------------------------------------------------
# normalising fragment reads: one read per ds_read-sized fragment
# ---------------------------------------------------------------------------------------------

def split_reads(scan: LoopScan) -> None:
    """Replace every ``vector.transfer_read`` of several fragments (a vector whose leading
    dimensions are not all 1) by one read per fragment.  A ``vector.extract`` that takes
    one fragment then uses that fragment's read; any other use gets the whole vector
    rebuilt from the fragments with ``vector.insert`` (so the analysis still sees which
    fragment each element comes from)."""
    import itertools

    from pipeline_mlir.dialect import bindings as B

    new_reads = []
    for acc in scan.reads:
        op = acc.op
        if op.name != "vector.transfer_read":
            new_reads.append(acc)
            continue
        vt = ir.VectorType(op.results[0].type)
        outer = vt.shape[:-1]
        if all(d == 1 for d in outer):
            new_reads.append(acc)
            continue
        _check_transfer_read(op)
        users = [_op(u.owner) for u in op.results[0].uses]
        g = segments(op)
        mem, idx, pad = g[0][0], list(g[1]), g[2][0]
        rank = len(idx)
        sub_t = ir.VectorType.get([1] * len(outer) + [vt.shape[-1]], vt.element_type)
        subs = {}
        with ir.InsertionPoint(op), op.location:
            for pos in itertools.product(*[range(d) for d in outer]):
                new_idx = list(idx)
                for k, p in enumerate(pos):
                    if p:
                        d = rank - len(vt.shape) + k
                        new_idx[d] = _addi(new_idx[d], _index_const(p))
                attrs = {a: op.attributes[a] for a in ("in_bounds", "permutation_map")}
                attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, rank, 1, 0])
                subs[pos] = ir.Operation.create("vector.transfer_read", results=[sub_t],
                                                operands=[mem] + new_idx + [pad],
                                                attributes=attrs)
        full = None
        for u in users:
            pos = _static_position(u)
            if pos is not None and len(pos) <= len(outer) + 1 and \
                    all(d == 1 for d in outer[len(pos):]):
                pos = list(pos)
                key = tuple(pos[:len(outer)] + [0] * (len(outer) - len(pos)))
                new_pos = [0] * min(len(pos), len(outer)) + pos[len(outer):]
                with ir.InsertionPoint(u), u.location:
                    rep = ir.Operation.create(
                        "vector.extract", results=[u.results[0].type],
                        operands=[subs[key].results[0]],
                        attributes={"static_position": ir.DenseI64ArrayAttr.get(new_pos)})
                u.results[0].replace_all_uses_with(rep.results[0])
                u.erase()
                continue
            if full is None:
                with ir.InsertionPoint(op), op.location:
                    flat_t = ir.VectorType.get([vt.shape[-1]], vt.element_type)
                    full = ir.Operation.create("ub.poison", results=[vt], attributes={
                        "value": ir.Attribute.parse("#ub.poison")}).results[0]
                    for pos, new in subs.items():
                        piece = B.vector.shape_cast(flat_t, new.results[0])
                        full = ir.Operation.create(
                            "vector.insert", results=[vt], operands=[piece, full],
                            attributes={"static_position": ir.DenseI64ArrayAttr.get(
                                list(pos))}).results[0]
            for i, x in enumerate(u.operands):
                if x == op.results[0]:
                    u.operands[i] = full
        op.erase()
        for new in subs.values():
            new_reads.append(_read_access(new))
    scan.reads = new_reads
    blk = scan.loop.regions[0].blocks[0]
    scan.ops = [_op(o) for o in blk.operations][:-1]


def _static_position(op):
    if op.name != "vector.extract" or "static_position" not in op.attributes:
        return None
    if len(op.operands) != 1:
        return None
    return dense_i64(op, "static_position")


def _check_transfer_read(op) -> None:
    vt = ir.VectorType(op.results[0].type)
    mt = ir.MemRefType(op.operands[0].type)
    pm = ir.AffineMapAttr(op.attributes["permutation_map"]).value
    minor = ir.AffineMap.get_minor_identity(mt.rank, vt.rank)
    if str(pm) != str(minor):
        raise IRError(op, f"'{op.name}' op reads with permutation map {pm}; the front end "
                          f"handles minor-identity reads (a transposed read is an "
                          f"amdgpu.transpose_load)")
    if "in_bounds" in op.attributes:
        ib = [str(x) for x in ir.ArrayAttr(op.attributes["in_bounds"])]
        if not all(x == "true" for x in ib):
            raise IRError(op, f"'{op.name}' op may read out of bounds (in_bounds is not all "
                              f"true); a masked fragment read cannot be pipelined")
    g = segments(op)
    if len(g) > 3 and g[3]:
        raise IRError(op, f"'{op.name}' op has a mask; a masked fragment read cannot be "
                          f"pipelined")


def _index_const(v: int):
    from pipeline_mlir.dialect import bindings as B

    t = ir.IndexType.get()
    return B.arith.constant(t, ir.IntegerAttr.get(t, v))


def _addi(a, b):
    from pipeline_mlir.dialect import bindings as B

    return B.arith.addi(a, b)


# ---------------------------------------------------------------------------------------------
# evaluating the accesses
# ---------------------------------------------------------------------------------------------

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
    partition: object = None
    ops: list = field(default_factory=list)   # op index -> op


def _loop_bounds(ev: Evaluator, loop):
    lb, ub, step = (ev.uniform(loop.operands[i]) for i in range(3))
    return lb, ub, step


def _contiguous(view: View, op, what: str) -> None:
    if view.strides and view.strides[-1] != 1:
        raise IRError(op, f"'{op.name}' op {what} with a stride of {view.strides[-1]} elements "
                          f"in the innermost dimension; fragments must be contiguous per lane")


def analyse(scan: LoopScan) -> Analysis:
    loop = scan.loop
    ev = Evaluator(scan.block)
    ev.where = loop
    if ev.threads % WAVE:
        raise IRError(scan.kernel, f"'{scan.kernel.name}' op: {ev.threads} threads is not a "
                                   f"whole number of 64-lane waves")
    iv = loop.regions[0].blocks[0].arguments[0]
    lb, _ub, step = _loop_bounds(ev, loop)
    lb = 0 if lb is None else lb
    step_v = 1 if step is None else step
    ops = []
    index_of = {}

    def idx(op) -> int:
        if op not in index_of:
            index_of[op] = len(ops)
            ops.append(op)
        return index_of[op]

    buffers, buffer_views, buffer_ids = [], {}, {}

    def buffer_id(view: View, op) -> int:
        if view.root not in buffer_ids:
            rt = ir.MemRefType(view.root.type)
            if not rt.has_static_shape:
                raise IRError(op, f"'{op.name}' op accesses LDS of dynamic size ({view.root.type})")
            buffer_ids[view.root] = len(buffers)
            buffers.append(view.root)
            buffer_views[buffer_ids[view.root]] = view
        return buffer_ids[view.root]

    lane = ev.tid % WAVE
    wave0 = (ev.tid // WAVE) * WAVE

    def lds_of_copy(a: Access) -> tuple[int, np.ndarray]:
        v = ev.view(a.view)
        base = v.element([ev.value(i) for i in a.indices])
        first = base[wave0]
        if np.any(base != first):
            raise IRError(a.op, f"'{a.op.name}' op: its LDS destination differs between the "
                                f"lanes of a wave; the DMA writes a wave's lanes contiguously "
                                f"from one wave-uniform address")
        el = first[:, None] + lane[:, None] * a.elements + np.arange(a.elements)[None, :]
        return buffer_id(v, a.op), el

    def src_of_copy(a: Access) -> np.ndarray:
        v = ev.view(a.src)
        _contiguous(v, a.op, "reads global memory")
        start = v.element([ev.value(i) for i in a.src_indices])
        return start[:, None] + np.arange(a.elements)[None, :]

    def lds_of_read(a: Access) -> tuple[int, np.ndarray]:
        v = ev.view(a.view)
        _contiguous(v, a.op, "reads LDS")
        start = v.element([ev.value(i) for i in a.indices])
        el = start[:, None] + np.arange(a.elements)[None, :]
        if v.swizzle is not None:
            el = xor_shuffle(el, *v.swizzle)
        return buffer_id(v, a.op), el

    ev.bind(iv, lb)
    copy_lds = [lds_of_copy(a) for a in scan.copies]
    src0 = [src_of_copy(a) for a in scan.copies]
    read_lds = [lds_of_read(a) for a in scan.reads]
    for a, (b, el) in list(zip(scan.copies, copy_lds)) + list(zip(scan.reads, read_lds)):
        size = int(np.prod(ir.MemRefType(buffers[b].type).shape))
        if el.min() < 0 or el.max() >= size:
            raise IRError(a.op, f"'{a.op.name}' op accesses LDS outside its buffer "
                                f"({buffers[b].type}) for some lane: element "
                                f"{int(el.max() if el.max() >= size else el.min())}")
    ev.bind(iv, lb + step_v)
    for a, (b, el) in zip(scan.copies, copy_lds):
        if not np.array_equal(lds_of_copy(a)[1], el):
            raise IRError(a.op, f"'{a.op.name}' op writes different LDS addresses in different "
                                f"iterations; the front end takes a single-stage loop (one LDS "
                                f"buffer per operand) and multi-buffers it itself")
    for a, (b, el) in zip(scan.reads, read_lds):
        if not np.array_equal(lds_of_read(a)[1], el):
            raise IRError(a.op, f"'{a.op.name}' op reads different LDS addresses in different "
                                f"iterations; the front end takes a single-stage loop")
    src1 = [src_of_copy(a) for a in scan.copies]
    ev.bind(iv, lb)
    global_ids = {}
    copies = []
    for a, (b, el), s0, s1 in zip(scan.copies, copy_lds, src0, src1):
        root = ev.view(a.src).root
        gid = global_ids.setdefault(root, len(global_ids))
        copies.append(LM.Copy(idx(a.op), b, el, gid, s0, s1, 1))
    reads = []
    for a, (b, el) in zip(scan.reads, read_lds):
        eb = buffer_views[b].elem_bytes
        n_bytes = a.elements * eb
        instr = 1 if a.op.name == "amdgpu.transpose_load" else max(1, -(-n_bytes // 16))
        reads.append(LM.Read(idx(a.op), b, el, instr))
    read_of_value = {}
    for k, a in enumerate(scan.reads):
        read_of_value[a.op.results[0]] = k
    body_set = set(scan.ops)
    blk = loop.regions[0].blocks[0]
    iter_args = list(blk.arguments)[1:]

    def trace(v, user, memo) -> frozenset:
        if v in read_of_value:
            return frozenset([read_of_value[v]])
        if v in memo:
            return memo[v]
        owner = v.owner
        if not isinstance(owner, ir.Block) and _op(owner).name in ("arith.constant",
                                                                    "ub.poison"):
            return frozenset()  # constant lanes (e.g. the vector a fragment is built in)
        if isinstance(owner, ir.Block) or _op(owner) not in body_set:
            raise IRError(user, f"'{user.name}' op: an MFMA operand comes from "
                                f"{'an iter_arg' if v in iter_args else 'outside the loop'}, "
                                f"not from an LDS fragment read of the iteration")
        o = _op(owner)
        if o.name == "amdgpu.mfma" or not is_pure(o):
            raise IRError(user, f"'{user.name}' op: an MFMA operand comes from "
                                f"'{o.name}' at {at(o)}, not from an "
                                f"LDS fragment read")
        out = frozenset()
        for x in o.operands:
            if isinstance(x.type, ir.VectorType) or not _is_int_like(x.type):
                out = out | trace(x, user, memo)
        memo[v] = out
        return out

    mfma_acc = {}
    mfmas = []
    memo: dict = {}
    for op in scan.mfmas:
        a_reads = trace(op.operands[0], op, memo)
        b_reads = trace(op.operands[1], op, memo)
        c = op.operands[2]
        if c in iter_args:
            acc = iter_args.index(c)
        elif not isinstance(c.owner, ir.Block) and _op(c.owner) in mfma_acc:
            acc = mfma_acc[_op(c.owner)]
        else:
            raise IRError(op, f"'{op.name}' op: its accumulator is neither an iter_arg of the "
                              f"loop nor the result of an earlier MFMA of the same iteration")
        mfma_acc[op] = acc
        mfmas.append(LM.Mfma(idx(op), a_reads, b_reads, acc))
    term = _op(list(blk.operations)[-1])
    acc_of_yield = []
    for i, y in enumerate(term.operands):
        owner = y.owner
        if isinstance(owner, ir.Block) or _op(owner) not in mfma_acc or mfma_acc[_op(owner)] != i:
            raise IRError(term, f"'scf.yield' op: loop-carried value #{i} is not an MFMA "
                                f"accumulator chain starting at iter_arg #{i}; the front end "
                                f"carries only accumulators across iterations")
        acc_of_yield.append(i)
    an = Analysis(scan, ev, buffers, buffer_views, copies, reads, mfmas, acc_of_yield, None, ops)
    sizes = {b: int(np.prod(ir.MemRefType(v.type).shape)) for b, v in enumerate(buffers)}
    names = lambda i: describe(ops[i])  # noqa: E731
    try:
        an.partition = LM.partition(copies, reads, mfmas, sizes, names)
    except LM.LoopRefusal as e:
        where = ops[e.ops[0]] if e.ops else loop
        raise IRError(where, str(e)) from None
    return an


def _is_int_like(t) -> bool:
    return isinstance(t, (ir.IndexType, ir.IntegerType))


# ---------------------------------------------------------------------------------------------
# the schedule request the loop stands for
# ---------------------------------------------------------------------------------------------

#: MFMA operand element types -> the schedules' dtype names
DTYPES = {"bf16": "bf16", "f16": "f16", "f8E4M3FN": "fp8"}


def check_waves(scan: LoopScan, named) -> None:
    """The schedule's kernel runs a fixed number of waves; a kernel with another is
    refused (and a schedule without a kernel has no loop to build)."""
    traits = named.kernel_traits
    if traits is None:
        raise IRError(scan.loop, f"'scf.for' op: the front end builds the loop of a schedule "
                                 f"with a complete kernel (4wave, pingpong); '{named.name}' has "
                                 f"no K offsets to place the copies of two K tiles")
    threads = int(np.prod(scan.block))
    if threads != traits.threads:
        raise IRError(scan.kernel, f"'{scan.kernel.name}' op: the kernel runs {threads} threads "
                                   f"({threads / WAVE:g} waves) but the '{named.name}' schedule "
                                   f"is written for {traits.threads // WAVE} waves "
                                   f"({traits.threads} threads)")


def infer_request(an: Analysis, named):
    """The schedule the loop's payload stands for (a ``NamedSchedule``): the tile and every
    per-load count taken from the payload; an option the user gave that disagrees is an
    error."""
    from pipeline_mlir.errors import ConfigError
    from pipeline_mlir.options import value_text

    scan, p = an.scan, an.partition
    loop = scan.loop
    check_waves(scan, named)
    mf = scan.mfmas[0]
    et = str(ir.VectorType(mf.operands[0].type).element_type)
    if et not in DTYPES:
        raise IRError(mf, f"'{mf.name}' op multiplies {et}; the schedules know "
                          f"{', '.join(DTYPES)}")
    dtype = DTYPES[et]
    shape = tuple(ir.IntegerAttr(mf.attributes[a]).value for a in ("m", "n", "k"))
    for op in scan.mfmas[1:]:
        s = tuple(ir.IntegerAttr(op.attributes[a]).value for a in ("m", "n", "k"))
        e = str(ir.VectorType(op.operands[0].type).element_type)
        if s != shape or e != et:
            raise IRError(op, f"'{op.name}' op is a {s[0]}x{s[1]}x{s[2]} {e} MFMA, but "
                              f"the loop's first MFMA is {shape[0]}x{shape[1]}x{shape[2]} {et}; "
                              f"one MFMA kind per loop")
    chains: dict = {}
    for m in an.mfmas:
        chains[m.acc] = chains.get(m.acc, 0) + 1
    chain = set(chains.values())
    if len(chain) != 1:
        raise IRError(loop, f"'scf.for' op: the accumulators get different numbers of MFMAs per "
                            f"iteration ({sorted(chain)}); the schedule's MMAs are uniform")
    chain = chain.pop()
    bk = shape[2] * chain
    elems = [0, 0]
    for c, ch in zip(an.copies, p.copy_channel):
        elems[ch] += c.lds.size
    bm, bn = elems[0] // bk, elems[1] // bk
    per_group: dict = {}
    for g in p.mfma_group:
        per_group[g] = per_group.get(g, 0) + 1
    mfmas_per_mma = min(per_group.values())
    counts = {"vm_per_load_a": p.vm_per_load[0], "vm_per_load_b": p.vm_per_load[1],
              "lgkm_per_load_a": p.lgkm_per_load[0], "lgkm_per_load_b": p.lgkm_per_load[1],
              "max_globals": 0 if mfmas_per_mma < 8 else (1 if chain >= 2 else 0)}
    own = type(named).options()
    inferred = {}
    if "BM" in own:  # a tile geometry (4-wave): the counts the geometry would not derive
        inferred.update(dtype=dtype, BM=bm, BN=bn, BK=bk)
        try:
            base = type(named).from_values(inferred)
            g = base.geometry()
        except ConfigError as e:
            raise IRError(loop, f"'scf.for' op: the loop's tile ({dtype} {bm}x{bn}x{bk}) is not "
                                f"one the {named.name} schedule's geometry accepts: {e}") from None
        for k, v in counts.items():
            if getattr(g, k) != v:
                inferred[k] = v
    else:
        if "is_fp8" in own:
            inferred["is_fp8"] = dtype == "fp8"
        inferred.update({k: v for k, v in counts.items() if k in own})
    given = dict(named.items())
    for k in named.given:
        want = inferred.get(k, counts.get(k))
        if k in own and want is not None and given[k] != want:
            raise IRError(loop, f"'scf.for' op: the pipeline asks for {k}={value_text(given[k])}, "
                                f"but the loop's payload has {k}={value_text(want)}")
    values = dict(given)
    values.update(inferred)
    try:
        return type(named).from_values(values)
    except ConfigError as e:  # pragma: no cover - the inferred values are in range
        raise IRError(loop, f"'scf.for' op: {e}") from None


# ---------------------------------------------------------------------------------------------
# building the schedule's loop
# ---------------------------------------------------------------------------------------------

#: the attributes of an adopted loop naming the schedule inferred for it (read back with
#: ``ir_io.read_schedule(loop, *SCHEDULE_ATTRS)``)
SCHEDULE_ATTRS = ("sched.schedule", "sched.options")
#: gfx950 LDS per workgroup
LDS_BYTES = 160 * 1024
_K_NAMES = {0: "k0", 1: "k1", 2: "k_next", 3: "k_prev", 255: "none"}


@dataclass
class _Buffer:
    """How one LDS buffer of the natural loop is stored in the schedule's loop."""

    channel: int
    subtiles: tuple
    bit: int | None                # element bit deleted to store each subtile densely
    new: dict = field(default_factory=dict)   # (subtile, stage) -> new buffer value
    elements: int = 0              # elements per new buffer
    elem_type: object = None


class _Ix:
    """Index arithmetic emitted at the current insertion point."""

    def __init__(self, const_point) -> None:
        from pipeline_mlir.dialect import bindings as B

        self.B = B
        self.t = ir.IndexType.get()
        self.consts: dict = {}
        self.const_point = const_point

    def c(self, v: int):
        """An index constant, created once (before the loop)."""
        if v not in self.consts:
            with self.const_point:
                self.consts[v] = self.B.arith.constant(self.t, ir.IntegerAttr.get(self.t, int(v)))
        return self.consts[v]

    def add(self, a, b):
        return b if a is None else a if b is None else self.B.arith.addi(a, b)

    def mul(self, a, k: int):
        return a if k == 1 else self.B.arith.muli(a, self.c(k))

    def swizzle(self, x, row: int, access: int):
        A = self.B.arith
        r = A.divui(x, self.c(row))
        chunk = A.divui(A.remui(x, self.c(row)), self.c(access))
        phase = A.remui(r, self.c(row // access))
        mixed = A.xori(chunk, phase)
        return A.addi(A.addi(A.muli(r, self.c(row)), A.muli(mixed, self.c(access))),
                      A.remui(x, self.c(access)))

    def delete_bit(self, x, bit: int):
        A = self.B.arith
        hi = A.divui(x, self.c(1 << (bit + 1)))
        lo = A.remui(x, self.c(1 << bit))
        return A.addi(A.muli(hi, self.c(1 << bit)), lo)


class _Cloner:
    """Clones the pure ops of the natural loop body on demand, with a value mapping."""

    def __init__(self, body_set, mapping: dict) -> None:
        self.body_set = body_set
        self.map = dict(mapping)

    def get(self, v):
        if v in self.map:
            return self.map[v]
        owner = v.owner
        if isinstance(owner, ir.Block):
            return v
        o = _op(owner)
        if o not in self.body_set:
            return v
        if not is_pure(o):
            raise IRError(o, f"'{o.name}' op: its result is used for an address or an MFMA "
                             f"operand, but it is not side-effect free")
        operands = [self.get(x) for x in o.operands]
        new = o.clone()
        for i, x in enumerate(operands):
            new.operands[i] = x
        for r, nr in zip(o.results, new.results):
            self.map[r] = nr
        return self.map[v]


def _lds_uses_outside(root, loop) -> object | None:
    """A use of an LDS buffer (through view ops) outside the loop, other than
    deallocation; None if there is none."""
    views = ("memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast",
             "memref.reinterpret_cast", "memref.assume_alignment", "memref.memory_space_cast",
             "iree_codegen.swizzle_hint")
    todo, seen = [root], set()
    while todo:
        v = todo.pop()
        for u in v.uses:
            o = _op(u.owner)
            if o in seen:
                continue
            seen.add(o)
            inside = _inside(o, loop)
            if o.name in views:
                todo.extend(o.results)
            elif not inside and o.name != "memref.dealloc":
                return o
    return None


def _inside(op, loop) -> bool:
    p = op
    while p is not None:
        if p == loop:
            return True
        p = _op(p).parent
        if p is not None and _op(p).name in ("func.func", "gpu.func"):
            return False
    return False


def _plan_buffers(an: Analysis) -> dict:
    p = an.partition
    out = {}
    for b, root in enumerate(an.buffers):
        chans = {p.copy_channel[i] for i, c in enumerate(an.copies) if c.buffer == b} | \
                {p.read_channel[i] for i, r in enumerate(an.reads) if r.buffer == b}
        where = next(an.ops[c.op] for c in an.copies if c.buffer == b) \
            if any(c.buffer == b for c in an.copies) else an.scan.loop
        if len(chans) != 1:
            raise IRError(where, f"'{where.name}' op: one LDS buffer holds both A and B data; the "
                                 f"front end multi-buffers one buffer per operand")
        outside = _lds_uses_outside(root, an.scan.loop)
        if outside is not None:
            raise IRError(outside, f"'{outside.name}' op uses an LDS buffer of the K-loop outside "
                                   f"the loop; the pipeliner replaces the loop's LDS buffers")
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
        if len(by_sub) == 2:
            bit = LM.compaction_bit(by_sub, size, 0)
        out[b] = _Buffer(chans.pop(), tuple(sorted(by_sub)), bit,
                         elements=size // 2 if bit is not None else size,
                         elem_type=mt.element_type)
    total = sum(len(buf.subtiles) * 2 * buf.elements * an.buffer_views[b].elem_bytes
                for b, buf in out.items())
    if total > LDS_BYTES:
        raise IRError(an.scan.loop, f"'scf.for' op: the schedule's LDS buffers (two stages of "
                                    f"every subtile) need {total} bytes, more than the "
                                    f"{LDS_BYTES} bytes of LDS a gfx950 workgroup can have")
    return out


def adopt(an: Analysis, request):
    """Rewrite the natural loop of ``an`` into the schedule's tagged loop (concrete form);
    returns the new ``scf.for`` (carrying ``sched.schedule`` and ``sched.options``, the
    schedule inferred for it)."""
    from pipeline_mlir.dialect import bindings as B
    from pipeline_mlir.dialect import ops as S

    req = infer_request(an, request)
    schedule = req.build()
    body = schedule.declare_ops()
    p = an.partition
    scan, loop = an.scan, an.scan.loop
    trips = _static_trips(an)
    if trips is not None and (trips < 2 or trips % 2):
        raise IRError(loop, f"'scf.for' op runs {trips} iteration(s); the schedule's loop "
                            f"takes two K tiles per iteration (prologue and epilogue one pair "
                            f"each), so the trip count must be even and at least 2")
    buffers = _plan_buffers(an)
    tag_name = {v: k for k, v in TAG_ATTRS.items()}
    role = {0: "global", 1: "global", 3: "frag", 4: "frag", 5: "mma"}
    kinds = [role.get(d.tag) for d in body]
    if None in kinds:  # pragma: no cover - the double-buffer bodies hold only these
        raise IRError(loop, f"'{req.name}' body op outside the GEMM roles")
    # which fragment load feeds each MMA operand: the latest of its (channel, subtile) before
    # it in the body, else the last one (carried from the previous iteration)
    frags = [(i, d) for i, d in enumerate(body) if kinds[i] == "frag"]

    def source(i, ch, sub):
        from pipeline_mlir.kernel.gemm import latest_fragment

        return latest_fragment(frags, i, ch, sub)

    mma_plan = {}
    carried = []
    seen_stage = {}
    for i, d in enumerate(body):
        if kinds[i] != "mma":
            continue
        ja, ca = source(i, 0, d.stage)
        jb, cb = source(i, 1, d.subtile)
        st = body[ja].stage
        if body[jb].stage != st or seen_stage.get((d.stage, d.subtile), -1) >= st:
            raise IRError(loop, f"'{req.name}' schedule body: MMA {i} does not read one K tile "
                                f"in order; the front end cannot build its loop")
        seen_stage[(d.stage, d.subtile)] = st
        mma_plan[i] = (ja, ca, jb, cb)
        for j, c in ((ja, ca), (jb, cb)):
            if c and j not in carried:
                carried.append(j)
    reads_of = {}  # (channel, subtile) -> read indices in loop order
    for k, r in sorted(enumerate(an.reads), key=lambda x: x[1].op):
        reads_of.setdefault((p.read_channel[k], p.read_subtile[k]), []).append(k)
    copies_of = {}
    for k, c in sorted(enumerate(an.copies), key=lambda x: x[1].op):
        copies_of.setdefault((p.copy_channel[k], p.copy_subtile[k]), []).append(k)
    mfmas_of = {}
    for k, m in enumerate(an.mfmas):
        mfmas_of.setdefault(p.mfma_group[k], []).append(k)
    read_ops = [an.ops[r.op] for r in an.reads]
    copy_acc = {an.ops[c.op]: a for c, a in zip(an.copies, scan.copies)}
    read_acc = {an.ops[r.op]: a for r, a in zip(an.reads, scan.reads)}
    blk = loop.regions[0].blocks[0]
    iv = blk.arguments[0]
    inits = list(loop.operands)[3:]
    body_set = set(scan.ops)
    ev = an.evaluator
    carried_reads = [(j, k) for j in carried
                     for k in reads_of[(body[j].channel, body[j].subtile)]]
    kernel_block = scan.kernel.regions[0].blocks[0]
    with loop.context, loop.location:
        # the new LDS buffers: one per (original buffer, subtile, stage)
        first = _op(list(kernel_block.operations)[0])
        with ir.InsertionPoint(first):
            # in (channel, stage, subtile) order, the kernel plan's order of LDS buffers
            slots = sorted((buf.channel, st, sub, b) for b, buf in buffers.items()
                           for sub in buf.subtiles for st in (0, 1))
            for _ch, st, sub, b in slots:
                buf = buffers[b]
                mt = ir.MemRefType.get([buf.elements], buf.elem_type,
                                       memory_space=ir.Attribute.parse(
                                           "#gpu.address_space<workgroup>"))
                with an.buffers[b].owner.location if not isinstance(
                        an.buffers[b].owner, ir.Block) else loop.location:
                    a = ir.Operation.create("memref.alloc", results=[mt], attributes={
                        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0])})
                buf.new[(sub, st)] = a.results[0]
        with ir.InsertionPoint(loop):
            iv_t = iv.type
            two = B.arith.constant(iv_t, ir.IntegerAttr.get(iv_t, 2))
            step2 = B.arith.muli(loop.operands[2], two)
            if trips is None and not _even_trips_proven(loop):
                _trap_unless_even_trips(loop, step2)
            zero = {}
            carried_inits = []
            for j, k in carried_reads:
                t = read_ops[k].results[0].type
                if str(t) not in zero:
                    vt = ir.VectorType(t)
                    zero[str(t)] = B.arith.constant(t, ir.DenseElementsAttr.get_splat(
                        vt, ir.FloatAttr.get(vt.element_type, 0.0)))
                carried_inits.append(zero[str(t)])
            new_loop = B.scf.ForOp(loop.operands[0], loop.operands[1], step2,
                                   inits + carried_inits)
        new_iter = list(new_loop.inner_iter_args)
        carried_arg = {jk: new_iter[len(inits) + n] for n, jk in enumerate(carried_reads)}
        with ir.InsertionPoint(new_loop.body):
            ix = _Ix(ir.InsertionPoint(new_loop.operation))
            shifted = {}

            def iv_at(shift: int):
                if shift not in shifted:
                    if shift == 0:
                        shifted[0] = new_loop.induction_variable
                    else:
                        c = B.arith.constant(iv_t, ir.IntegerAttr.get(iv_t, shift))
                        shifted[shift] = B.arith.addi(new_loop.induction_variable,
                                                      B.arith.muli(loop.operands[2], c))
                return shifted[shift]

            cloners = {}

            def cloner(shift: int) -> _Cloner:
                if shift not in cloners:
                    cloners[shift] = _Cloner(body_set, {iv: iv_at(shift)})
                return cloners[shift]

            def linear(v, cl: _Cloner, root):
                if v == root:
                    return None
                o = _op(v.owner)
                if o.name == "memref.subview":
                    src = o.operands[0]
                    base = linear(src, cl, root)
                    sv = ev.view(src)
                    dyn = iter(segments(o)[1])
                    for off, stride in zip(dense_i64(o, "static_offsets"), sv.strides):
                        term = cl.get(next(dyn)) if off == _DYN else (ix.c(off) if off else None)
                        if term is not None:
                            base = ix.add(base, ix.mul(term, stride))
                    return base
                if o.name == "memref.reinterpret_cast":
                    so = dense_i64(o, "static_offsets")[0]
                    return cl.get(segments(o)[1][0]) if so == _DYN else (ix.c(so) if so else None)
                return linear(o.operands[0], cl, root)

            def lds_index(acc: Access, cl: _Cloner, swizzled: bool, buf: _Buffer):
                v = ev.view(acc.view)
                x = linear(acc.view, cl, v.root)
                for i, s in zip(acc.indices, v.strides):
                    x = ix.add(x, ix.mul(cl.get(i), s))
                if x is None:
                    x = ix.c(0)
                if swizzled and v.swizzle is not None:
                    x = ix.swizzle(x, *v.swizzle)
                if buf.bit is not None:
                    x = ix.delete_bit(x, buf.bit)
                return x

            def tag(op, kind: str, fields: dict) -> None:
                d = {k: (ir.StringAttr.get(v) if isinstance(v, str) else
                         ir.IntegerAttr.get(ir.IntegerType.get_signless(64), v))
                     for k, v in fields.items()}
                op.attributes[tag_name[kind]] = ir.DictAttr.get(d)

            frag_value = {}   # (body index, read) -> value of the read (original type)
            acc_now = {a: new_iter[a] for a in range(len(inits))}
            for i, d in enumerate(body):
                if kinds[i] == "global":
                    shift = d.k_offset.signed_bk_multiple() if d.k_offset.name != "NONE" else 0
                    cl = cloner(shift)
                    for k in copies_of[(d.channel, d.subtile)]:
                        c = an.copies[k]
                        acc = copy_acc[an.ops[c.op]]
                        buf = buffers[c.buffer]
                        dst = buf.new[(d.subtile, d.stage)]
                        idx = lds_index(acc, cl, False, buf)
                        old = acc.op
                        srcs = [cl.get(acc.src)] + [cl.get(x) for x in acc.src_indices]
                        attrs = {a: old.attributes[a] for a in _attr_names(old)
                                 if a != "operandSegmentSizes"}
                        attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get(
                            [1, len(acc.src_indices), 1, 1])
                        with old.location:
                            new = ir.Operation.create("amdgpu.gather_to_lds",
                                                      operands=srcs + [dst, idx], attributes=attrs)
                        tag(new, S.GLOBAL_LOAD, {"channel": d.channel, "stage": d.stage,
                                                 "subtile": d.subtile,
                                                 "k_offset": _K_NAMES[int(d.k_offset)], "id": i})
                elif kinds[i] == "frag":
                    cl = cloner(0)
                    for k in reads_of[(d.channel, d.subtile)]:
                        r = an.reads[k]
                        old = read_ops[k]
                        acc = read_acc[old]
                        buf = buffers[r.buffer]
                        src = buf.new[(d.subtile, d.stage)]
                        idx = lds_index(acc, cl, True, buf)
                        rt = old.results[0].type
                        vt = ir.VectorType(rt)
                        flat = ir.VectorType.get([acc.elements], vt.element_type)
                        with old.location:
                            if old.name == "amdgpu.transpose_load":
                                new = ir.Operation.create("amdgpu.transpose_load", results=[rt],
                                                          operands=[src, idx])
                                val = new.results[0]
                            else:
                                new = ir.Operation.create("vector.load", results=[flat],
                                                          operands=[src, idx])
                                val = new.results[0]
                                if str(flat) != str(rt):
                                    val = B.vector.shape_cast(rt, val)
                        tag(new, S.FRAG_LOAD, {"channel": d.channel, "stage": d.stage,
                                               "subtile": d.subtile, "id": i})
                        frag_value[(i, k)] = val
                else:
                    ja, ca, jb, cb = mma_plan[i]
                    for k in mfmas_of[(d.stage, d.subtile)]:
                        m = an.mfmas[k]
                        op = an.ops[m.op]
                        mapping = {iv: iv_at(0)}
                        for j, c, rs in ((ja, ca, m.a_reads), (jb, cb, m.b_reads)):
                            for r in rs:
                                mapping[read_ops[r].results[0]] = (
                                    carried_arg[(j, r)] if c else frag_value[(j, r)])
                        cl = _Cloner(body_set, mapping)
                        a, b = cl.get(op.operands[0]), cl.get(op.operands[1])
                        new = op.clone()
                        new.operands[0] = a
                        new.operands[1] = b
                        new.operands[2] = acc_now[m.acc]
                        acc_now[m.acc] = new.results[0]
                        # the next MFMA of this accumulator continues from here
                        tag(new, S.MMA_OP, {"stage": d.stage, "subtile": d.subtile, "id": i})
            B.scf.YieldOp([acc_now[a] for a in range(len(inits))] +
                          [frag_value[jk] for jk in carried_reads])
        for k, v in schedule_attrs(req, *SCHEDULE_ATTRS).items():
            new_loop.operation.attributes[k] = v
    for old, new in zip(loop.results, list(new_loop.results)[:len(inits)]):
        old.replace_all_uses_with(new)
    loop.erase()
    _iree_base_lowering(scan.kernel)
    for b, root in enumerate(an.buffers):
        _erase_dead(root)
    return new_loop.operation


_DYN = -9223372036854775808


def _erase_attribution(arg, block) -> None:
    """Drop a gpu.func workgroup attribution nothing uses any more (its LDS would otherwise
    stay declared, and shift where LLVM places the schedule's buffers)."""
    f = block.owner
    f = _op(f) if f is not None else None
    if f is None or f.name != "gpu.func" or list(arg.uses) or \
            "workgroup_attributions" not in f.attributes:
        return
    n_in = len(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).inputs)
    n_wg = ir.IntegerAttr(f.attributes["workgroup_attributions"]).value
    if not n_in <= arg.arg_number < n_in + n_wg:
        return
    block.erase_argument(arg.arg_number)
    f.attributes["workgroup_attributions"] = ir.IntegerAttr.get(
        ir.IntegerType.get_signless(64), n_wg - 1)


def _static_trips(an: Analysis) -> int | None:
    """The loop's trip count when its bounds are constants (None otherwise)."""
    lb, ub, step = _loop_bounds(an.evaluator, an.scan.loop)
    consts = all(_constant(v) is not None for v in list(an.scan.loop.operands)[:3])
    if not consts or None in (lb, ub, step) or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def _constant(v) -> int | None:
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None
    o = _op(owner)
    if o.name in ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi"):
        return _constant(o.operands[0])
    if o.name == "arith.constant" and isinstance(o.attributes["value"], ir.IntegerAttr):
        return ir.IntegerAttr(o.attributes["value"]).value
    return None


def _even_trips_proven(loop) -> bool:
    """A trip count known only at run time that the bounds' arithmetic shows even and at
    least 2: lower bound 0, upper bound a product with a constant multiple of two steps,
    whose other factor is a constant >= 1 or a ``max`` with a constant >= 1."""
    lb, ub, step = list(loop.operands)[:3]
    s = _constant(step)
    if _constant(lb) != 0 or s is None or s <= 0:
        return False

    def strip(v):
        while not isinstance(v.owner, ir.Block) and _op(v.owner).name in (
                "arith.index_cast", "arith.index_castui", "arith.extui"):
            v = _op(v.owner).operands[0]
        return v

    def at_least_one(v) -> bool:
        v = strip(v)
        c = _constant(v)
        if c is not None:
            return c >= 1
        if isinstance(v.owner, ir.Block):
            return False
        o = _op(v.owner)
        return o.name in ("arith.maxui", "arith.maxsi") and any(
            (_constant(x) or 0) >= 1 for x in o.operands)

    u = strip(ub)
    if isinstance(u.owner, ir.Block) or _op(u.owner).name != "arith.muli":
        return False
    a, b = _op(u.owner).operands
    for x, y in ((a, b), (b, a)):
        c = _constant(x)
        if c is not None and c > 0 and c % (2 * s) == 0 and at_least_one(y):
            return True
    return False


def _trap_unless_even_trips(loop, step2) -> None:
    """A loop whose trip count is only known at run time: trap (``s_trap``) unless it is
    even and at least 2, the schedule's contract, rather than compute a wrong result."""
    from pipeline_mlir.dialect import bindings as B

    A = B.arith
    lb, ub = loop.operands[0], loop.operands[1]
    t = lb.type
    span = A.subi(ub, lb)
    rem = A.remui(span, step2)
    zero = A.constant(t, ir.IntegerAttr.get(t, 0))
    odd = A.cmpi(A.CmpIPredicate.ne, rem, zero)
    short = A.cmpi(A.CmpIPredicate.slt, span, step2)
    bad = A.ori(odd, short)
    if_op = B.scf.IfOp(bad)
    with ir.InsertionPoint(if_op.then_block):
        ir.Operation.create("llvm.intr.trap")
        B.scf.YieldOp([])


def _iree_base_lowering(kernel) -> None:
    """An IREE kernel (``translation_info`` naming a codegen pipeline such as
    TileAndFuse) is done with tiling once its loop is pipelined: it names IREE's
    ``BaseLowering`` pipeline instead, so that ``iree-compile`` given it back (executable
    substitution) lowers it as it is rather than tiling and pipelining it again."""
    import re

    if "translation_info" not in kernel.attributes:
        # IREE's late codegen stages have dropped it; inside an executable, say how the
        # kernel is lowered (what substitution needs)
        p = kernel.parent
        while p is not None and _op(p).name != "hal.executable.variant":
            p = _op(p).parent
        bs = block_size(kernel)
        if p is not None and bs is not None:
            kernel.attributes["translation_info"] = ir.Attribute.parse(
                f"#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> "
                f"workgroup_size = [{bs[0]}, {bs[1]}, {bs[2]}] subgroup_size = {WAVE}>")
        return
    text = str(kernel.attributes["translation_info"])
    new = re.sub(r"#iree_gpu\.pipeline<\w+>", "#iree_gpu.pipeline<BaseLowering>", text)
    if new != text:
        kernel.attributes["translation_info"] = ir.Attribute.parse(new)


def _attr_names(op) -> list[str]:
    a = op.attributes
    return [a[i].name for i in range(len(a))]


def _erase_dead(root) -> None:
    """Erase an LDS allocation the new loop no longer uses, with its dead views and
    deallocations (a workgroup attribution stays: it is part of the kernel's signature)."""
    def users(v):
        return [_op(u.owner) for u in v.uses]

    changed = True
    while changed:
        changed = False
        todo = [root]
        while todo:
            v = todo.pop()
            for o in users(v):
                if o.name == "memref.dealloc":
                    continue
                if all(not list(r.uses) for r in o.results) and is_pure(o):
                    o.erase()
                    changed = True
                    break
                todo.extend(o.results)
            if changed:
                break
    owner = root.owner
    if isinstance(owner, ir.Block):
        _erase_attribution(root, owner)
        return
    if all(_op(u.owner).name == "memref.dealloc" for u in root.uses):
        for o in [_op(u.owner) for u in root.uses]:
            o.erase()
        _op(owner).erase()
