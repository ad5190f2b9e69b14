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

// -----

// A workgroup of one wave (its stated size, 64 threads) has no other wave to order
// against: its staged store complete (lgkmcnt(0)) before its own read needs no barrier
// (LLVM lowers a one-wave workgroup's barrier to no instruction, and the schedule of such
// a kernel places none there): no error.
func.func @one_wave_reads_its_store(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  amdgpu.gather_to_lds %src[%i, %i], %lds[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 49279
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  return %r : vector<4xf32>
}

// -----

// The same stream in a workgroup of two waves: the read may see the other wave's store
// incomplete (no barrier after its wait).
func.func @two_waves_read_a_store(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
  amdgpu.gather_to_lds %src[%i, %i], %lds[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 49279
  // expected-error @+1 {{incomplete in another wave (no wait completing it, then a barrier, before the read)}}
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  return %r : vector<4xf32>
}

// -----

// A function stating two workgroup sizes that differ (one wave in gpu.known_block_size,
// two in IREE's translation_info, which launches it) is checked as several waves: the
// same read is an error.
func.func @conflicting_sizes(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> attributes {gpu.known_block_size = array<i32: 64, 1, 1>, translation_info = #iree_codegen.translation_info<pipeline = None workgroup_size = [128, 1, 1] subgroup_size = 64>} {
  amdgpu.gather_to_lds %src[%i, %i], %lds[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 49279
  // expected-error @+1 {{incomplete in another wave (no wait completing it, then a barrier, before the read)}}
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  return %r : vector<4xf32>
}

// -----

// One wave's staged store over a read it has not completed (the read's registers used
// after the copy): the read and the store are both LDS instructions on lgkmcnt, which
// complete in the order the wave issues them, so the read has its data before the store
// writes: no error (fp8 A^T x B^T 34x66x2142, one wave, was refused so).
func.func @one_wave_stores_over_its_read(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  amdgpu.gather_to_lds %src[%i, %i], %lds[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 49279
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  return %r : vector<4xf32>
}

// -----

// One wave still needs its own read complete before a DMA copy over it (the copy writes
// LDS on vmcnt, whenever it lands): with a staged copy elsewhere in the function, the
// check reads the stream and the DMA is an error.
func.func @one_wave_dma_over_its_read(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %lds2: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>) -> vector<4xf32> attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  amdgpu.gather_to_lds %src[%i, %i], %lds2[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 49279
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  // expected-error @+1 {{in flight in the wave (no wait completing the read before the write)}}
  amdgpu.gather_to_lds %src[%i, %i], %lds[%i] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 49279
  %r = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  return %r : vector<4xf32>
}
