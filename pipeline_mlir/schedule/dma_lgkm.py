"""Operand waits a kernel whose copies are global LDS DMAs must make itself.

The schedules wait for the LDS reads an MMA's operands come from in one of two ways: a
counted ``WAIT_LGKM`` the schedule derives, or the ``s_waitcnt lgkmcnt`` LLVM's waitcnt pass
(SIInsertWaitcnts) puts before each MFMA whose operand registers an LDS read still in flight
defines (the 4-wave blocks leave the fragments read in the block before to it; a
``WAIT_FRAG`` leaves all of them).  LLVM 22's pass counts a FLAT-global LDS DMA
(``global_load_lds_dword*``, what ``amdgpu.gather_to_lds`` from a global memref becomes) as an
lgkmcnt event as well as a vmcnt one; the hardware counts it on vmcnt only (LLVM fixed its
model after the 22 release).  Every such DMA issued between an operand's read and its MFMA
so makes LLVM's count one too large: the MFMA may read a register whose read is in flight
(the emulator's ``pending-register``).  Buffer LDS DMAs (``buffer_load ... lds``, IREE's
kernels and the complete GEMM kernels) are counted right and need nothing here.

For a kernel whose copies are global LDS DMAs, :func:`cover_dma_operands` walks every way
a wave reaches each MMA (prologue; the loop from the prologue and from itself; the epilogue
after the loop and after zero trips) and, where a global load was issued after the last
read of a fragment the MMA consumes while that read may still be in flight, makes the last
lgkmcnt wait before the MMA complete it: its count becomes the LDS-read instructions
issued after that read (the least over the ways), never more than it was.  A ``WAIT_FRAG``
there (it issues nothing) becomes that ``WAIT_LGKM``.  An MMA with no such wait in its
phase after the read is a :class:`~pipeline_mlir.errors.ConfigError`: nothing would pin
the wait before the MFMA.  The counts stay derived: they are what the hardware needs,
read from the schedule's own order and per-load instruction counts.  Where a count could
be wrong it errs strong: a load of another channel (MX scales) counts as no instruction
after the read, and with a per-load count unknown (0) no wait is trusted and the wait
becomes ``lgkmcnt(0)``.

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import replace
from pipeline_mlir.schedule.frag_waits import consumed_fragments
from pipeline_mlir.schedule.targets import MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import WAIT_FRAG, WAIT_LGKM, OpDesc, OpRole, ScheduleEntry

__all__ = ["fragment_channel", "LgkmFlight", "over_ways", "cover_dma_operands"]


def fragment_channel(op: OpDesc) -> int | None:
    """The channel (0: A, 1: B) of fragment load ``op``: its own, else its tag's; None for
    a load of another channel (MX scales)."""
    if op.channel in (0, 1):
        return op.channel
    return {MMA_LOAD_A: 0, MMA_LOAD_B: 1}.get(op.tag)


class LgkmFlight:
    """The LDS reads a wave may have in flight, one item per instruction:
    ``[(channel, subtile), read number, a global load issued since]`` (the channel
    :func:`fragment_channel`'s, the read number counting every fragment load in issue
    order), as the schedule counts them (``lgkm``: instructions per fragment load of A and
    of B).  A per-load count unknown (0): with ``strict``, every load is one item and no
    wait is trusted to complete one (a count derived from it then errs strong); without, a
    load of that channel is no item and the waits are applied (a count lowered from it then
    stays as it was: fewer items in flight than the wait's count)."""

    def __init__(self, lgkm: tuple[int, int], strict: bool = True) -> None:
        #: counts unknown (0): every load one item, no wait trusted to complete one
        self.exact = 0 not in lgkm or not strict
        self.lgkm = lgkm if self.exact else (1, 1)
        self.items: list[list] = []
        self.reads = 0

    def issue(self, op: OpDesc) -> None:
        if op.role == OpRole.FRAGMENT_LOAD:
            ch = fragment_channel(op)
            self.reads += 1
            # a load of another channel (MX scales): no item, so that a wait here is
            # never taken to complete more than it does (and a count is never too large)
            n = self.lgkm[ch] if ch is not None and ch < len(self.lgkm) else 0
            self.items += [[(ch, op.subtile), self.reads, False] for _ in range(n)]
        elif op.role == OpRole.GLOBAL_LOAD:
            for it in self.items:
                it[2] = True
        elif op.tag == WAIT_LGKM and self.exact:
            # lgkmcnt(n) completes all but the last n; with n or fewer in flight, none
            self.items = self.items[max(0, len(self.items) - op.wait_value):] \
                if op.wait_value else []

    def short_reads(self, mma: OpDesc) -> set[int]:
        """The last read of each fragment ``mma`` consumes that may be in flight with a
        global load issued after it (LLVM's wait for it is short)."""
        out = set()
        for frag in consumed_fragments(mma):
            last = max((it[1] for it in self.items if it[0] == frag), default=None)
            if last is not None and any(it[2] for it in self.items if it[1] == last):
                out.add(last)
        return out


def _count(items: list[list], reads: set[int]) -> int | None:
    """The lgkmcnt count that completes ``reads`` when ``items`` are in flight; ``None``
    when one of them is not issued yet."""
    out = None
    for r in reads:
        pos = [k for k, it in enumerate(items) if it[1] == r]
        if not pos:
            return None
        n = len(items) - 1 - max(pos)
        out = n if out is None else min(out, n)
    return out


def _needs(out: list[ScheduleEntry], m: int, ctx: list[OpDesc],
           lgkm: tuple[int, int], phase: str) -> tuple[int, int] | None:
    """``(wait index, count)`` the MMA at ``m`` needs on the way ``ctx``, if any."""
    f = LgkmFlight(lgkm)
    for op in ctx:
        f.issue(op)
    last, snap = None, None
    for k in range(m):
        if out[k].op.tag in (WAIT_LGKM, WAIT_FRAG):
            last, snap = k, [list(it) for it in f.items]
        f.issue(out[k].op)
    reads = f.short_reads(out[m].op)
    if not reads:
        return None
    n = None if snap is None else _count(snap, reads)
    if n is not None and not f.exact:
        n = 0
    if n is None:
        raise ConfigError(
            f"{phase}[{m}] MMA: a global LDS DMA issued after the read of one of its "
            f"fragments leaves LLVM's lgkmcnt wait for it short, and no lgkmcnt wait of "
            f"the schedule after the read and before the MMA can complete it")
    return last, n


def _tighten(entries: list[ScheduleEntry], contexts: list[list[OpDesc]],
             lgkm: tuple[int, int], phase: str) -> list[ScheduleEntry]:
    out = list(entries)
    for m, e in enumerate(entries):
        if e.op.role != OpRole.COMPUTE:
            continue
        found = [x for x in (_needs(out, m, ctx, lgkm, phase) for ctx in contexts) if x]
        for w in {k for k, _ in found}:
            need = min(n for k, n in found if k == w)
            op = out[w].op
            if op.tag == WAIT_FRAG or need < op.wait_value:
                out[w] = replace(out[w], op=OpDesc.wait_lgkm(need))
    return out


def over_ways(prologue, kernel, epilogue, change, loop_rounds: int = 1):
    """The three phases (sequences of :class:`ScheduleEntry`) each passed to ``change``
    (``change(entries, ways, phase)`` -> entries; ``ways``: the ops a wave issued before the
    phase on each way it reaches it; ``phase``: ``PRO``, ``KRN`` or ``EPI``) with the ways
    a wave reaches it: the prologue from the start; the loop from the prologue and from its
    own end (the previous iteration as changed so far; ``loop_rounds`` times, each round
    seeing the last's); the epilogue after the loop and after zero trips."""
    pro = change(list(prologue), [[]], "PRO")
    p_ops = [e.op for e in pro]
    krn = list(kernel)
    for _ in range(loop_rounds):
        krn = change(krn, [p_ops, p_ops + [e.op for e in krn]], "KRN")
    k_ops = [e.op for e in krn]
    epi = change(list(epilogue), [p_ops, p_ops + k_ops], "EPI")
    return tuple(pro), tuple(krn), tuple(epi)


def cover_dma_operands(prologue, kernel, epilogue, lgkm: tuple[int, int]):
    """The three phases (sequences of :class:`ScheduleEntry`) with the lgkmcnt waits a
    kernel whose copies are global LDS DMAs needs for its MMAs' operands (module
    docstring); ``lgkm``: instructions per fragment load of A and of B (0: unknown; then
    every MMA a global load may have made LLVM's wait short for gets lgkmcnt(0))."""
    return over_ways(prologue, kernel, epilogue,
                     lambda entries, ways, phase: _tighten(entries, ways, lgkm, phase),
                     loop_rounds=2)
