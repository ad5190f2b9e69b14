// The complete 4-wave BF16 kernel (128x128x64, 4 warps), built with no input, down to
// gfx950 assembly.  The main loop has the schedule's 8 blocks: per half a
// top wait VM(8)+LGKM(0) and barrier, LGKM(0) between blocks 0 and 1, VM(8)+LGKM(0) and
// a barrier before the first cross-stage block.  The schedule's
// top wait is LGKM(4); sched-fix-hazards tightens it to LGKM(0) (the last B fragment
// read of the previous half must complete in every wave before the barrier, since the
// next B prefetch overwrites its slot), and the epilogue gains two barriers.  The
// lowering interleaves each MMA's 8 MFMAs with its block's loads, and drops the first
// half's VM(8) before its last MMA (the next half's top wait repeats it); the second
// half's VM(8) before its last MMA leaves the loop (sched-fix-hazards: the loop's head
// repeats it) and opens the epilogue instead.
// RUN: pipeline-opt --pipeline='4wave{dtype=bf16 BM=128 BN=128 BK=64}' --emit=asm | FileCheck %s

// CHECK-LABEL: gemm_4wave_bf16_128x128x64:
// Prologue: 16 loads fill both stages, then the bootstrap fragments FA[00], FB[00].
// CHECK-COUNT-16: buffer_load_dwordx4 {{.*}} offen lds
// CHECK:       s_waitcnt vmcnt(14)
// CHECK:       s_barrier
// CHECK:       s_waitcnt vmcnt(12)
// CHECK:       s_barrier
// The zero-trip case (K == 2*BK): wait for everything and barrier, as the reference kernel does.
// CHECK:       s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT:  s_barrier
// CHECK:       Inner Loop Header
// CHECK:       s_waitcnt vmcnt(8) lgkmcnt(0)
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NEXT:  s_barrier
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NEXT:  v_mfma_f32_16x16x32_bf16
// CHECK-NEXT:  ds_read_b128
// CHECK-NOT:   ds_read_b128
// CHECK:       v_mfma_f32_16x16x32_bf16
// CHECK-NEXT:  ds_read_b128
// CHECK:       s_waitcnt lgkmcnt(0)
// CHECK:       s_waitcnt vmcnt(8) lgkmcnt(0)
// CHECK:       s_barrier
// CHECK-NOT:   s_waitcnt vmcnt(8){{$}}
// Second half.
// CHECK:       s_waitcnt vmcnt(8) lgkmcnt(0)
// CHECK:       s_barrier
// CHECK:       s_waitcnt vmcnt(8) lgkmcnt(0)
// CHECK:       s_barrier
// CHECK-NOT:   s_waitcnt vmcnt
// CHECK:       v_mfma_f32_16x16x32_bf16
// CHECK-NOT:   s_waitcnt vmcnt
// CHECK:       s_cbranch_scc{{[01]}}
// Epilogue: the loop's last VM(8) and a barrier before the first fragment read, another
// barrier after vmcnt(0).
// CHECK:       %._crit_edge
// CHECK-NOT:   ds_read_b128
// CHECK:       s_waitcnt vmcnt(8) lgkmcnt(0)
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NEXT:  s_barrier
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NEXT:  ds_read_b128
// CHECK:       s_waitcnt vmcnt(0)
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NEXT:  s_barrier
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NOT:   s_barrier
// CHECK:       v_mfma_f32_16x16x32_bf16
// CHECK:       .group_segment_fixed_size: 65536
// CHECK:       .vgpr_spill_count: 0
