"""gfx9/CDNA ``s_waitcnt`` immediates and the hardware counter limits."""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule.targets import LGKMCNT_MAX, VMCNT_MAX

EXPCNT_MAX = 7
_MASK = 0xCF7F


def waitcnt_imm(vmcnt: int | None = None, expcnt: int | None = None,
                lgkmcnt: int | None = None) -> int:
    """The ``llvm.amdgcn.s.waitcnt`` immediate; unspecified counters are at their maxima.

    A count outside the hardware range is an error, never clamped.
    """
    v = VMCNT_MAX if vmcnt is None else vmcnt
    e = EXPCNT_MAX if expcnt is None else expcnt
    lg = LGKMCNT_MAX if lgkmcnt is None else lgkmcnt
    for name, val, hi in (("vmcnt", v, VMCNT_MAX), ("expcnt", e, EXPCNT_MAX),
                          ("lgkmcnt", lg, LGKMCNT_MAX)):
        if isinstance(val, bool) or not isinstance(val, int) or not 0 <= val <= hi:
            raise ConfigError(f"{name}({val}) is outside the gfx950 range 0..{hi}")
    return _MASK & ((v & 0xF) | ((v & 0x30) << 10)) | (e << 4) | (lg << 8)


def decode_waitcnt(imm: int) -> tuple[int, int, int]:
    """(vmcnt, expcnt, lgkmcnt) of an immediate."""
    return (imm & 0xF) | ((imm >> 10) & 0x30), (imm >> 4) & 0x7, (imm >> 8) & 0xF
