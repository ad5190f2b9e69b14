// sched-adopt-loop on two of IREE's skinny and tiny kernels (written by
// test/data/iree/generate.py, LIT_INPUTS).
//
// f16 32x512x96 (Inputs/iree-f16-abt-32x512x96.*, both forms): a 32x64 tile in 2x2 waves of
// 16x32, one A fragment and two B fragments per wave, 3 K steps of one 16x16x32 MFMA per
// accumulator. A splits neither by accumulator nor along K (a chain of one MFMA), and the
// 2 K steps left once the odd one goes to the remainder loop are too few to merge (2
// iterations of 2), so the front end halves each MFMA along K (frontend/half_k.py): two
// 16x16x16 MFMAs of the low and the high 4 elements of each lane's fragment, each read on
// its own; A then splits along K, B by accumulator. Both forms give that spec:
// RUN: pipeline-opt %S/Inputs/iree-f16-abt-32x512x96.prefetch.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=HALF
// and the late form, pipelined so, is exact on the emulator (late mode; random mode and
// the prefetch point by hand):
// RUN: pipeline-opt %S/Inputs/iree-f16-abt-32x512x96.late.mlir --pipeline=4wave --emulate --emulate-workgroups=2 --emulate-mode=late --mlir-print-ir-after=sched-adopt-loop 2>&1 | FileCheck %s --check-prefixes=HALF,EXACT
// HALF-COUNT-8: amdgpu.mfma 16x16x16 {{.*}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// HALF: sched.options = {BK = 32 : i64, BM = 32 : i64, BN = 64 : i64, dtype = "f16", k_subtiles = "a", mfma = "16x16x16", vm_per_load_b = 2 : i64}, sched.schedule = "4wave", sched.subtiles = "A along K; each of the kernel's MFMAs halved along K"
// the remainder loop keeps IREE's MFMAs:
// HALF: amdgpu.mfma 16x16x32
// HALF: sched.remainder
// EXACT: mode=late: exact, max error 0, 2 of 8 workgroups x 4 waves
//
// An MFMA operand computed from its read (negated) has no half the front end can read:
// refused with every reason, the halves' last:
// RUN: sed -e '214s/%201 \* %202/%201 * %neg/' -e '213a\            %neg = arith.negf %202 : vector<8xf16>' %S/Inputs/iree-f16-abt-32x512x96.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=COMPUTED
// COMPUTED: error: sched-adopt-loop: channel A: {{.*}}nor along K: channel A's accumulators get 1 MFMAs per iteration, which do not halve along K; nor can the front end merge its K steps: the loop runs 2 K steps, fewer than the 8 that 2 iterations of 4 merged K steps (the schedule's loop and its two stages) need; nor can the front end halve its MFMAs along K: an operand of 'amdgpu.mfma' op at line 215:20 is not made of fragment reads or pieces the front end can take half of
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
