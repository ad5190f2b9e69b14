"""The emulator's decoder and assembly reader: LLVM's encodings and text, the five shipped
kernels (code object == assembly, every instruction implemented), refusals by name."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from elf_helpers import symtab_entry
from kernel_builds import KERNEL_SPECS, build

from pipeline_mlir.emu.asmline import _BY_NAME, LineError, parse_instruction
from pipeline_mlir.emu.asmtext import kernels_from_asm
from pipeline_mlir.emu.codeobj import kernels_from_hsaco
from pipeline_mlir.emu.inputs import load_kernel
from pipeline_mlir.emu.decode import decode
from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.opcodes import TABLES, probe
from pipeline_mlir.emu.program import compile_instr
from pipeline_mlir.isa.codeobject import read_code_object

CORPUS = Path(__file__).resolve().parents[2] / "data" / "emu" / "decode_corpus.txt"
OBJDUMP = shutil.which("llvm-objdump-22")
LLVM_MC = shutil.which("llvm-mc-22")


def corpus():
    out = []
    for line in CORPUS.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        hexs, text = line.split(" ; ")
        out.append((bytes.fromhex(hexs), text))
    return out


@pytest.mark.parametrize("data,text", corpus(), ids=[t for _, t in corpus()])
def test_corpus_decodes_to_llvm_text_and_reads_back(data, text):
    (ins,) = decode(data)
    assert ins.text == text
    assert ins.size == len(data)
    back, _ = parse_instruction(text, 0)
    assert back.key() == ins.key()


def test_mnemonics_name_one_opcode():
    seen = {}
    for enc, table in TABLES.items():
        for op, name in table.items():
            assert seen.setdefault(name, (enc, op)) == (enc, op) or \
                enc in ("VOP3",), (name, seen[name], (enc, op))
    assert _BY_NAME["v_mfma_f32_16x16x128_f8f6f4"] == ("VOP3P", 45)
    assert _BY_NAME["buffer_load_dwordx4"] == ("MUBUF", 23)


@pytest.fixture(scope="module", params=sorted(KERNEL_SPECS))
def shipped(request):
    b = build(request.param)
    return request.param, next(iter(kernels_from_hsaco(b.hsaco).values())), b


def test_code_object_equals_assembly(shipped):
    key, k, b = shipped
    a = next(iter(kernels_from_asm(b.asm).values()))
    assert k.name == a.name
    assert [i.key() for i in k.instrs] == [i.key() for i in a.instrs]
    assert [i.text for i in k.instrs] == [i.text for i in a.instrs]
    assert k.launch == a.launch
    assert k.launch.lds_bytes == b.kernel.lds_bytes
    assert k.launch.kernarg_bytes == 144


def test_every_instruction_is_implemented(shipped):
    key, k, _ = shipped
    at = k.at()
    kinds = {compile_instr(i, at).kind for i in k.instrs}
    assert {"mfma", "ds", "vmem", "wait", "barrier", "smem"} <= kinds


@pytest.mark.skipif(OBJDUMP is None, reason="llvm-objdump-22 (LLVM 22) is not installed")
def test_text_equals_llvm_objdump(shipped, tmp_path):
    key, k, b = shipped
    path = tmp_path / "k.hsaco"
    path.write_bytes(b.hsaco)
    out = subprocess.run([OBJDUMP, "-d", str(path)], capture_output=True, text=True,
                         check=True).stdout
    ref = [ln.split("//")[0].strip() for ln in out.splitlines() if ln.startswith("\t")]
    assert [i.text for i in k.instrs] == ref[:len(k.instrs)]
    assert all(t == "s_nop 0" or t.startswith("s_code_end") for t in ref[len(k.instrs):])


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 (LLVM 22) is not installed")
@pytest.mark.parametrize("enc,op", [("SOP1", 0), ("SOP2", 12), ("SOPK", 12), ("SOPC", 9),
                                    ("SOPP", 12), ("SMEM", 3), ("VOP1", 1), ("VOP2", 52),
                                    ("VOPC", 0xC9), ("VOP3", 0x1E8), ("VOP3P", 53),
                                    ("DS", 255), ("MUBUF", 28), ("GLOBAL", 23),
                                    ("VOP3", 0x37F), ("VOP2", 0x3D),
                                    # _e64 forms made from VOPC, VOP2 and VOP1, and a
                                    # VOP1 opcode without one
                                    ("VOP3", 0x10), ("VOP3", 0x101), ("VOP3", 0x141),
                                    ("VOP3", 0x175), ("VOP3", 0x142)])
def test_opcode_tables_match_llvm(enc, op):
    assert probe(LLVM_MC, enc, op) == TABLES[enc].get(op)


def test_unknown_encoding_and_truncation_are_errors():
    with pytest.raises(EmuError, match=r"0x0000: unknown instruction encoding"):
        decode(bytes.fromhex("ffffffff"))
    with pytest.raises(EmuError, match=r"0x0000: instruction runs past the end"):
        decode(bytes.fromhex("000534d2"))          # the first dword of a VOP3
    with pytest.raises(EmuError, match="not a whole number of dwords"):
        decode(b"\x00\x00")


def test_unimplemented_instruction_is_refused_by_name_and_address():
    code = bytes.fromhex("000080bf") + bytes.fromhex("000000d802000000")
    instrs = decode(code)
    assert instrs[1].text == "ds_add_u32 v2, v0"
    with pytest.raises(EmuError, match=r"0x0004: instruction 'ds_add_u32 v2, v0' \(ds_add_u32\) "
                                       r"is not implemented"):
        compile_instr(instrs[1], {0: 0, 4: 1})
    pk = decode(bytes.fromhex("0040b0d302091a1c"))[0]
    with pytest.raises(EmuError, match="v_pk_fma_f32"):
        compile_instr(pk, {0: 0})
    # a memory atomic the emulator does not run is named as the kernel holds it: [vdst,]
    # vaddr, vdata
    for hexs, text in (("008000dd00027f00", "global_atomic_swap v[0:1], v2, off"),
                       ("005034e100010080", "buffer_atomic_add_f32 v1, v0, s[0:3], 0 offen sc0")):
        (atomic,) = decode(bytes.fromhex(hexs))
        with pytest.raises(EmuError, match=re.escape(f"0x0000: instruction '{text}'")):
            compile_instr(atomic, {0: 0})
    with pytest.raises(LineError, match="global_atomic_add_f32 takes 3 register operands "
                                        "with sc0, got 2"):
        parse_instruction("global_atomic_add_f32 v[0:1], v2, off sc0", 0)


def test_assembly_errors_name_the_line():
    base = build("4wave-fp8-64").asm
    lines = base.split("\n")
    i = next(k for k, ln in enumerate(lines) if "ds_read_b128" in ln)
    bad = lines[:i] + ["\tv_frobnicate v0, v1"] + lines[i + 1:]
    with pytest.raises(EmuError, match=rf"line {i + 1}: unknown instruction 'v_frobnicate'"):
        load_kernel("\n".join(bad))
    bad = lines[:i] + ["\ts_branch .LBB9_9"] + lines[i + 1:]
    with pytest.raises(EmuError, match=rf"line {i + 1}: branch to unknown label"):
        load_kernel("\n".join(bad))
    with pytest.raises(EmuError, match="no kernel"):
        load_kernel("\ts_endpgm\n")


def test_code_object_errors():
    with pytest.raises(EmuError, match="not an ELF file"):
        load_kernel(b"not elf at all")
    data = bytearray(build("4wave-fp8-64").hsaco)
    data[18] = 0x3E                                    # e_machine: x86-64
    with pytest.raises(EmuError, match="not EM_AMDGPU"):
        load_kernel(bytes(data))
    with pytest.raises(EmuError, match="no kernel 'nope'"):
        load_kernel(build("4wave-fp8-64").hsaco, "nope")
    # the function symbol moved off the descriptor's entry: no code to run
    b = build("4wave-fp8-64")
    name = b.kernel.name
    data = bytearray(b.hsaco)
    entry = read_code_object(b.hsaco).kernels[name].entry
    struct.pack_into("<Q", data, symtab_entry(b.hsaco, name.encode()) + 8, entry + 4)
    with pytest.raises(EmuError, match=rf"kernel {name}: the descriptor's entry 0x{entry:x} is "
                                       rf"not the address of the symbol '{name}'"):
        load_kernel(bytes(data))


@pytest.mark.parametrize("text", ["s_waitcnt vmcnt(64)", "s_waitcnt lgkmcnt(16)",
                                  "s_waitcnt expcnt(8)"])
def test_an_out_of_range_wait_count_is_an_error(text):
    """The assembly reader encodes waits with isa.waitcnt: a count past its counter is refused,
    never masked into the other fields."""
    from pipeline_mlir.emu.asmline import LineError

    with pytest.raises(LineError, match="is outside the gfx950 range"):
        parse_instruction(text, 0)
    assert parse_instruction("s_waitcnt vmcnt(63) lgkmcnt(15)", 0)[0].f["imm"] == \
        parse_instruction("s_waitcnt", 0)[0].f["imm"]


def test_the_assemblys_metadata_is_read_as_the_isa_package_reads_it():
    """The emulator's kernels of an assembly carry the ``amdhsa.kernels`` entry the ISA
    package's one reader of the ``.amdgpu_metadata`` block gives; a block left open or
    without a kernels list is one EmuError."""
    from pipeline_mlir.isa.asm import metadata_document

    text = build("4wave-fp8-64").asm
    (k,) = kernels_from_asm(text).values()
    (entry,) = metadata_document(text)["amdhsa.kernels"]
    assert k.meta == entry and entry[".name"] == k.name
    open_block = text.replace(".end_amdgpu_metadata", "")
    with pytest.raises(EmuError, match=r"\.amdgpu_metadata without \.end_amdgpu_metadata"):
        kernels_from_asm(open_block)
    no_list = text.replace("amdhsa.kernels:", "amdhsa.other:")
    with pytest.raises(EmuError, match="has no amdhsa.kernels list"):
        kernels_from_asm(no_list)
