"""Materialising a scheduled concrete loop: the tagged K-loop rebuilt as the pipelined kernel.

The tagged form it starts from is read by :mod:`pipeline_mlir.frontend.tagged`.
``sched-import`` mirrors the tagged ops into a ``concrete`` ``sched.pipeline``
placed right before the loop (each body op has ``payload = i``; the payload op
gets ``sched.payload = i``).  After the scheduling passes,
``sched-lower-to-rocdl`` calls :func:`materialize`, which reads the pipeline's phases
into a kernel plan (:mod:`pipeline_mlir.kernel.plan`) and emits its skeleton: the
payload ops are cloned where the schedule puts them (prologue with k base ``%lb``, a
new loop from ``%lb + %step``, epilogue with k base ``%ub``), the control entries
become fenced ``rocdl`` ops, the plan's own waits and barriers (kernel-argument wait,
warp-group stagger, zero-trip fence) are added, and the loop results are rewired
through the epilogue.
A loop copying with global LDS DMAs first gets the MMAs' operand waits LLVM 22 would
count short (:mod:`pipeline_mlir.schedule.dma_lgkm`).
"""

from __future__ import annotations

from dataclasses import replace

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.load_spread import spread_mode
from pipeline_mlir.kernel.subtile_form import SubtileForm, parse_form
from pipeline_mlir.schedule.fences import SPREAD_OVER_MMA
from pipeline_mlir.kernel.wait_order import order_cuts
from pipeline_mlir.kernel.plan import (BARRIER, ENTRIES, KERNARG_WAIT, LOOP, ZERO_TRIP_FENCE,
                                       KernelPlan, kernel_shape)
from pipeline_mlir.lowering.loop_i32 import (carries_k_position, k_position, narrowed_bounds,
                                             unsigned_loop)
from pipeline_mlir.schedule.dma_lgkm import cover_dma_operands
from pipeline_mlir.schedule.merged_reads import lower_merged_waits, pairable_channels
from pipeline_mlir.schedule.scale_dmas import mark_scale_dmas
from pipeline_mlir.schedule.targets import is_scale_channel
from pipeline_mlir.schedule.types import OpDesc, OpRole

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.analysis.loop_eval import is_opaque_identity
from pipeline_mlir.dialect.ir_io import IRError, get, index_constant, ops_of, read_phase
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_new_operands
from pipeline_mlir.lowering.rocdl_build import create_control, emit_entries
from pipeline_mlir.lowering.xdl_window import emit_guard, needs_guard
from pipeline_mlir.lowering.keep_alive import accumulators, keep_accumulators
from pipeline_mlir.lowering.acc_starts import masked_starts
from pipeline_mlir.lowering.dead_reads import k_shift, placed_yields, unused_reads
from pipeline_mlir.lowering.straight_pair import as_run, concrete_loop

from pipeline_mlir.analysis.ir_facts import block_size, main_trips, memory_space
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.marks import (KSPLIT_NOTE_ATTR, MERGE_NOTE_ATTR, VERSIONED_ATTR,
                                          VERSIONED_NOTE)
from pipeline_mlir.frontend.k_subtiles import FORM_ATTR
from pipeline_mlir.target.gfx950 import AGPR_ALLOC_ATTR
from pipeline_mlir.frontend.tagged import PAYLOAD_ATTR, TAG_ATTRS, loop_body, instruction_kinds

# ---- materialization ------------------------------------------------------------------------

class _Templates:
    """Payload op lookup by logical identity."""

    def __init__(self, p, body: list) -> None:
        by_id = {}
        for op in body:
            if PAYLOAD_ATTR in op.attributes:
                by_id.setdefault(ir.IntegerAttr(op.attributes[PAYLOAD_ATTR]).value, []).append(op)
        self.items = []  # (OpDesc of the body op, payload op), in scheduled order
        order = p.order or list(range(len(p.body)))
        for i in order:
            bop, desc = p.body_ops[i], p.body[i]
            pid = get(bop, "payload", S.INT)
            if pid is None or pid not in by_id:
                raise IRError(bop, f"'{bop.name}' op of a concrete pipeline has no payload op "
                                   f"in the loop that follows it")
            self.items.append((desc, by_id[pid]))
        self.seen = {}

    def start_phase(self) -> None:
        self.seen = {}

    def find(self, d: OpDesc, where) -> tuple[OpDesc, object]:
        """The payload of entry ``d``: same identity, the same K offset if one matches;
        among identical ops (e.g. MMA (0,0) of both halves) the k-th occurrence in the
        phase is the k-th in scheduled order."""
        ident = (d.tag, d.channel, d.stage, d.subtile)
        same = [(t, op) for t, op in self.items if (t.tag, t.channel, t.stage, t.subtile) == ident]
        exact = [x for x in same if x[0].k_offset == d.k_offset]
        pick = exact if exact else same
        if not pick:
            raise IRError(where, f"'{where.name}' op: no payload op for tag {d.tag} channel "
                                 f"{d.channel} stage {d.stage} subtile {d.subtile}")
        key = (ident, d.k_offset if exact else None)
        k = self.seen.get(key, 0)
        self.seen[key] = k + 1
        if len(pick) == 1:
            return pick[0]
        if k >= len(pick):
            raise IRError(where, f"'{where.name}' op: occurrence {k + 1} of tag {d.tag} stage "
                                 f"{d.stage} subtile {d.subtile} in this phase, but the body "
                                 f"has only {len(pick)}")
        return pick[k]


#: the tags a clone of a payload op leaves behind
_STRIPPED = (PAYLOAD_ATTR, *TAG_ATTRS)


class _Emitter:
    """Clones payload ops (and the pure math they need) with remapped values."""

    def __init__(self, loop, bk, body: list) -> None:
        self.loop, self.bk, self.body_ops = loop, bk, set(body)
        self.iv, *self.iter_args = loop.regions[0].blocks[0].arguments
        self.origins: dict = {}  # value -> its :meth:`origin` (the same in every phase)
        self.stripped: dict = {}  # body op -> its attributes of _STRIPPED (never changed)

    def start_phase(self, kbase, iter_values, pins: dict | None = None,
                    carried: dict | None = None) -> None:
        self.kbase = kbase
        self.iter_map = dict(zip(self.iter_args, iter_values))
        self.pins = dict(pins or {})  # pinned value (before the loop) -> its value here
        # original result Value -> new Value (payload results); ``carried``: the fragments
        # the phase before issued ahead for this one
        self.env = dict(carried or {})
        self.memo = {}  # (op, shift) -> cloned op
        # (value, shift) -> what :meth:`resolve` gave a value no payload op defines (the
        # phase's own: fixed until the next phase starts)
        self.resolved = {}
        self.shift_values = {}

    def iv_for(self, shift: int):
        if shift not in self.shift_values:
            if shift == 0:
                self.shift_values[0] = self.kbase
            else:
                t = self.bk.type  # the loop variable's type (index or an integer)
                c = B.arith.constant(t, ir.IntegerAttr.get(t, shift))
                off = B.arith.muli(self.bk, c)
                self.shift_values[shift] = B.arith.addi(self.kbase, off)
        return self.shift_values[shift]

    def resolve(self, v, shift: int, user):
        got = self.resolved.get((v, shift))
        if got is None:
            got = self._resolve(v, shift, user)
        return got

    def origin(self, v) -> tuple:
        """(kind, defining op, result number) of value ``v``, kind "iv" (the loop variable),
        "iter" (an iter_arg), "arg" (of an enclosing block), "before" (the loop), "payload"
        (a payload op's result) or "cloned" (a body op's, cloned where it is used)."""
        if v == self.iv or v in self.iter_args:
            return ("iv" if v == self.iv else "iter"), None, 0
        owner = v.owner
        if owner.__class__ is ir.Block:     # (a type test: an OpView's isinstance is slow)
            return "arg", None, 0
        owner = _op(owner)
        return ("before" if owner not in self.body_ops else "payload"
                if PAYLOAD_ATTR in owner.attributes else "cloned"), owner, v.result_number

    def _resolve(self, v, shift: int, user):
        kind, owner, number = self.origins.get(v) or self.origins.setdefault(v, self.origin(v))
        if kind == "cloned":
            key = (owner, shift)
            clone = self.memo.get(key) or self.memo.setdefault(key, self.clone(owner, shift))
            self.resolved[(v, shift)] = got = clone.results[number]
            return got
        if kind == "iv":
            return self.iv_for(shift)
        if kind in ("iter", "arg"):
            return self.iter_map.get(v, v)  # (an argument of an enclosing block: itself)
        if kind == "before":
            self.resolved[(v, shift)] = got = self.pins.get(v, v)
            return got
        if v in self.env:
            return self.env[v]
        raise IRError(user, f"'{user.name}' op uses the result of '{owner.name}' (payload "
                            f"{ir.IntegerAttr(owner.attributes[PAYLOAD_ATTR]).value}), which "
                            f"the schedule has not produced yet in this phase")

    def clone(self, op, shift: int):
        got = self.resolved.get
        operands = [got((v, shift)) or self._resolve(v, shift, op) for v in op.operands]
        if (names := self.stripped.get(op)) is None:
            names = self.stripped[op] = tuple(a for a in _STRIPPED if a in op.attributes)
        new = op.clone()
        set_new_operands(new, operands)
        for a in names:
            del new.attributes[a]
        return new

    def emit_payload(self, template_desc: OpDesc, group, entry: OpDesc) -> list:
        """Clone every payload op of the logical op, in loop order; returns the kinds of
        the instructions they issue (:func:`instruction_kinds`)."""
        shift = k_shift(template_desc, entry)
        kinds: list = []
        for op in group:
            new = self.clone(op, shift)
            for old_r, new_r in zip(op.results, new.results):
                self.env[old_r] = new_r
            kinds += instruction_kinds(new)
        return kinds


def _emit_part(em: _Emitter, templates: _Templates, ph_op, plan: KernelPlan, part) -> None:
    """Emit the entries of one part of the plan (a phase or a stretch of one); the DMAs of
    a global load of an MX scale channel (``LOAD_SA`` / ``LOAD_SB``) are its scale DMAs."""
    if part.start == 0:
        templates.start_phase()

    def place(e_op, d) -> list:
        tdesc, top = templates.find(d, e_op)
        kinds = em.emit_payload(tdesc, top, d)
        if d.role != OpRole.GLOBAL_LOAD or not is_scale_channel(d.channel) or None in kinds:
            return kinds
        try:    # the MX scale DMAs, placed on their own (pipeline_mlir/schedule/scale_dmas.py)
            return mark_scale_dmas(kinds)
        except ValueError as e:
            raise IRError(e_op, f"'{e_op.name}' op: {e}") from None

    entries = plan.entries(part.name)
    emit_entries(ops_of(ph_op.regions[0])[part.start:part.stop],
                 [e.op for e in entries[part.start:part.stop]], plan.fence_waits,
                 plan.fence_blocks, place, plan.fenced(part), plan.fence_loads,
                 plan.interleave, SPREAD_OVER_MMA if plan.spread_over_mma else plan.spread_loads)


def _yield_values(loop):
    term = _op(loop.regions[0].blocks[0].operations[-1])   # (not a list of every op)
    return list(term.operands)


def _block_size(loop) -> int | None:
    """The x size of the workgroup the loop's kernel declares, whichever way it declares it
    (a ``gpu.func``'s ``known_block_size``, a ``func.func``'s ``gpu.known_block_size`` or
    IREE's ``translation_info``, as the front end reads it)."""
    kernel = kernel_of(loop)
    size = block_size(kernel) if kernel is not None else None
    return size[0] if size is not None else None


def _barrier_if(cond) -> None:
    if_op = B.scf.IfOp(cond)
    with ir.InsertionPoint(if_op.then_block):
        B.rocdl.s_barrier()
        B.scf.YieldOp([])


_PHASE_OPS = {"prologue": S.PROLOGUE, "kernel": S.KERNEL, "epilogue": S.EPILOGUE}


def plan_from_ir(p, fence_waits: bool = True, fence_blocks: bool = True,
                 fence_loads: bool = True, interleave: bool = False,
                 spread_loads: bool = False, spread_over_mma: bool = False) -> KernelPlan:
    """The kernel plan of a pipeline in state "phases": its schedule's kernel shape, the
    phases as the passes left them (``block`` attributes included), the stagger, and the
    lowering's fence and interleave options."""
    shape = as_run(kernel_shape(p.named()), p)      # (a loop of no trip: straight code)
    phases, blocks = {}, {}
    for name, op_name in _PHASE_OPS.items():
        phases[name] = tuple(read_phase(p.phase_ops[op_name], p.schedule_name))
        blocks[name] = [get(e, "block", S.INT) for e in ops_of(p.phase_ops[op_name].regions[0])]
    return KernelPlan(shape, phases["prologue"], phases["kernel"], phases["epilogue"],
                      get(p.op, "warp_stagger_index", S.INT, 0), blocks["prologue"],
                      blocks["kernel"], blocks["epilogue"], fence_waits, fence_blocks,
                      fence_loads, interleave, spread_loads, spread_over_mma)


def spreads_over_mma(p) -> bool:
    """Whether the spread global loads of the concrete pipeline ``p`` go over every MFMA of
    an MMA (:func:`~pipeline_mlir.kernel.load_spread.spread_mode` of the shape of its
    schedule's complete kernel); False for a schedule without one."""
    named = p.named()
    return named.has_kernel and \
        spread_mode(kernel_shape(named, named.kernel_geometry())) == SPREAD_OVER_MMA


def reserves_agprs(p) -> bool:
    """Whether the kernel of the concrete pipeline ``p`` keeps its accumulators in AGPRs
    (its function carries ``sched.agpr_alloc``: one wave per SIMD, a 128x128 warp tile)."""
    kernel = kernel_of(p.op)
    return kernel is not None and AGPR_ALLOC_ATTR in kernel.attributes


def materialize(p, fence_waits: bool = True, fence_blocks: bool = True,
                fence_loads: bool = True, interleave: bool = False,
                spread_loads: bool = False) -> KernelPlan:
    """Replace the loop after the concrete pipeline ``p`` by the kernel plan's prologue /
    loop / epilogue; returns the plan it emitted."""
    loop = concrete_loop(p)
    if loop is None:
        raise IRError(p.op, "'sched.pipeline' op (concrete) must be followed by its scf.for")
    body = loop_body(loop)
    templates = _Templates(p, body)
    for name in S.PHASE_OPS:
        if name not in p.phase_ops:
            raise IRError(p.op, f"'sched.pipeline' op lacks '{name}'")
    plan = plan_from_ir(p, fence_waits, fence_blocks, fence_loads, interleave, spread_loads,
                        spread_loads and spreads_over_mma(p))
    if FORM_ATTR in loop.attributes:    # the subtiles the front end split along K
        plan = replace(plan, form=_subtile_form(loop))
    if VERSIONED_ATTR in loop.attributes:   # the interior workgroups only (edge_version.py)
        plan = replace(plan, workgroups=VERSIONED_NOTE)
    if MERGE_NOTE_ATTR in loop.attributes:   # merge_k's decision (frontend/kmerge.py)
        plan = replace(plan, merge_note=get(loop, MERGE_NOTE_ATTR, S.STR))
    if KSPLIT_NOTE_ATTR in loop.attributes:  # the K split for registers (fragment_budget.py)
        plan = replace(plan, ksplit_note=get(loop, KSPLIT_NOTE_ATTR, S.STR))
    if global_dmas(loop):   # LLVM 22 counts these on lgkmcnt too: the MMAs' waits made here
        try:
            pro, krn, epi = cover_dma_operands(plan.prologue, plan.kernel, plan.epilogue,
                                               plan.shape.lgkm_per_load)
        except ConfigError as e:
            raise IRError(p.op, f"'sched.pipeline' op: {e}") from None
        plan = replace(plan, prologue=pro, kernel=krn, epilogue=epi)
    reads = _fragment_reads(loop)
    pro, krn, epi = lower_merged_waits(plan.prologue, plan.kernel, plan.epilogue,
                                       plan.shape.lgkm_per_load, _pairable(plan, reads))
    plan = replace(plan, prologue=pro, kernel=krn, epilogue=epi)
    plan = replace(plan, unissued=unused_reads(plan.epilogue, p.phase_ops[S.EPILOGUE],
                                               templates, loop, _yield_values(loop), body))
    try:   # every counted wait's order must be one the fences can pin
        order_cuts(plan, strict=True)
    except ConfigError as e:
        raise IRError(p.op, f"'sched.pipeline' op: {e}") from None
    plan = replace(plan, function=_function_name(p.op), trips=main_trips(loop),
                   masked_starts=masked_starts(loop), **reads)
    _Materializer(p, loop, body, templates, plan).run()
    return plan


def _pairable(plan, reads: dict) -> tuple[bool, bool]:
    """Per channel, whether LLVM may merge two reads of one fragment load into one
    instruction (:mod:`pipeline_mlir.schedule.merged_reads`): from the reads' addresses,
    or, where they are not known, wherever a load issues more than one."""
    if reads.get("reads"):
        return pairable_channels(reads["reads"])
    lgkm = plan.shape.lgkm_per_load
    return lgkm[0] > 1, lgkm[1] > 1


def _fragment_reads(loop) -> dict:
    """The plan's ``reads`` (every thread's LDS addresses of each fragment read of the
    loop body, :func:`~pipeline_mlir.analysis.lds_access.loop_reads`), or its
    ``reads_note`` saying why there are none."""
    from pipeline_mlir.analysis.lds_access import loop_reads
    from pipeline_mlir.kernel.lds_data import LdsAccessError

    kernel, size = kernel_of(loop), _block_size(loop)
    if kernel is None or size is None:
        return {"reads_note": "the kernel's function or workgroup size is not known"}
    try:
        found = loop_reads(loop, kernel, size)
    except LdsAccessError as e:
        return {"reads_note": str(e)}
    if not found.accesses:
        return {"reads_note": "the loop's fragment reads are no tagged vector.load of a "
                              "workgroup buffer"}
    return {"reads": tuple(found.accesses), "reads_note": ""}


def _function_name(op) -> str:
    """The symbol of the function ``op`` is in ('' outside any)."""
    op = _op(op).parent
    while op is not None and "sym_name" not in op.attributes:
        op = op.parent
    return ir.StringAttr(op.attributes["sym_name"]).value if op is not None else ""


def global_dmas(loop) -> bool:
    """Whether the loop copies to LDS with a FLAT-global LDS DMA: an
    ``amdgpu.gather_to_lds`` from a memref that is not a buffer
    (``amdgpu.fat_raw_buffer_cast``), ``global_load_lds_dword*`` in the code
    (:mod:`pipeline_mlir.schedule.dma_lgkm`)."""
    found = []

    def visit(op):
        op = _op(op)
        if op.name == "amdgpu.gather_to_lds" and \
                memory_space(op.operands[0].type) != "fat_raw_buffer":
            found.append(op)
        return ir.WalkResult.ADVANCE

    loop.walk(visit)
    return bool(found)


def _subtile_form(loop) -> SubtileForm:
    """The form the loop's ``sched.subtiles`` attribute records (``kernel/subtile_form.py``);
    :class:`IRError` at the loop for an attribute the front end does not write."""
    text = get(loop, FORM_ATTR, S.STR)
    try:
        return parse_form(text)
    except ConfigError as e:
        raise IRError(loop, f"'scf.for' op attribute '{FORM_ATTR}': {e}") from None


class _Materializer:
    """The kernel plan's parts emitted before the natural loop, in order (``run``): the
    prologue, the new main loop, the epilogue, with the barriers, fences and waits between
    them; then the loop's results come from the epilogue and the loop goes."""

    def __init__(self, p, loop, body: list, templates: _Templates, plan: KernelPlan) -> None:
        self.p, self.loop, self.body, self.templates, self.plan = p, loop, body, templates, plan
        parts = plan.parts
        self.last_prologue = max(i for i, part in enumerate(parts)
                                 if part.kind == ENTRIES and part.name == "prologue")
        # the warp groups some part runs alone (in the order they first appear)
        self.alone = list(dict.fromkeys(g for part in parts if part.groups is not None
                                        for g in part.groups))
        self.lb, self.ub, self.step = (loop.operands[0], loop.operands[1], loop.operands[2])
        self.inits = list(loop.operands)[3:]
        self.old_yields = _yield_values(loop)
        self.pinned = pinned_values(loop, body)
        self.em = self.phase = self.start = None
        self.cond: dict = {}
        self.new_inits = self.new_loop = self.finals = None
        #: payload results of the fragment reads the prologue issues ahead of the loop
        #: (after the join barrier, ``frags_ahead``): carried through the main loop
        self.ahead: list = []

    def run(self) -> None:
        loop = self.loop
        with ir.InsertionPoint(loop), loop.location:
            for i, part in enumerate(self.plan.parts):
                if part.kind == KERNARG_WAIT:
                    for op in part.ops():
                        create_control(op)
                    continue
                if self.em is None:
                    self._begin()
                if part.kind == ENTRIES:
                    self._entries(i, part)
                elif part.kind == BARRIER:
                    if part.groups is None:
                        B.rocdl.s_barrier()
                    for g in part.groups or ():
                        _barrier_if(self.cond[g])
                elif part.kind == ZERO_TRIP_FENCE:
                    self._zero_trip_fence(part)
                elif part.kind == LOOP:
                    self._main_loop(part)
            if needs_guard(loop):    # LLVM 22 misses a reader 19 wait states after it
                emit_guard()
            # every MMA and fragment read the waits count is issued (lowering/keep_alive.py)
            keep_accumulators(accumulators(self.old_yields, self.finals),
                              reserves_agprs(self.p))
        for old, new in zip(loop.results, self.finals):
            old.replace_all_uses_with(new)
        loop.erase()
        self.p.op.erase()

    def _begin(self) -> None:
        """The emitter (K tile = half the loop's step) and, for a warp stagger, each warp
        group's condition."""
        step = self.step
        two = B.arith.constant(step.type, ir.IntegerAttr.get(step.type, 2))
        bk = B.arith.divui(step, two)
        self.em = _Emitter(self.loop, bk, self.body)
        if self.alone:
            size = _block_size(self.loop)
            if size is None:
                raise IRError(self.loop, "the warp stagger needs the kernel's workgroup size "
                                         "(known_block_size, gpu.known_block_size or IREE's "
                                         "translation_info)")
            tid = B.gpu.thread_id(B.gpu.Dimension.x)
            grp = B.arith.divui(tid, index_constant(size // self.plan.shape.groups))
            for g in self.alone:
                self.cond[g] = B.arith.cmpi(B.arith.CmpIPredicate.eq, grp, index_constant(g))

    def _start(self):
        """The main loop's first K position, ``lb + step`` (created once)."""
        if self.start is None:
            self.start = B.arith.addi(self.lb, self.step)
        return self.start

    def _entries(self, i: int, part) -> None:
        """A prologue or epilogue part (prologue: k base lb; epilogue: ub, after the loop)."""
        em, p = self.em, self.p
        if part.name != self.phase:
            self.phase = part.name
            if self.phase == "prologue":
                em.start_phase(self.lb, self.inits)
            else:
                results = list(self.new_loop.results)
                n, m = len(self.inits), len(self.inits) + len(self.pinned)
                em.start_phase(self.ub, results[:n], dict(zip(self.pinned, results[n:m])),
                               dict(zip(self.ahead, results[m:])))
        before = set(em.env)
        _emit_part(em, self.templates, p.phase_ops[_PHASE_OPS[part.name]], self.plan, part)
        if part.name == "prologue" and self.plan.parts[i - 1].name == "join":
            self.ahead = [v for v in em.env if v not in before]
        if i == self.last_prologue:
            self.new_inits = [_final(em, y, init) for y, init in zip(self.old_yields, self.inits)]
        if part.name == "epilogue":     # (a yield it does not place: the loop's result)
            placed = placed_yields(self.loop, self.old_yields)
            self.finals = [_final(em, y, r) if k in placed else r for k, (y, r)
                           in enumerate(zip(self.old_yields, self.new_loop.results))]

    def _zero_trip_fence(self, part) -> None:
        """The fence before the epilogue when the main loop runs zero times."""
        zero = B.arith.cmpi(B.arith.CmpIPredicate.uge, self._start(), self.ub)
        if_op = B.scf.IfOp(zero)
        with ir.InsertionPoint(if_op.then_block):
            for op in part.ops():
                create_control(op)
            B.scf.YieldOp([])

    def _main_loop(self, part) -> None:
        """The new main loop from ``lb + step``: the kernel phase, the accumulators and the
        pinned values carried; on a 32-bit counter when its bounds fit one
        (:mod:`pipeline_mlir.lowering.loop_i32`), the ``index`` K position carried last or
        cast from the counter (:func:`~pipeline_mlir.lowering.loop_i32.carries_k_position`)."""
        em, pinned = self.em, self.pinned
        start = self._start()
        n_old = len(self.new_inits)
        ahead_inits = [em.env[v] for v in self.ahead]
        inits = self.new_inits + pinned + ahead_inits
        narrow = narrowed_bounds(start, self.ub, self.step)     # a 32-bit counter if exact
        carry = narrow is not None and carries_k_position(
            any(q.kind == ZERO_TRIP_FENCE for q in self.plan.parts))
        self.new_loop = new_loop = (
            unsigned_loop(*narrow, inits + ([start] if carry else [])) if narrow
            else B.scf.ForOp(start, self.ub, self.step, inits))
        with ir.InsertionPoint(new_loop.body):
            carried = list(new_loop.inner_iter_args)
            m = n_old + len(pinned)
            pins = _pin(pinned, carried[n_old:m])
            iv = new_loop.induction_variable
            iv = carried[-1] if carry else k_position(iv) if narrow else iv
            em.start_phase(iv, carried[:n_old], pins,
                           dict(zip(self.ahead, carried[m:m + len(self.ahead)])))
            self.phase = part.name
            _emit_part(em, self.templates, self.p.phase_ops[S.KERNEL], self.plan, part)
            B.scf.YieldOp([_final(em, y, a) for y, a in zip(self.old_yields, carried)]
                          + [pins[v] for v in pinned] + [em.env[v] for v in self.ahead]
                          + ([B.arith.addi(iv, self.step)] if carry else []))


def pinned_values(loop, body: list) -> list:
    """Values defined before ``loop`` by an opaque identity
    (:func:`~pipeline_mlir.analysis.loop_eval.is_opaque_identity`) that the loop body uses,
    in order of definition.  The lowering carries each through the main loop in a register
    (an ``iter_arg`` passed through the identity once per iteration): LLVM then cannot
    hoist address arithmetic on it out of the loop, so a constant added to it stays a
    constant (a ``ds_read`` offset) instead of becoming a loop-invariant register of its
    own; the epilogue takes it from the loop's result (``body``: the loop's ops)."""
    body = set(body)

    def in_body(op) -> bool:
        while op is not None and op not in body:
            op = _op(op).parent
            op = _op(op) if op is not None else None
        return op is not None

    out = []
    for o in loop.block.operations:
        o = _op(o)
        if o == loop:
            break
        if is_opaque_identity(o) and any(in_body(_op(u.owner)) for u in o.results[0].uses):
            out.append(o.results[0])
    return out


def _pin(pinned: list, carried: list) -> dict:
    """In the loop body: each pinned value's identity applied to its iter_arg."""
    pins = {}
    for v, arg in zip(pinned, carried):
        new = _op(v.owner).clone()
        new.operands[0] = arg
        pins[v] = new.results[0]
    return pins


def _final(em: _Emitter, y, fallback):
    """The value yield operand ``y`` has at the end of the current phase."""
    if y in em.env:
        return em.env[y]
    if y in em.iter_map:
        return em.iter_map[y]
    owner = y.owner
    if not isinstance(owner, ir.Block) and _op(owner) in em.body_ops:
        if PAYLOAD_ATTR in _op(owner).attributes:
            return fallback  # produced by an op this phase does not run
        return em.resolve(y, 0, _op(owner))
    return y
