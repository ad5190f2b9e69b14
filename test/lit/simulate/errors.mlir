// --simulate errors: one located line, exit status 1.
// RUN: not pipeline-opt --simulate %S/Inputs/pingpong_bf16_l2_2.txt 2>&1 | FileCheck %s --check-prefix=NOPIPE
// RUN: not pipeline-opt --simulate %S/Inputs/pingpong_bf16_l2_2.txt --pipeline=pingpong --emit=asm 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not pipeline-opt --simulate --pipeline=pingpong --report=timeline.pdf 2>&1 | FileCheck %s --check-prefix=PICTURE
// RUN: not pipeline-opt --simulate --pipeline=pingpong --cost-table=spice 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not pipeline-opt --pipeline=pingpong --report 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: not pipeline-opt --simulate --pipeline=single-buffer 2>&1 | FileCheck %s --check-prefix=SB
// RUN: not pipeline-opt --simulate %s --pipeline=pingpong 2>&1 | FileCheck %s --check-prefix=NOTDUMP
// RUN: not pipeline-opt --simulate %t.missing.txt --pipeline=pingpong 2>&1 | FileCheck %s --check-prefix=MISSING

// NOPIPE:  pipeline-opt: error: --simulate needs --pipeline=NAME{...}: the schedule kind and its per-load counts
// EMIT:    pipeline-opt: error: --simulate cannot be combined with --emit
// PICTURE: pipeline-opt: error: --report=timeline.pdf: the picture must be a .svg or .png file
// TABLE:   pipeline-opt: error: --cost-table=spice: choose llvm (LLVM's gfx950 SchedModel), measured (gfx950 latencies) or both
// ALONE:   pipeline-opt: error: --report goes with --simulate
// SB:      pipeline-opt: error: pipeline 'single-buffer': the simulator models the double-buffer kernels (4wave, pingpong)
// NOTDUMP: pipeline-opt: error: {{.*}}errors.mlir:1: expected 'WARP_STAGGER_INDEX <n>' as the first line of a schedule dump
// MISSING: pipeline-opt: error: cannot read '{{.*}}.missing.txt': No such file or directory
