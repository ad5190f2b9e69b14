// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-xdl-guard)' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-xdl-guard,sched-xdl-guard)' | FileCheck %s

// sched-xdl-guard opens a guard (its two fences get the mask valu|transcendental:
// ALU work may cross it, no MFMA, no memory instruction) when every MFMA result read
// after it, by anything but an MFMA, comes from an XDL MFMA of fewer than 16 passes in the
// guard's block with no op that may branch between them: an instruction crossing it is
// then in straight code after its MFMA, which LLVM 22 counts right. Otherwise the guard
// stays closed (mask none).  Only in a kernel (a workgroup size, here): the code after
// another function's return is its caller's. The second RUN line: run again, the same guards (the pass
// closes the guards it opened and decides again).

// A masked store (a branch per element in LLVM) of a 4-pass MFMA's result (bf16
// 16x16x32: 8 wait states): opened.
// CHECK-LABEL: func.func @opened
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    vector.maskedstore
// CHECK-NOT:     rocdl.sched.barrier
func.func @opened(%a: vector<8xbf16>, %c: vector<4xf32>, %m: vector<4xi1>, %i: index,
                  %out: memref<?xf32>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c4 = arith.constant 4 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %j = arith.addi %i, %c4 : index
  vector.maskedstore %out[%j], %m, %d : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

// A 16-pass MFMA (fp8 32x32x64): a reader crossing the guard could land 19 wait states
// after it, outside LLVM 22's window: closed.
// CHECK-LABEL: func.func @window
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
func.func @window(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %m: vector<16xi1>, %i: index,
                  %out: memref<?xf32>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c4 = arith.constant 4 : index
  %d = amdgpu.mfma 32x32x64 %a * %a + %c : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  %j = arith.addi %i, %c4 : index
  vector.maskedstore %out[%j], %m, %d : memref<?xf32>, vector<16xi1>, vector<16xf32>
  return
}

// -----

// An op that may branch (a masked store of something else) between the MFMA and the
// guard: a reader crossing the guard would sit behind that join: closed.
// CHECK-LABEL: func.func @join_between
// CHECK:         vector.maskedstore
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.maskedstore
func.func @join_between(%a: vector<8xbf16>, %c: vector<4xf32>, %m: vector<4xi1>,
                        %x: vector<4xf32>, %out: memref<?xf32>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.maskedstore %out[%c0], %m, %x : memref<?xf32>, vector<4xi1>, vector<4xf32>
  vector.maskedstore %out[%c0], %m, %d : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

// The MFMA in a loop, its result read after the loop (the guard on the loop's exit): the
// value read is the loop's result, not an MFMA of the guard's block: closed.
// CHECK-LABEL: func.func @after_loop
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
func.func @after_loop(%a: vector<8xbf16>, %c: vector<4xf32>, %m: vector<4xi1>, %n: index,
                      %out: memref<?xf32>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<4xf32>) {
    %d = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  vector.maskedstore %out[%c0], %m, %r : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

// Two MFMAs, each result stored by a masked store: both guards opened.  The first
// MFMA's store is a branch before the second guard, but it reads nothing that crosses that
// guard, and the second MFMA's store is straight code after that MFMA.
// CHECK-LABEL: func.func @two_stores
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    vector.maskedstore
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    vector.maskedstore
func.func @two_stores(%a: vector<8xbf16>, %c: vector<4xf32>, %m: vector<4xi1>,
                       %out: memref<?xf32>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.maskedstore %out[%c0], %m, %d : memref<?xf32>, vector<4xi1>, vector<4xf32>
  %e = amdgpu.mfma 16x16x32 %a * %a + %d : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.maskedstore %out[%c0], %m, %e : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

// A guard already there after a conversion of the MFMA's result, and the one the pass puts
// before the conversion: the pass's guard opened; the other not, as the store after it
// reads a value computed from the MFMA's result by another op (the rule follows MFMA
// results only).
// CHECK-LABEL: func.func @reader_above
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier valu|transcendental
// CHECK-NEXT:    arith.truncf
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.maskedstore
func.func @reader_above(%a: vector<8xbf16>, %c: vector<4xf32>, %m: vector<4xi1>,
                        %out: memref<?xbf16>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %t = arith.truncf %d : vector<4xf32> to vector<4xbf16>
  rocdl.sched.barrier none
  rocdl.s.nop 7
  rocdl.sched.barrier none
  vector.maskedstore %out[%c0], %m, %t : memref<?xbf16>, vector<4xi1>, vector<4xbf16>
  return
}

// -----

// @opened in a function that is not a kernel: closed.
// CHECK-LABEL: func.func @not_kernel
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.maskedstore
func.func @not_kernel(%a: vector<8xbf16>, %c: vector<4xf32>, %m: vector<4xi1>, %i: index,
                      %out: memref<?xf32>) {
  %c4 = arith.constant 4 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %j = arith.addi %i, %c4 : index
  vector.maskedstore %out[%j], %m, %d : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

// Two fences with no s_nop between them are a schedule's, not a guard: left as they are.
// CHECK-LABEL: func.func @schedule_fences
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @schedule_fences(%a: vector<8xbf16>, %c: vector<4xf32>, %out: memref<4xf32>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  rocdl.sched.barrier none
  rocdl.sched.barrier none
  vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}

// -----

// The guard's block branches on (unstructured code): what follows the guard is not all of
// the code after it, closed.
// CHECK-LABEL: func.func @branches_on
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.maskedstore
// CHECK-NEXT:    cf.br
func.func @branches_on(%a: vector<8xbf16>, %c: vector<4xf32>, %m: vector<4xi1>,
                       %out: memref<?xf32>)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.maskedstore %out[%c0], %m, %d : memref<?xf32>, vector<4xi1>, vector<4xf32>
  cf.br ^bb1
^bb1:
  return
}
