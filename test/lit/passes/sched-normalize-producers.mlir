// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-normalize-producers)' | FileCheck %s
// RUN: pipeline-opt %S/Inputs/normalize-producers-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-normalize-producers)'
// RUN: pipeline-opt %S/Inputs/reroll-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-normalize-producers)'
// RUN: pipeline-opt %S/Inputs/reroll-straight-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-normalize-producers)'
// RUN: pipeline-opt %S/Inputs/reroll-straight-regs-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-normalize-producers)'
// RUN: pipeline-opt %S/Inputs/reroll-regs-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})'

// sched-normalize-producers puts a kernel in IREE Wave's form into the front end's: the
// stream.executable's func.func moves to the top level with the memrefs of its
// stream.binding.subspans as arguments, the launcher that dispatches to it goes, a
// memref.view pool becomes one allocation per view, and readfirstlane intrinsic calls
// become rocdl.readfirstlane.

// CHECK-LABEL: module {
// CHECK-NOT:   stream.
// CHECK:       func.func @k(%arg0: memref<f16>, %arg1: memref<64xf32>, %arg2: index) attributes {translation_info = #translation} {
// CHECK-DAG:     %[[LO:.*]] = memref.alloc() : memref<16x8xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[HI:.*]] = memref.alloc() : memref<8x8xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.view
// CHECK:         %[[T:.*]] = arith.index_cast
// CHECK:         %[[F:.*]] = rocdl.readfirstlane %[[T]] : i32
// CHECK:         %[[R:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [4096]
// CHECK:         amdgpu.gather_to_lds %{{.*}}, %[[LO]]
// CHECK:         vector.load %[[HI]]
// CHECK:         memref.store %{{.*}}, %arg1[%arg2]
// CHECK-NOT:   func.func @launch
// CHECK-NOT:   flow.dispatch
#translation = #iree_codegen.translation_info<pipeline = #iree_codegen.pass_pipeline<""> workgroup_size = [64, 2, 1] subgroup_size = 64>
module {
  stream.executable private @k {
    stream.executable.export public @k workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @k(%a: !stream.binding, %c: !stream.binding, %i: index) attributes {translation_info = #translation} {
        %c0 = arith.constant 0 : index
        %c256 = arith.constant 256 : index
        %0 = stream.binding.subspan %a[%c0] : !stream.binding -> memref<f16>
        %1 = stream.binding.subspan %c[%c0] : !stream.binding -> memref<64xf32>
        %pool = memref.alloc() : memref<512xi8, #gpu.address_space<workgroup>>
        %lo = memref.view %pool[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<16x8xf16, #gpu.address_space<workgroup>>
        %hi = memref.view %pool[%c256][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<8x8xf16, #gpu.address_space<workgroup>>
        %t = gpu.thread_id x
        %ti = arith.index_cast %t : index to i32
        %f = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%ti) : (i32) -> i32
        %fi = arith.index_cast %f : i32 to index
        %r = memref.reinterpret_cast %0 to offset: [0], sizes: [4096], strides: [1] : memref<f16> to memref<4096xf16>
        amdgpu.gather_to_lds %r[%t], %lo[%fi, %c0] : vector<2xf16>, memref<4096xf16>, memref<16x8xf16, #gpu.address_space<workgroup>>
        %v = vector.load %hi[%c0, %c0] : memref<8x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %e = vector.extract %v[0] : f16 from vector<8xf16>
        %x = arith.extf %e : f16 to f32
        memref.store %x, %1[%i] : memref<64xf32>
        return
      }
    }
  }
  func.func @launch(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 : !hal.buffer_view -> tensor<4096xf16>
    %1 = hal.tensor.import %arg1 : !hal.buffer_view -> tensor<64xf32>
    %c0 = arith.constant 0 : index
    %2 = flow.dispatch @k::@k(%0, %1, %c0) : (tensor<4096xf16>, tensor<64xf32>, index) -> %1
    %3 = hal.tensor.export %2 : tensor<64xf32> -> !hal.buffer_view
    return %3 : !hal.buffer_view
  }
}

// -----

// Another intrinsic call stays, and so does a view of memory other than LDS.
// CHECK-LABEL: func.func @other
// CHECK:       memref.view
// CHECK:       llvm.call_intrinsic "llvm.amdgcn.s.getpc"
func.func @other() -> i64 {
  %c0 = arith.constant 0 : index
  %p = memref.alloc() : memref<64xi8>
  %v = memref.view %p[%c0][] : memref<64xi8> to memref<16xf32>
  %r = llvm.call_intrinsic "llvm.amdgcn.s.getpc"() : () -> i64
  return %r : i64
}

// -----

// A K-loop in the shape of IREE's own prefetch pipelining (prefetch_num_stages = 2, late
// form: LDS of two slots per operand, the first K tile copied before the loop, the body
// copying tile iv + 1 into slot (iv + 1) mod 2 with async DMA while it multiplies the tile
// whose views it carries, the last tile multiplied after it) is rolled back to the loop
// IREE had before pipelining (pipeline_mlir/frontend/reroll.py): one slot per operand, the
// full trip count, synchronous copies of tile iv, then the barrier, reads and MFMA; no
// prologue, no epilogue. Inputs/reroll-errors.mlir breaks each thing the step proves;
// IREE's pipelining of copies through registers is rolled back too (below;
// pipeline_mlir/frontend/reroll_regs.py): Inputs/reroll-regs-errors.mlir breaks each thing
// that step proves, and ends with two kernels the step leaves to the front end, which
// sched-adopt-loop refuses (check_not_pipelined in pipeline_mlir/frontend/scan.py).
// Index arithmetic of values from before the loop between the epilogue's repeats (%rw,
// IREE's late form puts its stores' there) stays where it is.

// CHECK-LABEL: func.func @rolled
// CHECK-DAG:     %[[LA:.*]] = memref.alloc() : memref<1x512xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[LB:.*]] = memref.alloc() : memref<1x512xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     amdgpu.gather_to_lds
// CHECK-NOT:     rocdl.asyncmark
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK:         %[[R:.*]] = scf.for %[[IV:.*]] = %{{.*}} to %[[FOUR]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4xf32>) : i32 {
// CHECK:           %[[SLOT:.*]] = arith.index_castui %[[ZERO]] : i32 to index
// CHECK:           %[[SA:.*]] = memref.subview %[[LA]][%[[SLOT]], 0] [1, 512] [1, 1]
// CHECK:           %[[VA:.*]] = memref.expand_shape %[[SA]]
// CHECK:           gpu.barrier
// CHECK:           %[[KN:.*]] = arith.muli %[[IV]], %{{.*}} : i32
// CHECK:           amdgpu.gather_to_lds %{{.*}}, %[[LA]]
// CHECK:           amdgpu.gather_to_lds %{{.*}}, %[[LB]]
// CHECK-NOT:       asyncmark
// CHECK:           gpu.barrier
// CHECK:           %[[FA:.*]] = vector.load %[[VA]]
// CHECK:           %[[M:.*]] = amdgpu.mfma 16x16x32 %[[FA]] * %{{.*}} + %[[ACC]]
// CHECK:           scf.yield %[[M]] : vector<4xf32>
// CHECK:         }
// CHECK-NOT:     asyncmark
// CHECK-NOT:     amdgpu.mfma
// CHECK:         %[[RW:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NOT:     amdgpu.mfma
// CHECK:         vector.store %[[R]], %arg2[%[[RW]], %{{.*}}]
func.func @rolled(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c32_i32 = arith.constant 32 : i32
  %c512_i32 = arith.constant 512 : i32
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %sa = memref.subview %la[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %sb = memref.subview %lb[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %ea = memref.expand_shape %sa [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %eb = memref.expand_shape %sb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %va = memref.cast %ea : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %vb = memref.cast %eb : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %lane_r = arith.remui %t, %c16 : index
  %lane_k = arith.divui %t, %c16 : index
  %rk = arith.muli %lane_k, %c8 : index
  %k0i = arith.index_cast %k0 : index to i32
  %dsti = arith.index_cast %dst : index to i32
  %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
    %n = arith.addi %i, %c1_i32 : i32
    %slot = arith.remui %n, %c2_i32 : i32
    %slotx = arith.index_castui %slot : i32 to index
    %na = memref.subview %la[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %lb[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %xa = memref.expand_shape %na [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %xb = memref.expand_shape %nb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %kn = arith.muli %n, %c32_i32 : i32
    %kk = arith.addi %k0i, %kn : i32
    %kx = arith.index_castui %kk : i32 to index
    %so = arith.muli %slot, %c512_i32 : i32
    %dd = arith.addi %dsti, %so : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    amdgpu.gather_to_lds async %a[%row, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds async %b[%row, %kx], %lb[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    rocdl.asyncmark
    rocdl.wait.asyncmark 1
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %fa = vector.load %ca[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %fb = vector.load %cb[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %fa * %fb + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %m, %xa, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  rocdl.wait.asyncmark 0
  gpu.barrier memfence [#gpu.address_space<workgroup>]
  %ga = vector.load %r#1[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %rw = arith.muli %lane_k, %c4 : index
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// The rolled loop of any grid: A's rows offset by the workgroup ids, one bounded at 16384
// workgroups, one (rocdl's) known only at launch, which the prologue adds in another order
// than the body (IREE folds them so): the prologue's copies are proven the body's for every
// workgroup by their index arithmetic (pipeline_mlir/analysis/id_forms.py), none enumerated.
// B's row has a part that is 0 on this grid, (wg floordiv 16384) * 16, computed by an
// affine.apply before the loop and by arith ops in it: the map's sum and product expanded,
// its floordiv the same atom as the arith.floordivsi.
// CHECK-LABEL: func.func @rolled_any_grid
// CHECK-DAG:     memref.alloc() : memref<1x512xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     rocdl.asyncmark
// CHECK:         %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[FOUR]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>) : i32 {
// CHECK:           amdgpu.gather_to_lds %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}
// CHECK-NOT:     rocdl.asyncmark
// CHECK:         return
func.func @rolled_any_grid(%a: memref<?x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c32_i32 = arith.constant 32 : i32
  %c512_i32 = arith.constant 512 : i32
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %wg = gpu.block_id x upper_bound 16384
  %wy = rocdl.workgroup.id.y : i32
  %wyx = arith.index_cast %wy : i32 to index
  %wrow = arith.muli %wg, %c16 : index
  %yrow = arith.muli %wyx, %c16 : index
  %prow0 = arith.addi %row, %wrow : index
  %prow = arith.addi %prow0, %yrow : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  %pbrow = affine.apply affine_map<(d0)[s0] -> (d0 + (s0 floordiv 16384) * 16)>(%row)[%wg]
  amdgpu.gather_to_lds async %a[%prow, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%pbrow, %k0], %lb[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %sa = memref.subview %la[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %sb = memref.subview %lb[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %ea = memref.expand_shape %sa [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %eb = memref.expand_shape %sb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %va = memref.cast %ea : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %vb = memref.cast %eb : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %lane_r = arith.remui %t, %c16 : index
  %lane_k = arith.divui %t, %c16 : index
  %rk = arith.muli %lane_k, %c8 : index
  %k0i = arith.index_cast %k0 : index to i32
  %dsti = arith.index_cast %dst : index to i32
  %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
    %n = arith.addi %i, %c1_i32 : i32
    %slot = arith.remui %n, %c2_i32 : i32
    %slotx = arith.index_castui %slot : i32 to index
    %na = memref.subview %la[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %lb[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %xa = memref.expand_shape %na [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %xb = memref.expand_shape %nb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %yrow2 = arith.muli %c16, %wyx : index
    %brow0 = arith.addi %yrow2, %wrow : index
    %brow = arith.addi %brow0, %row : index
    %c16384 = arith.constant 16384 : index
    %bq = arith.floordivsi %wg, %c16384 : index
    %bq16 = arith.muli %bq, %c16 : index
    %bbrow = arith.addi %bq16, %row : index
    %kn = arith.muli %n, %c32_i32 : i32
    %kk = arith.addi %k0i, %kn : i32
    %kx = arith.index_castui %kk : i32 to index
    %so = arith.muli %slot, %c512_i32 : i32
    %dd = arith.addi %dsti, %so : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    amdgpu.gather_to_lds async %a[%brow, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds async %b[%bbrow, %kx], %lb[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    rocdl.asyncmark
    rocdl.wait.asyncmark 1
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %fa = vector.load %ca[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %fb = vector.load %cb[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %fa * %fb + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %m, %xa, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  rocdl.wait.asyncmark 0
  gpu.barrier memfence [#gpu.address_space<workgroup>]
  %ga = vector.load %r#1[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// A step of 2 (IREE's loop over K in units of half a tile: 8-wave kernels of K step 64),
// the slot (iv + 2) / 2 mod 2: rolled back to the same loop, its bound 6 + 2.
// CHECK-LABEL: func.func @rolled_step2
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[EIGHT:.*]] = arith.constant 8 : i32
// CHECK:         scf.for %[[IV:.*]] = %{{.*}} to %[[EIGHT]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>) : i32 {
// CHECK-NOT:       arith.remui
// CHECK:           %[[HALF:.*]] = arith.divui %[[IV]], %{{.*}} : i32
// CHECK:           arith.muli %[[HALF]], %{{.*}} : i32
// CHECK:           amdgpu.gather_to_lds %{{.*}}
// CHECK:           amdgpu.mfma
// CHECK:           scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return

func.func @rolled_step2(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c6_i32 = arith.constant 6 : i32
  %c32_i32 = arith.constant 32 : i32
  %c512_i32 = arith.constant 512 : i32
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %sa = memref.subview %la[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %sb = memref.subview %lb[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %ea = memref.expand_shape %sa [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %eb = memref.expand_shape %sb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %va = memref.cast %ea : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %vb = memref.cast %eb : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %lane_r = arith.remui %t, %c16 : index
  %lane_k = arith.divui %t, %c16 : index
  %rk = arith.muli %lane_k, %c8 : index
  %k0i = arith.index_cast %k0 : index to i32
  %dsti = arith.index_cast %dst : index to i32
  %r:3 = scf.for %i = %c0_i32 to %c6_i32 step %c2_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
    %n = arith.addi %i, %c2_i32 : i32
    %t2 = arith.divui %n, %c2_i32 : i32
    %slot = arith.remui %t2, %c2_i32 : i32
    %slotx = arith.index_castui %slot : i32 to index
    %na = memref.subview %la[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %lb[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %xa = memref.expand_shape %na [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %xb = memref.expand_shape %nb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %kn = arith.muli %t2, %c32_i32 : i32
    %kk = arith.addi %k0i, %kn : i32
    %kx = arith.index_castui %kk : i32 to index
    %so = arith.muli %slot, %c512_i32 : i32
    %dd = arith.addi %dsti, %so : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    amdgpu.gather_to_lds async %a[%row, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds async %b[%row, %kx], %lb[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    rocdl.asyncmark
    rocdl.wait.asyncmark 1
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %fa = vector.load %ca[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %fb = vector.load %cb[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %fa * %fb + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %m, %xa, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  rocdl.wait.asyncmark 0
  gpu.barrier memfence [#gpu.address_space<workgroup>]
  %ga = vector.load %r#1[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// The pipelined loop's upper bound below its lower one: it runs no iteration, so the
// prologue's and epilogue's one tile is the whole reduction, and the rolled loop runs one.

// CHECK-LABEL: func.func @rolled_no_trips
// CHECK:         arith.constant -1 : i32
// CHECK:         arith.constant 0 : i32
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[ONE]] step %{{.*}} iter_args(%{{.*}}) -> (vector<4xf32>) : i32 {
func.func @rolled_no_trips(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c32_i32 = arith.constant 32 : i32
  %c512_i32 = arith.constant 512 : i32
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %sa = memref.subview %la[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %sb = memref.subview %lb[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %ea = memref.expand_shape %sa [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %eb = memref.expand_shape %sb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %va = memref.cast %ea : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %vb = memref.cast %eb : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %lane_r = arith.remui %t, %c16 : index
  %lane_k = arith.divui %t, %c16 : index
  %rk = arith.muli %lane_k, %c8 : index
  %k0i = arith.index_cast %k0 : index to i32
  %dsti = arith.index_cast %dst : index to i32
  %cm1 = arith.constant -1 : i32
  %r:3 = scf.for %i = %c0_i32 to %cm1 step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
    %n = arith.addi %i, %c1_i32 : i32
    %slot = arith.remui %n, %c2_i32 : i32
    %slotx = arith.index_castui %slot : i32 to index
    %na = memref.subview %la[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %lb[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %xa = memref.expand_shape %na [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %xb = memref.expand_shape %nb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %kn = arith.muli %n, %c32_i32 : i32
    %kk = arith.addi %k0i, %kn : i32
    %kx = arith.index_castui %kk : i32 to index
    %so = arith.muli %slot, %c512_i32 : i32
    %dd = arith.addi %dsti, %so : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    amdgpu.gather_to_lds async %a[%row, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds async %b[%row, %kx], %lb[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    rocdl.asyncmark
    rocdl.wait.asyncmark 1
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %fa = vector.load %ca[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %fb = vector.load %cb[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %fa * %fb + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %m, %xa, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  rocdl.wait.asyncmark 0
  gpu.barrier memfence [#gpu.address_space<workgroup>]
  %ga = vector.load %r#1[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// IREE's prefetch pipelining of copies through registers (its default build of register-copy
// kernels): a prologue loads and stores K tile 0, the body loads tile iv + 1 before its
// first barrier and stores it after its second (and an amdgpu.sched_barrier), the epilogue
// repeats the body's read and MFMA after a barrier.  Rolled back (frontend/reroll_regs.py):
// the second barrier, the load of tile iv and its store, the first barrier, the read and
// the MFMA, over 4 iterations; no prologue, no epilogue.

// CHECK-LABEL: func.func @k()
// CHECK-NOT:     vector.store {{.*}}workgroup
// CHECK:         %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[UB]] step %{{.*}} iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[K:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[KC:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT:      %[[V:.*]] = vector.load %{{.*}}[%{{.*}}, %[[KC]]] : memref<16x128xbf16, #gpu.address_space<global>>
// CHECK-NEXT:      vector.store %[[V]], %{{.*}} : memref<16x32xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.sched_barrier
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x128xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %v0 = vector.load %g[%row, %col] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The same in a grid of 100000 workgroups, each its own rows of A: far more than are
// enumerated, rolled back because each prologue index is the body's linear form over the
// workgroup id at K tile 0 (pipeline_mlir/analysis/id_forms.py).

// CHECK-LABEL: func.func @grid()
// CHECK-NOT:     vector.store {{.*}}workgroup
// CHECK:         %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK:           vector.load %{{.*}}[%[[ROW:.*]], %{{.*}}] : memref<1600000x128xbf16
// CHECK-NEXT:      vector.store
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @grid() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1600000x128xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %wg = hal.interface.workgroup.id[0] upper_bound 100000 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %wrow = arith.muli %wg, %c16 : index
  %grow = arith.addi %row, %wrow : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %v0 = vector.load %g[%grow, %col] : memref<1600000x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %wrow2 = arith.muli %c16, %wg : index
    %grow2 = arith.addi %wrow2, %row : index
    %v = vector.load %g[%grow2, %kc] : memref<1600000x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The same with an unaligned K (100, in tiles of 32: the last cut to 4 columns), each K tile
// loaded through IREE's guarded load (an scf.if on whether the run reaches the buffer's end,
// a masked load of the columns left in the tile) and a grid of 100000 workgroups: the
// prologue's guard, mask and pass-through are proven the body's at tile 0 by their forms
// (the mask a constant there, folded by IREE, the body's computed from the tile), the
// rolled loop loads every tile through the body's guarded load, the masked tile last.

// CHECK-LABEL: func.func @masked()
// CHECK-NOT:     scf.if
// CHECK-NOT:     vector.store {{.*}}workgroup
// CHECK:         %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[UB]] step %{{.*}} iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[K:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:           %[[MASK:.*]] = vector.create_mask
// CHECK:           %[[V:.*]] = scf.if
// CHECK-NEXT:        vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<1600000x100xbf16
// CHECK:           } else {
// CHECK-NEXT:        vector.load
// CHECK-NEXT:        arith.select %[[MASK]]
// CHECK:           vector.store %[[V]], %{{.*}} : memref<16x32xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.sched_barrier
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @masked() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %cend = arith.constant 160000000 : index
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1600000x100xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %wg = hal.interface.workgroup.id[0] upper_bound 100000 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %wrow = arith.muli %wg, %c16 : index
  %grow = arith.addi %row, %wrow : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %col0 = arith.minui %col, %c32 : index
  %full = vector.create_mask %c8 : vector<8xi1>
  %lin0 = affine.apply #map()[%grow, %col0]
  %rest0 = arith.subi %cend, %lin0 : index
  %near0 = arith.cmpi ult, %rest0, %c8 : index
  %odd0 = arith.remui %rest0, %c2 : index
  %ne0 = arith.cmpi ne, %odd0, %c0 : index
  %cut0 = arith.andi %near0, %ne0 : i1
  %v0 = scf.if %cut0 -> (vector<8xbf16>) {
    %x = vector.maskedload %g[%grow, %col0], %full, %pass : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    %x = vector.load %g[%grow, %col0] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
    %y = arith.select %full, %x, %pass : vector<8xi1>, vector<8xbf16>
    scf.yield %y : vector<8xbf16>
  }
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %off = arith.minui %k, %c100 : index
    %left = arith.subi %c100, %off : index
    %kl = arith.minui %left, %c32 : index
    %cc = arith.minui %kl, %col : index
    %lanes = arith.subi %kl, %cc : index
    %ml = arith.minsi %lanes, %c8 : index
    %kc = arith.addi %cc, %off : index
    %mask = vector.create_mask %ml : vector<8xi1>
    %lin = affine.apply #map()[%grow, %kc]
    %rest = arith.subi %cend, %lin : index
    %near = arith.cmpi ult, %rest, %c8 : index
    %odd = arith.remui %rest, %c2 : index
    %ne = arith.cmpi ne, %odd, %c0 : index
    %cut = arith.andi %near, %ne : i1
    %v = scf.if %cut -> (vector<8xbf16>) {
      %x = vector.maskedload %g[%grow, %kc], %mask, %pass : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
      scf.yield %x : vector<8xbf16>
    } else {
      %x = vector.load %g[%grow, %kc] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
      %y = arith.select %mask, %x, %pass : vector<8xi1>, vector<8xbf16>
      scf.yield %y : vector<8xbf16>
    }
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The same with rows past M (120 rows, in a grid of 8 workgroups of 16; IREE's f32 A^T x B^T
// 131x1460x65 with 2 stages, B's copy): the body's guarded load is on the constant false
// and its mask is select(the row is inside M, the K run's mask, none); IREE folded the
// prologue's twin at K tile 0 to its else region, a load and a select by the broadcast of
// the row's condition.  The prologue's load goes back under an scf.if on a constant false
// (sched-normalize-producers' reroll_reguard.py), its mask is proven the body's at tile 0
// (the row conditions alike, the K run's mask keeping all 8 lanes there), and the rolled
// loop loads every tile through the body's guarded load.

// CHECK-LABEL: func.func @folded_guard()
// CHECK-NOT:     vector.broadcast
// CHECK-NOT:     vector.store {{.*}}workgroup
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[MASK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>
// CHECK:           %[[V:.*]] = scf.if %false
// CHECK-NEXT:        vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<1600000x100xbf16
// CHECK:           } else {
// CHECK-NEXT:        vector.load
// CHECK-NEXT:        arith.select %[[MASK]]
// CHECK:           vector.store %[[V]], %{{.*}} : memref<16x32xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @folded_guard() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %cm = arith.constant 120 : index
  %false = arith.constant false
  %none = arith.constant dense<false> : vector<8xi1>
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1600000x100xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %wg = hal.interface.workgroup.id[0] upper_bound 8 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %wrow = arith.muli %wg, %c16 : index
  %grow = arith.addi %row, %wrow : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %col0 = arith.minui %col, %c32 : index
  %in0 = arith.cmpi ult, %grow, %cm : index
  %keep0 = vector.broadcast %in0 : i1 to vector<8xi1>
  %x0 = vector.load %g[%grow, %col0] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
  %v0 = arith.select %keep0, %x0, %pass : vector<8xi1>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %off = arith.minui %k, %c100 : index
    %left = arith.subi %c100, %off : index
    %kl = arith.minui %left, %c32 : index
    %cc = arith.minui %kl, %col : index
    %lanes = arith.subi %kl, %cc : index
    %ml = arith.minsi %lanes, %c8 : index
    %kc = arith.addi %cc, %off : index
    %run = vector.create_mask %ml : vector<8xi1>
    %in = arith.cmpi ult, %grow, %cm : index
    %mask = arith.select %in, %run, %none : vector<8xi1>
    %v = scf.if %false -> (vector<8xbf16>) {
      %x = vector.maskedload %g[%grow, %kc], %mask, %pass : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
      scf.yield %x : vector<8xbf16>
    } else {
      %x = vector.load %g[%grow, %kc] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
      %y = arith.select %mask, %x, %pass : vector<8xi1>, vector<8xbf16>
      scf.yield %y : vector<8xbf16>
    }
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %q4 = arith.muli %q, %c4 : index
  vector.store %e, %c[%row, %q4] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The prologue's guarded load on a constant false kept, its mask true in every lane (IREE's
// f32 A^T x B^T 226x1741x202 with 2 stages, B's K tile 0, finding 124): IREE folded its else
// region's select by that mask to the load alone.  The select goes back (reroll_reguard.py's
// reselect: exact, the mask keeps every lane), the prologue's load is IREE's guarded load
// again, its mask proven the body's at tile 0 (the K run's mask keeping all 8 lanes there),
// and the rolled loop loads every tile through the body's guarded load.

// CHECK-LABEL: func.func @folded_select()
// CHECK-NOT:     vector.store {{.*}}workgroup
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<8xi1>
// CHECK:           %[[V:.*]] = scf.if %false
// CHECK-NEXT:        vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} : memref<1600000x100xbf16
// CHECK:           } else {
// CHECK-NEXT:        vector.load
// CHECK-NEXT:        arith.select %[[MASK]]
// CHECK:           vector.store %[[V]], %{{.*}} : memref<16x32xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @folded_select() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %false = arith.constant false
  %all = arith.constant dense<true> : vector<8xi1>
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1600000x100xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %wg = hal.interface.workgroup.id[0] upper_bound 8 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %wrow = arith.muli %wg, %c16 : index
  %grow = arith.addi %row, %wrow : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %col0 = arith.minui %col, %c32 : index
  %v0 = scf.if %false -> (vector<8xbf16>) {
    %x = vector.maskedload %g[%grow, %col0], %all, %pass : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    %x = vector.load %g[%grow, %col0] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  }
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %off = arith.minui %k, %c100 : index
    %left = arith.subi %c100, %off : index
    %kl = arith.minui %left, %c32 : index
    %cc = arith.minui %kl, %col : index
    %lanes = arith.subi %kl, %cc : index
    %ml = arith.minsi %lanes, %c8 : index
    %kc = arith.addi %cc, %off : index
    %run = vector.create_mask %ml : vector<8xi1>
    %v = scf.if %false -> (vector<8xbf16>) {
      %x = vector.maskedload %g[%grow, %kc], %run, %pass : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
      scf.yield %x : vector<8xbf16>
    } else {
      %x = vector.load %g[%grow, %kc] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
      %y = arith.select %run, %x, %pass : vector<8xi1>, vector<8xbf16>
      scf.yield %y : vector<8xbf16>
    }
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %q4 = arith.muli %q, %c4 : index
  vector.store %e, %c[%row, %q4] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// A K x N operand at an unaligned K (100 rows, in tiles of 32): IREE loads each K row
// unmasked (its index clamped) and pads the rows past K by an arith.select it sinks to the
// row's LDS store; its prologue, at K tile 0 (every row inside K), stores the load as
// loaded.  The body's select is proven true for every thread at tile 0 (a form of no
// atoms), and the rolled loop pads each tile's rows by the body's own select.

// CHECK-LABEL: func.func @padded()
// CHECK-NOT:     arith.select
// CHECK-NOT:     vector.store {{.*}}workgroup
// CHECK:         %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[UB]] step %{{.*}} iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[K:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:           %[[V:.*]] = vector.load {{.*}} : memref<100x16xbf16
// CHECK-NEXT:      %[[KEEP:.*]] = arith.cmpi ult
// CHECK-NEXT:      %[[KV:.*]] = arith.select %[[KEEP]], %[[V]], %{{.*}} : vector<8xbf16>
// CHECK-NEXT:      vector.store %[[KV]], %{{.*}} : memref<32x16xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @padded() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c99 = arith.constant 99 : index
  %c100 = arith.constant 100 : index
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<100x16xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<32x16xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c2 : index
  %half = arith.remui %t, %c2 : index
  %col = arith.muli %half, %c8 : index
  %q = arith.divui %t, %c16 : index
  %r16 = arith.remui %t, %c16 : index
  %v0 = vector.load %g[%row, %col] : memref<100x16xbf16, #gpu.address_space<global>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %grow = arith.addi %k, %row : index
    %at = arith.minui %grow, %c99 : index
    %v = vector.load %g[%at, %col] : memref<100x16xbf16, #gpu.address_space<global>>, vector<8xbf16>
    %keep = arith.cmpi ult, %grow, %c100 : index
    gpu.barrier
    %f = vector.load %l[%r16, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    %kv = arith.select %keep, %v, %pass : vector<8xbf16>
    vector.store %kv, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%r16, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%r16, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The same with the prologue's store padded too, by another condition (its workgroup id
// below 2, where the body's is 32 + row < 100 at tile 0): the forms differ, so the
// conditions are compared in each workgroup of the grid (2, every row kept on both
// sides), as a guarded load's guard is; the prologue's select goes with its store.

// CHECK-LABEL: func.func @padded_both()
// CHECK-NOT:     arith.select
// CHECK-NOT:     vector.store {{.*}}workgroup
// CHECK:         %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[UB]] step %{{.*}} iter_args
// CHECK:           %[[V:.*]] = vector.load {{.*}} : memref<100x16xbf16
// CHECK-NEXT:      %[[KEEP:.*]] = arith.cmpi ult
// CHECK-NEXT:      %[[KV:.*]] = arith.select %[[KEEP]], %[[V]], %{{.*}} : vector<8xbf16>
// CHECK-NEXT:      vector.store %[[KV]], %{{.*}} : memref<32x16xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @padded_both() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c99 = arith.constant 99 : index
  %c100 = arith.constant 100 : index
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<100x16xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x7xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<32x16xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c2 : index
  %half = arith.remui %t, %c2 : index
  %col = arith.muli %half, %c8 : index
  %q = arith.divui %t, %c16 : index
  %r16 = arith.remui %t, %c16 : index
  %v0 = vector.load %g[%row, %col] : memref<100x16xbf16, #gpu.address_space<global>>, vector<8xbf16>
  %wg = hal.interface.workgroup.id[0] upper_bound 2 : index
  %keep0 = arith.cmpi ult, %wg, %c2 : index
  %kv0 = arith.select %keep0, %v0, %pass : vector<8xbf16>
  vector.store %kv0, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %grow = arith.addi %k, %row : index
    %at = arith.minui %grow, %c99 : index
    %v = vector.load %g[%at, %col] : memref<100x16xbf16, #gpu.address_space<global>>, vector<8xbf16>
    %keep = arith.cmpi ult, %grow, %c100 : index
    gpu.barrier
    %f = vector.load %l[%r16, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    %kv = arith.select %keep, %v, %pass : vector<8xbf16>
    vector.store %kv, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%r16, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%r16, %q] : memref<16x7xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The same with the padding select and its condition between the MFMA and the second
// barrier, where IREE sinks them for a K x M operand (A^T x B): computing only for the
// store after the barrier, they move with it.

// CHECK-LABEL: func.func @padded_early()
// CHECK-NOT:     arith.select
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[KEEP:.*]] = arith.cmpi ult
// CHECK:           %[[V:.*]] = vector.load {{.*}} : memref<100x16xbf16
// CHECK-NEXT:      %[[KV:.*]] = arith.select %[[KEEP]], %[[V]], %{{.*}} : vector<8xbf16>
// CHECK-NEXT:      vector.store %[[KV]], %{{.*}} : memref<32x16xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load {{.*}}workgroup
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @padded_early() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c99 = arith.constant 99 : index
  %c100 = arith.constant 100 : index
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<100x16xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<32x16xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c2 : index
  %half = arith.remui %t, %c2 : index
  %col = arith.muli %half, %c8 : index
  %q = arith.divui %t, %c16 : index
  %r16 = arith.remui %t, %c16 : index
  %v0 = vector.load %g[%row, %col] : memref<100x16xbf16, #gpu.address_space<global>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %grow = arith.addi %k, %row : index
    %at = arith.minui %grow, %c99 : index
    %v = vector.load %g[%at, %col] : memref<100x16xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%r16, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    %keep = arith.cmpi ult, %grow, %c100 : index
    %kv = arith.select %keep, %v, %pass : vector<8xbf16>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    vector.store %kv, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%r16, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%r16, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The same with a loop of no iteration (IREE's prologue and epilogue are the whole
// reduction, one K tile): rolled back to a loop of one.

// CHECK-LABEL: func.func @z()
// CHECK:         %[[UB:c1_[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[UB]] step
// CHECK:           amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @z() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x128xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %v0 = vector.load %g[%row, %col] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// IREE's VectorDistribute late form guards the LDS stores with scf.if %true, before the
// loop and in it: inlined first (frontend/const_if.py), then rolled back as above.

// CHECK-LABEL: func.func @vd()
// CHECK-NOT:     scf.if
// CHECK:         scf.for
// CHECK:           vector.load {{.*}}global
// CHECK-NEXT:      vector.store {{.*}}workgroup
// CHECK-NEXT:      gpu.barrier
// CHECK:           amdgpu.mfma
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     amdgpu.mfma
// CHECK:         return
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @vd() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %true = arith.constant true
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x128xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %v0 = vector.load %g[%row, %col] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
  scf.if %true {
    vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  }
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    gpu.barrier
    amdgpu.sched_barrier allow = none
    scf.if %true {
      vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    }
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// IREE's prefetch pipelining with as many stages as K tiles leaves no loop: its K tiles
// straight, each group of copies into its own slot, each tile's reads of its slot folded
// in their own way (tile 1 here through a delinearized flat index). The loop comes back:
// 2 trips of group 0's copies, synchronous, their K column moved 32 per trip, between two
// barriers, then tile 0's reads and MFMA accumulating in an iter_arg; one slot per buffer.

// CHECK-LABEL: func.func @straight
// CHECK-DAG:     %[[LA:.*]] = memref.alloc() : memref<1x512xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[LB:.*]] = memref.alloc() : memref<1x512xbf16, #gpu.address_space<workgroup>>
// CHECK:         %[[K0:.*]] = arith.muli %{{.*}}, %c8 : index
// CHECK:         %[[E0:.*]] = arith.addi
// CHECK:         %[[LO:.*]] = arith.constant 0 : index
// CHECK:         %[[HI:.*]] = arith.constant 2 : index
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[STEP:.*]] = arith.constant 32 : index
// CHECK:         %[[R:.*]] = scf.for %[[T:.*]] = %[[LO]] to %[[HI]] step %[[ONE]] iter_args(%[[ACC:.*]] = %cst) -> (vector<4xf32>) {
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[T]], %[[STEP]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.addi %[[K0]], %[[M]] : index
// CHECK-NEXT:      amdgpu.gather_to_lds %arg0[%{{.*}}, %[[K]]], %[[LA]][%c0, %{{.*}}] :
// CHECK-NOT:       rocdl.
// CHECK:           amdgpu.gather_to_lds %arg1
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[FA:.*]] = vector.load %[[LA]][%c0, %[[E0]]]
// CHECK-NEXT:      %[[FB:.*]] = vector.load %[[LB]][%c0, %[[E0]]]
// CHECK-NEXT:      %[[P:.*]] = amdgpu.mfma 16x16x32 %[[FA]] * %[[FB]] + %[[ACC]]
// CHECK-NEXT:      scf.yield %[[P]] : vector<4xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     amdgpu.mfma
// CHECK-NOT:     rocdl.
// CHECK:         vector.store %[[R]], %arg2
func.func @straight(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32)>(%t)
  amdgpu.gather_to_lds async %a[%row, %k1], %la[%c1, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k1], %lb[%c1, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  rocdl.wait.asyncmark 1
  gpu.barrier
  %r = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %rk = arith.muli %q, %c8 : index
  %ra = arith.muli %r, %c32 : index
  %e0 = arith.addi %ra, %rk : index
  %fa0 = vector.load %la[%c0, %e0] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb0 = vector.load %lb[%c0, %e0] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m0 = amdgpu.mfma 16x16x32 %fa0 * %fb0 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  rocdl.wait.asyncmark 0
  gpu.barrier
  %e1 = arith.addi %e0, %c512 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  %fa1 = vector.load %la[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// IREE's prefetch pipelining through registers with every K tile peeled: 3 K tiles straight,
// each a group of loads of A and B into registers stored into one LDS buffer each, K tile
// j+1's loads issued before K tile j's MFMA, its stores after it and a barrier.  K tile 1's
// K column is K tile 0's plus 32 (folded into an affine.apply), K tile 2's clamped (as IREE
// clamps a cut last tile's).  Rebuilt into the K-loop: 3 trips of a barrier, the loads and
// stores of the trip's K tile (the column K tile 0's plus 32 per trip, K tile 2's chosen in
// trip 2), a barrier, K tile 0's reads and MFMA accumulating in an iter_arg.

// CHECK-LABEL: func.func @straight_regs
// CHECK:         %[[K0:.*]] = arith.muli %{{.*}}, %c8 : index
// CHECK:         %[[KC:.*]] = arith.minui %[[K0]], %c16 : index
// CHECK:         %[[K2:.*]] = arith.addi %[[KC]], %c64 : index
// CHECK:         %[[LO:.*]] = arith.constant 0 : index
// CHECK:         %[[HI:.*]] = arith.constant 3 : index
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[STEP:.*]] = arith.constant 32 : index
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK:         %[[R:.*]] = scf.for %[[T:.*]] = %[[LO]] to %[[HI]] step %[[ONE]] iter_args(%[[ACC:.*]] = %cst) -> (vector<4xf32>) {
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[T]], %[[STEP]] : index
// CHECK-NEXT:      %[[KT:.*]] = arith.addi %[[K0]], %[[M]] : index
// CHECK-NEXT:      %[[IS2:.*]] = arith.cmpi eq, %[[T]], %[[TWO]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.select %[[IS2]], %[[K2]], %[[KT]] : index
// CHECK-NEXT:      %[[A:.*]] = vector.load %arg0[%{{.*}}, %[[K]]] : memref<16x96xbf16>, vector<8xbf16>
// CHECK-NEXT:      vector.store %[[A]], %[[LA:.*]][%{{.*}}, %[[K0]]]
// CHECK-NEXT:      %[[B:.*]] = vector.load %arg1[%{{.*}}, %[[K]]] : memref<16x96xbf16>, vector<8xbf16>
// CHECK-NEXT:      vector.store %[[B]], %[[LB:.*]][%{{.*}}, %[[K0]]]
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[FA:.*]] = vector.load %[[LA]]
// CHECK-NEXT:      %[[FB:.*]] = vector.load %[[LB]]
// CHECK-NEXT:      %[[P:.*]] = amdgpu.mfma 16x16x32 %[[FA]] * %[[FB]] + %[[ACC]]
// CHECK-NEXT:      scf.yield %[[P]] : vector<4xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     amdgpu.mfma
// CHECK-NOT:     amdgpu.sched_barrier
// CHECK:         vector.store %[[R]], %arg2
func.func @straight_regs(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %r = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %qk = arith.muli %q, %c8 : index
  %a0 = vector.load %a[%row, %k0] : memref<16x96xbf16>, vector<8xbf16>
  %b0 = vector.load %b[%row, %k0] : memref<16x96xbf16>, vector<8xbf16>
  vector.store %a0, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b0, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32)>(%t)
  %a1 = vector.load %a[%row, %k1] : memref<16x96xbf16>, vector<8xbf16>
  %b1 = vector.load %b[%row, %k1] : memref<16x96xbf16>, vector<8xbf16>
  gpu.barrier
  %fa0 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb0 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m0 = amdgpu.mfma 16x16x32 %fa0 * %fb0 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  gpu.barrier
  amdgpu.sched_barrier allow = none
  vector.store %a1, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b1, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %kc = arith.minui %k0, %c16 : index
  %k2 = arith.addi %kc, %c64 : index
  %a2 = vector.load %a[%row, %k2] : memref<16x96xbf16>, vector<8xbf16>
  %b2 = vector.load %b[%row, %k2] : memref<16x96xbf16>, vector<8xbf16>
  gpu.barrier
  %fa1 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  gpu.barrier
  vector.store %a2, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b2, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  %fa2 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb2 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m2 = amdgpu.mfma 16x16x32 %fa2 * %fb2 + %m1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// As @straight_regs, but B is read through a range-checked fat_raw_buffer and K tile 2's load
// of it is a folded guarded load (its mask false in every lane: the pass-through, whatever
// the guard): the loop loads B at the column K tile 0's plus 32 per trip (in trip 2 past
// what any tile reads: the range check reads zero there, never faults) and stores the
// pass-through in trip 2.

// CHECK-LABEL: func.func @straight_regs_folded
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           %[[B:.*]] = vector.load %{{.*}} : memref<16x96xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
// CHECK-NEXT:      %[[NOT2:.*]] = arith.cmpi ne, %[[T]], %c2 : index
// CHECK-NEXT:      %[[V:.*]] = arith.select %[[NOT2]], %[[B]], %cst_0 : vector<8xbf16>
// CHECK-NEXT:      vector.store %[[V]]
// CHECK-NOT:     scf.if
func.func @straight_regs_folded(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true
  %none = arith.constant dense<false> : vector<8xi1>
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %bf = amdgpu.fat_raw_buffer_cast %b resetOffset : memref<16x96xbf16> to memref<16x96xbf16, #amdgpu.address_space<fat_raw_buffer>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %r = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %qk = arith.muli %q, %c8 : index
  %a0 = vector.load %a[%row, %k0] : memref<16x96xbf16>, vector<8xbf16>
  %b0 = vector.load %bf[%row, %k0] : memref<16x96xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
  vector.store %a0, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b0, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32)>(%t)
  %a1 = vector.load %a[%row, %k1] : memref<16x96xbf16>, vector<8xbf16>
  %b1 = vector.load %bf[%row, %k1] : memref<16x96xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
  gpu.barrier
  %fa0 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb0 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m0 = amdgpu.mfma 16x16x32 %fa0 * %fb0 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  gpu.barrier
  amdgpu.sched_barrier allow = none
  vector.store %a1, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b1, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %kc = arith.minui %k0, %c16 : index
  %k2 = arith.addi %kc, %c64 : index
  %a2 = vector.load %a[%row, %k2] : memref<16x96xbf16>, vector<8xbf16>
  %b2 = scf.if %true -> (vector<8xbf16>) {
    %x = vector.maskedload %bf[%row, %k2], %none, %pass : memref<16x96xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    scf.yield %pass : vector<8xbf16>
  }
  gpu.barrier
  %fa1 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  gpu.barrier
  vector.store %a2, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b2, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  %fa2 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb2 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m2 = amdgpu.mfma 16x16x32 %fa2 * %fb2 + %m1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// As @straight_regs with two MFMAs along K per K tile: the loop counts them, as IREE's loop
// variable does (3 K tiles: 0 to 6 step 2, the K column moved 16 per trip, K tile 2 chosen
// at trip 4), so that the front end may cut a pair of K tiles into sub-steps.

// CHECK-LABEL: func.func @straight_regs_chain2
// CHECK:         %[[HI:.*]] = arith.constant 6 : index
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : index
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %[[HI]] step %[[TWO]] iter_args
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[T]], %[[STEP]] : index
// CHECK-NEXT:      %{{.*}} = arith.addi %{{.*}}, %[[M]] : index
// CHECK-NEXT:      %{{.*}} = arith.cmpi eq, %[[T]], %[[FOUR]] : index
// CHECK:           amdgpu.mfma
// CHECK-NEXT:      amdgpu.mfma
// CHECK-NEXT:      scf.yield
func.func @straight_regs_chain2(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %r = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %qk = arith.muli %q, %c8 : index
  %a0 = vector.load %a[%row, %k0] : memref<16x96xbf16>, vector<8xbf16>
  %b0 = vector.load %b[%row, %k0] : memref<16x96xbf16>, vector<8xbf16>
  vector.store %a0, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b0, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32)>(%t)
  %a1 = vector.load %a[%row, %k1] : memref<16x96xbf16>, vector<8xbf16>
  %b1 = vector.load %b[%row, %k1] : memref<16x96xbf16>, vector<8xbf16>
  gpu.barrier
  %fa0 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb0 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %h0 = amdgpu.mfma 16x16x32 %fa0 * %fb0 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %m0 = amdgpu.mfma 16x16x32 %fb0 * %fa0 + %h0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  gpu.barrier
  amdgpu.sched_barrier allow = none
  vector.store %a1, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b1, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %kc = arith.minui %k0, %c16 : index
  %k2 = arith.addi %kc, %c64 : index
  %a2 = vector.load %a[%row, %k2] : memref<16x96xbf16>, vector<8xbf16>
  %b2 = vector.load %b[%row, %k2] : memref<16x96xbf16>, vector<8xbf16>
  gpu.barrier
  %fa1 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %h1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %m1 = amdgpu.mfma 16x16x32 %fb1 * %fa1 + %h1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  gpu.barrier
  vector.store %a2, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b2, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  %fa2 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb2 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %h2 = amdgpu.mfma 16x16x32 %fa2 * %fb2 + %m1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %m2 = amdgpu.mfma 16x16x32 %fb2 * %fa2 + %h2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}
