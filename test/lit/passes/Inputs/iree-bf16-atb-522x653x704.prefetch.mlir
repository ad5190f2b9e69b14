#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 16)>
#map1 = affine_map<(d0) -> (d0 * -16 + 522, 16)>
#map2 = affine_map<(d0) -> (d0 * -16 + 653, 16)>
#map3 = affine_map<(d0) -> (d0 * -16 + 522, 0, 16)>
#map4 = affine_map<(d0, d1) -> (16, d0 - d1)>
#map5 = affine_map<(d0) -> (d0 * -16 + 653, 0, 16)>
#map6 = affine_map<(d0)[s0] -> (0, d0 - s0)>
#map7 = affine_map<(d0) -> (4, d0)>
#map8 = affine_map<(d0) -> (1, d0)>
#map9 = affine_map<(d0)[s0] -> (d0 + s0)>
#map10 = affine_map<(d0) -> (d0 * 8)>
#map11 = affine_map<(d0, d1, d2) -> (16, d2 * 8, d0 - d1)>
#map12 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map13 = affine_map<(d0)[s0, s1] -> (d0 * 16 + s0 + s1)>
#map14 = affine_map<(d0)[s0] -> (d0 * 32 + s0)>
#map15 = affine_map<(d0) -> (1, 4, d0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_522x653x704_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_522x653x704_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 64, 1, 1>, translation_info = #translation} {
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c2 = arith.constant 2 : index
          %c22 = arith.constant 22 : index
          %cst = arith.constant 0.000000e+00 : bf16
          %c0 = arith.constant 0 : index
          %c16 = arith.constant 16 : index
          %c4 = arith.constant 4 : index
          %c8 = arith.constant 8 : index
          %c12 = arith.constant 12 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<16xbf16>
          %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<64x20xbf16, #gpu.address_space<workgroup>>
          %alloc_2 = memref.alloc() : memref<64x20xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x1x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 64
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<704x522xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %0, 64 : memref<704x522xbf16, #hal.descriptor_type<storage_buffer>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<704x522xbf16, #hal.descriptor_type<storage_buffer>> to memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<704x653xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_3 = memref.assume_alignment %2, 64 : memref<704x653xbf16, #hal.descriptor_type<storage_buffer>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_3 resetOffset : memref<704x653xbf16, #hal.descriptor_type<storage_buffer>> to memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<522x653xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_4 = memref.assume_alignment %4, 64 : memref<522x653xf32, #hal.descriptor_type<storage_buffer>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<522x653xf32, #hal.descriptor_type<storage_buffer>> to memref<522x653xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (33, 41) {
            %6 = affine.apply #map(%arg1)
            %7 = affine.apply #map(%arg0)
            %8 = affine.min #map1(%arg0)
            %9 = affine.min #map2(%arg1)
            %10 = affine.min #map3(%arg0)
            %11 = affine.min #map4(%8, %10)
            %subview = memref.subview %alloc_2[0, 0] [64, 16] [1, 1] : memref<64x20xbf16, #gpu.address_space<workgroup>> to memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>>
            %subview_5 = memref.subview %alloc[0, 0] [64, 16] [1, 1] : memref<64x20xbf16, #gpu.address_space<workgroup>> to memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>>
            %12 = affine.min #map5(%arg1)
            %13 = affine.min #map4(%9, %12)
            %subview_6 = memref.subview %5[%7, %6] [%8, %9] [1, 1] : memref<522x653xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf32, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %14:3 = affine.delinearize_index %thread_id_x into (4, 16) : index, index, index
            %15 = iree_codegen.index_hint %14#1(#iree_gpu.lane_constant<16>) : index
            %16 = iree_codegen.index_hint %14#2(#iree_gpu.lane_increment<16, aligned>) : index
            %17 = affine.linearize_index disjoint [%15, %c0] by (4, 4) : index
            %18 = affine.max #map6(%8)[%17]
            %19 = affine.min #map7(%18)
            %20 = affine.max #map6(%9)[%16]
            %21 = affine.min #map8(%20)
            %22 = affine.linearize_index disjoint [%15, %c0] by (4, 8) : index
            %23 = affine.apply #map9(%c0)[%thread_id_x]
            %24:2 = affine.delinearize_index %23 into (64, 2) : index, index
            %25 = affine.apply #map10(%24#1)
            %subview_7 = memref.subview %subview_5[%24#0, %25] [1, 8] [1, 1] : memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
            %26 = affine.min #map11(%8, %10, %24#1)
            %27 = affine.min #map12(%11, %26)
            %28 = affine.apply #map13(%arg0)[%26, %10]
            %29 = vector.create_mask %c1, %27 : vector<1x8xi1>
            %30 = affine.apply #map9(%c64)[%thread_id_x]
            %31:2 = affine.delinearize_index %30 into (64, 2) : index, index
            %32 = affine.apply #map10(%31#1)
            %subview_8 = memref.subview %subview_5[%31#0, %32] [1, 8] [1, 1] : memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
            %33 = affine.min #map11(%8, %10, %31#1)
            %34 = affine.min #map12(%11, %33)
            %35 = affine.apply #map13(%arg0)[%33, %10]
            %36 = vector.create_mask %c1, %34 : vector<1x8xi1>
            %37 = affine.apply #map9(%c0)[%thread_id_x]
            %38:2 = affine.delinearize_index %37 into (64, 2) : index, index
            %39 = affine.apply #map10(%38#1)
            %subview_9 = memref.subview %subview[%38#0, %39] [1, 8] [1, 1] : memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
            %40 = affine.min #map11(%9, %12, %38#1)
            %41 = affine.min #map12(%13, %40)
            %42 = affine.apply #map13(%arg1)[%40, %12]
            %43 = vector.create_mask %c1, %41 : vector<1x8xi1>
            %44 = affine.apply #map9(%c64)[%thread_id_x]
            %45:2 = affine.delinearize_index %44 into (64, 2) : index, index
            %46 = affine.apply #map10(%45#1)
            %subview_10 = memref.subview %subview[%45#0, %46] [1, 8] [1, 1] : memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
            %47 = affine.min #map11(%9, %12, %45#1)
            %48 = affine.min #map12(%13, %47)
            %49 = affine.apply #map13(%arg1)[%47, %12]
            %50 = vector.create_mask %c1, %48 : vector<1x8xi1>
            %expand_shape = memref.expand_shape %subview [[0, 1], [2, 3]] output_shape [2, 32, 1, 16] : memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>> into memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_11 = memref.expand_shape %subview_5 [[0, 1], [2, 3]] output_shape [2, 32, 1, 16] : memref<64x16xbf16, strided<[20, 1]>, #gpu.address_space<workgroup>> into memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>>
            %51 = gpu.lane_id upper_bound 64
            %52 = arith.remui %51, %c16 : index
            %53 = arith.divui %52, %c4 : index
            %54 = arith.subi %16, %52 : index
            %55 = arith.remui %52, %c4 : index
            %56 = arith.muli %55, %c4 : index
            %57 = arith.addi %54, %56 : index
            %58:2 = affine.delinearize_index %53 into (2, 8) : index, index
            %59 = arith.addi %22, %58#1 : index
            %60 = arith.addi %53, %c4 : index
            %61:2 = affine.delinearize_index %60 into (2, 8) : index, index
            %62 = arith.addi %22, %61#1 : index
            %63 = arith.addi %53, %c8 : index
            %64:2 = affine.delinearize_index %63 into (2, 8) : index, index
            %65 = arith.addi %22, %64#1 : index
            %66 = arith.addi %53, %c12 : index
            %67:2 = affine.delinearize_index %66 into (2, 8) : index, index
            %68 = arith.addi %22, %67#1 : index
            %69 = gpu.lane_id upper_bound 64
            %70 = arith.remui %69, %c16 : index
            %71 = arith.divui %70, %c4 : index
            %72 = arith.subi %16, %70 : index
            %73 = arith.remui %70, %c4 : index
            %74 = arith.muli %73, %c4 : index
            %75 = arith.addi %72, %74 : index
            %76:2 = affine.delinearize_index %71 into (2, 8) : index, index
            %77 = arith.addi %22, %76#1 : index
            %78 = arith.addi %71, %c4 : index
            %79:2 = affine.delinearize_index %78 into (2, 8) : index, index
            %80 = arith.addi %22, %79#1 : index
            %81 = arith.addi %71, %c8 : index
            %82:2 = affine.delinearize_index %81 into (2, 8) : index, index
            %83 = arith.addi %22, %82#1 : index
            %84 = arith.addi %71, %c12 : index
            %85:2 = affine.delinearize_index %84 into (2, 8) : index, index
            %86 = arith.addi %22, %85#1 : index
            %87 = scf.for %arg2 = %c0 to %c22 step %c2 iter_args(%arg3 = %cst_1) -> (vector<4xf32>) {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %89 = affine.apply #map14(%arg2)[%24#0]
              %subview_14 = memref.subview %1[%89, %28] [1, %27] [1, 1] : memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[522, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %90 = vector.transfer_read %subview_14[%c0, %c0], %cst, %29 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[522, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %90, %subview_7[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
              %91 = affine.apply #map14(%arg2)[%31#0]
              %subview_15 = memref.subview %1[%91, %35] [1, %34] [1, 1] : memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[522, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %92 = vector.transfer_read %subview_15[%c0, %c0], %cst, %36 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[522, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %92, %subview_8[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
              %93 = affine.apply #map14(%arg2)[%38#0]
              %subview_16 = memref.subview %3[%93, %42] [1, %41] [1, 1] : memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %94 = vector.transfer_read %subview_16[%c0, %c0], %cst, %43 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %94, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
              %95 = affine.apply #map14(%arg2)[%45#0]
              %subview_17 = memref.subview %3[%95, %49] [1, %48] [1, 1] : memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %96 = vector.transfer_read %subview_17[%c0, %c0], %cst, %50 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %96, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %97 = amdgpu.transpose_load %expand_shape_11[%58#0, %59, %c0, %57] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %98 = amdgpu.transpose_load %expand_shape_11[%61#0, %62, %c0, %57] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %99 = amdgpu.transpose_load %expand_shape_11[%64#0, %65, %c0, %57] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %100 = amdgpu.transpose_load %expand_shape_11[%67#0, %68, %c0, %57] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %101 = vector.insert_strided_slice %97, %cst_0 offsets = [0], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %102 = vector.insert_strided_slice %98, %101 offsets = [4], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %103 = vector.insert_strided_slice %99, %102 offsets = [8], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %104 = vector.insert_strided_slice %100, %103 offsets = [12], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %105 = vector.shape_cast %104 : vector<16xbf16> to vector<2x8x1x1xbf16>
              %106 = vector.transpose %105, [0, 2, 3, 1] : vector<2x8x1x1xbf16> to vector<2x1x1x8xbf16>
              %107 = amdgpu.transpose_load %expand_shape[%76#0, %77, %c0, %75] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %108 = amdgpu.transpose_load %expand_shape[%79#0, %80, %c0, %75] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %109 = amdgpu.transpose_load %expand_shape[%82#0, %83, %c0, %75] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %110 = amdgpu.transpose_load %expand_shape[%85#0, %86, %c0, %75] : memref<2x32x1x16xbf16, strided<[640, 20, 16, 1]>, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %111 = vector.insert_strided_slice %107, %cst_0 offsets = [0], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %112 = vector.insert_strided_slice %108, %111 offsets = [4], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %113 = vector.insert_strided_slice %109, %112 offsets = [8], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %114 = vector.insert_strided_slice %110, %113 offsets = [12], strides = [1] : vector<4xbf16> into vector<16xbf16>
              %115 = vector.shape_cast %114 : vector<16xbf16> to vector<2x8x1x1xbf16>
              %116 = vector.transpose %115, [0, 2, 3, 1] : vector<2x8x1x1xbf16> to vector<2x1x1x8xbf16>
              %117 = vector.extract %106[0, 0] : vector<1x8xbf16> from vector<2x1x1x8xbf16>
              %118 = vector.extract %116[0, 0] : vector<1x8xbf16> from vector<2x1x1x8xbf16>
              %119 = vector.shape_cast %117 : vector<1x8xbf16> to vector<8xbf16>
              %120 = vector.shape_cast %118 : vector<1x8xbf16> to vector<8xbf16>
              %121 = amdgpu.mfma 16x16x32 %119 * %120 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %122 = vector.extract %106[1, 0] : vector<1x8xbf16> from vector<2x1x1x8xbf16>
              %123 = vector.extract %116[1, 0] : vector<1x8xbf16> from vector<2x1x1x8xbf16>
              %124 = vector.shape_cast %122 : vector<1x8xbf16> to vector<8xbf16>
              %125 = vector.shape_cast %123 : vector<1x8xbf16> to vector<8xbf16>
              %126 = amdgpu.mfma 16x16x32 %124 * %125 + %121 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %126 : vector<4xf32>
            }
            %88 = vector.shape_cast %87 : vector<4xf32> to vector<1x4x1x1xf32>
            vector.transfer_write %88, %alloca[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x1x1xf32>, memref<1x4x1x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %alloca [[0, 1], [2, 3]] : memref<1x4x1x1xf32, #gpu.address_space<private>> into memref<4x1xf32, #gpu.address_space<private>>
            %subview_12 = memref.subview %collapse_shape[0, 0] [%19, %21] [1, 1] : memref<4x1xf32, #gpu.address_space<private>> to memref<?x?xf32, strided<[1, 1]>, #gpu.address_space<private>>
            %subview_13 = memref.subview %subview_6[%17, %16] [%19, %21] [1, 1] : memref<?x?xf32, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf32, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            scf.for %arg2 = %c0 to %19 step %c1 {
              %89 = arith.cmpi sgt, %21, %c0 : index
              scf.if %89 {
                %90 = affine.min #map15(%20)
                %subview_14 = memref.subview %subview_12[%arg2, 0] [1, %90] [1, 1] : memref<?x?xf32, strided<[1, 1]>, #gpu.address_space<private>> to memref<1x?xf32, strided<[1, 1], offset: ?>, #gpu.address_space<private>>
                %subview_15 = memref.subview %subview_13[%arg2, 0] [1, %90] [1, 1] : memref<?x?xf32, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xf32, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
                memref.copy %subview_14, %subview_15 {operandSegmentSizes = array<i32: 1, 1>} : memref<1x?xf32, strided<[1, 1], offset: ?>, #gpu.address_space<private>> to memref<1x?xf32, strided<[653, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              }
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_2 : memref<64x20xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<64x20xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_522x653x704_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

