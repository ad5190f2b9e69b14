"""Printing compiled schedules: the reference debug format and JSON."""

from __future__ import annotations

import re

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.records import field, record
from pipeline_mlir.schedule.types import (BARRIER, FRAMEWORK_TAG_NAMES, MAX_KERNEL_TAG, SCHEDULE_BARRIER, SET_PRIO,
                    WAIT_FRAG, WAIT_LGKM, WAIT_VM, KOffsetKind, OpDesc, OpRole, Phase, ScheduleEntry,
                    default_op_name)

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
        "lgkm_per_load": list(c.lgkm_per_load),
        "scheduling": c.sched.scheduling.name if c.sched else None,
        "scheduler": None,
    }
    if res is not None:
        data["scheduler"] = {"makespan": res.makespan, "vgpr_peak": res.vgpr_peak,
                             "lower_bound": res.lower_bound, "proven_optimal": res.proven_optimal,
                             "nodes": res.nodes, "stopped_by_budget": res.stopped_by_budget}
    return data


# ---------------------------------------------------------------------------------------------
# Reading the debug format back (the simulator's input)
# ---------------------------------------------------------------------------------------------

_PHASE_BY_LABEL = {label: (phase, prefix) for phase, (label, prefix) in PHASE_LABELS.items()}
_K_BY_NAME = {name: k for k, name in K_NAMES.items()}
# patterns, compiled (and cached by re) when a dump is first read: printing needs none
_HEADER = r"^(PROLOGUE|KERNEL|EPILOGUE) \((\d+) entries\)$"
_ENTRY = (r"^(PRO|KRN|EPI) \[(\d+)\] (\S+)\s+s=(-?\d+) sub=(-?\d+) k=(\S+)\s+"
          r"wait=(-?\d+) pf=(True|False)$")


class DumpError(PipelineError):
    """A schedule dump that is not in the debug format (names the file and line)."""


@record
class ParsedSchedule:
    """A schedule read from a dump: what :func:`format_schedule` prints, nothing more.

    Data ops carry their tag (from ``tag_names``), stage, subtile, k offset and the
    role/channel the name implies; counts (vm/lgkm per load) are not in the format
    and come from the pipeline options."""

    warp_stagger_index: int
    prologue: list[ScheduleEntry]
    kernel: list[ScheduleEntry]
    epilogue: list[ScheduleEntry]
    name: str = ""
    tag_names: dict[int, str] = field(default_factory=dict)

    def phases(self) -> list[tuple[Phase, list[ScheduleEntry]]]:
        return [(Phase.PROLOGUE, self.prologue), (Phase.KERNEL, self.kernel),
                (Phase.EPILOGUE, self.epilogue)]


def _framework_op(tag: int, wait: int) -> OpDesc:
    if tag == BARRIER:
        return OpDesc.barrier()
    if tag == WAIT_VM:
        return OpDesc.wait_vm(wait)
    if tag == WAIT_LGKM:
        return OpDesc.wait_lgkm(wait)
    if tag == WAIT_FRAG:
        return OpDesc.wait_frag(wait)
    if tag == SET_PRIO:
        return OpDesc.set_prio(wait)
    return OpDesc.schedule_barrier()


def parse_schedule(text: str, tag_names: dict[int, str], roles: dict[int, tuple[OpRole, int]],
                   filename: str = "<dump>", name: str = "") -> ParsedSchedule:
    """Read a dump in the debug format printed for a schedule whose kernel
    op tags are named ``tag_names``; ``roles`` gives each kernel tag's role and channel.

    Every line must be well formed, indices must count up from 0 and each phase must
    hold the number of entries its header announces; anything else is a
    :class:`DumpError` naming ``filename:line``."""
    by_name = {n: t for t, n in tag_names.items()}
    by_name.update({n: t for t, n in FRAMEWORK_TAG_NAMES.items()
                    if t in (BARRIER, WAIT_VM, WAIT_LGKM, WAIT_FRAG, SET_PRIO,
                                SCHEDULE_BARRIER)})
    lines = text.splitlines()
    where = lambda i: f"{filename}:{i + 1}"  # noqa: E731
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    m = re.match(r"^WARP_STAGGER_INDEX (\d+)$", lines[i].strip()) if i < len(lines) else None
    if m is None:
        raise DumpError(f"{where(i)}: expected 'WARP_STAGGER_INDEX <n>' as the first line of a "
                        f"schedule dump")
    stagger = int(m.group(1))
    phases: dict[Phase, list[ScheduleEntry]] = {}
    i += 1
    while i < len(lines):
        line = lines[i].strip()
        if not line:
            i += 1
            continue
        h = re.match(_HEADER, line)
        if h is None:
            raise DumpError(f"{where(i)}: expected a phase header '<PROLOGUE|KERNEL|EPILOGUE> "
                            f"(<n> entries)', got {line!r}")
        phase, prefix = _PHASE_BY_LABEL[h.group(1)]
        if phase in phases:
            raise DumpError(f"{where(i)}: phase {h.group(1)} appears twice")
        if any(p > phase for p in phases):
            raise DumpError(f"{where(i)}: phase {h.group(1)} out of order (PROLOGUE, KERNEL, "
                            f"EPILOGUE)")
        count = int(h.group(2))
        if i + 1 >= len(lines) or lines[i + 1].strip() != "-" * 80:
            raise DumpError(f"{where(i + 1)}: expected a line of 80 dashes after the "
                            f"{h.group(1)} header")
        i += 2
        entries = []
        for n in range(count):
            if i >= len(lines) or re.match(_HEADER, lines[i].strip()):
                raise DumpError(f"{where(i)}: {h.group(1)} announces {count} entries but only "
                                f"{n} follow")
            entries.append(_parse_entry(lines[i].strip(), prefix, n, phase, by_name, roles,
                                        where(i)))
            i += 1
        phases[phase] = entries
    missing = [PHASE_LABELS[p][0] for p in Phase if p not in phases]
    if missing:
        raise DumpError(f"{filename}: the dump has no {', '.join(missing)} section")
    return ParsedSchedule(stagger, phases[Phase.PROLOGUE], phases[Phase.KERNEL],
                          phases[Phase.EPILOGUE], name, dict(tag_names))


def _parse_entry(line, prefix, n, phase, by_name, roles, where) -> ScheduleEntry:
    m = re.match(_ENTRY, line)
    if m is None:
        raise DumpError(f"{where}: expected an entry '{prefix} [{n}] <op> s=<stage> sub=<subtile> "
                        f"k=<K0|K1|KNEXT|KPREV|-> wait=<n> pf=<True|False>', got {line!r}")
    pre, idx, op_name, s, sub, k, wait, pf = m.groups()
    if pre != prefix:
        raise DumpError(f"{where}: entry prefix '{pre}' in a section of '{prefix}' entries")
    if int(idx) != n:
        raise DumpError(f"{where}: entry index [{idx}], expected [{n}]")
    if op_name not in by_name:
        raise DumpError(f"{where}: unknown op '{op_name}' (known: {', '.join(sorted(by_name))})")
    if k not in _K_BY_NAME:
        raise DumpError(f"{where}: field 'k' is '{k}' (expected K0, K1, KNEXT, KPREV or -)")
    tag, stage, subtile, wait_v = by_name[op_name], int(s), int(sub), int(wait)
    if tag > MAX_KERNEL_TAG:
        op = _framework_op(tag, wait_v)
    else:
        if tag not in roles:
            raise DumpError(f"{where}: op '{op_name}' has no role for the simulator")
        role, channel = roles[tag]
        op = OpDesc(tag=tag, stage=stage, subtile=subtile, k_offset=_K_BY_NAME[k],
                    wait_value=wait_v, role=role, channel=channel)
    if tag > MAX_KERNEL_TAG and (stage, subtile, k) != (0, 0, "-"):
        raise DumpError(f"{where}: {op_name} carries s={stage} sub={subtile} k={k}; a "
                        f"framework op has s=0 sub=0 k=-")
    return ScheduleEntry(op, n, phase, pf == "True")
