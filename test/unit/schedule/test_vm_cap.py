"""The 4-wave schedule's ``dma=dword`` option and its ``vmcnt`` waits capped at the
counter's limit (pipeline_mlir/schedule/vm_cap.py)."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule.types import WAIT_LGKM, WAIT_VM, OpDesc, Phase, ScheduleEntry
from pipeline_mlir.schedule.vm_cap import cap_vm_waits
from pipeline_mlir.schedules.fourwave import DWORD_PIECES
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.target.gfx950 import VMCNT_MAX
from pipeline_mlir.tools.pipeline_opt import main

TILE = "dtype=bf16 BM=256 BN=256 BK=64"


def _entry(op: OpDesc) -> ScheduleEntry:
    return ScheduleEntry(op=op, time_slot=0, phase=Phase.KERNEL)


def _waits(c, tag=WAIT_VM):
    return [[e.op.wait_value if e.op.tag == tag else None for e in ph]
            for ph in (c.prologue, c.kernel, c.epilogue)]


def test_cap_lowers_only_vm_waits_over_the_limit():
    got = cap_vm_waits([_entry(OpDesc.wait_vm(VMCNT_MAX + 1)), _entry(OpDesc.wait_vm(5)),
                        _entry(OpDesc.wait_vm(VMCNT_MAX)), _entry(OpDesc.wait_lgkm(40))])
    assert [(e.op.tag, e.op.wait_value) for e in got] == [
        (WAIT_VM, VMCNT_MAX), (WAIT_VM, 5), (WAIT_VM, VMCNT_MAX), (WAIT_LGKM, 40)]


def test_dword_waits_are_the_x4_waits_in_dwords_capped():
    """The dword schedule is the x4 one entry for entry; each vmcnt is the x4 count in
    dword DMAs, lowered to 63 where it is over (a stronger wait), and some are over."""
    x4 = parse_pipeline(f"4wave{{{TILE}}}").compile()
    dword = parse_pipeline(f"4wave{{{TILE} dma=dword}}").compile()
    assert [e.op.tag for ph in (x4.prologue, x4.kernel, x4.epilogue) for e in ph] == \
        [e.op.tag for ph in (dword.prologue, dword.kernel, dword.epilogue) for e in ph]
    over = 0
    for a, b in zip(_waits(x4), _waits(dword)):
        for wa, wb in zip(a, b):
            assert (wa is None) == (wb is None)
            if wa is not None:
                assert wb == min(wa * DWORD_PIECES, VMCNT_MAX)
                over += wa * DWORD_PIECES > VMCNT_MAX
    assert over
    assert _waits(x4, WAIT_LGKM) == _waits(dword, WAIT_LGKM)


def test_the_same_counts_without_the_cap_are_refused():
    """The cap is the dword option's: the same vmcnt per load given as overrides still
    fails the limit check (nothing is clamped silently)."""
    spec = f"4wave{{{TILE} vm_per_load_a=16 vm_per_load_b=16}}"
    with pytest.raises(ConfigError, match=r"WAIT_VM waits for vmcnt\(\d+\), over the gfx950"):
        parse_pipeline(spec).compile()


def test_the_limit_check_still_runs_after_the_cap():
    """A capped schedule goes through check_wait_limits too (an lgkmcnt over is refused)."""
    with pytest.raises(ConfigError, match=r"WAIT_LGKM waits for lgkmcnt"):
        parse_pipeline("4wave{BM=1024 dma=dword}").compile()


@pytest.mark.parametrize("spec, message", [
    ("4wave{dtype=mxfp4 BM=256 BN=256 BK=128 dma=dword}",
     "option 'dma=dword' needs an unscaled dtype: dtype=mxfp4"),
    (f"4wave{{{TILE} dma=dword vm_per_load_b=8}}",
     "options 'dma=dword' and 'vm_per_load_b' both set the vmcnt per global load"),
    ("4wave{dma=dwordx2}", "dma"),
])
def test_bad_dma_options_are_one_message(capsys, spec, message):
    assert main([f"--pipeline={spec}", "--emit=schedule"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and err.count("error:") == 1
    assert message in err, err


@pytest.mark.parametrize("emit", ["mlir", "asm"])
def test_the_kernel_emit_kinds_refuse_dword(capsys, tmp_path, emit):
    out = tmp_path / "out"
    assert main([f"--pipeline=4wave{{{TILE} dma=dword}}", f"--emit={emit}", "-o", str(out)]) == 1
    _, err = capsys.readouterr()
    assert "option 'dma=dword' has no complete kernel yet" in err and not out.exists(), err
    assert main([f"--pipeline=4wave{{{TILE} dma=dword}}", "--emit=schedule", "-o", str(out)]) == 0
