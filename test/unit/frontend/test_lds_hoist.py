"""pipeline_mlir/frontend/lds_hoist.py: LDS allocated inside the K-loop, hoisted out of it.

IREE's dispatch (the committed 4096^3 one, K cut to 256) with its two LDS tiles allocated
at the top of the K-loop's body and freed at its end (``test/data/iree/dynamic.py``
``lds_in_loop``, as IREE allocates a tile whose size depends on the dispatch's) is the
same loop as IREE's: the front end hoists the allocations and their views and gives it
the schedule it gives IREE's own (the same dump), and the kernel is exact on the emulator.
An allocation sized in the iteration by a value with a constant bound (an ``affine.min``,
as IREE's dynamic-K kernel sizes its tiles by the K left) is allocated once at the bound,
viewed in the iteration at its size (``frontend/lds_bounds.py``): the same schedule, exact.
An allocation sized in the iteration with no constant bound, one yielded to the next
iteration, one handed to an op that is no access or view and a bounded tile viewed by an
op the rebase cannot retype are refused at the op, saying why.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli_text

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402

CUT = D.dynamic((ROOT / "test" / "data" / "iree" / "matmul_bf16_abt_4096.prefetch.mlir")
                .read_text(), False, 256)
IN_LOOP = D.lds_in_loop(CUT)
LDS = "memref<4096xbf16, #gpu.address_space<workgroup>>"
ANY = "memref<?xbf16, #gpu.address_space<workgroup>>"


def _run(tmp_path, capsys, text: str, *args: str) -> tuple[int, str, str]:
    return run_cli_text(capsys, tmp_path, text, "--pipeline=4wave", *args)


def test_the_mutant_allocates_in_the_loop():
    body = IN_LOOP[IN_LOOP.index("scf.for %arg2"):]
    assert body.count("memref.alloc()") == 2 and body.count("memref.dealloc") == 2
    assert "memref.alloc()" not in IN_LOOP[:IN_LOOP.index("scf.for %arg2")]


def test_hoisted_loop_has_the_schedule_of_iree_s(tmp_path, capsys):
    rc, hoisted, err = _run(tmp_path, capsys, IN_LOOP, "--emit=schedule")
    assert rc == 0, err
    rc, own, err = _run(tmp_path, capsys, CUT, "--emit=schedule")
    assert rc == 0, err
    assert hoisted == own and "PROLOGUE" in own


def test_hoisted_loop_is_exact(tmp_path, capsys):
    rc, out, err = _run(tmp_path, capsys, IN_LOOP, "--emulate", "--emulate-workgroups=2",
                        "--emulate-mode=late")
    assert rc == 0, err
    assert "K=256 mode=late: exact, max error 0, 2 of 1024 workgroups" in out, out


def _sized_in_the_iteration(text: str, size: str = "affine.apply affine_map<(d0) -> "
                            "(d0 * 0 + 4096)>(%arg2)", view: str | None = None) -> str:
    """The first allocation sized by a value of the iteration (``size``, of ``%arg2``,
    the loop variable) and viewed by ``view`` (default: cast back to its type)."""
    old = re.search(r"\n(\s*)%alloc = memref\.alloc\(\) (\{[^}]*\}) : " + re.escape(LDS), text)
    pad, attrs = old.group(1), old.group(2)
    view = view or f"memref.cast %alloc_any : {ANY} to {LDS}"
    return text.replace(old.group(0), (
        f"\n{pad}%size = {size}\n{pad}%alloc_any = memref.alloc(%size) {attrs} : {ANY}\n"
        f"{pad}%alloc = {view}"))


#: the K left in the iteration at most one tile, as IREE's dynamic-K kernel sizes its LDS
BOUNDED = "affine.min affine_map<(d0)[s0] -> (s0 - d0 * 4096, 4096)>(%arg2)[%c4096_big]"


def _bounded(text: str, view: str | None = None) -> str:
    """IN_LOOP with its first tile sized by :data:`BOUNDED` of a K far above the loop's
    (so every iteration's size is the bound, as the cast back to the bound's type says)."""
    text = _sized_in_the_iteration(text, BOUNDED, view)
    return re.sub(r"(\n\s*)(%\w+:16 = scf\.for %arg2)",
                  r"\1%c4096_big = arith.constant 1048576 : index\1\2", text, count=1)


def test_bounded_size_is_allocated_once_at_its_bound(tmp_path, capsys):
    mutant = _bounded(IN_LOOP)
    assert "memref.alloc(%size)" in mutant and "%c4096_big = arith.constant" in mutant
    rc, hoisted, err = _run(tmp_path, capsys, mutant, "--emit=schedule")
    assert rc == 0, err
    rc, own, err = _run(tmp_path, capsys, CUT, "--emit=schedule")
    assert rc == 0, err
    assert hoisted == own
    rc, out, err = _run(tmp_path, capsys, mutant, "--emulate", "--emulate-workgroups=2",
                        "--emulate-mode=late")
    assert rc == 0, err
    assert "K=256 mode=late: exact, max error 0, 2 of 1024 workgroups" in out, out


def test_bounded_size_rebased_view_types(tmp_path):
    """The rebase on the IR: one buffer of the bounds before the loop, the tile a strided
    view of it, a subview of the tile retyped to the new layout."""
    from pipeline_mlir.dialect.bindings import ir
    from pipeline_mlir.frontend.lds_hoist import hoist_iteration_lds
    tile = "memref<128x?xbf16, #gpu.address_space<workgroup>>"
    text = ("func.func @f(%k: index, %n: index, %i: index) {\n  %c0 = arith.constant 0 : index\n"
            "  %c1 = arith.constant 1 : index\n  scf.for %iv = %c0 to %n step %c1 {\n"
            "    %s = affine.min affine_map<(d0)[s0] -> (s0 - d0 * 32, 32)>(%iv)[%k]\n"
            f"    %t = memref.alloc(%s) : {tile}\n"
            f"    %v = memref.subview %t[%i, 0] [2, %s] [1, 1] : {tile} to memref<2x?xbf16, "
            "strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>\n"
            "    %z = arith.constant 0.0 : bf16\n"
            "    memref.store %z, %v[%c0, %c0] : memref<2x?xbf16, strided<[?, 1], offset: ?>, "
            "#gpu.address_space<workgroup>>\n  }\n  return\n}\n")
    with ir.Context() as ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse(text)
        loop = next(o for o in m.body.operations[0].regions[0].blocks[0].operations
                    if o.operation.name == "scf.for")
        assert hoist_iteration_lds(loop) == 1
        assert m.operation.verify()
        out = str(m)
    assert out.index("memref.alloc() : memref<128x32xbf16") < out.index("scf.for")
    assert ("memref.reinterpret_cast %alloc to offset: [0], sizes: [128, %0], strides: [32, 1]"
            in out), out
    assert "to memref<2x?xbf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>" \
        in out, out


def _yielded(text: str) -> str:
    """The first allocation carried to the next iteration (an ``iter_arg`` of the loop)."""
    text = text.replace("%46:16 = scf.for", "%46:17 = scf.for", 1)
    text = re.sub(r"(scf\.for %arg2 [^\n]*%arg18 = %cst_0)\) -> \(([^\n]*)\) \{",
                  rf"\1, %lds = %lds0) -> (\2, {LDS}) {{", text, count=1)
    text = re.sub(r"(\n\s*)(%46:17 = scf\.for)", rf"\1%lds0 = memref.alloc() : {LDS}\1\2",
                  text, count=1)
    return re.sub(r"(scf\.yield %\d+(?:, %\d+){15}) : ([^\n]*)",
                  rf"\1, %alloc : \2, {LDS}", text, count=1)


def _handed_on(text: str) -> str:
    """The first allocation handed to an op that is neither an access nor a view."""
    return text.replace("memref.dealloc %alloc : ", "memref.assume_alignment %alloc, 16 : ", 1)


@pytest.mark.parametrize("mutate,op,message", [
    (_sized_in_the_iteration, "memref.alloc",
     "allocates LDS inside the K-loop with a size computed in the iteration (by "
     "'affine.apply' op at line"),
    (lambda t: _sized_in_the_iteration(t, "affine.min affine_map<(d0)[s0] -> (s0 - d0, "
                                          "s0 + 1)>(%arg2)[%dyn_trips]"), "memref.alloc",
     "size computed in the iteration (by 'affine.min' op at line"),
    (lambda t: _bounded(t, f"memref.cast %alloc_any : {ANY} to {LDS}\n%extra = "
                           f"memref.expand_shape %alloc_any [[0, 1]] output_shape [%size, 1] : "
                           f"{ANY} into memref<?x1xbf16, #gpu.address_space<workgroup>>"),
     "memref.expand_shape",
     "views an LDS tile sized in the K-loop's iteration; the front end rebases a tile viewed "
     "by subviews and accessed directly only"),
    (_yielded, "scf.yield", "allocates inside the K-loop, yielded: it would outlive its "
                            "iteration"),
    (_handed_on, "memref.assume_alignment", "allocates inside the K-loop, not an access or a "
                                            "view of it"),
], ids=["sized in the iteration", "no constant bound", "bounded, viewed otherwise",
        "yielded", "handed on"])
def test_lds_that_outlives_or_changes_with_the_iteration_is_refused(tmp_path, capsys, mutate,
                                                                    op, message):
    mutant = mutate(IN_LOOP)
    assert mutant != IN_LOOP
    rc, out, err = _run(tmp_path, capsys, mutant, "--emit=schedule")
    assert rc == 1 and out == "" and "Traceback" not in err, err
    m = re.match(rf"{re.escape(str(tmp_path / 'k.mlir'))}:(\d+):\d+: error: sched-adopt-loop: "
                 rf"'{re.escape(op)}' op", err)
    assert m and message in err, err
    assert op in mutant.splitlines()[int(m.group(1)) - 1]
