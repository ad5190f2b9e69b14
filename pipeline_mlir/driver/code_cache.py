"""Code objects kept by key: a plain ``--emit=hsaco`` build compiled once for many callers.

:func:`pipeline_mlir.driver.api.compile` asks the store installed with :func:`sharing`
(none by default: every call compiles).  Only a plain build is shared: ``emit="hsaco"``, a
named schedule given as spec text, an input (a file or text) and no other option; its key
is the schedule's text and the input's text (the code object does not depend on the file's
name).  Only a build that succeeded without a diagnostic is kept; anything else compiles
as before and is returned as it came.

A store is a callable ``store(kind, key, build)`` that returns ``build()`` or what an
earlier ``build`` of the same ``kind`` and ``key`` returned (the test suite's
``test/unit/build_cache.cached``, shared by the run's processes).  The store must be fresh
for one version of this package: a key names the input, not the compiler.
"""

from __future__ import annotations

from pipeline_mlir.driver.arguments import CompileOptions

#: the installed store (None: no sharing)
_store = None


class _NotKept(Exception):
    """A build the store must not keep (it failed or said something)."""


def key_of(options) -> tuple | None:
    """The key of a plain ``--emit=hsaco`` build (module docstring), None for any other."""
    import dataclasses      # not at start-up (test_startup.py)
    from pathlib import Path

    plain = CompileOptions(emit="hsaco")
    rest = dataclasses.replace(options, schedule=None, input=None, text=None,
                               filename=plain.filename, module=None)
    if rest != plain or not isinstance(options.schedule, str):
        return None
    text = options.text
    if text is None and options.input not in (None, "-"):
        text = Path(options.input).read_text()
    return None if text is None else (options.schedule, text)


def compile_shared(options, build):
    """``build(options)``, through the installed store when the build is a plain one."""
    key = key_of(options) if _store is not None else None
    if key is None:
        return build(options)
    unkept = []

    def keep():
        result = build(options)
        if result.failed or result.diagnostics:
            unkept.append(result)
            raise _NotKept
        return result
    try:
        return _store("hsaco", key, keep)
    except _NotKept:
        return unkept[0]


class sharing:
    """``with sharing(store):`` shares plain code-object builds through ``store`` inside
    the block (the store in place before is back after it)."""

    def __init__(self, store) -> None:
        self.store, self.before = store, None

    def __enter__(self) -> None:
        global _store
        self.before, _store = _store, self.store

    def __exit__(self, *exc) -> None:
        global _store
        _store = self.before


__all__ = ["compile_shared", "key_of", "sharing"]
