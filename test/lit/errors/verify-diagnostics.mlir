// RUN: not pipeline-opt %S/Inputs/wrong-expectations.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-verify)' 2>&1 | FileCheck %s
// RUN: pipeline-opt %S/Inputs/expectation-forms.mlir --verify-diagnostics --pass-pipeline='builtin.module(sched-verify)'

// --verify-diagnostics matches the diagnostics against the input's
// expected-error / -warning / -remark / -note comments (@+N, @-N, @above,
// @below, @unknown; -re for regular expressions between {{ }}); every
// expectation not met and every diagnostic not expected is reported at its
// location, and the exit status is 1; so is a malformed expectation, never
// skipped. expectation-forms.mlir meets one of each.

// CHECK:      wrong-expectations.mlir:3:4: error: expected error "this message is never produced" was not produced
// CHECK-NEXT: // expected-error @+1 {{[{][{]}}this message is never produced{{[}][}]}}
// CHECK-NEXT: {{^   \^$}}
// CHECK-NEXT: wrong-expectations.mlir:11:3: error: unexpected error: sched-verify: 'sched.mma' op attribute 'stage' must be >= 0, got -3
// CHECK:      wrong-expectations.mlir:18:6: error: expected error "'sched.wait_vm' op requires attribute 'count'" was not produced
// CHECK:      wrong-expectations.mlir:19:3: error: unexpected error: sched-verify: 'sched.wait_vm' op requires attribute 'count'
// CHECK:      wrong-expectations.mlir:25:4: error: expected warning "a warning nobody emits" was not produced
// CHECK:      wrong-expectations.mlir:26:4: error: expected remark "a remark nobody emits" was not produced
// CHECK:      wrong-expectations.mlir:36:6: error: expected error-re "got {{[{][{]}}[0-9]+{{[}][}]}}" was not produced
// CHECK:      wrong-expectations.mlir:37:6: error: expected error "must be >= 0" was not produced
// CHECK:      wrong-expectations.mlir:38:3: error: unexpected error: sched-verify: 'sched.mma' op attribute 'stage' must be >= 0, got -4
// CHECK:      wrong-expectations.mlir:45:4: error: malformed expectation: expected-KIND[-re], then @+N, @-N, @above, @below, @unknown or nothing, then
// CHECK:      wrong-expectations.mlir:46:4: error: malformed expectation
// CHECK-NOT:  error:
