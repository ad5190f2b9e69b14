#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 64)>
#map1 = affine_map<(d0) -> (d0 * -64 + 129, 64)>
#map2 = affine_map<(d0) -> (d0 * -64 + 129, 0, 64)>
#map3 = affine_map<(d0, d1) -> (64, d0 - d1)>
#map4 = affine_map<()[s0] -> (s0 * 2)>
#map5 = affine_map<(d0)[s0] -> (d0 + s0)>
#map6 = affine_map<(d0) -> (d0 * 8)>
#map7 = affine_map<(d0, d1, d2) -> (64, d2 * 8, d0 - d1)>
#map8 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map9 = affine_map<(d0)[s0, s1] -> (d0 * 64 + s0 + s1)>
#map10 = affine_map<(d0, d1) -> (d0 * 32 + d1 * 8)>
#map11 = affine_map<(d0)[s0] -> (d0 * 32 + s0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_64x129x1024_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_64x129x1024_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %0 = ub.poison : bf16
          %cst = arith.constant dense<0.000000e+00> : vector<2x2x4x1xf32>
          %1 = ub.poison : f32
          %c1 = arith.constant 1 : index
          %c256 = arith.constant 256 : index
          %c4 = arith.constant 4 : index
          %c32 = arith.constant 32 : index
          %cst_0 = arith.constant 0.000000e+00 : bf16
          %c0 = arith.constant 0 : index
          %c2 = arith.constant 2 : index
          %cst_1 = arith.constant dense<16> : vector<2x4x2x1xindex>
          %cst_2 = arith.constant dense<64> : vector<2x4x2x1xindex>
          %cst_3 = arith.constant dense<129> : vector<2x4x2x1xindex>
          %c16 = arith.constant 16 : index
          %c8 = arith.constant 8 : index
          %c12 = arith.constant 12 : index
          %c20 = arith.constant 20 : index
          %c24 = arith.constant 24 : index
          %c28 = arith.constant 28 : index
          %c36 = arith.constant 36 : index
          %c40 = arith.constant 40 : index
          %c44 = arith.constant 44 : index
          %c48 = arith.constant 48 : index
          %c52 = arith.constant 52 : index
          %c56 = arith.constant 56 : index
          %c60 = arith.constant 60 : index
          %cst_4 = arith.constant dense<0.000000e+00> : vector<64xbf16>
          %cst_5 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %c512 = arith.constant 512 : index
          %c768 = arith.constant 768 : index
          %alloc = memref.alloc() : memref<128x64xbf16, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<8192xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<2x4x2x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<64x1024xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %2, 64 : memref<64x1024xbf16, #hal.descriptor_type<storage_buffer>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<64x1024xbf16, #hal.descriptor_type<storage_buffer>> to memref<64x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1024x129xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_7 = memref.assume_alignment %4, 64 : memref<1024x129xbf16, #hal.descriptor_type<storage_buffer>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<1024x129xbf16, #hal.descriptor_type<storage_buffer>> to memref<1024x129xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %6 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<64x129xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_8 = memref.assume_alignment %6, 64 : memref<64x129xf32, #hal.descriptor_type<storage_buffer>>
          %7 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<64x129xf32, #hal.descriptor_type<storage_buffer>> to memref<64x129xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0) in (3) {
            %8 = affine.apply #map(%arg0)
            %9 = affine.min #map1(%arg0)
            %expand_shape = memref.expand_shape %alloc_6 [[0, 1]] output_shape [64, 128] : memref<8192xbf16, #gpu.address_space<workgroup>> into memref<64x128xbf16, #gpu.address_space<workgroup>>
            %10 = affine.min #map2(%arg0)
            %11 = affine.min #map3(%9, %10)
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %12:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %13:3 = affine.delinearize_index %12#2 into (4, 16) : index, index, index
            %14 = iree_codegen.index_hint %13#1(#iree_gpu.lane_constant<16>) : index
            %15 = iree_codegen.index_hint %13#2(#iree_gpu.lane_increment<16, aligned>) : index
            %16 = affine.linearize_index disjoint [%14, %c0] by (4, 4) : index
            %17 = affine.apply #map4()[%12#1]
            %18 = affine.apply #map4()[%12#0]
            %19 = affine.linearize_index disjoint [%14, %c0] by (4, 8) : index
            %20 = affine.apply #map5(%c0)[%thread_id_x]
            %21:2 = affine.delinearize_index %20 into (64, 16) : index, index
            %22 = affine.apply #map6(%21#1)
            %subview = memref.subview %expand_shape[%21#0, %22] [1, 8] [1, 1] : memref<64x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %23 = affine.apply #map5(%c256)[%thread_id_x]
            %24:2 = affine.delinearize_index %23 into (64, 16) : index, index
            %25 = affine.apply #map6(%24#1)
            %subview_9 = memref.subview %expand_shape[%24#0, %25] [1, 8] [1, 1] : memref<64x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %26 = affine.apply #map5(%c512)[%thread_id_x]
            %27:2 = affine.delinearize_index %26 into (64, 16) : index, index
            %28 = affine.apply #map6(%27#1)
            %subview_10 = memref.subview %expand_shape[%27#0, %28] [1, 8] [1, 1] : memref<64x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %29 = affine.apply #map5(%c768)[%thread_id_x]
            %30:2 = affine.delinearize_index %29 into (64, 16) : index, index
            %31 = affine.apply #map6(%30#1)
            %subview_11 = memref.subview %expand_shape[%30#0, %31] [1, 8] [1, 1] : memref<64x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %32 = affine.apply #map5(%c0)[%thread_id_x]
            %33:2 = affine.delinearize_index %32 into (128, 8) : index, index
            %34 = affine.apply #map6(%33#1)
            %subview_12 = memref.subview %alloc[%33#0, %34] [1, 8] [1, 1] : memref<128x64xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
            %35 = affine.min #map7(%9, %10, %33#1)
            %36 = affine.min #map8(%11, %35)
            %37 = affine.apply #map9(%arg0)[%35, %10]
            %38 = vector.create_mask %c1, %36 : vector<1x8xi1>
            %39 = affine.apply #map5(%c256)[%thread_id_x]
            %40:2 = affine.delinearize_index %39 into (128, 8) : index, index
            %41 = affine.apply #map6(%40#1)
            %subview_13 = memref.subview %alloc[%40#0, %41] [1, 8] [1, 1] : memref<128x64xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
            %42 = affine.min #map7(%9, %10, %40#1)
            %43 = affine.min #map8(%11, %42)
            %44 = affine.apply #map9(%arg0)[%42, %10]
            %45 = vector.create_mask %c1, %43 : vector<1x8xi1>
            %46 = affine.apply #map5(%c512)[%thread_id_x]
            %47:2 = affine.delinearize_index %46 into (128, 8) : index, index
            %48 = affine.apply #map6(%47#1)
            %subview_14 = memref.subview %alloc[%47#0, %48] [1, 8] [1, 1] : memref<128x64xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
            %49 = affine.min #map7(%9, %10, %47#1)
            %50 = affine.min #map8(%11, %49)
            %51 = affine.apply #map9(%arg0)[%49, %10]
            %52 = vector.create_mask %c1, %50 : vector<1x8xi1>
            %53 = affine.apply #map5(%c768)[%thread_id_x]
            %54:2 = affine.delinearize_index %53 into (128, 8) : index, index
            %55 = affine.apply #map6(%54#1)
            %subview_15 = memref.subview %alloc[%54#0, %55] [1, 8] [1, 1] : memref<128x64xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
            %56 = affine.min #map7(%9, %10, %54#1)
            %57 = affine.min #map8(%11, %56)
            %58 = affine.apply #map9(%arg0)[%56, %10]
            %59 = vector.create_mask %c1, %57 : vector<1x8xi1>
            %expand_shape_16 = memref.expand_shape %alloc [[0, 1], [2, 3]] output_shape [4, 32, 4, 16] : memref<128x64xbf16, #gpu.address_space<workgroup>> into memref<4x32x4x16xbf16, #gpu.address_space<workgroup>>
            %expand_shape_17 = memref.expand_shape %expand_shape [[0, 1], [2, 3]] output_shape [4, 16, 4, 32] : memref<64x128xbf16, #gpu.address_space<workgroup>> into memref<4x16x4x32xbf16, #gpu.address_space<workgroup>>
            %60 = gpu.lane_id upper_bound 64
            %61 = arith.remui %60, %c16 : index
            %62 = arith.divui %61, %c4 : index
            %63 = arith.subi %15, %61 : index
            %64 = arith.remui %61, %c4 : index
            %65 = arith.muli %64, %c4 : index
            %66 = arith.addi %63, %65 : index
            %67:3 = affine.delinearize_index %62 into (4, 8, 2) : index, index, index
            %68 = arith.addi %19, %67#1 : index
            %69 = arith.addi %17, %67#2 : index
            %70 = arith.addi %62, %c4 : index
            %71:3 = affine.delinearize_index %70 into (4, 8, 2) : index, index, index
            %72 = arith.addi %19, %71#1 : index
            %73 = arith.addi %17, %71#2 : index
            %74 = arith.addi %62, %c8 : index
            %75:3 = affine.delinearize_index %74 into (4, 8, 2) : index, index, index
            %76 = arith.addi %19, %75#1 : index
            %77 = arith.addi %17, %75#2 : index
            %78 = arith.addi %62, %c12 : index
            %79:3 = affine.delinearize_index %78 into (4, 8, 2) : index, index, index
            %80 = arith.addi %19, %79#1 : index
            %81 = arith.addi %17, %79#2 : index
            %82 = arith.addi %62, %c16 : index
            %83:3 = affine.delinearize_index %82 into (4, 8, 2) : index, index, index
            %84 = arith.addi %19, %83#1 : index
            %85 = arith.addi %17, %83#2 : index
            %86 = arith.addi %62, %c20 : index
            %87:3 = affine.delinearize_index %86 into (4, 8, 2) : index, index, index
            %88 = arith.addi %19, %87#1 : index
            %89 = arith.addi %17, %87#2 : index
            %90 = arith.addi %62, %c24 : index
            %91:3 = affine.delinearize_index %90 into (4, 8, 2) : index, index, index
            %92 = arith.addi %19, %91#1 : index
            %93 = arith.addi %17, %91#2 : index
            %94 = arith.addi %62, %c28 : index
            %95:3 = affine.delinearize_index %94 into (4, 8, 2) : index, index, index
            %96 = arith.addi %19, %95#1 : index
            %97 = arith.addi %17, %95#2 : index
            %98 = arith.addi %62, %c32 : index
            %99:3 = affine.delinearize_index %98 into (4, 8, 2) : index, index, index
            %100 = arith.addi %19, %99#1 : index
            %101 = arith.addi %17, %99#2 : index
            %102 = arith.addi %62, %c36 : index
            %103:3 = affine.delinearize_index %102 into (4, 8, 2) : index, index, index
            %104 = arith.addi %19, %103#1 : index
            %105 = arith.addi %17, %103#2 : index
            %106 = arith.addi %62, %c40 : index
            %107:3 = affine.delinearize_index %106 into (4, 8, 2) : index, index, index
            %108 = arith.addi %19, %107#1 : index
            %109 = arith.addi %17, %107#2 : index
            %110 = arith.addi %62, %c44 : index
            %111:3 = affine.delinearize_index %110 into (4, 8, 2) : index, index, index
            %112 = arith.addi %19, %111#1 : index
            %113 = arith.addi %17, %111#2 : index
            %114 = arith.addi %62, %c48 : index
            %115:3 = affine.delinearize_index %114 into (4, 8, 2) : index, index, index
            %116 = arith.addi %19, %115#1 : index
            %117 = arith.addi %17, %115#2 : index
            %118 = arith.addi %62, %c52 : index
            %119:3 = affine.delinearize_index %118 into (4, 8, 2) : index, index, index
            %120 = arith.addi %19, %119#1 : index
            %121 = arith.addi %17, %119#2 : index
            %122 = arith.addi %62, %c56 : index
            %123:3 = affine.delinearize_index %122 into (4, 8, 2) : index, index, index
            %124 = arith.addi %19, %123#1 : index
            %125 = arith.addi %17, %123#2 : index
            %126 = arith.addi %62, %c60 : index
            %127:3 = affine.delinearize_index %126 into (4, 8, 2) : index, index, index
            %128 = arith.addi %19, %127#1 : index
            %129 = arith.addi %17, %127#2 : index
            %130:4 = scf.for %arg1 = %c0 to %c32 step %c4 iter_args(%arg2 = %cst_5, %arg3 = %cst_5, %arg4 = %cst_5, %arg5 = %cst_5) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %176 = affine.apply #map10(%arg1, %21#1)
              %subview_18 = memref.subview %3[%21#0, %176] [1, 8] [1, 1] : memref<64x1024xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %177 = vector.transfer_read %subview_18[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %177, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %178 = affine.apply #map10(%arg1, %24#1)
              %subview_19 = memref.subview %3[%24#0, %178] [1, 8] [1, 1] : memref<64x1024xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %179 = vector.transfer_read %subview_19[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %179, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %180 = affine.apply #map10(%arg1, %27#1)
              %subview_20 = memref.subview %3[%27#0, %180] [1, 8] [1, 1] : memref<64x1024xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %181 = vector.transfer_read %subview_20[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %181, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %182 = affine.apply #map10(%arg1, %30#1)
              %subview_21 = memref.subview %3[%30#0, %182] [1, 8] [1, 1] : memref<64x1024xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %183 = vector.transfer_read %subview_21[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[1024, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %183, %subview_11[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %184 = affine.apply #map11(%arg1)[%33#0]
              %subview_22 = memref.subview %5[%184, %37] [1, %36] [1, 1] : memref<1024x129xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %185 = vector.transfer_read %subview_22[%c0, %c0], %cst_0, %38 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %185, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
              %186 = affine.apply #map11(%arg1)[%40#0]
              %subview_23 = memref.subview %5[%186, %44] [1, %43] [1, 1] : memref<1024x129xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %187 = vector.transfer_read %subview_23[%c0, %c0], %cst_0, %45 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %187, %subview_13[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
              %188 = affine.apply #map11(%arg1)[%47#0]
              %subview_24 = memref.subview %5[%188, %51] [1, %50] [1, 1] : memref<1024x129xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %189 = vector.transfer_read %subview_24[%c0, %c0], %cst_0, %52 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %189, %subview_14[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
              %190 = affine.apply #map11(%arg1)[%54#0]
              %subview_25 = memref.subview %5[%190, %58] [1, %57] [1, 1] : memref<1024x129xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %191 = vector.transfer_read %subview_25[%c0, %c0], %cst_0, %59 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[129, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %191, %subview_15[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %192 = vector.transfer_read %expand_shape_17[%18, %15, %c0, %19], %0 {in_bounds = [true, true, true, true]} : memref<4x16x4x32xbf16, #gpu.address_space<workgroup>>, vector<2x1x4x8xbf16>
              %193 = vector.transpose %192, [0, 2, 1, 3] : vector<2x1x4x8xbf16> to vector<2x4x1x8xbf16>
              %194 = amdgpu.transpose_load %expand_shape_16[%67#0, %68, %69, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %195 = amdgpu.transpose_load %expand_shape_16[%71#0, %72, %73, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %196 = amdgpu.transpose_load %expand_shape_16[%75#0, %76, %77, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %197 = amdgpu.transpose_load %expand_shape_16[%79#0, %80, %81, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %198 = amdgpu.transpose_load %expand_shape_16[%83#0, %84, %85, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %199 = amdgpu.transpose_load %expand_shape_16[%87#0, %88, %89, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %200 = amdgpu.transpose_load %expand_shape_16[%91#0, %92, %93, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %201 = amdgpu.transpose_load %expand_shape_16[%95#0, %96, %97, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %202 = amdgpu.transpose_load %expand_shape_16[%99#0, %100, %101, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %203 = amdgpu.transpose_load %expand_shape_16[%103#0, %104, %105, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %204 = amdgpu.transpose_load %expand_shape_16[%107#0, %108, %109, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %205 = amdgpu.transpose_load %expand_shape_16[%111#0, %112, %113, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %206 = amdgpu.transpose_load %expand_shape_16[%115#0, %116, %117, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %207 = amdgpu.transpose_load %expand_shape_16[%119#0, %120, %121, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %208 = amdgpu.transpose_load %expand_shape_16[%123#0, %124, %125, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %209 = amdgpu.transpose_load %expand_shape_16[%127#0, %128, %129, %66] : memref<4x32x4x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %210 = vector.insert_strided_slice %194, %cst_4 offsets = [0], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %211 = vector.insert_strided_slice %195, %210 offsets = [4], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %212 = vector.insert_strided_slice %196, %211 offsets = [8], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %213 = vector.insert_strided_slice %197, %212 offsets = [12], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %214 = vector.insert_strided_slice %198, %213 offsets = [16], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %215 = vector.insert_strided_slice %199, %214 offsets = [20], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %216 = vector.insert_strided_slice %200, %215 offsets = [24], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %217 = vector.insert_strided_slice %201, %216 offsets = [28], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %218 = vector.insert_strided_slice %202, %217 offsets = [32], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %219 = vector.insert_strided_slice %203, %218 offsets = [36], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %220 = vector.insert_strided_slice %204, %219 offsets = [40], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %221 = vector.insert_strided_slice %205, %220 offsets = [44], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %222 = vector.insert_strided_slice %206, %221 offsets = [48], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %223 = vector.insert_strided_slice %207, %222 offsets = [52], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %224 = vector.insert_strided_slice %208, %223 offsets = [56], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %225 = vector.insert_strided_slice %209, %224 offsets = [60], strides = [1] : vector<4xbf16> into vector<64xbf16>
              %226 = vector.shape_cast %225 : vector<64xbf16> to vector<4x8x2x1xbf16>
              %227 = vector.transpose %226, [0, 2, 3, 1] : vector<4x8x2x1xbf16> to vector<4x2x1x8xbf16>
              %228 = vector.extract %193[0, 0] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %229 = vector.extract %227[0, 0] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %230 = vector.shape_cast %228 : vector<1x8xbf16> to vector<8xbf16>
              %231 = vector.shape_cast %229 : vector<1x8xbf16> to vector<8xbf16>
              %232 = amdgpu.mfma 16x16x32 %230 * %231 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %233 = vector.extract %227[0, 1] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %234 = vector.shape_cast %228 : vector<1x8xbf16> to vector<8xbf16>
              %235 = vector.shape_cast %233 : vector<1x8xbf16> to vector<8xbf16>
              %236 = amdgpu.mfma 16x16x32 %234 * %235 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %237 = vector.extract %193[1, 0] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %238 = vector.shape_cast %237 : vector<1x8xbf16> to vector<8xbf16>
              %239 = vector.shape_cast %229 : vector<1x8xbf16> to vector<8xbf16>
              %240 = amdgpu.mfma 16x16x32 %238 * %239 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %241 = vector.shape_cast %237 : vector<1x8xbf16> to vector<8xbf16>
              %242 = vector.shape_cast %233 : vector<1x8xbf16> to vector<8xbf16>
              %243 = amdgpu.mfma 16x16x32 %241 * %242 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %244 = vector.extract %193[0, 1] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %245 = vector.extract %227[1, 0] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %246 = vector.shape_cast %244 : vector<1x8xbf16> to vector<8xbf16>
              %247 = vector.shape_cast %245 : vector<1x8xbf16> to vector<8xbf16>
              %248 = amdgpu.mfma 16x16x32 %246 * %247 + %232 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %249 = vector.extract %227[1, 1] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %250 = vector.shape_cast %244 : vector<1x8xbf16> to vector<8xbf16>
              %251 = vector.shape_cast %249 : vector<1x8xbf16> to vector<8xbf16>
              %252 = amdgpu.mfma 16x16x32 %250 * %251 + %236 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %253 = vector.extract %193[1, 1] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %254 = vector.shape_cast %253 : vector<1x8xbf16> to vector<8xbf16>
              %255 = vector.shape_cast %245 : vector<1x8xbf16> to vector<8xbf16>
              %256 = amdgpu.mfma 16x16x32 %254 * %255 + %240 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %257 = vector.shape_cast %253 : vector<1x8xbf16> to vector<8xbf16>
              %258 = vector.shape_cast %249 : vector<1x8xbf16> to vector<8xbf16>
              %259 = amdgpu.mfma 16x16x32 %257 * %258 + %243 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %260 = vector.extract %193[0, 2] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %261 = vector.extract %227[2, 0] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %262 = vector.shape_cast %260 : vector<1x8xbf16> to vector<8xbf16>
              %263 = vector.shape_cast %261 : vector<1x8xbf16> to vector<8xbf16>
              %264 = amdgpu.mfma 16x16x32 %262 * %263 + %248 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %265 = vector.extract %227[2, 1] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %266 = vector.shape_cast %260 : vector<1x8xbf16> to vector<8xbf16>
              %267 = vector.shape_cast %265 : vector<1x8xbf16> to vector<8xbf16>
              %268 = amdgpu.mfma 16x16x32 %266 * %267 + %252 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %269 = vector.extract %193[1, 2] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %270 = vector.shape_cast %269 : vector<1x8xbf16> to vector<8xbf16>
              %271 = vector.shape_cast %261 : vector<1x8xbf16> to vector<8xbf16>
              %272 = amdgpu.mfma 16x16x32 %270 * %271 + %256 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %273 = vector.shape_cast %269 : vector<1x8xbf16> to vector<8xbf16>
              %274 = vector.shape_cast %265 : vector<1x8xbf16> to vector<8xbf16>
              %275 = amdgpu.mfma 16x16x32 %273 * %274 + %259 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %276 = vector.extract %193[0, 3] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %277 = vector.extract %227[3, 0] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %278 = vector.shape_cast %276 : vector<1x8xbf16> to vector<8xbf16>
              %279 = vector.shape_cast %277 : vector<1x8xbf16> to vector<8xbf16>
              %280 = amdgpu.mfma 16x16x32 %278 * %279 + %264 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %281 = vector.extract %227[3, 1] : vector<1x8xbf16> from vector<4x2x1x8xbf16>
              %282 = vector.shape_cast %276 : vector<1x8xbf16> to vector<8xbf16>
              %283 = vector.shape_cast %281 : vector<1x8xbf16> to vector<8xbf16>
              %284 = amdgpu.mfma 16x16x32 %282 * %283 + %268 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %285 = vector.extract %193[1, 3] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %286 = vector.shape_cast %285 : vector<1x8xbf16> to vector<8xbf16>
              %287 = vector.shape_cast %277 : vector<1x8xbf16> to vector<8xbf16>
              %288 = amdgpu.mfma 16x16x32 %286 * %287 + %272 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %289 = vector.shape_cast %285 : vector<1x8xbf16> to vector<8xbf16>
              %290 = vector.shape_cast %281 : vector<1x8xbf16> to vector<8xbf16>
              %291 = amdgpu.mfma 16x16x32 %289 * %290 + %275 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %291, %288, %284, %280 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %131 = vector.shape_cast %130#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %132 = vector.shape_cast %130#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %133 = vector.shape_cast %130#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %134 = vector.shape_cast %130#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %135 = vector.insert_strided_slice %131, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x2x4x1xf32>
            %136 = vector.insert_strided_slice %132, %135 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x2x4x1xf32>
            %137 = vector.insert_strided_slice %133, %136 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x2x4x1xf32>
            %138 = vector.insert_strided_slice %134, %137 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x2x4x1xf32>
            %139 = vector.transpose %138, [0, 2, 1, 3] : vector<2x2x4x1xf32> to vector<2x4x2x1xf32>
            vector.transfer_write %139, %alloca[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<2x4x2x1xf32>, memref<2x4x2x1xf32, #gpu.address_space<private>>
            %140 = vector.transfer_read %alloca[%c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<2x4x2x1xf32, #gpu.address_space<private>>, vector<2x4x2x1xf32>
            %collapse_shape = memref.collapse_shape %7 [[0, 1]] : memref<64x129xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<8256xf32, #amdgpu.address_space<fat_raw_buffer>>
            %141 = vector.step : vector<2xindex>
            %142 = vector.broadcast %141 : vector<2xindex> to vector<1x4x2x2xindex>
            %143 = vector.transpose %142, [3, 1, 2, 0] : vector<1x4x2x2xindex> to vector<2x4x2x1xindex>
            %144 = vector.step : vector<4xindex>
            %145 = vector.broadcast %144 : vector<4xindex> to vector<2x1x2x4xindex>
            %146 = vector.transpose %145, [0, 3, 2, 1] : vector<2x1x2x4xindex> to vector<2x4x2x1xindex>
            %147 = vector.broadcast %141 : vector<2xindex> to vector<2x4x1x2xindex>
            %148 = vector.transpose %147, [0, 1, 3, 2] : vector<2x4x1x2xindex> to vector<2x4x2x1xindex>
            %149 = vector.step : vector<1xindex>
            %150 = arith.muli %12#0, %c2 overflow<nsw> : index
            %151 = vector.broadcast %150 : index to vector<2x4x2x1xindex>
            %152 = arith.addi %143, %151 : vector<2x4x2x1xindex>
            %153 = vector.broadcast %16 : index to vector<2x4x2x1xindex>
            %154 = arith.addi %146, %153 : vector<2x4x2x1xindex>
            %155 = arith.muli %12#1, %c2 overflow<nsw> : index
            %156 = vector.broadcast %155 : index to vector<2x4x2x1xindex>
            %157 = arith.addi %148, %156 : vector<2x4x2x1xindex>
            %158 = vector.broadcast %15 : index to vector<1xindex>
            %159 = arith.addi %149, %158 : vector<1xindex>
            %160 = arith.muli %152, %cst_1 overflow<nsw> : vector<2x4x2x1xindex>
            %161 = arith.addi %160, %154 overflow<nsw> : vector<2x4x2x1xindex>
            %162 = arith.muli %157, %cst_1 overflow<nsw> : vector<2x4x2x1xindex>
            %163 = vector.broadcast %159 : vector<1xindex> to vector<2x4x2x1xindex>
            %164 = arith.addi %162, %163 overflow<nsw> : vector<2x4x2x1xindex>
            %165 = arith.cmpi ult, %161, %cst_2 : vector<2x4x2x1xindex>
            %166 = vector.broadcast %9 : index to vector<2x4x2x1xindex>
            %167 = arith.cmpi ult, %164, %166 : vector<2x4x2x1xindex>
            %168 = arith.andi %165, %167 : vector<2x4x2x1xi1>
            %169 = vector.broadcast %8 : index to vector<2x4x2x1xindex>
            %170 = arith.addi %169, %164 : vector<2x4x2x1xindex>
            %171 = arith.muli %161, %cst_3 overflow<nsw> : vector<2x4x2x1xindex>
            %172 = arith.addi %171, %170 overflow<nsw> : vector<2x4x2x1xindex>
            %173 = vector.shape_cast %172 : vector<2x4x2x1xindex> to vector<16xindex>
            %174 = vector.shape_cast %168 : vector<2x4x2x1xi1> to vector<16xi1>
            %175 = vector.shape_cast %140 : vector<2x4x2x1xf32> to vector<16xf32>
            vector.scatter %collapse_shape[%c0] [%173], %174, %175 : memref<8256xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_6 : memref<8192xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<128x64xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_64x129x1024_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

