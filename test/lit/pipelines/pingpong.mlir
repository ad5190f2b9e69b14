// RUN: pipeline-opt %S/../passes/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=pingpong vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2 waits=block})' | pipeline-opt - --pipeline='pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2 waits=block}' --emit=mlir | FileCheck %s
// RUN: pipeline-opt --pipeline='pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2 waits=block}' --emit=schedule | FileCheck %s --check-prefix=SCHED
// RUN: pipeline-opt --pipeline=pingpong --emit=schedule | FileCheck %s --check-prefix=PROD

// The ping-pong BF16 reference schedule pingpong_bf16_l2_2 (the reference's counts, given
// explicitly: the pipeline's defaults are its kernel's, see PROD below): CSP
// order, eight template blocks, derived waits lgkmcnt(2) / vmcnt(12).
// vmcnt(0) = 3952, vmcnt(12) = 3964, lgkmcnt(2) = 49791, lgkmcnt(0) = 49279.

// CHECK-LABEL: "sched.prologue"() ({
// CHECK-COUNT-4:   "sched.global_load"() {{.*}}k_offset = "k0"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3952
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-COUNT-3:   "sched.global_load"() {{.*}}k_offset = "k1"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3952
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:    }) : () -> ()

// Block 0: two fragment loads, a fence (the global load stays after them), the K_PREV
// completion load, lgkmcnt(2), barrier, lgkmcnt(0), the MMA at priority 1, barrier,
// schedule barrier.
// CHECK-LABEL: "sched.kernel"() ({
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, {{.*}}tag = "MMA_LOAD_B"
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 0 : i64, {{.*}}tag = "MMA_LOAD_A"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 0 : i64, channel = 0 : i64, k_offset = "k_prev", {{.*}}tag = "LOAD_A"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 49791
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.setprio 1
// CHECK-NEXT:      "sched.mma"() {block = 0 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64, tag = "MMA"
// CHECK-NEXT:      rocdl.s.setprio 0
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.sched.barrier none
// Block 1: fragment load, fence, prefetch global load, barrier, lgkmcnt(0), MMA.
// CHECK-NEXT:      "sched.frag_load"() {block = 1 : i64, channel = 1 : i64
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 1 : i64, channel = 1 : i64, k_offset = "k0", {{.*}}prefetch
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.setprio 1
// CHECK-NEXT:      "sched.mma"() {block = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 2 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64, tag = "MMA"
// Block 3 ends the half: vmcnt(12), then the barrier.
// CHECK:           "sched.global_load"() {block = 3 : i64, channel = 1 : i64, k_offset = "k0", {{.*}}prefetch
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.waitcnt 3964
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.s.setprio 1
// CHECK-NEXT:      "sched.mma"() {block = 3 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 4 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 5 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK:           "sched.mma"() {block = 6 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64, tag = "MMA"
// CHECK:           rocdl.s.waitcnt 3964
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      rocdl.s.setprio 1
// CHECK-NEXT:      "sched.mma"() {block = 7 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64, tag = "MMA"
// CHECK-NEXT:      rocdl.s.setprio 0
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    "sched.epilogue"() ({
// CHECK:         schedule = "pingpong", {{.*}}state = "lowered"

// SCHED:      WARP_STAGGER_INDEX 4
// SCHED-NEXT: PROLOGUE (10 entries)
// SCHED:      PRO [4] WAIT_VM         s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: PRO [5] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
// SCHED:      KERNEL (70 entries)
// SCHED-NEXT: --------------------------------------------------------------------------------
// SCHED-NEXT: KRN [0] MMA_LOAD_B      s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [1] MMA_LOAD_A      s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [2] LOAD_A          s=1 sub=1 k=KPREV wait=0 pf=False
// SCHED-NEXT: KRN [3] WAIT_LGKM       s=0 sub=0 k=-     wait=2 pf=False
// SCHED-NEXT: KRN [4] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [5] WAIT_LGKM       s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [6] SET_PRIO        s=0 sub=0 k=-     wait=1 pf=False
// SCHED-NEXT: KRN [7] MMA             s=0 sub=0 k=-     wait=0 pf=False
// SCHED:      KRN [12] LOAD_B          s=0 sub=0 k=K0    wait=0 pf=True
// SCHED:      EPILOGUE (58 entries)

// The pipeline's defaults, the BF16 kernel's counts (vm 2/2, lgkm 8/4): waits lgkmcnt(8) and vmcnt(6).
// PROD:      KERNEL (70 entries)
// PROD:      KRN [3] WAIT_LGKM       s=0 sub=0 k=-     wait=8 pf=False
// PROD:      WAIT_VM         s=0 sub=0 k=-     wait=6 pf=False
