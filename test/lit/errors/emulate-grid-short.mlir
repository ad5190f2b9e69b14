// RUN: sed 's/in (32, 32)/in (32, 1)/' %S/../../data/iree/matmul_bf16_abt_4096.prefetch.mlir | not pipeline-opt - --pipeline=4wave --emulate --emulate-workgroups=2 2>&1 | FileCheck %s

// A partial --emulate run of a dispatch checks only its workgroups' tiles of C. IREE's
// 4096^3 kernel with its workgroup forall cut to (32, 1) has 32 workgroups of 128x128
// tiles, too few to write the 4096x4096 C: one error at the forall before anything is
// built or run (a run of two of its workgroups would call it exact), exit status 1.

// CHECK: <stdin>:44:11: error: --emulate: 'scf.forall' op: the kernel's grid of 32 workgroups (1x32), each writing at most 32768 elements of C (as many as the run's workgroups [(0, 0), (0, 31)] write together), cannot write all 16777216 elements of the 4096x4096 C: elements of C would never be written
// CHECK-NOT: Traceback
