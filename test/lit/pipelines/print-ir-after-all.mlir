// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate,cse)' --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s
// RUN: pipeline-opt --pipeline='single-buffer{T=1}' --emit=mlir --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: FileCheck %s --check-prefix=OUT < %t

// --mlir-print-ir-after-all prints the module after every pass on stderr; the
// output (-o) is unchanged.

// CHECK:      // -----// IR Dump After sched-annotate: sched-annotate //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   "sched.pipeline"() ({
// CHECK-NEXT:     "sched.mma"() {latency = 64 : i64, resource = "mma_unit", role = "compute", stage = 0 : i64, subtile = 0 : i64, vgpr_def = 16 : i64}
// CHECK-NEXT:   }) {options = {T = 1 : i64}, schedule = "single-buffer", state = "annotated"}
// CHECK:      // -----// IR Dump After CSEPass: cse //----- //
// CHECK-NEXT: module {

// A named pipeline is a list of passes: the import, the scheduling passes with
// sched-verify checkpoints, and the lowering.
// NAMED:      IR Dump After sched-import: sched-import
// NAMED:      IR Dump After sched-verify: sched-verify
// NAMED:      IR Dump After sched-annotate: sched-annotate
// NAMED:      IR Dump After sched-reorder: sched-reorder
// NAMED:      IR Dump After sched-derive-edges: sched-derive-edges
// NAMED:      IR Dump After sched-schedule: sched-schedule
// NAMED:      IR Dump After sched-derive-waits: sched-derive-waits
// NAMED:      IR Dump After sched-verify: sched-verify
// NAMED:      IR Dump After sched-explicit-blocks: sched-explicit-blocks
// NAMED:      IR Dump After sched-expand-phases: sched-expand-phases
// NAMED:      IR Dump After sched-verify: sched-verify
// NAMED:      IR Dump After sched-lower-to-rocdl: sched-lower-to-rocdl
// NAMED-NEXT: module {
// NAMED:      state = "lowered"

// OUT:     module {
// OUT-NOT: IR Dump
// OUT:     state = "lowered"

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
