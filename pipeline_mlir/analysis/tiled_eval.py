"""Many workgroups side by side, what does not move with the workgroup evaluated once.

A proof over a kernel's whole grid (:mod:`pipeline_mlir.frontend.kept_layout`) evaluates the
kernel's indices with a :class:`~pipeline_mlir.analysis.loop_eval.SideBySide`: one numpy
lane per thread of each of many workgroups (and a
:class:`~pipeline_mlir.analysis.loop_eval.Repeated` of it: one per K step too).  Most of what it evaluates (the thread's part of
an index: its thread-id arithmetic, constants, the swizzles of the LDS side) is the same in
every workgroup; computed over every lane of every workgroup, it costs as many times the
work, and one Python dispatch per op and chunk of workgroups.

:class:`TileSource` is one workgroup's :class:`~pipeline_mlir.analysis.loop_eval.Evaluator`
that knows, of each value, view and fact it has memoized, whether it was computed, directly
or not, from a *moving* key: a value some evaluator built on it binds (a workgroup id, a
workgroup forall's variable, the K-loop's variable) or the workgroup ids' sample.  It learns
that as it memoizes (each entry's reads, as :class:`Evaluator` notes them, checked against
the moving keys), so the answer costs nothing more than the evaluation.  :class:`Tiled`, a
``SideBySide`` of ``count`` workgroups over such a source, takes each value it has not
memoized from the source when the source computes it from no moving key (tiled: every
workgroup's lanes are the one workgroup's), and computes the others itself, lane by lane, as
a ``SideBySide`` does, from their operands (which it takes from the source in turn where
they do not move).  Only what moves is evaluated over every lane.

It is exact: a value computed from no moving key is a function of the thread id, constants
and the IR alone, the same in every workgroup (the thread ids repeat per workgroup, and a
wave's first lane, ``rocdl.readfirstlane``, is the same lane of the same wave).  What the
source cannot evaluate (an error, of whatever kind) :class:`Tiled` evaluates itself, and so
raises what it always raised.  Both evaluators are told of every change of the IR
(:func:`~pipeline_mlir.dialect.ir_changes.forget_on_change`), as every evaluator is: an entry
a change makes stale is forgotten in the source as in the evaluator that took it.  A key
once moving stays so (an op erased and another created at its address is only evaluated
over every lane: never wrong).  Only a moving key may be bound in a :class:`Tiled`
(binding it there binds it in the source too, at its first workgroup's lanes, if the
source has it unbound).  A source may serve several evaluators, and several proofs, as long
as it lives.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.loop_eval import (WORKGROUP_KEY, Evaluator, Repeated, SideBySide,
                                              tiled)


class _Tracking:
    """What a source of tiled values adds to its evaluator: which of its entries are
    computed, directly or not, from a moving key (``moving``: the workgroup ids' sample and
    the keys :meth:`TileSource.move` adds), learnt as it memoizes them."""

    moving: set

    def _computed(self, reads: set, keys) -> None:
        super()._computed(reads, keys)
        if not self.moving.isdisjoint(reads):
            self.moving.update(keys)

    def fixed(self, v) -> np.ndarray | None:
        """``v``'s value at the source's lanes if it is computed from no moving key, else
        None (and None where the source cannot evaluate it)."""
        try:
            a = self.value(v)
        except Exception:       # noqa: BLE001 (the caller evaluates it and raises its own)
            return None
        return None if v in self.moving else a

    def fixed_fact(self, key, compute_in) -> tuple | None:
        """``(fact,)``: the fact ``key`` at the source's lanes (``compute_in(self)``,
        memoized as :meth:`~pipeline_mlir.analysis.loop_eval.Evaluator.fact` memoizes it)
        if it reads no moving key, else None (and None where the source cannot compute
        it)."""
        try:
            got = self.fact(key, lambda: compute_in(self))
        except Exception:       # noqa: BLE001 (the caller computes it and raises its own)
            return None
        return None if key in self.moving else (got,)


class TileSource(_Tracking, Evaluator):
    """One workgroup's evaluator (``block_size``; ``launch_values`` as an
    :class:`~pipeline_mlir.analysis.loop_eval.Evaluator`'s) that knows which of its entries
    are computed from a moving key (module docstring)."""

    def __init__(self, block_size: tuple, *, launch_values: bool = True) -> None:
        super().__init__(block_size, launch_values=launch_values)
        self.moving = {WORKGROUP_KEY}

    def move(self, value, array: np.ndarray) -> None:
        """Make ``value`` a moving key (an evaluator on this source binds it; ``array``: its
        value at the source's lanes, which its entries computed from it take)."""
        if value not in self.moving:
            self.moving.add(value)
            self._forget(value)         # (none, unless evaluated before it moved)
        if value not in self.bound:
            self.bind(value, array)


class Tiled(SideBySide):
    """A :class:`~pipeline_mlir.analysis.loop_eval.SideBySide` of ``count`` workgroups on
    ``source`` (a :class:`TileSource` of the same threads and launch values): a value that
    does not move taken from the source, tiled; the others computed here (module
    docstring)."""

    def __init__(self, source: TileSource, count: int) -> None:
        super().__init__(source.block_size, count, launch_values=source.launch_values)
        self.source = source
        self.count = count
        self.read_ir_as(source)

    def bind(self, value, array) -> None:
        a = np.broadcast_to(np.asarray(array, dtype=np.int64), (self.threads,))
        self.source.move(value, a[:self.per_workgroup])
        super().bind(value, a)

    def _value(self, v) -> np.ndarray:
        if v not in self.memo and v not in self.bound and v not in self.source.moving:
            got = self.source.fixed(v)      # (a key once moving stays so: never fixed)
            if got is not None:
                self.memo[v] = tiled(got, self.count)
        return super()._value(v)

    def fact_of(self, key, compute_in):
        """:meth:`~pipeline_mlir.analysis.loop_eval.Evaluator.fact` ``key`` of
        ``compute_in(evaluator)``: the source's where it reads no moving key (a fact of
        all the lanes together is the same of the lanes tiled, as a ``Repeated``'s of
        its source's), else computed here."""
        if key not in self.facts:
            source = self.source
            if key in source.facts and key not in source.moving:    # (the common case)
                self.facts[key] = source.facts[key]
            elif (got := source.fixed_fact(key, compute_in)) is not None:
                self.facts[key] = got[0]        # (read from nothing that moves: kept)
        return self.fact(key, lambda: compute_in(self))


class StepSource(_Tracking, Tiled):
    """One workgroup at each of ``count`` K steps (a :class:`Tiled` on ``source`` whose
    "workgroups" are the steps, the loop's variable bound one value per step), the
    workgroup ids sampled: what :class:`Crossed` takes, broadcast over its workgroups, of
    the values the loop's variable moves and no workgroup does."""

    def __init__(self, source: TileSource, count: int) -> None:
        super().__init__(source, count)
        self.moving = {WORKGROUP_KEY}


class Crossed(Repeated):
    """A :class:`~pipeline_mlir.analysis.loop_eval.Repeated` of ``source`` (a
    :class:`Tiled` of some workgroups at one K step) for ``times`` K steps of the loop's
    variable ``varying``: what does not read ``varying`` taken from ``source`` (tiled per
    step, as a ``Repeated`` does), what reads it but moves with no workgroup from ``steps``
    (a :class:`StepSource` of the same ``times`` steps, ``varying`` bound there as here),
    broadcast over the workgroups; the rest computed here, over every lane.  A value taken
    from ``steps`` is noted as read from ``varying``: a new binding of it forgets it (bind
    ``steps`` the same first)."""

    def __init__(self, source: Tiled, times: int, varying, steps: StepSource) -> None:
        super().__init__(source, times, varying)
        self.steps = steps
        self.workgroups = source.threads // source.per_workgroup

    def _value(self, v) -> np.ndarray:
        if v not in self.memo and v not in self._fixed and v not in self.bound:
            got = self.steps.fixed(v)
            if got is not None:
                t = self.per_workgroup
                self.memo[v] = np.broadcast_to(
                    got.reshape(self.times, 1, t), (self.times, self.workgroups, t)).reshape(-1)
                self._computed({self.varying}, (v,))
        return super()._value(v)
