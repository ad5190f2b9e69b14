// The mlir-opt flags RUN lines copied from mlir-opt use.
// RUN: pipeline-opt %s -allow-unregistered-dialect -pass-pipeline='builtin.module(sched-annotate)' | FileCheck %s --check-prefix=UNREG
// RUN: pipeline-opt %s -dump-pass-pipeline -pass-pipeline='builtin.module(sched-annotate,cse)' -o %t 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not pipeline-opt %s -mlir-print-ir-after-failure -pass-pipeline='builtin.module(sched-annotate,sched-schedule)' 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: pipeline-opt %s -mlir-print-op-generic -pass-pipeline='builtin.module(sched-annotate)' | FileCheck %s --check-prefix=GENERIC
// RUN: pipeline-opt %s -mlir-print-debuginfo -pass-pipeline='builtin.module(sched-annotate)' | FileCheck %s --check-prefix=LOC
// RUN: pipeline-opt %s -mlir-print-debuginfo -mlir-print-local-scope -pass-pipeline='builtin.module(sched-annotate)' | FileCheck %s --check-prefix=LOCAL
// RUN: pipeline-opt %s -mlir-print-debuginfo -mlir-pretty-debuginfo -pass-pipeline='builtin.module(sched-annotate)' | FileCheck %s --check-prefix=PRETTY
// RUN: pipeline-opt %s -mlir-print-op-generic -mlir-print-ir-after=sched-annotate -pass-pipeline='builtin.module(sched-annotate)' -o %t 2>&1 | FileCheck %s --check-prefix=DUMPGENERIC

// UNREG: state = "annotated"

// DUMP:      Pass Manager with 2 passes:
// DUMP-NEXT: builtin.module(sched-annotate,cse)

// FAIL-NOT:  IR Dump After sched-annotate
// FAIL:      // -----// IR Dump After sched-schedule Failed
// FAIL:      state = "annotated"
// FAIL:      error: sched-schedule: 'sched.pipeline' op is in state "annotated" but this pass needs "edges"

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "sched.pipeline"() ({

// LOC:   "sched.mma"() {{.*}} loc([[MMA:#loc[0-9]*]])
// LOC:   [[MMA]] = loc({{.*}}:{{[0-9]+}}:3)

// LOCAL: "sched.mma"() {{.*}} loc({{.*}}:{{[0-9]+}}:3)

// PRETTY: "sched.mma"() {{.*}} {{.*}}:{{[0-9]+}}:3

// DUMPGENERIC:      // -----// IR Dump After sched-annotate //----- //
// DUMPGENERIC-NEXT: "builtin.module"() ({

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
