"""Shared machinery of the ``sched-*`` passes.

A pass is a small class with a ``name``, a one-line ``summary``, typed
``options`` and a ``run`` method; an instance is a callable
``(op, pass_)`` that ``PassManager.add`` accepts, so the same object works in
``pipeline-opt``, in a ``--pass-pipeline`` string and in a user's own pass
manager::

    from pipeline_mlir.passes import registry
    pm.add(registry.create("sched-annotate"), name="sched-annotate",
           argument="sched-annotate")

Errors become located MLIR diagnostics (``emit_error`` on the op concerned)
and fail the pass; they never escape as Python exceptions.
"""

from __future__ import annotations

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.options import Option, OptionTable
from pipeline_mlir.schedule.types import MAX_KERNEL_TAG
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir, passmanager
from pipeline_mlir.dialect.ir_changes import forget_everything
from pipeline_mlir.passes.catalogue import STAGE_PASS
from pipeline_mlir.dialect.ir_io import (IRError, PipelineIR, as_operation, pipeline_ops,
                                         read_pipeline, set_attr, walk_ops)


#: returned by ``run_pipeline`` when it replaced the pipeline op (concrete lowering)
CONSUMED = object()

class Pass:
    """What every Python pass has: a ``name``, a one-line ``summary`` and typed
    ``options`` (:class:`~pipeline_mlir.options.Option`), read from keyword arguments
    (:meth:`__init__`: typed values or text) or from pipeline text (:meth:`from_text`)."""

    name = ""
    summary = ""
    options: tuple[Option, ...] = ()

    def __init__(self, **values) -> None:
        table = self.option_table()
        self.values = {o.name: o.default for o in table}
        self.values.update(table.read_values(self.owner(), values))

    @classmethod
    def option_table(cls) -> OptionTable:
        table = cls.__dict__.get("_option_table")
        if table is None:
            table = cls._option_table = OptionTable(cls.options)
        return table

    @classmethod
    def owner(cls) -> str:
        return f"pass '{cls.name}'"

    @classmethod
    def from_text(cls, pairs: list[tuple[str, str]]) -> "SchedPass":
        """The pass with options from text ``[(key, value), ...]``."""
        return cls(**cls.option_table().read_pairs(cls.owner(), pairs))

    def __getitem__(self, key: str):
        return self.values[key]


class SchedPass(Pass):
    """Base class: run :meth:`run_pipeline` on every ``sched.pipeline`` op."""

    #: state the pipeline must be in (None: any), and the state it leaves it in.  A pass
    #: that declares only ``produces`` is the stage that takes a pipeline to that state
    #: from the one before it in ``dialect.ops.STATES`` (the pipeline order).
    requires: str | None = None
    produces: str | None = None

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        if "produces" in cls.__dict__ and "requires" not in cls.__dict__:
            cls.requires = S.STATES[S.state_index(cls.produces) - 1]
        if is_stage(cls) and STAGE_PASS.get(cls.produces) != cls.name:  # pragma: no cover
            raise AssertionError(f"{cls.name} produces \"{cls.produces}\": passes/catalogue.py "
                                 f"names {STAGE_PASS.get(cls.produces)} as its stage pass")

    # -- entry point used by PassManager.add ----------------------------------------
    def __call__(self, op, pass_) -> None:
        forget_everything()     # (a C++ pass may have run before: its erasures unseen)
        op = as_operation(op)
        try:
            self.run(op)
        except IRError as e:
            e.op.location.emit_error(f"{self.name}: {e}")
            pass_.signal_pass_failure()
        except PipelineError as e:
            where = getattr(e, "op", None) or op
            where.location.emit_error(f"{self.name}: {e}")
            pass_.signal_pass_failure()

    def run(self, module) -> None:
        for pop in pipeline_ops(module):
            p = read_pipeline(pop)
            self.check_state(p)
            try:
                with p.op.context, p.op.location:
                    result = self.run_pipeline(p)
            except IRError:
                raise
            except PipelineError as e:  # from the core: report it at the pipeline op
                raise IRError(p.op, str(e)) from None
            if result is CONSUMED:
                continue
            if self.produces is not None:
                set_attr(p.op, "state", "enum:state", self.produces)

    def check_state(self, p: PipelineIR) -> None:
        if self.requires is None or p.state == self.requires:
            return
        have, want = S.state_index(p.state), S.state_index(self.requires)
        if have < want:
            missing = [STAGE_PASS[s] for s in S.STATES[have + 1:want + 1]]
            raise IRError(p.op, f"'sched.pipeline' op is in state \"{p.state}\" but this pass "
                                f"needs \"{self.requires}\": run {', '.join(missing)} first")
        raise IRError(p.op, f"'sched.pipeline' op is already in state \"{p.state}\" (this pass "
                            f"takes \"{self.requires}\" to \"{self.produces}\"; it cannot run twice)")

    def run_pipeline(self, p: PipelineIR) -> None:  # pragma: no cover - abstract
        """Do the pass's work on one pipeline; the op's context and location are active."""
        raise NotImplementedError


#: function attributes that make an ``llvm.func`` a kernel (``iree-convert-to-rocdl``'s)
KERNEL_MARKERS = ("rocdl.kernel", "gpu.kernel")
#: function attributes stating a kernel's block size ``[x, y, z]``
BLOCK_SIZE_ATTRS = ("gpu.known_block_size", "rocdl.reqd_work_group_size")


class OpError(Exception):
    """A located problem a :class:`ModulePass` reports as an MLIR diagnostic."""

    def __init__(self, op, message: str) -> None:
        super().__init__(message)
        self.op = op


#: the ops under (and including) a root matching a predicate, outermost first
collect_ops = walk_ops


def attr_dict(op) -> dict:
    """``{name: attribute}`` of an op (iteration yields names here, NamedAttribute upstream)."""
    out = {}
    for a in op.attributes:
        if isinstance(a, str):
            out[a] = op.attributes[a]
        else:
            out[a.name] = a.attr
    return out


class ModulePass(Pass):
    """A pass over the whole module (the LLVM step's): :meth:`run` returns the located
    problems, which become MLIR error diagnostics and fail the pass."""

    def __call__(self, op, pass_) -> None:
        forget_everything()     # (as SchedPass's)
        errors = self.run(as_operation(op))
        if errors:
            said = set()        # one op lowered to several (a vector's lanes): said once
            for e in errors:
                key = (str(e.op.location), str(e))
                if key not in said:
                    said.add(key)
                    e.op.location.emit_error(f"{self.name}: {e}")
            pass_.signal_pass_failure()

    def run(self, module) -> list[OpError]:  # pragma: no cover - abstract
        raise NotImplementedError


def is_stage(cls) -> bool:
    """Whether pass class ``cls`` takes a pipeline from one state to the next."""
    return issubclass(cls, SchedPass) and cls.produces is not None and \
        cls.produces != cls.requires


def location_index(p: PipelineIR):
    """A function OpDesc -> Location: the body op it came from, else the pipeline's."""
    table = {}
    for o, d in zip(p.body_ops, p.body):
        if d is not None:
            table.setdefault((d.tag, d.channel, d.stage, d.subtile), o.location)
    default = p.op.location

    def loc_of(desc):
        return table.get((desc.tag, desc.channel, desc.stage, desc.subtile), default)

    return loc_of


def match_ops(p: PipelineIR, new_descs: list) -> list:
    """The body IR op each of ``new_descs`` came from (same fields, first unused match).

    ``None`` marks a control op the transformation added (single-buffer reorder adds
    a barrier); a data op may neither appear nor disappear.
    """
    used = [False] * len(p.body)
    out = []
    for d in new_descs:
        for i, old in enumerate(p.body):
            if not used[i] and _same_identity(old, d):
                used[i] = True
                out.append(p.body_ops[i])
                break
        else:
            if d.tag <= MAX_KERNEL_TAG:
                raise IRError(p.op, f"'sched.pipeline' op: the transformed body has a data op "
                                    f"(tag {d.tag}, stage {d.stage}, subtile {d.subtile}) that "
                                    f"is not in the input body")
            out.append(None)
    for i, u in enumerate(used):
        if not u and p.body[i].tag <= MAX_KERNEL_TAG:
            lost = p.body_ops[i]
            raise IRError(lost, f"'{lost.name}' op was dropped by the transformation")
    return out


def _same_identity(a, b) -> bool:
    return (a.tag, a.channel, a.stage, a.subtile, a.k_offset, a.wait_value) == (
        b.tag, b.channel, b.stage, b.subtile, b.k_offset, b.wait_value)


__all__ = ["Pass", "SchedPass", "ModulePass", "OpError", "Option", "as_operation", "attr_dict",
           "collect_ops", "IRError", "PipelineIR", "location_index", "match_ops",
           "ir"]


def held_on_folded_copy(f, ops: list, pipeline: str, mark: str, holds) -> list | None:
    """The ops among ``ops`` (in function ``f``) of which ``holds`` is true once
    ``pipeline`` (passes nested in ``f``'s kind) has run on a copy of ``f``, erased again;
    None when the pipeline fails on the copy (nothing known).  Each op is marked with its
    index (the attribute ``mark``) before the copy is made and read back by it in the
    copy, never matched by position: the folding may erase, move or rewrite ops."""
    if not ops:
        return []
    i64 = ir.IntegerType.get_signless(64)
    for i, o in enumerate(ops):
        o.attributes[mark] = ir.IntegerAttr.get(i64, i)
    copy = f.clone(ir.InsertionPoint(f))
    try:
        for o in ops:
            del o.attributes[mark]
        try:
            passmanager.PassManager.parse(f"{f.name}({pipeline})").run(copy)
        except ir.MLIRError:
            return None
        found = {ir.IntegerAttr(c.attributes[mark]).value
                 for c in walk_ops(copy, lambda o: mark in o.attributes) if holds(c)}
        return [o for i, o in enumerate(ops) if i in found]
    finally:
        copy.erase()
