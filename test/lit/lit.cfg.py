# -*- Python -*-
"""lit configuration of the pipeline-opt FileCheck suite.

Run it with ``lit test/lit`` (or ``pytest``, through ``test/unit/test_lit.py``).

Substitutions:

* ``pipeline-opt``: the console script next to the Python running lit (the
  venv's), else ``python -m pipeline_mlir.tools.pipeline_opt``;
* ``FileCheck``: ``$FILECHECK`` if set (e.g. LLVM's
  ``/usr/lib/llvm-22/bin/FileCheck``), else the Python ``filecheck`` next to
  the Python running lit;
* ``%python``: that Python.

``not`` is lit's internal-shell builtin.  Tests must pass with both checkers:
no ``[[#N]]`` numeric substitutions and no ``--implicit-check-not``.
"""

import hashlib
import os
import sys
import tempfile

import lit.formats

config.name = "pipeline-opt"
# lit 23 rejects execute_external=True; the internal shell handles pipes, `not` and 2>&1.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

# Keep lit's Output/ directories (%t files) out of the source tree.
_exec_root = os.environ.get("PIPELINE_LIT_EXEC_ROOT")
if not _exec_root:
    _tag = hashlib.sha1(config.test_source_root.encode()).hexdigest()[:8]
    _exec_root = os.path.join(tempfile.gettempdir(),
                              f"pipeline-mlir-lit-{os.getuid()}-{_tag}")
config.test_exec_root = _exec_root

_bindir = os.path.dirname(sys.executable)


def _tool(name: str, fallback: str) -> str:
    path = os.path.join(_bindir, name)
    return path if os.path.exists(path) else fallback


_pipeline_opt = _tool("pipeline-opt", f"{sys.executable} -m pipeline_mlir.tools.pipeline_opt")
_filecheck = os.environ.get("FILECHECK") or _tool("filecheck", "filecheck")

# Tool names match only as whole words (not inside paths or option names).  Order matters:
# each substitution runs once, in this order, over the RUN line.
config.substitutions.append((r"(?<![\w/.-])pipeline-opt(?![\w.-])", _pipeline_opt))
config.substitutions.append((r"(?<![\w/.-])FileCheck(?![\w.-])", _filecheck))
config.substitutions.append(("%python", sys.executable))

config.environment["PATH"] = os.pathsep.join([_bindir, os.environ.get("PATH", "")])
for _var in ("HOME", "TMPDIR", "PIPELINE_OPT_TRACEBACK"):
    if _var in os.environ:
        config.environment[_var] = os.environ[_var]

if os.environ.get("FILECHECK"):
    config.available_features.add("llvm-filecheck")
