"""Counted lgkmcnt waits that hold when LLVM merges a fragment load's reads in pairs
(``pipeline_mlir/schedule/merged_reads.py``, finding 91 of ``docs/iree-audits.md``): the
schedule counts two ``ds_read_b32`` per fragment load, LLVM issues one ``ds_read2st64_b32``,
and the count is lowered so that the wait completes the same loads either way."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from pipeline_mlir.schedule.dma_lgkm import LgkmFlight
from pipeline_mlir.schedule.merged_reads import (lower_merged_waits, merged_count,
                                                 pairable_channels)
from pipeline_mlir.schedule.targets import LOAD_A, MMA
from pipeline_mlir.schedule.types import WAIT_LGKM, OpDesc, OpRole

from schedule_entries import fragment_load, kernel_phase

LGKM = (2, 2)       # two vector<1xf32> reads per fragment load, as the schedule counts them


DMA = OpDesc(tag=LOAD_A, role=OpRole.GLOBAL_LOAD, channel=0)
MMA00 = OpDesc(tag=MMA, role=OpRole.COMPUTE)
#: finding 91's prologue (A and B of subtile 0 read) and the loop's head: a wait meant to
#: complete A's read, B's next fragment read, then the DMA into A's slot
PRO = kernel_phase(fragment_load(0, 0), fragment_load(1, 0))
KRN = kernel_phase(OpDesc.wait_lgkm(2), fragment_load(1, 1), DMA, MMA00)


def _in_flight_at_dma(prologue, kernel, per_load: int) -> list[int]:
    """The fragment loads (their numbers in issue order) a wave still has in flight when the
    DMA issues, each load issuing ``per_load`` instructions: the hardware's count."""
    items: list[int] = []
    n = 0
    for e in list(prologue) + list(kernel):
        op = e.op
        if op.role == OpRole.FRAGMENT_LOAD:
            n += 1
            items += [n] * per_load
        elif op.tag == WAIT_LGKM:
            del items[:max(0, len(items) - op.wait_value) if op.wait_value else len(items)]
        elif op is DMA:
            return sorted(set(items))
    raise AssertionError("no DMA")


def test_a_wait_over_paired_reads_is_lowered_to_complete_the_overwritten_read():
    """With both channels' reads pairable the kernel's lgkmcnt(2) becomes lgkmcnt(1) (its
    derived count 2 kept); merged (one instruction a load) it completes A's read, load 1, as
    the schedule's count did unmerged; the wait weakened by one, the count as derived, leaves
    that read in flight when the DMA overwrites its slot: the race of finding 91."""
    pro, krn, _ = lower_merged_waits(PRO, KRN, (), LGKM, (True, True))
    wait = krn[0].op
    assert (wait.tag, wait.wait_value, wait.derived_count) == (WAIT_LGKM, 1, 2)
    assert 1 not in _in_flight_at_dma(pro, krn, per_load=1)
    assert 1 not in _in_flight_at_dma(PRO, KRN, per_load=2)
    assert 1 in _in_flight_at_dma(PRO, KRN, per_load=1)


def test_nothing_changes_without_pairable_reads_or_counted_waits():
    """No channel pairable: the phases as given; a wait of 0 relies on no count."""
    _, krn, _ = lower_merged_waits(PRO, KRN, (), LGKM, (False, False))
    assert krn[0].op.wait_value == 2 and krn[0].op.derived_count is None
    zero = kernel_phase(OpDesc.wait_lgkm(0), fragment_load(1, 1), DMA, MMA00)
    _, krn, _ = lower_merged_waits(PRO, zero, (), LGKM, (True, True))
    assert krn[0].op.wait_value == 0 and krn[0].op.derived_count is None


def test_only_the_pairable_channel_counts_half():
    """After the cut: B's load of 2 reads (pairable: 1) and A's (not: 2)."""
    assert merged_count([(1, 1), (1, 1), (2, 0), (2, 0)], (False, True)) == 3
    assert merged_count([(1, 1), (1, 1), (2, 0), (2, 0)], (True, True)) == 2
    # a cut inside a load: its one read after the cut may be merged with one before it
    assert merged_count([(1, 0)], (True, True)) == 0


def test_a_count_of_zero_is_no_instruction_here():
    """The flight is the DMA rule's (``dma_lgkm.LgkmFlight``), but for a per-load count of 0:
    here such a load issues nothing and the waits apply (A's load of the prologue leaves
    only B's two reads in flight); the DMA rule (strict) counts one instruction a load and
    trusts no wait (A's and B's loads, one item each, through the lgkmcnt(2))."""
    lenient, strict = LgkmFlight((0, 2), strict=False), LgkmFlight((0, 2))
    for f in (lenient, strict):
        for e in list(PRO) + [KRN[0]]:
            f.issue(e.op)
    assert [it[0][0] for it in lenient.items] == [1, 1]
    assert [it[0][0] for it in strict.items] == [0, 1]


def test_the_loop_from_its_own_end_and_the_epilogue_are_lowered():
    """A wait at the loop's head sees the previous iteration's reads; the epilogue's the
    loop's."""
    krn = kernel_phase(OpDesc.wait_lgkm(2), DMA, MMA00, fragment_load(0, 0), fragment_load(1, 0))
    epi = kernel_phase(OpDesc.wait_lgkm(2), MMA00)
    _, k2, e2 = lower_merged_waits((), krn, epi, LGKM, (True, True))
    assert k2[0].op.wait_value == 1 and e2[0].op.wait_value == 1


def _read(buffer: str, width: int, addresses, ch: int = 0) -> SimpleNamespace:
    return SimpleNamespace(kind="read", channel=ch, stage=0, subtile=0, op_id=7,
                           buffer=buffer, width=width, addresses=np.asarray(addresses))


def test_pairable_channels_from_the_reads_addresses():
    """Two dword reads 64 dwords apart (``ds_read2st64_b32``) or 3 apart (``ds_read2_b32``)
    pair; 300 dwords apart (out of both offsets' reach), at distances that differ between
    threads, of other widths or of 16 bytes they do not; two buffers always may."""
    lanes = np.arange(64) * 4
    assert pairable_channels([_read("a", 4, lanes), _read("a", 4, lanes + 256)]) == \
        (True, False)
    assert pairable_channels([_read("a", 4, lanes), _read("a", 4, lanes + 12)])[0]
    for other in (_read("a", 4, lanes + 1200), _read("a", 4, lanes * 2),
                  _read("a", 8, lanes + 256), _read("a", 16, lanes + 256)):
        first = _read("a", other.width if other.width == 16 else 4, lanes)
        assert pairable_channels([first, other]) == (False, False)
    assert pairable_channels([_read("a", 4, lanes, 1), _read("b", 4, lanes, 1)]) == \
        (False, True)
