"""Caches of values keyed by their MLIR handles, told of every change that makes an entry
stale: an op erased (an op created after it may take its address, and a handle compares by
the address), the uses of a value given another value, an attribute changed in place, or
a pass manager run (C++ rewrites that create, rewire and free ops unseen).

The bindings' own methods that erase or rewire, and ``PassManager.run``, are wrapped once,
when this module is first imported, so that no rewrite site has to know which caches hold
what it changes; a cache registers with :func:`forget_on_change` for as long as it lives
(the per-lane evaluator of :mod:`pipeline_mlir.analysis.loop_eval`).  The bindings'
attribute map does not say which op it belongs to, so an attribute is changed in place
through :func:`set_attribute`.
"""

from __future__ import annotations

import weakref

from pipeline_mlir.dialect.bindings import ir, passmanager

#: the live caches of values keyed by their handles (which compare by the op's address: an
#: op created after another was erased may take its address, and would read the erased
#: op's entry) that forget what an erasure or a rewiring makes stale: :func:`forget_on_change`;
#: ``id(cache)`` -> a weak reference to it, dropped by the first telling after the cache
#: dies (a dict of weak references, not a ``WeakSet``, whose iteration guard costs more
#: than the telling itself: every erase and every rewired operand of a build tells each
#: live cache; no callback removes an entry, which a collection run while the dict is
#: copied would do in the middle of the copy)
_WATCHERS: dict = {}


def forget_on_change(cache) -> None:
    """While ``cache`` lives, have ``cache.forget_ops([op])`` called before each op is
    erased (``op.erase()``, of an ``ir.Operation`` or an OpView: the ops nested in it go
    with it), and ``cache.forget_uses(value)`` before the uses of ``value`` are given
    another value (``replace_all_uses_with``, ``replace_all_uses_except``,
    ``replace_uses_of_with``, ``op.operands[i] = ...``: its old operand): every change,
    wherever it is made, so that no site has to know which caches hold what it changes
    (an Evaluator's memo, :mod:`pipeline_mlir.analysis.loop_eval`).  Also
    ``cache.forget_attributes(op)`` before :func:`set_attribute` changes an attribute of
    ``op``, and ``cache.forget_all()`` before a ``PassManager`` runs (its C++ patterns
    erase and create ops this module does not see)."""
    _WATCHERS[id(cache)] = weakref.ref(cache)


def forget_everything(*_) -> None:
    """Have every live cache forget everything (``forget_all``): after a C++ pass, whose
    rewrites erase and create ops unseen, before the next Python pass may change the IR
    (a cache kept alive past its own pass, an evaluator in a reference cycle, would
    otherwise be told of that change with keys of freed ops; callable as a pass)."""
    if _WATCHERS:
        _tell("forget_all", None)


def set_attribute(op, name: str, value) -> None:
    """``op.attributes[name] = value`` (``value`` None: the attribute removed), the live
    caches told first (:func:`forget_on_change`): an attribute changed in place may change
    what ``op`` computes (an LDS buffer's ``iree_codegen.swizzle``, a transfer's
    ``in_bounds``, a kernel's workgroup attributions), and a value computed before would
    stay.  Every in-place write of an attribute made while an evaluator may live goes
    through here."""
    if _WATCHERS:
        _tell("forget_attributes", op)
    if value is None:
        del op.attributes[name]
    else:
        op.attributes[name] = value


def _watched(method, before):
    """``method`` calling ``before(self, *args)`` first while a cache watches."""
    def call(self, *args, **kwargs):
        if _WATCHERS:
            before(self, *args)
        return method(self, *args, **kwargs)
    call.__doc__ = method.__doc__
    call.watched = True
    call.__wrapped__ = method
    return call


#: the scratch of the telling in progress (:func:`told_together`), else empty
_TELLING: list[dict] = []


def told_together() -> dict | None:
    """While the live caches are told of one change, a dict they share for what each would
    read of it alike (the ops nested in an erased op and their values, read once for every
    evaluator told, not once per evaluator), dropped when the telling ends; None outside a
    telling (a cache called directly reads its own)."""
    return _TELLING[-1] if _TELLING else None


def _tell(name: str, arg) -> None:
    _TELLING.append({})
    try:
        for key, ref in list(_WATCHERS.items()):
            cache = ref()
            if cache is not None:
                getattr(cache, name)(arg)
            elif _WATCHERS.get(key) is ref:     # (dead: a new cache may have its id now)
                del _WATCHERS[key]
    finally:
        _TELLING.pop()


def _defining(cls, name: str):
    """The class of ``cls``'s MRO that defines ``name`` (where to wrap it)."""
    return next(c for c in cls.__mro__ if name in vars(c))


#: the bindings' methods that erase or rewire (``erase`` is shared by ``ir.Operation`` and
#: OpView; ``replace_all_uses_with`` by every value kind) and a pass manager's run, each
#: made to tell the caches of :func:`forget_on_change` first
_CHANGES = ((ir.Operation, "erase", lambda op: _tell("forget_ops", (op,))),
            (ir.Operation, "replace_uses_of_with", lambda op, old, *_: _tell("forget_uses", old)),
            (ir.Value, "replace_all_uses_with", lambda v, *_: _tell("forget_uses", v)),
            (ir.Value, "replace_all_uses_except", lambda v, *_: _tell("forget_uses", v)),
            (ir.OpOperandList, "__setitem__", lambda ops, i, *_: _tell("forget_uses", ops[i])),
            (passmanager.PassManager, "run", lambda *_: _tell("forget_all", None)))
for _cls, _name, _before in _CHANGES:
    _cls = _defining(_cls, _name)
    if not getattr(vars(_cls)[_name], "watched", False):
        setattr(_cls, _name, _watched(vars(_cls)[_name], _before))

#: the bindings' own ``op.operands[i] = value``, no cache told (:func:`set_new_operands`)
_SET_OPERAND = vars(_defining(ir.OpOperandList, "__setitem__"))["__setitem__"]
_SET_OPERAND = getattr(_SET_OPERAND, "__wrapped__", _SET_OPERAND)


def set_new_operands(op, values) -> None:
    """``op.operands[i] = values[i]`` for each ``i`` (``values`` a list, or a dict of the
    positions to set), of an op just made (a clone, given its operands before anything
    reads it), the caches not told: what a cache holds was computed from ops that existed
    before ``op``, and no such op's operands change (a clone's own results, its only
    readers' inputs, are new handles; one that takes an erased op's address was forgotten
    at the erasure).  Telling them that the clone's old operands lose a use would make
    them forget, for nothing, everything computed from those values: the lowering clones a
    loop's payload ops some thousand times, the front end a copy's index ops for each
    lane it regroups (``split_copy.py``) and a remainder's loads for the iteration ahead
    (``remainder_ahead.py``)."""
    operands = op.operands
    for i, v in (values.items() if isinstance(values, dict) else enumerate(values)):
        _SET_OPERAND(operands, i, v)
