"""IREE's VectorDistribute kernels at the prefetch point, distributed by IREE's own passes.

IREE's VectorDistribute pipeline (``--iree-codegen-llvmgpu-use-vector-distribution
--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false``) is, at the point where the
TileAndFuse pipeline would pipeline its K-loop (``test/data/iree/generate.py``,
``prefetch_point``), not distributed yet: the loop copies and multiplies whole workgroup
tiles (``vector.transfer_read`` of a 64x128 tile, ``iree_codegen.inner_tiled`` on
``iree_vector_ext.to_layout`` anchors), and only IREE's ``iree-llvmgpu-vector-distribute``
says which thread moves and multiplies which elements.  The front end takes loops of
``amdgpu.mfma`` ops; rather than guess IREE's layouts, :func:`distribute_whole_tile_loops`
runs the passes IREE itself runs next on such a kernel (:data:`IREE_DISTRIBUTION`: the
distribution, the unrolling to MFMA intrinsics, the padding of its LDS tiles) and a few
cleanups that IREE runs later on the way to its late form (the workgroup ``scf.forall``
normalised to unit steps, ``gpu.thread_id y`` bounded by the workgroup size so that the
copies' ``scf.if`` on ``thread_id y == 0`` folds away, affine index ops lowered to
``arith``, loop-invariant index math hoisted).  What comes out is the loop of the late form
(register copies into a padded LDS, ``vector.transfer_read`` fragment reads, MFMAs), which
the rest of the front end takes as it takes the late form: the same schedule and the same
kernel from both forms.

Only a ``func.func`` whose ``translation_info`` names the VectorDistribute pipeline, that
sits in an IREE ``hal.executable.variant`` (IREE's passes read the target from it) and whose
``scf.for`` holds a whole-tile product is rewritten; anything else is left as it is (and a
whole-tile loop of another pipeline is refused later, by the scan, with its reason).  If
IREE's passes fail, or leave a whole-tile product behind, the kernel is refused at the
product with IREE's diagnostics.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir, passmanager
from pipeline_mlir.dialect.ir_io import IRError, location_text, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op

__all__ = ["IREE_DISTRIBUTION", "distribute_whole_tile_loops"]

#: ops that multiply whole (undistributed) tiles
WHOLE_TILE_PRODUCTS = ("vector.contract", "iree_codegen.inner_tiled", "iree_gpu.multi_mma")

#: IREE 3.13's VectorDistribute passes after its first hoist-statically-bound-allocations,
#: up to (not including) iree-llvmgpu-lower-executable-target's end, then the cleanups of
#: the module docstring; run nested on the ``func.func``
IREE_DISTRIBUTION = (
    "iree-llvmgpu-vector-distribute,iree-codegen-amdgpu-lower-async-dma,"
    "iree-linalg-ext-decompose-map-store,iree-codegen-hoist-inner-tiled-acc-reshapes,"
    "iree-gpu-unroll-to-intrinsics,iree-gpu-lower-ops,canonicalize,cse,"
    "iree-codegen-gpu-reduce-bank-conflicts{padding-bits=64},"
    "iree-codegen-fold-memref-alias-ops,cse,canonicalize,cse,"
    "iree-codegen-normalize-loop-bounds{normalize-for=false normalize-forall=true},"
    "iree-codegen-propagate-dispatch-size-bounds,iree-util-optimize-int-arithmetic{index-is-i64=true narrow-to-i32=true},"
    "iree-affine-expand-index-ops,iree-lower-affine,canonicalize,cse,"
    "iree-loop-invariant-code-motion")


def _in_loop(o) -> bool:
    p = o.parent
    while p is not None:
        p = _op(p)
        if p.name == "scf.for":
            return True
        if p.name == "func.func":
            return False
        p = p.parent
    return False


def _whole_tile_products(f) -> list:
    return [o for o in walk_ops(f, lambda o: o.name in WHOLE_TILE_PRODUCTS) if _in_loop(o)]


def _is_vector_distribute(f) -> bool:
    if "translation_info" not in f.attributes:
        return False
    return "#iree_gpu.pipeline<VectorDistribute>" in str(f.attributes["translation_info"])


def _in_variant(f) -> bool:
    p = f.parent
    while p is not None:
        p = _op(p)
        if p.name == "hal.executable.variant":
            return True
        p = p.parent
    return False


def _line(loc) -> str:
    line = location_text(loc)[1]
    return f"line {line}" if line is not None else str(loc)


def _diagnostics(err) -> str:
    diags = getattr(err, "error_diagnostics", None) or []
    if not diags:
        return str(err).strip()
    return "; ".join(f"{d.message} ({_line(d.location)})" for d in diags)


def distribute_whole_tile_loops(module) -> int:
    """Run :data:`IREE_DISTRIBUTION` on every VectorDistribute kernel of ``module`` whose
    K-loop multiplies whole tiles (module docstring); returns how many were distributed."""
    root = _op(module)
    count = 0
    for f in walk_ops(root, lambda o: o.name == "func.func"):
        products = _whole_tile_products(f)
        if not products or not _is_vector_distribute(f):
            continue
        first = products[0]
        if not _in_variant(f):
            raise IRError(first, f"'{first.name}' op multiplies whole tiles in a kernel of "
                                 f"IREE's VectorDistribute pipeline outside an IREE "
                                 f"hal.executable.variant: the front end distributes it with "
                                 f"IREE's own passes, which read the GPU target from the "
                                 f"variant (give the whole hal.executable)")
        loc = _line(first.location)
        with root.context:
            pm = passmanager.PassManager.parse(f"func.func({IREE_DISTRIBUTION})")
            try:
                pm.run(f)
            except ir.MLIRError as e:
                raise IRError(f, f"'func.func' op: IREE's VectorDistribute passes failed on "
                                 f"the whole-tile K-loop (its product at {loc}): "
                                 f"{_diagnostics(e)}") from None
        left = _whole_tile_products(f)
        if left:
            raise IRError(left[0], f"'{left[0].name}' op still multiplies whole tiles inside "
                                   f"the K-loop after IREE's VectorDistribute passes: the loop "
                                   f"is not distributed to threads and MFMAs")
        count += 1
    return count
