#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 32)>
#map1 = affine_map<(d0) -> (d0 * 16)>
#map2 = affine_map<(d0) -> (d0 * -16 + 1000, 16)>
#map3 = affine_map<(d0) -> (d0 * -32 + 600, 32)>
#map4 = affine_map<(d0) -> (d0 * -16 + 1000, 0, 16)>
#map5 = affine_map<(d0, d1) -> (16, d0 - d1)>
#map6 = affine_map<(d0) -> (d0 * -32 + 600, 0, 32)>
#map7 = affine_map<(d0, d1) -> (32, d0 - d1)>
#map8 = affine_map<(d0)[s0] -> (0, d0 - s0)>
#map9 = affine_map<(d0) -> (4, d0)>
#map10 = affine_map<(d0) -> (1, d0)>
#map11 = affine_map<()[s0] -> (s0 * 4)>
#map12 = affine_map<(d0, d1)[s0] -> (16, s0 * 4, d0 - d1)>
#map13 = affine_map<(d0, d1) -> (4, d0 - d1)>
#map14 = affine_map<(d0)[s0, s1] -> (d0 * 16 + s0 + s1)>
#map15 = affine_map<()[s0] -> (s0 * 8)>
#map16 = affine_map<(d0, d1)[s0] -> (32, s0 * 8, d0 - d1)>
#map17 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map18 = affine_map<(d0)[s0, s1] -> (d0 * 32 + s0 + s1)>
#map19 = affine_map<(d0) -> (1030, d0 * 32)>
#map20 = affine_map<(d0) -> (-d0 + 1030, 32)>
#map21 = affine_map<(d0)[s0] -> (-d0 + 1030, 32, s0)>
#map22 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map23 = affine_map<()[s0, s1] -> (s0 + s1)>
#map24 = affine_map<(d0) -> (1, 4, d0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_1000x600x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_1000x600x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 128, 1, 1>, translation_info = #translation} {
          %cst = arith.constant dense<0.000000e+00> : vector<1x8xf16>
          %cst_0 = arith.constant dense<0.000000e+00> : vector<1x4xf16>
          %c8 = arith.constant 8 : index
          %c4 = arith.constant 4 : index
          %0 = ub.poison : f16
          %c33 = arith.constant 33 : index
          %c1 = arith.constant 1 : index
          %cst_1 = arith.constant 0.000000e+00 : f16
          %c0 = arith.constant 0 : index
          %c16 = arith.constant 16 : index
          %cst_2 = arith.constant dense<0.000000e+00> : vector<8xf16>
          %cst_3 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x36xf16, #gpu.address_space<workgroup>>
          %alloc_4 = memref.alloc() : memref<32x20xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x1x1xf32, #gpu.address_space<private>>
          %alloca_5 = memref.alloca() : memref<1x8xf16, #gpu.address_space<private>>
          %alloca_6 = memref.alloca() : memref<1x4xf16, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 128
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1030x1000xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<1030x1000xf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<1030x1000xf16, #hal.descriptor_type<storage_buffer>> to memref<1030x1000xf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1030x600xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_7 = memref.assume_alignment %3, 64 : memref<1030x600xf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<1030x600xf16, #hal.descriptor_type<storage_buffer>> to memref<1030x600xf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<1000x600xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_8 = memref.assume_alignment %5, 64 : memref<1000x600xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<1000x600xf32, #hal.descriptor_type<storage_buffer>> to memref<1000x600xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (63, 19) {
            %7 = affine.apply #map(%arg1)
            %8 = affine.apply #map1(%arg0)
            %9 = affine.min #map2(%arg0)
            %10 = affine.min #map3(%arg1)
            %11 = affine.min #map4(%arg0)
            %12 = affine.min #map5(%9, %11)
            %subview = memref.subview %alloc_4[0, 0] [32, 16] [1, 1] : memref<32x20xf16, #gpu.address_space<workgroup>> to memref<32x16xf16, strided<[20, 1]>, #gpu.address_space<workgroup>>
            %13 = affine.min #map6(%arg1)
            %14 = affine.min #map7(%10, %13)
            %subview_9 = memref.subview %alloc[0, 0] [32, 32] [1, 1] : memref<32x36xf16, #gpu.address_space<workgroup>> to memref<32x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
            %subview_10 = memref.subview %6[%8, %7] [%9, %10] [1, 1] : memref<1000x600xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf32, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %15:2 = affine.delinearize_index %thread_id_x into (2, 64) : index, index
            %16:3 = affine.delinearize_index %15#1 into (4, 16) : index, index, index
            %17 = iree_codegen.index_hint %16#1(#iree_gpu.lane_constant<16>) : index
            %18 = iree_codegen.index_hint %16#2(#iree_gpu.lane_increment<16, aligned>) : index
            %19 = affine.linearize_index disjoint [%17, %c0] by (4, 4) : index
            %20 = affine.linearize_index disjoint [%15#0, %18] by (2, 16) : index
            %21 = affine.max #map8(%9)[%19]
            %22 = affine.min #map9(%21)
            %23 = affine.max #map8(%10)[%20]
            %24 = affine.min #map10(%23)
            %25:2 = affine.delinearize_index %thread_id_x into (32, 4) : index, index
            %26 = affine.apply #map11()[%25#1]
            %27 = affine.min #map12(%9, %11)[%25#1]
            %28 = affine.min #map13(%12, %27)
            %29 = affine.apply #map14(%arg0)[%27, %11]
            %30 = affine.apply #map15()[%25#1]
            %31 = affine.min #map16(%10, %13)[%25#1]
            %32 = affine.min #map17(%14, %31)
            %33 = affine.apply #map18(%arg1)[%31, %13]
            %34 = affine.linearize_index disjoint [%17, %c0] by (4, 8) : index
            %35 = arith.cmpi eq, %28, %c4 : index
            %36 = arith.cmpi eq, %32, %c8 : index
            %subview_11 = memref.subview %subview[%25#0, %26] [1, 4] [1, 1] : memref<32x16xf16, strided<[20, 1]>, #gpu.address_space<workgroup>> to memref<1x4xf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_12 = memref.subview %subview_9[%25#0, %30] [1, 8] [1, 1] : memref<32x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
            %expand_shape = memref.expand_shape %subview_9 [[0, 1], [2, 3]] output_shape [1, 32, 2, 16] : memref<32x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> into memref<1x32x2x16xf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_13 = memref.expand_shape %subview [[0, 1], [2, 3]] output_shape [1, 32, 1, 16] : memref<32x16xf16, strided<[20, 1]>, #gpu.address_space<workgroup>> into memref<1x32x1x16xf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>>
            %37 = gpu.lane_id upper_bound 64
            %38 = arith.remui %37, %c16 : index
            %39 = arith.divui %38, %c4 : index
            %40 = arith.subi %18, %38 : index
            %41 = arith.remui %38, %c4 : index
            %42 = arith.muli %41, %c4 : index
            %43 = arith.addi %40, %42 : index
            %44 = arith.addi %34, %39 : index
            %45 = arith.addi %39, %c4 : index
            %46 = arith.addi %34, %45 : index
            %47 = gpu.lane_id upper_bound 64
            %48 = arith.remui %47, %c16 : index
            %49 = arith.divui %48, %c4 : index
            %50 = arith.subi %18, %48 : index
            %51 = arith.remui %48, %c4 : index
            %52 = arith.muli %51, %c4 : index
            %53 = arith.addi %50, %52 : index
            %54 = arith.addi %34, %49 : index
            %55 = arith.addi %49, %c4 : index
            %56 = arith.addi %34, %55 : index
            %57 = scf.for %arg2 = %c0 to %c33 step %c1 iter_args(%arg3 = %cst_3) -> (vector<4xf32>) {
              %59 = affine.min #map19(%arg2)
              %60 = affine.min #map20(%59)
              %61 = affine.min #map21(%59)[%25#0]
              %62 = affine.min #map22(%60, %61)
              %63 = affine.apply #map23()[%61, %59]
              %subview_16 = memref.subview %4[%63, %33] [%62, %32] [1, 1] : memref<1030x600xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %subview_17 = memref.subview %2[%63, %29] [%62, %28] [1, 1] : memref<1030x1000xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1000, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %64 = arith.index_castui %62 : index to i1
              %65 = arith.andi %64, %35 : i1
              %66 = vector.transfer_read %subview_17[%c0, %c0], %cst_1 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1000, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x4xf16>
              %67 = arith.select %65, %66, %cst_0 : vector<1x4xf16>
              vector.transfer_write %67, %alloca_6[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf16>, memref<1x4xf16, #gpu.address_space<private>>
              %68 = arith.andi %64, %36 : i1
              %69 = vector.transfer_read %subview_16[%c0, %c0], %cst_1 {in_bounds = [true, true]} : memref<?x?xf16, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              %70 = arith.select %68, %69, %cst : vector<1x8xf16>
              vector.transfer_write %70, %alloca_5[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %71 = vector.transfer_read %alloca_6[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x4xf16, #gpu.address_space<private>>, vector<1x4xf16>
              vector.transfer_write %71, %subview_11[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf16>, memref<1x4xf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
              %72 = vector.transfer_read %alloca_5[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, #gpu.address_space<private>>, vector<1x8xf16>
              vector.transfer_write %72, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %73 = amdgpu.transpose_load %expand_shape_13[%c0, %44, %c0, %43] : memref<1x32x1x16xf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xf16>
              %74 = amdgpu.transpose_load %expand_shape_13[%c0, %46, %c0, %43] : memref<1x32x1x16xf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xf16>
              %75 = vector.insert_strided_slice %73, %cst_2 offsets = [0], strides = [1] : vector<4xf16> into vector<8xf16>
              %76 = vector.insert_strided_slice %74, %75 offsets = [4], strides = [1] : vector<4xf16> into vector<8xf16>
              %77 = amdgpu.transpose_load %expand_shape[%c0, %54, %15#0, %53] : memref<1x32x2x16xf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xf16>
              %78 = amdgpu.transpose_load %expand_shape[%c0, %56, %15#0, %53] : memref<1x32x2x16xf16, strided<[1152, 36, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xf16>
              %79 = vector.insert_strided_slice %77, %cst_2 offsets = [0], strides = [1] : vector<4xf16> into vector<8xf16>
              %80 = vector.insert_strided_slice %78, %79 offsets = [4], strides = [1] : vector<4xf16> into vector<8xf16>
              %81 = amdgpu.mfma 16x16x32 %76 * %80 + %arg3 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              scf.yield %81 : vector<4xf32>
            }
            %58 = vector.shape_cast %57 : vector<4xf32> to vector<1x4x1x1xf32>
            vector.transfer_write %58, %alloca[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x1x1xf32>, memref<1x4x1x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %alloca [[0, 1], [2, 3]] : memref<1x4x1x1xf32, #gpu.address_space<private>> into memref<4x1xf32, #gpu.address_space<private>>
            %subview_14 = memref.subview %collapse_shape[0, 0] [%22, %24] [1, 1] : memref<4x1xf32, #gpu.address_space<private>> to memref<?x?xf32, strided<[1, 1]>, #gpu.address_space<private>>
            %subview_15 = memref.subview %subview_10[%19, %20] [%22, %24] [1, 1] : memref<?x?xf32, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf32, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            scf.for %arg2 = %c0 to %22 step %c1 {
              %59 = arith.cmpi sgt, %24, %c0 : index
              scf.if %59 {
                %60 = affine.min #map24(%23)
                %subview_16 = memref.subview %subview_14[%arg2, 0] [1, %60] [1, 1] : memref<?x?xf32, strided<[1, 1]>, #gpu.address_space<private>> to memref<1x?xf32, strided<[1, 1], offset: ?>, #gpu.address_space<private>>
                %subview_17 = memref.subview %subview_15[%arg2, 0] [1, %60] [1, 1] : memref<?x?xf32, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xf32, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
                memref.copy %subview_16, %subview_17 {operandSegmentSizes = array<i32: 1, 1>} : memref<1x?xf32, strided<[1, 1], offset: ?>, #gpu.address_space<private>> to memref<1x?xf32, strided<[600, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              }
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_4 : memref<32x20xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x36xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_1000x600x1030_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

