"""An operand one fragment wide per wave split into subtiles along K
(``pipeline_mlir/frontend/k_subtiles.py``).

On numpy data shaped like IREE's i8 32x32x32 tiles: 8 rows of 128 bytes (K), each K step
of an MFMA one 32-byte column of them, and on IREE's kernel that needs it (the i8 256x128
tile in 2x4 waves of 128x32, generated with ``iree-compile``, and the tiles one fragment
wide in A or in both operands): the form the kernel plan keeps for the report, and the
per-fragment waits a pipeline asks for, counting the reads an MMA leaves unread.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

from build_cache import share_code_objects
from pipeline_mlir.analysis.loop_eval import xor_shuffle
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.frontend.k_subtiles import (along_k, check_groups, form_text, held_of,
                                              k_split, one_fragment_wide)
from pipeline_mlir.frontend.layout import ChannelPlan
from pipeline_mlir.frontend.marks import HELD_ATTR
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.kernel.subtile_form import SubtileForm
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import assert_steady, counting_loops

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

ROWS, ROW, STEP = 8, 128, 32            # an 8 x 128 tile; a K step reads 32 elements a row
SIZE = ROWS * ROW
WHY = LM.LoopRefusal("channel B: no split by accumulator")


@dataclass
class _Loop:
    """What :func:`k_split` reads of an analysis."""

    reads: list
    mfmas: list


def _read(op: int, kk: int, swizzle=None, instructions: int = 1, row: int = ROW) -> LM.Read:
    """Fragment read ``op``: K step ``kk`` of every row (``row`` elements long), 16 elements
    per thread (two threads a row)."""
    t = np.arange(2 * ROWS)
    first = (t // 2) * row + kk * STEP + (t % 2) * 16
    lds = first[:, None] + np.arange(16)[None, :]
    return LM.Read(op, 0, lds if swizzle is None else xor_shuffle(lds, *swizzle),
                   instructions)


def _loop(steps: int = 4, accumulators: int = 2, swizzle=None, b_of=None,
          row: int = ROW) -> _Loop:
    """B read once per K step (reads 0..steps-1), two accumulators each a chain of
    ``steps`` MFMAs in K order; ``b_of(acc, kk)``: the B read of an MFMA if not kk's."""
    reads = [_read(kk, kk, swizzle, row=row) for kk in range(steps)]
    mfmas, op = [], 100
    for kk in range(steps):
        for acc in range(accumulators):
            b = kk if b_of is None else b_of(acc, kk)
            mfmas.append(LM.Mfma(op, frozenset(), frozenset({b}), acc))
            op += 1
    return _Loop(reads, mfmas)


@pytest.mark.parametrize("swizzle", [None, (128, 16)])
def test_each_accumulator_chain_is_halved_along_k(swizzle):
    """K steps 0 and 1 make subtile 0, 2 and 3 subtile 1, told apart by element bit 6
    (the K half) of the unswizzled index, even when the kernel's swizzle mixes that bit
    with row bits in its physical index."""
    loop = _loop(swizzle=swizzle)
    subs, bit, seen = k_split(loop, 1, [0, 1, 2, 3], SIZE, swizzle, WHY)
    assert subs == {0: 0, 1: 0, 2: 1, 3: 1} and bit == 6
    assert np.array_equal(seen.reads[2].lds, _read(2, 2).lds)     # unswizzled
    if swizzle is not None:     # no bit of the swizzled index tells the halves apart
        assert LM.compaction_bit({0: [r.lds for r in loop.reads[:2]],
                                  1: [r.lds for r in loop.reads[2:]]}, SIZE, 0) is None


def test_subtile_zero_holds_the_data_whose_bit_is_clear():
    """Chains written from their last K step first: subtile 0 is still K steps 0 and 1."""
    loop = _loop(b_of=lambda acc, kk: 3 - kk)
    subs, bit, _ = k_split(loop, 1, [0, 1, 2, 3], SIZE, None, WHY)
    assert subs == {0: 0, 1: 0, 2: 1, 3: 1} and bit == 6


@pytest.mark.parametrize("loop, reads, why", [
    (_loop(steps=3), [0, 1, 2], "accumulators get 3 MFMAs per iteration, which do not "
                                "halve along K"),
    (_loop(b_of=lambda acc, kk: (kk + 2 * acc) % 4), [0, 1, 2, 3],
     "a fragment read feeds MFMAs of both K halves of an accumulator"),
    (_Loop([_read(0, 0, instructions=2)] + _loop().reads[1:], _loop().mfmas), [0, 1, 2, 3],
     "the K halves of its fragment reads issue 3 and 2 ds_reads"),
    (_Loop([_read(0, 0), _read(1, 3), _read(2, 1), _read(3, 2)], _loop().mfmas),
     [0, 1, 2, 3], "no element bit of its unswizzled LDS tile tells the K halves"),
    (_Loop(_loop().reads + [_read(4, 0)], _loop().mfmas), [0, 1, 2, 3, 4],
     "a fragment read feeds no MFMA, so no K part holds it"),
])
def test_refusals_say_why_after_the_split_by_accumulator(loop, reads, why):
    with pytest.raises(LM.LoopRefusal) as e:
        k_split(loop, 1, reads, SIZE, None, WHY)
    assert str(e.value).startswith(f"{WHY}; nor along K: channel B") and why in str(e.value)


def test_a_read_whose_lanes_are_not_consecutive_is_refused():
    """Reads of 16 consecutive elements of a buffer swizzled in chunks of 8: unswizzled,
    a lane's two chunks are not adjacent (the dense subtile's read would take the wrong
    elements)."""
    with pytest.raises(LM.LoopRefusal, match="a fragment read's lanes do not read "
                                             "consecutive elements"):
        k_split(_loop(), 1, [0, 1, 2, 3], SIZE, (128, 8), WHY)


@pytest.mark.parametrize("swizzle", [None, (128, 16)])
def test_crosswise_split_takes_alternate_k_steps(swizzle):
    """With A split into K halves, B (one accumulator: one fragment of each per wave) is
    split crosswise: K steps 0 and 2 make subtile 0, 1 and 3 subtile 1, told apart by bit 5
    of the unswizzled index; MMA (A half, B subtile) then holds one K step each, all four
    MMAs used and every K step once."""
    loop = _loop(accumulators=1, swizzle=swizzle)
    subs, bit, _ = k_split(loop, 1, [0, 1, 2, 3], SIZE, swizzle, WHY, crosswise=True)
    assert subs == {0: 0, 1: 1, 2: 0, 3: 1} and bit == 5
    groups = [(kk * 2 // 4, subs[kk]) for kk in range(4)]     # A's K half, B's subtile
    assert sorted(groups) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    check_groups(groups, loop)
    halves, half_bit, _ = k_split(loop, 1, [0, 1, 2, 3], SIZE, swizzle, WHY)
    assert halves == {0: 0, 1: 0, 2: 1, 3: 1} and half_bit == 6     # not crosswise: halves


def test_crosswise_split_of_a_k_step_of_256_takes_runs_of_two():
    """A chain of 8 MFMAs (i8 32x32x32 at IREE's K step 256, tile rows of 256 elements): B's
    subtiles are alternate runs of two K steps (bit 6 of the unswizzled index), so each of
    the four MMAs holds 2 MFMAs and every K step is computed once."""
    loop = _loop(steps=8, accumulators=1, row=2 * ROW)
    subs, bit, _ = k_split(loop, 1, list(range(8)), 2 * SIZE, None, WHY, crosswise=True)
    assert subs == {kk: kk // 2 % 2 for kk in range(8)} and bit == 6
    groups = [(kk // 4, subs[kk]) for kk in range(8)]      # A's K half, B's subtile
    assert sorted(groups) == [(a, b) for a in (0, 1) for b in (0, 1) for _ in range(2)]
    check_groups(groups, loop)


@pytest.mark.parametrize("steps, why", [
    (2, "accumulators get 2 MFMAs per iteration, which do not cut into 4 equal runs along "
        "K, as both operands split along K need (crosswise)"),
    (6, "accumulators get 6 MFMAs per iteration, which do not cut into 4 equal runs"),
])
def test_crosswise_needs_a_multiple_of_four_k_steps(steps, why):
    with pytest.raises(LM.LoopRefusal) as e:
        k_split(_loop(steps=steps, accumulators=1), 1, list(range(steps)), SIZE, None, WHY,
                crosswise=True)
    assert str(e.value).startswith(f"{WHY}; nor along K: channel B") and why in str(e.value)


def test_crosswise_read_of_two_k_steps_is_refused():
    """A B read feeding K steps 0 and 1 of the chain (one subtile each, crosswise)."""
    loop = _loop(accumulators=1, b_of=lambda acc, kk: kk // 2 * 2)
    with pytest.raises(LM.LoopRefusal, match="a fragment read feeds MFMAs of both "
                                             "crosswise K parts of an accumulator"):
        k_split(loop, 1, [0, 2], SIZE, None, WHY, crosswise=True)


def test_both_operands_along_k_leave_two_mmas_empty():
    loop = _loop()
    check_groups([(0, 0), (0, 1), (1, 0), (1, 1)], loop)
    with pytest.raises(LM.LoopRefusal, match=r"no MFMA multiplies A subtile 0 with B "
                                             r"subtile 1 .*\(both operands along K\)"):
        check_groups([(0, 0), (1, 1)], loop)


def test_along_k_names_the_operands():
    def plan(ch: int, logical: bool) -> ChannelPlan:
        return ChannelPlan(ch, ch, 6, 16, 1, 512, None, (), (1,), 0, 0, logical=logical)
    part = type("P", (), {"plans": {0: plan(0, False), 1: plan(1, True)}})()
    assert along_k(part) == "B" and along_k(object()) == ""
    assert form_text(part) == "B along K"
    both = type("P", (), {"plans": {0: plan(0, True), 1: plan(1, True)}})()
    assert form_text(both) == "A, B along K, crosswise"


# ---------------------------------------------------------------------------------------------
# IREE's kernel
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """name -> IREE's kernel at the prefetch point (the run's build cache shares it with
    ``test_iree_pingpong.py``)."""
    get = G.form_files(tmp_path_factory.mktemp("k_subtiles"), lambda n: G.matmul_source(
        **{**G.EIGHT_WAVE, **G.EIGHT_WAVE_VARIANTS}[n]))
    return lambda name: get(name, "prefetch")


@pytest.fixture(scope="module")
def kernel(kernels) -> Path:
    """IREE's i8 256x128 tile in 2x4 waves of 128x32."""
    return kernels("matmul_i8_abt_256x128_2x4_32x32_8wave")


@pytest.mark.parametrize("name, unread", [
    # B along K: each MMA reads one K half of A's fragment load (4 of its 8 reads)
    ("matmul_i8_abt_256x128_2x4_32x32_8wave", 'unread_a = 4 : i64'),
    # one fragment of A and of B per wave, split crosswise, two K steps merged: two of each
    # load's 4 reads
    ("matmul_i8_abt_64x128_2x4_32x32_8wave", 'unread_a = 2 : i64, unread_b = 2 : i64'),
])
def test_per_fragment_waits_count_the_reads_an_mma_leaves_unread(kernels, name, unread,
                                                                 capsys):
    """``waits=fragment`` asked for: the loop keeps it and states how many reads of a
    fragment load each MMA leaves unread (the waits count them as in flight); a pipeline
    that says otherwise is refused at the loop."""
    kernel = kernels(name)
    rc = main([str(kernel), "--pass-pipeline=builtin.module(sched-adopt-loop{"
               "schedule=pingpong waits=fragment})"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    (options,) = re.findall(r"sched\.options = \{([^}]*)\}", out)
    assert unread in options and 'waits = "fragment"' in options, options
    rc = main(["--pipeline=pingpong{waits=fragment unread_a=0}", str(kernel), "-o", "-"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(kernel))}:\d+:\d+: error: .*the pipeline asks for "
                    r"unread_a=0, but the loop's payload has unread_a=[24]\n", err), err


def test_per_fragment_waits_of_a_k_split_loop_run_exact(kernels, capsys):
    """The i8 128x128 tile in 4x2 waves of 32x64 (A along K), where the emulator found a B
    read waited for only after the next K tile's copy had refilled its slot when each MMA's
    fragment wait counted B's load as read whole: with the unread reads counted, exact and
    race-free with 8 waves, late and random mode, round the steady loop."""
    kernel = kernels("matmul_i8_abt_128x128_32x32_8wave")
    for mode in ("late", "random:7"):
        # one build for both modes (build_cache.share_code_objects)
        with share_code_objects(), counting_loops() as loops:
            rc = main(["--pipeline=pingpong{waits=fragment}", "--emulate", str(kernel),
                       "--emulate-workgroups=2", f"--emulate-mode={mode}"])
        out, err = capsys.readouterr()
        assert rc == 0 and f"mode={mode.split(':')[0]}: exact, max error 0, 2 of " in out, \
            out + err
        assert_steady(loops)


def test_the_loop_takes_block_waits_and_reads_ahead(kernel, capsys):
    """The adopted loop's schedule waits for whole fragment loads and issues reads one MMA
    run early (``frags_ahead=balanced-across``) unless the pipeline names another
    ``frags_ahead``."""
    for given, want in (("", "balanced-across"), (" frags_ahead=none", "none")):
        rc = main([str(kernel), "--pass-pipeline=builtin.module(sched-adopt-loop{"
                   f"schedule=pingpong{given}}})"])
        out, err = capsys.readouterr()
        assert rc == 0, err
        (options,) = re.findall(r"sched\.options = \{([^}]*)\}", out)
        assert f'frags_ahead = "{want}"' in options and 'waits = "block"' in options, options


def test_the_kernel_plan_keeps_the_form(kernel):
    """The adopted loop's ``sched.subtiles`` reaches the kernel plan the lowering built (what
    ``--emit=report`` prints: ``test/unit/isa/test_report.py``)."""
    result = compile(CompileOptions(schedule="pingpong", input=str(kernel), emit="mlir"))
    result.checked_output()
    assert [p.form for p in result.plans] == [SubtileForm("B")]


def test_crosswise_kernels_schedule_is_hazard_free(kernels, capsys):
    """The i8 64x128 tile in 2x4 waves of 32x32 (both operands split along K crosswise):
    the schedule its loop adopts, as printed (before ``sched-fix-hazards`` could add
    anything), is hazard-free in the simulator and every accumulator receives each K tile
    once."""
    from pipeline_mlir.schedules.registry import parse_pipeline
    from pipeline_mlir.sim.functional import simulate
    from pipeline_mlir.sim.trace import kernel_shape

    rc = main([str(kernels("matmul_i8_abt_64x128_2x4_32x32_8wave")),
               "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=pingpong})"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    (options,) = re.findall(r"sched\.options = \{([^}]*)\}", out)
    spec = "pingpong{" + " ".join(f"{k}={v}" for k, v in re.findall(
        r'(\w+) = "?([\w-]+)"?(?: : i64)?', options)) + "}"
    # two of IREE's K steps merged into each K tile (frontend/kmerge.py): 4 reads a load
    assert "waits=block" in spec and "lgkm_per_load_a=4 lgkm_per_load_b=4" in spec, spec
    named = parse_pipeline(spec)
    result = simulate(named.compile(), kernel_shape(named), range(0, 7))
    assert result.safe and not result.distinct_hazards()


def test_a_form_the_front_end_does_not_write_is_refused_at_the_loop(kernel, capsys,
                                                                     tmp_path):
    """The lowering reads the adopted loop's ``sched.subtiles`` back into the kernel plan
    (``kernel/subtile_form.py``): a text the front end does not write is refused at the
    loop, never printed in the report as it stands."""
    from pipeline_mlir.passes.registry import SCHEDULE_PASSES

    passes = ",".join(("sched-adopt-loop{schedule=pingpong}", "sched-import{schedule=pingpong}",
                       *SCHEDULE_PASSES))
    rc = main([str(kernel), f"--pass-pipeline=builtin.module({passes})"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    for bad, why in (('"B along J"', "is none the front end writes"),
                     ("3 : i64", "must be a string")):
        path = tmp_path / "bad.mlir"
        path.write_text(out.replace('sched.subtiles = "B along K"', f"sched.subtiles = {bad}"))
        assert path.read_text() != out
        rc = main([str(path), "--pass-pipeline=builtin.module(sched-lower-to-rocdl)"])
        err = capsys.readouterr().err
        assert rc == 1 and "'scf.for' op attribute 'sched.subtiles'" in err and why in err, err
        assert "Traceback" not in err and re.search(r"bad\.mlir:\d+:\d+", err), err


def test_the_held_mark_names_an_operand_or_is_refused_at_the_loop():
    """``sched.held_whole`` is one string, the operand held whole (``"a"`` or ``"b"``),
    whether the pipeline asked for it (``whole=``) or the front end chose it; any other
    value (the unit attribute it once also was, another operand) is refused at the loop."""
    with ir.Context(), ir.Location.unknown():
        for value, want in (('"a"', "A"), ('"b"', "B"), (None, ""), ("unit", None),
                            ('"B"', None), ('"ab"', None), ("1 : i64", None)):
            mark = "" if value is None else f" {{{HELD_ATTR} = {value}}}"
            module = ir.Module.parse(
                "func.func @f(%n: index) {\n  %c0 = arith.constant 0 : index\n"
                "  %c1 = arith.constant 1 : index\n"
                f"  scf.for %i = %c0 to %n step %c1 {{\n  }}{mark}\n  return\n}}")
            loop = module.body.operations[0].regions[0].blocks[0].operations[2]
            if want is None:
                with pytest.raises(LM.LoopRefusal, match=f"the loop's '{HELD_ATTR}' is "
                                                         f".*, not the string"):
                    held_of(loop)
            else:
                assert held_of(loop) == want, value


def test_the_diagonal_form_takes_the_mmas_0_0_and_1_1_only():
    """Both operands split into the same K halves (``k_subtiles=ab_diagonal``): the MMAs
    (0, 0) and (1, 1) and no other; an MFMA in (0, 1) would be dropped by its schedule,
    which runs no such MMA, so it is refused, as is a diagonal MMA left empty."""
    loop = _loop()
    check_groups([(0, 0), (1, 1)], loop, diagonal=True)
    with pytest.raises(LM.LoopRefusal, match=r"an MFMA multiplies A subtile 0 with B "
                                             r"subtile 1 .* runs the MMAs \(0, 0\) and "
                                             r"\(1, 1\) only"):
        check_groups([(0, 0), (0, 1), (1, 1)], loop, diagonal=True)
    with pytest.raises(LM.LoopRefusal, match=r"no MFMA multiplies A subtile 1 with B "
                                             r"subtile 1"):
        check_groups([(0, 0)], loop, diagonal=True)


def test_an_operand_held_whole_takes_its_one_column_or_row_of_mmas():
    """An operand held whole in each stage (``whole=b`` / ``whole=a``): the MMAs of its one
    subtile against both of the other's, (0, 0) and (1, 0) for B, (0, 0) and (0, 1) for A;
    one left empty is refused saying which, and one of the held operand's subtile 1 (which
    has none) too.  The front end tries the form only where an operand is one fragment per
    wave (every accumulator's chain reads the same reads of it) and the chain is odd (an
    even one splits along K)."""
    loop = _loop()
    check_groups([(0, 0), (1, 0)], loop, held="B")
    check_groups([(0, 0), (0, 1)], loop, held="A")
    with pytest.raises(LM.LoopRefusal, match=r"no MFMA multiplies A subtile 1 with B subtile "
                                             r"0 once the front end holds B whole in each "
                                             r"stage; the form needs both its MMAs"):
        check_groups([(0, 0)], loop, held="B")
    with pytest.raises(LM.LoopRefusal, match=r"an MFMA multiplies A subtile 1 with B subtile "
                                             r"1 once the front end holds B whole .*whole=b"):
        check_groups([(0, 0), (1, 0), (1, 1)], loop, held="B")
    # every accumulator reads B's read of its K step, a chain of 1 or 3: B is the one
    assert one_fragment_wide(_loop(1)) == "b" and one_fragment_wide(_loop(3)) == "b"
    mirror = _loop(3)       # ... A, read so (each MFMA's B read made its A read)
    mirror.mfmas[:] = [replace(m, a_reads=m.b_reads, b_reads=frozenset()) for m in mirror.mfmas]
    assert one_fragment_wide(mirror) == "a"
    assert not one_fragment_wide(loop)      # a chain of 4: split along K instead
    assert not one_fragment_wide(_loop(3, b_of=lambda acc, kk: kk if acc else (kk + 1) % 3))
    assert not one_fragment_wide(_loop(3, accumulators=1))  # (one accumulator: no split)
