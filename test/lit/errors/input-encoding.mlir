// RUN: %python -c "open(r'%t', 'wb').write(b'// a comment' + bytes([10]) + b'  caf' + bytes([0xe9]) + bytes([10]))"
// RUN: not pipeline-opt --pipeline=4wave %t 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not pipeline-opt --pipeline=4wave - < %t 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not pipeline-opt --pass-pipeline='builtin.module(sched-verify)' < %t 2>&1 | FileCheck %s --check-prefix=STDIN

// An input that is not UTF-8 (here a Latin-1 'é', byte 0xe9, on line 2) is one error at the
// byte (line and column, as MLIR counts them: bytes from the line's start), exit status 1,
// from a file or standard input alike; no internal error, no traceback.

// FILE:       input-encoding.mlir.tmp:2:6: error: byte 0xe9 is not UTF-8 text: the input must be UTF-8 (MLIR's source encoding)
// FILE-NOT:   error
// FILE-NOT:   Traceback
// STDIN:      <stdin>:2:6: error: byte 0xe9 is not UTF-8 text: the input must be UTF-8 (MLIR's source encoding)
// STDIN-NOT:  error
// STDIN-NOT:  Traceback
