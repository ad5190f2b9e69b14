"""The ``sched`` dialect's op names and attribute schema (no MLIR import).

The bindings cannot register a Python dialect, so ``sched.*`` ops are
unregistered generic ops; this table is what gives them a definition.  The
readers (``ir_io``) and ``sched-verify`` check every op against it.  The names
in generic form are a public interface: see ``docs/dialect.md``.
"""

from __future__ import annotations

from collections.abc import Mapping

from pipeline_mlir.schedule.targets import (HINT_GROUP_NAMES, LOAD_A, LOAD_B, LOAD_DRAM, LOAD_FRAG,
                                            LOAD_SA, LOAD_SB, MATMUL_TAG_NAMES, MMA, MMA_LOAD_A,
                                            MMA_LOAD_B, MMA_LOAD_SA, MMA_LOAD_SB,
                                            SCALED_MATMUL_TAG_NAMES,
                                            SB_COMPUTE, SINGLE_BUFFER_TAG_NAMES, STORE_SMEM)
from pipeline_mlir.schedule.types import (BARRIER, SCHED_GROUP_BARRIER, SCHEDULE_BARRIER, SET_PRIO,
                                 WAIT_FRAG, WAIT_LGKM, WAIT_VM, KOffsetKind, OpRole, ResourceKind)
from pipeline_mlir.schedules.registry import NAMES, schedule_class

PIPELINE = "sched.pipeline"
PROGRAM = "sched.program"
BLOCK = "sched.block"
PROLOGUE, KERNEL, EPILOGUE = "sched.prologue", "sched.kernel", "sched.epilogue"
PHASE_OPS = (PROLOGUE, KERNEL, EPILOGUE)

GLOBAL_LOAD, FRAG_LOAD, MMA_OP, LDS_STORE = ("sched.global_load", "sched.frag_load", "sched.mma",
                                             "sched.lds_store")
DATA_OPS = (GLOBAL_LOAD, LDS_STORE, FRAG_LOAD, MMA_OP)

WAIT_VM_OP, WAIT_LGKM_OP, WAIT_FRAG_OP = "sched.wait_vm", "sched.wait_lgkm", "sched.wait_frag"
BARRIER_OP, SET_PRIO_OP = "sched.barrier", "sched.set_prio"
SCHED_BARRIER_OP, SCHED_GROUP_BARRIER_OP = "sched.sched_barrier", "sched.sched_group_barrier"
CONTROL_TAGS = {WAIT_VM_OP: WAIT_VM, WAIT_LGKM_OP: WAIT_LGKM, BARRIER_OP: BARRIER,
                SET_PRIO_OP: SET_PRIO, SCHED_BARRIER_OP: SCHEDULE_BARRIER,
                SCHED_GROUP_BARRIER_OP: SCHED_GROUP_BARRIER, WAIT_FRAG_OP: WAIT_FRAG}
CONTROL_OPS = tuple(CONTROL_TAGS)
TAG_CONTROL = {t: n for n, t in CONTROL_TAGS.items()}
ENTRY_OPS = DATA_OPS + CONTROL_OPS
ALL_OPS = (PIPELINE, PROGRAM, BLOCK) + PHASE_OPS + ENTRY_OPS

# ---- enum spellings -------------------------------------------------------------------------
K_OFFSETS = {"k0": KOffsetKind.K0, "k1": KOffsetKind.K1, "k_next": KOffsetKind.K_NEXT,
             "k_prev": KOffsetKind.K_PREV, "none": KOffsetKind.NONE}
RESOURCES = {r.name.lower(): r for r in ResourceKind}
ROLES = {r.name.lower(): r for r in OpRole}
K_OFFSET_NAMES = {v: k for k, v in K_OFFSETS.items()}
RESOURCE_NAMES = {v: k for k, v in RESOURCES.items()}
ROLE_NAMES = {v: k for k, v in ROLES.items()}

# ---- data op <-> schedule tag -----------------------------------------------------------------
# (op name, channel or None for "any channel") -> tag, per schedule family.
_MATMUL = {(GLOBAL_LOAD, 0): LOAD_A, (GLOBAL_LOAD, 1): LOAD_B, (FRAG_LOAD, 0): MMA_LOAD_A,
           (FRAG_LOAD, 1): MMA_LOAD_B, (MMA_OP, None): MMA}
#: the 4-wave schedule's: the matmul ops and the MX scale tiles' channels (2: A's scales,
#: 3: B's)
_SCALED = {**_MATMUL, (GLOBAL_LOAD, 2): LOAD_SA, (GLOBAL_LOAD, 3): LOAD_SB,
           (FRAG_LOAD, 2): MMA_LOAD_SA, (FRAG_LOAD, 3): MMA_LOAD_SB}
_SINGLE = {(GLOBAL_LOAD, None): LOAD_DRAM, (LDS_STORE, None): STORE_SMEM,
           (FRAG_LOAD, None): LOAD_FRAG, (MMA_OP, None): SB_COMPUTE}
#: the data-op table of each family of tags (a schedule's ``tag_names``)
_FAMILIES = ((MATMUL_TAG_NAMES, _MATMUL), (SCALED_MATMUL_TAG_NAMES, _SCALED),
             (SINGLE_BUFFER_TAG_NAMES, _SINGLE))


def _tag_table(cls) -> dict:
    for names, table in _FAMILIES:
        if cls.tag_names == names:
            return table
    raise AssertionError(f"schedule '{cls.name}': its tags have no sched data ops (add a "
                         f"table to dialect/ops.py)")


class _TagTables(Mapping):
    """Schedule name -> its data-op table, in ``--help`` order; a schedule's module is
    imported when its table is first asked for (an input of one schedule loads no other)."""

    def __init__(self) -> None:
        self._tables: dict[str, dict] = {}

    def __getitem__(self, name: str) -> dict:
        table = self._tables.get(name)
        if table is None:
            if name not in NAMES:
                raise KeyError(name)
            table = self._tables[name] = _tag_table(schedule_class(name))
        return table

    def __iter__(self):
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


#: schedule name -> its data-op table
TAG_TABLES = _TagTables()


def data_tag(schedule_name: str, name: str, channel: int) -> int | None:
    table = TAG_TABLES[schedule_name]
    tag = table.get((name, channel))
    return tag if tag is not None else table.get((name, None))


def data_op_name(schedule_name: str, tag: int) -> str | None:
    for (name, _ch), t in TAG_TABLES[schedule_name].items():
        if t == tag:
            return name
    return None


def data_op_forms(schedule_name: str) -> str:
    """Human list of the data ops a schedule accepts (for error messages)."""
    parts = []
    for (name, ch), _t in TAG_TABLES[schedule_name].items():
        parts.append(name if ch is None else f"{name} with channel {ch}")
    return ", ".join(parts)


# ---- attribute schema -----------------------------------------------------------------------
# kind: "int", "bool", "str", "unit", "enum:<table>", "ints" (array<i64>), "strs", "dict"
INT, BOOL, STR, UNIT, INTS, STRS, DICT = "int", "bool", "str", "unit", "ints", "strs", "dict"

DATA_ATTRS = {
    "channel": INT, "stage": INT, "subtile": INT, "k_offset": "enum:k_offset",
    "wait_value": INT,
    # set by sched-annotate
    "resource": "enum:resource", "latency": INT, "role": "enum:role", "vm_cost": INT,
    "lgkm_cost": INT, "vgpr_def": INT, "vgpr_kill": INT,
}
ENTRY_ATTRS = {"time_slot": INT, "prefetch": UNIT, "slot": STR, "block": INT, "payload": INT,
               "tag": STR}
CONTROL_ATTRS = {
    WAIT_VM_OP: {"count": INT, "overflow_guard": UNIT, "derived_count": INT},
    WAIT_LGKM_OP: {"count": INT, "overflow_guard": UNIT, "derived_count": INT},
    WAIT_FRAG_OP: {"count": INT, "derived_count": INT},
    BARRIER_OP: {},
    SET_PRIO_OP: {"priority": INT}, SCHED_BARRIER_OP: {},
    SCHED_GROUP_BARRIER_OP: {"kind": "enum:hint_group", "size": INT},
}
REQUIRED_CONTROL = {WAIT_VM_OP: ("count",), WAIT_LGKM_OP: ("count",), WAIT_FRAG_OP: ("count",),
                    SET_PRIO_OP: ("priority",),
                    SCHED_GROUP_BARRIER_OP: ("kind", "size")}
#: sched_group_barrier kinds: the single-buffer hint groups (targets.HINT_GROUP_NAMES),
#: lowered to their LLVM masks (targets.HINT_GROUP_MASKS)
HINT_GROUPS = {n.lower(): g for g, n in HINT_GROUP_NAMES.items()}
HINT_GROUP_SPELLING = {g: n for n, g in HINT_GROUPS.items()}

STATES = ("logical", "annotated", "reordered", "edges", "scheduled", "blocks", "explicit",
          "phases", "lowered")

PIPELINE_ATTRS = {
    "schedule": STR, "options": DICT, "state": "enum:state", "edges": STRS, "order": INTS,
    "makespan": INT, "lower_bound": INT, "proven_optimal": BOOL, "search_nodes": INT,
    "vgpr_peak": INT, "stopped_by_budget": BOOL,
    "warp_stagger_index": INT, "kernel_deps": STRS, "lgkm_per_load_a": INT,
    "lgkm_per_load_b": INT, "lgkm_per_load_sa": INT, "lgkm_per_load_sb": INT,
    "concrete": UNIT,
}
PROGRAM_ATTRS = {"wait_lgkm_first": INT, "wait_vm_last": INT, "trailing_barrier": BOOL}
BLOCK_SLOTS = ("pre_op_0", "pre_op_1", "global_load", "global_load_1", "entry_wait",
               "entry_wait_lgkm", "pre_sync", "mma", "fused_mma")
BLOCK_FLAGS = ("pre_mma_barrier", "pre_mma_set_prio", "post_mma_barrier", "post_mma_set_prio",
               "post_barrier_lgkm", "post_barrier_sched", "trailing_sched_barrier",
               "global_load_prefetch", "global_load_1_prefetch", "drain_lgkm_before_loads",
               "global_before_frag", "barrier_before_pre_ops", "wrap_waits_with_sched_barrier")
BLOCK_ATTRS = {f: BOOL for f in BLOCK_FLAGS}
ENUMS = {"k_offset": K_OFFSETS, "resource": RESOURCES, "role": ROLES, "hint_group": HINT_GROUPS,
         "state": {s: s for s in STATES}}


def state_index(state: str) -> int:
    return STATES.index(state)
