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
``rocdl.s.waitcnt`` between them whose count of the access's counter is 0 (``vmcnt`` for a
direct-to-LDS copy, whose LDS write counts on it; ``lgkmcnt`` for an LDS read or store).
:func:`waited` finds such a wait in a block's ops; :func:`drained` says which counters a
wait brings to 0.  Another wait op (``amdgpu.memory_counter_wait``) is not read: a bare
barrier behind it does not count.

Before a loop, :func:`entry_path` gives the ops that run on the way into it (those before
it in its block, and before each op around it in that op's block, outermost first), and
:func:`entry_writers` those of them that write an LDS buffer with the counters their writes
count on: what a barrier on that path must order against a read moved to the loop's entry.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import enclosing_ops
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation
from pipeline_mlir.isa.waitcnt import decode_waitcnt

#: the barrier ops of the GPU dialects whose fence may cover LDS
LDS_BARRIER_OPS = ("gpu.barrier", "amdgpu.lds_barrier")
WORKGROUP_SPACE = "#gpu.address_space<workgroup>"
#: the wait whose counts make a bare barrier an ordering point (module docstring)
WAIT_OP = "rocdl.s.waitcnt"


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


def drained(op) -> frozenset:
    """The counters (``"vmcnt"``, ``"lgkmcnt"``) that ``op``, a ``rocdl.s.waitcnt``, waits
    down to 0; empty for any other op."""
    if op.name != WAIT_OP:
        return frozenset()
    vm, _exp, lgkm = decode_waitcnt(ir.IntegerAttr(op.attributes["bitfield"]).value)
    return frozenset(n for n, c in (("vmcnt", vm), ("lgkmcnt", lgkm)) if c == 0)


def waited(body: list, after: int, before: int, counter: str) -> bool:
    """Whether an op of ``body`` (a loop body's ops in order) strictly between positions
    ``after`` and ``before`` waits ``counter`` down to 0; when ``before <= after`` the span
    goes round the loop's back edge (from ``after`` to the end, then from the start)."""
    span = body[after + 1:before] if after < before else body[after + 1:] + body[:before]
    return any(counter in drained(o) for o in span)


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
