"""pipeline_mlir/frontend/lds_hoist.py: LDS allocated inside the K-loop, hoisted out of it.

IREE's dispatch (the committed 4096^3 one, K cut to 256) with its two LDS tiles allocated
at the top of the K-loop's body and freed at its end (``test/data/iree/dynamic.py``
``lds_in_loop``, as IREE allocates a tile whose size depends on the dispatch's) is the
same loop as IREE's: the front end hoists the allocations and their views and gives it
the schedule it gives IREE's own (the same dump), and the kernel is exact on the emulator.
An allocation sized in the iteration, one yielded to the next iteration and one handed to
an op that is no access or view are refused at the op, saying why.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import dynamic as D  # noqa: E402

CUT = D.dynamic((ROOT / "test" / "data" / "iree" / "matmul_bf16_abt_4096.prefetch.mlir")
                .read_text(), False, 256)
IN_LOOP = D.lds_in_loop(CUT)
LDS = "memref<4096xbf16, #gpu.address_space<workgroup>>"


def _run(tmp_path, capsys, text: str, *args: str) -> tuple[int, str, str]:
    src = tmp_path / "k.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src), *args])
    out, err = capsys.readouterr()
    return rc, out, err


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


def _sized_in_the_iteration(text: str) -> str:
    """The first allocation sized by a value of the iteration (cast back to its type)."""
    old = re.search(r"\n(\s*)%alloc = memref\.alloc\(\) (\{[^}]*\}) : " + re.escape(LDS), text)
    pad, attrs = old.group(1), old.group(2)
    return text.replace(old.group(0), (
        f"\n{pad}%size = affine.apply affine_map<(d0) -> (d0 * 0 + 4096)>(%arg2)\n"
        f"{pad}%alloc_any = memref.alloc(%size) {attrs} : memref<?xbf16, "
        f"#gpu.address_space<workgroup>>\n{pad}%alloc = memref.cast %alloc_any : "
        f"memref<?xbf16, #gpu.address_space<workgroup>> to {LDS}"))


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
    (_yielded, "scf.yield", "allocates inside the K-loop, yielded: it would outlive its "
                            "iteration"),
    (_handed_on, "memref.assume_alignment", "allocates inside the K-loop, not an access or a "
                                            "view of it"),
], ids=["sized in the iteration", "yielded", "handed on"])
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
