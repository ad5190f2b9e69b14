#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_1039x8x68_f32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_1039x8x68_f32() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
          %c8_i32 = arith.constant 8 : i32
          %c1039_i32 = arith.constant 1039 : i32
          %c1_i32 = arith.constant 1 : i32
          %c17_i32 = arith.constant 17 : i32
          %c-16_i32 = arith.constant -16 : i32
          %c4_i32 = arith.constant 4 : i32
          %c16_i32 = arith.constant 16 : i32
          %c0_i32 = arith.constant 0 : i32
          %cst = arith.constant dense<0.000000e+00> : vector<1xf32>
          %c0 = arith.constant 0 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<4x18xf32, #gpu.address_space<workgroup>>
          %alloc_1 = memref.alloc() : memref<4x18xf32, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x1x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 64
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<68x1039xf32, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<68x1039xf32, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<68x1039xf32, #gpu.address_space<global>> to memref<68x1039xf32, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<68x8xf32, #gpu.address_space<global>>
          %assume_align_2 = memref.assume_alignment %2, 64 : memref<68x8xf32, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_2 resetOffset : memref<68x8xf32, #gpu.address_space<global>> to memref<68x8xf32, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<1039x8xf32, #gpu.address_space<global>>
          %assume_align_3 = memref.assume_alignment %4, 64 : memref<1039x8xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_3 resetOffset : memref<1039x8xf32, #gpu.address_space<global>> to memref<1039x8xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c16_i32 : i32
          %8 = arith.index_castui %7 : i32 to index
          %9 = arith.remui %6, %c16_i32 : i32
          %10 = arith.index_castui %9 : i32 to index
          %11 = arith.muli %7, %c4_i32 overflow<nsw> : i32
          %12 = arith.subi %c8_i32, %9 : i32
          %13 = arith.maxsi %12, %c0_i32 : i32
          %14 = arith.minui %13, %c1_i32 : i32
          %15 = arith.minui %9, %c8_i32 : i32
          %16 = arith.index_castui %15 : i32 to index
          %17 = arith.subi %c8_i32, %15 : i32
          %18 = arith.minui %17, %c1_i32 : i32
          %19 = arith.index_castui %18 : i32 to index
          %20 = arith.index_castui %19 : index to i1
          %21 = arith.cmpi sgt, %14, %c0_i32 : i32
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 65 : index
          %22 = arith.index_castui %workgroup_id_x : index to i32
          %23 = arith.muli %22, %c-16_i32 overflow<nsw> : i32
          %24 = arith.addi %23, %c1039_i32 : i32
          %25 = arith.minui %24, %c16_i32 : i32
          %26 = arith.minui %25, %c16_i32 : i32
          %27 = arith.subi %25, %11 : i32
          %28 = arith.minui %27, %c4_i32 : i32
          %29 = arith.minui %26, %9 : i32
          %30 = arith.subi %26, %29 : i32
          %31 = arith.minui %30, %c1_i32 : i32
          %32 = arith.index_castui %31 : i32 to index
          %33 = arith.index_castui %32 : index to i1
          %34 = arith.muli %22, %c16_i32 overflow<nsw> : i32
          %35 = arith.addi %29, %34 : i32
          %36 = arith.index_castui %35 : i32 to index
          %37 = scf.for %arg0 = %c0_i32 to %c17_i32 step %c1_i32 iter_args(%arg1 = %cst_0) -> (vector<4xf32>)  : i32 {
            %38 = arith.muli %arg0, %c4_i32 overflow<nsw> : i32
            %39 = arith.addi %7, %38 : i32
            %40 = arith.index_castui %39 : i32 to index
            %41 = vector.load %1[%40, %36] : memref<68x1039xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            %42 = arith.select %33, %41, %cst : vector<1xf32>
            %43 = vector.load %3[%40, %16] : memref<68x8xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            %44 = arith.select %20, %43, %cst : vector<1xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %42, %alloc[%8, %10] : memref<4x18xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            vector.store %44, %alloc_1[%8, %10] : memref<4x18xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %45 = vector.load %alloc[%8, %10] : memref<4x18xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %46 = vector.load %alloc_1[%8, %10] : memref<4x18xf32, #gpu.address_space<workgroup>>, vector<1xf32>
            %47 = vector.extract %45[0] : f32 from vector<1xf32>
            %48 = vector.extract %46[0] : f32 from vector<1xf32>
            %49 = amdgpu.mfma 16x16x4 %47 * %48 + %arg1 : f32, f32, vector<4xf32>
            scf.yield %49 : vector<4xf32>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %38 = arith.index_castui %arg0 : i32 to index
            %39 = vector.extract %37[%38] : f32 from vector<4xf32>
            memref.store %39, %alloca[%c0, %38, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %28 step %c1_i32  : i32 {
            %38 = arith.index_castui %arg0 : i32 to index
            scf.if %21 {
              scf.for %arg1 = %c0_i32 to %14 step %c1_i32  : i32 {
                %39 = memref.load %alloca[%c0, %38, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
                %40 = arith.addi %11, %34 : i32
                %41 = arith.addi %40, %arg0 : i32
                %42 = arith.index_castui %41 : i32 to index
                memref.store %39, %5[%42, %10] : memref<1039x8xf32, #amdgpu.address_space<fat_raw_buffer>>
              }
            }
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_1 : memref<4x18xf32, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4x18xf32, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_1039x8x68_f32 workgroup_size = [64, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c65 = arith.constant 65 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c65, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

