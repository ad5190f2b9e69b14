// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-fold-mask-guards)' | FileCheck %s

// The copy's guards are matched to the function's by the mark each carries, not by
// position: IREE's analysis erases the dead guard %dead and folds %swapped's
// `xori %may, true` by swapping its branches, which makes it look like a guard in the
// copy. A positional match paired %live (whose condition may hold: rows of 1001 bytes)
// with %never's folded condition and removed it. Now %dead and %live keep their masked
// load, %never (its distance 16 * 1024 * k, a multiple of 4) is folded, and %swapped,
// never a guard of the function, is left as written.
// CHECK-LABEL: func.func @marks
// CHECK:         scf.if
// CHECK-NEXT:      vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
// CHECK:         %[[LIVE:.*]] = scf.if
// CHECK-NEXT:      vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
// CHECK:         vector.store %[[LIVE]]
// CHECK-NOT:     scf.if
// CHECK:         %[[NEVER:.*]] = arith.select
// CHECK-NEXT:    vector.store %[[NEVER]]
// CHECK:         scf.if
// CHECK:         } else {
// CHECK-NEXT:      vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
func.func @marks(%in: memref<64x1001xi8>, %out: memref<3x64x16xi8>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1001 = arith.constant 1001 : index
  %c1024 = arith.constant 1024 : index
  %size = arith.constant 64064 : index
  %true = arith.constant true
  %zero = arith.constant dense<0> : vector<16xi8>
  %buf = amdgpu.fat_raw_buffer_cast %in resetOffset : memref<64x1001xi8> to memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>
  %t = gpu.thread_id x upper_bound 64
  %n = gpu.block_id x upper_bound 63
  %col = arith.muli %n, %c16 : index
  %left = arith.subi %c1001, %col : index
  %mask = vector.create_mask %left : vector<16xi1>
  %row = arith.muli %t, %c1001 : index
  %lin = arith.addi %row, %col : index
  %delta = arith.subi %size, %lin : index
  %oob = arith.cmpi ult, %delta, %c16 : index
  %rem = arith.remui %delta, %c4 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  %may = arith.andi %oob, %odd : i1
  %k = arith.muli %t, %c1024 : index
  %dk = arith.muli %k, %c16 : index
  %remk = arith.remui %dk, %c4 : index
  %oddk = arith.cmpi ne, %remk, %c0 : index
  %not = arith.andi %oob, %oddk : i1
  %dead = scf.if %may -> (vector<16xi8>) {
    %m = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
    scf.yield %m : vector<16xi8>
  } else {
    %l = vector.load %buf[%t, %col] : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
    %s = arith.select %mask, %l, %zero : vector<16xi1>, vector<16xi8>
    scf.yield %s : vector<16xi8>
  }
  %live = scf.if %may -> (vector<16xi8>) {
    %m = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
    scf.yield %m : vector<16xi8>
  } else {
    %l = vector.load %buf[%t, %col] : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
    %s = arith.select %mask, %l, %zero : vector<16xi1>, vector<16xi8>
    scf.yield %s : vector<16xi8>
  }
  vector.store %live, %out[%c0, %t, %c0] : memref<3x64x16xi8>, vector<16xi8>
  %never = scf.if %not -> (vector<16xi8>) {
    %m = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
    scf.yield %m : vector<16xi8>
  } else {
    %l = vector.load %buf[%t, %col] : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
    %s = arith.select %mask, %l, %zero : vector<16xi1>, vector<16xi8>
    scf.yield %s : vector<16xi8>
  }
  vector.store %never, %out[%c1, %t, %c0] : memref<3x64x16xi8>, vector<16xi8>
  %nmay = arith.xori %may, %true : i1
  %swapped = scf.if %nmay -> (vector<16xi8>) {
    %l = vector.load %buf[%t, %col] : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
    %s = arith.select %mask, %l, %zero : vector<16xi1>, vector<16xi8>
    scf.yield %s : vector<16xi8>
  } else {
    %m = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
    scf.yield %m : vector<16xi8>
  }
  vector.store %swapped, %out[%c2, %t, %c0] : memref<3x64x16xi8>, vector<16xi8>
  return
}

// -----

// A guard inside a guard that is folded too: the inner one is folded first (folding the
// outer one erases its then-branch, and the inner guard with it). Both go; no mark is left.
// CHECK-LABEL: func.func @nested
// CHECK-NOT:     scf.if
// CHECK-NOT:     sched.fold_guard
// CHECK:         %[[S:.*]] = arith.select
// CHECK-NEXT:    vector.store %[[S]]
// CHECK-NEXT:    return
func.func @nested(%in: memref<64x1000xi8>, %out: memref<64x16xi8>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1000 = arith.constant 1000 : index
  %size = arith.constant 64000 : index
  %zero = arith.constant dense<0> : vector<16xi8>
  %buf = amdgpu.fat_raw_buffer_cast %in resetOffset : memref<64x1000xi8> to memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>
  %t = gpu.thread_id x upper_bound 64
  %n = gpu.block_id x upper_bound 63
  %col = arith.muli %n, %c16 : index
  %left = arith.subi %c1000, %col : index
  %mask = vector.create_mask %left : vector<16xi1>
  %row = arith.muli %t, %c1000 : index
  %lin = arith.addi %row, %col : index
  %delta = arith.subi %size, %lin : index
  %oob = arith.cmpi ult, %delta, %c16 : index
  %rem = arith.remui %delta, %c4 : index
  %odd = arith.cmpi ne, %rem, %c0 : index
  %cond = arith.andi %oob, %odd : i1
  %v = scf.if %cond -> (vector<16xi8>) {
    %inner = scf.if %cond -> (vector<16xi8>) {
      %mm = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
      scf.yield %mm : vector<16xi8>
    } else {
      %ll = vector.load %buf[%t, %col] : memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
      scf.yield %ll : vector<16xi8>
    }
    vector.store %inner, %out[%t, %c0] : memref<64x16xi8>, vector<16xi8>
    %m = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
    scf.yield %m : vector<16xi8>
  } else {
    %l = vector.load %buf[%t, %col] : memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
    %s = arith.select %mask, %l, %zero : vector<16xi1>, vector<16xi8>
    scf.yield %s : vector<16xi8>
  }
  vector.store %v, %out[%t, %c0] : memref<64x16xi8>, vector<16xi8>
  return
}
