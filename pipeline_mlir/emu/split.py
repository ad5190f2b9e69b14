"""A lockstep batch of workgroups split where its workgroups branch apart.

A :class:`~pipeline_mlir.emu.machine.Machine` runs a batch of workgroups in lockstep until
they take different branches (:class:`~pipeline_mlir.emu.machine.Divergence`).  Each way
they went then goes on from there as a machine of its own (:func:`split`): the batch's
per-workgroup state (registers, SCC, EXEC, private memory, LDS and its race shadow) taken
at the way's workgroup slots; what is not per workgroup (the waves' positions, epochs and
barrier counts, the memory operations in flight and their release state, the wait-state
trackers, the findings) copied.  The diverging instruction is run again by each part, where
the batch stopped in its wave's burst: a branch's wait states, counted already, are not
counted twice (:class:`_Counted`).

What the parts carry so that their runs are the runs of their workgroups from the start:

* the instruction count: a part starts at its batch's, so each finished part counts what
  its workgroups ran, the diverged prefix once per workgroup (as a run from the start);
* the global race state: a part is a new run (its slots renumbered) whose own accesses
  include its batch's (``run_keys``): an access of the batch by another wave of the same
  workgroup is judged by its release in the part, not taken for an earlier run's; the
  operations keep their ids, so the stamps of the batch name them;
* a load in flight (into registers or LDS): completed in the part by its batch's own
  completion, run on the batch's state with the part's copied in at the way's slots and
  copied back (:func:`_completed_in`);
* random mode: the part that holds the batch's first workgroup goes on with the batch's
  random stream (what a run of it from the start would do: the same seed, the same
  draws); every other part with a stream of its own, seeded as a run of it from its
  first workgroup would be, from the branch on (its interleaving after the branch
  differs from such a run's).

:func:`why_not` says where a split is not sound; the batch is then run again from the
start per way (:func:`pipeline_mlir.emu.gemm.run_batches`).
"""

from __future__ import annotations

import copy
import functools
import random
from collections import deque

import numpy as np

from pipeline_mlir.emu.machine import Machine, Wave, workgroups_text


def why_not(m: Machine) -> str:
    """Why the batch of ``m``, diverged, cannot be split (its parts must run again from
    the start), or ''."""
    if m.collect and len(m.findings) > m.initial_findings:
        # one finding per instruction for the whole batch: which workgroups it holds for
        # is not kept, so a part could not tell its own
        return "findings collected before the branch"
    if m.glob.race.lane_stores is not None:
        return "stores of lanes watched"      # keyed by run and slot, which a part renumbers
    for w in m.waves:
        for op in w.vmq:
            if not op.done and op.lds is None and not op.dst_v:
                # a store in flight writes every slot's bytes at once, when it completes
                return "a store in flight"
    return ""


def split(m: Machine, ways: list[list[int]], seeds: list[int], e) -> list[Machine]:
    """The machines, one per way of ``ways`` (positions of ``m``'s workgroup slots), that go
    on from where ``m`` diverged (``e``); ``seeds``: the random seed of each way's run."""
    return [_part(m, np.asarray(way, dtype=np.int64), seed, e)
            for way, seed in zip(ways, seeds)]


def _part(m: Machine, way: np.ndarray, seed: int, e) -> Machine:
    c = Machine.__new__(Machine)
    c.__dict__.update(m.__dict__)
    c.G = len(way)
    c.workgroups = [m.workgroups[i] for i in way]
    c.wg_ids = m.wg_ids[way]
    c.slot_names = [m.slot_names[i] for i in way]
    c.workgroups_text = workgroups_text(c.slot_names)
    c.run_key = m.glob.race.new_run(c.slot_names)
    c.run_keys = m.run_keys | {c.run_key}
    c.stamping = (None, 0)
    c.steps = m.kernel.steps()
    c.findings, c._seen = list(m.findings), set(m._seen)
    # the taint run's notes of the op being issued: each part's own (a list shared with
    # the batch and the other parts took one part's notes into another's next issue)
    c.load_taint, c.load_origin = [], None
    c.rng = m.rng if way[0] == 0 else random.Random(seed)
    c.descriptors = {}
    # LDS and its race shadow, at the way's slots
    nb = m.blocks
    c.set_lds(m.lds[way])
    c.last_write = m.last_write.reshape(m.G, nb)[way].reshape(-1)
    c.last_read = m.last_read.reshape(len(m.waves), m.G, nb)[:, way].reshape(len(m.waves), -1)
    c.op_owner, c.op_rel = m.op_owner.copy(), m.op_rel.copy()
    # the waves; the ops not yet released are the part's own (released ones do not change)
    c.waves = [_wave(c, w, way) for w in m.waves]
    c.ops = list(m.ops)
    ops = {}
    for pw, cw in zip(m.waves, c.waves):
        for o in (*pw.vmq, *pw.lgkmq, *pw.pend_v.values(), *pw.pend_s.values()):
            if id(o) not in ops:
                ops[id(o)] = c.ops[o.id] = _op(o, cw, m, c, way)
        cw.vmq = deque(ops[id(o)] for o in pw.vmq)
        cw.lgkmq = deque(ops[id(o)] for o in pw.lgkmq)
        cw.pend_v = {r: ops[id(o)] for r, o in pw.pend_v.items()}
        cw.pend_s = {r: ops[id(o)] for r, o in pw.pend_s.items()}
    if m.wait_states is not None:
        c.wait_states = copy.deepcopy(m.wait_states)
        if e.stepped:
            c.wait_states[e.resume[0]] = _Counted(c.wait_states, e.resume[0])
    c.resume = e.resume
    return c


def _wave(c: Machine, pw: Wave, way: np.ndarray) -> Wave:
    w = Wave.__new__(Wave)
    w.__dict__.update(pw.__dict__)
    w.machine, w.G = c, len(way)
    w.S, w.V, w.A = pw.S[:, way], pw.V[:, way], pw.A[:, way]
    w.scc, w.exec = pw.scc[way], pw.exec[way]
    w.exec_full = bool(w.exec.all())
    if getattr(pw, "private", None) is not None:
        w.private = pw.private[way]
    if pw.taint is not None:        # the taint run's (emu/taint.py)
        w.taint, w.staint, w.torigin = pw.taint[:, way], pw.staint[:, way], dict(pw.torigin)
    return w


def _op(o, cw: Wave, m: Machine, c: Machine, way: np.ndarray):
    """The part's copy of the op ``o`` of its batch ``m``, not yet released."""
    out = copy.copy(o)
    out.wave = cw
    if not o.done and o.complete_fn is not None:
        out.complete_fn = functools.partial(_completed_in, m, c, o, way, o.complete_fn)
    return out


def _completed_in(m: Machine, c: Machine, o, way: np.ndarray, fn) -> None:
    """Complete the op ``o`` of the batch ``m`` (its completion ``fn``, which writes the
    batch's registers, private memory or LDS) for the part ``c`` at the slots ``way``: the
    part's state copied in there, completed, copied back."""
    pw, cw = m.waves[o.wave.index], c.waves[o.wave.index]
    regs = [(pw.A, cw.A, r - 256) if r >= 256 else (pw.V, cw.V, r) for r in o.dst_v]
    regs += [(pw.S, cw.S, r) for r in o.dst_s]
    for big, small, r in regs:
        big[r][way] = small[r]
    private = getattr(pw, "private", None)
    if private is not None:
        private[way] = cw.private
    lds = o.lds is not None
    if lds:
        m.lds[way] = c.lds
    fn()
    for big, small, r in regs:
        small[r] = big[r][way]
    if private is not None:
        cw.private[...] = private[way]
    if lds:
        c.lds[...] = m.lds[way]


class _Counted:
    """A wave's wait-state tracker that counted its next instruction already (the branch
    its batch diverged at, run again by the part): that step is not counted again."""

    def __init__(self, trackers: list, index: int) -> None:
        self.trackers, self.index = trackers, index
        self.tracker = trackers[index]

    def step(self, info):
        self.trackers[self.index] = self.tracker
        return None
