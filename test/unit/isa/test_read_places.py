"""Where each ``ds_read``'s result goes (``pipeline_mlir/isa/read_places.py``): its
destination registers followed through copies to the MFMA operand bytes they are, or the
reason they are not followed; the MFMAs' accumulator chains."""

from __future__ import annotations

from pipeline_mlir.isa.asm import parse_asm
from pipeline_mlir.isa.read_places import loaded_addresses, mfma_chains, read_places

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


#: a loop of three MFMAs of one accumulator (the second reads the first's result through
#: AGPR copies, the third writes it back to the registers the first reads), one after it;
#: then a chain of two whose first's result another MFMA reads but for a register
#: overwritten (in part)
CHAINS = """
\tv_mov_b32_e32 v0, 0
.LBB0_1:
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[10:13], v[14:17], v[0:3]
\tv_accvgpr_write_b32 a0, v0
\tv_accvgpr_write_b32 a1, v1
\tv_accvgpr_write_b32 a2, v2
\tv_accvgpr_write_b32 a3, v3
\tv_mfma_f32_16x16x32_bf16 v[4:7], v[18:21], v[22:25], a[0:3]
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[26:29], v[30:33], v[4:7]
\ts_cbranch_scc1 .LBB0_1
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[10:13], v[14:17], v[0:3]
\tv_mfma_f32_16x16x32_bf16 v[40:43], v[10:13], v[14:17], v[48:51]
\tv_mfma_f32_16x16x32_bf16 v[44:47], v[10:13], v[14:17], v[40:43]
\tv_mov_b32_e32 v42, v50
\tv_mfma_f32_16x16x32_bf16 v[40:43], v[10:13], v[14:17], v[40:43]
\ts_endpgm
"""


def test_the_mfmas_accumulator_chains_are_followed_across_copies_and_the_back_edge():
    """The loop's three MFMAs and the one after it are one chain, at places 0..3 (the
    first is fed only across the back edge, by the third); an MFMA whose result another
    reads as its accumulator but for a register written between them is a chain not
    followed, said why, with the MFMA its result reaches whole."""
    fn = parse_asm(CHAINS).function()
    m = sorted(i.line for i in fn.instrs() if i.kind == "mfma")
    c = mfma_chains(fn)
    assert len({c.chain[x] for x in m[:4]}) == 1 and [c.place[x] for x in m[:4]] == \
        [0, 1, 2, 3]
    assert sorted(c.links[m[2]]) == [(m[0], True), (m[3], False)]
    assert not set(m[:4]) & set(c.why)
    assert c.links[m[4]] == [(m[5], False)] and "in part" in c.why[m[4]] and \
        c.chain[m[5]] == c.chain[m[4]] and m[5] in c.why


SPILLED = """
\tv_mov_b32_e32 v8, 0
.LBB0_1:
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[10:13], v[14:17], v[8:11]
\tv_mfma_f32_16x16x32_bf16 v[4:7], v[18:21], v[22:25], v[0:3]
\tscratch_store_dwordx4 off, v[4:7], off offset:32
\tscratch_load_dwordx4 v[8:11], off, off offset:32
\ts_waitcnt vmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[8:11], v[26:29], v[30:33], v[8:11]
\ts_cbranch_scc1 .LBB0_1
\ts_endpgm
"""


def test_a_chain_whose_accumulator_is_spilled_is_not_followed():
    """An accumulator spilled to scratch between two MFMAs of its chain and reloaded (as
    IREE's 16-wave BF16 kernel does): the walk loses that link, so the chain (joined across
    the back edge) has two MFMAs no MFMA feeds but across it, whose places counted from
    either disagree with the plan's (the gate refused that exact kernel).  Not followed,
    said why (the spill: two starts alone are not, else two MFMAs given each other's
    accumulator would be a chain not followed, passed)."""
    fn = parse_asm(SPILLED).function()
    m = sorted(i.line for i in fn.instrs() if i.kind == "mfma")
    c = mfma_chains(fn)
    assert len({c.chain[x] for x in m}) == 1 and set(m) <= set(c.why) and \
        "spilled to scratch" in c.why[m[0]], c
