"""The test modules' assertion rewriting shared by pytest-xdist's workers.

Each worker collects every test module, and pytest rewrites each module's ``assert``
statements (a Python pass over its syntax tree: most of a cold collection's CPU time, about
6 s per worker for the whole suite) before it caches the result (in the run's bytecode
cache, ``PYTHONPYCACHEPREFIX``, made by ``conftest.py``).  Started together, both workers
would rewrite every module; :func:`rewrite_share` has each rewrite its share first (worker
``i`` of ``n``: every ``n``-th module of the run), so that collection then finds most
modules rewritten by one worker or the other (a module not ready yet is rewritten again
by the worker that needs it: pytest writes each cached module atomically).  It uses
pytest's own rewriting functions, the ones its import hook calls; where they are not there
(another pytest), it does nothing and collection rewrites as before.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path


def _rewriter():
    """pytest's rewriting functions, or None where this pytest has not got them."""
    try:
        from _pytest.assertion import rewrite as r
        return (r.assertstate_key, r.get_cache_dir, r.PYC_TAIL, r._read_pyc, r._rewrite_test,
                r._write_pyc, r.try_makedirs)
    except (ImportError, AttributeError):
        return None


def modules_of(args: list[str], bases: tuple[Path, ...] = (Path.cwd(),)) -> list[Path]:
    """The ``test_*.py`` files the command-line ``args`` name (files, or directories
    searched through; a relative one from the first of ``bases`` that has it), sorted,
    each once."""
    found: set[Path] = set()
    for arg in args:
        name = Path(arg.split("::", 1)[0])
        p = next((b / name for b in bases if (b / name).exists()), name).resolve()
        if p.is_dir():
            found.update(p.rglob("test_*.py"))
        elif p.name.startswith("test_") and p.suffix == ".py" and p.is_file():
            found.add(p)
    return sorted(found)


def rewrite_share(config, worker: int, workers: int) -> int:
    """Rewrite (and cache) the ``worker``-th of every ``workers`` test modules of the run
    (``config.args``) not cached yet, as pytest's import hook would; the number rewritten."""
    funcs = _rewriter()
    if funcs is None or sys.dont_write_bytecode or \
            getattr(config.option, "assertmode", None) != "rewrite":
        return 0
    key, cache_dir_of, tail, read_pyc, rewrite, write_pyc, makedirs = funcs
    state = config.stash.get(key, None)
    if state is None:
        return 0
    done = 0
    bases = (config.invocation_params.dir, config.rootpath)
    for fn in modules_of(list(config.args), bases)[worker::workers]:
        cache_dir = cache_dir_of(fn)
        pyc = cache_dir / (fn.name[:-3] + tail)
        if not makedirs(cache_dir) or read_pyc(fn, pyc, state.trace) is not None:
            continue
        try:
            source_stat, co = rewrite(fn, config)
        except SyntaxError:           # collection reports it at the module
            continue
        write_pyc(state, co, source_stat, pyc)
        done += 1
    return done


#: packages of pytest plugins whose asserts pytest would rewrite (every top-level module of
#: a plugin's distribution is marked) and the tests do not need rewritten: hypothesis' own
#: modules, rewritten again in every process of a run (its cache is the run's), ~0.6 s of
#: CPU per process that imports it (:func:`plain_plugins`)
PLAIN_PLUGINS = ("hypothesis",)


def plain_plugins(config, names: tuple[str, ...] = PLAIN_PLUGINS) -> bool:
    """Have pytest's import hook leave the asserts of the packages ``names`` as they are
    (their failures keep their own messages; the test modules' are still rewritten);
    False where this pytest keeps its marks elsewhere (nothing changed)."""
    hook = getattr(config.pluginmanager, "rewrite_hook", None)
    marked = getattr(hook, "_must_rewrite", None)
    if not isinstance(marked, set):
        return False
    marked.difference_update(names)
    cache = getattr(hook, "_marked_for_rewrite_cache", None)
    if isinstance(cache, dict):     # (a name it already answered for)
        for name in list(cache):
            if name.split(".")[0] in names:
                del cache[name]
    return True


#: the standard library's packages the runs never import (its own test suite, IDLE's and
#: the turtle demos): not seeded (:func:`seed_prefix`)
UNUSED_STDLIB = ("test", "idlelib", "turtledemo")


def skipped_dirs(roots: tuple[str, ...], path: list[str] | None = None) -> set[str]:
    """The directories under ``roots`` whose modules :func:`seed_prefix` leaves out: a
    ``site-packages`` or ``dist-packages`` that is neither a root nor on ``path`` (None:
    ``sys.path``), such as the base interpreter's under a venv's standard library (most of
    the files there: a venv never imports them), and :data:`UNUSED_STDLIB` of the standard
    library."""
    on_path = {os.path.realpath(p) for p in (sys.path if path is None else path) if p}
    real = {os.path.realpath(r) for r in roots}
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    out = {os.path.join(stdlib, name) for name in UNUSED_STDLIB}
    for root in roots:
        for name in ("site-packages", "dist-packages"):
            d = os.path.realpath(os.path.join(root, name))
            if d not in real and d not in on_path:
                out.add(d)
    return out


def seed_prefix(prefix: str, roots: tuple[str, ...] | None = None) -> int:
    """Fill the run's empty bytecode cache ``prefix`` with the compiled modules the
    interpreter's own library and site-packages already hold (``roots``: those of
    ``sysconfig``): each ``__pycache__/NAME.TAG.pyc`` of this interpreter's tag hard-linked
    (else copied) where a process with ``PYTHONPYCACHEPREFIX=prefix`` looks for it.  With a
    prefix set, Python reads no ``__pycache__``: each worker started with an empty one
    compiled every module of the standard library and the packages it imports again (numpy,
    hypothesis, MLIR's and IREE's bindings: some 900 modules, ~4 s of CPU per process, both
    workers at once).  A file's header names its source's size and time, so a stale one is
    compiled again as before, and written beside (``os.replace``: the linked file is not
    changed).  The directories of :func:`skipped_dirs` are left out (18,500 files placed
    a run became 6,000: 1 s of CPU less at the start, and each unlinked at the end): a
    module there a process does import is compiled into the prefix as before.  The count
    of files placed."""
    tag = sys.implementation.cache_tag
    if roots is None:
        paths = sysconfig.get_paths()
        roots = tuple(sorted({paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")
                              if k in paths}))
    skip = skipped_dirs(roots)
    placed = 0
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs[:] = [n for n in dirs if os.path.realpath(os.path.join(d, n)) not in skip]
            if os.path.basename(d) != "__pycache__":
                continue
            names = [f for f in files if f.endswith(f".{tag}.pyc") and f.count(".") == 2]
            if not names:
                continue
            dest = os.path.join(prefix, os.path.dirname(d).lstrip(os.sep))
            os.makedirs(dest, exist_ok=True)
            for name in names:
                try:
                    os.link(os.path.join(d, name), os.path.join(dest, name))
                except FileExistsError:
                    continue
                except OSError:
                    try:
                        import shutil
                        shutil.copyfile(os.path.join(d, name), os.path.join(dest, name))
                    except OSError:
                        continue
                placed += 1
    return placed
