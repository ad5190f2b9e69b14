"""Reading an ELF symbol table entry by hand, to corrupt code objects in tests."""

from __future__ import annotations

import struct


def symtab_entry(data: bytes, name: bytes) -> int:
    """Byte offset of the .symtab entry named ``name`` (found without the reader)."""
    shoff, = struct.unpack_from("<Q", data, 40)
    shnum, = struct.unpack_from("<H", data, 60)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * 64) for i in range(shnum)]
    symtab = next(s for s in secs if s[1] == 2)
    strtab = secs[symtab[6]]
    for off in range(symtab[4], symtab[4] + symtab[5], 24):
        st_name, = struct.unpack_from("<I", data, off)
        start = strtab[4] + st_name
        if data[start:data.index(b"\0", start)] == name:
            return off
    raise AssertionError(name)
