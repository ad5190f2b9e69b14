// Command-line errors: one line, exit status 1 (never argparse's usage + 2).
// RUN: not pipeline-opt --pipeline=4wave --emit=png 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not pipeline-opt --pipeline=4wave --mcpu=gfx942 2>&1 | FileCheck %s --check-prefix=MCPU
// RUN: pipeline-opt --pipeline=4wave --emit=asm --emit=schedule 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not pipeline-opt --pipeline=4wave --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pipeline-opt %s --pipeline=4wave --verify-diagnostics --emit=asm 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not pipeline-opt %t.does-not-exist.mlir --pipeline=4wave 2>&1 | FileCheck %s --check-prefix=MISSING

// EMIT:    pipeline-opt: error: unknown --emit kind 'png' (choose from mlir, llvm, asm, obj, hsaco, report, schedule, schedule-json)
// MCPU:    pipeline-opt: error: --mcpu=gfx942: unsupported processor (supported: gfx950; the cost models and MFMA shapes are gfx950's)
// A repeated flag takes its last value, as in mlir-opt.
// TWICE:   WARP_STAGGER_INDEX
// UNKNOWN: pipeline-opt: error: unrecognized arguments: --bogus
// VERIFY:  pipeline-opt: error: --verify-diagnostics works with --emit=mlir or schedule
// MISSING: pipeline-opt: error: cannot read '{{.*}}.does-not-exist.mlir': No such file or directory

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()
