"""The mutation campaign: semantic mutants of IREE's matmul kernel, each refused with a
located message or pipelined and exact against its own unpipelined build.

``test/data/iree/mutants.py`` makes the mutants (index constants and operands, loop
bounds and steps, barriers removed or moved, copies and reads moved, extra LDS and global
stores, atomics) of IREE's bf16 kernel (prefetch point and late form) and judges each: ``pipeline-opt
--pipeline=4wave`` refuses it (``FILE:LINE:COL: error:``, exit 1, no traceback), or the
pipelined kernel computes on the emulator (late mode, two workgroups) the same C as the
mutant built without the sched passes, and is race-free.  A CI run takes a handful of
mutants (those of kernels ``iree-compile`` generates skipped without it);
``PIPELINE_MUTANTS=N`` (and ``PIPELINE_MUTANTS_SEED=S``) runs N of them.  A failure names
the mutation and the command that reproduces it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parents[2] / "data" / "iree"
sys.path.insert(0, str(DATA))
import mutants as M  # noqa: E402

SEED = int(os.environ.get("PIPELINE_MUTANTS_SEED", "1"))
COUNT = int(os.environ.get("PIPELINE_MUTANTS", "3"))


def _has_iree_compile() -> bool:
    import generate as G

    try:
        return Path(G.tool("iree-compile")).exists()
    except Exception:              # the wheel's tool lookup fails: not installed
        return False


@pytest.mark.parametrize("index", range(COUNT))
def test_mutant_is_refused_or_exact(index):
    name = M.mutant_source(SEED, index)
    if M.generated(name) and not _has_iree_compile():
        pytest.skip(f"mutant {index} is of a kernel iree-compile generates, and it is not "
                    f"installed")
    m = M.mutant(SEED, index)
    verdict, detail = M.verdict(m)
    assert verdict not in M.BAD, (f"{verdict}: {m.what}\n{detail}\n"
                                  f"reproduce: {M.command(SEED, index)}")


def test_mutants_are_deterministic_and_varied():
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    first = [M.mutant(SEED, i).what for i in range(40)]
    assert first == [M.mutant(SEED, i).what for i in range(40)]
    kinds = {w.split(": ", 1)[1].split(" ")[0] for w in first}
    assert {"constant", "loop", "barrier", "index", "store", "read", "copy"} <= kinds, kinds


def test_the_comparison_sees_a_changed_result():
    """A mutant that computes another C (half the K-loop) is told apart from the original,
    and a loop-carried read moved above its copies is refused at the op; the unmutated
    kernel at the prefetch point (its swizzle made explicit for the unpipelined build)
    is exact."""
    prefetch = M.source("4096.prefetch")
    assert M.verdict(M.Mutant("4096.prefetch", -1, "none", prefetch)) == ("exact", "")
    text = M.source("4096.late")
    half = M.Mutant("4096.late", -1, "upper bound 64", text.replace(
        "scf.for %arg0 = %c0_i32 to %c128_i32", "scf.for %arg0 = %c0_i32 to %c64_i32"))
    assert "%c64_i32 = arith.constant 64 : i32" in text
    assert M.verdict(half)[0] == "exact"
    whole = M.c_bytes(M.build(text, False)[2], "4096.late")
    assert (whole != M.c_bytes(M.build(half.text, False)[2], "4096.late")).any()
    lines = text.split("\n")
    start, _ = M._loop(lines)
    read = next(i for i in range(start, len(lines)) if "vector.load %alloc[" in lines[i])
    lines.insert(start + 1, lines.pop(read))
    verdict, detail = M.verdict(M.Mutant("4096.late", -1, "read up", "\n".join(lines)))
    assert verdict == "refused" and "loop-carried through LDS" in detail, detail


def test_a_read_across_swizzle_chunks_keeps_its_data():
    """Found by the campaign (seed 11, mutants 62 and 127): in the 512^3 kernel, whose copies
    the front end re-distributes, a fragment read at the thread id's element (8 elements
    from any element, so across two 8-element chunks) was re-addressed into a swizzle of
    the front end's that split it: C differed in ~430 elements.  The front end now takes
    only swizzles that keep every read's elements consecutive."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    lines = M.source("512.late").split("\n")
    start, end = M._loop(lines)
    reads = [i for i in range(start, end) if "vector.load %alloc[" in lines[i]]
    i = reads[6]
    lines[i] = lines[i].replace(lines[i].split("[")[1].split("]")[0], "%thread_id_x", 1)
    m = M.Mutant("512.late", -1, f"read on line {i + 1} at the thread id", "\n".join(lines))
    verdict, detail = M.verdict(m)
    assert verdict in ("exact", "refused"), f"{verdict}: {detail}"
