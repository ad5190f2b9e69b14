// sched-expand-phases on IREE's bf16 A^T x B 522x653x704 (Inputs/iree-bf16-atb-522x653x704.*,
// test/data/iree/generate.py LIT_INPUTS): a 16x16 tile in one wave whose A and B IREE
// copies through registers in narrow pieces, 16 and 20 vmcnt instructions per load. The
// steady loop's first global-load wait derives as vmcnt(72), more than gfx950's 6-bit
// counter holds (63). The counts are the input's (a concrete pipeline, checked against its
// payload ops), so the waits are lowered as the dword DMA schedules' are
// (pipeline_mlir/schedule/vm_cap.py: a smaller vmcnt is a stronger wait; each lowered
// one records the count it replaces) instead of refusing the kernel; the same counts
// given as a pipeline's own options are still refused (test/unit/schedule/test_vm_cap.py).
// Both forms print one schedule, every WAIT_VM within the counter:
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-522x653x704.prefetch.mlir --pipeline=4wave --emit=schedule-json -o %t.prefetch.json
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-522x653x704.late.mlir --pipeline=4wave --emit=schedule-json -o %t.late.json
// RUN: cmp %t.prefetch.json %t.late.json
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-522x653x704.late.mlir --pipeline=4wave --emit=schedule | FileCheck %s --check-prefix=WAITS
// WAITS:     KRN [0] WAIT_VM {{.*}} wait=27 pf=False
// WAITS-NOT: WAIT_VM {{.*}} wait={{(6[4-9]|[7-9][0-9]|[1-9][0-9][0-9])}} pf
//
// And exact on the emulator (late mode: the first and the last of its 1353 workgroups;
// random mode and 4 workgroups of each form by hand):
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-522x653x704.prefetch.mlir --pipeline=4wave --emulate --emulate-workgroups=2 --emulate-mode=late 2>&1 | FileCheck %s --check-prefix=EXACT
// EXACT: mode=late: exact, max error 0 in C ({{[0-9]+}} elements), 2 of 1353 workgroups x 1 wave
