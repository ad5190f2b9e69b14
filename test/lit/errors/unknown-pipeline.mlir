// RUN: not pipeline-opt --pipeline=8wave 2>&1 | FileCheck %s
// RUN: not pipeline-opt --pipeline='' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not pipeline-opt %s --pipeline=pingpong-fp8 2>&1 | FileCheck %s --check-prefix=INPUT

// CHECK: pipeline-opt: error: unknown pipeline '8wave' (did you mean '4wave'?); known pipelines: pingpong, 4wave, single-buffer
// EMPTY: pipeline-opt: error: empty pipeline spec (expected NAME or NAME{key=value ...})
// INPUT: pipeline-opt: error: unknown pipeline 'pingpong-fp8'

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) : () -> ()
