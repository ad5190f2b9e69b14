"""A complete kernel's LDS accesses as plain data, and the opaque identity of its MLIR.

:class:`KernelLds` holds one :class:`LdsAccess` per tagged LDS access of a kernel's loop
body, with every thread's byte address.  The analysis that computes them from the kernel's
MLIR is :func:`pipeline_mlir.analysis.lds_access.lds_accesses` (above the dialect layer);
the LDS bank model (:mod:`pipeline_mlir.sim.lds_banks`) reads them as they are handed to it.

:data:`OPAQUE_ASM` / :data:`OPAQUE_CONSTRAINTS` spell the empty inline asm whose result is
tied to its operand's VGPR, with which the kernels pin an LDS base in a register
(``pipeline_mlir/kernel/gemm.py`` writes it, ``pipeline_mlir/lowering/materialize.py``
keeps it, the per-lane evaluator sees through it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.target.gfx950 import WAVE_SIZE


#: an op that passes its i32 operand on unchanged but that LLVM cannot see through: an empty
#: inline asm whose result is tied to its operand's VGPR (the kernels pin an LDS base in a
#: register with it; ``pipeline_mlir/lowering/materialize.py``, ``pinned_values``)
OPAQUE_ASM, OPAQUE_CONSTRAINTS = "", "=v,0"
OPAQUE_IDENTITY = f'llvm.inline_asm "{OPAQUE_ASM}", "{OPAQUE_CONSTRAINTS}"'
#: the same identity on a wave-uniform value kept in an SGPR (the dword DMAs' LDS base)
OPAQUE_SCALAR_CONSTRAINTS = "=s,0"
OPAQUE_SCALAR_IDENTITY = f'llvm.inline_asm "{OPAQUE_ASM}", "{OPAQUE_SCALAR_CONSTRAINTS}"'


class LdsAccessError(PipelineError):
    """The kernel's LDS addresses cannot be evaluated (names the value)."""


@dataclass(frozen=True)
class LdsAccess:
    """One LDS access of the loop body, as one instruction of every wave issues it.

    ``kind``: ``read`` (fragment read, ``ds_read``) or ``dma`` (global->LDS write).
    ``channel``/``stage``/``subtile``/``op_id``: the ``sched.*`` tag of its group;
    ``part``: its index in the group (the ``part``-th instruction the group issues).
    ``width``: bytes per lane.  ``addresses[t]``: the byte address thread ``t`` of the
    workgroup accesses (wave ``t // 64``, lane ``t % 64``)."""

    kind: str
    channel: int
    stage: int
    subtile: int
    op_id: int
    part: int
    buffer: str
    width: int
    addresses: object = field(compare=False, repr=False)     # numpy int64, one per thread
    #: a fragment read's places in the MFMA operands it feeds: (``"A"`` or ``"B"``, per
    #: byte of the read the operand's byte, -1 none) each
    #: (:mod:`pipeline_mlir.analysis.operand_fills`; empty: not followed)
    fills: frozenset = field(default=frozenset(), compare=False, repr=False)
    #: the same places, each with the MFMA it is of (its accumulator chain and place in
    #: it: :class:`~pipeline_mlir.analysis.operand_fills.Feed`; empty: not followed)
    feeds: frozenset = field(default=frozenset(), compare=False, repr=False)

    def wave(self, w: int) -> list[int]:
        """The 64 lane addresses of wave ``w``."""
        return [int(a) for a in self.addresses[w * WAVE_SIZE:(w + 1) * WAVE_SIZE]]

    @property
    def key(self) -> tuple[str, int, int, int, int]:
        return (self.kind, self.channel, self.stage, self.subtile, self.part)


@dataclass
class KernelLds:
    """Every tagged LDS access of a kernel, its workgroup buffers (name -> (base byte, size
    in bytes), laid out in declaration order), the workgroup's thread count, and notes (a
    buffer whose size is not a multiple of 256 bytes, whose banks may shift)."""

    accesses: list[LdsAccess]
    buffers: dict[str, tuple[int, int]]      # name -> (base byte, size in bytes)
    threads: int
    notes: list[str] = field(default_factory=list)
