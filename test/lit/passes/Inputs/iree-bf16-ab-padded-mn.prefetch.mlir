#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (s0 ceildiv 128)>
#map1 = affine_map<(d0) -> (d0 * 128)>
#map2 = affine_map<(d0)[s0] -> (d0 * -128 + s0, 128)>
#map3 = affine_map<(d0)[s0] -> (d0 * -128 + s0, 0, 128)>
#map4 = affine_map<(d0, d1) -> (128, d0 - d1)>
#map5 = affine_map<()[s0] -> (s0 * 4)>
#map6 = affine_map<(d0)[s0] -> (d0 + s0)>
#map7 = affine_map<(d0) -> (d0 * 8)>
#map8 = affine_map<(d0, d1, d2) -> (128, d1 - d2, d0)>
#map9 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map10 = affine_map<(d0)[s0, s1] -> (d0 * 128 + s0 + s1)>
#map11 = affine_map<(d0, d1, d2) -> (128, d2 * 8, d0 - d1)>
#map12 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map13 = affine_map<(d0, d1) -> (d0 * 32 + d1 * 8)>
#map14 = affine_map<(d0)[s0] -> (d0 * 32 + s0)>
#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_DxDx256_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_DxDx256_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
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
          %c16 = arith.constant 16 : index
          %c12 = arith.constant 12 : index
          %c20 = arith.constant 20 : index
          %c24 = arith.constant 24 : index
          %c28 = arith.constant 28 : index
          %cst_2 = arith.constant dense<0.000000e+00> : vector<32xbf16>
          %cst_3 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x128xbf16, #gpu.address_space<workgroup>>
          %alloc_4 = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %alloca_5 = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
          %3 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
          %4 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
          %5 = hal.interface.constant.load layout(#pipeline_layout) ordinal(3) : i32
          %6 = arith.extui %2 : i32 to i64
          %7 = arith.extui %3 : i32 to i64
          %8 = arith.shli %7, %c32_i64 : i64
          %9 = arith.ori %6, %8 : i64
          %10 = arith.index_castui %9 : i64 to index
          %11 = arith.extui %4 : i32 to i64
          %12 = arith.extui %5 : i32 to i64
          %13 = arith.shli %12, %c32_i64 : i64
          %14 = arith.ori %11, %13 : i64
          %15 = arith.index_castui %14 : i64 to index
          %16:2 = util.assume.int 
              %10<umin = 0, umax = 9007199254740991>, 
              %15<umin = 0, umax = 9007199254740991>
            : index, index
          %17 = iree_tensor_ext.dispatch.workload.ordinal %16#0, 0 : index
          %18 = iree_tensor_ext.dispatch.workload.ordinal %16#1, 1 : index
          %19 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>{%17}
          %assume_align = memref.assume_alignment %19, 64 : memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>
          %20 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>{%18}
          %assume_align_6 = memref.assume_alignment %20, 64 : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>
          %21 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%17, %18}
          %assume_align_7 = memref.assume_alignment %21, 64 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>
          %22 = affine.apply #map()[%17]
          %23 = affine.apply #map()[%18]
          scf.forall (%arg0, %arg1) in (%22, %23) {
            %24 = affine.apply #map1(%arg1)
            %25 = affine.apply #map1(%arg0)
            %26 = affine.min #map2(%arg0)[%17]
            %27 = affine.min #map2(%arg1)[%18]
            %28 = affine.min #map3(%arg0)[%17]
            %29 = affine.min #map4(%26, %28)
            %expand_shape = memref.expand_shape %alloc_4 [[0, 1]] output_shape [128, 32] : memref<4096xbf16, #gpu.address_space<workgroup>> into memref<128x32xbf16, #gpu.address_space<workgroup>>
            %30 = affine.min #map3(%arg1)[%18]
            %31 = affine.min #map4(%27, %30)
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %32:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %33:3 = affine.delinearize_index %32#2 into (4, 16) : index, index, index
            %34 = iree_codegen.index_hint %33#1(#iree_gpu.lane_constant<16>) : index
            %35 = iree_codegen.index_hint %33#2(#iree_gpu.lane_increment<16, aligned>) : index
            %36 = affine.linearize_index disjoint [%34, %c0] by (4, 4) : index
            %37 = affine.apply #map5()[%32#1]
            %38 = affine.apply #map5()[%32#0]
            %39 = affine.linearize_index disjoint [%34, %c0] by (4, 8) : index
            %40 = affine.apply #map6(%c0)[%thread_id_x]
            %41:2 = affine.delinearize_index %40 into (128, 4) : index, index
            %42 = affine.apply #map7(%41#1)
            %subview = memref.subview %expand_shape[%41#0, %42] [1, 8] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %43 = affine.min #map8(%41#0, %26, %28)
            %44 = affine.min #map9(%29, %43)
            %45 = affine.apply #map10(%arg0)[%43, %28]
            %46 = vector.create_mask %44, %c8 : vector<1x8xi1>
            %47 = affine.apply #map6(%c256)[%thread_id_x]
            %48:2 = affine.delinearize_index %47 into (128, 4) : index, index
            %49 = affine.apply #map7(%48#1)
            %subview_8 = memref.subview %expand_shape[%48#0, %49] [1, 8] [1, 1] : memref<128x32xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %50 = affine.min #map8(%48#0, %26, %28)
            %51 = affine.min #map9(%29, %50)
            %52 = affine.apply #map10(%arg0)[%50, %28]
            %53 = vector.create_mask %51, %c8 : vector<1x8xi1>
            %54 = affine.apply #map6(%c0)[%thread_id_x]
            %55:2 = affine.delinearize_index %54 into (32, 16) : index, index
            %56 = affine.apply #map7(%55#1)
            %subview_9 = memref.subview %alloc[%55#0, %56] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %57 = affine.min #map11(%27, %30, %55#1)
            %58 = affine.min #map12(%31, %57)
            %59 = affine.apply #map10(%arg1)[%57, %30]
            %60 = vector.create_mask %c1, %58 : vector<1x8xi1>
            %61 = affine.apply #map6(%c256)[%thread_id_x]
            %62:2 = affine.delinearize_index %61 into (32, 16) : index, index
            %63 = affine.apply #map7(%62#1)
            %subview_10 = memref.subview %alloc[%62#0, %63] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %64 = affine.min #map11(%27, %30, %62#1)
            %65 = affine.min #map12(%31, %64)
            %66 = affine.apply #map10(%arg1)[%64, %30]
            %67 = vector.create_mask %c1, %65 : vector<1x8xi1>
            %expand_shape_11 = memref.expand_shape %alloc [[0, 1], [2, 3]] output_shape [1, 32, 8, 16] : memref<32x128xbf16, #gpu.address_space<workgroup>> into memref<1x32x8x16xbf16, #gpu.address_space<workgroup>>
            %expand_shape_12 = memref.expand_shape %expand_shape [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xbf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>
            %68 = gpu.lane_id upper_bound 64
            %69 = arith.remui %68, %c16 : index
            %70 = arith.divui %69, %c4 : index
            %71 = arith.subi %35, %69 : index
            %72 = arith.remui %69, %c4 : index
            %73 = arith.muli %72, %c4 : index
            %74 = arith.addi %71, %73 : index
            %75:2 = affine.delinearize_index %70 into (8, 4) : index, index
            %76 = arith.addi %39, %75#0 : index
            %77 = arith.addi %37, %75#1 : index
            %78 = arith.addi %70, %c4 : index
            %79:2 = affine.delinearize_index %78 into (8, 4) : index, index
            %80 = arith.addi %39, %79#0 : index
            %81 = arith.addi %37, %79#1 : index
            %82 = arith.addi %70, %c8 : index
            %83:2 = affine.delinearize_index %82 into (8, 4) : index, index
            %84 = arith.addi %39, %83#0 : index
            %85 = arith.addi %37, %83#1 : index
            %86 = arith.addi %70, %c12 : index
            %87:2 = affine.delinearize_index %86 into (8, 4) : index, index
            %88 = arith.addi %39, %87#0 : index
            %89 = arith.addi %37, %87#1 : index
            %90 = arith.addi %70, %c16 : index
            %91:2 = affine.delinearize_index %90 into (8, 4) : index, index
            %92 = arith.addi %39, %91#0 : index
            %93 = arith.addi %37, %91#1 : index
            %94 = arith.addi %70, %c20 : index
            %95:2 = affine.delinearize_index %94 into (8, 4) : index, index
            %96 = arith.addi %39, %95#0 : index
            %97 = arith.addi %37, %95#1 : index
            %98 = arith.addi %70, %c24 : index
            %99:2 = affine.delinearize_index %98 into (8, 4) : index, index
            %100 = arith.addi %39, %99#0 : index
            %101 = arith.addi %37, %99#1 : index
            %102 = arith.addi %70, %c28 : index
            %103:2 = affine.delinearize_index %102 into (8, 4) : index, index
            %104 = arith.addi %39, %103#0 : index
            %105 = arith.addi %37, %103#1 : index
            %106:16 = scf.for %arg2 = %c0 to %c8 step %c1 iter_args(%arg3 = %cst_3, %arg4 = %cst_3, %arg5 = %cst_3, %arg6 = %cst_3, %arg7 = %cst_3, %arg8 = %cst_3, %arg9 = %cst_3, %arg10 = %cst_3, %arg11 = %cst_3, %arg12 = %cst_3, %arg13 = %cst_3, %arg14 = %cst_3, %arg15 = %cst_3, %arg16 = %cst_3, %arg17 = %cst_3, %arg18 = %cst_3) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %166 = affine.apply #map13(%arg2, %41#1)
              %subview_13 = memref.subview %assume_align[%45, %166] [%44, 8] [1, 1] : memref<?x256xbf16, #hal.descriptor_type<storage_buffer>> to memref<?x8xbf16, strided<[256, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %167 = vector.transfer_read %subview_13[%c0, %c0], %cst_0, %46 {in_bounds = [true, true]} : memref<?x8xbf16, strided<[256, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %167, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %168 = affine.apply #map13(%arg2, %48#1)
              %subview_14 = memref.subview %assume_align[%52, %168] [%51, 8] [1, 1] : memref<?x256xbf16, #hal.descriptor_type<storage_buffer>> to memref<?x8xbf16, strided<[256, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %169 = vector.transfer_read %subview_14[%c0, %c0], %cst_0, %53 {in_bounds = [true, true]} : memref<?x8xbf16, strided<[256, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %169, %subview_8[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %170 = affine.apply #map14(%arg2)[%55#0]
              %subview_15 = memref.subview %assume_align_6[%170, %59] [1, %58] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %171 = vector.transfer_read %subview_15[%c0, %c0], %cst_0, %60 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %171, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %172 = affine.apply #map14(%arg2)[%62#0]
              %subview_16 = memref.subview %assume_align_6[%172, %66] [1, %65] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %173 = vector.transfer_read %subview_16[%c0, %c0], %cst_0, %67 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %173, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %174 = vector.transfer_read %expand_shape_12[%38, %35, %c0, %39], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xbf16, #gpu.address_space<workgroup>>, vector<4x1x1x8xbf16>
              %175 = amdgpu.transpose_load %expand_shape_11[%c0, %76, %77, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %176 = amdgpu.transpose_load %expand_shape_11[%c0, %80, %81, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %177 = amdgpu.transpose_load %expand_shape_11[%c0, %84, %85, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %178 = amdgpu.transpose_load %expand_shape_11[%c0, %88, %89, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %179 = amdgpu.transpose_load %expand_shape_11[%c0, %92, %93, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %180 = amdgpu.transpose_load %expand_shape_11[%c0, %96, %97, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %181 = amdgpu.transpose_load %expand_shape_11[%c0, %100, %101, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %182 = amdgpu.transpose_load %expand_shape_11[%c0, %104, %105, %74] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %183 = vector.insert_strided_slice %175, %cst_2 offsets = [0], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %184 = vector.insert_strided_slice %176, %183 offsets = [4], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %185 = vector.insert_strided_slice %177, %184 offsets = [8], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %186 = vector.insert_strided_slice %178, %185 offsets = [12], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %187 = vector.insert_strided_slice %179, %186 offsets = [16], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %188 = vector.insert_strided_slice %180, %187 offsets = [20], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %189 = vector.insert_strided_slice %181, %188 offsets = [24], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %190 = vector.insert_strided_slice %182, %189 offsets = [28], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %191 = vector.shape_cast %190 : vector<32xbf16> to vector<1x8x4x1xbf16>
              %192 = vector.transpose %191, [0, 2, 3, 1] : vector<1x8x4x1xbf16> to vector<1x4x1x8xbf16>
              %193 = vector.extract %174[0, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %194 = vector.extract %192[0, 0] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %195 = vector.shape_cast %193 : vector<1x8xbf16> to vector<8xbf16>
              %196 = vector.shape_cast %194 : vector<1x8xbf16> to vector<8xbf16>
              %197 = amdgpu.mfma 16x16x32 %195 * %196 + %arg18 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %198 = vector.extract %192[0, 1] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %199 = vector.shape_cast %193 : vector<1x8xbf16> to vector<8xbf16>
              %200 = vector.shape_cast %198 : vector<1x8xbf16> to vector<8xbf16>
              %201 = amdgpu.mfma 16x16x32 %199 * %200 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %202 = vector.extract %192[0, 2] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %203 = vector.shape_cast %193 : vector<1x8xbf16> to vector<8xbf16>
              %204 = vector.shape_cast %202 : vector<1x8xbf16> to vector<8xbf16>
              %205 = amdgpu.mfma 16x16x32 %203 * %204 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %206 = vector.extract %192[0, 3] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %207 = vector.shape_cast %193 : vector<1x8xbf16> to vector<8xbf16>
              %208 = vector.shape_cast %206 : vector<1x8xbf16> to vector<8xbf16>
              %209 = amdgpu.mfma 16x16x32 %207 * %208 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %210 = vector.extract %174[1, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %211 = vector.shape_cast %210 : vector<1x8xbf16> to vector<8xbf16>
              %212 = vector.shape_cast %194 : vector<1x8xbf16> to vector<8xbf16>
              %213 = amdgpu.mfma 16x16x32 %211 * %212 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %214 = vector.shape_cast %210 : vector<1x8xbf16> to vector<8xbf16>
              %215 = vector.shape_cast %198 : vector<1x8xbf16> to vector<8xbf16>
              %216 = amdgpu.mfma 16x16x32 %214 * %215 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %217 = vector.shape_cast %210 : vector<1x8xbf16> to vector<8xbf16>
              %218 = vector.shape_cast %202 : vector<1x8xbf16> to vector<8xbf16>
              %219 = amdgpu.mfma 16x16x32 %217 * %218 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %220 = vector.shape_cast %210 : vector<1x8xbf16> to vector<8xbf16>
              %221 = vector.shape_cast %206 : vector<1x8xbf16> to vector<8xbf16>
              %222 = amdgpu.mfma 16x16x32 %220 * %221 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %223 = vector.extract %174[2, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %224 = vector.shape_cast %223 : vector<1x8xbf16> to vector<8xbf16>
              %225 = vector.shape_cast %194 : vector<1x8xbf16> to vector<8xbf16>
              %226 = amdgpu.mfma 16x16x32 %224 * %225 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %227 = vector.shape_cast %223 : vector<1x8xbf16> to vector<8xbf16>
              %228 = vector.shape_cast %198 : vector<1x8xbf16> to vector<8xbf16>
              %229 = amdgpu.mfma 16x16x32 %227 * %228 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %230 = vector.shape_cast %223 : vector<1x8xbf16> to vector<8xbf16>
              %231 = vector.shape_cast %202 : vector<1x8xbf16> to vector<8xbf16>
              %232 = amdgpu.mfma 16x16x32 %230 * %231 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %233 = vector.shape_cast %223 : vector<1x8xbf16> to vector<8xbf16>
              %234 = vector.shape_cast %206 : vector<1x8xbf16> to vector<8xbf16>
              %235 = amdgpu.mfma 16x16x32 %233 * %234 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %236 = vector.extract %174[3, 0] : vector<1x8xbf16> from vector<4x1x1x8xbf16>
              %237 = vector.shape_cast %236 : vector<1x8xbf16> to vector<8xbf16>
              %238 = vector.shape_cast %194 : vector<1x8xbf16> to vector<8xbf16>
              %239 = amdgpu.mfma 16x16x32 %237 * %238 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %240 = vector.shape_cast %236 : vector<1x8xbf16> to vector<8xbf16>
              %241 = vector.shape_cast %198 : vector<1x8xbf16> to vector<8xbf16>
              %242 = amdgpu.mfma 16x16x32 %240 * %241 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %243 = vector.shape_cast %236 : vector<1x8xbf16> to vector<8xbf16>
              %244 = vector.shape_cast %202 : vector<1x8xbf16> to vector<8xbf16>
              %245 = amdgpu.mfma 16x16x32 %243 * %244 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %246 = vector.shape_cast %236 : vector<1x8xbf16> to vector<8xbf16>
              %247 = vector.shape_cast %206 : vector<1x8xbf16> to vector<8xbf16>
              %248 = amdgpu.mfma 16x16x32 %246 * %247 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %248, %245, %242, %239, %235, %232, %229, %226, %222, %219, %216, %213, %209, %205, %201, %197 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %107 = vector.shape_cast %106#15 : vector<4xf32> to vector<1x1x4x1xf32>
            %108 = vector.shape_cast %106#14 : vector<4xf32> to vector<1x1x4x1xf32>
            %109 = vector.shape_cast %106#13 : vector<4xf32> to vector<1x1x4x1xf32>
            %110 = vector.shape_cast %106#12 : vector<4xf32> to vector<1x1x4x1xf32>
            %111 = vector.shape_cast %106#11 : vector<4xf32> to vector<1x1x4x1xf32>
            %112 = vector.shape_cast %106#10 : vector<4xf32> to vector<1x1x4x1xf32>
            %113 = vector.shape_cast %106#9 : vector<4xf32> to vector<1x1x4x1xf32>
            %114 = vector.shape_cast %106#8 : vector<4xf32> to vector<1x1x4x1xf32>
            %115 = vector.shape_cast %106#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %116 = vector.shape_cast %106#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %117 = vector.shape_cast %106#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %118 = vector.shape_cast %106#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %119 = vector.shape_cast %106#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %120 = vector.shape_cast %106#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %121 = vector.shape_cast %106#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %122 = vector.shape_cast %106#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %123 = vector.insert_strided_slice %107, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %124 = vector.insert_strided_slice %108, %123 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %125 = vector.insert_strided_slice %109, %124 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %126 = vector.insert_strided_slice %110, %125 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %127 = vector.insert_strided_slice %111, %126 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %128 = vector.insert_strided_slice %112, %127 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %129 = vector.insert_strided_slice %113, %128 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %130 = vector.insert_strided_slice %114, %129 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %131 = vector.insert_strided_slice %115, %130 offsets = [2, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %132 = vector.insert_strided_slice %116, %131 offsets = [2, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %133 = vector.insert_strided_slice %117, %132 offsets = [2, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %134 = vector.insert_strided_slice %118, %133 offsets = [2, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %135 = vector.insert_strided_slice %119, %134 offsets = [3, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %136 = vector.insert_strided_slice %120, %135 offsets = [3, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %137 = vector.insert_strided_slice %121, %136 offsets = [3, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %138 = vector.insert_strided_slice %122, %137 offsets = [3, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            vector.transfer_write %138, %alloca[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<4x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %assume_align_7 [[0, 1]] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> into memref<?xf32, #hal.descriptor_type<storage_buffer>>
            %139 = vector.step : vector<1xindex>
            %140 = vector.broadcast %139 : vector<1xindex> to vector<1x4x4x1xindex>
            %141 = vector.step : vector<4xindex>
            %142 = vector.broadcast %141 : vector<4xindex> to vector<1x1x4x4xindex>
            %143 = vector.transpose %142, [0, 3, 2, 1] : vector<1x1x4x4xindex> to vector<1x4x4x1xindex>
            %144 = vector.broadcast %141 : vector<4xindex> to vector<1x4x1x4xindex>
            %145 = vector.transpose %144, [0, 1, 3, 2] : vector<1x4x1x4xindex> to vector<1x4x4x1xindex>
            %146 = arith.muli %32#0, %c4 overflow<nsw> : index
            %147 = vector.broadcast %146 : index to vector<1x4x4x1xindex>
            %148 = arith.addi %147, %140 : vector<1x4x4x1xindex>
            %149 = vector.broadcast %36 : index to vector<1x4x4x1xindex>
            %150 = arith.addi %143, %149 : vector<1x4x4x1xindex>
            %151 = arith.muli %32#1, %c4 overflow<nsw> : index
            %152 = vector.broadcast %151 : index to vector<1x4x4x1xindex>
            %153 = arith.addi %145, %152 : vector<1x4x4x1xindex>
            %154 = vector.broadcast %35 : index to vector<1xindex>
            %155 = arith.addi %139, %154 : vector<1xindex>
            %156 = arith.muli %153, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
            %157 = vector.broadcast %155 : vector<1xindex> to vector<1x4x4x1xindex>
            %158 = arith.addi %156, %157 overflow<nsw> : vector<1x4x4x1xindex>
            %159 = vector.broadcast %26 : index to vector<1x4x4x1xindex>
            %160 = vector.broadcast %27 : index to vector<1x4x4x1xindex>
            %161 = arith.cmpi ult, %158, %160 : vector<1x4x4x1xindex>
            %162 = vector.broadcast %25 : index to vector<1x4x4x1xindex>
            %163 = vector.broadcast %24 : index to vector<1x4x4x1xindex>
            %164 = arith.addi %163, %158 : vector<1x4x4x1xindex>
            %165 = vector.broadcast %18 : index to vector<1x4x4x1xindex>
            scf.for %arg2 = %c0 to %c4 step %c1 {
              %subview_13 = memref.subview %alloca_5[%arg2, 0, 0, 0] [1, 4, 4, 1] [1, 1, 1, 1] : memref<4x4x4x1xf32, #gpu.address_space<private>> to memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %166 = vector.transfer_read %alloca[%arg2, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<4x4x4x1xf32, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %167 = vector.transpose %166, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>
              vector.transfer_write %167, %subview_13[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x4x1xf32>, memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %168 = vector.transfer_read %subview_13[%c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %169 = vector.broadcast %arg2 : index to vector<1x4x4x1xindex>
              %170 = arith.addi %148, %169 : vector<1x4x4x1xindex>
              %171 = arith.muli %170, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
              %172 = arith.addi %171, %150 overflow<nsw> : vector<1x4x4x1xindex>
              %173 = arith.cmpi ult, %172, %159 : vector<1x4x4x1xindex>
              %174 = arith.andi %173, %161 : vector<1x4x4x1xi1>
              %175 = arith.addi %162, %172 : vector<1x4x4x1xindex>
              %176 = arith.muli %175, %165 overflow<nsw> : vector<1x4x4x1xindex>
              %177 = arith.addi %176, %164 overflow<nsw> : vector<1x4x4x1xindex>
              %178 = vector.shape_cast %177 : vector<1x4x4x1xindex> to vector<16xindex>
              %179 = vector.shape_cast %174 : vector<1x4x4x1xi1> to vector<16xi1>
              %180 = vector.shape_cast %168 : vector<1x4x4x1xf32> to vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%178], %179, %180 : memref<?xf32, #hal.descriptor_type<storage_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_4 : memref<4096xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x128xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_DxDx256_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

