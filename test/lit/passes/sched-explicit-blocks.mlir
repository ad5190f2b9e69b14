// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-explicit-blocks)' | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-explicit-blocks)' 2>&1 | FileCheck %s --check-prefix=ERR

// sched-explicit-blocks gives each 4-wave block a second region with its ops in
// emission order (minimal barriers, waits wrapped in schedule
// barriers); schedules expanded from the block template are left alone.

// CHECK-LABEL: module @four_wave
// Block 0 (top of a half): fenced vm+lgkm waits, one barrier, then fragment
// load, global load, MMA.
// CHECK:         "sched.program"() ({
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {{.*}}slot = "pre_op_0"
// CHECK-NEXT:        "sched.global_load"() {{.*}}slot = "global_load"
// CHECK-NEXT:        "sched.wait_vm"() {count = 8 : i64, slot = "entry_wait"}
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 4 : i64, slot = "entry_wait_lgkm"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma"
// CHECK-NEXT:      }, {
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.wait_vm"() {count = 8 : i64} : () -> ()
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 4 : i64} : () -> ()
// CHECK-NEXT:        "sched.barrier"() : () -> ()
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.mma"() {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      }) {global_load_prefetch = true, {{.*}}trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true}
// Block 1: an lgkm drain only, no barrier.
// CHECK-NEXT:      "sched.block"() ({
// CHECK:           }, {
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 0 : i64} : () -> ()
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.frag_load"() {channel = 0 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.mma"() {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      })
// Block 3 (end of a half): loads first, the vm wait fenced right before the MMA.
// CHECK:           "sched.block"() ({
// CHECK:             "sched.wait_vm"() {count = 8 : i64, slot = "pre_sync"}
// CHECK:           }, {
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.wait_vm"() {count = 8 : i64} : () -> ()
// CHECK-NEXT:        "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:        "sched.mma"() {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      })
// CHECK-COUNT-4:   "sched.block"()
// CHECK:         }) {wait_lgkm_first = 4 : i64, wait_vm_last = 8 : i64}
// CHECK-NEXT:  }) {edges = [{{.*}}], options = {}, order = array<i64: {{.*}}>, schedule = "4wave", state = "explicit"}
module @four_wave {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 0
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 1
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 2
    "sched.global_load"() {channel = 1, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 3
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 4
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 5
    "sched.global_load"() {channel = 1, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 6
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 7
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 8
    "sched.global_load"() {channel = 0, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 9
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 10
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 11
    "sched.global_load"() {channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 12
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 13
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 14
    "sched.global_load"() {channel = 1, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 15
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 16
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 17
    "sched.global_load"() {channel = 1, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 18
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 19
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 20
    "sched.global_load"() {channel = 0, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 21
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 22
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()  // 23
    "sched.program"() ({
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "entry_wait", count = 8} : () -> ()
        "sched.wait_lgkm"() {slot = "entry_wait_lgkm", count = 4} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 0, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_lgkm"() {slot = "entry_wait_lgkm", count = 0} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "entry_wait", count = 8} : () -> ()
        "sched.wait_lgkm"() {slot = "entry_wait_lgkm", count = 0} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "pre_sync", count = 8} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "entry_wait", count = 8} : () -> ()
        "sched.wait_lgkm"() {slot = "entry_wait_lgkm", count = 4} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 0, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_lgkm"() {slot = "entry_wait_lgkm", count = 0} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "entry_wait", count = 8} : () -> ()
        "sched.wait_lgkm"() {slot = "entry_wait_lgkm", count = 0} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "pre_sync", count = 8} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true} : () -> ()
    }) {wait_lgkm_first = 4, wait_vm_last = 8} : () -> ()
  }) {edges = [
      "1->5F0", "1->11F0", "4->8F0", "4->11F0", "13->17F0", "13->23F0", "16->20F0", "16->23F0",
      "2->14F0", "5->17F0", "8->20F0", "11->23F0", "14->2F1", "17->5F1", "20->8F1", "23->11F1",
      "0->4F1", "0->19F1", "3->1F1", "3->22F1", "6->1F1", "6->22F1", "9->4F1", "9->19F1",
      "12->7F1", "12->16F1", "15->10F1", "15->13F1", "18->10F1", "18->13F1", "21->7F1", "21->16F1",
      "1->3A0", "1->6A0", "4->0A0", "4->9A0", "7->12A0", "7->21A0", "10->15A0", "10->18A0",
      "13->15A0", "13->18A0", "16->12A0", "16->21A0", "19->0A0", "19->9A0", "22->3A0", "22->6A0",
      "2->7A0", "5->7A0", "7->14F0", "7->17F0", "2->10A0", "8->10A0", "10->14F0", "10->20F0",
      "19->2F1", "19->5F1", "14->19A0", "17->19A0", "22->2F1", "22->8F1", "14->22A0", "20->22A0"],
      options = {},
      order = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23>, schedule = "4wave", state = "blocks"} : () -> ()
}

// -----

// A ping-pong program is expanded from the block template: unchanged.
// CHECK-LABEL: module @pingpong
// CHECK:         "sched.program"() ({
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma"
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:  }) {edges = [], options = {}, order = array<i64: 0>, schedule = "pingpong", state = "explicit"}
module @pingpong {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
    "sched.program"() ({
      "sched.block"() ({
        "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) : () -> ()
    }) : () -> ()
  }) {schedule = "pingpong", options = {}, state = "blocks", edges = [], order = array<i64: 0>} : () -> ()
}

// -----

// Single-buffer: no program, only the state changes.
// CHECK-LABEL: module @single_buffer
// CHECK:         }) {edges = [], options = {T = 1 : i64}, order = array<i64: 0>, schedule = "single-buffer", state = "explicit"}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 64} : () -> ()
  }) {schedule = "single-buffer", options = {T = 1}, state = "blocks", edges = [], order = array<i64: 0>} : () -> ()
}

// ERR: Inputs/logical.mlir:2:1: error: sched-explicit-blocks: 'sched.pipeline' op is in state "logical" but this pass needs "blocks": run sched-annotate, sched-reorder, sched-derive-edges, sched-schedule, sched-derive-waits first
