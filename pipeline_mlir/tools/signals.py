"""What Ctrl-C and SIGTERM end ``pipeline-opt`` with, shared by the console script's entry
(:mod:`pipeline_mlir.tools.entry`, during start-up) and the tool's run
(:mod:`pipeline_mlir.tools.pipeline_opt`); imports nothing of the project, so the entry can
install the handler before anything else is loaded."""

from __future__ import annotations

import signal

#: exit status after Ctrl-C / SIGTERM (128 + the signal number, as shells report them)
INTERRUPTED_RC, TERMINATED_RC = 130, 143


class Terminated(BaseException):
    """Raised by the SIGTERM handler: unwinds like Ctrl-C, so temporary files go away."""


def on_sigterm(signum, frame) -> None:
    raise Terminated()


def run_handled(run, argv, say) -> int:
    """``run(argv)`` with SIGTERM raising :class:`Terminated` (when this is the main thread:
    elsewhere the caller's signals are its own) and the previous handler restored after;
    Ctrl-C and SIGTERM end it with one line, ``say("interrupted")`` or
    ``say("terminated")``, and the exit statuses above."""
    try:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:  # not the main thread
        previous = None
    try:
        return run(argv)
    except KeyboardInterrupt:
        say("interrupted")
        return INTERRUPTED_RC
    except Terminated:
        say("terminated")
        return TERMINATED_RC
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
