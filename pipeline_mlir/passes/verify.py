"""``sched-verify``: check every ``sched`` op and attribute, then the schedule's safety.

1. Schema: known op names, allowed attributes with the right types and ranges,
   no operands/results on entry ops, ops only where they may appear.
2. Pipelines: a valid schedule and options; body ops meaningful for it; the
   attributes the pipeline's state promises.
3. Programs: the reference's structural checks, same messages.
4. Phases: every derived wait within the gfx950 counter limits.
5. A module with no ``sched`` op left (lowered, e.g. the MLIR ``--pipeline`` emits): each
   function with register-staged copies (``sched-stage-copies``), as issued: its LDS reads
   and writes ordered by waits and barriers
   (:func:`pipeline_mlir.analysis.lds_order.staged_hazards`).

Every problem is reported at the op it concerns; all of them, not only the first.
"""

from __future__ import annotations

from pipeline_mlir.schedule import stages
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_changes import forget_everything
from pipeline_mlir.dialect.ir_io import (IRError, as_operation, decode_attr, ops_of, read_phase,
                                        read_pipeline)
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.schedule.types import WAIT_LGKM, WAIT_VM
from pipeline_mlir.isa.waitcnt import LGKMCNT_MAX, VMCNT_MAX
from pipeline_mlir.target.gfx950 import NAME

from pipeline_mlir.passes._common import SchedPass

_PARENTS = {S.PROGRAM: (S.PIPELINE,), S.BLOCK: (S.PROGRAM,),
            S.PROLOGUE: (S.PIPELINE,), S.KERNEL: (S.PIPELINE,), S.EPILOGUE: (S.PIPELINE,)}
_ENTRY_PARENTS = (S.PIPELINE, S.BLOCK) + S.PHASE_OPS
_STATE_NEEDS = {"edges": "edges", "scheduled": "order"}


def schema_errors(op) -> list[tuple[object, str]]:
    """Problems of one ``sched.*`` op on its own (attributes, operands, regions, parent)."""
    name = op.name
    errs = []
    if name not in S.ALL_OPS:
        return [(op, f"'{name}' is not an op of the sched dialect (known: "
                     f"{', '.join(S.ALL_OPS)})")]
    if name in S.ENTRY_OPS:
        schema = dict(S.ENTRY_ATTRS)
        schema.update(S.DATA_ATTRS if name in S.DATA_OPS else S.CONTROL_ATTRS[name])
        if len(op.regions):
            errs.append((op, f"'{name}' op must not have regions"))
        if len(op.operands) or len(op.results):
            errs.append((op, f"'{name}' op takes no operands and has no results (payload ops "
                             f"are linked through 'payload')"))
        for a in S.REQUIRED_CONTROL.get(name, ()):
            if a not in op.attributes:
                errs.append((op, f"'{name}' op requires attribute '{a}'"))
        parents = _ENTRY_PARENTS
    else:
        schema = {S.PIPELINE: S.PIPELINE_ATTRS, S.PROGRAM: S.PROGRAM_ATTRS,
                  S.BLOCK: S.BLOCK_ATTRS}.get(name, {})
        parents = _PARENTS.get(name)
    for aname in list(op.attributes):
        kind = schema.get(aname)
        if kind is None:
            errs.append((op, f"'{name}' op has unknown attribute '{aname}' (allowed: "
                             f"{', '.join(schema) or 'none'})"))
            continue
        try:
            value = decode_attr(op, aname, op.attributes[aname], kind)
        except IRError as e:
            errs.append((op, str(e)))
            continue
        if kind == S.INT and value < 0 and aname != "channel":
            errs.append((op, f"'{name}' op attribute '{aname}' must be >= 0, got {value}"))
        if aname == "channel" and value < -1:
            errs.append((op, f"'{name}' op attribute 'channel' must be >= -1, got {value}"))
    parent = op.parent.name if op.parent is not None else None
    if parents is not None and parent not in parents:
        errs.append((op, f"'{name}' op must be nested in {' or '.join(repr(p) for p in parents)}"
                         f", not in {repr(parent) if parent else 'the top level'}"))
    return errs


def pipeline_errors(op) -> list[tuple[object, str]]:
    try:
        p = read_pipeline(op)
        s = p.schedule_object()
    except IRError as e:
        return [(e.op, str(e))]
    errs = []
    for state, attr in _STATE_NEEDS.items():
        if S.state_index(p.state) >= S.state_index(state) and attr not in op.attributes \
                and p.state != "lowered":
            errs.append((op, f"'sched.pipeline' op in state \"{p.state}\" must have '{attr}'"))
    if p.program is not None:
        try:
            stages.verify(s, p.program, p.waits)
        except PipelineError as e:
            errs.append((p.program_op, str(e)))
    elif (stages.is_double_buffer(s) and p.state in ("blocks", "explicit", "phases")):
        errs.append((op, f"'sched.pipeline' op in state \"{p.state}\" must hold a "
                         f"'sched.program'"))
    if p.state == "phases":
        missing = [n for n in S.PHASE_OPS if n not in p.phase_ops]
        if missing:
            errs.append((op, f"'sched.pipeline' op in state \"phases\" lacks {', '.join(missing)}"))
    if p.state != "lowered":
        for name, ph in p.phase_ops.items():
            try:
                entries = read_phase(ph, p.schedule_name)
            except IRError as e:
                errs.append((e.op, str(e)))
                continue
            for e_op, e in zip(ops_of(ph.regions[0]), entries):
                limit = {WAIT_VM: ("vmcnt", VMCNT_MAX), WAIT_LGKM: ("lgkmcnt", LGKMCNT_MAX)}.get(
                    e.op.tag)
                if limit and e.op.wait_value > limit[1]:
                    errs.append((e_op, f"'{e_op.name}' op: {limit[0]}({e.op.wait_value}) is over "
                                       f"the {NAME} limit {limit[1]}"))
    return errs


def all_errors(module) -> list[tuple[object, str]]:
    found = []

    def visit(o):
        o = as_operation(o)
        if o.name.startswith("sched."):
            found.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    if not found:
        # no sched op left (lowered): the register-staged form as it is issued (the
        # analysis loads here: a module of sched ops starts without it and numpy)
        from pipeline_mlir.analysis.lds_order import staged_hazards

        return [(op, f"the register-staged form: {msg}") for op, msg in staged_hazards(module)]
    errs = []
    for o in found:
        errs += schema_errors(o)
    if errs:  # the structure is unreliable: stop before reading pipelines
        return errs
    for o in found:
        if o.name == S.PIPELINE:
            errs += pipeline_errors(o)
    return errs


class Verify(SchedPass):
    name = "sched-verify"
    summary = "check every sched op and attribute and the schedule's structural safety"

    def __call__(self, op, pass_) -> None:
        forget_everything()     # (as SchedPass's)
        op = as_operation(op)
        errs = all_errors(op)
        for where, msg in errs:
            where.location.emit_error(f"{self.name}: {msg}")
        if errs:
            pass_.signal_pass_failure()

    def run(self, module) -> None:
        errs = all_errors(module)
        if errs:
            raise IRError(errs[0][0], errs[0][1])
