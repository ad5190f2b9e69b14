"""Counters in step (``BranchFacts.in_step`` in ``pipeline_mlir/analysis/int_branches.py``):
an ``i64`` index counted beside the loop's tested ``i32`` counter is bounded by that test.

The pipelined loops count their trips in ``i32`` and keep the K index the copies address
with in ``i64``; only the first has a test.  Each case is a small loop in the LLVM dialect
whose body uses the untested counter; its range there is compared with the values the loop
really gives it, run in Python: it must contain every one of them (sound), and be their hull
where the two counters are proven in step (tight).  Where they are not (another step, an
entry at another distance, a back edge that resets one), the range must stay the wide one
the untested counter's own branches give.
"""

from __future__ import annotations

import pytest

from test_int_strides import _body_ranges

#: ``i = lb; k = lb + d; while i < ub: use(k); i += step; k += kstep`` (``kstep2``: k's
#: step on a second back edge, taken when ``i`` is odd; ``d2``: k's distance on a second
#: entry, taken when the argument is negative)
_LOOP = """
llvm.func @f(%x: i64) attributes {{rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>}} {{
  %lb = llvm.mlir.constant({lb} : i32) : i32
  %ub = llvm.mlir.constant({ub} : i32) : i32
  %s = llvm.mlir.constant({step} : i32) : i32
  %k0 = llvm.mlir.constant({k0} : i64) : i64
  %k1 = llvm.mlir.constant({k1} : i64) : i64
  %ks = llvm.mlir.constant({kstep} : i64) : i64
  %ks2 = llvm.mlir.constant({kstep2} : i64) : i64
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %zero64 = llvm.mlir.constant(0 : i64) : i64
  %neg = llvm.icmp "slt" %x, %zero64 : i64
  llvm.cond_br %neg, ^head(%lb, %k1 : i32, i64), ^head(%lb, %k0 : i32, i64)
^head(%i: i32, %k: i64):
  %more = llvm.icmp "slt" %i, %ub : i32
  llvm.cond_br %more, ^body, ^done
^body:
  %use = llvm.add %k, %zero64 : i64
  %odd = llvm.and %i, %one : i32
  %is_odd = llvm.icmp "ne" %odd, %zero : i32
  %next = llvm.add %i, %s : i32
  %knext = llvm.add %k, %ks : i64
  %knext2 = llvm.add %k, %ks2 : i64
  llvm.cond_br %is_odd, ^head(%next, %knext2 : i32, i64), ^head(%next, %knext : i32, i64)
^done:
  llvm.return
}}
"""


def _source(lb, ub, step, d, kstep, d2=None, kstep2=None) -> str:
    return _LOOP.format(lb=lb, ub=ub, step=step, k0=lb + d, k1=lb + (d if d2 is None else d2),
                        kstep=kstep, kstep2=kstep if kstep2 is None else kstep2)


def _taken(lb, ub, step, d, kstep, d2=None, kstep2=None) -> list[int]:
    """The values ``k`` takes in the body, from either entry."""
    seen = []
    for dist in {d, d if d2 is None else d2}:
        i, k = lb, lb + dist
        while i < ub:
            seen.append(k)
            k += kstep if i % 2 == 0 or kstep2 is None else kstep2
            i += step
    return seen


#: (lb, ub, step, d, kstep): in step, k = i + d
IN_STEP = [
    (4, 128, 4, 0, 4),         # the 8-wave kernels' loop: both from 4 by 4, i < 128
    (4, 128, 4, -2, 4),        # the index two steps behind: 2 .. 122
    (0, 7700, 64, 64, 64),     # a step ahead, the last step short of the bound
    (0, 64, 64, 5, 64),        # one iteration
]
#: (case, why): not in step, the untested counter keeps its own wide range
NOT_IN_STEP = [
    ((4, 128, 4, 0, 8), "another step"),
    ((4, 128, 4, 0, 4, 3), "a second entry at another distance"),
    ((4, 128, 4, 0, 4, None, 8), "a second back edge with another step"),
]


@pytest.fixture(scope="module")
def ranges() -> list:
    return _body_ranges([_source(*c) for c in IN_STEP + [c for c, _ in NOT_IN_STEP]])


@pytest.mark.parametrize("case", range(len(IN_STEP)), ids=[str(c) for c in IN_STEP])
def test_an_index_in_step_with_the_tested_counter_takes_its_bounds(ranges, case):
    taken = _taken(*IN_STEP[case])
    assert ranges[case] == (min(taken), max(taken)), (ranges[case], taken)


@pytest.mark.parametrize("case", range(len(NOT_IN_STEP)),
                         ids=[why for _, why in NOT_IN_STEP])
def test_an_index_not_in_step_is_left_unbounded_above(ranges, case):
    got, taken = ranges[len(IN_STEP) + case], _taken(*NOT_IN_STEP[case][0])
    assert got[0] <= min(taken) and max(taken) <= got[1], (got, taken)
    assert got[1] >= 1 << 62, got
