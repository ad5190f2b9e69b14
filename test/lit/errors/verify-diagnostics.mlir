// RUN: not pipeline-opt %S/Inputs/wrong-expectations.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-verify)' 2>&1 | FileCheck %s

// --verify-diagnostics matches the errors against the input's expected-error
// comments (line and message substring); every expectation not produced and
// every error not expected is reported, and the exit status is 1.

// CHECK:      wrong-expectations.mlir:4: error: expected error "this message is never produced" was not produced
// CHECK-NEXT: wrong-expectations.mlir:11:3: error: unexpected error: sched-verify: 'sched.mma' op attribute 'stage' must be >= 0, got -3
// CHECK-NEXT: wrong-expectations.mlir:20: error: expected error "'sched.wait_vm' op requires attribute 'count'" was not produced
// CHECK-NEXT: wrong-expectations.mlir:19:3: error: unexpected error: sched-verify: 'sched.wait_vm' op requires attribute 'count'
