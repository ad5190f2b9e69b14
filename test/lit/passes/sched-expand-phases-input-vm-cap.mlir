// sched-expand-phases on IREE's bf16 A^T x B 522x653x704 (Inputs/iree-bf16-atb-522x653x704.*,
// test/data/iree/generate.py LIT_INPUTS): a 16x16 tile in one wave whose A and B IREE
// copies through registers in narrow pieces, 16 and 20 vmcnt instructions per load. The
// steady loop's first global-load wait derives as vmcnt(72), more than gfx950's 6-bit
// counter holds (63). The counts are the input's (a concrete pipeline, checked against its
// payload ops), so the waits are lowered as the dword DMA schedules' are
// (pipeline_mlir/schedule/vm_cap.py: a smaller vmcnt is a stronger wait; each lowered
// one records the count it replaces) instead of refusing the kernel; the same counts
// given as a pipeline's own options are still refused (test/unit/schedule/test_vm_cap.py).
// Both forms print one schedule, the steady loop's first op a WAIT_VM of 27, every wait of
// the kernel and the epilogue within the counter:
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-522x653x704.prefetch.mlir --pipeline=4wave --emit=schedule-json -o %t.prefetch.json
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-522x653x704.late.mlir --pipeline=4wave --emit=schedule-json -o %t.late.json
// RUN: cmp %t.prefetch.json %t.late.json
// RUN: FileCheck %s --check-prefix=WAITS --input-file=%t.late.json
// WAITS:      "kernel": [
// WAITS-NEXT:   {
// WAITS-NEXT:     "tag": {{[0-9]+}},
// WAITS-NEXT:     "name": "WAIT_VM",
// WAITS-NEXT:     "stage": {{[0-9]+}},
// WAITS-NEXT:     "subtile": {{[0-9]+}},
// WAITS-NEXT:     "k_offset": "NONE",
// WAITS-NEXT:     "channel": -1,
// WAITS-NEXT:     "wait_value": 27,
// WAITS-NOT:      "wait_value": {{(6[4-9]|[7-9][0-9]|[1-9][0-9][0-9])}},
// WAITS:        "body": [
// The blocks keep the derived count, which the lowering caps:
// WAITS:        "blocks": [
// WAITS:          "wait_value": 72,
//
// And exact on the emulator (late mode: the first and the last of its 1353 workgroups;
// random mode and 4 workgroups of each form by hand):
// RUN: pipeline-opt %S/Inputs/iree-bf16-atb-522x653x704.prefetch.mlir --pipeline=4wave --emulate --emulate-workgroups=2 --emulate-mode=late 2>&1 | FileCheck %s --check-prefix=EXACT
// EXACT: mode=late: exact, max error 0 in C ({{[0-9]+}} elements), 2 of 1353 workgroups x 1 wave
