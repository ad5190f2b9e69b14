"""IREE's configurations whose operands are read with transposing reads (``A x B``,
``A^T x B``, ``A^T x B^T``; ``iree_configs.CONFIGS``): the front end regroups the reads per
MFMA operand (``pipeline_mlir/frontend/transpose.py``), both forms give one schedule with
the counts of the regrouped reads, a load longer than lgkmcnt holds is issued in runs, and
one form's kernel is exact with memory completing in a random order the counters allow
(one form each: both give one schedule, so the same waits and barriers, and
``test_configuration`` runs the other form's code object in late mode, this one's not
again: ``iree_configs.RANDOM_FORM``, ``exact_in_random_order``; for a configuration of
``iree_forms.ONE_BUILT`` the default run takes the other form to its schedule alone).
"""

from __future__ import annotations

import json

import pytest

from iree_configs import CONFIGS, G, exact_in_random_order, forms_agree
from kernel_builds import shared_build
from pipeline_mlir.emu.inputs import load_kernel
from test_iree_emulate import needs_iree


pytestmark = pytest.mark.usefixtures("shared_code_objects")


#: K steps merged into each K tile by default (merge_k=auto: 32 K steps of 32 for bf16 and
#: f16, 16 of 64 for i8, each too short for a global load's latency; fp8's are not)
MERGED = 2


#: (f16 A x B is bf16's kernel but for the type, both forms: test_configuration's TWINS)
@pytest.mark.parametrize("name,b_reads,merged", [("bf16_ab_2048x2048x1024", 4, MERGED),
                                                 ("fp8_ab_2048x2048x1024", 8, 1),
                                                 ("i8_ab_2048x2048x1024", 4, MERGED)])
def test_transposed_b_forms_agree_and_run_in_random_order(generated, name, b_reads, merged,
                                                          capsys):
    """Plain ``A x B`` (B read with ``amdgpu.transpose_load``): the front end regroups the
    reads per MFMA operand, both forms become the same 128x128 schedule with ``2 b_reads``
    transposing reads per K step of IREE's and wave (``merged`` K steps in each K tile), and
    one form's kernel is exact with memory completing in a random order the counters allow."""
    schedule = forms_agree(generated, name, built="late")
    # a B subtile: 2 N fragments of 2 transposing reads each (IREE's kernel: 8 reads that
    # each feed all 4 N fragments of a wave); fp8: 2 of 4 each (its 32-byte operands), where
    # IREE's kernel has 16 reads of 8 bytes feeding all 4
    assert json.loads(schedule)["lgkm_per_load"] == [b_reads // 2 * merged,
                                                     b_reads * merged], schedule
    exact_in_random_order(generated, name, capsys, 5, "late")


@pytest.mark.parametrize("name", ["bf16_atb_2048x2048x1024", "bf16_atbt_2048x2048x1024"])
def test_transposed_a_forms_agree_and_run_in_random_order(generated, name, capsys):
    """``A^T x B`` and ``A^T x B^T`` (A is K x M; IREE copies A through registers and reads
    it with transposing reads): both forms become the same 128x128 schedule, 2 transposing
    reads per MFMA operand of A (4 per subtile and K step of IREE's, two K steps merged into
    each K tile), and one form's kernel is exact with memory completing in a random order the
    counters allow."""
    schedule = forms_agree(generated, name, built="prefetch")
    lgkm_b = 4 if CONFIGS[name][0].get("transpose_b", True) is False else 2
    assert json.loads(schedule)["lgkm_per_load"] == [4 * MERGED, lgkm_b * MERGED], schedule
    exact_in_random_order(generated, name, capsys, 11, "prefetch")


@pytest.mark.parametrize("name, lgkm", [("bf16_ab_1024x1024x512", [4, 16]),
                                        ("bf16_atb_1024x1024x768", [8, 16])])
def test_loads_longer_than_lgkmcnt_forms_agree_and_run_in_random_order(generated, name, lgkm,
                                                                       capsys):
    """K step 128 with B ``K x N``: a B subtile is 16 transposing reads, more than lgkmcnt
    holds; the load is issued in two runs of 8 with a guard wait between them, both forms
    give the same schedule, and one form's kernel is exact with memory completing in a random
    order the counters allow."""
    schedule = forms_agree(generated, name, built="late")
    assert json.loads(schedule)["lgkm_per_load"] == lgkm, schedule
    exact_in_random_order(generated, name, capsys, 13, "late")


def test_i8_a_times_b_copies_have_no_waterfall(generated):
    """IREE's i8 ``A x B``: LLVM once kept its copies' soffset in a loop-carried VGPR and
    wrapped each of the 8 copies of the main loop in a readfirstlane waterfall loop; the
    soffset now goes through readfirstlane (``sched-buffer-soffset``): none (the late form;
    the prefetch point's kernel is the same, and had the same 8 before).  A waterfall loop
    closes with ``s_cbranch_execnz`` (the ISA check's finding,
    ``pipeline_mlir/isa/waterfall.py``), of which the code object holds none: its
    instructions decoded from the run's build of the late form (``test_configuration``
    and :func:`forms_agree` build it; an ``--emit=asm`` build of it was a build more)."""
    hsaco = shared_build("4wave", input=str(generated("i8_ab_2048x2048x1024", "late")))
    names = {i.name for i in load_kernel(hsaco.checked_output()).instrs}
    assert "buffer_load_dwordx4" in names and "s_cbranch_execnz" not in names, sorted(names)


@needs_iree
def test_a_forced_a_times_b_swizzles_only_a():
    """``generate.forced_config`` of an ``A x B`` (B ``K x N``) promotes B with DMA copies
    into an unswizzled tile, as IREE 3.13's own default ``A x B`` kernel does (a swizzle
    hint on the K-major B fails inside IREE: "all swizzle hints must resolve"), and A
    XOR-swizzled; ``A x B^T`` keeps both swizzled.  iree-compile takes the forced ``A x B``
    to its prefetch point (transposing reads of B, the front end's ``A x B`` path)."""
    swizzled = G.dma_operand("bf16")
    ab = G.matmul_source(m=256, n=256, k=256, transpose_b=False, mma="MFMA_F32_16x16x32_BF16")
    assert f"promotion_types = [{swizzled}, #iree_gpu.use_global_load_dma]" in ab
    abt = G.matmul_source(m=256, n=256, k=256, mma="MFMA_F32_16x16x32_BF16")
    assert f"promotion_types = [{swizzled}, {swizzled}]" in abt
    assert "amdgpu.transpose_load" in G.prefetch_point(ab)
