module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @natural(%A: memref<4096x4096xbf16, #gpu.address_space<global>>, %B: memref<4096x4096xbf16, #gpu.address_space<global>>, %C: memref<4096x4096xf32, #gpu.address_space<global>>)
        workgroup(%la: memref<4096xbf16, #gpu.address_space<workgroup>>, %lb: memref<4096xbf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      %tid = gpu.thread_id x
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %c2 : index
      %wn = arith.remui %wave, %c2 : index
      %bid = gpu.block_id x
      %c32x = arith.constant 32 : index
      %bm = arith.divui %bid, %c32x : index
      %bn = arith.remui %bid, %c32x : index
      %c128 = arith.constant 128 : index
      %row0a = arith.muli %bm, %c128 : index
      %row0b = arith.muli %bn, %c128 : index
      %lrow = arith.divui %lane, %c4 : index
      %lchunk = arith.remui %lane, %c4 : index
      %cr0 = arith.constant 0 : index
      %wr0 = arith.muli %wave, %c32 : index
      %rr0 = arith.addi %wr0, %cr0 : index
      %trow0 = arith.addi %rr0, %lrow : index
      %dst0a = arith.muli %rr0, %c32 : index
      %tcol0 = arith.muli %lchunk, %c8 : index
      %gcol0 = arith.addi %tcol0, %c0 : index
      %garow0 = arith.addi %row0a, %trow0 : index
      %gbrow0 = arith.addi %row0b, %trow0 : index
      %cr1 = arith.constant 16 : index
      %wr1 = arith.muli %wave, %c32 : index
      %rr1 = arith.addi %wr1, %cr1 : index
      %trow1 = arith.addi %rr1, %lrow : index
      %dst1a = arith.muli %rr1, %c32 : index
      %tcol1 = arith.muli %lchunk, %c8 : index
      %gcol1 = arith.addi %tcol1, %c0 : index
      %garow1 = arith.addi %row0a, %trow1 : index
      %gbrow1 = arith.addi %row0b, %trow1 : index
      %l16 = arith.remui %lane, %c16 : index
      %lg = arith.divui %lane, %c16 : index
      %fcol = arith.muli %lg, %c8 : index
      %fwa = arith.muli %wm, %c64 : index
      %fma0 = arith.constant 0 : index
      %fra0x = arith.addi %fwa, %fma0 : index
      %fra0 = arith.addi %fra0x, %l16 : index
      %fea0x = arith.muli %fra0, %c32 : index
      %fea0 = arith.addi %fea0x, %fcol : index
      %fma1 = arith.constant 16 : index
      %fra1x = arith.addi %fwa, %fma1 : index
      %fra1 = arith.addi %fra1x, %l16 : index
      %fea1x = arith.muli %fra1, %c32 : index
      %fea1 = arith.addi %fea1x, %fcol : index
      %fma2 = arith.constant 32 : index
      %fra2x = arith.addi %fwa, %fma2 : index
      %fra2 = arith.addi %fra2x, %l16 : index
      %fea2x = arith.muli %fra2, %c32 : index
      %fea2 = arith.addi %fea2x, %fcol : index
      %fma3 = arith.constant 48 : index
      %fra3x = arith.addi %fwa, %fma3 : index
      %fra3 = arith.addi %fra3x, %l16 : index
      %fea3x = arith.muli %fra3, %c32 : index
      %fea3 = arith.addi %fea3x, %fcol : index
      %fwb = arith.muli %wn, %c64 : index
      %fmb0 = arith.constant 0 : index
      %frb0x = arith.addi %fwb, %fmb0 : index
      %frb0 = arith.addi %frb0x, %l16 : index
      %feb0x = arith.muli %frb0, %c32 : index
      %feb0 = arith.addi %feb0x, %fcol : index
      %fmb1 = arith.constant 16 : index
      %frb1x = arith.addi %fwb, %fmb1 : index
      %frb1 = arith.addi %frb1x, %l16 : index
      %feb1x = arith.muli %frb1, %c32 : index
      %feb1 = arith.addi %feb1x, %fcol : index
      %fmb2 = arith.constant 32 : index
      %frb2x = arith.addi %fwb, %fmb2 : index
      %frb2 = arith.addi %frb2x, %l16 : index
      %feb2x = arith.muli %frb2, %c32 : index
      %feb2 = arith.addi %feb2x, %fcol : index
      %fmb3 = arith.constant 48 : index
      %frb3x = arith.addi %fwb, %fmb3 : index
      %frb3 = arith.addi %frb3x, %l16 : index
      %feb3x = arith.muli %frb3, %c32 : index
      %feb3 = arith.addi %feb3x, %fcol : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %lb0 = arith.constant 0 : index
      %ub0 = arith.constant 128 : index
      %st0 = arith.constant 1 : index
      %res:16 = scf.for %iv = %lb0 to %ub0 step %st0 iter_args(%acc00 = %zero, %acc01 = %zero, %acc02 = %zero, %acc03 = %zero, %acc10 = %zero, %acc11 = %zero, %acc12 = %zero, %acc13 = %zero, %acc20 = %zero, %acc21 = %zero, %acc22 = %zero, %acc23 = %zero, %acc30 = %zero, %acc31 = %zero, %acc32 = %zero, %acc33 = %zero) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
        %ivx = arith.addi %iv, %c0 : index
        %kt = arith.muli %ivx, %c32 : index
        gpu.barrier
        %gk0 = arith.addi %kt, %gcol0 : index
        amdgpu.gather_to_lds %A[%garow0, %gk0], %la[%dst0a] : vector<8xbf16>, memref<4096x4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
        amdgpu.gather_to_lds %B[%gbrow0, %gk0], %lb[%dst0a] : vector<8xbf16>, memref<4096x4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
        %gk1 = arith.addi %kt, %gcol1 : index
        amdgpu.gather_to_lds %A[%garow1, %gk1], %la[%dst1a] : vector<8xbf16>, memref<4096x4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
        amdgpu.gather_to_lds %B[%gbrow1, %gk1], %lb[%dst1a] : vector<8xbf16>, memref<4096x4096xbf16, #gpu.address_space<global>>, memref<4096xbf16, #gpu.address_space<workgroup>>
        gpu.barrier
        %va0 = vector.load %la[%fea0] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %va1 = vector.load %la[%fea1] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %va2 = vector.load %la[%fea2] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %va3 = vector.load %la[%fea3] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %vb0 = vector.load %lb[%feb0] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %vb1 = vector.load %lb[%feb1] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %vb2 = vector.load %lb[%feb2] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %vb3 = vector.load %lb[%feb3] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m00 = amdgpu.mfma 16x16x32 %va0 * %vb0 + %acc00 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m01 = amdgpu.mfma 16x16x32 %va0 * %vb1 + %acc01 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m02 = amdgpu.mfma 16x16x32 %va0 * %vb2 + %acc02 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m03 = amdgpu.mfma 16x16x32 %va0 * %vb3 + %acc03 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m10 = amdgpu.mfma 16x16x32 %va1 * %vb0 + %acc10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m11 = amdgpu.mfma 16x16x32 %va1 * %vb1 + %acc11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m12 = amdgpu.mfma 16x16x32 %va1 * %vb2 + %acc12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m13 = amdgpu.mfma 16x16x32 %va1 * %vb3 + %acc13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m20 = amdgpu.mfma 16x16x32 %va2 * %vb0 + %acc20 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m21 = amdgpu.mfma 16x16x32 %va2 * %vb1 + %acc21 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m22 = amdgpu.mfma 16x16x32 %va2 * %vb2 + %acc22 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m23 = amdgpu.mfma 16x16x32 %va2 * %vb3 + %acc23 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m30 = amdgpu.mfma 16x16x32 %va3 * %vb0 + %acc30 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m31 = amdgpu.mfma 16x16x32 %va3 * %vb1 + %acc31 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m32 = amdgpu.mfma 16x16x32 %va3 * %vb2 + %acc32 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m33 = amdgpu.mfma 16x16x32 %va3 * %vb3 + %acc33 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        scf.yield %m00, %m01, %m02, %m03, %m10, %m11, %m12, %m13, %m20, %m21, %m22, %m23, %m30, %m31, %m32, %m33 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      }
      %crow = arith.addi %row0a, %fwa : index
      %ccol = arith.addi %row0b, %fwb : index
      %lr4 = arith.muli %lg, %c4 : index
      %or0 = arith.addi %crow, %fma0 : index
      %or0l = arith.addi %or0, %lr4 : index
      %oc0 = arith.addi %ccol, %fmb0 : index
      %oc0l = arith.addi %oc0, %l16 : index
      %or0e0 = arith.addi %or0l, %c0 : index
      %ov0e0 = vector.extract %res#0[0] : f32 from vector<4xf32>
      memref.store %ov0e0, %C[%or0e0, %oc0l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or0e1 = arith.addi %or0l, %c1 : index
      %ov0e1 = vector.extract %res#0[1] : f32 from vector<4xf32>
      memref.store %ov0e1, %C[%or0e1, %oc0l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or0e2 = arith.addi %or0l, %c2 : index
      %ov0e2 = vector.extract %res#0[2] : f32 from vector<4xf32>
      memref.store %ov0e2, %C[%or0e2, %oc0l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or0e3 = arith.addi %or0l, %c3 : index
      %ov0e3 = vector.extract %res#0[3] : f32 from vector<4xf32>
      memref.store %ov0e3, %C[%or0e3, %oc0l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or1 = arith.addi %crow, %fma0 : index
      %or1l = arith.addi %or1, %lr4 : index
      %oc1 = arith.addi %ccol, %fmb1 : index
      %oc1l = arith.addi %oc1, %l16 : index
      %or1e0 = arith.addi %or1l, %c0 : index
      %ov1e0 = vector.extract %res#1[0] : f32 from vector<4xf32>
      memref.store %ov1e0, %C[%or1e0, %oc1l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or1e1 = arith.addi %or1l, %c1 : index
      %ov1e1 = vector.extract %res#1[1] : f32 from vector<4xf32>
      memref.store %ov1e1, %C[%or1e1, %oc1l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or1e2 = arith.addi %or1l, %c2 : index
      %ov1e2 = vector.extract %res#1[2] : f32 from vector<4xf32>
      memref.store %ov1e2, %C[%or1e2, %oc1l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or1e3 = arith.addi %or1l, %c3 : index
      %ov1e3 = vector.extract %res#1[3] : f32 from vector<4xf32>
      memref.store %ov1e3, %C[%or1e3, %oc1l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or2 = arith.addi %crow, %fma0 : index
      %or2l = arith.addi %or2, %lr4 : index
      %oc2 = arith.addi %ccol, %fmb2 : index
      %oc2l = arith.addi %oc2, %l16 : index
      %or2e0 = arith.addi %or2l, %c0 : index
      %ov2e0 = vector.extract %res#2[0] : f32 from vector<4xf32>
      memref.store %ov2e0, %C[%or2e0, %oc2l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or2e1 = arith.addi %or2l, %c1 : index
      %ov2e1 = vector.extract %res#2[1] : f32 from vector<4xf32>
      memref.store %ov2e1, %C[%or2e1, %oc2l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or2e2 = arith.addi %or2l, %c2 : index
      %ov2e2 = vector.extract %res#2[2] : f32 from vector<4xf32>
      memref.store %ov2e2, %C[%or2e2, %oc2l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or2e3 = arith.addi %or2l, %c3 : index
      %ov2e3 = vector.extract %res#2[3] : f32 from vector<4xf32>
      memref.store %ov2e3, %C[%or2e3, %oc2l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or3 = arith.addi %crow, %fma0 : index
      %or3l = arith.addi %or3, %lr4 : index
      %oc3 = arith.addi %ccol, %fmb3 : index
      %oc3l = arith.addi %oc3, %l16 : index
      %or3e0 = arith.addi %or3l, %c0 : index
      %ov3e0 = vector.extract %res#3[0] : f32 from vector<4xf32>
      memref.store %ov3e0, %C[%or3e0, %oc3l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or3e1 = arith.addi %or3l, %c1 : index
      %ov3e1 = vector.extract %res#3[1] : f32 from vector<4xf32>
      memref.store %ov3e1, %C[%or3e1, %oc3l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or3e2 = arith.addi %or3l, %c2 : index
      %ov3e2 = vector.extract %res#3[2] : f32 from vector<4xf32>
      memref.store %ov3e2, %C[%or3e2, %oc3l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or3e3 = arith.addi %or3l, %c3 : index
      %ov3e3 = vector.extract %res#3[3] : f32 from vector<4xf32>
      memref.store %ov3e3, %C[%or3e3, %oc3l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or4 = arith.addi %crow, %fma1 : index
      %or4l = arith.addi %or4, %lr4 : index
      %oc4 = arith.addi %ccol, %fmb0 : index
      %oc4l = arith.addi %oc4, %l16 : index
      %or4e0 = arith.addi %or4l, %c0 : index
      %ov4e0 = vector.extract %res#4[0] : f32 from vector<4xf32>
      memref.store %ov4e0, %C[%or4e0, %oc4l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or4e1 = arith.addi %or4l, %c1 : index
      %ov4e1 = vector.extract %res#4[1] : f32 from vector<4xf32>
      memref.store %ov4e1, %C[%or4e1, %oc4l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or4e2 = arith.addi %or4l, %c2 : index
      %ov4e2 = vector.extract %res#4[2] : f32 from vector<4xf32>
      memref.store %ov4e2, %C[%or4e2, %oc4l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or4e3 = arith.addi %or4l, %c3 : index
      %ov4e3 = vector.extract %res#4[3] : f32 from vector<4xf32>
      memref.store %ov4e3, %C[%or4e3, %oc4l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or5 = arith.addi %crow, %fma1 : index
      %or5l = arith.addi %or5, %lr4 : index
      %oc5 = arith.addi %ccol, %fmb1 : index
      %oc5l = arith.addi %oc5, %l16 : index
      %or5e0 = arith.addi %or5l, %c0 : index
      %ov5e0 = vector.extract %res#5[0] : f32 from vector<4xf32>
      memref.store %ov5e0, %C[%or5e0, %oc5l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or5e1 = arith.addi %or5l, %c1 : index
      %ov5e1 = vector.extract %res#5[1] : f32 from vector<4xf32>
      memref.store %ov5e1, %C[%or5e1, %oc5l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or5e2 = arith.addi %or5l, %c2 : index
      %ov5e2 = vector.extract %res#5[2] : f32 from vector<4xf32>
      memref.store %ov5e2, %C[%or5e2, %oc5l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or5e3 = arith.addi %or5l, %c3 : index
      %ov5e3 = vector.extract %res#5[3] : f32 from vector<4xf32>
      memref.store %ov5e3, %C[%or5e3, %oc5l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or6 = arith.addi %crow, %fma1 : index
      %or6l = arith.addi %or6, %lr4 : index
      %oc6 = arith.addi %ccol, %fmb2 : index
      %oc6l = arith.addi %oc6, %l16 : index
      %or6e0 = arith.addi %or6l, %c0 : index
      %ov6e0 = vector.extract %res#6[0] : f32 from vector<4xf32>
      memref.store %ov6e0, %C[%or6e0, %oc6l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or6e1 = arith.addi %or6l, %c1 : index
      %ov6e1 = vector.extract %res#6[1] : f32 from vector<4xf32>
      memref.store %ov6e1, %C[%or6e1, %oc6l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or6e2 = arith.addi %or6l, %c2 : index
      %ov6e2 = vector.extract %res#6[2] : f32 from vector<4xf32>
      memref.store %ov6e2, %C[%or6e2, %oc6l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or6e3 = arith.addi %or6l, %c3 : index
      %ov6e3 = vector.extract %res#6[3] : f32 from vector<4xf32>
      memref.store %ov6e3, %C[%or6e3, %oc6l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or7 = arith.addi %crow, %fma1 : index
      %or7l = arith.addi %or7, %lr4 : index
      %oc7 = arith.addi %ccol, %fmb3 : index
      %oc7l = arith.addi %oc7, %l16 : index
      %or7e0 = arith.addi %or7l, %c0 : index
      %ov7e0 = vector.extract %res#7[0] : f32 from vector<4xf32>
      memref.store %ov7e0, %C[%or7e0, %oc7l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or7e1 = arith.addi %or7l, %c1 : index
      %ov7e1 = vector.extract %res#7[1] : f32 from vector<4xf32>
      memref.store %ov7e1, %C[%or7e1, %oc7l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or7e2 = arith.addi %or7l, %c2 : index
      %ov7e2 = vector.extract %res#7[2] : f32 from vector<4xf32>
      memref.store %ov7e2, %C[%or7e2, %oc7l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or7e3 = arith.addi %or7l, %c3 : index
      %ov7e3 = vector.extract %res#7[3] : f32 from vector<4xf32>
      memref.store %ov7e3, %C[%or7e3, %oc7l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or8 = arith.addi %crow, %fma2 : index
      %or8l = arith.addi %or8, %lr4 : index
      %oc8 = arith.addi %ccol, %fmb0 : index
      %oc8l = arith.addi %oc8, %l16 : index
      %or8e0 = arith.addi %or8l, %c0 : index
      %ov8e0 = vector.extract %res#8[0] : f32 from vector<4xf32>
      memref.store %ov8e0, %C[%or8e0, %oc8l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or8e1 = arith.addi %or8l, %c1 : index
      %ov8e1 = vector.extract %res#8[1] : f32 from vector<4xf32>
      memref.store %ov8e1, %C[%or8e1, %oc8l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or8e2 = arith.addi %or8l, %c2 : index
      %ov8e2 = vector.extract %res#8[2] : f32 from vector<4xf32>
      memref.store %ov8e2, %C[%or8e2, %oc8l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or8e3 = arith.addi %or8l, %c3 : index
      %ov8e3 = vector.extract %res#8[3] : f32 from vector<4xf32>
      memref.store %ov8e3, %C[%or8e3, %oc8l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or9 = arith.addi %crow, %fma2 : index
      %or9l = arith.addi %or9, %lr4 : index
      %oc9 = arith.addi %ccol, %fmb1 : index
      %oc9l = arith.addi %oc9, %l16 : index
      %or9e0 = arith.addi %or9l, %c0 : index
      %ov9e0 = vector.extract %res#9[0] : f32 from vector<4xf32>
      memref.store %ov9e0, %C[%or9e0, %oc9l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or9e1 = arith.addi %or9l, %c1 : index
      %ov9e1 = vector.extract %res#9[1] : f32 from vector<4xf32>
      memref.store %ov9e1, %C[%or9e1, %oc9l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or9e2 = arith.addi %or9l, %c2 : index
      %ov9e2 = vector.extract %res#9[2] : f32 from vector<4xf32>
      memref.store %ov9e2, %C[%or9e2, %oc9l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or9e3 = arith.addi %or9l, %c3 : index
      %ov9e3 = vector.extract %res#9[3] : f32 from vector<4xf32>
      memref.store %ov9e3, %C[%or9e3, %oc9l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or10 = arith.addi %crow, %fma2 : index
      %or10l = arith.addi %or10, %lr4 : index
      %oc10 = arith.addi %ccol, %fmb2 : index
      %oc10l = arith.addi %oc10, %l16 : index
      %or10e0 = arith.addi %or10l, %c0 : index
      %ov10e0 = vector.extract %res#10[0] : f32 from vector<4xf32>
      memref.store %ov10e0, %C[%or10e0, %oc10l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or10e1 = arith.addi %or10l, %c1 : index
      %ov10e1 = vector.extract %res#10[1] : f32 from vector<4xf32>
      memref.store %ov10e1, %C[%or10e1, %oc10l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or10e2 = arith.addi %or10l, %c2 : index
      %ov10e2 = vector.extract %res#10[2] : f32 from vector<4xf32>
      memref.store %ov10e2, %C[%or10e2, %oc10l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or10e3 = arith.addi %or10l, %c3 : index
      %ov10e3 = vector.extract %res#10[3] : f32 from vector<4xf32>
      memref.store %ov10e3, %C[%or10e3, %oc10l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or11 = arith.addi %crow, %fma2 : index
      %or11l = arith.addi %or11, %lr4 : index
      %oc11 = arith.addi %ccol, %fmb3 : index
      %oc11l = arith.addi %oc11, %l16 : index
      %or11e0 = arith.addi %or11l, %c0 : index
      %ov11e0 = vector.extract %res#11[0] : f32 from vector<4xf32>
      memref.store %ov11e0, %C[%or11e0, %oc11l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or11e1 = arith.addi %or11l, %c1 : index
      %ov11e1 = vector.extract %res#11[1] : f32 from vector<4xf32>
      memref.store %ov11e1, %C[%or11e1, %oc11l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or11e2 = arith.addi %or11l, %c2 : index
      %ov11e2 = vector.extract %res#11[2] : f32 from vector<4xf32>
      memref.store %ov11e2, %C[%or11e2, %oc11l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or11e3 = arith.addi %or11l, %c3 : index
      %ov11e3 = vector.extract %res#11[3] : f32 from vector<4xf32>
      memref.store %ov11e3, %C[%or11e3, %oc11l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or12 = arith.addi %crow, %fma3 : index
      %or12l = arith.addi %or12, %lr4 : index
      %oc12 = arith.addi %ccol, %fmb0 : index
      %oc12l = arith.addi %oc12, %l16 : index
      %or12e0 = arith.addi %or12l, %c0 : index
      %ov12e0 = vector.extract %res#12[0] : f32 from vector<4xf32>
      memref.store %ov12e0, %C[%or12e0, %oc12l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or12e1 = arith.addi %or12l, %c1 : index
      %ov12e1 = vector.extract %res#12[1] : f32 from vector<4xf32>
      memref.store %ov12e1, %C[%or12e1, %oc12l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or12e2 = arith.addi %or12l, %c2 : index
      %ov12e2 = vector.extract %res#12[2] : f32 from vector<4xf32>
      memref.store %ov12e2, %C[%or12e2, %oc12l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or12e3 = arith.addi %or12l, %c3 : index
      %ov12e3 = vector.extract %res#12[3] : f32 from vector<4xf32>
      memref.store %ov12e3, %C[%or12e3, %oc12l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or13 = arith.addi %crow, %fma3 : index
      %or13l = arith.addi %or13, %lr4 : index
      %oc13 = arith.addi %ccol, %fmb1 : index
      %oc13l = arith.addi %oc13, %l16 : index
      %or13e0 = arith.addi %or13l, %c0 : index
      %ov13e0 = vector.extract %res#13[0] : f32 from vector<4xf32>
      memref.store %ov13e0, %C[%or13e0, %oc13l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or13e1 = arith.addi %or13l, %c1 : index
      %ov13e1 = vector.extract %res#13[1] : f32 from vector<4xf32>
      memref.store %ov13e1, %C[%or13e1, %oc13l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or13e2 = arith.addi %or13l, %c2 : index
      %ov13e2 = vector.extract %res#13[2] : f32 from vector<4xf32>
      memref.store %ov13e2, %C[%or13e2, %oc13l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or13e3 = arith.addi %or13l, %c3 : index
      %ov13e3 = vector.extract %res#13[3] : f32 from vector<4xf32>
      memref.store %ov13e3, %C[%or13e3, %oc13l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or14 = arith.addi %crow, %fma3 : index
      %or14l = arith.addi %or14, %lr4 : index
      %oc14 = arith.addi %ccol, %fmb2 : index
      %oc14l = arith.addi %oc14, %l16 : index
      %or14e0 = arith.addi %or14l, %c0 : index
      %ov14e0 = vector.extract %res#14[0] : f32 from vector<4xf32>
      memref.store %ov14e0, %C[%or14e0, %oc14l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or14e1 = arith.addi %or14l, %c1 : index
      %ov14e1 = vector.extract %res#14[1] : f32 from vector<4xf32>
      memref.store %ov14e1, %C[%or14e1, %oc14l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or14e2 = arith.addi %or14l, %c2 : index
      %ov14e2 = vector.extract %res#14[2] : f32 from vector<4xf32>
      memref.store %ov14e2, %C[%or14e2, %oc14l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or14e3 = arith.addi %or14l, %c3 : index
      %ov14e3 = vector.extract %res#14[3] : f32 from vector<4xf32>
      memref.store %ov14e3, %C[%or14e3, %oc14l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or15 = arith.addi %crow, %fma3 : index
      %or15l = arith.addi %or15, %lr4 : index
      %oc15 = arith.addi %ccol, %fmb3 : index
      %oc15l = arith.addi %oc15, %l16 : index
      %or15e0 = arith.addi %or15l, %c0 : index
      %ov15e0 = vector.extract %res#15[0] : f32 from vector<4xf32>
      memref.store %ov15e0, %C[%or15e0, %oc15l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or15e1 = arith.addi %or15l, %c1 : index
      %ov15e1 = vector.extract %res#15[1] : f32 from vector<4xf32>
      memref.store %ov15e1, %C[%or15e1, %oc15l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or15e2 = arith.addi %or15l, %c2 : index
      %ov15e2 = vector.extract %res#15[2] : f32 from vector<4xf32>
      memref.store %ov15e2, %C[%or15e2, %oc15l] : memref<4096x4096xf32, #gpu.address_space<global>>
      %or15e3 = arith.addi %or15l, %c3 : index
      %ov15e3 = vector.extract %res#15[3] : f32 from vector<4xf32>
      memref.store %ov15e3, %C[%or15e3, %oc15l] : memref<4096x4096xf32, #gpu.address_space<global>>
      gpu.return
    }
  }
}
