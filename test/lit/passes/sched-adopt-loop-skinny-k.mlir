// sched-adopt-loop on two of IREE's skinny and tiny kernels (written by
// test/data/iree/generate.py, LIT_INPUTS).
//
// f16 32x512x96 (Inputs/iree-f16-abt-32x512x96.*, both forms): a 32x64 tile in 2x2 waves of
// 16x32, one A fragment and two B fragments per wave, 3 K steps of one 16x16x32 MFMA per
// accumulator. A splits neither by accumulator nor along K (a chain of one MFMA), and the
// 2 K steps left once the odd one goes to the remainder loop are too few to merge (2
// iterations of 2), so the front end halves each MFMA along K (frontend/half_k.py): two
// 16x16x16 MFMAs of the low and the high 4 elements of each lane's fragment; A then splits
// along K, each half read on its own, B by accumulator, each fragment read whole (one
// ds_read_b128 a load, lgkm_per_load_b = 1: its halves go to one load, where LLVM would
// merge two adjacent 8-byte reads behind the waits' counts) and sliced. Both forms give
// that spec:
// RUN: pipeline-opt %S/Inputs/iree-f16-abt-32x512x96.prefetch.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=HALF
// and the late form, pipelined so, is exact on the emulator (late mode; random mode and
// the prefetch point by hand):
// RUN: pipeline-opt %S/Inputs/iree-f16-abt-32x512x96.late.mlir --pipeline=4wave --emulate --emulate-workgroups=2 --emulate-mode=late --mlir-print-ir-after=sched-adopt-loop 2>&1 | FileCheck %s --check-prefixes=HALF,EXACT
// HALF-COUNT-8: amdgpu.mfma 16x16x16 {{.*}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// HALF: sched.options = {BK = 32 : i64, BM = 32 : i64, BN = 64 : i64, dtype = "f16", k_subtiles = "a", lgkm_per_load_b = 1 : i64, mfma = "16x16x16", vm_per_load_b = 2 : i64}, sched.schedule = "4wave", sched.subtiles = "A along K; each of the kernel's MFMAs halved along K"
// the remainder loop keeps IREE's MFMAs:
// HALF: amdgpu.mfma 16x16x32
// HALF: sched.remainder
// EXACT: mode=late: exact, max error 0, 2 of 8 workgroups x 4 waves
//
// An MFMA operand computed from its read (negated) has no half the front end can read, so
// the halves are refused; A, one fragment per wave in a chain of one MFMA, is held whole in
// each stage instead (4wave's whole=a: the MMAs (0, 0) and (0, 1), B split by accumulator;
// exact against the mutant's own unpipelined build on the emulator, late mode, workgroups 0
// and 5: test/data/iree/mutants.py's verdict, by hand). It was refused with every reason,
// the halves' last (test_iree_configurations.py keeps that refusal, on a kernel of one
// accumulator, where no operand can be held whole):
// RUN: sed -e '214s/%201 \* %202/%201 * %neg/' -e '213a\            %neg = arith.negf %202 : vector<8xf16>' %S/Inputs/iree-f16-abt-32x512x96.late.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=COMPUTED
// COMPUTED: arith.negf
// COMPUTED: sched.options = {BK = 32 : i64, BM = 32 : i64, BN = 64 : i64, dtype = "f16", vm_per_load_a = 2 : i64, vm_per_load_b = 2 : i64, whole = "a"}, sched.schedule = "4wave", sched.subtiles = "stage form: A whole (one load and one fragment of it per stage, B's two subtiles by MFMA columns against it: the MMAs (0, 0) and (0, 1) only)"
//
// f16 2048x32x1030 (Inputs/iree-f16-abt-2048x32x1030.prefetch.mlir): a 64x32 tile in 2x2
// waves, one B fragment per wave, K step 32; B's 32x32 tile copied through registers 4
// elements a lane into an XOR-swizzled buffer of 8-element chunks. IREE leaves a buffer with
// an access of part of a chunk unswizzled (its late form stores and reads B plainly), and so
// does the remainder loop of the masked last K tile (frontend/tail_swizzle.py), which
// refused the 4-element store before. 4 K steps merged, B split along K:
// RUN: pipeline-opt %S/Inputs/iree-f16-abt-2048x32x1030.prefetch.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=SKINNY
// SKINNY: sched.options = {BK = 128 : i64, BM = 64 : i64, BN = 32 : i64, dtype = "f16", k_subtiles = "b", vm_per_load_b = 4 : i64}
// SKINNY: vector.transfer_write %{{.*}} : vector<1x4xf16>, memref<1x4xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// SKINNY: sched.remainder
