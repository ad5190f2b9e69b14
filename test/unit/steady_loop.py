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
* :func:`main_back_edge` finds a kernel's main loop from its instructions, as the assembly
  reader does (:meth:`pipeline_mlir.isa.asm.AsmFunction.main_loop`): of the backward
  branches, the loops (header .. branch, in layout order) that hold MFMAs and no smaller
  such loop, the one with the most MFMAs (a short branch or LLVM's long branch alike).
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


def _branch_target(ins, far: dict[int, int]) -> int | None:
    """The byte offset a branch (``Instr.target``) or a long branch's ``s_setpc_b64`` goes
    to, else None."""
    return far.get(ins.addr) if ins.name == "s_setpc_b64" else ins.target


def main_back_edge(kernel) -> tuple[int, int]:
    """(index of the main loop's back-edge branch, index of its header) in
    ``kernel.instrs`` (module docstring); AssertionError when no loop holds an MFMA."""
    from pipeline_mlir.emu.long_branch import long_branch_targets

    instrs = kernel.instrs
    index_of = {ins.addr: k for k, ins in enumerate(instrs)}
    far = long_branch_targets(instrs)
    spans = {}
    for k, ins in enumerate(instrs):
        target = _branch_target(ins, far)
        if target is not None and target <= ins.addr and target in index_of:
            head = index_of[target]
            spans[head] = max(spans.get(head, k), k)        # back edges to one header merged
    loops = [(h, b, sum(map(_is_mfma, instrs[h:b + 1]))) for h, b in spans.items()]
    loops = [lp for lp in loops if lp[2]]
    inner = [lp for lp in loops
             if not any(o is not lp and lp[0] <= o[0] and o[1] <= lp[1] for o in loops)]
    assert inner, f"kernel {kernel.name}: no loop holds an MFMA instruction"
    head, back, _ = max(inner, key=lambda lp: lp[2])
    return back, head


@dataclass
class LoopRecord:
    """The main-loop iterations of the runs made inside :func:`counting_loops`."""

    #: per run: (kernel name, per wave the times it ran the main loop's header, or None
    #: when no loop of the kernel holds an MFMA)
    runs: list = field(default_factory=list)

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


#: the records of the :func:`counting_loops` contexts open now, outermost first (one
#: patch of the machine serves them all: a context opened inside another, such as a test's
#: inside the audit plugin's, sees the same runs)
_ACTIVE: list[LoopRecord] = []
#: id(kernel) -> (the kernel, kept alive so that its id is not reused while the patch is
#: on; its main loop's header, or -1)
_HEADS: dict[int, tuple] = {}


def _main_head(kernel) -> int:
    if id(kernel) not in _HEADS:
        try:
            _HEADS[id(kernel)] = (kernel, main_back_edge(kernel)[1])
        except AssertionError:
            _HEADS[id(kernel)] = (kernel, -1)
    return _HEADS[id(kernel)][1]


def _patched():
    """Install the counting ``Machine.step`` and ``Machine.run`` and keep every batch in
    this process; returns the function that undoes it."""
    import pipeline_mlir.emu.pool as pool
    from pipeline_mlir.emu.machine import Machine

    step, run, workers = Machine.step, Machine.run, pool.workers

    def counting_step(self, w):
        if w.pc == self.main_head:
            self.main_heads[w.index] += 1
        step(self, w)

    def counting_run(self):
        self.main_head = _main_head(self.kernel)
        self.main_heads = None if self.main_head < 0 else \
            Counter(dict.fromkeys(range(len(self.waves)), 0))
        entry = (self.kernel.name, self.main_heads)
        for record in _ACTIVE:        # a run that never reaches the loop is a run too
            record.runs.append(entry)
        try:
            run(self)
        except BaseException:           # a divergent batch is run again one by one
            for record in _ACTIVE:
                record.runs[:] = [r for r in record.runs if r is not entry]
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
