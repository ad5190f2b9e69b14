"""``frontend/fragment_budget.py``: a loop whose K tile's fragment reads (their VGPRs a lane
and one address register each) exceed the budget of the architected VGPRs the accumulators
leave is split along K into the fewest sub-steps that fit; one under it is not; one the
split cannot take is pipelined as it is, said in the loop's note and warned of at the loop.
The class built and run exact (long tier)."""

from __future__ import annotations

import re

import pytest

from iree_configs import G
from pipeline_mlir.frontend import fragment_budget as FB
from pipeline_mlir.frontend.ksplit import KSplitRefusal
from pipeline_mlir.tools.pipeline_opt import main
from test_iree_emulate import needs_iree

#: IREE's forced i8 ``A^T x B`` in one wave's 128x128 tile, 16x16x64 MFMAs, a K step of 256
#: (finding 108's class; 4 K steps here, 1280 there)
I8_ATB = dict(transpose_a=True, transpose_b=False, mma="MFMA_I32_16x16x64_I8", stages=4,
              tile=(128, 128, 256), waves=(1, 1))
#: IREE's forced i8 ``A x B^T`` in the same tile (finding 115's i8 kernels, 384x1280x2560 among
#: them): 256 VGPRs of fragments a K tile in 64 16-byte reads, LDS swizzled xor_shuffle<128, 16>
I8_ABT = dict(transpose_a=False, transpose_b=True, mma="MFMA_I32_16x16x64_I8", stages=2,
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
    one i32 MFMA result of ``elements`` a lane (4: a 16x16 MFMA's, 16: a 32x32 one's)."""

    def __init__(self, accumulators: int, elements: int = 4) -> None:
        from types import SimpleNamespace as NS

        from pipeline_mlir.dialect.bindings import ir
        result = NS(type=ir.VectorType.get([elements], ir.IntegerType.get_signless(32)))
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


@pytest.mark.parametrize("accumulators,elements,untied", [
    (64, 4, True),      # 16x16 MFMAs: LLVM gives each result a register of its own
    (16, 16, False),    # 32x32 MFMAs: LLVM writes each result in place (its _mac form)
])
def test_untied_accumulators_are_the_16x16_ones(accumulators, elements, untied):
    from pipeline_mlir.dialect.bindings import ir, new_context

    with new_context() as ctx, ctx, ir.Location.unknown():
        assert FB.untied_accumulators(_Loop(accumulators, elements)) is untied


def test_a_sub_step_under_another_swizzle_is_refused():
    """The front end's copies of a buffer split on its unswizzled index must apply the
    swizzle the split was found under (``layout._k_logical``)."""
    from pipeline_mlir.frontend import layout as L
    from pipeline_mlir.kernel import loop_model as LM

    assert L._k_logical({}, 0, (128, 16), "A", 0) is False
    assert L._k_logical({0: (128, 16)}, 0, (128, 16), "A", 0) is True
    with pytest.raises(LM.LoopRefusal, match=r"apply the swizzle \(64, 8\), not the "
                                             r"\(128, 16\)"):
        L._k_logical({0: (128, 16)}, 0, (64, 8), "A", 0)


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


@pytest.fixture(scope="module")
def abt_late():
    return G.late_form(G.matmul_source("i8", 128, 128, 1024, **I8_ABT))


@needs_iree
def test_untied_accumulators_are_split_one_mfma_a_sub_step(tmp_path, capsys, abt_late):
    """256 VGPRs in 64 reads a K tile (320): the fewest sub-steps under the budget would be
    2 (160), but its 16x16 MFMAs' accumulators fill the AGPRs, so 4, one MFMA an
    accumulator a sub-step, across the buffers' ``xor_shuffle<128, 16>`` (which permutes
    the quarter's bit 6): the sub-step's K 64."""
    out, _ = _adopted(tmp_path, capsys, abt_late)
    note = re.search(r'sched\.k_split = "([^"]*)"', out).group(1)
    assert note.startswith("split into 4 sub-steps of K 64 (the K step of 256)"), note
    assert "(320 with their addresses)" in note and "64 VGPRs in 16 reads a sub-step; one " \
           "MFMA an accumulator a sub-step (the 16x16 MFMAs' accumulators" in note, note
    assert "BK = 64 " in _options(out)


@needs_iree
def test_a_swizzle_that_mixes_the_sub_step_is_split_only_where_asked(tmp_path, capsys,
                                                                      monkeypatch, abt_late):
    """Not asked to unswizzle (as the splits for LDS and for a steady trip do not),
    ``split_k`` refuses the 4 sub-steps, its reason apart from its LDS preamble; the rule
    then takes the fewest under the budget, 2 (bit 7, which the swizzle leaves)."""
    real, seen = FB.split_k, []

    def plain(an, at_least=1, unswizzle=False):
        try:
            return real(an, at_least=at_least)
        except KSplitRefusal as e:
            seen.append(e)
            raise
    monkeypatch.setattr(FB, "split_k", plain)
    out, _ = _adopted(tmp_path, capsys, abt_late)
    note = re.search(r'sched\.k_split = "([^"]*)"', out).group(1)
    assert note.startswith("split into 2 sub-steps of K 128"), note
    assert "BK = 128 " in _options(out)
    assert len(seen) == 1, seen
    reason = seen[0].reason
    assert note.endswith(f"; not 4, one MFMA an accumulator a sub-step ({reason})"), note
    assert reason.startswith("LDS buffer memref<") and reason.endswith(
        "is swizzled (xor_shuffle<128, 16> permutes its element bits 4..6), which mixes the "
        "K sub-step's element bit(s) 6, 7"), reason
    text = str(seen[0])     # (the whole message: the LDS refusal, then the reason)
    assert text.startswith("'scf.for' op: the schedule's LDS buffers") and \
        text.endswith(f"split its K step into 4 sub-steps of 1: {reason}"), text


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
    """Where ``split_k`` refuses (here made to), the K step stays 256, the note says why in
    the refusal's own reason (``KSplitRefusal.reason``, given apart from the message's LDS
    preamble: none of the message's text is parsed), and a build warns at the loop."""
    reason = "a reason given apart: LDS buffer X is swizzled"

    def refused(an, at_least=1, unswizzle=False):
        raise KSplitRefusal(an.scan.loop, "'scf.for' op: the schedule's LDS buffers ...; nor "
                                          f"can the front end split its K step into {at_least} "
                                          f"sub-steps of 64: {reason}", reason)
    monkeypatch.setattr(FB, "split_k", refused)
    out, _ = _adopted(tmp_path, capsys, atb_late)
    note = re.search(r'sched\.k_split = "([^"]*)"', out).group(1)
    assert note.startswith("not split: one K tile's fragment reads write 256 VGPRs"), note
    assert note.endswith(f"cannot split its K step into 4 sub-steps ({reason}): pipelined "
                         f"as it is, LLVM may spill"), note
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
    from iree_configs import built_unspilled_and_exact

    asm, report = built_unspilled_and_exact(tmp_path, atb_late, capsys)
    assert re.search(r"\.agpr_count:\s+256\n", asm)
    assert "K split: split into 4 sub-steps of K 64" in report, report


@needs_iree
@pytest.mark.long("test_untied_accumulators_are_split_one_mfma_a_sub_step checks the rule's "
                  "decision on a smaller kernel of the class; this builds one of finding "
                  "115's and runs it on the emulator")
def test_an_untied_kernel_builds_with_no_spill_and_is_exact(tmp_path, capsys,
                                                            shared_code_objects):
    """IREE's i8 ``A x B^T`` 384x1280x2560 (finding 115: 8 VGPRs spilled split into 2) split
    into 4 builds with no VGPR or SGPR spilled and runs exact in late mode."""
    from iree_configs import built_unspilled_and_exact

    late = G.late_form(G.matmul_source("i8", 384, 1280, 2560, **I8_ABT))
    built_unspilled_and_exact(tmp_path, late, capsys, workgroups=2)


#: IREE's forced i8 ``A x B`` in one wave's 128x128 tile at a K step of 128 (finding 125:
#: the forty-first sweep's 512x640x1152 and 128x1024x896 spilled 18 and 22 VGPRs so): 128
#: VGPRs of fragments in 48 reads a K tile, 176, under the budget; two 16x16x64 MFMAs an
#: accumulator a K step
I8_AB = dict(transpose_a=False, transpose_b=False, mma="MFMA_I32_16x16x64_I8", stages=3,
             tile=(128, 128, 128), waves=(1, 1))


@pytest.fixture(scope="module")
def ab_late():
    return G.late_form(G.matmul_source("i8", 128, 128, 512, **I8_AB))


@needs_iree
def test_untied_accumulators_under_the_budget_take_one_mfma_a_sub_step(tmp_path, capsys,
                                                                        ab_late):
    """At 176, the budget, the K step of 128 is not split for the fragments, but its 16x16
    MFMAs' accumulators fill the AGPRs and take 2 MFMAs a K step: 2 sub-steps of K 64, one
    MFMA an accumulator a sub-step, said in the note."""
    out, err = _adopted(tmp_path, capsys, ab_late)
    note = re.search(r'sched\.k_split = "([^"]*)"', out).group(1)
    assert note.startswith("split into 2 sub-steps of K 64 (the K step of 128): one K "
                           "tile's fragment reads write 128 VGPRs a lane in 48 reads (176 "
                           "with their addresses), under the budget of 176; 64 VGPRs in 24 "
                           "reads a sub-step; one MFMA an accumulator a sub-step (the 16x16 "
                           "MFMAs' accumulators"), note
    assert "BK = 64 " in _options(out)
    assert "warning" not in err, err


@needs_iree
def test_one_mfma_a_k_step_under_the_budget_is_left(tmp_path, capsys):
    """E5M2 ``A x B^T`` 256x512x384 (16x16x128 MFMAs at a K step of 128, under the budget):
    untied accumulators filling the AGPRs, but one MFMA an accumulator a K step already, so
    nothing to split: the K step of 128 kept, no note."""
    late = G.late_form(G.matmul_source(
        "fp8e5m2", 256, 512, 384, transpose_a=False, transpose_b=True,
        mma="MFMA_F32_16x16x128_F8E5M2", stages=2, tile=(128, 128, 128), waves=(1, 1)))
    out, _ = _adopted(tmp_path, capsys, late)
    assert "sched.k_split" not in out
    assert "BK = 128 " in _options(out)


@needs_iree
def test_a_split_refused_under_the_budget_keeps_the_loop_unwarned(tmp_path, capsys,
                                                                   monkeypatch, ab_late):
    """Where ``split_k`` refuses the split for untied accumulators under the budget (made
    to, here), the K step stays 128, the note says why, and no build warns: the loop is
    within the budget."""
    reason = "a reason given apart"

    def refused(an, at_least=1, unswizzle=False):
        raise KSplitRefusal(an.scan.loop, f"'scf.for' op: ...: {reason}", reason)
    monkeypatch.setattr(FB, "split_k", refused)
    out, _ = _adopted(tmp_path, capsys, ab_late)
    note = re.search(r'sched\.k_split = "([^"]*)"', out).group(1)
    assert note.startswith(f"{FB.UNDER_BUDGET}: one K tile's fragment reads write 128 VGPRs"), \
        note
    assert note.endswith(f"cannot split its K step so ({reason}): pipelined as it is"), note
    assert not FB.over_budget_note(note)
    assert "BK = 128 " in _options(out)
    path = tmp_path / "k.mlir"
    rc = main(["--pipeline=4wave", str(path), "--emit=mlir", "-o", str(tmp_path / "o.mlir")])
    _, err = capsys.readouterr()
    assert rc == 0, err
    assert "warning" not in err, err


@needs_iree
@pytest.mark.long("test_untied_accumulators_under_the_budget_take_one_mfma_a_sub_step checks "
                  "the rule's decision on a smaller kernel; this builds one the forty-first "
                  "sweep drew and runs it on the emulator")
def test_an_untied_kernel_under_the_budget_builds_with_no_spill(tmp_path, capsys,
                                                                shared_code_objects):
    """IREE's i8 ``A x B`` 512x640x1152 (finding 125: 18 VGPRs spilled with its K step of 128
    whole) split into 2 builds with no VGPR or SGPR spilled and runs exact in late mode."""
    from iree_configs import built_unspilled_and_exact

    late = G.late_form(G.matmul_source("i8", 512, 640, 1152, **I8_AB))
    _, report = built_unspilled_and_exact(tmp_path, late, capsys, workgroups=2)
    assert "K split: split into 2 sub-steps of K 64" in report, report
