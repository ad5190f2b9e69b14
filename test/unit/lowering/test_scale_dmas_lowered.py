"""The 128x128 MX kernels as built: the lowering marks each global load's scale DMAs
(pipeline_mlir/lowering/materialize.py) and their interleave pipelines put the element DMAs
after the MMA's first MFMAs and the scale DMAs after its last one
(pipeline_mlir/schedule/scale_dmas.py)."""

from __future__ import annotations

import pytest


def _loop_blocks(asm: str) -> list[list[str]]:
    """The main loop's instructions, cut after each scale DMA (the last DMA of a block):
    per block the MFMAs (``M``), element DMAs (``x4``) and scale DMAs (``s``) in order."""
    from kernel_builds import main_loop

    lines, span = main_loop(asm)
    out, cur = [], []
    for line in (lines[i] for i in span):
        if "v_mfma" in line:
            cur.append("M")
        elif "buffer_load_dwordx4" in line and " lds" in line:
            cur.append("x4")
        elif "buffer_load_dword " in line and " lds" in line:
            cur.append("s")
            out.append(cur)
            cur = []
    return out


@pytest.mark.parametrize("key", ["4wave-mxfp8-128", "4wave-mxfp4-128"])
def test_the_128x128_mx_kernels_issue_their_scale_dmas_after_the_last_mfma(key):
    from kernel_builds import build

    b = build(key)     # shared with test_mx_scale_waits.py
    assert not b.plan.spread_loads
    blocks = _loop_blocks(b.asm)
    assert len(blocks) == 8
    mfmas = b.kernel.mfmas_per_mma
    for blk in blocks:
        # the element DMAs follow the first MFMAs, the scale DMA the MMA's last MFMA
        first_dmas = [i for i, k in enumerate(blk) if k == "x4"]
        assert blk[first_dmas[0] - 1:first_dmas[0]] == ["M"], blk
        assert blk[-1] == "s" and blk.count("M") == mfmas, blk
        assert blk[-2] in ("M", "x4") and "M" not in blk[blk.index("s"):], blk
        assert blk[:blk.index("x4")].count("M") == 1, blk
