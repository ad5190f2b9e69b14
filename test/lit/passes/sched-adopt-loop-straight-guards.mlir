// sched-adopt-loop on IREE's i8 batch 2 x 547x183x142 with B given K x N, 4 prefetch stages
// (written by test/data/iree/generate.py, EPILOGUE_LIT_INPUTS; finding 99 of
// docs/iree-audits.md). K = 142 is three K tiles of 64, fewer than the stages, so the late
// form holds them straight, each copy of B an IREE guarded load (frontend/guarded_load.py)
// on the distance from its run to B's end, 'arith.subi %c51972, (affine.apply ...)'. In the
// last tile the second copy's row is the constant 142 (every row of that copy lies past K),
// and IREE folded it into the map's constant term: '#map2 = (s0 * 25986 + s1 + 25986)' over
// the batch and the column, where the other tiles' maps are '#map1 = (s0 * 25986 + s1 * 183
// + s2)' over all three indices. The K-loop rebuilt from the tiles
// (frontend/reroll_straight_regs.py) chose that distance by the trip, a select of tile 2's
// and tile 0's moved by 64 rows, which the guard check cannot read as IREE's test; the late
// form was refused at the rebuilt guard while the prefetch point pipelined. The loop now
// makes it the row-major index of its own load's indices (frontend/straight_copies.py,
// each tile's distance proven that index of the tile's own indices first), so both forms
// give one schedule:
// RUN: pipeline-opt %S/Inputs/iree-i8-batch-547x183x142.late.mlir --pipeline=4wave --emit=schedule-json -o %t.late
// RUN: pipeline-opt %S/Inputs/iree-i8-batch-547x183x142.prefetch.mlir --pipeline=4wave --emit=schedule-json -o %t.prefetch
// RUN: diff %t.late %t.prefetch
//
// A guard that is not IREE's test stays refused, at the tile's own guard: the last tile's
// folded map one row off (its distance counted from row 141):
// RUN: sed -e 's/^#map2 = affine_map<()\[s0, s1\] -> (s0 \* 25986 + s1 + 25986)>/#map2 = affine_map<()[s0, s1] -> (s0 * 25986 + s1 + 25803)>/' %S/Inputs/iree-i8-batch-547x183x142.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=ROW
// ROW: :485:18: error: sched-adopt-loop: 'scf.if' op (among the K tiles IREE's prefetch pipelining peeled) is not IREE's guarded load: its condition (the 'arith.andi' op at line 484:18) is not IREE's test of the buffer's end
//
// The loop takes a tile's distance for its own load's index only where it is an
// 'affine.apply' of that load's indices themselves: the last tile's map applied to a
// signed cast of the column that the load indexes by an unsigned cast of it (the guard
// check, which reads through casts, takes that tile's guard) leaves the distance chosen
// by the trip, and the rebuilt guard is refused as before, at tile 0's guard, which the
// loop clones:
// RUN: sed -e 's/%%356 = affine.apply #map2()\[%%176, %%220\]/%%cast = arith.index_cast %%219 : i32 to index\n          %%356 = affine.apply #map2()[%%176, %%cast]/' %S/Inputs/iree-i8-batch-547x183x142.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=CAST
// CAST: :300:18: error: sched-adopt-loop: 'scf.if' op with regions inside the K-loop: {{.*}} its condition (the 'arith.andi' op at line 299:18) is not IREE's test of the buffer's end
