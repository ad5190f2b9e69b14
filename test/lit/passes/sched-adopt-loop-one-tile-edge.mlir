// sched-adopt-loop on IREE's f16 A x B^T 300x100x1030 at its prefetch point
// (Inputs/iree-f16-abt-300x100x1030.prefetch.mlir, test/data/iree/generate.py LIT_INPUTS):
// N = 100 is one 128-wide tile, so C's N edge cuts the B tile of every workgroup, 0
// included. B's rows are copied through registers, each masked by the rows left
// (frontend/masked_rows.py), which ties them to the grid's one tile along N: the forall
// dimension of one workgroup stands for it (IREE folds its induction variable, always 0,
// out of the row). The rows past 100 are then read past the end of B's range-checked
// buffer, in workgroup 0 too, whole runs of a lane at a time, which read zero in IREE's
// copies and in the front end's alike (frontend/edges.py). Pipelined, and exact on the
// emulator (random mode; every workgroup, late and random, bf16 and f16, by hand):
// RUN: pipeline-opt %S/Inputs/iree-f16-abt-300x100x1030.prefetch.mlir --pipeline=4wave --emulate --emulate-workgroups=1 --emulate-mode=random 2>&1 | FileCheck %s
// CHECK: M=300 N=100 K=1030 mode=random: exact, max error 0, 1 of 5 workgroups x 4 waves
//
// Its late form points B's rows past 100 past the end of B's buffer by an arith.select
// of the row: B's copies do not split into the schedule's subtiles, and the front end
// distributes them from the block workgroup 0 reads, where those rows are no strided
// block with the others. They read zero, as every element past the end does: the fit
// of the block takes them as free, and the front end's copies read the block's rows
// there, past the end too (frontend/block_fit.py): B's copies are the front end's, one
// set per subtile, reading B's buffer. Exact on the emulator (late mode, 2 of its 5
// workgroups, the edge one among them; by hand, not here, to keep the suite's time).
// Before: refused, `channel B: the global elements its LDS buffer holds are not a strided
// block of one buffer, swizzled or not (in workgroup 0, 896 of them lie past the end of
// its 103000 elements, ...)`:
// RUN: pipeline-opt %S/Inputs/iree-f16-abt-300x100x1030.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: scf.for
// LATE: amdgpu.gather_to_lds {{.*}}sched.global_load = {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 0 : i64}{{.*}}memref<100x1030xf16
// LATE: amdgpu.gather_to_lds {{.*}}sched.global_load = {channel = 1 : i64, {{.*}}stage = 0 : i64, subtile = 1 : i64}{{.*}}memref<100x1030xf16
//
// IREE's bf16 A x B^T 17x1024x512 (Inputs/iree-bf16-abt-17x1024x512.late.mlir): M = 17 is
// one 32-row tile, whose rows 17 to 31 the late form points past the end of A by an
// arith.select; the front end's copies of A read the block's rows there, past the end
// too (free in the fit of the block). Emulated in late mode on 2 of its 16 workgroups
// (the first and the last; each holds M's edge): exact. Before: refused at A's read (no
// split into the subtiles, nor a strided block the front end could copy):
// RUN: pipeline-opt %S/Inputs/iree-bf16-abt-17x1024x512.late.mlir --pipeline=4wave --emulate --emulate-workgroups=2 --emulate-mode=late 2>&1 | FileCheck %s --check-prefix=M17
// M17: M=17 N=1024 K=512 mode=late: exact, max error 0, 2 of 16 workgroups x 4 waves
