"""The dword copies of the 4-wave kernel (``dma=dword``, ``kernel/dword_dma.py``):
on the front end's per-lane address analysis, its copies write every LDS element the x4
copies write, from the same global element, in both K steps the analysis evaluates."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline_mlir.dialect.bindings import ir, new_context
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.natural import analyse_loop, find_natural_loops
from pipeline_mlir.kernel import dword_dma, gemm_mlir
from pipeline_mlir.kernel.gemm import gemm_kernel
from pipeline_mlir.schedules.registry import parse_pipeline


def _copies(spec: str):
    """(copies, {(LDS buffer, global buffer): {LDS element: (source at K0, at K0 + step)}})
    of the natural kernel of ``spec``; an element written twice is an error."""
    k = gemm_kernel(parse_pipeline(spec))
    with new_context():
        module = ir.Module.parse(gemm_mlir.natural_kernel_mlir(k))
        an = analyse_loop(find_natural_loops(module.operation)[0])
    out: dict = {}
    for c in an.copies:
        into = out.setdefault((c.buffer, c.source), {})
        for e, s0, s1 in zip(*(np.asarray(x).ravel() for x in (c.lds, c.src0, c.src1))):
            assert int(e) not in into, f"LDS element {e} written twice"
            into[int(e)] = (int(s0), int(s1))
    return len(an.copies), out


TILE = "dtype=bf16 BM=256 BN=256 BK=64"


@pytest.mark.parametrize("tile", [TILE,
                                  "dtype=fp8 BM=256 BN=256 BK=128"])
def test_dword_copies_move_what_the_x4_copies_move(tile):
    n4, x4 = _copies(f"4wave{{{tile} dma=x4}}")
    n1, dword = _copies(f"4wave{{{tile} dma=dword}}")
    assert n1 == 4 * n4
    assert dword == x4


def test_a_misplaced_piece_is_seen(monkeypatch):
    """One piece writing the next piece's LDS bytes is refused by the front end."""
    step = dword_dma.lds_step
    monkeypatch.setattr(dword_dma, "lds_step",
                        lambda t, i: step(t, i) + (64 if i % 4 == 1 else 0))
    with pytest.raises(IRError, match="also writes in the same iteration"):
        _copies(f"4wave{{{TILE} dma=dword}}")


def test_a_wrong_swizzle_phase_is_seen(monkeypatch):
    """Lane parts computed for the wrong swizzle phase write the same LDS elements from
    other global elements: the comparison with the x4 copies fails."""
    part = dword_dma.dword_lane_part
    monkeypatch.setattr(dword_dma, "dword_lane_part",
                        lambda t, name, phase: part(t, name, phase + 1))
    _, x4 = _copies(f"4wave{{{TILE} dma=x4}}")
    _, dword = _copies(f"4wave{{{TILE} dma=dword}}")
    assert dword.keys() == x4.keys()
    assert all(dword[b].keys() == x4[b].keys() for b in x4)
    assert dword != x4
