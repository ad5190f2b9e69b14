#map = affine_map<()[s0] -> ((s0 floordiv 64) * 8 - ((s0 floordiv 64) floordiv 16) * 128)>
#map1 = affine_map<()[s0] -> ((s0 floordiv 64) * 8 - ((s0 floordiv 64 + 4) floordiv 16) * 128 + 32)>
#map2 = affine_map<()[s0] -> ((s0 floordiv 64) * 8 - ((s0 floordiv 64 + 8) floordiv 16) * 128 + 64)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 64) * 8 - ((s0 floordiv 64 + 12) floordiv 16) * 128 + 96)>
#map4 = affine_map<()[s0, s1] -> (s1 * 128 + (s0 floordiv 8) mod 128)>
#map5 = affine_map<()[s0] -> ((s0 floordiv 8) mod 8)>
#map6 = affine_map<()[s0] -> (s0 mod 8)>
#map7 = affine_map<()[s0, s1] -> (s1 * 128 + s0 floordiv 8 - ((s0 floordiv 8 + 32) floordiv 128) * 128 + 32)>
#map8 = affine_map<()[s0, s1] -> (s1 * 128 + s0 floordiv 8 - ((s0 floordiv 8 + 64) floordiv 128) * 128 + 64)>
#map9 = affine_map<()[s0, s1] -> (s1 * 128 + s0 floordiv 8 - ((s0 floordiv 8 + 96) floordiv 128) * 128 + 96)>
#map10 = affine_map<()[s0] -> (s0 mod 16)>
#map11 = affine_map<()[s0] -> ((s0 mod 64) floordiv 16)>
#map12 = affine_map<()[s0] -> (s0 * 8)>
#map13 = affine_map<()[s0] -> ((s0 mod 64) floordiv 16 + 4)>
#map14 = affine_map<()[s0] -> (s0 mod 16 + 16)>
#map15 = affine_map<()[s0] -> (s0 mod 16 + 32)>
#map16 = affine_map<()[s0] -> (s0 mod 16 + 48)>
#map17 = affine_map<()[s0] -> (s0 mod 16 + 64)>
#map18 = affine_map<()[s0] -> (s0 mod 16 + 80)>
#map19 = affine_map<()[s0] -> (s0 mod 16 + 96)>
#map20 = affine_map<()[s0] -> (s0 mod 16 + 112)>
#map21 = affine_map<()[s0] -> (s0 mod 16 + (s0 floordiv 64) * 32)>
#map22 = affine_map<()[s0] -> (s0 mod 16 + (s0 floordiv 64) * 32 + 16)>
#map23 = affine_map<()[s0, s1] -> (s0 * 64 + s1 * 8)>
#map24 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4)>
#map25 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16)>
#map26 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4 + 1)>
#map27 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4 + 2)>
#map28 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4 + 3)>
#map29 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16 + 16)>
#map30 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16 + 32)>
#map31 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16 + 48)>
#map32 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16 + 64)>
#map33 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16 + 80)>
#map34 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16 + 96)>
#map35 = affine_map<()[s0, s1] -> (s0 + s1 * 128 - (s0 floordiv 16) * 16 + 112)>
#map36 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4 + 16)>
#map37 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4 + 17)>
#map38 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4 + 18)>
#map39 = affine_map<()[s0, s1] -> (s0 * 128 + (s1 floordiv 64) * 32 + ((s1 mod 64) floordiv 16) * 4 + 19)>
#translation = #iree_codegen.translation_info<pipeline = None workgroup_size = [256, 1, 1] subgroup_size = 64>
module attributes {transform.with_named_sequence} {
  stream.executable private @gemm {
    stream.executable.export public @gemm workgroups() -> (index, index, index) {
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      stream.return %c2, %c2, %c1 : index, index, index
    }
    builtin.module {
      func.func @gemm(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) attributes {translation_info = #translation} {
        %c1024_i14 = arith.constant 1024 : i14
        %c0_i32 = arith.constant 0 : i32
        %c2147483645_i64 = arith.constant 2147483645 : i64
        %c1024 = arith.constant 1024 : index
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        %c16384 = arith.constant 16384 : index
        %cst = arith.constant dense<0.000000e+00> : vector<4xf32>
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> memref<f16>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> memref<f16>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> memref<f32>
        %block_id_x = gpu.block_id  x upper_bound 2
        %block_id_y = gpu.block_id  y upper_bound 2
        %thread_id_x = gpu.thread_id  x upper_bound 256
        %reinterpret_cast = memref.reinterpret_cast %2 to offset: [0], sizes: [256, 256], strides: [256, 1] : memref<f32> to memref<256x256xf32, strided<[256, 1]>>
        %alloc = memref.alloc() : memref<32768xi8, #gpu.address_space<workgroup>>
        %view = memref.view %alloc[%c0][] : memref<32768xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
        %view_0 = memref.view %alloc[%c16384][] : memref<32768xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
        %3 = affine.apply #map()[%thread_id_x]
        %4 = arith.index_cast %3 : index to i32
        %5 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%4) : (i32) -> i32
        %6 = arith.index_cast %5 : i32 to index
        %7 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %8 = arith.index_cast %7 : i32 to index
        %9 = affine.apply #map1()[%thread_id_x]
        %10 = arith.index_cast %9 : index to i32
        %11 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%10) : (i32) -> i32
        %12 = arith.index_cast %11 : i32 to index
        %13 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %14 = arith.index_cast %13 : i32 to index
        %15 = affine.apply #map2()[%thread_id_x]
        %16 = arith.index_cast %15 : index to i32
        %17 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%16) : (i32) -> i32
        %18 = arith.index_cast %17 : i32 to index
        %19 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %20 = arith.index_cast %19 : i32 to index
        %21 = affine.apply #map3()[%thread_id_x]
        %22 = arith.index_cast %21 : index to i32
        %23 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%22) : (i32) -> i32
        %24 = arith.index_cast %23 : i32 to index
        %25 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %26 = arith.index_cast %25 : i32 to index
        %27 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%4) : (i32) -> i32
        %28 = arith.index_cast %27 : i32 to index
        %29 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %30 = arith.index_cast %29 : i32 to index
        %31 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%10) : (i32) -> i32
        %32 = arith.index_cast %31 : i32 to index
        %33 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %34 = arith.index_cast %33 : i32 to index
        %35 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%16) : (i32) -> i32
        %36 = arith.index_cast %35 : i32 to index
        %37 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %38 = arith.index_cast %37 : i32 to index
        %39 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%22) : (i32) -> i32
        %40 = arith.index_cast %39 : i32 to index
        %41 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %42 = arith.index_cast %41 : i32 to index
        %43 = affine.apply #map4()[%thread_id_x, %block_id_x]
        %44 = affine.apply #map5()[%thread_id_x]
        %45 = affine.apply #map6()[%thread_id_x]
        %46 = arith.xori %45, %44 : index
        %47 = arith.muli %43, %c1024 overflow<nsw> : index
        %reinterpret_cast_1 = memref.reinterpret_cast %0 to offset: [0], sizes: [1073741822], strides: [1] : memref<f16> to memref<1073741822xf16, strided<[1]>>
        %cast = memref.cast %reinterpret_cast_1 : memref<1073741822xf16, strided<[1]>> to memref<?xf16, strided<[1], offset: ?>>
        %48 = amdgpu.fat_raw_buffer_cast %cast validBytes(%c2147483645_i64) cacheSwizzleStride(%c1024_i14) resetOffset : memref<?xf16, strided<[1], offset: ?>> to memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>
        %49 = affine.apply #map7()[%thread_id_x, %block_id_x]
        %50 = arith.muli %49, %c1024 overflow<nsw> : index
        %51 = affine.apply #map8()[%thread_id_x, %block_id_x]
        %52 = arith.muli %51, %c1024 overflow<nsw> : index
        %53 = affine.apply #map9()[%thread_id_x, %block_id_x]
        %54 = arith.muli %53, %c1024 overflow<nsw> : index
        %55 = affine.apply #map4()[%thread_id_x, %block_id_y]
        %56 = arith.muli %55, %c1024 overflow<nsw> : index
        %reinterpret_cast_2 = memref.reinterpret_cast %1 to offset: [0], sizes: [1073741822], strides: [1] : memref<f16> to memref<1073741822xf16, strided<[1]>>
        %cast_3 = memref.cast %reinterpret_cast_2 : memref<1073741822xf16, strided<[1]>> to memref<?xf16, strided<[1], offset: ?>>
        %57 = amdgpu.fat_raw_buffer_cast %cast_3 validBytes(%c2147483645_i64) cacheSwizzleStride(%c1024_i14) resetOffset : memref<?xf16, strided<[1], offset: ?>> to memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>
        %58 = affine.apply #map7()[%thread_id_x, %block_id_y]
        %59 = arith.muli %58, %c1024 overflow<nsw> : index
        %60 = affine.apply #map8()[%thread_id_x, %block_id_y]
        %61 = arith.muli %60, %c1024 overflow<nsw> : index
        %62 = affine.apply #map9()[%thread_id_x, %block_id_y]
        %63 = arith.muli %62, %c1024 overflow<nsw> : index
        %64 = affine.apply #map10()[%thread_id_x]
        %65 = affine.apply #map11()[%thread_id_x]
        %66 = arith.xori %65, %45 : index
        %67 = affine.apply #map12()[%66]
        %68 = affine.apply #map13()[%thread_id_x]
        %69 = arith.xori %68, %45 : index
        %70 = affine.apply #map12()[%69]
        %71 = affine.apply #map14()[%thread_id_x]
        %72 = affine.apply #map15()[%thread_id_x]
        %73 = affine.apply #map16()[%thread_id_x]
        %74 = affine.apply #map17()[%thread_id_x]
        %75 = affine.apply #map18()[%thread_id_x]
        %76 = affine.apply #map19()[%thread_id_x]
        %77 = affine.apply #map20()[%thread_id_x]
        %78 = affine.apply #map21()[%thread_id_x]
        %79 = affine.apply #map22()[%thread_id_x]
        %80:16 = scf.for %arg3 = %c0 to %c16 step %c1 iter_args(%arg4 = %cst, %arg5 = %cst, %arg6 = %cst, %arg7 = %cst, %arg8 = %cst, %arg9 = %cst, %arg10 = %cst, %arg11 = %cst, %arg12 = %cst, %arg13 = %cst, %arg14 = %cst, %arg15 = %cst, %arg16 = %cst, %arg17 = %cst, %arg18 = %cst, %arg19 = %cst) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
          rocdl.s.waitcnt 16368
          amdgpu.lds_barrier
          %161 = affine.apply #map23()[%arg3, %46]
          %162 = arith.addi %47, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%162], %view_0[%6, %8] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %163 = arith.addi %50, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%163], %view_0[%12, %14] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %164 = arith.addi %52, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%164], %view_0[%18, %20] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %165 = arith.addi %54, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%165], %view_0[%24, %26] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %166 = arith.addi %56, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %57[%166], %view[%28, %30] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %167 = arith.addi %59, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %57[%167], %view[%32, %34] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %168 = arith.addi %61, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %57[%168], %view[%36, %38] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %169 = arith.addi %63, %161 overflow<nsw> : index
          amdgpu.gather_to_lds %57[%169], %view[%40, %42] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          rocdl.s.waitcnt 16368
          amdgpu.lds_barrier
          %170 = vector.load %view[%64, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %171 = vector.load %view[%64, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %172 = vector.load %view[%71, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %173 = vector.load %view[%71, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %174 = vector.load %view[%72, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %175 = vector.load %view[%72, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %176 = vector.load %view[%73, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %177 = vector.load %view[%73, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %178 = vector.load %view[%74, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %179 = vector.load %view[%74, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %180 = vector.load %view[%75, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %181 = vector.load %view[%75, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %182 = vector.load %view[%76, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %183 = vector.load %view[%76, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %184 = vector.load %view[%77, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %185 = vector.load %view[%77, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %186 = vector.load %view_0[%78, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %187 = vector.load %view_0[%78, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %188 = vector.load %view_0[%79, %67] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %189 = vector.load %view_0[%79, %70] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %190 = amdgpu.mfma 16x16x32 %186 * %170 + %arg4 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %191 = amdgpu.mfma 16x16x32 %187 * %171 + %190 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %192 = amdgpu.mfma 16x16x32 %186 * %172 + %arg5 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %193 = amdgpu.mfma 16x16x32 %187 * %173 + %192 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %194 = amdgpu.mfma 16x16x32 %186 * %174 + %arg6 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %195 = amdgpu.mfma 16x16x32 %187 * %175 + %194 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %196 = amdgpu.mfma 16x16x32 %186 * %176 + %arg7 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %197 = amdgpu.mfma 16x16x32 %187 * %177 + %196 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %198 = amdgpu.mfma 16x16x32 %186 * %178 + %arg8 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %199 = amdgpu.mfma 16x16x32 %187 * %179 + %198 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %200 = amdgpu.mfma 16x16x32 %186 * %180 + %arg9 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %201 = amdgpu.mfma 16x16x32 %187 * %181 + %200 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %202 = amdgpu.mfma 16x16x32 %186 * %182 + %arg10 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %203 = amdgpu.mfma 16x16x32 %187 * %183 + %202 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %204 = amdgpu.mfma 16x16x32 %186 * %184 + %arg11 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %205 = amdgpu.mfma 16x16x32 %187 * %185 + %204 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %206 = amdgpu.mfma 16x16x32 %188 * %170 + %arg12 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %207 = amdgpu.mfma 16x16x32 %189 * %171 + %206 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %208 = amdgpu.mfma 16x16x32 %188 * %172 + %arg13 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %209 = amdgpu.mfma 16x16x32 %189 * %173 + %208 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %210 = amdgpu.mfma 16x16x32 %188 * %174 + %arg14 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %211 = amdgpu.mfma 16x16x32 %189 * %175 + %210 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %212 = amdgpu.mfma 16x16x32 %188 * %176 + %arg15 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %213 = amdgpu.mfma 16x16x32 %189 * %177 + %212 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %214 = amdgpu.mfma 16x16x32 %188 * %178 + %arg16 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %215 = amdgpu.mfma 16x16x32 %189 * %179 + %214 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %216 = amdgpu.mfma 16x16x32 %188 * %180 + %arg17 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %217 = amdgpu.mfma 16x16x32 %189 * %181 + %216 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %218 = amdgpu.mfma 16x16x32 %188 * %182 + %arg18 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %219 = amdgpu.mfma 16x16x32 %189 * %183 + %218 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %220 = amdgpu.mfma 16x16x32 %188 * %184 + %arg19 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %221 = amdgpu.mfma 16x16x32 %189 * %185 + %220 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          scf.yield %191, %193, %195, %197, %199, %201, %203, %205, %207, %209, %211, %213, %215, %217, %219, %221 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
        }
        %81 = vector.extract_strided_slice %80#0 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %82 = affine.apply #map24()[%block_id_x, %thread_id_x]
        %83 = affine.apply #map25()[%thread_id_x, %block_id_y]
        vector.store %81, %reinterpret_cast[%82, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %84 = vector.extract_strided_slice %80#0 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %85 = affine.apply #map26()[%block_id_x, %thread_id_x]
        vector.store %84, %reinterpret_cast[%85, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %86 = vector.extract_strided_slice %80#0 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %87 = affine.apply #map27()[%block_id_x, %thread_id_x]
        vector.store %86, %reinterpret_cast[%87, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %88 = vector.extract_strided_slice %80#0 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %89 = affine.apply #map28()[%block_id_x, %thread_id_x]
        vector.store %88, %reinterpret_cast[%89, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %90 = vector.extract_strided_slice %80#1 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %91 = affine.apply #map29()[%thread_id_x, %block_id_y]
        vector.store %90, %reinterpret_cast[%82, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %92 = vector.extract_strided_slice %80#1 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %92, %reinterpret_cast[%85, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %93 = vector.extract_strided_slice %80#1 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %93, %reinterpret_cast[%87, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %94 = vector.extract_strided_slice %80#1 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %94, %reinterpret_cast[%89, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %95 = vector.extract_strided_slice %80#2 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %96 = affine.apply #map30()[%thread_id_x, %block_id_y]
        vector.store %95, %reinterpret_cast[%82, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %97 = vector.extract_strided_slice %80#2 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %97, %reinterpret_cast[%85, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %98 = vector.extract_strided_slice %80#2 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %98, %reinterpret_cast[%87, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %99 = vector.extract_strided_slice %80#2 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %99, %reinterpret_cast[%89, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %100 = vector.extract_strided_slice %80#3 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %101 = affine.apply #map31()[%thread_id_x, %block_id_y]
        vector.store %100, %reinterpret_cast[%82, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %102 = vector.extract_strided_slice %80#3 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %102, %reinterpret_cast[%85, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %103 = vector.extract_strided_slice %80#3 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %103, %reinterpret_cast[%87, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %104 = vector.extract_strided_slice %80#3 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %104, %reinterpret_cast[%89, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %105 = vector.extract_strided_slice %80#4 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %106 = affine.apply #map32()[%thread_id_x, %block_id_y]
        vector.store %105, %reinterpret_cast[%82, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %107 = vector.extract_strided_slice %80#4 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %107, %reinterpret_cast[%85, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %108 = vector.extract_strided_slice %80#4 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %108, %reinterpret_cast[%87, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %109 = vector.extract_strided_slice %80#4 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %109, %reinterpret_cast[%89, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %110 = vector.extract_strided_slice %80#5 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %111 = affine.apply #map33()[%thread_id_x, %block_id_y]
        vector.store %110, %reinterpret_cast[%82, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %112 = vector.extract_strided_slice %80#5 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %112, %reinterpret_cast[%85, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %113 = vector.extract_strided_slice %80#5 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %113, %reinterpret_cast[%87, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %114 = vector.extract_strided_slice %80#5 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %114, %reinterpret_cast[%89, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %115 = vector.extract_strided_slice %80#6 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %116 = affine.apply #map34()[%thread_id_x, %block_id_y]
        vector.store %115, %reinterpret_cast[%82, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %117 = vector.extract_strided_slice %80#6 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %117, %reinterpret_cast[%85, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %118 = vector.extract_strided_slice %80#6 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %118, %reinterpret_cast[%87, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %119 = vector.extract_strided_slice %80#6 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %119, %reinterpret_cast[%89, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %120 = vector.extract_strided_slice %80#7 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %121 = affine.apply #map35()[%thread_id_x, %block_id_y]
        vector.store %120, %reinterpret_cast[%82, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %122 = vector.extract_strided_slice %80#7 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %122, %reinterpret_cast[%85, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %123 = vector.extract_strided_slice %80#7 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %123, %reinterpret_cast[%87, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %124 = vector.extract_strided_slice %80#7 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %124, %reinterpret_cast[%89, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %125 = vector.extract_strided_slice %80#8 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %126 = affine.apply #map36()[%block_id_x, %thread_id_x]
        vector.store %125, %reinterpret_cast[%126, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %127 = vector.extract_strided_slice %80#8 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %128 = affine.apply #map37()[%block_id_x, %thread_id_x]
        vector.store %127, %reinterpret_cast[%128, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %129 = vector.extract_strided_slice %80#8 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %130 = affine.apply #map38()[%block_id_x, %thread_id_x]
        vector.store %129, %reinterpret_cast[%130, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %131 = vector.extract_strided_slice %80#8 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %132 = affine.apply #map39()[%block_id_x, %thread_id_x]
        vector.store %131, %reinterpret_cast[%132, %83] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %133 = vector.extract_strided_slice %80#9 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %133, %reinterpret_cast[%126, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %134 = vector.extract_strided_slice %80#9 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %134, %reinterpret_cast[%128, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %135 = vector.extract_strided_slice %80#9 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %135, %reinterpret_cast[%130, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %136 = vector.extract_strided_slice %80#9 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %136, %reinterpret_cast[%132, %91] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %137 = vector.extract_strided_slice %80#10 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %137, %reinterpret_cast[%126, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %138 = vector.extract_strided_slice %80#10 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %138, %reinterpret_cast[%128, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %139 = vector.extract_strided_slice %80#10 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %139, %reinterpret_cast[%130, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %140 = vector.extract_strided_slice %80#10 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %140, %reinterpret_cast[%132, %96] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %141 = vector.extract_strided_slice %80#11 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %141, %reinterpret_cast[%126, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %142 = vector.extract_strided_slice %80#11 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %142, %reinterpret_cast[%128, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %143 = vector.extract_strided_slice %80#11 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %143, %reinterpret_cast[%130, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %144 = vector.extract_strided_slice %80#11 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %144, %reinterpret_cast[%132, %101] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %145 = vector.extract_strided_slice %80#12 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %145, %reinterpret_cast[%126, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %146 = vector.extract_strided_slice %80#12 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %146, %reinterpret_cast[%128, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %147 = vector.extract_strided_slice %80#12 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %147, %reinterpret_cast[%130, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %148 = vector.extract_strided_slice %80#12 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %148, %reinterpret_cast[%132, %106] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %149 = vector.extract_strided_slice %80#13 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %149, %reinterpret_cast[%126, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %150 = vector.extract_strided_slice %80#13 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %150, %reinterpret_cast[%128, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %151 = vector.extract_strided_slice %80#13 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %151, %reinterpret_cast[%130, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %152 = vector.extract_strided_slice %80#13 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %152, %reinterpret_cast[%132, %111] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %153 = vector.extract_strided_slice %80#14 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %153, %reinterpret_cast[%126, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %154 = vector.extract_strided_slice %80#14 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %154, %reinterpret_cast[%128, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %155 = vector.extract_strided_slice %80#14 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %155, %reinterpret_cast[%130, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %156 = vector.extract_strided_slice %80#14 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %156, %reinterpret_cast[%132, %116] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %157 = vector.extract_strided_slice %80#15 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %157, %reinterpret_cast[%126, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %158 = vector.extract_strided_slice %80#15 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %158, %reinterpret_cast[%128, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %159 = vector.extract_strided_slice %80#15 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %159, %reinterpret_cast[%130, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        %160 = vector.extract_strided_slice %80#15 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %160, %reinterpret_cast[%132, %121] : memref<256x256xf32, strided<[256, 1]>>, vector<1xf32>
        return
      }
    }
  }
  func.func @isolated_benchmark$async(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.fence, %arg4: !hal.fence) -> !hal.buffer_view {
    %0 = hal.tensor.import wait(%arg3) => %arg0 : !hal.buffer_view -> tensor<256x1024xf16>
    %1 = hal.tensor.import wait(%arg3) => %arg1 : !hal.buffer_view -> tensor<256x1024xf16>
    %2 = hal.tensor.import wait(%arg3) => %arg2 : !hal.buffer_view -> tensor<256x256xf32>
    %3 = flow.dispatch @gemm::@gemm(%0, %1, %2) : (tensor<256x1024xf16>, tensor<256x1024xf16>, tensor<256x256xf32>) -> %2
    %4 = hal.tensor.barrier join(%3 : tensor<256x256xf32>) => %arg4 : !hal.fence
    %5 = hal.tensor.export %4 : tensor<256x256xf32> -> !hal.buffer_view
    return %5 : !hal.buffer_view
  }
}
