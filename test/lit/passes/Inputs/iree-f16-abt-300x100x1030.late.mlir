#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0, s1] -> (s0 * 1030 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_300x100x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_300x100x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c103000 = arith.constant 103000 : index
          %c309000 = arith.constant 309000 : index
          %c8 = arith.constant 8 : index
          %c2048_i32 = arith.constant 2048 : i32
          %c16_i32 = arith.constant 16 : i32
          %c1030_i32 = arith.constant 1030 : i32
          %cst = arith.constant dense<16> : vector<1xi32>
          %c100_i32 = arith.constant 100 : i32
          %c32_i32 = arith.constant 32 : i32
          %c300_i32 = arith.constant 300 : i32
          %c2_i32 = arith.constant 2 : i32
          %c1_i32 = arith.constant 1 : i32
          %c33_i32 = arith.constant 33 : i32
          %c1536_i32 = arith.constant 1536 : i32
          %c1024_i32 = arith.constant 1024 : i32
          %c512_i32 = arith.constant 512 : i32
          %c8_i32 = arith.constant 8 : i32
          %c-64_i32 = arith.constant -64 : i32
          %cst_0 = arith.constant dense<100> : vector<1xi32>
          %c256_i32 = arith.constant 256 : i32
          %c4_i32 = arith.constant 4 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %0 = ub.poison : vector<4xf32>
          %c3 = arith.constant 3 : index
          %cst_1 = arith.constant dense<0.000000e+00> : vector<8xf16>
          %cst_2 = arith.constant dense<false> : vector<8xi1>
          %cst_3 = arith.constant dense<100> : vector<1xindex>
          %c2 = arith.constant 2 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %cst_4 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<4096xf16, #gpu.address_space<workgroup>>
          %alloc_5 = memref.alloc() : memref<2048xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<2x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<300x1030xf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %1, 64 : memref<300x1030xf16, #gpu.address_space<global>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<300x1030xf16, #gpu.address_space<global>> to memref<300x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<100x1030xf16, #gpu.address_space<global>>
          %assume_align_6 = memref.assume_alignment %3, 64 : memref<100x1030xf16, #gpu.address_space<global>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_6 resetOffset : memref<100x1030xf16, #gpu.address_space<global>> to memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<300x100xf32, #gpu.address_space<global>>
          %assume_align_7 = memref.assume_alignment %5, 64 : memref<300x100xf32, #gpu.address_space<global>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_7 resetOffset : memref<300x100xf32, #gpu.address_space<global>> to memref<300x100xf32, #amdgpu.address_space<fat_raw_buffer>>
          %7 = arith.index_castui %thread_id_x : index to i32
          %8 = arith.divui %7, %c128_i32 : i32
          %9 = arith.remui %7, %c128_i32 : i32
          %10 = arith.divui %9, %c64_i32 : i32
          %11 = arith.remui %7, %c64_i32 : i32
          %12 = arith.divui %11, %c16_i32 : i32
          %13 = arith.remui %11, %c16_i32 : i32
          %14 = arith.muli %12, %c4_i32 overflow<nsw> : i32
          %15 = arith.divui %7, %c4_i32 : i32
          %16 = arith.remui %7, %c4_i32 : i32
          %17 = arith.muli %12, %c8_i32 overflow<nsw> : i32
          %18 = arith.minui %15, %c100_i32 : i32
          %19 = arith.index_castui %18 : i32 to index
          %20 = arith.addi %7, %c256_i32 overflow<nsw> : i32
          %21 = arith.divui %20, %c4_i32 : i32
          %22 = arith.remui %20, %c4_i32 : i32
          %23 = arith.minui %21, %c100_i32 : i32
          %24 = arith.index_castui %23 : i32 to index
          %25 = arith.subi %c100_i32, %23 : i32
          %26 = arith.minui %25, %c1_i32 : i32
          %27 = arith.muli %16, %c8_i32 overflow<nsw> : i32
          %28 = arith.muli %22, %c8_i32 overflow<nsw> : i32
          %29 = vector.step : vector<4xindex>
          %30:4 = vector.to_elements %29 : vector<4xindex>
          %31 = vector.broadcast %30#0 : index to vector<1xindex>
          %32 = vector.broadcast %30#1 : index to vector<1xindex>
          %33 = vector.broadcast %30#2 : index to vector<1xindex>
          %34 = vector.broadcast %30#3 : index to vector<1xindex>
          %35 = arith.muli %8, %c2_i32 overflow<nsw> : i32
          %36 = vector.broadcast %35 : i32 to vector<1xi32>
          %37 = vector.broadcast %14 : i32 to vector<1xi32>
          %38 = arith.index_castui %37 : vector<1xi32> to vector<1xindex>
          %39 = arith.addi %31, %38 : vector<1xindex>
          %40 = arith.addi %32, %38 : vector<1xindex>
          %41 = arith.addi %33, %38 : vector<1xindex>
          %42 = arith.addi %34, %38 : vector<1xindex>
          %43 = arith.muli %10, %c4_i32 overflow<nsw> : i32
          %44 = vector.extract %29[0] : index from vector<4xindex>
          %45 = vector.broadcast %44 : index to vector<1xindex>
          %46 = vector.extract %29[1] : index from vector<4xindex>
          %47 = vector.broadcast %46 : index to vector<1xindex>
          %48 = vector.extract %29[2] : index from vector<4xindex>
          %49 = vector.broadcast %48 : index to vector<1xindex>
          %50 = vector.extract %29[3] : index from vector<4xindex>
          %51 = vector.broadcast %50 : index to vector<1xindex>
          %52 = vector.broadcast %43 : i32 to vector<1xi32>
          %53 = arith.index_castui %45 : vector<1xindex> to vector<1xi32>
          %54 = arith.addi %53, %52 : vector<1xi32>
          %55 = arith.index_castui %47 : vector<1xindex> to vector<1xi32>
          %56 = arith.addi %55, %52 : vector<1xi32>
          %57 = arith.index_castui %49 : vector<1xindex> to vector<1xi32>
          %58 = arith.addi %57, %52 : vector<1xi32>
          %59 = arith.index_castui %51 : vector<1xindex> to vector<1xi32>
          %60 = arith.addi %59, %52 : vector<1xi32>
          %61 = arith.muli %54, %cst overflow<nsw> : vector<1xi32>
          %62 = arith.muli %56, %cst overflow<nsw> : vector<1xi32>
          %63 = arith.muli %58, %cst overflow<nsw> : vector<1xi32>
          %64 = arith.muli %60, %cst overflow<nsw> : vector<1xi32>
          %65 = vector.broadcast %13 : i32 to vector<1xi32>
          %66 = arith.addi %61, %65 overflow<nsw> : vector<1xi32>
          %67 = arith.index_castui %66 : vector<1xi32> to vector<1xindex>
          %68 = arith.addi %62, %65 overflow<nsw> : vector<1xi32>
          %69 = arith.index_castui %68 : vector<1xi32> to vector<1xindex>
          %70 = arith.addi %63, %65 overflow<nsw> : vector<1xi32>
          %71 = arith.index_castui %70 : vector<1xi32> to vector<1xindex>
          %72 = arith.addi %64, %65 overflow<nsw> : vector<1xi32>
          %73 = arith.index_castui %72 : vector<1xi32> to vector<1xindex>
          %74 = arith.cmpi ult, %66, %cst_0 : vector<1xi32>
          %75 = arith.cmpi ult, %68, %cst_0 : vector<1xi32>
          %76 = arith.cmpi ult, %70, %cst_0 : vector<1xi32>
          %77 = arith.cmpi ult, %72, %cst_0 : vector<1xi32>
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 5 : index
          %78 = arith.index_castui %workgroup_id_x : index to i32
          %79 = arith.muli %78, %c64_i32 overflow<nsw> : i32
          %80 = arith.index_castui %79 : i32 to index
          %81 = arith.muli %78, %c-64_i32 overflow<nsw> : i32
          %82 = arith.addi %81, %c300_i32 : i32
          %83 = arith.minui %82, %c64_i32 : i32
          %84 = arith.index_castui %83 : i32 to index
          %85 = arith.minui %83, %c64_i32 : i32
          %subview = memref.subview %6[%80, 0] [%84, 100] [1, 1] : memref<300x100xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<?x100xf32, strided<[100, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
          %86 = arith.minui %85, %15 : i32
          %87 = arith.subi %85, %86 : i32
          %88 = arith.minsi %87, %c1_i32 : i32
          %89 = arith.addi %86, %79 : i32
          %90 = arith.index_castui %89 : i32 to index
          %91 = arith.cmpi sgt, %88, %c0_i32 : i32
          %92 = arith.muli %15, %c32_i32 overflow<nsw> : i32
          %93 = arith.addi %92, %27 overflow<nsw> : i32
          %94 = arith.remui %93, %c64_i32 : i32
          %95 = arith.divui %94, %c8_i32 : i32
          %96 = arith.divui %93, %c64_i32 : i32
          %97 = arith.remui %96, %c8_i32 : i32
          %98 = arith.xori %97, %95 : i32
          %99 = arith.muli %96, %c64_i32 overflow<nsw> : i32
          %100 = arith.muli %98, %c8_i32 overflow<nsw> : i32
          %101 = arith.addi %99, %100 : i32
          %102 = arith.index_castui %101 : i32 to index
          %103 = arith.cmpi sgt, %26, %c0_i32 : i32
          %104 = arith.muli %21, %c32_i32 overflow<nsw> : i32
          %105 = arith.addi %104, %28 overflow<nsw> : i32
          %106 = arith.remui %105, %c64_i32 : i32
          %107 = arith.divui %106, %c8_i32 : i32
          %108 = arith.divui %105, %c64_i32 : i32
          %109 = arith.remui %108, %c8_i32 : i32
          %110 = arith.xori %109, %107 : i32
          %111 = arith.muli %108, %c64_i32 overflow<nsw> : i32
          %112 = arith.muli %110, %c8_i32 overflow<nsw> : i32
          %113 = arith.addi %111, %112 : i32
          %114 = arith.index_castui %113 : i32 to index
          %115 = arith.muli %8, %c1024_i32 overflow<nsw> : i32
          %116 = arith.muli %13, %c32_i32 overflow<nsw> : i32
          %117 = arith.addi %115, %116 overflow<nsw> : i32
          %118 = arith.addi %117, %17 overflow<nsw> : i32
          %119 = arith.remui %118, %c64_i32 : i32
          %120 = arith.divui %119, %c8_i32 : i32
          %121 = arith.divui %118, %c64_i32 : i32
          %122 = arith.remui %121, %c8_i32 : i32
          %123 = arith.xori %122, %120 : i32
          %124 = arith.muli %121, %c64_i32 overflow<nsw> : i32
          %125 = arith.muli %123, %c8_i32 overflow<nsw> : i32
          %126 = arith.addi %124, %125 : i32
          %127 = arith.subi %126, %118 : i32
          %128 = arith.index_castui %126 : i32 to index
          %129 = arith.addi %118, %c512_i32 overflow<nsw> : i32
          %130 = arith.addi %129, %127 : i32
          %131 = arith.index_cast %130 : i32 to index
          %132 = arith.muli %10, %c2048_i32 overflow<nsw> : i32
          %133 = arith.addi %132, %116 overflow<nsw> : i32
          %134 = arith.addi %133, %17 overflow<nsw> : i32
          %135 = arith.remui %134, %c64_i32 : i32
          %136 = arith.divui %135, %c8_i32 : i32
          %137 = arith.divui %134, %c64_i32 : i32
          %138 = arith.remui %137, %c8_i32 : i32
          %139 = arith.xori %138, %136 : i32
          %140 = arith.muli %137, %c64_i32 overflow<nsw> : i32
          %141 = arith.muli %139, %c8_i32 overflow<nsw> : i32
          %142 = arith.addi %140, %141 : i32
          %143 = arith.subi %142, %134 : i32
          %144 = arith.index_castui %142 : i32 to index
          %145 = arith.addi %134, %c512_i32 overflow<nsw> : i32
          %146 = arith.addi %145, %143 : i32
          %147 = arith.index_cast %146 : i32 to index
          %148 = arith.addi %134, %c1024_i32 overflow<nsw> : i32
          %149 = arith.addi %148, %143 : i32
          %150 = arith.index_cast %149 : i32 to index
          %151 = arith.addi %134, %c1536_i32 overflow<nsw> : i32
          %152 = arith.addi %151, %143 : i32
          %153 = arith.index_cast %152 : i32 to index
          %154:8 = scf.for %arg0 = %c0_i32 to %c33_i32 step %c1_i32 iter_args(%arg1 = %cst_4, %arg2 = %cst_4, %arg3 = %cst_4, %arg4 = %cst_4, %arg5 = %cst_4, %arg6 = %cst_4, %arg7 = %cst_4, %arg8 = %cst_4) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
            %157 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %158 = arith.minui %157, %c1030_i32 : i32
            %159 = arith.subi %c1030_i32, %158 : i32
            %160 = arith.minui %159, %c32_i32 : i32
            %161 = arith.minui %160, %27 : i32
            %162 = arith.subi %160, %161 : i32
            %163 = arith.minsi %162, %c8_i32 : i32
            %164 = arith.index_cast %163 : i32 to index
            %165 = vector.create_mask %164 : vector<8xi1>
            %166 = arith.select %91, %165, %cst_2 : vector<8xi1>
            %167 = arith.addi %161, %158 : i32
            %168 = arith.index_castui %167 : i32 to index
            %169 = affine.apply #map()[%90, %168]
            %170 = arith.subi %c309000, %169 : index
            %171 = arith.cmpi ult, %170, %c8 : index
            %172 = arith.remui %170, %c2 : index
            %173 = arith.cmpi ne, %172, %c0 : index
            %174 = arith.andi %171, %173 : i1
            %175 = scf.if %174 -> (vector<8xf16>) {
              %212 = vector.maskedload %2[%90, %168], %166, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<300x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %212 : vector<8xf16>
            } else {
              %212 = vector.load %2[%90, %168] : memref<300x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %213 = arith.select %166, %212, %cst_1 : vector<8xi1>, vector<8xf16>
              scf.yield %213 : vector<8xf16>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %175, %alloc_5[%102] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %176 = affine.apply #map()[%19, %168]
            %177 = arith.subi %c103000, %176 : index
            %178 = arith.cmpi ult, %177, %c8 : index
            %179 = arith.remui %177, %c2 : index
            %180 = arith.cmpi ne, %179, %c0 : index
            %181 = arith.andi %178, %180 : i1
            %182 = scf.if %181 -> (vector<8xf16>) {
              %212 = vector.maskedload %4[%19, %168], %165, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %212 : vector<8xf16>
            } else {
              %212 = vector.load %4[%19, %168] : memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %213 = arith.select %165, %212, %cst_1 : vector<8xi1>, vector<8xf16>
              scf.yield %213 : vector<8xf16>
            }
            vector.store %182, %alloc[%102] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %183 = arith.minui %160, %28 : i32
            %184 = arith.subi %160, %183 : i32
            %185 = arith.minsi %184, %c8_i32 : i32
            %186 = arith.index_cast %185 : i32 to index
            %187 = vector.create_mask %186 : vector<8xi1>
            %188 = arith.select %103, %187, %cst_2 : vector<8xi1>
            %189 = arith.addi %183, %158 : i32
            %190 = arith.index_castui %189 : i32 to index
            %191 = affine.apply #map()[%24, %190]
            %192 = arith.subi %c103000, %191 : index
            %193 = arith.cmpi ult, %192, %c8 : index
            %194 = arith.remui %192, %c2 : index
            %195 = arith.cmpi ne, %194, %c0 : index
            %196 = arith.andi %193, %195 : i1
            %197 = scf.if %196 -> (vector<8xf16>) {
              %212 = vector.maskedload %4[%24, %190], %188, %cst_1 {amdgpu.buffer_maskedload_needs_mask} : memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
              scf.yield %212 : vector<8xf16>
            } else {
              %212 = vector.load %4[%24, %190] : memref<100x1030xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
              %213 = arith.select %188, %212, %cst_1 : vector<8xi1>, vector<8xf16>
              scf.yield %213 : vector<8xf16>
            }
            vector.store %197, %alloc[%114] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %198 = vector.load %alloc_5[%128] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %199 = vector.load %alloc_5[%131] : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %200 = vector.load %alloc[%144] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %201 = vector.load %alloc[%147] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %202 = vector.load %alloc[%150] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %203 = vector.load %alloc[%153] : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            %204 = amdgpu.mfma 16x16x32 %198 * %200 + %arg8 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %205 = amdgpu.mfma 16x16x32 %198 * %201 + %arg7 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %206 = amdgpu.mfma 16x16x32 %198 * %202 + %arg6 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %207 = amdgpu.mfma 16x16x32 %198 * %203 + %arg5 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %208 = amdgpu.mfma 16x16x32 %199 * %200 + %arg4 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %209 = amdgpu.mfma 16x16x32 %199 * %201 + %arg3 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %210 = amdgpu.mfma 16x16x32 %199 * %202 + %arg2 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            %211 = amdgpu.mfma 16x16x32 %199 * %203 + %arg1 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            scf.yield %211, %210, %209, %208, %207, %206, %205, %204 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#7[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c0, %c0, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#6[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c0, %c1, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#5[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c0, %c2, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#4[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c0, %c3, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#3[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c1, %c0, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#2[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c1, %c1, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#1[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c1, %c2, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = vector.extract %154#0[%157] : f32 from vector<4xf32>
            memref.store %158, %alloca[%c1, %c3, %157, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          %collapse_shape = memref.collapse_shape %subview [[0, 1]] : memref<?x100xf32, strided<[100, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>> into memref<?xf32, strided<[1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
          %155 = vector.broadcast %83 : i32 to vector<1xi32>
          %156 = arith.index_castui %155 : vector<1xi32> to vector<1xindex>
          scf.for %arg0 = %c0_i32 to %c2_i32 step %c1_i32  : i32 {
            %157 = arith.index_castui %arg0 : i32 to index
            %158 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %261 = arith.index_castui %arg1 : i32 to index
              %262 = memref.load %alloca[%157, %c0, %261, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %263 = vector.insert %262, %arg2 [%261] : f32 into vector<4xf32>
              scf.yield %263 : vector<4xf32>
            }
            %159 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %261 = arith.index_castui %arg1 : i32 to index
              %262 = memref.load %alloca[%157, %c1, %261, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %263 = vector.insert %262, %arg2 [%261] : f32 into vector<4xf32>
              scf.yield %263 : vector<4xf32>
            }
            %160 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %261 = arith.index_castui %arg1 : i32 to index
              %262 = memref.load %alloca[%157, %c2, %261, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %263 = vector.insert %262, %arg2 [%261] : f32 into vector<4xf32>
              scf.yield %263 : vector<4xf32>
            }
            %161 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %261 = arith.index_castui %arg1 : i32 to index
              %262 = memref.load %alloca[%157, %c3, %261, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %263 = vector.insert %262, %arg2 [%261] : f32 into vector<4xf32>
              scf.yield %263 : vector<4xf32>
            }
            %162 = vector.broadcast %arg0 : i32 to vector<1xi32>
            %163 = arith.addi %36, %162 : vector<1xi32>
            %164 = arith.muli %163, %cst overflow<nsw> : vector<1xi32>
            %165 = arith.index_castui %164 : vector<1xi32> to vector<1xindex>
            %166 = arith.addi %165, %39 overflow<nsw> : vector<1xindex>
            %167 = arith.addi %165, %40 overflow<nsw> : vector<1xindex>
            %168 = arith.addi %165, %41 overflow<nsw> : vector<1xindex>
            %169 = arith.addi %165, %42 overflow<nsw> : vector<1xindex>
            %170 = arith.cmpi ult, %166, %156 : vector<1xindex>
            %171 = arith.cmpi ult, %167, %156 : vector<1xindex>
            %172 = arith.cmpi ult, %168, %156 : vector<1xindex>
            %173 = arith.cmpi ult, %169, %156 : vector<1xindex>
            %174 = arith.andi %170, %74 : vector<1xi1>
            %175 = arith.andi %170, %75 : vector<1xi1>
            %176 = arith.andi %170, %76 : vector<1xi1>
            %177 = arith.andi %170, %77 : vector<1xi1>
            %178 = arith.andi %171, %74 : vector<1xi1>
            %179 = arith.andi %171, %75 : vector<1xi1>
            %180 = arith.andi %171, %76 : vector<1xi1>
            %181 = arith.andi %171, %77 : vector<1xi1>
            %182 = arith.andi %172, %74 : vector<1xi1>
            %183 = arith.andi %172, %75 : vector<1xi1>
            %184 = arith.andi %172, %76 : vector<1xi1>
            %185 = arith.andi %172, %77 : vector<1xi1>
            %186 = arith.andi %173, %74 : vector<1xi1>
            %187 = arith.andi %173, %75 : vector<1xi1>
            %188 = arith.andi %173, %76 : vector<1xi1>
            %189 = arith.andi %173, %77 : vector<1xi1>
            %190 = arith.muli %166, %cst_3 overflow<nsw> : vector<1xindex>
            %191 = arith.muli %167, %cst_3 overflow<nsw> : vector<1xindex>
            %192 = arith.muli %168, %cst_3 overflow<nsw> : vector<1xindex>
            %193 = arith.muli %169, %cst_3 overflow<nsw> : vector<1xindex>
            %194 = arith.addi %190, %67 overflow<nsw> : vector<1xindex>
            %195 = arith.addi %190, %69 overflow<nsw> : vector<1xindex>
            %196 = arith.addi %190, %71 overflow<nsw> : vector<1xindex>
            %197 = arith.addi %190, %73 overflow<nsw> : vector<1xindex>
            %198 = arith.addi %191, %67 overflow<nsw> : vector<1xindex>
            %199 = arith.addi %191, %69 overflow<nsw> : vector<1xindex>
            %200 = arith.addi %191, %71 overflow<nsw> : vector<1xindex>
            %201 = arith.addi %191, %73 overflow<nsw> : vector<1xindex>
            %202 = arith.addi %192, %67 overflow<nsw> : vector<1xindex>
            %203 = arith.addi %192, %69 overflow<nsw> : vector<1xindex>
            %204 = arith.addi %192, %71 overflow<nsw> : vector<1xindex>
            %205 = arith.addi %192, %73 overflow<nsw> : vector<1xindex>
            %206 = arith.addi %193, %67 overflow<nsw> : vector<1xindex>
            %207 = arith.addi %193, %69 overflow<nsw> : vector<1xindex>
            %208 = arith.addi %193, %71 overflow<nsw> : vector<1xindex>
            %209 = arith.addi %193, %73 overflow<nsw> : vector<1xindex>
            %210 = vector.extract %194[0] : index from vector<1xindex>
            %211 = vector.extract %195[0] : index from vector<1xindex>
            %212 = vector.extract %196[0] : index from vector<1xindex>
            %213 = vector.extract %197[0] : index from vector<1xindex>
            %214 = vector.extract %198[0] : index from vector<1xindex>
            %215 = vector.extract %199[0] : index from vector<1xindex>
            %216 = vector.extract %200[0] : index from vector<1xindex>
            %217 = vector.extract %201[0] : index from vector<1xindex>
            %218 = vector.extract %202[0] : index from vector<1xindex>
            %219 = vector.extract %203[0] : index from vector<1xindex>
            %220 = vector.extract %204[0] : index from vector<1xindex>
            %221 = vector.extract %205[0] : index from vector<1xindex>
            %222 = vector.extract %206[0] : index from vector<1xindex>
            %223 = vector.extract %207[0] : index from vector<1xindex>
            %224 = vector.extract %208[0] : index from vector<1xindex>
            %225 = vector.extract %209[0] : index from vector<1xindex>
            %226 = vector.from_elements %210, %211, %212, %213, %214, %215, %216, %217, %218, %219, %220, %221, %222, %223, %224, %225 : vector<16xindex>
            %227 = vector.extract %174[0] : i1 from vector<1xi1>
            %228 = vector.extract %175[0] : i1 from vector<1xi1>
            %229 = vector.extract %176[0] : i1 from vector<1xi1>
            %230 = vector.extract %177[0] : i1 from vector<1xi1>
            %231 = vector.extract %178[0] : i1 from vector<1xi1>
            %232 = vector.extract %179[0] : i1 from vector<1xi1>
            %233 = vector.extract %180[0] : i1 from vector<1xi1>
            %234 = vector.extract %181[0] : i1 from vector<1xi1>
            %235 = vector.extract %182[0] : i1 from vector<1xi1>
            %236 = vector.extract %183[0] : i1 from vector<1xi1>
            %237 = vector.extract %184[0] : i1 from vector<1xi1>
            %238 = vector.extract %185[0] : i1 from vector<1xi1>
            %239 = vector.extract %186[0] : i1 from vector<1xi1>
            %240 = vector.extract %187[0] : i1 from vector<1xi1>
            %241 = vector.extract %188[0] : i1 from vector<1xi1>
            %242 = vector.extract %189[0] : i1 from vector<1xi1>
            %243 = vector.from_elements %227, %228, %229, %230, %231, %232, %233, %234, %235, %236, %237, %238, %239, %240, %241, %242 : vector<16xi1>
            %244 = vector.extract %158[0] : f32 from vector<4xf32>
            %245 = vector.extract %159[0] : f32 from vector<4xf32>
            %246 = vector.extract %160[0] : f32 from vector<4xf32>
            %247 = vector.extract %161[0] : f32 from vector<4xf32>
            %248 = vector.extract %158[1] : f32 from vector<4xf32>
            %249 = vector.extract %159[1] : f32 from vector<4xf32>
            %250 = vector.extract %160[1] : f32 from vector<4xf32>
            %251 = vector.extract %161[1] : f32 from vector<4xf32>
            %252 = vector.extract %158[2] : f32 from vector<4xf32>
            %253 = vector.extract %159[2] : f32 from vector<4xf32>
            %254 = vector.extract %160[2] : f32 from vector<4xf32>
            %255 = vector.extract %161[2] : f32 from vector<4xf32>
            %256 = vector.extract %158[3] : f32 from vector<4xf32>
            %257 = vector.extract %159[3] : f32 from vector<4xf32>
            %258 = vector.extract %160[3] : f32 from vector<4xf32>
            %259 = vector.extract %161[3] : f32 from vector<4xf32>
            %260 = vector.from_elements %244, %245, %246, %247, %248, %249, %250, %251, %252, %253, %254, %255, %256, %257, %258, %259 : vector<16xf32>
            vector.scatter %collapse_shape[%c0] [%226], %243, %260 : memref<?xf32, strided<[1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
          }
          memref.dealloc %alloc_5 : memref<2048xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_300x100x1030_f16xf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c5 = arith.constant 5 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c5, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

