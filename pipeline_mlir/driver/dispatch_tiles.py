"""The elements of C a partial run of a dispatch is responsible for (``--emulate FILE.mlir
--emulate-workgroups=N``).

The run's workgroups are those :func:`pipeline_mlir.emu.gemm.spread_ids` picks from the
dispatch's grid (the first and the last among them); the tile each one writes is read from
the dispatch's IR (:func:`pipeline_mlir.analysis.output_tiles.written_mask`: its workgroup
id mapping, linearised workgroup loops and cut edge tiles included, element by element),
before the build changes the module.  The run is then checked on every element those
tiles' writes write and on nothing else, whatever the machine code stores.  A dispatch whose writes cannot be
evaluated keeps the older check on the elements the run stored, and the summary line says
so and why.  The emulator and the analysis are imported by the functions that use them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PartialTiles:
    #: the bool mask of C (its shape) the run's workgroups are responsible for; None: the
    #: tiles could not be read (``why``)
    mask: object = None
    why: str = ""

    def note(self) -> str:
        """What the summary line adds (nothing when the tiles are known)."""
        return "" if self.mask is not None else \
            f" (checked on the elements stored: the tiles are not read from the dispatch: " \
            f"{self.why})"


def mask_of(tiles: PartialTiles | None):
    """The mask of C a run with ``tiles`` is checked on (None: a whole run, or tiles that
    could not be read)."""
    return None if tiles is None else tiles.mask


def with_note(summary: str, tiles: PartialTiles | None) -> str:
    """``summary`` (ending in a newline) with what a partial run's ``tiles`` add to its
    last line (:meth:`PartialTiles.note`)."""
    note = "" if tiles is None else tiles.note()
    return summary.rstrip("\n") + note + "\n" if note else summary


def partial_tiles(module, d, count: int | None) -> PartialTiles | None:
    """The tiles of C the run of ``count`` workgroups of dispatch ``d`` (in ``module``)
    is responsible for; None for a run of the whole grid (every element of C)."""
    import numpy as np

    from pipeline_mlir.analysis.ir_facts import block_size
    from pipeline_mlir.analysis.output_tiles import written_mask
    from pipeline_mlir.dialect.ir_io import IRError, walk_ops
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.emu.gemm import spread_ids

    if count is None or d.grid is None:
        return None
    total = int(np.prod(d.grid))
    if count >= total:
        return None
    ids = spread_ids(d.grid, count)
    (f,) = [o for o in walk_ops(module.operation, lambda o: o.name in ("func.func", "gpu.func")
                                and "sym_name" in o.attributes
                                and ir.StringAttr(o.attributes["sym_name"]).value == d.kernel)]
    shape = tuple(d.batch) + (d.M, d.N)            # C, its sizes at the launch
    try:
        mask = written_mask(f, tuple(shape), tuple(d.grid), ids, block_size(f) or (256, 1, 1),
                            d.constants)
    except IRError as e:
        return PartialTiles(None, str(e))
    return PartialTiles(mask)
