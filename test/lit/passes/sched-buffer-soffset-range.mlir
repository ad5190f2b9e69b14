// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-buffer-soffset)' | FileCheck %s

// sched-buffer-soffset moves a part of a copy's offset into soffset only where the copy's
// range check cannot depend on whether the hardware counts soffset in it (LLVM's AMDGPU
// documentation: it does not; the emulator: it does).  Each kernel: one wave per
// workgroup, lane l reads 8 bf16 (16 bytes) at element 8192 * workgroup + 8 * l + k, k
// the loop's K column (0, 64, ...); the buffer holds 65536 bytes (4 workgroups' rows of
// 16384 bytes), the workgroup id is unbounded.

// The K column stays within a row of 16384 bytes (the loop's guard bounds k by 7680
// elements: 15360 + 1008 + 16 bytes at most): the workgroup's rows stay in voffset (a multiple of the row, past the
// records exactly when the whole offset is) and the K column goes to soffset.
// CHECK-LABEL: llvm.func @k_within_the_row
// CHECK:       ^bb1(%[[K:.*]]: i64):
// CHECK:         %[[SB:.*]] = llvm.mul %[[K]], %{{.*}} : i64
// CHECK-NEXT:    %[[S:.*]] = llvm.trunc %[[SB]] : i64 to i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}}, 0
// CHECK-NOT:     rocdl.load.to.lds
module {
  llvm.func @k_within_the_row(%a: !llvm.ptr<1>) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(8192 : i64) : i64
    %kend = llvm.mlir.constant(7681 : i64) : i64
    %n = llvm.mlir.constant(65536 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %base, %k : i64
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

// The K column may reach the next row (its last value is 7936 elements, the greatest
// multiple of the step 64 below the guard's 8000: 15872 + 1008 + 16 bytes): in the last
// workgroup's row a lane in range by voffset alone would be past the records with soffset
// added.  Left alone.
// CHECK-LABEL: llvm.func @k_past_the_row
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
// CHECK:         rocdl.load.to.lds
module {
  llvm.func @k_past_the_row(%a: !llvm.ptr<1>) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(8192 : i64) : i64
    %kend = llvm.mlir.constant(8000 : i64) : i64
    %n = llvm.mlir.constant(65536 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %base, %k : i64
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

// Rows of 1024 elements (2048 bytes; the buffer holds 4 of them, 8192 bytes).  The guard
// alone bounds k by 519 elements (k + 64 < 520), past the row's end (1038 + 1008 + 16
// bytes); k is a multiple of the step 64 (it starts at 0), so its last value is 512 and
// the copy ends at the row's end (1024 + 1008 + 16 = 2048 bytes): split.
// CHECK-LABEL: llvm.func @k_last_step_within_the_row
// CHECK:       ^bb1(%[[K:.*]]: i64):
// CHECK:         %[[SB:.*]] = llvm.mul %[[K]], %{{.*}} : i64
// CHECK-NEXT:    %[[S:.*]] = llvm.trunc %[[SB]] : i64 to i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}}, 0
// CHECK-NOT:     rocdl.load.to.lds
module {
  llvm.func @k_last_step_within_the_row(%a: !llvm.ptr<1>) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(1024 : i64) : i64
    %kend = llvm.mlir.constant(520 : i64) : i64
    %n = llvm.mlir.constant(8192 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %base, %k : i64
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

// The same guard with k starting at 16: its values are 16 modulo 64, the last 7696
// elements, and the copy's last byte (15392 + 1008 + 16) is past the row.  Left alone.
// CHECK-LABEL: llvm.func @k_off_the_step_past_the_row
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
// CHECK:         rocdl.load.to.lds
module {
  llvm.func @k_off_the_step_past_the_row(%a: !llvm.ptr<1>) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(16 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(8192 : i64) : i64
    %kend = llvm.mlir.constant(7700 : i64) : i64
    %n = llvm.mlir.constant(65536 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %base, %k : i64
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

// A record count the pass does not know (a kernel argument): left alone.
// CHECK-LABEL: llvm.func @unknown_records
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
// CHECK:         rocdl.load.to.lds
module {
  llvm.func @unknown_records(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(8192 : i64) : i64
    %kend = llvm.mlir.constant(7681 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %base, %k : i64
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

// The same with sched.copies_in_range (a shipped kernel's launcher accepts only launches
// whose copies stay within their buffers): split without a proof of its own.
// CHECK-LABEL: llvm.func @unknown_records_in_range
// CHECK:         rocdl.raw.ptr.buffer.load.lds
// CHECK-NOT:     rocdl.load.to.lds
module {
  llvm.func @unknown_records_in_range(%a: !llvm.ptr<1>, %n: i32) attributes {rocdl.kernel, sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(8192 : i64) : i64
    %kend = llvm.mlir.constant(7681 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%k: i64):
    %idx = llvm.add %base, %k : i64
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

// The K column counted in i64 beside the loop's tested i32 trip counter, in step with it
// (both from 0 by 64; the pipelined loops count this way): the counter's guard bounds the
// column too (7680 elements at most, as @k_within_the_row's), so it goes to soffset.
// CHECK-LABEL: llvm.func @k_in_step_with_the_trip_counter
// CHECK:       ^bb1(%{{.*}}: i32, %[[K:.*]]: i64):
// CHECK:         %[[SB:.*]] = llvm.mul %[[K]], %{{.*}} : i64
// CHECK-NEXT:    %[[S:.*]] = llvm.trunc %[[SB]] : i64 to i32
// CHECK:         rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}}, 0
// CHECK-NOT:     rocdl.load.to.lds
module {
  llvm.func @k_in_step_with_the_trip_counter(%a: !llvm.ptr<1>) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %i0 = llvm.mlir.constant(0 : i32) : i32
    %i64 = llvm.mlir.constant(64 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(8192 : i64) : i64
    %iend = llvm.mlir.constant(7681 : i32) : i32
    %n = llvm.mlir.constant(65536 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%i0, %c0 : i32, i64)
  ^bb1(%i: i32, %k: i64):
    %idx = llvm.add %base, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %inext = llvm.add %i, %i64 : i32
    %next = llvm.add %k, %c64 : i64
    %more = llvm.icmp "slt" %inext, %iend : i32
    llvm.cond_br %more, ^bb1(%inext, %next : i32, i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}

// -----

// The same with the K column stepping by 128 while the counter steps by 64: not in step,
// nothing bounds the column (it reaches 15360 elements, the next row).  Left alone.
// CHECK-LABEL: llvm.func @k_out_of_step_with_the_trip_counter
// CHECK-NOT:     rocdl.raw.ptr.buffer.load.lds
// CHECK:         rocdl.load.to.lds
module {
  llvm.func @k_out_of_step_with_the_trip_counter(%a: !llvm.ptr<1>) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c128 = llvm.mlir.constant(128 : i64) : i64
    %i0 = llvm.mlir.constant(0 : i32) : i32
    %i64 = llvm.mlir.constant(64 : i32) : i32
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %rows = llvm.mlir.constant(8192 : i64) : i64
    %iend = llvm.mlir.constant(7681 : i32) : i32
    %n = llvm.mlir.constant(65536 : i32) : i32
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %lds = llvm.mlir.addressof @buf : !llvm.ptr<3>
    %tid = rocdl.workitem.id.x range <i32, 0, 64> : i32
    %wg = rocdl.workgroup.id.x : i32
    %rsrc = rocdl.make.buffer.rsrc %a, %stride, %n, %flags : <1>, i32 to <7>
    %t = llvm.zext %tid : i32 to i64
    %lane = llvm.mul %t, %c8 : i64
    %w = llvm.zext %wg : i32 to i64
    %row = llvm.mul %w, %rows : i64
    %base = llvm.add %row, %lane : i64
    llvm.br ^bb1(%i0, %c0 : i32, i64)
  ^bb1(%i: i32, %k: i64):
    %idx = llvm.add %base, %k : i64
    %src = llvm.getelementptr %rsrc[%idx] : (!llvm.ptr<7>, i64) -> !llvm.ptr<7>, bf16
    rocdl.load.to.lds %src, %lds, 16, 0, 0 : <7>
    %inext = llvm.add %i, %i64 : i32
    %next = llvm.add %k, %c128 : i64
    %more = llvm.icmp "slt" %inext, %iend : i32
    llvm.cond_br %more, ^bb1(%inext, %next : i32, i64), ^bb2
  ^bb2:
    llvm.return
  }
  llvm.mlir.global internal @buf() {addr_space = 3 : i32} : !llvm.array<4096 x bf16>
}
