"""``frontend/adopt.even_trips_proven``: a run-time trip count shown even (and at least
``2 * least``) by the upper bound's arithmetic, seen through index casts and integer
extensions (``analysis/ir_facts.through_casts``)."""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.frontend.adopt import even_trips_proven

_LOOP = """
func.func @f(%n: i32, %m: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64i = arith.constant 64 : i32
  %c3i = arith.constant 3 : i32
  %c3 = arith.constant 3 : index
  {defs}
  scf.for %i = %c0 to %ub step %c32 {{
  }}
  return
}}
"""


def _proven(defs: str, least: int = 1) -> bool:
    with new_context(), ir.Location.unknown():
        module = ir.Module.parse(_LOOP.format(defs=defs))
        ops = module.body.operations[0].regions[0].blocks[0].operations
        loop = [o for o in ops if o.name == "scf.for"][0]
        return even_trips_proven(loop, least)


@pytest.mark.parametrize("defs, least, proven", [
    # 64 * max(n, 3): a multiple of two steps, at least 3 pairs of steps
    ("%x = arith.maxsi %n, %c3i : i32\n  %p = arith.muli %x, %c64i : i32\n"
     "  %ub = arith.index_cast %p : i32 to index", 3, True),
    ("%x = arith.maxsi %n, %c3i : i32\n  %p = arith.muli %x, %c64i : i32\n"
     "  %ub = arith.index_cast %p : i32 to index", 4, False),
    ("%x = arith.extui %n : i32 to i64\n  %y = arith.index_castui %x : i64 to index\n"
     "  %z = arith.maxui %y, %c1 : index\n  %c64x = arith.constant 64 : index\n"
     "  %ub = arith.muli %z, %c64x : index", 1, True),
    # through a sign extension too
    ("%x = arith.maxsi %n, %c3i : i32\n  %p = arith.muli %x, %c64i : i32\n"
     "  %q = arith.extsi %p : i32 to i64\n  %ub = arith.index_cast %q : i64 to index", 1, True),
    # one step, not two; an unknown factor
    ("%ub = arith.muli %m, %c32 : index", 1, False),
    ("%c64x = arith.constant 64 : index\n  %ub = arith.muli %m, %c64x : index", 1, False),
])
def test_even_trips_proven(defs, least, proven):
    assert _proven(defs, least) is proven
