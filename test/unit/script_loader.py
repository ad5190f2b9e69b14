"""Load a script that is not a package module (a benchmark, an example, a data recorder,
``docs/figures.py``) by its path, for the tests that call its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def load_script(path, name: str | None = None, keep: bool = False):
    """The module of the Python file ``path``, named ``name`` (by default the file's stem),
    run afresh; ``keep``: registered in ``sys.modules`` under ``name`` before it runs, and
    the registered one returned if there is one (a script loaded once per process)."""
    name = name or Path(path).stem
    if keep and name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if keep:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
