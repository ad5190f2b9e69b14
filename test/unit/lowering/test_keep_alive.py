"""Every accumulator the pipelined loop computes is computed in the code, stored or not
(``pipeline_mlir/lowering/keep_alive.py``): IREE's committed bf16 kernel at its prefetch
point with one row of its accumulators left unstored (the store takes another row's tile in
their place: a defined kernel) keeps all its MFMAs and the fragment reads they use, so the
waits the schedule counts over them still cover what they were counted for."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline_mlir.driver import CompileOptions, compile

ROOT = Path(__file__).parents[3]
KERNEL = ROOT / "test/data/iree/matmul_bf16_abt_4096.prefetch.mlir"
#: the epilogue's inserts of the first row of accumulators (%47..%50) into C's tile
ROW = re.compile(r"^( *%6[3-6] = vector\.insert_strided_slice) %(47|48|49|50),", re.M)


def unstored_row(text: str) -> str:
    """``text`` with the first row of accumulators replaced, in the stored tile, by %51."""
    out, n = ROW.subn(r"\1 %51,", text)
    assert n == 4, "the committed kernel's epilogue changed: update ROW"
    return out


def test_unstored_accumulators_keep_their_mfmas():
    result = compile(CompileOptions(schedule="4wave", text=unstored_row(KERNEL.read_text()),
                                    emit="asm", stages=("mlir",)))
    asm, lowered = result.checked_output(), result.stages["mlir"]
    if isinstance(asm, bytes):
        asm = asm.decode()
    emitted = len(re.findall(r"\bamdgpu\.mfma\b", lowered))
    issued = len(re.findall(r"^\s+v_mfma_", asm, re.M))
    assert emitted > 0 and issued == emitted
    # the keep-alive issues nothing: an empty asm (LLVM's comments around it, no instruction)
    body = re.search(r";;#ASMSTART\n(.*?);;#ASMEND", asm, re.S)
    assert body is not None and body.group(1).strip() == ""
