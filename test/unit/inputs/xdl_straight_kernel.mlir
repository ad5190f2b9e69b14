// Straight-line code LLVM 22 leaves one wait state short without the guard: a 16-pass XDL
// MFMA (fp8 32x32x64), 19 independent VALU ops on its A operand that LLVM issues after it,
// then the store of its result, exactly 19 wait states after it (sched-xdl-guard's rule for
// a reader in the MFMA's own block, test_xdl_guard.py).  One wave.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @xdl_straight(%a: memref<65536xf8E4M3FN, #gpu.address_space<global>>,
                           %out: memref<8192xi32, #gpu.address_space<global>>,
                           %outf: memref<8192xf32, #gpu.address_space<global>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c32 = arith.constant 32 : index
      %c16 = arith.constant 16 : index
      %c4 = arith.constant 4 : index
      %c4096 = arith.constant 4096 : index
      %zero = arith.constant dense<0.0> : vector<16xf32>
      %tid = gpu.thread_id x
      %lane = arith.muli %tid, %c32 : index
      %fa = vector.load %a[%lane] : memref<65536xf8E4M3FN, #gpu.address_space<global>>, vector<32xf8E4M3FN>
      %d = amdgpu.mfma 32x32x64 %fa * %fa + %zero : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<16xf32>
      %w = vector.bitcast %fa : vector<32xf8E4M3FN> to vector<8xi32>
      %e0 = vector.extract %w[0] : i32 from vector<8xi32>
      %k0 = arith.constant 3 : i32
      %e1 = arith.muli %e0, %k0 : i32
      %k1 = arith.constant 5 : i32
      %e2 = arith.xori %e1, %k1 : i32
      %k2 = arith.constant 7 : i32
      %e3 = arith.muli %e2, %k2 : i32
      %k3 = arith.constant 9 : i32
      %e4 = arith.xori %e3, %k3 : i32
      %k4 = arith.constant 11 : i32
      %e5 = arith.muli %e4, %k4 : i32
      %k5 = arith.constant 13 : i32
      %e6 = arith.xori %e5, %k5 : i32
      %k6 = arith.constant 15 : i32
      %e7 = arith.muli %e6, %k6 : i32
      %k7 = arith.constant 17 : i32
      %e8 = arith.xori %e7, %k7 : i32
      %k8 = arith.constant 19 : i32
      %e9 = arith.muli %e8, %k8 : i32
      %k9 = arith.constant 21 : i32
      %e10 = arith.xori %e9, %k9 : i32
      %k10 = arith.constant 23 : i32
      %e11 = arith.muli %e10, %k10 : i32
      %k11 = arith.constant 25 : i32
      %e12 = arith.xori %e11, %k11 : i32
      %k12 = arith.constant 27 : i32
      %e13 = arith.muli %e12, %k12 : i32
      %k13 = arith.constant 29 : i32
      %e14 = arith.xori %e13, %k13 : i32
      %k14 = arith.constant 31 : i32
      %e15 = arith.muli %e14, %k14 : i32
      %k15 = arith.constant 33 : i32
      %e16 = arith.xori %e15, %k15 : i32
      %k16 = arith.constant 35 : i32
      %e17 = arith.muli %e16, %k16 : i32
      %k17 = arith.constant 37 : i32
      %e18 = arith.xori %e17, %k17 : i32
      %k18 = arith.constant 39 : i32
      %e19 = arith.muli %e18, %k18 : i32
      %xv = vector.broadcast %e19 : i32 to vector<4xi32>
      %o4 = arith.muli %tid, %c4 : index
      %o2 = arith.addi %o4, %c4096 : index
      vector.store %xv, %out[%o2] : memref<8192xi32, #gpu.address_space<global>>, vector<4xi32>
      %o = arith.muli %tid, %c16 : index
      vector.store %d, %outf[%o] : memref<8192xf32, #gpu.address_space<global>>, vector<16xf32>
      gpu.return
    }
  }
}
