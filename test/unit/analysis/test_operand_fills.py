"""Which bytes of which MFMA operand each fragment read fills, of which MFMA
(``pipeline_mlir/analysis/operand_fills.py``): followed through shuffles, bitcasts and the
loop's carried values on a small loop, and on the shipped 4-wave FP8 kernel's plan."""

from __future__ import annotations

from kernel_builds import build
from pipeline_mlir.analysis.operand_fills import operand_feeds
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import as_operation

#: two 16-byte reads of a loop, the second the operand's first half, A through an i32 bitcast and back; B read at the end of the
#: body and carried to the next iteration's MFMA; a third read feeding only an add
LOOP = """
func.func @k(%lds: memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>,
             %b0: vector<32xf8E4M3FN>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z, %b = %b0)
      -> (vector<4xf32>, vector<32xf8E4M3FN>) {
    %x = vector.load %lds[%c0] : memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
    %y = vector.load %lds[%c16] : memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
    %a = vector.shuffle %y, %x [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf8E4M3FN>, vector<16xf8E4M3FN>
    %w = vector.bitcast %a : vector<32xf8E4M3FN> to vector<8xi32>
    %a2 = vector.bitcast %w : vector<8xi32> to vector<32xf8E4M3FN>
    %m = amdgpu.mfma 16x16x128 %a2 * %b + %acc : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<4xf32>
    %nb = vector.load %lds[%c16] : memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, vector<32xf8E4M3FN>
    %u = vector.load %lds[%c0] : memref<4096xf8E4M3FN, #gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
    %uw = vector.bitcast %u : vector<16xf8E4M3FN> to vector<4xf32>
    %s = arith.addf %m, %uw : vector<4xf32>
    scf.yield %s, %nb : vector<4xf32>, vector<32xf8E4M3FN>
  }
  return %r#0 : vector<4xf32>
}
"""


def _loop_fills() -> list:
    with new_context():
        module = ir.Module.parse(LOOP)
        found = []

        def visit(op):
            if as_operation(op).name == "scf.for":
                found.append(as_operation(op))
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        loop = found[0]
        loads = [as_operation(o) for o in loop.regions[0].blocks[0].operations
                 if as_operation(o).name == "vector.load"]
        return operand_feeds(loop, loads)


def test_each_read_fills_the_operand_bytes_the_ir_gives_it():
    """``%y`` is A's bytes 0..15 and ``%x`` its bytes 16..31 (the shuffle's order, through
    the bitcasts); the 32-byte read at the end of the body is B whole, through the
    carried value; the read no MFMA takes fills nothing.  Each is of the one MFMA, of
    carried accumulator 0 (``%acc``), first and only in its chain, untagged."""
    x, y, nb, unused = _loop_fills()
    assert x == {("A", tuple(range(16, 32)), 0, 0, 1, -1)}
    assert y == {("A", tuple(range(16)), 0, 0, 1, -1)}
    assert nb == {("B", tuple(range(32)), 0, 0, 1, -1)}
    assert unused == frozenset()


def test_the_fp8_kernels_parts_fill_the_operand_in_order():
    """The shipped 4-wave FP8 64x64 kernel concatenates each fragment's two parts in
    order: part ``p`` fills bytes ``16p..16p+15`` of A (channel 0) or B (channel 1).  Each
    read feeds the MFMAs of its tagged MMA: a chain of two MFMAs per accumulator (the two
    MMAs of a loop iteration), four accumulators, each read's fragment two of them (its
    row's or column's), at the place of the chain its stage's MMA is."""
    reads = build("4wave-fp8-64").plan.reads
    assert len(reads) == 16
    for e in reads:
        assert e.fills == {("AB"[e.channel], tuple(range(16 * e.part, 16 * e.part + 16)))}, e
        assert {(f.operand, f.mapping) for f in e.feeds} == e.fills
        assert len(e.feeds) == 2 and {f.length for f in e.feeds} == {2}
        assert len({f.acc for f in e.feeds}) == 2 and len({f.pos for f in e.feeds}) == 1
    accs = {f.acc for e in reads for f in e.feeds}
    assert len(accs) == 4 and None not in accs
