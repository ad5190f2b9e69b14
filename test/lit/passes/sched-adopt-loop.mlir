// RUN: pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=SLOT
// RUN: not pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave BK=64})' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop)' 2>&1 | FileCheck %s --check-prefix=NONAME
// RUN: not pipeline-opt %S/Inputs/iree-fp8-atb-256x512x288.prefetch.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=FP8MFMA

// sched-adopt-loop makes a natural K-loop (examples/natural_kernel.py: 4 waves, a 128x128
// tile, K step 32, two gather_to_lds per operand, 16 MFMAs 16x16x32) the 4-wave
// schedule's tagged loop.  Copy j of every wave writes tile rows 32w+16j..+15, so subtile j
// is the copies j and the M/N fragments j and j+2; each buffer's two subtiles differ in
// element bit 9 and are stored densely: one 2048-element buffer per (operand, stage,
// subtile).
// CHECK-COUNT-8: memref.alloc() : memref<2048xbf16, #gpu.address_space<workgroup>>
// Two K tiles per iteration; 16 accumulators plus the 4-wave rotation's 4 carried fragments.
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> ({{.*}}vector<4xf32>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>)
// The body in the schedule's order, each payload op tagged (id = position in the body).
// CHECK-NOT:   gpu.barrier
// CHECK:       amdgpu.gather_to_lds {{.*}} {sched.global_load = {channel = 0 : i64, id = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64}}
// CHECK:       vector.load {{.*}} {sched.frag_load = {channel = 1 : i64, id = 1 : i64, stage = 0 : i64, subtile = 1 : i64}}
// CHECK:       vector.load {{.*}} {sched.frag_load = {channel = 1 : i64, id = 1 : i64, stage = 0 : i64, subtile = 1 : i64}}
// MMA (0,0) of stage 0 multiplies the fragments carried from the previous iteration.
// CHECK-NEXT:  amdgpu.mfma 16x16x32 %arg{{[0-9]+}} * %arg{{[0-9]+}} + %arg{{[0-9]+}} {sched.mma = {id = 2 : i64, stage = 0 : i64, subtile = 0 : i64}}
// CHECK-COUNT-3: {sched.mma = {id = 2 : i64, stage = 0 : i64, subtile = 0 : i64}}
// CHECK:       {sched.global_load = {channel = 0 : i64, id = 12 : i64, k_offset = "k1", stage = 1 : i64, subtile = 0 : i64}}
// CHECK:       {sched.mma = {id = 23 : i64, stage = 1 : i64, subtile = 1 : i64}}
// CHECK:       scf.yield
// The schedule it inferred, as the typed attributes sched-import reads back.
// CHECK-NEXT:  } {sched.options = {BK = 32 : i64, BM = 128 : i64, BN = 128 : i64, dtype = "bf16"}, sched.schedule = "4wave"}

// The last case, a one-wave tile read through 1 x 1024 slot buffers viewed in the loop
// body: 2 K steps merged into each K tile of 64, its buffers one 1024-element buffer per
// (operand, stage, subtile); the merged IR itself is checked in
// test/unit/frontend/test_kmerge.py.
// SLOT-COUNT-8: memref.alloc() : memref<1024xbf16, #gpu.address_space<workgroup>>
// SLOT-NOT:     memref.alloc()
// SLOT:         scf.for
// SLOT:         } {sched.options = {BK = 64 : i64, BM = 32 : i64, BN = 32 : i64, dtype = "bf16", waves = 1 : i64}, sched.schedule = "4wave"}

// A BK of 2 K steps asks for them merged (frontend/kmerge_asked.py); this input's LDS is
// a `workgroup(...)` attribution, which the merge does not take: refused at the loop, saying why.
// OPT: error: sched-adopt-loop: 'scf.for' op: the pipeline asks for BK=64, 2 of the loop's K steps of 32 merged into each K tile, but the front end cannot merge them: its LDS buffer {{.*}} is not a static memref.alloc
// IREE's fp8 A^T x B at K = 288 (Inputs/iree-fp8-atb-256x512x288.prefetch.mlir, its prefetch
// point: iree-compile 3.13's default configuration, a 64x128x32 tile) multiplies with
// gfx942's 16x16x32 fp8 MFMA, which no schedule issues: refused at the MFMA, saying so.
// FP8MFMA: iree-fp8-atb-256x512x288.prefetch.mlir:138:21: error: sched-adopt-loop: 'amdgpu.mfma' op is a 16x16x32 f8E4M3FN MFMA, which the schedules do not issue for fp8 (they issue 16x16x128 and 32x32x64; this one is gfx942's v_mfma_f32_16x16x32_fp8_fp8 family, which gfx950 keeps, and neither the schedules' geometry nor the emulator models it)
// NONAME: error: sched-adopt-loop: 'scf.for' op is a natural K-loop but sched-adopt-loop has no schedule=NAME option

// Loops it refuses, each at the op that is the reason.

gpu.module @m {
  // expected-error @+1 {{does not declare its workgroup size}}
  gpu.func @no_size(%a: vector<8xbf16>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @no_copy(%a: vector<8xbf16>, %n: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // expected-error @+1 {{has no global->LDS copy}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @nested(%a: vector<8xbf16>, %n: index, %p: i1) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{on the condition of a block argument, is not: it yields nothing, and its condition is not true for every thread}}
      scf.if %p {
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @global_to_registers(%g: memref<4096xbf16, #gpu.address_space<global>>, %n: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{reads global memory into registers inside the K-loop}}
      %a = vector.load %g[%i] : memref<4096xbf16, #gpu.address_space<global>>, vector<8xbf16>
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

// Two workgroup sizes that differ (the kernel's and IREE's translation_info's).
gpu.module @m {
  // expected-error @+1 {{it states two workgroup sizes: known_block_size = [256, 1, 1] and translation_info workgroup_size = [128, 2, 1]}}
  gpu.func @two_sizes(%a: vector<8xbf16>, %n: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 2, 1] subgroup_size = 64>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

// Waves of 32 lanes on a target of 64.
gpu.module @m {
  // expected-error @+1 {{its translation_info has subgroup_size = 32, but the target runs waves of 64 lanes}}
  gpu.func @wave32(%a: vector<8xbf16>, %n: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 32>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

// A thread id bounded below the workgroup's size (undefined for the threads above it).
gpu.module @m {
  gpu.func @thread_bound(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    // expected-error @+1 {{'gpu.thread_id' op: upper_bound 64, but the kernel's workgroup has 256 threads along x}}
    %tid = gpu.thread_id x upper_bound 64
    %off = arith.muli %tid, %c8 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %a = vector.load %l[%off] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      gpu.barrier
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

// An unsigned loop whose trip count is known only at run time (signed and unsigned counts
// may differ).
gpu.module @m {
  gpu.func @unsigned_loop(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %n: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %off = arith.muli %tid, %c8 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // expected-error @+1 {{'scf.for' op compares its bounds unsigned ('scf.for unsigned') and they are not constants >= 0}}
    %r = scf.for unsigned %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %a = vector.load %l[%off] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      gpu.barrier
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

// A copy padded with -0.0 where its condition moves with the workgroup: the front end
// would keep the mask in the copy, its masked lanes reading past the end of the
// range-checked buffer, which returns +0.0 (every bit clear), another value.
func.func @kept_negative_zero(%A: memref<256x64xbf16>, %la: memref<128x32xbf16, #gpu.address_space<workgroup>>, %fb: vector<8xbf16>) -> vector<4xf32> attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c200 = arith.constant 200 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %negz = arith.constant dense<-0.0> : vector<8xbf16>
  %Af = amdgpu.fat_raw_buffer_cast %A resetOffset : memref<256x64xbf16> to memref<256x64xbf16, #amdgpu.address_space<fat_raw_buffer>>
  %tid = gpu.thread_id x
  %bid = gpu.block_id x
  %lrow = arith.divui %tid, %c4 : index
  %lcol = arith.remui %tid, %c4 : index
  %col = arith.muli %lcol, %c8 : index
  %row = arith.addi %bid, %lrow : index
  %in = arith.cmpi ult, %row, %c200 : index
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %v = vector.load %Af[%row, %col] : memref<256x64xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
    // expected-error @+1 {{so needs a padding of the constant zero, every bit clear (a read past the end returns +0.0), not dense<-0.000000e+00> : vector<8xbf16>}}
    %s = arith.select %in, %v, %negz : vector<8xbf16>
    vector.store %s, %la[%lrow, %col] : memref<128x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    gpu.barrier
    %fa = vector.load %la[%lrow, %col] : memref<128x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %d = amdgpu.mfma 16x16x32 %fa * %fb + %acc blgp = none : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  return %r : vector<4xf32>
}

// -----

// A one-wave 32x32 bf16 tile (K step 32, 8 K steps, 4 MFMAs 16x16x32) whose LDS tiles are
// read through a 1 x 1024 slot buffer viewed at a slot index computed in the loop body:
// the form pipeline_mlir/frontend/reroll.py leaves of IREE's DMA prefetch (reduced from
// IREE's default build of a 32x32 one-wave tile). The 4-wave schedule's blocks would
// hold one MFMA each, so the front end merges 2 K steps (frontend/kmerge.py): each
// 1 x 1024 buffer becomes a 2048-element one whose slabs are expanded to 1 x 1024, the
// body's subviews cloned on them with their slot index the merged loop's own
// (SLOT above; this input crashed pipeline-opt before).
gpu.module @kernels {
  gpu.func @slot(%A: memref<32x256xbf16, #gpu.address_space<global>>, %B: memref<32x256xbf16, #gpu.address_space<global>>, %C: memref<32x32xf32, #gpu.address_space<global>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %la = memref.alloc() : memref<1x1024xbf16, #gpu.address_space<workgroup>>
    %lb = memref.alloc() : memref<1x1024xbf16, #gpu.address_space<workgroup>>
    %t = gpu.thread_id x
    %row = arith.divui %t, %c4 : index
    %row16 = arith.addi %row, %c16 : index
    %q = arith.remui %t, %c4 : index
    %col = arith.muli %q, %c8 : index
    %l16 = arith.remui %t, %c16 : index
    %g = arith.divui %t, %c16 : index
    %fk = arith.muli %g, %c8 : index
    %f16 = arith.addi %l16, %c16 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %lb0 = arith.constant 0 : index
    %ub0 = arith.constant 8 : index
    %r:4 = scf.for %k = %lb0 to %ub0 step %c1 iter_args(%a00 = %z, %a01 = %z, %a10 = %z, %a11 = %z) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
      %slot = arith.index_castui %c0_i32 : i32 to index
      %sa = memref.subview %la[%slot, 0] [1, 1024] [1, 1] : memref<1x1024xbf16, #gpu.address_space<workgroup>> to memref<1024xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      %sb = memref.subview %lb[%slot, 0] [1, 1024] [1, 1] : memref<1x1024xbf16, #gpu.address_space<workgroup>> to memref<1024xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      %va = memref.expand_shape %sa [[0, 1]] output_shape [32, 32] : memref<1024xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      %vb = memref.expand_shape %sb [[0, 1]] output_shape [32, 32] : memref<1024xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      gpu.barrier
      %kt = arith.muli %k, %c32 : index
      %gk = arith.addi %kt, %col : index
      amdgpu.gather_to_lds %A[%row, %gk], %la[%c0, %c0] : vector<8xbf16>, memref<32x256xbf16, #gpu.address_space<global>>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
      amdgpu.gather_to_lds %A[%row16, %gk], %la[%c0, %c512] : vector<8xbf16>, memref<32x256xbf16, #gpu.address_space<global>>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
      amdgpu.gather_to_lds %B[%row, %gk], %lb[%c0, %c0] : vector<8xbf16>, memref<32x256xbf16, #gpu.address_space<global>>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
      amdgpu.gather_to_lds %B[%row16, %gk], %lb[%c0, %c512] : vector<8xbf16>, memref<32x256xbf16, #gpu.address_space<global>>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %x0 = vector.load %va[%l16, %fk] : memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
      %x1 = vector.load %va[%f16, %fk] : memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
      %y0 = vector.load %vb[%l16, %fk] : memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
      %y1 = vector.load %vb[%f16, %fk] : memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
      %m00 = amdgpu.mfma 16x16x32 %x0 * %y0 + %a00 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      %m01 = amdgpu.mfma 16x16x32 %x0 * %y1 + %a01 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      %m10 = amdgpu.mfma 16x16x32 %x1 * %y0 + %a10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      %m11 = amdgpu.mfma 16x16x32 %x1 * %y1 + %a11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m00, %m01, %m10, %m11 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
    }
    %c0_r = arith.constant 0 : index
    %c1_r = arith.constant 1 : index
    %c2_r = arith.constant 2 : index
    %c3_r = arith.constant 3 : index
    %c16_r = arith.constant 16 : index
    %c17_r = arith.constant 17 : index
    %c18_r = arith.constant 18 : index
    %c19_r = arith.constant 19 : index
    %cr = arith.muli %g, %c4 : index
    %cc1 = arith.addi %l16, %c16 : index
    %cr00 = arith.addi %cr, %c0_r : index
    %cr01 = arith.addi %cr, %c1_r : index
    %cr02 = arith.addi %cr, %c2_r : index
    %cr03 = arith.addi %cr, %c3_r : index
    %cr10 = arith.addi %cr, %c16_r : index
    %cr11 = arith.addi %cr, %c17_r : index
    %cr12 = arith.addi %cr, %c18_r : index
    %cr13 = arith.addi %cr, %c19_r : index
    %e000 = vector.extract %r#0[0] : f32 from vector<4xf32>
    memref.store %e000, %C[%cr00, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e001 = vector.extract %r#0[1] : f32 from vector<4xf32>
    memref.store %e001, %C[%cr01, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e002 = vector.extract %r#0[2] : f32 from vector<4xf32>
    memref.store %e002, %C[%cr02, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e003 = vector.extract %r#0[3] : f32 from vector<4xf32>
    memref.store %e003, %C[%cr03, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e010 = vector.extract %r#1[0] : f32 from vector<4xf32>
    memref.store %e010, %C[%cr00, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    %e011 = vector.extract %r#1[1] : f32 from vector<4xf32>
    memref.store %e011, %C[%cr01, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    %e012 = vector.extract %r#1[2] : f32 from vector<4xf32>
    memref.store %e012, %C[%cr02, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    %e013 = vector.extract %r#1[3] : f32 from vector<4xf32>
    memref.store %e013, %C[%cr03, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    %e100 = vector.extract %r#2[0] : f32 from vector<4xf32>
    memref.store %e100, %C[%cr10, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e101 = vector.extract %r#2[1] : f32 from vector<4xf32>
    memref.store %e101, %C[%cr11, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e102 = vector.extract %r#2[2] : f32 from vector<4xf32>
    memref.store %e102, %C[%cr12, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e103 = vector.extract %r#2[3] : f32 from vector<4xf32>
    memref.store %e103, %C[%cr13, %l16] : memref<32x32xf32, #gpu.address_space<global>>
    %e110 = vector.extract %r#3[0] : f32 from vector<4xf32>
    memref.store %e110, %C[%cr10, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    %e111 = vector.extract %r#3[1] : f32 from vector<4xf32>
    memref.store %e111, %C[%cr11, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    %e112 = vector.extract %r#3[2] : f32 from vector<4xf32>
    memref.store %e112, %C[%cr12, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    %e113 = vector.extract %r#3[3] : f32 from vector<4xf32>
    memref.store %e113, %C[%cr13, %cc1] : memref<32x32xf32, #gpu.address_space<global>>
    gpu.return
  }
}
