"""A kernel's whole-tile copies into private memory made loops of row copies (the campaign's
unpipelined reference build of IREE's dynamic-K kernel).

IREE's forced dynamic-K kernel copies each LDS tile whole into a private buffer every
K-loop iteration: at the prefetch point one 2-D ``vector.transfer_read`` of the tile
(masked by a ``vector.create_mask`` of all rows and the K left) written whole by one
``vector.transfer_write``, in the late form one ``vector.maskedload`` per row followed by
one ``vector.store`` per row.  Lowered as written, that is 128 rows of straight-line code
per tile, selected element by element, stored to scratch: LLVM spends most of the build
(its register allocator and machine scheduler) on those blocks, ten seconds of CPU and
minutes of wall time on a loaded machine, far more than the pipelined build, which reads
the tile in place (``frontend/masked_stage.py``).  :func:`rolled` rewrites each such copy
into an ``scf.for`` over the rows, each iteration the copy of one row with that row's mask
(the same row mask for every row below the mask's row count, none past it): the same
elements written, in the same program position, since the copies read memory only their
own stores could change (workgroup memory read, private memory written) and nothing runs
between them.

Where the elements are 16-bit, the mask a ``vector.create_mask`` of the K left and the
pass-through +0.0 (every bit clear), a row's select by the mask is an AND of its 32-bit
words with the mask's bits (two elements a word), made once before the loop (the same bits
written: a masked-off element is all zero bits either way).  As a select LLVM recomputes
the mask per element and row (four instructions an element), and the emulator runs every
row of every tile of every wave of the reference: the AND is about a quarter of that.

It is a textual rewrite of the two shapes ``iree-compile`` writes, applied only where every
condition is read off the text: the read's only use is the write, the indices' constants are
resolved by value (a mutant may change one), rows consecutive; anything else is left as it
is (built as written, slowly).  It checks nothing of the front end: the reference stays
IREE's kernel, its copies looped.
"""

from __future__ import annotations

import re

#: fewer rows than this are left unrolled
MIN_ROWS = 8

_CONST = re.compile(r"^\s*(%[\w.]+) = arith\.constant (-?\d+) : index\s*$")
_MASK1 = re.compile(r"^\s*(%\w+) = vector\.create_mask (%\w+) : vector<(\d+)xi1>\s*$")
_MASK2 = re.compile(r"^\s*(%\w+) = vector\.create_mask (%\w+), (%\w+) : vector<(\d+)x(\d+)xi1>\s*$")
_READ2 = re.compile(r"^(\s*)(%\w+) = vector\.transfer_read (%\w+)\[(%\w+), (%\w+)\], (%\w+), "
                    r"(%\w+) \{in_bounds = \[true, true\]\} : (memref<.*#gpu\.address_space"
                    r"<workgroup>>), vector<(\d+)x(\d+)x(\w+)>\s*$")
_WRITE2 = re.compile(r"^\s*vector\.transfer_write (%\w+), (%\w+)\[(%\w+), (%\w+)\] "
                     r"\{in_bounds = \[true, true\]\} : vector<(\d+)x(\d+)x(\w+)>, "
                     r"(memref<.*#gpu\.address_space<private>>)\s*$")
_MLOAD = re.compile(r"^(\s*)(%\w+) = vector\.maskedload (%\w+)\[(%\w+), (%\w+)\], (%\w+), "
                    r"(%\w+) : (memref<.*#gpu\.address_space<workgroup>>), (vector<\d+xi1>), "
                    r"(vector<\d+x\w+>) into (vector<\d+x\w+>)\s*$")
_STORE = re.compile(r"^\s*vector\.store (%\w+), (%\w+)\[(%\w+), (%\w+)\] : "
                    r"(memref<.*#gpu\.address_space<private>>), (vector<\d+x\w+>)\s*$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


class _Constants:
    """The ``index`` constant a name means on a line: its nearest definition that is in scope
    there (the printer reuses names in sibling regions), None when that is not an
    ``arith.constant``."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def definition(self, i: int, name: str) -> str | None:
        """The line defining ``name`` that is in scope on line ``i``, or None."""
        low = _indent(self.lines[i])
        for j in range(i - 1, -1, -1):
            ln = self.lines[j]
            if not ln.strip():
                continue
            ind = _indent(ln)
            if ind <= low and ln.lstrip().startswith(f"{name} = "):
                return ln
            low = min(low, ind)
        return None

    def at(self, i: int, name: str) -> int | None:
        ln = self.definition(i, name)
        m = _CONST.match(ln) if ln else None
        return int(m.group(2)) if m and m.group(1) == name else None


_STATIC = re.compile(r"^memref<(\d+)x(\d+)x(\w+), #gpu\.address_space<workgroup>>$")
_CAST = re.compile(r"^\s*(%\w+) = memref\.reinterpret_cast (%\w+) to offset: \[0\], sizes: "
                   r"\[\d+, %?\w+\], strides: \[(\d+), 1\] : (memref<[^>]*>>) to ")


def _static_base(lines: list[str], i: int, src: str, stype: str):
    """(buffer, its type, rows, columns) that ``src`` (of type ``stype``, read on line
    ``i``) indexes row by row as it is: itself when of a static row-major type in
    workgroup memory, or the buffer an offset-0 ``memref.reinterpret_cast`` with that
    buffer's row length as its stride views (defined in scope before line ``i``); else
    None."""
    m = _STATIC.match(stype)
    if m:
        return src, stype, int(m.group(1)), int(m.group(2))
    for j in range(i - 1, -1, -1):
        c = _CAST.match(lines[j])
        if c and c.group(1) == src and _indent(lines[j]) <= _indent(lines[i]):
            base = _STATIC.match(c.group(4))
            if base and int(c.group(3)) == int(base.group(2)):
                return c.group(2), c.group(4), int(base.group(1)), int(base.group(2))
            return None
    return None


def _row_read(tag: str, base, first_row: int, rows: int, col, cols: int, elem: str,
              mask: str, pad: str, vector_pad: bool,
              length: str | None = None) -> tuple[list[str], list[str]] | None:
    """(lines before the loop, the row's lines): a row read as an unmasked ``vector.load``
    of ``base`` and a select by ``mask`` (into ``%v_TAG``), when every row read lies inside
    ``base`` (the same elements a masked read gives: the pass-through where the mask is
    off), else None.  ``length``: the mask is ``vector.create_mask`` of it and the
    pass-through +0.0, so a row of 16-bit elements is ANDed with the mask's bits instead
    (:func:`_mask_words`)."""
    buf, btype, brows, bcols = base
    if None in (first_row, col) or first_row < 0 or first_row + rows > brows or col < 0 \
            or col + cols > bcols:
        return None
    vt = f"vector<{cols}x{elem}>"
    load = [f"%c_{tag} = arith.constant {col} : index",
            f"%l_{tag} = vector.load {buf}[%si_{tag}, %c_{tag}] : {btype}, {vt}"]
    if length is not None and elem in _HALF and cols % 2 == 0:
        wt = f"vector<{cols // 2}xi32>"
        return _mask_words(tag, length, cols), load + [
            f"%li_{tag} = vector.bitcast %l_{tag} : {vt} to {wt}",
            f"%ai_{tag} = arith.andi %li_{tag}, %mb_{tag} : {wt}",
            f"%v_{tag} = vector.bitcast %ai_{tag} : {wt} to {vt}"]
    splat = [] if vector_pad else [f"%p_{tag} = vector.broadcast {pad} : {elem} to {vt}"]
    return [], load + [*splat,
                       f"%v_{tag} = arith.select {mask}, %l_{tag}, "
                       f"{pad if vector_pad else f'%p_{tag}'} : vector<{cols}xi1>, {vt}"]


#: the 16-bit element types :func:`_row_read` masks by words
_HALF = ("bf16", "f16")
#: a +0.0 constant, scalar or splat (``-0.0`` has its sign bit set: not matched)
_ZERO = re.compile(r"^\s*(%\w+) = arith\.constant (?:dense<)?0\.0+e\+00>? : ")


def _mask_words(tag: str, length: str, cols: int) -> list[str]:
    """``%mb_TAG``, ``vector<cols/2 x i32>``: the bits of ``vector.create_mask length`` of
    ``cols`` 16-bit lanes, word ``j`` holding lanes ``2j`` (low half) and ``2j + 1``, each
    all ones where its lane is below ``length`` (clamped to ``0 .. cols`` as the mask is),
    as the sign of ``lane - length`` spread by an arithmetic shift (a select of all ones
    LLVM folds back into the row's select, per element)."""
    wt = f"vector<{cols // 2}xi32>"
    lanes = [", ".join(str(2 * j + h) for j in range(cols // 2)) for h in (0, 1)]
    return [f"%k0_{tag} = arith.constant 0 : index",
            f"%kc_{tag} = arith.constant {cols} : index",
            f"%kl_{tag} = arith.maxsi {length}, %k0_{tag} : index",
            f"%kh_{tag} = arith.minsi %kl_{tag}, %kc_{tag} : index",
            f"%ki_{tag} = arith.index_cast %kh_{tag} : index to i32",
            f"%ks_{tag} = vector.broadcast %ki_{tag} : i32 to {wt}",
            f"%ev_{tag} = arith.constant dense<[{lanes[0]}]> : {wt}",
            f"%od_{tag} = arith.constant dense<[{lanes[1]}]> : {wt}",
            f"%de_{tag} = arith.subi %ev_{tag}, %ks_{tag} : {wt}",
            f"%do_{tag} = arith.subi %od_{tag}, %ks_{tag} : {wt}",
            f"%s31_{tag} = arith.constant dense<31> : {wt}",
            f"%s16_{tag} = arith.constant dense<16> : {wt}",
            f"%lm_{tag} = arith.constant dense<65535> : {wt}",
            f"%le_{tag} = arith.shrsi %de_{tag}, %s31_{tag} : {wt}",
            f"%lo_{tag} = arith.andi %le_{tag}, %lm_{tag} : {wt}",
            f"%ho_{tag} = arith.shrsi %do_{tag}, %s31_{tag} : {wt}",
            f"%hi_{tag} = arith.shli %ho_{tag}, %s16_{tag} : {wt}",
            f"%mb_{tag} = arith.ori %lo_{tag}, %hi_{tag} : {wt}"]


def _zero(consts: _Constants, i: int, name: str) -> bool:
    """Whether ``name`` (seen from line ``i``) is a +0.0 constant, scalar or splat."""
    ln = consts.definition(i, name)
    z = _ZERO.match(ln) if ln else None
    return bool(z) and z.group(1) == name


def _mask_length(consts: _Constants, i: int, mask: str, cols: int) -> str | None:
    """The length of ``mask`` (seen from line ``i``) when it is a ``vector.create_mask`` of
    ``cols`` lanes, else None."""
    ln = consts.definition(i, mask)
    m = _MASK1.match(ln) if ln else None
    return m.group(2) if m and m.group(1) == mask and int(m.group(3)) == cols else None


def _used_once(lines: list[str], i: int, name: str) -> bool:
    """Whether value ``name``, defined on line ``i``, has one use in its scope: the lines
    after it up to the end of its block (a line indented less; the printer reuses a number
    in a sibling region)."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    token = re.compile(re.escape(name) + r"(?![\w.])")
    n = 0
    for ln in lines[i + 1:]:
        if ln.strip() and len(ln) - len(ln.lstrip()) < indent:
            break
        n += len(token.findall(ln))
    return n == 1


def _loop(pre: str, tag: str, rows: int, body: list[str],
          before: list[str] = ()) -> list[str]:
    """``scf.for %r_TAG = 0 to rows`` around ``body`` (which uses ``%r_TAG``, ``%z_TAG``),
    after the lines ``before``."""
    return [*[f"{pre}{b}" for b in before], f"{pre}%z_{tag} = arith.constant 0 : index",
            f"{pre}%o_{tag} = arith.constant 1 : index",
            f"{pre}%n_{tag} = arith.constant {rows} : index",
            f"{pre}scf.for %r_{tag} = %z_{tag} to %n_{tag} step %o_{tag} {{",
            *[f"{pre}  {b}" for b in body], f"{pre}}}"]


def _row(index: str, tag: str, which: str) -> tuple[list[str], str]:
    """(the op adding the row to ``index``, the row's index)."""
    name = f"%{which}_{tag}"
    return [f"{name} = arith.addi {index}, %r_{tag} : index"], name


def _roll_2d(lines: list[str], i: int, consts: _Constants, tag: str):
    """The 2-D read at line ``i`` and the write after it as a loop of rows, or None."""
    r, w = _READ2.match(lines[i]), _WRITE2.match(lines[i + 1]) if i + 1 < len(lines) else None
    if not r or not w or w.group(1) != r.group(2) or not _used_once(lines, i, r.group(2)):
        return None
    pre, _v, src, i0, j0, pad, mask, stype, rows, cols, elem = r.groups()
    _, dst, k0, l0, wr, wc, welem, dtype = w.groups()
    md = consts.definition(i, mask)
    mm = _MASK2.match(md) if md else None
    if (rows, cols, elem) != (wr, wc, welem) or int(rows) < MIN_ROWS or not mm:
        return None
    mrows, mcols, mr, mc = mm.groups()[1:]
    if (mr, mc) != (rows, cols) or (consts.at(i, mrows) or -1) < int(rows):
        return None    # a mask that cuts rows: left as it is
    a, si = _row(i0, tag, "si")
    b, di = _row(k0, tag, "di")
    base = _static_base(lines, i, src, stype)
    read = base and _row_read(tag, base, consts.at(i, i0), int(rows), consts.at(i, j0),
                              int(cols), elem, f"%m_{tag}", pad, vector_pad=False,
                              length=mcols if _zero(consts, i, pad) else None)
    before, read = read or ([], [f"%v_{tag} = vector.transfer_read {src}[{si}, {j0}], "
                                 f"{pad}, %m_{tag} {{in_bounds = [true]}} : {stype}, "
                                 f"vector<{cols}x{elem}>"])
    body = [*a, *b, f"%m_{tag} = vector.create_mask {mcols} : vector<{cols}xi1>", *read,
            f"vector.transfer_write %v_{tag}, {dst}[{di}, {l0}] {{in_bounds = [true]}} : "
            f"vector<{cols}x{elem}>, {dtype}"]
    return 2, _loop(pre, tag, int(rows), body, before)


def _roll_rows(lines: list[str], i: int, consts: _Constants, tag: str):
    """The run of row loads from line ``i`` and the run of stores after it as a loop, or
    None."""
    loads = []
    while i + len(loads) < len(lines) and (m := _MLOAD.match(lines[i + len(loads)])):
        loads.append(m)
    n = len(loads)
    if n < MIN_ROWS or i + 2 * n > len(lines):
        return None
    stores = [_STORE.match(ln) for ln in lines[i + n:i + 2 * n]]
    if not all(stores):
        return None
    first, s0 = loads[0], stores[0]
    pre, _, src, _, col, mask, pad, stype, mtype, vtype, rtype = first.groups()
    dst, dcol, dtype, svtype = s0.group(2), s0.group(4), s0.group(5), s0.group(6)
    r0, d0 = consts.at(i, first.group(4)), consts.at(i + n, s0.group(3))
    c0, e0 = consts.at(i, col), consts.at(i + n, dcol)
    if None in (r0, d0, c0, e0) or svtype != rtype:
        return None
    for k, (ld, st) in enumerate(zip(loads, stores)):
        same = (ld.group(3), ld.group(6), ld.group(7), ld.group(8)) == (src, mask, pad, stype)
        if (not same or consts.at(i + k, ld.group(5)) != c0
                or consts.at(i + k, ld.group(4)) != r0 + k or st.group(1) != ld.group(2)
                or not _used_once(lines, i + k, ld.group(2)) or st.group(2) != dst
                or consts.at(i + n + k, st.group(3)) != d0 + k
                or consts.at(i + n + k, st.group(4)) != e0 or st.group(5) != dtype):
            return None
    cols, elem = re.fullmatch(r"vector<(\d+)x(\w+)>", rtype).groups()
    base = _static_base(lines, i, src, stype)
    read = base and _row_read(tag, base, r0, n, c0, int(cols), elem, mask, pad,
                              vector_pad=True,
                              length=_mask_length(consts, i, mask, int(cols))
                              if _zero(consts, i, pad) else None)
    before, read = read or ([], [
        f"%c_{tag} = arith.constant {c0} : index",
        f"%v_{tag} = vector.maskedload {src}[%si_{tag}, %c_{tag}], {mask}, {pad} : "
        f"{stype}, {mtype}, {vtype} into {rtype}"])
    body = [f"%b_{tag} = arith.constant {r0} : index", f"%e_{tag} = arith.constant {d0} : index",
            f"%si_{tag} = arith.addi %b_{tag}, %r_{tag} : index",
            f"%di_{tag} = arith.addi %e_{tag}, %r_{tag} : index",
            f"%d_{tag} = arith.constant {e0} : index", *read,
            f"vector.store %v_{tag}, {dst}[%di_{tag}, %d_{tag}] : {dtype}, {svtype}"]
    return 2 * n, _loop(pre, tag, n, body, before)


def rolled(text: str) -> str:
    """``text`` with each whole-tile copy into private memory of the two shapes (module
    docstring) made a loop of row copies; the rest unchanged."""
    lines = text.split("\n")
    consts = _Constants(lines)
    out, i, n = [], 0, 0
    while i < len(lines):
        tag = f"roll{n}"
        done = (_roll_2d(lines, i, consts, tag)
                or _roll_rows(lines, i, consts, tag))
        if done is None:
            out.append(lines[i])
            i += 1
            continue
        used, new = done
        out += new
        i += used
        n += 1
    return "\n".join(out)
