"""The ops of IREE's prefetch pipelining of DMA copies, by name, as its roll-backs read them
(:mod:`~pipeline_mlir.frontend.reroll`, :mod:`~pipeline_mlir.frontend.reroll_straight`), and
the one guarded copy :mod:`~pipeline_mlir.frontend.reroll` takes among them
(:func:`guarded_copy`)."""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kernel_ir import is_pure

#: how the refusals name the loop
WHAT = "prefetch-pipelined"

COPY = "amdgpu.gather_to_lds"
MARK = "rocdl.asyncmark"
WAIT = "rocdl.wait.asyncmark"
GUARD = "scf.if"


def guards_a_copy(op) -> bool:
    """``op`` is an ``scf.if`` with an ``amdgpu.gather_to_lds`` in its regions."""
    return op.name == GUARD and bool(walk_ops(op, lambda o: o.name == COPY))


def guarded_copy(op):
    """The ``amdgpu.gather_to_lds`` that ``op``, an ``scf.if``, runs when the copy is all it
    does (IREE's copy by part of the workgroup: f16 ``A x B^T`` 100x17x520's B, 32 rows
    copied by threads 0 to 127 of 256 under ``scf.if %tid < 128``, in the prologue and the
    body of the loop it pipelines with 2 stages): no results, no else ops, and in its region
    that one copy and ops free of memory effects; else None."""
    if op.name != GUARD or len(op.results) or any(
            len(list(b.operations)) > 1 for b in op.regions[1].blocks):
        return None
    ops = [_op(o) for o in op.regions[0].blocks[0].operations][:-1]
    copies = [o for o in ops if o.name == COPY]
    if len(copies) != 1 or any(o is not copies[0] and o != copies[0] and not is_pure(o)
                               for o in ops):
        return None
    return copies[0]


def outer_operands(op) -> list:
    """The operands of ``op`` and of the ops in its regions that are made outside it (what
    may be left unused when it is erased)."""
    nested = walk_ops(op, lambda o: True)
    inner = {v for o in nested for v in o.results} | \
        {a for o in nested for r in o.regions for b in r.blocks for a in b.arguments}
    return [x for o in nested for x in o.operands if x not in inner]
