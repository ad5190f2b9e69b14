"""The ISA gate on a one-wave kernel whose epilogue's last reads are dead (finding 39 of
docs/iree-audits.md).

IREE's i8 ``A^T x B^T`` (128x64 at K 1280 and 1792 here) with a forced 128x64 tile in
one wave (8x4 MFMA tiles, a K step of
4 MFMAs), IREE's own prefetch of 2 stages, under ``4wave``: the epilogue's last fragment
reads (``EPI[26]``, ``EPI[30]``) feed no MFMA and were gone before LLVM; LLVM merged the
``vmcnt(0)`` of ``EPI[27]`` into the ``lgkmcnt(0)`` of ``EPI[25]`` and dropped the run
guards' waits between them, leaving 8 fences in a row (the lowering no longer emits those
reads: ``test/unit/lowering/test_dead_epilogue_reads.py``).  The separator alignment paired a
run guard's fences and wait with the later ``lgkmcnt(0)`` (``EPI[29]``) and its fences,
and the gate refused the late form (``wait-missing``, ``EPI[27]``), which runs exact.
The fences, as many as the schedule's, are now paired in order
(:func:`pipeline_mlir.isa.check.align_separators`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from pipeline_mlir.isa.check import align_separators
from pipeline_mlir.isa.skeleton import Token
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

FLAGS = ("--iree-llvmgpu-prefetch-num-stages=2",)


@pytest.fixture(scope="module")
def forms(tmp_path_factory):
    """``forms(k)``: both forms at 128x64xk, written once."""
    d = tmp_path_factory.mktemp("iree_ow")
    made: dict = {}

    def of(k: int) -> dict:
        if k not in made:
            cfg = G.compilation_info("i8", (128, 64), (8, 4), 4, 64, k_major=(True, False))
            src = G.matmul_source("i8", 128, 64, k, transpose_b=True, transpose_a=True,
                                  config=cfg)
            made[k] = {}
            for form, text in G.forms(src, FLAGS).items():
                made[k][form] = d / f"ow{k}.{form}.mlir"
                made[k][form].write_text(text)
        return made[k]
    return of


@pytest.fixture(scope="module")
def gated(forms):
    """``gated(form, k)``: that form's ``--emit=hsaco`` build under the gate (outside the
    run's shared code objects, whose builds skip it), its LLVM IR and assembly kept, built
    once per run and kept as the store's build of it (``kernel_builds.gated_kept``), so
    that its emulation and the late form's wait mutants below take this one build (and
    ``test_dead_epilogue_reads.py`` the prefetch form's lowered MLIR and plan)."""
    from kernel_builds import gated_kept

    return lambda form, k: gated_kept("4wave", forms(k)[form].read_text())


@pytest.mark.parametrize("form, k", [("prefetch", 1280), ("late", 1792)])
def test_the_forms_pass_the_gate_and_run_exact(forms, gated, form, k, capsys):
    """Each built under the gate (``gated``) and run (that build's code object): at 5 K
    steps (LLVM unrolls the loop) both forms were refused (``mfma-moved`` and
    ``wait-missing`` in the epilogue), at 7 the late form (``wait-missing``)."""
    gated(form, k)
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(forms(k)[form]),
                   "--emulate-workgroups=1", "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    assert re.search(rf"_128x64x{k}_i8xi8xi32 as .* mode=late: exact, max error 0 in C "
                     r"\(8192 elements\), 1 workgroups", out), out


def _epilogue_errors(asm: str, plan, ll: str) -> list:
    """The epilogue's findings that refuse the build (as the gate runs the check)."""
    from pipeline_mlir.isa.asm import parse_asm
    from pipeline_mlir.isa.built_check import errors, pipelined_check
    from pipeline_mlir.isa.report import unrolled_note

    fn = parse_asm(asm).function()
    ran = pipelined_check(fn, plan, unrolled_note(fn, ll), ll)
    assert ran.isa is not None, ran.note
    return [f for f in errors(ran.findings, ran.isa) if f.phase == "epilogue"]


def test_a_vm_wait_really_missing_there_is_refused(gated):
    """The late form at 7 K steps (a loop).  The merged ``vmcnt(0)`` deleted alone is
    held: an earlier ``vmcnt(0)`` of the epilogue, no vector-memory instruction issued
    since.  With every ``vmcnt`` of the epilogue deleted, the last stage's DMAs
    (``vmcnt(48)`` at its start) may still be in flight where ``EPI[27]`` stood: refused.
    (With ``EPI[26]``'s dead reads in the code, the gate paired the merged wait with
    ``EPI[25]`` alone and found ``EPI[27]``'s missing; the lowering no longer emits them, so
    it is the wait of both, weakened.)"""
    result = gated("late", 1792)
    ll, asm, (plan,) = result.stages["llvm"], result.stages["asm"], result.plans
    assert _epilogue_errors(asm, plan, ll) == []
    lines = asm.split("\n")
    merged = max(k for k, t in enumerate(lines) if t.strip() == "s_waitcnt vmcnt(0) lgkmcnt(0)")
    first = max(k for k, t in enumerate(lines[:merged]) if "vmcnt(48)" in t)
    alone = lines[:merged] + ["\ts_waitcnt lgkmcnt(0)"] + lines[merged + 1:]
    assert _epilogue_errors("\n".join(alone), plan, ll) == []
    none = [re.sub(r"vmcnt\(\d+\) ?", "", t) if first < k <= merged else t
            for k, t in enumerate(lines)]
    none = [t for t in none if t.strip() != "s_waitcnt"]
    bad = _epilogue_errors("\n".join(none), plan, ll)
    assert any(f.kind == "wait-weakened" and "EPI[27]" in f.entries for f in bad), bad


def _toks(spec: str, expected: bool) -> list[Token]:
    """Tokens of a letter string: F a fence, w lgkmcnt(7), W lgkmcnt(0), V vmcnt(0),
    X vmcnt(0) lgkmcnt(0), r an LDS read, m an MFMA."""
    out = []
    for n, c in enumerate(spec):
        kw = {"origin": (f"E{n}",)} if expected else {"lines": (n + 1,)}
        if c == "F":
            out.append(Token("sched_barrier", **kw))
        elif c in "wWVX":
            out.append(Token("wait", vm=0 if c in "VX" else None,
                             lgkm={"w": 7, "W": 0, "V": None, "X": 0}[c], **kw))
        else:
            out.append(Token({"r": "ds_read", "m": "mfma"}[c], **kw))
    return out


def test_fences_as_many_as_the_schedules_pair_in_order():
    """The epilogue's tail in letters: the guard waits (then placed inside long loads) and
    the ``vmcnt(0)`` gone with the dead reads between them.  Each fence pairs with its own;
    the alignment by class alone paired the last guard's ``F w F`` with the later ``F W F``.  With a
    fence more in the assembly than the schedule's, the fences are not paired in order."""
    es = "FWF" + "rFwF" * 3 + "rFVF" + "mFWF" + "rmF"
    acts = "FXF" + "F" * 8 + "mFWF" + "mF"
    exp, act = _toks(es, True), _toks(acts, False)
    pairs, un_e, un_a = align_separators(exp, act)
    fences_e = [k for k, c in enumerate(es) if c == "F"]
    fences_a = [k for k, c in enumerate(acts) if c == "F"]
    assert [p for p in pairs if p[0] in fences_e] == list(zip(fences_e, fences_a))
    assert (es.index("W"), acts.index("X")) in pairs                  # EPI[25]'s wait
    assert (es.rindex("W"), acts.rindex("W")) in pairs                # EPI[29]'s
    assert un_e == [k for k, c in enumerate(es) if c in "wV"] and un_a == []
    more = "F" + acts
    pairs2, _, _ = align_separators(exp, _toks(more, False))
    assert [p for p in pairs2 if p[0] in fences_e] != \
        list(zip(fences_e, [k for k, c in enumerate(more) if c == "F"]))
