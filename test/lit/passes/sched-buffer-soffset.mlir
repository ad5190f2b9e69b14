// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-buffer-soffset)' | FileCheck %s

// sched-buffer-soffset (the LLVM step, after iree-convert-to-rocdl) splits the offset of a
// buffer->LDS copy into its lane-varying part (voffset) and its wave-uniform part (soffset)
// when both are provably non-negative; the copy becomes rocdl.raw.ptr.buffer.load.lds on
// the same descriptor made as !llvm.ptr<8>.

// A K-loop: the lane's offset (a zero-extended i32) plus the loop counter, which starts
// at 0 and grows by 64; the wave index tid / 64 selects the LDS row, uniformly.
// CHECK-LABEL: llvm.func @k_loop
// CHECK:         %[[R8:.*]] = rocdl.make.buffer.rsrc %{{.*}} : <1>, i32 to <8>
// CHECK-NOT:     to <7>
// CHECK:       ^bb1(%[[K:.*]]: i64):
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[VB:.*]] = llvm.mul %[[LANE:.*]], %[[TWO]] : i64
// CHECK-NEXT:    %[[V:.*]] = llvm.trunc %[[VB]] : i64 to i32
// CHECK:         %[[SB:.*]] = llvm.mul %[[K]], %{{.*}} : i64
// CHECK-NEXT:    %[[S:.*]] = llvm.trunc %[[SB]] : i64 to i32
// CHECK:         %[[SIZE:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    rocdl.raw.ptr.buffer.load.lds %[[R8]], %{{.*}}, %[[SIZE]], %[[V]], %[[S]], %[[OFF]], 0
// CHECK-NOT:     rocdl.load.to.lds
// CHECK-NOT:     llvm.getelementptr %{{.*}} -> !llvm.ptr<7>
module {
  llvm.func @k_loop(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c64i = llvm.mlir.constant(64 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %wave = llvm.udiv %tid, %c64i : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lanev = llvm.mul %tid, %c64i : i32
    %lane = llvm.zext %lanev : i32 to i64
    %wl = llvm.zext %wave : i32 to i64
    %dst = llvm.getelementptr %lds[%wl] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %lane, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %dst, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64 : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A constant K column (a prologue copy) goes into soffset as well: no vector add for it.
// CHECK-LABEL: llvm.func @k_const
// CHECK:         %[[C:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C]], %{{.*}}, 0
module {
  llvm.func @k_const(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    %idx = llvm.add %lane, %c64 : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// Left alone: a uniform part that may be negative (K - 64 from K = 0: the hardware would
// see an offset past 4 GiB where the original wraps back into the buffer).
// CHECK-LABEL: llvm.func @negative_uniform
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @negative_uniform(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %cm64 = llvm.mlir.constant(-64 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %kp = llvm.add %k, %cm64 : i64
    %idx = llvm.add %lane, %kp : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64 : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// Left alone: a counter that starts at a kernel argument (unknown sign).
// CHECK-LABEL: llvm.func @unknown_start
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @unknown_start(%a: !llvm.ptr<1>, %n: i32, %k0: i64, %kend: i64) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    llvm.br ^bb1(%k0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %lane, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64 : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// Left alone: the loop's branch depends on the lane (tid / 32 differs within a wave), so
// its counter is not wave-uniform; nor is a plain function's argument.
// CHECK-LABEL: llvm.func @divergent_loop
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @not_a_kernel
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @divergent_loop(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %half = llvm.udiv %tid, %c32 : i32
    %halfl = llvm.zext %half : i32 to i64
    %kend = llvm.mul %halfl, %c64 : i64
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %lane, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64 : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @not_a_kernel(%a: !llvm.ptr<1>, %n: i32, %k: i64) {
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    %idx = llvm.add %lane, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// Left alone: a lane-varying part that may be negative (sign-extended from i32).
// CHECK-LABEL: llvm.func @signed_lane
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @signed_lane(%a: !llvm.ptr<1>, %n: i32, %d: i32) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %v = llvm.sub %tid, %d : i32
    %lane = llvm.sext %v : i32 to i64
    %idx = llvm.add %lane, %c64 : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// The wave's index (tid.x / 64 in a block whose x size is a multiple of 64) is the same
// in all the wave's lanes: a loop bounded by it is uniform. With an x size of 96 a wave
// can span two rows of a 2-D block, so the pass does not rely on tid.x / 64 there.
// CHECK-LABEL: llvm.func @wave_uniform_loop
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @odd_block
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @wave_uniform_loop(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c32 = llvm.mlir.constant(64 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 128> : i32
    %half = llvm.udiv %tid, %c32 : i32
    %halfl = llvm.zext %half : i32 to i64
    %kend = llvm.mul %halfl, %c64 : i64
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %lane, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64 : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @odd_block(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 96, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c32 = llvm.mlir.constant(64 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 96> : i32
    %half = llvm.udiv %tid, %c32 : i32
    %halfl = llvm.zext %half : i32 to i64
    %kend = llvm.mul %halfl, %c64 : i64
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %lane, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64 : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}
