// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-order-copies)' | FileCheck %s
// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-order-copies,convert-scf-to-cf)' | FileCheck %s --check-prefix=CF

// sched-order-copies: in a remainder loop (sched.remainder), an order fence (only ALU and
// MFMA instructions cross it) before the first LDS store after a direct-to-LDS copy; a fenced loop of 2 to 8 constant trips is asked to unroll fully, which
// convert-scf-to-cf moves to the loop's back edge.
// CHECK:       #[[FULL:.*]] = #llvm.loop_unroll<full = true>
// CHECK:       #[[COUNT:.*]] = #llvm.loop_unroll<count = 2 : i64>
// CHECK:       #[[ANN:.*]] = #llvm.loop_annotation<unroll = #[[FULL]]>
// CHECK:       #[[GIVEN:.*]] = #llvm.loop_annotation<unroll = #[[COUNT]]>
// CHECK-LABEL: func.func @mixed
// CHECK:         scf.for
// CHECK:           vector.load
// CHECK-NEXT:      amdgpu.gather_to_lds
// CHECK-NEXT:      rocdl.sched.barrier non_mem_non_sideeffect|valu|salu|mfma_wmma|transcendental
// CHECK-NEXT:      vector.store
// CHECK-NEXT:      vector.store
// CHECK-NEXT:    } {llvm.loop_annotation = #[[ANN]], sched.remainder}
// CF:          #[[FULL:.*]] = #llvm.loop_unroll<full = true>
// CF:          #[[ANN:.*]] = #llvm.loop_annotation<unroll = #[[FULL]]>
// CF-LABEL: func.func @mixed
// CF:         cf.cond_br
// CF:         cf.br ^{{.*}} {llvm.loop_annotation = #[[ANN]]}
func.func @mixed(%g: memref<64x64xf32>, %lds: memref<256xf32, #gpu.address_space<workgroup>>,
                 %regs: memref<256xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c4 to %c6 step %c1 {
    %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %v, %regs[%c0] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %regs[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  return
}

// Only direct copies, only LDS stores, a store to global memory after the copy, the LDS
// store before the copy, or both inside an op of the body: no fence, no annotation.
// CHECK-LABEL: func.func @left
// CHECK-NOT:     rocdl.sched.barrier
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         return
// CF-LABEL: func.func @left
// CF-NOT:     llvm.loop_annotation
// CF:         return
func.func @left(%g: memref<64x64xf32>, %x: vector<4xf32>, %c: i1,
                %lds: memref<256xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c4 to %c6 step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  } {sched.remainder}
  scf.for %i = %c4 to %c6 step %c1 {
    %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
    vector.store %v, %lds[%c0] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  scf.for %i = %c4 to %c6 step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %x, %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
  } {sched.remainder}
  scf.for %i = %c4 to %c6 step %c1 {
    vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  } {sched.remainder}
  scf.for %i = %c4 to %c6 step %c1 {
    scf.if %c {
      amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    }
  } {sched.remainder}
  return
}

// A loop without the mark (the pipelined loop, IREE's other loops) is left to LLVM.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:     rocdl.sched.barrier
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         return
func.func @unmarked(%g: memref<64x64xf32>, %x: vector<4xf32>,
                    %lds: memref<256xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c4 to %c6 step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  }
  return
}

// Fenced but not asked to unroll: 9 trips, bounds known at run time, one trip (the
// canonicalizer makes such a loop its body first), an annotation of its own (kept). A
// fence already before the store: nothing added.
// CHECK-LABEL: func.func @fenced_only
// CHECK:         rocdl.sched.barrier non_mem_non_sideeffect|valu|salu|mfma_wmma|transcendental
// CHECK:         } {sched.remainder}
// CHECK:         rocdl.sched.barrier non_mem_non_sideeffect|valu|salu|mfma_wmma|transcendental
// CHECK:         } {sched.remainder}
// CHECK:         rocdl.sched.barrier non_mem_non_sideeffect|valu|salu|mfma_wmma|transcendental
// CHECK:         } {sched.remainder}
// CHECK:         rocdl.sched.barrier non_mem_non_sideeffect|valu|salu|mfma_wmma|transcendental
// CHECK:         } {llvm.loop_annotation = #[[GIVEN]], sched.remainder}
// CHECK:         amdgpu.gather_to_lds
// CHECK-NEXT:    rocdl.sched.barrier none
// CHECK-NEXT:    vector.store
// CHECK-NEXT:  } {sched.remainder}
func.func @fenced_only(%g: memref<64x64xf32>, %x: vector<4xf32>, %n: index,
                       %lds: memref<256xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c13 = arith.constant 13 : index
  scf.for %i = %c4 to %c13 step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  scf.for %i = %c4 to %n step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  scf.for %i = %c4 to %c5 step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  scf.for %i = %c4 to %c5 step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {llvm.loop_annotation = #llvm.loop_annotation<unroll = <count = 2>>, sched.remainder}
  scf.for %i = %c4 to %c5 step %c1 {
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    rocdl.sched.barrier none
    vector.store %x, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  return
}
