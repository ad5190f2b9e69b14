// sched-import{schedule=4wave BM=256} on pipelines that disagree with it.

// expected-error @+1 {{'sched.pipeline' op is for 'pingpong' but the pipeline asks for '4wave{BM=256}'}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "pingpong"} : () -> ()

// -----

// expected-error @+1 {{'sched.pipeline' op is for '4wave{BM=128}' but the pipeline asks for '4wave{BM=256}'}}
"sched.pipeline"() ({
  "sched.mma"() {stage = 0, subtile = 0} : () -> ()
}) {schedule = "4wave", options = {BM = 128}} : () -> ()

// -----

// A body op the imported schedule has no use for.
"sched.pipeline"() ({
  // expected-error @+1 {{'sched.lds_store' op with channel 0 has no meaning in schedule '4wave'}}
  "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
}) : () -> ()
