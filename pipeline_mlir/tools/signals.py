"""What Ctrl-C and SIGTERM end ``pipeline-opt`` with, shared by the console script's entry
(:mod:`pipeline_mlir.tools.entry`, during start-up) and the tool's run
(:mod:`pipeline_mlir.tools.pipeline_opt`); imports nothing, so the entry can install the
handler before anything else is loaded."""

from __future__ import annotations

#: exit status after Ctrl-C / SIGTERM (128 + the signal number, as shells report them)
INTERRUPTED_RC, TERMINATED_RC = 130, 143


class Terminated(BaseException):
    """Raised by the SIGTERM handler: unwinds like Ctrl-C, so temporary files go away."""


def on_sigterm(signum, frame) -> None:
    raise Terminated()
