// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=llvm 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=asm 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=obj -o %t.o 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=hsaco -o %t.hsaco 2>&1 | FileCheck %s
// RUN: not pipeline-opt --pipeline=single-buffer --emit=asm 2>&1 | FileCheck %s --check-prefix=DEFAULT

// llvm, asm, obj and hsaco compile a gpu.module (the concrete form, see
// ../concrete). The abstract form has no device code: a located error, exit
// status 1, no Python traceback.

// CHECK:     codegen-abstract.mlir:19:1: error: {{.*}}nothing to compile for the GPU: no 'gpu.module' (found 'sched.pipeline')
// CHECK-NOT: Traceback

// Without an input, 4wave and pingpong build their complete GEMM kernel (see
// ../kernels); single-buffer has none.
// DEFAULT:     pipeline-opt: error: --emit=asm without an input builds a complete GEMM kernel, which exists for 4wave and pingpong, not 'single-buffer' (give a kernel as input)
// DEFAULT-NOT: Traceback

"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.barrier"() : () -> ()
  "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) : () -> ()
