#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 4)>
#map1 = affine_map<()[s0] -> (s0 * 8)>
#map2 = affine_map<(d0)[s0] -> (d0 * 64 + s0)>
#map3 = affine_map<()[s0] -> (s0 * 4)>
#map4 = affine_map<()[s0] -> (s0 * 2)>
#map5 = affine_map<(d0) -> (1030, d0 * 32)>
#map6 = affine_map<(d0) -> (-d0 + 1030, 32)>
#map7 = affine_map<(d0)[s0] -> (-d0 + 1030, 32, s0 * 8)>
#map8 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map9 = affine_map<()[s0, s1] -> (s0 + s1)>
#map10 = affine_map<(d0)[s0] -> (-d0 + 1030, 32, s0 * 4)>
#map11 = affine_map<(d0, d1) -> (4, d0 - d1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_2048x32x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_2048x32x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %0 = ub.poison : f16
          %cst = arith.constant dense<0.000000e+00> : vector<2x1x4x1xf32>
          %c33 = arith.constant 33 : index
          %c1 = arith.constant 1 : index
          %cst_0 = arith.constant 0.000000e+00 : f16
          %c0 = arith.constant 0 : index
          %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<1024xf16, #gpu.address_space<workgroup>>
          %alloc_2 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<2048xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4xf16, #gpu.address_space<private>>
          %alloca_3 = memref.alloca() : memref<1x8xf16, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2048x1030xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<2048x1030xf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2048x1030xf16, #hal.descriptor_type<storage_buffer>> to memref<2048x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<32x1030xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_4 = memref.assume_alignment %3, 64 : memref<32x1030xf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<32x1030xf16, #hal.descriptor_type<storage_buffer>> to memref<32x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2048x32xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_5 = memref.assume_alignment %5, 64 : memref<2048x32xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<2048x32xf32, #hal.descriptor_type<storage_buffer>> to memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>
          %expand_shape = memref.expand_shape %6 [[0, 1], [2, 3]] output_shape [128, 16, 2, 16] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<128x16x2x16xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0) in (32) {
            %7 = affine.apply #map(%arg0)
            %subview = memref.subview %expand_shape[%7, 0, 0, 0] [4, 16, 2, 16] [1, 1, 1, 1] : memref<128x16x2x16xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<4x16x2x16xf32, strided<[512, 32, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %expand_shape_6 = memref.expand_shape %alloc_2 [[0, 1]] output_shape [64, 32] : memref<2048xf16, #gpu.address_space<workgroup>> into memref<64x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_7 = memref.expand_shape %alloc [[0, 1]] output_shape [32, 32] : memref<1024xf16, #gpu.address_space<workgroup>> into memref<32x32xf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %8:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %9:3 = affine.delinearize_index %8#2 into (4, 16) : index, index, index
            %10 = iree_codegen.index_hint %9#1(#iree_gpu.lane_constant<16>) : index
            %11 = iree_codegen.index_hint %9#2(#iree_gpu.lane_increment<16, aligned>) : index
            %12 = affine.linearize_index disjoint [%10, %c0] by (4, 4) : index
            %13:2 = affine.delinearize_index %thread_id_x into (64, 4) : index, index
            %14 = affine.apply #map1()[%13#1]
            %15 = affine.apply #map2(%arg0)[%13#0]
            %16:2 = affine.delinearize_index %thread_id_x into (32, 8) : index, index
            %17 = affine.apply #map3()[%16#1]
            %18 = affine.apply #map4()[%8#0]
            %subview_8 = memref.subview %subview[%18, %12, %8#1, %11] [2, 4, 1, 1] [1, 1, 1, 1] : memref<4x16x2x16xf32, strided<[512, 32, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<2x4x1x1xf32, strided<[512, 32, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %19 = affine.linearize_index disjoint [%10, %c0] by (4, 8) : index
            %subview_9 = memref.subview %expand_shape_6[%13#0, %14] [1, 8] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_10 = memref.subview %expand_shape_7[%16#0, %17] [1, 4] [1, 1] : memref<32x32xf16, #gpu.address_space<workgroup>> to memref<1x4xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %expand_shape_11 = memref.expand_shape %expand_shape_7 [[0, 1], [2, 3]] output_shape [2, 16, 1, 32] : memref<32x32xf16, #gpu.address_space<workgroup>> into memref<2x16x1x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_12 = memref.expand_shape %expand_shape_6 [[0, 1], [2, 3]] output_shape [4, 16, 1, 32] : memref<64x32xf16, #gpu.address_space<workgroup>> into memref<4x16x1x32xf16, #gpu.address_space<workgroup>>
            %20:2 = scf.for %arg1 = %c0 to %c33 step %c1 iter_args(%arg2 = %cst_1, %arg3 = %cst_1) -> (vector<4xf32>, vector<4xf32>) {
              %26 = affine.min #map5(%arg1)
              %27 = affine.min #map6(%26)
              %28 = affine.min #map7(%26)[%13#1]
              %29 = affine.min #map8(%27, %28)
              %30 = affine.apply #map9()[%28, %26]
              %subview_13 = memref.subview %2[%15, %30] [1, %29] [1, 1] : memref<2048x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %31 = vector.create_mask %c1, %29 : vector<1x8xi1>
              %32 = vector.transfer_read %subview_13[%c0, %c0], %cst_0, %31 {in_bounds = [true, true]} : memref<1x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %32, %alloca_3[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, #gpu.address_space<private>>
              %33 = affine.min #map10(%26)[%16#1]
              %34 = affine.min #map11(%27, %33)
              %35 = affine.apply #map9()[%33, %26]
              %subview_14 = memref.subview %4[%16#0, %35] [1, %34] [1, 1] : memref<32x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %36 = vector.create_mask %c1, %34 : vector<1x4xi1>
              %37 = vector.transfer_read %subview_14[%c0, %c0], %cst_0, %36 {in_bounds = [true, true]} : memref<1x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x4xf16>
              vector.transfer_write %37, %alloca[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf16>, memref<1x4xf16, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %38 = vector.transfer_read %alloca_3[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, #gpu.address_space<private>>, vector<1x8xf16>
              vector.transfer_write %38, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %39 = vector.transfer_read %alloca[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x4xf16, #gpu.address_space<private>>, vector<1x4xf16>
              vector.transfer_write %39, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf16>, memref<1x4xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %40 = vector.transfer_read %expand_shape_12[%18, %11, %c0, %19], %0 {in_bounds = [true, true, true, true]} : memref<4x16x1x32xf16, #gpu.address_space<workgroup>>, vector<2x1x1x8xf16>
              %41 = vector.transfer_read %expand_shape_11[%8#1, %11, %c0, %19], %0 {in_bounds = [true, true, true, true]} : memref<2x16x1x32xf16, #gpu.address_space<workgroup>>, vector<1x1x1x8xf16>
              %42 = vector.extract %40[0, 0] : vector<1x8xf16> from vector<2x1x1x8xf16>
              %43 = vector.shape_cast %42 : vector<1x8xf16> to vector<8xf16>
              %44 = vector.shape_cast %41 : vector<1x1x1x8xf16> to vector<8xf16>
              %45 = amdgpu.mfma 16x16x32 %43 * %44 + %arg3 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %46 = vector.extract %40[1, 0] : vector<1x8xf16> from vector<2x1x1x8xf16>
              %47 = vector.shape_cast %46 : vector<1x8xf16> to vector<8xf16>
              %48 = vector.shape_cast %41 : vector<1x1x1x8xf16> to vector<8xf16>
              %49 = amdgpu.mfma 16x16x32 %47 * %48 + %arg2 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              scf.yield %49, %45 : vector<4xf32>, vector<4xf32>
            }
            %21 = vector.shape_cast %20#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %22 = vector.shape_cast %20#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %23 = vector.insert_strided_slice %21, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x1x4x1xf32>
            %24 = vector.insert_strided_slice %22, %23 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x1x4x1xf32>
            %25 = vector.transpose %24, [0, 2, 1, 3] : vector<2x1x4x1xf32> to vector<2x4x1x1xf32>
            vector.transfer_write %25, %subview_8[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<2x4x1x1xf32>, memref<2x4x1x1xf32, strided<[512, 32, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_2 : memref<2048xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<1024xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_2048x32x1030_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

