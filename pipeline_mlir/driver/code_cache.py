"""Code objects kept by key: a plain ``--emit=hsaco`` build compiled once for many callers.

:func:`pipeline_mlir.driver.api.compile` asks the store installed with :func:`sharing`
(none by default: every call compiles).  Only a plain build is shared: ``emit="hsaco"``, a
named schedule given as spec text, an input (a file or text) and no other option; its key
is the schedule's text and the input's text (the code object does not depend on the file's
name).  A store installed with wider ``emits`` (e.g. ``("hsaco", "asm")``) shares those
emit kinds too, each apart (an input's build with no ``--emit`` is its ``mlir`` build).  A
build that keeps other stages (``CompileOptions.stages``) is kept by its key and the
stages, and fills the plain build's key too (the same output, without the stages), so a
plain build after it compiles nothing.  A store installed with ``stages`` keeps those
stages with every ``hsaco`` build of an input whose own stages are among them (a plain build
too): each such build runs once with all of them, kept by its key and those stages (and by
the plain key), so that ``--emulate``, ``--emit=hsaco`` and a build that asks for the
lowered MLIR or the schedule of the same input share one run of the passes; a stage the
input cannot give (``--emit=schedule-json`` of a module without a pipeline) leaves the
build as it was asked.  A store installed with ``together`` makes one build of ``mlir``
and the LLVM step's kinds (``llvm``, ``asm``, ``obj``, ``hsaco``, ``report``): a plain
build of one of them (among its ``emits``) runs once as ``--emit=hsaco`` keeping the
others (and the ``hsaco`` stages above) as stages, and each kind's build is that one's
output of its kind; a build whose run with the others fails or says something builds as
it was asked (only then can the others' make a difference: the ISA check of an ``asm``
build, a kind the input cannot give); the one build fills each kind's plain key too, for
the stores' other users (a module that shares one kind of it).  With ``own_kernels`` also
the build of a named schedule with no input (its own complete kernel: what ``--tune``
compiles for each candidate), keyed by the schedule's text alone.  Only a build that succeeded without a diagnostic is kept; anything else compiles
as before and is returned as it came.  A store installed with ``isa_check=False`` builds the
``obj`` and ``hsaco`` code it shares without the ISA check of a code build (as
``--no-isa-check``; a build that asks for that is then plain too): the test suite's, whose
modules build many code objects to emulate them (the ISA check's own tests build outside
it; ``asm`` builds stay checked).

A store is a callable ``store(kind, key, build)`` that returns ``build()`` or what an
earlier ``build`` of the same ``kind`` and ``key`` returned (the test suite's
``test/unit/build_cache.cached``, shared by the run's processes).  The store must be fresh
for one version of this package: a key names the input, not the compiler.
"""

from __future__ import annotations

from pipeline_mlir.driver.arguments import CompileOptions

#: the installed store (None: no sharing), the emit kinds it shares, whether it shares a
#: named schedule's own kernel (a build with no input), and the stages it keeps with every
#: ``hsaco`` build of an input (module docstring)
_store = None
_emits: tuple[str, ...] = ("hsaco",)
_own_kernels = False
_stages: tuple[str, ...] = ()
#: whether the store builds its emit kinds of one input together (module docstring)
_together = False
#: the kinds a ``together`` store builds in one run, the run's ``--emit`` first
TOGETHER = ("hsaco", "obj", "report", "asm", "llvm", "mlir")
#: whether the store's ``obj`` and ``hsaco`` builds run the ISA check (module docstring)
_isa_check = True
#: the emit kinds a store installed with ``isa_check=False`` builds unchecked
UNCHECKED_KINDS = ("obj", "hsaco")


class _NotKept(Exception):
    """A build the store must not keep (it failed or said something)."""


def key_of(options, emits: tuple[str, ...] = ("hsaco",),
           own_kernels: bool = False, isa_check: bool = True) -> tuple | None:
    """The key of a plain build of one of ``emits`` (module docstring), None for any other
    (and for a build with no input unless ``own_kernels``); ``isa_check``: the store's
    (False: a build without the ISA check is plain, module docstring)."""
    import dataclasses      # not at start-up (test_startup.py)
    from pathlib import Path

    kind = _kind(options)
    if kind not in emits:
        return None
    plain = CompileOptions(emit=kind)
    rest = dataclasses.replace(options, schedule=None, input=None, text=None, emit=kind,
                               filename=plain.filename, module=None, codegen_timeout=None,
                               stages=(), isa_check=options.isa_check or (
                                   not isa_check and kind in UNCHECKED_KINDS))
    if rest != plain or not isinstance(options.schedule, str):
        return None
    text = options.text
    if text is None and options.input not in (None, "-"):
        text = Path(options.input).read_text()
    if text is None and not (own_kernels and not options.has_input):
        return None
    return (options.schedule, text) + ((tuple(options.stages),) if options.stages else ())


def _kind(options) -> str | None:
    """The emit kind a build makes: ``--emit``'s, or the default it stands for (the MLIR
    of an input: ``-o out.mlir`` and ``--emit=mlir`` are one build)."""
    if options.emit is not None or not options.has_input:
        return options.emit
    return options.emit_kind


def compile_shared(options, build):
    """``build(options)``, through the installed store when the build is a plain one."""
    key = key_of(options, _emits, _own_kernels, _isa_check) if _store is not None else None
    if key is None:
        return build(options)
    if not _isa_check and _kind(options) in UNCHECKED_KINDS:
        import dataclasses

        options = dataclasses.replace(options, isa_check=False)
    wide = _together_build(options)
    if wide is not None:
        result, ran = _kept_ran(wide, key[:2] + (("together",) + wide.stages,), build)
        if result.failed or result.diagnostics:
            return _kept(_unconsumed(options, ran), key, build)
        for kind in TOGETHER[1:] if ran else ():  # their plain keys (module docstring)
            _store(kind, key[:2], lambda k=kind: _part(result, wide.emit, k))
        return _part(result, wide.emit, _kind(options), options.stages)
    wide = _widened(options)
    if wide is not None:
        result, ran = _kept_ran(wide, key[:2] + (wide.stages,), build)
        if not _stage_failed(result, set(wide.stages) - set(options.stages)):
            return _part(result, wide.emit, _kind(options), options.stages)
        options = _unconsumed(options, ran)
    return _kept(options, key, build)


def _unconsumed(options, ran: bool):
    """``options`` for a build after one with wider options failed: a module given
    parsed (``CompileOptions.module``, its passes run in place) is the failed build's, as
    its passes left it, when that build ran (``ran``), so the build again parses the
    caller's text of it (a loop the front end runs as written, whose ``schedule-json``
    stage has nothing to print, was otherwise built again from the module the passes had
    taken: "nothing to pipeline")."""
    import dataclasses

    if not ran or options.module is None or options.text is None:
        return options
    return dataclasses.replace(options, module=None)


def _together_build(options):
    """The one build of the ``together`` store's kinds ``options`` is one of (module
    docstring), or None."""
    import dataclasses

    from pipeline_mlir.driver.arguments import STAGE_ENDS

    if not _together or _kind(options) not in TOGETHER:
        return None
    kept = {*options.stages, *TOGETHER[1:], *(_stages if options.has_input else ())}
    # (in one order: one key whichever kind asks first; checked, as an asm build is)
    return dataclasses.replace(options, emit=TOGETHER[0], isa_check=True, stages=tuple(
        k for k in STAGE_ENDS if k in kept and k != TOGETHER[0]))


def _part(result, emit: str, kind: str, stages: tuple[str, ...] = ()):
    """The result of the build of ``kind`` keeping ``stages`` out of ``result``, the build
    of ``emit`` that kept them (or is of it; a failed one has no output of any)."""
    import dataclasses

    every = {**result.stages, emit: result.output}
    return dataclasses.replace(
        result, output=every.get(kind), stages={k: every[k] for k in stages if k in every},
        report=result.report if kind == "report" else None)


def _widened(options):
    """``options`` keeping the installed store's stages (module docstring), or None when
    they are not kept with this build."""
    import dataclasses

    if not _stages or _kind(options) != "hsaco" or not options.has_input or \
            not set(options.stages) <= set(_stages):
        return None
    return dataclasses.replace(options, stages=_stages)


def _stage_failed(result, added) -> bool:
    """Whether ``result`` failed at one of the ``added`` stages (its own diagnostic: the
    output of that kind cannot be made from this input), not at the build itself."""
    return result.failed and any(d.message.startswith(f"--emit={kind}:")
                                 for d in result.diagnostics for kind in added)


def _kept(options, key, build):
    """``build(options)`` through the store under ``key`` (kept only when it succeeded
    without a diagnostic); a key with stages fills the plain build's key too."""
    return _kept_ran(options, key, build)[0]


def _kept_ran(options, key, build) -> tuple:
    """:func:`_kept`'s result, and whether ``build`` ran in this call (False: the store
    had the result already)."""
    ran = []

    def keep():
        result = build(options)
        ran.append(result)
        if result.failed or result.diagnostics:
            raise _NotKept
        return result
    try:
        result = _store(_kind(options), key, keep)
    except _NotKept:
        return ran[0], True
    if len(key) > 2:      # the plain build's key too (module docstring)
        import dataclasses

        _store(_kind(options), key[:2], lambda: dataclasses.replace(
            result, stages={}, report=result.report if _kind(options) == "report" else None))
    return result, bool(ran)


def shares(kind: str) -> bool:
    """Whether a store is installed that shares plain builds of the emit ``kind``."""
    return _store is not None and kind in _emits


class _Absent(Exception):
    """The store holds no build under the key asked (:func:`stored`)."""


def stored(options):
    """What the installed store holds for the plain build ``options`` (the result a plain
    build of it returns, read from the store), or None: no store, a build it does not share,
    or none held yet (nothing is built)."""
    key = key_of(options, _emits, _own_kernels, _isa_check) if _store is not None else None
    if key is None:
        return None

    def absent():
        raise _Absent
    try:
        return _store(_kind(options), key[:2], absent)
    except _Absent:
        return None


def shared_result(kind: str, key, work):
    """``work()``, or what an earlier ``work`` of the same ``kind`` and ``key`` returned,
    through the installed store when it shares named schedules' own kernels (``own_kernels``:
    what ``--tune`` builds for each candidate).  For the tuner's work on a candidate that
    depends only on ``key`` (its spec text; its assembly), and ``--simulate``'s simulation of
    a spec's own schedule (its text, cost tables and iterations): simulated once per store,
    as it is built once.  The result must pickle; the caller must not change it."""
    if _store is None or not _own_kernels:
        return work()
    return _store(f"tune-{kind}", key, work)


class sharing:
    """``with sharing(store):`` shares plain code-object builds through ``store`` inside
    the block (the store in place before is back after it); ``emits`` and ``own_kernels``
    widen what is shared, ``stages`` what each ``hsaco`` build keeps, ``isa_check=False``
    builds its ``obj`` and ``hsaco`` code unchecked, ``together`` builds the ``emits`` of
    one input in one run (module docstring)."""

    def __init__(self, store, emits: tuple[str, ...] = ("hsaco",),
                 own_kernels: bool = False, stages: tuple[str, ...] = (),
                 isa_check: bool = True, together: bool = False) -> None:
        self.now = (store, tuple(emits), own_kernels, tuple(stages), isa_check, together)
        self.before = None

    def __enter__(self) -> None:
        global _store, _emits, _own_kernels, _stages, _isa_check, _together
        self.before = (_store, _emits, _own_kernels, _stages, _isa_check, _together)
        _store, _emits, _own_kernels, _stages, _isa_check, _together = self.now

    def __exit__(self, *exc) -> None:
        global _store, _emits, _own_kernels, _stages, _isa_check, _together
        _store, _emits, _own_kernels, _stages, _isa_check, _together = self.before


__all__ = ["compile_shared", "key_of", "shared_result", "shares", "sharing", "stored"]
