// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-fold-mask-guards)' | FileCheck %s

// IREE's guarded load as amdgpu-maskedload-to-load leaves it (IREE's late form has it so):
// the masked load, which LLVM scalarises into a branch and a one-byte load per element,
// runs only where the access crosses the buffer's end by a distance that is not a
// multiple of 4 bytes. sched-fold-mask-guards decides the condition with IREE's
// iree-util-optimize-int-arithmetic on a copy of the function: with rows of 1000 bytes
// and 16-byte columns the distance is a multiple of 4, and the scf.if becomes its else
// branch (the plain load and its select); with rows of 1001 bytes it may be odd, and the
// guard and its masked load stay. The rest of each function is left as it was (the
// analysis' own rewrites stay in the copy: the condition's arithmetic is still there).
// CHECK-LABEL: func.func @word_aligned()
// CHECK:         arith.remui
// CHECK-NOT:     scf.if
// CHECK-NOT:     vector.maskedload
// CHECK:         %[[L:.*]] = vector.load
// CHECK-NEXT:    %[[S:.*]] = arith.select %{{.*}}, %[[L]], %{{.*}} : vector<16xi1>, vector<16xi8>
// CHECK-NEXT:    vector.store %[[S]]
// CHECK-LABEL: func.func @odd_stride()
// CHECK:         scf.if
// CHECK-NEXT:      vector.maskedload {{.*}} {amdgpu.buffer_maskedload_needs_mask}
// CHECK:         } else {
// CHECK-NEXT:      vector.load
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {}>
hal.executable private @exe_guarded_loads {
  hal.executable.variant public @rocm target(#target) {
    hal.executable.export public @word_aligned ordinal(0) layout(#layout) count(%d: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    hal.executable.export public @odd_stride ordinal(1) layout(#layout) count(%d: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @word_aligned() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
        %c0 = arith.constant 0 : index
        %c4 = arith.constant 4 : index
        %c16 = arith.constant 16 : index
        %c1000 = arith.constant 1000 : index
        %size = arith.constant 64000 : index
        %zero = arith.constant dense<0> : vector<16xi8>
        %in = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x1000xi8, #gpu.address_space<global>>
        %out = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64x16xi8, #gpu.address_space<global>>
        %buf = amdgpu.fat_raw_buffer_cast %in resetOffset : memref<64x1000xi8, #gpu.address_space<global>> to memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>
        %t = gpu.thread_id x upper_bound 64
        %n = gpu.block_id x upper_bound 63
        %col = arith.muli %n, %c16 : index
        %left = arith.subi %c1000, %col : index
        %mask = vector.create_mask %left : vector<16xi1>
        %row = arith.muli %t, %c1000 : index
        %lin = arith.addi %row, %col : index
        %delta = arith.subi %size, %lin : index
        %oob = arith.cmpi ult, %delta, %c16 : index
        %rem = arith.remui %delta, %c4 : index
        %odd = arith.cmpi ne, %rem, %c0 : index
        %cond = arith.andi %oob, %odd : i1
        %v = scf.if %cond -> (vector<16xi8>) {
          %m = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
          scf.yield %m : vector<16xi8>
        } else {
          %l = vector.load %buf[%t, %col] : memref<64x1000xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
          %s = arith.select %mask, %l, %zero : vector<16xi1>, vector<16xi8>
          scf.yield %s : vector<16xi8>
        }
        vector.store %v, %out[%t, %c0] : memref<64x16xi8, #gpu.address_space<global>>, vector<16xi8>
        return
      }
      func.func @odd_stride() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
        %c0 = arith.constant 0 : index
        %c4 = arith.constant 4 : index
        %c16 = arith.constant 16 : index
        %c1001 = arith.constant 1001 : index
        %size = arith.constant 64064 : index
        %zero = arith.constant dense<0> : vector<16xi8>
        %in = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x1001xi8, #gpu.address_space<global>>
        %out = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64x16xi8, #gpu.address_space<global>>
        %buf = amdgpu.fat_raw_buffer_cast %in resetOffset : memref<64x1001xi8, #gpu.address_space<global>> to memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>
        %t = gpu.thread_id x upper_bound 64
        %n = gpu.block_id x upper_bound 63
        %col = arith.muli %n, %c16 : index
        %left = arith.subi %c1001, %col : index
        %mask = vector.create_mask %left : vector<16xi1>
        %row = arith.muli %t, %c1001 : index
        %lin = arith.addi %row, %col : index
        %delta = arith.subi %size, %lin : index
        %oob = arith.cmpi ult, %delta, %c16 : index
        %rem = arith.remui %delta, %c4 : index
        %odd = arith.cmpi ne, %rem, %c0 : index
        %cond = arith.andi %oob, %odd : i1
        %v = scf.if %cond -> (vector<16xi8>) {
          %m = vector.maskedload %buf[%t, %col], %mask, %zero {amdgpu.buffer_maskedload_needs_mask} : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi1>, vector<16xi8> into vector<16xi8>
          scf.yield %m : vector<16xi8>
        } else {
          %l = vector.load %buf[%t, %col] : memref<64x1001xi8, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
          %s = arith.select %mask, %l, %zero : vector<16xi1>, vector<16xi8>
          scf.yield %s : vector<16xi8>
        }
        vector.store %v, %out[%t, %c0] : memref<64x16xi8, #gpu.address_space<global>>, vector<16xi8>
        return
      }
    }
  }
}
