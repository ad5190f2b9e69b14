#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_28x64x160_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_28x64x160_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c12_i32 = arith.constant 12 : i32
          %c32_i32 = arith.constant 32 : i32
          %cst = arith.constant dense<16> : vector<1xi32>
          %c28_i32 = arith.constant 28 : i32
          %c4_i32 = arith.constant 4 : i32
          %c1_i32 = arith.constant 1 : i32
          %c5_i32 = arith.constant 5 : i32
          %c2_i32 = arith.constant 2 : i32
          %c16_i32 = arith.constant 16 : i32
          %c8_i32 = arith.constant 8 : i32
          %c0_i32 = arith.constant 0 : i32
          %c64_i32 = arith.constant 64 : i32
          %cst_0 = arith.constant dense<0.000000e+00> : vector<4xbf16>
          %c0 = arith.constant 0 : index
          %cst_1 = arith.constant dense<16> : vector<1xindex>
          %cst_2 = arith.constant dense<28> : vector<1xindex>
          %cst_3 = arith.constant dense<64> : vector<1xindex>
          %cst_4 = arith.constant dense<0.000000e+00> : vector<8xbf16>
          %cst_5 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x68xbf16, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() : memref<32x36xbf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<160x28xbf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<160x28xbf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<160x28xbf16, #gpu.address_space<global>> to memref<160x28xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<160x64xbf16, #gpu.address_space<global>>
          %assume_align_7 = memref.assume_alignment %2, 64 : memref<160x64xbf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<160x64xbf16, #gpu.address_space<global>> to memref<160x64xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<28x64xf32, #gpu.address_space<global>>
          %assume_align_8 = memref.assume_alignment %4, 64 : memref<28x64xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<28x64xf32, #gpu.address_space<global>> to memref<28x64xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c64_i32 : i32
          %8 = arith.remui %6, %c64_i32 : i32
          %9 = arith.divui %8, %c16_i32 : i32
          %10 = arith.remui %8, %c16_i32 : i32
          %11 = arith.muli %9, %c4_i32 overflow<nsw> : i32
          %12 = arith.divui %6, %c8_i32 : i32
          %13 = arith.index_castui %12 : i32 to index
          %14 = arith.remui %6, %c8_i32 : i32
          %15 = arith.muli %14, %c4_i32 overflow<nsw> : i32
          %16 = arith.minui %15, %c28_i32 : i32
          %17 = arith.index_castui %16 : i32 to index
          %18 = arith.subi %c28_i32, %16 : i32
          %19 = arith.minui %18, %c4_i32 : i32
          %20 = arith.muli %9, %c8_i32 overflow<nsw> : i32
          %21 = arith.cmpi eq, %19, %c4_i32 : i32
          %22 = gpu.lane_id upper_bound 64
          %23 = arith.index_castui %22 : index to i32
          %24 = arith.remui %23, %c16_i32 : i32
          %25 = arith.divui %24, %c4_i32 : i32
          %26 = arith.subi %10, %24 : i32
          %27 = arith.remui %24, %c4_i32 : i32
          %28 = arith.muli %27, %c4_i32 : i32
          %29 = arith.addi %26, %28 : i32
          %30 = arith.divui %25, %c2_i32 : i32
          %31 = arith.remui %25, %c2_i32 : i32
          %32 = arith.addi %20, %30 : i32
          %33 = arith.index_castui %32 : i32 to index
          %34 = arith.addi %25, %c4_i32 : i32
          %35 = arith.divui %34, %c2_i32 : i32
          %36 = arith.remui %34, %c2_i32 : i32
          %37 = arith.addi %20, %35 : i32
          %38 = arith.index_castui %37 : i32 to index
          %39 = arith.addi %25, %c8_i32 : i32
          %40 = arith.divui %39, %c2_i32 : i32
          %41 = arith.remui %39, %c2_i32 : i32
          %42 = arith.addi %20, %40 : i32
          %43 = arith.index_castui %42 : i32 to index
          %44 = arith.addi %25, %c12_i32 : i32
          %45 = arith.divui %44, %c2_i32 : i32
          %46 = arith.remui %44, %c2_i32 : i32
          %47 = arith.addi %20, %45 : i32
          %48 = arith.index_castui %47 : i32 to index
          %49 = arith.addi %20, %25 : i32
          %50 = arith.index_castui %49 : i32 to index
          %51 = arith.addi %20, %34 : i32
          %52 = arith.index_castui %51 : i32 to index
          %53 = arith.index_castui %15 : i32 to index
          %54 = arith.muli %14, %c8_i32 overflow<nsw> : i32
          %55 = arith.index_castui %54 : i32 to index
          %56 = arith.muli %31, %c16_i32 overflow<nsw> : i32
          %57 = arith.addi %56, %29 overflow<nsw> : i32
          %58 = arith.index_cast %57 : i32 to index
          %59 = arith.muli %36, %c16_i32 overflow<nsw> : i32
          %60 = arith.addi %59, %29 overflow<nsw> : i32
          %61 = arith.index_cast %60 : i32 to index
          %62 = arith.muli %41, %c16_i32 overflow<nsw> : i32
          %63 = arith.addi %62, %29 overflow<nsw> : i32
          %64 = arith.index_cast %63 : i32 to index
          %65 = arith.muli %46, %c16_i32 overflow<nsw> : i32
          %66 = arith.addi %65, %29 overflow<nsw> : i32
          %67 = arith.index_cast %66 : i32 to index
          %68 = arith.muli %7, %c16_i32 overflow<nsw> : i32
          %69 = arith.addi %68, %29 overflow<nsw> : i32
          %70 = arith.index_cast %69 : i32 to index
          %collapse_shape = memref.collapse_shape %5 [[0, 1]] : memref<28x64xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<1792xf32, #amdgpu.address_space<fat_raw_buffer>>
          %71 = vector.step : vector<2xindex>
          %72:2 = vector.to_elements %71 : vector<2xindex>
          %73 = vector.broadcast %72#0 : index to vector<1xindex>
          %74 = vector.broadcast %72#1 : index to vector<1xindex>
          %75 = vector.step : vector<4xindex>
          %76:4 = vector.to_elements %75 : vector<4xindex>
          %77 = vector.broadcast %76#0 : index to vector<1xindex>
          %78 = vector.broadcast %76#1 : index to vector<1xindex>
          %79 = vector.broadcast %76#2 : index to vector<1xindex>
          %80 = vector.broadcast %76#3 : index to vector<1xindex>
          %81 = vector.broadcast %11 : i32 to vector<1xi32>
          %82 = arith.index_castui %81 : vector<1xi32> to vector<1xindex>
          %83 = arith.addi %77, %82 : vector<1xindex>
          %84 = arith.addi %78, %82 : vector<1xindex>
          %85 = arith.addi %79, %82 : vector<1xindex>
          %86 = arith.addi %80, %82 : vector<1xindex>
          %87 = vector.broadcast %7 : i32 to vector<1xi32>
          %88 = arith.muli %73, %cst_1 overflow<nsw> : vector<1xindex>
          %89 = arith.muli %74, %cst_1 overflow<nsw> : vector<1xindex>
          %90 = arith.addi %88, %83 overflow<nsw> : vector<1xindex>
          %91 = arith.addi %88, %84 overflow<nsw> : vector<1xindex>
          %92 = arith.addi %88, %85 overflow<nsw> : vector<1xindex>
          %93 = arith.addi %88, %86 overflow<nsw> : vector<1xindex>
          %94 = arith.addi %89, %83 overflow<nsw> : vector<1xindex>
          %95 = arith.addi %89, %84 overflow<nsw> : vector<1xindex>
          %96 = arith.addi %89, %85 overflow<nsw> : vector<1xindex>
          %97 = arith.addi %89, %86 overflow<nsw> : vector<1xindex>
          %98 = arith.muli %87, %cst overflow<nsw> : vector<1xi32>
          %99 = vector.broadcast %10 : i32 to vector<1xi32>
          %100 = arith.addi %98, %99 overflow<nsw> : vector<1xi32>
          %101 = arith.index_castui %100 : vector<1xi32> to vector<1xindex>
          %102 = arith.cmpi ult, %90, %cst_2 : vector<1xindex>
          %103 = arith.cmpi ult, %91, %cst_2 : vector<1xindex>
          %104 = arith.cmpi ult, %92, %cst_2 : vector<1xindex>
          %105 = arith.cmpi ult, %93, %cst_2 : vector<1xindex>
          %106 = arith.cmpi ult, %94, %cst_2 : vector<1xindex>
          %107 = arith.cmpi ult, %95, %cst_2 : vector<1xindex>
          %108 = arith.cmpi ult, %96, %cst_2 : vector<1xindex>
          %109 = arith.cmpi ult, %97, %cst_2 : vector<1xindex>
          %110 = arith.muli %90, %cst_3 overflow<nsw> : vector<1xindex>
          %111 = arith.muli %91, %cst_3 overflow<nsw> : vector<1xindex>
          %112 = arith.muli %92, %cst_3 overflow<nsw> : vector<1xindex>
          %113 = arith.muli %93, %cst_3 overflow<nsw> : vector<1xindex>
          %114 = arith.muli %94, %cst_3 overflow<nsw> : vector<1xindex>
          %115 = arith.muli %95, %cst_3 overflow<nsw> : vector<1xindex>
          %116 = arith.muli %96, %cst_3 overflow<nsw> : vector<1xindex>
          %117 = arith.muli %97, %cst_3 overflow<nsw> : vector<1xindex>
          %118 = arith.addi %110, %101 overflow<nsw> : vector<1xindex>
          %119 = arith.addi %111, %101 overflow<nsw> : vector<1xindex>
          %120 = arith.addi %112, %101 overflow<nsw> : vector<1xindex>
          %121 = arith.addi %113, %101 overflow<nsw> : vector<1xindex>
          %122 = arith.addi %114, %101 overflow<nsw> : vector<1xindex>
          %123 = arith.addi %115, %101 overflow<nsw> : vector<1xindex>
          %124 = arith.addi %116, %101 overflow<nsw> : vector<1xindex>
          %125 = arith.addi %117, %101 overflow<nsw> : vector<1xindex>
          %126 = vector.extract %118[0] : index from vector<1xindex>
          %127 = vector.extract %119[0] : index from vector<1xindex>
          %128 = vector.extract %120[0] : index from vector<1xindex>
          %129 = vector.extract %121[0] : index from vector<1xindex>
          %130 = vector.extract %122[0] : index from vector<1xindex>
          %131 = vector.extract %123[0] : index from vector<1xindex>
          %132 = vector.extract %124[0] : index from vector<1xindex>
          %133 = vector.extract %125[0] : index from vector<1xindex>
          %134 = vector.from_elements %126, %127, %128, %129, %130, %131, %132, %133 : vector<8xindex>
          %135 = vector.extract %102[0] : i1 from vector<1xi1>
          %136 = vector.extract %103[0] : i1 from vector<1xi1>
          %137 = vector.extract %104[0] : i1 from vector<1xi1>
          %138 = vector.extract %105[0] : i1 from vector<1xi1>
          %139 = vector.extract %106[0] : i1 from vector<1xi1>
          %140 = vector.extract %107[0] : i1 from vector<1xi1>
          %141 = vector.extract %108[0] : i1 from vector<1xi1>
          %142 = vector.extract %109[0] : i1 from vector<1xi1>
          %143 = vector.from_elements %135, %136, %137, %138, %139, %140, %141, %142 : vector<8xi1>
          %144:2 = scf.for %arg0 = %c0_i32 to %c5_i32 step %c1_i32 iter_args(%arg1 = %cst_5, %arg2 = %cst_5) -> (vector<4xf32>, vector<4xf32>)  : i32 {
            %154 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %155 = arith.addi %12, %154 : i32
            %156 = arith.index_castui %155 : i32 to index
            %157 = vector.load %1[%156, %17] : memref<160x28xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
            %158 = arith.select %21, %157, %cst_0 : vector<4xbf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %158, %alloc_6[%13, %53] : memref<32x36xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
            %159 = vector.load %3[%156, %55] : memref<160x64xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
            vector.store %159, %alloc[%13, %55] : memref<32x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %160 = amdgpu.transpose_load %alloc_6[%33, %58] : memref<32x36xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %161 = amdgpu.transpose_load %alloc_6[%38, %61] : memref<32x36xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %162 = amdgpu.transpose_load %alloc_6[%43, %64] : memref<32x36xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %163 = amdgpu.transpose_load %alloc_6[%48, %67] : memref<32x36xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %164 = vector.extract %160[0] : bf16 from vector<4xbf16>
            %165 = vector.extract %160[1] : bf16 from vector<4xbf16>
            %166 = vector.extract %160[2] : bf16 from vector<4xbf16>
            %167 = vector.extract %160[3] : bf16 from vector<4xbf16>
            %168 = vector.extract %161[0] : bf16 from vector<4xbf16>
            %169 = vector.extract %161[1] : bf16 from vector<4xbf16>
            %170 = vector.extract %161[2] : bf16 from vector<4xbf16>
            %171 = vector.extract %161[3] : bf16 from vector<4xbf16>
            %172 = vector.extract %162[0] : bf16 from vector<4xbf16>
            %173 = vector.extract %162[1] : bf16 from vector<4xbf16>
            %174 = vector.extract %162[2] : bf16 from vector<4xbf16>
            %175 = vector.extract %162[3] : bf16 from vector<4xbf16>
            %176 = vector.extract %163[0] : bf16 from vector<4xbf16>
            %177 = vector.extract %163[1] : bf16 from vector<4xbf16>
            %178 = vector.extract %163[2] : bf16 from vector<4xbf16>
            %179 = vector.extract %163[3] : bf16 from vector<4xbf16>
            %180 = vector.from_elements %164, %166, %168, %170, %172, %174, %176, %178 : vector<8xbf16>
            %181 = vector.from_elements %165, %167, %169, %171, %173, %175, %177, %179 : vector<8xbf16>
            %182 = amdgpu.transpose_load %alloc[%50, %70] : memref<32x68xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %183 = amdgpu.transpose_load %alloc[%52, %70] : memref<32x68xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
            %184 = vector.insert_strided_slice %182, %cst_4 offsets = [0], strides = [1] : vector<4xbf16> into vector<8xbf16>
            %185 = vector.insert_strided_slice %183, %184 offsets = [4], strides = [1] : vector<4xbf16> into vector<8xbf16>
            %186 = amdgpu.mfma 16x16x32 %180 * %185 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %187 = amdgpu.mfma 16x16x32 %181 * %185 + %arg1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            scf.yield %187, %186 : vector<4xf32>, vector<4xf32>
          }
          %145 = vector.extract %144#1[0] : f32 from vector<4xf32>
          %146 = vector.extract %144#1[1] : f32 from vector<4xf32>
          %147 = vector.extract %144#1[2] : f32 from vector<4xf32>
          %148 = vector.extract %144#1[3] : f32 from vector<4xf32>
          %149 = vector.extract %144#0[0] : f32 from vector<4xf32>
          %150 = vector.extract %144#0[1] : f32 from vector<4xf32>
          %151 = vector.extract %144#0[2] : f32 from vector<4xf32>
          %152 = vector.extract %144#0[3] : f32 from vector<4xf32>
          %153 = vector.from_elements %145, %146, %147, %148, %149, %150, %151, %152 : vector<8xf32>
          vector.scatter %collapse_shape[%c0] [%134], %143, %153 : memref<1792xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xindex>, vector<8xi1>, vector<8xf32>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_6 : memref<32x36xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x68xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_28x64x160_bf16xbf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c1, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

