// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-stage-copies)' | FileCheck %s

// A copy marked sched.register_staged (its global source is not aligned to the 16 bytes it
// moves): a global vector.load of the lane's 8 elements at the copy's place; the LDS
// vector.store at the wave's destination plus lane * 8, then lgkmcnt(0) (s_waitcnt 0xC07F),
// just before the first wait or barrier after the copy (here past an MFMA and an unmarked
// copy, which stays a DMA copy); the second marked copy's store goes before the block's end.
// CHECK-LABEL: func.func @staged
// CHECK:         %[[V:.*]] = vector.load %arg0[%arg2, %arg3] : memref<64x4095xbf16>, vector<8xbf16>
// CHECK-NEXT:    %[[L:.*]] = gpu.lane_id
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[L]], %[[C8]] : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg4, %[[M]] : index
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    amdgpu.gather_to_lds %arg0[%arg2, %arg3], %arg1[%arg4] : vector<8xbf16>
// CHECK-NEXT:    vector.store %[[V]], %arg1[%[[A]]] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    %[[V2:.*]] = vector.load %arg0
// CHECK:         vector.store %[[V2]]
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    return
// CHECK-NOT:     sched.register_staged
func.func @staged(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index, %x: vector<8xbf16>, %acc: vector<4xf32>) {
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  %r = amdgpu.mfma 16x16x32 %x * %x + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  amdgpu.gather_to_lds %src[%i, %d], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A marked copy into a 2-D LDS buffer: the lane's place is not one index; an error at the copy.
func.func @two_d(%src: memref<64x4095xbf16>, %lds: memref<64x32xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index) {
  // expected-error @+1 {{sched-stage-copies: 'amdgpu.gather_to_lds' op marked sched.register_staged writes LDS memref<64x32xbf16, #gpu.address_space<workgroup>>; a staged copy writes a 1-D buffer}}
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d, %d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<64x32xbf16, #gpu.address_space<workgroup>>
  return
}
