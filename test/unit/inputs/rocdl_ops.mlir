// One of every rocdl op sched-rocdl-to-llvm-intrinsics supports, in an LLVM-dialect
// kernel (the state after iree-convert-to-rocdl).  test_to_llvm.py rewrites,
// translates and compiles it for gfx950: each intrinsic must reach LLVM 22 intact.
module {
  llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<1024 x i32>
  llvm.func @all_rocdl_ops(%g: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32)
      attributes {rocdl.kernel, gpu.known_block_size = array<i32: 256, 1, 1>} {
    %lds = llvm.mlir.addressof @lds : !llvm.ptr<3>
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %m1 = llvm.mlir.constant(-1 : i32) : i32
    %stride = llvm.mlir.constant(0 : i16) : i16
    %tx = rocdl.workitem.id.x range <i32, 0, 256> : i32
    %ty = rocdl.workitem.id.y : i32
    %tz = rocdl.workitem.id.z : i32
    %bx = rocdl.workgroup.id.x : i32
    %by = rocdl.workgroup.id.y : i32
    %bz = rocdl.workgroup.id.z : i32
    %lo = rocdl.mbcnt.lo %m1, %c0 <res_attrs = [{llvm.noundef}]> : (i32, i32) -> i32
    %lane = rocdl.mbcnt.hi %m1, %lo : (i32, i32) -> i32
    %u = rocdl.readfirstlane %bx : i32
    %r = rocdl.readlane %tx, %u : (i32, i32) -> i32
    %idx = llvm.mul %lane, %c4 : i32
    %p = rocdl.ds_bpermute %idx, %tx : (i32, i32) -> i32
    %gp = llvm.getelementptr %g[%tx] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    rocdl.load.to.lds %gp, %lds, 4, 0, 0 : <1>
    rocdl.global.load.lds %gp, %lds, 4, 0, 0
    // i32 record count: LLVM 22 wants i64 (the skew shim)
    %rsrc = rocdl.make.buffer.rsrc %g, %stride, %n, %c0 : <1>, i32 to <8>
    %boff = llvm.mul %tx, %c4 : i32
    %v = rocdl.raw.ptr.buffer.load %rsrc, %boff, %c0, 0 : i32
    rocdl.raw.ptr.buffer.store %v, %rsrc, %boff, %c0, 0 : i32
    rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %boff, %c0, %c0, 0
    rocdl.s.waitcnt 3952
    rocdl.s.barrier
    rocdl.wave.barrier
    rocdl.sched.barrier mfma_wmma|all_ds
    rocdl.s.setprio 2
    rocdl.s.nop 1
    rocdl.s.sleep 1
    rocdl.iglp.opt 0
    %s0 = llvm.add %ty, %tz : i32
    %s1 = llvm.add %s0, %by : i32
    %s2 = llvm.add %s1, %bz : i32
    %s3 = llvm.add %s2, %p : i32
    %s4 = llvm.add %s3, %v : i32
    %s5 = llvm.add %s4, %r : i32
    %op = llvm.getelementptr %out[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %s5, %op : i32, !llvm.ptr<1>
    %pair = llvm.bitcast %s5 : i32 to vector<2xbf16>
    %a8 = llvm.shufflevector %pair, %pair [0, 1, 0, 1, 0, 1, 0, 1] : vector<2xbf16>
    %b16 = llvm.shufflevector %pair, %pair [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1] : vector<2xbf16>
    %zero = llvm.mlir.constant(dense<0.0> : vector<4xf32>) : vector<4xf32>
    %d0 = rocdl.mfma.f32.16x16x32.bf16 %a8, %a8, %zero, 0, 0, bcast_first_32
      : (vector<8xbf16>, vector<8xbf16>, vector<4xf32>) -> vector<4xf32>
    %f8 = llvm.sext %s5 : i32 to i64
    %d1 = rocdl.mfma.f32.16x16x32.fp8.fp8 %f8, %f8, %d0, 0, 0, none
      : (i64, i64, vector<4xf32>) -> vector<4xf32>
    %tr = rocdl.ds.read.tr16.b64 %lds : !llvm.ptr<3> -> vector<4xbf16>
    %tr8 = llvm.shufflevector %tr, %tr [0, 1, 2, 3, 0, 1, 2, 3] : vector<4xbf16>
    %trb8 = rocdl.ds.read.tr8.b64 %lds : !llvm.ptr<3> -> vector<2xi32>
    %trb8e = llvm.extractelement %trb8[%s5 : i32] : vector<2xi32>
    %d2 = rocdl.smfmac.f32.16x16x64.bf16 %tr8, %b16, %d1, %s5, 0, 0
      : (vector<8xbf16>, vector<16xbf16>, vector<4xf32>, i32) -> vector<4xf32>
    %w8 = llvm.mlir.undef : vector<8xi32>
    %w8a = llvm.insertelement %trb8e, %w8[%s5 : i32] : vector<8xi32>
    %sc = llvm.mlir.constant(0 : i32) : i32
    %d3 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %w8a, %w8a, %d2, fp8_e4m3, fp8_e5m2, 0, %sc, 0, %sc
      : (vector<8xi32>, vector<8xi32>, vector<4xf32>, i32, i32) -> vector<4xf32>
    rocdl.sched.group.barrier ds_read, 1, 0
    rocdl.sched.group.barrier mfma_wmma, 2, 0
    %dp = llvm.getelementptr %out[%idx] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %d3, %dp : vector<4xf32>, !llvm.ptr<1>
    // the 8-bit float conversions of an arith.truncf to f8E4M3FN / f8E5M2
    %e0 = llvm.extractelement %d3[%c0 : i32] : vector<4xf32>
    %e1 = llvm.extractelement %d3[%s5 : i32] : vector<4xf32>
    %k0 = rocdl.cvt.pk.fp8.f32 %e0, %e1 -> %s5[false] : i32
    %k1 = rocdl.cvt.pk.bf8.f32 %e1, %e0 -> %k0[true] : i32
    %k2 = rocdl.cvt.sr.fp8.f32 %e0, %lane -> %k1[2] : i32
    %k3 = rocdl.cvt.sr.bf8.f32 %e1, %lane -> %k2[3] : i32
    %kp = llvm.getelementptr %out[%tx] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %k3, %kp : i32, !llvm.ptr<1>
    llvm.return
  }
}
