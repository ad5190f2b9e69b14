#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (s0 ceildiv 128)>
#map1 = affine_map<(d0) -> (d0 * 128)>
#map2 = affine_map<(d0)[s0] -> (d0 * -128 + s0, 128)>
#map3 = affine_map<(d0)[s0] -> (d0 * -128 + s0, 0, 128)>
#map4 = affine_map<(d0, d1) -> (128, d0 - d1)>
#map5 = affine_map<()[s0] -> (s0 * 16)>
#map6 = affine_map<(d0, d1)[s0] -> (128, s0, d0 - d1)>
#map7 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map8 = affine_map<(d0)[s0, s1] -> (d0 * 128 + s0 + s1)>
#map9 = affine_map<()[s0] -> (s0 * 32)>
#map10 = affine_map<(d0)[s0] -> (d0 * 128 + s0 * 32)>
#map11 = affine_map<()[s0] -> (s0 * 4)>
#map12 = affine_map<()[s0] -> (s0 * 1024)>
#map13 = affine_map<()[s0] -> ((s0 mod 64) floordiv 8)>
#map14 = affine_map<()[s0] -> ((s0 floordiv 64) mod 8)>
#map15 = affine_map<()[s0, s1] -> (s1 * 8 + (s0 floordiv 64) * 64)>
#map16 = affine_map<(d0)[s0] -> (d0 * 32 + s0 * 16)>
#map17 = affine_map<(d0) -> (d0 * 32)>
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_Dx4096x256_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_Dx4096x256_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %c512 = arith.constant 512 : index
          %0 = ub.poison : bf16
          %c16 = arith.constant 16 : index
          %cst = arith.constant dense<0.000000e+00> : vector<4x4x4x1xf32>
          %1 = ub.poison : f32
          %c4 = arith.constant 4 : index
          %c8 = arith.constant 8 : index
          %c1 = arith.constant 1 : index
          %cst_0 = arith.constant 0.000000e+00 : bf16
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %cst_1 = arith.constant dense<16> : vector<1x4x4x1xindex>
          %cst_2 = arith.constant dense<128> : vector<1x4x4x1xindex>
          %cst_3 = arith.constant dense<4096> : vector<1x4x4x1xindex>
          %cst_4 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloc_5 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x16xbf16, #gpu.address_space<private>>
          %alloca_6 = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %alloca_7 = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
          %3 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
          %4 = arith.extui %2 : i32 to i64
          %5 = arith.extui %3 : i32 to i64
          %6 = arith.shli %5, %c32_i64 : i64
          %7 = arith.ori %4, %6 : i64
          %8 = arith.index_castui %7 : i64 to index
          %9 = util.assume.int %8<umin = 0, umax = 9007199254740991> : index
          %10 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x256xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %10, 64 : memref<4096x256xbf16, #hal.descriptor_type<storage_buffer>>
          %11 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<4096x256xbf16, #hal.descriptor_type<storage_buffer>> to memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %12 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_8 = memref.assume_alignment %12, 64 : memref<4096xf32, #hal.descriptor_type<storage_buffer>>
          %13 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<4096xf32, #hal.descriptor_type<storage_buffer>> to memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>
          %14 = iree_tensor_ext.dispatch.workload.ordinal %9, 0 : index
          %15 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>{%14}
          %assume_align_9 = memref.assume_alignment %15, 64 : memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>
          %16 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<?x4096xf32, #hal.descriptor_type<storage_buffer>>{%14}
          %assume_align_10 = memref.assume_alignment %16, 64 : memref<?x4096xf32, #hal.descriptor_type<storage_buffer>>
          %17 = affine.apply #map()[%14]
          scf.forall (%arg0, %arg1) in (%17, 32) {
            %18 = affine.apply #map1(%arg1)
            %subview = memref.subview %13[%18] [128] [1] : memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<128xf32, strided<[1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %19 = affine.apply #map1(%arg0)
            %20 = affine.min #map2(%arg0)[%14]
            %21 = affine.min #map3(%arg0)[%14]
            %22 = affine.min #map4(%20, %21)
            %expand_shape = memref.expand_shape %alloc_5 [[0, 1]] output_shape [128, 32] : memref<4096xbf16, #gpu.address_space<workgroup>> into memref<128x32xbf16, #gpu.address_space<workgroup>>
            %expand_shape_11 = memref.expand_shape %alloc [[0, 1]] output_shape [128, 32] : memref<4096xbf16, #gpu.address_space<workgroup>> into memref<128x32xbf16, #gpu.address_space<workgroup>>
            %expand_shape_12 = memref.expand_shape %subview [[0, 1]] output_shape [8, 16] : memref<128xf32, strided<[1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> into memref<8x16xf32, strided<[16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %23:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %24:3 = affine.delinearize_index %23#2 into (4, 16) : index, index, index
            %25 = iree_codegen.index_hint %24#1(#iree_gpu.lane_constant<16>) : index
            %26 = iree_codegen.index_hint %24#2(#iree_gpu.lane_increment<16, aligned>) : index
            %27 = affine.linearize_index disjoint [%25, %c0] by (4, 4) : index
            %28:2 = affine.delinearize_index %thread_id_x into (128, 2) : index, index
            %29 = affine.apply #map5()[%28#1]
            %30 = affine.min #map6(%20, %21)[%28#0]
            %31 = affine.min #map7(%22, %30)
            %32 = affine.apply #map8(%arg0)[%30, %21]
            %33:2 = affine.delinearize_index %thread_id_x into (4, 64) : index, index
            %34 = affine.apply #map9()[%33#0]
            %35 = affine.apply #map10(%arg1)[%33#0]
            %36 = affine.apply #map11()[%23#1]
            %37 = affine.apply #map11()[%23#0]
            %38 = affine.linearize_index disjoint [%25, %c0] by (4, 8) : index
            %39 = vector.create_mask %31, %c16 : vector<1x16xi1>
            %subview_13 = memref.subview %expand_shape_11[%28#0, %29] [1, 16] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<1x16xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %subview_14 = memref.subview %expand_shape[%34, 0] [32, 32] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %40 = arith.muli %33#1, %c8 : index
            %41 = affine.apply #map12()[%33#0]
            %42 = arith.addi %41, %40 : index
            %43 = arith.remui %42, %c8 : index
            %44 = arith.subi %42, %43 : index
            %45 = affine.apply #map13()[%44]
            %46 = affine.apply #map14()[%44]
            %47 = arith.xori %46, %45 : index
            %48 = affine.apply #map15()[%44, %47]
            %49 = arith.subi %48, %44 : index
            %50 = arith.addi %42, %49 : index
            %51 = arith.subi %50, %41 : index
            %52:2 = affine.delinearize_index %51 into (32, 32) : index, index
            %53 = arith.addi %40, %c512 : index
            %54 = arith.addi %41, %53 : index
            %55 = arith.remui %54, %c8 : index
            %56 = arith.subi %54, %55 : index
            %57 = affine.apply #map13()[%56]
            %58 = affine.apply #map14()[%56]
            %59 = arith.xori %58, %57 : index
            %60 = affine.apply #map15()[%56, %59]
            %61 = arith.subi %60, %56 : index
            %62 = arith.addi %54, %61 : index
            %63 = arith.subi %62, %41 : index
            %64:2 = affine.delinearize_index %63 into (32, 32) : index, index
            %expand_shape_15 = memref.expand_shape %expand_shape [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xbf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>
            %expand_shape_16 = memref.expand_shape %expand_shape_11 [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xbf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>
            %65:16 = scf.for %arg2 = %c0 to %c8 step %c1 iter_args(%arg3 = %cst_4, %arg4 = %cst_4, %arg5 = %cst_4, %arg6 = %cst_4, %arg7 = %cst_4, %arg8 = %cst_4, %arg9 = %cst_4, %arg10 = %cst_4, %arg11 = %cst_4, %arg12 = %cst_4, %arg13 = %cst_4, %arg14 = %cst_4, %arg15 = %cst_4, %arg16 = %cst_4, %arg17 = %cst_4, %arg18 = %cst_4) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %126 = affine.apply #map16(%arg2)[%28#1]
              %subview_17 = memref.subview %assume_align_9[%32, %126] [%31, 16] [1, 1] : memref<?x256xbf16, #hal.descriptor_type<storage_buffer>> to memref<?x16xbf16, strided<[256, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %127 = vector.transfer_read %subview_17[%c0, %c0], %cst_0, %39 {in_bounds = [true, true]} : memref<?x16xbf16, strided<[256, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x16xbf16>
              vector.transfer_write %127, %alloca[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xbf16>, memref<1x16xbf16, #gpu.address_space<private>>
              %128 = affine.apply #map17(%arg2)
              %subview_18 = memref.subview %11[%35, %128] [32, 32] [1, 1] : memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<32x32xbf16, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              scf.for %arg19 = %c0 to %c16 step %c8 {
                %subview_19 = memref.subview %alloca[0, %arg19] [1, 8] [1, 1] : memref<1x16xbf16, #gpu.address_space<private>> to memref<1x8xbf16, strided<[16, 1], offset: ?>, #gpu.address_space<private>>
                %subview_20 = memref.subview %subview_13[0, %arg19] [1, 8] [1, 1] : memref<1x16xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
                %187 = vector.transfer_read %subview_19[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[16, 1], offset: ?>, #gpu.address_space<private>>, vector<1x8xbf16>
                vector.transfer_write %187, %subview_20[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              }
              amdgpu.gather_to_lds %subview_18[%52#0, %52#1], %subview_14[%c0, %c0] : vector<8xbf16>, memref<32x32xbf16, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              amdgpu.gather_to_lds %subview_18[%64#0, %64#1], %subview_14[%c16, %c0] : vector<8xbf16>, memref<32x32xbf16, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, memref<32x32xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %129 = vector.transfer_read %expand_shape_16[%37, %26, %c0, %38], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>, vector<4x1x1x8xbf16>
              %130 = vector.transfer_read %expand_shape_15[%36, %26, %c0, %38], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>, vector<4x1x1x8xbf16>
              %131 = vector.extract %129[0, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %132 = vector.extract %130[0, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %133 = vector.shape_cast %131 : vector<1x8xbf16> to vector<8xbf16>
              %134 = vector.shape_cast %132 : vector<1x8xbf16> to vector<8xbf16>
              %135 = amdgpu.mfma 16x16x32 %133 * %134 + %arg18 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %136 = vector.extract %130[1, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %137 = vector.shape_cast %131 : vector<1x8xbf16> to vector<8xbf16>
              %138 = vector.shape_cast %136 : vector<1x8xbf16> to vector<8xbf16>
              %139 = amdgpu.mfma 16x16x32 %137 * %138 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %140 = vector.extract %130[2, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %141 = vector.shape_cast %131 : vector<1x8xbf16> to vector<8xbf16>
              %142 = vector.shape_cast %140 : vector<1x8xbf16> to vector<8xbf16>
              %143 = amdgpu.mfma 16x16x32 %141 * %142 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %144 = vector.extract %130[3, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %145 = vector.shape_cast %131 : vector<1x8xbf16> to vector<8xbf16>
              %146 = vector.shape_cast %144 : vector<1x8xbf16> to vector<8xbf16>
              %147 = amdgpu.mfma 16x16x32 %145 * %146 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %148 = vector.extract %129[1, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %149 = vector.shape_cast %148 : vector<1x8xbf16> to vector<8xbf16>
              %150 = vector.shape_cast %132 : vector<1x8xbf16> to vector<8xbf16>
              %151 = amdgpu.mfma 16x16x32 %149 * %150 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %152 = vector.shape_cast %148 : vector<1x8xbf16> to vector<8xbf16>
              %153 = vector.shape_cast %136 : vector<1x8xbf16> to vector<8xbf16>
              %154 = amdgpu.mfma 16x16x32 %152 * %153 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %155 = vector.shape_cast %148 : vector<1x8xbf16> to vector<8xbf16>
              %156 = vector.shape_cast %140 : vector<1x8xbf16> to vector<8xbf16>
              %157 = amdgpu.mfma 16x16x32 %155 * %156 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %158 = vector.shape_cast %148 : vector<1x8xbf16> to vector<8xbf16>
              %159 = vector.shape_cast %144 : vector<1x8xbf16> to vector<8xbf16>
              %160 = amdgpu.mfma 16x16x32 %158 * %159 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %161 = vector.extract %129[2, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %162 = vector.shape_cast %161 : vector<1x8xbf16> to vector<8xbf16>
              %163 = vector.shape_cast %132 : vector<1x8xbf16> to vector<8xbf16>
              %164 = amdgpu.mfma 16x16x32 %162 * %163 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %165 = vector.shape_cast %161 : vector<1x8xbf16> to vector<8xbf16>
              %166 = vector.shape_cast %136 : vector<1x8xbf16> to vector<8xbf16>
              %167 = amdgpu.mfma 16x16x32 %165 * %166 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %168 = vector.shape_cast %161 : vector<1x8xbf16> to vector<8xbf16>
              %169 = vector.shape_cast %140 : vector<1x8xbf16> to vector<8xbf16>
              %170 = amdgpu.mfma 16x16x32 %168 * %169 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %171 = vector.shape_cast %161 : vector<1x8xbf16> to vector<8xbf16>
              %172 = vector.shape_cast %144 : vector<1x8xbf16> to vector<8xbf16>
              %173 = amdgpu.mfma 16x16x32 %171 * %172 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %174 = vector.extract %129[3, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %175 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %176 = vector.shape_cast %132 : vector<1x8xbf16> to vector<8xbf16>
              %177 = amdgpu.mfma 16x16x32 %175 * %176 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %178 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %179 = vector.shape_cast %136 : vector<1x8xbf16> to vector<8xbf16>
              %180 = amdgpu.mfma 16x16x32 %178 * %179 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %181 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %182 = vector.shape_cast %140 : vector<1x8xbf16> to vector<8xbf16>
              %183 = amdgpu.mfma 16x16x32 %181 * %182 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %184 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %185 = vector.shape_cast %144 : vector<1x8xbf16> to vector<8xbf16>
              %186 = amdgpu.mfma 16x16x32 %184 * %185 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %186, %183, %180, %177, %173, %170, %167, %164, %160, %157, %154, %151, %147, %143, %139, %135 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %66 = vector.shape_cast %65#15 : vector<4xf32> to vector<1x1x4x1xf32>
            %67 = vector.shape_cast %65#14 : vector<4xf32> to vector<1x1x4x1xf32>
            %68 = vector.shape_cast %65#13 : vector<4xf32> to vector<1x1x4x1xf32>
            %69 = vector.shape_cast %65#12 : vector<4xf32> to vector<1x1x4x1xf32>
            %70 = vector.shape_cast %65#11 : vector<4xf32> to vector<1x1x4x1xf32>
            %71 = vector.shape_cast %65#10 : vector<4xf32> to vector<1x1x4x1xf32>
            %72 = vector.shape_cast %65#9 : vector<4xf32> to vector<1x1x4x1xf32>
            %73 = vector.shape_cast %65#8 : vector<4xf32> to vector<1x1x4x1xf32>
            %74 = vector.shape_cast %65#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %75 = vector.shape_cast %65#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %76 = vector.shape_cast %65#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %77 = vector.shape_cast %65#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %78 = vector.shape_cast %65#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %79 = vector.shape_cast %65#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %80 = vector.shape_cast %65#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %81 = vector.shape_cast %65#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %82 = vector.insert_strided_slice %66, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %83 = vector.insert_strided_slice %67, %82 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %84 = vector.insert_strided_slice %68, %83 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %85 = vector.insert_strided_slice %69, %84 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %86 = vector.insert_strided_slice %70, %85 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %87 = vector.insert_strided_slice %71, %86 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %88 = vector.insert_strided_slice %72, %87 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %89 = vector.insert_strided_slice %73, %88 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %90 = vector.insert_strided_slice %74, %89 offsets = [2, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %91 = vector.insert_strided_slice %75, %90 offsets = [2, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %92 = vector.insert_strided_slice %76, %91 offsets = [2, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %93 = vector.insert_strided_slice %77, %92 offsets = [2, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %94 = vector.insert_strided_slice %78, %93 offsets = [3, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %95 = vector.insert_strided_slice %79, %94 offsets = [3, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %96 = vector.insert_strided_slice %80, %95 offsets = [3, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %97 = vector.insert_strided_slice %81, %96 offsets = [3, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            vector.transfer_write %97, %alloca_6[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<4x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>
            %98 = vector.transfer_read %expand_shape_12[%36, %26], %1 {in_bounds = [true, true]} : memref<8x16xf32, strided<[16, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<4x1xf32>
            %99 = vector.broadcast %98 : vector<4x1xf32> to vector<1x4x4x1xf32>
            %100 = vector.transpose %99, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>
            %collapse_shape = memref.collapse_shape %assume_align_10 [[0, 1]] : memref<?x4096xf32, #hal.descriptor_type<storage_buffer>> into memref<?xf32, #hal.descriptor_type<storage_buffer>>
            %101 = vector.step : vector<1xindex>
            %102 = vector.broadcast %101 : vector<1xindex> to vector<1x4x4x1xindex>
            %103 = vector.step : vector<4xindex>
            %104 = vector.broadcast %103 : vector<4xindex> to vector<1x1x4x4xindex>
            %105 = vector.transpose %104, [0, 3, 2, 1] : vector<1x1x4x4xindex> to vector<1x4x4x1xindex>
            %106 = vector.broadcast %103 : vector<4xindex> to vector<1x4x1x4xindex>
            %107 = vector.transpose %106, [0, 1, 3, 2] : vector<1x4x1x4xindex> to vector<1x4x4x1xindex>
            %108 = arith.muli %23#0, %c4 overflow<nsw> : index
            %109 = vector.broadcast %108 : index to vector<1x4x4x1xindex>
            %110 = arith.addi %109, %102 : vector<1x4x4x1xindex>
            %111 = vector.broadcast %27 : index to vector<1x4x4x1xindex>
            %112 = arith.addi %105, %111 : vector<1x4x4x1xindex>
            %113 = arith.muli %23#1, %c4 overflow<nsw> : index
            %114 = vector.broadcast %113 : index to vector<1x4x4x1xindex>
            %115 = arith.addi %107, %114 : vector<1x4x4x1xindex>
            %116 = vector.broadcast %26 : index to vector<1xindex>
            %117 = arith.addi %101, %116 : vector<1xindex>
            %118 = arith.muli %115, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
            %119 = vector.broadcast %117 : vector<1xindex> to vector<1x4x4x1xindex>
            %120 = arith.addi %118, %119 overflow<nsw> : vector<1x4x4x1xindex>
            %121 = vector.broadcast %20 : index to vector<1x4x4x1xindex>
            %122 = arith.cmpi ult, %120, %cst_2 : vector<1x4x4x1xindex>
            %123 = vector.broadcast %19 : index to vector<1x4x4x1xindex>
            %124 = vector.broadcast %18 : index to vector<1x4x4x1xindex>
            %125 = arith.addi %124, %120 : vector<1x4x4x1xindex>
            scf.for %arg2 = %c0 to %c4 step %c1 {
              %subview_17 = memref.subview %alloca_7[%arg2, 0, 0, 0] [1, 4, 4, 1] [1, 1, 1, 1] : memref<4x4x4x1xf32, #gpu.address_space<private>> to memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %126 = vector.transfer_read %alloca_6[%arg2, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<4x4x4x1xf32, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %127 = arith.addf %126, %100 : vector<1x4x4x1xf32>
              %128 = vector.transpose %127, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>
              vector.transfer_write %128, %subview_17[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x4x1xf32>, memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %129 = vector.transfer_read %subview_17[%c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %130 = vector.broadcast %arg2 : index to vector<1x4x4x1xindex>
              %131 = arith.addi %110, %130 : vector<1x4x4x1xindex>
              %132 = arith.muli %131, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
              %133 = arith.addi %132, %112 overflow<nsw> : vector<1x4x4x1xindex>
              %134 = arith.cmpi ult, %133, %121 : vector<1x4x4x1xindex>
              %135 = arith.andi %134, %122 : vector<1x4x4x1xi1>
              %136 = arith.addi %123, %133 : vector<1x4x4x1xindex>
              %137 = arith.muli %136, %cst_3 overflow<nsw> : vector<1x4x4x1xindex>
              %138 = arith.addi %137, %125 overflow<nsw> : vector<1x4x4x1xindex>
              %139 = vector.shape_cast %138 : vector<1x4x4x1xindex> to vector<16xindex>
              %140 = vector.shape_cast %135 : vector<1x4x4x1xi1> to vector<16xi1>
              %141 = vector.shape_cast %129 : vector<1x4x4x1xf32> to vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%139], %140, %141 : memref<?xf32, #hal.descriptor_type<storage_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_5 : memref<4096xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_Dx4096x256_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

