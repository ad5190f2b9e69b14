// RUN: pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=schedule-json | FileCheck %s
// The MLIR path prints what the core prints for the default body:
// RUN: pipeline-opt %s --pipeline='single-buffer{T=1}' --emit=schedule-json -o %t.ir
// RUN: pipeline-opt --pipeline='single-buffer{T=1}' --emit=schedule-json -o %t.core
// RUN: diff %t.ir %t.core
// RUN: pipeline-opt --pipeline=pingpong --emit=schedule-json | FileCheck %s --check-prefix=CSP

// --emit=schedule-json: every field of the compiled schedule as JSON.

// CHECK:      {
// CHECK-NEXT:   "schedule": "single-buffer",
// CHECK-NEXT:   "warp_stagger_index": 7,
// CHECK-NEXT:   "phases": {
// CHECK-NEXT:     "prologue": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "tag": 0,
// CHECK-NEXT:         "name": "LOAD_DRAM",
// CHECK-NEXT:         "stage": 0,
// CHECK-NEXT:         "subtile": 0,
// CHECK-NEXT:         "k_offset": "NONE",
// CHECK-NEXT:         "channel": 0,
// CHECK-NEXT:         "wait_value": 0,
// CHECK-NEXT:         "vm_cost": 0,
// CHECK-NEXT:         "lgkm_cost": 0,
// CHECK-NEXT:         "resource": "GLOBAL_MEM",
// CHECK-NEXT:         "latency": 200,
// CHECK-NEXT:         "role": "GLOBAL_LOAD",
// CHECK:              "time_slot": 0,
// CHECK-NEXT:         "is_prefetch": false
// CHECK:          "kernel": [
// CHECK:          "epilogue": [
// CHECK:        "body": [
// CHECK:        "order": [
// CHECK:        "edges": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "producer": 1,
// CHECK-NEXT:       "consumer": 2,
// CHECK-NEXT:       "kind": "FLOW",
// CHECK-NEXT:       "distance": 0
// CHECK:        "kernel_deps": [
// CHECK:        "blocks": [],
// CHECK-NEXT:   "waits": null,
// CHECK-NEXT:   "lgkm_per_load": [
// CHECK-NEXT:     0,
// CHECK-NEXT:     0
// CHECK-NEXT:   ],
// CHECK-NEXT:   "scheduling": "IDENTITY",
// CHECK-NEXT:   "scheduler": null
// CHECK-NEXT: }

// Ping-pong (CSP): blocks, derived waits and the scheduler's result.
// CSP:      "schedule": "pingpong",
// CSP:      "waits": {
// CSP:      "scheduling": "CSP",
// CSP-NEXT: "scheduler": {
// CSP-NEXT:   "makespan": 420,
// CSP:        "lower_bound": 420,
// CSP-NEXT:   "proven_optimal": true,

"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.barrier"() : () -> ()
  "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) : () -> ()
