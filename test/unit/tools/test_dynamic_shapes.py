"""IREE's matmul with M or K known only at launch, pipelined and run at several sizes.

``test/data/iree/dynamic.py`` rewrites IREE's dispatches so (``iree-compile`` 3.13 writes
no MFMA K-loop of dynamic M or K it could pipeline: docs/iree-dynamic-sizes.md), each size from
two push constants as IREE passes an index:

* the committed 4096^3 dispatch (at the prefetch point; in the late form with K dynamic
  too) with M dynamic (``?x256`` A, ``?x4096`` C, the workgroup
  loop over ``ceildiv(M, 128)``; K cut to 256, 8 iterations, to keep the runs short), K
  dynamic (``4096x?`` A and B: rows of a stride known at launch, a K-loop of ``K / 32``
  iterations, a trip count known only at run time, so the pipelined loop is guarded), and
  both;
* IREE's 512^3 dispatch (64x128 tiles, K step 128, generated here) with M and N dynamic:
  its copies do not split into the schedule's subtiles, so the front end makes its own
  (``pipeline_mlir/frontend/layout.py``) from the ``?x512`` buffers; with M and K (and N)
  dynamic, from rows of a stride known at launch (``frontend/launch_stride.py``; the
  refusals: a stride not proven aligned, an index of a launch value, reads past a declared
  end);
* IREE's VectorDistribute fp8 1024x1024x1536 dispatch (late form) with K dynamic: its K
  step split into sub-steps, the remainder on the schedule's buffers, guarded; and its
  512x512x1020 dispatch (late form, masked copies) with K dynamic: the masked remainder on
  LDS of its own (on the schedule's buffers, ``frontend/aliased_remainder.py``, before B's
  subtile windows wrapped) after the guarded loop.
* the dynamic-M dispatch with a pipeline layout of unused slots (``dynamic.sparse_layout``:
  4 push constants, 2 of them loaded, out of order; an unused binding before B): the
  kernel's arguments are IREE's (one per slot of the layout, ``sched-gpu-kernel``) and the
  launch passes all 4 constants;
* IREE's own dispatch of M (and N) known at launch with its MFMA configuration forced
  with ``padding`` (``dynamic.padded_source``, K of 256): its copies of A (and B) go
  through registers, each row masked by M (N); the front end makes them plain copies of a
  range-checked buffer (``pipeline_mlir/frontend/masked_rows.py``), at N = 272 and 130 too.

``pipeline-opt --pipeline=4wave`` pipelines each (its schedule simulated hazard-free on the
way) into one code object; the emulator launches it at each size with the push constants
and the grid the sizes give (``pipeline_mlir/frontend/launch_sizes.py``) and the bindings'
memref descriptors of the actual sizes: exact in late and random mode for the first and
the last workgroup (at an M that is not a multiple of the tile the last one's rows past M
read zero from past the buffer and its stores there are dropped, as IREE's unpadded
kernel relies on; K = 0, 1 and an odd number of K steps take the remainder paths).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.iree import Matmul, emulate_matmul
from pipeline_mlir.frontend.dispatch import matmul_dispatch
from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
sys.path.insert(0, str(ROOT / "test" / "unit"))
import dynamic as D  # noqa: E402
import generate as G  # noqa: E402
from build_cache import share_code_objects  # noqa: E402
from cli_helpers import refusal  # noqa: E402
from kernel_builds import built_schedule, hsaco_and_lowered  # noqa: E402
from steady_loop import (assert_short, assert_steady, assert_steady_unrolled,  # noqa: E402
                         counting_loops, lowered_split)
from long_tier import FUNCTIONS_RUN  # noqa: E402

DATA = ROOT / "test" / "data" / "iree"
LIT = ROOT / "test" / "lit" / "passes" / "Inputs"
IREE_4096 = (DATA / "matmul_bf16_abt_4096.prefetch.mlir").read_text()
TEXT = D.dynamic_m(IREE_4096, 256)


def _iree_512(n: bool = False) -> str:
    """IREE's 512^3 bf16 ``A x B^T`` dispatch at the prefetch point, M (and N) made
    dynamic."""
    return D.dynamic(G.prefetch_point(G.matmul_source(dtype="bf16", m=512, n=512, k=512)),
                     n=n)


def _iree_512_k(n: bool = False) -> str:
    """IREE's 512^3 dispatch with M and K (and N) known at launch: A ``?x?`` (and B), the
    front end's own copies from rows of a stride known only at launch."""
    return D.dynamic(G.prefetch_point(G.matmul_source(dtype="bf16", m=512, n=512, k=512)),
                     True, "?", n=n)


def _vd_fp8_k() -> str:
    """IREE's VectorDistribute fp8 1024x1024x1536 dispatch (late form) with K known at
    launch: its K step of 512 split into two sub-steps (frontend/ksplit.py), the remainder
    on the schedule's buffers with a run-time trip count (the same iree-compile run as
    test_iree_configurations.py's, from the build cache)."""
    flags = ("--iree-codegen-llvmgpu-use-vector-distribution",
             "--iree-codegen-llvmgpu-use-tile-and-fuse-matmul=false")
    return D.dynamic_k_late(G.forms(G.matmul_source(dtype="fp8", m=1024, n=1024, k=1536),
                                    flags)["late"])


def _masked_k() -> str:
    """IREE's 512x512x1020 dispatch (late form: a 64x128 tile at K step 128, masked
    copies through registers) with K known at launch: its masked remainder on LDS of its
    own (beside the schedule's since B's subtile windows wrap; before, on the schedule's
    buffers, frontend/aliased_remainder.py) after a guarded pipelined loop."""
    return D.dynamic_k_masked_late(G.late_form(G.matmul_source(dtype="bf16", m=512, n=512,
                                                               k=1020), ()))


def _padded(n: bool, k: int = 256) -> str:
    """IREE's own dispatch of M (and N) known at launch, its MFMA configuration forced with
    ``padding`` (rows masked by M and N, copied through registers), K of ``k`` (200: not a
    multiple of 32, the runs masked by the K left too: frontend/masked_rows_k.py)."""
    return G.prefetch_point(D.padded_source(n, k))


def _padded_late(n: bool, k: int = 256) -> str:
    """The same dispatch in IREE's late form (the same iree-compile run): each row masked by
    an ``scf.if``, the workgroups in a linearised loop (frontend/masked_rows_late.py; K of
    200: each run a ``vector.maskedload`` masked by the row and the K left,
    frontend/masked_rows_k_late.py)."""
    return G.late_form(D.padded_source(n, k))


#: name -> (the dispatch's text, built lazily)
KERNELS = {"m": lambda: TEXT, "m-sparse": lambda: D.sparse_layout(TEXT), "k": lambda: D.dynamic(IREE_4096, False, "?"),
           "mk": lambda: D.dynamic(IREE_4096, True, "?"),
           "mn": lambda: D.dynamic(IREE_4096, True, 256, n=True),
           "mn512": lambda: _iree_512(n=True),
           "mk512": _iree_512_k, "mnk512": lambda: _iree_512_k(n=True),
           "vdk-late": _vd_fp8_k, "masked-k-late": _masked_k,
           "k-late": lambda: D.dynamic_k_late((DATA / "matmul_bf16_abt_4096.late.mlir")
                                              .read_text()),
           "padded-m": lambda: _padded(False), "padded-mn": lambda: _padded(True),
           "padded-m-late": lambda: _padded_late(False),
           "padded-mn-late": lambda: _padded_late(True),
           "padk-m": lambda: _padded(False, 200), "padk-mn": lambda: _padded(True, 200),
           "padk-m-late": lambda: _padded_late(False, 200),
           "padk-mn-late": lambda: _padded_late(True, 200),
           "padk100-m": lambda: _padded(False, 100),
           "padk100-m-late": lambda: _padded_late(False, 100),
           # bf16 A x B, M and N at launch, B's runs cut by N: the committed late form
           "padded-kxn-late": lambda: (LIT / "iree-bf16-ab-padded-mn.late.mlir").read_text()}
#: name -> (dtype, workgroup tile M x N, a 1-D grid) where not bf16, 128 x 128, 2-D
SHAPES = {"mn512": ("bf16", (64, 128), False), "mk512": ("bf16", (64, 128), False),
          "mnk512": ("bf16", (64, 128), False), "vdk-late": ("fp8", (64, 128), True),
          "k-late": ("bf16", (128, 128), True), "masked-k-late": ("bf16", (64, 128), True),
          "padded-m-late": ("bf16", (128, 128), True),
          "padded-mn-late": ("bf16", (128, 128), True),
          "padk-m-late": ("bf16", (128, 128), True), "padk-mn-late": ("bf16", (128, 128), True),
          "padk100-m-late": ("bf16", (128, 128), True),
          "padded-kxn-late": ("bf16", (128, 128), True)}


@pytest.fixture(scope="module")
def built():
    """name -> (text, code object), each built once."""
    out = {}

    def get(name: str):
        if name not in out:
            text = KERNELS[name]()
            out[name] = text, hsaco_and_lowered("4wave", text)[0]
        return out[name]
    return get


#: the kernels whose B is given K x N (the others' N x K)
KXN = {"padded-kxn-late"}
#: (kernel, sizes) of test_dynamic_sizes_are_exact_at_run_time whose run stays below 2
#: iterations of the steady loop on purpose -> (the iterations it makes, why)
SHORT = {
    **{("k", (4096, 4096, k)): (0, "K below the schedule's depth: the guard's path, K = 224 "
                                   "goes round the loop") for k in (96, 0)},
    **{("k-late", (4096, 4096, k)): (0, "the guard's path, K = 224 goes round the loop")
       for k in (96, 0)},
    ("mk", (400, 4096, 96)): (0, "the guard's path; K = 224 goes round the loop"),
    # K = 512 compiled in: 4 K tiles, the loop once (LLVM unrolls it: counted by the MFMAs
    # each wave ran); mk512 at K = 896 runs the loop of the same copies
    **{("mn512", s): (1, "IREE's K of 512: mk512 goes round the loop of the same copies")
       for s in ((208, 384, 512), (64, 256, 512))},
    **{("mk512", (m, 512, k)): (0, "a remainder, the guard, K = 0; K = 896 goes round")
       for m, k in ((208, 384), (512, 0))},
    ("mnk512", (208, 384, 640)): (1, "N at launch too; mk512 at K = 896 goes round"),
    ("vdk-late", (1024, 1024, 1536)): (1, "the remainder's path; K = 2560 goes round"),
    **{("vdk-late", (1024, 1024, k)): (0, "one K step, none; K = 2560 goes round")
       for k in (512, 0)},
    **{("masked-k-late", (512, 512, k)): (0, "a partial tile, 2 and a partial one, none: "
                                              "the remainder's paths; K = 896 goes round")
       for k in (100, 257, 0)},
    ("padk100-m-late", (129, 4096, 100)): (1, "K = 100: one pipelined pair, the remainder"),
    # (LLVM unrolls every loop here: the remainder's 2 iterations too, since its loads go
    # a K tile ahead, frontend/remainder_ahead.py; counted by the MFMAs each wave ran)
    ("padk100-m", (200, 4096, 100)): (0, "K = 100: one pipelined pair, the remainder"),
}
#: (kernel, sizes) whose two workgroups take the two paths of a loop versioned on the
#: workgroup's tile (frontend/edge_version.py) -> the pipelined loop's iterations per run,
#: each run's fewest over its waves: the interior workgroup's, then the edge one's (none: it
#: runs IREE's loop as written)
VERSIONED = {("padded-kxn-late", (129, 272, 256)): [3, 0]}
#: items left unasserted (none now)
UNCOUNTED: set = set()


def _long(name: str, sizes: tuple, mode: str, why: str):
    """An item of ``test_dynamic_sizes_are_exact_at_run_time`` in the long tier
    (``test/unit/long_tier.py``): ``why`` names what the default run checks it on."""
    return pytest.param(name, sizes, mode, marks=pytest.mark.long(why))


#: the reasons of the long tier's padded dispatches: with N known at launch too, the same
#: dispatch takes the M-only one's path (the same schedule, byte for byte, and the same
#: copies in the adopted loop: only B's row masks by N added)
PADDED_M = "padded-mn (400 x 272, late) takes padded-m's path with N masked too"
PADDED_M_LATE = "padded-mn-late (400 x 272, late) takes padded-m-late's path with N masked too"
PADK_M = ("padk-mn (129 x 272 x 200, late) takes its loop and peel with N masked too, "
          "padk100-m-late its remainder's reads of B's static buffer")
PADK_M_LATE = "padk-mn-late (144 x 272 x 200, late) takes padk-m-late's path with N masked too"
#: (2026-12-07) items whose every function of pipeline_mlir the default run's items left
#: run (the function rule of docs/testing.md, "The long tier"; coverage.py per item)
FUNCTIONS_RUN_BY = FUNCTIONS_RUN + "; {} in the default run"
#: an extra mode of a kernel whose late mode the default run keeps
RANDOM_TOO = "{} in late mode; the padded dispatches at random: padded-mn-late"
#: the forms whose twin the default run builds and emulates (one schedule, the form
#: pipelined to it there; docs/testing.md, "The long tier")
K_LATE = ("one schedule with k (test_a_form_of_the_long_tier_gets_its_twins_schedule"
          "[k-late]), which runs it at 96, 0 and 224; the late form's K at launch "
          "(dynamic_k_late) run in vdk-late and masked-k-late")
PADK100 = ("one schedule with padk100-m-late (test_a_form_of_the_long_tier_gets_its_twins_"
           "schedule[padk100-m]), which runs it at K = 100; the prefetch point's rows and K "
           "masked at once (masked_rows_k.py) run in padk-mn, a remainder's loads a K tile "
           "ahead in vdk-late and masked-k-late")


@pytest.mark.parametrize("name,sizes,mode", [
    # M = 400: the last row of tiles 16 rows deep (M = 16 and 272 took the same path);
    # 384: whole tiles
    ("m", (400, 4096, 256), "late"),
    _long("m", (384, 4096, 256), "random:5", "whole tiles: m at 400 (its first workgroup); "
          "the 4096 dispatch at random: k, mn"),
    # a layout with unused slots (push constants #0 and #2, binding #1), loaded out of
    # order: the kernel takes every slot, as IREE launches it
    ("m-sparse", (400, 4096, 256), "late"),
    # K = 96: 3 K steps, below the schedule's depth (the guard's path; K = 32, one step,
    # took it too), none, 7
    ("k", (4096, 4096, 96), "late"),
    ("k", (4096, 4096, 0), "late"), ("k", (4096, 4096, 224), "random:4"),
    # (M and K at launch: k's schedule and copies, m's workgroups)
    *[_long("mk", s, mode, "k at 96 and 224 and m at 400 take its paths (the same schedule "
            "as k's, byte for byte, the same copies)")
      for s, mode in (((400, 4096, 96), "late"), ((144, 4096, 224), "random:2"))],
    ("mn512", (208, 384, 512), "late"),
    _long("mn512", (64, 256, 512), "random:1", "mn512 at 208 x 384 in late mode; the 512^3 "
          "dispatch at random: mk512 at 896"),
    # (the late form: k's schedule, test_a_form_of_the_long_tier_gets_its_twins_schedule
    # [k-late]; its K at launch run in vdk-late and masked-k-late)
    *[_long("k-late", (4096, 4096, k), mode, K_LATE)
      for k, mode in ((96, "late"), (0, "late"), (224, "random:6"))],
    ("mn", (400, 384, 256), "late"), ("mn", (144, 256, 256), "random:3"),
    # rows of a stride known at launch under the front end's own copies: 3 K steps of 128
    # (below the schedule's depth: the guard, then the remainder; 1 step took the same
    # path), none, 7
    ("mk512", (208, 512, 384), "late"),
    ("mk512", (512, 512, 0), "late"), ("mk512", (512, 512, 896), "random:7"),
    _long("mnk512", (208, 384, 640), "random:1", "mk512 takes its path (the same schedule, "
          "byte for byte, the same copies); C of a launch stride: mn512"),
    # a K step split in two, the remainder on the schedule's buffers, K at launch: 3 K
    # steps (the remainder runs one), 1, none, 5
    # (3 steps and none in the long tier: the function rule, FUNCTIONS_RUN_BY)
    _long("vdk-late", (1024, 1024, 1536), "late", FUNCTIONS_RUN_BY.format(
        "vdk-late at 512 and 2560 (a remainder after whole steps), masked-k-late at 257")),
    ("vdk-late", (1024, 1024, 512), "late"),
    _long("vdk-late", (1024, 1024, 0), "late", FUNCTIONS_RUN_BY.format(
        "vdk-late at 512; no K step at launch: masked-k-late and mk512 at K = 0")),
    ("vdk-late", (1024, 1024, 2560), "random:2"),
    # masked copies, K at launch (rows of any length: staged copies): a partial K tile
    # alone, 2 whole tiles and a partial one, none, 7 whole tiles (the last one peeled)
    ("masked-k-late", (512, 512, 100), "late"), ("masked-k-late", (512, 512, 257), "random:3"),
    _long("masked-k-late", (512, 512, 0), "late", FUNCTIONS_RUN_BY.format(
        "masked-k-late at 100, 257 and 896; no K step at launch: mk512 and k at K = 0")),
    ("masked-k-late", (512, 512, 896), "late"),
    # (M = 16, the last row of tiles 16 rows deep as at 400, took 400's path)
    _long("padded-m", (400, 4096, 256), "late", PADDED_M),
    _long("padded-m", (129, 4096, 256), "random:3", PADDED_M),
    ("padded-mn", (400, 272, 256), "late"),
    _long("padded-mn", (144, 384, 256), "random:8", RANDOM_TOO.format("padded-mn")),
    _long("padded-mn", (200, 130, 256), "late", "cut at M and N as at 400 x 272"),
    # the late form: a 1-D grid over tiles cut at both edges (M and N)
    _long("padded-m-late", (400, 4096, 256), "late", PADDED_M_LATE),
    _long("padded-m-late", (129, 4096, 256), "random:5", PADDED_M_LATE),
    ("padded-mn-late", (400, 272, 256), "late"), ("padded-mn-late", (144, 384, 256), "random:2"),
    # K = 200: the rows and the K left masked at once, the last K tile peeled
    _long("padk-m", (200, 4096, 200), "late", PADK_M),
    _long("padk-m", (16, 4096, 200), "random:3", PADK_M),
    ("padk-mn", (129, 272, 200), "late"),
    _long("padk-mn", (129, 272, 200), "random:1", RANDOM_TOO.format("padk-mn")),
    _long("padk-m-late", (200, 4096, 200), "late", PADK_M_LATE),
    ("padk-mn-late", (144, 272, 200), "late"),
    _long("padk-mn-late", (144, 272, 200), "random:4", RANDOM_TOO.format("padk-mn-late")),
    # K = 100: one pipelined pair (the loop's one iteration), then a whole tile and the
    # masked one; the tag check keeps to the loop's own K tiles
    # (the late form, the rarer path, runs: its remainder's loads kept in their iteration,
    # docs/iree-remainders.md; the prefetch point pipelined to its schedule in
    # test_a_form_of_the_long_tier_gets_its_twins_schedule[padk100-m])
    _long("padk100-m", (200, 4096, 100), "late", PADK100),
    ("padk100-m-late", (129, 4096, 100), "random:2"),
    # B K x N, its runs cut inside by N: the loop versioned on the column tile (v remsi
    # ceildiv(N, 128)); the first workgroup inside N (pipelined), the last at both edges
    ("padded-kxn-late", (129, 272, 256), "late"),
])
def test_dynamic_sizes_are_exact_at_run_time(built, name, sizes, mode):
    text, code = built(name)
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(text, ctx), sizes)
    mode, _, seed = mode.partition(":")
    dtype, (tm, tn), flat = SHAPES.get(name, ("bf16", (128, 128), False))
    with counting_loops() as loops:
        run = emulate_matmul(load_kernel(code), Matmul(*sizes, dtype, name not in KXN,
                                                       d.constants),
                             d.grid, 2, mode, int(seed or 0))
    assert run.exact and run.contract == "memref", run.summary()
    # the run's steady iterations (steady_loop): where LLVM unrolled the loop, by the MFMAs
    split = lowered_split(text, "4wave", hsaco_and_lowered("4wave", text)[1]) \
        if None in loops.iterations() else None
    if (name, sizes) in VERSIONED:
        assert [min(h.values()) for h in loops.iterations()] == VERSIONED[name, sizes]
    elif (name, sizes) in SHORT:
        assert_short(loops, *SHORT[name, sizes], split)
    elif split is not None:
        assert_steady_unrolled(loops, split)
    elif (name, sizes) not in UNCOUNTED:
        assert_steady(loops)
    tiles = (-(-sizes[1] // tn), -(-sizes[0] // tm))
    assert run.grid == tiles[0] * tiles[1]
    assert d.grid == ((tiles[0] * tiles[1],) if flat else tiles)


def test_a_sparse_layout_runs_as_a_launch_description_too(built):
    """The dispatch of unused layout slots launched as a launch description (the launch of a
    dispatch with an epilogue, ``driver/dispatch_launch.py``): the unused binding a null
    pointer in its place, the 4 push constants after the bindings; exact."""
    from pipeline_mlir.driver.dispatch_launch import run_dispatch

    text, code = built("m-sparse")
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(text, ctx), (272, 4096, 256))
    assert d.unused == (1,) and len(d.constants) == 4
    summary, problem = run_dispatch(d, load_kernel(code), "m-sparse.mlir", ("late", 0), 1,
                                    None, False)
    assert problem is None and "exact" in summary, summary


@pytest.mark.parametrize("n,k", [pytest.param(False, 256, marks=pytest.mark.long(
    "the mn item compares the two forms of the same dispatch with N masked too")),
    (True, 256), (True, 200)], ids=["m", "mn", "mn-k200"])
def test_both_forms_of_the_padded_dispatch_get_the_same_schedule(n, k):
    """The late form (rows masked by ``scf.if``; with K = 200 each run a masked load) is
    pipelined with the prefetch form's schedule: each form's schedule kept by the run's
    build of its code object, which ``test_dynamic_sizes_are_exact_at_run_time`` builds
    too (``built``: ``padded-m``, ``padded-mn``, ``padk-mn`` and their late forms;
    padded-m's in the long tier, as its item here), so no passes run twice (before,
    ``--emit=schedule`` ran them again for each form)."""
    out = [built_schedule("4wave", text) for text in (_padded(n, k), _padded_late(n, k))]
    assert out[0] == out[1] and json.loads(out[0])["phases"]["kernel"], out[0][:500]


@pytest.mark.parametrize("form,twin", [("k-late", "k"), ("padk100-m", "padk100-m-late")],
                         ids=["k-late", "padk100-m"])
def test_a_form_of_the_long_tier_gets_its_twins_schedule(form, twin):
    """A form of a dispatch whose build and runs are in the long tier (``K_LATE``,
    ``PADK100``) is pipelined (front end and scheduler, ``--emit=schedule-json``: no
    lowering, no LLVM) with the schedule of its twin, the dispatch's other form, which the
    default run builds and runs (``built``: its schedule kept by that build)."""
    from pipeline_mlir.driver import CompileOptions, compile

    got = compile(CompileOptions(schedule="4wave", text=KERNELS[form](),
                                 emit="schedule-json")).checked_output()
    assert got == built_schedule("4wave", KERNELS[twin]()) and \
        json.loads(got)["phases"]["kernel"], got[:500]


def test_a_smaller_grid_runs_several_tiles_per_workgroup(built):
    """IREE's linearised workgroup loop with fewer workgroups than tiles: each workgroup
    runs the pipelined K-loop for 2 tiles in turn, and the whole C is exact."""
    from pipeline_mlir.emu.iree import Launch

    text, code = built("padded-mn-late")
    sizes = (200, 130, 256)
    with new_context() as ctx:
        d = matmul_dispatch(ir.Module.parse(text, ctx), sizes)
    assert d.grid == (4,)
    launch = Launch(load_kernel(code), Matmul(*sizes, "bf16", True, d.constants), "late", 0, 0)
    launch.set_grid((2,))
    launch.run([0, 1])
    cov = launch.check([(0, 0, 200, 130)])        # the whole C: every tile ran
    assert cov.sound and (cov.stored, cov.max_error) == (200 * 130, 0.0), cov
    # the kernel reads the grid's size: without a grid the launch is refused, not guessed
    with pytest.raises(EmuError, match=r"it reads the grid's size \(hidden_block_count_x\): "
                                       r"the launch must give the grid"):
        emulate_matmul(load_kernel(code), Matmul(*sizes, "bf16", True, d.constants), count=1)


def test_the_front_end_makes_the_copies_from_the_dynamic_buffer(built):
    """The 512^3 dispatch's copies are the front end's: they index the ``?x512`` buffers
    of A and B themselves (IREE's index views of 16 and 32 rows of them), in the lowered
    MLIR (``--emit=mlir``'s) the build of its code object kept."""
    text, _code = built("mn512")
    fat = "memref<?x512xbf16, #amdgpu.address_space<fat_raw_buffer>>"
    copies = re.findall(r"amdgpu\.gather_to_lds [^\n]*", hsaco_and_lowered("4wave", text)[1])
    assert len(copies) == 48 and all(f"vector<8xbf16>, {fat}," in c for c in copies), copies


def _launch_index(text: str) -> str:
    """A's and B's K offset in the loop plus ``K mod 128`` (zero at every launch the
    ``util.assume.int`` allows, but a launch value in the copies' index)."""
    loop = re.search(r"\n(\s*)(%\d+) = affine\.apply (#map\d+)\(%arg2\)\n", text)
    pad, name, amap = loop.groups()
    return text.replace(loop.group(0), f"\n{pad}%k_off = affine.apply {amap}(%arg2)\n"
                        f"{pad}%k_c128 = arith.constant 128 : index\n"
                        f"{pad}%k_rem = arith.remui %dyn_k, %k_c128 : index\n"
                        f"{pad}{name} = arith.addi %k_off, %k_rem : index\n", 1)


@pytest.mark.parametrize("mutate,message", [
    # K (A's row stride) assumed a multiple of 4 elements only: 8-byte rows, and the front
    # end's copies move 16 bytes per lane
    (lambda: _iree_512_k().replace("udiv = 128>", "udiv = 4>"),
     "channel A: the row stride of memref<?x?xbf16, #amdgpu.address_space<fat_raw_buffer>> "
     "is known only at launch and proven a multiple of 4 element(s) of 2 bytes only (its "
     "sizes' util.assume.int udiv), so the front end's copies of 16 bytes per lane may be "
     "misaligned"),
    # the copies' column depends on K: what they read at the analysis' sample row length
    # says nothing of the others
    (lambda: _launch_index(_iree_512_k()),
     "channel A's copies read a buffer whose row stride is known only at launch "
     "(memref<?x?xbf16, #amdgpu.address_space<fat_raw_buffer>>) at an index that depends on "
     "a launch value ('hal.interface.constant.load' op at line"),
    # A's buffer declared 32 rows long (validBytes): the copies read past its end
    (lambda: _iree_512().replace(
        "%2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset",
        "%dyn_valid = arith.constant 32768 : i64\n          %2 = amdgpu."
        "fat_raw_buffer_cast %assume_align validBytes(%dyn_valid) resetOffset"),
     "reads global memory outside its buffer in the loop's first iteration (element 26239 "
     "of 16384)"),
    # the fp8 VectorDistribute dispatch with K assumed a multiple of 8 only: its copies
    # through registers are not made direct-to-LDS copies (16 bytes per lane, 8-byte rows),
    # but staged: the split of its K step takes them, the remainder loop of its run-time
    # trip count, on the schedule's LDS buffers, does not
    (lambda: _vd_fp8_k().replace("udiv = 512>", "udiv = 8>"),
     "'scf.for' op: the remainder loop on the schedule's LDS buffers takes direct-to-LDS "
     "copies; this one would stage a copy through registers"),
], ids=["row stride misaligned", "index of a launch value", "past the declared end",
        "register copy misaligned"])
def test_dynamic_sources_the_bounds_check_cannot_take_are_refused(tmp_path, capsys, mutate,
                                                                  message):
    mutant = mutate()
    src = tmp_path / "k.mlir"
    src.write_text(mutant)
    rc = main(["--pipeline=4wave", str(src), "--emit=schedule"])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: error: ", err) and message in err, err


def _workgroup_swapped(text: str) -> str:
    """A's first two copies' global rows (``%16``, ``%18``: rows 0 and 8 of the wave)
    swapped in workgroup 9, which no sampled workgroup is; the late form reads the
    workgroup id itself (no workgroup loop)."""
    anchor = "          %18 = arith.index_castui %17 : i32 to index\n"
    swap = ("          %c9x = arith.constant 9 : index\n"
            "          %m9 = arith.cmpi eq, %workgroup_id_x, %c9x : index\n"
            "          %r1 = arith.select %m9, %18, %16 : index\n"
            "          %r2 = arith.select %m9, %16, %18 : index\n")
    for old, new in ((anchor, anchor + swap),
                     ("vector.load %1[%16, %158]", "vector.load %1[%r1, %158]"),
                     ("vector.load %1[%18, %158]", "vector.load %1[%r2, %158]")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_a_launch_stride_copy_mixing_a_workgroup_id_is_refused(tmp_path, capsys, monkeypatch):
    """The fp8 VectorDistribute dispatch with K known at launch (late form: workgroup ids,
    no workgroup loop) with A's copies swapped in workgroup 9 (``_workgroup_swapped``):
    the front end's copies, checked against the kernel's at every workgroup
    (``frontend/every_workgroup.py``), are refused at the mutant's ``select``; with that
    check taken away, the check of the launch strides (``kernel_dims``) refuses it too,
    which skipped its mixing rule where the kernel had no workgroup loop and took the
    mutant with exit 0 before."""
    import pipeline_mlir.frontend.every_workgroup as E

    text = _workgroup_swapped(_vd_fp8_k())
    src = tmp_path / "k.mlir"
    src.write_text(text)
    lines = {n: next(i for i, x in enumerate(text.splitlines(), 1) if f"%{n} = arith.select" in x)
             for n in ("r1", "r2")}
    for proven in (True, False):
        if not proven:
            monkeypatch.setattr(E, "prove_every_workgroup", lambda *a: None)
        rc = main(["--pipeline=4wave", str(src), "--emit=schedule-json", "-o",
                   str(tmp_path / "out.json")])
        out, err = capsys.readouterr()
        assert rc == 1 and out == "" and "Traceback" not in err, err
        want = ("in workgroup (9,) at the loop's first K step" if proven else
                "at an index that combines the workgroup's coordinate with the thread or the "
                "K-loop otherwise than as an offset")
        assert want in err and re.search(rf"'arith\.select' op at line "
                                         rf"({lines['r1']}|{lines['r2']}):", err), err


def _refused(tmp_path, capsys, text: str, marker: str) -> tuple[str, int]:
    """(the one message of ``pipeline-opt --pipeline=4wave`` refusing ``text``, the line of
    ``text`` that holds ``marker``)."""
    return (refusal(capsys, tmp_path, text),
            next(i for i, x in enumerate(text.splitlines(), 1) if marker in x))


def _middle_k_moved(text: str) -> str:
    """A's first copy's K index moved 16 on at the loop's 6th K step alone (``%arg0 ==
    2560``), its other copies as they were: no sampled K step shows it."""
    anchor = "            %159 = vector.load %1[%16, %158]"
    i = text.index(anchor)
    text = text[:i] + ("            %c2560k = arith.constant 2560 : i32\n"
                       "            %k6 = arith.cmpi eq, %arg0, %c2560k : i32\n"
                       "            %c16x = arith.constant 16 : index\n"
                       "            %p16 = arith.addi %158, %c16x : index\n"
                       "            %r1 = arith.select %k6, %p16, %158 : index\n") + text[i:]
    assert text.count("vector.load %1[%16, %158]") == 1
    return text.replace("vector.load %1[%16, %158]", "vector.load %1[%16, %r1]")


def test_a_copy_moving_at_a_middle_k_step_of_a_run_time_trip_count_is_refused(tmp_path,
                                                                             capsys):
    """The fp8 VectorDistribute dispatch with K known at launch with A's first copy moved
    at the 6th K step alone (``_middle_k_moved``): its front end's copies were compared at
    the first K step only and it was pipelined with exit 0 and WRONG against its
    unpipelined build (launched at 1024x1024x4096, workgroup 0: 8157 of its 8192 elements
    of C differ; run by hand); the trip count known only at launch, an index that mixes
    the K-loop's variable with the thread is now refused."""
    err, line = _refused(tmp_path, capsys, _middle_k_moved(_vd_fp8_k()), "%r1 = arith.select")
    assert (f"channel A's copies: their global index mixes the K-loop's variable with the "
            f"rest otherwise than as an offset ('arith.select' op at line {line}:") in err, err
    assert "the loop's trip count is known only at launch" in err, err


def _launch_swapped(text: str) -> str:
    """B's two copies' global rows swapped where M, the push constant, is 200: at the
    analysis' sample of the launch values (4096) they are not."""
    anchor = "              amdgpu.gather_to_lds %subview_15[%50#0, %50#1]"
    i = text.index(anchor)
    text = text[:i] + ("              %c200i = arith.constant 200 : i32\n"
                       "              %m200 = arith.cmpi eq, %2, %c200i : i32\n"
                       "              %r1 = arith.select %m200, %62#0, %50#0 : index\n"
                       "              %r2 = arith.select %m200, %50#0, %62#0 : index\n") + text[i:]
    return _edit(text, (("gather_to_lds %subview_15[%50#0, %50#1]",
                         "gather_to_lds %subview_15[%r1, %50#1]"),
                        ("gather_to_lds %subview_15[%62#0, %62#1]",
                         "gather_to_lds %subview_15[%r2, %62#1]")))


def _launch_swapped_dynamic(text: str) -> str:
    """A's (a buffer sized at launch, ``?x512``) first two copies' global rows swapped
    where M is 200: at the analysis' sample of M (4096) they are not."""
    anchor = "            %46:2 = affine.delinearize_index %45 into (16, 128) : index, index\n"
    swap = ("            %c200m = arith.constant 200 : index\n"
            "            %m200 = arith.cmpi eq, %dyn_m, %c200m : index\n"
            "            %r1 = arith.select %m200, %46#0, %34#0 : index\n"
            "            %r2 = arith.select %m200, %34#0, %46#0 : index\n")
    return _edit(text, ((anchor, anchor + swap),
                        ("gather_to_lds %subview_12[%34#0, %34#1]",
                         "gather_to_lds %subview_12[%r1, %34#1]"),
                        ("gather_to_lds %subview_12[%46#0, %46#1]",
                         "gather_to_lds %subview_12[%r2, %46#1]")))


def _launch_column(text: str) -> str:
    """The late form's row-masked copy of A (a buffer sized at launch) with its K column
    moved by 16 where M is odd (``xori col, 16 (M mod 2)``): two threads' runs swapped at
    such a launch, at the analysis' sample (M = 4096) not."""
    return _column_moved(text, ("%c1r = arith.constant 1 : index",
                                "%c16r = arith.constant 16 : index",
                                "%p1 = arith.andi %8, %c1r : index",
                                "%p16 = arith.muli %p1, %c16r : index"))


def _column_moved(text: str, p16: tuple) -> str:
    """The padded late form's row-masked copy of A with its K column xor ``%p16``, which
    the ops ``p16`` define beside A's row."""
    anchor = "            %135 = arith.addi %134, %125 : index\n"
    col = "              %204 = arith.index_castui %203 : i32 to index\n"
    return _edit(text, ((anchor, anchor + "".join(f"            {x}\n" for x in p16)),
                        (col, col + "              %x204 = arith.xori %204, %p16 : index\n"),
                        ("vector.load %assume_align_5[%135, %204]",
                         "vector.load %assume_align_5[%135, %x204]")))


def _edit(text: str, edits) -> str:
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("kernel,mutate,label,mixing", [
    ("padded-m", _launch_swapped, "B", "%r1 = arith.select"),
    ("mn512", _launch_swapped_dynamic, "A", "%r1 = arith.select"),
    ("padded-m-late", _launch_column, "A", "%x204 = arith.xori"),
], ids=["static buffer", "buffer sized at launch", "row-masked, sized at launch"])
def test_a_copy_moving_with_a_launch_value_is_refused(tmp_path, capsys, kernel, mutate, label,
                                                      mixing):
    """IREE's dispatches with a copy's index moved by a launch value (M) otherwise than as
    an offset: the front end's copies were compared at the sampled launch values only (M =
    4096) and each was pipelined with exit 0 and WRONG against its unpipelined build
    (test/data/iree/mutants.py's builds, late mode: the padded dispatch's B at 200x4096x256,
    workgroups (0, 0), (1, 1): 12749 elements of C differ; the 512^3 dispatch's A, a
    buffer sized at launch, at 200x512x512, the same workgroups: 12240; the padded late
    form's A at 201x4096x256, workgroups 0 and 37: 25557).  A buffer sized at launch was
    not checked for it; an index that mixes a launch value with the thread is now refused
    at the copy for every buffer, but for the row of a guarded row copy the front end made
    a read past the buffer's end (``sched.proven_row``: proven for every size)."""
    err, line = _refused(tmp_path, capsys, mutate(KERNELS[kernel]()), mixing)
    assert (f"channel {label}'s copies: their global index mixes a value known only at launch "
            f"with the thread otherwise than as an offset ('arith.") in err, err
    assert f"op at line {line}:" in err, err


def _workgroup_column(text: str) -> str:
    """The late form's row-masked copy of A with its K column moved by 16 in workgroup 37
    alone (the linearised loop's variable): two threads' runs swapped there."""
    return _column_moved(text, ("%c37w = arith.constant 37 : index",
                                "%c16r = arith.constant 16 : index",
                                "%c0r = arith.constant 0 : index",
                                "%w37 = arith.cmpi eq, %arg0, %c37w : index",
                                "%p16 = arith.select %w37, %c16r, %c0r : index"))


def test_a_row_masked_copy_moving_in_an_unsampled_workgroup_is_refused(tmp_path, capsys):
    """IREE's padded late form (A sized at launch, its rows masked and proven for every
    size, a grid-stride loop over a count known only at launch: no grid to evaluate) with
    A's column moved in workgroup 37 alone (``_workgroup_column``): compared at the sampled
    workgroups only, it was pipelined with exit 0 and WRONG against its unpipelined build
    (test/data/iree/mutants.py's builds at 200x4096x256, late mode, workgroups 0 and 37:
    9146 elements of C differ); an index that mixes the workgroup with the thread outside
    the proven rows is now refused at the copy."""
    err, line = _refused(tmp_path, capsys, _workgroup_column(KERNELS["padded-m-late"]()),
                         "%x204 = arith.xori")
    assert (f"channel A's copies: their global index mixes the workgroup with the thread or "
            f"the K-loop otherwise than as an offset ('arith.xori' op at line {line}:") in err, err
    assert "outside the rows of its row masks, proven for every size" in err, err


def test_the_cli_launches_at_the_sizes_given(tmp_path, capsys):
    src = tmp_path / "k.mlir"
    src.write_text(TEXT)
    with share_code_objects():   # the run's build of this kernel (``built``)
        rc = main(["--pipeline=4wave", "--emulate=400,4096,256", "--emulate-workgroups=2",
                   "--emulate-mode=late", str(src)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "M=400 N=4096 K=256 mode=late: exact, max error 0, 2 of 128 workgroups" in out, out


@pytest.mark.parametrize("name,sizes,message", [
    ("m", None, "binding A (memref<?x256xbf16, #hal.descriptor_type<storage_buffer>>) is "
                "sized at launch: the launch's M, N and K must be given"),
    # N not a multiple of the tile: C's columns past N would be the next row's
    ("mn", "400,272,256", "the launch makes operand #0 272, and the kernel was compiled "
                          "assuming udiv = 128"),
    ("m", "400,4096,4096", "--emulate=400,4096,4096 disagrees with the sizes compiled into "
                           "kernel matmul_dispatch_0_matmul_4096x4096x4096_bf16xbf16xf32: "
                           "M=400 N=4096 K=256"),
])
def test_sizes_missing_or_wrong_are_one_error(tmp_path, capsys, name, sizes, message):
    src = tmp_path / "k.mlir"
    src.write_text(KERNELS[name]())
    flag = "--emulate" if sizes is None else f"--emulate={sizes}"
    with share_code_objects():   # the run's build of this kernel (``built``)
        rc = main(["--pipeline=4wave", flag, str(src)])
    out, err = capsys.readouterr()
    assert rc == 1 and out == "" and "Traceback" not in err, err
    assert err.startswith(f"{src}:") and message in err, err
