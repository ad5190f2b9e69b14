// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-normalize-producers)' | FileCheck %s
// RUN: pipeline-opt %S/Inputs/normalize-producers-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-normalize-producers)'

// sched-normalize-producers puts a kernel in IREE Wave's form into the front end's: the
// stream.executable's func.func moves to the top level with the memrefs of its
// stream.binding.subspans as arguments, the launcher that dispatches to it goes, a
// memref.view pool becomes one allocation per view, and readfirstlane intrinsic calls
// become rocdl.readfirstlane.

// CHECK-LABEL: module {
// CHECK-NOT:   stream.
// CHECK:       func.func @k(%arg0: memref<f16>, %arg1: memref<64xf32>, %arg2: index) attributes {translation_info = #translation} {
// CHECK-DAG:     %[[LO:.*]] = memref.alloc() : memref<16x8xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[HI:.*]] = memref.alloc() : memref<8x8xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.view
// CHECK:         %[[T:.*]] = arith.index_cast
// CHECK:         %[[F:.*]] = rocdl.readfirstlane %[[T]] : i32
// CHECK:         %[[R:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [4096]
// CHECK:         amdgpu.gather_to_lds %{{.*}}, %[[LO]]
// CHECK:         vector.load %[[HI]]
// CHECK:         memref.store %{{.*}}, %arg1[%arg2]
// CHECK-NOT:   func.func @launch
// CHECK-NOT:   flow.dispatch
#translation = #iree_codegen.translation_info<pipeline = #iree_codegen.pass_pipeline<""> workgroup_size = [64, 2, 1] subgroup_size = 64>
module {
  stream.executable private @k {
    stream.executable.export public @k workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @k(%a: !stream.binding, %c: !stream.binding, %i: index) attributes {translation_info = #translation} {
        %c0 = arith.constant 0 : index
        %c256 = arith.constant 256 : index
        %0 = stream.binding.subspan %a[%c0] : !stream.binding -> memref<f16>
        %1 = stream.binding.subspan %c[%c0] : !stream.binding -> memref<64xf32>
        %pool = memref.alloc() : memref<512xi8, #gpu.address_space<workgroup>>
        %lo = memref.view %pool[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<16x8xf16, #gpu.address_space<workgroup>>
        %hi = memref.view %pool[%c256][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<8x8xf16, #gpu.address_space<workgroup>>
        %t = gpu.thread_id x
        %ti = arith.index_cast %t : index to i32
        %f = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%ti) : (i32) -> i32
        %fi = arith.index_cast %f : i32 to index
        %r = memref.reinterpret_cast %0 to offset: [0], sizes: [4096], strides: [1] : memref<f16> to memref<4096xf16>
        amdgpu.gather_to_lds %r[%t], %lo[%fi, %c0] : vector<2xf16>, memref<4096xf16>, memref<16x8xf16, #gpu.address_space<workgroup>>
        %v = vector.load %hi[%c0, %c0] : memref<8x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %e = vector.extract %v[0] : f16 from vector<8xf16>
        %x = arith.extf %e : f16 to f32
        memref.store %x, %1[%i] : memref<64xf32>
        return
      }
    }
  }
  func.func @launch(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 : !hal.buffer_view -> tensor<4096xf16>
    %1 = hal.tensor.import %arg1 : !hal.buffer_view -> tensor<64xf32>
    %c0 = arith.constant 0 : index
    %2 = flow.dispatch @k::@k(%0, %1, %c0) : (tensor<4096xf16>, tensor<64xf32>, index) -> %1
    %3 = hal.tensor.export %2 : tensor<64xf32> -> !hal.buffer_view
    return %3 : !hal.buffer_view
  }
}

// -----

// Another intrinsic call stays, and so does a view of memory other than LDS.
// CHECK-LABEL: func.func @other
// CHECK:       memref.view
// CHECK:       llvm.call_intrinsic "llvm.amdgcn.s.getpc"
func.func @other() -> i64 {
  %c0 = arith.constant 0 : index
  %p = memref.alloc() : memref<64xi8>
  %v = memref.view %p[%c0][] : memref<64xi8> to memref<16xf32>
  %r = llvm.call_intrinsic "llvm.amdgcn.s.getpc"() : () -> i64
  return %r : i64
}
