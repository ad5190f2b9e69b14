"""Copies masked by a size known only at launch (IREE's padded dynamic-M/N kernels) made
plain copies of a range-checked buffer.

With M (or M and N) known only at launch and ``padding`` in its lowering config, IREE
3.13 copies each row of the A (B) tile through registers, masked by whether the row is
below M (N): at its prefetch point, per thread,

* ``vector.transfer_read`` of a ``memref.subview`` of the global buffer at ``[row, col]``
  of sizes ``[s, W]``, masked by ``vector.create_mask s, W`` (``s`` is 1 or 0: the row is
  read or the padding, zero, is taken), into a private ``memref.alloca`` of ``1 x W``;
* after the barrier, an ``scf.for`` of constant bounds copying the private row, ``w``
  elements at a time, into ``memref.subview`` of the LDS tile at ``[lr, lc]``.

:func:`unmask_row_copies` shows what that copies, on every thread, and replaces it by
copies the pipeline takes.  The workgroup loop (``scf.forall``) runs ``ceildiv(L, T)``
tiles over the launch value ``L`` that sizes the buffer's first dimension; at every
workgroup ``g`` and every ``L = T g + t`` for ``t`` in ``1 .. T + 2`` (the partial last
tile, the full one and past it) and ``t`` = ``2T + 3``, ``4T + 3`` and ``1001T + 3``, at
``g`` = 0, 1 and 40961, each thread's mask size ``s``, row,
column and LDS position are evaluated (the per-lane evaluator, every other launch value
refused), and must say:

* ``s`` is 0 or 1;
* a read row is the workgroup's ``T g + lr``: the LDS row ``lr`` of the tile holds row
  ``T g + lr`` of the buffer;
* a masked row has ``T g + lr >= L``: it lies past the buffer's end, where a read of a
  range-checked buffer (``amdgpu.fat_raw_buffer_cast``, its size the binding's) returns
  zero, the padding (which must be the constant 0 with every bit clear, not -0.0:
  :func:`~pipeline_mlir.analysis.ir_facts.zero_bits`);
* ``col - lc`` is the same for every thread (the K offset), and the threads' runs of ``W``
  cover the LDS tile exactly once.

So the LDS tile holds ``A[T g + r, k + c]`` at ``(r, c)``, zero past the end, which is what
the new copies write: the tile's runs of ``w`` elements in lane order (run ``j * threads
+ tid``), each read from the range-checked view of the buffer and written to the tile (a
register copy, :mod:`~pipeline_mlir.frontend.regcopy` makes it a direct-to-LDS copy).
The values in the LDS are IREE's, element for element.  The evaluation over those
workgroups and sizes is a cross-check: the three row properties are then proven for every
workgroup and size (:mod:`~pipeline_mlir.frontend.row_proof`), and a mask that proof
cannot settle is refused at the read.  A copy of this
shape that fails a check is an error at its read; masked reads of other shapes are left
to :mod:`~pipeline_mlir.frontend.masks`.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op, index_constant
from pipeline_mlir.analysis.ir_facts import (block_size, constant_bounds, constant_int,
                                             dense_i64, memory_space, segments, zero_bits)
from pipeline_mlir.analysis.loop_eval import DYNAMIC, Evaluator
from pipeline_mlir.analysis.views import view_root
from pipeline_mlir.frontend.dynamic_masks import foreign_source, source_text
from pipeline_mlir.frontend.kernel_ir import (depends, describe, erase_unused, fat_raw_view,
                                              kernel_of, owner, range_checked)
from pipeline_mlir.frontend.row_proof import Form, prove_rows

#: workgroup indices the copies are evaluated at (module docstring)
WORKGROUPS = (0, 1, 40961)
#: rows left to the workgroup past ``1 .. T + 2``, in tiles (module docstring)
FAR = (2, 4, 1001)
_VIEWS = ("memref.assume_alignment", "memref.cast")


def unmask_row_copies(loop) -> int:
    """Replace every row-masked register copy directly in ``loop``'s body (module
    docstring); the number replaced."""
    done = 0
    fat: dict = {}
    # the candidates first: a rewrite erases ops of the body (never another candidate)
    reads = [o for o in map(_op, loop.regions[0].blocks[0].operations)
             if o.name == "vector.transfer_read" and segments(o)[3]]
    for read in reads:
        parts = _match(read, loop)
        if parts is None:
            continue
        plan = _prove(read, loop, parts)
        _rewrite(read, parts, plan, fat)
        done += 1
    return done


def _match(read, loop) -> dict | None:
    """The parts of a row-masked register copy whose read is ``read`` (module docstring),
    or None when ``read`` is not one."""
    src, idx, pad, mask = segments(read)[:4]
    vt = ir.VectorType(read.results[0].type)
    cm, sv = owner(mask[0], "vector.create_mask"), owner(src[0], "memref.subview")
    uses = [_op(u.owner) for u in read.results[0].uses]
    if cm is None or sv is None or vt.rank != 2 or vt.shape[0] != 1 or len(uses) != 1 or \
            uses[0].name != "vector.transfer_write":
        return None
    size, width = list(cm.operands)
    sizes = dense_i64(sv, "static_sizes")
    dyn_off, dyn_size = segments(sv)[1], segments(sv)[2]
    if sizes[1:] != [vt.shape[1]] or sizes[0] != DYNAMIC or list(dyn_size) != [size] or \
            constant_int(width) != vt.shape[1] or any(constant_int(i) != 0 for i in idx):
        return None
    priv = uses[0].operands[1]
    alloca = owner(priv, "memref.alloca")
    store = _store_loop(priv, uses[0], loop)
    if alloca is None or store is None:
        return None
    offsets = dense_i64(sv, "static_offsets")
    dyn = iter(dyn_off)
    row, col = (next(dyn) if o == DYNAMIC else o for o in offsets)
    buf = sv.operands[0]
    return {"size": size, "row": row, "col": col, "buf": buf, "pad": pad[0], "mask": cm,
            "view": sv, "write": uses[0], "alloca": alloca, "store": store[0],
            "lds": store[1], "w": store[2], "inner": store[3], "width": vt.shape[1]}


def _store_loop(priv, write, loop):
    """(the ``scf.for`` copying private row ``priv`` to LDS, the LDS subview it writes,
    its run ``w``) when ``priv``'s only other user is such a loop in ``loop``'s body."""
    others = [_op(u.owner) for u in priv.uses if _op(u.owner) != write]
    if len(others) != 1 or others[0].name != "memref.subview":
        return None
    inner = others[0].parent
    if inner is None or inner.name != "scf.for" or inner.parent != loop or \
            constant_bounds(inner) is None:
        return None
    ops = [_op(o) for o in inner.regions[0].blocks[0].operations]
    if [o.name for o in ops] != ["memref.subview", "memref.subview", "vector.transfer_read",
                                 "vector.transfer_write", "scf.yield"]:
        return None
    lds = owner(ops[1].operands[0], "memref.subview")
    if lds is None or memory_space(lds.results[0].type) != "workgroup" or \
            ops[2].operands[0] != ops[0].results[0] or ops[3].operands[0] != \
            ops[2].results[0] or ops[3].operands[1] != ops[1].results[0]:
        return None
    lo, hi, step = constant_bounds(inner)
    w = ir.VectorType(ops[2].results[0].type).shape[-1]
    if lo != 0 or step != w or hi != dense_i64(lds, "static_sizes")[-1]:
        return None
    return inner, lds, w, ops[:4]


def launch_dim(read, buf):
    """The launch value sizing ``buf``'s first dimension (the dynamic size of the binding
    it views)."""
    v = view_root(buf, _VIEWS + ("amdgpu.fat_raw_buffer_cast",))
    sub = owner(v, "hal.interface.binding.subspan")
    t = ir.MemRefType(buf.type)
    if sub is None or t.rank != 2 or not ir.ShapedType(t).is_dynamic_dim(0) or \
            not t.has_static_shape and ir.ShapedType(t).is_dynamic_dim(1):
        static = sub is not None and t.rank == 2 and t.has_static_shape
        raise IRError(read, f"{describe(read)} masks rows of {t}: the front end takes "
                            f"row-masked copies only from a binding of rows known at launch "
                            f"and static columns (IREE's padded dynamic-M/N kernels)" + (
                                "; this binding's rows are static (a partial tile of C at "
                                "its edge), which the front end takes at the prefetch point "
                                "and in runs masked by their row and the K left, not in "
                                "this form"
                                if static else ""))
    return list(sub.operands)[-1]


def row_count(read, buf):
    """The rows of ``buf``: its static count when the binding it views has a static shape
    (a partial tile of C at its edge), else the launch value :func:`launch_dim` finds."""
    sub = owner(view_root(buf, _VIEWS + ("amdgpu.fat_raw_buffer_cast",)),
                "hal.interface.binding.subspan")
    t = ir.MemRefType(buf.type)
    if sub is not None and t.rank == 2 and t.has_static_shape:
        return t.shape[0]
    return launch_dim(read, buf)


def static_rows(rows) -> bool:
    """Whether a row count of :func:`row_count` is static (an ``int``: a binding of static
    rows, checked at every tile of its grid) rather than the launch value sizing the rows
    (an ``ir.Value``: sampled, then proven for every size)."""
    return isinstance(rows, int)


def _forall_of(loop):
    forall = loop.parent
    while forall is not None and forall.name != "scf.forall":
        forall = forall.parent
    return forall


def _static_workgroup(read, loop, rows: int, T: int, row):
    """(the ``scf.forall`` induction variable running over the ``ceildiv(rows, T)`` tiles
    of a static row count that the read ``row`` moves with, T)."""
    forall, tiles = _forall_of(loop), -(-rows // T)
    found = []
    if forall is not None:
        args = forall.regions[0].blocks[0].arguments
        ubs = dense_i64(forall, "staticUpperBound")
        found = [args[i] for i, ub in enumerate(ubs)
                 if ub == tiles and isinstance(row, ir.Value) and depends(row, {args[i]})]
        if not found and tiles == 1 and 1 in ubs:
            # one tile: every workgroup's is tile 0, which a dimension of one workgroup
            # (its induction variable always 0) stands for; IREE folds it out of the row
            found = [args[ubs.index(1)]]
    if len(found) != 1:
        raise IRError(read, f"{describe(read)} masks rows of a buffer of {rows} rows, but "
                            f"{'no' if not found else 'more than one'} workgroup dimension "
                            f"of {tiles} tiles of {T} rows moves its row; the masked rows "
                            f"cannot be tied to a workgroup's tile")
    return found[0], T


def workgroup_iv(read, loop, launch, tile_rows: int = 0, row=None):
    """(the ``scf.forall`` induction variable running over ``ceildiv(launch, T)``, T); for
    a static row count ``launch``, the dimension of its tiles of ``tile_rows`` (the LDS
    tile's) that the read ``row`` moves with."""
    if static_rows(launch):
        return _static_workgroup(read, loop, launch, tile_rows, row)
    forall = _forall_of(loop)
    if forall is not None:
        ubs = iter(segments(forall)[1])
        for i, ub in enumerate(dense_i64(forall, "staticUpperBound")):
            if ub != DYNAMIC:
                continue
            ap = owner(next(ubs), "affine.apply")
            m = ap and ir.AffineMapAttr(ap.attributes["map"]).value
            if m and list(ap.operands) == [launch] and len(m.results) == 1 and \
                    str(m.results[0]).startswith("s0 ceildiv "):
                return forall.regions[0].blocks[0].arguments[i], int(
                    str(m.results[0]).split()[-1])
    raise IRError(read, f"{describe(read)} masks rows by a size known at launch, but no "
                        f"workgroup loop runs over ceildiv(that size, tile); the masked rows "
                        f"cannot be tied to a workgroup's tile")


def lane_offsets(ev, view) -> list[np.ndarray]:
    """Per-thread offsets of ``memref.subview`` ``view``."""
    dyn = iter(segments(view)[1])
    return [ev.value(next(dyn)) if o == DYNAMIC else ev.const(o)
            for o in dense_i64(view, "static_offsets")]


def lane_value(ev, v) -> np.ndarray:
    return ev.value(v) if isinstance(v, ir.Value) else ev.const(v)


def sample_rows(ev, wg, launch, T: int, iv, k: int):
    """Bind, in turn, the workgroup ``wg`` to each of :data:`WORKGROUPS` and the launch's
    rows ``launch`` to each sampled end past the workgroup's first row (``1 .. T + 2``
    rows and the :data:`FAR` tiles), the K-loop's ``iv`` to ``k``; yield (the workgroup's
    first row, the rows' end) at each (module docstring).  For a static row count
    ``launch``, ``wg`` runs over every tile of the grid instead: the check is exhaustive."""
    if static_rows(launch):
        for g in range(-(-launch // T)):
            ev.bind(wg, g)
            ev.bind(iv, k)
            yield T * g, launch
        return
    for g in WORKGROUPS:
        for t in [*range(1, T + 3), *(T * f + 3 for f in FAR)]:
            ev.bind(wg, g)
            ev.bind(launch, T * g + t)
            ev.bind(iv, k)
            yield T * g, T * g + t


def _check_point(read, ev, p: dict, tile: tuple[int, int], base: int, end: int) -> None:
    """The checks of the module docstring at one workgroup (tile row ``base``) and one
    launch value ``end``."""
    lr, lc = lane_offsets(ev, p["lds"])
    check_row_masks(read, ev.value(p["size"]), lane_value(ev, p["row"]), lr, base, end)
    got = np.sort((lr[:, None] * tile[1] + lc[:, None] + np.arange(p["width"])).ravel())
    if not np.array_equal(got, np.arange(tile[0] * tile[1])):
        raise IRError(read, f"{describe(read)}: the copies do not write every element of "
                            f"the {tile[0]}x{tile[1]} LDS tile exactly once")


def check_row_masks(read, s, row, lr, base: int, end: int) -> None:
    """Per thread, the row mask ``s`` is 0 or 1, a read ``row`` is the workgroup's
    ``base + lr`` and a masked one lies at or past ``end`` (module docstring)."""
    where = f"at a size of {end} and the tile at row {base}"
    if not np.all((s == 0) | (s == 1)):
        raise IRError(read, f"{describe(read)} masks {sorted(set(s.tolist()))[:4]} rows "
                            f"{where}; a row-masked copy reads one row or none")
    if np.any((s == 1) & (row != base + lr)):
        raise IRError(read, f"{describe(read)} reads a row other than the one its LDS row "
                            f"holds in the workgroup's tile {where}")
    if np.any((s == 0) & (base + lr < end)):
        raise IRError(read, f"{describe(read)} masks a row below the size {where}; only "
                            f"rows past the buffer's end read zero from a range-checked "
                            f"buffer")


def prove_every_size(read, p: dict, wg, launch, T: int, iv, k: int, threads: int) -> None:
    """The row-mask properties :func:`check_row_masks` samples, proven for every workgroup
    and size (:mod:`~pipeline_mlir.frontend.row_proof`; the K-loop's ``iv`` at ``k``).  A
    static row count needs none: :func:`sample_rows` evaluated every tile of its grid."""
    values = {"size": p["size"], "row": p["row"], "lr": view_offsets(p["lds"])[0]}
    if static_rows(launch):
        # values other than the tile and the loop variable, evaluated at one sample, are
        # not proven at every tile
        for v in values.values():
            bad = foreign_source(v, {wg, iv})
            if bad is not None:
                raise IRError(read, f"{describe(read)} masks rows of a binding of static "
                                    f"rows by a value that depends on {source_text(bad)}, "
                                    f"not only on the workgroup's tile, the loop variable, "
                                    f"the thread and constants; the front end evaluates such "
                                    f"masks at every tile of the grid")
        return
    leaves = {wg: Form(g=1), launch: Form(g=T, d=1), iv: Form(c=k)}
    prove_rows(read, values, leaves, T, threads)


def flat_block(read, loop) -> tuple[int, int, int]:
    """The workgroup size of ``loop``'s kernel, which a row-masked copy ``read`` needs 1-D."""
    size = block_size(kernel_of(loop))
    if size is None or tuple(size[1:]) != (1, 1):
        raise IRError(read, f"{describe(read)}: a row-masked copy is taken in a 1-D "
                            f"workgroup (the kernel's is {size})")
    return size


def plain_access(op, offsets: list, sizes: list | None = None, masked: bool = False) -> bool:
    """``op`` (a view or a transfer) is unmasked (``masked``: may be), in bounds, of
    identity permutation and unit strides, at ``offsets`` (values or ints; a view: of
    ``sizes``)."""
    if op.name == "memref.subview":
        got = view_offsets(op)
        return dense_i64(op, "static_strides") == [1] * len(got) and got == offsets and (
            sizes is None or dense_i64(op, "static_sizes") == sizes)
    g = segments(op)
    rank = len(g[2] if op.name == "vector.transfer_write" else g[1])
    return (masked or not g[3]) and str(ir.AffineMapAttr(op.attributes["permutation_map"]).value) == \
        str(ir.AffineMap.get_identity(rank)) and [constant_int(i) for i in (
            g[2] if op.name == "vector.transfer_write" else g[1])] == offsets and all(
            str(x) == "true" for x in ir.ArrayAttr(op.attributes["in_bounds"]))


def _check_form(read, loop, p: dict, wg) -> None:
    """The copy is the plain one the module docstring describes: the row staged whole and
    stored ``w`` elements at a time at the same column, its row, mask size and LDS position
    the same in every iteration and workgroup of the other dimensions."""
    inner_iv = p["store"].regions[0].blocks[0].arguments[0]
    w, sub_p, sub_l, get, put = p["write"], *p["inner"]
    at = ir.MemRefType(p["alloca"].results[0].type)
    if not (plain_access(read, [0, 0], masked=True) and plain_access(p["view"], [p["row"], p["col"]]) and
            plain_access(w, [0, 0]) and list(at.shape) == [1, p["width"]] and
            plain_access(sub_p, [0, inner_iv], [1, p["w"]]) and plain_access(sub_l, [0, inner_iv]) and
            plain_access(get, [0, 0]) and plain_access(put, [0, 0]) and
            dense_i64(p["lds"], "static_strides") == [1, 1]):
        raise IRError(read, f"{describe(read)}: a row-masked copy stages one whole row, "
                            f"unmasked views and transfers of unit strides, and stores it to "
                            f"LDS at the columns it holds")
    check_tile_rows(read, loop, wg, (p["size"], p["row"], *view_offsets(p["lds"])),
                    "row, mask or LDS row")


def check_tile_rows(read, loop, wg, values, what: str) -> set:
    """None of ``values`` (the copy's ``what``: its row, its mask, its LDS row) changes
    with the K-loop or a workgroup dimension other than ``wg``'s (a row-masked copy masks
    the rows of its workgroup's tile); the other dimensions' induction variables."""
    forall = wg.owner.owner
    others = {a for a in forall.regions[0].blocks[0].arguments if a != wg}
    iv = loop.regions[0].blocks[0].arguments[0]
    if any(isinstance(v, ir.Value) and depends(v, others | {iv}) for v in values):
        raise IRError(read, f"{describe(read)}: its {what} changes with the K-loop or another "
                            f"workgroup dimension; a row-masked copy masks the rows of its "
                            f"workgroup's tile")
    return others


def refuse_nonzero_fill(read, how: str) -> None:
    """The error of a run masked by rows whose masked elements are not zero (``how``: what
    it does with them)."""
    raise IRError(read, f"{describe(read)} {how}; a range-checked read past the end returns "
                        f"zero, every bit clear (+0.0, not -0.0)")


def _prove(read, loop, p: dict) -> dict:
    """Check the row-masked copy ``p`` (module docstring); the plan of its rewrite."""
    if not zero_bits(p["pad"]):
        refuse_nonzero_fill(read, "pads masked rows with a value other than zero")
    tt = ir.MemRefType(p["lds"].operands[0].type)
    if tt.rank != 2 or not tt.has_static_shape or dense_i64(p["lds"], "static_sizes") != [
            1, p["width"]]:
        raise IRError(p["lds"], f"{describe(p['lds'])}: a row-masked copy writes one row "
                                f"of a static 2-D LDS tile")
    tile = tuple(tt.shape)
    launch = row_count(read, p["buf"])
    wg, T = workgroup_iv(read, loop, launch, tile[0], p["row"])
    _check_form(read, loop, p, wg)
    ev = Evaluator(flat_block(read, loop), launch_values=False)
    ev.where = read
    iv = loop.regions[0].blocks[0].arguments[0]
    lb, step = (constant_int(v) for v in (loop.operands[0], loop.operands[2]))
    if lb is None or step is None:
        raise IRError(loop, "'scf.for' op: a loop with row-masked copies needs a constant "
                            "lower bound and step")
    for base, end in sample_rows(ev, wg, launch, T, iv, lb):
        _check_point(read, ev, p, tile, base, end)
    prove_every_size(read, p, wg, launch, T, iv, lb, ev.threads)
    trips = constant_bounds(loop)
    for k in (range(lb, trips[1], step) if trips and step > 0 else (lb, lb + step)):
        ev.bind(iv, k)
        kb = lane_value(ev, p["col"]) - lane_offsets(ev, p["lds"])[1]
        if np.any(kb != kb[0]):
            raise IRError(read, f"{describe(read)} reads columns at different offsets from "
                                f"the LDS columns they fill in different threads")
    runs = tile[0] * tile[1] // p["w"]
    if runs % ev.threads or tile[1] % p["w"]:
        raise IRError(read, f"{describe(read)}: {runs} runs of {p['w']} elements do not "
                            f"split over {ev.threads} threads")
    return {"wg": wg, "T": T, "tile": tile, "copies": runs // ev.threads,
            "threads": ev.threads}


def fat_view(buf, loop, fat: dict):
    """A range-checked view of ``buf`` (``amdgpu.fat_raw_buffer_cast``, emitted before
    ``loop`` once per buffer)."""
    if memory_space(buf.type) == "fat_raw_buffer":
        _check_range(buf)
        return buf
    return fat_raw_view(buf, ir.InsertionPoint(loop), loop.location, fat)


def _check_range(buf) -> None:
    """The fat buffer ``buf`` that masked rows are read from past its end is checked against
    the range of its own shape: its ``amdgpu.fat_raw_buffer_cast`` has no ``validBytes``
    and no ``boundsCheck(false)`` (a read past the end must read zero, never memory)."""
    if not range_checked(buf):
        cast = owner(buf, "amdgpu.fat_raw_buffer_cast")
        at = cast if cast is not None else buf.owner
        raise IRError(at, f"{describe(at)}: masked rows are read past the end of this fat "
                          f"buffer, which must be range-checked by its own shape (a cast "
                          f"without validBytes or boundsCheck(false))")


def _rewrite(read, p: dict, plan: dict, fat: dict) -> None:
    """``read``'s copy replaced by plain copies of whole runs in lane order (module
    docstring)."""
    loop = read.parent
    src = fat_view(p["buf"], loop, fat)
    tile_v = p["lds"].operands[0]
    w, per_row = p["w"], plan["tile"][1] // p["w"]
    vt = ir.VectorType.get([w], ir.MemRefType(src.type).element_type)
    pm = ir.AffineMap.get_minor_identity(2, 1)
    # at the LDS stores (after the barrier that orders them after the last iteration's
    # reads): the register copy becomes a direct-to-LDS copy issued there
    with ir.InsertionPoint(p["store"]), read.location:
        tid = B.gpu.thread_id(B.gpu.Dimension.x, upper_bound=plan["threads"])
        lc = view_offsets(p["lds"])[1]
        kb = B.arith.subi(index_value(p["col"]), index_value(lc))
        rb = B.arith.muli(plan["wg"], index_value(plan["T"]))
        for j in range(plan["copies"]):
            c = B.arith.addi(tid, index_value(j * plan["threads"]))
            r = B.arith.divui(c, index_value(per_row))
            col = B.arith.muli(B.arith.remui(c, index_value(per_row)), index_value(w))
            v = B.vector.transfer_read(vt, src, [B.arith.addi(rb, r), B.arith.addi(kb, col)],
                                       pm, p["pad"], [True])
            B.vector.transfer_write(None, v, tile_v, [r, col], pm, [True])
    erase_tree(p["store"])
    p["write"].erase()
    erase_unused([read, p["mask"], p["view"], p["alloca"], p["lds"]])


def erase_tree(op) -> None:
    """Erase ``op`` and what it holds, innermost first (no Python handle outlives its op)."""
    for region in op.regions:
        for block in region.blocks:
            for o in reversed([_op(x) for x in block.operations]):
                erase_tree(o)
    op.erase()


def index_value(v):
    """``v`` as an ``index`` value: an ``arith.constant`` for an int, else ``v`` itself."""
    return index_constant(v) if isinstance(v, int) else v


def view_offsets(view) -> list:
    """The offsets of ``memref.subview`` ``view``: values, or ints where static."""
    dyn = iter(segments(view)[1])
    return [next(dyn) if o == DYNAMIC else o for o in dense_i64(view, "static_offsets")]
