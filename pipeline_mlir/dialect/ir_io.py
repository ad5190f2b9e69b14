"""Builders and readers between ``sched`` IR and the core's plain objects.

Readers check what they read against the schema of ``ops.py`` and raise
:class:`IRError` naming the op (its location is reported by the caller);
builders write the canonical form: only attributes that differ from their
defaults, so the IR stays readable in lit tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.options import INT64_MAX, INT64_MIN
from pipeline_mlir.schedule.compiler import ScheduleCompiler
from pipeline_mlir.schedule.program import MMABlockSpec, PipelineProgram
from pipeline_mlir.schedule.program_builder import DerivedWaits
from pipeline_mlir.schedule.types import (SCHED_GROUP_BARRIER, SET_PRIO, WAIT_FRAG, WAIT_LGKM,
                                          WAIT_VM, DepEdge, DepKind, KOffsetKind, OpDesc,
                                          OpRole, Phase, ResourceKind, ScheduleEntry)
from pipeline_mlir.schedules.registry import NamedSchedule, make_schedule


class IRError(PipelineError):
    """Malformed ``sched`` IR; ``op`` is the offending operation (for its location)."""

    def __init__(self, op, message: str) -> None:
        super().__init__(message)
        self.op = op


# ---- attribute access ---------------------------------------------------------------------------

def _kind_text(kind: str) -> str:
    if kind.startswith("enum:"):
        return "one of " + ", ".join(f"\"{k}\"" for k in S.ENUMS[kind[5:]])
    return {S.INT: "an integer", S.BOOL: "a boolean (true/false)", S.STR: "a string",
            S.UNIT: "a unit attribute", S.INTS: "an array<i64: ...>",
            S.STRS: "an array of strings", S.DICT: "a dictionary"}[kind]


def int_value(attr) -> int | None:
    """The value of an integer attribute of at most 64 bits (``index`` included), else None
    (a wider type such as ``i128``, whose value the bindings cannot give exactly, or a value
    outside the i64 range)."""
    # (exact classes first: the bindings hand attributes and types out as their own
    # class, and a class test of theirs costs several times a ``type(x) is`` test)
    if type(attr) is not ir.IntegerAttr:
        if not isinstance(attr, ir.IntegerAttr) or isinstance(attr, ir.BoolAttr):
            return None
        attr = ir.IntegerAttr(attr)
    t = attr.type
    kind = type(t)
    if kind is ir.IntegerType:
        if t.width > 64:
            return None
    elif kind is not ir.IndexType and not (
            isinstance(t, ir.IndexType) or (isinstance(t, ir.IntegerType) and t.width <= 64)):
        return None
    v = attr.value
    return v if INT64_MIN <= v <= INT64_MAX else None


def decode_attr(op, name: str, attr, kind: str):
    """Python value of ``attr`` as schema ``kind``; IRError if it has another type."""
    try:
        if kind == S.INT and (v := int_value(attr)) is not None:
            return v
        if kind == S.BOOL and isinstance(attr, ir.BoolAttr):
            return ir.BoolAttr(attr).value
        if kind == S.STR and isinstance(attr, ir.StringAttr):
            return ir.StringAttr(attr).value
        if kind == S.UNIT and isinstance(attr, ir.UnitAttr):
            return True
        if kind == S.INTS and isinstance(attr, ir.DenseI64ArrayAttr):
            return list(ir.DenseI64ArrayAttr(attr))
        if kind == S.STRS and isinstance(attr, ir.ArrayAttr):
            out = []
            for a in ir.ArrayAttr(attr):
                if not isinstance(a, ir.StringAttr):
                    break
                out.append(ir.StringAttr(a).value)
            else:
                return out
        if kind == S.DICT and isinstance(attr, ir.DictAttr):
            d = ir.DictAttr(attr)
            return {na.name: na.attr for na in d}
        if kind.startswith("enum:") and isinstance(attr, ir.StringAttr):
            text = ir.StringAttr(attr).value
            table = S.ENUMS[kind[5:]]
            if text in table:
                return table[text]
            raise IRError(op, f"'{op.name}' op attribute '{name}' must be {_kind_text(kind)}; "
                              f"got \"{text}\"")
    except IRError:
        raise
    except Exception:  # pragma: no cover - binding quirks end up as a schema error below
        pass
    shown = _kind_text(kind)
    if kind == S.INT and isinstance(attr, ir.IntegerAttr) and not isinstance(attr, ir.BoolAttr):
        shown = f"an integer of at most 64 bits ({INT64_MIN}..{INT64_MAX})"
    raise IRError(op, f"'{op.name}' op attribute '{name}' must be {shown}; got {attr}")


def get(op, name: str, kind: str, default=None):
    attrs = op.attributes
    if name not in attrs:
        return default
    return decode_attr(op, name, attrs[name], kind)


def require(op, name: str, kind: str):
    if name not in op.attributes:
        raise IRError(op, f"'{op.name}' op requires attribute '{name}' ({_kind_text(kind)})")
    return get(op, name, kind)


def i64(v: int):
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(v))


def index_constant(v: int):
    """A new ``arith.constant v : index`` at the current insertion point."""
    t = ir.IndexType.get()
    return B.arith.constant(t, ir.IntegerAttr.get(t, v))


def encode(kind: str, value):
    if kind == S.INT:
        return i64(value)
    if kind == S.BOOL:
        return ir.BoolAttr.get(bool(value))
    if kind in (S.STR,) or kind.startswith("enum:"):
        return ir.StringAttr.get(value)
    if kind == S.UNIT:
        return ir.UnitAttr.get()
    if kind == S.INTS:
        return ir.DenseI64ArrayAttr.get([int(v) for v in value])
    if kind == S.STRS:
        return ir.ArrayAttr.get([ir.StringAttr.get(v) for v in value])
    raise ValueError(kind)


def set_attr(op, name: str, kind: str, value) -> None:
    op.attributes[name] = encode(kind, value)


def drop_attr(op, name: str) -> None:
    if name in op.attributes:
        del op.attributes[name]


def as_operation(op):
    """An ``ir.Operation`` from a Module, an OpView or an Operation (an Operation is its own
    ``operation``: returned at once, the common case, which the passes ask millions of
    times per build)."""
    if type(op) is ir.Operation:
        return op
    try:                    # an OpView or a Module: its ``operation``
        return op.operation
    except AttributeError:
        return op


def ops_of(region) -> list:
    """The operations of a single-block region (empty region: none)."""
    blocks = list(region.blocks)
    if not blocks:
        return []
    return [as_operation(o) for o in blocks[0].operations]


def walk_ops(root, pred) -> list:
    """Every operation under ``root`` (itself included), in pre-order, for which ``pred``
    holds.  The walk hands its callback ``ir.Operation`` objects (never an OpView), so they
    go to ``pred`` as they come: the passes walk modules hundreds of times per build."""
    out = []
    keep, advance = out.append, ir.WalkResult.ADVANCE

    def visit(o):
        if pred(o):
            keep(o)
        return advance

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out


def walk_blocks(root) -> list:
    """Every block of ``root`` and of the operations under it: the ops that hold regions
    in pre-order (as :func:`walk_ops` visits them), each one's blocks region by region.
    A list, so the blocks may be rewritten as they are visited."""
    return [block for o in walk_ops(root, lambda o: len(o.regions) > 0)
            for region in o.regions for block in region.blocks]



def region_block(region):
    blocks = list(region.blocks)
    return blocks[0] if blocks else region.blocks.append()


# ---- entries (data and control ops) ----------------------------------------------------------------

def read_entry(op, schedule_name: str) -> OpDesc:
    """The OpDesc an entry op stands for (data ops need the schedule's tag table)."""
    name = op.name
    if name in S.CONTROL_TAGS:
        allowed = S.CONTROL_ATTRS[name]
        for a in S.REQUIRED_CONTROL.get(name, ()):
            require(op, a, allowed[a])
        waits = {S.WAIT_VM_OP: OpDesc.wait_vm, S.WAIT_LGKM_OP: OpDesc.wait_lgkm,
                 S.WAIT_FRAG_OP: OpDesc.wait_frag}
        if name in waits:
            guard = "overflow_guard" in allowed and bool(get(op, "overflow_guard", S.UNIT))
            derived = get(op, "derived_count", S.INT) if "derived_count" in allowed else None
            if derived is not None and (count := get(op, "count", S.INT)) > derived:
                raise IRError(op, f"'{name}' op: count {count} is above its derived_count "
                                  f"{derived} (a lowered wait must be at least as strong)")
            return waits[name](get(op, "count", S.INT)).with_(overflow_guard=guard,
                                                              derived_count=derived)
        if name == S.SET_PRIO_OP:
            return OpDesc.set_prio(get(op, "priority", S.INT))
        if name == S.BARRIER_OP:
            return OpDesc.barrier()
        if name == S.SCHED_BARRIER_OP:
            return OpDesc.schedule_barrier()
        return OpDesc.sched_group_barrier(get(op, "kind", "enum:hint_group"),
                                          get(op, "size", S.INT))
    if name not in S.DATA_OPS:
        raise IRError(op, f"'{name}' is not a sched entry op (expected one of "
                          f"{', '.join(S.ENTRY_OPS)})")
    attrs = op.attributes     # read once: a data op has up to a dozen attributes

    def value(key: str, kind: str, default):
        return decode_attr(op, key, attrs[key], kind) if key in attrs else default

    channel = value("channel", S.INT, -1)
    tag = S.data_tag(schedule_name, name, channel)
    if tag is None:
        raise IRError(op, f"'{name}' op with channel {channel} has no meaning in schedule "
                          f"'{schedule_name}' (it accepts: {S.data_op_forms(schedule_name)})")
    kw = {k: value(k, S.INT, 0) for k in ("stage", "subtile", "wait_value", "latency",
                                           "vm_cost", "lgkm_cost", "vgpr_def", "vgpr_kill")}
    return OpDesc(tag=tag, channel=channel,
                  k_offset=value("k_offset", "enum:k_offset", KOffsetKind.NONE),
                  resource=value("resource", "enum:resource", ResourceKind.NONE),
                  role=value("role", "enum:role", OpRole.NONE), **kw)


def entry_attrs(desc: OpDesc, schedule_name: str) -> tuple[str, dict]:
    """(op name, attributes) of the entry op for ``desc``."""
    name = S.TAG_CONTROL.get(desc.tag)
    if name is not None:
        if desc.tag in (WAIT_VM, WAIT_LGKM, WAIT_FRAG):
            mark, derived = desc.overflow_guard and desc.tag != WAIT_FRAG, desc.derived_count
            return name, {"count": i64(desc.wait_value), **({"overflow_guard": ir.UnitAttr.get()}
                          if mark else {}), **({"derived_count": i64(derived)} if derived
                                               is not None else {})}
        if desc.tag == SET_PRIO:
            return name, {"priority": i64(desc.wait_value)}
        if desc.tag == SCHED_GROUP_BARRIER:
            if desc.subtile not in S.HINT_GROUP_SPELLING:
                raise PipelineError(f"sched_group_barrier group {desc.subtile} is not a hint "
                                    f"group (known: {', '.join(S.HINT_GROUPS)})")
            return name, {"kind": ir.StringAttr.get(S.HINT_GROUP_SPELLING[desc.subtile]),
                          "size": i64(desc.wait_value)}
        return name, {}
    name = S.data_op_name(schedule_name, desc.tag)
    if name is None:
        raise PipelineError(f"schedule '{schedule_name}' has no sched op for tag {desc.tag}")
    attrs = {}
    if desc.channel != -1 or name != S.MMA_OP:
        attrs["channel"] = i64(desc.channel)
    attrs["stage"] = i64(desc.stage)
    attrs["subtile"] = i64(desc.subtile)
    if desc.k_offset != KOffsetKind.NONE:
        attrs["k_offset"] = ir.StringAttr.get(S.K_OFFSET_NAMES[desc.k_offset])
    if desc.wait_value:
        attrs["wait_value"] = i64(desc.wait_value)
    if desc.role != OpRole.NONE or desc.resource != ResourceKind.NONE:
        attrs["resource"] = ir.StringAttr.get(S.RESOURCE_NAMES[desc.resource])
        attrs["latency"] = i64(desc.latency)
        attrs["role"] = ir.StringAttr.get(S.ROLE_NAMES[desc.role])
    for k in ("vm_cost", "lgkm_cost", "vgpr_def", "vgpr_kill"):
        if getattr(desc, k):
            attrs[k] = i64(getattr(desc, k))
    return name, attrs


def create_entry(desc: OpDesc, schedule_name: str, extra: dict | None = None):
    """Create the entry op at the current insertion point."""
    name, attrs = entry_attrs(desc, schedule_name)
    if extra:
        attrs.update(extra)
    return ir.Operation.create(name, attributes=attrs)


# ---- pipeline ----------------------------------------------------------------------------

EDGE_RE = re.compile(r"^(\d+)->(\d+)([FAO])(\d+)$")
_EDGE_KINDS = {"F": DepKind.FLOW, "A": DepKind.ANTI, "O": DepKind.OUTPUT}


def parse_edge(op, text: str, n_ops: int | None, attr: str) -> DepEdge:
    m = EDGE_RE.match(text)
    if not m:
        raise IRError(op, f"'{op.name}' op attribute '{attr}': malformed edge \"{text}\" "
                          f"(expected \"P->C<F|A|O><distance>\", e.g. \"0->5F0\")")
    p, c, k, d = int(m.group(1)), int(m.group(2)), _EDGE_KINDS[m.group(3)], int(m.group(4))
    if n_ops is not None and (p >= n_ops or c >= n_ops):
        raise IRError(op, f"'{op.name}' op attribute '{attr}': edge \"{text}\" refers to op "
                          f"{max(p, c)}, but there are only {n_ops} ops")
    return DepEdge(p, c, k, d)


def pipeline_ops(root) -> list:
    """Every ``sched.pipeline`` op under ``root`` (in walk order)."""
    return walk_ops(root, lambda o: o.name == S.PIPELINE)


def read_schedule(op, schedule_attr: str = "schedule",
                  options_attr_name: str = "options") -> NamedSchedule:
    """The typed schedule an op names: its ``schedule`` attribute and the typed values of
    its ``options`` dictionary (checked like a spec's, never re-parsed from text).  A
    ``sched.pipeline`` uses those names; an adopted loop ``sched.schedule``/``sched.options``."""
    name = require(op, schedule_attr, S.STR)
    values = {}
    for k, a in get(op, options_attr_name, S.DICT, {}).items():
        if isinstance(a, ir.BoolAttr):
            values[k] = ir.BoolAttr(a).value
        elif int_value(a) is not None:
            values[k] = int_value(a)
        elif isinstance(a, ir.StringAttr):
            values[k] = ir.StringAttr(a).value
        else:
            what = ("an integer of at most 64 bits" if isinstance(a, ir.IntegerAttr)
                    else "an integer, boolean or string")
            raise IRError(op, f"'{op.name}' op option '{k}' must be {what}; got {a}")
    try:
        return make_schedule(name, values)
    except PipelineError as e:
        raise IRError(op, f"'{op.name}' op: {e}") from None


def options_attr(schedule: NamedSchedule) -> object:
    """DictAttr of a schedule's options (the given ones and the ScheduleConfig overrides)."""
    d = {}
    for k, v in schedule.items():
        if isinstance(v, bool):
            d[k] = ir.BoolAttr.get(v)
        elif isinstance(v, int):
            d[k] = i64(v)
        else:
            d[k] = ir.StringAttr.get(str(v))
    return ir.DictAttr.get(d)


def schedule_attrs(schedule: NamedSchedule, schedule_attr: str = "schedule",
                   options_attr_name: str = "options") -> dict:
    """The attributes :func:`read_schedule` reads back into ``schedule``."""
    return {schedule_attr: ir.StringAttr.get(schedule.name),
            options_attr_name: options_attr(schedule)}


@dataclass
class PipelineIR:
    """What a ``sched.pipeline`` op holds, read back into core objects."""

    op: object
    schedule_name: str  # the schedule's name ("" if the op names none yet)
    state: str
    body_ops: list = field(default_factory=list)  # the IR ops of the body
    body: list[OpDesc] = field(default_factory=list)
    edges: list[DepEdge] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    program_op: object | None = None
    program: PipelineProgram | None = None
    waits: DerivedWaits | None = None
    phase_ops: dict = field(default_factory=dict)  # op name -> IR op
    _named: NamedSchedule | None = field(default=None, repr=False)

    @property
    def block(self):
        return region_block(self.op.regions[0])

    def named(self) -> NamedSchedule:
        """The typed schedule of the op (read from its attributes once)."""
        if self._named is None:
            self._named = read_schedule(self.op)
        return self._named

    def schedule_object(self):
        """The core schedule object (``PipelineSchedule``) the op's schedule builds."""
        schedule = self.named()
        try:
            return schedule.build()
        except PipelineError as e:
            raise IRError(self.op, f"'sched.pipeline' op: {e}") from None


def read_pipeline(op, need_schedule: bool = True) -> PipelineIR:
    """Read a ``sched.pipeline`` op (schema-checked as far as it is read)."""
    if len(op.regions) != 1:
        raise IRError(op, f"'sched.pipeline' op must have exactly one region, has "
                          f"{len(op.regions)}")
    if need_schedule and "schedule" not in op.attributes:
        names = [f'"{n}"' for n in sorted(S.TAG_TABLES)]
        raise IRError(op, f"'sched.pipeline' op has no 'schedule' attribute: name the schedule "
                          f"({', '.join(names[:-1])} or {names[-1]}) or run "
                          f"sched-import{{schedule=NAME}} first")
    schedule_name = get(op, "schedule", S.STR, "")
    if schedule_name and schedule_name not in S.TAG_TABLES:
        raise IRError(op, f"'sched.pipeline' op attribute 'schedule': unknown schedule "
                          f"\"{schedule_name}\" (known: {', '.join(S.TAG_TABLES)})")
    p = PipelineIR(op=op, schedule_name=schedule_name,
                   state=get(op, "state", "enum:state", "logical"))
    for child in ops_of(op.regions[0]):
        name = child.name
        if name in S.ENTRY_OPS:
            if p.program_op is not None or p.phase_ops:
                raise IRError(child, f"'{name}' op: body ops must come before the "
                                     f"'sched.program' and phase ops of their pipeline")
            p.body_ops.append(child)
            p.body.append(read_entry(child, schedule_name) if schedule_name else None)
        elif name == S.PROGRAM:
            if p.program_op is not None:
                raise IRError(child, "'sched.program' op: a pipeline holds at most one program")
            p.program_op = child
        elif name in S.PHASE_OPS:
            if name in p.phase_ops:
                raise IRError(child, f"'{name}' op: a pipeline holds at most one")
            p.phase_ops[name] = child
        else:
            raise IRError(child, f"'{name}' op is not allowed in a 'sched.pipeline' body "
                                 f"(expected sched data/control ops, sched.program, "
                                 f"sched.prologue/kernel/epilogue)")
    n = len(p.body)
    p.edges = [parse_edge(op, t, n, "edges") for t in get(op, "edges", S.STRS, [])]
    p.order = get(op, "order", S.INTS, [])
    if p.order and sorted(p.order) != list(range(n)):
        raise IRError(op, f"'sched.pipeline' op attribute 'order' must be a permutation of "
                          f"0..{n - 1}; got {p.order}")
    if p.program_op is not None and schedule_name:
        p.program, p.waits = read_program(p.program_op, schedule_name)
    return p


# ---- program ---------------------------------------------------------------------------------

def read_program(op, schedule_name: str) -> tuple[PipelineProgram, DerivedWaits | None]:
    program = PipelineProgram()
    lgkm = get(op, "wait_lgkm_first", S.INT)
    vm = get(op, "wait_vm_last", S.INT)
    if (lgkm is None) != (vm is None):
        raise IRError(op, "'sched.program' op needs both 'wait_lgkm_first' and 'wait_vm_last' "
                          "or neither")
    program.trailing_barrier = get(op, "trailing_barrier", S.BOOL, False)
    for b in ops_of(op.regions[0]):
        if b.name != S.BLOCK:
            raise IRError(b, f"'{b.name}' op is not allowed in 'sched.program' (expected "
                             f"'sched.block')")
        program.blocks.append(read_block(b, schedule_name))
        explicit = [read_entry(e, schedule_name) for e in ops_of(b.regions[1])] if len(
            b.regions) > 1 else []
        program.explicit_blocks.append(explicit)
    if not any(program.explicit_blocks):
        program.explicit_blocks = []
    return program, (DerivedWaits(lgkm, vm) if lgkm is not None else None)


def read_block(op, schedule_name: str) -> MMABlockSpec:
    if len(op.regions) not in (1, 2):
        raise IRError(op, f"'sched.block' op must have 1 or 2 regions (slots, explicit ops); "
                          f"has {len(op.regions)}")
    kw = {}
    for flag in S.BLOCK_FLAGS:
        v = get(op, flag, S.BOOL)
        if v is not None:
            kw[flag] = v
    for e in ops_of(op.regions[0]):
        slot = get(e, "slot", S.STR)
        if slot is None:
            raise IRError(e, f"'{e.name}' op in a 'sched.block' needs a 'slot' attribute "
                             f"(one of {', '.join(S.BLOCK_SLOTS)})")
        if slot not in S.BLOCK_SLOTS:
            raise IRError(e, f"'{e.name}' op attribute 'slot': unknown slot \"{slot}\" "
                             f"(expected one of {', '.join(S.BLOCK_SLOTS)})")
        if slot in kw:
            raise IRError(e, f"'{e.name}' op: slot \"{slot}\" is filled twice in this block")
        kw[slot] = read_entry(e, schedule_name)
    return MMABlockSpec(**kw)


def write_program(block, program: PipelineProgram, waits: DerivedWaits | None,
                  schedule_name: str, loc_of) -> object:
    """``loc_of(desc)`` gives each entry's location; structure ops use the current one."""
    loc = ir.Location.current
    """Create a ``sched.program`` op at the end of ``block``."""
    attrs = {}
    if waits is not None:
        attrs["wait_lgkm_first"] = i64(waits.lgkm)
        attrs["wait_vm_last"] = i64(waits.vm)
    if program.trailing_barrier:
        attrs["trailing_barrier"] = ir.BoolAttr.get(True)
    with ir.InsertionPoint(block), loc:
        prog = ir.Operation.create(S.PROGRAM, attributes=attrs, regions=1)
    pblock = prog.regions[0].blocks.append()
    default = MMABlockSpec()
    for i, b in enumerate(program.blocks):
        battrs = {f: ir.BoolAttr.get(getattr(b, f)) for f in S.BLOCK_FLAGS
                  if getattr(b, f) != getattr(default, f)}
        with ir.InsertionPoint(pblock), loc:
            bop = ir.Operation.create(S.BLOCK, attributes=battrs, regions=2)
        sblock = bop.regions[0].blocks.append()
        with ir.InsertionPoint(sblock):
            for slot in S.BLOCK_SLOTS:
                d = getattr(b, slot)
                if d.is_present():
                    with loc_of(d):
                        create_entry(d, schedule_name, {"slot": ir.StringAttr.get(slot)})
        ex = program.explicit_blocks[i] if i < len(program.explicit_blocks) else []
        if ex:
            eblock = bop.regions[1].blocks.append()
            with ir.InsertionPoint(eblock):
                for d in ex:
                    with loc_of(d):
                        create_entry(d, schedule_name)
    return prog


# ---- phases ----------------------------------------------------------------------------------

PHASE_OF = {S.PROLOGUE: Phase.PROLOGUE, S.KERNEL: Phase.KERNEL, S.EPILOGUE: Phase.EPILOGUE}


def read_phase(op, schedule_name: str) -> list[ScheduleEntry]:
    phase = PHASE_OF[op.name]
    out = []
    for i, e in enumerate(ops_of(op.regions[0])):
        out.append(ScheduleEntry(read_entry(e, schedule_name), get(e, "time_slot", S.INT, i),
                                 phase, bool(get(e, "prefetch", S.UNIT, False))))
    return out


def write_phase(block, name: str, entries: list[ScheduleEntry], schedule_name: str, loc_of,
                blocks_of: list[int] | None = None):
    with ir.InsertionPoint(block):
        ph = ir.Operation.create(name, regions=1)
    eblock = ph.regions[0].blocks.append()
    with ir.InsertionPoint(eblock):
        for i, e in enumerate(entries):
            extra = {}
            if e.time_slot != i:
                extra["time_slot"] = i64(e.time_slot)
            if e.is_prefetch:
                extra["prefetch"] = ir.UnitAttr.get()
            if blocks_of is not None and i < len(blocks_of):
                extra["block"] = i64(blocks_of[i])
            with loc_of(e.op):
                create_entry(e.op, schedule_name, extra)
    return ph


def compiled_from_ir(p: PipelineIR):
    """A ``ScheduleCompiler`` holding what a pipeline in state "phases" says (for printing)."""

    if p.state != "phases":
        raise IRError(p.op, f"'sched.pipeline' op is in state \"{p.state}\"; printing the "
                            f"schedule needs state \"phases\" (run up to sched-expand-phases)")
    s = p.schedule_object()
    c = ScheduleCompiler(config=s.config(), body=list(p.body), edges=list(p.edges),
                         sched=s.schedule_config(), program=p.program, order=list(p.order),
                         waits=p.waits, name=s.name, tag_names=dict(s.tag_names))
    c.prologue = read_phase(p.phase_ops[S.PROLOGUE], p.schedule_name)
    c.kernel = read_phase(p.phase_ops[S.KERNEL], p.schedule_name)
    c.epilogue = read_phase(p.phase_ops[S.EPILOGUE], p.schedule_name)
    c.kernel_deps = [parse_edge(p.op, t, None, "kernel_deps")
                     for t in get(p.op, "kernel_deps", S.STRS, [])]
    c.warp_stagger_index = get(p.op, "warp_stagger_index", S.INT, 0)
    c.lgkm_per_load = tuple(get(p.op, f"lgkm_per_load_{n}", S.INT, 0) for n in ("a", "b"))
    if "lgkm_per_load_sa" in p.op.attributes:        # the MX scale channels
        c.lgkm_per_load += tuple(get(p.op, f"lgkm_per_load_{n}", S.INT, 0) for n in ("sa", "sb"))
    makespan = get(p.op, "makespan", S.INT)
    if makespan is not None:     # (the scheduler's module only for a pipeline it scheduled)
        from pipeline_mlir.schedule.schedulers import ScheduleResult

        c.schedule_result = ScheduleResult(
            order=list(p.order), makespan=makespan, vgpr_peak=get(p.op, "vgpr_peak", S.INT, 0),
            lower_bound=get(p.op, "lower_bound", S.INT, 0),
            proven_optimal=get(p.op, "proven_optimal", S.BOOL, False),
            nodes=get(p.op, "search_nodes", S.INT, 0),
            stopped_by_budget=get(p.op, "stopped_by_budget", S.BOOL, False))
    return c
