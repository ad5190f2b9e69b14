"""Ping-pong on IREE's 8-wave kernel with an odd trip count: the remainder on the
schedule's LDS buffers.

IREE's 256x256 bf16 tile at K step 64 (8 waves) at 1024x1024x192 runs 3 K steps: the
ping-pong loop takes 2, and a remainder loop with LDS of its own would need a third copy
of the 64 KiB of tiles beside the schedule's two stages (192 KiB, more than LDS).  The
remainder runs on the schedule's stage-0 buffers instead (``frontend/shared_remainder.py``):
generated with ``iree-compile`` at the prefetch point and in the late form (once per
module), pipelined with ``--pipeline=pingpong`` and run on two workgroups, memory completing
late and at random: exact, with the LDS race check of the emulator on.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from kernel_builds import hsaco_and_lowered
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import assert_short, counting_loops, lowered_split

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

SOURCE = dict(G._eight_wave("bf16", (256, 256), (8, 4), 2), k=192)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    return G.form_files(tmp_path_factory.mktemp("iree_shared_rem"),
                        lambda _name: G.matmul_source(**SOURCE))


@pytest.mark.parametrize("form,mode", [
    ("prefetch", "late"), ("prefetch", "random:11"), ("late", "late"),
    pytest.param("late", "random:5", marks=pytest.mark.long(
        "the late form in late mode: late-late; at random: prefetch-random:11"))])
def test_odd_trip_count_pingpong_is_exact(kernels, form, mode, capsys):
    with share_code_objects(), counting_loops() as loops:   # each form built once per run
        rc = main(["--pipeline=pingpong", "--emulate", str(kernels("k192", form)),
                   "--emulate-workgroups=2", f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    # the point is the remainder: the prologue and the drain take 2 K steps (no iteration
    # of the ping-pong loop, which LLVM removes), the remainder the third; each wave's MFMAs
    # are the lowering's prologue, drain and remainder (steady_loop; the prefetch point's
    # lowering: both forms make one schedule)
    assert_short(loops, 0, "the remainder's path; test_iree_pingpong.py goes round the loop",
                 lowered_split(kernels("k192", "prefetch"), "pingpong"))
    assert re.search(rf"K=192 mode={mode.split(':')[0]}: exact, max error 0, 2 of 16 "
                     rf"workgroups x 8 waves", out), out


def test_remainder_allocates_no_lds(kernels):
    """The lowered MLIR (``--emit=mlir``'s) of the late form: no LDS of the remainder's own,
    which runs IREE's 64 MFMAs between two barriers (the MLIR kept by the build of the code
    object the exactness items run: one run of the passes)."""
    out = hsaco_and_lowered("pingpong", kernels("k192", "late").read_text())[1]
    allocs = re.findall(r"memref\.alloc\(\) : memref<(\d+)xbf16", out)
    assert sum(int(n) * 2 for n in allocs) == 2 * 65536, allocs   # two stages of 64 KiB
    end = out.index("sched.remainder")
    rem = out[out.rindex("scf.for", 0, end):end]
    assert rem.count("amdgpu.mfma") == 64 and rem.count("gpu.barrier") == 2, rem


def test_odd_trip_count_under_4wave_is_exact(kernels, capsys):
    """The 8 waves in lockstep under ``4wave``: the remainder's fragment reads share address
    bases of their own loop, never the pipelined loop's (``frontend/read_bases.py``; those
    would not dominate the remainder: invalid IR)."""
    rc = main(["--pipeline=4wave", "--emulate", str(kernels("k192", "late")),
               "--emulate-workgroups=1", "--emulate-mode=late"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    assert re.search(r"K=192 mode=late: exact, max error 0, 1 of 16 workgroups x 8 waves",
                     out), out
