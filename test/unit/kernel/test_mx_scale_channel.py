"""The MX kernels run their scale tiles as channels of the schedule (2: A's scales, 3: B's):
the tagged kernel text, the dialect's tags, the kernel shape, the ISA check's expected
instructions and the simulator see ``LOAD_SA/SB`` and ``MMA_LOAD_SA/SB`` as ops of their
own.  (The compiled kernels are checked in ``test_mx_scale_waits.py`` and
``test_mx_kernel.py``.)"""

from __future__ import annotations

import copy
import re

import pytest

from pipeline_mlir.dialect import ops as S
from pipeline_mlir.isa.skeleton import Expansion, IsaCheckError, _op_tokens
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.mx_gemm_mlir import mx_kernel_mlir
from pipeline_mlir.kernel.plan import KernelShape
from pipeline_mlir.errors import ConfigError
from pipeline_mlir.records import replace
from pipeline_mlir.schedule.targets import (FRAG_TAGS, LOAD_SA, LOAD_SB, LOAD_TAGS, MMA_LOAD_SA,
                                            MMA_LOAD_SB)
from pipeline_mlir.schedule.types import WAIT_VM, OpDesc, OpRole
from pipeline_mlir.schedules.registry import parse_pipeline
from pipeline_mlir.sim.functional import simulate
from pipeline_mlir.sim.trace import kernel_shape

SPEC = "4wave{dtype=mxfp4 BM=128 BN=128 BK=128}"
SPECS = (SPEC, "4wave{dtype=mxfp8 BM=128 BN=128 BK=128}",
         "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}")


def _ops(text: str):
    """(kind, channel, line) of each tagged op of the loop body."""
    for line in text.splitlines():
        m = re.search(r"\{sched\.(global_load|frag_load) = \{channel = (\d)", line)
        if m:
            yield m.group(1), int(m.group(2)), line


@pytest.mark.parametrize("spec", SPECS)
def test_the_tagged_kernel_writes_the_scales_in_their_own_ops(spec):
    k = gemm_kernel(parse_pipeline(spec))
    g = k.geometry
    by = {}
    for kind, ch, line in _ops(mx_kernel_mlir(k)):
        by.setdefault((kind, ch), []).append(line)
    assert set(by) == {(kind, ch) for kind in ("global_load", "frag_load") for ch in range(4)}
    for ch in (0, 1):
        # element ops: no scale; scale ops: the scale sources and scale LDS buffers only
        scale_lds = re.compile(r"%lds_s[ab]\d\d\[")
        assert not any("%sbuf_" in x or scale_lds.search(x) for x in
                       by[("global_load", ch)] + by[("frag_load", ch)])
        assert all("%sbuf_" in x for x in by[("global_load", ch + 2)] if "gather" in x)
        assert all(scale_lds.search(x) and "vector<1xi8>" in x
                   for x in by[("frag_load", ch + 2)])
        ids = {re.search(r"id = (\d+)", x).group(1) for x in by[("global_load", ch + 2)]}
        dmas = [x for x in by[("global_load", ch + 2)] if "gather_to_lds" in x]
        assert len(dmas) == len(ids) * (g.scale_loads_a, g.scale_loads_b)[ch]
    shape = kernel_shape(parse_pipeline(spec))
    assert len(shape.vm_per_load) == len(shape.lgkm_per_load) == 4
    assert shape.per_operand(shape.vm_per_load) == (g.vm_per_load_a, g.vm_per_load_b)
    assert shape.per_operand(shape.lgkm_per_load) == (g.lgkm_per_load_a, g.lgkm_per_load_b)
    assert shape.scale_loads[:2] == shape.scale_reads[:2] == (0, 0)
    assert shape.scale_loads[2:] == shape.vm_per_load[2:]
    assert shape.scale_reads[2:] == shape.lgkm_per_load[2:]


def test_the_dialect_maps_the_scale_channels_to_their_tags():
    want = {(S.GLOBAL_LOAD, 2): LOAD_SA, (S.GLOBAL_LOAD, 3): LOAD_SB,
            (S.FRAG_LOAD, 2): MMA_LOAD_SA, (S.FRAG_LOAD, 3): MMA_LOAD_SB}
    for (name, ch), tag in want.items():
        assert S.data_tag("4wave", name, ch) == tag
        assert S.data_op_name("4wave", tag) == name


def test_a_kernel_shape_of_three_channels_is_refused():
    with pytest.raises(ConfigError, match=r"two counts >= 0 \(A, B\), or four"):
        KernelShape("4wave", 1, 4, (2, 2, 1), (4, 4, 4))


def test_the_isa_check_expects_each_scale_op_as_its_own_instructions():
    x = Expansion((2, 2, 1, 1), (4, 4, 4, 4), 4)
    for tag, role, want in ((LOAD_TAGS, OpRole.GLOBAL_LOAD, "buffer_load_dword"),
                            (FRAG_TAGS, OpRole.FRAGMENT_LOAD, "ds_read_u8")):
        for c in (0, 2):
            op = _op(tag[c], role, c)
            toks = _op_tokens(op, "KRN[0]", x)
            assert len(toks) == (x.vm if role == OpRole.GLOBAL_LOAD else x.lgkm)[c]
            assert all(t.name == (want if c == 2 else None) for t in toks)
    with pytest.raises(IsaCheckError, match=r"global load of channel 4 \(expected 0 = A, 1 = B, "
                       r"2 = A's scales or 3 = B's scales\)"):
        _op_tokens(_op(LOAD_SA, OpRole.GLOBAL_LOAD, 4), "KRN[0]", x)


def _op(tag, role, channel):
    return OpDesc(tag=tag, role=role, channel=channel)


def _compiled(spec=SPEC):
    schedule = parse_pipeline(spec)
    return schedule.compile(), kernel_shape(schedule)


def _with(compiled, i, op):
    out = copy.copy(compiled)
    out.kernel = list(compiled.kernel)
    out.kernel[i] = replace(out.kernel[i], op=op)
    return out


def test_the_simulator_finds_a_scale_read_of_another_k_tile():
    """A scale read of the other LDS stage gives its MMA the scales of another K tile
    than its elements: named as the scale channel's."""
    compiled, shape = _compiled()
    i = next(i for i, e in enumerate(compiled.kernel) if e.op.tag == MMA_LOAD_SA)
    op = compiled.kernel[i].op
    bad = _with(compiled, i, replace(op, stage=1 - op.stage))
    found = [h.message for h, _ in simulate(bad, shape, range(1, 3)).distinct_hazards()
             if h.kind == "tiles"]
    assert found and all(re.search(r"scales A of K tile \d+ with the A scales of K tile \d+", m)
                         for m in found), found


def test_the_simulator_names_a_scale_read_before_its_scale_dma_completes():
    """Every main-loop vmcnt wait left out: the scale reads race their scale DMAs, and the
    simulator names the scale ops (MMA_LOAD_SA/SB reading what LOAD_SA/SB writes)."""
    compiled, shape = _compiled()
    bad = compiled
    for i, e in enumerate(compiled.kernel):
        if e.op.tag == WAIT_VM:
            bad = _with(bad, i, replace(e.op, wait_value=63))
    raw = [h.message for h, _ in simulate(bad, shape, range(1, 3)).distinct_hazards()
           if h.kind == "raw"]
    assert any(re.search(r"MMA_LOAD_S[AB] .* reads LDS [AB] scale .* written by LOAD_S[AB] ", m)
               for m in raw), raw
