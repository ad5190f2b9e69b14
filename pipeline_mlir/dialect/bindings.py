"""The one place that imports the MLIR Python bindings.

Everything else in ``pipeline_mlir.dialect``, ``pipeline_mlir.passes`` and the
driver imports ``ir``, ``passmanager``, ``rewrite`` and the upstream dialect
modules from here.  The default stack is iree-base-compiler's bindings (MLIR 24);
where those are missing, the upstream
``mlir`` package (same module layout) stands in.

``FLAVOR`` says which one was found: ``"iree"`` or ``"mlir"``.  Features that only
the IREE build has (``iree-convert-to-rocdl``, ``iree-lld``, the global GPU
target flag) are reached through the helpers below, which raise a clear error
on the upstream package.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import types

from pipeline_mlir.target import DEFAULT_CHIP

#: the attribute builders the bindings' ``ir`` module registers only when numpy imports:
#: kind -> (numpy dtype name, element type for a context)
_NUMPY_BUILDERS = {
    "F64ElementsAttr": ("float64", lambda ctx: ir.F64Type.get(context=ctx)),
    "I32ElementsAttr": ("int32", lambda ctx: ir.IntegerType.get_signless(32, context=ctx)),
    "I64ElementsAttr": ("int64", lambda ctx: ir.IntegerType.get_signless(64, context=ctx)),
    "IndexElementsAttr": ("int64", lambda ctx: ir.IndexType.get(context=ctx)),
}


def _import_without_numpy(root: str):
    """``(root.ir, root.passmanager)``, imported without loading numpy.

    The bindings' ``ir`` module imports numpy (about 0.11 s, a quarter of a
    ``pipeline-opt`` start) only to register the builders of :data:`_NUMPY_BUILDERS`,
    and skips them when numpy does not import.  Numpy is hidden for that import (where
    no one loaded it yet) and the builders are registered here instead, each importing
    numpy when first called: the same builders, numpy loaded only by who uses it."""
    hidden = "numpy" not in sys.modules
    if hidden:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # `import numpy` fails
    try:
        ir_mod = importlib.import_module(f"{root}.ir")
        pm_mod = importlib.import_module(f"{root}.passmanager")
    finally:
        if hidden and sys.modules.get("numpy", False) is None:
            del sys.modules["numpy"]
    if hidden:
        for kind, (dtype, element) in _NUMPY_BUILDERS.items():
            ir_mod.register_attribute_builder(kind)(
                _lazy_numpy_builder(ir_mod, dtype, element))
    return ir_mod, pm_mod


def _lazy_numpy_builder(ir_mod, dtype: str, element):
    def build(values, context):
        import numpy

        return ir_mod.DenseElementsAttr.get(numpy.array(values, dtype=dtype),
                                            type=element(context), context=context)
    return build


try:  # iree-base-compiler: the pinned stack
    ir, passmanager = _import_without_numpy("iree.compiler")

    FLAVOR = "iree"
    _ROOT = "iree.compiler"
except ImportError:  # pragma: no cover - the upstream package, where installed
    ir, passmanager = _import_without_numpy("mlir")

    FLAVOR = "mlir"
    _ROOT = "mlir"

#: dialect modules, imported on first use (they cost about 0.35 s together)
DIALECTS = ("amdgpu", "arith", "func", "gpu", "llvm", "memref", "rocdl", "scf", "vector")


def __getattr__(name: str):
    if name in DIALECTS:
        mod = importlib.import_module(f"{_ROOT}.dialects.{name}")
    elif name == "rewrite":
        mod = importlib.import_module(f"{_ROOT}.rewrite")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = mod
    return mod

_GLOBAL_TARGET: str | None = None

#: the dialects whose ops the project makes without registering them (``allow_unregistered_
#: dialects``): ``sched``
UNREGISTERED = ("sched",)


def _stand_in_dialect_modules() -> None:
    """Give each of :data:`UNREGISTERED` an empty module ``<root>.dialects.<name>``.

    The bindings wrap every operation they hand to Python in the op class of its dialect,
    and look the dialect's Python module up for that (an import of
    ``<root>.dialects.<namespace>``); they remember a module they found, not one they did
    not, so every ``sched.*`` op handed out repeated a failed import through every import
    hook of the process (about 1800 per compile of an IREE kernel).  With the empty module
    the first look-up succeeds and is remembered; it registers no op class, so the ops are
    wrapped as before (a generic ``OpView``)."""
    for name in UNREGISTERED:
        full = f"{_ROOT}.dialects.{name}"
        if full not in sys.modules:
            sys.modules[full] = types.ModuleType(full, f"stand-in for the unregistered "
                                                       f"'{name}' dialect (bindings.py)")


_stand_in_dialect_modules()


def new_context() -> "ir.Context":
    """A context in which ``sched.*`` (unregistered) ops parse and verify."""
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    return ctx


#: contexts that finished builds handed back (:func:`build_context`), with their uses
_SPARE: list = []
#: the builds one context serves before it is let go: what it keeps (the types, attributes
#: and locations it uniqued) grows with each
CONTEXT_USES = 16


@contextlib.contextmanager
def build_context():
    """A context of :func:`new_context`, entered (the default of the ``with`` block): one a
    finished build handed back when there is one.  A new context loads every dialect
    IREE's bindings register, about 13 ms of CPU, more than many passes.  What a build
    leaves in the context (its uniqued types and attributes, a module still referenced)
    is not part of the next one's IR, and printing names and numbers what it prints
    afresh, so the next build in the same context makes the same output.  A context left
    by an exception, or whose settings its build changed (threading turned off by
    ``--mlir-disable-threading`` in a build given a module parsed in this context, the
    emulator's dispatch), is not handed back."""
    ctx, uses = _SPARE.pop() if _SPARE else (new_context(), 0)
    settings = _settings(ctx)
    with ctx:
        yield ctx
    if uses + 1 < CONTEXT_USES and _settings(ctx) == settings:
        _SPARE.append((ctx, uses + 1))


def _settings(ctx) -> tuple:
    """What of a context a build may change that the next build would run with."""
    return (ctx.get_num_threads(), ctx.emit_error_diagnostics, ctx.allow_unregistered_dialects)


def ensure_gpu_target(chip: str = DEFAULT_CHIP) -> None:
    """Make IREE's GPU lowering know the target chip (process-global, set once).

    ``iree-convert-to-rocdl`` crashes without a target; the bindings only offer a
    process-wide flag, so asking for a second, different chip is an error.
    """
    global _GLOBAL_TARGET
    if FLAVOR != "iree":
        raise RuntimeError("lowering to LLVM needs iree-base-compiler (iree-convert-to-rocdl)")
    if _GLOBAL_TARGET is None:
        from iree.compiler.api import _initializeGlobalCL

        _initializeGlobalCL("pipeline-opt", f"--iree-gpu-test-target={chip}")
        _GLOBAL_TARGET = chip
    elif _GLOBAL_TARGET != chip:
        raise ValueError(f"the GPU target is already set to {_GLOBAL_TARGET} in this process; "
                         f"cannot switch to {chip}")
