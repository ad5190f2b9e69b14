"""``sched-adopt-loop``: make a natural K-loop the schedule's loop.

Every ``scf.for`` whose body holds ``amdgpu.mfma`` ops and no sched tags is a natural
K-loop (``docs/dialect.md``, "Kernels as input: the natural form").  The pass recognises
each op's role from its kind and the memory it touches, evaluates every copy's and read's
LDS addresses for every lane of every wave, partitions them into the schedule's channels
and subtiles, and rewrites the loop into the tagged form that ``sched-import`` takes: two
K tiles per iteration, one LDS buffer per (operand, stage, subtile), the payload ops in the
schedule's body order with their tags, the loop's own barriers removed, and the pipeline
schedule it inferred (tile, per-load counts) in the loop's ``sched.schedule`` and
``sched.options`` attributes.  A loop
it cannot pipeline safely is a located error saying why.

Options: ``schedule=NAME`` plus any option of that schedule (as for ``sched-import``);
an option that disagrees with the loop's payload is an error.
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import IRError, read_schedule
from pipeline_mlir.frontend.tagged import SCHEDULE_ATTRS
from pipeline_mlir.passes.import_ import SchedulePass
from pipeline_mlir.schedules.registry import NamedSchedule


class AdoptLoop(SchedulePass):
    name = "sched-adopt-loop"
    summary = ("rewrite each natural K-loop (untagged scf.for with MFMAs) into the schedule's "
               "tagged loop: roles, address analysis, channels/subtiles, multi-buffered LDS")

    def __init__(self, schedule=None, **schedule_options) -> None:
        super().__init__(schedule, **schedule_options)
        #: the schedule inferred for each adopted loop, in order
        self.adopted: list[NamedSchedule] = []
        #: why each loop too short to pipeline runs as written (the report says it)
        self.unpipelined: list[str] = []
        #: where each of those loops is (the driver's warning at it)
        self.unpipelined_at: list = []
        #: (why, where) of each loop left over the budget of a lane's registers for one K
        #: tile's fragments (frontend/fragment_budget.py): the driver's warning at it
        self.over_budget: list = []

    def run(self, module) -> None:
        from pipeline_mlir.frontend.marks import whole_note, whole_remainders
        from pipeline_mlir.frontend.no_loop import no_loop_reason
        from pipeline_mlir.frontend.producers import normalize_producers
        from pipeline_mlir.frontend.reserved import InputMarks
        from pipeline_mlir.frontend.scan import find_natural_loops
        from pipeline_mlir.frontend.soundness import check_other_steps

        normalize_producers(module)
        # (the marks of what the pass makes refused on its input: frontend/reserved.py)
        marks = InputMarks()
        loops = find_natural_loops(module, marks)
        marks.check(loops)
        check_other_steps(module, loops)
        if not loops:
            why = no_loop_reason(module)
            if why is not None:
                raise IRError(*why)
        else:  # the front end's rewriting (and the numpy and ISA modules it imports) only
            # for a module that holds a natural K-loop: a tagged input starts without them
            from pipeline_mlir.frontend.adopt_walk import adopt_each
            from pipeline_mlir.frontend.natural import adopt_loop
            # (each loop found again after the adoption before it, which may have put
            # another kernel in its kernel's place: frontend/adopt_walk.py)
            adopt_each(loops, lambda loop: self._adopt(adopt_loop, loop))
        # (a loop the front end rewrote is another op: the marks on the module's loops,
        # which no input carries, frontend/reserved.py)
        left = whole_remainders(module)
        self.unpipelined += [whole_note(rem) for rem in left]
        self.unpipelined_at += [rem.location for rem in left]

    def _adopt(self, adopt_loop, loop) -> None:
        """Adopt natural K-loop ``loop`` (``adopt_loop``: the front end's), the schedule it
        stands for kept."""
        if self.schedule is None:
            raise IRError(loop, "'scf.for' op is a natural K-loop but sched-adopt-loop has "
                                "no schedule=NAME option")
        with loop.context, loop.location:
            new = adopt_loop(loop, self.schedule)
            if new is not None:     # None: too short to pipeline, run as written
                self.adopted.append(read_schedule(new, *SCHEDULE_ATTRS))
                self._over_budget(new)

    def _over_budget(self, loop) -> None:
        """Keep the note of ``loop`` (adopted) when it is left over the budget of a lane's
        registers for its fragments."""
        from pipeline_mlir.dialect.bindings import ir
        from pipeline_mlir.frontend.fragment_budget import over_budget_note
        from pipeline_mlir.frontend.marks import KSPLIT_NOTE_ATTR

        if KSPLIT_NOTE_ATTR in loop.attributes:
            note = ir.StringAttr(loop.attributes[KSPLIT_NOTE_ATTR]).value
            if over_budget_note(note):
                self.over_budget.append((note, loop.location))
