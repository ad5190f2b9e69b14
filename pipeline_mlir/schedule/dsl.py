"""The pipeline DSL: ``Pipe`` op sequences composed with ``>>`` and ``EntryBuilder``.

``Pipe`` is the reference's fixed-size op sequence; in Python it is an immutable
tuple wrapper.  ``pipe(a) >> b >> other_pipe`` concatenates, ``as_schedule``
turns it into phase entries with sequential slots.
"""

from __future__ import annotations

from pipeline_mlir.schedule.types import OpDesc, Phase, ScheduleEntry, TargetCostModel


class Pipe:
    __slots__ = ("ops",)

    def __init__(self, ops=()) -> None:
        self.ops = tuple(ops)

    def __rshift__(self, other: "Pipe | OpDesc") -> "Pipe":
        if isinstance(other, Pipe):
            return Pipe(self.ops + other.ops)
        if isinstance(other, OpDesc):
            return Pipe(self.ops + (other,))
        return NotImplemented

    def __len__(self) -> int:
        return len(self.ops)

    def __getitem__(self, i):
        return self.ops[i]

    def __iter__(self):
        return iter(self.ops)

    def __eq__(self, other) -> bool:
        return isinstance(other, Pipe) and self.ops == other.ops

    def __repr__(self) -> str:
        return f"Pipe({list(self.ops)!r})"

    def as_schedule(self, phase: Phase, offset: int = 0) -> list[ScheduleEntry]:
        return [ScheduleEntry(op, offset + i, phase, False) for i, op in enumerate(self.ops)]

    def emit_into(self, out: list[ScheduleEntry], phase: Phase) -> None:
        for op in self.ops:
            out.append(ScheduleEntry(op, len(out), phase, False))


def pipe(*ops: OpDesc) -> Pipe:
    return Pipe(ops)


def annotate_pipe(p: Pipe, model: TargetCostModel) -> Pipe:
    """Like ``annotate_ops`` but, as in the reference, without the VGPR fields."""
    out = []
    for op in p.ops:
        if op.tag < TargetCostModel.SIZE:
            c = model.get_cost(op.tag)
            op = op.with_(resource=c.resource, latency=c.latency, role=c.role)
        out.append(op)
    return Pipe(out)


class EntryBuilder:
    """Appends entries of one phase with slot = position."""

    def __init__(self, phase: Phase) -> None:
        self.phase = phase
        self.entries: list[ScheduleEntry] = []

    def emit(self, op: OpDesc, is_prefetch: bool = False) -> None:
        self.entries.append(ScheduleEntry(op, len(self.entries), self.phase, is_prefetch))

    def emit_if(self, op: OpDesc) -> None:
        if op.is_present():
            self.emit(op)

    def emit_flag(self, op: OpDesc, is_prefetch: bool) -> None:
        if op.is_present():
            self.emit(op, is_prefetch)
