// RUN: pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=SLOT
// RUN: not pipeline-opt %S/Inputs/natural-4wave.mlir --pass-pipeline='builtin.module(sched-adopt-loop)' 2>&1 | FileCheck %s --check-prefix=NONAME

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

// A tile copied by part of the workgroup is spread over every thread
// (pipeline_mlir/frontend/partial_copy.py) only where threads 0 to n - 1 run the copy once
// and n is a whole fraction of the workgroup that splits each lane's run: a mutated bound
// (127 threads: the prefetch point's 'scf.if' and the late form's per-thread loop), threads
// 128 and up, a quarter of the workgroup that would split a 2-element run in 4, a copy
// whose LDS index differs between the lanes of a wave (the spread copy's proof) and a
// workgroup of two dimensions are refused at the guarding op; a guard of the workgroup id
// is not of the threads alone and keeps the scan's refusal, as does an 'scf.if' of the
// thread id that copies nothing.
gpu.module @m {
  gpu.func @bound_127(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c127 = arith.constant 127 : index
    %tid = gpu.thread_id x
    %off = arith.muli %tid, %c8 : index
    %part = arith.cmpi ult, %tid, %c127 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{in 127 of the workgroup's 256 threads (thread 0: 1 time(s), thread 127: 0): a copy made by part of the workgroup, which the front end spreads over every thread only where n divides the workgroup's 256 threads, 256 / n a divisor of the wave's 64}}
      scf.if %part {
        amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @loop_127(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c127 = arith.constant 127 : index
    %c256 = arith.constant 256 : index
    %tid = gpu.thread_id x
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{in 127 of the workgroup's 256 threads (thread 0: 1 time(s), thread 127: 0): a copy made by part of the workgroup, which the front end spreads over every thread only where n divides}}
      scf.for %j = %tid to %c127 step %c256 {
        %off = arith.muli %j, %c8 : index
        amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @upper_half(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %off = arith.muli %tid, %c8 : index
    %part = arith.cmpi uge, %tid, %c128 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{in 128 of the workgroup's 256 threads (thread 128: 1 time(s), thread 0: 0): a copy made by part of the workgroup, which the front end spreads over every thread only where threads 0 to n - 1 run it once and the others never}}
      scf.if %part {
        amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @quarter(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %off = arith.muli %tid, %c2 : index
    %part = arith.cmpi ult, %tid, %c64 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{a copy made by part of the workgroup, which the front end spreads over every thread only where each lane's 2 elements split into the 4 pieces of 256 / 64 threads}}
      scf.if %part {
        amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<2xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @lane_lds_index(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %off = arith.muli %tid, %c8 : index
    %lane = arith.remui %tid, %c2 : index
    %part = arith.cmpi ult, %tid, %c128 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{in 128 of the workgroup's 256 threads (thread 0: 1 time(s), thread 128: 0): a copy made by part of the workgroup, which the front end spreads over every thread only where its LDS index is the same in every running lane of a wave}}
      scf.if %part {
        amdgpu.gather_to_lds %g[%off], %l[%lane] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @two_dims(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 128, 2, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %off = arith.muli %tid, %c8 : index
    %part = arith.cmpi ult, %tid, %c64 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{in 128 of the workgroup's 256 threads (thread 0: 1 time(s), thread 64: 0): a copy made by part of the workgroup, which the front end spreads over every thread only in a workgroup of one dimension, not 128x2x1}}
      scf.if %part {
        amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

// A run of 4 bytes spread in 2-byte pieces (partial_copy.py) must start on a 4-byte
// boundary of a buffer of whole dwords (frontend/dword_runs.py): a range-checked dword
// that straddles the buffer's end reads zeros whole, a 2-byte piece of it its own element.
// A column moved by one element (finding 84 of docs/iree-audits.md) and a buffer of 17 rows
// of 519 f16 are refused at the guard; the aligned twin is spread (and then refused for
// its LDS, which is no memref.alloc: past the check).
gpu.module @m {
  gpu.func @off_dword(%a0: memref<17x520xf16>, %l: memref<4096xf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c65 = arith.constant 65 : index
    %c128 = arith.constant 128 : index
    %g = amdgpu.fat_raw_buffer_cast %a0 resetOffset : memref<17x520xf16> to memref<17x520xf16, #amdgpu.address_space<fat_raw_buffer>>
    %tid = gpu.thread_id x
    %part = arith.cmpi ult, %tid, %c128 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c65 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{which the front end spreads over every thread only where each lane's 4-byte run starts on a 4-byte boundary of a buffer of whole dwords in every workgroup and K step (its 2-byte pieces are range-checked one by one, the copy's dwords whole): a run that starts off a 4-byte boundary is not excluded (the value of 'arith.addi' op at line}}
      scf.if %part {
        %row = arith.divui %tid, %c4 : index
        %q = arith.remui %tid, %c4 : index
        %q2 = arith.muli %q, %c2 : index
        %k = arith.muli %i, %c8 : index
        %col0 = arith.addi %k, %q2 : index
        %col = arith.addi %col0, %c1 : index
        amdgpu.gather_to_lds %g[%row, %col], %l[%c0] : vector<2xf16>, memref<17x520xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @odd_bytes(%a0: memref<17x519xf16>, %l: memref<4096xf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c65 = arith.constant 65 : index
    %c128 = arith.constant 128 : index
    %g = amdgpu.fat_raw_buffer_cast %a0 resetOffset : memref<17x519xf16> to memref<17x519xf16, #amdgpu.address_space<fat_raw_buffer>>
    %tid = gpu.thread_id x
    %part = arith.cmpi ult, %tid, %c128 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c65 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{its buffer (memref<17x519xf16, #amdgpu.address_space<fat_raw_buffer>>) is not whole dwords, so a dword of a run may straddle its end}}
      scf.if %part {
        %row = arith.divui %tid, %c4 : index
        %q = arith.remui %tid, %c4 : index
        %q2 = arith.muli %q, %c2 : index
        %k = arith.muli %i, %c8 : index
        %col0 = arith.addi %k, %q2 : index
        %col = arith.addi %col0, %c0 : index
        amdgpu.gather_to_lds %g[%row, %col], %l[%c0] : vector<2xf16>, memref<17x519xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @on_dword(%a0: memref<17x520xf16>, %l: memref<4096xf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c65 = arith.constant 65 : index
    %c128 = arith.constant 128 : index
    %g = amdgpu.fat_raw_buffer_cast %a0 resetOffset : memref<17x520xf16> to memref<17x520xf16, #amdgpu.address_space<fat_raw_buffer>>
    %tid = gpu.thread_id x
    %part = arith.cmpi ult, %tid, %c128 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c65 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      scf.if %part {
        %row = arith.divui %tid, %c4 : index
        %q = arith.remui %tid, %c4 : index
        %q2 = arith.muli %q, %c2 : index
        %k = arith.muli %i, %c8 : index
        %col0 = arith.addi %k, %q2 : index
        %col = arith.addi %col0, %c0 : index
        // expected-error @+1 {{'vector.store' op at line}}
        amdgpu.gather_to_lds %g[%row, %col], %l[%c0] : vector<2xf16>, memref<17x520xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @of_workgroup(%g: memref<4096xbf16, #gpu.address_space<global>>, %l: memref<4096xbf16, #gpu.address_space<workgroup>>, %a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %wg = gpu.block_id x
    %off = arith.muli %tid, %c8 : index
    %part = arith.cmpi ult, %tid, %wg : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{is not: it yields nothing, and its condition is not true for every thread}}
      scf.if %part {
        amdgpu.gather_to_lds %g[%off], %l[%c0] : vector<8xbf16>, memref<4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
      }
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @half_nothing(%a: vector<8xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %half = arith.cmpi ult, %tid, %c128 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      // expected-error @+1 {{is not: it yields nothing, and its condition is not true for every thread}}
      scf.if %half {
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

// A workgroup of more threads than gfx950 holds (a text mutation of IREE's VectorDistribute
// f16 kernel: [256, 1, 999999999], whose threads the analyses evaluated one by one:
// finding 118), and one of no thread: refused at the kernel.
gpu.module @m {
  // expected-error @+1 {{its workgroup size (translation_info workgroup_size) is [256, 1, 999999999], 255999999744 threads; a gfx950 workgroup has 1 to 1024}}
  gpu.func @too_many_threads(%a: vector<8xbf16>, %n: index) kernel attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [256, 1, 999999999] subgroup_size = 64>} {
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

module {
  // expected-error @+1 {{its workgroup size (known_block_size) is [64, 0, 1], 0 threads; a gfx950 workgroup has 1 to 1024}}
  func.func @no_thread(%a: vector<8xbf16>, %n: index) attributes {known_block_size = array<i32: 64, 0, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (vector<4xf32>) {
      %m = amdgpu.mfma 16x16x32 %a * %a + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
      scf.yield %m : vector<4xf32>
    }
    return
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

// IREE's fp8 A^T x B at K = 288 (iree-compile 3.13's default configuration, a 64x128x32 tile;
// its prefetch point as generate.py writes it) multiplies with gfx942's 16x16x32 fp8 MFMA,
// which the 4-wave schedule issues (test_iree_fp8_mfma16.py pipelines it); here one MFMA is
// mutated to broadcast its A operand (cbsz(1)), which the emulator does not model: refused at
// that MFMA, saying so.
#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 8)>
#map1 = affine_map<(d0) -> (d0 * 4)>
#map2 = affine_map<()[s0] -> (s0 * 8)>
#map3 = affine_map<(d0)[s0] -> (d0 * 64 + s0 * 8)>
#map4 = affine_map<()[s0] -> (s0 * 16)>
#map5 = affine_map<(d0)[s0] -> (d0 * 128 + s0 * 16)>
#map6 = affine_map<()[s0] -> (s0 * 4)>
#map7 = affine_map<()[s0] -> (s0 * 2)>
#map8 = affine_map<(d0)[s0] -> (d0 * 32 + s0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_256x512x288_f8E4M3FNxf8E4M3FNxf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_256x512x288_f8E4M3FNxf8E4M3FNxf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %0 = ub.poison : f8E4M3FN
          %cst = arith.constant dense<0.000000e+00> : vector<2x4x4x1xf32>
          %c9 = arith.constant 9 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %c16 = arith.constant 16 : index
          %c2 = arith.constant 2 : index
          %c8 = arith.constant 8 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<16xf8E4M3FN>
          %c24 = arith.constant 24 : index
          %cst_1 = arith.constant dense<0.000000e+00> : vector<32xf8E4M3FN>
          %cst_2 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>>
          %alloc_3 = memref.alloc() : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<288x256xf8E4M3FN, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<288x256xf8E4M3FN, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<288x256xf8E4M3FN, #hal.descriptor_type<storage_buffer>> to memref<288x256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<288x512xf8E4M3FN, #hal.descriptor_type<storage_buffer>>
          %assume_align_4 = memref.assume_alignment %3, 64 : memref<288x512xf8E4M3FN, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<288x512xf8E4M3FN, #hal.descriptor_type<storage_buffer>> to memref<288x512xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<256x512xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_5 = memref.assume_alignment %5, 64 : memref<256x512xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<256x512xf32, #hal.descriptor_type<storage_buffer>> to memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>
          %expand_shape = memref.expand_shape %6 [[0, 1], [2, 3]] output_shape [16, 16, 32, 16] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<16x16x32x16xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (4, 4) {
            %7 = affine.apply #map(%arg1)
            %8 = affine.apply #map1(%arg0)
            %subview = memref.subview %expand_shape[%8, 0, %7, 0] [4, 16, 8, 16] [1, 1, 1, 1] : memref<16x16x32x16xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<4x16x8x16xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %subview_6 = memref.subview %alloc_3[0, 0] [32, 64] [1, 1] : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>> to memref<32x64xf8E4M3FN, strided<[72, 1]>, #gpu.address_space<workgroup>>
            %subview_7 = memref.subview %alloc[0, 0] [32, 128] [1, 1] : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>> to memref<32x128xf8E4M3FN, strided<[136, 1]>, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %9:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %10:3 = affine.delinearize_index %9#2 into (4, 16) : index, index, index
            %11 = iree_codegen.index_hint %10#1(#iree_gpu.lane_constant<16>) : index
            %12 = iree_codegen.index_hint %10#2(#iree_gpu.lane_increment<16, aligned>) : index
            %13 = affine.linearize_index disjoint [%11, %c0] by (4, 4) : index
            %14:2 = affine.delinearize_index %thread_id_x into (32, 8) : index, index
            %15 = affine.apply #map2()[%14#1]
            %16 = affine.apply #map3(%arg0)[%14#1]
            %17 = affine.apply #map4()[%14#1]
            %18 = affine.apply #map5(%arg1)[%14#1]
            %19 = affine.apply #map6()[%9#1]
            %20 = affine.apply #map7()[%9#0]
            %subview_8 = memref.subview %subview[%20, %13, %19, %12] [2, 4, 4, 1] [1, 1, 1, 1] : memref<4x16x8x16xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<2x4x4x1xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %21 = affine.linearize_index disjoint [%11, %c0] by (4, 8) : index
            %subview_9 = memref.subview %subview_6[%14#0, %15] [1, 8] [1, 1] : memref<32x64xf8E4M3FN, strided<[72, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf8E4M3FN, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_10 = memref.subview %subview_7[%14#0, %17] [1, 16] [1, 1] : memref<32x128xf8E4M3FN, strided<[136, 1]>, #gpu.address_space<workgroup>> to memref<1x16xf8E4M3FN, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
            %expand_shape_11 = memref.expand_shape %subview_7 [[0, 1], [2, 3]] output_shape [1, 32, 8, 16] : memref<32x128xf8E4M3FN, strided<[136, 1]>, #gpu.address_space<workgroup>> into memref<1x32x8x16xf8E4M3FN, strided<[4352, 136, 16, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_12 = memref.expand_shape %subview_6 [[0, 1], [2, 3]] output_shape [1, 32, 4, 16] : memref<32x64xf8E4M3FN, strided<[72, 1]>, #gpu.address_space<workgroup>> into memref<1x32x4x16xf8E4M3FN, strided<[2304, 72, 16, 1]>, #gpu.address_space<workgroup>>
            %22 = gpu.lane_id upper_bound 64
            %23 = arith.remui %22, %c16 : index
            %24 = arith.divui %23, %c2 : index
            %25 = arith.subi %12, %23 : index
            %26 = arith.remui %23, %c2 : index
            %27 = arith.muli %26, %c8 : index
            %28 = arith.addi %25, %27 : index
            %29:2 = affine.delinearize_index %24 into (8, 2) : index, index
            %30 = arith.addi %21, %29#0 : index
            %31 = arith.addi %20, %29#1 : index
            %32 = arith.addi %24, %c8 : index
            %33:2 = affine.delinearize_index %32 into (8, 2) : index, index
            %34 = arith.addi %21, %33#0 : index
            %35 = arith.addi %20, %33#1 : index
            %36 = gpu.lane_id upper_bound 64
            %37 = arith.remui %36, %c16 : index
            %38 = arith.divui %37, %c2 : index
            %39 = arith.subi %12, %37 : index
            %40 = arith.remui %37, %c2 : index
            %41 = arith.muli %40, %c8 : index
            %42 = arith.addi %39, %41 : index
            %43:2 = affine.delinearize_index %38 into (8, 4) : index, index
            %44 = arith.addi %21, %43#0 : index
            %45 = arith.addi %19, %43#1 : index
            %46 = arith.addi %38, %c8 : index
            %47:2 = affine.delinearize_index %46 into (8, 4) : index, index
            %48 = arith.addi %21, %47#0 : index
            %49 = arith.addi %19, %47#1 : index
            %50 = arith.addi %38, %c16 : index
            %51:2 = affine.delinearize_index %50 into (8, 4) : index, index
            %52 = arith.addi %21, %51#0 : index
            %53 = arith.addi %19, %51#1 : index
            %54 = arith.addi %38, %c24 : index
            %55:2 = affine.delinearize_index %54 into (8, 4) : index, index
            %56 = arith.addi %21, %55#0 : index
            %57 = arith.addi %19, %55#1 : index
            %58:8 = scf.for %arg2 = %c0 to %c9 step %c1 iter_args(%arg3 = %cst_2, %arg4 = %cst_2, %arg5 = %cst_2, %arg6 = %cst_2, %arg7 = %cst_2, %arg8 = %cst_2, %arg9 = %cst_2, %arg10 = %cst_2) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %76 = affine.apply #map8(%arg2)[%14#0]
              %subview_13 = memref.subview %4[%76, %18] [1, 16] [1, 1] : memref<288x512xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>> to memref<1x16xf8E4M3FN, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %subview_14 = memref.subview %2[%76, %16] [1, 8] [1, 1] : memref<288x256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xf8E4M3FN, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %77 = vector.transfer_read %subview_14[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf8E4M3FN, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf8E4M3FN>
              vector.transfer_write %77, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf8E4M3FN>, memref<1x8xf8E4M3FN, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
              %78 = vector.transfer_read %subview_13[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x16xf8E4M3FN, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x16xf8E4M3FN>
              vector.transfer_write %78, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf8E4M3FN>, memref<1x16xf8E4M3FN, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %79 = amdgpu.transpose_load %expand_shape_12[%c0, %30, %31, %28] : memref<1x32x4x16xf8E4M3FN, strided<[2304, 72, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
              %80 = amdgpu.transpose_load %expand_shape_12[%c0, %34, %35, %28] : memref<1x32x4x16xf8E4M3FN, strided<[2304, 72, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
              %81 = vector.insert_strided_slice %79, %cst_0 offsets = [0], strides = [1] : vector<8xf8E4M3FN> into vector<16xf8E4M3FN>
              %82 = vector.insert_strided_slice %80, %81 offsets = [8], strides = [1] : vector<8xf8E4M3FN> into vector<16xf8E4M3FN>
              %83 = vector.shape_cast %82 : vector<16xf8E4M3FN> to vector<1x8x2x1xf8E4M3FN>
              %84 = vector.transpose %83, [0, 2, 3, 1] : vector<1x8x2x1xf8E4M3FN> to vector<1x2x1x8xf8E4M3FN>
              %85 = amdgpu.transpose_load %expand_shape_11[%c0, %44, %45, %42] : memref<1x32x8x16xf8E4M3FN, strided<[4352, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
              %86 = amdgpu.transpose_load %expand_shape_11[%c0, %48, %49, %42] : memref<1x32x8x16xf8E4M3FN, strided<[4352, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
              %87 = amdgpu.transpose_load %expand_shape_11[%c0, %52, %53, %42] : memref<1x32x8x16xf8E4M3FN, strided<[4352, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
              %88 = amdgpu.transpose_load %expand_shape_11[%c0, %56, %57, %42] : memref<1x32x8x16xf8E4M3FN, strided<[4352, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
              %89 = vector.insert_strided_slice %85, %cst_1 offsets = [0], strides = [1] : vector<8xf8E4M3FN> into vector<32xf8E4M3FN>
              %90 = vector.insert_strided_slice %86, %89 offsets = [8], strides = [1] : vector<8xf8E4M3FN> into vector<32xf8E4M3FN>
              %91 = vector.insert_strided_slice %87, %90 offsets = [16], strides = [1] : vector<8xf8E4M3FN> into vector<32xf8E4M3FN>
              %92 = vector.insert_strided_slice %88, %91 offsets = [24], strides = [1] : vector<8xf8E4M3FN> into vector<32xf8E4M3FN>
              %93 = vector.shape_cast %92 : vector<32xf8E4M3FN> to vector<1x8x4x1xf8E4M3FN>
              %94 = vector.transpose %93, [0, 2, 3, 1] : vector<1x8x4x1xf8E4M3FN> to vector<1x4x1x8xf8E4M3FN>
              %95 = vector.extract %84[0, 0] : vector<1x8xf8E4M3FN> from vector<1x2x1x8xf8E4M3FN>
              %96 = vector.extract %94[0, 0] : vector<1x8xf8E4M3FN> from vector<1x4x1x8xf8E4M3FN>
              %97 = vector.shape_cast %95 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %98 = vector.shape_cast %96 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              // expected-error @+1 {{'amdgpu.mfma' op broadcasts its operands (cbsz = 1); the schedules keep each MFMA as it is and the emulator proves only plain ones}}
              %99 = amdgpu.mfma 16x16x32 %97 * %98 + %arg10 cbsz(1) : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              %100 = vector.extract %94[0, 1] : vector<1x8xf8E4M3FN> from vector<1x4x1x8xf8E4M3FN>
              %101 = vector.shape_cast %95 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %102 = vector.shape_cast %100 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %103 = amdgpu.mfma 16x16x32 %101 * %102 + %arg9 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              %104 = vector.extract %94[0, 2] : vector<1x8xf8E4M3FN> from vector<1x4x1x8xf8E4M3FN>
              %105 = vector.shape_cast %95 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %106 = vector.shape_cast %104 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %107 = amdgpu.mfma 16x16x32 %105 * %106 + %arg8 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              %108 = vector.extract %94[0, 3] : vector<1x8xf8E4M3FN> from vector<1x4x1x8xf8E4M3FN>
              %109 = vector.shape_cast %95 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %110 = vector.shape_cast %108 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %111 = amdgpu.mfma 16x16x32 %109 * %110 + %arg7 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              %112 = vector.extract %84[0, 1] : vector<1x8xf8E4M3FN> from vector<1x2x1x8xf8E4M3FN>
              %113 = vector.shape_cast %112 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %114 = vector.shape_cast %96 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %115 = amdgpu.mfma 16x16x32 %113 * %114 + %arg6 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              %116 = vector.shape_cast %112 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %117 = vector.shape_cast %100 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %118 = amdgpu.mfma 16x16x32 %116 * %117 + %arg5 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              %119 = vector.shape_cast %112 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %120 = vector.shape_cast %104 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %121 = amdgpu.mfma 16x16x32 %119 * %120 + %arg4 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              %122 = vector.shape_cast %112 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %123 = vector.shape_cast %108 : vector<1x8xf8E4M3FN> to vector<8xf8E4M3FN>
              %124 = amdgpu.mfma 16x16x32 %122 * %123 + %arg3 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
              scf.yield %124, %121, %118, %115, %111, %107, %103, %99 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %59 = vector.shape_cast %58#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %60 = vector.shape_cast %58#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %61 = vector.shape_cast %58#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %62 = vector.shape_cast %58#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %63 = vector.shape_cast %58#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %64 = vector.shape_cast %58#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %65 = vector.shape_cast %58#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %66 = vector.shape_cast %58#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %67 = vector.insert_strided_slice %59, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %68 = vector.insert_strided_slice %60, %67 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %69 = vector.insert_strided_slice %61, %68 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %70 = vector.insert_strided_slice %62, %69 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %71 = vector.insert_strided_slice %63, %70 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %72 = vector.insert_strided_slice %64, %71 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %73 = vector.insert_strided_slice %65, %72 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %74 = vector.insert_strided_slice %66, %73 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %75 = vector.transpose %74, [0, 2, 1, 3] : vector<2x4x4x1xf32> to vector<2x4x4x1xf32>
            vector.transfer_write %75, %subview_8[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<2x4x4x1xf32>, memref<2x4x4x1xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_3 : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_256x512x288_f8E4M3FNxf8E4M3FNxf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
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
