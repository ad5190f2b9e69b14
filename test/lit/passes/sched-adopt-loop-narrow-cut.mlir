// sched-adopt-loop on IREE's f16 A x B 100x17x520 (Inputs/iree-f16-ab-100x17x520.*.mlir,
// test/data/iree/generate.py LIT_INPUTS): N = 17 is one 32-wide tile; B (K x N) is copied
// one 2-byte element per lane through registers, each kept by its column's select
// (min(17 - col, 1)), which no direct-to-LDS copy moves. The front end's own copies of B
// (4 K steps merged) move 2 elements per lane, and the row's end cuts the run at columns
// 16 and 17 at 1: the cut is read off the kernel's mask and each run copied in pieces of
// one element, register-staged, the lanes a run apart, each kept where it lies inside the
// row (frontend/layout.py, _kept_cuts), proven the kernel's over the grid. One schedule
// from both forms; exact (late mode here, the grid's one workgroup; random mode, and both
// forms against their unpipelined builds, by hand). Before: refused from both forms at
// B's read (`... LDS element 16 gets global element 16 from the kernel's copies and zero
// from the front end's ...`; test_cut_runs.py refuses the runs copied whole so):
// RUN: pipeline-opt %S/Inputs/iree-f16-ab-100x17x520.prefetch.mlir --pipeline=4wave --emulate --emulate-mode=late 2>&1 | FileCheck %s
// CHECK: M=100 N=17 K=520 mode=late: exact, max error 0, 1 workgroups x 4 waves
// RUN: pipeline-opt %S/Inputs/iree-f16-ab-100x17x520.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: scf.for
// LATE: amdgpu.gather_to_lds {{.*}}channel = 1 : i64, {{.*}}subtile = 0 : i64}, sched.kept_mask, sched.lane_stride = 2 : i64, sched.register_staged} : vector<1xf16>, memref<520x17xf16
// LATE: amdgpu.gather_to_lds {{.*}}channel = 1 : i64, {{.*}}subtile = 0 : i64}, sched.kept_mask, sched.lane_stride = 2 : i64, sched.register_staged} : vector<1xf16>, memref<520x17xf16
