// RUN: pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=4wave},sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,sched-fix-hazards)' | FileCheck %s
// RUN: pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=4wave},sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,sched-fix-hazards,sched-verify,sched-fix-hazards)' | FileCheck %s
// RUN: pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=pingpong},sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases)' -o %t.before
// RUN: pipeline-opt %t.before --pass-pipeline='builtin.module(sched-fix-hazards)' -o %t.after
// RUN: diff %t.before %t.after
// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-fix-hazards)'
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-fix-hazards)' 2>&1 | FileCheck %s --check-prefix=STATE
// RUN: not pipeline-opt %t.before --pass-pipeline='builtin.module(sched-fix-hazards{max-iterations=0})' 2>&1 | FileCheck %s --check-prefix=ITER
// RUN: sed 's/%ub0 = arith.constant 128 : index/%ub0 = arith.constant 2 : index/' %S/Inputs/natural-4wave.mlir | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave},sched-import,sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,sched-fix-hazards)' | FileCheck %s --check-prefix=STRAIGHT
// RUN: sed 's/%ub0 = arith.constant 128 : index/%ub0 = arith.constant 2 : index/' %S/Inputs/natural-4wave.mlir | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave},sched-import,sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,sched-fix-hazards,sched-fix-hazards)' | FileCheck %s --check-prefix=STRAIGHT
// RUN: sed 's/%ub0 = arith.constant 128 : index/%ub0 = arith.constant 4 : index/' %S/Inputs/natural-4wave.mlir | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave},sched-import,sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,sched-fix-hazards)' | FileCheck %s --check-prefix=ONETRIP

// sched-fix-hazards simulates the expanded phases as the complete kernel runs
// them (0..6 main-loop iterations) and inserts the waits and barriers that
// remove every hazard. The 4-wave BF16 schedule gets four fixes: the top-of-half
// lgkmcnt(4) becomes lgkmcnt(0) in both halves (the previous half's last B
// fragment read must have completed in every wave before the barrier, because
// the next B prefetch overwrites its slot), and the epilogue gains a barrier
// before its first fragment read and one after its vmcnt(0) (every wave waited
// for the last loads, but no barrier made the other waves' rows visible). Last,
// the loop's final vmcnt(8), which only an MMA separates from the vmcnt(8) at the
// loop's head, leaves the loop with the two sched_barriers around it: the epilogue
// starts with it instead.

// CHECK-LABEL: "sched.kernel"() ({
// CHECK-NEXT:      "sched.sched_barrier"() {block = 0 : i64}
// CHECK-NEXT:      "sched.wait_vm"() {block = 0 : i64, count = 8 : i64}
// CHECK-NEXT:      "sched.wait_lgkm"() {block = 0 : i64, count = 0 : i64}
// CHECK-NEXT:      "sched.barrier"() {block = 0 : i64}
// CHECK:           "sched.wait_vm"() {block = 4 : i64, count = 8 : i64}
// CHECK-NEXT:      "sched.wait_lgkm"() {block = 4 : i64, count = 0 : i64}
// CHECK-NEXT:      "sched.barrier"() {block = 4 : i64}
// CHECK:           "sched.global_load"() {block = 7 : i64, channel = 0 : i64, k_offset = "k1"
// CHECK-NEXT:      "sched.mma"() {block = 7 : i64
// CHECK-NEXT:    }) : () -> ()
// CHECK-LABEL: "sched.epilogue"() ({
// CHECK-NEXT:      "sched.wait_vm"() {count = 8 : i64}
// CHECK-NEXT:      "sched.wait_lgkm"() {count = 0 : i64}
// CHECK-NEXT:      "sched.barrier"()
// CHECK-NEXT:      "sched.sched_barrier"()
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64
// CHECK-NEXT:      "sched.wait_vm"() {count = 0 : i64}
// CHECK-NEXT:      "sched.barrier"()
// CHECK-NEXT:      "sched.sched_barrier"()
// CHECK-NEXT:      "sched.mma"()
// CHECK:         state = "phases", warp_stagger_index = 15 : i64

// A natural loop of two K tiles (the example kernel at K = 64): the pipelined loop's
// constant bounds leave its main loop no trip, the prologue and the epilogue run back to
// back (lowering/straight_pair.py). The epilogue's vmcnt waits are derived for that path:
// its copies are the prologue's, tile 0's four then tile 1's four, so the first read waits
// for tile 0's (vmcnt(4), tile 1's left in flight under tile 0's first two MMAs) and the
// first read of tile 1 for the rest (vmcnt(0)), each with its barrier; the schedule's other
// vmcnt waits repeat the derived one before them. A second run of the pass finds nothing
// to fix (the second STRAIGHT RUN line). (With a loop of one trip, ONETRIP, the epilogue
// drains every copy before its first MMA as before.)

// STRAIGHT-LABEL: "sched.epilogue"() ({
// STRAIGHT-NEXT:     "sched.wait_lgkm"() {count = 0 : i64}
// STRAIGHT-NEXT:     "sched.wait_vm"() {count = 4 : i64}
// STRAIGHT-NEXT:     "sched.barrier"()
// STRAIGHT-NEXT:     "sched.sched_barrier"()
// STRAIGHT-NEXT:     "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64
// STRAIGHT-NEXT:     "sched.wait_vm"() {count = 4 : i64}
// STRAIGHT-NEXT:     "sched.mma"()
// STRAIGHT-NEXT:     "sched.wait_lgkm"() {count = 0 : i64}
// STRAIGHT-NEXT:     "sched.frag_load"() {channel = 0 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64
// STRAIGHT-NEXT:     "sched.wait_vm"() {count = 4 : i64}
// STRAIGHT-NEXT:     "sched.mma"()
// STRAIGHT-NEXT:     "sched.wait_lgkm"() {count = 0 : i64}
// STRAIGHT-NEXT:     "sched.wait_vm"() {count = 0 : i64}
// STRAIGHT-NEXT:     "sched.barrier"()
// STRAIGHT-NEXT:     "sched.sched_barrier"()
// STRAIGHT-NEXT:     "sched.frag_load"() {channel = 0 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64
// STRAIGHT-NOT:      "sched.barrier"
// STRAIGHT:          "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64
// STRAIGHT-NEXT:     "sched.mma"()
// STRAIGHT-NEXT:     "sched.barrier"()
// STRAIGHT-NEXT:   })

// ONETRIP-LABEL: "sched.epilogue"() ({
// ONETRIP-NEXT:     "sched.wait_vm"() {count = 4 : i64}
// ONETRIP-NEXT:     "sched.wait_lgkm"() {count = 0 : i64}
// ONETRIP-NEXT:     "sched.barrier"()
// ONETRIP-NEXT:     "sched.sched_barrier"()
// ONETRIP-NEXT:     "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64
// ONETRIP-NEXT:     "sched.wait_vm"() {count = 0 : i64}
// ONETRIP-NEXT:     "sched.barrier"()
// ONETRIP-NEXT:     "sched.sched_barrier"()
// ONETRIP-NEXT:     "sched.mma"()

// The ping-pong schedule is hazard-free: the pass changes nothing (the diff above). A second
// run finds nothing to fix either (the second RUN line), and sched-verify accepts the result.

// Hazards no wait or barrier removes are errors at the pipeline.
// An MMA whose fragments nothing loads.
// expected-error @+1 {{sched-fix-hazards: the kernel cannot run this schedule safely, and no wait or barrier fixes it: accumulator (0,0): received K tiles []; with 0 main-loop iterations it must receive tiles 0..1 once each}}
"sched.pipeline"() ({
  "sched.prologue"() ({
    "sched.global_load"() {channel = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64} : () -> ()
    "sched.wait_vm"() {count = 0 : i64} : () -> ()
    "sched.barrier"() : () -> ()
  }) : () -> ()
  "sched.kernel"() ({
    "sched.mma"() {stage = 0 : i64, subtile = 0 : i64} : () -> ()
  }) : () -> ()
  "sched.epilogue"() ({
  }) : () -> ()
}) {options = {}, schedule = "4wave", state = "phases", warp_stagger_index = 15 : i64} : () -> ()

// -----

// A wait over the lgkmcnt limit.
// expected-error @+1 {{sched-fix-hazards: the kernel cannot run this schedule safely, and no wait or barrier fixes it: prologue entry 0: s_waitcnt lgkmcnt(16) is over the hardware limit 15 (with 0 main-loop iterations)}}
"sched.pipeline"() ({
  "sched.prologue"() ({
    "sched.wait_lgkm"() {count = 16 : i64} : () -> ()
  }) : () -> ()
  "sched.kernel"() ({
  }) : () -> ()
  "sched.epilogue"() ({
  }) : () -> ()
}) {options = {}, schedule = "4wave", state = "phases", warp_stagger_index = 15 : i64} : () -> ()

// -----

// The ping-pong stagger index must lie inside the prologue.
// expected-error @+1 {{sched-fix-hazards: the pingpong kernel staggers its warp groups at WARP_STAGGER_INDEX, which is 5, past the prologue's 1 entries}}
"sched.pipeline"() ({
  "sched.prologue"() ({
    "sched.barrier"() : () -> ()
  }) : () -> ()
  "sched.kernel"() ({
  }) : () -> ()
  "sched.epilogue"() ({
  }) : () -> ()
}) {options = {}, schedule = "pingpong", state = "phases", warp_stagger_index = 5 : i64} : () -> ()

// -----

// The single-buffer schedule has no LDS stages or K offsets to simulate.
// expected-error @+1 {{sched-fix-hazards: pipeline 'single-buffer': the simulator models the double-buffer kernels (4wave, pingpong); 'single-buffer' has no K offsets and no LDS stages to check}}
"sched.pipeline"() ({
  "sched.prologue"() ({
  }) : () -> ()
  "sched.kernel"() ({
  }) : () -> ()
  "sched.epilogue"() ({
  }) : () -> ()
}) {options = {}, schedule = "single-buffer", state = "phases", warp_stagger_index = 0 : i64} : () -> ()

// ITER: pipeline-opt: error: pass 'sched-fix-hazards': option 'max-iterations' is out of range: expects an integer in 1..64, got 0
// STATE: error: sched-fix-hazards: 'sched.pipeline' op is in state "logical" but this pass needs "phases"
