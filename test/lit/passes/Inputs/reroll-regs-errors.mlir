// Kernels in the shape of IREE's prefetch pipelining of copies through registers that
// sched-adopt-loop refuses: its sched-normalize-producers does not roll them back
// (pipeline_mlir/frontend/reroll_regs.py), each refused at the op concerned: the kernel
// rolled back in ../sched-normalize-producers.mlir broken once per case; then the kernel
// loading through IREE's guarded loads (@masked there) and the one padding its K rows
// (@padded) broken once per check of those; then two the roll-back does not take, refused
// by the front end.

// a prologue load of K tile 1, not 0
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
  %k1 = arith.addi %col, %c32 : index
  // expected-error @+1 {{(before the loop pipelined through registers) is not the body's 'vector.load' op at}}
  %v0 = vector.load %g[%row, %k1] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
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

// an i32 loop whose rolled upper bound (one trip more) does not fit i32: it would wrap
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %lb = arith.constant 2147483646 : i32
  %ub = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %lbx = arith.constant 2147483646 : index
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
  // expected-error @+1 {{rolled back would run to 2147483648, which its i32 induction variable cannot hold}}
  %r = scf.for %i = %lb to %ub step %one iter_args(%acc = %zero) -> (vector<4xf32>) : i32 {
    %n = arith.addi %i, %one : i32
    %ni = arith.index_cast %n : i32 to index
    %nn = arith.subi %ni, %lbx : index
    %k = arith.muli %nn, %c32 : index
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

// a negative step
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
  %cm1 = arith.constant -1 : index
  // expected-error @+1 {{(pipelined through registers: it stores to LDS after its MFMAs) has a step that is not positive (-1)}}
  %r = scf.for %i = %c3 to %c0 step %cm1 iter_args(%acc = %zero) -> (vector<4xf32>) {
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

// the prologue's store through a swizzle the body's does not have: other LDS bytes
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
  %ls = "iree_codegen.swizzle_hint"(%l) <{swizzle = #iree_codegen.xor_shuffle<32, 8>}> : (memref<16x32xbf16, #gpu.address_space<workgroup>>) -> memref<16x32xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{at K tile 0: its LDS swizzles or buffer bounds differ (workgroup 0)}}
  vector.store %v0, %ls[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// the prologue's load from a fat buffer of other bounds (validBytes) than the body's: other values
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
  %vb = arith.constant 4096 : i64
  %vbs = arith.constant 16 : i64
  %gb = amdgpu.fat_raw_buffer_cast %g validBytes(%vb) : memref<16x128xbf16, #gpu.address_space<global>> to memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>
  %gp = amdgpu.fat_raw_buffer_cast %g validBytes(%vbs) : memref<16x128xbf16, #gpu.address_space<global>> to memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  // expected-error @+1 {{at K tile 0: its global swizzles or buffer bounds differ (workgroup 0)}}
  %v0 = vector.load %gp[%row, %col] : memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %gb[%row, %kc] : memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
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

// a prologue load of the rows of workgroup 0 in every workgroup
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x128xbf16, #gpu.address_space<global>>
  %wg = hal.interface.workgroup.id[0] upper_bound 2 : index
  %wrow = arith.muli %wg, %c16 : index
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %grow = arith.addi %row, %wrow : index
  // expected-error @+1 {{at K tile 0: its global elements differ (workgroup 1)}}
  %v0 = vector.load %g[%row, %col] : memref<32x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%grow, %kc] : memref<32x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
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

// a prologue store to other LDS rows
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
  %r1 = arith.xori %row, %c1 : index
  // expected-error @+1 {{at K tile 0: its LDS elements differ (workgroup 0)}}
  vector.store %v0, %l[%r1, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// a prologue load of other attributes
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
  // expected-error @+1 {{differs from the body's 'vector.load' op at}}
  %v0 = vector.load %g[%row, %col] {iree.tag = 1} : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
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

// a carried value changed before its store
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
    %v2 = arith.addf %v, %v : vector<8xbf16>
    // expected-error @+1 {{is not an LDS store of a value the body loads before its first barrier}}
    vector.store %v2, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// an extra use of a loaded tile
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
    // expected-error @+1 {{has uses other than its one LDS store}}
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    %x = vector.extract %v[0] : bf16 from vector<8xbf16>
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

// a load the body never stores
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
  // expected-error @+1 {{loads 2 values and stores 1 of them to LDS}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    %w = vector.load %g[%row, %col] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
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

// an LDS read before the first barrier
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
    // expected-error @+1 {{is neither a load of global memory nor free of memory effects}}
    %w = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// a global store in the compute
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
    // expected-error @+1 {{may write memory or holds regions}}
    vector.store %m, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
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

// a third barrier in the body
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
  // expected-error @+1 {{holds 3 gpu.barrier ops}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    gpu.barrier
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

// the induction variable used as iv + 2
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
  // expected-error @+1 {{uses its induction variable other than once, as iv + 1}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %c2 = arith.constant 2 : index
    %n = arith.addi %i, %c2 : index
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

// bounds not constants
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
  %ub = arith.addi %row, %c3 : index
  // expected-error @+1 {{has bounds that are not constants}}
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
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

// a carried value that is not an accumulator
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
  // expected-error @+1 {{carries iter_arg #1, which is not an accumulator}}
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero, %keep = %zero) -> (vector<4xf32>, vector<4xf32>) {
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
    scf.yield %m, %keep : vector<4xf32>, vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// a second prologue store to the LDS
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
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  // expected-error @+1 {{is preceded by 2 stores to that LDS}}
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

// a prologue store of a value computed from its load, not the load's own
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
  %z = arith.addf %v0, %v0 : vector<8xbf16>
  // expected-error @+1 {{does not store a value loaded before the loop}}
  vector.store %z, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// a store after the second barrier of a value the MFMAs make
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
    // expected-error @+1 {{uses a value of the loop's reads and MFMAs}}
    %mt = vector.extract_strided_slice %m {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// an LDS read between the prologue and the loop
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
  // expected-error @+1 {{has memory effects: the prologue's loads and stores move into the loop}}
  %w = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// a global store between the prologue's load and the loop
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
  // expected-error @+1 {{has memory effects: the prologue's loads and stores move into the loop}}
  vector.store %zero, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
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

// no barrier after the loop
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
  // expected-error @+1 {{is not IREE's epilogue}}
  %fe = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// an epilogue read of other rows
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
  // expected-error-re @+1 {{is not the body's 'vector.load' op at line {{[0-9]+}}:{{[0-9]+}} for the last K tile (its operand #1 is not the repeat's)}}
  %fe = vector.load %l[%q, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// an epilogue MFMA on the loop's input, not its result
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
  // expected-error-re @+1 {{is not the body's 'amdgpu.mfma' op at line {{[0-9]+}}:{{[0-9]+}} for the last K tile (its operand #2 is not the repeat's)}}
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %s = arith.addf %e, %r : vector<4xf32>
  vector.store %s, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// the loop's result used beside the epilogue
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
  // expected-error @+1 {{that the one-stage loop does not keep}}
  vector.store %r, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// The kernels below load their K tiles through IREE's guarded loads (an unaligned K: an
// scf.if on whether the run reaches the buffer's end around a masked load, the last
// tile's mask cut): the @masked kernel rolled back in ../sched-normalize-producers.mlir
// broken once per check.

// a prologue load guarded by another condition (the constant true: masked wherever it runs)
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
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
  %true = arith.constant true
  // expected-error @+1 {{at K tile 0: its guards differ (workgroup 0)}}
  %v0 = scf.if %true -> (vector<8xbf16>) {
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

// a guard computed by 'vector.extract' (in the prologue and the body): its forms differ, and
// the address analysis cannot evaluate it in a workgroup
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
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
  %cv0 = vector.broadcast %cut0 : i1 to vector<2xi1>
  // expected-error @+1 {{cannot be evaluated in a workgroup ('vector.extract' op: the address analysis cannot evaluate it (it follows arith, index and affine integer ops, casts, thread and block ids)): the roll-back of a loop pipelined through registers needs the guard's form over the workgroup's values, or its value in each workgroup}}
  %x0 = vector.extract %cv0[0] : i1 from vector<2xi1>
  %v0 = scf.if %x0 -> (vector<8xbf16>) {
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
    %cv = vector.broadcast %cut : i1 to vector<2xi1>
    %xc = vector.extract %cv[0] : i1 from vector<2xi1>
    %v = scf.if %xc -> (vector<8xbf16>) {
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

// a prologue load of half the lanes: its mask is not the body's at tile 0
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %wrow = arith.muli %wg, %c16 : index
  %grow = arith.addi %row, %wrow : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %col0 = arith.minui %col, %c32 : index
  %c4 = arith.constant 4 : index
  %full = vector.create_mask %c4 : vector<8xi1>
  %lin0 = affine.apply #map()[%grow, %col0]
  %rest0 = arith.subi %cend, %lin0 : index
  %near0 = arith.cmpi ult, %rest0, %c8 : index
  %odd0 = arith.remui %rest0, %c2 : index
  %ne0 = arith.cmpi ne, %odd0, %c0 : index
  %cut0 = arith.andi %near0, %ne0 : i1
  // expected-error @+1 {{at K tile 0: its masks differ (workgroup 0)}}
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

// a prologue mask made by another op (a constant mask of the same lanes): compared lane by
// lane, a 'vector.constant_mask' is not evaluated there
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %wrow = arith.muli %wg, %c16 : index
  %grow = arith.addi %row, %wrow : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %col0 = arith.minui %col, %c32 : index
  %full = vector.constant_mask [8] : vector<8xi1>
  %lin0 = affine.apply #map()[%grow, %col0]
  %rest0 = arith.subi %cend, %lin0 : index
  %near0 = arith.cmpi ult, %rest0, %c8 : index
  %odd0 = arith.remui %rest0, %c2 : index
  %ne0 = arith.cmpi ne, %odd0, %c0 : index
  %cut0 = arith.andi %near0, %ne0 : i1
  // expected-error @+1 {{keeps the lanes of its load by a mask the roll-back does not evaluate ('vector.constant_mask')}}
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

// a prologue load whose masked lanes read another value (its pass-through)
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
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
  %one = arith.constant dense<1.000000e+00> : vector<8xbf16>
  // expected-error @+1 {{its pass-through is not made by the same ops or attributes}}
  %v0 = scf.if %cut0 -> (vector<8xbf16>) {
    %x = vector.maskedload %g[%grow, %col0], %full, %one : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    %x = vector.load %g[%grow, %col0] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
    %y = arith.select %full, %x, %one : vector<8xi1>, vector<8xbf16>
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

// a prologue masked load without IREE's attribute the body's has
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
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
  // expected-error @+1 {{in its attributes or types (its 'vector.maskedload' op at line}}
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
      %x = vector.maskedload %g[%grow, %kc], %mask, %pass {amdgpu.buffer_maskedload_needs_mask} : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
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

// a body guard whose else region selects by another mask: not IREE's guarded load, so not
// a load the roll-back takes; the front end refuses it in the loop
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
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
    // expected-error @+1 {{an 'scf.if' is taken there only as IREE's guarded load: one vector yielded, a 'vector.maskedload' in the then region, and in the else region a 'vector.load' of the same buffer and indices and an 'arith.select' by the masked load's mask and pass-through, or inlined when it yields nothing on a condition true for every thread; this one, on the condition of the 'arith.andi' op at line}}
    %v = scf.if %cut -> (vector<8xbf16>) {
      %x = vector.maskedload %g[%grow, %kc], %mask, %pass : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
      scf.yield %x : vector<8xbf16>
    } else {
      %x = vector.load %g[%grow, %kc] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
      %y = arith.select %full, %x, %pass : vector<8xi1>, vector<8xbf16>
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

// a second 'scf.if' before the body's first barrier, not IREE's guarded load (its else
// region selects by another mask)
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
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
    // expected-error @+1 {{(before the first barrier of a loop pipelined through registers) is neither a load of global memory nor free of memory effects (an 'scf.if' is taken there as IREE's guarded load}}
    %w = scf.if %cut -> (vector<8xbf16>) {
      %x = vector.maskedload %g[%grow, %kc], %mask, %pass : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
      scf.yield %x : vector<8xbf16>
    } else {
      %x = vector.load %g[%grow, %kc] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
      %y = arith.select %full, %x, %pass : vector<8xi1>, vector<8xbf16>
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

// the mask of the tile a function of the induction variable itself, not of the tile loaded
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = hal.interface.workgroup.id[0] upper_bound 4 : index
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
  // expected-error @+1 {{uses its induction variable other than once, as iv + 1}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %off = arith.minui %k, %c100 : index
    %left = arith.subi %c100, %off : index
    %kl = arith.minui %left, %c32 : index
    %cc = arith.minui %kl, %col : index
    %lanes = arith.subi %i, %cc : index
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

// a prologue guard that is not the body's form, in a grid too large to compare each
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %cend = arith.constant 480000000 : index
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4800000x100xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %wg = hal.interface.workgroup.id[0] upper_bound 300000 : index
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
  %true = arith.constant true
  // expected-error @+1 {{(its guard is not the same form over the workgroup's values), and the kernel's grid of 300000 workgroups is too large to compare each (at most 262144)}}
  %v0 = scf.if %true -> (vector<8xbf16>) {
    %x = vector.maskedload %g[%grow, %col0], %full, %pass : memref<4800000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    %x = vector.load %g[%grow, %col0] : memref<4800000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
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
      %x = vector.maskedload %g[%grow, %kc], %mask, %pass : memref<4800000x100xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
      scf.yield %x : vector<8xbf16>
    } else {
      %x = vector.load %g[%grow, %kc] : memref<4800000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
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


// the same at a grid of 100000 workgroups, under the limit (over 65536, the limit before):
// compared side by side and refused at the first workgroup whose guards differ
#map = affine_map<()[s0, s1] -> (s0 * 100 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %true = arith.constant true
  // expected-error @+1 {{at K tile 0: its guards differ (workgroup 0)}}
  %v0 = scf.if %true -> (vector<8xbf16>) {
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

// The kernels below pad the K rows of a K x N operand past an unaligned K by an
// arith.select sunk to the row's LDS store, as IREE does (its prologue, at K tile 0,
// stores its loads unpadded): the @padded kernel rolled back in
// ../sched-normalize-producers.mlir broken once per check.

// a prologue store padded by a select where the body's stores its load as loaded
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %true = arith.constant true
  // expected-error @+1 {{pads the value the LDS store at}}
  %kv0 = arith.select %true, %v0, %pass : vector<8xbf16>
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
    vector.store %v, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %fe = vector.load %l[%r16, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %fe * %fe + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%r16, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}


// -----

// a body padding rows of K tile 0 (those past row 16), which the prologue stores unpadded
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{it stores its load unpadded, where the body's 'arith.select' at}}
  vector.store %v0, %l[%row, %col] : memref<32x16xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %grow = arith.addi %k, %row : index
    %at = arith.minui %grow, %c99 : index
    %v = vector.load %g[%at, %col] : memref<100x16xbf16, #gpu.address_space<global>>, vector<8xbf16>
    %keep = arith.cmpi ult, %grow, %c16 : index
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

// a prologue padded by another condition than the body's at K tile 0 (rows 16 to 31 are
// kept by the body's, padded by the prologue's): the forms differ, the workgroup's values too
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %keep0 = arith.cmpi ult, %row, %c16 : index
  %kv0 = arith.select %keep0, %v0, %pass : vector<8xbf16>
  // expected-error @+1 {{at K tile 0: its padding conditions differ (workgroup 0)}}
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
  vector.store %e, %c[%r16, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// a padding select between the barriers whose padding is the MFMA's value
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{or computing only for the stores there) uses a value of the loop's reads and MFMAs}}
    %mb = vector.bitcast %m : vector<4xf32> to vector<8xbf16>
    %kv = arith.select %keep, %v, %mb : vector<8xbf16>
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

// A loop in the shape of IREE's prefetch pipelining of copies through registers (its register
// copies' LDS stores before the loop, the global loads one K tile ahead, MFMAs after the
// loop) but with no barrier between its MFMAs and its LDS stores, which IREE's form has
// (sched-normalize-producers rolls that form back: frontend/reroll_regs.py), is refused at
// the loop by sched-adopt-loop, saying how to have IREE not pipeline it.

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
  // expected-error @+1 {{'scf.for' op is already software-pipelined: 1 LDS stores of copies through registers before it (a prologue) and 1 MFMAs after it (an epilogue); the front end pipelines a natural K-loop, which copies and multiplies every K tile inside one iteration: give pipeline-opt the kernel as it was before pipelining (for pipeline-opt's own output, the input it was made from, with --emit=asm, obj or hsaco for the code) (IREE's own prefetch pipelining of copies through registers is rolled back only in its form, a barrier between the loop's MFMAs and its LDS stores: compile with prefetch_num_stages = 1, or --iree-llvmgpu-prefetch-num-stages=1)}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %f * %f + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// IREE's prefetch pipelining with as many stages as K tiles peels every tile: no loop is
// left. The front end rebuilds the loop where the tiles are exactly IREE's
// (reroll_straight.py); here two groups of copies (into one slot) feed one MFMA, which
// is refused, saying how to have IREE keep the loop.

func.func @peeled(%a: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %l = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %k1 = arith.addi %k0, %c32 : index
  %dst = arith.muli %t, %c8 : index
  amdgpu.gather_to_lds async %a[%row, %k0], %l[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  amdgpu.gather_to_lds async %a[%row, %k1], %l[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  rocdl.wait.asyncmark 0
  gpu.barrier
  %r = arith.remui %t, %c16 : index
  %f = vector.load %l[%c0, %dst] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  // expected-error @+1 {{'amdgpu.mfma' op is one of 1 MFMAs after 2 groups of copies: not 2 K tiles of one number of MFMAs; the front end rebuilds the K-loop of IREE's prefetch pipelining with every K tile peeled (no loop left) only when it is exactly IREE's form: give the kernel with prefetch_num_stages = 1 otherwise}}
  %m = amdgpu.mfma 16x16x32 %f * %f + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m, %c[%r, %c0] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// The prologue's guarded load folded at a false guard (@folded_guard in
// ../sched-normalize-producers.mlir), the body's K run's mask keeping 4 of 8 lanes at K tile
// 0: the prologue's broadcast row condition is not the body's mask there
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @folded_guard_cut() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{at K tile 0: its kept lanes differ (workgroup 0)}}
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
    %ml = arith.minsi %lanes, %c4 : index
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

// The same, the prologue's row condition another bound (112 rows, the body's 120)
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @folded_guard_rows() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %c112 = arith.constant 112 : index
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
  %in0 = arith.cmpi ult, %grow, %c112 : index
  %keep0 = vector.broadcast %in0 : i1 to vector<8xi1>
  %x0 = vector.load %g[%grow, %col0] : memref<1600000x100xbf16, #gpu.address_space<global>>, vector<8xbf16>
  // expected-error @+1 {{at K tile 0: its kept lanes differ (workgroup 7)}}
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

// The prologue's guarded load on a constant false with its select by a mask true in every lane
// folded (@folded_select in ../sched-normalize-producers.mlir), the body's K run's mask keeping
// 4 of 8 lanes at K tile 0: the select put back, the prologue's mask is not the body's there
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @folded_select_cut() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{at K tile 0: its kept lanes differ (workgroup 0)}}
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
    %ml = arith.minsi %lanes, %c4 : index
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
