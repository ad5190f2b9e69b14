"""Where an interleave pipeline puts the MX scale DMAs apart from their element tiles' DMAs.

A global load of an MX kernel (:mod:`pipeline_mlir.schedules.mx`) issues its element
tile's DMAs (``buffer_load_dwordx4 ... lds``) and then its scale tile's
(``buffer_load_dword ... lds``), the scale tile's a channel of its own (``LOAD_SA`` /
``LOAD_SB``).  The lowering marks the DMAs of the scale channels' global loads
(:data:`SCALE_DMA`, :func:`mark_scale_dmas`) so that an interleave pipeline
that does not spread its global loads (the 4-wave 128x128 MX tiles: their four waves share
a SIMD pair each and keep their accumulators in VGPRs) places them on their own:

* the element DMAs follow the MMA's first MFMAs, one each (the first after the first
  MFMA), among the fragment reads;
* the scale DMAs follow its last MFMA;
* the fragment reads keep the places the even share of all the loads gives them
  (:func:`pipeline_mlir.schedule.fences.interleave_groups`).

Before, the even share put a block's DMAs after its last MFMAs, the scale DMA last with an
MFMA of its own: the waves of a CU issued every DMA of the block in the last stretch of the
MMA and reached the next barrier late.  On the simulator's CU model (measured table;
models, not hardware) the three 128x128 MX kernels' main loops went 1822 -> 1597 (MXFP4
``BK=256``), 1338 -> 1299 (MXFP4 ``BK=128``) and 1729 -> 1516 (MXFP8) cycles per
iteration (docs/kernels.md, MX kernels).

The DMAs keep their program order (every counted ``vmcnt`` relies on it): a DMA never goes
to an earlier MFMA than the one before it, so everything after a scale DMA in the same
region follows the last MFMA too.  Plain Python: no MLIR.
"""

from __future__ import annotations

#: the kind of an MX scale DMA in an interleave region's instruction kinds (the lowering
#: relabels the ``vmem_read`` kinds of a scale channel's global load); an IGroupLP group
#: of VMEM reads like the element DMAs (:func:`plain_kinds`)
SCALE_DMA = "vmem_scale"
#: the kind of every other global load instruction
ELEMENT_DMA = "vmem_read"


def plain_kinds(kinds: list) -> list:
    """``kinds`` with every :data:`SCALE_DMA` as :data:`ELEMENT_DMA` (what an IGroupLP
    group and every other placement rule sees)."""
    return [ELEMENT_DMA if k == SCALE_DMA else k for k in kinds]


def mark_scale_dmas(kinds: list) -> list:
    """The kinds the payload of a global load of an MX scale channel (``LOAD_SA`` /
    ``LOAD_SB``) issues, its DMAs (``vmem_read``) marked :data:`SCALE_DMA`; ValueError for
    one that issues no DMA."""
    if ELEMENT_DMA not in kinds:
        raise ValueError(f"scale DMAs: a global load of an MX scale channel issues no DMA "
                         f"(its instructions: {', '.join(map(str, kinds)) or 'none'})")
    return [SCALE_DMA if k == ELEMENT_DMA else k for k in kinds]


def has_scale_dmas(loads: list) -> bool:
    return SCALE_DMA in loads


def scale_slots(mfmas: int, loads: list, share: list[int]) -> list[list[str]]:
    """The loads that follow each of ``mfmas`` MFMAs (``mfmas`` >= 1): ``share[k]`` is how
    many of ``loads`` (in program order) the even share gives MFMA ``k``; the fragment
    reads keep those places, the element DMAs go one per MFMA from the first, the scale
    DMAs after the last MFMA, and no DMA before the DMA before it (module docstring).
    The kinds come out plain (:func:`plain_kinds`)."""
    if mfmas < 1 or len(share) != mfmas or sum(share) != len(loads):
        raise ValueError(f"scale DMAs: {len(loads)} loads cannot be shared {share} over "
                         f"{mfmas} MFMAs")
    even = [k for k in range(mfmas) for _ in range(share[k])]
    slots: list[list[str]] = [[] for _ in range(mfmas)]
    last = mfmas - 1
    floor, elements = 0, 0
    for i, kind in enumerate(loads):
        if kind == ELEMENT_DMA:
            slot = max(floor, min(elements, last))
            elements += 1
        elif kind == SCALE_DMA:
            slot = last
        else:
            slots[even[i]].append(kind)
            continue
        floor = slot
        slots[slot].append(ELEMENT_DMA)
    return slots
