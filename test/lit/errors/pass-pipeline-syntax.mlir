// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate' 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s --pipeline=4wave --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=BOTH

// CHECK: pipeline-opt: error: unbalanced brackets in pass pipeline 'builtin.module(sched-annotate'

// A named pipeline is itself a pass pipeline: the two options exclude each other.
// BOTH: pipeline-opt: error: --pipeline and --pass-pipeline cannot be combined (a named pipeline is a pass pipeline; list its passes with --help)

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()
