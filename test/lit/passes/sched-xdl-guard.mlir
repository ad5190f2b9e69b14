// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-xdl-guard)' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-xdl-guard,sched-xdl-guard)' | FileCheck %s

// sched-xdl-guard: 20 wait states (rocdl.s.nop 15 and 3 between two
// rocdl.sched.barrier none) wherever a 16-pass XDL MFMA's result (fp8 32x32x64: LLVM 22
// looks back 19) may be read or overwritten too early: before the first op of its block
// reading it other than by accumulating on it; after a loop or branch holding one,
// marked or not, that does not guard it so; at the start of the blocks a block holding
// one branches to (a loop's exit, not its header). Not after an exit whose MFMA results
// are only accumulated on (identical C: no wait). Any other XDL MFMA (8 passes: 12 wait
// states, 4: 8) gets its own count where LLVM 22 may count a join of paths short: after a
// loop or branch holding one, and before the first reader in its block when an op after
// the MFMA may branch (a region, a masked store); not in straight-line code LLVM counts.
// A guard after a loop or branch with vector results starts with an empty side-effecting
// llvm.inline_asm reading them: the op's MFMAs are computed before it, so LLVM cannot sink
// them (pure intrinsics) past the guard after unrolling the loop.
// The second RUN line: a guard already there counts (idempotent).

// CHECK-LABEL: func.func @unmarked_loop
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @unmarked_loop(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                         %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  }
  vector.store %r, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// CHECK-LABEL: func.func @branch
// CHECK:         } else {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @branch(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %p: i1, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %r = scf.if %p -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %a + %c : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  } else {
    scf.yield %c : vector<16xf32>
  }
  vector.store %r, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// The loop's results only accumulated on after it (the pipelined main loop and its
// epilogue): no guard after the loop; the store of the last MFMA's result (straight-line
// code) has its guard before it.
// CHECK-LABEL: func.func @accumulated
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @accumulated(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                       %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  }
  %e = amdgpu.mfma 32x32x64 %a * %a + %r : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  vector.store %e, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// An MFMA result read inside the loop: the guard before the read, none after the loop
// (every path out passes it).
// CHECK-LABEL: func.func @read_inside
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
func.func @read_inside(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                       %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    vector.store %d, %out[%c0] : memref<16xf32>, vector<16xf32>
    scf.yield %acc : vector<16xf32>
  }
  %e = amdgpu.mfma 32x32x64 %a * %a + %r : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  vector.store %e, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// 8 passes (fp8 16x16x128; fp4 on both sides of the 32x32x64): 12 wait states after each
// loop, whose exit is a join of paths (the loop entered or not) that LLVM 22 may count
// short.
// CHECK-LABEL: func.func @eight_passes
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 11
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    scf.for
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 11
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK-NEXT:    vector.store
// CHECK-NEXT:    return
func.func @eight_passes(%a: vector<32xf8E4M3FN>, %f: vector<32xf4E2M1FN>, %c: vector<4xf32>,
                        %c16: vector<16xf32>, %n: index, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<4xf32>) {
    %d = amdgpu.mfma 16x16x128 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c16) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %f * %f + %acc : vector<32xf4E2M1FN>, vector<32xf4E2M1FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  }
  vector.store %r, %out[%c0] : memref<16xf32>, vector<4xf32>
  vector.store %s, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// Straight-line code after a 4-pass MFMA (f16 16x16x32: 8 wait states): a store in the
// same block, no op that may branch after the MFMA: LLVM counts one block right, no guard.
// CHECK-LABEL: func.func @straight_four_passes
// CHECK-NOT:     rocdl.s.nop
// CHECK:         return
func.func @straight_four_passes(%a: vector<8xf16>, %c: vector<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xf16>, vector<8xf16>, vector<4xf32>
  vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}

// -----

// The same MFMA's result converted and stored by a masked store, which LLVM makes a
// branch per element (a block each, joined after): the guard of 8 before the first reader,
// the conversion (LLVM may sink it into the store's blocks).
// CHECK-LABEL: func.func @masked_store
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    arith.truncf
// CHECK-NEXT:    vector.maskedstore
func.func @masked_store(%a: vector<8xf16>, %c: vector<4xf32>, %m: vector<4xi1>,
                        %out: memref<4xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xf16>, vector<8xf16>, vector<4xf32>
  %t = arith.truncf %d : vector<4xf32> to vector<4xf8E5M2>
  vector.maskedstore %out[%c0], %m, %t : memref<4xf8E5M2>, vector<4xi1>, vector<4xf8E5M2>
  return
}

// -----

// A vector transfer is a masked store when a dimension may be out of bounds (or it has a
// mask): guarded; one in bounds is a plain store: not.
// CHECK-LABEL: func.func @transfer_in_bounds
// CHECK-NOT:     rocdl.s.nop
// CHECK:         return
func.func @transfer_in_bounds(%a: vector<8xf16>, %c: vector<4xf32>, %i: index,
                              %out: memref<?xf32>) {
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xf16>, vector<8xf16>, vector<4xf32>
  vector.transfer_write %d, %out[%i] {in_bounds = [true]} : vector<4xf32>, memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @transfer_out_of_bounds
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.transfer_write
func.func @transfer_out_of_bounds(%a: vector<8xf16>, %c: vector<4xf32>, %i: index,
                                  %out: memref<?xf32>) {
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xf16>, vector<8xf16>, vector<4xf32>
  vector.transfer_write %d, %out[%i] {in_bounds = [false]} : vector<4xf32>, memref<?xf32>
  return
}

// -----

// A branch after the MFMA that does not read it (the warp stagger's barrier) and a store
// after the join: the guard before the store, the first reader.
// CHECK-LABEL: func.func @join_before_the_reader
// CHECK:         scf.if
// CHECK:         }
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @join_before_the_reader(%a: vector<8xf16>, %c: vector<4xf32>, %p: i1,
                                  %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %d = amdgpu.mfma 16x16x32 %a * %a + %c : vector<8xf16>, vector<8xf16>, vector<4xf32>
  scf.if %p {
    rocdl.s.barrier
  }
  vector.store %d, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}

// -----

// Unstructured control flow: the MFMA's block branches to the loop header, which only
// compares scalars and goes back or out: the guard on the exit edge (the block the
// header leaves to), not at the header on every iteration.
// CHECK-LABEL: func.func @unstructured
// CHECK:       {{^ *}}^bb1(
// CHECK-NEXT:    arith.cmpi
// CHECK:       ^bb2:
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NOT:     rocdl.s.nop
// CHECK:       ^bb3:
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @unstructured(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                        %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %c : index, vector<16xf32>)
^bb1(%i: index, %acc: vector<16xf32>):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %d : index, vector<16xf32>)
^bb3:
  vector.store %acc, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// A header that reads the accumulator (a vector op) is no pass-through: the guard stays
// at the header, on both edges.
// CHECK-LABEL: func.func @header_reads
// CHECK:       {{^ *}}^bb1(
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK:       ^bb3:
// CHECK-NEXT:    return
func.func @header_reads(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                        %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %c : index, vector<16xf32>)
^bb1(%i: index, %acc: vector<16xf32>):
  vector.store %acc, %out[%c0] : memref<16xf32>, vector<16xf32>
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %d : index, vector<16xf32>)
^bb3:
  return
}

// -----

// The body's MFMA does not take the header's accumulator (its registers are free in the
// body, where anything may overwrite them): the guard stays at the header.
// CHECK-LABEL: func.func @not_taken
// CHECK:       {{^ *}}^bb1(
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    arith.cmpi
// CHECK:       ^bb3:
// CHECK-NEXT:    vector.store
func.func @not_taken(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                     %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %c : index, vector<16xf32>)
^bb1(%i: index, %acc: vector<16xf32>):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  %d = amdgpu.mfma 32x32x64 %a * %a + %c : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %d : index, vector<16xf32>)
^bb3:
  vector.store %acc, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// The loop's MFMA result read at the top of the next iteration (through the iteration
// argument, on the back edge): the guard before that read; none after the loop, whose
// result is only accumulated on.
// CHECK-LABEL: func.func @back_edge
// CHECK:         scf.for
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    amdgpu.mfma
func.func @back_edge(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                     %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    vector.store %acc, %out[%c0] : memref<16xf32>, vector<16xf32>
    %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  }
  %e = amdgpu.mfma 32x32x64 %a * %a + %r : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  vector.store %e, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// Straight-line code: LLVM 22 may issue the store exactly 19 wait states after the MFMA
// (the 19 independent ops here are what it fills the gap with): the guard before the
// store, after the independent ops; none when a guard is already between.
// CHECK-LABEL: func.func @straight
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    arith.xori
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    vector.store
// CHECK-NOT:     rocdl.s.nop
// CHECK:         return
func.func @straight(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %x: i32,
                    %out: memref<16xf32>) -> i32 {
  %c0 = arith.constant 0 : index
  %k = arith.constant 3 : i32
  %d = amdgpu.mfma 32x32x64 %a * %a + %c : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  %y = arith.muli %x, %k : i32
  %z = arith.xori %y, %k : i32
  vector.store %d, %out[%c0] : memref<16xf32>, vector<16xf32>
  %e = amdgpu.mfma 32x32x64 %a * %a + %c : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  %f = arith.addf %e, %d : vector<16xf32>
  vector.store %f, %out[%c0] : memref<16xf32>, vector<16xf32>
  return %z : i32
}

// -----

// A function's return is the program's end only in a kernel (a func.func stating its
// workgroup size, IREE's translation_info, a gpu.func kernel); any other function's
// caller runs on: its returned MFMA result has the guard before the return, and a loop
// exit followed only by its return is guarded.
// CHECK-LABEL: func.func @callee
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    return
func.func @callee(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>) -> vector<16xf32> {
  %d = amdgpu.mfma 32x32x64 %a * %a + %c : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  return %d : vector<16xf32>
}

// -----

// CHECK-LABEL: func.func @kernel_func
// CHECK:         } else {
// CHECK:         rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @helper
// CHECK:         } else {
// CHECK:         rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    return
func.func @kernel_func(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index, %p: i1)
    attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = scf.if %p -> (vector<16xf32>) {
      %m = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
      scf.yield %m : vector<16xf32>
    } else {
      scf.yield %acc : vector<16xf32>
    }
    scf.yield %d : vector<16xf32>
  }
  return
}
func.func @helper(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = scf.if %p -> (vector<16xf32>) {
      %m = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
      scf.yield %m : vector<16xf32>
    } else {
      scf.yield %acc : vector<16xf32>
    }
    scf.yield %d : vector<16xf32>
  }
  return
}

// -----

// The result read inside the loop: the guard before the read covers every exit.
// CHECK-LABEL: func.func @last
// CHECK:         rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @last(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %d = amdgpu.mfma 32x32x64 %a * %a + %c : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    vector.store %d, %out[%c0] : memref<16xf32>, vector<16xf32>
  }
  return
}

// -----

// A kernel's return ends the program; a device function's does not (its caller runs on).
// CHECK-LABEL: gpu.func @kernel
// CHECK:         } else {
// CHECK:         rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return
// CHECK-LABEL: gpu.func @device
// CHECK:         } else {
// CHECK:         rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    gpu.return
gpu.module @kernels {
  gpu.func @kernel(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                   %p: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
      %d = scf.if %p -> (vector<16xf32>) {
        %m = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
        scf.yield %m : vector<16xf32>
      } else {
        scf.yield %acc : vector<16xf32>
      }
      scf.yield %d : vector<16xf32>
    }
    gpu.return
  }
  gpu.func @device(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                   %p: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
      %d = scf.if %p -> (vector<16xf32>) {
        %m = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
        scf.yield %m : vector<16xf32>
      } else {
        scf.yield %acc : vector<16xf32>
      }
      scf.yield %d : vector<16xf32>
    }
    gpu.return
  }
}

// -----

// An scf.while whose `do` region yields the MFMA's result to the `before` region, which
// reads it: the guard before that reader (the back edge), and after the loop.
// CHECK-LABEL: func.func @while_back_edge
// CHECK:         scf.while
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.extract
// CHECK:         amdgpu.mfma
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v"
// CHECK-NEXT:    rocdl.sched.barrier none
func.func @while_back_edge(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %lim: f32,
                           %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %r = scf.while (%acc = %c) : (vector<16xf32>) -> vector<16xf32> {
    %e = vector.extract %acc[0] : f32 from vector<16xf32>
    %p = arith.cmpf olt, %e, %lim : f32
    scf.condition(%p) %acc : vector<16xf32>
  } do {
  ^bb0(%acc2: vector<16xf32>):
    %d = amdgpu.mfma 32x32x64 %a * %a + %acc2 : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  }
  vector.store %r, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// The result rotated through a second iteration argument (yield %d, %x) and stored at
// the top of the iteration after next: the chain is followed, the guard before the store.
// CHECK-LABEL: func.func @rotated
// CHECK:         scf.for
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    scf.yield
func.func @rotated(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                   %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c, %y = %c) -> (vector<16xf32>, vector<16xf32>) {
    vector.store %y, %out[%c0] : memref<16xf32>, vector<16xf32>
    %d = amdgpu.mfma 32x32x64 %a * %a + %x : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d, %x : vector<16xf32>, vector<16xf32>
  }
  %e = amdgpu.mfma 32x32x64 %a * %a + %r#0 : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  %f = amdgpu.mfma 32x32x64 %a * %a + %r#1 : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
  vector.store %e, %out[%c0] : memref<16xf32>, vector<16xf32>
  vector.store %f, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}

// -----

// The pin reads only what the loop's MFMAs compute (the accumulator), not the fragment it
// carries on (a vector of bytes, which an asm operand cannot take in VGPRs).
// CHECK-LABEL: func.func @pin_accumulators_only
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "v" %{{.*}}#0 : (vector<4xi32>) -> ()
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 7
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @pin_accumulators_only(%a: vector<16xi8>, %c: vector<4xi32>, %n: index,
                                 %out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c, %f = %a) -> (vector<4xi32>, vector<16xi8>) {
    %d = amdgpu.mfma 16x16x64 %f * %f + %acc : vector<16xi8>, vector<16xi8>, vector<4xi32>
    scf.yield %d, %f : vector<4xi32>, vector<16xi8>
  }
  vector.store %r#0, %out[%c0] : memref<4xi32>, vector<4xi32>
  return
}

// -----

// In a kernel keeping its accumulators in AGPRs (sched.agpr_alloc: LLVM selects the MFMAs'
// AGPR form) the pin takes them in AGPRs: in VGPRs LLVM would copy every accumulator
// register out of its AGPR for the asm alone (finding 104).
// CHECK-LABEL: func.func @pin_in_agprs
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects "", "a" %{{.*}} : (vector<16xf32>) -> ()
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    rocdl.s.nop 15
// CHECK-NEXT:    rocdl.s.nop 3
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
func.func @pin_in_agprs(%a: vector<32xf8E4M3FN>, %c: vector<16xf32>, %n: index,
                        %out: memref<16xf32>) attributes {sched.agpr_alloc = 16 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<16xf32>) {
    %d = amdgpu.mfma 32x32x64 %a * %a + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
    scf.yield %d : vector<16xf32>
  }
  vector.store %r, %out[%c0] : memref<16xf32>, vector<16xf32>
  return
}
