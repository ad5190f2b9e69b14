"""Which barriers the waves of a workgroup pass, in a gfx950 function: every wave the same
ones (:func:`barriers_uniform`), or groups of waves each its own (:func:`wave_groups`: the
ping-pong kernels' barriers of one group, skipped by the other under ``s_cbranch_execz``),
the groups' barrier intervals that may overlap (:func:`lockstep`), and a workgroup whose
waves pass different numbers of barriers (:func:`barrier_mismatch`, kind
``barrier-mismatch``).  The ISA check's LDS rule (:mod:`pipeline_mlir.isa.lds_ranges`) reads
its intervals from them; each wave's ``exec`` at a branch comes from
:mod:`pipeline_mlir.isa.lane_values`.

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline_mlir.isa.asm import AsmFunction, AsmInstr
from pipeline_mlir.isa.lane_values import block_states, evaluate, varying_states
from pipeline_mlir.isa.natural_loops import decided

__all__ = ["barriers_uniform", "wave_groups", "lockstep", "BarrierMismatch",
           "barrier_mismatch"]


def barriers_uniform(fn: AsmFunction, apart: frozenset | None = None) -> bool:
    """Whether every wave of the workgroup passes the same ``s_barrier`` s: no block holding
    one is decided (:func:`~pipeline_mlir.isa.natural_loops.decided`: whether it runs, or
    how many times) by a conditional branch the waves may take apart (``apart``, the
    blocks of :func:`varying_states`; every branch taken alike: uniform), nor by a branch
    whose running is so decided.  A loop whose trip count differs between waves decides
    its body; a barrier before or after a branch around other code is no barrier the
    branch decides."""
    apart = varying_states(fn)[1] if apart is None else apart
    if not apart:
        return True
    hit = decided(fn._succs(), apart)
    return hit is not None and not any(
        any(i.kind == "barrier" for i in fn.blocks[k].instrs) for k in hit)


def wave_groups(fn: AsmFunction, apart: frozenset, states: dict):
    """``()`` when every wave passes the same barriers (:func:`barriers_uniform`); else the
    groups of waves that pass the same ones, each (its waves, the blocks of barriers it
    skips), when the only branches the waves may take apart are ``s_cbranch_execz`` /
    ``_execnz`` around such blocks and each wave's ``exec`` there is known (the ping-pong
    kernels' barrier of one group of waves, :func:`_guarded`); else None (not checked)."""
    if barriers_uniform(fn, apart):
        return ()
    guarded = _guarded(fn)
    if not guarded or not apart <= {k for k, _ in guarded}:
        return None
    runs = _guarded_runs(fn, guarded, states)
    if runs is None:
        return None
    groups: dict[tuple, set] = {}
    for w in range(fn.threads // 64):
        groups.setdefault(tuple(ran[w] for ran in runs), set()).add(w)
    return tuple((frozenset(waves), frozenset(t for (_k, t), ran in zip(guarded, key)
                                               if not ran))
                 for key, waves in groups.items())


def lockstep(fn: AsmFunction, one: frozenset, other: frozenset) -> set | None:
    """The pairs of intervals (by the barrier line each starts at, 0: the entry) that two
    groups of waves, skipping the blocks ``one`` and ``other`` (:func:`wave_groups`), may
    be in at once: a wave's n-th ``s_barrier`` waits for every other wave's n-th, so from
    the entry both run to their next barrier together, along one path of blocks (the
    branches not around a skipped block are taken alike: :func:`varying_states`).  The
    walk keeps the blocks the group ahead has run that the other has still to run.  None
    when a run between two barriers passes more than 64 blocks (a loop holding none)."""
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    succs = [[index[x] for x in b.succs] for b in fn.blocks]
    guards = dict(_guarded(fn))
    guarded = set(guards.values())

    def runs(skip, pos):
        """Each (next position, its barrier's line, the blocks entered) of a group at
        ``pos`` (block, instruction index) to its next barrier (None: none)."""
        out, work = [], [(pos[0], pos[1], ())]
        while work:
            k, n, went = work.pop()
            if len(went) > 64:
                return None
            instrs = fn.blocks[k].instrs if k not in skip else ()
            bar = next((j for j in range(n, len(instrs)) if instrs[j].kind == "barrier"),
                       None)
            if bar is not None:
                out.append(((k, bar + 1), instrs[bar].line, went))
            else:       # the guarded blocks left out of the path: both groups' paths
                t = guards.get(k)   # a group runs the block it guards, or skips it
                work += [(x, 0, went + (x,) * (x not in guarded)) for x in succs[k]
                         if t is None or (x == t) != (t in skip)]
        return out

    start = ((0, 0), (0, 0), (), 0)     # the positions, the path ahead of one, which one
    seen, pairs, work = {start}, {(0, 0)}, [start]
    while work:
        pos_a, pos_b, path, behind = work.pop()
        run_a, run_b = runs(one, pos_a), runs(other, pos_b)
        if run_a is None or run_b is None:
            return None
        for new_a, line_a, went_a in run_a:
            for new_b, line_b, went_b in run_b:
                # the blocks each entered, from the block of the one behind
                if behind == 0:
                    ta, tb = went_a, path + went_b
                else:
                    ta, tb = path + went_a, went_b
                n = min(len(ta), len(tb))
                if ta[:n] != tb[:n]:
                    continue        # the two took a branch apart: not one path
                rest, lag = (tb[n:], 0) if len(ta) < len(tb) else (ta[n:], 1)
                pairs.add((line_a, line_b))
                state = (new_a, new_b, rest, lag)
                if state not in seen:
                    seen.add(state)
                    work.append(state)
    return pairs


@dataclass(frozen=True)
class BarrierMismatch:
    """The ``s_barrier`` s in blocks only the waves with an active lane run (``barriers``:
    a block an ``s_cbranch_execz`` skips or an ``s_cbranch_execnz`` takes) are passed
    ``counts[w]`` times by wave ``w``: not the same for every wave."""

    barriers: tuple[AsmInstr, ...]
    counts: tuple[int, ...]

    def message(self) -> str:
        groups: dict[int, list[int]] = {}
        for w, n in enumerate(self.counts):
            groups.setdefault(n, []).append(w)
        said = "; ".join(f"wave{'s' * (len(ws) > 1)} {', '.join(map(str, ws))}: {n}"
                         for n, ws in sorted(groups.items()))
        lines = ", ".join(str(b.line) for b in self.barriers)
        return (f"the waves pass different numbers of the s_barrier in blocks only the waves "
                f"with an active lane run (lines {lines}): {said}; a wave then waits at a "
                f"barrier the others never reach, or the waves' barriers pair up shifted "
                f"and order the wrong LDS accesses")


def _guarded(fn: AsmFunction) -> list[tuple[int, int]]:
    """(the branching block, the block holding an ``s_barrier`` that only the waves with an
    active lane run: an ``s_cbranch_execz`` skips it, an ``s_cbranch_execnz`` takes it)."""
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    preds: dict[int, set] = {}
    for k, b in enumerate(fn.blocks):
        for s in b.succs:
            preds.setdefault(index[s], set()).add(k)
    guarded = []
    for k, b in enumerate(fn.blocks):
        last = b.instrs[-1] if b.instrs else None
        if last is None or last.mnemonic not in ("s_cbranch_execz", "s_cbranch_execnz"):
            continue
        t = k + 1 if last.mnemonic == "s_cbranch_execz" else index.get(last.operands[0])
        if t is not None and t < len(fn.blocks) and preds.get(t) == {k} and any(
                i.kind == "barrier" for i in fn.blocks[t].instrs):
            guarded.append((k, t))
    return guarded


def _guarded_runs(fn: AsmFunction, guarded, states: dict) -> list[tuple[bool, ...]] | None:
    """Per guarded block (:func:`_guarded`), whether each wave runs it (an active lane in
    its ``exec`` at the branch, evaluated from its thread ids); None when an ``exec``
    there is not known."""
    out = []
    for k, _t in guarded:
        if k not in states:
            return None
        state = dict(states[k])
        for i in fn.blocks[k].instrs:
            evaluate(i, state, fn.threads)
        exec_ = state.get(("exec",))
        if exec_ is None:
            return None
        out.append(tuple(bool(exec_[64 * w:64 * w + 64].any())
                         for w in range(fn.threads // 64)))
    return out


def barrier_mismatch(fn: AsmFunction) -> BarrierMismatch | None:
    """The waves of ``fn``'s workgroup passing different numbers of the ``s_barrier`` s in
    blocks run only where the wave's ``exec`` is not zero (the ping-pong kernels' one
    barrier of each group of waves, before and after the main loop), each wave's ``exec``
    at the branch evaluated from its thread ids (:func:`block_states`); None when they
    pass as many, or when an ``exec`` there is not known (or the workgroup's size)."""
    threads = fn.threads
    if threads <= 64 or not fn.blocks:
        return None
    guarded = _guarded(fn)
    if not guarded:
        return None
    runs = _guarded_runs(fn, guarded, block_states(fn))
    if runs is None:
        return None
    counts = [0] * (threads // 64)
    for (_k, t), ran in zip(guarded, runs):
        bars = sum(i.kind == "barrier" for i in fn.blocks[t].instrs)
        for w in range(len(counts)):
            counts[w] += bars * ran[w]
    if len(set(counts)) == 1:
        return None
    return BarrierMismatch(tuple(i for _, t in guarded for i in fn.blocks[t].instrs
                                 if i.kind == "barrier"), tuple(counts))
