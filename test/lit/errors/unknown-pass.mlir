// An unknown pass name in --pass-pipeline is a usage error naming the element.

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
