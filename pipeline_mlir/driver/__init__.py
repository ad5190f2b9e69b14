"""The driver: what ``pipeline-opt`` does, as a Python API with typed arguments and results.

* :func:`compile` (:mod:`pipeline_mlir.driver.api`) with :class:`CompileOptions`
  (:mod:`pipeline_mlir.driver.arguments`): a schedule or a pass pipeline over an input (or the
  schedule's default body or GEMM kernel) to one emit kind; a :class:`CompileResult` with the
  output, the diagnostics, the kernel plans and the ``--emit=report`` report.
* :mod:`pipeline_mlir.driver.simulate`, :mod:`~pipeline_mlir.driver.emulate`,
  :mod:`~pipeline_mlir.driver.tune`, :mod:`~pipeline_mlir.driver.launch`: ``--simulate``,
  ``--emulate``, ``--tune``, ``--launch``.
* :mod:`pipeline_mlir.driver.diagnostics`: located diagnostics, their rendering and
  ``--verify-diagnostics``; :mod:`pipeline_mlir.driver.base`: the choices and
  :class:`UsageError`.

The command line (:mod:`pipeline_mlir.tools.pipeline_opt`) only parses argv, calls these and
prints.  Importing the driver is cheap: the names below load on first use (PEP 562), and MLIR,
LLVM, the emulator and the simulator are imported by the functions that use them.
"""

import importlib

#: name -> the module of the driver that defines it
_EXPORTS = {"compile": "api", "CompileResult": "api", "CompileOptions": "arguments",
            "PrintIR": "arguments", "AsmFormat": "arguments", "Diag": "diagnostics", "UsageError": "base"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
