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
#map11 = affine_map<(d0)[s0] -> (d0 * 32 + s0)>
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
          %cst = arith.constant dense<0.000000e+00> : vector<4x4x4x1xf32>
          %0 = ub.poison : f32
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
          %alloc_4 = memref.alloc() : memref<32x128xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %alloca_5 = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
          %2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
          %3 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
          %4 = hal.interface.constant.load layout(#pipeline_layout) ordinal(3) : i32
          %5 = arith.extui %1 : i32 to i64
          %6 = arith.extui %2 : i32 to i64
          %7 = arith.shli %6, %c32_i64 : i64
          %8 = arith.ori %5, %7 : i64
          %9 = arith.index_castui %8 : i64 to index
          %10 = arith.extui %3 : i32 to i64
          %11 = arith.extui %4 : i32 to i64
          %12 = arith.shli %11, %c32_i64 : i64
          %13 = arith.ori %10, %12 : i64
          %14 = arith.index_castui %13 : i64 to index
          %15:2 = util.assume.int 
              %9<umin = 0, umax = 9007199254740991>, 
              %14<umin = 0, umax = 9007199254740991>
            : index, index
          %16 = iree_tensor_ext.dispatch.workload.ordinal %15#0, 0 : index
          %17 = iree_tensor_ext.dispatch.workload.ordinal %15#1, 1 : index
          %18 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>{%16}
          %assume_align = memref.assume_alignment %18, 64 : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>
          %19 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>{%17}
          %assume_align_6 = memref.assume_alignment %19, 64 : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>
          %20 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%16, %17}
          %assume_align_7 = memref.assume_alignment %20, 64 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>
          %21 = affine.apply #map()[%16]
          %22 = affine.apply #map()[%17]
          scf.forall (%arg0, %arg1) in (%21, %22) {
            %23 = affine.apply #map1(%arg1)
            %24 = affine.apply #map1(%arg0)
            %25 = affine.min #map2(%arg0)[%16]
            %26 = affine.min #map2(%arg1)[%17]
            %27 = affine.min #map3(%arg0)[%16]
            %28 = affine.min #map4(%25, %27)
            %29 = affine.min #map3(%arg1)[%17]
            %30 = affine.min #map4(%26, %29)
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %31:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %32:3 = affine.delinearize_index %31#2 into (4, 16) : index, index, index
            %33 = iree_codegen.index_hint %32#1(#iree_gpu.lane_constant<16>) : index
            %34 = iree_codegen.index_hint %32#2(#iree_gpu.lane_increment<16, aligned>) : index
            %35 = affine.linearize_index disjoint [%33, %c0] by (4, 4) : index
            %36 = affine.apply #map5()[%31#1]
            %37 = affine.apply #map5()[%31#0]
            %38 = affine.linearize_index disjoint [%33, %c0] by (4, 8) : index
            %39 = affine.apply #map6(%c0)[%thread_id_x]
            %40:2 = affine.delinearize_index %39 into (32, 16) : index, index
            %41 = affine.apply #map7(%40#1)
            %subview = memref.subview %alloc[%40#0, %41] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %42 = affine.min #map8(%25, %27, %40#1)
            %43 = affine.min #map9(%28, %42)
            %44 = affine.apply #map10(%arg0)[%42, %27]
            %45 = vector.create_mask %c1, %43 : vector<1x8xi1>
            %46 = affine.apply #map6(%c256)[%thread_id_x]
            %47:2 = affine.delinearize_index %46 into (32, 16) : index, index
            %48 = affine.apply #map7(%47#1)
            %subview_8 = memref.subview %alloc[%47#0, %48] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %49 = affine.min #map8(%25, %27, %47#1)
            %50 = affine.min #map9(%28, %49)
            %51 = affine.apply #map10(%arg0)[%49, %27]
            %52 = vector.create_mask %c1, %50 : vector<1x8xi1>
            %53 = affine.apply #map6(%c0)[%thread_id_x]
            %54:2 = affine.delinearize_index %53 into (32, 16) : index, index
            %55 = affine.apply #map7(%54#1)
            %subview_9 = memref.subview %alloc_4[%54#0, %55] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %56 = affine.min #map8(%26, %29, %54#1)
            %57 = affine.min #map9(%30, %56)
            %58 = affine.apply #map10(%arg1)[%56, %29]
            %59 = vector.create_mask %c1, %57 : vector<1x8xi1>
            %60 = affine.apply #map6(%c256)[%thread_id_x]
            %61:2 = affine.delinearize_index %60 into (32, 16) : index, index
            %62 = affine.apply #map7(%61#1)
            %subview_10 = memref.subview %alloc_4[%61#0, %62] [1, 8] [1, 1] : memref<32x128xbf16, #gpu.address_space<workgroup>> to memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
            %63 = affine.min #map8(%26, %29, %61#1)
            %64 = affine.min #map9(%30, %63)
            %65 = affine.apply #map10(%arg1)[%63, %29]
            %66 = vector.create_mask %c1, %64 : vector<1x8xi1>
            %expand_shape = memref.expand_shape %alloc_4 [[0, 1], [2, 3]] output_shape [1, 32, 8, 16] : memref<32x128xbf16, #gpu.address_space<workgroup>> into memref<1x32x8x16xbf16, #gpu.address_space<workgroup>>
            %expand_shape_11 = memref.expand_shape %alloc [[0, 1], [2, 3]] output_shape [1, 32, 8, 16] : memref<32x128xbf16, #gpu.address_space<workgroup>> into memref<1x32x8x16xbf16, #gpu.address_space<workgroup>>
            %67 = gpu.lane_id upper_bound 64
            %68 = arith.remui %67, %c16 : index
            %69 = arith.divui %68, %c4 : index
            %70 = arith.subi %34, %68 : index
            %71 = arith.remui %68, %c4 : index
            %72 = arith.muli %71, %c4 : index
            %73 = arith.addi %70, %72 : index
            %74:2 = affine.delinearize_index %69 into (8, 4) : index, index
            %75 = arith.addi %38, %74#0 : index
            %76 = arith.addi %37, %74#1 : index
            %77 = arith.addi %69, %c4 : index
            %78:2 = affine.delinearize_index %77 into (8, 4) : index, index
            %79 = arith.addi %38, %78#0 : index
            %80 = arith.addi %37, %78#1 : index
            %81 = arith.addi %69, %c8 : index
            %82:2 = affine.delinearize_index %81 into (8, 4) : index, index
            %83 = arith.addi %38, %82#0 : index
            %84 = arith.addi %37, %82#1 : index
            %85 = arith.addi %69, %c12 : index
            %86:2 = affine.delinearize_index %85 into (8, 4) : index, index
            %87 = arith.addi %38, %86#0 : index
            %88 = arith.addi %37, %86#1 : index
            %89 = arith.addi %69, %c16 : index
            %90:2 = affine.delinearize_index %89 into (8, 4) : index, index
            %91 = arith.addi %38, %90#0 : index
            %92 = arith.addi %37, %90#1 : index
            %93 = arith.addi %69, %c20 : index
            %94:2 = affine.delinearize_index %93 into (8, 4) : index, index
            %95 = arith.addi %38, %94#0 : index
            %96 = arith.addi %37, %94#1 : index
            %97 = arith.addi %69, %c24 : index
            %98:2 = affine.delinearize_index %97 into (8, 4) : index, index
            %99 = arith.addi %38, %98#0 : index
            %100 = arith.addi %37, %98#1 : index
            %101 = arith.addi %69, %c28 : index
            %102:2 = affine.delinearize_index %101 into (8, 4) : index, index
            %103 = arith.addi %38, %102#0 : index
            %104 = arith.addi %37, %102#1 : index
            %105 = gpu.lane_id upper_bound 64
            %106 = arith.remui %105, %c16 : index
            %107 = arith.divui %106, %c4 : index
            %108 = arith.subi %34, %106 : index
            %109 = arith.remui %106, %c4 : index
            %110 = arith.muli %109, %c4 : index
            %111 = arith.addi %108, %110 : index
            %112:2 = affine.delinearize_index %107 into (8, 4) : index, index
            %113 = arith.addi %38, %112#0 : index
            %114 = arith.addi %36, %112#1 : index
            %115 = arith.addi %107, %c4 : index
            %116:2 = affine.delinearize_index %115 into (8, 4) : index, index
            %117 = arith.addi %38, %116#0 : index
            %118 = arith.addi %36, %116#1 : index
            %119 = arith.addi %107, %c8 : index
            %120:2 = affine.delinearize_index %119 into (8, 4) : index, index
            %121 = arith.addi %38, %120#0 : index
            %122 = arith.addi %36, %120#1 : index
            %123 = arith.addi %107, %c12 : index
            %124:2 = affine.delinearize_index %123 into (8, 4) : index, index
            %125 = arith.addi %38, %124#0 : index
            %126 = arith.addi %36, %124#1 : index
            %127 = arith.addi %107, %c16 : index
            %128:2 = affine.delinearize_index %127 into (8, 4) : index, index
            %129 = arith.addi %38, %128#0 : index
            %130 = arith.addi %36, %128#1 : index
            %131 = arith.addi %107, %c20 : index
            %132:2 = affine.delinearize_index %131 into (8, 4) : index, index
            %133 = arith.addi %38, %132#0 : index
            %134 = arith.addi %36, %132#1 : index
            %135 = arith.addi %107, %c24 : index
            %136:2 = affine.delinearize_index %135 into (8, 4) : index, index
            %137 = arith.addi %38, %136#0 : index
            %138 = arith.addi %36, %136#1 : index
            %139 = arith.addi %107, %c28 : index
            %140:2 = affine.delinearize_index %139 into (8, 4) : index, index
            %141 = arith.addi %38, %140#0 : index
            %142 = arith.addi %36, %140#1 : index
            %143:16 = scf.for %arg2 = %c0 to %c8 step %c1 iter_args(%arg3 = %cst_3, %arg4 = %cst_3, %arg5 = %cst_3, %arg6 = %cst_3, %arg7 = %cst_3, %arg8 = %cst_3, %arg9 = %cst_3, %arg10 = %cst_3, %arg11 = %cst_3, %arg12 = %cst_3, %arg13 = %cst_3, %arg14 = %cst_3, %arg15 = %cst_3, %arg16 = %cst_3, %arg17 = %cst_3, %arg18 = %cst_3) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %203 = affine.apply #map11(%arg2)[%40#0]
              %subview_12 = memref.subview %assume_align[%203, %44] [1, %43] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %204 = vector.transfer_read %subview_12[%c0, %c0], %cst_0, %45 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %204, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %205 = affine.apply #map11(%arg2)[%47#0]
              %subview_13 = memref.subview %assume_align[%205, %51] [1, %50] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %206 = vector.transfer_read %subview_13[%c0, %c0], %cst_0, %52 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %206, %subview_8[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %207 = affine.apply #map11(%arg2)[%54#0]
              %subview_14 = memref.subview %assume_align_6[%207, %58] [1, %57] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %208 = vector.transfer_read %subview_14[%c0, %c0], %cst_0, %59 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %208, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              %209 = affine.apply #map11(%arg2)[%61#0]
              %subview_15 = memref.subview %assume_align_6[%209, %65] [1, %64] [1, 1] : memref<256x?xbf16, #hal.descriptor_type<storage_buffer>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              %210 = vector.transfer_read %subview_15[%c0, %c0], %cst_0, %66 {in_bounds = [true, true]} : memref<1x?xbf16, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xbf16>
              vector.transfer_write %210, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xbf16>, memref<1x8xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %211 = amdgpu.transpose_load %expand_shape_11[%c0, %75, %76, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %212 = amdgpu.transpose_load %expand_shape_11[%c0, %79, %80, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %213 = amdgpu.transpose_load %expand_shape_11[%c0, %83, %84, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %214 = amdgpu.transpose_load %expand_shape_11[%c0, %87, %88, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %215 = amdgpu.transpose_load %expand_shape_11[%c0, %91, %92, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %216 = amdgpu.transpose_load %expand_shape_11[%c0, %95, %96, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %217 = amdgpu.transpose_load %expand_shape_11[%c0, %99, %100, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %218 = amdgpu.transpose_load %expand_shape_11[%c0, %103, %104, %73] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %219 = vector.insert_strided_slice %211, %cst_2 offsets = [0], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %220 = vector.insert_strided_slice %212, %219 offsets = [4], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %221 = vector.insert_strided_slice %213, %220 offsets = [8], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %222 = vector.insert_strided_slice %214, %221 offsets = [12], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %223 = vector.insert_strided_slice %215, %222 offsets = [16], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %224 = vector.insert_strided_slice %216, %223 offsets = [20], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %225 = vector.insert_strided_slice %217, %224 offsets = [24], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %226 = vector.insert_strided_slice %218, %225 offsets = [28], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %227 = vector.shape_cast %226 : vector<32xbf16> to vector<1x8x4x1xbf16>
              %228 = vector.transpose %227, [0, 2, 3, 1] : vector<1x8x4x1xbf16> to vector<1x4x1x8xbf16>
              %229 = amdgpu.transpose_load %expand_shape[%c0, %113, %114, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %230 = amdgpu.transpose_load %expand_shape[%c0, %117, %118, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %231 = amdgpu.transpose_load %expand_shape[%c0, %121, %122, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %232 = amdgpu.transpose_load %expand_shape[%c0, %125, %126, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %233 = amdgpu.transpose_load %expand_shape[%c0, %129, %130, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %234 = amdgpu.transpose_load %expand_shape[%c0, %133, %134, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %235 = amdgpu.transpose_load %expand_shape[%c0, %137, %138, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %236 = amdgpu.transpose_load %expand_shape[%c0, %141, %142, %111] : memref<1x32x8x16xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %237 = vector.insert_strided_slice %229, %cst_2 offsets = [0], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %238 = vector.insert_strided_slice %230, %237 offsets = [4], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %239 = vector.insert_strided_slice %231, %238 offsets = [8], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %240 = vector.insert_strided_slice %232, %239 offsets = [12], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %241 = vector.insert_strided_slice %233, %240 offsets = [16], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %242 = vector.insert_strided_slice %234, %241 offsets = [20], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %243 = vector.insert_strided_slice %235, %242 offsets = [24], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %244 = vector.insert_strided_slice %236, %243 offsets = [28], strides = [1] : vector<4xbf16> into vector<32xbf16>
              %245 = vector.shape_cast %244 : vector<32xbf16> to vector<1x8x4x1xbf16>
              %246 = vector.transpose %245, [0, 2, 3, 1] : vector<1x8x4x1xbf16> to vector<1x4x1x8xbf16>
              %247 = vector.extract %228[0, 0] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %248 = vector.extract %246[0, 0] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %249 = vector.shape_cast %247 : vector<1x8xbf16> to vector<8xbf16>
              %250 = vector.shape_cast %248 : vector<1x8xbf16> to vector<8xbf16>
              %251 = amdgpu.mfma 16x16x32 %249 * %250 + %arg18 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %252 = vector.extract %246[0, 1] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %253 = vector.shape_cast %247 : vector<1x8xbf16> to vector<8xbf16>
              %254 = vector.shape_cast %252 : vector<1x8xbf16> to vector<8xbf16>
              %255 = amdgpu.mfma 16x16x32 %253 * %254 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %256 = vector.extract %246[0, 2] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %257 = vector.shape_cast %247 : vector<1x8xbf16> to vector<8xbf16>
              %258 = vector.shape_cast %256 : vector<1x8xbf16> to vector<8xbf16>
              %259 = amdgpu.mfma 16x16x32 %257 * %258 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %260 = vector.extract %246[0, 3] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %261 = vector.shape_cast %247 : vector<1x8xbf16> to vector<8xbf16>
              %262 = vector.shape_cast %260 : vector<1x8xbf16> to vector<8xbf16>
              %263 = amdgpu.mfma 16x16x32 %261 * %262 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %264 = vector.extract %228[0, 1] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %265 = vector.shape_cast %264 : vector<1x8xbf16> to vector<8xbf16>
              %266 = vector.shape_cast %248 : vector<1x8xbf16> to vector<8xbf16>
              %267 = amdgpu.mfma 16x16x32 %265 * %266 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %268 = vector.shape_cast %264 : vector<1x8xbf16> to vector<8xbf16>
              %269 = vector.shape_cast %252 : vector<1x8xbf16> to vector<8xbf16>
              %270 = amdgpu.mfma 16x16x32 %268 * %269 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %271 = vector.shape_cast %264 : vector<1x8xbf16> to vector<8xbf16>
              %272 = vector.shape_cast %256 : vector<1x8xbf16> to vector<8xbf16>
              %273 = amdgpu.mfma 16x16x32 %271 * %272 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %274 = vector.shape_cast %264 : vector<1x8xbf16> to vector<8xbf16>
              %275 = vector.shape_cast %260 : vector<1x8xbf16> to vector<8xbf16>
              %276 = amdgpu.mfma 16x16x32 %274 * %275 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %277 = vector.extract %228[0, 2] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %278 = vector.shape_cast %277 : vector<1x8xbf16> to vector<8xbf16>
              %279 = vector.shape_cast %248 : vector<1x8xbf16> to vector<8xbf16>
              %280 = amdgpu.mfma 16x16x32 %278 * %279 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %281 = vector.shape_cast %277 : vector<1x8xbf16> to vector<8xbf16>
              %282 = vector.shape_cast %252 : vector<1x8xbf16> to vector<8xbf16>
              %283 = amdgpu.mfma 16x16x32 %281 * %282 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %284 = vector.shape_cast %277 : vector<1x8xbf16> to vector<8xbf16>
              %285 = vector.shape_cast %256 : vector<1x8xbf16> to vector<8xbf16>
              %286 = amdgpu.mfma 16x16x32 %284 * %285 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %287 = vector.shape_cast %277 : vector<1x8xbf16> to vector<8xbf16>
              %288 = vector.shape_cast %260 : vector<1x8xbf16> to vector<8xbf16>
              %289 = amdgpu.mfma 16x16x32 %287 * %288 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %290 = vector.extract %228[0, 3] : vector<1x8xbf16> from vector<1x4x1x8xbf16>
              %291 = vector.shape_cast %290 : vector<1x8xbf16> to vector<8xbf16>
              %292 = vector.shape_cast %248 : vector<1x8xbf16> to vector<8xbf16>
              %293 = amdgpu.mfma 16x16x32 %291 * %292 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %294 = vector.shape_cast %290 : vector<1x8xbf16> to vector<8xbf16>
              %295 = vector.shape_cast %252 : vector<1x8xbf16> to vector<8xbf16>
              %296 = amdgpu.mfma 16x16x32 %294 * %295 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %297 = vector.shape_cast %290 : vector<1x8xbf16> to vector<8xbf16>
              %298 = vector.shape_cast %256 : vector<1x8xbf16> to vector<8xbf16>
              %299 = amdgpu.mfma 16x16x32 %297 * %298 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %300 = vector.shape_cast %290 : vector<1x8xbf16> to vector<8xbf16>
              %301 = vector.shape_cast %260 : vector<1x8xbf16> to vector<8xbf16>
              %302 = amdgpu.mfma 16x16x32 %300 * %301 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %302, %299, %296, %293, %289, %286, %283, %280, %276, %273, %270, %267, %263, %259, %255, %251 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %144 = vector.shape_cast %143#15 : vector<4xf32> to vector<1x1x4x1xf32>
            %145 = vector.shape_cast %143#14 : vector<4xf32> to vector<1x1x4x1xf32>
            %146 = vector.shape_cast %143#13 : vector<4xf32> to vector<1x1x4x1xf32>
            %147 = vector.shape_cast %143#12 : vector<4xf32> to vector<1x1x4x1xf32>
            %148 = vector.shape_cast %143#11 : vector<4xf32> to vector<1x1x4x1xf32>
            %149 = vector.shape_cast %143#10 : vector<4xf32> to vector<1x1x4x1xf32>
            %150 = vector.shape_cast %143#9 : vector<4xf32> to vector<1x1x4x1xf32>
            %151 = vector.shape_cast %143#8 : vector<4xf32> to vector<1x1x4x1xf32>
            %152 = vector.shape_cast %143#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %153 = vector.shape_cast %143#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %154 = vector.shape_cast %143#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %155 = vector.shape_cast %143#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %156 = vector.shape_cast %143#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %157 = vector.shape_cast %143#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %158 = vector.shape_cast %143#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %159 = vector.shape_cast %143#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %160 = vector.insert_strided_slice %144, %cst offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %161 = vector.insert_strided_slice %145, %160 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %162 = vector.insert_strided_slice %146, %161 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %163 = vector.insert_strided_slice %147, %162 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %164 = vector.insert_strided_slice %148, %163 offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %165 = vector.insert_strided_slice %149, %164 offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %166 = vector.insert_strided_slice %150, %165 offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %167 = vector.insert_strided_slice %151, %166 offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %168 = vector.insert_strided_slice %152, %167 offsets = [2, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %169 = vector.insert_strided_slice %153, %168 offsets = [2, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %170 = vector.insert_strided_slice %154, %169 offsets = [2, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %171 = vector.insert_strided_slice %155, %170 offsets = [2, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %172 = vector.insert_strided_slice %156, %171 offsets = [3, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %173 = vector.insert_strided_slice %157, %172 offsets = [3, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %174 = vector.insert_strided_slice %158, %173 offsets = [3, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            %175 = vector.insert_strided_slice %159, %174 offsets = [3, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<4x4x4x1xf32>
            vector.transfer_write %175, %alloca[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<4x4x4x1xf32>, memref<4x4x4x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %assume_align_7 [[0, 1]] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> into memref<?xf32, #hal.descriptor_type<storage_buffer>>
            %176 = vector.step : vector<1xindex>
            %177 = vector.broadcast %176 : vector<1xindex> to vector<1x4x4x1xindex>
            %178 = vector.step : vector<4xindex>
            %179 = vector.broadcast %178 : vector<4xindex> to vector<1x1x4x4xindex>
            %180 = vector.transpose %179, [0, 3, 2, 1] : vector<1x1x4x4xindex> to vector<1x4x4x1xindex>
            %181 = vector.broadcast %178 : vector<4xindex> to vector<1x4x1x4xindex>
            %182 = vector.transpose %181, [0, 1, 3, 2] : vector<1x4x1x4xindex> to vector<1x4x4x1xindex>
            %183 = arith.muli %31#0, %c4 overflow<nsw> : index
            %184 = vector.broadcast %183 : index to vector<1x4x4x1xindex>
            %185 = arith.addi %184, %177 : vector<1x4x4x1xindex>
            %186 = vector.broadcast %35 : index to vector<1x4x4x1xindex>
            %187 = arith.addi %180, %186 : vector<1x4x4x1xindex>
            %188 = arith.muli %31#1, %c4 overflow<nsw> : index
            %189 = vector.broadcast %188 : index to vector<1x4x4x1xindex>
            %190 = arith.addi %182, %189 : vector<1x4x4x1xindex>
            %191 = vector.broadcast %34 : index to vector<1xindex>
            %192 = arith.addi %176, %191 : vector<1xindex>
            %193 = arith.muli %190, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
            %194 = vector.broadcast %192 : vector<1xindex> to vector<1x4x4x1xindex>
            %195 = arith.addi %193, %194 overflow<nsw> : vector<1x4x4x1xindex>
            %196 = vector.broadcast %25 : index to vector<1x4x4x1xindex>
            %197 = vector.broadcast %26 : index to vector<1x4x4x1xindex>
            %198 = arith.cmpi ult, %195, %197 : vector<1x4x4x1xindex>
            %199 = vector.broadcast %24 : index to vector<1x4x4x1xindex>
            %200 = vector.broadcast %23 : index to vector<1x4x4x1xindex>
            %201 = arith.addi %200, %195 : vector<1x4x4x1xindex>
            %202 = vector.broadcast %17 : index to vector<1x4x4x1xindex>
            scf.for %arg2 = %c0 to %c4 step %c1 {
              %subview_12 = memref.subview %alloca_5[%arg2, 0, 0, 0] [1, 4, 4, 1] [1, 1, 1, 1] : memref<4x4x4x1xf32, #gpu.address_space<private>> to memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %203 = vector.transfer_read %alloca[%arg2, %c0, %c0, %c0], %0 {in_bounds = [true, true, true, true]} : memref<4x4x4x1xf32, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %204 = vector.transpose %203, [0, 2, 1, 3] : vector<1x4x4x1xf32> to vector<1x4x4x1xf32>
              vector.transfer_write %204, %subview_12[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x4x4x1xf32>, memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %205 = vector.transfer_read %subview_12[%c0, %c0, %c0, %c0], %0 {in_bounds = [true, true, true, true]} : memref<1x4x4x1xf32, strided<[16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x4x4x1xf32>
              %206 = vector.broadcast %arg2 : index to vector<1x4x4x1xindex>
              %207 = arith.addi %185, %206 : vector<1x4x4x1xindex>
              %208 = arith.muli %207, %cst_1 overflow<nsw> : vector<1x4x4x1xindex>
              %209 = arith.addi %208, %187 overflow<nsw> : vector<1x4x4x1xindex>
              %210 = arith.cmpi ult, %209, %196 : vector<1x4x4x1xindex>
              %211 = arith.andi %210, %198 : vector<1x4x4x1xi1>
              %212 = arith.addi %199, %209 : vector<1x4x4x1xindex>
              %213 = arith.muli %212, %202 overflow<nsw> : vector<1x4x4x1xindex>
              %214 = arith.addi %213, %201 overflow<nsw> : vector<1x4x4x1xindex>
              %215 = vector.shape_cast %214 : vector<1x4x4x1xindex> to vector<16xindex>
              %216 = vector.shape_cast %211 : vector<1x4x4x1xi1> to vector<16xi1>
              %217 = vector.shape_cast %205 : vector<1x4x4x1xf32> to vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%215], %216, %217 : memref<?xf32, #hal.descriptor_type<storage_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_4 : memref<32x128xbf16, #gpu.address_space<workgroup>>
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

