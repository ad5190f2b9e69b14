// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-derive-edges)' | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-derive-edges)' 2>&1 | FileCheck %s --check-prefix=ERR

// sched-derive-edges writes the dependency edges of the body as
// "producer->consumer<F|A|O><loop distance>" (F flow, A anti; distance 1 =
// the consumer is in the next iteration). Body ops are not changed.

// Single-buffer: the barriers order the LDS store against the fragment load;
// the global load feeds the next iteration's store, the fragment load the next
// iteration's MMA, and the store must wait for the previous fragment load (anti).
// CHECK-LABEL: module @single_buffer
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.mma"()
// CHECK-NEXT:      "sched.barrier"()
// CHECK-NEXT:      "sched.lds_store"()
// CHECK-NEXT:      "sched.global_load"()
// CHECK-NEXT:      "sched.barrier"()
// CHECK-NEXT:      "sched.frag_load"()
// CHECK-NEXT:    }) {edges = ["1->2F0", "2->4F0", "4->5F0", "5->0F1", "3->2F1", "5->2A1"], options = {T = 1 : i64}, schedule = "single-buffer", state = "edges"}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()                             // 0
    "sched.barrier"() : () -> ()                                                                                          // 1
    "sched.lds_store"() {channel = 0, stage = 0, subtile = 0, role = "shared_store", resource = "lds"} : () -> ()          // 2
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, role = "global_load", resource = "global_mem"} : () -> ()  // 3
    "sched.barrier"() : () -> ()                                                                                          // 4
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()         // 5
  }) {schedule = "single-buffer", options = {T = 1}, state = "reordered"} : () -> ()
}

// -----

// Loads only (no fragment matches an MMA here): each global load feeds the
// fragment load of its channel one iteration later (F1), and each fragment
// load has an anti edge (A0) to the global load that refills its buffer.
// CHECK-LABEL: module @loads_only
// CHECK:         }) {edges = ["0->1F1", "4->2F1", "1->0A0", "2->4A0"], options = {}, schedule = "4wave", state = "edges"}
module @loads_only {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> () // 0
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()                      // 1
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()                      // 2
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()                                          // 3
    "sched.global_load"() {channel = 1, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> () // 4
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()                                          // 5
  }) {schedule = "4wave", options = {}, state = "reordered"} : () -> ()
}

// -----

// The 4-wave body (8 blocks of [fragment load, global load, MMA]).
// CHECK-LABEL: module @four_wave
// CHECK:         }) {edges = [
// Fragment loads feed the MMAs of their row/column in the same iteration:
// CHECK-SAME:      "1->5F0", "1->11F0", "4->8F0", "4->11F0",
// MMA accumulators chain across the two k-steps and around the loop:
// CHECK-SAME:      "2->14F0",
// CHECK-SAME:      "14->2F1",
// Global loads feed the fragment loads of their channel and stage in the next
// iteration:
// CHECK-SAME:      "0->4F1", "0->19F1",
// Anti edges from fragment loads to the global loads that refill their buffer:
// CHECK-SAME:      "1->3A0", "1->6A0",
// Cross-stage register rotation: an MMA reads a fragment register before the
// fragment load of the other stage overwrites it, and that load feeds the
// MMAs of the second k-step:
// CHECK-SAME:      "2->7A0", "5->7A0", "7->14F0", "7->17F0",
// CHECK-SAME:      "20->22A0"], options = {}, schedule = "4wave", state = "edges"}
module @four_wave {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> () // 0
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()                      // 1
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()                                          // 2
    "sched.global_load"() {channel = 1, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> () // 3
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()                      // 4
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()                                          // 5
    "sched.global_load"() {channel = 1, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> () // 6
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()                      // 7
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()                                          // 8
    "sched.global_load"() {channel = 0, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> () // 9
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()                      // 10
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()                                          // 11
    "sched.global_load"() {channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem"} : () -> () // 12
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()                      // 13
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()                                          // 14
    "sched.global_load"() {channel = 1, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem"} : () -> () // 15
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()                      // 16
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()                                          // 17
    "sched.global_load"() {channel = 1, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem"} : () -> () // 18
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()                      // 19
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()                                          // 20
    "sched.global_load"() {channel = 0, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem"} : () -> () // 21
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()                      // 22
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()                                          // 23
  }) {schedule = "4wave", options = {}, state = "reordered"} : () -> ()
}

// ERR: Inputs/logical.mlir:2:1: error: sched-derive-edges: 'sched.pipeline' op is in state "logical" but this pass needs "reordered": run sched-annotate, sched-reorder first
