// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-extract-device-module)' | FileCheck %s

// sched-extract-device-module (the last pass of the LLVM step) moves the gpu.module's
// LLVM ops to the top level, sets the amdgcn-amd-amdhsa triple and gives each kernel
// the AMDGPU kernel ABI: amdgpu_kernelcc, the flat workgroup size from
// known_block_size, and amdgpu-waves-per-eu from rocdl.waves_per_eu.

// CHECK-LABEL: module attributes {llvm.target_triple = "amdgcn-amd-amdhsa"}
// CHECK-NEXT:    llvm.func amdgpu_kernelcc @k() attributes {passthrough = {{\[}}["amdgpu-flat-work-group-size", "256,256"], ["uniform-work-group-size", "true"], ["amdgpu-waves-per-eu", "1"]], reqd_work_group_size = array<i32: 256, 1, 1>}
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, rocdl.waves_per_eu = 1 : i32} {
      llvm.return
    }
  }
}

// -----

// The workgroup size is never guessed.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{sched-extract-device-module: kernel 'k' has no known_block_size}}
    llvm.func @k() attributes {rocdl.kernel} {
      llvm.return
    }
  }
}

// -----

// Host code next to the gpu.module would be dropped: an error.
module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
  // expected-error @+1 {{'llvm.func' op outside the gpu.module would be dropped by the device-code extraction}}
  llvm.func @host() {
    llvm.return
  }
}
