// RUN: not pipeline-opt %s --split-input-file --pipeline=4wave 2>&1 | FileCheck %s

// IREE's TileAndFuse build of a matmul too small for an MFMA (f16 A x B^T 2x700x96, cut
// down to its K-loop): each thread stages its row of B in LDS and multiplies per thread.
// Both forms are refused at the product with one reason (before, the prefetch point was
// said to multiply "whole tiles" and the late form said "nothing to pipeline" at the
// module). First the prefetch point's per-thread vector.contract:
// CHECK:     per-thread-lds.mlir:28:10: error: sched-adopt-loop: 'vector.contract' op multiplies in registers inside the K-loop, with no amdgpu.mfma in the kernel (its LDS holds the operands of per-thread products)
// CHECK-NOT: Traceback

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @prefetch(%b: memref<64x96xf16>, %c: memref<1x64xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c96 = arith.constant 96 : index
  %pad = arith.constant 0.0 : f16
  %padf = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  %lds = memref.alloc() : memref<64x4xf16, #gpu.address_space<workgroup>>
  scf.for %k = %c0 to %c96 step %c4 {
    %g = vector.load %b[%t, %k] : memref<64x96xf16>, vector<4xf16>
    vector.store %g, %lds[%t, %c0] : memref<64x4xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    gpu.barrier
    %vb = vector.transfer_read %lds[%t, %c0], %pad {in_bounds = [true, true]} : memref<64x4xf16, #gpu.address_space<workgroup>>, vector<1x4xf16>
    %vc = vector.transfer_read %c[%c0, %t], %padf {in_bounds = [true, true]} : memref<1x64xf32>, vector<1x1xf32>
    %r = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %vb, %vb, %vc : vector<1x4xf16>, vector<1x4xf16> into vector<1x1xf32>
    vector.transfer_write %r, %c[%c0, %t] {in_bounds = [true, true]} : vector<1x1xf32>, memref<1x64xf32>
    gpu.barrier
  }
  return
}

// -----

// The late form: the product lowered to a multiply and a reduction, refused at the
// multiply with the same reason.
// CHECK:     per-thread-lds.mlir:53:10: error: sched-adopt-loop: 'arith.mulf' op multiplies in registers inside the K-loop, with no amdgpu.mfma in the kernel (its LDS holds the operands of per-thread products)

func.func @late(%b: memref<64x96xf16>, %c: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c96 = arith.constant 96 : index
  %t = gpu.thread_id x
  %lds = memref.alloc() : memref<64x4xf16, #gpu.address_space<workgroup>>
  scf.for %k = %c0 to %c96 step %c4 {
    %g = vector.load %b[%t, %k] : memref<64x96xf16>, vector<4xf16>
    vector.store %g, %lds[%t, %c0] : memref<64x4xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    gpu.barrier
    %vb = vector.load %lds[%t, %c0] : memref<64x4xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    %e = arith.extf %vb : vector<4xf16> to vector<4xf32>
    %p = arith.mulf %e, %e : vector<4xf32>
    %acc = memref.load %c[%t] : memref<64xf32>
    %s = vector.reduction <add>, %p, %acc : vector<4xf32> into f32
    memref.store %s, %c[%t] : memref<64xf32>
    gpu.barrier
  }
  return
}

// -----

// A product of whole workgroup tiles read from LDS at no thread's address (nothing
// distributed to threads yet) is still said to be one.
// CHECK:     per-thread-lds.mlir:81:10: error: sched-adopt-loop: 'vector.contract' op multiplies whole tiles inside the K-loop

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @whole(%b: memref<64x96xf16>, %c: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c96 = arith.constant 96 : index
  %pad = arith.constant 0.0 : f16
  %padf = arith.constant 0.0 : f32
  %lds = memref.alloc() : memref<64x4xf16, #gpu.address_space<workgroup>>
  scf.for %k = %c0 to %c96 step %c4 {
    %vb = vector.transfer_read %lds[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x4xf16, #gpu.address_space<workgroup>>, vector<64x4xf16>
    %vc = vector.transfer_read %c[%c0, %c0], %padf {in_bounds = [true, true]} : memref<64x64xf32>, vector<64x64xf32>
    %r = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %vb, %vb, %vc : vector<64x4xf16>, vector<64x4xf16> into vector<64x64xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  }
  return
}
