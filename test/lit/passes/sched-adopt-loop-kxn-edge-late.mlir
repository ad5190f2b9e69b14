// sched-adopt-loop on the late form of IREE's bf16 A x B with M and N known only at launch
// and IREE's `padding` (K = 256; Inputs/iree-bf16-ab-padded-mn.*, written by
// test/data/iree/generate.py from dynamic.padded_source). B (K x N, `memref<256x?xbf16>`)
// is copied through registers, each lane's run of 8 masked by the N left along B's
// contiguous dimension; A's rows (M x K) are guarded by M, each an `scf.if` around a
// `vector.load` stored straight to LDS. The workgroups run a linearised loop whose column
// tile is IREE's `v remsi ceildiv(N, 128)` (corrected for a negative remainder it never
// has), a remainder by a launch value: proven the workgroup's tile along N for every size
// (pipeline_mlir/frontend/row_proof_late.py), the loop is versioned on it
// (pipeline_mlir/frontend/edge_version.py): the workgroups whose column tile lies inside N
// (128 (g + 1) <= N) run the pipelined loop, B's masks dropped there and its copies staged
// through registers (N is no proven multiple of 8); the others IREE's loop as written, the
// remainder, B's masked loads kept. A's guarded rows are read from a range-checked buffer at
// [guard ? row : M, col] (pipeline_mlir/frontend/direct_rows_late.py) on both paths.
// Exact on the emulator: test/unit/tools/test_dynamic_shapes.py (`padded-kxn-late`).
// RUN: pipeline-opt %S/Inputs/iree-bf16-ab-padded-mn.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s
// CHECK: scf.for %arg0 = %workgroup_id_x to %{{.*}} step %workgroup_count_x {
// CHECK: %[[COL:.*]] = arith.remsi %arg0, %[[TILES:.*]] : index
// CHECK: %[[A:.*]] = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<?x256xbf16, #gpu.address_space<global>> to memref<?x256xbf16, #amdgpu.address_space<fat_raw_buffer>>
// CHECK: %[[NEXT:.*]] = arith.addi %[[COL]], %{{.*}} : index
// CHECK: %[[END:.*]] = arith.muli %[[NEXT]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi sle, %[[END]], %15#1 : index
// CHECK: arith.select %[[IN]], %{{.*}}, %c0_i32 : i32
// CHECK: amdgpu.gather_to_lds %{{.*}} : vector<8xbf16>, memref<?x256xbf16, #amdgpu.address_space<fat_raw_buffer>>
// CHECK: amdgpu.gather_to_lds {{.*}} sched.register_staged} : vector<8xbf16>, memref<256x?xbf16
// CHECK: } {sched.edge_versioned, sched.merge_k = "merge_k=auto leaves its K steps as they are: its trip count is known only at launch", sched.options = {BK = 32 : i64, BM = 128 : i64, BN = 128 : i64, dtype = "bf16", lgkm_per_load_b = 4 : i64}, sched.schedule = "4wave"}
// CHECK-NOT: scf.if
// CHECK: vector.load %[[A]][%{{.*}}, %{{.*}}] : memref<?x256xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<8xbf16>
// CHECK: vector.maskedload {{.*}} : memref<256x?xbf16, #gpu.address_space<global>>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
// CHECK: } {sched.loads_in_place = "{{.*}}", sched.remainder}
//
// A column tile that is no tile along N (the remainder by the M tiles' count, not N's) is
// not versioned on, and B's masked read is refused there, with the reason:
// RUN: sed -e 's/%178 = arith.remsi %arg0, %175 : index/%178 = arith.remsi %arg0, %167 : index/' %S/Inputs/iree-bf16-ab-padded-mn.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=NOTILE
// NOTILE: error: sched-adopt-loop: 'vector.maskedload' op at line 358:22: its mask is not proven full in every workgroup whose tile lies inside the size ('util.assume.int' is outside the affine forms the proof takes
