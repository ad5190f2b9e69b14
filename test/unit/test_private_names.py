"""No module imports another module's private names (``from pipeline_mlir.x import _y``).

A name with a leading underscore is its module's own: another module that needs it gets it
made public (and documented) in the module that defines it.  Imports are read with ``ast``
from every source file, function-local ones included.
"""

from __future__ import annotations

import ast

from test_layers import modules

def private_imports(source: str) -> list[tuple[int, str, str]]:
    """(line, module, name) of every ``from pipeline_mlir... import _name`` in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipeline_mlir"):
            out += [(node.lineno, node.module, a.name) for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")]
    return out


def test_the_check_sees_a_private_import():
    src = ("from pipeline_mlir.frontend.scan import LoopScan, _hidden\n"
           "def f():\n    from pipeline_mlir.kernel import _inner as inner\n"
           "from pipeline_mlir import __version__\nfrom os import _exit\n")
    assert private_imports(src) == [(1, "pipeline_mlir.frontend.scan", "_hidden"),
                                    (3, "pipeline_mlir.kernel", "_inner")]


def test_no_module_imports_a_private_name():
    found = []
    for name, path in modules():
        found += [f"{path.name}:{line}: {mod}.{what}"
                  for line, mod, what in private_imports(path.read_text(encoding="utf-8"))]
    assert not found, "private names imported from another module:\n" + "\n".join(found)
