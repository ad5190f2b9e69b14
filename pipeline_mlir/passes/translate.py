"""LLVM IR text of an LLVM-dialect module, in process or in a worker process.

:func:`translate_to_llvm_ir` checks the module first, because the bindings'
``translate_module_to_llvmir`` segfaults on an op it cannot translate instead of
raising.  The text is LLVM 24's; :mod:`pipeline_mlir.isa.codegen` compiles it with
llvmlite's LLVM 22 (the one known skew, ``make.buffer.rsrc``, is shimmed on both
sides).  ``isolated=True`` translates in a child process (:mod:`pipeline_mlir.isa.worker`:
this module run as ``python -m pipeline_mlir.passes.translate --worker``), which turns a
crash the check cannot foresee into a :class:`ToLLVMError`.
"""

from __future__ import annotations

import re
import sys

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import build_context, ir
from pipeline_mlir.dialect.locations import location_text
from pipeline_mlir.errors import PipelineError
from pipeline_mlir.isa import worker
from pipeline_mlir.passes._common import as_operation, collect_ops


class ToLLVMError(PipelineError):
    """The step to LLVM failed; the message names the op and its location.

    ``located``: from a translation in a child process, MLIR's diagnostics as
    ``(severity, message, location text)`` (the message is their text); empty when the
    child timed out or crashed with none."""

    def __init__(self, message: str, located: tuple = ()) -> None:
        super().__init__(message)
        self.located = located


class ChildTranslationError(ToLLVMError):
    """The translation in a child process failed: MLIR's diagnostics (``located``), or the
    child timed out, crashed or could not start (the message says which)."""


def where(location) -> str:
    """``loc("f.mlir":3:5)`` -> ``f.mlir:3:5``."""
    return location_text(location)[0]


def diagnostics_text(err) -> str:
    """The located error diagnostics of an ``ir.MLIRError``, one per line."""
    diags = getattr(err, "error_diagnostics", None) or []
    if not diags:
        return str(err).strip()
    return "\n".join(f"{where(d.location)}: error: {d.message}" for d in diags)


def _at(op, message: str) -> ToLLVMError:
    """A ToLLVMError at ``op``: its text ``file:line:col: message``, ``located`` too."""
    return ToLLVMError(f"{where(op.location)}: {message}",
                       (("error", message, str(op.location)),))


def _check_translatable(op) -> None:
    """Raise ToLLVMError for anything ``translate_module_to_llvmir`` would crash on."""
    if op.name != "builtin.module":
        raise _at(op, f"expected a 'builtin.module' to translate, got '{op.name}'")
    funcs: list = []        # (the llvm.func ops, read in the same walk)

    def untranslatable(o) -> bool:
        name = o.name
        if name == "llvm.func":
            funcs.append(o)
        return not (name.startswith("llvm.") or (name == "builtin.module" and o == op))
    bad = collect_ops(op, untranslatable)
    if bad:
        o = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise _at(o, f"'{o.name}' op cannot be translated to LLVM IR{more}: only llvm.* ops "
                     f"can (run the step to LLVM first)")
    for f in funcs:
        cconv = f.attributes["CConv"] if "CConv" in f.attributes else None
        if str(cconv) == "#llvm.cconv<amdgpu_kernelcc>":
            ftype = str(f.attributes["function_type"])
            if not ftype.startswith("!llvm.func<void "):
                name = ir.StringAttr(f.attributes["sym_name"]).value
                raise _at(f, f"kernel '{name}' must return void")
    try:
        op.verify()
    except ir.MLIRError as e:
        raise ToLLVMError(diagnostics_text(e), tuple(
            ("error", d.message, str(d.location)) for d in e.error_diagnostics)) from None


def translate_to_llvm_ir(module, *, isolated: bool = False,
                        timeout: float = worker.DEFAULT_TIMEOUT) -> str:
    """LLVM IR text of an LLVM-dialect module (``ir.Module`` or its operation).

    Guarded: a non-``llvm.*`` op anywhere, a kernel returning a value or a
    verifier failure raises :class:`ToLLVMError` naming the op and location
    (the underlying ``translate_module_to_llvmir`` would segfault on them).

    The bindings segfault on *any* translation failure, including ones the
    guard cannot foresee (an ``llvm.call_intrinsic`` whose operand types do not
    match the intrinsic).  ``isolated=True`` translates in a child process
    (about 0.2 s more) and turns such a failure into a ToLLVMError carrying
    MLIR's located diagnostics; use it for IR that did not come from
    the LLVM step (``registry.TO_LLVM_PASSES``).  The child is killed after ``timeout``
    seconds (``--codegen-timeout``).
    """
    op = as_operation(module)
    _check_translatable(op)
    if isolated:
        return _translate_in_child(op, timeout)
    with op.context:
        return B.llvm.translate_module_to_llvmir(op)


#: the worker: this module run as ``python -m``
_MODULE = "pipeline_mlir.passes.translate"
_DIAG_LINE = re.compile(r"^(loc\(.*?\)): (error|note): (.*)$")


def _translate_in_child(op, timeout: float) -> str:
    text = op.get_asm(enable_debug_info=True, print_generic_op_form=True)
    done = worker.run(_MODULE, text.encode(), timeout=timeout, error=ChildTranslationError,
                      doing="translation to LLVM IR", starting="translation to LLVM IR",
                      parts=1)
    if done.status == 0:
        return done.parts[0].decode()
    located = tuple((m.group(2), m.group(3), m.group(1)) for m in
                    (_DIAG_LINE.match(ln.strip()) for ln in done.stderr.splitlines()) if m)
    if not located:
        raise ChildTranslationError(f"translation to LLVM IR {done.how()}")
    raise ChildTranslationError("\n".join(f"{where(loc)}: {sev}: {msg}"
                                          for sev, msg, loc in located), located)


def _translate(payload: bytes) -> list[bytes]:
    """The worker's work: an LLVM-dialect module (generic form) -> [its LLVM IR]."""
    with build_context() as ctx:
        module = ir.Module.parse(payload, ctx)
        return [B.llvm.translate_module_to_llvmir(module.operation).encode()]


if __name__ == "__main__":
    sys.exit(worker.serve(_translate, _MODULE, "an LLVM-dialect module"))
