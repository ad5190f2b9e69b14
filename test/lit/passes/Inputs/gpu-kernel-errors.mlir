// Kernels sched-gpu-kernel refuses, each at the op concerned.

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
gpu.module @kernels {
  gpu.func @offset(%o: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{non-zero or dynamic byte offset}}
    %b = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%o) : memref<64xf32, #gpu.address_space<global>>
    gpu.return
  }
}

// -----

// expected-error @+1 {{no workgroup size}}
func.func @no_size() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering>>} {
  return
}

// -----

func.func @swizzled() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  // expected-error @+1 {{IREE swizzle}}
  %lds = memref.alloc() {iree_codegen.swizzle = #iree_codegen.xor_shuffle<64, 8>} : memref<4096xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A binding sized at launch becomes a memref argument whose descriptor passes its sizes:
// only in the row-major (identity) layout.
#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @dynamic_strided() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %p = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %n = arith.index_castui %p : i32 to index
  // expected-error @+1 {{a binding of dynamic sizes becomes a memref argument whose descriptor passes them, which needs the row-major (identity) layout}}
  %b = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : memref<?x64xf32, strided<[128, 1]>, #gpu.address_space<global>>{%n}
  return
}

// -----

// A push constant is one i32 word: loaded as another type, or twice, it would not be the
// argument IREE pushes at its ordinal.
#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @constant_i16() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  // expected-error @+1 {{loads push constant #0 as i16; a push constant is one i32 word (its kernel argument)}}
  %p = hal.interface.constant.load layout(#layout) ordinal(0) : i16
  return
}

// -----

// A 32-bit float is not the kernel argument's i32 either (the type, not its width, counts).
#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @constant_f32() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  // expected-error @+1 {{loads push constant #0 as f32; a push constant is one i32 word (its kernel argument)}}
  %p = hal.interface.constant.load layout(#layout) ordinal(0) : f32
  return
}

// -----

#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @constant_twice() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %p = hal.interface.constant.load layout(#layout) ordinal(1) : i32
  // expected-error @+1 {{loads push constant #1 a second time (first at line}}
  %q = hal.interface.constant.load layout(#layout) ordinal(1) : i32
  return
}

// -----

func.func @mapped_twice() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  // expected-error @+1 {{'scf.forall' op maps two of its dimensions to the same workgroup id (x, x); each must have its own}}
  scf.forall (%i, %j) in (4, 8) {
  } {mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<x>]}
  return
}

// -----

// The pipeline layout says the kernel's arguments (IREE passes one per binding and per push
// constant of it): an ordinal past it (refused by IREE's verifier, at the op, as is a
// binding past it), a second layout, or a second subspan of one binding (one argument each)
// cannot be honoured.
#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @ordinal_past_layout() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %p = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  // expected-error @+2 {{push constant ordinal out of bounds}}
  // expected-note @+1 {{see current operation}}
  %q = hal.interface.constant.load layout(#layout) ordinal(2) : i32
  return
}

// -----

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @binding_twice() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %a = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  // expected-error @+1 {{uses binding #0 a second time (first at}}
  %b = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  return
}

// -----

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
#other = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @two_layouts() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %a = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  // expected-error @+1 {{uses another pipeline layout than 'hal.interface.binding.subspan' at}}
  %p = hal.interface.constant.load layout(#other) ordinal(0) : i32
  return
}

// -----

// The layout's counts are read from its fields: a count of push constants below 0 (IREE's
// parser takes any integer) or past the 64 IREE's HIP runtime pushes is refused, naming it.
#layout = #hal.pipeline.layout<constants = -1, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @negative_constants() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{its layout's 'constants' is -1, not a count of 0 to 64 push constants}}
  %a = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  return
}

// -----

#layout = #hal.pipeline.layout<constants = 65, bindings = [#hal.pipeline.binding<storage_buffer>]>
func.func @too_many_constants() attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{its layout's 'constants' is 65, not a count of 0 to 64 push constants}}
  %a = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  return
}

// -----

// sched.copies_in_range is the project's launcher's contract (check_launch): IREE's runtime
// launches a hal.executable's kernels and checks nothing of it, so sched-buffer-soffset
// must not trust it there (IREE's bf16 300x500x200 with it: soffset-range on the emulator).
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {}>
hal.executable private @exe {
  hal.executable.variant public @rocm target(#target) {
    hal.executable.export public @claimed ordinal(0) layout(#layout) count(%d: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      // expected-error @+1 {{sched.copies_in_range is the contract of the project's own launcher}}
      func.func @claimed() attributes {sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
        return
      }
    }
  }
}

// -----

// The same on IREE's kernel taken out of its hal.executable (its bindings say whose it is).
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
// expected-error @+1 {{sched.copies_in_range is the contract of the project's own launcher}}
func.func @claimed_bare() attributes {sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
  %c0 = arith.constant 0 : index
  %a = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) : memref<64xf32, #gpu.address_space<global>>
  return
}

// -----

// A kernel of no one's runtime that states the contract itself: kept (the author's).
func.func @claimed_plain(%a: memref<64xf32, #gpu.address_space<global>>) attributes {sched.copies_in_range, gpu.known_block_size = array<i32: 64, 1, 1>} {
  return
}
