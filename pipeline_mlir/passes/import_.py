"""``sched-import``: name the schedule of each pipeline, or create one.

* A module with nothing in it gets a ``sched.pipeline`` holding the named
  schedule's default logical body (what ``pipeline-opt --pipeline=NAME`` with no
  input compiles).
* A ``sched.pipeline`` without a ``schedule`` attribute gets the one named by
  the options; one that has a schedule must agree with them.
* An ``scf.for`` whose ops carry ``sched.global_load`` / ``sched.frag_load`` /
  ``sched.mma`` attributes (the concrete form) gets a ``sched.pipeline`` right
  before it whose body mirrors the tagged ops (see ``docs/dialect.md``).

Options: ``schedule=NAME`` plus any option of that schedule, as in
``sched-import{schedule=4wave dtype=bf16 BM=128}``.
"""

from __future__ import annotations

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.tagged import SCHEDULE_ATTRS, find_tagged_loops, import_loop
from pipeline_mlir.dialect.ir_io import (
    IRError,
    create_entry,
    options_attr,
    pipeline_ops,
    read_pipeline,
    read_schedule,
)
from pipeline_mlir.passes._common import Option, SchedPass

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.records import replace
from pipeline_mlir.options import check_once
from pipeline_mlir.schedules.fourwave import MERGE_K_OPTION, merge_asked
from pipeline_mlir.schedules.registry import NAMES, NamedSchedule, make_schedule


class SchedulePass(SchedPass):
    """A pass configured by a named schedule: ``schedule=NAME`` plus that schedule's
    options, or a schedule object (``sched-import``, ``sched-adopt-loop``)."""

    options = (Option("schedule", "str", None,
                      f"named schedule: {', '.join(NAMES)}; further keys are that "
                      f"schedule's options"),)

    def __init__(self, schedule: str | NamedSchedule | None = None, **schedule_options) -> None:
        """``schedule``: a schedule's name (then ``schedule_options`` are its options, as
        text or typed values) or a schedule object."""
        self.schedule: NamedSchedule | None = None
        if isinstance(schedule, NamedSchedule):
            if schedule_options:
                raise ConfigError(f"{self.owner()}: options {', '.join(schedule_options)} "
                                  f"given next to a schedule object")
            self.schedule, schedule = schedule, schedule.name
        super().__init__(**({} if schedule is None else {"schedule": schedule}))
        if schedule is None:
            if schedule_options:
                raise ConfigError(f"{self.owner()}: options {', '.join(schedule_options)} "
                                  f"need schedule=NAME")
        elif self.schedule is None:
            self.schedule = make_schedule(schedule, schedule_options, text_allowed=True)

    @classmethod
    def from_text(cls, pairs):
        kw, seen = {}, {}
        for k, v in pairs:
            check_once(cls.owner(), seen, k, v)
            kw[k] = v
        return cls(**kw)


class Import(SchedulePass):
    name = "sched-import"
    summary = ("attach a named schedule to each sched.pipeline (or to a tagged scf.for), or "
               "create the schedule's default body in an empty module")

    def run(self, module) -> None:
        from pipeline_mlir.frontend.scan import find_natural_loops
        from pipeline_mlir.frontend.marks import whole_remainders

        for loop in find_natural_loops(module):
            raise IRError(loop, "'scf.for' op is a natural K-loop (MFMAs, no sched tags): run "
                                "sched-adopt-loop first to make it the schedule's loop")
        existing = pipeline_ops(module)
        loops = find_tagged_loops(module)
        for loop in loops:
            schedule = self._loop_schedule(loop)
            if schedule is None:
                raise IRError(loop, "'scf.for' op has sched-tagged ops but sched-import has no "
                                    "schedule=NAME option")
            import_loop(loop, schedule)
        if not existing and not loops:
            if not whole_remainders(module):   # (else: the K-loop runs as written)
                self._create_default(module)
            return
        for op in existing:  # the loops' pipelines were made from their own schedules
            self._attach(op)

    def _loop_schedule(self, loop) -> NamedSchedule | None:
        """The schedule of a tagged loop: the one ``sched-adopt-loop`` inferred (the pass's
        own options must agree with it), else the pass's."""
        if SCHEDULE_ATTRS[0] not in loop.attributes:
            _refuse_merge_request(self.schedule, loop, "'scf.for' op has sched-tagged ops, "
                                  "whose K tile is the loop's own")
            return self.schedule
        inferred = read_schedule(loop, *SCHEDULE_ATTRS)
        if self.schedule is None:
            return inferred
        if self.schedule.name != inferred.name:
            raise IRError(loop, f"'scf.for' op was adopted for '{inferred.spec()}' but the "
                                f"pipeline asks for '{self.schedule.spec()}'")
        mine, theirs = dict(self.schedule.items()), dict(inferred.items())
        for k in self.schedule.given:
            if k == MERGE_K_OPTION:     # sched-adopt-loop's to take: the tile is the loop's
                continue
            have = theirs[k] if k in theirs else inferred.get(k) if k in \
                inferred.options() else None
            if have != mine[k]:
                raise IRError(loop, f"'scf.for' op was adopted for '{inferred.spec()}' but the "
                                    f"pipeline asks for {k}={mine[k]}")
        return inferred

    def _attach(self, op) -> None:
        p = read_pipeline(op, need_schedule=False)
        if not p.schedule_name:
            if self.schedule is None:
                raise IRError(op, "'sched.pipeline' op has no 'schedule' attribute and "
                                  "sched-import was given no schedule=NAME")
            _refuse_merge_request(self.schedule, op, "'sched.pipeline' op has a body of "
                                  "logical ops, whose K tile is its own")
            with op.context:
                op.attributes["schedule"] = ir.StringAttr.get(self.schedule.name)
                op.attributes["options"] = options_attr(self.schedule)
            read_pipeline(op)  # the body must make sense for that schedule
            return
        if self.schedule is None:
            return
        _refuse_merge_request(self.schedule, op, "'sched.pipeline' op has a body of logical "
                              "ops, whose K tile is its own")
        mine = p.named()
        if _merge_unset(mine) != _merge_unset(self.schedule):
            raise IRError(op, f"'sched.pipeline' op is for '{mine.spec()}' but the pipeline "
                              f"asks for '{self.schedule.spec()}'")

    def _create_default(self, module) -> None:
        block = module.regions[0].blocks[0]
        if len(list(block.operations)):
            raise IRError(module, "nothing to pipeline: the input has no 'sched.pipeline' op, "
                                  "no scf.for with sched-tagged ops and no K-loop for "
                                  "sched-adopt-loop (an scf.for whose body multiplies "
                                  "with amdgpu.mfma)")
        if self.schedule is None:
            raise IRError(module, "the input is empty and sched-import was given no "
                                  "schedule=NAME to create a default body from")
        _refuse_merge_request(self.schedule, module, "the input is empty: the schedule's "
                              "default body has the K tile BK")
        try:
            body = self.schedule.build().declare_ops()
        except PipelineError as e:
            raise IRError(module, str(e)) from None
        with module.context, ir.Location.name(f"{self.schedule.spec()} default body"):
            with ir.InsertionPoint(block):
                pop = ir.Operation.create(S.PIPELINE, regions=1, attributes={
                    "schedule": ir.StringAttr.get(self.schedule.name),
                    "options": options_attr(self.schedule)})
            with ir.InsertionPoint(pop.regions[0].blocks.append()):
                for d in body:
                    create_entry(d, self.schedule.name)


def _merge_unset(schedule):
    """``schedule`` with ``merge_k`` at its default: a request to ``sched-adopt-loop``, not
    part of the schedule a ``sched.pipeline`` body names (``merge_k=false`` on one is
    nothing to merge, not another schedule)."""
    if MERGE_K_OPTION not in type(schedule).options():
        return schedule
    return replace(schedule, **{MERGE_K_OPTION: type(schedule).option(MERGE_K_OPTION).default})


def _refuse_merge_request(schedule, where, what: str) -> None:
    """An error at ``where`` when ``schedule`` asks for K steps merged (``merge_k``), which
    only ``sched-adopt-loop`` does, on a natural K-loop: ``what`` says why there is none."""
    if merge_asked(schedule):
        raise IRError(where, f"{what}; {MERGE_K_OPTION}=true merges the K steps of a natural "
                             f"K-loop (sched-adopt-loop), and there is none")
