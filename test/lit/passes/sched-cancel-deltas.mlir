// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-cancel-deltas)' | FileCheck %s

// sched-cancel-deltas: (a + c) + (b - a) is b + c (modulo 2^width, whatever the values), in
// any operand order; IREE's late form writes its swizzled LDS offsets so.
// CHECK-LABEL: func.func @swizzled
// CHECK:         %[[R:.*]] = arith.addi %arg1, %c1024_i32 : i32
// CHECK:         %[[I:.*]] = arith.index_cast %[[R]] : i32 to index
// CHECK:         return %[[I]]
func.func @swizzled(%a: i32, %b: i32) -> index {
  %c = arith.constant 1024 : i32
  %base = arith.addi %a, %c overflow<nsw> : i32
  %delta = arith.subi %b, %a : i32
  %sum = arith.addi %base, %delta : i32
  %i = arith.index_cast %sum : i32 to index
  return %i : index
}

// The operands the other way round, in index.
// CHECK-LABEL: func.func @swapped
// CHECK:         %[[R:.*]] = arith.addi %arg1, %arg2 : index
// CHECK:         return %[[R]]
func.func @swapped(%a: index, %b: index, %c: index) -> index {
  %base = arith.addi %c, %a : index
  %delta = arith.subi %b, %a : index
  %sum = arith.addi %delta, %base : index
  return %sum : index
}

// Not the same a: left as it is.
// CHECK-LABEL: func.func @other_base
// CHECK:         %[[B:.*]] = arith.addi %arg0, %c512_i32 : i32
// CHECK:         %[[D:.*]] = arith.subi %arg2, %arg1 : i32
// CHECK:         %[[S:.*]] = arith.addi %[[B]], %[[D]] : i32
// CHECK:         return %[[S]]
func.func @other_base(%a: i32, %a2: i32, %b: i32) -> i32 {
  %c = arith.constant 512 : i32
  %base = arith.addi %a, %c : i32
  %delta = arith.subi %b, %a2 : i32
  %sum = arith.addi %base, %delta : i32
  return %sum : i32
}

// a subtracted from the wrong side, (a + c) + (a - b): left as it is.
// CHECK-LABEL: func.func @reversed_delta
// CHECK:         %[[D:.*]] = arith.subi %arg0, %arg1 : i32
// CHECK:         %[[S:.*]] = arith.addi %{{[0-9]+}}, %[[D]] : i32
// CHECK:         return %[[S]]
func.func @reversed_delta(%a: i32, %b: i32) -> i32 {
  %c = arith.constant 512 : i32
  %base = arith.addi %a, %c : i32
  %delta = arith.subi %a, %b : i32
  %sum = arith.addi %base, %delta : i32
  return %sum : i32
}
