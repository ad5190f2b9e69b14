// RUN: pipeline-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-check-device-input)' | FileCheck %s

// sched-check-device-input (the first pass of the LLVM step) changes nothing: it
// fails, at the op concerned, unless the module is one gpu.module holding device
// code (gpu.func, memref.global), or LLVM ops only (the step ran already).

// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @k() kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: llvm.func @lowered
module {
  llvm.func @lowered() {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{sched-check-device-input: nothing to compile for the GPU: no 'gpu.module' (found 'func.func')}}
  func.func @host() {
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @a {
  }
  // expected-error @+1 {{sched-check-device-input: only one 'gpu.module' per input can be compiled}}
  gpu.module @b {
  }
  // expected-error @+1 {{'func.func' op outside the gpu.module: only device code can be compiled}}
  func.func @host() {
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'func.func' op in the gpu.module: the LLVM step lowers gpu.func, memref.global only}}
    func.func @helper() {
      return
    }
  }
}
