"""sched-buffer-soffset on IREE's kernels.

IREE's bf16 ``A x B^T`` matmul (test/data/iree, at the prefetch point and in its late
form), pipelined with ``--pipeline=4wave``: its copies' offsets are signed floor divisions
and remainders of differences in which the wave's part cancels, the workgroup's tile and
the K column added on top.  The pass splits every copy's offset anyway, so the assembly's
main loop keeps no vector instruction for the copies' addresses (neither a ``v_add`` for
the K column nor a ``v_readfirstlane`` for the LDS address).  That the kernels still
compute C exactly is checked on the emulator (test/unit/tools/test_iree_emulate.py and
test_iree_configurations.py); the rules one by one are in the lit test
(test/lit/passes/sched-buffer-soffset.mlir).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.tools.pipeline_opt import main

DATA = Path(__file__).parents[2] / "data" / "iree"
#: a buffer->LDS copy in gfx950 assembly: its VGPR offset and its scalar offset
COPY = re.compile(r"^\s*buffer_load_dwordx4 (\S+), s\[\d+:\d+\], (\S+) offen lds", re.M)


@pytest.fixture(scope="module", params=["prefetch", "late"])
def asm(request, tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("soffset") / f"{request.param}.s"
    src = DATA / f"matmul_bf16_abt_4096.{request.param}.mlir"
    assert main(["--pipeline=4wave", str(src), "--emit=asm", "-o", str(out)]) == 0
    return out.read_text()


def test_every_copy_has_a_scalar_offset(asm):
    copies = COPY.findall(asm)
    assert len(copies) == 16                     # 8 before the loop, 8 in it
    assert all(re.fullmatch(r"s\d+", soffset) for _, soffset in copies), copies


def test_the_main_loop_computes_no_address_in_vector_registers(asm):
    loop = [i for b in parse_asm(asm).function().main_loop() for i in b.instrs]
    assert sum(1 for i in loop if i.mnemonic == "buffer_load_dwordx4") == 8
    valu = [i.mnemonic for i in loop if i.kind == "valu"]
    # the prefetch form's 64-bit loop counter is compared in a vector instruction
    assert all(m.startswith("v_cmp_") for m in valu), valu
    assert "v_readfirstlane_b32" not in valu
