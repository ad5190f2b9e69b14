"""The wait states on every path (``pipeline_mlir/emu/hazard_paths.py``), not only
on the path a run takes.

The case that needs it is LLVM 22's blind spot (``test_llvm_window.py``): a reader exactly
19 wait states after a 16-pass XDL MFMA on one path only, e.g. where ``s_cbranch_execz``
skips a barrier.  A run with lanes active falls through and issues 20; the path check
reports the branch's 19 before the machine runs anything.
"""

from __future__ import annotations

import pytest

from emu_helpers import run_snippet, snippet_kernel
from pipeline_mlir.emu.errors import EmuError, Finding
from test_hazard_rules import CASES
from pipeline_mlir.emu.hazard_paths import basic_blocks, path_violations, successors
from pipeline_mlir.emu.hazards import WaitStates, effects_of, info_of, infos
from pipeline_mlir.emu.program import compile_instr

MFMA = "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[32:39], v[40:47], v[0:15]"
STORE = "buffer_store_dword v0, v60, s[0:3], 0 offen"


def _nops(n: int) -> list[str]:
    """``n`` wait states of ``s_nop``."""
    out = []
    while n:
        k = min(n, 16)
        out.append(f"s_nop {k - 1}")
        n -= k
    return out


def _found(text: str) -> list[tuple]:
    return [(v.reader.text, v.violation.rule.name, v.violation.required, v.violation.present)
            for v in path_violations(snippet_kernel(text))]


def _skip(before: int) -> str:
    """The MFMA, ``before`` wait states, ``s_cbranch_execz`` over one barrier, the store:
    ``before + 2`` wait states falling through, ``before + 1`` branching."""
    return "\n".join([MFMA, *_nops(before), "s_cbranch_execz skip", "s_barrier", "skip:",
                      STORE, "s_endpgm"])


@pytest.mark.parametrize("gap,short", [(19, True), (20, False), (0, True)])
def test_a_straight_path_is_checked_at_its_count(gap, short):
    text = "\n".join([MFMA, *_nops(gap), STORE, "s_endpgm"])
    assert _found(text) == ([(STORE, "mfma-d-mem", 20, gap)] if short else [])


def test_the_branch_that_skips_a_barrier_is_one_short():
    """18 wait states, the branch (19), the skipped barrier (20): the run falls through
    (all lanes active: 20) and its own check is silent; the path check is not."""
    assert _found(_skip(18)) == [(STORE, "mfma-d-mem", 20, 19)]
    assert _found(_skip(19)) == []
    with pytest.raises(Finding, match=r"wait-states: 0x\w+ 'buffer_store_dword v0.*19 wait "
                                      r"states after 0x0000 'v_mfma_f32_32x32x64.*20 required "
                                      r"\(mfma-d-mem.* on some path"):
        run_snippet(_skip(18))


def test_the_walk_goes_round_a_loop():
    """The MFMA at the end of a loop body, a VALU reading its D at the top: the back edge
    is a path (16 wait states of s_nop and the branch: 17), the exit another."""
    text = "\n".join(["top:", "v_mov_b32_e32 v1, v0", *_nops(5), MFMA, *_nops(16),
                      "s_cbranch_scc1 top", *_nops(4), "s_endpgm"])
    assert _found(text) == [("v_mov_b32_e32 v1, v0", "mfma-d-valu", 20, 17)]


def test_another_mfma_writing_d_ends_the_first_ones_hazard():
    """The second MFMA (identical C: no wait) writes D again; the store is judged against
    it alone: 20 after the second, 21 after the first."""
    text = "\n".join([MFMA, MFMA, *_nops(20), STORE, "s_endpgm"])
    assert _found(text) == []
    assert _found("\n".join([MFMA, MFMA, *_nops(19), STORE, "s_endpgm"])) == \
        [(STORE, "mfma-d-mem", 20, 19)]


def test_the_other_readers_and_the_8_pass_mfmas():
    """A/B operand and DS data readers of the 16-pass MFMA; the 8-pass 16x16x128 needs 12."""
    srcab = "v_mfma_f32_32x32x64_f8f6f4 v[16:31], v[0:7], v[40:47], v[16:31]"
    ds = "ds_write_b32 v60, v0"
    assert _found("\n".join([MFMA, *_nops(19), srcab, "s_endpgm"])) == \
        [(srcab, "mfma-d-srcab", 20, 19)]
    assert _found("\n".join([MFMA, *_nops(19), ds, "s_endpgm"])) == [(ds, "mfma-d-mem", 20, 19)]
    small = "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[32:39], v[40:47], v[0:3]"
    assert _found("\n".join([small, *_nops(11), STORE, "s_endpgm"])) == \
        [(STORE, "mfma-d-mem", 12, 11)]
    assert _found("\n".join([small, *_nops(12), STORE, "s_endpgm"])) == []


def test_successors():
    kernel = snippet_kernel("\n".join(["a:", "s_nop 0", "s_cbranch_scc0 a", "s_branch b",
                                       "s_nop 0", "b:", "s_endpgm"]))
    assert successors(kernel.instrs) == [(1,), (2, 0), (4,), (4,), ()]
    # blocks [0, 1], [2], [3], [4]; the unreachable s_nop is a block of its own
    assert basic_blocks(kernel.instrs) == ([0, 2, 3, 4], [[1, 0], [3], [3], []])


def _joined(producer: str, reader: str, need: int, short: int) -> str:
    """The producer on two paths that join before the reader: the one a run with lanes
    active takes, ``need + 1`` wait states after it, and the one ``s_cbranch_execz`` takes
    (no lane active), ``need - short`` after it."""
    return "\n".join(["s_cbranch_execz other", producer, *_nops(need), "s_branch join",
                      "other:", producer, *_nops(need - short), "join:", reader, "s_endpgm"])


def _runs(text: str) -> bool:
    """Does the machine run the instruction (compile it to a step)?"""
    try:
        compile_instr(snippet_kernel(text).instrs[0], {})
    except EmuError:
        return False
    return True


#: the pairs of instructions the machine runs (not ``v_div_fmas``, ``s_getreg`` or a 4x4x4
#: MFMA: a kernel holding them is refused before the path check, ``hazards.effects_of``)
RUN = [(i, c) for i, c in enumerate(CASES) if _runs(c[1][0]) and _runs(c[2][0])]


@pytest.mark.parametrize("rule,first,second,need", [c for _, c in RUN],
                         ids=[f"{c[0]}-{i}" for i, c in RUN])
def test_every_rule_on_the_path_not_run(rule, first, second, need):
    """Each row of the wait-state table (``test_hazard_rules.py``'s pairs) whose
    instructions the machine runs: one wait state missing on the path no run with lanes
    active takes is reported with the rule and both counts; the full count on both paths is
    silent."""
    producer, reader = first[0], second[0]
    reader_text = snippet_kernel(reader).instrs[0].text
    assert _found(_joined(producer, reader, need, 1)) == [(reader_text, rule, need, need - 1)]
    assert _found(_joined(producer, reader, need, 0)) == []
    # on the path a run takes, the path check reports what the machine's tracker does (the
    # machine runs the tracker only when it collects findings)
    kernel = snippet_kernel("\n".join([producer, *_nops(need - 1), reader, "s_endpgm"]))
    ws = WaitStates()
    tracker = [(v.first.addr, i.ins.addr, v.rule.name, v.required, v.present)
               for i in infos(kernel.steps()) for v in [ws.step(i)] if v is not None]
    assert tracker == [(v.violation.first.addr, v.reader.addr, v.violation.rule.name,
                        v.violation.required, v.violation.present)
                       for v in path_violations(kernel)] == [(0, tracker[0][1], rule, need,
                                                              need - 1)]


@pytest.mark.parametrize("rule,first,second,need",
                         [c for c in CASES if c[1][0].startswith("v_mfma") and not _runs(c[1][0])])
def test_an_mfma_the_machine_does_not_run_on_the_path_not_run(rule, first, second, need):
    """A 2-pass XDL MFMA (4x4x4), which the machine does not run: the path check on the
    rules' view of each instruction (``hazards.effects_of`` for the MFMA, as
    ``driver/wait_check.py`` builds it) reports one wait state missing on the path a run
    does not take, and nothing at the full count."""
    for short, found in ((1, [(rule, need, need - 1)]), (0, [])):
        kernel = snippet_kernel(_joined(first[0], second[0], need, short))
        info = [info_of(effects_of(i) or compile_instr(i, kernel.at()))
                for i in kernel.instrs]
        assert [(v.violation.rule.name, v.violation.required, v.violation.present)
                for v in path_violations(kernel, info)] == found


def test_the_machine_reports_the_path_not_run_as_a_finding():
    """The machine raises the path check's finding at once; with ``collect`` it records it
    (``Machine.finding``) and runs: the run itself, falling through, is silent."""
    text = _joined(CASES[2][1][0], CASES[2][2][0], CASES[2][3], 1)
    with pytest.raises(Finding, match=r"wait-states: .*'v_cndmask_b32_e32 v62.*1 wait states "
                                      r"after .*2 required \(valu-sgpr-valu.* on some path"):
        run_snippet(text)
    from pipeline_mlir.emu.machine import Machine
    from emu_helpers import GlobalMemory
    m = Machine(snippet_kernel(text), GlobalMemory(), [0], 1, collect=True)
    m.run()
    assert [(f.kind, f.message.endswith("on some path")) for f in m.findings] == \
        [("wait-states", True)]
