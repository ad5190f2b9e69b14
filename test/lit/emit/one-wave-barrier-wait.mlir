// RUN: pipeline-opt %s --emit=asm -o - | FileCheck %s

// The staged-form check (pipeline_mlir/sim/lds_events.py) models a gpu.barrier of a
// one-wave workgroup as lgkmcnt(0) then a barrier; LLVM lowers the barrier of one wave to
// no instruction, so the check relies on LLVM keeping the wait: here the ds_read of %lds
// is complete before the DMA copy over %lds (global_load_lds) the barrier orders after
// it (LLVM 22 keeps it with LDS DMA in the kernel). A later LLVM that drops it fails here.
// The global load of %src first makes the kernel's scalar argument loads (whose lgkmcnt
// waits would drain the ds_read by chance) come before the ds_read.

// CHECK-LABEL: k:
// CHECK:       ds_read_b128
// CHECK-NOT:   global_load_lds
// CHECK:       s_waitcnt {{.*}}lgkmcnt(0)
// CHECK:       global_load_lds_dwordx4
func.func @k(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %lds2: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %acc: vector<4xf32>, %out: memref<4xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %h = vector.load %src[%i, %i] : memref<64x4095xbf16>, vector<8xbf16>
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  amdgpu.gather_to_lds %src[%i, %c0], %lds[%c0] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %i], %lds2[%i] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 0
  gpu.barrier
  %g = vector.load %lds2[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r0 = amdgpu.mfma 16x16x32 %h * %g + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %r = amdgpu.mfma 16x16x32 %f * %g + %r0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %r, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}
