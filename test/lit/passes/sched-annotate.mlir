// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-annotate)' | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-annotate,sched-annotate)' 2>&1 | FileCheck %s --check-prefix=ERR

// sched-annotate fills resource/latency/role/vgpr_def of every data op from the
// schedule's cost model; control ops stay as they are; state becomes "annotated".

// CHECK-LABEL: module @single_buffer
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, latency = 200 : i64, resource = "global_mem", role = "global_load", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.lds_store"() {channel = 0 : i64, latency = 20 : i64, resource = "lds", role = "shared_store", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:      "sched.barrier"() : () -> ()
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, latency = 20 : i64, resource = "lds", role = "fragment_load", stage = 0 : i64, subtile = 0 : i64, vgpr_def = 4 : i64}
// CHECK-NEXT:      "sched.mma"() {latency = 64 : i64, resource = "mma_unit", role = "compute", stage = 0 : i64, subtile = 0 : i64, vgpr_def = 16 : i64}
// CHECK-NEXT:    }) {options = {T = 1 : i64}, schedule = "single-buffer", state = "annotated"}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.barrier"() : () -> ()
    "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
  }) {schedule = "single-buffer", options = {T = 1}} : () -> ()
}

// -----

// 4-wave (here fp8, BK=128): 16-cycle MMAs, fragment loads define 8 VGPRs; the
// options are kept as given.
// CHECK-LABEL: module @four_wave
// CHECK:         "sched.global_load"() {channel = 0 : i64, k_offset = "k0", latency = 200 : i64, resource = "global_mem", role = "global_load", stage = 0 : i64, subtile = 0 : i64}
// CHECK-NEXT:    "sched.frag_load"() {channel = 1 : i64, latency = 20 : i64, resource = "lds", role = "fragment_load", stage = 0 : i64, subtile = 1 : i64, vgpr_def = 8 : i64}
// CHECK-NEXT:    "sched.mma"() {latency = 16 : i64, resource = "mma_unit", role = "compute", stage = 0 : i64, subtile = 0 : i64, vgpr_def = 4 : i64}
// CHECK-NEXT:  }) {options = {BK = 128 : i64, dtype = "fp8"}, schedule = "4wave", state = "annotated"}
module @four_wave {
  "sched.pipeline"() ({
    "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0"} : () -> ()
    "sched.frag_load"() {channel = 1, stage = 0, subtile = 1} : () -> ()
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
  }) {schedule = "4wave", options = {dtype = "fp8", BK = 128}} : () -> ()
}

// -----

// Ping-pong: waits and barriers already in the body are not annotated.
// CHECK-LABEL: module @pingpong_controls
// CHECK:         "sched.mma"() {latency = 16 : i64, resource = "mma_unit", role = "compute", stage = 1 : i64, subtile = 1 : i64, vgpr_def = 4 : i64}
// CHECK-NEXT:    "sched.wait_vm"() {count = 3 : i64} : () -> ()
// CHECK-NEXT:    "sched.barrier"() : () -> ()
// CHECK-NEXT:  }) {options = {is_fp8 = true}, schedule = "pingpong", state = "annotated"}
module @pingpong_controls {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 1, subtile = 1} : () -> ()
    "sched.wait_vm"() {count = 3} : () -> ()
    "sched.barrier"() : () -> ()
  }) {schedule = "pingpong", options = {is_fp8 = true}} : () -> ()
}

// ERR: Inputs/logical.mlir:2:1: error: sched-annotate: 'sched.pipeline' op is already in state "annotated" (this pass takes "logical" to "annotated"; it cannot run twice)
