// A loop written for one pipeline given to another: the blocks do not fit, and the message
// says why in terms of options the pipeline has (never a key it does not accept, such as
// the core's block_sizing).
// RUN: not pipeline-opt --pipeline=4wave %S/../../../examples/gemm_loop_pingpong.mlir --emit=schedule 2>&1 | FileCheck %s --check-prefix=IDENTITY
// RUN: not pipeline-opt --pipeline='pingpong{scheduling=greedy max_globals=3}' 2>&1 | FileCheck %s --check-prefix=GREEDY

// IDENTITY: error: sched-derive-waits: MMA blocks: block 0 collects 4 fragment loads and 4 global loads; a block holds at most 2 of each (first extra: tag 4 (channel 1, stage 0, subtile 0)); the order is the body's own (scheduling=identity keeps it): the loop must issue at most 2 fragment loads and 2 global loads before each MMA; was it written for a different pipeline?
// IDENTITY-NOT: block_sizing
// GREEDY: pipeline-opt: error: pipeline 'pingpong{max_globals=3 scheduling=greedy}': MMA blocks: block 2 collects 1 fragment loads and 3 global loads; a block holds at most 2 of each (first extra: tag 1 (channel 1, stage 0, subtile 1)); the greedy order put them there: lower max_globals (global loads per MMA block) or try another scheduling
// GREEDY-NOT: block_sizing
