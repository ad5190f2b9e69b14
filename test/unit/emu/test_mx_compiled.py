"""One MXFP4 (and MXFP8) MFMA tile, written in MLIR as a user would write it
(``amdgpu.scaled_mfma`` on ``vector<32xf4E2M1FN>`` loaded as 16 bytes per lane, one E8M0
scale per lane: byte ``q`` of row ``r``'s scale word, the scales being ``M x K/32`` bytes), compiled by the project's LLVM step and LLVM 22 for gfx950, run on the
emulator and compared with the numpy MX reference: ``C = (A Xa)(B Xb)^T`` must be exact.

This ties three independent pieces: MLIR's lowering (``rocdl.mfma.scale.f32.16x16x128.f8f6f4``
and the bitcast of the element vector into registers), the emulator's operand layout, and
the OCP MX reference."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.machine import GlobalMemory, Machine
from pipeline_mlir.kernel import mx

#: format -> (MLIR element type, bytes per lane, f8f6f4 format code)
FORMATS = {"e2m1": ("f4E2M1FN", 16, 4), "e4m3": ("f8E4M3FN", 32, 0)}


def _c_stores(mem: str) -> str:
    """D register i of lane (r, q) is C[4q + i][r]: four stores 16 floats apart."""
    lines = []
    for i in range(4):
        lines += [f"      %c{i}_off = arith.constant {16 * i} : index",
                  f"      %o{i} = arith.addi %o, %c{i}_off : index",
                  f"      %d{i} = vector.extract %d[{i}] : f32 from vector<4xf32>",
                  f"      memref.store %d{i}, %out[%o{i}] : memref<256xf32, {mem}>"]
    return "\n".join(lines)


def _kernel_mlir(fmt: str) -> str:
    elem, lane_bytes, _ = FORMATS[fmt]
    row = 4 * lane_bytes                       # bytes of one row of 128 elements
    buf = 16 * row
    mem = "#gpu.address_space<global>"
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @mx_tile(%a: memref<{buf}xi8, {mem}>, %b: memref<{buf}xi8, {mem}>,
                      %sa: memref<16xi32, {mem}>, %sb: memref<16xi32, {mem}>,
                      %out: memref<256xf32, {mem}>)
        kernel attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %crow = arith.constant {row} : index
      %clane = arith.constant {lane_bytes} : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %r = arith.remui %tid, %c16 : index
      %q = arith.divui %tid, %c16 : index
      %r_off = arith.muli %r, %crow : index
      %q_off = arith.muli %q, %clane : index
      %off = arith.addi %r_off, %q_off : index
      %av = vector.load %a[%off] : memref<{buf}xi8, {mem}>, vector<{lane_bytes}xi8>
      %bv = vector.load %b[%off] : memref<{buf}xi8, {mem}>, vector<{lane_bytes}xi8>
      %ae = vector.bitcast %av : vector<{lane_bytes}xi8> to vector<32x{elem}>
      %be = vector.bitcast %bv : vector<{lane_bytes}xi8> to vector<32x{elem}>
      %qi = arith.index_cast %q : index to i32
      %c8i = arith.constant 8 : i32
      %shift = arith.muli %qi, %c8i : i32
      %saw = memref.load %sa[%r] : memref<16xi32, {mem}>
      %sbw = memref.load %sb[%r] : memref<16xi32, {mem}>
      %sa_sh = arith.shrui %saw, %shift : i32
      %sb_sh = arith.shrui %sbw, %shift : i32
      %sai = arith.trunci %sa_sh : i32 to i8
      %sbi = arith.trunci %sb_sh : i32 to i8
      %sas = arith.bitcast %sai : i8 to f8E8M0FNU
      %sbs = arith.bitcast %sbi : i8 to f8E8M0FNU
      %d = amdgpu.scaled_mfma 16x16x128 (%sas[0] * %ae) * (%sbs[0] * %be) + %zero
        : f8E8M0FNU, vector<32x{elem}>, f8E8M0FNU, vector<32x{elem}>, vector<4xf32>
      %q4 = arith.muli %q, %c4 : index
      %o_row = arith.muli %q4, %c16 : index
      %o = arith.addi %o_row, %r : index
{_c_stores(mem)}
      gpu.return
    }}
  }}
}}
"""


@pytest.fixture(scope="module", params=sorted(FORMATS))
def compiled(request):
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.isa.codegen import compile_llvm_ir
    from pipeline_mlir.passes.registry import module_to_llvm_ir

    with new_context():
        ll = module_to_llvm_ir(ir.Module.parse(_kernel_mlir(request.param)))
    return request.param, compile_llvm_ir(ll, kind="asm")


def _memory(codes, fmt):
    return mx.pack_e2m1(codes) if fmt == "e2m1" else codes


def _run(asm: str, fmt: str, seed: int, mode: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ac, as_ = mx.random_mx_operands(rng, 16, 128, fmt)
    bc, bs = mx.random_mx_operands(rng, 16, 128, fmt)
    glob = GlobalMemory()
    kernarg_at = glob.add("kernargs", bytes(256))
    args = [_memory(ac, fmt), _memory(bc, fmt), as_, bs, np.full(256 * 4, 0xFF, np.uint8)]
    blob = b""
    for k, data in enumerate(args):
        base = glob.add(f"arg{k}", data)
        count = data.size // 4 if k >= 2 else data.size       # i32 scale words, f32 C
        blob += struct.pack("<QQqqq", base, base, 0, count, 1)
    glob.buffers[0][:len(blob)] = np.frombuffer(blob, np.uint8)
    Machine(load_kernel(asm), glob, [0], 1, mode, seed, kernarg_at).run()
    got = glob.buffer("arg4").view(np.float32).reshape(16, 16).astype(np.float64)
    # a scale given to the wrong block would show: the result with A's block scales
    # rotated by one must differ
    wrong = mx.mx_reference_gemm(ac, np.roll(as_, 1, axis=1), bc, bs, fmt, fmt)
    return got, mx.mx_reference_gemm(ac, as_, bc, bs, fmt, fmt), wrong


def test_compiles_to_the_scaled_mfma(compiled):
    fmt, asm = compiled
    code = FORMATS[fmt][2]
    mods = f" cbsz:{code} blgp:{code}" if code else ""
    line = next(x.strip() for x in asm.splitlines() if "v_mfma_scale" in x)
    assert line.endswith(f"op_sel_hi:[0,0,0]{mods}"), line


@pytest.mark.parametrize("seed,mode", [(0, "eager"), (1, "late"), (2, "random")])
def test_emulated_tile_equals_the_mx_reference(compiled, seed, mode):
    fmt, asm = compiled
    got, want, wrong = _run(asm, fmt, seed, mode)
    assert np.array_equal(got, want)
    assert not np.array_equal(got, wrong)
    assert np.count_nonzero(want) > 200          # the inputs exercise the whole tile
