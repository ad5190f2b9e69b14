#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 8)>
#map1 = affine_map<()[s0] -> (s0 * 32)>
#map2 = affine_map<(d0)[s0] -> (d0 * 128 + s0 * 32)>
#map3 = affine_map<()[s0] -> (s0 * 4)>
#map4 = affine_map<()[s0] -> (s0 * 1024)>
#map5 = affine_map<()[s0] -> ((s0 mod 64) floordiv 8)>
#map6 = affine_map<()[s0] -> ((s0 floordiv 64) mod 8)>
#map7 = affine_map<()[s0, s1] -> (s1 * 8 + (s0 floordiv 64) * 64)>
#map8 = affine_map<(d0) -> (d0 * 32)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %c16 = arith.constant 16 : index
          %c512 = arith.constant 512 : index
          %c8 = arith.constant 8 : index
          %0 = ub.poison : bf16
          %cst = arith.constant dense<0.000000e+00> : vector<4x4x4x1xf32>
          %c128 = arith.constant 128 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloc_1 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x4096xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<4096x4096xbf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<4096x4096xbf16, #hal.descriptor_type<storage_buffer>> to memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x4096xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_2 = memref.assume_alignment %3, 64 : memref<4096x4096xbf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_2 resetOffset : memref<4096x4096xbf16, #hal.descriptor_type<storage_buffer>> to memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_3 = memref.assume_alignment %5, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_3 resetOffset : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>> to memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>
          %expand_shape = memref.expand_shape %6 [[0, 1], [2, 3]] output_shape [256, 16, 256, 16] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<256x16x256x16xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (32, 32) {
            %7 = affine.apply #map(%arg1)
            %8 = affine.apply #map(%arg0)
            %subview = memref.subview %expand_shape[%8, 0, %7, 0] [8, 16, 8, 16] [1, 1, 1, 1] : memref<256x16x256x16xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<8x16x8x16xf32, strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %expand_shape_4 = memref.expand_shape %alloc_1 [[0, 1]] output_shape [128, 32] : memref<4096xbf16, #gpu.address_space<workgroup>> into memref<128x32xbf16, #gpu.address_space<workgroup>>
            %expand_shape_5 = memref.expand_shape %alloc [[0, 1]] output_shape [128, 32] : memref<4096xbf16, #gpu.address_space<workgroup>> into memref<128x32xbf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %9:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %10:3 = affine.delinearize_index %9#2 into (4, 16) : index, index, index
            %11 = iree_codegen.index_hint %10#1(#iree_gpu.lane_constant<16>) : index
            %12 = iree_codegen.index_hint %10#2(#iree_gpu.lane_increment<16, aligned>) : index
            %13 = affine.linearize_index disjoint [%11, %c0] by (4, 4) : index
            %14:2 = affine.delinearize_index %thread_id_x into (4, 64) : index, index
            %15 = affine.apply #map1()[%14#0]
            %16 = affine.apply #map2(%arg0)[%14#0]
            %17 = affine.apply #map2(%arg1)[%14#0]
            %18 = affine.apply #map3()[%9#1]
            %19 = affine.apply #map3()[%9#0]
            %subview_6 = memref.subview %subview[%19, %13, %18, %12] [4, 4, 4, 1] [1, 1, 1, 1] : memref<8x16x8x16xf32, strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<4x4x4x1xf32, strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %20 = affine.linearize_index disjoint [%11, %c0] by (4, 8) : index
            %subview_7 = memref.subview %expand_shape_5[%15, 0] [32, 32] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_8 = memref.subview %expand_shape_4[%15, 0] [32, 32] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %21 = arith.muli %14#1, %c8 : index
            %22 = affine.apply #map4()[%14#0]
            %23 = arith.addi %22, %21 : index
            %24 = arith.remui %23, %c8 : index
            %25 = arith.subi %23, %24 : index
            %26 = affine.apply #map5()[%25]
            %27 = affine.apply #map6()[%25]
            %28 = arith.xori %27, %26 : index
            %29 = affine.apply #map7()[%25, %28]
            %30 = arith.subi %29, %25 : index
            %31 = arith.addi %23, %30 : index
            %32 = arith.subi %31, %22 : index
            %33:2 = affine.delinearize_index %32 into (32, 32) : index, index
            %34 = arith.addi %21, %c512 : index
            %35 = arith.addi %22, %34 : index
            %36 = arith.remui %35, %c8 : index
            %37 = arith.subi %35, %36 : index
            %38 = affine.apply #map5()[%37]
            %39 = affine.apply #map6()[%37]
            %40 = arith.xori %39, %38 : index
            %41 = affine.apply #map7()[%37, %40]
            %42 = arith.subi %41, %37 : index
            %43 = arith.addi %35, %42 : index
            %44 = arith.subi %43, %22 : index
            %45:2 = affine.delinearize_index %44 into (32, 32) : index, index
            %expand_shape_9 = memref.expand_shape %expand_shape_4 [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xbf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>
            %expand_shape_10 = memref.expand_shape %expand_shape_5 [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xbf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>
            %46:16 = scf.for %arg2 = %c0 to %c128 step %c1 iter_args(%arg3 = %cst_0, %arg4 = %cst_0, %arg5 = %cst_0, %arg6 = %cst_0, %arg7 = %cst_0, %arg8 = %cst_0, %arg9 = %cst_0, %arg10 = %cst_0, %arg11 = %cst_0, %arg12 = %cst_0, %arg13 = %cst_0, %arg14 = %cst_0, %arg15 = %cst_0, %arg16 = %cst_0, %arg17 = %cst_0, %arg18 = %cst_0) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %80 = affine.apply #map8(%arg2)
              %subview_11 = memref.subview %4[%17, %80] [32, 32] [1, 1] : memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<32x32xbf16, strided<[4096, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %subview_12 = memref.subview %2[%16, %80] [32, 32] [1, 1] : memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<32x32xbf16, strided<[4096, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              amdgpu.gather_to_lds %subview_12[%33#0, %33#1], %subview_7[%c0, %c0] : vector<8xbf16>, memref<32x32xbf16, strided<[4096, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_12[%45#0, %45#1], %subview_7[%c16, %c0] : vector<8xbf16>, memref<32x32xbf16, strided<[4096, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_11[%33#0, %33#1], %subview_8[%c0, %c0] : vector<8xbf16>, memref<32x32xbf16, strided<[4096, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_11[%45#0, %45#1], %subview_8[%c16, %c0] : vector<8xbf16>, memref<32x32xbf16, strided<[4096, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %81 = vector.transfer_read %expand_shape_10[%19, %12, %c0, %20], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>, vector<4x1x1x8xbf16>
              %82 = vector.transfer_read %expand_shape_9[%18, %12, %c0, %20], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>, vector<4x1x1x8xbf16>
              %83 = vector.extract %81[0, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %84 = vector.extract %82[0, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %85 = vector.shape_cast %83 : vector<1x8xbf16> to vector<8xbf16>
              %86 = vector.shape_cast %84 : vector<1x8xbf16> to vector<8xbf16>
              %87 = amdgpu.mfma 16x16x32 %85 * %86 + %arg18 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %88 = vector.extract %82[1, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %89 = vector.shape_cast %83 : vector<1x8xbf16> to vector<8xbf16>
              %90 = vector.shape_cast %88 : vector<1x8xbf16> to vector<8xbf16>
              %91 = amdgpu.mfma 16x16x32 %89 * %90 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %92 = vector.extract %82[2, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %93 = vector.shape_cast %83 : vector<1x8xbf16> to vector<8xbf16>
              %94 = vector.shape_cast %92 : vector<1x8xbf16> to vector<8xbf16>
              %95 = amdgpu.mfma 16x16x32 %93 * %94 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %96 = vector.extract %82[3, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %97 = vector.shape_cast %83 : vector<1x8xbf16> to vector<8xbf16>
              %98 = vector.shape_cast %96 : vector<1x8xbf16> to vector<8xbf16>
              %99 = amdgpu.mfma 16x16x32 %97 * %98 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %100 = vector.extract %81[1, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %101 = vector.shape_cast %100 : vector<1x8xbf16> to vector<8xbf16>
              %102 = vector.shape_cast %84 : vector<1x8xbf16> to vector<8xbf16>
              %103 = amdgpu.mfma 16x16x32 %101 * %102 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %104 = vector.shape_cast %100 : vector<1x8xbf16> to vector<8xbf16>
              %105 = vector.shape_cast %88 : vector<1x8xbf16> to vector<8xbf16>
              %106 = amdgpu.mfma 16x16x32 %104 * %105 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %107 = vector.shape_cast %100 : vector<1x8xbf16> to vector<8xbf16>
              %108 = vector.shape_cast %92 : vector<1x8xbf16> to vector<8xbf16>
              %109 = amdgpu.mfma 16x16x32 %107 * %108 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %110 = vector.shape_cast %100 : vector<1x8xbf16> to vector<8xbf16>
              %111 = vector.shape_cast %96 : vector<1x8xbf16> to vector<8xbf16>
              %112 = amdgpu.mfma 16x16x32 %110 * %111 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %113 = vector.extract %81[2, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %114 = vector.shape_cast %113 : vector<1x8xbf16> to vector<8xbf16>
              %115 = vector.shape_cast %84 : vector<1x8xbf16> to vector<8xbf16>
              %116 = amdgpu.mfma 16x16x32 %114 * %115 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %117 = vector.shape_cast %113 : vector<1x8xbf16> to vector<8xbf16>
              %118 = vector.shape_cast %88 : vector<1x8xbf16> to vector<8xbf16>
              %119 = amdgpu.mfma 16x16x32 %117 * %118 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %120 = vector.shape_cast %113 : vector<1x8xbf16> to vector<8xbf16>
              %121 = vector.shape_cast %92 : vector<1x8xbf16> to vector<8xbf16>
              %122 = amdgpu.mfma 16x16x32 %120 * %121 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %123 = vector.shape_cast %113 : vector<1x8xbf16> to vector<8xbf16>
              %124 = vector.shape_cast %96 : vector<1x8xbf16> to vector<8xbf16>
              %125 = amdgpu.mfma 16x16x32 %123 * %124 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %126 = vector.extract %81[3, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %127 = vector.shape_cast %126 : vector<1x8xbf16> to vector<8xbf16>
              %128 = vector.shape_cast %84 : vector<1x8xbf16> to vector<8xbf16>
              %129 = amdgpu.mfma 16x16x32 %127 * %128 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %130 = vector.shape_cast %126 : vector<1x8xbf16> to vector<8xbf16>
              %131 = vector.shape_cast %88 : vector<1x8xbf16> to vector<8xbf16>
              %132 = amdgpu.mfma 16x16x32 %130 * %131 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %133 = vector.shape_cast %126 : vector<1x8xbf16> to vector<8xbf16>
              %134 = vector.shape_cast %92 : vector<1x8xbf16> to vector<8xbf16>
              %135 = amdgpu.mfma 16x16x32 %133 * %134 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %136 = vector.shape_cast %126 : vector<1x8xbf16> to vector<8xbf16>
              %137 = vector.shape_cast %96 : vector<1x8xbf16> to vector<8xbf16>
              %138 = amdgpu.mfma 16x16x32 %136 * %137 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %138, %135, %132, %129, %125, %122, %119, %116, %112, %109, %106, %103, %99, %95, %91, %87 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %47 = vector.shape_cast %46#15 : vector<4xf32> to vector<1x1x4x1xf32>
            %48 = vector.shape_cast %46#14 : vector<4xf32> to vector<1x1x4x1xf32>
            %49 = vector.shape_cast %46#13 : vector<4xf32> to vector<1x1x4x1xf32>
            %50 = vector.shape_cast %46#12 : vector<4xf32> to vector<1x1x4x1xf32>
            %51 = vector.shape_cast %46#11 : vector<4xf32> to vector<1x1x4x1xf32>
            %52 = vector.shape_cast %46#10 : vector<4xf32> to vector<1x1x4x1xf32>
            %53 = vector.shape_cast %46#9 : vector<4xf32> to vector<1x1x4x1xf32>
            %54 = vector.shape_cast %46#8 : vector<4xf32> to vector<1x1x4x1xf32>
            %55 = vector.shape_cast %46#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %56 = vector.shape_cast %46#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %57 = vector.shape_cast %46#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %58 = vector.shape_cast %46#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %59 = vector.shape_cast %46#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %60 = vector.shape_cast %46#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %61 = vector.shape_cast %46#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %62 = vector.shape_cast %46#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %63 = vector.insert_strided_slice %47, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %64 = vector.insert_strided_slice %48, %63 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %65 = vector.insert_strided_slice %49, %64 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %66 = vector.insert_strided_slice %50, %65 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %67 = vector.insert_strided_slice %51, %66 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %68 = vector.insert_strided_slice %52, %67 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %69 = vector.insert_strided_slice %53, %68 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %70 = vector.insert_strided_slice %54, %69 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %71 = vector.insert_strided_slice %55, %70 offsets = [2, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %72 = vector.insert_strided_slice %56, %71 offsets = [2, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %73 = vector.insert_strided_slice %57, %72 offsets = [2, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %74 = vector.insert_strided_slice %58, %73 offsets = [2, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %75 = vector.insert_strided_slice %59, %74 offsets = [3, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %76 = vector.insert_strided_slice %60, %75 offsets = [3, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %77 = vector.insert_strided_slice %61, %76 offsets = [3, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %78 = vector.insert_strided_slice %62, %77 offsets = [3, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %79 = vector.transpose %78, [0, 2, 1, 3] : vector<4x4x4x1xf32> to vector<4x4x4x1xf32>
            vector.transfer_write %79, %subview_6[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<4x4x4x1xf32>, memref<4x4x4x1xf32, strided<[65536, 4096, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_1 : memref<4096xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

