"""What launching a matmul dispatch takes, read from its MLIR (for ``--emulate FILE.mlir``).

A dispatch (IREE's ``func.func`` with ``hal.interface.binding.subspan`` bindings, or a
``gpu.func`` / ``func.func`` kernel with memref arguments) compiles its sizes in.
:func:`matmul_dispatch` reads:

* the bindings, in binding (argument) order, static row-major memrefs of global memory:
  the output C is the one binding the kernel writes (``M x N``, f32, bf16 or f16, i32 for i8 A and B; with no
  write in the kernel, the last of three); A (``M x K``, or ``K x M`` for ``A^T x B``) and B
  (``N x K`` or ``K x N``) are
  the first two others, of one element type (bf16, f16, f8E4M3FN, f8E5M2 or i8; the two
  8-bit float formats may mix, E5M2 x E4M3FN: launched as a description, each binding
  encoded in its own); a batch matmul gives
  A, B and C the same leading batch dimension (3-D).  The other bindings are inputs of the
  epilogue (a bias);
* what the kernel stores to C (:mod:`pipeline_mlir.frontend.epilogue`), as the expression
  a launch description checks (:attr:`MatmulDispatch.expect`, e.g. ``relu(A @ B.T +
  bias)``, ``C + A @ B.T`` when the kernel reads C first and accumulates into it);
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

from dataclasses import dataclass, replace

import numpy as np

from pipeline_mlir.dialect.attrs import pipeline_layout
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, as_operation, walk_ops as _walk
from pipeline_mlir.analysis.ir_facts import checked_int_attr, dense_row_major
from pipeline_mlir.analysis.loop_eval import memory_space, segments, workgroup_grid
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.frontend.elements import ELEMENTS, SCHEDULE_DTYPES
from pipeline_mlir.frontend.epilogue import (binding_reads, expression, follows, reads_of,
                                              tie_reads, trace_output, writes_to)
from pipeline_mlir.frontend.kernel_ir import describe, kernel_of
from pipeline_mlir.frontend.thread_loops import is_thread_loop
from pipeline_mlir.frontend.guarded_read import Launch, Ties
from pipeline_mlir.frontend.launch_sizes import at_launch, dynamic_dims
from pipeline_mlir.frontend.select_read import check_transfer_masks
from pipeline_mlir.frontend.scan import (COPY_LOADS, GLOBAL_SPACES, Access, find_natural_loops,
                                        evaluator_of, loop_evaluator, scan_loop)

NAMES = ("A", "B", "C")
#: the element types of C the emulator's reference writes for float A and B
OUTPUTS = ("f32", "bf16", "f16", "f8E4M3FN", "f8E5M2")
#: C's element type for integer A and B (the MFMAs' accumulator)
C_ELEMENTS = {"i8": "i32"}
#: the 8-bit float formats, which A and B may mix (gfx950's f8f6f4 MFMAs say each one's
#: format; the emulator runs them, each binding encoded in its own)
SCHEDULE_FP8 = frozenset(et for et, dt in SCHEDULE_DTYPES.items() if dt == "fp8")


@dataclass(frozen=True)
class Binding:
    name: str                  # A, B, C, or an epilogue input's name (bias, X<binding>)
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
    batch: tuple[int, ...] = ()        # the batch dimensions of A, B and C (batch matmul)
    out_dtype: str = "f32"             # C's element type
    #: what C must hold after the run, over the bindings' starting contents
    #: (:mod:`pipeline_mlir.emu.expect`; ``C`` in it: the kernel reads C first)
    expect: str = "A @ B.T"
    #: A is K x M (``A^T x B``: the K-loop walks A's rows); C = A.T @ ...
    transpose_a: bool = False
    #: the push constants of the launch (``i32`` words in ordinal order): sizes of bindings
    #: known only at launch (:mod:`pipeline_mlir.frontend.launch_sizes`)
    constants: tuple[int, ...] = ()
    #: the binding slots of the pipeline layout no subspan uses (kernel argument positions
    #: among the bindings: IREE's ABI passes a pointer there, ``sched-gpu-kernel``)
    unused: tuple[int, ...] = ()

    @property
    def plain(self) -> bool:
        """C (2-D, of the MFMAs' accumulator type: f32, i32 for i8) = A x B^T or A x B,
        bindings A, B, C: the launch :func:`pipeline_mlir.emu.iree.emulate_matmul` runs."""
        acc = "i32" if self.dtype == "i8" else "f32"
        mixed = self.bindings[0].element != self.bindings[1].element   # E5M2 x E4M3FN
        return (not self.transpose_a and not self.batch and self.out_dtype == acc and
                not mixed and
                len(self.bindings) == 3 and
                [b.name for b in self.bindings] == list(NAMES) and
                self.expect == ("A @ B.T" if self.transpose_b is not False else "A @ B"))

    def describe(self) -> str:
        return ", ".join(f"{b.name} {_shape(b.shape)}x{b.element}" for b in self.bindings)


def _shape(shape) -> str:
    """``4096x4096``, ``?x4096`` for a size known only at launch (None)."""
    return "x".join("?" if d is None else str(d) for d in shape)


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
        subspans.sort(key=lambda o: (checked_int_attr(o, "set", 0),
                                      checked_int_attr(o, "binding", 0)))
        return [(o.results[0], o.results[0].type, str(o.location)) for o in subspans]
    entry = f.regions[0].blocks[0]
    return [(a, a.type, str(f.location)) for a in entry.arguments
            if isinstance(a.type, ir.MemRefType) and memory_space(a.type) != "workgroup"]


def matmul_dispatch(module, sizes: tuple[int, int, int] | None = None) -> MatmulDispatch:
    """The matmul dispatch of ``module`` (module docstring); ``sizes`` (M, N, K): those
    of the launch, which bindings sized at launch take (:func:`at_launch`)."""
    f, name = _the_kernel(module)
    found = _bindings(f)
    if len(found) < 3 and _walk(f, lambda o: o.name == "stream.binding.subspan"):
        raise IRError(f, f"'{f.name}' op '{name}' takes stream bindings (IREE Wave's kernel): "
                         f"its launch is not read from the IR; describe it with "
                         f"--emulate-launch=FILE (examples/launch/wave_gemm_f16.toml)")
    if len(found) < 3:
        raise IRError(f, f"'{f.name}' op '{name}' has {len(found)} bindings; a matmul dispatch "
                         f"has at least three: A, B and C (and the inputs of its epilogue)")
    out = _output(f, found)
    order = [i for i in range(len(found)) if i != out]
    names = _names(found, order[:2], out, order[2:])
    bindings = [_binding(v, t, where, names[i], f) for i, (v, t, where) in enumerate(found)]
    A, B, C = bindings[order[0]], bindings[order[1]], bindings[out]
    roots = [found[order[0]][0], found[order[1]][0]]
    batch = _check_types(f, A, B, C, [found[i][0] for i in (order[0], order[1], out)])
    M2, N = C.shape[-2:]
    layout_problem = None
    try:
        k_dims = _k_dims(f, roots)
    except IRError as e:
        k_dims, layout_problem = None, e
    # the K-loop walking A's rows: A is K x M (A^T x B)
    transpose_a = k_dims is not None and not k_dims[0]
    K, M = A.shape[-2:] if transpose_a else A.shape[-2:][::-1]
    Bs = B.shape[-2:]
    if k_dims is not None:
        transpose_b = k_dims[1]
    elif Bs[0] != Bs[1]:
        transpose_b = Bs[1] == K and Bs[0] != K
    else:
        transpose_b = None
        if layout_problem is None:
            layout_problem = IRError(f, f"'{f.name}' op '{name}' has no K-loop copying A and B "
                                        f"(an scf.for of amdgpu.mfma ops), and a square B "
                                        f"does not say it by its shape")
    BN, BK = (Bs if transpose_b in (True, None) else Bs[::-1])
    if M2 != M or BK != K or BN != N:
        raise IRError(f, f"'{f.name}' op '{name}': the bindings {_shape(A.shape)}, "
                         f"{_shape(B.shape)}, {_shape(C.shape)} are not "
                         f"A ({'K x M' if transpose_a else 'M x K'}), B ("
                         f"{'N x K' if transpose_b is not False else 'K x N'}) and C (M x N) of "
                         f"one matmul" + (f" (the layout read off the K-loop's copies: "
                                          f"{layout_problem})" if layout_problem else ""))
    product = ("A.T" if transpose_a else "A") + (" @ B" if transpose_b is False else " @ B.T")
    d = MatmulDispatch(name, M, N, K, ELEMENTS[A.element], transpose_b, workgroup_grid(f),
                       tuple(bindings), layout_problem if transpose_b is None else None,
                       batch, C.element, product, transpose_a, unused=_unused_slots(f))
    d = at_launch(f, d, [v for v, _t, _w in found], sizes)
    # a kernel sized at launch: its epilogue's reads tied to C over the grid launched
    ties = Ties(Launch(d.constants, d.grid, d.bindings[out].shape)
                if any(dynamic_dims(v) for v, _t, _w in found) else None)
    expect, _ = _epilogue(f, found, bindings, out, order, product, (M, N), ties)
    return replace(d, expect=expect)


def _unused_slots(f) -> tuple[int, ...]:
    """The binding slots of kernel ``f``'s ``#hal.pipeline.layout`` no subspan uses."""
    subspans = _walk(f, lambda o: o.name == "hal.interface.binding.subspan")
    counts = next((pipeline_layout(o.attributes["layout"], o) for o in subspans
                   if "layout" in o.attributes), None)
    used = {checked_int_attr(o, "binding", 0) for o in subspans}
    return tuple(i for i in range(counts[1] if counts else 0) if i not in used)


def _the_kernel(module):
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
    return f, ir.StringAttr(f.attributes["sym_name"]).value


def _output(f, found) -> int:
    """The binding the kernel writes (C); the last of three when it writes none."""
    written = [i for i, (v, _t, _w) in enumerate(found) if writes_to(f, v)]
    if len(written) > 1:
        first = writes_to(f, found[written[1]][0])[0]
        raise IRError(first, f"{describe(first)} writes binding #{written[1]} while the "
                             f"kernel writes binding #{written[0]} too: a matmul dispatch "
                             f"writes one output")
    if written:
        return written[0]
    if len(found) != 3:
        raise IRError(f, f"'{f.name}' op: no op writes any of its {len(found)} bindings, so "
                         f"none of them is the output C")
    return 2


def _names(found, ab: list[int], out: int, extra: list[int]) -> list[str]:
    names = [""] * len(found)
    names[ab[0]], names[ab[1]], names[out] = NAMES
    for i in extra:
        names[i] = "bias" if len(extra) == 1 and ir.MemRefType(found[i][1]).rank == 1 \
            else f"X{i}"
    return names


def _binding(v, t, where: str, name: str, f) -> Binding:
    mt = ir.MemRefType(t)
    if not 1 <= mt.rank <= 3:
        raise IRError(_owner(v, f), f"binding {name} ({t}) is not a memref of 1 to 3 "
                                    f"dimensions: a matmul's bindings are")
    shape = tuple(None if ir.ShapedType.is_dynamic_size(d) else d for d in mt.shape)
    if not dense_row_major(mt, launch_sizes=True):    # sized at launch: its identity layout
        raise IRError(_owner(v, f), f"binding {name} ({t}) is not row-major and "
                                    f"contiguous")
    return Binding(name, shape, str(mt.element_type), where)


def _check_types(f, A: Binding, B: Binding, C: Binding, values: list) -> tuple[int, ...]:
    """The batch dimensions of A, B and C, once their ranks and element types are checked."""
    for b, v in zip((A, B, C), values):
        if len(b.shape) not in (2, 3) or len(b.shape) != len(C.shape):
            raise IRError(_owner(v, f), f"binding {b.name} ({_shape(b.shape)}x"
                                        f"{b.element}) is not a 2-D matrix or a 3-D batch of "
                                        f"them like C ({_shape(C.shape)})")
    if A.shape[:-2] != B.shape[:-2] or A.shape[:-2] != C.shape[:-2]:
        raise IRError(f, f"'{f.name}' op: the batch dimensions of A, B and C "
                         f"({A.shape[:-2]}, {B.shape[:-2]}, {C.shape[:-2]}) differ")
    if A.element not in ELEMENTS or B.element != A.element and not (
            A.element in SCHEDULE_FP8 and B.element in SCHEDULE_FP8):
        raise IRError(_owner(values[0], f),
                      f"A and B are {A.element} and {B.element}: the emulator's reference "
                      f"runs A and B of one element type, {', '.join(ELEMENTS)}, or the two "
                      f"8-bit float formats mixed")
    acc = C_ELEMENTS.get(A.element)
    if acc is not None and C.element != acc:
        raise IRError(_owner(values[2], f), f"C is {C.element}: the emulator's reference "
                                            f"accumulates {A.element} A and B in {acc}")
    if acc is None and C.element not in OUTPUTS:
        raise IRError(_owner(values[2], f), f"C is {C.element}: the emulator's reference "
                                            f"writes C as {', '.join(OUTPUTS)}")
    return tuple(C.shape[:-2])


def _epilogue(f, found, bindings: list, out: int, order: list, product: str, mn,
              ties: Ties):
    """(the expression C must equal, the bindings with the shapes it uses them with;
    ``product``: the matmul's, e.g. ``A @ B.T``; ``ties``: what the ties of the kernel's
    reads to C share (:class:`~pipeline_mlir.frontend.guarded_read.Ties`: the launch of a
    kernel sized at launch, C's tiles))."""
    loops = [lp for lp in find_natural_loops(f) if kernel_of(lp) == f]
    if len(loops) == 1 and not writes_to(f, found[out][0]):
        raise IRError(f, f"'{f.name}' op: nothing the epilogue reader reads (vector and "
                         f"memref stores, scatters, memref copies) writes the output binding "
                         f"{bindings[out].name}, so what C must hold is not known")
    if len(loops) != 1:
        if len(found) != 3:
            raise IRError(f, f"'{f.name}' op: {len(loops)} K-loops; the epilogue that uses "
                             f"binding {bindings[order[2]].name} is read from the one K-loop")
        return product, bindings
    values = [v for v, _t, _w in found]
    tree, writers = trace_output(f, loops[0], values, out)
    reads = [binding_reads(f, loops[0], v) for v in values]     # all, not the tree's
    # C's tiles, evaluated once (in ties) for every read tied to them
    rows = frozenset(i for i in order[2:] if len(bindings[i].shape) == 1 and reads_of(tree, i)
                     and follows(f, tree, i, bindings[i], writers[0], mn, ties,
                                 reads[i]) == "row")
    for i in [out] + order[2:]:     # C and inputs of its shape: tied element by element
        if bindings[i].shape == bindings[out].shape:
            tie_reads(f, reads[i], writers[0], "element", ties)
        check_transfer_masks(f, reads[i], ties.of(f))
    return expression(tree, [b.name for b in bindings], out, order[:2], product,
                      bindings[out].element, rows), bindings


def _owner(v, f):
    o = v.owner
    return f if isinstance(o, ir.Block) else as_operation(o)


def _k_dims(f, roots: list) -> list[int] | None:
    """Whether the K-loop advances each of ``roots`` (A, B) along its contiguous dimension
    (else by whole rows), from the first element the loop's copies read in two consecutive
    iterations; None without a K-loop."""
    loops = [lp for lp in find_natural_loops(f) if kernel_of(lp) == f]
    if not loops:
        return None
    out: dict = {}
    for loop in loops:
        ev, iv, lb, step, copies = _global_reads(loop)
        first = []
        for value in (lb, lb + step):
            ev.bind(iv, value)
            first.append([ev.view(a.src).element([ev.value(i) for i in a.src_indices])
                          for a in copies])
        for a, s0, s1 in zip(copies, *first):
            root = ev.view(a.src).root
            if root not in roots:
                continue
            delta = _k_step_move(s1 - s0)
            k = roots.index(root)
            strides = ev.view(root).strides      # a row known at launch: the sample's
            row = strides[-2] if len(strides) > 1 else ir.MemRefType(root.type).shape[-1]
            if np.any(delta != delta[0]) or delta[0] <= 0 or \
                    (delta[0] >= row and delta[0] % row):
                raise IRError(a.op, f"{describe(a.op)}: the element it copies from "
                                    f"{NAMES[k]} moves by {sorted(set(delta.tolist()))[:4]} "
                                    f"from one K step to the next: neither along a row of "
                                    f"{NAMES[k]} nor by whole rows")
            dim = bool(delta[0] < row)      # K is the contiguous dimension
            if out.setdefault(k, (dim, a.op))[0] != dim:
                raise IRError(a.op, f"{describe(a.op)} walks {NAMES[k]} along another "
                                    f"dimension than {describe(out[k][1])}")
    if set(out) != {0, 1}:
        missing = NAMES[({0, 1} - set(out)).pop()]
        raise IRError(loops[0], f"'scf.for' op: the K-loop copies nothing of {missing}")
    return [out[0][0], out[1][0]]


def _k_step_move(delta: np.ndarray) -> np.ndarray:
    """Each lane's move of its copy's first element from one K step to the next, made the
    farthest lane's where the lanes differ only by moving less: the second of the steps
    compared may be the masked last K tile (a loop of 2 K steps), whose rows or columns
    past K are clamped (``min``: IREE's i8 ``A^T x B`` 287x512x481), and a clamped lane
    moves less than the K step (the first K tile lies inside K: no lane is clamped there);
    a lane moving back is left for the caller to refuse."""
    far = delta.max(initial=0)
    if far > 0 and np.all(delta >= 0):
        return np.full_like(delta, far)
    return delta


def _global_reads(loop):
    """(the loop's per-lane evaluator, induction variable, lower bound and step, and its
    copies: the scan's, or where the scan refuses the loop, every global read of its body
    as an :class:`~pipeline_mlir.frontend.scan.Access`: a register copy whose value passes
    through an ``arith.select`` of a masked K tail or a private buffer on its way to LDS
    still reads where it reads)."""
    try:
        scan = scan_loop(loop)
    except IRError:
        scan = None
    if scan is not None:
        return (*loop_evaluator(scan), scan.copies)
    ev, iv, lb, step = evaluator_of(loop, block_size(kernel_of(loop)))
    copies, body = [], list(map(as_operation, loop.regions[0].blocks[0].operations))
    for o in list(body):      # a per-thread copy loop (thread_loops.py): its body's, at
        if o.name == "scf.for" and is_thread_loop(o):     # the thread's first trip
            ev.bind(o.regions[0].blocks[0].arguments[0], ev.value(o.operands[0]))
            body += [as_operation(x) for x in o.regions[0].blocks[0].operations]
    for o in body:            # a guarded load (scf.if of a masked K tail): its branches'
        if o.name == "scf.if":  # (and those of the ifs in them: a guarded load in a guard)
            body += [as_operation(x) for r in o.regions for b in r.blocks
                     for x in b.operations]
    for o in body:
        if o.name == "amdgpu.gather_to_lds":
            copies.append(Access(o, None, [], 0, o.operands[0], list(segments(o)[1])))
        elif o.name in COPY_LOADS + ("vector.maskedload",) and memory_space(o.operands[0].type) in GLOBAL_SPACES:
            idx = segments(o)[1] if o.name == "vector.transfer_read" else \
                o.operands[1:-2] if o.name == "vector.maskedload" else o.operands[1:]
            copies.append(Access(o, None, [], 0, o.operands[0], list(idx)))
    return ev, iv, lb, step, copies
