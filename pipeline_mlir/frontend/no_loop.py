"""Why a module holds no K-loop the front end can pipeline: the one message for a kernel
whose products are outside any loop (IREE removes a loop of one K step), multiply whole
tiles not distributed yet, or are not tiled for the GPU at all."""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import mapped_forall
from pipeline_mlir.analysis.loop_eval import memory_space
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op
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
    one outside the workgroups: what a user has before compiling with IREE).  None for
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
        if not lds and all(x.name == "vector.contract" for x in products):
            return o, (f"'{o.name}' op multiplies in registers inside the K-loop, with no "
                       f"amdgpu.mfma and no LDS in the kernel: its matmul was compiled "
                       f"without an MFMA configuration (IREE's choice where none fits: "
                       f"each thread computes its elements of C from global memory), so "
                       f"there is no K-loop of LDS copies and MFMAs to pipeline")
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
    return None
