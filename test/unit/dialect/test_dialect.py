"""The ``sched`` dialect: op names and schema (ops.py), IR readers/builders (ir_io.py),
rocdl control-op creation and fencing (rocdl_build.py), and the bindings module."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect import ir_io
from pipeline_mlir.dialect.bindings import FLAVOR, build_context, ir, new_context
from pipeline_mlir.dialect.ir_io import (IRError, compiled_from_ir, create_entry, decode_attr,
                                         encode, entry_attrs, options_attr, parse_edge,
                                         pipeline_ops, read_entry, read_phase, read_pipeline,
                                         read_program, read_schedule, write_phase,
                                         write_program)
from pipeline_mlir.lowering.rocdl_build import (create_control, fenced_sequence, mask_attr,
                                               waitcnt_of)
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule.fences import (INTERLEAVE, LOAD_GROUPS, Dropped, Interleaved, load_runs,
                                           interleave_groups, interleaves, load_groups,
                                           repeated_waits)
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.schedule.program import MMABlockSpec
from pipeline_mlir.schedule.stages import annotate
from pipeline_mlir.schedule.types import (BARRIER, SCHED_GROUP_BARRIER, SCHEDULE_BARRIER, SET_PRIO,
                                 WAIT_FRAG, WAIT_LGKM, WAIT_VM, DepEdge, DepKind, KOffsetKind, OpDesc, OpRole,
                                 ResourceKind)
from pipeline_mlir.isa.waitcnt import decode_waitcnt

# ---- op names and schema ----------------------------------------------------------------------


def test_op_names_are_the_public_interface():
    assert S.ALL_OPS == (
        "sched.pipeline", "sched.program", "sched.block",
        "sched.prologue", "sched.kernel", "sched.epilogue",
        "sched.global_load", "sched.lds_store", "sched.frag_load", "sched.mma",
        "sched.wait_vm", "sched.wait_lgkm", "sched.barrier", "sched.set_prio",
        "sched.sched_barrier", "sched.sched_group_barrier", "sched.wait_frag")
    assert S.CONTROL_TAGS == {"sched.wait_vm": WAIT_VM, "sched.wait_lgkm": WAIT_LGKM,
                              "sched.barrier": BARRIER, "sched.set_prio": SET_PRIO,
                              "sched.sched_barrier": SCHEDULE_BARRIER,
                              "sched.sched_group_barrier": SCHED_GROUP_BARRIER,
                              "sched.wait_frag": WAIT_FRAG}
    assert S.STATES == ("logical", "annotated", "reordered", "edges", "scheduled", "blocks",
                        "explicit", "phases", "lowered")
    assert [S.state_index(s) for s in S.STATES] == list(range(len(S.STATES)))


MATMUL_TAGS = [("sched.global_load", 0, 0), ("sched.global_load", 1, 1),
               ("sched.frag_load", 0, 3), ("sched.frag_load", 1, 4),
               ("sched.mma", -1, 5), ("sched.mma", 0, 5), ("sched.mma", 7, 5),
               ("sched.global_load", -1, None), ("sched.global_load", 2, None),
               ("sched.frag_load", -1, None), ("sched.lds_store", 0, None)]
#: the 4-wave schedule's beyond those: the MX scale channels (2: A's scales, 3: B's)
SCALED_TAGS = [("sched.global_load", 2, 6), ("sched.global_load", 3, 7),
               ("sched.frag_load", 2, 8), ("sched.frag_load", 3, 9),
               ("sched.global_load", 4, None), ("sched.frag_load", 4, None)]
SINGLE_TAGS = [("sched.global_load", 0, 0), ("sched.global_load", -1, 0),
               ("sched.lds_store", 0, 1), ("sched.frag_load", 3, 2), ("sched.mma", -1, 3)]


@pytest.mark.parametrize("schedule_name", ["pingpong", "4wave"])
@pytest.mark.parametrize("name,channel,tag", MATMUL_TAGS + SCALED_TAGS)
def test_matmul_tag_table(schedule_name, name, channel, tag):
    # the scale channels are the 4-wave schedule's only (ping-pong has no MX kernel)
    scaled = {(n, c): t for n, c, t in SCALED_TAGS}
    if (name, channel) in scaled:
        tag = scaled[(name, channel)] if schedule_name == "4wave" else None
    assert S.data_tag(schedule_name, name, channel) == tag


@pytest.mark.parametrize("name,channel,tag", SINGLE_TAGS)
def test_single_buffer_tag_table(name, channel, tag):
    assert S.data_tag("single-buffer", name, channel) == tag


def test_tag_tables_agree_with_the_schedules():
    """Every tag a schedule's default body uses has an op, and the op maps back to it."""
    for spec in ("pingpong", "4wave", "single-buffer{T=2}"):
        schedule = parse_pipeline(spec)
        for d in schedule.build().declare_ops():
            if d.tag > 127:
                assert S.TAG_CONTROL[d.tag] in S.CONTROL_OPS
                continue
            name = S.data_op_name(schedule.name, d.tag)
            assert S.data_tag(schedule.name, name, d.channel) == d.tag
    assert S.data_op_name("4wave", 2) is None  # COMPUTE is declared but has no sched op
    assert S.data_op_forms("single-buffer") == ("sched.global_load, sched.lds_store, "
                                                "sched.frag_load, sched.mma")


def test_schema_matches_the_core():
    block_fields = {f.name: f for f in dataclasses.fields(MMABlockSpec)}
    assert set(S.BLOCK_SLOTS) | set(S.BLOCK_FLAGS) == set(block_fields)
    for flag in S.BLOCK_FLAGS:
        assert isinstance(getattr(MMABlockSpec(), flag), bool)
    assert set(S.RESOURCES.values()) == set(ResourceKind)
    assert set(S.ROLES.values()) == set(OpRole)
    assert set(S.K_OFFSETS.values()) == set(KOffsetKind)
    op_fields = {f.name for f in dataclasses.fields(OpDesc)}
    assert set(S.DATA_ATTRS) - {"k_offset", "resource", "role"} <= op_fields
    assert set(S.REQUIRED_CONTROL) <= set(S.CONTROL_ATTRS)
    for name, attrs in S.REQUIRED_CONTROL.items():
        assert set(attrs) <= set(S.CONTROL_ATTRS[name])


# ---- bindings ----------------------------------------------------------------------------------

def test_new_context_allows_unregistered_sched_ops():
    assert FLAVOR in ("iree", "mlir")
    with new_context() as ctx:
        assert ctx.allow_unregistered_dialects
        m = ir.Module.parse('"sched.barrier"() : () -> ()')
        assert '"sched.barrier"() : () -> ()' in str(m)
    ctx = ir.Context()
    with ctx, pytest.raises(ir.MLIRError):
        ir.Module.parse('"sched.barrier"() : () -> ()')


def test_sched_ops_are_handed_out_without_an_import_each(monkeypatch):
    """The bindings look up a Python module for the dialect of each op they hand out, and
    remember only one they found: the stand-in module of ``sched`` (``bindings.py``) makes
    handing out ``sched.*`` ops cost no import each (the ops stay generic ``OpView`` s)."""
    asked = []

    class Spy:
        def find_spec(self, name, path=None, target=None):
            asked.append(name)
            return None

    monkeypatch.setattr(sys, "meta_path", [Spy(), *sys.meta_path])
    with new_context():
        m = ir.Module.parse("\n".join('"sched.barrier"() : () -> ()' for _ in range(20)))
        ops = [ir_io.as_operation(o) for o in m.body.operations]
    assert len(ops) == 20 and {o.name for o in ops} == {"sched.barrier"}
    assert not [n for n in asked if n.endswith(".sched")], asked


# ---- attributes --------------------------------------------------------------------------------

@pytest.fixture
def ctx():
    # (a finished test's context: a new one loads every dialect)
    with build_context() as c, ir.Location.unknown():
        yield c


def _attr(text):
    return ir.Attribute.parse(text)


def _dummy():
    return ir.Operation.create("sched.mma")


GOOD = [(S.INT, "3 : i64", 3), (S.INT, "-1 : i32", -1), (S.BOOL, "true", True),
        (S.STR, '"x"', "x"), (S.UNIT, "unit", True), (S.INTS, "array<i64: 2, 0, 1>", [2, 0, 1]),
        (S.STRS, '["0->1F0", "a"]', ["0->1F0", "a"]), (S.STRS, "[]", []),
        ("enum:k_offset", '"k_next"', KOffsetKind.K_NEXT),
        ("enum:resource", '"mma_unit"', ResourceKind.MMA_UNIT),
        ("enum:role", '"fragment_load"', OpRole.FRAGMENT_LOAD),
        ("enum:state", '"phases"', "phases")]
BAD = [(S.INT, "true", "an integer; got true"), (S.INT, '"3"', 'an integer; got "3"'),
       (S.INT, "1.0 : f32", "an integer; got 1.000000e+00 : f32"),
       (S.BOOL, "1 : i64", "a boolean (true/false); got 1 : i64"),
       (S.STR, "1 : i64", "a string"), (S.UNIT, "true", "a unit attribute"),
       (S.INTS, "[0, 1]", "an array<i64: ...>"), (S.INTS, "array<i32: 0>", "an array<i64: ...>"),
       (S.STRS, '["a", 1]', "an array of strings"), (S.DICT, "[]", "a dictionary"),
       ("enum:k_offset", '"K0"', 'one of "k0", "k1", "k_next", "k_prev", "none"; got "K0"'),
       ("enum:state", "1 : i64", 'one of "logical",')]


@pytest.mark.parametrize("kind,text,value", GOOD)
def test_decode_attr(ctx, kind, text, value):
    assert decode_attr(_dummy(), "a", _attr(text), kind) == value


@pytest.mark.parametrize("kind,text,fragment", BAD)
def test_decode_attr_rejects(ctx, kind, text, fragment):
    op = _dummy()
    with pytest.raises(IRError) as info:
        decode_attr(op, "a", _attr(text), kind)
    assert str(info.value).startswith("'sched.mma' op attribute 'a' must be ")
    assert fragment in str(info.value)
    assert info.value.op == op


@pytest.mark.parametrize("kind,text,value", [g for g in GOOD if g[0] != "enum:state"])
def test_encode_round_trip(ctx, kind, text, value):
    py = value
    if kind.startswith("enum:"):
        py = {v: k for k, v in S.ENUMS[kind[5:]].items()}[value]
    assert decode_attr(_dummy(), "a", encode(kind, py), kind) == value


def test_require_names_the_kind(ctx):
    with pytest.raises(IRError, match=r"'sched.mma' op requires attribute 'count' \(an integer\)"):
        ir_io.require(_dummy(), "count", S.INT)


# ---- edges, options ----------------------------------------------------------------------------

def test_parse_edge(ctx):
    op = _dummy()
    assert parse_edge(op, "12->3A1", None, "edges") == DepEdge(12, 3, DepKind.ANTI, 1)
    assert parse_edge(op, "0->5O0", 6, "edges") == DepEdge(0, 5, DepKind.OUTPUT, 0)
    for e in (DepEdge.flow(0, 5), DepEdge.anti(7, 2, 1)):
        assert parse_edge(op, str(e), None, "edges") == e
    for bad in ("0->5", "0-5F0", "a->bF0", "0->5F", " 0->5F0"):
        with pytest.raises(IRError, match="malformed edge"):
            parse_edge(op, bad, None, "edges")
    with pytest.raises(IRError, match=r"attribute 'kernel_deps': edge \"6->0F0\" refers to op "
                                      r"6, but there are only 6 ops"):
        parse_edge(op, "6->0F0", 6, "kernel_deps")


@pytest.mark.parametrize("spec", ["pingpong", "pingpong{is_fp8=true max_globals=0 "
                                               "scheduling=greedy}",
                                  "4wave{dtype=fp8 BM=128 BN=128 BK=128 fences=false}",
                                  "single-buffer{T=4}"])
def test_options_round_trip(ctx, spec):
    schedule = parse_pipeline(spec)
    op = ir.Operation.create("sched.pipeline", regions=1, attributes={
        "schedule": ir.StringAttr.get(schedule.name), "options": options_attr(schedule)})
    back = read_schedule(op)  # typed attribute values, no spec text in between
    assert (back.name, dict(back.own_items()), dict(back.config)) == \
        (schedule.name, dict(schedule.own_items()), dict(schedule.config))
    assert back == schedule


def test_schedule_without_options(ctx):
    op = ir.Operation.create("sched.pipeline", regions=1,
                             attributes={"schedule": ir.StringAttr.get("4wave")})
    assert read_schedule(op).spec() == "4wave"
    op.attributes["options"] = _attr("{}")
    assert read_schedule(op).spec() == "4wave"


@pytest.mark.parametrize("options, message", [
    ('{BM = "128"}', "pipeline '4wave': option 'BM' expects an integer >= 1, got '128'"),
    ("{BM = true}", "pipeline '4wave': option 'BM' expects an integer >= 1, got 'true'"),
    ("{fences = 1 : i64}", "pipeline '4wave': option 'fences' expects a boolean"),
    ('{dtype = "int4"}', "option 'dtype' expects one of bf16|f16|fp8|i8|f32|mxfp4|mxfp8, got 'int4'"),
    ("{BM = 0 : i64}", "option 'BM' is out of range: expects an integer >= 1, got 0"),
    ("{bk = 64 : i64}", "unknown option 'bk' (did you mean 'BK'?)"),
    ("{BM = [128]}", "'sched.pipeline' op option 'BM' must be an integer, boolean or string"),
    ("{BM = 128 : i128}", "'sched.pipeline' op option 'BM' must be an integer of at most 64 "
                          "bits; got 128 : i128"),
])
def test_schedule_attribute_errors(ctx, options, message):
    """Option attributes are read as typed values: the wrong type is an error, not text."""
    op = ir.Operation.create("sched.pipeline", regions=1, attributes={
        "schedule": ir.StringAttr.get("4wave"), "options": _attr(options)})
    with pytest.raises(IRError) as ei:
        read_schedule(op)
    assert message in str(ei.value)
    assert ei.value.op == op


# ---- entries -----------------------------------------------------------------------------------

CONTROL_DESCS = [OpDesc.wait_vm(12), OpDesc.wait_lgkm(0), OpDesc.barrier(), OpDesc.set_prio(1),
                 OpDesc.schedule_barrier(), OpDesc.sched_group_barrier(3, 2)]


@pytest.mark.parametrize("spec", ["pingpong", "4wave{dtype=fp8 BM=128 BN=128 BK=128}",
                                  "single-buffer{T=2}"])
def test_entry_round_trip(ctx, spec):
    schedule = parse_pipeline(spec)
    s = schedule.build()
    logical = s.declare_ops()
    descs = logical + annotate(s, logical) + CONTROL_DESCS
    descs.append(dataclasses.replace(logical[0], k_offset=KOffsetKind.K_PREV, wait_value=3,
                                     vm_cost=4, lgkm_cost=2, vgpr_kill=1))
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        ops = [create_entry(d, schedule.name) for d in descs]
    assert [read_entry(o, schedule.name) for o in ops] == descs
    for o in ops:  # no operands, results or regions
        assert (len(o.operands), len(o.results), len(o.regions)) == (0, 0, 0)


def test_an_overflow_guard_mark_survives_the_ir(ctx):
    """The mark sched-fix-hazards puts on an overflow guard is a unit attribute of
    ``sched.wait_vm`` / ``sched.wait_lgkm`` (it takes no part in OpDesc equality: compared by
    itself); ``sched.wait_frag`` has no such attribute, and the verifier says so."""
    from pipeline_mlir.passes.verify import schema_errors

    descs = [OpDesc.wait_vm(61).with_(overflow_guard=True),
             OpDesc.wait_lgkm(7).with_(overflow_guard=True), OpDesc.wait_lgkm(7)]
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        ops = [create_entry(d, "4wave") for d in descs]
        frag = ir.Operation.create("sched.wait_frag", attributes={
            "count": _attr("2 : i64"), "overflow_guard": ir.UnitAttr.get()})
    assert [read_entry(o, "4wave").overflow_guard for o in ops] == [True, True, False]
    assert "overflow_guard" in str(ops[1]) and "overflow_guard" not in str(ops[2])
    assert not read_entry(frag, "4wave").overflow_guard
    assert any("'sched.wait_frag' op has unknown attribute 'overflow_guard'" in m
               for _, m in schema_errors(frag))


def test_entry_canonical_form(ctx):
    name, attrs = entry_attrs(OpDesc.logical(5, stage=1, subtile=0), "4wave")
    assert (name, sorted(attrs)) == ("sched.mma", ["stage", "subtile"])
    name, attrs = entry_attrs(OpDesc.logical(3, channel=0), "pingpong")
    assert (name, sorted(attrs)) == ("sched.frag_load", ["channel", "stage", "subtile"])
    name, attrs = entry_attrs(OpDesc.logical(0, channel=0, k_offset=KOffsetKind.K1), "4wave")
    assert str(attrs["k_offset"]) == '"k1"'
    assert entry_attrs(OpDesc.barrier(), "4wave") == ("sched.barrier", {})
    name, attrs = entry_attrs(OpDesc.sched_group_barrier(3, 2), "single-buffer")
    assert name == "sched.sched_group_barrier"
    assert str(attrs["kind"]) == '"mfma"' and ir.IntegerAttr(attrs["size"]).value == 2
    assert sorted(attrs) == ["kind", "size"]


def test_entry_errors(ctx):
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        op = ir.Operation.create("sched.wait_vm")
        with pytest.raises(IRError, match=r"'sched.wait_vm' op requires attribute 'count' "
                                          r"\(an integer\)"):
            read_entry(op, "4wave")
        op = ir.Operation.create("sched.program", regions=1)
        with pytest.raises(IRError, match="'sched.program' is not a sched entry op"):
            read_entry(op, "4wave")
        op = ir.Operation.create("sched.lds_store", attributes={"channel": ir_io.i64(0)})
        with pytest.raises(IRError, match="'sched.lds_store' op with channel 0 has no meaning "
                                          "in schedule 'pingpong'"):
            read_entry(op, "pingpong")
        assert read_entry(op, "single-buffer").tag == 1
    with pytest.raises(Exception, match="schedule 'single-buffer' has no sched op for tag 5"):
        entry_attrs(OpDesc.logical(5), "single-buffer")


# ---- pipelines, programs, phases ---------------------------------------------------------------

def _pipeline_module(spec: str):
    schedule = parse_pipeline(spec)
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        pop = ir.Operation.create("sched.pipeline", regions=1, attributes={
            "schedule": ir.StringAttr.get(schedule.name), "options": options_attr(schedule)})
    pop.regions[0].blocks.append()
    return module, pop


@pytest.mark.parametrize("spec", ["pingpong", "4wave{dtype=bf16 BM=128 BN=128 BK=64}"])
def test_program_round_trip(ctx, spec):
    c = parse_pipeline(spec).compile()
    module, pop = _pipeline_module(spec)
    prog = write_program(pop.regions[0].blocks[0], c.program, c.waits, parse_pipeline(spec).name,
                         lambda d: ir.Location.unknown())
    program, waits = read_program(prog, parse_pipeline(spec).name)
    assert program == c.program
    assert waits == c.waits
    p = read_pipeline(pop)
    assert p.program == c.program and p.program_op == prog


@pytest.mark.parametrize("spec", ["pingpong", "single-buffer{T=2}"])
def test_phase_round_trip(ctx, spec):
    schedule = parse_pipeline(spec)
    c = schedule.compile()
    module, pop = _pipeline_module(spec)
    block = pop.regions[0].blocks[0]
    for name, entries in ((S.PROLOGUE, c.prologue), (S.KERNEL, c.kernel),
                          (S.EPILOGUE, c.epilogue)):
        ph = write_phase(block, name, entries, schedule.name, lambda d: ir.Location.unknown())
        assert read_phase(ph, schedule.name) == entries


def test_compiled_from_ir_needs_phases(ctx):
    module, pop = _pipeline_module("4wave")
    with pytest.raises(IRError, match=r"'sched.pipeline' op is in state \"logical\"; printing "
                                      r"the schedule needs state \"phases\""):
        compiled_from_ir(read_pipeline(pop))


def test_read_pipeline_structure_errors(ctx):
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        pop = ir.Operation.create("sched.pipeline", regions=2,
                                  attributes={"schedule": ir.StringAttr.get("4wave")})
    with pytest.raises(IRError, match="'sched.pipeline' op must have exactly one region, has 2"):
        read_pipeline(pop)
    module, pop = _pipeline_module("pingpong")
    with ir.InsertionPoint(pop.regions[0].blocks[0]):
        prog = ir.Operation.create("sched.program", regions=1)
    with ir.InsertionPoint(prog.regions[0].blocks.append()):
        blk = ir.Operation.create("sched.block", regions=3)
    with pytest.raises(IRError, match=r"'sched.block' op must have 1 or 2 regions \(slots, "
                                      r"explicit ops\); has 3") as info:
        read_pipeline(pop)
    assert info.value.op == blk
    assert pipeline_ops(module.operation) == [pop]


# ---- rocdl control ops -------------------------------------------------------------------------

def test_waitcnt_immediates():
    assert waitcnt_of(OpDesc.wait_vm(0)) == 3952
    assert waitcnt_of(OpDesc.wait_lgkm(0)) == 49279
    assert waitcnt_of(OpDesc.wait_vm(16)) == 0x4F70
    assert decode_waitcnt(waitcnt_of(OpDesc.wait_vm(63))) == (63, 7, 15)
    assert decode_waitcnt(waitcnt_of(OpDesc.wait_lgkm(15))) == (63, 7, 15)
    assert decode_waitcnt(waitcnt_of(OpDesc.wait_lgkm(3))) == (63, 7, 3)
    for n in range(64):
        assert decode_waitcnt(waitcnt_of(OpDesc.wait_vm(n))) == (n, 7, 15)
    with pytest.raises(ConfigError, match=r"vmcnt\(64\) is outside the gfx950 range 0..63"):
        waitcnt_of(OpDesc.wait_vm(64))
    with pytest.raises(ConfigError, match=r"lgkmcnt\(16\) is outside the gfx950 range 0..15"):
        waitcnt_of(OpDesc.wait_lgkm(16))


def test_mask_attr(ctx):
    assert str(mask_attr(0)) == "#rocdl.sched_group_mask<none>"
    assert str(mask_attr(0xFFF)) == "#rocdl.sched_group_mask<all>"
    assert str(mask_attr(0x108)) == "#rocdl.sched_group_mask<mfma_wmma|ds_read>"
    assert str(mask_attr(0x20)) == "#rocdl.sched_group_mask<vmem_read>"
    with pytest.raises(ValueError, match="has bits outside 0xFFF"):
        mask_attr(0x1000)


def test_create_control(ctx):
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        for d in CONTROL_DESCS:
            # sched_group_barrier: see test_passes.py::test_lower_sched_group_barrier_masks
            if d.tag != SCHED_GROUP_BARRIER:
                create_control(d)
    lines = [ln.strip() for ln in str(module).splitlines()[1:-1]]
    assert lines == ["rocdl.s.waitcnt 3964", "rocdl.s.waitcnt 49279", "rocdl.s.barrier",
                     "rocdl.s.setprio 1", "rocdl.sched.barrier none"]
    with pytest.raises(ConfigError):
        with ir.InsertionPoint(module.body):
            create_control(OpDesc.wait_lgkm(16))


# fenced_sequence: "|" marks a fence
W, L, B, SB = OpDesc.wait_vm(0), OpDesc.wait_lgkm(0), OpDesc.barrier(), OpDesc.schedule_barrier()
M = OpDesc.logical(5)
_SHOW = {WAIT_VM: "W", WAIT_LGKM: "L", BARRIER: "B", SCHEDULE_BARRIER: "SB", 5: "M"}


def _fenced(descs, blocks=None, waits=True, fence_blocks=True, loads=False):
    return " ".join("|" if d is None else _SHOW[d.tag]
                    for d in fenced_sequence(descs, blocks, waits, fence_blocks, loads))


def test_fenced_sequence_waits():
    assert _fenced([]) == ""
    assert _fenced([W]) == "| W |"
    assert _fenced([M, W, L, M]) == "M | W L | M"
    assert _fenced([M, W, B, L, M]) == "M | W | B | L | M"
    assert _fenced([W, SB, M]) == "| W SB M"  # an existing sched_barrier is the fence
    assert _fenced([SB, W, M]) == "SB W | M"
    assert _fenced([M, W, L], waits=False) == "M W L"


def test_fenced_sequence_blocks():
    assert _fenced([M, M, M], [0, 0, 1]) == "M M | M"
    assert _fenced([M, SB, M], [0, 0, 1]) == "M SB M"
    assert _fenced([M, SB, M], [0, 1, 1]) == "M SB M"  # the new block starts with a fence
    assert _fenced([M, W, M], [0, 1, 1]) == "M | W | M"  # one fence, not two
    assert _fenced([M, M], [0, 1], fence_blocks=False) == "M M"
    assert _fenced([M, M], None) == "M M"
    assert _fenced([M, W, M], [0, 1, 1], waits=False) == "M | W M"


# a global load (G) and a fragment load (F), with the roles the cost model gives them
G = dataclasses.replace(OpDesc.logical(0, 0, 0, 0), role=OpRole.GLOBAL_LOAD)
F = dataclasses.replace(OpDesc.logical(3, 0, 0, 0), role=OpRole.FRAGMENT_LOAD)
_SHOW.update({0: "G", 3: "F"})


def test_fenced_sequence_loads():
    """fence_loads: one fence where a block's fragment loads and global loads meet (either
    order), none between loads of one kind, none where a fence already is, none without
    blocks (the single-buffer kernel's order is its schedule-group hints')."""
    assert _fenced([F, F, G, M], [0, 0, 0, 0], loads=True) == "F F | G M"
    assert _fenced([G, M, F], [0, 0, 0], loads=True) == "G M | F"
    assert _fenced([F, G, F, G], [0] * 4, loads=True) == "F | G | F | G"
    assert _fenced([F, F, G, G], [0] * 4, loads=True) == "F F | G G"
    assert _fenced([F, W, G], [0] * 3, loads=True) == "F | W | G"        # the waits' fences
    assert _fenced([F, SB, G], [0] * 3, loads=True) == "F SB G"
    assert _fenced([F, G], [0, 1], loads=True) == "F | G"                  # one, not two
    assert _fenced([F, F, G, M], [0] * 4) == "F F G M"                     # off by default
    assert _fenced([F, F, G, M], None, loads=True) == "F F G M"            # no blocks


# interleave: "F"/"G" fragment/global loads, "C" an MMA, "(SB)" a schedule barrier the
# lowering drops when it interleaves, "^" the interleave pipeline, "-" a dropped wait
FR = OpDesc(tag=3, role=OpRole.FRAGMENT_LOAD)
GL = OpDesc(tag=0, role=OpRole.GLOBAL_LOAD)
C = OpDesc(tag=5, role=OpRole.COMPUTE)


def _interleaved(descs, blocks=None):
    show = {**_SHOW, 3: "F", 0: "G", 5: "C"}
    return " ".join("|" if d is None else "^" if d is INTERLEAVE else
                    "(SB)" if isinstance(d, Interleaved) else "-" if isinstance(d, Dropped)
                    else show[d.tag]
                    for d in fenced_sequence(descs, blocks, True, True, interleave=True))


def _loads_interleaved(descs, blocks):
    return " ".join("|" if d is None else "^" if d is INTERLEAVE else "@" if d is LOAD_GROUPS
                    else "(SB)" if isinstance(d, Interleaved) else
                    {3: "F", 0: "G", 5: "C", BARRIER: "B", WAIT_VM: "W"}[d.tag]
                    for d in fenced_sequence(descs, blocks, True, True, fence_loads=True,
                                             interleave=True))


def test_fenced_sequence_load_runs():
    """A block's fragment loads directly followed by its global loads: a fence before the
    run, ``LOAD_GROUPS`` after it, no fence between the two kinds; other changes between
    the kinds keep their fence (global loads first, a wait or a block between them)."""
    assert _loads_interleaved([FR, FR, GL, GL, B], [0] * 5) == "| F F G G @ B"
    assert _loads_interleaved([GL, FR, B], [0] * 3) == "G | F B"
    assert _loads_interleaved([FR, W, GL], [0] * 3) == "F | W | G"
    assert _loads_interleaved([FR, GL], [0, 1]) == "F | G"
    assert _loads_interleaved([FR, GL, FR, GL], [0] * 4) == "| F G @ | F G @"
    assert load_runs([FR, FR, GL, GL, B], [0] * 5) == {0: 3}
    assert load_runs([FR, GL, GL], [0, 0, 1]) == {0: 1}    # the run ends with its block
    assert load_runs([FR, GL], None) == {}                 # no blocks: no runs
    assert load_runs([FR, GL, FR, GL], [0] * 4, skip={1}) == {2: 3}
    # without fence_loads the plain interleaved sequence (no runs)
    assert all(d is not LOAD_GROUPS for d in fenced_sequence([FR, GL], [0, 0], True, True,
                                                             interleave=True))


def test_fenced_sequence_interleave():
    # a 4-wave block: waits, barrier, then fragment loads, SB, global loads, the MMA
    assert _interleaved([W, L, B, FR, SB, GL, C], [0] * 7) == "| W L | B | F (SB) G C ^ |"
    # the run stops at a wait (the MMA after it has no loads of its own) and at the block
    assert _interleaved([FR, SB, GL, W, C]) == "F SB G | W | C"
    assert _interleaved([FR, GL, C], [0, 1, 1]) == "F | G C ^ |"
    assert _interleaved([C, C]) == "C C"                      # no loads before it
    assert _interleaved([FR, SB, GL, C], [0, 0, 0, 0]) == "| F (SB) G C ^ |"
    # a wait that the same (or a stricter) wait repeats right after the MMA is dropped,
    # and the MMA joins the run; not when the later wait is weaker, of the other counter,
    # or something else than the MMA lies between them
    V0, V3 = OpDesc.wait_vm(0), OpDesc.wait_vm(3)
    assert _interleaved([FR, SB, GL, W, C, W]) == "| F (SB) G - C ^ | W |"
    assert _interleaved([FR, SB, GL, W, C, L, W]) == "| F (SB) G - C ^ | L W |"
    assert _interleaved([FR, SB, GL, V0, C, V3]) == "F SB G | W | C | W |"
    assert _interleaved([FR, SB, GL, W, C, L]) == "F SB G | W | C | L |"
    assert _interleaved([FR, SB, GL, W, C, B, W]) == "F SB G | W | C B | W |"
    assert repeated_waits([W, C, W]) == {0} and repeated_waits([W, C, C, W]) == set()
    assert repeated_waits([W, SB, C, SB, L, W]) == {0}      # schedule barriers touch nothing
    assert repeated_waits([W, SB, FR, C, W]) == set()
    # with fence_loads too: no fence inside an interleaved run; fragment loads directly
    # followed by global loads are one run of load_groups ("@"), fenced before it
    assert _loads_interleaved([B, FR, SB, GL, C, FR, GL, B], [0] * 8) == \
        "B | F (SB) G C ^ | F G @ B"
    assert _loads_interleaved([B, FR, GL, B], [0] * 4) == "B | F G @ B"
    # without interleave the sequence is the plain fenced one
    assert [d for d in fenced_sequence([FR, SB, GL, C], None, True, True)] == [FR, SB, GL, C]


def test_interleave_groups():
    # each MFMA followed by its share of the loads, in order, the first shares the larger
    assert interleave_groups(4, ["ds_read"] * 4 + ["vmem_read"] * 2) == [
        ("mfma", 1), ("ds_read", 2), ("mfma", 1), ("ds_read", 2), ("mfma", 1),
        ("vmem_read", 1), ("mfma", 1), ("vmem_read", 1)]
    assert interleave_groups(2, ["ds_read", "vmem_read", "vmem_read"]) == [
        ("mfma", 1), ("ds_read", 1), ("vmem_read", 1), ("mfma", 1), ("vmem_read", 1)]
    assert interleave_groups(3, ["ds_read"]) == [("mfma", 1), ("ds_read", 1), ("mfma", 1),
                                                 ("mfma", 1)]
    assert interleave_groups(0, ["ds_read"]) == []
    assert not interleaves(1) and interleaves(2)


def test_load_groups():
    # a fragment read before each LDS DMA (the wait state after its M0 write), the rest first
    ds, vm = "ds_read", "vmem_read"
    assert load_groups([ds] * 8 + [vm] * 4) == [
        (ds, 4), (ds, 1), (vm, 1), (ds, 1), (vm, 1), (ds, 1), (vm, 1), (ds, 1), (vm, 1)]
    assert load_groups([ds, vm, vm]) == [(ds, 1), (vm, 1), (vm, 1)]
    assert load_groups([ds] * 2) == [] and load_groups([vm] * 2) == []
    assert load_groups([vm, ds]) == []                      # the DMAs come first
    assert load_groups([ds, vm, "mfma"]) == []              # an MMA region: interleave_groups


def test_a_derived_count_survives_the_ir_and_a_weaker_count_is_refused(ctx):
    """A wait lowered for speed keeps the count its schedule derived (``derived_count``) in
    the IR; a ``count`` above it is refused naming the op and both fields, wait_frag's too
    (``stages.cap_split_load_waits`` lowers fragment waits over lgkmcnt's limit)."""
    from pipeline_mlir.passes.verify import schema_errors

    descs = [OpDesc.wait_vm(31).with_(derived_count=48), OpDesc.wait_vm(31),
             OpDesc.wait_lgkm(3).with_(derived_count=5),
             OpDesc.wait_frag(15).with_(derived_count=17)]
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        ops = [create_entry(d, "4wave") for d in descs]
        weak = ir.Operation.create("sched.wait_vm", attributes={
            "count": _attr("49 : i64"), "derived_count": _attr("48 : i64")})
        frag = ir.Operation.create("sched.wait_frag", attributes={
            "count": _attr("5 : i64"), "derived_count": _attr("4 : i64")})
    got = [read_entry(o, "4wave") for o in ops]
    assert [(d.wait_value, d.derived_count, d.overflow_guard) for d in got] == [
        (31, 48, False), (31, None, False), (3, 5, False), (15, 17, False)]
    assert "derived_count = 48" in str(ops[0]) and "derived_count" not in str(ops[1])
    with pytest.raises(IRError, match=r"'sched.wait_vm' op: count 49 is above its "
                                      r"derived_count 48"):
        read_entry(weak, "4wave")
    with pytest.raises(IRError, match=r"'sched.wait_frag' op: count 5 is above its "
                                      r"derived_count 4"):
        read_entry(frag, "4wave")
    assert not any("unknown attribute" in m for _, m in schema_errors(frag))


def test_walk_blocks_finds_every_nested_block():
    """``ir_io.walk_blocks``: the blocks of the root and of every op under it, an op's
    blocks region by region (an ``scf.if`` with an ``else`` inside an ``scf.for``: 4
    blocks, each found once, the loop's before the branches it holds)."""
    with new_context():
        m = ir.Module.parse("""
        func.func @f(%n: index, %c: i1) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          scf.for %i = %c0 to %n step %c1 {
            scf.if %c {
              %x = arith.addi %i, %i : index
            } else {
              %y = arith.muli %i, %i : index
            }
          }
          return
        }""")
        fn = next(iter(m.body.operations)).operation
        blocks = ir_io.walk_blocks(fn)
        firsts = [ir_io.as_operation(next(iter(b.operations))).name for b in blocks]
        assert firsts == ["arith.constant", "scf.if", "arith.addi", "arith.muli"]
        assert [len(b.arguments) for b in blocks] == [2, 1, 0, 0]
