"""Natural loops of a control-flow graph, and the main K-loop among them.

One reading of "the loop" for everything that looks at a kernel's code: the assembly
reader (:meth:`pipeline_mlir.isa.asm.AsmFunction.loops` and ``main_loop``, on blocks of
assembly text) and the tests' steady-loop counter (``test/unit/steady_loop.py``, on the
instructions of a code object) both call it, so the two cannot disagree.

A graph is given as per block (0 is the entry) the blocks it may go to.

* A block's dominators are the blocks every path from the entry to it passes; a block the
  entry does not reach has none.
* A back edge is an edge ``t -> h`` whose target ``h`` dominates ``t``.  A branch backwards
  in layout is not one by itself: LLVM lays blocks out of line that branch back to a join
  point inside a loop (IREE's padded kernels of K % 32 != 0), and such a span of layout is
  no loop.
* The loop of a header ``h`` is ``h`` and every reached block that reaches one of its back
  edges' sources without passing ``h`` (back edges to one header make one loop).
* The main loop (:func:`main_loop`): of the loops holding MFMAs that hold no other
  such loop (a persistent-tile loop around the K-loop is not one), the one holding the most;
  on a tie the smaller, then the one whose first block comes first.
* The blocks a set of branches decides (:func:`decided`): whether a block runs, or how many
  times, depends on a branch when the block post-dominates one of the branch's targets
  but not the branch itself (control dependence: a loop's body depends on the branch that
  leaves it); and on whatever decides whether that branch runs.

No MLIR, no networkx: plain sets on block numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Loop", "dominators", "natural_loops", "main_loop", "decided"]


@dataclass(frozen=True)
class Loop:
    """A natural loop: its header, its blocks (the header among them) and the sources of its
    back edges (its latches), in block order."""

    header: int
    blocks: frozenset
    latches: tuple


def _reached(succs: list[list[int]]) -> set[int]:
    reached, todo = {0}, [0]
    while todo:
        for c in succs[todo.pop()]:
            if c not in reached:
                reached.add(c)
                todo.append(c)
    return reached


def dominators(succs: list[list[int]]) -> tuple[list[set[int]], list[list[int]]]:
    """Per block its dominators (itself among them; none for a block not reached from the
    entry), and per block its predecessors among the reached blocks."""
    if not succs:
        return [], []
    reached = _reached(succs)
    preds: list[list[int]] = [[] for _ in succs]
    for b in sorted(reached):
        for c in succs[b]:
            preds[c].append(b)
    dom = [set(reached) if b in reached else set() for b in range(len(succs))]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for b in sorted(reached - {0}):
            new = set.intersection(*(dom[p] for p in preds[b])) | {b}
            if new != dom[b]:
                dom[b], changed = new, True
    return dom, preds


def natural_loops(succs: list[list[int]]) -> list[Loop]:
    """The natural loops of the graph (module docstring), innermost first: fewer blocks
    first, then by their first block."""
    dom, preds = dominators(succs)
    latches: dict[int, list[int]] = {}
    for t, out in enumerate(succs):
        for h in out:
            if h in dom[t]:
                latches.setdefault(h, []).append(t)
    loops = []
    for head, tails in latches.items():
        body, todo = {head}, [t for t in tails if t != head]
        body.update(todo)
        while todo:
            for p in preds[todo.pop()]:
                if p not in body:
                    body.add(p)
                    todo.append(p)
        loops.append(Loop(head, frozenset(body), tuple(sorted(set(tails)))))
    loops.sort(key=lambda lp: (len(lp.blocks), min(lp.blocks)))
    return loops


def main_loop(loops: list[Loop], mfmas: list[int]) -> Loop | None:
    """The main loop of ``loops`` (:func:`natural_loops`), ``mfmas`` the MFMA instructions of
    each block; None when no loop holds one."""
    held = {lp.header: sum(mfmas[b] for b in lp.blocks) for lp in loops}
    cands = [lp for lp in loops if held[lp.header]]
    inner = [lp for lp in cands if not any(o.blocks < lp.blocks for o in cands)]
    if not inner:
        return None
    return max(inner, key=lambda lp: held[lp.header])


def decided(succs: list[list[int]], branches) -> set[int] | None:
    """The reached blocks whose running, or how many times, depends on the branches ending
    the blocks ``branches`` (module docstring), those blocks' own among them where they
    decide themselves (a loop's latch); None when a reached block reaches no end of the
    graph (no post-dominators to read)."""
    n = len(succs)
    dom, preds = dominators(succs)
    reached = [b for b in range(n) if dom[b]]
    ends = [b for b in reached if not succs[b]]
    # post-dominators: the dominators of the reversed graph, from a node 0 before every end
    rev = [[e + 1 for e in ends]] + [[p + 1 for p in preds[b]] for b in range(n)]
    pdom_rev, _ = dominators(rev)
    if any(not pdom_rev[b + 1] for b in reached):
        return None
    pdom = [{x - 1 for x in pdom_rev[b + 1] if x} for b in range(n)]
    out: set[int] = set()
    todo = [b for b in branches if dom[b]]
    seen = set(todo)
    while todo:
        b = todo.pop()
        for s in succs[b]:
            for x in pdom[s] - (pdom[b] - {b}):
                if x not in out:
                    out.add(x)
                    if x not in seen and len(succs[x]) > 1:
                        seen.add(x)
                        todo.append(x)
    return out
