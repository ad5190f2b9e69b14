"""A K-loop of two K steps whose last is a masked K tail (``frontend/kept_tail.py``).

Peeling the tail leaves one K step, no pair for the schedule's loop: the loop ran as
written.  Where every mask keeps each lane's run whole or none (the K row's test alone,
IREE's bf16 ``A x B^T`` 16x3x248 and f16 ``A^T x B^T`` 8x17x232: tails of 120 and 104, runs
of 8), the masks are kept in the copies' addresses and the pair pipelines with the tail in
it, one schedule from both forms; where the tail cuts a run inside (16x3x245: a tail of
117), the loop runs as written as before, the note saying which run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli_text as run_text

sys.path.insert(0, str(Path(__file__).parents[3] / "test" / "data" / "iree"))


def _forms(**kw) -> list[str]:
    """IREE's prefetch point and late form of the matmul of ``kw``."""
    import generate as G

    src = G.matmul_source(**kw)
    return [G.prefetch_point(src), G.late_form(src)]


def test_a_whole_run_tail_of_two_steps_pipelines_from_both_forms(capsys, tmp_path):
    """bf16 ``A x B^T`` 16x3x248: both forms pipelined (before: run as written, ``...
    leaves no pair of K steps``), with one schedule."""
    outs = []
    for text in _forms(dtype="bf16", m=16, n=3, k=248):
        rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave",
                                "--emit=schedule-json")
        assert rc == 0, err
        assert '"schedule": "4wave"' in out
        outs.append(out)
    assert outs[0] == outs[1]


def test_a_tail_that_cuts_a_run_runs_as_written(capsys, tmp_path):
    """bf16 ``A x B^T`` 16x3x245: thread 14's run of 8 is masked to 5 in the tail, so no
    read past the buffer's end pads it; the loop runs as written, said at the loop."""
    for text in _forms(dtype="bf16", m=16, n=3, k=245):
        rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
        assert rc == 0, err
        assert "sched.unpipelined" in out
        assert ("its masks are not kept in the copies instead: 'vector.transfer_read' op at "
                "line ") in out
        assert ("masks thread 14's run of 8 elements to 5 in iteration 4: the tail cuts the "
                "run inside") in out


@pytest.mark.parametrize("form", [0, 1], ids=["prefetch", "late"])
@pytest.mark.long("iree-compile and the emulator on both forms; the decision itself: "
                  "test_a_whole_run_tail_of_two_steps_pipelines_from_both_forms")
def test_the_kept_tail_is_exact(form, capsys, tmp_path):
    """f16 ``A^T x B^T`` 8x17x232 (its grid one workgroup, the edge one) pipelined with its
    tail kept, exact on the emulator in late and random mode."""
    text = _forms(dtype="f16", m=8, n=17, k=232, transpose_a=True)[form]
    for mode in ("late", "random"):
        rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave", "--emulate",
                                f"--emulate-mode={mode}", "--emulate-workgroups=1")
        assert rc == 0, err
        assert ": exact, max error 0" in out + err, out + err
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave", "--emit=report")
    assert rc == 0 and "schedule form: subtiles" in out and "not pipelined" not in out, out



@pytest.mark.long("iree-compile of a 4-stage kernel; the whole-run check's negative case: "
                  "test_a_tail_that_cuts_a_run_runs_as_written")
def test_a_run_cut_at_cs_edge_keeps_the_peel(capsys, tmp_path):
    """IREE's fp8 ``A^T x B^T`` 940x31x422 (4 stages, 2 K steps, the last masked): A's runs
    of 16 are cut at C's edge in M (940 = 58 x 16 + 12) and copied in pieces, their K rows
    masked too, which is not kept; the loop runs as written, the note saying why."""
    import generate as G

    src = G.matmul_source(dtype="fp8", m=940, n=31, k=422, transpose_a=True)
    text = G.late_form(src, ("--iree-llvmgpu-prefetch-num-stages=4",))
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave")
    assert rc == 0, err
    assert ("its masks are not kept in the copies instead: 'vector.transfer_read' op at line "
            in out), out[-3000:]
    assert "reads a run cut at C's edge, copied in pieces, whose K rows are masked too" in out


_TWO_STEPS = """
func.func @other() {
  return
}
func.func @k(%p: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c2 step %c1 {
    memref.store %z, %p[%i] : memref<4xf32>
  }
  return
}
"""


@pytest.mark.parametrize("refused", [False, True])
def test_a_kernel_put_in_its_place_by_the_adoption_is_the_one_unmarked(refused):
    """An adoption that puts another kernel in the place of the loop's (as
    ``natural._short_as_written`` does: the kernel before the analysis' trials, the one it
    had erased) and returns, or refuses the pair it kept: :func:`kept_or_peeled` reads the
    kernel in that place, never the erased one (read, it crashed the suite's worker:
    a segmentation fault), and drops the mark from it; refused, it adopts the kernel as
    it was before again."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops
    from pipeline_mlir.errors import PipelineError
    from pipeline_mlir.frontend.kept_tail import kept_or_peeled
    from pipeline_mlir.frontend.kernel_ir import kernel_of
    from pipeline_mlir.frontend.marks import KEPT_TAIL_ATTR, TAIL_REFUSED_ATTR

    calls = []

    def adopt(loop):
        kernel = kernel_of(loop)
        calls.append(loop)
        if len(calls) > 1:
            return "again"
        kernel.attributes[KEPT_TAIL_ATTR] = ir.UnitAttr.get()
        ir.InsertionPoint(kernel).insert(kernel.clone())
        kernel.erase()
        if refused:
            raise PipelineError("the pair is refused")
        return None

    with new_context() as ctx:
        module = ir.Module.parse(_TWO_STEPS, ctx)
        loop = walk_ops(module.operation, lambda op: op.name == "scf.for")[0]
        assert kept_or_peeled(loop, adopt) == ("again" if refused else None)
        assert module.operation.verify()
        funcs = walk_ops(module.operation, lambda op: op.name == "func.func")
        assert [ir.StringAttr(f.attributes["sym_name"]).value for f in funcs] == ["other", "k"]
        assert KEPT_TAIL_ATTR not in funcs[1].attributes
        assert len(calls) == (2 if refused else 1)
        if refused:
            assert TAIL_REFUSED_ATTR in calls[1].attributes
