// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-buffer-soffset)' | FileCheck %s

// sched-buffer-soffset (the LLVM step, after iree-convert-to-rocdl) splits the offset of a
// buffer->LDS copy into its lane-varying part (voffset) and its wave-uniform part (soffset)
// when both are provably non-negative; the copy becomes rocdl.raw.ptr.buffer.load.lds on
// the same descriptor made as !llvm.ptr<8>.

// A K-loop: the lane's offset (a zero-extended i32) plus the loop counter, which starts
// at 0 and grows by 64; the wave index tid / 64 selects the LDS row, uniformly. The
// soffset, one term (k * 2), is not passed through readfirstlane.
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
  llvm.func @k_loop(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
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
  llvm.func @k_const(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  llvm.func @negative_uniform(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  llvm.func @unknown_start(%a: !llvm.ptr<1>, %n: i32, %k0: i64, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  llvm.func @divergent_loop(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  llvm.func @signed_lane(%a: !llvm.ptr<1>, %n: i32, %d: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
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
  llvm.func @wave_uniform_loop(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 128, 1, 1>} {
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
  llvm.func @odd_block(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 96, 1, 1>} {
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

// -----

// IREE's K-loop in its late form, minimal: an i32 counter from 2 by 2 while i < 128 (so
// i * 32 + col cannot wrap in i32), the row a signed floor division (sdiv + select) of a
// difference in which the wave's part cancels, (wave*1024 + lane*8) / 64 * 64 - wave*1024,
// the column a signed remainder (srem + select), plus the wave's rows (wave * 32) and the
// workgroup's (wg / 32 * 128). voffset: row and column; soffset: the wave's and the
// workgroup's rows and the K column. The wave's index and the LDS address, uniform but
// computed from the thread id, are read once where they are computed (readfirstlane).
// The soffset, a sum of several uniform terms, goes through one more readfirstlane at the
// copy (LLVM may otherwise rebuild such a sum in a VGPR); k_loop's, one term, does not.
// CHECK-LABEL: llvm.func @iree_k_loop
// CHECK:         %[[WG:.*]] = rocdl.workgroup.id.x
// CHECK:         %[[WAVE:.*]] = llvm.udiv %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[W:.*]] = rocdl.readfirstlane %[[WAVE]] : i32
// CHECK:         %[[ROW:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK:         %[[COL:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK:         %[[TILE:.*]] = llvm.udiv %[[WG]], %{{.*}} : i32
// CHECK:         %[[CL:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK-NEXT:    %[[XL:.*]] = llvm.mul %[[W]], %[[CL]] : i32
// CHECK-NEXT:    %[[XS:.*]] = llvm.sext %[[XL]] : i32 to i64
// CHECK-NEXT:    %[[LDS:.*]] = llvm.getelementptr %{{.*}}[%[[XS]]] : (!llvm.ptr<3>, i64)
// CHECK:       ^bb1(%[[I:.*]]: i32):
// CHECK:       ^bb2:
// CHECK:         %[[C8192:.*]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK-NEXT:    %[[VR:.*]] = llvm.mul %[[ROW]], %[[C8192]] : i32
// CHECK-NEXT:    %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[VC:.*]] = llvm.mul %[[COL]], %[[C2]] : i32
// CHECK-NEXT:    %[[V:.*]] = llvm.add %[[VR]], %[[VC]] : i32
// CHECK-NEXT:    %[[CW:.*]] = llvm.mlir.constant(262144 : i32) : i32
// CHECK-NEXT:    %[[SW:.*]] = llvm.mul %[[W]], %[[CW]] : i32
// CHECK-NEXT:    %[[CT:.*]] = llvm.mlir.constant(1048576 : i32) : i32
// CHECK-NEXT:    %[[ST:.*]] = llvm.mul %[[TILE]], %[[CT]] : i32
// CHECK-NEXT:    %[[SWT:.*]] = llvm.add %[[SW]], %[[ST]] : i32
// CHECK-NEXT:    %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT:    %[[SK:.*]] = llvm.mul %[[I]], %[[C64]] : i32
// CHECK-NEXT:    %[[SS:.*]] = llvm.add %[[SWT]], %[[SK]] : i32
// CHECK-NEXT:    %[[S:.*]] = rocdl.readfirstlane %[[SS]] : i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %[[LDS]], %{{.*}}, %[[V]], %[[S]], %{{.*}}, 0
// CHECK-NOT:     rocdl.load.to.lds
// The same loop bounded by a kernel argument (i < n): i * 32 + col may wrap in i32, the
// column is not known to be non-negative: left alone.
// CHECK-LABEL: llvm.func @iree_k_loop_unbounded
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @iree_k_loop(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %cm1 = llvm.mlir.constant(-1 : i32) : i32
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %wave, %c1024 overflow<nsw> : i32
    %l8 = llvm.mul %lane, %c8 : i32
    %xl = llvm.add %x, %l8 : i32
    %r64 = llvm.udiv %xl, %c64 : i32
    %r = llvm.mul %r64, %c64 overflow<nsw> : i32
    %d = llvm.sub %r, %x : i32
    %q = llvm.sdiv %d, %c32 : i32
    %qd = llvm.mul %q, %c32 : i32
    %inexact = llvm.icmp "ne" %d, %qd : i32
    %neg = llvm.icmp "slt" %d, %c0 : i32
    %fix = llvm.and %inexact, %neg : i1
    %qm1 = llvm.add %q, %cm1 : i32
    %row = llvm.select %fix, %qm1, %q : i1, i32
    %m = llvm.srem %l8, %c32 : i32
    %mneg = llvm.icmp "slt" %m, %c0 : i32
    %mp = llvm.add %m, %c32 overflow<nsw> : i32
    %col = llvm.select %mneg, %mp, %m : i1, i32
    %wrow = llvm.mul %wave, %c32 overflow<nsw> : i32
    %tile = llvm.udiv %wg, %c32 : i32
    %trow = llvm.mul %tile, %c128 overflow<nsw> : i32
    %rw = llvm.add %row, %wrow : i32
    %rows = llvm.add %rw, %trow : i32
    %rows64 = llvm.sext %rows : i32 to i64
    %base = llvm.mul %rows64, %c4096 : i64
    %wl = llvm.mul %wave, %c1024 : i32
    %wl64 = llvm.zext %wl : i32 to i64
    %dst = llvm.getelementptr %lds[%wl64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
    llvm.br ^bb1(%c2 : i32)
  ^bb1(%i: i32):
    %more = llvm.icmp "slt" %i, %c128 : i32
    llvm.cond_br %more, ^bb2, ^bb3
  ^bb2:
    %k = llvm.mul %i, %c32 : i32
    %ck = llvm.add %col, %k : i32
    %ck64 = llvm.sext %ck : i32 to i64
    %idx = llvm.add %base, %ck64 : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %dst, 16, 0, 0 : <7>
    %next = llvm.add %i, %c2 : i32
    llvm.br ^bb1(%next : i32)
  ^bb3:
    llvm.return
  }
  llvm.func @iree_k_loop_unbounded(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %cm1 = llvm.mlir.constant(-1 : i32) : i32
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %wave, %c1024 overflow<nsw> : i32
    %l8 = llvm.mul %lane, %c8 : i32
    %xl = llvm.add %x, %l8 : i32
    %r64 = llvm.udiv %xl, %c64 : i32
    %r = llvm.mul %r64, %c64 overflow<nsw> : i32
    %d = llvm.sub %r, %x : i32
    %q = llvm.sdiv %d, %c32 : i32
    %qd = llvm.mul %q, %c32 : i32
    %inexact = llvm.icmp "ne" %d, %qd : i32
    %neg = llvm.icmp "slt" %d, %c0 : i32
    %fix = llvm.and %inexact, %neg : i1
    %qm1 = llvm.add %q, %cm1 : i32
    %row = llvm.select %fix, %qm1, %q : i1, i32
    %m = llvm.srem %l8, %c32 : i32
    %mneg = llvm.icmp "slt" %m, %c0 : i32
    %mp = llvm.add %m, %c32 overflow<nsw> : i32
    %col = llvm.select %mneg, %mp, %m : i1, i32
    %wrow = llvm.mul %wave, %c32 overflow<nsw> : i32
    %tile = llvm.udiv %wg, %c32 : i32
    %trow = llvm.mul %tile, %c128 overflow<nsw> : i32
    %rw = llvm.add %row, %wrow : i32
    %rows = llvm.add %rw, %trow : i32
    %rows64 = llvm.sext %rows : i32 to i64
    %base = llvm.mul %rows64, %c4096 : i64
    %wl = llvm.mul %wave, %c1024 : i32
    %wl64 = llvm.zext %wl : i32 to i64
    %dst = llvm.getelementptr %lds[%wl64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
    llvm.br ^bb1(%c2 : i32)
  ^bb1(%i: i32):
    %more = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %more, ^bb2, ^bb3
  ^bb2:
    %k = llvm.mul %i, %c32 : i32
    %ck = llvm.add %col, %k : i32
    %ck64 = llvm.sext %ck : i32 to i64
    %idx = llvm.add %base, %ck64 : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %dst, 16, 0, 0 : <7>
    %next = llvm.add %i, %c2 : i32
    llvm.br ^bb1(%next : i32)
  ^bb3:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// The rules for IREE's index math one by one, each beside a case where it must not
// fire. Each loop counts k (i64) from 0 by 64; tid is workitem.id.x, wave tid / 64,
// lane tid % 64.

// A difference whose uniform parts cancel, (wave*1024 + lane*8) / 64 * 64 - wave*1024,
// is lane-varying and non-negative: it stays in voffset, k goes to soffset.
// CHECK-LABEL: llvm.func @difference_cancels
// CHECK:         %[[D:.*]] = llvm.sub
// CHECK-NEXT:    %[[D64:.*]] = llvm.sext %[[D]] : i32 to i64
// CHECK:       ^bb1(%[[K:.*]]: i64):
// CHECK:         %[[V:.*]] = llvm.mul %[[D64]], %{{.*}} : i64
// CHECK-NEXT:    %[[VT:.*]] = llvm.trunc %[[V]] : i64 to i32
// CHECK:         %[[S:.*]] = llvm.mul %[[K]], %{{.*}} : i64
// CHECK-NEXT:    %[[ST:.*]] = llvm.trunc %[[S]] : i64 to i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %[[VT]], %[[ST]],
// A difference that can be negative, lane*8 - wave*1024, is left alone.
// CHECK-LABEL: llvm.func @difference_may_be_negative
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @difference_cancels(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %wave, %c1024 : i32
    %l8 = llvm.mul %lane, %c8 : i32
    %xl = llvm.add %x, %l8 : i32
    %r64 = llvm.udiv %xl, %c64 : i32
    %r = llvm.mul %r64, %c64 : i32
    %d = llvm.sub %r, %x : i32
    %v = llvm.sext %d : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @difference_may_be_negative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %wave, %c1024 : i32
    %l8 = llvm.mul %lane, %c8 : i32
    %d = llvm.sub %l8, %x : i32
    %v = llvm.sext %d : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// The remainder of a non-negative value is a modulo (lane*8 srem 32 in [0, 24]); the
// remainder of a value that can be negative (tid - 100 srem 32) can be too: left alone.
// CHECK-LABEL: llvm.func @rem_of_nonnegative
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @rem_may_be_negative
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @rem_of_nonnegative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %l8 = llvm.mul %lane, %c8 : i32
    %m = llvm.srem %l8, %c32 : i32
    %v = llvm.sext %m : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @rem_may_be_negative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %t = llvm.sub %tid, %c100 : i32
    %m = llvm.srem %t, %c32 : i32
    %v = llvm.sext %m : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A signed floor division written as sdiv + select (IREE's floordivsi): the selects are
// decided where the dividend is provably non-negative. A select on a comparison the
// ranges do not decide (lane < 32) is not folded: one of its values can be negative, so
// the copy is left alone.
// CHECK-LABEL: llvm.func @floor_division_decided
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @select_undecided
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @floor_division_decided(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %m1 = llvm.mlir.constant(-1 : i32) : i32
    %d = llvm.mul %lane, %c8 : i32
    %q = llvm.sdiv %d, %c32 : i32
    %qd = llvm.mul %q, %c32 : i32
    %inexact = llvm.icmp "ne" %d, %qd : i32
    %neg = llvm.icmp "slt" %d, %zero : i32
    %fix = llvm.and %inexact, %neg : i1
    %q1 = llvm.add %q, %m1 : i32
    %row = llvm.select %fix, %q1, %q : i1, i32
    %row64 = llvm.sext %row : i32 to i64
    %v = llvm.mul %row64, %c4096 : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @select_undecided(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %low = llvm.icmp "slt" %lane, %c32 : i32
    %d = llvm.sub %lane, %c100 : i32
    %s = llvm.select %low, %d, %lane : i1, i32
    %v = llvm.sext %s : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// tid = 64 * wave + lane in a block whose x size is a multiple of 64: the wave's row,
// (tid % 128) / 64, is uniform and goes to soffset (through readfirstlane, where it is
// computed); in a block of 96 threads a wave spans two rows: the same row stays in voffset.
// CHECK-LABEL: llvm.func @wave_row_uniform
// CHECK:         %[[ROWL:.*]] = llvm.zext %{{.*}} : i32 to i64
// CHECK-NEXT:    %[[ROWT:.*]] = llvm.trunc %[[ROWL]] : i64 to i32
// CHECK-NEXT:    %[[B:.*]] = rocdl.readfirstlane %[[ROWT]] : i32
// CHECK:         %[[SR:.*]] = llvm.mul %[[B]], %{{.*}} : i32
// CHECK:         %[[SS:.*]] = llvm.add %[[SR]], %{{.*}} : i32
// CHECK-NEXT:    %[[S:.*]] = rocdl.readfirstlane %[[SS]] : i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S]],
// CHECK-LABEL: llvm.func @wave_row_of_odd_block
// CHECK-NOT:     rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @wave_row_uniform(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %t128 = llvm.urem %tid, %c128 : i32
    %row = llvm.udiv %t128, %c64 : i32
    %rowl = llvm.zext %row : i32 to i64
    %rows = llvm.mul %rowl, %c4096 : i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %rows, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @wave_row_of_odd_block(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 96, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 96> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %t128 = llvm.urem %tid, %c128 : i32
    %row = llvm.udiv %t128, %c64 : i32
    %rowl = llvm.zext %row : i32 to i64
    %rows = llvm.mul %rowl, %c4096 : i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %rows, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A workgroup id in x is below ceil((2^32 - 1) / 256) = 2^24 with 256 threads a block (the
// grid size is a 32-bit count of work-items), so wg * 128 in i32 cannot wrap; with 128
// threads a block it can (wg < 2^25): the row is not known to be non-negative, left alone.
// CHECK-LABEL: llvm.func @workgroup_row
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @workgroup_row_may_wrap
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @workgroup_row(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %wg = rocdl.workgroup.id.x : i32
    %row = llvm.mul %wg, %c128 : i32
    %rowl = llvm.sext %row : i32 to i64
    %rows = llvm.mul %rowl, %c4096 : i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %rows, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @workgroup_row_may_wrap(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 128, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 128> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %wg = rocdl.workgroup.id.x : i32
    %row = llvm.mul %wg, %c128 : i32
    %rowl = llvm.sext %row : i32 to i64
    %rows = llvm.mul %rowl, %c4096 : i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %rows, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// An XOR swizzle of two non-negative values (the 8-element chunk XOR the row mod 8) is
// non-negative; an XOR with a value that can be negative is not: left alone.
// CHECK-LABEL: llvm.func @xor_swizzle
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @xor_may_be_negative
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @xor_swizzle(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %r = llvm.udiv %lane, %c8 : i32
    %c7 = llvm.mlir.constant(7 : i32) : i32
    %chunk = llvm.and %lane, %c7 : i32
    %s = llvm.xor %chunk, %r : i32
    %s8 = llvm.mul %s, %c8 : i32
    %v = llvm.zext %s8 : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @xor_may_be_negative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %r = llvm.sub %tid, %c100 : i32
    %c7 = llvm.mlir.constant(7 : i32) : i32
    %s = llvm.xor %r, %c7 : i32
    %v = llvm.sext %s : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// An OR of disjoint bits is a sum: wave*1024 | lane*8 (lane*8 < 1024) splits, the wave's
// part goes to soffset; wave*512 | lane*16 (lane*16 up to 1008) overlaps: it stays whole,
// in voffset, and soffset gets k alone.
// CHECK-LABEL: llvm.func @or_disjoint
// CHECK:         rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @or_overlapping
// CHECK:         %[[OR:.*]] = llvm.or
// CHECK-NEXT:    %[[ORL:.*]] = llvm.zext %[[OR]] : i32 to i64
// CHECK-NOT:     rocdl.readfirstlane
// CHECK:         %[[V:.*]] = llvm.mul %[[ORL]], %{{.*}} : i64
// CHECK-NEXT:    %[[VT:.*]] = llvm.trunc %[[V]] : i64 to i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %[[VT]],
module {
  llvm.func @or_disjoint(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %wave, %c1024 : i32
    %l8 = llvm.mul %lane, %c8 : i32
    %o = llvm.or %x, %l8 : i32
    %v = llvm.zext %o : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @or_overlapping(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %c512 = llvm.mlir.constant(512 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    %x = llvm.mul %wave, %c512 : i32
    %l16 = llvm.mul %lane, %c16 : i32
    %o = llvm.or %x, %l16 : i32
    %v = llvm.zext %o : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// udiv is a floor division only of a non-negative value: (wave*64 - 64) udiv 64 is not
// wave - 1 (which could be negative, sign-extended) but the unsigned quotient, uniform and
// in [0, 2^26): it goes to soffset as it is.
// CHECK-LABEL: llvm.func @udiv_of_negative
// CHECK:         llvm.sub
// CHECK-NEXT:    %[[Q:.*]] = llvm.udiv %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[QL:.*]] = llvm.sext %[[Q]] : i32 to i64
// CHECK-NEXT:    %[[QT:.*]] = llvm.trunc %[[QL]] : i64 to i32
// CHECK-NEXT:    rocdl.readfirstlane %[[QT]] : i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @udiv_of_negative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %wave, %c64 : i32
    %y = llvm.sub %x, %c64 : i32
    %q = llvm.udiv %y, %c64 : i32
    %ql = llvm.sext %q : i32 to i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %ql, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A chain of GEPs (IREE's row, then column) adds its indices; a GEP through an array
// type (two indices) is not followed: left alone.
// CHECK-LABEL: llvm.func @gep_chain
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-NOT:     llvm.getelementptr %{{.*}} -> !llvm.ptr<7>
// CHECK-LABEL: llvm.func @gep_through_array
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @gep_chain(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %wl = llvm.zext %wave : i32 to i64
    %row = llvm.mul %wl, %c4096 : i64
    %base = llvm.getelementptr %rsrc[%row] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    %v = llvm.zext %lane : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %base[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @gep_through_array(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %wl = llvm.zext %wave : i32 to i64
    %base = llvm.getelementptr %rsrc[0, %wl] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, !llvm.array<4096 x bf16>
    %v = llvm.zext %lane : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %base[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A wave-uniform LDS address computed from the thread id is read once where it is
// computed, not by each copy: its index's terms (here the wave's index, tid / 64) through
// readfirstlane where they are defined, the index their sum; one that varies across lanes
// is kept.
// CHECK-LABEL: llvm.func @lds_uniform
// CHECK:         %[[WAVE:.*]] = llvm.udiv
// CHECK-NEXT:    %[[W:.*]] = rocdl.readfirstlane %[[WAVE]] : i32
// CHECK:         %[[C:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK-NEXT:    %[[X:.*]] = llvm.mul %[[W]], %[[C]] : i32
// CHECK-NEXT:    %[[XL:.*]] = llvm.sext %[[X]] : i32 to i64
// CHECK-NEXT:    %[[B:.*]] = llvm.getelementptr %{{.*}}[%[[XL]]] : (!llvm.ptr<3>, i64)
// CHECK-NOT:     rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %[[B]],
// CHECK-LABEL: llvm.func @lds_varying
// CHECK:         %[[DST:.*]] = llvm.getelementptr
// CHECK-NOT:     rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %[[DST]],
module {
  llvm.func @lds_uniform(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %wave, %c1024 : i32
    %xl = llvm.zext %x : i32 to i64
    %dst = llvm.getelementptr %lds[%xl] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
    %v = llvm.zext %lane : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %dst, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @lds_varying(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %x = llvm.mul %lane, %c1024 : i32
    %xl = llvm.zext %x : i32 to i64
    %dst = llvm.getelementptr %lds[%xl] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
    %v = llvm.zext %lane : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %dst, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A truncation keeps a value only where it fits: trunc(k) of the unbounded 64-bit counter
// may wrap to a negative i32: left alone.
// CHECK-LABEL: llvm.func @trunc_may_wrap
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @trunc_may_wrap(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %v = llvm.zext %lane : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %kt = llvm.trunc %k : i64 to i32
    %ks = llvm.sext %kt : i32 to i64
    %idx = llvm.add %v, %ks : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// and with -2^n clears the low n bits of any value: (wave*1024 + lane) & -64 is
// wave*1024, uniform (to soffset); and with another constant (-192) is not split: it
// stays whole in voffset (known to be within [0, wave*1024 + lane]).
// CHECK-LABEL: llvm.func @and_clears_low_bits
// CHECK:         rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @and_other_mask
// CHECK-NOT:     rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @and_clears_low_bits(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %cm64 = llvm.mlir.constant(-64 : i32) : i32
    %x = llvm.mul %wave, %c1024 : i32
    %xl = llvm.add %x, %lane : i32
    %m = llvm.and %xl, %cm64 : i32
    %ml = llvm.zext %m : i32 to i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %ml, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @and_other_mask(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %cm192 = llvm.mlir.constant(-192 : i32) : i32
    %x = llvm.mul %wave, %c1024 : i32
    %xl = llvm.add %x, %lane : i32
    %m = llvm.and %xl, %cm192 : i32
    %v = llvm.sext %m : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// floordiv(64*wave + lane, 64) is the wave (0 <= lane < 64): uniform; floordiv(64*wave +
// lane + 1, 128) is not floordiv(wave, 2) (lane + 1 reaches 64: lane 63 of wave 1 is in
// the next row): not uniform, it stays in voffset.
// CHECK-LABEL: llvm.func @floordiv_within_the_wave
// CHECK:         rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @floordiv_carries
// CHECK-NOT:     rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @floordiv_within_the_wave(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %w = llvm.udiv %tid, %c64 : i32
    %wl = llvm.zext %w : i32 to i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %wl, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @floordiv_carries(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %t1 = llvm.add %tid, %c1 : i32
    %w = llvm.udiv %t1, %c128 : i32
    %wl = llvm.zext %w : i32 to i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %wl, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A zero extension keeps a value's form only where it is non-negative: zext(lane - 100)
// is an unsigned 32-bit value (non-negative, in voffset as it is), not lane - 100.
// CHECK-LABEL: llvm.func @zext_of_negative
// CHECK:         %[[Z:.*]] = llvm.zext %{{.*}} : i32 to i64
// CHECK:         %[[V:.*]] = llvm.mul %[[Z]], %{{.*}} : i64
// CHECK-NEXT:    %[[VT:.*]] = llvm.trunc %[[V]] : i64 to i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %[[VT]],
module {
  llvm.func @zext_of_negative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %d = llvm.sub %lane, %c100 : i32
    %v = llvm.zext %d : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// mbcnt counts at most 32 lanes onto its accumulator: the lane id mbcnt.hi(-1,
// mbcnt.lo(-1, 0)) is in [0, 64]; onto an accumulator that may be near 2^31 (n / 2, n a
// kernel argument) it may wrap: left alone.
// CHECK-LABEL: llvm.func @mbcnt_lane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @mbcnt_may_wrap
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @mbcnt_lane(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %all = llvm.mlir.constant(-1 : i32) : i32
    %lo = rocdl.mbcnt.lo %all, %zero : (i32, i32) -> i32
    %id = rocdl.mbcnt.hi %all, %lo : (i32, i32) -> i32
    %v = llvm.sext %id : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @mbcnt_may_wrap(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %all = llvm.mlir.constant(-1 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %acc = llvm.lshr %n, %c1 : i32
    %lo = rocdl.mbcnt.lo %all, %acc : (i32, i32) -> i32
    %v = llvm.sext %lo : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// smax / smin fold where the ranges decide them (smax(wave*1024, 0) is wave*1024: to
// soffset) and are otherwise bounded by their operands: smin(lane - 30, 0) is in [-30, 0]:
// left alone.
// CHECK-LABEL: llvm.func @smax_decided
// CHECK:         rocdl.readfirstlane
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @smin_may_be_negative
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @smax_decided(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %x = llvm.mul %wave, %c1024 : i32
    %m = llvm.intr.smax(%x, %zero) : (i32, i32) -> i32
    %ml = llvm.zext %m : i32 to i64
    %lanel = llvm.zext %lane : i32 to i64
    %v = llvm.add %ml, %lanel : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @smin_may_be_negative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %c30 = llvm.mlir.constant(30 : i32) : i32
    %d = llvm.sub %lane, %c30 : i32
    %m = llvm.intr.smin(%d, %zero) : (i32, i32) -> i32
    %v = llvm.sext %m : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// The product of two values is bounded by the products of their bounds: lane * wave is
// in [0, 189]; (lane - 100) * wave can be negative: left alone.
// CHECK-LABEL: llvm.func @product
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-LABEL: llvm.func @product_may_be_negative
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @product(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %p = llvm.mul %lane, %wave : i32
    %v = llvm.sext %p : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.func @product_may_be_negative(%a: !llvm.ptr<1>, %n: i32, %kend: i64) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64l = llvm.mlir.constant(64 : i64) : i64
    %c4096 = llvm.mlir.constant(4096 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c100 = llvm.mlir.constant(100 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %c1024 = llvm.mlir.constant(1024 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %lane = llvm.urem %tid, %c64 : i32
    %d = llvm.sub %lane, %c100 : i32
    %p = llvm.mul %d, %wave : i32
    %v = llvm.sext %p : i32 to i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %v, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %next = llvm.add %k, %c64l : i64
    %more = llvm.icmp "slt" %next, %kend : i64
    llvm.cond_br %more, ^bb1(%next : i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A workgroup id with a range (sched-gpu-kernel gives the ids of an scf.forall over
// workgroups its static bounds): IREE's row offset of a tile cut at the edge,
// wg * 128 + min(1000 - wg * 128, 0), is then provably non-negative (the min is 0 for
// wg < 8) and goes into soffset.
// CHECK-LABEL: llvm.func @workgroup_range
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-NOT:     rocdl.load.to.lds
module {
  llvm.func @workgroup_range(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c128 = llvm.mlir.constant(128 : i64) : i64
    %c1000 = llvm.mlir.constant(1000 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg32 = rocdl.workgroup.id.x range <i32, 0, 8> : i32
    %wg = llvm.zext %wg32 : i32 to i64
    %row = llvm.mul %wg, %c128 : i64
    %left = llvm.sub %c1000, %row : i64
    %shift = llvm.intr.smin(%left, %c0) : (i64, i64) -> i64
    %base = llvm.add %row, %shift : i64
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    %idx = llvm.add %lane, %base : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// Left alone: the same offset with a workgroup id of no range (any id the grid allows:
// the min may be negative).
// CHECK-LABEL: llvm.func @workgroup_no_range
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
// CHECK:         rocdl.load.to.lds
module {
  llvm.func @workgroup_no_range(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c128 = llvm.mlir.constant(128 : i64) : i64
    %c1000 = llvm.mlir.constant(1000 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg32 = rocdl.workgroup.id.x : i32
    %wg = llvm.zext %wg32 : i32 to i64
    %row = llvm.mul %wg, %c128 : i64
    %left = llvm.sub %c1000, %row : i64
    %shift = llvm.intr.smin(%left, %c0) : (i64, i64) -> i64
    %base = llvm.add %row, %shift : i64
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.zext %tid : i32 to i64
    %idx = llvm.add %lane, %base : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// A copy whose offset is not split (here a row kept in range by an undecided select, the
// kept row mask of IREE's copies) still has its uniform LDS address made scalar: the
// wave's index through readfirstlane once, each copy's index the sum of it and its
// constant (LLVM then fills M0 with one scalar add per copy, not a vector add and a
// v_readfirstlane). The copies stay rocdl.load.to.lds.
// CHECK-LABEL: llvm.func @lds_uniform_unsplit
// CHECK:         %[[WAVE:.*]] = llvm.udiv
// CHECK-NEXT:    %[[W:.*]] = rocdl.readfirstlane %[[WAVE]] : i32
// CHECK:         %[[C0:.*]] = llvm.mlir.constant(512 : i32) : i32
// CHECK-NEXT:    %[[X0:.*]] = llvm.mul %[[W]], %[[C0]] : i32
// CHECK-NEXT:    %[[L0:.*]] = llvm.sext %[[X0]] : i32 to i64
// CHECK-NEXT:    %[[D0:.*]] = llvm.getelementptr %{{.*}}[%[[L0]]] : (!llvm.ptr<3>, i64)
// CHECK:         %[[C1:.*]] = llvm.mlir.constant(512 : i32) : i32
// CHECK-NEXT:    %[[X1:.*]] = llvm.mul %[[W]], %[[C1]] : i32
// CHECK-NEXT:    %[[K1:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT:    %[[S1:.*]] = llvm.add %[[X1]], %[[K1]] : i32
// CHECK-NEXT:    %[[L1:.*]] = llvm.sext %[[S1]] : i32 to i64
// CHECK-NEXT:    %[[D1:.*]] = llvm.getelementptr %{{.*}}[%[[L1]]] : (!llvm.ptr<3>, i64)
// CHECK-NOT:     rocdl.readfirstlane
// CHECK:         rocdl.load.to.lds %{{.*}}, %[[D0]], 16
// CHECK:         rocdl.load.to.lds %{{.*}}, %[[D1]], 16
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @lds_uniform_unsplit(%a: !llvm.ptr<1>, %n: i32, %rows: i64) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c512 = llvm.mlir.constant(512 : i64) : i64
    %c2048 = llvm.mlir.constant(2048 : i64) : i64
    %c192 = llvm.mlir.constant(192 : i64) : i64
    %oob = llvm.mlir.constant(100000 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %wave = llvm.udiv %tid, %c64 : i32
    %wl = llvm.zext %wave : i32 to i64
    %x0 = llvm.mul %wl, %c512 : i64
    %x1 = llvm.add %x0, %c2048 : i64
    %tl = llvm.zext %tid : i32 to i64
    %in = llvm.icmp "ult" %tl, %rows : i64
    %row = llvm.mul %tl, %c192 : i64
    %off = llvm.select %in, %row, %oob : i1, i64
    %src = llvm.getelementptr %rsrc[%off] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    %d0 = llvm.getelementptr %lds[%x0] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
    %d1 = llvm.getelementptr %lds[%x1] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
    rocdl.load.to.lds %src, %d0, 16, 0, 0 : <7>
    rocdl.load.to.lds %src, %d1, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}
