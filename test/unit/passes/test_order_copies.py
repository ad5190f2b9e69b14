"""``sched-order-copies`` on IREE's fp8 ``A^T x B`` 31x112x224 (``iree_configs.CONFIGS``).

Its 7 K steps: 2 merged into each K tile of the pipelined pair (whose steady loop runs no
trip), the other 3 in IREE's loop as written, the remainder: 2 trips of A's byte loads, a
direct-to-LDS copy of B, A's LDS stores, one MFMA, between barriers (the seventh step's
loop of one trip is its body).  LLVM unrolls the 2 trips.  With the pass every stretch of
the assembly between two barriers that holds both a direct-to-LDS copy and an LDS store
issues its copies before its stores, as IREE wrote them; without it LLVM's scheduler
issued the second trip's copy after its stores (``docs/iree-audits.md``, findings 100 and
105).
"""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.passes.order_copies import OrderCopies
from pipeline_mlir.tools.pipeline_opt import main

NAME = "fp8_atb_31x112x224"


def _build(generated, tmp_path, capsys, emit: str) -> str:
    out = tmp_path / f"k.{emit}"
    rc = main(["--pipeline=4wave", str(generated(NAME, "prefetch")), f"--emit={emit}",
               "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 0, err
    return out.read_text()


def _stretches(asm: str) -> list[list[str]]:
    """The kinds of the kernel's instructions in layout order, cut at every barrier: the
    stretches that hold both a direct-to-LDS copy and an LDS store."""
    fn = parse_asm(asm).function()
    out, cur = [], []
    for i in [i for b in fn.blocks for i in b.instrs] + [None]:
        if i is None or i.kind == "barrier":
            if {"vmem_load_lds", "ds_write"} <= set(cur):
                out.append(cur)
            cur = []
        else:
            cur.append(i.kind)
    return out


def _copies_first(kinds: list[str]) -> bool:
    last_copy = len(kinds) - 1 - kinds[::-1].index("vmem_load_lds")
    return last_copy < kinds.index("ds_write")


@pytest.mark.parametrize("ordered", [True, False])
def test_the_remainder_issues_its_copies_before_its_stores(
        generated, tmp_path, capsys, monkeypatch, ordered):
    if not ordered:
        monkeypatch.setattr(OrderCopies, "run", lambda self, module: [])
    llvm = _build(generated, tmp_path, capsys, "llvm")
    assert ("llvm.loop.unroll.full" in llvm) == ordered
    stretches = _stretches(_build(generated, tmp_path, capsys, "asm"))
    # the remainder's two trips (unrolled either way) and the pipelined pair's
    assert len(stretches) >= 2, stretches
    assert all(map(_copies_first, stretches)) == ordered
