"""What decides which elements a kernel's writes of its output write, as one text.

:func:`~pipeline_mlir.analysis.output_tiles.check_grid_covers` evaluates, for every
workgroup of the grid, the elements each write of the output writes; the front end asks it
several times while it rewrites the K-loop (the kept masks' proof, the cut runs', IREE's
prefetch rolled back), each time of a kernel whose text differs, though its writes of C do
not.  :func:`writes_key` names what the evaluation reads, so that an answer is reused only
for the same question:

* each write op (``WRITES``): its name, attributes and operand types, and the values of
  every operand but the one it stores, whose type alone decides how many elements it
  writes;
* every op those values are computed from, transitively (its name, attributes, operand
  values and result types); an op with regions among them, whose results the writes
  read (an index an ``scf.if`` yields), printed whole;
* every op around a write up to the function (an ``scf.forall`` over workgroups, an
  ``scf.for`` over a tile's rows, an ``scf.if`` guard, the function itself): its name,
  attributes and operand values, and the slices of those operands; not its other ops,
  which decide what is stored, not where.

A value is named by the op that makes it (numbered in the order met) and its result
number, a block argument by its block's op and position: two kernels get one key when
their writes read the same computations, whatever else differs (the K-loop rewritten).
"""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op

#: write ops -> the position of the value they store (its type alone is read)
STORED = {"vector.transfer_write": 0, "vector.store": 0, "memref.store": 0,
          "vector.scatter": 4, "memref.copy": 0}


class _Slice:
    """The ops met so far, numbered, and the key's lines."""

    def __init__(self) -> None:
        self.ids: dict = {}
        self.lines: list[str] = []

    def value(self, v) -> str:
        """The name of value ``v``, its defining op (or block's op) added first."""
        owner = v.owner
        if isinstance(owner, ir.Block):
            return f"arg{ir.BlockArgument(v).arg_number}@{self.header(_op(owner.owner))}"
        op = _op(owner)
        n = self.full(op) if len(op.regions) else self.plain(op)
        return f"%{n}#{ir.OpResult(v).result_number}"

    def _number(self, op, text: str) -> int:
        n = len(self.ids)
        self.ids[op] = n
        self.lines.append(f"{n}: {text}")
        return n

    def plain(self, op) -> int:
        """Op ``op`` (no regions) and its operands' slices."""
        if op in self.ids:
            return self.ids[op]
        operands = [self.value(x) for x in op.operands]
        return self._number(op, f"{op.name} {_attrs(op)} ({', '.join(operands)}) -> "
                                f"{[str(r.type) for r in op.results]}")

    def full(self, op) -> int:
        """Op ``op`` with regions whose results are read: printed whole."""
        if op in self.ids:
            return self.ids[op]
        operands = [self.value(x) for x in op.operands]
        return self._number(op, f"({', '.join(operands)}) {op}")

    def header(self, op) -> int:
        """An op around a write (or a block's owner): its name, attributes and operands."""
        if op in self.ids:
            return self.ids[op]
        n = self._number(op, f"{op.name} {_attrs(op)}")
        operands = [self.value(x) for x in op.operands]
        self.lines.append(f"{n} operands: {', '.join(operands)}")
        return n


def _attrs(op) -> str:
    names = [a if isinstance(a, str) else a.name for a in op.attributes]
    return "{" + ", ".join(f"{n} = {op.attributes[n]}" for n in sorted(names)) + "}"


def writes_key(f, writes: list) -> str:
    """The text that decides the elements ``writes`` (ops of function ``f``) write
    (module docstring)."""
    s = _Slice()
    f = _op(f)
    for w in writes:
        w = _op(w)
        chain, p = [], w.parent
        while p is not None and _op(p) != f:
            chain.append(_op(p))
            p = _op(p).operation.parent
        s.header(f)
        for a in reversed(chain):
            s.header(a)
        stored = STORED.get(w.name)
        operands = [f"type {x.type}" if i == stored else s.value(x)
                    for i, x in enumerate(w.operands)]
        s._number(w, f"write {w.name} {_attrs(w)} ({', '.join(operands)}) in "
                     f"{[s.ids[a] for a in chain]}")
    return "\n".join(s.lines)
