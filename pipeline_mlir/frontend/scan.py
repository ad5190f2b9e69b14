"""Recognising a natural K-loop and the role of each of its ops.

A *natural* K-loop is what a compiler writes before software pipelining: an ``scf.for``
over K tiles whose body copies the tiles of A and B from global memory to LDS,
synchronises, reads MFMA fragments from LDS and multiplies, with the accumulators in
``iter_args``.  :func:`find_natural_loops` finds them, :func:`scan_loop` classifies every
op of a body from its kind and the memory it touches (a copy, a fragment read, an MFMA, a
synchronisation the pipelined loop replaces (:data:`SYNC_OPS`), or pure index math; anything
else, and a priority or scheduler request it cannot honour (:data:`REFUSED_SYNC_OPS`), is a
located error), and :func:`split_reads` makes every fragment read one ``ds_read``-sized
fragment.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.block_scan import block_ops
from pipeline_mlir.dialect.ir_io import IRError, index_constant, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.analysis.ir_facts import block_size, transfer
from pipeline_mlir.analysis.launch_conflicts import dispatch_conflict, launch_conflict
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.frontend.guarded_load import nested_refusal
from pipeline_mlir.frontend.kernel_ir import effects, in_lds, kernel_of
from pipeline_mlir.frontend.soundness import check_workgroup_loops
from pipeline_mlir.frontend.tagged import tag_of
from pipeline_mlir.analysis.loop_eval import Evaluator, dense_i64, memory_space, segments
from pipeline_mlir.frontend.marks import REMAINDER_ATTR, SHARED_ATTR

#: ops that synchronise the loop body or fence LLVM's scheduler, which the pipelined loop
#: replaces by its own: its barriers and waits are derived from what its reordered copies,
#: reads and MFMAs need (the counters and LDS buffers of the schedule), and it fences LLVM's
#: scheduler at its own block boundaries (a fence placed in the natural order means
#: nothing in the pipelined one).  They are dropped.
SYNC_OPS = ("gpu.barrier", "amdgpu.lds_barrier", "rocdl.s.barrier", "rocdl.s.waitcnt",
            "amdgpu.memory_counter_wait", "rocdl.sched.barrier", "amdgpu.sched_barrier")
#: ops asking for something the pipelined loop cannot honour, each with why: the front end
#: refuses them rather than dropping them
REFUSED_SYNC_OPS = {
    "rocdl.s.setprio": "the schedule sets the wave priorities itself (around the MMAs of "
                       "its blocks, or not at all)",
    "rocdl.sched.group.barrier": "it asks LLVM's scheduler for an interleave of the loop's "
                                 "instructions, whose order the schedule decides itself",
    "rocdl.iglp.opt": "it asks LLVM's scheduler for a scheduling strategy for the loop, "
                      "whose instruction order the schedule decides itself",
}
READ_OPS = ("vector.load", "vector.transfer_read", "amdgpu.transpose_load")
LDS = "workgroup"
GLOBAL_SPACES = ("global", "fat_raw_buffer")


def in_shared(op) -> bool:
    """Whether ``op`` is inside a remainder loop marked :data:`SHARED_ATTR` (its LDS uses
    are the natural loop's own until ``sched-adopt-loop`` rebuilds the loop)."""
    p = op.parent
    while p is not None:
        p = p.operation if hasattr(p, "operation") else p
        if p.name == "scf.for" and SHARED_ATTR in p.attributes:
            return True
        p = p.parent
    return False


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
    store: object = None           # register copies: the LDS store of the loaded registers


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

    @property
    def threads(self) -> int:
        """The threads of one workgroup (the product of ``block``): what every per-lane
        evaluation of the loop counts its lanes by."""
        return math.prod(self.block)


def is_natural_candidate(loop) -> bool:
    """An scf.for whose body holds MFMAs (directly)."""
    return any(_op(o).name == "amdgpu.mfma" for o in loop.regions[0].blocks[0].operations)


def find_natural_loops(module, each=None) -> list:
    """The natural K-loops of ``module``; ``each(op)`` is called on every op of the walk
    (``sched-adopt-loop``'s look at its input: ``frontend/reserved.py``)."""
    loops = []

    def visit(o):
        o = _op(o)
        if each is not None:
            each(o)
        if o.name == "scf.for" and is_natural_candidate(o) and \
                REMAINDER_ATTR not in o.attributes:
            body = [_op(x) for x in o.regions[0].blocks[0].operations]
            if not any(tag_of(x) for x in body):
                loops.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return loops


#: the schedule markers the lowering leaves in a pipelined loop
SCHEDULE_MARKERS = ("rocdl.sched.barrier", "rocdl.sched.group.barrier", "rocdl.s.setprio")


def check_not_pipelined(loop) -> None:
    """Refuse a loop that is already software-pipelined: copies before it (the prologue
    that loads the first K tiles: DMA copies, or the LDS stores of copies through registers
    into LDS the loop stores to too) and MFMAs after it (the epilogue that multiplies the
    last), as pipeline-opt's own output has (IREE's pipelining is rolled back first:
    :mod:`pipeline_mlir.frontend.reroll` and :mod:`pipeline_mlir.frontend.reroll_regs`, the
    latter only in IREE's form); the message
    says what to give instead."""
    parent = block_ops(loop.block)
    at = parent.index(loop)
    before = [_outside_loops(o, ("amdgpu.gather_to_lds",) + COPY_STORES)
              for o in parent[:at]]     # (one walk of each op, its ops by name)
    copies = [c for found in before for c in found["amdgpu.gather_to_lds"]]
    stored = {_lds_root(s) for s in walk_ops(loop, lambda x: x.name in COPY_STORES)} - {None}
    stores = [s for found in before for name in COPY_STORES for s in found[name]
              if _lds_root(s) in stored and _loaded_from_global(s.operands[0])]
    mfmas = [m for o in parent[at + 1:]
             for m in _outside_loops(o, ("amdgpu.mfma",))["amdgpu.mfma"]]
    if not (copies or stores) or not mfmas:
        return
    markers = sorted({o.name for o in walk_ops(loop, lambda x: x.name in SCHEDULE_MARKERS)})
    marks = f", and {', '.join(markers)} in it" if markers else ""
    what = f"{len(copies)} global->LDS copies" if copies else \
        f"{len(stores)} LDS stores of copies through registers"
    kernel = kernel_of(loop)
    iree = " (IREE's own prefetch pipelining of copies through registers is rolled back only " \
        "in its form, a barrier between the loop's MFMAs and its LDS stores: compile with " \
        "prefetch_num_stages = 1, or --iree-llvmgpu-prefetch-num-stages=1)" \
        if stores and not copies and kernel is not None and \
        walk_ops(kernel, lambda x: x.name == "hal.interface.binding.subspan") else ""
    raise IRError(loop, f"'scf.for' op is already software-pipelined: {what} before it "
                        f"(a prologue) and {len(mfmas)} MFMAs "
                        f"after it (an epilogue){marks}; the front end pipelines a natural "
                        f"K-loop, which copies and multiplies every K tile inside one "
                        f"iteration: give pipeline-opt the kernel as it was before pipelining "
                        f"(for pipeline-opt's own output, the input it was made from, with "
                        f"--emit=asm, obj or hsaco for the code){iree}")


#: the ops a copy's registers pass through between its global load and its LDS store
_REGISTER_MOVES = ("vector.shape_cast", "vector.bitcast", "vector.extract",
                   "vector.extract_strided_slice", "vector.broadcast")


def _loaded_from_global(v) -> bool:
    """``v`` (the value an LDS store writes) is loaded from memory other than LDS, through
    register moves only: the store is a copy through registers."""
    while not isinstance(v.owner, ir.Block):
        o = _op(v.owner)
        if o.name in _REGISTER_MOVES:
            v = o.operands[0]
            continue
        return o.name in ("vector.load", "vector.transfer_read", "vector.maskedload") and \
            _space(o.operands[0]) not in ("workgroup", "private")
    return False


def _lds_root(store):
    """The LDS buffer ``store`` writes (the root of its view chain), None if not LDS."""
    v = view_root(store.operands[1])
    return v if in_lds(v) else None


def _outside_loops(root, names: tuple) -> dict:
    """{name: the ``name`` ops at or under ``root`` (an op beside the K-loop) that no
    ``scf.for`` holds, in walk order} for each of ``names`` (another K-loop's copies and
    MFMAs are no prologue or epilogue), from one walk."""
    def free(x) -> bool:
        while x != root:
            x = _op(x.parent)
            if x.name == "scf.for":
                return False
        return root.name != "scf.for"

    out: dict = {name: [] for name in names}
    for x in walk_ops(root, lambda x: x.name in out):
        if free(x):
            out[x.name].append(x)
    return out


def _space(v) -> str:
    try:
        return memory_space(v.type)
    except Exception:
        return ""


#: the ops whose static positions may hold MLIR's poison index, -1 (the attribute naming them)
_POSITIONS = {"vector.extract": "static_position", "vector.insert": "static_position",
              "vector.shuffle": "mask"}


def poison_position(op) -> str | None:
    """Why the K-loop's ``op`` is refused where it takes an element at the poison position
    -1 (its result, or that element, is poison: undefined), else None.  (A dynamic position
    is another negative number in ``static_position``.)"""
    attr = _POSITIONS.get(op.name)
    if attr is None or attr not in op.attributes or -1 not in dense_i64(op, attr):
        return None
    return (f"'{op.name}' op inside the K-loop takes the poison position -1 ({attr} = "
            f"{list(dense_i64(op, attr))}): what it gives is undefined, and the front end "
            f"takes the loop's vectors at defined positions only")


def check_launch(kernel) -> None:
    """Refuse a kernel whose statements of its launch contradict one another: two workgroup
    sizes, a subgroup size that is not the target's wave, or IREE's ``dispatch_config``
    launching it otherwise (finding 126), at the kernel or at that op.  Checked for every
    kernel the front end adopts a loop of, a loop left to run as written too: the code
    object states one size and the emulator runs one."""
    if (why := launch_conflict(kernel, WAVE_SIZE)) is not None:
        raise IRError(kernel, f"'{kernel.name}' op: {why}")
    if (conflict := dispatch_conflict(kernel, WAVE_SIZE)) is not None:
        raise IRError(*conflict)        # (at IREE's dispatch_config)


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
    check_launch(kernel)
    check_workgroup_loops(loop)
    blk = loop.regions[0].blocks[0]
    body = [_op(o) for o in blk.operations]
    copies, reads, mfmas, syncs = [], [], [], []
    stores = set()                 # the LDS halves of register copies
    for op in body[:-1]:
        name = op.name
        if op in stores:
            continue
        if len(op.regions):
            raise IRError(op, nested_refusal(op))
        if name in SYNC_OPS:
            syncs.append(op)
            continue
        if name in REFUSED_SYNC_OPS:
            raise IRError(op, f"'{name}' op inside the K-loop cannot be kept in the pipelined "
                              f"loop: {REFUSED_SYNC_OPS[name]}; remove it (barriers, waits "
                              f"and schedule barriers are replaced by the schedule's own)")
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
        if (why := poison_position(op)) is not None:
            raise IRError(op, why)
        eff = effects(op)
        if eff is None:
            raise IRError(op, f"'{name}' op inside the K-loop does not declare its side effects "
                              f"(MLIR knows nothing of what it touches), so the pipeliner cannot "
                              f"move it")
        if not eff:
            continue
        touched = {(k, _space(v)) for k, v in eff if v is not None}
        if name in READ_OPS and touched == {("read", LDS)}:
            reads.append(read_access(op))
            continue
        what = ", ".join(sorted(f"{k}s {s or 'memory'}" for k, s in touched)) or \
            ", ".join(sorted({k for k, _ in eff}))
        if any(s in GLOBAL_SPACES for _, s in touched) and all(k == "read" for k, _ in touched):
            copy = register_copy(op, body)
            stores.add(copy.store)
            copies.append(copy)
            continue
        raise IRError(op, f"'{name}' op has side effects the pipeliner cannot move ({what}): "
                          f"the K-loop may only copy global memory to LDS, read LDS fragments, "
                          f"synchronise and multiply")
    if not mfmas:
        raise IRError(loop, "'scf.for' op has no amdgpu.mfma")
    if not copies:
        raise IRError(loop, "'scf.for' op has no global->LDS copy (amdgpu.gather_to_lds)")
    return LoopScan(loop, kernel, bs, copies, reads, mfmas, syncs, body[:-1])


#: what a register copy's two halves may be: a global load into registers, an LDS store
COPY_LOADS = ("vector.load", "vector.transfer_read")
COPY_STORES = ("vector.store", "vector.transfer_write")


def register_copy(load, body: list) -> Access:
    """The register copy that global load ``load`` begins: its value's one use is an LDS
    store later in the loop body (``body``), of the whole value (an :class:`Access` with
    ``store`` set; :mod:`pipeline_mlir.frontend.regcopy` turns it into a direct-to-LDS
    copy).  Any other global load inside the loop is an error at the op."""
    refuse = f"'{load.name}' op reads global memory into registers inside the K-loop"
    if load.name not in COPY_LOADS:
        masked = "" if load.name != "vector.maskedload" else (
            ": no mask pass of the front end made this masked load one of those (its mask "
            "proven full where the loop runs, peeled, kept in the copy, or dropped in a "
            "loop versioned on a proven tile of the workgroups along a size known at launch)")
        raise IRError(load, f"{refuse}; the front end takes global loads that are copies to "
                            f"LDS (vector.load or vector.transfer_read, then an LDS store)"
                            f"{masked}")
    uses = [_op(u.owner) for u in load.results[0].uses]
    store = uses[0] if len(uses) == 1 else None
    if store is None or store.name not in COPY_STORES or store not in body or \
            body.index(store) < body.index(load) or store.operands[0] != load.results[0] or \
            _space(store.operands[1]) != LDS:
        used = ", ".join(sorted({u.name for u in uses})) or "nothing"
        raise IRError(load, f"{refuse}, and its value is used by {used}, not stored whole to "
                            f"LDS by one store of the loop: a global load that is not the "
                            f"first half of a global->LDS copy cannot be pipelined")
    if store.name == "vector.transfer_write":
        g = segments(store)
        dst, dst_idx = g[1][0], list(g[2])
    else:
        dst, dst_idx = store.operands[1], list(store.operands[2:])
    if load.name == "vector.transfer_read":
        g = segments(load)
        src, src_idx = g[0][0], list(g[1])
    else:
        src, src_idx = load.operands[0], list(load.operands[1:])
    n = 1
    for d in ir.VectorType(load.results[0].type).shape:
        n *= d
    return Access(load, dst, dst_idx, n, src, src_idx, store)


def loop_evaluator(scan: LoopScan):
    """(the per-lane :class:`Evaluator` of ``scan``'s workgroup, the loop's induction
    variable, its lower bound, its step); bounds that differ between threads are an
    error."""
    return evaluator_of(scan.loop, scan.block)


def evaluator_of(loop, block):
    """:func:`loop_evaluator` of ``loop`` in a workgroup of ``block`` threads."""
    ev = Evaluator(block)
    ev.where = loop
    iv = loop.regions[0].blocks[0].arguments[0]
    lb, step = ev.uniform(loop.operands[0]), ev.uniform(loop.operands[2])
    if lb is None or step is None:
        raise IRError(loop, "'scf.for' op: its lower bound or step differs between threads")
    return ev, iv, lb, step


def read_access(op) -> Access:
    """The :class:`Access` of a fragment read (``vector.load`` or ``vector.transfer_read``
    of LDS): its memref, indices and element count."""
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
    new_reads = []
    for acc in scan.reads:
        op = acc.op
        if op.name != "vector.transfer_read" or \
                all(d == 1 for d in ir.VectorType(op.results[0].type).shape[:-1]):
            new_reads.append(acc)
            continue
        _check_transfer_read(op)
        users = [_op(u.owner) for u in op.results[0].uses]
        subs = _fragment_reads(op)
        _rewire_users(op, users, subs)
        op.erase()
        for new in subs.values():
            new_reads.append(read_access(new))
    scan.reads = new_reads
    blk = scan.loop.regions[0].blocks[0]
    scan.ops = [_op(o) for o in blk.operations][:-1]


def _fragment_reads(op) -> dict:
    """One ``vector.transfer_read`` per fragment of the multi-fragment read ``op``, created
    before it: {position of the fragment in the leading dimensions: read op}."""
    vt = ir.VectorType(op.results[0].type)
    outer = vt.shape[:-1]
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
                    new_idx[d] = _addi(new_idx[d], index_constant(p))
            attrs = {a: op.attributes[a] for a in ("in_bounds", "permutation_map")}
            attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, rank, 1, 0])
            subs[pos] = ir.Operation.create("vector.transfer_read", results=[sub_t],
                                            operands=[mem] + new_idx + [pad],
                                            attributes=attrs)
    return subs


def _rewire_users(op, users: list, subs: dict) -> None:
    """Make each user of the multi-fragment read ``op`` use the fragment reads ``subs``: an
    extract of one fragment reads it from that fragment's read; any other user gets the
    whole vector rebuilt (once) from the fragments."""
    vt = ir.VectorType(op.results[0].type)
    outer = vt.shape[:-1]
    full = None
    for u in users:
        if _rewire_extract(u, outer, subs, list(range(len(outer)))):
            continue
        perm = _fragment_transpose(u, len(outer))
        if perm is not None:  # a transpose of the fragment dimensions, then extracts
            t_outer = ir.VectorType(u.results[0].type).shape[:-1]
            for x in [_op(w.owner) for w in u.results[0].uses]:
                if not _rewire_extract(x, t_outer, subs, perm):
                    if full is None:
                        full = _rebuilt_vector(op, subs)
                    u.operands[0] = full
            if not list(u.results[0].uses):
                u.erase()
            elif u.operands[0] == op.results[0]:
                if full is None:
                    full = _rebuilt_vector(op, subs)
                u.operands[0] = full
            continue
        if full is None:
            full = _rebuilt_vector(op, subs)
        for i, x in enumerate(u.operands):
            if x == op.results[0]:
                u.operands[i] = full


def _fragment_transpose(u, n_outer: int):
    """The permutation of a ``vector.transpose`` user that keeps the fragment (innermost)
    dimension innermost, else None."""
    if u.name != "vector.transpose":
        return None
    perm = list(dense_i64(u, "permutation"))
    return perm[:n_outer] if perm[-1] == n_outer else None


def _rewire_extract(u, outer: list, subs: dict, perm: list) -> bool:
    """If ``u`` extracts one fragment (a static position in the ``outer`` dimensions of
    its source, which is the multi-fragment read with its outer dimensions permuted by
    ``perm``), make it extract from that fragment's read and return True."""
    pos = _static_position(u)
    if pos is None or len(pos) > len(outer) + 1 or any(d != 1 for d in outer[len(pos):]):
        return False
    pos = list(pos)
    at_t = pos[:len(outer)] + [0] * (len(outer) - len(pos))
    key = [0] * len(outer)
    for k, p in enumerate(at_t):
        key[perm[k]] = p
    new_pos = [0] * min(len(pos), len(outer)) + pos[len(outer):]
    with ir.InsertionPoint(u), u.location:
        rep = ir.Operation.create(
            "vector.extract", results=[u.results[0].type],
            operands=[subs[tuple(key)].results[0]],
            attributes={"static_position": ir.DenseI64ArrayAttr.get(new_pos)})
    u.results[0].replace_all_uses_with(rep.results[0])
    u.erase()
    return True


def _rebuilt_vector(op, subs: dict):
    """The value of the multi-fragment read ``op`` built from its fragment reads with
    ``vector.insert`` (before ``op``)."""
    vt = ir.VectorType(op.results[0].type)
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
    return full


def _static_position(op):
    if op.name != "vector.extract" or "static_position" not in op.attributes:
        return None
    if len(op.operands) != 1:
        return None
    return dense_i64(op, "static_position")


def _check_transfer_read(op) -> None:
    access = transfer(op)
    if not access.minor_identity:
        pm = ir.AffineMapAttr(op.attributes["permutation_map"]).value
        raise IRError(op, f"'{op.name}' op reads with permutation map {pm}; the front end "
                          f"handles minor-identity reads (a transposed read is an "
                          f"amdgpu.transpose_load)")
    if not all(access.in_bounds):
        raise IRError(op, f"'{op.name}' op may read out of bounds (in_bounds is not all "
                          f"true); a masked fragment read cannot be pipelined")
    if access.masked:
        raise IRError(op, f"'{op.name}' op has a mask; a masked fragment read cannot be "
                          f"pipelined")


def _addi(a, b):
    return B.arith.addi(a, b)
