// --emit=report: resources read from the assembly and cross-checked with the code object,
// occupancy beside LLVM's, the main loop's VALU/SALU per iteration (beside the reference's
// where it has a kernel of that shape), whole-kernel counts (with the reference anchor for
// the ping-pong BF16 kernel) and the ISA check of the assembly against the schedule.
// RUN: pipeline-opt --pipeline='pingpong{is_fp8=false}' --emit=report | FileCheck %s --check-prefix=PP
// RUN: pipeline-opt --pipeline='4wave{dtype=fp8 BM=64 BN=64 BK=128}' --emit=report | FileCheck %s --check-prefix=W64
// RUN: not pipeline-opt --pipeline=single-buffer --emit=report 2>&1 | FileCheck %s --check-prefix=ERR

// PP-LABEL: kernel gemm_pingpong_bf16_256x256x64 (gfx950)
// PP:       LDS                   131072 bytes per workgroup
// PP:       spills: 0 VGPR, 0 SGPR
// PP:       workgroup             512 work items = 8 waves of 64
// PP:       occupancy             2 waves/SIMD ({{.*}}lds 2{{.*}}); LLVM's '; Occupancy' 2: agree
// PP-NEXT:  code object           agrees with the assembly
// PP-NEXT:  main loop, per iteration of one wave; the reference's kernel of this shape beside
// PP-NEXT:  VALU{{ +[0-9]+}}   reference   17
// PP-NEXT:  SALU{{ +[0-9]+$}}
// PP-NEXT:  VGPRs (allocated){{ +[0-9]+}}   reference  254
// PP:       reference ping-pong BF16 kernel beside
// PP:       ds_read_b128                      96   reference   96
// PP:       s_barrier                         33   reference   33
// PP:       s_setprio                         28   reference   28
// PP:       v_mfma_f32_16x16x32_bf16       256   reference  256
// PP:       ISA check
// PP:       loop          128 (exp 128)     48 (exp  48)     16 (exp  16)
// PP:       findings: 0
// PP:       outside the schedule:
// PP:       s_waitcnt lgkmcnt(0) {{.*}}LLVM's wait for the kernel-argument s_load
// PP:       128 x vector store (the C tile)

// W64-LABEL: kernel gemm_4wave_fp8_64x64x128 (gfx950)
// W64:       occupancy             5 waves/SIMD {{.*}}: agree
// W64:       main loop, per iteration of one wave; the reference's kernel of this shape beside
// W64-NEXT:  VALU{{ +[0-9]+}}   reference    9
// W64:       VGPRs (allocated){{ +[0-9]+}}   reference   90
// W64-NOT:   reference
// W64:       findings:
// W64:       prologue wait-merged {{.*}}lowering:zero-trip-fence
// W64:       loop     wait-merged {{.*}}KRN[0],KRN[1]
// The loop's last vmcnt(4) opens the epilogue, with the schedule's lgkmcnt(0): LLVM adds
// no wait of its own before the first fragment read.
// W64:       epilogue wait-merged {{.*}}EPI[0],EPI[1]
// W64-NOT:   wait-added
// W64-NOT:   wait-weakened

// ERR: pipeline-opt: error: --emit=report without an input builds a complete GEMM kernel, which exists for 4wave and pingpong, not 'single-buffer'
