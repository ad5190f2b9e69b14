"""pipeline_mlir.isa.asm: instructions, waits, blocks, loops, phases, metadata."""

from __future__ import annotations

import re

import pytest
import yaml

import pipeline_mlir.isa.asm as asm_module
from kernel_builds import KERNEL_SPECS, build
from pipeline_mlir.isa.asm import (AsmError, kernel_spills, metadata_document, parse_asm,
                                   parse_yaml, spill_counts)
from pipeline_mlir.isa.asm_instr import parse_instruction, registers
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.sim.instr import KINDS
from pipeline_mlir.isa.waitcnt import waitcnt_imm


@pytest.mark.parametrize("text, mnemonic, operands, modifiers, kind, defs, uses", [
    ("v_mfma_f32_16x16x32_bf16 v[10:13], v[174:177], v[158:161], v[10:13]",
     "v_mfma_f32_16x16x32_bf16", ("v[10:13]", "v[174:177]", "v[158:161]", "v[10:13]"), (),
     "mfma", "v10 v11 v12 v13", "v174 v175 v176 v177 v158 v159 v160 v161 v10 v11 v12 v13 exec"),
    ("v_mfma_f32_16x16x128_f8f6f4 a[0:3], v[0:7], v[8:15], a[0:3] cbsz:1 blgp:2",
     "v_mfma_f32_16x16x128_f8f6f4", ("a[0:3]", "v[0:7]", "v[8:15]", "a[0:3]"),
     ("cbsz:1", "blgp:2"), "mfma", "a0 a1 a2 a3",
     "v0 v1 v2 v3 v4 v5 v6 v7 v8 v9 v10 v11 v12 v13 v14 v15 a0 a1 a2 a3 exec"),
    ("buffer_load_dwordx4 v151, s[16:19], 0 offen lds", "buffer_load_dwordx4",
     ("v151", "s[16:19]", "0"), ("offen", "lds"), "vmem_load_lds", "",
     "v151 s16 s17 s18 s19 exec m0"),
    ("buffer_load_dwordx4 v[0:3], v4, s[0:3], 0 offen", "buffer_load_dwordx4",
     ("v[0:3]", "v4", "s[0:3]", "0"), ("offen",), "vmem_load", "v0 v1 v2 v3",
     "v4 s0 s1 s2 s3 exec"),
    ("global_load_lds_dwordx4 v[2:3], off", "global_load_lds_dwordx4", ("v[2:3]", "off"), (),
     "vmem_load_lds", "", "v2 v3 exec m0"),
    # the destination read too: s0 += 0x1000; s0 kept when SCC is clear; an accumulation
    ("s_addk_i32 s44, 0x1000", "s_addk_i32", ("s44", "0x1000"), (), "salu", "s44 scc", "s44"),
    ("s_cmov_b32 s4, s5", "s_cmov_b32", ("s4", "s5"), (), "salu", "s4", "s4 s5 scc"),
    ("v_fmac_f32_e32 v1, v2, v3", "v_fmac_f32_e32", ("v1", "v2", "v3"), (), "valu", "v1",
     "v1 v2 v3 exec"),
    ("ds_read_b128 v[162:165], v135 offset:64", "ds_read_b128", ("v[162:165]", "v135"),
     ("offset:64",), "ds_read", "v162 v163 v164 v165", "v135 exec"),
    ("ds_read2_b64 v[0:3], v4 offset1:8", "ds_read2_b64", ("v[0:3]", "v4"), ("offset1:8",),
     "ds_read", "v0 v1 v2 v3", "v4 exec"),
    ("ds_write_b128 v1, v[2:5] offset:16", "ds_write_b128", ("v1", "v[2:5]"), ("offset:16",),
     "ds_write", "", "v1 v2 v3 v4 v5 exec"),
    ("buffer_store_dword v19, v18, s[0:3], 0 offen offset:64", "buffer_store_dword",
     ("v19", "v18", "s[0:3]", "0"), ("offen", "offset:64"), "vmem_store", "",
     "v19 v18 s0 s1 s2 s3 exec"),
    ("s_load_dwordx8 s[8:15], s[0:1], 0x68", "s_load_dwordx8", ("s[8:15]", "s[0:1]", "0x68"),
     (), "smem", "s8 s9 s10 s11 s12 s13 s14 s15", "s0 s1"),
    ("s_and_saveexec_b64 s[12:13], vcc", "s_and_saveexec_b64", ("s[12:13]", "vcc"), (), "salu",
     "s12 s13 scc exec", "vcc exec"),
    ("v_cmp_lt_u32_e32 vcc, s13, v0", "v_cmp_lt_u32_e32", ("vcc", "s13", "v0"), (), "valu",
     "vcc", "s13 v0 exec"),
    # gfx9's v_cmpx writes its compare to vcc (the e64 form: an SGPR pair) and to exec
    ("v_cmpx_gt_u32_e32 vcc, s0, v1", "v_cmpx_gt_u32_e32", ("vcc", "s0", "v1"), (), "valu",
     "vcc exec", "s0 v1 exec"),
    ("v_cmpx_gt_u32_e64 s[2:3], s0, v1", "v_cmpx_gt_u32_e64", ("s[2:3]", "s0", "v1"), (),
     "valu", "s2 s3 exec", "s0 v1 exec"),
    ("v_swap_b32 v1, v2", "v_swap_b32", ("v1", "v2"), (), "valu", "v1 v2", "v1 v2 exec"),
    ("s_cselect_b64 s[4:5], -1, 0", "s_cselect_b64", ("s[4:5]", "-1", "0"), (), "salu",
     "s4 s5", "scc"),
    ("s_cmp_lg_u64 s[4:5], 0", "s_cmp_lg_u64", ("s[4:5]", "0"), (), "salu", "scc", "s4 s5"),
    # SCC as the ISA and the emulator give it: the shift-adds write their carry, the bit
    # mask and bit scans write none
    ("s_lshl2_add_u32 s0, s1, s2", "s_lshl2_add_u32", ("s0", "s1", "s2"), (), "salu",
     "s0 scc", "s1 s2"),
    ("s_lshl4_add_u32 s0, s1, 16", "s_lshl4_add_u32", ("s0", "s1", "16"), (), "salu",
     "s0 scc", "s1"),
    ("s_bfm_b32 s0, 8, 4", "s_bfm_b32", ("s0", "8", "4"), (), "salu", "s0", ""),
    ("s_ff1_i32_b32 s0, s1", "s_ff1_i32_b32", ("s0", "s1"), (), "salu", "s0", "s1"),
    ("s_flbit_i32_b32 s0, s1", "s_flbit_i32_b32", ("s0", "s1"), (), "salu", "s0", "s1"),
    ("v_mad_u64_u32 v[2:3], s[4:5], v1, s2, v[2:3]", "v_mad_u64_u32",
     ("v[2:3]", "s[4:5]", "v1", "s2", "v[2:3]"), (), "valu", "v2 v3 s4 s5", "v1 s2 v2 v3 exec"),
    ("s_mov_b32 m0, s24", "s_mov_b32", ("m0", "s24"), (), "salu", "m0", "s24"),
    ("s_cbranch_vccnz .LBB0_3", "s_cbranch_vccnz", (".LBB0_3",), (), "branch", "", "vcc"),
    ("s_barrier", "s_barrier", (), (), "barrier", "", ""),
    ("s_endpgm", "s_endpgm", (), (), "other", "", ""),
    ("v_add_u32_e32 v150, v143, v0 ; a comment", "v_add_u32_e32", ("v150", "v143", "v0"), (),
     "valu", "v150", "v143 v0 exec"),
])
def test_instruction_fields(text, mnemonic, operands, modifiers, kind, defs, uses):
    i = parse_instruction(text, 7)
    assert (i.mnemonic, i.operands, i.modifiers, i.kind) == (mnemonic, operands, modifiers, kind)
    assert i.defs == tuple(defs.split()) and i.uses == tuple(uses.split())
    assert i.line == 7 and i.text == text.strip() and i.kind in KINDS


@pytest.mark.parametrize("text, vm, lgkm", [
    ("s_waitcnt vmcnt(3) lgkmcnt(0)", 3, 0),
    ("s_waitcnt vmcnt(0) & lgkmcnt(0)", 0, 0),
    ("s_waitcnt lgkmcnt(8)", None, 8),
    ("s_waitcnt vmcnt(63)", None, None),
    ("s_waitcnt_vmcnt null, 0x5", 5, None),
    ("s_waitcnt_lgkmcnt null, 0x0", None, 0),
])
def test_waitcnt_text_forms(text, vm, lgkm):
    i = parse_instruction(text, 1)
    assert (i.kind, i.vm, i.lgkm) == ("wait", vm, lgkm)


@pytest.mark.parametrize("vm", [None, 0, 1, 6, 15, 16, 33, 62])
@pytest.mark.parametrize("lgkm", [None, 0, 4, 14])
def test_waitcnt_raw_immediates_decode(vm, lgkm):
    # the encoder of the lowering and the decoder of the reader agree on every field
    imm = waitcnt_imm(vmcnt=vm, lgkmcnt=lgkm)
    for text in (f"s_waitcnt {imm}", f"s_waitcnt 0x{imm:x}"):
        i = parse_instruction(text, 1)
        assert (i.vm, i.lgkm) == (vm, lgkm)
    assert parse_instruction("s_waitcnt 0", 1).exp == 0


@pytest.mark.parametrize("text, message", [
    ("s_waitcnt vmcnt(64)", "vmcnt(64) is outside"),
    ("s_waitcnt lgkmcnt(16)", "lgkmcnt(16) is outside"),
    ("s_waitcnt vmcnt(1) vmcnt(2)", "names vmcnt twice"),
    ("s_waitcnt foo(1)", "neither counters nor an immediate"),
    ("s_waitcnt vmcnt(1) foo(1)", "is not vmcnt(n)"),
    ("s_waitcnt 0x10000", "outside 0..0xffff"),
    ("s_setprio high", "is not an integer"),
    ("v_add_u32 v[5:3], v1, v2", "ends before it starts"),
    ("v_add_u32 v[5:], v1, v2", "malformed register"),
    ("v_add_u32 v1, , v2", "empty operand"),
    ("%0 = add i32 1, 2", "not a gfx9 instruction"),
    ("mov eax, 1", "not a gfx9 instruction"),
])
def test_bad_instructions_are_located(text, message):
    with pytest.raises(AsmError, match=re.escape(message)) as e:
        parse_instruction(text, 12)
    assert str(e.value).startswith("line 12: ") and isinstance(e.value, PipelineError)


def test_fences_are_pseudo_instructions():
    sb = parse_instruction("; sched_barrier mask(0x00000000)", 3)
    assert (sb.mnemonic, sb.kind, sb.value, sb.defs, sb.uses) == ("sched_barrier",
                                                                  "sched_barrier", 0, (), ())
    g = parse_instruction("; sched_group_barrier mask(0x00000008) size(1) SyncID(0)", 4)
    assert (g.kind, g.value, g.operands) == ("sched_group_barrier", 8,
                                             ("mask(0x00000008)", "size(1)", "SyncID(0)"))
    with pytest.raises(AsmError, match="without a mask"):
        parse_instruction("; sched_barrier", 5)


def test_registers():
    assert registers("v[8:11]") == ("v8", "v9", "v10", "v11")
    assert registers("-v3") == ("v3",) and registers("|v4|") == ("v4",)
    assert registers("vcc_lo") == ("vcc",) and registers("exec_hi") == ("exec",)
    assert registers("ttmp[4:5]") == ("ttmp4", "ttmp5")
    assert registers("0x88") == () and registers("off") == () and registers(".LBB0_2") == ()


# a kernel shaped like LLVM's: entry, a return block laid out early (a forward edge to
# an earlier block, not a loop), an outer loop holding an inner MFMA loop, an epilogue
SNIPPET = """\
\t.text
\t.globl k
\t.type k,@function
k:                                      ; @k
; %bb.0:
\ts_load_dwordx2 s[0:1], s[4:5], 0x0
\ts_waitcnt lgkmcnt(0)
\ts_cbranch_scc1 .LBB0_3
.LBB0_1:                                ; %ret
\ts_endpgm
.LBB0_3:                                ; =>Outer Loop Header: Depth=1
\tbuffer_load_dwordx4 v1, s[0:3], 0 offen lds
.LBB0_4:                                ; =>This Inner Loop Header: Depth=2
\t; sched_barrier mask(0x00000000)
\ts_waitcnt vmcnt(0)
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
\ts_cbranch_vccnz .LBB0_4
; %bb.5:
\tds_read_b128 v[4:7], v2
\ts_cbranch_vccnz .LBB0_3
; %bb.6:                                ; %epi
\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
\tbuffer_store_dword v0, v1, s[0:3], 0 offen
\ts_branch .LBB0_1
.Lfunc_end0:
\t.size k, .Lfunc_end0-k
"""


def test_blocks_edges_and_loops():
    fn = parse_asm(SNIPPET).function("k")
    assert [(b.label, b.succs) for b in fn.blocks] == [
        ("%bb.0", [".LBB0_3", ".LBB0_1"]), (".LBB0_1", []), (".LBB0_3", [".LBB0_4"]),
        (".LBB0_4", [".LBB0_4", "%bb.5"]), ("%bb.5", [".LBB0_3", "%bb.6"]),
        ("%bb.6", [".LBB0_1"])]
    assert fn.block(".LBB0_4").comment == "=>This Inner Loop Header: Depth=2"
    assert fn.block("%bb.6").comment == "%epi"
    loops = [[b.label for b in lp] for lp in fn.loops()]
    # %bb.6 -> .LBB0_1 goes back in layout but .LBB0_1 does not dominate it: no loop
    assert loops == [[".LBB0_4"], [".LBB0_3", ".LBB0_4", "%bb.5"]]
    assert [b.label for b in fn.main_loop()] == [".LBB0_4"]
    ph = fn.main_loop_phases()
    assert [i.mnemonic for i in ph["loop"]] == ["sched_barrier", "s_waitcnt",
                                                "v_mfma_f32_16x16x32_bf16",
                                                "v_mfma_f32_16x16x32_bf16", "s_cbranch_vccnz"]
    assert [i.line for i in ph["prologue"]] == [6, 7, 8, 10, 12]
    assert [i.kind for i in ph["epilogue"]] == ["ds_read", "branch", "mfma", "vmem_store",
                                                "branch"]


def test_local_alias_label_is_the_same_function():
    # Mojo's assembly labels each kernel twice: 'k:' then '.Lk$local:' (also typed @function)
    text = SNIPPET.replace("k:                                      ; @k\n",
                           "k:                                      ; @k\n.Lk$local:\n"
                           "\t.type .Lk$local,@function\n")
    assert ".Lk$local:" in text
    m = parse_asm(text)
    assert [f.name for f in m.functions] == ["k"]
    assert [b.label for b in m.function().main_loop()] == [".LBB0_4"]
    # a '$local' label after the first instruction is not an alias but a new function
    late = SNIPPET.replace("\ts_waitcnt lgkmcnt(0)\n", "\ts_waitcnt lgkmcnt(0)\n.Lk$local:\n"
                           "\t.type .Lk$local,@function\n")
    assert len(parse_asm(late).functions) == 2


def _far(n: int, target: str) -> str:
    """LLVM's long branch number ``n`` to ``target`` (one beyond ``s_cbranch``'s 16-bit
    offset): ``s_getpc_b64``, the target's offset from the label after it added,
    ``s_setpc_b64``."""
    return (f"\ts_getpc_b64 s[98:99]\n.Lpost_getpc{n}:\n"
            f"\ts_add_u32 s98, s98, ({target}-.Lpost_getpc{n})&4294967295\n"
            f"\ts_addc_u32 s99, s99, ({target}-.Lpost_getpc{n})>>32\n\ts_setpc_b64 s[98:99]\n")


#: a K-loop closed (and left) by long branches, as in IREE's forced dynamic-K kernel (1.2 MB
#: of code), a copy loop nested in it
LONG = ("k:\n\ts_cbranch_scc1 .LBB0_1\n" + _far(0, ".LBB0_9") +
        ".LBB0_1:\n\tv_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n"
        ".LBB0_2:\n\tds_write_b16 v1, v2\n\ts_cbranch_vccnz .LBB0_2\n"
        "; %bb.3:\n\ts_cbranch_execnz .LBB0_4\n" + _far(1, ".LBB0_1") +
        ".LBB0_4:\n\ts_setpc_b64 s[30:31]\n.LBB0_9:\n\ts_endpgm\n")


@pytest.mark.parametrize("edit,succs,loop", [
    (None, [".LBB0_1"], [".LBB0_1", ".LBB0_2", "%bb.3", "<anon@15>", ".Lpost_getpc1"]),
    # a setpc of another pair, or an add from another label: no known target
    (("s_setpc_b64 s[98:99]\n.LBB0_4", "s_setpc_b64 s[96:97]\n.LBB0_4"), [], None),
    (("(.LBB0_1-.Lpost_getpc1)&4294967295", "(.LBB0_1-.Lpost_getpc0)&4294967295"), [], None),
], ids=["long branch", "other pair", "other label"])
def test_a_long_branch_is_an_edge(edit, succs, loop):
    text = LONG if edit is None else LONG.replace(*edit)
    assert edit is None or text != LONG
    fn = parse_asm(text).function()
    assert fn.block(".Lpost_getpc0").succs == [".LBB0_9"]
    assert fn.block(".Lpost_getpc1").succs == succs
    assert fn.block(".LBB0_4").succs == []          # a return: no successor
    if loop is None:
        with pytest.raises(AsmError, match="no loop holding MFMA"):
            fn.main_loop()
    else:   # the MFMA loop, not the copy loop nested in it
        assert [b.label for b in fn.main_loop()] == loop


def test_no_mfma_loop_is_an_error():
    fn = parse_asm("f:\n  s_nop 0\n  s_endpgm\n").function()
    assert fn.loops() == []
    with pytest.raises(AsmError, match="no loop holding MFMA"):
        fn.main_loop_phases()


def test_snippet_without_labels_is_one_function():
    m = parse_asm("  s_waitcnt vmcnt(1)\n  ; sched_barrier mask(0x0)\n  s_barrier\n")
    fn = m.function()
    assert fn.name == "<snippet>" and [i.kind for i in fn.instrs()] == [
        "wait", "sched_barrier", "barrier"]


@pytest.mark.parametrize("text, message", [
    ("", "no function or instruction found"),
    ("define void @f() {\n  ret void\n}\n", "line 1: not a gfx9 instruction"),
    ("\t.type f,@function\nf:\n\ts_branch .LBB9_9\n", "line 3: branch to unknown label"),
    ("\t.amdgpu_metadata\n---\namdhsa.version: [1, 2]\n", "without .end_amdgpu_metadata"),
    ("\t.amdhsa_kernel f\n\t\t.amdhsa_next_free_vgpr 8\n", "without .end_amdhsa_kernel"),
    ("\t.type f,@function\nf:\n\ts_endpgm\n.Lfunc_end0:\n\ts_nop 0\n",
     "line 5: instruction outside a function"),
    ("\t.amdgpu_metadata\n---\na: 1\na: 2\n\t.end_amdgpu_metadata\n",
     "line 4: YAML: duplicate key 'a'"),
])
def test_bad_assembly_is_an_error(text, message):
    with pytest.raises(AsmError, match=re.escape(message)):
        parse_asm(text)


@pytest.mark.parametrize("text", [
    "\t.amdgpu_metadata\n---\namdhsa.version: [1, 2]\n",
    "\t.type f,@function\nf:\n\ts_endpgm\n\t.amdgpu_metadata\n---\na: 1\na: 2\n"
    "\t.end_amdgpu_metadata\n",
    "\t.amdgpu_metadata\n---\n- 1\n\t.end_amdgpu_metadata\n",
])
def test_the_metadata_block_alone_is_refused_as_parse_asm_refuses_it(text):
    """:func:`metadata_document` reads the block alone, with parse_asm's messages and
    lines."""
    with pytest.raises(AsmError) as alone:
        metadata_document(text)
    with pytest.raises(AsmError) as whole:
        parse_asm(text)
    assert str(alone.value) == str(whole.value)


def test_the_metadata_block_alone():
    kernel = "\t.type k,@function\nk:\n\ts_endpgm\n"
    block = ("\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n{}...\n"
             "\t.end_amdgpu_metadata\n")
    assert metadata_document(kernel) == {} and kernel_spills(kernel) == []
    one = kernel + block.format("    .vgpr_spill_count: 3\n")
    assert metadata_document(one) == parse_asm(one).metadata["amdgpu_metadata"]
    assert kernel_spills(one) == [(3, 0)]
    two = one + block.format("    .sgpr_spill_count: 2\n")       # the last kept, as parse_asm
    assert metadata_document(two) == parse_asm(two).metadata["amdgpu_metadata"]
    assert kernel_spills(two) == [(0, 2)]


@pytest.mark.parametrize("entry, counts", [
    ({".name": "k"}, (0, 0)),
    ({".name": "k", ".vgpr_spill_count": 22, ".sgpr_spill_count": 1}, (22, 1)),
    ({".name": "k", ".vgpr_spill_count": -1}, ".vgpr_spill_count -1, not a count"),
    ({".name": "k", ".sgpr_spill_count": "2"}, ".sgpr_spill_count '2', not a count"),
    ({".name": "k", ".vgpr_spill_count": True}, ".vgpr_spill_count True, not a count"),
])
def test_spill_counts(entry, counts):
    if isinstance(counts, tuple):
        assert spill_counts(entry) == counts
    else:
        with pytest.raises(AsmError, match=re.escape(f"the .amdgpu_metadata of k has {counts}")):
            spill_counts(entry)


def test_unknown_function_and_kernel():
    m = parse_asm(SNIPPET)
    with pytest.raises(AsmError, match="no function 'nope'.*functions: k"):
        m.function("nope")
    with pytest.raises(AsmError, match="no kernel 'k'"):
        m.kernel_metadata("k")


def test_yaml_subset():
    doc = parse_yaml("""---
amdhsa.kernels:
  - .args:
      - .offset:         0
        .value_kind:     global_buffer
      - .offset: 8
    .name:           'it''s'
    .reqd_workgroup_size:
      - 512
      - 1
    .uses_dynamic_stack: false
    .flow: [ 1, 2, 3 ]
    .flow_map: { x: 1 }
amdhsa.target:   amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...
""")
    k = doc["amdhsa.kernels"][0]
    assert k[".args"] == [{".offset": 0, ".value_kind": "global_buffer"}, {".offset": 8}]
    assert k[".name"] == "it's" and k[".reqd_workgroup_size"] == [512, 1]
    assert k[".uses_dynamic_stack"] is False and k[".flow"] == [1, 2, 3]
    assert k[".flow_map"] == {"x": 1}
    assert doc["amdhsa.target"] == "amdgcn-amd-amdhsa--gfx950"
    assert doc["amdhsa.version"] == [1, 2]


@pytest.mark.parametrize("text, message", [
    ("a: 1\na: 2\n", "line 2: YAML: duplicate key 'a'"),
    ("a: 1\n    b: 2\n", "line 2: YAML: mapping values are not allowed here"),
    ("a: [1, 2\n", "line 2: YAML: expected ',' or ']', but got '<stream end>' (while parsing "
                   "a flow sequence at line 1)"),
    ("a:\n  - 1\n  not a key\n", "YAML: could not find expected ':' (while scanning a simple "
                                  "key at line 3)"),
    ("a:\n\t- 1\n", "line 2: YAML: found character '\\t' that cannot start any token"),
    ("a: !!python/object:os.system 1\n", "line 1: YAML: could not determine a constructor"),
])
def test_yaml_errors(text, message):
    with pytest.raises(AsmError, match=re.escape(message)):
        parse_yaml(text)
    if asm_module._FastMetadataLoader is not None:  # libyaml's parser refuses it too: the
        with pytest.raises(yaml.YAMLError):         # pure-Python one only words the message
            yaml.load(text, Loader=asm_module._FastMetadataLoader)


def test_yaml_of_both_parsers_is_one_document():
    """LLVM's metadata of a built kernel: the same objects from libyaml's parser (what
    ``parse_yaml`` takes first) as from the pure-Python one."""
    if asm_module._FastMetadataLoader is None:
        pytest.skip("PyYAML without libyaml")
    lines = build("4wave-bf16").asm.split("\n")       # the run's build (test_real_kernels)
    start, end = (next(i for i, ln in enumerate(lines) if ln.strip() == d)
                  for d in (".amdgpu_metadata", ".end_amdgpu_metadata"))
    text = "\n".join(lines[start + 1:end])
    fast = yaml.load(text, Loader=asm_module._FastMetadataLoader)
    assert fast["amdhsa.kernels"] and fast == yaml.load(text, Loader=asm_module._MetadataLoader)


@pytest.fixture(scope="session", params=sorted(KERNEL_SPECS))
def built(request):
    return build(request.param)


def test_real_kernels(built):
    m = parse_asm(built.asm)
    fn = m.function()
    assert fn.name == built.kernel.name
    # every instruction line of the text is read, and nothing else
    text_instrs = [n for n, ln in enumerate(built.asm.split("\n"), 1)
                   if re.match(r"^\t(?:[a-z][a-z0-9_]*(?:\s|$)|; sched_(?:group_)?barrier)", ln)]
    assert [i.line for i in fn.instrs()] == text_instrs
    loop = fn.main_loop()
    assert len(loop) == 1 and "Inner Loop Header" in loop[0].comment
    md = m.kernel_metadata(fn.name)
    kd = m.metadata["amdhsa_kernel"][fn.name]
    assert md[".group_segment_fixed_size"] == kd[".amdhsa_group_segment_fixed_size"] == \
        built.kernel.lds_bytes
    num_vgpr, agprs = m.metadata["symbols"][fn.name]["num_vgpr"], md.get(".agpr_count", 0)
    if agprs:   # .vgpr_count counts the AGPRs too, from the aligned architected count
        assert md[".vgpr_count"] == kd[".amdhsa_accum_offset"] + agprs
        assert kd[".amdhsa_accum_offset"] == -(-num_vgpr // 4) * 4
    else:
        assert md[".vgpr_count"] == num_vgpr
    assert m.metadata["kernel_info"][fn.name]["Occupancy"] in range(1, 9)
    assert md[".max_flat_workgroup_size"] == built.kernel.threads
    assert metadata_document(built.asm) == m.metadata["amdgpu_metadata"]   # the block alone
    assert kernel_spills(built.asm) == [spill_counts(md)]


def test_no_fragment_read_address_is_computed_in_the_main_loop(built):
    """Every ds_read of the main loop takes its address from a register the loop does not
    write (a precomputed base, the rest in the instruction's offset): the reads cost no
    vector instruction (ping-pong FP8's B buffers lie above the 16-bit offset field)."""
    fn = parse_asm(built.asm).function()
    loop = [i for b in fn.main_loop() for i in b.instrs]
    written = {r for i in loop for r in i.defs}
    reads = [i for i in loop if i.mnemonic.startswith("ds_read")]
    assert reads
    assert [i.text for i in reads if (set(i.uses) - {"exec"}) & written] == []


_GUARD = """k:
  v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
  ; sched_barrier mask({mask})
{between}  s_nop 7
  ; sched_barrier mask({mask})
  buffer_store_dword v0, v12, s[0:3], 0 offen
  s_endpgm
"""


@pytest.mark.parametrize("mask, between, guard", [
    ("0x00000000", "", True),
    ("0x00000000", "  v_add_u32_e32 v13, 4, v12\n", False),
    # an opened guard (lowering/open_guards.py): VALU and its waits may sit between
    ("0x00000402", "", True),
    ("0x00000402", "  s_waitcnt vmcnt(0)\n  v_add_u32_e32 v13, 4, v12\n", True),
    ("0x00000402", "  s_mov_b32 s4, 0\n", False),
    ("0x00000406", "", False),
])
def test_guard_fences(mask, between, guard):
    """The two fences of a wait-state guard are known as such (the ISA check passes over
    them); anything else between them, or another mask, is no guard."""
    fn = parse_asm(_GUARD.format(mask=mask, between=between)).function()
    fences = [i for i in fn.instrs() if i.kind == "sched_barrier"]
    assert len(fences) == 2
    assert fn.guard_fences() == (frozenset(id(f) for f in fences) if guard else frozenset())
