"""The emulator's modules are layered: each imports only the modules below it, so the
package reads bottom-up with no import cycle.

    errors, opcodes, instr, poison, spare < scaled < disasm < decode < operands < salu, valu_lanes, lanes, fp8cvt < valu, packed < semantics,
    memops, mfma < mfma_mx (valu < gpridx < program, machine) (errors, soffset_range, racy_loads < globalrace < memops, pool) (memop < ds_ops < memops) (atomics < memops), scratch, long_branch < program < codeobj < asmline < asmtext < inputs;  memops, semantics < machine
    < pool, split < gemm < iree_data < iree (mfma < iree; counters, hazards, launchdims, taint < machine; racy_loads < gemm; hazards, long_branch < hazard_paths < machine; globalrace < coverage < gemm);  mfma, fp8cvt < expect < launchfile
    < described (gemm, machine < described);  machine < trips
"""

from __future__ import annotations

import ast
from pathlib import Path

EMU = Path(__file__).resolve().parents[3] / "pipeline_mlir" / "emu"
#: module -> the emulator modules it may import
ALLOWED = {
    "errors": set(), "opcodes": set(), "instr": set(), "poison": set(), "spare": set(),
    "scaled": {"instr"},
    "disasm": {"instr", "scaled"},
    "decode": {"disasm", "errors", "instr", "opcodes", "scaled"},
    "operands": {"errors", "instr"},
    "salu": {"instr", "operands"},
    "valu_lanes": {"operands"},
    "lanes": {"instr", "operands"},
    "fp8cvt": {"instr", "operands"},
    "valu": {"fp8cvt", "instr", "lanes", "operands", "valu_lanes"},
    "semantics": {"errors", "instr", "operands", "salu", "valu"},
    "gpridx": {"errors", "instr", "operands", "valu"},
    "lds_transpose": set(), "soffset_range": set(),
    "racy_loads": set(), "taint": {"operands"},
    "globalrace": {"errors", "racy_loads"},
    "memop": {"operands"},
    "ds_ops": {"instr", "lds_transpose", "memop", "operands"},
    "atomics": {"instr", "operands"},
    "memops": {"atomics", "ds_ops", "errors", "globalrace", "instr", "memop", "operands",
               "soffset_range"},
    "mfma": {"errors", "instr", "operands"},
    "mfma_mx": {"errors", "instr", "mfma", "operands", "scaled"},
    "scratch": {"instr", "memops", "operands", "poison", "taint"},
    "packed": {"instr", "operands"},
    "long_branch": {"errors", "instr", "operands"},
    "program": {"gpridx", "instr", "long_branch", "operands", "semantics", "memops", "mfma", "mfma_mx",
                "packed", "scratch"},
    "codeobj": {"decode", "errors", "instr", "long_branch", "program"},
    "asmline": {"instr", "opcodes", "scaled"},
    "asmtext": {"asmline", "codeobj", "disasm", "errors", "instr"},
    "inputs": {"asmtext", "codeobj", "errors"},
    "hazards": {"errors", "instr", "operands"},
    "hazard_paths": {"hazards", "instr", "long_branch"},
    "launchdims": set(),
    "counters": set(),
    "machine": {"counters", "errors", "globalrace", "gpridx", "hazard_paths", "hazards", "launchdims",
                "memops", "operands", "poison", "semantics", "spare", "taint"},
    "pool": {"errors", "globalrace", "machine"},
    "split": {"machine"},
    "coverage": {"errors", "globalrace"},
    "gemm": {"coverage", "errors", "globalrace", "launchdims", "machine", "mfma", "pool",
             "racy_loads", "spare", "split"},
    "iree_data": {"gemm"},
    "iree": {"coverage", "errors", "gemm", "iree_data", "launchdims", "machine", "mfma"},
    "expect": {"errors", "fp8cvt", "mfma"},
    "launchfile": {"errors", "expect"},
    "described": {"coverage", "expect", "gemm", "launchdims", "launchfile", "machine", "poison"},
    "trips": {"errors", "machine"},
}


def emu_imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for n in names:
            parts = n.split(".")
            if parts[:2] == ["pipeline_mlir", "emu"] and len(parts) > 2 and \
                    (EMU / f"{parts[2]}.py").exists():
                out.add(parts[2])
    return out


def test_every_module_is_placed():
    found = {p.stem for p in EMU.glob("*.py") if p.stem != "__init__"}
    assert found == set(ALLOWED), "place new emulator modules in ALLOWED"


def test_modules_import_only_lower_layers():
    bad = []
    for name, allowed in ALLOWED.items():
        extra = emu_imports(EMU / f"{name}.py") - allowed - {name}
        if extra:
            bad.append(f"{name} imports {sorted(extra)}")
    assert not bad, bad


def test_allowed_has_no_cycle():
    # the declared order itself is acyclic (else the test above could pass with a cycle)
    state: dict[str, int] = {}

    def visit(n, path):
        assert state.get(n) != 1, f"cycle: {' -> '.join(path + [n])}"
        if state.get(n) == 2:
            return
        state[n] = 1
        for m in ALLOWED[n]:
            visit(m, path + [n])
        state[n] = 2

    for n in ALLOWED:
        visit(n, [])


def test_a_cycle_is_seen(tmp_path):
    # negative: the import reader sees an import inside a function (how the old cycles hid)
    p = tmp_path / "x.py"
    p.write_text("def f():\n    from pipeline_mlir.emu import memops\n    "
                 "from pipeline_mlir.emu.mfma import compile_mfma\n")
    assert emu_imports(p) == {"memops", "mfma"}
