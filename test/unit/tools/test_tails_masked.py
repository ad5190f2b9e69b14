"""IREE's masked last K tile: peeled into the remainder loop, the masks proven full before it.

IREE's bf16 matmul with K = 4095 (``iree-compile``, at the prefetch point, once per
module): 128 K steps of 32, the last one partial, so its copies through registers are
masked by ``vector.create_mask`` of the columns left.  The front end peels the last K
tile(s) into the remainder loop and proves every mask full in the 126 iterations the
pipelined loop keeps; what stops the kernel then is the copies themselves (rows of 8190
bytes: no direct-to-LDS copy moves them, and register-staged copies are not built), said
at the copy.  Mutants of the kernel check each refusal of the peel.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pipeline_mlir.tools.pipeline_opt import main

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "test" / "data" / "iree"))
import generate as G  # noqa: E402

LOOP = "%33:16 = scf.for %arg2 = %c0 to %c128 step %c1"
MASK = "%72 = vector.create_mask %c1, %70 : vector<1x8xi1>"


@pytest.fixture(scope="module")
def prefetch() -> str:
    text = G.prefetch_point(G.matmul_source(dtype="bf16", k=4095), ())
    assert LOOP in text and MASK in text, "IREE's K = 4095 kernel changed shape"
    return text


def _run(capsys, tmp_path, text: str) -> tuple[int, str, str]:
    src = tmp_path / "k.mlir"
    src.write_text(text)
    rc = main(["--pipeline=4wave", str(src)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, err, text.splitlines()[int(err.split(":")[1]) - 1] if rc else ""


def test_masks_peeled_then_unaligned_copies_staged(prefetch, capsys, tmp_path):
    src = tmp_path / "k.mlir"
    src.write_text(prefetch)
    out = tmp_path / "p.mlir"
    rc = main(["--pipeline=4wave", str(src), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 0, err
    assert "sched.register_staged" in out.read_text()


@pytest.mark.parametrize("old,new,message,where", [
    (LOOP, "%c129 = arith.constant 129 : index\n" + LOOP.replace("%c128", "%c129"),
     "is masked to 7 of 8 elements in thread 3 in iteration 127, which the pipelined loop "
     "runs", "vector.transfer_read"),
    (MASK, MASK.replace("%70", "%20"), "has a mask whose size depends on a block argument",
     "vector.transfer_read"),
    (MASK, "%72 = arith.constant dense<true> : vector<1x8xi1>",
     "is masked by a value that is not a vector.create_mask", "vector.transfer_read"),
    (LOOP, LOOP.replace("%c128", "%arg0"),
     "has a masked last K tile and a trip count known only at run time", "scf.for"),
], ids=["partial-before-last", "workgroup-dependent", "not-create-mask", "dynamic-trips"])
def test_mask_peel_refusals(prefetch, capsys, tmp_path, old, new, message, where):
    rc, err, line = _run(capsys, tmp_path, prefetch.replace(old, new))
    assert rc == 1 and message in err, err
    assert re.search(r"\.mlir:\d+:\d+: error: ", err) and where in line, (err, line)
