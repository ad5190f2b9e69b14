// sched-adopt-loop on IREE's bf16 A^T x B^T with M known only at launch and IREE's
// `padding` (K = 256; Inputs/iree-bf16-atbt-padded-m.*, both forms, written by
// test/data/iree/generate.py from dynamic.padded_source): A (K x M, `memref<256x?xbf16>`)
// is copied through registers, each lane's run of 8 masked by the M left along A's
// contiguous dimension. The masked elements are the columns past M of a row of A, which
// lie inside the buffer (the next row's), and with M not proven a multiple of 8 a run may
// be cut inside: no copy of whole runs reads what the masked one does at C's edge.
//
// Both forms are versioned (pipeline_mlir/frontend/edge_version.py): the workgroups whose
// tile lies inside M (128 (g + 1) <= M, computed in the kernel) run the pipelined loop,
// its masks proven full there and dropped; the others run IREE's loop as written, the
// remainder after the guarded pipelined loop, its masks kept. The versioned loops, their
// schedule and their exactness are checked in test/unit/frontend/test_edge_version.py
// (built and emulated there); here, what the proof refuses.
//
// A mask not full in some workgroup inside M (one element short where 8 are left:
// `min(8, left - 1)`) is refused at the read, with the thread and sizes:
// RUN: sed -e 's/^#map9 = affine_map<(d0, d1) -> (8, d0 - d1)>/#map9 = affine_map<(d0, d1) -> (8, d0 - d1 - 1)>/' %S/Inputs/iree-bf16-atbt-padded-m.prefetch.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: <stdin>:155:22: error: sched-adopt-loop: 'vector.transfer_read' op at line 155:22 is masked to 7 of 8 elements on thread 15 in iteration 0 at sizes 128 g + d for d in 129 .. any, in a workgroup whose tile lies inside the size
//
// A mask computed from a value the proof does not follow (the M left taken from the
// `util.assume.int` rather than the workgroup loop's size) is not proven, and refused:
// RUN: sed -e '72s/\[%12\]/[%9]/' %S/Inputs/iree-bf16-atbt-padded-m.prefetch.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: <stdin>:155:22: error: sched-adopt-loop: 'vector.transfer_read' op at line 155:22: its mask is not proven full in every workgroup whose tile lies inside the size ('util.assume.int' is outside the affine forms the proof takes, on thread 0
//
// The late form whose tile row is not an unsigned divide of the workgroup loop's variable
// (`divsi`: no tile row the versioning takes) is refused at the masked load, as before the
// versioning: the run is masked inside the buffer and may be cut inside:
// RUN: sed -e 's/%158 = arith.divui %arg0, %c32 : index/%158 = arith.divsi %arg0, %c32 : index/' %S/Inputs/iree-bf16-atbt-padded-m.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: <stdin>:299:22: error: sched-adopt-loop: 'vector.maskedload' op at line 299:22 has a mask whose size depends on the workgroup (block argument #0 of the 'scf.for' over workgroups)
// LATE-SAME: this one sizes the lane's run of 8 elements along dimension 1 of memref<256x?xbf16, #gpu.address_space<global>>, its contiguous dimension (rows along K, columns along M or N: a K x M A or K x N B cut at C's edge): the elements it masks lie inside the buffer (in the row or the next)
// LATE-SAME: that size is known only at launch and nothing proves it a multiple of 8 (util.assume.int's udiv), so a run may be cut inside
