// RUN: sed '101s/upper_bound 1024/upper_bound -1/' %S/../../data/iree/matmul_bf16_abt_4096.late.mlir | not pipeline-opt - --pipeline=4wave 2>&1 | FileCheck %s
// RUN: sed '101s/upper_bound 1024/upper_bound 0/' %S/../../data/iree/matmul_bf16_abt_4096.late.mlir | not pipeline-opt - --pipeline=4wave --emulate --emulate-workgroups=1 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: sed '101s/upper_bound 1024/upper_bound 1/' %S/../../data/iree/matmul_bf16_abt_4096.late.mlir | pipeline-opt - --pipeline=4wave --emit=schedule-json 2>&1 | FileCheck %s --check-prefix=ONE

// IREE's late form with its workgroup id's upper_bound made -1 or 0 (a text fuzz found it):
// no id is below such a bound, so the kernel has no grid. Before, the proof that the
// workgroups cover the output took a grid of -1 workgroups and the run ended in an internal
// error (numpy's "negative dimensions are not allowed"). One error at the op, for a
// compilation and for --emulate's build.
// CHECK: <stdin>:101:29: error: sched-adopt-loop: 'hal.interface.workgroup.id' op: its upper_bound bounds the workgroup id below -1, which no id is (a grid has at least workgroup 0)
// CHECK-NOT: error
// ZERO: <stdin>:101:29: error: {{.*}}'hal.interface.workgroup.id' op: its upper_bound bounds the workgroup id below 0, which no id is
// ZERO-NOT: internal error

// A bound of 1 (one workgroup along x) is a grid: pipelined.
// ONE: "schedule"
// ONE-NOT: error
