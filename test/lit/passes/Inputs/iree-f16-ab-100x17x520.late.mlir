#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_100x17x520_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_100x17x520_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c17_i32 = arith.constant 17 : i32
          %c8_i32 = arith.constant 8 : i32
          %cst = arith.constant dense<17> : vector<1xi32>
          %cst_0 = arith.constant dense<32> : vector<1xi32>
          %c100_i32 = arith.constant 100 : i32
          %c4_i32 = arith.constant 4 : i32
          %c1_i32 = arith.constant 1 : i32
          %c65_i32 = arith.constant 65 : i32
          %c16_i32 = arith.constant 16 : i32
          %c32_i32 = arith.constant 32 : i32
          %c2_i32 = arith.constant 2 : i32
          %c0_i32 = arith.constant 0 : i32
          %c64_i32 = arith.constant 64 : i32
          %cst_1 = arith.constant dense<17> : vector<1xindex>
          %cst_2 = arith.constant dense<100> : vector<1xindex>
          %cst_3 = arith.constant dense<8> : vector<1xindex>
          %cst_4 = arith.constant dense<0.000000e+00> : vector<1xf16>
          %cst_5 = arith.constant dense<0.000000e+00> : vector<4xf16>
          %c0 = arith.constant 0 : index
          %cst_6 = arith.constant dense<0.000000e+00> : vector<16xf32>
          %alloc = memref.alloc() : memref<8x32xf16, #gpu.address_space<workgroup>>
          %alloc_7 = memref.alloc() : memref<128x8xf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<100x520xf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<100x520xf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<100x520xf16, #gpu.address_space<global>> to memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<520x17xf16, #gpu.address_space<global>>
          %assume_align_8 = memref.assume_alignment %2, 64 : memref<520x17xf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<520x17xf16, #gpu.address_space<global>> to memref<520x17xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<100x17xf32, #gpu.address_space<global>>
          %assume_align_9 = memref.assume_alignment %4, 64 : memref<100x17xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_9 resetOffset : memref<100x17xf32, #gpu.address_space<global>> to memref<100x17xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c64_i32 : i32
          %8 = arith.remui %6, %c64_i32 : i32
          %9 = arith.divui %8, %c32_i32 : i32
          %10 = arith.remui %8, %c32_i32 : i32
          %11 = arith.muli %9, %c4_i32 overflow<nsw> : i32
          %12 = arith.index_castui %11 : i32 to index
          %13 = arith.divui %6, %c2_i32 : i32
          %14 = arith.index_castui %13 : i32 to index
          %15 = arith.remui %6, %c2_i32 : i32
          %16 = arith.minui %13, %c100_i32 : i32
          %17 = arith.index_castui %16 : i32 to index
          %18 = arith.subi %c100_i32, %16 : i32
          %19 = arith.minui %18, %c1_i32 : i32
          %20 = arith.index_castui %19 : i32 to index
          %21 = arith.divui %6, %c32_i32 : i32
          %22 = arith.index_castui %21 : i32 to index
          %23 = arith.remui %6, %c32_i32 : i32
          %24 = arith.index_castui %23 : i32 to index
          %25 = arith.minui %23, %c17_i32 : i32
          %26 = arith.index_castui %25 : i32 to index
          %27 = arith.subi %c17_i32, %25 : i32
          %28 = arith.minui %27, %c1_i32 : i32
          %29 = arith.index_castui %28 : i32 to index
          %30 = arith.index_castui %20 : index to i1
          %31 = arith.index_castui %29 : index to i1
          %32 = gpu.lane_id upper_bound 64
          %33 = arith.index_castui %32 : index to i32
          %34 = arith.remui %33, %c16_i32 : i32
          %35 = arith.divui %34, %c4_i32 : i32
          %36 = arith.subi %10, %34 : i32
          %37 = arith.remui %34, %c4_i32 : i32
          %38 = arith.muli %37, %c4_i32 : i32
          %39 = arith.addi %36, %38 : i32
          %40 = arith.index_cast %39 : i32 to index
          %41 = arith.addi %11, %35 : i32
          %42 = arith.index_castui %41 : i32 to index
          %43 = arith.muli %15, %c4_i32 overflow<nsw> : i32
          %44 = arith.index_castui %43 : i32 to index
          %collapse_shape = memref.collapse_shape %5 [[0, 1]] : memref<100x17xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<1700xf32, #amdgpu.address_space<fat_raw_buffer>>
          %45 = vector.step : vector<4xindex>
          %46:4 = vector.to_elements %45 : vector<4xindex>
          %47 = vector.broadcast %46#0 : index to vector<1xindex>
          %48 = vector.broadcast %46#1 : index to vector<1xindex>
          %49 = vector.broadcast %46#2 : index to vector<1xindex>
          %50 = vector.broadcast %46#3 : index to vector<1xindex>
          %51 = vector.broadcast %7 : i32 to vector<1xi32>
          %52 = vector.extract %45[0] : index from vector<4xindex>
          %53 = vector.broadcast %52 : index to vector<1xindex>
          %54 = vector.extract %45[1] : index from vector<4xindex>
          %55 = vector.broadcast %54 : index to vector<1xindex>
          %56 = vector.extract %45[2] : index from vector<4xindex>
          %57 = vector.broadcast %56 : index to vector<1xindex>
          %58 = vector.extract %45[3] : index from vector<4xindex>
          %59 = vector.broadcast %58 : index to vector<1xindex>
          %60 = vector.broadcast %11 : i32 to vector<1xi32>
          %61 = arith.index_castui %53 : vector<1xindex> to vector<1xi32>
          %62 = arith.addi %61, %60 : vector<1xi32>
          %63 = arith.index_castui %62 : vector<1xi32> to vector<1xindex>
          %64 = arith.index_castui %55 : vector<1xindex> to vector<1xi32>
          %65 = arith.addi %64, %60 : vector<1xi32>
          %66 = arith.index_castui %65 : vector<1xi32> to vector<1xindex>
          %67 = arith.index_castui %57 : vector<1xindex> to vector<1xi32>
          %68 = arith.addi %67, %60 : vector<1xi32>
          %69 = arith.index_castui %68 : vector<1xi32> to vector<1xindex>
          %70 = arith.index_castui %59 : vector<1xindex> to vector<1xi32>
          %71 = arith.addi %70, %60 : vector<1xi32>
          %72 = arith.index_castui %71 : vector<1xi32> to vector<1xindex>
          %73 = vector.broadcast %10 : i32 to vector<1xi32>
          %74 = arith.muli %51, %cst_0 overflow<nsw> : vector<1xi32>
          %75 = arith.index_castui %74 : vector<1xi32> to vector<1xindex>
          %76 = arith.muli %47, %cst_3 overflow<nsw> : vector<1xindex>
          %77 = arith.muli %48, %cst_3 overflow<nsw> : vector<1xindex>
          %78 = arith.muli %49, %cst_3 overflow<nsw> : vector<1xindex>
          %79 = arith.muli %50, %cst_3 overflow<nsw> : vector<1xindex>
          %80 = arith.addi %75, %76 overflow<nsw> : vector<1xindex>
          %81 = arith.addi %75, %77 overflow<nsw> : vector<1xindex>
          %82 = arith.addi %75, %78 overflow<nsw> : vector<1xindex>
          %83 = arith.addi %75, %79 overflow<nsw> : vector<1xindex>
          %84 = arith.addi %80, %63 overflow<nsw> : vector<1xindex>
          %85 = arith.addi %80, %66 overflow<nsw> : vector<1xindex>
          %86 = arith.addi %80, %69 overflow<nsw> : vector<1xindex>
          %87 = arith.addi %80, %72 overflow<nsw> : vector<1xindex>
          %88 = arith.addi %81, %63 overflow<nsw> : vector<1xindex>
          %89 = arith.addi %81, %66 overflow<nsw> : vector<1xindex>
          %90 = arith.addi %81, %69 overflow<nsw> : vector<1xindex>
          %91 = arith.addi %81, %72 overflow<nsw> : vector<1xindex>
          %92 = arith.addi %82, %63 overflow<nsw> : vector<1xindex>
          %93 = arith.addi %82, %66 overflow<nsw> : vector<1xindex>
          %94 = arith.addi %82, %69 overflow<nsw> : vector<1xindex>
          %95 = arith.addi %82, %72 overflow<nsw> : vector<1xindex>
          %96 = arith.addi %83, %63 overflow<nsw> : vector<1xindex>
          %97 = arith.addi %83, %66 overflow<nsw> : vector<1xindex>
          %98 = arith.addi %83, %69 overflow<nsw> : vector<1xindex>
          %99 = arith.addi %83, %72 overflow<nsw> : vector<1xindex>
          %100 = arith.cmpi ult, %84, %cst_2 : vector<1xindex>
          %101 = arith.cmpi ult, %85, %cst_2 : vector<1xindex>
          %102 = arith.cmpi ult, %86, %cst_2 : vector<1xindex>
          %103 = arith.cmpi ult, %87, %cst_2 : vector<1xindex>
          %104 = arith.cmpi ult, %88, %cst_2 : vector<1xindex>
          %105 = arith.cmpi ult, %89, %cst_2 : vector<1xindex>
          %106 = arith.cmpi ult, %90, %cst_2 : vector<1xindex>
          %107 = arith.cmpi ult, %91, %cst_2 : vector<1xindex>
          %108 = arith.cmpi ult, %92, %cst_2 : vector<1xindex>
          %109 = arith.cmpi ult, %93, %cst_2 : vector<1xindex>
          %110 = arith.cmpi ult, %94, %cst_2 : vector<1xindex>
          %111 = arith.cmpi ult, %95, %cst_2 : vector<1xindex>
          %112 = arith.cmpi ult, %96, %cst_2 : vector<1xindex>
          %113 = arith.cmpi ult, %97, %cst_2 : vector<1xindex>
          %114 = arith.cmpi ult, %98, %cst_2 : vector<1xindex>
          %115 = arith.cmpi ult, %99, %cst_2 : vector<1xindex>
          %116 = arith.cmpi ult, %73, %cst : vector<1xi32>
          %117 = vector.extract %116[0] : i1 from vector<1xi1>
          %118 = vector.broadcast %117 : i1 to vector<1xi1>
          %119 = arith.andi %100, %118 : vector<1xi1>
          %120 = arith.andi %101, %118 : vector<1xi1>
          %121 = arith.andi %102, %118 : vector<1xi1>
          %122 = arith.andi %103, %118 : vector<1xi1>
          %123 = arith.andi %104, %118 : vector<1xi1>
          %124 = arith.andi %105, %118 : vector<1xi1>
          %125 = arith.andi %106, %118 : vector<1xi1>
          %126 = arith.andi %107, %118 : vector<1xi1>
          %127 = arith.andi %108, %118 : vector<1xi1>
          %128 = arith.andi %109, %118 : vector<1xi1>
          %129 = arith.andi %110, %118 : vector<1xi1>
          %130 = arith.andi %111, %118 : vector<1xi1>
          %131 = arith.andi %112, %118 : vector<1xi1>
          %132 = arith.andi %113, %118 : vector<1xi1>
          %133 = arith.andi %114, %118 : vector<1xi1>
          %134 = arith.andi %115, %118 : vector<1xi1>
          %135 = arith.muli %84, %cst_1 overflow<nsw> : vector<1xindex>
          %136 = arith.muli %85, %cst_1 overflow<nsw> : vector<1xindex>
          %137 = arith.muli %86, %cst_1 overflow<nsw> : vector<1xindex>
          %138 = arith.muli %87, %cst_1 overflow<nsw> : vector<1xindex>
          %139 = arith.muli %88, %cst_1 overflow<nsw> : vector<1xindex>
          %140 = arith.muli %89, %cst_1 overflow<nsw> : vector<1xindex>
          %141 = arith.muli %90, %cst_1 overflow<nsw> : vector<1xindex>
          %142 = arith.muli %91, %cst_1 overflow<nsw> : vector<1xindex>
          %143 = arith.muli %92, %cst_1 overflow<nsw> : vector<1xindex>
          %144 = arith.muli %93, %cst_1 overflow<nsw> : vector<1xindex>
          %145 = arith.muli %94, %cst_1 overflow<nsw> : vector<1xindex>
          %146 = arith.muli %95, %cst_1 overflow<nsw> : vector<1xindex>
          %147 = arith.muli %96, %cst_1 overflow<nsw> : vector<1xindex>
          %148 = arith.muli %97, %cst_1 overflow<nsw> : vector<1xindex>
          %149 = arith.muli %98, %cst_1 overflow<nsw> : vector<1xindex>
          %150 = arith.muli %99, %cst_1 overflow<nsw> : vector<1xindex>
          %151 = arith.index_castui %73 : vector<1xi32> to vector<1xindex>
          %152 = arith.addi %135, %151 overflow<nsw> : vector<1xindex>
          %153 = arith.addi %136, %151 overflow<nsw> : vector<1xindex>
          %154 = arith.addi %137, %151 overflow<nsw> : vector<1xindex>
          %155 = arith.addi %138, %151 overflow<nsw> : vector<1xindex>
          %156 = arith.addi %139, %151 overflow<nsw> : vector<1xindex>
          %157 = arith.addi %140, %151 overflow<nsw> : vector<1xindex>
          %158 = arith.addi %141, %151 overflow<nsw> : vector<1xindex>
          %159 = arith.addi %142, %151 overflow<nsw> : vector<1xindex>
          %160 = arith.addi %143, %151 overflow<nsw> : vector<1xindex>
          %161 = arith.addi %144, %151 overflow<nsw> : vector<1xindex>
          %162 = arith.addi %145, %151 overflow<nsw> : vector<1xindex>
          %163 = arith.addi %146, %151 overflow<nsw> : vector<1xindex>
          %164 = arith.addi %147, %151 overflow<nsw> : vector<1xindex>
          %165 = arith.addi %148, %151 overflow<nsw> : vector<1xindex>
          %166 = arith.addi %149, %151 overflow<nsw> : vector<1xindex>
          %167 = arith.addi %150, %151 overflow<nsw> : vector<1xindex>
          %168 = vector.extract %152[0] : index from vector<1xindex>
          %169 = vector.extract %153[0] : index from vector<1xindex>
          %170 = vector.extract %154[0] : index from vector<1xindex>
          %171 = vector.extract %155[0] : index from vector<1xindex>
          %172 = vector.extract %156[0] : index from vector<1xindex>
          %173 = vector.extract %157[0] : index from vector<1xindex>
          %174 = vector.extract %158[0] : index from vector<1xindex>
          %175 = vector.extract %159[0] : index from vector<1xindex>
          %176 = vector.extract %160[0] : index from vector<1xindex>
          %177 = vector.extract %161[0] : index from vector<1xindex>
          %178 = vector.extract %162[0] : index from vector<1xindex>
          %179 = vector.extract %163[0] : index from vector<1xindex>
          %180 = vector.extract %164[0] : index from vector<1xindex>
          %181 = vector.extract %165[0] : index from vector<1xindex>
          %182 = vector.extract %166[0] : index from vector<1xindex>
          %183 = vector.extract %167[0] : index from vector<1xindex>
          %184 = vector.from_elements %168, %169, %170, %171, %172, %173, %174, %175, %176, %177, %178, %179, %180, %181, %182, %183 : vector<16xindex>
          %185 = vector.extract %119[0] : i1 from vector<1xi1>
          %186 = vector.extract %120[0] : i1 from vector<1xi1>
          %187 = vector.extract %121[0] : i1 from vector<1xi1>
          %188 = vector.extract %122[0] : i1 from vector<1xi1>
          %189 = vector.extract %123[0] : i1 from vector<1xi1>
          %190 = vector.extract %124[0] : i1 from vector<1xi1>
          %191 = vector.extract %125[0] : i1 from vector<1xi1>
          %192 = vector.extract %126[0] : i1 from vector<1xi1>
          %193 = vector.extract %127[0] : i1 from vector<1xi1>
          %194 = vector.extract %128[0] : i1 from vector<1xi1>
          %195 = vector.extract %129[0] : i1 from vector<1xi1>
          %196 = vector.extract %130[0] : i1 from vector<1xi1>
          %197 = vector.extract %131[0] : i1 from vector<1xi1>
          %198 = vector.extract %132[0] : i1 from vector<1xi1>
          %199 = vector.extract %133[0] : i1 from vector<1xi1>
          %200 = vector.extract %134[0] : i1 from vector<1xi1>
          %201 = vector.from_elements %185, %186, %187, %188, %189, %190, %191, %192, %193, %194, %195, %196, %197, %198, %199, %200 : vector<16xi1>
          %202 = arith.muli %7, %c32_i32 overflow<nsw> : i32
          %203 = arith.addi %202, %10 overflow<nsw> : i32
          %204 = arith.index_castui %203 : i32 to index
          %205 = scf.for %arg0 = %c0_i32 to %c65_i32 step %c1_i32 iter_args(%arg1 = %cst_6) -> (vector<16xf32>)  : i32 {
            %206 = arith.muli %arg0, %c8_i32 overflow<nsw> : i32
            %207 = arith.addi %43, %206 : i32
            %208 = arith.index_castui %207 : i32 to index
            %209 = vector.load %1[%17, %208] : memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf16>
            %210 = arith.select %30, %209, %cst_5 : vector<4xf16>
            %211 = arith.addi %21, %206 : i32
            %212 = arith.index_castui %211 : i32 to index
            %213 = vector.load %3[%212, %26] : memref<520x17xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf16>
            %214 = arith.select %31, %213, %cst_4 : vector<1xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %210, %alloc_7[%14, %44] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<4xf16>
            vector.store %214, %alloc[%22, %24] : memref<8x32xf16, #gpu.address_space<workgroup>>, vector<1xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %215 = vector.load %alloc_7[%204, %12] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<4xf16>
            %216 = amdgpu.transpose_load %alloc[%42, %40] : memref<8x32xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %217 = amdgpu.mfma 32x32x8 %215 * %216 + %arg1 : vector<4xf16>, vector<4xf16>, vector<16xf32>
            scf.yield %217 : vector<16xf32>
          }
          vector.scatter %collapse_shape[%c0] [%184], %201, %205 : memref<1700xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_7 : memref<128x8xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<8x32xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_100x17x520_f16xf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c1, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

