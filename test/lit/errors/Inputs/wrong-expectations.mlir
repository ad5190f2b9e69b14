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

// -----

// Expectations of warnings and remarks nobody emits fail as well.
// expected-warning @+2 {{a warning nobody emits}}
// expected-remark @+1 {{a remark nobody emits}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// A regex that does not match, and an @unknown expectation for an error that
// has a file location.
"sched.pipeline"() ({
  // expected-error-re @+2 {{got {{[0-9]+}}}}
  // expected-error @unknown {{must be >= 0}}
  "sched.mma"() {stage = -4, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()

// -----

// A malformed expectation (a line offset that is not a number, one brace) is an
// error at it, never skipped.
// expected-error @+x {{never read}}
// expected-error{one brace}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave"} : () -> ()
