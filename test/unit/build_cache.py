"""A build cache shared by the processes of one test run (pytest-xdist's workers).

The expensive fixtures (kernels compiled by ``pipeline-opt`` and LLVM, IREE's kernels built
by ``iree-compile``) are built once per run, not once per worker: :func:`cached` keeps each
result as a pickle in the run's cache directory, named by the hash of what it is built from,
and holds a file lock while it builds, so a second worker that asks for the same thing waits
and then reads it.  The directory is made by the run's first process (``conftest.py``, in
``pytest_configure`` before xdist starts its workers, which inherit it through the
environment variable :data:`ENV`) and removed when that process ends; without it (a process
that is not part of a test run) :func:`cached` just builds.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Callable, TypeVar

try:
    import fcntl
except ImportError:          # not POSIX: no lock, so no sharing (every process builds)
    fcntl = None

#: the environment variable naming the run's cache directory
ENV = "PIPELINE_TEST_BUILD_CACHE"
#: the outputs every shared ``--emit=hsaco`` build of an input keeps on the way
#: (``CompileOptions.stages``; :func:`share_code_objects`)
KEPT_STAGES = ("adopted", "schedule-json", "mlir")

T = TypeVar("T")


class OnRequest(dict):
    """A dict whose entries are built when an item first asks for one: ``make(key)`` returns
    the entries of that build (the key's, and any built with it), so that what only the
    long tier's items ask for is not built in the default run."""

    def __init__(self, make: Callable) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key):
        self.update(self.make(key))
        return self[key]


def key_of(kind: str, inputs) -> str:
    """The file name of a build: its kind and the hash of its inputs' ``repr``."""
    return f"{kind}-{hashlib.sha256(repr(inputs).encode()).hexdigest()[:32]}"


def cached(kind: str, inputs, build: Callable[[], T]) -> T:
    """``build()``, or what a process of the same run already built for the same ``kind``
    and ``inputs`` (anything whose ``repr`` names it exactly; the result must pickle).  A
    build that raises leaves nothing behind: the next process to ask builds again."""
    root = os.environ.get(ENV)
    if not root or fcntl is None or not Path(root).is_dir():
        return build()
    path = Path(root) / (key_of(kind, inputs) + ".pickle")
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if path.exists():
                return pickle.loads(path.read_bytes())
            value = build()
            part = path.with_suffix(f".{os.getpid()}.part")
            part.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            part.replace(path)
            return value
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def share_code_objects(emits: tuple[str, ...] = ("hsaco",), own_kernels: bool = False,
                       together: bool = False):
    """A context manager: inside it ``pipeline_mlir.driver.api.compile`` (what
    ``pipeline-opt``'s ``main``, ``--emulate`` and ``--tune`` build with) keeps each plain
    build of one of ``emits`` in the run's cache (:func:`cached`), so a kernel built with
    ``--emit=hsaco`` and then emulated (``--emulate``, each memory mode) is compiled once per
    run; with ``own_kernels``, also a named schedule's own kernel (a build with no input:
    what ``--tune`` compiles for each candidate).  What is shared and by which key:
    :mod:`pipeline_mlir.driver.code_cache`.  Every ``--emit=hsaco`` build of an input keeps
    :data:`KEPT_STAGES` on the way (one key for them all), so a test that asks for the
    lowered MLIR, the schedule or the adopted loop of a kernel the run builds anyway
    (``steady_loop.lowered_split``, ``iree_configs.forms_agree``) runs no passes again.
    The ``obj`` and ``hsaco`` builds it shares skip the ISA check of a code build
    (``--no-isa-check``): the modules that share code objects build many of them to emulate
    them, which is the proof the check approximates, and the check would add 0.1 to 0.13 s
    of CPU to each build (``asm`` builds, and every build outside the store, stay checked).
    With ``together``, the ``emits`` of one input (``mlir`` and the LLVM step's kinds) are
    one build, each kind its output (``code_cache``'s ``together``): for a module that
    builds one input for several ``--emit`` kinds."""
    from pipeline_mlir.driver.code_cache import sharing

    return sharing(cached, emits, own_kernels, KEPT_STAGES, isa_check=False,
                   together=together)


def keep_built(schedule: str, text: str, result) -> None:
    """Keep ``result``, an ``--emit=hsaco`` build of ``text`` by ``schedule`` made outside
    the store (the ISA gate on) or keeping more stages than :data:`KEPT_STAGES`, as the
    store's build of it (:func:`share_code_objects`), so that an ``--emulate`` of the same
    input after it reads this build's code object instead of compiling it again.  The gate
    checks a code object and does not change it, so the kept output is what the store's
    unchecked build makes.  Kept only as the store keeps its own: a build that succeeded
    without a diagnostic and kept every stage of :data:`KEPT_STAGES`; nothing is replaced."""
    import dataclasses

    if result.failed or result.diagnostics or not set(KEPT_STAGES) <= set(result.stages):
        return
    kept = dataclasses.replace(result, stages={k: result.stages[k] for k in KEPT_STAGES},
                               report=None)
    cached("hsaco", (schedule, text, KEPT_STAGES), lambda: kept)
    cached("hsaco", (schedule, text), lambda: dataclasses.replace(kept, stages={}))
