"""Semantic mutants of the hand-written (natural) kernels, each refused or pipelined and exact.

The inputs are the variants of ``examples/natural_kernel.py`` that the front end's tests
pipeline (:data:`VARIANTS`: copies from a global memref or a fat raw buffer, IREE's XOR
swizzle, ``func.func`` with ``memref.alloc`` LDS and an ``i32`` induction variable of
step 2, f16, the ``kcols`` copy layout; not the trip count from a kernel argument, whose extra
``index`` argument a code object's launch does not pass), at K = 256
(8 K steps of 32).  The mutations are the IREE campaign's (``test/data/iree/mutants.py``:
index constants and operands, loop bounds and steps, barriers removed, moved or made bare,
copies and reads moved, extra LDS stores, accumulators swapped, MFMA operands).  A mutant
is judged as the IREE campaign judges one: ``pipeline-opt --pipeline=4wave`` refuses it with
a located message (exit 1, no traceback), or its code object computes on the emulator (late
mode, workgroups 0 and 5 of the 32 x 32 grid of 128x128 tiles) the same C as the mutant
built without the sched passes but the kernel's own lowering (``sched-gpu-kernel``), and
is race-free::

    python test/data/natural/mutants.py [--seed S] [--count N] [--only I]
"""

from __future__ import annotations

import sys
from pathlib import Path

DATA = Path(__file__).parent
ROOT = DATA.parents[2]
sys.path.insert(0, str(DATA.parent / "iree"))
sys.path.insert(0, str(ROOT / "examples"))
import mutants as I  # noqa: E402  (the IREE campaign: mutations, builds, verdict names)

K = 256
#: kernel variant name -> ``natural_kernel.kernel_text`` arguments
VARIANTS = {
    "global": {},
    "buffer": {"src": "buffer"},
    "swizzle": {"src": "buffer", "swizzle": True},
    "func": {"src": "buffer", "func": "func", "lds": "alloc", "iv": "i32", "step": 2},
    "f16": {"src": "buffer", "dtype": "f16"},
    "kcols": {"src": "buffer", "layout": "kcols"},
}
UNPIPELINED = "--pass-pipeline=builtin.module(sched-gpu-kernel)"
WORKGROUPS = [0, 5]
MUTATIONS = I.LATER_MUTATIONS


def source(variant: str) -> str:
    from natural_kernel import kernel_text

    return kernel_text(k=K, **VARIANTS[variant])


def mutant(seed: int, index: int) -> I.Mutant:
    """Mutant ``index`` of campaign ``seed`` (deterministic)."""
    rng = I.rng_for(seed, index)
    name = rng.choice(sorted(VARIANTS))
    what, text = I.applied(source(name), MUTATIONS, rng)
    return I.Mutant(name, index, f"natural {name}: {what}", text)


def c_words(hsaco: bytes, variant: str):
    """C after workgroups 0 and 5 ran (late mode), or the finding as a string."""
    from pipeline_mlir.emu.errors import EmuError, Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.iree import Matmul, matmul_c

    dtype = VARIANTS[variant].get("dtype", "bf16")
    try:
        return matmul_c(load_kernel(hsaco), Matmul(4096, 4096, K, dtype, True), WORKGROUPS,
                        mode="late", grid=(1024,))
    except (EmuError, Finding) as e:
        return f"{type(e).__name__}: {e}"


def _build(text: str, how: str):
    return I.hsaco_of(text, [how])


def verdict(m: I.Mutant) -> tuple[str, str]:
    """(verdict, detail) of mutant ``m`` (module docstring; the IREE campaign's names)."""
    return I.compared_verdict(m.text, _build, UNPIPELINED, lambda h: c_words(h, m.form))


def main(argv=None) -> int:
    return I.run_campaign(__doc__, mutant, verdict, argv)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
