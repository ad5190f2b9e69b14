#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 128)>
#map1 = affine_map<(d0) -> (d0 * 64)>
#map2 = affine_map<(d0) -> (d0 * -64 + 547, 64)>
#map3 = affine_map<(d0) -> (d0 * -128 + 183, 128)>
#map4 = affine_map<(d0) -> (d0 * -64 + 547, 0, 64)>
#map5 = affine_map<(d0, d1) -> (64, d0 - d1)>
#map6 = affine_map<(d0) -> (d0 * -128 + 183, 0, 128)>
#map7 = affine_map<(d0, d1) -> (128, d0 - d1)>
#map8 = affine_map<()[s0] -> (s0 * 16)>
#map9 = affine_map<(d0, d1)[s0] -> (64, s0, d0 - d1)>
#map10 = affine_map<(d0, d1) -> (1, d0 - d1)>
#map11 = affine_map<(d0)[s0, s1] -> (d0 * 64 + s0 + s1)>
#map12 = affine_map<()[s0] -> (s0 * 4)>
#map13 = affine_map<()[s0] -> (s0 * 2)>
#map14 = affine_map<(d0)[s0] -> (d0 + s0)>
#map15 = affine_map<(d0) -> (d0 * 16)>
#map16 = affine_map<(d0, d1, d2) -> (128, d2 * 16, d0 - d1)>
#map17 = affine_map<(d0, d1) -> (16, d0 - d1)>
#map18 = affine_map<(d0)[s0, s1] -> (d0 * 128 + s0 + s1)>
#map19 = affine_map<(d0) -> (142, d0 * 64)>
#map20 = affine_map<(d0) -> (-d0 + 142, 64)>
#map21 = affine_map<(d0)[s0] -> (-d0 + 142, 64, s0 * 16)>
#map22 = affine_map<()[s0, s1] -> (s0 + s1)>
#map23 = affine_map<(d0, d1) -> (-d1 + 142, 64, d0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 4, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_batch_matmul_2x547x183x142_i8xi8xi32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_batch_matmul_2x547x183x142_i8xi8xi32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #translation} {
          %0 = ub.poison : i8
          %cst = arith.constant dense<0> : vector<1x2x4x4x1xi32>
          %1 = ub.poison : i32
          %c2 = arith.constant 2 : index
          %c256 = arith.constant 256 : index
          %c3 = arith.constant 3 : index
          %c1 = arith.constant 1 : index
          %c0_i8 = arith.constant 0 : i8
          %c0 = arith.constant 0 : index
          %c4 = arith.constant 4 : index
          %cst_0 = arith.constant dense<16> : vector<1x1x4x4x1xindex>
          %cst_1 = arith.constant dense<1> : vector<1x1x4x4x1xindex>
          %cst_2 = arith.constant dense<100101> : vector<1x1x4x4x1xindex>
          %cst_3 = arith.constant dense<183> : vector<1x1x4x4x1xindex>
          %c16 = arith.constant 16 : index
          %c8 = arith.constant 8 : index
          %c24 = arith.constant 24 : index
          %c32 = arith.constant 32 : index
          %c40 = arith.constant 40 : index
          %c48 = arith.constant 48 : index
          %c56 = arith.constant 56 : index
          %cst_4 = arith.constant dense<0> : vector<64xi8>
          %cst_5 = arith.constant dense<0> : vector<4xi32>
          %alloc = memref.alloc() : memref<1x64x136xi8, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() : memref<1x64x72xi8, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x1x16xi8, #gpu.address_space<private>>
          %alloca_7 = memref.alloca() : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          %alloca_8 = memref.alloca() : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x547x142xi8, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %2, 64 : memref<2x547x142xi8, #hal.descriptor_type<storage_buffer>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2x547x142xi8, #hal.descriptor_type<storage_buffer>> to memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x142x183xi8, #hal.descriptor_type<storage_buffer>>
          %assume_align_9 = memref.assume_alignment %4, 64 : memref<2x142x183xi8, #hal.descriptor_type<storage_buffer>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_9 resetOffset : memref<2x142x183xi8, #hal.descriptor_type<storage_buffer>> to memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>
          %6 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2x547x183xi32, #hal.descriptor_type<storage_buffer>>
          %assume_align_10 = memref.assume_alignment %6, 64 : memref<2x547x183xi32, #hal.descriptor_type<storage_buffer>>
          %7 = amdgpu.fat_raw_buffer_cast %assume_align_10 resetOffset : memref<2x547x183xi32, #hal.descriptor_type<storage_buffer>> to memref<2x547x183xi32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0, %arg1, %arg2) in (2, 9, 2) {
            %8 = affine.apply #map(%arg2)
            %9 = affine.apply #map1(%arg1)
            %10 = affine.min #map2(%arg1)
            %11 = affine.min #map3(%arg2)
            %12 = affine.min #map4(%arg1)
            %13 = affine.min #map5(%10, %12)
            %subview = memref.subview %alloc_6[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<1x64x72xi8, #gpu.address_space<workgroup>> to memref<1x64x64xi8, strided<[4608, 72, 1]>, #gpu.address_space<workgroup>>
            %14 = affine.min #map6(%arg2)
            %15 = affine.min #map7(%11, %14)
            %subview_11 = memref.subview %alloc[0, 0, 0] [1, 64, 128] [1, 1, 1] : memref<1x64x136xi8, #gpu.address_space<workgroup>> to memref<1x64x128xi8, strided<[8704, 136, 1]>, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %16:3 = affine.delinearize_index %thread_id_x into (2, 2, 64) : index, index, index
            %17:3 = affine.delinearize_index %16#2 into (4, 16) : index, index, index
            %18 = iree_codegen.index_hint %17#1(#iree_gpu.lane_constant<16>) : index
            %19 = iree_codegen.index_hint %17#2(#iree_gpu.lane_increment<16, aligned>) : index
            %20 = affine.linearize_index disjoint [%18, %c0] by (4, 4) : index
            %21:2 = affine.delinearize_index %thread_id_x into (64, 4) : index, index
            %22 = affine.apply #map8()[%21#1]
            %23 = affine.min #map9(%10, %12)[%21#0]
            %24 = affine.min #map10(%13, %23)
            %25 = affine.apply #map11(%arg1)[%23, %12]
            %26 = affine.apply #map12()[%16#1]
            %27 = affine.apply #map13()[%16#0]
            %28 = affine.linearize_index disjoint [%18, %c0] by (4, 16) : index
            %subview_12 = memref.subview %subview[0, %21#0, %22] [1, 1, 16] [1, 1, 1] : memref<1x64x64xi8, strided<[4608, 72, 1]>, #gpu.address_space<workgroup>> to memref<1x1x16xi8, strided<[4608, 72, 1], offset: ?>, #gpu.address_space<workgroup>>
            %29 = affine.apply #map14(%c0)[%thread_id_x]
            %30:2 = affine.delinearize_index %29 into (64, 8) : index, index
            %31 = affine.apply #map15(%30#1)
            %subview_13 = memref.subview %subview_11[0, %30#0, %31] [1, 1, 16] [1, 1, 1] : memref<1x64x128xi8, strided<[8704, 136, 1]>, #gpu.address_space<workgroup>> to memref<1x1x16xi8, strided<[8704, 136, 1], offset: ?>, #gpu.address_space<workgroup>>
            %32 = affine.min #map16(%11, %14, %30#1)
            %33 = affine.min #map17(%15, %32)
            %34 = affine.apply #map18(%arg2)[%32, %14]
            %35 = affine.apply #map14(%c256)[%thread_id_x]
            %36:2 = affine.delinearize_index %35 into (64, 8) : index, index
            %37 = affine.apply #map15(%36#1)
            %subview_14 = memref.subview %subview_11[0, %36#0, %37] [1, 1, 16] [1, 1, 1] : memref<1x64x128xi8, strided<[8704, 136, 1]>, #gpu.address_space<workgroup>> to memref<1x1x16xi8, strided<[8704, 136, 1], offset: ?>, #gpu.address_space<workgroup>>
            %38 = affine.min #map16(%11, %14, %36#1)
            %39 = affine.min #map17(%15, %38)
            %40 = affine.apply #map18(%arg2)[%38, %14]
            %expand_shape = memref.expand_shape %subview_11 [[0], [1, 2], [3, 4]] output_shape [1, 1, 64, 8, 16] : memref<1x64x128xi8, strided<[8704, 136, 1]>, #gpu.address_space<workgroup>> into memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>>
            %expand_shape_15 = memref.expand_shape %subview [[0], [1, 2], [3, 4]] output_shape [1, 4, 16, 1, 64] : memref<1x64x64xi8, strided<[4608, 72, 1]>, #gpu.address_space<workgroup>> into memref<1x4x16x1x64xi8, strided<[4608, 1152, 72, 64, 1]>, #gpu.address_space<workgroup>>
            %41 = gpu.lane_id upper_bound 64
            %42 = arith.remui %41, %c16 : index
            %43 = arith.divui %42, %c2 : index
            %44 = arith.subi %19, %42 : index
            %45 = arith.remui %42, %c2 : index
            %46 = arith.muli %45, %c8 : index
            %47 = arith.addi %44, %46 : index
            %48:2 = affine.delinearize_index %43 into (16, 4) : index, index
            %49 = arith.addi %28, %48#0 : index
            %50 = arith.addi %26, %48#1 : index
            %51 = arith.addi %43, %c8 : index
            %52:2 = affine.delinearize_index %51 into (16, 4) : index, index
            %53 = arith.addi %28, %52#0 : index
            %54 = arith.addi %26, %52#1 : index
            %55 = arith.addi %43, %c16 : index
            %56:2 = affine.delinearize_index %55 into (16, 4) : index, index
            %57 = arith.addi %28, %56#0 : index
            %58 = arith.addi %26, %56#1 : index
            %59 = arith.addi %43, %c24 : index
            %60:2 = affine.delinearize_index %59 into (16, 4) : index, index
            %61 = arith.addi %28, %60#0 : index
            %62 = arith.addi %26, %60#1 : index
            %63 = arith.addi %43, %c32 : index
            %64:2 = affine.delinearize_index %63 into (16, 4) : index, index
            %65 = arith.addi %28, %64#0 : index
            %66 = arith.addi %26, %64#1 : index
            %67 = arith.addi %43, %c40 : index
            %68:2 = affine.delinearize_index %67 into (16, 4) : index, index
            %69 = arith.addi %28, %68#0 : index
            %70 = arith.addi %26, %68#1 : index
            %71 = arith.addi %43, %c48 : index
            %72:2 = affine.delinearize_index %71 into (16, 4) : index, index
            %73 = arith.addi %28, %72#0 : index
            %74 = arith.addi %26, %72#1 : index
            %75 = arith.addi %43, %c56 : index
            %76:2 = affine.delinearize_index %75 into (16, 4) : index, index
            %77 = arith.addi %28, %76#0 : index
            %78 = arith.addi %26, %76#1 : index
            %79:8 = scf.for %arg3 = %c0 to %c3 step %c1 iter_args(%arg4 = %cst_5, %arg5 = %cst_5, %arg6 = %cst_5, %arg7 = %cst_5, %arg8 = %cst_5, %arg9 = %cst_5, %arg10 = %cst_5, %arg11 = %cst_5) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>) {
              %126 = affine.min #map19(%arg3)
              %127 = affine.min #map20(%126)
              %128 = affine.min #map21(%126)[%21#1]
              %129 = affine.min #map17(%127, %128)
              %130 = affine.apply #map22()[%128, %126]
              %subview_16 = memref.subview %3[%arg0, %25, %130] [1, %24, %129] [1, 1, 1] : memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x?xi8, strided<[77674, 142, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %131 = vector.create_mask %c1, %24, %129 : vector<1x1x16xi1>
              %132 = vector.transfer_read %subview_16[%c0, %c0, %c0], %c0_i8, %131 {in_bounds = [true, true, true]} : memref<1x?x?xi8, strided<[77674, 142, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x16xi8>
              vector.transfer_write %132, %alloca[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x16xi8>, memref<1x1x16xi8, #gpu.address_space<private>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %133 = vector.transfer_read %alloca[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x16xi8, #gpu.address_space<private>>, vector<1x1x16xi8>
              vector.transfer_write %133, %subview_12[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x16xi8>, memref<1x1x16xi8, strided<[4608, 72, 1], offset: ?>, #gpu.address_space<workgroup>>
              %134 = affine.min #map23(%30#0, %126)
              %135 = affine.min #map10(%127, %134)
              %136 = affine.apply #map22()[%134, %126]
              %subview_17 = memref.subview %5[%arg0, %136, %34] [1, %135, %33] [1, 1, 1] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x?xi8, strided<[25986, 183, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %137 = vector.create_mask %c1, %135, %33 : vector<1x1x16xi1>
              %138 = vector.transfer_read %subview_17[%c0, %c0, %c0], %c0_i8, %137 {in_bounds = [true, true, true]} : memref<1x?x?xi8, strided<[25986, 183, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x16xi8>
              vector.transfer_write %138, %subview_13[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x16xi8>, memref<1x1x16xi8, strided<[8704, 136, 1], offset: ?>, #gpu.address_space<workgroup>>
              %139 = affine.min #map23(%36#0, %126)
              %140 = affine.min #map10(%127, %139)
              %141 = affine.apply #map22()[%139, %126]
              %subview_18 = memref.subview %5[%arg0, %141, %40] [1, %140, %39] [1, 1, 1] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>> to memref<1x?x?xi8, strided<[25986, 183, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %142 = vector.create_mask %c1, %140, %39 : vector<1x1x16xi1>
              %143 = vector.transfer_read %subview_18[%c0, %c0, %c0], %c0_i8, %142 {in_bounds = [true, true, true]} : memref<1x?x?xi8, strided<[25986, 183, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1x1x16xi8>
              vector.transfer_write %143, %subview_14[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x16xi8>, memref<1x1x16xi8, strided<[8704, 136, 1], offset: ?>, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %144 = vector.transfer_read %expand_shape_15[%c0, %27, %19, %c0, %28], %0 {in_bounds = [true, true, true, true, true]} : memref<1x4x16x1x64xi8, strided<[4608, 1152, 72, 64, 1]>, #gpu.address_space<workgroup>>, vector<1x2x1x1x16xi8>
              %145 = amdgpu.transpose_load %expand_shape[%c0, %c0, %49, %50, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %146 = amdgpu.transpose_load %expand_shape[%c0, %c0, %53, %54, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %147 = amdgpu.transpose_load %expand_shape[%c0, %c0, %57, %58, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %148 = amdgpu.transpose_load %expand_shape[%c0, %c0, %61, %62, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %149 = amdgpu.transpose_load %expand_shape[%c0, %c0, %65, %66, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %150 = amdgpu.transpose_load %expand_shape[%c0, %c0, %69, %70, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %151 = amdgpu.transpose_load %expand_shape[%c0, %c0, %73, %74, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %152 = amdgpu.transpose_load %expand_shape[%c0, %c0, %77, %78, %47] : memref<1x1x64x8x16xi8, strided<[8704, 8704, 136, 16, 1]>, #gpu.address_space<workgroup>> -> vector<8xi8>
              %153 = vector.insert_strided_slice %145, %cst_4 offsets = [0], strides = [1] : vector<8xi8> into vector<64xi8>
              %154 = vector.insert_strided_slice %146, %153 offsets = [8], strides = [1] : vector<8xi8> into vector<64xi8>
              %155 = vector.insert_strided_slice %147, %154 offsets = [16], strides = [1] : vector<8xi8> into vector<64xi8>
              %156 = vector.insert_strided_slice %148, %155 offsets = [24], strides = [1] : vector<8xi8> into vector<64xi8>
              %157 = vector.insert_strided_slice %149, %156 offsets = [32], strides = [1] : vector<8xi8> into vector<64xi8>
              %158 = vector.insert_strided_slice %150, %157 offsets = [40], strides = [1] : vector<8xi8> into vector<64xi8>
              %159 = vector.insert_strided_slice %151, %158 offsets = [48], strides = [1] : vector<8xi8> into vector<64xi8>
              %160 = vector.insert_strided_slice %152, %159 offsets = [56], strides = [1] : vector<8xi8> into vector<64xi8>
              %161 = vector.shape_cast %160 : vector<64xi8> to vector<1x1x16x4x1xi8>
              %162 = vector.transpose %161, [0, 1, 3, 4, 2] : vector<1x1x16x4x1xi8> to vector<1x1x4x1x16xi8>
              %163 = vector.extract %144[0, 0, 0] : vector<1x16xi8> from vector<1x2x1x1x16xi8>
              %164 = vector.extract %162[0, 0, 0] : vector<1x16xi8> from vector<1x1x4x1x16xi8>
              %165 = vector.shape_cast %163 : vector<1x16xi8> to vector<16xi8>
              %166 = vector.shape_cast %164 : vector<1x16xi8> to vector<16xi8>
              %167 = amdgpu.mfma 16x16x64 %165 * %166 + %arg11 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              %168 = vector.extract %162[0, 0, 1] : vector<1x16xi8> from vector<1x1x4x1x16xi8>
              %169 = vector.shape_cast %163 : vector<1x16xi8> to vector<16xi8>
              %170 = vector.shape_cast %168 : vector<1x16xi8> to vector<16xi8>
              %171 = amdgpu.mfma 16x16x64 %169 * %170 + %arg10 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              %172 = vector.extract %162[0, 0, 2] : vector<1x16xi8> from vector<1x1x4x1x16xi8>
              %173 = vector.shape_cast %163 : vector<1x16xi8> to vector<16xi8>
              %174 = vector.shape_cast %172 : vector<1x16xi8> to vector<16xi8>
              %175 = amdgpu.mfma 16x16x64 %173 * %174 + %arg9 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              %176 = vector.extract %162[0, 0, 3] : vector<1x16xi8> from vector<1x1x4x1x16xi8>
              %177 = vector.shape_cast %163 : vector<1x16xi8> to vector<16xi8>
              %178 = vector.shape_cast %176 : vector<1x16xi8> to vector<16xi8>
              %179 = amdgpu.mfma 16x16x64 %177 * %178 + %arg8 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              %180 = vector.extract %144[0, 1, 0] : vector<1x16xi8> from vector<1x2x1x1x16xi8>
              %181 = vector.shape_cast %180 : vector<1x16xi8> to vector<16xi8>
              %182 = vector.shape_cast %164 : vector<1x16xi8> to vector<16xi8>
              %183 = amdgpu.mfma 16x16x64 %181 * %182 + %arg7 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              %184 = vector.shape_cast %180 : vector<1x16xi8> to vector<16xi8>
              %185 = vector.shape_cast %168 : vector<1x16xi8> to vector<16xi8>
              %186 = amdgpu.mfma 16x16x64 %184 * %185 + %arg6 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              %187 = vector.shape_cast %180 : vector<1x16xi8> to vector<16xi8>
              %188 = vector.shape_cast %172 : vector<1x16xi8> to vector<16xi8>
              %189 = amdgpu.mfma 16x16x64 %187 * %188 + %arg5 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              %190 = vector.shape_cast %180 : vector<1x16xi8> to vector<16xi8>
              %191 = vector.shape_cast %176 : vector<1x16xi8> to vector<16xi8>
              %192 = amdgpu.mfma 16x16x64 %190 * %191 + %arg4 : vector<16xi8>, vector<16xi8>, vector<4xi32>
              scf.yield %192, %189, %186, %183, %179, %175, %171, %167 : vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>
            }
            %80 = vector.shape_cast %79#7 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %81 = vector.shape_cast %79#6 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %82 = vector.shape_cast %79#5 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %83 = vector.shape_cast %79#4 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %84 = vector.shape_cast %79#3 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %85 = vector.shape_cast %79#2 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %86 = vector.shape_cast %79#1 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %87 = vector.shape_cast %79#0 : vector<4xi32> to vector<1x1x1x4x1xi32>
            %88 = vector.insert_strided_slice %80, %cst offsets = [0, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            %89 = vector.insert_strided_slice %81, %88 offsets = [0, 0, 1, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            %90 = vector.insert_strided_slice %82, %89 offsets = [0, 0, 2, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            %91 = vector.insert_strided_slice %83, %90 offsets = [0, 0, 3, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            %92 = vector.insert_strided_slice %84, %91 offsets = [0, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            %93 = vector.insert_strided_slice %85, %92 offsets = [0, 1, 1, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            %94 = vector.insert_strided_slice %86, %93 offsets = [0, 1, 2, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            %95 = vector.insert_strided_slice %87, %94 offsets = [0, 1, 3, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x1x4x1xi32> into vector<1x2x4x4x1xi32>
            vector.transfer_write %95, %alloca_7[%c0, %c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true, true]} : vector<1x2x4x4x1xi32>, memref<1x2x4x4x1xi32, #gpu.address_space<private>>
            %collapse_shape = memref.collapse_shape %7 [[0, 1, 2]] : memref<2x547x183xi32, #amdgpu.address_space<fat_raw_buffer>> into memref<200202xi32, #amdgpu.address_space<fat_raw_buffer>>
            %96 = vector.step : vector<1xindex>
            %97 = vector.broadcast %96 : vector<1xindex> to vector<1x1x4x4x1xindex>
            %98 = vector.step : vector<4xindex>
            %99 = vector.broadcast %98 : vector<4xindex> to vector<1x1x1x4x4xindex>
            %100 = vector.transpose %99, [0, 1, 4, 3, 2] : vector<1x1x1x4x4xindex> to vector<1x1x4x4x1xindex>
            %101 = vector.broadcast %98 : vector<4xindex> to vector<1x1x4x1x4xindex>
            %102 = vector.transpose %101, [0, 1, 2, 4, 3] : vector<1x1x4x1x4xindex> to vector<1x1x4x4x1xindex>
            %103 = arith.muli %16#0, %c2 overflow<nsw> : index
            %104 = vector.broadcast %103 : index to vector<1x1x4x4x1xindex>
            %105 = arith.addi %104, %97 : vector<1x1x4x4x1xindex>
            %106 = vector.broadcast %20 : index to vector<1x1x4x4x1xindex>
            %107 = arith.addi %100, %106 : vector<1x1x4x4x1xindex>
            %108 = arith.muli %16#1, %c4 overflow<nsw> : index
            %109 = vector.broadcast %108 : index to vector<1x1x4x4x1xindex>
            %110 = arith.addi %102, %109 : vector<1x1x4x4x1xindex>
            %111 = vector.broadcast %19 : index to vector<1xindex>
            %112 = arith.addi %96, %111 : vector<1xindex>
            %113 = arith.muli %110, %cst_0 overflow<nsw> : vector<1x1x4x4x1xindex>
            %114 = vector.broadcast %112 : vector<1xindex> to vector<1x1x4x4x1xindex>
            %115 = arith.addi %113, %114 overflow<nsw> : vector<1x1x4x4x1xindex>
            %116 = arith.cmpi ult, %97, %cst_1 : vector<1x1x4x4x1xindex>
            %117 = vector.broadcast %10 : index to vector<1x1x4x4x1xindex>
            %118 = vector.broadcast %11 : index to vector<1x1x4x4x1xindex>
            %119 = arith.cmpi ult, %115, %118 : vector<1x1x4x4x1xindex>
            %120 = vector.broadcast %arg0 : index to vector<1x1x4x4x1xindex>
            %121 = arith.addi %120, %97 : vector<1x1x4x4x1xindex>
            %122 = vector.broadcast %9 : index to vector<1x1x4x4x1xindex>
            %123 = vector.broadcast %8 : index to vector<1x1x4x4x1xindex>
            %124 = arith.addi %123, %115 : vector<1x1x4x4x1xindex>
            %125 = arith.muli %121, %cst_2 overflow<nsw> : vector<1x1x4x4x1xindex>
            scf.for %arg3 = %c0 to %c2 step %c1 {
              %subview_16 = memref.subview %alloca_8[0, %arg3, 0, 0, 0] [1, 1, 4, 4, 1] [1, 1, 1, 1, 1] : memref<1x2x4x4x1xi32, #gpu.address_space<private>> to memref<1x1x4x4x1xi32, strided<[32, 16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %126 = vector.transfer_read %alloca_7[%c0, %arg3, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true, true]} : memref<1x2x4x4x1xi32, #gpu.address_space<private>>, vector<1x1x4x4x1xi32>
              %127 = vector.transpose %126, [0, 1, 3, 2, 4] : vector<1x1x4x4x1xi32> to vector<1x1x4x4x1xi32>
              vector.transfer_write %127, %subview_16[%c0, %c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true, true]} : vector<1x1x4x4x1xi32>, memref<1x1x4x4x1xi32, strided<[32, 16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>
              %128 = vector.transfer_read %subview_16[%c0, %c0, %c0, %c0, %c0], %1 {in_bounds = [true, true, true, true, true]} : memref<1x1x4x4x1xi32, strided<[32, 16, 4, 1, 1], offset: ?>, #gpu.address_space<private>>, vector<1x1x4x4x1xi32>
              %129 = vector.broadcast %arg3 : index to vector<1x1x4x4x1xindex>
              %130 = arith.addi %105, %129 : vector<1x1x4x4x1xindex>
              %131 = arith.muli %130, %cst_0 overflow<nsw> : vector<1x1x4x4x1xindex>
              %132 = arith.addi %131, %107 overflow<nsw> : vector<1x1x4x4x1xindex>
              %133 = arith.cmpi ult, %132, %117 : vector<1x1x4x4x1xindex>
              %134 = arith.andi %116, %133 : vector<1x1x4x4x1xi1>
              %135 = arith.andi %134, %119 : vector<1x1x4x4x1xi1>
              %136 = arith.addi %122, %132 : vector<1x1x4x4x1xindex>
              %137 = arith.muli %136, %cst_3 overflow<nsw> : vector<1x1x4x4x1xindex>
              %138 = arith.addi %125, %137 overflow<nsw> : vector<1x1x4x4x1xindex>
              %139 = arith.addi %138, %124 overflow<nsw> : vector<1x1x4x4x1xindex>
              %140 = vector.shape_cast %139 : vector<1x1x4x4x1xindex> to vector<16xindex>
              %141 = vector.shape_cast %135 : vector<1x1x4x4x1xi1> to vector<16xi1>
              %142 = vector.shape_cast %128 : vector<1x1x4x4x1xi32> to vector<16xi32>
              vector.scatter %collapse_shape[%c0] [%140], %141, %142 : memref<200202xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xi32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          } {mapping = [#iree_codegen.workgroup_mapping<z>, #iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          memref.dealloc %alloc_6 : memref<1x64x72xi8, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<1x64x136xi8, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_batch_matmul_2x547x183x142_i8xi8xi32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

