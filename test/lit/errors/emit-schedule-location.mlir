// --emit=schedule on a pipeline that is not in state "phases" names the op's location.

// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate)' --emit=schedule 2>&1 | FileCheck %s

// CHECK: emit-schedule-location.mlir:7:1: error: --emit=schedule: 'sched.pipeline' op is in state "annotated"; printing the schedule needs state "phases"

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
