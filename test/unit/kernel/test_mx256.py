"""The 4-wave MXFP4 256x256 kernel (one wave per SIMD, accumulators in AGPRs): what it must
hold besides exactness (test_mx_kernel.py) -- VALU <= 8 per main-loop iteration, no
spills, every scaled MFMA on AGPRs, conflict-free LDS, hazard-free, its FP4 MFMAs priced at
their rate on the assembly, and the scales carried as dwords (a byte carried through the
loop costs a v_and_b32 each)."""

from __future__ import annotations

from kernel_builds import build

from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.kernel.mx_gemm_mlir import SCALE_DWORD, mx_kernel_mlir
from pipeline_mlir.schedules.registry import parse_pipeline

SPEC = "4wave{dtype=mxfp4 BM=256 BN=256 BK=128}"


def test_the_main_loop_has_one_valu_no_copies_and_no_spills():
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.report import loop_counts, resources_from_asm

    b = build("4wave-mxfp4-256")
    module = parse_asm(b.asm)
    fn = module.function()
    loop = [i for blk in fn.main_loop() for i in blk.instrs]
    assert loop_counts(fn)["VALU"] <= 8
    assert not [i for i in loop if i.mnemonic.startswith(("v_and_b32", "v_accvgpr_"))]
    mfmas = [i for i in loop if i.kind == "mfma"]
    assert len(mfmas) == 128 and all(r[0] == "a" for i in mfmas for r in i.defs)
    assert resources_from_asm(module, fn.name).vgpr_spills == 0


def test_the_scales_are_carried_as_dwords():
    text = mx_kernel_mlir(gemm_kernel(parse_pipeline(SPEC)))
    assert SCALE_DWORD == "vector<4xi8>"
    assert text.count("arith.extui") == text.count("vector<1xi8>\n") > 0
    assert "from vector<1xi8>" not in text and "vector<4xf8E8M0FNU>" in text


def test_the_simulator_finds_it_safe_conflict_free_and_at_its_rate():
    from pipeline_mlir.analysis.lds_access import kernel_lds
    from pipeline_mlir.sim.report import simulate_assembly, simulate_schedule

    rep = simulate_schedule(parse_pipeline(SPEC), tables=(), lds_of=kernel_lds)
    assert rep.functional.safe
    assert rep.banks is not None and not rep.banks.conflicted
    (t,) = [t for t in simulate_assembly(build("4wave-mxfp4-256").asm, "mx.s", 4,
                                         False).timing if t.table == "measured"]
    # 128 FP4 x FP4 MFMAs of 16 cycles: the bound; the assembly at >= 99% of it (with
    # its element DMAs as dwords, test_mx_dword_dma.py)
    assert max(c for u, c in t.analysis.res.per_unit.items() if u.startswith("XDL")) == 2048
    assert t.analysis.achieved_ii <= 2048 / 0.99
