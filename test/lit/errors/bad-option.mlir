// Bad values of a named pipeline's options: one line naming the pipeline, the
// option, what it expects and what it got; exit status 1.
// RUN: not pipeline-opt --pipeline='4wave{BM=abc}' 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not pipeline-opt --pipeline='4wave{BM=0}' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not pipeline-opt --pipeline='pingpong{vm_per_load_a=64}' 2>&1 | FileCheck %s --check-prefix=VMRANGE
// RUN: not pipeline-opt --pipeline='4wave{dtype=int4}' 2>&1 | FileCheck %s --check-prefix=ENUM
// RUN: not pipeline-opt --pipeline='4wave{fences=maybe}' 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not pipeline-opt --pipeline='4wave{foo=1}' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pipeline-opt --pipeline='4wave{BM=128 BM=256}' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not pipeline-opt --pipeline='4wave{BM}' 2>&1 | FileCheck %s --check-prefix=NOVALUE
// RUN: not pipeline-opt --pipeline='4wave{BM=128' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not pipeline-opt --pipeline='4wave{scheduling=csp}' 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: not pipeline-opt --pipeline='single-buffer{auto_waits=false}' 2>&1 | FileCheck %s --check-prefix=SBCONFIG
// RUN: not pipeline-opt --pipeline='4wave{dtype=fp8 BK=64}' 2>&1 | FileCheck %s --check-prefix=GEOMETRY
// Pass options in --pass-pipeline:
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-lower-to-rocdl{fence-waits=maybe})' 2>&1 | FileCheck %s --check-prefix=PASSBOOL
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-annotate{foo=1})' 2>&1 | FileCheck %s --check-prefix=PASSKEY

// NOTINT:   pipeline-opt: error: pipeline '4wave': option 'BM' expects an integer >= 1, got 'abc'
// RANGE:    pipeline-opt: error: pipeline '4wave': option 'BM' is out of range: expects an integer >= 1, got 0
// VMRANGE:  pipeline-opt: error: pipeline 'pingpong': option 'vm_per_load_a' is out of range: expects an integer in 1..63, got 64
// ENUM:     pipeline-opt: error: pipeline '4wave': option 'dtype' expects one of bf16|f16|fp8|i8|f32|mxfp4|mxfp8, got 'int4'
// BOOL:     pipeline-opt: error: pipeline '4wave': option 'fences' expects a boolean (true, false, 1 or 0), got 'maybe'
// UNKNOWN:  pipeline-opt: error: pipeline '4wave': unknown option 'foo'; valid keys: dtype, BM, BN, BK, vm_per_load_a,
// TWICE:    pipeline-opt: error: pipeline '4wave': option 'BM' given twice ('128' and '256')
// NOVALUE:  pipeline-opt: error: pipeline '4wave': option 'BM' has no value (expected BM=VALUE)
// SYNTAX:   pipeline-opt: error: pipeline spec '4wave{BM=128': missing closing '}' or text after it
// FIXED:    pipeline-opt: error: pipeline '4wave': option 'scheduling=csp' cannot be honoured: the schedule always uses scheduling=identity
// SBCONFIG: pipeline-opt: error: pipeline 'single-buffer': option 'auto_waits' is a ScheduleConfig field, but the single-buffer (depth 1) path never reads ScheduleConfig, so its keys are rejected; valid keys: T
// GEOMETRY: pipeline-opt: error: pipeline '4wave': geometry: BK by MMA_K must divide exactly (64 / 128)
// PASSBOOL: pipeline-opt: error: pass 'sched-lower-to-rocdl': option 'fence-waits' expects a boolean (true, false, 1 or 0), got 'maybe'
// PASSKEY:  pipeline-opt: error: pass 'sched-annotate': unknown option 'foo'; valid keys: none

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()
