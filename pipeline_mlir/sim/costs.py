"""Cost tables of the timing models: what an instruction occupies and how long it takes.

Two tables, selected by name with :func:`get_table`:

``llvm``
    LLVM 22's gfx950 SchedModel (``SISchedule.td``) in the units llvm-mca-22 uses.
    Every number below was read from ``llvm-mca-22 -mtriple=amdgcn-amd-amdhsa
    -mcpu=gfx950 -instruction-info -resource-pressure`` (Latency column, resource
    used and cycles) and, for the MFMA result timing, from ``-timeline``.
    One unit is about one 4-clock wave64 issue slot; these
    are compiler heuristics, not clocks.  With this table and one wave the models
    reproduce llvm-mca-22's cycle counts exactly (test/unit/data/mca).
``measured``
    gfx950 clock cycles from measured and sourced numbers (TLX's gfx950 latency
    measurements, MI355X peak rates).  Where no source exists the number is an *assumption*,
    named as such in its ``source`` text (and so in every report built on it).

Unknown instructions.  An MFMA mnemonic that is not in a table is an error
(:class:`CostError`): its pipe occupancy decides every MFMA-bound result and must
not be guessed.  Any other instruction falls back to the documented default class
of its kind (VALU for ``valu``, SALU for ``salu``/``other``);
the table records the mnemonic in :attr:`CostTable.defaulted`, and the models'
results carry that set, so a defaulted number is always visible.

Units.  ``XDL`` (the MFMA pipe), ``VALU``, ``SALU``, ``BRANCH`` and ``LDS_ISSUE``
are per SIMD; ``LDS`` (the CU's LDS data pipe), ``LGKM`` (LLVM's HWLGKM: LDS and
scalar memory issue), ``SMEM`` and ``VMEM`` (the CU's vector memory address
issue) are per CU (:data:`UNIT_SCOPE`).  llvm-mca has one of each
unit (a single wave), so the scope only matters for several waves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.instr import LGKM_KINDS, PSEUDO_KINDS, VM_KINDS, Instr
from pipeline_mlir.sim.lds_banks import lane_width, phases
from pipeline_mlir.target.gfx950 import (IN_FLIGHT, CLOCK_HZ, CUS, CUS_PER_XCD, CYCLES_PER_PASS,
                                         F8F6F4_FORMATS, HBM_BYTES_PER_SECOND,
                                         L2_CHANNEL_BYTES_PER_CLOCK, L2_CHANNELS_PER_XCD,
                                         MFMA, MFMAS, NAME,
                                         MFMA_PASSES, PEAK_FLOPS_PER_CLOCK_PER_CU, WAVE_SIZE,
                                         f8f6f4_cycles, mfma_passes)


class CostError(PipelineError):
    """An instruction a cost table cannot price, or an unknown table name."""


#: where each unit lives: one per SIMD or one per CU
UNIT_SCOPE = {
    "XDL": "simd", "VALU": "simd", "SALU": "simd", "BRANCH": "simd", "LDS_ISSUE": "simd",
    "LDS": "cu", "LGKM": "cu", "VMEM": "cu", "SMEM": "cu", "GMEM": "cu",
}

@dataclass(frozen=True)
class Cost:
    """What one instruction costs under a table.

    ``units``: ``(unit, cycles)`` reservations made at issue (the unit cannot
    start another instruction for ``cycles``).  ``latency``: issue to end (its
    results readable, its vm/lgkm counter entry completed).  ``src_a_late``:
    MFMA only, extra cycles its srcA registers must have been ready (LLVM's
    ``ReadAdvance<MIMFMARead, -4>``).  ``gap``: cycles until the same wave may
    issue its next instruction (1, or ``N+1`` for a measured ``s_nop N``).
    ``cls`` names the cost class, ``source`` says where the numbers come from,
    ``defaulted`` marks a mnemonic priced by its kind's default class.  ``deferred``:
    ``(unit, cycles)`` held at the *end* of the instruction (the LDS write of a
    global->LDS load, when its data arrives); a busy unit delays the completion.
    ``queued``: ``(unit, cycles)`` held from the first free slot at or after issue, without
    holding up the issue (a command FIFO in front of the unit: the LDS pipe behind its
    instruction queue); the time waited in the queue delays the completion.
    """

    cls: str
    units: tuple[tuple[str, int], ...]
    latency: int
    source: str
    src_a_late: int = 0
    gap: int = 1
    defaulted: bool = False
    deferred: tuple[tuple[str, int], ...] = ()
    queued: tuple[tuple[str, int], ...] = ()


# ---------------------------------------------------------------------------
# MFMA shapes

#: llvm-mca-22 gfx950: XDL cycles ("passes") per MFMA mnemonic (-resource-pressure HWXDL;
#: the result is readable ``passes`` cycles after issue, srcA reads 4 later: -timeline):
#: the target's pass counts with the ``f8f6f4`` MFMAs at their narrow rate, which
#: llvm-mca-22 gives every operand format (``mfma_passes`` of ``target/gfx950.py``, whose
#: table says why), and gfx942's 4x4x4 F16 MFMA
LLVM_MFMA_PASSES = {**{n: mfma_passes(n, narrow=True)[0] for n in MFMA_PASSES},
                    "v_mfma_f32_4x4x4_16b_f16": 2}

_TLX = f"TLX AMDLatencyModel.cpp {NAME} measurement"
_PEAK = "inferred from the MI355X peak rate"


def _issue(mnemonic: str) -> int:
    """XDL busy cycles of an MFMA: the target's, from the chip's peak rate."""
    return MFMA[mnemonic].xdl_cycles


_I16, _I16F8 = _issue("v_mfma_f32_16x16x32_bf16"), _issue("v_mfma_f32_16x16x128_f8f6f4")
_ASSUME_LAT = "latency issue + 2: ASSUMPTION"
#: the 16-bit MFMA each gfx942 FP8 shape (by its M) runs at the rate of
_GFX942_TWIN = {16: "16x16x32", 32: "32x32x8"}
#: measured table: MFMA (XDL busy cycles, dependent latency, source)
MEASURED_MFMA = {
    "v_mfma_f32_16x16x32_bf16": (
        _I16, 18, f"issue {_I16} = {_PEAK} (BF16 {PEAK_FLOPS_PER_CLOCK_PER_CU['bf16']} "
                  f"FLOP/clk/CU; TLX measured 16.62 for independent streams); latency 18: {_TLX} "
                  f"18.25"),
    "v_mfma_f32_16x16x32_f16": (
        _issue("v_mfma_f32_16x16x32_f16"), 18,
        f"issue {_issue('v_mfma_f32_16x16x32_f16')} = {_PEAK}; TLX 16.62 independent; latency "
        f"18: {_TLX} 18.25"),
    "v_mfma_f32_16x16x128_f8f6f4": (
        _I16F8, _I16F8 + 2, f"issue {_I16F8} = {_PEAK} (FP8 "
                            f"{PEAK_FLOPS_PER_CLOCK_PER_CU['f8f6f4']} FLOP/clk/CU); latency "
                            f"{_I16F8 + 2} = issue + 2: ASSUMPTION (same overhead as the measured "
                            f"16x16x32)"),
    "v_mfma_i32_16x16x64_i8": (
        _issue("v_mfma_i32_16x16x64_i8"), _issue("v_mfma_i32_16x16x64_i8") + 2,
        f"issue {_issue('v_mfma_i32_16x16x64_i8')} = {_PEAK} (INT8 "
        f"{PEAK_FLOPS_PER_CLOCK_PER_CU['i8']} OP/clk/CU, the FP8 rate); {_ASSUME_LAT}"),
    **{m: (_issue(m), _issue(m) + 2, f"as {m.replace('scale_', '')} ({_PEAK}; latency "
                                     f"ASSUMPTION)")
       for m in ("v_mfma_scale_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4")},
    **{m: (_issue(m), _issue(m) + 2, f"issue {_issue(m)} = {_PEAK}; {_ASSUME_LAT}")
       for m in ("v_mfma_f32_32x32x16_bf16", "v_mfma_f32_32x32x16_f16",
                 "v_mfma_f32_32x32x64_f8f6f4", "v_mfma_i32_32x32x32_i8")},
    # gfx942's 16x16x32 and 32x32x16 FP8 MFMAs at the rate gfx950 keeps for them
    # (target/gfx950.py)
    **{i.mnemonic: (i.xdl_cycles, i.xdl_cycles + 2,
                    f"issue {i.xdl_cycles}: gfx942's rate, the 16-bit {_GFX942_TWIN[i.m]}'s "
                    f"(llvm-mca-22 {i.xdl_cycles // 4} passes); {_ASSUME_LAT}")
       for i in MFMAS if i.operands == "fp8"},
    # the f32 MFMAs (IREE's f32 matmuls), which gfx950 keeps at gfx942's rate: the
    # target's pass counts (target/gfx950.py), llvm-mca-22's gfx950 model (HWXDL 8 and 16)
    **{m: (c, c + 2, f"issue {c}: gfx942's rate, {c // CYCLES_PER_PASS} passes of "
                     f"{CYCLES_PER_PASS} cycles (llvm-mca-22 HWXDL {c // CYCLES_PER_PASS}; "
                     f"ASSUMED the hardware's); {_ASSUME_LAT}")
       for m in ("v_mfma_f32_16x16x4_f32", "v_mfma_f32_32x32x2_f32")
       for c in (mfma_passes(m)[0] * CYCLES_PER_PASS,)},
}

# ---------------------------------------------------------------------------
# the llvm table

#: VALU mnemonics llvm-mca-22 gives latency 4 (conversions and transcendentals), verified
LLVM_VALU4 = frozenset({
    "v_cvt_f32_u32_e32", "v_cvt_u32_f32_e32", "v_rcp_iflag_f32_e32", "v_exp_f32_e32",
})
#: VALU mnemonics that also use the SALU resource in LLVM's model (64-bit multiply-add; 2
#: micro-ops, so the next instruction dispatches 2 cycles later), verified
LLVM_VALU_SALU = frozenset({"v_mad_u64_u32", "v_mad_i64_i32"})
#: VALU/SALU/other mnemonics verified at latency 1 on their unit (the class default)
LLVM_VERIFIED_1 = frozenset("""
v_add_u32_e32 v_and_b32_e32 v_bfe_u32 v_bitop3_b32 v_cmp_gt_u32_e64 v_cmp_gt_u64_e32
v_cmp_lt_i64_e32 v_cmp_lt_u32_e32 v_lshl_add_u32 v_lshl_or_b32 v_lshlrev_b32_e32
v_lshrrev_b32_e32 v_mov_b32_e32 v_mov_b64_e32 v_mul_f32_e32 v_mul_lo_u32 v_or3_b32 v_or_b32_e32
v_readfirstlane_b32 v_subrev_u32_e32 v_fma_f32 v_pk_fma_f32 v_fma_f64 v_accvgpr_read_b32
v_accvgpr_write_b32
s_add_i32 s_add_u32 s_addc_u32 s_addk_i32 s_and_b32 s_and_b64 s_and_saveexec_b64 s_andn2_b64 s_bfe_u32
s_cmp_ge_u32 s_cmp_lg_u64 s_cmp_lt_u32 s_cmpk_lt_u32 s_cselect_b32 s_cselect_b64 s_lshl2_add_u32 s_lshl_b32
s_lshr_b32 s_mov_b32 s_mov_b64 s_movk_i32 s_mul_hi_u32 s_mul_i32 s_or_b64 s_sub_i32
s_endpgm s_trap s_sleep
""".split())

_MCA = f"llvm-mca-22 {NAME} -instruction-info/-resource-pressure"
_FLAT = ("global_", "flat_", "scratch_")


def _llvm_cost(instr: Instr) -> Cost:
    k, n = instr.kind, instr.name
    if k == "mfma":
        p = LLVM_MFMA_PASSES.get(n)
        if p is None:
            raise CostError(_unknown_mfma(instr, "llvm", LLVM_MFMA_PASSES))
        return Cost("mfma", (("XDL", p),), p, f"{_MCA}: HWXDL {p}; srcA ReadAdvance -4",
                    src_a_late=4)
    if k in ("ds_read", "ds_write"):
        return Cost("lds", (("LGKM", 1),), 5, f"{_MCA}: HWLGKM 1, latency 5")
    if k == "smem":
        return Cost("smem", (("LGKM", 1),), 5, f"{_MCA}: HWLGKM 1, latency 5")
    if k in VM_KINDS:
        if k == "vmem_load_lds" and n.startswith(_FLAT):
            return Cost("vmem", (("VMEM", 1), ("LGKM", 1)), 80,
                        f"{_MCA}: HWVMEM 1 + HWLGKM 1, latency 80")
        return Cost("vmem", (("VMEM", 1),), 80, f"{_MCA}: HWVMEM 1, latency 80")
    if k == "barrier":
        return Cost("barrier", (("BRANCH", 1),), 500,
                    f"{_MCA}: HWBranch 1, latency 500 (SISchedule 'Guessed')")
    if k == "branch":
        return Cost("branch", (("BRANCH", 1),), 8, f"{_MCA}: HWBranch 1, latency 8")
    if k in ("wait", "setprio", "nop"):
        return Cost(k, (("SALU", 1),), 1, f"{_MCA}: HWSALU 1, latency 1 (s_nop N: no stall)")
    if k == "valu":
        if n in LLVM_VALU4:
            return Cost("valu4", (("VALU", 1),), 4, f"{_MCA}: HWVALU 1, latency 4")
        if n in LLVM_VALU_SALU:
            return Cost("valu", (("SALU", 1), ("VALU", 1)), 1,
                        f"{_MCA}: HWSALU 1 + HWVALU 1, latency 1, 2 micro-ops (2 issue cycles)",
                        gap=2)
        return Cost("valu", (("VALU", 1),), 1, f"{_MCA}: HWVALU 1, latency 1",
                    defaulted=n not in LLVM_VERIFIED_1)
    if k in ("salu", "other"):
        return Cost("salu", (("SALU", 1),), 1, f"{_MCA}: HWSALU 1, latency 1",
                    defaulted=n not in LLVM_VERIFIED_1)
    raise CostError(f"{_where(instr)}: kind {k!r} has no cost in the llvm table")


# ---------------------------------------------------------------------------
# the measured table

_ASSUME_X4 = "ASSUMPTION: LLVM units x 4 clocks (one wave64 issue slot = 4 clocks)"


def lds_bytes(name: str) -> int:
    """Bytes one wave64 ds instruction moves (``ds_read_b128`` = 1024); 256 if unknown."""
    m = re.search(r"_b(\d+)", name)
    if m and int(m.group(1)) in (8, 16, 32, 64, 96, 128):
        return int(m.group(1)) // 8 * WAVE_SIZE
    return 256


#: the CU's share of L2 bandwidth, bytes per clock: the L2 channels of an XCD times their
#: bytes per clock (AMD CDNA 3 white paper; CDNA 4 keeps 4 MB of L2 per XCD, the channel
#: count and width are an ASSUMPTION) shared by the CUs of an XCD (ROCm GPU specs)
L2_BYTES_PER_CLOCK_PER_CU = L2_CHANNELS_PER_XCD * L2_CHANNEL_BYTES_PER_CLOCK // CUS_PER_XCD
#: the CU's share of HBM bandwidth, bytes per clock: the MI355X's HBM bandwidth (launch
#: figures) over its CUs at the peak clock (AMD Hot Chips 2025)
HBM_BYTES_PER_CLOCK_PER_CU = HBM_BYTES_PER_SECOND / (CUS * CLOCK_HZ)
GLOBAL_LEVELS = {
    "l2": (L2_BYTES_PER_CLOCK_PER_CU,
           f"the CU's share of L2 bandwidth, {L2_BYTES_PER_CLOCK_PER_CU} B/clock "
           f"({L2_CHANNELS_PER_XCD} channels x {L2_CHANNEL_BYTES_PER_CLOCK} B/clock per XCD, "
           f"CDNA 3 white paper, assumed unchanged on CDNA 4, over {CUS_PER_XCD} CUs per XCD)"),
    "hbm": (HBM_BYTES_PER_CLOCK_PER_CU,
            f"the CU's share of HBM bandwidth, {HBM_BYTES_PER_CLOCK_PER_CU:.0f} B/clock "
            f"({HBM_BYTES_PER_SECOND / 1e12:.1f} TB/s over {CUS} CUs at {CLOCK_HZ / 1e9:g} GHz): "
            "every byte missing L2 and the memory-side cache"),
}


#: measured table: cycles from a global load's (or DMA's, or store's) issue to its data
#: (TLX AMDLatencyModel's 'conservative estimate' for a global load)
MEASURED_GLOBAL_LATENCY = 790


#: measured table: cycles one DS instruction holds its SIMD's LDS issue (``LDS_ISSUE``)
MEASURED_LDS_ISSUE = 4
_LDS_ISSUE_SOURCE = (
    "a SIMD issues at most one LDS instruction per 4 clocks: the CU's scheduler serves one "
    "SIMD per clock in turn and issues at most one instruction of each category (VALU, VMEM, "
    "SALU/SMEM, LDS, branch) per turn (AMD ROCm Compute Profiler, CDNA pipeline descriptions, "
    "'Scheduler'); TLX's 28 cycles per read with four streams is four chains of dependent reads, "
    "bound by their latency, which its authors say does not establish the issue rate; the "
    "SIMD-pair LDS ports of CDNA3 (64 B/clock each) are not modelled: CDNA4's port width is "
    "not published (ASSUMPTION: they keep up with the 256 B/clock read rate)")
_LDS_QUEUE_SOURCE = (
    f"taken in issue order behind the LDS command FIFO ({NAME} counts the cycles 'LDS command "
    "FIFO is full', SQ_LDS_CMD_FIFO_FULL: the scheduler hands LDS instructions to a queue and "
    "stalls only when it is full; its depth is not published, ASSUMPTION: never full, a wave "
    "has at most 15 LDS instructions outstanding); the wait in the queue delays completion")


def _bank(instr: Instr, write: bool) -> tuple[int, int, str]:
    """(cycles, ideal cycles, text) of an LDS access under the bank model: the access's
    known ``bank_cycles``, else the ideal (conflict-free) number of phases."""
    width = lane_width(instr.name)
    groups, _src = phases(write, width)
    ideal = len(groups)
    if instr.bank_cycles:
        extra = instr.bank_cycles - ideal
        why = (f"{instr.bank_cycles} bank cycles from its lane addresses ({ideal} "
               f"conflict-free)" if extra else f"{ideal} bank cycles, conflict-free from its "
               f"lane addresses")
        return instr.bank_cycles, ideal, why
    return ideal, ideal, f"{ideal} bank cycles (lane addresses unknown: priced conflict-free)"


def _f8f6f4_cost(instr: Instr) -> Cost | None:
    """The measured cost of an ``f8f6f4`` MFMA whose operands are both FP6/FP4 (half its
    FP8 cycles, the chip's fact); None for FP8 operands or another MFMA."""
    n, fmt = instr.name, instr.formats
    if fmt is None or n not in MFMA or MFMA[n].operands != "f8f6f4":
        return None
    cyc = f8f6f4_cycles(MFMA[n], *fmt)
    if cyc == MFMA[n].xdl_cycles:
        return None
    names = "/".join(F8F6F4_FORMATS[f][0].upper() for f in fmt)
    return Cost("mfma", (("XDL", cyc),), cyc + 2,
                f"issue {cyc} with {names} operands (cbsz {fmt[0]}, blgp {fmt[1]}): half the "
                f"FP8 count, 'larger cycle count if either matrix A or B is FP8' (AMD ROCm blog, "
                f"Matrix Core Programming on CDNA3 and CDNA4); latency issue + 2: ASSUMPTION")


def _measured_cost(instr: Instr, global_bpc: float, global_src: str) -> Cost:
    k, n = instr.kind, instr.name
    if k == "mfma":
        narrow = _f8f6f4_cost(instr)
        if narrow is not None:
            return narrow
        if n in MEASURED_MFMA:
            occ, lat, src = MEASURED_MFMA[n]
            return Cost("mfma", (("XDL", occ),), lat, src)
        p = LLVM_MFMA_PASSES.get(n)
        if p is None:
            raise CostError(_unknown_mfma(instr, "measured", MEASURED_MFMA))
        return Cost("mfma", (("XDL", 4 * p),), 4 * p + 2,
                    f"LLVM passes {p} x 4 clocks + 2: ASSUMPTION (no {NAME} measurement)",
                    defaulted=True)
    if k in ("ds_read", "ds_write"):
        lds, ideal, why = _bank(instr, k == "ds_write")
        extra = lds - ideal
        return Cost("lds", (("LDS_ISSUE", MEASURED_LDS_ISSUE + extra),), 69 + extra,
                    f"latency 69 (dependent ds_read_b32 chain): {_TLX}, applied to every ds op "
                    f"(ASSUMPTION); {_LDS_ISSUE_SOURCE}; CU LDS pipe: {why} (sim/lds_banks.py), "
                    f"{_LDS_QUEUE_SOURCE}; each conflict cycle adds one cycle to latency and SIMD "
                    f"issue (ASSUMPTION)", queued=(("LDS", lds),))
    if k == "smem":
        return Cost("smem", (("SMEM", 1),), 20, f"latency 20: {_ASSUME_X4}")
    if k in VM_KINDS:
        width = lane_width(n) if re.search(r"dword|_b\d+", n) else 4
        gcyc = max(1, round(width * WAVE_SIZE / global_bpc))
        src = (f"latency {MEASURED_GLOBAL_LATENCY}: {_TLX} ('conservative estimate' for a "
               "global load, used for "
               "buffer/global loads, DMA to LDS and stores); VMEM address issue 4 cycles per "
               f"wave64 instruction: ASSUMPTION ({WAVE_SIZE} lanes at 16 lanes/clock); GMEM "
               f"{gcyc} cycles = {width * WAVE_SIZE} bytes at {global_src}")
        if k == "vmem_load_lds":
            lds, _ideal, why = _bank(instr, True)
            return Cost("vmem", (("VMEM", 4), ("GMEM", gcyc)), MEASURED_GLOBAL_LATENCY,
                        src + f"; its LDS write holds the CU LDS pipe {lds} cycles when the data "
                        f"arrives: {why} (sim/lds_banks.py)", deferred=(("LDS", lds),))
        return Cost("vmem", (("VMEM", 4), ("GMEM", gcyc)), MEASURED_GLOBAL_LATENCY, src)
    if k == "barrier":
        return Cost("barrier", (("BRANCH", 1),), 1,
                    "ASSUMPTION: no sourced number; the wave resumes MEASURED_BARRIER_RESUME "
                    "cycles after the last wave of the workgroup arrives")
    if k == "branch":
        return Cost("branch", (("BRANCH", 1),), 32, f"latency 32 (ends only; nothing waits on "
                                                    f"it): {_ASSUME_X4}")
    if k == "nop":
        return Cost("nop", (("SALU", 1),), instr.value + 1,
                    "s_nop N idles the wave N+1 cycles (CDNA ISA: N+1 wait states)",
                    gap=instr.value + 1)
    if k in ("wait", "setprio"):
        return Cost(k, (("SALU", 1),), 1, "1 issue cycle: ASSUMPTION")
    if k == "valu":
        if n in LLVM_VALU4:
            return Cost("valu4", (("VALU", 4),), 16,
                        f"VALU 4 clocks per wave64 op (16-lane SIMD): ASSUMPTION; latency 16: "
                        f"{_ASSUME_X4}")
        return Cost("valu", (("VALU", 4),), 8,
                    f"latency 8: {_TLX} (VALU FMA); 4 clocks per wave64 op (16-lane SIMD): "
                    "ASSUMPTION", defaulted=n not in LLVM_VERIFIED_1)
    if k in ("salu", "other"):
        return Cost("salu", (("SALU", 1),), 4, f"latency 4: {_ASSUME_X4}",
                    defaulted=n not in LLVM_VERIFIED_1)
    raise CostError(f"{_where(instr)}: kind {k!r} has no cost in the measured table")


#: cycles after the last arrival at an s_barrier until the waves issue again (measured table)
MEASURED_BARRIER_RESUME = 4


def _where(instr: Instr) -> str:
    return f"instruction {instr.name!r} ({'/'.join(map(str, instr.origin)) or 'no origin'})"


def _unknown_mfma(instr: Instr, table: str, known) -> str:
    return (f"{_where(instr)}: MFMA mnemonic {instr.name!r} is not in the {table} cost table "
            f"(known: {', '.join(sorted(known))})")


# ---------------------------------------------------------------------------

@dataclass
class CostTable:
    """A named cost table.

    ``barrier_resume``: cycles from the last arrival at an ``s_barrier`` until the
    waves may issue again (llvm: 1, the next cycle, as llvm-mca issues the next
    instruction).  ``in_order_counters``: completions of one counter are retired
    in issue order (hardware) rather than each on its own (llvm-mca's
    CustomBehaviour, which counts the executed instructions; identical unless
    latencies of one counter differ) and a wave's counter holds at most its capacity
    (:data:`~pipeline_mlir.target.gfx950.IN_FLIGHT`): an instruction that would exceed
    it issues only when the oldest in flight has completed (hardware; llvm-mca has no
    such limit).  ``defaulted`` collects the mnemonics this table priced by their
    kind's default class.
    """

    name: str
    description: str
    barrier_resume: int
    in_order_counters: bool
    _price: object = field(repr=False, default=None)
    defaulted: set[str] = field(default_factory=set)
    _cache: dict = field(default_factory=dict, repr=False)

    def cost(self, instr: Instr) -> Cost:
        """The cost of ``instr`` (pseudo instructions cost nothing)."""
        key = (instr.kind, instr.name, instr.value if instr.kind == "nop" else 0,
               instr.bank_cycles, instr.formats)
        c = self._cache.get(key)
        if c is None:
            if instr.kind in PSEUDO_KINDS:
                c = Cost(instr.kind, (), 0, "compiler fence: issues nothing", gap=0)
            else:
                c = self._price(instr)
            if c.defaulted:
                self.defaulted.add(instr.name)
            self._cache[key] = c
        return c


def get_table(name: str, global_memory: str = "l2") -> CostTable:
    """A fresh cost table by name: ``llvm`` or ``measured``.

    ``global_memory`` (measured table): the bandwidth a CU's global loads share,
    ``l2`` (its share of L2, the default: a GEMM's tiles are re-read from L2) or
    ``hbm`` (its share of HBM: every byte from memory).  The llvm table is LLVM's
    model, which has neither LDS banks nor a bandwidth limit."""
    if global_memory not in GLOBAL_LEVELS:
        raise CostError(f"unknown global memory level {global_memory!r} (levels: "
                        f"{', '.join(GLOBAL_LEVELS)})")
    if name == "llvm":
        return CostTable("llvm", f"LLVM 22 {NAME} SchedModel units (as llvm-mca-22)", 1, False,
                         _llvm_cost)
    if name == "measured":
        bpc, src = GLOBAL_LEVELS[global_memory]
        return CostTable("measured", f"{NAME} clock cycles (measured/sourced: TLX latencies, "
                         "MI355X peak rates; assumptions marked)", MEASURED_BARRIER_RESUME, True,
                         lambda ins: _measured_cost(ins, bpc, src))
    raise CostError(f"unknown cost table {name!r} (tables: {', '.join(TABLES)})")


TABLES = ("llvm", "measured")
#: the unit each cost table counts cycles in
TABLE_UNITS = {"llvm": "LLVM SchedModel units", "measured": f"{NAME} clock cycles"}


def is_flat(instr: Instr) -> bool:
    """A FLAT-encoded memory instruction (llvm-mca also counts these on lgkmcnt)."""
    return instr.kind in VM_KINDS and instr.name.startswith(_FLAT)


def counter_incs(instr: Instr, mca_flat_lgkm: bool) -> tuple[int, int]:
    """(vm, lgkm) increments of ``instr``; FLAT ops count on lgkm too if ``mca_flat_lgkm``."""
    vm = 1 if instr.kind in VM_KINDS else 0
    lgkm = 1 if instr.kind in LGKM_KINDS or (mca_flat_lgkm and vm and is_flat(instr)) else 0
    return vm, lgkm


def src_a(instr: Instr) -> tuple[str, ...]:
    """An MFMA's srcA registers/values: the ``src_a`` field of an assembly-derived
    instruction (:class:`pipeline_mlir.sim.timing.AsmTimedInstr`), else the first use
    (schedule traces list one value per operand, A first)."""
    if instr.kind != "mfma":
        return ()
    given = getattr(instr, "src_a", None)
    if given is not None:
        return tuple(given)
    return instr.uses[:1]


@dataclass(slots=True)
class Op:
    """An instruction prepared for a timing model (its cost looked up once)."""

    instr: Instr
    cost: Cost
    units: tuple[tuple[str, int], ...]
    latency: int
    gap: int
    defs: tuple[str, ...]
    uses: tuple[str, ...]
    late: frozenset          # srcA values read ``late_by`` cycles late
    late_by: int
    vm_inc: int
    lgkm_inc: int
    pseudo: bool
    deferred: tuple[tuple[str, int], ...] = ()
    queued: tuple[tuple[str, int], ...] = ()


def prepare(instrs, table: CostTable, mca_flat_lgkm: bool = False) -> list[Op]:
    """:class:`Op` records of ``instrs`` under ``table``."""
    out = []
    for ins in instrs:
        c = table.cost(ins)
        vm, lgkm = counter_incs(ins, mca_flat_lgkm)
        late = frozenset(src_a(ins)) if c.src_a_late else frozenset()
        out.append(Op(ins, c, c.units, c.latency, c.gap, ins.defs, ins.uses, late,
                      c.src_a_late, vm, lgkm, ins.kind in PSEUDO_KINDS, c.deferred, c.queued))
    return out


def capacity_release(vmq: list[int], lgkmq: list[int], op: Op, t: int) -> int:
    """Earliest cycle >= ``t`` at which ``op``'s counters have room for it: at most
    the capacity less its increment of each still executing (a table with
    ``in_order_counters``)."""
    vm, lgkm = IN_FLIGHT["vm"] - op.vm_inc, IN_FLIGHT["lgkm"] - op.lgkm_inc
    return max(wait_release(vmq, vm, t) if op.vm_inc else t,
               wait_release(lgkmq, lgkm, t) if op.lgkm_inc else t)


def wait_release(queue: list[int], n: int | None, t: int) -> int:
    """Earliest cycle >= ``t`` at which at most ``n`` of the completion times in
    ``queue`` lie in the future (``None``: no wait)."""
    if n is None:
        return t
    live = sorted(d for d in queue if d > t)
    if len(live) > n:
        return live[len(live) - n - 1]
    return t
