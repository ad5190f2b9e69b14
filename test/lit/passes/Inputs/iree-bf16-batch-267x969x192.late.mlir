#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_batch_matmul_2x267x969x192_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_batch_matmul_2x267x969x192_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c-128_i32 = arith.constant -128 : i32
          %cst = arith.constant dense<16> : vector<1xi32>
          %cst_0 = arith.constant dense<258723> : vector<1xi32>
          %c48_i32 = arith.constant 48 : i32
          %c16_i32 = arith.constant 16 : i32
          %c267_i32 = arith.constant 267 : i32
          %c2_i32 = arith.constant 2 : i32
          %c1_i32 = arith.constant 1 : i32
          %c32_i32 = arith.constant 32 : i32
          %c969_i32 = arith.constant 969 : i32
          %c-64_i32 = arith.constant -64 : i32
          %c40_i32 = arith.constant 40 : i32
          %c4_i32 = arith.constant 4 : i32
          %c768_i32 = arith.constant 768 : i32
          %c512_i32 = arith.constant 512 : i32
          %c256_i32 = arith.constant 256 : i32
          %c8_i32 = arith.constant 8 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %0 = ub.poison : vector<4xf32>
          %c3 = arith.constant 3 : index
          %cst_1 = arith.constant dense<969> : vector<1xindex>
          %cst_2 = arith.constant dense<0.000000e+00> : vector<8xbf16>
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c0 = arith.constant 0 : index
          %cst_3 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<1x128x68xbf16, #gpu.address_space<workgroup>>
          %alloc_4 = memref.alloc() : memref<1x64x68xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x267x192xbf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %1, 64 : memref<2x267x192xbf16, #gpu.address_space<global>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2x267x192xbf16, #gpu.address_space<global>> to memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x969x192xbf16, #gpu.address_space<global>>
          %assume_align_5 = memref.assume_alignment %3, 64 : memref<2x969x192xbf16, #gpu.address_space<global>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<2x969x192xbf16, #gpu.address_space<global>> to memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2x267x969xf32, #gpu.address_space<global>>
          %assume_align_6 = memref.assume_alignment %5, 64 : memref<2x267x969xf32, #gpu.address_space<global>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_6 resetOffset : memref<2x267x969xf32, #gpu.address_space<global>> to memref<2x267x969xf32, #amdgpu.address_space<fat_raw_buffer>>
          %7 = arith.index_castui %thread_id_x : index to i32
          %8 = arith.divui %7, %c128_i32 : i32
          %9 = arith.remui %7, %c128_i32 : i32
          %10 = arith.divui %9, %c64_i32 : i32
          %11 = arith.remui %7, %c64_i32 : i32
          %12 = arith.divui %11, %c16_i32 : i32
          %13 = arith.remui %11, %c16_i32 : i32
          %14 = arith.muli %12, %c4_i32 overflow<nsw> : i32
          %15 = arith.muli %12, %c8_i32 overflow<nsw> : i32
          %16 = arith.index_castui %15 : i32 to index
          %17 = arith.divui %7, %c8_i32 : i32
          %18 = arith.index_castui %17 : i32 to index
          %19 = arith.remui %7, %c8_i32 : i32
          %20 = arith.addi %7, %c256_i32 overflow<nsw> : i32
          %21 = arith.divui %20, %c8_i32 : i32
          %22 = arith.index_castui %21 : i32 to index
          %23 = arith.remui %20, %c8_i32 : i32
          %24 = arith.addi %7, %c512_i32 overflow<nsw> : i32
          %25 = arith.divui %24, %c8_i32 : i32
          %26 = arith.index_castui %25 : i32 to index
          %27 = arith.remui %24, %c8_i32 : i32
          %28 = arith.addi %7, %c768_i32 overflow<nsw> : i32
          %29 = arith.divui %28, %c8_i32 : i32
          %30 = arith.index_castui %29 : i32 to index
          %31 = arith.remui %28, %c8_i32 : i32
          %32 = arith.muli %19, %c8_i32 overflow<nsw> : i32
          %33 = arith.index_castui %32 : i32 to index
          %34 = arith.muli %23, %c8_i32 overflow<nsw> : i32
          %35 = arith.index_castui %34 : i32 to index
          %36 = arith.muli %27, %c8_i32 overflow<nsw> : i32
          %37 = arith.index_castui %36 : i32 to index
          %38 = arith.muli %31, %c8_i32 overflow<nsw> : i32
          %39 = arith.index_castui %38 : i32 to index
          %40 = arith.addi %32, %c64_i32 overflow<nsw> : i32
          %41 = arith.index_castui %40 : i32 to index
          %42 = arith.addi %34, %c64_i32 overflow<nsw> : i32
          %43 = arith.index_castui %42 : i32 to index
          %44 = arith.addi %36, %c64_i32 overflow<nsw> : i32
          %45 = arith.index_castui %44 : i32 to index
          %46 = arith.addi %38, %c64_i32 overflow<nsw> : i32
          %47 = arith.index_castui %46 : i32 to index
          %48 = arith.addi %32, %c128_i32 overflow<nsw> : i32
          %49 = arith.index_castui %48 : i32 to index
          %50 = arith.addi %34, %c128_i32 overflow<nsw> : i32
          %51 = arith.index_castui %50 : i32 to index
          %52 = arith.addi %36, %c128_i32 overflow<nsw> : i32
          %53 = arith.index_castui %52 : i32 to index
          %54 = arith.addi %38, %c128_i32 overflow<nsw> : i32
          %55 = arith.index_castui %54 : i32 to index
          %collapse_shape = memref.collapse_shape %6 [[0, 1, 2]] : memref<2x267x969xf32, #amdgpu.address_space<fat_raw_buffer>> into memref<517446xf32, #amdgpu.address_space<fat_raw_buffer>>
          %56 = vector.step : vector<4xindex>
          %57:4 = vector.to_elements %56 : vector<4xindex>
          %58 = vector.broadcast %57#0 : index to vector<1xindex>
          %59 = vector.broadcast %57#1 : index to vector<1xindex>
          %60 = vector.broadcast %57#2 : index to vector<1xindex>
          %61 = vector.broadcast %57#3 : index to vector<1xindex>
          %62 = arith.muli %8, %c2_i32 overflow<nsw> : i32
          %63 = vector.broadcast %62 : i32 to vector<1xi32>
          %64 = vector.broadcast %14 : i32 to vector<1xi32>
          %65 = arith.index_castui %64 : vector<1xi32> to vector<1xindex>
          %66 = arith.addi %58, %65 : vector<1xindex>
          %67 = arith.addi %59, %65 : vector<1xindex>
          %68 = arith.addi %60, %65 : vector<1xindex>
          %69 = arith.addi %61, %65 : vector<1xindex>
          %70 = arith.muli %10, %c4_i32 overflow<nsw> : i32
          %71 = vector.extract %56[0] : index from vector<4xindex>
          %72 = vector.broadcast %71 : index to vector<1xindex>
          %73 = vector.extract %56[1] : index from vector<4xindex>
          %74 = vector.broadcast %73 : index to vector<1xindex>
          %75 = vector.extract %56[2] : index from vector<4xindex>
          %76 = vector.broadcast %75 : index to vector<1xindex>
          %77 = vector.extract %56[3] : index from vector<4xindex>
          %78 = vector.broadcast %77 : index to vector<1xindex>
          %79 = vector.broadcast %70 : i32 to vector<1xi32>
          %80 = arith.index_castui %72 : vector<1xindex> to vector<1xi32>
          %81 = arith.addi %80, %79 : vector<1xi32>
          %82 = arith.index_castui %74 : vector<1xindex> to vector<1xi32>
          %83 = arith.addi %82, %79 : vector<1xi32>
          %84 = arith.index_castui %76 : vector<1xindex> to vector<1xi32>
          %85 = arith.addi %84, %79 : vector<1xi32>
          %86 = arith.index_castui %78 : vector<1xindex> to vector<1xi32>
          %87 = arith.addi %86, %79 : vector<1xi32>
          %88 = arith.muli %81, %cst overflow<nsw> : vector<1xi32>
          %89 = arith.muli %83, %cst overflow<nsw> : vector<1xi32>
          %90 = arith.muli %85, %cst overflow<nsw> : vector<1xi32>
          %91 = arith.muli %87, %cst overflow<nsw> : vector<1xi32>
          %92 = vector.broadcast %13 : i32 to vector<1xi32>
          %93 = arith.addi %88, %92 overflow<nsw> : vector<1xi32>
          %94 = arith.addi %89, %92 overflow<nsw> : vector<1xi32>
          %95 = arith.addi %90, %92 overflow<nsw> : vector<1xi32>
          %96 = arith.addi %91, %92 overflow<nsw> : vector<1xi32>
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 80 : index
          %97 = arith.index_castui %workgroup_id_x : index to i32
          %98 = arith.divui %97, %c40_i32 : i32
          %99 = arith.index_castui %98 : i32 to index
          %100 = arith.remui %97, %c40_i32 : i32
          %101 = arith.divui %100, %c8_i32 : i32
          %102 = arith.remui %97, %c8_i32 : i32
          %103 = arith.muli %102, %c128_i32 overflow<nsw> : i32
          %104 = arith.muli %101, %c64_i32 overflow<nsw> : i32
          %105 = arith.muli %101, %c-64_i32 overflow<nsw> : i32
          %106 = arith.addi %105, %c267_i32 : i32
          %107 = arith.minui %106, %c64_i32 : i32
          %108 = arith.muli %102, %c-128_i32 overflow<nsw> : i32
          %109 = arith.addi %108, %c969_i32 : i32
          %110 = arith.minui %109, %c128_i32 : i32
          %111 = arith.minui %107, %c64_i32 : i32
          %112 = arith.minui %110, %c128_i32 : i32
          %113 = arith.minui %111, %17 : i32
          %114 = arith.subi %111, %113 : i32
          %115 = arith.minsi %114, %c1_i32 : i32
          %116 = arith.index_cast %115 : i32 to index
          %117 = arith.index_castui %116 : index to i1
          %118 = arith.minui %111, %21 : i32
          %119 = arith.subi %111, %118 : i32
          %120 = arith.minsi %119, %c1_i32 : i32
          %121 = arith.index_cast %120 : i32 to index
          %122 = arith.index_castui %121 : index to i1
          %123 = arith.minui %112, %17 : i32
          %124 = arith.minui %112, %21 : i32
          %125 = arith.minui %112, %25 : i32
          %126 = arith.subi %112, %125 : i32
          %127 = arith.minsi %126, %c1_i32 : i32
          %128 = arith.index_cast %127 : i32 to index
          %129 = arith.index_castui %128 : index to i1
          %130 = arith.minui %112, %29 : i32
          %131 = arith.subi %112, %130 : i32
          %132 = arith.minsi %131, %c1_i32 : i32
          %133 = arith.index_cast %132 : i32 to index
          %134 = arith.index_castui %133 : index to i1
          %135 = arith.addi %113, %104 : i32
          %136 = arith.index_castui %135 : i32 to index
          %137 = vector.load %2[%99, %136, %33] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %138 = arith.addi %118, %104 : i32
          %139 = arith.index_castui %138 : i32 to index
          %140 = vector.load %2[%99, %139, %35] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %141 = arith.addi %123, %103 : i32
          %142 = arith.index_castui %141 : i32 to index
          %143 = vector.load %4[%99, %142, %33] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %144 = arith.addi %124, %103 : i32
          %145 = arith.index_castui %144 : i32 to index
          %146 = vector.load %4[%99, %145, %35] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %147 = arith.addi %125, %103 : i32
          %148 = arith.index_castui %147 : i32 to index
          %149 = vector.load %4[%99, %148, %37] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %150 = arith.addi %130, %103 : i32
          %151 = arith.index_castui %150 : i32 to index
          %152 = vector.load %4[%99, %151, %39] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %153 = arith.select %117, %137, %cst_2 : vector<8xbf16>
          vector.store %153, %alloc_4[%c0, %18, %33] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %154 = arith.select %122, %140, %cst_2 : vector<8xbf16>
          vector.store %154, %alloc_4[%c0, %22, %35] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          vector.store %143, %alloc[%c0, %18, %33] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          vector.store %146, %alloc[%c0, %22, %35] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %155 = arith.select %129, %149, %cst_2 : vector<8xbf16>
          vector.store %155, %alloc[%c0, %26, %37] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %156 = arith.select %134, %152, %cst_2 : vector<8xbf16>
          vector.store %156, %alloc[%c0, %30, %39] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %157 = vector.load %2[%99, %136, %41] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %158 = vector.load %2[%99, %139, %43] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %159 = vector.load %4[%99, %142, %41] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %160 = vector.load %4[%99, %145, %43] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %161 = vector.load %4[%99, %148, %45] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %162 = vector.load %4[%99, %151, %47] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          %163 = arith.muli %8, %c32_i32 overflow<nsw> : i32
          %164 = arith.addi %163, %13 overflow<nsw> : i32
          %165 = arith.index_castui %164 : i32 to index
          %166 = vector.load %alloc_4[%c0, %165, %16] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %167 = arith.addi %15, %c32_i32 overflow<nsw> : i32
          %168 = arith.index_castui %167 : i32 to index
          %169 = vector.load %alloc_4[%c0, %165, %168] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %170 = arith.addi %164, %c16_i32 overflow<nsw> : i32
          %171 = arith.index_castui %170 : i32 to index
          %172 = vector.load %alloc_4[%c0, %171, %16] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %173 = vector.load %alloc_4[%c0, %171, %168] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %174 = arith.muli %10, %c64_i32 overflow<nsw> : i32
          %175 = arith.addi %174, %13 overflow<nsw> : i32
          %176 = arith.index_castui %175 : i32 to index
          %177 = vector.load %alloc[%c0, %176, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %178 = vector.load %alloc[%c0, %176, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %179 = arith.addi %175, %c16_i32 overflow<nsw> : i32
          %180 = arith.index_castui %179 : i32 to index
          %181 = vector.load %alloc[%c0, %180, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %182 = vector.load %alloc[%c0, %180, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %183 = arith.addi %175, %c32_i32 overflow<nsw> : i32
          %184 = arith.index_castui %183 : i32 to index
          %185 = vector.load %alloc[%c0, %184, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %186 = vector.load %alloc[%c0, %184, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %187 = arith.addi %175, %c48_i32 overflow<nsw> : i32
          %188 = arith.index_castui %187 : i32 to index
          %189 = vector.load %alloc[%c0, %188, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %190 = vector.load %alloc[%c0, %188, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %191 = amdgpu.mfma 16x16x32 %166 * %177 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %192 = amdgpu.mfma 16x16x32 %166 * %181 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %193 = amdgpu.mfma 16x16x32 %166 * %185 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %194 = amdgpu.mfma 16x16x32 %166 * %189 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %195 = amdgpu.mfma 16x16x32 %172 * %177 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %196 = amdgpu.mfma 16x16x32 %172 * %181 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %197 = amdgpu.mfma 16x16x32 %172 * %185 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %198 = amdgpu.mfma 16x16x32 %172 * %189 + %cst_3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %199 = amdgpu.mfma 16x16x32 %169 * %178 + %191 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %200 = amdgpu.mfma 16x16x32 %169 * %182 + %192 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %201 = amdgpu.mfma 16x16x32 %169 * %186 + %193 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %202 = amdgpu.mfma 16x16x32 %169 * %190 + %194 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %203 = amdgpu.mfma 16x16x32 %173 * %178 + %195 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %204 = amdgpu.mfma 16x16x32 %173 * %182 + %196 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %205 = amdgpu.mfma 16x16x32 %173 * %186 + %197 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %206 = amdgpu.mfma 16x16x32 %173 * %190 + %198 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %207 = arith.select %117, %157, %cst_2 : vector<8xbf16>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          amdgpu.sched_barrier allow = none
          vector.store %207, %alloc_4[%c0, %18, %33] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %208 = arith.select %122, %158, %cst_2 : vector<8xbf16>
          vector.store %208, %alloc_4[%c0, %22, %35] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          vector.store %159, %alloc[%c0, %18, %33] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          vector.store %160, %alloc[%c0, %22, %35] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %209 = arith.select %129, %161, %cst_2 : vector<8xbf16>
          vector.store %209, %alloc[%c0, %26, %37] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %210 = arith.select %134, %162, %cst_2 : vector<8xbf16>
          vector.store %210, %alloc[%c0, %30, %39] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %211 = vector.load %2[%99, %136, %49] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %212 = vector.load %2[%99, %139, %51] : memref<2x267x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %213 = vector.load %4[%99, %142, %49] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %214 = vector.load %4[%99, %145, %51] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %215 = vector.load %4[%99, %148, %53] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          %216 = vector.load %4[%99, %151, %55] : memref<2x969x192xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          %217 = vector.load %alloc_4[%c0, %165, %16] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %218 = vector.load %alloc_4[%c0, %165, %168] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %219 = vector.load %alloc_4[%c0, %171, %16] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %220 = vector.load %alloc_4[%c0, %171, %168] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %221 = vector.load %alloc[%c0, %176, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %222 = vector.load %alloc[%c0, %176, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %223 = vector.load %alloc[%c0, %180, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %224 = vector.load %alloc[%c0, %180, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %225 = vector.load %alloc[%c0, %184, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %226 = vector.load %alloc[%c0, %184, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %227 = vector.load %alloc[%c0, %188, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %228 = vector.load %alloc[%c0, %188, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %229 = amdgpu.mfma 16x16x32 %217 * %221 + %199 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %230 = amdgpu.mfma 16x16x32 %217 * %223 + %200 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %231 = amdgpu.mfma 16x16x32 %217 * %225 + %201 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %232 = amdgpu.mfma 16x16x32 %217 * %227 + %202 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %233 = amdgpu.mfma 16x16x32 %219 * %221 + %203 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %234 = amdgpu.mfma 16x16x32 %219 * %223 + %204 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %235 = amdgpu.mfma 16x16x32 %219 * %225 + %205 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %236 = amdgpu.mfma 16x16x32 %219 * %227 + %206 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %237 = amdgpu.mfma 16x16x32 %218 * %222 + %229 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %238 = amdgpu.mfma 16x16x32 %218 * %224 + %230 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %239 = amdgpu.mfma 16x16x32 %218 * %226 + %231 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %240 = amdgpu.mfma 16x16x32 %218 * %228 + %232 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %241 = amdgpu.mfma 16x16x32 %220 * %222 + %233 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %242 = amdgpu.mfma 16x16x32 %220 * %224 + %234 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %243 = amdgpu.mfma 16x16x32 %220 * %226 + %235 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %244 = amdgpu.mfma 16x16x32 %220 * %228 + %236 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %245 = arith.select %117, %211, %cst_2 : vector<8xbf16>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          vector.store %245, %alloc_4[%c0, %18, %33] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %246 = arith.select %122, %212, %cst_2 : vector<8xbf16>
          vector.store %246, %alloc_4[%c0, %22, %35] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          vector.store %213, %alloc[%c0, %18, %33] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          vector.store %214, %alloc[%c0, %22, %35] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %247 = arith.select %129, %215, %cst_2 : vector<8xbf16>
          vector.store %247, %alloc[%c0, %26, %37] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %248 = arith.select %134, %216, %cst_2 : vector<8xbf16>
          vector.store %248, %alloc[%c0, %30, %39] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          %249 = vector.load %alloc_4[%c0, %165, %16] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %250 = vector.load %alloc_4[%c0, %165, %168] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %251 = vector.load %alloc_4[%c0, %171, %16] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %252 = vector.load %alloc_4[%c0, %171, %168] : memref<1x64x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %253 = vector.load %alloc[%c0, %176, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %254 = vector.load %alloc[%c0, %176, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %255 = vector.load %alloc[%c0, %180, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %256 = vector.load %alloc[%c0, %180, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %257 = vector.load %alloc[%c0, %184, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %258 = vector.load %alloc[%c0, %184, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %259 = vector.load %alloc[%c0, %188, %16] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %260 = vector.load %alloc[%c0, %188, %168] : memref<1x128x68xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
          %261 = amdgpu.mfma 16x16x32 %249 * %253 + %237 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %262 = amdgpu.mfma 16x16x32 %249 * %255 + %238 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %263 = amdgpu.mfma 16x16x32 %249 * %257 + %239 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %264 = amdgpu.mfma 16x16x32 %249 * %259 + %240 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %265 = amdgpu.mfma 16x16x32 %251 * %253 + %241 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %266 = amdgpu.mfma 16x16x32 %251 * %255 + %242 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %267 = amdgpu.mfma 16x16x32 %251 * %257 + %243 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %268 = amdgpu.mfma 16x16x32 %251 * %259 + %244 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %269 = amdgpu.mfma 16x16x32 %250 * %254 + %261 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %270 = amdgpu.mfma 16x16x32 %250 * %256 + %262 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %271 = amdgpu.mfma 16x16x32 %250 * %258 + %263 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %272 = amdgpu.mfma 16x16x32 %250 * %260 + %264 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %273 = amdgpu.mfma 16x16x32 %252 * %254 + %265 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %274 = amdgpu.mfma 16x16x32 %252 * %256 + %266 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %275 = amdgpu.mfma 16x16x32 %252 * %258 + %267 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          %276 = amdgpu.mfma 16x16x32 %252 * %260 + %268 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %269[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c0, %c0, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %270[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c0, %c1, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %271[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c0, %c2, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %272[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c0, %c3, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %273[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c1, %c0, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %274[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c1, %c1, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %275[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c1, %c2, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          scf.for %arg0 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = vector.extract %276[%298] : f32 from vector<4xf32>
            memref.store %299, %alloca[%c0, %c1, %c3, %298, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
          }
          %277 = vector.broadcast %110 : i32 to vector<1xi32>
          %278 = arith.cmpi ult, %93, %277 : vector<1xi32>
          %279 = arith.cmpi ult, %94, %277 : vector<1xi32>
          %280 = arith.cmpi ult, %95, %277 : vector<1xi32>
          %281 = arith.cmpi ult, %96, %277 : vector<1xi32>
          %282 = vector.broadcast %98 : i32 to vector<1xi32>
          %283 = vector.broadcast %103 : i32 to vector<1xi32>
          %284 = arith.addi %283, %93 : vector<1xi32>
          %285 = arith.index_castui %284 : vector<1xi32> to vector<1xindex>
          %286 = arith.addi %283, %94 : vector<1xi32>
          %287 = arith.index_castui %286 : vector<1xi32> to vector<1xindex>
          %288 = arith.addi %283, %95 : vector<1xi32>
          %289 = arith.index_castui %288 : vector<1xi32> to vector<1xindex>
          %290 = arith.addi %283, %96 : vector<1xi32>
          %291 = arith.index_castui %290 : vector<1xi32> to vector<1xindex>
          %292 = arith.muli %282, %cst_0 overflow<nsw> : vector<1xi32>
          %293 = arith.index_castui %292 : vector<1xi32> to vector<1xindex>
          %294 = vector.broadcast %107 : i32 to vector<1xi32>
          %295 = arith.index_castui %294 : vector<1xi32> to vector<1xindex>
          %296 = vector.broadcast %104 : i32 to vector<1xi32>
          %297 = arith.index_castui %296 : vector<1xi32> to vector<1xindex>
          scf.for %arg0 = %c0_i32 to %c2_i32 step %c1_i32  : i32 {
            %298 = arith.index_castui %arg0 : i32 to index
            %299 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %410 = arith.index_castui %arg1 : i32 to index
              %411 = memref.load %alloca[%c0, %298, %c0, %410, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
              %412 = vector.insert %411, %arg2 [%410] : f32 into vector<4xf32>
              scf.yield %412 : vector<4xf32>
            }
            %300 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %410 = arith.index_castui %arg1 : i32 to index
              %411 = memref.load %alloca[%c0, %298, %c1, %410, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
              %412 = vector.insert %411, %arg2 [%410] : f32 into vector<4xf32>
              scf.yield %412 : vector<4xf32>
            }
            %301 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %410 = arith.index_castui %arg1 : i32 to index
              %411 = memref.load %alloca[%c0, %298, %c2, %410, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
              %412 = vector.insert %411, %arg2 [%410] : f32 into vector<4xf32>
              scf.yield %412 : vector<4xf32>
            }
            %302 = scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg2 = %0) -> (vector<4xf32>)  : i32 {
              %410 = arith.index_castui %arg1 : i32 to index
              %411 = memref.load %alloca[%c0, %298, %c3, %410, %c0] : memref<1x2x4x4x1xf32, #gpu.address_space<private>>
              %412 = vector.insert %411, %arg2 [%410] : f32 into vector<4xf32>
              scf.yield %412 : vector<4xf32>
            }
            %303 = vector.broadcast %arg0 : i32 to vector<1xi32>
            %304 = arith.addi %63, %303 : vector<1xi32>
            %305 = arith.muli %304, %cst overflow<nsw> : vector<1xi32>
            %306 = arith.index_castui %305 : vector<1xi32> to vector<1xindex>
            %307 = arith.addi %306, %66 overflow<nsw> : vector<1xindex>
            %308 = arith.addi %306, %67 overflow<nsw> : vector<1xindex>
            %309 = arith.addi %306, %68 overflow<nsw> : vector<1xindex>
            %310 = arith.addi %306, %69 overflow<nsw> : vector<1xindex>
            %311 = arith.cmpi ult, %307, %295 : vector<1xindex>
            %312 = arith.cmpi ult, %308, %295 : vector<1xindex>
            %313 = arith.cmpi ult, %309, %295 : vector<1xindex>
            %314 = arith.cmpi ult, %310, %295 : vector<1xindex>
            %315 = arith.andi %311, %278 : vector<1xi1>
            %316 = arith.andi %311, %279 : vector<1xi1>
            %317 = arith.andi %311, %280 : vector<1xi1>
            %318 = arith.andi %311, %281 : vector<1xi1>
            %319 = arith.andi %312, %278 : vector<1xi1>
            %320 = arith.andi %312, %279 : vector<1xi1>
            %321 = arith.andi %312, %280 : vector<1xi1>
            %322 = arith.andi %312, %281 : vector<1xi1>
            %323 = arith.andi %313, %278 : vector<1xi1>
            %324 = arith.andi %313, %279 : vector<1xi1>
            %325 = arith.andi %313, %280 : vector<1xi1>
            %326 = arith.andi %313, %281 : vector<1xi1>
            %327 = arith.andi %314, %278 : vector<1xi1>
            %328 = arith.andi %314, %279 : vector<1xi1>
            %329 = arith.andi %314, %280 : vector<1xi1>
            %330 = arith.andi %314, %281 : vector<1xi1>
            %331 = arith.addi %297, %307 : vector<1xindex>
            %332 = arith.addi %297, %308 : vector<1xindex>
            %333 = arith.addi %297, %309 : vector<1xindex>
            %334 = arith.addi %297, %310 : vector<1xindex>
            %335 = arith.muli %331, %cst_1 overflow<nsw> : vector<1xindex>
            %336 = arith.muli %332, %cst_1 overflow<nsw> : vector<1xindex>
            %337 = arith.muli %333, %cst_1 overflow<nsw> : vector<1xindex>
            %338 = arith.muli %334, %cst_1 overflow<nsw> : vector<1xindex>
            %339 = arith.addi %293, %335 overflow<nsw> : vector<1xindex>
            %340 = arith.addi %293, %336 overflow<nsw> : vector<1xindex>
            %341 = arith.addi %293, %337 overflow<nsw> : vector<1xindex>
            %342 = arith.addi %293, %338 overflow<nsw> : vector<1xindex>
            %343 = arith.addi %339, %285 overflow<nsw> : vector<1xindex>
            %344 = arith.addi %339, %287 overflow<nsw> : vector<1xindex>
            %345 = arith.addi %339, %289 overflow<nsw> : vector<1xindex>
            %346 = arith.addi %339, %291 overflow<nsw> : vector<1xindex>
            %347 = arith.addi %340, %285 overflow<nsw> : vector<1xindex>
            %348 = arith.addi %340, %287 overflow<nsw> : vector<1xindex>
            %349 = arith.addi %340, %289 overflow<nsw> : vector<1xindex>
            %350 = arith.addi %340, %291 overflow<nsw> : vector<1xindex>
            %351 = arith.addi %341, %285 overflow<nsw> : vector<1xindex>
            %352 = arith.addi %341, %287 overflow<nsw> : vector<1xindex>
            %353 = arith.addi %341, %289 overflow<nsw> : vector<1xindex>
            %354 = arith.addi %341, %291 overflow<nsw> : vector<1xindex>
            %355 = arith.addi %342, %285 overflow<nsw> : vector<1xindex>
            %356 = arith.addi %342, %287 overflow<nsw> : vector<1xindex>
            %357 = arith.addi %342, %289 overflow<nsw> : vector<1xindex>
            %358 = arith.addi %342, %291 overflow<nsw> : vector<1xindex>
            %359 = vector.extract %343[0] : index from vector<1xindex>
            %360 = vector.extract %344[0] : index from vector<1xindex>
            %361 = vector.extract %345[0] : index from vector<1xindex>
            %362 = vector.extract %346[0] : index from vector<1xindex>
            %363 = vector.extract %347[0] : index from vector<1xindex>
            %364 = vector.extract %348[0] : index from vector<1xindex>
            %365 = vector.extract %349[0] : index from vector<1xindex>
            %366 = vector.extract %350[0] : index from vector<1xindex>
            %367 = vector.extract %351[0] : index from vector<1xindex>
            %368 = vector.extract %352[0] : index from vector<1xindex>
            %369 = vector.extract %353[0] : index from vector<1xindex>
            %370 = vector.extract %354[0] : index from vector<1xindex>
            %371 = vector.extract %355[0] : index from vector<1xindex>
            %372 = vector.extract %356[0] : index from vector<1xindex>
            %373 = vector.extract %357[0] : index from vector<1xindex>
            %374 = vector.extract %358[0] : index from vector<1xindex>
            %375 = vector.from_elements %359, %360, %361, %362, %363, %364, %365, %366, %367, %368, %369, %370, %371, %372, %373, %374 : vector<16xindex>
            %376 = vector.extract %315[0] : i1 from vector<1xi1>
            %377 = vector.extract %316[0] : i1 from vector<1xi1>
            %378 = vector.extract %317[0] : i1 from vector<1xi1>
            %379 = vector.extract %318[0] : i1 from vector<1xi1>
            %380 = vector.extract %319[0] : i1 from vector<1xi1>
            %381 = vector.extract %320[0] : i1 from vector<1xi1>
            %382 = vector.extract %321[0] : i1 from vector<1xi1>
            %383 = vector.extract %322[0] : i1 from vector<1xi1>
            %384 = vector.extract %323[0] : i1 from vector<1xi1>
            %385 = vector.extract %324[0] : i1 from vector<1xi1>
            %386 = vector.extract %325[0] : i1 from vector<1xi1>
            %387 = vector.extract %326[0] : i1 from vector<1xi1>
            %388 = vector.extract %327[0] : i1 from vector<1xi1>
            %389 = vector.extract %328[0] : i1 from vector<1xi1>
            %390 = vector.extract %329[0] : i1 from vector<1xi1>
            %391 = vector.extract %330[0] : i1 from vector<1xi1>
            %392 = vector.from_elements %376, %377, %378, %379, %380, %381, %382, %383, %384, %385, %386, %387, %388, %389, %390, %391 : vector<16xi1>
            %393 = vector.extract %299[0] : f32 from vector<4xf32>
            %394 = vector.extract %300[0] : f32 from vector<4xf32>
            %395 = vector.extract %301[0] : f32 from vector<4xf32>
            %396 = vector.extract %302[0] : f32 from vector<4xf32>
            %397 = vector.extract %299[1] : f32 from vector<4xf32>
            %398 = vector.extract %300[1] : f32 from vector<4xf32>
            %399 = vector.extract %301[1] : f32 from vector<4xf32>
            %400 = vector.extract %302[1] : f32 from vector<4xf32>
            %401 = vector.extract %299[2] : f32 from vector<4xf32>
            %402 = vector.extract %300[2] : f32 from vector<4xf32>
            %403 = vector.extract %301[2] : f32 from vector<4xf32>
            %404 = vector.extract %302[2] : f32 from vector<4xf32>
            %405 = vector.extract %299[3] : f32 from vector<4xf32>
            %406 = vector.extract %300[3] : f32 from vector<4xf32>
            %407 = vector.extract %301[3] : f32 from vector<4xf32>
            %408 = vector.extract %302[3] : f32 from vector<4xf32>
            %409 = vector.from_elements %393, %394, %395, %396, %397, %398, %399, %400, %401, %402, %403, %404, %405, %406, %407, %408 : vector<16xf32>
            vector.scatter %collapse_shape[%c0] [%375], %392, %409 : memref<517446xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
          }
          gpu.barrier memfence [#gpu.address_space<workgroup>]
          memref.dealloc %alloc_4 : memref<1x64x68xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<1x128x68xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_batch_matmul_2x267x969x192_bf16xbf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device):
          %c80 = arith.constant 80 : index
          %c1 = arith.constant 1 : index
          iree_codegen.yield %c80, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

