// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-stage-copies)'

// The staged form is checked as it is issued: the marked copy becomes a global load and an
// LDS store (at the copy's place, located there) over the buffer a read of another wave may
// still read (no wait completing the read, then a barrier, before it).  As a DMA the copy
// would race the same way; the check reads the staged stream itself.
func.func @overwrites_a_read(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> {
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  // expected-error @+1 {{sched-stage-copies: the register-staged form: 'vector.store' op at}}
  amdgpu.gather_to_lds %src[%i, %i], %lds[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  return %r : vector<4xf32>
}

// -----

// The same with the read completed (lgkmcnt(0)) and a barrier before the copy: no error.
func.func @ordered(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> {
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  rocdl.s.waitcnt 49279
  rocdl.s.barrier
  amdgpu.gather_to_lds %src[%i, %i], %lds[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  return %r : vector<4xf32>
}
