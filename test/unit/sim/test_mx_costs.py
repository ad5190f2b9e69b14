"""The simulator prices each f8f6f4 operand format at its rate: 16x16x128 takes 32 cycles
if either input is FP8 and 16 if both are FP6/FP4 (32x32x64: 64 / 32); AMD ROCm blog
"Matrix Core Programming on AMD CDNA3 and CDNA4 architecture": "16x16x128 | 16 or 32 ...
Larger cycle count if either matrix A or B is FP8".  The llvm table keeps LLVM's model."""

from __future__ import annotations

import pytest

from pipeline_mlir.sim.costs import get_table
from pipeline_mlir.sim.instr import Instr
from pipeline_mlir.sim.cu_model import simulate_cu
from pipeline_mlir.sim.timing import TimingInputError, asm_body, wave_streams
from pipeline_mlir.sim.wave_model import simulate
from pipeline_mlir.target.gfx950 import MFMA, f8f6f4_cycles

M16 = "v_mfma_f32_16x16x128_f8f6f4"
S16 = "v_mfma_scale_f32_16x16x128_f8f6f4"


@pytest.mark.parametrize("name", [M16, S16])
@pytest.mark.parametrize("formats,cycles", [((4, 4), 16), ((2, 4), 16), ((3, 2), 16),
                                            ((0, 4), 32), ((4, 1), 32), ((0, 0), 32),
                                            (None, 32)])
def test_measured_xdl_cycles_by_format(name, formats, cycles):
    c = get_table("measured").cost(Instr("mfma", name, formats=formats))
    assert c.units == (("XDL", cycles),) and c.latency == cycles + 2
    chain = [Instr("mfma", name, (f"c{k}",), ("a", "b", f"c{k}"), formats=formats)
             for k in range(3)]
    assert simulate(chain, "measured").issue == [0, cycles, 2 * cycles]


def test_32x32x64_rate_and_llvm_table_unchanged():
    assert f8f6f4_cycles(MFMA["v_mfma_f32_32x32x64_f8f6f4"], 4, 4) == 32
    assert f8f6f4_cycles(MFMA["v_mfma_f32_32x32x64_f8f6f4"], 4, 0) == 64
    llvm = get_table("llvm")
    assert llvm.cost(Instr("mfma", M16, formats=(4, 4))).units == \
        llvm.cost(Instr("mfma", M16, formats=(0, 0))).units == (("XDL", 4),)


def test_one_table_prices_formats_apart():
    """The cost cache keys on the formats: an FP4 MFMA priced first does not price an FP8
    one of the same mnemonic."""
    t = get_table("measured")
    assert t.cost(Instr("mfma", M16, formats=(4, 4))).units == (("XDL", 16),)
    assert t.cost(Instr("mfma", M16, formats=(0, 4))).units == (("XDL", 32),)


def test_assembly_formats_come_from_cbsz_blgp():
    body = asm_body(f"""{M16} v[0:3], v[4:7], v[12:15], v[0:3] cbsz:4 blgp:4
{M16} v[0:3], v[4:11], v[12:19], v[0:3]
{M16} v[0:3], v[4:7], v[12:19], v[0:3] cbsz:4
{S16} v[0:3], v[4:7], v[12:15], v[0:3], v20, v21 op_sel:[1,0,0] op_sel_hi:[0,1,0] cbsz:4 blgp:4
v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
""")
    assert [i.formats for i in body] == [(4, 4), (0, 0), (4, 0), (4, 4), None]
    assert {"v20", "v21"} <= set(body[3].uses)
    t = get_table("measured")
    assert [t.cost(i).units[0][1] for i in body] == [16, 32, 32, 16, 16]


def test_bad_format_code_is_a_located_error():
    # asm_body puts a function label on line 1
    with pytest.raises(TimingInputError, match=r"line 2: .*'cbsz:7'.*format codes are"):
        asm_body(f"{M16} v[0:3], v[4:7], v[12:15], v[0:3] cbsz:7 blgp:4\n")
    # a digit str.isdigit takes and int() does not was an internal error
    with pytest.raises(TimingInputError, match=r"line 2: .*'blgp:\u00b2'.*format codes are"):
        asm_body(f"{M16} v[0:3], v[4:7], v[12:15], v[0:3] cbsz:4 blgp:\u00b2\n")
    with pytest.raises(ValueError, match="format codes"):
        f8f6f4_cycles(MFMA[M16], 5, 0)


@pytest.mark.parametrize("modifiers,cycles", [("cbsz:4 blgp:4", 16), ("cbsz:4", 32), ("", 32)])
def test_assembly_loop_runs_each_format_at_its_rate(modifiers, cycles):
    """The streams of an assembly loop (replicated per iteration and wave) keep each MFMA's
    operand formats: a copy without them ran FP4 MFMAs at the FP8 rate in `--simulate
    kernel.s` while ResMII, priced on the body itself, used the FP4 one."""
    body = asm_body(f"{S16} a[0:3], v[4:7], v[12:15], a[0:3], v20, v21 {modifiers}\n"
                    f"{S16} a[4:7], v[4:7], v[12:15], a[4:7], v20, v21 {modifiers}\n")
    (stream,) = [s for _, s in wave_streams(body, 1, 3)]
    assert [i.formats for i in stream] == [body[0].formats] * 6
    run = simulate_cu([(0, stream)], "measured")
    issue = run.waves[0].issue
    assert [b - a for a, b in zip(issue, issue[1:])] == [cycles] * 5
