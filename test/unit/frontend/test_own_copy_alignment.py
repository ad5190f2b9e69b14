"""The front end's own copies start aligned to what they move (finding 95 of
``docs/iree-audits.md``).

Where IREE's copies do not split into the schedule's subtiles the front end issues copies of
its own (``frontend/layout.py``), each of a width ``copy_widths.py`` picks.  A
direct-to-LDS copy of 4 or 16 bytes a lane must start at a multiple of that in every
workgroup, K step and launch (what the hardware's DMA wants; the emulator reads any address,
so only a proof shows it): its emitted indices are proven so (``dword_runs.unaligned_refusal``:
the byte offset's terms and the buffer's start as the kernel states it or its own
direct-to-LDS copies imply it), else the kernel's
copy is refused, located; a kept channel's own copies of a kernel's 2-byte register copies are
direct-to-LDS copies only where the buffer's start is stated aligned too, else staged through
registers as the kernel copied.  The inputs are committed IREE kernels
(``test/lit/passes/Inputs``) with a binding stated less aligned.
"""

from __future__ import annotations

import re
from pathlib import Path

from pipeline_mlir.tools.pipeline_opt import main

INPUTS = Path(__file__).parents[2] / "lit" / "passes" / "Inputs"
ADOPT = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"


def _stated(name: str, binding: int, value: str, align: int) -> str:
    """The late form ``name`` with binding ``binding`` (memref ``value``) stated aligned to
    ``align`` bytes (its ``alignment`` and its ``memref.assume_alignment``)."""
    text = (INPUTS / name).read_text(encoding="utf-8")
    bind, assume = f"binding({binding}) alignment", f"memref.assume_alignment {value},"
    for old, new in ((f"{bind}(64)", f"{bind}({align})"), (f"{assume} 64", f"{assume} {align}")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def _run(capsys, tmp_path, text: str) -> tuple[int, str]:
    src = tmp_path / "k.mlir"
    src.write_text(text)
    rc = main([str(src), ADOPT])
    out, err = capsys.readouterr()
    return rc, out + err


def test_own_dma_copies_need_the_start_their_kernel_copies_imply(capsys, tmp_path):
    """bf16 ``A x B^T`` 17x1024x512: the front end copies A 16 bytes a lane.  A's binding
    stated aligned to 8 bytes only, the kernel's own 16-byte direct-to-LDS copies of A, at
    offsets proven multiples of 16, imply its start aligned to 16 (``dword_runs.
    implied_base_zeros``; a stated alignment is a lower bound): pipelined.  Where nothing
    implies it (a guarded, staged or misaligned kernel copy: ``test_dword_runs.py``) the
    own copies are refused at the kernel's copy, located (``test_dword_runs.py``'s
    ``unaligned_refusal`` cases)."""
    text = _stated("iree-bf16-abt-17x1024x512.late.mlir", 0, "%0", 8)
    rc, out = _run(capsys, tmp_path, text)
    assert rc == 0, out
    assert "Traceback" not in out


def test_own_copies_of_narrow_copies_are_staged_unless_the_start_is_stated(capsys,
                                                                           tmp_path):
    """f16 ``A x B`` 100x24x520: B's copies are IREE's 2-byte register loads, which the
    front end's own copies make 4 bytes a lane, direct-to-LDS where proven aligned (the
    kept mask's runs, ``layout._kept_plan``).  B's binding stated aligned to 2 bytes: they
    stay register-staged (before: direct-to-LDS copies from a start proven to 2 bytes)."""
    name = "iree-f16-ab-100x24x520.late.mlir"
    for align, staged in ((64, False), (2, True)):
        rc, out = _run(capsys, tmp_path, _stated(name, 1, "%2", align))
        assert rc == 0, out
        own = [c for c in re.findall(r"amdgpu\.gather_to_lds [^\n]*", out)
               if "memref<520x24xf16" in c and "vector<2xf16>" in c]
        assert own, out
        assert {("sched.register_staged" in c) for c in own} == {staged}, (align, own)
