"""Buffer accesses whose result depends on whether the range check counts ``soffset``.

The emulator checks a buffer access against ``num_records`` with ``soffset`` counted (as
AMD's rocjitsu emulator models gfx950); LLVM's AMDGPU documentation of the buffer
intrinsics says ``soffset`` is excluded from the check (``voffset`` and the immediate
offset included).  Without a GPU the question stays open, so an access some active lane's
dword of which is in range by ``voffset + inst_offset`` alone but past ``num_records`` with
``soffset`` added is a ``soffset-range`` finding (:func:`soffset_verdict`): under one
reading it reads zeros (a store is dropped), under the other it reads (writes) memory past
the buffer.  An access in range, or out of range, under both readings is not one.
"""

from __future__ import annotations

import numpy as np


def soffset_verdict(w, m, step, sgpr, off, mask, num, size: int) -> None:
    """Report (``soffset-range``) a buffer access of which some active lane's dword is in
    range by ``voffset + inst_offset`` alone but past the ``num`` records with ``soffset``
    added: whether it reads data or zeros (is stored or dropped) depends on which of the
    two readings of the range check holds (the module docstring).  ``off`` the byte
    offsets with ``soffset`` (G, 64), ``sgpr`` its value per workgroup slot."""
    sgpr = np.asarray(sgpr, dtype=np.int64)
    if not np.count_nonzero(sgpr):
        return
    lane = off - sgpr[:, None]
    end = num[:, None]
    for j in range(max(1, size // 4)):
        last = 4 * j + min(4, size)
        differ = mask & (off + last > end) & (lane + last <= end)
        if differ.any():
            g, ln = np.argwhere(differ)[0]
            m.finding("soffset-range", w, step, f"lane {ln} (workgroup slot {g}): dword {j} "
                      f"at voffset + offset {int(lane[g, ln])} is within the descriptor's "
                      f"{int(num[g])} bytes, with soffset {int(sgpr[g])} added it is past "
                      f"them: it reads data or zeros (is stored or dropped) depending on "
                      f"whether the range check counts soffset (LLVM's AMDGPU "
                      f"documentation: it does not)")
            return
