"""A schedule as the kernel runs it: per warp group, every entry in execution order.

SPEC 1.4 fixes how a double-buffer kernel consumes its schedule, and the project's
own kernels (:mod:`pipeline_mlir.kernel.gemm`, lowered by ``dialect/concrete.py``)
do the same:

* ping-pong (8 warps in 2 groups of 4): ``prologue[0:stagger]``; warp group 1 runs
  one extra ``s_barrier``; ``prologue[stagger:]``; every warp ``s_barrier``; the
  main loop; the epilogue; warp group 0 runs one extra ``s_barrier``.  The project's
  kernels take the two-group structure whenever ``stagger <= len(prologue)``.
* 4-wave (4 warps, one group): the prologue; when the main loop runs zero times,
  ``s_waitcnt vmcnt(0)``, ``s_waitcnt lgkmcnt(0)``, ``s_barrier`` (the reference
  kernel's race fix); the main loop; the epilogue.

K tiles (in BK units): the prologue runs at k base 0, main-loop iteration ``i`` at
``2*(i+1)``, the epilogue at ``2*(N+1)`` for ``N`` iterations; a data op's tile is
``k base + signed_bk_multiple(k_offset)``.

:class:`KernelShape` carries what the dump format does not: waves and groups,
instructions per logical op (vm / lgkm per load, MFMAs per MMA) and the MFMA
mnemonic.  :func:`group_trace` gives the :class:`Step` list of one warp group (the
functional model's input); :func:`wave_streams` expands it into the
:class:`~pipeline_mlir.sim.instr.Instr` streams of every wave (the timing models'
input).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.isa.waitcnt import LGKMCNT_MAX, VMCNT_MAX
from pipeline_mlir.kernel.gemm import MFMA_MNEMONICS, GemmKernel
from pipeline_mlir.schedule.targets import LOAD_A, LOAD_B, MMA, MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import (
    BARRIER,
    SCHED_GROUP_BARRIER,
    SCHEDULE_BARRIER,
    SET_PRIO,
    WAIT_LGKM,
    WAIT_VM,
    KOffsetKind,
    OpDesc,
    OpRole,
)
from pipeline_mlir.schedules.geometry import ping_pong_geometry
from pipeline_mlir.sim.instr import Instr

#: role and channel of each matmul kernel tag (the dump names LOAD_A, MMA_LOAD_B, ...)
MATMUL_ROLES = {LOAD_A: (OpRole.GLOBAL_LOAD, 0), LOAD_B: (OpRole.GLOBAL_LOAD, 1),
                MMA_LOAD_A: (OpRole.FRAGMENT_LOAD, 0), MMA_LOAD_B: (OpRole.FRAGMENT_LOAD, 1),
                MMA: (OpRole.COMPUTE, -1)}
#: hardware counter limits of gfx950 (vmcnt 6 bits, lgkmcnt 4 bits)
VM_LIMIT, LGKM_LIMIT = VMCNT_MAX, LGKMCNT_MAX


@dataclass(frozen=True)
class KernelShape:
    """How the kernel runs a schedule: its warps and what each logical op issues."""

    schedule: str            # "pingpong" | "4wave"
    groups: int              # warp groups (2 for ping-pong)
    waves_per_group: int
    vm_per_load: tuple[int, int]     # (A, B) vmcnt entries per global load
    lgkm_per_load: tuple[int, int]   # (A, B) lgkmcnt entries per fragment load
    mfmas_per_mma: int
    mfma: str                # MFMA mnemonic
    simds: int = 4
    #: the ping-pong kernel's extra barriers: warp group 1's inside the prologue (the
    #: stagger) and warp group 0's after the epilogue (re-aligning); without one of them
    #: the groups' barrier counts differ (a deadlock the model must catch)
    stagger_barrier: bool = True
    realign_barrier: bool = True
    #: per warp group, LDS bank cycles of each access of the kernel's loop body, keyed by
    #: ``(kind, channel, stage, subtile, part)`` (:meth:`pipeline_mlir.sim.lds_banks.
    #: KernelBanks.cycles`); empty when the lane addresses are not known (priced conflict-free)
    bank_cycles: tuple = field(default=(), compare=False)

    @property
    def waves(self) -> int:
        return self.groups * self.waves_per_group

    def simd_of(self, wave: int) -> int:
        """Waves fill the SIMDs round robin (wave w on SIMD w % 4): the ping-pong
        kernel's two groups share each SIMD, one wave of each."""
        return wave % self.simds

    def describe(self) -> str:
        return (f"{self.schedule}: {self.waves} waves in {self.groups} group(s), "
                f"vm/load A={self.vm_per_load[0]} B={self.vm_per_load[1]}, lgkm/load "
                f"A={self.lgkm_per_load[0]} B={self.lgkm_per_load[1]}, {self.mfmas_per_mma} "
                f"x {self.mfma} per MMA")


def kernel_shape(request, stagger_groups: bool = True) -> KernelShape:
    """The shape of the complete kernel a ``4wave`` / ``pingpong`` request stands for.

    The counts are the request's (what its schedule's waits were derived for); the
    MFMAs per MMA come from the kernel geometry of the request's dtype and tile."""

    if request.name == "pingpong":
        dtype = "fp8" if request.get("is_fp8") else "bf16"
        g = ping_pong_geometry(dtype, 256, 256, 128 if dtype == "fp8" else 64)
        k = GemmKernel(request, g, 512, 2, 4)
        vm = (request.get("vm_per_load_a"), request.get("vm_per_load_b"))
        lgkm = (request.get("lgkm_per_load_a"), request.get("lgkm_per_load_b"))
        groups, per_group = 2, 4
    elif request.name == "4wave":
        g = request.geometry()
        k = GemmKernel(request, g, 256, 2, 2)
        vm = (g.vm_per_load_a, g.vm_per_load_b)
        lgkm = (g.lgkm_per_load_a, g.lgkm_per_load_b)
        groups, per_group = 1, 4
    else:
        raise ConfigError(f"pipeline '{request.name}': the simulator models the double-buffer "
                          f"kernels (4wave, pingpong); '{request.name}' has no K offsets and "
                          f"no LDS stages to check")
    for what, (a, b) in (("vm_per_load", vm), ("lgkm_per_load", lgkm)):
        if a <= 0 or b <= 0:
            raise ConfigError(f"pipeline '{request.spec()}': {what}_a/b must be at least 1 to "
                              f"simulate (got {a}, {b})")
    return KernelShape(request.name, groups, per_group, vm, lgkm, k.mfmas_per_mma,
                       MFMA_MNEMONICS[g.dtype])


@dataclass(frozen=True)
class Step:
    """One entry as one warp group executes it."""

    pos: int            # index in the group's trace
    epoch: int          # s_barrier rendezvous passed before it
    phase: str          # prologue | kernel | epilogue | stagger | fence
    iteration: int      # main-loop iteration (kernel phase), else 0
    entry: int          # index in the phase (-1 for kernel-structure steps)
    op: OpDesc
    k_tile: int | None  # data ops with a K offset: the K tile (BK units)

    @property
    def origin(self) -> tuple[str, int, int]:
        return (self.phase, self.iteration, self.entry)

    def where(self) -> str:
        if self.phase in ("stagger", "fence", "realign", "join"):
            return {"stagger": "the stagger barrier of warp group 1 (inside the prologue)",
                    "join": "the barrier every warp runs after the prologue",
                    "realign": "warp group 0's re-aligning barrier after the epilogue",
                    "fence": "the zero-trip fence between prologue and epilogue"}[self.phase]
        it = f" (iteration {self.iteration})" if self.phase == "kernel" else ""
        return f"{self.phase} entry {self.entry}{it}"


def channel_of(op: OpDesc) -> int:
    """The op's channel (0 = A, 1 = B); prologue loads may carry -1 (SPEC 7 quirk 7)."""
    if op.channel in (0, 1):
        return op.channel
    if op.tag in MATMUL_ROLES and MATMUL_ROLES[op.tag][1] in (0, 1):
        return MATMUL_ROLES[op.tag][1]
    raise ConfigError(f"op with tag {op.tag} has no channel")


def role_of(op: OpDesc) -> OpRole:
    if op.role != OpRole.NONE:
        return op.role
    return MATMUL_ROLES[op.tag][0] if op.tag in MATMUL_ROLES else OpRole.NONE


def group_trace(schedule, shape: KernelShape, group: int, iterations: int) -> list[Step]:
    """The entries warp group ``group`` executes for ``iterations`` main-loop trips."""
    pro, krn, epi = schedule.prologue, schedule.kernel, schedule.epilogue
    stagger = schedule.warp_stagger_index
    two_groups = shape.groups == 2
    out: list[Step] = []
    epoch = 0

    def add(phase, it, idx, op, k_base):
        nonlocal epoch
        kt = None
        if op.k_offset != KOffsetKind.NONE and role_of(op) == OpRole.GLOBAL_LOAD:
            kt = k_base + op.k_offset.signed_bk_multiple()
        out.append(Step(len(out), epoch, phase, it, idx, op, kt))
        if op.tag == BARRIER:
            epoch += 1

    staggered = two_groups and group == 1 and shape.stagger_barrier
    for i, e in enumerate(pro):
        if staggered and i == stagger:
            add("stagger", 0, -1, OpDesc.barrier(), 0)
        add("prologue", 0, i, e.op, 0)
    if staggered and stagger == len(pro):
        add("stagger", 0, -1, OpDesc.barrier(), 0)
    if two_groups:
        add("join", 0, -1, OpDesc.barrier(), 0)
    if shape.schedule == "4wave" and iterations == 0:
        for op in (OpDesc.wait_vm(0), OpDesc.wait_lgkm(0), OpDesc.barrier()):
            add("fence", 0, -1, op, 0)
    for it in range(iterations):
        for i, e in enumerate(krn):
            add("kernel", it, i, e.op, 2 * (it + 1))
    for i, e in enumerate(epi):
        add("epilogue", 0, i, e.op, 2 * (iterations + 1))
    if two_groups and group == 0 and shape.realign_barrier:
        add("realign", 0, -1, OpDesc.barrier(), 0)
    return out


def check_structure(schedule, shape: KernelShape) -> None:
    """The ping-pong structure needs a stagger index inside (or at the end of) the prologue."""
    if shape.groups == 2 and schedule.warp_stagger_index > len(schedule.prologue):
        raise ConfigError(f"the {shape.schedule} kernel staggers its warp groups at "
                          f"WARP_STAGGER_INDEX, which is {schedule.warp_stagger_index}, past the "
                          f"prologue's {len(schedule.prologue)} entries")


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
        n = shape.vm_per_load[ch]
        return [Instr("vmem_load_lds", "buffer_load_dwordx4", origin=origin + (j,),
                      bank_cycles=banks.get(("dma", ch, op.stage, op.subtile, j), 0))
                for j in range(n)]
    if role == OpRole.FRAGMENT_LOAD:
        ch = channel_of(op)
        n = shape.lgkm_per_load[ch]
        return [Instr("ds_read", "ds_read_b128", defs=(f"frag{ch}.{op.subtile}.{j}",),
                      origin=origin + (j,),
                      bank_cycles=banks.get(("read", ch, op.stage, op.subtile, j), 0))
                for j in range(n)]
    if role == OpRole.COMPUTE:
        r, c = op.stage, op.subtile
        la, lb = shape.lgkm_per_load
        out = []
        for j in range(shape.mfmas_per_mma):
            acc = f"acc.{r}.{c}.{j % 16}"
            out.append(Instr("mfma", shape.mfma, defs=(acc,),
                             uses=(f"frag0.{r}.{j % la}", f"frag1.{c}.{j % lb}", acc),
                             origin=origin + (j,)))
        return out
    raise ConfigError(f"{step.where()}: op with tag {t} has no instructions the simulator "
                      f"knows")


def wave_streams(schedule, shape: KernelShape, iterations: int) -> list[tuple[int, list[Instr]]]:
    """``(simd, instructions)`` of every wave of the kernel for ``iterations`` trips."""
    per_group = []
    for g in range(shape.groups):
        instrs = []
        for s in group_trace(schedule, shape, g, iterations):
            instrs.extend(step_instrs(s, shape, s.origin, g))
        per_group.append(instrs)
    return [(shape.simd_of(w), per_group[w // shape.waves_per_group])
            for w in range(shape.waves)]
