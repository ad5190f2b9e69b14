"""Follow a memref through its view ops to its root buffer, for every thread at once.

:func:`follow_view` is what :meth:`pipeline_mlir.analysis.loop_eval.Evaluator.view` runs:
a memref value becomes a :class:`View` (the root buffer, the per-thread offset of its
element 0 in root elements, static strides and shape, the swizzle it carries and the view
ops passed), through ``memref.subview``, ``expand_shape``, ``collapse_shape``, ``cast``,
``reinterpret_cast``, ``assume_alignment``, ``memory_space_cast``,
``amdgpu.fat_raw_buffer_cast`` and ``iree_codegen.swizzle_hint``.  Roots are allocations,
function arguments (and other block arguments), HAL bindings and globals.  Offsets are
exact per thread; a view whose strides are dynamic is an
:class:`~pipeline_mlir.dialect.ir_io.IRError` at the op.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.analysis.ir_facts import (DYNAMIC, attr_names, dense_i64, element_bytes,
                                             memory_space, parse_xor_shuffle, row_major_strides,
                                             segments)
from pipeline_mlir.analysis.lane_ops import SAMPLE_ARG
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op

@dataclass
class View:
    """A memref value as the analysis sees it: ``root`` (the buffer's defining value),
    the per-thread offset of element 0 in root elements, and the static strides."""

    root: object                 # ir.Value of the root buffer
    offset: np.ndarray           # (threads,) int64, in elements of the root
    strides: list[int]
    shape: list[int]
    elem_bytes: int
    space: str
    swizzle: tuple[int, int] | None = None   # xor_shuffle(row width, access width), elements
    chain: list = field(default_factory=list)  # the view ops, innermost first

    def element(self, indices: list[np.ndarray]) -> np.ndarray:
        """Per-thread root element of ``self[indices]``."""
        if len(indices) != len(self.strides):
            raise ValueError(f"{len(indices)} indices for a rank-{len(self.strides)} memref")
        out = self.offset
        for i, s in zip(indices, self.strides):
            out = out + (i if s == 1 else i * s)     # (a new array: the offset is kept)
        return out.copy() if out is self.offset else out


_ROOTS = ("memref.alloc", "memref.alloca", "hal.interface.binding.subspan", "memref.get_global")


def follow_view(ev, v) -> View:
    """The :class:`View` of memref ``v``; ``ev`` (an Evaluator) gives the index values
    (``ev.value``, ``ev.const``) and the views of the sources (``ev.view``, memoized)."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return root_view(ev, v)
    op = _op(owner)
    if op.name in _ROOTS:
        return root_view(ev, v)
    rule = _VIEW_RULES.get(op.name)
    if rule is None:
        raise IRError(op, f"'{op.name}' op: the address analysis cannot follow this memref "
                          f"(it knows allocations, function arguments, HAL bindings and the "
                          f"view ops subview, expand_shape, collapse_shape, cast, "
                          f"reinterpret_cast, assume_alignment, fat_raw_buffer_cast)")
    base = ev.view(op.operands[0])
    return rule(ev, op, v, base, ir.MemRefType(v.type))


def root_view(ev, v) -> View:
    """A root buffer: offset 0 (or its type's static offset), its type's strides (row-major
    when they are dynamic), and the swizzle its defining op declares."""
    t = ir.MemRefType(v.type)
    strides, offset = t.get_strides_and_offset()
    if offset == DYNAMIC or any(s == DYNAMIC for s in strides):
        strides, offset = _row_major(t.shape), 0
    sw = None
    owner = v.owner
    if not isinstance(owner, ir.Block) and "iree_codegen.swizzle" in _op(owner).attributes:
        sw = parse_xor_shuffle(_op(owner).attributes["iree_codegen.swizzle"])
        if sw is None:
            raise IRError(_op(owner), f"'{_op(owner).name}' op: unknown swizzle "
                                      f"{_op(owner).attributes['iree_codegen.swizzle']} "
                                      f"(the address analysis knows xor_shuffle)")
    return View(v, ev.const(offset), list(strides), list(t.shape), element_bytes(t),
                memory_space(v.type), sw, [])


def _same_layout(ev, op, v, base: View, rt) -> View:
    """A cast that keeps the layout (the result's space unless it is ``memref.cast``)."""
    space = base.space if op.name == "memref.cast" else memory_space(v.type)
    return View(base.root, base.offset, list(base.strides), list(rt.shape), base.elem_bytes,
                space, base.swizzle, [op] + base.chain)


def _swizzle_hint(ev, op, v, base: View, rt) -> View:
    sw = parse_xor_shuffle(op.attributes["swizzle"]) if "swizzle" in op.attributes else None
    if sw is None:
        for a in attr_names(op):
            sw = parse_xor_shuffle(op.attributes[a]) or sw
    if sw is None:
        raise IRError(op, f"'{op.name}' op: unknown swizzle (the address analysis "
                          f"knows #iree_codegen.xor_shuffle)")
    return View(base.root, base.offset, list(base.strides), list(rt.shape), base.elem_bytes,
                base.space, sw, [op] + base.chain)


def _static_strides(op, what: str) -> list[int]:
    sst = dense_i64(op, "static_strides")
    if any(s == DYNAMIC for s in sst):
        raise IRError(op, f"'{op.name}' op: dynamic {what} are not supported by the address "
                          f"analysis")
    return sst


def _subview(ev, op, v, base: View, rt) -> View:
    dyn_off = iter(segments(op)[1])
    offsets = [ev.value(next(dyn_off)) if o == DYNAMIC else ev.const(o)
               for o in dense_i64(op, "static_offsets")]
    sst = _static_strides(op, "subview strides")
    off = base.offset.copy()
    for o, s in zip(offsets, base.strides):
        off = off + o * s
    return View(base.root, off, _subview_strides(base, op, sst, rt), list(rt.shape),
                base.elem_bytes, base.space, base.swizzle, [op] + base.chain)


def _reshape(ev, op, v, base: View, rt) -> View:
    strides, _ = rt.get_strides_and_offset()
    if any(s == DYNAMIC for s in strides):
        raise IRError(op, f"'{op.name}' op: the result has dynamic strides ({v.type}); "
                          f"the address analysis needs static strides")
    return View(base.root, base.offset, list(strides), list(rt.shape), base.elem_bytes,
                base.space, base.swizzle, [op] + base.chain)


def _reinterpret_cast(ev, op, v, base: View, rt) -> View:
    so = dense_i64(op, "static_offsets")
    off = ev.value(segments(op)[1][0]) if so[0] == DYNAMIC else ev.const(so[0])
    sst = _static_strides(op, "strides")
    return View(base.root, off, list(sst), list(rt.shape), base.elem_bytes, base.space,
                base.swizzle, [op] + base.chain)


_VIEW_RULES = {
    "memref.assume_alignment": _same_layout, "memref.memory_space_cast": _same_layout,
    "amdgpu.fat_raw_buffer_cast": _same_layout, "memref.cast": _same_layout,
    "iree_codegen.swizzle_hint": _swizzle_hint,
    "memref.subview": _subview,
    "memref.expand_shape": _reshape, "memref.collapse_shape": _reshape,
    "memref.reinterpret_cast": _reinterpret_cast,
}
#: the ops whose result is a view of their first operand (memref), as :func:`follow_view`
#: follows them
VIEW_OPS = frozenset(_VIEW_RULES)
#: the views that change how their buffer is indexed (the ones the front end's rewrites
#: follow from a buffer to its accesses and rebuild on another buffer)
INDEXING_VIEWS = ("memref.subview", "memref.expand_shape", "memref.collapse_shape")


def view_root(v, ops=VIEW_OPS):
    """The value memref ``v`` is a view of, through the ``ops`` (by default the
    :data:`VIEW_OPS`)."""
    while not isinstance(v, ir.BlockArgument) and _op(v.owner).name in ops:
        v = _op(v.owner).operands[0]
    return v


def view_users(v, ops=VIEW_OPS):
    """``(op, value)`` for every op using memref ``v``, or a view of it through the ``ops``
    (by default the :data:`VIEW_OPS`), other than as such a view's source: what accesses
    (or otherwise takes) the buffer ``v`` is, with the view of it the op uses."""
    for u in list(v.uses):
        o = _op(u.owner)
        if o.name in ops and o.operands[0] == v:
            for r in o.results:         # (in use order, a view's users where it is used)
                yield from view_users(r, ops)
        else:
            yield o, v


def _row_major(shape) -> list[int]:
    """Row-major strides of ``shape``, a dynamic size taken as :data:`SAMPLE_ARG`."""
    return row_major_strides([SAMPLE_ARG if d == DYNAMIC else d for d in shape])


def _subview_strides(base: View, op, static_strides, rt) -> list[int]:
    full = [s * st for s, st in zip(base.strides, static_strides)]
    if len(rt.shape) == len(full):
        return full
    # rank-reducing: the result type's strides say which unit dimensions were dropped
    want, _ = rt.get_strides_and_offset()
    if any(s == DYNAMIC for s in want):
        raise IRError(op, "'memref.subview' op: a rank-reducing subview with dynamic "
                          "result strides is not supported by the address analysis")
    return list(want)


#: the view op that gives a buffer its bounds (``validBytes``, ``boundsCheck``, ...)
BOUNDS_CAST = "amdgpu.fat_raw_buffer_cast"


def same_placing(a: View, b: View, same_int) -> bool:
    """Views ``a`` and ``b`` (of one root) place an element index alike: the same swizzle
    and the same buffer casts (:data:`BOUNDS_CAST`) in turn, each of the same attributes
    (``boundsCheck``, ``resetOffset``) and its integer operands (``validBytes``,
    ``cacheSwizzleStride``) equal by ``same_int(x, y)``.  Elements at equal indices of two
    views that differ here can be other bytes, or one in bounds and one not."""
    if a.swizzle != b.swizzle:
        return False
    ca = [o for o in a.chain if o.name == BOUNDS_CAST]
    cb = [o for o in b.chain if o.name == BOUNDS_CAST]
    if len(ca) != len(cb):
        return False
    for x, y in zip(ca, cb):
        if x == y:
            continue
        if set(attr_names(x)) != set(attr_names(y)) or \
                any(x.attributes[n] != y.attributes[n] for n in attr_names(x)) or \
                len(x.operands) != len(y.operands) or \
                not all(same_int(p, q) for p, q in zip(list(x.operands)[1:],
                                                        list(y.operands)[1:])):
            return False
    return True


#: the view ops that keep their source's indices (an element's index in the result is its
#: index in the source)
_SAME_INDEX = ("memref.assume_alignment", "memref.memory_space_cast",
               "amdgpu.fat_raw_buffer_cast", "memref.cast")


def root_indices(ev, v, idx: list) -> list | None:
    """Per dimension of the root buffer of memref ``v``, each thread's index of element
    ``v[idx]`` (``idx``: per-thread arrays), when every view between them keeps the root's
    indices or is a subview of the root's rank with unit strides (each adds its offset in
    its dimension); else None.  Unlike the root element (:meth:`View.element`), an index
    past the end of a dimension is kept there, not carried into the next one."""
    out = [np.asarray(i) for i in idx]
    while not isinstance(v.owner, ir.Block):
        op = _op(v.owner)
        if op.name in _ROOTS:
            break
        if op.name in _SAME_INDEX:
            v = op.operands[0]
            continue
        if op.name != "memref.subview" or \
                ir.MemRefType(op.operands[0].type).rank != len(out) or \
                any(s != 1 for s in dense_i64(op, "static_strides")):
            return None
        dyn = iter(segments(op)[1])
        out = [i + (ev.value(next(dyn)) if o == DYNAMIC else o)
               for i, o in zip(out, dense_i64(op, "static_offsets"))]
        v = op.operands[0]
    if ir.MemRefType(v.type).rank != len(out):
        return None
    return out
