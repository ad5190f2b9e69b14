"""IREE's prefetch pipelining of a DMA copy made by part of the workgroup, rolled back
(``pipeline_mlir/frontend/reroll.py``, finding 86 of docs/iree-audits.md).

Built with IREE's 2 prefetch stages (its default build), f16 ``A x B^T`` 100x17x520 copies
B's 32x8 tile with threads 0 to 127 of 256: IREE pipelines the loop's DMA copies and keeps
B's copy inside ``scf.if %tid < 128``, in the prologue and in the body, among the others.
The roll-back takes the guarded copy as it takes an unguarded one (the prologue's the body's
at its K tile, the guard's condition too) when the guard's condition is the same in every
iteration, and leaves the guard in the rolled loop for the spread
(``frontend/partial_copy.py``), as the prefetch point has it: one schedule from both forms,
the late form exact on the emulator.  Mutants of the guards are refused at the guard or the
copy.
"""

from __future__ import annotations

import re

import pytest

from iree_configs import G
from test_iree_emulate import needs_iree
from test_iree_reroll import DEFAULT_BUILD, _forms_agree_exact, _refused

pytestmark = pytest.mark.usefixtures("shared_code_objects")

#: the guard's condition, the thread id below 128 (i32), in the late form
CONDITION = re.compile(r"(%\w+) = arith\.cmpi slt, (%\w+), (%c128_i32) : i32\n")
#: the guards, the prologue's first, at the indent of its block
GUARD = re.compile(r"\n( +)scf\.if (%\w+) \{\n")


def _late(source: str, flags: tuple = DEFAULT_BUILD, stages: int = 2) -> dict:
    """Both forms of ``source``; the late form's loop pipelined by IREE with ``stages``
    stages, the copy guarded in each of its ``stages - 1`` prologue groups and its body."""
    forms = G.forms(source, flags)
    late = forms["late"]
    assert late.count("rocdl.asyncmark") == stages and \
        len(GUARD.findall(late)) == stages, \
        "IREE no longer pipelines the loop with the copy guarded in its prologue and body"
    return forms


def _f16() -> dict:
    return _late(G.matmul_source("f16", 100, 17, 520))


@needs_iree
def test_a_guarded_dma_copy_rolled_back_gives_the_prefetch_points_schedule(tmp_path, capsys):
    """f16 ``A x B^T`` 100x17x520, IREE's default build: one schedule from both forms (the
    guarded copy spread over every thread after the roll-back, as at the prefetch point),
    the late form exact on the emulator (late mode; its grid is one workgroup).  Before,
    the late form was refused at the body's guard (``... 'scf.if' op (before the wait of
    the prefetch-pipelined loop) has side effects``)."""
    _forms_agree_exact(tmp_path, _f16(), capsys, "late")


@needs_iree
@pytest.mark.long("test_a_guarded_dma_copy_rolled_back_gives_the_prefetch_points_schedule "
                  "rolls the same guarded copy back in the default run")
@pytest.mark.parametrize("dtype,m,n,stages", [("bf16", 100, 17, 2), ("f16", 100, 17, 3),
                                              ("f16", 17, 100, 2)])
def test_guarded_dma_copies_of_the_same_family(dtype, m, n, stages, tmp_path, capsys):
    """bf16 100x17x520, f16 with 3 stages (two prologue groups), f16 17x100x520 (A's copy
    guarded): one schedule from both forms, exact (late mode)."""
    forms = _late(G.matmul_source(dtype, m, n, 520),
                  (f"--iree-llvmgpu-prefetch-num-stages={stages}",), stages)
    _forms_agree_exact(tmp_path, forms, capsys, "late")


def _guards(text: str) -> list:
    """The two guards' ``(start, end)`` in ``text``: from the ``scf.if`` line to its closing
    brace's line, both included."""
    out = []
    for g in GUARD.finditer(text):
        end = text.index(f"\n{g.group(1)}}}\n", g.end())
        out.append((g.start() + 1, end + len(g.group(1)) + 3))
    return out


def _in_guard(text: str, which: int, line: str) -> str:
    """``line`` put first in guard ``which`` (0 the prologue's, 1 the body's)."""
    start, _end = _guards(text)[which]
    head = text.index("\n", start) + 1
    indent = GUARD.search(text, start - 1).group(1) + "  "
    return text[:head] + indent + line + "\n" + text[head:]


def _condition_of(text: str, which: int, cond: str) -> str:
    """Guard ``which`` made to test ``cond`` (a value) instead of its condition."""
    start, _end = _guards(text)[which]
    g = GUARD.search(text, start - 1)
    return text[:g.start()] + g.group(0).replace(g.group(2), cond) + text[g.end():]


def _unguarded_prologue(text: str) -> str:
    """The prologue's guard removed, its copy and index arithmetic run by every thread (the
    values it defines renamed: a region's names may repeat outside it)."""
    start, end = _guards(text)[0]
    block = text[start:end].split("\n")
    inner = re.sub(r"%(\d+)\b", r"%p\1", "\n".join(
        ln[2:] for ln in block[1:-2])) + "\n"
    defined = set(re.findall(r"(%p\d+) = ", inner))
    inner = re.sub(r"%p(\d+)\b", lambda m: m.group(0) if m.group(0) in defined
                   else f"%{m.group(1)}", inner)
    return text[:start] + inner + text[end:]


@needs_iree
def test_guards_the_roll_back_does_not_take_are_refused(tmp_path, capsys):
    """Each refused at one located op: a body guard whose condition moves with the K tile
    (not the same in every iteration), a guard that also holds a barrier (in the body, in
    the prologue), a prologue guard of another condition, a prologue copy unguarded, and
    both guards of one thread more (thread 128's copy leaves the LDS slot)."""
    late = _f16()["late"]
    cond = CONDITION.search(late)
    assert cond, "the guard's condition is not the thread id below 128"
    ahead = re.search(r"(%\w+) = arith\.addi %arg0, %c1_i32 : i32\n", late)
    # the body's guard of the K tile the body copies: not the same in every iteration
    moving = late[:ahead.end()] + f"            %moving = arith.cmpi ult, {ahead.group(1)}, " \
        f"%c64_i32 : i32\n" + late[ahead.end():]
    moving = _condition_of(moving, 1, "%moving")
    err = _refused(tmp_path, moving, "moving", capsys)
    assert re.search(r":\d+:\d+: error: .*'scf\.if' op guards a copy of the prefetch-pipelined "
                     r"loop with a condition computed from the loop's induction variable",
                     err), err
    # a barrier in the body's guard, then in the prologue's
    err = _refused(tmp_path, _in_guard(late, 1, "gpu.barrier"), "body_barrier", capsys)
    assert "'scf.if' op (before the wait of the prefetch-pipelined loop) guards a copy and " \
        "more: the roll-back takes a guard with no results and no else ops" in err, err
    err = _refused(tmp_path, _in_guard(late, 0, "gpu.barrier"), "prologue_barrier", capsys)
    assert "'scf.if' op (before the prefetch-pipelined loop) guards an asynchronous copy " \
        "and more" in err, err
    # the prologue's guard of threads 0 to 128: not the body's condition
    sle = late[:cond.end()] + f"          %sle = arith.cmpi sle, {cond.group(2)}, " \
        f"{cond.group(3)} : i32\n" + late[cond.end():]
    err = _refused(tmp_path, _condition_of(sle, 0, "%sle"), "prologue_sle", capsys)
    assert re.search(r"'amdgpu\.gather_to_lds' op \(a copy before the loop\) is not the "
                     r"body's copy at line \d+:\d+ at K tile 0: its guards' conditions differ",
                     err), err
    # the prologue's copy unguarded, the body's guarded
    err = _refused(tmp_path, _unguarded_prologue(late), "unguarded", capsys)
    assert "(a copy before the loop, or its guard) differs from the body's copy at line" in \
        err and "in its guard: one runs under an 'scf.if', the other not" in err, err
    # both guards of threads 0 to 128: thread 128 copies into the next slot
    both = late.replace(cond.group(0), cond.group(0).replace("slt", "sle"), 1)
    err = _refused(tmp_path, both, "both_sle", capsys)
    assert "'amdgpu.gather_to_lds' op has LDS elements that move with the K tile other than " \
        "by its slot, or leave the slot" in err, err
