// RUN: pipeline-opt %S/../passes/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=4wave dtype=bf16 BM=128 BN=128 BK=64})' | pipeline-opt - --pipeline='4wave{dtype=bf16 BM=128 BN=128 BK=64}' --emit=mlir | FileCheck %s
// RUN: pipeline-opt --pipeline='4wave{dtype=bf16 BM=128 BN=128 BK=64}' --emit=schedule | FileCheck %s --check-prefix=SCHED
// RUN: pipeline-opt --pipeline='4wave{fences=false}' --emit=schedule | FileCheck %s --check-prefix=NOFENCE

// The 4-wave BF16 128x128x64 pipeline: its default body through
// every sched pass and sched-lower-to-rocdl. Counts: vmcnt(14) = 3966,
// vmcnt(12) = 3964, vmcnt(8) = 3960, lgkmcnt(4) = 50303, lgkmcnt(0) = 49279.

// The prologue loads both stages, then waits for stage 0's A and B tiles
// before their first fragment loads.
// CHECK-LABEL: "sched.prologue"() ({
// CHECK-COUNT-8:   "sched.global_load"() {{.*}}vm_cost = 2 : i64}
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3966
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, {{.*}}tag = "MMA_LOAD_A"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3964
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}tag = "MMA_LOAD_B"
// CHECK-NEXT:    }) : () -> ()

// Kernel block 0 (top of the first half): fenced vmcnt(8) + lgkmcnt(0), one
// barrier, then [fragment load | global load, MMA] separated by fences. The
// schedule says lgkmcnt(4); sched-fix-hazards tightens it to 0 so that the
// previous half's last B fragment read has completed in every wave before the
// barrier, since block 1's B prefetch overwrites the slot it reads.
// CHECK-LABEL: "sched.kernel"() ({
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3960
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA_LOAD_B"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 0 : i64, channel = 0 : i64, k_offset = "k0", {{.*}}tag = "LOAD_A"
// CHECK-NEXT:      "sched.mma"() {block = 0 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64, tag = "MMA"
// Block 1: lgkmcnt(0) only, no barrier.
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {block = 1 : i64, channel = 0 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA_LOAD_A"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 1 : i64, channel = 1 : i64, k_offset = "k0", {{.*}}tag = "LOAD_B"
// CHECK-NEXT:      "sched.mma"() {block = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA"
// Block 2: vmcnt(8) + lgkmcnt(0) and a barrier.
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3960
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {block = 2 : i64, channel = 0 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64, tag = "MMA_LOAD_A"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 2 : i64, channel = 1 : i64, k_offset = "k0", {{.*}}tag = "LOAD_B"
// CHECK-NEXT:      "sched.mma"() {block = 2 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64, tag = "MMA"
// Block 3 (end of the half): loads, then a fenced vmcnt(8) right before the MMA.
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {block = 3 : i64, channel = 1 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64, tag = "MMA_LOAD_B"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 3 : i64, channel = 0 : i64, k_offset = "k0", {{.*}}tag = "LOAD_A"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3960
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.mma"() {block = 3 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64, tag = "MMA"
// The second half repeats the pattern with the k1 loads (lgkmcnt tightened too).
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3960
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK:           "sched.global_load"() {block = 4 : i64, channel = 0 : i64, k_offset = "k1", {{.*}}tag = "LOAD_A"
// CHECK-NEXT:      "sched.mma"() {block = 4 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 5 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 6 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64, tag = "MMA"
// The loop's last vmcnt(8) (before block 7's MMA) leaves the loop with its fences
// (sched-fix-hazards: the loop's head repeats it): block 7 ends like the others.
// CHECK:           "sched.global_load"() {block = 7 : i64, channel = 0 : i64, k_offset = "k1", {{.*}}tag = "LOAD_A"
// CHECK-NEXT:      "sched.mma"() {block = 7 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK-NEXT:    }) : () -> ()
// The epilogue opens with that vmcnt(8) and gains two barriers (sched-fix-hazards):
// one before its first fragment read (the last iteration's stage-0 loads were waited
// for by each wave but never barriered), one after its vmcnt(0) (stage 1 likewise).
// CHECK-NEXT:    "sched.epilogue"() ({
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3960
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA_LOAD_B"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3952
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.mma"()
// CHECK-NOT:     "sched.global_load"
// CHECK:         schedule = "4wave", state = "lowered"

// The reference debug format (key lines of the reference's own dump).
// SCHED:      WARP_STAGGER_INDEX 15
// SCHED-NEXT: PROLOGUE (14 entries)
// SCHED:      PRO [8] WAIT_VM         s=0 sub=0 k=-     wait=14 pf=False
// SCHED:      PRO [11] WAIT_VM         s=0 sub=0 k=-     wait=12 pf=False
// SCHED:      KERNEL (64 entries)
// SCHED-NEXT: --------------------------------------------------------------------------------
// SCHED-NEXT: KRN [0] SCHED_BARRIER   s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [1] WAIT_VM         s=0 sub=0 k=-     wait=8 pf=False
// SCHED-NEXT: KRN [2] WAIT_LGKM       s=0 sub=0 k=-     wait=4 pf=False
// SCHED-NEXT: KRN [3] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
// SCHED:      KRN [8] MMA             s=0 sub=0 k=-     wait=0 pf=False
// SCHED:      KRN [63] MMA             s=1 sub=1 k=-     wait=0 pf=False
// SCHED-NEXT: EPILOGUE (32 entries)
// SCHED:      EPI [31] BARRIER         s=0 sub=0 k=-     wait=0 pf=False

// fences=false drops the schedule barriers around the waits: 48 kernel entries.
// NOFENCE:      KERNEL (48 entries)
// NOFENCE-NEXT: --------------------------------------------------------------------------------
// NOFENCE-NEXT: KRN [0] WAIT_VM         s=0 sub=0 k=-     wait=8 pf=False
// NOFENCE-NEXT: KRN [1] WAIT_LGKM       s=0 sub=0 k=-     wait=4 pf=False
// NOFENCE-NEXT: KRN [2] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
