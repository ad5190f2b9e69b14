"""The mutation campaign: semantic mutants of IREE's matmul kernel, each refused with a
located message or pipelined and exact against its own unpipelined build.

``test/data/iree/mutants.py`` makes the mutants (index constants and operands, loop
bounds and steps, barriers removed or moved, copies and reads moved, extra LDS and global
stores, atomics) of IREE's bf16 kernel (prefetch point and late form) and judges each: ``pipeline-opt
--pipeline=4wave`` refuses it (``FILE:LINE:COL: error:``, exit 1, no traceback), or the
pipelined kernel computes on the emulator (late mode, the workgroups ``described_ids`` or
the family names) the same C as the
mutant built without the sched passes, and is race-free.  A CI run takes a handful of
mutants (those of kernels ``iree-compile`` generates skipped without it);
``PIPELINE_MUTANTS=N`` (and ``PIPELINE_MUTANTS_SEED=S``) runs N of them.  A failure names
the mutation and the command that reproduces it.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

DATA = Path(__file__).parents[2] / "data" / "iree"
sys.path.insert(0, str(DATA))
import mutants as M  # noqa: E402
from campaign_sample import Case, default_ids, uncovered  # noqa: E402
from campaign_sample import params as sample_params  # noqa: E402
from pipeline_mlir.emu.iree import UNSTORED  # noqa: E402

SEED = int(os.environ.get("PIPELINE_MUTANTS_SEED", "1"))
COUNT = int(os.environ.get("PIPELINE_MUTANTS", "3"))


@pytest.fixture(autouse=True)
def _code_objects_shared():
    """A kernel pipelined here unmutated (``--emit=hsaco`` of the family's own text: the
    8-wave bases test_iree_pingpong.py emulates, IREE's committed kernel that
    test_iree_emulate.py builds) is compiled once per run (``build_cache.share_code_objects``;
    a mutant's text is its own key, and a refused build is not kept)."""
    from build_cache import share_code_objects

    with share_code_objects():
        yield


def _has_iree_compile() -> bool:
    import generate as G

    try:
        return Path(G.tool("iree-compile")).exists()
    except Exception:              # the wheel's tool lookup fails: not installed
        return False


@pytest.mark.parametrize("index", range(COUNT))
def test_mutant_is_refused_or_exact(index):
    name = M.mutant_source(SEED, index)
    if M.generated(name) and not _has_iree_compile():
        pytest.skip(f"mutant {index} is of a kernel iree-compile generates, and it is not "
                    f"installed")
    m = M.mutant(SEED, index)
    verdict, detail = M.verdict(m, refusal_first=True)
    assert verdict not in M.BAD, (f"{verdict}: {m.what}\n{detail}\n"
                                  f"reproduce: {M.command(SEED, index)}")


def _committed(i: int) -> M.Mutant:
    rng = M.rng_for(SEED, i)
    return M.mutant_of(rng.choice(["4096.late", "4096.prefetch"]), i, rng)


def test_mutants_are_deterministic_and_varied():
    first = [_committed(i).what for i in range(40)]
    assert first == [_committed(i).what for i in range(40)]
    kinds = {w.split(": ", 1)[1].split(" ")[0] for w in first}
    assert {"constant", "loop", "barrier", "index", "offset", "store", "read", "copy"} <= \
        kinds, kinds


def test_the_pool_holds_every_family():
    """Each family the front end takes is mutated, from both forms; a campaign can be
    limited to some of them."""
    assert {"4096", "512", "fp8", "i8", "ab", "atb", "mfma32", "odd", "k4095", "8wave",
            "vd", "e5m2", "f16ab", "atbt", "fp8w", "abw", "vdfp8", "fp8ab", "i8ab",
            "fp8abw", "vdodd", "k128w", "k128wn", "mfma32w", "i8kw"} <= set(M.FAMILIES)
    assert {"vdodd.prefetch", "vdodd.late"} <= set(M.INPUTS)
    assert M.INPUTS["k128w.prefetch"].pipeline == M.INPUTS["mfma32w.late"].pipeline == \
        "pingpong"
    assert {n.split(".")[1] for n in M.INPUTS} == {"prefetch", "late"}
    assert {"fp8w.prefetch", "fp8w.late"} <= set(M.INPUTS)
    assert {M.mutant_source(SEED, i, ["fp8w.prefetch"]) for i in range(5)} == \
        {"fp8w.prefetch"}
    assert M.INPUTS["8wave.late"].pipeline == M.INPUTS["abw.prefetch"].pipeline == "pingpong"
    assert {M.mutant_source(SEED, i, ["fp8", "i8"]).split(".")[0] for i in range(20)} == \
        {"fp8", "i8"}
    assert "--family fp8 --only 3" in M.command(SEED, 3, ["fp8"])
    assert {"padm.prefetch", "padm.late", "padmn.late", "padkm.prefetch", "padkm.late",
            "padkmn.prefetch", "padkmn.late"} <= set(M.INPUTS)


def test_a_padded_family_launches_at_its_sizes():
    """IREE's padded dispatch of M and N known at launch, K = 200 (rows and the K left
    masked), in the late form as the campaign mutates it, unmutated: its dispatch read at
    the family's launch sizes (200 x 272 x 200: a partial tile in both M and N, which
    workgroup 5 of its linearised grid of 2 x 3 tiles runs), built with and without the
    sched passes, the two C's agree on the emulator."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    d = M.dispatch("padkmn.late")
    assert (d.M, d.N, d.K, d.grid) == (200, 272, 200, (6,)) and len(d.constants) == 4
    assert M.verdict(M.Mutant("padkmn.late", -1, "none", M.source("padkmn.late"))) == \
        ("exact", "")


def test_an_unmutated_vector_distribute_kernel_is_exact():
    """IREE's VectorDistribute kernel at the prefetch point multiplies whole tiles, which
    only IREE's own passes distribute: its unpipelined build is distributed first, as the
    front end does, so the comparison has a reference (it would be ``invalid`` else), exact
    on the verdict's workgroups.  The pipelined kernel (the same text, checked) is exact in
    test_vector_distribute.py's ``test_a_square_b_is_told_by_the_distributed_loop[prefetch]``
    (random mode), so the reference is run alone (one build and one run, not two)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    import generate as G

    text = M.source("vd.prefetch")
    assert "iree_vector_ext.to_layout" in text
    assert text == G.prefetch_point(G.matmul_source(dtype="bf16", m=512, n=512, k=512),
                                    M.FAMILIES["vd"].flags) and M.FAMILIES["vd"].flags
    _reference_is_exact("vd.prefetch")


def test_the_late_vdodd_reference_is_exact():
    """IREE's late form of the fp8 VectorDistribute kernel of 3 K steps, built
    without the sched passes, starts a copy's buffer offset 512 below 0 and adds 512 back
    as the instruction offset; it computes C = A x B^T on the emulator (it read zeros for
    the first row and column of workgroup 0 when the emulator did not wrap that sum)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    from pipeline_mlir.emu.inputs import load_kernel
    from pipeline_mlir.emu.iree import Matmul, emulate_matmul

    rc, err, hsaco = M.build(M.source("vdodd.late"), False)
    assert rc == 0, err
    d = M.dispatch("vdodd.late")
    run = emulate_matmul(load_kernel(hsaco), Matmul(d.M, d.N, d.K, d.dtype, d.transpose_b),
                         grid=(128,), workgroups=[0], mode="late")
    assert run.exact, run.summary()


def test_mutations_fit_register_staged_kernels():
    """In an i8 kernel (a padded 2-D LDS, an i32 C) the extra LDS store writes 16 integers
    (16 bytes, an fp8 swizzle's chunk) at two indices and the extra C side effect is an
    integer one."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    import random

    lines = M.source("i8.late").split("\n")
    what = M.m_lds_store(lines, random.Random(0))
    text = "\n".join(lines)
    assert "dense<1> : vector<16xi8>" in text and "%mut_i1" in text, what
    lines = M.source("i8.late").split("\n")
    for seed in range(8):           # both the store and the atomic add
        M.m_c_side_effect(lines, random.Random(seed))
    text = "\n".join(lines)
    assert "arith.constant 2 : i32" in text and "atomic_rmw addi" in text


def _reference_is_exact(name: str):
    """The unpipelined reference of input ``name`` unmutated (:func:`mutants.reference_text`,
    built as :func:`mutants.verdict` builds it) run on the verdict's workgroups: every element
    of their tiles stored and exact against A x B^T (or A x B), so a mutant's ``exact``
    compares against a reference that is right.  Its C, as :func:`mutants.c_bytes` gives it."""
    rc, err, ref = M.build(M.reference_text(M.source(name)), False)
    assert rc == 0, err
    c, checked = M.checked_c(ref, name)
    d, tile = M.dispatch(name), M.tile_of(name)
    ids = M.plain_ids(name, name.split(".")[1], d.grid)
    assert checked.sound and checked.stored == len(ids) * tile[0] * tile[1], checked
    return c


def test_the_comparison_sees_a_changed_result():
    """A mutant that computes another C (the K-loop cut to its first 16 of 128 iterations)
    is told apart from the original, and a loop-carried read moved above its copies is
    refused at the op; the unmutated kernel's reference at the prefetch point (its swizzle
    made explicit for the unpipelined build) is exact (its pipelined build is exact on
    these workgroups in test_iree_emulate.py's ``test_pipelined_iree_kernel_is_exact``:
    the verdict's comparison of the two, emulated again, would be ``exact`` too)."""
    whole = _reference_is_exact("4096.prefetch")
    text = M.source("4096.late")
    cut = M.Mutant("4096.late", -1, "upper bound 16", text.replace(
        "scf.for %arg0 = %c0_i32 to %c128_i32", "scf.for %arg0 = %c0_i32 to %c16_i32"))
    assert "%c16_i32 = arith.constant 16 : i32" in text and cut.text != text
    assert M.verdict(cut)[0] == "exact"
    # the whole K-loop's C: the prefetch point's reference (the same inputs; its workgroup
    # (0, 0) is the late form's 0); the cut one's kept by the verdict's caches
    cutc = M.c_bytes(M.build(cut.text, False)[2], "4096.late")
    both = (whole != UNSTORED) & (cutc != UNSTORED)
    assert both.sum() == 128 * 128 and (whole[both] != cutc[both]).any()
    lines = text.split("\n")
    start, _ = M._loop(lines)
    read = next(i for i in range(start, len(lines)) if "vector.load %alloc[" in lines[i])
    lines.insert(start + 1, lines.pop(read))
    verdict, detail = M.verdict(M.Mutant("4096.late", -1, "read up", "\n".join(lines)),
                                refusal_first=True)
    assert verdict == "refused" and "loop-carried through LDS" in detail, detail


def test_a_read_across_swizzle_chunks_keeps_its_data():
    """Found by the campaign (seed 11, mutants 62 and 127): in the 512^3 kernel, whose copies
    the front end re-distributes, a fragment read at the thread id's element (8 elements
    from any element, so across two 8-element chunks) was re-addressed into a swizzle of
    the front end's that split it: C differed in ~430 elements.  The front end now takes
    only swizzles that keep every read's elements consecutive."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    lines = M.source("512.late").split("\n")
    start, end = M._loop(lines)
    reads = [i for i in range(start, end) if "vector.load %alloc[" in lines[i]]
    i = reads[6]
    lines[i] = lines[i].replace(lines[i].split("[")[1].split("]")[0], "%thread_id_x", 1)
    m = M.Mutant("512.late", -1, f"read on line {i + 1} at the thread id", "\n".join(lines))
    verdict, detail = M.verdict(m, refusal_first=True)
    assert verdict in ("exact", "refused"), f"{verdict}: {detail}"


def test_pingpong_with_a_step_that_does_not_divide_the_bounds_is_exact():
    """Found by the campaign (seed 6, mutant 59: IREE's 8-wave fp8 kernel, its K-loop's step
    made 3 over 0..4): with constant bounds whose difference the step does not divide and an
    even trip count (no remainder), the ping-pong loop ran one pair too many or too few and
    ~32,500 elements of C differed.  The front end now makes the upper bound lb + trips *
    step first (the same iterations)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    lines = M.source("8wave.late").split("\n")
    start, _ = M._loop(lines)
    pre = " " * (len(lines[start]) - len(lines[start].lstrip()))
    assert " = %c0_i32 to %c16_i32 step %c" in lines[start], lines[start]
    step = lines[start].split(" step ")[1].split(" ")[0]
    lines[start] = lines[start].replace(f"step {step}", "step %mut_step", 1)
    lines.insert(start, f"{pre}%mut_step = arith.constant 5 : i32")      # 0, 5, 10, 15
    assert M.verdict(M.Mutant("8wave.late", -1, "step 5", "\n".join(lines))) == ("exact", "")


def test_a_transposing_read_feeding_both_operands_is_refused_at_the_op():
    """Found by the campaign (seed 4, mutant 228): IREE's ``A^T x B`` kernel at the prefetch
    point with an MFMA's B operand replaced by its A left one transposing read in use after
    the front end regrouped the others; the check that names it compared it with the erased
    reads and crashed ('the operation has been invalidated', unlocated).  Now refused at
    that read."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    families = ["fp8", "i8", "ab", "atb", "mfma32", "odd", "k4095", "8wave", "vd"]
    m = M.mutant(4, 228, families)
    assert m.what.startswith("atb.prefetch: MFMA on line") and "B operand replaced by A" in \
        m.what, m.what
    verdict, detail = M.verdict(m, refusal_first=True)
    assert verdict == "refused" and "not only by MFMA operands" in detail, detail


#: the families' base kernels no other test runs unmutated (the committed 4096^3 and the
#: VectorDistribute ones are above; the others are IREE configurations
#: test_iree_configurations.py and test_iree_pingpong.py emulate at other sizes)
BASES = ["fp8", "f16ab", "atbt", "fp8ab", "i8ab", "vdfp8", "k128w", "k128wn", "mfma32w"]
#: family -> the family in :data:`BASES` whose late form is its text but for the element
#: type (and the target's list of types, which names both): its base stands for it, the
#: emulator's MFMAs of that type exact in test_iree_configurations.py
TWINS = {"e5m2": "fp8"}
#: the element type's names in IREE's kernels, as each family of :data:`TWINS` and
#: :data:`TYPE_TWINS` spells them
_TYPES = {"e5m2": "f8E5M2", "fp8": "f8E4M3FN", "f16ab": "f16", "ab": "bf16"}


def _as_its_twin(family: str, twin: str | None = None) -> None:
    """The late form of ``family`` is its twin's (``twin``, else :data:`TWINS`') with the
    element type renamed, but for the target attribute's line (which lists every type, in
    another order)."""
    twin = twin or TWINS[family]

    def text(name: str) -> list[str]:
        lines = M.source(f"{name}.late").split("\n")
        lines = [ln for ln in lines if not ln.startswith("#executable_target")]
        return [ln.replace(_TYPES[name], "T") for ln in lines]
    assert text(family) == text(twin), f"{family}.late is not {twin}.late but for the type: " \
        f"its own base must run (take {family} out of TWINS and TYPE_TWINS)"


#: the bases of :data:`BASES` whose pipelined late form test_iree_pingpong.py runs exact
#: on the emulator (``test_pipelined_kernel_is_exact_with_8_waves[...-late]``, late mode, the
#: text checked the same here): their reference alone is run here
PINGPONG_RUN = {"k128w", "k128wn", "mfma32w"}


#: bases whose family another of :data:`BASES` stands for in the default run: the same
#: pipelined path at other sizes (their ``--emit=schedule-json`` of the late form the same
#: but for numbers, checked by hand), the reference built and run the same way
SAME_PATH = {"k128wn": "k128w"}
#: bases whose late form is that of a family IREE's configurations table emulates (bf16
#: ``A x B`` 1024x1024x512: test_iree_configurations.py's ``bf16_ab_1024x1024x512``) but for
#: the element type (:func:`_as_its_twin`, run by the base's own item), their
#: ``--emit=schedule-json`` that family's byte for byte (checked by hand): the f16 MFMA's
#: kernels are emulated by test_iree_configurations.py, the campaign's reference path in
#: ``A x B`` by test_a_family_base_is_exact_unmutated[i8ab] (the 8-bit transposing reads of
#: B fp8 ``A x B`` takes too)
TYPE_TWINS = {"f16ab": "ab"}
#: the bases' campaign (``campaign_sample.py``), those of neither :data:`SAME_PATH` nor
#: :data:`TYPE_TWINS`, with what each holds: the front end's path (tile and fuse, vector
#: distribute, 8 waves under ``pingpong``), the element type, the layout and the MFMA's
#: shape; cheapest first (a whole run's item seconds), so the default run keeps the first
#: base of each kind and the long tier the rest (fp8 ``A x B``: its front end, type, layout
#: and MFMA held by [fp8] and [i8ab], whose 8-bit ``A x B`` reads B with the transposing
#: reads fp8's does, ``mutants.FAMILIES``)
BASE_TEST = "test_a_family_base_is_exact_unmutated"
BASE_TABLE = [Case(family, (("front end", path), ("type", dtype), ("layout", layout),
                            ("MFMA", mfma)), (family,), BASE_TEST)
              for family, path, dtype, layout, mfma in (
                  ("mfma32w", "8 waves", "bf16", "A x B^T", "32x32"),
                  ("k128w", "8 waves", "bf16", "A x B^T", "16x16"),
                  ("fp8", "tile and fuse", "fp8", "A x B^T", "16x16"),
                  ("vdfp8", "vector distribute", "fp8", "A x B^T", "16x16"),
                  ("i8ab", "tile and fuse", "i8", "A x B", "16x16"),
                  ("fp8ab", "tile and fuse", "fp8", "A x B", "16x16"),
                  ("atbt", "tile and fuse", "bf16", "A^T x B^T", "16x16"))]


def _base_param(family: str):
    """``family`` as a parameter of :func:`test_a_family_base_is_exact_unmutated`: in the
    long tier when :data:`SAME_PATH` or :data:`TYPE_TWINS` holds it, or it is beyond the
    sample of :data:`BASE_TABLE`."""
    if family not in SAME_PATH and family not in TYPE_TWINS:
        return next(p for p in sample_params(BASE_TABLE, BASE_TEST) if p.id == family)
    if family in SAME_PATH:
        why = (f"{family} takes the path of test_a_family_base_is_exact_unmutated["
               f"{SAME_PATH[family]}] at other sizes")
    elif family in TYPE_TWINS:
        why = (f"{family}.late is {TYPE_TWINS[family]}.late but for the element type, its "
               "--emit=schedule-json the same byte for byte: the reference path in A x B is "
               "test_a_family_base_is_exact_unmutated[i8ab]'s, the pipelined kernel "
               "test_iree_configurations.py's bf16_ab_1024x1024x512")
    return pytest.param(family, marks=pytest.mark.long(why))


@pytest.mark.parametrize("family", [_base_param(f) for f in BASES])
def test_a_family_base_is_exact_unmutated(family):
    """Each family's kernel (late form) as the campaign mutates it, unmutated: built with
    and without the sched passes, the two C's agree on the emulator (late mode, the
    verdict's workgroups: the campaign's reference path, :func:`mutants.verdict`), so a mutant's
    ``exact`` compares against a reference that is right.  For :data:`PINGPONG_RUN`, whose
    pipelined build another test runs exact, the reference is run alone and found exact
    against A x B^T on those workgroups (one build and one run, not two)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    import generate as G

    name = f"{family}.late"
    if family in PINGPONG_RUN:
        fam = M.FAMILIES[family]
        assert fam.eight_wave in G.EIGHT_WAVE and not fam.flags, family
        assert M.source(name) == G.late_form(G.matmul_source(**G.EIGHT_WAVE[fam.eight_wave]))
        _reference_is_exact(name)
    else:
        assert M.verdict(M.Mutant(name, -1, "none", M.source(name))) == ("exact", "")
    for other, base in TWINS.items():
        if base == family:
            _as_its_twin(other)
    if family in TYPE_TWINS:
        _as_its_twin(family, TYPE_TWINS[family])


def test_the_bases_sample_holds_every_kind():
    """The default run's bases of :data:`BASE_TABLE` (those not marked ``long``) hold every
    front end's path, element type, layout and MFMA of the table (``campaign_sample.py``),
    and the table is every base of :data:`BASES` but those another family stands for."""
    assert {c.id for c in BASE_TABLE} == set(BASES) - set(SAME_PATH) - set(TYPE_TWINS)
    kept = default_ids([_base_param(f) for f in BASES if f in {c.id for c in BASE_TABLE}],
                       BASE_TEST)
    assert uncovered(BASE_TABLE, kept) == set()


def test_a_mutant_racing_on_c_is_input_broken():
    """Found by the campaign (seed 1, mutant 116 of the padded K-masked prefetch forms): the
    index constant 4 made 1 in IREE's padded M-and-N kernel reaches only its epilogue, whose
    threads then scatter to the same elements of C from several waves.  The unpipelined
    mutant's C depended on the order its waves ran, so the pipelined one's C differed from
    it in 128 elements and the verdict was ``WRONG``.  The emulator's race check of global
    memory now names the race in the unpipelined build (two waves of one workgroup storing
    to one element of C, nothing ordering them), which makes it ``input-broken``."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    m = M.mutant(1, 116, ["padkm.prefetch", "padkmn.prefetch"])
    assert m.what == "padkmn.prefetch: constant on line 32: 4 -> 1", m.what
    verdict, detail = M.verdict(m)
    assert verdict == "input-broken" and re.match(
        r"Finding: global-race: wave \d of workgroup \(0,0\), .*'global_store_dword .*': "
        r"global write of buffer C .* races the write by wave \d of workgroup \(0,0\) at "
        r".*'global_store_dword .*'", detail), (verdict, detail)


def test_a_mutant_whose_grid_shrank_is_off_grid():
    """A mutant whose own grid no longer holds a workgroup the comparison runs (the prefetch
    form's forall (32, 32) made (32, 1): workgroup (1, 1) does not exist, and would store
    nothing in either build) is ``off-grid``, never judged on it; the unmutated form is
    judged (None); the ids of a 1-D grid: ``test_a_workgroup_outside_the_grid_is_not_run``."""
    pre = M.source("4096.prefetch")
    assert M.off_grid(pre, "4096.prefetch") is None
    assert re.search(r"workgroup \(1, 1\) is not in the grid 1 x 32 \(32 workgroups\) .*"
                     r"the dispatch's is 32 x 32", M.off_grid(
                         pre.replace("in (32, 32)", "in (32, 1)"), "4096.prefetch"))


def test_the_workgroups_run_are_in_the_dispatch_grid():
    """A plain dispatch's mutants run workgroups its launch has: (0, 0) and (1, 1) (0 and 5)
    where the grid holds them, as recorded; else the grid's last (a grid of one tile along N,
    1 x 32: IREE's 2048x63x1024), once; every id passes the emulator's own grid check."""
    from pipeline_mlir.emu.gemm import check_in_grid

    pre, late = M.WORKGROUPS["prefetch"], M.WORKGROUPS["late"]
    cases = [(pre, (32, 32), pre), (pre, (1, 32), [(0, 0), (0, 31)]),
             (pre, (16, 1), [(0, 0), (15, 0)]), (pre, (1, 1), [(0, 0)]),
             (late, (32,), late), (late, (3,), [0, 2]), (late, (1,), [0]),
             (pre, None, pre)]
    for ids, grid, want in cases:
        got = M.inside_grid(ids, grid)
        assert got == want, (ids, grid, got)
        check_in_grid("k", got, grid)
    assert M.plain_ids("4096.prefetch", "prefetch", (32, 32)) == pre


def test_a_dispatch_not_plain_runs_a_workgroup_of_each_role():
    """A dispatch that is not plain runs every workgroup of a small grid, else one of
    each role, found from the grid and C's sizes (:func:`mutants.role_ids`): IREE's batch
    2 x 300x520 at 64x128 tiles (a linear grid of 50, 5 x 5 tiles a batch, partial along
    M and N) runs the first, middle and last of each batch, the first and last column of
    each batch's last row and the last column of its first row (either order of the
    linearised ids); a 2-D grid its corners and its middle."""
    assert M.described_ids(SimpleNamespace(grid=(4,), M=100, N=128, batch=(2,))) == \
        [0, 1, 2, 3]
    assert M.described_ids(SimpleNamespace(grid=(7, 3), M=1, N=1, batch=())) == \
        [*((x, y) for y in range(3) for x in range(7))]
    assert M.role_ids((50,), 300, 520, 2, (64, 128)) == [0, 4, 12, 20, 24, 25, 29, 37, 45, 49]
    # whole tiles (1024^2 at 64x128): no edge unlike the interior
    assert M.role_ids((128,), 1024, 1024, 1, (64, 128)) == [0, 64, 127]
    # IREE's 64x192 tile, 600x500 in 10 x 3 tiles, partial along M and N: the first and
    # the last column of the last row of tiles (27, 29; or 9, 29 linearised the other
    # way) and the last column of the first row (2; 20).  A tile not known (the tile
    # sizes' factorings, powers of two before) found the first, middle and last only
    edges = [0, 2, 9, 15, 20, 27, 29]
    assert M.role_ids((30,), 600, 500, 1, (64, 192)) == edges
    assert set(edges) <= set(M.role_ids((30,), 600, 500))
    assert M.role_ids((8, 4), 512, 512) == [(0, 0), (7, 0), (4, 2), (0, 3), (7, 3)]


def test_the_verdict_sees_the_workgroup_where_rows_are_spared(monkeypatch):
    """IREE's batch ``A x B^T`` 2x100x128x262, late form (a grid of 4), with the
    epilogue's first private load made to read row tile 1 (``unused_checks.row_tile_moved``)
    and the proof of unused rows made to spare every element inside the buffer: pipelined
    with exit 0, and WRONG in workgroup 1, where the proof spares rows.  On the first and
    the last workgroup alone (the verdict's run of a dispatch that is not plain before) it
    was "exact"."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    import numpy as np

    import pipeline_mlir.frontend.unused_rows as U
    from unused_checks import row_tile_moved

    def everything(self, wid):
        return np.ones(int(np.prod(self.an.buffers[self.buffer].type.shape)), dtype=bool)

    name = "batch.late"
    assert M.described_ids(M.dispatch(name), name) == [0, 1, 2, 3]
    assert M.tile_of(name) == (64, 128)     # the tile role_ids reads on a larger grid
    monkeypatch.setattr(U.UnusedElements, "unused", everything)
    m = M.Mutant(name, -1, "row tile 1 read for row tile 0", row_tile_moved(M.source(name)))
    verdict, detail = M.verdict(m)
    assert verdict == "WRONG", (verdict, detail)
    # the first byte of C that differs: in batch 0, a row of workgroup 1 (rows 64 to 99)
    first = int(re.search(r"first at \((\d+),\)", detail).group(1)) // 4
    assert first < 100 * 128 and 64 <= first // 128 < 100, detail


def test_a_private_index_out_of_bounds_is_undefined():
    """The campaign found IREE's kernel of C kept in private memory (keptab, seed 2, mutant
    8: the constant 3 made 11) storing at ``[.., 11, ..]`` of a dimension of 4, and called
    it ``WRONG``: the unpipelined kernel is undefined there. The front end now refuses it at
    the store; the campaign's own check (:func:`undefined`, the same check on the mutant's
    text) makes it ``undefined`` whatever the builds do, and a run of the unpipelined
    build out of its private segment (the emulator's finding, whose words
    test_scratch.py checks) too."""
    text = (Path(__file__).parents[2] / "lit" / "passes" / "Inputs" /
            "natural-4wave.mlir").read_text()
    assert M.undefined(text) is None
    lines = text.splitlines()
    lines[17:17] = ["%pv = memref.alloca() : memref<2x4xf32, #gpu.address_space<private>>",
                    "%cz = arith.constant 0.0 : f32",
                    "memref.store %cz, %pv[%c1, %c8] : memref<2x4xf32, "
                    "#gpu.address_space<private>>"]
    assert re.search(r"'memref.store' op indexes dimension 1 of its private buffer .* at 8, "
                     r"outside its 4 elements", M.undefined("\n".join(lines)))


#: the later families of the front end's later paths: register copies padded by a select
#: proven the identity (i8 and fp8 ``A x B``, i8 ``A^T x B^T``, f16 ``A^T x B``), skinny
#: tiles split along K, static-row partial edge tiles with an unaligned K (and a relu), an
#: fp8 C, lockstep kernels of 8 and 16 waves and of one wave, gfx942's 16x16x32 FP8 MFMA
NEWER = {"i8abk", "i8abk2", "fp8abk", "i8atbtk", "f16atbk", "skinny", "skinnyn", "rows",
         "rowsk", "rowsrelu", "fp8c", "w8", "w16", "w1", "keptab", "fp8m16"}
#: the newest paths' families (later, drawing :data:`mutants.AIMED_MUTATIONS` too), those of
#: IREE's own prefetch rolled back among them
AIMED = {"atb600", "w1m", "keptm", "padatbmn", "accst", "padatbk200", "atb300", "diag96",
         "diagi8", "atbt129", "diag2w", "atbt113", "bab257", "bab129", "bab100",
         "diagfp8", "diag192", "short96", "half32", "merge312", "join652", "own16",
         "tail232", "own32i8", "acctiny", "f32ab", "f32pad", "f32rows", "f32rowst"}
AIMED_ROLLED = {"regk1020", "regf16k", "dma1w", "reg1w", "reroll8", "remui44", "reg3s",
                "reg3pad", "reg3k", "peeledreg", "peeledregi8", "accpeel", "f32s3",
                "f32rows2", "f32rowst2", "f32fold2"}
#: the tenth audit's families (aimed, drawing :data:`mutants.NEWEST_MUTATIONS` too)
NEWEST = {"pc100", "pc17", "i8acc", "i8acct", "accbr"}
#: the twelfth audit's families (aimed, drawing :data:`mutants.NEWEST_MUTATIONS` too; its
#: two batches aimed only)
TWELFTH = {"h31", "h17", "hab31", "hab17", "gp24", "ot9", "ot33", "ot28"}
TWELFTH_BATCHES = {"bt8", "btab"}
#: the tenth audit's two families in IREE's default build, rolled back (aimed, newest)
GUARDED_ROLLED = {"pc100s2", "pc17s2"}
#: the family the verdict's workgroups were found short on (IREE's batch 2x100x128x262)
VERDICT = {"batch"}


def test_later_families_leave_the_recorded_draws_alone():
    """The families added after the campaign's recorded numbers (``i8x``, ``i8kf``,
    ``vdi8ab``, ``dynk``, ``bf16x``, ``fp8x`` and :data:`NEWER`) are drawn only when named,
    and only their mutants draw the bare barrier: every earlier campaign (a seed over every
    family, or named families) draws the same mutants as before."""
    later = {n for n, fam in M.FAMILIES.items() if fam.later}
    assert later == {"i8x", "i8kf", "vdi8ab", "dynk", "bf16x", "fp8x", *NEWER, *ROLLED,
                     *AIMED, *AIMED_ROLLED, *VERDICT, *NEWEST, *TWELFTH, *TWELFTH_BATCHES,
                     *GUARDED_ROLLED}
    assert {n for n, fam in M.FAMILIES.items() if fam.aimed} == \
        AIMED | AIMED_ROLLED | NEWEST | TWELFTH | TWELFTH_BATCHES | GUARDED_ROLLED
    assert {n for n, fam in M.FAMILIES.items() if fam.newest} == \
        NEWEST | TWELFTH | GUARDED_ROLLED
    assert not any(n.split(".")[0] in later for n in M._pool())
    assert {M.mutant_source(SEED, i) for i in range(200)}.isdisjoint(
        {f"{n}.{f}" for n in later for f in M.FORMS})
    assert len(M.MUTATIONS) == 12 and M.m_bare_barrier not in M.MUTATIONS
    assert M.LATER_MUTATIONS == M.MUTATIONS + (M.m_bare_barrier,)
    assert {n for n, fam in M.FAMILIES.items() if fam.rolled} == \
        ROLLED | AIMED_ROLLED | GUARDED_ROLLED
    assert M.ROLLBACK_MUTATIONS[:len(M.LATER_MUTATIONS)] == M.LATER_MUTATIONS
    assert M.INPUTS["i8kf.late"].pipeline == "pingpong{waits=fragment}"


def test_the_straight_mutations_mutate_straight_k_tiles_only():
    """The straight tiles' mutations (``mutants.STRAIGHT_MUTATIONS``) are drawn for the
    families whose late form IREE's pipelining left without a loop, and each mutates such a
    form (a barrier moved below an LDS read, a copy above a barrier, an MFMA's accumulator)
    and has nothing to mutate in a form with a K-loop (the committed 4096^3 kernel)."""
    import random

    assert {n for n, fam in M.FAMILIES.items() if fam.straight} == \
        {"peeled", "peeledreg", "peeledregi8", "accpeel"}
    loop = M.source("4096.late")
    for mutation in M.STRAIGHT_MUTATIONS:
        assert M.apply_one(mutation, loop, random.Random(0)) is None, mutation
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    words = {M.m_straight_barrier_down: "moved below the LDS read",
             M.m_straight_copy_up: "moved above the barrier",
             M.m_straight_accumulator: "accumulates onto"}
    for name in ("peeled.late", "peeledreg.late"):
        text = M.source(name)
        for mutation in M.STRAIGHT_MUTATIONS:
            what, mutated = M.apply_one(mutation, text, random.Random(1))
            assert words[mutation] in what and mutated != text, (name, mutation)


def test_a_bare_barrier_mutation_with_and_without_its_wait():
    """The bare-barrier mutation makes a ``gpu.barrier`` a ``rocdl.s.barrier``, half the
    time with a ``rocdl.s.waitcnt`` before it (``frontend/soundness.py`` requires the
    waits; the committed kernel's refusal and acceptance are in ``test_soundness.py``)."""
    import random

    text = M.source("4096.late")
    seen = set()
    for seed in range(12):
        lines = text.split("\n")
        what = M.m_bare_barrier(lines, random.Random(seed))
        new = "\n".join(lines)
        assert new.count("gpu.barrier") == text.count("gpu.barrier") - 1
        assert new.count("rocdl.s.barrier") == 1, what
        waits = re.findall(r"rocdl\.s\.waitcnt (\d+)\n\s*rocdl\.s\.barrier", new)
        assert ("after a rocdl.s.waitcnt" in what) == bool(waits), what
        seen.add(int(waits[0]) if waits else None)
    assert seen == {None, *M.WAITS}, seen


#: the families of IREE's own prefetch pipelining, late form (:attr:`mutants.Family.rolled`):
#: its default builds of fp8 and bf16 ``A x B^T`` (copies through registers,
#: ``frontend/reroll_regs.py``) and a one-wave 32x32 DMA kernel on 4224 workgroups
#: (``frontend/reroll.py``) and the same tile copied through registers, both proven by the
#: forms alone; and its 3-stage build of 3 K tiles, no loop left (``peeled``:
#: ``frontend/reroll_straight.py``, whose mutants test_iree_reroll_straight.py judges)
ROLLED = {"regfp8", "reg512", "dmabig", "regbig", "peeled"}


def test_the_rolled_back_families_are_refused_or_exact():
    """IREE's own prefetch pipelining, mutated where the roll-backs prove it (seed 1 of
    :data:`ROLLED`): the DMA kernel's rolled bound a tile more (exact: its K-merged loop,
    once a crash, on the 1 x N slot buffer the roll-back leaves), a prologue copy's LDS
    index made the workgroup id (refused: not the body's copy by the forms, and the
    enumeration of its 4224 workgroups finds its LDS elements differ in workgroup 0), a
    register tile changed before its LDS store (refused)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    want = {4: ("dmabig.late: rolled loop's upper bound 7 -> 8", "exact", ""),
            10: ("dmabig.late: prologue LDS index %c512 on line 86 -> %workgroup_id_x",
                 "refused", "its LDS elements differ (workgroup 0)"),
            12: ("reg512.late: carried value %284 changed before its store", "refused",
                 "is not an LDS store of")}
    families = ["dmabig", "reg512", "regfp8"]       # (the recorded campaign's)
    for i, (what, verdict, detail) in want.items():
        m = M.mutant(1, i, families)
        got, why = M.verdict(m, refusal_first=True)
        assert m.what.startswith(what) and got == verdict and detail in why, \
            (m.what, got, why, M.command(1, i, families))


#: the later families (:attr:`mutants.Family.later`), a few mutants each of seed 1: a bare
#: barrier alone (refused at the op), a copy moved below its reads (vdi8ab, dynk: a store to
#: C in the loop; refused at the op), a bare barrier after its full wait (exact, round the
#: pipelined loop's steady state); of :data:`NEWER`, the one-wave kernel, the skinny tile and
#: the masked rows at K = 1030 (kernels other tests generate: their ``iree-compile`` runs
#: shared), the two bare barriers (the others by hand: docs/iree-soundness.md).  Each
#: mutant's mutation and verdict as recorded; the cheapest families first, the refusals
#: before the exact verdicts (two builds and two emulations), for the sample's rule
LATER_MUTANTS = [("w1", 41, "refused"), ("w1", 11, "exact"),
                 ("skinny", 41, "refused"), ("skinny", 11, "exact"),
                 ("i8x", 2, "refused"), ("i8x", 41, "refused"), ("i8x", 11, "exact"),
                 ("i8kf", 2, "refused"), ("i8kf", 41, "refused"), ("i8kf", 11, "exact"),
                 ("bf16x", 2, "refused"), ("bf16x", 41, "refused"), ("bf16x", 11, "exact"),
                 ("fp8x", 2, "refused"), ("fp8x", 41, "refused"), ("fp8x", 11, "exact"),
                 ("vdi8ab", 0, "refused"), ("vdi8ab", 41, "refused"),
                 ("vdi8ab", 11, "exact"), ("rowsk", 41, "refused"), ("rowsk", 11, "exact"),
                 ("dynk", 0, "refused"), ("dynk", 11, "exact")]
#: the mutation each index of :data:`LATER_MUTANTS` draws (seed 1, in every later family)
LATER_OPERATORS = {41: "m_bare_barrier", 11: "m_bare_barrier", 2: "m_copy_down",
                   0: "m_c_side_effect"}
#: later families that take another's path in another element type: their late form's
#: ``--emit=schedule-json`` is that family's, byte for byte (checked by hand), the kernels
#: differing in their MFMA and LLVM's code around it
PATHS = {"bf16x": "i8x", "fp8x": "i8x"}
#: the campaign of the later families as a table (``campaign_sample.py``): the default run
#: keeps the first mutant of each family's path (:data:`PATHS`), mutation and verdict in
#: that order, the long tier the rest
LATER_TEST = "test_a_later_family_is_refused_or_exact"
LATER = [Case(f"{family}-{index}", (("family's path", PATHS.get(family, family)),
                                    ("operator", LATER_OPERATORS[index]),
                                    ("verdict", verdict)), (family, index, verdict), LATER_TEST)
         for family, index, verdict in LATER_MUTANTS]
LATER_PARAMS = sample_params(LATER, LATER_TEST)


#: later families whose verdicts here run the first of the campaign's workgroups only:
#: dynk's are both interior tiles of a grid of 1024 whole tiles (0 and 5), its unpipelined
#: reference the slowest to emulate (3.9 of the exact verdict's 4.3 s of CPU emulating its
#: two builds on both; the item 15.5 s of CPU alone, 11.5 s on one); its pipelined kernel
#: is exact on the first workgroup at run-time K in test_dynamic_k_iree.py, as here
FIRST_WORKGROUP = {"dynk"}


@pytest.mark.parametrize("family, index, want", LATER_PARAMS)
def test_a_later_family_is_refused_or_exact(family, index, want, monkeypatch):
    """Each later family of kernels (the i8, bf16 and fp8 64x128 tiles split along K
    crosswise under ``pingpong``, two K steps merged into one K tile; the i8 128x128 4x2
    one under ``pingpong{waits=fragment}``; IREE's VectorDistribute i8 ``A x B``; IREE's
    dynamic-K kernel at K = 196, 6 whole K tiles and a masked one; some of :data:`NEWER`)
    mutated, its bare barriers included: refused with a located message or exact against
    its unpipelined build as recorded, the exact ones round the pipelined loop's steady
    state (a refusal judged before the unpipelined build: ``refusal_first``)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from steady_loop import LoopRecord, assert_steady, counting_loops

    if family in FIRST_WORKGROUP:
        ids = M.plain_ids
        monkeypatch.setattr(M, "plain_ids", lambda *a: ids(*a)[:1])
    m = M.mutant(1, index, [family])
    assert m.operator == LATER_OPERATORS[index], m.what
    with counting_loops() as loops:
        verdict, detail = M.verdict(m, refusal_first=True)
    assert verdict == want, (f"{verdict}: {m.what}\n{detail}\n"
                             f"reproduce: {M.command(1, index, [family])}")
    if verdict == "exact":      # runs: the unpipelined build's, then the pipelined one's
        assert_steady(LoopRecord(loops.runs[1:2]))


def test_the_later_families_sample_holds_every_kind():
    """The default run's items of :data:`LATER` (those not marked ``long``) hold every
    family's path, mutation and verdict of the table (``campaign_sample.py``; the check fails on a
    sample that misses one: test_campaign_sample.py); each item checks its own."""
    assert uncovered(LATER, default_ids(LATER_PARAMS, LATER_TEST)) == set()


def test_the_aimed_mutations_change_what_they_name():
    """The mutations aimed at the newest paths (:data:`mutants.AIMED_MUTATIONS`) on the f16
    ``A^T x B`` 1000x600x1030 kernel's committed forms (its masks' bounds and compares, its
    maps, selects, guards, strided slices, views and C's per-thread write) and on a
    ``vector.create_mask`` / ``vector.shuffle`` of its own: each applies (a kind with
    nothing to mutate raises, and ``applied`` draws another), changes the text and says
    what it changed; the draws are deterministic."""
    import random

    shuffle = ("    %m = vector.create_mask %c3 : vector<8xi1>\n"
               "    %s = vector.shuffle %a, %b [0, 1, 4, 5] : vector<4xf16>, vector<4xf16>")
    texts = [M.source("atb600.late"), M.source("atb600.prefetch"), shuffle]
    made = set()
    for mutation in M.AIMED_MUTATIONS:
        for text in texts:
            for seed in range(6):
                got = M.apply_one(mutation, text, random.Random(seed))
                if got is None:
                    continue
                what, new = got
                assert new != text, (mutation.__name__, what)
                assert re.search(r"line \d+", what), what
                made.add(mutation.__name__)
                assert M.apply_one(mutation, text, random.Random(seed))[0] == what
    assert made == {m.__name__ for m in M.AIMED_MUTATIONS}, made
    mutated = [M.mutant(1, i, ["atb600"]).what for i in range(30)]
    assert any(k in w for w in mutated for k in ("cmpi", "select", "affine map"))


#: a K-loop with what the tenth audit's mutations aim at: a copy by part of the workgroup
#: (an ``scf.if`` on the thread id, a per-thread loop), a private buffer written and read
#: back, reads of global memory before and after the loop
NEWEST_SNIPPET = """\
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c0_i32 = arith.constant 0 : i32
    %c256_i32 = arith.constant 256 : i32
    %tid = gpu.thread_id x upper_bound 256
    %r = vector.transfer_read %g[%c0, %tid], %c0_i32 {in_bounds = [true]} : memref<4x256xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xi32>
    vector.store %r, %p[%c0, %c0] : memref<4x4xi32, #gpu.address_space<private>>, vector<4xi32>
    %t = arith.index_castui %tid : index to i32
    %x = scf.for %k = %c0 to %c128 step %c1 iter_args(%a = %r) -> (vector<4xi32>) {
      %g0 = arith.cmpi slt, %tid, %c128 : index
      scf.if %g0 {
        amdgpu.gather_to_lds %g[%c0, %tid], %l[%c0] : vector<1xi32>, memref<4x256xi32, #amdgpu.address_space<fat_raw_buffer>>, memref<256xi32, #gpu.address_space<workgroup>>
      }
      scf.for %j = %t to %c128_i32 step %c256_i32  : i32 {
        gpu.barrier
      }
      scf.yield %a : vector<4xi32>
    }
    %b = vector.load %p[%c0, %c0] : memref<4x4xi32, #gpu.address_space<private>>, vector<4xi32>
    %s = vector.load %g[%c0, %c0] : memref<4x256xi32, #amdgpu.address_space<fat_raw_buffer>>, vector<4xi32>
    return"""


def test_the_newest_mutations_change_what_they_name():
    """The tenth audit's mutations (:data:`mutants.NEWEST_MUTATIONS`: a guard's bound or
    predicate and a per-thread loop's bounds, a private buffer's index or store, a read of
    global memory outside the K-loop) each apply to :data:`NEWEST_SNIPPET`, change what
    they name and are deterministic; every kind of each is drawn."""
    import random

    kinds = set()
    for mutation in M.NEWEST_MUTATIONS:
        for seed in range(12):
            got = M.apply_one(mutation, NEWEST_SNIPPET, random.Random(seed))
            if got is None:
                continue
            what, new = got
            assert new != NEWEST_SNIPPET and re.search(r"line \d+", what), what
            assert M.apply_one(mutation, NEWEST_SNIPPET, random.Random(seed))[0] == what
            kinds.add(re.sub(r" (%\S+|on line).*", "", what))
    assert kinds >= {"guard's cmpi", "guard's bound", "per-thread loop upper",
                     "per-thread loop step", "per-thread loop lower", "private index",
                     "private store", "outer read index", "outer read"}, kinds


def test_two_lanes_storing_one_element_of_c_are_input_broken():
    """Found by the campaign of the newest paths (seed 2, mutant 24 of its families): the
    one-wave register-prefetch kernel's store of C's row 16 at lane column + 1 makes lane 15
    store the element lane 0 stores next (its column + 16). The emulator runs a wave's
    stores in order, so neither build races there; LLVM, whose thread is a lane, reorders
    the two stores of the pipelined build (different addresses in one lane) and C differed
    in 8 elements: the unpipelined mutant is itself racy, ``input-broken``, not ``WRONG``
    (:func:`mutants.lanes_sharing`)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    families = ["atb600", "regk1020", "regf16k", "dma1w", "reg1w", "w1m", "keptm"]
    m = M.mutant(2, 24, families)
    assert m.what == "reg1w.late: C store index %87 on line 172 +1"
    # the check the verdict runs where the two C's differ, on the unpipelined build alone
    # (the whole verdict: 2 more builds and 2 emulations), and on the unmutated kernel's
    # (the bytes stored twice with one value are not: byte 33474 is the first that differs)
    mutated = M.lanes_sharing(M.build(m.text, False)[2], m.form)
    assert "lanes 15 and 0 of wave 0 store byte 33474 of buffer C" in mutated, mutated
    assert M.lanes_sharing(M.build(M.source(m.form), False)[2], m.form) is None
    # the shared bytes count only in the elements where the two builds' C differ
    import numpy as np

    d = M.dispatch(m.form)
    differ = np.zeros((d.M, d.N), dtype=bool)
    assert M.lanes_sharing(M.build(m.text, False)[2], m.form, differ) is None
    differ.reshape(-1)[33474 // 4] = True
    assert "byte 33474" in M.lanes_sharing(M.build(m.text, False)[2], m.form, differ)


def test_a_private_element_read_unwritten_is_undefined():
    """Found by the campaign of the newest paths (seed 2, mutant 83; seed 1, mutant 152):
    the kept masks' kernel (C kept in IREE's private ``memref<2x4x4x4x1xf32>``) with the
    step of a loop that fills it made 2 leaves elements 1 and 3 of a row unwritten, and C's
    write reads them in every run: 1024 elements of C differed between the builds (what
    LLVM made of the undefined values; no poison reached C, LLVM having promoted the buffer
    to registers). The campaign's check of the text (:func:`mutants.unwritten`) makes such
    a mutant ``undefined``; the unmutated kernel reads only what it writes."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    families = ["atb600", "regk1020", "regf16k", "dma1w", "reg1w", "w1m", "keptm"]
    m = M.mutant(2, 83, families)
    assert m.what == "keptm.late: C loop step on line 396 -> 2", m.what
    why = M.unwritten(m.text)
    assert re.match(r"'memref\.load' op at line \d+:\d+ reads element \[0, 0, 1, 1, 0\] of a "
                    r"private buffer no store writes", why or ""), why
    assert M.unwritten(M.source("keptm.late")) is None
    assert M.unwritten(m.text.replace("step %mut_b ", "step %c1_i32 ")) is None


def test_undefined_only_where_c_changes_with_the_poison():
    """``stores_poison`` called a difference ``undefined`` when the unpipelined build's
    differing bytes were 0xFF, the emulator's poison; 0xFF is also a byte of ordinary
    results: an ``i32`` -100 (0xFFFFFF9C) computed as 156, a bf16 510 (0x43FF) as 508, and
    words of an ``i32`` -1. Now a difference is ``undefined`` only where the unpipelined C
    changes when it runs again with another poison (a finding of that run too)."""
    from types import SimpleNamespace

    import numpy as np

    def as_bytes(values, view):
        return np.frombuffer(np.array(values, dtype=view).tobytes(), np.uint8).astype(np.int16)

    i32 = SimpleNamespace(plain=False, out_dtype="i32")
    want, got = as_bytes([5, -100, 7], "<i4"), as_bytes([5, 156, 7], "<i4")
    assert M.stores_poison(want, want != got, want.copy(), i32) is None
    # one byte of the element changes with the poison: the whole element is undefined
    other = want.copy()
    other[4] = 0x5A
    assert "changes when the unpipelined build runs" in M.stores_poison(
        want, want != got, other, i32)
    assert "stops: Finding" in M.stores_poison(want, want != got, "Finding: x", i32)
    bf16 = SimpleNamespace(plain=False, out_dtype="bf16")
    want, got = as_bytes([0x4000, 0x43FF], "<u2"), as_bytes([0x4000, 0x43FE], "<u2")
    assert M.stores_poison(want, want != got, want.copy(), bf16) is None
    words = SimpleNamespace(plain=True, out_dtype="i32")
    want, got = np.array([12, 0xFFFFFFFF]), np.array([12, 13])
    assert M.stores_poison(want, want != got, want.copy(), words) is None
    assert M.stores_poison(want, want != got, np.array([12, 0x5A5A5A5A]), words) is not None
    assert M.stores_poison(want, want == want, np.array([12, 0x5A5A5A5A]), words) is None


#: a private buffer of which a loop writes elements 0..2; ``READ`` reads element 3
UNWRITTEN = """
func.func @k(%C: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %one, %p[%i] : memref<4xf32, #gpu.address_space<private>>
  }
  %x = memref.load %p[%c3] : memref<4xf32, #gpu.address_space<private>>
  READ
  %v = memref.load %p[%c0] : memref<4xf32, #gpu.address_space<private>>
  memref.store %v, %C[%c0] : memref<4xf32>
  return
}
"""


@pytest.mark.parametrize("read, undefined", [
    ("", False),                                                    # a dead load
    ("memref.store %x, %C[%c1] : memref<4xf32>", True),
    ("%y = arith.addf %x, %one : f32\n  memref.store %y, %p[%c1] : memref<4xf32, "
     "#gpu.address_space<private>>\n  %z = memref.load %p[%c1] : memref<4xf32, "
     "#gpu.address_space<private>>\n  memref.store %z, %C[%c1] : memref<4xf32>", True),
    ("%y = arith.addf %x, %one : f32", False),                      # computed, then dropped
])
def test_an_unwritten_element_counts_only_where_its_value_is_stored(read, undefined):
    """``unwritten`` called a mutant undefined for any always-run load of an element nothing
    writes, even one whose value reaches no store (a dead load: nothing of it reaches C);
    now the value must reach a store to memory (through private memory too)."""
    why = M.unwritten(UNWRITTEN.replace("READ", read))
    assert (why is not None) == undefined, why
    if undefined:
        assert "reads element [3] of a private buffer no store writes" in why



def test_poison_made_constants_for_the_reference():
    """Found by the red-team campaign (seed 85, mutant 15: IREE's bf16 bias 300x260x256,
    late form, the ``scf.if`` of its guarded bias read negated): the in-bounds lanes then
    add the read's pad, a ``ub.poison``, to C; LLVM made one build's load unconditional
    (a poison may be anything, the loaded value too) and C differed in 14989 bytes, called
    ``WRONG``. With the poison made 7.0 (or -3.0) both builds agree: the mutant is
    undefined, which :func:`mutants.from_ub_poison` tells by building the unpipelined
    mutant with its poisons made two sets of constants (:func:`mutants.defined_poison`);
    here, that those constants are typed as the poisons were and parse."""
    from pipeline_mlir.dialect.bindings import ir, new_context

    text = """func.func @k() -> (f32, vector<4xbf16>, i1, index, vector<2xi32>, !llvm.ptr) {
  %0 = ub.poison : f32
  %1 = ub.poison : vector<4xbf16>
  %2 = ub.poison : i1
  %3 = ub.poison : index
  %4 = ub.poison : vector<2xi32>
  %5 = ub.poison : !llvm.ptr
  return %0, %1, %2, %3, %4, %5 : f32, vector<4xbf16>, i1, index, vector<2xi32>, !llvm.ptr
}"""
    made = [M.defined_poison(text, k) for k in (0, 1)]
    assert "arith.constant 7.0 : f32" in made[0] and "dense<-3.0> : vector<4xbf16>" in \
        made[1] and "arith.constant true" in made[0] and "arith.constant 3 : index" in made[1]
    assert "dense<7> : vector<2xi32>" in made[0] and made[0].count("ub.poison") == 1
    with new_context() as ctx:
        for t in made:
            ir.Module.parse(t, ctx)


def test_an_epilogue_read_of_the_loops_lds_is_refused_at_the_op():
    """IREE's bf16 4096^3 kernel (late form) with an epilogue that reads what the K-loop's
    last iteration left in its A buffer and adds it to C: before, pipelined with exit 0 and
    512 elements of C wrong against its unpipelined build (the pipelined loop keeps its K
    tiles in buffers of its own, and the kernel's was never written); now refused at that
    read (``frontend/lds_extent.py``, ``loop_lds_outside``)."""
    m = M.Mutant("4096.late", 0, "4096.late: the K-loop's A buffer read after it",
                 M.loop_lds_read_after(M.source("4096.late")))
    verdict, detail = M.verdict(m, refusal_first=True)
    assert verdict == "refused" and re.search(
        r"'vector\.load' op at line \d+:\d+ accesses memref<4096xbf16, #gpu\.address_space<"
        r"workgroup>>, LDS the K-loop \('scf\.for' op at line 166:\d+\) copies its tiles "
        r"into, after the loop", detail), detail


@pytest.mark.long("the emulator's rule this mutant found (a narrow load past the records "
                   "reads 0) is test_buffer_offset_wrap.py::test_a_narrow_load_past_the_"
                   "records_reads_zero's; an exact verdict of a mutant is held by "
                   "test_a_later_family_is_refused_or_exact[w1-11]")
def test_an_mfma_with_its_operands_swapped_past_an_odd_edge_is_exact(monkeypatch):
    """IREE's bf16 ``A^T x B^T`` 129x129x160 (family ``atbt129``: one 16x16x32 MFMA per K
    step, halved, 2 K steps merged, crosswise) with its MFMA's A and B swapped: A's
    ``K x M`` tile, whose runs M's edge cuts at one element, then feeds C's columns, so
    the tile's elements past M reach stored elements of C.  The front end copies those
    runs in pieces of one bf16, read past the range-checked end where they lie past M:
    zeros on the hardware, but the emulator gave a narrow load's lane past the records
    the buffer's first bytes (A[0][0]), and the verdict was WRONG (C[128][8] and every
    16th column on)."""
    if not _has_iree_compile():
        pytest.skip("iree-compile (iree-base-compiler) is not installed")
    m = M.mutant(7, 10, ["atbt129"])
    assert m.what == "atbt129.prefetch: MFMA on line 123: operands A and B swapped", m.what
    # the workgroup of the last row of tiles and the first column, where C[128][8] was wrong
    # (of the 5 the verdict runs), and the interior one
    assert (0, 8) in M.described_ids(M.dispatch(m.form), m.form)
    monkeypatch.setattr(M, "described_ids", lambda d, name: [(4, 4), (0, 8)])
    verdict, detail = M.verdict(m)
    assert verdict == "exact", (verdict, detail, M.command(7, 10, ["atbt129"]))
