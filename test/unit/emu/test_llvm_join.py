"""Where two paths from an MFMA join, LLVM 22 counts the wait states of the path it walks first.

``GCNHazardRecognizer`` looks back from a reader through the predecessors of its block,
depth first, with one set of visited blocks for the whole walk: a block reached a second
time is skipped, whatever the wait states of the second path.  So when the longer of two
paths from an MFMA to its reader is walked first, the MFMA's block is marked on it and the
shorter path is never counted: the reader gets the longer path's wait states.  Found on
IREE's f16 ``A x B^T`` 16x105x477 with C truncated to f8E5M2 (finding 69 of
``docs/iree-audits.md``): each element's conversion and masked byte store sit in their own
block after the last MFMA, and the path that skips the first store (``s_cbranch_execz``)
reached a ``v_cvt_pk_bf8_f32`` of the MFMA's result 7 wait states after it (8 needed).

The emulator's path check counts every path (``pipeline_mlir/emu/hazard_paths.py``) and
reports the short one; ``llc-22`` (when installed) shows LLVM's count on a diamond in both
block orders; and the lowering puts the wait states of every XDL MFMA's readers itself, a
fenced guard before the first reader after it (``pipeline_mlir/lowering/xdl_window.py``),
which the finding's kernel now passes (``test_iree_join_guard.py``).
"""

from __future__ import annotations

import pytest

from emu_helpers import snippet_kernel
from llvm_hazards import LLC, missing_wait_states
from pipeline_mlir.emu.hazard_paths import path_violations
from pipeline_mlir.target.gfx950 import d_wait_states, mfma_passes

MFMA = "v_mfma_f32_16x16x32_f16 v[0:3], v[32:35], v[40:43], v[0:3]"
READ = "v_add_u32_e32 v5, v0, v6"
NEED = d_wait_states(mfma_passes("v_mfma_f32_16x16x32_f16", False)[0], True)

_MIR_MFMA = ("$vgpr0_vgpr1_vgpr2_vgpr3 = V_MFMA_F32_16X16X32_F16_vgprcd_e64 "
             "$vgpr32_vgpr33_vgpr34_vgpr35, $vgpr40_vgpr41_vgpr42_vgpr43, "
             "$vgpr0_vgpr1_vgpr2_vgpr3, 0, 0, 0, implicit $mode, implicit $exec")
_MIR_READ = "$vgpr5 = V_ADD_U32_e32 $vgpr0, $vgpr6, implicit $exec"


def _nops(n: int, mir: bool = False) -> list[str]:
    return ["S_NOP 0" if mir else "s_nop 0"] * n


def _diamond_asm(short: int, long: int) -> str:
    """The MFMA, ``short`` wait states, ``s_cbranch_execz`` to the join (the short path:
    ``short + 1``) or on through ``long`` more (the long path), the reader at the join."""
    return "\n".join([MFMA, *_nops(short), "s_cbranch_execz join", *_nops(long), "join:",
                      READ, "s_endpgm"])


def _diamond_mir(short: int, long: int, long_first: bool) -> str:
    """The same diamond in MIR.  ``long_first``: the long path's block comes first in the
    function, so the join lists it first among its predecessors (the order LLVM's walk
    takes them) and the MFMA's block is reached through it first."""
    def block(n: int, succ: str, lines: list[str]) -> str:
        body = "".join(f"    {ln}\n" for ln in lines)
        return f"  bb.{n}:\n    successors: {succ}\n{body}"
    if long_first:
        blocks = [block(0, "%bb.2", ["S_BRANCH %bb.2"]),
                  block(1, "%bb.3", [*_nops(long, True), "S_BRANCH %bb.3"]),
                  block(2, "%bb.3, %bb.1", [_MIR_MFMA, *_nops(short, True),
                                            "S_CBRANCH_EXECZ %bb.3, implicit $exec",
                                            "S_BRANCH %bb.1"])]
        join = 3
    else:
        blocks = [block(0, "%bb.2, %bb.1", [_MIR_MFMA, *_nops(short, True),
                                            "S_CBRANCH_EXECZ %bb.2, implicit $exec"]),
                  block(1, "%bb.2", _nops(long, True))]
        join = 2
    blocks.append(f"  bb.{join}:\n    {_MIR_READ}\n    S_ENDPGM 0\n")
    return ("---\nname: f\ntracksRegLiveness: false\nmachineFunctionInfo:\n"
            "  isEntryFunction: true\nbody: |\n" + "".join(blocks) + "...\n")


@pytest.mark.parametrize("short", [0, 2, NEED - 2, NEED - 1])
def test_the_path_check_counts_the_short_path(short):
    """The long path has wait states to spare; the short one has ``short + 1`` (the branch):
    reported while fewer than the MFMA's ``NEED``."""
    found = [(v.violation.rule.name, v.violation.required, v.violation.present)
             for v in path_violations(snippet_kernel(_diamond_asm(short, NEED + 4)))]
    assert found == ([("mfma-d-valu", NEED, short + 1)] if short + 1 < NEED else [])


@pytest.mark.skipif(LLC is None, reason="llc-22 (LLVM 22) is not installed")
@pytest.mark.parametrize("short", [0, 2, 4])
def test_llvm_counts_the_path_it_walks_first(short):
    """Short path walked first: LLVM adds what it lacks.  Long path walked first: nothing,
    though the short path is the same."""
    assert missing_wait_states(_diamond_mir(short, NEED + 2, False)) == NEED - (short + 1)
    assert missing_wait_states(_diamond_mir(short, NEED + 2, True)) == 0
    assert path_violations(snippet_kernel(_diamond_asm(short, NEED + 2)))
