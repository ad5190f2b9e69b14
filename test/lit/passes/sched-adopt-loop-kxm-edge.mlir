// sched-adopt-loop on IREE's bf16 A^T x B^T with M known only at launch and IREE's
// `padding` (K = 256; Inputs/iree-bf16-atbt-padded-m.*, both forms, written by
// test/data/iree/generate.py from dynamic.padded_source): A (K x M, `memref<256x?xbf16>`)
// is copied through registers, each lane's run of 8 masked by the M left along A's
// contiguous dimension. The masked elements are the columns past M of a row of A, which
// lie inside the buffer (the next row's), and with M not proven a multiple of 8 a run may
// be cut inside: no copy of whole runs reads what the masked one does, so both forms are
// refused at the masked read, saying so.
//
// RUN: not pipeline-opt %S/Inputs/iree-bf16-atbt-padded-m.prefetch.mlir --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=PREFETCH
// PREFETCH: iree-bf16-atbt-padded-m.prefetch.mlir:155:22: error: sched-adopt-loop: 'vector.transfer_read' op at line 155:22 has a mask whose size depends on the workgroup (block argument #0 of the 'scf.forall' over workgroups)
// PREFETCH-SAME: this one sizes the lane's run of 8 elements along dimension 1 of memref<256x?xbf16, #hal.descriptor_type<storage_buffer>>, its contiguous dimension (rows along K, columns along M or N: a K x M A or K x N B cut at C's edge): the elements it masks lie inside the buffer (in the row or the next)
// PREFETCH-SAME: that size is known only at launch and nothing proves it a multiple of 8 (util.assume.int's udiv), so a run may be cut inside
//
// The late form, M assumed a multiple of 8 (its util.assume.int given `udiv = 8`): no run
// is cut inside, but the masked columns still lie in the next row; refused at the masked
// read, without the clause about cut runs:
// RUN: sed -e '60s/umax = 9007199254740991>/umax = 9007199254740991, udiv = 8>/' %S/Inputs/iree-bf16-atbt-padded-m.late.mlir \
// RUN:   | not pipeline-opt - --pass-pipeline='builtin.module(sched-adopt-loop{schedule=4wave})' 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: <stdin>:299:22: error: sched-adopt-loop: 'vector.maskedload' op at line 299:22 has a mask whose size depends on the workgroup (block argument #0 of the 'scf.for' over workgroups)
// LATE-SAME: this one sizes the lane's run of 8 elements along dimension 1 of memref<256x?xbf16, #gpu.address_space<global>>, its contiguous dimension (rows along K, columns along M or N: a K x M A or K x N B cut at C's edge): the elements it masks lie inside the buffer (in the row or the next), where no read past a range-checked end zeroes them, so no copy of the whole run made for every lane reads what the kernel's masked one does{{$}}
