// RUN: %python -c "open(r'%t', 'w').write(('module {' + chr(10)) * 5000 + ('}' + chr(10)) * 5000)"
// RUN: not pipeline-opt %t 2>&1 | FileCheck %s
// RUN: not pipeline-opt --pipeline=4wave %t 2>&1 | FileCheck %s
// RUN: not pipeline-opt --pipeline=4wave - < %t 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: %python -c "open(r'%t.mlir', 'w').write(open(r'%t').read())"
// RUN: not pipeline-opt --pipeline=4wave --emulate %t.mlir 2>&1 | FileCheck %s --check-prefix=EMULATE
// RUN: %python -c "open(r'%t.ok', 'w').write(('module {' + chr(10)) * 256 + ('}' + chr(10)) * 256)"
// RUN: pipeline-opt %t.ok | FileCheck %s --check-prefix=OK

// A module nested 5,000 deep crashed MLIR's parser (a segmentation fault: it recurses once
// per level).  The input's nesting is counted first: past 256 levels it is one error at the
// bracket that goes past the limit, naming the depth and the limit, exit status 1.  256
// levels still parse.

// CHECK:        nesting-depth.mlir.tmp:257:8: error: the input nests 5000 levels deep (braces, brackets, parentheses, angle brackets); at most 256 are accepted: MLIR's parser recurses once per level and would overflow its stack
// CHECK-NOT:    error
// STDIN:        <stdin>:257:8: error: the input nests 5000 levels deep
// EMULATE:      nesting-depth.mlir.tmp.mlir:257:8: error: the input nests 5000 levels deep
// OK-COUNT-256: module {
