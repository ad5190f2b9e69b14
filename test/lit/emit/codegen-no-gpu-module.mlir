// A module without a gpu.module has nothing to compile for the GPU: a located error.

// RUN: not pipeline-opt %s --split-input-file --emit=llvm 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --split-input-file --emit=asm 2>&1 | FileCheck %s

// CHECK-COUNT-2: error: {{.*}}gpu.module

func.func @host() {
  return
}

// -----

// (an empty module)
