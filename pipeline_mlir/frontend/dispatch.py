"""What launching a matmul dispatch takes, read from its MLIR (for ``--emulate FILE.mlir``).

A dispatch (IREE's ``func.func`` with ``hal.interface.binding.subspan`` bindings, or a
``gpu.func`` / ``func.func`` kernel with memref arguments) compiles its sizes in.
:func:`matmul_dispatch` reads:

* the bindings, in binding (argument) order: A (``M x K``), B (``N x K`` or ``K x N``),
  C (``M x N``, f32; i32 for i8 A and B), static row-major memrefs of global memory; A and
  B of one element type (bf16, f16, f8E4M3FN, f8E5M2 or i8);
* which dimension of A and of B is K: the one the K-loop advances.  The natural K-loop
  (:func:`~pipeline_mlir.frontend.scan.scan_loop`) copies tiles of A and B; the
  address analysis evaluates the first element each copy reads in two consecutive
  iterations, and the step between them is 1 element per K (K is the contiguous
  dimension) or a row per K.  Without such a loop the shapes must tell (``N != K``);
* the grid: an ``scf.forall`` over workgroups (its bounds, mapped to x, y, z), the
  ``upper_bound`` of the workgroup ids the kernel reads (``hal.interface.workgroup.id``,
  ``gpu.block_id``), a ``gpu.func``'s ``known_grid_size``; None when a workgroup id has no
  bound (the launcher then finds it).

Whatever is not such a matmul is an :class:`~pipeline_mlir.dialect.ir_io.IRError` at the
op, saying why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation, walk_ops as _walk
from pipeline_mlir.analysis.loop_eval import memory_space
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.frontend.kernel_ir import describe, kernel_of
from pipeline_mlir.frontend.scan import find_natural_loops, loop_evaluator, scan_loop

NAMES = ("A", "B", "C")
#: A and B element types -> the names the emulator's reference encodes them by
ELEMENTS = {"bf16": "bf16", "f16": "f16", "f8E4M3FN": "fp8", "f8E5M2": "fp8e5m2", "i8": "i8"}
#: C's element type by A and B's (the MFMAs' accumulator): f32 unless listed
C_ELEMENTS = {"i8": "i32"}
_DIMS = "xyz"


@dataclass(frozen=True)
class Binding:
    name: str                  # A, B or C
    shape: tuple[int, ...]
    element: str               # MLIR element type
    where: str                 # the MLIR location (text) of the op or kernel declaring it


@dataclass(frozen=True)
class MatmulDispatch:
    kernel: str
    M: int
    N: int
    K: int
    dtype: str                 # bf16, f16, fp8 (E4M3FN), fp8e5m2 or i8
    transpose_b: bool | None   # B is N x K; None: not known (why: layout_problem)
    grid: tuple[int, ...] | None
    bindings: tuple[Binding, ...]
    #: why the layout of B is not known (an IRError), when transpose_b is None
    layout_problem: IRError | None = None

    def describe(self) -> str:
        return ", ".join(f"{b.name} {'x'.join(map(str, b.shape))}x{b.element}"
                         for b in self.bindings)


def _int_attr(op, name: str) -> int | None:
    if name not in op.attributes:
        return None
    m = re.search(r"-?\d+", str(op.attributes[name]))
    return int(m.group(0)) if m else None


def _dim(op) -> int:
    text = str(op.attributes["dimension"]) if "dimension" in op.attributes else "0"
    m = re.search(r"\b([xyz])\b", text)
    return _DIMS.index(m.group(1)) if m else int(re.search(r"\d+", text).group(0))


def _kernels(module) -> list:
    """Functions holding bindings, or gpu.func kernels."""
    out = []
    for f in _walk(module.operation, lambda o: o.name in ("func.func", "gpu.func")):
        if _walk(f, lambda o: o.name == "hal.interface.binding.subspan") or \
                (f.name == "gpu.func" and "kernel" in f.attributes) or \
                block_size(f) is not None:
            out.append(f)
    return out


def _bindings(f) -> list[tuple[object, object, str]]:
    """(value, type, where) of each binding, in binding order."""
    subspans = _walk(f, lambda o: o.name == "hal.interface.binding.subspan")
    if subspans:
        subspans.sort(key=lambda o: (_int_attr(o, "set") or 0, _int_attr(o, "binding") or 0))
        return [(o.results[0], o.results[0].type, str(o.location)) for o in subspans]
    entry = f.regions[0].blocks[0]
    return [(a, a.type, str(f.location)) for a in entry.arguments
            if isinstance(a.type, ir.MemRefType) and memory_space(a.type) != "workgroup"]


def matmul_dispatch(module) -> MatmulDispatch:
    """The matmul dispatch of ``module`` (module docstring)."""
    kernels = _kernels(module)
    if not kernels:
        raise IRError(module.operation, "the input has no kernel to launch: a matmul dispatch "
                                        "is a func.func with hal.interface.binding.subspan "
                                        "bindings A, B, C (IREE's), or a gpu.func kernel with "
                                        "memref arguments A, B, C")
    if len(kernels) > 1:
        raise IRError(kernels[1], f"'{kernels[1].name}' op: a second kernel; a dispatch to "
                                  f"launch holds one")
    f = kernels[0]
    name = ir.StringAttr(f.attributes["sym_name"]).value
    for o in _walk(f, lambda o: o.name == "hal.interface.constant.load"):
        raise IRError(o, f"{describe(o)}: the kernel reads a push constant, and a matmul "
                         f"launch passes none")
    found = _bindings(f)
    if len(found) != 3:
        raise IRError(f, f"'{f.name}' op '{name}' has {len(found)} bindings; a matmul dispatch "
                         f"has three: A, B and C")
    bindings = []
    for (v, t, where), bname in zip(found, NAMES):
        mt = ir.MemRefType(t)
        et = str(mt.element_type)
        if not mt.has_static_shape or mt.rank != 2:
            raise IRError(_owner(v, f), f"binding {bname} ({t}) is not a static 2-D memref: "
                                        f"a matmul's {bname} is one")
        strides, offset = mt.get_strides_and_offset()
        if offset != 0 or list(strides) != [mt.shape[1], 1]:
            raise IRError(_owner(v, f), f"binding {bname} ({t}) is not row-major and "
                                        f"contiguous")
        bindings.append(Binding(bname, tuple(mt.shape), et, where))
    A, B, C = bindings
    if A.element not in ELEMENTS or B.element != A.element:
        raise IRError(_owner(found[0][0], f),
                      f"A and B are {A.element} and {B.element}: the emulator's reference "
                      f"runs A and B of one element type, {', '.join(ELEMENTS)}")
    acc = C_ELEMENTS.get(A.element, "f32")
    if C.element != acc:
        raise IRError(_owner(found[2][0], f),
                      f"C is {C.element}: the emulator's reference accumulates in {acc}"
                      + ("" if acc == "f32" else f" ({A.element} A and B)"))
    (M, K), (M2, N) = A.shape, C.shape
    layout_problem = None
    try:
        k_dims = _k_dims(f, [found[0][0], found[1][0]])
    except IRError as e:
        k_dims, layout_problem = None, e
    if k_dims is not None:
        if k_dims[0] != 1:
            raise IRError(_owner(found[0][0], f), f"the K-loop walks A ({A.shape[0]}x"
                                                  f"{A.shape[1]}) along its rows: A is K x M, "
                                                  f"and the emulator runs A as M x K")
        transpose_b = k_dims[1] == 1
    elif B.shape[0] != B.shape[1]:
        transpose_b = B.shape[1] == K and B.shape[0] != K
    else:
        transpose_b = None
        if layout_problem is None:
            layout_problem = IRError(f, f"'{f.name}' op '{name}' has no K-loop copying A and B "
                                        f"(an scf.for of amdgpu.mfma ops), and a square B "
                                        f"does not say it by its shape")
    BN, BK = (B.shape if transpose_b in (True, None) else B.shape[::-1])
    if M2 != M or BK != K or BN != N:
        raise IRError(f, f"'{f.name}' op '{name}': the bindings {A.shape[0]}x{A.shape[1]}, "
                         f"{B.shape[0]}x{B.shape[1]}, {C.shape[0]}x{C.shape[1]} are not A "
                         f"(M x K), B ({'N x K' if transpose_b is not False else 'K x N'}) "
                         f"and C (M x N) of one matmul")
    return MatmulDispatch(name, M, N, K, ELEMENTS[A.element], transpose_b, _grid(f),
                          tuple(bindings), layout_problem if transpose_b is None else None)


def _owner(v, f):
    o = v.owner
    return f if isinstance(o, ir.Block) else as_operation(o)


def _k_dims(f, roots: list) -> list[int] | None:
    """The dimension of each of ``roots`` (A, B) the K-loop advances, from the first element
    the loop's copies read in two consecutive iterations; None without a K-loop."""
    loops = [lp for lp in find_natural_loops(f) if kernel_of(lp) == f]
    if not loops:
        return None
    out: dict = {}
    for loop in loops:
        scan = scan_loop(loop)
        ev, iv, lb, step = loop_evaluator(scan)
        first = []
        for value in (lb, lb + step):
            ev.bind(iv, value)
            first.append([ev.view(a.src).element([ev.value(i) for i in a.src_indices])
                          for a in scan.copies])
        for a, s0, s1 in zip(scan.copies, *first):
            root = ev.view(a.src).root
            if root not in roots:
                continue
            delta = s1 - s0
            k = roots.index(root)
            row = ir.MemRefType(root.type).shape[1]
            if np.any(delta != delta[0]) or delta[0] <= 0 or \
                    (delta[0] >= row and delta[0] % row):
                raise IRError(a.op, f"{describe(a.op)}: the element it copies from "
                                    f"{NAMES[k]} moves by {sorted(set(delta.tolist()))[:4]} "
                                    f"from one K step to the next: neither along a row of "
                                    f"{NAMES[k]} nor by whole rows")
            dim = 1 if delta[0] < row else 0
            if out.setdefault(k, (dim, a.op))[0] != dim:
                raise IRError(a.op, f"{describe(a.op)} walks {NAMES[k]} along another "
                                    f"dimension than {describe(out[k][1])}")
    if set(out) != {0, 1}:
        missing = NAMES[({0, 1} - set(out)).pop()]
        raise IRError(loops[0], f"'scf.for' op: the K-loop copies nothing of {missing}")
    return [out[0][0], out[1][0]]


def _grid(f) -> tuple[int, ...] | None:
    """Workgroups along x (, y, z) the kernel needs, or None when a workgroup id it reads
    has no bound."""
    bounds: dict[int, int | None] = {}
    for o in _walk(f, lambda o: o.name == "scf.forall" and "mapping" in o.attributes and
                   "workgroup_mapping" in str(o.attributes["mapping"])):
        ubs = list(ir.DenseI64ArrayAttr(o.attributes["staticUpperBound"]))
        for m, ub in zip(ir.ArrayAttr(o.attributes["mapping"]), ubs):
            mm = re.search(r"workgroup_mapping<([xyz])>", str(m))
            if mm is None or ub < 0:
                return None
            bounds[_DIMS.index(mm.group(1))] = ub
    for o in _walk(f, lambda o: o.name in ("hal.interface.workgroup.id", "gpu.block_id")):
        d = _dim(o)
        ub = _int_attr(o, "upper_bound")
        if d not in bounds or bounds[d] is None:
            bounds[d] = ub
        elif ub is not None:
            bounds[d] = min(bounds[d], ub)
    if "known_grid_size" in f.attributes:
        for d, n in enumerate(ir.DenseI32ArrayAttr(f.attributes["known_grid_size"])):
            bounds[d] = n
    if any(v is None for v in bounds.values()):
        return None
    if not bounds:
        return (1,)
    return tuple(bounds.get(d, 1) for d in range(max(bounds) + 1))
