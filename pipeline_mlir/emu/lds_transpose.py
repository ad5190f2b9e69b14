"""``ds_read_b64_tr_b16`` / ``ds_read_b64_tr_b8``: gfx950's transposing LDS reads of 16-bit
and 8-bit elements.

What it does (CDNA4 ISA section 11.4, "MFMA Transpose Load from LDS"; the lane exchange
as drawn in Triton's ``chooseLLDsReadB64TrLayout``, ``lib/Dialect/TritonGPU/IR/
LinearLayoutConversions.cpp``, and as ``amdgpu.transpose_load`` describes it: each lane
reads a vector of a column-major matrix and receives a row of its transpose):

* every lane gives an LDS byte address (``VGPR + offset``) of 8 bytes, four 16-bit
  elements ``D[lane][0..3]``;
* the 64 lanes work in four independent groups of 16 (lanes ``16 q .. 16 q + 15``); in a
  group, lanes ``4 e .. 4 e + 3`` together hold row ``e`` of a 4 x 16 tile (16 elements,
  lane ``4 e + j`` its columns ``4 j .. 4 j + 3``);
* lane ``l`` of the group receives column ``l`` of that tile: its element ``e`` is
  ``D[16 q + 4 e + l // 4][l % 4]`` (element 0 in the low half of the first register).

``ds_read_b64_tr_b8`` is the same exchange on 8 bytes of 8 one-byte elements: lanes
``2 e`` and ``2 e + 1`` of a group hold row ``e`` of an 8 x 16 tile and lane ``l``
receives its column ``l``, element ``e`` being ``D[16 q + 2 e + l // 8][l % 8]``
(:func:`~pipeline_mlir.target.gfx950.tr_source`).

For an MFMA B operand held K x N in LDS (N contiguous), lane ``4 e + j`` of a group points
at row ``k0 + e``, columns ``n0 + 4 j``, and lane ``l`` receives ``B[k0 .. k0 + 3][n0 + l]``,
the four K values the MFMA wants from it; two such reads fill its 8 elements.

The ISA requires EXEC to be all ones ("EXEC must be all 1s before executing these
instructions"): with any lane inactive the result is undefined, and the emulator reports
it (finding ``transpose-exec``) rather than guess.  A ``ds_read_b64_tr_b16`` address that
is not a multiple of the element size (2 bytes) is reported too (``misaligned``).  The instruction's step
(addresses, race check, lgkmcnt) is :func:`pipeline_mlir.emu.memops.compile_memory`'s;
this module is the data movement.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.target.gfx950 import WAVE_SIZE, tr_source

#: per element size in bytes, the source (lane, element) of each (lane, element) of the
#: result within the wave, each (64, 8 / size)
SOURCES = {size: tr_source(np.arange(WAVE_SIZE)[:, None], np.arange(8 // size)[None, :],
                           8 // size) for size in (1, 2)}


def transpose_read(data: np.ndarray) -> np.ndarray:
    """(..., 64, n) elements of ``8 / n`` bytes as the lanes read them -> as the lanes
    receive them (``n`` = 4: ``ds_read_b64_tr_b16``; 8: ``ds_read_b64_tr_b8``)."""
    lane, element = SOURCES[8 // data.shape[-1]]
    return data[..., lane, element]

