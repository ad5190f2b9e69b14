// RUN: pipeline-opt %S/../passes/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=4wave dtype=fp8 BM=128 BN=128 BK=128})' | pipeline-opt - --pipeline='4wave{dtype=fp8 BM=128 BN=128 BK=128}' --emit=mlir | FileCheck %s
// RUN: pipeline-opt --pipeline='4wave{dtype=fp8 BM=128 BN=128 BK=128}' --emit=schedule | FileCheck %s --check-prefix=SCHED

// The 4-wave FP8 128x128x128 pipeline: same block structure as
// BF16, but no schedule-barrier fences around the waits in the schedule
// (fences defaults to false for fp8), so the kernel has 48 entries instead of
// 64. The lowering still fences every run of waits (fence-waits). As for BF16,
// sched-fix-hazards tightens the top-of-half lgkmcnt(4) to lgkmcnt(0).

// CHECK-LABEL: "sched.kernel"() ({
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3960
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA_LOAD_B"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 0 : i64, channel = 0 : i64, k_offset = "k0", {{.*}}tag = "LOAD_A"
// CHECK-NEXT:      "sched.mma"() {block = 0 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64, tag = "MMA"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {block = 1 : i64, channel = 0 : i64
// CHECK:           "sched.mma"() {block = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 2 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64, tag = "MMA"
// CHECK:           rocdl.s.waitcnt 3960
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.mma"() {block = 3 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 7 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK-NEXT:    }) : () -> ()
// CHECK:         options = {BK = 128 : i64, BM = 128 : i64, BN = 128 : i64, dtype = "fp8"}, schedule = "4wave", state = "lowered"

// SCHED:      WARP_STAGGER_INDEX 15
// SCHED-NEXT: PROLOGUE (14 entries)
// SCHED:      KERNEL (48 entries)
// SCHED-NEXT: --------------------------------------------------------------------------------
// SCHED-NEXT: KRN [0] WAIT_VM         s=0 sub=0 k=-     wait=8 pf=False
// SCHED-NEXT: KRN [1] WAIT_LGKM       s=0 sub=0 k=-     wait=4 pf=False
// SCHED-NEXT: KRN [2] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [3] MMA_LOAD_B      s=0 sub=1 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [4] SCHED_BARRIER   s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [5] LOAD_A          s=0 sub=0 k=K0    wait=0 pf=False
// SCHED-NEXT: KRN [6] MMA             s=0 sub=0 k=-     wait=0 pf=False
// SCHED:      KRN [46] WAIT_VM         s=0 sub=0 k=-     wait=8 pf=False
// SCHED-NEXT: KRN [47] MMA             s=1 sub=1 k=-     wait=0 pf=False
// SCHED-NEXT: EPILOGUE (32 entries)
