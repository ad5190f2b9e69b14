"""gfx950 code objects (``.hsaco``): the ELF file read with pyelftools.

:func:`read_code_object` returns what the report, the ISA tools and the emulator
need from a linked code object:

* the ``NT_AMDGPU_METADATA`` note (owner ``AMDGPU``), a MessagePack map
  (decoded with msgpack, :func:`decode_msgpack`);
* each kernel ``K``: its 64-byte kernel descriptor (the ``K.kd`` symbol), the
  descriptor's fields the report reads, and the kernel's machine code (the
  bytes of the function symbol ``K`` at the descriptor's entry);
* the ELF header's ``e_flags`` (the low byte is the processor:
  :data:`pipeline_mlir.target.gfx950.ELF_MACH`; :func:`processor_name` names it)
  and ``e_type``.

Kernel descriptor (amdhsa, code object v5/v6): +0 group segment (LDS) bytes,
+4 private segment bytes, +8 kernarg bytes, +16 entry (signed byte offset from
the descriptor), +44 COMPUTE_PGM_RSRC3, +48 RSRC1, +52 RSRC2, +56 kernel code
properties.  RSRC1[5:0] is the VGPR allocation in granules of 8 minus one,
RSRC3[5:0] the accumulation offset in units of 4 minus one.

A file that is not such a code object raises :class:`CodeObjectError` naming
what is wrong (and where: the section, the symbol, the byte).  No MLIR here.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

import msgpack
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import NoteSection, SymbolTableSection

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.target.gfx950 import ACCUM_OFFSET_GRANULE, ELF_MACH, NAME, VGPR_GRANULE

__all__ = ["CodeObjectError", "CodeObject", "KernelCode", "read_code_object", "read_metadata",
           "decode_msgpack", "decode_descriptor", "processor_name", "NT_AMDGPU_METADATA",
           "DESCRIPTOR_BYTES", "EF_AMDGPU_MACH"]

NT_AMDGPU_METADATA = 32
DESCRIPTOR_BYTES = 64
#: the processor bits of ``e_flags`` (LLVM's ``EF_AMDGPU_MACH``)
EF_AMDGPU_MACH = 0xFF
#: ``EF_AMDGPU_MACH_*`` values of the CDNA processors (LLVM's ELF.h), to name them in
#: messages; 0 is ``EF_AMDGPU_MACH_NONE``
_MACH_NAMES = {0x2C: "gfx900", 0x2F: "gfx906", 0x30: "gfx908", 0x3F: "gfx90a",
               0x40: "gfx940", 0x4B: "gfx941", 0x4C: "gfx942", ELF_MACH: NAME}


class CodeObjectError(PipelineError):
    """A file or buffer that is not a readable gfx950 code object."""


# ---------------------------------------------------------------------------
# MessagePack

def _no_ext(code: int, _data: bytes):
    raise CodeObjectError(f"the metadata note (NT_AMDGPU_METADATA, MessagePack) holds an "
                          f"extension type ({code}) no AMDGPU metadata uses")


def decode_msgpack(data: bytes):
    """Decode one MessagePack object; the whole buffer must be that object."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace",
                                ext_hook=_no_ext, max_buffer_size=max(len(data), 1))
    unpacker.feed(data)
    try:
        obj = unpacker.unpack()
    except msgpack.OutOfData:
        raise CodeObjectError(f"the metadata note (NT_AMDGPU_METADATA, MessagePack) is truncated "
                              f"at byte {unpacker.tell()}") from None
    except msgpack.FormatError:
        pos = unpacker.tell()
        raise CodeObjectError(f"the metadata note (NT_AMDGPU_METADATA, MessagePack) has the "
                              f"unknown type byte 0x{data[pos]:02x} at byte {pos}") from None
    except TypeError:
        raise CodeObjectError(f"the metadata note (NT_AMDGPU_METADATA, MessagePack) has an array "
                              f"or a map as a map key (object ending at byte "
                              f"{unpacker.tell()})") from None
    except ValueError as e:
        raise CodeObjectError(f"the metadata note (NT_AMDGPU_METADATA, MessagePack) is malformed "
                              f"at byte {unpacker.tell()}: {e}") from None
    if unpacker.tell() != len(data):
        raise CodeObjectError(f"the metadata note (NT_AMDGPU_METADATA, MessagePack) has "
                              f"{len(data) - unpacker.tell()} bytes after its object")
    return obj


def processor_name(e_flags: int) -> str:
    """The processor ``e_flags`` names, in words: ``gfx942``, ``no processor``, or the
    ``EF_AMDGPU_MACH`` value of one this table does not name."""
    mach = e_flags & EF_AMDGPU_MACH
    if mach == 0:
        return "no processor (EF_AMDGPU_MACH_NONE)"
    return _MACH_NAMES.get(mach, f"processor 0x{mach:02x} (EF_AMDGPU_MACH)")


# ---------------------------------------------------------------------------
# kernel descriptors

def decode_descriptor(kd: bytes) -> dict:
    """The fields of a 64-byte kernel descriptor (see the module docstring)."""
    if len(kd) != DESCRIPTOR_BYTES:
        raise CodeObjectError(f"a kernel descriptor has {DESCRIPTOR_BYTES} bytes, not {len(kd)}")
    group, private, kernarg = struct.unpack_from("<III", kd, 0)
    (entry,) = struct.unpack_from("<q", kd, 16)
    rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", kd, 44)
    (props,) = struct.unpack_from("<H", kd, 56)
    return {"group_segment_fixed_size": group, "private_segment_fixed_size": private,
            "kernarg_size": kernarg, "entry_offset": entry,
            "allocated_vgprs": ((rsrc1 & 0x3F) + 1) * VGPR_GRANULE,
            "accum_offset": ((rsrc3 & 0x3F) + 1) * ACCUM_OFFSET_GRANULE,
            "rsrc1": rsrc1, "rsrc2": rsrc2, "rsrc3": rsrc3, "code_properties": props}


# ---------------------------------------------------------------------------
# the ELF file

@dataclass(frozen=True)
class KernelCode:
    """One kernel of a code object."""

    name: str
    descriptor_addr: int
    descriptor: bytes            # the 64 bytes of ``<name>.kd``
    fields: dict                 # decode_descriptor(descriptor)
    entry: int                   # address of the first instruction (descriptor + entry offset)
    code: bytes | None           # the function symbol ``<name>`` at ``entry``; None if absent


@dataclass(frozen=True)
class CodeObject:
    metadata: object             # the decoded NT_AMDGPU_METADATA note
    kernels: dict[str, KernelCode]
    e_flags: int
    e_type: str                  # 'ET_DYN' for a linked code object, 'ET_REL' for an object


@dataclass(frozen=True)
class _Section:
    index: int
    name: str
    type: str
    addr: int
    offset: int
    size: int

    def loaded(self) -> bool:
        return self.type != "SHT_NOBITS" and self.addr != 0

    def holds(self, addr: int, size: int) -> bool:
        return self.loaded() and self.addr <= addr and addr + size <= self.addr + self.size


def _open(data: bytes) -> ELFFile:
    if not isinstance(data, (bytes, bytearray)) or data[:4] != b"\x7fELF":
        raise CodeObjectError("not an ELF file (a .hsaco starts with \\x7fELF)")
    if len(data) < 64 or data[4] != 2 or data[5] != 1:
        raise CodeObjectError("not a 64-bit little-endian ELF file")
    try:
        elf = ELFFile(io.BytesIO(bytes(data)))
    except ELFError as e:
        raise CodeObjectError(f"ELF header: {e}") from None
    if elf["e_machine"] != "EM_AMDGPU":
        raise CodeObjectError(f"ELF machine {elf['e_machine']} is not EM_AMDGPU (224)")
    shoff, shnum = elf["e_shoff"], elf["e_shnum"]
    if shoff == 0 or elf["e_shentsize"] != 64 or shoff + shnum * 64 > len(data):
        raise CodeObjectError("ELF section header table is missing or truncated")
    return elf


def _sections(elf: ELFFile, size: int) -> list[_Section]:
    out = []
    for i, sec in enumerate(elf.iter_sections()):
        s = _Section(i, sec.name, sec["sh_type"], sec["sh_addr"], sec["sh_offset"],
                     sec["sh_size"])
        if s.type != "SHT_NOBITS" and s.offset + s.size > size:
            raise CodeObjectError(f"ELF section {i} {s.name} lies outside the file")
        out.append(s)
    return out


def _metadata(elf: ELFFile, sections: list[_Section]):
    meta = None
    for s in sections:
        if s.type != "SHT_NOTE":
            continue
        note_sec = elf.get_section(s.index)
        assert isinstance(note_sec, NoteSection)
        end = s.offset + s.size
        for note in note_sec.iter_notes():
            desc_off = note["n_offset"] + 12 + (note["n_namesz"] + 3) // 4 * 4
            if desc_off + note["n_descsz"] > end:
                raise CodeObjectError(f"ELF note at byte {note['n_offset']} is truncated")
            if note["n_name"] == "AMDGPU" and note["n_type"] in (NT_AMDGPU_METADATA,
                                                                 "NT_AMDGPU_METADATA"):
                meta = decode_msgpack(note["n_descdata"])
    if meta is None:
        raise CodeObjectError("the ELF file has no NT_AMDGPU_METADATA note")
    return meta


def _bytes(data: bytes, sections: list[_Section], addr: int, size: int) -> bytes | None:
    sec = next((s for s in sections if s.holds(addr, size)), None)
    if sec is None:
        return None
    start = sec.offset + addr - sec.addr
    return bytes(data[start:start + size])


def _symbols(elf: ELFFile, sections: list[_Section]) -> dict[str, tuple[int, int, str]]:
    """name -> (value, size, type) of the defined symbols of .symtab (else .dynsym)."""
    tables = [elf.get_section(s.index) for s in sections if s.type in ("SHT_SYMTAB",
                                                                       "SHT_DYNSYM")]
    table = next((t for t in tables if t["sh_type"] == "SHT_SYMTAB"), None) or \
        next(iter(tables), None)
    if table is None:
        return {}
    assert isinstance(table, SymbolTableSection)
    out = {}
    for sym in table.iter_symbols():
        # pyelftools decodes names as latin-1; ELF names of LLVM's kernels are UTF-8
        name = sym.name.encode("latin-1").decode("utf-8", "replace")
        if name and sym["st_shndx"] != "SHN_UNDEF":
            out[name] = (sym["st_value"], sym["st_size"], sym["st_info"]["type"])
    return out


def read_metadata(data: bytes):
    """The decoded ``NT_AMDGPU_METADATA`` note of a gfx950 ELF file, linked or not: LLVM's
    relocatable object (``compile_llvm_ir(kind="obj")``) carries the note too, though its
    kernel descriptors are in no loaded section (which :func:`read_code_object` refuses)."""
    elf = _open(data)
    try:
        return _metadata(elf, _sections(elf, len(data)))
    except ELFError as e:
        raise CodeObjectError(f"ELF: {e}") from None


def read_code_object(data: bytes) -> CodeObject:
    """Read a linked gfx950 code object (``.hsaco``)."""
    elf = _open(data)
    try:
        sections = _sections(elf, len(data))
        meta = _metadata(elf, sections)
        symbols = _symbols(elf, sections)
    except ELFError as e:
        raise CodeObjectError(f"ELF: {e}") from None
    kernels = {}
    for sym, (addr, size, _typ) in symbols.items():
        if not sym.endswith(".kd"):
            continue
        name = sym[:-3]
        kd = _bytes(data, sections, addr, DESCRIPTOR_BYTES) if size >= DESCRIPTOR_BYTES \
            else None
        if kd is None:
            raise CodeObjectError(f"kernel descriptor {name} is not in a loaded section")
        fields = decode_descriptor(kd)
        entry = addr + fields["entry_offset"]
        code = None
        fn = symbols.get(name)
        if fn is not None and fn[0] == entry:
            code = _bytes(data, sections, entry, fn[1])
        kernels[name] = KernelCode(name, addr, kd, fields, entry, code)
    return CodeObject(meta, kernels, elf["e_flags"], elf["e_type"])
