"""gfx9/CDNA ``s_waitcnt`` immediates, from the counters the target describes
(:mod:`pipeline_mlir.target.gfx950`: their bit fields and limits)."""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.target.gfx950 import (EXPCNT, EXPCNT_MAX, LGKMCNT, LGKMCNT_MAX, NAME, VMCNT,
                                         VMCNT_MAX)


def waitcnt_imm(vmcnt: int | None = None, expcnt: int | None = None,
                lgkmcnt: int | None = None) -> int:
    """The ``llvm.amdgcn.s.waitcnt`` immediate; unspecified counters are at their maxima.

    A count outside the hardware range is an error, never clamped.
    """
    counts = []
    for counter, val in ((VMCNT, vmcnt), (EXPCNT, expcnt), (LGKMCNT, lgkmcnt)):
        val = counter.max if val is None else val
        if isinstance(val, bool) or not isinstance(val, int) or not 0 <= val <= counter.max:
            raise ConfigError(f"{counter.name}({val}) is outside the {NAME} range "
                              f"0..{counter.max}")
        counts.append(counter.encode(val))
    return counts[0] | counts[1] | counts[2]


def decode_waitcnt(imm: int) -> tuple[int, int, int]:
    """(vmcnt, expcnt, lgkmcnt) of an immediate."""
    return VMCNT.decode(imm), EXPCNT.decode(imm), LGKMCNT.decode(imm)


__all__ = ["EXPCNT_MAX", "LGKMCNT_MAX", "VMCNT_MAX", "decode_waitcnt", "waitcnt_imm"]
