// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-gpu-kernel)' | FileCheck %s --check-prefix=GK
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-gpu-kernel,lower-affine)' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: pipeline-opt %S/Inputs/gpu-kernel-affine-errors.mlir --verify-diagnostics --pass-pipeline='builtin.module(sched-gpu-kernel)'

// sched-gpu-kernel leaves the affine.apply ops of a kernel outside IREE's hal.executable
// (IREE's own tail lowers those inside one) to upstream lower-affine, the LLVM step's next
// pass: floordiv and ceildiv become arith.divsi with the sign fix-ups, mod arith.remsi
// made non-negative; dims and symbols are the operands in order.

// GK-LABEL: gpu.func @k
// GK:       affine.apply
// CHECK-LABEL: gpu.func @k
// CHECK-NOT:   affine.apply
// CHECK:       %[[T:.*]] = gpu.thread_id x
// CHECK:       %[[Y:.*]] = gpu.thread_id y
// CHECK:       arith.remsi %[[T]]
// CHECK:       arith.divsi
// CHECK:       arith.cmpi sle, %[[Y]]
// CHECK:       arith.divsi
// CHECK:       %[[B:.*]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  arith.constant 1.000000e+00
// CHECK-NEXT:  memref.store %{{.*}}, %arg0[%[[B]]]
// LLVM: define amdgpu_kernel void @k(
func.func @k(%a: memref<4096xf32>) attributes {gpu.known_block_size = array<i32: 64, 2, 1>} {
  %t = gpu.thread_id x
  %y = gpu.thread_id y
  %i = affine.apply affine_map<(d0)[s0] -> (d0 mod 16 + (d0 floordiv 16) * 64 + s0 ceildiv 2)>(%t)[%y]
  %c = arith.constant 1.0 : f32
  memref.store %c, %a[%i] : memref<4096xf32>
  return
}

// -----

// A gpu.func kernel in a gpu.module likewise.
// GK-LABEL: gpu.func @in_module
// GK:       affine.apply
// CHECK-LABEL: gpu.func @in_module
// CHECK-NOT:   affine.apply
// CHECK:       arith.divsi
// LLVM: define amdgpu_kernel void @in_module(
gpu.module @kernels {
  gpu.func @in_module(%a: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %i = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%t)
    %c = arith.constant 1.0 : f32
    memref.store %c, %a[%i] : memref<4096xf32>
    gpu.return
  }
}
