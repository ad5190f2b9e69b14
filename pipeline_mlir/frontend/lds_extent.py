"""Accesses of the LDS the K-loop leaves alone kept inside their allocation, else refused.

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
of the ``scf.for`` loops of constant bounds around it, the first and last element each
access outside the K-loop of such an allocation (a ``memref.alloc`` or a ``gpu.func``'s
workgroup attribution of static shape, the K-loop touching none of it) touches, through its views (:class:`~pipeline_mlir.analysis.loop_eval.Evaluator`), and
refuses at the access one that lies outside the allocation in some thread, naming the
thread, the element and the allocation's size; an access it cannot evaluate (a loop of
bounds known only at launch, an index computed from a loaded value) is refused too, saying
what is missing: the pipelined kernel is not shown to do what the kernel does.  A masked
access (a ``vector.transfer_read``/``write`` with a mask or a dimension not in bounds, a
``vector.maskedload``/``store``) is held to its first element only (what its mask keeps is
not evaluated).  The allocations the K-loop accesses are the front end's own business (their
accesses in the loop are proven by the copies' and reads' analyses).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from pipeline_mlir.analysis.ir_facts import block_size, constant_bounds, memory_space
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import describe, kernel_of

#: the accesses checked: op name -> (the memref operand, the value whose vector type spans)
ACCESSES = {"memref.load": (0, None), "memref.store": (1, None),
            "vector.load": (0, "result"), "vector.store": (1, 0),
            "vector.transfer_read": (0, "result"), "vector.transfer_write": (1, 0),
            "vector.maskedload": (0, "result"), "vector.maskedstore": (0, -1),
            "amdgpu.transpose_load": (0, None)}
#: the most points (loop iterations around one access) evaluated
MAX_POINTS = 4096


def _lds_alloc(v):
    """The LDS allocation of static shape ``v`` views (a ``memref.alloc`` of workgroup
    memory's result, or a ``gpu.func``'s workgroup attribution), or None."""
    root = view_root(v)
    t = root.type
    if not isinstance(t, ir.MemRefType) or memory_space(t) != "workgroup" or \
            any(d < 0 for d in t.shape):
        return None
    if isinstance(root.owner, ir.Block):
        func = _op(root.owner.owner)
        return root if func.name == "gpu.func" and root.owner == func.regions[0].blocks[0] \
            else None
    return root if _op(root.owner).name == "memref.alloc" else None


def _touched(loop) -> set:
    """The LDS allocations any op in ``loop`` reads, writes or views."""
    found = set()
    for o in walk_ops(loop, lambda o: True):
        for v in o.operands:
            if isinstance(v.type, ir.MemRefType):
                a = _lds_alloc(v)
                if a is not None:
                    found.add(a)
    return found


def _masked(op) -> bool:
    if op.name in ("vector.maskedload", "vector.maskedstore"):
        return True
    if op.name in ("vector.transfer_read", "vector.transfer_write"):
        if "in_bounds" in op.attributes and not all(
                ir.BoolAttr(b).value for b in ir.ArrayAttr(op.attributes["in_bounds"])):
            return True
        seg = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
        return seg[-1] > 0
    return False


def _span(op, at: int, spans) -> list[int]:
    """The vector shape the access spans along its memref's innermost dimensions (1s
    where it spans one element)."""
    rank = ir.MemRefType(op.operands[at].type).rank
    out = [1] * rank
    if spans is None or _masked(op):
        return out
    v = op.results[0] if spans == "result" else op.operands[spans]
    if not isinstance(v.type, ir.VectorType) or isinstance(
            ir.MemRefType(op.operands[at].type).element_type, ir.VectorType):
        return out
    shape = list(ir.VectorType(v.type).shape)
    for i, n in enumerate(reversed(shape[-rank:] if rank else [])):
        out[rank - 1 - i] = n
    return out


def _loops(op) -> list:
    """The ``scf.for`` loops around ``op`` (outermost first)."""
    out, o = [], op.parent
    while o is not None and o.name not in ("func.func", "gpu.func"):
        if o.name == "scf.for":
            out.insert(0, o)
        o = o.parent
    return out


def _points(op) -> tuple[list, list[range]]:
    loops = _loops(op)
    ranges = []
    for lp in loops:
        b = constant_bounds(lp)
        if b is None or b[2] <= 0:
            raise IRError(op, f"{describe(op)} accesses LDS the K-loop does not, inside "
                              f"'scf.for' op at {describe(lp).split(' at ')[1]} whose bounds "
                              f"are not constants, so the front end cannot show the access "
                              f"stays inside its allocation (the pipelined kernel lays the "
                              f"LDS around it out anew)")
        ranges.append(range(*b))
    count = math.prod(len(r) for r in ranges)
    if count > MAX_POINTS:
        raise IRError(op, f"{describe(op)} accesses LDS the K-loop does not, inside loops of "
                          f"{count} iterations, more than the {MAX_POINTS} the front end "
                          f"evaluates to show the access stays inside its allocation")
    return loops, ranges


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
    for op in walk_ops(kernel, lambda o: o.name in ACCESSES):
        at, spans = ACCESSES[op.name]
        mem = op.operands[at]
        alloc = _lds_alloc(mem)
        if alloc is None or alloc in touched:       # (so the access is not in the loop)
            continue
        if ev is None:
            ev = Evaluator(block_size(kernel) or (256, 1, 1))
        _check_access(ev, op, at, spans, alloc)


def _check_access(ev, op, at: int, spans, alloc) -> None:
    mem = op.operands[at]
    t = ir.MemRefType(mem.type)
    size = math.prod(ir.MemRefType(alloc.type).shape)
    span = _span(op, at, spans)
    loops, ranges = _points(op)
    indices = list(op.operands)[at + 1:at + 1 + t.rank]
    try:
        for point in itertools.product(*ranges):
            for lp, i in zip(loops, point):
                ev.bind(lp.regions[0].blocks[0].arguments[0], i)
            view = ev.view(mem)
            first = view.element([ev.value(x) for x in indices])
            last = first + sum((n - 1) * s for n, s in zip(span, view.strides))
            bad = np.nonzero((first < 0) | (last >= size) | (last < 0) | (first >= size))[0]
            if len(bad):
                t0 = int(bad[0])
                where = (f" (loop iteration {list(point)})" if point else "")
                raise IRError(op, f"{describe(op)} accesses {alloc.type} at "
                                  f"elements {int(first[t0])}..{int(last[t0])} in thread "
                                  f"{t0}{where}, outside its {size} elements: the pipelined "
                                  f"kernel lays the LDS around that allocation out anew, so "
                                  f"what such an access reads or overwrites is not the "
                                  f"kernel's; the front end pipelines kernels whose accesses "
                                  f"of LDS stay in their allocation")
    except IRError as e:
        if e.op is op and "outside its" in str(e):
            raise
        raise IRError(op, f"{describe(op)} accesses LDS the K-loop does not, and the front "
                          f"end cannot evaluate its elements to show it stays inside its "
                          f"allocation ({e})") from None
    finally:
        for lp in loops:
            ev.unbind(lp.regions[0].blocks[0].arguments[0])
