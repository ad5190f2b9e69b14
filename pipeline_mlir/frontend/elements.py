"""The MFMA operand element types the front end takes, in one table.

:data:`ELEMENTS` maps each MLIR element type of A and B to the name the emulator's
reference encodes it by (:mod:`pipeline_mlir.emu.expect`); :data:`SCHEDULE_DTYPES` is
derived from it: the schedules' dtype of each (a key of
:data:`pipeline_mlir.schedules.geometry.DTYPES`, the target's bytes per element), the
reference's name itself but for the 8-bit float formats, which one ``fp8`` schedule runs
(gfx950's ``f8f6f4`` MFMAs take E4M3 or E5M2, the format in their ``cbsz``/``blgp``
fields: :data:`pipeline_mlir.target.gfx950.F8F6F4_FORMATS`).
"""

from __future__ import annotations

#: A and B element types -> the names the emulator's reference encodes them by
ELEMENTS = {"bf16": "bf16", "f16": "f16", "f8E4M3FN": "fp8", "f8E5M2": "fp8e5m2", "i8": "i8",
            "f32": "f32"}
#: the element types whose MFMA takes one element of A and of B a lane, as a scalar operand
#: (``amdgpu.mfma 16x16x4`` on ``f32``: ``v_mfma_f32_16x16x4_f32``, IREE's f32 matmuls)
SCALAR_OPERANDS = frozenset({"f32"})
#: the reference's names that are not a schedule dtype -> the schedule that runs them
_SCHEDULE_OF = {"fp8e5m2": "fp8"}
#: A and B element types -> the schedules' dtype names
SCHEDULE_DTYPES = {et: _SCHEDULE_OF.get(ref, ref) for et, ref in ELEMENTS.items()}
