"""The child-process protocol of the LLVM workers (``pipeline_mlir/isa/worker.py``)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from pipeline_mlir.isa import worker

ROOT = Path(__file__).resolve().parents[3]

FAKE = '''
import os, sys, time
from pipeline_mlir.isa import worker

def work(payload):
    if payload == b"fail":
        raise worker.WorkFailed("it failed")
    if payload == b"crash":
        os.abort()
    if payload.startswith(b"fork:"):    # as the code generation forks its assembly child
        if os.fork() == 0:
            with open(payload[5:].decode(), "w") as f:
                f.write(str(os.getpid()))
            time.sleep(30)
            os._exit(0)
        time.sleep(30)
    return [payload.upper(), b"", bytes(range(256))]

if __name__ == "__main__":
    sys.exit(worker.serve(work, "fake_worker", "bytes"))
'''


class Boom(Exception):
    pass


@pytest.fixture
def fake(tmp_path, monkeypatch):
    (tmp_path / "fake_worker.py").write_text(FAKE)
    # started as a process of its own, not through the test run's zygote (zygote.py),
    # which imports from its own path
    monkeypatch.delenv(worker.LAUNCHER_ENV, raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(ROOT),
                                                      os.environ.get("PYTHONPATH", "")]))

    def run(payload: bytes, timeout: float = 60):
        return worker.run("fake_worker", payload, timeout=timeout, error=Boom,
                          doing="the fake work", starting="fake")
    return run


def test_the_outputs_come_back_framed(fake):
    done = fake(b"hello")
    assert (done.status, done.parts) == (0, [b"HELLO", b"", bytes(range(256))])


def test_a_foreseen_failure_is_its_message_and_status_3(fake):
    done = fake(b"fail")
    assert (done.status, done.parts, done.stderr) == (worker.FAILED, [], "it failed\n")
    assert done.how() == "failed (status 3)"


def test_a_crash_is_a_status_not_the_callers_death(fake):
    done = fake(b"crash")
    assert done.status < 0 and done.how() == f"crashed (signal {-done.status})"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def test_a_worker_that_does_not_finish_is_the_callers_error(fake, tmp_path):
    """A worker past its time is the caller's error, and stops with all it forked: the
    code generation's worker forks a child for the assembly, and a timeout killed the
    worker alone, its child running on (the ninth audit found two, an hour after their
    timeouts); the worker runs in a session of its own, killed whole."""
    pidfile = tmp_path / "child.pid"
    with pytest.raises(Boom, match=r"^the fake work did not finish in 5 s \(--codegen-timeout="
                                   r"SECONDS or PIPELINE_OPT_CODEGEN_TIMEOUT sets the limit\)$"):
        fake(b"fork:" + str(pidfile).encode(), timeout=5)
    pid = int(pidfile.read_text())
    for _ in range(50):
        if not _alive(pid):
            break
        time.sleep(0.1)
    assert not _alive(pid), f"the worker's child {pid} outlived the timeout"


def test_a_worker_that_cannot_start_is_the_callers_error(fake, monkeypatch):
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    with pytest.raises(Boom, match=r"^cannot start the fake worker \(/nonexistent/python\): "):
        fake(b"hello")
