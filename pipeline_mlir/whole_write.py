"""Writing all of a reply on a binary stream.

A stream opened unbuffered (``python -u`` or ``PYTHONUNBUFFERED``, under which
``sys.stdout.buffer`` is the raw file itself) writes with one ``write`` call, and on a pipe
that call may take only part of the bytes: a signal that arrives once some of them have
gone (a profiler's or debugger's stop, a job-control signal) ends it early with the count
written.  A buffered stream writes on until all are taken, a raw one leaves the rest to its
caller.  :func:`write_whole` writes on in both cases, so that a worker's reply or
``pipeline-opt``'s output to a pipe is never cut at 64 KiB with an exit status of 0.
"""

from __future__ import annotations

import select


def write_whole(out, data) -> None:
    """Write every byte of ``data`` on binary stream ``out``, then flush it.  A
    non-blocking stream that takes nothing for now (``write`` returns None) is waited on."""
    view = memoryview(data).cast("B")
    while view:
        n = out.write(view)
        if n is None:
            select.select([], [out], [])
            continue
        view = view[n:]
    out.flush()
