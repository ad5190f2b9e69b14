"""Which barriers order LDS accesses between the waves of a workgroup.

Upstream MLIR's ``gpu.barrier`` synchronises the work items of a workgroup and, without a
``memfence``, makes every memory access before it visible after it.  With ``memfence
[spaces]`` only the accesses to those address spaces must be (``memfence []``: none; the
ROCDL lowering then emits the bare ``s_barrier`` with no fence, and on gfx950, whose
barrier does not wait for the wave's memory operations, an LDS access in flight is not
ordered by it).  So a ``gpu.barrier`` orders LDS when it has no ``memfence`` or its
``memfence`` lists ``#gpu.address_space<workgroup>``; ``amdgpu.lds_barrier`` always does
(it is the LDS barrier).  :func:`fences_lds` says which; the soundness checks of the front
end (:mod:`pipeline_mlir.frontend.soundness`) and the LDS stream
(:mod:`pipeline_mlir.analysis.lds_order`) count only those as ordering LDS.

A bare barrier (``rocdl.s.barrier``, and a ``gpu.barrier`` whose ``memfence`` leaves out
workgroup memory, which lowers to it) waits for none of the wave's memory operations: "the
barrier itself does not drain those counters" (CDNA4 ISA).  It orders an LDS access before
it against one after it only when the wave waited for that access first: a
wait between them whose count of the access's counter is 0 (``vmcnt`` for a
direct-to-LDS copy, whose LDS write counts on it; ``lgkmcnt`` for an LDS read or store).
:func:`orders` is that rule, the one every reader of the front end applies (the
K-loop's order and its entry, ``frontend/soundness.py``; the barrier after a forwarded
private tile, ``frontend/private_stage.py``; the barrier that lets an aliased remainder
skip the drain's own, ``frontend/aliased_remainder.py``).
:func:`waited` finds such a wait in a block's ops; :func:`drained` says which counters a
wait brings to 0, from :func:`wait_counts`, the counts of either wait op:

* ``rocdl.s.waitcnt``: its immediate, decoded;
* upstream's ``amdgpu.memory_counter_wait``, as the ``amdgpu`` to ``rocdl`` lowering
  writes it for gfx950 (one ``s_waitcnt``, checked on the MLIR of iree-base-compiler
  3.13): ``vmcnt`` is the sum of its ``load`` and ``store`` counts (gfx9 counts vector
  memory loads and stores on one counter; one of them alone is that one), ``lgkmcnt``
  its ``ds`` count, each absent or out of range at the counter's maximum (not waited).
  ``load(0)`` drains ``vmcnt``, ``ds(0)`` ``lgkmcnt``; ``load(0) store(1)`` drains
  neither.

Before a loop, :func:`entry_path` gives the ops that run on the way into it (those before
it in its block, and before each op around it in that op's block, outermost first), and
:func:`entry_writers` those of them that write an LDS buffer with the counters their writes
count on: what a barrier on that path must order against a read moved to the loop's entry.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import enclosing_ops
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation
from pipeline_mlir.isa.waitcnt import LGKMCNT_MAX, VMCNT_MAX, decode_waitcnt

#: the barrier ops of the GPU dialects whose fence may cover LDS
LDS_BARRIER_OPS = ("gpu.barrier", "amdgpu.lds_barrier")
#: every barrier op: each makes the LDS accesses before it visible to every wave of the
#: workgroup when it fences workgroup memory (:func:`fences_lds`), or, bare, when a wait
#: for those accesses precedes it (:func:`orders`)
BARRIERS = LDS_BARRIER_OPS + ("rocdl.s.barrier",)
WORKGROUP_SPACE = "#gpu.address_space<workgroup>"
#: the wait ops whose counts make a bare barrier an ordering point (module docstring)
WAIT_OP = "rocdl.s.waitcnt"
COUNTER_WAIT_OP = "amdgpu.memory_counter_wait"
WAIT_OPS = (WAIT_OP, COUNTER_WAIT_OP)


def fences_lds(op) -> bool:
    """Whether barrier ``op`` (a ``gpu.barrier`` or ``amdgpu.lds_barrier``) orders the LDS
    accesses before it against those after it, in every wave (module docstring)."""
    if op.name == "amdgpu.lds_barrier":
        return True
    if op.name != "gpu.barrier":
        return False
    if "address_spaces" not in op.attributes:
        return True
    workgroup = ir.Attribute.parse(WORKGROUP_SPACE, op.context)
    return any(a == workgroup for a in ir.ArrayAttr(op.attributes["address_spaces"]))


def fence_text(op) -> str:
    """How ``op``'s fence reads in a message: ``memfence [...]`` as written."""
    spaces = op.attributes["address_spaces"] if "address_spaces" in op.attributes else None
    return "no memfence" if spaces is None else f"memfence {spaces}"


def waitcnt_fields(op) -> tuple[int, int, int]:
    """(vmcnt, expcnt, lgkmcnt) of a ``rocdl.s.waitcnt`` op: its bitfield decoded by
    :func:`pipeline_mlir.isa.waitcnt.decode_waitcnt` (the one reading of that op)."""
    return decode_waitcnt(ir.IntegerAttr(op.attributes["bitfield"]).value)


def wait_counts(op) -> tuple[int, int] | None:
    """(``vmcnt``, ``lgkmcnt``) that wait op ``op`` waits down to, a counter it leaves at
    its maximum; None for an op that is no wait (module docstring)."""
    if op.name == WAIT_OP:
        vm, _exp, lgkm = waitcnt_fields(op)
        return vm, lgkm
    if op.name != COUNTER_WAIT_OP:
        return None

    def count(name: str) -> int | None:
        return ir.IntegerAttr(op.attributes[name]).value if name in op.attributes else None

    vm = [c for c in (count("load"), count("store")) if c is not None]
    ds = count("ds")
    return (min(sum(vm), VMCNT_MAX) if vm else VMCNT_MAX,
            LGKMCNT_MAX if ds is None else min(ds, LGKMCNT_MAX))


#: how an ``amdgpu.memory_counter_wait`` drains each counter, for messages
_COUNTER_FIELDS = {"vmcnt": "load(0), store(0) or both", "lgkmcnt": "ds(0)"}


def counter_wait_text(counters) -> str:
    """What an ``amdgpu.memory_counter_wait`` that drains ``counters`` (names, in order)
    says, for a message that names the ``rocdl.s.waitcnt`` it would take."""
    return "; ".join(f"{_COUNTER_FIELDS[c]} for {c}" for c in counters)


def drained(op) -> frozenset:
    """The counters (``"vmcnt"``, ``"lgkmcnt"``) that ``op``, a wait
    (:func:`wait_counts`), waits down to 0; empty for any other op."""
    counts = wait_counts(op)
    if counts is None:
        return frozenset()
    return frozenset(n for n, c in zip(("vmcnt", "lgkmcnt"), counts) if c == 0)


def waited(body: list, after: int, before: int, counter: str) -> bool:
    """Whether an op of ``body`` (a loop body's ops in order) strictly between positions
    ``after`` and ``before`` waits ``counter`` down to 0; when ``before <= after`` the span
    goes round the loop's back edge (from ``after`` to the end, then from the start)."""
    span = body[after + 1:before] if after < before else body[after + 1:] + body[:before]
    return any(counter in drained(o) for o in span)


def orders(body: list, access: int, b: int, counter: str, wrap: bool = False) -> bool:
    """The one rule of a barrier ordering an LDS access (module docstring): whether
    barrier ``body[b]`` (``body``: a block's ops in order) orders the LDS access at
    position ``access`` (counted on ``counter``) against the other side.  A barrier that
    fences workgroup memory does; a bare one only behind a wait of ``counter`` down to 0
    after the access, in this pass over ``body`` or (``wrap``: the barrier is met in the
    next iteration of a loop whose body is ``body``) across the back edge."""
    if fences_lds(body[b]):
        return True
    return body[b].name in BARRIERS and (wrap or access < b) and \
        waited(body, access, b, counter)


#: LDS accesses that only read (anything else touching a buffer may write it)
READ_OPS = ("vector.load", "vector.transfer_read", "memref.load", "vector.maskedload",
            "amdgpu.transpose_load", "vector.gather")


def entry_path(loop) -> list:
    """The ops that run, in order, before ``loop`` on the way into it: at each level from
    the function inward, the ops before the op around ``loop`` (or ``loop``) in its block.
    An op of the path may hold regions; those ops run before ``loop`` as a whole."""
    levels = [as_operation(loop), *enclosing_ops(loop)]
    path = []
    for at in reversed(levels):
        for o in at.block.operations:
            if as_operation(o) == at:
                break
            path.append(as_operation(o))
    return path


def entry_writers(path: list, is_buffer) -> list:
    """(position, counters, last write) of each op of ``path`` (:func:`entry_path`) that
    writes, at any depth, LDS whose memref ``is_buffer`` accepts: ``vmcnt`` for a
    direct-to-LDS copy, ``lgkmcnt`` for any other write (a store, a transfer write); an op
    that only reads or views the buffer does not write it."""
    out = []
    for i, top in enumerate(path):
        counters, last = set(), []

        def visit(o, counters=counters, last=last):
            o = as_operation(o)
            if o.name in READ_OPS or any(str(r.type).startswith("memref<") for r in o.results):
                return ir.WalkResult.ADVANCE
            if any(str(x.type).startswith("memref<") and "workgroup" in str(x.type) and
                   is_buffer(x) for x in o.operands):
                counters.add("vmcnt" if o.name == "amdgpu.gather_to_lds" else "lgkmcnt")
                last.append(o)
            return ir.WalkResult.ADVANCE

        top.walk(visit)
        if counters:
            out.append((i, frozenset(counters), last[-1]))
    return out
