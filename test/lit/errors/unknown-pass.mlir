// XFAIL: *
// BUG: an unknown pass name in --pass-pipeline is reported as an internal
// error: "pipeline-opt: error: internal error: ValueError: MLIR Textual
// PassPipeline Parser:1:1: error: 'sched-frobnicate' does not refer to a
// registered pass or pass pipeline sched-frobnicate ^ (please report it; set
// PIPELINE_OPT_TRACEBACK=1 for the traceback)". A misspelt pass is a usage
// error, not a bug of the tool: the message should name the pass, without
// "internal error" and "please report it".

// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-frobnicate)' > %t 2>&1
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=CLEAN < %t
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-verify,nosuchpass)' > %t.upstream 2>&1
// RUN: FileCheck %s --check-prefix=UPSTREAM < %t.upstream
// RUN: FileCheck %s --check-prefix=CLEAN < %t.upstream

// CHECK:      pipeline-opt: error: {{.*}}'sched-frobnicate'
// UPSTREAM:   pipeline-opt: error: {{.*}}'nosuchpass'
// CLEAN-NOT:  internal error
// CLEAN-NOT:  please report

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()
