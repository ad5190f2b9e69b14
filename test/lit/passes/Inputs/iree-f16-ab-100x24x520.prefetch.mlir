#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (s0 * 32)>
#map1 = affine_map<(d0) -> (d0 * 8)>
#map2 = affine_map<()[s0] -> ((-s0 + 128) ceildiv 256)>
#map3 = affine_map<(d0, d1) -> (d0 * 8 + d1 * 4)>
#map4 = affine_map<(d0) -> (d0 * 4)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %c16 = arith.constant 16 : index
          %c64 = arith.constant 64 : index
          %c520 = arith.constant 520 : index
          %cst = arith.constant 0.000000e+00 : f16
          %c2 = arith.constant 2 : index
          %0 = ub.poison : f16
          %c24 = arith.constant 24 : index
          %c128 = arith.constant 128 : index
          %c100 = arith.constant 100 : index
          %c32 = arith.constant 32 : index
          %c65 = arith.constant 65 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %cst_0 = arith.constant dense<32> : vector<1x4x4x1x1xindex>
          %cst_1 = arith.constant dense<8> : vector<1x4x4x1x1xindex>
          %cst_2 = arith.constant dense<100> : vector<1x4x4x1x1xindex>
          %cst_3 = arith.constant dense<24> : vector<1xindex>
          %cst_4 = arith.constant dense<24> : vector<1x4x4x1x1xindex>
          %c4 = arith.constant 4 : index
          %cst_5 = arith.constant dense<0.000000e+00> : vector<16xf32>
          %alloc = memref.alloc() : memref<8x32xf16, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() : memref<128x8xf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<100x520xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<100x520xf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<100x520xf16, #hal.descriptor_type<storage_buffer>> to memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<520x24xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_7 = memref.assume_alignment %3, 64 : memref<520x24xf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<520x24xf16, #hal.descriptor_type<storage_buffer>> to memref<520x24xf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<100x24xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_8 = memref.assume_alignment %5, 64 : memref<100x24xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<100x24xf32, #hal.descriptor_type<storage_buffer>> to memref<100x24xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (1, 1) {
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %7:2 = affine.delinearize_index %thread_id_x into (4, 64) : index, index
            %8:3 = affine.delinearize_index %7#1 into (2, 32) : index, index, index
            %9 = iree_codegen.index_hint %8#1(#iree_gpu.lane_constant<32>) : index
            %10 = iree_codegen.index_hint %8#2(#iree_gpu.lane_increment<32, aligned>) : index
            %11 = affine.linearize_index disjoint [%9, %c0] by (2, 4) : index
            %12 = affine.apply #map()[%7#0]
            %13 = arith.minsi %12, %c100 : index
            %14 = arith.subi %c100, %13 : index
            %15 = arith.maxsi %14, %c0 : index
            %16 = arith.minsi %15, %c32 : index
            %subview = memref.subview %alloc_6[%12, 0] [32, 8] [1, 1] : memref<128x8xf16, #gpu.address_space<workgroup>> to memref<32x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
            %17 = arith.muli %7#1, %c2 : index
            %18:2 = affine.delinearize_index %17 into (32, 8) : index, index
            %19 = arith.cmpi uge, %18#0, %16 : index
            %20 = arith.select %19, %c100, %18#0 : index
            %21 = arith.addi %17, %c128 : index
            %22:2 = affine.delinearize_index %21 into (32, 8) : index, index
            %23 = arith.cmpi uge, %22#0, %16 : index
            %24 = arith.select %23, %c100, %22#0 : index
            %expand_shape = memref.expand_shape %alloc [[0, 1], [2, 3]] output_shape [1, 8, 1, 32] : memref<8x32xf16, #gpu.address_space<workgroup>> into memref<1x8x1x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_9 = memref.expand_shape %alloc_6 [[0, 1], [2, 3]] output_shape [4, 32, 1, 8] : memref<128x8xf16, #gpu.address_space<workgroup>> into memref<4x32x1x8xf16, #gpu.address_space<workgroup>>
            %25 = gpu.lane_id upper_bound 64
            %26 = arith.remui %25, %c16 : index
            %27 = arith.divui %26, %c4 : index
            %28 = arith.subi %10, %26 : index
            %29 = arith.remui %26, %c4 : index
            %30 = arith.muli %29, %c4 : index
            %31 = arith.addi %28, %30 : index
            %32 = arith.addi %11, %27 : index
            %33 = scf.for %arg2 = %c0 to %c65 step %c1 iter_args(%arg3 = %cst_5) -> (vector<16xf32>) {
              %60 = affine.apply #map1(%arg2)
              %subview_10 = memref.subview %2[%13, %60] [%16, 8] [1, 1] : memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x8xf16, strided<[520, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              amdgpu.gather_to_lds %subview_10[%20, %18#1], %subview[%c0, %c0] : vector<2xf16>, memref<?x8xf16, strided<[520, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_10[%24, %22#1], %subview[%c16, %c0] : vector<2xf16>, memref<?x8xf16, strided<[520, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
              %61 = affine.apply #map2()[%thread_id_x]
              %alloca = memref.alloca(%61) : memref<?x1xf16, #gpu.address_space<private>>
              %62 = affine.apply #map2()[%thread_id_x]
              %alloca_11 = memref.alloca(%62) : memref<?x1xf16, #gpu.address_space<private>>
              %63 = arith.cmpi slt, %thread_id_x, %c128 : index
              scf.if %63 {
                %69:2 = affine.delinearize_index %thread_id_x into (2, 64) : index, index
                %70 = affine.apply #map3(%arg2, %69#0)
                %subview_12 = memref.subview %4[%70, 0] [4, 24] [1, 1] : memref<520x24xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<4x24xf16, strided<[24, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
                %71:2 = affine.delinearize_index %69#1 into (4, 32) : index, index
                %72 = arith.cmpi uge, %71#1, %c24 : index
                %73 = arith.select %72, %c520, %71#0 : index
                %74 = vector.transfer_read %subview_12[%73, %71#1], %cst : memref<4x24xf16, strided<[24, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf16>
                %75 = arith.addi %69#1, %c64 : index
                %76:2 = affine.delinearize_index %75 into (4, 32) : index, index
                %77 = arith.cmpi uge, %76#1, %c24 : index
                %78 = arith.select %77, %c520, %76#0 : index
                %79 = vector.transfer_read %subview_12[%78, %76#1], %cst : memref<4x24xf16, strided<[24, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf16>
                vector.transfer_write %74, %alloca[%c0, %c0] {in_bounds = [true]} : vector<1xf16>, memref<?x1xf16, #gpu.address_space<private>>
                vector.transfer_write %79, %alloca_11[%c0, %c0] {in_bounds = [true]} : vector<1xf16>, memref<?x1xf16, #gpu.address_space<private>>
              }
              %64 = arith.cmpi slt, %thread_id_x, %c128 : index
              scf.if %64 {
                %69:2 = affine.delinearize_index %thread_id_x into (2, 64) : index, index
                %70 = affine.apply #map4(%69#0)
                %subview_12 = memref.subview %alloc[%70, 0] [4, 32] [1, 1] : memref<8x32xf16, #gpu.address_space<workgroup>> to memref<4x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
                %71:2 = affine.delinearize_index %69#1 into (4, 32) : index, index
                %72 = vector.transfer_read %alloca[%c0, %c0], %cst {in_bounds = [true]} : memref<?x1xf16, #gpu.address_space<private>>, vector<1xf16>
                vector.transfer_write %72, %subview_12[%71#0, %71#1] {in_bounds = [true]} : vector<1xf16>, memref<4x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
                %73 = arith.addi %69#1, %c64 : index
                %74:2 = affine.delinearize_index %73 into (4, 32) : index, index
                %75 = vector.transfer_read %alloca_11[%c0, %c0], %cst {in_bounds = [true]} : memref<?x1xf16, #gpu.address_space<private>>, vector<1xf16>
                vector.transfer_write %75, %subview_12[%74#0, %74#1] {in_bounds = [true]} : vector<1xf16>, memref<4x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              }
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %65 = vector.transfer_read %expand_shape_9[%7#0, %10, %c0, %11], %0 {in_bounds = [true, true, true, true]} : memref<4x32x1x8xf16, #gpu.address_space<workgroup>>, vector<1x1x1x4xf16>
              %66 = amdgpu.transpose_load %expand_shape[%c0, %32, %c0, %31] : memref<1x8x1x32xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
              %67 = vector.shape_cast %65 : vector<1x1x1x4xf16> to vector<4xf16>
              %68 = amdgpu.mfma 32x32x8 %67 * %66 + %arg3 : vector<4xf16>, vector<4xf16>, vector<16xf32>
              scf.yield %68 : vector<16xf32>
            }
            %collapse_shape = memref.collapse_shape %6 [[0, 1]] : memref<100x24xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<2400xf32, #amdgpu.address_space<fat_raw_buffer>>
            %34 = vector.step : vector<1xindex>
            %35 = vector.broadcast %34 : vector<1xindex> to vector<1x4x4x1x1xindex>
            %36 = vector.step : vector<4xindex>
            %37 = vector.broadcast %36 : vector<4xindex> to vector<1x1x4x1x4xindex>
            %38 = vector.transpose %37, [0, 4, 2, 3, 1] : vector<1x1x4x1x4xindex> to vector<1x4x4x1x1xindex>
            %39 = vector.broadcast %36 : vector<4xindex> to vector<1x4x1x1x4xindex>
            %40 = vector.transpose %39, [0, 1, 4, 3, 2] : vector<1x4x1x1x4xindex> to vector<1x4x4x1x1xindex>
            %41 = vector.broadcast %7#0 : index to vector<1x4x4x1x1xindex>
            %42 = arith.addi %35, %41 : vector<1x4x4x1x1xindex>
            %43 = vector.broadcast %11 : index to vector<1x4x4x1x1xindex>
            %44 = arith.addi %40, %43 : vector<1x4x4x1x1xindex>
            %45 = vector.broadcast %10 : index to vector<1xindex>
            %46 = arith.addi %34, %45 : vector<1xindex>
            %47 = arith.muli %42, %cst_0 overflow<nsw> : vector<1x4x4x1x1xindex>
            %48 = arith.muli %38, %cst_1 overflow<nsw> : vector<1x4x4x1x1xindex>
            %49 = arith.addi %47, %48 overflow<nsw> : vector<1x4x4x1x1xindex>
            %50 = arith.addi %49, %44 overflow<nsw> : vector<1x4x4x1x1xindex>
            %51 = arith.cmpi ult, %50, %cst_2 : vector<1x4x4x1x1xindex>
            %52 = arith.cmpi ult, %46, %cst_3 : vector<1xindex>
            %53 = vector.broadcast %52 : vector<1xi1> to vector<1x4x4x1x1xi1>
            %54 = arith.andi %51, %53 : vector<1x4x4x1x1xi1>
            %55 = arith.muli %50, %cst_4 overflow<nsw> : vector<1x4x4x1x1xindex>
            %56 = vector.broadcast %46 : vector<1xindex> to vector<1x4x4x1x1xindex>
            %57 = arith.addi %55, %56 overflow<nsw> : vector<1x4x4x1x1xindex>
            %58 = vector.shape_cast %57 : vector<1x4x4x1x1xindex> to vector<16xindex>
            %59 = vector.shape_cast %54 : vector<1x4x4x1x1xi1> to vector<16xi1>
            vector.scatter %collapse_shape[%c0] [%58], %59, %33 : memref<2400xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_6 : memref<128x8xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<8x32xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

