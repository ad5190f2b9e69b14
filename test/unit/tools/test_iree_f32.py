"""IREE's f32 matmuls (``MFMA_F32_16x16x4_F32``: ``amdgpu.mfma 16x16x4`` on scalar f32
operands, one f32 of A and of B a lane, ``v_mfma_f32_16x16x4_f32``), which every f32
``linalg.matmul`` iree-compile 3.13 builds for gfx950 issues: pipelined by the 4-wave
schedule from both forms, exact on the emulator.

* f32 ``A x B`` 512x256x512: a 64x128 tile in 2x2 waves, K step 64 (16 MFMAs per
  accumulator and K step), A and B copied through registers into padded LDS tiles, each
  lane's operands read 16 scalars at a time, K 4 apart;
* f32 ``A x B^T`` 300x200x500: a 128x64 tile, K step 4 (one MFMA per accumulator and K
  step, 125 K steps), copies of 1 and 2 elements a lane masked at C's edges.  The 4-wave
  kernel's own timing rule picks dword DMAs for a tile of 32-cycle MFMAs; the loop's copies
  are the front end's, counted from the kernel (``dma=x4`` in the adopted spec): before,
  both forms were refused at the module (``option 'vm_per_load_a=1' contradicts
  'dma=auto' ...``);
* f32 ``A^T x B^T`` 292x754x758 (1 prefetch stage): a 16x64 tile in 2 waves, K step 4, A's
  64-element tile of a K step (K x M) copied 4 elements a lane: split along K into
  subtiles fewer elements than the 128 threads (64 with 2 K steps merged), and an f32 is
  not cut into narrower pieces, so, every other way refused, the front end's own copies
  of A give each thread one element and the subtile buffers a padding that the last 64
  lanes' copies fill and no read reads (``layout.ChannelPlan.padding``; its copies keep
  the mask of C's edge); before, both forms were refused at A's copy (``... half of its
  128-element tile is not a whole number of copies of 128 threads x ...``);
* f32 ``A x B^T`` 34x27x2112 built with IREE's 3 prefetch stages: a 64x32 tile over M = 34,
  so the copy of A's rows 48 to 63 lies past C's edge in the one workgroup and IREE folds
  it to a store of its padding (a constant) among the stores of the carried tiles; the
  late form's 3-stage loop is brought to the 2-stage form with that store kept
  (``frontend/reroll_carried.py``).  Before, the late form was refused at that store
  (``... is not an LDS store of a tile the loop carries ...``), the prefetch point
  pipelined.

Before, every f32 matmul was refused at its first MFMA (``... multiplies scalar f32
operands; the schedules take vector operands of ...``).  An MFMA of scalar f64 operands
stays refused at the op (``test_mfma_variant.py``), and the complete kernel (no input) of
``dtype=f32`` says it pipelines a kernel given as input.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from build_cache import share_code_objects
from kernel_builds import gated_build
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import generate as G  # noqa: E402

#: name -> (matmul_source arguments, iree-compile flags, the adopted spec's options that
#: say what was read)
CASES = {
    "ab-512x256x512": (dict(m=512, n=256, k=512, transpose_b=False), (),
                       {"dtype": "f32", "BM": "64", "BN": "128", "BK": "64"}),
    "abt-300x200x500": (dict(m=300, n=200, k=500), (),
                        {"dtype": "f32", "BK": "8", "dma": "x4"}),
    "abt-34x27x2112-s3": (dict(m=34, n=27, k=2112), ("--iree-llvmgpu-prefetch-num-stages=3",),
                          {"dtype": "f32", "BM": "64", "BN": "32", "BK": "64"}),
    "atbt-292x754x758": (dict(m=292, n=754, k=758, transpose_a=True),
                         ("--iree-llvmgpu-prefetch-num-stages=1",),
                         {"dtype": "f32", "BM": "16", "BN": "64", "BK": "8",
                          "k_subtiles": "a", "waves": "2"}),
}


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> dict:
    """Both forms of each case, as files ({(case, form): path})."""
    d = tmp_path_factory.mktemp("f32")
    out = {}
    for case, (kw, flags, _) in CASES.items():
        for form, text in G.forms(G.matmul_source("f32", **kw), flags).items():
            assert "amdgpu.mfma 16x16x4" in text and ": f32, f32, vector<4xf32>" in text, \
                "IREE's f32 kernel changed its MFMA"
            out[case, form] = d / f"{case}.{form}.mlir"
            out[case, form].write_text(text)
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_both_forms_give_one_schedule_and_are_exact(forms, case, capsys):
    """Each form's build passes the ISA gate (built outside the shared store, which skips
    it) and issues the f32 MFMA only, then is emulated from the store on the grid's first
    and last workgroup."""
    got = {}
    for form in ("prefetch", "late"):
        path = forms[case, form]
        built, options, schedule = got[form] = gated_build(path)
        want = CASES[case][2]
        assert {k: options.get(k) for k in want} == want, (form, options)
        names = {i.name for i in load_kernel(built.output).instrs
                 if i.name.startswith("v_mfma")}
        assert names == {"v_mfma_f32_16x16x4_f32"}, (form, names)
        one = "s3" in case          # (a grid of one workgroup)
        with share_code_objects():
            rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
                       "--emulate-jobs=1"] + ([] if one else ["--emulate-workgroups=2"]))
        out, err = capsys.readouterr()
        assert rc == 0 and re.search(r"mode=late: exact, max error 0(?: in C \(\d+ elements\))?,"
                                     + (r" 1 workgroups" if one else r" 2 of \d+ workgroups"),
                                     out), form + out + err
    assert got["prefetch"][1:] == got["late"][1:]


def test_an_f64_mfma_among_them_is_refused_at_the_op(forms, tmp_path, capsys):
    """The late form with a 16x16x4 f64 MFMA of one MFMA's operands converted to f64 added
    (into a constant accumulator, its result dropped): refused at that op, located, not a
    crash on its operand type (at its accumulator, checked first; the scalar f64 operands'
    refusal is ``test_mfma_variant.py``'s)."""
    text = forms["abt-300x200x500", "late"].read_text()
    m = re.search(r"(%\d+) = amdgpu\.mfma 16x16x4 (%\d+) \* (%\d+) \+ (%\S+) : f32, f32, "
                  r"vector<4xf32>", text)
    assert m, "IREE's late form changed"
    line = text[:m.start()].count("\n") + 1
    mutant = tmp_path / "f64.mlir"
    mutant.write_text(text[:m.start()] + (
        f"%wa = arith.extf {m[2]} : f32 to f64\n%wb = arith.extf {m[3]} : f32 to f64\n"
        f"%wz = arith.constant dense<0.0> : vector<4xf64>\n"
        f"%wd = amdgpu.mfma 16x16x4 %wa * %wb + %wz : f64, f64, vector<4xf64>\n") +
        text[m.start():])
    assert main(["--pipeline=4wave", "--emit=schedule-json", str(mutant)]) == 1
    out, err = capsys.readouterr()
    assert re.match(rf"{re.escape(str(mutant))}:{line + 3}:\d+: error: sched-adopt-loop: "
                    r"'amdgpu\.mfma' op: its accumulator is neither an iter_arg of the loop "
                    r"nor the result of an earlier MFMA of the same iteration\n", err), err
    assert "Traceback" not in err and not out


def test_the_complete_kernel_of_f32_is_refused_at_the_spec(capsys):
    """No input: the complete kernels are the reference's, which multiplies no f32; the
    schedule itself prints (``--emit=schedule``)."""
    assert main(["--pipeline=4wave{dtype=f32}", "--emit=asm"]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("pipeline-opt: error: pipeline '4wave{dtype=f32}': the complete "
                          "kernel multiplies bf16, f16, fp8, mxfp4, mxfp8, i8; a schedule "
                          "of dtype=f32 pipelines a kernel given as input\n"), err
    assert not out
    assert main(["--pipeline=4wave{dtype=f32}", "--emit=schedule"]) == 0
    assert "WARP_STAGGER_INDEX" in capsys.readouterr().out


def _refused(path: Path, capsys, said: str, line: int | None) -> None:
    """``path`` refused by ``--pipeline=4wave`` at ``line`` (None: any) with ``said``, one
    message."""
    assert main(["--pipeline=4wave", "--emit=schedule-json", str(path)]) == 1
    out, err = capsys.readouterr()
    at = r"\d+" if line is None else line
    assert re.match(rf"{re.escape(str(path))}:{at}:\d+: error: sched-adopt-loop: {said}",
                    err), err
    assert "Traceback" not in err and not out


def test_a_folded_store_is_kept_only_as_irees(forms, tmp_path, capsys):
    """Mutants of the 3-stage late form: the padding store at an index the body computes
    (refused at it: its indices are computed before the loop in IREE's form), and the
    carried load whose store IREE folded yielded no more (a load of the body's that the
    loop carries nowhere: refused at the loop)."""
    text = forms["abt-34x27x2112-s3", "late"].read_text()
    loop = re.search(r"scf\.for %arg0 = ", text)
    store = re.compile(r"vector\.store (%cst_\d+), (%alloc_\d+)\[(%\d+), (%\d+)\]").search(
        text, loop.start())
    assert store, "IREE's 3-stage form changed"
    at = text[:store.start()].count("\n") + 1
    moved = tmp_path / "moved.mlir"
    moved.write_text(text[:store.start()] + f"%wi = arith.addi {store[3]}, {store[4]} : index\n"
                     + store[0].replace(f"[{store[3]},", "[%wi,") + text[store.end():])
    _refused(moved, capsys, r"'vector\.store' op \(an LDS store of a loop pipelined through "
             r"registers in 3 stages\) stores at indices the body computes", at + 1)
    y = re.search(r"scf\.yield ((?:%\d+, ){5})(%\d+)", text[loop.start():])
    unyielded = tmp_path / "unyielded.mlir"
    cut = loop.start() + y.start(2)
    unyielded.write_text(text[:cut] + store[1] + text[cut + len(y[2]):])
    _refused(unyielded, capsys, r"'scf\.for' op \(pipelined through registers in 3 stages\) "
             r"loads 6 values and carries 5 of them to its stores",
             text[:loop.start()].count("\n") + 1)


def test_a_padded_subtile_is_copied_by_every_thread(forms, monkeypatch, capsys):
    """292x754x758's late form adopted (2 K steps merged, A split along K): A's subtile
    buffers (2 stages x 2 subtiles) hold a subtile's 64 elements and a padding up to one
    element a thread (128), B's 256 elements each; with the copies' buffer taken for one
    of strides known at launch, which padded copies do not take, the loop is refused
    (with the other ways' reasons: padding is the last way tried)."""
    from pipeline_mlir.frontend import layout

    path = forms["atbt-292x754x758", "late"]
    assert main(["--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})",
                 str(path)]) == 0
    adopted = capsys.readouterr().out
    sizes = re.findall(r"memref\.alloc\(\) : memref<(\d+)xf32, #gpu\.address_space<workgroup>>",
                       adopted)
    assert sorted(sizes) == ["128"] * 4 + ["256"] * 4, sizes
    monkeypatch.setattr(layout, "has_launch_strides", lambda base: True)
    _refused(path, capsys, r"channel A: every fragment read needs the data of the same "
             r"copies, so no split into the schedule's two subtiles exists", None)


def test_a_given_dword_dma_that_contradicts_the_copies_is_refused(forms, capsys):
    """300x200x500 adopts ``dma=x4`` where ``dma=auto`` would resolve to dword DMAs whose
    counts are not the kernel's; asked for dword DMAs, it is refused at the module with
    the contradiction, not given other counts."""
    path = forms["abt-300x200x500", "late"]
    assert main(["--pipeline=4wave{dma=dword}", "--emit=schedule-json", str(path)]) == 1
    out, err = capsys.readouterr()
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: sched-adopt-loop: pipeline "
                    r"'4wave': option 'vm_per_load_\w=\d+' contradicts 'dma=dword', which "
                    r"issues 4 DMAs per load", err), err
    assert not out and "Traceback" not in err
