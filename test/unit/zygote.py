"""Commands of a test run forked from a process that imported what they run (a zygote).

Each lit RUN line starts ``pipeline-opt`` (about 300 of them a run), and each such process
spent about 0.2 s of CPU importing the package, the MLIR bindings and numpy before it did
anything; each kernel the tests build starts an LLVM code-generation worker (``python -m
pipeline_mlir.isa.codegen --worker``, :mod:`pipeline_mlir.isa.worker`) that imports llvmlite
first.  In a pytest run they start through a launcher instead: a small client that hands
its command line, working directory, environment and standard streams to the zygote, which
imported the tool once.  The zygote forks a process per command that takes them over and
runs it as its own process would (the console script's ``main``, or ``python -m MODULE``);
the client exits with its exit status, or dies of its signal.  So each command still runs
in a process of its own, with its own arguments, input, output, directory and environment;
only the imports are done once.

What a command costs besides its own work, under 0.04 s of CPU (0.07 s before): the
client is a native program (``zygote_client.c``, compiled once per run where a C compiler is found; else a
Python one, 0.03 s more to start); the command is forked from the zygote itself, which
waits for it (one fork of the zygote's ~140 MB, not two); what the zygote imported is
frozen out of the garbage collector's reach (``gc.freeze``), so a full collection in a
command does not walk and copy it page by page (80 ms each).

* lit: ``test/unit/tools/test_lit.py`` starts a zygote of ``pipeline-opt`` per pytest
  worker and gives lit its launcher (``$PIPELINE_LIT_LAUNCHER``, which
  ``test/lit/lit.cfg.py`` puts before the tool's path).
* LLVM's workers: ``conftest.py`` starts a zygote of the worker modules when the run starts
  and names its launcher in ``$PIPELINE_WORKER_LAUNCHER``, which
  :func:`pipeline_mlir.isa.worker.run` puts before ``python -m MODULE --worker``.
* The emulator's workers (``--emulate-jobs``): a zygote of their own, which imported numpy
  and the emulator (about 0.2 s of CPU a fresh worker spent), named in
  ``$PIPELINE_EMU_WORKER_LAUNCHER``, which :mod:`pipeline_mlir.emu.pool` puts before
  ``python -m pipeline_mlir.emu.pool --worker``.
* A command whose client is killed (a timeout) is killed with everything it started; the
  zygote waits for what it forked, so their CPU time is counted in the run's.
* Where ``fork`` or Unix sockets are missing (not POSIX), :func:`launcher` gives None and the
  commands start as before.  ``PIPELINE_TEST_FORK=0`` does the same anywhere.

Run as a script (``python zygote.py SOCKET ENTRY PATH PRELOAD``) it is the zygote: ``ENTRY``
is ``module:function``, run for each command; ``PATH`` a directory to import from first
(or empty); ``PRELOAD`` the modules to import first, comma-separated (``all``: every module
of ``pipeline_mlir``, the MLIR bindings first).
"""

from __future__ import annotations

import atexit
import gc
import importlib
import io
import json
import os
import pkgutil
import runpy
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

#: the console script's entry point (``[project.scripts]`` of pyproject.toml)
ENTRY = "pipeline_mlir.tools.entry:main"
#: the LLVM workers' entry point and what they import (:func:`module_main`)
WORKER_ENTRY = "zygote:module_main"
WORKER_PRELOAD = "llvmlite.binding,pipeline_mlir.isa.codegen,pipeline_mlir.passes.translate"
#: what the emulator's workers (``python -m pipeline_mlir.emu.pool --worker``) import, forked
#: from a zygote of their own (:func:`emu_worker_launcher`): not the LLVM workers', whose
#: thousands of forks a run would each pay for a larger zygote
EMU_WORKER_PRELOAD = "pipeline_mlir.emu.pool,pipeline_mlir.emu.gemm,pipeline_mlir.emu.machine"
#: the variable :mod:`pipeline_mlir.emu.pool` reads its launcher from (its ``LAUNCHER_ENV``;
#: named here so that the run's first process need not import numpy to set it)
EMU_LAUNCHER_ENV = "PIPELINE_EMU_WORKER_LAUNCHER"
#: the pool's ``SINGLE_THREADED``, the same way
EMU_SINGLE_THREADED = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                              "MKL_NUM_THREADS")}
#: seconds the zygote may take to import the tool and listen
START_TIMEOUT = 120.0
#: seconds a client may take to send its command once connected
REQUEST_TIMEOUT = 30.0
#: the variable that turns the zygotes off (``0``)
OFF = "PIPELINE_TEST_FORK"

_HEADER = struct.Struct("<Q")
#: the file beside the socket where a zygote that could not start says why
FAILED = "failed"

#: the client: a Python started without site (-S) or the environment's Python variables
#: (-E), importing only the standard library's socket, json and struct
CLIENT = r'''#!{python} -SE
import json, os, signal, socket, struct, sys, time
data = json.dumps({{"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}})
data = data.encode("utf-8", "surrogateescape")
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
deadline = time.monotonic() + {timeout!r}
while True:  # the zygote may still be importing
    try:
        s.connect({path!r})
        break
    except (FileNotFoundError, ConnectionRefusedError):
        if os.path.exists({failed!r}) or time.monotonic() > deadline:
            why = open({failed!r}).read() if os.path.exists({failed!r}) else "no answer"
            sys.stderr.write("launcher: the zygote at {path} did not start: " + why + "\n")
            os._exit(125)
        time.sleep(0.02)
socket.send_fds(s, [struct.pack("<Q", len(data))], [0, 1, 2])
s.sendall(data)
got = b""
while len(got) < 8:
    part = s.recv(8 - len(got))
    if not part:
        sys.stderr.write("launcher: the zygote ended the command without a status\n")
        os._exit(125)
    got += part
(code,) = struct.unpack("<q", got)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
os._exit(code)
'''


# ---- the test process's side ------------------------------------------------------------------

#: the zygotes this process started, by entry point, path and what they import first
_STARTED: dict[tuple[str, str, str], Path] = {}
#: the variable naming the zygotes the run's first process started for its pytest-xdist
#: workers (:func:`share`): JSON, ``"ENTRY PATH"`` -> the launcher
SHARED = "PIPELINE_TEST_ZYGOTES"
#: lit's entry point and what its zygote imports first: lit itself and the
#: multiprocessing pool its runner starts even for one file (``test_lit.py``)
LIT_ENTRY = "lit.main:main"
LIT_PRELOAD = "lit.main,lit.formats,lit.worker,lit.TestRunner,multiprocessing.pool"
#: the Python ``filecheck``'s entry point (its console script's), for the RUN lines' checks
#: where LLVM's FileCheck is not installed (``test/lit/lit.cfg.py``): each such process
#: spent about 0.12 s of CPU importing it, for some 250 checks a run
FILECHECK_ENTRY = "filecheck.main:main"
FILECHECK_PRELOAD = "filecheck.main"
#: the variable ``test/lit/lit.cfg.py`` reads the checker's launcher from
FILECHECK_LAUNCHER_ENV = "PIPELINE_LIT_FILECHECK_LAUNCHER"
#: the zygotes of lit's tests: lit's, and ``pipeline-opt``'s for its RUN lines (and the
#: Python checker's where it is the one lit uses: :func:`lit_zygotes`)
LIT_ZYGOTES = ((LIT_ENTRY, "", LIT_PRELOAD), (ENTRY, "", "all"))
FILECHECK_ZYGOTE = (FILECHECK_ENTRY, "", FILECHECK_PRELOAD)


def python_checker(environ=os.environ, which=shutil.which) -> bool:
    """Whether lit's checks run the Python ``filecheck`` (as ``test/lit/lit.cfg.py`` picks:
    not when ``$FILECHECK`` names a checker or LLVM's ``FileCheck`` is on ``PATH``)."""
    return not (environ.get("FILECHECK") or which("FileCheck") or which("FileCheck-22"))


def lit_zygotes() -> tuple:
    """:data:`LIT_ZYGOTES`, and the Python checker's where lit uses it."""
    return LIT_ZYGOTES + ((FILECHECK_ZYGOTE,) if python_checker() else ())


def filecheck_launcher() -> str | None:
    """:func:`launcher` of the Python checker, None where lit does not use it."""
    return launcher(*FILECHECK_ZYGOTE) if python_checker() else None


def launcher(entry: str = ENTRY, path: str = "", preload: str = "all",
             env: dict | None = None) -> str | None:
    """The path of a client that runs its command line in a process forked from this
    process's zygote of ``entry`` (started on first use, stopped when this process exits;
    ``path``: a directory put first on its module path; ``preload``: what it imports
    first; ``env``: variables it starts with besides this process's), or the run's first
    process's (:func:`share`); None where it cannot be used."""
    if os.environ.get(OFF) == "0" or not hasattr(os, "fork") or \
            not hasattr(socket, "send_fds") or not hasattr(os, "pidfd_open"):
        return None
    shared = json.loads(os.environ.get(SHARED) or "{}").get(f"{entry} {path}")
    if shared is not None:
        return shared
    if (entry, path, preload) not in _STARTED:
        _STARTED[entry, path, preload] = _start(entry, path, preload, env)
    return str(_STARTED[entry, path, preload])


def share(zygotes) -> dict[str, str]:
    """Start the zygotes ``zygotes`` (``(entry, path, preload)`` each) in this process (the
    run's first) and name them in :data:`SHARED`, for pytest-xdist's workers (started
    after this; they inherit the variable): each imports the tool once per run, not once
    per worker (``pipeline-opt``'s: about 1.5 s of CPU).  The zygotes serve any number of
    clients at once and stop when this process exits, after the workers.  What was
    shared (nothing where :func:`launcher` gives None)."""
    shared = json.loads(os.environ.get(SHARED) or "{}")
    for entry, path, preload in zygotes:
        found = launcher(entry, path, preload)
        if found is not None:
            shared[f"{entry} {path}"] = found
    if shared:
        os.environ[SHARED] = json.dumps(shared)
    return shared


def worker_launcher() -> str | None:
    """:func:`launcher` of LLVM's worker modules (``python -m MODULE --worker``)."""
    return launcher(WORKER_ENTRY, str(Path(__file__).parent), WORKER_PRELOAD)


def emu_worker_launcher() -> str | None:
    """:func:`launcher` of the emulator's worker processes (``--emulate-jobs``), which imports
    :data:`EMU_WORKER_PRELOAD` with BLAS on one thread, as the pool starts its workers
    (:data:`EMU_SINGLE_THREADED`: numpy reads it when the zygote imports it, before a
    worker's own environment is applied)."""
    return launcher(WORKER_ENTRY, str(Path(__file__).parent), EMU_WORKER_PRELOAD,
                    env=EMU_SINGLE_THREADED)


def _start(entry: str, module_path: str, preload: str, env: dict | None = None) -> Path:
    d = Path(tempfile.mkdtemp(prefix="pipeline-mlir-test-zygote-"))
    path = d / "zygote.sock"
    proc = subprocess.Popen([sys.executable, __file__, str(path), entry, module_path, preload],
                            stdin=subprocess.DEVNULL, start_new_session=True,
                            env=None if env is None else {**os.environ, **env})

    def stop():  # the zygote waits for its last commands, then exits
        proc.terminate()
        try:
            proc.wait(timeout=START_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(d, ignore_errors=True)
    atexit.register(stop)
    client = d / "launcher"
    native = native_client()
    if native is not None:
        client.write_bytes(native)
    else:
        client.write_text(CLIENT.format(python=sys.executable, path=str(path),
                                        failed=str(d / FAILED), timeout=START_TIMEOUT))
    client.chmod(0o755)
    return client


#: the native client's source (the same protocol as :data:`CLIENT`)
NATIVE_SOURCE = Path(__file__).with_name("zygote_client.c")
#: the variable that turns the native client off (``0``: the Python client)
NATIVE_OFF = "PIPELINE_TEST_NATIVE_LAUNCHER"


def native_client() -> bytes | None:
    """The native client (``zygote_client.c``), compiled once per run (the run's build
    cache) by the C compiler on ``PATH`` (``$CC``, else ``cc``); None where there is none,
    it fails, or :data:`NATIVE_OFF` is ``0``: the Python client (:data:`CLIENT`) then.
    It starts in about a millisecond of CPU where a Python client takes 0.03 s, for each
    of a run's thousands of commands."""
    if os.environ.get(NATIVE_OFF) == "0" or not sys.platform.startswith("linux"):
        return None
    compiler = shutil.which(os.environ.get("CC") or "cc")
    if compiler is None:
        return None
    from build_cache import cached

    source = NATIVE_SOURCE.read_text()

    def build() -> bytes | None:
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "launcher"
            done = subprocess.run([compiler, "-O1", f"-DZYGOTE_TIMEOUT={START_TIMEOUT!r}",
                                   "-o", str(out), str(NATIVE_SOURCE)],
                                  capture_output=True, check=False)
            return out.read_bytes() if done.returncode == 0 and out.exists() else None
    return cached("zygote-client", (compiler, source, START_TIMEOUT), build)


# ---- the zygote -------------------------------------------------------------------------------

def module_main() -> None:
    """``python -m MODULE ARGS`` of the command line ``PYTHON -m MODULE ARGS``."""
    _, flag, module, *args = sys.argv
    assert flag == "-m", sys.argv
    sys.argv = [module, *args]
    sys.modules.pop(module, None)  # preloaded: run afresh as __main__, as ``-m`` runs it
    runpy.run_module(module, run_name="__main__", alter_sys=True)


def _preload(what: str) -> None:
    """Import ``what`` (modules, comma-separated; ``all``: what ``pipeline-opt`` imports on
    any of its paths: the MLIR bindings first, before numpy, as the tool loads them, their
    dialect modules, then every module of the package)."""
    if what != "all":
        for name in filter(None, what.split(",")):
            importlib.import_module(name)
        return
    bindings = importlib.import_module("pipeline_mlir.dialect.bindings")
    for name in bindings.DIALECTS:
        getattr(bindings, name)
    package = importlib.import_module("pipeline_mlir")
    for info in pkgutil.walk_packages(package.__path__, "pipeline_mlir."):
        importlib.import_module(info.name)


def _serve(path: str, entry: str, module_path: str, preload: str) -> None:
    parent = os.getppid()
    # as the console script sees it: its own directory first on the path, not this one's
    sys.path[0] = str(Path(sys.executable).parent)
    if module_path:
        sys.path.insert(0, module_path)
    module, function = entry.split(":")
    _preload(preload)
    main = getattr(importlib.import_module(module), function)
    # what the zygote imported, out of the collector's reach in every command forked from
    # it: a full collection in a command no longer walks (and copies, page by page) the
    # zygote's half a million objects (about 80 ms of CPU each, 4 ms frozen)
    gc.collect()
    gc.freeze()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    #: the commands running: a pidfd of each -> (its process, its client's connection)
    running: dict[int, tuple[int, socket.socket]] = {}
    while os.getppid() == parent and not stopping:
        conns = {conn.fileno(): done for done, (_, conn) in running.items()}
        try:
            ready, _, _ = select.select([listener, *running, *conns], [], [], 0.5)
        except InterruptedError:
            continue
        for fd in ready:
            if fd in running:      # a command ended: its client gets its status
                _finish(running.pop(fd), fd, killed=False)
            elif fd in conns and conns[fd] in running:
                # the client is gone (killed), or broke the protocol: so is its command
                done = conns[fd]
                _finish(running.pop(done), done, killed=True)
        if listener in ready:
            started = _start_command(listener, main, running)
            if started is not None:
                running[started[0]] = started[1:]
    for done, command in list(running.items()):
        _finish(command, done, killed=False)


def _start_command(listener: socket.socket, main, running: dict):
    """Accept a client and fork its command's process: ``(pidfd, pid, connection)``, or
    None for a client that went away before it said what to run.  Each command is forked
    from the zygote itself (once, not through a process per client that waits for it)."""
    conn, _ = listener.accept()
    # a client sends its command as soon as it connects: one that stops before it has
    # (stopped, not dead: the dead close their end) holds the other commands up only so long
    conn.settimeout(REQUEST_TIMEOUT)
    fds: list[int] = []
    try:
        header, fds, _, _ = socket.recv_fds(conn, _HEADER.size, 3)
        if len(header) != _HEADER.size or len(fds) != 3:
            raise EOFError
        (n,) = _HEADER.unpack(header)
        data = b""
        while len(data) < n:
            part = conn.recv(n - len(data))
            if not part:
                raise EOFError
            data += part
        request = json.loads(data.decode("utf-8", "surrogateescape"))
    except (OSError, EOFError, ValueError):
        for fd in fds:
            os.close(fd)
        conn.close()
        return None
    conn.setblocking(True)
    pid = os.fork()
    if pid == 0:
        code = 125
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            listener.close()
            conn.close()
            for done, (_, other) in running.items():
                os.close(done)
                other.close()
            code = _run(request, fds, main)
        finally:
            os._exit(code)
    for fd in fds:
        os.close(fd)
    return os.pidfd_open(pid), pid, conn


def _finish(command: tuple[int, socket.socket], done: int, killed: bool) -> None:
    """Reap a command (its process killed first, with what it started, when ``killed``)
    and send its client the exit status (minus the signal that killed it); the waiting
    is the zygote's own: the command's CPU time is counted in its children's, and so in
    the test process's."""
    pid, conn = command
    if killed:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:  # not yet the leader of its group: nothing started yet
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(done)
    if not killed:
        try:
            conn.sendall(struct.pack("<q", os.waitstatus_to_exitcode(status)))
        except OSError:  # the client went away as its command ended
            pass
    conn.close()


def _run(request: dict, fds: list[int], main) -> int:
    """In the command's process: take over its streams, directory, environment and
    command line, run ``main`` as the console script does; the exit status."""
    os.setsid()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = list(request["argv"])
    _std_streams()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = main()
    except SystemExit as e:
        code = e.code
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    if code is not None and not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code or 0


def _std_streams() -> None:
    """``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` over descriptors 0, 1 and 2 made
    as Python makes them at start-up (the encodings and error handlers it chose for the
    zygote's, in the same locale): no newline translation, stdout line-buffered on a
    terminal, stderr always, both unbuffered under ``PYTHONUNBUFFERED``."""
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))

    def stream(fd: int, like, mode: str, line: bool) -> io.TextIOWrapper:
        raw = open(fd, mode, buffering=0 if unbuffered and mode == "wb" else -1,
                   closefd=False)
        return io.TextIOWrapper(raw, encoding=like.encoding, errors=like.errors, newline="\n",
                                line_buffering=line, write_through=unbuffered and mode == "wb")
    sys.stdin = sys.__stdin__ = stream(0, sys.__stdin__, "rb", False)
    sys.stdout = sys.__stdout__ = stream(1, sys.__stdout__, "wb", os.isatty(1))
    sys.stderr = sys.__stderr__ = stream(2, sys.__stderr__, "wb", True)


if __name__ == "__main__":
    try:
        _serve(*sys.argv[1:5])
    except BaseException as e:  # the clients waiting for it say why, then fail
        # written whole, then renamed: a launcher that sees the file reads all of it
        done = Path(sys.argv[1]).parent / FAILED
        done.with_suffix(".part").write_text(f"{type(e).__name__}: {e}")
        done.with_suffix(".part").replace(done)
        raise
