"""``sched-unmask-loads``: a masked load of whole 32-bit words of a range-checked buffer
made a plain load and a select.

A ``vector.maskedload`` that reaches LLVM becomes ``llvm.masked.load``, which the AMDGPU
back end scalarises: a branch and a load per element.  IREE's prefetch point keeps such
loads where a dispatch reads C (``C += A x B``) or an epilogue input at C's edge, a
thread's whole tile (``vector<64xf32>``, 32 of them in an f16 520x300 kernel): LLVM 22's
register coalescer then ran for minutes on the 2048 branches.  IREE's own build runs
upstream ``amdgpu-maskedload-to-load`` there (after ``iree-llvmgpu-1d-vector-
canonicalizations``), which this wheel does not register; this pass does its rewrite for
the loads where it needs no guard:

* the memref is a view of an ``amdgpu.fat_raw_buffer_cast`` whose range check is on (no
  ``boundsCheck(false)``), found through the view ops between them; the load's element
  is a whole number of 32-bit words (``f32``, ``i32``, ``f64``, ...), so no element
  straddles the buffer's end, whose range check zeroes whole words;
* ``vector.load`` of the same memref, indices and type, then ``arith.select`` of the mask
  between it and the pass-through: a lane the mask keeps reads what the masked load
  reads; a masked lane loads a word inside the buffer (discarded by the select) or past
  its end (zero, discarded too), never a fault.

A masked load of narrower elements (upstream guards those with an ``scf.if`` on the
distance to the buffer's end) or of another buffer is left as it is.  It is part of the
LLVM step, after IREE's tail and before ``sched-fold-mask-guards``, and it never fails.
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kernel_ir import bounds_checked, fat_root
from pipeline_mlir.passes._common import ModulePass, OpError

WORD_BITS = 32


def range_checked(memref) -> bool:
    """Whether ``memref`` views an ``amdgpu.fat_raw_buffer_cast`` with its range check on."""
    return bounds_checked(fat_root(memref))


def whole_words(t) -> bool:
    """Whether the vector type ``t``'s elements are whole 32-bit words."""
    bits = getattr(ir.VectorType(t).element_type, "width", None)
    return bits is not None and bits % WORD_BITS == 0


def unmaskable(root) -> list:
    """The ``vector.maskedload`` ops under ``root`` this pass rewrites (module docstring)."""
    return walk_ops(root, lambda o: o.name == "vector.maskedload"
                    and whole_words(o.results[0].type) and range_checked(o.operands[0]))


def rewrite(load) -> None:
    """``load`` (one of :func:`unmaskable`) made a plain load and a select."""
    base, *rest = load.operands
    indices, mask, passthru = rest[:-2], rest[-2], rest[-1]
    t = load.results[0].type
    with ir.InsertionPoint(load), load.location:
        plain = ir.Operation.create("vector.load", results=[t], operands=[base, *indices])
        out = ir.Operation.create("arith.select", results=[t],
                                  operands=[mask, plain.results[0], passthru])
    load.results[0].replace_all_uses_with(out.results[0])
    load.erase()


class UnmaskLoads(ModulePass):
    """Every masked load of whole words of a range-checked buffer a load and a select."""

    name = "sched-unmask-loads"
    summary = ("a vector.maskedload of 32-bit (or wider) elements of a range-checked "
               "fat_raw_buffer made a vector.load and an arith.select (LLVM scalarises the "
               "masked load: a branch per element)")

    def run(self, module) -> list[OpError]:
        with module.context, ir.Location.unknown():
            for load in unmaskable(module):
                rewrite(load)
        return []
