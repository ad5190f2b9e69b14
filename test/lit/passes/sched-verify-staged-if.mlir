// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-verify)' | FileCheck %s

// sched-verify's staged-form check through an scf.if whose condition does not fold but is
// the same for every wave (here a function argument, a workgroup id, a loop bound): each
// combination of branches is a stream of its own, checked like a straight-line kernel.
// Both branches ordered (the staged store, lgkmcnt(0) = 49279, a barrier, the read):
// CHECK-LABEL: func.func @both_ordered
func.func @both_ordered(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %c: i1) -> vector<8xbf16> {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  scf.if %c {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    rocdl.s.waitcnt 49279
    rocdl.s.barrier
  } else {
    %z = arith.constant dense<0.0> : vector<8xbf16>
    vector.store %z, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    rocdl.s.waitcnt 49279
    rocdl.s.barrier
  }
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %f : vector<8xbf16>
}

// -----

// The then branch stores and reads with no barrier (a workgroup-id condition).
func.func @then_races(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) -> vector<8xbf16> {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  %w = gpu.block_id x
  %c0 = arith.constant 0 : index
  %c = arith.cmpi eq, %w, %c0 : index
  %r = scf.if %c -> vector<8xbf16> {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    rocdl.s.waitcnt 49279
    // expected-error @+1 {{sched-verify: the register-staged form: 'vector.load' op at}}
    %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %f : vector<8xbf16>
  } else {
    scf.yield %v : vector<8xbf16>
  }
  return %r : vector<8xbf16>
}

// -----

// Only the else branch misses its barrier: the hazard is found on the path that takes it,
// and the message says which path that is.
func.func @else_races(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %c: i1) -> vector<8xbf16> {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  scf.if %c {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    rocdl.s.waitcnt 49279
    rocdl.s.barrier
  } else {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    rocdl.s.waitcnt 49279
  }
  // expected-error @+1 {{(on the path where 'scf.if' op at line}}
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %f : vector<8xbf16>
}

// -----

// A loop whose body stores under a condition on its induction variable (a K tail): each
// unrolled iteration takes either branch; the iteration that stores without its barrier
// before the next iteration's read races.
func.func @tail_in_loop(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %k = %c0 to %n step %c1 {
    %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    vector.store %f, %src[%k, %i] : memref<64x64xbf16>, vector<8xbf16>
    rocdl.s.waitcnt 49279
    rocdl.s.barrier
    %v = vector.load %src[%i, %k] : memref<64x64xbf16>, vector<8xbf16>
    %last = arith.cmpi eq, %k, %c3 : index
    scf.if %last {
      vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
      rocdl.s.waitcnt 49279
    } else {
      vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
      rocdl.s.waitcnt 49279
      rocdl.s.barrier
    }
  }
  // expected-error @-15 {{sched-verify: the register-staged form: 'vector.load' op at}}
  return
}

// -----

// A condition on the thread id may differ between the waves: not modelled (the emulator
// checks such kernels), so no error here.
// CHECK-LABEL: func.func @per_thread
func.func @per_thread(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) -> vector<8xbf16> {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  %t = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c = arith.cmpi eq, %t, %c0 : index
  scf.if %c {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  }
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %f : vector<8xbf16>
}

// -----

// Nor a condition from an op the workgroup-uniform rule does not know, though its operands
// are the same in every wave: a global thread id (of no operand), a lane read
// (`rocdl.readlane`: of a lane the wave may not run), a call's result.  Taken as uniform,
// the race in each function's then branch would be reported.
func.func private @opaque() -> i1
// CHECK-LABEL: func.func @global_id
func.func @global_id(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  %c0 = arith.constant 0 : index
  %g = gpu.global_id x
  %c = arith.cmpi eq, %g, %c0 : index
  scf.if %c {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    vector.store %f, %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  }
  return
}
// CHECK-LABEL: func.func @readlane
func.func @readlane(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  %w = gpu.block_id x
  %w32 = arith.index_cast %w : index to i32
  %c0 = arith.constant 0 : i32
  %l = rocdl.readlane %w32, %c0 : (i32, i32) -> i32
  %c = arith.cmpi eq, %l, %c0 : i32
  scf.if %c {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    vector.store %f, %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  }
  return
}
// CHECK-LABEL: func.func @call
func.func @call(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) {
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  %c = func.call @opaque() : () -> i1
  scf.if %c {
    vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    vector.store %f, %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  }
  return
}
