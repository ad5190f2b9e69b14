// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-stage-copies)' | FileCheck %s

// A copy marked sched.register_staged (its global source is not aligned to the 16 bytes it
// moves): a global vector.load of the lane's 8 elements at the copy's place; the LDS
// vector.store at the wave's destination plus lane * 8, then lgkmcnt(0) (s_waitcnt 0xC07F),
// just before the first wait or barrier after the copy (here past an MFMA and an unmarked
// copy, which stays a DMA copy); the second marked copy's store goes before the block's end.
// CHECK-LABEL: func.func @staged
// CHECK:         %[[V:.*]] = vector.load %arg0[%arg2, %arg3] : memref<64x4095xbf16>, vector<8xbf16>
// CHECK-NEXT:    %[[L:.*]] = gpu.lane_id
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[L]], %[[C8]] : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg4, %[[M]] : index
// CHECK-NEXT:    amdgpu.mfma
// CHECK-NEXT:    amdgpu.gather_to_lds %arg0[%arg2, %arg3], %arg1[%arg4] : vector<8xbf16>
// CHECK-NEXT:    vector.store %[[V]], %arg1[%[[A]]] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    %[[V2:.*]] = vector.load %arg0
// CHECK:         vector.store %[[V2]]
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    return
// CHECK-NOT:     sched.register_staged
func.func @staged(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index, %x: vector<8xbf16>, %acc: vector<4xf32>) {
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  %r = amdgpu.mfma 16x16x32 %x * %x + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  amdgpu.gather_to_lds %src[%i, %d], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A marked copy into a 2-D LDS buffer: the lane's place is not one index; an error at the copy.
func.func @two_d(%src: memref<64x4095xbf16>, %lds: memref<64x32xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index) {
  // expected-error @+1 {{sched-stage-copies: 'amdgpu.gather_to_lds' op marked sched.register_staged writes LDS memref<64x32xbf16, #gpu.address_space<workgroup>>; a staged copy writes a 1-D buffer}}
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d, %d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<64x32xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A piece of each lane's run (sched.lane_stride = 8: the lanes write LDS 8 elements apart,
// frontend/layout.py's pieces of a run cut at an odd size): its 2 elements stored at the
// wave's destination plus lane * 8, not lane * 2.
// CHECK-LABEL: func.func @lane_stride
// CHECK:         %[[V:.*]] = vector.load %arg0[%arg2, %arg3] : memref<64x4095xbf16>, vector<2xbf16>
// CHECK-NEXT:    %[[L:.*]] = gpu.lane_id
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[L]], %[[C8]] : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg4, %[[M]] : index
// CHECK-NEXT:    vector.store %[[V]], %arg1[%[[A]]] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
func.func @lane_stride(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index) {
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<2xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A lane stride on a copy that is not staged: the DMA writes its lanes one after the other.
func.func @lane_stride_dma(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index) {
  // expected-error @+1 {{sched-stage-copies: 'amdgpu.gather_to_lds' op carries sched.lane_stride (its lanes' LDS places apart) but not sched.register_staged: a direct-to-LDS copy writes its lanes one after the other}}
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.lane_stride = 8 : i64} : vector<2xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A lane stride smaller than the elements a lane moves: each lane's store would overwrite
// the next lane's first element.
func.func @lane_stride_overlap(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index) {
  // expected-error @+1 {{sched-stage-copies: 'amdgpu.gather_to_lds' op attribute 'sched.lane_stride' must be an integer of at least the 2 elements each lane moves (else the lanes overwrite each other's), not 1 : i64}}
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged, sched.lane_stride = 1 : i64} : vector<2xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A lane stride that is no integer.
func.func @lane_stride_text(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index) {
  // expected-error @+1 {{sched-stage-copies: 'amdgpu.gather_to_lds' op attribute 'sched.lane_stride' must be an integer of at least the 2 elements each lane moves (else the lanes overwrite each other's), not "8"}}
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged, sched.lane_stride = "8"} : vector<2xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A constant-bounded K-loop whose copies are all staged: the copy's global load is issued
// an iteration ahead.  Before the loop, its index slice cloned at the lower bound loads
// the first iteration's elements, which the loop carries (a new iter_arg); in the body,
// the LDS store of the carried value at the copy's slot, then the load of the next
// iteration's elements (iv + 1, or iv in the last iteration), yielded.  The loop's wait on
// vmcnt only (0x0F70, derived for the DMA copy) is dropped; lgkmcnt(0) before the barrier.
// CHECK-LABEL: func.func @ahead
// CHECK:         %[[Z:c0_[0-9]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.muli %[[Z]], %c32 : index
// CHECK-NEXT:    %[[V0:.*]] = vector.load %arg0[%arg2, %[[C0]]]
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(%[[ACC:.*]] = %arg5, %[[V:.*]] = %[[V0]]) -> (vector<4xf32>, vector<8xbf16>)
// CHECK:           %[[A:.*]] = arith.addi %arg3,
// CHECK-NEXT:      vector.store %[[V]], %arg1[%[[A]]]
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[N:.*]] = arith.addi %[[K]], %[[ONE]] : index
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[N]], %[[UB]] : index
// CHECK-NEXT:      %[[NK:.*]] = arith.select %[[LT]], %[[N]], %[[K]] : index
// CHECK-NEXT:      %[[NC:.*]] = arith.muli %[[NK]], %c32 : index
// CHECK-NEXT:      %[[NV:.*]] = vector.load %arg0[%arg2, %[[NC]]]
// CHECK-NEXT:      %[[M:.*]] = amdgpu.mfma
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      scf.yield %[[M]], %[[NV]] : vector<4xf32>, vector<8xbf16>
// CHECK-NOT:     gather_to_lds
func.func @ahead(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %x: vector<8xbf16>, %acc0: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %col = arith.muli %k, %c32 : index
    amdgpu.gather_to_lds %src[%i, %col], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    %m = amdgpu.mfma 16x16x32 %x * %x + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    rocdl.s.waitcnt 3952
    rocdl.s.barrier
    scf.yield %m : vector<4xf32>
  }
  return %r : vector<4xf32>
}

// -----

// The copy reads a view the loop makes from the iteration's column (IREE's fp8 kernels):
// the view is part of what is cloned for the next iteration.
// CHECK-LABEL: func.func @view_in_loop
// CHECK:         %[[S0:.*]] = memref.subview %arg0[%arg2, %{{.*}}] [1, 16] [1, 1]
// CHECK-NEXT:    %[[V0:.*]] = vector.load %[[S0]][%c0, %c0]
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(%{{.*}} = %[[V0]]) -> (vector<16xf8E4M3FN>)
// CHECK:           %[[NK:.*]] = arith.select
// CHECK-NEXT:      %[[NC:.*]] = arith.muli %[[NK]], %c16 : index
// CHECK-NEXT:      %[[NS:.*]] = memref.subview %arg0[%arg2, %[[NC]]] [1, 16] [1, 1]
// CHECK-NEXT:      %[[NV:.*]] = vector.load %[[NS]][%c0, %c0]
// CHECK:           scf.yield %[[NV]]
func.func @view_in_loop(%src: memref<64x4100xf8E4M3FN>, %lds: memref<2048xf8E4M3FN, #gpu.address_space<workgroup>>, %i: index, %d: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %col = arith.muli %k, %c16 : index
    %v = memref.subview %src[%i, %col] [1, 16] [1, 1] : memref<64x4100xf8E4M3FN> to memref<1x16xf8E4M3FN, strided<[4100, 1], offset: ?>>
    amdgpu.gather_to_lds %v[%c0, %c0], %lds[%d] {sched.register_staged} : vector<16xf8E4M3FN>, memref<1x16xf8E4M3FN, strided<[4100, 1], offset: ?>>, memref<2048xf8E4M3FN, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Bounds known only at run time (IREE's dynamic-K kernel): the loads still go an iteration
// ahead.  The first iteration's loads before the loop sit in `scf.if lb < ub` (a loop that
// runs no iteration forms no address), zeros otherwise; in the body the next iteration's
// index is clamped by the loop's own upper bound.
// CHECK-LABEL: func.func @dynamic_trips
// CHECK:         %[[RUNS:.*]] = arith.cmpi slt, %c0, %arg4 : index
// CHECK-NEXT:    %[[F:.*]] = scf.if %[[RUNS]] -> (vector<8xbf16>) {
// CHECK-NEXT:      %[[L:.*]] = vector.load %arg0[%arg2, %c0]
// CHECK-NEXT:      scf.yield %[[L]] : vector<8xbf16>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<8xbf16>
// CHECK-NEXT:      scf.yield %[[Z]] : vector<8xbf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %arg4 step %c1 iter_args(%{{.*}} = %arg5, %[[V:.*]] = %[[F]]) -> (vector<4xf32>, vector<8xbf16>) {
// CHECK:           vector.store %[[V]], %arg1
// CHECK:           %[[N:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[N]], %arg4 : index
// CHECK-NEXT:      %[[NK:.*]] = arith.select %[[LT]], %[[N]], %[[K]] : index
// CHECK-NEXT:      %[[NV:.*]] = vector.load %arg0[%arg2, %[[NK]]]
// CHECK:           scf.yield %{{.*}}, %[[NV]] : vector<4xf32>, vector<8xbf16>
// CHECK-NOT:     gather_to_lds
func.func @dynamic_trips(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %n: index, %acc0: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r0 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// The slot form stays where a load cannot be issued an iteration ahead: a step known only
// at run time (iv + step might not be the next iteration) ...
// CHECK-LABEL: func.func @dynamic_step
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg5) -> (vector<4xf32>) {
// CHECK-NEXT:      vector.load
// CHECK-NOT:     gather_to_lds
func.func @dynamic_step(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %s: index, %acc0: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r0 = scf.for %k = %c0 to %c4 step %s iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// ... a loop that runs no iteration ...
// CHECK-LABEL: func.func @no_iteration
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg4) -> (vector<4xf32>) {
// CHECK-NEXT:      vector.load
// CHECK-NOT:     gather_to_lds
func.func @no_iteration(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r0 = scf.for %k = %c1 to %c0 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// ... bounds known only at run time in a kernel that also has DMA copies (their waits are
// re-derived from a stream of known length) ...
// CHECK-LABEL: func.func @dynamic_trips_with_dma
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg5) -> (vector<4xf32>) {
// CHECK-NEXT:      amdgpu.gather_to_lds %arg0[%arg2, %{{.*}}], %arg1[%arg3] :
// CHECK-NEXT:      vector.load
func.func @dynamic_trips_with_dma(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %n: index, %acc0: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r0 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// ... an index that depends on memory (a memref.load) ...
// CHECK-LABEL: func.func @index_from_memory
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg4) -> (vector<4xf32>) {
// CHECK-NEXT:      memref.load
// CHECK-NEXT:      vector.load
func.func @index_from_memory(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>, %idx: memref<4xindex, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r1 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %col = memref.load %idx[%k] : memref<4xindex, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds %src[%i, %col], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// A kernel that also has DMA copies: the staged load still goes an iteration ahead (the
// first one just before the loop) and the schedule's vmcnt waits are re-derived for the
// DMA copies, counting DMA copies only: a staged load issued after the copy a wait needs
// is a plain load LLVM may delete (the last iteration's, used nowhere after a loop of one
// trip it removes) or move, so a count that left it in flight could leave the copy in
// flight instead.  The wait at the top needs the last iteration's DMA copy (in the first
// iteration the one before the loop), the one at the bottom this iteration's: both stay
// vmcnt(0), not vmcnt(1).
// CHECK-LABEL: func.func @with_dma_copies
// CHECK:         amdgpu.gather_to_lds %arg0[%arg2, %arg2], %arg1[%arg3]
// CHECK:         %[[F:.*]] = vector.load %arg0[%arg2, %{{.*}}] : memref<64x4095xbf16>, vector<8xbf16>
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg4, %[[C:.*]] = %[[F]]) -> (vector<4xf32>, vector<8xbf16>) {
// CHECK-NEXT:      rocdl.s.waitcnt 3952
// CHECK-NEXT:      amdgpu.gather_to_lds %arg0[%arg2, %{{.*}}], %arg1[%arg3]
// CHECK:           vector.store %[[C]], %arg1
// CHECK:           vector.load %arg0
// CHECK:           rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.s.waitcnt 3952
// CHECK-NEXT:      scf.yield
func.func @with_dma_copies(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  amdgpu.gather_to_lds %src[%i, %i], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    rocdl.s.waitcnt 3952
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    rocdl.s.waitcnt 3952
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// The prologue's waits (the loop's block before it) and those in an op with regions that
// holds no copy (the zero-trip fence before the loop, a wait under a condition in the body)
// are re-derived the same way, from the copies issued before them on every path: the
// prologue's stream is S0 D0 D1 S1 D2 (S staged, D DMA).  Its vmcnt(4) requires S0 only,
// no DMA copy: erased; its vmcnt(2) requires up to D1: vmcnt(1), D2 after it (the
// schedule also counted S1); the fence's vmcnt(0) stays.  The body's vmcnt(2) under the
// scf.if (after D S D) requires the first D: vmcnt(1).  A staged copy of the prologue
// stores to LDS just before the first wait that requires it, or else the first op with
// regions, as late as the schedule holds the DMA's write: S0 before the erased wait (past
// two DMA copies), S1 past both barriers, before the fence, and an lgkmcnt(0) before the
// second barrier, so that no LDS read of this wave is in flight when the other waves,
// past it, store S1 (the ISA check's rule, blind to addresses).
// CHECK-LABEL: func.func @prologue_waits
// CHECK:         %[[S0:.*]] = vector.load %arg0[%arg2, %c0]
// CHECK:         amdgpu.gather_to_lds %arg0[%arg2, %c1]
// CHECK-NEXT:    amdgpu.gather_to_lds %arg0[%arg2, %c4]
// CHECK-NEXT:    %[[S1:.*]] = vector.load %arg0[%c1, %c0]
// CHECK:         amdgpu.gather_to_lds %arg0[%c1, %c1]
// CHECK-NEXT:    vector.store %[[S0]], %arg1
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    rocdl.s.waitcnt 3953
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    vector.store %[[S1]], %arg1
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    scf.if %arg5 {
// CHECK-NEXT:      rocdl.s.waitcnt 3952
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:    }
// CHECK:         scf.for
// CHECK:           scf.if %arg5 {
// CHECK-NEXT:        rocdl.s.waitcnt 3953
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield
func.func @prologue_waits(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  amdgpu.gather_to_lds %src[%i, %c0], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %c1], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %c4], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%c1, %c0], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%c1, %c1], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.waitcnt 3956
  rocdl.s.barrier
  rocdl.s.waitcnt 3954
  rocdl.s.barrier
  scf.if %p {
    rocdl.s.waitcnt 3952
    rocdl.s.barrier
  }
  %r2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds %src[%k, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds %src[%k, %i], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.if %p {
      rocdl.s.waitcnt 3954
    }
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// A wait that the schedule placed for staged copies only loses its vmcnt (its lgkmcnt
// stays): in the one iteration, no DMA copy is issued before it.
// CHECK-LABEL: func.func @wait_for_staged_only
// CHECK:         scf.for
// CHECK:           vector.load %arg0
// CHECK:           rocdl.s.waitcnt 49279
// CHECK-NEXT:      rocdl.s.waitcnt 49279
// CHECK-NEXT:      amdgpu.gather_to_lds
func.func @wait_for_staged_only(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r2 = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    rocdl.s.waitcnt 112
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// With DMA copies whose VMEM stream cannot be modelled, the slot form stays: a copy before
// the loop inside an op with regions ...
// CHECK-LABEL: func.func @dma_copy_in_a_region
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg4) -> (vector<4xf32>) {
// CHECK-NEXT:      vector.load
func.func @dma_copy_in_a_region(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.if %p {
    amdgpu.gather_to_lds %src[%i, %i], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  }
  %r2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// ... a copy in an op with regions in the loop ...
// CHECK-LABEL: func.func @copy_in_a_region
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg4) -> (vector<4xf32>) {
// CHECK-NEXT:      vector.load
func.func @copy_in_a_region(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.if %p {
      amdgpu.gather_to_lds %src[%i, %k], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    }
    scf.yield %acc : vector<4xf32>
  }
  return
}

// -----

// ... or a copy after the loop inside an op with regions (the waits after it could not be
// re-derived).
// CHECK-LABEL: func.func @copy_after_in_a_region
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %arg4) -> (vector<4xf32>) {
// CHECK-NEXT:      vector.load
func.func @copy_after_in_a_region(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds %src[%k, %i], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  scf.if %p {
    amdgpu.gather_to_lds %src[%i, %i], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    rocdl.s.waitcnt 3952
  }
  return
}

// -----

// Loaded an iteration ahead, the staged values live across the back edge with the loop's
// iter_args: 2048 + 4 VGPRs per lane do not fit the register file; an error at the loop.
func.func @over_budget(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %big: vector<2048xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{sched-stage-copies: 'scf.for' op would carry 2052 VGPRs per lane across its back edge with its register-staged copies loaded an iteration ahead (2048 for its iter_args, 4 for the copies), more than the budget of 512}}
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%b = %big) -> (vector<2048xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %b : vector<2048xf32>
  }
  return
}

// -----

// A wait after the loop is re-derived too, from the stream of the last iteration and the
// copies after the loop: vmcnt(1) counted the last iteration's staged load, which LLVM
// deletes when it removes a loop of one trip (its value is used nowhere after the loop);
// counting DMA copies only it becomes vmcnt(0) and waits for the loop's DMA copy.
// CHECK-LABEL: func.func @wait_after_the_loop
// CHECK:         scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    rocdl.s.waitcnt 3952
// CHECK-NEXT:    return
func.func @wait_after_the_loop(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %d: index, %acc0: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  amdgpu.gather_to_lds %src[%i, %i], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %acc0) -> (vector<4xf32>) {
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds %src[%i, %k], %lds[%d] {sched.register_staged} : vector<8xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    scf.yield %acc : vector<4xf32>
  }
  rocdl.s.waitcnt 3953
  return
}

// -----

// A run of 8 bf16 cut at one element, copied in pieces of 1, 1 and 6 elements whose lanes
// write LDS 8 apart (sched.lane_stride), staged in one slot: their stores, each the one
// before's element count further on at a 16-byte multiple, are joined into one store of
// the 8 elements (one ds_write_b128 where three writes were, two of them 2-way
// bank-conflicted) at the first's address, followed by one lgkmcnt(0) wait.
// CHECK-LABEL: func.func @joined_pieces
// CHECK:         %[[P0:.*]] = vector.load %arg0[%arg2, %arg3] : memref<64x4095xbf16>, vector<1xbf16>
// CHECK:         %[[P1:.*]] = vector.load {{.*}} vector<1xbf16>
// CHECK:         %[[P2:.*]] = vector.load {{.*}} vector<6xbf16>
// CHECK:         %[[J:.*]] = vector.shuffle %[[P0]], %[[P1]] [0, 1] : vector<1xbf16>, vector<1xbf16>
// CHECK-NEXT:    %[[K:.*]] = vector.shuffle %[[J]], %[[P2]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<2xbf16>, vector<6xbf16>
// CHECK-NEXT:    vector.store %[[K]], %arg1[%{{.*}}] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NOT:     vector.store
func.func @joined_pieces(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %w: index) attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c512 = arith.constant 512 : index
  %d = arith.muli %w, %c512 : index
  %j1 = arith.addi %j, %c1 : index
  %j2 = arith.addi %j, %c2 : index
  %d1 = arith.addi %d, %c1 : index
  %d2 = arith.addi %d, %c2 : index
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %j1], %lds[%d1] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %j2], %lds[%d2] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<6xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  return
}

// -----

// Left as staged, each store with its wait: pieces at a destination not known to be a
// multiple of 8 elements (the joined store could straddle 16-byte rows), pieces with a gap
// (1 and 1 element, 2 apart), pieces whose store points a barrier separates.
// CHECK-LABEL: func.func @pieces_kept
// CHECK-COUNT-7: vector.store {{.*}} : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<{{[16]}}xbf16>
// CHECK-NOT:     vector.shuffle
func.func @pieces_kept(%src: memref<64x4095xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %w: index, %e: index) attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c512 = arith.constant 512 : index
  %d = arith.muli %w, %c512 : index
  %d1 = arith.addi %d, %c1 : index
  %d2 = arith.addi %d, %c2 : index
  %e1 = arith.addi %e, %c1 : index
  %e2 = arith.addi %e, %c2 : index
  amdgpu.gather_to_lds %src[%i, %j], %lds[%e] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %j], %lds[%e1] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %j], %lds[%e2] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<6xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d2] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  amdgpu.gather_to_lds %src[%i, %j], %lds[%d1] {sched.register_staged, sched.lane_stride = 8 : i64} : vector<1xbf16>, memref<64x4095xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  return
}
