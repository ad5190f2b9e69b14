"""The run's build cache (build_cache.py): one build per kind and inputs, shared between the
processes of a run, nothing kept of a failed build, a plain build outside a run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from build_cache import ENV, cached, key_of, share_code_objects

#: conftest.py's heap settings as GLIBC_TUNABLES text
KEEP = "glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295"

HERE = Path(__file__).resolve().parent


def test_a_build_is_made_once_and_read_by_another_process(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path))
    calls = []

    def make():
        calls.append(1)
        return {"hsaco": b"\x7fELF", "n": len(calls)}

    assert cached("k", ("4wave", None), make) == {"hsaco": b"\x7fELF", "n": 1}
    assert cached("k", ("4wave", None), make) == {"hsaco": b"\x7fELF", "n": 1}
    assert cached("k", ("4wave", "text"), make)["n"] == 2      # other inputs: another build
    assert cached("j", ("4wave", None), make)["n"] == 3        # another kind too
    assert (tmp_path / (key_of("k", ("4wave", None)) + ".pickle")).is_file()
    # a worker of the same run (another process) reads it and does not build
    code = "import build_cache; print(build_cache.cached('k', ('4wave', None), lambda: 1 / 0))"
    out = subprocess.run([sys.executable, "-c", code], cwd=HERE, capture_output=True, text=True,
                         env={**os.environ, ENV: str(tmp_path)}, check=True).stdout
    assert out.strip() == "{'hsaco': b'\\x7fELF', 'n': 1}"


def test_a_failed_build_leaves_nothing_behind(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path))

    def broken():
        raise RuntimeError("iree-compile failed")

    with pytest.raises(RuntimeError, match="iree-compile failed"):
        cached("k", "x", broken)
    assert not list(tmp_path.glob("*.pickle")) and not list(tmp_path.glob("*.part"))
    assert cached("k", "x", lambda: 7) == 7


def test_outside_a_run_it_just_builds(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV, raising=False)
    calls = []
    assert [cached("k", "x", lambda: calls.append(1) or len(calls)) for _ in range(2)] == [1, 2]
    monkeypatch.setenv(ENV, str(tmp_path / "gone"))        # a directory that is not there
    assert cached("k", "x", lambda: 5) == 5 and not (tmp_path / "gone").exists()


def test_this_run_has_its_cache_directory():
    """conftest.py made it for this run (and removes it at the end)."""
    assert Path(os.environ[ENV]).is_dir()


def test_this_process_keeps_freed_memory():
    """A 64 MiB block freed and taken again reuses pages already mapped: conftest.py's
    malloc settings hold in the process running the tests (given at start-up through
    ``GLIBC_TUNABLES`` to xdist's workers, through ``mallopt`` with ``-n 0``)."""
    import platform
    import resource

    from conftest import HEAP_KEPT

    if platform.libc_ver()[0] != "glibc" or not HEAP_KEPT:
        pytest.skip("not glibc, or the run was started with a GLIBC_TUNABLES malloc "
                    "threshold of its own")
    block = bytearray(64 << 20)  # zero-filled: every page touched
    del block
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    block = bytearray(64 << 20)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    del block
    assert faults < 1024, f"{faults} page faults taking a freed 64 MiB block again (16384 pages)"


@pytest.mark.parametrize("given, want", [
    (None, (KEEP, True)),
    ("", (KEEP, True)),
    # another tunable of the user's is kept, and the heap settings added after it
    ("glibc.malloc.tcache_count=0", ("glibc.malloc.tcache_count=0:" + KEEP, True)),
    # a malloc threshold of the user's rules: the value is left as it is
    ("glibc.malloc.trim_threshold=0:glibc.cpu.x=1",
     ("glibc.malloc.trim_threshold=0:glibc.cpu.x=1", False)),
    # the settings already there (an xdist worker's, from the run's first process)
    (KEEP, (KEEP, True)),
])
def test_a_users_glibc_tunables_are_kept_and_the_heap_settings_added(given, want):
    """conftest.py's ``GLIBC_TUNABLES`` keeps a value the run was started with (its
    tunables, a malloc threshold of its own ruling) rather than dropping either side."""
    from conftest import with_heap_kept

    assert with_heap_kept(given) == want


def test_code_objects_are_built_once_and_nothing_else_is_kept(tmp_path):
    """driver/code_cache.py: a plain --emit=hsaco build of the same input text and schedule
    is compiled once (whatever the file's name); other schedules, emit kinds or options,
    and failed builds, compile every time; without a store nothing is shared."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions

    calls, kept = [], {}

    def fake(options):
        calls.append(options)
        bad = "bad" in (options.text or "")
        return api.CompileResult(None if bad else b"\x7fELF%d" % len(calls), [])

    store = _store_in(kept)

    def build(**options):
        return code_cache.compile_shared(CompileOptions(**options), fake)
    src = tmp_path / "k.mlir"
    src.write_text("module {}")
    with code_cache.sharing(store):
        first = build(schedule="4wave", input=str(src), emit="hsaco")
        again = build(schedule="4wave", text="module {}", filename="other.mlir", emit="hsaco")
        assert first.output == again.output == b"\x7fELF1" and len(calls) == 1
        for options in (dict(schedule="pingpong", emit="hsaco"),
                        dict(schedule="4wave", emit="asm"),
                        dict(schedule="4wave", emit="hsaco", timing=True)):
            build(text="module {}", **options)
        assert len(calls) == 4
        for _ in range(2):
            assert build(schedule="4wave", text="bad", emit="hsaco").failed
        assert len(calls) == 6
    build(schedule="4wave", text="module {}", emit="hsaco")     # no store: built again
    assert len(calls) == 7
    # --no-isa-check is not plain for a store that checks: built apart
    with code_cache.sharing(store):
        build(schedule="4wave", text="module {}", emit="hsaco", isa_check=False)
    assert len(calls) == 8 and calls[-1].isa_check is False


def test_a_store_without_the_isa_check_builds_its_code_objects_unchecked():
    """``sharing(..., isa_check=False)`` (the suite's ``share_code_objects``): its ``obj``
    and ``hsaco`` builds run without the ISA check, one key with and without
    ``--no-isa-check``; its ``asm`` builds stay checked."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions

    calls = []

    def fake(options):
        calls.append(options)
        return api.CompileResult(b"\x7fELF%d" % len(calls), [])

    def build(**options):
        return code_cache.compile_shared(CompileOptions(schedule="4wave", text="module {}",
                                                        **options), fake)
    with code_cache.sharing(_store_in({}), emits=("hsaco", "asm"), isa_check=False):
        first = build(emit="hsaco")
        assert build(emit="hsaco", isa_check=False).output == first.output
        build(emit="asm")
    assert [(c.emit, c.isa_check) for c in calls] == [("hsaco", False), ("asm", True)]


def test_api_compile_asks_the_installed_store(tmp_path):
    """``api.compile`` of a plain build returns what the store gives (here without
    building); ``share_code_objects`` shares through the run's cache inside its block."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions

    asked = []

    def store(kind, key, build):
        asked.append((kind, key))
        return "kept"
    plain = CompileOptions(schedule="4wave", text="module {}", emit="hsaco")
    with code_cache.sharing(store):
        assert api.compile(plain) == "kept"
        assert api.compile(CompileOptions(schedule="4wave", emit="schedule")).output
    assert asked == [("hsaco", ("4wave", "module {}"))]
    calls = []

    def fake(options):
        calls.append(options)
        return api.CompileResult(b"\x7fELF", [])
    unique = CompileOptions(schedule="4wave", text=f"// {tmp_path}", emit="hsaco")
    with share_code_objects():
        for _ in range(2):
            assert code_cache.compile_shared(unique, fake).output == b"\x7fELF"
    assert len(calls) == 1


def test_the_default_emit_of_an_input_is_its_mlir_build():
    """``pipeline-opt --pipeline=S in.mlir -o out.mlir`` (no ``--emit``: the MLIR of the
    input) and ``--emit=mlir`` are one build in a store that shares ``mlir``, kept under that
    kind; a store without it shares neither, and a named schedule's own kernel with no
    ``--emit`` (the schedule, not MLIR) is no MLIR build."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions

    calls, kept = [], {}

    def fake(options):
        calls.append(options)
        return api.CompileResult("module {}\n", [])

    store = _store_in(kept)

    def build(**options):
        return code_cache.compile_shared(CompileOptions(**options), fake)
    with code_cache.sharing(store, emits=("mlir",), own_kernels=True):
        build(schedule="4wave", text="module {}")
        build(schedule="4wave", text="module {}", emit="mlir")
        assert len(calls) == 1 and list(kept) == [("mlir", ("4wave", "module {}"))]
        build(schedule="4wave")                         # the schedule, printed: not kept
        build(schedule="4wave")
        assert len(calls) == 3
    with code_cache.sharing(store, emits=("hsaco",)):
        build(schedule="4wave", text="module {}")
        assert len(calls) == 4


def test_assemblies_and_own_kernels_are_shared_when_asked():
    """sharing(store, emits=("hsaco", "asm"), own_kernels=True) (the documents' commands,
    --tune's candidates): a plain --emit=asm build is kept apart from the --emit=hsaco build
    of the same input, and so is a named schedule's own kernel (no input) of each emit
    kind; a kernel with options, or of an emit kind not asked for, compiles again."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions

    calls, kept = [], {}

    def fake(options):
        calls.append(options)
        return api.CompileResult(f"{options.emit} {len(calls)}", [])

    store = _store_in(kept)
    builds = [dict(schedule="4wave", emit="asm"), dict(schedule="4wave", emit="hsaco"),
              dict(schedule="4wave", text="module {}", emit="asm"),
              dict(schedule="pingpong", emit="asm")]
    with code_cache.sharing(store, emits=("hsaco", "asm"), own_kernels=True):
        first = [code_cache.compile_shared(CompileOptions(**b), fake).output for b in builds]
        again = [code_cache.compile_shared(CompileOptions(**b), fake).output for b in builds]
        assert first == again == ["asm 1", "hsaco 2", "asm 3", "asm 4"] and len(calls) == 4
        for options in (dict(schedule="4wave", emit="mlir"),
                        dict(schedule="4wave", emit="asm", timing=True)):
            code_cache.compile_shared(CompileOptions(**options), fake)
            code_cache.compile_shared(CompileOptions(**options), fake)
        assert len(calls) == 8


def test_own_kernels_are_not_shared_unless_asked():
    """Without own_kernels, a build with no input compiles every time."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions

    calls = []

    def fake(options):
        calls.append(options)
        return api.CompileResult(b"k", [])
    with code_cache.sharing(lambda kind, key, build: "kept"):       # never builds
        for _ in range(2):
            assert code_cache.compile_shared(CompileOptions(schedule="4wave", emit="hsaco"),
                                             fake).output == b"k"
    assert len(calls) == 2


def _store_in(kept: dict):
    """A code-object store keeping each build in ``kept`` by (kind, key)."""
    def store(kind, key, build):
        if (kind, key) not in kept:
            kept[kind, key] = build()
        return kept[kind, key]
    return store


def test_kept_stages_make_one_build_of_each_input():
    """sharing(store, stages=S) (the tests' ``share_code_objects``): a plain ``--emit=hsaco``
    build of an input and one asking for some of S are one build, made with all of S, each
    given the stages it asked for; a build asking for a stage outside S is its own; a build
    that fails at a stage only S added (its own ``--emit=KIND:`` diagnostic) is made again
    as asked, and a build that fails for itself (a refusal) is made once and not kept."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions
    from pipeline_mlir.driver.diagnostics import Diag

    calls, kept, wide = [], {}, ("adopted", "schedule-json", "mlir")

    def fake(options):
        calls.append(options.stages)
        if options.text == "refused":
            return api.CompileResult(None, [Diag("error", "the loop is refused")])
        if options.text == "no loop" and "schedule-json" in options.stages:
            return api.CompileResult(None, [Diag(
                "error", "--emit=schedule-json: the output has no 'sched.pipeline' op")])
        return api.CompileResult(b"\x7fELF", [], stages={k: k.upper() for k in options.stages})

    def build(text, stages=()):
        return code_cache.compile_shared(CompileOptions(schedule="4wave", text=text,
                                                        emit="hsaco", stages=stages), fake)
    with code_cache.sharing(_store_in(kept), stages=wide):
        assert build("module {}").stages == {} and calls == [wide]
        assert build("module {}", ("mlir",)).stages == {"mlir": "MLIR"}
        assert build("module {}", ("adopted", "schedule-json")).stages == {
            "adopted": "ADOPTED", "schedule-json": "SCHEDULE-JSON"}
        assert len(calls) == 1 and ("hsaco", ("4wave", "module {}")) in kept
        assert build("module {}", ("schedule",)).stages == {"schedule": "SCHEDULE"}
        assert calls[1:] == [("schedule",)]
        assert build("no loop").output == b"\x7fELF" and calls[2:] == [wide, ()]
        assert build("no loop", ("schedule-json",)).failed and calls[4:] == [wide]
        assert build("refused").failed and build("refused").failed and calls[5:] == [wide] * 2
    with code_cache.sharing(_store_in(kept)):       # no stages: a plain build is kept plain
        assert build("other").stages == {} and calls[7:] == [()]
        # the plain key the build with all of S filled holds its output without the stages
        assert build("module {}").stages == {} and calls[8:] == []


def test_a_together_store_builds_every_kind_of_an_input_once():
    """sharing(store, together=True) (the behaviour snapshot's): a plain build of ``mlir`` or
    a kind of the LLVM step is one ``--emit=hsaco`` build keeping the others (checked, as an
    ``asm`` build is), each kind its output, filling each kind's plain key; a build whose
    run with the others fails or says something is made again as asked."""
    from pipeline_mlir.driver import api, code_cache
    from pipeline_mlir.driver.arguments import CompileOptions
    from pipeline_mlir.driver.diagnostics import Diag

    calls, kept = [], {}
    others = ("mlir", "llvm", "asm", "obj", "report")

    def fake(options):
        calls.append((options.emit, options.stages, options.isa_check))
        if options.text == "warns" and options.stages:
            return api.CompileResult(b"", [Diag("warning", "the others' warning")])
        return api.CompileResult(options.emit.upper(), [], report="R" * (
            options.emit == "report" or "report" in options.stages),
            stages={k: k.upper() for k in options.stages})

    def build(text, emit):
        return code_cache.compile_shared(CompileOptions(schedule="4wave", text=text,
                                                        emit=emit), fake)
    emits = ("mlir", "llvm", "asm", "obj", "hsaco", "report")
    with code_cache.sharing(_store_in(kept), emits=emits, isa_check=False, together=True):
        build("module {}", "asm")
        assert {kind for kind, key in kept if key == ("4wave", "module {}")} == set(emits)
        got = {emit: build("module {}", emit) for emit in emits}
        assert calls == [("hsaco", others, True)]
        assert {k: (r.output, r.stages, r.report) for k, r in got.items()} == {
            k: (k.upper(), {}, "R" if k == "report" else None) for k in emits}
        assert build("warns", "asm").output == "ASM" and calls[1:] == [
            ("hsaco", others, True), ("asm", (), True)]
    with code_cache.sharing(_store_in(kept), emits=("llvm",)):     # the plain key filled
        assert build("module {}", "llvm").output == "LLVM" and len(calls) == 3
