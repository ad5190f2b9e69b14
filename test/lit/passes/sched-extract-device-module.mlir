// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-extract-device-module)' | FileCheck %s

// sched-extract-device-module (the last pass of the LLVM step) moves the gpu.module's
// LLVM ops to the top level, sets the amdgcn-amd-amdhsa triple and gives each kernel
// the AMDGPU kernel ABI: amdgpu_kernelcc, the flat workgroup size from
// known_block_size, amdgpu-waves-per-eu from rocdl.waves_per_eu and amdgpu-agpr-alloc
// from sched.agpr_alloc.

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

// -----

// sched.agpr_alloc (the AGPRs a kernel keeps for its MFMA accumulators) becomes
// "amdgpu-agpr-alloc".
// CHECK-LABEL: module attributes {llvm.target_triple = "amdgcn-amd-amdhsa"}
// CHECK-NEXT:    llvm.func amdgpu_kernelcc @agprs() attributes {passthrough = {{\[}}["amdgpu-flat-work-group-size", "256,256"], ["uniform-work-group-size", "true"], ["amdgpu-waves-per-eu", "1"], ["amdgpu-agpr-alloc", "256"]], reqd_work_group_size = array<i32: 256, 1, 1>}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @agprs() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, rocdl.waves_per_eu = 1 : i32, sched.agpr_alloc = 256 : i32} {
      llvm.return
    }
  }
}

// -----

// sched.k_outer_mfmas (the MMAs interleave their AGPR accumulators' K steps) becomes
// "sched-k-outer-mfmas"="true", on which the code generation orders LLVM's register
// allocation.
// CHECK-LABEL: module attributes {llvm.target_triple = "amdgcn-amd-amdhsa"}
// CHECK-NEXT:    llvm.func amdgpu_kernelcc @kouter() attributes {passthrough = {{\[}}["amdgpu-flat-work-group-size", "256,256"], ["uniform-work-group-size", "true"], ["amdgpu-waves-per-eu", "1"], ["amdgpu-agpr-alloc", "256"], ["sched-k-outer-mfmas", "true"]], reqd_work_group_size = array<i32: 256, 1, 1>}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @kouter() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, rocdl.waves_per_eu = 1 : i32, sched.agpr_alloc = 256 : i32, sched.k_outer_mfmas} {
      llvm.return
    }
  }
}

// -----

// Without AGPR accumulators it would order nothing: an error, not ignored.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{sched-extract-device-module: kernel 'k': sched.k_outer_mfmas needs sched.agpr_alloc (it orders the register allocation of AGPR accumulators)}}
    llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, sched.k_outer_mfmas} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{sched-extract-device-module: kernel 'k': sched.k_outer_mfmas is a unit attribute, got "yes"}}
    llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, sched.agpr_alloc = 256 : i32, sched.k_outer_mfmas = "yes"} {
      llvm.return
    }
  }
}

// -----

// More AGPRs than a lane has is an error, not a clamp.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{sched-extract-device-module: kernel 'k': sched.agpr_alloc must be an integer in 1..256 (the AGPRs of a lane), got 300 : i32}}
    llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, sched.agpr_alloc = 300 : i32} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{sched-extract-device-module: kernel 'k': sched.agpr_alloc must be an integer in 1..256 (the AGPRs of a lane), got "all"}}
    llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, sched.agpr_alloc = "all"} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{sched-extract-device-module: function 'f' is not a kernel but has kernel attributes}}
    llvm.func @f() attributes {sched.agpr_alloc = 128 : i32} {
      llvm.return
    }
  }
}

// -----

// Another sched.* function attribute would be dropped: an error.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{sched-extract-device-module: function 'k': attribute 'sched.agprs' has no LLVM equivalent in this lowering and would be dropped}}
    llvm.func @k() attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, sched.agprs = 1 : i32} {
      llvm.return
    }
  }
}
