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
that required no DMA copy loses its ``vmcnt``.  The waits of the loop's block before the
loop (the prologue's) are re-derived the same way from the copies issued before them, and
those after the loop (the epilogue's) from the stream of the last iterations and the copies
after the loop.  A wait inside an op with regions that holds no copy (the zero-trip fence
before the loop, a wait under a condition) is re-derived where that op is: the copies
issued before it are the same whichever way the op's regions run.  (The zero-trip path
itself, the prologue straight to the epilogue, is never taken: a loop is staged ahead
beside DMA copies only when its trip count is a known constant of at least one.)  A wait
before the first copy is left as it is: it waits for no copy.

The prologue's own staged copies are staged in their slot (they are not in a loop), and
their stores go as late as the schedule holds a DMA's LDS write, not at the first wait or
barrier after the copy: :func:`_prologue_stores` places each just before the first wait
whose schedule ``vmcnt(k)`` requires the copy, else the first op with regions after it
(a DMA copy may write LDS any time up to that wait; the schedule is correct for each such
time, and the pass's staged-form check verifies what is emitted).  Those stores' waits on
their loads are LLVM's (the register dependency).

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

:func:`vmcnt_waits` returns the new immediate of each such wait, or why the stream cannot
be modelled (a copy inside an op with regions in the loop's block or body, a copy of the
function before the loop outside the loop's block); the caller then keeps the slot form.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import enclosing_ops
from pipeline_mlir.frontend.marks import STAGED
from pipeline_mlir.analysis.barriers import waitcnt_fields
from pipeline_mlir.isa.waitcnt import VMCNT_MAX, waitcnt_imm
from pipeline_mlir.passes._common import as_operation, walk_ops

COPY, WAIT = "amdgpu.gather_to_lds", "rocdl.s.waitcnt"


def _kind(o) -> str:
    return "staged" if STAGED in o.attributes else "dma"


def _copy_before(loop) -> bool:
    """Whether a copy is issued before ``loop`` outside its block: in an op before one of
    the ops around the loop, in that op's block, up to the function."""
    for around in enclosing_ops(loop):
        for o in around.block.operations:
            o = as_operation(o)
            if o == around:
                break
            if walk_ops(o, lambda x: x.name == COPY):
                return True
    return False


def _events(ops, where: str) -> list | str:
    """The copies and waits (the ops) of ``ops``, in order; the waits inside an op with
    regions that holds no copy (the zero-trip fence) included where the op is, since the
    copies issued before them are the same whichever way its regions run; or why the stream
    cannot be modelled (an op with regions that holds copies)."""
    out = []
    for o in ops:
        o = as_operation(o)
        if o.name in (COPY, WAIT):
            out.append(o)
        elif len(o.regions):
            inner = walk_ops(o, lambda x: x.name in (COPY, WAIT))
            if any(x.name == COPY for x in inner):
                return f"'{o.name}' {where} holds copies"
            out.extend(inner)
    return out


def _kinds(events: list) -> list[str]:
    """The kinds of the copies of ``events``, in order."""
    return [_kind(e) for e in events if e.name == COPY]


def _requirements(events: list, issued: int):
    """``(wait, copies issued before it, how many of them it requires complete)`` of each
    wait of ``events`` with a vmcnt, ``issued`` copies issued before ``events``: every VMEM
    operation but the ``vmcnt`` issued last (``vmcnt`` completes in order).  The one
    derivation of what the schedule's waits require, for the new counts (:func:`_derive`)
    and for the prologue's stores (:func:`_prologue_stores`)."""
    for e in events:
        if e.name == COPY:
            issued += 1
            continue
        vm = waitcnt_fields(e)[0]
        if vm < VMCNT_MAX:
            yield e, issued, issued - vm


def _count(stream: list, required: int) -> int:
    """The new vmcnt at a wait after ``stream`` (kinds of the copies issued, the staged
    loads included) that requires its first ``required`` copies complete
    (:func:`_requirements`; module docstring): the DMA copies issued after the youngest
    DMA copy among those; :data:`VMCNT_MAX` when none of those is one."""
    d = next((i for i in range(required - 1, -1, -1) if stream[i] == "dma"), None)
    if d is None:
        return VMCNT_MAX
    return stream[d + 1:].count("dma")


def _derive(events: list, stream: list, counts: dict) -> dict:
    """Each wait of ``events`` with a vmcnt, issued after ``stream`` (kinds) and the copies
    of ``events`` before it, given the least of its count there and in ``counts``; a wait
    with no copy issued before it is left as it is.  Returns {wait: how many of the copies
    issued before it (``stream``'s, then those of ``events``) it requires complete}."""
    kinds = list(stream) + _kinds(events)
    needs = {}
    for w, issued, required in _requirements(events, len(stream)):
        needs[w] = required
        if issued:
            counts[w] = min(counts.get(w, VMCNT_MAX), _count(kinds[:issued], required))
    return needs


def vmcnt_waits(loop, trips: int) -> tuple[dict, dict] | str:
    """({wait op: new immediate}, the prologue's stores) for the waits of ``loop``'s block
    before it (the prologue, the zero-trip fence), its body (``trips`` iterations) and its
    block after it (the epilogue), as the module docstring derives them, and where the
    staged copies of the block before the loop store (:func:`_prologue_stores`); or why the
    stream cannot be modelled."""
    if _copy_before(loop):
        return "a copy before the loop is not in the loop's block"
    ops = [as_operation(o) for o in loop.block.operations]
    at = ops.index(loop)
    pro = _events(ops[:at], "before the loop")
    body = _events(loop.regions[0].blocks[0].operations, "in the loop")
    after = _events(ops[at + 1:], "after the loop")
    for r in (pro, body, after):
        if isinstance(r, str):
            return r
    counts: dict = {}
    needs = _derive(pro, [], counts)
    issued = _kinds(pro)
    copies = _kinds(body)
    depth = min(trips, VMCNT_MAX // max(1, len(copies)) + 2)
    for j in range(depth):
        _derive(body, issued + copies * j, counts)
    _derive(after, issued + copies * depth, counts)   # the last iterations, then the rest
    out = {}
    for w, n in counts.items():
        _, exp, lgkm = waitcnt_fields(w)
        out[w] = waitcnt_imm(vmcnt=None if n >= VMCNT_MAX else n, expcnt=exp, lgkmcnt=lgkm)
    return out, _prologue_stores(ops[:at + 1], needs)


def _prologue_stores(ops: list, needs: dict) -> dict:
    """{staged copy of ``ops`` (the loop's block up to the loop): the op its slot-form LDS
    store goes before}: the first wait after the copy whose schedule ``vmcnt(k)`` requires
    it (``needs``: wait -> how many of the block's copies it requires, from
    :func:`_requirements`), or else the first op with regions after it (the zero-trip fence,
    the loop).  The schedule holds the DMA's LDS write anywhere up to that wait, so the
    store lands in the DMA's window (module docstring)."""
    points, pending, issued = {}, [], 0
    for o in ops:
        if o.name == COPY:
            if STAGED in o.attributes:
                pending.append((issued, o))
            issued += 1
        elif len(o.regions) or o in needs:
            required = issued if len(o.regions) else needs[o]
            points.update((c, o) for i, c in pending if i < required)
            pending = [(i, c) for i, c in pending if i >= required]
    return points
