"""The package layers: every module imports only from its own layer or the layers below,
and no set of modules imports itself round in a circle.

    whole_write < records < errors < options < target < schedule < schedules < kernel < isa
            < sim < emu < dialect < analysis < frontend < lowering < passes < driver < tools

The emulator (``pipeline_mlir/emu``) is imported by the driver and the tools only.

The scheduling core (``pipeline_mlir/schedule``) imports no MLIR at all: no ``mlir`` or
``iree`` module and nothing from the dialect, passes or tools.  Imports are read with
``ast`` from every source file, including those inside functions, so an import cycle that a
function-local import hides is still a cycle here.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pipeline_mlir"
LAYERS = ("whole_write", "records", "errors", "options", "target", "schedule", "schedules",
          "kernel", "isa", "sim", "emu", "dialect", "analysis", "frontend", "lowering", "passes",
          "driver", "tools")
MLIR_MODULES = ("mlir", "iree")


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        out.append((".".join(["pipeline_mlir", *parts]), path))
    return out


def layer(module: str) -> str | None:
    """The layer of a project module (None: not ours, or the package root)."""
    parts = module.split(".")
    if parts[0] != "pipeline_mlir" or len(parts) < 2:
        return None
    return parts[1]


def imports(source: str) -> list[tuple[str, int]]:
    """(module, line) of every import statement, the names of ``from . import x`` included."""
    return list(_imports(source))


@functools.lru_cache(maxsize=None)
def _imports(source: str) -> tuple[tuple[str, int], ...]:
    """:func:`imports` of ``source``, read once per process: the tests here read every
    module's imports (the layers, the emulator's users, the cycles), a parse of the whole
    package each."""
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
    return tuple(out)


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
    assert "pipeline_mlir.kernel.plan" in names and "pipeline_mlir.lowering.materialize" in names
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


def test_only_the_driver_and_the_tools_import_the_emulator():
    users = [f"{m}:{line}" for m, path in modules() if layer(m) not in ("emu", "driver", "tools")
             for name, line in imports(path.read_text()) if layer(name) == "emu"]
    assert not users


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """module -> the project modules it imports (``from pkg import name`` names the module
    ``pkg.name`` where that is a module, else ``pkg``), function-local imports included."""
    graph: dict[str, set[str]] = {m: set() for m in sources}
    for m, source in sources.items():
        for name, _ in imports(source):
            while name and name not in sources:
                name = name.rpartition(".")[0]
            if name and name != m and name != "pipeline_mlir":
                graph[m].add(name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    graph = import_graph({m: path.read_text() for m, path in modules()})
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_a_cycle_is_caught():
    sources = {"pipeline_mlir.frontend.a": "def f():\n    from pipeline_mlir.frontend import b\n",
               "pipeline_mlir.frontend.b": "from pipeline_mlir.frontend.c import x\n",
               "pipeline_mlir.frontend.c": "import pipeline_mlir.frontend.a\n",
               "pipeline_mlir.frontend.d": "from pipeline_mlir.frontend.c import x\n"}
    assert cycles(import_graph(sources)) == [["pipeline_mlir.frontend.a", "pipeline_mlir.frontend.b",
                                              "pipeline_mlir.frontend.c"]]
    del sources["pipeline_mlir.frontend.c"]
    assert cycles(import_graph(sources)) == []
