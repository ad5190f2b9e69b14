"""``frontend/fragment_budget.py``: a loop whose K tile's fragment reads (their VGPRs a lane
and one address register each) exceed the budget of the architected VGPRs the accumulators
leave is split along K into the fewest sub-steps that fit; one under it is not; one the
split cannot take is pipelined as it is, said in the loop's note and warned of at the loop.
The class built and run exact (long tier)."""

from __future__ import annotations

import re

import pytest

from iree_configs import G
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend import fragment_budget as FB
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree

#: IREE's forced i8 ``A^T x B`` in one wave's 128x128 tile, 16x16x64 MFMAs, a K step of 256
#: (finding 108's class; 4 K steps here, 1280 there)
I8_ATB = dict(transpose_a=True, transpose_b=False, mma="MFMA_I32_16x16x64_I8", stages=4,
              tile=(128, 128, 256), waves=(1, 1))
ADOPT = "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"


@pytest.mark.parametrize("need,chain,want", [
    (176, 4, 1),      # at the budget: not split
    (177, 4, 2),      # one over: halves
    (384, 4, 4),      # the class: halves still over (192), quarters fit (96)
    (384, 2, 2),      # no more sub-steps than MFMAs of an accumulator
    (384, 1, 1),      # one MFMA a K step: nothing to split
])
def test_the_fewest_sub_steps_that_fit(need, chain, want):
    assert FB.sub_steps(need, 176, chain) == want


class _Loop:
    """What the budget reads of a loop's analysis: its accumulators, as many as asked, of
    one i32 MFMA result of 4 elements a lane (a 16x16 MFMA's)."""

    def __init__(self, accumulators: int) -> None:
        from types import SimpleNamespace as NS

        from pipeline_mlir.dialect.bindings import ir
        result = NS(type=ir.VectorType.get([4], ir.IntegerType.get_signless(32)))
        self.scan = NS(mfmas=[NS(results=[result])])
        self.n = accumulators

    def accumulators(self) -> int:
        return self.n


@pytest.mark.parametrize("accumulators,budget", [
    (64, 176),      # 256 registers: in AGPRs, the architected file less 80
    (63, None),     # 252: in VGPRs, no budget measured: left as it is
])
def test_the_budget_is_for_accumulators_in_agprs(accumulators, budget):
    from pipeline_mlir.dialect.bindings import ir, new_context

    with new_context() as ctx, ctx, ir.Location.unknown():
        assert FB.register_budget(_Loop(accumulators)) == budget
    assert FB.over_budget_note(f"{FB.OVER_BUDGET}: ...")
    assert not FB.over_budget_note("split into 4 sub-steps of K 64 ...")


def _adopted(tmp_path, capsys, text: str) -> tuple[str, str]:
    path = tmp_path / "k.mlir"
    path.write_text(text)
    rc = main([ADOPT, str(path)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out, err


def _options(out: str) -> str:
    return re.search(r"sched\.options = \{[^}]*\}", out).group(0)


@pytest.fixture(scope="module")
def atb_late():
    return G.late_form(G.matmul_source("i8", 128, 128, 1024, **I8_ATB))


@needs_iree
def test_the_class_is_split_into_four(tmp_path, capsys, atb_late):
    """256 VGPRs of fragments in 128 reads a K tile (384 > 176), the accumulators in
    AGPRs: 4 sub-steps of K 64 (2 would leave 192), the schedule's tile and counts the
    sub-step's."""
    out, _ = _adopted(tmp_path, capsys, atb_late)
    note = re.search(r'sched\.k_split = "([^"]*)"', out).group(1)
    assert note.startswith("split into 4 sub-steps of K 64 (the K step of 256)"), note
    assert "256 VGPRs a lane in 128 reads (384 with their addresses), over the budget " \
           "of 176" in note and "64 VGPRs in 32 reads a sub-step" in note, note
    opts = _options(out)
    assert "BK = 64 " in opts and "lgkm_per_load_a = 8 " in opts, opts


@needs_iree
def test_a_kernel_at_the_budget_is_not_split(tmp_path, capsys):
    """fp8 ``A^T x B^T`` 128x1280x384 in one wave's 128x128 tile: 128 VGPRs in 48 reads a
    K tile, 176, the budget: its K step of 128 kept, no note."""
    late = G.late_form(G.matmul_source(
        "fp8", 128, 1280, 384, transpose_a=True, transpose_b=True,
        mma="MFMA_F32_32x32x64_F8E4M3FN", stages=4, tile=(128, 128, 128), waves=(1, 1)))
    out, _ = _adopted(tmp_path, capsys, late)
    assert "sched.k_split" not in out
    assert "BK = 128 " in _options(out)


@needs_iree
def test_a_split_refused_keeps_the_loop_and_warns(tmp_path, capsys, monkeypatch, atb_late):
    """Where ``split_k`` refuses (here made to, with the refusal it gives i8 ``A x B^T``
    896x128x384: a swizzle that mixes the sub-step's bit), the K step stays 256, the note
    says why, and a build warns at the loop."""
    def refused(an, at_least=1):
        raise IRError(an.scan.loop, "'scf.for' op: the schedule's LDS buffers ...; nor can "
                                    f"the front end split its K step into {at_least} "
                                    "sub-steps of 64: LDS buffer X is swizzled")
    monkeypatch.setattr(FB, "split_k", refused)
    out, _ = _adopted(tmp_path, capsys, atb_late)
    note = re.search(r'sched\.k_split = "([^"]*)"', out).group(1)
    assert note.startswith("not split: one K tile's fragment reads write 256 VGPRs"), note
    assert note.endswith("cannot split its K step into 4 sub-steps (LDS buffer X is "
                         "swizzled): pipelined as it is, LLVM may spill"), note
    assert "BK = 256 " in _options(out)
    path = tmp_path / "k.mlir"
    rc = main(["--pipeline=4wave", str(path), "--emit=mlir", "-o", str(tmp_path / "o.mlir")])
    _, err = capsys.readouterr()
    assert rc == 0, err
    assert re.search(r"k\.mlir:\d+:\d+: warning: sched-adopt-loop: the K step is not split: "
                     r"one K tile's fragment reads", err), err


@needs_iree
@pytest.mark.long("test_the_class_is_split_into_four checks the rule's decision on the same "
                  "kernel's plan; this builds it with LLVM and runs it on the emulator")
def test_the_class_builds_with_no_spill_and_is_exact(tmp_path, capsys, atb_late,
                                                     shared_code_objects):
    """The late form builds with no VGPR spilled (491 without the split, 4 K steps of 256)
    and runs exact in late mode; the report says the split."""
    from build_cache import share_code_objects
    from iree_configs import each_form_built

    with share_code_objects():      # (the emulation runs the build below)
        for _, path, built in each_form_built(tmp_path, {"late": atb_late}, ("asm",)):
            asm = built.stages["asm"]
            assert re.search(r"\.vgpr_spill_count:\s+0\n", asm)
            assert re.search(r"\.agpr_count:\s+256\n", asm)
            rc = main(["--pipeline=4wave", str(path), "--emit=report"])
            out, err = capsys.readouterr()
            assert rc == 0 and "K split: split into 4 sub-steps of K 64" in out, out + err
            rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
                       "--emulate-jobs=1"])
            out, err = capsys.readouterr()
            assert rc == 0 and ": exact, max error 0" in out, out + err
