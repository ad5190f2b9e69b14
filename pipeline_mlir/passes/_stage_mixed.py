"""The ``vmcnt`` waits of a K-loop whose register-staged loads go an iteration ahead while
other copies stay direct-to-LDS (DMA) copies.

A helper of :mod:`pipeline_mlir.passes._stage_ahead`.  The schedule derived the loop's
``s_waitcnt vmcnt(k)`` ops as if every copy were a DMA: at a wait, every VMEM operation
but the ``k`` issued last has completed (``vmcnt`` completes in order).  Staged ahead, a
marked copy is still one VMEM operation at the copy's slot (the load of the next
iteration's elements), and the loads of the first iteration are issued just before the
loop, after every copy there; but a staged copy's LDS write no longer needs any ``vmcnt``
wait (its store waits for its load through the register, and is complete before the next
wait or barrier).  So each wait is re-derived from the stream of VMEM operations: the
copies of the loop's block before the loop, then the body's copies iteration after
iteration; in every iteration the loop may run (up to the point where a wait's window no
longer reaches the prologue, after which iterations repeat), the DMA copies the schedule's
``vmcnt(k)`` required complete are found in the stream; the youngest of them, ``D``, fixes
the new count: the DMA copies issued after ``D``, the least over the iterations.  A wait
that required no DMA copy loses its ``vmcnt``.  The waits after the loop in its block (the
epilogue's) are re-derived the same way, from the stream of the last iterations and the
copies after the loop.

The staged loads are not counted, although each is a VMEM operation that ``vmcnt`` counts
when it is issued: they are plain loads, which LLVM may delete, merge or move where
nothing orders them, and a count that relied on them would then leave ``D`` in flight.
The last iteration's loads (of an iteration that does not come) are used nowhere after the
loop: when LLVM removes a loop of one trip (``vdi8ab``, IREE's VectorDistribute i8
``A x B`` with B's copies staged, at K = 2048), it deletes them, and a wait that counted
them raced wave 0's DMA of A with wave 3's ``ds_read_b128`` of it.  A count of DMA copies
only holds whatever LLVM does with the loads: the staged loads issued after ``D`` only make
the wait complete more (``vmcnt`` completes in order).  The new count is never above the
schedule's ``k`` (which counted every copy as a DMA copy).

:func:`vmcnt_waits` returns the new immediate of each of the body's waits, or why the
stream cannot be modelled (a copy or wait inside an op with regions, a copy of the
function before the loop outside the loop's block); the caller then keeps the slot form.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.regcopy import STAGED
from pipeline_mlir.isa.waitcnt import VMCNT_MAX, decode_waitcnt, waitcnt_imm
from pipeline_mlir.passes._common import as_operation, walk_ops

COPY, WAIT = "amdgpu.gather_to_lds", "rocdl.s.waitcnt"


def _kind(o) -> str:
    return "staged" if STAGED in o.attributes else "dma"


def _function(op):
    while op.name not in ("func.func", "gpu.func", "builtin.module"):
        op = op.parent
    return op


def _prologue(loop) -> list | str:
    """The kinds of the VMEM copies issued before ``loop``, in order, or why unknown."""
    for o in walk_ops(_function(loop), lambda o: True):
        if o == loop:
            break
        if o.name == COPY and o.block != loop.block:
            return "a copy before the loop is not in the loop's block"
    kinds = []
    for o in loop.block.operations:
        o = as_operation(o)
        if o == loop:
            return kinds
        if o.name == COPY:
            kinds.append(_kind(o))
        elif walk_ops(o, lambda x: x.name == COPY):
            return f"'{o.name}' before the loop holds copies"
    return kinds


def _body(loop) -> list | str:
    """The body's copies (their kinds) and waits (the ops), in order, or why unknown."""
    out = []
    for o in loop.regions[0].blocks[0].operations:
        o = as_operation(o)
        if o.name == COPY:
            out.append(_kind(o))
        elif o.name == WAIT:
            out.append(o)
        elif walk_ops(o, lambda x: x.name in (COPY, WAIT)):
            return f"'{o.name}' in the loop holds copies or waits"
    return out


def _after(loop) -> list:
    """The copies and waits of the loop's block after the loop, in order (those inside ops
    with regions there, the zero-trip path's, are left as the schedule derived them)."""
    ops = [as_operation(o) for o in loop.block.operations]
    return [o for o in ops[ops.index(loop) + 1:] if o.name in (COPY, WAIT)]


def _count(stream: list, k: int) -> int:
    """The new vmcnt at a wait after ``stream`` (kinds of the copies issued, the staged
    loads included) whose old count is ``k``: the DMA copies issued after the youngest one
    the wait requires (module docstring); :data:`VMCNT_MAX` when it required none."""
    required = len(stream) - k
    d = next((i for i in range(required - 1, -1, -1) if stream[i] == "dma"), None)
    if d is None:
        return VMCNT_MAX
    return stream[d + 1:].count("dma")


def vmcnt_waits(loop, trips: int) -> dict | str:
    """{wait op: new immediate} for the body of ``loop`` (``trips`` iterations) and its
    block after it (module docstring), or why not."""
    pro, body = _prologue(loop), _body(loop)
    for r in (pro, body):
        if isinstance(r, str):
            return r
    copies = [e for e in body if isinstance(e, str)]
    depth = min(trips, VMCNT_MAX // max(1, len(copies)) + 2)
    counts: dict = {}
    for j in range(depth):
        stream = pro + copies * j
        for e in body:
            if isinstance(e, str):
                stream.append(e)
                continue
            vm, _, _ = decode_waitcnt(ir.IntegerAttr(e.attributes["bitfield"]).value)
            if vm < VMCNT_MAX:
                n = _count(stream, vm)
                counts[e] = min(counts.get(e, VMCNT_MAX), n)
    stream = pro + copies * depth               # the last iterations, then what follows
    for o in _after(loop):
        if o.name == COPY:
            stream.append(_kind(o))
        elif o.name == WAIT:
            vm, _, _ = decode_waitcnt(ir.IntegerAttr(o.attributes["bitfield"]).value)
            if vm < VMCNT_MAX:
                counts[o] = _count(stream, vm)
    out = {}
    for w, n in counts.items():
        _, exp, lgkm = decode_waitcnt(ir.IntegerAttr(w.attributes["bitfield"]).value)
        out[w] = waitcnt_imm(vmcnt=None if n >= VMCNT_MAX else n, expcnt=exp, lgkmcnt=lgkm)
    return out
