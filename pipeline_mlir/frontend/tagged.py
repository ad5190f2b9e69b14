"""The tagged (concrete) input form, read: a K-loop whose payload ops carry ``sched.*`` tags.

Contract (see ``docs/dialect.md``, "The tagged (concrete) form"): each payload op carries one
discardable attribute naming its logical op (``sched.global_load``, ``sched.frag_load``,
``sched.mma``, ``sched.lds_store``); everything else in the loop body is side-effect free
index/vector math.  :func:`import_loop` mirrors the tagged ops into a ``concrete``
``sched.pipeline`` placed right before the loop (``sched-import``); the tag check
(:mod:`pipeline_mlir.frontend.tag_check`) proves each tag describes what its op touches.
The materialisation of the scheduled loop is :mod:`pipeline_mlir.lowering.materialize`.
"""

from __future__ import annotations

import math

from pipeline_mlir.schedules import registry

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.attrs import is_workgroup_memref
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import (IRError, i64, int_value, options_attr, read_entry)
from pipeline_mlir.dialect.ir_io import as_operation as _op

from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.tag_check import check_tags
from pipeline_mlir.frontend.waves import check_waves, with_kernel_waves

TAG_ATTRS = {"sched.global_load": S.GLOBAL_LOAD, "sched.frag_load": S.FRAG_LOAD,
             "sched.mma": S.MMA_OP, "sched.lds_store": S.LDS_STORE}
PAYLOAD_ATTR = "sched.payload"
PURE_PREFIXES = ("arith.", "index.", "affine.apply", "affine.min", "affine.max", "math.",
                 "affine.delinearize_index", "affine.linearize_index")
PURE_OPS = {"vector.broadcast", "vector.extract", "vector.insert", "vector.shape_cast",
            "vector.bitcast", "vector.extract_strided_slice", "vector.insert_strided_slice",
            "vector.splat", "vector.from_elements", "vector.shuffle", "gpu.thread_id",
            "gpu.lane_id", "gpu.block_id", "gpu.subgroup_id", "rocdl.workitem.id.x",
            "rocdl.workitem.id.y", "rocdl.workitem.id.z", "rocdl.workgroup.id.x",
            "rocdl.workgroup.id.y", "rocdl.workgroup.id.z", "rocdl.readfirstlane",
            "memref.subview", "memref.cast", "memref.reinterpret_cast", "ub.poison",
            "amdgpu.fat_raw_buffer_cast", "iree_codegen.index_hint"}
_K_ATTR_FIELDS = {S.GLOBAL_LOAD: ("channel", "stage", "subtile", "k_offset", "id"),
                  S.LDS_STORE: ("channel", "stage", "subtile", "k_offset", "id"),
                  S.FRAG_LOAD: ("channel", "stage", "subtile", "k_offset", "id"),
                  S.MMA_OP: ("channel", "stage", "subtile", "id")}
#: The optional tag field that groups several payload ops into one logical op.
GROUP_FIELD = "id"
#: the attributes of an adopted loop naming the schedule inferred for it (written by
#: ``sched-adopt-loop``, read back with ``ir_io.read_schedule(loop, *SCHEDULE_ATTRS)``)
SCHEDULE_ATTRS = ("sched.schedule", "sched.options")


def tag_of(op) -> str | None:
    names = [a for a in TAG_ATTRS if a in op.attributes]
    if len(names) > 1:
        raise IRError(op, f"'{op.name}' op carries {' and '.join(names)}: one logical op each")
    return names[0] if names else None


def find_tagged_loops(module) -> list:
    loops = []

    def visit(o):
        o = _op(o)
        if o.name == "scf.for" and any(tag_of(_op(x)) for x in o.regions[0].blocks[0].operations):
            loops.append(o)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return loops


def loop_body(loop) -> list:
    """The ops of the body of ``loop`` (an ``scf.for``), its terminator included."""
    return [_op(o) for o in loop.regions[0].blocks[0].operations]


def import_loop(loop, schedule) -> None:
    """Create the concrete ``sched.pipeline`` of ``schedule`` (a ``NamedSchedule``) for
    ``loop`` (right before it)."""
    name = schedule.name
    if not schedule.has_kernel:
        raise IRError(loop, f"'scf.for' op: the concrete form supports the double-buffer "
                            f"schedules ({', '.join(registry.KERNEL_SCHEDULES)}); the {name} "
                            f"kernel has no K offsets (its loaders advance themselves)")
    entries = []
    for op in loop_body(loop):
        tag = tag_of(op)
        if tag is None:
            if op.name == "scf.yield" or op.name in PURE_OPS or op.name.startswith(PURE_PREFIXES):
                continue
            raise IRError(op, f"'{op.name}' op in the pipelined loop is neither tagged "
                              f"(sched.global_load/frag_load/mma) nor side-effect free index "
                              f"math; the pipeliner derives all waits and barriers itself")
        d = op.attributes[tag]
        allowed = _K_ATTR_FIELDS[TAG_ATTRS[tag]]
        if not isinstance(d, ir.DictAttr):
            raise IRError(op, f"'{op.name}' op attribute '{tag}' must be a dictionary "
                              f"{{{', '.join(allowed)}}}")
        fields = {na.name: na.attr for na in d}
        for k in fields:
            if k not in allowed:
                raise IRError(op, f"'{op.name}' op attribute '{tag}' has unknown field '{k}' "
                                  f"(allowed: {', '.join(allowed)})")
            if k == "k_offset":
                _check_k_offset(op, tag, fields[k])
            elif int_value(fields[k]) is None:
                raise IRError(op, f"'{op.name}' op attribute '{tag}' field '{k}' must be an "
                                  f"integer of at most 64 bits; got {fields[k]}")
        entries.append((op, TAG_ATTRS[tag], fields))
    if not entries:
        raise IRError(loop, "'scf.for' op has no sched-tagged ops")
    entries = _group(entries)

    check_tags(loop, entries)  # every tag must describe what its payload op touches
    kernel = kernel_of(loop)           # (the tag check needs the kernel's block size)
    threads = math.prod(block_size(kernel))
    check_waves(kernel, threads, schedule)
    schedule = with_kernel_waves(loop, threads, schedule)
    schedule = _payload_counts(entries, schedule)
    _check_counts(entries, schedule)
    with loop.context, loop.location:
        with ir.InsertionPoint(loop):
            pop = ir.Operation.create(S.PIPELINE, regions=1, attributes={
                "schedule": ir.StringAttr.get(name),
                "options": options_attr(schedule), "concrete": ir.UnitAttr.get()})
        block = pop.regions[0].blocks.append()
        for i, (group, op_name, fields) in enumerate(entries):
            for op in group:
                op.attributes[PAYLOAD_ATTR] = i64(i)
            attrs = {k: v for k, v in fields.items() if k != GROUP_FIELD}
            attrs["payload"] = i64(i)
            with ir.InsertionPoint(block), group[0].location:
                e = ir.Operation.create(op_name, attributes=attrs)
            read_entry(e, name)  # meaningful for the schedule?


def _check_k_offset(op, tag: str, attr) -> None:
    """A tag's ``k_offset`` names one of the K offsets (a string, as in the sched ops)."""
    if not isinstance(attr, ir.StringAttr) or ir.StringAttr(attr).value not in S.K_OFFSETS:
        names = ", ".join(f'"{k}"' for k in S.K_OFFSETS)
        raise IRError(op, f"'{op.name}' op attribute '{tag}' field 'k_offset' must be one of "
                          f"{names}; got {attr}")


def _group(entries) -> list:
    """[(payload ops, op name, fields)]: ops whose tag carries the same ``id`` form one
    logical op (in loop order; the group sits where its first op is); an op without
    ``id`` is a logical op of its own.  A group must agree on every other field."""
    groups, by_id = [], {}
    for op, name, fields in entries:
        gid = fields.get(GROUP_FIELD)
        if gid is None:
            groups.append(([op], name, fields))
            continue
        key = int_value(gid)  # checked when the tag was read
        if key in by_id:
            first = groups[by_id[key]]
            same = fields == first[2]       # the attributes themselves, not their text
            if name != first[1] or not same:
                raise IRError(op, f"'{op.name}' op: logical op {GROUP_FIELD} = {key} is tagged "
                                  f"differently from its first payload op ('{first[0][0].name}' "
                                  f"with {first[1]}); every payload op of a logical op carries "
                                  f"the same tag")
            first[0].append(op)
            continue
        by_id[key] = len(groups)
        groups.append(([op], name, fields))
    return groups


def payload_instructions(op) -> tuple[str, int] | None:
    """(counter, instructions) a payload op issues, where it is known: one
    ``global_load_lds``/``buffer_load ... lds`` per ``amdgpu.gather_to_lds``, one
    ``ds_read`` per 16 bytes of a ``vector.load`` from workgroup memory."""
    if op.name == "amdgpu.gather_to_lds":
        return "vmcnt", 1
    if op.name == "vector.load" and len(op.results) == 1:
        vt = op.results[0].type
        if is_workgroup_memref(op.operands[0].type) and isinstance(vt, ir.VectorType):
            bits = vt.element_type.width if hasattr(vt.element_type, "width") else None
            if bits:
                n = 1
                for d in vt.shape:
                    n *= d
                return "lgkmcnt", max(1, -(-n * bits // 128))
    return None


def instruction_kinds(op) -> list:
    """The kinds of the instructions a payload op issues, for the interleave pipeline
    (``mfma``, ``ds_read``, ``vmem_read``, ``None`` for an op issuing an unknown number
    of them); ops that issue none of these (shuffles, casts) give none."""
    if op.name in ("amdgpu.mfma", "amdgpu.scaled_mfma"):
        return ["mfma"]
    if op.name == "amdgpu.transpose_load":
        return ["ds_read"]
    known = payload_instructions(op)
    if known is not None:
        return [{"vmcnt": "vmem_read", "lgkmcnt": "ds_read"}[known[0]]] * known[1]
    if op.name == "vector.load" and is_workgroup_memref(op.operands[0].type):
        return [None]
    return []


def _issued(entries) -> dict:
    """``{count key: instructions}`` the payload ops of each load kind and channel issue,
    where every load of that kind and channel issues the same known number.  An operand's
    count (``vm_per_load_a``, ...) is its element tile's load plus its MX scale tile's
    (channel 2 for A, 3 for B) when the loop has one."""
    seen: dict = {}
    for group, name, fields in entries:
        if name not in (S.GLOBAL_LOAD, S.FRAG_LOAD):
            continue
        ch = int_value(fields["channel"]) if "channel" in fields else 0
        if ch not in (0, 1, 2, 3):
            continue
        known = [payload_instructions(op) for op in group]
        want = "vmcnt" if name == S.GLOBAL_LOAD else "lgkmcnt"
        n = (sum(x[1] for x in known) if all(x is not None and x[0] == want for x in known)
             else None)
        seen.setdefault((name, ch), set()).add(n)
    one = {k: next(iter(v)) for k, v in seen.items() if len(v) == 1 and None not in v}
    out = {}
    for (name, ch), n in one.items():
        if ch > 1:
            continue
        if any(k == (name, ch + 2) for k in seen):
            if (name, ch + 2) not in one:
                continue
            n += one[(name, ch + 2)]
        out[f"{'vm' if name == S.GLOBAL_LOAD else 'lgkm'}_per_load_{'ab'[ch]}"] = n
    return out


def _payload_counts(entries, schedule):
    """The schedule with each per-load count the spec leaves unset taken from what the
    payload ops issue (a tagged loop needs no count options); given counts are checked
    by :func:`_check_counts`."""
    unset = {k: n for k, n in _issued(entries).items()
             if k in schedule.options() and schedule.get(k) is None}
    return schedule.with_(**unset) if unset else schedule


def _check_counts(entries, schedule) -> None:
    """The schedule's per-load counts must be what the payload ops issue: a count larger
    than the real one makes every derived wait too weak (a race), so it is an error."""
    vm, lgkm = schedule.vm_per_load, schedule.lgkm_per_load
    for group, name, fields in entries:
        if name not in (S.GLOBAL_LOAD, S.FRAG_LOAD):
            continue
        known = [payload_instructions(op) for op in group]
        if any(x is None for x in known) or len({c for c, _ in known}) != 1:
            continue
        op = group[0]
        ch = ir.IntegerAttr(fields["channel"]).value if "channel" in fields else 0
        counts = vm if name == S.GLOBAL_LOAD else lgkm
        if ch not in (0, 1, 2, 3) or ch >= len(counts):
            continue
        counter, n = known[0][0], sum(x[1] for x in known)
        # an operand's option counts its element tile and its MX scale tile (channel + 2)
        pair = (ch % 2, ch % 2 + 2)
        total = n + sum(counts[c] for c in pair if c != ch and c < len(counts))
        key = f"{'vm' if name == S.GLOBAL_LOAD else 'lgkm'}_per_load_{'ab'[ch % 2]}"
        want = counts[ch]
        if counter == ("vmcnt" if name == S.GLOBAL_LOAD else "lgkmcnt") and want and want != n:
            raise IRError(op, f"'{op.name}' op issues {n} {counter} instruction(s), but the "
                              f"schedule '{schedule.spec()}' counts {want} per load of channel "
                              f"{ch}: its waits would not match the hardware counter; set "
                              f"{key}={total}")
