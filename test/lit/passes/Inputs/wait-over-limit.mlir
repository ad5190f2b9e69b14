// Inputs sched-lower-to-rocdl refuses: waits over the gfx950 counter limits (an
// error, never a clamp), a group hint without its kind and a wait above its derived count.
"sched.pipeline"() ({
  "sched.kernel"() ({
    // expected-error @+1 {{'sched.wait_vm' op: vmcnt(64) is outside the gfx950 range 0..63}}
    "sched.wait_vm"() {count = 64} : () -> ()
  }) : () -> ()
}) {schedule = "pingpong", state = "phases"} : () -> ()

// -----

"sched.pipeline"() ({
  "sched.epilogue"() ({
    // expected-error @+1 {{'sched.wait_lgkm' op: lgkmcnt(16) is outside the gfx950 range 0..15}}
    "sched.wait_lgkm"() {count = 16} : () -> ()
  }) : () -> ()
}) {schedule = "4wave", state = "phases"} : () -> ()

// -----

"sched.pipeline"() ({
  "sched.kernel"() ({
    // expected-error @+1 {{'sched.sched_group_barrier' op requires attribute 'kind' (one of "ds_read", "ds_write", "vmem_read", "mfma")}}
    "sched.sched_group_barrier"() {size = 1} : () -> ()
  }) : () -> ()
}) {schedule = "single-buffer", state = "phases"} : () -> ()

// -----

// a wait lowered for speed must be at least as strong as the count it was derived as
"sched.pipeline"() ({
  "sched.kernel"() ({
    // expected-error @+1 {{'sched.wait_vm' op: count 49 is above its derived_count 48 (a lowered wait must be at least as strong)}}
    "sched.wait_vm"() {count = 49, derived_count = 48} : () -> ()
  }) : () -> ()
}) {schedule = "4wave", state = "phases"} : () -> ()
