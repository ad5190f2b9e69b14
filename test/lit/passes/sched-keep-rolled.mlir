// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-keep-rolled)' | FileCheck %s
// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-keep-rolled,convert-scf-to-cf)' | FileCheck %s --check-prefix=CF

// sched-keep-rolled: a remainder loop (sched.remainder) whose body copies straight to LDS
// and stores registers to LDS, in a kernel of more than one wave, is annotated so that
// LLVM does not unroll it; convert-scf-to-cf moves the annotation to the loop's back edge.
// CHECK:       #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK:       #[[GIVEN:.*]] = #llvm.loop_unroll<count = 2 : i64>
// CHECK:       #[[OFF:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK:       #[[KEPT:.*]] = #llvm.loop_annotation<unroll = #[[GIVEN]]>
// CHECK-LABEL: func.func @mixed
// CHECK:         scf.for
// CHECK:         } {llvm.loop_annotation = #[[OFF]], sched.remainder}
// CF:          #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CF:          #[[OFF:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CF-LABEL: func.func @mixed
// CF:         cf.cond_br
// CF:         cf.br ^{{.*}} {llvm.loop_annotation = #[[OFF]]}
func.func @mixed(%g: memref<64x64xf32>, %x: vector<4xf32>,
                 %lds: memref<256xf32, #gpu.address_space<workgroup>>,
                 %regs: memref<256xf32, #gpu.address_space<workgroup>>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c4 to %c6 step %c1 {
    %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %v, %regs[%c0] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  return
}

// Only direct copies, only LDS stores, or a store to other memory: left to LLVM.
// CHECK-LABEL: func.func @one_kind
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         return
// CF-LABEL: func.func @one_kind
// CF-NOT:     llvm.loop_annotation
// CF:         return
func.func @one_kind(%g: memref<64x64xf32>, %x: vector<4xf32>,
                    %lds: memref<256xf32, #gpu.address_space<workgroup>>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
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
  return
}

// A loop without the mark (the pipelined loop, IREE's other loops) is left to LLVM.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         return
func.func @unmarked(%g: memref<64x64xf32>,
                    %lds: memref<256xf32, #gpu.address_space<workgroup>>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c4 to %c6 step %c1 {
    %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %v, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  }
  return
}

// A remainder loop nested in another op is found, its copy and store nested too; one that
// has an annotation already keeps it.
// CHECK-LABEL: func.func @nested_and_given
// CHECK:         } {llvm.loop_annotation = #[[OFF]], sched.remainder}
// CHECK:         } {llvm.loop_annotation = #[[KEPT]], sched.remainder}
func.func @nested_and_given(%g: memref<64x64xf32>, %c: i1,
                            %lds: memref<256xf32, #gpu.address_space<workgroup>>) attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  scf.if %c {
    scf.for %i = %c0 to %c8 step %c1 {
      scf.if %c {
        %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
        amdgpu.gather_to_lds %g[%i, %c8], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
        %e = vector.extract %v[0] : f32 from vector<4xf32>
        memref.store %e, %lds[%c8] : memref<256xf32, #gpu.address_space<workgroup>>
      }
    } {sched.remainder}
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
    amdgpu.gather_to_lds %g[%i, %c8], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %v, %lds[%c8] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {llvm.loop_annotation = #llvm.loop_annotation<unroll = <count = 2>>, sched.remainder}
  return
}

// One wave (its barriers are no instructions, the unrolled iterations overlap), or a
// workgroup size not stated: left to LLVM.
// CHECK-LABEL: func.func @one_wave
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         return
func.func @one_wave(%g: memref<64x64xf32>,
                    %lds: memref<256xf32, #gpu.address_space<workgroup>>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c4 to %c6 step %c1 {
    %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %v, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  return
}

// CHECK-LABEL: func.func @no_size
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         return
func.func @no_size(%g: memref<64x64xf32>,
                   %lds: memref<256xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c4 to %c6 step %c1 {
    %v = vector.load %g[%i, %c0] : memref<64x64xf32>, vector<4xf32>
    amdgpu.gather_to_lds %g[%i, %c4], %lds[%c0] : vector<4xf32>, memref<64x64xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %v, %lds[%c4] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  } {sched.remainder}
  return
}
