"""The ping-pong schedule with a fragment load of more reads than lgkmcnt holds (IREE's 8-wave
``A x B`` / ``A^T x B^T`` at K step 128: 16 transposing reads per subtile), one entry that
the hardware's stall keeps within the counter (``pipeline_mlir/schedule/long_loads.py``):
the option's range, the derived waits over the counter's limit, and the issue-order walk
of the counted waits over such a load (``pipeline_mlir/kernel/wait_order.py``)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from derived_waits import hazards_past_derived
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.kernel.wait_order import _cut
from pipeline_mlir.schedule import stages
from pipeline_mlir.schedule.types import WAIT_FRAG, WAIT_LGKM, OpDesc, OpRole
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.target.gfx950 import LGKMCNT_MAX
from pipeline_mlir.tools.pipeline_opt import main

#: A's fragment load 16 reads, B's 4: the A^T x B^T kernel's counts
SPLIT_A = "pingpong{lgkm_per_load_a=16 lgkm_per_load_b=4 vm_per_load_a=2 vm_per_load_b=2}"
#: B's 16 (A x B): the read of A after B's overflows; sched-fix-hazards adds the waits
SPLIT_B = "pingpong{lgkm_per_load_a=4 lgkm_per_load_b=16 vm_per_load_a=2 vm_per_load_b=2}"


def _waits(capsys, spec: str) -> list[int]:
    assert main([f"--pipeline={spec}", "--emit=schedule-json"]) == 0
    d = json.loads(capsys.readouterr().out)
    return [e["wait_value"] for phase in d["phases"].values() for e in phase
            if e["name"] in ("WAIT_LGKM", "WAIT_FRAG")]


@pytest.mark.parametrize("spec", [SPLIT_A, SPLIT_B])
def test_the_kernel_with_its_fixes_is_safe(spec, capsys):
    assert main(["--simulate", f"--pipeline={spec}"]) == 0
    out = capsys.readouterr().out
    assert ": safe for main loops of 0..6 iterations: no hazard" in out, out


def test_derived_waits_over_the_limit_become_the_limit(capsys):
    """After A's 16 reads the wait lets them all stay in flight (lgkmcnt(16)): the hardware
    already keeps at most 15 in flight, so lgkmcnt(15) (stronger) stands."""
    waits = _waits(capsys, SPLIT_A)
    assert max(waits) == LGKMCNT_MAX and waits.count(LGKMCNT_MAX) >= 2, waits


def test_without_the_cap_the_wait_is_over_the_limit(monkeypatch, capsys):
    """The cap is what makes the schedule encodable: without it the limit check refuses."""
    monkeypatch.setattr(stages, "cap_long_load_waits", lambda ph: None)
    assert main([f"--pipeline={SPLIT_A}", "--emit=schedule"]) == 1
    err = capsys.readouterr().err
    assert "WAIT_LGKM waits for lgkmcnt(16), over the gfx950 limit lgkmcnt <= 15" in err, err


def test_waits_of_loads_that_fit_are_not_capped(capsys):
    """A schedule whose loads fit the counter keeps its derived counts (none reaches 15)."""
    assert max(_waits(capsys, "pingpong{lgkm_per_load_a=8 lgkm_per_load_b=4}")) < LGKMCNT_MAX


def test_cap_changes_only_waits_over_the_limit():
    ops = [OpDesc.wait_lgkm(16), OpDesc.wait_frag(17), OpDesc.wait_lgkm(9)]
    ph = stages.Phases(kernel=[stages.ScheduleEntry(op, i, None) for i, op in enumerate(ops)])
    stages.cap_long_load_waits(ph)
    assert [(e.op.tag, e.op.wait_value, e.op.derived_count) for e in ph.kernel] == \
        [(WAIT_LGKM, 15, 16), (WAIT_FRAG, 15, 17), (WAIT_LGKM, 9, None)]


@pytest.mark.parametrize("spec", [SPLIT_A, "4wave{BK=256}"])
def test_a_capped_wait_records_the_count_it_replaces(spec, monkeypatch):
    """Each wait lowered to lgkmcnt(15) keeps the count the schedule derived
    (``OpDesc.derived_count``, vm_cap's record): the order walks pin that count's cut."""
    derived, cap = [], stages.cap_long_load_waits

    def spy(ph):
        derived.extend(e.op.wait_value for p in (ph.prologue, ph.kernel, ph.epilogue)
                       for e in p if e.op.tag in (WAIT_LGKM, WAIT_FRAG)
                       and e.op.wait_value > LGKMCNT_MAX)
        cap(ph)

    monkeypatch.setattr(stages, "cap_long_load_waits", spy)
    ph = parse_pipeline(spec).compile()
    capped = [(e.op.wait_value, e.op.derived_count) for p in (ph.prologue, ph.kernel,
              ph.epilogue) for e in p if e.op.derived_count is not None]
    assert derived and capped == [(LGKMCNT_MAX, n) for n in derived]


def test_a_capped_wait_weakened_past_its_derived_count_is_caught():
    """The 4-wave BK=256 loop's capped waits (lgkmcnt(15), derived 16) set one read over the
    derived count: the simulator finds the write-after-read they guarded, and the
    lowering's order walk refuses the count (before the record, 17 was walked as its own
    derived count and passed)."""
    safe, kinds = hazards_past_derived("4wave{BK=256}")
    assert safe and "war" in kinds, kinds
    weak = OpDesc.wait_lgkm(LGKMCNT_MAX + 2).with_(derived_count=LGKMCNT_MAX + 1)
    with pytest.raises(ConfigError, match=r"s_waitcnt lgkmcnt\(17\) is weaker than the "
                                          r"count its schedule derived \(16\)"):
        _cut(_stream(_read(1), _read(0), weak), 2, SHAPE, [PART], strict=True)


def test_the_option_takes_at_most_four_times_the_counter(capsys):
    assert main(["--pipeline=pingpong{lgkm_per_load_a=61}", "--emit=schedule"]) == 1
    err = capsys.readouterr().err
    assert "option 'lgkm_per_load_a' is out of range: expects an integer in 0..60, got 61" in err


# ---------------------------------------------------------------------------------------------
# the issue-order walk of a counted wait over a long load
# ---------------------------------------------------------------------------------------------

PART = object()
SHAPE = SimpleNamespace(vm_per_load=(2, 2), lgkm_per_load=(16, 4))


def _stream(*ops) -> list:
    return [SimpleNamespace(op=op, part=PART, iteration=0, phase="kernel", entry=i)
            for i, op in enumerate(ops)]


def _read(channel: int) -> OpDesc:
    return OpDesc(tag=3 + channel, channel=channel, role=OpRole.FRAGMENT_LOAD)


def test_a_wait_past_a_long_load_needs_the_loads_before_it_fenced():
    """B (4 reads), A (16), wait derived lgkmcnt(16) (capped to 15): B is complete there only
    if B's reads were issued before A's, which LLVM does not keep without a fence (it moved
    two of B's reads past A's first ones in the fourth audit's 8-wave bf16 A^T x B kernel,
    docs/iree-audits.md, and the emulator found the race): the cut is between B and A."""
    wait = OpDesc.wait_lgkm(LGKMCNT_MAX).with_(derived_count=16)
    cut = _cut(_stream(_read(1), _read(0), wait), 2, SHAPE, [PART], strict=True)
    assert cut is not None and (cut.done, cut.first) == (0, 1), cut


def test_a_wait_inside_a_long_load_is_refused():
    """lgkmcnt(15) right after A's 16 reads completes A's first read alone: a cut inside one
    entry (the hardware's stall has no order among A's reads that LLVM keeps)."""
    with pytest.raises(ConfigError, match=r"completes only part of the 16 instructions"):
        _cut(_stream(_read(1), _read(0), OpDesc.wait_lgkm(15)), 2, SHAPE, [PART],
             strict=True)


@pytest.mark.parametrize("n", [8, 12])
def test_a_wait_that_cuts_a_long_load_is_refused(n):
    """lgkmcnt(8) and lgkmcnt(12) complete A's first reads and leave the rest in flight: a
    cut inside one entry, which the lowering cannot fence."""
    stream = _stream(_read(0), OpDesc.wait_lgkm(n))
    with pytest.raises(ConfigError, match=r"completes only part of the 16 instructions"):
        _cut(stream, 1, SHAPE, [PART], strict=True)
    assert _cut(stream, 1, SHAPE, [PART], strict=False) is None


def test_a_wait_past_the_whole_long_load_is_a_cut_after_it():
    """B, then A's 16: lgkmcnt(0) relies on no order; a wait keeping only the reads after A
    in flight cuts between A and what follows (an ordinary cut between entries)."""
    stream = _stream(_read(0), _read(1), OpDesc.wait_lgkm(4))
    cut = _cut(stream, 2, SHAPE, [PART], strict=True)
    assert cut is not None and (cut.done, cut.first) == (0, 1)
