"""The emulator's input: a kernel of a linked code object (bytes) or of its assembly text
(str), read by :mod:`~pipeline_mlir.emu.codeobj` or :mod:`~pipeline_mlir.emu.asmtext`."""

from __future__ import annotations

from pipeline_mlir.emu.asmtext import kernels_from_asm
from pipeline_mlir.emu.codeobj import Kernel, kernels_from_hsaco
from pipeline_mlir.emu.errors import EmuError


def load_kernel(data: bytes | str, name: str | None = None) -> Kernel:
    """The kernel ``name`` (or the only kernel) of a code object (bytes) or assembly (str)."""
    if isinstance(data, (bytes, bytearray)):
        kernels = kernels_from_hsaco(bytes(data))
    else:
        kernels = kernels_from_asm(data)
    if name is None:
        if len(kernels) != 1:
            raise EmuError(f"expected one kernel, found {len(kernels)}: "
                           f"{', '.join(sorted(kernels))}")
        return next(iter(kernels.values()))
    if name not in kernels:
        raise EmuError(f"no kernel {name!r} (kernels: {', '.join(sorted(kernels))})")
    return kernels[name]
