"""zygote.py: a command run through the launcher is run as its own process would be run,
on a stand-in tool (no import of the project: the zygote starts in a fraction of a second),
by each of its clients: the native one (``zygote_client.c``, where a C compiler is found)
and the Python one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

import zygote

TOOL = '''
import json, os, sys, time

def main():
    args = sys.argv[1:]
    if args == ["abort"]:
        os.abort()
    if args == ["message"]:
        sys.exit("it went wrong")
    if args[:1] == ["sleep"]:
        open(args[1], "w").write(str(os.getpid()))
        time.sleep(120)
    print(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "env": os.environ.get("TOOL_VAR"),
                      "stdin": sys.stdin.read()}))
    print("to stderr", file=sys.stderr)
    return 3
'''


CLIENTS = ["native", "python"]


def _launcher(client: str, entry: str, path: str) -> str:
    """:func:`zygote.launcher` of ``entry`` with the ``client`` asked for."""
    if client == "native" and zygote.native_client() is None:
        pytest.skip("no C compiler here: the Python client is used")
    with pytest.MonkeyPatch.context() as m:
        m.setenv(zygote.NATIVE_OFF, "1" if client == "native" else "0")
        found = zygote.launcher(entry, path, preload="")
    if found is None:
        pytest.skip("no fork or Unix sockets here: lit runs the tool itself")
    is_python = Path(found).read_bytes().startswith(b"#!")
    assert is_python == (client == "python")
    return found


@pytest.fixture(scope="module", params=CLIENTS)
def launcher(request, tmp_path_factory):
    d = tmp_path_factory.mktemp("tool")
    (d / "stand_in_tool.py").write_text(TOOL)
    return _launcher(request.param, "stand_in_tool:main", str(d))


#: arguments and a variable that JSON must escape: quotes, backslashes, control characters,
#: text beyond ASCII, bytes that are not UTF-8 (each goes as the command's own process
#: would see it)
ODD = ["a", "b c", 'q"uo\\te', "tab\tnew\nline\x01\x7f", "héllo ✓",
       os.fsdecode(b"raw\xff\xfebytes"), ""]


def test_a_command_gets_its_arguments_directory_environment_and_streams(launcher, tmp_path):
    done = subprocess.run([launcher, "/bin/tool", *ODD], input="the input",
                          capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "TOOL_VAR": ODD[3] + ODD[4]})
    assert done.returncode == 3, done.stderr
    assert json.loads(done.stdout) == {"argv": ["/bin/tool", *ODD], "cwd": str(tmp_path),
                                       "env": ODD[3] + ODD[4], "stdin": "the input"}
    assert done.stderr == "to stderr\n"


def test_a_crash_and_a_message_exit_as_the_process_would(launcher):
    crashed = subprocess.run([launcher, "tool", "abort"], capture_output=True)
    assert crashed.returncode == -signal.SIGABRT
    failed = subprocess.run([launcher, "tool", "message"], capture_output=True, text=True)
    assert (failed.returncode, failed.stderr) == (1, "it went wrong\n")


def test_a_killed_client_takes_its_command_with_it(launcher, tmp_path):
    pid_file = tmp_path / "pid"
    client = subprocess.Popen([launcher, "tool", "sleep", str(pid_file)])
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text()):
        assert time.monotonic() < deadline and client.poll() is None
        time.sleep(0.02)
    pid = int(pid_file.read_text())
    client.kill()
    client.wait()
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(f"the command (pid {pid}) outlived its client")


@pytest.mark.parametrize("client", CLIENTS)
def test_a_zygote_that_cannot_start_fails_its_commands_with_the_reason(tmp_path, client):
    found = _launcher(client, "no_such_tool_module:main", str(tmp_path))
    done = subprocess.run([found, "tool"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 125
    assert "did not start: ModuleNotFoundError: No module named 'no_such_tool_module'" \
        in done.stderr, done.stderr


def test_a_shared_zygote_serves_the_processes_started_after(tmp_path, monkeypatch):
    """``zygote.share`` (the run's first process, for its xdist workers): a process started
    after it finds the same launcher, whose commands run as its own would."""
    import sys

    monkeypatch.delenv(zygote.SHARED, raising=False)
    (tmp_path / "stand_in_tool.py").write_text(TOOL)
    shared = zygote.share([("stand_in_tool:main", str(tmp_path), "")])
    if not shared:
        pytest.skip("no fork or Unix sockets here: lit runs the tool itself")
    (found,) = shared.values()
    asked = subprocess.run(
        [sys.executable, "-c", "import sys, zygote; "
         "print(zygote.launcher('stand_in_tool:main', sys.argv[1], ''))", str(tmp_path)],
        env={**os.environ, "PYTHONPATH": str(Path(zygote.__file__).parent)},
        capture_output=True, text=True, check=True)
    assert asked.stdout.strip() == found
    done = subprocess.run([found, "tool", "x"], capture_output=True, text=True)
    assert done.returncode == 3 and json.loads(done.stdout)["argv"] == ["tool", "x"]


def test_a_client_that_leaves_before_its_command_leaves_the_zygote_serving(launcher):
    """A client gone before it sent its command (connected, then closed; or half a
    command) is dropped: the zygote, which forks every command itself, still serves."""
    import socket
    import struct

    path = str(Path(launcher).parent / "zygote.sock")
    deadline = time.monotonic() + 60
    for send in (b"", struct.pack("<Q", 10)):
        while True:   # the zygote may still be importing
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
                assert time.monotonic() < deadline
                time.sleep(0.02)
        if send:
            socket.send_fds(s, [send], [0, 1, 2])
        s.close()
    done = subprocess.run([launcher, "tool", "x"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3 and json.loads(done.stdout)["argv"] == ["tool", "x"]


def test_the_python_checker_is_forked_only_where_lit_uses_it():
    """The Python ``filecheck``'s zygote is started only where lit picks that checker (no
    ``$FILECHECK``, no LLVM ``FileCheck`` on ``PATH``: ``test/lit/lit.cfg.py``)."""
    none = lambda name: None                                            # noqa: E731
    llvm = lambda name: "/usr/bin/FileCheck-22" if name == "FileCheck-22" else None  # noqa: E731
    assert zygote.python_checker({}, none)
    assert not zygote.python_checker({"FILECHECK": "/opt/llvm/bin/FileCheck"}, none)
    assert not zygote.python_checker({}, llvm)


@pytest.mark.skipif(zygote.launcher(zygote.FILECHECK_ENTRY, "", zygote.FILECHECK_PRELOAD)
                    is None, reason="no zygote here (not POSIX, or PIPELINE_TEST_FORK=0)")
def test_a_forked_checker_passes_and_fails_as_its_own_process(tmp_path):
    """The Python checker forked from its zygote: a check that matches exits 0, one that does
    not exits 1 with the checker's diagnostic, as the console script does."""
    import shutil
    import sys

    script = Path(sys.executable).parent / "filecheck"
    if not script.exists() and shutil.which("filecheck") is None:
        pytest.skip("no Python filecheck installed")
    launcher = zygote.launcher(zygote.FILECHECK_ENTRY, "", zygote.FILECHECK_PRELOAD)
    checks = tmp_path / "c.mlir"
    checks.write_text("// CHECK: error: expected\n")
    run = lambda text: subprocess.run([launcher, str(script), str(checks)], input=text,  # noqa
                                      capture_output=True, text=True, timeout=60)
    good, bad = run("x: error: expected\n"), run("x: error: something else\n")
    assert good.returncode == 0, good.stderr
    assert bad.returncode == 1 and "Couldn't match" in bad.stderr, bad.stderr
