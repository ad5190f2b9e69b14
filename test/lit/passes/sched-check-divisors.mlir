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
  // expected-error @+1 {{sched-check-divisors: 'arith.divui' op divides by zero: its divisor is 0 in every run (its range, from the ids' upper_bound, the loops' bounds and the arithmetic on them, is [0, 0])}}
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

// -----

// The rest of what IREE's range analysis bounds, each of which crashed it as a divisor
// zero in every run (finding 114 of docs/iree-audits.md: a divisor fuzz of IREE's late
// forms): a zero shifted left, or, xored, subtracted, shifted right signed or divided up;
// the smaller of a zero and an unknown; a select between zeros; a compare the ranges
// decide, extended; a zero truncated; a thread id, block size or lane id bounded by the
// workgroup's size or the wave's, with no upper_bound; and a mask of two values with no
// bit in common (1 & a block size of 256).

func.func @by_zero_ranges_more(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
    attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %t = gpu.thread_id x upper_bound 256
  %ti = arith.index_castui %t : index to i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %s8 = arith.shrui %ti, %c8 : i32
  %s9 = arith.shrui %ti, %c9 : i32
  %sl = arith.shli %s8, %c3 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d1 = arith.divui %x, %sl : i32
  %o = arith.ori %s8, %s9 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d2 = arith.divui %x, %o : i32
  %xo = arith.xori %s8, %s9 : i32
  // expected-error @+1 {{'arith.remui' op divides by zero: its divisor is 0 in every run}}
  %d3 = arith.remui %x, %xo : i32
  %sb = arith.subi %s8, %s9 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d4 = arith.divui %x, %sb : i32
  %sr = arith.shrsi %ti, %c8 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d5 = arith.divui %x, %sr : i32
  %cd = arith.ceildivui %s8, %c3 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d6 = arith.divui %x, %cd : i32
  %mn = arith.minui %y, %s8 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d7 = arith.divui %x, %mn : i32
  %p = arith.cmpi ult, %y, %c3 : i32
  %se = arith.select %p, %s8, %s9 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d8 = arith.divui %x, %se : i32
  %lt = arith.cmpi sgt, %s8, %c1 : i32
  %le = arith.extui %lt : i1 to i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d9 = arith.divui %x, %le : i32
  %tr = arith.trunci %s8 : i32 to i16
  %te = arith.extui %tr : i16 to i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d10 = arith.divui %x, %te : i32
  %u = gpu.thread_id x
  %ui = arith.index_castui %u : index to i32
  %us = arith.shrui %ui, %c8 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d11 = arith.divui %x, %us : i32
  %bd = gpu.block_dim y
  %bi = arith.index_castui %bd : index to i32
  %bs = arith.shrui %bi, %c1 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d12 = arith.divui %x, %bs : i32
  %l = gpu.lane_id
  %li = arith.index_castui %l : index to i32
  %c6 = arith.constant 6 : i32
  %ls = arith.shrui %li, %c6 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d13 = arith.divui %x, %ls : i32
  %bx = gpu.block_dim x
  %bxi = arith.index_castui %bx : index to i32
  %ba = arith.andi %c1, %bxi : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d14 = arith.divui %x, %ba : i32
  return %d1, %d2, %d3, %d4, %d5, %d6, %d7, %d8, %d9, %d10, %d11, %d12, %d13, %d14 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// The same arithmetic where a value's range holds a nonzero value is no zero: a one
// shifted left, or-ed or xored in, a subtraction that may wrap, the smaller of a one and
// an unknown, a select with a one, a compare the ranges do not decide, a truncation of a
// range wider than its type, a thread id of a workgroup of 512 shifted by 8 and a lane id
// shifted by 5.

// CHECK-LABEL: func.func @by_nonzero_ranges_more
// CHECK-COUNT-10: arith.divui
func.func @by_nonzero_ranges_more(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
    attributes {gpu.known_block_size = array<i32: 512, 1, 1>} {
  %t = gpu.thread_id x upper_bound 256
  %ti = arith.index_castui %t : index to i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %s7 = arith.shrui %ti, %c7 : i32
  %s8 = arith.shrui %ti, %c8 : i32
  %sl = arith.shli %s7, %c3 : i32
  %d1 = arith.divui %x, %sl : i32
  %o = arith.ori %s8, %s7 : i32
  %d2 = arith.divui %x, %o : i32
  %xo = arith.xori %s8, %s7 : i32
  %d3 = arith.divui %x, %xo : i32
  %sb = arith.subi %s8, %s7 : i32
  %d4 = arith.divui %x, %sb : i32
  %mn = arith.minui %y, %s7 : i32
  %d5 = arith.divui %x, %mn : i32
  %p = arith.cmpi ult, %y, %c3 : i32
  %se = arith.select %p, %s8, %s7 : i32
  %d6 = arith.divui %x, %se : i32
  %lt = arith.cmpi ugt, %ti, %c1 : i32
  %le = arith.extui %lt : i1 to i32
  %d7 = arith.divui %x, %le : i32
  %tr = arith.trunci %y : i32 to i16
  %te = arith.extui %tr : i16 to i32
  %d8 = arith.divui %x, %te : i32
  %u = gpu.thread_id x
  %ui = arith.index_castui %u : index to i32
  %us = arith.shrui %ui, %c8 : i32
  %d9 = arith.divui %x, %us : i32
  %l = gpu.lane_id
  %li = arith.index_castui %l : index to i32
  %ls = arith.shrui %li, %c5 : i32
  %d10 = arith.divui %x, %ls : i32
  return %d1, %d2, %d3, %d4, %d5, %d6, %d7, %d8, %d9, %d10 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// A divisor of the thread ids and constants alone that is zero in every thread of the
// workgroup though its range holds more ((tid * 2) mod 2: IREE's range analysis gives it
// [0, 1] and does not crash; the division is undefined in every thread all the same),
// evaluated per thread, is refused; tid >> 20 is zero by its range already. One zero in
// some threads only (tid >> 3), and one of other values (an argument), are not this
// pass's to judge.

func.func @by_thread_zero(%x: index) -> (index, index) attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %t = gpu.thread_id x upper_bound 256
  %c20 = arith.constant 20 : index
  %z = arith.shrui %t, %c20 : index
  // expected-error @+1 {{sched-check-divisors: 'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d = arith.divui %x, %z : index
  %c2 = arith.constant 2 : index
  %t2 = arith.muli %t, %c2 : index
  %e = arith.remui %t2, %c2 : index
  // expected-error @+1 {{sched-check-divisors: 'arith.divui' op divides by zero: its divisor, of the thread ids and constants alone, is 0 in every thread of the workgroup}}
  %q = arith.divui %x, %e : index
  return %d, %q : index, index
}

// -----

// CHECK-LABEL: func.func @by_some_threads_zero
// CHECK:         arith.divui
// CHECK:         arith.remui
func.func @by_some_threads_zero(%x: index, %y: index) -> (index, index) attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %t = gpu.thread_id x upper_bound 256
  %c3 = arith.constant 3 : index
  %s = arith.shrui %t, %c3 : index
  %d = arith.divui %x, %s : index
  %w = arith.shrui %y, %c3 : index
  %r = arith.remui %x, %w : index
  return %d, %r : index, index
}

// -----

// A divisor zero by what a loop carries (finding 120 of docs/iree-audits.md: IREE's range
// analysis, a fixed point over the loops, finds each [0, 0] and crashed on each division
// run alone): a loop variable below 4 shifted by 2, one below a bound of the workgroup
// id's range shifted by 4, a carried value that starts at zero and stays so (shifted,
// multiplied), a loop's result, an scf.if's result zero in both branches, and an
// scf.while's carried value.

func.func @by_zero_carried(%x: i32, %y: i32, %n: index, %p: i1) -> (i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c1i = arith.constant 1 : i32
  %c0i = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %w = hal.interface.workgroup.id[0] upper_bound 16 : index
  %wi = arith.index_castui %w : index to i32
  %z = arith.shrui %wi, %c8 : i32
  %a = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> i32 {
    %s = arith.shrui %i, %c2 : index
    %si = arith.index_castui %s : index to i32
    // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run (its range, from the ids' upper_bound, the loops' bounds and the arithmetic on them, is [0, 0])}}
    %d = arith.divui %acc, %si : i32
    scf.yield %d : i32
  }
  %ub = arith.addi %w, %c1 : index
  %b = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %x) -> i32 {
    %s = arith.shrui %i, %c4 : index
    %si = arith.index_castui %s : index to i32
    // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
    %d = arith.divui %acc, %si : i32
    scf.yield %d : i32
  }
  %c:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %k = %z, %m = %c0i) -> (i32, i32, i32) {
    // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
    %d = arith.divui %acc, %k : i32
    // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
    %e = arith.divui %d, %m : i32
    %k2 = arith.shrui %k, %c1i : i32
    %m2 = arith.muli %m, %y : i32
    scf.yield %e, %k2, %m2 : i32, i32, i32
  }
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %f = arith.divui %x, %c#1 : i32
  %v = scf.if %p -> i32 {
    scf.yield %z : i32
  } else {
    %t = arith.muli %z, %y : i32
    scf.yield %t : i32
  }
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %g = arith.divui %x, %v : i32
  %h:2 = scf.while (%q = %x, %k = %z) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi ult, %q, %y : i32
    scf.condition(%go) %q, %k : i32, i32
  } do {
  ^bb0(%q2: i32, %k2: i32):
    // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
    %d = arith.divui %q2, %k2 : i32
    %k3 = arith.shrui %k2, %c1i : i32
    scf.yield %d, %k3 : i32, i32
  }
  return %a, %b, %c#0, %f, %g, %h#0 : i32, i32, i32, i32, i32, i32
}

// -----

// What a loop carries with a nonzero value among its values is no zero: a variable below
// 5 shifted by 2, one of an unknown bound, a carried value that grows, an scf.if with a
// one in a branch, an scf.while's value that grows; nor is a loop that never runs.

// CHECK-LABEL: func.func @by_nonzero_carried
// CHECK-COUNT-6: arith.divui
func.func @by_nonzero_carried(%x: i32, %y: i32, %n: index, %p: i1) -> (i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c1i = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %w = hal.interface.workgroup.id[0] upper_bound 16 : index
  %wi = arith.index_castui %w : index to i32
  %z = arith.shrui %wi, %c8 : i32
  %a = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %x) -> i32 {
    %s = arith.shrui %i, %c2 : index
    %si = arith.index_castui %s : index to i32
    %d = arith.divui %acc, %si : i32
    scf.yield %d : i32
  }
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> i32 {
    %s = arith.shrui %i, %c2 : index
    %si = arith.index_castui %s : index to i32
    %d = arith.divui %acc, %si : i32
    scf.yield %d : i32
  }
  %c:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %k = %z) -> (i32, i32) {
    %d = arith.divui %acc, %k : i32
    %k2 = arith.addi %k, %c1i : i32
    scf.yield %d, %k2 : i32, i32
  }
  %v = scf.if %p -> i32 {
    scf.yield %z : i32
  } else {
    scf.yield %c1i : i32
  }
  %g = arith.divui %x, %v : i32
  %h:2 = scf.while (%q = %x, %k = %z) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi ult, %q, %y : i32
    scf.condition(%go) %q, %k : i32, i32
  } do {
  ^bb0(%q2: i32, %k2: i32):
    %d = arith.divui %q2, %k2 : i32
    %k3 = arith.addi %k2, %c1i : i32
    scf.yield %d, %k3 : i32, i32
  }
  %e = scf.for %i = %c5 to %c2 step %c1 iter_args(%acc = %x) -> i32 {
    %s = arith.shrui %i, %c5 : index
    %si = arith.index_castui %s : index to i32
    %d = arith.divui %acc, %si : i32
    scf.yield %d : i32
  }
  return %a, %b, %c#0, %g, %h#0, %e : i32, i32, i32, i32, i32, i32
}

// -----

// The other ops IREE's range analysis bounds, each of which crashed it as a divisor zero
// in every run (finding 120, each division run alone): a zero by signed division, a
// zero's remainder by an unknown or by a range holding a zero, its maximum with a
// negative constant, a remainder by a range of 0 and 1, an affine map of a workgroup id (made arith first, as IREE makes
// it), IREE's assumed range, a vector broadcast of a zero, a block id with no bound (a
// launch's 32 bits) shifted by 32, and the wave's size shifted by 8.

func.func @by_zero_unmodelled(%x: i32, %y: i32, %v: vector<4xi32>) -> (i32, i32, i32, i32, i32, vector<4xi32>, i32, i32, i32, i32) {
  %c8 = arith.constant 8 : i32
  %c32 = arith.constant 32 : index
  %m5 = arith.constant -5 : i32
  %c256 = arith.constant 256 : i32
  %w = hal.interface.workgroup.id[0] upper_bound 16 : index
  %wi = arith.index_castui %w : index to i32
  %q = arith.divsi %wi, %c256 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d1 = arith.divui %x, %q : i32
  %z = arith.shrui %wi, %c8 : i32
  %r = arith.remsi %z, %y : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d2 = arith.divui %x, %r : i32
  %r2 = arith.remsi %z, %wi : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d9 = arith.divui %x, %r2 : i32
  %c3 = arith.constant 3 : i32
  %o = arith.shrui %wi, %c3 : i32
  %r3 = arith.remui %y, %o : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d10 = arith.divui %x, %r3 : i32
  %mx = arith.maxsi %z, %m5 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d3 = arith.divui %x, %mx : i32
  %af = affine.apply affine_map<()[s0] -> (s0 floordiv 16)>()[%w]
  %ai = arith.index_castui %af : index to i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d4 = arith.divui %x, %ai : i32
  %u = util.assume.int %y<umin = 0, umax = 200> : i32
  %us = arith.shrui %u, %c8 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d5 = arith.divui %x, %us : i32
  %b = vector.broadcast %z : i32 to vector<4xi32>
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d6 = arith.divui %v, %b : vector<4xi32>
  %g = gpu.block_id x
  %gs = arith.shrui %g, %c32 : index
  %gi = arith.index_castui %gs : index to i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d7 = arith.divui %x, %gi : i32
  %s = gpu.subgroup_size : index
  %si = arith.index_castui %s : index to i32
  %ss = arith.shrui %si, %c8 : i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor is 0 in every run}}
  %d8 = arith.divui %x, %ss : i32
  return %d1, %d2, %d3, %d4, %d5, %d6, %d7, %d8, %d9, %d10 : i32, i32, i32, i32, i32, vector<4xi32>, i32, i32, i32, i32
}

// -----

// The same ops where a value's range holds a nonzero value are no zero: a signed
// division of a range that reaches the divisor, a remainder of a nonzero value, a
// remainder by a range of 0 to 2, a maximum with a positive constant, an affine map that
// keeps a nonzero value, an assumed range past 255, a broadcast of a one, a block id
// shifted by 31 and the wave's size by 6.

// CHECK-LABEL: func.func @by_nonzero_unmodelled
// CHECK-COUNT-9: arith.divui
func.func @by_nonzero_unmodelled(%x: i32, %y: i32, %v: vector<4xi32>) -> (i32, i32, i32, i32, i32, vector<4xi32>, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  %c8 = arith.constant 8 : i32
  %c31 = arith.constant 31 : index
  %c16 = arith.constant 16 : i32
  %w = hal.interface.workgroup.id[0] upper_bound 17 : index
  %wi = arith.index_castui %w : index to i32
  %q = arith.divsi %wi, %c16 : i32
  %d1 = arith.divui %x, %q : i32
  %r = arith.remsi %c8, %y : i32
  %d2 = arith.divui %x, %r : i32
  %c2 = arith.constant 2 : i32
  %o = arith.shrui %wi, %c2 : i32
  %r3 = arith.remui %y, %o : i32
  %d9 = arith.divui %x, %r3 : i32
  %z = arith.shrui %wi, %c8 : i32
  %mx = arith.maxsi %z, %c1 : i32
  %d3 = arith.divui %x, %mx : i32
  %af = affine.apply affine_map<()[s0] -> (s0 floordiv 8)>()[%w]
  %ai = arith.index_castui %af : index to i32
  %d4 = arith.divui %x, %ai : i32
  %u = util.assume.int %y<umin = 0, umax = 300> : i32
  %us = arith.shrui %u, %c8 : i32
  %d5 = arith.divui %x, %us : i32
  %b = vector.broadcast %c1 : i32 to vector<4xi32>
  %bb = arith.addi %b, %b : vector<4xi32>
  %d6 = arith.divui %v, %bb : vector<4xi32>
  %g = gpu.block_id x
  %gs = arith.shrui %g, %c31 : index
  %gi = arith.index_castui %gs : index to i32
  %d7 = arith.divui %x, %gi : i32
  %s = gpu.subgroup_size : index
  %si = arith.index_castui %s : index to i32
  %ss = arith.shrui %si, %c6 : i32
  %d8 = arith.divui %x, %ss : i32
  return %d1, %d2, %d3, %d4, %d5, %d6, %d7, %d8, %d9 : i32, i32, i32, i32, i32, vector<4xi32>, i32, i32, i32
}

// -----

// A divisor that folds to zero once equal ops are one (finding 120's fuzz: IREE's passes
// run cse before its range analysis, which then crashed): two lane ids shifted alike and
// compared pick the zero branch of an scf.if. Two shifted apart decide nothing.

func.func @by_zero_after_cse(%x: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %l1 = gpu.lane_id
  %l2 = gpu.lane_id
  %s1 = arith.shrui %l1, %c4 : index
  %s2 = arith.shrui %l2, %c4 : index
  %gt = arith.cmpi sgt, %s1, %s2 : index
  %v = scf.if %gt -> (index) {
    scf.yield %n : index
  } else {
    scf.yield %c0 : index
  }
  %vi = arith.index_castui %v : index to i32
  // expected-error @+1 {{'arith.divui' op divides by zero: its divisor folds to the constant 0}}
  %d = arith.divui %x, %vi : i32
  return %d : i32
}

// -----

// CHECK-LABEL: func.func @by_nonzero_after_cse
// CHECK:         arith.divui
func.func @by_nonzero_after_cse(%x: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %l1 = gpu.lane_id
  %l2 = gpu.lane_id
  %s1 = arith.shrui %l1, %c4 : index
  %s2 = arith.shrui %l2, %c3 : index
  %gt = arith.cmpi sgt, %s1, %s2 : index
  %v = scf.if %gt -> (index) {
    scf.yield %n : index
  } else {
    scf.yield %c0 : index
  }
  %vi = arith.index_castui %v : index to i32
  %d = arith.divui %x, %vi : i32
  return %d : i32
}
