"""The LDS bank model (sim/lds_banks.py), the kernels' lane addresses (analysis/lds_access.py)
and what the timing model charges for them (sim/costs.py, sim/cu_model.py)."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis.lds_access import kernel_lds, lds_accesses
from pipeline_mlir.errors import ConfigError

from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.gemm_mlir import kernel_mlir
from pipeline_mlir.kernel.lds import LdsSwizzle, default_swizzle, load_rows
from pipeline_mlir.kernel.lds_data import LdsAccessError
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.costs import CostError, get_table
from pipeline_mlir.sim.cu_model import simulate_cu
from pipeline_mlir.sim.instr import Instr
from pipeline_mlir.sim.lds_banks import (PHASES, BankModelError, bank_cost, kernel_banks,
                                         lane_width, phases)
from pipeline_mlir.sim.report import simulate_schedule

SHIPPED = ["pingpong{is_fp8=false}", "pingpong{is_fp8=true}",
           "4wave{dtype=bf16 BM=128 BN=128 BK=64}", "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
           "4wave{dtype=fp8 BM=64 BN=64 BK=128}"]


def test_phases_partition_the_wave():
    for (write, width), (groups, source) in PHASES.items():
        lanes = sorted(x for g in groups for x in g)
        assert lanes == list(range(64)), (write, width)
        assert len({len(g) for g in groups}) == 1 and source
        per_phase = len(groups[0]) * width
        assert per_phase == (128 if write else 256) or (not write and width < 4)


def test_b128_read_phases_are_the_measured_lane_sets():
    groups, _ = phases(False, 16)
    assert groups[0] == (0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27)
    assert groups[1] == (4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 28, 29, 30, 31)
    assert groups[2] == tuple(x + 32 for x in groups[0])


def test_contiguous_b128_read_is_conflict_free():
    c = bank_cost([16 * lane for lane in range(64)], 16, False)
    assert (c.cycles, c.ideal, c.degree) == (4, 4, 1)
    assert c.describe().startswith("conflict-free")


def test_column_of_128_byte_rows_is_four_way():
    """Lane l reads row l % 16 (128-byte rows), chunk l // 16: rows r and r+2 of one
    phase share bank r*32 % 64 (hand-worked: phase 0 holds rows 0, 2, 12, 14 in banks 0-3)."""
    addrs = [(lane % 16) * 128 + (lane // 16) * 16 for lane in range(64)]
    c = bank_cost(addrs, 16, False)
    assert (c.cycles, c.ideal, c.degree) == (16, 4, 4)
    assert c.worst[2] == 4 and "4-way" in c.describe()


def test_two_way_and_broadcast():
    # rows of 256 bytes: lanes 0-3 of phase 0 read rows 0..3 at one column -> the same banks
    addrs = [16 * (lane % 4) + 256 * (lane // 4) for lane in range(64)]
    c = bank_cost(addrs, 16, False)
    assert c.cycles > c.ideal
    # every lane reading the same 16 bytes: one dword per bank, one cycle per phase
    assert bank_cost([64] * 64, 16, False).cycles == 4
    # b64: two lanes 256 bytes apart in one phase: 2 cycles for that phase
    addrs = [8 * lane for lane in range(64)]
    addrs[1] = 256
    assert bank_cost(addrs, 8, False).cycles == 3


def test_bank_model_rejects():
    with pytest.raises(BankModelError, match="64 lanes"):
        bank_cost([0] * 63, 16, False)
    with pytest.raises(BankModelError, match="write of 12 bytes"):
        bank_cost([0] * 64, 12, True)
    with pytest.raises(BankModelError, match="no lane width"):
        lane_width("v_add_u32")
    # sub-dword writes (IREE's element copies: ds_write_b16) take the dword write's phases
    assert phases(True, 2) == phases(True, 1) == PHASES[(True, 4)]
    assert bank_cost([2 * lane for lane in range(64)], 2, True).cycles == 2
    assert (lane_width("ds_read_b128"), lane_width("ds_read_b64"),
            lane_width("buffer_load_dwordx4"), lane_width("buffer_load_dword")) == (16, 8, 16, 4)



def test_pieces_of_a_run_written_a_run_apart():
    """Register-staged pieces of a run cut at an odd size (``sched.lane_stride``: lanes 16
    bytes apart): a 2-byte piece's 32 lanes per write phase cover two rows of banks, two
    dwords in every bank they touch: 2-way, 4 cycles for 2 phases, as a dword's; the run
    joined (``passes/_join_stores.py``) is one 16-byte write of 8 conflict-free phases."""
    for width, offset in ((2, 0), (2, 2), (1, 3), (4, 12)):
        c = bank_cost([16 * lane + offset for lane in range(64)], width, True)
        assert (c.cycles, c.ideal, c.worst[2]) == (4, 2, 2), (width, offset, c)
    c = bank_cost([16 * lane for lane in range(64)], 16, True)
    assert (c.cycles, c.ideal) == (8, 8)

# ---- the kernels' addresses ---------------------------------------------------------------

@pytest.mark.parametrize("spec", SHIPPED)
def test_kernel_addresses_follow_the_layout(spec):
    """Fragment read: lane l of warp position p reads load row p*W/2 + l%16 of its subtile's
    buffer, at K chunk l//16 (plus the read's K offset) swizzled by the layout's XOR; DMA:
    lane l writes 16 bytes at the wave's chunk + 16*l."""
    k = gemm_kernel(parse_pipeline(spec))
    g = k.geometry
    lds = lds_accesses(kernel_mlir(k), k.threads)
    e = g.elem_bytes
    assert len(lds.buffers) == 8 and not lds.notes
    assert sum(size for _b, size in lds.buffers.values()) == k.lds_bytes
    for a in lds.accesses:
        base = lds.buffers[a.buffer][0]
        assert a.width == 16
        for w in (0, k.threads // 64 - 1):
            addrs = a.wave(w)
            if a.kind == "dma":
                assert addrs == [addrs[0] + 16 * lane for lane in range(64)]
                continue
            wt = k.WM if a.channel == 0 else k.WN
            wpos = w // k.warps_n if a.channel == 0 else w % k.warps_n
            row_step = g.BK * e
            sw = k.lds.swizzle
            rows = {(addrs[lane] - base) // row_step - (wpos * wt // 2 + lane % 16)
                    for lane in range(64)}
            # undo the swizzle: the logical chunk of the lane's address
            logical = [sw.chunk((addrs[lane] - base) // row_step,
                                (addrs[lane] - base) % row_step // 16) * 16
                       for lane in range(64)]
            cols = {logical[lane] - (lane // 16) * k.lds_frag_width * e for lane in range(64)}
            # one MMA row block (a multiple of 16 rows) and one K offset per instruction
            assert len(rows) == 1 and rows.pop() % 16 == 0, (a.key, w)
            assert len(cols) == 1 and cols.pop() % 16 == 0, (a.key, w)
    # every load row is covered by exactly one DMA lane of one instruction of one wave
    rows = load_rows(g.BM, k.WM, 0)
    dma = [a for a in lds.accesses if a.kind == "dma" and a.buffer == "%lds_a00"]
    written = sorted(x for a in dma for w in range(k.threads // 64) for x in a.wave(w))
    assert written == [lds.buffers["%lds_a00"][0] + 16 * i for i in range(len(rows) * g.BK * e // 16)]


def test_address_evaluation_errors():
    k = gemm_kernel(parse_pipeline("4wave"))
    text = kernel_mlir(k)
    # an LDS address that depends on the loop variable cannot be evaluated (the text is
    # parsed: the loop variable reaches the i32 address through a cast)
    bad = text.replace("%fo1_0_0_0 = arith.addi %fbase_b0, ",
                       "%kx = arith.index_cast %k : index to i32\n"
                       "        %fo1_0_0_0 = arith.addi %kx, ", 1)
    assert bad != text
    with pytest.raises(LdsAccessError, match=r"value %k has no definition"):
        lds_accesses(bad, k.threads)
    # an op the shared per-lane evaluator does not model (it models arith.maxui)
    bad = text.replace("%fgrp = arith.muli", "%fgrp = math.ipowi", 1)
    with pytest.raises(LdsAccessError, match=r"%fgrp is defined by 'math.ipowi'"):
        lds_accesses(bad, k.threads)
    # a function argument (the problem size) is no LDS address
    bad = text.replace("%fo1_0_0_0 = arith.addi %fbase_b0, ",
                       "%mx = arith.index_cast %M : index to i32\n"
                       "        %fo1_0_0_0 = arith.addi %mx, ", 1)
    with pytest.raises(LdsAccessError, match=r"value %M has no definition"):
        lds_accesses(bad, k.threads)
    with pytest.raises(LdsAccessError, match=r"does not parse"):
        lds_accesses(text.replace("%fgrp = arith.muli", "%fgrp = arith.bogus", 1), k.threads)
    # the opaque identity passes its operand on; an inline asm of other constraints does not
    k = gemm_kernel(parse_pipeline("pingpong{is_fp8=true}"))
    text = kernel_mlir(k)
    assert '"=v,0"' in text
    lds_accesses(text, k.threads)
    with pytest.raises(LdsAccessError, match=r"%freg_b0 is defined by 'llvm.inline_asm'"):
        lds_accesses(text.replace('"=v,0"', '"=v,v"', 1), k.threads)


def test_unaligned_buffer_is_noted():
    k = gemm_kernel(parse_pipeline("4wave{dtype=fp8 BM=64 BN=64 BK=128}"))
    # the buffer's declaration and its uses (the text is parsed: the types must agree)
    text = "\n".join(line.replace("memref<4096x", "memref<4100x")
                     if "%lds_a00[" in line else line for line in kernel_mlir(k).splitlines())
    text = text.replace("%lds_a00: memref<4096x", "%lds_a00: memref<4100x", 1)
    assert any("%lds_a00 is 4100 bytes" in n for n in lds_accesses(text, k.threads).notes)


# ---- the layout is chosen with the model ------------------------------------------------------

def _candidates(row_bytes: int) -> list[LdsSwizzle]:
    chunks = row_bytes // 16
    return [LdsSwizzle(d, s) for d in (1, 2, 4, 8, 16) for s in (1, 2, 4, 8, 16)
            if s <= chunks and 16 % (d * s) == 0]


def _score(k) -> tuple[int, int]:
    """(bank cycles of one wave's fragment reads and DMA writes, conflicted accesses)."""
    banks = kernel_banks(k, kernel_lds(k))
    return (sum(a.worst.cycles for a in banks.accesses), len(banks.conflicted))


#: shipped kernels whose candidates' scores another shipped kernel's stand for: the 4-wave
#: FP8 128x128 kernel's accesses are the 64x64 one's (the same reads and DMA writes, each of
#: 4 or 8 bank cycles, rows of 128 bytes) over a larger tile, 48 accesses as the 4-wave BF16
#: 128x128 kernel's
LONG_SWIZZLE = {"4wave{dtype=fp8 BM=128 BN=128 BK=128}": (
    "the accesses of test_default_swizzle_is_the_best_candidate_and_conflict_free"
    "[4wave{dtype=fp8 BM=64 BN=64 BK=128}] over the tile of [4wave{dtype=bf16 BM=128 BN=128 "
    "BK=64}]")}


@pytest.mark.parametrize("spec", [pytest.param(s, marks=pytest.mark.long(LONG_SWIZZLE[s]))
                                  if s in LONG_SWIZZLE else s for s in SHIPPED])
def test_default_swizzle_is_the_best_candidate_and_conflict_free(spec):
    """Every candidate XOR swizzle is scored by the bank model: the default has no conflict
    (reads and DMA writes) and no candidate costs fewer cycles; the linear layout conflicts."""
    k = gemm_kernel(parse_pipeline(spec))
    g = k.geometry
    assert k.lds.swizzle == default_swizzle(g.BK * g.elem_bytes) and k.lds.swizzle.span > 1
    ideal = sum(a.worst.ideal for a in kernel_banks(k, kernel_lds(k)).accesses)
    scores = {sw: _score(k.with_swizzle(sw)) for sw in _candidates(g.BK * g.elem_bytes)}
    assert scores[k.lds.swizzle] == (ideal, 0)
    assert min(c for c, _n in scores.values()) == ideal
    linear = scores[LdsSwizzle(1, 1)]
    assert linear[0] > ideal and linear[1] > 0


@pytest.mark.parametrize("spec", ["4wave{dtype=bf16 BM=128 BN=128 BK=128}",
                                  "4wave{dtype=bf16 BM=128 BN=128 BK=32}"])
def test_default_swizzle_other_row_widths(spec):
    """Rows of 256 and 64 bytes (not shipped): the default swizzle is conflict-free too."""
    k = gemm_kernel(parse_pipeline(spec))
    assert _score(k)[1] == 0
    assert _score(k.with_swizzle(LdsSwizzle(1, 1)))[1] > 0


def test_swizzle_rejects():
    with pytest.raises(ConfigError, match="row_div=3 is not a power of two"):
        LdsSwizzle(3, 2)
    with pytest.raises(ConfigError, match="does not divide the 16 rows"):
        LdsSwizzle(4, 8)
    k = gemm_kernel(parse_pipeline("4wave"))
    with pytest.raises(ConfigError, match="span 16 exceeds the 8 chunks"):
        k.with_swizzle(LdsSwizzle(1, 16)).lds


# ---- what the timing model charges -----------------------------------------------------------

def test_measured_table_charges_bank_cycles():
    t = get_table("measured")
    free = t.cost(Instr("ds_read", "ds_read_b128"))
    four = t.cost(Instr("ds_read", "ds_read_b128", bank_cycles=16))
    assert dict(free.queued)["LDS"] == 4 and dict(four.queued)["LDS"] == 16
    assert dict(free.units)["LDS_ISSUE"] == 4 and dict(four.units)["LDS_ISSUE"] == 16
    assert four.latency == free.latency + 12
    assert "priced conflict-free" in free.source and "16 bank cycles" in four.source
    # LLVM's model has no banks
    llvm = get_table("llvm")
    assert llvm.cost(Instr("ds_read", "ds_read_b128", bank_cycles=16)) == \
        llvm.cost(Instr("ds_read", "ds_read_b128"))
    dma = t.cost(Instr("vmem_load_lds", "buffer_load_dwordx4"))
    assert dma.deferred == (("LDS", 8),) and dict(dma.units)["GMEM"] == 16
    hbm = get_table("measured", global_memory="hbm").cost(Instr("vmem_load_lds",
                                                               "buffer_load_dwordx4"))
    assert dict(hbm.units)["GMEM"] == 79
    with pytest.raises(CostError, match="unknown global memory level 'l3'"):
        get_table("measured", global_memory="l3")


def test_dma_write_holds_the_lds_pipe_when_its_data_arrives():
    """The LDS write of a DMA holds the LDS pipe for the last 8 cycles before it completes;
    reads of other waves keep out of that window (one access at a time)."""
    dma = Instr("vmem_load_lds", "buffer_load_dwordx4", origin=("kernel", 0, 0, 0))
    wait = Instr("wait", "s_waitcnt", vm=0)
    alone = simulate_cu([(0, [dma, wait])], "measured")
    assert alone.waves[0].end[0] == 790
    reads = [Instr("ds_read", "ds_read_b128", defs=(f"r{i}",), bank_cycles=16)
             for i in range(40)]
    run = simulate_cu([(0, [dma, wait])] + [(s, reads) for s in (1, 2, 3)], "measured")
    lds = sorted((b for b in run.busy if b.unit == "LDS"), key=lambda b: b.start)
    assert (782, 790) in {(b.start, b.end) for b in lds if b.wave == 0}
    assert len(lds) == 1 + 3 * 40
    for a, b in zip(lds, lds[1:]):
        assert a.end <= b.start


@pytest.mark.parametrize("spec", ["4wave", "pingpong"])
def test_report_shows_every_access(spec):
    rep = simulate_schedule(parse_pipeline(spec), tables=("measured",), iterations=range(0, 2),
                            lds_of=kernel_lds)
    k = gemm_kernel(parse_pipeline(spec))
    banks = kernel_banks(k, kernel_lds(k))
    text = rep.text()
    assert "LDS banks (64 banks x 4 bytes" in text
    reads = [a for a in banks.accesses if a.access.kind == "read"]
    n_conf = sum(1 for a in reads if a.worst.cycles > a.worst.ideal)
    assert (f"fragment reads (ds_read): {len(reads)} instructions per wave, {n_conf} with bank "
            f"conflicts") in text
    # the trace carries the kernel's cycles into the timing model, per access
    t = rep.timing[0]
    want = banks.cycles(0)
    ds = [i for i in t.streams[0][1] if i.kind == "ds_read" and i.origin[0] == "kernel"]
    assert ds and {i.bank_cycles for i in ds} <= set(want.values())
    assert all(i.bank_cycles > 0 for i in ds)
