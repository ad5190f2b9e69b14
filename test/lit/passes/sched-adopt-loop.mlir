// RUN: pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})'
// RUN: not pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave BK=64})' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop)' 2>&1 | FileCheck %s --check-prefix=NONAME
// RUN: pipeline-opt %S/Inputs/slot-view-merge.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=SLOT

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

// A one-wave tile read through 1 x 1024 slot buffers viewed in the loop body
// (Inputs/slot-view-merge.mlir): 2 K steps merged into each K tile of 64, its buffers one
// 1024-element buffer per (operand, stage, subtile); the merged IR itself is checked in
// test/unit/frontend/test_kmerge.py.
// SLOT-COUNT-8: memref.alloc() : memref<1024xbf16, #gpu.address_space<workgroup>>
// SLOT-NOT:     memref.alloc()
// SLOT:         scf.for
// SLOT:         } {sched.options = {BK = 64 : i64, BM = 32 : i64, BN = 32 : i64, dtype = "bf16", waves = 1 : i64}, sched.schedule = "4wave"}

// OPT: error: sched-adopt-loop: 'scf.for' op: the pipeline asks for BK=64, but the loop's payload has BK=32
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
