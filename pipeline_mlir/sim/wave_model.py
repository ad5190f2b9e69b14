"""Single-wave, in-order issue model (the semantics of llvm-mca-22 for gfx950).

One instruction issues per cycle at most, in program order.  An instruction
issues at the first cycle at which

* the wave has finished the previous issue (``previous issue + gap``, gap 1);
* every register it reads is ready (the producer's issue + latency; an MFMA's
  srcA registers ``src_a_late`` cycles later still, LLVM's ``ReadAdvance`` of -4,
  applied only to registers some instruction of the run has written);
* every unit it reserves is free (``XDL`` busy for the MFMA's passes, every other
  unit for its cycles in the table); a *queued* unit (the measured table's LDS pipe
  behind its command FIFO) does not hold up the issue: the instruction takes the unit
  when it is free and completes that much later;
* for ``s_waitcnt``: at most ``vm`` vm-counted and ``lgkm`` lgkm-counted
  instructions are still executing (an instruction has completed at issue +
  latency); with a table of ``in_order_counters`` (hardware), an instruction that
  would exceed its counter's capacity waits for the oldest in flight.  With ``mca_flat_lgkm`` FLAT (``global_*``) instructions count on
  lgkm as well (llvm-mca's CustomBehaviour does; hardware does not).

Total cycles = ``max(last issue + 1, last end) + 1`` (llvm-mca's count).  With
the ``llvm`` table this equals llvm-mca-22's ``Total Cycles`` on the corpus in
``test/unit/data/mca`` (test_timing.py).  There are no other waves: an
``s_barrier`` is an ordinary instruction (it costs its table latency, which
llvm-mca pads onto the end).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.sim.costs import (CostTable, capacity_release, get_table, prepare,
                                      wait_release)
from pipeline_mlir.sim.instr import Instr


@dataclass
class WaveRun:
    """Result of :func:`simulate`: per instruction (over all iterations) its issue and
    end cycle and the cycles it waited beyond the previous issue + gap."""

    total: int
    issue: list[int]
    end: list[int]
    stall: list[int]
    xdl_busy: int
    waitcnt_stall: int
    defaulted: set[str] = field(default_factory=set)

    @property
    def mfma_busy(self) -> float:
        """Fraction of the run the MFMA pipe is busy."""
        return self.xdl_busy / self.total if self.total else 0.0


def simulate(instrs: list[Instr], table: CostTable | str = "llvm", iterations: int = 1,
             mca_flat_lgkm: bool = False) -> WaveRun:
    """Run ``instrs`` ``iterations`` times back to back as one wave."""
    if isinstance(table, str):
        table = get_table(table)
    ops = prepare(instrs, table, mca_flat_lgkm)
    in_order = table.in_order_counters
    ready: dict[str, int] = {}
    free: dict[str, int] = {}
    vmq: list[int] = []
    lgkmq: list[int] = []
    issue, end, stall = [], [], []
    t = 0               # earliest cycle the next instruction may issue
    last_end = 0
    last_issue = -1
    xdl = wstall = 0
    for _ in range(iterations):
        for op in ops:
            if op.pseudo:
                issue.append(t)
                end.append(t)
                stall.append(0)
                continue
            ins = op.instr
            start = t
            if ins.kind == "wait":
                start = max(wait_release(vmq, ins.vm, t), wait_release(lgkmq, ins.lgkm, t))
                wstall += start - t
            elif in_order and (op.vm_inc or op.lgkm_inc):
                start = capacity_release(vmq, lgkmq, op, t)
            for r in op.uses:
                rd = ready.get(r)
                if rd is not None:
                    if r in op.late:
                        rd += op.late_by
                    if rd > start:
                        start = rd
            for u, _busy in op.units:
                f = free.get(u, 0)
                if f > start:
                    start = f
            for u, busy in op.units:
                free[u] = start + busy
                if u == "XDL":
                    xdl += busy
            done = start + op.latency
            for u, busy in op.queued:
                q = max(start, free.get(u, 0))
                free[u] = q + busy
                done += q - start
            if op.vm_inc:
                vmq[:] = [d for d in vmq if d > start]
                vmq.append(max(done, vmq[-1]) if (in_order and vmq) else done)
            if op.lgkm_inc:
                lgkmq[:] = [d for d in lgkmq if d > start]
                lgkmq.append(max(done, lgkmq[-1]) if (in_order and lgkmq) else done)
            for r in op.defs:
                ready[r] = done
            issue.append(start)
            end.append(done)
            stall.append(start - t)
            last_end = max(last_end, done)
            last_issue = start
            t = start + op.gap
    total = max(last_issue + 1, last_end) + 1 if last_issue >= 0 else 0
    return WaveRun(total, issue, end, stall, xdl, wstall, set(table.defaulted))


def steady_state_ii(instrs: list[Instr], table: CostTable | str = "llvm", warm: int = 4,
                    more: int = 4, mca_flat_lgkm: bool = False) -> float:
    """Cycles per iteration once warm: ``(T(warm + more) - T(warm)) / more``."""
    a = simulate(instrs, table, warm, mca_flat_lgkm).total
    b = simulate(instrs, table, warm + more, mca_flat_lgkm).total
    return (b - a) / more
