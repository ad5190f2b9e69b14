"""The lgkmcnt waits a kernel whose copies are global LDS DMAs makes for its MMAs' operands
(``pipeline_mlir/schedule/dma_lgkm.py``): LLVM 22 counts those DMAs on lgkmcnt too, so its
own wait for a fragment a DMA followed is short; the schedule's last wait before the MMA
is tightened to the count the hardware needs, and nothing else changes."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule.dma_lgkm import cover_dma_operands
from pipeline_mlir.schedule.targets import LOAD_A, MMA
from pipeline_mlir.schedule.types import WAIT_FRAG, WAIT_LGKM, OpDesc, OpRole

from schedule_entries import fragment_load, kernel_phase

LGKM = (2, 2)       # two ds_read_b128 per fragment load (a K tile of two MFMA K steps)


DMA = OpDesc(tag=LOAD_A, role=OpRole.GLOBAL_LOAD, channel=0)


def _mma(a: int, b: int) -> OpDesc:
    return OpDesc(tag=MMA, role=OpRole.COMPUTE, stage=a, subtile=b)


def _waits(entries) -> list[tuple[int, int]]:
    return [(e.op.tag, e.op.wait_value) for e in entries if e.op.tag in (WAIT_LGKM, WAIT_FRAG)]


def test_a_dma_after_the_operand_read_tightens_the_wait_before_the_mma():
    """The one-wave 32x32 tile's block: A0 and B0 read, a DMA, then a wait leaving 2 reads
    in flight (B0's) before the MMA that reads B0: the wait becomes lgkmcnt(0); without the
    DMA LLVM's own wait is exact and the schedule's stays."""
    body = (fragment_load(0, 0), fragment_load(1, 0), DMA, OpDesc.wait_lgkm(2), fragment_load(1, 1), _mma(0, 0))
    _, krn, _ = cover_dma_operands((), kernel_phase(*body), (), LGKM)
    assert _waits(krn) == [(WAIT_LGKM, 0)]
    no_dma = tuple(op for op in body if op is not DMA)
    _, krn, _ = cover_dma_operands((), kernel_phase(*no_dma), (), LGKM)
    assert _waits(krn) == [(WAIT_LGKM, 2)]
    # a read the wait already completes needs nothing: the count is never raised
    done = (fragment_load(0, 0), fragment_load(1, 0), DMA, OpDesc.wait_lgkm(0), fragment_load(1, 1), _mma(0, 0))
    assert _waits(cover_dma_operands((), kernel_phase(*done), (), LGKM)[1]) == [(WAIT_LGKM, 0)]


def test_the_count_is_the_reads_issued_after_the_operand_and_a_frag_wait_becomes_real():
    """Reads issued after the consumed one stay in flight (lgkmcnt(2): B1's two), and a
    ``WAIT_FRAG`` (no instruction) guarding the MMA becomes a ``WAIT_LGKM``."""
    body = (fragment_load(0, 0), fragment_load(1, 0), fragment_load(1, 1), DMA, OpDesc.wait_frag(4), _mma(0, 0))
    _, krn, _ = cover_dma_operands((), kernel_phase(*body), (), LGKM)
    assert _waits(krn) == [(WAIT_LGKM, 2)]


def test_the_loop_is_covered_from_its_own_end_and_the_epilogue_after_it():
    """A read at the end of the loop body followed by a DMA, consumed by the next
    iteration's first MMA and by the epilogue's: both waits tightened."""
    pro = kernel_phase(fragment_load(0, 0), fragment_load(1, 0), OpDesc.wait_lgkm(0))
    krn = kernel_phase(OpDesc.wait_lgkm(4), _mma(0, 0), fragment_load(0, 0), fragment_load(1, 0), DMA)
    epi = kernel_phase(OpDesc.wait_lgkm(2), _mma(0, 0))
    _, k2, e2 = cover_dma_operands(pro, krn, epi, LGKM)
    assert _waits(k2) == [(WAIT_LGKM, 0)] and _waits(e2) == [(WAIT_LGKM, 0)]


def test_an_mma_with_no_wait_to_tighten_is_refused():
    """A DMA after the operand's read and no lgkmcnt wait after that read before the MMA:
    nothing would pin the wait, a ConfigError naming the entry."""
    body = (fragment_load(0, 0), fragment_load(1, 0), DMA, _mma(0, 0))
    with pytest.raises(ConfigError, match=r"KRN\[3\] MMA: a global LDS DMA issued after the "
                                          r"read of one of its fragments"):
        cover_dma_operands((), kernel_phase(*body), (), LGKM)


def test_unknown_counts_wait_for_everything():
    """A fragment load of an unknown instruction count (0) trusts no wait to have completed
    a read, and the wait a DMA made short becomes lgkmcnt(0)."""
    body = (fragment_load(0, 0), fragment_load(1, 0), fragment_load(1, 1), DMA, OpDesc.wait_lgkm(4), _mma(0, 0))
    assert _waits(cover_dma_operands((), kernel_phase(*body), (), LGKM)[1]) == [(WAIT_LGKM, 2)]
    assert _waits(cover_dma_operands((), kernel_phase(*body), (), (0, 2))[1]) == [(WAIT_LGKM, 0)]


def test_a_wait_allowing_more_than_are_in_flight_completes_none():
    """``lgkmcnt(5)`` with four reads in flight (A0's two, a DMA, B0's two) completes none
    of them: A0's read, which the DMA followed, is still in flight at the MMA, so the wait
    becomes lgkmcnt(2) (B0's two may stay); read as completing the oldest reads, it would
    have left LLVM's short wait for A0 alone."""
    body = (fragment_load(0, 0), DMA, fragment_load(1, 0), OpDesc.wait_lgkm(5), _mma(0, 0))
    pro, _, _ = cover_dma_operands(kernel_phase(*body), (), (), LGKM)     # one way: the prologue
    assert _waits(pro) == [(WAIT_LGKM, 2)]
