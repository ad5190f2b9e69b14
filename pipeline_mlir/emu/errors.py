"""Errors and findings of the emulator.

* :class:`EmuError`: the input cannot be emulated (a malformed code object, an
  instruction the emulator does not implement, named with its address);
  :class:`CodeMismatch` one of them: a code object that is not its assembly.
* :class:`Finding`: the kernel did something wrong while running: a register read
  while its load is pending, an LDS race, a barrier mismatch, an out-of-range
  access, a trap.  It names the wave, the instruction (address and text) and, for
  memory, the address.
"""

from __future__ import annotations

from pipeline_mlir.errors import PipelineError


class EmuError(PipelineError):
    """The emulator cannot run this input (one message naming what and where)."""


class CodeMismatch(EmuError):
    """A code object whose instructions are not its assembly's, in order (two builds of
    one kernel: IREE dumps its assembly and links its code object from two runs of its
    LLVM step), so what the emulator ran cannot be read on the assembly."""


class Finding(PipelineError):
    """Something the kernel did wrong, found while running it."""

    def __init__(self, kind: str, message: str, *, wave: str | None = None,
                 instr=None) -> None:
        self.kind = kind
        self.wave = wave
        self.instr = instr
        where = []
        if wave is not None:
            where.append(wave)
        if instr is not None:
            where.append(f"0x{instr.addr:04x} '{instr.text}'")
        prefix = f"{kind}: " + (f"{', '.join(where)}: " if where else "")
        super().__init__(prefix + message)
        self.message = message

    def __reduce__(self):
        """Pickled as its fields (a worker process of ``--emulate-jobs`` hands it back)."""
        return _finding, (type(self), self.kind, self.message, self.wave, self.instr)


def _finding(cls, kind: str, message: str, wave, instr) -> Finding:
    return cls(kind, message, wave=wave, instr=instr)
