"""Accesses of the LDS the K-loop leaves alone kept inside their allocation, of its own
LDS kept inside the loop, else refused.

The front end lays the K-loop's LDS out anew (the schedule's stage buffers replace IREE's
tiles), so what lies beside any other workgroup allocation changes between the kernel as
written and the pipelined one.  An access of such an allocation (IREE stages C through one
for ``C +=`` and its epilogues) at an element outside it reads or writes whatever LLVM
placed there: the unpipelined build one buffer's data, the pipelined one another's.  The
mutation campaign found two such kernels pipelined with exit 0 and C wrong against their
unpipelined build: IREE's bf16 ``C += A x B^T`` 256^3 at the prefetch point with the lower
bound of the loop that copies C's tile from LDS to C made 1 (its last thread read element
``[4, 0, 0, 0..3]`` of a ``memref<4x16x8x16xf32>``, one past its first dimension; 10 bytes
of C differed), and with that copy's LDS view moved 16 elements along a dimension of 8 (the
tile's last rows read past the allocation's end; 1457).

:func:`check_lds_extents` evaluates, for every thread of the workgroup and every iteration
of the ``scf.for`` loops of constant bounds around it, the lowest and the highest element
each access of such an allocation outside the K-loop (a ``memref.alloc`` or a
``gpu.func``'s workgroup attribution or a workgroup global of static shape, the K-loop
touching none of it)
touches, through its views (:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`, with
launch-time values refused), and refuses at the access one that lies outside the allocation
in some thread, naming the thread, the elements and the allocation's size.  What an access
touches: its vector along the memref's innermost dimensions, or along those a transfer's
``permutation_map`` names; a transfer's dimension not in bounds stops at its view's end (the
elements past it are padding, not read or written); a mask made by ``vector.create_mask``
or ``vector.constant_mask`` keeps its sizes (any other mask: every element counts).  Refused
too, saying what is missing (the pipelined kernel is not shown to do what the kernel does):
an access of LDS the K-loop leaves alone that is no such allocation (of dynamic
shape, a function's argument: IREE's bf16 ``C +=`` 256^3, late form, with C's tile
staged through an allocation of dynamic size and its copy-out read one row of tiles past
it was pipelined with exit 0 and 46700 elements of C wrong), an access it cannot evaluate
(a loop of bounds known only at launch, an index computed from a loaded value or a
launch-time value), one whose view, index or mask size is computed from
the workgroup id (:meth:`~pipeline_mlir.analysis.loop_eval.Evaluator.from_workgroup`:
exact, where the elements compared at two workgroups missed an index moved by
``(workgroup mod 5) - 1`` rows, none at either), an op on such an allocation it does not
evaluate (neither a
view, a ``memref.dealloc`` nor one of :data:`ACCESSES`), and a kernel stating no workgroup
size.  The review of the red-team campaign found the masked case a hole while an access was
held to its first element: the copy's LDS read of IREE's bf16 ``C += A x B^T`` 256^3 (prefetch
point) with its last dimension not in bounds and its view moved 3 columns on read three
elements past the allocation in the last thread, 18 bytes of C wrong with exit 0.

The allocations the K-loop accesses are the front end's own business inside the loop (its
accesses there are proven by the copies' and reads' analyses), and nowhere else:
:func:`loop_lds_outside` refuses any access of one outside the loop and the remainder
loop the front end cut from it (views and deallocations aside).  The pipelined loop keeps
its K tiles in LDS buffers of its own (a stage and slot each), so after it the kernel's
allocation does not hold what the kernel's loop left there, and what is stored there
before it is not what the loop reads: IREE's bf16 4096^3 kernel (late form) with an
epilogue that reads the K-loop's A buffer and adds it to C was pipelined with exit 0 and
512 elements of C wrong against its unpipelined build.
"""

from __future__ import annotations

import math

import numpy as np

from pipeline_mlir.analysis.ir_facts import (block_size, enclosing_ops, encloses, memory_space,
                                             segments)
from pipeline_mlir.analysis.loop_eval import Evaluator, grid_stride
from pipeline_mlir.analysis.output_tiles import thread_iterations, view_sizes, walk_points
from pipeline_mlir.analysis.views import VIEW_OPS, view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import describe, kernel_of

#: the accesses checked: op name -> (the memref operand, the value whose vector type spans)
ACCESSES = {"memref.load": (0, None), "memref.store": (1, None),
            "vector.load": (0, "result"), "vector.store": (1, 0),
            "vector.transfer_read": (0, "result"), "vector.transfer_write": (1, 0),
            "vector.maskedload": (0, "result"), "vector.maskedstore": (0, "last"),
            "amdgpu.transpose_load": (0, "result")}
#: a copy between two memrefs: every element of its LDS side, of per-thread sizes
COPY = "memref.copy"
#: the ops on such an allocation that access none of it (besides its views)
KEPT = ("memref.dealloc", "memref.alloc")


def _lds_alloc(v):
    """The LDS allocation of static shape ``v`` views (a ``memref.alloc`` of workgroup
    memory's result, a ``gpu.func``'s workgroup attribution, or a ``memref.get_global`` of
    a workgroup global), or None."""
    root = view_root(v)
    t = root.type
    if not isinstance(t, ir.MemRefType) or memory_space(t) != "workgroup" or \
            any(d < 0 for d in t.shape):
        return None
    if isinstance(root.owner, ir.Block):
        func = _op(root.owner.owner)
        return root if func.name == "gpu.func" and root.owner == func.regions[0].blocks[0] \
            else None
    return root if _op(root.owner).name in ("memref.alloc", "memref.get_global") else None


def _key(root):
    """What tells LDS buffer ``root`` (:func:`_lds_alloc`, :func:`_lds_root`) from another:
    the value, or for a workgroup global its symbol (each ``memref.get_global`` of it is one
    buffer)."""
    if root is None or isinstance(root.owner, ir.Block) or \
            _op(root.owner).name != "memref.get_global":
        return root
    return ("global", str(_op(root.owner).attributes["name"]))


def _lds_root(v):
    """What LDS memref ``v`` is a view of, whatever it is (an allocation of any shape, a
    workgroup attribution or global, a function's argument), or None where neither ``v``
    nor that root is in workgroup memory: an access of the K-loop's own LDS outside the
    loop is refused whatever the buffer is, not only where :func:`_lds_alloc` evaluates
    it."""
    root = view_root(v)
    return root if "workgroup" in (memory_space(v.type), memory_space(root.type)) else None


def _touched(loop) -> set:
    """The LDS buffers (:func:`_lds_root`, told apart by :func:`_key`) any op in ``loop``
    reads, writes or views."""
    found = set()
    for o in walk_ops(loop, lambda o: True):
        for v in o.operands:
            if isinstance(v.type, ir.MemRefType):
                a = _lds_root(v)
                if a is not None:
                    found.add(_key(a))
    return found


def _mask_maker(op):
    """The op that makes ``op``'s mask (a transfer's last operand when it has one, a
    masked load's or store's operand before its pass-through or value), or None."""
    if op.name in ("vector.transfer_read", "vector.transfer_write"):
        if list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))[-1] == 0:
            return None
        mask = op.operands[len(op.operands) - 1]
    elif op.name in ("vector.maskedload", "vector.maskedstore"):
        mask = op.operands[len(op.operands) - 2]
    else:
        return None
    return None if isinstance(mask.owner, ir.Block) else _op(mask.owner)


def _mask_operands(op) -> list:
    """The values a ``vector.create_mask`` mask of ``op`` is made from (what
    :func:`_mask_sizes` evaluates), else none."""
    made = _mask_maker(op)
    return list(made.operands) if made is not None and made.name == "vector.create_mask" \
        else []


def _named(op, at: int, v) -> str:
    """What ``v`` is to access ``op`` of memref operand ``at``: its view, an index, a mask
    size."""
    if v == op.operands[at]:
        return "view"
    rank = ir.MemRefType(op.operands[at].type).rank
    indices = list(op.operands)[at + 1:at + 1 + rank]
    return f"index {indices.index(v)}" if v in indices else "mask's size"


def _mask_sizes(ev, op, n: int):
    """Per vector dimension, the per-thread count a ``vector.create_mask`` or
    ``vector.constant_mask`` mask of ``op`` keeps (its last operand when it has one), or
    None where there is no mask or it is made otherwise (then every element counts)."""
    made = _mask_maker(op)
    if made is None:
        return None
    if made.name == "vector.create_mask" and len(made.operands) == n:
        return [ev.value(x) for x in made.operands]
    if made.name == "vector.constant_mask":
        sizes = list(ir.DenseI64ArrayAttr(made.attributes["mask_dim_sizes"]))
        return [ev.const(x) for x in sizes] if len(sizes) == n else None
    return None


def _vector_dims(op, at: int, spans) -> tuple[list[int], list]:
    """The shape of the vector the access moves and, per vector dimension, the dimension
    of the memref it runs along (None: broadcast), following a transfer's
    ``permutation_map`` (else the vector's dimensions are the memref's innermost)."""
    rank = ir.MemRefType(op.operands[at].type).rank
    if spans is None or isinstance(ir.MemRefType(op.operands[at].type).element_type,
                                   ir.VectorType):
        return [], []
    v = op.results[0] if spans == "result" else op.operands[
        len(op.operands) - 1 if spans == "last" else spans]
    if not isinstance(v.type, ir.VectorType):
        return [], []
    shape = list(ir.VectorType(v.type).shape)
    if op.name == "amdgpu.transpose_load":          # one lane's elements, contiguous
        return [math.prod(shape)], [rank - 1]
    if "permutation_map" in op.attributes:
        dims = []
        for e in ir.AffineMapAttr(op.attributes["permutation_map"]).value.results:
            dims.append(e.position if isinstance(e, ir.AffineDimExpr) else None)
        return shape, dims
    return shape, [rank - len(shape) + i if rank - len(shape) + i >= 0 else None
                   for i in range(len(shape))]


def _extent(ev, op, at: int, spans, view, first, index_values):
    """Per thread: the lowest and highest element the access touches, and whether it
    touches any (a mask or a transfer's out-of-bounds dimension may keep none)."""
    shape, dims = _vector_dims(op, at, spans)
    t = ir.MemRefType(op.operands[at].type)
    counts = [ev.const(n) for n in shape]
    masks = _mask_sizes(ev, op, len(shape))
    if masks is not None:
        counts = [np.minimum(c, np.maximum(m, 0)) for c, m in zip(counts, masks)]
    in_bounds = [True] * len(shape)
    if "in_bounds" in op.attributes:
        in_bounds = [ir.BoolAttr(b).value for b in ir.ArrayAttr(op.attributes["in_bounds"])]
    elif op.name in ("vector.transfer_read", "vector.transfer_write"):
        in_bounds = [False] * len(shape)
    lo, hi = first.copy(), first.copy()
    active = np.ones_like(first, dtype=bool)
    for i, (c, d) in enumerate(zip(counts, dims)):
        if d is None:
            continue
        if not in_bounds[i] and t.shape[d] >= 0:    # the elements past the view's end
            c = np.minimum(c, t.shape[d] - index_values[d])   # are not accessed
        active &= c > 0
        step = (c - 1) * view.strides[d]
        lo, hi = lo + np.minimum(step, 0), hi + np.maximum(step, 0)
    return lo, hi, active


def _loops(op) -> list:
    """The ``scf.for`` loops around ``op`` (outermost first)."""
    return [o for o in enclosing_ops(op) if o.name == "scf.for"][::-1]


def _iterations(ev, op, loop, active):
    """The iterations of ``loop`` (around the access ``op``) that any of the threads
    ``active`` runs, each the variable's value per thread, and its upper bound per thread:
    bounds per thread (IREE's loops over the rows of a partial tile of C a thread stages,
    from the thread id in steps of the workgroup), a positive step the same in every
    thread, none computed from the workgroup id or a launch-time value; else refused at
    ``op``."""
    def refused():
        return IRError(op, f"{describe(op)} accesses LDS the K-loop does not, inside "
                           f"'scf.for' op at {describe(loop).split(' at ')[1]} whose bounds "
                           f"are not constants nor computed from the thread ids alone (a "
                           f"positive step the same in every thread), so the front end "
                           f"cannot show the access stays inside its allocation (the "
                           f"pipelined kernel lays the LDS around it out anew)")
    if grid_stride(loop):
        raise refused()
    try:
        its, ub = thread_iterations(ev, loop, active)
    except IRError:
        raise refused() from None
    if any(ev.from_workgroup(v) for v in list(loop.operands)[:3]):
        raise refused()
    return its, ub


def _condition(ev, if_op):
    """The per-thread condition of ``scf.if`` ``if_op`` around an access, or None (every
    thread counted, as if it ran the access) where it is computed from the workgroup id
    (the evaluation samples one workgroup) or cannot be evaluated."""
    cond = if_op.operands[0]
    try:
        value = ev.value(cond)
    except IRError:
        return None
    return None if ev.from_workgroup(cond) else value != 0


def check_lds_extents(loop) -> None:
    """Refuse (an IRError at the access) an access outside the K-loop ``loop`` of an LDS
    allocation the K-loop does not access that may lie outside that allocation, or that
    the front end cannot evaluate (module docstring)."""
    kernel = kernel_of(loop)
    if kernel is None:
        return
    kernel = _op(kernel)
    touched = _touched(_op(loop))
    ev = None
    for op in walk_ops(kernel, lambda o: o.name not in VIEW_OPS and o.name not in KEPT):
        mem = next((v for v in op.operands if isinstance(v.type, ir.MemRefType)
                    and _lds_root(v) is not None and _key(_lds_root(v)) not in touched),
                   None)
        if mem is None:
            continue
        for at, v in enumerate(op.operands):
            if v == mem or (op.name == COPY and isinstance(v.type, ir.MemRefType) and
                            _lds_root(v) is not None and _key(_lds_root(v)) not in touched):
                ev = _check_operand(op, at, kernel, ev)


def _check_operand(op, at: int, kernel, ev):
    """Check LDS operand ``at`` of ``op`` (an access of LDS the K-loop does not touch,
    :func:`check_lds_extents`) with evaluator ``ev`` (None: made here, for the kernel's
    workgroup); the evaluator."""
    mem = op.operands[at]
    alloc = _lds_alloc(mem)
    if alloc is None:
        raise IRError(op, f"{describe(op)} accesses {_lds_root(mem).type}, LDS the K-loop "
                          f"does not, which is not an allocation of static shape (a "
                          f"'memref.alloc', a workgroup attribution or global), so the "
                          f"front end cannot show the access stays inside it (the "
                          f"pipelined kernel lays the LDS around it out anew)")
    if op.name != COPY and (op.name not in ACCESSES or ACCESSES[op.name][0] != at):
        raise IRError(op, f"{describe(op)} accesses {alloc.type}, LDS the K-loop does "
                          f"not, in a way the front end does not evaluate, so it cannot "
                          f"show the access stays inside its allocation (the pipelined "
                          f"kernel lays the LDS around it out anew)")
    if ev is None:
        size = block_size(kernel)
        if size is None:
            raise IRError(op, f"{describe(op)} accesses LDS the K-loop does not, in a "
                              f"kernel that states no workgroup size, so the front end "
                              f"cannot evaluate its threads' elements")
        ev = Evaluator(size, launch_values=False)
    _check_access(ev, op, at, None if op.name == COPY else ACCESSES[op.name][1], alloc)
    return ev


def loop_lds_outside(loop, *remainders) -> IRError | None:
    """The refusal (an IRError at the op, to raise) of the first access of an LDS
    allocation the K-loop ``loop`` accesses anywhere in its kernel outside ``loop`` and the
    remainder loops the front end cut from it (``remainders``, None where there is none):
    before the loop or after it (module docstring); None when there is none."""
    kernel = kernel_of(loop)
    if kernel is None:
        return None
    loop = _op(loop)
    touched = _touched(loop)
    ours = [loop] + [_op(r) for r in remainders if r is not None]
    for op in walk_ops(_op(kernel), lambda o: o.name not in VIEW_OPS and o.name not in KEPT):
        mem = next((v for v in op.operands if isinstance(v.type, ir.MemRefType)
                    and _lds_root(v) is not None and _key(_lds_root(v)) in touched),
                   None)
        if mem is None or any(encloses(o, op) for o in ours):
            continue
        return IRError(op, f"{describe(op)} accesses {_lds_root(mem).type}, LDS the K-loop "
                          f"({describe(loop)}) copies its tiles into, "
                          f"{'after' if _after(op, loop) else 'before'} the loop: the "
                          f"pipelined loop keeps its K tiles in LDS buffers of its own (a "
                          f"stage and slot each), so outside the loop that allocation does "
                          f"not hold what the kernel's loop leaves there, nor does the loop "
                          f"read what is stored there before it; the front end pipelines "
                          f"kernels whose K-loop's LDS is accessed in the loop only")
    return None


def _after(op, loop) -> bool:
    """Whether ``op`` comes after ``loop`` (in the block holding both, directly or around
    them)."""
    a = [op, *enclosing_ops(op)]
    b = [loop, *enclosing_ops(loop)]
    for x in a:
        for y in b:
            if x.block == y.block and x != y:
                return y.is_before_in_block(x)
    return False


def _check_access(ev, op, at: int, spans, alloc) -> None:
    """Refuse access ``op`` of LDS operand ``at`` (``spans``: what its vector spans,
    :data:`ACCESSES`; a copy: every element of its operand) where, at some point of the
    loops around it, a thread that reaches it (:func:`walk_points`) touches an element
    outside ``alloc``."""
    mem = op.operands[at]
    t = ir.MemRefType(mem.type)
    size = math.prod(ir.MemRefType(alloc.type).shape)
    loops = _loops(op)
    indices = [] if op.name == COPY else list(op.operands)[at + 1:at + 1 + t.rank]

    def leaf(active, _key) -> None:
        view = ev.view(mem)
        if op.name == COPY:
            lo, hi, touches, sizes = _copy_extent(ev, op, mem, view)
            made = _size_operands(mem)
        else:
            values = [ev.value(x) for x in indices]
            lo, hi, touches = _extent(ev, op, at, spans, view, view.element(values), values)
            made = [*indices, *_mask_operands(op)]
        moved = [x for x in [mem, *made] if ev.from_workgroup(x)]
        if moved:     # (LDS is the workgroup's own: its elements must not move with it)
            raise IRError(op, f"{describe(op)} accesses LDS the K-loop does not at "
                              f"elements computed from the workgroup id (its "
                              f"{_named(op, at, moved[0])}), which the front end does "
                              f"not evaluate for every workgroup")
        bad = np.nonzero(active & touches & ((lo < 0) | (hi >= size)))[0]
        if len(bad):
            t0 = int(bad[0])
            point = [int(ev.bound[lp.regions[0].blocks[0].arguments[0]][t0]) for lp in loops]
            where = (f" (loop iteration {point})" if point else "")
            raise IRError(op, f"{describe(op)} accesses {alloc.type} at "
                              f"elements {int(lo[t0])}..{int(hi[t0])} in thread "
                              f"{t0}{where}, outside its {size} elements: the pipelined "
                              f"kernel lays the LDS around that allocation out anew, so "
                              f"what such an access reads or overwrites is not the "
                              f"kernel's; the front end pipelines kernels whose accesses "
                              f"of LDS stay in their allocation")
    try:
        walk_points(ev, kernel_of(op), op, leaf,
                    lambda lp, active: _iterations(ev, op, lp, active),
                    f"{describe(op)} (an access of LDS the K-loop does not touch)",
                    lambda o: _condition(ev, o))
    except IRError as e:
        if e.op is op and any(w in str(e) for w in ("outside its", "from the workgroup id",
                                                     "whose bounds")):
            raise
        raise IRError(op, f"{describe(op)} accesses LDS the K-loop does not, and the front "
                          f"end cannot evaluate its elements to show it stays inside its "
                          f"allocation ({e})") from None
    finally:
        for lp in loops:
            ev.unbind(lp.regions[0].blocks[0].arguments[0])


def _copy_extent(ev, op, mem, view):
    """Per thread: the lowest and highest element of ``memref.copy`` ``op``'s operand
    ``mem`` (every element of it, its sizes per thread), whether it has any, its sizes."""
    sizes = view_sizes(ev, op, mem)
    lo, hi = view.offset.copy(), view.offset.copy()
    touches = np.ones_like(lo, dtype=bool)
    for n, stride in zip(sizes, view.strides):
        touches &= n > 0
        step = (n - 1) * stride
        lo, hi = lo + np.minimum(step, 0), hi + np.maximum(step, 0)
    return lo, hi, touches, sizes


def _size_operands(mem) -> list:
    """The dynamic sizes of the ``memref.subview`` that makes ``mem`` (none for another)."""
    if isinstance(mem.owner, ir.Block) or _op(mem.owner).name != "memref.subview":
        return []
    return list(segments(_op(mem.owner))[2])
