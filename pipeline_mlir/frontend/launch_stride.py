"""Global buffers whose row stride is known only at launch, for the front end's own copies.

IREE binds an operand of dynamic K as ``memref<4096x?xbf16>{%k}`` (or ``?x?``): its rows
are ``K`` elements apart, a value of the push constants.  The address analysis evaluates
every launch value at one sample (:data:`~pipeline_mlir.analysis.lane_ops.SAMPLE_ARG`), so
the global elements the kernel's copies read, and the strided block
:mod:`~pipeline_mlir.frontend.layout` finds in them, are those of that one row length.
The copies the front end makes index such a buffer per dimension (the kernel's thread-0
source indices plus a constant offset per dimension,
:func:`~pipeline_mlir.frontend.layout.source_offset`), so they do not depend on the row
length themselves; :func:`check_launch_strides` proves that they read what the kernel's
copies read, and as aligned, at every row length the launch may give:

* the kernel's copies index the buffer per dimension (a chain of casts and same-rank,
  unit-stride subviews), with indices and view offsets that depend on no launch value
  (push constants, function arguments, sizes of memrefs): so every copy reads the same
  row and column at every launch, as the front end's copies do;
* each index is a part that moves with the workgroup alone (its tiles: of the late form's
  grid-stride loop, of the prefetch point's ``scf.forall``) plus a part that does not (the
  thread, the K-loop), joined only by sums, differences, products by a constant, casts and
  ``affine.apply``s of such sums (:func:`~pipeline_mlir.frontend.workgroup_offset.workgroup_mixed`): the copies of the sampled
  workgroups, moved by what thread 0 reads, are then every workgroup's;
* at the sample, the front end's copies read every LDS element's row and column that the
  kernel's copies put there (per dimension, not only the linear element: an element's
  column past its row would be another row's at another row length);
* every stride known only at launch is a proven multiple of the front end's copy width in
  bytes, so their global addresses keep the alignment they have at the sample: the stride
  is the product of the sizes of the dimensions inside it, and a size known at launch is
  a multiple of what its ``util.assume.int`` says (its ``udiv``; through IREE's casts of
  the push constants, products and constants; 1 when nothing says).

A buffer that fails one of these is refused at the copy with the reason (the
:class:`~pipeline_mlir.kernel.loop_model.LoopRefusal` the layout reports).
:func:`view_stride_divisors` (the same divisors, followed through a copy's views) serves
:mod:`~pipeline_mlir.frontend.regcopy`, which turns a copy through registers into a
direct-to-LDS copy only when its address is proven aligned in every workgroup, K step and
launch.
"""

from __future__ import annotations

import math

import numpy as np

from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.analysis.ir_facts import (DYNAMIC, LAUNCH_PASS_THROUGH, assumed_divisor,
                                             dense_i64, element_bytes)
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.dialect.attrs import is_storage_buffer
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.copy_source import dim_indices
from pipeline_mlir.frontend.extent import SOURCE_VIEWS
from pipeline_mlir.frontend.kernel_ir import describe, fat_raw_view
from pipeline_mlir.frontend.row_proof_late import tile_values
from pipeline_mlir.frontend.workgroup_offset import (SHAPE_VIEWS, index_values,
                                                     offset_refusal, workgroup_mixed,
                                                     workgroup_vars)

#: ops whose value is known only at launch
_LAUNCH_OPS = ("hal.interface.constant.load", "memref.dim")


def has_launch_strides(base) -> bool:
    """Whether the row-major buffer ``base`` has a stride known only at launch (a dynamic
    dimension after its first)."""
    return any(ir.ShapedType.is_dynamic_size(d) for d in ir.MemRefType(base.type).shape[1:])


def launch_strided_base(src):
    """The buffer a copy's global source ``src`` is a view of when it is row-major at
    offset 0 with strides known only at launch (a dynamic dimension after its first), a
    binding or a function argument, else None."""
    v = view_root(src, SOURCE_VIEWS)
    t = ir.MemRefType(v.type)
    if not has_launch_strides(v):
        return None
    strides, offset = t.get_strides_and_offset()
    if offset not in (0, DYNAMIC) or strides[-1] != 1:
        return None
    return v if _binding_sizes(v) is not None or isinstance(v.owner, ir.Block) else None


def _binding_sizes(v) -> dict | None:
    """dimension -> the value that sizes it, for each dynamic dimension of ``v`` (followed
    through :data:`SHAPE_VIEWS` to its ``hal.interface.binding.subspan``), or None."""
    v = view_root(v, SHAPE_VIEWS)
    if isinstance(v.owner, ir.Block) or _op(v.owner).name != "hal.interface.binding.subspan":
        return None
    op = _op(v.owner)
    dims = [i for i, d in enumerate(ir.MemRefType(v.type).shape)
            if ir.ShapedType.is_dynamic_size(d)]
    return dict(zip(dims, list(op.operands)[len(list(op.operands)) - len(dims):]))


def divisor(v) -> int:
    """A proven divisor of the index value ``v`` (module docstring; 1 when nothing says)."""
    if isinstance(v.owner, ir.Block):
        return 1
    op = _op(v.owner)
    if op.name in LAUNCH_PASS_THROUGH:
        return divisor(op.operands[0])
    if op.name == "arith.constant" and isinstance(op.attributes["value"], ir.IntegerAttr):
        return abs(ir.IntegerAttr(op.attributes["value"]).value) or 0
    if op.name == "arith.muli":
        return divisor(op.operands[0]) * divisor(op.operands[1])
    if op.name == "util.assume.int":
        i = list(op.results).index(v)
        return math.lcm(assumed_divisor(op, i), divisor(op.operands[i]))
    return 1


def stride_divisors(base) -> list[int]:
    """Per dimension of the row-major buffer ``base``, a proven divisor of its stride in
    elements: the product of the inner dimensions' sizes or divisors, for a binding (IREE
    lays its buffer out row-major) or a buffer in the identity layout; any other states
    its strides apart from its sizes (a function argument ``memref<8x?x4xi8, strided<[?,
    ?, 1]>>``), so each is its type's, 1 where dynamic."""
    t = ir.MemRefType(base.type)
    shape = t.shape
    sizes = _binding_sizes(base)
    identity = isinstance(t.layout, ir.AffineMapAttr) and \
        ir.AffineMapAttr(t.layout).value == ir.AffineMap.get_identity(t.rank)
    if sizes is None and not identity:
        strides, _ = t.get_strides_and_offset()
        return [1 if x == DYNAMIC else x for x in strides]
    sizes = sizes or {}
    out, acc = [], 1
    for d in reversed(range(len(shape))):
        out.append(acc)
        size = shape[d]
        acc *= divisor(sizes[d]) if ir.ShapedType.is_dynamic_size(size) and d in sizes \
            else 1 if ir.ShapedType.is_dynamic_size(size) else size
    return list(reversed(out))


#: views whose strides are their source's, element for element (casts, hints, the cast to a
#: fat raw buffer, which may reset only the offset)
_SAME_STRIDES = ("memref.cast", "memref.assume_alignment", "memref.memory_space_cast",
                 "amdgpu.fat_raw_buffer_cast", "iree_codegen.swizzle_hint")


def view_stride_divisors(m) -> list[int] | None:
    """Per dimension of the memref value ``m``, its stride in elements where its type
    states it, else a proven divisor of it; None where a stride known only at launch is not
    followed.  Followed: a binding or a function argument (:func:`stride_divisors`: in the
    identity layout each stride the product of the sizes inside it), and views of one
    through :data:`_SAME_STRIDES` and same-rank ``memref.subview``s of static steps (a
    stride its source's times the step); a reshape is not followed."""
    t = ir.MemRefType(m.type)
    strides, _ = t.get_strides_and_offset()
    if DYNAMIC not in strides:
        return list(strides)
    if isinstance(m.owner, ir.Block) or _op(m.owner).name == "hal.interface.binding.subspan":
        return stride_divisors(m)
    op = _op(m.owner)
    src = op.operands[0] if len(op.operands) else None
    if src is None or not isinstance(src.type, ir.MemRefType) or \
            ir.MemRefType(src.type).rank != t.rank:
        return None
    if op.name in _SAME_STRIDES:
        return view_stride_divisors(src)
    if op.name != "memref.subview":
        return None
    base, steps = view_stride_divisors(src), dense_i64(op, "static_strides")
    if base is None or DYNAMIC in steps:
        return None
    return [b * k for b, k in zip(base, steps)]


def launch_aligned(root, size: int) -> bool:
    """Whether every stride of the global buffer ``root`` that is known only at launch is
    a proven multiple of ``size`` bytes (True for a buffer of static strides): an address
    aligned at the analysis' sample row length is then aligned at every one."""
    t = ir.MemRefType(root.type)
    if not has_launch_strides(root):
        return True
    eb = element_bytes(t)
    return all((div * eb) % size == 0 for d, div in enumerate(stride_divisors(root))
               if any(ir.ShapedType.is_dynamic_size(x) for x in t.shape[d + 1:]))


def _launch_dependence(v, seen: set, tiles: frozenset = frozenset()) -> object | None:
    """The op that makes ``v`` depend on a launch value (a push constant, a memref size,
    a function argument), following operands back; None if none does (a block argument of
    a loop or of the workgroup loop is not a launch value, nor is a workgroup's tile of
    ``tiles``, which stands for the workgroup as an ``scf.forall``'s variable does)."""
    if v in tiles:
        return None
    if isinstance(v.owner, ir.Block):
        parent = v.owner.owner
        name = _op(parent).name if parent is not None else ""
        return _op(parent) if name in ("func.func", "gpu.func", "llvm.func") else None
    if v in seen:
        return None
    seen.add(v)
    op = _op(v.owner)
    if op.name in _LAUNCH_OPS:
        return op
    for x in op.operands:
        if isinstance(x.type, ir.MemRefType):
            continue
        why = _launch_dependence(x, seen, tiles)
        if why is not None:
            return why
    return None


class NumpyDims:
    """:func:`~pipeline_mlir.frontend.copy_source.dim_indices`'s operations on the
    evaluator's per-thread values."""

    def __init__(self, ev) -> None:
        self.ev = ev

    def get(self, v):
        return self.ev.value(v)

    @staticmethod
    def c(x: int):
        return np.int64(x)

    @staticmethod
    def add(a, b):
        return a if b is None else a + b

    @staticmethod
    def mul(a, b):
        return a * b


def kernel_dims(an, copies: list, base, full: int, label: str) -> list[np.ndarray]:
    """Per dimension of ``base``, the global index each LDS element (of the channel's
    buffer, ``full`` elements) holds from the kernel's copies ``copies`` (indices into
    ``an.copies``) at the analysis' loop variable; a copy not indexed per dimension, whose
    indices depend on a launch value, or mix the workgroup with the rest otherwise than as
    an offset, is a LoopRefusal."""
    np_ops = NumpyDims(an.evaluator)
    rank = ir.MemRefType(base.type).rank
    out = [np.full(full, -1, dtype=np.int64) for _ in range(rank)]
    tiles, kinds, wg = None, {}, workgroup_vars(an.scan.loop)
    for i in copies:
        acc, c = an.scan.copies[i], an.copies[i]
        idx = dim_indices(np_ops, np_ops, acc.src, acc.src_indices, base)
        where = (c.op,)
        if idx is None:
            raise LM.LoopRefusal(f"channel {label}'s copies read a buffer whose row stride is "
                                 f"known only at launch ({base.type}) through views the "
                                 f"front end does not index per dimension", where)
        for x in index_values(acc):
            why = _launch_dependence(x, set())
            if why is not None:
                # (a late form's workgroup tile along a size known at launch, ``v mod
                # ceildiv(N, T)``: proven a tile below ceildiv(N, T) for every size, the
                # workgroup's coordinate; found only where a launch value is met)
                tiles = tile_values(an.scan.loop) if tiles is None else tiles
                why = _launch_dependence(x, set(), tiles)
            mixed = None if why is not None else workgroup_mixed(x, wg, kinds)
            if mixed is not None:
                raise offset_refusal(label, f"a buffer whose row stride is known only at "
                                     f"launch ({base.type})", mixed, where)
            if why is not None:
                raise LM.LoopRefusal(f"channel {label}'s copies read a buffer whose row stride "
                                     f"is known only at launch ({base.type}) at an index that "
                                     f"depends on a launch value ({describe(why)}): what they "
                                     f"read at the sample stride is not what they read at "
                                     f"others", where)
        width = c.lds.shape[1]
        for d in range(rank):
            col = np.broadcast_to(idx[d], (c.lds.shape[0],))[:, None]
            inner = np.arange(width)[None, :] if d == rank - 1 else 0
            out[d][c.lds.ravel()] = np.broadcast_to(col + inner, c.lds.shape).ravel()
    return out


def check_launch_strides(base, per_dim: list, got: list, width_bytes: int,
                         elem_bytes: int, label: str, where, staged: bool = False) -> None:
    """The front end's copies of a buffer ``base`` of strides known at launch read, per
    dimension, what the kernel's copies read (``per_dim``: :func:`kernel_dims` at the LDS
    elements; ``got``: the front end's indices per dimension at the same elements, -1
    where it moves none: a K sub-step's), and every stride known only at launch keeps
    copies of ``width_bytes`` aligned (module docstring), unless they are ``staged``
    through registers (a buffer load takes any byte address); else a LoopRefusal at
    ``where``."""
    made = got[0] >= 0                  # the elements the front end's copies move
    for d, (want, have) in enumerate(zip(per_dim, got)):
        if not np.array_equal(want[made], have[made]):
            raise LM.LoopRefusal(f"channel {label}: the front end's copies would not read, in "
                                 f"dimension {d} of {base.type} (a row stride known only at "
                                 f"launch), what the kernel's copies read", where)
    if not staged and not launch_aligned(base, width_bytes):
        divs = ", ".join(str(x) for x in stride_divisors(base)[:-1])
        raise LM.LoopRefusal(f"channel {label}: the row stride of {base.type} is known only "
                             f"at launch and proven a multiple of {divs} element(s) of "
                             f"{elem_bytes} bytes only (its sizes' util.assume.int udiv), so "
                             f"the front end's copies of {width_bytes} bytes per lane may be "
                             f"misaligned", where)


def fat_buffer(base, point, casts: dict):
    """``base``, or for a binding IREE left in ``#hal.descriptor_type<storage_buffer>``
    (its copies were through registers) the fat raw buffer of it, cast once (``casts``:
    base -> cast) at ``point`` before the loop: the space the front end's copies read
    (the binding's size its range)."""
    if not is_storage_buffer(base.type):
        return base
    loc = base.owner.location if hasattr(base.owner, "location") else ir.Location.unknown()
    return fat_raw_view(base, point, loc, casts)
