// RUN: pipeline-opt --pipeline='single-buffer{T=1}' --emit=schedule --mlir-timing -o %t 2>&1 | FileCheck %s
// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate,cse)' --mlir-timing -o %t 2>&1 | FileCheck %s --check-prefix=MIXED

// --mlir-timing prints MLIR's execution time report on stderr with one line
// per pass, in pipeline order (the named pipeline then runs through MLIR even
// for --emit=schedule).

// CHECK:      Execution time report
// CHECK:      Total Execution Time:
// CHECK:      ----Wall Time----  ----Name----
// CHECK-NEXT: sched-adopt-loop
// CHECK-NEXT: sched-import
// CHECK-NEXT: sched-verify
// CHECK-NEXT: sched-annotate
// CHECK-NEXT: sched-reorder
// CHECK-NEXT: sched-derive-edges
// CHECK-NEXT: sched-schedule
// CHECK-NEXT: sched-derive-waits
// CHECK-NEXT: sched-verify
// CHECK-NEXT: sched-explicit-blocks
// CHECK-NEXT: sched-expand-phases
// CHECK-NEXT: sched-verify
// CHECK-NOT:  sched-lower-to-rocdl
// CHECK:      Total

// MIXED: Execution time report
// MIXED: sched-annotate
// MIXED: CSEPass
// MIXED: Total

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
