// RUN: pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=4wave})' | FileCheck %s --check-prefix=FOUR
// RUN: pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=single-buffer T=1})' | FileCheck %s --check-prefix=SB
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-import{schedule=4wave BM=256})' | FileCheck %s
// RUN: pipeline-opt %S/Inputs/import-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-import{schedule=4wave BM=256})'
// RUN: not pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import)' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-import{schedule=4wave BX=1})' 2>&1 | FileCheck %s --check-prefix=OPT

// sched-import names the schedule of each sched.pipeline (schedule + options
// attributes), or, in an empty module, creates the schedule's default logical
// body (what `pipeline-opt --pipeline=NAME` compiles without an input).

// The default 4-wave body: 8 blocks of [global load, fragment load, MMA].
// FOUR:      module {
// FOUR-NEXT:   "sched.pipeline"() ({
// FOUR-NEXT:     "sched.global_load"() {channel = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64} : () -> ()
// FOUR-NEXT:     "sched.frag_load"() {channel = 1 : i64, stage = 0 : i64, subtile = 1 : i64} : () -> ()
// FOUR-NEXT:     "sched.mma"() {stage = 0 : i64, subtile = 0 : i64} : () -> ()
// FOUR-COUNT-7:  "sched.mma"()
// FOUR-NEXT:   }) {options = {}, schedule = "4wave"} : () -> ()
// FOUR-NEXT: }

// The single-buffer T=1 body, options kept on the op.
// SB:      "sched.pipeline"() ({
// SB-NEXT:   "sched.global_load"() {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64} : () -> ()
// SB-NEXT:   "sched.lds_store"() {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64} : () -> ()
// SB-NEXT:   "sched.barrier"() : () -> ()
// SB-NEXT:   "sched.frag_load"() {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64} : () -> ()
// SB-NEXT:   "sched.mma"() {stage = 0 : i64, subtile = 0 : i64} : () -> ()
// SB-NEXT: }) {options = {T = 1 : i64}, schedule = "single-buffer"} : () -> ()

// A pipeline without a schedule gets the pass's schedule and options.
// CHECK-LABEL: module @unnamed
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.mma"() {stage = 0 : i64, subtile = 0 : i64} : () -> ()
// CHECK-NEXT:    }) {options = {BM = 256 : i64}, schedule = "4wave"} : () -> ()
module @unnamed {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
  }) : () -> ()
}

// -----

// A pipeline that already names the same schedule and options is kept as it
// is, whatever the spelling (BN = 128 is the default).
// CHECK-LABEL: module @agrees
// CHECK:         }) {options = {BM = 256 : i64, BN = 128 : i64}, schedule = "4wave"} : () -> ()
module @agrees {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
  }) {schedule = "4wave", options = {BM = 256, BN = 128}} : () -> ()
}

// ERR: error: sched-import: the input is empty and sched-import was given no schedule=NAME to create a default body from
// OPT: pipeline-opt: error: pipeline '4wave': unknown option 'BX'; valid keys: dtype, BM, BN, BK,
