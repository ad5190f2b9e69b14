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
(``rocdl.make.buffer.rsrc`` as ``!llvm.ptr<8>``) with the copy's size, LDS pointer,
immediate offset and cache bits unchanged.

What the pass can prove, and what it assumes:

* The copy's pointer must be ``llvm.getelementptr`` with one index on a buffer made by
  ``rocdl.make.buffer.rsrc``, its element of a known size.  The index is split along its
  ``llvm.add`` tree (through multiplications by positive constants); each term is classed
  wave-uniform or lane-varying by a uniformity analysis: constants, the kernel's
  arguments, ``workgroup.id``, ``readfirstlane`` and arithmetic on them are uniform;
  ``workitem.id``, ``mbcnt`` and anything read from memory are not; a block argument is
  uniform when every value reaching it is and no branch in the function depends on a
  lane-varying value.
* Both parts must be provably non-negative (a lower-bound analysis: constants,
  zero-extensions, unsigned division and remainder, loop counters that start
  non-negative and only grow): the hardware adds ``soffset`` to ``voffset`` without
  wrapping at 32 bits and range-checks the sum, so a negative uniform part would turn an
  in-range access into an out-of-range one.  A copy it cannot prove this for is left as
  it is.  The remaining assumption is that the copy's byte offset, as a true integer,
  stays below 2^32 (no buffer is larger), i.e. the 64-bit index arithmetic does not
  overflow; an offset beyond that wraps around the buffer before the split and is out of
  range after it.
* Only the division of work changes: the address and the range check
  (``voffset + soffset + offset < num_records`` on CDNA) are the same.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline_mlir.dialect.bindings import ir, llvm, rocdl
from pipeline_mlir.passes._common import (BLOCK_SIZE_ATTRS, KERNEL_MARKERS, ModulePass, OpError,
                                          attr_dict, collect_ops)

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

WAVE_SIZE = 64                  # gfx9 (CDNA) waves
_NO_FLAGS = llvm.IntegerOverflowFlags.none     # the emitted arithmetic claims no wrap flags
_DYNAMIC_INDEX = -2147483648      # a GEP's rawConstantIndices entry for a dynamic index


def _defining_op(value):
    """The op that defines ``value``, None for a block argument."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    return getattr(owner, "operation", owner)


def _const_int(value) -> int | None:
    op = _defining_op(value)
    if op is None or op.name != "llvm.mlir.constant":
        return None
    attr = op.attributes["value"]
    return attr.value if isinstance(attr, ir.IntegerAttr) else None


def _width(value) -> int | None:
    t = value.type
    return t.width if isinstance(t, ir.IntegerType) else None


class _Function:
    """The control flow of one ``llvm.func``: which values reach each block argument, and
    the uniformity of every value (:meth:`uniform`)."""

    def __init__(self, func) -> None:
        self.kernel = any(m in func.attributes for m in KERNEL_MARKERS)
        #: the block's x size when the function states it
        self.block_x = None
        for name in BLOCK_SIZE_ATTRS:
            if name in func.attributes:
                self.block_x = list(ir.DenseI32ArrayAttr(func.attributes[name]))[0]
        blocks = list(func.regions[0].blocks)
        self.entry = blocks[0] if blocks else None
        #: (block, argument number) -> the values branches pass to it; None: unknown
        self.incoming: dict = {}
        #: the conditions of the function's branches
        self.conditions: list = []
        self.divergent_branch = False
        self._uniform: dict = {}
        self._blocks = blocks
        for block in blocks:
            ops = list(block.operations)
            if not ops:
                continue
            term = ops[-1].operation
            self._record_branch(term)

    def _block_key(self, block) -> int:
        for i, b in enumerate(self._blocks):
            if b == block:
                return i
        raise KeyError("block outside the function")

    def _record_branch(self, term) -> None:
        succs = list(term.successors)
        if not succs:
            return
        operands = list(term.operands)
        if term.name == "llvm.br":
            groups = [operands]
        elif term.name == "llvm.cond_br":
            sizes = list(ir.DenseI32ArrayAttr(term.attributes["operandSegmentSizes"]))
            groups = [operands[1:1 + sizes[1]], operands[1 + sizes[1]:]]
            self.conditions.append(operands[0])
        else:  # a switch or anything else: its block arguments are not followed
            for s in succs:
                for i in range(len(s.arguments)):
                    self.incoming[(self._block_key(s), i)] = None
            self.conditions += operands[:1]
            return
        for s, vals in zip(succs, groups):
            for i, v in enumerate(vals):
                key = (self._block_key(s), i)
                seen = self.incoming.setdefault(key, [])
                if seen is not None:
                    seen.append(v)

    # ---- uniformity ----------------------------------------------------------------------

    def analyse(self) -> None:
        """Fix the uniformity of every block argument (optimistic, then refuted)."""
        self._arg_uniform: dict = {k: True for k in self.incoming}
        changed = True
        while changed:
            changed = False
            self._uniform = {}
            for key, vals in self.incoming.items():
                if not self._arg_uniform[key]:
                    continue
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
            block = arg.owner
            if block == self.entry:
                return self.kernel          # kernel arguments live in SGPRs
            if self.divergent_branch:
                return False
            return self._arg_uniform.get((self._block_key(block), arg.arg_number), False)
        op = _defining_op(value)
        if op.name in _UNIFORM_SOURCES:
            return True
        if op.name in ("llvm.udiv", "llvm.lshr") and self._wave_index(op):
            return True
        if op.name in _PURE:
            return all(self.uniform(v) for v in op.operands)
        return False

    def _wave_index(self, op) -> bool:
        """Whether ``op`` divides the thread's x index by a multiple of the wave size (64
        on gfx9): the wave's index, the same in all its lanes when the block's x size is a
        multiple of 64 (waves are cut from the linear thread index)."""
        ops = list(op.operands)
        c = _const_int(ops[1])
        if c is None or self.block_x is None or self.block_x % WAVE_SIZE:
            return False
        if (op.name == "llvm.udiv" and (c <= 0 or c % WAVE_SIZE)) or \
                (op.name == "llvm.lshr" and not 6 <= c < 64):
            return False
        x = ops[0]
        while (d := _defining_op(x)) is not None and d.name in ("llvm.zext", "llvm.sext"):
            x = d.operands[0]
        d = _defining_op(x)
        return d is not None and d.name == "rocdl.workitem.id.x"

    # ---- lower bounds --------------------------------------------------------------------

    def lower_bound(self, value, assumed=None) -> int | None:
        """A lower bound of ``value`` as a signed integer of its width, None if unknown.

        ``assumed`` maps block arguments under proof to their candidate bound."""
        assumed = {} if assumed is None else assumed
        if isinstance(value.owner, ir.Block):
            return self._arg_lower_bound(value, assumed)
        op = _defining_op(value)
        name = op.name
        ops = list(op.operands)
        if name == "llvm.mlir.constant":
            return _const_int(value)
        if name in ("llvm.zext", "llvm.ptrtoint"):
            return 0
        if name == "llvm.sext":
            return self.lower_bound(ops[0], assumed)
        if name in ("llvm.add", "llvm.mul"):
            if _width(value) != 64:   # 32-bit arithmetic may wrap; 64-bit is assumed not to
                return None
            a, b = (self.lower_bound(v, assumed) for v in ops)
            if a is None or b is None:
                return None
            if name == "llvm.add":
                return a + b
            return a * b if a >= 0 and b >= 0 else None
        if name == "llvm.udiv":
            d = _const_int(ops[1])
            return 0 if d is not None and d >= 2 else None
        if name == "llvm.lshr":
            s = _const_int(ops[1])
            return 0 if s is not None and s >= 1 else None
        if name in ("llvm.urem", "llvm.and"):
            c = _const_int(ops[1])
            return 0 if c is not None and c >= 0 else None
        if name == "llvm.intr.smax":
            bounds = [b for b in (self.lower_bound(v, assumed) for v in ops) if b is not None]
            return max(bounds) if bounds else None
        if name == "llvm.intr.umax":
            bounds = [self.lower_bound(v, assumed) for v in ops]
            return max(bounds) if all(b is not None and b >= 0 for b in bounds) else None
        if name.startswith(("rocdl.workitem.id.",
                                                             "rocdl.workgroup.id.",
                                                             "rocdl.mbcnt.")):
            return 0
        return None

    def _arg_lower_bound(self, value, assumed) -> int | None:
        arg = ir.BlockArgument(value)
        if arg.owner == self.entry:
            return None
        key = (self._block_key(arg.owner), arg.arg_number)
        if key in assumed:
            return assumed[key]
        vals = self.incoming.get(key)
        if not vals:
            return None
        # the least of the values that do not come back through this argument; then the
        # values that do (a counter's increment) must keep it, assuming it (induction)
        cyclic = [_depends(v, key, self) for v in vals]
        through = [v for v, c in zip(vals, cyclic) if c]
        outside = [self.lower_bound(v, assumed) for v, c in zip(vals, cyclic) if not c]
        if not outside or any(b is None for b in outside):
            return None
        candidate = min(outside)
        inner = dict(assumed)
        inner[key] = candidate
        for v in through:
            b = self.lower_bound(v, inner)
            if b is None or b < candidate:
                return None
        return candidate


def _depends(value, key, fn: _Function, depth: int = 64) -> bool:
    """Whether ``value`` is computed from block argument ``key`` (through ops only)."""
    stack, seen = [(value, 0)], set()
    while stack:
        v, d = stack.pop()
        if isinstance(v.owner, ir.Block):
            arg = ir.BlockArgument(v)
            if arg.owner != fn.entry and (fn._block_key(arg.owner), arg.arg_number) == key:
                return True
            continue
        op = _defining_op(v)
        if d >= depth or op in seen:
            continue
        seen.add(op)
        stack.extend((o, d + 1) for o in op.operands)
    return False


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


def _terms(value, coeff: int, out: list, depth: int = 0) -> None:
    """Split ``value`` (times ``coeff``) along its add tree into ``(value, coeff)`` terms."""
    op = _defining_op(value)
    if depth < 32 and op is not None:
        ops = list(op.operands)
        if op.name == "llvm.add":
            for v in ops:
                _terms(v, coeff, out, depth + 1)
            return
        if op.name in ("llvm.mul", "llvm.shl"):
            c = _const_int(ops[1])
            if c is not None and c >= 0 and (op.name == "llvm.mul" or c < 32):
                _terms(ops[0], coeff * (c if op.name == "llvm.mul" else 1 << c), out, depth + 1)
                return
    out.append((value, coeff))


@dataclass
class _Plan:
    """How one copy is rewritten: its lane-varying and its uniform terms (value, coeff in
    bytes), the uniform constant in bytes, and the buffer op."""

    op: object
    rsrc_op: object
    varying: list
    uniform: list
    const: int


def _plan(op, fn: _Function) -> _Plan | None:
    ptr = op.operands[0]
    gep = _defining_op(ptr)
    if gep is None or gep.name != "llvm.getelementptr":
        return None
    raw = list(ir.DenseI32ArrayAttr(gep.attributes["rawConstantIndices"]))
    dyn = list(gep.operands)[1:]
    if raw != [_DYNAMIC_INDEX] or len(dyn) != 1:
        return None
    rsrc_op = _defining_op(gep.operands[0])
    if rsrc_op is None or rsrc_op.name != "rocdl.make.buffer.rsrc":
        return None
    size = _element_bytes(gep)
    if size is None:
        return None
    terms: list = []
    _terms(dyn[0], size, terms)
    varying, uniform, const = [], [], 0
    for v, c in terms:
        k = _const_int(v)
        if k is not None:
            const += k * c
        elif fn.uniform(v):
            uniform.append((v, c))
        else:
            varying.append((v, c))
    if not uniform and not const:
        return None
    lo_u = const
    for v, c in uniform:
        b = fn.lower_bound(v)
        if b is None:
            return None
        lo_u += b * c
    if lo_u < 0:
        return None
    for v, _ in varying:
        b = fn.lower_bound(v)
        if b is None or b < 0:
            return None
    return _Plan(op, rsrc_op, varying, uniform, const)


def _sum_i32(terms, const: int):
    """Emit sum(value * coeff) + const as an i32 (the low 32 bits of the byte offset)."""
    i32 = ir.IntegerType.get_signless(32)
    total = None
    for v, c in terms:
        w = _width(v)
        t = ir.IntegerType.get_signless(w)
        x = v if c == 1 else llvm.mul(v, _constant(t, c), _NO_FLAGS)
        if w > 32:
            x = llvm.trunc(i32, x, _NO_FLAGS)
        elif w < 32:
            x = llvm.zext(i32, x)
        total = x if total is None else llvm.add(total, x, _NO_FLAGS)
    if const or total is None:
        k = _constant(i32, const)
        total = k if total is None else llvm.add(total, k, _NO_FLAGS)
    return total


def _constant(t, value: int):
    """An ``llvm.mlir.constant`` of integer type ``t`` holding ``value`` modulo 2^width."""
    w = t.width
    signed = (value + (1 << (w - 1))) % (1 << w) - (1 << (w - 1))
    return llvm.ConstantOp(t, ir.IntegerAttr.get(t, signed)).result


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
            plans = [p for p in (_plan(op, fn) for op in copies) if p is not None]
            rsrc8: dict = {}
            for p in plans:
                self._rewrite(p, rsrc8)
        return []

    @staticmethod
    def _rewrite(p: _Plan, rsrc8: dict) -> None:
        op = p.op
        i32 = ir.IntegerType.get_signless(32)
        key = p.rsrc_op
        if key not in rsrc8:
            src = p.rsrc_op
            # just before the p7 descriptor: it dominates whatever that one does
            with ir.InsertionPoint(src), src.location:
                rsrc8[key] = rocdl.MakeBufferRsrcOp(
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
            rocdl.RawPtrBufferLoadLdsOp(rsrc8[key], op.operands[1], imm("size"), voff, soff,
                                        imm("offset"), aux=aux, **extra)
        gep = _defining_op(op.operands[0])
        op.erase()
        # the fat pointer and, once unused, its descriptor go (nothing else reads them)
        if not _used(gep.result):
            gep.erase()
            if not _used(p.rsrc_op.result):
                p.rsrc_op.erase()
