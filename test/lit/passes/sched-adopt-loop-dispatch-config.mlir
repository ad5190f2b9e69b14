// IREE's late form states the launch again in the `iree_codegen.dispatch_config` op beside
// the kernel: `workgroup_size`, which IREE's ROCDL translation makes the kernel's required
// workgroup size (the launch's), and `subgroup_size`. The front end builds and emulates the
// kernel on the function's own size (gpu.known_block_size here), over which IREE
// distributed its code; a dispatch_config that says otherwise is refused at it (finding
// 126 of docs/iree-audits.md: built and emulated for 256 threads before, exit 0, where
// IREE launches 128). Inputs/iree-f16-ab-100x24x520.late.mlir, whose dispatch_config
// agrees, is adopted:
// RUN: pipeline-opt %S/Inputs/iree-f16-ab-100x24x520.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=AGREE
// AGREE: func.func @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>
// AGREE: sched.schedule = "4wave"
// AGREE: iree_codegen.dispatch_config @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32 workgroup_size = [256, 1, 1] subgroup_size = 64 {
//
// Its workgroup_size made [128, 1, 1], then [256, 1, 999999999]:
// RUN: sed 's/workgroup_size = \[256, 1, 1\] subgroup_size = 64 {/workgroup_size = [128, 1, 1] subgroup_size = 64 {/' %S/Inputs/iree-f16-ab-100x24x520.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: <stdin>:300:9: error: sched-adopt-loop: 'iree_codegen.dispatch_config' op: workgroup_size = [128, 1, 1], with which IREE launches @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32, is not the workgroup size the function states (gpu.known_block_size = [256, 1, 1]), over which its code is distributed
// RUN: sed 's/workgroup_size = \[256, 1, 1\] subgroup_size = 64 {/workgroup_size = [256, 1, 999999999] subgroup_size = 64 {/' %S/Inputs/iree-f16-ab-100x24x520.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: <stdin>:300:9: error: sched-adopt-loop: 'iree_codegen.dispatch_config' op: workgroup_size = [256, 1, 999999999], with which IREE launches
//
// Its subgroup_size made 32:
// RUN: sed 's/workgroup_size = \[256, 1, 1\] subgroup_size = 64 {/workgroup_size = [256, 1, 1] subgroup_size = 32 {/' %S/Inputs/iree-f16-ab-100x24x520.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=WAVE32
// WAVE32: <stdin>:300:9: error: sched-adopt-loop: 'iree_codegen.dispatch_config' op: subgroup_size = 32 for @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32, but the target runs waves of 64 lanes
//
// A loop too short to pipeline runs as written, and its kernel's launch is checked too
// (built for 256 threads before, exit 0): its 65 K steps made 1, the dispatch_config agreeing,
// then saying 128 threads:
// RUN: sed 's/to %%c65_i32 step %%c1_i32/to %%c1_i32 step %%c1_i32/' %S/Inputs/iree-f16-ab-100x24x520.late.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: iree_codegen.dispatch_config @matmul_dispatch_0_matmul_100x24x520_f16xf16xf32 workgroup_size = [256, 1, 1]
// SHORT: warning: sched-adopt-loop: the K-loop is not pipelined: the K-loop runs 1 K step
// RUN: sed -e 's/to %%c65_i32 step %%c1_i32/to %%c1_i32 step %%c1_i32/' -e 's/workgroup_size = \[256, 1, 1\] subgroup_size = 64 {/workgroup_size = [128, 1, 1] subgroup_size = 64 {/' %S/Inputs/iree-f16-ab-100x24x520.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=SHORTHALF
// SHORTHALF: <stdin>:300:9: error: sched-adopt-loop: 'iree_codegen.dispatch_config' op: workgroup_size = [128, 1, 1], with which IREE launches
// SHORTHALF-NOT: warning
