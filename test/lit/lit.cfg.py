# -*- Python -*-
"""lit configuration of the pipeline-opt FileCheck suite.

Run it with ``lit test/lit`` or LLVM's ``llvm-lit test/lit`` (any Python may run
lit: the tools are found as below), or with ``pytest`` through
``test/unit/tools/test_lit.py`` (one pytest item per file lit discovers here).

Substitutions:

* ``pipeline-opt``: ``$PIPELINE_OPT`` if set; else the console script next to
  the Python running lit (a venv's lit); else ``pipeline-opt`` on ``PATH``.
  Without any of them the suite stops with a message saying so.  With
  ``$PIPELINE_LIT_LAUNCHER`` set (the pytest run's, ``test/unit/zygote.py``),
  that launcher followed by the tool's path.
* ``FileCheck``: ``$FILECHECK`` if set (e.g. LLVM's
  ``/usr/lib/llvm-22/bin/FileCheck``); else LLVM's ``FileCheck`` (or Debian's
  ``FileCheck-22``) on ``PATH``; else the Python ``filecheck`` next to the tool
  or to the Python running lit; else ``filecheck`` on ``PATH``.
* ``%python``: the Python running lit (tests use it only for plain scripts).

``not`` is lit's internal-shell builtin.  Tests must pass with both checkers:
no ``[[#N]]`` numeric substitutions, no ``[[@LINE+N]]`` line expressions and no
``--implicit-check-not`` (``test_lit.py`` checks each file).
"""

import hashlib
import os
import shutil
import sys
import tempfile

import lit.formats

# lit runs this file with two globals of its own, the suite's TestingConfig and the
# LitConfig; named here so a linter sees them defined and still flags any other undefined name.
config = globals()["config"]
lit_config = globals()["lit_config"]

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


def _next_to(directory: str, name: str) -> str | None:
    path = os.path.join(directory, name)
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def _find_pipeline_opt() -> str:
    given = os.environ.get("PIPELINE_OPT")
    if given:
        found = shutil.which(given)
        if not found:
            lit_config.fatal(f"PIPELINE_OPT={given} is not an executable")
        return found
    found = _next_to(os.path.dirname(sys.executable), "pipeline-opt") or \
        shutil.which("pipeline-opt")
    if not found:
        lit_config.fatal("pipeline-opt not found: put the pipeline-mlir environment's bin "
                         "directory on PATH (or set PIPELINE_OPT=/path/to/pipeline-opt)")
    return os.path.abspath(found)


def _find_filecheck(tool_dir: str) -> str:
    given = os.environ.get("FILECHECK")
    if given:
        return given
    # LLVM's checker first where it is installed: a native process per check, where each
    # Python filecheck process costs ~0.1 s of CPU to start (about 200 checks a run)
    found = shutil.which("FileCheck") or shutil.which("FileCheck-22") or \
        _next_to(tool_dir, "filecheck") or \
        _next_to(os.path.dirname(sys.executable), "filecheck") or shutil.which("filecheck")
    if not found:
        lit_config.fatal("no FileCheck: install filecheck (pip install -e '.[test]') or set "
                         "FILECHECK=/path/to/FileCheck")
    return found


_pipeline_opt = _find_pipeline_opt()
_tool_dir = os.path.dirname(_pipeline_opt)
_filecheck = _find_filecheck(_tool_dir)

# Tool names match only as whole words (not inside paths or option names).  Order matters:
# each substitution runs once, in this order, over the RUN line.
# $PIPELINE_LIT_LAUNCHER (a pytest run's, test/unit/zygote.py) runs the same command
# line in a process forked from one that imported the tool once.
_launcher = os.environ.get("PIPELINE_LIT_LAUNCHER")
config.substitutions.append((r"(?<![\w/.-])pipeline-opt(?![\w.-])",
                             f"{_launcher} {_pipeline_opt}" if _launcher else _pipeline_opt))
# $PIPELINE_LIT_FILECHECK_LAUNCHER (a pytest run's) does the same for the Python checker,
# where it is the one found next to the tool or to this Python (the zygote runs that
# environment's filecheck): not for LLVM's, nor for one named by $FILECHECK.
_checker_launcher = os.environ.get("PIPELINE_LIT_FILECHECK_LAUNCHER")
if _checker_launcher and not os.environ.get("FILECHECK") and _filecheck in (
        _next_to(_tool_dir, "filecheck"), _next_to(os.path.dirname(sys.executable), "filecheck")):
    _filecheck = f"{_checker_launcher} {_filecheck}"
config.substitutions.append((r"(?<![\w/.-])FileCheck(?![\w.-])", _filecheck))
config.substitutions.append(("%python", sys.executable))

config.environment["PATH"] = os.pathsep.join([_tool_dir, os.environ.get("PATH", "")])
# PYTHONPATH too: a checkout run through PYTHONPATH tests its own pipeline_mlir; and the
# bytecode cache directory of a pytest run (test/unit/conftest.py), whose modules are then
# compiled once for all the RUN lines.
for _var in ("HOME", "TMPDIR", "PYTHONPATH", "PIPELINE_OPT_TRACEBACK", "PYTHONPYCACHEPREFIX",
             "PIPELINE_OPT_CODEGEN_TIMEOUT", "PIPELINE_WORKER_LAUNCHER",
             "PIPELINE_EMU_WORKER_LAUNCHER"):
    if _var in os.environ:
        config.environment[_var] = os.environ[_var]

if os.environ.get("FILECHECK") or os.path.basename(_filecheck).startswith("FileCheck"):
    config.available_features.add("llvm-filecheck")
