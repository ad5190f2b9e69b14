#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0] -> ((s0 ceildiv 128) * 32, 2147483647)>
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
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
          %c1536_i32 = arith.constant 1536 : i32
          %c1024_i32 = arith.constant 1024 : i32
          %c48_i32 = arith.constant 48 : i32
          %c16_i32 = arith.constant 16 : i32
          %c1_i32 = arith.constant 1 : i32
          %c4_i32 = arith.constant 4 : i32
          %c512_i32 = arith.constant 512 : i32
          %c32_i32 = arith.constant 32 : i32
          %c8_i32 = arith.constant 8 : i32
          %c2_i32 = arith.constant 2 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %c-128 = arith.constant -128 : index
          %c128 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          %0 = ub.poison : vector<4xf32>
          %c3 = arith.constant 3 : index
          %c2 = arith.constant 2 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<16xbf16>
          %cst_1 = arith.constant dense<4096> : vector<1xindex>
          %c1 = arith.constant 1 : index
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %cst_2 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloc_3 = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<1x16xbf16, #gpu.address_space<private>>
          %alloca_4 = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
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
          %11 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<4096xf32, #gpu.address_space<global>>
          %assume_align_5 = memref.assume_alignment %11, 64 : memref<4096xf32, #gpu.address_space<global>>
          %12 = amdgpu.fat_raw_buffer_cast %assume_align_5 resetOffset : memref<4096xf32, #gpu.address_space<global>> to memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>
          %13 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x256xbf16, #gpu.address_space<global>>{%8}
          %assume_align_6 = memref.assume_alignment %13, 64 : memref<?x256xbf16, #gpu.address_space<global>>
          %14 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<?x4096xf32, #gpu.address_space<global>>{%8}
          %assume_align_7 = memref.assume_alignment %14, 64 : memref<?x4096xf32, #gpu.address_space<global>>
          %15 = arith.index_castui %thread_id_x : index to i32
          %16 = arith.divui %15, %c128_i32 : i32
          %17 = arith.remui %15, %c128_i32 : i32
          %18 = arith.divui %17, %c64_i32 : i32
          %19 = arith.remui %15, %c64_i32 : i32
          %20 = arith.divui %19, %c16_i32 : i32
          %21 = arith.remui %19, %c16_i32 : i32
          %22 = arith.muli %20, %c4_i32 overflow<nsw> : i32
          %23 = arith.divui %15, %c2_i32 : i32
          %24 = arith.remui %15, %c2_i32 : i32
          %25 = arith.divui %15, %c64_i32 : i32
          %26 = arith.muli %20, %c8_i32 overflow<nsw> : i32
          %27 = arith.muli %19, %c8_i32 : i32
          %28 = arith.muli %25, %c1024_i32 overflow<nsw> : i32
          %29 = arith.addi %28, %27 : i32
          %30 = arith.remui %29, %c64_i32 : i32
          %31 = arith.divui %30, %c8_i32 : i32
          %32 = arith.divui %29, %c64_i32 : i32
          %33 = arith.remui %32, %c8_i32 : i32
          %34 = arith.xori %33, %31 : i32
          %35 = arith.muli %32, %c64_i32 overflow<nsw> : i32
          %36 = arith.muli %34, %c8_i32 overflow<nsw> : i32
          %37 = arith.addi %35, %36 : i32
          %38 = arith.subi %37, %28 : i32
          %39 = arith.floordivsi %38, %c32_i32 : i32
          %40 = arith.remsi %38, %c32_i32 : i32
          %41 = arith.index_cast %40 : i32 to index
          %42 = arith.cmpi slt, %40, %c0_i32 : i32
          %43 = arith.addi %40, %c32_i32 overflow<nsw> : i32
          %44 = arith.index_castui %43 : i32 to index
          %45 = arith.select %42, %44, %41 : index
          %46 = arith.addi %27, %c512_i32 : i32
          %47 = arith.addi %28, %46 : i32
          %48 = arith.remui %47, %c64_i32 : i32
          %49 = arith.divui %48, %c8_i32 : i32
          %50 = arith.divui %47, %c64_i32 : i32
          %51 = arith.remui %50, %c8_i32 : i32
          %52 = arith.xori %51, %49 : i32
          %53 = arith.muli %50, %c64_i32 overflow<nsw> : i32
          %54 = arith.muli %52, %c8_i32 overflow<nsw> : i32
          %55 = arith.addi %53, %54 : i32
          %56 = arith.subi %55, %28 : i32
          %57 = arith.floordivsi %56, %c32_i32 : i32
          %58 = arith.remsi %56, %c32_i32 : i32
          %59 = arith.index_cast %58 : i32 to index
          %60 = arith.cmpi slt, %58, %c0_i32 : i32
          %61 = arith.addi %58, %c32_i32 overflow<nsw> : i32
          %62 = arith.index_castui %61 : i32 to index
          %63 = arith.select %60, %62, %59 : index
          %64 = arith.muli %25, %c32_i32 overflow<nsw> : i32
          %65 = arith.index_castui %28 : i32 to index
          %66 = arith.addi %28, %c512_i32 overflow<nsw> : i32
          %67 = arith.index_castui %66 : i32 to index
          %collapse_shape = memref.collapse_shape %assume_align_7 [[0, 1]] : memref<?x4096xf32, #gpu.address_space<global>> into memref<?xf32, #gpu.address_space<global>>
          %68 = vector.step : vector<4xindex>
          %69:4 = vector.to_elements %68 : vector<4xindex>
          %70 = vector.broadcast %69#0 : index to vector<1xindex>
          %71 = vector.broadcast %69#1 : index to vector<1xindex>
          %72 = vector.broadcast %69#2 : index to vector<1xindex>
          %73 = vector.broadcast %69#3 : index to vector<1xindex>
          %74 = arith.muli %16, %c4_i32 overflow<nsw> : i32
          %75 = vector.broadcast %74 : i32 to vector<1xi32>
          %76 = vector.broadcast %22 : i32 to vector<1xi32>
          %77 = arith.index_castui %76 : vector<1xi32> to vector<1xindex>
          %78 = arith.addi %70, %77 : vector<1xindex>
          %79 = arith.addi %71, %77 : vector<1xindex>
          %80 = arith.addi %72, %77 : vector<1xindex>
          %81 = arith.addi %73, %77 : vector<1xindex>
          %82 = arith.muli %18, %c4_i32 overflow<nsw> : i32
          %83 = vector.extract %68[0] : index from vector<4xindex>
          %84 = vector.broadcast %83 : index to vector<1xindex>
          %85 = vector.extract %68[1] : index from vector<4xindex>
          %86 = vector.broadcast %85 : index to vector<1xindex>
          %87 = vector.extract %68[2] : index from vector<4xindex>
          %88 = vector.broadcast %87 : index to vector<1xindex>
          %89 = vector.extract %68[3] : index from vector<4xindex>
          %90 = vector.broadcast %89 : index to vector<1xindex>
          %91 = vector.broadcast %82 : i32 to vector<1xi32>
          %92 = arith.index_castui %84 : vector<1xindex> to vector<1xi32>
          %93 = arith.addi %92, %91 : vector<1xi32>
          %94 = arith.index_castui %86 : vector<1xindex> to vector<1xi32>
          %95 = arith.addi %94, %91 : vector<1xi32>
          %96 = arith.index_castui %88 : vector<1xindex> to vector<1xi32>
          %97 = arith.addi %96, %91 : vector<1xi32>
          %98 = arith.index_castui %90 : vector<1xindex> to vector<1xi32>
          %99 = arith.addi %98, %91 : vector<1xi32>
          %100 = arith.muli %93, %cst overflow<nsw> : vector<1xi32>
          %101 = arith.muli %95, %cst overflow<nsw> : vector<1xi32>
          %102 = arith.muli %97, %cst overflow<nsw> : vector<1xi32>
          %103 = arith.muli %99, %cst overflow<nsw> : vector<1xi32>
          %104 = vector.broadcast %21 : i32 to vector<1xi32>
          %105 = arith.addi %100, %104 overflow<nsw> : vector<1xi32>
          %106 = arith.addi %101, %104 overflow<nsw> : vector<1xi32>
          %107 = arith.addi %102, %104 overflow<nsw> : vector<1xi32>
          %108 = arith.addi %103, %104 overflow<nsw> : vector<1xi32>
          %109 = arith.cmpi sle, %8, %c0 : index
          %110 = arith.subi %c0, %8 : index
          %111 = arith.subi %8, %c1 : index
          %112 = arith.select %109, %110, %111 : index
          %113 = arith.divsi %112, %c128 : index
          %114 = arith.subi %c0, %113 : index
          %115 = arith.addi %113, %c1 : index
          %116 = arith.select %109, %114, %115 : index
          %117 = arith.muli %116, %c32 overflow<nsw> : index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 2147483647 : index
          %workgroup_count_x = hal.interface.workgroup.count[0] upper_bound 2147483647 : index
          scf.for %arg0 = %workgroup_id_x to %117 step %workgroup_count_x {
            %118 = arith.divui %arg0, %c32 : index
            %119 = arith.remui %arg0, %c32 : index
            %120 = arith.index_castui %119 : index to i32
            %121 = arith.muli %120, %c128_i32 overflow<nsw> : i32
            %122 = arith.muli %118, %c128 overflow<nsw> : index
            %123 = arith.muli %118, %c-128 overflow<nsw> : index
            %124 = arith.addi %123, %8 : index
            %125 = arith.minsi %124, %c128 : index
            %126 = arith.minsi %124, %c0 : index
            %127 = arith.minsi %126, %c128 : index
            %128 = arith.subi %125, %127 : index
            %129 = arith.minsi %128, %c128 : index
            gpu.barrier memfence [#gpu.address_space<workgroup>]
            %130 = arith.minui %23, %c128_i32 : i32
            %131 = arith.index_castui %130 : i32 to index
            %132 = arith.minsi %131, %128 : index
            %133 = arith.subi %129, %132 : index
            %134 = arith.minsi %133, %c1 : index
            %135 = arith.cmpi sgt, %134, %c0 : index
            %136 = arith.addi %122, %132 : index
            %137 = arith.addi %136, %127 : index
            %138 = arith.addi %39, %64 : i32
            %139 = arith.addi %138, %121 : i32
            %140 = arith.index_cast %139 : i32 to index
            %141 = arith.addi %57, %64 : i32
            %142 = arith.addi %141, %121 : i32
            %143 = arith.index_cast %142 : i32 to index
            %144 = arith.muli %16, %c2048_i32 overflow<nsw> : i32
            %145 = arith.muli %21, %c32_i32 overflow<nsw> : i32
            %146 = arith.addi %145, %26 overflow<nsw> : i32
            %147 = arith.addi %146, %144 overflow<nsw> : i32
            %148 = arith.remui %147, %c64_i32 : i32
            %149 = arith.divui %148, %c8_i32 : i32
            %150 = arith.divui %147, %c64_i32 : i32
            %151 = arith.remui %150, %c8_i32 : i32
            %152 = arith.xori %151, %149 : i32
            %153 = arith.muli %150, %c64_i32 overflow<nsw> : i32
            %154 = arith.muli %152, %c8_i32 overflow<nsw> : i32
            %155 = arith.addi %153, %154 : i32
            %156 = arith.subi %155, %147 : i32
            %157 = arith.index_castui %155 : i32 to index
            %158 = arith.addi %147, %c512_i32 overflow<nsw> : i32
            %159 = arith.addi %158, %156 : i32
            %160 = arith.index_cast %159 : i32 to index
            %161 = arith.addi %147, %c1024_i32 overflow<nsw> : i32
            %162 = arith.addi %161, %156 : i32
            %163 = arith.index_cast %162 : i32 to index
            %164 = arith.addi %147, %c1536_i32 overflow<nsw> : i32
            %165 = arith.addi %164, %156 : i32
            %166 = arith.index_cast %165 : i32 to index
            %167 = arith.muli %18, %c2048_i32 overflow<nsw> : i32
            %168 = arith.addi %146, %167 overflow<nsw> : i32
            %169 = arith.remui %168, %c64_i32 : i32
            %170 = arith.divui %169, %c8_i32 : i32
            %171 = arith.divui %168, %c64_i32 : i32
            %172 = arith.remui %171, %c8_i32 : i32
            %173 = arith.xori %172, %170 : i32
            %174 = arith.muli %171, %c64_i32 overflow<nsw> : i32
            %175 = arith.muli %173, %c8_i32 overflow<nsw> : i32
            %176 = arith.addi %174, %175 : i32
            %177 = arith.subi %176, %168 : i32
            %178 = arith.index_castui %176 : i32 to index
            %179 = arith.addi %168, %c512_i32 overflow<nsw> : i32
            %180 = arith.addi %179, %177 : i32
            %181 = arith.index_cast %180 : i32 to index
            %182 = arith.addi %168, %c1024_i32 overflow<nsw> : i32
            %183 = arith.addi %182, %177 : i32
            %184 = arith.index_cast %183 : i32 to index
            %185 = arith.addi %168, %c1536_i32 overflow<nsw> : i32
            %186 = arith.addi %185, %177 : i32
            %187 = arith.index_cast %186 : i32 to index
            %188 = arith.muli %24, %c16_i32 overflow<nsw> : i32
            %189 = arith.muli %23, %c32_i32 overflow<nsw> : i32
            %190 = arith.index_cast %45 : index to i32
            %191 = arith.index_cast %63 : index to i32
            %192:16 = scf.for %arg1 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg2 = %cst_2, %arg3 = %cst_2, %arg4 = %cst_2, %arg5 = %cst_2, %arg6 = %cst_2, %arg7 = %cst_2, %arg8 = %cst_2, %arg9 = %cst_2, %arg10 = %cst_2, %arg11 = %cst_2, %arg12 = %cst_2, %arg13 = %cst_2, %arg14 = %cst_2, %arg15 = %cst_2, %arg16 = %cst_2, %arg17 = %cst_2) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
              %218 = arith.muli %arg1, %c32_i32 overflow<nsw> : i32
              %219 = arith.addi %188, %218 : i32
              %220 = arith.index_castui %219 : i32 to index
              %221 = scf.if %135 -> (vector<16xbf16>) {
                %250 = vector.load %assume_align_6[%137, %220] : memref<?x256xbf16, #gpu.address_space<global>>, vector<16xbf16>
                scf.yield %250 : vector<16xbf16>
              } else {
                scf.yield %cst_0 : vector<16xbf16>
              }
              vector.store %221, %alloca[%c0, %c0] : memref<1x16xbf16, #gpu.address_space<private>>, vector<16xbf16>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              scf.for %arg18 = %c0_i32 to %c16_i32 step %c8_i32  : i32 {
                %250 = arith.index_castui %arg18 : i32 to index
                %251 = vector.load %alloca[%c0, %250] : memref<1x16xbf16, #gpu.address_space<private>>, vector<8xbf16>
                %252 = arith.addi %188, %arg18 : i32
                %253 = arith.addi %189, %252 overflow<nsw> : i32
                %254 = arith.remui %253, %c64_i32 : i32
                %255 = arith.divui %254, %c8_i32 : i32
                %256 = arith.divui %253, %c64_i32 : i32
                %257 = arith.remui %256, %c8_i32 : i32
                %258 = arith.xori %257, %255 : i32
                %259 = arith.muli %256, %c64_i32 overflow<nsw> : i32
                %260 = arith.muli %258, %c8_i32 overflow<nsw> : i32
                %261 = arith.addi %259, %260 : i32
                %262 = arith.index_castui %261 : i32 to index
                vector.store %251, %alloc[%262] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              }
              %222 = arith.addi %190, %218 : i32
              %223 = arith.index_cast %222 : i32 to index
              amdgpu.gather_to_lds %10[%140, %223], %alloc_3[%65] : vector<8xbf16>, memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xbf16, #gpu.address_space<workgroup>>
              %224 = arith.addi %191, %218 : i32
              %225 = arith.index_cast %224 : i32 to index
              amdgpu.gather_to_lds %10[%143, %225], %alloc_3[%67] : vector<8xbf16>, memref<4096x256xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xbf16, #gpu.address_space<workgroup>>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %226 = vector.load %alloc[%157] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %227 = vector.load %alloc[%160] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %228 = vector.load %alloc[%163] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %229 = vector.load %alloc[%166] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %230 = vector.load %alloc_3[%178] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %231 = vector.load %alloc_3[%181] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %232 = vector.load %alloc_3[%184] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %233 = vector.load %alloc_3[%187] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %234 = amdgpu.mfma 16x16x32 %226 * %230 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %235 = amdgpu.mfma 16x16x32 %226 * %231 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %236 = amdgpu.mfma 16x16x32 %226 * %232 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %237 = amdgpu.mfma 16x16x32 %226 * %233 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %238 = amdgpu.mfma 16x16x32 %227 * %230 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %239 = amdgpu.mfma 16x16x32 %227 * %231 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %240 = amdgpu.mfma 16x16x32 %227 * %232 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %241 = amdgpu.mfma 16x16x32 %227 * %233 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %242 = amdgpu.mfma 16x16x32 %228 * %230 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %243 = amdgpu.mfma 16x16x32 %228 * %231 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %244 = amdgpu.mfma 16x16x32 %228 * %232 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %245 = amdgpu.mfma 16x16x32 %228 * %233 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %246 = amdgpu.mfma 16x16x32 %229 * %230 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %247 = amdgpu.mfma 16x16x32 %229 * %231 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %248 = amdgpu.mfma 16x16x32 %229 * %232 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %249 = amdgpu.mfma 16x16x32 %229 * %233 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %249, %248, %247, %246, %245, %244, %243, %242, %241, %240, %239, %238, %237, %236, %235, %234 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#15[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c0, %c0, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#14[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c0, %c1, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#13[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c0, %c2, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#12[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c0, %c3, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#11[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c1, %c0, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#10[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c1, %c1, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#9[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c1, %c2, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#8[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c1, %c3, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#7[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c2, %c0, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#6[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c2, %c1, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#5[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c2, %c2, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#4[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c2, %c3, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#3[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c3, %c0, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#2[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c3, %c1, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#1[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c3, %c2, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = vector.extract %192#0[%218] : f32 from vector<4xf32>
              memref.store %219, %alloca_4[%c3, %c3, %218, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            %193 = arith.muli %18, %c64_i32 overflow<nsw> : i32
            %194 = arith.addi %21, %193 overflow<nsw> : i32
            %195 = arith.addi %121, %194 : i32
            %196 = arith.index_castui %195 : i32 to index
            %197 = vector.load %12[%196] : memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            %198 = arith.addi %195, %c16_i32 overflow<nsw> : i32
            %199 = arith.index_castui %198 : i32 to index
            %200 = vector.load %12[%199] : memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            %201 = arith.addi %195, %c32_i32 overflow<nsw> : i32
            %202 = arith.index_castui %201 : i32 to index
            %203 = vector.load %12[%202] : memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            %204 = arith.addi %195, %c48_i32 overflow<nsw> : i32
            %205 = arith.index_castui %204 : i32 to index
            %206 = vector.load %12[%205] : memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<1xf32>
            %207 = vector.broadcast %121 : i32 to vector<1xi32>
            %208 = arith.addi %207, %105 : vector<1xi32>
            %209 = arith.index_castui %208 : vector<1xi32> to vector<1xindex>
            %210 = arith.addi %207, %106 : vector<1xi32>
            %211 = arith.index_castui %210 : vector<1xi32> to vector<1xindex>
            %212 = arith.addi %207, %107 : vector<1xi32>
            %213 = arith.index_castui %212 : vector<1xi32> to vector<1xindex>
            %214 = arith.addi %207, %108 : vector<1xi32>
            %215 = arith.index_castui %214 : vector<1xi32> to vector<1xindex>
            %216 = vector.broadcast %125 : index to vector<1xindex>
            %217 = vector.broadcast %122 : index to vector<1xindex>
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %218 = arith.index_castui %arg1 : i32 to index
              %219 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %346 = arith.index_castui %arg2 : i32 to index
                %347 = memref.load %alloca_4[%218, %c0, %346, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %348 = vector.insert %347, %arg3 [%346] : f32 into vector<4xf32>
                scf.yield %348 : vector<4xf32>
              }
              %220 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %346 = arith.index_castui %arg2 : i32 to index
                %347 = memref.load %alloca_4[%218, %c1, %346, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %348 = vector.insert %347, %arg3 [%346] : f32 into vector<4xf32>
                scf.yield %348 : vector<4xf32>
              }
              %221 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %346 = arith.index_castui %arg2 : i32 to index
                %347 = memref.load %alloca_4[%218, %c2, %346, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %348 = vector.insert %347, %arg3 [%346] : f32 into vector<4xf32>
                scf.yield %348 : vector<4xf32>
              }
              %222 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %346 = arith.index_castui %arg2 : i32 to index
                %347 = memref.load %alloca_4[%218, %c3, %346, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %348 = vector.insert %347, %arg3 [%346] : f32 into vector<4xf32>
                scf.yield %348 : vector<4xf32>
              }
              %223 = vector.extract %219[0] : f32 from vector<4xf32>
              %224 = vector.broadcast %223 : f32 to vector<1xf32>
              %225 = vector.extract %219[1] : f32 from vector<4xf32>
              %226 = vector.broadcast %225 : f32 to vector<1xf32>
              %227 = vector.extract %219[2] : f32 from vector<4xf32>
              %228 = vector.broadcast %227 : f32 to vector<1xf32>
              %229 = vector.extract %219[3] : f32 from vector<4xf32>
              %230 = vector.broadcast %229 : f32 to vector<1xf32>
              %231 = vector.extract %220[0] : f32 from vector<4xf32>
              %232 = vector.broadcast %231 : f32 to vector<1xf32>
              %233 = vector.extract %220[1] : f32 from vector<4xf32>
              %234 = vector.broadcast %233 : f32 to vector<1xf32>
              %235 = vector.extract %220[2] : f32 from vector<4xf32>
              %236 = vector.broadcast %235 : f32 to vector<1xf32>
              %237 = vector.extract %220[3] : f32 from vector<4xf32>
              %238 = vector.broadcast %237 : f32 to vector<1xf32>
              %239 = vector.extract %221[0] : f32 from vector<4xf32>
              %240 = vector.broadcast %239 : f32 to vector<1xf32>
              %241 = vector.extract %221[1] : f32 from vector<4xf32>
              %242 = vector.broadcast %241 : f32 to vector<1xf32>
              %243 = vector.extract %221[2] : f32 from vector<4xf32>
              %244 = vector.broadcast %243 : f32 to vector<1xf32>
              %245 = vector.extract %221[3] : f32 from vector<4xf32>
              %246 = vector.broadcast %245 : f32 to vector<1xf32>
              %247 = vector.extract %222[0] : f32 from vector<4xf32>
              %248 = vector.broadcast %247 : f32 to vector<1xf32>
              %249 = vector.extract %222[1] : f32 from vector<4xf32>
              %250 = vector.broadcast %249 : f32 to vector<1xf32>
              %251 = vector.extract %222[2] : f32 from vector<4xf32>
              %252 = vector.broadcast %251 : f32 to vector<1xf32>
              %253 = vector.extract %222[3] : f32 from vector<4xf32>
              %254 = vector.broadcast %253 : f32 to vector<1xf32>
              %255 = arith.addf %224, %197 : vector<1xf32>
              %256 = arith.addf %226, %197 : vector<1xf32>
              %257 = arith.addf %228, %197 : vector<1xf32>
              %258 = arith.addf %230, %197 : vector<1xf32>
              %259 = arith.addf %232, %200 : vector<1xf32>
              %260 = arith.addf %234, %200 : vector<1xf32>
              %261 = arith.addf %236, %200 : vector<1xf32>
              %262 = arith.addf %238, %200 : vector<1xf32>
              %263 = arith.addf %240, %203 : vector<1xf32>
              %264 = arith.addf %242, %203 : vector<1xf32>
              %265 = arith.addf %244, %203 : vector<1xf32>
              %266 = arith.addf %246, %203 : vector<1xf32>
              %267 = arith.addf %248, %206 : vector<1xf32>
              %268 = arith.addf %250, %206 : vector<1xf32>
              %269 = arith.addf %252, %206 : vector<1xf32>
              %270 = arith.addf %254, %206 : vector<1xf32>
              %271 = vector.broadcast %arg1 : i32 to vector<1xi32>
              %272 = arith.addi %75, %271 : vector<1xi32>
              %273 = arith.muli %272, %cst overflow<nsw> : vector<1xi32>
              %274 = arith.index_castui %273 : vector<1xi32> to vector<1xindex>
              %275 = arith.addi %274, %78 overflow<nsw> : vector<1xindex>
              %276 = arith.addi %274, %79 overflow<nsw> : vector<1xindex>
              %277 = arith.addi %274, %80 overflow<nsw> : vector<1xindex>
              %278 = arith.addi %274, %81 overflow<nsw> : vector<1xindex>
              %279 = arith.cmpi ult, %275, %216 : vector<1xindex>
              %280 = arith.cmpi ult, %276, %216 : vector<1xindex>
              %281 = arith.cmpi ult, %277, %216 : vector<1xindex>
              %282 = arith.cmpi ult, %278, %216 : vector<1xindex>
              %283 = arith.addi %217, %275 : vector<1xindex>
              %284 = arith.addi %217, %276 : vector<1xindex>
              %285 = arith.addi %217, %277 : vector<1xindex>
              %286 = arith.addi %217, %278 : vector<1xindex>
              %287 = arith.muli %283, %cst_1 overflow<nsw> : vector<1xindex>
              %288 = arith.muli %284, %cst_1 overflow<nsw> : vector<1xindex>
              %289 = arith.muli %285, %cst_1 overflow<nsw> : vector<1xindex>
              %290 = arith.muli %286, %cst_1 overflow<nsw> : vector<1xindex>
              %291 = arith.addi %287, %209 overflow<nsw> : vector<1xindex>
              %292 = arith.addi %287, %211 overflow<nsw> : vector<1xindex>
              %293 = arith.addi %287, %213 overflow<nsw> : vector<1xindex>
              %294 = arith.addi %287, %215 overflow<nsw> : vector<1xindex>
              %295 = arith.addi %288, %209 overflow<nsw> : vector<1xindex>
              %296 = arith.addi %288, %211 overflow<nsw> : vector<1xindex>
              %297 = arith.addi %288, %213 overflow<nsw> : vector<1xindex>
              %298 = arith.addi %288, %215 overflow<nsw> : vector<1xindex>
              %299 = arith.addi %289, %209 overflow<nsw> : vector<1xindex>
              %300 = arith.addi %289, %211 overflow<nsw> : vector<1xindex>
              %301 = arith.addi %289, %213 overflow<nsw> : vector<1xindex>
              %302 = arith.addi %289, %215 overflow<nsw> : vector<1xindex>
              %303 = arith.addi %290, %209 overflow<nsw> : vector<1xindex>
              %304 = arith.addi %290, %211 overflow<nsw> : vector<1xindex>
              %305 = arith.addi %290, %213 overflow<nsw> : vector<1xindex>
              %306 = arith.addi %290, %215 overflow<nsw> : vector<1xindex>
              %307 = vector.extract %291[0] : index from vector<1xindex>
              %308 = vector.extract %292[0] : index from vector<1xindex>
              %309 = vector.extract %293[0] : index from vector<1xindex>
              %310 = vector.extract %294[0] : index from vector<1xindex>
              %311 = vector.extract %295[0] : index from vector<1xindex>
              %312 = vector.extract %296[0] : index from vector<1xindex>
              %313 = vector.extract %297[0] : index from vector<1xindex>
              %314 = vector.extract %298[0] : index from vector<1xindex>
              %315 = vector.extract %299[0] : index from vector<1xindex>
              %316 = vector.extract %300[0] : index from vector<1xindex>
              %317 = vector.extract %301[0] : index from vector<1xindex>
              %318 = vector.extract %302[0] : index from vector<1xindex>
              %319 = vector.extract %303[0] : index from vector<1xindex>
              %320 = vector.extract %304[0] : index from vector<1xindex>
              %321 = vector.extract %305[0] : index from vector<1xindex>
              %322 = vector.extract %306[0] : index from vector<1xindex>
              %323 = vector.from_elements %307, %308, %309, %310, %311, %312, %313, %314, %315, %316, %317, %318, %319, %320, %321, %322 : vector<16xindex>
              %324 = vector.extract %279[0] : i1 from vector<1xi1>
              %325 = vector.extract %280[0] : i1 from vector<1xi1>
              %326 = vector.extract %281[0] : i1 from vector<1xi1>
              %327 = vector.extract %282[0] : i1 from vector<1xi1>
              %328 = vector.from_elements %324, %324, %324, %324, %325, %325, %325, %325, %326, %326, %326, %326, %327, %327, %327, %327 : vector<16xi1>
              %329 = vector.extract %255[0] : f32 from vector<1xf32>
              %330 = vector.extract %259[0] : f32 from vector<1xf32>
              %331 = vector.extract %263[0] : f32 from vector<1xf32>
              %332 = vector.extract %267[0] : f32 from vector<1xf32>
              %333 = vector.extract %256[0] : f32 from vector<1xf32>
              %334 = vector.extract %260[0] : f32 from vector<1xf32>
              %335 = vector.extract %264[0] : f32 from vector<1xf32>
              %336 = vector.extract %268[0] : f32 from vector<1xf32>
              %337 = vector.extract %257[0] : f32 from vector<1xf32>
              %338 = vector.extract %261[0] : f32 from vector<1xf32>
              %339 = vector.extract %265[0] : f32 from vector<1xf32>
              %340 = vector.extract %269[0] : f32 from vector<1xf32>
              %341 = vector.extract %258[0] : f32 from vector<1xf32>
              %342 = vector.extract %262[0] : f32 from vector<1xf32>
              %343 = vector.extract %266[0] : f32 from vector<1xf32>
              %344 = vector.extract %270[0] : f32 from vector<1xf32>
              %345 = vector.from_elements %329, %330, %331, %332, %333, %334, %335, %336, %337, %338, %339, %340, %341, %342, %343, %344 : vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%323], %328, %345 : memref<?xf32, #gpu.address_space<global>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
          }
          memref.dealloc %alloc_3 : memref<4096xbf16, #gpu.address_space<workgroup>>
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

