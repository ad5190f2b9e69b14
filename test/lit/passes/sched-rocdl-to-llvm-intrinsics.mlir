// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-rocdl-to-llvm-intrinsics)' | FileCheck %s

// sched-rocdl-to-llvm-intrinsics (the LLVM step, after iree-convert-to-rocdl) turns
// every rocdl op of an llvm.func into a call of its llvm.amdgcn intrinsic; immediates
// become constants of their width (s.setprio is i16), a sched_group_mask its i32
// value, a result range the call's llvm.range.

// CHECK-LABEL: llvm.func @k
// CHECK:         llvm.call_intrinsic "llvm.amdgcn.workitem.id.x"() : () -> (i32 {llvm.range = #llvm.constant_range<i32, 0, 64>})
// CHECK:         %[[W:.*]] = llvm.mlir.constant(3952 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.amdgcn.s.waitcnt"(%[[W]]) : (i32) -> ()
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.constant(2 : i16) : i16
// CHECK-NEXT:    llvm.call_intrinsic "llvm.amdgcn.s.setprio"(%[[P]]) : (i16) -> ()
// CHECK-NEXT:    %[[M:.*]] = llvm.mlir.constant(136 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.amdgcn.sched.barrier"(%[[M]]) : (i32) -> ()
// CHECK-NEXT:    llvm.call_intrinsic "llvm.amdgcn.s.barrier"() : () -> ()
// CHECK-NOT:     rocdl.
// CHECK:         llvm.return
module {
  llvm.func @k(%n: i32) attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %tx = rocdl.workitem.id.x range <i32, 0, 64> : i32
    rocdl.s.waitcnt 3952
    rocdl.s.setprio 2
    rocdl.sched.barrier mfma_wmma|all_ds
    rocdl.s.barrier
    llvm.return
  }
}

// -----

// An op without a rewrite is an error at the op, and nothing is rewritten.
module {
  llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    rocdl.s.barrier
    // expected-error @+1 {{sched-rocdl-to-llvm-intrinsics: 'rocdl.s.wait.loadcnt' op has no rewrite to an LLVM intrinsic}}
    rocdl.s.wait.loadcnt 0
    llvm.return
  }
}
