"""Why a module holds no K-loop the front end can pipeline: the one message for a kernel
whose products are outside any loop (IREE removes a loop of one K step), multiply whole
tiles not distributed yet, multiply per thread in registers (no MFMA configuration: the
prefetch point's ``vector.contract``, the late form's multiply or FMA, one reason for
both), or are not tiled for the GPU at all."""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import mapped_forall
from pipeline_mlir.analysis.loop_eval import memory_space
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op, walk_ops
from pipeline_mlir.frontend.kernel_ir import depends, owner
from pipeline_mlir.frontend.reroll import no_loop_note
from pipeline_mlir.frontend.tagged import tag_of


#: ops that multiply whole workgroup-level tiles: a loop holding one is not distributed to
#: threads (and MFMAs) yet
UNDISTRIBUTED_PRODUCTS = ("vector.contract", "iree_codegen.inner_tiled", "iree_gpu.multi_mma",
                          "linalg.matmul", "linalg.matmul_transpose_b", "linalg.batch_matmul")


def no_loop_reason(module):
    """Why a module without natural K-loops has nothing the front end can pipeline, as
    (op, message), when it is a kernel with products but no pipelinable loop: MFMAs, or a
    product of whole tiles inside the workgroups' ``scf.forall`` (IREE's VectorDistribute
    prefetch point), outside any ``scf.for`` (IREE removes a loop of one iteration), a loop
    that multiplies undistributed tiles, or a product not tiled at all (a ``linalg`` op, or
    one outside the workgroups: what a user has before compiling with IREE), or a loop of
    per-thread products in registers without LDS (:func:`per_thread_product`).  None for
    anything else (tagged input: left to sched-import)."""

    found, tagged, products, single, untiled, lds = [], [], [], [], [], []

    def inside(o, test) -> bool:
        p = o.parent
        while p is not None:
            p = _op(p)
            if test(p):
                return True
            if p.name in ("builtin.module", "gpu.module"):
                return False
            p = p.parent
        return False

    def inside_for(o) -> bool:
        return inside(o, lambda p: p.name == "scf.for")

    def visit(o):
        o = _op(o)
        if o.name == "amdgpu.mfma":
            found.append((o, inside_for(o)))
        elif o.name in UNDISTRIBUTED_PRODUCTS and inside_for(o):
            products.append(o)
        elif o.name in UNDISTRIBUTED_PRODUCTS and not o.name.startswith("linalg.") and \
                inside(o, mapped_forall):
            single.append(o)
        elif o.name in UNDISTRIBUTED_PRODUCTS or o.name.startswith("linalg."):
            untiled.append(o)
        if o.name == "memref.alloc" and memory_space(o.results[0].type) == "workgroup":
            lds.append(o)
        if o.name.startswith("sched.") or tag_of(o):
            tagged.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    if tagged:
        return None
    if found and not any(inside for _o, inside in found):
        return found[0][0], ("'amdgpu.mfma' op is not inside an scf.for: the kernel has no "
                             "K-loop to pipeline " + no_loop_note(module))
    if products and not found:
        o = products[0]
        if all(x.name == "vector.contract" for x in products) and \
                (not lds or all(_per_thread(x) for x in products)):
            return o, per_thread_message(o, bool(lds))
        return o, (f"'{o.name}' op multiplies whole tiles inside the K-loop: the loop is not "
                   f"distributed to threads and MFMAs yet (the front end takes a loop of "
                   f"amdgpu.mfma ops; IREE's VectorDistribute kernels, inside their "
                   f"hal.executable, are distributed by IREE's own passes first)")
    if single and not found:
        return single[0], (f"'{single[0].name}' op is not inside an scf.for: the kernel has "
                           f"no K-loop to pipeline " + no_loop_note(module))
    if untiled and not found:
        o = next((x for x in untiled if x.name in UNDISTRIBUTED_PRODUCTS), untiled[0])
        return o, (f"'{o.name}' op: the input is not tiled for the GPU yet; the front end "
                   f"takes a kernel whose K-loop is tiled, bufferized and distributed to "
                   f"threads: an scf.for over K tiles that copies A and B to LDS "
                   f"(amdgpu.gather_to_lds) and multiplies with amdgpu.mfma, such as IREE's "
                   f"gfx950 kernel just before its shared-memory prefetch pass (compile the "
                   f"linalg op with iree-compile first: test/data/iree/generate.py, "
                   f"prefetch_point, shows how)")
    if not found:
        o = per_thread_product(module)
        if o is not None:
            return o, per_thread_message(o, bool(lds))
    return None


def per_thread_message(o, lds: bool = False) -> str:
    """Why a product in registers (a per-thread ``vector.contract`` at the prefetch point;
    its multiply or FMA once IREE lowers it, the late form's) leaves nothing to pipeline;
    ``lds``: the kernel stages the products' operands in LDS (IREE's TileAndFuse of a
    problem too small for an MFMA, f16 ``A x B^T`` 2x700x96)."""
    where = ("in the kernel (its LDS holds the operands of per-thread products)" if lds
             else "and no LDS in the kernel")
    return (f"'{o.name}' op multiplies in registers inside the K-loop, with no amdgpu.mfma "
            f"{where}: its matmul was compiled without an MFMA "
            f"configuration (IREE's choice where none fits: each thread computes its "
            f"elements of C{'' if lds else ' from global memory'}), so there is no K-loop "
            f"of LDS copies and MFMAs to pipeline")


def _per_thread(o) -> bool:
    """Whether the product ``o`` (a ``vector.contract``) multiplies per thread: its A or B
    operand is computed from ``gpu.thread_id`` (read at an address of it).  A product of
    whole workgroup tiles is not."""
    return any(depends(x, lambda v: owner(v, "gpu.thread_id") is not None)
               for x in list(o.operands)[:2])


#: ops that multiply elements: what IREE lowers a per-thread ``vector.contract`` to
MULTIPLIES = ("arith.mulf", "arith.muli", "math.fma", "vector.fma", "vector.contract")
#: ops whose operands are addresses, not the values they give: a slice stops at them
_READS = ("memref.load", "vector.load", "vector.transfer_read", "vector.maskedload",
          "amdgpu.raw_buffer_load")


def per_thread_product(module):
    """The first multiply (:data:`MULTIPLIES`) in an ``scf.for`` that a value the loop
    carries or stores is computed from (a per-thread dot product over K, summed in a
    register or in C: the late form of a kernel without an MFMA configuration), or None.
    The slice follows values back through the loop's ops, not through the addresses of
    reads and stores."""
    def product(loop):
        body = loop.regions[0].blocks[0]
        todo = list(body.operations[-1].operands)
        todo += [_stored(o) for o in walk_ops(loop, lambda o: o.name in _STORES)]
        seen, hits = set(), set()
        while todo:
            v = todo.pop()
            if isinstance(v.owner, ir.Block):
                continue
            o = _op(v.owner)
            if o in seen or not _within(o, loop):
                continue
            seen.add(o)
            if o.name in MULTIPLIES:
                hits.add(o)
            if o.name not in _READS:
                todo.extend(o.operands)
        return walk_ops(loop, lambda o: o in hits)

    for loop in walk_ops(module, lambda o: o.name == "scf.for"):
        found = product(_op(loop))
        if found:
            return found[0]
    return None


#: ops that store a value (:func:`_stored`) at an address
_STORES = ("memref.store", "vector.store", "vector.transfer_write", "vector.maskedstore")


def _stored(o):
    """The value a store of :data:`_STORES` writes (a masked store's is its last operand)."""
    return o.operands[len(o.operands) - 1] if o.name == "vector.maskedstore" else o.operands[0]


def _within(o, loop) -> bool:
    """Whether ``o`` is nested in ``loop``."""
    p = o.parent
    while p is not None:
        p = _op(p)
        if p == loop:
            return True
        if p.name in ("builtin.module", "gpu.module"):
            return False
        p = p.parent
    return False
