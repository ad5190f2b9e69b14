"""IREE's prefetch pipelining with as many stages as K tiles leaves no loop
(``pipeline_mlir/frontend/reroll_straight.py``): its late form, all K tiles straight, is
given its K-loop back and pipelined with the prefetch point's schedule, exact on the
emulator; real IREE output broken where the proofs look (a tile's LDS read, a wait, a
copy's K column) is refused at the op, and the mutation campaign's ``peeled`` family
(``test/data/iree/mutants.py``) refused or exact as recorded.  The hand-written cases, one
per check, are the lit test's (``test/lit/passes/Inputs/reroll-straight-errors.mlir``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from iree_configs import G
from test_iree_emulate import needs_iree
from test_iree_reroll import _forms_agree_exact, _refused

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import mutants as M  # noqa: E402

pytestmark = pytest.mark.usefixtures("shared_code_objects")

#: (dtype, MFMA, M, N, K, tile, waves, schedule): IREE's 3-stage pipelining of 3 K tiles
KERNELS = {
    "f16-ab-4wave": ("f16", "MFMA_F32_32x32x16_F16", 256, 512, 96, (64, 128, 32), (2, 2),
                     "4wave"),
    "i8-ab-pingpong": ("i8", "MFMA_I32_32x32x32_I8", 1536, 256, 96, (256, 256, 32), (2, 4),
                       "pingpong"),
}


def _forms(name: str) -> dict:
    dt, mma, m, n, k, tile, waves, _pipe = KERNELS[name]
    return G.forms(G.matmul_source(dt, m, n, k, transpose_b=False, mma=mma, stages=3,
                                   tile=tile, waves=waves))


@needs_iree
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_iree_k_tiles_left_straight_get_their_loop_back(tmp_path, capsys, name):
    forms = _forms(name)
    late = forms["late"]
    assert "scf.for" not in late and late.count("rocdl.asyncmark\n") == 3  # no loop left
    pipe = KERNELS[name][-1]
    _forms_agree_exact(tmp_path, forms, capsys, "late", pipeline=pipe)


@needs_iree
def test_iree_k_tiles_left_straight_broken_are_refused(tmp_path, capsys):
    late = _forms("f16-ab-4wave")["late"]
    # the last wait before tile 1's reads waits for all groups but one: tile 2's copies
    # may still be in flight, but tile 1's are done, so it is the same kernel; with all
    # but two left, tile 1's slot is read before its copies land
    mutant = late.replace("rocdl.wait.asyncmark 0", "rocdl.wait.asyncmark 2", 1)
    err = _refused(tmp_path, mutant, "wait", capsys)
    assert "reads K tile 1's slot before a rocdl.wait.asyncmark and a gpu.barrier complete " \
        "its copies (1 of the groups complete there)" in err, err
    # tile 2's copy of B writes tile 1's slot
    copies = re.findall(r"gather_to_lds async %3\[[^]]*\], %alloc\[(%c\d+), ", late)
    assert copies[-1] == "%c2"
    at = late.rindex("%alloc[%c2, ")
    mutant = late[:at] + "%alloc[%c1, " + late[at + len("%alloc[%c2, "):]
    err = _refused(tmp_path, mutant, "slot", capsys)
    assert "(K tile 2's copy) does not write the LDS elements K tile 0's copy at" in err, err
    # tile 2's copy of A reads tile 1's K columns: no one step per K tile
    a_cols = re.findall(r"gather_to_lds async %1\[%\d+, (%\d+)\]", late)
    at = late.rindex("%1[")
    head, tail = late[:at], late[at:]
    mutant = head + tail.replace(a_cols[-1], a_cols[1], 1)
    err = _refused(tmp_path, mutant, "column", capsys)
    assert "its global index #1 does not move by one step per tile" in err, err


#: mutants of the campaign's ``peeled`` family (seed 1, with the straight tiles' own
#: mutations, ``mutants.STRAIGHT_MUTATIONS``; 60 of them: 16 exact, 40 refused, 3 invalid, 1
#: input-broken), as recorded: the barrier after group 1's wait moved below tile 0's first
#: read (exact: it guards nothing tile 0 reads), the barrier before tile 0's reads moved
#: below its first read (refused at the read), an MFMA of tile 0 made to accumulate onto
#: another chain (refused where tile 1 continues it)
PEELED = [(0, "exact", ""),
          (13, "refused", "reads K tile 0's slot before a rocdl.wait.asyncmark"),
          (7, "refused", "(K tile 1) does not accumulate onto")]


@needs_iree
@pytest.mark.parametrize("index, want, detail", PEELED)
def test_mutants_of_k_tiles_left_straight_are_refused_or_exact(index, want, detail):
    M.check_recorded(1, index, ["peeled"], want, detail)
