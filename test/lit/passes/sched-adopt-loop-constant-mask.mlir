// sched-adopt-loop on IREE's fp8 E5M2 A^T x B^T 7x20x1906 (Inputs/iree-fp8e5m2-atbt-7x20x1906.*,
// both forms, written by test/data/iree/generate.py): A (K x M, `memref<1906x7xf8E5M2>`) is
// copied through registers, each lane's run of 16 masked to M's 7 columns (a run C's edge
// cuts, frontend/cut_runs.py) and by whether its K row lies inside K. The prefetch point
// masks it by `vector.create_mask %rows, %c7`; the late form by its 1-D lowering,
// `arith.select %row_inside, %m, %false` with %m a `vector.constant_mask [7]`, which the
// front end reads as the create_mask of its size 7 (frontend/constant_masks.py; before,
// refused at the load: a mask that is not a vector.create_mask). Both forms copy A's runs
// in pieces kept by their own conditions:
// RUN: pipeline-opt %S/Inputs/iree-fp8e5m2-atbt-7x20x1906.late.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: pipeline-opt %S/Inputs/iree-fp8e5m2-atbt-7x20x1906.prefetch.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: amdgpu.gather_to_lds {{.*}}sched.kept_cut_piece = 1 : i64, sched.kept_mask, {{.*}} : vector<4xf8E5M2>, memref<1906x7xf8E5M2
// LATE: sched.schedule = "4wave"
//
// The same bits as a constant (a batch's late form masks so): read as the create_mask of 7
// RUN: sed -e 's/%%62 = vector.constant_mask \[7\] : vector<16xi1>/%%62 = arith.constant dense<[true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false]> : vector<16xi1>/' %S/Inputs/iree-fp8e5m2-atbt-7x20x1906.late.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
//
// The selects still refused at the load, each saying which part breaks the form: a false
// side that is not all false (the constant mask itself; a select of two create_masks),
// RUN: sed -e 's/%%73 = arith.select %%72, %%62, %%cst_0/%%73 = arith.select %%72, %%62, %%62/' %S/Inputs/iree-fp8e5m2-atbt-7x20x1906.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=FALSE
// FALSE: <stdin>:127:19: error: sched-adopt-loop: 'scf.if' op at line 127:19 is masked by a value that is not a vector.create_mask; the front end peels masks of the sizes left in the last K tile; it is the 'arith.select' at line 118:19, which the front end reads as a mask only as 'arith.select %c, %m, %false' of an i1 %c, the all-false %false and a vector.create_mask %m {{.*}}: its false side is not the all-false constant
// RUN: sed -e 's/%%73 = arith.select %%72, %%62, %%cst_0 : vector<16xi1>/%%m16 = vector.create_mask %%c16 : vector<16xi1>\n%%m4 = vector.create_mask %%c4 : vector<16xi1>\n%%73 = arith.select %%72, %%m16, %%m4 : vector<16xi1>/' %S/Inputs/iree-fp8e5m2-atbt-7x20x1906.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: <stdin>:129:19: error: sched-adopt-loop: 'scf.if' op at line 129:19 is masked by a value that is not a vector.create_mask; {{.*}} it is the 'arith.select' at line 120:7, {{.*}}: its false side is not the all-false constant
//
// a condition that is a vector (one per lane, not one for the lane's run),
// RUN: sed -e 's/%%73 = arith.select %%72, %%62, %%cst_0 : vector<16xi1>/%%73 = arith.select %%62, %%62, %%cst_0 : vector<16xi1>, vector<16xi1>/' %S/Inputs/iree-fp8e5m2-atbt-7x20x1906.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=VECTOR
// VECTOR: <stdin>:127:19: error: sched-adopt-loop: 'scf.if' op at line 127:19 is masked by a value that is not a vector.create_mask; {{.*}}: its condition is a vector, not one i1 for the lane's run
//
// and a true side that is no mask of a size (a constant whose lanes are not a prefix):
// RUN: sed -e 's/%%62 = vector.constant_mask \[7\] : vector<16xi1>/%%62 = arith.constant dense<[true, true, true, true, true, true, false, true, false, false, false, false, false, false, false, false]> : vector<16xi1>/' %S/Inputs/iree-fp8e5m2-atbt-7x20x1906.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=TRUE
// TRUE: <stdin>:127:19: error: sched-adopt-loop: 'scf.if' op at line 127:19 is masked by a value that is not a vector.create_mask; {{.*}}: its true side is none of those masks (made by 'arith.constant')
