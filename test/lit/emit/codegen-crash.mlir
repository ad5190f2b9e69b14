// XFAIL: *
// BUG: pipeline-opt crashes (SIGSEGV, exit status 139) when --emit=llvm|asm
// lowers a function that returns a value. iree-convert-to-rocdl produces an
// invalid `llvm.return` ("'llvm.return' op expected no operands ... null
// operand found"), and the process then dies inside PassManager.run instead
// of reporting the error and exiting with status 1 (DESIGN.md: "a user gets a
// diagnostic, never a core dump"). The same input with
// --pass-pipeline='builtin.module(sched-to-llvm)' reports the error and exits 1.

// RUN: not pipeline-opt %s --split-input-file --emit=llvm 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --split-input-file --emit=asm 2>&1 | FileCheck %s

// CHECK: codegen-crash.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// CHECK: codegen-crash.mlir:{{[0-9]+}}:{{[0-9]+}}: error:

gpu.module @device {
  func.func @f(%a: i32) -> i32 {
    return %a : i32
  }
}

// -----

func.func @host(%a: i32) -> i32 {
  return %a : i32
}
