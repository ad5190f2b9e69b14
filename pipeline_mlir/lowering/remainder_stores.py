"""The remainder's LDS stores placed before a straight pair's last MMA block.

A pipelined loop of no trip (:mod:`~pipeline_mlir.lowering.straight_pair`) runs its
epilogue as straight code, and the remainder loop after it (IREE's bf16 batch 2 x
267x969x192: the third K tile) stores the registers its loads ahead filled
(:mod:`~pipeline_mlir.frontend.remainder_ahead`) only after the pair's last MFMA, behind its
barrier.  When the remainder runs exactly one iteration and its buffers are its own, those
stores (its first iteration's, of the loop's initial values) go instead right after the
epilogue's last wait, before its last MMA block, so they complete under the MFMAs; the
remainder keeps its barriers, and the first one (a ``gpu.barrier``, whose fence LLVM makes
a wait for every LDS access) hands the stores to every wave before its reads.

Why it holds, each checked here (else the stores stay where they are):

* the loop runs one iteration (constant bounds), so its stores are that iteration's, of
  the values the loop starts with, and nothing in its body waits for a memory counter;
* the body writes LDS only by those stores (a store left in the body would keep the
  remainder's first barrier waiting as before: IREE's f16 ``A^T x B^T`` 300x200x192 at its
  prefetch point, whose B stores a reshaped register, was 6-9 cycles slower per K tile
  with A's stores moved);
* every buffer they write is a ``memref.alloc`` in LDS that only ops inside the remainder
  read or write (through views), and in the body no access to it comes before the
  stores: nothing before the remainder touches it, in any wave, so moving its stores
  above the barriers before them orders nothing differently;
* no loop in the kernel around the remainder runs it again (a store moved above the
  remainder's first barrier could meet another wave's read of the previous run);
* no counted wait comes after the new place in the epilogue (every wait the project
  derived counts what it counted before); the stored registers' own wait is LLVM's.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import (constant_trips, descendants, encloses,
                                              enclosing_ops)
from pipeline_mlir.analysis.views import view_root, view_users
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation
from pipeline_mlir.frontend.kernel_ir import effects, in_lds, is_pure
from pipeline_mlir.frontend.marks import LOADS_AHEAD_ATTR, REMAINDER_ATTR
from pipeline_mlir.frontend.remainder_ahead import LOOPS, WAITS, pure_slice

__all__ = ["STORES", "remainder_after", "stores_before_last_mma"]

#: the ops that store registers to LDS in a remainder's body
STORES = ("vector.transfer_write", "vector.store")

def _ops(block) -> list:
    return [as_operation(o) for o in block.operations]


def remainder_after(loop):
    """The remainder loop whose loads are issued ahead right after ``loop`` in its block
    (past side-effect free ops), or None."""
    ops = _ops(loop.block)
    for o in ops[ops.index(loop) + 1:]:
        if o.name == "scf.for":
            marked = REMAINDER_ATTR in o.attributes and LOADS_AHEAD_ATTR in o.attributes
            return o if marked else None
        if not is_pure(o):
            return None
    return None


def _body(loop):
    return loop.regions[0].blocks[0]


def _stores(loop) -> list | str:
    """The body's stores of its carried values to LDS, or why there are none to move."""
    body = _body(loop)
    carried = list(body.arguments)[1:]
    ops = _ops(body)
    stores = [o for o in ops if o.name in STORES and o.operands[0] in carried
              and in_lds(o.operands[1])]
    if not stores:
        return "its body stores no carried value to LDS"
    if any(o.name in WAITS for o in ops):
        return "its body waits for a memory counter"
    if any(_writes_lds(o) for t in ops if t not in stores for o in [t, *descendants(t)]):
        return "its body writes LDS other than by storing a carried value"
    for s in stores:
        for v in list(s.operands)[1:]:
            if isinstance(v.owner, ir.Block) and v.owner == body:
                return "a store's address depends on the loop"
            if not isinstance(v.owner, ir.Block) and encloses(loop, as_operation(v.owner)):
                return "a store's address depends on the loop"
    return stores


def _writes_lds(op) -> bool:
    """Whether ``op`` may write LDS (an op that does not describe its effects may)."""
    if op.name in ("gpu.barrier", "scf.yield"):
        return False
    e = effects(op)
    if e is None:
        return not len(op.regions)     # (the ops nested in it are looked at themselves)
    return any(k == "write" and (v is None or in_lds(v)) for k, v in e)


def _owned_before(stores: list, loop) -> str | None:
    """Why the buffers ``stores`` write are not the remainder's own, untouched in its body
    before the stores, or None."""
    body_ops = _ops(_body(loop))
    last = max(body_ops.index(s) for s in stores)
    for s in stores:
        root = view_root(s.operands[1])
        if isinstance(root, ir.BlockArgument) or \
                as_operation(root.owner).name != "memref.alloc" or not in_lds(root):
            return "a store writes LDS that is not an allocation of the kernel's"
        for o, _ in view_users(root):
            if o != loop and not encloses(loop, o):
                return "a buffer it stores to is used outside the remainder"
            top = next(t for t in body_ops if t == o or encloses(t, o))
            if top not in stores and body_ops.index(top) < last:
                return "its body accesses a buffer it stores to before the stores"
    return None


def _anchor(loop) -> tuple | str:
    """(the op after which the stores go: the last fence after the epilogue's last wait,
    the ops of the block from there to ``loop``), or why there is no such place."""
    ops = _ops(loop.block)
    before = ops[:ops.index(loop)]
    mfmas = [k for k, o in enumerate(before) if o.name == "amdgpu.mfma"]
    if not mfmas:
        return "no MFMA before the remainder"
    waits = [k for k, o in enumerate(before[:mfmas[-1]]) if o.name in WAITS]
    if not waits:
        return "no wait before the last MFMA"
    k = waits[-1]
    if before[k + 1].name == "rocdl.sched.barrier":
        k += 1
    return before[k], before[k + 1:]


def _slice(stores: list, inits: dict, after: list) -> list | str:
    """The side-effect free ops of ``after`` that the stores' operands need, in block
    order, or why the stores cannot go before them."""
    got = pure_slice([v for s in stores for v in list(s.operands)[1:]] +
                     list(inits.values()), after)
    if not isinstance(got, list):
        return "a store needs an op after the epilogue's last wait that has side effects"
    return got


def why_not(loop) -> tuple | str:
    """(stores, anchor, ops to move) for :func:`stores_before_last_mma`, or why not."""
    if constant_trips(loop) != 1:
        return "it does not run exactly one iteration"
    if any(o.name in LOOPS for o in enclosing_ops(loop)):
        return "a loop around it may run it again"
    stores = _stores(loop)
    if isinstance(stores, str):
        return stores
    why = _owned_before(stores, loop)
    if why is not None:
        return why
    got = _anchor(loop)
    if isinstance(got, str):
        return got
    anchor, after = got
    if any(o.name in WAITS for o in after):
        return "a wait after the epilogue's last MMA block would count the stores"
    inits = _inits(loop, stores)
    moved = _slice(stores, inits, after)
    return moved if isinstance(moved, str) else (stores, anchor, moved, inits)


def _inits(loop, stores: list) -> dict:
    """{carried block argument: the loop's initial value of it} for the stored values."""
    args = list(_body(loop).arguments)
    inits = list(loop.operands)[3:]
    return {s.operands[0]: inits[args.index(s.operands[0]) - 1] for s in stores}


def stores_before_last_mma(loop) -> str | None:
    """Move the first iteration's LDS stores of the remainder ``loop`` (one iteration,
    buffers of its own: the module docstring) to before the last MMA block of the
    straight code before it; None when moved, else why they stay."""
    got = why_not(loop)
    if isinstance(got, str):
        return got
    stores, anchor, moved, inits = got
    at = anchor
    for o in moved:
        o.move_after(at)
        at = o
    for s in stores:
        s.move_after(at)
        s.operands[0] = inits[s.operands[0]]
        at = s
    return None
