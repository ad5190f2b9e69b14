// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-schedule)' | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-schedule)' 2>&1 | FileCheck %s --check-prefix=ERR

// sched-schedule stores the issue order of the body ops as `order` (body
// indices) with the configured strategy; the body itself is not moved. The CSP
// (ping-pong's default) also records makespan, lower_bound, proven_optimal and
// search_nodes.

// Two halves of [MMA, fragment load, MMA, global load]; the second MMA of each
// half needs the fragment load. The CSP issues the 200-cycle global load before
// that MMA and proves the 200-cycle makespan optimal.
// CHECK-LABEL: module @csp_small
// CHECK:         }) {edges = ["1->2F0", "5->6F0"], lower_bound = 200 : i64, makespan = 200 : i64, options = {},
// CHECK-SAME:        order = array<i64: 0, 1, 3, 2, 4, 5, 7, 6>, proven_optimal = true, schedule = "pingpong", search_nodes = {{[0-9]+}} : i64, state = "scheduled", stopped_by_budget = false, vgpr_peak = {{[0-9]+}} : i64}
module @csp_small {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()                                               // 0
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()                            // 1
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()                                               // 2
    "sched.global_load"() {channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> () // 3
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()                                               // 4
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()                            // 5
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()                                               // 6
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> () // 7
  }) {schedule = "pingpong", options = {}, state = "edges", edges = ["1->2F0", "5->6F0"]} : () -> ()
}

// -----

// The same body with scheduling=identity keeps the declared order and records
// no scheduler result.
// CHECK-LABEL: module @identity
// CHECK:         }) {edges = ["1->2F0", "5->6F0"], options = {scheduling = "identity"}, order = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, schedule = "pingpong", state = "scheduled"}
module @identity {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
    "sched.global_load"() {channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
  }) {schedule = "pingpong", options = {scheduling = "identity"}, state = "edges", edges = ["1->2F0", "5->6F0"]} : () -> ()
}

// -----

// The reference ping-pong body (after sched-reorder and sched-derive-edges):
// the anti edges 7->5A0 and 19->17A0 move global loads 5 and 17 after the
// fragment loads 7 and 19 of the same channel and stage; 420 cycles, proven
// optimal (it equals the lower bound).
// CHECK-LABEL: module @pingpong
// CHECK:         lower_bound = 420 : i64, makespan = 420 : i64, options = {},
// CHECK-SAME:    order = array<i64: 0, 1, 2, 3, 4, 6, 7, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 17, 20, 21, 22, 23>,
// CHECK-SAME:    proven_optimal = true, schedule = "pingpong", search_nodes = {{[0-9]+}} : i64, state = "scheduled", stopped_by_budget = false, vgpr_peak = {{[0-9]+}} : i64}
module @pingpong {
  "sched.pipeline"() ({
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 0
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 1
    "sched.global_load"() {channel = 0, stage = 1, subtile = 1, k_offset = "k_prev", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 2
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 3
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 4
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 5
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 6
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 7
    "sched.global_load"() {channel = 1, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 8
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 9
    "sched.global_load"() {channel = 1, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 10
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 11
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 12
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 13
    "sched.global_load"() {channel = 0, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 14
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 15
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 16
    "sched.global_load"() {channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 17
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 18
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 19
    "sched.global_load"() {channel = 1, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 20
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 21
    "sched.global_load"() {channel = 1, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 22
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 23
  }) {edges = [
      "0->3F0", "0->9F0", "1->3F0", "1->6F0", "4->6F0", "4->11F0", "7->9F0", "7->11F0",
      "12->15F0", "12->21F0", "13->15F0", "13->18F0", "16->18F0", "16->23F0", "19->21F0", "19->23F0",
      "3->15F0", "6->18F0", "9->21F0", "11->23F0", "15->3F1", "18->6F1", "21->9F1", "23->11F1",
      "2->13F0", "2->19F0", "5->1F1", "5->7F1", "8->0F1", "8->4F1", "10->0F1", "10->4F1",
      "14->1F1", "14->7F1", "17->13F1", "17->19F1", "20->12F1", "20->16F1", "22->12F1", "22->16F1",
      "0->8A0", "0->10A0", "1->5A0", "1->14A0", "4->8A0", "4->10A0", "7->5A0", "7->14A0",
      "12->20A0", "12->22A0", "13->17A0", "16->20A0", "16->22A0", "19->17A0"],
      schedule = "pingpong", options = {}, state = "edges"} : () -> ()
}

// -----

// Single-buffer schedules have no scheduler: the order is the body order.
// CHECK-LABEL: module @single_buffer
// CHECK:         }) {edges = ["1->2F0", "2->4F0", "4->5F0", "5->0F1", "3->2F1", "5->2A1"], options = {T = 1 : i64}, order = array<i64: 0, 1, 2, 3, 4, 5>, schedule = "single-buffer", state = "scheduled"}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 64} : () -> ()
    "sched.barrier"() : () -> ()
    "sched.lds_store"() {channel = 0, stage = 0, subtile = 0, role = "shared_store", resource = "lds", latency = 20} : () -> ()
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, role = "global_load", resource = "global_mem", latency = 200} : () -> ()
    "sched.barrier"() : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
  }) {schedule = "single-buffer", options = {T = 1}, state = "edges",
      edges = ["1->2F0", "2->4F0", "4->5F0", "5->0F1", "3->2F1", "5->2A1"]} : () -> ()
}

// ERR: Inputs/logical.mlir:2:1: error: sched-schedule: 'sched.pipeline' op is in state "logical" but this pass needs "edges": run sched-annotate, sched-reorder, sched-derive-edges first
