// Kernels sched-normalize-producers refuses, each at the op concerned.

stream.executable private @e {
  builtin.module {
    func.func @k(%a: !stream.binding) {
      %c64 = arith.constant 64 : index
      // expected-error @+1 {{non-zero or dynamic byte offset}}
      %0 = stream.binding.subspan %a[%c64] : !stream.binding -> memref<64xf32>
      return
    }
  }
}

// -----

stream.executable private @e {
  builtin.module {
    func.func @k(%a: !stream.binding, %n: index) {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{not a statically shaped memref}}
      %0 = stream.binding.subspan %a[%c0] : !stream.binding -> memref<?xf32>{%n}
      return
    }
  }
}

// -----

stream.executable private @e {
  builtin.module {
    // expected-error @+1 {{stream binding argument #0 must have exactly one use}}
    func.func @k(%a: !stream.binding) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %a[%c0] : !stream.binding -> memref<64xf32>
      %1 = stream.binding.subspan %a[%c0] : !stream.binding -> memref<64xf32>
      return
    }
  }
}

// -----

// expected-error @+1 {{holds no func.func kernel}}
stream.executable private @empty {
  builtin.module {
  }
}

// -----

stream.executable private @e {
  builtin.module {
    func.func @k() {
      return
    }
  }
}
func.func @host(%arg0: !hal.buffer_view) {
  %0 = hal.tensor.import %arg0 : !hal.buffer_view -> tensor<4xf32>
  flow.dispatch @e::@k() : () -> ()
  // expected-error @+1 {{'gpu.barrier' op in the host function of a stream.executable}}
  gpu.barrier
  return
}

// -----

func.func @overlap() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pool = memref.alloc() : memref<512xi8, #gpu.address_space<workgroup>>
  %a = memref.view %pool[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{overlaps another view of the same pool}}
  %b = memref.view %pool[%c64][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @dynamic_shift(%s: index) {
  %pool = memref.alloc() : memref<512xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{constant byte offsets}}
  %a = memref.view %pool[%s][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @past_end() {
  %c384 = arith.constant 384 : index
  %pool = memref.alloc() : memref<512xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{bytes 384..640 are not a 16-byte aligned part of the pool}}
  %a = memref.view %pool[%c384][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// a view of sub-byte elements: its bytes are not whole elements (one error, never a guess)
func.func @sub_byte_view() {
  %c0 = arith.constant 0 : index
  %pool = memref.alloc() : memref<512xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'memref.view' op: the front end splits a memory pool only into whole bytes: element type i4 is not a whole number of bytes}}
  %a = memref.view %pool[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<64xi4, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @bad_readfirstlane(%x: i32) -> i64 {
  // expected-error @+1 {{llvm.amdgcn.readfirstlane takes one value and returns one of the same type}}
  %r = llvm.call_intrinsic "llvm.amdgcn.readfirstlane"(%x) : (i32) -> i64
  return %r : i64
}
