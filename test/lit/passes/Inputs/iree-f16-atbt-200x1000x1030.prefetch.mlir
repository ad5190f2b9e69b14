#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 128)>
#map1 = affine_map<(d0) -> (d0 * 16)>
#map2 = affine_map<(d0) -> (d0 * -16 + 200, 16)>
#map3 = affine_map<(d0) -> (d0 * -128 + 1000, 128)>
#map4 = affine_map<(d0) -> (d0 * -16 + 200, 0, 16)>
#map5 = affine_map<(d0, d1) -> (16, d0 - d1)>
#map6 = affine_map<(d0) -> (d0 * -128 + 1000, 0, 128)>
#map7 = affine_map<(d0, d1) -> (128, d0 - d1)>
#map8 = affine_map<()[s0] -> (s0 * 8)>
#map9 = affine_map<(d0, d1)[s0] -> (16, s0 * 8, d0 - d1)>
#map10 = affine_map<(d0, d1) -> (8, d0 - d1)>
#map11 = affine_map<(d0)[s0, s1] -> (d0 * 16 + s0 + s1)>
#map12 = affine_map<(d0)[s0] -> (d0 + s0)>
#map13 = affine_map<(d0) -> (d0 * 8)>
#map14 = affine_map<(d0, d1, d2) -> (128, d1 - d2, d0)>
#map15 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map16 = affine_map<(d0)[s0, s1] -> (d0 * 128 + s0 + s1)>
#map17 = affine_map<(d0) -> (1030, d0 * 32)>
#map18 = affine_map<(d0) -> (-d0 + 1030, 32)>
#map19 = affine_map<(d0)[s0] -> (-d0 + 1030, 32, s0)>
#map20 = affine_map<()[s0, s1] -> (s0 + s1)>
#map21 = affine_map<(d0, d1) -> (-d0 + 1030, 32, d1 * 8)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 1, no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_200x1000x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_200x1000x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 64, 1, 1>, translation_info = #translation} {
          %cst = arith.constant dense<0.000000e+00> : vector<1x8xf16>
          %c8 = arith.constant 8 : index
          %0 = ub.poison : f16
          %cst_0 = arith.constant dense<0.000000e+00> : vector<1x8x4x1xf32>
          %1 = ub.poison : f32
          %c4 = arith.constant 4 : index
          %c64 = arith.constant 64 : index
          %c33 = arith.constant 33 : index
          %c1 = arith.constant 1 : index
          %cst_1 = arith.constant 0.000000e+00 : f16
          %c0 = arith.constant 0 : index
          %cst_2 = arith.constant dense<16> : vector<1x1x8x1xindex>
          %cst_3 = arith.constant dense<1000> : vector<1x1x8x1xindex>
          %c16 = arith.constant 16 : index
          %cst_4 = arith.constant dense<0.000000e+00> : vector<8xf16>
          %cst_5 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %c128 = arith.constant 128 : index
          %c192 = arith.constant 192 : index
          %c256 = arith.constant 256 : index
          %c320 = arith.constant 320 : index
          %c384 = arith.constant 384 : index
          %c448 = arith.constant 448 : index
          %alloc = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xf16, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x8x1xf32, #gpu.address_space<private>>
          %alloca_7 = memref.alloca() : memref<1x8xf16, #gpu.address_space<private>>
          %alloca_8 = memref.alloca() : memref<1x8x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 64
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1030x200xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %2, 64 : memref<1030x200xf16, #hal.descriptor_type<storage_buffer>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<1030x200xf16, #hal.descriptor_type<storage_buffer>> to memref<1030x200xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1000x1030xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_9 = memref.assume_alignment %4, 64 : memref<1000x1030xf16, #hal.descriptor_type<storage_buffer>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_9 resetOffset : memref<1000x1030xf16, #hal.descriptor_type<storage_buffer>> to memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %6 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<200x1000xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_10 = memref.assume_alignment %6, 64 : memref<200x1000xf32, #hal.descriptor_type<storage_buffer>>
          %7 = amdgpu.fat_raw_buffer_cast %assume_align_10 resetOffset : memref<200x1000xf32, #hal.descriptor_type<storage_buffer>> to memref<200x1000xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1) in (13, 8) {
            %8 = affine.apply #map(%arg1)
            %9 = affine.apply #map1(%arg0)
            %10 = affine.min #map2(%arg0)
            %11 = affine.min #map3(%arg1)
            %12 = affine.min #map4(%arg0)
            %13 = affine.min #map5(%10, %12)
            %14 = affine.min #map6(%arg1)
            %15 = affine.min #map7(%11, %14)
            %expand_shape = memref.expand_shape %alloc [[0, 1]] output_shape [128, 32] : memref<4096xf16, #gpu.address_space<workgroup>> into memref<128x32xf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %16:3 = affine.delinearize_index %thread_id_x into (4, 16) : index, index, index
            %17 = iree_codegen.index_hint %16#1(#iree_gpu.lane_constant<16>) : index
            %18 = iree_codegen.index_hint %16#2(#iree_gpu.lane_increment<16, aligned>) : index
            %19 = affine.linearize_index disjoint [%17, %c0] by (4, 4) : index
            %20:2 = affine.delinearize_index %thread_id_x into (32, 2) : index, index
            %21 = affine.apply #map8()[%20#1]
            %22 = affine.min #map9(%10, %12)[%20#1]
            %23 = affine.min #map10(%13, %22)
            %24 = affine.apply #map11(%arg0)[%22, %12]
            %25 = affine.linearize_index disjoint [%17, %c0] by (4, 8) : index
            %26 = arith.cmpi eq, %23, %c8 : index
            %subview = memref.subview %alloc_6[%20#0, %21] [1, 8] [1, 1] : memref<32x16xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
            %27 = affine.apply #map12(%c0)[%thread_id_x]
            %28:2 = affine.delinearize_index %27 into (128, 4) : index, index
            %29 = affine.apply #map13(%28#1)
            %subview_11 = memref.subview %expand_shape[%28#0, %29] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %30 = affine.min #map14(%28#0, %11, %14)
            %31 = affine.min #map15(%15, %30)
            %32 = affine.apply #map16(%arg1)[%30, %14]
            %33 = affine.apply #map12(%c64)[%thread_id_x]
            %34:2 = affine.delinearize_index %33 into (128, 4) : index, index
            %35 = affine.apply #map13(%34#1)
            %subview_12 = memref.subview %expand_shape[%34#0, %35] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %36 = affine.min #map14(%34#0, %11, %14)
            %37 = affine.min #map15(%15, %36)
            %38 = affine.apply #map16(%arg1)[%36, %14]
            %39 = affine.apply #map12(%c128)[%thread_id_x]
            %40:2 = affine.delinearize_index %39 into (128, 4) : index, index
            %41 = affine.apply #map13(%40#1)
            %subview_13 = memref.subview %expand_shape[%40#0, %41] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %42 = affine.min #map14(%40#0, %11, %14)
            %43 = affine.min #map15(%15, %42)
            %44 = affine.apply #map16(%arg1)[%42, %14]
            %45 = affine.apply #map12(%c192)[%thread_id_x]
            %46:2 = affine.delinearize_index %45 into (128, 4) : index, index
            %47 = affine.apply #map13(%46#1)
            %subview_14 = memref.subview %expand_shape[%46#0, %47] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %48 = affine.min #map14(%46#0, %11, %14)
            %49 = affine.min #map15(%15, %48)
            %50 = affine.apply #map16(%arg1)[%48, %14]
            %51 = affine.apply #map12(%c256)[%thread_id_x]
            %52:2 = affine.delinearize_index %51 into (128, 4) : index, index
            %53 = affine.apply #map13(%52#1)
            %subview_15 = memref.subview %expand_shape[%52#0, %53] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %54 = affine.min #map14(%52#0, %11, %14)
            %55 = affine.min #map15(%15, %54)
            %56 = affine.apply #map16(%arg1)[%54, %14]
            %57 = affine.apply #map12(%c320)[%thread_id_x]
            %58:2 = affine.delinearize_index %57 into (128, 4) : index, index
            %59 = affine.apply #map13(%58#1)
            %subview_16 = memref.subview %expand_shape[%58#0, %59] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %60 = affine.min #map14(%58#0, %11, %14)
            %61 = affine.min #map15(%15, %60)
            %62 = affine.apply #map16(%arg1)[%60, %14]
            %63 = affine.apply #map12(%c384)[%thread_id_x]
            %64:2 = affine.delinearize_index %63 into (128, 4) : index, index
            %65 = affine.apply #map13(%64#1)
            %subview_17 = memref.subview %expand_shape[%64#0, %65] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %66 = affine.min #map14(%64#0, %11, %14)
            %67 = affine.min #map15(%15, %66)
            %68 = affine.apply #map16(%arg1)[%66, %14]
            %69 = affine.apply #map12(%c448)[%thread_id_x]
            %70:2 = affine.delinearize_index %69 into (128, 4) : index, index
            %71 = affine.apply #map13(%70#1)
            %subview_18 = memref.subview %expand_shape[%70#0, %71] [1, 8] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
            %72 = affine.min #map14(%70#0, %11, %14)
            %73 = affine.min #map15(%15, %72)
            %74 = affine.apply #map16(%arg1)[%72, %14]
            %expand_shape_19 = memref.expand_shape %expand_shape [[0, 1], [2, 3]] output_shape [8, 16, 1, 32] : memref<128x32xf16, #gpu.address_space<workgroup>> into memref<8x16x1x32xf16, #gpu.address_space<workgroup>>
            %expand_shape_20 = memref.expand_shape %alloc_6 [[0, 1], [2, 3]] output_shape [1, 32, 1, 16] : memref<32x16xf16, #gpu.address_space<workgroup>> into memref<1x32x1x16xf16, #gpu.address_space<workgroup>>
            %75 = gpu.lane_id upper_bound 64
            %76 = arith.remui %75, %c16 : index
            %77 = arith.divui %76, %c4 : index
            %78 = arith.subi %18, %76 : index
            %79 = arith.remui %76, %c4 : index
            %80 = arith.muli %79, %c4 : index
            %81 = arith.addi %78, %80 : index
            %82 = arith.addi %25, %77 : index
            %83 = arith.addi %77, %c4 : index
            %84 = arith.addi %25, %83 : index
            %85:8 = scf.for %arg2 = %c0 to %c33 step %c1 iter_args(%arg3 = %cst_5, %arg4 = %cst_5, %arg5 = %cst_5, %arg6 = %cst_5, %arg7 = %cst_5, %arg8 = %cst_5, %arg9 = %cst_5, %arg10 = %cst_5) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %119 = affine.min #map17(%arg2)
              %120 = affine.min #map18(%119)
              %121 = affine.min #map19(%119)[%20#0]
              %122 = affine.min #map15(%120, %121)
              %123 = affine.apply #map20()[%121, %119]
              %subview_21 = memref.subview %3[%123, %24] [%122, %23] [1, 1] : memref<1030x200xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[200, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %124 = arith.index_castui %122 : index to i1
              %125 = arith.andi %124, %26 : i1
              %126 = vector.transfer_read %subview_21[%c0, %c0], %cst_1 {in_bounds = [true, true]} : memref<?x?xf16, strided<[200, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              %127 = arith.select %125, %126, %cst : vector<1x8xf16>
              vector.transfer_write %127, %alloca_7[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %128 = vector.transfer_read %alloca_7[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, #gpu.address_space<private>>, vector<1x8xf16>
              vector.transfer_write %128, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
              %129 = affine.min #map21(%119, %28#1)
              %130 = affine.min #map10(%120, %129)
              %131 = affine.apply #map20()[%129, %119]
              %subview_22 = memref.subview %5[%32, %131] [%31, %130] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %132 = vector.create_mask %31, %130 : vector<1x8xi1>
              %133 = vector.transfer_read %subview_22[%c0, %c0], %cst_1, %132 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %133, %subview_11[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %134 = affine.min #map21(%119, %34#1)
              %135 = affine.min #map10(%120, %134)
              %136 = affine.apply #map20()[%134, %119]
              %subview_23 = memref.subview %5[%38, %136] [%37, %135] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %137 = vector.create_mask %37, %135 : vector<1x8xi1>
              %138 = vector.transfer_read %subview_23[%c0, %c0], %cst_1, %137 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %138, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %139 = affine.min #map21(%119, %40#1)
              %140 = affine.min #map10(%120, %139)
              %141 = affine.apply #map20()[%139, %119]
              %subview_24 = memref.subview %5[%44, %141] [%43, %140] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %142 = vector.create_mask %43, %140 : vector<1x8xi1>
              %143 = vector.transfer_read %subview_24[%c0, %c0], %cst_1, %142 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %143, %subview_13[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %144 = affine.min #map21(%119, %46#1)
              %145 = affine.min #map10(%120, %144)
              %146 = affine.apply #map20()[%144, %119]
              %subview_25 = memref.subview %5[%50, %146] [%49, %145] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %147 = vector.create_mask %49, %145 : vector<1x8xi1>
              %148 = vector.transfer_read %subview_25[%c0, %c0], %cst_1, %147 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %148, %subview_14[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %149 = affine.min #map21(%119, %52#1)
              %150 = affine.min #map10(%120, %149)
              %151 = affine.apply #map20()[%149, %119]
              %subview_26 = memref.subview %5[%56, %151] [%55, %150] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %152 = vector.create_mask %55, %150 : vector<1x8xi1>
              %153 = vector.transfer_read %subview_26[%c0, %c0], %cst_1, %152 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %153, %subview_15[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %154 = affine.min #map21(%119, %58#1)
              %155 = affine.min #map10(%120, %154)
              %156 = affine.apply #map20()[%154, %119]
              %subview_27 = memref.subview %5[%62, %156] [%61, %155] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %157 = vector.create_mask %61, %155 : vector<1x8xi1>
              %158 = vector.transfer_read %subview_27[%c0, %c0], %cst_1, %157 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %158, %subview_16[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %159 = affine.min #map21(%119, %64#1)
              %160 = affine.min #map10(%120, %159)
              %161 = affine.apply #map20()[%159, %119]
              %subview_28 = memref.subview %5[%68, %161] [%67, %160] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %162 = vector.create_mask %67, %160 : vector<1x8xi1>
              %163 = vector.transfer_read %subview_28[%c0, %c0], %cst_1, %162 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %163, %subview_17[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              %164 = affine.min #map21(%119, %70#1)
              %165 = affine.min #map10(%120, %164)
              %166 = affine.apply #map20()[%164, %119]
              %subview_29 = memref.subview %5[%74, %166] [%73, %165] [1, 1] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %167 = vector.create_mask %73, %165 : vector<1x8xi1>
              %168 = vector.transfer_read %subview_29[%c0, %c0], %cst_1, %167 {in_bounds = [true, true]} : memref<?x?xf16, strided<[1030, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x8xf16>
              vector.transfer_write %168, %subview_18[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %169 = amdgpu.transpose_load %expand_shape_20[%c0, %82, %c0, %81] : memref<1x32x1x16xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
              %170 = amdgpu.transpose_load %expand_shape_20[%c0, %84, %c0, %81] : memref<1x32x1x16xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
              %171 = vector.insert_strided_slice %169, %cst_4 offsets = [0], strides = [1] : vector<4xf16> into vector<8xf16>
              %172 = vector.insert_strided_slice %170, %171 offsets = [4], strides = [1] : vector<4xf16> into vector<8xf16>
              %173 = vector.transfer_read %expand_shape_19[%c0, %18, %c0, %25], %0 {in_bounds = [true, true, true, true]} : memref<8x16x1x32xf16, #gpu.address_space<workgroup>>, vector<8x1x1x8xf16>
              %174 = vector.extract %173[0, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %175 = vector.shape_cast %174 : vector<1x8xf16> to vector<8xf16>
              %176 = amdgpu.mfma 16x16x32 %172 * %175 + %arg10 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %177 = vector.extract %173[1, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %178 = vector.shape_cast %177 : vector<1x8xf16> to vector<8xf16>
              %179 = amdgpu.mfma 16x16x32 %172 * %178 + %arg9 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %180 = vector.extract %173[2, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %181 = vector.shape_cast %180 : vector<1x8xf16> to vector<8xf16>
              %182 = amdgpu.mfma 16x16x32 %172 * %181 + %arg8 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %183 = vector.extract %173[3, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %184 = vector.shape_cast %183 : vector<1x8xf16> to vector<8xf16>
              %185 = amdgpu.mfma 16x16x32 %172 * %184 + %arg7 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %186 = vector.extract %173[4, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %187 = vector.shape_cast %186 : vector<1x8xf16> to vector<8xf16>
              %188 = amdgpu.mfma 16x16x32 %172 * %187 + %arg6 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %189 = vector.extract %173[5, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %190 = vector.shape_cast %189 : vector<1x8xf16> to vector<8xf16>
              %191 = amdgpu.mfma 16x16x32 %172 * %190 + %arg5 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %192 = vector.extract %173[6, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %193 = vector.shape_cast %192 : vector<1x8xf16> to vector<8xf16>
              %194 = amdgpu.mfma 16x16x32 %172 * %193 + %arg4 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              %195 = vector.extract %173[7, 0] : vector<1x8xf16> from vector<8x1x1x8xf16>
              %196 = vector.shape_cast %195 : vector<1x8xf16> to vector<8xf16>
              %197 = amdgpu.mfma 16x16x32 %172 * %196 + %arg3 : vector<8xf16>, vector<8xf16>, vector<4xf32>
              scf.yield %197, %194, %191, %188, %185, %182, %179, %176 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %86 = vector.shape_cast %85#7 : vector<4xf32> to vector<1x1x4x1xf32>
            %87 = vector.shape_cast %85#6 : vector<4xf32> to vector<1x1x4x1xf32>
            %88 = vector.shape_cast %85#5 : vector<4xf32> to vector<1x1x4x1xf32>
            %89 = vector.shape_cast %85#4 : vector<4xf32> to vector<1x1x4x1xf32>
            %90 = vector.shape_cast %85#3 : vector<4xf32> to vector<1x1x4x1xf32>
            %91 = vector.shape_cast %85#2 : vector<4xf32> to vector<1x1x4x1xf32>
            %92 = vector.shape_cast %85#1 : vector<4xf32> to vector<1x1x4x1xf32>
            %93 = vector.shape_cast %85#0 : vector<4xf32> to vector<1x1x4x1xf32>
            %94 = vector.insert_strided_slice %86, %cst_0 offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            %95 = vector.insert_strided_slice %87, %94 offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            %96 = vector.insert_strided_slice %88, %95 offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            %97 = vector.insert_strided_slice %89, %96 offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            %98 = vector.insert_strided_slice %90, %97 offsets = [0, 4, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            %99 = vector.insert_strided_slice %91, %98 offsets = [0, 5, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            %100 = vector.insert_strided_slice %92, %99 offsets = [0, 6, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            %101 = vector.insert_strided_slice %93, %100 offsets = [0, 7, 0, 0], strides = [1, 1, 1, 1] : vector<1x1x4x1xf32> into vector<1x8x4x1xf32>
            vector.transfer_write %101, %alloca_8[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x8x4x1xf32>, memref<1x8x4x1xf32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %7 [[0, 1]] : memref<200x1000xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<200000xf32, #amdgpu.address_space<fat_raw_buffer>>
            %102 = vector.step : vector<1xindex>
            %103 = vector.broadcast %102 : vector<1xindex> to vector<1x1x8x1xindex>
            %104 = vector.step : vector<8xindex>
            %105 = vector.shape_cast %104 : vector<8xindex> to vector<1x1x8x1xindex>
            %106 = vector.broadcast %19 : index to vector<1x1x8x1xindex>
            %107 = arith.addi %106, %103 : vector<1x1x8x1xindex>
            %108 = vector.broadcast %18 : index to vector<1xindex>
            %109 = arith.addi %102, %108 : vector<1xindex>
            %110 = arith.muli %105, %cst_2 overflow<nsw> : vector<1x1x8x1xindex>
            %111 = vector.broadcast %109 : vector<1xindex> to vector<1x1x8x1xindex>
            %112 = arith.addi %110, %111 overflow<nsw> : vector<1x1x8x1xindex>
            %113 = vector.broadcast %10 : index to vector<1x1x8x1xindex>
            %114 = vector.broadcast %11 : index to vector<1x1x8x1xindex>
            %115 = arith.cmpi ult, %112, %114 : vector<1x1x8x1xindex>
            %116 = vector.broadcast %9 : index to vector<1x1x8x1xindex>
            %117 = vector.broadcast %8 : index to vector<1x1x8x1xindex>
            %118 = arith.addi %117, %112 : vector<1x1x8x1xindex>
            scf.for %arg2 = %c0 to %c4 step %c1 {
              %subview_21 = memref.subview %alloca[0, %arg2, 0, 0] [1, 1, 8, 1] [1, 1, 1, 1] : memref<1x4x8x1xf32, #gpu.address_space<private>> to memref<1x1x8x1xf32, strided<[32, 8, 1, 1], offset: ?>, #gpu.address_space<private>>
              %119 = vector.transfer_read %alloca_8[%c0, %c0, %arg2, %c0], %1 {in_bounds = [true, true, true, true]} : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1x8x1x1xf32>
              %120 = vector.transpose %119, [0, 2, 1, 3] : vector<1x8x1x1xf32> to vector<1x1x8x1xf32>
              vector.transfer_write %120, %subview_21[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x1x8x1xf32>, memref<1x1x8x1xf32, strided<[32, 8, 1, 1], offset: ?>, #gpu.address_space<private>>
              %121 = vector.transfer_read %subview_21[%c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true]} : memref<1x1x8x1xf32, strided<[32, 8, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x1x8x1xf32>
              %122 = vector.broadcast %arg2 : index to vector<1x1x8x1xindex>
              %123 = arith.addi %107, %122 : vector<1x1x8x1xindex>
              %124 = arith.cmpi ult, %123, %113 : vector<1x1x8x1xindex>
              %125 = arith.andi %124, %115 : vector<1x1x8x1xi1>
              %126 = arith.addi %116, %123 : vector<1x1x8x1xindex>
              %127 = arith.muli %126, %cst_3 overflow<nsw> : vector<1x1x8x1xindex>
              %128 = arith.addi %127, %118 overflow<nsw> : vector<1x1x8x1xindex>
              %129 = vector.shape_cast %128 : vector<1x1x8x1xindex> to vector<8xindex>
              %130 = vector.shape_cast %125 : vector<1x1x8x1xi1> to vector<8xi1>
              %131 = vector.shape_cast %121 : vector<1x1x8x1xf32> to vector<8xf32>
              vector.scatter %collapse_shape[%c0] [%129], %130, %131 : memref<200000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xindex>, vector<8xi1>, vector<8xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_6 : memref<32x16xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_200x1000x1030_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

