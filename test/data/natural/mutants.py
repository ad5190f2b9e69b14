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

import random
import sys
import tempfile
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
    rng = random.Random(seed * 100_003 + index)
    name = rng.choice(sorted(VARIANTS))
    text = source(name)
    while True:             # a mutation with nothing to mutate in this kernel: another one
        lines = text.split("\n")
        try:
            what = rng.choice(MUTATIONS)(lines, rng)
        except (IndexError, LookupError, StopIteration, AttributeError, ValueError):
            continue
        return I.Mutant(name, index, f"natural {name}: {what}", "\n".join(lines))


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
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d, "mutant.mlir"), Path(d, "out.hsaco")
        src.write_text(text)
        rc, err = I._opt([how, str(src), "--emit=hsaco", "-o", str(out)])
        return rc, err, (out.read_bytes() if rc == 0 else None)


def verdict(m: I.Mutant) -> tuple[str, str]:
    """(verdict, detail) of mutant ``m`` (module docstring; the IREE campaign's names)."""
    rc, err, ref = _build(m.text, UNPIPELINED)
    if rc != 0:
        return "invalid", err.strip().splitlines()[0] if err.strip() else f"exit {rc}"
    rc, err, out = _build(m.text, "--pipeline=4wave")
    if rc != 0:
        return I.pipelined_verdict(rc, err, None, None)
    return I.pipelined_verdict(rc, err, c_words(ref, m.form), c_words(out, m.form))


def main(argv=None) -> int:
    return I.run_campaign(__doc__, mutant, verdict, argv)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
