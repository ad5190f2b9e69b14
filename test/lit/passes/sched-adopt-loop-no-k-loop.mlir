// RUN: not pipeline-opt %s --split-input-file --pipeline=4wave 2>&1 | FileCheck %s

// IREE's VectorDistribute prefetch point of a matmul whose K is one K tile (E4M3FN A x
// E5M2 B^T 256x512x128, cut down to its product): the workgroups' tiles of A and B
// multiplied whole by an iree_codegen.inner_tiled, in no loop (IREE removes a loop of one
// iteration; its later form has the MFMAs, also in no loop). Refused at the product for
// the reason the later form is refused at its MFMA: no K-loop. Before, it was said to be
// "not tiled for the GPU yet", which is what a product outside the workgroups' forall
// still gets (the second case, the same product outside any forall).
// CHECK:     no-k-loop.mlir:27:10: error: sched-adopt-loop: 'iree_codegen.inner_tiled' op is not inside an scf.for: the kernel has no K-loop to pipeline (IREE removes a loop of one iteration: the whole reduction is a single K step)
// CHECK-NOT: Traceback
// CHECK:     no-k-loop.mlir:42:8: error: sched-adopt-loop: 'iree_codegen.inner_tiled' op: the input is not tiled for the GPU yet

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @one_k_step(%a: memref<256x128xf8E4M3FN>, %b: memref<512x128xf8E5M2>, %c: memref<256x512xf32>) {
  %c0 = arith.constant 0 : index
  %pa = arith.constant 0.0 : f8E4M3FN
  %pb = arith.constant 0.0 : f8E5M2
  %zero = arith.constant dense<0.0> : vector<4x4x16x16xf32>
  scf.forall (%i, %j) = (0, 0) to (256, 512) step (64, 64) {
    %ta = vector.transfer_read %a[%i, %c0], %pa {in_bounds = [true, true]} : memref<256x128xf8E4M3FN>, vector<64x128xf8E4M3FN>
    %tb = vector.transfer_read %b[%j, %c0], %pb {in_bounds = [true, true]} : memref<512x128xf8E5M2>, vector<64x128xf8E5M2>
    %va = vector.shape_cast %ta : vector<64x128xf8E4M3FN> to vector<4x1x16x128xf8E4M3FN>
    %vb = vector.shape_cast %tb : vector<64x128xf8E5M2> to vector<4x1x16x128xf8E5M2>
    %r = iree_codegen.inner_tiled ins(%va, %vb) outs(%zero) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = true>> : vector<4x1x16x128xf8E4M3FN>, vector<4x1x16x128xf8E5M2> into vector<4x4x16x16xf32>
    %t = vector.transpose %r, [0, 2, 1, 3] : vector<4x4x16x16xf32> to vector<4x16x4x16xf32>
    %o = vector.shape_cast %t : vector<4x16x4x16xf32> to vector<64x64xf32>
    vector.transfer_write %o, %c[%i, %j] {in_bounds = [true, true]} : vector<64x64xf32>, memref<256x512xf32>
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @untiled(%va: vector<4x1x16x128xf8E4M3FN>, %vb: vector<4x1x16x128xf8E5M2>) -> vector<4x4x16x16xf32> {
  %zero = arith.constant dense<0.0> : vector<4x4x16x16xf32>
  %r = iree_codegen.inner_tiled ins(%va, %vb) outs(%zero) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = true>> : vector<4x1x16x128xf8E4M3FN>, vector<4x1x16x128xf8E5M2> into vector<4x4x16x16xf32>
  return %r : vector<4x4x16x16xf32>
}

// -----

// The late form of IREE's f16 A^T x B 1x100x520 (cut down to its K-loop): no MFMA
// configuration fits, so each thread computes its element of C from global memory, its
// per-thread vector.contract lowered to a multiply and a reduction. Refused at the
// multiply the carried sum is computed from, for the reason the prefetch point is refused
// at its vector.contract; before, "nothing to pipeline" at the module.
// CHECK:     no-k-loop.mlir:63:10: error: sched-adopt-loop: 'arith.mulf' op multiplies in registers inside the K-loop, with no amdgpu.mfma and no LDS in the kernel: its matmul was compiled without an MFMA configuration

func.func @per_thread(%a: memref<520xf16>, %b: memref<520x100xf16>, %c: memref<100xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c520 = arith.constant 520 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %k = %c0 to %c520 step %c4 iter_args(%acc = %zero) -> (f32) {
    %va = vector.load %a[%k] : memref<520xf16>, vector<4xf16>
    %vb = vector.load %b[%k, %n] : memref<520x100xf16>, vector<4xf16>
    %p = arith.mulf %va, %vb : vector<4xf16>
    %e = arith.extf %p : vector<4xf16> to vector<4xf32>
    %r = vector.reduction <add>, %e, %acc : vector<4xf32> into f32
    scf.yield %r : f32
  }
  memref.store %s, %c[%n] : memref<100xf32>
  return
}

// -----

// A loop whose carried and stored values are computed with no multiply (a sum of loaded
// elements), though it multiplies to address them: nothing to pipeline, as before.
// CHECK:     error: sched-import: nothing to pipeline: the input has no 'sched.pipeline' op

func.func @sum(%a: memref<2080xf32>, %c: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c520 = arith.constant 520 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %k = %c0 to %c520 step %c1 iter_args(%acc = %zero) -> (f32) {
    %i = arith.muli %k, %c4 : index
    %v = memref.load %a[%i] : memref<2080xf32>
    %r = arith.addf %v, %acc : f32
    memref.store %r, %a[%i] : memref<2080xf32>
    scf.yield %r : f32
  }
  memref.store %s, %c[%c0] : memref<1xf32>
  return
}
