// The i8 kernel (v_mfma_i32_16x16x64_i8, one ds_read_b128 per MFMA operand, i32
// accumulators stored as they are), built with no input; and the errors of a C that does
// not fit the inputs.
// RUN: pipeline-opt --pipeline='4wave{dtype=i8}' --emit=asm | FileCheck %s
// RUN: not pipeline-opt --pipeline='4wave{dtype=i8 c_dtype=f32}' --emit=asm 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not pipeline-opt --pipeline='4wave{dtype=bf16 c_dtype=i32}' --emit=asm 2>&1 | FileCheck %s --check-prefix=ERR2

// CHECK-LABEL:  gemm_4wave_i8_128x128x64:
// CHECK:        Inner Loop Header
// CHECK:        v_mfma_i32_16x16x64_i8
// CHECK-NOT:    v_mfma_f32
// CHECK-NOT:    v_cvt_pk_bf16_f32
// The accumulators go to C as i32 words, one store per element and lane.
// CHECK-COUNT-64: buffer_store_dword
// CHECK:        s_endpgm
// CHECK:        .vgpr_spill_count: 0

// ERR:  pipeline-opt: error: pipeline '4wave{dtype=i8 c_dtype=f32}': c_dtype=f32 does not fit dtype=i8: its MFMAs accumulate in i32, which the kernel stores as i32
// ERR2: pipeline-opt: error: pipeline '4wave{dtype=bf16 c_dtype=i32}': c_dtype=i32 does not fit dtype=bf16: its MFMAs accumulate in f32, which the kernel stores as f32, bf16 or f16
