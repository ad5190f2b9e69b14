"""A copy of the K-loop's tile that only some threads of the workgroup run.

IREE copies a tile smaller than the workgroup's threads by part of them: the prefetch point
under ``scf.if %tid < n``, the late form in a per-thread loop ``scf.for %j = %tid to n step
S`` that some threads run once and the others never.  The schedule issues each of a
channel's copies in every wave, and the front end's own copies
(:mod:`~pipeline_mlir.frontend.layout`) are read off copies every thread makes, so such a
loop is refused, from both forms with one reason: :func:`partial_copy_refusal` names the op
that guards the copy, the copy, and how many of the workgroup's threads run it, told from
the times each thread runs the region (the condition or the trip count evaluated per
thread).
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.ir_io import walk_ops
from pipeline_mlir.frontend.kernel_ir import describe, in_lds

#: the ops that write a tile's LDS in a copy, and the operand that is the LDS memref
LDS_WRITES = {"amdgpu.gather_to_lds": None, "vector.store": 1, "vector.transfer_write": 1,
              "memref.store": 1, "memref.copy": 1}


def lds_copy(op):
    """The first op in ``op``'s regions that writes LDS (a copy's write), or None."""
    found = walk_ops(op, lambda o: o.name in LDS_WRITES and (
        LDS_WRITES[o.name] is None or in_lds(o.operands[LDS_WRITES[o.name]])))
    return found[0] if found else None


def partial_copy_refusal(op, runs: np.ndarray) -> str | None:
    """Why ``op`` (an ``scf.if`` or a per-thread ``scf.for`` in the K-loop) is refused when
    its region copies into LDS and ``runs`` (the times each thread of the workgroup runs it)
    is 0 in some threads and not in others; else None."""
    copy = lds_copy(op)
    if copy is None or runs.all() or not runs.any():
        return None
    some = int(np.count_nonzero(runs))
    a, b = int(np.flatnonzero(runs)[0]), int(np.flatnonzero(runs == 0)[0])
    return (f"{describe(op)} runs the tile's copy {describe(copy)} in {some} of the "
            f"workgroup's {len(runs)} threads (thread {a}: {int(runs[a])} time(s), thread "
            f"{b}: {int(runs[b])}): a copy made by part of the workgroup, which the front end "
            f"does not pipeline (the schedule issues a channel's copies in every wave)")
