// The complete ping-pong BF16 kernel (256x256x64, 8 warps in 2 groups), built with no
// input, down to gfx950 assembly: the main loop keeps the schedule's block structure:
// per block, the fragment reads and global loads, the waits, the
// barrier pair around a run of 16 MFMAs at priority 1.
// RUN: pipeline-opt --pipeline='pingpong{is_fp8=false}' --emit=asm | FileCheck %s

// CHECK-LABEL: gemm_pingpong_bf16_256x256x64:
// Kernel arguments are waited for once; warp group 1 runs one extra barrier inside
// the prologue (the stagger), then every warp meets at a barrier before the loop.
// CHECK:       s_waitcnt lgkmcnt(0)
// CHECK:       s_barrier
// CHECK:       Inner Loop Header
// Block 0: FB[00] and FA[00] (4 + 8 ds_reads), then the A completion load (K_PREV) in
// the schedule's order (an IGroupLP pipeline keeps LLVM from hoisting it above the reads
// and puts a read between each DMA and the M0 write before it: no s_nop), LGKM(8),
// barrier, 16 MFMAs at priority 1, each pair after the wait for its own fragments (LLVM's
// lgkmcnt waits, the last lgkmcnt(0)), barrier.
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NOT:   s_nop
// CHECK-COUNT-11: ds_read_b128
// CHECK-NEXT:  buffer_load_dwordx4 {{.*}} offen lds
// CHECK-NEXT:  s_mov_b32 m0
// CHECK-NEXT:  ds_read_b128
// CHECK-NEXT:  buffer_load_dwordx4 {{.*}} offen lds
// CHECK-NOT:   s_nop
// CHECK:       sched_group_barrier mask(0x00000020) size(1) SyncID(1)
// CHECK:       s_waitcnt lgkmcnt(8)
// CHECK:       s_barrier
// CHECK-NEXT:  s_setprio 1
// CHECK-NOT:   s_barrier
// CHECK:       s_waitcnt lgkmcnt(0)
// CHECK-NEXT:  v_mfma_f32_16x16x32_bf16
// CHECK-NOT:   s_barrier
// CHECK:       s_setprio 0
// CHECK-NEXT:  s_barrier
// Block 1: FB[01] (4 reads) and the B prefetch; block 2: FA[01] (8 reads) and the A prefetch.
// CHECK-NOT:   s_nop
// CHECK-COUNT-3: ds_read_b128
// CHECK-NEXT:  buffer_load_dwordx4 {{.*}} offen lds
// CHECK-NEXT:  s_mov_b32 m0
// CHECK-NEXT:  ds_read_b128
// CHECK-NEXT:  buffer_load_dwordx4 {{.*}} offen lds
// CHECK-NOT:   s_nop
// CHECK:       s_barrier
// CHECK-NEXT:  s_setprio 1
// CHECK-NOT:   s_barrier
// CHECK:       s_waitcnt lgkmcnt(0)
// CHECK-NEXT:  v_mfma_f32_16x16x32_bf16
// CHECK-NOT:   s_barrier
// CHECK:       s_setprio 0
// CHECK-NEXT:  s_barrier
// CHECK-COUNT-8: ds_read_b128
// CHECK:       s_barrier
// CHECK-NEXT:  s_setprio 1
// CHECK-NOT:   s_barrier
// CHECK:       s_waitcnt lgkmcnt(0)
// CHECK-NEXT:  v_mfma_f32_16x16x32_bf16
// CHECK-NOT:   s_barrier
// CHECK:       s_setprio 0
// CHECK-NEXT:  s_barrier
// Block 3: the last B prefetch, then VM(6) (3 of the half's 4 loads may stay in flight).
// CHECK-COUNT-2: buffer_load_dwordx4 {{.*}} offen lds
// CHECK:       s_waitcnt vmcnt(6)
// CHECK:       s_barrier
// CHECK-NEXT:  s_setprio 1
// CHECK-COUNT-16: v_mfma_f32_16x16x32_bf16
// CHECK-NEXT:  s_setprio 0
// CHECK-NEXT:  s_barrier
// Half 1 has the same shape.
// CHECK:       s_waitcnt lgkmcnt(8)
// CHECK:       s_waitcnt vmcnt(6)
// CHECK:       s_cbranch_scc{{[01]}}
// After the loop, warp group 0 re-aligns with one extra barrier.
// CHECK:       s_endpgm
// CHECK:       .group_segment_fixed_size: 131072
// CHECK:       .vgpr_spill_count: 0
