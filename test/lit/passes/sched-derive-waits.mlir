// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-derive-waits)' | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-derive-waits)' 2>&1 | FileCheck %s --check-prefix=ERR

// sched-derive-waits cuts the scheduled order into MMA-centred blocks and
// derives their s_waitcnt counts: a `sched.program` of
// `sched.block`s whose ops carry the slot they fill. The body stays.

// 4-wave: eight blocks [fragment load, global load, MMA]. Entry waits:
// vmcnt(8) in blocks 0/2/4/6, lgkmcnt(4) at the top of each half (blocks 0 and
// 4, the derived wait_lgkm_first) and lgkmcnt(0) in the others; blocks 3/7 wait
// vmcnt(8) right before their MMA (pre_sync, the derived wait_vm_last).
// CHECK-LABEL: module @four_wave
// CHECK:         "sched.program"() ({
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}slot = "pre_op_0", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.wait_vm"() {count = 8 : i64, slot = "entry_wait"}
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 4 : i64, slot = "entry_wait_lgkm"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      }, {
// CHECK-NEXT:      }) {global_load_prefetch = true, post_barrier_lgkm = false, post_mma_barrier = false, post_mma_set_prio = false, pre_mma_barrier = false, pre_mma_set_prio = false, trailing_sched_barrier = true, wrap_waits_with_sched_barrier = true}
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 0 : i64, {{.*}}slot = "pre_op_0", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 0 : i64, slot = "entry_wait_lgkm"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 0 : i64, subtile = 1 : i64}
// CHECK:           "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 0 : i64, {{.*}}slot = "pre_op_0", stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.wait_vm"() {count = 8 : i64, slot = "entry_wait"}
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 0 : i64, slot = "entry_wait_lgkm"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 1 : i64, subtile = 0 : i64}
// CHECK:           "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}slot = "pre_op_0", stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.wait_vm"() {count = 8 : i64, slot = "pre_sync"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 1 : i64, subtile = 1 : i64}
// CHECK:           "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}slot = "pre_op_0", stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k1", {{.*}}slot = "global_load", stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.wait_vm"() {count = 8 : i64, slot = "entry_wait"}
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 4 : i64, slot = "entry_wait_lgkm"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 0 : i64, subtile = 0 : i64}
// CHECK-COUNT-3:   "sched.block"() ({
// CHECK:             "sched.wait_vm"() {count = 8 : i64, slot = "pre_sync"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 1 : i64, subtile = 1 : i64}
// CHECK:         }) {wait_lgkm_first = 4 : i64, wait_vm_last = 8 : i64}
// CHECK-NEXT:  }) {edges = [{{.*}}], options = {}, order = array<i64: {{.*}}>, schedule = "4wave", state = "blocks"}
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
      order = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23>, schedule = "4wave", state = "scheduled"} : () -> ()
}

// -----

// Ping-pong, in the CSP order: block 2 gets two global loads (5 and 8) and
// block 1 none, so the redistribution moves one (channel 1) into block 1
// (max_globals=1). The first block of each half waits lgkmcnt(2) (the derived
// wait_lgkm_first) before its MMA, the last one vmcnt(12) (wait_vm_last).
// CHECK-LABEL: module @pingpong
// CHECK:         "sched.program"() ({
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}slot = "pre_op_0", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.frag_load"() {channel = 0 : i64, {{.*}}slot = "pre_op_1", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k_prev", {{.*}}slot = "global_load", stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 2 : i64, slot = "pre_sync"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      }, {
// CHECK-NEXT:      }) {trailing_sched_barrier = true}
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}slot = "pre_op_0", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      }, {
// CHECK-NEXT:      }) {global_load_prefetch = true}
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 0 : i64, {{.*}}slot = "pre_op_0", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:      }, {
// CHECK-NEXT:      }) {global_load_prefetch = true, trailing_sched_barrier = true}
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.wait_vm"() {count = 12 : i64, slot = "pre_sync"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      }, {
// CHECK-NEXT:      }) {global_load_prefetch = true, post_barrier_lgkm = false}
// CHECK-NEXT:      "sched.block"() ({
// CHECK-NEXT:        "sched.frag_load"() {channel = 1 : i64, {{.*}}slot = "pre_op_0", stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.frag_load"() {channel = 0 : i64, {{.*}}slot = "pre_op_1", stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}slot = "global_load", stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.wait_lgkm"() {count = 2 : i64, slot = "pre_sync"}
// CHECK-COUNT-3:   "sched.block"() ({
// CHECK:             "sched.global_load"() {channel = 1 : i64, k_offset = "k1", {{.*}}slot = "global_load", stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:        "sched.wait_vm"() {count = 12 : i64, slot = "pre_sync"}
// CHECK-NEXT:        "sched.mma"() {{.*}}slot = "mma", stage = 1 : i64, subtile = 1 : i64}
// CHECK:         }) {wait_lgkm_first = 2 : i64, wait_vm_last = 12 : i64}
// CHECK-NEXT:  }) {edges = [{{.*}}], options = {lgkm_per_load_a = 2 : i64, lgkm_per_load_b = 2 : i64, vm_per_load_a = 4 : i64, vm_per_load_b = 4 : i64}, order = array<i64: {{.*}}>, schedule = "pingpong", state = "blocks"}
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
      options = {vm_per_load_a = 4, vm_per_load_b = 4, lgkm_per_load_a = 2, lgkm_per_load_b = 2},
      order = array<i64: 0, 1, 2, 3, 4, 6, 7, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 17, 20, 21, 22, 23>, schedule = "pingpong", state = "scheduled"} : () -> ()
}

// -----

// Single-buffer schedules have no MMA blocks: only the state changes.
// CHECK-LABEL: module @single_buffer
// CHECK-NOT:     sched.program
// CHECK:         }) {edges = [], options = {T = 1 : i64}, order = array<i64: 0>, schedule = "single-buffer", state = "blocks"}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
  }) {schedule = "single-buffer", options = {T = 1}, state = "scheduled", edges = [], order = array<i64: 0>} : () -> ()
}

// ERR: Inputs/logical.mlir:2:1: error: sched-derive-waits: 'sched.pipeline' op is in state "logical" but this pass needs "scheduled": run sched-annotate, sched-reorder, sched-derive-edges, sched-schedule first
