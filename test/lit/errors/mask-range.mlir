// RUN: not pipeline-opt --pipeline='pingpong{sched_barrier_mask=4294967296}' --emit=schedule 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not pipeline-opt --pipeline='pingpong{sched_barrier_mask=256}' 2>&1 | FileCheck %s --check-prefix=BIT8
// RUN: not pipeline-opt --pipeline='pingpong{drain_lgkm_mask=0x100}' --emit=asm 2>&1 | FileCheck %s --check-prefix=DRAIN
// RUN: not pipeline-opt %s --pass-pipeline='builtin.module(sched-verify)' 2>&1 | FileCheck %s --check-prefix=IR
// RUN: pipeline-opt --pipeline='pingpong{sched_barrier_mask=0xff drain_lgkm_mask=255}' --emit=schedule | FileCheck %s --check-prefix=OK

// The block masks of the double-buffer schedules have a bit per MMA block (8 blocks):
// a value with a bit above them is an error naming the option and its range, in a spec
// and in the IR alike; it used to build the kernel of the mask's low bits
// (4294967296 = 1 << 32 built the kernel of mask 0).

// SPEC:  pipeline-opt: error: pipeline 'pingpong': option 'sched_barrier_mask' is out of range: expects an integer in 0..255, got 4294967296
// BIT8:  pipeline-opt: error: pipeline 'pingpong': option 'sched_barrier_mask' is out of range: expects an integer in 0..255, got 256
// DRAIN: pipeline-opt: error: pipeline 'pingpong': option 'drain_lgkm_mask' is out of range: expects an integer in 0..255, got 256
// IR:    mask-range.mlir:18:1: error: sched-verify: {{.*}}option 'sched_barrier_mask' is out of range: expects an integer in 0..255, got 4294967296
// OK:    KERNEL (

"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "pingpong", options = {sched_barrier_mask = 4294967296 : i64}} : () -> ()
