// --emit=schedule-json through MLIR keeps the CSP scheduler's result.

// RUN: pipeline-opt %S/Inputs/empty.mlir --emit=schedule-json --pass-pipeline='builtin.module(sched-import{schedule=pingpong},sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases)' | FileCheck %s
// RUN: pipeline-opt --pipeline=pingpong --emit=schedule-json --mlir-timing 2>%t.timing | FileCheck %s

// CHECK:      "scheduling": "CSP",
// CHECK-NEXT: "scheduler": {
// CHECK-NEXT:   "makespan": 420,
// CHECK:        "lower_bound": 420,
// CHECK-NEXT:   "proven_optimal": true,
