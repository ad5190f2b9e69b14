// Buffer-resource loads through the whole step to LLVM: amdgpu.raw_buffer_load and
// amdgpu.fat_raw_buffer_cast lower to rocdl.make.buffer.rsrc with an i32 record
// count (LLVM 24's overload, which LLVM 22 rejects unless shimmed), gpu.lane_id to
// rocdl.mbcnt.lo/hi carrying res_attrs, and amdgpu.sched_barrier to rocdl.sched.barrier.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @buffer_copy(%a: memref<4096xf32, #gpu.address_space<global>>,
                          %out: memref<4096xf32, #gpu.address_space<global>>)
        kernel attributes {known_block_size = array<i32: 128, 2, 1>, rocdl.waves_per_eu = 2 : i32} {
      %lane = gpu.lane_id
      %bid = gpu.block_id x
      %i = arith.addi %lane, %bid : index
      %ii = arith.index_cast %i : index to i32
      %v = amdgpu.raw_buffer_load boundsCheck(true) %a[%ii]
        : memref<4096xf32, #gpu.address_space<global>>, i32 -> f32
      amdgpu.memory_counter_wait load(0)
      amdgpu.sched_barrier allow = valu
      %fat = amdgpu.fat_raw_buffer_cast %a
        : memref<4096xf32, #gpu.address_space<global>>
          to memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>
      %w = memref.load %fat[%i] : memref<4096xf32, #amdgpu.address_space<fat_raw_buffer>>
      %s = arith.addf %v, %w : f32
      memref.store %s, %out[%i] : memref<4096xf32, #gpu.address_space<global>>
      gpu.return
    }
  }
}
