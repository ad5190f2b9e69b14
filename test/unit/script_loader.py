"""Load a script that is not a package module (a benchmark, an example, a data recorder,
``docs/figures.py``) by its path, for the tests that call its functions; or run one as its
own ``__main__`` in the test process (:func:`run_script`: no Python start and imports of
its own)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import runpy
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


def run_script(path, args: list[str]) -> tuple[int, str, str]:
    """(exit code, standard output, standard error) of ``python PATH ARGS`` run in this
    process as its own ``__main__``: ``sys.argv`` its command line and its directory first
    on the module path, as Python runs a script (both restored after)."""
    out, err = io.StringIO(), io.StringIO()
    argv, path_before = sys.argv, list(sys.path)
    sys.argv = [str(path), *args]
    sys.path.insert(0, str(Path(path).resolve().parent))
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            runpy.run_path(str(path), run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, int) and e.code is not None:
            err.write(f"{e.code}\n")
    finally:
        sys.argv, sys.path[:] = argv, path_before
    return code, out.getvalue(), err.getvalue()
