"""Evaluate a kernel's index arithmetic for every thread of a workgroup (numpy).

The address analysis of the front end (``pipeline_mlir/frontend/natural.py``) and of the tag check
(``pipeline_mlir/frontend/tag_check.py``) needs, for every lane of every wave, the element each memory
access touches.  :class:`Evaluator` computes an SSA value of integer or index type as a
numpy ``int64`` array with one entry per thread (``threads`` of them; thread ``t`` is
wave ``t // 64``, lane ``t % 64``), following the value's definition chain through the
ops that compute indices:

* ``arith`` integer ops, ``index`` ops, ``affine.apply`` / ``min`` / ``max`` /
  ``delinearize_index`` / ``linearize_index``, casts, ``select``, ``cmpi``;
* thread and block ids (``gpu.thread_id``, ``gpu.lane_id``, ``gpu.subgroup_id``,
  ``gpu.block_id``, ``rocdl.workitem.id.*``, ``rocdl.workgroup.id.*``,
  ``hal.interface.workgroup.id``), ``rocdl.readfirstlane``, and value hints
  (``iree_codegen.index_hint``, ``util.assume.int``) which pass their operand on.

Values the kernel only knows at launch time (function arguments, workgroup ids, the
induction variables of an ``scf.forall`` over workgroups, HAL push constants) get a
fixed sample value: the analysis uses them only in global addresses, where it compares
differences.  A loop's induction variable is bound with :meth:`Evaluator.bind`.

:meth:`Evaluator.view` follows a memref through its view ops (``memref.subview``,
``expand_shape``, ``collapse_shape``, ``cast``, ``reinterpret_cast``,
``assume_alignment``, ``memory_space_cast``, ``amdgpu.fat_raw_buffer_cast``,
``iree_codegen.swizzle_hint``) to its root buffer and returns a :class:`View`: the
root, the per-thread element offset and the static strides.

Whatever it cannot evaluate is an :class:`~pipeline_mlir.dialect.ir_io.IRError` at the
op, saying what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.kernel.lds_access import OPAQUE_ASM, OPAQUE_CONSTRAINTS
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op

WAVE = 64
#: sample value of a launch-time integer (kernel argument, push constant)
SAMPLE_ARG = 4096
#: sample value of a workgroup id / workgroup-loop induction variable
SAMPLE_WORKGROUP = 1
DYNAMIC = ir.ShapedType.get_dynamic_size() if hasattr(ir.ShapedType, "get_dynamic_size") \
    else -9223372036854775808


def attr_names(op) -> list[str]:
    a = op.attributes
    return [a[i].name for i in range(len(a))]


def int_attr(op, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


def dense_i64(op, name: str) -> list[int]:
    return list(ir.DenseI64ArrayAttr(op.attributes[name]))


def segment_sizes(op) -> list[int]:
    return list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))


def segments(op) -> list[list]:
    """The operand groups of an op with ``operandSegmentSizes``."""
    out, pos = [], 0
    operands = list(op.operands)
    for n in segment_sizes(op):
        out.append(operands[pos:pos + n])
        pos += n
    return out


def memory_space(t) -> str:
    """``workgroup``, ``global``, ``fat_raw_buffer``, ``private`` or the printed space."""
    mt = ir.MemRefType(t)
    ms = mt.memory_space
    if ms is None:
        return "global"
    s = str(ms)
    for word in ("workgroup", "fat_raw_buffer", "private", "global"):
        if word in s:
            return word
    if s.strip() in ("3", "3 : i32", "3 : i64"):
        return "workgroup"
    if "storage_buffer" in s:
        return "global"
    return s


def element_bytes(t) -> int:
    """Bytes per element of a memref or vector type (sub-byte types are refused)."""
    et = t.element_type
    width = getattr(et, "width", None)
    if width is None:
        try:
            width = ir.FloatType(et).width
        except Exception:  # pragma: no cover - exotic element types
            width = None
    if width is None and "f8" in str(et):
        width = 8
    if width is None or width % 8:
        raise ValueError(f"element type {et} is not a whole number of bytes")
    return width // 8


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
        out = self.offset.copy()
        for i, s in zip(indices, self.strides):
            out = out + i * s
        return out


def xor_shuffle(elements: np.ndarray, row: int, access: int) -> np.ndarray:
    """IREE's ``#iree_codegen.xor_shuffle<row, access>`` of flat element offsets: the
    ``access``-element chunk index within a ``row``-element row is XORed with the row
    index modulo ``row / access`` (elements within a chunk keep their place)."""
    r = elements // row
    chunk = (elements % row) // access
    phase = r % (row // access)
    return r * row + (chunk ^ phase) * access + elements % access


def parse_xor_shuffle(attr) -> tuple[int, int] | None:
    import re

    m = re.fullmatch(r"#iree_codegen\.xor_shuffle<\s*(\d+)\s*,\s*(\d+)\s*>", str(attr).strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


class Evaluator:
    """Per-thread evaluation of index values (see the module docstring)."""

    def __init__(self, block_size: tuple[int, int, int]) -> None:
        self.block_size = tuple(block_size)
        self.threads = int(np.prod(self.block_size))
        self.tid = np.arange(self.threads, dtype=np.int64)
        self.bound: dict = {}
        self.memo: dict = {}
        self.views: dict = {}
        #: the op errors are reported at when the value itself has no op (e.g. the loop)
        self.where = None

    # ---- values -------------------------------------------------------------------------
    def const(self, v: int) -> np.ndarray:
        return np.full(self.threads, int(v), dtype=np.int64)

    def bind(self, value, array) -> None:
        """Give ``value`` (e.g. a loop induction variable) a fixed per-thread value and
        forget everything computed from it."""
        self.bound[value] = np.broadcast_to(np.asarray(array, dtype=np.int64),
                                            (self.threads,)).copy()
        self.memo = {}
        self.views = {}

    def value(self, v) -> np.ndarray:
        if v in self.bound:
            return self.bound[v]
        if v in self.memo:
            return self.memo[v]
        owner = v.owner
        if isinstance(owner, ir.Block):
            out = self._block_argument(v, owner)
        else:
            op = _op(owner)
            results = list(op.results)
            idx = results.index(v)
            vals = self._eval(op)
            for r, a in zip(results, vals):
                self.memo[r] = a
            return vals[idx]
        self.memo[v] = out
        return out

    def uniform(self, v) -> int | None:
        """The value if it is the same for every thread, else None."""
        a = self.value(v)
        return int(a[0]) if np.all(a == a[0]) else None

    def _block_argument(self, v, block) -> np.ndarray:
        parent = block.owner
        parent = _op(parent) if parent is not None else None
        name = parent.name if parent is not None else ""
        if name == "scf.forall":
            return self.const(SAMPLE_WORKGROUP)
        if name in ("func.func", "gpu.func", "llvm.func"):
            return self.const(SAMPLE_ARG)
        where = parent if parent is not None else self.where
        raise IRError(where, f"'{name}' op: the address analysis cannot evaluate block "
                             f"argument #{v.arg_number} here (only function arguments, "
                             f"workgroup-loop and pipelined-loop induction variables)")

    def _thread_dim(self, dim: str) -> np.ndarray:
        bx, by, _bz = self.block_size
        if dim == "x":
            return self.tid % bx
        if dim == "y":
            return (self.tid // bx) % by
        return self.tid // (bx * by)

    def _eval(self, op) -> list[np.ndarray]:
        name = op.name
        handler = _HANDLERS.get(name)
        if handler is None:
            if name.startswith("arith.") and name[6:] in _BINARY:
                a, b = (self.value(x) for x in op.operands)
                return [_BINARY[name[6:]](a, b, op)]
            raise IRError(op, f"'{name}' op: the address analysis cannot evaluate it (it "
                              f"follows arith, index and affine integer ops, casts, thread "
                              f"and block ids)")
        return handler(self, op)

    # ---- memrefs ------------------------------------------------------------------------
    def view(self, v) -> View:
        if v in self.views:
            return self.views[v]
        out = self._view(v)
        self.views[v] = out
        return out

    def _root_view(self, v) -> View:
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
        return View(v, self.const(offset), list(strides), list(t.shape), element_bytes(t),
                    memory_space(v.type), sw, [])

    def _view(self, v) -> View:
        owner = v.owner
        if isinstance(owner, ir.Block):
            return self._root_view(v)
        op = _op(owner)
        name = op.name
        if name in ("memref.alloc", "memref.alloca", "hal.interface.binding.subspan",
                    "memref.get_global"):
            return self._root_view(v)
        src = op.operands[0] if len(op.operands) else None
        rt = ir.MemRefType(v.type)
        strides, off_static = rt.get_strides_and_offset()
        if name in ("memref.assume_alignment", "memref.memory_space_cast",
                    "amdgpu.fat_raw_buffer_cast", "memref.cast"):
            base = self.view(src)
            return View(base.root, base.offset, list(base.strides), list(rt.shape),
                        base.elem_bytes, memory_space(v.type) if name != "memref.cast"
                        else base.space, base.swizzle, [op] + base.chain)
        if name == "iree_codegen.swizzle_hint":
            base = self.view(src)
            sw = parse_xor_shuffle(op.attributes["swizzle"]) if "swizzle" in op.attributes \
                else None
            if sw is None:
                for a in attr_names(op):
                    sw = parse_xor_shuffle(op.attributes[a]) or sw
            if sw is None:
                raise IRError(op, f"'{name}' op: unknown swizzle (the address analysis "
                                  f"knows #iree_codegen.xor_shuffle)")
            return View(base.root, base.offset, list(base.strides), list(rt.shape),
                        base.elem_bytes, base.space, sw, [op] + base.chain)
        if name == "memref.subview":
            base = self.view(src)
            groups = segments(op)
            dyn_off = iter(groups[1])
            offsets = [self.value(next(dyn_off)) if o == DYNAMIC else self.const(o)
                       for o in dense_i64(op, "static_offsets")]
            sst = dense_i64(op, "static_strides")
            if any(s == DYNAMIC for s in sst):
                raise IRError(op, f"'{name}' op: dynamic subview strides are not supported by "
                                  f"the address analysis")
            off = base.offset.copy()
            for o, s in zip(offsets, base.strides):
                off = off + o * s
            new_strides = _subview_strides(base, op, sst, rt)
            return View(base.root, off, new_strides, list(rt.shape), base.elem_bytes,
                        base.space, base.swizzle, [op] + base.chain)
        if name in ("memref.expand_shape", "memref.collapse_shape"):
            base = self.view(src)
            if any(s == DYNAMIC for s in strides):
                raise IRError(op, f"'{name}' op: the result has dynamic strides ({v.type}); "
                                  f"the address analysis needs static strides")
            return View(base.root, base.offset, list(strides), list(rt.shape), base.elem_bytes,
                        base.space, base.swizzle, [op] + base.chain)
        if name == "memref.reinterpret_cast":
            base = self.view(src)
            groups = segments(op)
            so = dense_i64(op, "static_offsets")
            off = self.value(groups[1][0]) if so[0] == DYNAMIC else self.const(so[0])
            sst = dense_i64(op, "static_strides")
            if any(s == DYNAMIC for s in sst):
                raise IRError(op, f"'{name}' op: dynamic strides are not supported by the "
                                  f"address analysis")
            return View(base.root, off, list(sst), list(rt.shape), base.elem_bytes,
                        base.space, base.swizzle, [op] + base.chain)
        raise IRError(op, f"'{name}' op: the address analysis cannot follow this memref "
                          f"(it knows allocations, function arguments, HAL bindings and the "
                          f"view ops subview, expand_shape, collapse_shape, cast, "
                          f"reinterpret_cast, assume_alignment, fat_raw_buffer_cast)")


def _row_major(shape) -> list[int]:
    out, acc = [], 1
    for d in reversed(list(shape)):
        out.append(acc)
        acc *= d if d != DYNAMIC else SAMPLE_ARG
    return list(reversed(out))


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


# ---- op handlers ---------------------------------------------------------------------------

def _cmp(pred: int, a, b):
    table = {0: a == b, 1: a != b, 2: a < b, 3: a <= b, 4: a > b, 5: a >= b,
             6: a < b, 7: a <= b, 8: a > b, 9: a >= b}
    if pred >= 6 and (np.any(a < 0) or np.any(b < 0)):
        a, b = a.astype(np.uint64), b.astype(np.uint64)
        table = {6: a < b, 7: a <= b, 8: a > b, 9: a >= b}
    return table[pred].astype(np.int64)


def _nonneg(op, *xs):
    for x in xs:
        if np.any(x < 0):
            raise IRError(op, f"'{op.name}' op: negative operand in an unsigned operation "
                              f"(the address analysis evaluates indices as exact integers)")


def _div(a, b, op, kind):
    if np.any(b == 0):
        raise IRError(op, f"'{op.name}' op divides by zero for some thread")
    if kind == "u":
        _nonneg(op, a, b)
        return a // b
    if kind == "floor":
        return np.floor_divide(a, b)
    if kind == "ceil":
        return -np.floor_divide(-a, b)
    q = np.abs(a) // np.abs(b)  # signed: truncation toward zero
    return np.where((a < 0) ^ (b < 0), -q, q)


def _rem(a, b, op, kind):
    if np.any(b == 0):
        raise IRError(op, f"'{op.name}' op divides by zero for some thread")
    if kind == "u":
        _nonneg(op, a, b)
        return a % b
    return a - _div(a, b, op, "s") * b


_BINARY = {
    "addi": lambda a, b, op: a + b, "subi": lambda a, b, op: a - b,
    "muli": lambda a, b, op: a * b,
    "divui": lambda a, b, op: _div(a, b, op, "u"), "divsi": lambda a, b, op: _div(a, b, op, "s"),
    "floordivsi": lambda a, b, op: _div(a, b, op, "floor"),
    "ceildivsi": lambda a, b, op: _div(a, b, op, "ceil"),
    "ceildivui": lambda a, b, op: _div(a, b, op, "ceil"),
    "remui": lambda a, b, op: _rem(a, b, op, "u"), "remsi": lambda a, b, op: _rem(a, b, op, "s"),
    "andi": lambda a, b, op: a & b, "ori": lambda a, b, op: a | b,
    "xori": lambda a, b, op: a ^ b, "shli": lambda a, b, op: a << b,
    "shrui": lambda a, b, op: a >> b, "shrsi": lambda a, b, op: a >> b,
    "maxsi": lambda a, b, op: np.maximum(a, b), "minsi": lambda a, b, op: np.minimum(a, b),
    "maxui": lambda a, b, op: np.maximum(a, b), "minui": lambda a, b, op: np.minimum(a, b),
}


def _int_constant(ev, op):
    a = op.attributes["value"]
    if isinstance(a, ir.IntegerAttr):
        return [ev.const(ir.IntegerAttr(a).value)]
    if isinstance(a, ir.BoolAttr):
        return [ev.const(int(ir.BoolAttr(a).value))]
    raise IRError(op, f"'{op.name}' op: only integer constants take part in address "
                      f"computations (got {a})")


def _same(ev, op):
    return [ev.value(op.operands[0])]


def _expr(e, dims, syms, op):
    if isinstance(e, ir.AffineConstantExpr):
        return e.value
    if isinstance(e, ir.AffineDimExpr):
        return dims[e.position]
    if isinstance(e, ir.AffineSymbolExpr):
        return syms[e.position]
    a, b = _expr(e.lhs, dims, syms, op), _expr(e.rhs, dims, syms, op)
    if isinstance(e, ir.AffineAddExpr):
        return a + b
    if isinstance(e, ir.AffineMulExpr):
        return a * b
    if isinstance(e, ir.AffineModExpr):
        return np.mod(a, b)
    if isinstance(e, ir.AffineFloorDivExpr):
        return np.floor_divide(a, b)
    if isinstance(e, ir.AffineCeilDivExpr):
        return -np.floor_divide(-a, b)
    raise IRError(op, f"'{op.name}' op: unknown affine expression {e}")  # pragma: no cover


def _affine_map_results(ev, op, attr_name="map"):
    am = ir.AffineMapAttr(op.attributes[attr_name]).value
    vals = [ev.value(x) for x in op.operands]
    dims, syms = vals[:am.n_dims], vals[am.n_dims:]
    return [np.broadcast_to(np.asarray(_expr(e, dims, syms, op), dtype=np.int64),
                            (ev.threads,)).copy() for e in am.results]


def _affine_apply(ev, op):
    return _affine_map_results(ev, op)


def _affine_minmax(fn):
    def h(ev, op):
        res = _affine_map_results(ev, op)
        out = res[0]
        for r in res[1:]:
            out = fn(out, r)
        return [out]
    return h


def _basis(ev, op, dynamic):
    dyn = iter(dynamic)
    return [ev.value(next(dyn)) if b == DYNAMIC else b for b in dense_i64(op, "static_basis")]


def _delinearize(ev, op):
    operands = list(op.operands)
    x = ev.value(operands[0])
    basis = _basis(ev, op, operands[1:])
    n = len(op.results)
    if len(basis) == n - 1:
        basis = [None] + basis
    out = []
    rest = x
    for b in reversed(basis[1:]):
        out.append(np.mod(rest, b))
        rest = np.floor_divide(rest, b)
    out.append(rest)
    return list(reversed(out))


def _linearize(ev, op):
    groups = segments(op)
    idx = [ev.value(x) for x in groups[0]]
    basis = _basis(ev, op, groups[1])
    if len(basis) == len(idx):
        basis = basis[1:]
    out = idx[0]
    for i, b in zip(idx[1:], basis):
        out = out * b + i
    return [out]


def _thread_id(ev, op):
    dim = str(op.attributes["dimension"])
    return [ev._thread_dim("x" if "x" in dim else "y" if "y" in dim else "z")]


def _workitem(dim):
    def h(ev, op):
        return [ev._thread_dim(dim)]
    return h


def _lane_id(ev, op):
    return [ev.tid % WAVE]


def _subgroup_id(ev, op):
    return [ev.tid // WAVE]


def _sample_workgroup(ev, op):
    return [ev.const(SAMPLE_WORKGROUP) for _ in op.results]


def _block_dim(ev, op):
    dim = str(op.attributes["dimension"])
    i = 0 if "x" in dim else 1 if "y" in dim else 2
    return [ev.const(ev.block_size[i])]


def _readfirstlane(ev, op):
    v = ev.value(op.operands[0])
    first = v[(ev.tid // WAVE) * WAVE]
    return [first]


def is_opaque_identity(op) -> bool:
    """An ``llvm.inline_asm`` with no instructions whose one result is tied to its one
    operand (constraints ``"=v,0"``): the value passes unchanged, but LLVM cannot see
    through it (the kernels use it to keep a precomputed LDS base in a register)."""
    a = op.attributes
    return (op.name == "llvm.inline_asm" and len(op.operands) == 1 and len(op.results) == 1
            and "asm_string" in a and "constraints" in a
            and ir.StringAttr(a["asm_string"]).value == OPAQUE_ASM
            and ir.StringAttr(a["constraints"]).value == OPAQUE_CONSTRAINTS)


def _inline_asm(ev, op):
    if not is_opaque_identity(op):
        raise IRError(op, f"'llvm.inline_asm' op: the address analysis evaluates only the "
                          f"opaque identity (asm \"{OPAQUE_ASM}\", constraints "
                          f"\"{OPAQUE_CONSTRAINTS}\", one operand)")
    return [ev.value(op.operands[0])]


def _cmpi(ev, op):
    a, b = (ev.value(x) for x in op.operands)
    return [_cmp(int_attr(op, "predicate"), a, b)]


def _select(ev, op):
    c, a, b = (ev.value(x) for x in op.operands)
    return [np.where(c != 0, a, b)]


def _trunc(ev, op):
    a = ev.value(op.operands[0])
    w = op.results[0].type.width
    return [a & ((1 << w) - 1) if w < 63 else a]


def _extui(ev, op):
    return [ev.value(op.operands[0])]


def _sample_arg(ev, op):
    return [ev.const(SAMPLE_ARG) for _ in op.results]


def _memref_dim(ev, op):
    v = ev.view(op.operands[0])
    i = ev.uniform(op.operands[1])
    d = v.shape[i]
    return [ev.const(SAMPLE_ARG if d == DYNAMIC else d)]


_HANDLERS = {
    "arith.constant": _int_constant,
    "arith.index_cast": _same, "arith.index_castui": _same, "arith.extsi": _same,
    "arith.extui": _extui, "arith.trunci": _trunc, "arith.bitcast": _same,
    "arith.cmpi": _cmpi, "arith.select": _select,
    "index.constant": lambda ev, op: [ev.const(int_attr(op, "value"))],
    "index.add": lambda ev, op: [ev.value(op.operands[0]) + ev.value(op.operands[1])],
    "index.sub": lambda ev, op: [ev.value(op.operands[0]) - ev.value(op.operands[1])],
    "index.mul": lambda ev, op: [ev.value(op.operands[0]) * ev.value(op.operands[1])],
    "index.divu": lambda ev, op: [_div(ev.value(op.operands[0]), ev.value(op.operands[1]), op, "u")],
    "index.remu": lambda ev, op: [_rem(ev.value(op.operands[0]), ev.value(op.operands[1]), op, "u")],
    "index.casts": _same, "index.castu": _same,
    "affine.apply": _affine_apply,
    "affine.min": _affine_minmax(np.minimum), "affine.max": _affine_minmax(np.maximum),
    "affine.delinearize_index": _delinearize, "affine.linearize_index": _linearize,
    "gpu.thread_id": _thread_id, "gpu.lane_id": _lane_id, "gpu.subgroup_id": _subgroup_id,
    "gpu.block_id": _sample_workgroup, "gpu.block_dim": _block_dim,
    "gpu.grid_dim": _sample_arg,
    "rocdl.workitem.id.x": _workitem("x"), "rocdl.workitem.id.y": _workitem("y"),
    "rocdl.workitem.id.z": _workitem("z"),
    "rocdl.workgroup.id.x": _sample_workgroup, "rocdl.workgroup.id.y": _sample_workgroup,
    "rocdl.workgroup.id.z": _sample_workgroup,
    "hal.interface.workgroup.id": _sample_workgroup,
    "hal.interface.workgroup.count": _sample_arg,
    "hal.interface.workgroup.size": _sample_arg,
    "hal.interface.constant.load": _sample_arg,
    "rocdl.readfirstlane": _readfirstlane,
    "llvm.inline_asm": _inline_asm,
    "iree_codegen.index_hint": _same, "util.assume.int": _same,
    "memref.dim": _memref_dim,
}
