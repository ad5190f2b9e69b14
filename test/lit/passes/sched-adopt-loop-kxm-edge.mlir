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
// remainder after the guarded pipelined loop, its masks kept. The prefetch point's
// versioned loop is built and emulated in test/unit/frontend/test_edge_version.py. The late
// form (the workgroups in a grid-stride loop, the tile row `v divui 32`) is versioned on
// that row and M, its pipelined loop with the prefetch point's options, its remainder
// keeping IREE's masked loads:
// RUN: pipeline-opt %S/Inputs/iree-bf16-atbt-padded-m.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: %[[ROW:.*]] = arith.divui %arg0, %c32 : index
// LATE: %[[NEXT:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// LATE: %[[END:.*]] = arith.muli %[[NEXT]], %{{.*}} : index
// LATE: %[[IN:.*]] = arith.cmpi sle, %[[END]], %8 : index
// LATE: arith.select %[[IN]], %{{.*}}, %c0_i32 : i32
// LATE: amdgpu.gather_to_lds {{.*}} sched.register_staged} : vector<8xbf16>, memref<256x?xbf16
// LATE: } {sched.edge_versioned, sched.merge_k = "merge_k=auto leaves its K steps as they are: its trip count is known only at launch", sched.options = {BK = 32 : i64, BM = 128 : i64, BN = 128 : i64, dtype = "bf16", lgkm_per_load_a = 4 : i64}, sched.schedule = "4wave"}
// LATE: vector.maskedload {{.*}} : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
// LATE: } {sched.loads_in_place = "its loads stay in their iteration: {{.*}}", sched.remainder}
//
// IREE's bf16 A^T x B with M and N at launch (Inputs/iree-bf16-atb-padded-mn.*): the late
// form's tile row is `v floordivsi ceildiv(N, 128)`, proven a tile along M since the
// workgroup loop's bound is `ceildiv(N, 128) ceildiv(M, 128)`, its column `v remsi
// ceildiv(N, 128)`. The loop is versioned on both, A's copies (masked by the M left) and
// B's (by the N left) read from the row: the loop to pipeline keeps IREE's own divide
// (before, its values outside the loop were copied, the divide too, whose copy divides by
// a copy of ceildiv(N, 128) that the loop's bound is no product of: no tile, and A's
// copies were refused as reading at an index that depends on a launch value):
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-padded-mn.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=MN
// MN: %[[MROW:.*]] = arith.floordivsi %arg0, %[[X:.*]] : index
// MN-NEXT: %[[MCOL:.*]] = arith.remsi %arg0, %[[X]] : index
// MN: %[[MR1:.*]] = arith.addi %[[MROW]], %{{.*}} : index
// MN-NEXT: %[[MREND:.*]] = arith.muli %[[MR1]], %{{.*}} : index
// MN-NEXT: %[[MRIN:.*]] = arith.cmpi sle, %[[MREND]], %15#0 : index
// MN: %[[MC1:.*]] = arith.addi %[[MCOL]], %{{.*}} : index
// MN-NEXT: %[[MCEND:.*]] = arith.muli %[[MC1]], %{{.*}} : index
// MN-NEXT: %[[MCIN:.*]] = arith.cmpi sle, %[[MCEND]], %15#1 : index
// MN-NEXT: %[[MIN:.*]] = arith.andi %[[MRIN]], %[[MCIN]] : i1
// MN-NEXT: arith.select %[[MIN]], %{{.*}}, %c0_i32 : i32
// MN: amdgpu.gather_to_lds %16[{{.*}} sched.register_staged} : vector<8xbf16>, memref<256x?xbf16
// MN: } {sched.edge_versioned, sched.merge_k = "merge_k=auto leaves its K steps as they are: its trip count is known only at launch", sched.options = {BK = 32 : i64, BM = 128 : i64, BN = 128 : i64, dtype = "bf16", lgkm_per_load_a = 4 : i64, lgkm_per_load_b = 4 : i64}, sched.schedule = "4wave"}
// MN: vector.maskedload {{.*}} : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
// MN: sched.remainder}
// (exact at 129 x 272, the prefetch point's schedule: test_edge_version.py)
//
// The row divided by the M tiles' count (`v floordivsi ceildiv(M, 128)`, below
// ceildiv(N, 128): a tile along N, not M, while A's masks move with M) is no tile A's masks
// can be versioned on, and the loop is refused at A's load:
// RUN: sed -e 's/%%203 = arith.floordivsi %%arg0, %%201 : index/%%203 = arith.floordivsi %%arg0, %%193 : index/' %S/Inputs/iree-bf16-atb-padded-mn.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=BYM
// BYM: <stdin>:313:22: error: sched-adopt-loop: 'vector.maskedload' op at line 313:22 has a mask that moves with the workgroup but not with a size known at launch that the workgroups tile
//
// A row `v ceildivsi ceildiv(N, 128)` is no tile (the last workgroups' rows would lie past
// M): nothing is versioned and A's masked load stays; refused there, saying that no mask
// pass took it (before, the message named only the loads the front end takes):
// RUN: sed -e 's/%%203 = arith.floordivsi %%arg0, %%201 : index/%%203 = arith.ceildivsi %%arg0, %%201 : index/' %S/Inputs/iree-bf16-atb-padded-mn.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=CEIL
// CEIL: <stdin>:313:22: error: sched-adopt-loop: 'vector.maskedload' op reads global memory into registers inside the K-loop; the front end takes global loads that are copies to LDS (vector.load or vector.transfer_read, then an LDS store): no mask pass of the front end made this masked load one of those
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
// A mask that also moves with K is proven at every iteration the pipelined loop runs, not
// only the first: full in the interior up to iteration 5, short from iteration 6 on
// (`min(left, 168 - 32 k)`), refused there:
// RUN: sed -e '154a\              %%kk = affine.min affine_map<(d0)[s0] -> (s0, 168 - d0 * 32)>(%%arg2)[%%33]\n              %%mk = vector.create_mask %%c1, %%kk : vector<1x8xi1>' -e '155s/%%cst_0, %%35 /%%cst_0, %%mk /' %S/Inputs/iree-bf16-atbt-padded-m.prefetch.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=KMOVE
// KMOVE: <stdin>:157:22: error: sched-adopt-loop: 'vector.transfer_read' op at line 157:22 is masked to -24 of 8 elements on thread 0 in iteration 6 at sizes 128 g + d
//
// The late form's tile row recomputed inside the K-loop (`v divui 32` there, A's mask
// `min(M - 128 row, 8)` of it) is no workgroup value the interior test, emitted before the
// loop, can use (it crashed the tool, the test using a value defined in the loop); the loop
// is not versioned, and refused at the load:
// RUN: sed -e '298a\              %%gg = arith.divui %%arg0, %%c32 : index\n              %%ggm = arith.muli %%gg, %%c128 : index\n              %%ggl = arith.subi %%8, %%ggm : index\n              %%ggs = arith.minsi %%ggl, %%c8 : index\n              %%ggk = vector.create_mask %%ggs : vector<8xi1>' -e '299s/%%181\], %%182,/%%181], %%ggk,/' %S/Inputs/iree-bf16-atbt-padded-m.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=INLOOP
// INLOOP: <stdin>:304:22: error: sched-adopt-loop: 'vector.maskedload' op
//
// A mask that moves with two workgroup dimensions at once (A's also bounded by the
// column tile's `4096 - 128 j`, never below 8: the same kernel) is not proven and refused,
// the column tile being neither the workgroup nor the size:
// RUN: sed -e 's/^#map9 = affine_map<(d0, d1) -> (8, d0 - d1)>/&\n#map99 = affine_map<(d0, d1)[s0] -> (8, d0 - d1, 4096 - s0 * 128)>/' -e 's/%%33 = affine.min #map9(%%20, %%32)/%%33 = affine.min #map99(%%20, %%32)[%%arg1]/' %S/Inputs/iree-bf16-atbt-padded-m.prefetch.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: <stdin>:156:22: error: sched-adopt-loop: 'vector.transfer_read' op at line 156:22: its mask is not proven full in every workgroup whose tile lies inside the size (a block argument of 'scf.forall' is neither the workgroup, the size, the thread id nor the K-loop's variable
