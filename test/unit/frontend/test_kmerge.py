"""Consecutive K steps merged into one K tile (``pipeline_mlir/frontend/kmerge.py``).

The choice of how many K steps to merge, on numbers; and on IREE's 64x128 tiles in 2x4
waves of 32x32 MFMAs (``EIGHT_WAVE_VARIANTS``, generated once per run and shared with
``test_iree_pingpong.py``, which runs them from the prefetch point in both memory modes):
the merged loop's form and remainder loops, the report, the refusals of a loop the merge
cannot take when nothing else takes it, and IREE's dispatches with K (and M) known only at
launch (``test/data/iree/dynamic.py``) merged, guarded and run exact from both forms.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from pipeline_mlir.driver import CompileOptions, compile
from types import SimpleNamespace

from pipeline_mlir.frontend.kmerge_factor import lockstep_starved, merge_factor, wants_merge
from pipeline_mlir.frontend.marks import DIAGONAL_ATTR
from pipeline_mlir.schedules.registry import schedule_class
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import assert_steady, counting_loops

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402
import generate as G  # noqa: E402

I8 = "matmul_i8_abt_64x128_2x4_32x32_8wave"     # 19 K steps of 128
FP8 = "matmul_fp8_abt_64x128_2x4_32x32_8wave"   # 16 K steps of 128, a chain of 2
TILE = (64 + 128) * 128                          # bytes of LDS per K step of both (8-bit)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """(name, form) -> IREE's kernel (the run's build cache shares it)."""
    return G.form_files(tmp_path_factory.mktemp("kmerge"),
                        lambda n: G.matmul_source(**G.EIGHT_WAVE_VARIANTS[n]))


@pytest.fixture(scope="module")
def at_launch(kernels, tmp_path_factory):
    """(name, form, sizes) -> IREE's kernel with ``sizes`` ("k", "m") known only at launch
    (``test/data/iree/dynamic.py``; K in the late form: ``dynamic_k_late``); a "+lds"
    in ``sizes``: with :data:`MORE_LDS` bytes of other LDS too (:func:`_more_lds`)."""
    d = tmp_path_factory.mktemp("kmerge_launch")

    def get(name: str, form: str, sizes: str) -> Path:
        path = d / f"{name}.{form}.{sizes}.mlir"
        if not path.exists():
            text = kernels(name, form).read_text()
            if "k" in sizes or "m" in sizes:
                text = D.dynamic_k_late(text) if form == "late" else \
                    D.dynamic(text, m="m" in sizes, k="?" if "k" in sizes else None)
            path.write_text(_more_lds(text) if "+lds" in sizes else text)
        return path
    return get


#: other LDS that leaves room for the two stages of 2 merged K steps and the odd K step's
#: own buffers, not for the left-over K steps' own too (4 + 1 + 1 K steps of 24 KiB and it
#: exceed 160 KiB, 4 + 1 do not): they go onto the schedule's buffers
MORE_LDS = 32768


def _more_lds(text: str) -> str:
    """:data:`MORE_LDS` bytes of LDS allocated before the K-loop (used by nothing)."""
    m = re.search(r"^(\s*)%\w+(?::\d+)? = scf\.for ", text, re.M)
    return (text[:m.start()] + f"{m.group(1)}%kmerge_more = memref.alloc() : memref<"
            f"{MORE_LDS}xi8, #gpu.address_space<workgroup>>\n" + text[m.start():])


@pytest.fixture(autouse=True)
def _code_objects_shared():
    with share_code_objects():
        yield


def test_merge_factor_is_the_fewest_k_steps_that_fit():
    """2 MFMAs per MMA block wanted (a chain of 8), else the fewest steps whose chain cuts
    into the 4 crosswise runs; two stages (and the left-over steps' own buffers) in LDS."""
    assert merge_factor(4, TILE, 8, 1) == 2           # i8 / bf16: 8 MFMAs
    assert merge_factor(2, TILE, 16, 1) == 2          # fp8: 4 would need 196608 bytes
    assert merge_factor(2, TILE // 3, 16, 1) == 4     # a small tile: 8 MFMAs
    assert merge_factor(4, 40960, 8, 1) == 2          # exactly the 163840 bytes of LDS
    why = merge_factor(4, 40960, 9, 1)                # ... and the left-over step's own
    assert isinstance(why, str) and why.startswith("two stages of 2 merged K steps"), why
    assert merge_factor(4, 40960, 9, 1, aliased=True) == 2    # ... on the schedule's
    assert isinstance(merge_factor(4, 40960, 9, 1, 1, aliased=True), str)
    assert merge_factor(4, 2 * TILE, 16, 1) == (
        "two stages of 2 merged K steps (196608 bytes) do not fit in the 163840 bytes of LDS")
    assert merge_factor(4, TILE, 8, 1, 65537) == (         # a remainder's own buffers
        "two stages of 2 merged K steps (98304 bytes) do not fit in the 163840 bytes of LDS "
        "beside the kernel's other 65537")
    # a lockstep schedule's blocks of one MFMA: no runs to cut, the fewest steps giving 2
    assert merge_factor(1, TILE // 3, 16, 1) == 4
    assert merge_factor(1, TILE // 3, 16, 1, starved=True) == 2
    assert merge_factor(4, TILE, 7, 2) == (
        "the loop runs 7 K steps, fewer than the 8 that 4 iterations of 2 merged K steps "
        "(the schedule's loop and its two stages) need")
    # merged for time (merge_k): the fewest steps that cover the latency, else the most
    # that fit (IREE's bf16 128x128 tile: 16 KiB per K step); too short a loop: as it is
    bf16 = (128 + 128) * 32 * 2
    assert merge_factor(1, bf16, 128, 1, starved=True, parts=2, accs=16, cover=2) == 2
    assert merge_factor(1, bf16, 128, 1, starved=True, parts=2, accs=16, cover=3) == 4
    assert merge_factor(1, 2 * bf16, 128, 1, starved=True, parts=2, accs=16, cover=3) == 2
    # 12 K steps: 2 iterations of 4 merged steps need 16, of 2 need 8: 2
    assert merge_factor(1, bf16, 12, 2, starved=True, parts=2, accs=16, cover=3) == 2
    assert isinstance(merge_factor(1, bf16, 3, 1, starved=True, parts=2, accs=16, cover=2),
                      str)
    # a merge the partition needs (shortest): a halved loop of 5 K steps (a chain of 2 per
    # step, bf16 A^T x B 300x200x160) merged 2 by 2, the chain of 4 the crosswise split
    # cuts; 4, which a full chain wants, would need 8 steps.  Unasked, as before
    small = (16 + 16) * 32 * 2
    assert merge_factor(2, small, 5, 1, shortest=True) == 2
    assert merge_factor(2, small, 5, 1) == (
        "the loop runs 5 K steps, fewer than the 8 that 2 iterations of 4 merged K steps "
        "(the schedule's loop and its two stages) need")
    assert merge_factor(2, small, 8, 1, shortest=True) == 4     # long enough: the full chain
    assert isinstance(merge_factor(2, small, 3, 1, shortest=True), str)   # too short for 2
    assert isinstance(merge_factor(1, 3 * bf16, 128, 1, starved=True, parts=2, accs=16,
                                   cover=2), str)


def test_several_accumulators_halve_their_chains():
    """A wave of several accumulators (IREE's 16x128 tile in one wave: 8 sharing one A
    fragment) needs its chain halved, not cut in 4 crosswise runs: a chain of 1 is merged
    by 2 (A split along K, B by accumulator), 2 MFMAs per MMA block counted over all its
    accumulators; an even chain is not merged (the partition halves it), nor is one
    accumulator's chain of 2 with several accumulators' rule.  One accumulator's loop in
    the diagonal form (both operands the same K halves) wants 2 runs, not 4: a chain of 2
    is not merged."""
    def an(accs, chain, diagonal=False):
        marks = {DIAGONAL_ATTR: True} if diagonal else {}
        return SimpleNamespace(mfmas=[SimpleNamespace(acc=a) for a in range(accs)
                                      for _ in range(chain)], chain=lambda: chain,
                               accumulators=lambda: accs,
                               scan=SimpleNamespace(loop=SimpleNamespace(attributes=marks)))
    assert [wants_merge(an(8, c), True) for c in (1, 2, 3)] == [True, False, True]
    assert [wants_merge(an(1, c), True) for c in (1, 2, 4)] == [True, True, False]
    assert [wants_merge(an(1, c, True), True) for c in (1, 2, 3)] == [True, False, True]
    tile = (16 * 32 + 128 * 32) * 2                 # f16, 20 / 132 padded: the same fit
    assert merge_factor(1, tile, 33, 1, parts=2, accs=8) == 2
    assert merge_factor(1, tile, 33, 1, parts=2, accs=2) == 4    # 2 MFMAs per block
    assert merge_factor(1, tile, 33, 1) == 4                     # one accumulator: 4 runs
    assert merge_factor(1, tile, 5, 2, parts=2, accs=8) == (
        "the loop runs 5 K steps, fewer than the 8 that 4 iterations of 2 merged K steps "
        "(the schedule's loop and its two stages) need")


def test_a_lockstep_loop_is_starved_only_at_one_mfma_per_block():
    """Exactly one MFMA for each of the 4-wave schedule's four MMA blocks is merged; a
    count that does not divide into them (5 to 7) is no block of one MFMA, nor is any
    count under a schedule that is not lockstep."""
    for mfmas in (1, 3, 4, 5, 6, 7, 8, 16):
        an = SimpleNamespace(mfmas=[object()] * mfmas)
        assert lockstep_starved(an, schedule_class("4wave")) is (mfmas == 4), mfmas
        assert lockstep_starved(an, schedule_class("pingpong")) is False
        assert lockstep_starved(an, None) is False


def test_the_merged_loop_states_its_form_and_keeps_its_remainders(kernels, capsys):
    """19 K steps: the last in the remainder loop of an odd trip count (``tails.py``), 16
    merged in pairs into the pipelined loop, the 2 left over in the kernel's loop after it:
    two remainder loops, run as written; both forms adopt the same schedule."""
    options = set()
    for form in ("prefetch", "late"):
        rc = main([str(kernels(I8, form)),
                   "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=pingpong})"])
        out, err = capsys.readouterr()
        assert rc == 0, err
        assert 'sched.subtiles = "A, B along K, crosswise; 2 of the kernel\'s K steps ' \
               'merged into each K tile"' in out, out
        assert len(re.findall(r"\bsched\.remainder\b(?!_)", out)) == 2, out
        # the pipelined loop runs the K steps 0..64 (16 of 4), the kernel's loop 64..72 (the
        # 2 left over), its copy after it 72..76 (the odd one)
        assert re.findall(r"scf\.for %\w+ = %\w+ to %c(\d+)(?:_\w+)? ", out) == ["64", "72", "76"], out
        options.update(re.findall(r"sched\.options = \{([^}]*)\}", out))
    (one,) = options
    assert "lgkm_per_load_a = 4 : i64, lgkm_per_load_b = 4 : i64" in one and \
        "vm_per_load_a = 1 : i64, vm_per_load_b = 2 : i64" in one, one


def _watched_merges(monkeypatch) -> list:
    """Every merge the front end makes, watched: ``[(how it ended, before, after)]`` with
    the kernel's module (its text and its ``arith.constant`` ops nobody uses) when
    ``merge_k_steps`` was called and after the merge was committed or abandoned."""
    import pipeline_mlir.frontend.kmerge as K
    import pipeline_mlir.frontend.natural as N
    seen, module = [], []

    def state():
        top = module[0]
        dead = [o for o in _ops(top) if o.name == "arith.constant" and
                not list(o.results[0].uses)]
        return str(top), len(dead)

    def merge_k_steps(an, schedule, needed=False):
        op = an.scan.loop
        while op.parent is not None:
            op = op.parent
        module[:] = [op]
        before = state()
        merge, why = K.merge_k_steps(an, schedule, needed)
        if merge is not None:
            for how in ("commit", "abandon"):
                def ended(f=getattr(merge, how), how=how):
                    f()
                    seen.append((how, before, state()))
                setattr(merge, how, ended)
        return merge, why
    monkeypatch.setattr(N, "merge_k_steps", merge_k_steps)
    return seen


def _ops(op) -> list:
    out = []
    for region in op.regions:
        for block in region.blocks:
            for o in block.operations:
                out += [o.operation] + _ops(o.operation)
    return out


def test_the_report_names_the_merge_and_no_slowdown(kernels, monkeypatch):
    """``--emit=report``: the form line says the merge, and no ``performance:`` line (the
    merged loop is faster than IREE's own kernel in the simulator: docs/iree-own-pipelining.md).
    16 K steps: the merged loop runs them all, and leaves no constant unused behind."""
    merges = _watched_merges(monkeypatch)
    result = compile(CompileOptions(schedule="pingpong", input=str(kernels(FP8, "prefetch")),
                                    emit="report"))
    text = result.checked_output()
    [(how, (_, unused), (_, now))] = merges
    assert how == "commit" and now == unused, merges
    assert "schedule form: subtiles of A, B along K, crosswise (one fragment of each per " \
           "wave); 2 of the kernel's K steps merged into each K tile; the MMAs wait for " \
           "whole fragment loads (waits=block)" in text, text
    assert "performance:" not in text and "wait-short" not in text, text


def _dynamic_step(text: str) -> str:
    """The K-loop's step computed (``arith.maxsi``), no longer a constant."""
    m = re.search(r"^(\s*)(%\d+ = scf\.for %\w+ = (%\w+) to %\w+ step (%\w+) .*: (i32|index) "
                  r"\{)$", text, re.M)
    ind, line, lb, step, t = m.groups()
    new = (f"{ind}%kmerge_step = arith.maxsi {step}, {lb} : {t}\n{ind}" +
           line.replace(f" step {step} ", " step %kmerge_step ", 1))
    return text[:m.start()] + new + text[m.end():]


def _recast_read(text: str) -> str:
    """One LDS read through a ``memref.reinterpret_cast`` of its buffer."""
    m = re.search(r"^(\s*)(%alloc\w*) = memref\.alloc\(\) : memref<(\d+)x(\w+), "
                  r"#gpu\.address_space<workgroup>>$", text, re.M)
    ind, name, n, e = m.groups()
    ws = "#gpu.address_space<workgroup>"
    plain, strided = f"memref<{n}x{e}, {ws}>", f"memref<{n}x{e}, strided<[1]>, {ws}>"
    text = (text[:m.end()] + f"\n{ind}%kmerge_rc = memref.reinterpret_cast {name} to offset: "
            f"[0], sizes: [{n}], strides: [1] : {plain} to {strided}" + text[m.end():])
    i = text.index(f"vector.load {name}[")
    j = text.index("\n", i)
    line = text[i:j].replace(f"vector.load {name}[", "vector.load %kmerge_rc[")
    return text[:i] + line.replace(plain, strided) + text[j:]


def _other_lds(text: str) -> str:
    """Four K steps (two merged steps, no remainder) and 100 KiB of other LDS: two stages of
    merged K steps no longer fit beside it."""
    m = re.search(r"^(\s*)(%\d+ = scf\.for %\w+ = (%\w+) to (%\w+) step %c(\d+)\w* .*: "
                  r"(i32|index) \{)$", text, re.M)
    ind, line, _lb, ub, step, t = m.groups()
    new = (f"{ind}%kmerge_ub = arith.constant {4 * int(step)} : {t}\n{ind}%kmerge_lds = "
           f"memref.alloc() : memref<102400xi8, #gpu.address_space<workgroup>>\n{ind}" +
           line.replace(f" to {ub} ", " to %kmerge_ub ", 1))
    return text[:m.start()] + new + text[m.end():]


@pytest.mark.parametrize("mutate, reason", [
    (_other_lds, "two stages of 2 merged K steps (98304 bytes) do not fit in the 163840 bytes "
                 "of LDS beside the kernel's other 102400"),
    (_dynamic_step, "the loop's step is not a constant"),
    (_recast_read, "its LDS buffer memref<16384xf8E4M3FN, #gpu.address_space<workgroup>> is "
                   "not a static memref.alloc viewed through subview, expand_shape, "
                   "collapse_shape and cast only ('memref.reinterpret_cast' views it)"),
])
def test_a_loop_the_merge_cannot_take_is_refused_at_the_op(kernels, mutate, reason, capsys,
                                                            tmp_path):
    """FP8's chain of 2 needs the merge: where it cannot be made the loop is refused at a
    copy, the merge's reason after the crosswise split's."""
    src = tmp_path / "mutated.mlir"
    src.write_text(mutate(kernels(FP8, "late").read_text()))
    rc = main(["--pipeline=pingpong", str(src), "-o", "-"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: .*do not cut into 4 equal runs "
                    rf"along K, as both operands split along K need \(crosswise\); nor can the "
                    rf"front end merge its K steps: {re.escape(reason)}\n", err), err


def test_a_remainder_on_the_schedules_buffers_is_refused_where_it_is_planned(
        kernels, capsys, monkeypatch):
    """The odd K step's remainder loop planned onto the schedule's stage-0 buffers
    (``remainder_plan``, when its own LDS does not fit beside the two stages) would run one
    K tile of the merged loop per iteration: refused at it where the plan is carried out.
    No real input reaches this: the remainder is planned so when three copies of the K
    step's LDS and the kernel's other LDS exceed 160 KiB, and a merge needs four of them
    to fit beside the same other LDS; the plan is forced here."""
    import pipeline_mlir.frontend.tails as T
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.frontend.remainder_plan import OWN, STAGE0
    from pipeline_mlir.frontend.marks import SHARED_ATTR

    def stage0(rem, shareable, *_):
        if not shareable:
            return OWN
        rem.attributes[SHARED_ATTR] = ir.UnitAttr.get()
        return STAGE0
    monkeypatch.setattr(T, "plan_at_split", stage0)
    src = kernels(I8, "late")
    rc = main(["--pipeline=pingpong", str(src), "-o", "-"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: .*'scf\.for' op: the remainder "
                    rf"loop's LDS does not fit beside the schedule's two stages, and it cannot "
                    rf"be rebuilt on the schedule's stage-0 buffers: it steps by 4, the "
                    rf"pipelined loop by 8; the rebuilt remainder runs one K tile of the "
                    rf"schedule per iteration\n", err), err


def _refusing_merged_loops(monkeypatch) -> None:
    """``split_k`` (the last step of a loop's analysis) refuses every merged loop: a merged
    loop the rest of the front end does not take."""
    import pipeline_mlir.frontend.natural as N
    from pipeline_mlir.dialect.ir_io import IRError
    from pipeline_mlir.frontend.marks import MERGED_ATTR

    split_k = N.split_k

    def refusing(an):
        if MERGED_ATTR in an.scan.loop.attributes:
            raise IRError(an.scan.loop, "'scf.for' op: not taken (the test's)")
        return split_k(an)
    monkeypatch.setattr(N, "split_k", refusing)


def test_a_merged_loop_refused_leaves_the_loop_as_it_was(kernels, at_launch, capsys,
                                                        monkeypatch):
    """A loop that partitions as it is (i8: one MFMA per MMA block) keeps IREE's K step when
    its merged loop is refused: the merged loop and its buffers are erased, and with K known
    at launch its guard and split too (only the guard of ``tails`` is left): the kernel it
    hands on is the one the merge was given, op for op."""
    _refusing_merged_loops(monkeypatch)
    merges = _watched_merges(monkeypatch)
    for path, guards in ((kernels(I8, "prefetch"), 0), (at_launch(I8, "prefetch", "k"), 1)):
        rc = main([str(path),
                   "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=pingpong})"])
        out, err = capsys.readouterr()
        assert rc == 0, err
        assert 'sched.subtiles = "A, B along K, crosswise"' in out, out
        assert "lgkm_per_load_a = 2 : i64, lgkm_per_load_b = 2 : i64" in out, out
        assert len(re.findall(r"memref\.alloc\(\)", out)) == 2 + 2 * 2 * 2, out  # rem's, stages'
        assert out.count(" = scf.if ") == guards and out.count("arith.minsi") == guards, out
        [(how, before, after)] = merges
        assert how == "abandon" and after == before, (before[0], after[0])
        merges.clear()
    # 19 K steps and no room for the left-over steps' own buffers (MORE_LDS) unless they go
    # onto the schedule's, which (made to) hold none of them: the loop is not merged
    import pipeline_mlir.frontend.natural as N
    monkeypatch.undo()
    merges = _watched_merges(monkeypatch)
    monkeypatch.setattr(N, "leftover_aliases", lambda *_: False)
    out = _adopted(capsys, at_launch(I8, "prefetch", "+lds"))
    assert 'sched.subtiles = "A, B along K, crosswise"' in out, out
    [(how, before, after)] = merges
    assert how == "abandon" and after == before, (before[0], after[0])


def test_a_merged_loop_refused_refuses_a_loop_that_needs_it(kernels, capsys, monkeypatch):
    """fp8 (a chain of 2) needs the merge: its merged loop refused, the loop is refused at
    the merged loop, with both reasons."""
    _refusing_merged_loops(monkeypatch)
    src = kernels(FP8, "late")
    rc = main(["--pipeline=pingpong", str(src), "-o", "-"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: .*\(crosswise\); nor can the "
                    rf"front end merge its K steps: with 2 merged it is refused too: 'scf.for' "
                    rf"op: not taken \(the test's\)\n", err), err


def _adopted(capsys, path) -> str:
    rc = main([str(path), "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=pingpong})"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out


def test_a_run_time_k_is_merged_and_guarded(at_launch, capsys):
    """K known only at launch: the merged loop runs the pairs of merged steps the K steps
    before the odd one hold (``tails.guarded_pairs``: the split clamped for a 32-bit
    counter, the loop in an ``scf.if``), the steps left over run in IREE's loop after it and
    the odd last one in the remainder of ``tails``; both forms adopt the merged schedule."""
    for form in ("prefetch", "late"):
        out = _adopted(capsys, at_launch(FP8, form, "k"))
        assert "2 of the kernel's K steps merged into each K tile" in out, out
        assert len(re.findall(r"\bsched\.remainder\b(?!_)", out)) == 2, out
        assert out.count(" = scf.if ") == 2, out
        # the split clamped for the merged loop's 32-bit counter too (index loops only)
        assert form == "late" or out.count("arith.minsi") == 2, out
    out = _adopted(capsys, at_launch(I8, "prefetch", "m"))       # M at launch: K constant
    assert "2 of the kernel's K steps merged into each K tile" in out, out
    # no room for the left-over steps' own buffers (MORE_LDS): merged still, both
    # remainders on the schedule's buffers (only theirs and the unused one allocated)
    out = _adopted(capsys, at_launch(FP8, "late", "k+lds"))
    assert "2 of the kernel's K steps merged into each K tile" in out, out
    assert len(re.findall(r"\bsched\.remainder\b(?!_)", out)) == 2, out
    assert len(re.findall(r"memref\.alloc\(\)", out)) == 2 * 2 * 2 + 1, out


#: (name, form, sizes, runs): kernels whose merged loop runs at sizes known at launch
AT_LAUNCH = [
    # K at launch, the late form (the prefetch point's static run: test_iree_pingpong.py):
    # 19 K steps, the steady loop round, the 2 left over and the odd one after it (one
    # schedule with the prefetch point's "mk", which runs 19 K steps too: in the long tier,
    # test_the_late_form_with_k_at_launch_gets_the_prefetch_points_schedule)
    (I8, "late", "k", ((1024, 2432, 1),)),
    # M and K at launch: M = 400 (the last row of workgroups past M) with 7 K steps (4
    # merged, 2 left over, the odd one); 3 K steps: below the merged loop's 4 (its guard
    # skips it), 2 left over, the odd one; 19 K steps, the steady loop round
    (I8, "prefetch", "mk", ((400, 896, 2), (1024, 384, 1), (1024, 2432, 1))),
    # K at launch, the late form, no room for the left-over steps' own buffers (MORE_LDS):
    # 7 K steps (4 merged, 2 left over, the odd one), both remainders on the schedule's
    (FP8, "late", "k+lds", ((1024, 896, 1),)),
]


def _run_at(src: Path, capsys, m: int, k: int, wgs: int, mode: str) -> None:
    with counting_loops() as loops:
        rc = main(["--pipeline=pingpong", str(src), f"--emulate={m},1024,{k}",
                   f"--emulate-workgroups={wgs}", f"--emulate-mode={mode}"])
    out, err = capsys.readouterr()
    assert rc == 0 and f"M={m} N=1024 K={k} mode={mode.split(':')[0]}: exact, max " \
        f"error 0," in out, out + err
    if k == 2432:
        assert_steady(loops)


@pytest.mark.parametrize("name, form, sizes, runs", [
    pytest.param(*case, marks=pytest.mark.long(
        "one schedule with the i8 prefetch point's mk (test_the_late_form_with_k_at_launch_"
        "gets_the_prefetch_points_schedule), which runs 19 K steps round the steady loop "
        "here; the late form's K at launch merged: the fp8 late k+lds"))
    if case[:3] == (I8, "late", "k") else case for case in AT_LAUNCH])
def test_a_merged_loop_of_sizes_known_at_launch_is_exact(at_launch, capsys, name, form, sizes,
                                                         runs):
    """One code object per kernel run at several sizes with 8 waves (memory late): exact
    and race-free, through every path of the merged loop's guard and remainders; at 19 K
    steps round the steady loop."""
    src = at_launch(name, form, sizes)
    for m, k, wgs in runs:
        _run_at(src, capsys, m, k, wgs, "late")


@pytest.mark.parametrize("name, form, sizes, runs", [
    pytest.param(*case, marks=pytest.mark.long(
        "random mode of a kernel whose late mode test_a_merged_loop_of_sizes_known_at_launch_"
        "is_exact runs (the i8 late k's twin, mk, in the default run); the mode is run on "
        "the fp8 kernel's remainders on the schedule's buffers (k+lds) in the default run"))
    if case[2] != "k+lds" else case for case in AT_LAUNCH])
def test_a_merged_loop_of_sizes_known_at_launch_is_exact_in_random_order(
        at_launch, capsys, name, form, sizes, runs):
    """The same code objects at their first size, memory completing in a random order the
    counters allow (its build shared with the late mode's: ``build_cache``)."""
    _run_at(at_launch(name, form, sizes), capsys, *runs[0], "random:3")


def test_the_late_form_with_k_at_launch_gets_the_prefetch_points_schedule(at_launch):
    """The i8 kernel's late form with K at launch (its build and run in the long tier) is
    pipelined (``--emit=schedule-json``: no lowering, no LLVM of its own) with the schedule
    of its prefetch point with M and K at launch, which
    ``test_a_merged_loop_of_sizes_known_at_launch_is_exact`` builds and runs (the schedule
    kept by that build)."""
    got = compile(CompileOptions(schedule="pingpong", input=str(at_launch(I8, "late", "k")),
                                 emit="schedule-json")).checked_output()
    built = compile(CompileOptions(schedule="pingpong", input=str(at_launch(I8, "prefetch",
                                                                              "mk")),
                                   emit="hsaco", stages=("schedule-json",)))
    assert got == built.stages["schedule-json"] and '"phases"' in got, got[:500]


@pytest.fixture(scope="module")
def slot(tmp_path_factory) -> Path:
    """The one-wave tile read through 1 x 1024 slot buffers viewed at a slot index computed
    in the loop body: the last case of ``test/lit/passes/sched-adopt-loop.mlir`` (SLOT)."""
    text = (ROOT / "test" / "lit" / "passes" / "sched-adopt-loop.mlir").read_text()
    path = tmp_path_factory.mktemp("kmerge_slot") / "slot.mlir"
    path.write_text(text.split("// -----\n")[-1])
    return path


def test_a_slot_view_merge_verifies_and_a_broken_one_is_a_located_error(slot, monkeypatch,
                                                                       capsys):
    """The one-wave tile read through 1 x 1024 slot buffers viewed at a slot index computed
    in the loop body (:func:`slot`; adopted and checked by the lit test): the merge's IR
    verifies, slab ``j`` of each merged buffer is its 1-D subview at ``j * 1024`` expanded
    to the buffer's shape (offset 1024 for ``j = 1``), and each copy's slot subview takes
    its index from its own copy of the body, inside the merged loop (a 1-D slab typed as
    the 2-D buffer and the old loop's index once crashed the bindings).  Then that merge
    broken as kmerge once built it (its first slot view given the old loop's slot index,
    which does not dominate it): verified before the analysis walks it and the commit
    erases the loop it came from (the bindings then crashed on the dangling value), one
    located internal error naming the merge, exit 1."""
    import pipeline_mlir.frontend.kmerge as K
    import pipeline_mlir.frontend.natural as N
    from pipeline_mlir.analysis.ir_facts import enclosing_ops
    from pipeline_mlir.dialect.ir_io import as_operation
    ws = "#gpu.address_space<workgroup>"
    merges = []

    def views(loop) -> list:
        return [as_operation(o) for o in loop.regions[0].blocks[0].operations
                if o.name == "memref.subview"]

    def checked_then_broken(an, schedule, needed=False):
        merge, why = K.merge_k_steps(an, schedule, needed)
        merges.append(merge.m)
        top = merge.loop
        while top.parent is not None:
            top = top.parent
        assert as_operation(top).verify()
        for big in merge.bigs:
            slabs = sorted((list(as_operation(u.owner).attributes["static_offsets"])[0],
                            str(as_operation(u.owner).results[0].type),
                            [str(as_operation(e.owner).results[0].type)
                             for e in as_operation(u.owner).results[0].uses])
                           for u in big.uses)
            assert slabs == [
                (0, f"memref<1024xbf16, {ws}>", [f"memref<1x1024xbf16, {ws}>"]),
                (1024, f"memref<1024xbf16, strided<[1], offset: 1024>, {ws}>",
                 [f"memref<1x1024xbf16, strided<[1024, 1], offset: 1024>, {ws}>"])], slabs
        assert len(views(merge.loop)) == 2 * merge.m
        for v in views(merge.loop):     # the slot index: computed in the merged loop's body
            index = as_operation(v.operands[1].owner)
            assert any(p == merge.loop for p in enclosing_ops(index)), str(v)
        views(merge.loop)[0].operands[1] = views(an.scan.loop)[0].operands[1]
        return merge, why
    monkeypatch.setattr(N, "merge_k_steps", checked_then_broken)
    rc = main([str(slot), "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})",
               "-o", "-"])
    out, err = capsys.readouterr()
    assert merges == [2], err
    assert rc == 1 and not out and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(slot))}:\d+:\d+: error: sched-adopt-loop: internal error: "
                    r"the K-step merge \(pipeline_mlir/frontend/kmerge\.py\) built invalid IR: "
                    r"operand #1 does not dominate this use \(at line \d+:\d+\); please report "
                    r"it\n", err), err


def _example():
    """``examples/natural_kernel.py`` as a module (its :func:`kernel_text`)."""
    spec = importlib.util.spec_from_file_location("natural_kernel_example",
                                                  ROOT / "examples" / "natural_kernel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = _example()
FLAGSHIP = ROOT / "test" / "data" / "iree" / "matmul_bf16_abt_4096"   # (committed)
#: the merged flagship's adopted spec: two of its K steps of 32 in each K tile
MERGED_SPEC = "4wave{BK=64 BM=128 BN=128 dtype=bf16}"


def test_merge_k_merges_the_flagship_for_time_in_both_forms(capsys):
    """IREE's bf16 4096^3 kernel (16 MFMAs of 16 cycles per wave and K step of 32: two stages
    hold 512 cycles of MFMAs against a global load's 790) asks for 2 K steps merged, by
    default (``merge_k=auto``: 128 K steps, 2 waves per SIMD): both forms adopt the spec of
    a 64-deep K tile (without merge_k), say why, and give its one schedule, another than
    the unmerged loop's (``merge_k=false`` keeps it: test_kmerge_auto.py, on the 4-wave
    example's loop).  The merged kernels (``--pipeline=4wave``'s builds) are emulated in
    test/unit/tools/test_iree_emulate.py: the late form's assembly exact in late memory mode
    (one workgroup) and in eager mode (two), the prefetch point's in late mode (two)."""
    def run(*args):
        with share_code_objects():
            rc = main(list(args))
        out, err = capsys.readouterr()
        assert rc == 0, err
        return out, err
    got = set()
    for form in ("prefetch", "late"):
        out, err = run("--pipeline=4wave", f"{FLAGSHIP}.{form}.mlir",
                       "--emit=schedule", "--mlir-print-ir-after=sched-adopt-loop")
        assert re.findall(r"sched\.options = \{([^}]*)\}", err) == [
            'BK = 64 : i64, BM = 128 : i64, BN = 128 : i64, dtype = "bf16"'], err[-2000:]
        assert 'sched.merge_k = "merge_k=auto: 2 K steps merged into each K tile (two ' \
               'stages of one K step hold 512 cycles of MFMAs, less than a global load\'s ' \
               '790)"' in err, err[-2000:]
        got.add(out)
    assert got == {run(f"--pipeline={MERGED_SPEC}", "--emit=schedule")[0]}
    assert got != {run("--pipeline=4wave{BM=128 BN=128 BK=32}", "--emit=schedule")[0]}


def test_merge_k_is_refused_where_no_natural_loop_is_and_short_loops_stay(capsys, tmp_path):
    """``merge_k`` is sched-adopt-loop's, on a natural K-loop: the complete kernel, the
    schedule printed or simulated without an input, an empty module, a tagged loop and a
    ``sched.pipeline`` body refuse it, each with one message, and so does a loop the merge
    cannot take (LDS in workgroup attributions).  A loop too short for a pair of merged K
    steps is adopted as it is."""
    empty = tmp_path / "empty.mlir"
    empty.write_text("module {}\n")
    attributed = tmp_path / "attributed.mlir"        # its LDS workgroup attributions
    attributed.write_text(EXAMPLE.kernel_text())
    cases = [
        (["--pipeline=4wave{merge_k=true}", "--emit=asm"],
         "the complete kernel's K tile is BK; merge_k=true merges the K steps of a kernel "
         "given as input"),
        (["--pipeline=4wave{merge_k=true}", "--emit=schedule"],
         "--emit=schedule prints the schedule of the K tile BK"),
        (["--simulate", "--pipeline=4wave{merge_k=true}"],
         "--simulate models the schedule of the K tile BK"),
        ([str(empty), "--pass-pipeline=builtin.module(sched-import{schedule=4wave "
                      "merge_k=true})"],
         "empty.mlir:1:1: error: sched-import: the input is empty"),
        ([str(ROOT / "examples" / "gemm_loop_4wave.mlir"), "--pipeline=4wave{merge_k=true}"],
         "'scf.for' op has sched-tagged ops, whose K tile is the loop's own; merge_k=true "
         "merges the K steps of a natural K-loop (sched-adopt-loop), and there is none"),
        ([str(ROOT / "test" / "lit" / "passes" / "sched-import.mlir"),
          "--pipeline=4wave{merge_k=true}"],
         "'sched.pipeline' op has a body of logical ops, whose K tile is its own"),
        # asked for, a merge the front end cannot make is an error, not dropped unsaid
        ([str(attributed), "--pipeline=4wave{merge_k=true}"],
         "error: sched-adopt-loop: 'scf.for' op: merge_k=true asks for its K steps merged, "
         "but the front end cannot merge them: its LDS buffer memref<4096xbf16, "
         "#gpu.address_space<workgroup>> is not a static memref.alloc"),
        # IREE's padded A^T x B^T (M at launch): A's copies through registers read a
        # binding of a launch-time size, which no direct-to-LDS copy reads (before: an
        # internal error, the merged loop's left-over K steps keeping such a copy)
        ([str(ROOT / "test" / "lit" / "passes" / "Inputs" /
              "iree-bf16-atbt-padded-m.prefetch.mlir"), "--pipeline=4wave{merge_k=true}",
          "--emit=schedule"],
         "151:22: error: sched-adopt-loop: 'scf.for' op: merge_k=true asks for its K steps "
         "merged, but the front end cannot merge them: 'vector.transfer_read' op at line "
         "155:22 copies through registers from memref<1x8xbf16, strided<[?, 1], offset: ?>, "
         "#hal.descriptor_type<storage_buffer>>, a binding of a size known only at launch"),
    ]
    for args, said in cases:
        rc = main(args + ["-o", str(tmp_path / "out")])
        out, err = capsys.readouterr()
        assert rc == 1 and said in err and "Traceback" not in err, (args, err)
    # merge_k=auto (the default) and false: nothing to merge there, nothing said; a body
    # of logical ops is the same schedule whatever merge_k says
    for args in (["--pipeline=4wave{merge_k=auto}", "--emit=schedule"],
                 ["--simulate", "--pipeline=4wave{merge_k=false}"],
                 [str(empty), "--pass-pipeline=builtin.module(sched-import{schedule=4wave "
                              "merge_k=auto})"],
                 [str(ROOT / "test" / "lit" / "passes" / "sched-import.mlir"),
                  "--split-input-file", "--pass-pipeline=builtin.module(sched-import{"
                  "schedule=4wave BM=256 merge_k=false})"]):
        rc = main(args + ["-o", str(tmp_path / "out")])
        out, err = capsys.readouterr()
        assert rc == 0 and not err, (args, err)
    # the 4-wave example's loop (IREE's tile, its LDS allocated): 5 K steps merged in a
    # pair (the odd one in the remainder) and exact in random memory orders; 3 are too few
    # for a pair of merged steps: the loop as it is
    # (the 160 one's adopted loop read from its emulated build, the 96 one's from
    # sched-adopt-loop alone: one adoption each, no schedule printed)
    for k, bk, run in ((160, 64, ["--pipeline=4wave{merge_k=true}", "--emulate",
                                  "--emulate-workgroups=1", "--emulate-mode=random:3",
                                  "--mlir-print-ir-after=sched-adopt-loop"]),
                       (96, 32, ["--pass-pipeline=builtin.module(sched-adopt-loop{"
                                 "schedule=4wave merge_k=true})"])):
        natural = tmp_path / f"natural{k}.mlir"
        natural.write_text(EXAMPLE.kernel_text(lds="alloc", k=k))
        rc = main([str(natural), *run])
        out, err = capsys.readouterr()
        assert rc == 0 and f"BK = {bk} : i64" in out + err, err[-2000:]
        assert k != 160 or "K=160 mode=random: exact, max error 0" in out, out + err[-2000:]


def _f16_ab_384x384x112(tmp_path, form: str) -> Path:
    """IREE's f16 ``A x B`` 384x384x112 with a forced 64x64 tile of 32x32x16 MFMAs in 2x2
    waves, K step 16 (7 K steps), in ``form``."""
    src = tmp_path / f"{form}.mlir"
    src.write_text(G.forms(G.matmul_source(
        "f16", 384, 384, 112, transpose_b=False, mma="MFMA_F32_32x32x16_F16", stages=3,
        tile=(64, 64, 16), waves=(2, 2)), ())[form])
    return src


def test_a_merge_whose_left_over_steps_are_refused_is_not_half_made(tmp_path, capsys,
                                                                    monkeypatch):
    """The kernel above at the prefetch point: its MFMAs halved and 2 K steps merged leave
    one K step to the kernel's loop, made the remainder on LDS of its own.  With that
    refused (here its halved reads of A's swizzle chunks taken as crossing a chunk,
    ``frontend/tail_swizzle.py``), found on a copy of the kernel before the merge is
    committed (``Merge.leftover_refusal``), the merge is refused as a way and the diagonal
    form takes the whole loop: pipelined, exact.  Before, the commit failed half done and
    the diagonal form took the K steps left, the merged loop left natural (refused by
    sched-import: `run sched-adopt-loop first`)."""
    from pipeline_mlir.frontend import tail_swizzle
    monkeypatch.setattr(tail_swizzle, "_within_chunks", lambda *_: "taken to cross")
    src = _f16_ab_384x384x112(tmp_path, "prefetch")
    rc = main(["--pipeline=4wave", str(src), "--emit=report"])
    out, err = capsys.readouterr()
    assert rc == 0 and "error" not in err, err
    assert "schedule form: subtiles of A, B along K, diagonal" in out, out
    rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-mode=late",
               "--emulate-workgroups=2", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err


def test_a_merge_whose_left_over_reads_are_halved_chunks_gets_the_late_forms_kernel(
        tmp_path, capsys):
    """The kernel above from both forms: the K step left over reads half of each of A's
    8-element swizzle chunks, which direct-to-LDS copies fill swizzled; each half stays inside
    its chunk in every thread, so the remainder swizzles it itself and the merge stands, as
    the late form's (whose reads IREE wrote whole).  Both forms: one schedule (merged),
    exact.  Before, the prefetch point's merge was refused and the diagonal form taken."""
    got = {}
    for form in ("prefetch", "late"):
        src = _f16_ab_384x384x112(tmp_path, form)
        rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
        got[form], err = capsys.readouterr()
        assert rc == 0 and "error" not in err, err
    assert got["prefetch"] == got["late"]
    src = tmp_path / "prefetch.mlir"
    rc = main(["--pipeline=4wave", str(src), "--emit=report"])
    out, _ = capsys.readouterr()
    assert rc == 0 and "2 of the kernel's K steps merged into each K tile" in out, out
    rc = main(["--pipeline=4wave", "--emulate", str(src), "--emulate-mode=late",
               "--emulate-workgroups=2", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and ": exact, max error 0" in out, out + err
