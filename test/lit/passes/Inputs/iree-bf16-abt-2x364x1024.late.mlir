#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_2x364x1024_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_2x364x1024_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
          %c8_i32 = arith.constant 8 : i32
          %c64_i32 = arith.constant 64 : i32
          %c128_i32 = arith.constant 128 : i32
          %c0_i32 = arith.constant 0 : i32
          %c1 = arith.constant 1 : index
          %c63_i32 = arith.constant 63 : i32
          %cst = arith.constant dense<0.000000e+00> : vector<1xf32>
          %c0 = arith.constant 0 : index
          %thread_id_x = gpu.thread_id x upper_bound 64
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x1024xbf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<2x1024xbf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2x1024xbf16, #gpu.address_space<global>> to memref<2x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<364x1024xbf16, #gpu.address_space<global>>
          %assume_align_0 = memref.assume_alignment %2, 64 : memref<364x1024xbf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_0 resetOffset : memref<364x1024xbf16, #gpu.address_space<global>> to memref<364x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2x364xf32, #gpu.address_space<global>>
          %assume_align_1 = memref.assume_alignment %4, 64 : memref<2x364xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_1 resetOffset : memref<2x364xf32, #gpu.address_space<global>> to memref<2x364xf32, #amdgpu.address_space<fat_raw_buffer>>
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 364 : index
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.muli %6, %c8_i32 overflow<nsw> : i32
          %8:2 = scf.for %arg0 = %c0_i32 to %c128_i32 step %c64_i32 iter_args(%arg1 = %cst, %arg2 = %cst) -> (vector<1xf32>, vector<1xf32>)  : i32 {
            %45 = arith.muli %arg0, %c8_i32 overflow<nsw> : i32
            %46 = arith.addi %7, %45 overflow<nsw> : i32
            %47 = arith.index_castui %46 : i32 to index
            %48 = vector.load %1[%c0, %47] : memref<2x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
            %49 = vector.load %1[%c1, %47] : memref<2x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
            %50 = vector.load %3[%workgroup_id_x, %47] : memref<364x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
            %51 = arith.extf %48 : vector<8xbf16> to vector<8xf32>
            %52 = arith.extf %49 : vector<8xbf16> to vector<8xf32>
            %53 = arith.extf %50 : vector<8xbf16> to vector<8xf32>
            %54 = vector.extract %51[0] : f32 from vector<8xf32>
            %55 = vector.extract %52[0] : f32 from vector<8xf32>
            %56 = vector.from_elements %54, %55 : vector<2xf32>
            %57 = vector.extract %51[1] : f32 from vector<8xf32>
            %58 = vector.extract %52[1] : f32 from vector<8xf32>
            %59 = vector.from_elements %57, %58 : vector<2xf32>
            %60 = vector.extract %51[2] : f32 from vector<8xf32>
            %61 = vector.extract %52[2] : f32 from vector<8xf32>
            %62 = vector.from_elements %60, %61 : vector<2xf32>
            %63 = vector.extract %51[3] : f32 from vector<8xf32>
            %64 = vector.extract %52[3] : f32 from vector<8xf32>
            %65 = vector.from_elements %63, %64 : vector<2xf32>
            %66 = vector.extract %51[4] : f32 from vector<8xf32>
            %67 = vector.extract %52[4] : f32 from vector<8xf32>
            %68 = vector.from_elements %66, %67 : vector<2xf32>
            %69 = vector.extract %51[5] : f32 from vector<8xf32>
            %70 = vector.extract %52[5] : f32 from vector<8xf32>
            %71 = vector.from_elements %69, %70 : vector<2xf32>
            %72 = vector.extract %51[6] : f32 from vector<8xf32>
            %73 = vector.extract %52[6] : f32 from vector<8xf32>
            %74 = vector.from_elements %72, %73 : vector<2xf32>
            %75 = vector.extract %51[7] : f32 from vector<8xf32>
            %76 = vector.extract %52[7] : f32 from vector<8xf32>
            %77 = vector.from_elements %75, %76 : vector<2xf32>
            %78 = vector.extract %53[0] : f32 from vector<8xf32>
            %79 = vector.broadcast %78 : f32 to vector<2xf32>
            %80 = vector.extract %53[1] : f32 from vector<8xf32>
            %81 = vector.broadcast %80 : f32 to vector<2xf32>
            %82 = vector.extract %53[2] : f32 from vector<8xf32>
            %83 = vector.broadcast %82 : f32 to vector<2xf32>
            %84 = vector.extract %53[3] : f32 from vector<8xf32>
            %85 = vector.broadcast %84 : f32 to vector<2xf32>
            %86 = vector.extract %53[4] : f32 from vector<8xf32>
            %87 = vector.broadcast %86 : f32 to vector<2xf32>
            %88 = vector.extract %53[5] : f32 from vector<8xf32>
            %89 = vector.broadcast %88 : f32 to vector<2xf32>
            %90 = vector.extract %53[6] : f32 from vector<8xf32>
            %91 = vector.broadcast %90 : f32 to vector<2xf32>
            %92 = vector.extract %53[7] : f32 from vector<8xf32>
            %93 = vector.broadcast %92 : f32 to vector<2xf32>
            %94 = vector.extract %arg1[0] : f32 from vector<1xf32>
            %95 = vector.extract %arg2[0] : f32 from vector<1xf32>
            %96 = vector.from_elements %94, %95 : vector<2xf32>
            %97 = math.fma %77, %93, %96 : vector<2xf32>
            %98 = math.fma %74, %91, %97 : vector<2xf32>
            %99 = math.fma %71, %89, %98 : vector<2xf32>
            %100 = math.fma %68, %87, %99 : vector<2xf32>
            %101 = math.fma %65, %85, %100 : vector<2xf32>
            %102 = math.fma %62, %83, %101 : vector<2xf32>
            %103 = math.fma %59, %81, %102 : vector<2xf32>
            %104 = math.fma %56, %79, %103 : vector<2xf32>
            %105 = vector.extract %104[0] : f32 from vector<2xf32>
            %106 = vector.broadcast %105 : f32 to vector<1xf32>
            %107 = vector.extract %104[1] : f32 from vector<2xf32>
            %108 = vector.broadcast %107 : f32 to vector<1xf32>
            scf.yield %106, %108 : vector<1xf32>, vector<1xf32>
          }
          %9 = arith.addf %8#0, %cst : vector<1xf32>
          %10 = arith.addf %8#1, %cst : vector<1xf32>
          %11 = vector.extract %9[0] : f32 from vector<1xf32>
          %12 = amdgpu.dpp %11 %11 quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) bound_ctrl(true) : f32
          %13 = arith.addf %11, %12 : f32
          %14 = amdgpu.dpp %13 %13 quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32]) bound_ctrl(true) : f32
          %15 = arith.addf %13, %14 : f32
          %16 = amdgpu.dpp %15 %15 row_half_mirror(unit) bound_ctrl(true) : f32
          %17 = arith.addf %15, %16 : f32
          %18 = amdgpu.dpp %17 %17 row_mirror(unit) bound_ctrl(true) : f32
          %19 = arith.addf %17, %18 : f32
          %20 = amdgpu.dpp %19 %19 row_bcast_15(unit) row_mask(10) : f32
          %21 = arith.addf %19, %20 : f32
          %22 = amdgpu.dpp %21 %21 row_bcast_31(unit) bound_ctrl(true) : f32
          %23 = arith.addf %22, %21 : f32
          %24 = rocdl.readlane %23, %c63_i32 : (f32, i32) -> f32
          %25 = vector.extract %10[0] : f32 from vector<1xf32>
          %26 = amdgpu.dpp %25 %25 quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32]) bound_ctrl(true) : f32
          %27 = arith.addf %25, %26 : f32
          %28 = amdgpu.dpp %27 %27 quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32]) bound_ctrl(true) : f32
          %29 = arith.addf %27, %28 : f32
          %30 = amdgpu.dpp %29 %29 row_half_mirror(unit) bound_ctrl(true) : f32
          %31 = arith.addf %29, %30 : f32
          %32 = amdgpu.dpp %31 %31 row_mirror(unit) bound_ctrl(true) : f32
          %33 = arith.addf %31, %32 : f32
          %34 = amdgpu.dpp %33 %33 row_bcast_15(unit) row_mask(10) : f32
          %35 = arith.addf %33, %34 : f32
          %36 = amdgpu.dpp %35 %35 row_bcast_31(unit) bound_ctrl(true) : f32
          %37 = arith.addf %36, %35 : f32
          %38 = rocdl.readlane %37, %c63_i32 : (f32, i32) -> f32
          %39 = vector.broadcast %24 : f32 to vector<1xf32>
          %40 = vector.broadcast %38 : f32 to vector<1xf32>
          %41 = arith.addf %39, %cst : vector<1xf32>
          %42 = arith.addf %40, %cst : vector<1xf32>
          %43 = arith.index_castui %thread_id_x : index to i32
          %44 = arith.cmpi eq, %43, %c0_i32 : i32
          scf.if %44 {
            vector.store %41, %5[%c0, %workgroup_id_x] : memref<2x364xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            vector.store %42, %5[%c1, %workgroup_id_x] : memref<2x364xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
          }
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_2x364x1024_bf16xbf16xf32 workgroup_size = [64, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c364 = arith.constant 364 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c364, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

