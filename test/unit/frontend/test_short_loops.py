"""K-loops too short to pipeline: no pair of iterations for the schedule's loop.

The schedule's loop runs the natural loop's iterations in pairs (prologue and epilogue one
pair each).  A loop of one iteration has none: the front end makes the whole loop the
remainder path (``pipeline_mlir/frontend/tails.py``, ``whole_remainder``): it runs as
written, on LDS buffers of its own with IREE's swizzle made explicit, and no pipelined loop
precedes it (also when a masked last K tile, peeled, leaves none).  The example natural
kernel with one K tile (``examples/natural_kernel.py``),
compiled and run on the emulator: C is exact; so is IREE's kernel with its loop cut to one
iteration (IREE itself removes a loop of one iteration; the mutation campaign's loop-bound
mutant, ``test/data/iree/mutants.py``), against the same kernel built without the sched
passes.  A loop of no iteration stays refused.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from kernel_builds import pipeline_opt_hsaco
from pipeline_mlir.emu.inputs import load_kernel
from test_natural import run_text
from test_natural_emu import first_tile

sys.path.insert(0, str(Path(__file__).parents[3] / "examples"))
sys.path.insert(0, str(Path(__file__).parents[3] / "test" / "data" / "iree"))
from natural_kernel import kernel_text  # noqa: E402
import mutants as MU  # noqa: E402


@pytest.mark.parametrize("variant,mode", [
    ({}, "late"),
    ({"swizzle": True}, "random"),
    ({"func": "func", "lds": "alloc", "iv": "i32"}, "late"),
], ids=["default", "swizzle", "func-alloc-i32"])
def test_one_iteration_runs_as_written_and_is_exact(variant, mode):
    hsaco = pipeline_opt_hsaco("4wave", kernel_text(src="buffer", k=32, **variant))
    C, ref = first_tile(hsaco, "bf16", mode, k=32)
    assert np.array_equal(C, ref), f"max error {np.nanmax(np.abs(C - ref))}"


def test_one_iteration_is_the_remainder_path(capsys, tmp_path):
    """No pipelined loop: the one loop is marked the remainder path and keeps its 4 copies
    and 16 MFMAs; it reads LDS buffers of its own."""
    rc, out, err = run_text(capsys, tmp_path, kernel_text(k=32, swizzle=True),
                            "--pipeline=4wave")
    assert rc == 0, err
    # said at the loop, not only by --emit=report (before: the kernel came back silently)
    assert re.match(r"\S+\.mlir:\d+:\d+: warning: sched-adopt-loop: the K-loop is not "
                    r"pipelined: the K-loop runs 1 K step, which leaves no pair", err), err
    assert "sched.pipeline" not in out and "sched.stage" not in out
    loops = re.findall(r"scf\.for .*", out)
    assert len(loops) == 1, loops
    rem = out[out.index("scf.for"):]
    # (its copies straight to LDS: its loads stay in their iteration, remainder_ahead.py)
    assert re.search(r"\} \{sched\.loads_in_place = \"its loads stay in their iteration: its "
                     r"body copies straight to LDS\", sched\.remainder, sched\.unpipelined = "
                     r"\"not pipelined: the K-loop runs 1 K step, which leaves no pair",
                     rem), rem[-400:]
    assert rem.count("amdgpu.mfma") == 16 and rem.count("amdgpu.gather_to_lds") == 4
    assert len(re.findall(r"memref\.alloc\(\)", out)) == 2    # its own A and B buffers


def test_one_iteration_compiles_to_one_loop_of_the_natural_body():
    """The natural body's 16 MFMAs, no schedule's priorities: the code object
    ``test_one_iteration_runs_as_written_and_is_exact[default]`` runs (one build per run),
    decoded."""
    kernel = load_kernel(pipeline_opt_hsaco("4wave", kernel_text(src="buffer", k=32)))
    text = [i.text for i in kernel.instrs]
    assert sum(t.startswith("v_mfma") for t in text) == 16
    assert not any(t.startswith("s_setprio") for t in text)


def test_one_iteration_is_said_in_the_report():
    """``--emit=report`` says why the loop is not pipelined (it is not silent): one K step,
    no pair for the schedule's loop, run as written."""
    from pipeline_mlir.driver import CompileOptions, compile

    rep = compile(CompileOptions(schedule="4wave", emit="report",
                                 text=kernel_text(k=32, swizzle=True))).checked_output()
    assert ("K-loop: not pipelined: the K-loop runs 1 K step, which leaves no pair of K "
            "steps for the schedule's loop (it runs them in pairs); the loop runs as written "
            "(the remainder path, its LDS its own)") in rep, rep[:600]
    assert "ISA check: not run (no kernel plan" in rep


@pytest.mark.parametrize("emit", ["schedule", "schedule-json"])
def test_one_iteration_has_no_schedule_to_print_and_says_why_at_the_loop(capsys, tmp_path,
                                                                          emit):
    """``--emit=schedule`` of a loop the front end runs as written: no schedule, so an
    error at the loop saying why (before: ``the output has no 'sched.pipeline' op`` at the
    file, with no reason); the schedule of a loop it pipelines still prints (the other
    tests of the suite)."""
    rc, out, err = run_text(capsys, tmp_path, kernel_text(k=32, swizzle=True),
                            "--pipeline=4wave", f"--emit={emit}")
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert re.match(r"\S+\.mlir:\d+:\d+: error: --emit=" + emit + r": no schedule to print, "
                    r"the K-loop is not pipelined: the K-loop runs 1 K step, which leaves no "
                    r"pair of K steps", err), err
    assert "= scf.for %iv" in err.splitlines()[1], err          # (the line shown: the loop)


def test_a_whole_remainder_given_back_is_said_in_the_report():
    """The front end's output given back with its loop marked a whole remainder whose
    mark is no note (a unit attribute, as the mark was before it kept why): run as written,
    the report says so (was an internal error reading the mark as a string)."""
    from pipeline_mlir.driver import CompileOptions, compile
    from pipeline_mlir.frontend.marks import GIVEN_BACK_NOTE

    out = compile(CompileOptions(schedule="4wave", emit="mlir",
                                 text=kernel_text(k=32))).checked_output()
    back, n = re.subn(r'sched\.unpipelined = "[^"]*"', "sched.unpipelined", out)
    assert n == 1, out[-600:]
    rep = compile(CompileOptions(schedule="4wave", emit="report", text=back)).checked_output()
    assert f"K-loop: {GIVEN_BACK_NOTE}" in rep, rep[:600]


def test_no_iteration_is_refused(capsys, tmp_path):
    """A loop that runs no iteration: nothing to pipeline or run, refused at the loop."""
    text = kernel_text(k=32 * 2)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "scf.for" in line)
    ub = re.search(r" to (%\w+) ", lines[at]).group(1)
    lines[at] = lines[at].replace(f" to {ub} ", " to %c0 ", 1)
    rc, out, err = run_text(capsys, tmp_path, "\n".join(lines), "--pipeline=4wave")
    assert rc == 1 and out == "" and "Traceback" not in err
    assert "'scf.for' op runs 0 iteration(s); the schedule's loop takes two K tiles" in err, err


@pytest.mark.parametrize("form", ["prefetch", pytest.param("late", marks=pytest.mark.long(
    "the loop run as written: prefetch; the late form's remainder on LDS of its own: "
    "test_tails_iree.py's late form"))])
def test_iree_kernel_cut_to_one_iteration_is_exact(form):
    """IREE's 4096^3 kernel (IREE's swizzle an attribute at the prefetch point, arithmetic in
    the late form) with its K-loop's upper bound made its lower bound + 1: pipelined, it
    computes on the emulator (late mode, two workgroups) the C words of the same kernel
    built without the sched passes."""
    lines = MU.source(f"4096.{form}").splitlines()
    start, _ = MU._loop(lines)
    lb, ty = re.search(r"= (%\w+) to %\w+ step", lines[start]).group(1), MU._iv(lines)[1]
    pre = " " * (len(lines[start]) - len(lines[start].lstrip()))
    lines[start] = re.sub(r" to %\w+ step", " to %one_trip step", lines[start], count=1)
    lines[start:start] = [f"{pre}%one_trip = arith.constant {constant(lines, lb) + 1} : {ty}"]
    mutant = MU.Mutant(f"4096.{form}", 0, "one iteration", "\n".join(lines))
    assert MU.verdict(mutant) == ("exact", "")


@pytest.mark.parametrize("form", ["prefetch", pytest.param("late", marks=pytest.mark.long(
    "the masked loop run as written: prefetch; the late form's masked remainder, its loads "
    "ahead: test_tails_masked.py's 200x1000x1030.late"))])
def test_masked_loop_of_two_iterations_is_exact(form, capsys, tmp_path):
    """IREE's bf16 512x512x4095 kernel (K step 128, the last K tile masked) with its loop cut
    to its last two iterations: peeling the masked one leaves no pair, so the whole loop
    runs as written, masks included; C is the same as the build without the sched passes."""
    import generate as G
    from pipeline_mlir.emu.iree import Matmul, matmul_c

    src = G.matmul_source(dtype="bf16", m=512, n=512, k=4095)
    lines = (G.prefetch_point if form == "prefetch" else G.late_form)(src).splitlines()
    start, _ = MU._loop(lines)
    m = re.search(r"= (%\w+) to (%\w+) step (%\w+)", lines[start])
    ub, step = constant(lines, m.group(2)), constant(lines, m.group(3))
    pre = " " * (len(lines[start]) - len(lines[start].lstrip()))
    lines[start] = lines[start].replace(f"= {m.group(1)} to", "= %two_left to", 1)
    lines[start:start] = [f"{pre}%two_left = arith.constant {ub - 2 * step} : "
                          f"{MU._iv(lines)[1]}"]
    text = "\n".join(lines)
    assert "vector.create_mask" in text or "vector.maskedload" in text
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 0 and "sched.pipeline" not in out, err
    assert ('sched.unpipelined = "not pipelined: the K-loop runs 2 K steps with masked '
            'copies, so its last K step is peeled as a masked K tail, which leaves no pair'
            ) in out, out[-2000:]
    assert "sched.loads_ahead" in out       # (its copies through registers: remainder_ahead)
    builds = [MU.build(MU.unswizzled(text) if "iree_codegen.swizzle" in text else text, False),
              MU.build(text, True)]
    assert [rc for rc, _, _ in builds] == [0, 0], [err for _, err, _ in builds]
    c = [matmul_c(load_kernel(hsaco), Matmul(512, 512, 4095, "bf16"), MU.WORKGROUPS[form],
                  mode="late") for _, _, hsaco in builds]
    assert c[1].any() and (c[0] == c[1]).all()


def constant(lines: list[str], name: str) -> int:
    """The value of the integer constant ``name`` defined in ``lines``."""
    pat = re.compile(rf"^\s*{re.escape(name)} = arith\.constant (-?\d+) : ")
    return int(next(m.group(1) for m in map(pat.match, lines) if m))


def test_a_loop_too_short_for_its_one_form_runs_as_written(capsys, tmp_path):
    """IREE's fp8 ``A^T x B`` 31x112x96: one accumulator per wave, fp8's 16x16x32 MFMA not
    cut, so only the diagonal form with its K steps merged 2 by 2 splits its copies into
    subtiles (at K = 224 it is pipelined so: iree_configs.py's fp8_atb_31x112x224), and its
    loop runs 3 K steps, 2 once the odd one is cut off, fewer than the 4 that form needs.
    Both forms run it as written, said at the loop (before: refused with every way's
    reason), from the kernel as it was before the analysis, whose trials rewrote it; exact
    on the emulator over the whole grid (7 workgroups), late and random order."""
    import generate as G
    from pipeline_mlir.tools.pipeline_opt import main

    forms = G.forms(G.matmul_source(dtype="fp8", m=31, n=112, k=96, transpose_a=True,
                                    transpose_b=False))
    for form, text in forms.items():
        rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
        assert rc == 0 and "sched.pipeline" not in out and "error" not in err, err
        assert re.match(r"\S+\.mlir:\d+:\d+: warning: sched-adopt-loop: the K-loop is not "
                        r"pipelined: its copies split into the schedule's subtiles only in "
                        r"the diagonal form with its K steps merged 2 by 2, and the loop "
                        r"runs 2 K steps, fewer than the 4 that", err), (form, err)
        assert "scf.for" in err.splitlines()[1], err        # (the line shown: the loop)
        src = tmp_path / f"{form}.mlir"
        src.write_text(text)
        for mode in ("late", "random:3") if form == "late" else ("late",):
            rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-mode=" + mode,
                       "--emulate-jobs=1"])
            out, err = capsys.readouterr()
            assert rc == 0 and ": exact, max error 0" in out and "7 workgroups" in out, \
                out + err
