"""Locations for messages: where an op is (:func:`location_text`), and the name of the op
the user wrote there where the front end made another in its place (:func:`written_as`,
:func:`op_name`)."""

from __future__ import annotations

import re

from pipeline_mlir.dialect.bindings import ir

#: the key of the location the front end gives an op it makes in place of one the user wrote
#: (:func:`written_as`)
WRITTEN_AS = "sched.written_as"
_LOC = re.compile(r'^loc\((?:fused<\{' + WRITTEN_AS + r' = \{[^{}]*\}\}>\[)?'
                  r'(?:"(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)|"(?P<name>[^"]*)"'
                  r'(?:\(.*\))?)\]?\)$', re.S)


def written_as(op, made: str):
    """The location of the ``made`` op (an op name) the front end makes in place of ``op``,
    which the user wrote (a register copy's ``vector.load`` made an ``amdgpu.gather_to_lds``):
    ``op``'s own, which prints as it (:func:`location_text`) and names ``op`` in messages
    about the ``made`` op there (:func:`op_name`; not about other ops made at it)."""
    loc = op.location
    if _written(loc) is not None:          # (op made in place of another: that one's)
        loc = loc.locations[0]
    return ir.Location.fused([loc], ir.DictAttr.get(
        {WRITTEN_AS: ir.DictAttr.get({made: ir.StringAttr.get(op_name(op))})}))


def op_name(op) -> str:
    """The name of ``op`` for a message: the op the user wrote where the front end made
    ``op`` in its place (:func:`written_as`), else ``op``'s own."""
    written = _written(op.location)
    if written is not None and op.name in written:
        return ir.StringAttr(written[op.name]).value
    return op.name


def _written(loc):
    """The ops :func:`written_as` named at ``loc`` (made op -> the user's), or None."""
    meta = loc.metadata.maybe_downcast() if isinstance(loc, ir.FusedLoc) and \
        loc.metadata is not None else None
    if isinstance(meta, ir.DictAttr) and WRITTEN_AS in meta:
        return ir.DictAttr(meta[WRITTEN_AS])
    return None


def location_text(loc, filename: str | None = None) -> tuple[str, int | None]:
    """(``file:line:col`` or ``"name"``, line or None) of an MLIR location (or its text);
    ``filename`` replaces the ``-`` of a buffer parsed from a string."""
    m = _LOC.match(str(loc))
    if not m:
        return str(loc), None
    if m.group("line"):
        f = m.group("file")
        f = filename if filename and f in ("-", "") else f
        return f"{f}:{m.group('line')}:{m.group('col')}", int(m.group("line"))
    return f'"{m.group("name")}"', None
