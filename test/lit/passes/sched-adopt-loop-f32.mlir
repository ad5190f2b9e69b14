// sched-adopt-loop on IREE's f32 matmul (written by test/data/iree/generate.py, LIT_INPUTS):
// f32 A x B^T 300x200x500 (Inputs/iree-f32-abt-300x200x500.*, both forms). IREE multiplies
// f32 with MFMA_F32_16x16x4_F32: amdgpu.mfma 16x16x4 on scalar operands, one f32 of A and
// of B a lane. Its tile here steps K by 4, one MFMA per accumulator and K step, 125 K
// steps; A and B are copied through registers, 1 and 2 elements a lane, masked at C's
// edges. The front end makes the copies direct-to-LDS copies of one f32 a lane, merges the
// K steps 2 by 2 (BK = 8: 124 of them in the pipelined loop, the 125th in the remainder
// loop, which keeps IREE's copies) and keeps the scalar MFMAs. The 4-wave kernel's own
// timing rule would pick dword DMAs for a tile of these 32-cycle MFMAs (4 a load); the
// loop's copies are counted from the kernel, so the spec says dma = "x4". Both forms give
// that spec:
// RUN: pipeline-opt %S/Inputs/iree-f32-abt-300x200x500.prefetch.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s
// RUN: pipeline-opt %S/Inputs/iree-f32-abt-300x200x500.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s
// CHECK: amdgpu.gather_to_lds {{.*}}sched.global_load = {channel = 0 : i64, id = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64}{{.*}} : vector<1xf32>, memref<300x500xf32, {{.*}}>, memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: amdgpu.mfma 16x16x4 {{.*}} {sched.mma = {id = {{[0-9]+}} : i64, stage = 0 : i64, subtile = 0 : i64}} : f32, f32, vector<4xf32>
// CHECK: sched.options = {BK = 8 : i64, BM = 64 : i64, BN = 128 : i64, dma = "x4", dtype = "f32", vm_per_load_b = 2 : i64}, sched.schedule = "4wave"
// CHECK: amdgpu.mfma 16x16x4 {{.*}} : f32, f32, vector<4xf32>
// CHECK: sched.remainder
//
// The late form, pipelined so, is exact on the emulator (late mode; the first and the
// last workgroup): test/unit/tools/test_iree_f32.py's [abt-300x200x500] builds and runs
// this same text (iree-compile's late form of it, byte for byte the input here when it was
// last generated) with the same options, so it is not run here again.
