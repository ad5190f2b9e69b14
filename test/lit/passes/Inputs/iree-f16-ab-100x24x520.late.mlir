#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c2_i32 = arith.constant 2 : i32
          %c32_i32 = arith.constant 32 : i32
          %cst = arith.constant dense<24> : vector<1xi32>
          %cst_0 = arith.constant dense<32> : vector<1xi32>
          %c4_i32 = arith.constant 4 : i32
          %c24_i32 = arith.constant 24 : i32
          %c256_i32 = arith.constant 256 : i32
          %c1_i32 = arith.constant 1 : i32
          %c65_i32 = arith.constant 65 : i32
          %c16_i32 = arith.constant 16 : i32
          %c128_i32 = arith.constant 128 : i32
          %c8_i32 = arith.constant 8 : i32
          %c100_i32 = arith.constant 100 : i32
          %c0_i32 = arith.constant 0 : i32
          %c64_i32 = arith.constant 64 : i32
          %cst_1 = arith.constant dense<24> : vector<1xindex>
          %cst_2 = arith.constant dense<100> : vector<1xindex>
          %cst_3 = arith.constant dense<8> : vector<1xindex>
          %c520 = arith.constant 520 : index
          %cst_4 = arith.constant 0.000000e+00 : f16
          %c100 = arith.constant 100 : index
          %c0 = arith.constant 0 : index
          %cst_5 = arith.constant dense<0.000000e+00> : vector<16xf32>
          %alloc = memref.alloc() : memref<8x32xf16, #gpu.address_space<workgroup>>
          %alloc_6 = memref.alloc() : memref<128x8xf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<100x520xf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<100x520xf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<100x520xf16, #gpu.address_space<global>> to memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<520x24xf16, #gpu.address_space<global>>
          %assume_align_7 = memref.assume_alignment %2, 64 : memref<520x24xf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<520x24xf16, #gpu.address_space<global>> to memref<520x24xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<100x24xf32, #gpu.address_space<global>>
          %assume_align_8 = memref.assume_alignment %4, 64 : memref<100x24xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_8 resetOffset : memref<100x24xf32, #gpu.address_space<global>> to memref<100x24xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c64_i32 : i32
          %8 = arith.remui %6, %c64_i32 : i32
          %9 = arith.divui %8, %c32_i32 : i32
          %10 = arith.remui %8, %c32_i32 : i32
          %11 = arith.muli %9, %c4_i32 overflow<nsw> : i32
          %12 = arith.index_castui %11 : i32 to index
          %13 = arith.muli %7, %c32_i32 overflow<nsw> : i32
          %14 = arith.index_castui %13 : i32 to index
          %15 = arith.minui %13, %c100_i32 : i32
          %16 = arith.subi %c100_i32, %15 : i32
          %17 = arith.minui %16, %c32_i32 : i32
          %18 = arith.muli %8, %c2_i32 : i32
          %19 = arith.divui %18, %c8_i32 : i32
          %20 = arith.index_castui %19 : i32 to index
          %21 = arith.remui %18, %c8_i32 : i32
          %22 = arith.cmpi uge, %19, %17 : i32
          %23 = arith.select %22, %c100, %20 : index
          %24 = arith.addi %18, %c128_i32 : i32
          %25 = arith.divui %24, %c8_i32 : i32
          %26 = arith.index_castui %25 : i32 to index
          %27 = arith.remui %24, %c8_i32 : i32
          %28 = arith.cmpi uge, %25, %17 : i32
          %29 = arith.select %28, %c100, %26 : index
          %30 = gpu.lane_id upper_bound 64
          %31 = arith.index_castui %30 : index to i32
          %32 = arith.remui %31, %c16_i32 : i32
          %33 = arith.divui %32, %c4_i32 : i32
          %34 = arith.subi %10, %32 : i32
          %35 = arith.remui %32, %c4_i32 : i32
          %36 = arith.muli %35, %c4_i32 : i32
          %37 = arith.addi %34, %36 : i32
          %38 = arith.index_cast %37 : i32 to index
          %39 = arith.addi %11, %33 : i32
          %40 = arith.index_castui %39 : i32 to index
          %41 = arith.index_castui %23 : index to i32
          %42 = arith.addi %15, %41 : i32
          %43 = arith.index_castui %42 : i32 to index
          %44 = arith.index_castui %29 : index to i32
          %45 = arith.addi %15, %44 : i32
          %46 = arith.index_castui %45 : i32 to index
          %47 = arith.addi %13, %c16_i32 overflow<nsw> : i32
          %48 = arith.index_castui %47 : i32 to index
          %collapse_shape = memref.collapse_shape %5 [[0, 1]] : memref<100x24xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<2400xf32, #amdgpu.address_space<fat_raw_buffer>>
          %49 = vector.step : vector<4xindex>
          %50:4 = vector.to_elements %49 : vector<4xindex>
          %51 = vector.broadcast %50#0 : index to vector<1xindex>
          %52 = vector.broadcast %50#1 : index to vector<1xindex>
          %53 = vector.broadcast %50#2 : index to vector<1xindex>
          %54 = vector.broadcast %50#3 : index to vector<1xindex>
          %55 = vector.broadcast %7 : i32 to vector<1xi32>
          %56 = vector.extract %49[0] : index from vector<4xindex>
          %57 = vector.broadcast %56 : index to vector<1xindex>
          %58 = vector.extract %49[1] : index from vector<4xindex>
          %59 = vector.broadcast %58 : index to vector<1xindex>
          %60 = vector.extract %49[2] : index from vector<4xindex>
          %61 = vector.broadcast %60 : index to vector<1xindex>
          %62 = vector.extract %49[3] : index from vector<4xindex>
          %63 = vector.broadcast %62 : index to vector<1xindex>
          %64 = vector.broadcast %11 : i32 to vector<1xi32>
          %65 = arith.index_castui %57 : vector<1xindex> to vector<1xi32>
          %66 = arith.addi %65, %64 : vector<1xi32>
          %67 = arith.index_castui %66 : vector<1xi32> to vector<1xindex>
          %68 = arith.index_castui %59 : vector<1xindex> to vector<1xi32>
          %69 = arith.addi %68, %64 : vector<1xi32>
          %70 = arith.index_castui %69 : vector<1xi32> to vector<1xindex>
          %71 = arith.index_castui %61 : vector<1xindex> to vector<1xi32>
          %72 = arith.addi %71, %64 : vector<1xi32>
          %73 = arith.index_castui %72 : vector<1xi32> to vector<1xindex>
          %74 = arith.index_castui %63 : vector<1xindex> to vector<1xi32>
          %75 = arith.addi %74, %64 : vector<1xi32>
          %76 = arith.index_castui %75 : vector<1xi32> to vector<1xindex>
          %77 = vector.broadcast %10 : i32 to vector<1xi32>
          %78 = arith.muli %55, %cst_0 overflow<nsw> : vector<1xi32>
          %79 = arith.index_castui %78 : vector<1xi32> to vector<1xindex>
          %80 = arith.muli %51, %cst_3 overflow<nsw> : vector<1xindex>
          %81 = arith.muli %52, %cst_3 overflow<nsw> : vector<1xindex>
          %82 = arith.muli %53, %cst_3 overflow<nsw> : vector<1xindex>
          %83 = arith.muli %54, %cst_3 overflow<nsw> : vector<1xindex>
          %84 = arith.addi %79, %80 overflow<nsw> : vector<1xindex>
          %85 = arith.addi %79, %81 overflow<nsw> : vector<1xindex>
          %86 = arith.addi %79, %82 overflow<nsw> : vector<1xindex>
          %87 = arith.addi %79, %83 overflow<nsw> : vector<1xindex>
          %88 = arith.addi %84, %67 overflow<nsw> : vector<1xindex>
          %89 = arith.addi %84, %70 overflow<nsw> : vector<1xindex>
          %90 = arith.addi %84, %73 overflow<nsw> : vector<1xindex>
          %91 = arith.addi %84, %76 overflow<nsw> : vector<1xindex>
          %92 = arith.addi %85, %67 overflow<nsw> : vector<1xindex>
          %93 = arith.addi %85, %70 overflow<nsw> : vector<1xindex>
          %94 = arith.addi %85, %73 overflow<nsw> : vector<1xindex>
          %95 = arith.addi %85, %76 overflow<nsw> : vector<1xindex>
          %96 = arith.addi %86, %67 overflow<nsw> : vector<1xindex>
          %97 = arith.addi %86, %70 overflow<nsw> : vector<1xindex>
          %98 = arith.addi %86, %73 overflow<nsw> : vector<1xindex>
          %99 = arith.addi %86, %76 overflow<nsw> : vector<1xindex>
          %100 = arith.addi %87, %67 overflow<nsw> : vector<1xindex>
          %101 = arith.addi %87, %70 overflow<nsw> : vector<1xindex>
          %102 = arith.addi %87, %73 overflow<nsw> : vector<1xindex>
          %103 = arith.addi %87, %76 overflow<nsw> : vector<1xindex>
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
          %116 = arith.cmpi ult, %100, %cst_2 : vector<1xindex>
          %117 = arith.cmpi ult, %101, %cst_2 : vector<1xindex>
          %118 = arith.cmpi ult, %102, %cst_2 : vector<1xindex>
          %119 = arith.cmpi ult, %103, %cst_2 : vector<1xindex>
          %120 = arith.cmpi ult, %77, %cst : vector<1xi32>
          %121 = vector.extract %120[0] : i1 from vector<1xi1>
          %122 = vector.broadcast %121 : i1 to vector<1xi1>
          %123 = arith.andi %104, %122 : vector<1xi1>
          %124 = arith.andi %105, %122 : vector<1xi1>
          %125 = arith.andi %106, %122 : vector<1xi1>
          %126 = arith.andi %107, %122 : vector<1xi1>
          %127 = arith.andi %108, %122 : vector<1xi1>
          %128 = arith.andi %109, %122 : vector<1xi1>
          %129 = arith.andi %110, %122 : vector<1xi1>
          %130 = arith.andi %111, %122 : vector<1xi1>
          %131 = arith.andi %112, %122 : vector<1xi1>
          %132 = arith.andi %113, %122 : vector<1xi1>
          %133 = arith.andi %114, %122 : vector<1xi1>
          %134 = arith.andi %115, %122 : vector<1xi1>
          %135 = arith.andi %116, %122 : vector<1xi1>
          %136 = arith.andi %117, %122 : vector<1xi1>
          %137 = arith.andi %118, %122 : vector<1xi1>
          %138 = arith.andi %119, %122 : vector<1xi1>
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
          %151 = arith.muli %100, %cst_1 overflow<nsw> : vector<1xindex>
          %152 = arith.muli %101, %cst_1 overflow<nsw> : vector<1xindex>
          %153 = arith.muli %102, %cst_1 overflow<nsw> : vector<1xindex>
          %154 = arith.muli %103, %cst_1 overflow<nsw> : vector<1xindex>
          %155 = arith.index_castui %77 : vector<1xi32> to vector<1xindex>
          %156 = arith.addi %139, %155 overflow<nsw> : vector<1xindex>
          %157 = arith.addi %140, %155 overflow<nsw> : vector<1xindex>
          %158 = arith.addi %141, %155 overflow<nsw> : vector<1xindex>
          %159 = arith.addi %142, %155 overflow<nsw> : vector<1xindex>
          %160 = arith.addi %143, %155 overflow<nsw> : vector<1xindex>
          %161 = arith.addi %144, %155 overflow<nsw> : vector<1xindex>
          %162 = arith.addi %145, %155 overflow<nsw> : vector<1xindex>
          %163 = arith.addi %146, %155 overflow<nsw> : vector<1xindex>
          %164 = arith.addi %147, %155 overflow<nsw> : vector<1xindex>
          %165 = arith.addi %148, %155 overflow<nsw> : vector<1xindex>
          %166 = arith.addi %149, %155 overflow<nsw> : vector<1xindex>
          %167 = arith.addi %150, %155 overflow<nsw> : vector<1xindex>
          %168 = arith.addi %151, %155 overflow<nsw> : vector<1xindex>
          %169 = arith.addi %152, %155 overflow<nsw> : vector<1xindex>
          %170 = arith.addi %153, %155 overflow<nsw> : vector<1xindex>
          %171 = arith.addi %154, %155 overflow<nsw> : vector<1xindex>
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
          %184 = vector.extract %168[0] : index from vector<1xindex>
          %185 = vector.extract %169[0] : index from vector<1xindex>
          %186 = vector.extract %170[0] : index from vector<1xindex>
          %187 = vector.extract %171[0] : index from vector<1xindex>
          %188 = vector.from_elements %172, %173, %174, %175, %176, %177, %178, %179, %180, %181, %182, %183, %184, %185, %186, %187 : vector<16xindex>
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
          %201 = vector.extract %135[0] : i1 from vector<1xi1>
          %202 = vector.extract %136[0] : i1 from vector<1xi1>
          %203 = vector.extract %137[0] : i1 from vector<1xi1>
          %204 = vector.extract %138[0] : i1 from vector<1xi1>
          %205 = vector.from_elements %189, %190, %191, %192, %193, %194, %195, %196, %197, %198, %199, %200, %201, %202, %203, %204 : vector<16xi1>
          %206 = arith.addi %13, %10 overflow<nsw> : i32
          %207 = arith.index_castui %206 : i32 to index
          %208 = scf.for %arg0 = %c0_i32 to %c65_i32 step %c1_i32 iter_args(%arg1 = %cst_5) -> (vector<16xf32>)  : i32 {
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %209 = arith.muli %arg0, %c8_i32 overflow<nsw> : i32
            %210 = arith.addi %21, %209 : i32
            %211 = arith.index_castui %210 : i32 to index
            amdgpu.gather_to_lds %1[%43, %211], %alloc_6[%14, %c0] : vector<2xf16>, memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x8xf16, #gpu.address_space<workgroup>>
            %212 = arith.addi %27, %209 : i32
            %213 = arith.index_castui %212 : i32 to index
            amdgpu.gather_to_lds %1[%46, %213], %alloc_6[%48, %c0] : vector<2xf16>, memref<100x520xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x8xf16, #gpu.address_space<workgroup>>
            scf.for %arg2 = %6 to %c128_i32 step %c256_i32  : i32 {
              %217 = arith.divui %arg2, %c64_i32 : i32
              %218 = arith.remui %arg2, %c64_i32 : i32
              %219 = arith.muli %217, %c4_i32 overflow<nsw> : i32
              %220 = arith.addi %209, %219 : i32
              %221 = arith.index_castui %220 : i32 to index
              %subview = memref.subview %3[%221, 0] [4, 24] [1, 1] : memref<520x24xf16, #amdgpu.address_space<fat_raw_buffer>> to memref<4x24xf16, strided<[24, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
              %222 = arith.divui %218, %c32_i32 : i32
              %223 = arith.index_castui %222 : i32 to index
              %224 = arith.remui %218, %c32_i32 : i32
              %225 = arith.index_castui %224 : i32 to index
              %226 = arith.cmpi uge, %224, %c24_i32 : i32
              %227 = arith.select %226, %c520, %223 : index
              %228 = vector.transfer_read %subview[%227, %225], %cst_4 : memref<4x24xf16, strided<[24, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf16>
              %229 = arith.addi %219, %222 : i32
              %230 = arith.index_castui %229 : i32 to index
              vector.store %228, %alloc[%230, %225] : memref<8x32xf16, #gpu.address_space<workgroup>>, vector<1xf16>
              %231 = arith.addi %218, %c64_i32 : i32
              %232 = arith.divui %231, %c32_i32 : i32
              %233 = arith.index_castui %232 : i32 to index
              %234 = arith.remui %231, %c32_i32 : i32
              %235 = arith.index_castui %234 : i32 to index
              %236 = arith.cmpi uge, %234, %c24_i32 : i32
              %237 = arith.select %236, %c520, %233 : index
              %238 = vector.transfer_read %subview[%237, %235], %cst_4 : memref<4x24xf16, strided<[24, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf16>
              %239 = arith.addi %219, %232 : i32
              %240 = arith.index_castui %239 : i32 to index
              vector.store %238, %alloc[%240, %235] : memref<8x32xf16, #gpu.address_space<workgroup>>, vector<1xf16>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %214 = vector.load %alloc_6[%207, %12] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<4xf16>
            %215 = amdgpu.transpose_load %alloc[%40, %38] : memref<8x32xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %216 = amdgpu.mfma 32x32x8 %214 * %215 + %arg1 : vector<4xf16>, vector<4xf16>, vector<16xf32>
            scf.yield %216 : vector<16xf32>
          }
          vector.scatter %collapse_shape[%c0] [%188], %205, %208 : memref<2400xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_6 : memref<128x8xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<8x32xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c1, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

