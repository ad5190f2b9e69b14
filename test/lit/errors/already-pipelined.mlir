// RUN: pipeline-opt --pipeline=4wave --emit=mlir -o %t.4wave.mlir
// RUN: not pipeline-opt %t.4wave.mlir '--pipeline=4wave{BM=128}' --emulate --mlir-print-ir-before=sched-adopt-loop 2>&1 | FileCheck %s --check-prefixes=DUMP,CHECK
// RUN: pipeline-opt --pipeline=pingpong --emit=mlir -o %t.pingpong.mlir
// RUN: not pipeline-opt %t.pingpong.mlir --pipeline=4wave 2>&1 | FileCheck %s --check-prefix=PINGPONG

// An already pipelined kernel (pipeline-opt's own --emit=mlir output fed back in) is refused
// at its loop, saying that it is pipelined and what to give instead; not "an MFMA operand
// comes from an iter_arg" (4-wave) or an out-of-range count (ping-pong), and before the
// wave count is compared with the schedule's. --emulate says the same (the build's refusal
// before what reading the dispatch ran into: not a 2-D binding, or IREE's epilogue MFMAs).
// The --emulate run checks the build's refusal (CHECK) too, and the ping-pong kernel is
// given to the 4-wave schedule, whose wave count differs: a refusal that came after the
// wave check, or after ping-pong's counts, would fail there.

// The front end --emulate runs on that path is the build's (the schedule's options
// kept), run once: a dump asked for appears once.
// DUMP-COUNT-1: IR Dump Before sched-adopt-loop
// DUMP-NOT:     IR Dump

// CHECK-NOT:  MFMA operand
// CHECK:      4wave.mlir:{{[0-9]+}}:{{[0-9]+}}: error: sched-adopt-loop: 'scf.for' op is already software-pipelined: 16 global->LDS copies before it (a prologue) and 64 MFMAs after it (an epilogue), and rocdl.sched.barrier, rocdl.sched.group.barrier in it; the front end pipelines a natural K-loop, which copies and multiplies every K tile inside one iteration: give pipeline-opt the kernel as it was before pipelining (for pipeline-opt's own output, the input it was made from, with --emit=asm, obj or hsaco for the code)
// CHECK-NEXT: = scf.for
// CHECK-NOT:  Traceback
// DUMP-NOT:   IR Dump

// PINGPONG-NOT:  out of range
// PINGPONG:      pingpong.mlir:{{[0-9]+}}:{{[0-9]+}}: error: sched-adopt-loop: 'scf.for' op is already software-pipelined: 14 global->LDS copies before it (a prologue) and 128 MFMAs after it (an epilogue), and rocdl.s.setprio, rocdl.sched.barrier, rocdl.sched.group.barrier in it; the front end pipelines a natural K-loop
// PINGPONG-NEXT: = scf.for
