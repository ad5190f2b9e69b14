// An affine op other than affine.apply in a kernel outside IREE's hal.executable is
// refused at the op (the LLVM step would leave it half converted).

func.func @k(%a: memref<4096xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %t = gpu.thread_id x
  // expected-error @+1 {{'affine.min' op: the LLVM step lowers only affine.apply}}
  %i = affine.min affine_map<(d0) -> (d0, 63)>(%t)
  %c = arith.constant 1.0 : f32
  memref.store %c, %a[%i] : memref<4096xf32>
  return
}
