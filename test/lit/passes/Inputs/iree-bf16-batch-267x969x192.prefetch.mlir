#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 128)>
#map1 = affine_map<(d0) -> (d0 * 64)>
#map2 = affine_map<(d0) -> (d0 * -64 + 267, 64)>
#map3 = affine_map<(d0) -> (d0 * -128 + 969, 128)>
#map4 = affine_map<(d0) -> (d0 * -64 + 267, 0, 64)>
#map5 = affine_map<(d0, d1) -> (64, d0 - d1)>
#map6 = affine_map<(d0) -> (d0 * -128 + 969, 0, 128)>
#map7 = affine_map<(d0, d1) -> (128, d0 - d1)>
#map8 = affine_map<()[s0] -> (s0 * 4)>
#map9 = affine_map<()[s0] -> (s0 * 2)>
#map10 = affine_map<(d0)[s0] -> (d0 + s0)>
#map11 = affine_map<(d0) -> (d0 * 8)>
#map12 = affine_map<(d0, d1, d2) -> (64, d1 - d2, d0)>
#map13 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map14 = affine_map<(d0)[s0, s1] -> (d0 * 64 + s0 + s1)>
#map15 = affine_map<(d0, d1, d2) -> (128, d1 - d2, d0)>
#map16 = affine_map<(d0)[s0, s1] -> (d0 * 128 + s0 + s1)>
#map17 = affine_map<(d0, d1) -> (d0 * 32 + d1 * 8)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 4, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_batch_matmul_2x267x969x192_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_batch_matmul_2x267x969x192_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %cst = arith.constant dense<0.000000e+00> : vector<1x1x8xbf16>
          %0 = ub.poison : bf16
          %cst_0 = arith.constant dense<0.000000e+00> : vector<1x2x4x4x1xf32>
          %1 = ub.poison : f32
          %c1 = arith.constant 1 : index
          %c256 = arith.constant 256 : index
          %c2 = arith.constant 2 : index
          %c6 = arith.constant 6 : index
          %cst_1 = arith.constant 0.000000e+00 : bf16
          %c0 = arith.constant 0 : index
          %c4 = arith.constant 4 : index
          %cst_2 = arith.constant dense<16> : vector<1x1x4x4x1xindex>
          %cst_3 = arith.constant dense<1> : vector<1x1x4x4x1xindex>
          %cst_4 = arith.constant dense<258723> : vector<1x1x4x4x1xindex>
          %cst_5 = arith.constant dense<969> : vector<1x1x4x4x1xindex>
          %cst_6 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %c512 = arith.constant 512 : index
          %c768 = arith.constant 768 : index
          %alloc = memref.alloc() : memref<1x128x68xbf16, #gpu.address_space<workgroup>>
          %alloc_7 = memref.alloc() : memref<1x64x68xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          %alloca_8 = memref.alloca() : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x267x192xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %2, 64 : memref<2x267x192xbf16, #hal.descriptor_type<storage_buffer>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2x267x192xbf16, #hal.descriptor_type<storage_buffer>> to memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x969x192xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_9 = memref.assume_alignment %4, 64 : memref<2x969x192xbf16, #hal.descriptor_type<storage_buffer>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_9 resetOffset : memref<2x969x192xbf16, #hal.descriptor_type<storage_buffer>> to memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %6 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2x267x969xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_10 = memref.assume_alignment %6, 64 : memref<2x267x969xf32, #hal.descriptor_type<storage_buffer>>
          %7 = amdgpu.fat_raw_buffer_cast %assume_align_10 resetOffset : memref<2x267x969xf32, #hal.descriptor_type<storage_buffer>> to memref<2x267x969xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1, %arg2) in (2, 5, 8) {
            %8 = affine.apply #map(%arg2)
            %9 = affine.apply #map1(%arg1)
            %10 = affine.min #map2(%arg1)
            %11 = affine.min #map3(%arg2)
            %12 = affine.min #map4(%arg1)
            %13 = affine.min #map5(%10, %12)
            %subview = memref.subview %alloc_7[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<1x64x68xbf16, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, strided<[4352, 68, 1]>, #gpu.address_space<workgroup>>
            %14 = affine.min #map6(%arg2)
            %15 = affine.min #map7(%11, %14)
            %subview_11 = memref.subview %alloc[0, 0, 0] [1, 128, 64] [1, 1, 1] : memref<1x128x68xbf16, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %16:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %17:3 = affine.delinearize_index %16#2 into (4, 16) : index, index, index
            %18 = iree_codegen.index_hint %17#1(#iree_gpu.lane_constant<16>) : index
            %19 = iree_codegen.index_hint %17#2(#iree_gpu.lane_increment<16, aligned>) : index
            %20 = affine.linearize_index disjoint [%18, %c0] by (4, 4) : index
            %21 = affine.apply #map8()[%16#1]
            %22 = affine.apply #map9()[%16#0]
            %23 = affine.linearize_index disjoint [%18, %c0] by (4, 8) : index
            %24 = affine.apply #map10(%c0)[%thread_id_x]
            %25:2 = affine.delinearize_index %24 into (64, 8) : index, index
            %26 = affine.apply #map11(%25#1)
            %subview_12 = memref.subview %subview[0, %25#0, %26] [1, 1, 8] [1, 1, 1] : memref<1x64x64xbf16, strided<[4352, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xbf16, strided<[4352, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
            %27 = affine.min #map12(%25#0, %10, %12)
            %28 = affine.min #map13(%13, %27)
            %29 = affine.apply #map14(%arg1)[%27, %12]
            %30 = arith.index_castui %28 : index to i1
            %31 = affine.apply #map10(%c256)[%thread_id_x]
            %32:2 = affine.delinearize_index %31 into (64, 8) : index, index
            %33 = affine.apply #map11(%32#1)
            %subview_13 = memref.subview %subview[0, %32#0, %33] [1, 1, 8] [1, 1, 1] : memref<1x64x64xbf16, strided<[4352, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xbf16, strided<[4352, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
            %34 = affine.min #map12(%32#0, %10, %12)
            %35 = affine.min #map13(%13, %34)
            %36 = affine.apply #map14(%arg1)[%34, %12]
            %37 = arith.index_castui %35 : index to i1
            %38 = affine.apply #map10(%c0)[%thread_id_x]
            %39:2 = affine.delinearize_index %38 into (128, 8) : index, index
            %40 = affine.apply #map11(%39#1)
            %subview_14 = memref.subview %subview_11[0, %39#0, %40] [1, 1, 8] [1, 1, 1] : memref<1x128x64xbf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
            %41 = affine.min #map15(%39#0, %11, %14)
            %42 = affine.min #map13(%15, %41)
            %43 = affine.apply #map16(%arg2)[%41, %14]
            %44 = arith.index_castui %42 : index to i1
            %45 = affine.apply #map10(%c256)[%thread_id_x]
            %46:2 = affine.delinearize_index %45 into (128, 8) : index, index
            %47 = affine.apply #map11(%46#1)
            %subview_15 = memref.subview %subview_11[0, %46#0, %47] [1, 1, 8] [1, 1, 1] : memref<1x128x64xbf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
            %48 = affine.min #map15(%46#0, %11, %14)
            %49 = affine.min #map13(%15, %48)
            %50 = affine.apply #map16(%arg2)[%48, %14]
            %51 = arith.index_castui %49 : index to i1
            %52 = affine.apply #map10(%c512)[%thread_id_x]
            %53:2 = affine.delinearize_index %52 into (128, 8) : index, index
            %54 = affine.apply #map11(%53#1)
            %subview_16 = memref.subview %subview_11[0, %53#0, %54] [1, 1, 8] [1, 1, 1] : memref<1x128x64xbf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
            %55 = affine.min #map15(%53#0, %11, %14)
            %56 = affine.min #map13(%15, %55)
            %57 = affine.apply #map16(%arg2)[%55, %14]
            %58 = arith.index_castui %56 : index to i1
            %59 = affine.apply #map10(%c768)[%thread_id_x]
            %60:2 = affine.delinearize_index %59 into (128, 8) : index, index
            %61 = affine.apply #map11(%60#1)
            %subview_17 = memref.subview %subview_11[0, %60#0, %61] [1, 1, 8] [1, 1, 1] : memref<1x128x64xbf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
            %62 = affine.min #map15(%60#0, %11, %14)
            %63 = affine.min #map13(%15, %62)
            %64 = affine.apply #map16(%arg2)[%62, %14]
            %65 = arith.index_castui %63 : index to i1
            %expand_shape = memref.expand_shape %subview_11 [[0], [1, 2], [3, 4]] output_shape [1, 8, 16, 2, 32] : memref<1x128x64xbf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> into memref<1x8x16x2x32xbf16, strided<[8704, 1088, 68, 32, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_18 = memref.expand_shape %subview [[0], [1, 2], [3, 4]] output_shape [1, 4, 16, 2, 32] : memref<1x64x64xbf16, strided<[4352, 68, 1]>, #gpu.address_space<workgroup>> into memref<1x4x16x2x32xbf16, strided<[4352, 1088, 68, 32, 1]>, #gpu.address_space<workgroup>>
            %66:8 = scf.for %arg3 = %c0 to %c6 step %c2 iter_args(%arg4 = %cst_6, %arg5 = %cst_6, %arg6 = %cst_6, %arg7 = %cst_6, %arg8 = %cst_6, %arg9 = %cst_6, %arg10 = %cst_6, %arg11 = %cst_6) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %113 = affine.apply #map17(%arg3, %25#1)
              %subview_19 = memref.subview %3[%arg0, %29, %113] [1, %28, 8] [1, 1, 1] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x8xbf16, strided<[51264, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %114 = vector.transfer_read %subview_19[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : memref<1x?x8xbf16, strided<[51264, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x8xbf16>
              %115 = arith.select %30, %114, %cst : vector<1x1x8xbf16>
              vector.transfer_write %115, %subview_12[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xbf16>, memref<1x1x8xbf16, strided<[4352, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
              %116 = affine.apply #map17(%arg3, %32#1)
              %subview_20 = memref.subview %3[%arg0, %36, %116] [1, %35, 8] [1, 1, 1] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x8xbf16, strided<[51264, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %117 = vector.transfer_read %subview_20[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : memref<1x?x8xbf16, strided<[51264, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x8xbf16>
              %118 = arith.select %37, %117, %cst : vector<1x1x8xbf16>
              vector.transfer_write %118, %subview_13[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xbf16>, memref<1x1x8xbf16, strided<[4352, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
              %119 = affine.apply #map17(%arg3, %39#1)
              %subview_21 = memref.subview %5[%arg0, %43, %119] [1, %42, 8] [1, 1, 1] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %120 = vector.transfer_read %subview_21[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x8xbf16>
              %121 = arith.select %44, %120, %cst : vector<1x1x8xbf16>
              vector.transfer_write %121, %subview_14[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xbf16>, memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
              %122 = affine.apply #map17(%arg3, %46#1)
              %subview_22 = memref.subview %5[%arg0, %50, %122] [1, %49, 8] [1, 1, 1] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %123 = vector.transfer_read %subview_22[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x8xbf16>
              %124 = arith.select %51, %123, %cst : vector<1x1x8xbf16>
              vector.transfer_write %124, %subview_15[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xbf16>, memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
              %125 = affine.apply #map17(%arg3, %53#1)
              %subview_23 = memref.subview %5[%arg0, %57, %125] [1, %56, 8] [1, 1, 1] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %126 = vector.transfer_read %subview_23[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x8xbf16>
              %127 = arith.select %58, %126, %cst : vector<1x1x8xbf16>
              vector.transfer_write %127, %subview_16[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xbf16>, memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
              %128 = affine.apply #map17(%arg3, %60#1)
              %subview_24 = memref.subview %5[%arg0, %64, %128] [1, %63, 8] [1, 1, 1] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %129 = vector.transfer_read %subview_24[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : memref<1x?x8xbf16, strided<[186048, 192, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x8xbf16>
              %130 = arith.select %65, %129, %cst : vector<1x1x8xbf16>
              vector.transfer_write %130, %subview_17[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xbf16>, memref<1x1x8xbf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %131 = vector.transfer_read %expand_shape_18[%c0, %22, %19, %c0, %23], %0 {in_bounds = [true, true, true, true, true]} : memref<1x4x16x2x32xbf16, strided<[4352, 1088, 68, 32, 1]>, #gpu.address_space<workgroup>>, vector<1x2x1x2x8xbf16>
              %132 = vector.transpose %131, [0, 1, 3, 2, 4] : vector<1x2x1x2x8xbf16> to vector<1x2x2x1x8xbf16>
              %133 = vector.transfer_read %expand_shape[%c0, %21, %19, %c0, %23], %0 {in_bounds = [true, true, true, true, true]} : memref<1x8x16x2x32xbf16, strided<[8704, 1088, 68, 32, 1]>, #gpu.address_space<workgroup>>, vector<1x4x1x2x8xbf16>
              %134 = vector.transpose %133, [0, 1, 3, 2, 4] : vector<1x4x1x2x8xbf16> to vector<1x4x2x1x8xbf16>
              %135 = vector.extract %132[0, 0, 0] : vector<1x8xbf16> from vector<1x2x2x1x8xbf16>
              %136 = vector.extract %134[0, 0, 0] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %137 = vector.shape_cast %135 : vector<1x8xbf16> to vector<8xbf16>
              %138 = vector.shape_cast %136 : vector<1x8xbf16> to vector<8xbf16>
              %139 = amdgpu.mfma 16x16x32 %137 * %138 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %140 = vector.extract %134[0, 1, 0] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %141 = vector.shape_cast %135 : vector<1x8xbf16> to vector<8xbf16>
              %142 = vector.shape_cast %140 : vector<1x8xbf16> to vector<8xbf16>
              %143 = amdgpu.mfma 16x16x32 %141 * %142 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %144 = vector.extract %134[0, 2, 0] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %145 = vector.shape_cast %135 : vector<1x8xbf16> to vector<8xbf16>
              %146 = vector.shape_cast %144 : vector<1x8xbf16> to vector<8xbf16>
              %147 = amdgpu.mfma 16x16x32 %145 * %146 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %148 = vector.extract %134[0, 3, 0] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %149 = vector.shape_cast %135 : vector<1x8xbf16> to vector<8xbf16>
              %150 = vector.shape_cast %148 : vector<1x8xbf16> to vector<8xbf16>
              %151 = amdgpu.mfma 16x16x32 %149 * %150 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %152 = vector.extract %132[0, 1, 0] : vector<1x8xbf16> from vector<1x2x2x1x8xbf16>
              %153 = vector.shape_cast %152 : vector<1x8xbf16> to vector<8xbf16>
              %154 = vector.shape_cast %136 : vector<1x8xbf16> to vector<8xbf16>
              %155 = amdgpu.mfma 16x16x32 %153 * %154 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %156 = vector.shape_cast %152 : vector<1x8xbf16> to vector<8xbf16>
              %157 = vector.shape_cast %140 : vector<1x8xbf16> to vector<8xbf16>
              %158 = amdgpu.mfma 16x16x32 %156 * %157 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %159 = vector.shape_cast %152 : vector<1x8xbf16> to vector<8xbf16>
              %160 = vector.shape_cast %144 : vector<1x8xbf16> to vector<8xbf16>
              %161 = amdgpu.mfma 16x16x32 %159 * %160 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %162 = vector.shape_cast %152 : vector<1x8xbf16> to vector<8xbf16>
              %163 = vector.shape_cast %148 : vector<1x8xbf16> to vector<8xbf16>
              %164 = amdgpu.mfma 16x16x32 %162 * %163 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %165 = vector.extract %132[0, 0, 1] : vector<1x8xbf16> from vector<1x2x2x1x8xbf16>
              %166 = vector.extract %134[0, 0, 1] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %167 = vector.shape_cast %165 : vector<1x8xbf16> to vector<8xbf16>
              %168 = vector.shape_cast %166 : vector<1x8xbf16> to vector<8xbf16>
              %169 = amdgpu.mfma 16x16x32 %167 * %168 + %139 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %170 = vector.extract %134[0, 1, 1] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %171 = vector.shape_cast %165 : vector<1x8xbf16> to vector<8xbf16>
              %172 = vector.shape_cast %170 : vector<1x8xbf16> to vector<8xbf16>
              %173 = amdgpu.mfma 16x16x32 %171 * %172 + %143 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %174 = vector.extract %134[0, 2, 1] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %175 = vector.shape_cast %165 : vector<1x8xbf16> to vector<8xbf16>
              %176 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %177 = amdgpu.mfma 16x16x32 %175 * %176 + %147 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %178 = vector.extract %134[0, 3, 1] : vector<1x8xbf16> from vector<1x4x2x1x8xbf16>
              %179 = vector.shape_cast %165 : vector<1x8xbf16> to vector<8xbf16>
              %180 = vector.shape_cast %178 : vector<1x8xbf16> to vector<8xbf16>
              %181 = amdgpu.mfma 16x16x32 %179 * %180 + %151 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %182 = vector.extract %132[0, 1, 1] : vector<1x8xbf16> from vector<1x2x2x1x8xbf16>
              %183 = vector.shape_cast %182 : vector<1x8xbf16> to vector<8xbf16>
              %184 = vector.shape_cast %166 : vector<1x8xbf16> to vector<8xbf16>
              %185 = amdgpu.mfma 16x16x32 %183 * %184 + %155 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %186 = vector.shape_cast %182 : vector<1x8xbf16> to vector<8xbf16>
              %187 = vector.shape_cast %170 : vector<1x8xbf16> to vector<8xbf16>
              %188 = amdgpu.mfma 16x16x32 %186 * %187 + %158 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %189 = vector.shape_cast %182 : vector<1x8xbf16> to vector<8xbf16>
              %190 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %191 = amdgpu.mfma 16x16x32 %189 * %190 + %161 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %192 = vector.shape_cast %182 : vector<1x8xbf16> to vector<8xbf16>
              %193 = vector.shape_cast %178 : vector<1x8xbf16> to vector<8xbf16>
              %194 = amdgpu.mfma 16x16x32 %192 * %193 + %164 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %194, %191, %188, %185, %181, %177, %173, %169 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %67 = vector.shape_cast %66#7 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %68 = vector.shape_cast %66#6 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %69 = vector.shape_cast %66#5 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %70 = vector.shape_cast %66#4 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %71 = vector.shape_cast %66#3 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %72 = vector.shape_cast %66#2 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %73 = vector.shape_cast %66#1 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %74 = vector.shape_cast %66#0 : vector<4xf32> to vector<1x1x1x4x1xf32>
            %75 = vector.insert_strided_slice %67, %cst_0 offsets = [0, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            %76 = vector.insert_strided_slice %68, %75 offsets = [0, 0, 1, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            %77 = vector.insert_strided_slice %69, %76 offsets = [0, 0, 2, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            %78 = vector.insert_strided_slice %70, %77 offsets = [0, 0, 3, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            %79 = vector.insert_strided_slice %71, %78 offsets = [0, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            %80 = vector.insert_strided_slice %72, %79 offsets = [0, 1, 1, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            %81 = vector.insert_strided_slice %73, %80 offsets = [0, 1, 2, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            %82 = vector.insert_strided_slice %74, %81 offsets = [0, 1, 3, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xf32> into vector<1x2x4x4x1xf32>
            vector.transfer_write %82, %alloca[%c0, %c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true, true]} : vector<1x2x4x4x1xf32>, memref<1x2x4x4x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %7 [[0, 1, 2]] : memref<2x267x969xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<517446xf32, #amdgpu.address_space<fat_raw_buffer>>
            %83 = vector.step : vector<1xindex>
            %84 = vector.broadcast %83 : vector<1xindex> to vector<1x1x4x4x1xindex>
            %85 = vector.step : vector<4xindex>
            %86 = vector.broadcast %85 : vector<4xindex> to vector<1x1x1x4x4xindex>
            %87 = vector.transpose %86, [0, 1, 4, 3, 2] : vector<1x1x1x4x4xindex> to vector<1x1x4x4x1xindex>
            %88 = vector.broadcast %85 : vector<4xindex> to vector<1x1x4x1x4xindex>
            %89 = vector.transpose %88, [0, 1, 2, 4, 3] : vector<1x1x4x1x4xindex> to vector<1x1x4x4x1xindex>
            %90 = arith.muli %16#0, %c2 overflow<nsw> : index
            %91 = vector.broadcast %90 : index to vector<1x1x4x4x1xindex>
            %92 = arith.addi %91, %84 : vector<1x1x4x4x1xindex>
            %93 = vector.broadcast %20 : index to vector<1x1x4x4x1xindex>
            %94 = arith.addi %87, %93 : vector<1x1x4x4x1xindex>
            %95 = arith.muli %16#1, %c4 overflow<nsw> : index
            %96 = vector.broadcast %95 : index to vector<1x1x4x4x1xindex>
            %97 = arith.addi %89, %96 : vector<1x1x4x4x1xindex>
            %98 = vector.broadcast %19 : index to vector<1xindex>
            %99 = arith.addi %83, %98 : vector<1xindex>
            %100 = arith.muli %97, %cst_2 overflow<nsw> : vector<1x1x4x4x1xindex>
            %101 = vector.broadcast %99 : vector<1xindex> to vector<1x1x4x4x1xindex>
            %102 = arith.addi %100, %101 overflow<nsw> : vector<1x1x4x4x1xindex>
            %103 = arith.cmpi ult, %84, %cst_3 : vector<1x1x4x4x1xindex>
            %104 = vector.broadcast %10 : index to vector<1x1x4x4x1xindex>
            %105 = vector.broadcast %11 : index to vector<1x1x4x4x1xindex>
            %106 = arith.cmpi ult, %102, %105 : vector<1x1x4x4x1xindex>
            %107 = vector.broadcast %arg0 : index to vector<1x1x4x4x1xindex>
            %108 = arith.addi %107, %84 : vector<1x1x4x4x1xindex>
            %109 = vector.broadcast %9 : index to vector<1x1x4x4x1xindex>
            %110 = vector.broadcast %8 : index to vector<1x1x4x4x1xindex>
            %111 = arith.addi %110, %102 : vector<1x1x4x4x1xindex>
            %112 = arith.muli %108, %cst_4 overflow<nsw> : vector<1x1x4x4x1xindex>
            scf.for %arg3 = %c0 to %c2 step %c1 {
              %subview_19 = memref.subview %alloca_8[0, %arg3, 0, 0, 0] [1, 1, 4, 4, 1] [1, 1, 1, 1, 1] : memref<1x2x4x4x1xf32, #gpu.address_space<private>> to memref<1x1x4x4x1xf32, strided<[32, 16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %113 = vector.transfer_read %alloca[%c0, %arg3, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true, true]} : memref<1x2x4x4x1xf32, #gpu.address_space<private>>, vector<1x1x4x4x1xf32>
              %114 = vector.transpose %113, [0, 1, 3, 2, 4] : vector<1x1x4x4x1xf32> to vector<1x1x4x4x1xf32>
              vector.transfer_write %114, %subview_19[%c0, %c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true, true]} : vector<1x1x4x4x1xf32>, memref<1x1x4x4x1xf32, strided<[32, 16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %115 = vector.transfer_read %subview_19[%c0, %c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true, true]} : memref<1x1x4x4x1xf32, strided<[32, 16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x1x4x4x1xf32>
              %116 = vector.broadcast %arg3 : index to vector<1x1x4x4x1xindex>
              %117 = arith.addi %92, %116 : vector<1x1x4x4x1xindex>
              %118 = arith.muli %117, %cst_2 overflow<nsw> : vector<1x1x4x4x1xindex>
              %119 = arith.addi %118, %94 overflow<nsw> : vector<1x1x4x4x1xindex>
              %120 = arith.cmpi ult, %119, %104 : vector<1x1x4x4x1xindex>
              %121 = arith.andi %103, %120 : vector<1x1x4x4x1xi1>
              %122 = arith.andi %121, %106 : vector<1x1x4x4x1xi1>
              %123 = arith.addi %109, %119 : vector<1x1x4x4x1xindex>
              %124 = arith.muli %123, %cst_5 overflow<nsw> : vector<1x1x4x4x1xindex>
              %125 = arith.addi %112, %124 overflow<nsw> : vector<1x1x4x4x1xindex>
              %126 = arith.addi %125, %111 overflow<nsw> : vector<1x1x4x4x1xindex>
              %127 = vector.shape_cast %126 : vector<1x1x4x4x1xindex> to vector<16xindex>
              %128 = vector.shape_cast %122 : vector<1x1x4x4x1xi1> to vector<16xi1>
              %129 = vector.shape_cast %115 : vector<1x1x4x4x1xf32> to vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%127], %128, %129 : memref<517446xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<z>, #iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_7 : memref<1x64x68xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<1x128x68xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_batch_matmul_2x267x969x192_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

