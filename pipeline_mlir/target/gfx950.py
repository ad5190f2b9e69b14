"""gfx950 (AMD Instinct MI355X, CDNA 4): every fact about the chip the tree uses.

The rest of the tree reads these names (or :data:`TARGET`, the same facts as one
:class:`~pipeline_mlir.target.model.Target`) instead of writing a number or the chip's
name itself.  Where a fact comes from:

* processor, triple, ``e_flags``: LLVM's AMDGPU target (``-mcpu=gfx950``,
  ``EF_AMDGPU_MACH_AMDGCN_GFX950`` = 0x4F);
* waves, SIMDs, registers, occupancy: the CDNA 3/CDNA 4 ISA guides and LLVM's
  ``AMDGPUBaseInfo`` (the SGPR rule is gfx9's ``getNumWavesPerEUWithNumSGPRs``);
* ``s_waitcnt``: the gfx9 immediate (vmcnt 6 bits split 4 + 2, expcnt 3, lgkmcnt 4);
* LDS: 160 KiB per CU, 64 banks of 4 bytes, 256 bytes read / 128 written per clock (the
  simulator's bank model, :mod:`pipeline_mlir.sim.lds_banks`, gives the measurements);
* MFMA: mnemonics and shapes from LLVM's gfx950 instruction set, the matrix unit's cycles
  from the MI355X peak rates (dense BF16/F16 4096, FP8 8192 FLOP and INT8 8192 OP per clock
  per CU: AMD's MI355X specifications list 5.0 PFLOPS dense FP8 and 5.0 POPS dense INT8), the
  ``f8f6f4`` MFMAs twice as fast with FP6/FP4 operands (AMD's CDNA 4 matrix-core blog);
* the product: 256 CUs (32 per XCD) at up to 2.4 GHz, 8.0 TB/s of HBM, L2 of 16
  channels x 128 bytes per clock per XCD (CDNA 3's figure, assumed unchanged).
"""

from __future__ import annotations

from pipeline_mlir.target.model import Mfma, Target, WaitCounter

#: the processor name (LLVM's ``-mcpu``, ``pipeline-opt --mcpu``)
NAME = "gfx950"
PRODUCT = "MI355X"
TRIPLE = "amdgcn-amd-amdhsa"
#: LLVM target features the kernels are compiled with (none beyond the processor's own)
LLVM_FEATURES = ""
#: the kernel (``gpu.func``) attribute asking LLVM to keep this many AGPRs for the MFMA
#: accumulators (``sched-extract-device-module`` makes it ``"amdgpu-agpr-alloc"``; the
#: codegen step then keeps vector PHIs whole, ``pipeline_mlir.isa.codegen``)
AGPR_ALLOC_ATTR = "sched.agpr_alloc"
#: the kernel attribute asking LLVM for at least this many waves per SIMD
#: (``sched-extract-device-module`` makes it ``"amdgpu-waves-per-eu"``; upstream MLIR's
#: ROCDL translation, IREE's among them, reads it too)
WAVES_PER_EU_ATTR = "rocdl.waves_per_eu"
#: a kernel's unit attribute saying its MMAs interleave their AGPR accumulators' K steps
#: (``GemmKernel.k_outer_mfmas``); ``sched-extract-device-module`` makes it the LLVM function
#: attribute ``K_OUTER_MFMAS_LLVM`` (which LLVM ignores), on which the codegen step reverses
#: the greedy allocator's order of local live ranges (``pipeline_mlir.isa.codegen``)
K_OUTER_MFMAS_ATTR = "sched.k_outer_mfmas"
#: a kernel's unit attribute saying that every buffer copy it makes stays within its
#: buffer's records for every launch its launcher accepts (the shipped kernels:
#: ``kernel/launch.py`` ``check_launch`` refuses sizes that are not whole tiles);
#: ``sched-buffer-soffset`` then splits its copies' offsets without proving it itself
#: (whether the range check counts ``soffset`` cannot change an in-range access)
COPIES_IN_RANGE_ATTR = "sched.copies_in_range"
K_OUTER_MFMAS_LLVM = "sched-k-outer-mfmas"
#: ``EF_AMDGPU_MACH_AMDGCN_GFX950``: the low byte of a gfx950 code object's ``e_flags``
ELF_MACH = 0x4F

# ---- waves, SIMDs, registers, occupancy ----------------------------------------------------
WAVE_SIZE = 64
SIMDS_PER_CU = 4
MAX_WAVES_PER_SIMD = 8
#: the most work-items one workgroup may have (LLVM's AMDGPU default and upper bound of
#: ``amdgpu-flat-work-group-size``; HIP's ``maxThreadsPerBlock`` on CDNA): 16 waves of 64
MAX_WORKGROUP_THREADS = 1024
#: the waves of the largest workgroup
MAX_WAVES = MAX_WORKGROUP_THREADS // WAVE_SIZE


def waves_of_threads(threads: int) -> int:
    """The waves a workgroup of ``threads`` work-items runs in (the last one partly filled)."""
    return -(-threads // WAVE_SIZE)


def wave_count(waves: float) -> str:
    """The one spelling of a number of waves in messages and reports: '1 wave', '4 waves',
    '1.5 waves' (``threads / WAVE_SIZE`` of a workgroup that is not whole waves)."""
    return f"{waves:g} wave{'' if waves == 1 else 's'}"

#: VGPRs per lane: one unified file holds the architected and the accumulation VGPRs
VGPRS = 512
#: of which the architected VGPRs (``v0..v255``); the rest are the AGPRs (``a0..a255``)
ARCH_VGPRS = 256
#: VGPRs are allocated in blocks of this many (``COMPUTE_PGM_RSRC1.VGPRS`` counts blocks)
VGPR_GRANULE = 8
#: bytes one lane moves in the widest memory instruction (``buffer_load_dwordx4``,
#: ``ds_read_b128``)
WIDEST_ACCESS_BYTES = 16


def tr_source(lane, element, per_lane):
    """The lane exchange of gfx950's 64-bit transposing LDS reads (CDNA 4 ISA, the
    transposing LDS reads): the (lane, element of its 8 bytes) whose value lane ``lane``
    receives as its element ``element``, for ``per_lane`` elements of 8 bytes each (4:
    ``ds_read_b64_tr_b16``, 8: ``ds_read_b64_tr_b8``).  In a 16-lane group, lane ``l``
    receives column ``l`` of the ``per_lane`` x 16 tile whose row ``e`` the
    ``16 / per_lane`` lanes from ``16 / per_lane * e`` on hold, in lane order.  Plain
    arithmetic: integers or numpy arrays (broadcast)."""
    row_lanes = 16 // per_lane
    return ((lane // 16) * 16 + row_lanes * element + (lane % 16) // per_lane,
            lane % per_lane + 0 * element)


#: the accumulation VGPRs start at a multiple of this (``COMPUTE_PGM_RSRC3.ACCUM_OFFSET``)
ACCUM_OFFSET_GRANULE = 4
#: waves per SIMD the SGPRs allow: ``(most SGPRs, waves)``, first match; more: the last
SGPR_WAVES = ((80, 10), (88, 9), (100, 8))
SGPR_WAVES_ABOVE = 7

# ---- LDS ------------------------------------------------------------------------------------
#: bytes of LDS per CU, all of which one workgroup may allocate
LDS_BYTES = 160 * 1024
LDS_BANKS = 64
LDS_BANK_BYTES = 4
#: bytes per lane a direct-to-LDS copy (buffer/global load ... lds) moves: the sizes IREE's
#: gfx950 target description lists (``dma_sizes = [32, 128]`` bits)
LDS_DMA_BYTES = (4, 16)

#: a buffer resource's 16-bit stride field (bits 48-63, the high half of its second dword):
#: the record stride in bits 0-13 (descriptor bits 48-61), then the cache-swizzle bit 14
#: (bit 62: swizzles the L1 cache's banks, a placement in the cache, not an address) and the
#: swizzle-enable bit 15 (bit 63: swizzled addressing).  MLIR's ``amdgpu.fat_raw_buffer_cast
#: cacheSwizzleStride`` sets bit 14 and the stride on gfx942 and later (AMDGPUToROCDL's
#: ``makeBufferRsrc``), and LLVM's buffer fat pointers, whose accesses are byte offsets
#: range-checked against ``num_records`` bytes, may use that cache swizzle (AMDGPUUsage,
#: "Buffer Fat Pointer"): with it, an access without an index is addressed as a raw one.
BUFFER_STRIDE_MASK = 0x3FFF
BUFFER_CACHE_SWIZZLE_BIT = 14
BUFFER_SWIZZLE_ENABLE_BIT = 15
#: bytes the LDS reads / writes per clock (a row of banks; writes at half rate)
LDS_READ_BYTES_PER_CLOCK = 256
LDS_WRITE_BYTES_PER_CLOCK = 128

# ---- s_waitcnt --------------------------------------------------------------------------------
VMCNT = WaitCounter("vmcnt", "vector memory operations", ((0, 4), (14, 2)))
EXPCNT = WaitCounter("expcnt", "exports and GDS", ((4, 3),))
LGKMCNT = WaitCounter("lgkmcnt", "LDS, GDS, scalar memory and message operations", ((8, 4),))
COUNTERS = (VMCNT, EXPCNT, LGKMCNT)
#: the largest count each counter holds: a wait for more outstanding operations cannot be
#: encoded (an error, never clamped); the maximum itself means "do not wait"
VMCNT_MAX, EXPCNT_MAX, LGKMCNT_MAX = VMCNT.max, EXPCNT.max, LGKMCNT.max
#: the most instructions of each counter a wave has in flight: the counter is as wide as its
#: wait field and never wraps; issuing one more stalls the wave until the oldest completes
#: (the capacity AMD's own wait checker for CDNA3/CDNA4, rocjitsu, models: lgkmcnt 15,
#: vmcnt 63).  So more loads than that issued without a wait are no hazard: LLVM's
#: SIInsertWaitcnts bounds no count of pending operations (IREE's LLVM-built kernels leave
#: up to 48 LDS reads unwaited) and waits for at most ``max - 1``, since the all-ones field
#: means "do not wait"; with at most ``max`` in flight, waiting for ``max`` waits for nothing
#: anyway.
IN_FLIGHT = {"vm": VMCNT_MAX, "lgkm": LGKMCNT_MAX}

# ---- MFMA ---------------------------------------------------------------------------------
#: dense peak FLOP (OP for ``i8``) per clock per CU by MFMA operand format (``f8f6f4`` with FP8
#: operands).  INT8 runs at the FP8 rate: AMD's MI355X specifications give 5.0 POPS dense
#: INT8 and 5.0 PFLOPS dense FP8 (256 CUs x 2.4 GHz x 8192 = 5.03e15); FP32 matrix 157.3
#: TFLOPS (x 256: the 16x16x4 f32 MFMA's 8 passes, LLVM 22's gfx950 model)
PEAK_FLOPS_PER_CLOCK_PER_CU = {"f32": 256, "bf16": 4096, "f16": 4096, "f8f6f4": 8192,
                               "i8": 8192}


def _mfma(mnemonic: str, m: int, n: int, k: int, operands: str, scaled: bool = False) -> Mfma:
    per_simd = PEAK_FLOPS_PER_CLOCK_PER_CU[operands] // SIMDS_PER_CU
    return Mfma(mnemonic, m, n, k, operands, 2 * m * n * k // per_simd, scaled)


MFMAS = (
    _mfma("v_mfma_f32_16x16x32_bf16", 16, 16, 32, "bf16"),
    _mfma("v_mfma_f32_16x16x32_f16", 16, 16, 32, "f16"),
    _mfma("v_mfma_f32_16x16x128_f8f6f4", 16, 16, 128, "f8f6f4"),
    _mfma("v_mfma_i32_16x16x64_i8", 16, 16, 64, "i8"),
    _mfma("v_mfma_scale_f32_16x16x128_f8f6f4", 16, 16, 128, "f8f6f4", scaled=True),
    _mfma("v_mfma_f32_32x32x16_bf16", 32, 32, 16, "bf16"),
    _mfma("v_mfma_f32_32x32x16_f16", 32, 32, 16, "f16"),
    _mfma("v_mfma_f32_32x32x64_f8f6f4", 32, 32, 64, "f8f6f4"),
    _mfma("v_mfma_i32_32x32x32_i8", 32, 32, 32, "i8"),
    _mfma("v_mfma_scale_f32_32x32x64_f8f6f4", 32, 32, 64, "f8f6f4", scaled=True),
    # gfx942's 32x32x8, which gfx950 keeps at its old rate: 8 passes of 4 cycles, the time of
    # the 32x32x16 for half the K (llvm-mca-22's gfx950 model; ASSUMED the hardware's)
    Mfma("v_mfma_f32_32x32x8_bf16", 32, 32, 8, "bf16", 32),
    Mfma("v_mfma_f32_32x32x8_f16", 32, 32, 8, "f16", 32),
    # gfx942's 16x16x16, which gfx950 keeps at its old rate: 4 passes of 4 cycles, the time
    # of the 16x16x32 for half the K (llvm-mca-22's gfx950 model; ASSUMED the hardware's);
    # issued where the front end halves a loop's MFMAs along K (frontend/half_k.py) and for
    # a kernel's own (IREE's tiny f16 and bf16 problems)
    Mfma("v_mfma_f32_16x16x16_bf16", 16, 16, 16, "bf16", 16),
    Mfma("v_mfma_f32_16x16x16_f16", 16, 16, 16, "f16", 16),
    # gfx942's 16x16x32 FP8/BF8 MFMAs (the operand formats in the mnemonic: ``fp8`` E4M3FN,
    # ``bf8`` E5M2; A's first), which gfx950 keeps at their old rate: 4 passes of 4 cycles,
    # the time of the 16-bit 16x16x32 (llvm-mca-22's gfx950 model; ASSUMED the hardware's);
    # IREE picks them for fp8 K-loops whose K step is 32 (docs/iree-configurations.md)
    *(Mfma(f"v_mfma_f32_16x16x32_{a}_{b}", 16, 16, 32, "fp8", 16)
      for a in ("fp8", "bf8") for b in ("fp8", "bf8")),
    # and gfx942's 32x32x16 FP8/BF8 MFMAs, kept at their old rate too: 8 passes of 4 cycles,
    # the time of the 32x32x8 16-bit ones (llvm-mca-22's gfx950 model: HWXDL 8; ASSUMED the
    # hardware's); IREE picks them for fp8 K-loops whose K step is 16 (K an odd multiple of
    # 16: docs/iree-configurations.md)
    *(Mfma(f"v_mfma_f32_32x32x16_{a}_{b}", 32, 32, 16, "fp8", 32)
      for a in ("fp8", "bf8") for b in ("fp8", "bf8")),
    # gfx942's 16x16x32 and 32x32x16 i8, which gfx950 keeps at their old rate: 4 and 8
    # passes of 4 cycles, the time of the deep forms for half the K (llvm-mca-22's gfx950
    # model; ASSUMED the hardware's); issued where the front end halves a loop's MFMAs
    # along K (frontend/half_k.py) and for a kernel's own (IREE's tiny i8 problems)
    Mfma("v_mfma_i32_16x16x32_i8", 16, 16, 32, "i8", 16),
    Mfma("v_mfma_i32_32x32x16_i8", 32, 32, 16, "i8", 32),
    # the f32 MFMA (CDNA's since gfx908, one f32 of A and of B a lane), IREE's
    # ``MFMA_F32_16x16x4_F32`` for every f32 matmul; not an XDL one (_OTHER_MFMA_PASSES)
    _mfma("v_mfma_f32_16x16x4_f32", 16, 16, 4, "f32"),
)
#: each MFMA by mnemonic
MFMA = {i.mnemonic: i for i in MFMAS}
#: the MFMA the kernels issue for each element type: the 16x16 one with gfx950's deepest K
MFMA_BY_DTYPE = {"bf16": MFMA["v_mfma_f32_16x16x32_bf16"],
                 "f16": MFMA["v_mfma_f32_16x16x32_f16"],
                 "fp8": MFMA["v_mfma_f32_16x16x128_f8f6f4"],
                 "mxfp4": MFMA["v_mfma_scale_f32_16x16x128_f8f6f4"],
                 "mxfp8": MFMA["v_mfma_scale_f32_16x16x128_f8f6f4"],
                 "i8": MFMA["v_mfma_i32_16x16x64_i8"], "f32": MFMA["v_mfma_f32_16x16x4_f32"]}

#: the operand formats (``Mfma.operands``) of the MFMAs a kernel of each element type may
#: issue besides its own's: FP8 also gfx942's 16x16x32 and 32x32x16 ones, whose formats their
#: mnemonic names
DTYPE_OPERANDS = {"fp8": ("f8f6f4", "fp8")}


#: i8's gfx942 halves, which the 4-wave schedule issues (a loop whose MFMAs the front end
#: halved along K, ``frontend/half_k.py``, or a kernel's own: IREE picks the 32x32x16 for
#: tiny i8 problems) and the ping-pong one does not (``dtype_mfmas``' ``halves``)
HALF_K_ONLY = frozenset({"v_mfma_i32_16x16x32_i8", "v_mfma_i32_32x32x16_i8"})


def dtype_mfmas(dtype: str, halves: bool = False) -> dict[str, Mfma]:
    """The unscaled MFMAs a kernel of ``dtype`` may issue, by shape ``MxNxK`` (its own
    first; of gfx942's 16x16x32 and 32x32x16 FP8 forms the E4M3 one, whose shape stands for
    all four);
    those of :data:`HALF_K_ONLY` only with ``halves`` (the 4-wave schedule's)."""
    own = MFMA_BY_DTYPE[dtype]
    formats = DTYPE_OPERANDS.get(dtype, (own.operands,))
    shapes = {f"{own.m}x{own.n}x{own.k}": own}
    for i in MFMAS:
        if i.mnemonic in HALF_K_ONLY and not halves:
            continue
        if i.operands in formats and not i.scaled:
            shapes.setdefault(f"{i.m}x{i.n}x{i.k}", i)
    return shapes


#: the format codes (:data:`F8F6F4_FORMATS`'s: 0 E4M3, 1 E5M2) of the words gfx942's FP8
#: MFMA mnemonics name their A and B formats by
FP8_MNEMONIC_FORMATS = {"fp8": 0, "bf8": 1}


def fp8_mnemonic_formats(mnemonic: str) -> tuple[int, int] | None:
    """(A, B) format codes of a gfx942 FP8 MFMA (``..._fp8_bf8``: E4M3 A, E5M2 B), None
    for any other MFMA."""
    entry = MFMA.get(mnemonic)
    if entry is None or entry.operands != "fp8":
        return None
    a, b = mnemonic.rsplit("_", 2)[1:]
    return FP8_MNEMONIC_FORMATS[a], FP8_MNEMONIC_FORMATS[b]


#: the operand formats of the ``f8f6f4`` MFMAs by their cbsz (A) / blgp (B) code: (name,
#: bits per element).  "0 = E4M3 (fp8), 1 = E5M2 (bf8), 2 = E2M3 (fp6), 3 = E3M2 (bf6),
#: 4 = E2M1 (fp4)" (AMD ROCm blog "Matrix Core Programming on AMD CDNA3 and CDNA4
#: architecture", 2025, on the ``Atype``/``Btype`` arguments; LLVM's cbsz/blgp fields)
F8F6F4_FORMATS = {0: ("e4m3", 8), 1: ("e5m2", 8), 2: ("e2m3", 6), 3: ("e3m2", 6),
                  4: ("e2m1", 4)}
#: elements one E8M0 block scale covers (OCP Microscaling Formats (MX) v1.0, the block size
#: k = 32 of every concrete MX format; the scaled MFMAs take one scale per 32 K values)
MX_BLOCK = 32
#: how much faster the ``f8f6f4`` MFMAs run when neither operand is 8-bit: "16x16x128: 16 or
#: 32 cycles, 32x32x64: 32 or 64 ... Larger cycle count if either matrix A or B is FP8" (the
#: same AMD blog's MFMA table); ``xdl_cycles`` of those MFMAs is the FP8 count
F8F6F4_NARROW_SPEEDUP = 2


def f8f6f4_narrow(a_format: int, b_format: int) -> bool:
    """Does an ``f8f6f4`` MFMA with these operand format codes (cbsz, blgp) run at the
    narrow rate (:data:`F8F6F4_NARROW_SPEEDUP` times faster)?  When neither operand is
    8-bit (E4M3/E5M2): both FP6/FP4.  A code outside :data:`F8F6F4_FORMATS` counts as
    8-bit.  The one statement of the rule: :func:`f8f6f4_cycles`, :func:`mfma_passes`
    (``narrow``) and the emulator's wait states read it."""
    return all(F8F6F4_FORMATS.get(f, ("", 8))[1] < 8 for f in (a_format, b_format))


def f8f6f4_cycles(mfma: Mfma, a_format: int, b_format: int) -> int:
    """Matrix-unit cycles of an ``f8f6f4`` MFMA with these operand format codes: its FP8
    count if either operand is 8-bit (E4M3/E5M2), half of it if both are FP6/FP4."""
    if a_format not in F8F6F4_FORMATS or b_format not in F8F6F4_FORMATS:
        raise ValueError(f"{mfma.mnemonic}: operand format codes must be one of "
                         f"{sorted(F8F6F4_FORMATS)}, got cbsz {a_format}, blgp {b_format}")
    narrow = f8f6f4_narrow(a_format, b_format)
    return mfma.xdl_cycles // F8F6F4_NARROW_SPEEDUP if narrow else mfma.xdl_cycles

#: matrix-unit cycles per MFMA pass: the wait-state rules and LLVM's gfx950 scheduling model
#: count an MFMA's time on the matrix unit in passes of 4 cycles
CYCLES_PER_PASS = 4
#: The wait states an MFMA's result needs on gfx950, by its passes and whether it runs on the
#: XDL unit (:func:`mfma_passes`), the counts of LLVM's ``GCNHazardRecognizer`` (its
#: ``checkMAIVALUHazards`` for VALU, memory and export instructions, ``checkMAIHazards90A``
#: for another MFMA; each ``GFX940_*_N_Pass*WaitStates`` helper states the gfx942 and the
#: gfx950 column, read for the facts) and what ``llc-22 -mcpu=gfx950`` places
#: (``test_hazard_rules.py``).  The rows are those of the ISA guides' matrix chapter,
#: "Dependency Resolution: Required Independent Instructions".  The emulator's rules
#: ``mfma-d-*`` and ``mfma-srcc-war``, the ISA check and the lowering's guard read them.


def d_wait_states(passes: int, xdl: bool) -> int:
    """Before a VALU reads or writes a register an MFMA wrote, a VMEM, DS or export
    instruction reads it (or loads into it), or another MFMA reads it as A or B: an XDL
    MFMA ``passes + 4`` on gfx950 (2 passes: 5, as on gfx942, which needs ``passes + 3``
    for every count), any other ``passes + 2``."""
    if not xdl:
        return passes + 2
    return passes + 3 + (passes != 2)


def srcc_wait_states(passes: int, xdl: bool, reader_xdl: bool, identical: bool) -> int:
    """Before an MFMA (XDL if ``reader_xdl``) reads as C a register another MFMA wrote:
    with C ``identical`` to that D (the same registers, an accumulation chain) none, but 2
    after a 2-pass MFMA; overlapping only, after an XDL MFMA ``passes + 2`` (gfx942: one
    fewer), ``passes + 1`` if the reader is not XDL and the writer has 2 passes; after
    another MFMA ``passes``, none if the reader is XDL."""
    if identical:
        return 2 if passes == 2 else 0
    if xdl:
        return passes + 1 + (reader_xdl or passes != 2)
    return 0 if reader_xdl else passes


def srcc_war_wait_states(passes: int) -> int:
    """After an XDL MFMA read a register as C, before a VALU, VMEM or DS instruction
    overwrites it: ``passes - 1`` (1, 3, 7, 15; other MFMAs: none)."""
    return passes - 1


#: the other MFMAs gfx950 runs, which the kernels do not issue (:data:`MFMAS` has those), and
#: the f32 16x16x4 that IREE's f32 kernels issue, whose entry here says it is not an XDL one:
#: mnemonic -> (passes, XDL): the F32 MFMAs, which do not run on the XDL unit, and the 4x4x4 ones (the pass counts of
#: LLVM 22's gfx950 scheduling model, which has these at one rate).  For the ``f8f6f4``
#: MFMAs that model has two counts: llvm-mca-22, reading assembly, gives every operand
#: format the narrow one (``v_mfma_f32_32x32x64_f8f6f4``: HWXDL 8 with FP8 and with FP4
#: operands, measured), while llc-22's hazard recognizer, on the machine instruction of
#: each format, places FP8's (20 wait states after the 32x32x64: 16 passes,
#: ``test_llvm_window.py``); :data:`MFMA_PASSES` keeps the hardware's FP8 count and
#: ``sim/costs.LLVM_MFMA_PASSES`` (llvm-mca's) is derived from it at the narrow rate
_OTHER_MFMA_PASSES = {
    "v_mfma_f32_16x16x4_f32": (8, False),
    "v_mfma_f32_32x32x2_f32": (16, False),
    "v_mfma_f32_4x4x1_16b_f32": (2, False),
    # the 2-pass XDL MFMAs (16 4x4 blocks), whose readers need one wait state less than
    # :func:`d_wait_states`' passes + 4 (llc-22 places 5)
    "v_mfma_f32_4x4x4_16b_f16": (2, True),
    "v_mfma_f32_4x4x4_16b_bf16": (2, True),
    "v_mfma_i32_4x4x4_16b_i8": (2, True),
}
#: every MFMA's (passes, XDL) by mnemonic, at its FP8 rate for the ``f8f6f4`` ones
MFMA_PASSES = {**{i.mnemonic: (i.xdl_cycles // CYCLES_PER_PASS, True) for i in MFMAS},
               **_OTHER_MFMA_PASSES}


def mfma_passes(mnemonic: str, narrow: bool = False) -> tuple[int, bool] | None:
    """(passes, XDL) of the MFMA ``mnemonic``, None if gfx950 has no such MFMA.  ``narrow``:
    an ``f8f6f4`` MFMA with no 8-bit operand (both FP6/FP4), which runs
    :data:`F8F6F4_NARROW_SPEEDUP` times faster.  The one count of MFMA passes the lowering's
    guard and the emulator's wait-state rules both read."""
    entry = MFMA_PASSES.get(mnemonic)
    if entry is None or not (narrow and mnemonic.endswith("_f8f6f4")):
        return entry
    return entry[0] // F8F6F4_NARROW_SPEEDUP, entry[1]

# ---- the product (MI355X) -----------------------------------------------------------------
CUS = 256
CUS_PER_XCD = 32
#: compute dies (XCDs), each with its own L2; a dispatch's flat workgroup ids go to them
#: round-robin (id ``i`` to XCD ``i % XCDS``)
XCDS = CUS // CUS_PER_XCD
#: L2 per XCD (AMD, CDNA 4 at Hot Chips 2025: "Each XCD has 4 MB L2 cache")
L2_BYTES_PER_XCD = 4 * 2**20
#: the memory-side last-level cache (AMD Infinity Cache) shared by all XCDs
MALL_BYTES = 256 * 2**20
#: its peak bandwidth: MI300X's published 17 TB/s (CDNA 3), ASSUMED unchanged on MI355X (no
#: CDNA 4 figure found)
MALL_BYTES_PER_SECOND = 17.0e12
#: peak engine clock
CLOCK_HZ = 2.4e9
HBM_BYTES_PER_SECOND = 8.0e12
#: L2 per XCD: channels and bytes per clock of each (CDNA 3's figures: ASSUMPTION for CDNA 4)
L2_CHANNELS_PER_XCD = 16
L2_CHANNEL_BYTES_PER_CLOCK = 128

TARGET = Target(
    name=NAME, product=PRODUCT, triple=TRIPLE, llvm_features=LLVM_FEATURES, elf_mach=ELF_MACH,
    wave_size=WAVE_SIZE, simds_per_cu=SIMDS_PER_CU, max_waves_per_simd=MAX_WAVES_PER_SIMD,
    max_workgroup_threads=MAX_WORKGROUP_THREADS,
    vgprs=VGPRS, vgpr_granule=VGPR_GRANULE, lds_bytes=LDS_BYTES, lds_banks=LDS_BANKS,
    lds_bank_bytes=LDS_BANK_BYTES, counters=COUNTERS, mfmas=MFMAS)
