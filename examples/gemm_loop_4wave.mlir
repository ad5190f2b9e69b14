// A concrete-form K-loop for the '4wave' schedule, written by
// `python examples/concrete_kernel.py '4wave'`. Compile it (from the repository root):
//   pipeline-opt --pipeline='4wave' examples/gemm_loop_4wave.mlir --emit=asm
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm_loop(%A: memref<256x4096xbf16, #gpu.address_space<global>>, %B: memref<256x4096xbf16, #gpu.address_space<global>>, %C: memref<16384xf32, #gpu.address_space<global>>, %K: index)
        workgroup(%lds: memref<32768xbf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
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
      %res:6 = scf.for %k = %c0 to %K step %cstep iter_args(%acc00 = %zacc, %acc01 = %zacc, %acc10 = %zacc, %acc11 = %zacc, %carried19 = %zfrag, %carried22 = %zfrag) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<8xbf16>, vector<8xbf16>) {
        %ko0 = arith.constant 0 : index
        %kk0 = arith.addi %k, %ko0 : index
        %gc0 = arith.addi %kk0, %col : index
        %go0 = arith.constant 0 : index
        %gr0 = arith.addi %row, %go0 : index
        %lb0 = arith.constant 0 : index
        %ld0 = arith.addi %lb0, %wave512 : index
        amdgpu.gather_to_lds %A[%gr0, %gc0], %lds[%ld0] {sched.global_load = {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb1 = arith.constant 18432 : index
        %fo1 = arith.addi %fb1, %wave512 : index
        %fi1 = arith.addi %fo1, %lane8 : index
        %f1 = vector.load %lds[%fi1] {sched.frag_load = {channel = 1 : i64, stage = 0 : i64, subtile = 1 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m2 = amdgpu.mfma 16x16x32 %carried19 * %carried22 + %acc00 {sched.mma = {stage = 0 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko3 = arith.constant 0 : index
        %kk3 = arith.addi %k, %ko3 : index
        %gc3 = arith.addi %kk3, %col : index
        %go3 = arith.constant 0 : index
        %gr3 = arith.addi %row, %go3 : index
        %lb3 = arith.constant 16384 : index
        %ld3 = arith.addi %lb3, %wave512 : index
        amdgpu.gather_to_lds %B[%gr3, %gc3], %lds[%ld3] {sched.global_load = {channel = 1 : i64, stage = 0 : i64, subtile = 0 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb4 = arith.constant 2048 : index
        %fo4 = arith.addi %fb4, %wave512 : index
        %fi4 = arith.addi %fo4, %lane8 : index
        %f4 = vector.load %lds[%fi4] {sched.frag_load = {channel = 0 : i64, stage = 0 : i64, subtile = 1 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m5 = amdgpu.mfma 16x16x32 %carried19 * %f1 + %acc01 {sched.mma = {stage = 0 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko6 = arith.constant 0 : index
        %kk6 = arith.addi %k, %ko6 : index
        %gc6 = arith.addi %kk6, %col : index
        %go6 = arith.constant 32 : index
        %gr6 = arith.addi %row, %go6 : index
        %lb6 = arith.constant 18432 : index
        %ld6 = arith.addi %lb6, %wave512 : index
        amdgpu.gather_to_lds %B[%gr6, %gc6], %lds[%ld6] {sched.global_load = {channel = 1 : i64, stage = 0 : i64, subtile = 1 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb7 = arith.constant 8192 : index
        %fo7 = arith.addi %fb7, %wave512 : index
        %fi7 = arith.addi %fo7, %lane8 : index
        %f7 = vector.load %lds[%fi7] {sched.frag_load = {channel = 0 : i64, stage = 1 : i64, subtile = 0 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m8 = amdgpu.mfma 16x16x32 %f4 * %carried22 + %acc10 {sched.mma = {stage = 1 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko9 = arith.constant 0 : index
        %kk9 = arith.addi %k, %ko9 : index
        %gc9 = arith.addi %kk9, %col : index
        %go9 = arith.constant 32 : index
        %gr9 = arith.addi %row, %go9 : index
        %lb9 = arith.constant 2048 : index
        %ld9 = arith.addi %lb9, %wave512 : index
        amdgpu.gather_to_lds %A[%gr9, %gc9], %lds[%ld9] {sched.global_load = {channel = 0 : i64, stage = 0 : i64, subtile = 1 : i64, k_offset = "k0"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb10 = arith.constant 24576 : index
        %fo10 = arith.addi %fb10, %wave512 : index
        %fi10 = arith.addi %fo10, %lane8 : index
        %f10 = vector.load %lds[%fi10] {sched.frag_load = {channel = 1 : i64, stage = 1 : i64, subtile = 0 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m11 = amdgpu.mfma 16x16x32 %f4 * %f1 + %acc11 {sched.mma = {stage = 1 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko12 = arith.constant 64 : index
        %kk12 = arith.addi %k, %ko12 : index
        %gc12 = arith.addi %kk12, %col : index
        %go12 = arith.constant 0 : index
        %gr12 = arith.addi %row, %go12 : index
        %lb12 = arith.constant 8192 : index
        %ld12 = arith.addi %lb12, %wave512 : index
        amdgpu.gather_to_lds %A[%gr12, %gc12], %lds[%ld12] {sched.global_load = {channel = 0 : i64, stage = 1 : i64, subtile = 0 : i64, k_offset = "k1"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb13 = arith.constant 26624 : index
        %fo13 = arith.addi %fb13, %wave512 : index
        %fi13 = arith.addi %fo13, %lane8 : index
        %f13 = vector.load %lds[%fi13] {sched.frag_load = {channel = 1 : i64, stage = 1 : i64, subtile = 1 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m14 = amdgpu.mfma 16x16x32 %f7 * %f10 + %m2 {sched.mma = {stage = 0 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko15 = arith.constant 64 : index
        %kk15 = arith.addi %k, %ko15 : index
        %gc15 = arith.addi %kk15, %col : index
        %go15 = arith.constant 0 : index
        %gr15 = arith.addi %row, %go15 : index
        %lb15 = arith.constant 24576 : index
        %ld15 = arith.addi %lb15, %wave512 : index
        amdgpu.gather_to_lds %B[%gr15, %gc15], %lds[%ld15] {sched.global_load = {channel = 1 : i64, stage = 1 : i64, subtile = 0 : i64, k_offset = "k1"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb16 = arith.constant 10240 : index
        %fo16 = arith.addi %fb16, %wave512 : index
        %fi16 = arith.addi %fo16, %lane8 : index
        %f16 = vector.load %lds[%fi16] {sched.frag_load = {channel = 0 : i64, stage = 1 : i64, subtile = 1 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m17 = amdgpu.mfma 16x16x32 %f7 * %f13 + %m5 {sched.mma = {stage = 0 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko18 = arith.constant 64 : index
        %kk18 = arith.addi %k, %ko18 : index
        %gc18 = arith.addi %kk18, %col : index
        %go18 = arith.constant 32 : index
        %gr18 = arith.addi %row, %go18 : index
        %lb18 = arith.constant 26624 : index
        %ld18 = arith.addi %lb18, %wave512 : index
        amdgpu.gather_to_lds %B[%gr18, %gc18], %lds[%ld18] {sched.global_load = {channel = 1 : i64, stage = 1 : i64, subtile = 1 : i64, k_offset = "k1"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb19 = arith.constant 0 : index
        %fo19 = arith.addi %fb19, %wave512 : index
        %fi19 = arith.addi %fo19, %lane8 : index
        %f19 = vector.load %lds[%fi19] {sched.frag_load = {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m20 = amdgpu.mfma 16x16x32 %f16 * %f10 + %m8 {sched.mma = {stage = 1 : i64, subtile = 0 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        %ko21 = arith.constant 64 : index
        %kk21 = arith.addi %k, %ko21 : index
        %gc21 = arith.addi %kk21, %col : index
        %go21 = arith.constant 32 : index
        %gr21 = arith.addi %row, %go21 : index
        %lb21 = arith.constant 10240 : index
        %ld21 = arith.addi %lb21, %wave512 : index
        amdgpu.gather_to_lds %A[%gr21, %gc21], %lds[%ld21] {sched.global_load = {channel = 0 : i64, stage = 1 : i64, subtile = 1 : i64, k_offset = "k1"}} : vector<8xbf16>, memref<256x4096xbf16, #gpu.address_space<global>>, memref<32768xbf16, #gpu.address_space<workgroup>>
        %fb22 = arith.constant 16384 : index
        %fo22 = arith.addi %fb22, %wave512 : index
        %fi22 = arith.addi %fo22, %lane8 : index
        %f22 = vector.load %lds[%fi22] {sched.frag_load = {channel = 1 : i64, stage = 0 : i64, subtile = 0 : i64}} : memref<32768xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %m23 = amdgpu.mfma 16x16x32 %f16 * %f13 + %m11 {sched.mma = {stage = 1 : i64, subtile = 1 : i64}} : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        scf.yield %m14, %m17, %m20, %m23, %f19, %f22 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<8xbf16>, vector<8xbf16>
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
