"""Where each ``ds_read``'s result goes (``pipeline_mlir/isa/read_places.py``): its
destination registers followed through copies to the MFMA operand bytes they are, or the
reason they are not followed."""

from __future__ import annotations

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.read_places import loaded_addresses, read_places

SNIPPET = """
\tds_read_b128 v[0:3], v10
\tds_read_b128 v[4:7], v11
\tds_read_b128 v[40:43], v12
\tds_read_b128 v[44:47], v13
\tds_read_b128 v[48:51], v14
\tds_read_b128 v[52:55], v15
\ts_waitcnt lgkmcnt(0)
\tv_mov_b64 v[22:23], v[42:43]
\tv_mov_b32_e32 v20, v40
\tv_mov_b32_e32 v21, v41
\tv_mov_b64 v[24:25], v[54:55]
\tv_mov_b64 v[26:27], v[52:53]
\tv_perm_b32 v60, v44, v45, 0x5040100
\tv_mfma_f32_16x16x128_f8f6f4 v[30:33], v[0:7], v[20:27], v[30:33]
\ts_endpgm
"""


def test_each_read_is_followed_to_its_operand_bytes_or_said_why_not():
    """A read straight into A (bytes 0 and 16), one copied into B's bytes 0..15 by
    ``v_mov_b32`` / ``v_mov_b64``; one whose halves are copied into B crosswise (out of
    order), one a ``v_perm_b32`` reads, one no MFMA reads: each not followed, saying why."""
    places = {i: p for i, (_, p) in enumerate(sorted(read_places(
        parse_asm(SNIPPET).function()).items()))}
    assert {(o, at) for o, at, *_ in places[0].places} == {("A", 0)}
    assert {(o, at) for o, at, *_ in places[1].places} == {("A", 16)}
    assert {(o, at) for o, at, *_ in places[2].places} == {("B", 0)}
    assert not places[3].places and "v_perm_b32" in places[3].why
    assert not places[4].places and "reach no MFMA" in places[4].why
    assert not places[5].places and "out of order" in places[5].why


def test_an_address_a_read_or_global_load_wrote_is_found_a_spill_reload_is_not():
    """A ``ds_read`` at a register another ``ds_read`` or a ``global_load`` wrote (data) is
    named with that load's line; one at a register a ``scratch_load`` wrote (LLVM reloading
    a spilled address, IREE's 8-wave 32x32x16 kernels) or a VALU computed is not."""
    fn = parse_asm("""
\tds_read_b128 v[0:3], v10
\tglobal_load_dword v11, v[20:21], off
\tscratch_load_dword v12, off, off offset:4
\tv_add_u32_e32 v13, 16, v14
\ts_waitcnt vmcnt(0) lgkmcnt(0)
\tds_read_b128 v[4:7], v3
\tds_read_b128 v[8:11], v11
\tds_read_b128 v[24:27], v12
\tds_read_b128 v[28:31], v13
\ts_endpgm
""").function()
    lines = {i.text.split()[0] + " " + i.operands[0]: i.line for i in fn.instrs() if i.operands}
    found = loaded_addresses(fn)
    assert found == {lines["ds_read_b128 v[4:7]"]: lines["ds_read_b128 v[0:3]"],
                     lines["ds_read_b128 v[8:11]"]: lines["global_load_dword v11"]}
