"""The streams of a function's LDS traffic (``pipeline_mlir/analysis/lds_order.py``): one per
combination of the branches of its workgroup-uniform ``scf.if`` ops, and a function of more
than ``MAX_PATHS`` of them not modelled.  ``staged_hazards`` counts a function's streams from
its structure before walking them (``_Stream.count``): the count must be the walk's, or a
function it could check would be skipped (a count too high) or walked in vain (too low).
A stream that parts from an earlier one at a branch resumes from the earlier one's state
there: it must be the stream walked from the start."""

from __future__ import annotations

import pytest

from pipeline_mlir.analysis import lds_order as LO
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import walk_ops

STORE = ("vector.store %v, %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, "
         "vector<8xbf16>")
FENCED = f"""{STORE}
      rocdl.s.waitcnt 49279
      rocdl.s.barrier"""

#: a staged store in each branch of a uniform scf.if (2 streams) and one behind a nested
#: scf.if with no else (the outer then: 2, its else: 1; 3 streams), in a loop of 2 trips:
#: (2 x 3)^2 = 36 streams; OUTSIDE more ifs of 2 branches after it.  The nested store has
#: no barrier before the read at the end: a hazard on the paths that take it last
KERNEL = f"""
func.func @f(%src: memref<64x64xbf16>, %lds: memref<2048xbf16, #gpu.address_space<workgroup>>, %i: index, %c: i1, %d: i1) -> vector<8xbf16> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = vector.load %src[%i, %i] : memref<64x64xbf16>, vector<8xbf16>
  scf.for %k = %c0 to %c2 step %c1 {{
    scf.if %c {{
      {FENCED}
    }} else {{
      {FENCED}
    }}
    scf.if %d {{
      scf.if %c {{
        {STORE}
      }}
    }}
  }}
  OUTSIDE
  %f = vector.load %lds[%i] : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
  return %f : vector<8xbf16>
}}
"""
IF = f"""scf.if %c {{
    {FENCED}
  }} else {{
    {FENCED}
  }}"""


@pytest.mark.parametrize("outside, streams", [(0, 36), (1, 72)])
def test_the_streams_counted_from_the_structure_are_the_walks(outside, streams):
    with new_context() as ctx:
        module = ir.Module.parse(KERNEL.replace("OUTSIDE", "\n  ".join([IF] * outside)), ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        counted = LO._Stream().count(f.regions[0].blocks[0], 1000)
        assert counted == streams
        capped = LO._Stream().count(f.regions[0].blocks[0], LO.MAX_PATHS)
        walked = LO.lds_paths(f)
        hazards = LO.staged_hazards(module.operation)
    if streams <= LO.MAX_PATHS:
        assert capped == streams and len(walked) == streams, walked
        # each stream taking an else branch resumes from the state of the one before it
        # where they part: the same events, ops and taint as its own walk from the start
        for s in walked:
            alone = LO._Stream([then for _op, then in s.branches])
            assert alone.block(f.regions[0].blocks[0]) is None
            assert (s.events, s.ops, s.taint, s.branches) == \
                (alone.events, alone.ops, alone.taint, alone.branches)
        # the nested store read with no barrier: found (on the paths that take it)
        assert any("'vector.load' op" in m and "incomplete in another wave" in m
                   for _op, m in hazards), hazards
    else:
        assert capped == LO.MAX_PATHS + 1
        assert isinstance(walked, str) and f"more than {LO.MAX_PATHS} streams" in walked
        assert hazards == []          # not modelled: skipped, as the walk would


#: a global load carried into the next iteration through the loop's iter_args and used
#: there through a pure op; index arithmetic on the function's arguments beside it
CARRIED = """
func.func @f(%src: memref<64xbf16>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v0 = vector.load %src[%i] : memref<64xbf16>, vector<8xbf16>
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%v = %v0) -> (vector<8xbf16>) {
    %w = vector.bitcast %v : vector<8xbf16> to vector<4xi32>
    %a = math.absi %w : vector<4xi32>
    %j = arith.addi %i, %k : index
    %n = vector.load %src[%j] : memref<64xbf16>, vector<8xbf16>
    scf.yield %n : vector<8xbf16>
  }
  return
}
"""


def test_what_an_iter_arg_carries_reaches_its_users_through_pure_ops():
    """The walk leaves out the ops whose operands can never carry a load or read
    (``_Facts.may_carry``): a loop's iter_arg can, and so can what is computed from it;
    the function's arguments and the index arithmetic on them cannot."""
    with new_context() as ctx:
        module = ir.Module.parse(CARRIED, ctx)
        (f,) = walk_ops(module.operation, lambda o: o.name == "func.func")
        (s,) = LO.lds_paths(f)
        ops = [o.name for o in s.ops]
    assert [(e.kind, e.needs) for e in s.events] == [
        ("load", ()), ("use", (0,)), ("load", ()), ("use", (2,)), ("load", ())], s.events
    assert ops == ["vector.load", "math.absi", "vector.load", "math.absi", "vector.load"]
