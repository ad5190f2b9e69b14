"""The ops of IREE's prefetch pipelining of DMA copies, by name, as its roll-backs read them
(:mod:`~pipeline_mlir.frontend.reroll`, :mod:`~pipeline_mlir.frontend.reroll_straight`)."""

from __future__ import annotations

#: how the refusals name the loop
WHAT = "prefetch-pipelined"

COPY = "amdgpu.gather_to_lds"
MARK = "rocdl.asyncmark"
WAIT = "rocdl.wait.asyncmark"
