// RUN: not pipeline-opt --pipeline=4wave %s --emulate 2>&1 | FileCheck %s

// --emulate reads an IREE dispatch's launch (sizes, bindings, grid) from its HAL bindings;
// an IREE Wave kernel has stream bindings instead, and is run through a launch
// description: one error at the kernel saying so, exit status 1.

// CHECK: wave-emulate-launch.mlir:11:7: error: --emulate: 'func.func' op 'k' takes stream bindings (IREE Wave's kernel): its launch is not read from the IR; describe it with --emulate-launch=FILE (examples/launch/wave_gemm_f16.toml)
// CHECK-NOT: Traceback
stream.executable private @k {
  builtin.module {
      func.func @k(%a: !stream.binding) attributes {translation_info = #iree_codegen.translation_info<pipeline = None workgroup_size = [128, 2, 1] subgroup_size = 64>} {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %a[%c0] : !stream.binding -> memref<f16>
      return
    }
  }
}
