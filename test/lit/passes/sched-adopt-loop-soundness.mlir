// The properties sched-adopt-loop's rewrite relies on (frontend/soundness.py), each broken in
// the natural 4-wave kernel (Inputs/natural-4wave.mlir) and refused at the op.
//
// A read moved to the top of the body reads the previous iteration's copy (loop-carried
// through LDS):
// RUN: awk 'NR==FNR{if(FNR==110)s=$0;next} FNR==110{next} {print} FNR==101{print s}' %S/Inputs/natural-4wave.mlir %S/Inputs/natural-4wave.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=CARRIED
// CARRIED: <stdin>:102:16: error: sched-adopt-loop: 'vector.load' op reads LDS that 'amdgpu.gather_to_lds' op at line 105:9 writes later in the body: it reads the previous iteration's copy (loop-carried through LDS)
//
// The barrier between the copies and the reads removed:
// RUN: sed '109d' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: <stdin>:109:16: error: sched-adopt-loop: 'vector.load' op reads LDS that 'amdgpu.gather_to_lds' op at line 104:9 writes, with no barrier between them (the kernel races)
//
// The barrier between the reads and the next iteration's copies removed:
// RUN: sed '102d' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP: <stdin>:109:16: error: sched-adopt-loop: 'vector.load' op reads LDS that the next iteration's 'amdgpu.gather_to_lds' op at line 103:9 overwrites, with no barrier between them (the kernel races)
//
// A barrier whose memfence leaves out workgroup memory orders no LDS access (upstream
// gpu.barrier: only the accesses to the address spaces it lists must be visible after it):
// relied on between the copies and the reads, or between the reads and the next
// iteration's copies, it is a race, refused at the barrier:
// RUN: sed '109s/gpu.barrier/gpu.barrier memfence [#gpu.address_space<global>]/' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=NOFENCE
// NOFENCE: <stdin>:109:9: error: sched-adopt-loop: 'gpu.barrier' op (memfence [#gpu.address_space<global>]) fences no workgroup memory, and it is the only barrier between 'vector.load' op at line 110:16, an LDS read, and 'amdgpu.gather_to_lds' op at line 104:9, which writes the LDS it reads: it does not order them (the kernel races); no rocdl.s.waitcnt with vmcnt(0) comes between 'amdgpu.gather_to_lds' op at line 104:9 and it
// RUN: sed '102s/gpu.barrier/gpu.barrier memfence []/' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=NOFENCEWRAP
// NOFENCEWRAP: <stdin>:102:9: error: sched-adopt-loop: 'gpu.barrier' op (memfence []) fences no workgroup memory, and it is the only barrier between 'vector.load' op at line 110:16, an LDS read, and 'amdgpu.gather_to_lds' op at line 104:9, which overwrites in the next iteration the LDS it reads: it does not order them (the kernel races); no rocdl.s.waitcnt with lgkmcnt(0) comes between 'vector.load' op at line 110:16 and it
// A bare rocdl.s.barrier waits for none of the wave's memory operations (gfx950's s_barrier
// does not drain the counters): it orders the copies' LDS writes only behind a wait of
// vmcnt(0) (their DMA counts on vmcnt; lgkmcnt(0) alone is not enough), and the reads
// against the next iteration's copies only behind lgkmcnt(0); without, a race at it:
// RUN: sed '109s/gpu.barrier/rocdl.s.barrier/' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=BARE
// BARE: <stdin>:109:9: error: sched-adopt-loop: 'rocdl.s.barrier' op waits for none of the wave's memory operations (gfx950's s_barrier does not drain the wave's counters), and it is the only barrier between 'vector.load' op at line 110:16, an LDS read, and 'amdgpu.gather_to_lds' op at line 104:9, which writes the LDS it reads: it does not order them (the kernel races); no rocdl.s.waitcnt with vmcnt(0) comes between 'amdgpu.gather_to_lds' op at line 104:9 and it
// RUN: sed '109s/gpu.barrier/rocdl.s.waitcnt 49279\n        rocdl.s.barrier/' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=BARELGKM
// BARELGKM: <stdin>:110:9: error: sched-adopt-loop: 'rocdl.s.barrier' op {{.*}} no rocdl.s.waitcnt with vmcnt(0) comes between 'amdgpu.gather_to_lds' op at line 104:9 and it
// RUN: sed '102s/gpu.barrier/rocdl.s.barrier/' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=BAREWRAP
// BAREWRAP: <stdin>:102:9: error: sched-adopt-loop: 'rocdl.s.barrier' op {{.*}} which overwrites in the next iteration the LDS it reads: it does not order them (the kernel races); no rocdl.s.waitcnt with lgkmcnt(0) comes between 'vector.load' op at line 110:16 and it
// With its waits before it (vmcnt(0) lgkmcnt(0) = 112; lgkmcnt(0) = 49279, in the previous
// iteration's end reaching the barrier at the top of the body), a bare barrier, and a
// fenceless gpu.barrier, order them:
// RUN: sed -e '109s/gpu.barrier/rocdl.s.waitcnt 112\n        rocdl.s.barrier/' -e '102s/gpu.barrier/rocdl.s.waitcnt 49279\n        gpu.barrier memfence []/' %S/Inputs/natural-4wave.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=FENCED
// RUN: sed -e '102s/gpu.barrier/rocdl.s.barrier/' -e '100s/$/\n        rocdl.s.waitcnt 49279/' %S/Inputs/natural-4wave.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=FENCED
// Upstream's amdgpu.memory_counter_wait is the same wait (on gfx950 one s_waitcnt: its load
// and store counts on vmcnt, summed, ds on lgkmcnt; analysis/barriers.py): load(0) before
// the barrier after the copies and ds(0) on the way to the one at the top order them;
// load(0) store(1), which lowers to vmcnt(1), does not:
// RUN: sed -e '109s/gpu.barrier/amdgpu.memory_counter_wait load(0)\n        rocdl.s.barrier/' -e '102s/gpu.barrier/rocdl.s.barrier/' -e '100s/$/\n        amdgpu.memory_counter_wait ds(0)/' %S/Inputs/natural-4wave.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=FENCED
// RUN: sed '109s/gpu.barrier/amdgpu.memory_counter_wait load(0) store(1) ds(0)\n        rocdl.s.barrier/' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=COUNTERWAIT
// COUNTERWAIT: <stdin>:110:9: error: sched-adopt-loop: 'rocdl.s.barrier' op {{.*}} no rocdl.s.waitcnt with vmcnt(0) comes between 'amdgpu.gather_to_lds' op at line 104:9 and it (nor an amdgpu.memory_counter_wait with load(0), store(0) or both for vmcnt)
//
// Barriers that fence workgroup memory (with global memory too), and a fenceless one the
// order does not rely on, are taken:
// RUN: sed -e '109s/gpu.barrier/gpu.barrier memfence [#gpu.address_space<global>, #gpu.address_space<workgroup>]/' -e '102s/gpu.barrier/gpu.barrier memfence [#gpu.address_space<workgroup>]\n        gpu.barrier memfence []/' %S/Inputs/natural-4wave.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' | FileCheck %s --check-prefix=FENCED
// FENCED: amdgpu.gather_to_lds {{.*}} {sched.global_load = {channel = 0 : i64, id = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64}}
//
// IREE's workgroup scf.forall without its mapping is not distributed (every workgroup runs
// all its iterations, the K-loop's LDS reused from one to the next), and one mapped to
// anything but IREE's workgroup ids is not read as one: refused at the forall (IREE's
// committed kernel, test/data/iree):
// RUN: sed '198s/ {mapping = .*}$//' %S/../../data/iree/matmul_bf16_abt_4096.prefetch.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=NOMAP
// NOMAP: <stdin>:44:11: error: sched-adopt-loop: 'scf.forall' op around the K-loop has no mapping: it is not distributed (each workgroup runs all its iterations, one after another); the front end reads its induction variables as workgroup ids
// RUN: sed '198s/#iree_codegen.workgroup_mapping<y>/#gpu.thread<y>/' %S/../../data/iree/matmul_bf16_abt_4096.prefetch.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=THREADMAP
// THREADMAP: <stdin>:44:11: error: sched-adopt-loop: 'scf.forall' op around the K-loop maps to [#gpu.thread<y>, #iree_codegen.workgroup_mapping<x>], not to workgroups
//
// A copy's LDS address that depends on the workgroup id:
// RUN: sed 's/%dst0a = arith.muli %rr0, %c32 : index/%dst0x = arith.muli %rr0, %c32 : index\n      %bm2 = arith.remui %bid, %c2 : index\n      %bo = arith.muli %bm2, %c8 : index\n      %dst0a = arith.addi %dst0x, %bo : index/' %S/Inputs/natural-4wave.mlir > %t.split
// WGID: error: sched-adopt-loop: 'amdgpu.gather_to_lds' op: the LDS elements it writes depend on the workgroup id; the pipeliner lays out LDS from one workgroup's addresses
//
// A read's LDS address that depends on the workgroup id:
// RUN: echo '// -----' >> %t.split
// RUN: sed 's/%va0 = vector.load %la\[%fea0\]/%bm3 = arith.remui %bid, %c2 : index\n        %bo3 = arith.muli %bm3, %c8 : index\n        %fx = arith.addi %fea0, %bo3 : index\n        %va0 = vector.load %la[%fx]/' %S/Inputs/natural-4wave.mlir >> %t.split
// WGREAD: error: sched-adopt-loop: 'vector.load' op: the LDS elements it reads depend on the workgroup id
//
// A copy's LDS address that differs between the lanes of a wave (assumed wave-uniform):
// RUN: echo '// -----' >> %t.split
// RUN: sed 's/%la\[%dst0a\]/%la[%lane]/' %S/Inputs/natural-4wave.mlir >> %t.split
// LANES: error: sched-adopt-loop: 'amdgpu.gather_to_lds' op: its LDS destination differs between the lanes of a wave
//
// Another writer of the LDS the rewrite multi-buffers:
// RUN: echo '// -----' >> %t.split
// RUN: sed 's/^        gpu.barrier$/        gpu.barrier\n        vector.store %va, %la[%c0] : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>/' %S/Inputs/natural-4wave.mlir | sed 's/^      %zero = /      %va = arith.constant dense<1.0> : vector<8xbf16>\n      %zero = /' >> %t.split
// WRITER: error: sched-adopt-loop: 'vector.store' op has side effects the pipeliner cannot move (writes workgroup)
//
// A step of 0 or -1:
// RUN: echo '// -----' >> %t.split
// RUN: sed 's/%%st0 = arith.constant 1 : index/%%st0 = arith.constant 0 : index/' %S/Inputs/natural-4wave.mlir >> %t.split
// STEP0: error: sched-adopt-loop: 'scf.for' op has step 0; the front end pipelines loops with a positive constant step
// RUN: echo '// -----' >> %t.split
// RUN: sed 's/%%st0 = arith.constant 1 : index/%%st0 = arith.constant -1 : index/' %S/Inputs/natural-4wave.mlir >> %t.split
// STEPNEG: error: sched-adopt-loop: 'scf.for' op has step -1; the front end pipelines loops with a positive constant step
// A loop outside the K-loop of step 0 (an i32 one, which MLIR's verifier does not check; the
// tenth audit's mutant of a C += kernel reading C's rows so was built and ran forever):
// RUN: echo '// -----' >> %t.split
// RUN: sed 's/^\(      %%c2 = arith.constant 2 : index\)$/\1\n      %%z0 = arith.constant 0 : i32\n      %%z1 = arith.constant 1 : i32\n      scf.for %%z = %%z0 to %%z1 step %%z0 : i32 {\n      }/' %S/Inputs/natural-4wave.mlir >> %t.split
// STEPOTHER: error: sched-adopt-loop: 'scf.for' op has step 0: it never ends (a loop's step must be positive)
//
// A copy that reads before the start of its global buffer (lower bound -1: K offset -32 in
// the first iteration, in workgroup 0):
// RUN: echo '// -----' >> %t.split
// RUN: sed 's/%%lb0 = arith.constant 0 : index/%%lb0 = arith.constant -1 : index/' %S/Inputs/natural-4wave.mlir >> %t.split
// BOUNDS: error: sched-adopt-loop: 'amdgpu.gather_to_lds' op reads global memory outside its buffer in the loop's first iteration (element -32 of 16777216); the pipeliner needs the copies' reads in bounds
//
// The marks the front end puts on what it makes itself (frontend/reserved.py), on an input:
// the K-loop marked a remainder loop (which its later steps skip, run as written, and issue
// the copies of before a pipelined loop), the K-loop marked as one whose odd last K step
// the front end guards itself (so no remainder loop is cut off):
// RUN: echo '// -----' >> %t.split
// RUN: sed '135s/}$/} {sched.remainder}/' %S/Inputs/natural-4wave.mlir >> %t.split
// MARKLOOP: error: sched-adopt-loop: 'scf.for' op carries 'sched.remainder', a mark the front end puts on what it makes itself
// RUN: echo '// -----' >> %t.split
// RUN: sed '135s/}$/} {sched.pair_guarded}/' %S/Inputs/natural-4wave.mlir >> %t.split
// MARKPAIR: error: sched-adopt-loop: 'scf.for' op carries 'sched.pair_guarded', {{.*}}: remove the attribute
//
// The front end's own output given back (the tagged form it writes, a documented input)
// keeps its marks (an odd trip count's remainder loop, issued ahead, its buffers): nothing
// of the front end runs on a kernel without a natural K-loop, so they are not refused there
// (frontend/reserved.py; refused by its first version). The adopted kernel, its marks
// checked here, is the last chunk, which must show no error:
// RUN: sed 's/%%ub0 = arith.constant 128 : index/%%ub0 = arith.constant 127 : index/' %S/Inputs/natural-4wave.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' > %t.again
// RUN: FileCheck %s --check-prefix=AGAIN < %t.again
// AGAIN: sched.global_load
// AGAIN: {sched.copies_ahead, sched.loads_in_place = {{.*}}, sched.remainder, sched.remainder_shareable}
// RUN: echo '// -----' >> %t.split
// RUN: cat %t.again >> %t.split
//
// The ten inputs above (WGID to MARKPAIR; their messages carry no line, which moves with
// the chunk) and the adopted kernel are written to one file, '// -----' between them, and
// run by one pipeline-opt: each chunk on its own, in order, each of the ten refused (exit
// status 1 if any is), each with its one error (no other 'error:' may show, so no chunk's
// refusal can stand in for another's, and the adopted kernel is taken):
// RUN: not pipeline-opt %t.split --split-input-file --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2> %t.err >/dev/null
// RUN: FileCheck %s --check-prefixes=WGID,WGREAD,LANES,WRITER,STEP0,STEPNEG,STEPOTHER,BOUNDS,MARKLOOP,MARKPAIR < %t.err
// RUN: grep -c 'error:' %t.err | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}10{{$}}
//
// A copy in bounds in the first iteration that reads before the start of its buffer in the
// last (the K offset runs backwards: 0, -32, ..., -4064):
// RUN: sed 's/%%ivx = arith.addi %%iv, %%c0 : index/%%ivx = arith.subi %%c0, %%iv : index/' %S/Inputs/natural-4wave.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LAST
// LAST: <stdin>:104:9: error: sched-adopt-loop: 'amdgpu.gather_to_lds' op reads global memory outside its buffer in the loop's last iteration (element -4064 of 16777216); the pipeliner needs the copies' reads in bounds (every workgroup id 0)
//
// An MFMA on scalar f32 operands (amdgpu.mfma 16x16x4, from the bf16 fragments) among the
// loop's bf16 MFMAs: refused at the next of those, one kind per loop (an f32 loop of them
// alone is taken: test_iree_f32.py):
// RUN: sed 's/%%m00 = amdgpu.mfma 16x16x32 %%va0 \* %%vb0 + %%acc00 : vector<8xbf16>, vector<8xbf16>, vector<4xf32>/%%e0 = vector.extract %%va0[0] : bf16 from vector<8xbf16>\n        %%s0 = arith.extf %%e0 : bf16 to f32\n        %%e1 = vector.extract %%vb0[0] : bf16 from vector<8xbf16>\n        %%s1 = arith.extf %%e1 : bf16 to f32\n        %%m00 = amdgpu.mfma 16x16x4 %%s0 * %%s1 + %%acc00 : f32, f32, vector<4xf32>/' %S/Inputs/natural-4wave.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: <stdin>:123:16: error: sched-adopt-loop: 'amdgpu.mfma' op is a 16x16x32 bf16 MFMA, but the loop's first MFMA is 16x16x4 f32; one MFMA kind per loop
//
// An MFMA operand that is a constant, read from no fragment:
// RUN: sed 's/%%m00 = amdgpu.mfma 16x16x32 %%va0 \* /%%k0 = arith.constant dense<1.0> : vector<8xbf16>\n        %%m00 = amdgpu.mfma 16x16x32 %%k0 * /' %S/Inputs/natural-4wave.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=CONST
// CONST: <stdin>:119:16: error: sched-adopt-loop: 'amdgpu.mfma' op: its A operand is a constant, not from an LDS fragment read of the iteration
//
// An MFMA operand built from its fragment's integer elements one by one (IREE's i8 `A x B`
// under VectorDistribute: i8 scalars into vector.from_elements): traced to the read, not
// taken for a constant:
// RUN: sed 's/%%m00 = amdgpu.mfma 16x16x32 %%va0 \* /%%bi = vector.bitcast %%va0 : vector<8xbf16> to vector<8xi16>\n        %%x0 = vector.extract %%bi[0] : i16 from vector<8xi16>\n        %%x1 = vector.extract %%bi[1] : i16 from vector<8xi16>\n        %%x2 = vector.extract %%bi[2] : i16 from vector<8xi16>\n        %%x3 = vector.extract %%bi[3] : i16 from vector<8xi16>\n        %%x4 = vector.extract %%bi[4] : i16 from vector<8xi16>\n        %%x5 = vector.extract %%bi[5] : i16 from vector<8xi16>\n        %%x6 = vector.extract %%bi[6] : i16 from vector<8xi16>\n        %%x7 = vector.extract %%bi[7] : i16 from vector<8xi16>\n        %%bj = vector.from_elements %%x0, %%x1, %%x2, %%x3, %%x4, %%x5, %%x6, %%x7 : vector<8xi16>\n        %%bk = vector.bitcast %%bj : vector<8xi16> to vector<8xbf16>\n        %%m00 = amdgpu.mfma 16x16x32 %%bk * /' %S/Inputs/natural-4wave.mlir \
// RUN:   | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=ELEMENTS
// ELEMENTS-NOT: error
// ELEMENTS: sched.options
//
// A private buffer indexed outside its size whenever it runs (undefined behaviour: LLVM may
// drop the access or put it on another variable, and the pipelined kernel need not do the
// same) is refused at the access (frontend/private_bounds.py); a vector access counts the
// elements it spans (a memref.store of a constant index past the end:
// test_a_private_index_out_of_bounds_is_undefined in test/unit/tools/test_iree_mutants.py):
// RUN: sed -e '17a %%pv = memref.alloca() : memref<4xindex>' -e '17a %%pl = vector.load %%pv[%%c1] : memref<4xindex>, vector<4xindex>' %S/Inputs/natural-4wave.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=PRIVATEVEC
// PRIVATEVEC: <stdin>:19:7: error: sched-adopt-loop: 'vector.load' op indexes dimension 0 of its private buffer (memref<4xindex>) at 1 (spanning 4 elements), outside its 4 elements whenever it runs: target-specific behaviour
//
// A's two copies trading LDS destinations at K steps 2 and 3 of every 4 (the first two
// alike, so the two iterations compared by address.py's check_invariant agree): refused at
// the first copy, whose LDS index reads the loop variable (frontend/address.py); accepted
// before, and pipelined with the first iteration's LDS layout:
// RUN: sed -e '104s/%%la\[%%dst0a\]/%%la[%%mdst0]/' -e '107s/%%la\[%%dst1a\]/%%la[%%mdst1]/' -e '103a \        %%swp = affine.apply affine_map<(d0) -> ((d0 floordiv 2) mod 2)>(%%iv)' -e '103a \        %%swb = arith.index_cast %%swp : index to i1' -e '103a \        %%mdst0 = arith.select %%swb, %%dst1a, %%dst0a : index' -e '103a \        %%mdst1 = arith.select %%swb, %%dst0a, %%dst1a : index' %S/Inputs/natural-4wave.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=KMOVES
// KMOVES: <stdin>:108:9: error: sched-adopt-loop: 'amdgpu.gather_to_lds' op writes LDS at an index computed from the loop variable; the front end takes a single-stage loop, the same LDS elements in every iteration
//
// A fragment element taken at MLIR's poison position -1 (its value undefined): refused at
// the extract (frontend/scan.py's poison_position); it crashed the front end's split of the
// reads before, when the extract was of a multi-fragment read:
// RUN: sed 's/%%m00 = amdgpu.mfma 16x16x32 %%va0 \* /%%pz = vector.extract %%va0[-1] : bf16 from vector<8xbf16>\n        %%pv = vector.broadcast %%pz : bf16 to vector<8xbf16>\n        %%m00 = amdgpu.mfma 16x16x32 %%pv * /' %S/Inputs/natural-4wave.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=POISON
// POISON: <stdin>:118:15: error: sched-adopt-loop: 'vector.extract' op inside the K-loop takes the poison position -1 (static_position = [-1]): what it gives is undefined, and the front end takes the loop's vectors at defined positions only
// The same in IREE's kernel, of one of its reads of 4 fragments:
// RUN: sed '122s/%%81\[1, 0\]/%%81[1, -1]/' %S/../../data/iree/matmul_bf16_abt_4096.prefetch.mlir | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=POISONIREE
// POISONIREE: <stdin>:122:22: error: sched-adopt-loop: 'vector.extract' op inside the K-loop takes the poison position -1 (static_position = [1, -1])
