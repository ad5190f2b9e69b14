"""The MX scale tiles as channels of their own in the 4-wave schedule (channels 2 and 3:
``LOAD_SA/SB``, ``MMA_LOAD_SA/SB``): the body, the counts, the blocks, the waits."""

import pytest

from pipeline_mlir.errors import ConfigError, VerificationError
from pipeline_mlir.schedule.compiler import compile_schedule
from pipeline_mlir.schedule.program_builder import verify_schedule
from pipeline_mlir.schedule.targets import (FRAG_TAGS, LOAD_SA, LOAD_TAGS, MMA_LOAD_SB,
                                            mi355x_cost_model, mi355x_double_buffer)
from pipeline_mlir.schedule.types import OpRole
from pipeline_mlir.schedules.fourwave import (Pipeline4Wave, kernel_schedule_config,
                                              kernel_target, scale_channel_counts)
from pipeline_mlir.schedules.registry import parse_pipeline

MX_SPECS = ("4wave{dtype=mxfp4 BM=128 BN=128 BK=256}", "4wave{dtype=mxfp4 BM=128 BN=128 BK=128}",
            "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}", "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}")
PHASES = ("prologue", "kernel", "epilogue")


def _schedule(spec: str, scale_channel: bool):
    ns = parse_pipeline(spec)
    g = ns.geometry()
    return Pipeline4Wave(g, ns.apply_config(kernel_schedule_config(g)), kernel_target(g),
                         scale_channel=scale_channel)


def _ops(compiled, phase):
    return [e.op for e in getattr(compiled, phase)]


@pytest.mark.parametrize("spec", MX_SPECS)
def test_counts_split_between_element_and_scale_ops(spec):
    g = parse_pipeline(spec).geometry()
    c = _schedule(spec, True).config()
    # one scale read per MFMA operand of a warp's quadrant: 2 x 2 warps of 16-row MFMAs
    k_steps = {"mxfp4": g.BK // 128, "mxfp8": g.BK // 128}[g.dtype]
    for n, rows in (("a", g.BM), ("b", g.BN)):
        reads = rows // 2 // 16 // 2 * k_steps
        assert getattr(c, f"vm_per_load_{n}") + getattr(c, f"vm_per_load_s{n}") == \
            getattr(g, f"vm_per_load_{n}")
        assert getattr(c, f"vm_per_load_s{n}") == getattr(g, f"scale_loads_{n}") >= 1
        assert getattr(c, f"lgkm_per_load_s{n}") == reads >= 1
        assert getattr(c, f"lgkm_per_load_{n}") + reads == getattr(g, f"lgkm_per_load_{n}")
    assert c.lgkm_per_load() == (c.lgkm_per_load_a, c.lgkm_per_load_b, c.lgkm_per_load_sa,
                                 c.lgkm_per_load_sb)
    assert [c.vm_per_channel(ch) for ch in range(4)] == [
        c.vm_per_load_a, c.vm_per_load_b, c.vm_per_load_sa, c.vm_per_load_sb]


@pytest.mark.parametrize("spec", MX_SPECS)
def test_each_scale_op_follows_its_element_op_with_the_same_waits(spec):
    """Every phase of the channel's schedule is the element-only schedule with each
    element load followed by its scale tile's load (same stage, subtile, K offset), and
    every wait count the same: the scale ops are counted as ops of their own, and no wait
    falls between an element op and its scale op."""
    plain = compile_schedule(_schedule(spec, False))
    chan = compile_schedule(_schedule(spec, True))
    body = _schedule(spec, True).declare_ops()
    assert {o.tag for o in body} >= set(LOAD_TAGS) | set(FRAG_TAGS)
    for phase in PHASES:
        ops = _ops(chan, phase)
        for i, o in enumerate(ops):
            if o.channel >= 2:
                prev = ops[i - 1]
                assert (prev.channel, prev.stage, prev.subtile, prev.k_offset) == \
                    (o.channel - 2, o.stage, o.subtile, o.k_offset), (phase, i)
                want = (LOAD_TAGS if o.role == OpRole.GLOBAL_LOAD else FRAG_TAGS)[o.channel]
                assert o.tag == want
        key = [(o.tag, o.channel, o.stage, o.subtile, o.wait_value) for o in ops
               if o.channel < 2]
        assert key == [(o.tag, o.channel, o.stage, o.subtile, o.wait_value)
                       for o in _ops(plain, phase)], phase
        assert sum(o.channel >= 2 for o in ops) >= 2


def test_scale_op_costs_are_registered():
    m = mi355x_cost_model()
    assert m.get_cost(LOAD_SA).role == OpRole.GLOBAL_LOAD
    assert m.get_cost(MMA_LOAD_SB).role == OpRole.FRAGMENT_LOAD


def test_verifier_refuses_a_scale_read_apart_from_its_element_read():
    s = _schedule(MX_SPECS[0], True)
    chan = compile_schedule(s)
    program = chan.program
    blk = next(b for b in program.blocks if b.pre_op_1.is_present())
    scale = blk.pre_op_1
    blk.pre_op_0, blk.pre_op_1 = blk.pre_op_1, blk.pre_op_0
    sched = s.schedule_config()
    with pytest.raises(VerificationError, match=rf"scale op tag {scale.tag} \(channel "
                       rf"{scale.channel}.*does not follow its element tile's load"):
        verify_schedule(program, s.config(), sched.lgkm_per_load_a, sched.lgkm_per_load_b,
                        sched.wait_lgkm_first, sched.wait_vm_last)


def test_scale_channel_needs_scale_tiles_and_both_counts():
    g = parse_pipeline("4wave{dtype=fp8 BM=128 BN=128 BK=128}").geometry()
    with pytest.raises(ConfigError, match="dtype=fp8 has no scale tiles"):
        scale_channel_counts(g)
    with pytest.raises(ConfigError, match="vm_per_load_sa=1, lgkm_per_load_sa=0"):
        mi355x_double_buffer().with_(vm_per_load_sa=1)


@pytest.mark.parametrize("option, message", [
    ("vm_per_load_a=1", "pipeline '4wave': option 'vm_per_load_a=1': a load of A counts its element tile's "
                        "instructions and its scale tile's 1 .*give at least 2"),
    ("lgkm_per_load_b=4", "option 'lgkm_per_load_b=4': a load of B counts its element tile's "
                          "instructions and its scale tile's 4 .*give at least 5"),
])
def test_an_operand_count_without_room_for_its_scales_is_an_error(option, message):
    spec = MX_SPECS[0][:-1] + f" {option}}}"
    with pytest.raises(ConfigError, match=message):
        parse_pipeline(spec).compile()
