"""The pipelined main loop's control on a 32-bit counter.

gfx950 compares 64-bit integers only on the VALU (``v_cmp_lt_i64``: two VGPRs and a
``v_mov_b64`` of the bound each iteration; the SALU has ``s_cmp_eq_u64``/``s_cmp_lg_u64``
only), so an ``index`` induction variable (64 bits after lowering) puts the main loop's
exit test on the vector unit.  When the analysis of the bounds
(:func:`pipeline_mlir.analysis.index_bounds.unsigned_bounds`) proves that the loop's first
position, bound and step fit an unsigned 32-bit counter that cannot wrap (bound + step - 1
below 2**32, step at least 1), the lowering runs the main loop on ``i32`` with an unsigned
compare (``scf.for unsigned``): the same iterations, and LLVM keeps the counter, its
increment and the exit test on the SALU (``s_addk_i32``, ``s_cmp_lt_u32``).

Where the body's ``index`` K position comes from is a register trade that LLVM decides
late, so it follows one rule (:func:`carries_k_position`), measured on every shipped
kernel and every 256x256 one (``docs/kernels.md``, "The main loop's counter"):

* **a loop with a zero-trip path** (the plan's zero-trip fence: the 4-wave kernels by
  default) casts it from the counter where it is used (:func:`k_position`): nothing else
  crosses the loop.  Carrying a second, 64-bit position there put one more loop result
  on the join of the zero-trip path and the loop's exit, where the epilogue's
  accumulators already meet, and the MXFP8 256x256 kernel spilled 4 VGPRs in its epilogue.
* **a loop without one** (ping-pong, ``loop_once``) carries it as the loop's last
  ``iter_arg`` (first position, plus the step each iteration): cast from the counter,
  LLVM gave two of the ping-pong loop's DMAs their K column in a VGPR (two
  ``v_add_u32`` each iteration) and the FP8 kernel spilled two VGPRs.

A bound it cannot prove (an ``index`` kernel argument used as is) keeps the ``index`` loop;
the split the front end cuts a run-time trip count at is clamped so that it can
(:func:`pipeline_mlir.frontend.tails.clamp_split`).
"""

from __future__ import annotations

from pipeline_mlir.analysis.index_bounds import U32_MAX, unsigned_bounds
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir


def narrowed_bounds(start, ub, step) -> tuple | None:
    """``(start, ub, step)`` cast to ``i32`` (created at the current insertion point) when
    a loop over them runs exactly on an unsigned 32-bit counter (module docstring), else
    None (nothing created)."""
    if not all(isinstance(x.type, ir.IndexType) for x in (start, ub, step)):
        return None
    r = [unsigned_bounds(x) for x in (start, ub, step)]
    if None in r or r[2][0] == 0 or r[0][1] > U32_MAX or r[1][1] + r[2][1] - 1 > U32_MAX:
        return None
    i32 = ir.IntegerType.get_signless(32)
    return tuple(B.arith.index_castui(i32, x) for x in (start, ub, step))


def unsigned_loop(start, ub, step, inits: list):
    """An ``scf.for unsigned`` over the ``i32`` bounds :func:`narrowed_bounds` made,
    carrying ``inits``."""
    loop = B.scf.ForOp(start, ub, step, inits)
    loop.operation.attributes["unsignedCmp"] = ir.UnitAttr.get()
    return loop


def carries_k_position(zero_trip_path: bool) -> bool:
    """Whether a main loop on a 32-bit counter carries its ``index`` K position as an
    ``iter_arg`` (True) or casts it from the counter (:func:`k_position`): carried unless
    the loop has a zero-trip path (module docstring)."""
    return not zero_trip_path


def k_position(counter):
    """The ``index`` K position of the 32-bit counter ``counter`` (in the loop body): its
    unsigned cast, exact because :func:`narrowed_bounds` proved every value it takes
    fits."""
    return B.arith.index_castui(ir.IndexType.get(), counter)


__all__ = ["U32_MAX", "carries_k_position", "k_position", "narrowed_bounds", "unsigned_loop"]
