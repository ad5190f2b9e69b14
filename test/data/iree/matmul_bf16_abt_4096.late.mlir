#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c51_i32 = arith.constant 51 : i32
          %c50_i32 = arith.constant 50 : i32
          %c49_i32 = arith.constant 49 : i32
          %c35_i32 = arith.constant 35 : i32
          %c34_i32 = arith.constant 34 : i32
          %c33_i32 = arith.constant 33 : i32
          %c19_i32 = arith.constant 19 : i32
          %c18_i32 = arith.constant 18 : i32
          %c17_i32 = arith.constant 17 : i32
          %c3_i32 = arith.constant 3 : i32
          %c2_i32 = arith.constant 2 : i32
          %c2048_i32 = arith.constant 2048 : i32
          %c48_i32 = arith.constant 48 : i32
          %c4_i32 = arith.constant 4 : i32
          %c16_i32 = arith.constant 16 : i32
          %c1_i32 = arith.constant 1 : i32
          %c1536_i32 = arith.constant 1536 : i32
          %c1024_i32 = arith.constant 1024 : i32
          %c512_i32 = arith.constant 512 : i32
          %c32_i32 = arith.constant 32 : i32
          %c8_i32 = arith.constant 8 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %c0 = arith.constant 0 : index
          %cst = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloc_0 = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x4096xbf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<4096x4096xbf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<4096x4096xbf16, #gpu.address_space<global>> to memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x4096xbf16, #gpu.address_space<global>>
          %assume_align_1 = memref.assume_alignment %2, 64 : memref<4096x4096xbf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_1 resetOffset : memref<4096x4096xbf16, #gpu.address_space<global>> to memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x4096xf32, #gpu.address_space<global>>
          %assume_align_2 = memref.assume_alignment %4, 64 : memref<4096x4096xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_2 resetOffset : memref<4096x4096xf32, #gpu.address_space<global>> to memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>
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
          %16 = arith.muli %10, %c8_i32 : i32
          %17 = arith.muli %14, %c1024_i32 overflow<nsw> : i32
          %18 = arith.addi %17, %16 : i32
          %19 = arith.remui %18, %c64_i32 : i32
          %20 = arith.divui %19, %c8_i32 : i32
          %21 = arith.divui %18, %c64_i32 : i32
          %22 = arith.remui %21, %c8_i32 : i32
          %23 = arith.xori %22, %20 : i32
          %24 = arith.muli %21, %c64_i32 overflow<nsw> : i32
          %25 = arith.muli %23, %c8_i32 overflow<nsw> : i32
          %26 = arith.addi %24, %25 : i32
          %27 = arith.subi %26, %17 : i32
          %28 = arith.floordivsi %27, %c32_i32 : i32
          %29 = arith.remsi %27, %c32_i32 : i32
          %30 = arith.index_cast %29 : i32 to index
          %31 = arith.cmpi slt, %29, %c0_i32 : i32
          %32 = arith.addi %29, %c32_i32 overflow<nsw> : i32
          %33 = arith.index_castui %32 : i32 to index
          %34 = arith.select %31, %33, %30 : index
          %35 = arith.addi %16, %c512_i32 : i32
          %36 = arith.addi %17, %35 : i32
          %37 = arith.remui %36, %c64_i32 : i32
          %38 = arith.divui %37, %c8_i32 : i32
          %39 = arith.divui %36, %c64_i32 : i32
          %40 = arith.remui %39, %c8_i32 : i32
          %41 = arith.xori %40, %38 : i32
          %42 = arith.muli %39, %c64_i32 overflow<nsw> : i32
          %43 = arith.muli %41, %c8_i32 overflow<nsw> : i32
          %44 = arith.addi %42, %43 : i32
          %45 = arith.subi %44, %17 : i32
          %46 = arith.floordivsi %45, %c32_i32 : i32
          %47 = arith.remsi %45, %c32_i32 : i32
          %48 = arith.index_cast %47 : i32 to index
          %49 = arith.cmpi slt, %47, %c0_i32 : i32
          %50 = arith.addi %47, %c32_i32 overflow<nsw> : i32
          %51 = arith.index_castui %50 : i32 to index
          %52 = arith.select %49, %51, %48 : index
          %53 = arith.muli %14, %c32_i32 overflow<nsw> : i32
          %54 = arith.index_castui %17 : i32 to index
          %55 = arith.addi %17, %c512_i32 overflow<nsw> : i32
          %56 = arith.index_castui %55 : i32 to index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 1024 : index
          %57 = arith.index_castui %workgroup_id_x : index to i32
          %58 = arith.divui %57, %c32_i32 : i32
          %59 = arith.remui %57, %c32_i32 : i32
          %60 = arith.addi %28, %53 : i32
          %61 = arith.muli %58, %c128_i32 overflow<nsw> : i32
          %62 = arith.addi %60, %61 : i32
          %63 = arith.index_cast %62 : i32 to index
          %64 = arith.addi %46, %53 : i32
          %65 = arith.addi %64, %61 : i32
          %66 = arith.index_cast %65 : i32 to index
          %67 = arith.muli %59, %c128_i32 overflow<nsw> : i32
          %68 = arith.addi %60, %67 : i32
          %69 = arith.index_cast %68 : i32 to index
          %70 = arith.addi %64, %67 : i32
          %71 = arith.index_cast %70 : i32 to index
          %72 = arith.muli %7, %c4_i32 overflow<nsw> : i32
          %73 = arith.muli %7, %c2048_i32 overflow<nsw> : i32
          %74 = arith.muli %12, %c32_i32 overflow<nsw> : i32
          %75 = arith.addi %73, %74 overflow<nsw> : i32
          %76 = arith.addi %75, %15 overflow<nsw> : i32
          %77 = arith.remui %76, %c64_i32 : i32
          %78 = arith.divui %77, %c8_i32 : i32
          %79 = arith.divui %76, %c64_i32 : i32
          %80 = arith.remui %79, %c8_i32 : i32
          %81 = arith.xori %80, %78 : i32
          %82 = arith.muli %79, %c64_i32 overflow<nsw> : i32
          %83 = arith.muli %81, %c8_i32 overflow<nsw> : i32
          %84 = arith.addi %82, %83 : i32
          %85 = arith.subi %84, %76 : i32
          %86 = arith.index_castui %84 : i32 to index
          %87 = arith.addi %76, %c512_i32 overflow<nsw> : i32
          %88 = arith.addi %87, %85 : i32
          %89 = arith.index_cast %88 : i32 to index
          %90 = arith.addi %76, %c1024_i32 overflow<nsw> : i32
          %91 = arith.addi %90, %85 : i32
          %92 = arith.index_cast %91 : i32 to index
          %93 = arith.addi %76, %c1536_i32 overflow<nsw> : i32
          %94 = arith.addi %93, %85 : i32
          %95 = arith.index_cast %94 : i32 to index
          %96 = arith.muli %9, %c4_i32 overflow<nsw> : i32
          %97 = arith.muli %9, %c2048_i32 overflow<nsw> : i32
          %98 = arith.addi %97, %74 overflow<nsw> : i32
          %99 = arith.addi %98, %15 overflow<nsw> : i32
          %100 = arith.remui %99, %c64_i32 : i32
          %101 = arith.divui %100, %c8_i32 : i32
          %102 = arith.divui %99, %c64_i32 : i32
          %103 = arith.remui %102, %c8_i32 : i32
          %104 = arith.xori %103, %101 : i32
          %105 = arith.muli %102, %c64_i32 overflow<nsw> : i32
          %106 = arith.muli %104, %c8_i32 overflow<nsw> : i32
          %107 = arith.addi %105, %106 : i32
          %108 = arith.subi %107, %99 : i32
          %109 = arith.index_castui %107 : i32 to index
          %110 = arith.addi %99, %c512_i32 overflow<nsw> : i32
          %111 = arith.addi %110, %108 : i32
          %112 = arith.index_cast %111 : i32 to index
          %113 = arith.addi %99, %c1024_i32 overflow<nsw> : i32
          %114 = arith.addi %113, %108 : i32
          %115 = arith.index_cast %114 : i32 to index
          %116 = arith.addi %99, %c1536_i32 overflow<nsw> : i32
          %117 = arith.addi %116, %108 : i32
          %118 = arith.index_cast %117 : i32 to index
          %119 = arith.index_cast %34 : index to i32
          %120 = arith.index_cast %52 : index to i32
          %121:16 = scf.for %arg0 = %c0_i32 to %c128_i32 step %c1_i32 iter_args(%arg1 = %cst, %arg2 = %cst, %arg3 = %cst, %arg4 = %cst, %arg5 = %cst, %arg6 = %cst, %arg7 = %cst, %arg8 = %cst, %arg9 = %cst, %arg10 = %cst, %arg11 = %cst, %arg12 = %cst, %arg13 = %cst, %arg14 = %cst, %arg15 = %cst, %arg16 = %cst) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %296 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %297 = arith.addi %119, %296 : i32
            %298 = arith.index_cast %297 : i32 to index
            amdgpu.gather_to_lds %1[%63, %298], %alloc[%54] : vector<8xbf16>, memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xbf16, #gpu.address_space<workgroup>>
            %299 = arith.addi %120, %296 : i32
            %300 = arith.index_cast %299 : i32 to index
            amdgpu.gather_to_lds %1[%66, %300], %alloc[%56] : vector<8xbf16>, memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xbf16, #gpu.address_space<workgroup>>
            amdgpu.gather_to_lds %3[%69, %298], %alloc_0[%54] : vector<8xbf16>, memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xbf16, #gpu.address_space<workgroup>>
            amdgpu.gather_to_lds %3[%71, %300], %alloc_0[%56] : vector<8xbf16>, memref<4096x4096xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xbf16, #gpu.address_space<workgroup>>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %301 = vector.load %alloc[%86] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %302 = vector.load %alloc[%89] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %303 = vector.load %alloc[%92] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %304 = vector.load %alloc[%95] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %305 = vector.load %alloc_0[%109] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %306 = vector.load %alloc_0[%112] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %307 = vector.load %alloc_0[%115] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %308 = vector.load %alloc_0[%118] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
            %309 = amdgpu.mfma 16x16x32 %301 * %305 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %310 = amdgpu.mfma 16x16x32 %301 * %306 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %311 = amdgpu.mfma 16x16x32 %301 * %307 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %312 = amdgpu.mfma 16x16x32 %301 * %308 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %313 = amdgpu.mfma 16x16x32 %302 * %305 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %314 = amdgpu.mfma 16x16x32 %302 * %306 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %315 = amdgpu.mfma 16x16x32 %302 * %307 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %316 = amdgpu.mfma 16x16x32 %302 * %308 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %317 = amdgpu.mfma 16x16x32 %303 * %305 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %318 = amdgpu.mfma 16x16x32 %303 * %306 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %319 = amdgpu.mfma 16x16x32 %303 * %307 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %320 = amdgpu.mfma 16x16x32 %303 * %308 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %321 = amdgpu.mfma 16x16x32 %304 * %305 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %322 = amdgpu.mfma 16x16x32 %304 * %306 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %323 = amdgpu.mfma 16x16x32 %304 * %307 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            %324 = amdgpu.mfma 16x16x32 %304 * %308 + %arg1 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
            scf.yield %324, %323, %322, %321, %320, %319, %318, %317, %316, %315, %314, %313, %312, %311, %310, %309 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          %122 = vector.extract %121#15[0] : f32 from vector<4xf32>
          %123 = vector.broadcast %122 : f32 to vector<1xf32>
          %124 = vector.extract %121#15[1] : f32 from vector<4xf32>
          %125 = vector.broadcast %124 : f32 to vector<1xf32>
          %126 = vector.extract %121#15[2] : f32 from vector<4xf32>
          %127 = vector.broadcast %126 : f32 to vector<1xf32>
          %128 = vector.extract %121#15[3] : f32 from vector<4xf32>
          %129 = vector.broadcast %128 : f32 to vector<1xf32>
          %130 = vector.extract %121#14[0] : f32 from vector<4xf32>
          %131 = vector.broadcast %130 : f32 to vector<1xf32>
          %132 = vector.extract %121#14[1] : f32 from vector<4xf32>
          %133 = vector.broadcast %132 : f32 to vector<1xf32>
          %134 = vector.extract %121#14[2] : f32 from vector<4xf32>
          %135 = vector.broadcast %134 : f32 to vector<1xf32>
          %136 = vector.extract %121#14[3] : f32 from vector<4xf32>
          %137 = vector.broadcast %136 : f32 to vector<1xf32>
          %138 = vector.extract %121#13[0] : f32 from vector<4xf32>
          %139 = vector.broadcast %138 : f32 to vector<1xf32>
          %140 = vector.extract %121#13[1] : f32 from vector<4xf32>
          %141 = vector.broadcast %140 : f32 to vector<1xf32>
          %142 = vector.extract %121#13[2] : f32 from vector<4xf32>
          %143 = vector.broadcast %142 : f32 to vector<1xf32>
          %144 = vector.extract %121#13[3] : f32 from vector<4xf32>
          %145 = vector.broadcast %144 : f32 to vector<1xf32>
          %146 = vector.extract %121#12[0] : f32 from vector<4xf32>
          %147 = vector.broadcast %146 : f32 to vector<1xf32>
          %148 = vector.extract %121#12[1] : f32 from vector<4xf32>
          %149 = vector.broadcast %148 : f32 to vector<1xf32>
          %150 = vector.extract %121#12[2] : f32 from vector<4xf32>
          %151 = vector.broadcast %150 : f32 to vector<1xf32>
          %152 = vector.extract %121#12[3] : f32 from vector<4xf32>
          %153 = vector.broadcast %152 : f32 to vector<1xf32>
          %154 = vector.extract %121#11[0] : f32 from vector<4xf32>
          %155 = vector.broadcast %154 : f32 to vector<1xf32>
          %156 = vector.extract %121#11[1] : f32 from vector<4xf32>
          %157 = vector.broadcast %156 : f32 to vector<1xf32>
          %158 = vector.extract %121#11[2] : f32 from vector<4xf32>
          %159 = vector.broadcast %158 : f32 to vector<1xf32>
          %160 = vector.extract %121#11[3] : f32 from vector<4xf32>
          %161 = vector.broadcast %160 : f32 to vector<1xf32>
          %162 = vector.extract %121#10[0] : f32 from vector<4xf32>
          %163 = vector.broadcast %162 : f32 to vector<1xf32>
          %164 = vector.extract %121#10[1] : f32 from vector<4xf32>
          %165 = vector.broadcast %164 : f32 to vector<1xf32>
          %166 = vector.extract %121#10[2] : f32 from vector<4xf32>
          %167 = vector.broadcast %166 : f32 to vector<1xf32>
          %168 = vector.extract %121#10[3] : f32 from vector<4xf32>
          %169 = vector.broadcast %168 : f32 to vector<1xf32>
          %170 = vector.extract %121#9[0] : f32 from vector<4xf32>
          %171 = vector.broadcast %170 : f32 to vector<1xf32>
          %172 = vector.extract %121#9[1] : f32 from vector<4xf32>
          %173 = vector.broadcast %172 : f32 to vector<1xf32>
          %174 = vector.extract %121#9[2] : f32 from vector<4xf32>
          %175 = vector.broadcast %174 : f32 to vector<1xf32>
          %176 = vector.extract %121#9[3] : f32 from vector<4xf32>
          %177 = vector.broadcast %176 : f32 to vector<1xf32>
          %178 = vector.extract %121#8[0] : f32 from vector<4xf32>
          %179 = vector.broadcast %178 : f32 to vector<1xf32>
          %180 = vector.extract %121#8[1] : f32 from vector<4xf32>
          %181 = vector.broadcast %180 : f32 to vector<1xf32>
          %182 = vector.extract %121#8[2] : f32 from vector<4xf32>
          %183 = vector.broadcast %182 : f32 to vector<1xf32>
          %184 = vector.extract %121#8[3] : f32 from vector<4xf32>
          %185 = vector.broadcast %184 : f32 to vector<1xf32>
          %186 = vector.extract %121#7[0] : f32 from vector<4xf32>
          %187 = vector.broadcast %186 : f32 to vector<1xf32>
          %188 = vector.extract %121#7[1] : f32 from vector<4xf32>
          %189 = vector.broadcast %188 : f32 to vector<1xf32>
          %190 = vector.extract %121#7[2] : f32 from vector<4xf32>
          %191 = vector.broadcast %190 : f32 to vector<1xf32>
          %192 = vector.extract %121#7[3] : f32 from vector<4xf32>
          %193 = vector.broadcast %192 : f32 to vector<1xf32>
          %194 = vector.extract %121#6[0] : f32 from vector<4xf32>
          %195 = vector.broadcast %194 : f32 to vector<1xf32>
          %196 = vector.extract %121#6[1] : f32 from vector<4xf32>
          %197 = vector.broadcast %196 : f32 to vector<1xf32>
          %198 = vector.extract %121#6[2] : f32 from vector<4xf32>
          %199 = vector.broadcast %198 : f32 to vector<1xf32>
          %200 = vector.extract %121#6[3] : f32 from vector<4xf32>
          %201 = vector.broadcast %200 : f32 to vector<1xf32>
          %202 = vector.extract %121#5[0] : f32 from vector<4xf32>
          %203 = vector.broadcast %202 : f32 to vector<1xf32>
          %204 = vector.extract %121#5[1] : f32 from vector<4xf32>
          %205 = vector.broadcast %204 : f32 to vector<1xf32>
          %206 = vector.extract %121#5[2] : f32 from vector<4xf32>
          %207 = vector.broadcast %206 : f32 to vector<1xf32>
          %208 = vector.extract %121#5[3] : f32 from vector<4xf32>
          %209 = vector.broadcast %208 : f32 to vector<1xf32>
          %210 = vector.extract %121#4[0] : f32 from vector<4xf32>
          %211 = vector.broadcast %210 : f32 to vector<1xf32>
          %212 = vector.extract %121#4[1] : f32 from vector<4xf32>
          %213 = vector.broadcast %212 : f32 to vector<1xf32>
          %214 = vector.extract %121#4[2] : f32 from vector<4xf32>
          %215 = vector.broadcast %214 : f32 to vector<1xf32>
          %216 = vector.extract %121#4[3] : f32 from vector<4xf32>
          %217 = vector.broadcast %216 : f32 to vector<1xf32>
          %218 = vector.extract %121#3[0] : f32 from vector<4xf32>
          %219 = vector.broadcast %218 : f32 to vector<1xf32>
          %220 = vector.extract %121#3[1] : f32 from vector<4xf32>
          %221 = vector.broadcast %220 : f32 to vector<1xf32>
          %222 = vector.extract %121#3[2] : f32 from vector<4xf32>
          %223 = vector.broadcast %222 : f32 to vector<1xf32>
          %224 = vector.extract %121#3[3] : f32 from vector<4xf32>
          %225 = vector.broadcast %224 : f32 to vector<1xf32>
          %226 = vector.extract %121#2[0] : f32 from vector<4xf32>
          %227 = vector.broadcast %226 : f32 to vector<1xf32>
          %228 = vector.extract %121#2[1] : f32 from vector<4xf32>
          %229 = vector.broadcast %228 : f32 to vector<1xf32>
          %230 = vector.extract %121#2[2] : f32 from vector<4xf32>
          %231 = vector.broadcast %230 : f32 to vector<1xf32>
          %232 = vector.extract %121#2[3] : f32 from vector<4xf32>
          %233 = vector.broadcast %232 : f32 to vector<1xf32>
          %234 = vector.extract %121#1[0] : f32 from vector<4xf32>
          %235 = vector.broadcast %234 : f32 to vector<1xf32>
          %236 = vector.extract %121#1[1] : f32 from vector<4xf32>
          %237 = vector.broadcast %236 : f32 to vector<1xf32>
          %238 = vector.extract %121#1[2] : f32 from vector<4xf32>
          %239 = vector.broadcast %238 : f32 to vector<1xf32>
          %240 = vector.extract %121#1[3] : f32 from vector<4xf32>
          %241 = vector.broadcast %240 : f32 to vector<1xf32>
          %242 = vector.extract %121#0[0] : f32 from vector<4xf32>
          %243 = vector.broadcast %242 : f32 to vector<1xf32>
          %244 = vector.extract %121#0[1] : f32 from vector<4xf32>
          %245 = vector.broadcast %244 : f32 to vector<1xf32>
          %246 = vector.extract %121#0[2] : f32 from vector<4xf32>
          %247 = vector.broadcast %246 : f32 to vector<1xf32>
          %248 = vector.extract %121#0[3] : f32 from vector<4xf32>
          %249 = vector.broadcast %248 : f32 to vector<1xf32>
          %250 = arith.muli %58, %c8_i32 overflow<nsw> : i32
          %251 = arith.addi %72, %250 : i32
          %252 = arith.muli %59, %c8_i32 overflow<nsw> : i32
          %253 = arith.addi %96, %252 : i32
          %254 = arith.muli %251, %c16_i32 overflow<nsw> : i32
          %255 = arith.addi %254, %13 overflow<nsw> : i32
          %256 = arith.index_castui %255 : i32 to index
          %257 = arith.muli %253, %c16_i32 overflow<nsw> : i32
          %258 = arith.addi %257, %12 overflow<nsw> : i32
          %259 = arith.index_castui %258 : i32 to index
          vector.store %123, %5[%256, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %260 = arith.addi %258, %c16_i32 overflow<nsw> : i32
          %261 = arith.index_castui %260 : i32 to index
          vector.store %131, %5[%256, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %262 = arith.addi %258, %c32_i32 overflow<nsw> : i32
          %263 = arith.index_castui %262 : i32 to index
          vector.store %139, %5[%256, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %264 = arith.addi %258, %c48_i32 overflow<nsw> : i32
          %265 = arith.index_castui %264 : i32 to index
          vector.store %147, %5[%256, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %266 = arith.addi %255, %c1_i32 overflow<nsw> : i32
          %267 = arith.index_castui %266 : i32 to index
          vector.store %125, %5[%267, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %133, %5[%267, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %141, %5[%267, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %149, %5[%267, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %268 = arith.addi %255, %c2_i32 overflow<nsw> : i32
          %269 = arith.index_castui %268 : i32 to index
          vector.store %127, %5[%269, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %135, %5[%269, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %143, %5[%269, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %151, %5[%269, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %270 = arith.addi %255, %c3_i32 overflow<nsw> : i32
          %271 = arith.index_castui %270 : i32 to index
          vector.store %129, %5[%271, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %137, %5[%271, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %145, %5[%271, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %153, %5[%271, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %272 = arith.addi %255, %c16_i32 overflow<nsw> : i32
          %273 = arith.index_castui %272 : i32 to index
          vector.store %155, %5[%273, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %163, %5[%273, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %171, %5[%273, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %179, %5[%273, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %274 = arith.addi %255, %c17_i32 overflow<nsw> : i32
          %275 = arith.index_castui %274 : i32 to index
          vector.store %157, %5[%275, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %165, %5[%275, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %173, %5[%275, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %181, %5[%275, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %276 = arith.addi %255, %c18_i32 overflow<nsw> : i32
          %277 = arith.index_castui %276 : i32 to index
          vector.store %159, %5[%277, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %167, %5[%277, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %175, %5[%277, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %183, %5[%277, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %278 = arith.addi %255, %c19_i32 overflow<nsw> : i32
          %279 = arith.index_castui %278 : i32 to index
          vector.store %161, %5[%279, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %169, %5[%279, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %177, %5[%279, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %185, %5[%279, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %280 = arith.addi %255, %c32_i32 overflow<nsw> : i32
          %281 = arith.index_castui %280 : i32 to index
          vector.store %187, %5[%281, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %195, %5[%281, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %203, %5[%281, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %211, %5[%281, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %282 = arith.addi %255, %c33_i32 overflow<nsw> : i32
          %283 = arith.index_castui %282 : i32 to index
          vector.store %189, %5[%283, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %197, %5[%283, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %205, %5[%283, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %213, %5[%283, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %284 = arith.addi %255, %c34_i32 overflow<nsw> : i32
          %285 = arith.index_castui %284 : i32 to index
          vector.store %191, %5[%285, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %199, %5[%285, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %207, %5[%285, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %215, %5[%285, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %286 = arith.addi %255, %c35_i32 overflow<nsw> : i32
          %287 = arith.index_castui %286 : i32 to index
          vector.store %193, %5[%287, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %201, %5[%287, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %209, %5[%287, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %217, %5[%287, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %288 = arith.addi %255, %c48_i32 overflow<nsw> : i32
          %289 = arith.index_castui %288 : i32 to index
          vector.store %219, %5[%289, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %227, %5[%289, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %235, %5[%289, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %243, %5[%289, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %290 = arith.addi %255, %c49_i32 overflow<nsw> : i32
          %291 = arith.index_castui %290 : i32 to index
          vector.store %221, %5[%291, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %229, %5[%291, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %237, %5[%291, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %245, %5[%291, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %292 = arith.addi %255, %c50_i32 overflow<nsw> : i32
          %293 = arith.index_castui %292 : i32 to index
          vector.store %223, %5[%293, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %231, %5[%293, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %239, %5[%293, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %247, %5[%293, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %294 = arith.addi %255, %c51_i32 overflow<nsw> : i32
          %295 = arith.index_castui %294 : i32 to index
          vector.store %225, %5[%295, %259] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %233, %5[%295, %261] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %241, %5[%295, %263] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          vector.store %249, %5[%295, %265] : memref<4096x4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          memref.dealloc %alloc_0 : memref<4096xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c1024 = arith.constant 1024 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c1024, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

