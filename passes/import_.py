"""``sched-import``: name the schedule of each pipeline, or create one.

* A module with nothing in it gets a ``sched.pipeline`` holding the named
  schedule's default logical body (what ``pipeline-opt --pipeline=NAME`` with no
  input compiles).
* A ``sched.pipeline`` without a ``schedule`` attribute gets the one named by
  the options; one that has a schedule must agree with them.
* An ``scf.for`` whose ops carry ``sched.global_load`` / ``sched.frag_load`` /
  ``sched.mma`` attributes (the concrete form) gets a ``sched.pipeline`` right
  before it whose body mirrors the tagged ops (see ``dialect/README.md``).

Options: ``schedule=NAME`` plus any option of that schedule, as in
``sched-import{schedule=4wave dtype=bf16 BM=128}``.
"""

from __future__ import annotations

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.concrete import find_tagged_loops, import_loop
from pipeline_mlir.dialect.ir_io import (
    IRError,
    create_entry,
    options_attr,
    pipeline_ops,
    read_pipeline,
)
from pipeline_mlir.passes._common import PassOption, SchedPass

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.schedules.registry import PIPELINES, parse_pipeline


class Import(SchedPass):
    name = "sched-import"
    summary = ("attach a named schedule to each sched.pipeline (or to a tagged scf.for), or "
               "create the schedule's default body in an empty module")
    options = (PassOption("schedule", "str", None,
                          "named schedule: 4wave, pingpong or single-buffer; further keys are "
                          "that schedule's options"),)

    def __init__(self, schedule: str | None = None, **schedule_options) -> None:
        super().__init__(schedule=schedule)

        self.request = None
        if schedule is None:
            if schedule_options:
                raise ConfigError(f"pass 'sched-import': options "
                                  f"{', '.join(schedule_options)} need schedule=NAME")
            return
        items = " ".join(f"{k}={v}" for k, v in schedule_options.items())
        self.request = parse_pipeline(f"{schedule}{{{items}}}" if items else schedule)

    @classmethod
    def from_text(cls, pairs):
        kw = {}
        for k, v in pairs:
            if k in kw:
                raise ConfigError(f"pass 'sched-import': option '{k}' given twice")
            kw[k] = v
        return cls(**kw)

    @classmethod
    def from_request(cls, request) -> "Import":
        obj = cls()
        obj.request = request
        obj.values["schedule"] = request.name
        return obj

    def run(self, module) -> None:

        loops = find_tagged_loops(module)
        for loop in loops:
            if self.request is None:
                raise IRError(loop, "'scf.for' op has sched-tagged ops but sched-import has no "
                                    "schedule=NAME option")
            import_loop(loop, self.request)
        pipelines = pipeline_ops(module)
        if not pipelines:
            self._create_default(module)
            return
        for op in pipelines:
            self._attach(op)

    def _attach(self, op) -> None:
        p = read_pipeline(op, need_schedule=False)
        if not p.schedule:
            if self.request is None:
                raise IRError(op, "'sched.pipeline' op has no 'schedule' attribute and "
                                  "sched-import was given no schedule=NAME")
            with op.context:
                op.attributes["schedule"] = ir.StringAttr.get(self.request.name)
                op.attributes["options"] = options_attr(self.request)
            read_pipeline(op)  # the body must make sense for that schedule
            return
        if self.request is None:
            return
        mine = p.request()
        if _canon(mine) != _canon(self.request):
            raise IRError(op, f"'sched.pipeline' op is for '{mine.spec()}' but the pipeline "
                              f"asks for '{self.request.spec()}'")

    def _create_default(self, module) -> None:
        block = module.regions[0].blocks[0]
        if len(list(block.operations)):
            raise IRError(module, "nothing to pipeline: the input has no 'sched.pipeline' op "
                                  "and no scf.for with sched-tagged ops")
        if self.request is None:
            raise IRError(module, "the input is empty and sched-import was given no "
                                  "schedule=NAME to create a default body from")
        try:
            s = self.request.build()
            body = s.declare_ops()
        except PipelineError as e:
            raise IRError(module, str(e)) from None
        with module.context, ir.Location.name(f"{self.request.spec()} default body"):
            with ir.InsertionPoint(block):
                pop = ir.Operation.create(S.PIPELINE, regions=1, attributes={
                    "schedule": ir.StringAttr.get(self.request.name),
                    "options": options_attr(self.request)})
            with ir.InsertionPoint(pop.regions[0].blocks.append()):
                for d in body:
                    create_entry(d, self.request.name)


def _canon(request) -> tuple:

    kind = PIPELINES[request.name]
    vals = {o.name: request.get(o.name) for o in kind.options}
    return request.name, tuple(sorted(vals.items())), tuple(sorted(request.config_overrides))
