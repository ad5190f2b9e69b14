#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_32x512x96_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_32x512x96_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c1024_i32 = arith.constant 1024 : i32
          %c256_i32 = arith.constant 256 : i32
          %c4_i32 = arith.constant 4 : i32
          %c2_i32 = arith.constant 2 : i32
          %c16_i32 = arith.constant 16 : i32
          %c1_i32 = arith.constant 1 : i32
          %c3_i32 = arith.constant 3 : i32
          %c512_i32 = arith.constant 512 : i32
          %c32_i32 = arith.constant 32 : i32
          %c-1_i32 = arith.constant -1 : i32
          %c8_i32 = arith.constant 8 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %c32 = arith.constant 32 : index
          %c8 = arith.constant 8 : index
          %c0 = arith.constant 0 : index
          %cst = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<2048xf16, #gpu.address_space<workgroup>>
          %alloc_0 = memref.alloc() : memref<1024xf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<32x96xf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<32x96xf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<32x96xf16, #gpu.address_space<global>> to memref<32x96xf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<512x96xf16, #gpu.address_space<global>>
          %assume_align_1 = memref.assume_alignment %2, 64 : memref<512x96xf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_1 resetOffset : memref<512x96xf16, #gpu.address_space<global>> to memref<512x96xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<32x512xf32, #gpu.address_space<global>>
          %assume_align_2 = memref.assume_alignment %4, 64 : memref<32x512xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_2 resetOffset : memref<32x512xf32, #gpu.address_space<global>> to memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c128_i32 : i32
          %8 = arith.remui %6, %c128_i32 : i32
          %9 = arith.divui %8, %c64_i32 : i32
          %10 = arith.remui %6, %c64_i32 : i32
          %11 = arith.divui %10, %c16_i32 : i32
          %12 = arith.remui %10, %c16_i32 : i32
          %13 = arith.muli %11, %c4_i32 overflow<nsw> : i32
          %14 = arith.divui %6, %c64_i32 : i32
          %15 = arith.muli %11, %c8_i32 overflow<nsw> : i32
          %16 = arith.muli %10, %c2_i32 : i32
          %17 = arith.muli %14, %c256_i32 overflow<nsw> : i32
          %18 = arith.index_castui %17 : i32 to index
          %19 = arith.addi %17, %16 : i32
          %20 = arith.index_castui %19 : i32 to index
          %21 = arith.remui %19, %c8_i32 : i32
          %22 = arith.subi %19, %21 : i32
          %23 = arith.index_cast %22 : i32 to index
          %24 = arith.remsi %22, %c64_i32 : i32
          %25 = arith.index_cast %24 : i32 to index
          %26 = arith.cmpi slt, %24, %c0_i32 : i32
          %27 = arith.addi %24, %c64_i32 : i32
          %28 = arith.index_castui %27 : i32 to index
          %29 = arith.select %26, %28, %25 : index
          %30 = arith.index_cast %29 : index to i32
          %31 = arith.cmpi slt, %30, %c0_i32 : i32
          %32 = arith.subi %c-1_i32, %30 : i32
          %33 = arith.index_cast %32 : i32 to index
          %34 = arith.select %31, %33, %29 : index
          %35 = arith.index_cast %34 : index to i32
          %36 = arith.divsi %35, %c8_i32 : i32
          %37 = arith.index_cast %36 : i32 to index
          %38 = arith.subi %c-1_i32, %36 : i32
          %39 = arith.index_cast %38 : i32 to index
          %40 = arith.select %31, %39, %37 : index
          %41 = arith.cmpi slt, %22, %c0_i32 : i32
          %42 = arith.subi %c-1_i32, %22 : i32
          %43 = arith.index_cast %42 : i32 to index
          %44 = arith.select %41, %43, %23 : index
          %45 = arith.index_cast %44 : index to i32
          %46 = arith.divsi %45, %c64_i32 : i32
          %47 = arith.index_cast %46 : i32 to index
          %48 = arith.subi %c-1_i32, %46 : i32
          %49 = arith.index_cast %48 : i32 to index
          %50 = arith.select %41, %49, %47 : index
          %51 = arith.index_cast %50 : index to i32
          %52 = arith.remsi %51, %c8_i32 : i32
          %53 = arith.index_cast %52 : i32 to index
          %54 = arith.cmpi slt, %52, %c0_i32 : i32
          %55 = arith.addi %52, %c8_i32 : i32
          %56 = arith.index_castui %55 : i32 to index
          %57 = arith.select %54, %56, %53 : index
          %58 = arith.xori %57, %40 : index
          %59 = arith.muli %51, %c64_i32 overflow<nsw> : i32
          %60 = arith.index_cast %59 : i32 to index
          %61 = arith.muli %58, %c8 overflow<nsw> : index
          %62 = arith.addi %60, %61 : index
          %63 = arith.subi %62, %23 : index
          %64 = arith.addi %20, %63 : index
          %65 = arith.subi %64, %18 : index
          %66 = arith.floordivsi %65, %c32 : index
          %67 = arith.remsi %65, %c32 : index
          %68 = arith.index_cast %67 : index to i32
          %69 = arith.cmpi slt, %68, %c0_i32 : i32
          %70 = arith.addi %68, %c32_i32 overflow<nsw> : i32
          %71 = arith.index_castui %70 : i32 to index
          %72 = arith.select %69, %71, %67 : index
          %73 = arith.addi %16, %c128_i32 : i32
          %74 = arith.addi %17, %73 : i32
          %75 = arith.remui %74, %c8_i32 : i32
          %76 = arith.subi %74, %75 : i32
          %77 = arith.remui %76, %c64_i32 : i32
          %78 = arith.divui %77, %c8_i32 : i32
          %79 = arith.divui %76, %c64_i32 : i32
          %80 = arith.remui %79, %c8_i32 : i32
          %81 = arith.xori %80, %78 : i32
          %82 = arith.muli %79, %c64_i32 overflow<nsw> : i32
          %83 = arith.muli %81, %c8_i32 overflow<nsw> : i32
          %84 = arith.addi %82, %83 : i32
          %85 = arith.subi %84, %76 : i32
          %86 = arith.addi %74, %85 : i32
          %87 = arith.subi %86, %17 : i32
          %88 = arith.floordivsi %87, %c32_i32 : i32
          %89 = arith.remsi %87, %c32_i32 : i32
          %90 = arith.index_cast %89 : i32 to index
          %91 = arith.cmpi slt, %89, %c0_i32 : i32
          %92 = arith.addi %89, %c32_i32 overflow<nsw> : i32
          %93 = arith.index_castui %92 : i32 to index
          %94 = arith.select %91, %93, %90 : index
          %95 = arith.muli %10, %c8_i32 : i32
          %96 = arith.muli %14, %c512_i32 overflow<nsw> : i32
          %97 = arith.addi %96, %95 : i32
          %98 = arith.remui %97, %c64_i32 : i32
          %99 = arith.divui %98, %c8_i32 : i32
          %100 = arith.divui %97, %c64_i32 : i32
          %101 = arith.remui %100, %c8_i32 : i32
          %102 = arith.xori %101, %99 : i32
          %103 = arith.muli %100, %c64_i32 overflow<nsw> : i32
          %104 = arith.muli %102, %c8_i32 overflow<nsw> : i32
          %105 = arith.addi %103, %104 : i32
          %106 = arith.subi %105, %96 : i32
          %107 = arith.floordivsi %106, %c32_i32 : i32
          %108 = arith.remsi %106, %c32_i32 : i32
          %109 = arith.index_cast %108 : i32 to index
          %110 = arith.cmpi slt, %108, %c0_i32 : i32
          %111 = arith.addi %108, %c32_i32 overflow<nsw> : i32
          %112 = arith.index_castui %111 : i32 to index
          %113 = arith.select %110, %112, %109 : index
          %114 = arith.muli %14, %c8_i32 overflow<nsw> : i32
          %115 = arith.index_castui %114 : i32 to index
          %116 = arith.addi %66, %115 : index
          %117 = arith.addi %88, %114 : i32
          %118 = arith.index_cast %117 : i32 to index
          %119 = arith.addi %17, %c128_i32 overflow<nsw> : i32
          %120 = arith.index_castui %119 : i32 to index
          %121 = arith.muli %14, %c16_i32 overflow<nsw> : i32
          %122 = arith.index_castui %96 : i32 to index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 8 : index
          %123 = arith.addi %107, %121 : i32
          %124 = arith.index_castui %workgroup_id_x : index to i32
          %125 = arith.muli %124, %c64_i32 overflow<nsw> : i32
          %126 = arith.addi %123, %125 : i32
          %127 = arith.index_cast %126 : i32 to index
          %128 = arith.muli %7, %c512_i32 overflow<nsw> : i32
          %129 = arith.muli %12, %c32_i32 overflow<nsw> : i32
          %130 = arith.addi %128, %129 overflow<nsw> : i32
          %131 = arith.addi %130, %15 overflow<nsw> : i32
          %132 = arith.remui %131, %c64_i32 : i32
          %133 = arith.divui %132, %c8_i32 : i32
          %134 = arith.divui %131, %c64_i32 : i32
          %135 = arith.remui %134, %c8_i32 : i32
          %136 = arith.xori %135, %133 : i32
          %137 = arith.muli %134, %c64_i32 overflow<nsw> : i32
          %138 = arith.muli %136, %c8_i32 overflow<nsw> : i32
          %139 = arith.addi %137, %138 : i32
          %140 = arith.index_castui %139 : i32 to index
          %141 = arith.muli %9, %c2_i32 overflow<nsw> : i32
          %142 = arith.muli %9, %c1024_i32 overflow<nsw> : i32
          %143 = arith.addi %142, %129 overflow<nsw> : i32
          %144 = arith.addi %143, %15 overflow<nsw> : i32
          %145 = arith.remui %144, %c64_i32 : i32
          %146 = arith.divui %145, %c8_i32 : i32
          %147 = arith.divui %144, %c64_i32 : i32
          %148 = arith.remui %147, %c8_i32 : i32
          %149 = arith.xori %148, %146 : i32
          %150 = arith.muli %147, %c64_i32 overflow<nsw> : i32
          %151 = arith.muli %149, %c8_i32 overflow<nsw> : i32
          %152 = arith.addi %150, %151 : i32
          %153 = arith.subi %152, %144 : i32
          %154 = arith.index_castui %152 : i32 to index
          %155 = arith.addi %144, %c512_i32 overflow<nsw> : i32
          %156 = arith.addi %155, %153 : i32
          %157 = arith.index_cast %156 : i32 to index
          %158 = arith.index_cast %72 : index to i32
          %159 = arith.index_cast %94 : index to i32
          %160 = arith.index_cast %113 : index to i32
          %161:2 = scf.for %arg0 = %c0_i32 to %c3_i32 step %c1_i32 iter_args(%arg1 = %cst, %arg2 = %cst) -> (vector<4xf32>, vector<4xf32>)  : i32 {
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %194 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %195 = arith.addi %158, %194 : i32
            %196 = arith.index_cast %195 : i32 to index
            amdgpu.gather_to_lds %1[%116, %196], %alloc_0[%18] : vector<2xf16>, memref<32x96xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<1024xf16, #gpu.address_space<workgroup>>
            %197 = arith.addi %159, %194 : i32
            %198 = arith.index_cast %197 : i32 to index
            amdgpu.gather_to_lds %1[%118, %198], %alloc_0[%120] : vector<2xf16>, memref<32x96xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<1024xf16, #gpu.address_space<workgroup>>
            %199 = arith.addi %160, %194 : i32
            %200 = arith.index_cast %199 : i32 to index
            amdgpu.gather_to_lds %3[%127, %200], %alloc[%122] : vector<8xf16>, memref<512x96xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<2048xf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %201 = vector.load %alloc_0[%140] : memref<1024xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %202 = vector.load %alloc[%154] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %203 = vector.load %alloc[%157] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %204 = amdgpu.mfma 16x16x32 %201 * %202 + %arg2 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %205 = amdgpu.mfma 16x16x32 %201 * %203 + %arg1 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            scf.yield %205, %204 : vector<4xf32>, vector<4xf32>
          }
          %162 = vector.extract %161#1[0] : f32 from vector<4xf32>
          %163 = vector.broadcast %162 : f32 to vector<1xf32>
          %164 = vector.extract %161#1[1] : f32 from vector<4xf32>
          %165 = vector.broadcast %164 : f32 to vector<1xf32>
          %166 = vector.extract %161#1[2] : f32 from vector<4xf32>
          %167 = vector.broadcast %166 : f32 to vector<1xf32>
          %168 = vector.extract %161#1[3] : f32 from vector<4xf32>
          %169 = vector.broadcast %168 : f32 to vector<1xf32>
          %170 = vector.extract %161#0[0] : f32 from vector<4xf32>
          %171 = vector.broadcast %170 : f32 to vector<1xf32>
          %172 = vector.extract %161#0[1] : f32 from vector<4xf32>
          %173 = vector.broadcast %172 : f32 to vector<1xf32>
          %174 = vector.extract %161#0[2] : f32 from vector<4xf32>
          %175 = vector.broadcast %174 : f32 to vector<1xf32>
          %176 = vector.extract %161#0[3] : f32 from vector<4xf32>
          %177 = vector.broadcast %176 : f32 to vector<1xf32>
          %178 = arith.muli %124, %c4_i32 overflow<nsw> : i32
          %179 = arith.addi %141, %178 : i32
          %180 = arith.muli %7, %c16_i32 overflow<nsw> : i32
          %181 = arith.addi %180, %13 overflow<nsw> : i32
          %182 = arith.index_castui %181 : i32 to index
          %183 = arith.muli %179, %c16_i32 overflow<nsw> : i32
          %184 = arith.addi %183, %12 overflow<nsw> : i32
          %185 = arith.index_castui %184 : i32 to index
          vector.store %163, %5[%182, %185] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %186 = arith.addi %184, %c16_i32 overflow<nsw> : i32
          %187 = arith.index_castui %186 : i32 to index
          vector.store %171, %5[%182, %187] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %188 = arith.addi %181, %c1_i32 overflow<nsw> : i32
          %189 = arith.index_castui %188 : i32 to index
          vector.store %165, %5[%189, %185] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %173, %5[%189, %187] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %190 = arith.addi %181, %c2_i32 overflow<nsw> : i32
          %191 = arith.index_castui %190 : i32 to index
          vector.store %167, %5[%191, %185] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %175, %5[%191, %187] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %192 = arith.addi %181, %c3_i32 overflow<nsw> : i32
          %193 = arith.index_castui %192 : i32 to index
          vector.store %169, %5[%193, %185] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %177, %5[%193, %187] : memref<32x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          memref.dealloc %alloc_0 : memref<1024xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<2048xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_32x512x96_f16xf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c8 = arith.constant 8 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c8, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

