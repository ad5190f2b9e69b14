#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0, s1, s2] -> (s0 * 77674 + s1 * 142 + s2)>
#map1 = affine_map<()[s0, s1, s2] -> (s0 * 25986 + s1 * 183 + s2)>
#map2 = affine_map<()[s0, s1] -> (s0 * 25986 + s1 + 25986)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_batch_matmul_2x547x183x142_i8xi8xi32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_batch_matmul_2x547x183x142_i8xi8xi32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c51972 = arith.constant 51972 : index
          %c4 = arith.constant 4 : index
          %c155348 = arith.constant 155348 : index
          %c-128_i32 = arith.constant -128 : i32
          %cst = arith.constant dense<16> : vector<1xi32>
          %c56_i32 = arith.constant 56 : i32
          %c48_i32 = arith.constant 48 : i32
          %c40_i32 = arith.constant 40 : i32
          %c32_i32 = arith.constant 32 : i32
          %c24_i32 = arith.constant 24 : i32
          %cst_0 = arith.constant dense<100101> : vector<1xi32>
          %c547_i32 = arith.constant 547 : i32
          %c14_i32 = arith.constant 14 : i32
          %c1_i32 = arith.constant 1 : i32
          %c183_i32 = arith.constant 183 : i32
          %c-64_i32 = arith.constant -64 : i32
          %c2_i32 = arith.constant 2 : i32
          %c18_i32 = arith.constant 18 : i32
          %c142 = arith.constant 142 : index
          %c16_i32 = arith.constant 16 : i32
          %c256_i32 = arith.constant 256 : i32
          %c8_i32 = arith.constant 8 : i32
          %c4_i32 = arith.constant 4 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %0 = ub.poison : vector<4xi32>
          %c3 = arith.constant 3 : index
          %cst_1 = arith.constant dense<0> : vector<16xi8>
          %cst_2 = arith.constant dense<183> : vector<1xindex>
          %c2 = arith.constant 2 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %c16 = arith.constant 16 : index
          %cst_3 = arith.constant dense<0> : vector<4xi32>
          %alloc = memref.alloc() : memref<1x64x136xi8, #gpu.address_space<workgroup>>
          %alloc_4 = memref.alloc() : memref<1x64x72xi8, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x547x142xi8, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %1, 64 : memref<2x547x142xi8, #gpu.address_space<global>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2x547x142xi8, #gpu.address_space<global>> to memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x142x183xi8, #gpu.address_space<global>>
          %assume_align_5 = memref.assume_alignment %3, 64 : memref<2x142x183xi8, #gpu.address_space<global>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<2x142x183xi8, #gpu.address_space<global>> to memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2x547x183xi32, #gpu.address_space<global>>
          %assume_align_6 = memref.assume_alignment %5, 64 : memref<2x547x183xi32, #gpu.address_space<global>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_6 resetOffset : memref<2x547x183xi32, #gpu.address_space<global>> to memref<2x547x183xi32, #amdgpu.address_space<fat_raw_buffer>>
          %7 = arith.index_castui %thread_id_x : index to i32
          %8 = arith.divui %7, %c128_i32 : i32
          %9 = arith.remui %7, %c128_i32 : i32
          %10 = arith.divui %9, %c64_i32 : i32
          %11 = arith.remui %7, %c64_i32 : i32
          %12 = arith.divui %11, %c16_i32 : i32
          %13 = arith.remui %11, %c16_i32 : i32
          %14 = arith.muli %12, %c4_i32 overflow<nsw> : i32
          %15 = arith.divui %7, %c4_i32 : i32
          %16 = arith.index_castui %15 : i32 to index
          %17 = arith.remui %7, %c4_i32 : i32
          %18 = arith.muli %10, %c4_i32 overflow<nsw> : i32
          %19 = arith.muli %12, %c16_i32 overflow<nsw> : i32
          %20 = arith.index_castui %19 : i32 to index
          %21 = arith.divui %7, %c8_i32 : i32
          %22 = arith.index_castui %21 : i32 to index
          %23 = arith.remui %7, %c8_i32 : i32
          %24 = arith.addi %7, %c256_i32 overflow<nsw> : i32
          %25 = arith.divui %24, %c8_i32 : i32
          %26 = arith.index_castui %25 : i32 to index
          %27 = arith.remui %24, %c8_i32 : i32
          %28 = gpu.lane_id upper_bound 64
          %29 = arith.index_castui %28 : index to i32
          %30 = arith.remui %29, %c16_i32 : i32
          %31 = arith.divui %30, %c2_i32 : i32
          %32 = arith.subi %13, %30 : i32
          %33 = arith.remui %30, %c2_i32 : i32
          %34 = arith.muli %33, %c8_i32 : i32
          %35 = arith.addi %32, %34 : i32
          %36 = arith.divui %31, %c4_i32 : i32
          %37 = arith.remui %31, %c4_i32 : i32
          %38 = arith.addi %19, %36 : i32
          %39 = arith.index_castui %38 : i32 to index
          %40 = arith.addi %18, %37 : i32
          %41 = arith.addi %31, %c8_i32 : i32
          %42 = arith.divui %41, %c4_i32 : i32
          %43 = arith.remui %41, %c4_i32 : i32
          %44 = arith.addi %19, %42 : i32
          %45 = arith.index_castui %44 : i32 to index
          %46 = arith.addi %18, %43 : i32
          %47 = arith.addi %31, %c16_i32 : i32
          %48 = arith.divui %47, %c4_i32 : i32
          %49 = arith.remui %47, %c4_i32 : i32
          %50 = arith.addi %19, %48 : i32
          %51 = arith.index_castui %50 : i32 to index
          %52 = arith.addi %18, %49 : i32
          %53 = arith.addi %31, %c24_i32 : i32
          %54 = arith.divui %53, %c4_i32 : i32
          %55 = arith.remui %53, %c4_i32 : i32
          %56 = arith.addi %19, %54 : i32
          %57 = arith.index_castui %56 : i32 to index
          %58 = arith.addi %18, %55 : i32
          %59 = arith.addi %31, %c32_i32 : i32
          %60 = arith.divui %59, %c4_i32 : i32
          %61 = arith.remui %59, %c4_i32 : i32
          %62 = arith.addi %19, %60 : i32
          %63 = arith.index_castui %62 : i32 to index
          %64 = arith.addi %18, %61 : i32
          %65 = arith.addi %31, %c40_i32 : i32
          %66 = arith.divui %65, %c4_i32 : i32
          %67 = arith.remui %65, %c4_i32 : i32
          %68 = arith.addi %19, %66 : i32
          %69 = arith.index_castui %68 : i32 to index
          %70 = arith.addi %18, %67 : i32
          %71 = arith.addi %31, %c48_i32 : i32
          %72 = arith.divui %71, %c4_i32 : i32
          %73 = arith.remui %71, %c4_i32 : i32
          %74 = arith.addi %19, %72 : i32
          %75 = arith.index_castui %74 : i32 to index
          %76 = arith.addi %18, %73 : i32
          %77 = arith.addi %31, %c56_i32 : i32
          %78 = arith.divui %77, %c4_i32 : i32
          %79 = arith.remui %77, %c4_i32 : i32
          %80 = arith.addi %19, %78 : i32
          %81 = arith.index_castui %80 : i32 to index
          %82 = arith.addi %18, %79 : i32
          %83 = arith.muli %17, %c16_i32 overflow<nsw> : i32
          %84 = arith.minui %83, %c64_i32 : i32
          %85 = arith.index_castui %84 : i32 to index
          %86 = arith.minui %21, %c64_i32 : i32
          %87 = arith.index_castui %86 : i32 to index
          %88 = arith.minui %25, %c64_i32 : i32
          %89 = arith.index_castui %88 : i32 to index
          %90 = arith.index_castui %83 : i32 to index
          %91 = arith.muli %23, %c16_i32 overflow<nsw> : i32
          %92 = arith.index_castui %91 : i32 to index
          %93 = arith.muli %27, %c16_i32 overflow<nsw> : i32
          %94 = arith.index_castui %93 : i32 to index
          %95 = arith.addi %84, %c64_i32 overflow<nsw> : i32
          %96 = arith.index_castui %95 : i32 to index
          %97 = arith.addi %86, %c64_i32 overflow<nsw> : i32
          %98 = arith.index_castui %97 : i32 to index
          %99 = arith.addi %88, %c64_i32 overflow<nsw> : i32
          %100 = arith.index_castui %99 : i32 to index
          %101 = arith.muli %40, %c16_i32 overflow<nsw> : i32
          %102 = arith.addi %101, %35 overflow<nsw> : i32
          %103 = arith.index_cast %102 : i32 to index
          %104 = arith.muli %46, %c16_i32 overflow<nsw> : i32
          %105 = arith.addi %104, %35 overflow<nsw> : i32
          %106 = arith.index_cast %105 : i32 to index
          %107 = arith.muli %52, %c16_i32 overflow<nsw> : i32
          %108 = arith.addi %107, %35 overflow<nsw> : i32
          %109 = arith.index_cast %108 : i32 to index
          %110 = arith.muli %58, %c16_i32 overflow<nsw> : i32
          %111 = arith.addi %110, %35 overflow<nsw> : i32
          %112 = arith.index_cast %111 : i32 to index
          %113 = arith.muli %64, %c16_i32 overflow<nsw> : i32
          %114 = arith.addi %113, %35 overflow<nsw> : i32
          %115 = arith.index_cast %114 : i32 to index
          %116 = arith.muli %70, %c16_i32 overflow<nsw> : i32
          %117 = arith.addi %116, %35 overflow<nsw> : i32
          %118 = arith.index_cast %117 : i32 to index
          %119 = arith.muli %76, %c16_i32 overflow<nsw> : i32
          %120 = arith.addi %119, %35 overflow<nsw> : i32
          %121 = arith.index_cast %120 : i32 to index
          %122 = arith.muli %82, %c16_i32 overflow<nsw> : i32
          %123 = arith.addi %122, %35 overflow<nsw> : i32
          %124 = arith.index_cast %123 : i32 to index
          %125 = arith.minui %83, %c14_i32 : i32
          %126 = arith.subi %c14_i32, %125 : i32
          %127 = arith.minui %126, %c16_i32 : i32
          %128 = arith.index_castui %127 : i32 to index
          %129 = arith.addi %125, %c128_i32 overflow<nsw> : i32
          %130 = arith.index_castui %129 : i32 to index
          %131 = arith.minui %21, %c14_i32 : i32
          %132 = arith.addi %131, %c128_i32 overflow<nsw> : i32
          %133 = arith.index_castui %132 : i32 to index
          %collapse_shape = memref.collapse_shape %6 [[0, 1, 2]] : memref<2x547x183xi32, #amdgpu.address_space<fat_raw_buffer>> into memref<200202xi32, #amdgpu.address_space<fat_raw_buffer>>
          %134 = vector.step : vector<4xindex>
          %135:4 = vector.to_elements %134 : vector<4xindex>
          %136 = vector.broadcast %135#0 : index to vector<1xindex>
          %137 = vector.broadcast %135#1 : index to vector<1xindex>
          %138 = vector.broadcast %135#2 : index to vector<1xindex>
          %139 = vector.broadcast %135#3 : index to vector<1xindex>
          %140 = arith.muli %8, %c2_i32 overflow<nsw> : i32
          %141 = vector.broadcast %140 : i32 to vector<1xi32>
          %142 = vector.broadcast %14 : i32 to vector<1xi32>
          %143 = arith.index_castui %142 : vector<1xi32> to vector<1xindex>
          %144 = arith.addi %136, %143 : vector<1xindex>
          %145 = arith.addi %137, %143 : vector<1xindex>
          %146 = arith.addi %138, %143 : vector<1xindex>
          %147 = arith.addi %139, %143 : vector<1xindex>
          %148 = vector.extract %134[0] : index from vector<4xindex>
          %149 = vector.broadcast %148 : index to vector<1xindex>
          %150 = vector.extract %134[1] : index from vector<4xindex>
          %151 = vector.broadcast %150 : index to vector<1xindex>
          %152 = vector.extract %134[2] : index from vector<4xindex>
          %153 = vector.broadcast %152 : index to vector<1xindex>
          %154 = vector.extract %134[3] : index from vector<4xindex>
          %155 = vector.broadcast %154 : index to vector<1xindex>
          %156 = vector.broadcast %18 : i32 to vector<1xi32>
          %157 = arith.index_castui %149 : vector<1xindex> to vector<1xi32>
          %158 = arith.addi %157, %156 : vector<1xi32>
          %159 = arith.index_castui %151 : vector<1xindex> to vector<1xi32>
          %160 = arith.addi %159, %156 : vector<1xi32>
          %161 = arith.index_castui %153 : vector<1xindex> to vector<1xi32>
          %162 = arith.addi %161, %156 : vector<1xi32>
          %163 = arith.index_castui %155 : vector<1xindex> to vector<1xi32>
          %164 = arith.addi %163, %156 : vector<1xi32>
          %165 = arith.muli %158, %cst overflow<nsw> : vector<1xi32>
          %166 = arith.muli %160, %cst overflow<nsw> : vector<1xi32>
          %167 = arith.muli %162, %cst overflow<nsw> : vector<1xi32>
          %168 = arith.muli %164, %cst overflow<nsw> : vector<1xi32>
          %169 = vector.broadcast %13 : i32 to vector<1xi32>
          %170 = arith.addi %165, %169 overflow<nsw> : vector<1xi32>
          %171 = arith.addi %166, %169 overflow<nsw> : vector<1xi32>
          %172 = arith.addi %167, %169 overflow<nsw> : vector<1xi32>
          %173 = arith.addi %168, %169 overflow<nsw> : vector<1xi32>
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 36 : index
          %174 = arith.index_castui %workgroup_id_x : index to i32
          %175 = arith.divui %174, %c18_i32 : i32
          %176 = arith.index_castui %175 : i32 to index
          %177 = arith.remui %174, %c18_i32 : i32
          %178 = arith.divui %177, %c2_i32 : i32
          %179 = arith.remui %174, %c2_i32 : i32
          %180 = arith.muli %179, %c128_i32 overflow<nsw> : i32
          %181 = arith.muli %178, %c64_i32 overflow<nsw> : i32
          %182 = arith.muli %178, %c-64_i32 overflow<nsw> : i32
          %183 = arith.addi %182, %c547_i32 : i32
          %184 = arith.minui %183, %c64_i32 : i32
          %185 = arith.muli %179, %c-128_i32 overflow<nsw> : i32
          %186 = arith.addi %185, %c183_i32 : i32
          %187 = arith.minui %186, %c128_i32 : i32
          %188 = arith.minui %187, %c128_i32 : i32
          %189 = arith.minui %184, %c64_i32 : i32
          %190 = arith.minui %189, %15 : i32
          %191 = arith.minui %188, %91 : i32
          %192 = arith.subi %188, %191 : i32
          %193 = arith.minsi %192, %c16_i32 : i32
          %194 = arith.index_cast %193 : i32 to index
          %195 = arith.minui %188, %93 : i32
          %196 = arith.subi %188, %195 : i32
          %197 = arith.minsi %196, %c16_i32 : i32
          %198 = arith.index_cast %197 : i32 to index
          %199 = arith.addi %190, %181 : i32
          %200 = arith.index_castui %199 : i32 to index
          %201 = vector.create_mask %c16 : vector<16xi1>
          %202 = affine.apply #map()[%176, %200, %85]
          %203 = arith.subi %c155348, %202 : index
          %204 = arith.cmpi ult, %203, %c16 : index
          %205 = arith.remui %203, %c4 : index
          %206 = arith.cmpi ne, %205, %c0 : index
          %207 = arith.andi %204, %206 : i1
          %208 = scf.if %207 -> (vector<16xi8>) {
            %556 = vector.maskedload %2[%176, %200, %85], %201, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %2[%176, %200, %85] : memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %201, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          %209 = arith.addi %191, %180 : i32
          %210 = arith.index_castui %209 : i32 to index
          %211 = vector.create_mask %194 : vector<16xi1>
          %212 = affine.apply #map1()[%176, %87, %210]
          %213 = arith.subi %c51972, %212 : index
          %214 = arith.cmpi ult, %213, %c16 : index
          %215 = arith.remui %213, %c4 : index
          %216 = arith.cmpi ne, %215, %c0 : index
          %217 = arith.andi %214, %216 : i1
          %218 = scf.if %217 -> (vector<16xi8>) {
            %556 = vector.maskedload %4[%176, %87, %210], %211, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %4[%176, %87, %210] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %211, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          %219 = arith.addi %195, %180 : i32
          %220 = arith.index_castui %219 : i32 to index
          %221 = vector.create_mask %198 : vector<16xi1>
          %222 = affine.apply #map1()[%176, %89, %220]
          %223 = arith.subi %c51972, %222 : index
          %224 = arith.cmpi ult, %223, %c16 : index
          %225 = arith.remui %223, %c4 : index
          %226 = arith.cmpi ne, %225, %c0 : index
          %227 = arith.andi %224, %226 : i1
          %228 = scf.if %227 -> (vector<16xi8>) {
            %556 = vector.maskedload %4[%176, %89, %220], %221, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %4[%176, %89, %220] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %221, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          vector.store %208, %alloc_4[%c0, %16, %90] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          vector.store %218, %alloc[%c0, %22, %92] : memref<1x64x136xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          vector.store %228, %alloc[%c0, %26, %94] : memref<1x64x136xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %229 = affine.apply #map()[%176, %200, %96]
          %230 = arith.subi %c155348, %229 : index
          %231 = arith.cmpi ult, %230, %c16 : index
          %232 = arith.remui %230, %c4 : index
          %233 = arith.cmpi ne, %232, %c0 : index
          %234 = arith.andi %231, %233 : i1
          %235 = scf.if %234 -> (vector<16xi8>) {
            %556 = vector.maskedload %2[%176, %200, %96], %201, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %2[%176, %200, %96] : memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %201, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          %236 = affine.apply #map1()[%176, %98, %210]
          %237 = arith.subi %c51972, %236 : index
          %238 = arith.cmpi ult, %237, %c16 : index
          %239 = arith.remui %237, %c4 : index
          %240 = arith.cmpi ne, %239, %c0 : index
          %241 = arith.andi %238, %240 : i1
          %242 = scf.if %241 -> (vector<16xi8>) {
            %556 = vector.maskedload %4[%176, %98, %210], %211, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %4[%176, %98, %210] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %211, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          %243 = affine.apply #map1()[%176, %100, %220]
          %244 = arith.subi %c51972, %243 : index
          %245 = arith.cmpi ult, %244, %c16 : index
          %246 = arith.remui %244, %c4 : index
          %247 = arith.cmpi ne, %246, %c0 : index
          %248 = arith.andi %245, %247 : i1
          %249 = scf.if %248 -> (vector<16xi8>) {
            %556 = vector.maskedload %4[%176, %100, %220], %221, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %4[%176, %100, %220] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %221, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          %250 = arith.muli %8, %c32_i32 overflow<nsw> : i32
          %251 = arith.addi %250, %13 overflow<nsw> : i32
          %252 = arith.index_castui %251 : i32 to index
          %253 = vector.load %alloc_4[%c0, %252, %20] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %254 = arith.addi %251, %c16_i32 overflow<nsw> : i32
          %255 = arith.index_castui %254 : i32 to index
          %256 = vector.load %alloc_4[%c0, %255, %20] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %257 = amdgpu.transpose_load %alloc[%c0, %39, %103] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %258 = amdgpu.transpose_load %alloc[%c0, %45, %106] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %259 = amdgpu.transpose_load %alloc[%c0, %51, %109] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %260 = amdgpu.transpose_load %alloc[%c0, %57, %112] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %261 = amdgpu.transpose_load %alloc[%c0, %63, %115] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %262 = amdgpu.transpose_load %alloc[%c0, %69, %118] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %263 = amdgpu.transpose_load %alloc[%c0, %75, %121] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %264 = amdgpu.transpose_load %alloc[%c0, %81, %124] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %265 = vector.extract %257[0] : i8 from vector<8xi8>
          %266 = vector.extract %257[1] : i8 from vector<8xi8>
          %267 = vector.extract %257[2] : i8 from vector<8xi8>
          %268 = vector.extract %257[3] : i8 from vector<8xi8>
          %269 = vector.extract %257[4] : i8 from vector<8xi8>
          %270 = vector.extract %257[5] : i8 from vector<8xi8>
          %271 = vector.extract %257[6] : i8 from vector<8xi8>
          %272 = vector.extract %257[7] : i8 from vector<8xi8>
          %273 = vector.extract %258[0] : i8 from vector<8xi8>
          %274 = vector.extract %258[1] : i8 from vector<8xi8>
          %275 = vector.extract %258[2] : i8 from vector<8xi8>
          %276 = vector.extract %258[3] : i8 from vector<8xi8>
          %277 = vector.extract %258[4] : i8 from vector<8xi8>
          %278 = vector.extract %258[5] : i8 from vector<8xi8>
          %279 = vector.extract %258[6] : i8 from vector<8xi8>
          %280 = vector.extract %258[7] : i8 from vector<8xi8>
          %281 = vector.extract %259[0] : i8 from vector<8xi8>
          %282 = vector.extract %259[1] : i8 from vector<8xi8>
          %283 = vector.extract %259[2] : i8 from vector<8xi8>
          %284 = vector.extract %259[3] : i8 from vector<8xi8>
          %285 = vector.extract %259[4] : i8 from vector<8xi8>
          %286 = vector.extract %259[5] : i8 from vector<8xi8>
          %287 = vector.extract %259[6] : i8 from vector<8xi8>
          %288 = vector.extract %259[7] : i8 from vector<8xi8>
          %289 = vector.extract %260[0] : i8 from vector<8xi8>
          %290 = vector.extract %260[1] : i8 from vector<8xi8>
          %291 = vector.extract %260[2] : i8 from vector<8xi8>
          %292 = vector.extract %260[3] : i8 from vector<8xi8>
          %293 = vector.extract %260[4] : i8 from vector<8xi8>
          %294 = vector.extract %260[5] : i8 from vector<8xi8>
          %295 = vector.extract %260[6] : i8 from vector<8xi8>
          %296 = vector.extract %260[7] : i8 from vector<8xi8>
          %297 = vector.extract %261[0] : i8 from vector<8xi8>
          %298 = vector.extract %261[1] : i8 from vector<8xi8>
          %299 = vector.extract %261[2] : i8 from vector<8xi8>
          %300 = vector.extract %261[3] : i8 from vector<8xi8>
          %301 = vector.extract %261[4] : i8 from vector<8xi8>
          %302 = vector.extract %261[5] : i8 from vector<8xi8>
          %303 = vector.extract %261[6] : i8 from vector<8xi8>
          %304 = vector.extract %261[7] : i8 from vector<8xi8>
          %305 = vector.extract %262[0] : i8 from vector<8xi8>
          %306 = vector.extract %262[1] : i8 from vector<8xi8>
          %307 = vector.extract %262[2] : i8 from vector<8xi8>
          %308 = vector.extract %262[3] : i8 from vector<8xi8>
          %309 = vector.extract %262[4] : i8 from vector<8xi8>
          %310 = vector.extract %262[5] : i8 from vector<8xi8>
          %311 = vector.extract %262[6] : i8 from vector<8xi8>
          %312 = vector.extract %262[7] : i8 from vector<8xi8>
          %313 = vector.extract %263[0] : i8 from vector<8xi8>
          %314 = vector.extract %263[1] : i8 from vector<8xi8>
          %315 = vector.extract %263[2] : i8 from vector<8xi8>
          %316 = vector.extract %263[3] : i8 from vector<8xi8>
          %317 = vector.extract %263[4] : i8 from vector<8xi8>
          %318 = vector.extract %263[5] : i8 from vector<8xi8>
          %319 = vector.extract %263[6] : i8 from vector<8xi8>
          %320 = vector.extract %263[7] : i8 from vector<8xi8>
          %321 = vector.extract %264[0] : i8 from vector<8xi8>
          %322 = vector.extract %264[1] : i8 from vector<8xi8>
          %323 = vector.extract %264[2] : i8 from vector<8xi8>
          %324 = vector.extract %264[3] : i8 from vector<8xi8>
          %325 = vector.extract %264[4] : i8 from vector<8xi8>
          %326 = vector.extract %264[5] : i8 from vector<8xi8>
          %327 = vector.extract %264[6] : i8 from vector<8xi8>
          %328 = vector.extract %264[7] : i8 from vector<8xi8>
          %329 = vector.from_elements %265, %269, %273, %277, %281, %285, %289, %293, %297, %301, %305, %309, %313, %317, %321, %325 : vector<16xi8>
          %330 = vector.from_elements %266, %270, %274, %278, %282, %286, %290, %294, %298, %302, %306, %310, %314, %318, %322, %326 : vector<16xi8>
          %331 = vector.from_elements %267, %271, %275, %279, %283, %287, %291, %295, %299, %303, %307, %311, %315, %319, %323, %327 : vector<16xi8>
          %332 = vector.from_elements %268, %272, %276, %280, %284, %288, %292, %296, %300, %304, %308, %312, %316, %320, %324, %328 : vector<16xi8>
          %333 = amdgpu.mfma 16x16x64 %253 * %329 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %334 = amdgpu.mfma 16x16x64 %253 * %330 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %335 = amdgpu.mfma 16x16x64 %253 * %331 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %336 = amdgpu.mfma 16x16x64 %253 * %332 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %337 = amdgpu.mfma 16x16x64 %256 * %329 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %338 = amdgpu.mfma 16x16x64 %256 * %330 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %339 = amdgpu.mfma 16x16x64 %256 * %331 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %340 = amdgpu.mfma 16x16x64 %256 * %332 + %cst_3 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          amdgpu.sched_barrier allow = none
          vector.store %235, %alloc_4[%c0, %16, %90] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          vector.store %242, %alloc[%c0, %22, %92] : memref<1x64x136xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          vector.store %249, %alloc[%c0, %26, %94] : memref<1x64x136xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %341 = vector.create_mask %128 : vector<16xi1>
          %342 = affine.apply #map()[%176, %200, %130]
          %343 = arith.subi %c155348, %342 : index
          %344 = arith.cmpi ult, %343, %c16 : index
          %345 = arith.remui %343, %c4 : index
          %346 = arith.cmpi ne, %345, %c0 : index
          %347 = arith.andi %344, %346 : i1
          %348 = scf.if %347 -> (vector<16xi8>) {
            %556 = vector.maskedload %2[%176, %200, %130], %341, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %2[%176, %200, %130] : memref<2x547x142xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %341, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          %349 = affine.apply #map1()[%176, %133, %210]
          %350 = arith.subi %c51972, %349 : index
          %351 = arith.cmpi ult, %350, %c16 : index
          %352 = arith.remui %350, %c4 : index
          %353 = arith.cmpi ne, %352, %c0 : index
          %354 = arith.andi %351, %353 : i1
          %355 = scf.if %354 -> (vector<16xi8>) {
            %556 = vector.maskedload %4[%176, %133, %210], %211, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %4[%176, %133, %210] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %211, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          %356 = affine.apply #map2()[%176, %220]
          %357 = arith.subi %c51972, %356 : index
          %358 = arith.cmpi ult, %357, %c16 : index
          %359 = arith.remui %357, %c4 : index
          %360 = arith.cmpi ne, %359, %c0 : index
          %361 = arith.andi %358, %360 : i1
          %362 = scf.if %361 -> (vector<16xi8>) {
            %556 = vector.maskedload %4[%176, %c142, %220], %221, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
            scf.yield %556 : vector<16xi8>
          } else {
            %556 = vector.load %4[%176, %c142, %220] : memref<2x142x183xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
            %557 = arith.select %221, %556, %cst_1 : vector<16xi1>, vector<16xi8>
            scf.yield %557 : vector<16xi8>
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          %363 = vector.load %alloc_4[%c0, %252, %20] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %364 = vector.load %alloc_4[%c0, %255, %20] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %365 = amdgpu.transpose_load %alloc[%c0, %39, %103] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %366 = amdgpu.transpose_load %alloc[%c0, %45, %106] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %367 = amdgpu.transpose_load %alloc[%c0, %51, %109] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %368 = amdgpu.transpose_load %alloc[%c0, %57, %112] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %369 = amdgpu.transpose_load %alloc[%c0, %63, %115] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %370 = amdgpu.transpose_load %alloc[%c0, %69, %118] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %371 = amdgpu.transpose_load %alloc[%c0, %75, %121] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %372 = amdgpu.transpose_load %alloc[%c0, %81, %124] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %373 = vector.extract %365[0] : i8 from vector<8xi8>
          %374 = vector.extract %365[1] : i8 from vector<8xi8>
          %375 = vector.extract %365[2] : i8 from vector<8xi8>
          %376 = vector.extract %365[3] : i8 from vector<8xi8>
          %377 = vector.extract %365[4] : i8 from vector<8xi8>
          %378 = vector.extract %365[5] : i8 from vector<8xi8>
          %379 = vector.extract %365[6] : i8 from vector<8xi8>
          %380 = vector.extract %365[7] : i8 from vector<8xi8>
          %381 = vector.extract %366[0] : i8 from vector<8xi8>
          %382 = vector.extract %366[1] : i8 from vector<8xi8>
          %383 = vector.extract %366[2] : i8 from vector<8xi8>
          %384 = vector.extract %366[3] : i8 from vector<8xi8>
          %385 = vector.extract %366[4] : i8 from vector<8xi8>
          %386 = vector.extract %366[5] : i8 from vector<8xi8>
          %387 = vector.extract %366[6] : i8 from vector<8xi8>
          %388 = vector.extract %366[7] : i8 from vector<8xi8>
          %389 = vector.extract %367[0] : i8 from vector<8xi8>
          %390 = vector.extract %367[1] : i8 from vector<8xi8>
          %391 = vector.extract %367[2] : i8 from vector<8xi8>
          %392 = vector.extract %367[3] : i8 from vector<8xi8>
          %393 = vector.extract %367[4] : i8 from vector<8xi8>
          %394 = vector.extract %367[5] : i8 from vector<8xi8>
          %395 = vector.extract %367[6] : i8 from vector<8xi8>
          %396 = vector.extract %367[7] : i8 from vector<8xi8>
          %397 = vector.extract %368[0] : i8 from vector<8xi8>
          %398 = vector.extract %368[1] : i8 from vector<8xi8>
          %399 = vector.extract %368[2] : i8 from vector<8xi8>
          %400 = vector.extract %368[3] : i8 from vector<8xi8>
          %401 = vector.extract %368[4] : i8 from vector<8xi8>
          %402 = vector.extract %368[5] : i8 from vector<8xi8>
          %403 = vector.extract %368[6] : i8 from vector<8xi8>
          %404 = vector.extract %368[7] : i8 from vector<8xi8>
          %405 = vector.extract %369[0] : i8 from vector<8xi8>
          %406 = vector.extract %369[1] : i8 from vector<8xi8>
          %407 = vector.extract %369[2] : i8 from vector<8xi8>
          %408 = vector.extract %369[3] : i8 from vector<8xi8>
          %409 = vector.extract %369[4] : i8 from vector<8xi8>
          %410 = vector.extract %369[5] : i8 from vector<8xi8>
          %411 = vector.extract %369[6] : i8 from vector<8xi8>
          %412 = vector.extract %369[7] : i8 from vector<8xi8>
          %413 = vector.extract %370[0] : i8 from vector<8xi8>
          %414 = vector.extract %370[1] : i8 from vector<8xi8>
          %415 = vector.extract %370[2] : i8 from vector<8xi8>
          %416 = vector.extract %370[3] : i8 from vector<8xi8>
          %417 = vector.extract %370[4] : i8 from vector<8xi8>
          %418 = vector.extract %370[5] : i8 from vector<8xi8>
          %419 = vector.extract %370[6] : i8 from vector<8xi8>
          %420 = vector.extract %370[7] : i8 from vector<8xi8>
          %421 = vector.extract %371[0] : i8 from vector<8xi8>
          %422 = vector.extract %371[1] : i8 from vector<8xi8>
          %423 = vector.extract %371[2] : i8 from vector<8xi8>
          %424 = vector.extract %371[3] : i8 from vector<8xi8>
          %425 = vector.extract %371[4] : i8 from vector<8xi8>
          %426 = vector.extract %371[5] : i8 from vector<8xi8>
          %427 = vector.extract %371[6] : i8 from vector<8xi8>
          %428 = vector.extract %371[7] : i8 from vector<8xi8>
          %429 = vector.extract %372[0] : i8 from vector<8xi8>
          %430 = vector.extract %372[1] : i8 from vector<8xi8>
          %431 = vector.extract %372[2] : i8 from vector<8xi8>
          %432 = vector.extract %372[3] : i8 from vector<8xi8>
          %433 = vector.extract %372[4] : i8 from vector<8xi8>
          %434 = vector.extract %372[5] : i8 from vector<8xi8>
          %435 = vector.extract %372[6] : i8 from vector<8xi8>
          %436 = vector.extract %372[7] : i8 from vector<8xi8>
          %437 = vector.from_elements %373, %377, %381, %385, %389, %393, %397, %401, %405, %409, %413, %417, %421, %425, %429, %433 : vector<16xi8>
          %438 = vector.from_elements %374, %378, %382, %386, %390, %394, %398, %402, %406, %410, %414, %418, %422, %426, %430, %434 : vector<16xi8>
          %439 = vector.from_elements %375, %379, %383, %387, %391, %395, %399, %403, %407, %411, %415, %419, %423, %427, %431, %435 : vector<16xi8>
          %440 = vector.from_elements %376, %380, %384, %388, %392, %396, %400, %404, %408, %412, %416, %420, %424, %428, %432, %436 : vector<16xi8>
          %441 = amdgpu.mfma 16x16x64 %363 * %437 + %333 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %442 = amdgpu.mfma 16x16x64 %363 * %438 + %334 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %443 = amdgpu.mfma 16x16x64 %363 * %439 + %335 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %444 = amdgpu.mfma 16x16x64 %363 * %440 + %336 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %445 = amdgpu.mfma 16x16x64 %364 * %437 + %337 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %446 = amdgpu.mfma 16x16x64 %364 * %438 + %338 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %447 = amdgpu.mfma 16x16x64 %364 * %439 + %339 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %448 = amdgpu.mfma 16x16x64 %364 * %440 + %340 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          vector.store %348, %alloc_4[%c0, %16, %90] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          vector.store %355, %alloc[%c0, %22, %92] : memref<1x64x136xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          vector.store %362, %alloc[%c0, %26, %94] : memref<1x64x136xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          %449 = vector.load %alloc_4[%c0, %252, %20] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %450 = vector.load %alloc_4[%c0, %255, %20] : memref<1x64x72xi8, #gpu.address_space<workgroup>>, vector<16xi8>
          %451 = amdgpu.transpose_load %alloc[%c0, %39, %103] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %452 = amdgpu.transpose_load %alloc[%c0, %45, %106] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %453 = amdgpu.transpose_load %alloc[%c0, %51, %109] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %454 = amdgpu.transpose_load %alloc[%c0, %57, %112] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %455 = amdgpu.transpose_load %alloc[%c0, %63, %115] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %456 = amdgpu.transpose_load %alloc[%c0, %69, %118] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %457 = amdgpu.transpose_load %alloc[%c0, %75, %121] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %458 = amdgpu.transpose_load %alloc[%c0, %81, %124] : memref<1x64x136xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
          %459 = vector.extract %451[0] : i8 from vector<8xi8>
          %460 = vector.extract %451[1] : i8 from vector<8xi8>
          %461 = vector.extract %451[2] : i8 from vector<8xi8>
          %462 = vector.extract %451[3] : i8 from vector<8xi8>
          %463 = vector.extract %451[4] : i8 from vector<8xi8>
          %464 = vector.extract %451[5] : i8 from vector<8xi8>
          %465 = vector.extract %451[6] : i8 from vector<8xi8>
          %466 = vector.extract %451[7] : i8 from vector<8xi8>
          %467 = vector.extract %452[0] : i8 from vector<8xi8>
          %468 = vector.extract %452[1] : i8 from vector<8xi8>
          %469 = vector.extract %452[2] : i8 from vector<8xi8>
          %470 = vector.extract %452[3] : i8 from vector<8xi8>
          %471 = vector.extract %452[4] : i8 from vector<8xi8>
          %472 = vector.extract %452[5] : i8 from vector<8xi8>
          %473 = vector.extract %452[6] : i8 from vector<8xi8>
          %474 = vector.extract %452[7] : i8 from vector<8xi8>
          %475 = vector.extract %453[0] : i8 from vector<8xi8>
          %476 = vector.extract %453[1] : i8 from vector<8xi8>
          %477 = vector.extract %453[2] : i8 from vector<8xi8>
          %478 = vector.extract %453[3] : i8 from vector<8xi8>
          %479 = vector.extract %453[4] : i8 from vector<8xi8>
          %480 = vector.extract %453[5] : i8 from vector<8xi8>
          %481 = vector.extract %453[6] : i8 from vector<8xi8>
          %482 = vector.extract %453[7] : i8 from vector<8xi8>
          %483 = vector.extract %454[0] : i8 from vector<8xi8>
          %484 = vector.extract %454[1] : i8 from vector<8xi8>
          %485 = vector.extract %454[2] : i8 from vector<8xi8>
          %486 = vector.extract %454[3] : i8 from vector<8xi8>
          %487 = vector.extract %454[4] : i8 from vector<8xi8>
          %488 = vector.extract %454[5] : i8 from vector<8xi8>
          %489 = vector.extract %454[6] : i8 from vector<8xi8>
          %490 = vector.extract %454[7] : i8 from vector<8xi8>
          %491 = vector.extract %455[0] : i8 from vector<8xi8>
          %492 = vector.extract %455[1] : i8 from vector<8xi8>
          %493 = vector.extract %455[2] : i8 from vector<8xi8>
          %494 = vector.extract %455[3] : i8 from vector<8xi8>
          %495 = vector.extract %455[4] : i8 from vector<8xi8>
          %496 = vector.extract %455[5] : i8 from vector<8xi8>
          %497 = vector.extract %455[6] : i8 from vector<8xi8>
          %498 = vector.extract %455[7] : i8 from vector<8xi8>
          %499 = vector.extract %456[0] : i8 from vector<8xi8>
          %500 = vector.extract %456[1] : i8 from vector<8xi8>
          %501 = vector.extract %456[2] : i8 from vector<8xi8>
          %502 = vector.extract %456[3] : i8 from vector<8xi8>
          %503 = vector.extract %456[4] : i8 from vector<8xi8>
          %504 = vector.extract %456[5] : i8 from vector<8xi8>
          %505 = vector.extract %456[6] : i8 from vector<8xi8>
          %506 = vector.extract %456[7] : i8 from vector<8xi8>
          %507 = vector.extract %457[0] : i8 from vector<8xi8>
          %508 = vector.extract %457[1] : i8 from vector<8xi8>
          %509 = vector.extract %457[2] : i8 from vector<8xi8>
          %510 = vector.extract %457[3] : i8 from vector<8xi8>
          %511 = vector.extract %457[4] : i8 from vector<8xi8>
          %512 = vector.extract %457[5] : i8 from vector<8xi8>
          %513 = vector.extract %457[6] : i8 from vector<8xi8>
          %514 = vector.extract %457[7] : i8 from vector<8xi8>
          %515 = vector.extract %458[0] : i8 from vector<8xi8>
          %516 = vector.extract %458[1] : i8 from vector<8xi8>
          %517 = vector.extract %458[2] : i8 from vector<8xi8>
          %518 = vector.extract %458[3] : i8 from vector<8xi8>
          %519 = vector.extract %458[4] : i8 from vector<8xi8>
          %520 = vector.extract %458[5] : i8 from vector<8xi8>
          %521 = vector.extract %458[6] : i8 from vector<8xi8>
          %522 = vector.extract %458[7] : i8 from vector<8xi8>
          %523 = vector.from_elements %459, %463, %467, %471, %475, %479, %483, %487, %491, %495, %499, %503, %507, %511, %515, %519 : vector<16xi8>
          %524 = vector.from_elements %460, %464, %468, %472, %476, %480, %484, %488, %492, %496, %500, %504, %508, %512, %516, %520 : vector<16xi8>
          %525 = vector.from_elements %461, %465, %469, %473, %477, %481, %485, %489, %493, %497, %501, %505, %509, %513, %517, %521 : vector<16xi8>
          %526 = vector.from_elements %462, %466, %470, %474, %478, %482, %486, %490, %494, %498, %502, %506, %510, %514, %518, %522 : vector<16xi8>
          %527 = amdgpu.mfma 16x16x64 %449 * %523 + %441 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %528 = amdgpu.mfma 16x16x64 %449 * %524 + %442 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %529 = amdgpu.mfma 16x16x64 %449 * %525 + %443 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %530 = amdgpu.mfma 16x16x64 %449 * %526 + %444 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %531 = amdgpu.mfma 16x16x64 %450 * %523 + %445 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %532 = amdgpu.mfma 16x16x64 %450 * %524 + %446 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %533 = amdgpu.mfma 16x16x64 %450 * %525 + %447 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          %534 = amdgpu.mfma 16x16x64 %450 * %526 + %448 : vector<16xi8>, vector<16xi8>, vector<4xi32>
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %527[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c0, %c0, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %528[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c0, %c1, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %529[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c0, %c2, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %530[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c0, %c3, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %531[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c1, %c0, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %532[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c1, %c1, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %533[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c1, %c2, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = vector.extract %534[%556] : i32 from vector<4xi32>
            memref.store %557, %alloca[%c0, %c1, %c3, %556, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
          }
          %535 = vector.broadcast %187 : i32 to vector<1xi32>
          %536 = arith.cmpi ult, %170, %535 : vector<1xi32>
          %537 = arith.cmpi ult, %171, %535 : vector<1xi32>
          %538 = arith.cmpi ult, %172, %535 : vector<1xi32>
          %539 = arith.cmpi ult, %173, %535 : vector<1xi32>
          %540 = vector.broadcast %175 : i32 to vector<1xi32>
          %541 = vector.broadcast %180 : i32 to vector<1xi32>
          %542 = arith.addi %541, %170 : vector<1xi32>
          %543 = arith.index_castui %542 : vector<1xi32> to vector<1xindex>
          %544 = arith.addi %541, %171 : vector<1xi32>
          %545 = arith.index_castui %544 : vector<1xi32> to vector<1xindex>
          %546 = arith.addi %541, %172 : vector<1xi32>
          %547 = arith.index_castui %546 : vector<1xi32> to vector<1xindex>
          %548 = arith.addi %541, %173 : vector<1xi32>
          %549 = arith.index_castui %548 : vector<1xi32> to vector<1xindex>
          %550 = arith.muli %540, %cst_0 overflow<nsw> : vector<1xi32>
          %551 = arith.index_castui %550 : vector<1xi32> to vector<1xindex>
          %552 = vector.broadcast %184 : i32 to vector<1xi32>
          %553 = arith.index_castui %552 : vector<1xi32> to vector<1xindex>
          %554 = vector.broadcast %181 : i32 to vector<1xi32>
          %555 = arith.index_castui %554 : vector<1xi32> to vector<1xindex>
          scf.for %arg0 = %c0_i32 to %c2_i32 step %c1_i32  : i32 {
            %556 = arith.index_castui %arg0 : i32 to index
            %557 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xi32>)  : i32 {
              %668 = arith.index_castui %arg1 : i32 to index
              %669 = memref.load %alloca[%c0, %556, %c0, %668, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
              %670 = vector.insert %669, %arg2 [%668] : i32 into vector<4xi32>
              scf.yield %670 : vector<4xi32>
            }
            %558 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xi32>)  : i32 {
              %668 = arith.index_castui %arg1 : i32 to index
              %669 = memref.load %alloca[%c0, %556, %c1, %668, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
              %670 = vector.insert %669, %arg2 [%668] : i32 into vector<4xi32>
              scf.yield %670 : vector<4xi32>
            }
            %559 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xi32>)  : i32 {
              %668 = arith.index_castui %arg1 : i32 to index
              %669 = memref.load %alloca[%c0, %556, %c2, %668, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
              %670 = vector.insert %669, %arg2 [%668] : i32 into vector<4xi32>
              scf.yield %670 : vector<4xi32>
            }
            %560 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xi32>)  : i32 {
              %668 = arith.index_castui %arg1 : i32 to index
              %669 = memref.load %alloca[%c0, %556, %c3, %668, %c0] : memref<1x2x4x4x1xi32, #gpu.address_space<private>>
              %670 = vector.insert %669, %arg2 [%668] : i32 into vector<4xi32>
              scf.yield %670 : vector<4xi32>
            }
            %561 = vector.broadcast %arg0 : i32 to vector<1xi32>
            %562 = arith.addi %141, %561 : vector<1xi32>
            %563 = arith.muli %562, %cst overflow<nsw> : vector<1xi32>
            %564 = arith.index_castui %563 : vector<1xi32> to vector<1xindex>
            %565 = arith.addi %564, %144 overflow<nsw> : vector<1xindex>
            %566 = arith.addi %564, %145 overflow<nsw> : vector<1xindex>
            %567 = arith.addi %564, %146 overflow<nsw> : vector<1xindex>
            %568 = arith.addi %564, %147 overflow<nsw> : vector<1xindex>
            %569 = arith.cmpi ult, %565, %553 : vector<1xindex>
            %570 = arith.cmpi ult, %566, %553 : vector<1xindex>
            %571 = arith.cmpi ult, %567, %553 : vector<1xindex>
            %572 = arith.cmpi ult, %568, %553 : vector<1xindex>
            %573 = arith.andi %569, %536 : vector<1xi1>
            %574 = arith.andi %569, %537 : vector<1xi1>
            %575 = arith.andi %569, %538 : vector<1xi1>
            %576 = arith.andi %569, %539 : vector<1xi1>
            %577 = arith.andi %570, %536 : vector<1xi1>
            %578 = arith.andi %570, %537 : vector<1xi1>
            %579 = arith.andi %570, %538 : vector<1xi1>
            %580 = arith.andi %570, %539 : vector<1xi1>
            %581 = arith.andi %571, %536 : vector<1xi1>
            %582 = arith.andi %571, %537 : vector<1xi1>
            %583 = arith.andi %571, %538 : vector<1xi1>
            %584 = arith.andi %571, %539 : vector<1xi1>
            %585 = arith.andi %572, %536 : vector<1xi1>
            %586 = arith.andi %572, %537 : vector<1xi1>
            %587 = arith.andi %572, %538 : vector<1xi1>
            %588 = arith.andi %572, %539 : vector<1xi1>
            %589 = arith.addi %555, %565 : vector<1xindex>
            %590 = arith.addi %555, %566 : vector<1xindex>
            %591 = arith.addi %555, %567 : vector<1xindex>
            %592 = arith.addi %555, %568 : vector<1xindex>
            %593 = arith.muli %589, %cst_2 overflow<nsw> : vector<1xindex>
            %594 = arith.muli %590, %cst_2 overflow<nsw> : vector<1xindex>
            %595 = arith.muli %591, %cst_2 overflow<nsw> : vector<1xindex>
            %596 = arith.muli %592, %cst_2 overflow<nsw> : vector<1xindex>
            %597 = arith.addi %551, %593 overflow<nsw> : vector<1xindex>
            %598 = arith.addi %551, %594 overflow<nsw> : vector<1xindex>
            %599 = arith.addi %551, %595 overflow<nsw> : vector<1xindex>
            %600 = arith.addi %551, %596 overflow<nsw> : vector<1xindex>
            %601 = arith.addi %597, %543 overflow<nsw> : vector<1xindex>
            %602 = arith.addi %597, %545 overflow<nsw> : vector<1xindex>
            %603 = arith.addi %597, %547 overflow<nsw> : vector<1xindex>
            %604 = arith.addi %597, %549 overflow<nsw> : vector<1xindex>
            %605 = arith.addi %598, %543 overflow<nsw> : vector<1xindex>
            %606 = arith.addi %598, %545 overflow<nsw> : vector<1xindex>
            %607 = arith.addi %598, %547 overflow<nsw> : vector<1xindex>
            %608 = arith.addi %598, %549 overflow<nsw> : vector<1xindex>
            %609 = arith.addi %599, %543 overflow<nsw> : vector<1xindex>
            %610 = arith.addi %599, %545 overflow<nsw> : vector<1xindex>
            %611 = arith.addi %599, %547 overflow<nsw> : vector<1xindex>
            %612 = arith.addi %599, %549 overflow<nsw> : vector<1xindex>
            %613 = arith.addi %600, %543 overflow<nsw> : vector<1xindex>
            %614 = arith.addi %600, %545 overflow<nsw> : vector<1xindex>
            %615 = arith.addi %600, %547 overflow<nsw> : vector<1xindex>
            %616 = arith.addi %600, %549 overflow<nsw> : vector<1xindex>
            %617 = vector.extract %601[0] : index from vector<1xindex>
            %618 = vector.extract %602[0] : index from vector<1xindex>
            %619 = vector.extract %603[0] : index from vector<1xindex>
            %620 = vector.extract %604[0] : index from vector<1xindex>
            %621 = vector.extract %605[0] : index from vector<1xindex>
            %622 = vector.extract %606[0] : index from vector<1xindex>
            %623 = vector.extract %607[0] : index from vector<1xindex>
            %624 = vector.extract %608[0] : index from vector<1xindex>
            %625 = vector.extract %609[0] : index from vector<1xindex>
            %626 = vector.extract %610[0] : index from vector<1xindex>
            %627 = vector.extract %611[0] : index from vector<1xindex>
            %628 = vector.extract %612[0] : index from vector<1xindex>
            %629 = vector.extract %613[0] : index from vector<1xindex>
            %630 = vector.extract %614[0] : index from vector<1xindex>
            %631 = vector.extract %615[0] : index from vector<1xindex>
            %632 = vector.extract %616[0] : index from vector<1xindex>
            %633 = vector.from_elements %617, %618, %619, %620, %621, %622, %623, %624, %625, %626, %627, %628, %629, %630, %631, %632 : vector<16xindex>
            %634 = vector.extract %573[0] : i1 from vector<1xi1>
            %635 = vector.extract %574[0] : i1 from vector<1xi1>
            %636 = vector.extract %575[0] : i1 from vector<1xi1>
            %637 = vector.extract %576[0] : i1 from vector<1xi1>
            %638 = vector.extract %577[0] : i1 from vector<1xi1>
            %639 = vector.extract %578[0] : i1 from vector<1xi1>
            %640 = vector.extract %579[0] : i1 from vector<1xi1>
            %641 = vector.extract %580[0] : i1 from vector<1xi1>
            %642 = vector.extract %581[0] : i1 from vector<1xi1>
            %643 = vector.extract %582[0] : i1 from vector<1xi1>
            %644 = vector.extract %583[0] : i1 from vector<1xi1>
            %645 = vector.extract %584[0] : i1 from vector<1xi1>
            %646 = vector.extract %585[0] : i1 from vector<1xi1>
            %647 = vector.extract %586[0] : i1 from vector<1xi1>
            %648 = vector.extract %587[0] : i1 from vector<1xi1>
            %649 = vector.extract %588[0] : i1 from vector<1xi1>
            %650 = vector.from_elements %634, %635, %636, %637, %638, %639, %640, %641, %642, %643, %644, %645, %646, %647, %648, %649 : vector<16xi1>
            %651 = vector.extract %557[0] : i32 from vector<4xi32>
            %652 = vector.extract %558[0] : i32 from vector<4xi32>
            %653 = vector.extract %559[0] : i32 from vector<4xi32>
            %654 = vector.extract %560[0] : i32 from vector<4xi32>
            %655 = vector.extract %557[1] : i32 from vector<4xi32>
            %656 = vector.extract %558[1] : i32 from vector<4xi32>
            %657 = vector.extract %559[1] : i32 from vector<4xi32>
            %658 = vector.extract %560[1] : i32 from vector<4xi32>
            %659 = vector.extract %557[2] : i32 from vector<4xi32>
            %660 = vector.extract %558[2] : i32 from vector<4xi32>
            %661 = vector.extract %559[2] : i32 from vector<4xi32>
            %662 = vector.extract %560[2] : i32 from vector<4xi32>
            %663 = vector.extract %557[3] : i32 from vector<4xi32>
            %664 = vector.extract %558[3] : i32 from vector<4xi32>
            %665 = vector.extract %559[3] : i32 from vector<4xi32>
            %666 = vector.extract %560[3] : i32 from vector<4xi32>
            %667 = vector.from_elements %651, %652, %653, %654, %655, %656, %657, %658, %659, %660, %661, %662, %663, %664, %665, %666 : vector<16xi32>
            vector.scatter %collapse_shape[%c0] [%633], %650, %667 : memref<200202xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xi32>
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_4 : memref<1x64x72xi8, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<1x64x136xi8, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_batch_matmul_2x547x183x142_i8xi8xi32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c36 = arith.constant 36 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c36, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

