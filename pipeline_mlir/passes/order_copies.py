"""``sched-order-copies``: a remainder loop's direct-to-LDS copies stay before its LDS
stores, as IREE wrote them, when LLVM unrolls the loop.

A remainder loop (``sched.remainder``, :mod:`pipeline_mlir.frontend.tails`) runs IREE's
own loop as IREE wrote it.  When its body copies one operand straight to LDS
(``amdgpu.gather_to_lds``) and the other through registers (global loads, then their
stores to LDS), IREE issues the direct copies after the loads and before the stores, so
the copies' latency runs under the loads': the stores' ``vmcnt`` waits count past the
copies, and the barrier's wait finds them nearly done.  LLVM unrolls such a loop of a few
constant trips (since the LLVM step narrows the index arithmetic to 32 bits,
``registry.NARROW_INDEX``, it can count them), and in the unrolled code its machine
scheduler is free to move a copy below the stores: IREE's fp8 ``A^T x B`` 31x112x224 had
its second trip's copy issued after that trip's eight stores, whose waits then counted
down to ``vmcnt(0)``, the copy's whole latency after them (``docs/iree-audits.md``,
findings 100 and 105).

In each ``scf.for`` that carries ``sched.remainder``, this pass puts an order fence (a
``rocdl.sched.barrier`` that only ALU and MFMA instructions cross,
``schedule.fences.ORDER_FENCE_MASK``) before the first store to workgroup memory of the
loop's body that follows an ``amdgpu.gather_to_lds`` of the body (both directly in the
body's block; none is added where one is there already).  Memory instructions keep their
order across it, so every iteration's copies before it are issued before its stores,
unrolled or not.  A fence in the body also makes LLVM's cost model keep the loop rolled,
which was slower where the unrolled body kept IREE's order (3-stage f16 kernels of one
and four waves, f16 ``A x B`` 2048x16x1000, and 31x112x224's late form; finding 105), so
a fenced loop of constant bounds and at most :data:`MAX_TRIPS` trips is also annotated
``#llvm.loop_annotation<unroll = <full = true>>`` (``convert-scf-to-cf`` moves it to the
loop's back edge, the translation makes it ``llvm.loop.unroll.full``): LLVM unrolls it as
it did without the fence.  A loop that already has an ``llvm.loop_annotation`` keeps it.
It is part of the LLVM step, just before ``convert-scf-to-cf``; it never fails.
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.analysis.ir_facts import constant_trips
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kernel_ir import in_lds
from pipeline_mlir.frontend.marks import REMAINDER_ATTR
from pipeline_mlir.lowering.rocdl_build import mask_attr
from pipeline_mlir.passes._common import ModulePass, OpError
from pipeline_mlir.schedule.fences import ORDER_FENCE_MASK

#: the attribute ``convert-scf-to-cf`` carries from an ``scf.for`` to its back edge
ANNOTATION_ATTR = "llvm.loop_annotation"
#: LLVM's full unrolling asked for
UNROLL_FULL = "#llvm.loop_annotation<unroll = <full = true>>"
#: the most trips of a fenced loop asked to unroll fully (the remainders measured: 2 to 4)
MAX_TRIPS = 8
#: the direct-to-LDS copy
DMA = "amdgpu.gather_to_lds"
#: stores, and the index of the memref they store to
STORES = {"vector.store": 1, "memref.store": 1, "vector.maskedstore": 0,
          "vector.transfer_write": 1}
FENCE = "rocdl.sched.barrier"


def stores_lds(op) -> bool:
    """Whether ``op`` stores to workgroup memory."""
    at = STORES.get(op.name)
    return at is not None and len(op.operands) > at and in_lds(op.operands[at])


def fence_place(loop):
    """The first LDS store of ``loop``'s body block after a direct-to-LDS copy there, or
    None (also when a fence is right before it already)."""
    ops = [o.operation for o in loop.regions[0].blocks[0].operations]
    copied = False
    for k, o in enumerate(ops):
        copied = copied or o.name == DMA
        if copied and stores_lds(o):
            return None if k and ops[k - 1].name == FENCE else o
    return None


class OrderCopies(ModulePass):
    """An order fence between each remainder loop's direct-to-LDS copies and its LDS
    stores, and the fenced loop of few constant trips asked to unroll fully."""

    name = "sched-order-copies"
    summary = ("in a remainder loop (sched.remainder) an order fence before the first LDS "
               "store after a direct-to-LDS copy, so LLVM issues the copies first; a "
               "fenced loop of few constant trips asked to unroll fully")

    def run(self, module) -> list[OpError]:
        with module.context:
            full = ir.Attribute.parse(UNROLL_FULL)
            loops = walk_ops(module, lambda o: o.name == "scf.for"
                             and REMAINDER_ATTR in o.attributes)
            for loop in loops:
                store = fence_place(loop)
                if store is None:
                    continue
                with ir.InsertionPoint(store), store.location:
                    B.rocdl.sched_barrier(mask_attr(ORDER_FENCE_MASK))
                trips = constant_trips(loop)
                if ANNOTATION_ATTR not in loop.attributes and trips is not None \
                        and 1 < trips <= MAX_TRIPS:
                    loop.attributes[ANNOTATION_ATTR] = full
        return []
