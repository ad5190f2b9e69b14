#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0, s1] -> (s0 * 1030 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_200x1000x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_200x1000x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
          %c1030000 = arith.constant 1030000 : index
          %c8 = arith.constant 8 : index
          %c-128_i32 = arith.constant -128 : i32
          %c-16_i32 = arith.constant -16 : i32
          %c1030_i32 = arith.constant 1030 : i32
          %c32_i32 = arith.constant 32 : i32
          %c3584_i32 = arith.constant 3584 : i32
          %c3072_i32 = arith.constant 3072 : i32
          %c2560_i32 = arith.constant 2560 : i32
          %c2048_i32 = arith.constant 2048 : i32
          %c1536_i32 = arith.constant 1536 : i32
          %c1024_i32 = arith.constant 1024 : i32
          %c512_i32 = arith.constant 512 : i32
          %c200_i32 = arith.constant 200 : i32
          %cst = arith.constant dense<1000> : vector<1xi32>
          %c1_i32 = arith.constant 1 : i32
          %c33_i32 = arith.constant 33 : i32
          %c1000_i32 = arith.constant 1000 : i32
          %cst_0 = arith.constant dense<16> : vector<1xi32>
          %c448_i32 = arith.constant 448 : i32
          %c384_i32 = arith.constant 384 : i32
          %c320_i32 = arith.constant 320 : i32
          %c256_i32 = arith.constant 256 : i32
          %c192_i32 = arith.constant 192 : i32
          %c128_i32 = arith.constant 128 : i32
          %c8_i32 = arith.constant 8 : i32
          %c2_i32 = arith.constant 2 : i32
          %c4_i32 = arith.constant 4 : i32
          %c16_i32 = arith.constant 16 : i32
          %c0_i32 = arith.constant 0 : i32
          %c64_i32 = arith.constant 64 : i32
          %c7 = arith.constant 7 : index
          %c6 = arith.constant 6 : index
          %c5 = arith.constant 5 : index
          %c3 = arith.constant 3 : index
          %c2 = arith.constant 2 : index
          %cst_1 = arith.constant dense<false> : vector<8xi1>
          %c4 = arith.constant 4 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %cst_2 = arith.constant dense<0.000000e+00> : vector<8xf16>
          %cst_3 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<4096xf16, #gpu.address_space<workgroup>>
          %alloc_4 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x8x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 64
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1030x200xf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<1030x200xf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<1030x200xf16, #gpu.address_space<global>> to memref<1030x200xf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1000x1030xf16, #gpu.address_space<global>>
          %assume_align_5 = memref.assume_alignment %2, 64 : memref<1000x1030xf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<1000x1030xf16, #gpu.address_space<global>> to memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<200x1000xf32, #gpu.address_space<global>>
          %assume_align_6 = memref.assume_alignment %4, 64 : memref<200x1000xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_6 resetOffset : memref<200x1000xf32, #gpu.address_space<global>> to memref<200x1000xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c16_i32 : i32
          %8 = arith.remui %6, %c16_i32 : i32
          %9 = arith.muli %7, %c4_i32 overflow<nsw> : i32
          %10 = arith.divui %6, %c2_i32 : i32
          %11 = arith.index_castui %10 : i32 to index
          %12 = arith.remui %6, %c2_i32 : i32
          %13 = arith.muli %7, %c8_i32 overflow<nsw> : i32
          %14 = arith.divui %6, %c4_i32 : i32
          %15 = arith.remui %6, %c4_i32 : i32
          %16 = arith.addi %6, %c64_i32 overflow<nsw> : i32
          %17 = arith.divui %16, %c4_i32 : i32
          %18 = arith.remui %16, %c4_i32 : i32
          %19 = arith.addi %6, %c128_i32 overflow<nsw> : i32
          %20 = arith.divui %19, %c4_i32 : i32
          %21 = arith.remui %19, %c4_i32 : i32
          %22 = arith.addi %6, %c192_i32 overflow<nsw> : i32
          %23 = arith.divui %22, %c4_i32 : i32
          %24 = arith.remui %22, %c4_i32 : i32
          %25 = arith.addi %6, %c256_i32 overflow<nsw> : i32
          %26 = arith.divui %25, %c4_i32 : i32
          %27 = arith.remui %25, %c4_i32 : i32
          %28 = arith.addi %6, %c320_i32 overflow<nsw> : i32
          %29 = arith.divui %28, %c4_i32 : i32
          %30 = arith.remui %28, %c4_i32 : i32
          %31 = arith.addi %6, %c384_i32 overflow<nsw> : i32
          %32 = arith.divui %31, %c4_i32 : i32
          %33 = arith.remui %31, %c4_i32 : i32
          %34 = arith.addi %6, %c448_i32 overflow<nsw> : i32
          %35 = arith.divui %34, %c4_i32 : i32
          %36 = arith.remui %34, %c4_i32 : i32
          %37 = gpu.lane_id upper_bound 64
          %38 = arith.index_castui %37 : index to i32
          %39 = arith.remui %38, %c16_i32 : i32
          %40 = arith.divui %39, %c4_i32 : i32
          %41 = arith.subi %8, %39 : i32
          %42 = arith.remui %39, %c4_i32 : i32
          %43 = arith.muli %42, %c4_i32 : i32
          %44 = arith.addi %41, %43 : i32
          %45 = arith.index_cast %44 : i32 to index
          %46 = arith.addi %13, %40 : i32
          %47 = arith.index_castui %46 : i32 to index
          %48 = arith.addi %40, %c4_i32 : i32
          %49 = arith.addi %13, %48 : i32
          %50 = arith.index_castui %49 : i32 to index
          %51 = arith.muli %12, %c8_i32 overflow<nsw> : i32
          %52 = arith.index_castui %51 : i32 to index
          %53 = arith.muli %15, %c8_i32 overflow<nsw> : i32
          %54 = arith.muli %18, %c8_i32 overflow<nsw> : i32
          %55 = arith.muli %21, %c8_i32 overflow<nsw> : i32
          %56 = arith.muli %24, %c8_i32 overflow<nsw> : i32
          %57 = arith.muli %27, %c8_i32 overflow<nsw> : i32
          %58 = arith.muli %30, %c8_i32 overflow<nsw> : i32
          %59 = arith.muli %33, %c8_i32 overflow<nsw> : i32
          %60 = arith.muli %36, %c8_i32 overflow<nsw> : i32
          %collapse_shape = memref.collapse_shape %5 [[0, 1]] : memref<200x1000xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<200000xf32, #amdgpu.address_space<fat_raw_buffer>>
          %61 = vector.step : vector<8xindex>
          %62 = vector.broadcast %9 : i32 to vector<1xi32>
          %63 = vector.extract %61[0] : index from vector<8xindex>
          %64 = vector.broadcast %63 : index to vector<1xindex>
          %65 = vector.extract %61[1] : index from vector<8xindex>
          %66 = vector.broadcast %65 : index to vector<1xindex>
          %67 = vector.extract %61[2] : index from vector<8xindex>
          %68 = vector.broadcast %67 : index to vector<1xindex>
          %69 = vector.extract %61[3] : index from vector<8xindex>
          %70 = vector.broadcast %69 : index to vector<1xindex>
          %71 = vector.extract %61[4] : index from vector<8xindex>
          %72 = vector.broadcast %71 : index to vector<1xindex>
          %73 = vector.extract %61[5] : index from vector<8xindex>
          %74 = vector.broadcast %73 : index to vector<1xindex>
          %75 = vector.extract %61[6] : index from vector<8xindex>
          %76 = vector.broadcast %75 : index to vector<1xindex>
          %77 = vector.extract %61[7] : index from vector<8xindex>
          %78 = vector.broadcast %77 : index to vector<1xindex>
          %79 = arith.index_castui %64 : vector<1xindex> to vector<1xi32>
          %80 = arith.muli %79, %cst_0 overflow<nsw> : vector<1xi32>
          %81 = arith.index_castui %66 : vector<1xindex> to vector<1xi32>
          %82 = arith.muli %81, %cst_0 overflow<nsw> : vector<1xi32>
          %83 = arith.index_castui %68 : vector<1xindex> to vector<1xi32>
          %84 = arith.muli %83, %cst_0 overflow<nsw> : vector<1xi32>
          %85 = arith.index_castui %70 : vector<1xindex> to vector<1xi32>
          %86 = arith.muli %85, %cst_0 overflow<nsw> : vector<1xi32>
          %87 = arith.index_castui %72 : vector<1xindex> to vector<1xi32>
          %88 = arith.muli %87, %cst_0 overflow<nsw> : vector<1xi32>
          %89 = arith.index_castui %74 : vector<1xindex> to vector<1xi32>
          %90 = arith.muli %89, %cst_0 overflow<nsw> : vector<1xi32>
          %91 = arith.index_castui %76 : vector<1xindex> to vector<1xi32>
          %92 = arith.muli %91, %cst_0 overflow<nsw> : vector<1xi32>
          %93 = arith.index_castui %78 : vector<1xindex> to vector<1xi32>
          %94 = arith.muli %93, %cst_0 overflow<nsw> : vector<1xi32>
          %95 = vector.broadcast %8 : i32 to vector<1xi32>
          %96 = arith.addi %80, %95 overflow<nsw> : vector<1xi32>
          %97 = arith.addi %82, %95 overflow<nsw> : vector<1xi32>
          %98 = arith.addi %84, %95 overflow<nsw> : vector<1xi32>
          %99 = arith.addi %86, %95 overflow<nsw> : vector<1xi32>
          %100 = arith.addi %88, %95 overflow<nsw> : vector<1xi32>
          %101 = arith.addi %90, %95 overflow<nsw> : vector<1xi32>
          %102 = arith.addi %92, %95 overflow<nsw> : vector<1xi32>
          %103 = arith.addi %94, %95 overflow<nsw> : vector<1xi32>
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 104 : index
          %104 = arith.index_castui %workgroup_id_x : index to i32
          %105 = arith.divui %104, %c8_i32 : i32
          %106 = arith.remui %104, %c8_i32 : i32
          %107 = arith.muli %106, %c128_i32 overflow<nsw> : i32
          %108 = arith.muli %105, %c16_i32 overflow<nsw> : i32
          %109 = arith.muli %105, %c-16_i32 overflow<nsw> : i32
          %110 = arith.addi %109, %c200_i32 : i32
          %111 = arith.minui %110, %c16_i32 : i32
          %112 = arith.muli %106, %c-128_i32 overflow<nsw> : i32
          %113 = arith.addi %112, %c1000_i32 : i32
          %114 = arith.minui %113, %c128_i32 : i32
          %115 = arith.minui %111, %c16_i32 : i32
          %116 = arith.minui %114, %c128_i32 : i32
          %117 = arith.minui %115, %51 : i32
          %118 = arith.subi %115, %117 : i32
          %119 = arith.minui %118, %c8_i32 : i32
          %120 = arith.cmpi eq, %119, %c8_i32 : i32
          %121 = arith.minui %116, %14 : i32
          %122 = arith.minui %116, %17 : i32
          %123 = arith.minui %116, %20 : i32
          %124 = arith.minui %116, %23 : i32
          %125 = arith.minui %116, %26 : i32
          %126 = arith.minui %116, %29 : i32
          %127 = arith.minui %116, %32 : i32
          %128 = arith.subi %116, %127 : i32
          %129 = arith.minsi %128, %c1_i32 : i32
          %130 = arith.minui %116, %35 : i32
          %131 = arith.subi %116, %130 : i32
          %132 = arith.minsi %131, %c1_i32 : i32
          %133 = arith.addi %117, %108 : i32
          %134 = arith.index_castui %133 : i32 to index
          %135 = arith.addi %121, %107 : i32
          %136 = arith.index_castui %135 : i32 to index
          %137 = arith.addi %122, %107 : i32
          %138 = arith.index_castui %137 : i32 to index
          %139 = arith.addi %123, %107 : i32
          %140 = arith.index_castui %139 : i32 to index
          %141 = arith.addi %124, %107 : i32
          %142 = arith.index_castui %141 : i32 to index
          %143 = arith.addi %125, %107 : i32
          %144 = arith.index_castui %143 : i32 to index
          %145 = arith.addi %126, %107 : i32
          %146 = arith.index_castui %145 : i32 to index
          %147 = arith.addi %127, %107 : i32
          %148 = arith.index_castui %147 : i32 to index
          %149 = arith.addi %130, %107 : i32
          %150 = arith.index_castui %149 : i32 to index
          %151 = arith.muli %14, %c32_i32 overflow<nsw> : i32
          %152 = arith.addi %151, %53 overflow<nsw> : i32
          %153 = arith.remui %152, %c64_i32 : i32
          %154 = arith.divui %153, %c8_i32 : i32
          %155 = arith.divui %152, %c64_i32 : i32
          %156 = arith.xori %155, %154 : i32
          %157 = arith.muli %155, %c64_i32 overflow<nsw> : i32
          %158 = arith.muli %156, %c8_i32 overflow<nsw> : i32
          %159 = arith.addi %157, %158 : i32
          %160 = arith.index_castui %159 : i32 to index
          %161 = arith.muli %17, %c32_i32 overflow<nsw> : i32
          %162 = arith.addi %161, %54 overflow<nsw> : i32
          %163 = arith.remui %162, %c64_i32 : i32
          %164 = arith.divui %163, %c8_i32 : i32
          %165 = arith.divui %162, %c64_i32 : i32
          %166 = arith.remui %165, %c8_i32 : i32
          %167 = arith.xori %166, %164 : i32
          %168 = arith.muli %165, %c64_i32 overflow<nsw> : i32
          %169 = arith.muli %167, %c8_i32 overflow<nsw> : i32
          %170 = arith.addi %168, %169 : i32
          %171 = arith.index_castui %170 : i32 to index
          %172 = arith.muli %20, %c32_i32 overflow<nsw> : i32
          %173 = arith.addi %172, %55 overflow<nsw> : i32
          %174 = arith.remui %173, %c64_i32 : i32
          %175 = arith.divui %174, %c8_i32 : i32
          %176 = arith.divui %173, %c64_i32 : i32
          %177 = arith.remui %176, %c8_i32 : i32
          %178 = arith.xori %177, %175 : i32
          %179 = arith.muli %176, %c64_i32 overflow<nsw> : i32
          %180 = arith.muli %178, %c8_i32 overflow<nsw> : i32
          %181 = arith.addi %179, %180 : i32
          %182 = arith.index_castui %181 : i32 to index
          %183 = arith.muli %23, %c32_i32 overflow<nsw> : i32
          %184 = arith.addi %183, %56 overflow<nsw> : i32
          %185 = arith.remui %184, %c64_i32 : i32
          %186 = arith.divui %185, %c8_i32 : i32
          %187 = arith.divui %184, %c64_i32 : i32
          %188 = arith.remui %187, %c8_i32 : i32
          %189 = arith.xori %188, %186 : i32
          %190 = arith.muli %187, %c64_i32 overflow<nsw> : i32
          %191 = arith.muli %189, %c8_i32 overflow<nsw> : i32
          %192 = arith.addi %190, %191 : i32
          %193 = arith.index_castui %192 : i32 to index
          %194 = arith.muli %26, %c32_i32 overflow<nsw> : i32
          %195 = arith.addi %194, %57 overflow<nsw> : i32
          %196 = arith.remui %195, %c64_i32 : i32
          %197 = arith.divui %196, %c8_i32 : i32
          %198 = arith.divui %195, %c64_i32 : i32
          %199 = arith.remui %198, %c8_i32 : i32
          %200 = arith.xori %199, %197 : i32
          %201 = arith.muli %198, %c64_i32 overflow<nsw> : i32
          %202 = arith.muli %200, %c8_i32 overflow<nsw> : i32
          %203 = arith.addi %201, %202 : i32
          %204 = arith.index_castui %203 : i32 to index
          %205 = arith.muli %29, %c32_i32 overflow<nsw> : i32
          %206 = arith.addi %205, %58 overflow<nsw> : i32
          %207 = arith.remui %206, %c64_i32 : i32
          %208 = arith.divui %207, %c8_i32 : i32
          %209 = arith.divui %206, %c64_i32 : i32
          %210 = arith.remui %209, %c8_i32 : i32
          %211 = arith.xori %210, %208 : i32
          %212 = arith.muli %209, %c64_i32 overflow<nsw> : i32
          %213 = arith.muli %211, %c8_i32 overflow<nsw> : i32
          %214 = arith.addi %212, %213 : i32
          %215 = arith.index_castui %214 : i32 to index
          %216 = arith.cmpi sgt, %129, %c0_i32 : i32
          %217 = arith.muli %32, %c32_i32 overflow<nsw> : i32
          %218 = arith.addi %217, %59 overflow<nsw> : i32
          %219 = arith.remui %218, %c64_i32 : i32
          %220 = arith.divui %219, %c8_i32 : i32
          %221 = arith.divui %218, %c64_i32 : i32
          %222 = arith.remui %221, %c8_i32 : i32
          %223 = arith.xori %222, %220 : i32
          %224 = arith.muli %221, %c64_i32 overflow<nsw> : i32
          %225 = arith.muli %223, %c8_i32 overflow<nsw> : i32
          %226 = arith.addi %224, %225 : i32
          %227 = arith.index_castui %226 : i32 to index
          %228 = arith.cmpi sgt, %132, %c0_i32 : i32
          %229 = arith.muli %35, %c32_i32 overflow<nsw> : i32
          %230 = arith.addi %229, %60 overflow<nsw> : i32
          %231 = arith.remui %230, %c64_i32 : i32
          %232 = arith.divui %231, %c8_i32 : i32
          %233 = arith.divui %230, %c64_i32 : i32
          %234 = arith.remui %233, %c8_i32 : i32
          %235 = arith.xori %234, %232 : i32
          %236 = arith.muli %233, %c64_i32 overflow<nsw> : i32
          %237 = arith.muli %235, %c8_i32 overflow<nsw> : i32
          %238 = arith.addi %236, %237 : i32
          %239 = arith.index_castui %238 : i32 to index
          %240 = arith.muli %8, %c32_i32 overflow<nsw> : i32
          %241 = arith.addi %240, %13 overflow<nsw> : i32
          %242 = arith.remui %241, %c64_i32 : i32
          %243 = arith.divui %242, %c8_i32 : i32
          %244 = arith.divui %241, %c64_i32 : i32
          %245 = arith.xori %244, %243 : i32
          %246 = arith.muli %244, %c64_i32 overflow<nsw> : i32
          %247 = arith.muli %245, %c8_i32 overflow<nsw> : i32
          %248 = arith.addi %246, %247 : i32
          %249 = arith.subi %248, %241 : i32
          %250 = arith.index_castui %248 : i32 to index
          %251 = arith.addi %241, %c512_i32 overflow<nsw> : i32
          %252 = arith.addi %251, %249 : i32
          %253 = arith.index_castui %252 : i32 to index
          %254 = arith.addi %241, %c1024_i32 overflow<nsw> : i32
          %255 = arith.addi %254, %249 : i32
          %256 = arith.index_castui %255 : i32 to index
          %257 = arith.addi %241, %c1536_i32 overflow<nsw> : i32
          %258 = arith.addi %257, %249 : i32
          %259 = arith.index_castui %258 : i32 to index
          %260 = arith.addi %241, %c2048_i32 overflow<nsw> : i32
          %261 = arith.addi %260, %249 : i32
          %262 = arith.index_castui %261 : i32 to index
          %263 = arith.addi %241, %c2560_i32 overflow<nsw> : i32
          %264 = arith.addi %263, %249 : i32
          %265 = arith.index_castui %264 : i32 to index
          %266 = arith.addi %241, %c3072_i32 overflow<nsw> : i32
          %267 = arith.addi %266, %249 : i32
          %268 = arith.index_castui %267 : i32 to index
          %269 = arith.addi %241, %c3584_i32 overflow<nsw> : i32
          %270 = arith.addi %269, %249 : i32
          %271 = arith.index_castui %270 : i32 to index
          %272:8 = scf.for %arg0 = %c0_i32 to %c33_i32 step %c1_i32 iter_args(%arg1 = %cst_3, %arg2 = %cst_3, %arg3 = %cst_3, %arg4 = %cst_3, %arg5 = %cst_3, %arg6 = %cst_3, %arg7 = %cst_3, %arg8 = %cst_3) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
            %293 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %294 = arith.minui %293, %c1030_i32 : i32
            %295 = arith.subi %c1030_i32, %294 : i32
            %296 = arith.minui %295, %c32_i32 : i32
            %297 = arith.minui %296, %10 : i32
            %298 = arith.subi %296, %297 : i32
            %299 = arith.minsi %298, %c1_i32 : i32
            %300 = arith.index_cast %299 : i32 to index
            %301 = arith.index_castui %300 : index to i1
            %302 = arith.andi %301, %120 : i1
            %303 = arith.addi %297, %294 : i32
            %304 = arith.index_castui %303 : i32 to index
            %305 = vector.load %1[%304, %134] : memref<1030x200xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
            %306 = arith.select %302, %305, %cst_2 : vector<8xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %306, %alloc_4[%11, %52] : memref<32x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %307 = arith.minui %296, %53 : i32
            %308 = arith.subi %296, %307 : i32
            %309 = arith.minsi %308, %c8_i32 : i32
            %310 = arith.index_cast %309 : i32 to index
            %311 = vector.create_mask %310 : vector<8xi1>
            %312 = arith.addi %307, %294 : i32
            %313 = arith.index_castui %312 : i32 to index
            %314 = affine.apply #map()[%136, %313]
            %315 = arith.subi %c1030000, %314 : index
            %316 = arith.cmpi ult, %315, %c8 : index
            %317 = arith.remui %315, %c2 : index
            %318 = arith.cmpi ne, %317, %c0 : index
            %319 = arith.andi %316, %318 : i1
            %320 = scf.if %319 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%136, %313], %311, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%136, %313] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %311, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %320, %alloc[%160] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %321 = arith.minui %296, %54 : i32
            %322 = arith.subi %296, %321 : i32
            %323 = arith.minsi %322, %c8_i32 : i32
            %324 = arith.index_cast %323 : i32 to index
            %325 = vector.create_mask %324 : vector<8xi1>
            %326 = arith.addi %321, %294 : i32
            %327 = arith.index_castui %326 : i32 to index
            %328 = affine.apply #map()[%138, %327]
            %329 = arith.subi %c1030000, %328 : index
            %330 = arith.cmpi ult, %329, %c8 : index
            %331 = arith.remui %329, %c2 : index
            %332 = arith.cmpi ne, %331, %c0 : index
            %333 = arith.andi %330, %332 : i1
            %334 = scf.if %333 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%138, %327], %325, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%138, %327] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %325, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %334, %alloc[%171] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %335 = arith.minui %296, %55 : i32
            %336 = arith.subi %296, %335 : i32
            %337 = arith.minsi %336, %c8_i32 : i32
            %338 = arith.index_cast %337 : i32 to index
            %339 = vector.create_mask %338 : vector<8xi1>
            %340 = arith.addi %335, %294 : i32
            %341 = arith.index_castui %340 : i32 to index
            %342 = affine.apply #map()[%140, %341]
            %343 = arith.subi %c1030000, %342 : index
            %344 = arith.cmpi ult, %343, %c8 : index
            %345 = arith.remui %343, %c2 : index
            %346 = arith.cmpi ne, %345, %c0 : index
            %347 = arith.andi %344, %346 : i1
            %348 = scf.if %347 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%140, %341], %339, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%140, %341] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %339, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %348, %alloc[%182] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %349 = arith.minui %296, %56 : i32
            %350 = arith.subi %296, %349 : i32
            %351 = arith.minsi %350, %c8_i32 : i32
            %352 = arith.index_cast %351 : i32 to index
            %353 = vector.create_mask %352 : vector<8xi1>
            %354 = arith.addi %349, %294 : i32
            %355 = arith.index_castui %354 : i32 to index
            %356 = affine.apply #map()[%142, %355]
            %357 = arith.subi %c1030000, %356 : index
            %358 = arith.cmpi ult, %357, %c8 : index
            %359 = arith.remui %357, %c2 : index
            %360 = arith.cmpi ne, %359, %c0 : index
            %361 = arith.andi %358, %360 : i1
            %362 = scf.if %361 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%142, %355], %353, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%142, %355] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %353, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %362, %alloc[%193] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %363 = arith.minui %296, %57 : i32
            %364 = arith.subi %296, %363 : i32
            %365 = arith.minsi %364, %c8_i32 : i32
            %366 = arith.index_cast %365 : i32 to index
            %367 = vector.create_mask %366 : vector<8xi1>
            %368 = arith.addi %363, %294 : i32
            %369 = arith.index_castui %368 : i32 to index
            %370 = affine.apply #map()[%144, %369]
            %371 = arith.subi %c1030000, %370 : index
            %372 = arith.cmpi ult, %371, %c8 : index
            %373 = arith.remui %371, %c2 : index
            %374 = arith.cmpi ne, %373, %c0 : index
            %375 = arith.andi %372, %374 : i1
            %376 = scf.if %375 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%144, %369], %367, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%144, %369] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %367, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %376, %alloc[%204] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %377 = arith.minui %296, %58 : i32
            %378 = arith.subi %296, %377 : i32
            %379 = arith.minsi %378, %c8_i32 : i32
            %380 = arith.index_cast %379 : i32 to index
            %381 = vector.create_mask %380 : vector<8xi1>
            %382 = arith.addi %377, %294 : i32
            %383 = arith.index_castui %382 : i32 to index
            %384 = affine.apply #map()[%146, %383]
            %385 = arith.subi %c1030000, %384 : index
            %386 = arith.cmpi ult, %385, %c8 : index
            %387 = arith.remui %385, %c2 : index
            %388 = arith.cmpi ne, %387, %c0 : index
            %389 = arith.andi %386, %388 : i1
            %390 = scf.if %389 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%146, %383], %381, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%146, %383] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %381, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %390, %alloc[%215] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %391 = arith.minui %296, %59 : i32
            %392 = arith.subi %296, %391 : i32
            %393 = arith.minsi %392, %c8_i32 : i32
            %394 = arith.index_cast %393 : i32 to index
            %395 = vector.create_mask %394 : vector<8xi1>
            %396 = arith.select %216, %395, %cst_1 : vector<8xi1>
            %397 = arith.addi %391, %294 : i32
            %398 = arith.index_castui %397 : i32 to index
            %399 = affine.apply #map()[%148, %398]
            %400 = arith.subi %c1030000, %399 : index
            %401 = arith.cmpi ult, %400, %c8 : index
            %402 = arith.remui %400, %c2 : index
            %403 = arith.cmpi ne, %402, %c0 : index
            %404 = arith.andi %401, %403 : i1
            %405 = scf.if %404 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%148, %398], %396, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%148, %398] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %396, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %405, %alloc[%227] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %406 = arith.minui %296, %60 : i32
            %407 = arith.subi %296, %406 : i32
            %408 = arith.minsi %407, %c8_i32 : i32
            %409 = arith.index_cast %408 : i32 to index
            %410 = vector.create_mask %409 : vector<8xi1>
            %411 = arith.select %228, %410, %cst_1 : vector<8xi1>
            %412 = arith.addi %406, %294 : i32
            %413 = arith.index_castui %412 : i32 to index
            %414 = affine.apply #map()[%150, %413]
            %415 = arith.subi %c1030000, %414 : index
            %416 = arith.cmpi ult, %415, %c8 : index
            %417 = arith.remui %415, %c2 : index
            %418 = arith.cmpi ne, %417, %c0 : index
            %419 = arith.andi %416, %418 : i1
            %420 = scf.if %419 -> (vector<8xf16>) {
              %441 = vector.maskedload %3[%150, %413], %411, %cst_2 {amdgpu.buffer_maskedload_needs_mask} : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %441 : vector<8xf16>
            } else {
              %441 = vector.load %3[%150, %413] : memref<1000x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %442 = arith.select %411, %441, %cst_2 : vector<8xi1>, vector<8xf16>
              scf.yield %442 : vector<8xf16>
            }
            vector.store %420, %alloc[%239] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %421 = amdgpu.transpose_load %alloc_4[%47, %45] : memref<32x16xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %422 = amdgpu.transpose_load %alloc_4[%50, %45] : memref<32x16xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %423 = vector.insert_strided_slice %421, %cst_2 offsets = [0], strides = [1] : vector<4xf16> into vector<8xf16>
            %424 = vector.insert_strided_slice %422, %423 offsets = [4], strides = [1] : vector<4xf16> into vector<8xf16>
            %425 = vector.load %alloc[%250] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %426 = vector.load %alloc[%253] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %427 = vector.load %alloc[%256] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %428 = vector.load %alloc[%259] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %429 = vector.load %alloc[%262] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %430 = vector.load %alloc[%265] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %431 = vector.load %alloc[%268] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %432 = vector.load %alloc[%271] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %433 = amdgpu.mfma 16x16x32 %424 * %425 + %arg8 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %434 = amdgpu.mfma 16x16x32 %424 * %426 + %arg7 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %435 = amdgpu.mfma 16x16x32 %424 * %427 + %arg6 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %436 = amdgpu.mfma 16x16x32 %424 * %428 + %arg5 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %437 = amdgpu.mfma 16x16x32 %424 * %429 + %arg4 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %438 = amdgpu.mfma 16x16x32 %424 * %430 + %arg3 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %439 = amdgpu.mfma 16x16x32 %424 * %431 + %arg2 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %440 = amdgpu.mfma 16x16x32 %424 * %432 + %arg1 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            scf.yield %440, %439, %438, %437, %436, %435, %434, %433 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#7[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c0, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#6[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c1, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#5[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c2, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#4[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c3, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#3[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c4, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#2[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c5, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#1[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c6, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.extract %272#0[%293] : f32 from vector<4xf32>
            memref.store %294, %alloca[%c0, %c7, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>
          }
          %273 = vector.broadcast %114 : i32 to vector<1xi32>
          %274 = arith.cmpi ult, %96, %273 : vector<1xi32>
          %275 = arith.cmpi ult, %97, %273 : vector<1xi32>
          %276 = arith.cmpi ult, %98, %273 : vector<1xi32>
          %277 = arith.cmpi ult, %99, %273 : vector<1xi32>
          %278 = arith.cmpi ult, %100, %273 : vector<1xi32>
          %279 = arith.cmpi ult, %101, %273 : vector<1xi32>
          %280 = arith.cmpi ult, %102, %273 : vector<1xi32>
          %281 = arith.cmpi ult, %103, %273 : vector<1xi32>
          %282 = vector.broadcast %107 : i32 to vector<1xi32>
          %283 = arith.addi %282, %96 : vector<1xi32>
          %284 = arith.addi %282, %97 : vector<1xi32>
          %285 = arith.addi %282, %98 : vector<1xi32>
          %286 = arith.addi %282, %99 : vector<1xi32>
          %287 = arith.addi %282, %100 : vector<1xi32>
          %288 = arith.addi %282, %101 : vector<1xi32>
          %289 = arith.addi %282, %102 : vector<1xi32>
          %290 = arith.addi %282, %103 : vector<1xi32>
          %291 = vector.broadcast %111 : i32 to vector<1xi32>
          %292 = vector.broadcast %108 : i32 to vector<1xi32>
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %293 = arith.index_castui %arg0 : i32 to index
            %294 = vector.load %alloca[%c0, %c0, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %295 = vector.load %alloca[%c0, %c1, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %296 = vector.load %alloca[%c0, %c2, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %297 = vector.load %alloca[%c0, %c3, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %298 = vector.load %alloca[%c0, %c4, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %299 = vector.load %alloca[%c0, %c5, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %300 = vector.load %alloca[%c0, %c6, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %301 = vector.load %alloca[%c0, %c7, %293, %c0] : memref<1x8x4x1xf32, #gpu.address_space<private>>, vector<1xf32>
            %302 = vector.broadcast %arg0 : i32 to vector<1xi32>
            %303 = arith.addi %62, %302 : vector<1xi32>
            %304 = arith.cmpi ult, %303, %291 : vector<1xi32>
            %305 = arith.andi %304, %274 : vector<1xi1>
            %306 = arith.andi %304, %275 : vector<1xi1>
            %307 = arith.andi %304, %276 : vector<1xi1>
            %308 = arith.andi %304, %277 : vector<1xi1>
            %309 = arith.andi %304, %278 : vector<1xi1>
            %310 = arith.andi %304, %279 : vector<1xi1>
            %311 = arith.andi %304, %280 : vector<1xi1>
            %312 = arith.andi %304, %281 : vector<1xi1>
            %313 = arith.addi %292, %303 : vector<1xi32>
            %314 = arith.muli %313, %cst overflow<nsw> : vector<1xi32>
            %315 = arith.addi %314, %283 overflow<nsw> : vector<1xi32>
            %316 = arith.index_castui %315 : vector<1xi32> to vector<1xindex>
            %317 = arith.addi %314, %284 overflow<nsw> : vector<1xi32>
            %318 = arith.index_castui %317 : vector<1xi32> to vector<1xindex>
            %319 = arith.addi %314, %285 overflow<nsw> : vector<1xi32>
            %320 = arith.index_castui %319 : vector<1xi32> to vector<1xindex>
            %321 = arith.addi %314, %286 overflow<nsw> : vector<1xi32>
            %322 = arith.index_castui %321 : vector<1xi32> to vector<1xindex>
            %323 = arith.addi %314, %287 overflow<nsw> : vector<1xi32>
            %324 = arith.index_castui %323 : vector<1xi32> to vector<1xindex>
            %325 = arith.addi %314, %288 overflow<nsw> : vector<1xi32>
            %326 = arith.index_castui %325 : vector<1xi32> to vector<1xindex>
            %327 = arith.addi %314, %289 overflow<nsw> : vector<1xi32>
            %328 = arith.index_castui %327 : vector<1xi32> to vector<1xindex>
            %329 = arith.addi %314, %290 overflow<nsw> : vector<1xi32>
            %330 = arith.index_castui %329 : vector<1xi32> to vector<1xindex>
            %331 = vector.extract %316[0] : index from vector<1xindex>
            %332 = vector.extract %318[0] : index from vector<1xindex>
            %333 = vector.extract %320[0] : index from vector<1xindex>
            %334 = vector.extract %322[0] : index from vector<1xindex>
            %335 = vector.extract %324[0] : index from vector<1xindex>
            %336 = vector.extract %326[0] : index from vector<1xindex>
            %337 = vector.extract %328[0] : index from vector<1xindex>
            %338 = vector.extract %330[0] : index from vector<1xindex>
            %339 = vector.from_elements %331, %332, %333, %334, %335, %336, %337, %338 : vector<8xindex>
            %340 = vector.extract %305[0] : i1 from vector<1xi1>
            %341 = vector.extract %306[0] : i1 from vector<1xi1>
            %342 = vector.extract %307[0] : i1 from vector<1xi1>
            %343 = vector.extract %308[0] : i1 from vector<1xi1>
            %344 = vector.extract %309[0] : i1 from vector<1xi1>
            %345 = vector.extract %310[0] : i1 from vector<1xi1>
            %346 = vector.extract %311[0] : i1 from vector<1xi1>
            %347 = vector.extract %312[0] : i1 from vector<1xi1>
            %348 = vector.from_elements %340, %341, %342, %343, %344, %345, %346, %347 : vector<8xi1>
            %349 = vector.extract %294[0] : f32 from vector<1xf32>
            %350 = vector.extract %295[0] : f32 from vector<1xf32>
            %351 = vector.extract %296[0] : f32 from vector<1xf32>
            %352 = vector.extract %297[0] : f32 from vector<1xf32>
            %353 = vector.extract %298[0] : f32 from vector<1xf32>
            %354 = vector.extract %299[0] : f32 from vector<1xf32>
            %355 = vector.extract %300[0] : f32 from vector<1xf32>
            %356 = vector.extract %301[0] : f32 from vector<1xf32>
            %357 = vector.from_elements %349, %350, %351, %352, %353, %354, %355, %356 : vector<8xf32>
            vector.scatter %collapse_shape[%c0] [%339], %348, %357 : memref<200000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xindex>, vector<8xi1>, vector<8xf32>
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_4 : memref<32x16xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_200x1000x1030_f16xf16xf32 workgroup_size = [64, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c104 = arith.constant 104 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c104, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

