"""Semantic mutants of IREE Wave's 1-D-launch GEMM, each refused or pipelined and exact.

The input is ``gemm_f16_256x256x1024_1d.mlir`` (committed; its launch in the ``.toml``
beside it), whose copies the front end distributes itself from Wave's fat buffer of
dynamic size.  The mutations are the IREE campaign's (``test/data/iree/mutants.py``: index
constants and operands, loop bounds and steps, copies and reads moved, accumulators
swapped, MFMA operands) and Wave's own barrier forms (an ``amdgpu.lds_barrier`` or an
``rocdl.s.waitcnt`` of the loop removed or moved).  A mutant is judged as the IREE
campaign judges one: ``pipeline-opt --pipeline=4wave`` refuses it with a located message
(exit 1, no traceback), or its code object computes on the emulator (late mode, every
workgroup, as the launch description says) the same C as the mutant built unpipelined
(``sched-normalize-producers``, ``sched-gpu-kernel``), and is race-free::

    python test/data/wave/mutants.py [--seed S] [--count N] [--only I]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

DATA = Path(__file__).parent
sys.path.insert(0, str(DATA.parent / "iree"))
import mutants as I  # noqa: E402  (the IREE campaign: mutations, builds, verdict names)

KERNEL = DATA / "gemm_f16_256x256x1024_1d.mlir"
LAUNCH = DATA / "gemm_f16_256x256x1024_1d.toml"
UNPIPELINED = "--pass-pipeline=builtin.module(sched-normalize-producers,sched-gpu-kernel)"


def _sync_op(lines, rng, pattern: str) -> int:
    return rng.choice(I._body(lines, pattern))


def m_sync_drop(lines, rng):
    i = _sync_op(lines, rng, r"amdgpu\.lds_barrier|rocdl\.s\.waitcnt")
    what = lines[i].strip()
    del lines[i]
    return f"'{what}' on line {i + 1} removed"


def m_sync_move(lines, rng):
    i = _sync_op(lines, rng, r"amdgpu\.lds_barrier|rocdl\.s\.waitcnt")
    s = lines.pop(i)
    start, end = I._loop(lines)
    j = rng.randrange(start + 1, end + 1)
    lines.insert(j, s)
    return f"'{s.strip()}' on line {i + 1} moved to line {j + 1}"


MUTATIONS = (I.m_constant, I.m_bound, I.m_operand, I.m_operand, I.m_copy_down, I.m_read_up,
             I.m_yield_swap, I.m_mfma, m_sync_drop, m_sync_move)


def mutant(seed: int, index: int) -> I.Mutant:
    """Mutant ``index`` of campaign ``seed`` (deterministic)."""
    rng = random.Random(seed * 100_003 + index)
    lines = KERNEL.read_text().split("\n")
    what = rng.choice(MUTATIONS)(lines, rng)
    return I.Mutant("wave-1d", index, f"wave-1d: {what}", "\n".join(lines))


def _build(text: str, how: str):
    return I.hsaco_of(text, [how])


def _c(hsaco: bytes):
    """C after every workgroup ran (late mode), or the finding as a string."""
    from pipeline_mlir.emu.described import emulate_described
    from pipeline_mlir.emu.errors import EmuError, Finding
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.launchfile import read_launch

    try:
        run = emulate_described(load_kernel(hsaco), read_launch(str(LAUNCH)), "late")
    except (EmuError, Finding) as e:
        return f"{type(e).__name__}: {e}"
    return run.outputs[0].values


def verdict(m: I.Mutant) -> tuple[str, str]:
    """(verdict, detail) of mutant ``m`` (module docstring; the IREE campaign's names)."""
    return I.compared_verdict(m.text, _build, UNPIPELINED, _c, nan_equal=True)


def main(argv=None) -> int:
    return I.run_campaign(__doc__, mutant, verdict, argv)


if __name__ == "__main__":
    sys.path.insert(0, str(DATA.parents[2]))
    sys.exit(main())
