"""gfx950 LDS banks: how many cycles one wave's DS access keeps the LDS busy.

Model (every number is stated with its source; *assumption* marks what no source gives):

* The LDS has **64 banks of 4 bytes**; byte address ``a`` is in bank ``(a // 4) % 64``
  (AMD: "64 banks", LDS read bandwidth 256 bytes per clock on CDNA4 against 128 on
  CDNA3 -- ROCm blog "CDNA4 GEMM kernels"; 64 banks measured on MI355X by the
  HipKittens phase experiments, which saw the first conflict at bank 64).
* A wave's access is served in **phases** (groups of lanes); within one phase each
  bank returns one dword per cycle, lanes reading the *same* dword share it
  (broadcast), and ``n`` different dwords in one bank take ``n`` cycles.  So a
  phase costs the largest number of distinct dwords any bank holds for it, and
  the access costs the sum over its phases.  Conflict-free, an access costs its
  ideal number of phases; the *conflict degree* is cost / ideal.
* The phases per instruction (:data:`PHASES`):

  - ``ds_read_b128``: 4 phases of 16 lanes, measured on MI355X (HipKittens
    ``phases/ds_read_b128``): lanes {0-3, 12-15, 20-27}, {4-11, 16-19, 28-31} and
    the same sets + 32.  16 lanes x 16 bytes = 256 bytes = one row of banks.
  - ``ds_read_b64``: 2 phases, lanes 0-31 and 32-63 (measured, same source).
  - ``ds_read_b32`` and narrower: one phase of all 64 lanes (*assumption*: 64 x 4
    bytes is one row of banks, the 256 B/clock read width).
  - ``ds_write_b64``: 4 phases of 16 consecutive lanes (measured, same source:
    writes move 128 bytes per clock).  ``ds_write_b128`` / ``b32``: phases of
    8 / 32 consecutive lanes (*assumption*: the same 128 bytes per clock);
    ``ds_write_b16`` / ``b8`` as ``ds_write_b32`` (*assumption*, as narrower reads).
  - the LDS write of a global->LDS load (``buffer_load_dword[x4] ... lds``): as
    ``ds_write`` of the same width (*assumption*).  Its lanes land at
    ``M0 + lane * width`` (CDNA3/CDNA4 ISA 9.1.9), contiguous, so it is
    conflict-free whatever M0 is, as long as M0 is a multiple of the width.

Only conflicts inside one instruction are modelled; accesses of different waves
are serialised by the LDS pipe of the timing model (:mod:`pipeline_mlir.sim.costs`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.kernel.lds_data import KernelLds
from pipeline_mlir.target.gfx950 import LDS_BANK_BYTES, LDS_BANKS, WAVE_SIZE

#: the kernels' LDS channels (2, 3: the MX scale channels of A and B)
_CHANNEL_NAMES = {0: "A", 1: "B", 2: "A scale", 3: "B scale"}


def _lanes(*ranges) -> tuple[int, ...]:
    return tuple(sorted(x for lo, hi in ranges for x in range(lo, hi)))


_B128_READ = tuple(
    _lanes(*((lo + off, hi + off) for lo, hi in spans))
    for off in (0, 32)
    for spans in (((0, 4), (12, 16), (20, 28)), ((4, 12), (16, 20), (28, 32))))


def _consecutive(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(range(s, s + n)) for s in range(0, WAVE_SIZE, n))


#: (is_write, bytes per lane) -> phases (lane groups), with where the grouping comes from
PHASES: dict[tuple[bool, int], tuple[tuple[tuple[int, ...], ...], str]] = {
    (False, 16): (_B128_READ, "measured on MI355X (HipKittens phases/ds_read_b128)"),
    (False, 8): (_consecutive(32), "measured on MI355X (HipKittens phases/ds_read_b64)"),
    (False, 4): (_consecutive(WAVE_SIZE), "ASSUMPTION: one 256-byte row of banks per phase"),
    (True, 8): (_consecutive(16), "measured on MI355X (HipKittens phases/ds_write_b64)"),
    (True, 16): (_consecutive(8), "ASSUMPTION: 128 bytes per clock as ds_write_b64"),
    (True, 4): (_consecutive(32), "ASSUMPTION: 128 bytes per clock as ds_write_b64"),
}


class BankModelError(PipelineError):
    """An access the bank model cannot price (names it)."""


@dataclass(frozen=True)
class BankCost:
    """Cycles one wave's access keeps the LDS busy, and why.

    ``cycles``: sum over phases of the most distinct dwords one bank serves;
    ``ideal``: the number of phases (each conflict-free phase takes one cycle);
    ``worst``: ``(phase, bank, dwords)`` of the most conflicted phase."""

    cycles: int
    ideal: int
    worst: tuple[int, int, int]
    phases_source: str

    @property
    def degree(self) -> float:
        return self.cycles / self.ideal

    def describe(self) -> str:
        if self.cycles == self.ideal:
            return f"conflict-free ({self.ideal} phases)"
        p, _b, n = self.worst
        return (f"{self.degree:g}-way: {self.cycles} cycles for {self.ideal} phases "
                f"(worst: phase {p}, {n} different dwords in one bank)")


def lane_width(name: str) -> int:
    """Bytes per lane of a DS or LDS-DMA mnemonic (``ds_read_b128`` -> 16,
    ``buffer_load_dwordx4`` -> 16, ``buffer_load_dword`` -> 4)."""
    m = re.search(r"_[bui](\d+)$", name)
    if m and name.startswith("ds_"):        # ds_read_u8 / _i16 ...: sub-dword reads
        return max(1, int(m.group(1)) // 8)
    m = re.search(r"dword(?:x(\d))?", name)
    if m:
        return 4 * int(m.group(1) or 1)
    raise BankModelError(f"{name!r}: no lane width known to the LDS bank model")


def phases(write: bool, width: int):
    """The lane groups of an access of ``width`` bytes per lane (see :data:`PHASES`)."""
    if (write, width) in PHASES:
        return PHASES[(write, width)]
    if width < 4:     # sub-dword: the phases of the dword access (ASSUMPTION)
        return PHASES[(write, 4)]
    raise BankModelError(f"no LDS phase grouping known for a {'write' if write else 'read'} "
                         f"of {width} bytes per lane")


def bank_cost(addresses, width: int, write: bool) -> BankCost:
    """The :class:`BankCost` of one wave whose lane ``l`` accesses ``width`` bytes
    at byte address ``addresses[l]``."""
    if len(addresses) != WAVE_SIZE:
        raise BankModelError(f"a wave has {WAVE_SIZE} lanes; got {len(addresses)} addresses")
    return wave_costs(addresses, width, write).cost(0)


@dataclass(frozen=True)
class WaveCosts:
    """The bank costs of several waves' accesses of one width (:func:`wave_costs`): per
    wave the cycles and the worst phase's ``(phase, bank, dwords)``, as numpy arrays."""

    cycles: object
    worst_phase: object
    worst_bank: object
    worst_dwords: object
    ideal: int
    phases_source: str

    def cost(self, w: int) -> BankCost:
        """Wave ``w``'s :class:`BankCost`."""
        return BankCost(int(self.cycles[w]), self.ideal,
                        (int(self.worst_phase[w]), int(self.worst_bank[w]),
                         int(self.worst_dwords[w])), self.phases_source)


def wave_costs(addresses, width: int, write: bool) -> WaveCosts:
    """The bank costs of consecutive waves, lane ``l`` of wave ``w`` accessing ``width``
    bytes at byte address ``addresses[w * 64 + l]``: for each wave what :func:`bank_cost`
    says, all computed at once (each phase's distinct dwords counted per bank in numpy;
    the worst phase is the first of the most dwords in one bank, its bank the lowest)."""
    import numpy as np

    groups, source = phases(write, width)
    flat = np.asarray(addresses, dtype=np.int64).reshape(-1)
    if flat.size % WAVE_SIZE:
        raise BankModelError(f"waves have {WAVE_SIZE} lanes each; got {flat.size} addresses")
    first = flat.reshape(-1, WAVE_SIZE) // LDS_BANK_BYTES
    n_waves, n_phases = first.shape[0], len(groups)
    words = max(1, width // LDS_BANK_BYTES)
    # [wave, phase, lane x word]: the dwords each phase touches, sorted to see repeats
    dwords = (first[:, np.array(groups)][..., None] + np.arange(words)).reshape(
        n_waves, n_phases, -1)
    dwords.sort(axis=-1)
    new = np.ones(dwords.shape, dtype=bool)
    new[..., 1:] = dwords[..., 1:] != dwords[..., :-1]
    slot = np.arange(n_waves * n_phases).reshape(n_waves, n_phases, 1) * LDS_BANKS + \
        dwords % LDS_BANKS
    per_bank = np.bincount(slot[new], minlength=n_waves * n_phases * LDS_BANKS).reshape(
        n_waves, n_phases, LDS_BANKS)
    most = per_bank.max(axis=-1)
    phase = most.argmax(axis=-1)
    rows = np.arange(n_waves)
    return WaveCosts(most.sum(axis=-1), phase, per_bank.argmax(axis=-1)[rows, phase],
                     most[rows, phase], n_phases, source)


# ---------------------------------------------------------------------------------------------
# a complete kernel's accesses

@dataclass(frozen=True)
class AccessCost:
    """One LDS access of a kernel's loop body and its cost in every wave."""

    access: object                 # pipeline_mlir.kernel.lds_data.LdsAccess
    per_wave: tuple[BankCost, ...]

    def group_cycles(self, group: int, waves_per_group: int) -> int:
        """The most cycles one wave of warp group ``group`` needs for it."""
        ws = self.per_wave[group * waves_per_group:(group + 1) * waves_per_group]
        return max(c.cycles for c in ws)

    @property
    def worst(self) -> BankCost:
        return max(self.per_wave, key=lambda c: (c.cycles, -self.per_wave.index(c)))


@dataclass
class KernelBanks:
    """Every LDS access of a kernel with its bank cost per wave (:func:`kernel_banks`)."""

    kernel: str
    accesses: list[AccessCost]
    waves_per_group: int
    notes: list[str]

    def cycles(self, group: int) -> dict[tuple, int]:
        """``LdsAccess.key`` -> the cycles a wave of ``group`` needs for the access."""
        return {a.access.key: a.group_cycles(group, self.waves_per_group) for a in self.accesses}

    @property
    def conflicted(self) -> list[AccessCost]:
        return [a for a in self.accesses if a.worst.cycles > a.worst.ideal]

    def text(self) -> str:
        """One line per access: what it is and its cost (the worst wave's)."""
        reads = [a for a in self.accesses if a.access.kind == "read"]
        dmas = [a for a in self.accesses if a.access.kind == "dma"]
        lines = [f"LDS banks ({LDS_BANKS} banks x {LDS_BANK_BYTES} bytes; cost of one wave's "
                 f"access, the worst wave's; addresses from the kernel's index math)"]
        for label, group in (("fragment reads (ds_read)", reads),
                             ("global->LDS writes (buffer_load ... lds)", dmas)):
            if not group:
                continue
            bad = sum(1 for a in group if a.worst.cycles > a.worst.ideal)
            lines.append(f"  {label}: {len(group)} instructions per wave, "
                         f"{bad} with bank conflicts")
            rows: list[list] = []     # consecutive parts of one op with the same cost share a line
            for a in group:
                x = a.access
                what = (_CHANNEL_NAMES.get(x.channel, "?"),
                        x.stage, x.subtile, x.width, x.buffer, x.op_id, a.worst.describe())
                if rows and rows[-1][0] == what and rows[-1][2] == x.part - 1:
                    rows[-1][2] = x.part
                else:
                    rows.append([what, x.part, x.part])
            for (ch, st, sub, width, buf, _id, desc), lo, hi in rows:
                parts = f"part {lo}" if lo == hi else f"parts {lo}-{hi}"
                lines.append(f"    {ch} stage {st} subtile {sub} {parts} ({width} B/lane, "
                             f"{buf}): {desc}")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def kernel_banks(kernel, lds: KernelLds) -> KernelBanks:
    """The bank cost of every LDS access of ``kernel`` (a :class:`~pipeline_mlir.kernel.gemm.
    GemmKernel`), from the lane addresses of its index math: ``lds``, its accesses as the
    caller computed them (:func:`pipeline_mlir.analysis.lds_access.kernel_lds`)."""
    waves = kernel.threads // WAVE_SIZE
    out = []
    for acc in lds.accesses:
        costs = wave_costs(acc.addresses[:waves * WAVE_SIZE], acc.width, acc.kind == "dma")
        out.append(AccessCost(acc, tuple(costs.cost(w) for w in range(waves))))
    per_group = waves // kernel.traits.warp_groups
    return KernelBanks(kernel.name, out, per_group, list(lds.notes))
