"""A proof, for every size, of the row guards of IREE's padded kernels in the late form.

:mod:`~pipeline_mlir.frontend.masked_rows_late` and
:mod:`~pipeline_mlir.frontend.masked_rows_k_late` replace each guarded row read by a read of
a range-checked buffer at ``[guard ? row : L, col]``; it computes what IREE's read does only
if, where the guard holds, the row lies in the buffer: ``0 <= row < L``.  They check that by
evaluation at sampled workgroups and sizes; :func:`prove_guarded_rows` proves it for every
size with the affine forms of :mod:`~pipeline_mlir.frontend.row_proof` (the sampling stays,
a cross-check).

The late form's workgroup is the variable ``v`` of the linearised workgroup loop
(``scf.for v = id to ub step count``): its tile along the size is ``g = v div X`` where the
loop's bound is ``X ceildiv(L, T)`` (X tiles across, a constant or a launch value: the rows
of A), or ``g = v mod X`` where ``X`` is ``ceildiv(L, T)`` (the rows of B when N is a launch
value).  Either way ``g < ceildiv(L, T)``: ``L = T g + d`` with ``d >= 1``, the sizes the
proof covers.  Each such divide of ``v`` is the leaf ``g``; any other use of ``v`` on the
way to the guard or the row is left unproven (refused at the read).  Which divides those
are, and the loop's bound (:func:`~pipeline_mlir.frontend.masked_rows_late.workgroup_loop`),
is checked by evaluation at the sampled sizes and the kernel's other launch values (a few
integer ops, IREE's ``ceildiv``); the proof covers the guards and rows for every size.

The forms are exact integers, with no wrap: the late kernels compute the row and the
guard in ``index`` (64 bits) from the size, ``T g`` and the thread id, below ``2^53``
where IREE's ``util.assume.int`` bounds the size, so a 64-bit wrap cannot occur there; an
op narrower than 64 bits whose form depends on the workgroup or the size (an ``i32``
computation of a row, which wraps from ``2^31``) is left unproven and refused.
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.row_proof import Form, check_guarded_piece, prove_rows

#: the divides of the workgroup loop's variable that give its tile row (``v div X``) or
#: column (``v mod X``)
DIVIDES = ("arith.divui", "arith.floordivsi", "arith.divsi")
REMAINDERS = ("arith.remui", "arith.remsi")


def tile_rows(wl, ev, launch, T: int, others: list, samples: list) -> list:
    """The values of the linearised workgroup loop ``wl``'s variable ``v`` that are the
    workgroup's tile ``g`` along the size ``launch`` (module docstring): ``v div X`` where
    the loop's bound is ``X ceildiv(L, T)``, ``v mod X`` where ``X`` is ``ceildiv(L, T)``,
    each relation checked by evaluation (``ev``) at ``samples``: (size, value of the
    kernel's other launch values ``others``) pairs."""
    v = wl.regions[0].blocks[0].arguments[0]
    out = []
    for use in v.uses:
        o = _op(use.owner)
        if o.operands[0] != v or o.name not in DIVIDES + REMAINDERS:
            continue
        if all(_relation(ev, wl, launch, T, others, o.operands[1], o.name in DIVIDES, n, x)
               for n, x in samples):
            out.append(o.results[0])
    return out


def _relation(ev, wl, launch, T: int, others: list, divisor, divides: bool, n: int,
              other: int) -> bool:
    """At size ``n`` and the other launch values at ``other``: the loop's bound is
    ``divisor * ceildiv(n, T)`` (``divides``), or ``divisor`` is ``ceildiv(n, T)``."""
    for o in others:
        ev.bind(o, other)
    ev.bind(launch, n)
    x, ub = ev.uniform(divisor), ev.uniform(wl.operands[1])
    if x is None or x <= 0:
        return False
    return ub == x * -(-n // T) if divides else x == -(-n // T)


def prove_guarded_rows(op, guard, row, wl, launch, T: int, threads: int, ev, others: list,
                       samples: list, fixed: dict | None = None) -> int:
    """Prove, on every thread, for every tile ``g`` along the size and every size ``L = T g
    + d`` (``d >= 1``), that where ``guard`` holds ``0 <= row < L`` (module docstring);
    ``launch`` is ``L``, ``wl`` the linearised workgroup loop, ``ev`` the copy's evaluator
    (its bindings of the launch values are changed) and ``samples`` those of
    :func:`tile_rows`, ``fixed`` more leaves (the K-loop's
    variable at its first value).  The number of pieces proven; an
    :class:`~pipeline_mlir.dialect.ir_io.IRError` at ``op`` where it fails or is not
    settled."""
    leaves = {launch: Form(g=T, d=1), **{r: Form(g=1) for r in tile_rows(
        wl, ev, launch, T, others, samples)}, **(fixed or {})}
    return prove_rows(op, {"size": guard, "row": row}, leaves, T, threads,
                      check_guarded_piece)
