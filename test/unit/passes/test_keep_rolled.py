"""``sched-keep-rolled`` on IREE's fp8 ``A^T x B`` 31x112x224 (``iree_configs.CONFIGS``).

Its 7 K steps: 2 merged into each K tile of the pipelined pair (whose steady loop runs no
trip, which LLVM removes), the other 3 in IREE's loop as written, the remainder: 2 trips
of a direct-to-LDS copy of B, A's byte loads and their LDS stores, one MFMA (the seventh
step's loop of one trip is its body).  With the pass the remainder stays a loop of the
assembly, each iteration's copy issued before its LDS stores as IREE wrote it; without it
LLVM unrolls the loop (its trip count known once the LLVM step narrows the index
arithmetic), and the unrolled second trip issued its copy after its stores
(``docs/iree-audits.md``, findings 100 and 105).
"""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.passes.keep_rolled import KeepRolled
from pipeline_mlir.tools.pipeline_opt import main

NAME = "fp8_atb_31x112x224"


def _build(generated, tmp_path, capsys, emit: str) -> str:
    out = tmp_path / f"k.{emit}"
    rc = main(["--pipeline=4wave", str(generated(NAME, "prefetch")), f"--emit={emit}",
               "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 0, err
    return out.read_text()


def _mfma_loops(asm: str) -> list[list]:
    """The natural loops of the kernel that hold an MFMA, each its instructions in layout
    order."""
    fn = parse_asm(asm).function()
    loops = [[i for b in blocks for i in b.instrs] for blocks in fn.loops()]
    return [body for body in loops if any(i.kind == "mfma" for i in body)]


def _first(body: list, kind: str) -> int:
    return next(k for k, i in enumerate(body) if i.kind == kind)


@pytest.mark.parametrize("cured", [True, False])
def test_the_remainder_loop_stays_a_loop_its_copy_before_its_stores(
        generated, tmp_path, capsys, monkeypatch, cured):
    if not cured:
        monkeypatch.setattr(KeepRolled, "run", lambda self, module: [])
    llvm = _build(generated, tmp_path, capsys, "llvm")
    assert ("llvm.loop.unroll.disable" in llvm) == cured
    loops = _mfma_loops(_build(generated, tmp_path, capsys, "asm"))
    if not cured:           # unrolled: the steady loop removed, no loop holds an MFMA
        assert loops == []
        return
    (body,) = loops
    kinds = {i.kind for i in body}
    assert {"vmem_load_lds", "ds_write", "barrier"} <= kinds, sorted(kinds)
    assert _first(body, "vmem_load_lds") < _first(body, "ds_write")
