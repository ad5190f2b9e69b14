// A one-wave 32x32 bf16 tile (K step 32, 8 K steps, 4 MFMAs 16x16x32) copying with
// gather_to_lds from global memrefs (global_load_lds_dwordx4, which LLVM 22 counts on
// lgkmcnt too) and reading each operand's LDS tile through a 1 x 1024 slot buffer: the
// front end merges 2 K steps into each K tile of 64.  Run by sched-lower-to-rocdl.mlir
// (DMA): the MMAs' operand waits are the lowering's (pipeline_mlir/schedule/dma_lgkm.py).
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
