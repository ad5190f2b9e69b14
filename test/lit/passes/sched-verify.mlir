// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-verify)'
// RUN: pipeline-opt %S/Inputs/empty.mlir --pass-pipeline='builtin.module(sched-import{schedule=pingpong},sched-verify,sched-annotate,sched-verify,sched-reorder,sched-verify,sched-derive-edges,sched-verify,sched-schedule,sched-verify,sched-derive-waits,sched-verify,sched-explicit-blocks,sched-verify,sched-expand-phases,sched-verify,sched-lower-to-rocdl,sched-verify)' | FileCheck %s

// sched-verify checks every sched op against the dialect's schema, each
// pipeline against its schedule and state, programs against the structural
// safety checks and phase waits against the gfx950 counter limits;
// every problem is a located error at the op concerned.

// A valid pipeline passes at every stage of the compile, lowered included.
// CHECK: schedule = "pingpong", search_nodes = {{[0-9]+}} : i64, state = "lowered"

// Unknown op.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.frobnicate' is not an op of the sched dialect (known: sched.pipeline, sched.program}}
  "sched.frobnicate"() : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// Unknown attribute.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.mma' op has unknown attribute 'color' (allowed: time_slot, prefetch, slot, block, payload, tag, channel, stage, subtile, k_offset}}
  "sched.mma"() {stage = 0, subtile = 0, color = "red"} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// Attribute of the wrong type.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.mma' op attribute 'stage' must be an integer; got "zero"}}
  "sched.mma"() {stage = "zero", subtile = 0} : () -> ()
  // expected-error @+1 {{'sched.set_prio' op attribute 'priority' must be an integer; got true}}
  "sched.set_prio"() {priority = true} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// Integers wider than 64 bits (the bindings read an i128 -1 as 2^128 - 1): refused, negative
// or not, as are values outside the i64 range.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.mma' op attribute 'stage' must be an integer of at most 64 bits (-9223372036854775808..9223372036854775807); got -1 : i128}}
  "sched.mma"() {stage = -1 : i128, subtile = 0} : () -> ()
  // expected-error @+1 {{'sched.mma' op attribute 'subtile' must be an integer of at most 64 bits}}
  "sched.mma"() {stage = 0, subtile = 18446744073709551615 : ui64} : () -> ()
  "sched.mma"() {stage = 0 : i32, subtile = 1 : index} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// Negative value (channel -1 means "no channel" and is allowed).
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.mma' op attribute 'stage' must be >= 0, got -1}}
  "sched.mma"() {stage = -1, subtile = 0} : () -> ()
  // expected-error @+1 {{'sched.frag_load' op attribute 'channel' must be >= -1, got -2}}
  "sched.frag_load"() {channel = -2, stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// Bad enum value.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.global_load' op attribute 'k_offset' must be one of "k0", "k1", "k_next", "k_prev", "none"; got "k7"}}
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k7"} : () -> ()
}) {schedule = "4wave"} : () -> ()


// -----

"sched.pipeline"() ({
  // expected-error @+1 {{'sched.sched_group_barrier' op attribute 'kind' must be one of "ds_read", "ds_write", "vmem_read", "mfma"; got "salu"}}
  "sched.sched_group_barrier"() {kind = "salu", size = 1} : () -> ()
}) {schedule = "single-buffer"} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op attribute 'state' must be one of "logical", "annotated", "reordered", "edges", "scheduled", "blocks", "explicit", "phases", "lowered"; got "bogus"}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", state = "bogus"} : () -> ()

// -----

// Bad parent.
// expected-error @+1 {{'sched.mma' op must be nested in 'sched.pipeline' or 'sched.block' or 'sched.prologue' or 'sched.kernel' or 'sched.epilogue', not in 'builtin.module'}}
"sched.mma"() {stage = 0, subtile = 0} : () -> ()

// -----

"sched.pipeline"() ({
  // expected-error @+1 {{'sched.block' op must be nested in 'sched.program', not in 'sched.pipeline'}}
  "sched.block"() ({
  }) : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// Missing attribute.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.wait_vm' op requires attribute 'count'}}
  "sched.wait_vm"() : () -> ()
  // expected-error @+1 {{'sched.sched_group_barrier' op requires attribute 'size'}}
  "sched.sched_group_barrier"() {kind = "mfma"} : () -> ()
}) {schedule = "single-buffer"} : () -> ()

// -----

// Attributes the lowering could not honour are not part of the schema: a
// schedule barrier is always mask 0 and a group hint always sync group 0.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.sched_barrier' op has unknown attribute 'mask' (allowed: time_slot, prefetch, slot, block, payload, tag)}}
  "sched.sched_barrier"() {mask = 8} : () -> ()
  // expected-error @+1 {{'sched.sched_group_barrier' op has unknown attribute 'group'}}
  "sched.sched_group_barrier"() {kind = "mfma", size = 2, group = 1} : () -> ()
}) {schedule = "single-buffer"} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op has no 'schedule' attribute: name the schedule ("4wave", "pingpong" or "single-buffer") or run sched-import{schedule=NAME} first}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) : () -> ()

// -----

// Operands and results: entry ops are linked to payload ops by attribute.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.mma' op takes no operands and has no results}}
  %0 = "sched.mma"() {stage = 0, subtile = 0} : () -> (i32)
}) {schedule = "4wave"} : () -> ()

// -----

// Bad schedule.
// expected-error @+1 {{'sched.pipeline' op attribute 'schedule': unknown schedule "8wave" (known: pingpong, 4wave, single-buffer)}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "8wave"} : () -> ()

// -----

// Body ops must mean something to the schedule.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.lds_store' op with channel 0 has no meaning in schedule '4wave' (it accepts: sched.global_load with channel 0, sched.global_load with channel 1, sched.frag_load with channel 0, sched.frag_load with channel 1, sched.mma, sched.global_load with channel 2, sched.global_load with channel 3, sched.frag_load with channel 2, sched.frag_load with channel 3)}}
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

"sched.pipeline"() ({
  // expected-error @+1 {{'arith.constant' op is not allowed in a 'sched.pipeline' body}}
  %c0 = "arith.constant"() {value = 0 : i32} : () -> (i32)
}) {schedule = "4wave"} : () -> ()

// -----

// Bad options.
// expected-error @+1 {{'sched.pipeline' op: pipeline '4wave': unknown option 'color'; valid keys: dtype, BM, BN, BK}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", options = {color = 1}} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op: pipeline '4wave': option 'BM' is out of range: expects an integer >= 1, got 0}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", options = {BM = 0}} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op: pipeline '4wave': geometry: BK by MMA_K must divide exactly (64 / 128)}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", options = {dtype = "fp8"}} : () -> ()

// -----

// Wrong state: attributes or ops the state promises are missing.
// expected-error @+2 {{'sched.pipeline' op in state "scheduled" must have 'edges'}}
// expected-error @+1 {{'sched.pipeline' op in state "scheduled" must have 'order'}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", state = "scheduled"} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op in state "blocks" must hold a 'sched.program'}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", state = "blocks", edges = [], order = array<i64: 0>} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op in state "phases" lacks sched.prologue, sched.epilogue}}
"sched.pipeline"() ({
  "sched.kernel"() ({
  }) : () -> ()
}) {schedule = "single-buffer", state = "phases", edges = [], order = array<i64>} : () -> ()

// -----

// Malformed derived attributes.
// expected-error @+1 {{'sched.pipeline' op attribute 'edges': malformed edge "0->1X0" (expected "P->C<F|A|O><distance>", e.g. "0->5F0")}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", state = "edges", edges = ["0->1X0"]} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op attribute 'edges': edge "0->3F0" refers to op 3, but there are only 1 ops}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", state = "edges", edges = ["0->3F0"]} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op attribute 'order' must be a permutation of 0..0; got [1]}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", state = "scheduled", edges = [], order = array<i64: 1>} : () -> ()

// -----

// Programs failing the structural checks (reported at the program).
"sched.pipeline"() ({
  // expected-error @+1 {{schedule check: expected 8 blocks, got 1}}
  "sched.program"() ({
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute"} : () -> () }) : () -> ()
  }) : () -> ()
}) {schedule = "pingpong", state = "blocks", edges = [], order = array<i64>} : () -> ()

// -----

"sched.pipeline"() ({
  // expected-error @+1 {{schedule check: block 7 has no MMA op}}
  "sched.program"() ({
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 1, subtile = 1, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.frag_load"() {slot = "pre_op_0", channel = 0, stage = 1, subtile = 0} : () -> () }) : () -> ()
  }) : () -> ()
}) {schedule = "pingpong", state = "blocks", edges = [], order = array<i64>} : () -> ()

// -----

"sched.pipeline"() ({
  // expected-error @+1 {{schedule check: no global load is marked as prefetch}}
  "sched.program"() ({
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 1, subtile = 1, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 0, subtile = 1, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 1, subtile = 0, role = "compute"} : () -> () }) : () -> ()
    "sched.block"() ({ "sched.mma"() {slot = "mma", stage = 1, subtile = 1, role = "compute"} : () -> () }) : () -> ()
  }) : () -> ()
}) {schedule = "pingpong", state = "blocks", edges = [], order = array<i64>} : () -> ()

// -----

// Block slots.
"sched.pipeline"() ({
  "sched.program"() ({
    "sched.block"() ({
      // expected-error @+1 {{'sched.mma' op attribute 'slot': unknown slot "middle" (expected one of pre_op_0, pre_op_1, global_load}}
      "sched.mma"() {slot = "middle", stage = 0, subtile = 0} : () -> ()
    }) : () -> ()
  }) : () -> ()
}) {schedule = "pingpong", state = "blocks", edges = [], order = array<i64>} : () -> ()

// -----

// Waits over the gfx950 counter limits (vmcnt <= 63, lgkmcnt <= 15).
"sched.pipeline"() ({
  "sched.prologue"() ({
  }) : () -> ()
  "sched.kernel"() ({
    // expected-error @+1 {{'sched.wait_vm' op: vmcnt(64) is over the gfx950 limit 63}}
    "sched.wait_vm"() {count = 64} : () -> ()
    "sched.wait_vm"() {count = 63} : () -> ()
    "sched.wait_lgkm"() {count = 15} : () -> ()
  }) : () -> ()
  "sched.epilogue"() ({
    // expected-error @+1 {{'sched.wait_lgkm' op: lgkmcnt(16) is over the gfx950 limit 15}}
    "sched.wait_lgkm"() {count = 16} : () -> ()
  }) : () -> ()
}) {schedule = "single-buffer", state = "phases", edges = [], order = array<i64>} : () -> ()
