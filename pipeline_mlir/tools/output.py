"""Writing ``pipeline-opt``'s output: to standard output, or to a file written whole or not at
all (a temporary file in the target's directory, renamed over it once everything is written)."""

from __future__ import annotations

import contextlib
import os
import stat
import sys


def write(path: str, data) -> None:
    """Write ``data`` (text or bytes) to ``path`` (``-``: standard output)."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    if path == "-":
        _write_stdout(raw)
        return
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/null, /dev/stdout, a FIFO
        with open(path, "wb") as f:
            f.write(raw)
        return
    _replace(path, raw, st)


def print_and_exit(text: str) -> None:
    """``text`` on standard output (ending with a newline; nothing when standard output is
    gone), then exit with status 0 (``SystemExit``), as ``--help`` and ``--version`` do."""
    with contextlib.suppress(OSError):
        write("-", text if text.endswith("\n") else text + "\n")
    raise SystemExit(0)


def _write_stdout(raw: bytes) -> None:
    out = sys.stdout
    if out is None:
        raise OSError("standard output is closed")
    try:
        out.flush()
        buffer = getattr(out, "buffer", None)
        if buffer is not None:
            buffer.write(raw)
        else:
            out.write(raw.decode("utf-8"))
        out.flush()
    except BrokenPipeError:
        # the reader went away (`pipeline-opt ... | head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except ValueError:  # closed file object
        raise OSError("standard output is closed") from None


def _replace(path: str, raw: bytes, st) -> None:
    """Write a temporary file beside ``path`` (through a symlink: the file it names) and
    rename it over the file; ``st``: the file's stat, None when it does not exist."""
    import tempfile

    target = os.path.realpath(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                               dir=os.path.dirname(target) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
