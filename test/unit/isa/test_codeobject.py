"""Code-object reader: the metadata note (msgpack), kernel descriptors, kernel code, errors."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess

import pytest
from elf_helpers import symtab_entry
from kernel_builds import build

from pipeline_mlir.isa.codeobject import (
    DESCRIPTOR_BYTES,
    CodeObjectError,
    decode_msgpack,
    read_code_object,
)

S_ENDPGM = struct.pack("<I", 0xBF810000)


def test_msgpack_decoder():
    data = bytes([0x83,                                  # fixmap of 3
                  0xA1]) + b"a" + bytes([0x93, 0x01, 0xFF, 0xCD, 0x01, 0x00]) + \
        bytes([0xD9, 0x02]) + b"bc" + bytes([0xC3]) + \
        bytes([0xA1]) + b"d" + bytes([0xDE, 0x00, 0x01, 0xA1]) + b"e" + \
        bytes([0xCB]) + struct.pack(">d", 1.5)
    assert decode_msgpack(data) == {"a": [1, -1, 256], "bc": True, "d": {"e": 1.5}}
    assert decode_msgpack(bytes([0xC4, 0x02, 0x00, 0x01])) == b"\x00\x01"
    assert decode_msgpack(bytes([0xD2]) + struct.pack(">i", -70000)) == -70000
    assert decode_msgpack(bytes([0x81, 0x01, 0xC0])) == {1: None}      # integer keys


@pytest.mark.parametrize("data, message", [
    (bytes([0x92, 0x01]), "truncated at byte 2"),
    (bytes([0x01, 0x02]), "1 bytes after"),
    (bytes([0xC1]), "unknown type byte 0xc1 at byte 0"),
    (bytes([0x92, 0x01, 0xC1]), "unknown type byte 0xc1 at byte 2"),
    (bytes([0xDA, 0x00]), "truncated"),
    (bytes([0xD4, 0x01, 0x02]), r"extension type \(1\) no AMDGPU metadata uses"),
    (bytes([0x81, 0x91, 0x01, 0x01]), "an array or a map as a map key"),
])
def test_msgpack_errors(data, message):
    """Each names what is wrong: the code object's metadata note (not the decoder)."""
    with pytest.raises(CodeObjectError, match=message) as e:
        decode_msgpack(data)
    assert str(e.value).startswith("the metadata note (NT_AMDGPU_METADATA, MessagePack) ")


@pytest.mark.parametrize("data, message", [
    (b"not an elf", "not an ELF file"),
    (b"\x7fELF\x01\x01" + bytes(60), "not a 64-bit little-endian"),
    (b"\x7fELF\x02\x01" + bytes(10) + struct.pack("<HH", 2, 62) + bytes(44),
     "ELF machine EM_X86_64 is not EM_AMDGPU"),
    (b"\x7fELF\x02\x01" + bytes(10) + struct.pack("<HH", 3, 224) + bytes(44),
     "section header table is missing"),
])
def test_read_hsaco_rejects_bad_files(data, message):
    with pytest.raises(CodeObjectError, match=message):
        read_code_object(data)


def _kernel():
    b = build("4wave-fp8-64")
    return b, read_code_object(b.hsaco)


def test_kernels_descriptors_and_code():
    b, co = _kernel()
    assert co.e_type == "ET_DYN" and co.e_flags & 0xFF == 0x4F          # linked, gfx950
    assert co.metadata["amdhsa.target"] == "amdgcn-amd-amdhsa--gfx950"
    (k,) = co.kernels.values()
    assert k.name == b.kernel.name and len(k.descriptor) == DESCRIPTOR_BYTES
    assert k.fields["group_segment_fixed_size"] == b.kernel.lds_bytes
    assert k.fields["private_segment_fixed_size"] == 0
    assert k.entry == k.descriptor_addr + k.fields["entry_offset"]
    assert k.code is not None and len(k.code) % 4 == 0
    words = [k.code[i:i + 4] for i in range(0, len(k.code), 4)]
    assert S_ENDPGM in words                       # the kernel ends (s_endpgm, 4-byte aligned)


@pytest.mark.skipif(shutil.which("llvm-objdump-22") is None,
                    reason="llvm-objdump-22 not installed")
def test_kernel_code_is_llvms_disassembly(tmp_path):
    b, co = _kernel()
    (k,) = co.kernels.values()
    path = tmp_path / "k.hsaco"
    path.write_bytes(b.hsaco)
    out = subprocess.run(["llvm-objdump-22", "-d", "--triple=amdgcn-amd-amdhsa",
                          "--mcpu=gfx950", str(path)], capture_output=True, text=True,
                         check=True).stdout
    enc = re.findall(r"// ([0-9A-F]{12}): ((?:[0-9A-F]{8}\b ?)+)", out)
    first = int(enc[0][0], 16)
    code = b"".join(struct.pack("<I", int(w, 16)) for _a, ws in enc for w in ws.split())
    assert first == k.entry and code[:len(k.code)] == k.code


def test_code_object_errors():
    b, co = _kernel()
    name = b.kernel.name.encode()
    data = bytearray(b.hsaco)
    struct.pack_into("<Q", data, symtab_entry(b.hsaco, name + b".kd") + 8, 0x10)
    with pytest.raises(CodeObjectError, match=f"kernel descriptor {b.kernel.name} is not in a "
                                              f"loaded section"):
        read_code_object(bytes(data))
    no_note = b.hsaco.replace(b"AMDGPU\0", b"AMDGPX\0", 1)
    with pytest.raises(CodeObjectError, match="no NT_AMDGPU_METADATA note"):
        read_code_object(no_note)
    data = bytearray(b.hsaco)
    shoff, = struct.unpack_from("<Q", data, 40)
    struct.pack_into("<Q", data, shoff + 7 * 64 + 32, len(data))          # .text
    with pytest.raises(CodeObjectError, match="ELF section 7 .text lies outside the file"):
        read_code_object(bytes(data))
    # a kernel whose function symbol is elsewhere has a descriptor but no code
    data = bytearray(b.hsaco)
    struct.pack_into("<Q", data, symtab_entry(b.hsaco, name) + 8, co.kernels[b.kernel.name]
                     .entry + 4)
    k = read_code_object(bytes(data)).kernels[b.kernel.name]
    assert k.code is None and k.fields == co.kernels[b.kernel.name].fields
