"""Caches of values keyed by their MLIR handles, told of every change that makes an entry
stale: an op erased (an op created after it may take its address, and a handle compares by
the address) or the uses of a value given another value.

The bindings' own methods that erase or rewire are wrapped once, when this module is first
imported, so that no rewrite site has to know which caches hold what it changes; a cache
registers with :func:`forget_on_change` for as long as it lives (the per-lane evaluator of
:mod:`pipeline_mlir.analysis.loop_eval`).
"""

from __future__ import annotations

import weakref

from pipeline_mlir.dialect.bindings import ir

#: the live caches of values keyed by their handles (which compare by the op's address: an
#: op created after another was erased may take its address, and would read the erased
#: op's entry) that forget what an erasure or a rewiring makes stale: :func:`forget_on_change`
_WATCHERS: weakref.WeakSet = weakref.WeakSet()


def forget_on_change(cache) -> None:
    """While ``cache`` lives, have ``cache.forget_ops([op])`` called before each op is
    erased (``op.erase()``, of an ``ir.Operation`` or an OpView: the ops nested in it go
    with it), and ``cache.forget_uses(value)`` before the uses of ``value`` are given
    another value (``replace_all_uses_with``, ``replace_all_uses_except``,
    ``replace_uses_of_with``, ``op.operands[i] = ...``: its old operand): every change,
    wherever it is made, so that no site has to know which caches hold what it changes
    (an Evaluator's memo, :mod:`pipeline_mlir.analysis.loop_eval`).  Attributes changed in
    place are not told."""
    _WATCHERS.add(cache)


def _watched(method, before):
    """``method`` calling ``before(self, *args)`` first while a cache watches."""
    def call(self, *args, **kwargs):
        if _WATCHERS:
            before(self, *args)
        return method(self, *args, **kwargs)
    call.__doc__ = method.__doc__
    call.watched = True
    return call


def _tell(name: str, arg) -> None:
    for cache in list(_WATCHERS):
        getattr(cache, name)(arg)


def _defining(cls, name: str):
    """The class of ``cls``'s MRO that defines ``name`` (where to wrap it)."""
    return next(c for c in cls.__mro__ if name in vars(c))


#: the bindings' methods that erase or rewire (``erase`` is shared by ``ir.Operation`` and
#: OpView; ``replace_all_uses_with`` by every value kind), each made to tell the caches of
#: :func:`forget_on_change` first
_CHANGES = ((ir.Operation, "erase", lambda op: _tell("forget_ops", (op,))),
            (ir.Operation, "replace_uses_of_with", lambda op, old, *_: _tell("forget_uses", old)),
            (ir.Value, "replace_all_uses_with", lambda v, *_: _tell("forget_uses", v)),
            (ir.Value, "replace_all_uses_except", lambda v, *_: _tell("forget_uses", v)),
            (ir.OpOperandList, "__setitem__", lambda ops, i, *_: _tell("forget_uses", ops[i])))
for _cls, _name, _before in _CHANGES:
    _cls = _defining(_cls, _name)
    if not getattr(vars(_cls)[_name], "watched", False):
        setattr(_cls, _name, _watched(vars(_cls)[_name], _before))
