// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate,canonicalize,cse,sched-reorder,func.func(canonicalize),sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,cse,sched-verify,sched-lower-to-rocdl,canonicalize,cse)' | FileCheck %s

// sched passes mix with upstream passes in one --pass-pipeline. The upstream
// passes work on the rest of the module (here: CSE merges the two constants
// and canonicalize drops the dead addi) and leave the unregistered sched ops
// alone: nothing is merged or erased, even the two identical global loads of
// the prologue.

// CHECK-LABEL: func.func @f() -> (i32, i32) {
// CHECK-NEXT:      %[[C:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      return %[[C]], %[[C]] : i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.prologue"() ({
// CHECK-NEXT:        "sched.global_load"() {{.*}}tag = "LOAD_DRAM"
// CHECK-NEXT:        "sched.lds_store"() {{.*}}tag = "STORE_SMEM"
// CHECK-NEXT:        rocdl.s.barrier
// CHECK-NEXT:        "sched.global_load"() {{.*}}tag = "LOAD_DRAM"
// CHECK-NEXT:        "sched.frag_load"() {{.*}}tag = "LOAD_FRAG"
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:      "sched.kernel"() ({
// CHECK-NEXT:        "sched.mma"() {{.*}}tag = "COMPUTE"
// CHECK-NEXT:        rocdl.s.barrier
// CHECK-NEXT:        "sched.lds_store"()
// CHECK-NEXT:        "sched.global_load"()
// CHECK-NEXT:        rocdl.s.barrier
// CHECK-NEXT:        "sched.frag_load"()
// CHECK-COUNT-32:    rocdl.sched.group.barrier
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:      "sched.epilogue"() ({
// CHECK:         }) {{.*}}schedule = "single-buffer", state = "lowered"

func.func @f() -> (i32, i32) {
  %a = arith.constant 1 : i32
  %b = arith.constant 1 : i32
  %c = arith.addi %a, %b : i32
  return %a, %b : i32, i32
}

"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.barrier"() : () -> ()
  "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
