"""The elements of C a partial run of a dispatch is responsible for (``--emulate FILE.mlir
--emulate-workgroups=N``).

The run's workgroups are those :func:`pipeline_mlir.emu.gemm.spread_ids` picks from the
dispatch's grid (the first among them, and one off the grid's diagonal when it has one); the
tile each one writes is read from the dispatch's IR
(:func:`pipeline_mlir.analysis.output_tiles.written_mask`: its workgroup id mapping,
linearised workgroup loops and cut edge tiles included, element by element), before the
build changes the module.  The run is then checked on every element those
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
    _check_grid_can_cover(f, d.grid, ids, int(mask.sum()), shape)
    return PartialTiles(mask)


def _check_grid_can_cover(f, grid, ids: list, written: int, shape: tuple) -> None:
    """An IRError at the kernel's first workgroup id op (or forall) when the ``grid``
    cannot write every element of C (``shape``): its workgroups, each writing at most as
    many elements as the run's ``ids`` write together (``written``, the elements of their
    :func:`written_mask`; workgroup 0 among them, whose tiles are the largest of IREE's
    grids, cut only at C's far edges, and whose linearised loop runs the most iterations),
    write fewer elements than C has.
    A partial run checks only its own workgroups' tiles: a grid made too small (a forall
    bound, an id's ``upper_bound``) would leave elements of C unwritten that no run of it
    sees. A necessary condition only, proven without evaluating the whole grid (which takes
    seconds on IREE's grids of thousands); a whole run checks every element."""
    import numpy as np

    from pipeline_mlir.analysis.ir_facts import WORKGROUP_ID_OPS, mapped_forall
    from pipeline_mlir.dialect.ir_io import IRError, walk_ops

    most = written
    total, size = int(np.prod(grid)), int(np.prod(shape))
    if total * most >= size:
        return
    where = (walk_ops(f, lambda o: o.name in WORKGROUP_ID_OPS or mapped_forall(o)) or [f])[0]
    raise IRError(where, f"'{where.name}' op: the kernel's grid of {total} workgroups "
                         f"({'x'.join(map(str, grid))}), each writing at most {most} elements "
                         f"of C (as many as the run's workgroups {ids} write together), cannot "
                         f"write all {size} elements of the {'x'.join(map(str, shape))} C: "
                         f"elements of C would never be written")
