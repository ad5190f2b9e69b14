"""``sched-normalize-producers``: other producers' kernels in the front end's form.

What :mod:`pipeline_mlir.frontend.producers` rewrites (IREE Wave's ``stream.executable``
and ``stream.binding.subspan``, its shared-memory pool of ``memref.view``s, its
``llvm.amdgcn.readfirstlane`` intrinsic calls), as a pass of its own; ``sched-adopt-loop``
runs the same rewrite first, so ``--pipeline=NAME`` takes such kernels directly.
"""

from __future__ import annotations

from pipeline_mlir.passes._common import SchedPass


class NormalizeProducers(SchedPass):
    name = "sched-normalize-producers"
    summary = ("put other producers' kernels (IREE Wave: stream.executable, "
               "stream.binding.subspan, memref.view pools, readfirstlane intrinsics) in "
               "the front end's form")

    def run(self, module) -> None:
        from pipeline_mlir.frontend.producers import normalize_producers

        normalize_producers(module)
