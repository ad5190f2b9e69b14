"""How many times an emulated run went round the pipelined kernel's main loop.

An exactness test proves the schedule only if the run enters the steady-state loop: at a K
the prologue and the drain cover alone, the loop body never runs and the test proves the
prologue and the epilogue only.  :func:`counting_loops` measures it from the run itself:

* inside it every :class:`~pipeline_mlir.emu.machine.Machine` that runs in this process
  records each backward jump its waves make (the wave's next instruction at or before the
  one it just ran: a short branch or LLVM's long branch alike), per wave;
* the emulator's worker processes (``--emulate-jobs``) are not used inside it (their jumps
  would not come back): every batch runs here, with the same result (:mod:`~pipeline_mlir.
  emu.pool`);
* :func:`main_back_edge` finds a kernel's main loop from its instructions, as the assembly
  reader does (:meth:`pipeline_mlir.isa.asm.AsmFunction.main_loop`): of the backward
  branches, the loops (header .. branch, in layout order) that hold MFMAs and no smaller
  such loop, the one with the most MFMAs.  Its back edge is a branch to the header from
  the end of the loop.

:meth:`LoopRecord.main_trips` is, per run and wave, how many times the main loop's back
edge was taken; :func:`assert_steady` asserts every wave of every run took it at least
``at_least`` times (the steady loop ran that many iterations and one more), and fails when
no run was recorded at all (a test that emulated nothing here proves nothing).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, field


def _is_mfma(ins) -> bool:
    return ins.name.startswith(("v_mfma", "v_smfmac"))


def _branch_target(ins, far: dict[int, int]) -> int | None:
    """The byte offset a branch (or a long branch's ``s_setpc_b64``) goes to, else None."""
    if ins.name == "s_setpc_b64":
        return far.get(ins.addr)
    if ins.enc != "SOPP" or not ins.name.startswith(("s_branch", "s_cbranch")):
        return None
    imm = ins.f.get("imm", 0) & 0xFFFF
    return ins.addr + 4 + 4 * (imm - 0x10000 if imm & 0x8000 else imm)


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
    """The backward jumps of the runs made inside :func:`counting_loops`."""

    #: per run: (kernel, Counter of (wave index, from index, to index))
    runs: list = field(default_factory=list)

    def main_trips(self) -> list[dict[int, int]]:
        """Per run, per wave: how many times it took the main loop's back edge (a jump
        from the loop's last branch, or from any instruction of the loop, to its header)."""
        out = []
        for kernel, jumps, waves in self.runs:
            back, head = main_back_edge(kernel)
            trips = dict.fromkeys(range(waves), 0)
            for (wave, src, dst), n in jumps.items():
                if dst == head and head <= src <= back:
                    trips[wave] += n
            out.append(trips)
        return out

    def fewest(self) -> int:
        """The fewest back edges any wave of any run took (AssertionError: no run)."""
        trips = self.main_trips()
        assert trips, "no emulator run was recorded in this process"
        return min(min(t.values()) for t in trips)


def assert_steady(record: LoopRecord, at_least: int = 2) -> int:
    """Assert every wave of every recorded run took the main loop's back edge at least
    ``at_least`` times; the fewest taken."""
    fewest = record.fewest()
    assert fewest >= at_least, (
        f"the pipelined main loop's back edge was taken {fewest} time(s) by some wave "
        f"(per run and wave: {record.main_trips()}); the run must go round the steady loop "
        f"at least {at_least} times: raise K")
    return fewest


@contextlib.contextmanager
def counting_loops():
    """Record, in the :class:`LoopRecord` it yields, the backward jumps of every emulator
    run in this process while inside (module docstring)."""
    import pipeline_mlir.emu.pool as pool
    from pipeline_mlir.emu.machine import Machine

    record = LoopRecord()
    step, run, workers = Machine.step, Machine.run, pool.workers

    def counting_step(self, w):
        pc = w.pc
        step(self, w)
        if w.pc <= pc and not w.done:
            self.backward_jumps[(w.index, pc, w.pc)] += 1

    def counting_run(self):
        self.backward_jumps = Counter()
        entry = (self.kernel, self.backward_jumps, len(self.waves))
        record.runs.append(entry)       # a run that jumps back nowhere is a run too
        try:
            run(self)
        except BaseException:           # a divergent batch is run again one by one
            record.runs[:] = [r for r in record.runs if r is not entry]
            raise

    Machine.step, Machine.run, pool.workers = counting_step, counting_run, lambda *_: 1
    try:
        yield record
    finally:
        Machine.step, Machine.run, pool.workers = step, run, workers
