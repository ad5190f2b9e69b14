// Expectations that do not match what sched-verify reports.

// expected-error @+1 {{this message is never produced}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

"sched.pipeline"() ({
  "sched.mma"() {stage = -3, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// The right message on the wrong line.
"sched.pipeline"() ({
  // expected-error @+2 {{'sched.wait_vm' op requires attribute 'count'}}
  "sched.wait_vm"() : () -> ()
}) {schedule = "4wave"} : () -> ()
