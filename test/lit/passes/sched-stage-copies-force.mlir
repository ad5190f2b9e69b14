// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-stage-copies{force-sources=1 ahead=false})' | FileCheck %s

// force-sources=1: every copy of the second global source (%b, through its subview) is
// staged although none is marked; the copies of the first source (%a) stay DMA copies.
// CHECK-LABEL: func.func @forced
// CHECK:         amdgpu.gather_to_lds %arg0[%arg3, %arg4], %arg2[%arg5]
// CHECK-NEXT:    %[[V:.*]] = vector.load %{{.*}}[%arg3, %arg4] : memref<64x32xbf16, strided<[64, 1]>>, vector<8xbf16>
// CHECK:         vector.store %[[V]], %arg2
// CHECK-NEXT:    rocdl.s.waitcnt 49279
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NOT:     amdgpu.gather_to_lds %{{.*}}subview
func.func @forced(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %d: index) {
  %sb = memref.subview %b[0, 0] [64, 32] [1, 1] : memref<64x64xbf16> to memref<64x32xbf16, strided<[64, 1]>>
  amdgpu.gather_to_lds %a[%i, %j], %lds[%d] : vector<8xbf16>, memref<64x64xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
  amdgpu.gather_to_lds %sb[%i, %j], %lds[%d] : vector<8xbf16>, memref<64x32xbf16, strided<[64, 1]>>, memref<2048xbf16, #gpu.address_space<workgroup>>
  rocdl.s.barrier
  return
}

// -----

// A number past the sources the module's copies read: an error at the module.
// expected-error @+1 {{sched-stage-copies: option 'force-sources' names source 1, but the module's copies read 1 global source(s) (numbered from 0)}}
module {
  func.func @one_source(%a: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index) {
    amdgpu.gather_to_lds %a[%i, %i], %lds[%i] : vector<8xbf16>, memref<64x64xbf16>, memref<2048xbf16, #gpu.address_space<workgroup>>
    return
  }
}
