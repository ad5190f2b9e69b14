"""The 4-wave schedule's ``dma=dword`` option and its ``vmcnt`` waits capped at the
counter's limit (pipeline_mlir/schedule/vm_cap.py)."""

from __future__ import annotations

import pytest

from pipeline_mlir.errors import ConfigError
from pipeline_mlir.schedule.types import (WAIT_LGKM, WAIT_VM, OpDesc, OpRole, Phase,
                                          ScheduleEntry)
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


def _load(channel: int) -> ScheduleEntry:
    return _entry(OpDesc(tag=0, channel=channel, stage=0, subtile=0, role=OpRole.GLOBAL_LOAD))


def test_cap_keeps_whole_loads_in_flight():
    """A (channel 0) loads cost 16, B loads 8: a wait over 20 leaves in flight the last
    loads whose costs fit (looking back over the loop and then the prologue); a wait
    within the limit, and an lgkmcnt, are unchanged."""
    vm_of = (lambda op: (16, 8)[op.channel])
    pro = [_load(0), _load(1), _load(0)]
    krn = [_entry(OpDesc.wait_vm(40)), _load(1), _entry(OpDesc.wait_vm(21)),
           _entry(OpDesc.wait_vm(3)), _entry(OpDesc.wait_lgkm(40)), _load(1), _load(1)]
    epi = [_entry(OpDesc.wait_vm(30))]
    p2, k2, e2 = cap_vm_waits(pro, krn, epi, vm_of, limit=20)
    assert p2 == pro
    # before KRN[0]: the previous iteration's B, B (16), then its B (24 > 20): 16, but
    # the B load (8) before the next WAIT_VM would make 24 outstanding: 20 - 8 = 12, which
    # records the 16 it was derived as (still a counted wait: no overflow guard)
    # before KRN[2]: B (8), then the previous iteration's B, B (24 > 20): 16
    assert [(e.op.tag, e.op.wait_value) for e in k2 if e.op.role != OpRole.GLOBAL_LOAD] == [
        (WAIT_VM, 12), (WAIT_VM, 16), (WAIT_VM, 3), (WAIT_LGKM, 40)]
    assert [(e.op.derived_count, e.op.overflow_guard) for e in k2 if e.op.tag == WAIT_VM] \
        == [(16, False), (None, False), (None, False)]
    assert [e.op.order_count() for e in k2 if e.op.tag == WAIT_VM] == [16, 16, 3]
    assert [e.op.wait_value for e in e2] == [16]
    # the first wait of a loop that follows only the prologue: A (16), then B (24 > 20)
    _, k3, _ = cap_vm_waits(pro, [_entry(OpDesc.wait_vm(40))], [], vm_of, limit=20)
    assert k3[0].op.wait_value == 16


def test_a_wait_leaves_room_for_the_loads_before_the_next():
    """A wait within the limit whose following loads (up to the next WAIT_VM) would overflow
    the counter is lowered to the room they leave, inside a load if need be, recording the
    count it replaces (not an overflow guard: the order checks pin that count's cut); loads
    after the next WAIT_VM do not count, nor does an lgkmcnt wait."""
    vm_of = (lambda op: (16, 8)[op.channel])
    krn = [_entry(OpDesc.wait_vm(10)), _entry(OpDesc.wait_lgkm(0)), _load(0),
           _entry(OpDesc.wait_vm(4)), _load(1), _load(1)]
    _, k2, _ = cap_vm_waits([], krn, [], vm_of, limit=20)
    waits = [e.op for e in k2 if e.op.tag == WAIT_VM]
    assert [(w.wait_value, w.derived_count, w.overflow_guard) for w in waits] == [
        (4, 10, False), (4, None, False)]
    # with room enough, nothing changes
    _, k4, _ = cap_vm_waits([], krn, [], vm_of, limit=26)
    assert k4 == krn
    # without guards the counts within the limit stay, and nothing is marked
    _, k5, _ = cap_vm_waits([], krn, [], vm_of, limit=20, guards=False)
    assert k5 == krn
    k6 = cap_vm_waits([], [_load(0), _entry(OpDesc.wait_vm(40)), _load(1), _load(1)], [],
                      vm_of, limit=20, guards=False)[1]
    assert [(e.op.wait_value, e.op.derived_count, e.op.overflow_guard) for e in k6
            if e.op.tag == WAIT_VM] == [(16, None, False)]


def test_dword_waits_are_the_x4_waits_in_dwords_capped():
    """The dword schedule's loop and epilogue are the x4 ones entry for entry (its
    prologue: see below); each vmcnt is the x4 count in
    dword DMAs, or, where that is over 63, the largest number of whole loads that fits
    (every load of this tile is 16 dword DMAs: 48), and some are over."""
    x4 = parse_pipeline(f"4wave{{{TILE} dma=x4}}").compile()
    spec = parse_pipeline(f"4wave{{{TILE} dma=dword}}")
    dword = spec.compile()
    assert spec.vm_per_load == (16, 16)
    assert [e.op.tag for ph in (x4.kernel, x4.epilogue) for e in ph] == \
        [e.op.tag for ph in (dword.kernel, dword.epilogue) for e in ph]
    # the prologue: the same ops; its vmcnt waits are the counter guards of 16-DMA loads
    # (schedule/phases.py, whole loads within vmcnt), which also complete the loads its
    # bootstrap waits were for
    assert [e.op.tag for e in x4.prologue if e.op.tag != WAIT_VM] == \
        [e.op.tag for e in dword.prologue if e.op.tag != WAIT_VM]
    guards = [e.op.wait_value for e in dword.prologue if e.op.tag == WAIT_VM]
    assert guards and all(w % 16 == 0 and w + 16 <= VMCNT_MAX for w in guards)
    over = 0
    for a, b in zip(_waits(x4)[1:], _waits(dword)[1:]):
        for wa, wb in zip(a, b):
            assert (wa is None) == (wb is None)
            if wa is not None:
                want = wa * DWORD_PIECES
                capped = want if want <= VMCNT_MAX else VMCNT_MAX // 16 * 16
                # or lower, leaving room for the loads before the next vmcnt wait
                assert wb == capped or wb in _lowered(dword)
                over += want > VMCNT_MAX
    assert over and _lowered(dword) == {31}
    assert [[w for w in ph if w is not None] for ph in _waits(x4, WAIT_LGKM)] == \
        [[w for w in ph if w is not None] for ph in _waits(dword, WAIT_LGKM)]


def _lowered(c) -> set[int]:
    """The counts of the waits lowered for room among ``c``'s vmcnt waits, each checked to
    leave exactly the room of the loads before the next vmcnt wait of its phase, to record
    a whole-load derived count above it, and not to be an overflow guard."""
    out = set()
    for ph in (c.prologue, c.kernel, c.epilogue):
        for i, e in enumerate(ph):
            if e.op.tag == WAIT_VM and e.op.derived_count is not None:
                assert not e.op.overflow_guard
                assert e.op.derived_count % 16 == 0 and e.op.wait_value < e.op.derived_count
                after = 0
                for x in ph[i + 1:]:
                    if x.op.tag == WAIT_VM:
                        break
                    after += 16 if x.op.role == OpRole.GLOBAL_LOAD else 0
                assert e.op.wait_value + after == VMCNT_MAX
                out.add(e.op.wait_value)
    return out


DWORD_SPECS = [f"4wave{{{TILE} dma=dword}}", "4wave{dtype=fp8 BM=256 BN=256 BK=128 dma=dword}",
               "4wave{dtype=bf16 BM=128 BN=128 BK=64 dma=dword}"]


def _prologue_overflow(prologue, vm_per_load) -> list[str]:
    """Where ``prologue`` (DMAs a load by channel: ``vm_per_load``) lets more DMAs be in flight
    than vmcnt holds: each load that would, and each wait whose count plus the loads before
    the next vmcnt wait is over (vm_cap's room-left rule, which the prologue no longer
    takes)."""
    out, flight = [], 0
    for i, e in enumerate(prologue):
        if e.op.tag == WAIT_VM:
            flight = min(flight, e.op.wait_value)
            after = 0
            for x in prologue[i + 1:]:
                if x.op.tag == WAIT_VM:
                    break
                after += vm_per_load[x.op.channel] if x.op.role == OpRole.GLOBAL_LOAD else 0
            if e.op.wait_value + after > VMCNT_MAX:
                out.append(f"room-left rule lowers PRO[{i}]")
        elif e.op.role == OpRole.GLOBAL_LOAD:
            flight += vm_per_load[e.op.channel]
            if flight > VMCNT_MAX:
                out.append(f"PRO[{i}] overflows vmcnt")
    return out


@pytest.mark.parametrize("spec", DWORD_SPECS)
def test_the_prologue_guard_is_the_only_one_needed(spec):
    """The prologue's derived whole-load guards (phases._counter_guard) keep every load
    within vmcnt, so vm_cap's room-left rule, which no longer runs on the prologue, would
    lower none of its waits; vm_cap returns the prologue as derived (and the lowered
    loop waits are unchanged: ``test_dword_waits_are_the_x4_waits_in_dwords_capped``)."""
    s = parse_pipeline(spec)
    c = s.compile()
    assert any(e.op.tag == WAIT_VM for e in c.prologue)
    assert _prologue_overflow(c.prologue, s.vm_per_load) == []
    assert all(e.op.derived_count is None for e in c.prologue if e.op.tag == WAIT_VM)


def test_without_the_prologue_guard_the_overflow_is_refused(monkeypatch):
    """Negative: with phases._counter_guard taken out, the prologue's eight loads of 16 DMAs
    have no wait before them (the room-left rule only lowers waits there are, so it never
    guarded these) and the bootstrap wait is vmcnt(112): the limit check refuses it, one
    message.  A guard weakened by one load is what the room-left rule would have lowered
    (the helper above sees it)."""
    from pipeline_mlir.records import replace
    from pipeline_mlir.schedule import phases

    spec = parse_pipeline(DWORD_SPECS[0])
    c = spec.compile()
    first = next(i for i, e in enumerate(c.prologue) if e.op.tag == WAIT_VM)
    c.prologue[first] = replace(c.prologue[first], op=OpDesc.wait_vm(48))
    assert _prologue_overflow(c.prologue, spec.vm_per_load) == [
        f"room-left rule lowers PRO[{first}]", f"PRO[{first + 1}] overflows vmcnt"]

    def unguarded(flight, cost):
        flight.append(cost)
        return []

    monkeypatch.setattr(phases, "_counter_guard", unguarded)
    with pytest.raises(ConfigError, match=r"PRO\[\d+\] WAIT_VM waits for vmcnt\(112\), "
                                          r"over the gfx950 limit"):
        parse_pipeline(DWORD_SPECS[0]).compile()


def test_the_same_counts_without_the_cap_are_refused():
    """The cap is the dword option's: the same vmcnt per load given as overrides still
    fails the limit check (nothing is clamped silently)."""
    spec = f"4wave{{{TILE} dma=x4 vm_per_load_a=16 vm_per_load_b=16}}"
    with pytest.raises(ConfigError, match=r"WAIT_VM waits for vmcnt\(\d+\), over the gfx950"):
        parse_pipeline(spec).compile()


def _phases_of(spec: str, **kw):
    """The phases of ``spec``'s schedule, derived as ``sched-expand-phases`` derives them."""
    from pipeline_mlir.schedule import stages

    s = parse_pipeline(spec).build()
    body = s.build_body()
    edges = stages.edges(s, body)
    order, _ = stages.order(s, body, edges)
    program, _ = stages.blocks(s, body, edges, order)
    return s, stages.phases(s, body, edges, program, **kw)


def test_an_input_kernels_counts_are_capped_not_refused():
    """Counts that are an input kernel's (a concrete pipeline: IREE's bf16 ``A^T x B``
    522x653x704 copies through registers in narrow pieces, vmcnt(72)) get the dword
    schedules' cap: every wait within the counter, each lowered one recording the count it
    replaces; the same counts given as the pipeline's own options are refused (the test
    above), and counts within the limit are left as derived."""
    spec = f"4wave{{{TILE} dma=x4 vm_per_load_a=16 vm_per_load_b=16}}"
    s, ph = _phases_of(spec, input_counts=True)
    waits = [e.op for e in ph.prologue + ph.kernel + ph.epilogue if e.op.tag == WAIT_VM]
    assert s.cap_vm_waits and waits and max(w.wait_value for w in waits) <= VMCNT_MAX
    assert any(w.derived_count is not None and w.derived_count > w.wait_value for w in waits)
    plain = f"4wave{{{TILE} dma=x4}}"
    s, capped = _phases_of(plain, input_counts=True)
    assert not s.cap_vm_waits
    assert [e.op for e in capped.kernel] == [e.op for e in _phases_of(plain)[1].kernel]


def test_the_limit_check_still_runs_after_the_cap(monkeypatch):
    """A capped schedule goes through check_wait_limits too: with the lgkmcnt cap of split
    loads taken away, its lgkmcnt(32) is refused after the vm cap."""
    from pipeline_mlir.schedule import stages
    monkeypatch.setattr(stages, "cap_long_load_waits", lambda ph: None)
    with pytest.raises(ConfigError, match=r"WAIT_LGKM waits for lgkmcnt\(32\)"):
        parse_pipeline("4wave{BM=1024 dma=dword}").compile()


@pytest.mark.parametrize("spec, message", [
    ("4wave{dtype=mxfp4 BM=256 BN=256 BK=128 vm_per_load_b=5}",
     "option 'vm_per_load_b=5' contradicts 'dma=auto' (dword for this tile; give dma=x4 for "
     "x4 DMAs), which issues 9 DMAs per load"),
    (f"4wave{{{TILE} dma=dword vm_per_load_b=8}}",
     "option 'vm_per_load_b=8' contradicts 'dma=dword', which issues 16 DMAs per load"),
    ("4wave{dma=dwordx2}", "dma"),
    (f"4wave{{{TILE} vm_per_load_a=8}}",
     "option 'vm_per_load_a=8' contradicts 'dma=auto' (dword for this tile; give dma=x4 for "
     "x4 DMAs), which issues 16 DMAs per load"),
    (f"4wave{{{TILE} vm_per_load_a=4 vm_per_load_b=16}}",
     "option 'vm_per_load_a=4' contradicts 'dma=auto' (dword for this tile; give dma=x4 for "
     "x4 DMAs), which issues 16 DMAs per load"),
])
def test_bad_dma_options_are_one_message(capsys, spec, message):
    assert main([f"--pipeline={spec}", "--emit=schedule"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and err.count("error:") == 1
    assert message in err, err




@pytest.mark.parametrize("options, width", [
    (TILE, "dword"), (f"{TILE} dma=auto", "dword"), (f"{TILE} dma=x4", "x4"),
    (f"{TILE} mfma=32x32x16", "x4"), ("dtype=bf16 BM=256 BN=256 BK=128", "x4"),
    ("dtype=fp8 BM=256 BN=256 BK=128", "x4"), ("dtype=bf16 BM=128 BN=128 BK=64", "x4"),
    ("dtype=mxfp4 BM=256 BN=256 BK=128", "dword"), ("dtype=mxfp8 BM=256 BN=256 BK=128", "x4"),
    ("dtype=mxfp4 BM=256 BN=256 BK=128 dma=x4", "x4"),
    ("dtype=bf16 BM=128 BN=128 BK=64 dma=dword", "dword"),
    # the x4 counts given (what the front end reads from an input issuing x4 copies)
    (f"{TILE} vm_per_load_a=4", "x4"), (f"{TILE} vm_per_load_a=4 vm_per_load_b=4", "x4"),
    (f"{TILE} vm_per_load_a=16", "dword"),
])
def test_dma_auto_follows_the_timing_rule(options, width):
    """dma=auto (the default) takes dword DMAs where the timing rule says they are faster
    (schedules/dma_rule.py: BF16 256x256x64, MXFP4 256x256), x4 elsewhere (BF16 256x256x128:
    vmcnt holds one load of 32); a given width is kept, for the MX kernels too.  The schedule
    follows: dword counts and capped waits exactly when the width is dword."""
    spec = parse_pipeline(f"4wave{{{options}}}")
    assert spec.dma_width() == width
    dword = width == "dword"
    assert spec.geometry().dma_pieces == (DWORD_PIECES if dword else 1)
    assert spec.build().cap_vm_waits is dword
