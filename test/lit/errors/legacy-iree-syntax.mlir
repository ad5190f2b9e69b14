// RUN: pipeline-opt %s | FileCheck %s
// RUN: not pipeline-opt %S/Inputs/legacy-mfma-blgp.mlir 2>&1 | FileCheck %s --check-prefix=BLGP

// IREE's Wave DSL (wave-lang 3.9) pins an older IREE, whose text differs from the one
// read here in three constructs; pipeline-opt reads them as today's syntax, on the same
// lines: translation_info's "pipeline = None" (no codegen pipeline: an empty pass
// pipeline), amdgpu.mfma's "blgp = none" (the default, no longer printed) and
// vector.extract_strided_slice's braces.

// CHECK: #translation = #iree_codegen.translation_info<pipeline = #iree_codegen.pass_pipeline<""> workgroup_size = [128, 2, 1] subgroup_size = 64>
// CHECK: func.func @k(%arg0: vector<8xf16>, %arg1: vector<4xf32>) -> vector<1xf32> attributes {translation_info = #translation}
// CHECK:   %[[M:.*]] = amdgpu.mfma 16x16x32 %arg0 * %arg0 + %arg1 : vector<8xf16>, vector<8xf16>, vector<4xf32>
// CHECK:   vector.extract_strided_slice %[[M]] offsets = [1], sizes = [1], strides = [1] : vector<4xf32> to vector<1xf32>
func.func @k(%a: vector<8xf16>, %c: vector<4xf32>) -> vector<1xf32> attributes {translation_info = #iree_codegen.translation_info<pipeline = None workgroup_size = [128, 2, 1] subgroup_size = 64>} {
  %m = amdgpu.mfma 16x16x32 %a * %a + %c blgp =  none : vector<8xf16>, vector<8xf16>, vector<4xf32>
  %s = vector.extract_strided_slice %m {offsets = [1], sizes = [1], strides = [1]} : vector<4xf32> to vector<1xf32>
  return %s : vector<1xf32>
}
// BLGP: legacy-mfma-blgp.mlir:3: 'amdgpu.mfma' in an older syntax with blgp = bcast_first_32: only the default (none) is read
