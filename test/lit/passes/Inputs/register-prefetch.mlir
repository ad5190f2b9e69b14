// A loop in the shape of IREE's prefetch pipelining of copies through registers (its register
// copies' LDS stores before the loop, the global loads one K tile ahead, MFMAs after the
// loop) but with no barrier between its MFMAs and its LDS stores, which IREE's form has
// (sched-normalize-producers rolls that form back: frontend/reroll_regs.py), is refused at
// the loop by sched-adopt-loop, saying how to have IREE not pipeline it.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %g = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x128xbf16, #gpu.address_space<global>>
  %c = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x16xf32, #gpu.address_space<global>>
  %l = memref.alloc() : memref<16x32xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.remui %t, %c16 : index
  %q = arith.divui %t, %c16 : index
  %col = arith.muli %q, %c8 : index
  %v0 = vector.load %g[%row, %col] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
  vector.store %v0, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  // expected-error @+1 {{'scf.for' op is already software-pipelined: 1 LDS stores of copies through registers before it (a prologue) and 1 MFMAs after it (an epilogue); the front end pipelines a natural K-loop, which copies and multiplies every K tile inside one iteration: give pipeline-opt the kernel as it was before pipelining (for pipeline-opt's own output, the input it was made from, with --emit=asm, obj or hsaco for the code) (IREE's own prefetch pipelining of copies through registers is rolled back only in its form, a barrier between the loop's MFMAs and its LDS stores: compile with prefetch_num_stages = 1, or --iree-llvmgpu-prefetch-num-stages=1)}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %n = arith.addi %i, %c1 : index
    %k = arith.muli %n, %c32 : index
    %kc = arith.addi %k, %col : index
    %v = vector.load %g[%row, %kc] : memref<16x128xbf16, #gpu.address_space<global>>, vector<8xbf16>
    gpu.barrier
    %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    %m = amdgpu.mfma 16x16x32 %f * %f + %acc : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    vector.store %v, %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    scf.yield %m : vector<4xf32>
  }
  gpu.barrier
  %f = vector.load %l[%row, %col] : memref<16x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  %e = amdgpu.mfma 16x16x32 %f * %f + %r : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %e, %c[%row, %q] : memref<16x16xf32, #gpu.address_space<global>>, vector<4xf32>
  return
}

// -----

// IREE's prefetch pipelining with as many stages as K tiles peels every tile: no loop is
// left, and the refusal says how to have IREE keep it.

func.func @peeled(%a: memref<16x64xbf16>, %c: memref<16x16xf32>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
  %l = memref.alloc() : memref<2x512xbf16, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x upper_bound 64
  %row = arith.divui %t, %c4 : index
  %col = arith.remui %t, %c4 : index
  %k0 = arith.muli %col, %c8 : index
  %k1 = arith.addi %k0, %c32 : index
  %dst = arith.muli %t, %c8 : index
  amdgpu.gather_to_lds async %a[%row, %k0], %l[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  amdgpu.gather_to_lds async %a[%row, %k1], %l[%c0, %dst] : vector<8xbf16>, memref<16x64xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
  rocdl.asyncmark
  rocdl.wait.asyncmark 0
  gpu.barrier
  %r = arith.remui %t, %c16 : index
  %f = vector.load %l[%c0, %dst] : memref<2x512xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  // expected-error @+1 {{'amdgpu.mfma' op is not inside an scf.for: the kernel has no K-loop to pipeline (IREE's own prefetch pipelining peeled every K tile out of the loop: 2 groups of copies closed by rocdl.asyncmark; compile with prefetch_num_stages = 1, or --iree-llvmgpu-prefetch-num-stages=1, for the loop)}}
  %m = amdgpu.mfma 16x16x32 %f * %f + %zero : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
  vector.store %m, %c[%r, %c0] : memref<16x16xf32>, vector<4xf32>
  return
}
