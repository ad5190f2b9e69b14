"""Printing compiled schedules: the reference debug format (SPEC 3.16) and JSON."""

from __future__ import annotations

from dataclasses import dataclass

from .types import (BARRIER, SCHEDULE_BARRIER, WAIT_LGKM, WAIT_VM, KOffsetKind, Phase,
                    ScheduleEntry, default_op_name)

PHASE_LABELS = {Phase.PROLOGUE: ("PROLOGUE", "PRO"), Phase.KERNEL: ("KERNEL", "KRN"),
                Phase.EPILOGUE: ("EPILOGUE", "EPI")}
K_NAMES = {KOffsetKind.K0: "K0", KOffsetKind.K1: "K1", KOffsetKind.K_NEXT: "KNEXT",
           KOffsetKind.K_PREV: "KPREV", KOffsetKind.NONE: "-"}


def format_entry(prefix: str, idx: int, name: str, e: ScheduleEntry) -> str:
    op = e.op
    return (f"{prefix} [{idx}] {name:<15} s={op.stage} sub={op.subtile} "
            f"k={K_NAMES[op.k_offset]:<5} wait={op.wait_value} pf={e.is_prefetch}")


def format_phase_header(label: str, n: int) -> str:
    return f"{label} ({n} entries)\n" + "-" * 80


def format_schedule(c) -> str:
    """The whole compiled schedule: stagger index, then each phase (golden-file format)."""
    lines = [f"WARP_STAGGER_INDEX {c.warp_stagger_index}"]
    for phase, entries in c.phases():
        label, prefix = PHASE_LABELS[phase]
        lines.append(format_phase_header(label, len(entries)))
        for i, e in enumerate(entries):
            lines.append(format_entry(prefix, i, default_op_name(e.op.tag, c.tag_names), e))
    return "\n".join(lines) + "\n"


@dataclass
class WaitCounts:
    n_vm: int = 0
    n_lgkm: int = 0
    n_combined: int = 0
    n_barrier: int = 0
    n_sched_barrier: int = 0


def update_wait_counts(c: WaitCounts, e: ScheduleEntry, next_tag: int) -> None:
    t = e.op.tag
    if t == WAIT_VM:
        c.n_vm += 1
        if next_tag == WAIT_LGKM:
            c.n_combined += 1
    elif t == WAIT_LGKM:
        c.n_lgkm += 1
    elif t == BARRIER:
        c.n_barrier += 1
    elif t == SCHEDULE_BARRIER:
        c.n_sched_barrier += 1


def count_waits(entries: list[ScheduleEntry]) -> WaitCounts:
    c = WaitCounts()
    for i, e in enumerate(entries):
        update_wait_counts(c, e, entries[i + 1].op.tag if i + 1 < len(entries) else -1)
    return c


def format_wait_counts(label: str, c: WaitCounts) -> str:
    return (f"  {label}: {c.n_vm} vmcnt, {c.n_lgkm} lgkmcnt ({c.n_combined} coalesced vm+lgkm), "
            f"{c.n_barrier} s_barrier, {c.n_sched_barrier} sched_barrier")


def _op_json(op, names) -> dict:
    return {"tag": op.tag, "name": default_op_name(op.tag, names), "stage": op.stage,
            "subtile": op.subtile, "k_offset": op.k_offset.name, "channel": op.channel,
            "wait_value": op.wait_value, "vm_cost": op.vm_cost, "lgkm_cost": op.lgkm_cost,
            "resource": op.resource.name, "latency": op.latency, "role": op.role.name,
            "vgpr_def": op.vgpr_def, "vgpr_kill": op.vgpr_kill}


def _edge_json(e) -> dict:
    return {"producer": e.producer_idx, "consumer": e.consumer_idx, "kind": e.dep_kind.name,
            "distance": e.loop_distance}


def _block_json(b, names) -> dict:
    slot = lambda o: _op_json(o, names) if o.is_present() else None  # noqa: E731
    out = {k: slot(getattr(b, k)) for k in ("mma", "pre_op_0", "pre_op_1", "global_load",
                                            "global_load_1", "entry_wait", "entry_wait_lgkm",
                                            "pre_sync", "fused_mma")}
    for k in ("pre_mma_barrier", "pre_mma_set_prio", "post_mma_barrier", "post_mma_set_prio",
              "post_barrier_lgkm", "trailing_sched_barrier", "global_load_prefetch",
              "global_load_1_prefetch", "drain_lgkm_before_loads"):
        out[k] = getattr(b, k)
    return out


def schedule_to_json(c) -> dict:
    """Every field of a compiled schedule as plain JSON data."""
    names = c.tag_names
    res = c.schedule_result
    data = {
        "schedule": c.name,
        "warp_stagger_index": c.warp_stagger_index,
        "phases": {PHASE_LABELS[p][0].lower(): [
            dict(_op_json(e.op, names), time_slot=e.time_slot, is_prefetch=e.is_prefetch)
            for e in entries] for p, entries in c.phases()},
        "body": [_op_json(o, names) for o in c.body],
        "order": list(c.order),
        "edges": [_edge_json(e) for e in c.edges],
        "kernel_deps": [_edge_json(e) for e in c.kernel_deps],
        "blocks": [_block_json(b, names) for b in c.program.blocks] if c.program else [],
        "waits": ({"lgkm": c.waits.lgkm, "vm": c.waits.vm} if c.waits else None),
        "lgkm_per_load": [c.lgkm_per_load_a, c.lgkm_per_load_b],
        "scheduling": c.sched.scheduling.name if c.sched else None,
        "scheduler": None,
    }
    if res is not None:
        data["scheduler"] = {"makespan": res.makespan, "vgpr_peak": res.vgpr_peak,
                             "lower_bound": res.lower_bound, "proven_optimal": res.proven_optimal,
                             "nodes": res.nodes, "stopped_by_budget": res.stopped_by_budget}
    return data
