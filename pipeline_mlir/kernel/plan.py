"""The one model of a pipelined kernel: its skeleton, warps, LDS layout and arguments.

A double-buffer schedule compiles to three entry lists: the prologue, the kernel (the
main loop's body) and the epilogue.  The kernel that runs them adds structure of its
own, and every part of the project that builds, lowers, simulates, checks or emulates
such a kernel reads that structure here:

* the GEMM generator (:mod:`pipeline_mlir.kernel.gemm`): warps, LDS buffers, arguments;
* the lowering of the concrete form (``pipeline_mlir/lowering/materialize.py``): the skeleton it emits
  around the cloned payload ops;
* the simulator (:mod:`pipeline_mlir.sim.trace`): what each warp group executes;
* the ISA check (:mod:`pipeline_mlir.isa.check`): what each assembly phase must hold;
* the numpy reference (:mod:`pipeline_mlir.kernel.reference`): which K tile each
  entry touches.

The skeleton (:attr:`KernelPlan.parts`), in execution order:

1. ``kernarg-wait``: ``s_waitcnt lgkmcnt(0)``.  The kernel arguments are read with
   scalar loads, which count on lgkmcnt; waiting for them once before the prologue
   keeps the schedule's lgkm counts exact.
2. the prologue entries.  With two warp groups (ping-pong) it is split at the
   schedule's stagger index: warp group 1 runs one extra ``s_barrier`` there
   (``stagger``), so the groups run half a phase apart; every warp then runs one
   ``s_barrier`` after the prologue (``join``).
3. ``fence`` (kernels with a zero-trip fence, 4-wave, unless their loop runs at least
   once, ``min_trips``): when the main loop runs zero times, ``s_waitcnt vmcnt(0)``,
   ``s_waitcnt lgkmcnt(0)``, ``s_barrier`` before the
   epilogue (the reference kernel's fix of the race between the prologue's loads and
   the epilogue's reads).
4. the main loop: the kernel entries, once per iteration.
5. the epilogue entries; with two warp groups warp group 0 then runs one extra
   ``s_barrier`` (``realign``), so both groups pass the same number.

K tiles, in units of BK: the prologue runs at K base 0, main-loop iteration ``i`` at
``2*(i+1)``, the epilogue at ``2*(N+1)`` for ``N`` iterations; a data entry with a K
offset touches tile ``K base + signed_bk_multiple(k_offset)``.

A plan is a :class:`KernelShape` (what the kernel of a schedule kind is: warps and
groups, instructions per logical op, LDS layout and arguments where a complete kernel
is built) plus the phases of one compiled schedule (:class:`KernelPlan`).

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.lds import LdsLayout, lds_layout
from pipeline_mlir.kernel.mx_layout import mx_arguments, mx_lds_layout, mx_scale_counts
from pipeline_mlir.kernel.subtile_form import SubtileForm
from pipeline_mlir.kernel.wait_order import part_cuts
from pipeline_mlir.schedule.fences import (INTERLEAVE, LOAD_GROUPS, ORDER_FENCE, Dropped,
                                           Interleaved, fenced_sequence)
from pipeline_mlir.schedule.targets import MMA_LOAD_A, MMA_LOAD_B
from pipeline_mlir.schedule.types import WAIT_FRAG, KOffsetKind, OpDesc, OpRole, ScheduleEntry
from pipeline_mlir.target.gfx950 import (MFMA_BY_DTYPE, SIMDS_PER_CU, dtype_mfmas,
                                         wave_count)
from pipeline_mlir.target.model import Mfma

#: the f8f6f4 operand format code (cbsz / blgp) of each MX element type (E2M1 4, E4M3 0)
MX_FORMAT_CODES = {"mxfp4": 4, "mxfp8": 0}

#: the phases of a compiled schedule, in order
PHASES = ("prologue", "kernel", "epilogue")

#: kinds of skeleton parts
KERNARG_WAIT = "kernarg-wait"
ENTRIES = "entries"
BARRIER = "barrier"
ZERO_TRIP_FENCE = "zero-trip-fence"
LOOP = "loop"


_BARRIER_TEXT = {
    "stagger": ("stagger-barrier(group 1)",
                "the stagger barrier of warp group 1 (inside the prologue)"),
    "join": ("stagger-barrier(all)", "the barrier every warp runs after the prologue"),
    "realign": ("stagger-barrier(group 0)",
                "warp group 0's re-aligning barrier after the epilogue"),
}


# ---------------------------------------------------------------------------------------------
# Kernel arguments
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class KernelArgument:
    """One argument of the kernel function.

    ``buffer``: a global memref of ``element`` (the MLIR memref calling convention
    passes it as five 8-byte fields, :data:`MEMREF_FIELDS`); ``index``: one 8-byte
    integer."""

    name: str
    kind: str                  # buffer | index
    element: str | None = None

    #: the fields a memref argument is passed as
    MEMREF_FIELDS = ("allocated", "aligned", "offset", "size", "stride")

    def __post_init__(self) -> None:
        if self.kind not in ("buffer", "index"):
            raise ConfigError(f"kernel argument '{self.name}': kind must be buffer or index, "
                              f"got {self.kind!r}")
        if (self.kind == "buffer") != (self.element is not None):
            raise ConfigError(f"kernel argument '{self.name}': a buffer has an element type, "
                              f"an index has none")

    def fields(self) -> tuple[tuple[str, int], ...]:
        """(name, bytes) of each 8-byte field the argument is passed as."""
        if self.kind == "index":
            return ((self.name, 8),)
        return tuple((f"{self.name}.{f}", 8) for f in self.MEMREF_FIELDS)


def gemm_arguments(dtype: str, c_dtype: str = "f32") -> tuple[KernelArgument, ...]:
    """``C = A x B^T``: A (M x K) and B (N x K) of ``dtype``, C (M x N) of ``c_dtype``, then
    the problem size."""
    return (KernelArgument("A", "buffer", dtype), KernelArgument("B", "buffer", dtype),
            KernelArgument("C", "buffer", c_dtype), KernelArgument("M", "index"),
            KernelArgument("N", "index"), KernelArgument("K", "index"))


# ---------------------------------------------------------------------------------------------
# The kernel shape: what the kernel of a schedule kind is
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class KernelShape:
    """How a kernel runs any schedule of its kind: its warps and what each logical op
    issues.

    ``groups`` warp groups of ``waves_per_group`` waves; ``vm_per_load`` /
    ``lgkm_per_load``: vmcnt / lgkmcnt instructions of one global / fragment load of
    channel A and B; ``mfmas_per_mma`` and ``mfma``: the MFMAs an MMA entry becomes
    (``None``: not known without the kernel's geometry).  ``stagger_barrier`` /
    ``realign_barrier``: the two-group kernel's extra barriers (a kernel without one
    of them deadlocks: the simulator's tests switch one off to see that it is caught).
    ``lds`` and ``arguments``: the complete kernel's LDS buffers and function
    arguments (``None`` / empty without a geometry).  ``bank_cycles``: per warp group,
    the LDS bank cycles of each access of the kernel's loop body, keyed by ``(kind,
    channel, stage, subtile, part)`` (:meth:`pipeline_mlir.sim.lds_banks.KernelBanks.
    cycles`); empty when the lane addresses are not known (priced conflict-free)."""

    schedule_name: str
    groups: int
    waves_per_group: int
    vm_per_load: tuple[int, int]
    lgkm_per_load: tuple[int, int]
    mfmas_per_mma: int | None = None
    mfma: str | None = None
    zero_trip_fence: bool = False
    #: the fewest main-loop trips the kernel runs (1: K >= 4*BK, no zero-trip path)
    min_trips: int = 0
    #: the most it runs (None: no bound); 0 for a loop whose constant bounds leave it no
    #: trip, the prologue and the epilogue run as straight code (no zero-trip fence; the
    #: epilogue's vmcnt waits derived for that path: :func:`~pipeline_mlir.sim.repair.repair`)
    max_trips: int | None = None
    kernarg_wait: bool = True
    simds: int = SIMDS_PER_CU
    stagger_barrier: bool = True
    realign_barrier: bool = True
    lds: LdsLayout | None = None
    arguments: tuple[KernelArgument, ...] = ()
    bank_cycles: tuple = field(default=(), compare=False)
    #: (cbsz, blgp) operand formats of an ``f8f6f4`` MFMA (the MX kernels'), else None
    mfma_formats: tuple[int, int] | None = None
    #: of ``vm_per_load`` / ``lgkm_per_load`` (per channel): the last ones of each load are
    #: the MX scale tile's ``buffer_load_dword ... lds`` / ``ds_read_u8`` (with the scale
    #: channels 2 and 3, all of theirs and none of A's and B's)
    scale_loads: tuple[int, int] = (0, 0)
    scale_reads: tuple[int, int] = (0, 0)
    #: direct-to-LDS DMA instructions per 16 bytes a lane copies of an element tile
    #: (``KernelGeometry.dma_pieces``: 4 with dword DMAs)
    dma_pieces: int = 1
    #: per channel (A, B): the lgkmcnt instructions of a fragment load an MMA may leave
    #: unread (a loop split along K; ``schedule/frag_waits.py``): a fragment wait may leave
    #: them in flight
    frag_unread: tuple[int, int] = (0, 0)

    @staticmethod
    def per_operand(counts: tuple) -> tuple[int, int]:
        """Per-channel ``counts`` per operand (A, B): with the MX scale channels an
        operand's element tile's and its scale tile's together (the two are issued
        together)."""
        return tuple(counts[c] + (counts[c + 2] if len(counts) == 4 else 0) for c in (0, 1))

    def element_dma(self, channel: int, j: int) -> str:
        """The instruction of DMA ``j`` of a global load of ``channel``: the element
        tile's first, then the MX scale tile's (dwords)."""
        narrow = j >= self.vm_per_load[channel] - self.scale_loads[channel] or \
            self.dma_pieces > 1
        return "buffer_load_dword" if narrow else "buffer_load_dwordx4"

    def __post_init__(self) -> None:
        who = f"kernel shape of '{self.schedule_name}'"
        if self.groups not in (1, 2):
            raise ConfigError(f"{who}: {self.groups} warp groups "
                              f"(the kernels run one group, or two staggered by one barrier)")
        if self.waves_per_group < 1:
            raise ConfigError(f"{who}: waves_per_group must be at "
                              f"least 1, got {self.waves_per_group}")
        n = len(self.vm_per_load)
        for what, counts in (("vm_per_load", self.vm_per_load),
                             ("lgkm_per_load", self.lgkm_per_load),
                             ("scale_loads", self.scale_loads),
                             ("scale_reads", self.scale_reads)):
            if len(counts) not in (2, n) or n not in (2, 4) or any(c < 0 for c in counts):
                raise ConfigError(f"{who}: {what} must be two counts >= 0 (A, B), or four "
                                  f"(A, B and their MX scale channels), got {counts}")

    @property
    def waves(self) -> int:
        return self.groups * self.waves_per_group

    def simd_of(self, wave: int) -> int:
        """Waves fill the SIMDs round robin (wave w on SIMD w % 4): the ping-pong
        kernel's two groups share each SIMD, one wave of each."""
        return wave % self.simds

    def describe(self) -> str:
        names = ("A", "B", "SA", "SB")       # SA, SB: the MX scale channels

        def per_load(counts):
            return " ".join(f"{n}={c}" for n, c in zip(names, counts))

        waves = wave_count(self.waves)
        return (f"{self.schedule_name}: {waves} in {self.groups} group(s), "
                f"vm/load {per_load(self.vm_per_load)}, lgkm/load "
                f"{per_load(self.lgkm_per_load)}, {self.mfmas_per_mma} x {self.mfma} per MMA")


def geometry_mfma(geometry) -> Mfma:
    """The MFMA of a (non-MX) geometry: its dtype's at its MMA shape (``dtype_mfmas``; FP8's
    16x16x32 as its E4M3 form, whose timing all four share)."""
    return dtype_mfmas(geometry.dtype, halves=True)["x".join(map(str, (geometry.MMA_M, geometry.MMA_N,
                                                           geometry.MMA_K)))]


def mfmas_per_mma(geometry, traits) -> int:
    """MFMAs one MMA entry of the complete kernel runs: a quadrant of the warp tile
    (``WM/MMA_M/2 x WN/MMA_N/2`` MFMA tiles) over ``BK/MMA_K`` K steps."""
    g = geometry
    qm = g.BM // traits.warps_m // g.MMA_M // 2
    qn = g.BN // traits.warps_n // g.MMA_N // 2
    return qm * qn * (g.BK // g.MMA_K)


def kernel_shape(schedule, geometry=None) -> KernelShape:
    """The shape of the kernel of ``schedule`` (a named schedule,
    :class:`~pipeline_mlir.schedules.named.NamedSchedule`).

    The counts are the schedule's (what its waits were derived for); with the
    ``geometry`` of a complete kernel also its MFMAs per MMA and mnemonic, its LDS
    layout and its arguments."""
    traits = schedule.kernel_traits
    if traits is None:
        raise ConfigError(f"schedule '{schedule.name}' has no complete kernel (no K offsets, "
                          f"no LDS stages)")
    vm, lgkm = schedule.vm_per_load, schedule.lgkm_per_load
    extra = {}
    channels = len(vm)
    c_dtype = getattr(schedule, "c_dtype", "f32")
    if geometry is not None and geometry.is_mx:
        code = MX_FORMAT_CODES[geometry.dtype]
        extra = dict(mfmas_per_mma=mfmas_per_mma(geometry, traits),
                     mfma=MFMA_BY_DTYPE[geometry.dtype].mnemonic,
                     lds=mx_lds_layout(geometry, traits),
                     arguments=mx_arguments(geometry.dtype, c_dtype, KernelArgument),
                     mfma_formats=(code, code),
                     **mx_scale_counts(geometry, traits, channels == 4))
    elif geometry is not None:
        extra = dict(mfmas_per_mma=mfmas_per_mma(geometry, traits),
                     mfma=geometry_mfma(geometry).mnemonic, lds=lds_layout(geometry, traits),
                     arguments=gemm_arguments(geometry.dtype, c_dtype),
                     dma_pieces=geometry.dma_pieces)
    once = schedule.min_trips()
    unread = (getattr(schedule, "unread_a", 0), getattr(schedule, "unread_b", 0))
    # (every group the same number of waves: a lockstep schedule's own count, 4wave's
    # ``waves`` read from a kernel given as input; the complete kernel's otherwise)
    per_group = schedule.kernel_waves() // traits.warp_groups
    return KernelShape(schedule.name, traits.warp_groups, per_group, vm, lgkm,
                       zero_trip_fence=traits.zero_trip_fence and not once, min_trips=once,
                       frag_unread=unread, **extra)


# ---------------------------------------------------------------------------------------------
# The plan: a shape running the phases of one compiled schedule
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Part:
    """One piece of the kernel's skeleton.

    ``kind``: :data:`KERNARG_WAIT`, :data:`ENTRIES` (entries ``[start, stop)`` of the
    phase ``name``), :data:`BARRIER` (``name`` stagger | join | realign),
    :data:`ZERO_TRIP_FENCE` or :data:`LOOP` (the kernel entries, once per main-loop
    iteration).  ``groups``: the warp groups that run it (``None``: every warp)."""

    kind: str
    name: str
    start: int = 0
    stop: int = 0
    groups: tuple[int, ...] | None = None

    def runs_in(self, group: int) -> bool:
        return self.groups is None or group in self.groups

    def ops(self) -> tuple[OpDesc, ...]:
        """The instructions of a part the kernel adds (not of an entry list)."""
        if self.kind == KERNARG_WAIT:
            return (OpDesc.wait_lgkm(0),)
        if self.kind == BARRIER:
            return (OpDesc.barrier(),)
        if self.kind == ZERO_TRIP_FENCE:
            return (OpDesc.wait_vm(0), OpDesc.wait_lgkm(0), OpDesc.barrier())
        raise ConfigError(f"the {self.name} entries are the schedule's, not the kernel's")

    def label(self) -> str:
        """The name findings give it (``lowering:<label>``)."""
        if self.kind == BARRIER:
            return _BARRIER_TEXT[self.name][0]
        return self.kind if self.kind in (KERNARG_WAIT, ZERO_TRIP_FENCE) else self.name

    def describe(self) -> str:
        if self.kind == BARRIER:
            return _BARRIER_TEXT[self.name][1]
        if self.kind == ZERO_TRIP_FENCE:
            return "the zero-trip fence between prologue and epilogue"
        if self.kind == KERNARG_WAIT:
            return "the wait for the kernel arguments before the prologue"
        return f"{self.name} entries {self.start}..{self.stop - 1}"


class Executed(NamedTuple):
    """One op as a warp group executes it (:meth:`KernelPlan.run`; a tuple: the simulator
    walks thousands of them)."""

    part: Part
    phase: str          # prologue | kernel | epilogue, else the part's name
    iteration: int      # main-loop iteration (kernel phase), else 0
    entry: int          # index in the phase (-1 for ops the kernel adds)
    op: OpDesc
    k_base: int         # K tile base of the phase (BK units)

    @property
    def k_tile(self) -> int | None:
        """The K tile a data op with a K offset touches."""
        if self.op.k_offset == KOffsetKind.NONE:
            return None
        return self.k_base + self.op.k_offset.signed_bk_multiple()


def _blocks(phase: str, entries: tuple, blocks) -> tuple | None:
    blocks = None if blocks is None else tuple(blocks)
    if blocks is None or all(b is None for b in blocks):
        return None
    if len(blocks) != len(entries):
        raise ConfigError(f"kernel plan: the {phase} has {len(entries)} entries but "
                          f"{len(blocks)} block indices")
    return blocks


def _trailing_reads(prologue, cut: int) -> int:
    """How many fragment loads end the prologue after its stagger index ``cut``: the main
    loop's first reads, issued ahead of it (``frags_ahead``), which run after the barrier
    every warp runs after the prologue, where the loop would have issued them."""
    n = 0
    for e in reversed(prologue[cut:]):
        if e.op.role != OpRole.FRAGMENT_LOAD and e.op.tag not in (MMA_LOAD_A, MMA_LOAD_B):
            break
        n += 1
    return n


@dataclass(frozen=True)
class KernelPlan:
    """The kernel of ``shape`` running one compiled schedule's phases.

    ``*_blocks``: per phase, the program block of each entry (``None``: no blocks).
    ``fence_waits`` / ``fence_blocks`` / ``fence_loads``: the lowering fences every run of
    waits / every change of block / every change between fragment loads and global loads
    with a ``sched_barrier``; ``interleave``: it interleaves each MMA that follows its
    block's loads with them (:meth:`fenced`); ``spread_loads``: those interleave pipelines
    spread the global loads over the MFMAs after the fragment reads
    (:func:`~pipeline_mlir.schedule.fences.spread_slots`), ``spread_over_mma``: over every
    MFMA of the MMA instead (:mod:`pipeline_mlir.kernel.load_spread`).  Build it with
    :func:`kernel_plan`."""

    shape: KernelShape
    prologue: tuple[ScheduleEntry, ...]
    kernel: tuple[ScheduleEntry, ...]
    epilogue: tuple[ScheduleEntry, ...]
    warp_stagger_index: int
    prologue_blocks: tuple[int | None, ...] | None = None
    kernel_blocks: tuple[int | None, ...] | None = None
    epilogue_blocks: tuple[int | None, ...] | None = None
    fence_waits: bool = True
    fence_blocks: bool = True
    fence_loads: bool = True
    interleave: bool = False
    spread_loads: bool = False
    spread_over_mma: bool = False
    #: how the front end split the tile into the schedule's subtiles, if not as the
    #: schedule's own kernel does (``frontend/k_subtiles.py``: "B along K"); the report says it
    form: SubtileForm | None = field(default=None, compare=False)
    #: which workgroups run the pipelined loop, where not all (``frontend/edge_version.py``:
    #: the interior ones); the report says it
    workgroups: str = field(default="", compare=False)
    #: what the front end's ``merge_k`` decided for the loop and why (``frontend/kmerge.py``:
    #: K steps merged for a global load's latency, or not); the report says it
    merge_note: str | None = field(default=None, compare=False)
    #: the front end's K step split for a lane's registers, or left over their budget, and
    #: why (``frontend/fragment_budget.py``); the report says it
    ksplit_note: str | None = field(default=None, compare=False)
    #: the symbol of the function the pipelined loop is in ('' when not lowered from IR):
    #: the ISA check of a code build finds the loop's code by it
    function: str = field(default="", compare=False)
    #: every thread's LDS addresses of each fragment read of the loop body, as the lowering
    #: evaluated them from the tagged IR before cloning it (:class:`~pipeline_mlir.kernel.
    #: lds_data.LdsAccess`, ``read`` ones; keyed by channel, stage and subtile like the
    #: entries): what the ISA check holds each ``ds_read`` of the code built against
    #: (:mod:`pipeline_mlir.isa.frag_addresses`); empty with ``reads_note`` saying why
    reads: tuple = field(default=(), compare=False)
    reads_note: str = field(default="not lowered from IR", compare=False)
    #: how many times the main loop runs when its bounds are constants (None: known only
    #: at run time, or not lowered from IR): the ISA check of a kernel whose loop LLVM
    #: unrolled fully compares that many copies of the loop's phase
    #: (:mod:`pipeline_mlir.isa.unrolled`)
    trips: int | None = field(default=None, compare=False)
    #: the input starts every accumulator of the loop from a masked read, else a zero
    #: (``lowering/acc_starts.py``): ``acc-init`` then takes a zero past a uniform branch
    #: around a load of the register as the input's own start (``isa/acc_inits.py``)
    masked_starts: bool = field(default=False, compare=False)
    #: epilogue entries the lowering does not emit (``lowering/dead_reads.py``); run() skips
    unissued: frozenset[int] = frozenset()
    parts: tuple[Part, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        s = self.warp_stagger_index
        if isinstance(s, bool) or not isinstance(s, int) or s < 0:
            raise ConfigError(f"kernel plan: the warp stagger index must be an integer >= 0, "
                              f"got {s!r}")
        if self.shape.groups > 1 and s > len(self.prologue):
            raise ConfigError(f"the {self.shape.schedule_name} kernel staggers its warp groups "
                              f"at WARP_STAGGER_INDEX, which is {s}, past the prologue's "
                              f"{len(self.prologue)} entries")
        for phase in PHASES:
            object.__setattr__(self, f"{phase}_blocks",
                               _blocks(phase, self.entries(phase),
                                       getattr(self, f"{phase}_blocks")))
        object.__setattr__(self, "parts", self._skeleton())

    def _skeleton(self) -> tuple[Part, ...]:
        sh, n_pro = self.shape, len(self.prologue)
        two = sh.groups > 1
        parts = []
        if sh.kernarg_wait:
            parts.append(Part(KERNARG_WAIT, "kernarg-wait"))
        if two:
            cut = self.warp_stagger_index
            parts.append(Part(ENTRIES, "prologue", 0, cut))
            if sh.stagger_barrier:
                parts.append(Part(BARRIER, "stagger", groups=(1,)))
            lead = n_pro - _trailing_reads(self.prologue, cut)
            parts.append(Part(ENTRIES, "prologue", cut, lead))
            parts.append(Part(BARRIER, "join"))
            if lead < n_pro:     # the loop's first reads issued ahead (frags_ahead)
                parts.append(Part(ENTRIES, "prologue", lead, n_pro))
        else:
            parts.append(Part(ENTRIES, "prologue", 0, n_pro))
        if sh.zero_trip_fence:
            parts.append(Part(ZERO_TRIP_FENCE, "fence"))
        parts.append(Part(LOOP, "kernel", 0, len(self.kernel)))
        parts.append(Part(ENTRIES, "epilogue", 0, len(self.epilogue)))
        if two and sh.realign_barrier:
            parts.append(Part(BARRIER, "realign", groups=(0,)))
        return tuple(parts)

    # -- reading ------------------------------------------------------------------------
    def entries(self, phase: str) -> tuple[ScheduleEntry, ...]:
        if phase not in PHASES:
            raise ConfigError(f"kernel plan: unknown phase '{phase}' (expected "
                              f"{', '.join(PHASES)})")
        return getattr(self, phase)

    def blocks(self, phase: str) -> tuple[int | None, ...] | None:
        self.entries(phase)
        return getattr(self, f"{phase}_blocks")

    def phases(self):
        """``(name, entries)`` of each phase, in order."""
        return [(p, self.entries(p)) for p in PHASES]

    @property
    def fragment_waits(self) -> bool:
        """Whether the schedule waits per fragment (``WAIT_FRAG`` entries, which issue
        nothing: each MFMA waits for its own reads)."""
        return any(e.op.tag == WAIT_FRAG for _, entries in self.phases() for e in entries)

    @property
    def loop_index(self) -> int:
        return next(i for i, p in enumerate(self.parts) if p.kind == LOOP)

    def asm_phase(self, part: Part) -> str:
        """Where a part lands in the final code: ``prologue`` (everything before the main
        loop), ``loop`` or ``epilogue``."""
        i, loop = self.parts.index(part), self.loop_index
        return "prologue" if i < loop else "loop" if i == loop else "epilogue"

    def fenced(self, part: Part) -> list:
        """The entries of an ENTRIES or LOOP part (indices in their phase) as the lowering
        emits them (:func:`~pipeline_mlir.schedule.fences.fenced_sequence`): ``None`` where it
        puts a ``sched_barrier`` fence, ``Interleaved(index)`` for the schedule barrier of an
        interleaved run, ``Dropped(index)`` for an entry it does not emit, ``INTERLEAVE`` where
        it interleaves an MMA with its loads, ``LOAD_GROUPS`` where it orders a run of fragment
        and global loads, ``ORDER_FENCE`` at each order cut of the counted waits no fence
        covers (:func:`~pipeline_mlir.kernel.wait_order.order_cuts`)."""
        if part.kind not in (ENTRIES, LOOP):
            raise ConfigError(f"kernel plan: {part.describe()} has no schedule entries")
        entries = self.entries(part.name)[part.start:part.stop]
        blocks = None if (b := self.blocks(part.name)) is None else b[part.start:part.stop]
        seq = fenced_sequence([e.op for e in entries], blocks, self.fence_waits,
                              self.fence_blocks, self.fence_loads, self.interleave,
                              part_cuts(self, part))
        out, nxt, gone = [], part.start, self.unissued if part.name == "epilogue" else ()
        for item in seq:
            if item is None or item in (INTERLEAVE, LOAD_GROUPS, ORDER_FENCE):
                out.append(item)
            else:      # (an entry gone: the fences and waits around it as if it were there)
                out.append(Dropped(nxt) if nxt in gone else type(item)(nxt)
                           if isinstance(item, (Interleaved, Dropped)) else nxt)
                nxt += 1
        return out

    @staticmethod
    def k_base(phase: str, iteration: int = 0, iterations: int = 0) -> int:
        """The K tile base (BK units) of ``phase``: 0 for the prologue, ``2*(i+1)`` for
        main-loop iteration ``i``, ``2*(N+1)`` for the epilogue after ``N`` iterations."""
        if phase == "prologue":
            return 0
        if phase == "kernel":
            return 2 * (iteration + 1)
        if phase == "epilogue":
            return 2 * (iterations + 1)
        raise ConfigError(f"kernel plan: unknown phase '{phase}' (expected "
                          f"{', '.join(PHASES)})")

    def run(self, group: int, iterations: int):
        """What warp group ``group`` executes when the main loop runs ``iterations``
        times: :class:`Executed` ops, in order."""
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
            raise ConfigError(f"kernel plan: iterations must be an integer >= 0, got "
                              f"{iterations!r}")
        if group not in range(self.shape.groups):
            raise ConfigError(f"kernel plan: warp group {group} does not exist (the kernel has "
                              f"{self.shape.groups})")
        for part in self.parts:
            if not part.runs_in(group):
                continue
            if part.kind == ENTRIES:
                entries = self.entries(part.name)
                base = self.k_base(part.name, 0, iterations)
                for i in range(part.start, part.stop):
                    if part.name != "epilogue" or i not in self.unissued:
                        yield Executed(part, part.name, 0, i, entries[i].op, base)
            elif part.kind == LOOP:
                ops = [e.op for e in self.kernel]
                for it in range(iterations):
                    base = self.k_base("kernel", it)
                    for i, op in enumerate(ops):
                        yield Executed(part, "kernel", it, i, op, base)
            elif part.kind == ZERO_TRIP_FENCE and iterations:
                continue
            else:
                for op in part.ops():
                    yield Executed(part, part.name, 0, -1, op, 0)


def kernel_plan(schedule, shape: KernelShape, blocks: dict | None = None,
                fence_waits: bool = True, fence_blocks: bool = True,
                fence_loads: bool = True, interleave: bool = False) -> KernelPlan:
    """The plan of ``shape`` running ``schedule``: anything with ``prologue``, ``kernel``,
    ``epilogue`` entry lists and a ``warp_stagger_index`` (a compiled schedule, a
    schedule dump, the kernel's repaired phases).  ``blocks``: ``{phase: block index of
    each entry}`` for the phases that have blocks."""
    blocks = dict(blocks or {})
    unknown = set(blocks) - set(PHASES)
    if unknown:
        raise ConfigError(f"kernel plan: blocks of unknown phase(s) {', '.join(sorted(unknown))}")
    return KernelPlan(shape, tuple(schedule.prologue), tuple(schedule.kernel),
                      tuple(schedule.epilogue), schedule.warp_stagger_index,
                      blocks.get("prologue"), blocks.get("kernel"), blocks.get("epilogue"),
                      fence_waits, fence_blocks, fence_loads, interleave)
