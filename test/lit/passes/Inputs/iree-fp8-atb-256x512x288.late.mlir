#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_256x512x288_f8E4M3FNxf8E4M3FNxf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_256x512x288_f8E4M3FNxf8E4M3FNxf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c19_i32 = arith.constant 19 : i32
          %c18_i32 = arith.constant 18 : i32
          %c17_i32 = arith.constant 17 : i32
          %c3_i32 = arith.constant 3 : i32
          %c24_i32 = arith.constant 24 : i32
          %c48_i32 = arith.constant 48 : i32
          %c32_i32 = arith.constant 32 : i32
          %c1_i32 = arith.constant 1 : i32
          %c9_i32 = arith.constant 9 : i32
          %c4_i32 = arith.constant 4 : i32
          %c2_i32 = arith.constant 2 : i32
          %c16_i32 = arith.constant 16 : i32
          %c8_i32 = arith.constant 8 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %c0 = arith.constant 0 : index
          %cst = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>>
          %alloc_0 = memref.alloc() : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<288x256xf8E4M3FN, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<288x256xf8E4M3FN, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<288x256xf8E4M3FN, #gpu.address_space<global>> to memref<288x256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<288x512xf8E4M3FN, #gpu.address_space<global>>
          %assume_align_1 = memref.assume_alignment %2, 64 : memref<288x512xf8E4M3FN, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_1 resetOffset : memref<288x512xf8E4M3FN, #gpu.address_space<global>> to memref<288x512xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<256x512xf32, #gpu.address_space<global>>
          %assume_align_2 = memref.assume_alignment %4, 64 : memref<256x512xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_2 resetOffset : memref<256x512xf32, #gpu.address_space<global>> to memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c128_i32 : i32
          %8 = arith.remui %6, %c128_i32 : i32
          %9 = arith.divui %8, %c64_i32 : i32
          %10 = arith.remui %6, %c64_i32 : i32
          %11 = arith.divui %10, %c16_i32 : i32
          %12 = arith.remui %10, %c16_i32 : i32
          %13 = arith.muli %11, %c4_i32 overflow<nsw> : i32
          %14 = arith.divui %6, %c8_i32 : i32
          %15 = arith.index_castui %14 : i32 to index
          %16 = arith.remui %6, %c8_i32 : i32
          %17 = arith.muli %9, %c4_i32 overflow<nsw> : i32
          %18 = arith.muli %7, %c2_i32 overflow<nsw> : i32
          %19 = arith.muli %11, %c8_i32 overflow<nsw> : i32
          %20 = gpu.lane_id upper_bound 64
          %21 = arith.index_castui %20 : index to i32
          %22 = arith.remui %21, %c16_i32 : i32
          %23 = arith.divui %22, %c2_i32 : i32
          %24 = arith.subi %12, %22 : i32
          %25 = arith.remui %22, %c2_i32 : i32
          %26 = arith.muli %25, %c8_i32 : i32
          %27 = arith.addi %24, %26 : i32
          %28 = arith.divui %23, %c2_i32 : i32
          %29 = arith.remui %23, %c2_i32 : i32
          %30 = arith.addi %19, %28 : i32
          %31 = arith.index_castui %30 : i32 to index
          %32 = arith.addi %18, %29 : i32
          %33 = arith.addi %23, %c8_i32 : i32
          %34 = arith.divui %33, %c2_i32 : i32
          %35 = arith.remui %33, %c2_i32 : i32
          %36 = arith.addi %19, %34 : i32
          %37 = arith.index_castui %36 : i32 to index
          %38 = arith.addi %18, %35 : i32
          %39 = arith.divui %23, %c4_i32 : i32
          %40 = arith.remui %23, %c4_i32 : i32
          %41 = arith.addi %19, %39 : i32
          %42 = arith.index_castui %41 : i32 to index
          %43 = arith.addi %17, %40 : i32
          %44 = arith.divui %33, %c4_i32 : i32
          %45 = arith.remui %33, %c4_i32 : i32
          %46 = arith.addi %19, %44 : i32
          %47 = arith.index_castui %46 : i32 to index
          %48 = arith.addi %17, %45 : i32
          %49 = arith.addi %23, %c16_i32 : i32
          %50 = arith.divui %49, %c4_i32 : i32
          %51 = arith.remui %49, %c4_i32 : i32
          %52 = arith.addi %19, %50 : i32
          %53 = arith.index_castui %52 : i32 to index
          %54 = arith.addi %17, %51 : i32
          %55 = arith.addi %23, %c24_i32 : i32
          %56 = arith.divui %55, %c4_i32 : i32
          %57 = arith.remui %55, %c4_i32 : i32
          %58 = arith.addi %19, %56 : i32
          %59 = arith.index_castui %58 : i32 to index
          %60 = arith.addi %17, %57 : i32
          %61 = arith.muli %16, %c8_i32 overflow<nsw> : i32
          %62 = arith.index_castui %61 : i32 to index
          %63 = arith.muli %16, %c16_i32 overflow<nsw> : i32
          %64 = arith.index_castui %63 : i32 to index
          %65 = arith.muli %32, %c16_i32 overflow<nsw> : i32
          %66 = arith.addi %65, %27 overflow<nsw> : i32
          %67 = arith.index_cast %66 : i32 to index
          %68 = arith.muli %38, %c16_i32 overflow<nsw> : i32
          %69 = arith.addi %68, %27 overflow<nsw> : i32
          %70 = arith.index_cast %69 : i32 to index
          %71 = arith.muli %43, %c16_i32 overflow<nsw> : i32
          %72 = arith.addi %71, %27 overflow<nsw> : i32
          %73 = arith.index_cast %72 : i32 to index
          %74 = arith.muli %48, %c16_i32 overflow<nsw> : i32
          %75 = arith.addi %74, %27 overflow<nsw> : i32
          %76 = arith.index_cast %75 : i32 to index
          %77 = arith.muli %54, %c16_i32 overflow<nsw> : i32
          %78 = arith.addi %77, %27 overflow<nsw> : i32
          %79 = arith.index_cast %78 : i32 to index
          %80 = arith.muli %60, %c16_i32 overflow<nsw> : i32
          %81 = arith.addi %80, %27 overflow<nsw> : i32
          %82 = arith.index_cast %81 : i32 to index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 16 : index
          %83 = arith.index_castui %workgroup_id_x : index to i32
          %84 = arith.divui %83, %c4_i32 : i32
          %85 = arith.remui %83, %c4_i32 : i32
          %86 = arith.muli %84, %c64_i32 overflow<nsw> : i32
          %87 = arith.addi %61, %86 : i32
          %88 = arith.index_castui %87 : i32 to index
          %89 = arith.muli %85, %c128_i32 overflow<nsw> : i32
          %90 = arith.addi %63, %89 : i32
          %91 = arith.index_castui %90 : i32 to index
          %92:8 = scf.for %arg0 = %c0_i32 to %c9_i32 step %c1_i32 iter_args(%arg1 = %cst, %arg2 = %cst, %arg3 = %cst, %arg4 = %cst, %arg5 = %cst, %arg6 = %cst, %arg7 = %cst, %arg8 = %cst) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %187 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %188 = arith.addi %14, %187 : i32
            %189 = arith.index_castui %188 : i32 to index
            %190 = vector.load %1[%189, %88] : memref<288x256xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf8E4M3FN>
            vector.store %190, %alloc_0[%15, %62] : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>>, vector<8xf8E4M3FN>
            %191 = vector.load %3[%189, %91] : memref<288x512xf8E4M3FN, #amdgpu.address_space<fat_raw_buffer>>, vector<16xf8E4M3FN>
            vector.store %191, %alloc[%15, %64] : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %192 = amdgpu.transpose_load %alloc_0[%31, %67] : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
            %193 = amdgpu.transpose_load %alloc_0[%37, %70] : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
            %194 = vector.extract %192[0] : f8E4M3FN from vector<8xf8E4M3FN>
            %195 = vector.extract %192[1] : f8E4M3FN from vector<8xf8E4M3FN>
            %196 = vector.extract %192[2] : f8E4M3FN from vector<8xf8E4M3FN>
            %197 = vector.extract %192[3] : f8E4M3FN from vector<8xf8E4M3FN>
            %198 = vector.extract %192[4] : f8E4M3FN from vector<8xf8E4M3FN>
            %199 = vector.extract %192[5] : f8E4M3FN from vector<8xf8E4M3FN>
            %200 = vector.extract %192[6] : f8E4M3FN from vector<8xf8E4M3FN>
            %201 = vector.extract %192[7] : f8E4M3FN from vector<8xf8E4M3FN>
            %202 = vector.extract %193[0] : f8E4M3FN from vector<8xf8E4M3FN>
            %203 = vector.extract %193[1] : f8E4M3FN from vector<8xf8E4M3FN>
            %204 = vector.extract %193[2] : f8E4M3FN from vector<8xf8E4M3FN>
            %205 = vector.extract %193[3] : f8E4M3FN from vector<8xf8E4M3FN>
            %206 = vector.extract %193[4] : f8E4M3FN from vector<8xf8E4M3FN>
            %207 = vector.extract %193[5] : f8E4M3FN from vector<8xf8E4M3FN>
            %208 = vector.extract %193[6] : f8E4M3FN from vector<8xf8E4M3FN>
            %209 = vector.extract %193[7] : f8E4M3FN from vector<8xf8E4M3FN>
            %210 = vector.from_elements %194, %196, %198, %200, %202, %204, %206, %208 : vector<8xf8E4M3FN>
            %211 = vector.from_elements %195, %197, %199, %201, %203, %205, %207, %209 : vector<8xf8E4M3FN>
            %212 = amdgpu.transpose_load %alloc[%42, %73] : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
            %213 = amdgpu.transpose_load %alloc[%47, %76] : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
            %214 = amdgpu.transpose_load %alloc[%53, %79] : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
            %215 = amdgpu.transpose_load %alloc[%59, %82] : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<8xf8E4M3FN>
            %216 = vector.extract %212[0] : f8E4M3FN from vector<8xf8E4M3FN>
            %217 = vector.extract %212[1] : f8E4M3FN from vector<8xf8E4M3FN>
            %218 = vector.extract %212[2] : f8E4M3FN from vector<8xf8E4M3FN>
            %219 = vector.extract %212[3] : f8E4M3FN from vector<8xf8E4M3FN>
            %220 = vector.extract %212[4] : f8E4M3FN from vector<8xf8E4M3FN>
            %221 = vector.extract %212[5] : f8E4M3FN from vector<8xf8E4M3FN>
            %222 = vector.extract %212[6] : f8E4M3FN from vector<8xf8E4M3FN>
            %223 = vector.extract %212[7] : f8E4M3FN from vector<8xf8E4M3FN>
            %224 = vector.extract %213[0] : f8E4M3FN from vector<8xf8E4M3FN>
            %225 = vector.extract %213[1] : f8E4M3FN from vector<8xf8E4M3FN>
            %226 = vector.extract %213[2] : f8E4M3FN from vector<8xf8E4M3FN>
            %227 = vector.extract %213[3] : f8E4M3FN from vector<8xf8E4M3FN>
            %228 = vector.extract %213[4] : f8E4M3FN from vector<8xf8E4M3FN>
            %229 = vector.extract %213[5] : f8E4M3FN from vector<8xf8E4M3FN>
            %230 = vector.extract %213[6] : f8E4M3FN from vector<8xf8E4M3FN>
            %231 = vector.extract %213[7] : f8E4M3FN from vector<8xf8E4M3FN>
            %232 = vector.extract %214[0] : f8E4M3FN from vector<8xf8E4M3FN>
            %233 = vector.extract %214[1] : f8E4M3FN from vector<8xf8E4M3FN>
            %234 = vector.extract %214[2] : f8E4M3FN from vector<8xf8E4M3FN>
            %235 = vector.extract %214[3] : f8E4M3FN from vector<8xf8E4M3FN>
            %236 = vector.extract %214[4] : f8E4M3FN from vector<8xf8E4M3FN>
            %237 = vector.extract %214[5] : f8E4M3FN from vector<8xf8E4M3FN>
            %238 = vector.extract %214[6] : f8E4M3FN from vector<8xf8E4M3FN>
            %239 = vector.extract %214[7] : f8E4M3FN from vector<8xf8E4M3FN>
            %240 = vector.extract %215[0] : f8E4M3FN from vector<8xf8E4M3FN>
            %241 = vector.extract %215[1] : f8E4M3FN from vector<8xf8E4M3FN>
            %242 = vector.extract %215[2] : f8E4M3FN from vector<8xf8E4M3FN>
            %243 = vector.extract %215[3] : f8E4M3FN from vector<8xf8E4M3FN>
            %244 = vector.extract %215[4] : f8E4M3FN from vector<8xf8E4M3FN>
            %245 = vector.extract %215[5] : f8E4M3FN from vector<8xf8E4M3FN>
            %246 = vector.extract %215[6] : f8E4M3FN from vector<8xf8E4M3FN>
            %247 = vector.extract %215[7] : f8E4M3FN from vector<8xf8E4M3FN>
            %248 = vector.from_elements %216, %220, %224, %228, %232, %236, %240, %244 : vector<8xf8E4M3FN>
            %249 = vector.from_elements %217, %221, %225, %229, %233, %237, %241, %245 : vector<8xf8E4M3FN>
            %250 = vector.from_elements %218, %222, %226, %230, %234, %238, %242, %246 : vector<8xf8E4M3FN>
            %251 = vector.from_elements %219, %223, %227, %231, %235, %239, %243, %247 : vector<8xf8E4M3FN>
            %252 = amdgpu.mfma 16x16x32 %210 * %248 + %arg8 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            %253 = amdgpu.mfma 16x16x32 %210 * %249 + %arg7 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            %254 = amdgpu.mfma 16x16x32 %210 * %250 + %arg6 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            %255 = amdgpu.mfma 16x16x32 %210 * %251 + %arg5 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            %256 = amdgpu.mfma 16x16x32 %211 * %248 + %arg4 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            %257 = amdgpu.mfma 16x16x32 %211 * %249 + %arg3 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            %258 = amdgpu.mfma 16x16x32 %211 * %250 + %arg2 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            %259 = amdgpu.mfma 16x16x32 %211 * %251 + %arg1 : vector<8xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32>
            scf.yield %259, %258, %257, %256, %255, %254, %253, %252 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          %93 = vector.extract %92#7[0] : f32 from vector<4xf32>
          %94 = vector.broadcast %93 : f32 to vector<1xf32>
          %95 = vector.extract %92#7[1] : f32 from vector<4xf32>
          %96 = vector.broadcast %95 : f32 to vector<1xf32>
          %97 = vector.extract %92#7[2] : f32 from vector<4xf32>
          %98 = vector.broadcast %97 : f32 to vector<1xf32>
          %99 = vector.extract %92#7[3] : f32 from vector<4xf32>
          %100 = vector.broadcast %99 : f32 to vector<1xf32>
          %101 = vector.extract %92#6[0] : f32 from vector<4xf32>
          %102 = vector.broadcast %101 : f32 to vector<1xf32>
          %103 = vector.extract %92#6[1] : f32 from vector<4xf32>
          %104 = vector.broadcast %103 : f32 to vector<1xf32>
          %105 = vector.extract %92#6[2] : f32 from vector<4xf32>
          %106 = vector.broadcast %105 : f32 to vector<1xf32>
          %107 = vector.extract %92#6[3] : f32 from vector<4xf32>
          %108 = vector.broadcast %107 : f32 to vector<1xf32>
          %109 = vector.extract %92#5[0] : f32 from vector<4xf32>
          %110 = vector.broadcast %109 : f32 to vector<1xf32>
          %111 = vector.extract %92#5[1] : f32 from vector<4xf32>
          %112 = vector.broadcast %111 : f32 to vector<1xf32>
          %113 = vector.extract %92#5[2] : f32 from vector<4xf32>
          %114 = vector.broadcast %113 : f32 to vector<1xf32>
          %115 = vector.extract %92#5[3] : f32 from vector<4xf32>
          %116 = vector.broadcast %115 : f32 to vector<1xf32>
          %117 = vector.extract %92#4[0] : f32 from vector<4xf32>
          %118 = vector.broadcast %117 : f32 to vector<1xf32>
          %119 = vector.extract %92#4[1] : f32 from vector<4xf32>
          %120 = vector.broadcast %119 : f32 to vector<1xf32>
          %121 = vector.extract %92#4[2] : f32 from vector<4xf32>
          %122 = vector.broadcast %121 : f32 to vector<1xf32>
          %123 = vector.extract %92#4[3] : f32 from vector<4xf32>
          %124 = vector.broadcast %123 : f32 to vector<1xf32>
          %125 = vector.extract %92#3[0] : f32 from vector<4xf32>
          %126 = vector.broadcast %125 : f32 to vector<1xf32>
          %127 = vector.extract %92#3[1] : f32 from vector<4xf32>
          %128 = vector.broadcast %127 : f32 to vector<1xf32>
          %129 = vector.extract %92#3[2] : f32 from vector<4xf32>
          %130 = vector.broadcast %129 : f32 to vector<1xf32>
          %131 = vector.extract %92#3[3] : f32 from vector<4xf32>
          %132 = vector.broadcast %131 : f32 to vector<1xf32>
          %133 = vector.extract %92#2[0] : f32 from vector<4xf32>
          %134 = vector.broadcast %133 : f32 to vector<1xf32>
          %135 = vector.extract %92#2[1] : f32 from vector<4xf32>
          %136 = vector.broadcast %135 : f32 to vector<1xf32>
          %137 = vector.extract %92#2[2] : f32 from vector<4xf32>
          %138 = vector.broadcast %137 : f32 to vector<1xf32>
          %139 = vector.extract %92#2[3] : f32 from vector<4xf32>
          %140 = vector.broadcast %139 : f32 to vector<1xf32>
          %141 = vector.extract %92#1[0] : f32 from vector<4xf32>
          %142 = vector.broadcast %141 : f32 to vector<1xf32>
          %143 = vector.extract %92#1[1] : f32 from vector<4xf32>
          %144 = vector.broadcast %143 : f32 to vector<1xf32>
          %145 = vector.extract %92#1[2] : f32 from vector<4xf32>
          %146 = vector.broadcast %145 : f32 to vector<1xf32>
          %147 = vector.extract %92#1[3] : f32 from vector<4xf32>
          %148 = vector.broadcast %147 : f32 to vector<1xf32>
          %149 = vector.extract %92#0[0] : f32 from vector<4xf32>
          %150 = vector.broadcast %149 : f32 to vector<1xf32>
          %151 = vector.extract %92#0[1] : f32 from vector<4xf32>
          %152 = vector.broadcast %151 : f32 to vector<1xf32>
          %153 = vector.extract %92#0[2] : f32 from vector<4xf32>
          %154 = vector.broadcast %153 : f32 to vector<1xf32>
          %155 = vector.extract %92#0[3] : f32 from vector<4xf32>
          %156 = vector.broadcast %155 : f32 to vector<1xf32>
          %157 = arith.muli %84, %c4_i32 overflow<nsw> : i32
          %158 = arith.addi %18, %157 : i32
          %159 = arith.muli %85, %c8_i32 overflow<nsw> : i32
          %160 = arith.addi %17, %159 : i32
          %161 = arith.muli %158, %c16_i32 overflow<nsw> : i32
          %162 = arith.addi %161, %13 overflow<nsw> : i32
          %163 = arith.index_castui %162 : i32 to index
          %164 = arith.muli %160, %c16_i32 overflow<nsw> : i32
          %165 = arith.addi %164, %12 overflow<nsw> : i32
          %166 = arith.index_castui %165 : i32 to index
          vector.store %94, %5[%163, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %167 = arith.addi %165, %c16_i32 overflow<nsw> : i32
          %168 = arith.index_castui %167 : i32 to index
          vector.store %102, %5[%163, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %169 = arith.addi %165, %c32_i32 overflow<nsw> : i32
          %170 = arith.index_castui %169 : i32 to index
          vector.store %110, %5[%163, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %171 = arith.addi %165, %c48_i32 overflow<nsw> : i32
          %172 = arith.index_castui %171 : i32 to index
          vector.store %118, %5[%163, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %173 = arith.addi %162, %c1_i32 overflow<nsw> : i32
          %174 = arith.index_castui %173 : i32 to index
          vector.store %96, %5[%174, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %104, %5[%174, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %112, %5[%174, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %120, %5[%174, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %175 = arith.addi %162, %c2_i32 overflow<nsw> : i32
          %176 = arith.index_castui %175 : i32 to index
          vector.store %98, %5[%176, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %106, %5[%176, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %114, %5[%176, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %122, %5[%176, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %177 = arith.addi %162, %c3_i32 overflow<nsw> : i32
          %178 = arith.index_castui %177 : i32 to index
          vector.store %100, %5[%178, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %108, %5[%178, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %116, %5[%178, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %124, %5[%178, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %179 = arith.addi %162, %c16_i32 overflow<nsw> : i32
          %180 = arith.index_castui %179 : i32 to index
          vector.store %126, %5[%180, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %134, %5[%180, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %142, %5[%180, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %150, %5[%180, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %181 = arith.addi %162, %c17_i32 overflow<nsw> : i32
          %182 = arith.index_castui %181 : i32 to index
          vector.store %128, %5[%182, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %136, %5[%182, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %144, %5[%182, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %152, %5[%182, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %183 = arith.addi %162, %c18_i32 overflow<nsw> : i32
          %184 = arith.index_castui %183 : i32 to index
          vector.store %130, %5[%184, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %138, %5[%184, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %146, %5[%184, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %154, %5[%184, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %185 = arith.addi %162, %c19_i32 overflow<nsw> : i32
          %186 = arith.index_castui %185 : i32 to index
          vector.store %132, %5[%186, %166] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %140, %5[%186, %168] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %148, %5[%186, %170] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %156, %5[%186, %172] : memref<256x512xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_0 : memref<32x72xf8E4M3FN, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x136xf8E4M3FN, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_256x512x288_f8E4M3FNxf8E4M3FNxf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c16 = arith.constant 16 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c16, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

