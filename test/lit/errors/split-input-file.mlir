// RUN: not pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-verify,sched-annotate)' 2>&1 | FileCheck %s
// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-verify)' --split-input-file --verify-diagnostics

// With --split-input-file every chunk is processed on its own: a bad chunk
// does not stop the others, each error carries its line in the whole file,
// and the exit status is 1 if any chunk failed.

// CHECK-NOT: split-input-file.mlir:1{{[0-9]}}:
// CHECK:     split-input-file.mlir:21:24: error: expected ':' followed by operation type
// CHECK-NEXT: split-input-file.mlir:28:3: error: sched-verify: 'sched.mma' op attribute 'stage' must be >= 0, got -1
// CHECK-NOT: error

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"}
// expected-error @-1 {{expected ':' followed by operation type}}

// -----

"sched.pipeline"() ({
  // expected-error @+1 {{'sched.mma' op attribute 'stage' must be >= 0, got -1}}
  "sched.mma"() {stage = -1, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

"sched.pipeline"() ({
  "sched.mma"() {stage = 1, subtile = 1} : () -> ()
}) {schedule = "4wave"} : () -> ()
