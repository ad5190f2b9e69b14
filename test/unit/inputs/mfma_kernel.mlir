// A small single-buffered bf16 K-loop in the form sched-lower-to-rocdl emits:
// global->LDS copies (amdgpu.gather_to_lds), hand-placed waits fenced by
// sched.barrier, LDS fragment loads (vector.load from workgroup memory), one
// MFMA 16x16x32 bf16 per iteration at raised priority, and a
// sched.group.barrier pattern.  Used by test_to_llvm.py and test_codegen.py.
//
// Per iteration k (256 threads = 4 waves): every lane copies 8 bf16 of A and
// of B (16 bytes each) into LDS, waits for them (vmcnt(0)), meets the other
// waves at s_barrier, reads its A and B fragments back (lgkmcnt(0)), does one
// MFMA and waits at a second barrier before the next iteration reuses LDS.
//
// s_waitcnt immediates (gfx9): vmcnt(0) = 0x0F70 = 3952, lgkmcnt(0) = 0xC07F = 49279.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mfma_kloop(%a: memref<65536xbf16, #gpu.address_space<global>>,
                         %b: memref<65536xbf16, #gpu.address_space<global>>,
                         %out: memref<1024xf32, #gpu.address_space<global>>,
                         %iters: index)
        workgroup(%lds_a: memref<2048xbf16, #gpu.address_space<workgroup>>,
                  %lds_b: memref<2048xbf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %c2048 = arith.constant 2048 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %wave = arith.divui %tid, %c64 : index
      %wave_base = arith.muli %wave, %c512 : index
      %lane_off = arith.muli %tid, %c8 : index
      %acc = scf.for %k = %c0 to %iters step %c1 iter_args(%c = %zero) -> (vector<4xf32>) {
        %k_base = arith.muli %k, %c2048 : index
        %src = arith.addi %k_base, %lane_off : index
        amdgpu.gather_to_lds %a[%src], %lds_a[%wave_base]
          : vector<8xbf16>, memref<65536xbf16, #gpu.address_space<global>>,
            memref<2048xbf16, #gpu.address_space<workgroup>>
        amdgpu.gather_to_lds %b[%src], %lds_b[%wave_base]
          : vector<8xbf16>, memref<65536xbf16, #gpu.address_space<global>>,
            memref<2048xbf16, #gpu.address_space<workgroup>>
        rocdl.sched.barrier none
        rocdl.s.waitcnt 3952
        rocdl.sched.barrier none
        rocdl.s.barrier
        %fa = vector.load %lds_a[%lane_off]
          : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        %fb = vector.load %lds_b[%lane_off]
          : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
        rocdl.sched.barrier none
        rocdl.s.waitcnt 49279
        rocdl.sched.barrier none
        rocdl.s.setprio 1
        %d = amdgpu.mfma 16x16x32 %fa * %fb + %c
          : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
        rocdl.s.setprio 0
        rocdl.sched.group.barrier ds_read, 2, 0
        rocdl.sched.group.barrier mfma_wmma, 1, 0
        rocdl.s.barrier
        scf.yield %d : vector<4xf32>
      }
      %out_off = arith.muli %tid, %c4 : index
      vector.store %acc, %out[%out_off] : memref<1024xf32, #gpu.address_space<global>>, vector<4xf32>
      gpu.return
    }
  }
}
