// RUN: pipeline-opt %s --pass-pipeline='builtin.module(sched-unmask-loads)' | FileCheck %s

// sched-unmask-loads: a masked load of 32-bit elements of a range-checked fat_raw_buffer
// (through its views) is a plain load of the same memref and indices, then a select of
// the mask between it and the pass-through.
// CHECK-LABEL: func.func @words
// CHECK:         %[[V:.*]] = memref.reinterpret_cast
// CHECK:         %[[L:.*]] = vector.load %[[V]][%arg1] : memref<156000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<64xf32>
// CHECK:         %[[S:.*]] = arith.select %arg2, %[[L]], %arg3 : vector<64xi1>, vector<64xf32>
// CHECK-NOT:     vector.maskedload
// CHECK:         %[[I:.*]] = vector.load %{{.*}}[%arg1] : memref<156000xi32, {{.*}}>, vector<4xi32>
// CHECK:         arith.select %{{.*}}, %[[I]], %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK:         return %[[S]]
func.func @words(%m: memref<520x300xf32>, %i: index, %mask: vector<64xi1>, %pass: vector<64xf32>,
                 %n: memref<156000xi32>, %mask4: vector<4xi1>, %pass4: vector<4xi32>) -> (vector<64xf32>, vector<4xi32>) {
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<520x300xf32> to memref<520x300xf32, #amdgpu.address_space<fat_raw_buffer>>
  %v = memref.reinterpret_cast %f to offset: [0], sizes: [156000], strides: [1] : memref<520x300xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<156000xf32, #amdgpu.address_space<fat_raw_buffer>>
  %r = vector.maskedload %v[%i], %mask, %pass : memref<156000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<64xi1>, vector<64xf32> into vector<64xf32>
  %g = amdgpu.fat_raw_buffer_cast %n resetOffset : memref<156000xi32> to memref<156000xi32, #amdgpu.address_space<fat_raw_buffer>>
  %q = vector.maskedload %g[%i], %mask4, %pass4 : memref<156000xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  return %r, %q : vector<64xf32>, vector<4xi32>
}

// Left as they are: 16-bit elements (one may straddle the buffer's end), a buffer whose
// range check is off, a memref that is not a fat_raw_buffer.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: vector.maskedload
// CHECK-NOT:     arith.select
func.func @kept(%m: memref<1000xf16>, %w: memref<1000xf32>, %i: index, %mask: vector<8xi1>,
                %h: vector<8xf16>, %p: vector<8xf32>) -> (vector<8xf16>, vector<8xf32>, vector<8xf32>) {
  %f = amdgpu.fat_raw_buffer_cast %m resetOffset : memref<1000xf16> to memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>
  %a = vector.maskedload %f[%i], %mask, %h : memref<1000xf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  %u = amdgpu.fat_raw_buffer_cast %w resetOffset boundsCheck(false) : memref<1000xf32> to memref<1000xf32, #amdgpu.address_space<fat_raw_buffer>>
  %b = vector.maskedload %u[%i], %mask, %p : memref<1000xf32, #amdgpu.address_space<fat_raw_buffer>>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %c = vector.maskedload %w[%i], %mask, %p : memref<1000xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %a, %b, %c : vector<8xf16>, vector<8xf32>, vector<8xf32>
}
