"""IREE's 3-stage prefetch pipelining through registers of a K-loop of as many K tiles as
stages (or fewer) leaves no loop (``pipeline_mlir/frontend/reroll_straight_regs.py``): its
late form, every K tile straight (loads of global memory into registers, their LDS stores
after the previous tile's MFMAs), is given its K-loop back and pipelined with the prefetch
point's schedule, exact on the emulator.  Before, refused at the first MFMA (finding 55 of
docs/iree-audits.md).  The kernels: fp8 E5M2 ``A x B^T`` 95x90x271 (the last K tile cut at 15
columns, its column clamped and its mask sized by what is left), i8 ``A^T x B`` 389x178x721
(a copy of K rows past K folded to its padding, masks of C's edge folded where true), f16
``A^T x B`` 32x466x65 with 4 stages (a K row's padding select only in the last tile) and
i8 ``A x B^T`` 158x136x382 (two MFMAs along K per tile: the loop counts them, so that the
front end cuts the pair of K tiles into sub-steps as at the prefetch point; 32x466x65 in the
long tier, ``KERNELS_LONG``).  Real IREE
output broken where the proofs look is refused at the op; the mutation campaign's
``peeledreg`` and ``peeledregi8`` families (``test/data/iree/mutants.py``) are refused or
exact as recorded.  The hand-written cases, one per check, are the lit test's
(``test/lit/passes/Inputs/reroll-straight-regs-errors.mlir``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from iree_configs import G
from test_iree_emulate import needs_iree
from test_iree_reroll import _forms_agree_exact, _refused

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import epilogues as E  # noqa: E402
import mutants as M  # noqa: E402
from long_tier import FUNCTIONS_RUN, marked  # noqa: E402

pytestmark = pytest.mark.usefixtures("shared_code_objects")

#: (dtype, M, N, K, A transposed, B transposed, stages, workgroups run)
KERNELS = {
    "fp8e5m2-abt-95x90x271": ("fp8e5m2", 95, 90, 271, False, True, 3, 9),
    "i8-atb-389x178x721": ("i8", 389, 178, 721, True, False, 3, 3),
    "f16-atb-32x466x65": ("f16", 32, 466, 65, True, False, 4, 3),
    "i8-abt-158x136x382": ("i8", 158, 136, 382, False, True, 3, 2),
}


def _forms(name: str) -> dict:
    dt, m, n, k, ta, tb, stages, _wg = KERNELS[name]
    return G.forms(G.matmul_source(dt, m, n, k, transpose_a=ta, transpose_b=tb),
                   (f"--iree-llvmgpu-prefetch-num-stages={stages}",))


def _straight(late: str) -> None:
    """No loop around the MFMAs, and LDS stores after the first of them."""
    head = late[:late.index("amdgpu.mfma")]
    assert "scf.for" not in head[head.rindex("func.func"):], "a loop is left"
    tail = late[late.index("amdgpu.mfma"):]
    assert re.search(r"vector\.store %\d+, %alloc", tail)


#: (2026-12-07) the kernel whose item is of the long tier only: every function of
#: pipeline_mlir it runs is run by the default run's items left (the function rule of
#: docs/testing.md, "The long tier"; coverage.py per item)
KERNELS_LONG = {"f16-atb-32x466x65": f"{FUNCTIONS_RUN}; [i8-atb-389x178x721] rolls back an A^T x B "
                "kernel's straight K tiles, [fp8e5m2-abt-95x90x271] a last K tile's padding"}


@needs_iree
@pytest.mark.parametrize("name", marked(sorted(KERNELS), KERNELS_LONG))
def test_iree_k_tiles_left_straight_through_registers_get_their_loop_back(tmp_path, capsys,
                                                                        name):
    forms = _forms(name)
    _straight(forms["late"])
    _forms_agree_exact(tmp_path, forms, capsys, "late",
                       f"--emulate-workgroups={KERNELS[name][-1]}")


@needs_iree
def test_iree_k_tiles_left_straight_through_registers_broken_are_refused(tmp_path, capsys):
    late = _forms("fp8e5m2-abt-95x90x271")["late"]
    barriers = [m.start() for m in re.finditer(r"gpu\.barrier memfence", late)]
    # the barrier between K tile 0's reads and K tile 1's stores removed: K tile 1 would
    # overwrite what another wave may still be reading
    at = barriers[1]
    mutant = late[:at] + late[late.index("\n", at) + 1:]
    err = _refused(tmp_path, mutant, "war", capsys)
    assert "(K tile 1) stores to LDS with no gpu.barrier after K tile 0's last read" in err, err
    # K tile 2's MFMA accumulates onto K tile 0's, not K tile 1's
    mfmas = re.findall(r"(%\d+) = amdgpu\.mfma 16x16x128 (%\d+) \* (%\d+) \+ (%[\w]+)", late)
    assert len(mfmas) == 3
    last = mfmas[2]
    mutant = late.replace(f"{last[1]} * {last[2]} + {last[3]}",
                          f"{last[1]} * {last[2]} + {mfmas[0][0]}", 1)
    err = _refused(tmp_path, mutant, "chain", capsys)
    assert "(K tile 2) does not accumulate onto" in err, err
    # K tile 1's copy of A stored to B's buffer
    stores = re.findall(r"vector\.store (%\d+), (%alloc\w*)\[", late)
    assert len(stores) == 6 and stores[2][1] != stores[3][1]
    mutant = late.replace(f"vector.store {stores[2][0]}, {stores[2][1]}[",
                          f"vector.store {stores[2][0]}, {stores[3][1]}[", 1)
    err = _refused(tmp_path, mutant, "buffer", capsys)
    assert "(K tile 1) uses another memref<32x136xf8E5M2, #gpu.address_space<workgroup>> " \
        "than K tile 0's copy" in err, err


@needs_iree
def test_c_staged_before_the_straight_k_tiles_stays_before_their_loop(tmp_path, capsys):
    """f16 ``C += A x B`` 156x71x383 with 3 stages (finding 75 of docs/iree-audits.md): the
    late form loads C's rows into a private buffer through IREE's guarded loads before K
    tile 0's copies; those loads store to no LDS, so they are not the tiles' and stay
    before the rebuilt loop (before, the straight part began at C's first load and was
    refused at C's first private store).  Both forms: one schedule, exact.  A private store
    of C moved among K tile 0's copies is still refused there."""
    forms = G.forms(E.epilogue_source("accumulate", "f16", m=156, n=71, k=383, b_kxn=True),
                    ("--iree-llvmgpu-prefetch-num-stages=3",))
    late = forms["late"]
    _straight(late)
    staged = re.search(r"\n *vector\.store %\d+, %alloca\[%c0, %c0\][^\n]*", late).group(0)
    assert late.index(staged) < late.index("vector.store", late.index("%alloc_"))
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=3")
    lds_store = re.search(r"\n *vector\.store %\d+, %alloc(_\d+)?\[[^\n]*", late).group(0)
    mutant = late.replace(staged, "", 1).replace(lds_store, lds_store + staged, 1)
    err = _refused(tmp_path, mutant, "moved", capsys)
    assert "'vector.store' op (among the K tiles IREE's prefetch pipelining peeled) is " \
        "neither a load of global memory" in err, err


#: mutants of the campaign's ``peeledreg`` and ``peeledregi8`` families (seed 1, with the
#: straight tiles' own mutations, ``mutants.STRAIGHT_MUTATIONS``; 60 of them: 2 exact, 58
#: refused), as recorded: the barrier between K tile 0's stores and reads moved below its
#: first read (refused at the read), a store of K tile 2 moved above the barrier after K tile
#: 1's reads (refused at the store), K tile 2's MFMA made to accumulate onto K tile 0's
#: (refused at the MFMA), an operand of a ``minui`` of the index arithmetic moved by 4
#: (exact: the rebuilt loop computes what the mutant does)
PEELED = [(1, "refused", "(K tile 0) reads LDS with no gpu.barrier after K tile 0's last "
                         "store"),
          (11, "refused", "(K tile 2) stores to LDS with no gpu.barrier after K tile 1's "
                          "last read"),
          (55, "refused", "(K tile 2) does not accumulate onto"),
          (48, "exact", "")]


@needs_iree
@pytest.mark.parametrize("index, want, detail", PEELED)
def test_mutants_of_register_k_tiles_left_straight_are_refused_or_exact(index, want, detail):
    M.check_recorded(1, index, ["peeledreg", "peeledregi8"], want, detail)


@pytest.mark.long("sched-adopt-loop-straight-guards.mlir holds the two forms' one schedule "
                  "and the refusals; the emulation of a rebuilt straight late form is "
                  "test_iree_k_tiles_left_straight_through_registers_get_their_loop_back's")
def test_a_guard_distance_folded_in_the_last_tile_is_the_loops_own_row_index(tmp_path,
                                                                            capsys):
    """IREE's i8 batch 2 x 547x183x142, B ``K x N``, 4 stages (finding 99 of
    docs/iree-audits.md; the committed lit input, generate.py's ``EPILOGUE_LIT_INPUTS``):
    the last K tile's guarded copy of B at the constant row 142 folds it into its
    distance's map, which the rebuilt loop makes the row-major index of its own indices.
    Both forms one schedule; the late form exact on 4 of its 36 workgroups, the last among
    them (late mode)."""
    inputs = Path(__file__).parents[2] / "lit" / "passes" / "Inputs"
    forms = {f: (inputs / f"iree-i8-batch-547x183x142.{f}.mlir").read_text()
             for f in ("prefetch", "late")}
    _forms_agree_exact(tmp_path, forms, capsys, "late", "--emulate-workgroups=4")
