// RUN: pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=schedule | FileCheck %s
// The MLIR path (input IR, pass by pass) prints what the core prints for the
// default body, entry for entry:
// RUN: pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=schedule -o %t.ir
// RUN: pipeline-opt --pipeline='single-buffer{T=1}' --emit=schedule -o %t.core
// RUN: diff %t.ir %t.core
// RUN: pipeline-opt %S/Inputs/empty.mlir --emit=schedule -o %t.pp.ir --pass-pipeline='builtin.module(sched-import{schedule=pingpong},sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases)'
// RUN: pipeline-opt --pipeline=pingpong --emit=schedule -o %t.pp.core
// RUN: diff %t.pp.ir %t.pp.core
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-import{schedule=single-buffer T=1},sched-annotate)' --emit=schedule 2>&1 | FileCheck %s --check-prefix=STATE
// RUN: not pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(cse)' --emit=schedule 2>&1 | FileCheck %s --check-prefix=NONE

// --emit=schedule prints each sched.pipeline (state "phases") in the
// reference's debug format.

// CHECK:      WARP_STAGGER_INDEX 7
// CHECK-NEXT: PROLOGUE (6 entries)
// CHECK-NEXT: --------------------------------------------------------------------------------
// CHECK-NEXT: PRO [0] LOAD_DRAM       s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: PRO [1] STORE_SMEM      s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: PRO [2] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: PRO [3] LOAD_DRAM       s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: PRO [4] LOAD_FRAG       s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: PRO [5] SCHED_BARRIER   s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: KERNEL (38 entries)
// CHECK-NEXT: --------------------------------------------------------------------------------
// CHECK-NEXT: KRN [0] COMPUTE         s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: KRN [1] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: KRN [2] STORE_SMEM      s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: KRN [3] LOAD_DRAM       s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: KRN [4] BARRIER         s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: KRN [5] LOAD_FRAG       s=0 sub=0 k=-     wait=0 pf=False
// CHECK-NEXT: KRN [6] SCHED_GROUP_BARRIER s=0 sub=1 k=-     wait=1 pf=False
// CHECK:      KRN [37] SCHED_GROUP_BARRIER s=0 sub=3 k=-     wait=2 pf=False
// CHECK-NEXT: EPILOGUE (9 entries)
// CHECK-NEXT: --------------------------------------------------------------------------------
// CHECK-NEXT: EPI [0] SCHED_BARRIER   s=0 sub=0 k=-     wait=0 pf=False
// CHECK:      EPI [8] SCHED_BARRIER   s=0 sub=0 k=-     wait=0 pf=False

// STATE: error: --emit=schedule: 'sched.pipeline' op is in state "annotated"; printing the schedule needs state "phases" (run up to sched-expand-phases)
// NONE:  Inputs/empty.mlir: error: --emit=schedule: the output has no 'sched.pipeline' op

"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.barrier"() : () -> ()
  "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) : () -> ()
