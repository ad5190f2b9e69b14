"""IREE's f32 matmuls (``MFMA_F32_16x16x4_F32``: ``amdgpu.mfma 16x16x4`` on scalar f32
operands, one f32 of A and of B a lane, ``v_mfma_f32_16x16x4_f32``), which every f32
``linalg.matmul`` iree-compile 3.13 builds for gfx950 issues: pipelined by the 4-wave
schedule from both forms, exact on the emulator (each form built and run, but where the late
form takes the prefetch point's path, no edge and no mask: taken to its schedule only, its
build and run in the long tier, ``LATE_UNBUILT``; 300x200x500 and 292x754x758 built and run
in the long tier only, ``LONG_CASES``: every function of ``pipeline_mlir`` their items run
is run by the default run's other items).

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

* f32 ``A^T x B`` 94x1826x2660 and ``A^T x B^T`` 621x1724x1099 (1 prefetch stage): a 4 x
  16 ``K x N`` (``K x M``) tile, 64 f32, copied 4 elements a lane by threads 0 to 15 of
  128 (``scf.if %tid < 16`` at the prefetch point, a per-thread loop in the late form):
  spread one element a thread, the threads past the tile's 64 elements writing padding
  rows of its LDS buffer (``frontend/partial_elements.py``); before, both forms were
  refused at the guarding op (``... a copy made by part of the workgroup, which the front
  end spreads over every thread only ...``).  The mutants of
  :func:`test_a_partial_copy_it_cannot_spread_an_element_a_thread_is_refused` are refused
  at that op, saying why.  17x164x4066 (N a multiple of the 4-element runs) selects each
  run whole, by its K row and C's edge, where 94x1826x2660 masks it element by element.
  (94x1826x2660 built and run exact in the long tier only, ``LONG_CASES``: no line or
  branch of ``pipeline_mlir`` its item runs is left unrun by the module's other items.)
  The front end's own copies of that channel leave the padding rows out
  (``frontend/unread_bits.py``): B's subtile buffers of 94x1826x2660 hold 128 f32, one copy
  a thread, where they held 256, two
  (:func:`test_the_padding_rows_are_left_out_of_the_front_ends_copies`).

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

from build_cache import OnRequest, share_code_objects
from kernel_builds import gated_build, scheduled_only
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.tools.pipeline_opt import main

sys.path.insert(0, str(Path(__file__).parents[2] / "data" / "iree"))
import generate as G  # noqa: E402
from long_tier import FUNCTIONS_RUN  # noqa: E402

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
    "atb-94x1826x2660": (dict(m=94, n=1826, k=2660, transpose_a=True, transpose_b=False), (),
                         {"dtype": "f32", "BM": "32", "BN": "16", "BK": "16",
                          "k_subtiles": "ab", "waves": "2"}),
    "atb-17x164x4066": (dict(m=17, n=164, k=4066, transpose_a=True, transpose_b=False), (),
                        {"dtype": "f32", "BM": "32", "BN": "16", "BK": "16",
                         "k_subtiles": "ab", "waves": "2"}),
    "atbt-621x1724x1099-s1": (dict(m=621, n=1724, k=1099, transpose_a=True),
                              ("--iree-llvmgpu-prefetch-num-stages=1",),
                              {"dtype": "f32", "BM": "16", "BN": "64", "BK": "16",
                               "k_subtiles": "a", "waves": "2"}),
}


def _case_forms(directory: Path, key: tuple[str, str]) -> dict:
    """Both forms of case ``key[0]`` as files in ``directory``: {(case, form): path}."""
    case = key[0]
    kw, flags, _ = CASES[case]
    out = {}
    for form, text in G.forms(G.matmul_source("f32", **kw), flags).items():
        assert "amdgpu.mfma 16x16x4" in text and ": f32, f32, vector<4xf32>" in text, \
            "IREE's f32 kernel changed its MFMA"
        out[case, form] = directory / f"{case}.{form}.mlir"
        out[case, form].write_text(text)
    return out


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> dict:
    """Both forms of each case, as files ({(case, form): path}), each case generated when
    first asked for (a long-tier case's ``iree-compile`` run is not the default run's)."""
    d = tmp_path_factory.mktemp("f32")
    return OnRequest(lambda key: _case_forms(d, key))


#: the cases whose late form the default run takes to its schedule only (the front end's
#: whole run on it: the adopted spec's options and the schedule, equal to the prefetch
#: point's), its build under the ISA gate and its run exact in the long tier (its item
#: ``[CASE-late]``), as ``iree_forms.ONE_BUILT`` does for the configurations: case -> why
#: the prefetch point's build and run stand for it.  Not the cases whose late form takes a
#: path of its own (masks of C's edges, the 3-stage loop rolled back, a per-thread copy
#: loop)
LATE_UNBUILT = {
    "ab-512x256x512": "no edge, no mask: the same register copies into padded LDS tiles and "
                      "16-scalar operand reads from either form (one spec, one schedule: "
                      "[ab-512x256x512], which builds the prefetch point under the gate and "
                      "runs it exact)",
}


#: the cases built and run in the long tier only, both forms: case -> the case of the default
#: run that stands for it (the same adopted spec, and no line or branch of pipeline_mlir
#: that the default run's items of this module leave unrun; or, later, no function:
#: docs/testing.md, "The long tier")
LONG_CASES = {
    "atb-94x1826x2660": "[atb-17x164x4066] builds and runs the same spec (A^T x B, 2 "
                        "waves, both operands split along K) from both forms, and the "
                        "items of PARTIAL adopt 94x1826x2660's late form with its runs "
                        "masked element by element, in the default run",
    # (2026-12-07, the function rule of docs/testing.md, "The long tier": every function of
    # pipeline_mlir each runs is run by the default run's items left, coverage.py per item)
    "abt-300x200x500": f"{FUNCTIONS_RUN}; [abt-34x27x2112-s3] builds and runs an f32 A x B^T from "
                       "both forms",
    "atbt-292x754x758": f"{FUNCTIONS_RUN}; [atbt-621x1724x1099-s1] builds and runs an f32 "
                        "A^T x B^T "
                        "from both forms",
}


def _form_items():
    """The cases, by the forms each item builds: a case of :data:`LATE_UNBUILT` builds its
    prefetch point only, and its late form in a long-tier item of its own; a case of
    :data:`LONG_CASES` is a long-tier item."""
    for case in CASES:
        if case in LONG_CASES:
            yield pytest.param(case, ("prefetch", "late"), id=case,
                               marks=pytest.mark.long(LONG_CASES[case]))
            continue
        if case not in LATE_UNBUILT:
            yield pytest.param(case, ("prefetch", "late"), id=case)
            continue
        yield pytest.param(case, ("prefetch",), id=case)
        yield pytest.param(case, ("late",), id=f"{case}-late",
                           marks=pytest.mark.long(LATE_UNBUILT[case]))


@pytest.mark.parametrize("case,built_forms", _form_items())
def test_both_forms_give_one_schedule_and_are_exact(forms, case, built_forms, capsys):
    """Each form of ``built_forms`` is built under the ISA gate (outside the shared store,
    which skips it), issues the f32 MFMA only, and is emulated from the store on the grid's
    first and last workgroup; the other form is taken to its schedule only
    (:data:`LATE_UNBUILT`).  Both adopt one spec and give one schedule."""
    got = {}
    for form in ("prefetch", "late"):
        path = forms[case, form]
        want = CASES[case][2]
        if form not in built_forms:
            options, schedule, _ = scheduled_only(path)
            assert {k: options.get(k) for k in want} == want, (form, options)
            got[form] = None, options, schedule
            continue
        built, options, schedule = got[form] = gated_build(path)
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


def _b_subtiles(path, capsys) -> tuple:
    """(the sizes of the subtile buffers, B's copies per (stage, subtile)) of ``path``'s
    loop as the 4-wave schedule adopts it."""
    assert main(["--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})",
                 str(path)]) == 0
    adopted = capsys.readouterr().out
    sizes = re.findall(r"memref\.alloc\(\) : memref<(\d+)xf32, #gpu\.address_space<workgroup>>",
                       adopted)
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*channel = 1 : i64, id = \d+ : i64, "
                        r"k_offset = \"\w+\", stage = (\d) : i64, subtile = (\d)", adopted)
    return sorted(sizes, key=int), sorted(set(copies)), len(copies)


def test_the_padding_rows_are_left_out_of_the_front_ends_copies(forms, monkeypatch, capsys):
    """94x1826x2660's late form adopted (4 K steps merged, A and B split along K): B's LDS
    buffer, grown to padding rows for the copy spread an element a thread (8 x 16 a K step
    for a 4 x 16 tile), has them left out of the front end's own copies: each B subtile
    buffer (2 stages x 2 subtiles) holds the 128 elements its reads read, one copy a thread
    (before: 256 elements, the padding rows too, 2 copies a thread; A's stay 256).  With
    the check that the buffer's swizzle leaves the padding rows' bit alone refusing, the
    plan copies the padding rows as before."""
    from pipeline_mlir.frontend import layout
    from pipeline_mlir.frontend import unread_bits as U

    path = forms[PARTIAL, "late"]
    slots = [("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")]
    assert _b_subtiles(path, capsys) == (["128"] * 4 + ["256"] * 4, slots, 4)
    monkeypatch.setattr(layout, "check_unswizzled",
                        lambda bits, swizzle, label, op: U.check_unswizzled(bits, (64, 8),
                                                                            label, op))
    assert _b_subtiles(path, capsys) == (["256"] * 8, slots, 8)


def test_a_kept_mask_refused_only_without_the_padding_rows_falls_back(forms, monkeypatch,
                                                                     tmp_path, capsys):
    """94x1826x2660's late form with the proof of B's kept mask made to refuse where the
    padding rows are left out (``prove_kept`` given a ``skip``): that plan is proven as it
    is made, so the refusal falls back to the plan that copies the padding rows (4 K steps
    merged, B's subtile buffers of 256 elements, 2 copies a thread, as before they were left
    out), which pipelines and is exact; before, that proof ran once the plan was chosen and
    its refusal refused the merged loop, taken then another way (2 K steps merged, the
    diagonal form: B's subtile buffers of 128).  A mutant whose kept mask both plans'
    proofs refuse (B's columns cut at 15 of the tile's 16 in every workgroup, not at C's
    edge) is refused, saying why."""
    from pipeline_mlir.frontend import layout
    from pipeline_mlir.kernel import loop_model as LM

    path = forms[PARTIAL, "late"]
    real = layout.prove_kept

    def refused_unpadded(*args, **kw):
        if args[-1] is not None:        # (skip: the padding rows left out)
            raise LM.LoopRefusal("channel B: refused without its padding rows", ())
        return real(*args, **kw)

    monkeypatch.setattr(layout, "prove_kept", refused_unpadded)
    slots = [("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")]
    assert _b_subtiles(path, capsys) == (["256"] * 8, slots, 8)
    with share_code_objects():
        rc = main(["--pipeline=4wave", "--emulate", str(path), "--emulate-mode=late",
                   "--emulate-jobs=1", "--emulate-workgroups=2"])
    out, err = capsys.readouterr()
    assert rc == 0 and re.search(r"mode=late: exact, max error 0(?: in C \(\d+ elements\))?, "
                                 r"2 of \d+ workgroups", out), out + err
    monkeypatch.setattr(layout, "prove_kept", real)
    text = path.read_text()
    _, body = _thread_loop(text)        # (the run's columns left: min(cols, 16) - first)
    cols = re.search(r"arith\.minui (%\d+), %\d+ : i32", body)
    cut = cols and re.search(rf"{cols[1]} = arith\.minui %\d+, %c16_i32 : i32\n", text)
    assert cut, "IREE's late form changed"
    mutant = tmp_path / "cut15.mlir"
    mutant.write_text(text[:cut.start()] + "%wc15 = arith.constant 15 : i32\n" +
                      cut[0].replace("%c16_i32", "%wc15") + text[cut.end():])
    _refused(mutant, capsys, r".*channel B's copies keep a mask in their address; the front "
             r"end's own copies, each lane's run kept where it lies inside the buffer's "
             r"2660x1826 elements, would not read what they read: in workgroup \(0,\) at K "
             r"step 0, LDS element 15 gets zero from the kernel's copies", None)


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


PARTIAL = "atb-94x1826x2660"
#: the front end's wording of a refused partial copy, up to the reason
SPREAD = (r"'(?:scf\.for|scf\.if)' op at line \d+:\d+ runs the tile's copy '[\w.]+' op at "
          r"line \d+:\d+ in (\d+) of the workgroup's 128 threads \(thread 0: 1 time\(s\), "
          r"thread \d+: 0\): a copy made by part of the workgroup, which the front end spreads "
          r"over every thread only ")


def _thread_loop(text: str):
    """(the late form's per-thread loop of the partial copy, its body's text after it)."""
    loop = re.search(r"scf\.for (%arg\d+) = %6 to %c16_i32 step %c128_i32", text)
    assert loop, "IREE's late form changed"
    return loop, text[loop.end():]


def _mutants(late: str, prefetch: str) -> dict:
    """{name: (text, the reason said)}: each breaks one requirement of the spread."""
    loop, body = _thread_loop(late)
    head = late[:loop.end()]
    out = {}
    a = re.search(r"(%alloc) = memref\.alloc\(\) : (memref<4x18xf32, #gpu\.address_space<"
                  r"workgroup>>)\n", late)
    out["other-user"] = (late[:a.end()] + f"%wcol = memref.collapse_shape {a[1]} [[0, 1]] : "
                         f"{a[2]} into memref<72xf32, #gpu.address_space<workgroup>>\n" +
                         late[a.end():], "where its LDS buffer is a 'memref.alloc' of static "
                         "sizes, row-major, of 2 dimensions or more, used by memref.subview, ")
    four = "memref<4x18xf32, #gpu.address_space<workgroup>>"
    out["unfilled-rows"] = (late.replace(four, four.replace("4x18", "8x18")),
                            "where the copy fills every row of its LDS buffer "
                            "memref<8x18xf32, #gpu.address_space<workgroup>>, not 4 of them")
    col = re.search(r"(%\d+) = arith\.muli (%\d+), %c4_i32 overflow<nsw> : i32", body)[0]
    k = re.search(r"%\d+ = scf\.for %arg0 = ", late).start()
    out["unevaluable-index"] = (
        late[:k] + f"%wf = memref.load %alloc[%c0, %c0] : {four}\n%wu = arith.fptoui %wf : "
        f"f32 to i32\n" + late[k:loop.end()] +
        body.replace(col, col.replace(", %c4_i32 ", ", %wu "), 1),
        "where its addresses evaluate per thread ('arith.fptoui' op: the address analysis "
        "cannot evaluate it")
    d = re.search(loop[1].join([r"%\d+ = arith\.divui ", r", %c4_i32 : i32"]), body)[0]
    r = re.search(loop[1].join([r"%\d+ = arith\.remui ", r", %c4_i32 : i32"]), body)[0]
    out["thread-order"] = (head + body.replace(d, d.replace("divui", "remui"), 1).replace(
        r, r.replace("remui", "divui"), 1), "where its threads fill the rows of its LDS "
        "buffer in order, thread s's element p the (4 s + p)-th of the columns the copy fills")
    m = re.search(r"(%\d+) = vector\.create_mask %\d+ : vector<4xi1>", body)
    out["constant-mask"] = (head + body.replace(m[0], f"{m[1]} = vector.constant_mask [3] : "
                                                      f"vector<4xi1>", 1),
                            "where the run's mask is a 'vector.create_mask' or an "
                            "'arith.select' of an i1, such a mask and the all-false one")
    flat = "memref<4857160xf32, #amdgpu.address_space<fat_raw_buffer>>"
    ld = re.search(r"vector\.load (%\d+)\[(%\d+), (%\d+)\] : (memref<2660x1826xf32, "
                   r"#amdgpu\.address_space<fat_raw_buffer>>), vector<4xf32>", body)
    ml = re.search(r"vector\.maskedload %\d+\[%\d+, %\d+\], (%\d+), (%\w+) (\{[^}]*\} )?: "
                   r"memref<2660x1826xf32, #amdgpu\.address_space<fat_raw_buffer>>", body)
    at = re.search(r"%\d+ = scf\.if %false", body).start()
    collapsed = (body[:at] + f"%wl = affine.linearize_index [{ld[2]}, {ld[3]}] by (2660, "
                 f"1826) : index\n%wc = memref.collapse_shape {ld[1]} [[0, 1]] : {ld[4]} "
                 f"into {flat}\n" + body[at:])
    collapsed = collapsed.replace(ld[0], f"vector.load %wc[%wl] : {flat}, vector<4xf32>", 1)
    out["collapsed-source"] = (head + collapsed.replace(
        ml[0], f"vector.maskedload %wc[%wl], {ml[1]}, {ml[2]} {ml[3] or ''}: {flat}", 1),
        "where the buffer its run is read from is viewed through casts and unit-stride "
        "subviews of its rank alone")
    half = prefetch.replace("arith.cmpi slt, %thread_id_x, %c16 : index",
                            "arith.cmpi slt, %thread_id_x, %c64 : index")
    c16 = re.search(r"%c16 = arith\.constant 16 : index\n", half)
    out["half-the-threads"] = (half[:c16.end()] + "%c64 = arith.constant 64 : index\n" +
                               half[c16.end():], "where each lane's 4 elements split into the "
                               "2 pieces of 128 / 64 threads, or divide them")
    return out


@pytest.mark.parametrize("name", ["other-user", "unfilled-rows", "unevaluable-index",
                                  "thread-order", "constant-mask", "collapsed-source",
                                  "half-the-threads"])
def test_a_partial_copy_it_cannot_spread_an_element_a_thread_is_refused(forms, tmp_path,
                                                                       capsys, name):
    """Mutants of 94x1826x2660, each refused at the guarding op (the late form's
    per-thread loop, the prefetch point's ``scf.if``) with the requirement it breaks: the
    LDS buffer used by a view that its padding rows would change, a buffer of rows the
    copy does not fill (its padding rows would be those), a run's column computed from a
    value loaded from memory (no address per thread), the copying threads' runs not in
    LDS order, a mask of another form, the read's buffer collapsed to one
    dimension (no index per dimension of it), 64 copying threads (2 threads for a run of
    4 elements)."""
    text, why = _mutants(forms[PARTIAL, "late"].read_text(),
                         forms[PARTIAL, "prefetch"].read_text())[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    _refused(path, capsys, SPREAD + re.escape(why), None)


def _loop(text: str):
    """(the module of ``text``, its one K-loop)."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.frontend.scan import find_natural_loops

    module = ir.Module.parse(text)
    (loop,) = find_natural_loops(module.operation)
    return module, loop


def _spread(loop) -> int:
    """``loop``'s partial copies spread (the prefetch point's guards, the late form's
    per-thread loops)."""
    from pipeline_mlir.frontend.partial_copy import spread_guarded_copies
    from pipeline_mlir.frontend.thread_loops import spread_thread_loops

    return spread_guarded_copies(loop) + spread_thread_loops(loop)


def test_a_tile_copied_by_16_threads_is_copied_an_element_a_thread(forms, monkeypatch):
    """Both forms of 94x1826x2660: B's copy by threads 0 to 15 becomes one copy of one f32
    a thread into its LDS buffer grown to 8 rows and marked, the guard or loop gone; with
    the spread copy's LDS indices swapped (rows for columns), the per-lane proof refuses it
    and leaves the kernel as it was."""
    from pipeline_mlir.dialect.bindings import new_context
    from pipeline_mlir.dialect.ir_io import IRError, walk_ops
    from pipeline_mlir.frontend import partial_elements as PE
    from pipeline_mlir.frontend.marks import PADDING_ROWS_ATTR

    for form in ("prefetch", "late"):
        with new_context():
            module, loop = _loop(forms[PARTIAL, form].read_text())
            assert _spread(loop) == 1, form
            module.operation.verify()
            grown = walk_ops(module.operation, lambda o: o.name == "memref.alloc" and
                             PADDING_ROWS_ATTR in o.attributes)
            assert len(grown) == 1, form
            assert str(grown[0].results[0].type).startswith("memref<8x18xf32"), form
            stores = walk_ops(loop, lambda o: o.name == "vector.store" and
                              o.operands[1] == grown[0].results[0])
            assert len(stores) == 1 and str(stores[0].operands[0].type) == "vector<1xf32>"
            assert not walk_ops(loop, lambda o: o.name in ("scf.if", "scf.for") and
                                o.operation != loop.operation and
                                o.parent.operation == loop.operation and not len(o.results))
    real = PE._emit

    def swapped(*args):
        load, cond, store, made = real(*args)
        store.operands[2], store.operands[3] = store.operands[3], store.operands[2]
        return load, cond, store, made

    monkeypatch.setattr(PE, "_emit", swapped)
    with new_context():
        module, loop = _loop(forms[PARTIAL, "late"].read_text())
        before = str(module)
        with pytest.raises(IRError, match=re.escape(
                "where the spread copy, evaluated per lane, reads, tests and writes what "
                "the copy's element did (an internal error: it does not)")):
            _spread(loop)
        assert str(module) == before


def test_a_whole_run_select_is_spread_only_of_zero(forms, tmp_path, capsys):
    """17x164x4066's late form with its run's select padding 1.0, not zero: not a copy the
    spread takes (its elements would be the select's 1.0 where it is false), refused at the
    per-thread loop as before."""
    text = forms["atb-17x164x4066", "late"].read_text()
    loop, body = _thread_loop(text)
    sel = re.search(r"(%\d+) = arith\.select (%\d+), (%\d+), (%cst\w*) : vector<4xf32>", body)
    assert sel, "IREE's late form changed"
    mutant = tmp_path / "one.mlir"
    mutant.write_text(text[:loop.start()] + "%wone = arith.constant dense<1.0> : "
                      "vector<4xf32>\n" + text[loop.start():loop.end()] +
                      body.replace(sel[0], sel[0].replace(sel[4] + " :", "%wone :"), 1))
    _refused(mutant, capsys, SPREAD + re.escape(
        "when its region is one 'amdgpu.gather_to_lds' and side-effect free ops, or copies "
        "through registers and side-effect free ops"), None)
