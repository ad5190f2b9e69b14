// A loop of 16-pass XDL MFMAs (fp8 32x32x64) of two iterations written by hand, its
// accumulator kept in AGPRs (sched.agpr_alloc) and stored after the loop: the guard
// sched-xdl-guard puts after the loop pins the loop's result in the registers the kernel
// keeps it in, so LLVM copies none of it to VGPRs for the guard (test_keep_alive.py).  One
// wave; each iteration loads 32 fp8 values a lane from global memory and multiplies them by
// themselves.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @xdl_agpr(%a: memref<65536xf8E4M3FN, #gpu.address_space<global>>,
                       %out: memref<1024xf32, #gpu.address_space<global>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>,
                           sched.agpr_alloc = 16 : i32} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c2048 = arith.constant 2048 : index
      %zero = arith.constant dense<0.0> : vector<16xf32>
      %tid = gpu.thread_id x
      %lane = arith.muli %tid, %c32 : index
      %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%c = %zero) -> (vector<16xf32>) {
        %base = arith.muli %k, %c2048 : index
        %off = arith.addi %base, %lane : index
        %fa = vector.load %a[%off]
          : memref<65536xf8E4M3FN, #gpu.address_space<global>>, vector<32xf8E4M3FN>
        %d = amdgpu.mfma 32x32x64 %fa * %fa + %c
          : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
        scf.yield %d : vector<16xf32>
      }
      %o = arith.muli %tid, %c16 : index
      vector.store %acc, %out[%o] : memref<1024xf32, #gpu.address_space<global>>, vector<16xf32>
      gpu.return
    }
  }
}
