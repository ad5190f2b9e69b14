// RUN: pipeline-opt --pipeline=single-buffer --emit=mlir | FileCheck %s
// RUN: pipeline-opt --pipeline=single-buffer --emit=schedule | FileCheck %s --check-prefix=SCHED
// RUN: pipeline-opt --pipeline='single-buffer{T=1}' --emit=schedule | FileCheck %s --check-prefix=T1

// The single-buffer default matmul (T=2): no MMA blocks or derived
// waits; the kernel is the reordered body and 48 AMD schedule-group hints,
// lowered to rocdl.sched.group.barrier with the LLVM masks of their kinds.

// CHECK-LABEL: "sched.prologue"() ({
// CHECK-NEXT:      "sched.global_load"() {{.*}}tag = "LOAD_DRAM"
// CHECK-NEXT:      "sched.lds_store"() {{.*}}tag = "STORE_SMEM"
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      "sched.global_load"() {{.*}}tag = "LOAD_DRAM"
// CHECK-NEXT:      "sched.frag_load"() {{.*}}tag = "LOAD_FRAG"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    "sched.kernel"() ({
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, {{.*}}subtile = 1 : i64, tag = "LOAD_FRAG"
// CHECK-NEXT:      "sched.mma"() {{.*}}subtile = 0 : i64, tag = "COMPUTE"
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      "sched.lds_store"() {{.*}}tag = "STORE_SMEM"
// CHECK-NEXT:      "sched.global_load"() {{.*}}tag = "LOAD_DRAM"
// CHECK-NEXT:      "sched.mma"() {{.*}}subtile = 1 : i64, tag = "COMPUTE"
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, {{.*}}subtile = 0 : i64, tag = "LOAD_FRAG"
// Hints: 8 x [DS read 1, MFMA 2], 4 x [DS write 1, MFMA 0, VMEM read 1, MFMA 0], 8 x [DS read 1, MFMA 2].
// CHECK-NEXT:      rocdl.sched.group.barrier ds_read, 1, 0
// CHECK-NEXT:      rocdl.sched.group.barrier mfma_wmma, 2, 0
// CHECK-COUNT-14:  rocdl.sched.group.barrier
// CHECK-NEXT:      rocdl.sched.group.barrier ds_write, 1, 0
// CHECK-NEXT:      rocdl.sched.group.barrier mfma_wmma, 0, 0
// CHECK-NEXT:      rocdl.sched.group.barrier vmem_read, 1, 0
// CHECK-NEXT:      rocdl.sched.group.barrier mfma_wmma, 0, 0
// CHECK-COUNT-12:  rocdl.sched.group.barrier
// CHECK-NEXT:      rocdl.sched.group.barrier ds_read, 1, 0
// CHECK-NEXT:      rocdl.sched.group.barrier mfma_wmma, 2, 0
// CHECK-COUNT-14:  rocdl.sched.group.barrier
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    "sched.epilogue"() ({
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {{.*}}subtile = 1 : i64, tag = "LOAD_FRAG"
// CHECK-NEXT:      rocdl.s.barrier
// CHECK:         }) {{.*}}schedule = "single-buffer", state = "lowered"

// SCHED:      WARP_STAGGER_INDEX 7
// SCHED-NEXT: PROLOGUE (6 entries)
// SCHED:      KERNEL (56 entries)
// SCHED:      KRN [7] LOAD_FRAG       s=0 sub=0 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [8] SCHED_GROUP_BARRIER s=0 sub=0 k=-     wait=1 pf=False
// SCHED-NEXT: KRN [9] SCHED_GROUP_BARRIER s=0 sub=3 k=-     wait=2 pf=False
// SCHED:      KRN [24] SCHED_GROUP_BARRIER s=0 sub=1 k=-     wait=1 pf=False
// SCHED-NEXT: KRN [25] SCHED_GROUP_BARRIER s=0 sub=3 k=-     wait=0 pf=False
// SCHED-NEXT: KRN [26] SCHED_GROUP_BARRIER s=0 sub=2 k=-     wait=1 pf=False
// SCHED:      EPILOGUE (13 entries)

// T=1: 6 kernel ops + 32 hints, 9 epilogue entries.
// T1:      WARP_STAGGER_INDEX 7
// T1:      KERNEL (38 entries)
// T1:      EPILOGUE (9 entries)
