// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=llvm 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=asm 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=obj -o %t.o 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=hsaco -o %t.hsaco 2>&1 | FileCheck %s
// RUN: not pipeline-opt --pipeline=pingpong --emit=asm 2>&1 | FileCheck %s --check-prefix=DEFAULT

// llvm, asm, obj and hsaco compile a gpu.module (the concrete form, see
// ../concrete). The abstract form has no device code: a located error, exit
// status 1, no Python traceback.

// CHECK:     codegen-abstract.mlir:17:1: error: {{.*}}nothing to compile for the GPU: no 'gpu.module' (found 'sched.pipeline')
// CHECK-NOT: Traceback

// DEFAULT:     "pingpong default body": error: {{.*}}nothing to compile for the GPU: no 'gpu.module' (found 'sched.pipeline')
// DEFAULT-NOT: Traceback

"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.barrier"() : () -> ()
  "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) : () -> ()
