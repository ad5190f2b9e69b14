"""The package layers: every module imports only from its own layer or the layers below.

    errors < options < schedule < schedules < kernel < isa < sim < emu < dialect < passes < tools

The emulator (``pipeline_mlir/emu``) is imported by the tools only.

The scheduling core (``pipeline_mlir/schedule``) imports no MLIR at all: no ``mlir`` or
``iree`` module and nothing from the dialect, passes or tools.  Imports are read with
``ast`` from every source file, including those inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: package name -> source directory (pyproject.toml maps the last three)
PACKAGES = {"pipeline_mlir": ROOT / "pipeline_mlir", "pipeline_mlir.dialect": ROOT / "dialect",
            "pipeline_mlir.passes": ROOT / "passes", "pipeline_mlir.tools": ROOT / "tools"}
LAYERS = ("errors", "options", "schedule", "schedules", "kernel", "isa", "sim", "emu", "dialect",
          "passes", "tools")
MLIR_MODULES = ("mlir", "iree")


def modules() -> list[tuple[str, Path]]:
    out = []
    for pkg, directory in PACKAGES.items():
        for path in sorted(directory.rglob("*.py")):
            rel = path.relative_to(directory).with_suffix("")
            if pkg == "pipeline_mlir" and rel.parts[0] in ("dialect", "passes", "tools"):
                continue
            parts = [p for p in rel.parts if p != "__init__"]
            out.append((".".join([pkg, *parts]), path))
    return out


def layer(module: str) -> str | None:
    """The layer of a project module (None: not ours, or the package root)."""
    parts = module.split(".")
    if parts[0] != "pipeline_mlir" or len(parts) < 2:
        return None
    return parts[1]


def imports(source: str) -> list[tuple[str, int]]:
    """(module, line) of every import statement, the names of ``from . import x`` included."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"line {node.lineno}: relative import (the project "
                                     f"imports absolutely)")
            out.append((node.module, node.lineno))
            out += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
    return out


def violations(module: str, source: str) -> list[str]:
    """What ``module`` (with text ``source``) imports against the layer order."""
    me = layer(module)
    found = []
    for name, line in imports(source):
        if me == "schedule" and name.split(".")[0] in MLIR_MODULES:
            found.append(f"{module}:{line}: the scheduling core imports MLIR ({name})")
        other = layer(name)
        if me is None or other is None or other == me or other not in LAYERS:
            continue
        if me not in LAYERS:
            found.append(f"{module}:{line}: module outside the layers imports {name}")
        elif LAYERS.index(other) > LAYERS.index(me):
            found.append(f"{module}:{line}: layer '{me}' imports {name} from the higher "
                         f"layer '{other}'")
    return found


def test_every_module_is_in_a_layer():
    names = [m for m, _ in modules()]
    assert "pipeline_mlir.kernel.plan" in names and "pipeline_mlir.dialect.concrete" in names
    stray = [m for m in names if layer(m) is not None and layer(m) not in LAYERS]
    assert not stray, f"modules outside the layers {LAYERS}: {stray}"


def test_imports_follow_the_layer_order():
    found = [v for m, path in modules() for v in violations(m, path.read_text())]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("module, source, needle", [
    ("pipeline_mlir.isa.check", "def f():\n    from pipeline_mlir.sim.repair import repair\n",
     "layer 'isa' imports pipeline_mlir.sim.repair from the higher layer 'sim'"),
    ("pipeline_mlir.schedule.types", "import mlir.ir\n", "the scheduling core imports MLIR"),
    ("pipeline_mlir.schedule.graph", "from iree.compiler import ir\n",
     "the scheduling core imports MLIR"),
    ("pipeline_mlir.schedule.graph", "from pipeline_mlir.dialect import ops\n",
     "from the higher layer 'dialect'"),
    ("pipeline_mlir.kernel.plan", "from pipeline_mlir import sim\n",
     "from the higher layer 'sim'"),
    ("pipeline_mlir.schedules.registry", "import pipeline_mlir.tools.pipeline_opt\n",
     "from the higher layer 'tools'"),
])
def test_a_violation_is_caught(module, source, needle):
    found = violations(module, source)
    assert found and needle in found[0], found


def test_lower_imports_are_allowed():
    assert violations("pipeline_mlir.sim.trace",
                      "from pipeline_mlir.kernel.plan import KernelPlan\n"
                      "from pipeline_mlir.isa.waitcnt import VMCNT_MAX\n") == []
    assert violations("pipeline_mlir.passes.fix_hazards",
                      "from pipeline_mlir.sim.repair import repair\nimport mlir.ir\n") == []


def test_only_the_tools_import_the_emulator():
    users = [f"{m}:{line}" for m, path in modules() if layer(m) not in ("emu", "tools")
             for name, line in imports(path.read_text()) if layer(name) == "emu"]
    assert not users
