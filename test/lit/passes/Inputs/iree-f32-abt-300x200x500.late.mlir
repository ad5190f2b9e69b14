#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_300x200x500_f32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_300x200x500_f32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c-128_i32 = arith.constant -128 : i32
          %c-64_i32 = arith.constant -64 : i32
          %cst = arith.constant dense<16> : vector<1xi32>
          %c48_i32 = arith.constant 48 : i32
          %c32_i32 = arith.constant 32 : i32
          %c16_i32 = arith.constant 16 : i32
          %c300_i32 = arith.constant 300 : i32
          %c1_i32 = arith.constant 1 : i32
          %c125_i32 = arith.constant 125 : i32
          %c200_i32 = arith.constant 200 : i32
          %c2_i32 = arith.constant 2 : i32
          %c4_i32 = arith.constant 4 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %0 = ub.poison : vector<4xf32>
          %c3 = arith.constant 3 : index
          %cst_0 = arith.constant dense<200> : vector<1xindex>
          %cst_1 = arith.constant dense<0.000000e+00> : vector<2xf32>
          %cst_2 = arith.constant dense<0.000000e+00> : vector<1xf32>
          %c2 = arith.constant 2 : index
          %c1 = arith.constant 1 : index
          %c0 = arith.constant 0 : index
          %cst_3 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<128x6xf32, #gpu.address_space<workgroup>>
          %alloc_4 = memref.alloc() : memref<64x6xf32, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<2x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<300x500xf32, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %1, 64 : memref<300x500xf32, #gpu.address_space<global>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<300x500xf32, #gpu.address_space<global>> to memref<300x500xf32, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<200x500xf32, #gpu.address_space<global>>
          %assume_align_5 = memref.assume_alignment %3, 64 : memref<200x500xf32, #gpu.address_space<global>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<200x500xf32, #gpu.address_space<global>> to memref<200x500xf32, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<300x200xf32, #gpu.address_space<global>>
          %assume_align_6 = memref.assume_alignment %5, 64 : memref<300x200xf32, #gpu.address_space<global>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_6 resetOffset : memref<300x200xf32, #gpu.address_space<global>> to memref<300x200xf32, #amdgpu.address_space<fat_raw_buffer>>
          %7 = arith.index_castui %thread_id_x : index to i32
          %8 = arith.divui %7, %c128_i32 : i32
          %9 = arith.remui %7, %c128_i32 : i32
          %10 = arith.divui %9, %c64_i32 : i32
          %11 = arith.remui %7, %c64_i32 : i32
          %12 = arith.divui %11, %c16_i32 : i32
          %13 = arith.index_castui %12 : i32 to index
          %14 = arith.remui %11, %c16_i32 : i32
          %15 = arith.muli %12, %c4_i32 overflow<nsw> : i32
          %16 = arith.divui %7, %c4_i32 : i32
          %17 = arith.index_castui %16 : i32 to index
          %18 = arith.remui %7, %c4_i32 : i32
          %19 = arith.index_castui %18 : i32 to index
          %20 = arith.divui %7, %c2_i32 : i32
          %21 = arith.index_castui %20 : i32 to index
          %22 = arith.remui %7, %c2_i32 : i32
          %23 = arith.muli %22, %c2_i32 overflow<nsw> : i32
          %24 = arith.index_castui %23 : i32 to index
          %collapse_shape = memref.collapse_shape %6 [[0, 1]] : memref<300x200xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<60000xf32, #amdgpu.address_space<fat_raw_buffer>>
          %25 = vector.step : vector<4xindex>
          %26:4 = vector.to_elements %25 : vector<4xindex>
          %27 = vector.broadcast %26#0 : index to vector<1xindex>
          %28 = vector.broadcast %26#1 : index to vector<1xindex>
          %29 = vector.broadcast %26#2 : index to vector<1xindex>
          %30 = vector.broadcast %26#3 : index to vector<1xindex>
          %31 = arith.muli %8, %c2_i32 overflow<nsw> : i32
          %32 = vector.broadcast %31 : i32 to vector<1xi32>
          %33 = vector.broadcast %15 : i32 to vector<1xi32>
          %34 = arith.index_castui %33 : vector<1xi32> to vector<1xindex>
          %35 = arith.addi %27, %34 : vector<1xindex>
          %36 = arith.addi %28, %34 : vector<1xindex>
          %37 = arith.addi %29, %34 : vector<1xindex>
          %38 = arith.addi %30, %34 : vector<1xindex>
          %39 = arith.muli %10, %c4_i32 overflow<nsw> : i32
          %40 = vector.extract %25[0] : index from vector<4xindex>
          %41 = vector.broadcast %40 : index to vector<1xindex>
          %42 = vector.extract %25[1] : index from vector<4xindex>
          %43 = vector.broadcast %42 : index to vector<1xindex>
          %44 = vector.extract %25[2] : index from vector<4xindex>
          %45 = vector.broadcast %44 : index to vector<1xindex>
          %46 = vector.extract %25[3] : index from vector<4xindex>
          %47 = vector.broadcast %46 : index to vector<1xindex>
          %48 = vector.broadcast %39 : i32 to vector<1xi32>
          %49 = arith.index_castui %41 : vector<1xindex> to vector<1xi32>
          %50 = arith.addi %49, %48 : vector<1xi32>
          %51 = arith.index_castui %43 : vector<1xindex> to vector<1xi32>
          %52 = arith.addi %51, %48 : vector<1xi32>
          %53 = arith.index_castui %45 : vector<1xindex> to vector<1xi32>
          %54 = arith.addi %53, %48 : vector<1xi32>
          %55 = arith.index_castui %47 : vector<1xindex> to vector<1xi32>
          %56 = arith.addi %55, %48 : vector<1xi32>
          %57 = arith.muli %50, %cst overflow<nsw> : vector<1xi32>
          %58 = arith.muli %52, %cst overflow<nsw> : vector<1xi32>
          %59 = arith.muli %54, %cst overflow<nsw> : vector<1xi32>
          %60 = arith.muli %56, %cst overflow<nsw> : vector<1xi32>
          %61 = vector.broadcast %14 : i32 to vector<1xi32>
          %62 = arith.addi %57, %61 overflow<nsw> : vector<1xi32>
          %63 = arith.addi %58, %61 overflow<nsw> : vector<1xi32>
          %64 = arith.addi %59, %61 overflow<nsw> : vector<1xi32>
          %65 = arith.addi %60, %61 overflow<nsw> : vector<1xi32>
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 10 : index
          %66 = arith.index_castui %workgroup_id_x : index to i32
          %67 = arith.divui %66, %c2_i32 : i32
          %68 = arith.remui %66, %c2_i32 : i32
          %69 = arith.muli %68, %c128_i32 overflow<nsw> : i32
          %70 = arith.muli %67, %c64_i32 overflow<nsw> : i32
          %71 = arith.muli %67, %c-64_i32 overflow<nsw> : i32
          %72 = arith.addi %71, %c300_i32 : i32
          %73 = arith.minui %72, %c64_i32 : i32
          %74 = arith.muli %68, %c-128_i32 overflow<nsw> : i32
          %75 = arith.addi %74, %c200_i32 : i32
          %76 = arith.minui %75, %c128_i32 : i32
          %77 = arith.minui %73, %c64_i32 : i32
          %78 = arith.minui %76, %c128_i32 : i32
          %79 = arith.minui %77, %16 : i32
          %80 = arith.subi %77, %79 : i32
          %81 = arith.minsi %80, %c1_i32 : i32
          %82 = arith.index_cast %81 : i32 to index
          %83 = arith.minui %78, %20 : i32
          %84 = arith.subi %78, %83 : i32
          %85 = arith.minsi %84, %c1_i32 : i32
          %86 = arith.index_cast %85 : i32 to index
          %87 = arith.index_castui %82 : index to i1
          %88 = arith.index_castui %86 : index to i1
          %89 = arith.addi %79, %70 : i32
          %90 = arith.index_castui %89 : i32 to index
          %91 = arith.addi %83, %69 : i32
          %92 = arith.index_castui %91 : i32 to index
          %93 = arith.muli %8, %c32_i32 overflow<nsw> : i32
          %94 = arith.addi %93, %14 overflow<nsw> : i32
          %95 = arith.index_castui %94 : i32 to index
          %96 = arith.addi %94, %c16_i32 overflow<nsw> : i32
          %97 = arith.index_castui %96 : i32 to index
          %98 = arith.muli %10, %c64_i32 overflow<nsw> : i32
          %99 = arith.addi %98, %14 overflow<nsw> : i32
          %100 = arith.index_castui %99 : i32 to index
          %101 = arith.addi %99, %c16_i32 overflow<nsw> : i32
          %102 = arith.index_castui %101 : i32 to index
          %103 = arith.addi %99, %c32_i32 overflow<nsw> : i32
          %104 = arith.index_castui %103 : i32 to index
          %105 = arith.addi %99, %c48_i32 overflow<nsw> : i32
          %106 = arith.index_castui %105 : i32 to index
          %107:8 = scf.for %arg0 = %c0_i32 to %c125_i32 step %c1_i32 iter_args(%arg1 = %cst_3, %arg2 = %cst_3, %arg3 = %cst_3, %arg4 = %cst_3, %arg5 = %cst_3, %arg6 = %cst_3, %arg7 = %cst_3, %arg8 = %cst_3) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
            %126 = arith.muli %arg0, %c4_i32 overflow<nsw> : i32
            %127 = arith.addi %18, %126 : i32
            %128 = arith.index_castui %127 : i32 to index
            %129 = vector.load %2[%90, %128] : memref<300x500xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            %130 = arith.select %87, %129, %cst_2 : vector<1xf32>
            %131 = arith.addi %23, %126 : i32
            %132 = arith.index_castui %131 : i32 to index
            %133 = vector.load %4[%92, %132] : memref<200x500xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<2xf32>
            %134 = arith.select %88, %133, %cst_1 : vector<2xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %130, %alloc_4[%17, %19] : memref<64x6xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            vector.store %134, %alloc[%21, %24] : memref<128x6xf32, #gpu.address_space<workgroup>>, vector<2xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %135 = vector.load %alloc_4[%95, %13] : memref<64x6xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %136 = vector.load %alloc_4[%97, %13] : memref<64x6xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %137 = vector.load %alloc[%100, %13] : memref<128x6xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %138 = vector.load %alloc[%102, %13] : memref<128x6xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %139 = vector.load %alloc[%104, %13] : memref<128x6xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %140 = vector.load %alloc[%106, %13] : memref<128x6xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %141 = vector.extract %135[0] : f32 from vector<1xf32>
            %142 = vector.extract %137[0] : f32 from vector<1xf32>
            %143 = amdgpu.mfma 16x16x4 %141 * %142 + %arg8 : f32, f32, vector<4xf32>
            %144 = vector.extract %138[0] : f32 from vector<1xf32>
            %145 = amdgpu.mfma 16x16x4 %141 * %144 + %arg7 : f32, f32, vector<4xf32>
            %146 = vector.extract %139[0] : f32 from vector<1xf32>
            %147 = amdgpu.mfma 16x16x4 %141 * %146 + %arg6 : f32, f32, vector<4xf32>
            %148 = vector.extract %140[0] : f32 from vector<1xf32>
            %149 = amdgpu.mfma 16x16x4 %141 * %148 + %arg5 : f32, f32, vector<4xf32>
            %150 = vector.extract %136[0] : f32 from vector<1xf32>
            %151 = amdgpu.mfma 16x16x4 %150 * %142 + %arg4 : f32, f32, vector<4xf32>
            %152 = amdgpu.mfma 16x16x4 %150 * %144 + %arg3 : f32, f32, vector<4xf32>
            %153 = amdgpu.mfma 16x16x4 %150 * %146 + %arg2 : f32, f32, vector<4xf32>
            %154 = amdgpu.mfma 16x16x4 %150 * %148 + %arg1 : f32, f32, vector<4xf32>
            scf.yield %154, %153, %152, %151, %149, %147, %145, %143 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#7[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c0, %c0, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#6[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c0, %c1, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#5[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c0, %c2, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#4[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c0, %c3, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#3[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c1, %c0, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#2[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c1, %c1, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#1[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c1, %c2, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = vector.extract %107#0[%126] : f32 from vector<4xf32>
            memref.store %127, %alloca[%c1, %c3, %126, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
          }
          %108 = vector.broadcast %76 : i32 to vector<1xi32>
          %109 = arith.cmpi ult, %62, %108 : vector<1xi32>
          %110 = arith.cmpi ult, %63, %108 : vector<1xi32>
          %111 = arith.cmpi ult, %64, %108 : vector<1xi32>
          %112 = arith.cmpi ult, %65, %108 : vector<1xi32>
          %113 = vector.broadcast %69 : i32 to vector<1xi32>
          %114 = arith.addi %113, %62 : vector<1xi32>
          %115 = arith.index_castui %114 : vector<1xi32> to vector<1xindex>
          %116 = arith.addi %113, %63 : vector<1xi32>
          %117 = arith.index_castui %116 : vector<1xi32> to vector<1xindex>
          %118 = arith.addi %113, %64 : vector<1xi32>
          %119 = arith.index_castui %118 : vector<1xi32> to vector<1xindex>
          %120 = arith.addi %113, %65 : vector<1xi32>
          %121 = arith.index_castui %120 : vector<1xi32> to vector<1xindex>
          %122 = vector.broadcast %73 : i32 to vector<1xi32>
          %123 = arith.index_castui %122 : vector<1xi32> to vector<1xindex>
          %124 = vector.broadcast %70 : i32 to vector<1xi32>
          %125 = arith.index_castui %124 : vector<1xi32> to vector<1xindex>
          scf.for %arg0 = %c0_i32 to %c2_i32 step %c1_i32  : i32 {
            %126 = arith.index_castui %arg0 : i32 to index
            %127 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %234 = arith.index_castui %arg1 : i32 to index
              %235 = memref.load %alloca[%126, %c0, %234, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %236 = vector.insert %235, %arg2 [%234] : f32 into vector<4xf32>
              scf.yield %236 : vector<4xf32>
            }
            %128 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %234 = arith.index_castui %arg1 : i32 to index
              %235 = memref.load %alloca[%126, %c1, %234, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %236 = vector.insert %235, %arg2 [%234] : f32 into vector<4xf32>
              scf.yield %236 : vector<4xf32>
            }
            %129 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %234 = arith.index_castui %arg1 : i32 to index
              %235 = memref.load %alloca[%126, %c2, %234, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %236 = vector.insert %235, %arg2 [%234] : f32 into vector<4xf32>
              scf.yield %236 : vector<4xf32>
            }
            %130 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %234 = arith.index_castui %arg1 : i32 to index
              %235 = memref.load %alloca[%126, %c3, %234, %c0] : memref<2x4x4x1xf32, #gpu.address_space<private>>
              %236 = vector.insert %235, %arg2 [%234] : f32 into vector<4xf32>
              scf.yield %236 : vector<4xf32>
            }
            %131 = vector.broadcast %arg0 : i32 to vector<1xi32>
            %132 = arith.addi %32, %131 : vector<1xi32>
            %133 = arith.muli %132, %cst overflow<nsw> : vector<1xi32>
            %134 = arith.index_castui %133 : vector<1xi32> to vector<1xindex>
            %135 = arith.addi %134, %35 overflow<nsw> : vector<1xindex>
            %136 = arith.addi %134, %36 overflow<nsw> : vector<1xindex>
            %137 = arith.addi %134, %37 overflow<nsw> : vector<1xindex>
            %138 = arith.addi %134, %38 overflow<nsw> : vector<1xindex>
            %139 = arith.cmpi ult, %135, %123 : vector<1xindex>
            %140 = arith.cmpi ult, %136, %123 : vector<1xindex>
            %141 = arith.cmpi ult, %137, %123 : vector<1xindex>
            %142 = arith.cmpi ult, %138, %123 : vector<1xindex>
            %143 = arith.andi %139, %109 : vector<1xi1>
            %144 = arith.andi %139, %110 : vector<1xi1>
            %145 = arith.andi %139, %111 : vector<1xi1>
            %146 = arith.andi %139, %112 : vector<1xi1>
            %147 = arith.andi %140, %109 : vector<1xi1>
            %148 = arith.andi %140, %110 : vector<1xi1>
            %149 = arith.andi %140, %111 : vector<1xi1>
            %150 = arith.andi %140, %112 : vector<1xi1>
            %151 = arith.andi %141, %109 : vector<1xi1>
            %152 = arith.andi %141, %110 : vector<1xi1>
            %153 = arith.andi %141, %111 : vector<1xi1>
            %154 = arith.andi %141, %112 : vector<1xi1>
            %155 = arith.andi %142, %109 : vector<1xi1>
            %156 = arith.andi %142, %110 : vector<1xi1>
            %157 = arith.andi %142, %111 : vector<1xi1>
            %158 = arith.andi %142, %112 : vector<1xi1>
            %159 = arith.addi %125, %135 : vector<1xindex>
            %160 = arith.addi %125, %136 : vector<1xindex>
            %161 = arith.addi %125, %137 : vector<1xindex>
            %162 = arith.addi %125, %138 : vector<1xindex>
            %163 = arith.muli %159, %cst_0 overflow<nsw> : vector<1xindex>
            %164 = arith.muli %160, %cst_0 overflow<nsw> : vector<1xindex>
            %165 = arith.muli %161, %cst_0 overflow<nsw> : vector<1xindex>
            %166 = arith.muli %162, %cst_0 overflow<nsw> : vector<1xindex>
            %167 = arith.addi %163, %115 overflow<nsw> : vector<1xindex>
            %168 = arith.addi %163, %117 overflow<nsw> : vector<1xindex>
            %169 = arith.addi %163, %119 overflow<nsw> : vector<1xindex>
            %170 = arith.addi %163, %121 overflow<nsw> : vector<1xindex>
            %171 = arith.addi %164, %115 overflow<nsw> : vector<1xindex>
            %172 = arith.addi %164, %117 overflow<nsw> : vector<1xindex>
            %173 = arith.addi %164, %119 overflow<nsw> : vector<1xindex>
            %174 = arith.addi %164, %121 overflow<nsw> : vector<1xindex>
            %175 = arith.addi %165, %115 overflow<nsw> : vector<1xindex>
            %176 = arith.addi %165, %117 overflow<nsw> : vector<1xindex>
            %177 = arith.addi %165, %119 overflow<nsw> : vector<1xindex>
            %178 = arith.addi %165, %121 overflow<nsw> : vector<1xindex>
            %179 = arith.addi %166, %115 overflow<nsw> : vector<1xindex>
            %180 = arith.addi %166, %117 overflow<nsw> : vector<1xindex>
            %181 = arith.addi %166, %119 overflow<nsw> : vector<1xindex>
            %182 = arith.addi %166, %121 overflow<nsw> : vector<1xindex>
            %183 = vector.extract %167[0] : index from vector<1xindex>
            %184 = vector.extract %168[0] : index from vector<1xindex>
            %185 = vector.extract %169[0] : index from vector<1xindex>
            %186 = vector.extract %170[0] : index from vector<1xindex>
            %187 = vector.extract %171[0] : index from vector<1xindex>
            %188 = vector.extract %172[0] : index from vector<1xindex>
            %189 = vector.extract %173[0] : index from vector<1xindex>
            %190 = vector.extract %174[0] : index from vector<1xindex>
            %191 = vector.extract %175[0] : index from vector<1xindex>
            %192 = vector.extract %176[0] : index from vector<1xindex>
            %193 = vector.extract %177[0] : index from vector<1xindex>
            %194 = vector.extract %178[0] : index from vector<1xindex>
            %195 = vector.extract %179[0] : index from vector<1xindex>
            %196 = vector.extract %180[0] : index from vector<1xindex>
            %197 = vector.extract %181[0] : index from vector<1xindex>
            %198 = vector.extract %182[0] : index from vector<1xindex>
            %199 = vector.from_elements %183, %184, %185, %186, %187, %188, %189, %190, %191, %192, %193, %194, %195, %196, %197, %198 : vector<16xindex>
            %200 = vector.extract %143[0] : i1 from vector<1xi1>
            %201 = vector.extract %144[0] : i1 from vector<1xi1>
            %202 = vector.extract %145[0] : i1 from vector<1xi1>
            %203 = vector.extract %146[0] : i1 from vector<1xi1>
            %204 = vector.extract %147[0] : i1 from vector<1xi1>
            %205 = vector.extract %148[0] : i1 from vector<1xi1>
            %206 = vector.extract %149[0] : i1 from vector<1xi1>
            %207 = vector.extract %150[0] : i1 from vector<1xi1>
            %208 = vector.extract %151[0] : i1 from vector<1xi1>
            %209 = vector.extract %152[0] : i1 from vector<1xi1>
            %210 = vector.extract %153[0] : i1 from vector<1xi1>
            %211 = vector.extract %154[0] : i1 from vector<1xi1>
            %212 = vector.extract %155[0] : i1 from vector<1xi1>
            %213 = vector.extract %156[0] : i1 from vector<1xi1>
            %214 = vector.extract %157[0] : i1 from vector<1xi1>
            %215 = vector.extract %158[0] : i1 from vector<1xi1>
            %216 = vector.from_elements %200, %201, %202, %203, %204, %205, %206, %207, %208, %209, %210, %211, %212, %213, %214, %215 : vector<16xi1>
            %217 = vector.extract %127[0] : f32 from vector<4xf32>
            %218 = vector.extract %128[0] : f32 from vector<4xf32>
            %219 = vector.extract %129[0] : f32 from vector<4xf32>
            %220 = vector.extract %130[0] : f32 from vector<4xf32>
            %221 = vector.extract %127[1] : f32 from vector<4xf32>
            %222 = vector.extract %128[1] : f32 from vector<4xf32>
            %223 = vector.extract %129[1] : f32 from vector<4xf32>
            %224 = vector.extract %130[1] : f32 from vector<4xf32>
            %225 = vector.extract %127[2] : f32 from vector<4xf32>
            %226 = vector.extract %128[2] : f32 from vector<4xf32>
            %227 = vector.extract %129[2] : f32 from vector<4xf32>
            %228 = vector.extract %130[2] : f32 from vector<4xf32>
            %229 = vector.extract %127[3] : f32 from vector<4xf32>
            %230 = vector.extract %128[3] : f32 from vector<4xf32>
            %231 = vector.extract %129[3] : f32 from vector<4xf32>
            %232 = vector.extract %130[3] : f32 from vector<4xf32>
            %233 = vector.from_elements %217, %218, %219, %220, %221, %222, %223, %224, %225, %226, %227, %228, %229, %230, %231, %232 : vector<16xf32>
            vector.scatter %collapse_shape[%c0] [%199], %216, %233 : memref<60000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_4 : memref<64x6xf32, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<128x6xf32, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_300x200x500_f32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c10 = arith.constant 10 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c10, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

