"""A proof, for every size, of the row guards of IREE's padded kernels in the late form.

:mod:`~pipeline_mlir.frontend.masked_rows_late` and
:mod:`~pipeline_mlir.frontend.masked_rows_k_late` replace each guarded row read by a read of
a range-checked buffer at ``[guard ? row : L, col]``; it computes what IREE's read does only
if, where the guard holds, the row lies in the buffer: ``0 <= row < L``.  They check that by
evaluation at sampled workgroups and sizes; :func:`prove_guarded_rows` proves it for every
size with the affine forms of :mod:`~pipeline_mlir.frontend.row_proof` (the sampling stays,
a cross-check).  The front end's own copies of that buffer read, in every workgroup and at
every size, each thread's row of the sampled launch moved with the workgroup's tile
(:mod:`~pipeline_mlir.frontend.every_workgroup` leaves the row's select, marked
``sched.proven_row``, to this proof), so it also takes, per thread, where the guard holds
one row ``T g + c`` of the tile, the same ``c`` at every size, and the guard false only
where ``T g + c`` lies at or past ``L`` (:class:`_OneRow`).

The late form's workgroup is the variable ``v`` of the linearised workgroup loop
(``scf.for v = id to ub step count``, so ``v >= 0``): its tile along the size is ``g = v
div X`` where the loop's bound is ``X ceildiv(L, T)`` (X tiles across, a constant or a
launch value: the rows of A), or ``g = v mod X`` where ``X`` is ``ceildiv(L, T)`` (the
rows of B when N is a launch value).  Either way ``g < ceildiv(L, T)`` (``v < X
ceildiv(L, T)`` makes ``X > 0`` wherever the loop runs): ``L = T g + d`` with ``d >= 1``,
the sizes the proof covers.  Each such divide of ``v`` is the leaf ``g``; any other use of
``v`` on the way to the guard or the row is left unproven (refused at the read, with the
reason a divide was not taken).  Those relations are proven for every size too
(:func:`tile_rows`): writing the size ``L = T q + r`` (``q >= 0``, ``1 <= r <= T``, so
``ceildiv(L, T) = q + 1``), the value that must be ``ceildiv(L, T)`` (the divisor ``X``
of a remainder; the bound over ``X`` of a divide, when ``X`` is a constant; the other
factor of the bound's product ``X * c`` when ``X`` varies) is evaluated as an affine form
of ``q`` and ``r`` by :class:`~pipeline_mlir.frontend.row_proof.SymbolicRows` (``r``'s
range finite, so a division the form cannot keep affine splits it into single sizes) and
must be ``q + 1`` on every piece: a value that depends on anything but the size (another
launch value, the thread id, a load) is not proven, so its divide is not a leaf.  The
loop's bound is no longer sampled; a bound that equals ``X ceildiv(L, T)`` at every
sampled size but not at some other is refused (``test_masked_rows_late.py``).
:func:`~pipeline_mlir.frontend.masked_rows_late.workgroup_loop` still finds ``T`` by
evaluation (the largest size of one tile), which the proof then holds to.

The forms are exact integers, with no wrap: the late kernels compute the row and the
guard in ``index`` (64 bits) from the size, ``T g`` and the thread id, below ``2^53``
where IREE's ``util.assume.int`` bounds the size, so a 64-bit wrap cannot occur there; an
op narrower than 64 bits whose form depends on the workgroup or the size (an ``i32``
computation of a row, which wraps from ``2^31``) is left unproven and refused.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import constant_int
from pipeline_mlir.analysis.loop_eval import grid_stride
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import depends, describe, kernel_of, owner
from pipeline_mlir.frontend.row_proof import (MAX_PIECES, POINTS, Form, Piece, Split,
                                              SymbolicRows, Unproven, check_guarded_piece,
                                              prove_rows, no_thread_id)

#: the divides of the workgroup loop's variable that give its tile row (``v div X``) or
#: column (``v mod X``)
DIVIDES = ("arith.divui", "arith.floordivsi", "arith.divsi")
REMAINDERS = ("arith.remui", "arith.remsi")


def tile_rows(wl, launch, T: int) -> tuple[list, list]:
    """(the values of the linearised workgroup loop ``wl``'s variable ``v`` that are the
    workgroup's tile ``g`` along the size ``launch``, the reasons the other divides of
    ``v`` are not): ``v div X`` where the loop's bound is ``X ceildiv(L, T)``, ``v mod X``
    where ``X`` is ``ceildiv(L, T)``, each relation proven for every size (module
    docstring)."""
    v = wl.regions[0].blocks[0].arguments[0]
    out, why = [], []
    for use in v.uses:
        o = _op(use.owner)
        if o.operands[0] != v or o.name not in DIVIDES + REMAINDERS:
            continue
        reason = _relation(wl, launch, T, o.operands[1], o.name in DIVIDES)
        if reason:
            why.append(f"{describe(o)} is not proven the workgroup's tile along the size: "
                       f"{reason}")
        else:
            out.append(o.results[0])
    return out, why


def workgroup_loop_of(op):
    """The linearised workgroup loop (a grid-stride ``scf.for``) around ``op``, or None."""
    p = op.parent
    while p is not None and not (_op(p).name == "scf.for" and grid_stride(_op(p))):
        p = p.parent
    return None if p is None else _op(p)


def late_tiles(loop) -> list:
    """(tile ``g``, launch value ``L``, tile ``T``) of each value of the linearised
    workgroup loop around ``loop`` that :func:`tile_rows` proves a tile along a dynamic
    size ``L`` of a binding, computed outside ``loop`` (a value computed inside is no
    workgroup value: a test before the loop could not use it); ``T`` each constant factor
    (its magnitude, above 1) of a product outside ``loop`` of a value computed from the
    workgroup loop's variable."""
    wl = workgroup_loop_of(loop)
    if wl is None:
        return []
    v = wl.regions[0].blocks[0].arguments[0]
    sizes = []
    for sub in walk_ops(kernel_of(loop), lambda x: x.name == "hal.interface.binding.subspan"):
        t = ir.MemRefType(_op(sub).results[0].type)
        n = sum(1 for d in range(t.rank) if ir.ShapedType(t).is_dynamic_dim(d))
        operands = list(_op(sub).operands)
        sizes += [x for x in operands[len(operands) - n:] if x not in sizes]
    factors = set()
    for o in map(_op, walk_ops(wl, lambda x: x.name == "arith.muli")):
        for i in (0, 1):
            k = constant_int(o.operands[1 - i])
            if k is not None and abs(k) > 1 and not inside(o.results[0], loop) and \
                    depends(o.operands[i], {v}):
                factors.add(abs(k))
    return [(g, size, T) for T in sorted(factors) for size in sizes
            for g in tile_rows(wl, size, T)[0] if not inside(g, loop)]


def tile_values(loop) -> frozenset:
    """The workgroup tiles of :func:`late_tiles` and IREE's correction of each for a
    negative remainder, ``select(g < 0, g + X, g)`` (the tile ``g``: a tile is never
    negative, ``v >= 0`` and ``X > 0`` where the loop runs, so the select is ``g``)."""
    out = set()
    for g, _, _ in late_tiles(loop):
        out.add(g)
        for use in g.uses:
            cmp = _op(use.owner)
            if cmp.name != "arith.cmpi" or list(cmp.operands)[0] != g or \
                    constant_int(cmp.operands[1]) != 0 or \
                    ir.IntegerAttr(cmp.attributes["predicate"]).value != 2:    # slt
                continue
            for u in cmp.results[0].uses:
                sel = _op(u.owner)
                if sel.name == "arith.select" and u.operand_number == 0 and \
                        sel.operands[2] == g:
                    out.add(sel.results[0])
    return frozenset(out)


def inside(v, loop) -> bool:
    """Whether ``v`` is defined in ``loop`` (its op or block nested in it)."""
    p = v.owner.owner if isinstance(v.owner, ir.Block) else _op(v.owner)
    while p is not None:
        if _op(p) == loop:
            return True
        p = p.parent
    return False


def _relation(wl, launch, T: int, divisor, divides: bool) -> str:
    """Why ``v div divisor`` (``divides``) or ``v mod divisor`` is not proven to be a tile
    below ``ceildiv(L, T)`` for every size; '' when it is (module docstring)."""
    if not divides:
        return _tiles(divisor, launch, T, 1, "its divisor")
    ub, k = wl.operands[1], constant_int(divisor)
    if k is not None:
        if k <= 0:
            return f"it divides by {k}"
        return _tiles(ub, launch, T, k, f"the workgroup loop's bound over {k}")
    prod = owner(ub, "arith.muli")
    if prod is None or divisor not in list(prod.operands):
        return ("its divisor varies and the workgroup loop's bound is not a product of it "
                "and ceildiv(the size, a tile)")
    other = prod.operands[1] if prod.operands[0] == divisor else prod.operands[0]
    return _tiles(other, launch, T, 1, "the workgroup loop's bound over its divisor")


def _tiles(value, launch, T: int, k: int, what: str) -> str:
    """Why ``value`` is not proven to be ``k ceildiv(L, T)`` for every size ``L = T q +
    r``, ``q >= 0``, ``1 <= r <= T`` (``what`` names it); '' when it is."""
    pieces, done = [Piece(1, T)], 0
    while pieces:
        piece = pieces.pop()
        try:
            f = SymbolicRows({launch: Form(g=T, d=1)}, piece, 0, {}, {}).form(value)
        except Split as s:
            pieces += [Piece(piece.lo, s.at - 1), Piece(s.at, piece.hi)]
            continue
        except Unproven as u:
            return f"{what} is not proven ceildiv(the size, {T}) for every size ({u})"
        if not isinstance(value.owner, ir.Block) and not no_thread_id(_op(value.owner)):
            return f"{what} depends on the thread id"
        diff = f - Form(g=k, c=k)
        if (diff.g, diff.d, diff.c) != (0, 0, 0):
            sizes = f"{T} q + {piece.lo}" + (f" .. {T} q + {piece.hi}" if piece.hi != piece.lo
                                             else "")
            return (f"{what} is {_qr(f)} at the sizes {sizes} (any q >= 0), not "
                    f"{'' if k == 1 else f'{k} '}ceildiv(the size, {T}) = "
                    f"{_qr(Form(g=k, c=k))}")
        done += 1
        if done + len(pieces) > MAX_PIECES:
            return f"{what} is not proven for every size (more than {MAX_PIECES} pieces)"
    return ""


def _qr(f: Form) -> str:
    """``f`` (``g`` standing for ``q``, ``d`` for ``r``) as text: ``32 q + 64``."""
    terms = [f"{c} {x}" if c != 1 else x for c, x in ((f.g, "q"), (f.d, "r")) if c]
    text = " + ".join(terms + ([str(f.c)] if f.c or not terms else []))
    return text.replace("+ -", "- ")


def prove_guarded_rows(op, guard, row, wl, launch, T: int, threads: int,
                       fixed: dict | None = None) -> int:
    """Prove, on every thread, for every tile ``g`` along the size and every size ``L = T g
    + d`` (``d >= 1``), that where ``guard`` holds ``0 <= row < L`` (module docstring);
    ``launch`` is ``L``, ``wl`` the linearised workgroup loop, ``fixed`` more leaves (the
    K-loop's variable at its first value).  The number of pieces proven; an
    :class:`~pipeline_mlir.dialect.ir_io.IRError` at ``op`` where it fails or is not
    settled (with the reasons a divide of the workgroup loop's variable is not its
    tile)."""
    tiles, why = tile_rows(wl, launch, T)
    leaves = {launch: Form(g=T, d=1), **{r: Form(g=1) for r in tiles}, **(fixed or {})}
    rows = _OneRow()
    try:
        done = prove_rows(op, {"size": guard, "row": row}, leaves, T, threads, rows)
    except IRError as e:
        if not why:
            raise
        raise IRError(e.op, f"{e}; {'; '.join(why)}") from None
    wrong = rows.wrong()
    if wrong is not None:
        raise IRError(op, f"{describe(op)} {wrong}: the front end's copies read, in every "
                          f"workgroup and at every size, the row each thread reads at the "
                          f"sampled launch, moved with the workgroup's tile, and a "
                          f"range-checked buffer gives zeros only past the size")
    return done


class _OneRow:
    """:func:`~pipeline_mlir.frontend.row_proof.check_guarded_piece`, and what the front
    end's copies, moved from thread 0 by the offsets of the sampled launch, need besides:
    where the guard holds, each thread reads the row ``T g + c`` of the workgroup's tile,
    one ``c`` per thread at every size (not one that moves with the size: a row picked by
    the size, or by the edge tile, is read at the sample by another thread); where it does
    not, ``T g + c`` lies at or past the size (:meth:`wrong`: the guard fails
    nowhere the front end's read of that row gets data)."""

    def __init__(self) -> None:
        self.rows: dict[int, list] = {}
        self.masked: dict[int, list] = {}

    def __call__(self, sr, values: dict, T: int) -> None:
        check_guarded_piece(sr, values, T)
        piece = sr.piece
        where = (piece.lo, piece.hi)
        if sr.form(values["size"]).const() != 1:
            self.masked.setdefault(sr.tid, []).append(where)
            return
        row = sr.form(values["row"])
        off = row - Form(g=T)
        if off.d and not off.g and piece.hi is not None and piece.hi - piece.lo < POINTS:
            piece.sign(off - Form(c=off.c + off.d * piece.lo))   # (cut into single sizes)
        one = not off.g and (not off.d or piece.hi == piece.lo)
        self.rows.setdefault(sr.tid, []).append(
            (where, off.c + off.d * piece.lo if one else None, row))

    def wrong(self) -> str | None:
        """The first place, as words, where a thread's row is not one ``T g + c`` at every
        size, or its guard fails though ``T g + c`` lies below the size ``T g + d`` (``d
        <= c`` is needed); None if nowhere."""
        def at(tid, lo, hi):
            return f"on thread {tid} at sizes T g + d for d in {lo} .. " \
                   f"{'any' if hi is None else hi}"
        cs = {}
        for tid, seen in self.rows.items():
            for (lo, hi), c, row in seen:
                if c is None:
                    return (f"reads the row {row} {at(tid, lo, hi)}, not one row T g + c of "
                            f"the workgroup's tile")
                if cs.setdefault(tid, c) != c:
                    return (f"reads the tile's row {c} {at(tid, lo, hi)} and its row "
                            f"{cs[tid]} at other sizes")
        for tid, pieces in self.masked.items():
            c = cs.get(tid)
            for lo, hi in pieces:
                if c is not None and (hi is None or hi > c):
                    return (f"guards out its row T g + {c} {at(tid, max(lo, c + 1), hi)}, "
                            f"where that row lies below the size")
        return None
