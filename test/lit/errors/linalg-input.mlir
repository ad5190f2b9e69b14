// RUN: not pipeline-opt %s --pipeline=4wave 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s

// A linalg matmul, what a user has before compiling it with IREE, is refused at the matmul
// (not at 0:0), saying what input the front end takes and how to get it.

// CHECK-NOT: 0:0
// CHECK:     linalg-input.mlir:17:8: error: sched-adopt-loop: 'linalg.matmul' op: the input is not tiled for the GPU yet; the front end takes a kernel whose K-loop is tiled, bufferized and distributed to threads: an scf.for over K tiles that copies A and B to LDS (amdgpu.gather_to_lds) and multiplies with amdgpu.mfma, such as IREE's gfx950 kernel just before its shared-memory prefetch pass (compile the linalg op with iree-compile first: test/data/iree/generate.py, prefetch_point, shows how)
// CHECK-NEXT: linalg.matmul
// CHECK-NOT: Traceback

func.func @matmul(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // the op the error is located at
  %r = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>)
         outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
