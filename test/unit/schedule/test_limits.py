"""Limits checked where they arise, on every path.

* Derived waits over the gfx950 counter limits (vmcnt <= 63, lgkmcnt <= 15) are an error
  naming the entry, the counter and the limit: the core, --emit=schedule and schedule-json,
  the MLIR passes (abstract input and the complete kernel), before any kernel is written.
  A fragment load over lgkmcnt relies on the hardware's stall instead, its waits capped at
  15.
* A double-buffer body larger than its blocks hold is refused at once (linear), before
  the edges (quadratic in the body size)."""

from __future__ import annotations

import re

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule import stages
from pipeline_mlir.target.gfx950 import LGKMCNT_MAX, VMCNT_MAX
from pipeline_mlir.schedule.types import OpDesc, Phase, ScheduleEntry
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.tools.pipeline_opt import main

OVER = [
    ("pingpong{vm_per_load_a=63}", "KRN[29] WAIT_VM waits for vmcnt(67), over the gfx950 limit "
                                   "vmcnt <= 63"),
]


@pytest.mark.parametrize("spec", ["4wave{BM=1024}", "4wave{BK=256}"])
def test_a_load_over_lgkmcnt_has_its_waits_capped(spec):
    """A fragment load of more reads than lgkmcnt holds (32 and 16 here) relies on the
    hardware's stall, which keeps at most 15 in flight (schedule/long_loads.py); the waits
    derived over 15 become lgkmcnt(15), stronger (stages.cap_long_load_waits): no wait is
    over."""
    ph = parse_pipeline(spec).compile()
    waits = [e.op.wait_value for p in (ph.prologue, ph.kernel, ph.epilogue) for e in p
             if e.op.tag in (stages.WAIT_LGKM, stages.WAIT_FRAG)]
    assert waits and max(waits) == LGKMCNT_MAX


@pytest.mark.parametrize("spec, message", OVER)
def test_the_core_refuses(spec, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("(", r"\(")
                       .replace(")", r"\)")):
        parse_pipeline(spec).compile()


@pytest.mark.parametrize("emit", ["schedule", "schedule-json", "mlir", "hsaco"])
@pytest.mark.parametrize("spec, message", OVER)
def test_every_emit_kind_refuses(capsys, tmp_path, spec, message, emit):
    if emit in ("mlir", "hsaco") and spec.startswith("pingpong"):
        # the complete kernel issues 2 vm instructions per load: that mismatch comes first
        message = "option 'vm_per_load_a=63' does not match the bf16 256x256x64 kernel"
    out = tmp_path / "out"
    code = main([f"--pipeline={spec}", f"--emit={emit}", "-o", str(out)])
    o, err = capsys.readouterr()
    assert code == 1 and o == "" and not out.exists()
    assert err.count("error:") == 1 and "Traceback" not in err
    assert err.startswith(f"pipeline-opt: error: pipeline '{spec}': ") and message in err, err


def test_the_abstract_input_path_refuses_at_the_pipeline_op(capsys, tmp_path):
    empty = tmp_path / "e.mlir"
    empty.write_text("")
    assert main([str(empty), "--pass-pipeline=builtin.module(sched-import{schedule=pingpong "
                              "vm_per_load_a=63})", "-o", str(tmp_path / "abs.mlir")]) == 0
    capsys.readouterr()
    code = main([str(tmp_path / "abs.mlir"), "--pipeline=pingpong{vm_per_load_a=63}",
                 "--emit=schedule"])
    _, err = capsys.readouterr()
    assert code == 1
    assert err.startswith(f"{tmp_path / 'abs.mlir'}:2:3: error: sched-expand-phases: KRN[29] "
                          f"WAIT_VM waits for vmcnt(67), over the gfx950 limit"), err


def entry(op, phase=Phase.KERNEL):
    return ScheduleEntry(op=op, time_slot=0, phase=phase)


def test_at_the_limits_is_accepted():
    stages.check_wait_limits(stages.Phases(kernel=[entry(OpDesc.wait_vm(VMCNT_MAX))]))
    stages.check_wait_limits(stages.Phases(epilogue=[entry(OpDesc.wait_lgkm(LGKMCNT_MAX))]))
    with pytest.raises(ConfigError, match=r"EPI\[1\] WAIT_LGKM waits for lgkmcnt\(16\)"):
        stages.check_wait_limits(stages.Phases(epilogue=[
            entry(OpDesc.wait_lgkm(0)), entry(OpDesc.wait_lgkm(16))]))
    with pytest.raises(ConfigError, match=r"PRO\[0\] WAIT_VM waits for vmcnt\(64\)"):
        stages.check_wait_limits(stages.Phases(prologue=[entry(OpDesc.wait_vm(64))]))


def test_a_huge_tile_fails_before_its_kernel_is_written(capsys, monkeypatch):
    """4wave{BM=4096 BN=4096}: the kernel would hold ~67,000 payload ops; its schedule's
    waits are over the counters, which is found before the kernel text exists."""
    from pipeline_mlir.kernel import gemm_mlir

    def never(*a, **k):
        raise AssertionError("the kernel text was generated")

    monkeypatch.setattr(gemm_mlir, "natural_kernel_mlir", never)
    code = main(["--pipeline=4wave{BM=4096 BN=4096}", "--emit=asm"])
    _, err = capsys.readouterr()
    assert code == 1
    assert "PRO[8] WAIT_VM waits for vmcnt(448), over the gfx950 limit vmcnt <= 63" in err, err


@pytest.mark.parametrize("extra, message", [
    ({"tag": 5}, "the body has 9 MMAs, but the '4wave' schedule's 8 MMA blocks take at most "
                 "8 (one per block)"),
    ({"tag": 3, "n": 9}, "the body has 17 fragment loads, but the '4wave' schedule's 8 MMA "
                         "blocks take at most 16 (at most 2 per block)"),
    ({"tag": 0, "n": 9}, "the body has 17 global loads, but the '4wave' schedule's 8 MMA "
                         "blocks take at most 16 (at most 2 per block)"),
])
def test_body_size_is_checked_before_edges(extra, message):
    from pipeline_mlir.errors import BodyError

    s = parse_pipeline("4wave").build()
    body = s.declare_ops()
    stages.check_body_size(s, body)
    op = next(o for o in body if o.tag == extra["tag"])
    bigger = body + [op] * extra.get("n", 1)
    for step in (stages.annotate, stages.reorder, stages.edges):
        with pytest.raises(BodyError, match=re.escape(message)):
            step(s, bigger)


def test_fewer_mmas_are_left_to_block_construction():
    from pipeline_mlir.errors import BodyError

    s = parse_pipeline("pingpong").build()
    body = [o for o in s.build_body() if o.tag != 5]
    stages.check_body_size(s, body)
    with pytest.raises(BodyError, match=r"expected 8 blocks \(one per MMA\), the body has "
                                        r"only 0"):
        stages.blocks(s, body, [], list(range(len(body))))


def test_single_buffer_bodies_are_not_block_shaped():
    """A body three times the declared one: refused for a double-buffer schedule (its blocks
    take one MMA each), accepted for a single-buffer one, which has no blocks to fill."""
    from pipeline_mlir.errors import BodyError

    four = parse_pipeline("4wave").build()
    with pytest.raises(BodyError, match=r"the body has 24 MMAs"):
        stages.check_body_size(four, four.declare_ops() * 3)
    s = parse_pipeline("single-buffer{T=3}").build()
    assert not stages.is_double_buffer(s)
    stages.check_body_size(s, s.declare_ops() * 3)
