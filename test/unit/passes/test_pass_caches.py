"""Every Python pass starts with every live cache of MLIR handles cleared.

A cache of values keyed by their handles (the per-lane evaluator) forgets what Python
rewrites erase as they erase it (``dialect/ir_changes.py``), and everything when a
``PassManager`` starts; but inside one pass manager a C++ pass (``canonicalize``, the
lowering to LLVM) erases ops unseen.  An evaluator kept alive past its own pass (in a
reference cycle, as an analysis and the proofs it holds are) then keeps keys of freed ops,
and the next Python pass that rewires a value tells it: IREE's f16 ``A^T x B^T`` 24x5x400
built twice in one process (its prefetch point, then its late form) crashed in
``sched-rocdl-to-llvm-intrinsics`` once the adoption had memoized facts named by ops on the
analysis' evaluator.  Each Python pass now tells every live cache to forget everything
before it runs (``ir_changes.forget_everything``).
"""

from __future__ import annotations

import pytest

from pipeline_mlir.dialect.ir_changes import forget_on_change
from pass_helpers import run


class _Cache:
    """A live cache that counts the times it is told to forget everything."""

    def __init__(self) -> None:
        self.all = 0

    def forget_all(self, _=None) -> None:
        self.all += 1

    def forget_ops(self, ops) -> None:
        pass

    def forget_uses(self, v) -> None:
        pass

    def forget_attributes(self, op) -> None:
        pass


# (a sched pass, the verifier, and a pass over the whole module: each kind's entry point)
@pytest.mark.parametrize("python_pass", ["sched-annotate", "sched-verify",
                                         "sched-rocdl-to-llvm-intrinsics"])
def test_a_python_pass_after_a_cpp_pass_starts_with_every_cache_cleared(python_pass):
    cache = _Cache()
    forget_on_change(cache)
    run("module {\n}\n", "canonicalize")
    assert cache.all == 1               # (the pass manager's start alone: no Python pass)
    run("module {\n}\n", "canonicalize", python_pass)
    assert cache.all == 3, python_pass  # (its start, and the Python pass's after the C++ one)
