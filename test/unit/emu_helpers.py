"""Running small gfx950 assembly programs on the emulator (shared by the emulator tests)."""

from __future__ import annotations

from pipeline_mlir.emu.asmline import parse_instruction
from pipeline_mlir.emu.codeobj import Kernel, LaunchState
from pipeline_mlir.emu.disasm import format_instr
from pipeline_mlir.emu.machine import GlobalMemory, Machine


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
