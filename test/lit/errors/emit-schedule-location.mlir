// XFAIL: *
// BUG: --emit=schedule on a pipeline that is not in state "phases" prints
//   pipeline-opt: error: 'sched.pipeline' op is in state "annotated"; printing the schedule needs state "phases" (run up to sched-expand-phases)
// without the op's location, although the error names an op of the input
// (Job.emit raises IRError, main() reports it as a plain PipelineError).

// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate)' --emit=schedule 2>&1 | FileCheck %s

// CHECK: emit-schedule-location.mlir:11:1: error: {{.*}}'sched.pipeline' op is in state "annotated"; printing the schedule needs state "phases"

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
