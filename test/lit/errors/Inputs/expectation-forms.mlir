// Every form of expectation --verify-diagnostics knows, each met.

"sched.pipeline"() ({
  // expected-error-re @+1 {{attribute 'stage' must be >= 0, got {{-[0-9]+}}}}
  "sched.mma"() {stage = -1, subtile = 0} : () -> ()
  "sched.mma"() {stage = -2, subtile = 0} : () -> ()
  // expected-error @above {{got -2}}
  // expected-error @below {{got -3}}
  "sched.mma"() {stage = -3, subtile = 0} : () -> ()
  "sched.mma"() {stage = -5, subtile = 0} : () -> () // expected-error {{got -5}}
  // expected-error @unknown {{got -6}}
  "sched.mma"() {stage = -6, subtile = 0} : () -> () loc("a name, no file position")
}) {schedule = "4wave"} : () -> ()
