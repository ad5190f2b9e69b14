// Kernels in the shape of IREE's prefetch pipelining with every K tile peeled (no loop
// left) that sched-normalize-producers refuses to rebuild into the K-loop
// (pipeline_mlir/frontend/reroll_straight.py), each at the op concerned: the @straight
// kernel of ../sched-normalize-producers.mlir broken once per case.

// a group's copy moved by an index that differs per thread: no one step per K tile
func.func @straight_0(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32 + d0 floordiv 32)>(%t)
  // expected-error @+1 {{its global index #1 does not move by one step per tile}}
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

// group 1 copies into slot 0, where group 0 did
func.func @straight_1(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{does not write the LDS elements K tile 0's copy}}
  amdgpu.gather_to_lds async %a[%row, %k1], %la[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// group 1 copies from another buffer
func.func @straight_2(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{its attributes, types or global buffer differ}}
  amdgpu.gather_to_lds async %a[%row, %k1], %lb[%c1, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// a synchronous copy among the peeled tiles
func.func @straight_3(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is synchronous among the K tiles}}
  amdgpu.gather_to_lds %b[%row, %k1], %lb[%c1, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// groups of unequal size
func.func @straight_4(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{that are not 2 or more groups of one number of copies}}
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32)>(%t)
  amdgpu.gather_to_lds async %a[%row, %k1], %la[%c1, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// the wait before tile 0's reads leaves group 0 outstanding
func.func @straight_5(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  rocdl.wait.asyncmark 2
  gpu.barrier
  %r = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %rk = arith.muli %q, %c8 : index
  %ra = arith.muli %r, %c32 : index
  %e0 = arith.addi %ra, %rk : index
  // expected-error @+1 {{reads K tile 0's slot before a rocdl.wait.asyncmark and a gpu.barrier complete its copies}}
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

// no barrier after the last wait: tile 1's slot is read before every wave's copies land
func.func @straight_6(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %e1 = arith.addi %e0, %c512 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  // expected-error @+1 {{reads K tile 1's slot before}}
  %fa1 = vector.load %la[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the barrier after the last wait fences no workgroup memory: tile 1's slot is read before every wave's copies land
func.func @straight_7(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  gpu.barrier memfence []
  %e1 = arith.addi %e0, %c512 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  // expected-error @+1 {{reads K tile 1's slot before}}
  %fa1 = vector.load %la[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// tile 1 reads slot 0
func.func @straight_8(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %e1 = arith.addi %e0, %c0 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  // expected-error @+1 {{(K tile 1) does not read the elements K tile 0's read}}
  %fa1 = vector.load %la[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// tile 1 accumulates onto zero, not onto tile 0
func.func @straight_9(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{does not accumulate onto}}
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// tile 1 makes a fragment with an op tile 0 does not have
func.func @straight_10(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is not K tile 0's op}}
  %n1 = arith.negf %fb1 : vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %n1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a store to global memory between the tiles
func.func @straight_11(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{the rebuilt loop has no place for it}}
  vector.store %m0, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
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

// tile 0's accumulator used after the tiles: the loop does not keep it
func.func @straight_12(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{that the rebuilt loop does not keep}}
  vector.store %m0, %c[%q, %r] : memref<16x16xf32>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a buffer of one slot for two K tiles
func.func @straight_13(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{is not a memref.alloc of memref<S x ...>, S >= 2 K tiles}}
  %lb = memref.alloc() : memref<1x1024xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %k1 = affine.apply affine_map<(d0) -> ((d0 mod 4) * 8 + 32)>(%t)
  amdgpu.gather_to_lds async %a[%row, %k1], %la[%c1, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k1], %lb[%c1, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  rocdl.wait.asyncmark 1
  gpu.barrier
  %r = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %rk = arith.muli %q, %c8 : index
  %ra = arith.muli %r, %c32 : index
  %e0 = arith.addi %ra, %rk : index
  %fa0 = vector.load %la[%c0, %e0] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb0 = vector.load %lb[%c0, %e0] : memref<1x1024xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m0 = amdgpu.mfma 16x16x32 %fa0 * %fb0 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  rocdl.wait.asyncmark 0
  gpu.barrier
  %e1 = arith.addi %e0, %c512 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  %fa1 = vector.load %la[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%s1#0, %s1#1] : memref<1x1024xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the LDS of the tiles also written outside them
func.func @straight_14(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %c0f = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %la = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  // expected-error @+1 {{uses an LDS buffer of the peeled K tiles' slots other than by their copies}}
  memref.store %c0f, %la[%c0, %c0] : memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// a tile read at an address that depends on the workgroup
func.func @straight_15(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %w = gpu.block_id x
  %w8 = arith.muli %w, %c8 : index
  %e1w = arith.addi %e0, %w8 : index
  %e1 = arith.addi %e1w, %c512 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  // expected-error @+1 {{reads LDS at elements that depend on more than the thread ids}}
  %fa1 = vector.load %la[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %m1 = amdgpu.mfma 16x16x32 %fa1 * %fb1 + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// two groups but one MFMA: not one tile per group
func.func @straight_16(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is one of 1 MFMAs after 2 groups of copies}}
  %m0 = amdgpu.mfma 16x16x32 %fa0 * %fb0 + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %e1 = arith.addi %e0, %c512 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  %fa1 = vector.load %la[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %fb1 = vector.load %lb[%s1#0, %s1#1] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  vector.store %m0, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a wait after the last MFMA, outside the peeled tiles
func.func @straight_17(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{lies outside the K tiles IREE's pipelining peeled}}
  rocdl.wait.asyncmark 0
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// tiles that multiply a constant, reading none of the LDS the copies fill (no barrier either)
func.func @straight_18(%a: memref<16x64xbf16>, %b: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %ones = arith.constant dense<1.000000e+00> : vector<8xbf16>
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
  %r = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %rk = arith.muli %q, %c8 : index
  %ra = arith.muli %r, %c32 : index
  %e0 = arith.addi %ra, %rk : index
  // expected-error @+1 {{makes its operands from no LDS read}}
  %m0 = amdgpu.mfma 16x16x32 %ones * %ones + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  rocdl.wait.asyncmark 0
  %e1 = arith.addi %e0, %c512 : index
  %s1:2 = affine.delinearize_index %e1 into (2, 512) : index, index
  %m1 = amdgpu.mfma 16x16x32 %ones * %ones + %m0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m1, %c[%r, %q] : memref<16x16xf32>, vector<4xf32>
  return
}
