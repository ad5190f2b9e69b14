"""The attributes the front end puts on the kernel it rewrites, refused on its input.

``sched-adopt-loop`` marks what it makes so that its later steps know it: a remainder
loop (``sched.remainder``: run as written, skipped when K-loops are looked for), a
remainder on the schedule's buffers or allowed onto them, its own LDS and LDS put on the
schedule's, its copies or loads issued ahead or left in place and why, a loop left whole,
a loop versioned on the workgroup's tile; a read whose mask it keeps in its address
(``sched.kept_mask``) or whose run C's edge cuts (``sched.kept_cut``, the rows past the
buffer's end its dropped pieces read), the row of a guarded copy it proved for every size
(``sched.proven_row``), a loop whose K steps it merged or whose MFMAs it halved, and why
it merged or not.  Each step trusts the mark: a K-loop marked a remainder
is not pipelined and would be taken for the front end's own remainder (its copies issued
before a pipelined loop, its buffers put on the schedule's), a buffer marked the
remainder's own is counted as one, a read marked cut is copied in pieces none of the
checks of ``cut_runs.mark_cut_runs`` has proven, each dropped piece reading the row the
mark names, a row marked proven may mix a launch value with the thread unchecked
(``every_workgroup.launch_mixing_op``).  An input op that carries a mark did not get it from the front end, so
nothing it relies on holds: :func:`refusal` refuses it at the op, naming the attribute,
whatever the op (a mark is looked for on every op of the walk ``sched-adopt-loop`` makes
anyway, :class:`InputMarks`: its attribute names against a set, about a millisecond on
IREE's late form).

Where: in a kernel that holds a natural K-loop (the front end's later steps walk the
kernel of the loop they rewrite: the remainders' copies and loads issued ahead, the
remainder planner).  A kernel without one is left as it is, marks and all: the front end's
own output given back (the tagged form ``sched-adopt-loop`` writes, a documented input, with
its remainder loops, their buffers and its merge note; a loop too short to pipeline, made
a whole remainder run as written) runs as written outside its tagged loop, which
``sched-import`` checks.  In a module with no natural K-loop, nothing of the tagged form and
no whole remainder, the first mark is refused all the same: a user's only K-loop marked a
remainder would otherwise be passed by as no K-loop at all.

Not here: ``sched.register_staged`` (``sched-stage-copies``' documented input, which that
pass checks as issued), the tagged form's tags and ``sched.copies_in_range`` on a kernel
of the project's own launcher (``docs/dialect.md``).
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.analysis.ir_facts import LANE_STRIDE
from pipeline_mlir.frontend.marks import (ALIAS_ATTR, COPIES_AHEAD_ATTR, COPIES_IN_PLACE_ATTR,
                                         CUT, DIAGONAL_ATTR, HALVED_ATTR, HELD_ATTR,
                                         JOINED_ATTR, KEPT, KEPT_TAIL_ATTR, LOADS_AHEAD_ATTR,
                                         LOADS_IN_PLACE_ATTR, MERGE_NOTE_ATTR, MERGED_ATTR, ODD,
                                         KSPLIT_NOTE_ATTR,
                                         OWN_ATTR, PADDING_ROWS_ATTR, PAIR_GUARD_ATTR,
                                         PIECE_ATTR, PROVEN_ROW,
                                         REMAINDER_ATTR, SHAREABLE_ATTR, SHARED_ATTR,
                                         TAIL_REFUSED_ATTR, VERSIONED_ATTR, WHOLE_ATTR)
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.tagged import TAG_ATTRS

__all__ = ["MARKS", "InputMarks", "refusal"]

#: the marks of what the front end makes, which later steps of it trust
MARKS = (REMAINDER_ATTR, SHARED_ATTR, SHAREABLE_ATTR, OWN_ATTR, ALIAS_ATTR, WHOLE_ATTR,
         COPIES_AHEAD_ATTR, COPIES_IN_PLACE_ATTR, LOADS_AHEAD_ATTR, LOADS_IN_PLACE_ATTR,
         PAIR_GUARD_ATTR, VERSIONED_ATTR, KEPT, CUT, ODD,
         HALVED_ATTR, PIECE_ATTR, JOINED_ATTR, DIAGONAL_ATTR, HELD_ATTR, MERGED_ATTR,
         MERGE_NOTE_ATTR, KSPLIT_NOTE_ATTR, PROVEN_ROW, LANE_STRIDE, PADDING_ROWS_ATTR,
         KEPT_TAIL_ATTR, TAIL_REFUSED_ATTR)
_MARKED = frozenset(MARKS)
#: the attribute names the walk looks at: the marks, and the tags of the tagged form
_LOOKED_AT = _MARKED | frozenset(TAG_ATTRS)
_KERNELS = ("func.func", "gpu.func")


def refusal(op) -> IRError | None:
    """The error for ``op`` when it carries one of :data:`MARKS` (module docstring), else
    None."""
    mark = next((name for name in op.attributes if name in _MARKED), None)
    return None if mark is None else _error(op, mark)


def _error(op, mark: str) -> IRError:
    return IRError(op, f"'{op.name}' op carries '{mark}', a mark the front end puts on what "
                       f"it makes itself (a remainder loop, its buffers and copies, a "
                       f"versioned, merged or halved loop, a halved loop's pieces of a "
                       f"fragment read, a read whose mask it keeps, a proven row), which "
                       f"its later steps trust; an input op cannot carry it: remove the "
                       f"attribute")


class InputMarks:
    """What ``sched-adopt-loop``'s walk of its input (``scan.find_natural_loops``' ``each``)
    sees of the marks: the ops carrying one, and whether the module holds the front end's
    own output (a tagged op, a whole remainder); :meth:`check` then refuses where the module
    docstring says."""

    def __init__(self) -> None:
        self.refused: list = []          # (op, its refusal), in walk order
        self.output = False

    def __call__(self, op) -> None:
        seen = [name for name in op.attributes if name in _LOOKED_AT]
        if op.name.startswith("sched.") or any(n in TAG_ATTRS for n in seen) or \
                (WHOLE_ATTR in seen and REMAINDER_ATTR in seen):
            self.output = True
        mark = next((n for n in seen if n in _MARKED), None)
        if mark is not None:
            self.refused.append((op, _error(op, mark)))

    def check(self, loops: list) -> None:
        """Raise the refusal of the first marked op in a kernel of ``loops`` (the natural
        K-loops found), or with none found and no output of the front end, of the first."""
        if not loops:
            if self.refused and not self.output:
                raise self.refused[0][1]
            return
        rewritten = {kernel_of(lp) for lp in loops}
        for op, e in self.refused:
            if (op if op.name in _KERNELS else kernel_of(op)) in rewritten:
                raise e
