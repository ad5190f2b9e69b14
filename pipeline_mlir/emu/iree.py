"""Matmul kernels with their sizes compiled in (IREE's) on the emulator: their launch
contract, and a run of their grid, or of workgroups spread over it, against numpy.

**The contract** is read from the kernel's metadata (``.args``, from the code object or the
assembly's ``.amdgpu_metadata``), never from a name (:func:`launch_contract`):

* ``gemm``: the project's own GEMM kernels (:mod:`pipeline_mlir.kernel.launch`: three
  rank-1 memref descriptors, then M, N, K); run by :mod:`pipeline_mlir.emu.gemm`.
* ``hal``: IREE's ROCm HAL (a kernel ``iree-compile`` finished): one global pointer per
  binding, in binding order, 8 bytes each (gfx950 kernels may preload the first
  arguments into SGPRs; the kernel descriptor says how many dwords).  Push constants
  (``i32`` arguments after the bindings, in either contract) are those of the launch
  (:attr:`Matmul.constants`: sizes known only at launch,
  :mod:`pipeline_mlir.frontend.launch_sizes`); a kernel whose last arguments are not as
  many 4-byte values is refused.
* ``memref``: a kernel ``pipeline-opt`` compiled from IREE's dispatch
  (``sched-gpu-kernel``): each binding a memref descriptor as LLVM lowers a memref argument
  (allocated pointer, aligned pointer, offset, then the sizes and the strides: ``3 + 2 *
  rank`` fields of 8 bytes; the first two ``global_buffer``).

**The problem** (:class:`Matmul`): bindings A (``M x K``), B (``N x K`` for ``A x B^T``,
``K x N`` for ``A x B``), C (``M x N`` f32; i32 for i8 A and B, compared exactly as
integers), row-major.  IREE compiles the sizes into the
kernel; the caller states them (an MLIR dispatch says them, a code object does not).  A
kernel that builds buffer descriptors states the bytes of each binding in them: a
descriptor of a whole binding whose size differs from the problem's is a
:class:`SizeMismatch` naming both (the kernel's sizes too when all three bindings say
them).

**The grid**: given (an MLIR dispatch says it: ``scf.forall`` bounds, workgroup-id upper
bounds), or found by running workgroup 0 first: the rectangle of C it writes is the tile,
and the grid has ``(M/BM) * (N/BN)`` workgroups, in x (linearised) or, for a kernel that
reads the y workgroup id too, ``N/BN`` in x and ``M/BM`` in y (IREE's workgroup mapping:
x walks the innermost dimension, N).  With the grid given, workgroup 0 runs in the first
lockstep batch of the run (the tile is the elements its stores wrote: their marks name it),
its stores left out of the verdict when it is not one of the run's workgroups.  A run
covers the whole grid, or ``count`` workgroups spread over it; every element of their
tiles must be stored to and equal the reference, and nothing outside them stored to
(:mod:`pipeline_mlir.emu.coverage`: the stores, not the poison, say what was written).  A
2-D grid may cut its last row or column of tiles at the edge of C (IREE's unaligned
sizes): the tile is workgroup (0, 0)'s, the others cut to C.  Each run workgroup's stores
must be in its own tile (:func:`~pipeline_mlir.emu.coverage.check_owners`, an error naming
it).  A run of a dispatch's workgroups is given their tiles, read from the dispatch
(:mod:`pipeline_mlir.driver.dispatch_tiles`): nothing is learnt from workgroup 0.
"""

from __future__ import annotations

import math
import struct
import time
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.emu.errors import EmuError, Finding
from pipeline_mlir.emu.coverage import (Coverage, check_c, check_owners, footprint,
                                        stored_elements, stores_of)
from pipeline_mlir.emu.gemm import (c_values, check_in_grid, run_summary, run_workgroups,
                                    spread_ids)
from pipeline_mlir.emu.iree_data import problem_data
from pipeline_mlir.emu.launchdims import LaunchDims, workgroup_id
from pipeline_mlir.emu.machine import GlobalMemory
from pipeline_mlir.emu.mfma import FP8_FORMATS, fp8_operand_formats
from pipeline_mlir.kernel.launch import kernarg_layout
from pipeline_mlir.kernel.reference import wrap_i32
from pipeline_mlir.target.gfx950 import MFMAS, WAVE_SIZE

#: element types the reference encodes, by the MFMA that multiplies them (the dtype's own, and
#: the 32x32 ones of bf16 and f16: the reference is C = A x B^T whatever the MFMA's shape)
MFMA_DTYPES = {i.mnemonic: i.operands for i in MFMAS
               if i.operands in ("bf16", "f16", "i8", "f32") and not i.scaled}
ELEMENT_BYTES = {"f32": 4, "bf16": 2, "f16": 2, "fp8": 1, "fp8e5m2": 1, "i8": 1}
#: C's element type by A and B's (the accumulator): f32 unless listed
C_DTYPES = {"i8": "i32"}
#: the FP8 formats of an MFMA (both operands in one) -> their element type names
FP8_DTYPES = {"E4M3": "fp8", "E5M2": "fp8e5m2"}
_SAME_FP8 = frozenset((c, c) for c, (name, _t) in FP8_FORMATS.items() if name in FP8_DTYPES)
BINDINGS = ("A", "B", "C")
CONTRACTS = {"hal": "IREE's HAL bindings", "memref": "memref descriptors"}


class SizeMismatch(EmuError):
    """The problem's sizes are not the ones compiled into the kernel."""


@dataclass(frozen=True)
class Matmul:
    """C (``M x N``, f32; i32 for i8) = A (``M x K``) x B^T (B ``N x K``), or A x B (B
    ``K x N``)."""
    M: int
    N: int
    K: int
    dtype: str
    transpose_b: bool = True
    #: push constants (``i32`` arguments after the bindings: sizes known only at launch)
    constants: tuple[int, ...] = ()

    @property
    def c_dtype(self) -> str:
        return C_DTYPES.get(self.dtype, "f32")

    def shapes(self) -> list[tuple[int, int]]:
        return [(self.M, self.K), (self.N, self.K) if self.transpose_b else (self.K, self.N),
                (self.M, self.N)]

    def binding_bytes(self) -> list[int]:
        e = ELEMENT_BYTES[self.dtype]
        return [self.M * self.K * e, self.N * self.K * e, self.M * self.N * 4]

    def describe(self) -> str:
        return f"M={self.M} N={self.N} K={self.K}"


@dataclass
class MatmulRun:
    kernel: str
    contract: str              # 'hal' or 'memref'
    M: int
    N: int
    K: int
    transpose_b: bool
    mode: str
    workgroups: int            # workgroups run
    grid: int                  # workgroups of the whole grid
    waves: int
    written: int               # elements of C the workgroups stored to
    expected: int              # elements they are responsible for (their tiles)
    max_error: float
    first_bad: tuple[int, int] | None
    got: float | None          # C and the reference at first_bad
    want: float | None
    instructions: int
    seconds: float
    coverage: Coverage = None  # the verdict on C (:mod:`pipeline_mlir.emu.coverage`)
    ids: list = None           # the workgroups run (ids x, y[, z], or linear indices)

    @property
    def exact(self) -> bool:
        return self.coverage.sound

    def summary(self) -> str:
        layout = "N x K" if self.transpose_b else "K x N"
        return run_summary(self, self.kernel, f"; {CONTRACTS[self.contract]}, B {layout}")


def launch_contract(kernel) -> str:
    """``gemm``, ``hal`` or ``memref``: the launch the kernel's arguments ask for (module
    docstring); an :class:`EmuError` saying what they are otherwise."""
    args = _args(kernel)
    if [(a.get(".offset"), a.get(".size")) for a in args] == \
            [(off, size) for _name, off, size in kernarg_layout()] and \
            [a.get(".value_kind") for a in args[:2]] == ["global_buffer"] * 2:
        return "gemm"
    kinds = [a.get(".value_kind") for a in args]
    if kinds and all(k == "global_buffer" for k in kinds):
        return "hal"
    if memref_groups(args) is not None:
        return "memref"
    raise EmuError(f"kernel {kernel.name}: its {len(args)} kernel arguments "
                   f"({_describe_args(args)}) are none of the launches the emulator knows: "
                   f"the GEMM kernels' (kernel/launch.py), IREE's HAL bindings (one pointer "
                   f"per binding) or memref descriptors")


def kernel_arguments(kernel, bases: list[int], shapes: list[tuple[int, ...]],
                     constants: tuple[int, ...] = ()) -> tuple[str, bytes]:
    """(contract, the kernarg bytes) for bindings at ``bases`` with row-major ``shapes``,
    then push ``constants`` (``i32`` each), laid out as the kernel's metadata asks."""
    args = _args(kernel)
    size = max((a[".offset"] + a[".size"] for a in args), default=0)
    out = bytearray(size)
    # the hidden arguments (the grid's size: set_grid) follow the explicit ones
    args = kernel.explicit_args()
    if constants:
        args, words = args[:len(args) - len(constants)], args[len(args) - len(constants):]
        if len(words) != len(constants) or any(
                (a.get(".value_kind"), a.get(".size")) != ("by_value", 4) for a in words):
            raise EmuError(f"kernel {kernel.name}: its last kernel arguments "
                           f"({_describe_args(words)}) are not the launch's "
                           f"{len(constants)} push constants (4-byte values)")
        for arg, word in zip(words, constants):
            struct.pack_into("<I", out, arg[".offset"], word)

    def put(arg, value: int) -> None:
        if arg[".size"] != 8:
            raise EmuError(f"kernel {kernel.name}: argument at offset {arg['.offset']} has "
                           f"{arg['.size']} bytes where the launch passes 8")
        struct.pack_into("<Q", out, arg[".offset"], value & (1 << 64) - 1)

    kinds = [a.get(".value_kind") for a in args]
    if kinds == ["global_buffer"] * len(bases):
        for arg, base in zip(args, bases):
            put(arg, base)
        return "hal", bytes(out)
    groups = memref_groups(args)
    lone = [g[0] for g in groups or () if len(g) == 1]   # unused bindings: IREE's pointer
    groups = [g for g in groups or () if len(g) > 1] or None
    if groups is not None and len(groups) == len(shapes):
        # a binding viewed flattened (IREE's collapse_shape folded): a rank-1 descriptor
        shapes = [(int(np.prod(s)),) if len(g) == 5 and len(s) > 1 else s
                  for g, s in zip(groups, shapes)]
    if groups is not None and [len(g) for g in groups] == [3 + 2 * len(s) for s in shapes]:
        for group, base, shape in zip(groups, bases, shapes):
            strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
            for arg, value in zip(group, [base, base, 0, *shape, *strides]):
                put(arg, value)
        for arg in lone:                # never read: a null pointer
            put(arg, 0)
        return "memref", bytes(out)
    raise EmuError(f"kernel {kernel.name}: its {len(args)} kernel arguments "
                   f"({_describe_args(args)}) are neither IREE's HAL bindings ({len(bases)} "
                   f"pointers) nor memref descriptors of the bindings "
                   f"{', '.join('x'.join(map(str, s)) for s in shapes)}")


def _args(kernel) -> list:
    if kernel.meta is None:
        raise EmuError(f"kernel {kernel.name}: no metadata (.amdgpu_metadata) says what its "
                       f"kernel arguments are")
    return list(kernel.meta.get(".args", []))


def _describe_args(args) -> str:
    return ", ".join(f"{a.get('.value_kind')} {a.get('.size')}" for a in args) or "none"


def memref_groups(args) -> list[list] | None:
    """The arguments split into memref descriptors (each: two ``global_buffer`` pointers, then
    an odd number of 8-byte values: offset, sizes, strides) and lone pointers (a group of
    one: a binding the kernel does not use, ``sched-gpu-kernel``), or None."""
    groups, k = [], 0
    while k < len(args):
        kinds = [a.get(".value_kind") for a in args[k:k + 3]]
        if kinds[:1] == ["global_buffer"] and kinds[1:] != ["global_buffer", "by_value"]:
            groups.append(args[k:k + 1])
            k += 1
            continue
        if kinds[:2] != ["global_buffer"] * 2:
            return None
        j = k + 2
        while j < len(args) and args[j].get(".value_kind") == "by_value":
            j += 1
        if (j - k - 3) % 2 or j - k < 5:
            return None
        groups.append(args[k:j])
        k = j
    return groups or None


def matmul_dtype(kernel) -> str:
    """The element type of A and B, from the kernel's MFMAs (all of them must agree)."""
    kinds = set()
    for ins in kernel.instrs:
        if not ins.name.startswith("v_mfma"):
            continue
        if ins.name in MFMA_DTYPES:
            kinds.add(MFMA_DTYPES[ins.name])
        elif (fmt := fp8_operand_formats(ins)) in _SAME_FP8:
            kinds.add(FP8_DTYPES[FP8_FORMATS[fmt[0]][0]])
        else:
            raise EmuError(f"kernel {kernel.name}: 0x{ins.addr:04x} '{ins.text}' multiplies "
                           f"elements the emulator's reference does not encode (it runs i8, "
                           f"f32, bf16, f16, FP8 E4M3 and FP8 E5M2 matmuls with 16x16 and 32x32 "
                           f"MFMAs)")
    if not kinds:
        raise EmuError(f"kernel {kernel.name} has no MFMA: not a matmul the emulator can check")
    if len(kinds) > 1:
        raise EmuError(f"kernel {kernel.name} multiplies {' and '.join(sorted(kinds))}: one "
                       f"element type for A and B expected")
    return kinds.pop()


def waves_of(kernel) -> int:
    """Waves per workgroup (metadata ``.reqd_workgroup_size``, or the maximum flat size)."""
    meta = kernel.meta or {}
    size = meta.get(".reqd_workgroup_size")
    threads = int(np.prod(size)) if size else meta.get(".max_flat_workgroup_size")
    if not threads or threads % WAVE_SIZE:
        raise EmuError(f"kernel {kernel.name}: its metadata gives no workgroup size of whole "
                       f"waves ({threads!r})")
    return threads // WAVE_SIZE


class Launch:
    """Global memory and kernel arguments of one problem; runs workgroups on them.

    :func:`emulate_matmul` learns the tile from workgroup 0; a caller that knows more (a grid
    smaller than the tiles, whose workgroups each run several) calls :meth:`set_grid`,
    :meth:`run` of its workgroups, then :meth:`check` of the rectangles of C."""

    def __init__(self, kernel, problem: Matmul, mode: str, seed: int, data_seed: int,
                 strict: bool = False, jobs: int = 1) -> None:
        self.kernel, self.problem, self.mode, self.seed, self.jobs = (
            kernel, problem, mode, seed, jobs)
        p = problem
        self.A, self.Bt, A_bytes, B_bytes = problem_data(p.M, p.N, p.K, p.dtype, p.transpose_b,
                                                  data_seed)
        self.glob = GlobalMemory()
        self.glob.strict = strict
        self.kernarg_at = self.glob.add("kernargs", bytes(4096))
        self.bases = [self.glob.add("A", A_bytes), self.glob.add("B", B_bytes),
                      self.glob.add_poisoned("C", p.M * p.N * 4)]
        self.glob.track("C")
        self.contract, kernargs = kernel_arguments(kernel, self.bases, p.shapes(),
                                                   p.constants)
        if kernel.launch.kernarg_bytes and len(kernargs) > kernel.launch.kernarg_bytes:
            raise EmuError(f"kernel {kernel.name}: its descriptor declares "
                           f"{kernel.launch.kernarg_bytes} bytes of arguments, the metadata "
                           f"{len(kernargs)}")
        self.glob.buffers[0][:len(kernargs)] = np.frombuffer(kernargs, dtype=np.uint8)
        self.waves = waves_of(kernel)
        size = (kernel.meta or {}).get(".reqd_workgroup_size")
        # the work-item ids of the workgroup the metadata requires (1-3 D)
        self.dims = LaunchDims(tuple(size)) if size else None
        self.instructions, self.seconds = 0, 0.0
        self._problem = (p.M, p.N, p.K, p.dtype, p.transpose_b, data_seed, p.c_dtype)
        self._stored = None                   # stored() since the last run or forget

    def set_grid(self, grid: tuple[int, ...] | None) -> None:
        """Write the hidden arguments that give the grid's size (IREE's linearised
        workgroup loops read the workgroup count) and the workgroup's size; a kernel that
        reads the grid's size needs the grid given."""
        size = (self.kernel.meta or {}).get(".reqd_workgroup_size") or (1, 1, 1)
        for a in (self.kernel.meta or {}).get(".args", []):
            kind = str(a.get(".value_kind", ""))
            if not kind.startswith(("hidden_block_count_", "hidden_group_size_")):
                continue
            d = "xyz".index(kind[-1])
            if kind.startswith("hidden_block_count_") and grid is None:
                raise EmuError(f"kernel {self.kernel.name}: it reads the grid's size "
                               f"({kind}): the launch must give the grid")
            v = ((tuple(grid) + (1, 1))[d] if kind.startswith("hidden_block") else size[d])
            self.glob.buffers[0][a[".offset"]:a[".offset"] + a[".size"]] = np.frombuffer(
                int(v).to_bytes(a[".size"], "little"), dtype=np.uint8)

    def run(self, workgroups: list, progress=None) -> None:
        """Run ``workgroups`` (ids) on the memory, as many as ``jobs`` at once."""
        start = time.perf_counter()
        self._stored = None
        try:
            n, _ = run_workgroups(self.kernel, self.glob, workgroups, self.waves, self.mode,
                                  self.seed, self.kernarg_at, progress=progress,
                                  dims=self.dims, jobs=self.jobs)
        except Finding:
            self.check_sizes()          # the finding may follow from sizes it does not have
            raise
        self.instructions += n
        self.seconds += time.perf_counter() - start
        self.check_sizes()

    def forget(self) -> None:
        """C poisoned again, nothing stored or counted."""
        self.glob.fill_poison("C")
        self.glob.track("C")
        self._stored = None
        self.instructions, self.seconds = 0, 0.0

    def reference(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The reference's block of ``rows`` and ``cols`` (:func:`_reference_block`)."""
        return _reference_block(self._problem, self.A, self.Bt, rows, cols)

    def stored(self) -> np.ndarray:
        """The elements of C some store of the run wrote (bool, M x N, read only)."""
        if self._stored is None:
            self._stored = stored_elements(self.glob.marks_of("C"),
                                           (self.problem.M, self.problem.N),
                                           self.glob.stamped_pages("C"))
            self._stored.flags.writeable = False
        return self._stored

    def check(self, tiles: list | None) -> Coverage:
        """The verdict on C for the footprint ``tiles`` (rectangles, or the bool mask of C;
        None: the elements stored to, when no tile is known yet)."""
        stored = self.stored()
        cover = stored if tiles is None else tiles if isinstance(tiles, np.ndarray) else \
            footprint(stored.shape, tiles)
        return check_c(self.C(), stored, cover, self.reference,
                       lambda raw: c_values(raw, self.problem.c_dtype))

    def C(self) -> np.ndarray:
        return self.glob.buffer("C").view(np.uint32).reshape(self.problem.M, self.problem.N)

    def check_sizes(self) -> None:
        """A :class:`SizeMismatch` when a buffer descriptor of a whole binding spans other
        bytes than the problem gives the binding."""
        p = self.problem
        spans = {}
        for base, num in self.glob.descriptors:
            if base in self.bases:
                spans.setdefault(self.bases.index(base), set()).add(num)
        wrong = [(i, n) for i, ns in sorted(spans.items()) for n in sorted(ns)
                 if n != p.binding_bytes()[i]]
        if not wrong:
            return
        i, n = wrong[0]
        theirs = _sizes_of({i: max(ns) for i, ns in spans.items()}, p.dtype)
        shape = "x".join(map(str, p.shapes()[i]))
        raise SizeMismatch(
            f"kernel {self.kernel.name} has other sizes compiled in than {p.describe()}: its "
            f"buffer descriptor of {BINDINGS[i]} spans {n} bytes, {p.describe()} make "
            f"{BINDINGS[i]} {shape} {p.c_dtype if i == 2 else p.dtype}, {p.binding_bytes()[i]} "
            f"bytes" + (f" (the kernel's sizes: {theirs.describe()})" if theirs else ""))


_BLOCKS: dict = {}        # the last reference blocks by problem, rows and columns


def _reference_block(problem: tuple, A: np.ndarray, Bt: np.ndarray, rows: np.ndarray,
                     cols: np.ndarray) -> np.ndarray:
    """The block of ``problem``'s reference (its last item C's type; A and Bt its inputs),
    the last 8 kept for the process: every memory mode of a problem checks the same tiles."""
    key = (problem, rows.dtype.str, rows.tobytes(), cols.dtype.str, cols.tobytes())
    block = _BLOCKS.pop(key, None)
    if block is None:
        # integer products and sums below 2^24: exact in float32; i8: int64, wrapped to i32
        block = wrap_i32(A[rows] @ Bt[cols].T) if problem[-1] == "i32" else \
            A[rows].astype(np.float32) @ Bt[cols].astype(np.float32).T
        block.flags.writeable = False
    _BLOCKS[key] = block                  # the most recent last
    while len(_BLOCKS) > 8:
        del _BLOCKS[next(iter(_BLOCKS))]
    return block


def _sizes_of(spans: dict, dtype: str) -> Matmul | None:
    """The sizes the spans of all three bindings imply (A x B^T), or None."""
    if set(spans) != {0, 1, 2}:
        return None
    e = ELEMENT_BYTES[dtype]
    mk, nk, mn = spans[0] / e, spans[1] / e, spans[2] / 4
    m = math.isqrt(int(mk * mn / nk)) if nk else 0
    if not m or mk % m or mn % m:
        return None
    found = Matmul(m, int(mn // m), int(mk // m), dtype)
    return found if found.binding_bytes() == [spans[0], spans[1], spans[2]] else None


def emulate_matmul(kernel, problem: Matmul, grid: tuple[int, ...] | None = None,
                   count: int | None = None, mode: str = "eager", seed: int = 0,
                   data_seed: int = 0, workgroups: list | None = None,
                   progress=None, strict: bool = False, jobs: int = 1,
                   tiles: np.ndarray | None = None) -> MatmulRun:
    """Run IREE's matmul kernel ``kernel`` (bindings A, B, C: :class:`Matmul`) on random small
    integers: its whole ``grid`` (workgroups along x, y, z; None: found by running workgroup
    0, see the module docstring), ``count`` workgroups spread over it, or the given
    ``workgroups`` (ids).  Raises :class:`~pipeline_mlir.emu.errors.Finding` on the first
    thing the kernel does wrong, :class:`SizeMismatch` when its buffer descriptors span other
    sizes; a wrong result is reported in the returned run (``exact`` False).
    ``progress(done, total)`` is called as workgroups finish; ``strict``: buffer accesses past
    a descriptor's records are findings; ``jobs``: processes to spread the workgroups over
    (same result); ``tiles``: the bool mask of C the run of ``count`` workgroups of ``grid``
    is responsible for (read from the dispatch: no workgroup is run to learn it)."""
    check_in_grid(kernel.name, workgroups, grid)
    launch, p = Launch(kernel, problem, mode, seed, data_seed, strict, jobs), problem
    launch.set_grid(grid)
    known = grid is not None    # (workgroup 0 named as the grid names it: (0, 0), not 0)
    if tiles is not None and known:
        workgroups = spread_ids(grid, count) if workgroups is None else workgroups
        launch.run(list(workgroups), progress)
        return _result(launch, workgroups, int(np.prod(grid)), tiles)
    first = [workgroup_id(0, grid) if known else first_workgroup(kernel)]
    if not known:                       # the grid learnt from workgroup 0's tile
        launch.run(first)
        if launch.check(None).first_bad is not None:   # wrong already: no tile to learn from
            return _result(launch, first, 0, None)
        grid = _grid_from_tile(kernel, p, launch.stored())
        check_in_grid(kernel.name, workgroups, grid)
    total = int(np.prod(grid))
    # a 1-D grid of tiles cut at both edges (IREE's linearised loop over ceildiv(M, BM) x
    # ceildiv(N, BN)) need not divide C: the tile of workgroup 0 is checked against it
    if len(grid) == 1 and total > p.M * p.N:
        raise EmuError(f"kernel {kernel.name}: a grid of {total} workgroups "
                       f"({' x '.join(map(str, grid))}) does not split the {p.M} x {p.N} C "
                       f"into equal tiles")
    workgroups = spread_ids(grid, count) if workgroups is None else workgroups
    rest = [w for w in workgroups if w not in first]
    if not known:
        probe = launch.stored()
        if first[0] not in workgroups:
            launch.forget()             # the run is of other workgroups than the probe
        launch.run(rest, progress)
    else:                               # the probe in the run's first lockstep batch
        launch.run(first + rest, progress)
        everything = launch.stored()
        launch._stored = probe = stores_of(launch.glob, "C", (p.M, p.N), everything, first[0])
        if launch.check(None).first_bad is not None:   # wrong already: no tile to learn
            return _result(launch, first, 0, None)
        # the probe's stores are the run's only when it is one of its workgroups
        launch._stored = everything if first[0] in workgroups else everything & ~probe
    bm, bn = _edge_tile(kernel, p, probe, grid)
    cols = -(-p.N // bn)
    at = [divmod(w, cols)[::-1] if isinstance(w, int) else w[:2] for w in workgroups]
    tiles = [(y * bm, x * bn, bm, bn) for x, y in at]
    check_owners(launch.glob, "C", (p.M, p.N), workgroups, tiles, kernel.name)
    return _result(launch, workgroups, total, tiles)


def _edge_tile(kernel, p: Matmul, written: np.ndarray,
               grid: tuple[int, ...]) -> tuple[int, int]:
    """(BM, BN): the rectangle workgroup 0 stored to (``written``), the first of the tiles
    that cover C in ``grid`` (N tiles in x and M tiles in y; or their product, in x, N the
    faster); the last row or column of tiles may be cut by the edge of C (IREE's 1000 x
    1000 in tiles of 128 x 256)."""
    rows, cols = np.flatnonzero(written.any(axis=1)), np.flatnonzero(written.any(axis=0))
    bm = int(rows[-1] - rows[0] + 1) if len(rows) else 0
    bn = int(cols[-1] - cols[0] + 1) if len(cols) else 0
    tiles = (-(-p.N // bn), -(-p.M // bm)) if bm else (0, 0)
    if not bm or written.sum() != bm * bn or rows[0] or cols[0] or \
            (tuple(grid[:2]) != tiles if len(grid) > 1 else grid[0] != tiles[0] * tiles[1]):
        raise EmuError(f"kernel {kernel.name}: workgroup 0 wrote {int(written.sum())} elements "
                       f"of C, not the first of tiles that cover the {p.M} x {p.N} C in a grid "
                       f"of {' x '.join(map(str, grid))}")
    return bm, bn


def matmul_c(kernel, problem: Matmul, workgroups: list, mode: str = "eager", seed: int = 0,
             data_seed: int = 0, grid: tuple[int, ...] | None = None) -> np.ndarray:
    """C's raw 32-bit words as int64, :data:`UNSTORED` where no store wrote (whatever the
    element holds: a missing store is seen even where the other build stores the poison's
    value), after ``workgroups`` of ``kernel`` ran on the inputs :func:`emulate_matmul`
    gives (same ``data_seed``: same A and B), whatever C they compute: two builds of one
    dispatch compare by it (``grid``: the whole grid, as :func:`emulate_matmul` takes it).
    Raises :class:`~pipeline_mlir.emu.errors.Finding` on the first thing it does wrong."""
    check_in_grid(kernel.name, workgroups, grid)
    launch = Launch(kernel, problem, mode, seed, data_seed)
    launch.set_grid(grid)
    launch.run(list(workgroups))
    return np.where(launch.stored(), launch.C(), np.int64(UNSTORED))   # int64, one pass


UNSTORED = -1  #: :func:`matmul_c`'s value of an element no store wrote (no 32-bit word has it)


def first_workgroup(kernel):
    """Workgroup 0 as the emulator names it for ``kernel``: ``(0, 0)`` when it reads a y or z
    workgroup id, else ``0``."""
    return (0, 0) if kernel.launch.workgroup_id[1] or kernel.launch.workgroup_id[2] else 0


def _grid_from_tile(kernel, p: Matmul, written: np.ndarray) -> tuple[int, ...]:
    """The grid of a kernel whose workgroup 0 stored to the tile ``written`` (module
    docstring)."""
    rows, cols = np.flatnonzero(written.any(axis=1)), np.flatnonzero(written.any(axis=0))
    where = f"kernel {kernel.name}: the grid is found from the tile of C workgroup 0 writes"
    if not len(rows):
        raise EmuError(f"{where}, and it wrote nothing")
    bm, bn = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    if written.sum() != bm * bn or p.M % bm or p.N % bn:
        raise EmuError(f"{where}, and it wrote {int(written.sum())} elements in rows "
                       f"{rows[0]}..{rows[-1]}, columns {cols[0]}..{cols[-1]}: not one tile "
                       f"of a grid over the {p.M} x {p.N} C")
    if kernel.launch.workgroup_id[2]:
        raise EmuError(f"{where}; it reads the z workgroup id too, and the grid's third "
                       f"dimension is unknown")
    if kernel.launch.workgroup_id[1]:
        return (p.N // bn, p.M // bm)
    return (p.M // bm * (p.N // bn),)


def _result(launch: Launch, workgroups: list, total: int, tiles: list | None) -> MatmulRun:
    """The run of ``workgroups`` of a grid of ``total`` (0: not known), responsible for the
    ``tiles`` of C (None: not known, the run is wrong already)."""
    p = launch.problem
    raw = launch.C()
    cov = launch.check(tiles)
    bad = cov.first_bad
    got = want = None
    if bad is not None:
        i, j = bad
        got = float(c_values(raw[i, j:j + 1], p.c_dtype)[0])
        want = float(launch.reference(np.array([bad[0]]), np.array([bad[1]]))[0, 0])
    return MatmulRun(launch.kernel.name, launch.contract, p.M, p.N, p.K, p.transpose_b,
                     launch.mode, len(workgroups), total, launch.waves, cov.stored,
                     cov.compared, cov.max_error, bad, got, want, launch.instructions,
                     launch.seconds, cov, list(workgroups))
