"""Running small gfx950 assembly programs on the emulator (shared by the emulator tests)."""

from __future__ import annotations

import dataclasses

import numpy as np

from pipeline_mlir.emu.asmline import parse_instruction
from pipeline_mlir.emu.codeobj import Kernel, LaunchState
from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.instr import Instr
from pipeline_mlir.emu.machine import GlobalMemory, Machine


#: wave 1 overwrites the LDS bytes wave 0 reads (each lane's dword, 0x400 bytes below in
#: wave 1's addressing), unordered when ``{wait}`` is empty: an LDS race, and in late mode the
#: read sees the write (``v_mov_b32_e32 v4, 1``: the value written; wave 0 moves what it
#: read to v12)
LDS_WAR = """
    v_lshlrev_b32_e32 v1, 4, v0
    s_cmp_eq_u32 s2, s2
    v_mov_b32_e32 v4, 1
    v_readfirstlane_b32 s20, v0
    s_cmp_lt_u32 s20, 64
    s_cbranch_scc0 writer
    ds_read_b128 v[8:11], v1
    {wait}
    s_barrier
    s_waitcnt lgkmcnt(0)
    v_mov_b32_e32 v12, v8
    s_endpgm
writer:
    v_subrev_u32_e32 v1, 0x400, v1
    s_barrier
    ds_write_b32 v1, v4
    s_waitcnt lgkmcnt(0)
    s_endpgm
"""

def snippet_kernel(text: str, lds_bytes: int = 4096) -> Kernel:
    """A kernel of the instruction lines of ``text`` (labels ``name:`` allowed)."""
    from pipeline_mlir.emu.asmtext import _LABEL

    instrs, labels, pending, addr = [], {}, [], 0
    for line in text.strip().splitlines():
        s = line.split(";")[0].strip()
        if not s:
            continue
        m = _LABEL.match(s)
        if m:
            labels[m.group(1)] = addr
            continue
        ins, label = parse_instruction(s, addr)
        if label:
            pending.append((ins, label))
        instrs.append(ins)
        addr += ins.size
    for ins, label in pending:
        ins.f["imm"] = ((labels[label] - ins.addr - 4) // 4) & 0xFFFF
    for ins in instrs:
        ins.text = format_instr(ins)
    launch = LaunchState(lds_bytes, 0, 0, 2, True, (True, False, False), False, 0, 256, 256)
    return Kernel("snippet", instrs, launch, "asm")


def run_snippet(text: str, waves: int = 1, workgroups=(0,), mode: str = "eager",
                setup=None, lds_bytes: int = 4096, glob: GlobalMemory | None = None,
                seed: int = 0) -> Machine:
    """Run ``text`` on ``waves`` waves; ``setup(machine)`` may set registers first."""
    glob = glob or GlobalMemory()
    m = Machine(snippet_kernel(text, lds_bytes), glob, list(workgroups), waves, mode, seed)
    if setup is not None:
        setup(m)
    m.run()
    return m



def buffer_setup(start, offsets, data: dict, active=None):
    """A ``run_snippet`` setup: every wave sees a raw buffer ``C`` holding ``start`` (added
    once) in s[0:3] (its address in s[0:1], its bytes as records), the lane's byte offset
    ``offsets`` in v0 and its whole address in v[2:3] (the global forms'), each
    ``{register: per-lane values}`` of ``data`` (their bits, as uint32), and EXEC from the
    lanes ``active`` if given."""
    size = np.asarray(start).nbytes

    def setup(m):
        if "C" not in m.glob.names:
            m.glob.add("C", np.asarray(start))
        base = (m.glob.names.index("C") + 1) << 32
        for w in m.waves:
            w.S[0], w.S[1], w.S[2], w.S[3] = base & 0xFFFFFFFF, base >> 32, size, 0x27000
            w.V[0] = np.asarray(offsets, dtype=np.uint32)
            full = base + np.asarray(offsets, dtype=np.int64)
            w.V[2], w.V[3] = full & 0xFFFFFFFF, full >> 32
            for r, d in data.items():
                w.V[r] = np.ascontiguousarray(d).view(np.uint32) \
                    if np.asarray(d).dtype.itemsize == 4 else np.asarray(d, dtype=np.uint32)
            if active is not None:
                bits = int(sum(1 << int(k) for k in np.flatnonzero(active)))
                w.S[126], w.S[127] = bits & 0xFFFFFFFF, bits >> 32
                w.exec_changed()
    return setup


def run_transposing_read(name: str, addrs, lds_bytes, *, data: int, acc=False, offset=0,
                         mode="eager", active=None, regs0=None):
    """(the 8 bytes per lane the transposing LDS read ``name`` leaves in registers
    ``data .. data + 1``, as (64, 8) uint8, the machine): one wave, LDS filled with
    ``lds_bytes``, each lane's address from ``addrs``, EXEC from ``active`` (all lanes by
    default), the registers first holding ``regs0`` (2, 64) if given."""
    import numpy as np

    kind = "a" if acc else "v"
    mods = f" offset:{offset}" if offset else ""
    text = f"{name} {kind}[{data}:{data + 1}], v1{mods}\ns_waitcnt lgkmcnt(0)\ns_endpgm"

    def setup(m):
        w = m.waves[0]
        m.lds[0, :len(lds_bytes)] = lds_bytes
        w.V[1] = np.asarray(addrs, dtype=np.uint32)[None]
        if regs0 is not None:
            (w.A if acc else w.V)[data:data + 2, 0] = regs0
        if active is not None:
            bits = int(sum(1 << int(k) for k in np.flatnonzero(active)))
            w.S[126], w.S[127] = bits & 0xFFFFFFFF, bits >> 32     # EXEC
            w.exec_changed()
    m = run_snippet(text, setup=setup, mode=mode, lds_bytes=len(lds_bytes))
    regs = (m.waves[0].A if acc else m.waves[0].V)[data:data + 2, 0]       # (2, 64)
    return np.ascontiguousarray(regs.T).view(np.uint8).reshape(64, 8), m

def _toml_value(v) -> str:
    import json

    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    return json.dumps(v)


def launch_toml(top: dict, args: list[dict], checks: list[dict]) -> str:
    """A launch description's TOML: the top-level fields, then one ``[[arg]]`` table per
    argument and one ``[[check]]`` per check, each after a blank line."""
    lines = [f"{k} = {_toml_value(v)}" for k, v in top.items()]
    for table, rows in (("arg", args), ("check", checks)):
        for row in rows:
            lines += ["", f"[[{table}]]"] + [f"{k} = {_toml_value(v)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"


def buffer_arg(name: str, dtype: str, shape: list, **more) -> dict:
    return dict(name=name, kind="buffer", dtype=dtype, shape=shape, **more)


def c_stores(kernel) -> list:
    """The kernel's global stores (its stores of C)."""
    return [i for i in kernel.instrs if i.name.startswith(("buffer_store", "global_store"))]


def without_store(kernel, store):
    """``kernel`` with ``store`` replaced by an ``s_nop`` of the same size."""
    nop = Instr(store.addr, store.size, "SOPP", 0, "s_nop", {"imm": 0}, text="s_nop 0")
    return dataclasses.replace(kernel, instrs=[nop if i is store else i for i in kernel.instrs],
                               _compiled={})


def moved_store(kernel, store, by: int):
    """``kernel`` with ``store``'s immediate offset moved by ``by`` bytes."""
    moved = dataclasses.replace(store, f=dict(store.f, offset=store.f["offset"] + by))
    return dataclasses.replace(kernel, instrs=[moved if i is store else i
                                               for i in kernel.instrs], _compiled={})


def guard_nops(lines: list[str]) -> list[int]:
    """The indices of the wait-state guards' ``s_nop`` lines: of the guards the ISA check
    reads (``AsmFunction.guard_fences`` of ``pipeline_mlir/isa/asm.py``: two fences of mask
    0 with only ``s_nop`` between them, or of an opened guard's mask, between which LLVM
    may also put the VALU instructions that cross it and their waits)."""
    from pipeline_mlir.isa.asm import parse_asm

    out = []
    for f in parse_asm("\n".join(lines)).functions:
        fences = f.guard_fences()
        for b in f.blocks:
            inside = False
            for i in b.instrs:
                if id(i) in fences:
                    inside = not inside
                elif inside and i.kind == "nop":
                    out.append(i.line - 1)
    return out
