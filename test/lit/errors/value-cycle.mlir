// RUN: sed '82s/%%37 = arith.subi %%35, %%36/%%37 = arith.subi %%45#1, %%36/' %S/../../data/iree/matmul_bf16_abt_4096.prefetch.mlir | not pipeline-opt - --pipeline=4wave 2>&1 | FileCheck %s
// RUN: sed '82s/%%37 = arith.subi %%35, %%36/%%37 = arith.subi %%45#1, %%36/' %S/../../data/iree/matmul_bf16_abt_4096.prefetch.mlir | not pipeline-opt - --pipeline=4wave --emulate --emulate-workgroups=1 2>&1 | FileCheck %s
// RUN: sed '82s/%%37 = arith.subi %%35, %%36/%%37 = arith.subi %%80, %%36/' %S/../../data/iree/matmul_bf16_abt_4096.prefetch.mlir | not pipeline-opt - --pipeline=4wave 2>&1 | FileCheck %s --check-prefix=NOCYCLE

// IREE's kernel with one operand made a use of a value a later line defines, whose value
// depends on the using line's (%45 <- %44 <- %43 <- %42 <- %37): MLIR's verifier of the
// affine ops follows that cycle of definitions until the process overflows its stack
// (exit 139; iree-opt alike). Read before MLIR parses it
// (pipeline_mlir/driver/value_cycles.py): one error at the use, for a compilation and for
// --emulate's build.
// CHECK: <stdin>:82:30: error: '%45' is used before its definition at line 90, and its value depends on this line's ('%37'): a cycle of values, which MLIR's verifier follows until the process dies
// CHECK-NOT: error

// A use of a later value that does not depend on the line (%80, the loop's K offset) closes
// no cycle: left to MLIR's own dominance error.
// NOCYCLE: <stdin>:82:19: error: operand #0 does not dominate this use
