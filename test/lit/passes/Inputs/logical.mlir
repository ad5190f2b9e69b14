// A logical 4-wave pipeline (no pass has run): the input of the wrong-state tests.
"sched.pipeline"() ({
  "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0"} : () -> ()
  "sched.frag_load"() {channel = 1, stage = 0, subtile = 1} : () -> ()
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", options = {}} : () -> ()
