"""Which elements of C a run is checked on, and the verdict on them.

A run of some workgroups of a grid is responsible for a *footprint* of C: the tiles those
workgroups compute (from the grid, the tile shape and the grid order, cut at the edges of
C).  The verdict (:func:`check_c`) is sound whatever values the reference holds:

* every footprint element must have been stored to by the run (the emulator marks each
  halfword a store writes, :meth:`~pipeline_mlir.emu.machine.GlobalMemory.track`; the starting
  poison is never taken as "not written", so a correct value that happens to equal the
  poison word does not hide a missing store) and must equal the reference;
* no element outside the footprint may have been stored to (a write outside the run's
  tiles, whatever its value).

What is wrong is said as counts and the first element in row-major order:
``not written: N elements, first at [r, c]``, ``written outside the workgroups' tiles: N
elements, first at [r, c]``.

A footprint inferred rather than read from a dispatch (a code object's, or a plain dispatch
run over its whole grid: each workgroup's tile from the one workgroup 0 stores to and the
grid order, :func:`pipeline_mlir.emu.iree.emulate_matmul`) is checked per workgroup too
(:func:`check_owners`): every element of a workgroup's tile that a store wrote was written
by that workgroup (the store marks name it, :mod:`pipeline_mlir.emu.globalrace`); a tile
holding another workgroup's stores is an error naming both, even where the workgroups
together store their footprint exactly (tiles swapped between them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.globalrace import workgroup_of, zeros_mapped


@dataclass
class Coverage:
    stored: int                           # elements of C some store wrote
    compared: int                         # elements of the footprint
    max_error: float
    first_bad: tuple[int, int] | None     # first stored footprint element off the reference
    unwritten: int = 0                    # footprint elements no store wrote
    first_unwritten: tuple[int, int] | None = None
    outside: int = 0                      # elements outside the footprint stored to
    first_outside: tuple[int, int] | None = None

    @property
    def sound(self) -> bool:
        return self.first_bad is None and not self.unwritten and not self.outside


def footprint(shape: tuple[int, int], tiles) -> np.ndarray:
    """The bool mask of C (``shape``) covered by ``tiles``: ``(row0, col0, rows, cols)``
    rectangles, cut at the edges of C."""
    mask = np.zeros(shape, dtype=bool)
    for r, c, h, w in tiles:
        mask[max(r, 0):max(min(r + h, shape[0]), 0), max(c, 0):max(min(c + w, shape[1]), 0)] = True
    return mask


#: unsigned words by size in bytes: an element's marks read as one word
_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def stored_elements(marks: np.ndarray, shape: tuple[int, ...], pages=None) -> np.ndarray:
    """Per element of C (or of any output of ``shape``), whether any of its bytes was stored
    to (``marks``: one entry per byte or per halfword, nonzero where a store wrote it: the
    bool of :meth:`~pipeline_mlir.emu.machine.GlobalMemory.stored` or the raw marks of
    :meth:`~pipeline_mlir.emu.machine.GlobalMemory.marks_of`).  ``pages``: per page of
    4096 bytes of ``marks``, whether it may hold a nonzero mark (the others are not read;
    :meth:`~pipeline_mlir.emu.machine.GlobalMemory.stamped_pages`)."""
    per = marks.reshape(int(np.prod(shape)), -1)
    word = _WORDS.get(per.shape[1] * per.itemsize)
    if word is None or not per.flags.c_contiguous:
        return per.any(axis=1).reshape(shape)
    words = per.view(np.uint8).view(word)[:, 0]
    per_page = 4096 // word().itemsize
    if pages is None or 4096 % word().itemsize or np.count_nonzero(pages) * 4 > len(pages):
        return (words != 0).reshape(shape)       # any byte: a nonzero word
    at = (np.flatnonzero(pages)[:, None] * per_page + np.arange(per_page)).reshape(-1)
    at = at[at < len(words)]
    out = zeros_mapped(len(words), bool)         # written on the stamped pages only
    out[at] = words[at] != 0
    return out.reshape(shape)


def first_index(mask: np.ndarray) -> tuple | None:
    """The index of ``mask``'s first true element (row-major), or None."""
    return tuple(int(i) for i in np.argwhere(mask)[0]) if mask.any() else None


def _bands(covered: np.ndarray):
    """The footprint as bands: (rows, columns) pairs, the rows of a band covered on exactly
    its columns (tiles side by side share a band; the reference is computed per band, not
    for the whole block of the footprint's rows and columns)."""
    rows = np.flatnonzero(covered.any(axis=1))
    if not len(rows):
        return []
    groups: dict[bytes, list] = {}
    for i, pattern in enumerate(map(bytes, np.packbits(covered[rows], axis=1))):
        groups.setdefault(pattern, []).append(i)
    return [(rows[band], np.flatnonzero(covered[rows[band[0]]])) for band in groups.values()]


def _compare(values, stored, reference, decode, rows, cols):
    """(max error, first wrong element, elements checked) of one band."""
    block = np.ix_(rows, cols)
    got = values[block]
    if decode is not None:
        got = decode(got)
    check = stored[block]
    with np.errstate(invalid="ignore"):
        diff = np.where(check, np.abs(got - reference(rows, cols)), 0.0)
    at = first_index(check & ~(diff == 0))
    first = None if at is None else (int(rows[at[0]]), int(cols[at[1]]))
    return float(np.nanmax(np.where(np.isnan(diff), np.inf, diff))), first, \
        int(np.count_nonzero(check))


def check_c(values: np.ndarray, stored: np.ndarray, covered: np.ndarray,
            reference, decode=None) -> Coverage:
    """The verdict on C (``values``, float64 or int64 per element, or the raw elements that
    ``decode`` turns into them; ``stored``: the elements stored to; ``covered``: the
    footprint) against ``reference(rows, cols)``, the reference's block of those rows and
    columns (module docstring), asked for each band of the footprint (:func:`_bands`)."""
    max_err, firsts, checked = 0.0, [], 0
    for rows, cols in _bands(covered):
        err, first, n = _compare(values, stored, reference, decode, rows, cols)
        max_err, checked = max(max_err, err), checked + n
        firsts += [first] if first is not None else []
    total = int(np.count_nonzero(stored))
    outside = total - checked
    unwritten = int(np.count_nonzero(covered)) - checked
    return Coverage(total, int(np.count_nonzero(covered)), max_err, min(firsts, default=None),
                    unwritten, first_index(covered & ~stored) if unwritten else None, outside,
                    first_index(stored & ~covered) if outside else None)


def problems(cov: Coverage) -> list[str]:
    """What is wrong beyond a wrong value: the unwritten and the outside elements."""
    out = []
    if cov.unwritten:
        r, c = cov.first_unwritten
        out.append(f"not written: {cov.unwritten} elements, first at [{r}, {c}]")
    if cov.outside:
        r, c = cov.first_outside
        out.append(f"written outside the workgroups' tiles: {cov.outside} elements, first at "
                   f"[{r}, {c}]")
    return out


def workgroup_name(w) -> str:
    """A workgroup id as the emulator names it: ``5``, ``(1,0)``."""
    return "(" + ",".join(map(str, w)) + ")" if isinstance(w, (tuple, list)) else str(w)


def check_owners(glob, buffer: str, shape: tuple[int, int], workgroups: list, tiles: list,
                 kernel: str) -> None:
    """Each of ``workgroups`` wrote the stored elements of its own tile of ``buffer`` (an
    ``M x N`` output, ``shape``; ``tiles``: one ``(row0, col0, rows, cols)`` per workgroup,
    cut at the edges), as the module docstring says; else an
    :class:`~pipeline_mlir.emu.errors.EmuError` naming the workgroup, its tile and the
    workgroup whose store is in it."""
    rows, cols = shape
    marks = glob.marks_of(buffer)
    per = len(marks) // (rows * cols)             # halfwords per element
    grid = marks[:rows * cols * per].reshape(rows, cols * per)
    for w, (r, c, h, wd) in zip(workgroups, tiles):
        r0, r1, c0, c1 = max(r, 0), min(r + h, rows), max(c, 0), min(c + wd, cols)
        block = grid[r0:max(r1, r0), c0 * per:max(c1, c0) * per]
        mine = workgroup_name(w)
        for stamp in np.unique(block[block != 0]):
            who = workgroup_of(glob, int(stamp))
            if who != mine:
                raise EmuError(f"kernel {kernel}: the tile of workgroup {mine} (rows "
                               f"{r0}..{r1 - 1}, columns {c0}..{c1 - 1} of {buffer}, from the "
                               f"tile workgroup 0 stores to and the grid order) holds stores "
                               f"of workgroup {who}: each workgroup must store its own tile")


def stores_of(glob, buffer: str, shape: tuple[int, int], stored: np.ndarray,
              workgroup) -> np.ndarray:
    """The elements of ``buffer`` (an ``M x N`` output, ``shape``; bool) among ``stored``
    that a store of ``workgroup`` wrote last: any halfword whose store mark names it.  (A
    store of another workgroup of the run over it is a race: a finding of the run.)"""
    rows, cols = shape
    at = np.flatnonzero(stored)
    marks = glob.marks_of(buffer)
    per = len(marks) // (rows * cols)             # halfwords per element
    stamps = marks[:rows * cols * per].reshape(rows * cols, per)[at]
    unique, where = np.unique(stamps, return_inverse=True)
    name = workgroup_name(workgroup)
    mine = np.array([s != 0 and workgroup_of(glob, int(s)) == name for s in unique.tolist()],
                    dtype=bool)
    out = np.zeros(rows * cols, dtype=bool)
    out[at] = mine[where.reshape(stamps.shape)].any(axis=1)
    return out.reshape(shape)
