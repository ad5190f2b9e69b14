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

// 16-bit elements at an index not known to be even (a dword of the plain load may straddle
// the buffer's end): guarded as upstream amdgpu-maskedload-to-load guards it, the masked
// load (marked for sched-fold-mask-guards) only where the run crosses the buffer's end
// inside a dword: the elements left, 1000 - %i (in 32 bits), fewer than the run's 8 and
// odd.  Left as
// they are: a buffer whose range check is off, a memref that is not a fat_raw_buffer, and
// 32-bit elements under a mask not known to be a prefix (lanes 4 to 7 kept of a load at
// %i - 4: at %i = 0 the plain load's offset wraps below the buffer's start and reads 0 at
// offsets 0 to 15 too; a mask of an argument).
//
// Both branches yield the vector as dwords; the select of the mask comes after the guard,
// on the vector cast back (the masked load in the `then` branch keeps the pass-through in
// the lanes it masks, so selecting again changes no lane), moved down
// past the ops that only read memory or compute (the other loads here), to before the first
// op that uses it or may do more: LLVM then issues the loads after it before it waits for
// this one, where a select in the branch made it wait there for each guarded load in turn.
// CHECK-LABEL: func.func @kept
// CHECK:         %[[I:.*]] = arith.index_cast %arg2 : index to i32
// CHECK-NEXT:    %[[END:.*]] = arith.constant 1000 : i32
// CHECK-NEXT:    %[[LEFT:.*]] = arith.subi %[[END]], %[[I]] : i32
// CHECK-NEXT:    %[[LEN:.*]] = arith.constant 8 : i32
// CHECK-NEXT:    %[[NEAR:.*]] = arith.cmpi ult, %[[LEFT]], %[[LEN]] : i32
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[ODD:.*]] = arith.remui %[[LEFT]], %[[TWO]] : i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[CUT:.*]] = arith.cmpi ne, %[[ODD]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[C:.*]] = arith.andi %[[NEAR]], %[[CUT]] : i1
// CHECK-NEXT:    %[[G:.*]] = scf.if %[[C]] -> (vector<4xi32>) {
// CHECK-NEXT:      %[[ML:.*]] = vector.maskedload %{{.*}}[%arg2], %[[MASK:.*]], %arg4 {amdgpu.buffer_maskedload_needs_mask}
// CHECK-NEXT:      %[[MW:.*]] = vector.bitcast %[[ML]] : vector<8xf16> to vector<4xi32>
// CHECK-NEXT:      scf.yield %[[MW]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[P:.*]] = vector.load %{{.*}}[%arg2] : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
// CHECK-NEXT:      %[[PW:.*]] = vector.bitcast %[[P]] : vector<8xf16> to vector<4xi32>
// CHECK-NEXT:      scf.yield %[[PW]]
// CHECK-NEXT:    }
// CHECK-COUNT-4: vector.maskedload
// CHECK-NOT:     arith.select
// CHECK:         %[[V:.*]] = vector.bitcast %[[G]] : vector<4xi32> to vector<8xf16>
// CHECK-NEXT:    %[[S:.*]] = arith.select %[[MASK]], %[[V]], %arg4 : vector<8xi1>, vector<8xf16>
// CHECK-NEXT:    return %[[S]]
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

// Not unmasked outright (a plain load could read a kept lane's dword across the records'
// end as zero), each for one reason: rows of 301 f16 (an odd row start), an index of the
// bare thread id, records of 1001 f16 (2002 bytes) or of 8257 fp8 (validBytes), a vector
// of 3 f16 (not whole dwords), a view at an offset of one element (its first element
// %lane8 + 1); each guarded, the masked load kept only where its run crosses the records'
// end inside a dword (the plain load and the select elsewhere).
// CHECK-LABEL: func.func @straddling
// CHECK-COUNT-5: vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[FIRST:.*]] = arith.addi %{{.*}}, %[[ONE]] : i32
// CHECK-NEXT:    %[[END:.*]] = arith.constant 1000 : i32
// CHECK-NEXT:    arith.subi %[[END]], %[[FIRST]] : i32
// CHECK:         vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
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

// IREE's prefetch point of i8 `C += A x B` 491x125x320 reads C's 64x128 i32 edge tile
// into private memory row by row, each row's mask a select on the row being inside M
// between the columns' `constant_mask [125]` and no lane: a prefix either way, so the
// load is unmasked; the row's store into the private tile follows its load (LLVM
// otherwise holds the 64 rows, 8192 dwords, live at once: its register allocator ran
// for minutes).
// CHECK-LABEL: func.func @rows
// CHECK:         %[[M0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<128xi1>
// CHECK:         %[[M1:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<128xi1>
// CHECK:         %[[P:.*]] = memref.alloca() : memref<2x128xi32, #gpu.address_space<private>>
// CHECK:         %[[A:.*]] = vector.load %{{.*}}[%arg1, %c0] : memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<128xi32>
// CHECK-NEXT:    %[[SA:.*]] = arith.select %[[M0]], %[[A]], %arg3
// CHECK-NEXT:    vector.store %[[SA]], %[[P]][%c0, %c0]
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    %[[B:.*]] = vector.load
// CHECK-NEXT:    %[[SB:.*]] = arith.select %[[M1]], %[[B]], %arg3
// CHECK-NEXT:    vector.store %[[SB]], %[[P]][%c1, %c0]
// CHECK-NOT:     vector.maskedload
func.func @rows(%m: memref<491x125xi32>, %r: index, %n: index, %pass: vector<128xi32>) -> vector<128xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %none = arith.constant dense<false> : vector<128xi1>
  %k = vector.constant_mask [125] : vector<128xi1>
  %p0 = arith.cmpi sgt, %n, %c0 : index
  %m0 = arith.select %p0, %k, %none : vector<128xi1>
  %p1 = arith.cmpi sgt, %n, %c1 : index
  %m1 = arith.select %p1, %k, %none : vector<128xi1>
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<491x125xi32> to memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>
  %priv = memref.alloca() : memref<2x128xi32, #gpu.address_space<private>>
  %a = vector.maskedload %f[%r, %c0], %m0, %pass : memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<128xi1>, vector<128xi32> into vector<128xi32>
  %r1 = arith.addi %r, %c1 : index
  %b = vector.maskedload %f[%r1, %c0], %m1, %pass : memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<128xi1>, vector<128xi32> into vector<128xi32>
  vector.store %a, %priv[%c0, %c0] : memref<2x128xi32, #gpu.address_space<private>>, vector<128xi32>
  vector.store %b, %priv[%c1, %c0] : memref<2x128xi32, #gpu.address_space<private>>, vector<128xi32>
  %x = vector.load %priv[%c0, %c0] : memref<2x128xi32, #gpu.address_space<private>>, vector<128xi32>
  return %x : vector<128xi32>
}

// Left masked: a select of the prefix masks on a vector of conditions (lane by lane: not
// a prefix) and a select between a prefix and a mask that is not one.  Unmasked but its
// store left where it is: the private tile is read between the load and the store (the
// store moved up would change what that read sees).
// CHECK-LABEL: func.func @kept_rows
// CHECK-COUNT-2: vector.maskedload
// CHECK:         %[[L:.*]] = vector.load %{{.*}} : memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<128xi32>
// CHECK-NEXT:    %[[S:.*]] = arith.select
// CHECK-NEXT:    %[[X:.*]] = vector.load %{{.*}}[%c0, %c0] : memref<2x128xi32, #gpu.address_space<private>>
// CHECK-NEXT:    vector.store %[[S]]
func.func @kept_rows(%m: memref<491x125xi32>, %r: index, %n: index, %pass: vector<128xi32>,
                     %lanes: vector<128xi1>, %c: i1) -> (vector<128xi32>, vector<128xi32>, vector<128xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %none = arith.constant dense<false> : vector<128xi1>
  %all = arith.constant dense<true> : vector<128xi1>
  %k = vector.constant_mask [125] : vector<128xi1>
  %byLane = arith.select %lanes, %k, %none : vector<128xi1>, vector<128xi1>
  %high = arith.xori %k, %all : vector<128xi1>
  %mixed = arith.select %c, %k, %high : vector<128xi1>
  %kept = arith.select %c, %k, %none : vector<128xi1>
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<491x125xi32> to memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>
  %priv = memref.alloca() : memref<2x128xi32, #gpu.address_space<private>>
  %a = vector.maskedload %f[%r, %c0], %byLane, %pass : memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<128xi1>, vector<128xi32> into vector<128xi32>
  %b = vector.maskedload %f[%r, %c0], %mixed, %pass : memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<128xi1>, vector<128xi32> into vector<128xi32>
  %d = vector.maskedload %f[%r, %c0], %kept, %pass : memref<491x125xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<128xi1>, vector<128xi32> into vector<128xi32>
  %x = vector.load %priv[%c0, %c0] : memref<2x128xi32, #gpu.address_space<private>>, vector<128xi32>
  vector.store %d, %priv[%c0, %c0] : memref<2x128xi32, #gpu.address_space<private>>, vector<128xi32>
  return %a, %b, %x : vector<128xi32>, vector<128xi32>, vector<128xi32>
}

// fp8 rows of 271 bytes (IREE's A of A x B^T 95x90x271, its last K tile cut at 15
// columns): a run of 16 may start anywhere in a dword, so the load is guarded, the
// distance from its first element (row * 271 + column) to the buffer's 25745 elements.
// A buffer whose records are not known (a dynamic row count, no validBytes) is left as
// it is.
// CHECK-LABEL: func.func @byte_rows
// CHECK:         %[[R:.*]] = arith.index_cast %arg1 : index to i32
// CHECK-NEXT:    %[[C:.*]] = arith.index_cast %arg2 : index to i32
// CHECK-NEXT:    %[[C271:.*]] = arith.constant 271 : i32
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %[[R]], %[[C271]] : i32
// CHECK-NEXT:    %[[FIRST:.*]] = arith.addi %[[ROW]], %[[C]] : i32
// CHECK-NEXT:    %[[END:.*]] = arith.constant 25745 : i32
// CHECK-NEXT:    arith.subi %[[END]], %[[FIRST]] : i32
// CHECK:         arith.constant 4 : i32
// CHECK:         scf.if
// CHECK:         vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
// CHECK:         vector.load %{{.*}}[%arg1, %arg2] : memref<95x271xf8E5M2
// CHECK:         %[[D:.*]] = vector.maskedload %{{.*}}[%arg1, %arg2], %{{.*}}, %arg4 : memref<?x271xf8E5M2
// CHECK-NOT:     buffer_maskedload_needs_mask
// CHECK:         return %{{.*}}, %[[D]]
func.func @byte_rows(%m: memref<95x271xf8E5M2>, %r: index, %c: index, %size: index,
                %pass: vector<16xf8E5M2>, %dyn: memref<?x271xf8E5M2>) -> (vector<16xf8E5M2>, vector<16xf8E5M2>) {
  %mask = vector.create_mask %size : vector<16xi1>
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<95x271xf8E5M2> to memref<95x271xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>
  %a = vector.maskedload %f[%r, %c], %mask, %pass : memref<95x271xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xf8E5M2> into vector<16xf8E5M2>
  %g = amdgpu.fat_raw_buffer_cast %dyn resetOffset : memref<?x271xf8E5M2> to memref<?x271xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>
  %d = vector.maskedload %g[%r, %c], %mask, %pass : memref<?x271xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xf8E5M2> into vector<16xf8E5M2>
  return %a, %d : vector<16xf8E5M2>, vector<16xf8E5M2>
}

// Two guarded loads and a write: the first select stops before the store that uses it, the
// second (with nothing using it before) before the same store, which writes memory: both
// loads come before either select.  A barrier stops a select too: the third load's
// select stays before it although the load after it only reads.
// CHECK-LABEL: func.func @selects_after_loads
// CHECK:         %[[A:.*]] = scf.if
// CHECK:         } else {
// CHECK-NEXT:      vector.load %{{.*}}[%arg1]
// CHECK-NEXT:      vector.bitcast
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NOT:     arith.select
// CHECK:         %[[B:.*]] = scf.if
// CHECK:         } else {
// CHECK-NEXT:      vector.load %{{.*}}[%arg2]
// CHECK-NEXT:      vector.bitcast
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[VA:.*]] = vector.bitcast %[[A]]
// CHECK-NEXT:    %[[SA:.*]] = arith.select %{{.*}}, %[[VA]], %arg4
// CHECK-NEXT:    %[[VB:.*]] = vector.bitcast %[[B]]
// CHECK-NEXT:    %[[SB:.*]] = arith.select %{{.*}}, %[[VB]], %arg4
// CHECK-NEXT:    vector.store %[[SA]], %arg5[%arg1]
// CHECK:         %[[C:.*]] = scf.if
// CHECK:         } else {
// CHECK-NEXT:      vector.load %{{.*}}[%arg1]
// CHECK-NEXT:      vector.bitcast
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[VC:.*]] = vector.bitcast %[[C]]
// CHECK-NEXT:    %[[SC:.*]] = arith.select %{{.*}}, %[[VC]], %arg4
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %[[D:.*]] = vector.load %{{.*}}[%arg2]
// CHECK-NEXT:    return %[[SB]], %[[SC]], %[[D]]
func.func @selects_after_loads(%m: memref<1000xf16>, %i: index, %j: index, %size: index,
                               %h: vector<8xf16>, %lds: memref<1000xf16, #gpu.address_space<workgroup>>)
    -> (vector<8xf16>, vector<8xf16>, vector<8xf16>) {
  %mask = vector.create_mask %size : vector<8xi1>
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<1000xf16> to memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>
  %a = vector.maskedload %f[%i], %mask, %h : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  %b = vector.maskedload %f[%j], %mask, %h : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  vector.store %a, %lds[%i] : memref<1000xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  %c = vector.maskedload %f[%i], %mask, %h : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  gpu.barrier
  %d = vector.load %f[%j] : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
  return %b, %c, %d : vector<8xf16>, vector<8xf16>, vector<8xf16>
}

// A run that is not a whole number of dwords (3 f16) yields itself, its select in the
// `else` branch as upstream has it (no dword vector to yield).
// CHECK-LABEL: func.func @not_whole_dwords
// CHECK:         %[[G:.*]] = scf.if %{{.*}} -> (vector<3xf16>) {
// CHECK-NEXT:      vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[P:.*]] = vector.load %{{.*}}[%arg1] : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<3xf16>
// CHECK-NEXT:      %[[S:.*]] = arith.select %{{.*}}, %[[P]], %arg3 : vector<3xi1>, vector<3xf16>
// CHECK-NEXT:      scf.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[G]]
func.func @not_whole_dwords(%m: memref<1000xf16>, %i: index, %size: index, %h: vector<3xf16>) -> vector<3xf16> {
  %mask = vector.create_mask %size : vector<3xi1>
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<1000xf16> to memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>
  %a = vector.maskedload %f[%i], %mask, %h : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<3xi1>, vector<3xf16> into vector<3xf16>
  return %a : vector<3xf16>
}
