"""The emulator's input: a kernel of a linked code object (bytes) or of its assembly text
(str), read by :mod:`~pipeline_mlir.emu.codeobj` or :mod:`~pipeline_mlir.emu.asmtext`, once
per process for the same bytes or text (:func:`~pipeline_mlir.emu.codeobj.prepared`)."""

from __future__ import annotations

from pipeline_mlir.emu.asmtext import kernels_from_asm
from pipeline_mlir.emu.codeobj import Kernel, kernels_from_hsaco, prepared
from pipeline_mlir.emu.errors import EmuError


def load_kernel(data: bytes | str, name: str | None = None) -> Kernel:
    """The kernel ``name`` (or the only kernel) of a code object (bytes) or assembly (str):
    a copy of its own, whose compiled steps are shared with the other loads of ``data``."""
    if isinstance(data, (bytes, bytearray)):
        kernels = prepared(bytes(data), kernels_from_hsaco)
    else:
        kernels = prepared(data, kernels_from_asm)
    if name is None:
        if len(kernels) != 1:
            raise EmuError(f"expected one kernel, found {len(kernels)}: "
                           f"{', '.join(sorted(kernels))}")
        return next(iter(kernels.values()))
    if name not in kernels:
        raise EmuError(f"no kernel {name!r} (kernels: {', '.join(sorted(kernels))})")
    return kernels[name]
