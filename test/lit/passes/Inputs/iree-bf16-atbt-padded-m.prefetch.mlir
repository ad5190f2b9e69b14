#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (s0 ceildiv 128)>
#map1 = affine_map<(d0) -> (d0 * 128)>
#map2 = affine_map<(d0)[s0] -> (d0 * -128 + s0, 128)>
#map3 = affine_map<(d0)[s0] -> (d0 * -128 + s0, 0, 128)>
#map4 = affine_map<(d0, d1) -> (128, d0 - d1)>
#map5 = affine_map<()[s0] -> (s0 * 4)>
#map6 = affine_map<(d0)[s0] -> (d0 + s0)>
#map7 = affine_map<(d0) -> (d0 * 8)>
#map8 = affine_map<(d0, d1, d2) -> (128, d2 * 8, d0 - d1)>
#map9 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map10 = affine_map<(d0)[s0, s1] -> (d0 * 128 + s0 + s1)>
#map11 = affine_map<(d0)[s0] -> (d0 * 128 + s0)>
#map12 = affine_map<(d0)[s0] -> (d0 * 32 + s0)>
#map13 = affine_map<(d0, d1) -> (d0 * 32 + d1 * 8)>
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
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
          %0 = ub.poison : bf16
          %cst = arith.constant dense<0.000000e+00> : vector<4x4x4x1xf32>
          %1 = ub.poison : f32
          %c4 = arith.constant 4 : index
          %c256 = arith.constant 256 : index
          %c8 = arith.constant 8 : index
          %c1 = arith.constant 1 : index
          %cst_0 = arith.constant 0.000000e+00 : bf16
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %cst_1 = arith.constant dense<16> : vector<1x4x4x1xindex>
          %cst_2 = arith.constant dense<128> : vector<1x4x4x1xindex>
          %cst_3 = arith.constant dense<4096> : vector<1x4x4x1xindex>
          %c16 = arith.constant 16 : index
          %c12 = arith.constant 12 : index
          %c20 = arith.constant 20 : index
          %c24 = arith.constant 24 : index
          %c28 = arith.constant 28 : index
          %cst_4 = arith.constant dense<0.000000e+00> : vector<32xbf16>
          %cst_5 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() : memref<32x128xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
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
          %12 = iree_tensor_ext.dispatch.workload.ordinal %9, 0 : index
          %13 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>{%12}
          %assume_align_8 = memref.assume_alignment %13, 64 : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>
          %14 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x4096xf32, #hal.descriptor_type<storage_buffer>>{%12}
          %assume_align_9 = memref.assume_alignment %14, 64 : memref<?x4096xf32, #hal.descriptor_type<storage_buffer>>
          %15 = affine.apply #map()[%12]
          scf.forall (%arg0, %arg1) in (%15, 32) {
            %16 = affine.apply #map1(%arg1)
            %17 = affine.apply #map1(%arg0)
            %18 = affine.min #map2(%arg0)[%12]
            %19 = affine.min #map3(%arg0)[%12]
            %20 = affine.min #map4(%18, %19)
            %expand_shape = memref.expand_shape %alloc [[0, 1]] output_shape [128, 32] : memref<4096xbf16, #gpu.address_space<workgroup>> into memref<128x32xbf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %21:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %22:3 = affine.delinearize_index %21#2 into (4, 16) : index, index, index
            %23 = iree_codegen.index_hint %22#1(#iree_gpu.lane_constant<16>) : index
            %24 = iree_codegen.index_hint %22#2(#iree_gpu.lane_increment<16, aligned>) : index
            %25 = affine.linearize_index disjoint [%23, %c0] by (4, 4) : index
            %26 = affine.apply #map5()[%21#1]
            %27 = affine.apply #map5()[%21#0]
            %28 = affine.linearize_index disjoint [%23, %c0] by (4, 8) : index
            %29 = affine.apply #map6(%c0)[%thread_id_x]
            %30:2 = affine.delinearize_index %29 into (32, 16) : index, index
            %31 = affine.apply #map7(%30#1)
            %subview = memref.subview %alloc_6[%30#0, %31] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %32 = affine.min #map8(%18, %19, %30#1)
            %33 = affine.min #map9(%20, %32)
            %34 = affine.apply #map10(%arg0)[%32, %19]
            %35 = vector.create_mask %c1, %33 : vector<1x8xi1>
            %36 = affine.apply #map6(%c256)[%thread_id_x]
            %37:2 = affine.delinearize_index %36 into (32, 16) : index, index
            %38 = affine.apply #map7(%37#1)
            %subview_10 = memref.subview %alloc_6[%37#0, %38] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %39 = affine.min #map8(%18, %19, %37#1)
            %40 = affine.min #map9(%20, %39)
            %41 = affine.apply #map10(%arg0)[%39, %19]
            %42 = vector.create_mask %c1, %40 : vector<1x8xi1>
            %43 = affine.apply #map6(%c0)[%thread_id_x]
            %44:2 = affine.delinearize_index %43 into (128, 4) : index, index
            %45 = affine.apply #map7(%44#1)
            %subview_11 = memref.subview %expand_shape[%44#0, %45] [1, 8] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %46 = affine.apply #map11(%arg1)[%44#0]
            %47 = affine.apply #map6(%c256)[%thread_id_x]
            %48:2 = affine.delinearize_index %47 into (128, 4) : index, index
            %49 = affine.apply #map7(%48#1)
            %subview_12 = memref.subview %expand_shape[%48#0, %49] [1, 8] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %50 = affine.apply #map11(%arg1)[%48#0]
            %expand_shape_13 = memref.expand_shape %expand_shape [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xbf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>
            %expand_shape_14 = memref.expand_shape %alloc_6 [[0, 1], [2, 3]] output_shape [1, 32, 8, 16] : memref<32x128xbf16, #gpu.address_space<workgroup>> into memref<1x32x8x16xbf16, #gpu.address_space<workgroup>>
            %51 = gpu.lane_id upper_bound 64
            %52 = arith.remui %51, %c16 : index
            %53 = arith.divui %52, %c4 : index
            %54 = arith.subi %24, %52 : index
            %55 = arith.remui %52, %c4 : index
            %56 = arith.muli %55, %c4 : index
            %57 = arith.addi %54, %56 : index
            %58:2 = affine.delinearize_index %53 into (8, 4) : index, index
            %59 = arith.addi %28, %58#0 : index
            %60 = arith.addi %27, %58#1 : index
            %61 = arith.addi %53, %c4 : index
            %62:2 = affine.delinearize_index %61 into (8, 4) : index, index
            %63 = arith.addi %28, %62#0 : index
            %64 = arith.addi %27, %62#1 : index
            %65 = arith.addi %53, %c8 : index
            %66:2 = affine.delinearize_index %65 into (8, 4) : index, index
            %67 = arith.addi %28, %66#0 : index
            %68 = arith.addi %27, %66#1 : index
            %69 = arith.addi %53, %c12 : index
            %70:2 = affine.delinearize_index %69 into (8, 4) : index, index
            %71 = arith.addi %28, %70#0 : index
            %72 = arith.addi %27, %70#1 : index
            %73 = arith.addi %53, %c16 : index
            %74:2 = affine.delinearize_index %73 into (8, 4) : index, index
            %75 = arith.addi %28, %74#0 : index
            %76 = arith.addi %27, %74#1 : index
            %77 = arith.addi %53, %c20 : index
            %78:2 = affine.delinearize_index %77 into (8, 4) : index, index
            %79 = arith.addi %28, %78#0 : index
            %80 = arith.addi %27, %78#1 : index
            %81 = arith.addi %53, %c24 : index
            %82:2 = affine.delinearize_index %81 into (8, 4) : index, index
            %83 = arith.addi %28, %82#0 : index
            %84 = arith.addi %27, %82#1 : index
            %85 = arith.addi %53, %c28 : index
            %86:2 = affine.delinearize_index %85 into (8, 4) : index, index
            %87 = arith.addi %28, %86#0 : index
            %88 = arith.addi %27, %86#1 : index
            %89:16 = scf.for %arg2 = %c0 to %c8 step %c1 iter_args(%arg3 = %cst_5, %arg4 = %cst_5, %arg5 = %cst_5, %arg6 = %cst_5, %arg7 = %cst_5, %arg8 = %cst_5, %arg9 = %cst_5, %arg10 = %cst_5, %arg11 = %cst_5, %arg12 = %cst_5, %arg13 = %cst_5, %arg14 = %cst_5, %arg15 = %cst_5, %arg16 = %cst_5, %arg17 = %cst_5, %arg18 = %cst_5) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %147 = affine.apply #map12(%arg2)[%30#0]
              %subview_15 = memref.subview %assume_align_8[%147, %34] [1, %33] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %148 = vector.transfer_read %subview_15[%c0, %c0], %cst_0, %35 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %148, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %149 = affine.apply #map12(%arg2)[%37#0]
              %subview_16 = memref.subview %assume_align_8[%149, %41] [1, %40] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %150 = vector.transfer_read %subview_16[%c0, %c0], %cst_0, %42 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %150, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %151 = affine.apply #map13(%arg2, %44#1)
              %subview_17 = memref.subview %11[%46, %151] [1, 8] [1, 1] : memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xbf16, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %152 = vector.transfer_read %subview_17[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %152, %subview_11[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %153 = affine.apply #map13(%arg2, %48#1)
              %subview_18 = memref.subview %11[%50, %153] [1, 8] [1, 1] : memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>> to memref<1x8xbf16, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %154 = vector.transfer_read %subview_18[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xbf16, strided<[256, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xbf16>
              vector.transfer_write %154, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %155 = amdgpu.transpose_load %expand_shape_14[%c0, %59, %60, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %156 = amdgpu.transpose_load %expand_shape_14[%c0, %63, %64, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %157 = amdgpu.transpose_load %expand_shape_14[%c0, %67, %68, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %158 = amdgpu.transpose_load %expand_shape_14[%c0, %71, %72, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %159 = amdgpu.transpose_load %expand_shape_14[%c0, %75, %76, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %160 = amdgpu.transpose_load %expand_shape_14[%c0, %79, %80, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %161 = amdgpu.transpose_load %expand_shape_14[%c0, %83, %84, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %162 = amdgpu.transpose_load %expand_shape_14[%c0, %87, %88, %57] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %163 = vector.insert_strided_slice %155, %cst_4 offsets = [0], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %164 = vector.insert_strided_slice %156, %163 offsets = [4], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %165 = vector.insert_strided_slice %157, %164 offsets = [8], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %166 = vector.insert_strided_slice %158, %165 offsets = [12], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %167 = vector.insert_strided_slice %159, %166 offsets = [16], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %168 = vector.insert_strided_slice %160, %167 offsets = [20], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %169 = vector.insert_strided_slice %161, %168 offsets = [24], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %170 = vector.insert_strided_slice %162, %169 offsets = [28], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %171 = vector.shape_cast %170 : vector<32xbf16> to vector<1x8x4x1xbf16>
              %172 = vector.transpose %171, [0, 2, 3, 1] : vector<1x8x4x1xbf16> to vector<1x4x1x8xbf16>
              %173 = vector.transfer_read %expand_shape_13[%26, %24, %c0, %28], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>, vector<4x1x1x8xbf16>
              %174 = vector.extract %172[0, 0] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %175 = vector.extract %173[0, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %176 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %177 = vector.shape_cast %175 : vector<1x8xbf16> to vector<8xbf16>
              %178 = amdgpu.mfma 16x16x32 %176 * %177 + %arg18 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %179 = vector.extract %173[1, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %180 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %181 = vector.shape_cast %179 : vector<1x8xbf16> to vector<8xbf16>
              %182 = amdgpu.mfma 16x16x32 %180 * %181 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %183 = vector.extract %173[2, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %184 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %185 = vector.shape_cast %183 : vector<1x8xbf16> to vector<8xbf16>
              %186 = amdgpu.mfma 16x16x32 %184 * %185 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %187 = vector.extract %173[3, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %188 = vector.shape_cast %174 : vector<1x8xbf16> to vector<8xbf16>
              %189 = vector.shape_cast %187 : vector<1x8xbf16> to vector<8xbf16>
              %190 = amdgpu.mfma 16x16x32 %188 * %189 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %191 = vector.extract %172[0, 1] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %192 = vector.shape_cast %191 : vector<1x8xbf16> to vector<8xbf16>
              %193 = vector.shape_cast %175 : vector<1x8xbf16> to vector<8xbf16>
              %194 = amdgpu.mfma 16x16x32 %192 * %193 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %195 = vector.shape_cast %191 : vector<1x8xbf16> to vector<8xbf16>
              %196 = vector.shape_cast %179 : vector<1x8xbf16> to vector<8xbf16>
              %197 = amdgpu.mfma 16x16x32 %195 * %196 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %198 = vector.shape_cast %191 : vector<1x8xbf16> to vector<8xbf16>
              %199 = vector.shape_cast %183 : vector<1x8xbf16> to vector<8xbf16>
              %200 = amdgpu.mfma 16x16x32 %198 * %199 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %201 = vector.shape_cast %191 : vector<1x8xbf16> to vector<8xbf16>
              %202 = vector.shape_cast %187 : vector<1x8xbf16> to vector<8xbf16>
              %203 = amdgpu.mfma 16x16x32 %201 * %202 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %204 = vector.extract %172[0, 2] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %205 = vector.shape_cast %204 : vector<1x8xbf16> to vector<8xbf16>
              %206 = vector.shape_cast %175 : vector<1x8xbf16> to vector<8xbf16>
              %207 = amdgpu.mfma 16x16x32 %205 * %206 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %208 = vector.shape_cast %204 : vector<1x8xbf16> to vector<8xbf16>
              %209 = vector.shape_cast %179 : vector<1x8xbf16> to vector<8xbf16>
              %210 = amdgpu.mfma 16x16x32 %208 * %209 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %211 = vector.shape_cast %204 : vector<1x8xbf16> to vector<8xbf16>
              %212 = vector.shape_cast %183 : vector<1x8xbf16> to vector<8xbf16>
              %213 = amdgpu.mfma 16x16x32 %211 * %212 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %214 = vector.shape_cast %204 : vector<1x8xbf16> to vector<8xbf16>
              %215 = vector.shape_cast %187 : vector<1x8xbf16> to vector<8xbf16>
              %216 = amdgpu.mfma 16x16x32 %214 * %215 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %217 = vector.extract %172[0, 3] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %218 = vector.shape_cast %217 : vector<1x8xbf16> to vector<8xbf16>
              %219 = vector.shape_cast %175 : vector<1x8xbf16> to vector<8xbf16>
              %220 = amdgpu.mfma 16x16x32 %218 * %219 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %221 = vector.shape_cast %217 : vector<1x8xbf16> to vector<8xbf16>
              %222 = vector.shape_cast %179 : vector<1x8xbf16> to vector<8xbf16>
              %223 = amdgpu.mfma 16x16x32 %221 * %222 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %224 = vector.shape_cast %217 : vector<1x8xbf16> to vector<8xbf16>
              %225 = vector.shape_cast %183 : vector<1x8xbf16> to vector<8xbf16>
              %226 = amdgpu.mfma 16x16x32 %224 * %225 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %227 = vector.shape_cast %217 : vector<1x8xbf16> to vector<8xbf16>
              %228 = vector.shape_cast %187 : vector<1x8xbf16> to vector<8xbf16>
              %229 = amdgpu.mfma 16x16x32 %227 * %228 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %229, %226, %223, %220, %216, %213, %210, %207, %203, %200, %197, %194, %190, %186, %182, %178 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %90 = vector.shape_cast %89#15 : vector<4xf32> to vector<1x1x4x1xf32>
            %91 = vector.shape_cast %89#14 : vector<4xf32> to vector<1x1x4x1xf32>
            %92 = vector.shape_cast %89#13 : vector<4xf32> to vector<1x1x4x1xf32>
            %93 = vector.shape_cast %89#12 : vector<4xf32> to vector<1x1x4x1xf32>
            %94 = vector.shape_cast %89#11 : vector<4xf32> to vector<1x1x4x1xf32>
            %95 = vector.shape_cast %89#10 : vector<4xf32> to vector<1x1x4x1xf32>
            %96 = vector.shape_cast %89#9 : vector<4xf32> to vector<1x1x4x1xf32>
            %97 = vector.shape_cast %89#8 : vector<4xf32> to vector<1x1x4x1xf32>
            %98 = vector.shape_cast %89#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %99 = vector.shape_cast %89#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %100 = vector.shape_cast %89#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %101 = vector.shape_cast %89#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %102 = vector.shape_cast %89#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %103 = vector.shape_cast %89#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %104 = vector.shape_cast %89#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %105 = vector.shape_cast %89#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %106 = vector.insert_strided_slice %90, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %107 = vector.insert_strided_slice %91, %106 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %108 = vector.insert_strided_slice %92, %107 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %109 = vector.insert_strided_slice %93, %108 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %110 = vector.insert_strided_slice %94, %109 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %111 = vector.insert_strided_slice %95, %110 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %112 = vector.insert_strided_slice %96, %111 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %113 = vector.insert_strided_slice %97, %112 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %114 = vector.insert_strided_slice %98, %113 offsets = [2, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %115 = vector.insert_strided_slice %99, %114 offsets = [2, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %116 = vector.insert_strided_slice %100, %115 offsets = [2, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %117 = vector.insert_strided_slice %101, %116 offsets = [2, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %118 = vector.insert_strided_slice %102, %117 offsets = [3, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %119 = vector.insert_strided_slice %103, %118 offsets = [3, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %120 = vector.insert_strided_slice %104, %119 offsets = [3, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %121 = vector.insert_strided_slice %105, %120 offsets = [3, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            vector.transfer_write %121, %alloca[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<4x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %assume_align_9 [[0, 1]] : memref<?x4096xf32, #hal.descriptor_type<storage_buffer>> into memref<?xf32, #hal.descriptor_type<storage_buffer>>
            %122 = vector.step : vector<1xindex>
            %123 = vector.broadcast %122 : vector<1xindex> to vector<1x4x4x1xindex>
            %124 = vector.step : vector<4xindex>
            %125 = vector.broadcast %124 : vector<4xindex> to vector<1x1x4x4xindex>
            %126 = vector.transpose %125, [0, 3, 2, 1] : vector<1x1x4x4xindex> to vector<1x4x4x1xindex>
            %127 = vector.broadcast %124 : vector<4xindex> to vector<1x4x1x4xindex>
            %128 = vector.transpose %127, [0, 1, 3, 2] : vector<1x4x1x4xindex> to vector<1x4x4x1xindex>
            %129 = arith.muli %21#0, %c4 overflow<nsw> : index
            %130 = vector.broadcast %129 : index to vector<1x4x4x1xindex>
            %131 = arith.addi %130, %123 : vector<1x4x4x1xindex>
            %132 = vector.broadcast %25 : index to vector<1x4x4x1xindex>
            %133 = arith.addi %126, %132 : vector<1x4x4x1xindex>
            %134 = arith.muli %21#1, %c4 overflow<nsw> : index
            %135 = vector.broadcast %134 : index to vector<1x4x4x1xindex>
            %136 = arith.addi %128, %135 : vector<1x4x4x1xindex>
            %137 = vector.broadcast %24 : index to vector<1xindex>
            %138 = arith.addi %122, %137 : vector<1xindex>
            %139 = arith.muli %136, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
            %140 = vector.broadcast %138 : vector<1xindex> to vector<1x4x4x1xindex>
            %141 = arith.addi %139, %140 overflow<nsw> : vector<1x4x4x1xindex>
            %142 = vector.broadcast %18 : index to vector<1x4x4x1xindex>
            %143 = arith.cmpi ult, %141, %cst_2 : vector<1x4x4x1xindex>
            %144 = vector.broadcast %17 : index to vector<1x4x4x1xindex>
            %145 = vector.broadcast %16 : index to vector<1x4x4x1xindex>
            %146 = arith.addi %145, %141 : vector<1x4x4x1xindex>
            scf.for %arg2 = %c0 to %c4 step %c1 {
              %subview_15 = memref.subview %alloca_7[%arg2, 0, 0, 0] [1, 4, 4, 1] [1, 1, 1, 1] : memref<4x4x4x1xf32, #gpu.address_space<private>> to memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %147 = vector.transfer_read %alloca[%arg2, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<4x4x4x1xf32, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %148 = vector.transpose %147, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>
              vector.transfer_write %148, %subview_15[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x4x1xf32>, memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %149 = vector.transfer_read %subview_15[%c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %150 = vector.broadcast %arg2 : index to vector<1x4x4x1xindex>
              %151 = arith.addi %131, %150 : vector<1x4x4x1xindex>
              %152 = arith.muli %151, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
              %153 = arith.addi %152, %133 overflow<nsw> : vector<1x4x4x1xindex>
              %154 = arith.cmpi ult, %153, %142 : vector<1x4x4x1xindex>
              %155 = arith.andi %154, %143 : vector<1x4x4x1xi1>
              %156 = arith.addi %144, %153 : vector<1x4x4x1xindex>
              %157 = arith.muli %156, %cst_3 overflow<nsw> : vector<1x4x4x1xindex>
              %158 = arith.addi %157, %146 overflow<nsw> : vector<1x4x4x1xindex>
              %159 = vector.shape_cast %158 : vector<1x4x4x1xindex> to vector<16xindex>
              %160 = vector.shape_cast %155 : vector<1x4x4x1xi1> to vector<16xi1>
              %161 = vector.shape_cast %149 : vector<1x4x4x1xf32> to vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%159], %160, %161 : memref<?xf32, #hal.descriptor_type<storage_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_6 : memref<32x128xbf16, #gpu.address_space<workgroup>>
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

