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
          %c16_i32 = arith.constant 16 : i32
          %c256_i32 = arith.constant 256 : i32
          %c4_i32 = arith.constant 4 : i32
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
          %alloc_2 = memref.alloc() : memref<4096xbf16, #gpu.address_space<workgroup>>
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
          %16 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x256xbf16, #gpu.address_space<global>>{%15#0}
          %assume_align = memref.assume_alignment %16, 64 : memref<?x256xbf16, #gpu.address_space<global>>
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
          %28 = arith.muli %24, %c8_i32 overflow<nsw> : i32
          %29 = arith.index_castui %28 : i32 to index
          %30 = arith.divui %19, %c4_i32 : i32
          %31 = arith.remui %19, %c4_i32 : i32
          %32 = arith.addi %19, %c256_i32 overflow<nsw> : i32
          %33 = arith.divui %32, %c4_i32 : i32
          %34 = arith.remui %32, %c4_i32 : i32
          %35 = arith.divui %19, %c16_i32 : i32
          %36 = arith.index_castui %35 : i32 to index
          %37 = arith.remui %19, %c16_i32 : i32
          %38 = arith.divui %32, %c16_i32 : i32
          %39 = arith.index_castui %38 : i32 to index
          %40 = arith.remui %32, %c16_i32 : i32
          %41 = gpu.lane_id upper_bound 64
          %42 = arith.index_castui %41 : index to i32
          %43 = arith.remui %42, %c16_i32 : i32
          %44 = arith.divui %43, %c4_i32 : i32
          %45 = arith.subi %25, %43 : i32
          %46 = arith.remui %43, %c4_i32 : i32
          %47 = arith.muli %46, %c4_i32 : i32
          %48 = arith.addi %45, %47 : i32
          %49 = arith.addi %27, %44 : i32
          %50 = arith.addi %44, %c4_i32 : i32
          %51 = arith.remui %50, %c4_i32 : i32
          %52 = arith.addi %28, %c1_i32 : i32
          %53 = arith.index_castui %52 : i32 to index
          %54 = arith.addi %27, %51 : i32
          %55 = arith.addi %44, %c8_i32 : i32
          %56 = arith.remui %55, %c4_i32 : i32
          %57 = arith.addi %28, %c2_i32 : i32
          %58 = arith.index_castui %57 : i32 to index
          %59 = arith.addi %27, %56 : i32
          %60 = arith.addi %44, %c12_i32 : i32
          %61 = arith.remui %60, %c4_i32 : i32
          %62 = arith.addi %28, %c3_i32 : i32
          %63 = arith.index_castui %62 : i32 to index
          %64 = arith.addi %27, %61 : i32
          %65 = arith.addi %44, %c16_i32 : i32
          %66 = arith.remui %65, %c4_i32 : i32
          %67 = arith.addi %28, %c4_i32 : i32
          %68 = arith.index_castui %67 : i32 to index
          %69 = arith.addi %27, %66 : i32
          %70 = arith.addi %44, %c20_i32 : i32
          %71 = arith.remui %70, %c4_i32 : i32
          %72 = arith.addi %28, %c5_i32 : i32
          %73 = arith.index_castui %72 : i32 to index
          %74 = arith.addi %27, %71 : i32
          %75 = arith.addi %44, %c24_i32 : i32
          %76 = arith.remui %75, %c4_i32 : i32
          %77 = arith.addi %28, %c6_i32 : i32
          %78 = arith.index_castui %77 : i32 to index
          %79 = arith.addi %27, %76 : i32
          %80 = arith.addi %44, %c28_i32 : i32
          %81 = arith.remui %80, %c4_i32 : i32
          %82 = arith.addi %28, %c7_i32 : i32
          %83 = arith.index_castui %82 : i32 to index
          %84 = arith.addi %27, %81 : i32
          %85 = arith.muli %31, %c8_i32 overflow<nsw> : i32
          %86 = arith.muli %34, %c8_i32 overflow<nsw> : i32
          %87 = arith.muli %37, %c8_i32 overflow<nsw> : i32
          %88 = arith.index_castui %87 : i32 to index
          %89 = arith.muli %40, %c8_i32 overflow<nsw> : i32
          %90 = arith.index_castui %89 : i32 to index
          %91 = arith.muli %49, %c16_i32 overflow<nsw> : i32
          %92 = arith.addi %91, %48 overflow<nsw> : i32
          %93 = arith.index_cast %92 : i32 to index
          %94 = arith.muli %54, %c16_i32 overflow<nsw> : i32
          %95 = arith.addi %94, %48 overflow<nsw> : i32
          %96 = arith.index_cast %95 : i32 to index
          %97 = arith.muli %59, %c16_i32 overflow<nsw> : i32
          %98 = arith.addi %97, %48 overflow<nsw> : i32
          %99 = arith.index_cast %98 : i32 to index
          %100 = arith.muli %64, %c16_i32 overflow<nsw> : i32
          %101 = arith.addi %100, %48 overflow<nsw> : i32
          %102 = arith.index_cast %101 : i32 to index
          %103 = arith.muli %69, %c16_i32 overflow<nsw> : i32
          %104 = arith.addi %103, %48 overflow<nsw> : i32
          %105 = arith.index_cast %104 : i32 to index
          %106 = arith.muli %74, %c16_i32 overflow<nsw> : i32
          %107 = arith.addi %106, %48 overflow<nsw> : i32
          %108 = arith.index_cast %107 : i32 to index
          %109 = arith.muli %79, %c16_i32 overflow<nsw> : i32
          %110 = arith.addi %109, %48 overflow<nsw> : i32
          %111 = arith.index_cast %110 : i32 to index
          %112 = arith.muli %84, %c16_i32 overflow<nsw> : i32
          %113 = arith.addi %112, %48 overflow<nsw> : i32
          %114 = arith.index_cast %113 : i32 to index
          %collapse_shape = memref.collapse_shape %assume_align_4 [[0, 1]] : memref<?x?xf32, #gpu.address_space<global>> into memref<?xf32, #gpu.address_space<global>>
          %115 = vector.step : vector<4xindex>
          %116:4 = vector.to_elements %115 : vector<4xindex>
          %117 = vector.broadcast %116#0 : index to vector<1xindex>
          %118 = vector.broadcast %116#1 : index to vector<1xindex>
          %119 = vector.broadcast %116#2 : index to vector<1xindex>
          %120 = vector.broadcast %116#3 : index to vector<1xindex>
          %121 = arith.muli %20, %c4_i32 overflow<nsw> : i32
          %122 = vector.broadcast %121 : i32 to vector<1xi32>
          %123 = vector.broadcast %26 : i32 to vector<1xi32>
          %124 = arith.index_castui %123 : vector<1xi32> to vector<1xindex>
          %125 = arith.addi %117, %124 : vector<1xindex>
          %126 = arith.addi %118, %124 : vector<1xindex>
          %127 = arith.addi %119, %124 : vector<1xindex>
          %128 = arith.addi %120, %124 : vector<1xindex>
          %129 = vector.extract %115[0] : index from vector<4xindex>
          %130 = vector.broadcast %129 : index to vector<1xindex>
          %131 = vector.extract %115[1] : index from vector<4xindex>
          %132 = vector.broadcast %131 : index to vector<1xindex>
          %133 = vector.extract %115[2] : index from vector<4xindex>
          %134 = vector.broadcast %133 : index to vector<1xindex>
          %135 = vector.extract %115[3] : index from vector<4xindex>
          %136 = vector.broadcast %135 : index to vector<1xindex>
          %137 = vector.broadcast %27 : i32 to vector<1xi32>
          %138 = arith.index_castui %130 : vector<1xindex> to vector<1xi32>
          %139 = arith.addi %138, %137 : vector<1xi32>
          %140 = arith.index_castui %132 : vector<1xindex> to vector<1xi32>
          %141 = arith.addi %140, %137 : vector<1xi32>
          %142 = arith.index_castui %134 : vector<1xindex> to vector<1xi32>
          %143 = arith.addi %142, %137 : vector<1xi32>
          %144 = arith.index_castui %136 : vector<1xindex> to vector<1xi32>
          %145 = arith.addi %144, %137 : vector<1xi32>
          %146 = arith.muli %139, %cst overflow<nsw> : vector<1xi32>
          %147 = arith.muli %141, %cst overflow<nsw> : vector<1xi32>
          %148 = arith.muli %143, %cst overflow<nsw> : vector<1xi32>
          %149 = arith.muli %145, %cst overflow<nsw> : vector<1xi32>
          %150 = vector.broadcast %25 : i32 to vector<1xi32>
          %151 = arith.addi %146, %150 overflow<nsw> : vector<1xi32>
          %152 = arith.index_castui %151 : vector<1xi32> to vector<1xindex>
          %153 = arith.addi %147, %150 overflow<nsw> : vector<1xi32>
          %154 = arith.index_castui %153 : vector<1xi32> to vector<1xindex>
          %155 = arith.addi %148, %150 overflow<nsw> : vector<1xi32>
          %156 = arith.index_castui %155 : vector<1xi32> to vector<1xindex>
          %157 = arith.addi %149, %150 overflow<nsw> : vector<1xi32>
          %158 = arith.index_castui %157 : vector<1xi32> to vector<1xindex>
          %159 = vector.broadcast %15#1 : index to vector<1xindex>
          %160 = arith.cmpi sle, %15#0, %c0 : index
          %161 = arith.subi %c0, %15#0 : index
          %162 = arith.subi %15#0, %c1 : index
          %163 = arith.select %160, %161, %162 : index
          %164 = arith.divsi %163, %c128 : index
          %165 = arith.subi %c0, %164 : index
          %166 = arith.addi %164, %c1 : index
          %167 = arith.select %160, %165, %166 : index
          %168 = arith.cmpi sle, %15#1, %c0 : index
          %169 = arith.subi %c0, %15#1 : index
          %170 = arith.subi %15#1, %c1 : index
          %171 = arith.select %168, %169, %170 : index
          %172 = arith.divsi %171, %c128 : index
          %173 = arith.subi %c0, %172 : index
          %174 = arith.addi %172, %c1 : index
          %175 = arith.select %168, %173, %174 : index
          %176 = arith.muli %175, %167 overflow<nsw> : index
          %workgroup_id_x = hal.interface.workgroup.id[0] upper_bound 2147483647 : index
          %workgroup_count_x = hal.interface.workgroup.count[0] upper_bound 2147483647 : index
          scf.for %arg0 = %workgroup_id_x to %176 step %workgroup_count_x {
            %177 = arith.floordivsi %arg0, %175 : index
            %178 = arith.remsi %arg0, %175 : index
            %179 = arith.cmpi slt, %178, %c0 : index
            %180 = arith.addi %178, %175 overflow<nsw> : index
            %181 = arith.select %179, %180, %178 : index
            %182 = arith.muli %181, %c128 overflow<nsw> : index
            %183 = arith.muli %177, %c128 overflow<nsw> : index
            %184 = arith.muli %177, %c-128 overflow<nsw> : index
            %185 = arith.addi %184, %15#0 : index
            %186 = arith.minsi %185, %c128 : index
            %187 = arith.muli %181, %c-128 overflow<nsw> : index
            %188 = arith.addi %187, %15#1 : index
            %189 = arith.minsi %188, %c128 : index
            %190 = arith.minsi %185, %c0 : index
            %191 = arith.minsi %190, %c128 : index
            %192 = arith.subi %186, %191 : index
            %193 = arith.minsi %192, %c128 : index
            %194 = arith.minsi %188, %c0 : index
            %195 = arith.minsi %194, %c128 : index
            %196 = arith.subi %189, %195 : index
            %197 = arith.minsi %196, %c128 : index
            %198 = arith.minui %30, %c128_i32 : i32
            %199 = arith.index_castui %198 : i32 to index
            %200 = arith.minsi %199, %192 : index
            %201 = arith.subi %193, %200 : index
            %202 = arith.minsi %201, %c1 : index
            %203 = arith.cmpi sgt, %202, %c0 : index
            %204 = arith.minui %33, %c128_i32 : i32
            %205 = arith.index_castui %204 : i32 to index
            %206 = arith.minsi %205, %192 : index
            %207 = arith.subi %193, %206 : index
            %208 = arith.minsi %207, %c1 : index
            %209 = arith.cmpi sgt, %208, %c0 : index
            %210 = arith.minui %87, %c128_i32 : i32
            %211 = arith.index_castui %210 : i32 to index
            %212 = arith.minsi %211, %196 : index
            %213 = arith.subi %197, %212 : index
            %214 = arith.minsi %213, %c8 : index
            %215 = arith.minui %89, %c128_i32 : i32
            %216 = arith.index_castui %215 : i32 to index
            %217 = arith.minsi %216, %196 : index
            %218 = arith.subi %197, %217 : index
            %219 = arith.minsi %218, %c8 : index
            %220 = arith.addi %183, %200 : index
            %221 = arith.addi %220, %191 : index
            %222 = arith.addi %183, %206 : index
            %223 = arith.addi %222, %191 : index
            %224 = arith.addi %182, %212 : index
            %225 = arith.addi %224, %195 : index
            %226 = vector.create_mask %214 : vector<8xi1>
            %227 = arith.addi %182, %217 : index
            %228 = arith.addi %227, %195 : index
            %229 = vector.create_mask %219 : vector<8xi1>
            %230 = arith.muli %30, %c32_i32 overflow<nsw> : i32
            %231 = arith.addi %230, %85 overflow<nsw> : i32
            %232 = arith.remui %231, %c64_i32 : i32
            %233 = arith.divui %232, %c8_i32 : i32
            %234 = arith.divui %231, %c64_i32 : i32
            %235 = arith.remui %234, %c8_i32 : i32
            %236 = arith.xori %235, %233 : i32
            %237 = arith.muli %234, %c64_i32 overflow<nsw> : i32
            %238 = arith.muli %236, %c8_i32 overflow<nsw> : i32
            %239 = arith.addi %237, %238 : i32
            %240 = arith.index_castui %239 : i32 to index
            %241 = arith.muli %33, %c32_i32 overflow<nsw> : i32
            %242 = arith.addi %241, %86 overflow<nsw> : i32
            %243 = arith.remui %242, %c64_i32 : i32
            %244 = arith.divui %243, %c8_i32 : i32
            %245 = arith.divui %242, %c64_i32 : i32
            %246 = arith.remui %245, %c8_i32 : i32
            %247 = arith.xori %246, %244 : i32
            %248 = arith.muli %245, %c64_i32 overflow<nsw> : i32
            %249 = arith.muli %247, %c8_i32 overflow<nsw> : i32
            %250 = arith.addi %248, %249 : i32
            %251 = arith.index_castui %250 : i32 to index
            %252 = arith.muli %20, %c2048_i32 overflow<nsw> : i32
            %253 = arith.muli %25, %c32_i32 overflow<nsw> : i32
            %254 = arith.addi %253, %28 overflow<nsw> : i32
            %255 = arith.addi %254, %252 overflow<nsw> : i32
            %256 = arith.remui %255, %c64_i32 : i32
            %257 = arith.divui %256, %c8_i32 : i32
            %258 = arith.divui %255, %c64_i32 : i32
            %259 = arith.remui %258, %c8_i32 : i32
            %260 = arith.xori %259, %257 : i32
            %261 = arith.muli %258, %c64_i32 overflow<nsw> : i32
            %262 = arith.muli %260, %c8_i32 overflow<nsw> : i32
            %263 = arith.addi %261, %262 : i32
            %264 = arith.subi %263, %255 : i32
            %265 = arith.index_castui %263 : i32 to index
            %266 = arith.addi %255, %c512_i32 overflow<nsw> : i32
            %267 = arith.addi %266, %264 : i32
            %268 = arith.index_cast %267 : i32 to index
            %269 = arith.addi %255, %c1024_i32 overflow<nsw> : i32
            %270 = arith.addi %269, %264 : i32
            %271 = arith.index_cast %270 : i32 to index
            %272 = arith.addi %255, %c1536_i32 overflow<nsw> : i32
            %273 = arith.addi %272, %264 : i32
            %274 = arith.index_cast %273 : i32 to index
            %275:16 = scf.for %arg1 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg2 = %cst_1, %arg3 = %cst_1, %arg4 = %cst_1, %arg5 = %cst_1, %arg6 = %cst_1, %arg7 = %cst_1, %arg8 = %cst_1, %arg9 = %cst_1, %arg10 = %cst_1, %arg11 = %cst_1, %arg12 = %cst_1, %arg13 = %cst_1, %arg14 = %cst_1, %arg15 = %cst_1, %arg16 = %cst_1, %arg17 = %cst_1) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)  : i32 {
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %288 = arith.muli %arg1, %c32_i32 overflow<nsw> : i32
              %289 = arith.addi %85, %288 : i32
              %290 = arith.index_castui %289 : i32 to index
              %291 = scf.if %203 -> (vector<8xbf16>) {
                %365 = vector.load %assume_align[%221, %290] : memref<?x256xbf16, #gpu.address_space<global>>, vector<8xbf16>
                scf.yield %365 : vector<8xbf16>
              } else {
                scf.yield %cst_0 : vector<8xbf16>
              }
              vector.store %291, %alloc_2[%240] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %292 = arith.addi %86, %288 : i32
              %293 = arith.index_castui %292 : i32 to index
              %294 = scf.if %209 -> (vector<8xbf16>) {
                %365 = vector.load %assume_align[%223, %293] : memref<?x256xbf16, #gpu.address_space<global>>, vector<8xbf16>
                scf.yield %365 : vector<8xbf16>
              } else {
                scf.yield %cst_0 : vector<8xbf16>
              }
              vector.store %294, %alloc_2[%251] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %295 = arith.addi %35, %288 : i32
              %296 = arith.index_castui %295 : i32 to index
              %297 = vector.maskedload %assume_align_3[%296, %225], %226, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %297, %alloc[%36, %88] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %298 = arith.addi %38, %288 : i32
              %299 = arith.index_castui %298 : i32 to index
              %300 = vector.maskedload %assume_align_3[%299, %228], %229, %cst_0 : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
              vector.store %300, %alloc[%39, %90] : memref<32x128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              gpu.barrier memfence [#gpu.address_space<workgroup>]
              %301 = vector.load %alloc_2[%265] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %302 = vector.load %alloc_2[%268] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %303 = vector.load %alloc_2[%271] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %304 = vector.load %alloc_2[%274] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
              %305 = amdgpu.transpose_load %alloc[%29, %93] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %306 = amdgpu.transpose_load %alloc[%53, %96] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %307 = amdgpu.transpose_load %alloc[%58, %99] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %308 = amdgpu.transpose_load %alloc[%63, %102] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %309 = amdgpu.transpose_load %alloc[%68, %105] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %310 = amdgpu.transpose_load %alloc[%73, %108] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %311 = amdgpu.transpose_load %alloc[%78, %111] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %312 = amdgpu.transpose_load %alloc[%83, %114] : memref<32x128xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
              %313 = vector.extract %305[0] : bf16 from vector<4xbf16>
              %314 = vector.extract %305[1] : bf16 from vector<4xbf16>
              %315 = vector.extract %305[2] : bf16 from vector<4xbf16>
              %316 = vector.extract %305[3] : bf16 from vector<4xbf16>
              %317 = vector.extract %306[0] : bf16 from vector<4xbf16>
              %318 = vector.extract %306[1] : bf16 from vector<4xbf16>
              %319 = vector.extract %306[2] : bf16 from vector<4xbf16>
              %320 = vector.extract %306[3] : bf16 from vector<4xbf16>
              %321 = vector.extract %307[0] : bf16 from vector<4xbf16>
              %322 = vector.extract %307[1] : bf16 from vector<4xbf16>
              %323 = vector.extract %307[2] : bf16 from vector<4xbf16>
              %324 = vector.extract %307[3] : bf16 from vector<4xbf16>
              %325 = vector.extract %308[0] : bf16 from vector<4xbf16>
              %326 = vector.extract %308[1] : bf16 from vector<4xbf16>
              %327 = vector.extract %308[2] : bf16 from vector<4xbf16>
              %328 = vector.extract %308[3] : bf16 from vector<4xbf16>
              %329 = vector.extract %309[0] : bf16 from vector<4xbf16>
              %330 = vector.extract %309[1] : bf16 from vector<4xbf16>
              %331 = vector.extract %309[2] : bf16 from vector<4xbf16>
              %332 = vector.extract %309[3] : bf16 from vector<4xbf16>
              %333 = vector.extract %310[0] : bf16 from vector<4xbf16>
              %334 = vector.extract %310[1] : bf16 from vector<4xbf16>
              %335 = vector.extract %310[2] : bf16 from vector<4xbf16>
              %336 = vector.extract %310[3] : bf16 from vector<4xbf16>
              %337 = vector.extract %311[0] : bf16 from vector<4xbf16>
              %338 = vector.extract %311[1] : bf16 from vector<4xbf16>
              %339 = vector.extract %311[2] : bf16 from vector<4xbf16>
              %340 = vector.extract %311[3] : bf16 from vector<4xbf16>
              %341 = vector.extract %312[0] : bf16 from vector<4xbf16>
              %342 = vector.extract %312[1] : bf16 from vector<4xbf16>
              %343 = vector.extract %312[2] : bf16 from vector<4xbf16>
              %344 = vector.extract %312[3] : bf16 from vector<4xbf16>
              %345 = vector.from_elements %313, %317, %321, %325, %329, %333, %337, %341 : vector<8xbf16>
              %346 = vector.from_elements %314, %318, %322, %326, %330, %334, %338, %342 : vector<8xbf16>
              %347 = vector.from_elements %315, %319, %323, %327, %331, %335, %339, %343 : vector<8xbf16>
              %348 = vector.from_elements %316, %320, %324, %328, %332, %336, %340, %344 : vector<8xbf16>
              %349 = amdgpu.mfma 16x16x32 %301 * %345 + %arg17 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %350 = amdgpu.mfma 16x16x32 %301 * %346 + %arg16 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %351 = amdgpu.mfma 16x16x32 %301 * %347 + %arg15 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %352 = amdgpu.mfma 16x16x32 %301 * %348 + %arg14 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %353 = amdgpu.mfma 16x16x32 %302 * %345 + %arg13 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %354 = amdgpu.mfma 16x16x32 %302 * %346 + %arg12 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %355 = amdgpu.mfma 16x16x32 %302 * %347 + %arg11 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %356 = amdgpu.mfma 16x16x32 %302 * %348 + %arg10 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %357 = amdgpu.mfma 16x16x32 %303 * %345 + %arg9 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %358 = amdgpu.mfma 16x16x32 %303 * %346 + %arg8 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %359 = amdgpu.mfma 16x16x32 %303 * %347 + %arg7 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %360 = amdgpu.mfma 16x16x32 %303 * %348 + %arg6 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %361 = amdgpu.mfma 16x16x32 %304 * %345 + %arg5 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %362 = amdgpu.mfma 16x16x32 %304 * %346 + %arg4 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %363 = amdgpu.mfma 16x16x32 %304 * %347 + %arg3 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              %364 = amdgpu.mfma 16x16x32 %304 * %348 + %arg2 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
              scf.yield %364, %363, %362, %361, %360, %359, %358, %357, %356, %355, %354, %353, %352, %351, %350, %349 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#15[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c0, %c0, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#14[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c0, %c1, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#13[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c0, %c2, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#12[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c0, %c3, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#11[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c1, %c0, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#10[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c1, %c1, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#9[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c1, %c2, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#8[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c1, %c3, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#7[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c2, %c0, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#6[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c2, %c1, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#5[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c2, %c2, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#4[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c2, %c3, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#3[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c3, %c0, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#2[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c3, %c1, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#1[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c3, %c2, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = vector.extract %275#0[%288] : f32 from vector<4xf32>
              memref.store %289, %alloca[%c3, %c3, %288, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
            }
            %276 = vector.broadcast %189 : index to vector<1xindex>
            %277 = arith.cmpi ult, %152, %276 : vector<1xindex>
            %278 = arith.cmpi ult, %154, %276 : vector<1xindex>
            %279 = arith.cmpi ult, %156, %276 : vector<1xindex>
            %280 = arith.cmpi ult, %158, %276 : vector<1xindex>
            %281 = vector.broadcast %182 : index to vector<1xindex>
            %282 = arith.addi %281, %152 : vector<1xindex>
            %283 = arith.addi %281, %154 : vector<1xindex>
            %284 = arith.addi %281, %156 : vector<1xindex>
            %285 = arith.addi %281, %158 : vector<1xindex>
            %286 = vector.broadcast %186 : index to vector<1xindex>
            %287 = vector.broadcast %183 : index to vector<1xindex>
            scf.for %arg1 = %c0_i32 to %c4_i32 step %c1_i32  : i32 {
              %288 = arith.index_castui %arg1 : i32 to index
              %289 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %396 = arith.index_castui %arg2 : i32 to index
                %397 = memref.load %alloca[%288, %c0, %396, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %398 = vector.insert %397, %arg3 [%396] : f32 into vector<4xf32>
                scf.yield %398 : vector<4xf32>
              }
              %290 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %396 = arith.index_castui %arg2 : i32 to index
                %397 = memref.load %alloca[%288, %c1, %396, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %398 = vector.insert %397, %arg3 [%396] : f32 into vector<4xf32>
                scf.yield %398 : vector<4xf32>
              }
              %291 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %396 = arith.index_castui %arg2 : i32 to index
                %397 = memref.load %alloca[%288, %c2, %396, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %398 = vector.insert %397, %arg3 [%396] : f32 into vector<4xf32>
                scf.yield %398 : vector<4xf32>
              }
              %292 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %0) -> (vector<4xf32>)  : i32 {
                %396 = arith.index_castui %arg2 : i32 to index
                %397 = memref.load %alloca[%288, %c3, %396, %c0] : memref<4x4x4x1xf32, #gpu.address_space<private>>
                %398 = vector.insert %397, %arg3 [%396] : f32 into vector<4xf32>
                scf.yield %398 : vector<4xf32>
              }
              %293 = vector.broadcast %arg1 : i32 to vector<1xi32>
              %294 = arith.addi %122, %293 : vector<1xi32>
              %295 = arith.muli %294, %cst overflow<nsw> : vector<1xi32>
              %296 = arith.index_castui %295 : vector<1xi32> to vector<1xindex>
              %297 = arith.addi %296, %125 overflow<nsw> : vector<1xindex>
              %298 = arith.addi %296, %126 overflow<nsw> : vector<1xindex>
              %299 = arith.addi %296, %127 overflow<nsw> : vector<1xindex>
              %300 = arith.addi %296, %128 overflow<nsw> : vector<1xindex>
              %301 = arith.cmpi ult, %297, %286 : vector<1xindex>
              %302 = arith.cmpi ult, %298, %286 : vector<1xindex>
              %303 = arith.cmpi ult, %299, %286 : vector<1xindex>
              %304 = arith.cmpi ult, %300, %286 : vector<1xindex>
              %305 = arith.andi %301, %277 : vector<1xi1>
              %306 = arith.andi %301, %278 : vector<1xi1>
              %307 = arith.andi %301, %279 : vector<1xi1>
              %308 = arith.andi %301, %280 : vector<1xi1>
              %309 = arith.andi %302, %277 : vector<1xi1>
              %310 = arith.andi %302, %278 : vector<1xi1>
              %311 = arith.andi %302, %279 : vector<1xi1>
              %312 = arith.andi %302, %280 : vector<1xi1>
              %313 = arith.andi %303, %277 : vector<1xi1>
              %314 = arith.andi %303, %278 : vector<1xi1>
              %315 = arith.andi %303, %279 : vector<1xi1>
              %316 = arith.andi %303, %280 : vector<1xi1>
              %317 = arith.andi %304, %277 : vector<1xi1>
              %318 = arith.andi %304, %278 : vector<1xi1>
              %319 = arith.andi %304, %279 : vector<1xi1>
              %320 = arith.andi %304, %280 : vector<1xi1>
              %321 = arith.addi %287, %297 : vector<1xindex>
              %322 = arith.addi %287, %298 : vector<1xindex>
              %323 = arith.addi %287, %299 : vector<1xindex>
              %324 = arith.addi %287, %300 : vector<1xindex>
              %325 = arith.muli %321, %159 overflow<nsw> : vector<1xindex>
              %326 = arith.muli %322, %159 overflow<nsw> : vector<1xindex>
              %327 = arith.muli %323, %159 overflow<nsw> : vector<1xindex>
              %328 = arith.muli %324, %159 overflow<nsw> : vector<1xindex>
              %329 = arith.addi %325, %282 overflow<nsw> : vector<1xindex>
              %330 = arith.addi %325, %283 overflow<nsw> : vector<1xindex>
              %331 = arith.addi %325, %284 overflow<nsw> : vector<1xindex>
              %332 = arith.addi %325, %285 overflow<nsw> : vector<1xindex>
              %333 = arith.addi %326, %282 overflow<nsw> : vector<1xindex>
              %334 = arith.addi %326, %283 overflow<nsw> : vector<1xindex>
              %335 = arith.addi %326, %284 overflow<nsw> : vector<1xindex>
              %336 = arith.addi %326, %285 overflow<nsw> : vector<1xindex>
              %337 = arith.addi %327, %282 overflow<nsw> : vector<1xindex>
              %338 = arith.addi %327, %283 overflow<nsw> : vector<1xindex>
              %339 = arith.addi %327, %284 overflow<nsw> : vector<1xindex>
              %340 = arith.addi %327, %285 overflow<nsw> : vector<1xindex>
              %341 = arith.addi %328, %282 overflow<nsw> : vector<1xindex>
              %342 = arith.addi %328, %283 overflow<nsw> : vector<1xindex>
              %343 = arith.addi %328, %284 overflow<nsw> : vector<1xindex>
              %344 = arith.addi %328, %285 overflow<nsw> : vector<1xindex>
              %345 = vector.extract %329[0] : index from vector<1xindex>
              %346 = vector.extract %330[0] : index from vector<1xindex>
              %347 = vector.extract %331[0] : index from vector<1xindex>
              %348 = vector.extract %332[0] : index from vector<1xindex>
              %349 = vector.extract %333[0] : index from vector<1xindex>
              %350 = vector.extract %334[0] : index from vector<1xindex>
              %351 = vector.extract %335[0] : index from vector<1xindex>
              %352 = vector.extract %336[0] : index from vector<1xindex>
              %353 = vector.extract %337[0] : index from vector<1xindex>
              %354 = vector.extract %338[0] : index from vector<1xindex>
              %355 = vector.extract %339[0] : index from vector<1xindex>
              %356 = vector.extract %340[0] : index from vector<1xindex>
              %357 = vector.extract %341[0] : index from vector<1xindex>
              %358 = vector.extract %342[0] : index from vector<1xindex>
              %359 = vector.extract %343[0] : index from vector<1xindex>
              %360 = vector.extract %344[0] : index from vector<1xindex>
              %361 = vector.from_elements %345, %346, %347, %348, %349, %350, %351, %352, %353, %354, %355, %356, %357, %358, %359, %360 : vector<16xindex>
              %362 = vector.extract %305[0] : i1 from vector<1xi1>
              %363 = vector.extract %306[0] : i1 from vector<1xi1>
              %364 = vector.extract %307[0] : i1 from vector<1xi1>
              %365 = vector.extract %308[0] : i1 from vector<1xi1>
              %366 = vector.extract %309[0] : i1 from vector<1xi1>
              %367 = vector.extract %310[0] : i1 from vector<1xi1>
              %368 = vector.extract %311[0] : i1 from vector<1xi1>
              %369 = vector.extract %312[0] : i1 from vector<1xi1>
              %370 = vector.extract %313[0] : i1 from vector<1xi1>
              %371 = vector.extract %314[0] : i1 from vector<1xi1>
              %372 = vector.extract %315[0] : i1 from vector<1xi1>
              %373 = vector.extract %316[0] : i1 from vector<1xi1>
              %374 = vector.extract %317[0] : i1 from vector<1xi1>
              %375 = vector.extract %318[0] : i1 from vector<1xi1>
              %376 = vector.extract %319[0] : i1 from vector<1xi1>
              %377 = vector.extract %320[0] : i1 from vector<1xi1>
              %378 = vector.from_elements %362, %363, %364, %365, %366, %367, %368, %369, %370, %371, %372, %373, %374, %375, %376, %377 : vector<16xi1>
              %379 = vector.extract %289[0] : f32 from vector<4xf32>
              %380 = vector.extract %290[0] : f32 from vector<4xf32>
              %381 = vector.extract %291[0] : f32 from vector<4xf32>
              %382 = vector.extract %292[0] : f32 from vector<4xf32>
              %383 = vector.extract %289[1] : f32 from vector<4xf32>
              %384 = vector.extract %290[1] : f32 from vector<4xf32>
              %385 = vector.extract %291[1] : f32 from vector<4xf32>
              %386 = vector.extract %292[1] : f32 from vector<4xf32>
              %387 = vector.extract %289[2] : f32 from vector<4xf32>
              %388 = vector.extract %290[2] : f32 from vector<4xf32>
              %389 = vector.extract %291[2] : f32 from vector<4xf32>
              %390 = vector.extract %292[2] : f32 from vector<4xf32>
              %391 = vector.extract %289[3] : f32 from vector<4xf32>
              %392 = vector.extract %290[3] : f32 from vector<4xf32>
              %393 = vector.extract %291[3] : f32 from vector<4xf32>
              %394 = vector.extract %292[3] : f32 from vector<4xf32>
              %395 = vector.from_elements %379, %380, %381, %382, %383, %384, %385, %386, %387, %388, %389, %390, %391, %392, %393, %394 : vector<16xf32>
              vector.scatter %collapse_shape[%c0] [%361], %378, %395 : memref<?xf32, #gpu.address_space<global>>, vector<16xindex>, vector<16xi1>, vector<16xf32>
            }
            gpu.barrier memfence [#gpu.address_space<workgroup>]
          }
          memref.dealloc %alloc_2 : memref<4096xbf16, #gpu.address_space<workgroup>>
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

