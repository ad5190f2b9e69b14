"""The shape of a target description: a chip, its wait counters and its MFMA instructions.

A :class:`Target` holds what the compiler, the simulator, the emulator and the reports
need to know about one processor; the facts themselves live in one module per chip
(:mod:`pipeline_mlir.target.gfx950`).  Plain Python: the layer imports nothing of the
project but :mod:`pipeline_mlir.errors` and :mod:`pipeline_mlir.records`.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import record


class UnknownTarget(ConfigError):
    """A processor name no target description exists for (names the known ones)."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name, self.known = name, tuple(known)
        super().__init__(f"unknown processor '{name}' (known: {', '.join(self.known)})")


@record(frozen=True)
class WaitCounter:
    """One counter of ``s_waitcnt``: its name, what it counts and where its bits sit in the
    16-bit immediate.  ``fields``: ``(immediate bit, width)`` of each piece of the count, the
    low bits of the count first (vmcnt is split in two on gfx9)."""

    name: str
    counts: str
    fields: tuple[tuple[int, int], ...]

    @property
    def max(self) -> int:
        """The largest count the immediate holds (also: "do not wait for this counter")."""
        return (1 << sum(width for _, width in self.fields)) - 1

    def encode(self, count: int) -> int:
        """The immediate's bits for ``count`` (the caller checks the range)."""
        bits, rest = 0, count
        for shift, width in self.fields:
            bits |= (rest & ((1 << width) - 1)) << shift
            rest >>= width
        return bits

    def decode(self, imm: int) -> int:
        """The count the immediate ``imm`` holds for this counter."""
        count, pos = 0, 0
        for shift, width in self.fields:
            count |= ((imm >> shift) & ((1 << width) - 1)) << pos
            pos += width
        return count


@record(frozen=True)
class Mfma:
    """One MFMA instruction: ``D[m x n] += A[m x k] * B[k x n]`` per block of one wave.

    ``operands``: the A/B operand format the mnemonic names (``bf16``, ``f16``, ``i8`` (an
    i32 accumulator), or
    ``f8f6f4``, whose format the instruction's cbsz/blgp fields select); ``scaled``: the
    ``v_mfma_scale`` form (block scales as extra operands); ``xdl_cycles``: cycles the
    instruction holds its SIMD's matrix unit at the chip's peak rate for its operands."""

    mnemonic: str
    m: int
    n: int
    k: int
    operands: str
    xdl_cycles: int
    scaled: bool = False

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.m, self.n, self.k


@record(frozen=True)
class Target:
    """What the tree knows about one processor (see :mod:`pipeline_mlir.target.gfx950`)."""

    name: str                  # the processor, as LLVM (``-mcpu``) and ``--mcpu`` name it
    product: str               # the accelerator it is sold as
    triple: str                # LLVM target triple of its kernels
    llvm_features: str         # LLVM target features the kernels are compiled with
    elf_mach: int              # the processor's EF_AMDGPU_MACH value (low byte of e_flags)
    wave_size: int             # lanes per wave
    simds_per_cu: int
    max_waves_per_simd: int
    max_workgroup_threads: int  # work-items one workgroup may have
    vgprs: int                 # per lane: the unified file of architected and accumulation VGPRs
    vgpr_granule: int          # VGPRs are allocated in blocks of this many
    lds_bytes: int             # per CU; one workgroup may allocate all of it
    lds_banks: int
    lds_bank_bytes: int
    counters: tuple[WaitCounter, ...]
    mfmas: tuple[Mfma, ...]

    def counter(self, name: str) -> WaitCounter:
        """The wait counter ``name`` (``vmcnt``, ``expcnt``, ``lgkmcnt``); KeyError if none."""
        for c in self.counters:
            if c.name == name:
                return c
        raise KeyError(name)

    def mfma(self, mnemonic: str) -> Mfma | None:
        """The MFMA instruction ``mnemonic``, or None if the description does not list it."""
        for i in self.mfmas:
            if i.mnemonic == mnemonic:
                return i
        return None


__all__ = ["Mfma", "Target", "UnknownTarget", "WaitCounter"]
