// The spellings mlir-opt users bring.
// RUN: pipeline-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(sched-verify)' -emit=mlir
// RUN: pipeline-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: pipeline-opt -version | FileCheck %s --check-prefix=VERSION
// RUN: pipeline-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: pipeline-opt --help-list | FileCheck %s --check-prefix=HELP
// RUN: pipeline-opt %s -split-input-file --pass-pipeline='builtin.module(sched-annotate,cse)' -mlir-print-ir-before=cse --mlir-print-ir-after=sched-annotate -o %t 2>&1 | FileCheck %s --check-prefix=FILTER
// RUN: pipeline-opt %s -split-input-file --pass-pipeline='builtin.module(sched-annotate,cse)' --mlir-print-ir-before-all -o %t 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate,cse)' --mlir-print-ir-after=sched-anotate 2>&1 | FileCheck %s --check-prefix=NOPASS
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after=cse 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: pipeline-opt %s -split-input-file --pass-pipeline='builtin.module(sched-annotate)' --mlir-disable-threading | FileCheck %s --check-prefix=THREADS
// RUN: pipeline-opt %S/Inputs/dense.mlir --mlir-elide-elementsattrs-if-larger=4 | FileCheck %s --check-prefix=ELIDE
// RUN: pipeline-opt %S/Inputs/dense.mlir | FileCheck %s --check-prefix=FULL
// RUN: not pipeline-opt %S/Inputs/dense.mlir --mlir-elide-elementsattrs-if-larger=many 2>&1 | FileCheck %s --check-prefix=BADN
// RUN: not pipeline-opt %s -bogus-flag 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// VERSION: pipeline-opt (pipeline-mlir {{[0-9.]+}})
// VERSION: MLIR: iree-base-compiler {{[0-9.]+}}
// VERSION: LLVM code generation: llvmlite {{[0-9.]+}}

// LIST: named pipelines
// LIST: pingpong:
// LIST: passes (--pass-pipeline
// LIST: sched-verify
// LIST: sched-fix-hazards

// HELP: usage: pipeline-opt

// FILTER:      // -----// IR Dump After sched-annotate //----- //
// FILTER-NEXT: module {
// FILTER:      state = "annotated"
// FILTER:      // -----// IR Dump Before cse //----- //
// FILTER-NEXT: module {
// FILTER-NOT:  IR Dump

// BEFORE: IR Dump Before sched-annotate
// BEFORE: IR Dump Before CSEPass

// NOPASS: pipeline-opt: error: --mlir-print-ir-after=sched-anotate: the pipeline has no pass 'sched-anotate' (did you mean 'sched-annotate'?) (its passes: sched-annotate, cse)
// NESTED: pipeline-opt: error: --mlir-print-ir-after=cse: 'cse' runs inside a nested pipeline

// THREADS: state = "annotated"

// ELIDE: dense_resource<__elided__>
// FULL:  dense<[1, 2, 3, 4, 5, 6, 7, 8]>
// BADN:  pipeline-opt: error: argument --mlir-elide-elementsattrs-if-larger: expected a count >= 0, got 'many'
// UNKNOWN: pipeline-opt: error: unrecognized arguments: -bogus-flag

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "single-buffer", options = {T = 1}} : () -> ()
