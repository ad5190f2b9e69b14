#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 64)>
#map1 = affine_map<(d0) -> (d0 * -64 + 300, 64)>
#map2 = affine_map<(d0) -> (d0 * -64 + 300, 0, 64)>
#map3 = affine_map<(d0, d1) -> (64, d0 - d1)>
#map4 = affine_map<()[s0] -> (s0 * 8)>
#map5 = affine_map<(d0, d1)[s0] -> (64, s0, d0 - d1)>
#map6 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map7 = affine_map<(d0)[s0, s1] -> (d0 * 64 + s0 + s1)>
#map8 = affine_map<()[s0] -> (s0 * 4)>
#map9 = affine_map<()[s0] -> (s0 * 2)>
#map10 = affine_map<(d0)[s0] -> (d0 + s0)>
#map11 = affine_map<(d0) -> (d0 * 8)>
#map12 = affine_map<(d0) -> (100, d0)>
#map13 = affine_map<(d0) -> (-d0 + 100, 1)>
#map14 = affine_map<(d0) -> (1030, d0 * 32)>
#map15 = affine_map<(d0) -> (-d0 + 1030, 32)>
#map16 = affine_map<(d0)[s0] -> (-d0 + 1030, 32, s0 * 8)>
#map17 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map18 = affine_map<()[s0, s1] -> (s0 + s1)>
#map19 = affine_map<(d0, d1) -> (-d0 + 1030, 32, d1 * 8)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_300x100x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_300x100x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %0 = ub.poison : f16
          %cst = arith.constant dense<0.000000e+00> : vector<2x4x4x1xf32>
          %1 = ub.poison : f32
          %c2 = arith.constant 2 : index
          %c256 = arith.constant 256 : index
          %c33 = arith.constant 33 : index
          %c1 = arith.constant 1 : index
          %cst_0 = arith.constant 0.000000e+00 : f16
          %c0 = arith.constant 0 : index
          %c4 = arith.constant 4 : index
          %cst_1 = arith.constant dense<16> : vector<1x4x4x1xindex>
          %cst_2 = arith.constant dense<100> : vector<1x4x4x1xindex>
          %cst_3 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xf16, #gpu.address_space<workgroup>>
          %alloc_4 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<2048xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x8xf16, #gpu.address_space<private>>
          %alloca_5 = memref.alloca() : memref<2x4x4x1xf32, #gpu.address_space<private>>
          %alloca_6 = memref.alloca() : memref<2x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<300x1030xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %2, 64 : memref<300x1030xf16, #hal.descriptor_type<storage_buffer>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<300x1030xf16, #hal.descriptor_type<storage_buffer>> to memref<300x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<100x1030xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_7 = memref.assume_alignment %4, 64 : memref<100x1030xf16, #hal.descriptor_type<storage_buffer>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<100x1030xf16, #hal.descriptor_type<storage_buffer>> to memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %6 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<300x100xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_8 = memref.assume_alignment %6, 64 : memref<300x100xf32, #hal.descriptor_type<storage_buffer>>
          %7 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<300x100xf32, #hal.descriptor_type<storage_buffer>> to memref<300x100xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (5, 1) {
            %8 = affine.apply #map(%arg0)
            %9 = affine.min #map1(%arg0)
            %10 = affine.min #map2(%arg0)
            %11 = affine.min #map3(%9, %10)
            %expand_shape = memref.expand_shape %alloc_4 [[0, 1]] output_shape [64, 32] : memref<2048xf16, #gpu.address_space<workgroup>> into memref<64x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_9 = memref.expand_shape %alloc [[0, 1]] output_shape [128, 32] : memref<4096xf16, #gpu.address_space<workgroup>> into memref<128x32xf16, #gpu.address_space<workgroup>>
            %subview = memref.subview %7[%8, 0] [%9, 100] [1, 1] : memref<300x100xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<?x100xf32, strided<[100, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %12:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %13:3 = affine.delinearize_index %12#2 into (4, 16) : index, index, index
            %14 = iree_codegen.index_hint %13#1(#iree_gpu.lane_constant<16>) : index
            %15 = iree_codegen.index_hint %13#2(#iree_gpu.lane_increment<16, aligned>) : index
            %16 = affine.linearize_index disjoint [%14, %c0] by (4, 4) : index
            %17:2 = affine.delinearize_index %thread_id_x into (64, 4) : index, index
            %18 = affine.apply #map4()[%17#1]
            %19 = affine.min #map5(%9, %10)[%17#0]
            %20 = affine.min #map6(%11, %19)
            %21 = affine.apply #map7(%arg0)[%19, %10]
            %22 = affine.apply #map8()[%12#1]
            %23 = affine.apply #map9()[%12#0]
            %24 = affine.linearize_index disjoint [%14, %c0] by (4, 8) : index
            %subview_10 = memref.subview %expand_shape[%17#0, %18] [1, 8] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %25 = affine.apply #map10(%c0)[%thread_id_x]
            %26:2 = affine.delinearize_index %25 into (128, 4) : index, index
            %27 = affine.apply #map11(%26#1)
            %subview_11 = memref.subview %expand_shape_9[%26#0, %27] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %28 = affine.min #map12(%26#0)
            %29 = affine.min #map13(%28)
            %30 = affine.apply #map10(%c256)[%thread_id_x]
            %31:2 = affine.delinearize_index %30 into (128, 4) : index, index
            %32 = affine.apply #map11(%31#1)
            %subview_12 = memref.subview %expand_shape_9[%31#0, %32] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %33 = affine.min #map12(%31#0)
            %34 = affine.min #map13(%33)
            %expand_shape_13 = memref.expand_shape %expand_shape_9 [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_14 = memref.expand_shape %expand_shape [[0, 1], [2, 3]] output_shape [4, 16, 1, 32] : memref<64x32xf16, #gpu.address_space<workgroup>> into memref<4x16x1x32xf16, #gpu.address_space<workgroup>>
            %35:8 = scf.for %arg2 = %c0 to %c33 step %c1 iter_args(%arg3 = %cst_3, %arg4 = %cst_3, %arg5 = %cst_3, %arg6 = %cst_3, %arg7 = %cst_3, %arg8 = %cst_3, %arg9 = %cst_3, %arg10 = %cst_3) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %74 = affine.min #map14(%arg2)
              %75 = affine.min #map15(%74)
              %76 = affine.min #map16(%74)[%17#1]
              %77 = affine.min #map17(%75, %76)
              %78 = affine.apply #map18()[%76, %74]
              %subview_15 = memref.subview %3[%21, %78] [%20, %77] [1, 1] : memref<300x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %79 = vector.create_mask %20, %77 : vector<1x8xi1>
              %80 = vector.transfer_read %subview_15[%c0, %c0], %cst_0, %79 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %80, %alloca[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %81 = vector.transfer_read %alloca[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, #gpu.address_space<private>>, vector<1x8xf16>
              vector.transfer_write %81, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %82 = affine.min #map19(%74, %26#1)
              %83 = affine.min #map17(%75, %82)
              %84 = affine.apply #map18()[%82, %74]
              %subview_16 = memref.subview %5[%28, %84] [%29, %83] [1, 1] : memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %85 = vector.create_mask %29, %83 : vector<1x8xi1>
              %86 = vector.transfer_read %subview_16[%c0, %c0], %cst_0, %85 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %86, %subview_11[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %87 = affine.min #map19(%74, %31#1)
              %88 = affine.min #map17(%75, %87)
              %89 = affine.apply #map18()[%87, %74]
              %subview_17 = memref.subview %5[%33, %89] [%34, %88] [1, 1] : memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %90 = vector.create_mask %34, %88 : vector<1x8xi1>
              %91 = vector.transfer_read %subview_17[%c0, %c0], %cst_0, %90 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %91, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %92 = vector.transfer_read %expand_shape_14[%23, %15, %c0, %24], %0 {in_bounds = [true, true, true, true]} : memref<4x16x1x32xf16, #gpu.address_space<workgroup>>, vector<2x1x1x8xf16>
              %93 = vector.transfer_read %expand_shape_13[%22, %15, %c0, %24], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xf16, #gpu.address_space<workgroup>>, vector<4x1x1x8xf16>
              %94 = vector.extract %92[0, 0] : vector<1x8xf16> from vector<2x1x1x8xf16>
              %95 = vector.extract %93[0, 0] : vector<1x8xf16> from vector<4x1x1x8xf16>
              %96 = vector.shape_cast %94 : vector<1x8xf16> to vector<8xf16>
              %97 = vector.shape_cast %95 : vector<1x8xf16> to vector<8xf16>
              %98 = amdgpu.mfma 16x16x32 %96 * %97 + %arg10 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %99 = vector.extract %93[1, 0] : vector<1x8xf16> from vector<4x1x1x8xf16>
              %100 = vector.shape_cast %94 : vector<1x8xf16> to vector<8xf16>
              %101 = vector.shape_cast %99 : vector<1x8xf16> to vector<8xf16>
              %102 = amdgpu.mfma 16x16x32 %100 * %101 + %arg9 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %103 = vector.extract %93[2, 0] : vector<1x8xf16> from vector<4x1x1x8xf16>
              %104 = vector.shape_cast %94 : vector<1x8xf16> to vector<8xf16>
              %105 = vector.shape_cast %103 : vector<1x8xf16> to vector<8xf16>
              %106 = amdgpu.mfma 16x16x32 %104 * %105 + %arg8 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %107 = vector.extract %93[3, 0] : vector<1x8xf16> from vector<4x1x1x8xf16>
              %108 = vector.shape_cast %94 : vector<1x8xf16> to vector<8xf16>
              %109 = vector.shape_cast %107 : vector<1x8xf16> to vector<8xf16>
              %110 = amdgpu.mfma 16x16x32 %108 * %109 + %arg7 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %111 = vector.extract %92[1, 0] : vector<1x8xf16> from vector<2x1x1x8xf16>
              %112 = vector.shape_cast %111 : vector<1x8xf16> to vector<8xf16>
              %113 = vector.shape_cast %95 : vector<1x8xf16> to vector<8xf16>
              %114 = amdgpu.mfma 16x16x32 %112 * %113 + %arg6 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %115 = vector.shape_cast %111 : vector<1x8xf16> to vector<8xf16>
              %116 = vector.shape_cast %99 : vector<1x8xf16> to vector<8xf16>
              %117 = amdgpu.mfma 16x16x32 %115 * %116 + %arg5 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %118 = vector.shape_cast %111 : vector<1x8xf16> to vector<8xf16>
              %119 = vector.shape_cast %103 : vector<1x8xf16> to vector<8xf16>
              %120 = amdgpu.mfma 16x16x32 %118 * %119 + %arg4 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %121 = vector.shape_cast %111 : vector<1x8xf16> to vector<8xf16>
              %122 = vector.shape_cast %107 : vector<1x8xf16> to vector<8xf16>
              %123 = amdgpu.mfma 16x16x32 %121 * %122 + %arg3 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              scf.yield %123, %120, %117, %114, %110, %106, %102, %98 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %36 = vector.shape_cast %35#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %37 = vector.shape_cast %35#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %38 = vector.shape_cast %35#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %39 = vector.shape_cast %35#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %40 = vector.shape_cast %35#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %41 = vector.shape_cast %35#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %42 = vector.shape_cast %35#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %43 = vector.shape_cast %35#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %44 = vector.insert_strided_slice %36, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %45 = vector.insert_strided_slice %37, %44 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %46 = vector.insert_strided_slice %38, %45 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %47 = vector.insert_strided_slice %39, %46 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %48 = vector.insert_strided_slice %40, %47 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %49 = vector.insert_strided_slice %41, %48 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %50 = vector.insert_strided_slice %42, %49 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %51 = vector.insert_strided_slice %43, %50 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            vector.transfer_write %51, %alloca_5[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<2x4x4x1xf32>, memref<2x4x4x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %subview [[0, 1]] : memref<?x100xf32, strided<[100, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> into memref<?xf32, strided<[1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %52 = vector.step : vector<1xindex>
            %53 = vector.broadcast %52 : vector<1xindex> to vector<1x4x4x1xindex>
            %54 = vector.step : vector<4xindex>
            %55 = vector.broadcast %54 : vector<4xindex> to vector<1x1x4x4xindex>
            %56 = vector.transpose %55, [0, 3, 2, 1] : vector<1x1x4x4xindex> to vector<1x4x4x1xindex>
            %57 = vector.broadcast %54 : vector<4xindex> to vector<1x4x1x4xindex>
            %58 = vector.transpose %57, [0, 1, 3, 2] : vector<1x4x1x4xindex> to vector<1x4x4x1xindex>
            %59 = arith.muli %12#0, %c2 overflow<nsw> : index
            %60 = vector.broadcast %59 : index to vector<1x4x4x1xindex>
            %61 = arith.addi %60, %53 : vector<1x4x4x1xindex>
            %62 = vector.broadcast %16 : index to vector<1x4x4x1xindex>
            %63 = arith.addi %56, %62 : vector<1x4x4x1xindex>
            %64 = arith.muli %12#1, %c4 overflow<nsw> : index
            %65 = vector.broadcast %64 : index to vector<1x4x4x1xindex>
            %66 = arith.addi %58, %65 : vector<1x4x4x1xindex>
            %67 = vector.broadcast %15 : index to vector<1xindex>
            %68 = arith.addi %52, %67 : vector<1xindex>
            %69 = arith.muli %66, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
            %70 = vector.broadcast %68 : vector<1xindex> to vector<1x4x4x1xindex>
            %71 = arith.addi %69, %70 overflow<nsw> : vector<1x4x4x1xindex>
            %72 = vector.broadcast %9 : index to vector<1x4x4x1xindex>
            %73 = arith.cmpi ult, %71, %cst_2 : vector<1x4x4x1xindex>
            scf.for %arg2 = %c0 to %c2 step %c1 {
              %subview_15 = memref.subview %alloca_6[%arg2, 0, 0, 0] [1, 4, 4, 1] [1, 1, 1, 1] : memref<2x4x4x1xf32, #gpu.address_space<private>> to memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %74 = vector.transfer_read %alloca_5[%arg2, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<2x4x4x1xf32, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %75 = vector.transpose %74, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>
              vector.transfer_write %75, %subview_15[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x4x1xf32>, memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %76 = vector.transfer_read %subview_15[%c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %77 = vector.broadcast %arg2 : index to vector<1x4x4x1xindex>
              %78 = arith.addi %61, %77 : vector<1x4x4x1xindex>
              %79 = arith.muli %78, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
              %80 = arith.addi %79, %63 overflow<nsw> : vector<1x4x4x1xindex>
              %81 = arith.cmpi ult, %80, %72 : vector<1x4x4x1xindex>
              %82 = arith.andi %81, %73 : vector<1x4x4x1xi1>
              %83 = arith.muli %80, %cst_2 overflow<nsw> : vector<1x4x4x1xindex>
              %84 = arith.addi %83, %71 overflow<nsw> : vector<1x4x4x1xindex>
              %85 = vector.shape_cast %84 : vector<1x4x4x1xindex> to vector<16xindex>
              %86 = vector.shape_cast %82 : vector<1x4x4x1xi1> to vector<16xi1>
              %87 = vector.shape_cast %76 : vector<1x4x4x1xf32> to vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%85], %86, %87 : memref<?xf32, strided<[1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_4 : memref<2048xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_300x100x1030_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

