// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-gpu-kernel,lower-affine)' --mlir-print-ir-after=sched-gpu-kernel -o %t 2> %t.gk
// RUN: FileCheck %s --check-prefix=GK < %t.gk
// RUN: FileCheck %s < %t
// RUN: pipeline-opt %s --split-input-file --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: pipeline-opt %S/Inputs/gpu-kernel-affine-errors.mlir --verify-diagnostics --pass-pipeline='builtin.module(sched-gpu-kernel)'

// sched-gpu-kernel leaves the affine.apply ops of a kernel outside IREE's hal.executable
// (IREE's own tail lowers those inside one) to upstream lower-affine, the LLVM step's next
// pass: floordiv and ceildiv become arith.divsi with the sign fix-ups, mod arith.remsi
// made non-negative; dims and symbols are the operands in order.

// GK-LABEL: gpu.func @k
// GK:       affine.apply
// CHECK-LABEL: gpu.func @k
// CHECK-NOT:   affine.apply
// CHECK:       %[[T:.*]] = gpu.thread_id x
// CHECK:       %[[Y:.*]] = gpu.thread_id y
// CHECK:       arith.remsi %[[T]]
// CHECK:       arith.divsi
// CHECK:       arith.cmpi sle, %[[Y]]
// CHECK:       arith.divsi
// CHECK:       %[[B:.*]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  arith.constant 1.000000e+00
// CHECK-NEXT:  memref.store %{{.*}}, %arg0[%[[B]]]
// LLVM: define amdgpu_kernel void @k(
func.func @k(%a: memref<4096xf32>) attributes {gpu.known_block_size = array<i32: 64, 2, 1>} {
  %t = gpu.thread_id x
  %y = gpu.thread_id y
  %i = affine.apply affine_map<(d0)[s0] -> (d0 mod 16 + (d0 floordiv 16) * 64 + s0 ceildiv 2)>(%t)[%y]
  %c = arith.constant 1.0 : f32
  memref.store %c, %a[%i] : memref<4096xf32>
  return
}

// -----

// A gpu.func kernel in a gpu.module likewise.
// GK-LABEL: gpu.func @in_module
// GK:       affine.apply
// CHECK-LABEL: gpu.func @in_module
// CHECK-NOT:   affine.apply
// CHECK:       arith.divsi
// LLVM: define amdgpu_kernel void @in_module(
gpu.module @kernels {
  gpu.func @in_module(%a: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %i = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%t)
    %c = arith.constant 1.0 : f32
    memref.store %c, %a[%i] : memref<4096xf32>
    gpu.return
  }
}

// -----

// Inside IREE's hal.executable the LLVM step's tail of IREE's passes lowers what IREE's
// codegen lowers after its prefetch point, iree_linalg_ext ops included: IREE's epilogue
// of an edge tile gathers a bias into private memory with iree_linalg_ext.map_load (f16
// 1000x520x1024 + bias, at IREE's prefetch point), which iree-linalg-ext-to-loops makes
// loops of before the memref.copy and linalg lowering (without it the kernel failed at
// the private buffer, an unrealized cast left unlowered).
// GK-LABEL: gpu.func @map_load
// GK:       iree_linalg_ext.map_load
// LLVM: define amdgpu_kernel void @map_load(
// LLVM: load float
// LLVM: store float
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {}>
hal.executable private @exe_map_load {
  hal.executable.variant public @rocm target(#target) {
    hal.executable.export public @map_load ordinal(0) layout(#layout) count(%d: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @map_load() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
        %c0 = arith.constant 0 : index
        %pad = ub.poison : f32
        %in = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256xf32, #hal.descriptor_type<storage_buffer>>
        %out = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<256xf32, #hal.descriptor_type<storage_buffer>>
        %bias = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
        %t = gpu.thread_id x
        iree_linalg_ext.map_load %in into %bias {
        ^bb0(%i: index):
          %c4 = arith.constant 4 : index
          %t4 = arith.muli %t, %c4 : index
          %r = arith.addi %t4, %i : index
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
