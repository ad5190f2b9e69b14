#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 4)>
#map1 = affine_map<()[s0] -> (s0 * 8)>
#map2 = affine_map<()[s0] -> (s0 * 16)>
#map3 = affine_map<(d0)[s0] -> (d0 * 64 + s0 * 16)>
#map4 = affine_map<()[s0] -> (s0 * 2)>
#map5 = affine_map<()[s0] -> (s0 * 256)>
#map6 = affine_map<()[s0] -> ((s0 mod 64) floordiv 8)>
#map7 = affine_map<()[s0] -> ((s0 floordiv 64) mod 8)>
#map8 = affine_map<()[s0, s1] -> (s1 * 8 + (s0 floordiv 64) * 64)>
#map9 = affine_map<()[s0] -> (s0 * 512)>
#map10 = affine_map<(d0) -> (d0 * 32)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_32x512x96_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_32x512x96_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %c4 = arith.constant 4 : index
          %c128 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %c2 = arith.constant 2 : index
          %0 = ub.poison : f16
          %cst = arith.constant dense<0.000000e+00> : vector<1x2x4x1xf32>
          %c3 = arith.constant 3 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<2048xf16, #gpu.address_space<workgroup>>
          %alloc_1 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<1024xf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<32x96xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<32x96xf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<32x96xf16, #hal.descriptor_type<storage_buffer>> to memref<32x96xf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<512x96xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_2 = memref.assume_alignment %3, 64 : memref<512x96xf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_2 resetOffset : memref<512x96xf16, #hal.descriptor_type<storage_buffer>> to memref<512x96xf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<32x512xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_3 = memref.assume_alignment %5, 64 : memref<32x512xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_3 resetOffset : memref<32x512xf32, #hal.descriptor_type<storage_buffer>> to memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>
          %expand_shape = memref.expand_shape %6 [[0, 1], [2, 3]] output_shape [2, 16, 32, 16] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<2x16x32x16xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0) in (8) {
            %7 = affine.apply #map(%arg0)
            %subview = memref.subview %expand_shape[0, 0, %7, 0] [2, 16, 4, 16] [1, 1, 1, 1] : memref<2x16x32x16xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<2x16x4x16xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %expand_shape_4 = memref.expand_shape %alloc_1 [[0, 1]] output_shape [32, 32] : memref<1024xf16, #gpu.address_space<workgroup>> into memref<32x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_5 = memref.expand_shape %alloc [[0, 1]] output_shape [64, 32] : memref<2048xf16, #gpu.address_space<workgroup>> into memref<64x32xf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %8:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %9:3 = affine.delinearize_index %8#2 into (4, 16) : index, index, index
            %10 = iree_codegen.index_hint %9#1(#iree_gpu.lane_constant<16>) : index
            %11 = iree_codegen.index_hint %9#2(#iree_gpu.lane_increment<16, aligned>) : index
            %12 = affine.linearize_index disjoint [%10, %c0] by (4, 4) : index
            %13:2 = affine.delinearize_index %thread_id_x into (4, 64) : index, index
            %14 = affine.apply #map1()[%13#0]
            %15 = affine.apply #map2()[%13#0]
            %16 = affine.apply #map3(%arg0)[%13#0]
            %17 = affine.apply #map4()[%8#1]
            %subview_6 = memref.subview %subview[%8#0, %12, %17, %11] [1, 4, 2, 1] [1, 1, 1, 1] : memref<2x16x4x16xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<1x4x2x1xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %18 = affine.linearize_index disjoint [%10, %c0] by (4, 8) : index
            %subview_7 = memref.subview %expand_shape_4[%14, 0] [8, 32] [1, 1] : memref<32x32xf16, #gpu.address_space<workgroup>> to memref<8x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_8 = memref.subview %expand_shape_5[%15, 0] [16, 32] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<16x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %19 = arith.muli %13#1, %c2 : index
            %20 = affine.apply #map5()[%13#0]
            %21 = arith.addi %20, %19 : index
            %22 = arith.remui %21, %c8 : index
            %23 = arith.subi %21, %22 : index
            %24 = affine.apply #map6()[%23]
            %25 = affine.apply #map7()[%23]
            %26 = arith.xori %25, %24 : index
            %27 = affine.apply #map8()[%23, %26]
            %28 = arith.subi %27, %23 : index
            %29 = arith.addi %21, %28 : index
            %30 = arith.subi %29, %20 : index
            %31:2 = affine.delinearize_index %30 into (8, 32) : index, index
            %32 = arith.addi %19, %c128 : index
            %33 = arith.addi %20, %32 : index
            %34 = arith.remui %33, %c8 : index
            %35 = arith.subi %33, %34 : index
            %36 = affine.apply #map6()[%35]
            %37 = affine.apply #map7()[%35]
            %38 = arith.xori %37, %36 : index
            %39 = affine.apply #map8()[%35, %38]
            %40 = arith.subi %39, %35 : index
            %41 = arith.addi %33, %40 : index
            %42 = arith.subi %41, %20 : index
            %43:2 = affine.delinearize_index %42 into (8, 32) : index, index
            %44 = arith.muli %13#1, %c8 : index
            %45 = affine.apply #map9()[%13#0]
            %46 = arith.addi %45, %44 : index
            %47 = arith.remui %46, %c8 : index
            %48 = arith.subi %46, %47 : index
            %49 = affine.apply #map6()[%48]
            %50 = affine.apply #map7()[%48]
            %51 = arith.xori %50, %49 : index
            %52 = affine.apply #map8()[%48, %51]
            %53 = arith.subi %52, %48 : index
            %54 = arith.addi %46, %53 : index
            %55 = arith.subi %54, %45 : index
            %56:2 = affine.delinearize_index %55 into (16, 32) : index, index
            %expand_shape_9 = memref.expand_shape %expand_shape_5 [[0, 1], [2, 3]] output_shape [4, 16, 1, 32] : memref<64x32xf16, #gpu.address_space<workgroup>> into memref<4x16x1x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_10 = memref.expand_shape %expand_shape_4 [[0, 1], [2, 3]] output_shape [2, 16, 1, 32] : memref<32x32xf16, #gpu.address_space<workgroup>> into memref<2x16x1x32xf16, #gpu.address_space<workgroup>>
            %57:2 = scf.for %arg1 = %c0 to %c3 step %c1 iter_args(%arg2 = %cst_0, %arg3 = %cst_0) -> (vector<4xf32>, vector<4xf32>) {
              %63 = affine.apply #map10(%arg1)
              %subview_11 = memref.subview %4[%16, %63] [16, 32] [1, 1] : memref<512x96xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<16x32xf16, strided<[96, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %subview_12 = memref.subview %2[%14, %63] [8, 32] [1, 1] : memref<32x96xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<8x32xf16, strided<[96, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              amdgpu.gather_to_lds %subview_12[%31#0, %31#1], %subview_7[%c0, %c0] : vector<2xf16>, memref<8x32xf16, strided<[96, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<8x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_12[%43#0, %43#1], %subview_7[%c4, %c0] : vector<2xf16>, memref<8x32xf16, strided<[96, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<8x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_11[%56#0, %56#1], %subview_8[%c0, %c0] : vector<8xf16>, memref<16x32xf16, strided<[96, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<16x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %64 = vector.transfer_read %expand_shape_10[%8#0, %11, %c0, %18], %0 {in_bounds = [true, true, true, true]} : memref<2x16x1x32xf16, #gpu.address_space<workgroup>>, vector<1x1x1x8xf16>
              %65 = vector.transfer_read %expand_shape_9[%17, %11, %c0, %18], %0 {in_bounds = [true, true, true, true]} : memref<4x16x1x32xf16, #gpu.address_space<workgroup>>, vector<2x1x1x8xf16>
              %66 = vector.extract %65[0, 0] : vector<1x8xf16> from vector<2x1x1x8xf16>
              %67 = vector.shape_cast %64 : vector<1x1x1x8xf16> to vector<8xf16>
              %68 = vector.shape_cast %66 : vector<1x8xf16> to vector<8xf16>
              %69 = amdgpu.mfma 16x16x32 %67 * %68 + %arg3 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %70 = vector.extract %65[1, 0] : vector<1x8xf16> from vector<2x1x1x8xf16>
              %71 = vector.shape_cast %64 : vector<1x1x1x8xf16> to vector<8xf16>
              %72 = vector.shape_cast %70 : vector<1x8xf16> to vector<8xf16>
              %73 = amdgpu.mfma 16x16x32 %71 * %72 + %arg2 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              scf.yield %73, %69 : vector<4xf32>, vector<4xf32>
            }
            %58 = vector.shape_cast %57#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %59 = vector.shape_cast %57#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %60 = vector.insert_strided_slice %58, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x2x4x1xf32>
            %61 = vector.insert_strided_slice %59, %60 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x2x4x1xf32>
            %62 = vector.transpose %61, [0, 2, 1, 3] : vector<1x2x4x1xf32> to vector<1x4x2x1xf32>
            vector.transfer_write %62, %subview_6[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x2x1xf32>, memref<1x4x2x1xf32, strided<[8192, 512, 16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_1 : memref<1024xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<2048xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_32x512x96_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

