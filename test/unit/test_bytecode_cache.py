"""bytecode_cache.py: a worker rewrites its share of the run's test modules, cached where
pytest's import hook reads them."""

from __future__ import annotations

import sys

from bytecode_cache import rewrite_share, modules_of, seed_prefix

_MODULE = "def test_{n}():\n    x = {n}\n    assert x == {n}, x\n"


def _modules(tmp_path, count: int):
    d = tmp_path / "suite"
    (d / "sub").mkdir(parents=True)
    for n in range(count):
        (d / ("sub" if n % 2 else "") / f"test_m{n}.py").write_text(_MODULE.format(n=n))
    (d / "helpers.py").write_text("X = 1\n")
    return d


def test_the_run_s_modules_are_its_arguments_files_and_directories(tmp_path):
    d = _modules(tmp_path, 3)
    names = [p.name for p in modules_of(["suite", "suite/sub/test_m1.py::test_1"],
                                          (tmp_path / "nowhere", tmp_path))]
    assert names == ["test_m1.py", "test_m0.py", "test_m2.py"]        # sorted by path
    assert modules_of([str(d / "helpers.py")]) == []


def test_a_worker_rewrites_its_share_where_pytest_reads_it(pytestconfig, tmp_path,
                                                            monkeypatch):
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir

    d = _modules(tmp_path, 4)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "pyc"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(pytestconfig, "args", [str(d)])
    files = modules_of([str(d)])
    assert rewrite_share(pytestconfig, 1, 2) == 2
    cached = [_read_pyc(f, get_cache_dir(f) / (f.name[:-3] + PYC_TAIL)) for f in files]
    assert [c is not None for c in cached] == [False, True, False, True]
    # rewritten as pytest's hook would: the assert's operands are kept for its message
    body = next(c for c in cached[1].co_consts if getattr(c, "co_name", "") == "test_3")
    assert "@py_assert1" in body.co_varnames
    assert rewrite_share(pytestconfig, 1, 2) == 0               # already there
    assert rewrite_share(pytestconfig, 0, 2) == 2
    monkeypatch.setattr(sys, "dont_write_bytecode", True)       # nothing may be written
    (d / "test_new.py").write_text(_MODULE.format(n=9))
    assert rewrite_share(pytestconfig, 0, 1) == 0


def test_the_prefix_is_seeded_with_the_library_s_compiled_modules(tmp_path):
    """A library's ``__pycache__`` file is placed where a process with the prefix reads
    it, and read there (not compiled and written again); a stale one is compiled again
    into the prefix, the library's own file left as it was."""
    import subprocess

    lib = tmp_path / "lib"
    (lib / "pkg").mkdir(parents=True)
    (lib / "pkg" / "__init__.py").write_text("")
    (lib / "pkg" / "mod.py").write_text("VALUE = 'compiled from source'\n")
    (lib / "fresh.py").write_text("VALUE = 1\n")
    env = {**{k: v for k, v in __import__("os").environ.items()
              if k not in ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")},
           "PYTHONPATH": str(lib)}
    subprocess.run([sys.executable, "-c", "import pkg.mod, fresh"], env=env, check=True)
    tag = sys.implementation.cache_tag
    own = lib / "pkg" / "__pycache__" / f"mod.{tag}.pyc"
    assert own.exists()
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    assert seed_prefix(str(prefix), (str(lib),)) == 3     # pkg/__init__, pkg/mod, fresh
    seeded = prefix / str(lib / "pkg").lstrip("/") / f"mod.{tag}.pyc"
    assert seeded.exists() and seeded.stat().st_ino == own.stat().st_ino
    (lib / "fresh.py").write_text("VALUE = 22\n")                   # stale: 1 byte longer
    run = subprocess.run([sys.executable, "-c", "import fresh, pkg.mod; "
                          "print(fresh.VALUE, pkg.mod.__cached__)"],
                         env={**env, "PYTHONPYCACHEPREFIX": str(prefix)},
                         capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["22", str(seeded)], run.stdout
    assert seeded.stat().st_ino == own.stat().st_ino              # read, not compiled again
    original = lib / "__pycache__" / f"fresh.{tag}.pyc"
    assert original.read_bytes() != (prefix / str(lib).lstrip("/") /
                                     f"fresh.{tag}.pyc").read_bytes()
    assert seed_prefix(str(prefix), (str(lib),)) == 0             # placed once


def test_a_site_packages_off_the_path_is_not_seeded(tmp_path):
    """A ``site-packages`` under a root that is not on the module path (the base
    interpreter's, under a venv's standard library) is left out; on the path, seeded."""
    from bytecode_cache import skipped_dirs

    tag = sys.implementation.cache_tag
    lib = tmp_path / "lib"
    for d in (lib / "__pycache__", lib / "site-packages" / "other" / "__pycache__"):
        d.mkdir(parents=True)
        (d / f"m.{tag}.pyc").write_bytes(b"")
    foreign = str(lib / "site-packages")
    assert foreign in skipped_dirs((str(lib),), path=[])
    assert foreign not in skipped_dirs((str(lib),), path=[foreign])
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    assert seed_prefix(str(prefix), (str(lib),)) == 1
    assert (prefix / str(lib).lstrip("/") / f"m.{tag}.pyc").exists()


def test_hypothesis_own_modules_are_not_rewritten():
    import hypothesis.strategies   # (any test of the run may have imported it first)

    for module in (hypothesis, hypothesis.strategies):
        assert type(module.__spec__.loader).__name__ != "AssertionRewritingHook", module


def test_a_pytest_without_the_marks_is_left_as_it_is():
    from types import SimpleNamespace

    from bytecode_cache import plain_plugins

    config = SimpleNamespace(pluginmanager=SimpleNamespace(rewrite_hook=object()))
    assert plain_plugins(config) is False
