#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_1000x600x1030_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_1000x600x1030_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
          %c-32_i32 = arith.constant -32 : i32
          %c-16_i32 = arith.constant -16 : i32
          %c1030_i32 = arith.constant 1030 : i32
          %c32_i32 = arith.constant 32 : i32
          %c-4_i32 = arith.constant -4 : i32
          %c1000_i32 = arith.constant 1000 : i32
          %c8_i32 = arith.constant 8 : i32
          %c1_i32 = arith.constant 1 : i32
          %c33_i32 = arith.constant 33 : i32
          %c600_i32 = arith.constant 600 : i32
          %c19_i32 = arith.constant 19 : i32
          %c16_i32 = arith.constant 16 : i32
          %c4_i32 = arith.constant 4 : i32
          %c0_i32 = arith.constant 0 : i32
          %c64_i32 = arith.constant 64 : i32
          %cst = arith.constant dense<0.000000e+00> : vector<4xf16>
          %c0 = arith.constant 0 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<8xf16>
          %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x36xf16, #gpu.address_space<workgroup>>
          %alloc_2 = memref.alloc() : memref<32x20xf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x1x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 128
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1030x1000xf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<1030x1000xf16, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<1030x1000xf16, #gpu.address_space<global>> to memref<1030x1000xf16, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1030x600xf16, #gpu.address_space<global>>
          %assume_align_3 = memref.assume_alignment %2, 64 : memref<1030x600xf16, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_3 resetOffset : memref<1030x600xf16, #gpu.address_space<global>> to memref<1030x600xf16, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<1000x600xf32, #gpu.address_space<global>>
          %assume_align_4 = memref.assume_alignment %4, 64 : memref<1000x600xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<1000x600xf32, #gpu.address_space<global>> to memref<1000x600xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c64_i32 : i32
          %8 = arith.remui %6, %c64_i32 : i32
          %9 = arith.divui %8, %c16_i32 : i32
          %10 = arith.remui %8, %c16_i32 : i32
          %11 = arith.muli %9, %c4_i32 overflow<nsw> : i32
          %12 = arith.muli %7, %c16_i32 overflow<nsw> : i32
          %13 = arith.addi %12, %10 overflow<nsw> : i32
          %14 = arith.divui %6, %c4_i32 : i32
          %15 = arith.index_castui %14 : i32 to index
          %16 = arith.remui %6, %c4_i32 : i32
          %17 = arith.muli %9, %c8_i32 overflow<nsw> : i32
          %18 = gpu.lane_id upper_bound 64
          %19 = arith.index_castui %18 : index to i32
          %20 = arith.remui %19, %c16_i32 : i32
          %21 = arith.divui %20, %c4_i32 : i32
          %22 = arith.subi %10, %20 : i32
          %23 = arith.remui %20, %c4_i32 : i32
          %24 = arith.muli %23, %c4_i32 : i32
          %25 = arith.addi %22, %24 : i32
          %26 = arith.index_cast %25 : i32 to index
          %27 = arith.addi %17, %21 : i32
          %28 = arith.index_castui %27 : i32 to index
          %29 = arith.addi %21, %c4_i32 : i32
          %30 = arith.addi %17, %29 : i32
          %31 = arith.index_castui %30 : i32 to index
          %32 = arith.muli %16, %c4_i32 overflow<nsw> : i32
          %33 = arith.index_castui %32 : i32 to index
          %34 = arith.muli %16, %c8_i32 overflow<nsw> : i32
          %35 = arith.index_castui %34 : i32 to index
          %36 = arith.addi %12, %25 overflow<nsw> : i32
          %37 = arith.index_cast %36 : i32 to index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 1197 : index
          %38 = arith.index_castui %workgroup_id_x : index to i32
          %39 = arith.divui %38, %c19_i32 : i32
          %40 = arith.remui %38, %c19_i32 : i32
          %41 = arith.muli %39, %c-16_i32 overflow<nsw> : i32
          %42 = arith.addi %41, %c1000_i32 : i32
          %43 = arith.minui %42, %c16_i32 : i32
          %44 = arith.muli %40, %c-32_i32 overflow<nsw> : i32
          %45 = arith.addi %44, %c600_i32 : i32
          %46 = arith.minui %45, %c32_i32 : i32
          %47 = arith.minui %43, %c16_i32 : i32
          %48 = arith.minui %46, %c32_i32 : i32
          %49 = arith.muli %9, %c-4_i32 overflow<nsw> : i32
          %50 = arith.addi %49, %43 : i32
          %51 = arith.maxsi %50, %c0_i32 : i32
          %52 = arith.minui %51, %c4_i32 : i32
          %53 = arith.subi %46, %13 : i32
          %54 = arith.maxsi %53, %c0_i32 : i32
          %55 = arith.minui %54, %c1_i32 : i32
          %56 = arith.minui %47, %32 : i32
          %57 = arith.subi %47, %56 : i32
          %58 = arith.minsi %57, %c4_i32 : i32
          %59 = arith.minui %48, %34 : i32
          %60 = arith.subi %48, %59 : i32
          %61 = arith.minui %60, %c8_i32 : i32
          %62 = arith.cmpi eq, %58, %c4_i32 : i32
          %63 = arith.cmpi eq, %61, %c8_i32 : i32
          %64 = arith.muli %39, %c16_i32 overflow<nsw> : i32
          %65 = arith.addi %56, %64 : i32
          %66 = arith.index_castui %65 : i32 to index
          %67 = arith.muli %40, %c32_i32 overflow<nsw> : i32
          %68 = arith.addi %59, %67 : i32
          %69 = arith.index_castui %68 : i32 to index
          %70 = scf.for %arg0 = %c0_i32 to %c33_i32 step %c1_i32 iter_args(%arg1 = %cst_1) -> (vector<4xf32>)  : i32 {
            %72 = arith.muli %arg0, %c32_i32 overflow<nsw> : i32
            %73 = arith.minui %72, %c1030_i32 : i32
            %74 = arith.subi %c1030_i32, %73 : i32
            %75 = arith.minui %74, %c32_i32 : i32
            %76 = arith.minui %75, %14 : i32
            %77 = arith.subi %75, %76 : i32
            %78 = arith.minsi %77, %c1_i32 : i32
            %79 = arith.index_cast %78 : i32 to index
            %80 = arith.index_castui %79 : index to i1
            %81 = arith.andi %80, %62 : i1
            %82 = arith.addi %76, %73 : i32
            %83 = arith.index_castui %82 : i32 to index
            %84 = vector.load %1[%83, %66] : memref<1030x1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf16>
            %85 = arith.select %81, %84, %cst : vector<4xf16>
            %86 = arith.andi %80, %63 : i1
            %87 = vector.load %3[%83, %69] : memref<1030x600xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xf16>
            %88 = arith.select %86, %87, %cst_0 : vector<8xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %85, %alloc_2[%15, %33] : memref<32x20xf16, #gpu.address_space<workgroup>>, vector<4xf16>
            vector.store %88, %alloc[%15, %35] : memref<32x36xf16, #gpu.address_space<workgroup>>, vector<8xf16>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %89 = amdgpu.transpose_load %alloc_2[%28, %26] : memref<32x20xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %90 = amdgpu.transpose_load %alloc_2[%31, %26] : memref<32x20xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %91 = vector.insert_strided_slice %89, %cst_0 offsets = [0], strides = [1] : vector<4xf16> into vector<8xf16>
            %92 = vector.insert_strided_slice %90, %91 offsets = [4], strides = [1] : vector<4xf16> into vector<8xf16>
            %93 = amdgpu.transpose_load %alloc[%28, %37] : memref<32x36xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %94 = amdgpu.transpose_load %alloc[%31, %37] : memref<32x36xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
            %95 = vector.insert_strided_slice %93, %cst_0 offsets = [0], strides = [1] : vector<4xf16> into vector<8xf16>
            %96 = vector.insert_strided_slice %94, %95 offsets = [4], strides = [1] : vector<4xf16> into vector<8xf16>
            %97 = amdgpu.mfma 16x16x32 %92 * %96 + %arg1 : vector<8xf16>, vector<8xf16>, vector<4xf32>
            scf.yield %97 : vector<4xf32>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %72 = arith.index_castui %arg0 : i32 to index
            %73 = vector.extract %70[%72] : f32 from vector<4xf32>
            memref.store %73, %alloca[%c0, %72, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
          }
          %71 = arith.cmpi sgt, %55, %c0_i32 : i32
          scf.for %arg0 = %c0_i32 to %52 step %c1_i32  : i32 {
            %72 = arith.index_castui %arg0 : i32 to index
            scf.if %71 {
              scf.for %arg1 = %c0_i32 to %55 step %c1_i32  : i32 {
                %73 = memref.load %alloca[%c0, %72, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
                %74 = arith.addi %11, %64 : i32
                %75 = arith.addi %74, %arg0 : i32
                %76 = arith.index_castui %75 : i32 to index
                %77 = arith.addi %13, %67 : i32
                %78 = arith.index_castui %77 : i32 to index
                memref.store %73, %5[%76, %78] : memref<1000x600xf32, #amdgpu.address_space<fat_raw_buffer>>
              }
            }
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_2 : memref<32x20xf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x36xf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_1000x600x1030_f16xf16xf32 workgroup_size = [128, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c1197 = arith.constant 1197 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c1197, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

