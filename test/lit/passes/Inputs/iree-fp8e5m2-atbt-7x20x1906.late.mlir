#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> (s0 * 7)>
#map1 = affine_map<()[s0, s1] -> (s0 * 1906 + s1)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_7x20x1906_f8E5M2xf8E5M2xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_7x20x1906_f8E5M2xf8E5M2xf32() attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
          %c38120 = arith.constant 38120 : index
          %c4 = arith.constant 4 : index
          %c13342 = arith.constant 13342 : index
          %c16 = arith.constant 16 : index
          %c1906_i32 = arith.constant 1906 : i32
          %c24_i32 = arith.constant 24 : i32
          %c7_i32 = arith.constant 7 : i32
          %c2_i32 = arith.constant 2 : i32
          %c32_i32 = arith.constant 32 : i32
          %c20_i32 = arith.constant 20 : i32
          %c-4_i32 = arith.constant -4 : i32
          %c4_i32 = arith.constant 4 : i32
          %c1_i32 = arith.constant 1 : i32
          %c15_i32 = arith.constant 15 : i32
          %c16_i32 = arith.constant 16 : i32
          %c128_i32 = arith.constant 128 : i32
          %c8_i32 = arith.constant 8 : i32
          %c0_i32 = arith.constant 0 : i32
          %c64_i32 = arith.constant 64 : i32
          %cst = arith.constant dense<0.000000e+00> : vector<16xf8E5M2>
          %cst_0 = arith.constant dense<false> : vector<16xi1>
          %c0 = arith.constant 0 : index
          %cst_1 = arith.constant dense<0.000000e+00> : vector<32xf8E5M2>
          %cst_2 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x136xf8E5M2, #gpu.address_space<workgroup>>
          %alloc_3 = memref.alloc() : memref<128x24xf8E5M2, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x4x1x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 128
          %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<1906x7xf8E5M2, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %0, 64 : memref<1906x7xf8E5M2, #gpu.address_space<global>>
          %1 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<1906x7xf8E5M2, #gpu.address_space<global>> to memref<1906x7xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<20x1906xf8E5M2, #gpu.address_space<global>>
          %assume_align_4 = memref.assume_alignment %2, 64 : memref<20x1906xf8E5M2, #gpu.address_space<global>>
          %3 = amdgpu.fat_raw_buffer_cast %assume_align_4 resetOffset : memref<20x1906xf8E5M2, #gpu.address_space<global>> to memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<7x20xf32, #gpu.address_space<global>>
          %assume_align_5 = memref.assume_alignment %4, 64 : memref<7x20xf32, #gpu.address_space<global>>
          %5 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<7x20xf32, #gpu.address_space<global>> to memref<7x20xf32, #amdgpu.address_space<fat_raw_buffer>>
          %6 = arith.index_castui %thread_id_x : index to i32
          %7 = arith.divui %6, %c64_i32 : i32
          %8 = arith.remui %6, %c64_i32 : i32
          %9 = arith.divui %8, %c16_i32 : i32
          %10 = arith.remui %8, %c16_i32 : i32
          %11 = arith.muli %9, %c4_i32 overflow<nsw> : i32
          %12 = arith.muli %7, %c16_i32 overflow<nsw> : i32
          %13 = arith.addi %12, %10 overflow<nsw> : i32
          %14 = arith.index_castui %13 : i32 to index
          %15 = arith.muli %9, %c-4_i32 overflow<nsw> : i32
          %16 = arith.addi %15, %c7_i32 : i32
          %17 = arith.maxsi %16, %c0_i32 : i32
          %18 = arith.minui %17, %c4_i32 : i32
          %19 = arith.subi %c20_i32, %13 : i32
          %20 = arith.maxsi %19, %c0_i32 : i32
          %21 = arith.minui %20, %c1_i32 : i32
          %22 = arith.muli %9, %c32_i32 overflow<nsw> : i32
          %23 = arith.index_castui %22 : i32 to index
          %24 = arith.divui %6, %c8_i32 : i32
          %25 = arith.index_castui %24 : i32 to index
          %26 = arith.remui %6, %c8_i32 : i32
          %27 = arith.minui %24, %c20_i32 : i32
          %28 = arith.index_castui %27 : i32 to index
          %29 = arith.addi %6, %c128_i32 overflow<nsw> : i32
          %30 = arith.divui %29, %c8_i32 : i32
          %31 = arith.index_castui %30 : i32 to index
          %32 = arith.remui %29, %c8_i32 : i32
          %33 = arith.minui %30, %c20_i32 : i32
          %34 = arith.index_castui %33 : i32 to index
          %35 = arith.subi %c20_i32, %33 : i32
          %36 = arith.minui %35, %c1_i32 : i32
          %37 = gpu.lane_id upper_bound 64
          %38 = arith.index_castui %37 : index to i32
          %39 = arith.remui %38, %c16_i32 : i32
          %40 = arith.divui %39, %c2_i32 : i32
          %41 = arith.subi %10, %39 : i32
          %42 = arith.remui %39, %c2_i32 : i32
          %43 = arith.muli %42, %c8_i32 : i32
          %44 = arith.addi %41, %43 : i32
          %45 = arith.index_cast %44 : i32 to index
          %46 = arith.addi %22, %40 : i32
          %47 = arith.index_castui %46 : i32 to index
          %48 = arith.addi %40, %c8_i32 : i32
          %49 = arith.addi %22, %48 : i32
          %50 = arith.index_castui %49 : i32 to index
          %51 = arith.addi %40, %c16_i32 : i32
          %52 = arith.addi %22, %51 : i32
          %53 = arith.index_castui %52 : i32 to index
          %54 = arith.addi %40, %c24_i32 : i32
          %55 = arith.addi %22, %54 : i32
          %56 = arith.index_castui %55 : i32 to index
          %57 = arith.muli %26, %c16_i32 overflow<nsw> : i32
          %58 = arith.index_castui %57 : i32 to index
          %59 = arith.muli %32, %c16_i32 overflow<nsw> : i32
          %60 = arith.index_castui %59 : i32 to index
          %61 = arith.cmpi sgt, %21, %c0_i32 : i32
          %62 = vector.constant_mask [7] : vector<16xi1>
          %63 = arith.cmpi sgt, %36, %c0_i32 : i32
          %64 = scf.for %arg0 = %c0_i32 to %c15_i32 step %c1_i32 iter_args(%arg1 = %cst_2) -> (vector<4xf32>)  : i32 {
            %65 = arith.muli %arg0, %c128_i32 overflow<nsw> : i32
            %66 = arith.minui %65, %c1906_i32 : i32
            %67 = arith.subi %c1906_i32, %66 : i32
            %68 = arith.minui %67, %c128_i32 : i32
            %69 = arith.minui %68, %6 : i32
            %70 = arith.subi %68, %69 : i32
            %71 = arith.minsi %70, %c1_i32 : i32
            %72 = arith.cmpi sgt, %71, %c0_i32 : i32
            %73 = arith.select %72, %62, %cst_0 : vector<16xi1>
            %74 = arith.addi %69, %66 : i32
            %75 = arith.index_castui %74 : i32 to index
            %76 = affine.apply #map()[%75]
            %77 = arith.subi %c13342, %76 : index
            %78 = arith.cmpi ult, %77, %c16 : index
            %79 = arith.remui %77, %c4 : index
            %80 = arith.cmpi ne, %79, %c0 : index
            %81 = arith.andi %78, %80 : i1
            %82 = scf.if %81 -> (vector<16xf8E5M2>) {
              %122 = vector.maskedload %1[%75, %c0], %73, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<1906x7xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xf8E5M2> into vector<16xf8E5M2>
              scf.yield %122 : vector<16xf8E5M2>
            } else {
              %122 = vector.load %1[%75, %c0] : memref<1906x7xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xf8E5M2>
              %123 = arith.select %73, %122, %cst : vector<16xi1>, vector<16xf8E5M2>
              scf.yield %123 : vector<16xf8E5M2>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            vector.store %82, %alloc_3[%thread_id_x, %c0] : memref<128x24xf8E5M2, #gpu.address_space<workgroup>>, vector<16xf8E5M2>
            %83 = arith.minui %68, %57 : i32
            %84 = arith.subi %68, %83 : i32
            %85 = arith.minui %84, %c16_i32 : i32
            %86 = arith.index_castui %85 : i32 to index
            %87 = vector.create_mask %86 : vector<16xi1>
            %88 = arith.addi %83, %66 : i32
            %89 = arith.index_castui %88 : i32 to index
            %90 = affine.apply #map1()[%28, %89]
            %91 = arith.subi %c38120, %90 : index
            %92 = arith.cmpi ult, %91, %c16 : index
            %93 = arith.remui %91, %c4 : index
            %94 = arith.cmpi ne, %93, %c0 : index
            %95 = arith.andi %92, %94 : i1
            %96 = scf.if %95 -> (vector<16xf8E5M2>) {
              %122 = vector.maskedload %3[%28, %89], %87, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xf8E5M2> into vector<16xf8E5M2>
              scf.yield %122 : vector<16xf8E5M2>
            } else {
              %122 = vector.load %3[%28, %89] : memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xf8E5M2>
              %123 = arith.select %87, %122, %cst : vector<16xi1>, vector<16xf8E5M2>
              scf.yield %123 : vector<16xf8E5M2>
            }
            vector.store %96, %alloc[%25, %58] : memref<32x136xf8E5M2, #gpu.address_space<workgroup>>, vector<16xf8E5M2>
            %97 = arith.minui %68, %59 : i32
            %98 = arith.subi %68, %97 : i32
            %99 = arith.minui %98, %c16_i32 : i32
            %100 = arith.index_castui %99 : i32 to index
            %101 = vector.create_mask %100 : vector<16xi1>
            %102 = arith.select %63, %101, %cst_0 : vector<16xi1>
            %103 = arith.addi %97, %66 : i32
            %104 = arith.index_castui %103 : i32 to index
            %105 = affine.apply #map1()[%34, %104]
            %106 = arith.subi %c38120, %105 : index
            %107 = arith.cmpi ult, %106, %c16 : index
            %108 = arith.remui %106, %c4 : index
            %109 = arith.cmpi ne, %108, %c0 : index
            %110 = arith.andi %107, %109 : i1
            %111 = scf.if %110 -> (vector<16xf8E5M2>) {
              %122 = vector.maskedload %3[%34, %104], %102, %cst {amdgpu.buffer_maskedload_needs_mask} : memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xf8E5M2> into vector<16xf8E5M2>
              scf.yield %122 : vector<16xf8E5M2>
            } else {
              %122 = vector.load %3[%34, %104] : memref<20x1906xf8E5M2, #amdgpu.address_space<fat_raw_buffer>>, vector<16xf8E5M2>
              %123 = arith.select %102, %122, %cst : vector<16xi1>, vector<16xf8E5M2>
              scf.yield %123 : vector<16xf8E5M2>
            }
            vector.store %111, %alloc[%31, %60] : memref<32x136xf8E5M2, #gpu.address_space<workgroup>>, vector<16xf8E5M2>
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %112 = amdgpu.transpose_load %alloc_3[%47, %45] : memref<128x24xf8E5M2, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
            %113 = amdgpu.transpose_load %alloc_3[%50, %45] : memref<128x24xf8E5M2, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
            %114 = amdgpu.transpose_load %alloc_3[%53, %45] : memref<128x24xf8E5M2, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
            %115 = amdgpu.transpose_load %alloc_3[%56, %45] : memref<128x24xf8E5M2, #gpu.address_space<workgroup>> -> vector<8xf8E5M2>
            %116 = vector.insert_strided_slice %112, %cst_1 offsets = [0], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
            %117 = vector.insert_strided_slice %113, %116 offsets = [8], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
            %118 = vector.insert_strided_slice %114, %117 offsets = [16], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
            %119 = vector.insert_strided_slice %115, %118 offsets = [24], strides = [1] : vector<8xf8E5M2> into vector<32xf8E5M2>
            %120 = vector.load %alloc[%14, %23] : memref<32x136xf8E5M2, #gpu.address_space<workgroup>>, vector<32xf8E5M2>
            %121 = amdgpu.mfma 16x16x128 %119 * %120 + %arg1 : vector<32xf8E5M2>, vector<32xf8E5M2>, vector<4xf32>
            scf.yield %121 : vector<4xf32>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %65 = arith.index_castui %arg0 : i32 to index
            %66 = vector.extract %64[%65] : f32 from vector<4xf32>
            memref.store %66, %alloca[%c0, %65, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %18 step %c1_i32  : i32 {
            %65 = arith.index_castui %arg0 : i32 to index
            scf.if %61 {
              scf.for %arg1 = %c0_i32 to %21 step %c1_i32  : i32 {
                %66 = memref.load %alloca[%c0, %65, %c0, %c0] : memref<1x4x1x1xf32, #gpu.address_space<private>>
                %67 = arith.addi %11, %arg0 : i32
                %68 = arith.index_castui %67 : i32 to index
                memref.store %66, %5[%68, %14] : memref<7x20xf32, #amdgpu.address_space<fat_raw_buffer>>
              }
            }
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_3 : memref<128x24xf8E5M2, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x136xf8E5M2, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_7x20x1906_f8E5M2xf8E5M2xf32 workgroup_size = [128, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c1, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

