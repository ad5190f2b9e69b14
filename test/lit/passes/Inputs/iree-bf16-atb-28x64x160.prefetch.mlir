#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (s0 * 4)>
#map1 = affine_map<()[s0] -> (28, s0 * 4)>
#map2 = affine_map<()[s0] -> (-s0 + 28, 4)>
#map3 = affine_map<()[s0] -> (s0 * 8)>
#map4 = affine_map<(d0)[s0] -> (d0 * 32 + s0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_28x64x160_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_28x64x160_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %cst = arith.constant dense<0.000000e+00> : vector<1x4xbf16>
          %c4 = arith.constant 4 : index
          %0 = ub.poison : bf16
          %cst_0 = arith.constant dense<0.000000e+00> : vector<2x1x4x1xf32>
          %c5 = arith.constant 5 : index
          %c1 = arith.constant 1 : index
          %cst_1 = arith.constant 0.000000e+00 : bf16
          %c0 = arith.constant 0 : index
          %cst_2 = arith.constant dense<16> : vector<2x4x1x1xindex>
          %cst_3 = arith.constant dense<28> : vector<2x4x1x1xindex>
          %cst_4 = arith.constant dense<64> : vector<2x4x1x1xindex>
          %c16 = arith.constant 16 : index
          %c8 = arith.constant 8 : index
          %c12 = arith.constant 12 : index
          %cst_5 = arith.constant dense<0.000000e+00> : vector<16xbf16>
          %cst_6 = arith.constant dense<0.000000e+00> : vector<8xbf16>
          %cst_7 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x68xbf16, #gpu.address_space<workgroup>>
          %alloc_8 = memref.alloc() : memref<32x36xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4xbf16, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<160x28xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<160x28xbf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<160x28xbf16, #hal.descriptor_type<storage_buffer>> to memref<160x28xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<160x64xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_9 = memref.assume_alignment %3, 64 : memref<160x64xbf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_9 resetOffset : memref<160x64xbf16, #hal.descriptor_type<storage_buffer>> to memref<160x64xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<28x64xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_10 = memref.assume_alignment %5, 64 : memref<28x64xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_10 resetOffset : memref<28x64xf32, #hal.descriptor_type<storage_buffer>> to memref<28x64xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0) in (1) {
            %subview = memref.subview %alloc_8[0, 0] [32, 32] [1, 1] : memref<32x36xbf16, #gpu.address_space<workgroup>> to memref<32x32xbf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
            %subview_11 = memref.subview %alloc[0, 0] [32, 64] [1, 1] : memref<32x68xbf16, #gpu.address_space<workgroup>> to memref<32x64xbf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %7:2 = affine.delinearize_index %thread_id_x into (4, 64) : index, index
            %8:3 = affine.delinearize_index %7#1 into (4, 16) : index, index, index
            %9 = iree_codegen.index_hint %8#1(#iree_gpu.lane_constant<16>) : index
            %10 = iree_codegen.index_hint %8#2(#iree_gpu.lane_increment<16, aligned>) : index
            %11 = affine.linearize_index disjoint [%9, %c0] by (4, 4) : index
            %12:2 = affine.delinearize_index %thread_id_x into (32, 8) : index, index
            %13 = affine.apply #map()[%12#1]
            %14 = affine.min #map1()[%12#1]
            %15 = affine.min #map2()[%14]
            %16 = affine.apply #map3()[%12#1]
            %17 = affine.linearize_index disjoint [%9, %c0] by (4, 8) : index
            %18 = arith.cmpi eq, %15, %c4 : index
            %subview_12 = memref.subview %subview[%12#0, %13] [1, 4] [1, 1] : memref<32x32xbf16, strided<[36, 1]>, #gpu.address_space<workgroup>> to memref<1x4xbf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_13 = memref.subview %subview_11[%12#0, %16] [1, 8] [1, 1] : memref<32x64xbf16, strided<[68, 1]>, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
            %expand_shape = memref.expand_shape %subview_11 [[0, 1], [2, 3]] output_shape [1, 32, 4, 16] : memref<32x64xbf16, strided<[68, 1]>, #gpu.address_space<workgroup>> into memref<1x32x4x16xbf16, strided<[2176, 68, 16, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_14 = memref.expand_shape %subview [[0, 1], [2, 3]] output_shape [1, 32, 2, 16] : memref<32x32xbf16, strided<[36, 1]>, #gpu.address_space<workgroup>> into memref<1x32x2x16xbf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>>
            %19 = gpu.lane_id upper_bound 64
            %20 = arith.remui %19, %c16 : index
            %21 = arith.divui %20, %c4 : index
            %22 = arith.subi %10, %20 : index
            %23 = arith.remui %20, %c4 : index
            %24 = arith.muli %23, %c4 : index
            %25 = arith.addi %22, %24 : index
            %26:2 = affine.delinearize_index %21 into (8, 2) : index, index
            %27 = arith.addi %17, %26#0 : index
            %28 = arith.addi %21, %c4 : index
            %29:2 = affine.delinearize_index %28 into (8, 2) : index, index
            %30 = arith.addi %17, %29#0 : index
            %31 = arith.addi %21, %c8 : index
            %32:2 = affine.delinearize_index %31 into (8, 2) : index, index
            %33 = arith.addi %17, %32#0 : index
            %34 = arith.addi %21, %c12 : index
            %35:2 = affine.delinearize_index %34 into (8, 2) : index, index
            %36 = arith.addi %17, %35#0 : index
            %37 = gpu.lane_id upper_bound 64
            %38 = arith.remui %37, %c16 : index
            %39 = arith.divui %38, %c4 : index
            %40 = arith.subi %10, %38 : index
            %41 = arith.remui %38, %c4 : index
            %42 = arith.muli %41, %c4 : index
            %43 = arith.addi %40, %42 : index
            %44 = arith.addi %17, %39 : index
            %45 = arith.addi %39, %c4 : index
            %46 = arith.addi %17, %45 : index
            %47:2 = scf.for %arg1 = %c0 to %c5 step %c1 iter_args(%arg2 = %cst_7, %arg3 = %cst_7) -> (vector<4xf32>, vector<4xf32>) {
              %79 = affine.apply #map4(%arg1)[%12#0]
              %subview_15 = memref.subview %4[%79, %16] [1, 8] [1, 1] : memref<160x64xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xbf16, strided<[64, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %subview_16 = memref.subview %2[%79, %14] [1, %15] [1, 1] : memref<160x28xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[28, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %80 = vector.transfer_read %subview_16[%c0, %c0], %cst_1 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[28, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x4xbf16>
              %81 = arith.select %18, %80, %cst : vector<1x4xbf16>
              vector.transfer_write %81, %alloca[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xbf16>, memref<1x4xbf16, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %82 = vector.transfer_read %alloca[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x4xbf16, #gpu.address_space<private>>, vector<1x4xbf16>
              vector.transfer_write %82, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xbf16>, memref<1x4xbf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
              %83 = vector.transfer_read %subview_15[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[64, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %83, %subview_13[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %84 = amdgpu.transpose_load %expand_shape_14[%c0, %27, %26#1, %25] : memref<1x32x2x16xbf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %85 = amdgpu.transpose_load %expand_shape_14[%c0, %30, %29#1, %25] : memref<1x32x2x16xbf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %86 = amdgpu.transpose_load %expand_shape_14[%c0, %33, %32#1, %25] : memref<1x32x2x16xbf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %87 = amdgpu.transpose_load %expand_shape_14[%c0, %36, %35#1, %25] : memref<1x32x2x16xbf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %88 = vector.insert_strided_slice %84, %cst_5 offsets = [0], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %89 = vector.insert_strided_slice %85, %88 offsets = [4], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %90 = vector.insert_strided_slice %86, %89 offsets = [8], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %91 = vector.insert_strided_slice %87, %90 offsets = [12], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %92 = vector.shape_cast %91 : vector<16xbf16> to vector<1x8x2x1xbf16>
              %93 = vector.transpose %92, [0, 2, 3, 1] : vector<1x8x2x1xbf16> to vector<1x2x1x8xbf16>
              %94 = amdgpu.transpose_load %expand_shape[%c0, %44, %7#0, %43] : memref<1x32x4x16xbf16, strided<[2176, 68, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %95 = amdgpu.transpose_load %expand_shape[%c0, %46, %7#0, %43] : memref<1x32x4x16xbf16, strided<[2176, 68, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %96 = vector.insert_strided_slice %94, %cst_6 offsets = [0], strides = [1] : vector<4xbf16> into vector<8xbf16>
              %97 = vector.insert_strided_slice %95, %96 offsets = [4], strides = [1] : vector<4xbf16> into vector<8xbf16>
              %98 = vector.extract %93[0, 0] : vector<1x8xbf16> from vector<1x2x1x8xbf16>
              %99 = vector.shape_cast %98 : vector<1x8xbf16> to vector<8xbf16>
              %100 = amdgpu.mfma 16x16x32 %99 * %97 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %101 = vector.extract %93[0, 1] : vector<1x8xbf16> from vector<1x2x1x8xbf16>
              %102 = vector.shape_cast %101 : vector<1x8xbf16> to vector<8xbf16>
              %103 = amdgpu.mfma 16x16x32 %102 * %97 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %103, %100 : vector<4xf32>, vector<4xf32>
            }
            %48 = vector.shape_cast %47#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %49 = vector.shape_cast %47#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %50 = vector.insert_strided_slice %48, %cst_0 offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x1x4x1xf32>
            %51 = vector.insert_strided_slice %49, %50 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x1x4x1xf32>
            %collapse_shape = memref.collapse_shape %6 [[0, 1]] : memref<28x64xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<1792xf32, #amdgpu.address_space<fat_raw_buffer>>
            %52 = vector.step : vector<2xindex>
            %53 = vector.broadcast %52 : vector<2xindex> to vector<1x4x1x2xindex>
            %54 = vector.transpose %53, [3, 1, 2, 0] : vector<1x4x1x2xindex> to vector<2x4x1x1xindex>
            %55 = vector.step : vector<4xindex>
            %56 = vector.broadcast %55 : vector<4xindex> to vector<2x1x1x4xindex>
            %57 = vector.transpose %56, [0, 3, 2, 1] : vector<2x1x1x4xindex> to vector<2x4x1x1xindex>
            %58 = vector.step : vector<1xindex>
            %59 = vector.broadcast %58 : vector<1xindex> to vector<2x4x1x1xindex>
            %60 = vector.broadcast %11 : index to vector<2x4x1x1xindex>
            %61 = arith.addi %57, %60 : vector<2x4x1x1xindex>
            %62 = vector.broadcast %7#0 : index to vector<2x4x1x1xindex>
            %63 = arith.addi %59, %62 : vector<2x4x1x1xindex>
            %64 = vector.broadcast %10 : index to vector<1xindex>
            %65 = arith.addi %58, %64 : vector<1xindex>
            %66 = arith.muli %54, %cst_2 overflow<nsw> : vector<2x4x1x1xindex>
            %67 = arith.addi %66, %61 overflow<nsw> : vector<2x4x1x1xindex>
            %68 = arith.muli %63, %cst_2 overflow<nsw> : vector<2x4x1x1xindex>
            %69 = vector.broadcast %65 : vector<1xindex> to vector<2x4x1x1xindex>
            %70 = arith.addi %68, %69 overflow<nsw> : vector<2x4x1x1xindex>
            %71 = arith.cmpi ult, %67, %cst_3 : vector<2x4x1x1xindex>
            %72 = arith.cmpi ult, %70, %cst_4 : vector<2x4x1x1xindex>
            %73 = arith.andi %71, %72 : vector<2x4x1x1xi1>
            %74 = arith.muli %67, %cst_4 overflow<nsw> : vector<2x4x1x1xindex>
            %75 = arith.addi %74, %70 overflow<nsw> : vector<2x4x1x1xindex>
            %76 = vector.shape_cast %75 : vector<2x4x1x1xindex> to vector<8xindex>
            %77 = vector.shape_cast %73 : vector<2x4x1x1xi1> to vector<8xi1>
            %78 = vector.shape_cast %51 : vector<2x1x4x1xf32> to vector<8xf32>
            vector.scatter %collapse_shape[%c0] [%76], %77, %78 : memref<1792xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xindex>, vector<8xi1>, vector<8xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_8 : memref<32x36xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x68xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_28x64x160_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

