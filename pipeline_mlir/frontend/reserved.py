"""The attributes the front end puts on the kernel it rewrites, refused on its input.

``sched-adopt-loop`` marks what it makes so that its later steps know it: a remainder
loop (``sched.remainder``: run as written, skipped when K-loops are looked for), a
remainder on the schedule's buffers or allowed onto them, its own LDS and LDS put on the
schedule's, its copies or loads issued ahead or left in place and why, a loop left whole,
a loop versioned on the workgroup's tile.  Each step trusts the mark: a K-loop marked a
remainder is not pipelined and would be taken for the front end's own remainder (its
copies issued before a pipelined loop, its buffers put on the schedule's), a buffer marked
the remainder's own is counted as one.  An input that carries a mark did not get it from
the front end, so nothing it relies on holds: :func:`refusal` refuses it at the op, naming
the attribute.
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend import remainder_ahead, remainder_dma
from pipeline_mlir.frontend.adopt import PAIR_GUARD_ATTR, VERSIONED_ATTR
from pipeline_mlir.frontend.aliased_remainder import ALIAS_ATTR, OWN_ATTR
from pipeline_mlir.frontend.scan import REMAINDER_ATTR, SHAREABLE_ATTR, SHARED_ATTR
from pipeline_mlir.frontend.tails import WHOLE_ATTR

__all__ = ["CARRIERS", "MARKS", "refusal"]

#: the marks of what the front end makes, which later steps of it trust
MARKS = (REMAINDER_ATTR, SHARED_ATTR, SHAREABLE_ATTR, OWN_ATTR, ALIAS_ATTR, WHOLE_ATTR,
         remainder_dma.AHEAD_ATTR, remainder_dma.IN_PLACE_ATTR, remainder_ahead.AHEAD_ATTR,
         remainder_ahead.IN_PLACE_ATTR, PAIR_GUARD_ATTR, VERSIONED_ATTR)
#: the ops the later steps read a mark on (loops, LDS buffers): the only ones looked at
CARRIERS = frozenset(("scf.for", "memref.alloc"))


def refusal(op) -> IRError | None:
    """The error for ``op`` when it carries one of :data:`MARKS` (module docstring), else
    None (``sched-adopt-loop`` asks it of every op of its input)."""
    if op.name not in CARRIERS:
        return None
    mark = next((m for m in MARKS if m in op.attributes), None)
    if mark is None:
        return None
    return IRError(op, f"'{op.name}' op carries '{mark}', a mark the front end puts on what "
                       f"it makes itself (a remainder loop, its buffers and copies, a "
                       f"versioned loop), which its later steps trust; an input op cannot "
                       f"carry it: remove the attribute")
