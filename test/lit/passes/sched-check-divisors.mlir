// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-check-divisors)' | FileCheck %s

// sched-check-divisors (the first pass of the LLVM step) changes nothing: it fails at
// each arith integer division or remainder by a constant zero, scalar or an element of
// a vector, or by a value MLIR's folding makes one (IREE's
// iree-util-optimize-int-arithmetic, later in the step, crashed the process on both: a
// mutated IREE kernel built without the sched passes).

// CHECK-LABEL: func.func @by_four
// CHECK:         arith.divui
// CHECK:         arith.remsi
func.func @by_four(%x: i32, %v: vector<2xi32>) -> (i32, vector<2xi32>) {
  %c4 = arith.constant 4 : i32
  %d = arith.divui %x, %c4 : i32
  %c = arith.constant dense<[3, 5]> : vector<2xi32>
  %r = arith.remsi %v, %c : vector<2xi32>
  return %d, %r : i32, vector<2xi32>
}

// -----

func.func @by_zero(%x: i32, %y: index) -> (i32, index) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{sched-check-divisors: 'arith.divui' op divides by a constant zero}}
  %d = arith.divui %x, %c0 : i32
  %z = arith.constant 0 : index
  // expected-error @+1 {{sched-check-divisors: 'arith.ceildivsi' op divides by a constant zero}}
  %r = arith.ceildivsi %y, %z : index
  return %d, %r : i32, index
}

// -----

func.func @by_a_vector_with_zero(%v: vector<2xi32>, %x: i32, %y: i32) -> (vector<2xi32>, i32) {
  %c = arith.constant dense<[3, 0]> : vector<2xi32>
  // expected-error @+1 {{sched-check-divisors: 'arith.remui' op divides by a constant zero}}
  %r = arith.remui %v, %c : vector<2xi32>
  %s = arith.constant dense<0> : vector<2xi32>
  // expected-error @+1 {{sched-check-divisors: 'arith.divsi' op divides by a constant zero}}
  %q = arith.divsi %v, %s : vector<2xi32>
  // a divisor that is no constant: not this pass's to judge
  %d = arith.divsi %x, %y : i32
  return %r, %d : vector<2xi32>, i32
}

// -----

// A divisor that is no constant but folds to zero (x - x, x & 0: IREE's analysis crashed
// on those too) is refused; one that folds to a nonzero constant, or does not fold, is not.

// CHECK-LABEL: func.func @by_folds
// CHECK:         arith.divui
// CHECK:         arith.remsi
func.func @by_folds(%x: i32, %y: i32) -> (i32, i32) {
  %c4 = arith.constant 4 : i32
  %four = arith.ori %c4, %c4 : i32
  %d = arith.divui %x, %four : i32
  %r = arith.remsi %x, %y : i32
  return %d, %r : i32, i32
}

// -----

func.func @by_zero_folds(%x: i32, %v: vector<2xi32>) -> (i32, i32, vector<2xi32>) {
  %z = arith.subi %x, %x : i32
  // expected-error @+1 {{sched-check-divisors: 'arith.divui' op divides by zero: its divisor folds to the constant 0}}
  %d = arith.divui %x, %z : i32
  %c0 = arith.constant 0 : i32
  %a = arith.andi %x, %c0 : i32
  // expected-error @+1 {{sched-check-divisors: 'arith.remsi' op divides by zero: its divisor folds to the constant 0}}
  %r = arith.remsi %x, %a : i32
  %w = arith.xori %v, %v : vector<2xi32>
  // expected-error @+1 {{sched-check-divisors: 'arith.ceildivsi' op divides by zero: its divisor folds to the constant 0}}
  %q = arith.ceildivsi %v, %w : vector<2xi32>
  return %d, %r, %q : i32, i32, vector<2xi32>
}

// -----

// A divisor zero in every run by its range (IREE's range analysis crashed on each: a
// thread id below 256 shifted right by 8, a mask or a product by it, a workgroup id below
// 4 shifted by 2) is refused.

func.func @by_zero_ranges(%x: i32) -> (i32, i32, i32, i32) {
  %t = gpu.thread_id x upper_bound 256
  %ti = arith.index_castui %t : index to i32
  %c8 = arith.constant 8 : i32
  %s = arith.shrui %ti, %c8 : i32
  // expected-error @+1 {{sched-check-divisors: 'arith.divui' op divides by zero: its divisor is 0 in every run (its range, from the ids' upper_bound and the arithmetic on them, is [0, 0])}}
  %d = arith.divui %x, %s : i32
  %m = arith.andi %x, %s : i32
  // expected-error @+1 {{sched-check-divisors: 'arith.remui' op divides by zero: its divisor is 0 in every run}}
  %r = arith.remui %x, %m : i32
  %p = arith.muli %x, %s : i32
  // expected-error @+1 {{sched-check-divisors: 'arith.divsi' op divides by zero: its divisor is 0 in every run}}
  %q = arith.divsi %x, %p : i32
  %w = hal.interface.workgroup.id[0] upper_bound 4 : index
  %c2 = arith.constant 2 : index
  %ws = arith.shrui %w, %c2 : index
  %wi = arith.index_castui %ws : index to i32
  // expected-error @+1 {{sched-check-divisors: 'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %e = arith.divui %x, %wi : i32
  return %d, %r, %q, %e : i32, i32, i32, i32
}

// -----

// A range that holds a nonzero value, or an id with no upper_bound, is no zero.

// CHECK-LABEL: func.func @by_nonzero_ranges
// CHECK-COUNT-3: arith.divui
func.func @by_nonzero_ranges(%x: i32) -> (i32, i32, i32) {
  %t = gpu.thread_id x upper_bound 256
  %ti = arith.index_castui %t : index to i32
  %c7 = arith.constant 7 : i32
  %s = arith.shrui %ti, %c7 : i32
  %d = arith.divui %x, %s : i32
  %u = gpu.thread_id y
  %ui = arith.index_castui %u : index to i32
  %c8 = arith.constant 8 : i32
  %v = arith.shrui %ui, %c8 : i32
  %e = arith.divui %x, %v : i32
  %m = arith.andi %x, %s : i32
  %f = arith.divui %x, %m : i32
  return %d, %e, %f : i32, i32, i32
}
