#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (-s0 + 7, 0)>
#map1 = affine_map<()[s0] -> (4, s0)>
#map2 = affine_map<()[s0] -> (-s0 + 20, 0)>
#map3 = affine_map<()[s0] -> (1, s0)>
#map4 = affine_map<(d0)[s0] -> (d0 + s0)>
#map5 = affine_map<(d0) -> (d0 * 16)>
#map6 = affine_map<(d0) -> (20, d0)>
#map7 = affine_map<(d0) -> (-d0 + 20, 1)>
#map8 = affine_map<(d0) -> (1906, d0 * 128)>
#map9 = affine_map<(d0) -> (-d0 + 1906, 128)>
#map10 = affine_map<(d0)[s0] -> (-d0 + 1906, 128, s0)>
#map11 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map12 = affine_map<()[s0, s1] -> (s0 + s1)>
#map13 = affine_map<(d0, d1) -> (-d0 + 1906, 128, d1 * 16)>
#map14 = affine_map<(d0, d1) -> (16, d0 - d1)>
#map15 = affine_map<()[s0] -> (1, 4, s0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_7x20x1906_f8E5M2xf8E5M2xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_7x20x1906_f8E5M2xf8E5M2xf32() attributes {gpu.known_block_size = array<i32: 128, 1, 1>, translation_info = #translation} {
          %0 = ub.poison : f8E5M2
          %c7 = arith.constant 7 : index
          %c128 = arith.constant 128 : index
          %c15 = arith.constant 15 : index
          %c1 = arith.constant 1 : index
          %cst = arith.constant 0.000000e+00 : f8E5M2
          %c0 = arith.constant 0 : index
          %c16 = arith.constant 16 : index
          %c2 = arith.constant 2 : index
          %c8 = arith.constant 8 : index
          %c24 = arith.constant 24 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<32xf8E5M2>
          %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x136xf8E5M2, #gpu.address_space<workgroup>>
          %alloc_2 = memref.alloc() : memref<128x24xf8E5M2, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x1x1xf32, #gpu.address_space<private>>
          %alloca_3 = memref.alloca() : memref<1x16xf8E5M2, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 128
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1906x7xf8E5M2, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<1906x7xf8E5M2, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<1906x7xf8E5M2, #hal.descriptor_type<storage_buffer>> to memref<1906x7xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<20x1906xf8E5M2, #hal.descriptor_type<storage_buffer>>
          %assume_align_4 = memref.assume_alignment %3, 64 : memref<20x1906xf8E5M2, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<20x1906xf8E5M2, #hal.descriptor_type<storage_buffer>> to memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<7x20xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_5 = memref.assume_alignment %5, 64 : memref<7x20xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<7x20xf32, #hal.descriptor_type<storage_buffer>> to memref<7x20xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (1, 1) {
            %subview = memref.subview %alloc_2[0, 0] [128, 16] [1, 1] : memref<128x24xf8E5M2, #gpu.address_space<workgroup>> to memref<128x16xf8E5M2, strided<[24, 1]>, #gpu.address_space<workgroup>>
            %subview_6 = memref.subview %alloc[0, 0] [32, 128] [1, 1] : memref<32x136xf8E5M2, #gpu.address_space<workgroup>> to memref<32x128xf8E5M2, strided<[136, 1]>, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %7:2 = affine.delinearize_index %thread_id_x into (2, 64) : index, index
            %8:3 = affine.delinearize_index %7#1 into (4, 16) : index, index, index
            %9 = iree_codegen.index_hint %8#1(#iree_gpu.lane_constant<16>) : index
            %10 = iree_codegen.index_hint %8#2(#iree_gpu.lane_increment<16, aligned>) : index
            %11 = affine.linearize_index disjoint [%9, %c0] by (4, 4) : index
            %12 = affine.linearize_index disjoint [%7#0, %10] by (2, 16) : index
            %13 = affine.max #map()[%11]
            %14 = affine.min #map1()[%13]
            %15 = affine.max #map2()[%12]
            %16 = affine.min #map3()[%15]
            %subview_7 = memref.subview %6[%11, %12] [%14, %16] [1, 1] : memref<7x20xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf32, strided<[20, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %17 = affine.linearize_index disjoint [%9, %c0] by (4, 32) : index
            %subview_8 = memref.subview %subview[%thread_id_x, 0] [1, 16] [1, 1] : memref<128x16xf8E5M2, strided<[24, 1]>, #gpu.address_space<workgroup>> to memref<1x16xf8E5M2, strided<[24, 1], offset: ?>, #gpu.address_space<workgroup>>
            %18 = affine.apply #map4(%c0)[%thread_id_x]
            %19:2 = affine.delinearize_index %18 into (32, 8) : index, index
            %20 = affine.apply #map5(%19#1)
            %subview_9 = memref.subview %subview_6[%19#0, %20] [1, 16] [1, 1] : memref<32x128xf8E5M2, strided<[136, 1]>, #gpu.address_space<workgroup>> to memref<1x16xf8E5M2, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
            %21 = affine.min #map6(%19#0)
            %22 = affine.min #map7(%21)
            %23 = affine.apply #map4(%c128)[%thread_id_x]
            %24:2 = affine.delinearize_index %23 into (32, 8) : index, index
            %25 = affine.apply #map5(%24#1)
            %subview_10 = memref.subview %subview_6[%24#0, %25] [1, 16] [1, 1] : memref<32x128xf8E5M2, strided<[136, 1]>, #gpu.address_space<workgroup>> to memref<1x16xf8E5M2, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
            %26 = affine.min #map6(%24#0)
            %27 = affine.min #map7(%26)
            %expand_shape = memref.expand_shape %subview_6 [[0, 1], [2, 3]] output_shape [2, 16, 1, 128] : memref<32x128xf8E5M2, strided<[136, 1]>, #gpu.address_space<workgroup>> into memref<2x16x1x128xf8E5M2, strided<[2176, 136, 128, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_11 = memref.expand_shape %subview [[0, 1], [2, 3]] output_shape [1, 128, 1, 16] : memref<128x16xf8E5M2, strided<[24, 1]>, #gpu.address_space<workgroup>> into memref<1x128x1x16xf8E5M2, strided<[3072, 24, 16, 1]>, #gpu.address_space<workgroup>>
            %28 = gpu.lane_id upper_bound 64
            %29 = arith.remui %28, %c16 : index
            %30 = arith.divui %29, %c2 : index
            %31 = arith.subi %10, %29 : index
            %32 = arith.remui %29, %c2 : index
            %33 = arith.muli %32, %c8 : index
            %34 = arith.addi %31, %33 : index
            %35 = arith.addi %17, %30 : index
            %36 = arith.addi %30, %c8 : index
            %37 = arith.addi %17, %36 : index
            %38 = arith.addi %30, %c16 : index
            %39 = arith.addi %17, %38 : index
            %40 = arith.addi %30, %c24 : index
            %41 = arith.addi %17, %40 : index
            %42 = scf.for %arg2 = %c0 to %c15 step %c1 iter_args(%arg3 = %cst_1) -> (vector<4xf32>) {
              %44 = affine.min #map8(%arg2)
              %45 = affine.min #map9(%44)
              %46 = affine.min #map10(%44)[%thread_id_x]
              %47 = affine.min #map11(%45, %46)
              %48 = affine.apply #map12()[%46, %44]
              %subview_13 = memref.subview %2[%48, 0] [%47, 7] [1, 1] : memref<1906x7xf8E5M2, #amdgpu.address_space<fat_raw_buffer>> to memref<?x7xf8E5M2, strided<[7, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %49 = vector.create_mask %47, %c7 : vector<1x16xi1>
              %50 = vector.transfer_read %subview_13[%c0, %c0], %cst, %49 {in_bounds = [true, true]} : memref<?x7xf8E5M2, strided<[7, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x16xf8E5M2>
              vector.transfer_write %50, %alloca_3[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf8E5M2>, memref<1x16xf8E5M2, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %51 = vector.transfer_read %alloca_3[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x16xf8E5M2, #gpu.address_space<private>>, vector<1x16xf8E5M2>
              vector.transfer_write %51, %subview_8[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf8E5M2>, memref<1x16xf8E5M2, strided<[24, 1], offset: ?>, #gpu.address_space<workgroup>>
              %52 = affine.min #map13(%44, %19#1)
              %53 = affine.min #map14(%45, %52)
              %54 = affine.apply #map12()[%52, %44]
              %subview_14 = memref.subview %4[%21, %54] [%22, %53] [1, 1] : memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf8E5M2, strided<[1906, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %55 = vector.create_mask %22, %53 : vector<1x16xi1>
              %56 = vector.transfer_read %subview_14[%c0, %c0], %cst, %55 {in_bounds = [true, true]} : memref<?x?xf8E5M2, strided<[1906, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x16xf8E5M2>
              vector.transfer_write %56, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf8E5M2>, memref<1x16xf8E5M2, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
              %57 = affine.min #map13(%44, %24#1)
              %58 = affine.min #map14(%45, %57)
              %59 = affine.apply #map12()[%57, %44]
              %subview_15 = memref.subview %4[%26, %59] [%27, %58] [1, 1] : memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf8E5M2, strided<[1906, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %60 = vector.create_mask %27, %58 : vector<1x16xi1>
              %61 = vector.transfer_read %subview_15[%c0, %c0], %cst, %60 {in_bounds = [true, true]} : memref<?x?xf8E5M2, strided<[1906, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x16xf8E5M2>
              vector.transfer_write %61, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf8E5M2>, memref<1x16xf8E5M2, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %62 = amdgpu.transpose_load %expand_shape_11[%c0, %35, %c0, %34] : memref<1x128x1x16xf8E5M2, strided<[3072, 24, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
              %63 = amdgpu.transpose_load %expand_shape_11[%c0, %37, %c0, %34] : memref<1x128x1x16xf8E5M2, strided<[3072, 24, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
              %64 = amdgpu.transpose_load %expand_shape_11[%c0, %39, %c0, %34] : memref<1x128x1x16xf8E5M2, strided<[3072, 24, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
              %65 = amdgpu.transpose_load %expand_shape_11[%c0, %41, %c0, %34] : memref<1x128x1x16xf8E5M2, strided<[3072, 24, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
              %66 = vector.insert_strided_slice %62, %cst_0 offsets = [0], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
              %67 = vector.insert_strided_slice %63, %66 offsets = [8], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
              %68 = vector.insert_strided_slice %64, %67 offsets = [16], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
              %69 = vector.insert_strided_slice %65, %68 offsets = [24], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
              %70 = vector.transfer_read %expand_shape[%7#0, %10, %c0, %17], %0 {in_bounds = [true, true, true, true]} : memref<2x16x1x128xf8E5M2, strided<[2176, 136, 128, 1]>, #gpu.address_space<workgroup>>, vector<1x1x1x32xf8E5M2>
              %71 = vector.shape_cast %70 : vector<1x1x1x32xf8E5M2> to vector<32xf8E5M2>
              %72 = amdgpu.mfma 16x16x128 %69 * %71 + %arg3 : vector<32xf8E5M2>, vector<32xf8E5M2>, vector<4xf32>
              scf.yield %72 : vector<4xf32>
            }
            %43 = vector.shape_cast %42 : vector<4xf32> to vector<1x4x1x1xf32>
            vector.transfer_write %43, %alloca[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x1x1xf32>, memref<1x4x1x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %alloca [[0, 1], [2, 3]] : memref<1x4x1x1xf32, #gpu.address_space<private>> into memref<4x1xf32, #gpu.address_space<private>>
            %subview_12 = memref.subview %collapse_shape[0, 0] [%14, %16] [1, 1] : memref<4x1xf32, #gpu.address_space<private>> to memref<?x?xf32, strided<[1, 1]>, #gpu.address_space<private>>
            scf.for %arg2 = %c0 to %14 step %c1 {
              %44 = arith.cmpi sgt, %16, %c0 : index
              scf.if %44 {
                %45 = affine.min #map15()[%15]
                %subview_13 = memref.subview %subview_12[%arg2, 0] [1, %45] [1, 1] : memref<?x?xf32, strided<[1, 1]>, #gpu.address_space<private>> to memref<1x?xf32, strided<[1, 1], offset: ?>, #gpu.address_space<private>>
                %subview_14 = memref.subview %subview_7[%arg2, 0] [1, %45] [1, 1] : memref<?x?xf32, strided<[20, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xf32, strided<[20, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
                memref.copy %subview_13, %subview_14 {operandSegmentSizes = array<i32: 1, 1>} : memref<1x?xf32, strided<[1, 1], offset: ?>, #gpu.address_space<private>> to memref<1x?xf32, strided<[20, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              }
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_2 : memref<128x24xf8E5M2, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x136xf8E5M2, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_7x20x1906_f8E5M2xf8E5M2xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

