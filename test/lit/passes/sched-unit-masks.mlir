// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-unit-masks)' | FileCheck %s
// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-unit-masks,func.func(canonicalize))' | FileCheck %s --check-prefix=CANON

// IREE's mask of a batch buffer's run (vector<1x1x8>: the batch, the K row left, the
// elements left): the K row's size becomes the constant 1 and its test folds into the
// run's size, so canonicalize's fold of a shape_cast of the mask (which drops the sizes of
// unit dimensions) keeps it.
// CHECK-LABEL: func.func @batch_row
// CHECK:         %[[T:.*]] = arith.cmpi sgt, %arg1, %[[Z:.*]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[S:.*]] = arith.select %[[T]], %arg2, %[[Z]] : index
// CHECK-NEXT:    vector.create_mask %{{.*}}, %[[ONE]], %[[S]] : vector<1x1x8xi1>
// CANON-LABEL: func.func @batch_row
// CANON:         %[[T:.*]] = arith.cmpi sgt, %arg1, %{{.*}} : index
// CANON-NEXT:    %[[S:.*]] = arith.select %[[T]], %arg2, %{{.*}} : index
// CANON-NEXT:    vector.create_mask %[[S]] : vector<8xi1>
func.func @batch_row(%m: memref<2x4x16xf16>, %k: index, %s: index, %i: index) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0.0 : f16
  %mask = vector.create_mask %c1, %k, %s : vector<1x1x8xi1>
  %flat = vector.shape_cast %mask : vector<1x1x8xi1> to vector<8xi1>
  %r = vector.transfer_read %m[%c0, %i, %c0], %p, %flat {in_bounds = [true]} : memref<2x4x16xf16>, vector<8xf16>
  return %r : vector<8xf16>
}

// Two unit sizes, both tests kept; trailing unit dimensions fold into the leading one.
// CHECK-LABEL: func.func @trailing
// CHECK:         %[[A:.*]] = arith.cmpi sgt, %arg0
// CHECK-NEXT:    %[[B:.*]] = arith.cmpi sgt, %arg1
// CHECK-NEXT:    %[[T:.*]] = arith.andi %[[A]], %[[B]] : i1
// CHECK:         %[[S:.*]] = arith.select %[[T]], %arg2
// CHECK-NEXT:    vector.create_mask %[[S]], %{{.*}}, %{{.*}} : vector<8x1x1xi1>
func.func @trailing(%a: index, %b: index, %s: index) -> vector<8x1x1xi1> {
  %mask = vector.create_mask %s, %a, %b : vector<8x1x1xi1>
  return %mask : vector<8x1x1xi1>
}

// A mask of one element in all: the broadcast of its test. A unit size that is already
// the constant 1, a mask of one unit dimension (which the fold keeps) and a mask of no
// unit dimension stay as they are.
// CHECK-LABEL: func.func @all_unit
// CHECK:         %[[T:.*]] = arith.cmpi sgt, %arg0
// CHECK-NEXT:    vector.broadcast %[[T]] : i1 to vector<1x1xi1>
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     arith.cmpi
// CHECK:         vector.create_mask %c1, %arg0 : vector<1x8xi1>
// CHECK-NEXT:    vector.create_mask %arg0, %arg0 : vector<1x8xi1>
// CHECK-NEXT:    vector.create_mask %arg0, %arg0 : vector<4x8xi1>
func.func @all_unit(%a: index) -> vector<1x1xi1> {
  %c1 = arith.constant 1 : index
  %mask = vector.create_mask %c1, %a : vector<1x1xi1>
  return %mask : vector<1x1xi1>
}
func.func @kept(%s: index) -> (vector<1x8xi1>, vector<1x8xi1>, vector<4x8xi1>) {
  %c1 = arith.constant 1 : index
  %m1 = vector.create_mask %c1, %s : vector<1x8xi1>
  %m2 = vector.create_mask %s, %s : vector<1x8xi1>
  %m3 = vector.create_mask %s, %s : vector<4x8xi1>
  return %m1, %m2, %m3 : vector<1x8xi1>, vector<1x8xi1>, vector<4x8xi1>
}

// A transfer that may read past the buffer along a unit dimension (in_bounds false there):
// that dimension's test (its index below the memref's size, here a dynamic one) moves into
// the mask, and the dimension is marked in bounds; a broadcast dimension (d0 -> 0) and a
// dimension of more than one element keep their in_bounds.
// CHECK-LABEL: func.func @loose_row
// CHECK:         %[[D:.*]] = memref.dim %arg0, %{{.*}} : memref<?x16xf16>
// CHECK-NEXT:    %[[T:.*]] = arith.cmpi slt, %arg1, %[[D]] : index
// CHECK-NEXT:    %[[M:.*]] = vector.broadcast %[[T]] : i1 to vector<1x8xi1>
// CHECK-NEXT:    vector.transfer_read %arg0[%arg1, %arg2], %{{.*}}, %[[M]] {in_bounds = [true, false]}
// CHECK-LABEL: func.func @loose_masked_write
// CHECK:         %[[T:.*]] = arith.cmpi slt, %arg2, %{{.*}} : index
// CHECK:         %[[M:.*]] = arith.select %[[T]], %arg4, %{{.*}} : vector<1x8xi1>
// CHECK-NEXT:    vector.transfer_write %arg3, %arg0[%arg1, %arg2, %arg1], %[[M]] {in_bounds = [true, true]}
// CHECK-LABEL: func.func @broadcast_row
// CHECK-NOT:     arith.cmpi
// CHECK:         {in_bounds = [false, true]
func.func @loose_row(%m: memref<?x16xf16>, %i: index, %j: index) -> vector<1x8xf16> {
  %p = arith.constant 0.0 : f16
  %r = vector.transfer_read %m[%i, %j], %p {in_bounds = [false, false]} : memref<?x16xf16>, vector<1x8xf16>
  return %r : vector<1x8xf16>
}
func.func @loose_masked_write(%m: memref<2x4x16xf16>, %b: index, %i: index, %v: vector<1x8xf16>, %mask: vector<1x8xi1>) {
  %c4 = arith.constant 4 : index
  vector.transfer_write %v, %m[%b, %i, %b], %mask {in_bounds = [false, true], permutation_map = affine_map<(d0, d1, d2) -> (d1, d2)>} : vector<1x8xf16>, memref<2x4x16xf16>
  return
}
func.func @broadcast_row(%m: memref<4x16xf16>, %i: index, %j: index) -> vector<1x8xf16> {
  %p = arith.constant 0.0 : f16
  %r = vector.transfer_read %m[%i, %j], %p {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x16xf16>, vector<1x8xf16>
  return %r : vector<1x8xf16>
}

// The mask of a transfer is in the memref's order, without its broadcast dimensions (the
// type its verifier infers), not the vector's: a transposed read's broadcast test is a
// vector<1x8xi1> for its vector<8x1>, a broadcast read's select keeps its mask's type.
// CHECK-LABEL: func.func @transposed_row
// CHECK:         %[[T:.*]] = arith.cmpi slt, %arg1, %{{.*}} : index
// CHECK-NEXT:    %[[M:.*]] = vector.broadcast %[[T]] : i1 to vector<1x8xi1>
// CHECK-NEXT:    vector.transfer_read %arg0[%arg1, %arg2], %{{.*}}, %[[M]] {in_bounds = [true, true]
// CHECK-LABEL: func.func @broadcast_masked_row
// CHECK:         %[[T:.*]] = arith.cmpi slt, %arg1, %{{.*}} : index
// CHECK:         %[[M:.*]] = arith.select %[[T]], %arg3, %{{.*}} : vector<1x8xi1>
// CHECK-NEXT:    vector.transfer_read %arg0[%arg1, %arg2], %{{.*}}, %[[M]] {in_bounds = [true, true, true]
func.func @transposed_row(%m: memref<4x16xf16>, %i: index, %j: index) -> vector<8x1xf16> {
  %p = arith.constant 0.0 : f16
  %r = vector.transfer_read %m[%i, %j], %p {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x16xf16>, vector<8x1xf16>
  return %r : vector<8x1xf16>
}
func.func @broadcast_masked_row(%m: memref<4x16xf16>, %i: index, %j: index, %mk: vector<1x8xi1>) -> vector<4x1x8xf16> {
  %p = arith.constant 0.0 : f16
  %r = vector.transfer_read %m[%i, %j], %p, %mk {in_bounds = [true, false, true], permutation_map = affine_map<(d0, d1) -> (0, d0, d1)>} : memref<4x16xf16>, vector<4x1x8xf16>
  return %r : vector<4x1x8xf16>
}

// A transfer masked by the vector.mask around it (it may have no mask of its own): the
// test goes into the vector.mask's mask.
// CHECK-LABEL: func.func @wrapped_row
// CHECK:         %[[T:.*]] = arith.cmpi slt, %arg1, %{{.*}} : index
// CHECK:         %[[M:.*]] = arith.select %[[T]], %arg3, %{{.*}} : vector<1x8xi1>
// CHECK-NEXT:    vector.mask %[[M]] { vector.transfer_read %arg0[%arg1, %arg2], %{{.*}} {in_bounds = [true, true]}
func.func @wrapped_row(%m: memref<4x16xf16>, %i: index, %j: index, %mk: vector<1x8xi1>) -> vector<1x8xf16> {
  %p = arith.constant 0.0 : f16
  %r = vector.mask %mk { vector.transfer_read %m[%i, %j], %p {in_bounds = [false, true]} : memref<4x16xf16>, vector<1x8xf16> } : vector<1x8xi1> -> vector<1x8xf16>
  return %r : vector<1x8xf16>
}

// With a passthru the vector.mask's masked-off lanes take it where out-of-bounds lanes take
// the padding: left as it is.
// CHECK-LABEL: func.func @wrapped_passthru
// CHECK-NOT:     arith.cmpi
// CHECK:         vector.mask %arg3, %arg4 { vector.transfer_read %arg0[%arg1, %arg2], %{{.*}} {in_bounds = [false, true]}
func.func @wrapped_passthru(%m: memref<4x16xf16>, %i: index, %j: index, %mk: vector<1x8xi1>, %pt: vector<1x8xf16>) -> vector<1x8xf16> {
  %p = arith.constant 0.0 : f16
  %r = vector.mask %mk, %pt { vector.transfer_read %m[%i, %j], %p {in_bounds = [false, true]} : memref<4x16xf16>, vector<1x8xf16> } : vector<1x8xi1> -> vector<1x8xf16>
  return %r : vector<1x8xf16>
}
