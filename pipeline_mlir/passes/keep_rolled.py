"""``sched-keep-rolled``: a multi-wave kernel's remainder loop that mixes direct-to-LDS
copies with LDS stores stays a loop, each iteration's copies issued before its stores as
IREE wrote them.

A remainder loop (``sched.remainder``, :mod:`pipeline_mlir.frontend.tails`) runs IREE's
own loop as IREE wrote it.  When its body copies one operand straight to LDS
(``amdgpu.gather_to_lds``) and the other through registers (global loads, then their
stores to LDS), IREE issues the direct copies after the loads and before the stores, so
the copies' latency runs under the loads': the stores' ``vmcnt`` waits count past the
copies, and the barrier's wait finds them nearly done.  With its trip count a constant
LLVM unrolls such a loop once it can count the trips, which it can since the LLVM step
narrows the index arithmetic to 32 bits (``registry.NARROW_INDEX``), and in the unrolled
code its machine scheduler moved a later trip's copy below that trip's stores (IREE's fp8
``A^T x B`` 31x112x224: the second trip's stores then waited down to ``vmcnt(0)`` and the
copy's whole latency came after them, three long waits where the loop had two;
``docs/iree-audits.md``, findings 100 and 105).

This pass gives each ``scf.for`` that carries ``sched.remainder`` and holds (at any depth)
both an ``amdgpu.gather_to_lds`` and a store to workgroup memory, in a kernel whose stated
workgroup size is more than one wave, the loop annotation ``#llvm.loop_annotation<unroll =
<disable = true>>``: ``convert-scf-to-cf`` moves it to the loop's back edge, and the
translation to LLVM IR makes it the ``llvm.loop.unroll.disable`` metadata, so LLVM keeps
the loop and schedules one body.  With more than one wave each iteration's barriers are
``s_barrier`` instructions, which LLVM's scheduler moves nothing across: unrolled, the
iterations do not overlap, and the unrolling only frees the scheduler to reorder each
one.  In a one-wave workgroup LLVM lowers a barrier to no instruction and the unrolled
iterations overlap (one iteration's loads issued under the previous one's MFMAs), so
those loops, and the remainder loops that do not mix the two kinds of copy, are left to
LLVM, whose unrolling of them was as fast or faster (finding 105).  A loop that already
has an ``llvm.loop_annotation`` keeps it.  It is part of the LLVM step, just before
``convert-scf-to-cf``; it never fails.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import workgroup_waves
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.marks import REMAINDER_ATTR
from pipeline_mlir.passes._common import ModulePass, OpError

#: the attribute ``convert-scf-to-cf`` carries from an ``scf.for`` to its back edge
ANNOTATION_ATTR = "llvm.loop_annotation"
#: LLVM's full and partial unrolling turned off for the loop
NO_UNROLL = "#llvm.loop_annotation<unroll = <disable = true>>"
#: the direct-to-LDS copy
DMA = "amdgpu.gather_to_lds"
#: stores, and the index of the memref they store to
STORES = {"vector.store": 1, "memref.store": 1, "vector.maskedstore": 0,
          "vector.transfer_write": 1}
#: the memory space of LDS in a memref type
WORKGROUP = "#gpu.address_space<workgroup>"
#: the ops of a kernel that state its workgroup size
FUNCS = ("gpu.func", "func.func")


def _stores_lds(op) -> bool:
    at = STORES.get(op.name)
    return at is not None and len(op.operands) > at and \
        WORKGROUP in str(op.operands[at].type)


def mixes_copies(loop) -> bool:
    """Whether ``loop``'s body holds both a direct-to-LDS copy and a store to LDS."""
    kinds = {"dma" if o.name == DMA else "store"
             for o in walk_ops(loop, lambda o: o.name == DMA or _stores_lds(o))}
    return kinds == {"dma", "store"}


def kept_loops(module) -> list:
    """The remainder loops of ``module`` this pass keeps rolled: those that mix the two
    kinds of copy, in a kernel whose workgroup is known to have more than one wave."""
    out = []
    for fn in walk_ops(module, lambda o: o.name in FUNCS):
        waves = workgroup_waves(fn)
        if waves is None or waves < 2:
            continue
        out += [o for o in walk_ops(fn, lambda o: o.name == "scf.for"
                                    and REMAINDER_ATTR in o.attributes) if mixes_copies(o)]
    return out


class KeepRolled(ModulePass):
    """Each remainder loop of a multi-wave kernel that mixes direct-to-LDS copies with LDS
    stores annotated so that LLVM does not unroll it."""

    name = "sched-keep-rolled"
    summary = ("remainder loops (sched.remainder) of multi-wave kernels that mix "
               "direct-to-LDS copies with LDS stores annotated llvm.loop.unroll.disable, "
               "their copies kept before their stores")

    def run(self, module) -> list[OpError]:
        with module.context:
            annotation = ir.Attribute.parse(NO_UNROLL)
            for loop in kept_loops(module):
                if ANNOTATION_ATTR not in loop.attributes:
                    loop.attributes[ANNOTATION_ATTR] = annotation
        return []
