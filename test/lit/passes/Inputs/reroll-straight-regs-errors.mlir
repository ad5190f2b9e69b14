// Kernels in the shape of IREE's prefetch pipelining through registers with every K
// tile peeled (no loop left) that sched-normalize-producers refuses to rebuild into
// the K-loop (pipeline_mlir/frontend/reroll_straight_regs.py), each at the op
// concerned: the @straight_regs (or @straight_regs_folded) kernel of
// ../sched-normalize-producers.mlir broken once per case.

// a store to global memory between the K tiles
func.func @straight_regs_0(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is neither a load of global memory, an LDS store, a barrier, an LDS read, an MFMA nor free of memory effects}}
  vector.store %m0, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
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

// K tile 1 stores one copy, the others two
func.func @straight_regs_1(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{that are not 2 or more runs of one number of LDS stores each followed by a run of one number of MFMAs (found 2s 1m 1s 1m 2s 1m}}
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

// K tile 1 accumulates onto zero, not onto K tile 0
func.func @straight_regs_2(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{does not accumulate onto}}
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
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

// K tile 1 reads other LDS elements than K tile 0
func.func @straight_regs_3(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(K tile 1) does not read the elements K tile 0's read at}}
  %fa1 = vector.load %la[%r, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// B's copies go to a buffer no fragment read reads
func.func @straight_regs_4(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %lx = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
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
  // expected-error @+1 {{stores to LDS that no fragment read of the peeled K tiles reads}}
  vector.store %b0, %lx[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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
  vector.store %b1, %lx[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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
  vector.store %b2, %lx[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  %fa2 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb2 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m2 = amdgpu.mfma 16x16x32 %fa2 * %fb2 + %m1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// no barrier between K tile 1's stores and its reads
func.func @straight_regs_5(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(K tile 1) reads LDS with no gpu.barrier after K tile 1's last store}}
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

// the barrier between K tile 1's stores and its reads fences no workgroup memory
func.func @straight_regs_6(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  gpu.barrier memfence []
  // expected-error @+1 {{(K tile 1) reads LDS with no gpu.barrier after K tile 1's last store}}
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

// no barrier between K tile 0's reads and K tile 1's stores
func.func @straight_regs_7(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  amdgpu.sched_barrier allow = none
  // expected-error @+1 {{(K tile 1) stores to LDS with no gpu.barrier after K tile 0's last read}}
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

// K tile 1's copy of A stores to B's buffer
func.func @straight_regs_8(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(K tile 1) uses another memref<16x32xbf16, #gpu.address_space<workgroup>> than K tile 0's copy}}
  vector.store %a1, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// K tile 1 stores a fragment it read from LDS
func.func @straight_regs_9(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(K tile 1) makes its copy from another value than K tile 0 does, made from memory (at}}
  vector.store %fa0, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// every K tile stores K tile 0's loaded value
func.func @straight_regs_10(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{uses a value that every peeled K tile's copy uses, made from memory}}
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
  vector.store %a0, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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
  vector.store %a0, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %b2, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  %fa2 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb2 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m2 = amdgpu.mfma 16x16x32 %fa2 * %fb2 + %m1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// K tile 1's product used after the K tiles
func.func @straight_regs_11(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{uses a value of the peeled K tiles (made at}}
  vector.store %m1, %c[%q, %r] : memref<16x16xf32>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// an LDS read for no MFMA operand
func.func @straight_regs_12(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{reads LDS among the peeled K tiles for no MFMA operand}}
  %x = vector.load %la[%c0, %c0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// A's LDS buffer a kernel argument, not an allocation of its own
func.func @straight_regs_13(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>, %la: memref<16x32xbf16, #gpu.address_space<workgroup>>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
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
  // expected-error @+1 {{(the LDS buffer of the read at}}
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

// a kernel that does not state its workgroup size
func.func @straight_regs_14(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) {
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
  // expected-error @+1 {{'vector.load' op: the K tiles IREE's prefetch pipelining peeled is not in a kernel that states its workgroup size}}
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

// K tile 1's store is nontemporal, K tile 0's is not
func.func @straight_regs_15(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(K tile 1) is not K tile 0's op at}}
  vector.store %a1, %la[%row, %k0] {test.mark} : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// K tile 2's B copy folded, B a plain memref (no range check: the loop's load at K tile 2 could fault)
func.func @straight_regs_16(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(K tile 0) stores a load of a buffer without its range check}}
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
  %b2 = scf.if %true -> (vector<8xbf16>) {
    %x = vector.maskedload %b[%row, %k2], %none, %pass : memref<16x96xbf16>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
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

// K tile 2's B copy folded, K tile 1's store of it nontemporal
func.func @straight_regs_17(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(K tile 1) is not K tile 0's store at}}
  vector.store %b1, %lb[%row, %k0] {test.mark} : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// K tiles 1 and 2 fold B's copy to different pass-throughs
func.func @straight_regs_18(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true
  %none = arith.constant dense<false> : vector<8xi1>
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %ones = arith.constant dense<1.000000e+00> : vector<8xbf16>
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
  %b1 = scf.if %true -> (vector<8xbf16>) {
    %x = vector.maskedload %bf[%row, %k1], %none, %ones : memref<16x96xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    scf.yield %ones : vector<8xbf16>
  }
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
  // expected-error @+1 {{stores the pass-throughs of folded guarded loads that differ from one peeled K tile to another}}
  vector.store %b2, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  %fa2 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb2 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m2 = amdgpu.mfma 16x16x32 %fa2 * %fb2 + %m1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// K tile 2's folded load of B yields another value than its pass-through
func.func @straight_regs_19(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true
  %none = arith.constant dense<false> : vector<8xi1>
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
  %ones = arith.constant dense<1.000000e+00> : vector<8xbf16>
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
  // expected-error @+1 {{is not IREE's guarded load: its else region, which loads nothing, yields another value than the pass-through}}
  %b2 = scf.if %true -> (vector<8xbf16>) {
    %x = vector.maskedload %bf[%row, %k2], %none, %pass : memref<16x96xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    scf.yield %ones : vector<8xbf16>
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

// K tile 2's guarded load of B folded, its value padded by a select (not stored as it is)
func.func @straight_regs_20(%a: memref<16x96xbf16>, %b: memref<16x96xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c1536 = arith.constant 1536 : index
  %true = arith.constant true
  %all = arith.constant dense<true> : vector<8xi1>
  %none = arith.constant dense<false> : vector<8xi1>
  %pass = arith.constant dense<0.000000e+00> : vector<8xbf16>
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
  %lin0 = affine.apply affine_map<()[s0, s1] -> (s0 * 96 + s1)>()[%row, %k0]
  %rest0 = arith.subi %c1536, %lin0 : index
  %near0 = arith.cmpi ult, %rest0, %c8 : index
  %odd0 = arith.remui %rest0, %c2 : index
  %ne0 = arith.cmpi ne, %odd0, %c0 : index
  %cut0 = arith.andi %near0, %ne0 : i1
  %b0 = scf.if %cut0 -> (vector<8xbf16>) {
    %x = vector.maskedload %b[%row, %k0], %all, %pass : memref<16x96xbf16>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    %x = vector.load %b[%row, %k0] : memref<16x96xbf16>, vector<8xbf16>
    %y = arith.select %all, %x, %pass : vector<8xi1>, vector<8xbf16>
    scf.yield %y : vector<8xbf16>
  }
  vector.store %a0, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %p0 = arith.select %true, %b0, %pass : vector<8xbf16>
  vector.store %p0, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32)>(%t)
  %a1 = vector.load %a[%row, %k1] : memref<16x96xbf16>, vector<8xbf16>
  %lin1 = affine.apply affine_map<()[s0, s1] -> (s0 * 96 + s1)>()[%row, %k1]
  %rest1 = arith.subi %c1536, %lin1 : index
  %near1 = arith.cmpi ult, %rest1, %c8 : index
  %odd1 = arith.remui %rest1, %c2 : index
  %ne1 = arith.cmpi ne, %odd1, %c0 : index
  %cut1 = arith.andi %near1, %ne1 : i1
  %b1 = scf.if %cut1 -> (vector<8xbf16>) {
    %x = vector.maskedload %b[%row, %k1], %all, %pass : memref<16x96xbf16>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
    scf.yield %x : vector<8xbf16>
  } else {
    %x = vector.load %b[%row, %k1] : memref<16x96xbf16>, vector<8xbf16>
    %y = arith.select %all, %x, %pass : vector<8xi1>, vector<8xbf16>
    scf.yield %y : vector<8xbf16>
  }
  gpu.barrier
  %fa0 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb0 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m0 = amdgpu.mfma 16x16x32 %fa0 * %fb0 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  gpu.barrier
  amdgpu.sched_barrier allow = none
  vector.store %a1, %la[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %p1 = arith.select %true, %b1, %pass : vector<8xbf16>
  vector.store %p1, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %kc = arith.minui %k0, %c16 : index
  %k2 = arith.addi %kc, %c64 : index
  %a2 = vector.load %a[%row, %k2] : memref<16x96xbf16>, vector<8xbf16>
  // expected-error @+1 {{(K tile 2) is not made as K tile 0's op at}}
  %b2 = scf.if %true -> (vector<8xbf16>) {
    %x = vector.maskedload %b[%row, %k2], %none, %pass : memref<16x96xbf16>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
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
  %p2 = arith.select %true, %b2, %pass : vector<8xbf16>
  vector.store %p2, %lb[%row, %k0] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  gpu.barrier
  %fa2 = vector.load %la[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb2 = vector.load %lb[%r, %qk] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m2 = amdgpu.mfma 16x16x32 %fa2 * %fb2 + %m1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m2, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}
