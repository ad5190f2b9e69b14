// IREE Wave's f16 GEMM (wave-lang 3.9.1, use_global_to_shared, gfx950) as Wave hands it to its
// compiler: `python test/data/wave/generate.py FILE --size 128 128 256 --tile 128 128 64`.
// Launch: gemm_f16_128x128x256.toml beside it (test/unit/emu/test_cache_swizzle.py).
#map = affine_map<()[s0, s1] -> (s1 * 16 + (s0 floordiv 64) * 8 - ((s1 * 2 + s0 floordiv 64) floordiv 16) * 128)>
#map1 = affine_map<()[s0, s1] -> (s1 * 16 + (s0 floordiv 64) * 8 - ((s1 * 2 + s0 floordiv 64 + 4) floordiv 16) * 128 + 32)>
#map2 = affine_map<()[s0, s1] -> (s1 * 16 + (s0 floordiv 64) * 8 - ((s1 * 2 + s0 floordiv 64 + 8) floordiv 16) * 128 + 64)>
#map3 = affine_map<()[s0, s1] -> (s1 * 16 + (s0 floordiv 64) * 8 - ((s1 * 2 + s0 floordiv 64 + 12) floordiv 16) * 128 + 96)>
#map4 = affine_map<()[s0, s1] -> ((s1 * 16 + s0 floordiv 8) mod 128)>
#map5 = affine_map<()[s0] -> ((s0 floordiv 8) mod 8)>
#map6 = affine_map<()[s0] -> (s0 mod 8)>
#map7 = affine_map<()[s0, s1] -> (s1 * 16 + s0 floordiv 8 - ((s1 * 16 + s0 floordiv 8 + 32) floordiv 128) * 128 + 32)>
#map8 = affine_map<()[s0, s1] -> (s1 * 16 + s0 floordiv 8 - ((s1 * 16 + s0 floordiv 8 + 64) floordiv 128) * 128 + 64)>
#map9 = affine_map<()[s0, s1] -> (s1 * 16 + s0 floordiv 8 - ((s1 * 16 + s0 floordiv 8 + 96) floordiv 128) * 128 + 96)>
#map10 = affine_map<()[s0, s1] -> (s0 + s1 * 64 - (s0 floordiv 16) * 16)>
#map11 = affine_map<()[s0] -> ((s0 mod 64) floordiv 16)>
#map12 = affine_map<()[s0] -> (s0 * 8)>
#map13 = affine_map<()[s0] -> ((s0 mod 64) floordiv 16 + 4)>
#map14 = affine_map<()[s0, s1] -> (s0 + s1 * 64 - (s0 floordiv 16) * 16 + 16)>
#map15 = affine_map<()[s0, s1] -> (s0 + s1 * 64 - (s0 floordiv 16) * 16 + 32)>
#map16 = affine_map<()[s0, s1] -> (s0 + s1 * 64 - (s0 floordiv 16) * 16 + 48)>
#map17 = affine_map<()[s0] -> (s0 mod 16 + (s0 floordiv 64) * 64)>
#map18 = affine_map<()[s0] -> (s0 mod 16 + (s0 floordiv 64) * 64 + 16)>
#map19 = affine_map<()[s0] -> (s0 mod 16 + (s0 floordiv 64) * 64 + 32)>
#map20 = affine_map<()[s0] -> (s0 mod 16 + (s0 floordiv 64) * 64 + 48)>
#map21 = affine_map<()[s0, s1] -> (s0 * 64 + s1 * 8)>
#map22 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4)>
#map23 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 1)>
#map24 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 2)>
#map25 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 3)>
#map26 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 16)>
#map27 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 17)>
#map28 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 18)>
#map29 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 19)>
#map30 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 32)>
#map31 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 33)>
#map32 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 34)>
#map33 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 35)>
#map34 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 48)>
#map35 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 49)>
#map36 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 50)>
#map37 = affine_map<()[s0] -> ((s0 floordiv 64) * 64 + ((s0 mod 64) floordiv 16) * 4 + 51)>
#translation = #iree_codegen.translation_info<pipeline = None workgroup_size = [128, 2, 1] subgroup_size = 64>
module attributes {transform.with_named_sequence} {
  stream.executable private @gemm {
    stream.executable.export public @gemm workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @gemm(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) attributes {translation_info = #translation} {
        %c256_i14 = arith.constant 256 : i14
        %c0_i32 = arith.constant 0 : i32
        %c2147483645_i64 = arith.constant 2147483645 : i64
        %c256 = arith.constant 256 : index
        %c1 = arith.constant 1 : index
        %c4 = arith.constant 4 : index
        %c16384 = arith.constant 16384 : index
        %cst = arith.constant dense<0.000000e+00> : vector<4xf32>
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> memref<f16>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> memref<f16>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> memref<f32>
        %thread_id_x = gpu.thread_id  x upper_bound 128
        %thread_id_y = gpu.thread_id  y upper_bound 2
        %reinterpret_cast = memref.reinterpret_cast %2 to offset: [0], sizes: [128, 128], strides: [128, 1] : memref<f32> to memref<128x128xf32, strided<[128, 1]>>
        %alloc = memref.alloc() : memref<32768xi8, #gpu.address_space<workgroup>>
        %view = memref.view %alloc[%c0][] : memref<32768xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
        %view_0 = memref.view %alloc[%c16384][] : memref<32768xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
        %3 = affine.apply #map()[%thread_id_x, %thread_id_y]
        %4 = arith.index_cast %3 : index to i32
        %5 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%4) : (i32) -> i32
        %6 = arith.index_cast %5 : i32 to index
        %7 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %8 = arith.index_cast %7 : i32 to index
        %9 = affine.apply #map1()[%thread_id_x, %thread_id_y]
        %10 = arith.index_cast %9 : index to i32
        %11 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%10) : (i32) -> i32
        %12 = arith.index_cast %11 : i32 to index
        %13 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %14 = arith.index_cast %13 : i32 to index
        %15 = affine.apply #map2()[%thread_id_x, %thread_id_y]
        %16 = arith.index_cast %15 : index to i32
        %17 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%16) : (i32) -> i32
        %18 = arith.index_cast %17 : i32 to index
        %19 = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%c0_i32) : (i32) -> i32
        %20 = arith.index_cast %19 : i32 to index
        %21 = affine.apply #map3()[%thread_id_x, %thread_id_y]
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
        %43 = affine.apply #map4()[%thread_id_x, %thread_id_y]
        %44 = affine.apply #map5()[%thread_id_x]
        %45 = affine.apply #map6()[%thread_id_x]
        %46 = arith.xori %45, %44 : index
        %47 = arith.muli %43, %c256 overflow<nsw> : index
        %reinterpret_cast_1 = memref.reinterpret_cast %0 to offset: [0], sizes: [1073741822], strides: [1] : memref<f16> to memref<1073741822xf16, strided<[1]>>
        %cast = memref.cast %reinterpret_cast_1 : memref<1073741822xf16, strided<[1]>> to memref<?xf16, strided<[1], offset: ?>>
        %48 = amdgpu.fat_raw_buffer_cast %cast validBytes(%c2147483645_i64) cacheSwizzleStride(%c256_i14) resetOffset : memref<?xf16, strided<[1], offset: ?>> to memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>
        %49 = affine.apply #map7()[%thread_id_x, %thread_id_y]
        %50 = arith.muli %49, %c256 overflow<nsw> : index
        %51 = affine.apply #map8()[%thread_id_x, %thread_id_y]
        %52 = arith.muli %51, %c256 overflow<nsw> : index
        %53 = affine.apply #map9()[%thread_id_x, %thread_id_y]
        %54 = arith.muli %53, %c256 overflow<nsw> : index
        %reinterpret_cast_2 = memref.reinterpret_cast %1 to offset: [0], sizes: [1073741822], strides: [1] : memref<f16> to memref<1073741822xf16, strided<[1]>>
        %cast_3 = memref.cast %reinterpret_cast_2 : memref<1073741822xf16, strided<[1]>> to memref<?xf16, strided<[1], offset: ?>>
        %55 = amdgpu.fat_raw_buffer_cast %cast_3 validBytes(%c2147483645_i64) cacheSwizzleStride(%c256_i14) resetOffset : memref<?xf16, strided<[1], offset: ?>> to memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>
        %56 = affine.apply #map10()[%thread_id_x, %thread_id_y]
        %57 = affine.apply #map11()[%thread_id_x]
        %58 = arith.xori %57, %45 : index
        %59 = affine.apply #map12()[%58]
        %60 = affine.apply #map13()[%thread_id_x]
        %61 = arith.xori %60, %45 : index
        %62 = affine.apply #map12()[%61]
        %63 = affine.apply #map14()[%thread_id_x, %thread_id_y]
        %64 = affine.apply #map15()[%thread_id_x, %thread_id_y]
        %65 = affine.apply #map16()[%thread_id_x, %thread_id_y]
        %66 = affine.apply #map17()[%thread_id_x]
        %67 = affine.apply #map18()[%thread_id_x]
        %68 = affine.apply #map19()[%thread_id_x]
        %69 = affine.apply #map20()[%thread_id_x]
        %70:16 = scf.for %arg3 = %c0 to %c4 step %c1 iter_args(%arg4 = %cst, %arg5 = %cst, %arg6 = %cst, %arg7 = %cst, %arg8 = %cst, %arg9 = %cst, %arg10 = %cst, %arg11 = %cst, %arg12 = %cst, %arg13 = %cst, %arg14 = %cst, %arg15 = %cst, %arg16 = %cst, %arg17 = %cst, %arg18 = %cst, %arg19 = %cst) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
          rocdl.s.waitcnt 16368
          amdgpu.lds_barrier
          %155 = affine.apply #map21()[%arg3, %46]
          %156 = arith.addi %47, %155 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%156], %view_0[%6, %8] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %157 = arith.addi %50, %155 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%157], %view_0[%12, %14] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %158 = arith.addi %52, %155 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%158], %view_0[%18, %20] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          %159 = arith.addi %54, %155 overflow<nsw> : index
          amdgpu.gather_to_lds %48[%159], %view_0[%24, %26] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          amdgpu.gather_to_lds %55[%156], %view[%28, %30] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          amdgpu.gather_to_lds %55[%157], %view[%32, %34] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          amdgpu.gather_to_lds %55[%158], %view[%36, %38] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          amdgpu.gather_to_lds %55[%159], %view[%40, %42] : vector<8xf16>, memref<?xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<128x64xf16, #gpu.address_space<workgroup>>
          rocdl.s.waitcnt 16368
          amdgpu.lds_barrier
          %160 = vector.load %view[%56, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %161 = vector.load %view[%56, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %162 = vector.load %view[%63, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %163 = vector.load %view[%63, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %164 = vector.load %view[%64, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %165 = vector.load %view[%64, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %166 = vector.load %view[%65, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %167 = vector.load %view[%65, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %168 = vector.load %view_0[%66, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %169 = vector.load %view_0[%66, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %170 = vector.load %view_0[%67, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %171 = vector.load %view_0[%67, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %172 = vector.load %view_0[%68, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %173 = vector.load %view_0[%68, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %174 = vector.load %view_0[%69, %59] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %175 = vector.load %view_0[%69, %62] : memref<128x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %176 = amdgpu.mfma 16x16x32 %168 * %160 + %arg4 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %177 = amdgpu.mfma 16x16x32 %169 * %161 + %176 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %178 = amdgpu.mfma 16x16x32 %168 * %162 + %arg5 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %179 = amdgpu.mfma 16x16x32 %169 * %163 + %178 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %180 = amdgpu.mfma 16x16x32 %168 * %164 + %arg6 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %181 = amdgpu.mfma 16x16x32 %169 * %165 + %180 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %182 = amdgpu.mfma 16x16x32 %168 * %166 + %arg7 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %183 = amdgpu.mfma 16x16x32 %169 * %167 + %182 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %184 = amdgpu.mfma 16x16x32 %170 * %160 + %arg8 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %185 = amdgpu.mfma 16x16x32 %171 * %161 + %184 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %186 = amdgpu.mfma 16x16x32 %170 * %162 + %arg9 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %187 = amdgpu.mfma 16x16x32 %171 * %163 + %186 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %188 = amdgpu.mfma 16x16x32 %170 * %164 + %arg10 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %189 = amdgpu.mfma 16x16x32 %171 * %165 + %188 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %190 = amdgpu.mfma 16x16x32 %170 * %166 + %arg11 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %191 = amdgpu.mfma 16x16x32 %171 * %167 + %190 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %192 = amdgpu.mfma 16x16x32 %172 * %160 + %arg12 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %193 = amdgpu.mfma 16x16x32 %173 * %161 + %192 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %194 = amdgpu.mfma 16x16x32 %172 * %162 + %arg13 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %195 = amdgpu.mfma 16x16x32 %173 * %163 + %194 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %196 = amdgpu.mfma 16x16x32 %172 * %164 + %arg14 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %197 = amdgpu.mfma 16x16x32 %173 * %165 + %196 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %198 = amdgpu.mfma 16x16x32 %172 * %166 + %arg15 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %199 = amdgpu.mfma 16x16x32 %173 * %167 + %198 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %200 = amdgpu.mfma 16x16x32 %174 * %160 + %arg16 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %201 = amdgpu.mfma 16x16x32 %175 * %161 + %200 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %202 = amdgpu.mfma 16x16x32 %174 * %162 + %arg17 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %203 = amdgpu.mfma 16x16x32 %175 * %163 + %202 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %204 = amdgpu.mfma 16x16x32 %174 * %164 + %arg18 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %205 = amdgpu.mfma 16x16x32 %175 * %165 + %204 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %206 = amdgpu.mfma 16x16x32 %174 * %166 + %arg19 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          %207 = amdgpu.mfma 16x16x32 %175 * %167 + %206 blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
          scf.yield %177, %179, %181, %183, %185, %187, %189, %191, %193, %195, %197, %199, %201, %203, %205, %207 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
        }
        %71 = vector.extract_strided_slice %70#0 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %72 = affine.apply #map22()[%thread_id_x]
        %73 = affine.apply #map10()[%thread_id_x, %thread_id_y]
        vector.store %71, %reinterpret_cast[%72, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %74 = vector.extract_strided_slice %70#0 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %75 = affine.apply #map23()[%thread_id_x]
        vector.store %74, %reinterpret_cast[%75, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %76 = vector.extract_strided_slice %70#0 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %77 = affine.apply #map24()[%thread_id_x]
        vector.store %76, %reinterpret_cast[%77, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %78 = vector.extract_strided_slice %70#0 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %79 = affine.apply #map25()[%thread_id_x]
        vector.store %78, %reinterpret_cast[%79, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %80 = vector.extract_strided_slice %70#1 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %81 = affine.apply #map14()[%thread_id_x, %thread_id_y]
        vector.store %80, %reinterpret_cast[%72, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %82 = vector.extract_strided_slice %70#1 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %82, %reinterpret_cast[%75, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %83 = vector.extract_strided_slice %70#1 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %83, %reinterpret_cast[%77, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %84 = vector.extract_strided_slice %70#1 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %84, %reinterpret_cast[%79, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %85 = vector.extract_strided_slice %70#2 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %86 = affine.apply #map15()[%thread_id_x, %thread_id_y]
        vector.store %85, %reinterpret_cast[%72, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %87 = vector.extract_strided_slice %70#2 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %87, %reinterpret_cast[%75, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %88 = vector.extract_strided_slice %70#2 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %88, %reinterpret_cast[%77, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %89 = vector.extract_strided_slice %70#2 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %89, %reinterpret_cast[%79, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %90 = vector.extract_strided_slice %70#3 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %91 = affine.apply #map16()[%thread_id_x, %thread_id_y]
        vector.store %90, %reinterpret_cast[%72, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %92 = vector.extract_strided_slice %70#3 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %92, %reinterpret_cast[%75, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %93 = vector.extract_strided_slice %70#3 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %93, %reinterpret_cast[%77, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %94 = vector.extract_strided_slice %70#3 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %94, %reinterpret_cast[%79, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %95 = vector.extract_strided_slice %70#4 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %96 = affine.apply #map26()[%thread_id_x]
        vector.store %95, %reinterpret_cast[%96, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %97 = vector.extract_strided_slice %70#4 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %98 = affine.apply #map27()[%thread_id_x]
        vector.store %97, %reinterpret_cast[%98, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %99 = vector.extract_strided_slice %70#4 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %100 = affine.apply #map28()[%thread_id_x]
        vector.store %99, %reinterpret_cast[%100, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %101 = vector.extract_strided_slice %70#4 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %102 = affine.apply #map29()[%thread_id_x]
        vector.store %101, %reinterpret_cast[%102, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %103 = vector.extract_strided_slice %70#5 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %103, %reinterpret_cast[%96, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %104 = vector.extract_strided_slice %70#5 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %104, %reinterpret_cast[%98, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %105 = vector.extract_strided_slice %70#5 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %105, %reinterpret_cast[%100, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %106 = vector.extract_strided_slice %70#5 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %106, %reinterpret_cast[%102, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %107 = vector.extract_strided_slice %70#6 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %107, %reinterpret_cast[%96, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %108 = vector.extract_strided_slice %70#6 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %108, %reinterpret_cast[%98, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %109 = vector.extract_strided_slice %70#6 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %109, %reinterpret_cast[%100, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %110 = vector.extract_strided_slice %70#6 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %110, %reinterpret_cast[%102, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %111 = vector.extract_strided_slice %70#7 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %111, %reinterpret_cast[%96, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %112 = vector.extract_strided_slice %70#7 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %112, %reinterpret_cast[%98, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %113 = vector.extract_strided_slice %70#7 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %113, %reinterpret_cast[%100, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %114 = vector.extract_strided_slice %70#7 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %114, %reinterpret_cast[%102, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %115 = vector.extract_strided_slice %70#8 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %116 = affine.apply #map30()[%thread_id_x]
        vector.store %115, %reinterpret_cast[%116, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %117 = vector.extract_strided_slice %70#8 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %118 = affine.apply #map31()[%thread_id_x]
        vector.store %117, %reinterpret_cast[%118, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %119 = vector.extract_strided_slice %70#8 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %120 = affine.apply #map32()[%thread_id_x]
        vector.store %119, %reinterpret_cast[%120, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %121 = vector.extract_strided_slice %70#8 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %122 = affine.apply #map33()[%thread_id_x]
        vector.store %121, %reinterpret_cast[%122, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %123 = vector.extract_strided_slice %70#9 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %123, %reinterpret_cast[%116, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %124 = vector.extract_strided_slice %70#9 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %124, %reinterpret_cast[%118, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %125 = vector.extract_strided_slice %70#9 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %125, %reinterpret_cast[%120, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %126 = vector.extract_strided_slice %70#9 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %126, %reinterpret_cast[%122, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %127 = vector.extract_strided_slice %70#10 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %127, %reinterpret_cast[%116, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %128 = vector.extract_strided_slice %70#10 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %128, %reinterpret_cast[%118, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %129 = vector.extract_strided_slice %70#10 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %129, %reinterpret_cast[%120, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %130 = vector.extract_strided_slice %70#10 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %130, %reinterpret_cast[%122, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %131 = vector.extract_strided_slice %70#11 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %131, %reinterpret_cast[%116, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %132 = vector.extract_strided_slice %70#11 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %132, %reinterpret_cast[%118, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %133 = vector.extract_strided_slice %70#11 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %133, %reinterpret_cast[%120, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %134 = vector.extract_strided_slice %70#11 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %134, %reinterpret_cast[%122, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %135 = vector.extract_strided_slice %70#12 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %136 = affine.apply #map34()[%thread_id_x]
        vector.store %135, %reinterpret_cast[%136, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %137 = vector.extract_strided_slice %70#12 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %138 = affine.apply #map35()[%thread_id_x]
        vector.store %137, %reinterpret_cast[%138, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %139 = vector.extract_strided_slice %70#12 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %140 = affine.apply #map36()[%thread_id_x]
        vector.store %139, %reinterpret_cast[%140, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %141 = vector.extract_strided_slice %70#12 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        %142 = affine.apply #map37()[%thread_id_x]
        vector.store %141, %reinterpret_cast[%142, %73] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %143 = vector.extract_strided_slice %70#13 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %143, %reinterpret_cast[%136, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %144 = vector.extract_strided_slice %70#13 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %144, %reinterpret_cast[%138, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %145 = vector.extract_strided_slice %70#13 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %145, %reinterpret_cast[%140, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %146 = vector.extract_strided_slice %70#13 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %146, %reinterpret_cast[%142, %81] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %147 = vector.extract_strided_slice %70#14 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %147, %reinterpret_cast[%136, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %148 = vector.extract_strided_slice %70#14 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %148, %reinterpret_cast[%138, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %149 = vector.extract_strided_slice %70#14 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %149, %reinterpret_cast[%140, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %150 = vector.extract_strided_slice %70#14 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %150, %reinterpret_cast[%142, %86] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %151 = vector.extract_strided_slice %70#15 {offsets = [0], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %151, %reinterpret_cast[%136, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %152 = vector.extract_strided_slice %70#15 {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %152, %reinterpret_cast[%138, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %153 = vector.extract_strided_slice %70#15 {offsets = [2], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %153, %reinterpret_cast[%140, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        %154 = vector.extract_strided_slice %70#15 {offsets = [3], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
        vector.store %154, %reinterpret_cast[%142, %91] : memref<128x128xf32, strided<[128, 1]>>, vector<1xf32>
        return
      }
    }
  }
  func.func @isolated_benchmark$async(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.fence, %arg4: !hal.fence) -> !hal.buffer_view {
    %0 = hal.tensor.import wait(%arg3) => %arg0 : !hal.buffer_view -> tensor<128x256xf16>
    %1 = hal.tensor.import wait(%arg3) => %arg1 : !hal.buffer_view -> tensor<128x256xf16>
    %2 = hal.tensor.import wait(%arg3) => %arg2 : !hal.buffer_view -> tensor<128x128xf32>
    %3 = flow.dispatch @gemm::@gemm(%0, %1, %2) : (tensor<128x256xf16>, tensor<128x256xf16>, tensor<128x128xf32>) -> %2
    %4 = hal.tensor.barrier join(%3 : tensor<128x128xf32>) => %arg4 : !hal.fence
    %5 = hal.tensor.export %4 : tensor<128x128xf32> -> !hal.buffer_view
    return %5 : !hal.buffer_view
  }
}
