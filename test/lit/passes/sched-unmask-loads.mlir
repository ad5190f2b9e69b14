// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-unmask-loads)' | FileCheck %s

// sched-unmask-loads: a masked load of 32-bit elements of a range-checked fat_raw_buffer
// (through its views) is a plain load of the same memref and indices, then a select of
// the mask between it and the pass-through.
// CHECK-LABEL: func.func @words
// CHECK:         %[[M:.*]] = vector.create_mask %arg2 : vector<64xi1>
// CHECK:         %[[V:.*]] = memref.reinterpret_cast
// CHECK:         %[[L:.*]] = vector.load %[[V]][%arg1] : memref<156000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<64xf32>
// CHECK:         %[[S:.*]] = arith.select %[[M]], %[[L]], %arg3 : vector<64xi1>, vector<64xf32>
// CHECK-NOT:     vector.maskedload
// CHECK:         %[[I:.*]] = vector.load %{{.*}}[%arg1] : memref<156000xi32, {{.*}}>, vector<4xi32>
// CHECK:         arith.select %{{.*}}, %[[I]], %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK:         return %[[S]]
func.func @words(%m: memref<520x300xf32>, %i: index, %size: index, %pass: vector<64xf32>,
                 %n: memref<156000xi32>, %pass4: vector<4xi32>) -> (vector<64xf32>, vector<4xi32>) {
  %mask = vector.create_mask %size : vector<64xi1>
  %mask4 = vector.constant_mask [3] : vector<4xi1>
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<520x300xf32> to memref<520x300xf32, #amdgpu.address_space<fat_raw_buffer>>
  %v = memref.reinterpret_cast %f to offset: [0], sizes: [156000], strides: [1] : memref<520x300xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<156000xf32, #amdgpu.address_space<fat_raw_buffer>>
  %r = vector.maskedload %v[%i], %mask, %pass : memref<156000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<64xi1>, vector<64xf32> into vector<64xf32>
  %g = amdgpu.fat_raw_buffer_cast %n resetOffset : memref<156000xi32> to memref<156000xi32, #amdgpu.address_space<fat_raw_buffer>>
  %q = vector.maskedload %g[%i], %mask4, %pass4 : memref<156000xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  return %r, %q : vector<64xf32>, vector<4xi32>
}

// Left as they are: 16-bit elements at an index not known to be even (a dword of the
// plain load may straddle the buffer's end), a buffer whose range check is off, a memref
// that is not a fat_raw_buffer, and 32-bit elements under a mask not known to be a prefix
// (lanes 4 to 7 kept of a load at %i - 4: at %i = 0 the plain load's offset wraps
// below the buffer's start and reads 0 at offsets 0 to 15 too; a mask of an argument).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: vector.maskedload
// CHECK-NOT:     arith.select
func.func @kept(%m: memref<1000xf16>, %w: memref<1000xf32>, %i: index, %size: index,
                %h: vector<8xf16>, %p: vector<8xf32>, %other: vector<8xi1>) -> (vector<8xf16>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %mask = vector.create_mask %size : vector<8xi1>
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<1000xf16> to memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>
  %a = vector.maskedload %f[%i], %mask, %h : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  %u = amdgpu.fat_raw_buffer_cast %w resetOffset boundsCheck(false) : memref<1000xf32> to memref<1000xf32, #amdgpu.address_space<fat_raw_buffer>>
  %b = vector.maskedload %u[%i], %mask, %p : memref<1000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %c = vector.maskedload %w[%i], %mask, %p : memref<1000xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %c4 = arith.constant 4 : index
  %i4 = arith.subi %i, %c4 : index
  %g = amdgpu.fat_raw_buffer_cast %w resetOffset : memref<1000xf32> to memref<1000xf32, #amdgpu.address_space<fat_raw_buffer>>
  %low = vector.constant_mask [4] : vector<8xi1>
  %all = arith.constant dense<true> : vector<8xi1>
  %high = arith.xori %low, %all : vector<8xi1>
  %d = vector.maskedload %g[%i4], %high, %p : memref<1000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %e = vector.maskedload %g[%i], %other, %p : memref<1000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %a, %b, %c, %d, %e : vector<8xf16>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// 16- and 8-bit elements whose every dword is wholly inside the records or wholly past
// them: the load starts a multiple of 4 bytes from the buffer's start (IREE's A^T read of
// f16 300x200x192 at M's edge: row * 300 + a multiple of 8; an fp8 view through a
// reinterpret_cast at 16 * thread) and the records are whole dwords (192 x 300 f16, 64
// x 129 fp8 padded by validBytes to 8256).
// CHECK-LABEL: func.func @sub_dword
// CHECK:         %[[MASK:.*]] = vector.create_mask %arg2 : vector<8xi1>
// CHECK:         %[[MASK16:.*]] = vector.create_mask %arg4 : vector<16xi1>
// CHECK:         %[[H:.*]] = vector.load %{{.*}}[%arg1, %{{.*}}] : memref<192x300xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
// CHECK:         arith.select %[[MASK]], %[[H]], %arg3 : vector<8xi1>, vector<8xf16>
// CHECK:         %[[B:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<8256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>, vector<16xf8E4M3FN>
// CHECK:         arith.select %[[MASK16]], %[[B]], %arg5 : vector<16xi1>, vector<16xf8E4M3FN>
// CHECK-NOT:     vector.maskedload
func.func @sub_dword(%m: memref<192x300xf16>, %row: index, %size: index, %h: vector<8xf16>,
                     %size16: index, %q: vector<16xf8E4M3FN>, %n: memref<64x129xf8E4M3FN>) -> (vector<8xf16>, vector<16xf8E4M3FN>) {
  %mask = vector.create_mask %size : vector<8xi1>
  %mask16 = vector.create_mask %size16 : vector<16xi1>
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c300 = arith.constant 300 : index
  %c8256 = arith.constant 8256 : i64
  %t = gpu.thread_id x upper_bound 64
  %half = arith.remsi %t, %c2 : index
  %lane8 = arith.muli %half, %c8 : index
  %edge = arith.minsi %lane8, %c300 : index
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<192x300xf16> to memref<192x300xf16, #amdgpu.address_space<fat_raw_buffer>>
  %a = vector.maskedload %f[%row, %edge], %mask, %h : memref<192x300xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  %g = amdgpu.fat_raw_buffer_cast %n validBytes(%c8256) resetOffset : memref<64x129xf8E4M3FN> to memref<64x129xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
  %v = memref.reinterpret_cast %g to offset: [0], sizes: [8256], strides: [1] : memref<64x129xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>> to memref<8256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
  %i = arith.muli %t, %c16 : index
  %b = vector.maskedload %v[%i], %mask16, %q : memref<8256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xf8E4M3FN> into vector<16xf8E4M3FN>
  return %a, %b : vector<8xf16>, vector<16xf8E4M3FN>
}

// Left masked (a plain load could read a kept lane's dword across the records' end as
// zero), each for one reason: rows of 301 f16 (an odd row start), an index of the bare
// thread id, records of 1001 f16 (2002 bytes) or of 8257 fp8 (validBytes), a vector of 3
// f16 (not whole dwords), a view at an offset of one element.
// CHECK-LABEL: func.func @straddling
// CHECK-COUNT-6: vector.maskedload
// CHECK-NOT:     arith.select
func.func @straddling(%m: memref<192x301xf16>, %row: index, %size: index, %h: vector<8xf16>,
                      %w: memref<1001xf16>, %n: memref<64x129xf8E4M3FN>,
                      %q: vector<16xf8E4M3FN>, %h3: vector<3xf16>,
                      %x: memref<1000xf16>)
    -> (vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<16xf8E4M3FN>, vector<3xf16>, vector<8xf16>) {
  %mask = vector.create_mask %size : vector<8xi1>
  %mask16 = vector.create_mask %size : vector<16xi1>
  %mask3 = vector.create_mask %size : vector<3xi1>
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c8257 = arith.constant 8257 : i64
  %t = gpu.thread_id x upper_bound 64
  %lane8 = arith.muli %t, %c8 : index
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<192x301xf16> to memref<192x301xf16, #amdgpu.address_space<fat_raw_buffer>>
  %a = vector.maskedload %f[%row, %lane8], %mask, %h : memref<192x301xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  %u = amdgpu.fat_raw_buffer_cast %w resetOffset : memref<1001xf16> to memref<1001xf16, #amdgpu.address_space<fat_raw_buffer>>
  %y = amdgpu.fat_raw_buffer_cast %x resetOffset : memref<1000xf16> to memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>
  %b = vector.maskedload %y[%t], %mask, %h : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  %c = vector.maskedload %u[%lane8], %mask, %h : memref<1001xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  %g = amdgpu.fat_raw_buffer_cast %n validBytes(%c8257) resetOffset : memref<64x129xf8E4M3FN> to memref<64x129xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
  %v = memref.reinterpret_cast %g to offset: [0], sizes: [8256], strides: [1] : memref<64x129xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>> to memref<8256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
  %i = arith.muli %t, %c16 : index
  %d = vector.maskedload %v[%i], %mask16, %q : memref<8256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xf8E4M3FN> into vector<16xf8E4M3FN>
  %e = vector.maskedload %y[%lane8], %mask3, %h3 : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<3xi1>, vector<3xf16> into vector<3xf16>
  %s = memref.reinterpret_cast %y to offset: [1], sizes: [999], strides: [1] : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<999xf16, strided<[1], offset: 1>, #amdgpu.address_space<fat_raw_buffer>>
  %k = vector.maskedload %s[%lane8], %mask, %h : memref<999xf16, strided<[1], offset: 1>, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  return %a, %b, %c, %d, %e, %k : vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<16xf8E4M3FN>, vector<3xf16>, vector<8xf16>
}
