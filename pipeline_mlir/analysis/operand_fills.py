"""Which bytes of which MFMA operand each fragment read of the tagged loop fills.

The ISA check holds every ``ds_read`` to the LDS bytes of a planned fragment read
(:mod:`pipeline_mlir.isa.frag_addresses`); which planned read of a gap a ``ds_read`` is
follows from where its result goes: the bytes of the MFMA operand (A or B) its
destination registers are.  The IR says where each read's bytes go: :func:`operand_fills`
follows every byte of each tagged ``vector.load``'s result through the pure vector ops
that move elements within a lane (:func:`~pipeline_mlir.analysis.vector_moves.moved`,
``vector.bitcast`` of another element size byte for byte) and the loop's carried values
(``scf.yield`` into the body's arguments) to the ``amdgpu.mfma`` / ``amdgpu.scaled_mfma``
that read it as A or B (the project's kernels concatenate a fragment's two parts in
order, part 0 the operand's bytes 0..15; a shuffle may take them in any order).

Per read the result is a set of :class:`Feed` s: (operand, mapping), ``mapping[k]`` the
operand byte the read's byte ``k`` is (-1: not in that operand), and which MFMA that is:
its accumulator (the loop's carried value its chain of accumulators starts from, counted
from 0 as ``iter_args`` lists them; None where the chain starts from another value), its position in
that chain in one iteration of the body (0: the MFMA that reads the carried value), the
chain's length, and the ``sched.mma`` id of its schedule entry (-1: untagged).  A read
feeding several MFMAs has one entry per MFMA.  A read whose bytes reach no MFMA operand
through those ops (an op the walk does not follow) feeds nothing: the ISA check then does
not hold which part it is, and says so.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pipeline_mlir.analysis.ir_facts import element_bytes
from pipeline_mlir.analysis.vector_moves import MOVES, int_list, moved, vector_shape
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op

__all__ = ["Feed", "operand_feeds"]

#: the ops whose operands 0 and 1 are an MFMA's A and B
_MFMAS = ("amdgpu.mfma", "amdgpu.scaled_mfma")
#: the ops the walk reads
_FOLLOWED = frozenset({"vector.load", "scf.yield", *_MFMAS, *MOVES})
#: a byte id: the read's place in ``loads`` times this, plus the byte (-1: no read's)
_SPAN = 1 << 16


def _bytes_of(t) -> int:
    """Bytes per element of a vector or scalar type (0: not a plain number)."""
    try:
        return element_bytes(ir.VectorType(t) if isinstance(t, ir.VectorType) else t)
    except (ValueError, TypeError):
        return 0


class Feed(NamedTuple):
    """One MFMA operand place a read's bytes fill (the module docstring)."""

    operand: str            # "A" or "B"
    mapping: tuple          # per byte of the read, the operand's byte (-1: none)
    acc: int | None         # the accumulator: the carried value its chain starts from
    pos: int                # the MFMA's place in that chain, in one iteration
    length: int             # the chain's MFMAs per iteration
    mma: int                # the ``sched.mma`` id of the MFMA (-1: none)


def operand_feeds(loop, loads: list) -> list[frozenset]:
    """Per op of ``loads`` (tagged ``vector.load`` s inside ``loop``, an ``scf.for``), the
    :class:`Feed` s of its bytes (the module docstring)."""
    ids = {}
    for n, op in enumerate(loads):
        r = op.results[0]
        shape, b = vector_shape(r.type), _bytes_of(r.type)
        count = int(np.prod(shape)) if shape else 1
        ids[r] = np.arange(count * b, dtype=np.int64).reshape(shape + [b]) + n * _SPAN
    body = loop.regions[0].blocks[0]
    carried = list(body.arguments)[1:]
    values: dict = {}
    fills: list[set] = [set() for _ in loads]
    # the ops that move a read's bytes (read once: the walk goes twice)
    ops = [(op, name) for op in _ops(body) if (name := op.name) in _FOLLOWED]
    chains = _chains(body, [op for op, name in ops if name in _MFMAS])
    for _round in range(2):     # the second with the carried values the first yields
        for op, name in ops:
            if name == "scf.yield":
                if _op(op.parent) == _op(loop):
                    for arg, v in zip(carried, op.operands):
                        if v in values:
                            values[arg] = values[v]
                continue
            _step(op, name, values, ids, fills, _round, chains)
    out = []
    for n, op in enumerate(loads):
        width = ids[op.results[0]].size
        out.append(frozenset(Feed(o, tuple(_mapping(p, width)), *mfma)
                             for o, p, mfma in fills[n]))
    return out


def _chains(body, mfmas: list) -> dict:
    """Per MFMA op of ``mfmas`` (the body's, in text order): (accumulator, position,
    length, ``sched.mma`` id) as :class:`Feed` names them."""
    carried = {a: k for k, a in enumerate(list(body.arguments)[1:])}
    results = {}
    place = {}
    for op in mfmas:
        c = list(op.operands)[2]
        if c in carried:
            acc, pos = carried[c], 0
        elif c in results:
            acc, pos = results[c][0], results[c][1] + 1
        else:
            acc, pos = None, 0
        results[op.results[0]] = (acc, pos)
        place[op] = (acc, pos)
    length: dict = {}
    for acc, pos in place.values():
        length[acc] = max(length.get(acc, 0), pos + 1)
    return {op: (acc, pos, length[acc] if acc is not None else 0, _mma_id(op))
            for op, (acc, pos) in place.items()}


def _mma_id(op) -> int:
    """The ``id`` of the ``sched.mma`` tag of ``op`` (-1: none)."""
    try:
        return ir.IntegerAttr(ir.DictAttr(op.attributes["sched.mma"])["id"]).value
    except (KeyError, ValueError, TypeError):
        return -1


def _mapping(places: tuple, width: int) -> list[int]:
    m = [-1] * width
    for k, p in places:
        m[k] = p
    return m


def _ops(block):
    """The ops of ``block`` and of the regions nested in them, in text order."""
    for o in block.operations:
        o = _op(o)
        yield o
        for region in o.regions:
            for blk in region.blocks:
                yield from _ops(blk)


def _step(op, name: str, values: dict, ids: dict, fills: list, final: int,
          chains: dict) -> None:
    """``values`` (value -> per-element byte ids) after ``op`` (``ids``: each read's
    result's); an MFMA's operands' places recorded in ``fills`` (on the ``final`` round
    only), each with the MFMA's place in its chain (``chains``)."""
    if name == "vector.load":
        r = op.results[0]
        if r in ids:
            values[r] = ids[r]
        return
    if name in _MFMAS:
        if not final:
            return
        for operand, v in zip("AB", list(op.operands)[:2]):
            a = values.get(v)
            if a is None:
                continue
            flat = a.reshape(-1)
            per: dict[int, set] = {}
            for p, x in enumerate(flat):
                if x >= 0:
                    per.setdefault(int(x) // _SPAN, set()).add((int(x) % _SPAN, p))
            for n, places in per.items():
                fills[n].add((operand, tuple(sorted(places)), chains[op]))
        return
    if len(op.results) != 1:
        return
    ins = _inputs(op)
    if ins is None:
        return
    arrays = [values.get(v) for v, _ in ins]
    if all(a is None for a in arrays):
        return
    arrays = [a if a is not None else _unknown(v) for a, (v, _) in zip(arrays, ins)]
    if any(a is None for a in arrays):
        return
    position = ins[0][1]
    r = op.results[0]
    b = _bytes_of(r.type)
    if op.name == "vector.bitcast":     # byte for byte, the element size may change
        flat = arrays[0].reshape(-1)
        shape = vector_shape(r.type)
        if not b or flat.size != int(np.prod(shape)) * b:
            return
        values[r] = flat.reshape(shape + [b])
        return
    try:
        out = moved(op, arrays, 1, position)
    except (ValueError, IndexError):
        return
    if out is not None and out.shape[-1] == b:
        values[r] = out


def _unknown(v):
    """Per-element byte ids of a value no read's bytes are in (None: no plain number)."""
    shape, b = vector_shape(v.type), _bytes_of(v.type)
    return np.full(shape + [b], -1, dtype=np.int64) if b else None


def _inputs(op):
    """(value, position) of the operands of ``op`` that carry data, the first with the
    extract's or insert's static position (None: a dynamic one)."""
    operands = list(op.operands)
    position = None
    if op.name in ("vector.extract", "vector.insert"):
        try:
            pos = int_list(op, "static_position")
        except (KeyError, ValueError, TypeError):
            return None
        if any(p < 0 for p in pos):     # a dynamic position
            return None
        position = tuple(pos)
        operands = operands[:1] if op.name == "vector.extract" else operands[:2]
    elif op.name == "vector.insert_strided_slice":
        operands = operands[:2]
    elif op.name in ("vector.extract_strided_slice", "vector.bitcast",
                     "vector.shape_cast", "vector.transpose", "vector.broadcast"):
        operands = operands[:1]
    return [(v, position) for v in operands]
