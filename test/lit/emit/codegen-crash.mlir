// A function the LLVM step cannot lower (func.func inside the gpu.module; iree-convert-to-rocdl
// crashes on one that returns a value) is a located error, never a crash.

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
