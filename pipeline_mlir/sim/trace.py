"""A schedule as the kernel runs it: per warp group, every entry in execution order.

The kernel's structure around the schedule's phases -- warp groups and their stagger,
the zero-trip fence, K tile bases -- is the kernel plan's
(:mod:`pipeline_mlir.kernel.plan`), which the lowering, the ISA check and the numpy
reference read as well.  The plan's wait for the kernel arguments is left out here: it
waits for scalar loads, which the models do not have.

:class:`~pipeline_mlir.kernel.plan.KernelShape` carries what the dump format does not:
waves and groups, instructions per logical op (vm / lgkm per load, MFMAs per MMA) and
the MFMA mnemonic.  :func:`group_trace` gives the :class:`Step` list of one warp group
(the functional model's input); :func:`wave_streams` expands it into the
:class:`~pipeline_mlir.sim.instr.Instr` streams of every wave (the timing models'
input).
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.plan import KERNARG_WAIT, KernelPlan, KernelShape, Part, kernel_plan
from pipeline_mlir.kernel.plan import kernel_shape as plan_shape
from pipeline_mlir.kernel.unread_frags import as_emitted
from pipeline_mlir.schedule.targets import (FRAG_TAGS, LOAD_A, LOAD_B, LOAD_TAGS, MMA, MMA_LOAD_A,
                                            MMA_LOAD_B)
from pipeline_mlir.schedule.types import (
    BARRIER,
    SCHED_GROUP_BARRIER,
    SCHEDULE_BARRIER,
    SET_PRIO,
    WAIT_FRAG,
    WAIT_LGKM,
    WAIT_VM,
    KOffsetKind,
    OpDesc,
    OpRole,
)
from pipeline_mlir.schedules.registry import KERNEL_SCHEDULES
from pipeline_mlir.sim.instr import Instr

__all__ = ["MATMUL_ROLES", "KernelShape", "kernel_shape", "Step", "channel_of", "role_of",
           "group_trace", "step_instrs", "wave_streams"]

#: role and channel of each matmul kernel tag (the dump names LOAD_A, MMA_LOAD_B, ...)
MATMUL_ROLES = {LOAD_A: (OpRole.GLOBAL_LOAD, 0), LOAD_B: (OpRole.GLOBAL_LOAD, 1),
                MMA_LOAD_A: (OpRole.FRAGMENT_LOAD, 0), MMA_LOAD_B: (OpRole.FRAGMENT_LOAD, 1),
                MMA: (OpRole.COMPUTE, -1)}
# the MX scale channels (2: A's scales, 3: B's): LOAD_SA/SB, MMA_LOAD_SA/SB
MATMUL_ROLES.update({LOAD_TAGS[ch]: (OpRole.GLOBAL_LOAD, ch) for ch in (2, 3)})
MATMUL_ROLES.update({FRAG_TAGS[ch]: (OpRole.FRAGMENT_LOAD, ch) for ch in (2, 3)})


def kernel_shape(schedule) -> KernelShape:
    """The shape of the complete kernel a named schedule stands for, to simulate.

    The counts are the named schedule's (what its waits were derived for); the
    MFMAs per MMA come from the kernel geometry of its dtype and tile."""
    if not schedule.has_kernel:
        raise ConfigError(f"pipeline '{schedule.name}': the simulator models the double-buffer "
                          f"kernels ({', '.join(KERNEL_SCHEDULES)}); '{schedule.name}' has no "
                          f"K offsets and no LDS stages to check")
    shape = plan_shape(schedule, schedule.kernel_geometry())
    for what, counts in (("vm_per_load", shape.vm_per_load),
                         ("lgkm_per_load", shape.lgkm_per_load)):
        if min(counts) <= 0:
            names = "a/b" if len(counts) == 2 else "a/b/sa/sb"
            raise ConfigError(f"pipeline '{schedule.spec()}': {what}_{names} must be at least "
                              f"1 to simulate (got {', '.join(map(str, counts))})")
    return shape


class Step(NamedTuple):
    """One entry as one warp group executes it (a tuple: a run makes thousands)."""

    pos: int            # index in the group's trace
    epoch: int          # s_barrier rendezvous passed before it
    phase: str          # prologue | kernel | epilogue | stagger | join | realign | fence
    iteration: int      # main-loop iteration (kernel phase), else 0
    entry: int          # index in the phase (-1 for kernel-structure steps)
    op: OpDesc
    k_tile: int | None  # data ops with a K offset: the K tile (BK units)
    part: Part | None = None   # the kernel plan's part it belongs to

    @property
    def origin(self) -> tuple[str, int, int]:
        return (self.phase, self.iteration, self.entry)

    def where(self) -> str:
        if self.entry < 0 and self.part is not None:
            return self.part.describe()
        it = f" (iteration {self.iteration})" if self.phase == "kernel" else ""
        return f"{self.phase} entry {self.entry}{it}"


def channel_of(op: OpDesc) -> int:
    """The op's channel (0 = A, 1 = B, 2 and 3 their MX scale tiles); prologue loads may
    carry -1 (the reference clears a prologue load's channel)."""
    if op.channel in (0, 1, 2, 3):
        return op.channel
    if op.tag in MATMUL_ROLES and MATMUL_ROLES[op.tag][1] in (0, 1, 2, 3):
        return MATMUL_ROLES[op.tag][1]
    raise ConfigError(f"op with tag {op.tag} has no channel")


def role_of(op: OpDesc) -> OpRole:
    if op.role != OpRole.NONE:
        return op.role
    return MATMUL_ROLES[op.tag][0] if op.tag in MATMUL_ROLES else OpRole.NONE


def plan_of(compiled, shape: KernelShape, emitted: bool = False) -> KernelPlan:
    """The kernel plan of ``shape`` running the compiled schedule ``compiled`` (its phases and
    stagger index); a kernel plan is itself.  ``emitted``: the kernel the lowering emits
    from those phases, without the epilogue's fragment reads no MMA reads
    (:func:`~pipeline_mlir.kernel.unread_frags.as_emitted`); else the schedule as printed,
    every entry run."""
    plan = compiled if isinstance(compiled, KernelPlan) else kernel_plan(compiled, shape)
    return as_emitted(plan) if emitted else plan


def group_trace(plan: KernelPlan, group: int, iterations: int) -> list[Step]:
    """The entries warp group ``group`` executes for ``iterations`` main-loop trips."""
    out: list[Step] = []
    epoch = 0
    for part, phase, iteration, entry, op, k_base in plan.run(group, iterations):
        if entry < 0 and part.kind == KERNARG_WAIT:
            continue
        kt = None
        if op.k_offset != KOffsetKind.NONE and role_of(op) == OpRole.GLOBAL_LOAD:
            kt = k_base + op.k_offset.signed_bk_multiple()
        out.append(Step(len(out), epoch, phase, iteration, entry, op, kt, part))
        if op.tag == BARRIER:
            epoch += 1
    return out


# ---------------------------------------------------------------------------------------------
# Instruction streams for the timing models
# ---------------------------------------------------------------------------------------------

def step_instrs(step: Step, shape: KernelShape, origin: tuple, group: int = 0) -> list[Instr]:
    """The hardware instructions one step issues.

    LDS accesses carry their bank cycles for warp group ``group`` when the shape knows
    them.  Values: fragment load ``(ch, sub)`` part ``j`` defines ``frag<ch>.<sub>.<j>``; MFMA
    ``j`` of MMA ``(r, c)`` reads ``frag0.r.<j mod lgkm_a>``, ``frag1.c.<j mod lgkm_b>``
    and its accumulator ``acc.r.c.<j mod 16>`` (the kernels' MFMAs of one MMA cycle
    through the fragment parts and through distinct accumulators)."""
    op = step.op
    t = op.tag
    if t == WAIT_FRAG:
        return []      # issues nothing: the MFMAs of its MMA wait (:func:`fragment_waited`)
    if t == WAIT_VM:
        return [Instr("wait", "s_waitcnt", vm=op.wait_value, origin=origin + (0,))]
    if t == WAIT_LGKM:
        return [Instr("wait", "s_waitcnt", lgkm=op.wait_value, origin=origin + (0,))]
    if t == BARRIER:
        return [Instr("barrier", "s_barrier", origin=origin + (0,))]
    if t == SET_PRIO:
        return [Instr("setprio", "s_setprio", value=op.wait_value, origin=origin + (0,))]
    if t == SCHEDULE_BARRIER:
        return [Instr("sched_barrier", "sched_barrier", origin=origin + (0,))]
    if t == SCHED_GROUP_BARRIER:
        return [Instr("sched_group_barrier", "sched_group_barrier", origin=origin + (0,))]
    role = role_of(op)
    banks = shape.bank_cycles[group] if shape.bank_cycles else {}
    if role == OpRole.GLOBAL_LOAD:
        ch = channel_of(op)
        return [Instr("vmem_load_lds", shape.element_dma(ch, j), origin=origin + (j,),
                      bank_cycles=banks.get(("dma", ch, op.stage, op.subtile, j), 0))
                for j in range(shape.vm_per_load[ch])]
    if role == OpRole.FRAGMENT_LOAD:
        ch = channel_of(op)
        n = shape.lgkm_per_load[ch]
        scale = n - shape.scale_reads[ch]         # the MX scale reads come last
        return [Instr("ds_read", "ds_read_u8" if j >= scale else "ds_read_b128",
                      defs=(f"frag{ch}.{op.subtile}.{j}",), origin=origin + (j,),
                      bank_cycles=banks.get(("read", ch, op.stage, op.subtile, j), 0))
                for j in range(n)]
    if role == OpRole.COMPUTE:
        r, c = op.stage, op.subtile
        out = []
        for j in range(shape.mfmas_per_mma):
            acc = f"acc.{r}.{c}.{j % 16}"
            # A's and B's fragments, then (MX scale channels 2, 3) their scales
            uses = tuple(f"frag{ch}.{c if ch % 2 else r}.{j % n}"
                         for ch, n in enumerate(shape.lgkm_per_load))
            out.append(Instr("mfma", shape.mfma, defs=(acc,), uses=uses + (acc,),
                             origin=origin + (j,), formats=shape.mfma_formats))
        return out
    raise ConfigError(f"{step.where()}: op with tag {t} has no instructions the simulator "
                      f"knows")


def fragment_waited(mfmas: list[Instr], in_flight: list[str], count: int) -> list[Instr]:
    """The MFMAs of an MMA under a fragment wait of ``count``, each preceded by the
    ``s_waitcnt lgkmcnt`` its operands need when it is stronger than the one before: the
    count of LDS reads issued after the latest of its operand reads still in flight
    (``in_flight``: the defs of the lgkmcnt instructions that may be in flight, oldest
    first), as LLVM's waitcnt pass places them.  The last MFMA waits for at most
    ``count``."""
    out: list[Instr] = []
    last = len(in_flight)
    for k, m in enumerate(mfmas):
        pos = [i for i, d in enumerate(in_flight) if d in m.uses]
        need = len(in_flight) - 1 - max(pos) if pos else last
        if k == len(mfmas) - 1:
            need = min(need, count)
        if need < last:
            out.append(Instr("wait", "s_waitcnt", lgkm=need, origin=m.origin[:-1] + (-1,)))
            last = need
        out.append(m)
    return out


def _group_stream(plan: KernelPlan, shape: KernelShape, g: int, iterations: int) -> list[Instr]:
    """The instructions one wave of warp group ``g`` issues; an MMA under a fragment
    wait gets its per-MFMA waits (:func:`fragment_waited`)."""
    instrs: list[Instr] = []
    in_flight: list[str] = []
    frag = None
    for s in group_trace(plan, g, iterations):
        got = step_instrs(s, shape, s.origin, g)
        if s.op.tag == WAIT_FRAG:
            frag = s.op.wait_value
        elif frag is not None and role_of(s.op) == OpRole.COMPUTE:
            got, frag = fragment_waited(got, in_flight, frag), None
        for i in got:
            if i.lgkm_inc:
                in_flight.append(i.defs[0] if i.defs else "")
            elif i.kind == "wait" and i.lgkm is not None:
                in_flight = in_flight[-i.lgkm:] if i.lgkm else []
        instrs.extend(got)
    return instrs


def wave_streams(compiled, shape: KernelShape, iterations: int,
                 emitted: bool = False) -> list[tuple[int, list[Instr]]]:
    """``(simd, instructions)`` of every wave of the kernel running the compiled schedule
    ``compiled`` for ``iterations`` trips (``emitted``: as :func:`plan_of`)."""
    plan = plan_of(compiled, shape, emitted)
    per_group = [_group_stream(plan, shape, g, iterations) for g in range(shape.groups)]
    return [(shape.simd_of(w), per_group[w // shape.waves_per_group])
            for w in range(shape.waves)]
