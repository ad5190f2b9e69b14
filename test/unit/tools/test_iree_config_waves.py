"""IREE's kernels of 1, 2, 8 and 16 waves under ``--pipeline=4wave`` (``iree_configs.WAVES``),
and its skinny 32x64 tile of 4 waves of one MFMA row each (A split along K, ``k_subtiles``).

The 4-wave schedule runs every wave of the workgroup through the same program in lockstep,
each wave its own copies, fragment reads and MFMAs: the front end reads the wave count from
the kernel (the schedule's ``waves`` option), both forms give one schedule, the simulator
runs that many waves hazard-free and each late form is exact on the emulator.  A count the
pipeline gives that is not the kernel's, and a complete kernel of other than 4 waves, are
refused; threads that are no whole waves, or more than a workgroup may have, are refused in
``test/unit/frontend/test_natural.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from iree_configs import assert_steady_or_short
from kernel_builds import shared_build
from pipeline_mlir.driver import CompileOptions, compile
from steady_loop import counting_loops
from pipeline_mlir.target.gfx950 import wave_count
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "examples"))
from concrete_kernel import kernel_text as concrete_kernel_text  # noqa: E402
from natural_kernel import kernel_text  # noqa: E402

#: the tagged example's counts (test_concrete.py's)
EXACT = "vm_per_load_a=1 vm_per_load_b=1 lgkm_per_load_a=1 lgkm_per_load_b=1"

pytestmark = pytest.mark.usefixtures("shared_code_objects")

#: configuration -> (its waves, the spec the front end reads from it: tile, counts, waves)
SPECS = {
    # one wave of 32x32: one MFMA per MMA block, so two K steps merged into each K tile
    "bf16_abt_512_1wave": (1, "4wave{dtype=bf16 BM=32 BN=32 BK=64 waves=1}"),
    # (16 K steps of 32, 8 MFMAs of 16 cycles a wave: two merged by default, merge_k=auto)
    "bf16_abt_512_2wave": (2, "4wave{dtype=bf16 BM=64 BN=128 BK=64 waves=2}"),
    "bf16_abt_1024x1024x384_8wave": (8, "4wave{dtype=bf16 BM=256 BN=256 BK=64 waves=8}"),
    "bf16_abt_1024x1024x384_16wave": (16, "4wave{dtype=bf16 BM=256 BN=256 BK=64 waves=16}"),
    # 4 waves of one MFMA row each: A's subtiles are K halves (B's, of IREE's 64x32 f16
    # tile, are the 8-wave kernels' split: test_iree_pingpong.py; its counts test_errors.py)
    "bf16_abt_32x2048x1024": (4, "4wave{dtype=bf16 BM=32 BN=64 BK=128 k_subtiles=a}"),
}


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _adopted_options(adopted: str) -> dict:
    """{option: text} of the ``sched.options`` the front end gives the loop of the
    ``adopted`` IR."""
    (options,) = set(re.findall(r"sched\.options = \{([^}]*)\}", adopted))
    return dict(re.findall(r'(\w+) = "?(\w+)"?(?: : i64)?', options))


@pytest.mark.parametrize("name", list(SPECS))
def test_waves_run_the_4_wave_schedule_in_lockstep(generated, name, capsys):
    """Both forms become the same schedule, of the kernel's tile, counts and waves, and the
    late form's kernel (the prefetch point's where its copies read a one-dimensional view)
    is exact on 2 workgroups of that many waves, its steady loop run."""
    waves, spec = SPECS[name]
    # the form emulated: the prefetch point where its copies read a one-dimensional view
    # (the 8-wave kernel's, checked below), else the late one
    emulated = "prefetch" if waves == 8 else "late"
    # one front-end run per form: the emulated one's is its code object's build (the run's
    # store: --emulate below compiles nothing), the schedule and the prefetch point's loop
    # as sched-adopt-loop left it kept on the way; the other's stops at the schedule
    schedules, adopted = {}, ""
    for form in ("prefetch", "late"):
        kept = ("adopted",) if form == "prefetch" else ()
        src = str(generated(name, form))
        if form == emulated:
            built = shared_build("4wave", stages=(*kept, "schedule-json"), input=src)
            schedules[form] = built.stages["schedule-json"]
        else:
            built = compile(CompileOptions(schedule="4wave", emit="schedule-json", input=src,
                                           stages=kept))
            schedules[form] = built.checked_output()
        adopted = built.stages.get("adopted", adopted)
    assert schedules["prefetch"] == schedules["late"]
    got = _adopted_options(adopted)
    want = dict(re.findall(r"(\w+)=(\w+)", spec))
    assert got == want, got
    # at the prefetch point, IREE's own copies (of subviews) of a kernel of two waves per
    # SIMD or more read a one-dimensional view at the lane's index plus a readfirstlane
    # (read_bases.flat_source); the 16-wave kernel's copies are the front end's own
    # (frontend/layout.py), the others share no registers
    flat = re.findall(r"gather_to_lds %collapse_shape\w*\[%\w+\]", adopted)
    assert len(flat) == (16 if waves == 8 else 0), len(flat)
    with counting_loops() as loops:
        rc, out, err = _run(capsys, "--pipeline=4wave", "--emulate",
                            str(generated(name, emulated)),
                            "--emulate-workgroups=2", "--emulate-mode=late")
    assert rc == 0 and "mode=late: exact, max error 0, 2 of " in out, out + err
    assert f"workgroups x {wave_count(waves)}," in out, out
    assert_steady_or_short(loops, name, generated)


@pytest.mark.parametrize("name", list(SPECS))
def test_waves_simulate_hazard_free(name, capsys):
    """The schedule of each wave count, run by that many waves on the simulator's CU (fewer
    than 4 leave SIMDs idle, more share them): no hazard once ``sched-fix-hazards`` fixed it,
    and the report's kernel has that many waves.  One cost table (``--cost-table=llvm``): the
    hazards take no costs and a barrier deadlock comes from the barrier counts, not from
    cycles (test_simulate.py runs both tables); the second table's timing run was a quarter
    of the item (2.03 s of CPU against 1.51 s for the 16 waves)."""
    waves, spec = SPECS[name]
    rc, out, err = _run(capsys, "--simulate", f"--pipeline={spec}", "--report",
                        "--cost-table=llvm")
    assert rc == 0 and "no hazard, every accumulator receives each K tile once" in out, \
        out + err
    assert f"{wave_count(waves)} in 1 group(s)" in out, out


def test_pipeline_waves_that_are_not_the_kernels_are_refused(generated, capsys):
    """``waves`` given that the kernel does not run: refused at the loop, either way, and
    in a tagged loop (whose schedule a wave count of 1 would relieve of barriers its 4
    waves need)."""
    path = generated("bf16_abt_512_2wave", "late")
    rc, _, err = _run(capsys, "--pipeline=4wave{waves=4}", str(path), "-o", "-")
    assert rc == 1 and "the pipeline asks for waves=4, but the kernel runs 2 waves" in err, err
    src = path.parent / "natural.mlir"
    src.write_text(kernel_text())
    rc, _, err = _run(capsys, "--pipeline=4wave{waves=2}", str(src), "-o", "-")
    assert rc == 1 and "the pipeline asks for waves=2, but the kernel runs 4 waves" in err, err
    tagged = path.parent / "tagged.mlir"
    tagged.write_text(concrete_kernel_text("4wave"))
    rc, _, err = _run(capsys, f"--pipeline=4wave{{{EXACT} waves=1}}", str(tagged), "-o", "-")
    assert rc == 1 and "sched-import: 'scf.for' op: the pipeline asks for waves=1, but the " \
        "kernel runs 4 waves" in err, err


def test_the_wave_grid_is_the_kernels(generated, capsys):
    """The schedule's wave grid is read from the kernel (the 1x2 kernel's is the default,
    not written): another one given is refused at the loop; a tile whose waves are one MFMA
    row each (2x1 waves of 16x64) is taken with 2 K steps merged, A split along K; a
    spec whose waves' tiles do not split is refused by the geometry, and a grid that is
    not of the waves by the options."""
    path = generated("bf16_abt_512_2wave", "late")
    rc, _, err = _run(capsys, "--pipeline=4wave{waves_m=2}", str(path), "-o", "-")
    assert rc == 1 and re.search(r"\.mlir:\d+:\d+: error: sched-adopt-loop: 'scf\.for' op: "
                                 r"the pipeline asks for waves_m=2, but the loop's payload "
                                 r"has waves_m=1", err), err
    # 2x1 waves of 16x64: 4 accumulators per wave share one A fragment, no split by
    # accumulator nor (one MFMA deep) along K: 2 K steps merged, A split along K
    # (frontend/kmerge.py; exact from both forms in late and random mode, by hand)
    path = generated("bf16_abt_512_2wave_2x1", "late")
    rc, out, err = _run(capsys, str(path),
                        "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})")
    assert rc == 0 and 'sched.subtiles = "A along K; 2 of the kernel\'s K steps merged into ' \
        'each K tile"' in out, err
    # a geometry refused under a wave grid other than 2 x 2 says which grid and whence
    for spec, why in (("BM=16 BN=32 BK=32 waves=1", "geometry: num_m_mmas = 1 must be even "
                                                     "and >= 2 (tile too small for the MMA "
                                                     "grid) (waves=1: a 1 x 1 wave grid, the "
                                                     "most nearly square grid; waves_m sets "
                                                     "its rows)"),
                      ("BM=32 BN=64 BK=32 waves=2 waves_m=2", "geometry: num_m_mmas = 1 must "
                                                              "be even and >= 2 (tile too small "
                                                              "for the MMA grid) (waves=2: a 2 "
                                                              "x 1 wave grid, waves_m=2)"),
                      ("waves=3", "BN by the 3 warp columns must divide exactly (128 / 3) "
                                  "(waves=3: a 1 x 3 wave grid"),
                      ("waves=8 waves_m=3", "option 'waves_m=3' must divide the 8 waves")):
        rc, out, err = _run(capsys, f"--pipeline=4wave{{{spec}}}", "--emit=schedule")
        assert rc == 1 and out == "" and why in err and "Traceback" not in err, (spec, err)


def test_tagged_loop_takes_the_kernels_waves(tmp_path, capsys):
    """A tagged loop of a 2-wave kernel: the schedule is given the kernel's count."""
    tagged = tmp_path / "tagged.mlir"
    tagged.write_text(concrete_kernel_text("4wave", block=128))
    rc, out, err = _run(capsys, str(tagged), "--pass-pipeline=builtin.module(sched-import{schedule=4wave "
                        f"{EXACT}}})")
    assert rc == 0, err
    assert re.search(r"options = \{[^}]*waves = 2 : i64\}, schedule = \"4wave\"", out), out


def test_pingpong_still_refuses_other_wave_counts(generated, capsys):
    """The ping-pong schedule's two groups of 4 waves are its definition: a 2-wave kernel
    is refused at the function, with the counts; so is a tagged loop of a 4-wave kernel
    (whose tags agree with its addresses), and 8 waves of it are taken."""
    path = generated("bf16_abt_512_2wave", "prefetch")
    rc, _, err = _run(capsys, "--pipeline=pingpong", str(path), "-o", "-")
    assert rc == 1 and "Traceback" not in err
    assert "the kernel runs 128 threads (2 waves) but the 'pingpong' schedule is written " \
           "for 8 waves (512 threads)" in err, err
    tagged = path.parent / "tagged_pingpong.mlir"
    for block in (512, 256):
        tagged.write_text(concrete_kernel_text("pingpong", block=block))
        rc, _, err = _run(capsys, f"--pipeline=pingpong{{{EXACT}}}", str(tagged), "-o", "-")
        assert rc == (block != 512) and "Traceback" not in err, err
    assert re.search(r"tagged_pingpong\.mlir:\d+:\d+: error: sched-import: 'gpu\.func' op: the "
                     r"kernel runs 256 threads \(4 waves\) but the 'pingpong' schedule is "
                     r"written for 8 waves \(512 threads\)", err), err


@pytest.mark.parametrize("emit", ["asm", "mlir"])
def test_complete_kernel_runs_4_waves(emit, capsys):
    """Without an input the complete kernel is built, which runs 4 waves: another count is
    refused (it pipelines a kernel given as input)."""
    rc, out, err = _run(capsys, "--pipeline=4wave{waves=2}", f"--emit={emit}")
    assert rc == 1 and out == "" and "Traceback" not in err
    assert "the complete kernel runs 4 waves; a schedule of 2 waves pipelines a kernel " \
           "given as input" in err, err
    rc, out, err = _run(capsys, "--pipeline=4wave{waves_m=1}", f"--emit={emit}")
    assert rc == 1 and out == "" and "the complete kernel runs its waves in a 2x2 grid; a " \
        "schedule of 1x4 waves pipelines a kernel given as input" in err, err


def test_one_wave_keeps_no_barrier_in_its_assembly(generated, capsys):
    """LLVM lowers the barriers of a one-wave workgroup to no instruction: the ISA check
    of ``--emit=report`` expects none (its waits stay), and LLVM agrees with the report's
    occupancy (10 such workgroups of 16 KiB of LDS, two K steps merged into each K tile, on
    4 SIMDs: 3 waves on the fullest)."""
    path = generated("bf16_abt_512_1wave", "late")
    rc, out, err = _run(capsys, "--pipeline=4wave", str(path), "--emit=report")
    assert rc == 0, err
    assert "barrier-missing" not in out and "barrier-extra" not in out, out
    assert "wait-short" not in out, out
    for phase in ("prologue", "loop", "epilogue"):   # the barrier column: none, none expected
        (row,) = re.findall(rf"^  {phase} .*$", out, re.M)
        assert re.findall(r"(\d+) \(exp +(\d+)\)", row)[4] == ("0", "0"), row
    assert "occupancy             3 waves/SIMD" in out and ": agree" in out, out
    assert "64 work items = 1 wave of 64" in out, out
