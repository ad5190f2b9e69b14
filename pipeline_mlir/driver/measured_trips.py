"""Cycles of a kernel's main loop whose inner loops run per-lane trip counts: the counts
measured on the emulator for one launch, then the timing model.

IREE's own build of a dispatch may hold loops in its K-loop that step per-lane counters
and end when the exec mask empties (its element-copy loops with K known only at launch):
the assembly states no trip count for them, and the timing model refuses them by name
(:mod:`pipeline_mlir.sim.inner_loops`).  :func:`measure_trips` runs the kernel's assembly on
the emulator for the launch its dispatch describes at the sizes given (the push constants
solved from the dispatch, as ``--emulate`` does), one workgroup, and counts each wave's
trips (:mod:`pipeline_mlir.emu.trips`); :func:`simulate_measured` times the main loop with
those counts, each wave with its own, stated counts kept where the assembly has them.

A K-loop too short to compare by its loop (LLVM unrolled the pipelined part; what is left
is at most a remainder) is compared whole: :func:`whole_kernel` runs the first workgroup
on the emulator and :func:`timed_whole` times each wave's every executed instruction, in
order, on the CU model.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from pipeline_mlir.errors import PipelineError

#: instructions of the workgroup ``--sim-trips`` runs at most (the first iterations of a
#: long main loop are enough: the counts of the most iterations are kept)
MEASURE_LIMIT = 1_000_000


class DescribedDispatch(NamedTuple):
    """A dispatch launched as its launch description, as ``--emulate`` launches one with an
    epilogue, a batch or a bf16/f16 C (:mod:`pipeline_mlir.driver.dispatch_launch`)."""

    dispatch: object        # the :class:`~pipeline_mlir.frontend.dispatch.MatmulDispatch`
    where: str              # the dispatch's file, as messages name it


class FirstWorkgroup(NamedTuple):
    """What the emulator needs to run the first workgroup of one launch of a kernel."""

    kernel: object          # the emulator's kernel (its code object's instructions)
    glob: object            # the launch's global memory
    kernarg_at: int         # the kernel arguments' address
    waves: int              # waves a workgroup
    dims: tuple             # the launch's dimensions
    first: tuple            # the first workgroup's id


def dispatch_launch(dispatch_text: str, sizes: tuple[int, int, int],
                    where: str = "<dispatch>"):
    """(the launch of the dispatch ``dispatch_text`` (any form the front end reads, in an
    older IREE's syntax too: its bindings, push constants and grid) at ``sizes`` = (M, N,
    K), its grid) as ``--emulate`` launches it: the :class:`~pipeline_mlir.emu.iree.Matmul`
    of a plain dispatch, else a :class:`DescribedDispatch`; a :class:`PipelineError`
    (located in the dispatch where the front end says) for a dispatch it cannot read, or
    whose sizes compiled in are not ``sizes``."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.driver.diagnostics import Failure
    from pipeline_mlir.driver.emulate import dispatch_matmul, read_dispatch
    from pipeline_mlir.frontend.legacy_syntax import upgrade

    from pipeline_mlir.driver.inputs import check_before_parse

    try:                # (what would crash MLIR's parser or verifier)
        check_before_parse(dispatch_text, where)
    except Failure as e:
        raise PipelineError("; ".join(_located(x, where) for x in e.diags)) from None
    with new_context() as ctx:
        try:  # an older IREE's syntax read as the compiler reads it (ConfigError at its line)
            module = ir.Module.parse(upgrade(dispatch_text, where), ctx)
        except ir.MLIRError as e:
            raise PipelineError(f"{where}: the dispatch does not parse: {e}") from None
        try:
            d, layout = read_dispatch(module, where, sizes)
        except Failure as e:
            raise PipelineError("; ".join(_located(x, where) for x in e.diags)) from None
    if layout is not None:
        raise PipelineError(_located(layout, where))
    if tuple(sizes) != (d.M, d.N, d.K):
        raise PipelineError(f"{where}: M = {sizes[0]}, N = {sizes[1]}, K = {sizes[2]} "
                            f"disagree with the sizes compiled into kernel {d.kernel}: "
                            f"M={d.M} N={d.N} K={d.K} (its bindings {d.describe()})")
    return (dispatch_matmul(d) if d.plain else DescribedDispatch(d, where)), d.grid


def _located(diag, where: str) -> str:
    """``diag`` (a driver diagnostic of the dispatch) as one line naming its place; the
    ``--emulate:`` its reader puts first dropped (this is not ``--emulate``)."""
    at = f"{diag.file or where}:{diag.line}:{diag.col}" if diag.line else where
    return f"{at}: {diag.message.removeprefix('--emulate: ')}"


def measure_trips(asm_text: str, code: bytes | str, problem, grid=None,
                  limit: int | None = None):
    """The :class:`~pipeline_mlir.emu.trips.MeasuredTrips` of the kernel of ``asm_text``
    (``code``: its code object, which the emulator runs, or the same text) run on
    ``problem`` (a :class:`~pipeline_mlir.emu.iree.Matmul`, or a :class:`DescribedDispatch`;
    ``grid``: the launch's, for a kernel that reads the grid's size), its first workgroup (``limit``: up to that many
    instructions of its waves)."""
    from pipeline_mlir.emu.trips import measured_trips

    fn, runs, emulated = _first_workgroup_runs(asm_text, code, problem, grid, limit)
    return measured_trips(fn, runs, emulated)


def _first_workgroup_runs(asm_text: str, code: bytes | str, problem, grid=None,
                          limit: int | None = None) -> tuple:
    """(the function of ``asm_text``, each wave's stretches the emulator ran, the code
    object's instructions) of the first workgroup of ``code`` launched on ``problem``
    (:func:`measure_trips`' arguments)."""
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.trips import record_runs
    from pipeline_mlir.isa.asm import parse_asm

    kernel = load_kernel(code)
    if isinstance(problem, DescribedDispatch):
        at = _described(kernel, problem)
    else:
        from pipeline_mlir.emu.iree import Launch, first_workgroup

        launch = Launch(kernel, problem, "eager", 0, 0)
        launch.set_grid(grid)
        at = FirstWorkgroup(kernel, launch.glob, launch.kernarg_at, launch.waves,
                            launch.dims, first_workgroup(kernel))
    runs = record_runs(at.kernel, at.glob, at.first, at.waves, at.kernarg_at, at.dims,
                       limit=limit)
    return parse_asm(asm_text).function(at.kernel.name), runs, at.kernel.instrs


def _described(kernel, launch: DescribedDispatch) -> FirstWorkgroup:
    """The first workgroup of ``kernel`` launched as the dispatch of ``launch`` says; a :class:`PipelineError` at the dispatch where that launch does not
    fit the kernel."""
    from pipeline_mlir.driver.dispatch_launch import dispatch_spec
    from pipeline_mlir.emu.described import prepare
    from pipeline_mlir.emu.errors import EmuError
    from pipeline_mlir.emu.gemm import spread_ids

    try:
        spec = dispatch_spec(launch.dispatch, kernel, launch.where)
    except EmuError as e:
        raise PipelineError(f"{launch.where}: {e}") from None
    ready = prepare(kernel, spec)       # (its LaunchFileError names the dispatch)
    first = spread_ids(spec.grid[:spec.grid_dims], 1)[0]
    return FirstWorkgroup(ready.kernel, ready.mem.glob, ready.mem.kernarg_at, ready.waves,
                          ready.dims, first)


def simulate_measured(asm_text: str, filename: str, waves: int, stagger: bool, trips,
                      tables=("llvm", "measured")):
    """The :class:`~pipeline_mlir.sim.report.SimulationReport` of the main loop of
    ``asm_text`` timed with the measured ``trips`` (one body per wave)."""
    from pipeline_mlir.sim.report import simulate_assembly

    return simulate_assembly(asm_text, filename, waves, stagger, tables, trips.waves)


class WholeKernel:
    """The cycles of one workgroup's whole run (prologue, every loop and iteration it
    executed, epilogue) on the CU model, per cost table, and what it executed."""

    def __init__(self, cycles: dict, kinds: tuple) -> None:
        self.cycles = cycles            #: {table: cycles of the workgroup, first to last wave}
        self.kinds = kinds              #: per wave: {instruction kind: times it executed one}
        self.executed = tuple(sum(k.values()) for k in kinds)   #: per wave: instructions
        self.mfmas = tuple(k["mfma"] for k in kinds)            #: per wave: MFMAs

    def describe(self) -> str:
        """One line: what was timed."""
        counts = sorted(set(self.executed))
        return (f"the whole kernel, its first workgroup of {len(self.executed)} waves as the "
                f"emulator ran it: {'/'.join(map(str, counts))} instructions and "
                f"{'/'.join(map(str, sorted(set(self.mfmas))))} MFMAs a wave")


def whole_kernel(asm_text: str, code: bytes | str, problem, grid=None,
                 tables=("llvm", "measured")) -> WholeKernel:
    """The first workgroup of the kernel of ``asm_text`` (``code``: its code object) run on
    ``problem`` by the emulator, then timed whole (:func:`timed_whole`): a kernel whose
    K-loop LLVM unrolled, or whose only loop left is a short remainder, is compared so."""
    return timed_whole(*_first_workgroup_runs(asm_text, code, problem, grid), tables)


def timed_whole(fn, runs: list, emulated: list, tables=("llvm", "measured")) -> WholeKernel:
    """Each wave's instructions of ``fn`` in the order it executed them (``runs``: its
    stretches, :func:`~pipeline_mlir.emu.trips.record_runs`, of the code object's
    instructions ``emulated``), timed together on the CU model, wave ``w`` on SIMD
    ``w % simds`` (as :func:`~pipeline_mlir.sim.timing.wave_streams` puts a loop's)."""
    from pipeline_mlir.emu.trips import aligned_runs, executed_stream
    from pipeline_mlir.sim.cu_model import CUOptions, simulate_cu
    from pipeline_mlir.sim.timing import from_asm

    streams = [from_asm(executed_stream(fn, s)) for s in aligned_runs(fn, runs, emulated)]
    simds = CUOptions().simds
    waves = [(w % simds, s) for w, s in enumerate(streams)]
    cycles = {t: simulate_cu(waves, t).total for t in tables}
    return WholeKernel(cycles, tuple(Counter(i.kind for i in s) for s in streams))
