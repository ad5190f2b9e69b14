"""The ``pipeline-opt`` console script: Ctrl-C and SIGTERM are handled from the first moment.

The tool's own module imports the driver's start-up modules before
:func:`pipeline_mlir.tools.pipeline_opt.main` installs its handlers; a signal in that
window used to end in a Python traceback (Ctrl-C) or a silent death (SIGTERM).  This module
imports nothing of the project but the (empty) package and the signal module, installs a SIGTERM handler, then
imports the tool: an interrupt during start-up exits 130, a SIGTERM 143, each with one line
on stderr, as an interrupt later on does.
"""

from __future__ import annotations

import gc
import os
import sys

from pipeline_mlir.tools.signals import run_handled

PROG = "pipeline-opt"
#: numpy's BLAS (OpenBLAS) on one thread unless the environment says otherwise, set before
#: numpy is loaded: its one use here, ``--emulate``'s reference C of the workgroups run (a
#: matrix product of small integers, exact in any order), costs more CPU with a thread
#: pool spinning beside it, and more time on a busy machine
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}
#: the cyclic garbage collector's thresholds: a young collection every 7000 allocations
#: (Python's default is 700), so fewer of the front end's and the emulator's short-lived
#: objects reach the older generations and fewer full collections traverse the whole heap
#: (about 5% of a front-end run's CPU at the defaults); the test processes use the same
GC_THRESHOLDS = (7000, 10, 10)


def main(argv: list[str] | None = None) -> int:
    """Import the tool and run it on ``argv`` (None: the command line); the exit status."""
    for name, value in BLAS_THREADS.items():
        os.environ.setdefault(name, value)
    gc.set_threshold(*GC_THRESHOLDS)

    def run(args):
        from pipeline_mlir.tools.pipeline_opt import main as tool_main

        return tool_main(args)  # installs its own handlers for its run, then restores these

    return run_handled(run, argv, lambda what: sys.stderr.write(f"{PROG}: {what}\n"))


if __name__ == "__main__":
    sys.exit(main())
