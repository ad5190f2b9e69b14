"""Loop counters' steps (``BranchFacts.stride`` in ``pipeline_mlir/analysis/int_branches.py``):
the bounds a guard gives a counter are rounded to the values the counter really takes.

Each case is a small loop in the LLVM dialect; its counter's range in the loop body (what
``sched-buffer-soffset`` bounds a K column with) is compared with the values the loop
really gives the counter, run in Python: the range must contain every one of them (sound)
and, where the step is proven, be exactly their hull (tight: ``lb + step * floor((ub - 1 -
lb) / step)`` at the top, not ``ub - 1``).
"""

from __future__ import annotations

import math

import pytest

from pipeline_mlir.analysis.int_forms import IndexForms
from pipeline_mlir.analysis.uniformity import Uniformity
from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.passes._common import collect_ops

#: a while loop: ``k = lb; while k < ub: use(k); k = k + step`` (``step2``: the step of a
#: second back edge, taken when ``k`` is odd, as a different path through the body)
_LOOP = """
llvm.func @f(%x: i64) attributes {{rocdl.kernel, gpu.known_block_size = array<i32: 64, 1, 1>}} {{
  %lb = llvm.mlir.constant({lb} : i64) : i64
  %ub = llvm.mlir.constant({ub} : i64) : i64
  %s = llvm.mlir.constant({step} : i64) : i64
  %s2 = llvm.mlir.constant({step2} : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^head(%lb : i64)
^head(%k: i64):
  %more = llvm.icmp "slt" %k, %ub : i64
  llvm.cond_br %more, ^body, ^done
^body:
  %use = llvm.add %k, %zero : i64
  %odd = llvm.and %k, %one : i64
  %is_odd = llvm.icmp "ne" %odd, %zero : i64
  %next = llvm.add %k, %s : i64
  %next2 = llvm.add %k, %s2 : i64
  llvm.cond_br %is_odd, ^head(%next2 : i64), ^head(%next : i64)
^done:
  llvm.return
}}
"""


def _body_ranges(texts: list[str]) -> list:
    """The range of ``%use`` (the counter, in the body) of each loop, after the analysis
    (one context for all: the cases cost a parse each)."""
    out = []
    with new_context():
        for text in texts:
            module = ir.Module.parse(text)
            (func,) = collect_ops(module.operation, lambda o: o.name == "llvm.func")
            fn = Uniformity(func, True, (64, 1, 1))
            fn.analyse()
            index = IndexForms(fn)
            index.solve()
            use = collect_ops(func, lambda o: o.name == "llvm.add")[0]     # %use
            out.append(index.range(index.form(use.result), index.op_ctx(use)))
    return out


def _taken(lb: int, ub: int, step: int, step2: int) -> list[int]:
    k, seen = lb, []
    while k < ub:
        seen.append(k)
        k += step2 if k % 2 else step
    return seen


#: (lb, ub, step, step2)
CASES = [
    (4, 128, 4, 4),          # IREE's flagship: 4, 8, ..., 124 (the guard alone: 127)
    (0, 7700, 64, 64),       # the last step ends short of the bound: 7680, not 7699
    (16, 7700, 64, 64),      # a base off the step's multiples: 7696 (not 7680)
    (3, 100, 6, 6),          # odd values only (the odd edge): 3, 9, ..., 99
    (0, 100, 6, 4),          # two steps: the class of their gcd (2), never odd
    (1, 50, 6, 4),           # odd base, taken edges alternate: the gcd is 2, 49
    (0, 64, 64, 64),         # one iteration
]
#: a step that is not constant (``k + x``, an argument): no class, the guard's bound
NO_CLASS = _LOOP.format(lb=0, ub=100, step=4, step2=4).replace(
    "%next = llvm.add %k, %s", "%next = llvm.add %k, %x")

#: two ways into the loop, from 0 and from 6, both by 4 below 128: the class is their
#: difference's gcd with the step (2), so 126 is taken (the first base's class alone: 124)
TWO_BASES = _LOOP.format(lb=0, ub=128, step=4, step2=4).replace(
    "  llvm.br ^head(%lb : i64)",
    "  %six = llvm.mlir.constant(6 : i64) : i64\n"
    "  %neg = llvm.icmp \"slt\" %x, %zero : i64\n"
    "  llvm.cond_br %neg, ^head(%lb : i64), ^head(%six : i64)")
#: the odd edge passes ``2*k + 4``: from 1, then 6, 10, ..., 98; the counter's own
#: coefficient is not 1, so its steps prove no class (taken for ``k + 4``: 1 mod 4, 97)
DOUBLED = _LOOP.format(lb=1, ub=100, step=4, step2=4).replace(
    "%next2 = llvm.add %k, %s2 : i64",
    "%dbl = llvm.add %k, %k : i64\n  %next2 = llvm.add %dbl, %s2 : i64")
#: (text, the values the counter takes, the top of its range in the body)
OTHER = [(TWO_BASES, set(range(0, 128, 4)) | set(range(6, 128, 4)), 126),
         (DOUBLED, {1} | set(range(6, 100, 4)), 99)]


@pytest.fixture(scope="module")
def ranges() -> list:
    return _body_ranges([_LOOP.format(lb=lb, ub=ub, step=step, step2=step2)
                         for lb, ub, step, step2 in CASES] + [t for t, _, _ in OTHER]
                        + [NO_CLASS])


@pytest.mark.parametrize("case", range(len(CASES)), ids=[str(c) for c in CASES])
def test_the_counter_is_bounded_by_the_values_it_takes(ranges, case):
    lb, ub, step, step2 = CASES[case]
    got = ranges[case]
    taken = _taken(lb, ub, step, step2)
    assert got[0] <= min(taken) and max(taken) <= got[1], (got, taken)
    # tight at the top: the greatest value of the counter's class below the bound
    m = math.gcd(step, step2)
    assert got[1] == lb + m * ((ub - 1 - lb) // m), (got, taken)


def test_a_step_that_is_not_constant_gives_no_class(ranges):
    """``k + x`` (an argument) as the step: the guard's bound stays ``ub - 1``."""
    assert ranges[-1][1] == 99


@pytest.mark.parametrize("case", range(len(OTHER)), ids=["two_bases", "doubled"])
def test_a_class_holds_on_every_edge(ranges, case):
    """Every edge into the counter's block counts: two bases (their difference), and an
    edge that scales the counter (no class)."""
    _, taken, top = OTHER[case]
    got = ranges[len(CASES) + case]
    assert got[0] <= min(taken) and max(taken) <= got[1] == top, (got, sorted(taken))
