// RUN: pipeline-opt --pass-pipeline='builtin.module(sched-annotate)' < %s | FileCheck %s
// RUN: pipeline-opt - --pipeline='single-buffer{T=1}' --emit=schedule < %s | FileCheck %s --check-prefix=SCHED
// RUN: not pipeline-opt - --pass-pipeline='builtin.module(sched-reorder)' < %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not pipeline-opt --split-input-file --pass-pipeline='builtin.module(sched-verify)' < %S/split-input-file.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT

// Input from stdin: with --pass-pipeline and no file, or with `-`. Errors are
// located in "<stdin>".

// CHECK: state = "annotated"
// SCHED: KERNEL (38 entries)
// ERR:   <stdin>:15:1: error: sched-reorder: 'sched.pipeline' op is in state "logical" but this pass needs "annotated": run sched-annotate first
// SPLIT: <stdin>:46:24: error: expected ':' followed by operation type
// SPLIT: <stdin>:53:3: error: sched-verify: 'sched.mma' op attribute 'stage' must be >= 0, got -1

"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.barrier"() : () -> ()
  "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
