"""``sched-buffer-soffset``: a buffer->LDS copy's wave-uniform offset goes into ``soffset``.

A global->LDS copy through a buffer (``amdgpu.gather_to_lds`` from a fat raw buffer, in
the LLVM dialect ``rocdl.load.to.lds`` on a ``!llvm.ptr<7>``) has one 32-bit offset, which
LLVM puts in the instruction's per-lane VGPR offset (``voffset``).  In a K-loop that
offset is a lane's loop-invariant position plus the K column, which is the same for the
whole wave: LLVM then spends a vector add per copy per iteration on it.  The instruction
has a second, scalar offset (``soffset``, an SGPR added to the address by the hardware);
this pass splits each copy's offset into the part that varies across lanes (kept in
``voffset``, usually loop-invariant) and the wave-uniform part (moved to ``soffset``), and
emits ``rocdl.raw.ptr.buffer.load.lds`` on the same buffer descriptor
(``rocdl.make.buffer.rsrc`` as ``!llvm.ptr<8>``) with the copy's size, immediate offset
and cache bits unchanged.

What the pass proves:

* **The offset.**  The copy's pointer is a chain of ``llvm.getelementptr`` with one index
  each (dynamic or constant) on a buffer made by ``rocdl.make.buffer.rsrc``, the elements
  of a known size; the byte offset is the sum of the indices times the element sizes.
* **Exact index forms.**  Every integer the offset is computed from gets a *form*: an exact
  sum ``c1*a1 + c2*a2 + ... + k`` over *atoms* (integers with a known range whose value is
  fixed where they are used): an SSA value the analysis does not see through (a kernel
  argument, a loop counter, a load), the wave's index and the lane's (``workitem.id.x =
  64 * wave + lane`` when the block's x size is a multiple of 64), and ``floordiv``,
  ``mod``, ``xor`` or the product of exact forms.  Sums and differences of forms cancel
  exactly, so ``(x + r) - x`` is ``r``.  A form is only used where it is the value's
  signed value exactly: an ``add``/``sub``/``mul``/``shl`` of fewer than 64 bits must be
  proven not to wrap (its range fits the width, or the op carries ``nsw``); otherwise the
  value is an atom of its own, with the range its type allows.
* **The rules**, each applied only where its condition is proven from the ranges:
  ``udiv``/``urem``/``lshr`` of a non-negative value, ``sdiv``/``srem`` of a value of
  one sign, ``ashr`` and ``and`` with ``2^k - 1`` or ``-2^k`` of any value are floor
  division and modulo by positive constants; ``floordiv(d*q + r, d) = q + floordiv(r, d)``,
  ``floordiv(g*s + t, g*e) = floordiv(s, e)`` and ``mod(g*s + t, g*e) = g*mod(s, e) + t``
  when ``0 <= t < g``, and both fold to constants when ``r`` stays within one multiple
  of ``d``; ``or``/``xor`` of values with disjoint bits (``x`` a multiple of ``2^k``,
  ``0 <= y < 2^k``, or ``or disjoint``) is a sum; ``icmp`` is decided from the range of the
  difference of its operands, and ``select`` / ``and``/``or`` of ``i1`` / ``smax`` etc.
  fold when it is; casts keep the form when the value fits.
* **Ranges.**  Constants; ``workitem.id`` within the block size (or the op's ``range``);
  ``workgroup.id`` in dimension ``d`` below ``ceil((2^32 - 1) / block_d)`` (a dispatch's
  grid size is a 32-bit count of work-items); loop counters (block arguments) by a fixed
  point over the branches with widening, narrowed by the condition of the branch that
  guards a block (``i < 128`` bounds ``i`` in the loop body).
* **The split.**  The offset is split along its definition into SSA values each of which
  is wave-uniform or lane-varying as a whole (descending through ``add``, ``sub``,
  multiplication by constants, casts, decided selects and disjoint ``or``s wherever the
  value's form is the same combination of its operands' forms); an atom is uniform when
  it is a constant, a kernel argument, ``workgroup.id``, the wave's index,
  ``readfirstlane`` or arithmetic on them, or a block argument whose every incoming value
  is uniform in a function with no lane-dependent branch.  Both parts, as exact sums,
  must be provably non-negative: the hardware adds ``soffset`` to ``voffset`` without
  wrapping at 32 bits and range-checks the sum, so a negative part would turn an in-range
  access into an out-of-range one.  A copy it cannot prove this for is left as it is.

What it emits besides: a uniform part computed from a lane's id (the wave's index
``tid / 64``, which LLVM's own analysis takes for lane-varying) goes through
``readfirstlane`` once, where it is defined, so that LLVM keeps ``soffset`` in SGPRs
(otherwise it loops over the distinct values of a "varying" ``soffset`` at every copy).
The same for the copy's LDS address when it is wave-uniform by the same analysis (a
global's address plus uniform indices): the hardware takes it from ``M0``, which LLVM
otherwise fills with a ``v_readfirstlane`` at every copy; for a uniform address reading it
once is the same value.

What it assumes: the copy's byte offset, as a true integer, stays below 2^32 (no buffer is
larger), i.e. the 64-bit index arithmetic does not overflow; an offset beyond that wraps
around the buffer before the split and is out of range after it.  Workgroup ids are below
2^31 in a dimension whose block size is 1 or not stated (elsewhere this follows from the
grid size).  Only the division of work changes: the address and the range check
(``voffset + soffset + offset < num_records`` on CDNA) are the same.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline_mlir.dialect.bindings import ir, llvm, rocdl
from pipeline_mlir.analysis.loop_eval import WAVE, segments
from pipeline_mlir.passes._common import (BLOCK_SIZE_ATTRS, KERNEL_MARKERS, ModulePass, OpError,
                                          as_operation, attr_dict, collect_ops)

#: ops whose result is wave-uniform whatever their operands (none here take operands that
#: could make them vary) -- the workgroup's position and the broadcast of one lane
_UNIFORM_SOURCES = frozenset({
    "llvm.mlir.constant", "llvm.mlir.addressof", "llvm.mlir.zero", "llvm.mlir.undef",
    "llvm.mlir.poison", "rocdl.workgroup.id.x", "rocdl.workgroup.id.y",
    "rocdl.workgroup.id.z", "rocdl.readfirstlane", "rocdl.workgroup.dim.x",
    "rocdl.workgroup.dim.y", "rocdl.workgroup.dim.z", "rocdl.grid.dim.x", "rocdl.grid.dim.y",
    "rocdl.grid.dim.z",
})

#: side-effect-free ops whose result is uniform when all their operands are
_PURE = frozenset({
    "llvm.add", "llvm.sub", "llvm.mul", "llvm.udiv", "llvm.sdiv", "llvm.urem", "llvm.srem",
    "llvm.shl", "llvm.lshr", "llvm.ashr", "llvm.and", "llvm.or", "llvm.xor", "llvm.zext",
    "llvm.sext", "llvm.trunc", "llvm.icmp", "llvm.select", "llvm.bitcast", "llvm.ptrtoint",
    "llvm.inttoptr", "llvm.getelementptr", "llvm.intr.umax", "llvm.intr.umin",
    "llvm.intr.smax", "llvm.intr.smin", "llvm.extractvalue", "llvm.insertvalue",
    "rocdl.make.buffer.rsrc",
})

_NO_FLAGS = llvm.IntegerOverflowFlags.none     # the emitted arithmetic claims no wrap flags
_DYNAMIC_INDEX = -2147483648      # a GEP's rawConstantIndices entry for a dynamic index


def _defining_op(value):
    """The op that defines ``value``, None for a block argument."""
    owner = value.owner
    return None if isinstance(owner, ir.Block) else as_operation(owner)


def _const_int(value) -> int | None:
    op = _defining_op(value)
    if op is None or op.name != "llvm.mlir.constant":
        return None
    attr = op.attributes["value"]
    return attr.value if isinstance(attr, ir.IntegerAttr) else None


def overflow_flags(op) -> int:
    """The ``overflowFlags`` of an LLVM integer op (``nsw`` = 1, ``nuw`` = 2; 0 when it has
    none).  The flags are a property of the op, which the bindings do not list among its
    attributes: they are read from the op's generic form, the property dictionary
    ``<{...}>`` that follows the operands, parsed as an attribute (a discardable attribute
    that merely mentions ``nsw`` is not read)."""
    text = op.get_asm(print_generic_op_form=True)
    start = text.find(") <{", text.find('"' + op.name + '"('))
    if start < 0:
        return 0
    props = ir.DictAttr(ir.Attribute.parse(_balanced(text, start + 3)))
    if "overflowFlags" not in props:
        return 0
    return ir.IntegerAttr(props["overflowFlags"]).value


def _balanced(text: str, start: int) -> str:
    """The ``{...}`` that opens at ``text[start]``, its nested braces and quoted strings
    included."""
    depth, quoted, i = 0, False, start
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    raise ValueError(f"unbalanced braces in {text!r}")


def _width(value) -> int | None:
    t = value.type
    return t.width if isinstance(t, ir.IntegerType) else None


class _Function:
    """The control flow of one ``llvm.func``: which values reach each block argument (and
    along which edge), each block's predecessors, and the uniformity of every value
    (:meth:`uniform`)."""

    def __init__(self, func) -> None:
        self.kernel = any(m in func.attributes for m in KERNEL_MARKERS)
        #: the block's [x, y, z] size when the function states it
        self.block_size = None
        for name in BLOCK_SIZE_ATTRS:
            if name in func.attributes:
                self.block_size = list(ir.DenseI32ArrayAttr(func.attributes[name]))
        self.block_x = self.block_size[0] if self.block_size else None
        blocks = list(func.regions[0].blocks)
        self.entry = blocks[0] if blocks else None
        self._blocks = blocks
        self._ids = {b: i for i, b in enumerate(blocks)}
        #: (block, argument number) -> [(value, predecessor, terminator, successor number)];
        #: None: unknown (a branch whose operands are not followed passes to it)
        self.edges: dict = {}
        #: block -> [(predecessor, terminator, successor number)], one entry per edge
        self.preds: dict = {}
        #: the conditions of the function's branches
        self.conditions: list = []
        self.divergent_branch = False
        self._uniform: dict = {}
        for block in blocks:
            ops = list(block.operations)
            if not ops:
                continue
            self._record_branch(self._block_key(block), ops[-1].operation)

    def _block_key(self, block) -> int:
        key = self._ids.get(block)
        if key is None:
            raise KeyError("block outside the function")
        return key

    def arg_key(self, arg) -> tuple[int, int]:
        """``(block, argument number)`` of a block argument."""
        return self._block_key(arg.owner), arg.arg_number

    def argument(self, key: tuple[int, int]):
        """The block argument ``(block, argument number)``."""
        return self._blocks[key[0]].arguments[key[1]]

    def block_of(self, value) -> int:
        """The number of the block that defines ``value``."""
        op = _defining_op(value)
        if op is None:
            return self._block_key(ir.BlockArgument(value).owner)
        return self._block_key(op.block)

    def _record_branch(self, here: int, term) -> None:
        succs = list(term.successors)
        if not succs:
            return
        for pos, s in enumerate(succs):
            self.preds.setdefault(self._block_key(s), []).append((here, term, pos))
        if term.name == "llvm.br":
            groups = [list(term.operands)]
        elif term.name == "llvm.cond_br":
            (cond,), *groups = segments(term)
            self.conditions.append(cond)
        else:  # a switch or anything else: its block arguments are not followed
            for s in succs:
                for i in range(len(s.arguments)):
                    self.edges[(self._block_key(s), i)] = None
            self.conditions += list(term.operands)[:1]
            return
        for pos, (s, vals) in enumerate(zip(succs, groups)):
            for i, v in enumerate(vals):
                seen = self.edges.setdefault((self._block_key(s), i), [])
                if seen is not None:
                    seen.append((v, here, term, pos))

    def incoming(self, key) -> list | None:
        """The values branches pass to block argument ``key``; None: unknown."""
        edges = self.edges.get(key, [])
        return None if edges is None else [e[0] for e in edges]

    # ---- uniformity ----------------------------------------------------------------------

    def analyse(self) -> None:
        """Fix the uniformity of every block argument (optimistic, then refuted)."""
        self._arg_uniform: dict = dict.fromkeys(self.edges, True)
        changed = True
        while changed:
            changed = False
            self._uniform = {}
            for key in self.edges:
                if not self._arg_uniform[key]:
                    continue
                vals = self.incoming(key)
                if vals is None or not all(self.uniform(v) for v in vals):
                    self._arg_uniform[key] = False
                    changed = True
        self.divergent_branch = not all(self.uniform(c) for c in self.conditions)
        self._uniform = {}

    def uniform(self, value) -> bool:
        hit = self._uniform.get(value)
        if hit is not None:
            return hit
        self._uniform[value] = False   # a cycle through ops (not block arguments): varying
        result = self._uniform_of(value)
        self._uniform[value] = result
        return result

    def _uniform_of(self, value) -> bool:
        if isinstance(value.owner, ir.Block):
            arg = ir.BlockArgument(value)
            if arg.owner == self.entry:
                return self.kernel          # kernel arguments live in SGPRs
            if self.divergent_branch:
                return False
            return self._arg_uniform.get(self.arg_key(arg), False)
        op = _defining_op(value)
        if op.name in _UNIFORM_SOURCES:
            return True
        if op.name in ("llvm.udiv", "llvm.lshr") and self._wave_index(op):
            return True
        if op.name in _PURE:
            return all(self.uniform(v) for v in op.operands)
        return False

    def from_lanes(self, value) -> bool:
        """Whether ``value`` is computed from a lane's own id (``workitem.id``, ``mbcnt``)
        other than through ``readfirstlane``: LLVM then treats it as varying across the
        wave even where this pass proves it uniform."""
        stack, seen = [value], set()
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            op = _defining_op(v)
            if op is None:
                arg = ir.BlockArgument(v)
                if arg.owner != self.entry:
                    stack += self.incoming(self.arg_key(arg)) or []
                continue
            if op.name.startswith(("rocdl.workitem.id.", "rocdl.mbcnt.")):
                return True
            if op.name != "rocdl.readfirstlane":
                stack += list(op.operands)
        return False

    def _wave_index(self, op) -> bool:
        """Whether ``op`` divides the thread's x index by a multiple of the wave size (64
        on gfx9): the wave's index, the same in all its lanes when the block's x size is a
        multiple of 64 (waves are cut from the linear thread index)."""
        ops = list(op.operands)
        c = _const_int(ops[1])
        if c is None or self.block_x is None or self.block_x % WAVE:
            return False
        if (op.name == "llvm.udiv" and (c <= 0 or c % WAVE)) or \
                (op.name == "llvm.lshr" and not 6 <= c < 64):
            return False
        x = ops[0]
        while (d := _defining_op(x)) is not None and d.name in ("llvm.zext", "llvm.sext"):
            x = d.operands[0]
        d = _defining_op(x)
        return d is not None and d.name == "rocdl.workitem.id.x"


# ---- index forms: exact sums over atoms ----------------------------------------------------

#: a bound standing for "unbounded" in a branch's facts (beyond every integer type the
#: pass meets; ranges themselves are exact Python integers, never cut)
_BIG = 1 << 80


def _signed(value: int, width: int) -> int:
    """``value`` modulo 2^width as a signed integer of ``width`` bits (an i1's true: -1)."""
    return (value + (1 << (width - 1))) % (1 << width) - (1 << (width - 1))


def _signed_range(width: int) -> tuple[int, int]:
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


def _fits(rng, width: int) -> bool:
    """Whether every value of ``rng`` is a signed integer of ``width`` bits (vacuously
    for None: a value that does not occur yet, during the fixed point)."""
    if rng is None:
        return True
    lo, hi = _signed_range(width)
    return lo <= rng[0] and rng[1] <= hi


def _hull(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return min(a[0], b[0]), max(a[1], b[1])


def _meet(a, b):
    """``a`` narrowed by ``b``; an empty meet keeps ``a`` (the point is unreachable)."""
    if a is None or b is None:
        return a
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else a


def _within(a, b) -> bool:
    return a is None or (b is not None and b[0] <= a[0] and a[1] <= b[1])


def _nonneg(rng) -> bool:
    return rng is None or rng[0] >= 0


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


class _Atom:
    """An integer whose value is fixed wherever it is used: an SSA value, the wave's or
    the lane's index, or floordiv / mod / xor / the product of exact forms.  Interned by
    ``key``, so equal atoms are one object."""

    __slots__ = ("kind", "key", "args", "uniform")

    def __init__(self, kind: str, key, args: tuple, uniform: bool) -> None:
        self.kind, self.key, self.args, self.uniform = kind, key, args, uniform


class _Form:
    """``sum(coeff * atom) + const``: the signed value of an SSA integer, exactly."""

    __slots__ = ("terms", "const", "_key")

    def __init__(self, terms: dict | None = None, const: int = 0) -> None:
        self.terms = {a: c for a, c in (terms or {}).items() if c}
        self.const = const
        self._key = None

    @property
    def key(self):
        if self._key is None:
            self._key = (frozenset((a.key, c) for a, c in self.terms.items()), self.const)
        return self._key

    def __eq__(self, other) -> bool:
        return isinstance(other, _Form) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def plus(self, other: "_Form", sign: int = 1) -> "_Form":
        terms = dict(self.terms)
        for a, c in other.terms.items():
            terms[a] = terms.get(a, 0) + sign * c
        return _Form(terms, self.const + sign * other.const)

    def times(self, k: int) -> "_Form":
        return _Form({a: c * k for a, c in self.terms.items()}, self.const * k)

    def split(self, d: int) -> tuple["_Form", "_Form"]:
        """``(q, r)`` with ``self = d*q + r``, r's coefficients and constant in ``[0, d)``."""
        q = {a: c // d for a, c in self.terms.items()}
        r = {a: c % d for a, c in self.terms.items()}
        return _Form(q, self.const // d), _Form(r, self.const % d)

    def constant(self) -> int | None:
        return None if self.terms else self.const

    def kinds(self) -> set:
        """``'u'`` for each uniform atom, ``'v'`` for each other."""
        return {"u" if a.uniform else "v" for a in self.terms}

    def uniform(self) -> bool:
        return all(a.uniform for a in self.terms)


def _const(k: int) -> _Form:
    return _Form(None, k)


#: icmp predicates (LLVM's numbering) -> (relation of a - b to 0, unsigned)
_PREDICATES = {0: ("eq", False), 1: ("ne", False), 2: ("lt", False), 3: ("le", False),
               4: ("gt", False), 5: ("ge", False), 6: ("lt", True), 7: ("le", True),
               8: ("gt", True), 9: ("ge", True)}
_NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "le": "gt", "gt": "le", "ge": "lt"}
_RANGE_RE = re.compile(r"constant_range<i\d+,\s*(-?\d+),\s*(-?\d+)>")
#: ops that are floor division / modulo by a positive constant (a power of two for the
#: shifts) of a non-negative value (``ashr``: of any value)
_FLOORDIV = frozenset({"llvm.udiv", "llvm.sdiv", "llvm.lshr", "llvm.ashr"})
_MOD = frozenset({"llvm.urem", "llvm.srem"})
_MINMAX = {"llvm.intr.smax": (max, False), "llvm.intr.smin": (min, False),
           "llvm.intr.umax": (max, True), "llvm.intr.umin": (min, True)}


def _decide(rel: str, rng) -> bool | None:
    """Whether ``x <rel> 0`` for every x in ``rng`` (True), for none (False), or either."""
    if rng is None:
        return None
    lo, hi = rng
    yes = {"lt": hi < 0, "le": hi <= 0, "gt": lo > 0, "ge": lo >= 0,
           "eq": lo == hi == 0, "ne": lo > 0 or hi < 0}[rel]
    no = {"lt": lo >= 0, "le": lo > 0, "gt": hi <= 0, "ge": hi < 0,
          "eq": lo > 0 or hi < 0, "ne": lo == hi == 0}[rel]
    return True if yes else False if no else None


class _Index:
    """Exact forms and ranges of a function's integers (see the module docstring)."""

    _DEPTH = 400     # deeper definition chains end in an atom (Python's recursion limit)

    def __init__(self, fn: _Function) -> None:
        self.fn = fn
        self._atoms: dict = {}
        #: (block, argument number) -> range of the block argument; None: no value yet
        self.arg_range: dict = {}
        self._reset()

    def _reset(self) -> None:
        self._forms: dict = {}
        self._opaque: dict = {}
        self._facts: dict = {}
        self._truth: dict = {}
        self._depth = 0

    # ---- atoms ------------------------------------------------------------------------

    def _atom(self, kind: str, key, args: tuple, uniform: bool) -> _Atom:
        a = self._atoms.get(key)
        if a is None:
            a = self._atoms[key] = _Atom(kind, key, args, uniform)
        return a

    def _value_atom(self, value) -> _Form:
        return _Form({self._atom("value", ("value", value), (value,),
                                 self.fn.uniform(value)): 1})

    def _opaque_form(self, value, rng) -> _Form:
        """``value`` as an atom of its own, its values within ``rng`` (and its type)."""
        self._opaque[value] = _meet(_signed_range(_width(value)), rng)
        return self._value_atom(value)

    def _derived(self, kind: str, forms: tuple, param: int = 0) -> _Form:
        if kind in ("xor", "mul"):
            key = (kind, frozenset(Counter(f.key for f in forms).items()))
        else:
            key = (kind, forms[0].key, param)
        uniform = all(f.uniform() for f in forms)
        return _Form({self._atom(kind, key, forms + (param,), uniform): 1})

    def atom_range(self, atom: _Atom, ctx: dict):
        rng = self._atom_base(atom, ctx)
        fact = ctx.get(atom)
        return _meet(rng, fact) if fact is not None and rng is not None else rng

    def _atom_base(self, atom: _Atom, ctx: dict):
        kind, args = atom.kind, atom.args
        if kind == "value":
            return self._value_range(args[0])
        if kind == "wave":
            return 0, self.fn.block_x // WAVE - 1
        if kind == "lane":
            return 0, WAVE - 1
        if kind == "floordiv":
            r = self.range(args[0], ctx)
            return None if r is None else (r[0] // args[1], r[1] // args[1])
        if kind == "mod":
            return 0, args[1] - 1
        ranges = [self.range(f, ctx) for f in args[:2]]
        if any(r is None for r in ranges):
            return None
        if kind == "xor":     # of non-negative values (proven where it was made)
            top = max(max(r[1] for r in ranges), 0)
            return 0, (1 << top.bit_length()) - 1
        (alo, ahi), (blo, bhi) = ranges       # mul
        p = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        return min(p), max(p)

    def _value_range(self, value):
        if isinstance(value.owner, ir.Block):   # the entry block's: no branch passes them
            return self.arg_range.get(self.fn.arg_key(ir.BlockArgument(value)),
                                      _signed_range(_width(value)))
        f = self.form(value)
        if value in self._opaque and len(f.terms) == 1 and next(iter(f.terms)).args == (value,):
            return self._opaque[value]
        return self.range(f, self.ctx(self.fn.block_of(value)))

    def range(self, form: _Form, ctx: dict):
        """The least and greatest value of ``form`` (None: no value yet)."""
        lo = hi = form.const
        for atom, c in form.terms.items():
            r = self.atom_range(atom, ctx)
            if r is None:
                return None
            lo += c * (r[0] if c > 0 else r[1])
            hi += c * (r[1] if c > 0 else r[0])
        return lo, hi

    # ---- floor division and modulo by positive constants ---------------------------

    @staticmethod
    def _factors(r: _Form, d: int) -> list[int]:
        """Candidate g (1 < g < d, g | d) for ``r = g*s + t`` with a small ``t``."""
        gs = {math.gcd(d, c) for c in r.terms.values()}
        if r.const:
            gs.add(math.gcd(d, r.const))
        return sorted((g for g in gs if 1 < g < d), reverse=True)

    def _peel(self, r: _Form, d: int, ctx: dict):
        """``(g, s, t)`` with ``r = g*s + t``, ``0 <= t < g`` and ``g | d`` (the greatest
        such g of :meth:`_factors`), None if there is none."""
        for g in self._factors(r, d):
            s, t = r.split(g)
            trng = self.range(t, ctx)
            if trng is not None and 0 <= trng[0] and trng[1] < g:
                return g, s, t
        return None

    def floordiv(self, f: _Form, d: int, ctx: dict) -> _Form:
        if d == 1:
            return f
        q, r = f.split(d)
        rng = self.range(r, ctx)
        if rng is None:
            return q
        if rng[0] // d == rng[1] // d:
            return q.plus(_const(rng[0] // d))
        if (peeled := self._peel(r, d, ctx)) is not None:
            g, s, _ = peeled
            return q.plus(self.floordiv(s, d // g, ctx))
        return q.plus(self._derived("floordiv", (r,), d))

    def mod(self, f: _Form, d: int, ctx: dict) -> _Form:
        if d == 1:
            return _const(0)
        _, r = f.split(d)
        rng = self.range(r, ctx)
        if rng is None:
            return r
        if rng[0] // d == rng[1] // d:
            return r.plus(_const(-d * (rng[0] // d)))
        if (peeled := self._peel(r, d, ctx)) is not None:
            g, s, t = peeled
            return self.mod(s, d // g, ctx).times(g).plus(t)
        return self._derived("mod", (r,), d)

    def _disjoint(self, a: _Form, b: _Form, ctx: dict) -> bool:
        """Whether ``a`` and ``b`` have no set bit in common: one a multiple of 2^k, the
        other in [0, 2^k)."""
        for x, y in ((a, b), (b, a)):
            rng = self.range(y, ctx)
            if rng is None or rng[0] < 0:
                continue
            k = 1 << max(rng[1], 0).bit_length()
            if x.const % k == 0 and all(c % k == 0 for c in x.terms.values()):
                return True
        return False

    # ---- the form of a value ----------------------------------------------------------

    def form(self, value) -> _Form | None:
        """The exact form of an integer SSA value (None for other types)."""
        hit = self._forms.get(value)
        if hit is not None:
            return hit
        w = _width(value)
        if w is None:
            return None
        if self._depth > self._DEPTH:
            f = self._forms[value] = self._opaque_form(value, None)
            return f
        self._depth += 1
        try:
            f = self._form_of(value, w)
        finally:
            self._depth -= 1
        self._forms[value] = f
        return f

    def _exact(self, value, op, f: _Form, w: int, ctx: dict) -> _Form:
        """``f`` if it is ``value``'s signed value: 64-bit arithmetic is assumed not to
        wrap, narrower must fit its width or carry ``nsw``."""
        if w >= 64 or _fits(self.range(f, ctx), w) or \
                overflow_flags(op) & int(llvm.IntegerOverflowFlags.nsw):
            return f
        return self._opaque_form(value, None)

    def _form_of(self, value, w: int) -> _Form:
        op = _defining_op(value)
        if op is None:
            return self._value_atom(value)
        name = op.name
        ops = list(op.operands)
        ctx = self.op_ctx(op)
        if name == "llvm.mlir.constant":
            k = _const_int(value)
            if k is None:
                return self._opaque_form(value, None)
            return _const(_signed(k, w))
        if w == 1:
            t = self.truth(value)
            return _const(-1 if t else 0) if t is not None else self._opaque_form(value, None)
        if name in ("llvm.zext", "llvm.sext", "llvm.trunc"):
            return self._cast(value, name, ops[0], w, ctx)
        if name == "llvm.select":
            t = self.truth(ops[0])
            if t is not None:
                return self.form(ops[1] if t else ops[2])
            a, b = self.form(ops[1]), self.form(ops[2])
            if a == b:
                return a
            return self._opaque_form(value, _hull(self.range(a, ctx), self.range(b, ctx)))
        if name.startswith("rocdl.work"):
            return self._thread_id(value, name, op)
        if name in ("rocdl.mbcnt.lo", "rocdl.mbcnt.hi"):
            acc = self.range(self.form(ops[1]), ctx)     # plus at most 32 lanes' bits
            rng = None if acc is None else (acc[0], acc[1] + 32)
            return self._opaque_form(value, rng if _fits(rng, w) else None)
        if name == "rocdl.readfirstlane":
            a = self.form(ops[0])
            return a if a.uniform() else self._opaque_form(value, self.range(a, ctx))
        if len(ops) != 2 or any(_width(o) != w for o in ops):
            return self._opaque_form(value, None)
        a, b = self.form(ops[0]), self.form(ops[1])
        if name in ("llvm.add", "llvm.sub"):
            return self._exact(value, op, a.plus(b, 1 if name == "llvm.add" else -1), w, ctx)
        if name == "llvm.mul":
            if b.constant() is not None:
                f = a.times(b.const)
            elif a.constant() is not None:
                f = b.times(a.const)
            else:
                f = self._derived("mul", (a, b))
            return self._exact(value, op, f, w, ctx)
        c = b.constant()
        if name == "llvm.shl":
            if c is None or not 0 <= c < w:
                return self._opaque_form(value, None)
            return self._exact(value, op, a.times(1 << c), w, ctx)
        if name in _MINMAX:
            return self._minmax(value, name, a, b, ctx)
        rng = self.range(a, ctx)
        if name in ("llvm.and", "llvm.or", "llvm.xor"):
            return self._bits(value, name, op, a, b, ctx)
        if c is None or c <= 0 or (name in ("llvm.lshr", "llvm.ashr") and c >= w):
            return self._opaque_form(value, self._unsigned_result(name, c, w))
        rule = self.floordiv if name in _FLOORDIV else self.mod if name in _MOD else None
        if rule is not None:
            d = 1 << c if name in ("llvm.lshr", "llvm.ashr") else c
            if name == "llvm.ashr" or _nonneg(rng):
                return rule(a, d, ctx)
            if name in ("llvm.sdiv", "llvm.srem") and rng[1] <= 0:    # towards zero
                return rule(a.times(-1), d, ctx).times(-1)
        return self._opaque_form(value, self._unsigned_result(name, c, w))

    @staticmethod
    def _unsigned_result(name: str, c, w: int):
        """What an unsigned division / remainder / shift by ``c`` leaves of any value."""
        if c is None or c <= 0:
            return None
        if name == "llvm.udiv" and c >= 2:
            return 0, ((1 << w) - 1) // c
        if name == "llvm.urem":
            return 0, c - 1
        if name == "llvm.lshr" and 1 <= c < w:
            return 0, (1 << (w - c)) - 1
        if name == "llvm.srem":
            return -(c - 1), c - 1
        return None

    def _cast(self, value, name: str, src, w: int, ctx: dict) -> _Form:
        ws = _width(src)
        if ws is None:
            return self._opaque_form(value, None)
        a = self.form(src)
        if ws == 1:
            k = a.constant()
            if k is not None:     # the i1's signed value: true is -1
                return _const(-k if name == "llvm.zext" else k)
            return self._opaque_form(value, (0, 1) if name == "llvm.zext" else (-1, 0))
        rng = self.range(a, ctx)
        if name == "llvm.sext" or (name == "llvm.zext" and _nonneg(rng)) or \
                (name == "llvm.trunc" and _fits(rng, w)):
            return a
        return self._opaque_form(value, (0, (1 << ws) - 1) if name == "llvm.zext" else None)

    def _thread_id(self, value, name: str, op) -> _Form:
        dim = "xyz".index(name[-1]) if name[-1] in "xyz" else None
        size = self.fn.block_size[dim] if self.fn.block_size and dim is not None else None
        if name.startswith("rocdl.workitem.id."):
            if dim == 0 and size and size % WAVE == 0:
                wave = self._atom("wave", ("wave",), (), True)
                lane = self._atom("lane", ("lane",), (), False)
                return _Form({wave: WAVE, lane: 1})
            rng = (0, size - 1) if size else None
            if "range" in op.attributes:
                m = _RANGE_RE.search(str(op.attributes["range"]))
                if m and int(m.group(1)) < int(m.group(2)):
                    rng = _meet(rng or (int(m.group(1)), int(m.group(2)) - 1),
                                (int(m.group(1)), int(m.group(2)) - 1))
            return self._opaque_form(value, rng)
        if name.startswith("rocdl.workgroup.id.") and dim is not None:
            # a dimension's grid size is a 32-bit count of work-items: at most
            # ceil((2^32 - 1) / size) workgroups; below 2^31 assumed for a size of 1
            count = min(1 << 31, _ceil_div((1 << 32) - 1, size)) if size else 1 << 31
            return self._opaque_form(value, (0, count - 1))
        return self._opaque_form(value, None)

    def _minmax(self, value, name: str, a: _Form, b: _Form, ctx: dict) -> _Form:
        pick, unsigned = _MINMAX[name]
        ra, rb = self.range(a, ctx), self.range(b, ctx)
        if unsigned and not (_nonneg(ra) and _nonneg(rb)):
            return self._opaque_form(value, None)
        first = _decide("ge", self.range(a.plus(b, -1), ctx))
        if first is not None:
            return a if first == (pick is max) else b
        if ra is None or rb is None:
            return self._opaque_form(value, None)
        return self._opaque_form(value, (pick(ra[0], rb[0]), pick(ra[1], rb[1])))

    def _bits(self, value, name: str, op, a: _Form, b: _Form, ctx: dict) -> _Form:
        ra, rb = self.range(a, ctx), self.range(b, ctx)
        both = _nonneg(ra) and _nonneg(rb) and ra is not None and rb is not None
        if name == "llvm.and":
            for x, k in ((a, b.constant()), (b, a.constant())):
                if k is None:
                    continue
                if k >= 0 and k & (k + 1) == 0:            # 2^n - 1: modulo 2^n
                    return self.mod(x, k + 1, ctx)
                if k < 0 and (-k) & (-k - 1) == 0:          # -2^n: clears the low n bits
                    return x.plus(self.mod(x, -k, ctx), -1)
            # with one operand non-negative the result is within [0, that operand]
            tops = [r[1] for r in (ra, rb) if r is not None and r[0] >= 0]
            return self._opaque_form(value, (0, min(tops)) if tops else None)
        if self._disjoint(a, b, ctx) or (name == "llvm.or" and "isDisjoint" in op.attributes):
            return self._exact(value, op, a.plus(b), _width(value), ctx)
        if name == "llvm.xor" and b.constant() == 0:
            return a
        if name == "llvm.xor" and a.constant() == 0:
            return b
        if not both:
            return self._opaque_form(value, None)
        if name == "llvm.xor":
            return self._derived("xor", (a, b))
        top = max(ra[1], rb[1])
        return self._opaque_form(value, (max(ra[0], rb[0]), (1 << top.bit_length()) - 1))

    # ---- conditions ---------------------------------------------------------------------

    def truth(self, value) -> bool | None:
        """The value of an i1 wherever it is computed, if the ranges decide it."""
        if value in self._truth:
            return self._truth[value]
        self._truth[value] = None
        op = _defining_op(value)
        result = None
        if op is not None:
            name = op.name
            ops = list(op.operands)
            if name == "llvm.mlir.constant":
                k = _const_int(value)
                result = None if k is None else bool(k)
            elif name == "llvm.icmp":
                result = self._compare(op, self.op_ctx(op))
            elif name in ("llvm.and", "llvm.or", "llvm.xor") and _width(value) == 1:
                x, y = self.truth(ops[0]), self.truth(ops[1])
                if name == "llvm.and":
                    result = False if False in (x, y) else (True if x and y else None)
                elif name == "llvm.or":
                    result = True if True in (x, y) else (False if x is False and y is False
                                                          else None)
                elif x is not None and y is not None:
                    result = x != y
        self._truth[value] = result
        return result

    def _relation(self, op, ctx: dict):
        """``(relation, a - b)`` of an ``icmp a, b`` on integers, None if not usable (an
        unsigned compare of values not known to be non-negative)."""
        a, b = (self.form(v) for v in op.operands)
        if a is None or b is None:
            return None
        pred = ir.IntegerAttr(op.attributes["predicate"]).value
        rel, unsigned = _PREDICATES.get(pred, (None, False))
        if rel is None or (unsigned and not (_nonneg(self.range(a, ctx)) and
                                             _nonneg(self.range(b, ctx)))):
            return None
        return rel, a.plus(b, -1)

    def _compare(self, op, ctx: dict) -> bool | None:
        rd = self._relation(op, ctx)
        return None if rd is None else _decide(rd[0], self.range(rd[1], ctx))

    def ctx(self, block: int) -> dict:
        """Ranges of atoms that the branches leading to ``block`` bound (the branch from
        its only predecessor, and that block's, up the chain)."""
        hit = self._facts.get(block)
        if hit is not None:
            return hit
        self._facts[block] = {}
        preds = self.fn.preds.get(block, [])
        facts: dict = {}
        if block != 0 and len(preds) == 1:
            pred, term, pos = preds[0]
            facts = self.edge_ctx(pred, term, pos)
        self._facts[block] = facts
        return facts

    def op_ctx(self, op) -> dict:
        """The facts where ``op`` is (its block's)."""
        return self.ctx(self.fn._block_key(op.block))

    def edge_ctx(self, pred: int, term, pos: int) -> dict:
        """The facts on the edge from block ``pred`` (ending in ``term``) to its
        successor number ``pos``."""
        facts = dict(self.ctx(pred))
        if term.name == "llvm.cond_br":
            self._cond_facts(term.operands[0], pos == 0, facts, 0)
        return facts

    def _cond_facts(self, cond, holds: bool, facts: dict, depth: int) -> None:
        op = _defining_op(cond)
        if op is None or depth > 8:
            return
        if op.name in ("llvm.and", "llvm.or") and _width(cond) == 1:
            if (op.name == "llvm.and") == holds:      # both conditions (or both negations)
                for v in op.operands:
                    self._cond_facts(v, holds, facts, depth + 1)
            return
        if op.name != "llvm.icmp":
            return
        rd = self._relation(op, facts)
        if rd is None:
            return
        rel, d = rd
        rel = rel if holds else _NEGATED[rel]
        if len(d.terms) != 1 or rel == "ne":
            return
        (atom, k), = d.terms.items()
        m = d.const
        # k*x + m <rel> 0: bounds of x
        upper = {"lt": -1 - m, "le": -m, "eq": -m}.get(rel)        # k*x <= upper
        lower = {"gt": 1 - m, "ge": -m, "eq": -m}.get(rel)         # k*x >= lower
        lo, hi = -_BIG, _BIG
        if upper is not None:
            if k > 0:
                hi = upper // k
            else:
                lo = _ceil_div(upper, k)
        if lower is not None:
            if k > 0:
                lo = max(lo, _ceil_div(lower, k))
            else:
                hi = min(hi, lower // k)
        old = facts.get(atom)
        facts[atom] = (lo, hi) if old is None else _meet(old, (lo, hi))

    # ---- loop counters ------------------------------------------------------------------

    def _transfer(self) -> dict:
        """Each integer block argument's range from the values its branches pass."""
        self._reset()
        out = {}
        for key, edges in self.fn.edges.items():
            w = _width(self.fn.argument(key))
            if w is None:
                continue
            if edges is None:
                out[key] = _signed_range(w)
                continue
            rng = None
            for v, pred, term, pos in edges:
                f = self.form(v)
                r = self.range(f, self.edge_ctx(pred, term, pos))
                rng = _hull(rng, _meet(r, _signed_range(w)) if r is not None else None)
            out[key] = rng
        return out

    def solve(self) -> None:
        """The ranges of the block arguments: a fixed point of :meth:`_transfer`, widened
        after a few rounds, then narrowed; the result is checked to hold inductively
        (every branch passes values within the ranges it assumes), else every block
        argument gets its type's whole range."""
        widths = {k: _width(self.fn.argument(k)) for k in self.fn.edges}
        full = {k: _signed_range(w) for k, w in widths.items() if w is not None}
        self.arg_range = dict.fromkeys(full)
        for round_ in range(40):
            new = self._transfer()
            joined = {k: _hull(self.arg_range[k], new.get(k)) for k in full}
            if joined == self.arg_range:
                break
            if round_ >= 3:                 # widen what still moves to the type's bounds
                for k, r in joined.items():
                    old = self.arg_range[k]
                    if old is not None and r is not None and r != old:
                        joined[k] = (full[k][0] if r[0] < old[0] else r[0],
                                     full[k][1] if r[1] > old[1] else r[1])
            self.arg_range = joined
        else:
            self.arg_range = dict(full)
        for _ in range(2):                   # narrowing, kept while it stays inductive
            narrowed = self._transfer()
            before, self.arg_range = self.arg_range, narrowed
            if not self._inductive():
                self.arg_range = before
                break
        self.arg_range = {k: full[k] if r is None else r for k, r in self.arg_range.items()}
        if not self._inductive():
            self.arg_range = dict(full)
        self._reset()

    def _inductive(self) -> bool:
        new = self._transfer()
        return all(_within(new.get(k), r) for k, r in self.arg_range.items())

    def uniform_ptr(self, ptr) -> bool:
        """Whether an LDS address is wave-uniform: a global's address through GEPs whose
        indices are uniform."""
        for _ in range(16):
            op = _defining_op(ptr)
            if op is None:
                return False
            if op.name in _UNIFORM_SOURCES:
                return True
            if op.name != "llvm.getelementptr":
                return False
            for v in list(op.operands)[1:]:
                f = self.form(v)
                if not (self.fn.uniform(v) or (f is not None and f.uniform())):
                    return False
            ptr = op.operands[0]
        return False

    # ---- the split ----------------------------------------------------------------------

    def _pieces(self, op):
        """``[(operand, multiplier)]`` whose sum the op computes when its form is that sum."""
        name = op.name
        ops = list(op.operands)
        if name in ("llvm.add", "llvm.or", "llvm.xor"):
            return [(ops[0], 1), (ops[1], 1)]
        if name == "llvm.sub":
            return [(ops[0], 1), (ops[1], -1)]
        if name in ("llvm.zext", "llvm.sext", "llvm.trunc"):
            return [(ops[0], 1)] if (_width(ops[0]) or 1) > 1 else None
        if name == "llvm.select":
            t = self.truth(ops[0])
            return None if t is None else [(ops[1] if t else ops[2], 1)]
        if name in ("llvm.mul", "llvm.shl"):
            c = _const_int(ops[1])
            if c is None and name == "llvm.mul" and _const_int(ops[0]) is not None:
                return [(ops[1], _const_int(ops[0]))]
            if c is None or (name == "llvm.shl" and not 0 <= c < 64):
                return None
            return [(ops[0], c if name == "llvm.mul" else 1 << c)]
        return None

    def sum_form(self, terms, const: int = 0) -> _Form | None:
        """The form of ``sum(coeff * value) + const`` over ``terms`` ``[(value, coeff)]``,
        None if a value has no form."""
        forms = [self.form(v) for v, _ in terms]
        if any(g is None for g in forms):
            return None
        total = _const(const)
        for g, (_, c) in zip(forms, terms):
            total = total.plus(g.times(c))
        return total

    def leaves(self, value, coeff: int, out: "_Leaves", depth: int = 0) -> bool:
        """Split ``coeff * value`` into SSA values each wholly uniform or not (``out``);
        False if a part has no form."""
        f = self.form(value)
        if f is None:
            return False
        kinds = f.kinds()
        if not kinds:
            out.const += coeff * f.const
            return True
        op = _defining_op(value)
        if op is not None and depth < 64 and (len(kinds) > 1 or op.name in _ALWAYS_SPLIT):
            pieces = self._pieces(op)
            inner = _Leaves()
            # a mixed part is split only where that moves something to soffset
            if pieces is not None and self.sum_form(pieces) == f and \
                    all(self.leaves(v, coeff * m, inner, depth + 1) for v, m in pieces) and \
                    (len(kinds) == 1 or inner.uniform or inner.const):
                out.merge(inner)
                return True
        # a part that mixes both and is not split further is lane-varying as a whole
        (out.uniform if kinds == {"u"} else out.varying).append((value, coeff))
        return True


#: ops the split always descends into (the terms of an offset LLVM would otherwise keep
#: together), not only when they mix uniform and lane-varying parts
_ALWAYS_SPLIT = frozenset({"llvm.add", "llvm.mul", "llvm.shl"})


@dataclass
class _Leaves:
    """An offset split into uniform and lane-varying terms ``(value, coeff)`` and a
    constant."""

    uniform: list = field(default_factory=list)
    varying: list = field(default_factory=list)
    const: int = 0

    def merge(self, other: "_Leaves") -> None:
        self.uniform += other.uniform
        self.varying += other.varying
        self.const += other.const


# ---- the rewrite ---------------------------------------------------------------------------

def _element_bytes(gep) -> int | None:
    """The byte size of a GEP's element type (integers, floats, vectors of them)."""
    t = ir.TypeAttr(gep.attributes["elem_type"]).value
    count = 1
    if isinstance(t, ir.VectorType):
        count, t = math.prod(t.shape), t.element_type
    width = t.width if isinstance(t, (ir.IntegerType, ir.FloatType)) else None
    if width is None or width % 8:
        return None
    return count * width // 8


def _used(value) -> bool:
    return any(True for _ in value.uses)


@dataclass
class _Plan:
    """How one copy is rewritten: its lane-varying and its uniform terms (value, coeff in
    bytes), the uniform constant in bytes, the GEP chain (outermost first) and the buffer
    op."""

    op: object
    rsrc_op: object
    geps: list
    varying: list
    uniform: list
    const: int
    #: the LDS address, and whether it is proven wave-uniform
    lds: object
    lds_uniform: bool


def _gep_chain(ptr):
    """``(geps, [(index value or None, bytes per unit, constant)], rsrc op)`` of a chain of
    one-index GEPs on a ``make.buffer.rsrc``, None for any other pointer."""
    geps, terms = [], []
    while True:
        op = _defining_op(ptr)
        if op is None or len(geps) > 16:
            return None
        if op.name == "rocdl.make.buffer.rsrc":
            return geps, terms, op
        if op.name != "llvm.getelementptr":
            return None
        raw = list(ir.DenseI32ArrayAttr(op.attributes["rawConstantIndices"]))
        dyn = list(op.operands)[1:]
        size = _element_bytes(op)
        if size is None or len(raw) != 1:
            return None
        if raw == [_DYNAMIC_INDEX] and len(dyn) == 1:
            terms.append((dyn[0], size, 0))
        elif not dyn and raw[0] != _DYNAMIC_INDEX:
            terms.append((None, size, raw[0]))
        else:
            return None
        geps.append(op)
        ptr = op.operands[0]


def _plan(op, index: _Index) -> _Plan | None:
    chain = _gep_chain(op.operands[0])
    if chain is None:
        return None
    geps, terms, rsrc_op = chain
    out = _Leaves()
    for value, size, k in terms:
        if value is None:
            out.const += size * k
        elif not index.leaves(value, size, out):
            return None
    if not out.uniform and not out.const:
        return None
    ctx = index.op_ctx(op)
    for leaves, const in ((out.uniform, out.const), (out.varying, 0)):
        rng = index.range(index.sum_form(leaves, const), ctx)
        if rng is None or rng[0] < 0:
            return None
    lds = op.operands[1]
    return _Plan(op, rsrc_op, geps, out.varying, out.uniform, out.const, lds,
                 index.uniform_ptr(lds))


def _sum_i32(terms, const: int):
    """Emit sum(value * coeff) + const as an i32 (the low 32 bits of the byte offset)."""
    total = None
    for v, c in terms:
        x = v if c == 1 else llvm.mul(v, _constant(v.type, c), _NO_FLAGS)
        x = _to_i32(x)
        total = x if total is None else llvm.add(total, x, _NO_FLAGS)
    if const or total is None:
        k = _constant(ir.IntegerType.get_signless(32), const)
        total = k if total is None else llvm.add(total, k, _NO_FLAGS)
    return total


def _to_i32(value):
    """An integer ``value``'s signed value modulo 2^32, as an i32 (emitted)."""
    w = _width(value)
    i32 = ir.IntegerType.get_signless(32)
    if w > 32:
        return llvm.trunc(i32, value, _NO_FLAGS)
    if w < 32:
        return llvm.sext(i32, value)
    return value


def _constant(t, value: int):
    """An ``llvm.mlir.constant`` of integer type ``t`` holding ``value`` modulo 2^width."""
    return llvm.ConstantOp(t, ir.IntegerAttr.get(t, _signed(value, t.width))).result


def _broadcast(value, fn: _Function, done: dict):
    """``value`` (proven wave-uniform) as LLVM will see it uniform: if it is computed from
    a lane's id, through ``readfirstlane`` right where it is defined (outside the loop for
    a loop-invariant value), once per value; an integer as its low 32 bits."""
    if value in done:
        return done[value]
    if not fn.from_lanes(value):
        done[value] = value
        return value
    op = _defining_op(value)
    if op is None:
        block = ir.BlockArgument(value).owner
        ip, loc = ir.InsertionPoint.at_block_begin(block), block.owner.location
    else:
        ip, loc = ir.InsertionPoint.after(op), op.location
    with ip, loc:
        if _width(value) is None:       # the LDS pointer
            done[value] = rocdl.readfirstlane(value.type, value)
        else:
            x = _to_i32(value)
            done[value] = rocdl.readfirstlane(x.type, x)
    return done[value]


class BufferSoffset(ModulePass):
    """Split each buffer->LDS copy's offset into its lane-varying part (``voffset``) and
    its wave-uniform part (``soffset``) where both are provably non-negative."""

    name = "sched-buffer-soffset"
    summary = ("move the wave-uniform part of each buffer->LDS copy's offset into the "
               "instruction's scalar offset (soffset)")

    def run(self, module) -> list[OpError]:
        for func in collect_ops(module, lambda o: o.name == "llvm.func"):
            copies = collect_ops(func, lambda o: o.name == "rocdl.load.to.lds")
            if not copies:
                continue
            fn = _Function(func)
            fn.analyse()
            index = _Index(fn)
            index.solve()
            plans = [p for p in (_plan(op, index) for op in copies) if p is not None]
            rsrc8: dict = {}
            broadcast: dict = {}
            for p in plans:
                p.uniform = [(_broadcast(v, fn, broadcast), c) for v, c in p.uniform]
                if p.lds_uniform:
                    p.lds = _broadcast(p.lds, fn, broadcast)
                self._rewrite(p, rsrc8)
        return []

    @staticmethod
    def _rewrite(p: _Plan, rsrc8: dict) -> None:
        op = p.op
        i32 = ir.IntegerType.get_signless(32)
        src = p.rsrc_op
        if src not in rsrc8:
            # just before the p7 descriptor: it dominates whatever that one does
            with ir.InsertionPoint(src), src.location:
                rsrc8[src] = rocdl.MakeBufferRsrcOp(
                    ir.Type.parse("!llvm.ptr<8>"), *list(src.operands)).result
        attrs = attr_dict(op)
        with ir.InsertionPoint(op), op.location:
            voff = _sum_i32(p.varying, 0)
            soff = _sum_i32(p.uniform, p.const)

            def imm(name):
                return _constant(i32, ir.IntegerAttr(attrs[name]).value)
            extra = {k: attrs[k] for k in ("alias_scopes", "noalias_scopes", "tbaa")
                     if k in attrs}
            aux = ir.IntegerAttr.get(i32, ir.IntegerAttr(attrs["aux"]).value) \
                if "aux" in attrs else None
            rocdl.RawPtrBufferLoadLdsOp(rsrc8[src], p.lds, imm("size"), voff, soff,
                                        imm("offset"), aux=aux, **extra)
        op.erase()
        # the fat pointers and, once unused, the descriptor go (nothing else reads them)
        for gep in p.geps:
            if _used(gep.result):
                return
            gep.erase()
        if not _used(src.result):
            src.erase()
