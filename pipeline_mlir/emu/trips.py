"""Trip counts of a kernel's loops measured on the emulator, for the timing model.

The timing model (:mod:`pipeline_mlir.sim.inner_loops`) repeats an inner loop of the main
loop by the trip count its assembly states; a loop whose trips depend on the lanes (it
steps per-lane counters and ends when the exec mask empties, ``s_cbranch_execz`` /
``s_cbranch_execnz``) states none.  A wave runs such a loop until its last lane is done,
so the wave's trip count is what the timing needs, and the emulator knows it: it runs the
kernel for one launch and :func:`record_runs` notes, per wave, every stretch of
instructions it executed in a row (a taken branch ends one).  :func:`measured_trips` reads
off those stretches how often each block of the main loop ran:

* an iteration of the main loop starts at each execution of its header's first
  instruction (the header: the block entered from outside the loop);
* the header of each loop ``L`` inside the main loop is counted per trip of the loop
  ``P`` around it (the main loop or an inner loop): each execution of ``P``'s header opens
  a trip of ``P``, each execution of ``L``'s header in it is one trip of ``L`` (0 when the
  lanes skip ``L``); any other block is counted per trip of its innermost loop (1, or 0
  when every lane skipped it).  Per iteration of the main loop that is ``{label: (runs in
  each trip, in order)}``, which
  :func:`~pipeline_mlir.sim.inner_loops.executed_iteration` consumes as it lays the
  iteration out, so that the laid-out iteration is the one the wave ran;
* the iterations differ (the last K tile is partial, the first may be guarded): the
  counts taken are those of the most iterations (:class:`MeasuredTrips` says how many of
  how many), per wave.

Only the instruction stepper is wrapped (one instance's ``step``): the machine itself is
unchanged.  The code object holds the assembly's instructions in the same order plus the
``s_nop`` padding of its ``.p2align`` directives, and without the scheduling
pseudo-instructions the assembly prints as comments (``; sched_barrier``): both are
matched away (anything else that differs is an error).
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass

from pipeline_mlir.emu.errors import CodeMismatch, EmuError
from pipeline_mlir.emu.machine import Machine
from pipeline_mlir.isa.asm_instr import PSEUDO


@dataclass(frozen=True)
class MeasuredTrips:
    """Per wave, the runs of the main loop's blocks in its most common iteration."""

    #: per wave: {block label: its runs in each trip of the loop it is counted per}: an
    #: inner loop's header (its trips) per trip of the loop around it, any other block
    #: per trip of its innermost loop (0: skipped, every lane's exec off)
    waves: tuple[dict, ...]
    #: the labels of the inner loops' headers (the loops' trip counts)
    loops: tuple[str, ...]
    #: per wave: (iterations with those counts, iterations of the main loop)
    support: tuple[tuple[int, int], ...]
    #: per wave: instructions the wave executed in that iteration (the emulator's count)
    executed: tuple[int, ...]

    def describe(self) -> str:
        """One line: which loops were measured, with what, on how many iterations."""
        same = all(w == self.waves[0] for w in self.waves)
        parts = []
        for w, counts in enumerate(self.waves[:1] if same else self.waves):
            loops = "; ".join(f"{label} {_trips_text(t)}" for label, t in sorted(counts.items())
                              if label in self.loops)
            skipped = sum(t.count(0) for label, t in counts.items() if label not in self.loops)
            who = "every wave" if same else f"wave {w}"
            n, of = self.support[w]
            parts.append(f"{who}: trips {loops or '(no inner loop)'}, {skipped} block runs "
                         f"skipped, {self.executed[w]} instructions ({n} of {of} iterations)")
        return "; ".join(parts)


def _trips_text(trips: tuple[int, ...]) -> str:
    if len(set(trips)) == 1:
        return f"{trips[0]} x{len(trips)}" if len(trips) > 1 else f"{trips[0]}"
    return f"{min(trips)}-{max(trips)} (sum {sum(trips)} over {len(trips)})"


class _Enough(Exception):
    """The run has executed the instructions asked for."""


def record_runs(kernel, glob, workgroup, waves: int, kernarg_at: int, dims=None,
                mode: str = "eager", seed: int = 0,
                limit: int | None = None) -> list[list[tuple[int, int]]]:
    """Run ``workgroup`` of ``kernel`` (its memory and arguments set up in ``glob``); per
    wave, the stretches ``(first, last)`` of instruction indices it executed in a row, in
    order.  ``limit``: stop once the waves have executed that many instructions (the
    first iterations of a long loop are enough: its last one seen is then partial)."""
    m = Machine(kernel, glob, [workgroup], waves, mode, seed, kernarg_at, dims=dims)
    runs: list[list[tuple[int, int]]] = [[] for _ in range(waves)]
    start = [w.pc for w in m.waves]
    step = m.step

    def recorded(w) -> None:
        pc = w.pc
        step(w)
        if w.pc != pc + 1 or w.done:
            runs[w.index].append((start[w.index], pc))
            start[w.index] = w.pc
        if limit is not None and m.count >= limit:
            raise _Enough

    m.step = recorded
    try:
        m.run()
    except _Enough:
        for w in m.waves:
            if not w.done and w.pc > start[w.index]:
                runs[w.index].append((start[w.index], w.pc - 1))
    return runs


def measured_trips(fn, runs: list[list[tuple[int, int]]], emulated: list) -> MeasuredTrips:
    """The runs of the blocks of ``fn``'s main loop (``fn``: the kernel's
    :class:`~pipeline_mlir.isa.asm.AsmFunction`) in the stretches ``runs`` of each wave
    (:func:`record_runs`; ``emulated``: the emulator's instructions of the kernel)."""
    runs = aligned_runs(fn, runs, emulated)
    index = {id(i): k for k, i in enumerate(fn.instrs())}
    main = fn.main_loop()
    nest = _Nest(fn, main, index)
    per_wave, support, executed = [], [], []
    for wave, stretches in enumerate(runs):
        its = nest.iterations(stretches)
        if not its:
            raise EmuError(f"wave {wave} never ran the main loop at {main[0].label}: no "
                           f"trip count to measure")
        common, n = Counter(counts for counts, _ in its).most_common(1)[0]
        per_wave.append(dict(common))
        support.append((n, len(its)))
        executed.append(next(size for counts, size in its if counts == common))
    return MeasuredTrips(tuple(per_wave), nest.loops, tuple(support), tuple(executed))


class _Nest:
    """The main loop's blocks, each counted per trip of a loop: an inner loop's header
    per trip of the loop around it (its trip count), any other block per trip of the
    innermost loop holding it (0 when the lanes skip it, else 1)."""

    def __init__(self, fn, main: list, index: dict) -> None:
        from pipeline_mlir.sim.inner_loops import loop_headers

        ids = {id(b) for b in main}
        inner = [lp for lp in fn.loops() if {id(b) for b in lp} < ids]
        loops = inner + [main]                       # innermost first
        headers = loop_headers(fn, loops)
        self.main = id(main[0])
        self.loops = tuple(headers[id(lp[0])].label for lp in inner)
        #: loop -> the instruction index its header starts at
        self.head = {id(lp[0]): _entry(fn, headers[id(lp[0])], index) for lp in loops}
        #: block label -> (the loop it is counted per trip of, the index it starts at)
        self.counted: dict[str, tuple[int, int]] = {}
        for b in main:
            if not b.instrs or b is headers[self.main]:
                continue
            own = next(lp for lp in loops if any(x is b for x in lp))
            per = own
            if headers[id(own[0])] is b:             # a trip of its loop: per the one around
                per = next(lp for lp in loops[loops.index(own) + 1:]
                           if {id(x) for x in own} < {id(x) for x in lp})
            self.counted[b.label] = (id(per[0]), index[id(b.instrs[0])])
        marks = [(e, "loop", key) for key, e in self.head.items()] + \
            [(e, "block", label) for label, (_, e) in self.counted.items()]
        self.marks = sorted(marks)
        self.points = [e for e, _, _ in self.marks]

    def iterations(self, stretches: list) -> list[tuple[tuple, int]]:
        """Per iteration of the main loop: (its counts as sorted items, instructions
        executed in it)."""
        its: list[list] = []          # [counts: {label: [runs per trip]}, size]
        for first, last in stretches:
            lo = bisect.bisect_left(self.points, first)
            hi = bisect.bisect_right(self.points, last)
            cut = first
            for e, what, key in self.marks[lo:hi]:
                if what == "loop" and key == self.main:
                    if its:
                        its[-1][1] += e - cut
                    its.append([{label: [] for label in self.counted}, 0])
                    cut = e
                if not its:
                    continue
                counts = its[-1][0]
                if what == "loop":                   # a trip of loop ``key`` begins
                    for label, (per, _) in self.counted.items():
                        if per == key:
                            counts[label].append(0)
                elif counts[key]:
                    counts[key][-1] += 1
            if its:
                its[-1][1] += last + 1 - cut
        return [(tuple(sorted((k, tuple(v)) for k, v in c.items())), size) for c, size in its]


def executed_stream(fn, stretches: list) -> list:
    """The instructions of ``fn`` one wave executed, in order: its ``stretches`` of ``fn``'s
    instruction indices (one wave's of :func:`aligned_runs`) laid end to end, each
    instruction once per execution (a whole kernel's run, for the timing model)."""
    ours = fn.instrs()
    return [ours[k] for first, last in stretches for k in range(first, last + 1)]


def aligned_runs(fn, runs: list, emulated: list) -> list:
    """``runs`` (:func:`record_runs`' stretches of each wave) in the indices of ``fn``'s instructions: the code object has the
    assembly's instructions in its order plus the ``s_nop`` padding of its ``.p2align``
    directives, which no stretch keeps, and without the scheduling pseudo-instructions
    LLVM prints as comments (``; sched_barrier``), which a stretch takes in where they
    lead into its first instruction in the same block (as the laid-out iteration has
    them)."""
    ours = fn.instrs()
    pseudo = [PSEUDO.match(i.text) is not None for i in ours]
    index = {id(i): k for k, i in enumerate(ours)}
    firsts = {index[id(b.instrs[0])] for b in fn.blocks if b.instrs}
    at: list[int] = []                  # emulated index -> ours (-1: padding)
    k = 0
    for e in emulated:
        while k < len(ours) and pseudo[k]:
            k += 1
        name = e.text.split()[0]
        if k < len(ours) and ours[k].mnemonic == name:
            at.append(k)
            k += 1
        elif name == "s_nop":
            at.append(-1)
        else:
            where = f"line {ours[k].line} '{ours[k].mnemonic}'" if k < len(ours) else "its end"
            raise CodeMismatch(f"function {fn.name}: the code object's instruction at "
                           f"0x{e.addr:04x} ('{e.text}') is not the assembly's at {where}: "
                           f"their loops cannot be matched")
    while k < len(ours) and pseudo[k]:
        k += 1
    if k != len(ours):
        raise CodeMismatch(f"function {fn.name}: the code object has {k} of the assembly's "
                       f"{len(ours)} instructions: their loops cannot be matched")
    out = []
    for stretches in runs:
        kept = []
        for first, last in stretches:
            idx = [at[i] for i in range(first, last + 1) if at[i] >= 0]
            if idx:
                start = idx[0]
                while start not in firsts and start > 0 and pseudo[start - 1]:
                    start -= 1
                kept.append((start, idx[-1]))
        out.append(kept)
    return out


def _entry(fn, block, index: dict) -> int:
    """The index of the first instruction executed on entering ``block`` (an empty block
    falls through to the next)."""
    k = fn.blocks.index(block)
    for b in fn.blocks[k:]:
        if b.instrs:
            return index[id(b.instrs[0])]
    raise EmuError(f"block {block.label} and those after it hold no instruction")
