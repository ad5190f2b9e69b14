// A 16-pass XDL MFMA (fp8 32x32x64) whose epilogue divides its result (LLVM expands the
// f32 division into v_div_scale_f32, v_div_fmas_f32, v_div_fixup_f32: instructions the
// assembler reads and the emulator does not run) and stores it: the driver's wait-state
// check (driver/wait_check.py) keeps v_div_fmas_f32's register effects and v_div_scale_f32
// as an opaque step, and passes the kernel, the guard putting the first one 20 wait
// states after the MFMA (test_xdl_guard.py).  One wave.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @xdl_divide(%a: memref<65536xf8E4M3FN, #gpu.address_space<global>>,
                         %out: memref<8192xf32, #gpu.address_space<global>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c32 = arith.constant 32 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant dense<0.0> : vector<16xf32>
      %tid = gpu.thread_id x
      %lane = arith.muli %tid, %c32 : index
      %fa = vector.load %a[%lane] : memref<65536xf8E4M3FN, #gpu.address_space<global>>, vector<32xf8E4M3FN>
      %d = amdgpu.mfma 32x32x64 %fa * %fa + %zero : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
      %f = arith.divf %d, %d : vector<16xf32>
      %o = arith.muli %tid, %c16 : index
      vector.store %f, %out[%o] : memref<8192xf32, #gpu.address_space<global>>, vector<16xf32>
      gpu.return
    }
  }
}
