"""pipeline_mlir/frontend/masked_stage.py: an LDS tile staged in private memory through a
mask of the K left (IREE's dynamic-K remainder loop), read from LDS with the mask kept.

Small loops in the two forms IREE writes (one masked ``vector.transfer_read`` of the whole
tile, written whole to the private buffer, read through a ``memref.expand_shape``; or one
``vector.maskedload`` per row, each stored to its row) are forwarded by
``forward_private_tiles(loop, masked=True)``: each read of the private buffer reads the
LDS tile and is selected by ``vector.create_mask(k - column)``; the private buffer is gone.
A mask this module does not take (one on the rows; a pass-through that is not a splat
constant) and a read whose elements are not consecutive columns leave the tile staged as
written; a write of the tile nested in an op between the staging and a read is refused at
that op.  IREE's own kernel, pipelined and run on the emulator, is in
``test/unit/tools/test_dynamic_k_iree.py``.
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.private_stage import forward_private_tiles

LDS = "#gpu.address_space<workgroup>"
PRIV = "#gpu.address_space<private>"
TILE = f"memref<4x8xbf16, {LDS}>"
VIEW = f"memref<4x?xbf16, strided<[8, 1]>, {LDS}>"
P = f"memref<4x8xbf16, {PRIV}>"


CONSTANTS = "\n".join(f"  %c{i} = arith.constant {i} : index" for i in range(5))


def _loop(staging: str, reads: str, between: str = "") -> str:
    """A function whose loop stages ``%lds`` (4x8) into ``%p`` by ``staging`` (the mask
    ``%m`` of ``%k`` columns at hand), runs ``between``, then ``reads`` (each result
    stored to ``%out``) and a barrier."""
    return f"""
func.func @f(%k: index, %n: index, %r: index, %j: index, %out: memref<4xbf16>,
             %o2: memref<1x1x4xbf16>, %o3: memref<1x2x4xbf16>) {{
{CONSTANTS}
  %pad = arith.constant 0.0 : bf16
  %zeros = arith.constant dense<0.0> : vector<8xbf16>
  %ramp = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xbf16>
  %lds = memref.alloc() : {TILE}
  %other = memref.alloc() : {TILE}
  %p = memref.alloca() : {P}
  scf.for %i = %c0 to %n step %c1 {{
    %view = memref.reinterpret_cast %lds to offset: [0], sizes: [4, %k], strides: [8, 1]
        : {TILE} to {VIEW}
    gpu.barrier
{staging}
{between}
{reads}
    gpu.barrier
  }}
  return
}}
"""


WHOLE = f"""
    %m = vector.create_mask %c4, %k : vector<4x8xi1>
    %t = vector.transfer_read %view[%c0, %c0], %pad, %m {{in_bounds = [true, true]}}
        : {VIEW}, vector<4x8xbf16>
    vector.transfer_write %t, %p[%c0, %c0] {{in_bounds = [true, true]}} : vector<4x8xbf16>, {P}
"""


def _rows(mask: str = "%m1", pass_: str = "%zeros") -> str:
    out = ["    %m1 = vector.create_mask %k : vector<8xi1>"]
    for i in range(4):
        out.append(f"    %row{i} = vector.maskedload %lds[%c{i}, %c0], {mask}, {pass_} : "
                   f"{TILE}, vector<8xi1>, vector<8xbf16> into vector<8xbf16>")
        out.append(f"    vector.store %row{i}, %p[%c{i}, %c0] : {P}, vector<8xbf16>")
    return "\n".join(out)


LOAD = f"""
    %f = vector.load %p[%r, %j] : {P}, vector<4xbf16>
    vector.store %f, %out[%c0] : memref<4xbf16>, vector<4xbf16>
"""
EXPANDED = f"""
    %e = memref.expand_shape %p [[0], [1, 2]] output_shape [4, 2, 4] : {P} into
        memref<4x2x4xbf16, {PRIV}>
    %f = vector.transfer_read %e[%r, %c1, %j], %pad {{in_bounds = [true, true, true]}}
        : memref<4x2x4xbf16, {PRIV}>, vector<1x1x4xbf16>
    vector.transfer_write %f, %o2[%c0, %c0, %c0] {{in_bounds = [true, true, true]}}
        : vector<1x1x4xbf16>, memref<1x1x4xbf16>
"""


def _forward(text: str, masked: bool = True) -> tuple[int, str, str]:
    """(tiles forwarded, the function after, the function before)."""
    with new_context(), ir.Location.unknown():
        m = ir.Module.parse(text)
        before = str(m)
        (loop,) = [o for o in m.body.operations[0].regions[0].blocks[0].operations
                   if o.operation.name == "scf.for"]
        n = forward_private_tiles(loop.operation, masked=masked)
        assert m.operation.verify()
        return n, str(m), before


@pytest.mark.parametrize("staging,reads,left", [
    (WHOLE, LOAD, "arith.subi %arg0, %arg3"),
    (_rows(), LOAD, "arith.subi %arg0, %arg3"),
    (WHOLE, EXPANDED, "arith.muli %c1, %c4"),   # column = 4 x the group's outer index + j
], ids=["whole tile, load", "row by row, load", "whole tile, expanded view"])
def test_masked_staging_is_read_from_lds_masked(staging, reads, left):
    n, out, _ = _forward(_loop(staging, reads))
    assert n == 1 and "private" not in out, out
    assert left in out and "vector.create_mask" in out and "arith.select" in out, out
    assert "vector.transfer_read %arg0" not in out and "maskedload" not in out


def test_unmasked_forwarding_leaves_masked_staging():
    n, out, before = _forward(_loop(WHOLE, LOAD), masked=False)
    assert n == 0 and out == before


@pytest.mark.parametrize("staging,reads", [
    (WHOLE.replace("create_mask %c4, %k", "create_mask %k, %c4"), LOAD),
    (_rows(pass_="%ramp"), LOAD),
    (WHOLE, EXPANDED.replace("1x1x4xbf16", "1x2x4xbf16").replace("%c1, %j]", "%c0, %j]")
     .replace("%o2", "%o3")),
], ids=["rows masked", "pass-through not a splat", "read across the group"])
def test_masks_it_does_not_take_leave_the_staging(staging, reads):
    text = _loop(staging, reads)
    n, out, before = _forward(text)
    assert n == 0 and out == before


BETWEEN_WRITE = """
    %w = arith.cmpi sgt, %k, %c0 : index
    scf.if %w {
      memref.store %pad, %BUF[%c0, %c0] : TILE
    }
"""


def test_a_nested_write_of_the_tile_between_is_refused_at_the_op():
    between = BETWEEN_WRITE.replace("TILE", TILE)
    n, out, _ = _forward(_loop(WHOLE, LOAD, between.replace("%BUF", "%other")))
    assert n == 1       # a write of another tile nested between: taken
    with pytest.raises(IRError) as e:
        _forward(_loop(WHOLE, LOAD, between.replace("%BUF", "%lds")))
    assert e.value.op.name == "memref.store"
    assert "writes the LDS tile that a private copy stages, between that copy and a read " \
           "of it" in str(e.value)
