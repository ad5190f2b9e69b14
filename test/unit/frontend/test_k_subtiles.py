"""An operand one fragment wide per wave split into subtiles along K
(``pipeline_mlir/frontend/k_subtiles.py``).

On numpy data shaped like IREE's i8 32x32x32 tiles: 8 rows of 128 bytes (K), each K step
of an MFMA one 32-byte column of them, and on IREE's kernel that needs it (the i8 256x128
tile in 2x4 waves of 128x32, generated with ``iree-compile``): the form the kernel plan
keeps for the report, and that a per-fragment wait asked for is refused.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from pipeline_mlir.analysis.loop_eval import xor_shuffle
from pipeline_mlir.driver import CompileOptions, compile
from pipeline_mlir.frontend.k_subtiles import along_k, check_groups, k_split
from pipeline_mlir.frontend.layout import ChannelPlan
from pipeline_mlir.kernel import loop_model as LM
from pipeline_mlir.tools.pipeline_opt import main

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


def _read(op: int, kk: int, swizzle=None, instructions: int = 1) -> LM.Read:
    """Fragment read ``op``: K step ``kk`` of every row, 16 elements per thread (two
    threads a row)."""
    t = np.arange(2 * ROWS)
    first = (t // 2) * ROW + kk * STEP + (t % 2) * 16
    lds = first[:, None] + np.arange(16)[None, :]
    return LM.Read(op, 0, lds if swizzle is None else xor_shuffle(lds, *swizzle),
                   instructions)


def _loop(steps: int = 4, accumulators: int = 2, swizzle=None, b_of=None) -> _Loop:
    """B read once per K step (reads 0..steps-1), two accumulators each a chain of
    ``steps`` MFMAs in K order; ``b_of(acc, kk)``: the B read of an MFMA if not kk's."""
    reads = [_read(kk, kk, swizzle) for kk in range(steps)]
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
     "a fragment read feeds no MFMA, so no K half holds it"),
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


# ---------------------------------------------------------------------------------------------
# IREE's kernel
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def kernel(tmp_path_factory) -> Path:
    """IREE's i8 256x128 tile in 2x4 waves of 128x32 at the prefetch point (the run's build
    cache shares it with ``test_iree_pingpong.py``)."""
    name = "matmul_i8_abt_256x128_2x4_32x32_8wave"
    get = G.form_files(tmp_path_factory.mktemp("k_subtiles"),
                       lambda n: G.matmul_source(**G.EIGHT_WAVE[n]))
    return get(name, "prefetch")


def test_a_per_fragment_wait_is_refused(kernel, capsys):
    """An MMA reads half of the other operand's fragment load, so the front end infers
    waits=block; asking for waits=fragment is an error at the loop."""
    rc = main(["--pipeline=pingpong{waits=fragment}", str(kernel), "-o", "-"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(kernel))}:\d+:\d+: error: .*the pipeline asks for "
                    r"waits=fragment, but the loop's payload has waits=block \(its subtiles "
                    r"of B are K halves: an MMA reads half of a fragment load\)", err), err


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
    assert [p.form for p in result.plans] == ["B along K"]
