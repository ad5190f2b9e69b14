#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0, s1] -> (s0 * 1030 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_2048x32x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_2048x32x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c32960 = arith.constant 32960 : index
          %c4 = arith.constant 4 : index
          %c2 = arith.constant 2 : index
          %c2109440 = arith.constant 2109440 : index
          %c8 = arith.constant 8 : index
          %c19_i32 = arith.constant 19 : i32
          %c18_i32 = arith.constant 18 : i32
          %c17_i32 = arith.constant 17 : i32
          %c3_i32 = arith.constant 3 : i32
          %c1024_i32 = arith.constant 1024 : i32
          %c2_i32 = arith.constant 2 : i32
          %c1030_i32 = arith.constant 1030 : i32
          %c32_i32 = arith.constant 32 : i32
          %c16_i32 = arith.constant 16 : i32
          %c1_i32 = arith.constant 1 : i32
          %c33_i32 = arith.constant 33 : i32
          %c512_i32 = arith.constant 512 : i32
          %c8_i32 = arith.constant 8 : i32
          %c4_i32 = arith.constant 4 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %cst = arith.constant dense<0.000000e+00> : vector<4xf16>
          %cst_0 = arith.constant dense<0.000000e+00> : vector<8xf16>
          %c0 = arith.constant 0 : index
          %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<1024xf16, #gpu.address_space<workgroup>>
          %alloc_2 = memref.alloc() : memref<2048xf16, #gpu.address_space<workgroup>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2048x1030xf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<2048x1030xf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2048x1030xf16, #gpu.address_space<global>> to memref<2048x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<32x1030xf16, #gpu.address_space<global>>
          %assume_align_3 = memref.assume_alignment %2, 64 : memref<32x1030xf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_3 resetOffset : memref<32x1030xf16, #gpu.address_space<global>> to memref<32x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2048x32xf32, #gpu.address_space<global>>
          %assume_align_4 = memref.assume_alignment %4, 64 : memref<2048x32xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<2048x32xf32, #gpu.address_space<global>> to memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c128_i32 : i32
          %8 = arith.remui %6, %c128_i32 : i32
          %9 = arith.divui %8, %c64_i32 : i32
          %10 = arith.remui %6, %c64_i32 : i32
          %11 = arith.divui %10, %c16_i32 : i32
          %12 = arith.remui %10, %c16_i32 : i32
          %13 = arith.muli %11, %c4_i32 overflow<nsw> : i32
          %14 = arith.divui %6, %c4_i32 : i32
          %15 = arith.remui %6, %c4_i32 : i32
          %16 = arith.divui %6, %c8_i32 : i32
          %17 = arith.index_castui %16 : i32 to index
          %18 = arith.remui %6, %c8_i32 : i32
          %19 = arith.muli %11, %c8_i32 overflow<nsw> : i32
          %20 = arith.muli %15, %c8_i32 overflow<nsw> : i32
          %21 = arith.muli %18, %c4_i32 overflow<nsw> : i32
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 32 : index
          %22 = arith.index_castui %workgroup_id_x : index to i32
          %23 = arith.muli %22, %c64_i32 overflow<nsw> : i32
          %24 = arith.addi %14, %23 : i32
          %25 = arith.index_castui %24 : i32 to index
          %26 = arith.muli %14, %c32_i32 overflow<nsw> : i32
          %27 = arith.addi %26, %20 overflow<nsw> : i32
          %28 = arith.remui %27, %c64_i32 : i32
          %29 = arith.divui %28, %c8_i32 : i32
          %30 = arith.divui %27, %c64_i32 : i32
          %31 = arith.remui %30, %c8_i32 : i32
          %32 = arith.xori %31, %29 : i32
          %33 = arith.muli %30, %c64_i32 overflow<nsw> : i32
          %34 = arith.muli %32, %c8_i32 overflow<nsw> : i32
          %35 = arith.addi %33, %34 : i32
          %36 = arith.index_castui %35 : i32 to index
          %37 = arith.muli %16, %c32_i32 overflow<nsw> : i32
          %38 = arith.addi %37, %21 overflow<nsw> : i32
          %39 = arith.index_castui %38 : i32 to index
          %40 = arith.muli %7, %c2_i32 overflow<nsw> : i32
          %41 = arith.muli %7, %c1024_i32 overflow<nsw> : i32
          %42 = arith.muli %12, %c32_i32 overflow<nsw> : i32
          %43 = arith.addi %41, %42 overflow<nsw> : i32
          %44 = arith.addi %43, %19 overflow<nsw> : i32
          %45 = arith.remui %44, %c64_i32 : i32
          %46 = arith.divui %45, %c8_i32 : i32
          %47 = arith.divui %44, %c64_i32 : i32
          %48 = arith.remui %47, %c8_i32 : i32
          %49 = arith.xori %48, %46 : i32
          %50 = arith.muli %47, %c64_i32 overflow<nsw> : i32
          %51 = arith.muli %49, %c8_i32 overflow<nsw> : i32
          %52 = arith.addi %50, %51 : i32
          %53 = arith.subi %52, %44 : i32
          %54 = arith.index_castui %52 : i32 to index
          %55 = arith.addi %44, %c512_i32 overflow<nsw> : i32
          %56 = arith.addi %55, %53 : i32
          %57 = arith.index_cast %56 : i32 to index
          %58 = arith.muli %9, %c512_i32 overflow<nsw> : i32
          %59 = arith.addi %58, %42 overflow<nsw> : i32
          %60 = arith.addi %59, %19 overflow<nsw> : i32
          %61 = arith.index_castui %60 : i32 to index
          %62:2 = scf.for %arg0 = %c0_i32 to %c33_i32 step %c1_i32 iter_args(%arg1 = %cst_1, %arg2 = %cst_1) -> (vector<4xf32>, vector<4xf32>)  : i32 {
            %101 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %102 = arith.minui %101, %c1030_i32 : i32
            %103 = arith.subi %c1030_i32, %102 : i32
            %104 = arith.minui %103, %c32_i32 : i32
            %105 = arith.minui %104, %20 : i32
            %106 = arith.subi %104, %105 : i32
            %107 = arith.minsi %106, %c8_i32 : i32
            %108 = arith.index_cast %107 : i32 to index
            %109 = arith.addi %105, %102 : i32
            %110 = arith.index_castui %109 : i32 to index
            %111 = vector.create_mask %108 : vector<8xi1>
            %112 = affine.apply #map()[%25, %110]
            %113 = arith.subi %c2109440, %112 : index
            %114 = arith.cmpi ult, %113, %c8 : index
            %115 = arith.remui %113, %c2 : index
            %116 = arith.cmpi ne, %115, %c0 : index
            %117 = arith.andi %114, %116 : i1
            %118 = scf.if %117 -> (vector<8xf16>) {
              %138 = vector.maskedload %1[%25, %110], %111, %cst_0 {amdgpu.buffer_maskedload_needs_mask} : memref<2048x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %138 : vector<8xf16>
            } else {
              %138 = vector.load %1[%25, %110] : memref<2048x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %139 = arith.select %111, %138, %cst_0 : vector<8xi1>, vector<8xf16>
              scf.yield %139 : vector<8xf16>
            }
            %119 = arith.minui %104, %21 : i32
            %120 = arith.subi %104, %119 : i32
            %121 = arith.minsi %120, %c4_i32 : i32
            %122 = arith.index_cast %121 : i32 to index
            %123 = arith.addi %119, %102 : i32
            %124 = arith.index_castui %123 : i32 to index
            %125 = vector.create_mask %122 : vector<4xi1>
            %126 = affine.apply #map()[%17, %124]
            %127 = arith.subi %c32960, %126 : index
            %128 = arith.cmpi ult, %127, %c4 : index
            %129 = arith.remui %127, %c2 : index
            %130 = arith.cmpi ne, %129, %c0 : index
            %131 = arith.andi %128, %130 : i1
            %132 = scf.if %131 -> (vector<4xf16>) {
              %138 = vector.maskedload %3[%17, %124], %125, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<32x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xi1>, vector<4xf16> into vector<4xf16>
              scf.yield %138 : vector<4xf16>
            } else {
              %138 = vector.load %3[%17, %124] : memref<32x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf16>
              %139 = arith.select %125, %138, %cst : vector<4xi1>, vector<4xf16>
              scf.yield %139 : vector<4xf16>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %118, %alloc_2[%36] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            vector.store %132, %alloc[%39] : memref<1024xf16, #gpu.address_space<workgroup>>, vector<4xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %133 = vector.load %alloc_2[%54] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %134 = vector.load %alloc_2[%57] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %135 = vector.load %alloc[%61] : memref<1024xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %136 = amdgpu.mfma 16x16x32 %133 * %135 + %arg2 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %137 = amdgpu.mfma 16x16x32 %134 * %135 + %arg1 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            scf.yield %137, %136 : vector<4xf32>, vector<4xf32>
          }
          %63 = vector.extract %62#1[0] : f32 from vector<4xf32>
          %64 = vector.broadcast %63 : f32 to vector<1xf32>
          %65 = vector.extract %62#1[1] : f32 from vector<4xf32>
          %66 = vector.broadcast %65 : f32 to vector<1xf32>
          %67 = vector.extract %62#1[2] : f32 from vector<4xf32>
          %68 = vector.broadcast %67 : f32 to vector<1xf32>
          %69 = vector.extract %62#1[3] : f32 from vector<4xf32>
          %70 = vector.broadcast %69 : f32 to vector<1xf32>
          %71 = vector.extract %62#0[0] : f32 from vector<4xf32>
          %72 = vector.broadcast %71 : f32 to vector<1xf32>
          %73 = vector.extract %62#0[1] : f32 from vector<4xf32>
          %74 = vector.broadcast %73 : f32 to vector<1xf32>
          %75 = vector.extract %62#0[2] : f32 from vector<4xf32>
          %76 = vector.broadcast %75 : f32 to vector<1xf32>
          %77 = vector.extract %62#0[3] : f32 from vector<4xf32>
          %78 = vector.broadcast %77 : f32 to vector<1xf32>
          %79 = arith.muli %22, %c4_i32 overflow<nsw> : i32
          %80 = arith.addi %40, %79 : i32
          %81 = arith.muli %80, %c16_i32 overflow<nsw> : i32
          %82 = arith.addi %81, %13 overflow<nsw> : i32
          %83 = arith.index_castui %82 : i32 to index
          %84 = arith.muli %9, %c16_i32 overflow<nsw> : i32
          %85 = arith.addi %84, %12 overflow<nsw> : i32
          %86 = arith.index_castui %85 : i32 to index
          vector.store %64, %5[%83, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %87 = arith.addi %82, %c1_i32 overflow<nsw> : i32
          %88 = arith.index_castui %87 : i32 to index
          vector.store %66, %5[%88, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %89 = arith.addi %82, %c2_i32 overflow<nsw> : i32
          %90 = arith.index_castui %89 : i32 to index
          vector.store %68, %5[%90, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %91 = arith.addi %82, %c3_i32 overflow<nsw> : i32
          %92 = arith.index_castui %91 : i32 to index
          vector.store %70, %5[%92, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %93 = arith.addi %82, %c16_i32 overflow<nsw> : i32
          %94 = arith.index_castui %93 : i32 to index
          vector.store %72, %5[%94, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %95 = arith.addi %82, %c17_i32 overflow<nsw> : i32
          %96 = arith.index_castui %95 : i32 to index
          vector.store %74, %5[%96, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %97 = arith.addi %82, %c18_i32 overflow<nsw> : i32
          %98 = arith.index_castui %97 : i32 to index
          vector.store %76, %5[%98, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          %99 = arith.addi %82, %c19_i32 overflow<nsw> : i32
          %100 = arith.index_castui %99 : i32 to index
          vector.store %78, %5[%100, %86] : memref<2048x32xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          memref.dealloc %alloc_2 : memref<2048xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<1024xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_2048x32x1030_f16xf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c32 = arith.constant 32 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c32, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

