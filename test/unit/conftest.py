"""Shared helpers for the reference-port tests.

The reference-port tests write the reference's schedules in a compact
notation; :func:`parse_entries` turns such a listing into comparable tuples
and :func:`entry_tuples` does the same for compiled ``ScheduleEntry`` lists.

The run's build cache (:mod:`build_cache`) is made here, by the first process of a run
(before pytest-xdist starts its workers), and removed when it ends.

Notation:

* ``GA[ss,K]`` / ``GB[ss,K]`` -- LOAD_A / LOAD_B global loads, ``[stage subtile]``
  and k offset (``K0``, ``K1``, ``KNEXT``, ``KPREV``); a trailing ``*`` means
  ``is_prefetch``;
* ``FA[ss]`` / ``FB[ss]`` -- MMA_LOAD_A / MMA_LOAD_B fragment loads;
* ``MMA[rc]`` -- the MMA of row r, column c (stored as stage=r, subtile=c);
* ``LGKM(n)``, ``VM(n)`` -- waits, ``BAR`` s_barrier, ``PRIO(p)`` s_setprio,
  ``SB`` schedule_barrier;
* single-buffer names ``LOAD_DRAM``, ``STORE_SMEM`` (or ``STORE``),
  ``LOAD_FRAG<s>``, ``COMPUTE<s>``;
* a leading ``<n>:`` or a bare ``<n>`` before a token is a position and is
  checked to be consecutive.
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

# One BLAS thread per process, set before numpy loads OpenBLAS (and inherited by the
# pipeline-opt processes tests start): the suite already runs a worker per core, and
# OpenBLAS's own threads spinning beside them cost 8-12% more CPU on the emulator tests.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# glibc's malloc for the same processes: every block from its heap, and the heap kept when
# freed.  An emulated IREE launch allocates C (64 MiB at 4096^2, filled with poison) and
# copies A and B; glibc maps blocks that large afresh and unmaps them when freed, so each
# launch paid the page faults of new memory again (its system time).  Kept, the next
# launch reuses pages already mapped: a few percent of the emulator tests' CPU.
# The variable is read when a process starts: this one (the run's first process, the only
# one with ``-n 0``) is given the same settings through ``mallopt`` (_keep_freed_memory).
# A run started with a GLIBC_TUNABLES of its own keeps every tunable it sets and gets
# these two added where it sets neither (its own value of either rules: a user who tunes
# malloc means it); its other tunables no longer drop the heap settings silently.
KEEP_HEAP_TUNABLES = {"glibc.malloc.mmap_threshold": "4294967295",
                      "glibc.malloc.trim_threshold": "4294967295"}


def with_heap_kept(value: str | None) -> tuple[str, bool]:
    """``GLIBC_TUNABLES`` ``value`` (None: not set) with :data:`KEEP_HEAP_TUNABLES`
    added where it sets neither, and whether the result holds them (False: ``value`` sets
    one of them itself, and is kept as it is; True too for a value that holds them
    already, an xdist worker's, given by the run's first process)."""
    given = dict(t.partition("=")[::2] for t in (value or "").split(":") if t)
    if given.keys() & KEEP_HEAP_TUNABLES.keys():
        return value, all(given.get(k) == v for k, v in KEEP_HEAP_TUNABLES.items())
    return ":".join([*filter(None, (value or "").split(":")),
                     *(f"{k}={v}" for k, v in KEEP_HEAP_TUNABLES.items())]), True


_STARTED_WITH = os.environ.get("GLIBC_TUNABLES")
os.environ["GLIBC_TUNABLES"], HEAP_KEPT = with_heap_kept(_STARTED_WITH)


def _keep_freed_memory() -> None:
    """This process's malloc as ``GLIBC_TUNABLES`` above sets it for the processes it
    starts: no block mapped on its own below 2 GiB (``M_MMAP_THRESHOLD``, the most an
    ``int`` says), the heap not given back when blocks are freed (``M_TRIM_THRESHOLD``).
    Only with glibc, and only where this process started without them and they were
    added (:func:`with_heap_kept`)."""
    import ctypes
    import platform

    if not HEAP_KEPT or os.environ["GLIBC_TUNABLES"] == _STARTED_WITH or \
            platform.libc_ver()[0] != "glibc":
        return
    mallopt = ctypes.CDLL(None).mallopt
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    # both: setting either stops glibc sliding its mapping threshold up, so the trim
    # threshold alone would leave every block over 128 KiB mapped and unmapped each time
    for param in (-3, -1):  # M_MMAP_THRESHOLD, M_TRIM_THRESHOLD
        mallopt(param, 2**31 - 1)


_keep_freed_memory()

import pytest

import long_tier
from build_cache import ENV as BUILD_CACHE_ENV
from bytecode_cache import modules_of, plain_plugins, rewrite_share, seed_prefix

from pipeline_mlir.tools.entry import GC_THRESHOLDS as TOOL_GC_THRESHOLDS
from pipeline_mlir.schedule.types import (
    BARRIER,
    SCHED_GROUP_BARRIER,
    SCHEDULE_BARRIER,
    SET_PRIO,
    WAIT_LGKM,
    WAIT_VM,
    DepEdge,
    DepKind,
    KOffsetKind,
    OpDesc,
    ScheduleEntry,
)

# ping-pong / 4-wave tags
LOAD_A, LOAD_B, MMA_LOAD_A, MMA_LOAD_B, MMA = 0, 1, 3, 4, 5
# single-buffer tags
LOAD_DRAM, STORE_SMEM, LOAD_FRAG, SB_COMPUTE = 0, 1, 2, 3

K_BY_NAME = {"K0": KOffsetKind.K0, "K1": KOffsetKind.K1, "KNEXT": KOffsetKind.K_NEXT,
             "KPREV": KOffsetKind.K_PREV}
_DATA = {"GA": LOAD_A, "GB": LOAD_B, "FA": MMA_LOAD_A, "FB": MMA_LOAD_B, "MMA": MMA}
_WAITS = {"LGKM": WAIT_LGKM, "VM": WAIT_VM, "PRIO": SET_PRIO}
_HINT_GROUPS = {"DS_READ": 0, "DS_WRITE": 1, "VMEM_READ": 2, "MFMA": 3}

_DATA_RE = re.compile(r"^(GA|GB|FA|FB|MMA)\[(\d)(\d)(?:,(K0|K1|KNEXT|KPREV))?\](\*?)$")
_WAIT_RE = re.compile(r"^(LGKM|VM|PRIO)\((\d+)\)$")
_SB_RE = re.compile(r"^(LOAD_FRAG|COMPUTE)(\d+)$")
_HINT_RE = re.compile(r"^\((DS_READ|DS_WRITE|VMEM_READ|MFMA),(\d+)\)$")


def entry(tag: int, stage: int = 0, subtile: int = 0, k: KOffsetKind = KOffsetKind.NONE,
          wait: int = 0, pf: bool = False) -> tuple:
    return (tag, stage, subtile, KOffsetKind(k), wait, pf)


def parse_token(tok: str) -> tuple:
    """One compact token -> (tag, stage, subtile, k_offset, wait_value, is_prefetch)."""
    m = _DATA_RE.match(tok)
    if m:
        name, a, b, k, star = m.groups()
        return entry(_DATA[name], int(a), int(b), K_BY_NAME[k] if k else KOffsetKind.NONE,
                     0, star == "*")
    m = _WAIT_RE.match(tok)
    if m:
        return entry(_WAITS[m.group(1)], wait=int(m.group(2)))
    if tok == "BAR":
        return entry(BARRIER)
    if tok == "SB":
        return entry(SCHEDULE_BARRIER)
    if tok == "LOAD_DRAM":
        return entry(LOAD_DRAM)
    if tok in ("STORE_SMEM", "STORE"):
        return entry(STORE_SMEM)
    m = _SB_RE.match(tok)
    if m:
        return entry(LOAD_FRAG if m.group(1) == "LOAD_FRAG" else SB_COMPUTE, 0, int(m.group(2)))
    m = _HINT_RE.match(tok)
    if m:
        return entry(SCHED_GROUP_BARRIER, 0, _HINT_GROUPS[m.group(1)], wait=int(m.group(2)))
    raise ValueError(f"unknown token {tok!r}")


def parse_entries(text: str) -> list[tuple]:
    """A whitespace-separated listing (positions optional, ``|`` ignored) -> tuples."""
    out: list[tuple] = []
    expect_pos = None
    for tok in text.split():
        if tok == "|":
            continue
        m = re.match(r"^(\d+):(.+)$", tok)
        if m:
            pos, tok = int(m.group(1)), m.group(2)
            assert pos == len(out), f"listing position {pos} but {len(out)} entries parsed"
        elif tok.isdigit():
            expect_pos = int(tok)
            assert expect_pos == len(out), f"listing position {expect_pos} but {len(out)} parsed"
            continue
        out.append(parse_token(tok))
    return out


def entry_tuple(e: ScheduleEntry) -> tuple:
    op = e.op
    return (op.tag, op.stage, op.subtile, op.k_offset, op.wait_value, e.is_prefetch)


def entry_tuples(entries: list[ScheduleEntry]) -> list[tuple]:
    return [entry_tuple(e) for e in entries]


def op_tuple(op: OpDesc) -> tuple:
    """A body op in the same tuple shape (no prefetch flag on body ops)."""
    return (op.tag, op.stage, op.subtile, op.k_offset, op.wait_value, False)


def op_tuples(ops: list[OpDesc]) -> list[tuple]:
    return [op_tuple(o) for o in ops]


def format_tuple(t: tuple) -> str:
    """Inverse of :func:`parse_token` for ping-pong / 4-wave tags (readable failure diffs)."""
    tag, st, sub, k, wait, pf = t
    names = {v: k_ for k_, v in _DATA.items()}
    if tag in names:
        ks = "" if k == KOffsetKind.NONE else "," + {v: n for n, v in K_BY_NAME.items()}[k]
        return f"{names[tag]}[{st}{sub}{ks}]" + ("*" if pf else "")
    if tag == BARRIER:
        return "BAR"
    if tag == SCHEDULE_BARRIER:
        return "SB"
    for n, v in _WAITS.items():
        if v == tag:
            return f"{n}({wait})"
    return repr(t)


def fmt(entries) -> list[str]:
    return [format_tuple(t) for t in entries]


# ---- edges ---------------------------------------------------------------------------------

_EDGE_RE = re.compile(r"^(\d+)->(\d+)([FA])?(\d)?$")
_KIND_RE = re.compile(r"^\(?(?:all )?([FA])(\d)\)$")


def _kind(letter: str) -> DepKind:
    return DepKind.FLOW if letter == "F" else DepKind.ANTI


def parse_edges(text: str) -> list[DepEdge]:
    """Edge listing of the ping-pong and 4-wave tests: ``name : a->b ... (F0)`` groups, or
    inline ``a->bA0``.

    A ``(F1)`` / ``(A0)`` / ``(all F1)`` annotation applies to the edges since the
    previous annotation; the output keeps the listing's order.
    """
    out: list[DepEdge] = []
    for line in text.strip().splitlines():
        if ":" in line:
            line = line.split(":", 1)[1]
        line = line.replace("(all ", "(")
        pending: list[tuple[int, int]] = []
        for tok in line.split():
            m = _EDGE_RE.match(tok)
            if m:
                p, c, letter, d = m.groups()
                if letter:
                    assert not pending
                    out.append(DepEdge(int(p), int(c), _kind(letter), int(d)))
                else:
                    pending.append((int(p), int(c)))
                continue
            m = _KIND_RE.match(tok)
            if m:
                assert pending, f"annotation {tok} without edges"
                out.extend(DepEdge(p, c, _kind(m.group(1)), int(m.group(2))) for p, c in pending)
                pending = []
                continue
            raise ValueError(f"unknown edge token {tok!r}")
        assert not pending, f"edges without a kind annotation: {pending}"
    return out


def edge_tuples(edges) -> list[tuple]:
    return [(e.producer_idx, e.consumer_idx, DepKind(e.dep_kind), e.loop_distance) for e in edges]


# ---- the test data directory (reference listings) ---------------------------------------------------------

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
GOLDEN_DIR = DATA_DIR / "reference"


# ---- the run's build cache (build_cache.py) ----------------------------------------------------

_CACHE_DIR = pytest.StashKey[str]()
_PYCACHE = pytest.StashKey[tuple]()
_LAUNCHER = pytest.StashKey[dict]()
_ZYGOTES = pytest.StashKey[dict]()
#: the environment variables :func:`_share_bytecode` sets or removes
_BYTECODE_ENV = ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")


#: the cyclic garbage collector's thresholds in the test processes: ``pipeline-opt``'s own
#: (a young collection every 7000 allocations, Python's 700), so fewer objects reach the
#: oldest generation and fewer full collections traverse a worker's half a million objects
#: (docs/testing.md)
GC_THRESHOLDS = TOOL_GC_THRESHOLDS


def pytest_configure(config):
    """The run's first process makes the build cache directory; xdist's workers (started
    after this) inherit its name through the environment.  Each worker then rewrites its
    share of the test modules' assertions before it collects (``bytecode_cache.py``);
    no process rewrites hypothesis' own (``bytecode_cache.plain_plugins``).  Every process
    collects garbage at :data:`GC_THRESHOLDS`."""
    gc.set_threshold(*GC_THRESHOLDS)
    plain_plugins(config)
    config.addinivalue_line("markers", long_tier.MARKER_HELP)
    try:
        long_tier.runs_long(os.environ)
    except pytest.UsageError as bad:     # one line, exit status 1 (pytest's own would be 4)
        pytest.exit(f"error: {bad}", returncode=1)
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        number = re.fullmatch(r"gw(\d+)", str(worker.get("workerid")))
        if number and worker.get("workercount"):
            rewrite_share(config, int(number.group(1)), int(worker["workercount"]))
        return
    if os.environ.get(BUILD_CACHE_ENV):
        return
    d = tempfile.mkdtemp(prefix="pipeline-mlir-test-builds-")
    config.stash[_CACHE_DIR] = d
    os.environ[BUILD_CACHE_ENV] = d
    _share_bytecode(config)
    _fork_workers(config)
    _share_lit_zygotes(config)


def _fork_workers(config) -> None:
    """LLVM's workers of the run's builds (``python -m ... --worker``) and the emulator's
    (``--emulate-jobs``) forked from processes that imported them once (``zygote.py``;
    stopped when this process exits), where the run did not name a launcher."""
    from pipeline_mlir.isa.worker import LAUNCHER_ENV
    from zygote import EMU_LAUNCHER_ENV, emu_worker_launcher, worker_launcher

    started = {}
    for name, start in ((LAUNCHER_ENV, worker_launcher),
                        (EMU_LAUNCHER_ENV, emu_worker_launcher)):
        if not os.environ.get(name):
            launcher = start()
            if launcher is not None:
                os.environ[name] = started[name] = launcher
    config.stash[_LAUNCHER] = started


def _share_lit_zygotes(config) -> None:
    """With pytest-xdist's workers and ``test_lit.py`` among the run's modules: the
    zygotes of lit and of ``pipeline-opt`` started here, once, and shared by the workers
    (``zygote.share``), where each worker started its own (``pipeline-opt``'s imports the
    whole package: about 1.5 s of CPU per worker)."""
    import zygote

    if getattr(config.option, "numprocesses", None) in (None, 0) or \
            os.environ.get(zygote.SHARED):
        return
    bases = (config.invocation_params.dir, config.rootpath)
    if any(p.name == "test_lit.py" for p in modules_of(list(config.args), bases)):
        config.stash[_ZYGOTES] = zygote.share(zygote.lit_zygotes())


def _share_bytecode(config) -> None:
    """The run's Python processes (xdist's workers, lit's ``pipeline-opt`` runs, the other
    commands the tests start) compile each module of the tree once per run: into a
    bytecode cache directory of the run (``PYTHONPYCACHEPREFIX``, removed when the run
    ends; never the source tree), even where ``PYTHONDONTWRITEBYTECODE`` is set, which
    would make every process compile every module it imports again; seeded with the
    compiled modules of the interpreter's library and site-packages
    (``bytecode_cache.seed_prefix``), which a prefix hides.  A prefix the user set is
    kept."""
    if os.environ.get("PYTHONPYCACHEPREFIX") or sys.pycache_prefix:
        return
    config.stash[_PYCACHE] = (tempfile.mkdtemp(prefix="pipeline-mlir-test-pycache-"),
                              {k: os.environ.get(k) for k in _BYTECODE_ENV},
                              sys.dont_write_bytecode)
    seed_prefix(config.stash[_PYCACHE][0])
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = config.stash[_PYCACHE][0]
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """The run's directories and variables undone; then :func:`_settle_garbage`."""
    for name in config.stash.get(_LAUNCHER, None) or ():
        os.environ.pop(name, None)
    if config.stash.get(_ZYGOTES, None):
        from zygote import SHARED

        os.environ.pop(SHARED, None)
    d = config.stash.get(_CACHE_DIR, None)
    if d is not None:
        os.environ.pop(BUILD_CACHE_ENV, None)
        shutil.rmtree(d, ignore_errors=True)
    pycache = config.stash.get(_PYCACHE, None)
    if pycache is not None:
        d, env, dont_write = pycache
        for k, v in env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        sys.pycache_prefix, sys.dont_write_bytecode = None, dont_write
        shutil.rmtree(d, ignore_errors=True)
    _settle_garbage()


def _settle_garbage() -> None:
    """One full collection, then every object still alive moved out of the collector's
    reach (``gc.freeze``).  pytest's own cleanup, which runs after this hook, collects
    five times to report what finalizers raise: over a worker's millions of objects
    that took xdist's workers past the 5 s that execnet gives them to exit, and its
    SIGINT then landed in hypothesis' gc callback (a ``PytestUnraisableExceptionWarning``
    at the end of a passing run).  The run's garbage is still collected here, its
    finalizers under pytest's hook; what is alive now and dies in the last cleanups is
    left to the process's exit, as everything alive then is."""
    gc.collect()
    gc.freeze()


# ---- pytest-xdist: a module's shared fixtures built by one worker --------------------------------

def _shares_a_fixture(item) -> bool:
    """Whether ``item`` uses a module- or session-scoped fixture of the project's tests
    (pytest's own, such as ``tmp_path_factory``, have no base id)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(d.scope in ("module", "package", "session") and d.baseid
               for defs in info.name2fixturedefs.values() for d in defs)


def pytest_report_header(config):
    """Whether the run holds the long tier (``long_tier.py``)."""
    if long_tier.runs_long(os.environ):
        return f"long tier: run ({long_tier.ENV}=1)"
    return f"long tier: not run (its items deselected; {long_tier.ENV}=1 runs them)"


def pytest_collection_modifyitems(config, items):
    """The long tier's items deselected unless the run asks for them (``long_tier.py``).
    With ``--dist loadgroup``, the tests of a module that use a module- or session-scoped
    fixture (a kernel or an IREE build) go to one worker, which builds the fixture once; the
    other tests are spread one by one.  Builds shared between modules go through the run's
    build cache instead (``build_cache.py``)."""
    items[:], held = long_tier.split(items, long_tier.runs_long(os.environ))
    if held:
        config.hook.pytest_deselected(items=held)
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if _shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    # xdist hands out the groups (largest first), then the other items in collection
    # order: the slowest items first (longest processing time first), so that none of them
    # starts last and leaves the other worker idle at the end of the run
    items.sort(key=_slow_first_key(_item_costs()))


def _item_costs() -> dict[str, float]:
    """``item_costs.txt``: node id -> seconds a whole run's ``--durations`` gave it."""
    costs = {}
    for line in (Path(__file__).parent / "item_costs.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            seconds, nodeid = line.split(" ", 1)
            costs[nodeid] = float(seconds)
    return costs


def _slow_first_key(costs: dict[str, float]):
    """The order to hand items out in: those of ``costs`` first, slowest first; then the
    others, the slowest modules' first (``_SLOW_FIRST``), each in collection order."""
    def key(item) -> tuple:
        return (-costs.get(item.nodeid, 0.0),
                _SLOW_FIRST.get(item.module.__name__, len(_SLOW_FIRST)))
    return key


#: the modules whose items take longest (``--durations``), slowest first: a scheduling hint
#: only, for the items ``item_costs.txt`` does not list (a module not listed here runs
#: after them, in collection order)
_SLOW_FIRST = {name: rank for rank, name in enumerate((
    "test_iree_mutants", "test_iree_pingpong", "test_dynamic_shapes",
    "test_iree_configurations", "test_campaign", "test_iree_emulate", "test_dynamic_k_iree",
    "test_iree_config_tiles", "test_iree_config_vector_distribute", "test_iree_config_ksplit",
    "test_iree_config_layouts", "test_docs", "test_lit"))}


# -- the IREE configuration tests' fixtures (test_iree_configurations.py and its topic files
# test_iree_config_*.py); a module with a ``generated`` fixture of its own (the 8-wave and
# epilogue tests) uses its own.  They live here, not in a conftest.py of tools/: the test
# modules import this one as ``conftest``, and a second file of that name would shadow it.

@pytest.fixture
def generated(tmp_path_factory):
    """(config, form) -> the path of IREE's kernel of an ``iree_configs.CONFIGS`` entry,
    generated once per run (``iree_configs.generator``)."""
    from iree_configs import generator

    return generator(tmp_path_factory)


@pytest.fixture
def shared_code_objects():
    """A kernel built (``--emit=hsaco``) and emulated (``--emulate``, each mode) is compiled
    once per run (``build_cache.share_code_objects``); the configuration modules ask for it
    with ``pytestmark``."""
    from build_cache import share_code_objects

    with share_code_objects():
        yield
