"""The kernels of a gfx950 code object (``.hsaco``) or of its assembly text.

A :class:`Kernel` is what the emulator runs: the decoded instructions (byte offsets from
the kernel's entry) and the launch state the kernel descriptor asks for.

* :func:`kernels_from_hsaco`: the ELF's symbol table gives each ``<name>.kd`` kernel
  descriptor (64 bytes) and the ``<name>`` function symbol (its code and size).
* :func:`kernels_from_asm`: the assembly text of the same build (``--emit=asm``): the
  instructions are read by :mod:`pipeline_mlir.emu.asmtext` and the descriptor from the
  ``.amdhsa_kernel`` block.

Kernel descriptor fields used (amdhsa, code object v5/v6): +0 group segment (LDS) bytes,
+4 private segment bytes, +8 kernarg bytes, +16 entry offset, +44 COMPUTE_PGM_RSRC3, +48
RSRC1, +52 RSRC2, +56 kernel code properties.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from pipeline_mlir.emu.decode import Instr, decode
from pipeline_mlir.emu.errors import EmuError

EM_AMDGPU = 224
#: kernel code properties bits
KCP_KERNARG_PTR = 1 << 3
#: the user-SGPR inputs of kernel code properties the emulator provides (only the kernarg
#: pointer; the others are named when a kernel asks for them)
_KCP_NAMES = {0: "private segment buffer", 1: "dispatch pointer", 2: "queue pointer",
              4: "dispatch id", 5: "flat scratch init", 6: "private segment size"}


@dataclass
class LaunchState:
    """What the kernel descriptor asks the dispatcher to set up."""

    lds_bytes: int
    private_bytes: int
    kernarg_bytes: int
    user_sgprs: int
    kernarg_ptr: bool
    workgroup_id: tuple[bool, bool, bool]
    workgroup_info: bool
    workitem_id_dims: int      # 0: x only, 1: x y, 2: x y z
    vgprs: int                 # allocated architected + accumulation VGPRs
    accum_offset: int


@dataclass
class Kernel:
    name: str
    instrs: list[Instr]
    launch: LaunchState
    source: str                # 'hsaco' or 'asm'

    def at(self) -> dict[int, int]:
        """Byte offset -> index in ``instrs``."""
        return {ins.addr: i for i, ins in enumerate(self.instrs)}


def launch_from_descriptor(name: str, lds: int, private: int, kernarg: int, rsrc1: int,
                           rsrc2: int, rsrc3: int, props: int) -> LaunchState:
    where = f"kernel {name}"
    if private:
        raise EmuError(f"{where}: the kernel uses {private} bytes of scratch (private "
                       f"segment), which the emulator does not provide")
    for bit, what in _KCP_NAMES.items():
        if props & (1 << bit):
            raise EmuError(f"{where}: the kernel descriptor asks for the {what} in user "
                           f"SGPRs, which the emulator does not provide (only the kernarg "
                           f"pointer)")
    user = (rsrc2 >> 1) & 0x1F
    kernarg_ptr = bool(props & KCP_KERNARG_PTR)
    if user != (2 if kernarg_ptr else 0):
        raise EmuError(f"{where}: USER_SGPR_COUNT is {user}, expected "
                       f"{2 if kernarg_ptr else 0} for the inputs the descriptor enables")
    if (rsrc2 >> 13) & 0x7:       # EXCP_EN_MSB, LDS_SIZE stays 0 for static LDS
        pass
    return LaunchState(lds, private, kernarg, user, kernarg_ptr,
                       (bool(rsrc2 >> 7 & 1), bool(rsrc2 >> 8 & 1), bool(rsrc2 >> 9 & 1)),
                       bool(rsrc2 >> 10 & 1), (rsrc2 >> 11) & 3,
                       ((rsrc1 & 0x3F) + 1) * 8, ((rsrc3 & 0x3F) + 1) * 4)


# ---------------------------------------------------------------------------
# ELF

def _sections(data: bytes) -> list[dict]:
    if data[:4] != b"\x7fELF":
        raise EmuError("not an ELF file (a .hsaco starts with \\x7fELF)")
    if len(data) < 64 or data[4] != 2 or data[5] != 1:
        raise EmuError("not a 64-bit little-endian ELF file")
    (_t, machine, _v, _e, _ph, shoff, _fl, _eh, _phs, _phn, shentsize, shnum,
     _shstr) = struct.unpack_from("<HHIQQQIHHHHHH", data, 16)
    if machine != EM_AMDGPU:
        raise EmuError(f"ELF machine {machine} is not EM_AMDGPU ({EM_AMDGPU})")
    if shoff == 0 or shentsize != 64 or shoff + shnum * 64 > len(data):
        raise EmuError("ELF section header table is missing or truncated")
    out = []
    for i in range(shnum):
        _n, typ, _f, addr, off, size, link, _i, _a, _es = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * 64)
        if typ != 8 and off + size > len(data):
            raise EmuError(f"ELF section {i} lies outside the file")
        out.append(dict(type=typ, addr=addr, off=off, size=size, link=link))
    return out


def _symbols(data: bytes, sections: list[dict]) -> dict[str, tuple[int, int]]:
    symtab = next((s for s in sections if s["type"] == 2), None) or \
        next((s for s in sections if s["type"] == 11), None)
    if symtab is None:
        raise EmuError("the ELF file has no symbol table")
    strtab = sections[symtab["link"]]
    out = {}
    for k in range(symtab["size"] // 24):
        st_name, _info, _other, shndx, value, size = struct.unpack_from(
            "<IBBHQQ", data, symtab["off"] + k * 24)
        start = strtab["off"] + st_name
        name = data[start:data.index(b"\0", start)].decode("utf-8", "replace")
        if name and shndx:
            out[name] = (value, size)
    return out


def _read(data: bytes, sections: list[dict], addr: int, size: int, what: str) -> bytes:
    for s in sections:
        if s["type"] != 8 and s["addr"] and s["addr"] <= addr and addr + size <= \
                s["addr"] + s["size"]:
            return data[s["off"] + addr - s["addr"]:s["off"] + addr - s["addr"] + size]
    raise EmuError(f"{what} (0x{addr:x}, {size} bytes) is not in a loaded section")


def kernels_from_hsaco(data: bytes) -> dict[str, Kernel]:
    """Every kernel of a linked code object, decoded."""
    sections = _sections(data)
    syms = _symbols(data, sections)
    out = {}
    for sym, (kd_addr, kd_size) in syms.items():
        if not sym.endswith(".kd"):
            continue
        name = sym[:-3]
        kd = _read(data, sections, kd_addr, 64, f"kernel descriptor {sym}")
        lds, private, kernarg = struct.unpack_from("<III", kd, 0)
        (entry,) = struct.unpack_from("<q", kd, 16)
        rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", kd, 44)
        (props,) = struct.unpack_from("<H", kd, 56)
        code_addr = kd_addr + entry
        fn = syms.get(name)
        if fn is None or fn[0] != code_addr:
            raise EmuError(f"kernel {name}: the descriptor's entry 0x{code_addr:x} is not the "
                           f"address of the symbol {name!r}")
        code = _read(data, sections, code_addr, fn[1], f"the code of kernel {name}")
        launch = launch_from_descriptor(name, lds, private, kernarg, rsrc1, rsrc2, rsrc3,
                                        props)
        try:
            instrs = decode(code)
        except EmuError as e:
            raise EmuError(f"kernel {name}: {e}") from None
        out[name] = Kernel(name, instrs, launch, "hsaco")
    if not out:
        raise EmuError("the code object has no kernel (no '<name>.kd' symbol)")
    return out


def load_kernel(data: bytes | str, name: str | None = None) -> Kernel:
    """The kernel ``name`` (or the only kernel) of a code object (bytes) or assembly (str)."""
    if isinstance(data, (bytes, bytearray)):
        kernels = kernels_from_hsaco(bytes(data))
    else:
        from pipeline_mlir.emu.asmtext import kernels_from_asm

        kernels = kernels_from_asm(data)
    if name is None:
        if len(kernels) != 1:
            raise EmuError(f"expected one kernel, found {len(kernels)}: "
                           f"{', '.join(sorted(kernels))}")
        return next(iter(kernels.values()))
    if name not in kernels:
        raise EmuError(f"no kernel {name!r} (kernels: {', '.join(sorted(kernels))})")
    return kernels[name]
