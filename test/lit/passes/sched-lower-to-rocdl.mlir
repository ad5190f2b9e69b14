// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-lower-to-rocdl)' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-lower-to-rocdl{fence-waits=false fence-blocks=true})' | FileCheck %s --check-prefix=BLOCKS
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-lower-to-rocdl{fence-blocks=false})' | FileCheck %s --check-prefix=WAITS
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-lower-to-rocdl{fence-loads=false})' | FileCheck %s --check-prefix=NOLOADS
// RUN: pipeline-opt %S/Inputs/wait-over-limit.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-lower-to-rocdl)'
// RUN: pipeline-opt %S/Inputs/remainder-guard.mlir --pass-pipeline='builtin.module(sched-lower-to-rocdl)' | FileCheck %s --check-prefix=GUARD
// RUN: not pipeline-opt %S/Inputs/logical.mlir --pass-pipeline='builtin.module(sched-lower-to-rocdl)' 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: pipeline-opt --pipeline=4wave %S/Inputs/slot-1wave.mlir --emulate | FileCheck %s --check-prefix=DMA
// RUN: sed 's/%ub0 = arith.constant 128 : index/%ub0 = arith.constant 2 : index/' %S/Inputs/natural-4wave.mlir | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave},sched-import,sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,sched-fix-hazards,sched-lower-to-rocdl)' | FileCheck %s --check-prefix=STRAIGHT
// RUN: sed 's/%ub0 = arith.constant 128 : index/%ub0 = arith.constant 4 : index/' %S/Inputs/natural-4wave.mlir | pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave},sched-import,sched-annotate,sched-reorder,sched-derive-edges,sched-schedule,sched-derive-waits,sched-explicit-blocks,sched-expand-phases,sched-fix-hazards,sched-lower-to-rocdl)' | FileCheck %s --check-prefix=FENCED
// RUN: pipeline-opt --pipeline=4wave %S/Inputs/iree-bf16-batch-267x969x192.prefetch.mlir | FileCheck %s --check-prefix=REMSTORES
// RUN: pipeline-opt --pipeline=4wave %S/Inputs/iree-f32-atb-1039x8x68.late.mlir | FileCheck %s --check-prefix=PAIRED
// RUN: pipeline-opt --pipeline=4wave %S/Inputs/iree-f32-atb-1039x8x68.late.mlir --emit=asm | sed 's/s_waitcnt vmcnt(8) lgkmcnt(1)/s_waitcnt vmcnt(8) lgkmcnt(2)/' | not pipeline-opt --emulate=1039,8,68 - --emulate-workgroups=1 2>&1 | FileCheck %s --check-prefix=PAIREDRACE

// sched-lower-to-rocdl: WAIT_VM(n) / WAIT_LGKM(n) -> one
// rocdl.s.waitcnt each, imm = 0xCF7F & ((v & 0xF) | ((v & 0x30) << 10)) | (e << 4) | (l << 8)
// with the other counters at their maxima; BARRIER -> rocdl.s.barrier, SET_PRIO
// -> rocdl.s.setprio, SCHEDULE_BARRIER -> rocdl.sched.barrier none. Every run of
// waits and every kernel block boundary is fenced with rocdl.sched.barrier none
// (fence-waits, fence-blocks), and so is every place in a block where fragment
// loads and global loads meet (fence-loads). By default the block boundaries of a
// schedule whose blocks end with the schedule barriers of its sched_barrier_mask
// (pingpong) are not: those barriers are the fences. Data ops stay, tagged with the
// schedule's op name; the body and the program are erased.

// A kernel copying with global LDS DMAs (global_load_lds, which LLVM 22 counts on lgkmcnt
// too, so that its own wait for an MFMA operand read before a DMA is short): the lowering
// tightens the last lgkmcnt wait before each such MMA to what the hardware needs
// (pipeline_mlir/schedule/dma_lgkm.py); with LLVM's wait the emulator found an MFMA reading
// a ds_read_b128's register in flight (pending-register, exit 1).
// DMA: slot M=32 N=32 K=256 mode={{.*}}: exact, max error 0, 1 workgroups x 1 wave

// vmcnt(0) = 0x0F70 = 3952, vmcnt(12) = 0x0F7C = 3964, vmcnt(63) = 0xCF7F = 53119,
// lgkmcnt(0) = 0xC07F = 49279, lgkmcnt(2) = 0xC27F = 49791, lgkmcnt(15) = 0xCF7F = 53119.
// CHECK-LABEL: module @pingpong
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.prologue"() ({
// CHECK-NEXT:        "sched.global_load"() {channel = 0 : i64, k_offset = "k0", stage = 0 : i64, subtile = 0 : i64, tag = "LOAD_A"}
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        rocdl.s.waitcnt 3952
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        rocdl.s.barrier
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:      "sched.kernel"() ({
// CHECK-NEXT:        "sched.frag_load"() {block = 0 : i64, channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64, tag = "MMA_LOAD_A"}
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        rocdl.s.waitcnt 3964
// CHECK-NEXT:        rocdl.s.waitcnt 49791
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        rocdl.s.barrier
// CHECK-NEXT:        rocdl.s.setprio 1
// CHECK-NEXT:        "sched.mma"() {block = 0 : i64, stage = 0 : i64, subtile = 0 : i64, tag = "MMA"}
// No fence between blocks 0 and 1: a pingpong schedule's own barriers fence its
// blocks, and this block 0 ends without one.
// CHECK-NEXT:        rocdl.s.setprio 0
// CHECK-NEXT:        "sched.frag_load"() {block = 1 : i64, channel = 1 : i64, stage = 0 : i64, subtile = 0 : i64, tag = "MMA_LOAD_B"}
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        rocdl.s.waitcnt 49279
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        "sched.mma"() {block = 1 : i64, stage = 0 : i64, subtile = 1 : i64, tag = "MMA"}
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:      "sched.epilogue"() ({
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        rocdl.s.waitcnt 53119
// CHECK-NEXT:        rocdl.s.waitcnt 53119
// CHECK-NEXT:        rocdl.sched.barrier none
// CHECK-NEXT:        "sched.mma"() {stage = 1 : i64, subtile = 1 : i64, tag = "MMA"}
// CHECK-NEXT:      }) : () -> ()
// The body indices (edges, order, kernel_deps) go with the body; the stagger
// index follows its prologue entry: entry 2 (the barrier) now starts at op 3,
// the fence in front of it.
// CHECK-NEXT:    }) {schedule = "pingpong", state = "lowered", warp_stagger_index = 3 : i64} : () -> ()

// fence-waits=false fence-blocks=true: only the block boundary (block 0 -> 1) is fenced.
// BLOCKS-LABEL: module @pingpong
// BLOCKS:         "sched.global_load"()
// BLOCKS-NEXT:    rocdl.s.waitcnt 3952
// BLOCKS-NEXT:    rocdl.s.barrier
// BLOCKS:         "sched.frag_load"() {block = 0 : i64
// BLOCKS-NEXT:    rocdl.s.waitcnt 3964
// BLOCKS-NEXT:    rocdl.s.waitcnt 49791
// BLOCKS-NEXT:    rocdl.s.barrier
// BLOCKS-NEXT:    rocdl.s.setprio 1
// BLOCKS-NEXT:    "sched.mma"()
// BLOCKS-NEXT:    rocdl.s.setprio 0
// BLOCKS-NEXT:    rocdl.sched.barrier none
// BLOCKS-NEXT:    "sched.frag_load"() {block = 1 : i64
// BLOCKS-NEXT:    rocdl.s.waitcnt 49279
// The schedule barrier of block 1 is the op's own lowering, not a fence.
// BLOCKS-NEXT:    rocdl.sched.barrier none
// BLOCKS-NEXT:    "sched.mma"()
// BLOCKS:         "sched.epilogue"() ({
// BLOCKS-NEXT:    rocdl.s.waitcnt 53119
// BLOCKS-NEXT:    rocdl.s.waitcnt 53119
// BLOCKS-NEXT:    "sched.mma"()

// fence-blocks=false: waits fenced, no fence between blocks 0 and 1.
// WAITS-LABEL: module @pingpong
// WAITS:         rocdl.s.setprio 0
// WAITS-NEXT:    "sched.frag_load"() {block = 1 : i64
// WAITS-NEXT:    rocdl.sched.barrier none
// WAITS-NEXT:    rocdl.s.waitcnt 49279
// WAITS-NEXT:    rocdl.sched.barrier none
// WAITS-NEXT:    "sched.mma"()
module @pingpong {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
    "sched.program"() ({
    }) : () -> ()
    "sched.prologue"() ({
      "sched.global_load"() {channel = 0, stage = 0, subtile = 0, k_offset = "k0"} : () -> ()
      "sched.wait_vm"() {count = 0} : () -> ()
      "sched.barrier"() : () -> ()
    }) : () -> ()
    "sched.kernel"() ({
      "sched.frag_load"() {block = 0, channel = 0, stage = 0, subtile = 0} : () -> ()
      "sched.wait_vm"() {block = 0, count = 12} : () -> ()
      "sched.wait_lgkm"() {block = 0, count = 2} : () -> ()
      "sched.barrier"() {block = 0} : () -> ()
      "sched.set_prio"() {block = 0, priority = 1} : () -> ()
      "sched.mma"() {block = 0, stage = 0, subtile = 0} : () -> ()
      "sched.set_prio"() {block = 0, priority = 0} : () -> ()
      "sched.frag_load"() {block = 1, channel = 1, stage = 0, subtile = 0} : () -> ()
      "sched.wait_lgkm"() {block = 1, count = 0} : () -> ()
      "sched.sched_barrier"() {block = 1} : () -> ()
      "sched.mma"() {block = 1, stage = 0, subtile = 1} : () -> ()
    }) : () -> ()
    "sched.epilogue"() ({
      "sched.wait_vm"() {count = 63} : () -> ()
      "sched.wait_lgkm"() {count = 15} : () -> ()
      "sched.mma"() {stage = 1, subtile = 1} : () -> ()
    }) : () -> ()
  }) {schedule = "pingpong", state = "phases", edges = ["0->0F1"], order = array<i64: 0>,
      kernel_deps = ["5->10F0"], warp_stagger_index = 2} : () -> ()
}

// -----

// Single-buffer data ops get the single-buffer op names; a sched_group_barrier
// lowers its hint kind to the LLVM mask (DS read 0x100, MFMA 0x8, DS write
// 0x200, VMEM read 0x20), sync group 0.
// CHECK-LABEL: module @single_buffer
// CHECK:         "sched.kernel"() ({
// CHECK-NEXT:      "sched.mma"() {stage = 0 : i64, subtile = 0 : i64, tag = "COMPUTE"}
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:      "sched.lds_store"() {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64, tag = "STORE_SMEM"}
// CHECK-NEXT:      "sched.global_load"() {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64, tag = "LOAD_DRAM"}
// CHECK-NEXT:      "sched.frag_load"() {channel = 0 : i64, stage = 0 : i64, subtile = 0 : i64, tag = "LOAD_FRAG"}
// CHECK-NEXT:      rocdl.sched.group.barrier ds_read, 1, 0
// CHECK-NEXT:      rocdl.sched.group.barrier mfma_wmma, 2, 0
// CHECK-NEXT:      rocdl.sched.group.barrier ds_write, 1, 0
// CHECK-NEXT:      rocdl.sched.group.barrier vmem_read, 1, 0
// CHECK-NEXT:      rocdl.sched.group.barrier mfma_wmma, 0, 0
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:  }) {options = {T = 1 : i64}, schedule = "single-buffer", state = "lowered"}
module @single_buffer {
  "sched.pipeline"() ({
    "sched.kernel"() ({
      "sched.mma"() {stage = 0, subtile = 0} : () -> ()
      "sched.barrier"() : () -> ()
      "sched.lds_store"() {channel = 0, stage = 0, subtile = 0} : () -> ()
      "sched.global_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
      "sched.frag_load"() {channel = 0, stage = 0, subtile = 0} : () -> ()
      "sched.sched_group_barrier"() {kind = "ds_read", size = 1} : () -> ()
      "sched.sched_group_barrier"() {kind = "mfma", size = 2} : () -> ()
      "sched.sched_group_barrier"() {kind = "ds_write", size = 1} : () -> ()
      "sched.sched_group_barrier"() {kind = "vmem_read", size = 1} : () -> ()
      "sched.sched_group_barrier"() {kind = "mfma", size = 0} : () -> ()
    }) : () -> ()
  }) {schedule = "single-buffer", options = {T = 1}, state = "phases"} : () -> ()
}

// -----

// fence-loads: the fragment loads of a block, then a fence, then its global load
// (in either order); none between two loads of one kind.
// CHECK-LABEL: module @loads
// CHECK:         "sched.kernel"() ({
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, role = "fragment_load"
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 0 : i64, role = "fragment_load"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.global_load"() {block = 0 : i64, channel = 0 : i64, k_offset = "k_prev", role = "global_load"
// CHECK-NEXT:      rocdl.sched.barrier none
// CHECK-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, role = "fragment_load"
// CHECK-NEXT:      rocdl.s.barrier
// CHECK-NEXT:    }) : () -> ()
// fence-loads=false: LLVM may reorder the loads of a block.
// NOLOADS-LABEL: module @loads
// NOLOADS:         "sched.kernel"() ({
// NOLOADS-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, role = "fragment_load"
// NOLOADS-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 0 : i64, role = "fragment_load"
// NOLOADS-NEXT:      "sched.global_load"() {block = 0 : i64, channel = 0 : i64, k_offset = "k_prev", role = "global_load"
// NOLOADS-NEXT:      "sched.frag_load"() {block = 0 : i64, channel = 1 : i64, role = "fragment_load"
// NOLOADS-NEXT:      rocdl.s.barrier
// NOLOADS-NEXT:    }) : () -> ()
module @loads {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
    "sched.program"() ({
    }) : () -> ()
    "sched.prologue"() ({
      "sched.barrier"() : () -> ()
    }) : () -> ()
    "sched.kernel"() ({
      "sched.frag_load"() {block = 0, channel = 1, stage = 0, subtile = 0, role = "fragment_load"} : () -> ()
      "sched.frag_load"() {block = 0, channel = 0, stage = 0, subtile = 0, role = "fragment_load"} : () -> ()
      "sched.global_load"() {block = 0, channel = 0, stage = 1, subtile = 1, k_offset = "k_prev", role = "global_load"} : () -> ()
      "sched.frag_load"() {block = 0, channel = 1, stage = 0, subtile = 1, role = "fragment_load"} : () -> ()
      "sched.barrier"() {block = 0} : () -> ()
    }) : () -> ()
    "sched.epilogue"() ({
      "sched.barrier"() : () -> ()
    }) : () -> ()
  }) {schedule = "pingpong", state = "phases", warp_stagger_index = 0} : () -> ()
}

// -----

// A phase written as an empty region (no block) is a phase without entries: it
// lowers to an empty block, the other phases as usual.
// CHECK-LABEL: module @empty_phases
// CHECK-NEXT:    "sched.pipeline"() ({
// CHECK-NEXT:      "sched.prologue"() ({
// CHECK-NEXT:      ^bb0:
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:      "sched.kernel"() ({
// CHECK-NEXT:        "sched.mma"() {block = 0 : i64, stage = 0 : i64, subtile = 0 : i64, tag = "MMA"}
// CHECK-NEXT:        rocdl.s.barrier
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:      "sched.epilogue"() ({
// CHECK-NEXT:      ^bb0:
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:    }) {schedule = "pingpong", state = "lowered", warp_stagger_index = 0 : i64}
module @empty_phases {
  "sched.pipeline"() ({
    "sched.mma"() {stage = 0, subtile = 0} : () -> ()
    "sched.program"() ({
    }) : () -> ()
    "sched.prologue"() ({
    }) : () -> ()
    "sched.kernel"() ({
      "sched.mma"() {block = 0, stage = 0, subtile = 0} : () -> ()
      "sched.barrier"() {block = 0} : () -> ()
    }) : () -> ()
    "sched.epilogue"() ({
    }) : () -> ()
  }) {schedule = "pingpong", state = "phases", warp_stagger_index = 0} : () -> ()
}

// A natural loop of two K tiles (the example kernel at K = 64): its main loop runs no trip
// (lowering/straight_pair.py), so the 4-wave kernel's zero-trip fence (vmcnt(0), lgkmcnt(0)
// and a barrier under scf.if) is not emitted; after the loop (which MLIR folds away) the
// epilogue's first wait, which sched-fix-hazards derived for the prologue's copies, leaves
// K tile 1's four in flight (vmcnt(4) = 3956). With a loop of one trip (FENCED) the fence
// stays.
// STRAIGHT-LABEL: gpu.func @natural
// STRAIGHT-NOT:     scf.if
// STRAIGHT:         scf.for unsigned
// STRAIGHT:         scf.yield
// STRAIGHT-NEXT:    }
// STRAIGHT-NEXT:    rocdl.sched.barrier none
// STRAIGHT-NEXT:    rocdl.s.waitcnt 49279
// STRAIGHT-NEXT:    rocdl.s.waitcnt 3956
// STRAIGHT-NEXT:    rocdl.sched.barrier none
// STRAIGHT-NEXT:    rocdl.s.barrier
// STRAIGHT-NOT:     scf.if
// STRAIGHT:         gpu.return
// FENCED-LABEL: gpu.func @natural
// FENCED:           scf.if
// FENCED-NEXT:        rocdl.s.waitcnt 3952
// FENCED-NEXT:        rocdl.s.waitcnt 49279
// FENCED-NEXT:        rocdl.s.barrier
// FENCED:           scf.for unsigned

// ERR: Inputs/logical.mlir:2:1: error: sched-lower-to-rocdl: 'sched.pipeline' op is in state "logical" but this pass needs "phases": run sched-annotate, sched-reorder, sched-derive-edges, sched-schedule, sched-derive-waits, sched-explicit-blocks, sched-expand-phases first

// A loop run as written (sched.remainder: a remainder loop, an unpipelined loop) that
// issues a 16-pass XDL MFMA (FP8 32x32x64) is followed by 20 wait states that no
// instruction crosses (lowering/xdl_window.py); an 8-pass one (FP4) by its 12 (the loop's
// exit is a join of paths, which LLVM 22 may count short); an unmarked loop too.
// GUARD-LABEL: func.func @fp8_32x32x64
// GUARD:         } {sched.remainder}
// GUARD-NEXT:    llvm.inline_asm has_side_effects "", "v"
// GUARD-NEXT:    rocdl.sched.barrier none
// GUARD-NEXT:    rocdl.s.nop 15
// GUARD-NEXT:    rocdl.s.nop 3
// GUARD-NEXT:    rocdl.sched.barrier none
// GUARD-NEXT:    vector.store
// GUARD-LABEL: func.func @fp4_32x32x64
// GUARD:         } {sched.remainder}
// GUARD-NEXT:    llvm.inline_asm has_side_effects "", "v"
// GUARD-NEXT:    rocdl.sched.barrier none
// GUARD-NEXT:    rocdl.s.nop 11
// GUARD-NEXT:    rocdl.sched.barrier none
// GUARD-NEXT:    vector.store
// GUARD-LABEL: func.func @unmarked
// GUARD:         scf.yield
// GUARD-NEXT:    }
// GUARD-NEXT:    llvm.inline_asm has_side_effects "", "v"
// GUARD-NEXT:    rocdl.sched.barrier none
// GUARD-NEXT:    rocdl.s.nop 15
// GUARD-NEXT:    rocdl.s.nop 3
// GUARD-NEXT:    rocdl.sched.barrier none
// GUARD-NEXT:    vector.store

// IREE's bf16 batch 2 x 267x969x192 (4 prefetch stages): the pair runs as straight code and
// the remainder loop of one iteration, its loads issued ahead, stores those registers to
// LDS of its own. The stores go after the epilogue's last wait and before its last MMA
// block (lowering/remainder_stores.py), with the views they need: no wait between them and
// the last four MFMAs, nor after those. The remainder keeps its barrier (a gpu.barrier,
// whose fence waits for the stores) before its reads, and stores nothing itself.
// REMSTORES-LABEL: func.func @matmul_dispatch_0
// REMSTORES:         memref.subview %alloc_{{[0-9]+}}[0, 0, 0] [1, 64, 64]
// REMSTORES-COUNT-6: vector.transfer_write %{{[0-9]+}}, %subview{{.*}}#gpu.address_space<workgroup>>
// REMSTORES-NOT:     rocdl.s.waitcnt
// REMSTORES-COUNT-4: amdgpu.mfma
// REMSTORES-NOT:     rocdl.s.waitcnt
// REMSTORES:         rocdl.s.barrier
// REMSTORES-NOT:     vector.transfer_write
// REMSTORES:         scf.for
// REMSTORES-NEXT:      gpu.barrier memfence [#gpu.address_space<workgroup>]
// REMSTORES-NOT:       vector.transfer_write {{.*}}workgroup
// REMSTORES:           gpu.barrier memfence [#gpu.address_space<workgroup>]
// REMSTORES:         sched.loads_ahead

// IREE's one-wave f32 A^T x B 1039x8x68 (finding 91 of docs/iree-audits.md): each fragment
// load is two vector<1xf32> reads 64 dwords apart, which LLVM merges into one
// ds_read2st64_b32. The loop's lgkmcnt(2) (49791), derived to complete the older of two
// fragment loads of two reads each, is lowered to lgkmcnt(1) (49535), which completes it
// with the reads merged (pipeline_mlir/schedule/merged_reads.py); put back to lgkmcnt(2) in
// the assembly, the emulator finds the DMA after it overwriting LDS that read still reads.
// PAIRED:       scf.for
// PAIRED:       rocdl.s.waitcnt 3960
// PAIRED-NEXT:  rocdl.s.waitcnt 49535
// PAIRED-NOT:   rocdl.s.waitcnt 49791
// PAIREDRACE:   error: lds-race: wave 0 of workgroup 0, {{.*}}'buffer_load_dword {{.*}} lds': LDS write of address 0 races the read by wave 0 at {{.*}}'ds_read2st64_b32
