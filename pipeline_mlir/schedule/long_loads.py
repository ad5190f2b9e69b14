"""A fragment load with more instructions than ``lgkmcnt`` holds.

gfx950's ``lgkmcnt`` counts at most :data:`~pipeline_mlir.target.gfx950.LGKMCNT_MAX` (15)
LDS instructions in flight; an instruction that would exceed it stalls the wave until the
oldest completes (:data:`~pipeline_mlir.target.gfx950.IN_FLIGHT`).  Such loads occur:
IREE's plain ``A x B`` at K step 128 reads one B subtile with 16 transposing reads, and an
f32 ``A x B`` subtile takes 32 single-element reads.  The schedule issues the load as one
entry, as any other, and relies on that stall; it adds no wait of its own inside the load,
so LLVM stays free to interleave the reads with the MFMAs before them (an explicit wait
there pins every read after it behind the MMA's first MFMA: the f32 ``A x B`` 1024^3
kernel's loop took 1239 LLVM units a K tile with such waits, 1026 without, its MFMA bound
1024).  The models agree: the functional simulator keeps the counter at its capacity as the
hardware does, the load's last 15 reads left in flight
(:mod:`pipeline_mlir.sim.functional`), and the timing model's hardware table stalls an
instruction that would exceed it (:func:`pipeline_mlir.sim.costs.capacity_release`).  A
derived ``lgkmcnt(n)`` with ``n`` over the limit waits for nothing the stall has not
already completed and becomes ``lgkmcnt(15)`` (``stages.cap_long_load_waits``).

No MLIR here.
"""

from __future__ import annotations

from pipeline_mlir.target.gfx950 import LGKMCNT_MAX

__all__ = ["MAX_FRAGMENT_READS"]

#: the most instructions one fragment load may issue (four times what the counter holds)
MAX_FRAGMENT_READS = 4 * LGKMCNT_MAX
