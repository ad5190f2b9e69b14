// XFAIL: *
// BUG: a module without a gpu.module compiles for gfx950 without complaint.
// `pipeline-opt host.mlir --emit=llvm|asm|obj|hsaco` on a plain host func.func
// exits 0 and emits it as a gfx950 device function; an empty module gives an
// empty LLVM module / code object. Next to a gpu.module the same func.func is
// rejected as host code ("'func.func' op outside the gpu.module would be
// dropped by the device-code extraction"); without one it should be an error
// too, naming the missing gpu.module (as for the abstract form, see
// codegen-abstract.mlir). (A host function returning a value crashes: see
// codegen-crash.mlir.)

// RUN: not pipeline-opt %s --split-input-file --emit=llvm 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --split-input-file --emit=asm 2>&1 | FileCheck %s

// CHECK-COUNT-2: error: {{.*}}gpu.module

func.func @host() {
  return
}

// -----

// (an empty module)
