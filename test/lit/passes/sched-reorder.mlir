// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-reorder)' | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-reorder)' 2>&1 | FileCheck %s --check-prefix=ERR

// sched-reorder moves the body ops into the order the schedule prescribes;
// the ops are moved, not recreated.

// Single-buffer: compute first, then the stores and the next loads between
// barriers, fragment loads last; the reorder adds a second barrier.
// CHECK-LABEL: module @single_buffer
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.mma"()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.lds_store"()
// CHECK-NEXT:      "sched.global_load"()
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.frag_load"()
// CHECK-NEXT:    }) {options = {T = 1 : i64}, schedule = "single-buffer", state = "reordered"}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, role = "global_load", resource = "global_mem"} : () -> ()
    "sched.lds_store"() {channel = 0, stage = 0, subtile = 0, role = "shared_store", resource = "lds"} : () -> ()
    "sched.barrier"() : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
  }) {schedule = "single-buffer", options = {T = 1}, state = "annotated"} : () -> ()
}

// -----

// Ping-pong: each half (one LDS stage) is interleaved into four MMA blocks
// [fragment loads, at most one global load, MMA]; the K_PREV completion load
// goes into block 0 of the first half.
// CHECK-LABEL: module @pingpong
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k_prev", {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, {{.*}}stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k1", {{.*}}stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k1", {{.*}}stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 1 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.global_load"() {channel = 1 : i64, k_offset = "k1", {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 1 : i64, subtile = 1 : i64}
// CHECK-NEXT:    }) {options = {}, schedule = "pingpong", state = "reordered"}
module @pingpong {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 1, subtile = 1, k_offset = "k_prev", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.global_load"() {channel = 1, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.global_load"() {channel = 1, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()
    "sched.global_load"() {channel = 0, stage = 0, subtile = 1, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.global_load"() {channel = 0, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.global_load"() {channel = 1, stage = 1, subtile = 0, k_offset = "k1", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.global_load"() {channel = 1, stage = 1, subtile = 1, k_offset = "k1", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.frag_load"() {channel = 0, stage = 1, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.frag_load"() {channel = 1, stage = 1, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
    "sched.mma"() {stage = 0, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()
    "sched.mma"() {stage = 1, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
    "sched.mma"() {stage = 1, subtile = 1, role = "compute", resource = "mma_unit"} : () -> ()
  }) {schedule = "pingpong", options = {}, state = "annotated"} : () -> ()
}

// -----

// 4-wave keeps the declared order (the body is written in block order).
// CHECK-LABEL: module @four_wave
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, k_offset = "k0", {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.frag_load"() {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64}
// CHECK-NEXT:      "sched.mma"() {{.*}}stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:    }) {options = {}, schedule = "4wave", state = "reordered"}
module @four_wave {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> ()
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
  }) {schedule = "4wave", options = {}, state = "annotated"} : () -> ()
}

// ERR: Inputs/logical.mlir:2:1: error: sched-reorder: 'sched.pipeline' op is in state "logical" but this pass needs "annotated": run sched-annotate first
