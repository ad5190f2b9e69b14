#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> ((s0 ceildiv 128) * 32, 2147483647)>
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_Dx4096x256_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_Dx4096x256_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
          %c2048_i32 = arith.constant 2048 : i32
          %cst = arith.constant dense<16> : vector<1xi32>
          %c7_i32 = arith.constant 7 : i32
          %c28_i32 = arith.constant 28 : i32
          %c6_i32 = arith.constant 6 : i32
          %c24_i32 = arith.constant 24 : i32
          %c5_i32 = arith.constant 5 : i32
          %c20_i32 = arith.constant 20 : i32
          %c3_i32 = arith.constant 3 : i32
          %c12_i32 = arith.constant 12 : i32
          %c2_i32 = arith.constant 2 : i32
          %c32_i32 = arith.constant 32 : i32
          %c1536_i32 = arith.constant 1536 : i32
          %c1024_i32 = arith.constant 1024 : i32
          %c512_i32 = arith.constant 512 : i32
          %c1_i32 = arith.constant 1 : i32
          %c8_i32 = arith.constant 8 : i32
          %c4_i32 = arith.constant 4 : i32
          %c256_i32 = arith.constant 256 : i32
          %c16_i32 = arith.constant 16 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %c-128 = arith.constant -128 : index
          %c32 = arith.constant 32 : index
          %c128 = arith.constant 128 : index
          %0 = ub.poison : vector<4xf32>
          %c3 = arith.constant 3 : index
          %c2 = arith.constant 2 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<8xbf16>
          %cst_1 = arith.constant dense<4096> : vector<1xindex>
          %c8 = arith.constant 8 : index
          %c1 = arith.constant 1 : index
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %cst_2 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloc_3 = memref.alloc() : memref<32x128xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
          %2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
          %3 = arith.extui %1 : i32 to i64
          %4 = arith.extui %2 : i32 to i64
          %5 = arith.shli %4, %c32_i64 : i64
          %6 = arith.ori %3, %5 : i64
          %7 = arith.index_castui %6 : i64 to index
          %8 = util.assume.int %7<umin = 0, umax = 9007199254740991> : index
          %9 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096x256xbf16, #gpu.address_space<global>>
          %assume_align = memref.assume_alignment %9, 64 : memref<4096x256xbf16, #gpu.address_space<global>>
          %10 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<4096x256xbf16, #gpu.address_space<global>> to memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %11 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x?xbf16, #gpu.address_space<global>>{%8}
          %assume_align_4 = memref.assume_alignment %11, 64 : memref<256x?xbf16, #gpu.address_space<global>>
          %12 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x4096xf32, #gpu.address_space<global>>{%8}
          %assume_align_5 = memref.assume_alignment %12, 64 : memref<?x4096xf32, #gpu.address_space<global>>
          %13 = arith.index_castui %thread_id_x : index to i32
          %14 = arith.divui %13, %c128_i32 : i32
          %15 = arith.remui %13, %c128_i32 : i32
          %16 = arith.divui %15, %c64_i32 : i32
          %17 = arith.remui %13, %c64_i32 : i32
          %18 = arith.divui %17, %c16_i32 : i32
          %19 = arith.remui %17, %c16_i32 : i32
          %20 = arith.muli %18, %c4_i32 overflow<nsw> : i32
          %21 = arith.muli %14, %c4_i32 overflow<nsw> : i32
          %22 = arith.muli %18, %c8_i32 overflow<nsw> : i32
          %23 = arith.index_castui %22 : i32 to index
          %24 = arith.divui %13, %c16_i32 : i32
          %25 = arith.index_castui %24 : i32 to index
          %26 = arith.remui %13, %c16_i32 : i32
          %27 = arith.addi %13, %c256_i32 overflow<nsw> : i32
          %28 = arith.divui %27, %c16_i32 : i32
          %29 = arith.index_castui %28 : i32 to index
          %30 = arith.remui %27, %c16_i32 : i32
          %31 = arith.divui %13, %c4_i32 : i32
          %32 = arith.remui %13, %c4_i32 : i32
          %33 = arith.divui %27, %c4_i32 : i32
          %34 = arith.remui %27, %c4_i32 : i32
          %35 = gpu.lane_id upper_bound 64
          %36 = arith.index_castui %35 : index to i32
          %37 = arith.remui %36, %c16_i32 : i32
          %38 = arith.divui %37, %c4_i32 : i32
          %39 = arith.subi %19, %37 : i32
          %40 = arith.remui %37, %c4_i32 : i32
          %41 = arith.muli %40, %c4_i32 : i32
          %42 = arith.addi %39, %41 : i32
          %43 = arith.addi %21, %38 : i32
          %44 = arith.addi %38, %c4_i32 : i32
          %45 = arith.remui %44, %c4_i32 : i32
          %46 = arith.addi %22, %c1_i32 : i32
          %47 = arith.index_castui %46 : i32 to index
          %48 = arith.addi %21, %45 : i32
          %49 = arith.addi %38, %c8_i32 : i32
          %50 = arith.remui %49, %c4_i32 : i32
          %51 = arith.addi %22, %c2_i32 : i32
          %52 = arith.index_castui %51 : i32 to index
          %53 = arith.addi %21, %50 : i32
          %54 = arith.addi %38, %c12_i32 : i32
          %55 = arith.remui %54, %c4_i32 : i32
          %56 = arith.addi %22, %c3_i32 : i32
          %57 = arith.index_castui %56 : i32 to index
          %58 = arith.addi %21, %55 : i32
          %59 = arith.addi %38, %c16_i32 : i32
          %60 = arith.remui %59, %c4_i32 : i32
          %61 = arith.addi %22, %c4_i32 : i32
          %62 = arith.index_castui %61 : i32 to index
          %63 = arith.addi %21, %60 : i32
          %64 = arith.addi %38, %c20_i32 : i32
          %65 = arith.remui %64, %c4_i32 : i32
          %66 = arith.addi %22, %c5_i32 : i32
          %67 = arith.index_castui %66 : i32 to index
          %68 = arith.addi %21, %65 : i32
          %69 = arith.addi %38, %c24_i32 : i32
          %70 = arith.remui %69, %c4_i32 : i32
          %71 = arith.addi %22, %c6_i32 : i32
          %72 = arith.index_castui %71 : i32 to index
          %73 = arith.addi %21, %70 : i32
          %74 = arith.addi %38, %c28_i32 : i32
          %75 = arith.remui %74, %c4_i32 : i32
          %76 = arith.addi %22, %c7_i32 : i32
          %77 = arith.index_castui %76 : i32 to index
          %78 = arith.addi %21, %75 : i32
          %79 = arith.muli %26, %c8_i32 overflow<nsw> : i32
          %80 = arith.index_castui %79 : i32 to index
          %81 = arith.muli %30, %c8_i32 overflow<nsw> : i32
          %82 = arith.index_castui %81 : i32 to index
          %83 = arith.muli %32, %c8_i32 overflow<nsw> : i32
          %84 = arith.muli %34, %c8_i32 overflow<nsw> : i32
          %85 = arith.muli %43, %c16_i32 overflow<nsw> : i32
          %86 = arith.addi %85, %42 overflow<nsw> : i32
          %87 = arith.index_cast %86 : i32 to index
          %88 = arith.muli %48, %c16_i32 overflow<nsw> : i32
          %89 = arith.addi %88, %42 overflow<nsw> : i32
          %90 = arith.index_cast %89 : i32 to index
          %91 = arith.muli %53, %c16_i32 overflow<nsw> : i32
          %92 = arith.addi %91, %42 overflow<nsw> : i32
          %93 = arith.index_cast %92 : i32 to index
          %94 = arith.muli %58, %c16_i32 overflow<nsw> : i32
          %95 = arith.addi %94, %42 overflow<nsw> : i32
          %96 = arith.index_cast %95 : i32 to index
          %97 = arith.muli %63, %c16_i32 overflow<nsw> : i32
          %98 = arith.addi %97, %42 overflow<nsw> : i32
          %99 = arith.index_cast %98 : i32 to index
          %100 = arith.muli %68, %c16_i32 overflow<nsw> : i32
          %101 = arith.addi %100, %42 overflow<nsw> : i32
          %102 = arith.index_cast %101 : i32 to index
          %103 = arith.muli %73, %c16_i32 overflow<nsw> : i32
          %104 = arith.addi %103, %42 overflow<nsw> : i32
          %105 = arith.index_cast %104 : i32 to index
          %106 = arith.muli %78, %c16_i32 overflow<nsw> : i32
          %107 = arith.addi %106, %42 overflow<nsw> : i32
          %108 = arith.index_cast %107 : i32 to index
          %collapse_shape = memref.collapse_shape %assume_align_5 [[0, 1]] : memref<?x4096xf32, #gpu.address_space<global>> into memref<?xf32, #gpu.address_space<global>>
          %109 = vector.step : vector<4xindex>
          %110:4 = vector.to_elements %109 : vector<4xindex>
          %111 = vector.broadcast %110#0 : index to vector<1xindex>
          %112 = vector.broadcast %110#1 : index to vector<1xindex>
          %113 = vector.broadcast %110#2 : index to vector<1xindex>
          %114 = vector.broadcast %110#3 : index to vector<1xindex>
          %115 = vector.broadcast %21 : i32 to vector<1xi32>
          %116 = vector.broadcast %20 : i32 to vector<1xi32>
          %117 = arith.index_castui %116 : vector<1xi32> to vector<1xindex>
          %118 = arith.addi %111, %117 : vector<1xindex>
          %119 = arith.addi %112, %117 : vector<1xindex>
          %120 = arith.addi %113, %117 : vector<1xindex>
          %121 = arith.addi %114, %117 : vector<1xindex>
          %122 = arith.muli %16, %c4_i32 overflow<nsw> : i32
          %123 = vector.extract %109[0] : index from vector<4xindex>
          %124 = vector.broadcast %123 : index to vector<1xindex>
          %125 = vector.extract %109[1] : index from vector<4xindex>
          %126 = vector.broadcast %125 : index to vector<1xindex>
          %127 = vector.extract %109[2] : index from vector<4xindex>
          %128 = vector.broadcast %127 : index to vector<1xindex>
          %129 = vector.extract %109[3] : index from vector<4xindex>
          %130 = vector.broadcast %129 : index to vector<1xindex>
          %131 = vector.broadcast %122 : i32 to vector<1xi32>
          %132 = arith.index_castui %124 : vector<1xindex> to vector<1xi32>
          %133 = arith.addi %132, %131 : vector<1xi32>
          %134 = arith.index_castui %126 : vector<1xindex> to vector<1xi32>
          %135 = arith.addi %134, %131 : vector<1xi32>
          %136 = arith.index_castui %128 : vector<1xindex> to vector<1xi32>
          %137 = arith.addi %136, %131 : vector<1xi32>
          %138 = arith.index_castui %130 : vector<1xindex> to vector<1xi32>
          %139 = arith.addi %138, %131 : vector<1xi32>
          %140 = arith.muli %133, %cst overflow<nsw> : vector<1xi32>
          %141 = arith.muli %135, %cst overflow<nsw> : vector<1xi32>
          %142 = arith.muli %137, %cst overflow<nsw> : vector<1xi32>
          %143 = arith.muli %139, %cst overflow<nsw> : vector<1xi32>
          %144 = vector.broadcast %19 : i32 to vector<1xi32>
          %145 = arith.addi %140, %144 overflow<nsw> : vector<1xi32>
          %146 = arith.addi %141, %144 overflow<nsw> : vector<1xi32>
          %147 = arith.addi %142, %144 overflow<nsw> : vector<1xi32>
          %148 = arith.addi %143, %144 overflow<nsw> : vector<1xi32>
          %149 = arith.cmpi sle, %8, %c0 : index
          %150 = arith.subi %c0, %8 : index
          %151 = arith.subi %8, %c1 : index
          %152 = arith.select %149, %150, %151 : index
          %153 = arith.divsi %152, %c128 : index
          %154 = arith.subi %c0, %153 : index
          %155 = arith.addi %153, %c1 : index
          %156 = arith.select %149, %154, %155 : index
          %157 = arith.muli %156, %c32 overflow<nsw> : index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 2147483647 : index
          %workgroup_count_x = hal.interface.workgroup.count[0] upper_bound 2147483647 : index
          scf.for %arg0 = %workgroup_id_x to %157 step %workgroup_count_x {
            %158 = arith.divui %arg0, %c32 : index
            %159 = arith.remui %arg0, %c32 : index
            %160 = arith.index_castui %159 : index to i32
            %161 = arith.muli %160, %c128_i32 overflow<nsw> : i32
            %162 = arith.muli %158, %c128 overflow<nsw> : index
            %163 = arith.muli %158, %c-128 overflow<nsw> : index
            %164 = arith.addi %163, %8 : index
            %165 = arith.minsi %164, %c128 : index
            %166 = arith.minsi %164, %c0 : index
            %167 = arith.minsi %166, %c128 : index
            %168 = arith.subi %165, %167 : index
            %169 = arith.minsi %168, %c128 : index
            %170 = arith.minui %79, %c128_i32 : i32
            %171 = arith.index_castui %170 : i32 to index
            %172 = arith.minsi %171, %168 : index
            %173 = arith.subi %169, %172 : index
            %174 = arith.minsi %173, %c8 : index
            %175 = arith.minui %81, %c128_i32 : i32
            %176 = arith.index_castui %175 : i32 to index
            %177 = arith.minsi %176, %168 : index
            %178 = arith.subi %169, %177 : index
            %179 = arith.minsi %178, %c8 : index
            %180 = arith.addi %162, %172 : index
            %181 = arith.addi %180, %167 : index
            %182 = vector.create_mask %174 : vector<8xi1>
            %183 = arith.addi %162, %177 : index
            %184 = arith.addi %183, %167 : index
            %185 = vector.create_mask %179 : vector<8xi1>
            %186 = arith.addi %31, %161 : i32
            %187 = arith.index_castui %186 : i32 to index
            %188 = arith.addi %33, %161 : i32
            %189 = arith.index_castui %188 : i32 to index
            %190 = arith.muli %31, %c32_i32 overflow<nsw> : i32
            %191 = arith.addi %190, %83 overflow<nsw> : i32
            %192 = arith.remui %191, %c64_i32 : i32
            %193 = arith.divui %192, %c8_i32 : i32
            %194 = arith.divui %191, %c64_i32 : i32
            %195 = arith.remui %194, %c8_i32 : i32
            %196 = arith.xori %195, %193 : i32
            %197 = arith.muli %194, %c64_i32 overflow<nsw> : i32
            %198 = arith.muli %196, %c8_i32 overflow<nsw> : i32
            %199 = arith.addi %197, %198 : i32
            %200 = arith.index_castui %199 : i32 to index
            %201 = arith.muli %33, %c32_i32 overflow<nsw> : i32
            %202 = arith.addi %201, %84 overflow<nsw> : i32
            %203 = arith.remui %202, %c64_i32 : i32
            %204 = arith.divui %203, %c8_i32 : i32
            %205 = arith.divui %202, %c64_i32 : i32
            %206 = arith.remui %205, %c8_i32 : i32
            %207 = arith.xori %206, %204 : i32
            %208 = arith.muli %205, %c64_i32 overflow<nsw> : i32
            %209 = arith.muli %207, %c8_i32 overflow<nsw> : i32
            %210 = arith.addi %208, %209 : i32
            %211 = arith.index_castui %210 : i32 to index
            %212 = arith.muli %16, %c2048_i32 overflow<nsw> : i32
            %213 = arith.muli %19, %c32_i32 overflow<nsw> : i32
            %214 = arith.addi %213, %22 overflow<nsw> : i32
            %215 = arith.addi %214, %212 overflow<nsw> : i32
            %216 = arith.remui %215, %c64_i32 : i32
            %217 = arith.divui %216, %c8_i32 : i32
            %218 = arith.divui %215, %c64_i32 : i32
            %219 = arith.remui %218, %c8_i32 : i32
            %220 = arith.xori %219, %217 : i32
            %221 = arith.muli %218, %c64_i32 overflow<nsw> : i32
            %222 = arith.muli %220, %c8_i32 overflow<nsw> : i32
            %223 = arith.addi %221, %222 : i32
            %224 = arith.subi %223, %215 : i32
            %225 = arith.index_castui %223 : i32 to index
            %226 = arith.addi %215, %c512_i32 overflow<nsw> : i32
            %227 = arith.addi %226, %224 : i32
            %228 = arith.index_cast %227 : i32 to index
            %229 = arith.addi %215, %c1024_i32 overflow<nsw> : i32
            %230 = arith.addi %229, %224 : i32
            %231 = arith.index_cast %230 : i32 to index
            %232 = arith.addi %215, %c1536_i32 overflow<nsw> : i32
            %233 = arith.addi %232, %224 : i32
            %234 = arith.index_cast %233 : i32 to index
            %235:16 = scf.for %arg1 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg2 = %cst_2, %arg3 = %cst_2, %arg4 = %cst_2, %arg5 = %cst_2, %arg6 = %cst_2, %arg7 = %cst_2, %arg8 = %cst_2, %arg9 = %cst_2, %arg10 = %cst_2, %arg11 = %cst_2, %arg12 = %cst_2, %arg13 = %cst_2, %arg14 = %cst_2, %arg15 = %cst_2, %arg16 = %cst_2, %arg17 = %cst_2) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %247 = arith.muli %arg1, %c32_i32 overflow<nsw> : i32
              %248 = arith.addi %24, %247 : i32
              %249 = arith.index_castui %248 : i32 to index
              %250 = vector.maskedload %assume_align_4[%249, %181], %182, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %250, %alloc_3[%25, %80] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %251 = arith.addi %28, %247 : i32
              %252 = arith.index_castui %251 : i32 to index
              %253 = vector.maskedload %assume_align_4[%252, %184], %185, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %253, %alloc_3[%29, %82] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %254 = arith.addi %83, %247 : i32
              %255 = arith.index_castui %254 : i32 to index
              %256 = vector.load %10[%187, %255] : memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
              vector.store %256, %alloc[%200] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %257 = arith.addi %84, %247 : i32
              %258 = arith.index_castui %257 : i32 to index
              %259 = vector.load %10[%189, %258] : memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
              vector.store %259, %alloc[%211] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %260 = amdgpu.transpose_load %alloc_3[%23, %87] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %261 = amdgpu.transpose_load %alloc_3[%47, %90] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %262 = amdgpu.transpose_load %alloc_3[%52, %93] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %263 = amdgpu.transpose_load %alloc_3[%57, %96] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %264 = amdgpu.transpose_load %alloc_3[%62, %99] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %265 = amdgpu.transpose_load %alloc_3[%67, %102] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %266 = amdgpu.transpose_load %alloc_3[%72, %105] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %267 = amdgpu.transpose_load %alloc_3[%77, %108] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %268 = vector.extract %260[0] : bf16 from vector<4xbf16>
              %269 = vector.extract %260[1] : bf16 from vector<4xbf16>
              %270 = vector.extract %260[2] : bf16 from vector<4xbf16>
              %271 = vector.extract %260[3] : bf16 from vector<4xbf16>
              %272 = vector.extract %261[0] : bf16 from vector<4xbf16>
              %273 = vector.extract %261[1] : bf16 from vector<4xbf16>
              %274 = vector.extract %261[2] : bf16 from vector<4xbf16>
              %275 = vector.extract %261[3] : bf16 from vector<4xbf16>
              %276 = vector.extract %262[0] : bf16 from vector<4xbf16>
              %277 = vector.extract %262[1] : bf16 from vector<4xbf16>
              %278 = vector.extract %262[2] : bf16 from vector<4xbf16>
              %279 = vector.extract %262[3] : bf16 from vector<4xbf16>
              %280 = vector.extract %263[0] : bf16 from vector<4xbf16>
              %281 = vector.extract %263[1] : bf16 from vector<4xbf16>
              %282 = vector.extract %263[2] : bf16 from vector<4xbf16>
              %283 = vector.extract %263[3] : bf16 from vector<4xbf16>
              %284 = vector.extract %264[0] : bf16 from vector<4xbf16>
              %285 = vector.extract %264[1] : bf16 from vector<4xbf16>
              %286 = vector.extract %264[2] : bf16 from vector<4xbf16>
              %287 = vector.extract %264[3] : bf16 from vector<4xbf16>
              %288 = vector.extract %265[0] : bf16 from vector<4xbf16>
              %289 = vector.extract %265[1] : bf16 from vector<4xbf16>
              %290 = vector.extract %265[2] : bf16 from vector<4xbf16>
              %291 = vector.extract %265[3] : bf16 from vector<4xbf16>
              %292 = vector.extract %266[0] : bf16 from vector<4xbf16>
              %293 = vector.extract %266[1] : bf16 from vector<4xbf16>
              %294 = vector.extract %266[2] : bf16 from vector<4xbf16>
              %295 = vector.extract %266[3] : bf16 from vector<4xbf16>
              %296 = vector.extract %267[0] : bf16 from vector<4xbf16>
              %297 = vector.extract %267[1] : bf16 from vector<4xbf16>
              %298 = vector.extract %267[2] : bf16 from vector<4xbf16>
              %299 = vector.extract %267[3] : bf16 from vector<4xbf16>
              %300 = vector.from_elements %268, %272, %276, %280, %284, %288, %292, %296 : vector<8xbf16>
              %301 = vector.from_elements %269, %273, %277, %281, %285, %289, %293, %297 : vector<8xbf16>
              %302 = vector.from_elements %270, %274, %278, %282, %286, %290, %294, %298 : vector<8xbf16>
              %303 = vector.from_elements %271, %275, %279, %283, %287, %291, %295, %299 : vector<8xbf16>
              %304 = vector.load %alloc[%225] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %305 = vector.load %alloc[%228] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %306 = vector.load %alloc[%231] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %307 = vector.load %alloc[%234] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %308 = amdgpu.mfma 16x16x32 %300 * %304 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %309 = amdgpu.mfma 16x16x32 %300 * %305 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %310 = amdgpu.mfma 16x16x32 %300 * %306 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %311 = amdgpu.mfma 16x16x32 %300 * %307 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %312 = amdgpu.mfma 16x16x32 %301 * %304 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %313 = amdgpu.mfma 16x16x32 %301 * %305 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %314 = amdgpu.mfma 16x16x32 %301 * %306 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %315 = amdgpu.mfma 16x16x32 %301 * %307 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %316 = amdgpu.mfma 16x16x32 %302 * %304 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %317 = amdgpu.mfma 16x16x32 %302 * %305 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %318 = amdgpu.mfma 16x16x32 %302 * %306 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %319 = amdgpu.mfma 16x16x32 %302 * %307 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %320 = amdgpu.mfma 16x16x32 %303 * %304 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %321 = amdgpu.mfma 16x16x32 %303 * %305 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %322 = amdgpu.mfma 16x16x32 %303 * %306 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %323 = amdgpu.mfma 16x16x32 %303 * %307 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %323, %322, %321, %320, %319, %318, %317, %316, %315, %314, %313, %312, %311, %310, %309, %308 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#15[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c0, %c0, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#14[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c0, %c1, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#13[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c0, %c2, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#12[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c0, %c3, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#11[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c1, %c0, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#10[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c1, %c1, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#9[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c1, %c2, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#8[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c1, %c3, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#7[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c2, %c0, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#6[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c2, %c1, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#5[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c2, %c2, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#4[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c2, %c3, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#3[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c3, %c0, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#2[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c3, %c1, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#1[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c3, %c2, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = vector.extract %235#0[%247] : f32 from vector<4xf32>
              memref.store %248, %alloca[%c3, %c3, %247, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            %236 = vector.broadcast %161 : i32 to vector<1xi32>
            %237 = arith.addi %236, %145 : vector<1xi32>
            %238 = arith.index_castui %237 : vector<1xi32> to vector<1xindex>
            %239 = arith.addi %236, %146 : vector<1xi32>
            %240 = arith.index_castui %239 : vector<1xi32> to vector<1xindex>
            %241 = arith.addi %236, %147 : vector<1xi32>
            %242 = arith.index_castui %241 : vector<1xi32> to vector<1xindex>
            %243 = arith.addi %236, %148 : vector<1xi32>
            %244 = arith.index_castui %243 : vector<1xi32> to vector<1xindex>
            %245 = vector.broadcast %165 : index to vector<1xindex>
            %246 = vector.broadcast %162 : index to vector<1xindex>
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %247 = arith.index_castui %arg1 : i32 to index
              %248 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %327 = arith.index_castui %arg2 : i32 to index
                %328 = memref.load %alloca[%247, %c0, %327, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %329 = vector.insert %328, %arg3 [%327] : f32 into vector<4xf32>
                scf.yield %329 : vector<4xf32>
              }
              %249 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %327 = arith.index_castui %arg2 : i32 to index
                %328 = memref.load %alloca[%247, %c1, %327, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %329 = vector.insert %328, %arg3 [%327] : f32 into vector<4xf32>
                scf.yield %329 : vector<4xf32>
              }
              %250 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %327 = arith.index_castui %arg2 : i32 to index
                %328 = memref.load %alloca[%247, %c2, %327, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %329 = vector.insert %328, %arg3 [%327] : f32 into vector<4xf32>
                scf.yield %329 : vector<4xf32>
              }
              %251 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %327 = arith.index_castui %arg2 : i32 to index
                %328 = memref.load %alloca[%247, %c3, %327, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %329 = vector.insert %328, %arg3 [%327] : f32 into vector<4xf32>
                scf.yield %329 : vector<4xf32>
              }
              %252 = vector.broadcast %arg1 : i32 to vector<1xi32>
              %253 = arith.addi %115, %252 : vector<1xi32>
              %254 = arith.muli %253, %cst overflow<nsw> : vector<1xi32>
              %255 = arith.index_castui %254 : vector<1xi32> to vector<1xindex>
              %256 = arith.addi %255, %118 overflow<nsw> : vector<1xindex>
              %257 = arith.addi %255, %119 overflow<nsw> : vector<1xindex>
              %258 = arith.addi %255, %120 overflow<nsw> : vector<1xindex>
              %259 = arith.addi %255, %121 overflow<nsw> : vector<1xindex>
              %260 = arith.cmpi ult, %256, %245 : vector<1xindex>
              %261 = arith.cmpi ult, %257, %245 : vector<1xindex>
              %262 = arith.cmpi ult, %258, %245 : vector<1xindex>
              %263 = arith.cmpi ult, %259, %245 : vector<1xindex>
              %264 = arith.addi %246, %256 : vector<1xindex>
              %265 = arith.addi %246, %257 : vector<1xindex>
              %266 = arith.addi %246, %258 : vector<1xindex>
              %267 = arith.addi %246, %259 : vector<1xindex>
              %268 = arith.muli %264, %cst_1 overflow<nsw> : vector<1xindex>
              %269 = arith.muli %265, %cst_1 overflow<nsw> : vector<1xindex>
              %270 = arith.muli %266, %cst_1 overflow<nsw> : vector<1xindex>
              %271 = arith.muli %267, %cst_1 overflow<nsw> : vector<1xindex>
              %272 = arith.addi %268, %238 overflow<nsw> : vector<1xindex>
              %273 = arith.addi %268, %240 overflow<nsw> : vector<1xindex>
              %274 = arith.addi %268, %242 overflow<nsw> : vector<1xindex>
              %275 = arith.addi %268, %244 overflow<nsw> : vector<1xindex>
              %276 = arith.addi %269, %238 overflow<nsw> : vector<1xindex>
              %277 = arith.addi %269, %240 overflow<nsw> : vector<1xindex>
              %278 = arith.addi %269, %242 overflow<nsw> : vector<1xindex>
              %279 = arith.addi %269, %244 overflow<nsw> : vector<1xindex>
              %280 = arith.addi %270, %238 overflow<nsw> : vector<1xindex>
              %281 = arith.addi %270, %240 overflow<nsw> : vector<1xindex>
              %282 = arith.addi %270, %242 overflow<nsw> : vector<1xindex>
              %283 = arith.addi %270, %244 overflow<nsw> : vector<1xindex>
              %284 = arith.addi %271, %238 overflow<nsw> : vector<1xindex>
              %285 = arith.addi %271, %240 overflow<nsw> : vector<1xindex>
              %286 = arith.addi %271, %242 overflow<nsw> : vector<1xindex>
              %287 = arith.addi %271, %244 overflow<nsw> : vector<1xindex>
              %288 = vector.extract %272[0] : index from vector<1xindex>
              %289 = vector.extract %273[0] : index from vector<1xindex>
              %290 = vector.extract %274[0] : index from vector<1xindex>
              %291 = vector.extract %275[0] : index from vector<1xindex>
              %292 = vector.extract %276[0] : index from vector<1xindex>
              %293 = vector.extract %277[0] : index from vector<1xindex>
              %294 = vector.extract %278[0] : index from vector<1xindex>
              %295 = vector.extract %279[0] : index from vector<1xindex>
              %296 = vector.extract %280[0] : index from vector<1xindex>
              %297 = vector.extract %281[0] : index from vector<1xindex>
              %298 = vector.extract %282[0] : index from vector<1xindex>
              %299 = vector.extract %283[0] : index from vector<1xindex>
              %300 = vector.extract %284[0] : index from vector<1xindex>
              %301 = vector.extract %285[0] : index from vector<1xindex>
              %302 = vector.extract %286[0] : index from vector<1xindex>
              %303 = vector.extract %287[0] : index from vector<1xindex>
              %304 = vector.from_elements %288, %289, %290, %291, %292, %293, %294, %295, %296, %297, %298, %299, %300, %301, %302, %303 : vector<16xindex>
              %305 = vector.extract %260[0] : i1 from vector<1xi1>
              %306 = vector.extract %261[0] : i1 from vector<1xi1>
              %307 = vector.extract %262[0] : i1 from vector<1xi1>
              %308 = vector.extract %263[0] : i1 from vector<1xi1>
              %309 = vector.from_elements %305, %305, %305, %305, %306, %306, %306, %306, %307, %307, %307, %307, %308, %308, %308, %308 : vector<16xi1>
              %310 = vector.extract %248[0] : f32 from vector<4xf32>
              %311 = vector.extract %249[0] : f32 from vector<4xf32>
              %312 = vector.extract %250[0] : f32 from vector<4xf32>
              %313 = vector.extract %251[0] : f32 from vector<4xf32>
              %314 = vector.extract %248[1] : f32 from vector<4xf32>
              %315 = vector.extract %249[1] : f32 from vector<4xf32>
              %316 = vector.extract %250[1] : f32 from vector<4xf32>
              %317 = vector.extract %251[1] : f32 from vector<4xf32>
              %318 = vector.extract %248[2] : f32 from vector<4xf32>
              %319 = vector.extract %249[2] : f32 from vector<4xf32>
              %320 = vector.extract %250[2] : f32 from vector<4xf32>
              %321 = vector.extract %251[2] : f32 from vector<4xf32>
              %322 = vector.extract %248[3] : f32 from vector<4xf32>
              %323 = vector.extract %249[3] : f32 from vector<4xf32>
              %324 = vector.extract %250[3] : f32 from vector<4xf32>
              %325 = vector.extract %251[3] : f32 from vector<4xf32>
              %326 = vector.from_elements %310, %311, %312, %313, %314, %315, %316, %317, %318, %319, %320, %321, %322, %323, %324, %325 : vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%304], %309, %326 : memref<?xf32, #gpu.address_space<global>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          }
          memref.dealloc %alloc_3 : memref<32x128xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<4096xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_Dx4096x256_bf16xbf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %c1 = arith.constant 1 : index
          %0 = affine.min #map()[%arg1]
          iree_codegen.yield %0, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

