"""Interior workgroups pipelined, edge workgroups running the loop as written
(``pipeline_mlir/frontend/edge_version.py``).

IREE's bf16 ``A^T x B^T`` with M known only at launch and its ``padding`` (K = 256, the
committed ``test/lit/passes/Inputs/iree-bf16-atbt-padded-m.{prefetch,late}.mlir``): A's runs
are masked by the M left along A's contiguous dimension.  The K-loop is versioned on the
workgroup's tile lying inside M; at M = 129 the two emulated workgroups (the first and the
last) run both versions: the first lies inside M, the last is the edge (one column of A
left).  The late form's versioned loop (the prefetch point's options) and the refusals (a
mask not full inside M, a mask of a value the proof does not follow) are in
``test/lit/passes/sched-adopt-loop-kxm-edge.mlir``; the late form's exactness was run by
hand (docs/iree-dynamic-sizes.md), to keep this file's cost near its budget.
"""

from __future__ import annotations

import re
import sys

import pytest
from pathlib import Path

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.frontend import edge_version as EV
from pipeline_mlir.tools.pipeline_opt import main
from build_cache import share_code_objects
from kernel_builds import built_schedule
from steady_loop import counting_loops

INPUTS = Path(__file__).resolve().parents[2] / "lit" / "passes" / "Inputs"
#: the schedule options both forms' pipelined loops get
OPTIONS = ('sched.options = {BK = 32 : i64, BM = 128 : i64, BN = 128 : i64, dtype = "bf16", '
           'lgkm_per_load_a = 4 : i64}')


def _emulate(capsys, form: str, m: int, mode: str) -> tuple[int, str, str]:
    """(exit status, output, the IR after sched-adopt-loop) of ``form`` built and launched
    at M = ``m``, two workgroups (the first and the last), in ``mode``."""
    rc = main(["--pipeline=4wave", str(INPUTS / f"iree-bf16-atbt-padded-m.{form}.mlir"),
               f"--emulate={m},4096,256", "--emulate-workgroups=2", f"--emulate-mode={mode}",
               "--mlir-print-ir-after=sched-adopt-loop"])
    out, err = capsys.readouterr()
    return rc, out + err, err


def test_the_prefetch_point_is_versioned_and_exact(capsys):
    """The interior test ``128 (g + 1) <= M`` from the ``scf.forall``'s tile and M, the
    pipelined loop (A's copies staged through registers) under the guard, IREE's loop with
    its masked reads as the remainder; exact at M = 129 in late mode.  Refused before the
    versioning, at A's masked read (a run may be cut inside)."""
    rc, out, ir = _emulate(capsys, "prefetch", 129, "late")
    assert rc == 0 and "mode=late: exact, max error 0 in C (16512 elements), 2 of 64 " \
                       "workgroups" in out, out[-2000:]
    assert re.search(r"%(\w+) = arith.addi %arg0, %c1\w* : index\n\s*%(\w+) = arith.muli "
                     r"%\1, %c128\w* : index\n\s*%(\w+) = arith.cmpi sle, %\2, %\w+ : index\n"
                     r"\s*%\w+ = arith.select %\3, %c8\w*, %c0 : index", ir), ir[-3000:]
    # (merge_k=auto's note between: the trip count is known only at launch)
    loops = re.split(r"\{sched.edge_versioned, (?:sched.merge_k = \"[^\"]*\", )?"
                     + re.escape(OPTIONS), ir)
    assert len(loops) == 2 and "sched.register_staged} : vector<8xbf16>, memref<256x?xbf16" \
        in loops[0] and "sched.remainder}" in loops[1]
    remainder = loops[1].split("sched.remainder}")[0]
    assert re.search(r"vector.transfer_read %\w+\[%c0, %c0\], %\w+, %\w+ \{in_bounds",
                     remainder), remainder[-3000:]


def test_an_interior_condition_off_by_one_is_wrong(capsys, monkeypatch):
    """The check sees the edge workgroup's path: with the interior condition made one
    row too wide (``T (g + 1) <= M + 1``), the workgroup at M = 255 (127 rows of its tile
    inside M) runs the pipelined loop with A's masks dropped, reads the columns past M
    (the next row of A) and its tile of C comes out wrong."""
    right = EV.interior

    def wide(used):
        return right([(g, B.arith.addi(launch, B.arith.constant(launch.type, 1)), T)
                      for g, launch, T in used])

    monkeypatch.setattr(EV, "interior", wide)
    rc, out, _ = _emulate(capsys, "prefetch", 255, "late")
    assert rc != 0 and "mode=late: WRONG" in out and "C differs from its check" in out, \
        out[-2000:]


def test_a_mask_is_full_by_its_own_shape_not_the_vectors():
    """A transposing read's mask has the shape of the memory's dimensions (``vector<8x4xi1>``
    for a ``vector<4x8xbf16>`` read through ``(d0, d1) -> (d1, d0)``): sizes ``4, 8``, the
    vector's dimensions, leave half its rows masked off and are not full."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import IRError, walk_ops

    text = (
        "func.func @f(%g: index, %m: index, %a: memref<?x?xbf16>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c4 = arith.constant 4 : index\n  %c8 = arith.constant 8 : index\n"
        "  %p = arith.constant 0.0 : bf16\n"
        "  scf.for %k = %c0 to %c4 step %c1 {\n"
        "    %s = affine.min affine_map<(d0)[s0] -> (4, s0 - d0 * 128)>(%g)[%m]\n"
        "    %mask = vector.create_mask %s, %c8 : vector<8x4xi1>\n"
        "    %r = vector.transfer_read %a[%k, %c0], %p, %mask {in_bounds = [true, true], "
        "permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xbf16>, "
        "vector<4x8xbf16>\n"
        "  }\n  return\n}\n")
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        f = next(iter(walk_ops(module.operation, lambda o: o.name == "func.func")))
        g, m, _ = f.regions[0].blocks[0].arguments
        (read,) = walk_ops(module.operation, lambda o: o.name == "vector.transfer_read")
        (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for")
        iv = loop.regions[0].blocks[0].arguments[0]
        with pytest.raises(IRError, match="masked to 4 of 8 elements"):
            EV._check_masks([read], [(g, m, 128)], 1, iv, 0, 4, 1)


def test_a_min_over_the_size_is_replaced_only_by_the_operand_it_always_is():
    """``min(M - 128 g, 128)`` is 128 in every workgroup inside M (``M >= 128 (g + 1)``):
    its second operand chosen; ``min(M - 128 g, 200)`` is ``M - 128 g`` there below 200 rows
    left and 200 above: neither chosen, the ``min`` kept."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops

    text = ("func.func @f(%g: index, %m: index) -> (index, index) {\n"
            "  %a = affine.min affine_map<(d0)[s0] -> (d0 * -128 + s0, 128)>(%g)[%m]\n"
            "  %b = affine.min affine_map<(d0)[s0] -> (d0 * -128 + s0, 200)>(%g)[%m]\n"
            "  return %a, %b : index, index\n}\n")
    with new_context() as ctx:
        module = ir.Module.parse(text, ctx)
        f = next(iter(walk_ops(module.operation, lambda o: o.name == "func.func")))
        g, m = f.regions[0].blocks[0].arguments
        a, b = walk_ops(module.operation, lambda o: o.name == "affine.min")
        cands = {o: EV._candidates(o) for o in (a, b)}
        assert EV._choose(a, cands, [(g, m, 128)], 4) == {a: 1}


def _late_kxn(mutate=lambda t: t):
    """The K-loop of IREE's late bf16 ``A x B`` with M and N at launch (the committed
    ``iree-bf16-ab-padded-mn.late.mlir``; exact in test_dynamic_shapes.py,
    ``padded-kxn-late``), parsed after ``mutate`` of its text: (context, module, loop)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import walk_ops

    ctx = new_context()
    ctx.__enter__()
    module = ir.Module.parse(mutate((INPUTS / "iree-bf16-ab-padded-mn.late.mlir").read_text()),
                             ctx)
    (loop,) = walk_ops(module.operation, lambda o: o.name == "scf.for" and
                       len(o.results) == 16)
    return ctx, module, loop


#: IREE's column tile of the workgroup loop's variable, its remainder by ceildiv(N, 128),
#: and its correction for a negative remainder
COL = "%178 = arith.remsi %arg0, %175 : index"
FIX = "%181 = arith.select %179, %180, %178 : index"


@pytest.mark.parametrize("mutate,along_n,fixed", [
    (lambda t: t, True, True),
    # the remainder by the M tiles' count: a tile along M, not N (B's masks move with N)
    (lambda t: t.replace(COL, COL.replace("%175", "%167")), False, True),
    # the correction's operands swapped: g + X where g >= 0, no longer the tile
    (lambda t: t.replace(FIX, "%181 = arith.select %179, %178, %180 : index"), True, False),
], ids=["iree", "divisor of M", "correction swapped"])
def test_the_late_column_tile_is_proven_a_tile_along_n(mutate, along_n, fixed):
    """The late form's column tile ``v remsi ceildiv(N, 128)`` is a tile along N, proven
    for every size (``row_proof_late.late_tiles``), which the loop is versioned on; IREE's
    ``select(g < 0, g + X, g)`` stands for it (``tile_values``: the copies' indices move
    with the workgroup, not with N) only as that form.  Before, the late form's tiles were
    ``v divui <constant>`` only, and this kernel was refused at B's masked load."""
    from pipeline_mlir.dialect.ir_io import as_operation
    from pipeline_mlir.frontend.row_proof_late import tile_values

    ctx, module, loop = _late_kxn(mutate)
    try:
        found = {(as_operation(g.owner).name, launch.result_number, T)
                 for g, launch, T in EV.launch_tiles(loop)}
        assert ("arith.floordivsi", 0, 128) in found                 # A's row, along M
        assert (("arith.remsi", 1, 128) in found) == along_n, found
        fixes = {str(as_operation(v.owner)).strip() for v in tile_values(loop)}
        assert any(f.startswith("%181 = arith.select") for f in fixes) == fixed, fixes
    finally:
        ctx.__exit__(None, None, None)


def _tile_permuted(text: str) -> str:
    """IREE's late ``A x B`` with M and N at launch, B's copy columns (and the LDS columns
    they are stored at) swapped by halves in the workgroups whose column tile is 3: still
    ``A x B`` (each LDS column gets the global column it got), but thread 0 reads column 64
    of its tile there, 0 in every sampled workgroup (tiles 0, 1, 2 and 30 at N = 4096); the
    masks, left as IREE wrote them, are full inside N in both."""
    anchor = "            %182 = arith.muli %181, %c128 overflow<nsw> : index\n"
    swap = "            %m3 = arith.cmpi eq, %181, %c3 : index\n"
    for v in ("87", "89"):
        swap += (f"            %lo{v} = arith.cmpi ult, %{v}, %c64_i32 : i32\n"
                 f"            %p{v} = arith.addi %{v}, %c64_i32 : i32\n"
                 f"            %q{v} = arith.subi %{v}, %c64_i32 : i32\n"
                 f"            %s{v} = arith.select %lo{v}, %p{v}, %q{v} : i32\n"
                 f"            %c{v} = arith.select %m3, %s{v}, %{v} : i32\n"
                 f"            %i{v} = arith.index_castui %c{v} : i32 to index\n")
    edits = [(anchor, anchor + swap),
             ("%224 = arith.addi %182, %212 : index", "%224 = arith.addi %182, %i87 : index"),
             ("%227 = arith.addi %182, %217 : index", "%227 = arith.addi %182, %i89 : index"),
             ("vector.store %297, %alloc[%36, %88]", "vector.store %297, %alloc[%36, %i87]"),
             ("vector.store %300, %alloc[%39, %90]", "vector.store %300, %alloc[%39, %i89]")]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_a_copy_index_mixing_the_tile_with_the_thread_is_refused(tmp_path, capsys):
    """The front end's copies of B (row stride N) read thread 0's index plus the offsets
    of the sampled workgroup, which holds at every tile only where the index is the tile
    times a constant plus the rest.  The mutant above was pipelined before and its tile 3
    of C came out wrong (M x N = 129 x 656: C[0][384] = 42, expected -59); now the index's
    ``select`` on the tile is refused, naming it: the tile ``v mod ceildiv(N, 128)`` moves
    with N, a value known only at launch, so the check of the copies of a buffer whose row
    stride is known only at launch (``launch_stride.py``, a check of the partition's
    structure, met before the every-workgroup proof's launch check, which names it too)
    names it."""
    src = tmp_path / "k.mlir"
    src.write_text(_tile_permuted((INPUTS / "iree-bf16-ab-padded-mn.late.mlir").read_text()))
    rc = main(["--pipeline=4wave", str(src), "-o", str(tmp_path / "out.mlir")])
    err = capsys.readouterr().err
    line = 1 + src.read_text()[:src.read_text().index("%c87 = arith.select")].count("\n")
    assert rc == 1 and "channel B's copies read a buffer whose row stride is known only at " \
        "launch (memref<256x?xbf16, #gpu.address_space<global>>) at an index that combines " \
        "the workgroup's coordinate with the thread or the K-loop otherwise than as an " \
        f"offset ('arith.select' op at line {line}:" in err, err


@pytest.mark.parametrize("by", ["%181", "%arg0"], ids=["column tile", "workgroup loop"])
def test_the_first_op_mixing_the_workgroup_with_the_thread_is_named(by):
    """``workgroup_offset.workgroup_mixed`` on B's column index in the mutant above, its
    swap chosen by the column tile or by the workgroup loop's variable itself (a value the
    launch-value check never looked at): the ``select`` that picks the swapped column;
    in IREE's own kernel (before versioning) the ``min`` of the column and the N left."""
    from pipeline_mlir.dialect.ir_io import as_operation
    from pipeline_mlir.frontend import workgroup_offset as LS
    from pipeline_mlir.frontend.row_proof_late import workgroup_loop_of

    from pipeline_mlir.frontend.kernel_ir import describe

    text = (INPUTS / "iree-bf16-ab-padded-mn.late.mlir").read_text()
    for mutate, want in [(lambda t: _tile_permuted(t).replace("eq, %181, %c3", f"eq, {by}, %c3"),
                          "%c87 = arith.select %m3"), (lambda t: t, "%212 = arith.minsi")]:
        line = next(i for i, x in enumerate(mutate(text).splitlines(), 1) if want in x)
        ctx, module, loop = _late_kxn(mutate)
        try:
            load = [o for o in loop.regions[0].blocks[0].operations
                    if o.name == "vector.maskedload"][0]             # B's first copy
            var = workgroup_loop_of(loop).regions[0].blocks[0].arguments[0]
            mixed = LS.workgroup_mixed(load.operands[2], [var], {})
            name = want.split()[2]
            assert describe(as_operation(mixed)).startswith(f"'{name}' op at line {line}:"), \
                describe(as_operation(mixed))
        finally:
            ctx.__exit__(None, None, None)


def test_both_forms_of_the_ab_with_m_and_n_at_launch_get_one_schedule(capsys):
    """IREE's bf16 ``A x B`` with M and N at launch (``iree-bf16-ab-padded-mn.*``): the
    prefetch point (versioned on the ``scf.forall``'s tiles) and the late form (on the
    grid-stride loop's proven tiles, A's guarded rows read from a range-checked buffer)
    get the same schedule, byte for byte (checked by hand before).  The prefetch input
    was committed with no test reading it."""
    rc = main(["--pipeline=4wave", str(INPUTS / "iree-bf16-ab-padded-mn.prefetch.mlir"),
               "--emit=schedule-json"])
    text, err = capsys.readouterr()
    assert rc == 0, err[-2000:]
    # (the late form's from the run's build of its code object: test_dynamic_shapes.py's
    # ``padded-kxn-late`` builds it anyway)
    out = [text, built_schedule("4wave", (INPUTS / "iree-bf16-ab-padded-mn.late.mlir")
                                .read_text())]
    import json

    # (the kernel's reads of A give 2 LDS reads per load where 4wave alone gives 4: the
    # front end's options, not the named pipeline's defaults)
    assert json.loads(out[0])["lgkm_per_load"] == [2, 4] and out[0] == out[1]


def _padded_atb_k200(form: str, tmp_path) -> Path:
    """IREE's padded bf16 ``A^T x B`` with M and N at launch and K = 200 in ``form`` (the
    run's build cache holds IREE's forms once), written to ``tmp_path``."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data" / "iree"))
    import dynamic as D
    import generate as G

    fn = G.prefetch_point if form == "prefetch" else G.late_form
    path = tmp_path / f"padatb-k200.{form}.mlir"
    path.write_text(fn(D.padded_source(True, 200, transpose_a=True, transpose_b=False)))
    return path


@pytest.mark.parametrize("k,iterations", [
    pytest.param(256, [3, 0], marks=pytest.mark.long(
        "k200 takes its path (the late form versioned on both tiles, the interior loop "
        "pipelined, the edge one as written, the prefetch point's schedule) with each K x M "
        "run masked by its K row too; the committed input's versioned loop: "
        "sched-adopt-loop-kxm-edge.mlir")),
    (200, [2, 0])], ids=["k256", "k200"])
def test_the_atb_late_form_with_m_and_n_at_launch_is_versioned_and_exact(capsys, tmp_path, k,
                                                                          iterations):
    """IREE's late bf16 ``A^T x B`` with M and N at launch (``iree-bf16-atb-padded-mn``): A's
    runs masked by the M left from the tile row ``v floordivsi ceildiv(N, 128)``, B's by
    the N left from the column ``v remsi ceildiv(N, 128)``; versioned on both (the lit
    test ``sched-adopt-loop-kxm-edge.mlir`` checks the loop).  At 129 x 272 the first
    workgroup lies inside M and N and runs the pipelined loop (K = 256: 3 iterations, 8 K
    steps, the prologue's 2 and the drain's 2 outside it, each wave's fewest), the last is
    at both edges and runs IREE's loop as written (none); exact in late mode; the prefetch
    point gets the same schedule.  Refused before at A's transposing read: the versioning
    copied the tile row's divide, which the front end's copies then did not know as a
    tile.  At K = 200 (generated) each K x M run is masked by its K row too: a row past K
    is pointed past the end of ``memref<200x?xbf16>`` (dense, its row length M known at
    launch), and in the interior loop (6 full K steps: 2 iterations; the seventh, partial,
    in the remainder) IREE's K clamps and that row's select settle to one operand
    (``frontend/loop_choices.py``); refused before at A's masked read (a buffer of static
    shape wanted) and then at A's transposing read (the copies' index mixing K)."""
    late = INPUTS / "iree-bf16-atb-padded-mn.late.mlir" if k == 256 else \
        _padded_atb_k200("late", tmp_path)
    prefetch = INPUTS / "iree-bf16-atb-padded-mn.prefetch.mlir" if k == 256 else \
        _padded_atb_k200("prefetch", tmp_path)
    with counting_loops() as loops, share_code_objects():
        rc = main(["--pipeline=4wave", str(late), f"--emulate=129,272,{k}",
                   "--emulate-workgroups=2", "--emulate-mode=late", "--emulate-jobs=1"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mode=late: exact, max error 0 in C (16400 elements), 2 of 6 " \
                       "workgroups" in out + err, (out + err)[-2000:]
    assert [min(h.values()) for h in loops.iterations()] == iterations
    # the prefetch point (versioned on the ``scf.forall``'s tiles) gets the same schedule;
    # the late form's kept by the build just emulated
    rc = main(["--pipeline=4wave", str(prefetch), "--emit=schedule-json"])
    out, err = capsys.readouterr()
    assert rc == 0 and out == built_schedule("4wave", late.read_text()), err[-2000:]


def _prefetch_permuted(text: str) -> str:
    """The prefetch point of the same kernel with the same swap of B's columns in the
    ``scf.forall``'s column tile 3 (its copy's column and LDS column; its mask left)."""
    anchor = "            %56 = affine.apply #map7(%55#1)\n"
    swap = ("            %m3 = arith.cmpi eq, %arg1, %c3x : index\n"
            "            %lo = arith.cmpi ult, %55#1, %c8 : index\n"
            "            %pp = arith.addi %55#1, %c8 : index\n"
            "            %qq = arith.subi %55#1, %c8 : index\n"
            "            %ss = arith.select %lo, %pp, %qq : index\n"
            "            %cc = arith.select %m3, %ss, %55#1 : index\n"
            "            %56 = affine.apply #map7(%cc)\n"
            "            %mx57 = affine.min #map11(%27, %30, %cc)\n")
    edits = [(anchor, swap),
             ("%59 = affine.apply #map10(%arg1)[%57, %30]",
              "%59 = affine.apply #map10(%arg1)[%mx57, %30]"),
             ("          %c8 = arith.constant 8 : index\n",
              "          %c8 = arith.constant 8 : index\n          %c3x = arith.constant 3 : index\n")]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_the_prefetch_points_copy_mixing_the_forall_with_the_thread_is_named():
    """The ``scf.forall``'s variables stand for the workgroup at the prefetch point
    (``workgroup_offset.workgroup_vars``): B's column index in :func:`_prefetch_permuted`'s
    mutant (pipelined before with exit 0, C[0][384] wrong at 129 x 656, the check at the
    sampled workgroups 0, 1, 2 seeing no swap) is named, before versioning, at the
    ``affine.min`` of its swapped column and the N left (versioning makes that min the
    column, and the ``select`` is named: by hand, the pipeline refuses the mutant); in
    IREE's own kernel at its ``affine.min``, through the ``affine.apply`` that adds the
    tile's 128 columns (a sum: taken)."""
    from pipeline_mlir.dialect.bindings import ir, new_context
    from pipeline_mlir.dialect.ir_io import as_operation, walk_ops
    from pipeline_mlir.frontend import workgroup_offset as LS
    from pipeline_mlir.frontend.kernel_ir import describe

    text = (INPUTS / "iree-bf16-ab-padded-mn.prefetch.mlir").read_text()
    for mutate, want in [(_prefetch_permuted, "%mx57 = affine.min #map11"),
                         (lambda t: t, "%57 = affine.min #map11")]:
        src = mutate(text)
        line = next(i for i, x in enumerate(src.splitlines(), 1) if want in x)
        with new_context() as ctx:
            module = ir.Module.parse(src, ctx)
            view = next(as_operation(o) for o in walk_ops(
                module.operation, lambda o: o.name == "memref.subview" and
                "256x?xbf16" in str(o.operands[0].type)))
            loop = as_operation(view.parent)
            wg = LS.workgroup_vars(loop)
            assert len(wg) == 2
            mixed = LS.workgroup_mixed(view.operands[2], wg, {})
            name = want.split()[2]
            assert describe(as_operation(mixed)).startswith(f"'{name}' op at line {line}:"), \
                describe(as_operation(mixed))
