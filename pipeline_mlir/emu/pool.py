"""Workgroups of one dispatch spread over processes (``pipeline-opt --emulate-jobs=N``).

:func:`run_spread` is what :func:`pipeline_mlir.emu.gemm.run_workgroups` calls when it has
more than one batch of workgroups and more than one job: the batches (the same batches, with
the same seeds, as one process runs) are cut into ``jobs`` contiguous runs, each run by a
process of its own in the order one process runs them: ``python -m pipeline_mlir.emu.pool
--worker``, a fresh interpreter (never a fork of a process that holds MLIR or LLVM threads,
and nothing of the caller's ``__main__`` re-run; :data:`LAUNCHER_ENV` may name a command
to start it through: the test suite's forks it from a process that imported only the
emulator) that gets the kernel and a copy of global
memory pickled on its standard input and writes a message after each batch on its standard
output. What each process wrote to global memory is merged back in batch order; the
instructions are summed and the collected findings listed in batch order.

The result does not depend on ``jobs``: C, the counts and the findings are those of one
process, provided no workgroup reads what another workgroup wrote (true of a GEMM dispatch:
each workgroup reads A and B and writes its own tile of C; two workgroups of two processes
storing to one byte, or one loading a byte the other stores to, are a ``global-race`` found
as their store marks and recorded loads are merged,
:func:`pipeline_mlir.emu.globalrace.crossed`; a buffer one process stored to and another
loaded without recording its loads is run again, its loads recorded, as one process does). When a batch raises (a
finding, a divergent single workgroup, an instruction the emulator cannot run), the error
raised is the one of the earliest batch that raises, as one process would raise it first;
the processes running only later batches are stopped then, and the buffer descriptors
recorded are those of the batches up to it (what :mod:`pipeline_mlir.emu.iree` checks the
sizes with).

Progress (``progress(done, total)``, workgroups) is reported as batches finish, in any
order. The workers run in a session of their own and ignore SIGINT: the parent stops them,
whatever ends it (a finding, Ctrl-C, SIGTERM).
"""

from __future__ import annotations

import os
import queue as queue_module

import numpy as np

from pipeline_mlir.emu.errors import EmuError
from pipeline_mlir.emu.globalrace import ReadFirst, crossed, new_marks, touch

FLAG = "--worker"


def default_jobs() -> int:
    """The processes ``--emulate`` uses when not told: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: numpy's BLAS on one thread in each worker: the workers are the parallelism (a BLAS
#: thread pool per worker oversubscribes the CPUs and runs slower than one process)
SINGLE_THREADED = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                          "MKL_NUM_THREADS")}
#: the fewest batches a worker process is started for (starting one costs about a batch)
MIN_BATCHES = 2
#: a command to start the workers through (``LAUNCHER PYTHON -m pipeline_mlir.emu.pool
#: --worker``), where set: the test suite's runs fork each worker from a process that
#: imported the emulator once (``test/unit/zygote.py``), with the same command line,
#: environment, standard streams and exit status
LAUNCHER_ENV = "PIPELINE_EMU_WORKER_LAUNCHER"


def workers(count: int, jobs: int) -> int:
    """The processes ``count`` batches are spread over with ``jobs`` allowed: each gets at
    least :data:`MIN_BATCHES` (1: run them in this process)."""
    return max(1, min(jobs, count // MIN_BATCHES))


def chunks(count: int, jobs: int) -> list[range]:
    """``count`` batch positions cut into ``min(jobs, count)`` contiguous runs of nearly equal
    length, in order."""
    jobs = max(1, min(jobs, count))
    bounds = [count * j // jobs for j in range(jobs + 1)]
    return [range(bounds[j], bounds[j + 1]) for j in range(jobs)]


def run_spread(kernel, glob, batches: list, run, jobs: int, progress=None) -> tuple[int, list]:
    """Run ``batches`` (``(position, index of the first workgroup, [workgroup ids])``) over
    ``jobs`` processes; ``run(kernel, glob, batches, on_batch)`` is the one-process runner
    (a picklable callable: it calls ``on_batch(position, workgroups, instructions,
    findings)`` after each batch).  (instructions summed, findings in batch order); ``glob``
    gets the memory the workgroups wrote and the buffer descriptors they used."""
    import dataclasses
    import pickle

    kernel = dataclasses.replace(kernel, _compiled={})  # the compiled steps are closures
    state = (glob.buffers, glob.names, glob.descriptors, glob.strict, glob.marks,
             glob.shifts, glob.race)
    parts = chunks(len(batches), jobs)
    messages: queue_module.Queue = queue_module.Queue()
    workers: list = []
    try:
        for w, part in enumerate(parts):
            payload = pickle.dumps((w, len(parts), kernel, state, [batches[p] for p in part],
                                    run), protocol=pickle.HIGHEST_PROTOCOL)
            workers.append(_Worker(w, payload, messages))
        done = _collect(workers, parts, messages, sum(len(b[2]) for b in batches), progress)
    finally:
        for worker in workers:
            worker.stop()
    return _merge(glob, done)


class _Worker:
    """One child process (``python -m pipeline_mlir.emu.pool --worker``): the task pickled
    on its standard input, its messages framed on its standard output, read by a thread
    into ``messages``."""

    def __init__(self, w: int, payload: bytes, messages) -> None:
        import subprocess
        import sys
        import threading

        self.w = w
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        env.update(SINGLE_THREADED)
        command = [sys.executable, "-m", __name__, FLAG]
        launcher = os.environ.get(LAUNCHER_ENV)
        try:
            self.proc = subprocess.Popen([launcher, *command] if launcher else command,
                                         env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True)
        except OSError as e:
            raise EmuError(f"cannot start an emulator worker process ({sys.executable}): "
                           f"{e.strerror or e}") from None
        self.reader = threading.Thread(target=self._read, args=(payload, messages),
                                       daemon=True)
        self.reader.start()

    def _read(self, payload: bytes, messages) -> None:
        import pickle

        try:
            self.proc.stdin.write(payload)
            self.proc.stdin.close()
            while True:
                head = self.proc.stdout.read(8)
                if len(head) < 8:
                    break
                messages.put(pickle.loads(self.proc.stdout.read(int.from_bytes(head,
                                                                              "little"))))
        except (OSError, ValueError, EOFError, pickle.UnpicklingError):
            pass
        status = self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace").strip()
        messages.put(("exit", self.w, status, err))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.reader.join()
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()


class _Done:
    """What the workers reported: per batch position ``(instructions, findings,
    descriptors)``, per worker its memory writes, and the failure of the earliest batch."""

    def __init__(self) -> None:
        self.batches: dict[int, tuple] = {}
        self.writes: dict[int, list] = {}
        self.failure: tuple | None = None      # (position, exception, descriptors)


def _collect(workers, parts, messages, total: int, progress) -> _Done:
    done = _Done()
    pending = set(range(len(workers)))
    finished = 0
    while pending:
        msg = messages.get()
        kind, w = msg[0], msg[1]
        if w not in pending:
            continue                            # stopped: what it says no longer matters
        if kind == "batch":
            _, _, position, workgroups, result = msg
            done.batches[position] = result
            finished += workgroups
            if progress is not None:
                progress(finished, total)
            continue
        pending.discard(w)
        if kind == "exit":
            raise EmuError(f"an emulator worker process ended without its result (exit "
                           f"status {msg[2]}){': ' + msg[3] if msg[3] else ''}")
        if kind == "end":
            done.writes[w] = msg[2]
            continue
        position = msg[2]                       # "fail"
        if done.failure is None or position < done.failure[0]:
            done.failure = (position, msg[3], msg[4])
        for other in list(pending):             # only earlier batches can still matter
            if parts[other].start > position:
                workers[other].stop()
                pending.discard(other)
    return done


def _merge(glob, done: _Done) -> tuple[int, list]:
    """Apply what the workers found and wrote to ``glob``; (instructions, findings)."""
    last = done.failure[0] if done.failure is not None else None
    for position in sorted(done.batches):
        if last is None or position < last:
            glob.descriptors |= done.batches[position][2]
    if done.failure is not None:
        glob.descriptors |= done.failure[2]
        raise done.failure[1]
    _check_unrecorded(done.writes)
    touched: dict[int, dict] = {}
    for w in sorted(done.writes):
        writes, (records, runs), _unrecorded = done.writes[w]
        glob.race.records.update(records)
        glob.race.runs.update(runs)
        stamped = [(kind == "readers", change) for kind, change in writes if kind != "buffer"]
        for read, change in stamped:          # against the processes merged before
            crossed(glob, touched, change, read)
        for read, change in stamped:
            touch(glob, touched, change, read)
        for kind, change in writes:
            if kind == "buffer":
                apply(glob.buffers, change)
                continue
            if kind == "readers":             # the parent keeps its own loads' record
                continue
            b = change[0]
            if glob.marks[b] is None:
                glob.marks[b] = new_marks(len(glob.buffers[b]), glob.shifts[b])
            apply(glob.marks, change)
            glob.race.pages.pop(b, None)          # every page taken as stamped
    glob.race.next_serial = max(glob.race.records, default=0) + 1
    glob.race.next_run = max(glob.race.runs, default=-1) + 1
    instructions = sum(done.batches[p][0] for p in sorted(done.batches))
    findings = [f for p in sorted(done.batches) for f in done.batches[p][1]]
    return instructions, findings


def _check_unrecorded(writes: dict) -> None:
    """:class:`~pipeline_mlir.emu.globalrace.ReadFirst` for a buffer one process stored to
    and another loaded without recording its loads (nothing had stored to it there): the
    merge cannot tell whether the two touched one byte, so the run goes again, before
    anything is merged, with that buffer's loads recorded (as one process does)."""
    stored = {w: {c[0] for kind, c in got[0] if kind == "marks"} for w, got in writes.items()}
    for w in sorted(writes):
        for b in sorted(writes[w][2]):
            if any(b in stored[o] for o in writes if o != w):
                raise ReadFirst(b)


def _work(payload: bytes, out) -> None:
    """The child's side: run its batches in order on its copy of global memory, write a
    message after each batch, then what it wrote (or the first failure)."""
    import pickle

    from pipeline_mlir.emu.machine import GlobalMemory
    from pipeline_mlir.whole_write import write_whole

    w, parts, kernel, state, batches, run = pickle.loads(payload)
    glob = GlobalMemory()
    glob.buffers, glob.names, glob.descriptors, glob.strict, glob.marks, glob.shifts, \
        race = state
    glob.race = race.share(w, parts)
    before = [b.copy() for b in glob.buffers]
    marks_before = [None if m is None else m.copy() for m in glob.marks]
    readers_before = {b: r.copy() for b, r in glob.race.readers.items()}
    seen = set(glob.descriptors)
    current = [batches[0][0] if batches else 0]

    def send(message) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        write_whole(out, len(data).to_bytes(8, "little") + data)

    def on_batch(position, workgroups, instructions, findings) -> None:
        nonlocal seen
        new = glob.descriptors - seen
        seen = set(glob.descriptors)
        send(("batch", w, position, workgroups, (instructions, findings, new)))
        current[0] = position + 1

    try:
        run(kernel, glob, batches, on_batch)
    except Exception as e:  # noqa: BLE001 - handed to the parent, which raises it
        send(("fail", w, current[0], e, glob.descriptors - seen))
        return
    writes = [("buffer", changes(b, now, was)) for b, (now, was) in
              enumerate(zip(glob.buffers, before)) if not np.array_equal(now, was)]
    for b, (now, was) in enumerate(zip(glob.marks, marks_before)):
        if now is not None:          # marks a store made in this process start at 0
            was = np.zeros_like(now) if was is None else was
            if not np.array_equal(now, was):
                writes.append(("marks", changes(b, now, was)))
    for b, now in glob.race.readers.items():     # its loads, for the merge's race check
        was = readers_before.get(b)
        was = np.zeros_like(now) if was is None else was
        if not np.array_equal(now, was):
            writes.append(("readers", changes(b, now, was)))
    send(("end", w, (writes, glob.race.new_since(race), glob.race.unrecorded)))


def changes(b: int, now: np.ndarray, was: np.ndarray) -> tuple:
    """The bytes of buffer ``b`` that differ: ``(b, first, end, bit mask of the changed bytes
    in first..end, their values)`` (compact: a mask bit per byte, not an index)."""
    changed = np.flatnonzero(now != was)
    lo, hi = int(changed[0]), int(changed[-1]) + 1
    mask = now[lo:hi] != was[lo:hi]
    return b, lo, hi, np.packbits(mask), now[lo:hi][mask]


def apply(buffers: list, change: tuple) -> None:
    """Write one :func:`changes` into ``buffers``."""
    b, lo, hi, bits, values = change
    mask = np.unpackbits(bits, count=hi - lo).astype(bool)
    buffers[b][lo:hi][mask] = values


def main(argv: list[str]) -> int:
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent stops its workers
    if argv != [FLAG]:
        sys.stderr.write(f"usage: python -m pipeline_mlir.emu.pool {FLAG} (internal: batches "
                         f"of workgroups, pickled, on stdin)\n")
        return 2
    _work(sys.stdin.buffer.read(), sys.stdout.buffer)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
