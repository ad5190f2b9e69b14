// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-word-masks)' | FileCheck %s

// sched-word-masks: a select of 8- or 16-bit elements by a create_mask prefix against
// zero bits (IREE's guarded loads end so) is computed per 32-bit word: the count clamped
// to 0..N in index, made i32, each word's kept elements k = clamp(n - E*j, 0, E), the word
// and-ed with -1 (k = E) or 2^(bits*k) - 1.
// CHECK-LABEL: func.func @bytes
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[LO:.*]] = arith.maxsi %arg1, %[[Z]] : index
// CHECK:         %[[N16:.*]] = arith.constant 16 : index
// CHECK:         %[[C:.*]] = arith.minsi %[[LO]], %[[N16]] : index
// CHECK:         %[[I:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK:         %[[B:.*]] = vector.broadcast %[[I]] : i32 to vector<4xi32>
// CHECK:         arith.constant dense<[0, 4, 8, 12]> : vector<4xi32>
// CHECK:         arith.cmpi eq
// CHECK:         %[[W:.*]] = vector.bitcast %arg0 : vector<16xi8> to vector<4xi32>
// CHECK:         %[[A:.*]] = arith.andi %[[W]], %{{.*}} : vector<4xi32>
// CHECK:         %[[R:.*]] = vector.bitcast %[[A]] : vector<4xi32> to vector<16xi8>
// CHECK-NOT:     arith.select %{{.*}} : vector<16xi1>
// CHECK:         return %[[R]]
func.func @bytes(%v: vector<16xi8>, %n: index) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %m = vector.create_mask %n : vector<16xi1>
  %s = arith.select %m, %v, %zero : vector<16xi1>, vector<16xi8>
  return %s : vector<16xi8>
}

// 16-bit floats against +0.0: two elements a word, 16 bits each.
// CHECK-LABEL: func.func @halves
// CHECK:         arith.constant dense<[0, 2, 4, 6]> : vector<4xi32>
// CHECK:         arith.constant dense<16> : vector<4xi32>
// CHECK:         vector.bitcast %arg0 : vector<8xf16> to vector<4xi32>
// CHECK-NOT:     arith.select %{{.*}} : vector<8xi1>
func.func @halves(%v: vector<8xf16>, %n: index) -> vector<8xf16> {
  %zero = arith.constant dense<0.0> : vector<8xf16>
  %m = vector.create_mask %n : vector<8xi1>
  %s = arith.select %m, %v, %zero : vector<8xi1>, vector<8xf16>
  return %s : vector<8xf16>
}

// Left as they are: a false value that is not zero bits (1, -0.0), a vector that is not
// whole words (3 bytes), 32-bit elements, a mask that is not a create_mask.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: arith.select
// CHECK-NOT:     vector.bitcast
func.func @kept(%v: vector<16xi8>, %h: vector<8xf16>, %t: vector<3xi8>, %w: vector<4xi32>,
                %n: index, %c: vector<16xi1>) -> (vector<16xi8>, vector<8xf16>, vector<3xi8>, vector<4xi32>, vector<16xi8>) {
  %one = arith.constant dense<1> : vector<16xi8>
  %m = vector.create_mask %n : vector<16xi1>
  %a = arith.select %m, %v, %one : vector<16xi1>, vector<16xi8>
  %nz = arith.constant dense<-0.0> : vector<8xf16>
  %m8 = vector.create_mask %n : vector<8xi1>
  %b = arith.select %m8, %h, %nz : vector<8xi1>, vector<8xf16>
  %z3 = arith.constant dense<0> : vector<3xi8>
  %m3 = vector.create_mask %n : vector<3xi1>
  %d = arith.select %m3, %t, %z3 : vector<3xi1>, vector<3xi8>
  %z4 = arith.constant dense<0> : vector<4xi32>
  %m4 = vector.create_mask %n : vector<4xi1>
  %e = arith.select %m4, %w, %z4 : vector<4xi1>, vector<4xi32>
  %zero = arith.constant dense<0> : vector<16xi8>
  %f = arith.select %c, %v, %zero : vector<16xi1>, vector<16xi8>
  return %a, %b, %d, %e, %f : vector<16xi8>, vector<8xf16>, vector<3xi8>, vector<4xi32>, vector<16xi8>
}
