"""Records (:mod:`pipeline_mlir.records`) behave as the dataclasses of the same declarations:
each class below is declared twice, once with :func:`record` and once with
:func:`dataclasses.dataclass`, and every observable the project relies on is compared: the
constructor (signature, defaults, factories, argument errors, ``__post_init__``), ``repr``,
equality, hashing, immutability, ``__match_args__``, pickling, copying, the functions of
:mod:`dataclasses` and this module's :func:`fields` / :func:`replace`.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from pipeline_mlir import records
from pipeline_mlir.records import field, record

ROOT = Path(__file__).resolve().parents[2]


def both(options: dict, make):
    """(the record, the dataclass) of the class body ``make(decorator, field)`` builds."""
    return (make(record(**options), records.field),
            make(dataclasses.dataclass(**options), dataclasses.field))


def _plain(deco, fld):
    @deco
    class Point:
        x: int
        y: int = 2
        tags: list = fld(default_factory=list)
        note: str = fld(default="", compare=False, repr=False)
        kind: ClassVar[str] = "point"

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

    return Point


def _frozen(deco, fld):
    @deco
    class Cell:
        """A cell."""

        row: int
        col: int = 0
        label: str = fld(default="c", metadata={"option": {"kind": "str"}})
        weight: float = fld(default=1.0, hash=False)

    return Cell


def _post_init(deco, fld):
    @deco
    class Checked:
        value: int
        doubled: int = fld(init=False, default=0)

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")
            object.__setattr__(self, "doubled", 2 * self.value)

    return Checked


def _kw_only(deco, fld):
    @deco
    class Options:
        name: str = "x"
        given: tuple = ()

        def __eq__(self, other):
            return isinstance(other, Options) and self.name == other.name

        def __hash__(self):
            return hash(self.name)

    return Options


CASES = {
    "plain": ({}, _plain),
    "frozen": ({"frozen": True}, _frozen),
    "frozen-slots": ({"frozen": True, "slots": True}, _frozen),
    "slots": ({"slots": True}, _plain),
    "post-init": ({"frozen": True}, _post_init),
    "kw-only-own-eq": ({"frozen": True, "eq": False, "kw_only": True}, _kw_only),
    "unsafe-hash": ({"unsafe_hash": True}, _frozen),
}
ARGS = {"plain": ((1,), {"tags": [3]}), "frozen": ((4, 5), {"label": "z"}),
        "frozen-slots": ((4,), {"weight": 2.5}), "slots": ((7, 8), {}),
        "post-init": ((3,), {}), "kw-only-own-eq": ((), {"name": "n", "given": ("a",)}),
        "unsafe-hash": ((1, 2), {"label": "n"})}


def pickled_module_classes(name):
    """The two classes of case ``name``, reachable for pickle as this module's globals."""
    rec, dc = both(*CASES[name])
    for cls, tag in ((rec, "Rec"), (dc, "Dc")):
        cls.__qualname__ = cls.__name__ = f"{tag}_{name.replace('-', '_')}"
        cls.__module__ = __name__
        globals()[cls.__name__] = cls
    return rec, dc


@pytest.mark.parametrize("name", CASES)
def test_a_record_behaves_as_the_dataclass(name):
    rec, dc = pickled_module_classes(name)
    args, kw = ARGS[name]
    r, d = rec(*args, **kw), dc(*args, **kw)
    assert repr(r).replace(rec.__qualname__, "C") == repr(d).replace(dc.__qualname__, "C")
    assert str(inspect.signature(rec)) == str(inspect.signature(dc))
    assert (r == rec(*args, **kw)) == (d == dc(*args, **kw))
    assert (r != rec(*args, **kw)) == (d != dc(*args, **kw))
    assert (r == d) is False and r.__eq__(object()) == d.__eq__(object())
    assert (rec.__hash__ is None) == (dc.__hash__ is None)
    if rec.__hash__ is not None:
        assert hash(r) == hash(d)
    assert rec.__match_args__ == dc.__match_args__
    assert [f.name for f in records.fields(rec)] == [f.name for f in dataclasses.fields(dc)]
    assert [f.name for f in dataclasses.fields(r)] == [f.name for f in dataclasses.fields(d)]
    assert dataclasses.is_dataclass(r) and dataclasses.asdict(r) == dataclasses.asdict(d)
    assert ("__slots__" in rec.__dict__) == ("__slots__" in dc.__dict__)
    for clone in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
        assert type(clone) is rec and repr(clone) == repr(r)
        assert [getattr(clone, f.name) for f in records.fields(rec)] == \
            [getattr(r, f.name) for f in records.fields(rec)]


@pytest.mark.parametrize("name", CASES)
def test_replace_and_field_defaults_match(name):
    rec, dc = both(*CASES[name])
    args, kw = ARGS[name]
    r, d = rec(*args, **kw), dc(*args, **kw)
    first = records.fields(rec)[0].name
    value = "q" if name == "kw-only-own-eq" else 9
    for new_r in (records.replace(r, **{first: value}), dataclasses.replace(r, **{first: value})):
        new_d = dataclasses.replace(d, **{first: value})
        assert repr(new_r).split("(", 1)[1] == repr(new_d).split("(", 1)[1]

    def known(v):
        return None if v in (records.MISSING, dataclasses.MISSING) else v

    def described(f):
        return (f.name, f.type, known(f.default), known(f.default_factory), f.init, f.repr,
                f.hash, f.compare, dict(f.metadata), f.kw_only)

    assert [described(f) for f in records.fields(rec)] == \
        [described(f) for f in dataclasses.fields(dc)]
    assert [described(f) for f in dataclasses.fields(rec)] == \
        [described(f) for f in dataclasses.fields(dc)]


@pytest.mark.parametrize("name", [n for n, (o, _) in CASES.items() if o.get("frozen")])
def test_a_frozen_record_refuses_assignment_as_the_dataclass(name):
    rec, dc = both(*CASES[name])
    args, kw = ARGS[name]
    first = records.fields(rec)[0].name
    for obj in (rec(*args, **kw), dc(*args, **kw)):
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field "
                                                                  f"'{first}'"):
            setattr(obj, first, 1)
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field"):
            delattr(obj, first)


@pytest.mark.parametrize("call", [lambda c: c(), lambda c: c(1, 2, [], "", 5),
                                  lambda c: c(1, z=3)])
def test_argument_errors_are_the_dataclass_s(call):
    rec, dc = both({}, _plain)
    with pytest.raises(TypeError) as r_err:
        call(rec)
    with pytest.raises(TypeError) as d_err:
        call(dc)
    assert str(r_err.value) == str(d_err.value)


@pytest.mark.parametrize("name", CASES)
def test_the_generic_init_and_the_compiled_one_make_the_same_record(name):
    """The first instances come from the generic ``__init__``, the later ones from the compiled
    one (:class:`records._LazyMethod`); each is the dataclass's instance, field by field."""
    rec, dc = both(*CASES[name])
    args, kw = ARGS[name]
    want = dc(*args, **kw)
    made = [rec(*args, **kw) for _ in range(records.COMPILE_AFTER + 2)]
    assert inspect.isfunction(rec.__dict__["__init__"])  # compiled by now
    for r in made:
        assert [getattr(r, f.name) for f in records.fields(rec)] == \
            [getattr(want, f.name) for f in dataclasses.fields(dc)]
        assert r == made[0] and repr(r) == repr(made[0])


@pytest.mark.parametrize("name", ["plain", "frozen", "frozen-slots", "unsafe-hash"])
def test_equality_and_hash_are_the_same_before_and_after_they_are_compiled(name):
    rec, dc = both(*CASES[name])
    args, kw = ARGS[name]
    r, same, d = rec(*args, **kw), rec(*args, **kw), dc(*args, **kw)
    changed = records.replace(r, **{records.fields(rec)[0].name: 9})
    hashable = rec.__dict__.get("__hash__") is not None
    for _ in range(records.COMPILE_AFTER + 2):
        assert (r == same, r == changed, r != changed) == (True, False, True)
        assert r.__eq__(d) is NotImplemented
        if hashable:
            assert hash(r) == hash(d)
    assert inspect.isfunction(rec.__dict__["__eq__"])
    assert not hashable or inspect.isfunction(rec.__dict__["__hash__"])


def test_reading_the_init_compiles_it_and_a_bad_call_gets_the_compiled_error():
    rec, dc = both({}, _plain)
    assert not inspect.isfunction(rec.__dict__["__init__"])
    rec(1)  # the generic __init__
    assert not inspect.isfunction(rec.__dict__["__init__"])
    with pytest.raises(TypeError, match=r"Point.__init__\(\) got multiple values for argument "
                                        r"'x'"):
        rec(1, x=2)
    assert inspect.isfunction(rec.__dict__["__init__"])
    other, _ = both({}, _plain)
    assert str(inspect.signature(other.__init__)) == str(inspect.signature(dc.__init__))
    assert inspect.isfunction(other.__dict__["__init__"])


def test_post_init_runs_and_its_errors_pass_through():
    rec, dc = both({"frozen": True}, _post_init)
    assert rec(4).doubled == dc(4).doubled == 8
    for cls in (rec, dc):
        with pytest.raises(ValueError, match="negative"):
            cls(-1)


def test_inherited_fields_come_first_and_subclasses_keep_the_base_s_methods():
    @record(frozen=True, eq=False, kw_only=True)
    class Base:
        name: ClassVar[str] = ""
        config: tuple = ()

        def __eq__(self, other):
            return type(other) is type(self) and self.config == other.config

        def __hash__(self):
            return hash(self.config)

    @record(frozen=True, eq=False, kw_only=True)
    class Sub(Base):
        name = "sub"
        size: int = 3

    assert [f.name for f in records.fields(Sub)] == ["config", "size"]
    s = Sub(size=4, config=(1,))
    assert repr(s) == "test_inherited_fields_come_first_and_subclasses_keep_the_base_s_methods." \
                      "<locals>.Sub(config=(1,), size=4)"
    assert s == Sub(size=5, config=(1,)) and hash(s) == hash((1,)) and Sub.name == "sub"
    with pytest.raises(TypeError, match="cannot inherit non-frozen record from a frozen one"):
        @record
        class Thawed(Base):
            x: int = 0


@pytest.mark.parametrize("body, error", [
    ("x: int = 0\n    y: int", "non-default argument 'y' follows default argument"),
    ("x: list = []", "mutable default <class 'list'> for field x is not allowed"),
    ("x = field(default=1)", "'x' is a field but has no type annotation"),
])
def test_declaration_errors_are_the_dataclass_s(body, error):
    source = f"class C:\n    {body}\n"
    for deco, fld in ((record, records.field), (dataclasses.dataclass, dataclasses.field)):
        namespace = {"field": fld}
        exec(source, namespace)
        with pytest.raises((TypeError, ValueError), match=error.replace("(", r"\(")):
            deco(namespace["C"])


def test_field_refuses_a_default_and_a_factory():
    with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
        field(default=1, default_factory=list)


def test_a_real_dataclass_may_extend_a_record():
    @record(frozen=True)
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True)
    class Ext(Base):
        b: int = 0

    assert repr(Ext(1, 2)).endswith("Ext(a=1, b=2)") and Ext(1) == Ext(1, 0)


def test_records_do_not_import_dataclasses():
    code = ("import sys\nfrom pipeline_mlir.records import record, field, fields, replace\n"
            "@record(frozen=True, slots=True)\nclass A:\n    x: int\n    y: tuple = "
            "field(default_factory=tuple)\n"
            "a = replace(A(1), x=2)\nassert fields(a)[0].name == 'x' and hash(a) and repr(a)\n"
            "assert 'dataclasses' not in sys.modules and 'inspect' not in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
