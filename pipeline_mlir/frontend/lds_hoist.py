"""LDS allocated inside the K-loop, hoisted out of it before the analysis.

IREE allocates an operand's LDS tile inside the K-loop when its size depends on the sizes
of the dispatch (its dynamic-K kernels at the prefetch point: ``memref.alloc`` in the loop
body, ``memref.dealloc`` at its end).  Such a buffer is the loop's staging buffer: each
iteration fills it and reads it, and nothing of it lives on into the next.  The pipeliner
multi-buffers the loop's LDS itself, so :func:`hoist_iteration_lds` moves each workgroup
``memref.alloc`` directly in the loop's body before the loop, with the views of it whose
other operands are defined outside the loop (``memref.expand_shape`` of it, a
``memref.subview`` at a thread's offset), and drops its ``memref.dealloc`` in the loop.
One buffer for every iteration is exact when:

* its size is the same in every iteration: the allocation's size operands are defined
  outside the loop; or each size computed in the iteration has a constant bound (an
  ``affine.min`` with a constant result, an ``arith.minsi``/``minui`` with a constant
  operand, a constant): one buffer of the bounds is allocated before the loop and the
  allocation in the loop becomes a ``memref.reinterpret_cast`` of it to the iteration's
  sizes with the bounds' row-major strides (static, as the address analysis needs; every
  access of the buffer goes through that view, so the layout of its elements is the
  front end's to choose).  The users of the view take its strided type: each
  ``memref.subview`` its result type recomputed from the new layout (:func:`_retype`);
  a view of another kind of it is refused at the op;
* nothing of it outlives the iteration: every use of it, followed through views, is an
  access or a view inside the loop; yielded (to the next iteration or out of the loop) or
  handed to any other op, it is refused;
* no other writer exists: every access to it is one of the iteration's (above), so the
  analysis that follows sees all its writers and readers, and the checks of the rewrite
  (reads after their copies, a barrier between each read and the next iteration's copies:
  :mod:`pipeline_mlir.frontend.soundness`) hold for it as for a buffer allocated before
  the loop.

Each refusal is an :class:`~pipeline_mlir.dialect.ir_io.IRError` at the op, saying why.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import defined_in, encloses
from pipeline_mlir.dialect.attrs import is_workgroup_memref
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import describe, kernel_of, users_of
from pipeline_mlir.frontend.lds_bounds import bounded_sizes, rebase_on_bounds

__all__ = ["hoist_iteration_lds", "hoist_remainder_lds"]

#: ops that view a buffer (their first operand) without touching it
VIEWS = ("memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast",
         "memref.reinterpret_cast", "memref.view")
#: ops that read or write a buffer operand and let nothing of it escape
ACCESSES = ("memref.load", "memref.store", "vector.load", "vector.store",
            "vector.transfer_read", "vector.transfer_write", "vector.maskedload",
            "vector.maskedstore", "amdgpu.gather_to_lds", "amdgpu.transpose_load",
            "memref.copy", "memref.dealloc")


def hoist_iteration_lds(loop) -> int:
    """Hoist the LDS allocations of ``loop``'s body (module docstring); returns how many."""
    loop = _op(loop)
    body = loop.regions[0].blocks[0]
    allocs = [_op(o) for o in body.operations if _op(o).name == "memref.alloc" and
              is_workgroup_memref(_op(o).results[0].type)]
    bounds = {}
    for alloc in allocs:
        bounds[alloc] = _check_sizes(loop, alloc)
        _check_uses(loop, alloc)
    for alloc in allocs:
        _drop_deallocs(alloc.results[0])
        if bounds[alloc] is not None:
            rebase_on_bounds(loop, alloc, bounds[alloc])
            continue
        alloc.move_before(loop)
        _hoist_views(loop, alloc.results[0])
    return len(allocs)


def hoist_remainder_lds(rem) -> int:
    """Hoist the LDS allocations of the remainder loop ``rem`` (IREE's loop as written,
    run for the K tiles after the pipelined one) as :func:`hoist_iteration_lds` does, and
    place those of static size at the top of the kernel, where a workgroup allocation
    becomes the kernel's attribution; returns how many."""
    rem = _op(rem)
    before = {o for o in _static_allocs(rem.block)}
    n = hoist_iteration_lds(rem)
    kernel = kernel_of(rem)
    if kernel is None or rem.block == kernel.regions[0].blocks[0]:
        return n
    first = _op(list(kernel.regions[0].blocks[0].operations)[0])
    for o in _static_allocs(rem.block):
        if o not in before:
            o.move_before(first)
    return n


def _static_allocs(block) -> list:
    """The workgroup ``memref.alloc``s of static size directly in ``block``."""
    return [_op(o) for o in block.operations if _op(o).name == "memref.alloc" and
            not len(_op(o).operands) and is_workgroup_memref(_op(o).results[0].type)]


def _check_sizes(loop, alloc) -> list[int] | None:
    """None: every size of ``alloc`` is defined outside ``loop``; else the constant bound
    of each dynamic size (one computed in the iteration must have one)."""
    inside = [v for v in alloc.operands if defined_in(v, loop)]
    if not inside:
        return None
    bounds, v = bounded_sizes(alloc)
    if bounds is not None:
        return bounds
    where = v.owner if isinstance(v.owner, ir.Block) else _op(v.owner)
    what = "the loop variable" if isinstance(where, ir.Block) else describe(where)
    raise IRError(alloc, f"{describe(alloc)} allocates LDS inside the K-loop with a "
                         f"size computed in the iteration (by {what}) and bounded by no "
                         f"constant (an affine.min with a constant result, an arith.minsi "
                         f"or minui with a constant operand); the front end hoists an "
                         f"allocation of one size, or of a constant bound, for every "
                         f"iteration")


def _check_uses(loop, alloc) -> None:
    """Every use of ``alloc``, followed through views, an access or view in ``loop``."""
    todo, seen = [alloc.results[0]], set()
    while todo:
        v = todo.pop()
        for user in users_of(v):
            if user in seen:
                continue
            seen.add(user)
            if not encloses(loop, user) or user.name not in VIEWS + ACCESSES:
                why = ("outside the K-loop" if not encloses(loop, user) else
                       "yielded: it would outlive its iteration" if user.name == "scf.yield"
                       else "not an access or a view of it")
                raise IRError(user, f"{describe(user)} uses the LDS {describe(alloc)} "
                                    f"allocates inside the K-loop, {why}; the front end "
                                    f"hoists a buffer only the iteration uses")
            if user.name in VIEWS and list(user.operands)[0] == v:
                todo.extend(user.results)


def _drop_deallocs(v) -> None:
    """Erase every ``memref.dealloc`` of ``v`` or of a view of it."""
    for user in users_of(v):
        if user.name == "memref.dealloc":
            user.erase()
        elif user.name in VIEWS and list(user.operands)[0] == v:
            for r in user.results:
                _drop_deallocs(r)


def _hoist_views(loop, v) -> None:
    """Move the views of ``v`` directly in ``loop``'s body whose operands are all defined
    outside the loop before it (and theirs)."""
    todo = [v]
    while todo:
        x = todo.pop()
        for user in users_of(x):
            if user.name in VIEWS and _op(user.parent) == loop and \
                    not any(defined_in(o, loop) for o in user.operands):
                user.move_before(loop)
                todo.extend(user.results)
