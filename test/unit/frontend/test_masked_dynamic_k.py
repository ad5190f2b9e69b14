"""A masked last K tile with a trip count known only at run time.

The input (``test/data/tails/masked_k.py``: the example natural kernel with a ``%K``
argument, ``ceildiv(K, 32)`` K tiles and IREE's masked copies of the K left) is pipelined
once: the guarded pipelined loop runs the pairs among the tiles before the last, the
remainder loop the rest with its masks (``frontend/dynamic_masks.py`` proves them full in
the pipelined loop for every K).  One code object runs on the emulator at K giving 0, 1,
2, 3 and 7 full K tiles plus a partial one, and a K of whole tiles: C exact against
``A[:, :K] x B[:, :K]^T`` (memory completing late, and at random).  Each refusal of the
proof is at its op.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from kernel_builds import pipeline_opt_hsaco
from test_natural import run_text
from test_natural_emu import first_tile

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "tails"))
from masked_k import masked_kernel  # noqa: E402

KMAX = 256


@pytest.mark.parametrize("k,mode", [(17, "late"), (37, "late"), (95, "random"), (97, "late"),
                                    (128, "late"), (233, "random"), (0, "late")])
def test_masked_tail_with_a_run_time_k_is_exact(k, mode):
    """0 to 7 whole K tiles and a partial one (0 K: nothing runs; 128: 4 whole tiles)."""
    hsaco = pipeline_opt_hsaco("4wave", masked_kernel(KMAX))
    C, ref = first_tile(hsaco, "bf16", mode, k=KMAX, k_arg=k)
    assert np.array_equal(C, ref), f"K {k}: max error {np.nanmax(np.abs(C - ref))}"


def test_guarded_pipelined_loop_then_masked_remainder(capsys, tmp_path):
    """The pipelined loop in an scf.if, its masks gone; the remainder loop after it from
    the split to ceildiv(K, 32), its four masked reads as written (IREE's affine.min form
    of the sizes is proven too)."""
    rc, out, err = run_text(capsys, tmp_path, masked_kernel(KMAX, form="affine"),
                            "--pipeline=4wave", "-o", "-")
    assert rc == 0, err
    loops = [ln for ln in out.splitlines() if " = scf.for " in ln]
    assert len(loops) == 2 and " = scf.if " in out.split(loops[0])[0], loops
    assert out.split(loops[0])[1].split(loops[1])[0].count("create_mask") == 0
    assert out.split(loops[1])[1].count("vector.create_mask") == 4
    assert "arith.maxsi" in out and "sched.remainder" in out


CEIL = "%kq = affine.apply affine_map<()[s0] -> (s0 ceildiv 32)>()[%K]"
MIN = r"arith\.minsi (%kc\d+), %c8"


@pytest.mark.parametrize("edits,message,where", [
    # one K tile more than K needs, and the size not capped at 8: the tile before the last
    # may be masked too
    ([("(s0 ceildiv 32)", "(s0 ceildiv 32 + 1)"), (MIN, r"arith.addi \1, %c0")],
     "may be masked to fewer than 8 elements in thread 0 in an iteration before the last",
     "vector.transfer_read"),
    # the same with an unsigned min: the K left may be negative there (a huge unsigned)
    ([("(s0 ceildiv 32)", "(s0 ceildiv 32 + 1)"), (MIN, r"arith.minui \1, %c8")],
     "('arith.minui' of a value that may be negative)", "vector.transfer_read"),
    # the size from the workgroup id, not K
    ([("= arith.subi %K, %kt : index", "= arith.subi %bid, %kt : index")],
     "cannot prove full where the pipelined loop runs, for every K ('gpu.block_id', not "
     "only K", "vector.transfer_read"),
    # min(K left, 512): either side may be the smaller, depending on K
    ([(MIN, r"arith.minsi \1, %c512")], "a min or max whose operands cross",
     "vector.transfer_read"),
    # the bound from a launch value the masks do not use (K mod 32)
    ([(CEIL, "%kq = arith.remui %K, %c32 : index")],
     "(a launch value other than the one the trip count comes from)", "vector.transfer_read"),
    # a bound from the thread id (not a launch value)
    ([(CEIL, "%kq = arith.divui %tid, %c32 : index")],
     "whose upper bound is not a bound on one launch value K the front end can invert "
     "('gpu.thread_id' computing the upper bound)", "scf.for"),
    # a lower bound known only at run time
    ([("%lb0 = arith.constant 0 : index", "%lb0 = arith.addi %bid, %c0 : index")],
     "with a lower bound or step that is not a constant", "scf.for"),
], ids=["short-before-last", "unsigned-min", "workgroup-size", "crossing-min", "other-launch-value",
        "thread-bound", "run-time-lower-bound"])
def test_dynamic_mask_refusals(capsys, tmp_path, edits, message, where):
    text = masked_kernel(KMAX)
    for old, new in edits:   # a pattern (MIN) or text
        pattern = old if old == MIN else re.escape(old)
        assert re.search(pattern, text), old
        text = re.sub(pattern, new, text)
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave", "-o", "-")
    assert rc == 1 and message in err and "Traceback" not in err, err
    m = re.search(r"\.mlir:(\d+):\d+: error: ", err)
    assert m and where in text.splitlines()[int(m.group(1)) - 1], err


def test_remainder_buffers_no_schedule_buffer_holds_are_refused(capsys, tmp_path):
    """LDS buffers of 80 KiB: the remainder's own two do not fit beside the schedule's, and
    no schedule buffer (4 KiB each in the front end's dense layout) holds one."""
    text = masked_kernel(KMAX).replace("memref<4096xbf16, #gpu.address_space<workgroup>>",
                                       "memref<40960xbf16, #gpu.address_space<workgroup>>")
    rc, out, err = run_text(capsys, tmp_path, text, "--pipeline=4wave", "-o", "-")
    assert rc == 1 and "Traceback" not in err, err
    assert "'scf.for' op: the masked remainder loop (the K tiles after the pipelined loop) " \
           "needs an LDS buffer of 40960 x bf16" in err, err
    assert "nor can it be rebuilt on the schedule's stage-0 buffers: its copies are " \
           "masked" in err, err
