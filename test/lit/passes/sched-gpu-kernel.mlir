// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-gpu-kernel)' | FileCheck %s
// RUN: pipeline-opt %s --split-input-file --pass-pipeline='builtin.module(sched-gpu-kernel,sched-to-llvm)' --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: pipeline-opt %S/Inputs/gpu-kernel-errors.mlir --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sched-gpu-kernel)'

// sched-gpu-kernel puts kernels in the form the LLVM step compiles: one gpu.module of
// gpu.func kernels.  IREE's container (hal.executable / variant / func.func) and its
// interface ops become a gpu.func with arguments and GPU ids; workgroup memory from
// memref.alloc becomes workgroup attributions.

// CHECK:      module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels {
// CHECK-NEXT:     gpu.func @dispatch(%arg0: memref<64xf32, #gpu.address_space<global>>, %arg1: memref<64xf32, #gpu.address_space<global>>, %arg2: i32) workgroup(%arg3 : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
// The forall's induction variables become block ids bounded by its static bounds (the
// grid), which the LLVM step keeps as ranges of the workgroup ids.
// CHECK:          %[[BY:.*]] = gpu.block_id  y upper_bound 4
// CHECK:          %[[BX:.*]] = gpu.block_id  x upper_bound 8
// CHECK:          %[[T:.*]] = gpu.thread_id  x
// CHECK:          memref.load %arg0[%[[T]]]
// CHECK:          memref.store %{{.*}}, %arg3[%[[T]]]
// CHECK:          arith.addi %[[BY]], %[[BX]]
// CHECK-NOT:      memref.dealloc
// CHECK:          gpu.return
// LLVM: define amdgpu_kernel void @dispatch(
// LLVM-DAG: call range(i32 0, 4) i32 @llvm.amdgcn.workgroup.id.y()
// LLVM-DAG: call range(i32 0, 8) i32 @llvm.amdgcn.workgroup.id.x()
// LLVM: "amdgpu-flat-work-group-size"="64,64"
#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {}>
hal.executable private @exe {
  hal.executable.variant public @rocm target(#target) {
    hal.executable.export public @dispatch ordinal(0) layout(#layout) count(%d: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @dispatch() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
        %c0 = arith.constant 0 : index
        %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
        %in = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
        %out = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64xf32, #hal.descriptor_type<storage_buffer>>
        %k = hal.interface.constant.load layout(#layout) ordinal(0) : i32
        scf.forall (%y, %x) in (4, 8) {
          %t = gpu.thread_id x
          %v = memref.load %in[%t] : memref<64xf32, #hal.descriptor_type<storage_buffer>>
          memref.store %v, %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
          %s = arith.addi %y, %x : index
          %ki = arith.index_cast %k : i32 to index
          %o = arith.addi %s, %ki : index
          %w = memref.load %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
          memref.store %w, %out[%o] : memref<64xf32, #hal.descriptor_type<storage_buffer>>
        } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
        memref.dealloc %lds : memref<64xf32, #gpu.address_space<workgroup>>
        return
      }
    }
  }
}

// -----

// A func.func kernel at the top level (or in a nested module), LDS from memref.alloc, and
// a gpu.func with IREE's binding op inside (iree-convert-to-rocdl crashes on that one).
// CHECK:      gpu.module @kernels {
// CHECK:        gpu.func @binding(%arg0: memref<64xf32, #gpu.address_space<global>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>}
// CHECK:        gpu.func @plain(%arg0: memref<64xf32, #gpu.address_space<global>>) workgroup(%arg1 : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>}
// LLVM: define amdgpu_kernel void @binding(
// LLVM: define amdgpu_kernel void @plain(
#layout1 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @binding() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %b = hal.interface.binding.subspan layout(#layout1) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
      %t = gpu.thread_id x
      %v = memref.load %b[%t] : memref<64xf32, #gpu.address_space<global>>
      memref.store %v, %b[%c0] : memref<64xf32, #gpu.address_space<global>>
      gpu.return
    }
  }
  func.func @plain(%g: memref<64xf32, #gpu.address_space<global>>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %t = gpu.thread_id x
    %v = memref.load %g[%t] : memref<64xf32, #gpu.address_space<global>>
    memref.store %v, %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %g[%t] : memref<64xf32, #gpu.address_space<global>>
    return
  }
}

// -----

// The kernel attributes the LLVM step turns into LLVM's (rocdl.waves_per_eu,
// sched.agpr_alloc, sched.k_outer_mfmas) stay on the rebuilt gpu.func.
// CHECK:        gpu.func @agprs(%arg0: memref<64xf32, #gpu.address_space<global>>) workgroup(%arg1 : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {rocdl.waves_per_eu = 1 : i32, sched.agpr_alloc = 128 : i32, sched.k_outer_mfmas, known_block_size = array<i32: 64, 1, 1>}
// LLVM: define amdgpu_kernel void @agprs(
// LLVM: "amdgpu-agpr-alloc"="128"
// LLVM-SAME: "sched-k-outer-mfmas"="true"
func.func @agprs(%g: memref<64xf32, #gpu.address_space<global>>) attributes {gpu.known_block_size = array<i32: 64, 1, 1>, rocdl.waves_per_eu = 1 : i32, sched.agpr_alloc = 128 : i32, sched.k_outer_mfmas} {
  %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %v = memref.load %g[%t] : memref<64xf32, #gpu.address_space<global>>
  memref.store %v, %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %g[%t] : memref<64xf32, #gpu.address_space<global>>
  return
}

// -----

// A binding sized at launch (rows from push constants, as IREE passes an index): a memref
// argument of the dynamic type, its descriptor passing the size; the push constant stays
// an i32 argument after the bindings.
// CHECK:        gpu.func @rows(%arg0: memref<?x64xf32, #gpu.address_space<global>>, %arg1: i32) kernel
// LLVM: define amdgpu_kernel void @rows(
#layout2 = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @rows() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %p = hal.interface.constant.load layout(#layout2) ordinal(0) : i32
  %n = arith.index_castui %p : i32 to index
  %b = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) : memref<?x64xf32, #gpu.address_space<global>>{%n}
  %t = gpu.thread_id x
  %v = memref.load %b[%c0, %t] : memref<?x64xf32, #gpu.address_space<global>>
  memref.store %v, %b[%c0, %t] : memref<?x64xf32, #gpu.address_space<global>>
  return
}

// -----

// IREE's kernel ABI (its ROCm HAL): one argument per binding of the pipeline layout, in
// binding order, then one i32 per push constant of it, in ordinal order, whatever the kernel
// uses: an unused binding (#1) is the global pointer IREE passes, unused constants (#0, #2)
// i32 arguments nothing reads, and constants loaded out of order take their ordinal's slot.
// CHECK:        gpu.func @sparse(%arg0: memref<64xf32, #gpu.address_space<global>>, %arg1: !llvm.ptr<1>, %arg2: memref<64xf32, #gpu.address_space<global>>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32) kernel
// CHECK:          arith.index_castui %arg6
// CHECK:          arith.index_castui %arg4
// LLVM: define amdgpu_kernel void @sparse(ptr addrspace(1) %0, ptr addrspace(1) %1, i64 %2, i64 %3, i64 %4, ptr addrspace(1) %5, ptr addrspace(1) %6, ptr addrspace(1) %7, i64 %8, i64 %9, i64 %10, i32 %11, i32 %12, i32 %13, i32 %14)
#layout3 = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
func.func @sparse() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %p = hal.interface.constant.load layout(#layout3) ordinal(3) : i32
  %q = hal.interface.constant.load layout(#layout3) ordinal(1) : i32
  %i = arith.index_castui %p : i32 to index
  %j = arith.index_castui %q : i32 to index
  %out = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  %in = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  %v = memref.load %in[%i] : memref<64xf32, #gpu.address_space<global>>
  memref.store %v, %out[%j] : memref<64xf32, #gpu.address_space<global>>
  return
}

// -----

// IREE's linearised workgroup loop (a grid-stride scf.for): the workgroup count becomes a
// load of the hidden argument hidden_block_count_x (the first word of the implicit
// arguments), not gpu.grid_dim, whose lowering calls an unlinked __ockl_get_num_groups.
// The workgroup id keeps its upper_bound, which the LLVM step makes its range (what
// sched-buffer-soffset bounds a workgroup's rows with in IREE's late forms).
// CHECK-LABEL:  gpu.func @strided
// CHECK:          gpu.block_id  x upper_bound 100
// CHECK:          %[[P:.*]] = llvm.call_intrinsic "llvm.amdgcn.implicitarg.ptr"() : () -> !llvm.ptr<4>
// CHECK:          %[[G:.*]] = llvm.getelementptr %[[P]][0] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
// CHECK:          %[[N:.*]] = llvm.load %[[G]] invariant <alignment = 4> : !llvm.ptr<4> -> i32
// CHECK:          %[[C:.*]] = arith.index_castui %[[N]] : i32 to index
// CHECK:          scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C]]
// CHECK-NOT:      gpu.grid_dim
// LLVM: define amdgpu_kernel void @strided(
// LLVM: call range(i32 0, 100) i32 @llvm.amdgcn.workgroup.id.x()
// LLVM: call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
// LLVM-NOT: __ockl_get_num_groups
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, Indirect>]>
#target2 = #hal.executable.target<"rocm", "rocm-hsaco-fb", {}>
hal.executable private @exe2 {
  hal.executable.variant public @rocm target(#target2) {
    hal.executable.export public @strided ordinal(0) layout(#layout2) count(%d: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @strided() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
        %c0 = arith.constant 0 : index
        %c100 = arith.constant 100 : index
        %out = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags(Indirect) : memref<100xf32, #hal.descriptor_type<storage_buffer>>
        %id = hal.interface.workgroup.id[0] upper_bound 100 : index
        %n = hal.interface.workgroup.count[0] upper_bound 100 : index
        scf.for %i = %id to %c100 step %n {
          %f = arith.constant 1.0 : f32
          memref.store %f, %out[%i] : memref<100xf32, #hal.descriptor_type<storage_buffer>>
        }
        return
      }
    }
  }
}
