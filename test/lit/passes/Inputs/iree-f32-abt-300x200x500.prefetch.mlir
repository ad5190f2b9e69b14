#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 128)>
#map1 = affine_map<(d0) -> (d0 * 64)>
#map2 = affine_map<(d0) -> (d0 * -64 + 300, 64)>
#map3 = affine_map<(d0) -> (d0 * -128 + 200, 128)>
#map4 = affine_map<(d0) -> (d0 * -64 + 300, 0, 64)>
#map5 = affine_map<(d0, d1) -> (64, d0 - d1)>
#map6 = affine_map<(d0) -> (d0 * -128 + 200, 0, 128)>
#map7 = affine_map<(d0, d1) -> (128, d0 - d1)>
#map8 = affine_map<(d0, d1)[s0] -> (64, s0, d0 - d1)>
#map9 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map10 = affine_map<(d0)[s0, s1] -> (d0 * 64 + s0 + s1)>
#map11 = affine_map<()[s0] -> (s0 * 2)>
#map12 = affine_map<(d0, d1)[s0] -> (128, s0, d0 - d1)>
#map13 = affine_map<(d0)[s0, s1] -> (d0 * 128 + s0 + s1)>
#map14 = affine_map<()[s0] -> (s0 * 4)>
#map15 = affine_map<(d0)[s0] -> (d0 * 4 + s0)>
#map16 = affine_map<(d0)[s0] -> (d0 * 4 + s0 * 2)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_300x200x500_f32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_300x200x500_f32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %cst = arith.constant dense<0.000000e+00> : vector<1x2xf32>
          %cst_0 = arith.constant dense<0.000000e+00> : vector<1x1xf32>
          %cst_1 = arith.constant dense<0.000000e+00> : vector<2x4x4x1xf32>
          %0 = ub.poison : f32
          %c2 = arith.constant 2 : index
          %c125 = arith.constant 125 : index
          %c1 = arith.constant 1 : index
          %cst_2 = arith.constant 0.000000e+00 : f32
          %c0 = arith.constant 0 : index
          %c4 = arith.constant 4 : index
          %cst_3 = arith.constant dense<16> : vector<1x4x4x1xindex>
          %cst_4 = arith.constant dense<200> : vector<1x4x4x1xindex>
          %cst_5 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<128x6xf32, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() : memref<64x6xf32, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x2xf32, #gpu.address_space<private>>
          %alloca_7 = memref.alloca() : memref<1x1xf32, #gpu.address_space<private>>
          %alloca_8 = memref.alloca() : memref<2x4x4x1xf32, #gpu.address_space<private>>
          %alloca_9 = memref.alloca() : memref<2x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<300x500xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<300x500xf32, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<300x500xf32, #hal.descriptor_type<storage_buffer>> to memref<300x500xf32, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<200x500xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_10 = memref.assume_alignment %3, 64 : memref<200x500xf32, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_10 resetOffset : memref<200x500xf32, #hal.descriptor_type<storage_buffer>> to memref<200x500xf32, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<300x200xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_11 = memref.assume_alignment %5, 64 : memref<300x200xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_11 resetOffset : memref<300x200xf32, #hal.descriptor_type<storage_buffer>> to memref<300x200xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (5, 2) {
            %7 = affine.apply #map(%arg1)
            %8 = affine.apply #map1(%arg0)
            %9 = affine.min #map2(%arg0)
            %10 = affine.min #map3(%arg1)
            %11 = affine.min #map4(%arg0)
            %12 = affine.min #map5(%9, %11)
            %subview = memref.subview %alloc_6[0, 0] [64, 4] [1, 1] : memref<64x6xf32, #gpu.address_space<workgroup>> to memref<64x4xf32, strided<[6, 1]>, #gpu.address_space<workgroup>>
            %13 = affine.min #map6(%arg1)
            %14 = affine.min #map7(%10, %13)
            %subview_12 = memref.subview %alloc[0, 0] [128, 4] [1, 1] : memref<128x6xf32, #gpu.address_space<workgroup>> to memref<128x4xf32, strided<[6, 1]>, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %15:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %16:3 = affine.delinearize_index %15#2 into (4, 16) : index, index, index
            %17 = iree_codegen.index_hint %16#1(#iree_gpu.lane_constant<16>) : index
            %18 = iree_codegen.index_hint %16#2(#iree_gpu.lane_increment<16, aligned>) : index
            %19 = affine.linearize_index disjoint [%17, %c0] by (4, 4) : index
            %20:2 = affine.delinearize_index %thread_id_x into (64, 4) : index, index
            %21 = affine.min #map8(%9, %11)[%20#0]
            %22 = affine.min #map9(%12, %21)
            %23 = affine.apply #map10(%arg0)[%21, %11]
            %24:2 = affine.delinearize_index %thread_id_x into (128, 2) : index, index
            %25 = affine.apply #map11()[%24#1]
            %26 = affine.min #map12(%10, %13)[%24#0]
            %27 = affine.min #map9(%14, %26)
            %28 = affine.apply #map13(%arg1)[%26, %13]
            %29 = affine.apply #map14()[%15#1]
            %30 = affine.apply #map11()[%15#0]
            %31 = arith.index_castui %22 : index to i1
            %32 = arith.index_castui %27 : index to i1
            %subview_13 = memref.subview %subview[%20#0, %20#1] [1, 1] [1, 1] : memref<64x4xf32, strided<[6, 1]>, #gpu.address_space<workgroup>> to memref<1x1xf32, strided<[6, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_14 = memref.subview %subview_12[%24#0, %25] [1, 2] [1, 1] : memref<128x4xf32, strided<[6, 1]>, #gpu.address_space<workgroup>> to memref<1x2xf32, strided<[6, 1], offset: ?>, #gpu.address_space<workgroup>>
            %expand_shape = memref.expand_shape %subview_12 [[0, 1], [2, 3]] output_shape [8, 16, 1, 4] : memref<128x4xf32, strided<[6, 1]>, #gpu.address_space<workgroup>> into memref<8x16x1x4xf32, strided<[96, 6, 4, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_15 = memref.expand_shape %subview [[0, 1], [2, 3]] output_shape [4, 16, 1, 4] : memref<64x4xf32, strided<[6, 1]>, #gpu.address_space<workgroup>> into memref<4x16x1x4xf32, strided<[96, 6, 4, 1]>, #gpu.address_space<workgroup>>
            %33:8 = scf.for %arg2 = %c0 to %c125 step %c1 iter_args(%arg3 = %cst_5, %arg4 = %cst_5, %arg5 = %cst_5, %arg6 = %cst_5, %arg7 = %cst_5, %arg8 = %cst_5, %arg9 = %cst_5, %arg10 = %cst_5) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %76 = affine.apply #map15(%arg2)[%20#1]
              %subview_16 = memref.subview %2[%23, %76] [%22, 1] [1, 1] : memref<300x500xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<?x1xf32, strided<[500, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %77 = vector.transfer_read %subview_16[%c0, %c0], %cst_2 {in_bounds = [true, true]} : memref<?x1xf32, strided<[500, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1xf32>
              %78 = arith.select %31, %77, %cst_0 : vector<1x1xf32>
              vector.transfer_write %78, %alloca_7[%c0, %c0] {in_bounds = [true, true]} : vector<1x1xf32>, memref<1x1xf32, #gpu.address_space<private>>
              %79 = affine.apply #map16(%arg2)[%24#1]
              %subview_17 = memref.subview %4[%28, %79] [%27, 2] [1, 1] : memref<200x500xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<?x2xf32, strided<[500, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %80 = vector.transfer_read %subview_17[%c0, %c0], %cst_2 {in_bounds = [true, true]} : memref<?x2xf32, strided<[500, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x2xf32>
              %81 = arith.select %32, %80, %cst : vector<1x2xf32>
              vector.transfer_write %81, %alloca[%c0, %c0] {in_bounds = [true, true]} : vector<1x2xf32>, memref<1x2xf32, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %82 = vector.transfer_read %alloca_7[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x1xf32, #gpu.address_space<private>>, vector<1x1xf32>
              vector.transfer_write %82, %subview_13[%c0, %c0] {in_bounds = [true, true]} : vector<1x1xf32>, memref<1x1xf32, strided<[6, 1], offset: ?>, #gpu.address_space<workgroup>>
              %83 = vector.transfer_read %alloca[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x2xf32, #gpu.address_space<private>>, vector<1x2xf32>
              vector.transfer_write %83, %subview_14[%c0, %c0] {in_bounds = [true, true]} : vector<1x2xf32>, memref<1x2xf32, strided<[6, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %84 = vector.transfer_read %expand_shape_15[%30, %18, %c0, %17], %0 {in_bounds = [true, true, true, true]} : memref<4x16x1x4xf32, strided<[96, 6, 4, 1]>, #gpu.address_space<workgroup>>, vector<2x1x1x1xf32>
              %85 = vector.transfer_read %expand_shape[%29, %18, %c0, %17], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x4xf32, strided<[96, 6, 4, 1]>, #gpu.address_space<workgroup>>, vector<4x1x1x1xf32>
              %86 = vector.extract %84[0, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %87 = vector.extract %85[0, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %88 = amdgpu.mfma 16x16x4 %86 * %87 + %arg10 : f32, f32, vector<4xf32>
              %89 = vector.extract %84[0, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %90 = vector.extract %85[1, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %91 = amdgpu.mfma 16x16x4 %89 * %90 + %arg9 : f32, f32, vector<4xf32>
              %92 = vector.extract %84[0, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %93 = vector.extract %85[2, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %94 = amdgpu.mfma 16x16x4 %92 * %93 + %arg8 : f32, f32, vector<4xf32>
              %95 = vector.extract %84[0, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %96 = vector.extract %85[3, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %97 = amdgpu.mfma 16x16x4 %95 * %96 + %arg7 : f32, f32, vector<4xf32>
              %98 = vector.extract %84[1, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %99 = vector.extract %85[0, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %100 = amdgpu.mfma 16x16x4 %98 * %99 + %arg6 : f32, f32, vector<4xf32>
              %101 = vector.extract %84[1, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %102 = vector.extract %85[1, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %103 = amdgpu.mfma 16x16x4 %101 * %102 + %arg5 : f32, f32, vector<4xf32>
              %104 = vector.extract %84[1, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %105 = vector.extract %85[2, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %106 = amdgpu.mfma 16x16x4 %104 * %105 + %arg4 : f32, f32, vector<4xf32>
              %107 = vector.extract %84[1, 0, 0, 0] : f32 from vector<2x1x1x1xf32>
              %108 = vector.extract %85[3, 0, 0, 0] : f32 from vector<4x1x1x1xf32>
              %109 = amdgpu.mfma 16x16x4 %107 * %108 + %arg3 : f32, f32, vector<4xf32>
              scf.yield %109, %106, %103, %100, %97, %94, %91, %88 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %34 = vector.shape_cast %33#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %35 = vector.shape_cast %33#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %36 = vector.shape_cast %33#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %37 = vector.shape_cast %33#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %38 = vector.shape_cast %33#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %39 = vector.shape_cast %33#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %40 = vector.shape_cast %33#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %41 = vector.shape_cast %33#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %42 = vector.insert_strided_slice %34, %cst_1 offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %43 = vector.insert_strided_slice %35, %42 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %44 = vector.insert_strided_slice %36, %43 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %45 = vector.insert_strided_slice %37, %44 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %46 = vector.insert_strided_slice %38, %45 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %47 = vector.insert_strided_slice %39, %46 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %48 = vector.insert_strided_slice %40, %47 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            %49 = vector.insert_strided_slice %41, %48 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<2x4x4x1xf32>
            vector.transfer_write %49, %alloca_8[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<2x4x4x1xf32>, memref<2x4x4x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %6 [[0, 1]] : memref<300x200xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<60000xf32, #amdgpu.address_space<fat_raw_buffer>>
            %50 = vector.step : vector<1xindex>
            %51 = vector.broadcast %50 : vector<1xindex> to vector<1x4x4x1xindex>
            %52 = vector.step : vector<4xindex>
            %53 = vector.broadcast %52 : vector<4xindex> to vector<1x1x4x4xindex>
            %54 = vector.transpose %53, [0, 3, 2, 1] : vector<1x1x4x4xindex> to vector<1x4x4x1xindex>
            %55 = vector.broadcast %52 : vector<4xindex> to vector<1x4x1x4xindex>
            %56 = vector.transpose %55, [0, 1, 3, 2] : vector<1x4x1x4xindex> to vector<1x4x4x1xindex>
            %57 = arith.muli %15#0, %c2 overflow<nsw> : index
            %58 = vector.broadcast %57 : index to vector<1x4x4x1xindex>
            %59 = arith.addi %58, %51 : vector<1x4x4x1xindex>
            %60 = vector.broadcast %19 : index to vector<1x4x4x1xindex>
            %61 = arith.addi %54, %60 : vector<1x4x4x1xindex>
            %62 = arith.muli %15#1, %c4 overflow<nsw> : index
            %63 = vector.broadcast %62 : index to vector<1x4x4x1xindex>
            %64 = arith.addi %56, %63 : vector<1x4x4x1xindex>
            %65 = vector.broadcast %18 : index to vector<1xindex>
            %66 = arith.addi %50, %65 : vector<1xindex>
            %67 = arith.muli %64, %cst_3 overflow<nsw> : vector<1x4x4x1xindex>
            %68 = vector.broadcast %66 : vector<1xindex> to vector<1x4x4x1xindex>
            %69 = arith.addi %67, %68 overflow<nsw> : vector<1x4x4x1xindex>
            %70 = vector.broadcast %9 : index to vector<1x4x4x1xindex>
            %71 = vector.broadcast %10 : index to vector<1x4x4x1xindex>
            %72 = arith.cmpi ult, %69, %71 : vector<1x4x4x1xindex>
            %73 = vector.broadcast %8 : index to vector<1x4x4x1xindex>
            %74 = vector.broadcast %7 : index to vector<1x4x4x1xindex>
            %75 = arith.addi %74, %69 : vector<1x4x4x1xindex>
            scf.for %arg2 = %c0 to %c2 step %c1 {
              %subview_16 = memref.subview %alloca_9[%arg2, 0, 0, 0] [1, 4, 4, 1] [1, 1, 1, 1] : memref<2x4x4x1xf32, #gpu.address_space<private>> to memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %76 = vector.transfer_read %alloca_8[%arg2, %c0, %c0, %c0], %0 {in_bounds = [true, true, true, true]} : memref<2x4x4x1xf32, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %77 = vector.transpose %76, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>
              vector.transfer_write %77, %subview_16[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x4x1xf32>, memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %78 = vector.transfer_read %subview_16[%c0, %c0, %c0, %c0], %0 {in_bounds = [true, true, true, true]} : memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %79 = vector.broadcast %arg2 : index to vector<1x4x4x1xindex>
              %80 = arith.addi %59, %79 : vector<1x4x4x1xindex>
              %81 = arith.muli %80, %cst_3 overflow<nsw> : vector<1x4x4x1xindex>
              %82 = arith.addi %81, %61 overflow<nsw> : vector<1x4x4x1xindex>
              %83 = arith.cmpi ult, %82, %70 : vector<1x4x4x1xindex>
              %84 = arith.andi %83, %72 : vector<1x4x4x1xi1>
              %85 = arith.addi %73, %82 : vector<1x4x4x1xindex>
              %86 = arith.muli %85, %cst_4 overflow<nsw> : vector<1x4x4x1xindex>
              %87 = arith.addi %86, %75 overflow<nsw> : vector<1x4x4x1xindex>
              %88 = vector.shape_cast %87 : vector<1x4x4x1xindex> to vector<16xindex>
              %89 = vector.shape_cast %84 : vector<1x4x4x1xi1> to vector<16xi1>
              %90 = vector.shape_cast %78 : vector<1x4x4x1xf32> to vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%88], %89, %90 : memref<60000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_6 : memref<64x6xf32, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<128x6xf32, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_300x200x500_f32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

