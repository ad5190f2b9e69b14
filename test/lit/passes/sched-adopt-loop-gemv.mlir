// IREE's bf16 A x B^T 2x364x1024 (Inputs/iree-bf16-abt-2x364x1024.*.mlir,
// test/data/iree/generate.py LIT_INPUTS): with M = 2 IREE picks its VectorDistribute
// pipeline without an MFMA, one wave per column of C, each thread multiplying with FMAs
// and the wave reducing them. There is nothing for the 4-wave schedule to pipeline, and
// both forms say so at the module. At the prefetch point the K-loop's product is still a
// vector.contract once IREE's distribution has run (none of its MFMA layouts applies);
// it was refused there as a whole-tile product left undistributed, another reason than
// the late form's. IREE's vector lowering, which the front end runs next, makes it the
// late form's FMAs (frontend/vector_distribute.py):
// RUN: not pipeline-opt %S/Inputs/iree-bf16-abt-2x364x1024.prefetch.mlir --pipeline=4wave --emit=schedule-json 2>&1 | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/iree-bf16-abt-2x364x1024.late.mlir --pipeline=4wave --emit=schedule-json 2>&1 | FileCheck %s
// CHECK: :{{[0-9]+}}:1: error: sched-import: nothing to pipeline: the input has no 'sched.pipeline' op, no scf.for with sched-tagged ops and no K-loop for sched-adopt-loop (an scf.for whose body multiplies with amdgpu.mfma)
// CHECK-NOT: still multiplies whole tiles
