"""zygote.py: a command run through the launcher is run as its own process would be run,
on a stand-in tool (no import of the project: the zygote starts in a fraction of a second)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

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


@pytest.fixture(scope="module")
def launcher(tmp_path_factory):
    d = tmp_path_factory.mktemp("tool")
    (d / "stand_in_tool.py").write_text(TOOL)
    found = zygote.launcher("stand_in_tool:main", str(d), preload="")
    if found is None:
        pytest.skip("no fork or Unix sockets here: lit runs the tool itself")
    return found


def test_a_command_gets_its_arguments_directory_environment_and_streams(launcher, tmp_path):
    done = subprocess.run([launcher, "/bin/tool", "a", "b c"], input="the input",
                          capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "TOOL_VAR": "set"})
    assert done.returncode == 3, done.stderr
    assert json.loads(done.stdout) == {"argv": ["/bin/tool", "a", "b c"], "cwd": str(tmp_path),
                                       "env": "set", "stdin": "the input"}
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


def test_a_zygote_that_cannot_start_fails_its_commands_with_the_reason(tmp_path):
    found = zygote.launcher("no_such_tool_module:main", str(tmp_path), preload="")
    if found is None:
        pytest.skip("no fork or Unix sockets here: lit runs the tool itself")
    done = subprocess.run([found, "tool"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 125
    assert "did not start: ModuleNotFoundError: No module named 'no_such_tool_module'" \
        in done.stderr, done.stderr
