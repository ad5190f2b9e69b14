// A concrete-form K-loop for the 'pingpong' schedule, written by
// `python examples/concrete_kernel.py 'pingpong'`. Compile it (from the repository root):
//   pipeline-opt --pipeline='pingpong' examples/gemm_loop_pingpong.mlir --emit=asm
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm_loop(%A: memref<256x4096xbf16, #gpu.address_space<global>>, %B: memref<256x4096xbf16, #gpu.address_space<global>>, %C: memref<16384xf32, #gpu.address_space<global>>, %K: index)
        workgroup(%lds: memref<65536xbf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
      %c0 = arith.constant 0 : index
      %cbk = arith.constant 64 : index
      %cstep = arith.constant 128 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %lane = arith.remui %tid, %c64 : index
      %row = arith.divui %lane, %c2 : index
      %col2 = arith.remui %lane, %c2 : index
      %col = arith.muli %col2, %c2 : index
      %lane8 = arith.muli %lane, %c8 : index
      %wave = arith.divui %tid, %c64 : index
      %c512 = arith.constant 512 : index
      %wave512 = arith.muli %wave, %c512 : index
      %zacc = arith.constant dense<0.0> : vector<4xf32>
      %zfrag = arith.constant dense<0.0> : vector<8xbf16>
      %res:4 = scf.for %k = %c0 to %K step %cstep iter_args(%acc00 = %zacc, %acc01 = %zacc, %acc10 = %zacc, %acc11 = %zacc) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
        %ko0 = arith.constant -64 : index
        %kk0 = arith.addi %k, %ko0 : index
        %gc0 = arith.addi %kk0, %col : index
        %go0 = arith.constant 32 : index
        %gr0 = arith.addi %row, %go0 : index
        %lb0 = arith.constant 20480 : index
        %ld0 = arith.addi %lb0, %wave512 : index
        amdgpu.gather_to_lds %A[%gr0, %gc0], %lds[%ld0] {sched.global_load = {channel = 0 : i64, stage = 1 : i64, subtile = 1 : i64, k_offset = "k_prev"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %ko1 = arith.constant 0 : index
        %kk1 = arith.addi %k, %ko1 : index
        %gc1 = arith.addi %kk1, %col : index
        %go1 = arith.constant 0 : index
        %gr1 = arith.addi %row, %go1 : index
        %lb1 = arith.constant 0 : index
        %ld1 = arith.addi %lb1, %wave512 : index
        amdgpu.gather_to_lds %A[%gr1, %gc1], %lds[%ld1] {sched.global_load = {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %ko2 = arith.constant 0 : index
        %kk2 = arith.addi %k, %ko2 : index
        %gc2 = arith.addi %kk2, %col : index
        %go2 = arith.constant 0 : index
        %gr2 = arith.addi %row, %go2 : index
        %lb2 = arith.constant 32768 : index
        %ld2 = arith.addi %lb2, %wave512 : index
        amdgpu.gather_to_lds %B[%gr2, %gc2], %lds[%ld2] {sched.global_load = {channel = 1 : i64, stage = 0 : i64, subtile = 0 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %ko3 = arith.constant 0 : index
        %kk3 = arith.addi %k, %ko3 : index
        %gc3 = arith.addi %kk3, %col : index
        %go3 = arith.constant 32 : index
        %gr3 = arith.addi %row, %go3 : index
        %lb3 = arith.constant 36864 : index
        %ld3 = arith.addi %lb3, %wave512 : index
        amdgpu.gather_to_lds %B[%gr3, %gc3], %lds[%ld3] {sched.global_load = {channel = 1 : i64, stage = 0 : i64, subtile = 1 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %fb4 = arith.constant 0 : index
        %fo4 = arith.addi %fb4, %wave512 : index
        %fi4 = arith.addi %fo4, %lane8 : index
        %f4 = vector.load %lds[%fi4] {sched.frag_load = {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %fb5 = arith.constant 4096 : index
        %fo5 = arith.addi %fb5, %wave512 : index
        %fi5 = arith.addi %fo5, %lane8 : index
        %f5 = vector.load %lds[%fi5] {sched.frag_load = {channel = 0 : i64, stage = 0 : i64, subtile = 1 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %fb6 = arith.constant 32768 : index
        %fo6 = arith.addi %fb6, %wave512 : index
        %fi6 = arith.addi %fo6, %lane8 : index
        %f6 = vector.load %lds[%fi6] {sched.frag_load = {channel = 1 : i64, stage = 0 : i64, subtile = 0 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %fb7 = arith.constant 36864 : index
        %fo7 = arith.addi %fb7, %wave512 : index
        %fi7 = arith.addi %fo7, %lane8 : index
        %f7 = vector.load %lds[%fi7] {sched.frag_load = {channel = 1 : i64, stage = 0 : i64, subtile = 1 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m8 = amdgpu.mfma 16x16x32 %f4 * %f6 + %acc00 {sched.mma = {stage = 0 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m9 = amdgpu.mfma 16x16x32 %f4 * %f7 + %acc01 {sched.mma = {stage = 0 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m10 = amdgpu.mfma 16x16x32 %f5 * %f6 + %acc10 {sched.mma = {stage = 1 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m11 = amdgpu.mfma 16x16x32 %f5 * %f7 + %acc11 {sched.mma = {stage = 1 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko12 = arith.constant 0 : index
        %kk12 = arith.addi %k, %ko12 : index
        %gc12 = arith.addi %kk12, %col : index
        %go12 = arith.constant 32 : index
        %gr12 = arith.addi %row, %go12 : index
        %lb12 = arith.constant 4096 : index
        %ld12 = arith.addi %lb12, %wave512 : index
        amdgpu.gather_to_lds %A[%gr12, %gc12], %lds[%ld12] {sched.global_load = {channel = 0 : i64, stage = 0 : i64, subtile = 1 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %ko13 = arith.constant 64 : index
        %kk13 = arith.addi %k, %ko13 : index
        %gc13 = arith.addi %kk13, %col : index
        %go13 = arith.constant 0 : index
        %gr13 = arith.addi %row, %go13 : index
        %lb13 = arith.constant 16384 : index
        %ld13 = arith.addi %lb13, %wave512 : index
        amdgpu.gather_to_lds %A[%gr13, %gc13], %lds[%ld13] {sched.global_load = {channel = 0 : i64, stage = 1 : i64, subtile = 0 : i64, k_offset = "k1"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %ko14 = arith.constant 64 : index
        %kk14 = arith.addi %k, %ko14 : index
        %gc14 = arith.addi %kk14, %col : index
        %go14 = arith.constant 0 : index
        %gr14 = arith.addi %row, %go14 : index
        %lb14 = arith.constant 49152 : index
        %ld14 = arith.addi %lb14, %wave512 : index
        amdgpu.gather_to_lds %B[%gr14, %gc14], %lds[%ld14] {sched.global_load = {channel = 1 : i64, stage = 1 : i64, subtile = 0 : i64, k_offset = "k1"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %ko15 = arith.constant 64 : index
        %kk15 = arith.addi %k, %ko15 : index
        %gc15 = arith.addi %kk15, %col : index
        %go15 = arith.constant 32 : index
        %gr15 = arith.addi %row, %go15 : index
        %lb15 = arith.constant 53248 : index
        %ld15 = arith.addi %lb15, %wave512 : index
        amdgpu.gather_to_lds %B[%gr15, %gc15], %lds[%ld15] {sched.global_load = {channel = 1 : i64, stage = 1 : i64, subtile = 1 : i64, k_offset = "k1"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<65536xbf16, #gpu.address_space<workgroup>>
        %fb16 = arith.constant 16384 : index
        %fo16 = arith.addi %fb16, %wave512 : index
        %fi16 = arith.addi %fo16, %lane8 : index
        %f16 = vector.load %lds[%fi16] {sched.frag_load = {channel = 0 : i64, stage = 1 : i64, subtile = 0 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %fb17 = arith.constant 20480 : index
        %fo17 = arith.addi %fb17, %wave512 : index
        %fi17 = arith.addi %fo17, %lane8 : index
        %f17 = vector.load %lds[%fi17] {sched.frag_load = {channel = 0 : i64, stage = 1 : i64, subtile = 1 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %fb18 = arith.constant 49152 : index
        %fo18 = arith.addi %fb18, %wave512 : index
        %fi18 = arith.addi %fo18, %lane8 : index
        %f18 = vector.load %lds[%fi18] {sched.frag_load = {channel = 1 : i64, stage = 1 : i64, subtile = 0 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %fb19 = arith.constant 53248 : index
        %fo19 = arith.addi %fb19, %wave512 : index
        %fi19 = arith.addi %fo19, %lane8 : index
        %f19 = vector.load %lds[%fi19] {sched.frag_load = {channel = 1 : i64, stage = 1 : i64, subtile = 1 : i64}} : memref<65536xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m20 = amdgpu.mfma 16x16x32 %f16 * %f18 + %m8 {sched.mma = {stage = 0 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m21 = amdgpu.mfma 16x16x32 %f16 * %f19 + %m9 {sched.mma = {stage = 0 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m22 = amdgpu.mfma 16x16x32 %f17 * %f18 + %m10 {sched.mma = {stage = 1 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %m23 = amdgpu.mfma 16x16x32 %f17 * %f19 + %m11 {sched.mma = {stage = 1 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        scf.yield %m20, %m21, %m22, %m23 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      }
      %o0 = arith.constant 0 : index
      %ol0 = arith.muli %lane, %c2 : index
      %oi0 = arith.addi %o0, %ol0 : index
      vector.store %res#0, %C[%oi0] : memref<16384xf32, #gpu.address_space<global>>, vector<4xf32>
      %o1 = arith.constant 256 : index
      %ol1 = arith.muli %lane, %c2 : index
      %oi1 = arith.addi %o1, %ol1 : index
      vector.store %res#1, %C[%oi1] : memref<16384xf32, #gpu.address_space<global>>, vector<4xf32>
      %o2 = arith.constant 512 : index
      %ol2 = arith.muli %lane, %c2 : index
      %oi2 = arith.addi %o2, %ol2 : index
      vector.store %res#2, %C[%oi2] : memref<16384xf32, #gpu.address_space<global>>, vector<4xf32>
      %o3 = arith.constant 768 : index
      %ol3 = arith.muli %lane, %c2 : index
      %oi3 = arith.addi %o3, %ol3 : index
      vector.store %res#3, %C[%oi3] : memref<16384xf32, #gpu.address_space<global>>, vector<4xf32>
      gpu.return
    }
  }
}
