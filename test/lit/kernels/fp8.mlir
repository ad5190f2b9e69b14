// The FP8 kernels (16x16x128 f8f6f4 MFMAs, two ds_read_b128 per MFMA operand): ping-pong
// 256x256x128 (in the reference's read order: frags_ahead=none) and 4-wave 128x128x128 /
// 64x64x128, built with no input.
// RUN: pipeline-opt --pipeline='pingpong{is_fp8=true frags_ahead=none}' --emit=asm | FileCheck %s --check-prefix=PP
// RUN: pipeline-opt --pipeline='4wave{dtype=fp8 BM=128 BN=128 BK=128}' --emit=asm | FileCheck %s --check-prefix=W128
// RUN: pipeline-opt --pipeline='4wave{dtype=fp8 BM=64 BN=64 BK=128}' --emit=asm | FileCheck %s --check-prefix=W64

// Ping-pong FP8 bunches its globals (max_globals = 0): block 1 has none,
// block 2 has the A and B prefetch (4 instructions); 8 MFMAs per block.
// PP-LABEL:     gemm_pingpong_fp8_256x256x128:
// PP:           Inner Loop Header
// PP-COUNT-12:  ds_read_b128
// PP:           s_waitcnt lgkmcnt(8)
// PP:           s_setprio 1
// PP-COUNT-8:   v_mfma_f32_16x16x128_f8f6f4
// PP-NEXT:      s_setprio 0
// PP-COUNT-4:   ds_read_b128
// PP-NOT:       buffer_load
// PP:           s_setprio 1
// PP-COUNT-8:   v_mfma_f32_16x16x128_f8f6f4
// PP-COUNT-8:   ds_read_b128
// PP:           s_setprio 1
// PP-COUNT-8:   v_mfma_f32_16x16x128_f8f6f4
// PP:           s_waitcnt vmcnt(6)
// PP:           .vgpr_spill_count: 0

// W128-LABEL:   gemm_4wave_fp8_128x128x128:
// W128:         Inner Loop Header
// The schedule's top LGKM(4) / LGKM(2) is tightened to 0 by sched-fix-hazards.
// W128:         s_waitcnt vmcnt(8) lgkmcnt(0)
// W128-NEXT:    ; sched_barrier mask(0x00000000)
// W128-NEXT:    s_barrier
// sched-lower-to-rocdl interleaves each MMA's 4 MFMAs with its block's loads.
// (one region, its interleave pipeline's sched_group_barriers with sync id 1)
// W128-NEXT:    ; sched_barrier mask(0x00000000)
// W128-NOT:     ds_read_b128
// W128:         v_mfma_f32_16x16x128_f8f6f4
// W128-NEXT:    ds_read_b128
// W128-NEXT:    ds_read_b128
// W128-NEXT:    ; sched_group_barrier mask(0x00000008) size(1) SyncID(1)
// W128-NEXT:    ; sched_group_barrier mask(0x00000100) size(2) SyncID(1)
// W128-NEXT:    v_mfma_f32_16x16x128_f8f6f4
// W128:         s_waitcnt vmcnt(8) lgkmcnt(0)
// W128:         s_barrier
// The first half's VM(8) before its last MMA is not emitted: the next half's top wait
// repeats it with only that MMA between.
// W128-NOT:     s_waitcnt vmcnt(8){{$}}
// W128:         s_waitcnt vmcnt(8) lgkmcnt(0)
// W128:         s_barrier
// W128:         s_waitcnt vmcnt(8) lgkmcnt(0)
// W128:         s_barrier
// The loop's last one leaves the loop (sched-fix-hazards: the loop's head repeats it)
// and opens the epilogue, so the last MMA is interleaved with its loads too.
// W128-NOT:     s_waitcnt vmcnt
// W128-COUNT-4: v_mfma_f32_16x16x128_f8f6f4
// W128-NOT:     s_waitcnt vmcnt
// W128:         s_cbranch_scc{{[01]}}
// W128:         %._crit_edge
// W128-NOT:     ds_read_b128
// W128:         s_waitcnt vmcnt(8) lgkmcnt(0)
// W128-NEXT:    ; sched_barrier mask(0x00000000)
// W128-NEXT:    s_barrier
// W128:         .vgpr_spill_count: 0

// W64-LABEL:    gemm_4wave_fp8_64x64x128:
// An MMA of one MFMA is not interleaved: no interleave pipeline in the kernel.
// W64-NOT:      sched_group_barrier
// W64:          Inner Loop Header
// W64:          s_waitcnt vmcnt(4) lgkmcnt(0)
// W64:          s_barrier
// W64:          s_waitcnt vmcnt(4) lgkmcnt(0)
// W64:          s_barrier
// W64-NOT:      s_waitcnt vmcnt(4){{$}}
// W64:          s_waitcnt vmcnt(4) lgkmcnt(0)
// W64:          s_barrier
// W64:          s_waitcnt vmcnt(4) lgkmcnt(0)
// W64:          s_barrier
// The last MMA waits for no load: the loop's last VM(4) opens the epilogue instead, and
// the MMA fills the wait state between the last DMA and the M0 write before it.
// W64-NOT:      s_waitcnt vmcnt
// W64:          s_mov_b32 m0,
// W64-NEXT:     v_mfma_f32_16x16x128_f8f6f4
// W64-NEXT:     buffer_load_dwordx4 {{.*}} offen lds
// W64-NOT:      s_waitcnt vmcnt
// W64:          s_cbranch_scc{{[01]}}
// W64:          %._crit_edge
// W64-NOT:      ds_read_b128
// W64:          s_waitcnt vmcnt(4) lgkmcnt(0)
// W64:          .group_segment_fixed_size: 32768
