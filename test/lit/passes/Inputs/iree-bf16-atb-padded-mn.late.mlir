#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<()[s0, s1] -> ((s1 ceildiv 128) * (s0 ceildiv 128), 2147483647)>
#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_DxDx256_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_DxDx256_bf16xbf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
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
          %c1_i32 = arith.constant 1 : i32
          %c8_i32 = arith.constant 8 : i32
          %c4_i32 = arith.constant 4 : i32
          %c256_i32 = arith.constant 256 : i32
          %c16_i32 = arith.constant 16 : i32
          %c64_i32 = arith.constant 64 : i32
          %c0_i32 = arith.constant 0 : i32
          %c128_i32 = arith.constant 128 : i32
          %c-128 = arith.constant -128 : index
          %c128 = arith.constant 128 : index
          %0 = ub.poison : vector<4xf32>
          %c3 = arith.constant 3 : index
          %c2 = arith.constant 2 : index
          %cst_0 = arith.constant dense<0.000000e+00> : vector<8xbf16>
          %c8 = arith.constant 8 : index
          %c1 = arith.constant 1 : index
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %cst_1 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %alloc = memref.alloc() : memref<32x128xbf16, #gpu.address_space<workgroup>>
          %alloc_2 = memref.alloc() : memref<32x128xbf16, #gpu.address_space<workgroup>>
          %alloca = memref.alloca() : memref<4x4x4x1xf32, #gpu.address_space<private>>
          %thread_id_x = gpu.thread_id x upper_bound 256
          %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
          %2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
          %3 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
          %4 = hal.interface.constant.load layout(#pipeline_layout) ordinal(3) : i32
          %5 = arith.extui %1 : i32 to i64
          %6 = arith.extui %2 : i32 to i64
          %7 = arith.shli %6, %c32_i64 : i64
          %8 = arith.ori %5, %7 : i64
          %9 = arith.index_castui %8 : i64 to index
          %10 = arith.extui %3 : i32 to i64
          %11 = arith.extui %4 : i32 to i64
          %12 = arith.shli %11, %c32_i64 : i64
          %13 = arith.ori %10, %12 : i64
          %14 = arith.index_castui %13 : i64 to index
          %15:2 = util.assume.int 
              %9<umin = 0, umax = 9007199254740991>, 
              %14<umin = 0, umax = 9007199254740991>
            : index, index
          %16 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x?xbf16, #gpu.address_space<global>>{%15#0}
          %assume_align = memref.assume_alignment %16, 64 : memref<256x?xbf16, #gpu.address_space<global>>
          %17 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x?xbf16, #gpu.address_space<global>>{%15#1}
          %assume_align_3 = memref.assume_alignment %17, 64 : memref<256x?xbf16, #gpu.address_space<global>>
          %18 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x?xf32, #gpu.address_space<global>>{%15#0, %15#1}
          %assume_align_4 = memref.assume_alignment %18, 64 : memref<?x?xf32, #gpu.address_space<global>>
          %19 = arith.index_castui %thread_id_x : index to i32
          %20 = arith.divui %19, %c128_i32 : i32
          %21 = arith.remui %19, %c128_i32 : i32
          %22 = arith.divui %21, %c64_i32 : i32
          %23 = arith.remui %19, %c64_i32 : i32
          %24 = arith.divui %23, %c16_i32 : i32
          %25 = arith.remui %23, %c16_i32 : i32
          %26 = arith.muli %24, %c4_i32 overflow<nsw> : i32
          %27 = arith.muli %22, %c4_i32 overflow<nsw> : i32
          %28 = arith.muli %20, %c4_i32 overflow<nsw> : i32
          %29 = arith.muli %24, %c8_i32 overflow<nsw> : i32
          %30 = arith.index_castui %29 : i32 to index
          %31 = arith.divui %19, %c16_i32 : i32
          %32 = arith.index_castui %31 : i32 to index
          %33 = arith.remui %19, %c16_i32 : i32
          %34 = arith.addi %19, %c256_i32 overflow<nsw> : i32
          %35 = arith.divui %34, %c16_i32 : i32
          %36 = arith.index_castui %35 : i32 to index
          %37 = arith.remui %34, %c16_i32 : i32
          %38 = gpu.lane_id upper_bound 64
          %39 = arith.index_castui %38 : index to i32
          %40 = arith.remui %39, %c16_i32 : i32
          %41 = arith.divui %40, %c4_i32 : i32
          %42 = arith.subi %25, %40 : i32
          %43 = arith.remui %40, %c4_i32 : i32
          %44 = arith.muli %43, %c4_i32 : i32
          %45 = arith.addi %42, %44 : i32
          %46 = arith.addi %28, %41 : i32
          %47 = arith.addi %41, %c4_i32 : i32
          %48 = arith.remui %47, %c4_i32 : i32
          %49 = arith.addi %29, %c1_i32 : i32
          %50 = arith.index_castui %49 : i32 to index
          %51 = arith.addi %28, %48 : i32
          %52 = arith.addi %41, %c8_i32 : i32
          %53 = arith.remui %52, %c4_i32 : i32
          %54 = arith.addi %29, %c2_i32 : i32
          %55 = arith.index_castui %54 : i32 to index
          %56 = arith.addi %28, %53 : i32
          %57 = arith.addi %41, %c12_i32 : i32
          %58 = arith.remui %57, %c4_i32 : i32
          %59 = arith.addi %29, %c3_i32 : i32
          %60 = arith.index_castui %59 : i32 to index
          %61 = arith.addi %28, %58 : i32
          %62 = arith.addi %41, %c16_i32 : i32
          %63 = arith.remui %62, %c4_i32 : i32
          %64 = arith.addi %29, %c4_i32 : i32
          %65 = arith.index_castui %64 : i32 to index
          %66 = arith.addi %28, %63 : i32
          %67 = arith.addi %41, %c20_i32 : i32
          %68 = arith.remui %67, %c4_i32 : i32
          %69 = arith.addi %29, %c5_i32 : i32
          %70 = arith.index_castui %69 : i32 to index
          %71 = arith.addi %28, %68 : i32
          %72 = arith.addi %41, %c24_i32 : i32
          %73 = arith.remui %72, %c4_i32 : i32
          %74 = arith.addi %29, %c6_i32 : i32
          %75 = arith.index_castui %74 : i32 to index
          %76 = arith.addi %28, %73 : i32
          %77 = arith.addi %41, %c28_i32 : i32
          %78 = arith.remui %77, %c4_i32 : i32
          %79 = arith.addi %29, %c7_i32 : i32
          %80 = arith.index_castui %79 : i32 to index
          %81 = arith.addi %28, %78 : i32
          %82 = arith.addi %27, %41 : i32
          %83 = arith.addi %27, %48 : i32
          %84 = arith.addi %27, %53 : i32
          %85 = arith.addi %27, %58 : i32
          %86 = arith.addi %27, %63 : i32
          %87 = arith.addi %27, %68 : i32
          %88 = arith.addi %27, %73 : i32
          %89 = arith.addi %27, %78 : i32
          %90 = arith.muli %33, %c8_i32 overflow<nsw> : i32
          %91 = arith.index_castui %90 : i32 to index
          %92 = arith.muli %37, %c8_i32 overflow<nsw> : i32
          %93 = arith.index_castui %92 : i32 to index
          %94 = arith.muli %46, %c16_i32 overflow<nsw> : i32
          %95 = arith.addi %94, %45 overflow<nsw> : i32
          %96 = arith.index_cast %95 : i32 to index
          %97 = arith.muli %51, %c16_i32 overflow<nsw> : i32
          %98 = arith.addi %97, %45 overflow<nsw> : i32
          %99 = arith.index_cast %98 : i32 to index
          %100 = arith.muli %56, %c16_i32 overflow<nsw> : i32
          %101 = arith.addi %100, %45 overflow<nsw> : i32
          %102 = arith.index_cast %101 : i32 to index
          %103 = arith.muli %61, %c16_i32 overflow<nsw> : i32
          %104 = arith.addi %103, %45 overflow<nsw> : i32
          %105 = arith.index_cast %104 : i32 to index
          %106 = arith.muli %66, %c16_i32 overflow<nsw> : i32
          %107 = arith.addi %106, %45 overflow<nsw> : i32
          %108 = arith.index_cast %107 : i32 to index
          %109 = arith.muli %71, %c16_i32 overflow<nsw> : i32
          %110 = arith.addi %109, %45 overflow<nsw> : i32
          %111 = arith.index_cast %110 : i32 to index
          %112 = arith.muli %76, %c16_i32 overflow<nsw> : i32
          %113 = arith.addi %112, %45 overflow<nsw> : i32
          %114 = arith.index_cast %113 : i32 to index
          %115 = arith.muli %81, %c16_i32 overflow<nsw> : i32
          %116 = arith.addi %115, %45 overflow<nsw> : i32
          %117 = arith.index_cast %116 : i32 to index
          %118 = arith.muli %82, %c16_i32 overflow<nsw> : i32
          %119 = arith.addi %118, %45 overflow<nsw> : i32
          %120 = arith.index_cast %119 : i32 to index
          %121 = arith.muli %83, %c16_i32 overflow<nsw> : i32
          %122 = arith.addi %121, %45 overflow<nsw> : i32
          %123 = arith.index_cast %122 : i32 to index
          %124 = arith.muli %84, %c16_i32 overflow<nsw> : i32
          %125 = arith.addi %124, %45 overflow<nsw> : i32
          %126 = arith.index_cast %125 : i32 to index
          %127 = arith.muli %85, %c16_i32 overflow<nsw> : i32
          %128 = arith.addi %127, %45 overflow<nsw> : i32
          %129 = arith.index_cast %128 : i32 to index
          %130 = arith.muli %86, %c16_i32 overflow<nsw> : i32
          %131 = arith.addi %130, %45 overflow<nsw> : i32
          %132 = arith.index_cast %131 : i32 to index
          %133 = arith.muli %87, %c16_i32 overflow<nsw> : i32
          %134 = arith.addi %133, %45 overflow<nsw> : i32
          %135 = arith.index_cast %134 : i32 to index
          %136 = arith.muli %88, %c16_i32 overflow<nsw> : i32
          %137 = arith.addi %136, %45 overflow<nsw> : i32
          %138 = arith.index_cast %137 : i32 to index
          %139 = arith.muli %89, %c16_i32 overflow<nsw> : i32
          %140 = arith.addi %139, %45 overflow<nsw> : i32
          %141 = arith.index_cast %140 : i32 to index
          %collapse_shape = memref.collapse_shape %assume_align_4 [[0, 1]] : memref<?x?xf32, #gpu.address_space<global>> into memref<?xf32, #gpu.address_space<global>>
          %142 = vector.step : vector<4xindex>
          %143:4 = vector.to_elements %142 : vector<4xindex>
          %144 = vector.broadcast %143#0 : index to vector<1xindex>
          %145 = vector.broadcast %143#1 : index to vector<1xindex>
          %146 = vector.broadcast %143#2 : index to vector<1xindex>
          %147 = vector.broadcast %143#3 : index to vector<1xindex>
          %148 = vector.broadcast %28 : i32 to vector<1xi32>
          %149 = vector.broadcast %26 : i32 to vector<1xi32>
          %150 = arith.index_castui %149 : vector<1xi32> to vector<1xindex>
          %151 = arith.addi %144, %150 : vector<1xindex>
          %152 = arith.addi %145, %150 : vector<1xindex>
          %153 = arith.addi %146, %150 : vector<1xindex>
          %154 = arith.addi %147, %150 : vector<1xindex>
          %155 = vector.extract %142[0] : index from vector<4xindex>
          %156 = vector.broadcast %155 : index to vector<1xindex>
          %157 = vector.extract %142[1] : index from vector<4xindex>
          %158 = vector.broadcast %157 : index to vector<1xindex>
          %159 = vector.extract %142[2] : index from vector<4xindex>
          %160 = vector.broadcast %159 : index to vector<1xindex>
          %161 = vector.extract %142[3] : index from vector<4xindex>
          %162 = vector.broadcast %161 : index to vector<1xindex>
          %163 = vector.broadcast %27 : i32 to vector<1xi32>
          %164 = arith.index_castui %156 : vector<1xindex> to vector<1xi32>
          %165 = arith.addi %164, %163 : vector<1xi32>
          %166 = arith.index_castui %158 : vector<1xindex> to vector<1xi32>
          %167 = arith.addi %166, %163 : vector<1xi32>
          %168 = arith.index_castui %160 : vector<1xindex> to vector<1xi32>
          %169 = arith.addi %168, %163 : vector<1xi32>
          %170 = arith.index_castui %162 : vector<1xindex> to vector<1xi32>
          %171 = arith.addi %170, %163 : vector<1xi32>
          %172 = arith.muli %165, %cst overflow<nsw> : vector<1xi32>
          %173 = arith.muli %167, %cst overflow<nsw> : vector<1xi32>
          %174 = arith.muli %169, %cst overflow<nsw> : vector<1xi32>
          %175 = arith.muli %171, %cst overflow<nsw> : vector<1xi32>
          %176 = vector.broadcast %25 : i32 to vector<1xi32>
          %177 = arith.addi %172, %176 overflow<nsw> : vector<1xi32>
          %178 = arith.index_castui %177 : vector<1xi32> to vector<1xindex>
          %179 = arith.addi %173, %176 overflow<nsw> : vector<1xi32>
          %180 = arith.index_castui %179 : vector<1xi32> to vector<1xindex>
          %181 = arith.addi %174, %176 overflow<nsw> : vector<1xi32>
          %182 = arith.index_castui %181 : vector<1xi32> to vector<1xindex>
          %183 = arith.addi %175, %176 overflow<nsw> : vector<1xi32>
          %184 = arith.index_castui %183 : vector<1xi32> to vector<1xindex>
          %185 = vector.broadcast %15#1 : index to vector<1xindex>
          %186 = arith.cmpi sle, %15#0, %c0 : index
          %187 = arith.subi %c0, %15#0 : index
          %188 = arith.subi %15#0, %c1 : index
          %189 = arith.select %186, %187, %188 : index
          %190 = arith.divsi %189, %c128 : index
          %191 = arith.subi %c0, %190 : index
          %192 = arith.addi %190, %c1 : index
          %193 = arith.select %186, %191, %192 : index
          %194 = arith.cmpi sle, %15#1, %c0 : index
          %195 = arith.subi %c0, %15#1 : index
          %196 = arith.subi %15#1, %c1 : index
          %197 = arith.select %194, %195, %196 : index
          %198 = arith.divsi %197, %c128 : index
          %199 = arith.subi %c0, %198 : index
          %200 = arith.addi %198, %c1 : index
          %201 = arith.select %194, %199, %200 : index
          %202 = arith.muli %201, %193 overflow<nsw> : index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 2147483647 : index
          %workgroup_count_x = hal.interface.workgroup.count[0] upper_bound 2147483647 : index
          scf.for %arg0 = %workgroup_id_x to %202 step %workgroup_count_x {
            %203 = arith.floordivsi %arg0, %201 : index
            %204 = arith.remsi %arg0, %201 : index
            %205 = arith.cmpi slt, %204, %c0 : index
            %206 = arith.addi %204, %201 overflow<nsw> : index
            %207 = arith.select %205, %206, %204 : index
            %208 = arith.muli %207, %c128 overflow<nsw> : index
            %209 = arith.muli %203, %c128 overflow<nsw> : index
            %210 = arith.muli %203, %c-128 overflow<nsw> : index
            %211 = arith.addi %210, %15#0 : index
            %212 = arith.minsi %211, %c128 : index
            %213 = arith.muli %207, %c-128 overflow<nsw> : index
            %214 = arith.addi %213, %15#1 : index
            %215 = arith.minsi %214, %c128 : index
            %216 = arith.minsi %211, %c0 : index
            %217 = arith.minsi %216, %c128 : index
            %218 = arith.subi %212, %217 : index
            %219 = arith.minsi %218, %c128 : index
            %220 = arith.minsi %214, %c0 : index
            %221 = arith.minsi %220, %c128 : index
            %222 = arith.subi %215, %221 : index
            %223 = arith.minsi %222, %c128 : index
            %224 = arith.minui %90, %c128_i32 : i32
            %225 = arith.index_castui %224 : i32 to index
            %226 = arith.minsi %225, %218 : index
            %227 = arith.subi %219, %226 : index
            %228 = arith.minsi %227, %c8 : index
            %229 = arith.minui %92, %c128_i32 : i32
            %230 = arith.index_castui %229 : i32 to index
            %231 = arith.minsi %230, %218 : index
            %232 = arith.subi %219, %231 : index
            %233 = arith.minsi %232, %c8 : index
            %234 = arith.minsi %225, %222 : index
            %235 = arith.subi %223, %234 : index
            %236 = arith.minsi %235, %c8 : index
            %237 = arith.minsi %230, %222 : index
            %238 = arith.subi %223, %237 : index
            %239 = arith.minsi %238, %c8 : index
            %240 = arith.addi %209, %226 : index
            %241 = arith.addi %240, %217 : index
            %242 = vector.create_mask %228 : vector<8xi1>
            %243 = arith.addi %209, %231 : index
            %244 = arith.addi %243, %217 : index
            %245 = vector.create_mask %233 : vector<8xi1>
            %246 = arith.addi %208, %234 : index
            %247 = arith.addi %246, %221 : index
            %248 = vector.create_mask %236 : vector<8xi1>
            %249 = arith.addi %208, %237 : index
            %250 = arith.addi %249, %221 : index
            %251 = vector.create_mask %239 : vector<8xi1>
            %252:16 = scf.for %arg1 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg2 = %cst_1, %arg3 = %cst_1, %arg4 = %cst_1, %arg5 = %cst_1, %arg6 = %cst_1, %arg7 = %cst_1, %arg8 = %cst_1, %arg9 = %cst_1, %arg10 = %cst_1, %arg11 = %cst_1, %arg12 = %cst_1, %arg13 = %cst_1, %arg14 = %cst_1, %arg15 = %cst_1, %arg16 = %cst_1, %arg17 = %cst_1) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %265 = arith.muli %arg1, %c32_i32 overflow<nsw> : i32
              %266 = arith.addi %31, %265 : i32
              %267 = arith.index_castui %266 : i32 to index
              %268 = vector.maskedload %assume_align[%267, %241], %242, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %268, %alloc[%32, %91] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %269 = arith.addi %35, %265 : i32
              %270 = arith.index_castui %269 : i32 to index
              %271 = vector.maskedload %assume_align[%270, %244], %245, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %271, %alloc[%36, %93] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %272 = vector.maskedload %assume_align_3[%267, %247], %248, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %272, %alloc_2[%32, %91] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %273 = vector.maskedload %assume_align_3[%270, %250], %251, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %273, %alloc_2[%36, %93] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %274 = amdgpu.transpose_load %alloc[%30, %96] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %275 = amdgpu.transpose_load %alloc[%50, %99] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %276 = amdgpu.transpose_load %alloc[%55, %102] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %277 = amdgpu.transpose_load %alloc[%60, %105] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %278 = amdgpu.transpose_load %alloc[%65, %108] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %279 = amdgpu.transpose_load %alloc[%70, %111] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %280 = amdgpu.transpose_load %alloc[%75, %114] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %281 = amdgpu.transpose_load %alloc[%80, %117] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %282 = vector.extract %274[0] : bf16 from vector<4xbf16>
              %283 = vector.extract %274[1] : bf16 from vector<4xbf16>
              %284 = vector.extract %274[2] : bf16 from vector<4xbf16>
              %285 = vector.extract %274[3] : bf16 from vector<4xbf16>
              %286 = vector.extract %275[0] : bf16 from vector<4xbf16>
              %287 = vector.extract %275[1] : bf16 from vector<4xbf16>
              %288 = vector.extract %275[2] : bf16 from vector<4xbf16>
              %289 = vector.extract %275[3] : bf16 from vector<4xbf16>
              %290 = vector.extract %276[0] : bf16 from vector<4xbf16>
              %291 = vector.extract %276[1] : bf16 from vector<4xbf16>
              %292 = vector.extract %276[2] : bf16 from vector<4xbf16>
              %293 = vector.extract %276[3] : bf16 from vector<4xbf16>
              %294 = vector.extract %277[0] : bf16 from vector<4xbf16>
              %295 = vector.extract %277[1] : bf16 from vector<4xbf16>
              %296 = vector.extract %277[2] : bf16 from vector<4xbf16>
              %297 = vector.extract %277[3] : bf16 from vector<4xbf16>
              %298 = vector.extract %278[0] : bf16 from vector<4xbf16>
              %299 = vector.extract %278[1] : bf16 from vector<4xbf16>
              %300 = vector.extract %278[2] : bf16 from vector<4xbf16>
              %301 = vector.extract %278[3] : bf16 from vector<4xbf16>
              %302 = vector.extract %279[0] : bf16 from vector<4xbf16>
              %303 = vector.extract %279[1] : bf16 from vector<4xbf16>
              %304 = vector.extract %279[2] : bf16 from vector<4xbf16>
              %305 = vector.extract %279[3] : bf16 from vector<4xbf16>
              %306 = vector.extract %280[0] : bf16 from vector<4xbf16>
              %307 = vector.extract %280[1] : bf16 from vector<4xbf16>
              %308 = vector.extract %280[2] : bf16 from vector<4xbf16>
              %309 = vector.extract %280[3] : bf16 from vector<4xbf16>
              %310 = vector.extract %281[0] : bf16 from vector<4xbf16>
              %311 = vector.extract %281[1] : bf16 from vector<4xbf16>
              %312 = vector.extract %281[2] : bf16 from vector<4xbf16>
              %313 = vector.extract %281[3] : bf16 from vector<4xbf16>
              %314 = vector.from_elements %282, %286, %290, %294, %298, %302, %306, %310 : vector<8xbf16>
              %315 = vector.from_elements %283, %287, %291, %295, %299, %303, %307, %311 : vector<8xbf16>
              %316 = vector.from_elements %284, %288, %292, %296, %300, %304, %308, %312 : vector<8xbf16>
              %317 = vector.from_elements %285, %289, %293, %297, %301, %305, %309, %313 : vector<8xbf16>
              %318 = amdgpu.transpose_load %alloc_2[%30, %120] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %319 = amdgpu.transpose_load %alloc_2[%50, %123] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %320 = amdgpu.transpose_load %alloc_2[%55, %126] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %321 = amdgpu.transpose_load %alloc_2[%60, %129] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %322 = amdgpu.transpose_load %alloc_2[%65, %132] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %323 = amdgpu.transpose_load %alloc_2[%70, %135] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %324 = amdgpu.transpose_load %alloc_2[%75, %138] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %325 = amdgpu.transpose_load %alloc_2[%80, %141] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %326 = vector.extract %318[0] : bf16 from vector<4xbf16>
              %327 = vector.extract %318[1] : bf16 from vector<4xbf16>
              %328 = vector.extract %318[2] : bf16 from vector<4xbf16>
              %329 = vector.extract %318[3] : bf16 from vector<4xbf16>
              %330 = vector.extract %319[0] : bf16 from vector<4xbf16>
              %331 = vector.extract %319[1] : bf16 from vector<4xbf16>
              %332 = vector.extract %319[2] : bf16 from vector<4xbf16>
              %333 = vector.extract %319[3] : bf16 from vector<4xbf16>
              %334 = vector.extract %320[0] : bf16 from vector<4xbf16>
              %335 = vector.extract %320[1] : bf16 from vector<4xbf16>
              %336 = vector.extract %320[2] : bf16 from vector<4xbf16>
              %337 = vector.extract %320[3] : bf16 from vector<4xbf16>
              %338 = vector.extract %321[0] : bf16 from vector<4xbf16>
              %339 = vector.extract %321[1] : bf16 from vector<4xbf16>
              %340 = vector.extract %321[2] : bf16 from vector<4xbf16>
              %341 = vector.extract %321[3] : bf16 from vector<4xbf16>
              %342 = vector.extract %322[0] : bf16 from vector<4xbf16>
              %343 = vector.extract %322[1] : bf16 from vector<4xbf16>
              %344 = vector.extract %322[2] : bf16 from vector<4xbf16>
              %345 = vector.extract %322[3] : bf16 from vector<4xbf16>
              %346 = vector.extract %323[0] : bf16 from vector<4xbf16>
              %347 = vector.extract %323[1] : bf16 from vector<4xbf16>
              %348 = vector.extract %323[2] : bf16 from vector<4xbf16>
              %349 = vector.extract %323[3] : bf16 from vector<4xbf16>
              %350 = vector.extract %324[0] : bf16 from vector<4xbf16>
              %351 = vector.extract %324[1] : bf16 from vector<4xbf16>
              %352 = vector.extract %324[2] : bf16 from vector<4xbf16>
              %353 = vector.extract %324[3] : bf16 from vector<4xbf16>
              %354 = vector.extract %325[0] : bf16 from vector<4xbf16>
              %355 = vector.extract %325[1] : bf16 from vector<4xbf16>
              %356 = vector.extract %325[2] : bf16 from vector<4xbf16>
              %357 = vector.extract %325[3] : bf16 from vector<4xbf16>
              %358 = vector.from_elements %326, %330, %334, %338, %342, %346, %350, %354 : vector<8xbf16>
              %359 = vector.from_elements %327, %331, %335, %339, %343, %347, %351, %355 : vector<8xbf16>
              %360 = vector.from_elements %328, %332, %336, %340, %344, %348, %352, %356 : vector<8xbf16>
              %361 = vector.from_elements %329, %333, %337, %341, %345, %349, %353, %357 : vector<8xbf16>
              %362 = amdgpu.mfma 16x16x32 %314 * %358 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %363 = amdgpu.mfma 16x16x32 %314 * %359 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %364 = amdgpu.mfma 16x16x32 %314 * %360 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %365 = amdgpu.mfma 16x16x32 %314 * %361 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %366 = amdgpu.mfma 16x16x32 %315 * %358 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %367 = amdgpu.mfma 16x16x32 %315 * %359 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %368 = amdgpu.mfma 16x16x32 %315 * %360 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %369 = amdgpu.mfma 16x16x32 %315 * %361 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %370 = amdgpu.mfma 16x16x32 %316 * %358 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %371 = amdgpu.mfma 16x16x32 %316 * %359 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %372 = amdgpu.mfma 16x16x32 %316 * %360 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %373 = amdgpu.mfma 16x16x32 %316 * %361 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %374 = amdgpu.mfma 16x16x32 %317 * %358 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %375 = amdgpu.mfma 16x16x32 %317 * %359 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %376 = amdgpu.mfma 16x16x32 %317 * %360 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %377 = amdgpu.mfma 16x16x32 %317 * %361 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %377, %376, %375, %374, %373, %372, %371, %370, %369, %368, %367, %366, %365, %364, %363, %362 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#15[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c0, %c0, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#14[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c0, %c1, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#13[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c0, %c2, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#12[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c0, %c3, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#11[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c1, %c0, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#10[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c1, %c1, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#9[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c1, %c2, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#8[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c1, %c3, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#7[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c2, %c0, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#6[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c2, %c1, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#5[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c2, %c2, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#4[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c2, %c3, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#3[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c3, %c0, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#2[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c3, %c1, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#1[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c3, %c2, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = vector.extract %252#0[%265] : f32 from vector<4xf32>
              memref.store %266, %alloca[%c3, %c3, %265, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            %253 = vector.broadcast %215 : index to vector<1xindex>
            %254 = arith.cmpi ult, %178, %253 : vector<1xindex>
            %255 = arith.cmpi ult, %180, %253 : vector<1xindex>
            %256 = arith.cmpi ult, %182, %253 : vector<1xindex>
            %257 = arith.cmpi ult, %184, %253 : vector<1xindex>
            %258 = vector.broadcast %208 : index to vector<1xindex>
            %259 = arith.addi %258, %178 : vector<1xindex>
            %260 = arith.addi %258, %180 : vector<1xindex>
            %261 = arith.addi %258, %182 : vector<1xindex>
            %262 = arith.addi %258, %184 : vector<1xindex>
            %263 = vector.broadcast %212 : index to vector<1xindex>
            %264 = vector.broadcast %209 : index to vector<1xindex>
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %265 = arith.index_castui %arg1 : i32 to index
              %266 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %373 = arith.index_castui %arg2 : i32 to index
                %374 = memref.load %alloca[%265, %c0, %373, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %375 = vector.insert %374, %arg3 [%373] : f32 into vector<4xf32>
                scf.yield %375 : vector<4xf32>
              }
              %267 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %373 = arith.index_castui %arg2 : i32 to index
                %374 = memref.load %alloca[%265, %c1, %373, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %375 = vector.insert %374, %arg3 [%373] : f32 into vector<4xf32>
                scf.yield %375 : vector<4xf32>
              }
              %268 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %373 = arith.index_castui %arg2 : i32 to index
                %374 = memref.load %alloca[%265, %c2, %373, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %375 = vector.insert %374, %arg3 [%373] : f32 into vector<4xf32>
                scf.yield %375 : vector<4xf32>
              }
              %269 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %373 = arith.index_castui %arg2 : i32 to index
                %374 = memref.load %alloca[%265, %c3, %373, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %375 = vector.insert %374, %arg3 [%373] : f32 into vector<4xf32>
                scf.yield %375 : vector<4xf32>
              }
              %270 = vector.broadcast %arg1 : i32 to vector<1xi32>
              %271 = arith.addi %148, %270 : vector<1xi32>
              %272 = arith.muli %271, %cst overflow<nsw> : vector<1xi32>
              %273 = arith.index_castui %272 : vector<1xi32> to vector<1xindex>
              %274 = arith.addi %273, %151 overflow<nsw> : vector<1xindex>
              %275 = arith.addi %273, %152 overflow<nsw> : vector<1xindex>
              %276 = arith.addi %273, %153 overflow<nsw> : vector<1xindex>
              %277 = arith.addi %273, %154 overflow<nsw> : vector<1xindex>
              %278 = arith.cmpi ult, %274, %263 : vector<1xindex>
              %279 = arith.cmpi ult, %275, %263 : vector<1xindex>
              %280 = arith.cmpi ult, %276, %263 : vector<1xindex>
              %281 = arith.cmpi ult, %277, %263 : vector<1xindex>
              %282 = arith.andi %278, %254 : vector<1xi1>
              %283 = arith.andi %278, %255 : vector<1xi1>
              %284 = arith.andi %278, %256 : vector<1xi1>
              %285 = arith.andi %278, %257 : vector<1xi1>
              %286 = arith.andi %279, %254 : vector<1xi1>
              %287 = arith.andi %279, %255 : vector<1xi1>
              %288 = arith.andi %279, %256 : vector<1xi1>
              %289 = arith.andi %279, %257 : vector<1xi1>
              %290 = arith.andi %280, %254 : vector<1xi1>
              %291 = arith.andi %280, %255 : vector<1xi1>
              %292 = arith.andi %280, %256 : vector<1xi1>
              %293 = arith.andi %280, %257 : vector<1xi1>
              %294 = arith.andi %281, %254 : vector<1xi1>
              %295 = arith.andi %281, %255 : vector<1xi1>
              %296 = arith.andi %281, %256 : vector<1xi1>
              %297 = arith.andi %281, %257 : vector<1xi1>
              %298 = arith.addi %264, %274 : vector<1xindex>
              %299 = arith.addi %264, %275 : vector<1xindex>
              %300 = arith.addi %264, %276 : vector<1xindex>
              %301 = arith.addi %264, %277 : vector<1xindex>
              %302 = arith.muli %298, %185 overflow<nsw> : vector<1xindex>
              %303 = arith.muli %299, %185 overflow<nsw> : vector<1xindex>
              %304 = arith.muli %300, %185 overflow<nsw> : vector<1xindex>
              %305 = arith.muli %301, %185 overflow<nsw> : vector<1xindex>
              %306 = arith.addi %302, %259 overflow<nsw> : vector<1xindex>
              %307 = arith.addi %302, %260 overflow<nsw> : vector<1xindex>
              %308 = arith.addi %302, %261 overflow<nsw> : vector<1xindex>
              %309 = arith.addi %302, %262 overflow<nsw> : vector<1xindex>
              %310 = arith.addi %303, %259 overflow<nsw> : vector<1xindex>
              %311 = arith.addi %303, %260 overflow<nsw> : vector<1xindex>
              %312 = arith.addi %303, %261 overflow<nsw> : vector<1xindex>
              %313 = arith.addi %303, %262 overflow<nsw> : vector<1xindex>
              %314 = arith.addi %304, %259 overflow<nsw> : vector<1xindex>
              %315 = arith.addi %304, %260 overflow<nsw> : vector<1xindex>
              %316 = arith.addi %304, %261 overflow<nsw> : vector<1xindex>
              %317 = arith.addi %304, %262 overflow<nsw> : vector<1xindex>
              %318 = arith.addi %305, %259 overflow<nsw> : vector<1xindex>
              %319 = arith.addi %305, %260 overflow<nsw> : vector<1xindex>
              %320 = arith.addi %305, %261 overflow<nsw> : vector<1xindex>
              %321 = arith.addi %305, %262 overflow<nsw> : vector<1xindex>
              %322 = vector.extract %306[0] : index from vector<1xindex>
              %323 = vector.extract %307[0] : index from vector<1xindex>
              %324 = vector.extract %308[0] : index from vector<1xindex>
              %325 = vector.extract %309[0] : index from vector<1xindex>
              %326 = vector.extract %310[0] : index from vector<1xindex>
              %327 = vector.extract %311[0] : index from vector<1xindex>
              %328 = vector.extract %312[0] : index from vector<1xindex>
              %329 = vector.extract %313[0] : index from vector<1xindex>
              %330 = vector.extract %314[0] : index from vector<1xindex>
              %331 = vector.extract %315[0] : index from vector<1xindex>
              %332 = vector.extract %316[0] : index from vector<1xindex>
              %333 = vector.extract %317[0] : index from vector<1xindex>
              %334 = vector.extract %318[0] : index from vector<1xindex>
              %335 = vector.extract %319[0] : index from vector<1xindex>
              %336 = vector.extract %320[0] : index from vector<1xindex>
              %337 = vector.extract %321[0] : index from vector<1xindex>
              %338 = vector.from_elements %322, %323, %324, %325, %326, %327, %328, %329, %330, %331, %332, %333, %334, %335, %336, %337 : vector<16xindex>
              %339 = vector.extract %282[0] : i1 from vector<1xi1>
              %340 = vector.extract %283[0] : i1 from vector<1xi1>
              %341 = vector.extract %284[0] : i1 from vector<1xi1>
              %342 = vector.extract %285[0] : i1 from vector<1xi1>
              %343 = vector.extract %286[0] : i1 from vector<1xi1>
              %344 = vector.extract %287[0] : i1 from vector<1xi1>
              %345 = vector.extract %288[0] : i1 from vector<1xi1>
              %346 = vector.extract %289[0] : i1 from vector<1xi1>
              %347 = vector.extract %290[0] : i1 from vector<1xi1>
              %348 = vector.extract %291[0] : i1 from vector<1xi1>
              %349 = vector.extract %292[0] : i1 from vector<1xi1>
              %350 = vector.extract %293[0] : i1 from vector<1xi1>
              %351 = vector.extract %294[0] : i1 from vector<1xi1>
              %352 = vector.extract %295[0] : i1 from vector<1xi1>
              %353 = vector.extract %296[0] : i1 from vector<1xi1>
              %354 = vector.extract %297[0] : i1 from vector<1xi1>
              %355 = vector.from_elements %339, %340, %341, %342, %343, %344, %345, %346, %347, %348, %349, %350, %351, %352, %353, %354 : vector<16xi1>
              %356 = vector.extract %266[0] : f32 from vector<4xf32>
              %357 = vector.extract %267[0] : f32 from vector<4xf32>
              %358 = vector.extract %268[0] : f32 from vector<4xf32>
              %359 = vector.extract %269[0] : f32 from vector<4xf32>
              %360 = vector.extract %266[1] : f32 from vector<4xf32>
              %361 = vector.extract %267[1] : f32 from vector<4xf32>
              %362 = vector.extract %268[1] : f32 from vector<4xf32>
              %363 = vector.extract %269[1] : f32 from vector<4xf32>
              %364 = vector.extract %266[2] : f32 from vector<4xf32>
              %365 = vector.extract %267[2] : f32 from vector<4xf32>
              %366 = vector.extract %268[2] : f32 from vector<4xf32>
              %367 = vector.extract %269[2] : f32 from vector<4xf32>
              %368 = vector.extract %266[3] : f32 from vector<4xf32>
              %369 = vector.extract %267[3] : f32 from vector<4xf32>
              %370 = vector.extract %268[3] : f32 from vector<4xf32>
              %371 = vector.extract %269[3] : f32 from vector<4xf32>
              %372 = vector.from_elements %356, %357, %358, %359, %360, %361, %362, %363, %364, %365, %366, %367, %368, %369, %370, %371 : vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%338], %355, %372 : memref<?xf32, #gpu.address_space<global>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          }
          memref.dealloc %alloc_2 : memref<32x128xbf16, #gpu.address_space<workgroup>>
          memref.dealloc %alloc : memref<32x128xbf16, #gpu.address_space<workgroup>>
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_DxDx256_bf16xbf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
        ^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
          %c1 = arith.constant 1 : index
          %0 = affine.min #map()[%arg2, %arg1]
          iree_codegen.yield %0, %c1, %c1 : index, index, index
        }
      }
    }
  }
}

