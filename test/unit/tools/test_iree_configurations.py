"""IREE's other matmul configurations: each is pipelined correctly or refused with the reason.

Each configuration of ``iree_configs.CONFIGS`` (element type, ``A x B^T`` or ``A x B``,
problem size, IREE flags that change its tiles or its copies) is compiled with
``iree-compile``, taken at IREE's prefetch point and in its late form
(``test/data/iree/generate.py``, once per run), and given to ``pipeline-opt
--pipeline=4wave --emit=hsaco`` with no other option (an f16 or fp8 E5M2 configuration whose
kernels are its bf16 or fp8 E4M3FN twin's but for the type, ``TWINS``, in its late form
only; a form that is another configuration's but for the type and the numbers,
``SAME_LATE`` and ``SAME_PREFETCH``, not at all; nor the form whose code object a topic
module runs in random order, ``iree_configs.RANDOM_FORM``, which checks it pipelined, one
schedule with the other form, and exact on workgroups that show an offset or a swapped id;
a configuration or form of ``iree_configs.LONG``, whose path the configuration it names
takes, in the long tier only; and the form of ``iree_forms.ONE_BUILT``, whose two forms give
one schedule, in the long tier only: the default run pipelines it to its schedule alone,
compared with the built form's by the item that emulates that one):

* pipelined (the build lowered a kernel plan, not a loop left as written, which is exact
  too): the schedule it runs is hazard-free in the simulator (``sched-fix-hazards``
  simulates it on the way) and the code object computes C exactly on the emulator, memory
  completing as late as the counters allow, for two workgroups of its grid (IREE compiles
  the sizes in): the second of the first row and the last, tiles in different rows and
  columns of C (neither at the origin, so an offset or a swapped id shows);
* refused: exit 1 with the reason, located at an op of IREE's kernel, no traceback.

What each topic adds is in ``test_iree_config_layouts.py`` (transposing reads),
``test_iree_config_tiles.py`` (tiles, MFMA shapes, unaligned sizes),
``test_iree_config_vector_distribute.py`` and ``test_iree_config_ksplit.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iree_configs import (CONFIGS, FORMS, HOLDS, LONG, NO_LOOP, RANDOM_FORM, G,
                          assert_steady_or_short, assert_type_twin, forall_grid, forms_agree,
                          param)
from iree_forms import BOTH_BUILT, ONE_BUILT, RANDOM_ITEMS, unbuilt_form
from kernel_builds import shared_build
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.iree import Matmul, emulate_matmul
from pipeline_mlir.tools.pipeline_opt import main
from steady_loop import counting_loops


pytestmark = pytest.mark.usefixtures("shared_code_objects")


#: configurations whose grid is one workgroup (emulated whole): name -> 1
ONE_WORKGROUP = {"bf16_abt_16x16x160": 1, "fp8_abt_64x31x96": 1, "fp8_abt_31x64x96": 1,
                 "f16_atbt_24x5x400": 1, "f16_atbt_24x5x232": 1, "i8_abt_59x28x496": 1}


def _tile(size: int, tiles: int) -> int:
    """IREE's tile along a dimension of ``size`` covered by ``tiles``: the power of two that
    covers it in as many (128 for 4096 in 32 and for 300 in 3)."""
    return 1 << (-(-size // tiles) - 1).bit_length()


#: f16 (fp8 E5M2) configuration -> its bf16 (fp8 E4M3FN) twin: IREE's kernels of the two are
#: one text but for the element type, in both forms (checked by the f16 or E5M2 one's item,
#: :func:`_as_its_twin`), so that one is run in its late form only (the twin in both, here
#: or, for the form of ``RANDOM_FORM``, in random order): its prefetch point is pipelined
#: as its twin's is, and its late form's item runs the type's MFMAs exact
TWINS = {"f16_ab_2048x2048x1024": "bf16_ab_2048x2048x1024",
         "f16_atb_2048x2048x1024": "bf16_atb_2048x2048x1024",
         "f16_abt_512_mfma32": "bf16_abt_512_mfma32",
         "f16_abt_2048x2048x1024_vector_distribute": "bf16_abt_2048x2048x1024_vector_distribute",
         "fp8e5m2_abt_2048x2048x1024_vector_distribute":
             "fp8_abt_2048x2048x1024_vector_distribute"}
#: configuration -> one whose late form is its own but for the element type and the numbers
#: (sizes, strides, grid bounds: the same IR, the same passes' paths; checked by its
#: prefetch item, :func:`_same_but_numbers`), so it is run at the prefetch point only, as the
#: f16 ``TWINS`` are in the late form only: bf16 ``A x B^T`` 8192x256x1024 is f16
#: 128x4096x1024 (both 8 K steps of 128; 512^3 is the same text at 4), its tall grid (128 x
#: 2) kept at its prefetch point; f16 2048x2048x1024 is bf16 1024x4096x2048 (IREE's default
#: tile), f16 kept at its prefetch point (and in random order, test_iree_families.py); fp8
#: (E4M3FN) 4096^3 is fp8 E5M2 2048x2048x1024, E4M3FN's MFMAs run at its prefetch point
SAME_LATE = {"bf16_abt_8192x256x1024": "f16_abt_128x4096x1024",
             "f16_abt_2048x2048x1024": "bf16_abt_1024x4096x2048",
             "fp8_abt_4096": "fp8e5m2_abt_2048x2048x1024"}
#: ... and the other way round: configuration -> one whose prefetch point is its own but
#: for the element type and the numbers, run in its late form only: fp8 E5M2
#: 2048x2048x1024 is fp8 4096^3 (E5M2's MFMAs run in its late form; the pair's lowered code,
#: ``--emit=mlir``, was the same too but for the numbers and the type, and its schedule the
#: same, in both forms, measured once).  (bf16 K = 1028's prefetch point is K = 1023's text
#: but for the numbers, not its path: ``merge_k=auto`` leaves 1023's K steps unmerged up
#: front, and merges 1028's, builds them, finds one wave per SIMD and builds them again
#: unmerged (``--emit=report``'s ``K steps`` line); run here)
SAME_PREFETCH = {"fp8e5m2_abt_2048x2048x1024": "fp8_abt_4096"}


def _same_but_numbers(generated, name: str, form: str, other: str) -> None:
    """The ``form`` of ``name`` is configuration ``other``'s (:data:`SAME_LATE`,
    :data:`SAME_PREFETCH`) with every number and the element type set aside."""
    def shape(config: str) -> str:
        text = re.sub(r"E4M3FN|E5M2", "F8", generated(config, form).read_text())
        return re.sub(r"\d+", "N", text.replace("bf16", "T").replace("f16", "T"))
    assert shape(name) == shape(other), f"{name}'s {form} form is not {other}'s but for " \
        f"its numbers: run it again"


def _as_its_twin(generated, name: str) -> None:
    """Both forms of configuration ``name`` are its twin's (:data:`TWINS`) with the type
    renamed (``iree_configs.assert_type_twin``)."""
    assert_type_twin(generated, name, TWINS[name], CONFIGS[name][0]["dtype"],
                     "run its prefetch point again")


def _run_here(name: str, form: str) -> bool:
    """Whether ``test_configuration`` runs ``form`` of ``name``: not a form another item
    stands for (:data:`TWINS`, :data:`SAME_LATE`, :data:`SAME_PREFETCH`), nor one a topic
    module runs in random order (``iree_configs.RANDOM_FORM``)."""
    return not ((name in TWINS or name in SAME_PREFETCH) and form == "prefetch" or
                name in SAME_LATE and form == "late" or RANDOM_FORM.get(name) == form)


def _built_by_default(name: str, form: str) -> bool:
    """Whether the default run builds ``form`` of ``name`` and emulates it: here or in
    random order (``RANDOM_FORM``), neither in the long tier (``iree_configs.LONG``, the
    form ``iree_forms.ONE_BUILT`` only pipelines)."""
    return name not in LONG and (name, form) not in LONG and \
        unbuilt_form(name) != form and \
        (_run_here(name, form) or RANDOM_FORM.get(name) == form)


def _compared_by_default(name: str, form: str) -> bool:
    """Whether ``form`` of ``name`` is the one ``ONE_BUILT`` only pipelines in the default
    run, the other built and emulated by an item that compares the two forms' schedules:
    ``test_configuration`` of the other form, or the topic item that runs the other in
    random order (``iree_forms.RANDOM_ITEMS``: a test function of that module that names
    the configuration)."""
    other = "late" if form == "prefetch" else "prefetch"
    if unbuilt_form(name) != form or name in BOTH_BUILT or \
            CONFIGS[name][2] is not None or not _built_by_default(name, other):
        return False
    if RANDOM_FORM.get(name) != other:
        return name not in RANDOM_FORM and _run_here(name, other)
    module, function = RANDOM_ITEMS[name].split("::")
    text = (Path(__file__).parent / module).read_text()
    return f"def {function}(" in text and f'"{name}"' in text


def _pipelined_by_default(name: str, form: str) -> bool:
    """Built and emulated, or compared (:func:`_compared_by_default`), in the default run."""
    return _built_by_default(name, form) or _compared_by_default(name, form)


@pytest.mark.parametrize("name,form", [param(n, f, form=f) for n in CONFIGS
                                       for f in ("prefetch", "late") if _run_here(n, f)])
def test_configuration(generated, name, form, tmp_path, capsys):
    cfg, _flags, reason = CONFIGS[name]
    if name in TWINS:
        _as_its_twin(generated, name)
    if name in SAME_LATE:
        _same_but_numbers(generated, name, "late", SAME_LATE[name])
    if name in SAME_PREFETCH:
        _same_but_numbers(generated, name, "prefetch", SAME_PREFETCH[name])
    src = generated(name, form)
    out = tmp_path / "k.hsaco"
    rc = main(["--pipeline=4wave", str(src), "--emit=hsaco", "-o", str(out)])
    err = capsys.readouterr().err
    if isinstance(reason, tuple):           # (at the prefetch point, in the late form)
        reason = reason[0] if form == "prefetch" else reason[1]
    if reason is not None:
        assert rc == 1 and reason in err and "Traceback" not in err, err
        assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err), err  # at an op
        return
    assert rc == 0, err
    # pipelined, as the docs table says: a kernel plan lowered, one per pipelined loop (the
    # result of the build main just made, from the run's store: no build again)
    plans = shared_build("4wave", (), input=str(src)).plans
    assert plans, f"{name} ({form}): not pipelined"
    if name in ONE_BUILT and name not in RANDOM_FORM:  # the other form: its schedule alone
        forms_agree(generated, name, built=form)
    if name in FORMS:       # the form the docs table says (--emit=report prints it)
        assert [str(p.form) for p in plans] == [FORMS[name]], plans
    if name in HOLDS:       # (the instructions that are its point)
        names = {i.name for i in load_kernel(out.read_bytes()).instrs}
        assert HOLDS[name] <= names, sorted(names)
    grid = forall_grid(generated(name, "prefetch").read_text())
    if cfg.get("transpose_a") or grid is None:  # A K x M, or no forall: as the dispatch says
        # one process (the test run's workers are the parallelism; the spread over
        # processes gives the same result: test_emulate_jobs.py)
        with counting_loops() as loops:
            rc = main(["--pipeline=4wave", "--emulate", str(src),
                       f"--emulate-workgroups={ONE_WORKGROUP.get(name, 2)}",
                       "--emulate-mode=late", "--emulate-jobs=1"])
        out, err = capsys.readouterr()
        assert rc == 0 and ": exact, max error 0" in out, out + err
        assert "C = A.T @ B" in out or not cfg.get("transpose_a"), out
        assert_steady_or_short(loops, name, generated)
        return
    full = dict(dtype="bf16", m=4096, n=4096, k=4096, transpose_b=True) | cfg
    rows, cols = grid
    tile = (_tile(full["m"], rows), _tile(full["n"], cols))
    kernel = load_kernel(out.read_bytes())
    # the second tile of the first row and the last tile (at the edges of C): different rows
    # and columns, no coordinate 0 in the last, x and y telling apart on a square grid
    at = list(dict.fromkeys([(1, 0) if cols > 1 else (0, min(1, rows - 1)),
                             (cols - 1, rows - 1)]))
    if kernel.launch.workgroup_id[1]:          # IREE's 2-D grid: ids (x = column, y = row)
        workgroups = at
    else:                                       # linearised
        workgroups = [y * cols + x for x, y in at]
    with counting_loops() as loops:
        run = emulate_matmul(kernel, Matmul(full["m"], full["n"], full["k"], full["dtype"],
                                            full["transpose_b"]),
                             (cols, rows) if kernel.launch.workgroup_id[1] else (rows * cols,),
                             mode="late", workgroups=workgroups)
    assert_steady_or_short(loops, name, generated)
    # each workgroup writes its tile, cut at the edges of C
    cut = sum(min(tile[0], full["m"] - y * tile[0]) * min(tile[1], full["n"] - x * tile[1])
              for x, y in at)
    assert run.exact and run.expected == cut, \
        run.summary() + f", first wrong element {run.first_bad}"


def test_each_form_left_out_stands_for_or_by_one_run():
    """Each form of a configuration of the default run that it does not build and emulate
    in ``test_configuration`` is run there as another: a form of
    ``iree_configs.RANDOM_FORM`` (run in random order) whose other form is run here, a
    twin's form (:data:`TWINS`, :data:`SAME_LATE`, :data:`SAME_PREFETCH`) whose
    counterpart's same form is run, the form of ``iree_forms.ONE_BUILT`` only pipelined,
    its schedule compared by the item that builds and emulates the other, or a form of the
    long tier (``iree_configs.LONG``) whose stand-in's same form is pipelined; each
    configuration of the long tier has a stand-in the default run pipelines in both forms
    (or in the form the entry names), itself not in the long tier; and each pipelined
    configuration the default run builds from both forms is one of ``iree_forms.BOTH_BUILT``
    (whose late form's own path is the point), none of ``ONE_BUILT``."""
    for name in ONE_BUILT:
        assert name in CONFIGS and CONFIGS[name][2] is None and name not in LONG, name
    assert set(RANDOM_ITEMS) == set(RANDOM_FORM)
    for name in CONFIGS:
        built = [f for f in ("prefetch", "late") if _built_by_default(name, f)]
        if CONFIGS[name][2] is None and len(built) == 2:
            assert name in BOTH_BUILT, f"{name}: both forms built, in neither table"
        assert name not in BOTH_BUILT or len(built) == 2, f"{name}: BOTH_BUILT, not built so"
        for form in ("prefetch", "late"):
            other = "late" if form == "prefetch" else "prefetch"
            if name in LONG or (name, form) in LONG or _built_by_default(name, form):
                continue            # (the long tier's stand-ins checked below)
            if name in ONE_BUILT:
                assert _compared_by_default(name, form), (name, form, ONE_BUILT[name])
            elif RANDOM_FORM.get(name) == form:
                assert _built_by_default(name, other), (name, form)
            else:
                twin = TWINS.get(name) or (SAME_LATE if form == "late" else SAME_PREFETCH)[name]
                assert _built_by_default(twin, form), (name, form)
    for key, (stands, _why) in LONG.items():
        name, forms = (key, ("prefetch", "late")) if isinstance(key, str) else (key[0], key[1:])
        assert name in CONFIGS, key
        for stand in (stands,) if isinstance(stands, str) else stands:
            for form in forms:
                assert stand in CONFIGS and _pipelined_by_default(stand, form), \
                    (key, stand, form)


#: iree-compile's C-matrix threshold (a matmul whose C has fewer elements is not given
#: IREE's matmul pipeline): at 1024, far below any C here, IREE keeps TileAndFuse
C_THRESHOLD = ("--iree-codegen-llvmgpu-matmul-c-matrix-threshold=1024",)


def test_a_c_matrix_threshold_below_c_leaves_the_kernel_as_it_is(generated):
    """bf16 ``A x B^T`` 1024x4096x2048 built with :data:`C_THRESHOLD`: both forms are IREE's
    kernel without the flag, byte for byte, which ``test_configuration`` pipelines and
    emulates (``bf16_abt_1024x4096x2048``).  (Before, a configuration of its own built and
    emulated that kernel, at 2048x2048x1024, again; the forms equal, so did its results.)"""
    forms = G.forms(G.matmul_source(dtype="bf16", m=1024, n=4096, k=2048), C_THRESHOLD)
    for form in ("prefetch", "late"):
        assert forms[form] == generated("bf16_abt_1024x4096x2048", form).read_text(), form


def test_a_k_loop_of_step_zero_is_refused_at_the_loop(generated, tmp_path, capsys):
    """IREE's bf16 ``A^T x B`` 300x200x160 (late form), its K-loop's step made 0: refused at
    the loop with one located message.  Its ``K x M`` A's last run is cut at M = 300
    (``frontend/cut_runs.py``), whose check of the loop's last iteration divided by the
    step first (an internal error; found by the mutation campaign's ``loop step bound``)."""
    text = generated("bf16_atb_300x200x160", "late").read_text()
    loop = re.search(r"scf\.for %arg0 = %c0_i32 to %c5_i32 step (%c1_i32) iter_args", text)
    assert loop and "%c0_i32 = arith.constant 0 : i32" in text
    src = tmp_path / "step0.mlir"
    src.write_text(text[:loop.start(1)] + "%c0_i32" + text[loop.end(1):])
    rc = main(["--pipeline=4wave", str(src), "--emit=hsaco", "-o", str(tmp_path / "k.hsaco")])
    err = capsys.readouterr().err
    line = 1 + text[:loop.start()].count("\n")
    assert rc == 1 and f"step0.mlir:{line}:" in err and "'scf.for' op has step 0" in err \
        and "internal error" not in err, err


def test_a_store_past_the_edge_of_another_constant_is_refused(generated, tmp_path, capsys):
    """IREE's i8 ``A x B^T`` 33x257x512 (late form) stores zero to A's LDS rows 48 to 63,
    wholly past M (the copy it folded away, made a kept copy again: frontend/pad_stores.py);
    the store of another constant there is no padding a read past the end gives: refused
    at the store."""
    text = generated("i8_abt_33x257x512", "late").read_text()
    store = re.search(r"^( *)vector\.store %cst, (%alloc\w*\[[^\]]*\]) : (.*)$", text, re.M)
    assert store, text[:2000]
    sp, at, types = store.groups()
    src = tmp_path / "one.mlir"
    src.write_text(text[:store.start()] + f"{sp}%one = arith.constant dense<1> : vector<16xi8>\n"
                   f"{sp}vector.store %one, {at} : {types}" + text[store.end():])
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json"])
    err = capsys.readouterr().err
    line = 2 + text[:store.start()].count("\n")
    assert rc == 1 and f"one.mlir:{line}:" in err and "'vector.store' op has side effects " \
        "the pipeliner cannot move (writes workgroup)" in err, err


def test_a_chain_of_two_is_halved_and_one_with_no_halves_taken_diagonally(tmp_path, capsys):
    """IREE's f16 ``A^T x B^T`` 300x200x192 (late form) runs 2 K steps of two 16x16x32 MFMAs
    once the odd one is peeled: too few to merge, so each MFMA is halved along K (a chain of
    4, cut crosswise), the pair pipelined. The second MFMA's B operand negated has no half
    the front end can read: the chain of 2 is taken unhalved in the diagonal form, the MMA
    (0, 0) the first MFMA's K half and (1, 1) the second's with its negation
    (``frontend/natural.py``'s ``_diagonal_merged``; exact against its own unpipelined
    build on the emulator, both forms: the mutation campaign's family ``diag192``).
    Before, it was refused with every reason, the halves' last."""
    text = G.late_form(G.matmul_source(dtype="f16", m=300, n=200, k=192, transpose_a=True))
    src = tmp_path / "late.mlir"
    src.write_text(text)
    rc = main([str(src), "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"])
    out, err = capsys.readouterr()
    assert rc == 0 and 'mfma = "16x16x16"' in out and 'sched.subtiles = "A, B along K, ' \
        'crosswise; each of the kernel\'s MFMAs halved along K"' in out, err
    # (the remainder loop, the third K step, keeps IREE's MFMAs)
    assert "amdgpu.mfma 16x16x32" in out.split("sched.remainder")[0].rsplit("scf.for", 1)[1]
    mfmas = list(re.finditer(r"^( *)%\w+ = amdgpu\.mfma 16x16x32 %\w+ \* (%\w+) \+ %\w+ : "
                             r"vector<8xf16>", text, re.M))
    assert len(mfmas) == 2, "IREE's kernel changed shape"
    m = mfmas[1]
    src = tmp_path / "neg.mlir"
    src.write_text(text[:m.start()] + f"{m.group(1)}%neg = arith.negf {m.group(2)} : "
                   f"vector<8xf16>\n" + text[m.start():m.start(2)] + "%neg" +
                   text[m.end(2):])
    rc = main([str(src), "--pass-pipeline=builtin.module(sched-adopt-loop{schedule=4wave})"])
    out, err = capsys.readouterr()
    assert rc == 0 and 'mfma = "16x16x16"' not in out and 'sched.subtiles = "A, B along K, ' \
        'diagonal (both the same K halves, MFMAs in the MMAs (0, 0) and (1, 1) only)"' in out, err
    assert "arith.negf" in out.split("sched.remainder")[0], "the negation dropped"


def test_sub_dword_masked_reads_of_a_range_checked_buffer_unmasked(tmp_path, capsys):
    """IREE's f16 ``A^T x B^T`` 300x200x192 (late form) reads A's rows of 300 f16 at M's edge
    with masked ``vector<8xf16>`` loads (in the branch of its guard that the distance to
    the buffer's end takes): ``sched-unmask-loads`` proves each starts a whole number of
    dwords into the buffer (rows of 600 bytes, a column a multiple of 4 through IREE's
    ``minui``/``muli``/``addi``) and the buffer 115200 bytes, and makes both a load and a
    select (they were 16 ``buffer_load_ushort`` in 16 branches).  The same kernel over
    rows of 301 (602 bytes: a row may start mid-dword) keeps both masked."""
    text = G.late_form(G.matmul_source(dtype="f16", m=300, n=200, k=192, transpose_a=True))
    for rows, kept in (("192x300xf16", 0), ("192x301xf16", 2)):
        src = tmp_path / f"{rows}.mlir"
        src.write_text(text.replace("192x300xf16", rows))
        rc = main([str(src), "--pass-pipeline=builtin.module(sched-unmask-loads)"])
        out, err = capsys.readouterr()
        assert rc == 0 and out.count("vector.maskedload") == kept, (rows, err)
        assert out.count("arith.select") - text.count("arith.select") == 2 - kept, rows


@pytest.mark.parametrize("name", [n for n, (_c, _f, why) in CONFIGS.items() if why == NO_LOOP])
def test_no_k_loop_refused_by_every_emit(generated, name, capsys):
    """A kernel whose K is one K tile, its loop removed by IREE: ``--emulate`` and
    ``--emit=report`` refuse it as ``--emit=hsaco`` does (``test_configuration``), at its
    MFMA, exit 1.  (``--emulate`` read the dispatch first: with no loop whose copies tell
    that A is K x M, it blamed ``A^T x B^T``'s bindings, ``not A (M x K), B ...``.)"""
    for form in ("prefetch", "late"):
        src = generated(name, form)
        for emit in ("--emulate", "--emit=report"):
            rc = main(["--pipeline=4wave", str(src), emit])
            err = capsys.readouterr().err
            assert rc == 1 and NO_LOOP in err and "bindings" not in err, (emit, err)
            assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: sched-adopt-loop: "
                            rf"'amdgpu.mfma' op ", err), (emit, err)
