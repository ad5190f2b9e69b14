// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-to-llvm)' --emit=llvm | FileCheck %s

// IREE's epilogue of an edge tile gathers a bias into private memory with
// iree_linalg_ext.map_load (f16 1000x520x1024 + bias, at IREE's prefetch point); IREE's
// codegen lowers it to loops (iree-linalg-ext-to-loops) before its memref.copy and linalg
// lowering, and so does the LLVM step's tail of IREE's passes: the kernel compiles, each
// element loaded at the index the region computes (here 4 x thread + i).

// CHECK: define amdgpu_kernel void @dispatch(
// CHECK: load float
// CHECK: store float
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {}>
hal.executable private @exe {
  hal.executable.variant public @rocm target(#target) {
    hal.executable.export public @dispatch ordinal(0) layout(#layout) count(%d: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @dispatch() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
        %c0 = arith.constant 0 : index
        %pad = ub.poison : f32
        %in = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256xf32, #hal.descriptor_type<storage_buffer>>
        %out = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<256xf32, #hal.descriptor_type<storage_buffer>>
        %bias = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
        %t = gpu.thread_id x
        iree_linalg_ext.map_load %in into %bias {
        ^bb0(%i: index):
          %r = affine.linearize_index disjoint [%t, %i] by (64, 4) : index
          iree_linalg_ext.yield %r, %pad : index, f32
        } : memref<256xf32, #hal.descriptor_type<storage_buffer>> into memref<4xf32, #gpu.address_space<private>>
        %v = vector.transfer_read %bias[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<private>>, vector<4xf32>
        %o = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%t]
        vector.transfer_write %v, %out[%o] {in_bounds = [true]} : vector<4xf32>, memref<256xf32, #hal.descriptor_type<storage_buffer>>
        return
      }
    }
  }
}
