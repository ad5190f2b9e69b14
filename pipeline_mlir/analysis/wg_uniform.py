"""Whether an integer value of a kernel's IR (before lowering) is the same in every wave of a
workgroup.

One rule, for every question of that kind the front end and the analyses ask (the
run-time trip count of a K-loop, :func:`pipeline_mlir.frontend.tails.check_uniform_bounds`;
the condition of an ``scf.if`` the LDS order walk follows,
:mod:`pipeline_mlir.analysis.lds_order`).  The rule is an allow-list: a value is uniform
when it is built from these sources only:

* a workgroup-level op (:data:`WORKGROUP`: workgroup ids, counts and sizes of ``hal``,
  ``gpu`` and ``rocdl``, HAL constants);
* the arguments of the function (``func.func``, ``gpu.func``, ``llvm.func``) and of an
  ``scf.forall`` over workgroups or with no mapping (not of one mapped to threads, warps
  or lanes, or mixing mappings);
* the induction variable of an ``scf.for`` whose bounds and step are uniform;

through ops known to compute their results from their operands alone, so the same in
every wave when the operands are (:data:`PURE`: constants, integer arithmetic,
comparisons, selects and casts of ``arith``, the ``index`` dialect, ``affine``'s
apply/min/max/linearize/delinearize, and the hints IREE emits that return their operands:
``iree_codegen.index_hint``, ``util.assume.int``,
``iree_tensor_ext.dispatch.workload.ordinal``).

Anything else may differ between the waves, and the answer names it: a thread, lane or
wave id (:data:`~pipeline_mlir.analysis.ir_facts.THREAD_ID_OPS`), one lane's value
(``rocdl.readfirstlane``: the same in a wave, not between waves), a value loaded from
memory (:data:`READS`), the result of an op with regions (an ``scf.if``, an ``scf.for``),
any other block argument (a loop-carried value), and every op the rule does not know,
named (a ``gpu.global_id``, a call, a cross-lane move, ``rocdl.ballot``,
``gpu.subgroup_reduce``, an inline assembly, another load or atomic, an op added to MLIR
later).  The walk is exact for what it accepts
and conservative elsewhere.  No pass state, no rewriting.

A caller may stop the walk at values it proves uniform by a rule of its own, a leaf
predicate (``varying_source(value, leaf)``): the front end's DMA copies ask whether an
offset is one value per wave, and take a thread-only value each wave's lanes agree on,
evaluated for every thread (:meth:`pipeline_mlir.frontend.read_bases.ReadBases.uniform`).
The rules above keep such a question's answer: an op of them over values each one per
wave is one per wave.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import THREAD_ID_OPS, WORKGROUP_ID_OPS
from pipeline_mlir.dialect.attrs import workgroup_forall_problem
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation

#: ops whose region arguments are the same in every wave (functions; an ``scf.forall`` when
#: :func:`_sequential_or_workgroups`)
FUNCS = ("func.func", "gpu.func", "llvm.func")
#: ops that read memory into a value
READS = ("vector.load", "vector.transfer_read", "memref.load", "amdgpu.transpose_load")
#: ops of no operand whose result is one value for the whole workgroup
WORKGROUP = frozenset(WORKGROUP_ID_OPS + (
    "hal.interface.workgroup.count", "hal.interface.workgroup.size",
    "hal.interface.constant.load", "gpu.grid_dim", "gpu.block_dim"))
#: ops whose results are computed from their operands alone: the same in every wave when
#: the operands are (constants; integer arithmetic, comparisons, selects and casts; affine
#: maps; IREE's hints, which return their operands)
PURE = frozenset((
    "arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.divsi",
    "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi", "arith.remui", "arith.remsi",
    "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrui", "arith.shrsi",
    "arith.minsi", "arith.minui", "arith.maxsi", "arith.maxui", "arith.addui_extended",
    "arith.mului_extended", "arith.mulsi_extended", "arith.index_cast",
    "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci", "arith.cmpi",
    "arith.select", "affine.apply", "affine.min", "affine.max", "affine.linearize_index",
    "affine.delinearize_index", "iree_codegen.index_hint", "util.assume.int",
    "iree_tensor_ext.dispatch.workload.ordinal"))
#: dialects all of whose ops are :data:`PURE` (the ``index`` dialect's integer arithmetic)
PURE_DIALECTS = ("index",)

#: what each kind of varying source is, for messages
WHY = {"thread": "the thread", "lane": "one lane's value", "read": "a value loaded from memory",
       "region": "the result of an op with regions", "carried": "a loop-carried value",
       "unknown": "an op the rule does not know"}


class Varying:
    """Why a value may differ between waves: ``kind`` (a key of :data:`WHY`) and the op
    (``op``) or block argument's owner op and number (``op``, ``arg``) it comes from."""

    __slots__ = ("kind", "op", "arg")

    def __init__(self, kind: str, op, arg: int | None = None) -> None:
        self.kind, self.op, self.arg = kind, op, arg

    def __repr__(self) -> str:
        return f"Varying({self.kind!r}, {self.op.name!r}, {self.arg!r})"


def _op_kind(o) -> str | None:
    """The kind of varying source op ``o`` is by itself (a key of :data:`WHY`), or None for
    one of the allow-list (:data:`WORKGROUP`, :data:`PURE`)."""
    name = o.name
    if name in THREAD_ID_OPS:
        return "thread"
    if name == "rocdl.readfirstlane":
        return "lane"
    if name in READS:
        return "read"
    if len(o.regions):
        return "region"
    if name in WORKGROUP or name in PURE or name.split(".", 1)[0] in PURE_DIALECTS:
        return None
    return "unknown"


def _sources(v) -> tuple[Varying | None, list]:
    """What one value says: the reason it varies by itself (or None), and the values it is
    made of (to look at next)."""
    if isinstance(v.owner, ir.Block):
        parent = v.owner.owner
        owner = as_operation(parent) if parent is not None else None
        name = owner.name if owner is not None else ""
        number = ir.BlockArgument(v).arg_number
        if name in FUNCS or name == "scf.forall" and _sequential_or_workgroups(owner):
            return None, []
        if name == "scf.forall":
            return Varying("thread", owner, number), []
        if name == "scf.for" and number == 0:
            return None, list(owner.operands)[:3]
        return Varying("carried", owner, number), []
    o = as_operation(v.owner)
    kind = _op_kind(o)
    return (Varying(kind, o), []) if kind is not None else (None, list(o.operands))


def _sequential_or_workgroups(forall) -> bool:
    """An ``scf.forall`` whose induction variables are the same in every wave: one with no
    mapping (each thread runs every iteration) or a loop over workgroups
    (:func:`pipeline_mlir.dialect.attrs.workgroup_forall_problem`); not one mapped to
    threads, warps or lanes."""
    return "mapping" not in forall.attributes or workgroup_forall_problem(forall) is None


def varying_source(value, leaf=None) -> Varying | None:
    """The first source found that makes ``value`` possibly differ between the waves of a
    workgroup (module docstring), or None when it is the same in every wave.  ``leaf``: a
    predicate of a value, true for one the caller proves uniform in its own sense (one value
    per wave, say), whose sources are then not looked at."""
    todo, seen = [value], {value}
    while todo:
        v = todo.pop()
        if leaf is not None and leaf(v):
            continue
        why, more = _sources(v)
        if why is not None:
            return why
        fresh = [x for x in more if x not in seen]
        seen.update(fresh)
        todo.extend(fresh)
    return None


def is_uniform(value) -> bool:
    """Whether ``value`` is the same in every wave of a workgroup (:func:`varying_source`)."""
    return varying_source(value) is None


__all__ = ["FUNCS", "PURE", "PURE_DIALECTS", "READS", "WHY", "WORKGROUP",
           "Varying", "is_uniform", "varying_source"]
