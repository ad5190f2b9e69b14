// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-buffer-soffset)' | FileCheck %s

// sched-buffer-soffset takes an i32 add for a sum only when its range fits 32 bits or the
// op's own overflow flags say nsw. Here the uniform part (a kernel argument halved, up to
// 2^31 - 1) plus the lane's part (up to 16320) may exceed 2^31 - 1.

// The op says nsw: the add is the exact sum, and the uniform half goes into soffset.
// CHECK-LABEL: llvm.func @nsw_flag
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-NOT:     rocdl.load.to.lds
module {
  llvm.func @nsw_flag(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.mul %tid, %c64 : i32
    %half = llvm.lshr %n, %c1 : i32
    %idx = llvm.add %lane, %half overflow<nsw> : i32
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// Left alone: the same add without nsw, carrying a string attribute whose text reads
// "overflow<nsw>" (a note, not the op's flags): the sum may wrap, so it is no sum.
// CHECK-LABEL: llvm.func @nsw_in_a_string
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @nsw_in_a_string(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.mul %tid, %c64 : i32
    %half = llvm.lshr %n, %c1 : i32
    %idx = llvm.add %lane, %half {note = "overflow<nsw>"} : i32
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// Left alone: nuw alone says nothing of the signed sum.
// CHECK-LABEL: llvm.func @nuw_only
// CHECK:         rocdl.load.to.lds
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
module {
  llvm.func @nuw_only(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %lane = llvm.mul %tid, %c64 : i32
    %half = llvm.lshr %n, %c1 : i32
    %idx = llvm.add %lane, %half overflow<nuw> : i32
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}
