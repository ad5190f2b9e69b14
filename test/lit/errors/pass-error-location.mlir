// An error the scheduling core raises is reported at the sched.pipeline op it concerns.

// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits)'

// A ping-pong body whose global load fits no MMA block.
// expected-error @+1 {{sched-reorder: block placement: 1 global load(s) do not fit the block budget}}
"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> ()
  "sched.frag_load"() {channel = 0, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()
  "sched.frag_load"() {channel = 1, stage = 0, subtile = 0, role = "fragment_load", resource = "lds"} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
}) {schedule = "pingpong", options = {}, state = "annotated"} : () -> ()

// -----

// A 4-wave body with one MMA instead of eight.
// expected-error @+1 {{sched-derive-waits: MMA blocks: expected 8 blocks (one per MMA), the body has only 1}}
"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0", role = "global_load", resource = "global_mem"} : () -> ()
  "sched.frag_load"() {channel = 1, stage = 0, subtile = 1, role = "fragment_load", resource = "lds"} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0, role = "compute", resource = "mma_unit"} : () -> ()
}) {schedule = "4wave", options = {}, state = "annotated"} : () -> ()
