"""IREE's VectorDistribute kernels before their late form, put in the form of the late form.

IREE's VectorDistribute pipeline (``--iree-codegen-llvmgpu-use-vector-distribution
--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false``) comes in two early forms:

* where the TileAndFuse pipeline pipelines its K-loop (``test/data/iree/generate.py``,
  ``prefetch_point``) it is not distributed yet: the loop copies and multiplies whole
  workgroup tiles (``vector.transfer_read`` of a 64x128 tile, ``iree_codegen.inner_tiled``
  on ``iree_vector_ext.to_layout`` anchors), and only IREE's
  ``iree-llvmgpu-vector-distribute`` says which thread moves and multiplies which elements;
* where IREE's own ``iree-llvmgpu-prefetch-shared-memory`` takes it (``prefetch_input``:
  IREE runs that pass after the distribution in this pipeline) it is distributed, but its
  copies' LDS stores sit in ``scf.if`` on ``gpu.thread_id y == 0``, its index math is
  ``affine.delinearize_index`` / ``linearize_index`` inside the loop, and its workgroup
  ``scf.forall`` steps over tile offsets.

The front end takes loops of ``amdgpu.mfma`` ops with ``arith`` index math.  Rather than
guess IREE's layouts, :func:`prepare_vector_distribute` runs, on a VectorDistribute kernel
that still has its workgroup ``scf.forall`` (the late form has none), the passes IREE itself
runs next: :data:`DISTRIBUTION` (distribution, unrolling to MFMA intrinsics, the padding of
its LDS tiles; only where the loop multiplies whole tiles) and then :data:`CLEANUP`, passes
IREE runs later on the way to its late form: its vector lowering (which makes the
column reads of a ``K x N`` B, ``vector<8x1>``, the late form's one-element reads), the
``scf.forall`` normalised to unit steps,
``gpu.thread_id y`` bounded by the workgroup size so that the ``scf.if`` on it folds away,
index math narrowed to ``i32`` and affine ops lowered to ``arith``, loop-invariant index
math hoisted.  What comes out is the loop of the late form (register copies into a padded
LDS, one-element or 16-byte fragment reads, MFMAs), which the rest of the front end takes
as it takes the late form: the same schedule and the same main loop from every form.

A kernel is rewritten only when its ``translation_info`` names the VectorDistribute
pipeline; it must sit in an IREE ``hal.executable.variant`` (IREE's passes read the target
from it).  If IREE's passes fail, or leave a whole-tile product behind, the kernel is
refused with IREE's diagnostics; a plain ``vector.contract`` left in a kernel of no MFMA is
IREE's kernel without an MFMA configuration (a gemv-like M or N of 1 to 4), which
:data:`CLEANUP` lowers to FMAs as IREE does, and which is then refused as its late form is
(nothing to pipeline).  A whole-tile loop of another pipeline is left to the
scan, which refuses it with its reason.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import mapped_forall
from pipeline_mlir.dialect.attrs import workgroup_forall_problem
from pipeline_mlir.dialect.bindings import ir, passmanager
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.locations import location_text
from pipeline_mlir.dialect.ir_io import as_operation as _op

__all__ = ["CLEANUP", "DISTRIBUTION", "prepare_vector_distribute"]

#: ops that multiply whole (undistributed) tiles
WHOLE_TILE_PRODUCTS = ("vector.contract", "iree_codegen.inner_tiled", "iree_gpu.multi_mma")

#: IREE 3.13's VectorDistribute passes between its first hoist-statically-bound-allocations
#: and its bank-conflict padding (the last before its prefetch pass), nested on the
#: ``func.func``
DISTRIBUTION = (
    "iree-llvmgpu-vector-distribute,iree-codegen-amdgpu-lower-async-dma,"
    "iree-linalg-ext-decompose-map-store,iree-codegen-hoist-inner-tiled-acc-reshapes,"
    "iree-gpu-unroll-to-intrinsics,iree-gpu-lower-ops,canonicalize,cse,"
    "iree-codegen-gpu-reduce-bank-conflicts{padding-bits=64}")
#: IREE passes of its later lowering that put the distributed loop in its late form's shape
#: (module docstring), nested on the ``func.func``
CLEANUP = (
    "iree-codegen-fold-memref-alias-ops,cse,canonicalize,cse,iree-llvmgpu-vector-lowering,"
    "iree-codegen-normalize-loop-bounds{normalize-for=false normalize-forall=true},"
    "iree-codegen-propagate-dispatch-size-bounds,"
    "iree-util-optimize-int-arithmetic{index-is-i64=true narrow-to-i32=true},"
    "iree-affine-expand-index-ops,iree-lower-affine,canonicalize,cse,"
    "iree-loop-invariant-code-motion")


def _ancestor_names(o) -> list[str]:
    out, p = [], o.parent
    while p is not None:
        out.append(_op(p).name)
        p = _op(p).parent
    return out


def _whole_tile_products(f) -> list:
    return [o for o in walk_ops(f, lambda o: o.name in WHOLE_TILE_PRODUCTS) if "scf.for" in _ancestor_names(o)]


def _is_vector_distribute(f) -> bool:
    if "translation_info" not in f.attributes:
        return False
    return "#iree_gpu.pipeline<VectorDistribute>" in str(f.attributes["translation_info"])


def _line(loc) -> str:
    line = location_text(loc)[1]
    return f"line {line}" if line is not None else str(loc)


def _diagnostics(err) -> str:
    diags = getattr(err, "error_diagnostics", None) or []
    return "; ".join(f"{d.message} ({_line(d.location)})" for d in diags) or str(err).strip()


def _workgroup_forall(f) -> bool:
    return bool(walk_ops(f, lambda o: mapped_forall(o) and workgroup_forall_problem(o) is None))


def _run(f, pipeline: str, what: str) -> None:
    with f.context:
        pm = passmanager.PassManager.parse(f"func.func({pipeline})")
        try:
            pm.run(f)
        except ir.MLIRError as e:
            raise IRError(f, f"'func.func' op: IREE's VectorDistribute passes failed on "
                             f"{what}: {_diagnostics(e)}") from None


def prepare_vector_distribute(module) -> int:
    """Run :data:`DISTRIBUTION` (where the K-loop multiplies whole tiles) and
    :data:`CLEANUP` on every VectorDistribute kernel of ``module`` that still has its
    workgroup ``scf.forall`` (module docstring); returns how many were rewritten."""
    count = 0
    for f in walk_ops(_op(module), lambda o: o.name == "func.func"):
        if not _is_vector_distribute(f) or not _workgroup_forall(f):
            continue
        products = _whole_tile_products(f)
        if "hal.executable.variant" not in _ancestor_names(f):
            at = products[0] if products else f
            raise IRError(at, f"'{at.name}' op: a kernel of IREE's VectorDistribute pipeline "
                              f"before its late form, outside an IREE "
                              f"hal.executable.variant: the front end distributes it with "
                              f"IREE's own passes, which read the GPU target from the "
                              f"variant (give the whole hal.executable)")
        if products:
            loc = _line(products[0].location)
            _run(f, DISTRIBUTION, f"the whole-tile K-loop (its product at {loc})")
            left = _whole_tile_products(f)
            # a plain vector.contract left in a loop of no MFMA is IREE's kernel without an
            # MFMA configuration (a gemv-like M or N of 1 to 4: per-thread FMAs), which its
            # vector lowering (CLEANUP) makes the late form's loop: refused, as that form
            # is, for want of MFMAs to pipeline
            if left and (any(o.name != "vector.contract" for o in left)
                         or walk_ops(f, lambda o: o.name == "amdgpu.mfma")):
                raise IRError(left[0], f"'{left[0].name}' op still multiplies whole tiles "
                                       f"inside the K-loop after IREE's VectorDistribute "
                                       f"passes: the loop is not distributed to threads and "
                                       f"MFMAs")
        _run(f, CLEANUP, "the distributed kernel")
        count += 1
    return count
