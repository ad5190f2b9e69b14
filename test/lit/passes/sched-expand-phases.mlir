// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-expand-phases)' | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-expand-phases)' 2>&1 | FileCheck %s --check-prefix=ERR

// sched-expand-phases adds sched.prologue / sched.kernel / sched.epilogue with
// the ordered entries and sets warp_stagger_index,
// kernel_deps and lgkm_per_load_a/b. Kernel entries of double-buffer
// schedules carry `block` (their program block) for the lowering's fences.

// Single-buffer (default recipes): the prologue fills the buffer and loads the
// next tile; the kernel is the reordered body followed by 32 AMD schedule-group
// hints (per store [DS write, MFMA x2, VMEM read, MFMA x2], then per
// fragment read [DS read, MFMA x2]); the epilogue drains with barriers.
// CHECK-LABEL: module @single_buffer
// CHECK:         "sched.prologue"() ({
// CHECK-NEXT:      "sched.global_load"()
// CHECK-NEXT:      "sched.lds_store"()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.global_load"()
// CHECK-NEXT:      "sched.frag_load"()
// CHECK-NEXT:      "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    "sched.kernel"() ({
// CHECK-NEXT:      "sched.mma"()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.lds_store"()
// CHECK-NEXT:      "sched.global_load"()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.frag_load"()
// CHECK-NEXT:      "sched.sched_group_barrier"() {kind = "ds_write", size = 1 : i64} : () -> ()
// CHECK-NEXT:      "sched.sched_group_barrier"() {kind = "mfma", size = 2 : i64} : () -> ()
// CHECK-NEXT:      "sched.sched_group_barrier"() {kind = "vmem_read", size = 1 : i64} : () -> ()
// CHECK-NEXT:      "sched.sched_group_barrier"() {kind = "mfma", size = 2 : i64} : () -> ()
// CHECK-COUNT-12:  "sched.sched_group_barrier"()
// CHECK-NEXT:      "sched.sched_group_barrier"() {kind = "ds_read", size = 1 : i64} : () -> ()
// CHECK-NEXT:      "sched.sched_group_barrier"() {kind = "mfma", size = 2 : i64} : () -> ()
// CHECK-COUNT-14:  "sched.sched_group_barrier"()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    "sched.epilogue"() ({
// CHECK-NEXT:      "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.lds_store"()
// CHECK-NEXT:      "sched.mma"()
// CHECK-NEXT:      "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.frag_load"()
// CHECK-NEXT:      "sched.mma"()
// CHECK-NEXT:      "sched.sched_barrier"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:  }) {edges = ["1->2F0", "2->4F0", "4->5F0", "5->0F1", "3->2F1", "5->2A1"],
// CHECK-SAME:     kernel_deps = ["1->2F0", "2->4F0", "4->5F0", "5->0F1", "3->2F1", "5->2A1"], lgkm_per_load_a = 0 : i64, lgkm_per_load_b = 0 : i64,
// CHECK-SAME:     options = {T = 1 : i64}, order = array<i64: 0, 1, 2, 3, 4, 5>, schedule = "single-buffer", state = "phases", warp_stagger_index = 7 : i64}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 64} : () -> ()  // 0
    "sched.barrier"() : () -> ()  // 1
    "sched.lds_store"() {channel = 0, stage = 0, subtile = 0, role = "shared_store", resource = "lds", latency = 20} : () -> ()  // 2
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, role = "global_load", resource = "global_mem", latency = 200} : () -> ()  // 3
    "sched.barrier"() : () -> ()  // 4
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()  // 5
  }) {edges = ["1->2F0", "2->4F0", "4->5F0", "5->0F1", "3->2F1", "5->2A1"],
      options = {T = 1},
      order = array<i64: 0, 1, 2, 3, 4, 5>, schedule = "single-buffer", state = "explicit"} : () -> ()
}

// -----

// Ping-pong: both stages are loaded in the prologue with a full
// vm drain; the kernel expands the eight template blocks; entries of block i
// carry block = i, and the K0/K1 global loads in the loop are prefetches.
// CHECK-LABEL: module @pingpong
// CHECK:         "sched.prologue"() ({
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 0 : i64, vm_cost = 4 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 0 : i64, vm_cost = 4 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 1 : i64, vm_cost = 4 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 1 : i64, vm_cost = 4 : i64}
// CHECK-NEXT:      "sched.wait_vm"() {count = 0 : i64} : () -> ()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k1", {{.*}}stage = 1 : i64, subtile = 0 : i64, vm_cost = 4 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k1", {{.*}}stage = 1 : i64, subtile = 0 : i64, vm_cost = 4 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k1", {{.*}}stage = 1 : i64, subtile = 1 : i64, vm_cost = 4 : i64}
// CHECK-NEXT:      "sched.wait_vm"() {count = 0 : i64} : () -> ()
// CHECK-NEXT:    }) : () -> ()
// Block 0: two fragment loads and the K_PREV completion load, lgkmcnt(2),
// barrier, lgkmcnt(0), the MMA at priority 1, barrier, schedule barrier.
// CHECK-NEXT:    "sched.kernel"() ({
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 0 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.global_load"() {block = 0 : i64, channel = 0 : i64, k_offset = "k_prev", {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.wait_lgkm"() {block = 0 : i64, count = 2 : i64}
// CHECK-NEXT:      "sched.barrier"() {block = 0 : i64}
// CHECK-NEXT:      "sched.wait_lgkm"() {block = 0 : i64, count = 0 : i64}
// CHECK-NEXT:      "sched.set_prio"() {block = 0 : i64, priority = 1 : i64}
// CHECK-NEXT:      "sched.mma"() {block = 0 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.set_prio"() {block = 0 : i64, priority = 0 : i64}
// CHECK-NEXT:      "sched.barrier"() {block = 0 : i64}
// CHECK-NEXT:      "sched.sched_barrier"() {block = 0 : i64}
// CHECK-NEXT:      "sched.frag_load"() {block = 1 : i64, channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.global_load"() {block = 1 : i64, channel = 1 : i64, k_offset = "k0", latency = 200 : i64, prefetch, {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.barrier"() {block = 1 : i64}
// CHECK-NEXT:      "sched.wait_lgkm"() {block = 1 : i64, count = 0 : i64}
// Block 3 ends the half: vmcnt(12) before its MMA.
// CHECK:           "sched.global_load"() {block = 3 : i64, channel = 1 : i64, k_offset = "k0", latency = 200 : i64, prefetch, {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.wait_vm"() {block = 3 : i64, count = 12 : i64}
// CHECK-NEXT:      "sched.barrier"() {block = 3 : i64}
// CHECK-NEXT:      "sched.set_prio"() {block = 3 : i64, priority = 1 : i64}
// CHECK-NEXT:      "sched.mma"() {block = 3 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK:           "sched.mma"() {block = 7 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.set_prio"() {block = 7 : i64, priority = 0 : i64}
// CHECK-NEXT:      "sched.barrier"() {block = 7 : i64}
// CHECK-NEXT:    }) : () -> ()
// The epilogue finishes the last two k-tiles without prefetching.
// CHECK-NEXT:    "sched.epilogue"() ({
// CHECK-NEXT:      "sched.wait_lgkm"() {count = 0 : i64} : () -> ()
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NOT:       prefetch
// CHECK:         }) {edges = [{{.*}}], kernel_deps = ["3->7F0", "3->7F0", "7->16F0", "16->24F0", "38->42F0", "38->42F0", "42->51F0", "51->59F0"],
// CHECK-SAME:    lgkm_per_load_a = 2 : i64, lgkm_per_load_b = 2 : i64, options = {lgkm_per_load_a = 2 : i64, lgkm_per_load_b = 2 : i64, vm_per_load_a = 4 : i64, vm_per_load_b = 4 : i64, waits = "block"}, order = array<i64: {{.*}}>, schedule = "pingpong", state = "phases", warp_stagger_index = 4 : i64}
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
    "sched.program"() ({
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.frag_load"() {slot = "pre_op_1", channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 1, subtile = 1, k_offset = "k_prev", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_lgkm"() {slot = "pre_sync", count = 2} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {trailing_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 0, stage = 0, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, trailing_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "pre_sync", count = 12} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.frag_load"() {slot = "pre_op_1", channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_lgkm"() {slot = "pre_sync", count = 2} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, trailing_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 1, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true} : () -> ()
      "sched.block"() ({
        "sched.frag_load"() {slot = "pre_op_0", channel = 0, stage = 1, subtile = 1, role = "fragment_load", resource = "lds", latency = 20} : () -> ()
        "sched.global_load"() {slot = "global_load", channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, trailing_sched_barrier = true} : () -> ()
      "sched.block"() ({
        "sched.global_load"() {slot = "global_load", channel = 1, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem", latency = 200} : () -> ()
        "sched.wait_vm"() {slot = "pre_sync", count = 12} : () -> ()
        "sched.mma"() {slot = "mma", stage = 1, subtile = 1, role = "compute", resource = "mma_unit", latency = 16} : () -> ()
      }) {global_load_prefetch = true, post_barrier_lgkm = false} : () -> ()
    }) {wait_lgkm_first = 2, wait_vm_last = 12} : () -> ()
  }) {edges = [
      "0->3F0", "0->9F0", "1->3F0", "1->6F0", "4->6F0", "4->11F0", "7->9F0", "7->11F0",
      "12->15F0", "12->21F0", "13->15F0", "13->18F0", "16->18F0", "16->23F0", "19->21F0", "19->23F0",
      "3->15F0", "6->18F0", "9->21F0", "11->23F0", "15->3F1", "18->6F1", "21->9F1", "23->11F1",
      "2->13F0", "2->19F0", "5->1F1", "5->7F1", "8->0F1", "8->4F1", "10->0F1", "10->4F1",
      "14->1F1", "14->7F1", "17->13F1", "17->19F1", "20->12F1", "20->16F1", "22->12F1", "22->16F1",
      "0->8A0", "0->10A0", "1->5A0", "1->14A0", "4->8A0", "4->10A0", "7->5A0", "7->14A0",
      "12->20A0", "12->22A0", "13->17A0", "16->20A0", "16->22A0", "19->17A0"],
      options = {vm_per_load_a = 4, vm_per_load_b = 4, lgkm_per_load_a = 2, lgkm_per_load_b = 2, waits = "block"},
      order = array<i64: 0, 1, 2, 3, 4, 6, 7, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 17, 20, 21, 22, 23>, schedule = "pingpong", state = "explicit"} : () -> ()
}

// ERR: Inputs/logical.mlir:2:1: error: sched-expand-phases: 'sched.pipeline' op is in state "logical" but this pass needs "explicit": run sched-annotate, sched-reorder, sched-derive-edges, sched-schedule, sched-derive-waits, sched-explicit-blocks first
