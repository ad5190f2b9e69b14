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

import sys
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
