#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0, s1] -> (s0 * 522 + s1)>
#map1 = affine_map<()[s0, s1] -> (s0 * 653 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_522x653x704_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_522x653x704_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
          %c459712 = arith.constant 459712 : index
          %c2 = arith.constant 2 : index
          %c367488 = arith.constant 367488 : index
          %c8 = arith.constant 8 : index
          %c653_i32 = arith.constant 653 : i32
          %c-16_i32 = arith.constant -16 : i32
          %c12_i32 = arith.constant 12 : i32
          %c32_i32 = arith.constant 32 : i32
          %c522_i32 = arith.constant 522 : i32
          %c1_i32 = arith.constant 1 : i32
          %c22_i32 = arith.constant 22 : i32
          %c41_i32 = arith.constant 41 : i32
          %c2_i32 = arith.constant 2 : i32
          %c8_i32 = arith.constant 8 : i32
          %c4_i32 = arith.constant 4 : i32
          %c16_i32 = arith.constant 16 : i32
          %c0_i32 = arith.constant 0 : i32
          %c64_i32 = arith.constant 64 : i32
          %cst = arith.constant dense<0.000000e+00> : vector<8xbf16>
          %c0 = arith.constant 0 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<16xbf16>
          %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<64x20xbf16, #gpu.address_space<workgroup>>
          %alloc_2 = memref.alloc() : memref<64x20xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x1x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 64
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<704x522xbf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<704x522xbf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<704x522xbf16, #gpu.address_space<global>> to memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<704x653xbf16, #gpu.address_space<global>>
          %assume_align_3 = memref.assume_alignment %2, 64 : memref<704x653xbf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_3 resetOffset : memref<704x653xbf16, #gpu.address_space<global>> to memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<522x653xf32, #gpu.address_space<global>>
          %assume_align_4 = memref.assume_alignment %4, 64 : memref<522x653xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<522x653xf32, #gpu.address_space<global>> to memref<522x653xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c16_i32 : i32
          %8 = arith.remui %6, %c16_i32 : i32
          %9 = arith.muli %7, %c4_i32 overflow<nsw> : i32
          %10 = arith.muli %7, %c8_i32 overflow<nsw> : i32
          %11 = arith.divui %6, %c2_i32 : i32
          %12 = arith.index_castui %11 : i32 to index
          %13 = arith.remui %6, %c2_i32 : i32
          %14 = arith.addi %6, %c64_i32 overflow<nsw> : i32
          %15 = arith.divui %14, %c2_i32 : i32
          %16 = arith.index_castui %15 : i32 to index
          %17 = arith.remui %14, %c2_i32 : i32
          %18 = gpu.lane_id upper_bound 64
          %19 = arith.index_castui %18 : index to i32
          %20 = arith.remui %19, %c16_i32 : i32
          %21 = arith.divui %20, %c4_i32 : i32
          %22 = arith.subi %8, %20 : i32
          %23 = arith.remui %20, %c4_i32 : i32
          %24 = arith.muli %23, %c4_i32 : i32
          %25 = arith.addi %22, %24 : i32
          %26 = arith.index_cast %25 : i32 to index
          %27 = arith.addi %10, %21 : i32
          %28 = arith.index_castui %27 : i32 to index
          %29 = arith.addi %21, %c4_i32 : i32
          %30 = arith.addi %10, %29 : i32
          %31 = arith.index_castui %30 : i32 to index
          %32 = arith.addi %21, %c8_i32 : i32
          %33 = arith.remui %32, %c8_i32 : i32
          %34 = arith.addi %10, %33 : i32
          %35 = arith.addi %21, %c12_i32 : i32
          %36 = arith.remui %35, %c8_i32 : i32
          %37 = arith.addi %10, %36 : i32
          %38 = arith.muli %13, %c8_i32 overflow<nsw> : i32
          %39 = arith.index_castui %38 : i32 to index
          %40 = arith.muli %17, %c8_i32 overflow<nsw> : i32
          %41 = arith.index_castui %40 : i32 to index
          %42 = arith.addi %34, %c32_i32 overflow<nsw> : i32
          %43 = arith.index_castui %42 : i32 to index
          %44 = arith.addi %37, %c32_i32 overflow<nsw> : i32
          %45 = arith.index_castui %44 : i32 to index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 1353 : index
          %46 = arith.index_castui %workgroup_id_x : index to i32
          %47 = arith.divui %46, %c41_i32 : i32
          %48 = arith.remui %46, %c41_i32 : i32
          %49 = arith.muli %47, %c-16_i32 overflow<nsw> : i32
          %50 = arith.addi %49, %c522_i32 : i32
          %51 = arith.minui %50, %c16_i32 : i32
          %52 = arith.muli %48, %c-16_i32 overflow<nsw> : i32
          %53 = arith.addi %52, %c653_i32 : i32
          %54 = arith.minui %53, %c16_i32 : i32
          %55 = arith.minui %51, %c16_i32 : i32
          %56 = arith.minui %54, %c16_i32 : i32
          %57 = arith.subi %51, %9 : i32
          %58 = arith.maxsi %57, %c0_i32 : i32
          %59 = arith.minui %58, %c4_i32 : i32
          %60 = arith.subi %54, %8 : i32
          %61 = arith.maxsi %60, %c0_i32 : i32
          %62 = arith.minui %61, %c1_i32 : i32
          %63 = arith.minui %55, %38 : i32
          %64 = arith.subi %55, %63 : i32
          %65 = arith.minui %64, %c8_i32 : i32
          %66 = arith.index_castui %65 : i32 to index
          %67 = arith.minui %55, %40 : i32
          %68 = arith.subi %55, %67 : i32
          %69 = arith.minui %68, %c8_i32 : i32
          %70 = arith.index_castui %69 : i32 to index
          %71 = arith.minui %56, %38 : i32
          %72 = arith.subi %56, %71 : i32
          %73 = arith.minui %72, %c8_i32 : i32
          %74 = arith.index_castui %73 : i32 to index
          %75 = arith.minui %56, %40 : i32
          %76 = arith.subi %56, %75 : i32
          %77 = arith.minui %76, %c8_i32 : i32
          %78 = arith.index_castui %77 : i32 to index
          %79 = arith.muli %47, %c16_i32 overflow<nsw> : i32
          %80 = arith.addi %63, %79 : i32
          %81 = arith.index_castui %80 : i32 to index
          %82 = vector.create_mask %66 : vector<8xi1>
          %83 = arith.addi %67, %79 : i32
          %84 = arith.index_castui %83 : i32 to index
          %85 = vector.create_mask %70 : vector<8xi1>
          %86 = arith.muli %48, %c16_i32 overflow<nsw> : i32
          %87 = arith.addi %71, %86 : i32
          %88 = arith.index_castui %87 : i32 to index
          %89 = vector.create_mask %74 : vector<8xi1>
          %90 = arith.addi %75, %86 : i32
          %91 = arith.index_castui %90 : i32 to index
          %92 = vector.create_mask %78 : vector<8xi1>
          %93 = scf.for %arg0 = %c0_i32 to %c22_i32 step %c2_i32 iter_args(%arg1 = %cst_1) -> (vector<4xf32>)  : i32 {
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %95 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %96 = arith.addi %11, %95 : i32
            %97 = arith.index_castui %96 : i32 to index
            %98 = affine.apply #map()[%97, %81]
            %99 = arith.subi %c367488, %98 : index
            %100 = arith.cmpi ult, %99, %c8 : index
            %101 = arith.remui %99, %c2 : index
            %102 = arith.cmpi ne, %101, %c0 : index
            %103 = arith.andi %100, %102 : i1
            %104 = scf.if %103 -> (vector<8xbf16>) {
              %150 = vector.maskedload %1[%97, %81], %82, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              scf.yield %150 : vector<8xbf16>
            } else {
              %150 = vector.load %1[%97, %81] : memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
              %151 = arith.select %82, %150, %cst : vector<8xi1>, vector<8xbf16>
              scf.yield %151 : vector<8xbf16>
            }
            vector.store %104, %alloc[%12, %39] : memref<64x20xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %105 = arith.addi %15, %95 : i32
            %106 = arith.index_castui %105 : i32 to index
            %107 = affine.apply #map()[%106, %84]
            %108 = arith.subi %c367488, %107 : index
            %109 = arith.cmpi ult, %108, %c8 : index
            %110 = arith.remui %108, %c2 : index
            %111 = arith.cmpi ne, %110, %c0 : index
            %112 = arith.andi %109, %111 : i1
            %113 = scf.if %112 -> (vector<8xbf16>) {
              %150 = vector.maskedload %1[%106, %84], %85, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              scf.yield %150 : vector<8xbf16>
            } else {
              %150 = vector.load %1[%106, %84] : memref<704x522xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
              %151 = arith.select %85, %150, %cst : vector<8xi1>, vector<8xbf16>
              scf.yield %151 : vector<8xbf16>
            }
            vector.store %113, %alloc[%16, %41] : memref<64x20xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %114 = affine.apply #map1()[%97, %88]
            %115 = arith.subi %c459712, %114 : index
            %116 = arith.cmpi ult, %115, %c8 : index
            %117 = arith.remui %115, %c2 : index
            %118 = arith.cmpi ne, %117, %c0 : index
            %119 = arith.andi %116, %118 : i1
            %120 = scf.if %119 -> (vector<8xbf16>) {
              %150 = vector.maskedload %3[%97, %88], %89, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              scf.yield %150 : vector<8xbf16>
            } else {
              %150 = vector.load %3[%97, %88] : memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
              %151 = arith.select %89, %150, %cst : vector<8xi1>, vector<8xbf16>
              scf.yield %151 : vector<8xbf16>
            }
            vector.store %120, %alloc_2[%12, %39] : memref<64x20xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %121 = affine.apply #map1()[%106, %91]
            %122 = arith.subi %c459712, %121 : index
            %123 = arith.cmpi ult, %122, %c8 : index
            %124 = arith.remui %122, %c2 : index
            %125 = arith.cmpi ne, %124, %c0 : index
            %126 = arith.andi %123, %125 : i1
            %127 = scf.if %126 -> (vector<8xbf16>) {
              %150 = vector.maskedload %3[%106, %91], %92, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              scf.yield %150 : vector<8xbf16>
            } else {
              %150 = vector.load %3[%106, %91] : memref<704x653xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
              %151 = arith.select %92, %150, %cst : vector<8xi1>, vector<8xbf16>
              scf.yield %151 : vector<8xbf16>
            }
            vector.store %127, %alloc_2[%16, %41] : memref<64x20xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %128 = amdgpu.transpose_load %alloc[%28, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %129 = amdgpu.transpose_load %alloc[%31, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %130 = amdgpu.transpose_load %alloc[%43, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %131 = amdgpu.transpose_load %alloc[%45, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %132 = vector.insert_strided_slice %128, %cst_0 offsets = [0], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %133 = vector.insert_strided_slice %129, %132 offsets = [4], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %134 = vector.insert_strided_slice %130, %133 offsets = [8], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %135 = vector.insert_strided_slice %131, %134 offsets = [12], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %136 = vector.extract_strided_slice %135 offsets = [0], sizes = [8], strides = [1] : vector<16xbf16> to vector<8xbf16>
            %137 = vector.extract_strided_slice %135 offsets = [8], sizes = [8], strides = [1] : vector<16xbf16> to vector<8xbf16>
            %138 = amdgpu.transpose_load %alloc_2[%28, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %139 = amdgpu.transpose_load %alloc_2[%31, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %140 = amdgpu.transpose_load %alloc_2[%43, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %141 = amdgpu.transpose_load %alloc_2[%45, %26] : memref<64x20xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %142 = vector.insert_strided_slice %138, %cst_0 offsets = [0], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %143 = vector.insert_strided_slice %139, %142 offsets = [4], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %144 = vector.insert_strided_slice %140, %143 offsets = [8], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %145 = vector.insert_strided_slice %141, %144 offsets = [12], strides = [1] : vector<4xbf16> into vector<16xbf16>
            %146 = vector.extract_strided_slice %145 offsets = [0], sizes = [8], strides = [1] : vector<16xbf16> to vector<8xbf16>
            %147 = vector.extract_strided_slice %145 offsets = [8], sizes = [8], strides = [1] : vector<16xbf16> to vector<8xbf16>
            %148 = amdgpu.mfma 16x16x32 %136 * %146 + %arg1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %149 = amdgpu.mfma 16x16x32 %137 * %147 + %148 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            scf.yield %149 : vector<4xf32>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %95 = arith.index_castui %arg0 : i32 to index
            %96 = vector.extract %93[%95] : f32 from vector<4xf32>
            memref.store %96, %alloca[%c0, %95, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
          }
          %94 = arith.cmpi sgt, %62, %c0_i32 : i32
          scf.for %arg0 = %c0_i32 to %59 step %c1_i32  : i32 {
            %95 = arith.index_castui %arg0 : i32 to index
            scf.if %94 {
              scf.for %arg1 = %c0_i32 to %62 step %c1_i32  : i32 {
                %96 = memref.load %alloca[%c0, %95, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
                %97 = arith.addi %9, %79 : i32
                %98 = arith.addi %97, %arg0 : i32
                %99 = arith.index_castui %98 : i32 to index
                %100 = arith.addi %8, %86 : i32
                %101 = arith.index_castui %100 : i32 to index
                memref.store %96, %5[%99, %101] : memref<522x653xf32, #amdgpu.address_space<fat_raw_buffer>>
              }
            }
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_2 : memref<64x20xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<64x20xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_522x653x704_bf16xbf16xf32 workgroup_size = [64, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c1353 = arith.constant 1353 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c1353, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

