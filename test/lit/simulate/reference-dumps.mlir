// pipeline-opt --simulate on the reference's own schedule dumps (Inputs/), each
// simulated as the kernel of --pipeline runs it for main loops of 0..6 iterations.
// RUN: pipeline-opt --simulate %S/Inputs/pingpong_bf16_l2_2.txt --pipeline='pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2 waits=block}' --cost-table=llvm | FileCheck %s --check-prefix=PP
// RUN: not pipeline-opt --simulate %S/Inputs/4wave_bf16_128x128x64.txt --pipeline=4wave 2>&1 | FileCheck %s --check-prefix=W4
// RUN: not pipeline-opt --simulate %S/Inputs/4wave_bf16_128x128x64.txt --pipeline=4wave --report --cost-table=measured 2>&1 | FileCheck %s --check-prefix=W4R
// RUN: pipeline-opt --simulate --pipeline=4wave --report --cost-table=llvm | FileCheck %s --check-prefix=OWN

// The ping-pong reference schedule (the reference's counts: vm 4/4, lgkm 2/2) is hazard-free;
// exit 0 with a one-line verdict.
// PP: pingpong_bf16_l2_2.txt (pingpong{vm_per_load_a=4 vm_per_load_b=4 lgkm_per_load_a=2 lgkm_per_load_b=2 waits=block}): safe for main loops of 0..6 iterations: no hazard, every accumulator receives each K tile once

// The 4-wave reference schedule is not (a finding): exit 1 with the first hazard. With one
// main-loop iteration, the bootstrap fragment read of B stage 0 subtile 0 is still in flight
// (LGKM(4) at kernel entry 2 leaves it outstanding across the barrier) when another wave's
// B prefetch of kernel entry 14 may overwrite its slot.
// W4: 4wave_bf16_128x128x64.txt: error: hazard with 1 main-loop iteration (war, lgkmcnt): prologue entry 13: MMA_LOAD_B s=0 sub=0 reads LDS B stage 0 subtile 0 (completed by the lgkmcnt wait at kernel entry 10 (iteration 0)); LOAD_B s=0 sub=0 (K tile 2) at kernel entry 14 (iteration 0) may overwrite the slot before that: no barrier separates the wait from the load

// --report lists every hazard once, with the main-loop lengths that show it: the WAR above
// (and its steady-state twin at kernel entry 57), the same at the top of the second half,
// and six epilogue reads of data each wave waited for but no barrier made visible.
// W4R:      Functional model (main loops of 0..6 iterations)
// W4R-NEXT:   hazards:
// W4R-NEXT:   [war/lgkmcnt] (main loops of 1..6 iterations) prologue entry 13:
// W4R-NEXT:   [war/lgkmcnt] (main loops of 1..6 iterations) kernel entry 25 (iteration 0):
// W4R-COUNT-6: [raw/vmcnt] (main loops of 1..6 iterations) epilogue entry {{[0-9]+}}: {{.*}} is not followed by a barrier before the read
// W4R-NEXT:   [war/lgkmcnt] (main loops of 2..6 iterations) kernel entry 57 (iteration 0):
// W4R:        implicit waits (not hazards: LLVM's waitcnt pass waits for the register; visible in the ISA): 2
// W4R:      Timing model (one CU; steady state of a 6-iteration main loop)
// W4R-NEXT:   measured (gfx950 clock cycles)
// W4R-NEXT:   ResMII (binding unit) {{ *}}1024 (XDL[simd{{[0-3]}}])
// W4R:      error: hazard with 1 main-loop iteration (war, lgkmcnt)

// The project's own 4-wave schedule: the same findings as printed, and the kernel with
// sched-fix-hazards' four changes is safe (exit 0).
// OWN:      Functional model (main loops of 0..6 iterations)
// OWN-NEXT:   hazards: none; every accumulator receives K tiles 0..2N+1 once each
// OWN:      The schedule as printed (the reference's) has these hazards; the kernel runs it with the fixes below:
// OWN:      Kernel fixes (sched-fix-hazards):
// OWN-NEXT:   WAIT_LGKM(0) replaces kernel entry 2 (WAIT_LGKM):
// OWN-NEXT:   WAIT_LGKM(0) replaces kernel entry 34 (WAIT_LGKM):
// OWN-NEXT:   BARRIER + SCHED_BARRIER before epilogue entry 1 (MMA_LOAD_B s=0 sub=1):
// OWN-NEXT:   BARRIER + SCHED_BARRIER before epilogue entry 5 (MMA s=0 sub=0):
// OWN:      llvm (LLVM SchedModel units)
// OWN-NEXT:   ResMII (binding unit) {{ *}}256 (XDL[simd{{[0-3]}}])
// OWN:      verdict: 4wave: safe for main loops of 0..6 iterations
