// sched-adopt-loop on IREE's f16 A^T x B 1000x600x1030 (Inputs/iree-f16-atb-1000x600x1030.*,
// both forms, written by test/data/iree/generate.py): a 16x32 tile in 2 waves, one 16x16x32
// MFMA per wave and K step, its A operand joined from two transposing reads of A's K x M
// tile. No split into the schedule's subtiles exists, so 4 K
// steps are merged (frontend/kmerge.py): the merged loop's transposing reads, which the
// first regrouping (frontend/transpose.py) joined with vector.shuffle, are regrouped again,
// each K step's reads after its own copies, and both operands split along K (B crosswise).
// Both forms are pipelined so, one schedule, exact on the emulator
// (test/unit/tools/test_tails_masked.py, test_merged_transposing_reads_both_forms).
// The element tracer follows vector.shuffle (the operands' rows concatenated, each result
// row the one its mask index names); the operand joined by one, broken:
//
// A poison index in the mask (an element of the operand no read gives) is refused at the
// shuffle, as any K-loop vector op at MLIR's poison position (frontend/scan.py's
// poison_position; before, at the MFMA: its operand "is not 8 of them (shape [8], 1
// elements from no read)"):
// RUN: sed -e '133d' -e '134s/.*/            %92 = vector.shuffle %89, %90 [0, 1, 2, 3, 4, 5, 6, -1] : vector<4xf16>, vector<4xf16>/' %S/Inputs/iree-f16-atb-1000x600x1030.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=POISON
// POISON: <stdin>:133:19: error: sched-adopt-loop: 'vector.shuffle' op inside the K-loop takes the poison position -1 (mask = [0, 1, 2, 3, 4, 5, 6, -1]): what it gives is undefined
//
// A mask the regrouping cannot express: the last two K values swapped, so the lanes of the
// new read that delivers them would point at no strided block of the thread id:
// RUN: sed -e '133d' -e '134s/.*/            %92 = vector.shuffle %89, %90 [0, 1, 2, 3, 4, 5, 7, 6] : vector<4xf16>, vector<4xf16>/' %S/Inputs/iree-f16-atb-1000x600x1030.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: <stdin>:131:19: error: sched-adopt-loop: 'amdgpu.transpose_load' op: the regrouped reads' addresses are not a strided block of the thread id in one LDS buffer
//
// A shuffle of reads of two buffers (the second read made one of B's tile):
// RUN: sed -e '133d' -e '134s/.*/            %92 = vector.shuffle %89, %90 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf16>, vector<4xf16>/' -e '132s/%alloc_2\[%31, %26\] : memref<32x20xf16/%alloc[%31, %26] : memref<32x36xf16/' %S/Inputs/iree-f16-atb-1000x600x1030.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=BUFFERS
// BUFFERS: <stdin>:138:19: error: sched-adopt-loop: 'amdgpu.mfma' op: operand #0 gathers the elements of transposing reads of 2 LDS buffers; the front end regroups the reads of an operand that one buffer holds
//
// The two reads of one operand on both sides of a barrier: the new reads go where the first
// was, which is sound only with no copy, LDS store or barrier between them:
// RUN: sed '131a\            gpu.barrier' %S/Inputs/iree-f16-atb-1000x600x1030.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: <stdin>:133:19: error: sched-adopt-loop: 'amdgpu.transpose_load' op: an MFMA operand gathers its elements from transposing reads on both sides of 'gpu.barrier' op; the front end regroups the reads of one operand when no copy, LDS store or barrier lies between them
//
// IREE's f16 A^T x B^T 200x1000x1030 (Inputs/iree-f16-atbt-200x1000x1030.*): one wave of a
// 16x128 tile, 8 accumulators sharing one A fragment, one MFMA each per K step; A cannot
// split by accumulator and a chain of 1 does not halve along K, so 2 K steps are merged
// (A along K, B by accumulator; test_merged_transposing_reads_both_forms runs it). Its
// loop cut to 4 K steps (2 left once the masked last and the odd one are cut off) is too
// short for 2 iterations of 2 merged steps; its MFMAs are halved along K instead
// (frontend/half_k.py; sched-adopt-loop-skinny-k.mlir), A's halves read with transposing
// reads of their own, B's fragments read whole (4 reads a load, not 8):
// RUN: sed '336s/to %c33_i32/to %c4_i32/' %S/Inputs/iree-f16-atbt-200x1000x1030.late.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: sched.options = {BK = 32 : i64, BM = 16 : i64, BN = 128 : i64, dtype = "f16", k_subtiles = "a", lgkm_per_load_b = 4 : i64, mfma = "16x16x16", vm_per_load_a = 2 : i64, waves = 1 : i64}, sched.schedule = "4wave", sched.subtiles = "A along K; each of the kernel's MFMAs halved along K"
