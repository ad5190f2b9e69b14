// RUN: pipeline-opt %s --split-input-file --pipeline='single-buffer{T=1}' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --pipeline='single-buffer{T=1}' --emit=mlir -o %t
// RUN: FileCheck %s < %t
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-import{schedule=single-buffer T=1},sched-annotate)' | FileCheck %s --check-prefix=PASSES
// RUN: pipeline-opt --pipeline='single-buffer{T=1}' | FileCheck %s --check-prefix=NOINPUT

// --emit=mlir (the default when there is an input) prints the module after the
// passes; with --split-input-file each chunk's module, separated by `// -----`.

// CHECK-LABEL: module @first {
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.prologue"() ({
// CHECK:           "sched.kernel"() ({
// CHECK:           "sched.epilogue"() ({
// CHECK:         schedule = "single-buffer", state = "lowered"
// CHECK:       // -----
// CHECK-LABEL: module @second {
// CHECK:         schedule = "single-buffer", state = "lowered"

// PASSES:      module @first {
// PASSES:        state = "annotated"
// PASSES:      // -----
// PASSES-NEXT: module @second {
// PASSES:        state = "annotated"

// Without an input the default is --emit=schedule.
// NOINPUT:     WARP_STAGGER_INDEX 7

module @first {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.barrier"() : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
  }) : () -> ()
}

// -----

module @second {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.barrier"() : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
  }) {schedule = "single-buffer", options = {T = 1}} : () -> ()
}
