// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-gpu-kernel)' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: pipeline-opt %S/Inputs/gpu-kernel-affine-errors.mlir --verify-diagnostics --pass-pipeline='builtin.module(sched-gpu-kernel)'

// sched-gpu-kernel lowers the affine.apply ops of a kernel outside IREE's hal.executable
// (IREE's own tail lowers those inside one) to arith: floordiv is arith.floordivsi,
// ceildiv arith.ceildivsi, x mod c is x - floordiv(x, c) * c; dims and symbols are the
// operands in order.

// CHECK-LABEL: gpu.func @k
// CHECK-NOT:   affine.apply
// CHECK:       %[[T:.*]] = gpu.thread_id x
// CHECK:       %[[Y:.*]] = gpu.thread_id y
// CHECK:       %[[C16:.*]] = arith.constant 16 : index
// CHECK:       %[[Q:.*]] = arith.floordivsi %[[T]], %[[C16]] : index
// CHECK:       %[[QM:.*]] = arith.muli %[[Q]], %[[C16]] : index
// CHECK:       %[[M:.*]] = arith.subi %[[T]], %[[QM]] : index
// CHECK:       %[[Q2:.*]] = arith.floordivsi %[[T]], %{{.*}} : index
// CHECK:       %[[C64:.*]] = arith.constant 64 : index
// CHECK:       %[[S:.*]] = arith.muli %[[Q2]], %[[C64]] : index
// CHECK:       %[[A:.*]] = arith.addi %[[M]], %[[S]] : index
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK:       %[[CD:.*]] = arith.ceildivsi %[[Y]], %[[C2]] : index
// CHECK:       %[[B:.*]] = arith.addi %[[A]], %[[CD]] : index
// CHECK:       memref.store %{{.*}}, %arg0[%[[B]]]
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
// CHECK-LABEL: gpu.func @in_module
// CHECK-NOT:   affine.apply
// CHECK:       arith.floordivsi
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
