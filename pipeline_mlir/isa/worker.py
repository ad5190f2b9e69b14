"""Work in a child process, with one protocol for every worker.

LLVM reports many errors by aborting the process, and the MLIR bindings segfault on a
translation they cannot do; such work runs in a child, ``python -m <module> --worker``, so that
a crash becomes an error of the caller, never its death.  The protocol:

* the parent writes one payload (bytes) on the child's standard input;
* the work returns a list of byte strings, which the child writes on standard output, each
  after its length (8 bytes, little-endian), and exits with status 0;
* a failure the work foresees raises :class:`WorkFailed`: the child writes its message on
  standard error and exits with status :data:`FAILED`;
* anything else (an abort, a signal, a Python error) leaves what the child printed on standard
  error and its status.

A reply of status 0 is checked whole: every part as long as its length says, and as many
parts as the caller asks for (``parts``).  One that is not (the worker, or a launcher
in front of it, exited 0 before all of its output reached the pipe) is the caller's
``error`` naming what is missing (:func:`short_reply`), never a part read short or an index
past the parts: a code object cut short would otherwise be linked as it is.

:func:`run` is the parent's side, :func:`serve` the child's (the worker module's ``__main__``
block).  Used by :mod:`pipeline_mlir.isa.codegen` (LLVM code generation) and
:mod:`pipeline_mlir.passes.translate` (MLIR to LLVM IR); nothing is imported here that either
child does not need.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from dataclasses import dataclass

from pipeline_mlir.whole_write import write_whole

FLAG = "--worker"
#: exit status of a worker whose work raised WorkFailed
FAILED = 3
#: seconds before a child step is killed (``--codegen-timeout``; each of our kernels takes
#: well under one to translate, compile or link)
DEFAULT_TIMEOUT = 120.0
#: a command to start the worker through (``LAUNCHER PYTHON -m MODULE --worker``), where set:
#: the test suite's runs each worker forked from a process that imported it already
#: (``test/unit/zygote.py``): the same command line, standard streams and exit status
LAUNCHER_ENV = "PIPELINE_WORKER_LAUNCHER"
#: what a timeout's message ends with: the option that sets the limit
TIMEOUT_HINT = "--codegen-timeout=SECONDS or PIPELINE_OPT_CODEGEN_TIMEOUT sets the limit"


def timed_out(doing: str, timeout: float) -> str:
    """The message of a child step that did not finish in ``timeout`` seconds."""
    return f"{doing} did not finish in {timeout:g} s ({TIMEOUT_HINT})"


class WorkFailed(Exception):
    """Raised by a worker's work: a failure it foresaw, reported as its message."""


@dataclass
class Exit:
    """How a worker ended: its status, its outputs (status 0) and its standard error."""

    status: int
    parts: list[bytes]
    stderr: str

    def how(self) -> str:
        """``crashed (signal N)`` or ``failed (status N)``."""
        if self.status < 0:
            return f"crashed (signal {-self.status})"
        return f"failed (status {self.status})"


def run(module: str, payload: bytes, *, timeout: float, error: type[Exception], doing: str,
        starting: str, parts: int | None = None) -> Exit:
    """Run ``python -m module --worker`` on ``payload``.

    ``error`` is raised when the worker does not finish in ``timeout`` seconds
    (:func:`timed_out`), cannot start (``"cannot start the {starting} worker ..."``), or
    exits with status 0 and a reply cut short or of other than ``parts`` parts (None: any
    number; :func:`short_reply`).
    """
    command = [sys.executable, "-m", module, FLAG]
    launcher = os.environ.get(LAUNCHER_ENV)
    try:
        # a session of its own, so that what the worker forks (the code generation's
        # assembly child) is stopped with it: killing the worker alone left that child
        # running, an orphan, long after a timeout
        proc = subprocess.Popen([launcher, *command] if launcher else command,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:  # no Python to run, no process or memory left
        raise error(f"cannot start the {starting} worker ({sys.executable}): "
                    f"{e.strerror or e}") from None
    try:
        stdout, stderr = proc.communicate(payload, timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        raise error(timed_out(doing, timeout)) from None
    except BaseException:       # interrupted: the worker and what it forked go too
        _stop(proc)
        raise
    said = stderr.decode(errors="replace")
    if proc.returncode != 0:
        return Exit(proc.returncode, [], said)
    got, missing = _unframe(stdout)
    if missing is None and parts is not None and len(got) != parts:
        missing = f"it holds {len(got)} part{'s' * (len(got) != 1)}, not the {parts} asked for"
    if missing is not None:
        raise error(short_reply(starting, missing, len(stdout), said))
    return Exit(0, got, said)


def short_reply(starting: str, missing: str, size: int, stderr: str) -> str:
    """The message of a worker that exited with status 0 and a reply of ``size`` bytes that
    is not whole (``missing``: what is wrong with it), with the end of its standard error."""
    tail = " ".join(stderr.split())[-300:]
    said = f"; its standard error: {tail}" if tail else ", and nothing on standard error"
    return (f"the {starting} worker exited with status 0 but its reply ({size} bytes) was "
            f"cut short: {missing} (the worker, or what launched it, ended before all of its "
            f"output was written){said}")


def _stop(proc: subprocess.Popen) -> None:
    """Kill worker ``proc``'s process group (the worker and every process it forked) and
    reap the worker."""
    try:
        os.killpg(proc.pid, 9)
    except OSError:             # gone already
        pass
    proc.kill()
    proc.communicate()


def serve(work, module: str, takes: str) -> int:
    """The child's side: check the command line, run ``work(payload) -> list[bytes]``, write
    the result; the exit status.  ``takes`` says what the payload is (for the usage line)."""
    if sys.argv[1:] != [FLAG]:
        sys.stderr.write(f"usage: python -m {module} {FLAG} (internal: {takes} on stdin)\n")
        return 2
    payload = sys.stdin.buffer.read()
    try:
        parts = work(payload)
    except WorkFailed as e:
        sys.stderr.write(f"{e}\n")
        return FAILED
    sys.stdout.flush()
    write_whole(sys.stdout.buffer, b"".join(struct.pack("<Q", len(p)) + p for p in parts))
    return 0


def _unframe(data: bytes) -> tuple[list[bytes], str | None]:
    """(the parts of a reply, None), or (those read whole, what is missing) when it ends
    inside a part's length or its bytes."""
    parts, pos = [], 0
    while pos < len(data):
        if len(data) - pos < 8:
            return parts, (f"it ends inside the length of part {len(parts) + 1} "
                           f"({len(data) - pos} of its 8 bytes)")
        (n,) = struct.unpack_from("<Q", data, pos)
        if len(data) - pos - 8 < n:
            return parts, (f"part {len(parts) + 1} has {len(data) - pos - 8} of its {n} "
                           f"bytes")
        parts.append(data[pos + 8:pos + 8 + n])
        pos += 8 + n
    return parts, None
