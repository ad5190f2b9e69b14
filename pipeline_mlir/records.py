"""Records: classes whose ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` come from
their annotated fields, as :func:`dataclasses.dataclass` makes them, but cheap to define.

Why not dataclasses: ``pipeline-opt --pipeline=4wave --emit=schedule`` should cost about what
starting Python costs, and the ~45 classes of the scheduling core, the schedules, the target
description and the driver's arguments made that impossible as dataclasses: importing
:mod:`dataclasses` loads :mod:`inspect` (about 9 ms, half of a bare interpreter's start) and
each class compiles five to seven methods from source text (about 0.4 ms a class, 20 ms in
all).  :func:`record` makes ``__repr__`` and the frozen ``__setattr__`` as closures over the
field names, and compiles ``__init__``, ``__eq__`` and ``__hash__`` from source as a
dataclass does (their signatures, errors and speed) only for a class that uses them often;
until then generic forms give the same results (:class:`_LazyMethod`).

What a record shares with the dataclass of the same declaration (``test/unit/test_records.py``
compares the two): the fields (annotations of the class and of its record bases, in that
order; ``ClassVar`` annotations are not fields), ``field()`` with ``default``,
``default_factory``, ``init``, ``repr``, ``hash``, ``compare``, ``metadata`` and ``kw_only``;
the options ``init``, ``repr``, ``eq``, ``unsafe_hash``, ``frozen``, ``kw_only`` and ``slots``;
``__post_init__``; the text of ``repr``; equality (same class, equal field tuples); the hash
(of the same tuple, so sets and dicts iterate in the same order); a method the class defines
itself wins; assigning to a frozen record raises :class:`dataclasses.FrozenInstanceError`;
``__match_args__``; pickling and copying (a frozen slotted record keeps its state as a list,
as a dataclass does).  :func:`dataclasses.fields`, :func:`dataclasses.replace`,
:func:`dataclasses.asdict` and :func:`dataclasses.is_dataclass` accept records (they see
``__dataclass_fields__``, which is made, importing :mod:`dataclasses`, when first read); this
module's own :func:`fields` and :func:`replace` do the same without that import.

Not supported (nothing here uses them): ``order``, ``InitVar``, ``KW_ONLY``, ``match_args``,
``weakref_slot``.  A record gets no generated ``__doc__`` (a dataclass without a docstring gets
its signature as one).

Layer: the lowest; imports nothing of the project.
"""

from __future__ import annotations

import _thread
import sys
from operator import attrgetter
from types import MappingProxyType, MethodType

__all__ = ["MISSING", "Field", "field", "fields", "record", "replace"]


class _Sentinel:
    """A marker value that prints as its name."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


#: no default given (as :data:`dataclasses.MISSING`)
MISSING = _Sentinel("MISSING")
#: the default of an argument whose field has a default factory
_FACTORY = _Sentinel("<factory>")
#: every field of a record (its bases' first), in order: name -> Field
_FIELDS = "__record_fields__"
_NO_METADATA = MappingProxyType({})


class Field:
    """One field of a record (what :func:`field` declares; :func:`fields` lists them)."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash",
                 "compare", "metadata", "kw_only")

    def __init__(self, default, default_factory, init, repr, hash, compare,
                 metadata, kw_only) -> None:
        self.name, self.type = None, None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.hash, self.compare = init, repr, hash, compare
        self.metadata = _NO_METADATA if metadata is None else MappingProxyType(metadata)
        self.kw_only = kw_only

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, "
                f"default_factory={self.default_factory!r}, init={self.init!r}, "
                f"repr={self.repr!r}, hash={self.hash!r}, compare={self.compare!r}, "
                f"metadata={self.metadata!r}, kw_only={self.kw_only!r})")

    def has_default(self) -> bool:
        return self.default is not MISSING or self.default_factory is not MISSING


def field(*, default=MISSING, default_factory=MISSING, init: bool = True, repr: bool = True,
          hash: bool | None = None, compare: bool = True, metadata: dict | None = None,
          kw_only=MISSING) -> Field:
    """A field with options (as :func:`dataclasses.field`)."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def fields(class_or_instance) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order."""
    try:
        return tuple(getattr(class_or_instance, _FIELDS).values())
    except AttributeError:
        raise TypeError("must be called with a record type or instance") from None


def replace(obj, /, **changes):
    """A new record like ``obj`` with some fields changed (as :func:`dataclasses.replace`)."""
    if not hasattr(type(obj), _FIELDS):
        raise TypeError("replace() should be called on record instances")
    for f in getattr(obj, _FIELDS).values():
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be "
                                 f"specified with replace()")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def record(cls=None, /, *, init: bool = True, repr: bool = True, eq: bool = True,
           unsafe_hash: bool = False, frozen: bool = False, kw_only: bool = False,
           slots: bool = False):
    """Make ``cls`` a record (used as ``@record`` or ``@record(frozen=True, ...)``, with the
    options of :func:`dataclasses.dataclass`)."""
    options = dict(init=init, repr=repr, eq=eq, unsafe_hash=unsafe_hash, frozen=frozen,
                   kw_only=kw_only, slots=slots)

    def wrap(c):
        return _process(c, **options)

    return wrap if cls is None else wrap(cls)


# ---------------------------------------------------------------------------------------------

def _is_classvar(annotation) -> bool:
    """A ``ClassVar`` annotation (text, under ``from __future__ import annotations``, or the
    object itself)."""
    if isinstance(annotation, str):
        return annotation == "ClassVar" or annotation.startswith(("ClassVar[", "typing.ClassVar"))
    typing = sys.modules.get("typing")  # a ClassVar object means typing is loaded
    return typing is not None and (annotation is typing.ClassVar
                                   or getattr(annotation, "__origin__", None) is typing.ClassVar)


def _collect(cls, kw_only: bool, frozen: bool) -> dict[str, Field]:
    """The fields of ``cls``: its record bases' (MRO order), then its own annotations."""
    out: dict[str, Field] = {}
    frozen_bases = []
    for base in cls.__mro__[-1:0:-1]:
        own = base.__dict__.get(_FIELDS)
        if own is not None:
            out.update(own)
            frozen_bases.append(base.__dict__["__record_frozen__"])
    if frozen_bases and any(frozen_bases) and not frozen:
        raise TypeError("cannot inherit non-frozen record from a frozen one")
    if frozen_bases and not any(frozen_bases) and frozen:
        raise TypeError("cannot inherit frozen record from a non-frozen one")
    annotations = cls.__dict__.get("__annotations__", {})
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            continue
        f = _own_field(cls, name, annotation, kw_only)
        out[name] = f
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    return out


def _own_field(cls, name: str, annotation, kw_only: bool) -> Field:
    value = cls.__dict__.get(name, MISSING)
    f = value if isinstance(value, Field) else field(default=value)
    f.name, f.type = name, annotation
    if f.kw_only is MISSING:
        f.kw_only = kw_only
    if f.default is not MISSING and f.default.__class__.__hash__ is None:
        raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                         f"use default_factory")
    if isinstance(value, Field):  # the class attribute is the default, as in a dataclass
        if f.default is MISSING:
            delattr(cls, name)
        else:
            setattr(cls, name, f.default)
    return f


def _process(cls, *, init, repr, eq, unsafe_hash, frozen, kw_only, slots):
    """``cls`` made a record (a new class with ``slots``): its fields, then the methods a
    dataclass of the same options gets, each unless the class body defines it."""
    all_fields = _collect(cls, kw_only, frozen)
    class_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING
                         or (class_hash is None and "__eq__" in cls.__dict__))
    if slots:
        cls = _with_slots(cls, all_fields)
    cls.__record_fields__ = all_fields
    cls.__record_frozen__ = frozen
    cls.__dataclass_fields__ = _DataclassView(cls, "fields")
    cls.__dataclass_params__ = _DataclassView(cls, "params")
    cls.__record_params__ = dict(init=init, repr=repr, eq=eq, unsafe_hash=unsafe_hash,
                                 frozen=frozen, kw_only=kw_only, slots=slots)
    flist = list(all_fields.values())
    if init:
        _set(cls, "__init__", _init_fn(cls, flist, frozen, slots))
    if repr:
        _set(cls, "__repr__", _repr_fn([f.name for f in flist if f.repr]))
    if eq:
        _set(cls, "__eq__", _eq_fn(cls, [f.name for f in flist if f.compare]))
    if frozen:
        for name, fn in (("__setattr__", _frozen_setattr(cls, all_fields)),
                         ("__delattr__", _frozen_delattr(cls, all_fields))):
            if name in cls.__dict__:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
            _set(cls, name, fn)
    _hash_action(cls, flist, eq, frozen, unsafe_hash, explicit_hash)
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = tuple(f.name for f in flist if f.init and not f.kw_only)
    if slots and frozen:
        _set(cls, "__getstate__", _getstate_fn(flist))
        _set(cls, "__setstate__", _setstate_fn(flist))
    return cls


def _set(cls, name: str, fn) -> None:
    """Give ``cls`` the method ``name`` unless the class body defines it."""
    if name in cls.__dict__:
        return
    if not isinstance(fn, _LazyMethod):
        fn.__name__ = name
        fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)


def _with_slots(cls, all_fields: dict[str, Field]):
    """A new class like ``cls`` with ``__slots__`` for its fields (as ``slots=True``)."""
    body = dict(cls.__dict__)
    inherited = {s for base in cls.__mro__[1:-1] for s in _slot_names(base)}
    body["__slots__"] = tuple(n for n in all_fields if n not in inherited)
    for name in all_fields:
        body.pop(name, None)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    new = type(cls)(cls.__name__, cls.__bases__, body)
    new.__qualname__ = cls.__qualname__
    return new


def _slot_names(cls) -> tuple[str, ...]:
    s = cls.__dict__.get("__slots__", ())
    return (s,) if isinstance(s, str) else tuple(s)


def _init_fn(cls, flist: list[Field], frozen: bool, slots: bool) -> _LazyMethod:
    """``__init__``, as a dataclass's: its source written (and its fields' order checked) now,
    compiled when it is used often enough (:class:`_LazyMethod`)."""
    names = {f.name for f in flist}
    me = "__record_self__" if "self" in names else "self"
    env = {"__record_object": object, "__record_FACTORY": _FACTORY}
    params, kw_params, body = [], [], []
    seen_default = False
    for f in flist:
        if f.init:
            param = _param(f, env)
            if not f.kw_only:
                if f.has_default():
                    seen_default = True
                elif seen_default:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
            (kw_params if f.kw_only else params).append(param)
        value = _init_value(f, env, slots)
        if value is not None:
            body.append(f"__record_object.__setattr__({me}, {f.name!r}, {value})" if frozen
                        else f"{me}.{f.name} = {value}")
    post_init = hasattr(cls, "__post_init__")
    if post_init:
        body.append(f"{me}.__post_init__()")
    signature = ", ".join([me] + params + (["*"] + kw_params if kw_params else []))
    lines = "\n".join(f"  {line}" for line in body or ["pass"])
    annotations = {**{f.name: f.type for f in flist if f.init}, "return": None}
    init = _LazyMethod(cls, "__init__", f"def __init__({signature}):\n{lines}\n", env,
                       annotations=annotations)
    init.generic = _generic_init(init, flist, frozen, slots, post_init)
    return init


#: calls a record's method makes through its generic form (:class:`_LazyMethod`) before it is
#: compiled
COMPILE_AFTER = 32


class _LazyMethod:
    """A record's ``__init__``, ``__eq__`` or ``__hash__`` until it is used often enough.

    Compiling a method from source, as a dataclass does for each, costs about 15 us a field,
    which was most of a record's cost, and most records of a run make a few instances or
    none.  The first :data:`COMPILE_AFTER` calls run ``generic``, made without compiling (the
    same result; an ``__init__`` call the compiled one would refuse goes to it); then, or when
    the method is read from the class (e.g. by :func:`inspect.signature`), the source is
    compiled and the function replaces this descriptor on the class: a dataclass's method,
    with its signature, argument errors and speed."""

    __slots__ = ("owner", "name", "source", "env", "annotations", "generic", "calls")

    def __init__(self, owner, name: str, source: str, env: dict, generic=None,
                 annotations: dict | None = None) -> None:
        self.owner, self.name, self.source, self.env = owner, name, source, env
        self.generic, self.annotations, self.calls = generic, annotations, 0

    def __get__(self, obj, objtype=None):
        if obj is not None and self.calls < COMPILE_AFTER:
            self.calls += 1
            return MethodType(self.generic, obj)
        fn = self.compiled()
        return fn if obj is None else fn.__get__(obj, objtype)

    def compiled(self):
        """The compiled method, now on the class."""
        fn = self.owner.__dict__[self.name]
        if fn is not self:
            return fn  # compiled already (this descriptor was looked up before)
        namespace: dict = {}
        exec(self.source, self.env, namespace)  # noqa: S102 - the record's own field names
        fn = namespace[self.name]
        if self.annotations is not None:
            fn.__annotations__ = self.annotations
        fn.__qualname__ = f"{self.owner.__qualname__}.{self.name}"
        type.__setattr__(self.owner, self.name, fn)
        return fn


def _generic_init(lazy: _LazyMethod, flist: list[Field], frozen: bool, slots: bool,
                  post_init: bool):
    """An ``__init__`` of the fields ``flist`` made without compiling anything: it assigns what
    the compiled one would, in the same order; a call the compiled one would refuse (too many
    arguments, an unknown, repeated or missing one) goes to the compiled one, which says what
    is wrong."""
    positional = tuple(f.name for f in flist if f.init and not f.kw_only)
    accepted = frozenset(f.name for f in flist if f.init)
    required = frozenset(f.name for f in flist if f.init and not f.has_default())
    plan = tuple((f.name, f.init, f.default, f.default_factory) for f in flist
                 if f.init or f.default_factory is not MISSING
                 or (slots and f.default is not MISSING))
    assign = object.__setattr__ if frozen else setattr

    def __init__(self, /, *args, **kwargs):
        values = dict(zip(positional, args))
        if len(args) > len(positional) or not kwargs.keys() <= accepted \
                or not values.keys().isdisjoint(kwargs):
            return lazy.compiled()(self, *args, **kwargs)
        values.update(kwargs)
        if not required <= values.keys():
            return lazy.compiled()(self, *args, **kwargs)
        for name, init, default, factory in plan:
            if init and name in values:
                assign(self, name, values[name])
            else:
                assign(self, name, default if factory is MISSING else factory())
        if post_init:
            self.__post_init__()

    return __init__


def _param(f: Field, env: dict) -> str:
    if f.default_factory is not MISSING:
        return f"{f.name}=__record_FACTORY"
    if f.default is not MISSING:
        env[f"__record_dflt_{f.name}"] = f.default
        return f"{f.name}=__record_dflt_{f.name}"
    return f.name


def _init_value(f: Field, env: dict, slots: bool) -> str | None:
    """The expression ``__init__`` assigns to the field (None: nothing is assigned)."""
    if f.default_factory is not MISSING:
        env[f"__record_factory_{f.name}"] = f.default_factory
        make = f"__record_factory_{f.name}()"
        return f"{make} if {f.name} is __record_FACTORY else {f.name}" if f.init else make
    if f.init:
        return f.name
    if slots and f.default is not MISSING:
        env[f"__record_dflt_{f.name}"] = f.default
        return f"__record_dflt_{f.name}"
    return None


def _getter(names: list[str]):
    """A function of an instance to the tuple of its ``names`` fields."""
    if len(names) > 1:
        return attrgetter(*names)
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr_fn(names: list[str]):
    running: set = set()

    def __repr__(self):
        key = id(self), _thread.get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _fields_tuple(obj: str, names: list[str]) -> str:
    """Source of the tuple of ``obj``'s fields ``names``."""
    return "(" + "".join(f"{obj}.{n}," for n in names) + ")"


def _eq_fn(cls, names: list[str]) -> _LazyMethod:
    """``__eq__``: the same class and equal tuples of the compared fields."""
    get = _getter(names)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return get(self) == get(other)
        return NotImplemented

    source = (f"def __eq__(self, other):\n"
              f"  if other.__class__ is self.__class__:\n"
              f"    return {_fields_tuple('self', names)} == {_fields_tuple('other', names)}\n"
              f"  return NotImplemented\n")
    return _LazyMethod(cls, "__eq__", source, {}, __eq__)


def _hash_action(cls, flist: list[Field], eq: bool, frozen: bool, unsafe_hash: bool,
                 explicit: bool) -> None:
    """``__hash__`` as a dataclass decides it: generated for ``unsafe_hash`` or an
    ``eq`` + ``frozen`` class, None for ``eq`` alone, else left as it is; a hash the class
    body defines (``explicit``) is kept (and is an error with ``unsafe_hash``)."""
    if unsafe_hash and explicit:
        raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")
    if explicit or not (unsafe_hash or eq):
        return
    if unsafe_hash or frozen:
        names = [f.name for f in flist if (f.compare if f.hash is None else f.hash)]
        get = _getter(names)

        def __hash__(self):
            return hash(get(self))

        source = f"def __hash__(self):\n  return hash({_fields_tuple('self', names)})\n"
        cls.__hash__ = _LazyMethod(cls, "__hash__", source, {}, __hash__)
    else:
        cls.__hash__ = None


def _frozen_error(message: str):
    from dataclasses import FrozenInstanceError  # only when it is raised

    return FrozenInstanceError(message)


def _frozen_setattr(cls, all_fields: dict):
    def __setattr__(self, name, value):
        if type(self) is cls or name in all_fields:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _frozen_delattr(cls, all_fields: dict):
    def __delattr__(self, name):
        if type(self) is cls or name in all_fields:
            raise _frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__


def _getstate_fn(flist: list[Field]):
    names = [f.name for f in flist]

    def __getstate__(self):
        return [getattr(self, n) for n in names]

    return __getstate__


def _setstate_fn(flist: list[Field]):
    names = [f.name for f in flist]

    def __setstate__(self, state):
        for name, value in zip(names, state):
            object.__setattr__(self, name, value)

    return __setstate__


class _DataclassView:
    """``__dataclass_fields__`` / ``__dataclass_params__`` of a record, made when first read
    (that imports :mod:`dataclasses`), so that the functions of :mod:`dataclasses` accept
    records; the value then replaces this descriptor on the class."""

    def __init__(self, owner, what: str) -> None:
        self.owner, self.what = owner, what

    def __get__(self, obj, objtype=None):
        import dataclasses

        owner = self.owner
        if self.what == "params":
            value = _Params(owner.__record_params__)
        else:
            value = {f.name: _dataclass_field(dataclasses, f)
                     for f in owner.__record_fields__.values()}
        type.__setattr__(owner, f"__dataclass_{self.what}__", value)
        return value


class _Params:
    """What :mod:`dataclasses` reads of a base's ``__dataclass_params__``."""

    def __init__(self, params: dict) -> None:
        self.__dict__.update(params, order=False, match_args=True, weakref_slot=False)


def _dataclass_field(dataclasses, f: Field):
    def known(value):
        return dataclasses.MISSING if value is MISSING else value

    out = dataclasses.field(default=known(f.default), default_factory=known(f.default_factory),
                            init=f.init, repr=f.repr, hash=f.hash, compare=f.compare,
                            metadata=f.metadata or None, kw_only=f.kw_only)
    out.name, out.type = f.name, f.type
    out._field_type = dataclasses._FIELD
    return out
