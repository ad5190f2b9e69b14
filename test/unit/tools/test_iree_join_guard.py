"""IREE's f16 ``A x B^T`` 16x105x477 with C truncated to f8E5M2 (its default build): the
readers of the last MFMAs behind a join of paths that LLVM 22 counts short.

Each element of C is converted (``v_cvt_pk_bf8_f32``) and stored by a masked byte store in
a block of its own after the last MFMA; on the path where ``s_cbranch_execz`` skips the
first store, the next conversion read the MFMA's result 7 wait states after it (8 needed):
LLVM's hazard recognizer counts the path it walks first (``test_llvm_join.py``), and the
build's ISA check refused the late form's kernel (finding 69 of docs/iree-audits.md).  The
lowering now puts the wait states of every XDL MFMA's readers itself
(``lowering/xdl_window.py``): both forms give one schedule and the late form is exact in
late mode; without the guard the same build is refused at the kernel, naming the
conversion, the MFMA and both counts.  A loop run as written is pinned before the guard
after it (its results read by an empty asm), which LLVM otherwise bypasses by sinking the
unrolled loop's last MFMAs past it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from iree_configs import G
from build_cache import ENV as BUILD_CACHE_ENV
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree
from test_iree_reroll import _forms_agree_exact

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import epilogues as E  # noqa: E402

pytestmark = pytest.mark.usefixtures("shared_code_objects")


@pytest.fixture(scope="module")
def forms():
    return G.forms(E.epilogue_source("trunc_f8E5M2", "f16", m=16, n=105, k=477))


@needs_iree
def test_the_join_after_the_last_mfma_is_guarded(forms, tmp_path, capsys):
    _forms_agree_exact(tmp_path, forms, capsys, "late")
    rc = main(["--pipeline=4wave", str(tmp_path / "late.mlir"), "--emit=asm"])
    asm, err = capsys.readouterr()
    assert rc == 0, err
    # the last guard opened (lowering/open_guards.py: the conversions' VALU may cross it,
    # into straight code after the MFMAs, the s_nop stays between its fences)
    assert re.search(r"; sched_barrier mask\(0x00000402\)\n(\s*;;#ASM\w+\n)*\s*s_nop 7\n"
                     r"\s*; sched_barrier mask\(0x00000402\)", asm), "no 8-wait-state guard"


@needs_iree
def test_without_the_guard_the_build_is_refused(forms, tmp_path, capsys, monkeypatch):
    """The guards of MFMAs of fewer than 16 passes turned off (``sched-lower-to-rocdl``'s
    and ``sched-xdl-guard``'s walk finds none): LLVM's count stands and the ISA check
    refuses the late form's kernel at its function."""
    from pipeline_mlir.lowering import xdl_window

    monkeypatch.delenv(BUILD_CACHE_ENV, raising=False)
    monkeypatch.setattr(xdl_window, "_xdl", xdl_window._window)
    path = tmp_path / "late.mlir"
    path.write_text(forms["late"])
    rc = main(["--pipeline=4wave", str(path), "--emit=asm", "-o", str(tmp_path / "k.s")])
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err and not (tmp_path / "k.s").exists(), out + err
    assert re.search(r"late\.mlir:\d+:\d+: error: kernel '\w+': ISA check: wait-states in the "
                     r"function at 'v_cvt_pk_bf8_f32 [^']*' \(assembly line \d+\): "
                     r"v_cvt_pk_bf8_f32 \(line \d+\) touches v\d+ 7 wait states after "
                     r"v_mfma_f32_16x16x32_f16 \(line \d+\) writes it on some path; the "
                     r"MFMA's result needs 8", err), err


@needs_iree
def test_a_loop_run_as_written_is_pinned_before_its_guard(tmp_path, monkeypatch):
    """IREE's bf16 ``C += A x B`` + bias + relu 161x383x256, late form, built unpipelined
    (the reference the mutation campaign compares against): LLVM unrolls the K-loop of 2
    trips and, with only the guard after it, sinks 28 of its 64 MFMAs past the guard, one
    result's register overwritten 7 wait states after its MFMA behind the join of a masked
    load (8 needed).  The guard's empty asm reading the loop's results keeps every MFMA
    before it: no finding on any path.  Without that asm the finding is back."""
    from pipeline_mlir.emu.hazard_paths import path_violations
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.lowering import xdl_window

    monkeypatch.delenv(BUILD_CACHE_ENV, raising=False)
    src = E.epilogue_source("accumulate_bias_relu", "bf16", m=161, n=383, k=256, b_kxn=True)
    path = tmp_path / "late.mlir"
    path.write_text(G.forms(src)["late"])

    def found() -> list:
        out = tmp_path / "k.s"
        assert main(["--pass-pipeline=builtin.module()", str(path), "--emit=asm", "-o",
                     str(out)]) == 0
        asm = out.read_text()
        assert re.search(r"; sched_barrier mask\(0x00000000\)\n\s*s_nop 7\n", asm)
        return [(v.violation.rule.name, v.violation.required, v.violation.present)
                for v in path_violations(load_kernel(asm))]
    assert found() == []
    monkeypatch.setattr(xdl_window, "keep_accumulators", lambda values, agprs: None)
    assert ("mfma-d-valu", 8, 7) in found()
