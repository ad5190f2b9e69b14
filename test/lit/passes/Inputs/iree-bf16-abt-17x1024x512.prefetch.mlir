#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 64)>
#map1 = affine_map<()[s0] -> (s0 * 8)>
#map2 = affine_map<()[s0] -> (s0 * 16)>
#map3 = affine_map<(d0)[s0] -> (d0 * 64 + s0 * 16)>
#map4 = affine_map<()[s0] -> (s0 * 2)>
#map5 = affine_map<()[s0] -> (s0 * 1024)>
#map6 = affine_map<()[s0] -> ((s0 mod 64) floordiv 8)>
#map7 = affine_map<()[s0] -> ((s0 floordiv 64) mod 8)>
#map8 = affine_map<()[s0, s1] -> (s1 * 8 + (s0 floordiv 64) * 64)>
#map9 = affine_map<()[s0] -> (s0 * 2048)>
#map10 = affine_map<(d0) -> (d0 * 32)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_17x1024x512_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_17x1024x512_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %c12 = arith.constant 12 : index
          %c1536 = arith.constant 1536 : index
          %c1024 = arith.constant 1024 : index
          %c512 = arith.constant 512 : index
          %0 = ub.poison : bf16
          %cst = arith.constant dense<0.000000e+00> : vector<1x2x4x1xf32>
          %c17 = arith.constant 17 : index
          %c8 = arith.constant 8 : index
          %c4 = arith.constant 4 : index
          %c16 = arith.constant 16 : index
          %c0 = arith.constant 0 : index
          %c2 = arith.constant 2 : index
          %cst_0 = arith.constant dense<16> : vector<1x4x2x1xindex>
          %cst_1 = arith.constant dense<17> : vector<1x4x2x1xindex>
          %cst_2 = arith.constant dense<64> : vector<1x4x2x1xindex>
          %cst_3 = arith.constant dense<1024> : vector<1x4x2x1xindex>
          %cst_4 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<8192xbf16, #gpu.address_space<workgroup>>
          %alloc_5 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<17x512xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<17x512xbf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<17x512xbf16, #hal.descriptor_type<storage_buffer>> to memref<17x512xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1024x512xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_6 = memref.assume_alignment %3, 64 : memref<1024x512xbf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_6 resetOffset : memref<1024x512xbf16, #hal.descriptor_type<storage_buffer>> to memref<1024x512xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<17x1024xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_7 = memref.assume_alignment %5, 64 : memref<17x1024xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<17x1024xf32, #hal.descriptor_type<storage_buffer>> to memref<17x1024xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (1, 16) {
            %7 = affine.apply #map(%arg1)
            %expand_shape = memref.expand_shape %alloc_5 [[0, 1]] output_shape [32, 128] : memref<4096xbf16, #gpu.address_space<workgroup>> into memref<32x128xbf16, #gpu.address_space<workgroup>>
            %expand_shape_8 = memref.expand_shape %alloc [[0, 1]] output_shape [64, 128] : memref<8192xbf16, #gpu.address_space<workgroup>> into memref<64x128xbf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %8:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %9:3 = affine.delinearize_index %8#2 into (4, 16) : index, index, index
            %10 = iree_codegen.index_hint %9#1(#iree_gpu.lane_constant<16>) : index
            %11 = iree_codegen.index_hint %9#2(#iree_gpu.lane_increment<16, aligned>) : index
            %12 = affine.linearize_index disjoint [%10, %c0] by (4, 4) : index
            %13:2 = affine.delinearize_index %thread_id_x into (4, 64) : index, index
            %14 = affine.apply #map1()[%13#0]
            %15 = arith.minsi %14, %c17 : index
            %16 = arith.subi %c17, %15 : index
            %17 = arith.maxsi %16, %c0 : index
            %18 = arith.minsi %17, %c8 : index
            %19 = affine.apply #map2()[%13#0]
            %20 = affine.apply #map3(%arg1)[%13#0]
            %21 = affine.apply #map4()[%8#1]
            %22 = affine.linearize_index disjoint [%10, %c0] by (4, 8) : index
            %subview = memref.subview %expand_shape[%14, 0] [8, 128] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<8x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_9 = memref.subview %expand_shape_8[%19, 0] [16, 128] [1, 1] : memref<64x128xbf16, #gpu.address_space<workgroup>> to memref<16x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %23 = arith.muli %13#1, %c8 : index
            %24 = affine.apply #map5()[%13#0]
            %25 = arith.addi %24, %23 : index
            %26 = arith.remui %25, %c8 : index
            %27 = arith.subi %25, %26 : index
            %28 = affine.apply #map6()[%27]
            %29 = affine.apply #map7()[%27]
            %30 = arith.xori %29, %28 : index
            %31 = affine.apply #map8()[%27, %30]
            %32 = arith.subi %31, %27 : index
            %33 = arith.addi %25, %32 : index
            %34 = arith.subi %33, %24 : index
            %35:2 = affine.delinearize_index %34 into (8, 128) : index, index
            %36 = arith.cmpi uge, %35#0, %18 : index
            %37 = arith.select %36, %c17, %35#0 : index
            %38 = arith.addi %23, %c512 : index
            %39 = arith.addi %24, %38 : index
            %40 = arith.remui %39, %c8 : index
            %41 = arith.subi %39, %40 : index
            %42 = affine.apply #map6()[%41]
            %43 = affine.apply #map7()[%41]
            %44 = arith.xori %43, %42 : index
            %45 = affine.apply #map8()[%41, %44]
            %46 = arith.subi %45, %41 : index
            %47 = arith.addi %39, %46 : index
            %48 = arith.subi %47, %24 : index
            %49:2 = affine.delinearize_index %48 into (8, 128) : index, index
            %50 = arith.cmpi uge, %49#0, %18 : index
            %51 = arith.select %50, %c17, %49#0 : index
            %52 = affine.apply #map9()[%13#0]
            %53 = arith.addi %52, %23 : index
            %54 = arith.remui %53, %c8 : index
            %55 = arith.subi %53, %54 : index
            %56 = affine.apply #map6()[%55]
            %57 = affine.apply #map7()[%55]
            %58 = arith.xori %57, %56 : index
            %59 = affine.apply #map8()[%55, %58]
            %60 = arith.subi %59, %55 : index
            %61 = arith.addi %53, %60 : index
            %62 = arith.subi %61, %52 : index
            %63:2 = affine.delinearize_index %62 into (16, 128) : index, index
            %64 = arith.addi %52, %38 : index
            %65 = arith.remui %64, %c8 : index
            %66 = arith.subi %64, %65 : index
            %67 = affine.apply #map6()[%66]
            %68 = affine.apply #map7()[%66]
            %69 = arith.xori %68, %67 : index
            %70 = affine.apply #map8()[%66, %69]
            %71 = arith.subi %70, %66 : index
            %72 = arith.addi %64, %71 : index
            %73 = arith.subi %72, %52 : index
            %74:2 = affine.delinearize_index %73 into (16, 128) : index, index
            %75 = arith.addi %23, %c1024 : index
            %76 = arith.addi %52, %75 : index
            %77 = arith.remui %76, %c8 : index
            %78 = arith.subi %76, %77 : index
            %79 = affine.apply #map6()[%78]
            %80 = affine.apply #map7()[%78]
            %81 = arith.xori %80, %79 : index
            %82 = affine.apply #map8()[%78, %81]
            %83 = arith.subi %82, %78 : index
            %84 = arith.addi %76, %83 : index
            %85 = arith.subi %84, %52 : index
            %86:2 = affine.delinearize_index %85 into (16, 128) : index, index
            %87 = arith.addi %23, %c1536 : index
            %88 = arith.addi %52, %87 : index
            %89 = arith.remui %88, %c8 : index
            %90 = arith.subi %88, %89 : index
            %91 = affine.apply #map6()[%90]
            %92 = affine.apply #map7()[%90]
            %93 = arith.xori %92, %91 : index
            %94 = affine.apply #map8()[%90, %93]
            %95 = arith.subi %94, %90 : index
            %96 = arith.addi %88, %95 : index
            %97 = arith.subi %96, %52 : index
            %98:2 = affine.delinearize_index %97 into (16, 128) : index, index
            %expand_shape_10 = memref.expand_shape %expand_shape_8 [[0, 1], [2, 3]] output_shape [4, 16, 4, 32] : memref<64x128xbf16, #gpu.address_space<workgroup>> into memref<4x16x4x32xbf16, #gpu.address_space<workgroup>>
            %expand_shape_11 = memref.expand_shape %expand_shape [[0, 1], [2, 3]] output_shape [2, 16, 4, 32] : memref<32x128xbf16, #gpu.address_space<workgroup>> into memref<2x16x4x32xbf16, #gpu.address_space<workgroup>>
            %99:2 = scf.for %arg2 = %c0 to %c16 step %c4 iter_args(%arg3 = %cst_4, %arg4 = %cst_4) -> (vector<4xf32>, vector<4xf32>) {
              %137 = affine.apply #map10(%arg2)
              %subview_12 = memref.subview %4[%20, %137] [16, 128] [1, 1] : memref<1024x512xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<16x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %subview_13 = memref.subview %2[%15, %137] [%18, 128] [1, 1] : memref<17x512xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              amdgpu.gather_to_lds %subview_13[%37, %35#1], %subview[%c0, %c0] : vector<8xbf16>, memref<?x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<8x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_13[%51, %49#1], %subview[%c4, %c0] : vector<8xbf16>, memref<?x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<8x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_12[%63#0, %63#1], %subview_9[%c0, %c0] : vector<8xbf16>, memref<16x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<16x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_12[%74#0, %74#1], %subview_9[%c4, %c0] : vector<8xbf16>, memref<16x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<16x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_12[%86#0, %86#1], %subview_9[%c8, %c0] : vector<8xbf16>, memref<16x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<16x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_12[%98#0, %98#1], %subview_9[%c12, %c0] : vector<8xbf16>, memref<16x128xbf16, strided<[512, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<16x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %138 = vector.transfer_read %expand_shape_11[%8#0, %11, %c0, %22], %0 {in_bounds = [true, true, true, true]} : memref<2x16x4x32xbf16, #gpu.address_space<workgroup>>, vector<1x1x4x8xbf16>
              %139 = vector.transpose %138, [0, 2, 1, 3] : vector<1x1x4x8xbf16> to vector<1x4x1x8xbf16>
              %140 = vector.transfer_read %expand_shape_10[%21, %11, %c0, %22], %0 {in_bounds = [true, true, true, true]} : memref<4x16x4x32xbf16, #gpu.address_space<workgroup>>, vector<2x1x4x8xbf16>
              %141 = vector.transpose %140, [0, 2, 1, 3] : vector<2x1x4x8xbf16> to vector<2x4x1x8xbf16>
              %142 = vector.extract %139[0, 0] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %143 = vector.extract %141[0, 0] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %144 = vector.shape_cast %142 : vector<1x8xbf16> to vector<8xbf16>
              %145 = vector.shape_cast %143 : vector<1x8xbf16> to vector<8xbf16>
              %146 = amdgpu.mfma 16x16x32 %144 * %145 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %147 = vector.extract %141[1, 0] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %148 = vector.shape_cast %142 : vector<1x8xbf16> to vector<8xbf16>
              %149 = vector.shape_cast %147 : vector<1x8xbf16> to vector<8xbf16>
              %150 = amdgpu.mfma 16x16x32 %148 * %149 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %151 = vector.extract %139[0, 1] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %152 = vector.extract %141[0, 1] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %153 = vector.shape_cast %151 : vector<1x8xbf16> to vector<8xbf16>
              %154 = vector.shape_cast %152 : vector<1x8xbf16> to vector<8xbf16>
              %155 = amdgpu.mfma 16x16x32 %153 * %154 + %146 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %156 = vector.extract %141[1, 1] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %157 = vector.shape_cast %151 : vector<1x8xbf16> to vector<8xbf16>
              %158 = vector.shape_cast %156 : vector<1x8xbf16> to vector<8xbf16>
              %159 = amdgpu.mfma 16x16x32 %157 * %158 + %150 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %160 = vector.extract %139[0, 2] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %161 = vector.extract %141[0, 2] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %162 = vector.shape_cast %160 : vector<1x8xbf16> to vector<8xbf16>
              %163 = vector.shape_cast %161 : vector<1x8xbf16> to vector<8xbf16>
              %164 = amdgpu.mfma 16x16x32 %162 * %163 + %155 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %165 = vector.extract %141[1, 2] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %166 = vector.shape_cast %160 : vector<1x8xbf16> to vector<8xbf16>
              %167 = vector.shape_cast %165 : vector<1x8xbf16> to vector<8xbf16>
              %168 = amdgpu.mfma 16x16x32 %166 * %167 + %159 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %169 = vector.extract %139[0, 3] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %170 = vector.extract %141[0, 3] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %171 = vector.shape_cast %169 : vector<1x8xbf16> to vector<8xbf16>
              %172 = vector.shape_cast %170 : vector<1x8xbf16> to vector<8xbf16>
              %173 = amdgpu.mfma 16x16x32 %171 * %172 + %164 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %174 = vector.extract %141[1, 3] : vector<1x8xbf16> from vector<2x4x1x8xbf16>
              %175 = vector.shape_cast %169 : vector<1x8xbf16> to vector<8xbf16>
              %176 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %177 = amdgpu.mfma 16x16x32 %175 * %176 + %168 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %177, %173 : vector<4xf32>, vector<4xf32>
            }
            %100 = vector.shape_cast %99#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %101 = vector.shape_cast %99#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %102 = vector.insert_strided_slice %100, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x2x4x1xf32>
            %103 = vector.insert_strided_slice %101, %102 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x2x4x1xf32>
            %104 = vector.transpose %103, [0, 2, 1, 3] : vector<1x2x4x1xf32> to vector<1x4x2x1xf32>
            %collapse_shape = memref.collapse_shape %6 [[0, 1]] : memref<17x1024xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<17408xf32, #amdgpu.address_space<fat_raw_buffer>>
            %105 = vector.step : vector<1xindex>
            %106 = vector.broadcast %105 : vector<1xindex> to vector<1x4x2x1xindex>
            %107 = vector.step : vector<4xindex>
            %108 = vector.broadcast %107 : vector<4xindex> to vector<1x1x2x4xindex>
            %109 = vector.transpose %108, [0, 3, 2, 1] : vector<1x1x2x4xindex> to vector<1x4x2x1xindex>
            %110 = vector.step : vector<2xindex>
            %111 = vector.broadcast %110 : vector<2xindex> to vector<1x4x1x2xindex>
            %112 = vector.transpose %111, [0, 1, 3, 2] : vector<1x4x1x2xindex> to vector<1x4x2x1xindex>
            %113 = vector.broadcast %8#0 : index to vector<1x4x2x1xindex>
            %114 = arith.addi %106, %113 : vector<1x4x2x1xindex>
            %115 = vector.broadcast %12 : index to vector<1x4x2x1xindex>
            %116 = arith.addi %109, %115 : vector<1x4x2x1xindex>
            %117 = arith.muli %8#1, %c2 overflow<nsw> : index
            %118 = vector.broadcast %117 : index to vector<1x4x2x1xindex>
            %119 = arith.addi %112, %118 : vector<1x4x2x1xindex>
            %120 = vector.broadcast %11 : index to vector<1xindex>
            %121 = arith.addi %105, %120 : vector<1xindex>
            %122 = arith.muli %114, %cst_0 overflow<nsw> : vector<1x4x2x1xindex>
            %123 = arith.addi %122, %116 overflow<nsw> : vector<1x4x2x1xindex>
            %124 = arith.muli %119, %cst_0 overflow<nsw> : vector<1x4x2x1xindex>
            %125 = vector.broadcast %121 : vector<1xindex> to vector<1x4x2x1xindex>
            %126 = arith.addi %124, %125 overflow<nsw> : vector<1x4x2x1xindex>
            %127 = arith.cmpi ult, %123, %cst_1 : vector<1x4x2x1xindex>
            %128 = arith.cmpi ult, %126, %cst_2 : vector<1x4x2x1xindex>
            %129 = arith.andi %127, %128 : vector<1x4x2x1xi1>
            %130 = vector.broadcast %7 : index to vector<1x4x2x1xindex>
            %131 = arith.addi %130, %126 : vector<1x4x2x1xindex>
            %132 = arith.muli %123, %cst_3 overflow<nsw> : vector<1x4x2x1xindex>
            %133 = arith.addi %132, %131 overflow<nsw> : vector<1x4x2x1xindex>
            %134 = vector.shape_cast %133 : vector<1x4x2x1xindex> to vector<8xindex>
            %135 = vector.shape_cast %129 : vector<1x4x2x1xi1> to vector<8xi1>
            %136 = vector.shape_cast %104 : vector<1x4x2x1xf32> to vector<8xf32>
            vector.scatter %collapse_shape[%c0] [%134], %135, %136 : memref<17408xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xindex>, vector<8xi1>, vector<8xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_5 : memref<4096xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<8192xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_17x1024x512_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

