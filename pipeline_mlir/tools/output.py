"""Writing ``pipeline-opt``'s output: to standard output, or to a file written whole or not at
all (a temporary file in the target's directory, renamed over it once everything is written)."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys


def write(path: str, data) -> None:
    """Write ``data`` (text or bytes) to ``path`` (``-``: standard output)."""
    write_all([(path, data)])


def write_all(outputs: list[tuple[str, object]]) -> None:
    """Write each ``(path, data)`` as :func:`write` does, the files all or none: every file
    is first written whole to its temporary file, and only then are they renamed over their
    targets (standard output and devices last), so that a file that cannot be written
    leaves every other target untouched.  An OSError names the path given."""
    staged, direct = [], []
    try:
        for path, data in outputs:
            raw = data if isinstance(data, bytes) else data.encode("utf-8")
            try:
                st = None if path == "-" else _stat(path)
                if path == "-" or (st is not None and not stat.S_ISREG(st.st_mode)):
                    direct.append((path, raw))  # /dev/null, /dev/stdout, a FIFO
                else:
                    staged.append((path, *_stage(path, raw, st)))
            except OSError as e:
                raise OSError(e.errno, e.strerror or str(e), path) from None
        while staged:
            path, tmp, target = staged[0]
            try:
                os.replace(tmp, target)
            except OSError as e:
                raise OSError(e.errno, e.strerror or str(e), path) from None
            staged.pop(0)
    finally:
        for _, tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    for path, raw in direct:
        if path == "-":
            _write_stdout(raw)
        else:
            with open(path, "wb") as f:
                f.write(raw)


def _stat(path: str):
    """``os.stat(path)``, None when there is no such file; a directory is an error (the
    rename over it would come after the other files')."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    return st


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
            from pipeline_mlir.whole_write import write_whole

            write_whole(buffer, raw)
        else:
            out.write(raw.decode("utf-8"))
        out.flush()
    except BrokenPipeError:
        # the reader went away (`pipeline-opt ... | head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except ValueError:  # closed file object
        raise OSError("standard output is closed") from None


def _stage(path: str, raw: bytes, st) -> tuple[str, str]:
    """(a temporary file beside ``path`` holding ``raw`` with the mode the file will have,
    the file to rename it over: through a symlink, the file it names); ``st``: the file's
    stat, None when it does not exist."""
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
        return tmp, target
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
