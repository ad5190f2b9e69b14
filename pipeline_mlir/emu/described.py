"""Run a kernel as its launch description says (:mod:`pipeline_mlir.emu.launchfile`) and
check its outputs.

:func:`emulate_described` puts every buffer in global memory as the description starts it,
packs the kernel arguments in kernarg order, fills the hidden arguments the kernel's
metadata lists (code object v5: block counts, group sizes, grid dimensions, dynamic LDS
size; the others 0), sets up the dispatch packet and the queue when the kernel descriptor
asks for their pointers, launches the grid (or ``count`` workgroups spread over it) with
the 1-3-D workgroups the description gives, and compares each checked output with its
expression (:mod:`pipeline_mlir.emu.expect`): equal, element for element.

How a buffer is passed (``pass``):

* ``pointer``: its 64-bit address (IREE's HAL bindings, Triton, HIP);
* ``memref``: a memref descriptor as LLVM lowers a memref argument: allocated and aligned
  pointer, offset 0, the sizes, the row-major strides (``3 + 2 * rank`` 8-byte fields);
  ``memref-flat`` the same of the buffer as one dimension (the project's GEMM kernels);
  ``memref-0d`` the descriptor of a rank-0 memref (allocated and aligned pointer, offset
  0: IREE Wave's kernels, which view it with ``memref.reinterpret_cast``);
* ``resource``: a 128-bit buffer resource: base address, stride 0, ``num_records``
  (``records``, default the buffer's bytes), the raw-buffer word ``0x27000`` that LLVM
  writes for gfx950.

Which elements a run wrote is known from its stores (the emulator marks each halfword a store
writes), never from the values: with the whole grid run, every element of a checked output
must have been stored to and equal its check (an element no store wrote is "not
written", even when its starting bytes equal the check); with ``count`` workgroups, the
elements they stored to are compared (a description states no tiles, so elements those
workgroups should have written but did not are not seen there), unless the caller gives
the run's ``footprint`` (an IREE dispatch's tiles, read from its IR:
:mod:`pipeline_mlir.driver.dispatch_tiles`): then every element of it must be stored to
and none outside it (:mod:`pipeline_mlir.emu.coverage`).
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from pipeline_mlir.emu.coverage import stored_elements
from pipeline_mlir.emu.expect import cast, decode, encoded, evaluate_at, item_bytes
from pipeline_mlir.emu.gemm import check_in_grid, ids_run, run_workgroups, spread_ids
from pipeline_mlir.emu.launchfile import LaunchFileError, LaunchSpec
from pipeline_mlir.emu.launchdims import LaunchDims
from pipeline_mlir.emu.machine import GlobalMemory
from pipeline_mlir.target.gfx950 import LDS_BYTES, wave_count, waves_of_threads

#: the raw-buffer word 3 of a gfx950 buffer resource (LLVM's, and the project's kernels')
RESOURCE_WORD3 = 0x27000
_PACK = {"i32": "<i", "u32": "<I", "i64": "<q", "u64": "<Q", "f32": "<f"}
#: the AQL kernel dispatch packet (hsa_kernel_dispatch_packet_t): 64 bytes
DISPATCH_PACKET_BYTES = 64
#: bytes of zeros the queue pointer points at (the kernel finds an empty queue)
QUEUE_BYTES = 256


@dataclass
class OutputResult:
    name: str
    compared: int              # elements compared
    first_bad: tuple | None    # index of the first wrong element
    got: float | None
    want: float | None
    max_error: float
    values: object = None      # the output as the run left it (numpy array)
    unwritten: int = 0         # elements compared that no store wrote
    first_unwritten: tuple | None = None
    outside: int = 0           # elements outside the run's tiles stored to (footprint given)
    first_outside: tuple | None = None


@dataclass
class DescribedRun:
    kernel: str
    path: str
    mode: str
    workgroups: int
    grid: int
    waves: int
    instructions: int
    seconds: float
    outputs: list
    #: each checked output's bytes after the run (two builds of one launch compare by them)
    raw: dict = field(default_factory=dict, repr=False)
    #: each checked output's bytes some store wrote (bool per byte)
    stored: dict = field(default_factory=dict, repr=False)
    #: the workgroups run (ids x, y[, z], or linear indices)
    ids: list = field(default_factory=list)

    @property
    def exact(self) -> bool:
        return all(o.first_bad is None and o.compared and not o.unwritten and not o.outside
                   for o in self.outputs)

    def summary(self) -> str:
        verdict = "exact" if self.exact else "WRONG"
        of = f" of {self.grid}" if self.grid != self.workgroups else ""
        err = max((o.max_error for o in self.outputs), default=0.0)
        outs = ", ".join(f"{o.name} ({o.compared} elements)" for o in self.outputs)
        return (f"{self.kernel} as {self.path} says, mode={self.mode}: {verdict}, max error "
                f"{err:g} in {outs}, {self.workgroups}{of} workgroups x "
                f"{wave_count(self.waves)}, "
                f"{self.instructions} instructions in {self.seconds:.2f} s"
                f"{ids_run(self.ids, self.grid)}")

    def problem(self) -> str | None:
        """What is wrong, or None."""
        for o in self.outputs:
            if o.first_bad is not None:
                idx = "".join(f"[{i}]" for i in o.first_bad)
                return (f"{o.name} differs from its check: {o.name}{idx} = {o.got:g}, "
                        f"expected {o.want:g} (max error {o.max_error:g})")
            if not o.compared:
                return f"the workgroups run wrote no element of {o.name}"
            if o.unwritten:
                idx = ", ".join(map(str, o.first_unwritten))
                return f"{o.name}: not written: {o.unwritten} elements, first at [{idx}]"
            if o.outside:
                idx = ", ".join(map(str, o.first_outside))
                return (f"{o.name}: written outside the workgroups' tiles: {o.outside} "
                        f"elements, first at [{idx}]")
        return None


def initial_values(spec: LaunchSpec) -> dict[str, np.ndarray]:
    """Each buffer's starting contents (float64; poison as NaN), drawn with the file's
    seed in argument order."""
    rng = np.random.default_rng(spec.seed)
    out: dict[str, np.ndarray] = {}
    for a in spec.args:
        if a.kind != "buffer" or a.init.how == "copy":
            continue
        how = a.init.how
        if how == "random":
            out[a.name] = rng.integers(a.init.low, a.init.high + 1, size=a.shape).astype(
                np.float64)
        else:
            fill = {"zeros": 0.0, "poison": np.nan, "value": a.init.value}[how]
            out[a.name] = np.full(a.shape, fill, dtype=np.float64)
    for a in spec.args:
        if a.kind == "buffer" and a.init.how == "copy":
            out[a.name] = out[a.init.source].copy()
    return out


class _Memory:
    """The global memory of one launch: the buffers, kernel arguments, dispatch packet."""

    def __init__(self, kernel, spec: LaunchSpec, values: dict) -> None:
        self.glob = glob = GlobalMemory()
        self.kernarg_at = glob.add("kernargs", bytes(max(4096, kernel.launch.kernarg_bytes)))
        self.bases = {}
        outputs = {spec.buffer(c.output).name for c in spec.checks}
        for a in spec.args:
            if a.kind != "buffer":
                continue
            # (an output of 1-byte elements marked per byte: globalrace.py)
            per_byte = a.name in outputs and item_bytes(a.dtype) == 1
            if a.init.how == "poison":
                self.bases[a.name] = glob.add_poisoned(a.name, a.count * item_bytes(a.dtype),
                                                       per_byte)
            else:
                self.bases[a.name] = glob.add(a.name, encoded(values[a.name], a.dtype),
                                              per_byte)
        self.dispatch_at = glob.add("dispatch packet", bytes(DISPATCH_PACKET_BYTES))
        self.queue_at = glob.add("queue", bytes(QUEUE_BYTES))


def _arg_fields(a, base: int | None) -> list[tuple[int, bytes]]:
    """(alignment, bytes) of each kernarg field of argument ``a`` (a memref: one per
    descriptor field, as the metadata lists them)."""
    if a.kind == "null":
        return [(8, bytes(8))]
    if a.kind == "scalar":
        v = int(a.value) if a.dtype[0] in "iu" else float(a.value)
        return [(item_bytes(a.dtype), struct.pack(_PACK[a.dtype], v))]
    if a.passing == "pointer":
        return [(8, struct.pack("<Q", base))]
    if a.passing == "resource":
        records = a.records if a.records is not None else a.count * item_bytes(a.dtype)
        return [(16, struct.pack("<IIII", base & 0xFFFFFFFF, (base >> 32) & 0xFFFF, records,
                                 RESOURCE_WORD3))]
    if a.passing == "memref-0d":
        return [(8, struct.pack("<q", v)) for v in (base, base, 0)]
    shape = a.shape if a.passing == "memref" else (a.count,)
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    return [(8, struct.pack("<q", v)) for v in (base, base, 0, *shape, *strides)]


def kernel_arguments(kernel, spec: LaunchSpec, mem: _Memory) -> bytes:
    """The kernarg segment: the described arguments (at the metadata's offsets when the
    kernel has metadata, checked field by field; else naturally aligned), then the hidden
    arguments the metadata lists."""
    fields = [(a, f) for a in spec.args for f in _arg_fields(a, mem.bases.get(a.name))]
    meta = list((kernel.meta or {}).get(".args", []))
    explicit = kernel.explicit_args()
    out = bytearray(max(kernel.launch.kernarg_bytes, 256))
    if kernel.meta is not None and len(explicit) != len(fields):
        raise LaunchFileError(
            spec.path, f"arg: the kernel {kernel.name} takes {len(explicit)} kernel argument "
            f"fields ({', '.join(str(m.get('.size')) for m in explicit)} bytes), the "
            f"description gives {len(fields)} "
            f"({', '.join(str(len(b)) for _a, (_al, b) in fields)} bytes; a memref is "
            f"3 + 2 x rank fields)")
    offset = 0
    for k, (a, (align, data)) in enumerate(fields):
        offset = (offset + align - 1) // align * align
        if kernel.meta is not None:
            m = explicit[k]
            if m.get(".size") != len(data):
                what = a.name or f"a {a.kind} argument"
                raise LaunchFileError(
                    a.where, f"arg {what!r}: the kernel's argument at offset "
                    f"{m.get('.offset')} has {m.get('.size')} bytes "
                    f"({m.get('.value_kind')}), the description passes {len(data)}")
            offset = m[".offset"]
        if offset + len(data) > len(out):
            out.extend(bytes(offset + len(data) - len(out)))
        out[offset:offset + len(data)] = data
        offset += len(data)
    _hidden(out, meta, spec, kernel)
    return bytes(out)


def _hidden(out: bytearray, meta: list, spec: LaunchSpec, kernel) -> None:
    """Fill the hidden arguments (AMDGPUUsage, code object v5 kernarg metadata) the launch
    determines; the others stay 0."""
    lds = kernel.launch.lds_bytes
    values = {"hidden_grid_dims": spec.grid_dims, "hidden_dynamic_lds_size": spec.dynamic_lds,
              "hidden_group_segment_fixed_size": lds}
    for d, axis in enumerate("xyz"):
        values[f"hidden_block_count_{axis}"] = spec.grid[d]
        values[f"hidden_group_size_{axis}"] = spec.block[d]
    for m in meta:
        v = values.get(str(m.get(".value_kind")))
        if v is not None:
            off, size = m[".offset"], m[".size"]
            out[off:off + size] = int(v).to_bytes(size, "little")


def _dispatch_packet(spec: LaunchSpec, kernarg_at: int, lds: int) -> bytes:
    """The AQL kernel dispatch packet of the launch (header 0: only the fields a kernel
    reads matter)."""
    bx, by, bz = spec.block
    gx, gy, gz = (g * b for g, b in zip(spec.grid, spec.block))
    return struct.pack("<HHHHHHIIIIIQQQQ", 0, spec.grid_dims, bx, by, bz, 0, gx, gy, gz, 0,
                       lds, 0, kernarg_at, 0, 0)


class PreparedLaunch(NamedTuple):
    """A launch described by a :class:`LaunchSpec`, set up in global memory and ready to
    run (:func:`prepare`)."""

    kernel: object          # the kernel (its LDS grown by the spec's dynamic LDS)
    mem: _Memory            # its global memory: buffers, kernel arguments, dispatch packet
    values: dict            # each buffer's starting contents (:func:`initial_values`)
    dims: LaunchDims        # the block and the grid
    waves: int              # waves per workgroup


def prepare(kernel, spec: LaunchSpec) -> PreparedLaunch:
    """``kernel`` launched as ``spec`` describes, in a new global memory: the buffers with
    their starting contents, the kernel arguments and the dispatch packet written; a
    :class:`~pipeline_mlir.emu.launchfile.LaunchFileError` where the spec does not fit the
    kernel."""
    check_kernel(kernel, spec)
    lds = kernel.launch.lds_bytes + spec.dynamic_lds
    if lds > LDS_BYTES:
        raise LaunchFileError(spec.at("dynamic_lds"),
                              f"dynamic_lds: the kernel's {kernel.launch.lds_bytes} bytes of "
                              f"LDS and {spec.dynamic_lds} more exceed the {LDS_BYTES} of a "
                              f"workgroup")
    if spec.dynamic_lds:
        kernel = replace(kernel, launch=replace(kernel.launch, lds_bytes=lds), _compiled={})
    values = initial_values(spec)
    mem = _Memory(kernel, spec, values)
    glob = mem.glob
    args = kernel_arguments(kernel, spec, mem)
    glob.buffer("kernargs")[:len(args)] = np.frombuffer(args, dtype=np.uint8)
    glob.buffer("dispatch packet")[:] = np.frombuffer(
        _dispatch_packet(spec, mem.kernarg_at, lds), dtype=np.uint8)
    dims = LaunchDims(spec.block, spec.grid, mem.dispatch_at, mem.queue_at)
    return PreparedLaunch(kernel, mem, values, dims, waves_of_threads(dims.threads))


def emulate_described(kernel, spec: LaunchSpec, mode: str = "eager", seed: int = 0,
                      count: int | None = None, strict: bool = False,
                      progress=None, footprint: dict | None = None,
                      workgroups: list | None = None) -> DescribedRun:
    """Run ``kernel`` as ``spec`` describes (module docstring).  Raises
    :class:`~pipeline_mlir.emu.errors.Finding` on the first thing the kernel does wrong;
    wrong outputs are reported in the returned run.  ``footprint``: per checked output,
    the bool mask of the elements the run of ``count`` workgroups is responsible for (an
    IREE dispatch's tiles): every one of them must be stored to, no other.
    ``workgroups``: the ids to run instead of ``count`` spread over the grid (each checked
    to be in it)."""
    launch = prepare(kernel, spec)
    kernel, mem, values, glob = launch.kernel, launch.mem, launch.values, launch.mem.glob
    for c in spec.checks:
        glob.track(spec.buffer(c.output).name)
    glob.strict = strict
    dims, waves = launch.dims, launch.waves
    grid = spec.grid[:spec.grid_dims]
    total = int(np.prod(grid))
    ids = spread_ids(grid, count) if workgroups is None else list(workgroups)
    if workgroups is not None:
        check_in_grid(kernel.name, ids, grid)
    start = time.perf_counter()
    n, _ = run_workgroups(kernel, glob, ids, waves, mode, seed, mem.kernarg_at,
                          progress=progress, dims=dims)
    seconds = time.perf_counter() - start
    outputs = [_compare(spec, c, values, mem, len(ids) == total,
                        (footprint or {}).get(c.output)) for c in spec.checks]
    raw = {c.output: mem.glob.buffer(spec.buffer(c.output).name).copy() for c in spec.checks}
    stored = {c.output: mem.glob.stored(spec.buffer(c.output).name) for c in spec.checks}
    return DescribedRun(kernel.name, spec.path, mode, len(ids), total, waves, n, seconds,
                        outputs, raw, stored, list(ids))


def _compare(spec: LaunchSpec, check, values: dict, mem: _Memory, whole: bool,
             tiles=None) -> OutputResult:
    a = spec.buffer(check.output)
    got = decode(mem.glob.buffer(a.name), a.dtype, a.shape)
    stored = _stored(mem.glob, a.name, a.shape, item_bytes(a.dtype))
    compared = np.ones(a.shape, dtype=bool) if whole else stored if tiles is None else tiles
    # only the elements stored to or checked are read (a run of a few workgroups: a few
    # tiles of a large C): what C must hold is computed and cast there, and compared there
    read = stored | compared
    at = np.flatnonzero(read)                   # row-major
    want = cast(evaluate_at(check.expect, values, read), a.dtype)
    g = got.reshape(-1)[at]
    st, cmp = stored.reshape(-1)[at], compared.reshape(-1)[at]
    with np.errstate(invalid="ignore"):
        same = (g == want) | (np.isnan(g) & np.isnan(want))
        bad = st & ~same
        diff = np.abs(g[bad] - want[bad])
    unwritten, outside = cmp & ~st, st & ~cmp
    first = got_v = want_v = None
    if bad.any():
        k = int(np.argmax(bad))
        first, got_v, want_v = _index(at[k], a.shape), float(g[k]), float(want[k])
    err = float(np.max(np.where(np.isnan(diff), np.inf, diff), initial=0.0))
    return OutputResult(a.name, int(cmp.sum()), first, got_v, want_v, err, got,
                        int(unwritten.sum()), _first(at, unwritten, a.shape),
                        int(outside.sum()), _first(at, outside, a.shape))


def _stored(glob: GlobalMemory, name: str, shape: tuple, size: int) -> np.ndarray:
    """Per element (of ``size`` bytes) of the tracked buffer ``name``, whether a store
    wrote any of its bytes: from the store marks (a halfword or a byte each) of the pages
    stores stamped when an element is whole marks, else from the bytes."""
    if size % (1 << glob.shift_of(name)) == 0:
        return stored_elements(glob.marks_of(name), shape, glob.stamped_pages(name))
    return stored_elements(glob.stored(name), shape)


def _index(flat: int, shape: tuple) -> tuple:
    return tuple(int(i) for i in np.unravel_index(int(flat), shape))


def _first(at: np.ndarray, mask: np.ndarray, shape: tuple) -> tuple | None:
    """The index in ``shape`` of the first element of ``at`` (row-major positions) that
    ``mask`` marks, or None."""
    return _index(at[int(np.argmax(mask))], shape) if mask.any() else None


def check_kernel(kernel, spec: LaunchSpec) -> None:
    """Refuse a description whose grid cannot be launched on ``kernel`` (its metadata's
    required workgroup size)."""
    meta = kernel.meta or {}
    need = meta.get(".reqd_workgroup_size")
    if need and tuple(need) + (1,) * (3 - len(need)) != spec.block:
        raise LaunchFileError(spec.at("block"), f"block: the kernel {kernel.name} requires "
                                         f"workgroups of {list(need)} work-items, the description gives "
                              f"{list(spec.block)}")
    most = meta.get(".max_flat_workgroup_size")
    threads = spec.block[0] * spec.block[1] * spec.block[2]
    if most and threads > most:
        raise LaunchFileError(spec.at("block"), f"block: {list(spec.block)} is {threads} "
                                         f"work-items; the kernel {kernel.name} takes at most {most}")
