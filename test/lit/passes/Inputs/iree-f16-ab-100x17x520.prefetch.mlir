#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (s0 * 4)>
#map1 = affine_map<()[s0] -> (100, s0)>
#map2 = affine_map<()[s0] -> (-s0 + 100, 1)>
#map3 = affine_map<()[s0] -> (17, s0)>
#map4 = affine_map<()[s0] -> (-s0 + 17, 1)>
#map5 = affine_map<(d0)[s0] -> (d0 * 8 + s0 * 4)>
#map6 = affine_map<(d0)[s0] -> (d0 * 8 + s0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_100x17x520_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_100x17x520_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %cst = arith.constant dense<0.000000e+00> : vector<1x1xf16>
          %cst_0 = arith.constant dense<0.000000e+00> : vector<1x4xf16>
          %0 = ub.poison : f16
          %c65 = arith.constant 65 : index
          %c1 = arith.constant 1 : index
          %cst_1 = arith.constant 0.000000e+00 : f16
          %c0 = arith.constant 0 : index
          %cst_2 = arith.constant dense<32> : vector<1x4x4x1x1xindex>
          %cst_3 = arith.constant dense<8> : vector<1x4x4x1x1xindex>
          %cst_4 = arith.constant dense<100> : vector<1x4x4x1x1xindex>
          %cst_5 = arith.constant dense<17> : vector<1xindex>
          %cst_6 = arith.constant dense<17> : vector<1x4x4x1x1xindex>
          %c16 = arith.constant 16 : index
          %c4 = arith.constant 4 : index
          %cst_7 = arith.constant dense<0.000000e+00> : vector<16xf32>
          %alloc = memref.alloc() : memref<8x32xf16, #gpu.address_space<workgroup>>
          %alloc_8 = memref.alloc() : memref<128x8xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x1xf16, #gpu.address_space<private>>
          %alloca_9 = memref.alloca() : memref<1x4xf16, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<100x520xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<100x520xf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<100x520xf16, #hal.descriptor_type<storage_buffer>> to memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<520x17xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_10 = memref.assume_alignment %3, 64 : memref<520x17xf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_10 resetOffset : memref<520x17xf16, #hal.descriptor_type<storage_buffer>> to memref<520x17xf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<100x17xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_11 = memref.assume_alignment %5, 64 : memref<100x17xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_11 resetOffset : memref<100x17xf32, #hal.descriptor_type<storage_buffer>> to memref<100x17xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (1, 1) {
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %7:2 = affine.delinearize_index %thread_id_x into (4, 64) : index, index
            %8:3 = affine.delinearize_index %7#1 into (2, 32) : index, index, index
            %9 = iree_codegen.index_hint %8#1(#iree_gpu.lane_constant<32>) : index
            %10 = iree_codegen.index_hint %8#2(#iree_gpu.lane_increment<32, aligned>) : index
            %11 = affine.linearize_index disjoint [%9, %c0] by (2, 4) : index
            %12:2 = affine.delinearize_index %thread_id_x into (128, 2) : index, index
            %13 = affine.apply #map()[%12#1]
            %14 = affine.min #map1()[%12#0]
            %15 = affine.min #map2()[%14]
            %16:2 = affine.delinearize_index %thread_id_x into (8, 32) : index, index
            %17 = affine.min #map3()[%16#1]
            %18 = affine.min #map4()[%17]
            %19 = arith.index_castui %15 : index to i1
            %20 = arith.index_castui %18 : index to i1
            %subview = memref.subview %alloc_8[%12#0, %13] [1, 4] [1, 1] : memref<128x8xf16, #gpu.address_space<workgroup>> to memref<1x4xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_12 = memref.subview %alloc[%16#0, %16#1] [1, 1] [1, 1] : memref<8x32xf16, #gpu.address_space<workgroup>> to memref<1x1xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %expand_shape = memref.expand_shape %alloc [[0, 1], [2, 3]] output_shape [1, 8, 1, 32] : memref<8x32xf16, #gpu.address_space<workgroup>> into memref<1x8x1x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_13 = memref.expand_shape %alloc_8 [[0, 1], [2, 3]] output_shape [4, 32, 1, 8] : memref<128x8xf16, #gpu.address_space<workgroup>> into memref<4x32x1x8xf16, #gpu.address_space<workgroup>>
            %21 = gpu.lane_id upper_bound 64
            %22 = arith.remui %21, %c16 : index
            %23 = arith.divui %22, %c4 : index
            %24 = arith.subi %10, %22 : index
            %25 = arith.remui %22, %c4 : index
            %26 = arith.muli %25, %c4 : index
            %27 = arith.addi %24, %26 : index
            %28 = arith.addi %11, %23 : index
            %29 = scf.for %arg2 = %c0 to %c65 step %c1 iter_args(%arg3 = %cst_7) -> (vector<16xf32>) {
              %56 = affine.apply #map5(%arg2)[%12#1]
              %subview_14 = memref.subview %2[%14, %56] [%15, 4] [1, 1] : memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x4xf16, strided<[520, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %57 = vector.transfer_read %subview_14[%c0, %c0], %cst_1 {in_bounds = [true, true]} : memref<?x4xf16, strided<[520, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x4xf16>
              %58 = arith.select %19, %57, %cst_0 : vector<1x4xf16>
              vector.transfer_write %58, %alloca_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf16>, memref<1x4xf16, #gpu.address_space<private>>
              %59 = affine.apply #map6(%arg2)[%16#0]
              %subview_15 = memref.subview %4[%59, %17] [1, %18] [1, 1] : memref<520x17xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xf16, strided<[17, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %60 = vector.transfer_read %subview_15[%c0, %c0], %cst_1 {in_bounds = [true, true]} : memref<1x?xf16, strided<[17, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1xf16>
              %61 = arith.select %20, %60, %cst : vector<1x1xf16>
              vector.transfer_write %61, %alloca[%c0, %c0] {in_bounds = [true, true]} : vector<1x1xf16>, memref<1x1xf16, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %62 = vector.transfer_read %alloca_9[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x4xf16, #gpu.address_space<private>>, vector<1x4xf16>
              vector.transfer_write %62, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf16>, memref<1x4xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
              %63 = vector.transfer_read %alloca[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x1xf16, #gpu.address_space<private>>, vector<1x1xf16>
              vector.transfer_write %63, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x1xf16>, memref<1x1xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %64 = vector.transfer_read %expand_shape_13[%7#0, %10, %c0, %11], %0 {in_bounds = [true, true, true, true]} : memref<4x32x1x8xf16, #gpu.address_space<workgroup>>, vector<1x1x1x4xf16>
              %65 = amdgpu.transpose_load %expand_shape[%c0, %28, %c0, %27] : memref<1x8x1x32xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
              %66 = vector.shape_cast %64 : vector<1x1x1x4xf16> to vector<4xf16>
              %67 = amdgpu.mfma 32x32x8 %66 * %65 + %arg3 : vector<4xf16>, vector<4xf16>, vector<16xf32>
              scf.yield %67 : vector<16xf32>
            }
            %collapse_shape = memref.collapse_shape %6 [[0, 1]] : memref<100x17xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<1700xf32, #amdgpu.address_space<fat_raw_buffer>>
            %30 = vector.step : vector<1xindex>
            %31 = vector.broadcast %30 : vector<1xindex> to vector<1x4x4x1x1xindex>
            %32 = vector.step : vector<4xindex>
            %33 = vector.broadcast %32 : vector<4xindex> to vector<1x1x4x1x4xindex>
            %34 = vector.transpose %33, [0, 4, 2, 3, 1] : vector<1x1x4x1x4xindex> to vector<1x4x4x1x1xindex>
            %35 = vector.broadcast %32 : vector<4xindex> to vector<1x4x1x1x4xindex>
            %36 = vector.transpose %35, [0, 1, 4, 3, 2] : vector<1x4x1x1x4xindex> to vector<1x4x4x1x1xindex>
            %37 = vector.broadcast %7#0 : index to vector<1x4x4x1x1xindex>
            %38 = arith.addi %31, %37 : vector<1x4x4x1x1xindex>
            %39 = vector.broadcast %11 : index to vector<1x4x4x1x1xindex>
            %40 = arith.addi %36, %39 : vector<1x4x4x1x1xindex>
            %41 = vector.broadcast %10 : index to vector<1xindex>
            %42 = arith.addi %30, %41 : vector<1xindex>
            %43 = arith.muli %38, %cst_2 overflow<nsw> : vector<1x4x4x1x1xindex>
            %44 = arith.muli %34, %cst_3 overflow<nsw> : vector<1x4x4x1x1xindex>
            %45 = arith.addi %43, %44 overflow<nsw> : vector<1x4x4x1x1xindex>
            %46 = arith.addi %45, %40 overflow<nsw> : vector<1x4x4x1x1xindex>
            %47 = arith.cmpi ult, %46, %cst_4 : vector<1x4x4x1x1xindex>
            %48 = arith.cmpi ult, %42, %cst_5 : vector<1xindex>
            %49 = vector.broadcast %48 : vector<1xi1> to vector<1x4x4x1x1xi1>
            %50 = arith.andi %47, %49 : vector<1x4x4x1x1xi1>
            %51 = arith.muli %46, %cst_6 overflow<nsw> : vector<1x4x4x1x1xindex>
            %52 = vector.broadcast %42 : vector<1xindex> to vector<1x4x4x1x1xindex>
            %53 = arith.addi %51, %52 overflow<nsw> : vector<1x4x4x1x1xindex>
            %54 = vector.shape_cast %53 : vector<1x4x4x1x1xindex> to vector<16xindex>
            %55 = vector.shape_cast %50 : vector<1x4x4x1x1xi1> to vector<16xi1>
            vector.scatter %collapse_shape[%c0] [%54], %55, %29 : memref<1700xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_8 : memref<128x8xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<8x32xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_100x17x520_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

