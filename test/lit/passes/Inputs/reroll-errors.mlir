// Kernels in the shape of IREE's prefetch pipelining that sched-normalize-producers refuses
// to roll back (pipeline_mlir/frontend/reroll.py), each at the op concerned: the kernel
// of ../sched-normalize-producers-reroll.mlir broken once per case.

// no workgroup size stated
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) {
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
  // expected-error @+1 {{is not in a kernel that states its workgroup size}}
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// an i32 loop whose rolled upper bound (one stage more) does not fit i32: it would wrap
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %big = arith.constant 2147483644 : i32
  %top = arith.constant 2147483647 : i32
  // expected-error @+1 {{(prefetch-pipelined) rolled back would run to 2147483648, which its i32 induction variable cannot hold}}
  %r:3 = scf.for %i = %big to %top step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
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

// an unsigned loop from 0 to -1 (4294967295 unsigned): 2**32 - 1 iterations, none compared signed
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %neg = arith.constant -1 : i32
  // expected-error @+1 {{compares its bounds unsigned ('scf.for unsigned') and they read as 0 to -1 signed}}
  %r:3 = scf.for unsigned %i = %c0_i32 to %neg step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
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

// a negative step
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %cm1_i32 = arith.constant -1 : i32
  // expected-error @+1 {{(prefetch-pipelined: it carries LDS views) has a step that is not positive (-1)}}
  %r:3 = scf.for %i = %c3_i32 to %c0_i32 step %cm1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
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

// the prologue's copy into LDS through a swizzle the body's does not have: other LDS bytes
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %las = "iree_codegen.swizzle_hint"(%la) <{swizzle = #iree_codegen.xor_shuffle<32, 8>}> : (memref<2x512xbf16, #gpu.address_space<workgroup>>) -> memref<2x512xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{at K tile 0: its LDS swizzles or buffer bounds differ (workgroup 0)}}
  amdgpu.gather_to_lds async %a[%row, %k0], %las[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the prologue's copy from a fat buffer of other bounds (validBytes) than the body's: zeros where the body reads data
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %vall = arith.constant 4096 : i64
  %vfew = arith.constant 64 : i64
  %fall = amdgpu.fat_raw_buffer_cast %a validBytes(%vall) : memref<16x128xbf16> to memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>
  %ffew = amdgpu.fat_raw_buffer_cast %a validBytes(%vfew) : memref<16x128xbf16> to memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>
  // expected-error @+1 {{at K tile 0: its global swizzles or buffer bounds differ (workgroup 0)}}
  amdgpu.gather_to_lds async %ffew[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
    amdgpu.gather_to_lds async %fall[%row, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// bounds not constants
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %ub = arith.index_cast %row : index to i32
  // expected-error @+1 {{has bounds that are not constants}}
  %r:3 = scf.for %i = %c0_i32 to %ub step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
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

// a step of 2, the body copying tile iv + 1
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{other than once, as iv + 2 (the K tile the body copies)}}
  %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c2_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
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

// a step of 2, the slot taken of iv + 2 undivided
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c2_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
    // expected-error @+1 {{(the K tile the body copies, steps of 2) is not divided by 2 once (arith.divui) for its slot}}
    %n = arith.addi %i, %c2_i32 : i32
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

// a view yielded from outside the loop
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{which it yields as neither the next view of its queue nor a view made in the body}}
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
    scf.yield %m, %va, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
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

// A's view queued behind B's: B's view (not the oldest) is read
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{reads the LDS view #2, which is not the oldest of its queue}}
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
    scf.yield %m, %cb, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
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

// the body copies tile iv + 2
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{other than once, as iv + 1 (the K tile the body copies)}}
  %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
    %n = arith.addi %i, %c2_i32 : i32
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

// the slot taken mod 3
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{has no one slot computed from it mod 2 (arith.remui)}}
    %n = arith.addi %i, %c1_i32 : i32
    %slot = arith.remui %n, %c3_i32 : i32
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

// a synchronous copy in the body
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{is synchronous in a loop IREE pipelined}}
    amdgpu.gather_to_lds %a[%row, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// no copies in the body
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(prefetch-pipelined) holds no amdgpu.gather_to_lds}}
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

// the body's asyncmark dropped
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{does not close its copies with one rocdl.asyncmark followed by one rocdl.wait.asyncmark}}
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

// the body waits for every group
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{waits for all but 0 groups of copies: IREE's 2-stage loop waits for all but its 1 newest}}
    rocdl.wait.asyncmark 0
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

// no barrier after the wait
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{is not IREE's: a gpu.barrier before the copies and one right after the wait}}
    rocdl.wait.asyncmark 1
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

// no asyncmark closing the prologue
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is not preceded by 1 groups of 2 copies, each closed by a rocdl.asyncmark (found 0 closed groups, and copies after the last)}}
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a wait in the prologue
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{waits for copies before the prefetch-pipelined loop}}
  rocdl.wait.asyncmark 0
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a synchronous prologue copy
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{(a copy before the loop) differs from the body's copy at}}
  amdgpu.gather_to_lds %a[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the prologue copies the wrong rows
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{at K tile 0: its global elements differ (workgroup 0)}}
  amdgpu.gather_to_lds async %a[%col, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the prologue copies B into A's LDS
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{at K tile 0: its buffers differ}}
  amdgpu.gather_to_lds async %b[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the prologue writes the wrong LDS elements
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{at K tile 0: its LDS elements differ (workgroup 0)}}
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%d0#0, %k0] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// A's and B's first views swapped
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{starts an LDS view queue with a view that is not the body's view of K tile 0's slot}}
  %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%acc = %zero, %ca = %vb, %cb = %va) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
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

// the epilogue waits for all but one group
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is not IREE's epilogue: rocdl.wait.asyncmark 0 and a gpu.barrier}}
  rocdl.wait.asyncmark 1
  gpu.barrier memfence [#gpu.address_space<workgroup>]
  %ga = vector.load %r#1[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// no epilogue compute
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is followed by 1 ops where IREE's epilogue repeats the body's 3 reads and MFMAs}}
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
  return
}

// -----

// the epilogue's MFMA with its operands swapped
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  // expected-error-re @+1 {{is not the body's 'amdgpu.mfma' op at line {{[0-9]+}}:{{[0-9]+}} for the loop's last tiles (epilogue stage 0; its operand #0 is not the repeat's)}}
  %e = amdgpu.mfma 16x16x32 %gb * %ga + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the loop's accumulator read after the loop besides the epilogue
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  // expected-error @+1 {{uses a value of IREE's pipelined loop or epilogue that the one-stage loop does not keep}}
  vector.store %r#0, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the LDS offset moved by the tile, not the slot
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    %so = arith.muli %n, %c512_i32 : i32
    %dd = arith.addi %dsti, %so : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    // expected-error @+1 {{indexes dim 0 of its stage-slot LDS buffer with other than the slot}}
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

// the oldest view read before the wait's barrier
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{reads the oldest LDS view of the prefetch-pipelined loop before the barrier after its wait}}
    %early = vector.load %ca[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
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

// A's new view made after the wait
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{makes the prefetch-pipelined loop's new LDS view after its wait}}
    %xa = memref.expand_shape %na [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
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

// a region among the reads and MFMAs
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    %yes = arith.cmpi eq, %lane_r, %c0 : index
    // expected-error @+1 {{holds regions: IREE's loop reads and multiplies there}}
    scf.if %yes {
    }
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

// the prologue's rows offset by the workgroup's y id where the body's are by its x id (the
// same in every workgroup of the diagonal: the ids are compared per dimension)
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wx = hal.interface.workgroup.id[0] upper_bound 4 : index
  %wy = hal.interface.workgroup.id[1] upper_bound 4 : index
  %r0 = arith.divui %t, %c4 : index
  %row = arith.addi %r0, %wx : index
  %rowy = arith.addi %r0, %wy : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  // expected-error @+1 {{at K tile 0: its global elements differ (workgroup (0, 1))}}
  amdgpu.gather_to_lds async %a[%rowy, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the queue's new view taken at slot iv & 1, not the slot the copies use (iv mod 2 is
// bound to 0: the view still moves with the K tile)
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    %c1v = arith.constant 1 : i32
    %s2 = arith.andi %n, %c1v : i32
    %s2x = arith.index_castui %s2 : i32 to index
    %na = memref.subview %la[%s2x, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %lb[%s2x, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{has LDS elements that move with the K tile other than by its slot, or leave the slot (K tile 1)}}
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

// a read of slot 1 after the epilogue: the rolled loop keeps one slot
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %c1x = arith.constant 1 : index
  // expected-error @+1 {{uses an LDS buffer of the prefetch-pipelined loop's stage slots other than by its copies and its queues' views}}
  %late = vector.load %la[%c1x, %c0] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %late32 = arith.extf %late : vector<8xbf16> to vector<8xf32>
  %late4 = vector.extract_strided_slice %late32 {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %e2 = arith.addf %e, %late4 : vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e2, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// both operands in one memref<2x2x512> (dim 1 the slot): the buffer is one root, and B's
// copy indexes dim 0 with 1
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1i = arith.constant 1 : index
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
  %la = memref.alloc() : memref<2x2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%c0, %d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %la[%c1i, %d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %sa = memref.subview %la[0, 0, 0] [1, 1, 512] [1, 1, 1] : memref<2x2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %sb = memref.subview %la[1, 0, 0] [1, 1, 512] [1, 1, 1] : memref<2x2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: 1024>, #gpu.address_space<workgroup>>
  %ea = memref.expand_shape %sa [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %eb = memref.expand_shape %sb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: 1024>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: 1024>, #gpu.address_space<workgroup>>
  %va = memref.cast %ea : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %vb = memref.cast %eb : memref<16x32xbf16, strided<[32, 1], offset: 1024>, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %lane_r = arith.remui %t, %c16 : index
  %lane_k = arith.divui %t, %c16 : index
  %rk = arith.muli %lane_k, %c8 : index
  %k0i = arith.index_cast %k0 : index to i32
  %dsti = arith.index_cast %dst : index to i32
  %r:3 = scf.for %i = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%acc = %zero, %ca = %va, %cb = %vb) -> (vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>) : i32 {
    %n = arith.addi %i, %c1_i32 : i32
    %slot = arith.remui %n, %c2_i32 : i32
    %slotx = arith.index_castui %slot : i32 to index
    %na = memref.subview %la[0, %slotx, 0] [1, 1, 512] [1, 1, 1] : memref<2x2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %la[1, %slotx, 0] [1, 1, 512] [1, 1, 1] : memref<2x2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
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
    amdgpu.gather_to_lds async %a[%row, %kx], %la[%c0, %d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x2x512xbf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{indexes dim 0 of its stage-slot LDS buffer with other than the slot}}
    amdgpu.gather_to_lds async %b[%row, %kx], %la[%c1i, %d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x2x512xbf16, #gpu.address_space<workgroup>>
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

// an atomic before the wait: rolled back it would run once more
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>, %d: memref<1xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    %one = arith.constant 1.0 : f32
    // expected-error @+1 {{(before the wait of the prefetch-pipelined loop) has side effects}}
    %old = memref.atomic_rmw addf %one, %d[%c0] : (f32, memref<1xf32>) -> f32
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

// the prologue's row differs in workgroup 2 only (of gpu.block_id x upper_bound 8): every
// workgroup is compared
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = gpu.block_id x upper_bound 8
  %c2x = arith.constant 2 : index
  %is2 = arith.cmpi eq, %wg, %c2x : index
  %rowp = arith.select %is2, %col, %row : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  // expected-error @+1 {{at K tile 0: its global elements differ (workgroup 2)}}
  amdgpu.gather_to_lds async %a[%rowp, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the accumulator yielded is made before the wait
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    // expected-error @+1 {{makes the value the prefetch-pipelined loop yields for its iter_arg #0 outside the reads and MFMAs after its wait}}
    %early = arith.addf %acc, %zero : vector<4xf32>
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
    scf.yield %early, %xa, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
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

// three slots in the LDS buffers of a 2-stage loop
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is not a memref.alloc of memref<2x...> (one slot per stage in dim 0, row-major)}}
  %la = memref.alloc() : memref<3x512xbf16, #gpu.address_space<workgroup>>
  %lb = memref.alloc() : memref<3x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<3x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<3x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  %sa = memref.subview %la[0, 0] [1, 512] [1, 1] : memref<3x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %sb = memref.subview %lb[0, 0] [1, 512] [1, 1] : memref<3x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
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
    %na = memref.subview %la[%slotx, 0] [1, 512] [1, 1] : memref<3x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %lb[%slotx, 0] [1, 512] [1, 1] : memref<3x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
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
    amdgpu.gather_to_lds async %a[%row, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<3x512xbf16, #gpu.address_space<workgroup>>
    amdgpu.gather_to_lds async %b[%row, %kx], %lb[%d1#0, %d1#1] : vector<8xbf16>, memref<16x128xbf16>, memref<3x512xbf16, #gpu.address_space<workgroup>>
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

// the queue's new view always of slot 0, while the copies fill slot (iv + 1) mod 2: the
// view is tied to the slot 0 binding, not to the slot the copies use
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
    %z = arith.constant 0 : index
    %na = memref.subview %la[%z, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %nb = memref.subview %lb[%slotx, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{has LDS elements that move with the K tile other than by its slot, or leave the slot (K tile 1)}}
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

// the prologue's row differs at workgroup 5000 only, of an id (rocdl's) known only at launch:
// its index arithmetic is not the body's, and its workgroups cannot all be compared
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %row0 = arith.divui %t, %c4 : index
  %wg = rocdl.workgroup.id.x : i32
  %wgx = arith.index_cast %wg : i32 to index
  %row = arith.addi %row0, %wgx : index
  %col = arith.remui %t, %c4 : index
  %c5000 = arith.constant 5000 : index
  %is5000 = arith.cmpi eq, %wgx, %c5000 : index
  %rowp = arith.select %is5000, %col, %row : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  // expected-error @+1 {{is not proven the body's copy by its index arithmetic (its global index #0 is not the same form over the workgroup's values), and the kernel's grid of unbounded workgroups is too large to compare each}}
  amdgpu.gather_to_lds async %a[%rowp, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the prologue's row differs at workgroup 4500 only, of 8192: its index arithmetic is not
// the body's, and the workgroups compared 64 side by side find it in their 71st chunk,
// named when that chunk is compared again one workgroup at a time
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = gpu.block_id x upper_bound 8192
  %c2x = arith.constant 4500 : index
  %is2 = arith.cmpi eq, %wg, %c2x : index
  %rowp = arith.select %is2, %col, %row : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  // expected-error @+1 {{(a copy before the loop) is not the body's copy at line 3371:5 at K tile 0: its global elements differ (workgroup 4500)}}
  amdgpu.gather_to_lds async %a[%rowp, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}


// -----

// the prologue's row adds (wg floordiv 4096) * 16 by an affine.apply, the body's
// (wg floordiv 8192) * 16 by arith ops: other atoms (their divisors differ), which differ
// at workgroups 4096 and up, of 8192 (the affine floordiv is keyed as the arith one, but
// only over the same operands)
func.func @k(%a: memref<?x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = gpu.block_id x upper_bound 8192
  %rowp = affine.apply affine_map<(d0)[s0] -> (d0 + (s0 floordiv 4096) * 16)>(%row)[%wg]
  %c8192 = arith.constant 8192 : index
  %q = arith.floordivsi %wg, %c8192 : index
  %q16 = arith.muli %q, %c16 : index
  %rowb = arith.addi %row, %q16 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  // expected-error @+1 {{(a copy before the loop) is not the body's copy at line 3457:5 at K tile 0: its global elements differ (workgroup 4096)}}
  amdgpu.gather_to_lds async %a[%rowp, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
    amdgpu.gather_to_lds async %a[%rowb, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// the body's LDS index reads a workgroup id (times 0): its place is not proven the same
// in every workgroup
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = gpu.block_id x upper_bound 2
  %wgi = arith.index_cast %wg : index to i32
  %w0 = arith.muli %wgi, %c0_i32 : i32
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
    %dd0 = arith.addi %dsti, %so : i32
    %dd = arith.addi %dd0, %w0 : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    // expected-error @+1 {{has LDS elements that depend on more than the thread ids, the K tile and the slot}}
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

// the queue's initial view taken at a workgroup id (times 0): not proven the same view in
// every workgroup
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = gpu.block_id x upper_bound 2
  %w0 = arith.muli %wg, %c0 : index
  %sa = memref.subview %la[%w0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
  %sb = memref.subview %lb[0, 0] [1, 512] [1, 1] : memref<2x512xbf16, #gpu.address_space<workgroup>> to memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>>
  %ea = memref.expand_shape %sa [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %eb = memref.expand_shape %sb [[0, 1]] output_shape [16, 32] : memref<512xbf16, strided<[1]>, #gpu.address_space<workgroup>> into memref<16x32xbf16, #gpu.address_space<workgroup>>
  %va = memref.cast %ea : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %vb = memref.cast %eb : memref<16x32xbf16, #gpu.address_space<workgroup>> to memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %lane_r = arith.remui %t, %c16 : index
  %lane_k = arith.divui %t, %c16 : index
  %rk = arith.muli %lane_k, %c8 : index
  %k0i = arith.index_cast %k0 : index to i32
  %dsti = arith.index_cast %dst : index to i32
  // expected-error @+1 {{starts an LDS view queue with views that depend on more than the thread ids and the K tile}}
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a store between the prologue's copies and the loop: rolled back, the first tile's copies would read after it
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error @+1 {{is moved to 'scf.for' op at line}}
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
  %ones = arith.constant dense<1.000000e+00> : vector<8xbf16>
  vector.store %ones, %a[%c0, %c0] : memref<16x128xbf16>, vector<8xbf16>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a global store in the compute (and the epilogue): rolled back, the next tile's copies would run after it
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %ones = arith.constant dense<1.000000e+00> : vector<8xbf16>
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
    // expected-error @+1 {{may write memory outside LDS}}
    vector.store %ones, %a[%c0, %c32] : memref<16x128xbf16>, vector<8xbf16>
    scf.yield %m, %xa, %xb : vector<4xf32>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  rocdl.wait.asyncmark 0
  gpu.barrier memfence [#gpu.address_space<workgroup>]
  %ga = vector.load %r#1[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %ones, %a[%c0, %c32] : memref<16x128xbf16>, vector<8xbf16>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// a linearised workgroup loop (ids below 2, the loop to 8): the prologue differs from the body only at its iterations 2 and up
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %id = hal.interface.workgroup.id[0] upper_bound 2 : index
  %cnt = hal.interface.workgroup.count[0] : index
  scf.for %w = %id to %c8 step %cnt {
    %t = gpu.thread_id x upper_bound 64
    %row = arith.divui %t, %c4 : index
    %c2w = arith.constant 2 : index
    %big = arith.cmpi uge, %w, %c2w : index
    %rowp = arith.select %big, %c0, %row : index
    %col = arith.remui %t, %c4 : index
    %k0 = arith.muli %col, %c8 : index
    %dst = arith.muli %t, %c8 : index
    %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
    // expected-error @+1 {{its global elements differ}}
    amdgpu.gather_to_lds async %a[%rowp, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
    %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    %rw = arith.muli %lane_k, %c4 : index
    vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  }
  return
}

// -----

// the same linearised workgroup loop to a bound known only at launch: its iterations cannot all be
// compared, and the prologue's row is not the body's form
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>, %nw: index) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %id = hal.interface.workgroup.id[0] upper_bound 2 : index
  %cnt = hal.interface.workgroup.count[0] : index
  // expected-error @+1 {{(a loop over workgroups around the prefetch-pipelined loop) has a bound known only at launch: its workgroups cannot all be compared (its global index #0 is not the same form over the workgroup's values)}}
  scf.for %w = %id to %nw step %cnt {
    %t = gpu.thread_id x upper_bound 64
    %row = arith.divui %t, %c4 : index
    %c2w = arith.constant 2 : index
    %big = arith.cmpi uge, %w, %c2w : index
    %rowp = arith.select %big, %c0, %row : index
    %col = arith.remui %t, %c4 : index
    %k0 = arith.muli %col, %c8 : index
    %dst = arith.muli %t, %c8 : index
    %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
    amdgpu.gather_to_lds async %a[%rowp, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
    %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    %rw = arith.muli %lane_k, %c4 : index
    vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  }
  return
}

// -----

// the same linearised workgroup loop to 10000: 5000 iterations per workgroup, more than are compared
// one by one, and the prologue's row is not the body's form
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %id = hal.interface.workgroup.id[0] upper_bound 2 : index
  %cnt = hal.interface.workgroup.count[0] : index
  %c10000 = arith.constant 10000 : index
  scf.for %w = %id to %c10000 step %cnt {
    %t = gpu.thread_id x upper_bound 64
    %row = arith.divui %t, %c4 : index
    %c2w = arith.constant 2 : index
    %big = arith.cmpi uge, %w, %c2w : index
    %rowp = arith.select %big, %c0, %row : index
    %col = arith.remui %t, %c4 : index
    %k0 = arith.muli %col, %c8 : index
    %dst = arith.muli %t, %c8 : index
    %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
    // expected-error @+1 {{(its global index #0 is not the same form over the workgroup's values), and the kernel runs more than 4096 workgroup iterations to compare each}}
    amdgpu.gather_to_lds async %a[%rowp, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
    %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
    %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    %rw = arith.muli %lane_k, %c4 : index
    vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  }
  return
}

// -----

// an asynchronous copy into another LDS buffer in the prologue's group, read after the loop: its waits would go
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %lc = memref.alloc() : memref<1x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  amdgpu.gather_to_lds async %a[%row, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds async %b[%row, %k0], %lb[%d0#0, %d0#1] : vector<8xbf16>, memref<16x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{copies asynchronously into LDS that is not one of the prefetch-pipelined loop's stage buffers}}
  amdgpu.gather_to_lds async %a[%row, %k0], %lc[%c0, %dst] : vector<8xbf16>, memref<16x128xbf16>, memref<1x512xbf16, #gpu.address_space<workgroup>>
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
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %late = vector.load %lc[%c0, %dst] : memref<1x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %l32 = arith.extf %late : vector<8xbf16> to vector<8xf32>
  %l4 = vector.extract_strided_slice %l32 {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %e2 = arith.addf %e, %l4 : vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e2, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}

// -----

// the prologue adds 16 * extsi(wg == 0) (-16 in workgroup 0), the body 16 * extui(wg == 0) (+16):
// the casts of an i1 are atoms, not the comparison passed on, so the forms differ (and the grid is
// unbounded)
func.func @m1_extsi_i1(%a: memref<?x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %prowX = arith.addi %prow0, %yrow : index
  %pz = arith.cmpi eq, %wg, %c0 : index
  %ps = arith.extsi %pz : i1 to i32
  %psx = arith.index_cast %ps : i32 to index
  %pm = arith.muli %psx, %c16 : index
  %poff = arith.addi %pm, %c32 : index
  %prow = arith.addi %prowX, %poff : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  // expected-error @+1 {{(its global index #0 is not the same form over the workgroup's values), and the kernel's grid of unbounded workgroups is too large}}
  amdgpu.gather_to_lds async %a[%prow, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
    %yrow2 = arith.muli %c16, %wyx : index
    %brow0 = arith.addi %yrow2, %wrow : index
    %browX = arith.addi %brow0, %row : index
    %bz = arith.cmpi eq, %wg, %c0 : index
    %bs = arith.extui %bz : i1 to i32
    %bsx = arith.index_cast %bs : i32 to index
    %bm = arith.muli %bsx, %c16 : index
    %boff = arith.addi %bm, %c32 : index
    %brow = arith.addi %browX, %boff : index
    %kn = arith.muli %n, %c32_i32 : i32
    %kk = arith.addi %k0i, %kn : i32
    %kx = arith.index_castui %kk : i32 to index
    %so = arith.muli %slot, %c512_i32 : i32
    %dd = arith.addi %dsti, %so : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    amdgpu.gather_to_lds async %a[%brow, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// the same on a grid of 64 workgroups (x bounded, no y), compared workgroup by workgroup: the
// evaluator takes extsi of an i1 as -1, extui as 1, so workgroup 0's rows differ
func.func @m1_extsi_i1(%a: memref<?x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  %wg = gpu.block_id x upper_bound 64
  %wy = arith.constant 0 : i32
  %wyx = arith.index_cast %wy : i32 to index
  %wrow = arith.muli %wg, %c16 : index
  %yrow = arith.muli %wyx, %c16 : index
  %prow0 = arith.addi %row, %wrow : index
  %prowX = arith.addi %prow0, %yrow : index
  %pz = arith.cmpi eq, %wg, %c0 : index
  %ps = arith.extsi %pz : i1 to i32
  %psx = arith.index_cast %ps : i32 to index
  %pm = arith.muli %psx, %c16 : index
  %poff = arith.addi %pm, %c32 : index
  %prow = arith.addi %prowX, %poff : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %dst = arith.muli %t, %c8 : index
  %d0:2 = affine.delinearize_index %dst into (2, 512) : index, index
  // expected-error @+1 {{its global elements differ (workgroup 0)}}
  amdgpu.gather_to_lds async %a[%prow, %k0], %la[%d0#0, %d0#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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
    %yrow2 = arith.muli %c16, %wyx : index
    %brow0 = arith.addi %yrow2, %wrow : index
    %browX = arith.addi %brow0, %row : index
    %bz = arith.cmpi eq, %wg, %c0 : index
    %bs = arith.extui %bz : i1 to i32
    %bsx = arith.index_cast %bs : i32 to index
    %bm = arith.muli %bsx, %c16 : index
    %boff = arith.addi %bm, %c32 : index
    %brow = arith.addi %browX, %boff : index
    %kn = arith.muli %n, %c32_i32 : i32
    %kk = arith.addi %k0i, %kn : i32
    %kx = arith.index_castui %kk : i32 to index
    %so = arith.muli %slot, %c512_i32 : i32
    %dd = arith.addi %dsti, %so : i32
    %ddx = arith.index_castui %dd : i32 to index
    %d1:2 = affine.delinearize_index %ddx into (2, 512) : index, index
    amdgpu.gather_to_lds async %a[%brow, %kx], %la[%d1#0, %d1#1] : vector<8xbf16>, memref<?x128xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
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

// an op of another kind inserted in the epilogue, where a read's repeat belongs
func.func @k(%a: memref<16x128xbf16>, %b: memref<16x128xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  // expected-error-re @+1 {{'vector.extract' op (after the prefetch-pipelined loop) is not the body's 'vector.load' op at line {{[0-9]+}}:{{[0-9]+}} for the loop's last tiles (epilogue stage 0; another kind of op where its repeat belongs)}}
  %x = vector.extract %ga[0] : bf16 from vector<8xbf16>
  %gb = vector.load %r#2[%lane_r, %rk] : memref<16x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %ga * %gb + %r#0 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  %rw = arith.muli %lane_k, %c4 : index
  vector.store %e, %c[%rw, %lane_r] : memref<16x16xf32>, vector<4xf32>
  return
}
