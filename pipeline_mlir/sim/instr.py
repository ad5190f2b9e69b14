"""The instruction stream the simulator's timing models run.

Two front ends produce it: a compiled (or dumped) schedule, one stream per wave
with every logical op expanded into the hardware instructions it issues
(:mod:`pipeline_mlir.sim.trace`), and the final gfx950 assembly of a kernel
(:mod:`pipeline_mlir.isa.asm`, converted by :func:`pipeline_mlir.sim.timing.from_asm`).
The timing models (:mod:`pipeline_mlir.sim.wave_model`, :mod:`pipeline_mlir.sim.cu_model`)
and the bounds (:mod:`pipeline_mlir.sim.bounds`) read nothing else.

Counter semantics (gfx9 / CDNA): every ``vmem_*`` instruction increments the
wave's ``vmcnt``; every ``ds_*`` and ``smem`` instruction increments ``lgkmcnt``;
both complete in issue order (``smem`` out of order, which is why a counted
``lgkmcnt`` window must not hold one).  ``s_waitcnt vmcnt(n)`` stalls until at
most ``n`` vm instructions are outstanding.
"""

from __future__ import annotations

from dataclasses import dataclass

#: every kind an :class:`Instr` may have
KINDS = (
    "mfma",            # v_mfma_* (MFMA/XDL pipe)
    "ds_read",         # ds_read* (LDS -> VGPR), lgkmcnt
    "ds_write",        # ds_write* (VGPR -> LDS), lgkmcnt
    "vmem_load_lds",   # buffer_load_* ... lds / global_load_lds_* (global -> LDS DMA), vmcnt
    "vmem_load",       # buffer/global loads into VGPRs, vmcnt
    "vmem_store",      # buffer/global stores, vmcnt
    "smem",            # s_load_* / s_buffer_load_*, lgkmcnt (out of order)
    "wait",            # s_waitcnt (vm / lgkm fields; None = that counter is not waited for)
    "barrier",         # s_barrier: workgroup rendezvous
    "setprio",         # s_setprio value
    "sched_barrier",   # llvm.amdgcn.sched.barrier (a compiler fence: issues nothing)
    "sched_group_barrier",
    "salu",            # other scalar ALU
    "valu",            # other vector ALU
    "branch",          # s_branch / s_cbranch_*
    "nop",             # s_nop value
    "other",
)

VM_KINDS = frozenset({"vmem_load_lds", "vmem_load", "vmem_store"})
LGKM_KINDS = frozenset({"ds_read", "ds_write", "smem"})
#: kinds that issue nothing on hardware (compiler-only fences)
PSEUDO_KINDS = frozenset({"sched_barrier", "sched_group_barrier"})


@dataclass(frozen=True)
class Instr:
    """One hardware instruction of one wave.

    ``defs`` / ``uses`` name the registers (asm: ``v16``, ``a3``, ``s8``, ``vcc``)
    or logical values (schedules: ``fragA1.3``, ``acc0.1.5``) the instruction
    writes and reads; the timing models derive register dependencies from them.
    ``origin`` says where it came from, for reports: ``(phase, iteration, entry,
    part)`` for a schedule trace (phase ``prologue|kernel|epilogue|stagger|fence``),
    ``("asm", line)`` for assembly.  ``bank_cycles``: for an LDS access (``ds_*`` or
    the LDS write of ``vmem_load_lds``) whose lane addresses are known, the cycles
    its phases keep the LDS banks busy (:mod:`pipeline_mlir.sim.lds_banks`); 0 when
    they are not known (priced conflict-free).  ``formats``: for an ``f8f6f4`` MFMA, its
    A and B operand format codes (cbsz, blgp: ``pipeline_mlir.target.gfx950.F8F6F4_FORMATS``),
    which set its rate; None for any other instruction (and for an f8f6f4 MFMA: FP8).
    """

    kind: str
    name: str
    defs: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    vm: int | None = None
    lgkm: int | None = None
    value: int = 0
    origin: tuple = ()
    bank_cycles: int = 0
    formats: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown instruction kind {self.kind!r}")

    @property
    def vm_inc(self) -> int:
        return 1 if self.kind in VM_KINDS else 0

    @property
    def lgkm_inc(self) -> int:
        return 1 if self.kind in LGKM_KINDS else 0
