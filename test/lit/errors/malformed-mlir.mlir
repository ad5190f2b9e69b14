// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-verify)' 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline=4wave 2>&1 | FileCheck %s

// A parse error is reported at its location (file:line:col), exit status 1,
// no Python traceback, nothing on stdout.

// CHECK:     malformed-mlir.mlir:12:24: error: expected ':' followed by operation type
// CHECK-NOT: Traceback

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"}
"sched.pipeline"() ({
}) {schedule = "4wave"} : () -> ()
