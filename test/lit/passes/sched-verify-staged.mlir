// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-verify)' | FileCheck %s

// sched-verify on lowered MLIR (no sched op left): each function that stores registers of a
// global load to LDS (a register-staged copy) is checked as it is issued.  In order: the
// global load, the LDS store of its registers, s_waitcnt lgkmcnt(0) (49279), the barrier,
// the read; then the next write after the read completes (lgkmcnt(0)) and a barrier.
// CHECK-LABEL: func.func @ordered
func.func @ordered(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  rocdl.s.waitcnt 49279
  rocdl.s.barrier
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  rocdl.s.waitcnt 49279
  rocdl.s.barrier
  vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %r : vector<4xf32>
}

// -----

// No barrier between the staged store and the read: another wave's part may not be written.
func.func @no_barrier(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) -> vector<8xbf16> {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  rocdl.s.waitcnt 49279
  // expected-error @+1 {{sched-verify: the register-staged form: 'vector.load' op at}}
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %f : vector<8xbf16>
}

// -----

// The staged store placed after the barrier (its wait after it too): the barrier hands the
// buffer to the readers before the write.
func.func @store_past_barrier(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) -> vector<8xbf16> {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  rocdl.s.barrier
  vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  rocdl.s.waitcnt 49279
  // expected-error @+1 {{the read of LDS %arg1 may see the staged LDS store at 'vector.store' op at}}
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %f : vector<8xbf16>
}

// -----

// A staged store over LDS a read of another wave may still read: no wait and barrier
// between the read and the write (WAR).
func.func @overwrite(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> {
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  // expected-error @+1 {{the staged LDS store may overwrite LDS %arg1 while the read at 'vector.load' op at}}
  vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  return %r : vector<4xf32>
}
