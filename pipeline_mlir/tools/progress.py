"""Progress of long work on standard error: one line, rewritten in place as the work goes on and
erased at the end; shown only when standard error is a terminal (quiet in pipes, logs and
tests, so that what the tool prints there is the same with or without it)."""

from __future__ import annotations

import sys

#: cells of a progress bar
BAR = 24


class Progress:
    """A callable ``(done, total, note="")`` for the driver's long work (``--tune``'s
    candidates, ``--emulate``'s workgroups); a context manager that erases the line.
    ``bar``: a bar of :data:`BAR` cells before the count."""

    def __init__(self, what: str, stream=None, enabled: bool | None = None,
                 bar: bool = False) -> None:
        self.what = what
        self.bar = bar
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.shown = False

    def __call__(self, done: int, total: int, note: str = "") -> None:
        if not self.enabled:
            return
        import shutil

        width = shutil.get_terminal_size().columns - 1
        count = f"{done}/{total}"
        if self.bar and total > 0:
            full = min(BAR, BAR * done // total)
            count = f"[{'#' * full}{'.' * (BAR - full)}] {count}"
        text = f"{self.what}: {count}" + (f" {note}" if note else "")
        self._write("\r" + text[:width] + "\x1b[K")
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed: no progress, no failure
            self.enabled = False


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
