"""How many times an emulated run went round the pipelined kernel's main loop.

An exactness test proves the schedule only if the run enters the steady-state loop: at a K
the prologue and the drain cover alone, the loop body never runs and the test proves the
prologue and the epilogue only.  :func:`counting_loops` measures it from the run itself:

* inside it every :class:`~pipeline_mlir.emu.machine.Machine` that runs in this process
  counts, per wave, the times the wave runs the main loop's header (its first instruction:
  the target of the back edge), i.e. the loop's iterations;
* the emulator's worker processes (``--emulate-jobs``) are not used inside it (their
  counts would not come back): every batch runs here, with the same result (:mod:`~pipeline_mlir.
  emu.pool`);
* :func:`main_back_edge` finds a kernel's main loop from its instructions as the assembly
  reader finds it (:mod:`pipeline_mlir.isa.natural_loops`, shared with
  ``AsmFunction.main_loop``): of the natural loops (a back edge: a branch to a block that
  dominates it, a short branch or LLVM's long branch alike), those that hold MFMAs and no
  other such loop, the one with the most MFMAs.  (A branch backwards in layout is no loop
  by itself: LLVM's out-of-line blocks that branch back to a join point inside the loop, as
  in IREE's padded kernels of K % 32 != 0, make spans of layout that are no loops.)
  A kernel with no such loop (LLVM removes a loop of no trip) made 0 iterations.

:meth:`LoopRecord.iterations` is, per run and wave, the main loop's iterations;
:func:`assert_steady` asserts every wave of every run made at least ``at_least`` (2 by
default: the back edge taken), and fails when no run was recorded at all (a test that
emulated nothing here proves nothing).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, field


def _is_mfma(ins) -> bool:
    return ins.name.startswith(("v_mfma", "v_smfmac"))


def main_back_edge(kernel) -> tuple[int, int]:
    """(index of the main loop's back-edge branch, index of its header) in
    ``kernel.instrs`` (module docstring); AssertionError when no loop holds an MFMA.

    The loops and the main one are the assembly reader's
    (:mod:`pipeline_mlir.isa.natural_loops`, which ``AsmFunction.main_loop`` calls too), on
    the code object's basic blocks (the emulator's path check's graph,
    :func:`~pipeline_mlir.emu.hazard_paths.basic_blocks`); the back edge returned is the
    main loop's last one in layout."""
    from pipeline_mlir.emu.hazard_paths import basic_blocks
    from pipeline_mlir.isa.natural_loops import main_loop, natural_loops

    instrs = kernel.instrs
    starts, succs = basic_blocks(instrs)
    ends = [*starts[1:], len(instrs)]
    mfmas = [sum(map(_is_mfma, instrs[starts[b]:ends[b]])) for b in range(len(starts))]
    loop = main_loop(natural_loops(succs), mfmas)
    assert loop is not None, f"kernel {kernel.name}: no loop holds an MFMA instruction"
    return ends[loop.latches[-1]] - 1, starts[loop.header]


@dataclass
class LoopRecord:
    """The main-loop iterations of the runs made inside :func:`counting_loops`."""

    #: per run: (kernel name, per wave the times it ran the main loop's header, or None
    #: when no loop of the kernel holds an MFMA)
    runs: list = field(default_factory=list)
    #: per run (in the order of ``runs``): per wave the MFMA instructions it executed
    mfmas: list = field(default_factory=list)

    def iterations(self) -> list[dict[int, int] | None]:
        """Per run, per wave: how many times it ran the main loop's header (the loop's
        iterations; None: the kernel has no such loop, as when LLVM removed a loop of no
        trip)."""
        return [None if heads is None else dict(heads) for _, heads in self.runs]

    def fewest(self) -> int:
        """The fewest iterations any wave of any run made (0 for a kernel without a main
        loop; AssertionError: no run)."""
        assert self.runs, "no emulator run was recorded in this process"
        return min(0 if heads is None else min(heads.values()) for _, heads in self.runs)


def most(record: LoopRecord) -> int:
    """The most iterations a run made, counting each run by its wave that made the fewest
    (an item that runs several sizes, one of them long: AssertionError when none ran)."""
    assert record.runs, "no emulator run was recorded in this process"
    return max(0 if heads is None else min(heads.values()) for _, heads in record.runs)


def assert_steady(record: LoopRecord, at_least: int = 2) -> int:
    """Assert every wave of every recorded run made at least ``at_least`` iterations of the
    main loop (2: its back edge taken); the fewest made."""
    fewest = record.fewest()
    assert fewest >= at_least, (
        f"some wave ran the pipelined main loop {fewest} time(s) (per run and wave, None: "
        f"the kernel has no loop holding an MFMA: {record.iterations()}); the run must make "
        f"at least {at_least} iterations of the steady loop: raise K")
    return fewest


def assert_short(record: LoopRecord, iterations: int, why: str,
                 split: tuple[int, int] | None = None) -> None:
    """An exactness item kept below the steady loop on purpose (its point is a short loop,
    or a property another item of its kernel proves at a K that goes round the loop: ``why``
    says which): assert every run made exactly ``iterations`` (< 2; a run's fewest over its
    waves, :func:`steady_iterations`, with the lowering's ``split`` where LLVM unrolled the
    loop), so that a size change shows (then the item asserts :func:`assert_steady`)."""
    assert iterations < 2, f"{iterations} iterations go round the loop: assert_steady"
    made = steady_iterations(record, split) if record.runs else set()
    assert made == {iterations}, (
        f"the runs made {sorted(made)} iteration(s) of the main loop, not the {iterations} "
        f"this short item keeps to ({why}): {record.iterations()}")


#: the MLIR ops of a lowered kernel that become one MFMA instruction each
_MFMA_OPS = ("amdgpu.mfma", "amdgpu.scaled_mfma", "rocdl.mfma.", "rocdl.smfmac.")


def _constant(value) -> int | None:
    """The integer an ``arith.constant`` gives ``value``, else None."""
    from pipeline_mlir.dialect.bindings import ir

    if not isinstance(value, ir.OpResult) or value.owner.name != "arith.constant":
        return None
    return ir.IntegerAttr(value.owner.attributes["value"]).value


def _trips(op) -> int | None:
    """An ``scf.for``'s trip count from constant bounds, else None."""
    lb, ub, step = (_constant(v) for v in list(op.operands)[:3])
    return None if None in (lb, ub, step) else max(0, -(-(ub - lb) // step))


def lowered_mfmas(text: str) -> tuple[int, int]:
    """(MFMAs one iteration of the steady loop holds, MFMAs a wave runs outside it) of a
    kernel as ``pipeline-opt --emit=mlir`` lowers it, before LLVM (which may unroll the loop).

    The steady loop is the ``scf.for`` not marked ``sched.remainder`` whose body (loops
    inside it excluded) holds the most MFMA ops; every other MFMA op runs once per iteration
    of the loops around it (their bounds must be constants: AssertionError otherwise; an
    op in an ``scf.if``, such as the loop's guard, counts as run)."""
    from pipeline_mlir.dialect.bindings import ir, new_context

    loops: list[tuple[int | None, bool, str]] = []     # (trips, remainder, where)
    found: list[tuple[int, ...]] = []                  # per MFMA op: its loops, outermost first

    def visit(op, path: tuple[int, ...]) -> None:
        if op.name == "scf.for":
            loops.append((_trips(op), "sched.remainder" in op.attributes, str(op.location)))
            path = path + (len(loops) - 1,)
        elif op.name.startswith(_MFMA_OPS):
            found.append(path)
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    visit(inner.operation, path)

    with new_context() as ctx:
        visit(ir.Module.parse(text, ctx).operation, ())
    direct = Counter(p[-1] for p in found if p and not loops[p[-1]][1])
    assert direct, "the lowered kernel has no scf.for holding an MFMA op"
    steady = max(direct, key=direct.get)
    outside = 0
    for path in found:
        if steady in path:
            assert path[-1] == steady, f"a loop inside the steady loop ({loops[path[-1]][2]})"
            continue
        runs = 1
        for k in path:
            trips, _, where = loops[k]
            assert trips is not None, (
                f"the loop at {where} has bounds known only at run time: its MFMAs' runs "
                "are not known from the lowering (the kernel keeps its loop: assert_steady)")
            runs *= trips
        outside += runs
    return direct[steady], outside


def lowered_split(src, pipeline: str, lowered: str | None = None) -> tuple[int, int]:
    """:func:`lowered_mfmas` of ``pipeline-opt --pipeline=PIPELINE SRC --emit=mlir`` (``src``
    a path, or the input's text; ``lowered``: that output when the caller has it), once per
    test run (the run's build cache, :mod:`build_cache`): without ``lowered``, the MLIR kept
    on the way by the build of the kernel's code object (``kernel_builds.hsaco_and_lowered``,
    which the exactness run that asks for the split builds too: one run of the passes)."""
    from pathlib import Path

    from build_cache import cached

    text = src.read_text() if isinstance(src, Path) else src

    def build() -> tuple[int, int]:
        from kernel_builds import hsaco_and_lowered

        return lowered_mfmas(lowered if lowered is not None else
                             hsaco_and_lowered(pipeline, text)[1])
    return cached("lowered-mfmas", (text, pipeline), build)


def unrolled_iterations(record: LoopRecord, split: tuple[int, int]) -> list[dict[int, int]]:
    """Per run, per wave: the steady loop's iterations it made, measured from the MFMAs it
    executed (``LoopRecord.mfmas``) less those outside the steady loop, over those of one
    iteration (``split``: :func:`lowered_mfmas` of the kernel's lowering), for a kernel
    whose loop LLVM unrolled (the loop counter sees none).  AssertionError: no run, or a
    wave's MFMAs that are not the lowering's outside ones plus whole iterations."""
    assert record.runs, "no emulator run was recorded in this process"
    per_iteration, outside = split
    out = []
    for (name, _), run in zip(record.runs, record.mfmas):
        waves = {}
        for wave, executed in run.items():
            steady, rest = divmod(executed - outside, per_iteration)
            assert steady >= 0 and rest == 0, (
                f"kernel {name}: wave {wave} executed {executed} MFMAs, not the {outside} "
                f"outside the steady loop plus whole iterations of {per_iteration}: the run "
                "is not the lowering's")
            waves[wave] = steady
        out.append(waves)
    return out


def steady_iterations(record: LoopRecord, split: tuple[int, int] | None = None) -> set[int]:
    """The fewest iterations of the steady loop each run made (a wave's fewest), as a set:
    counted at the main loop's back edge, or, for a run of a kernel with no loop holding an
    MFMA when the lowering's ``split`` is given, by :func:`unrolled_iterations`."""
    assert record.runs, "no emulator run was recorded in this process"
    made = set()
    for k, (name, heads) in enumerate(record.runs):
        if heads is not None:
            made.add(min(heads.values()))
        elif split is not None:
            one = LoopRecord([record.runs[k]], [record.mfmas[k]])
            made.add(min(unrolled_iterations(one, split)[0].values()))
        else:
            made.add(0)
    return made


def assert_steady_unrolled(record: LoopRecord, split: tuple[int, int],
                           at_least: int = 2) -> int:
    """:func:`assert_steady` for a kernel whose steady loop LLVM may have unrolled: every
    wave of every run made at least ``at_least`` iterations (:func:`steady_iterations`
    with the lowering's ``split``); the fewest made."""
    fewest = min(steady_iterations(record, split))
    assert fewest >= at_least, (
        f"some wave ran the (unrolled) steady loop {fewest} time(s) (per run and wave: "
        f"{record.iterations()}, by the MFMAs run: {record.mfmas}); the run must make at "
        f"least {at_least} iterations of it: raise K")
    return fewest


#: the records of the :func:`counting_loops` contexts open now, outermost first (one
#: patch of the machine serves them all: a context opened inside another, such as a test's
#: inside the audit plugin's, sees the same runs)
_ACTIVE: list[LoopRecord] = []
#: id(kernel) -> (the kernel, kept alive so that its id is not reused while the patch is
#: on; its main loop's header, or -1; the indices of its MFMA instructions)
_HEADS: dict[int, tuple] = {}


def _main_head(kernel) -> tuple[int, frozenset]:
    """(the kernel's main-loop header or -1, the indices of its MFMA instructions)."""
    if id(kernel) not in _HEADS:
        mfmas = frozenset(k for k, ins in enumerate(kernel.instrs) if _is_mfma(ins))
        try:
            _HEADS[id(kernel)] = (kernel, main_back_edge(kernel)[1], mfmas)
        except AssertionError:
            _HEADS[id(kernel)] = (kernel, -1, mfmas)
    return _HEADS[id(kernel)][1:]


def _patched():
    """Install the counting ``Machine.step`` and ``Machine.run`` and keep every batch in
    this process; returns the function that undoes it."""
    import pipeline_mlir.emu.pool as pool
    from pipeline_mlir.emu.machine import Machine

    step, run, workers = Machine.step, Machine.run, pool.workers

    def counting_step(self, w):
        if w.pc == self.main_head:
            self.main_heads[w.index] += 1
        if w.pc in self.mfma_pcs:
            self.mfmas_run[w.index] += 1
        step(self, w)

    def counting_run(self):
        # a part of a split batch (emu/split.py: it resumes where the batch diverged, its
        # attributes the batch's) goes on from the batch's counts, whose run is dropped
        part = self.resume is not None
        self.main_head, self.mfma_pcs = _main_head(self.kernel)
        waves = dict.fromkeys(range(len(self.waves)), 0)
        self.main_heads = None if self.main_head < 0 else \
            Counter(self.main_heads) if part else Counter(waves)
        self.mfmas_run = Counter(self.mfmas_run) if part else Counter(waves)
        entry = (self.kernel.name, self.main_heads)
        for record in _ACTIVE:        # a run that never reaches the loop is a run too
            record.runs.append(entry)
            record.mfmas.append(self.mfmas_run)
        try:
            run(self)
        except BaseException:   # a divergent batch: split (each part counts on) or run again
            for record in _ACTIVE:
                keep = [k for k, r in enumerate(record.runs) if r is not entry]
                record.runs[:] = [record.runs[k] for k in keep]
                record.mfmas[:] = [record.mfmas[k] for k in keep]
            raise

    Machine.step, Machine.run, pool.workers = counting_step, counting_run, lambda *_: 1

    def undo() -> None:
        Machine.step, Machine.run, pool.workers = step, run, workers
        _HEADS.clear()
    return undo


@contextlib.contextmanager
def counting_loops():
    """Record, in the :class:`LoopRecord` it yields, the main-loop iterations of every
    emulator run in this process while inside (module docstring)."""
    record = LoopRecord()
    undo = _patched() if not _ACTIVE else None
    _ACTIVE.append(record)
    try:
        yield record
    finally:
        _ACTIVE.remove(record)
        if undo is not None:
            undo()
