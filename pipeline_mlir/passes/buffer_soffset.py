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

What the pass proves, with two analyses of ``pipeline_mlir/analysis``:

* **The offset.**  The copy's pointer is a chain of ``llvm.getelementptr`` with one index
  each (dynamic or constant) on a buffer made by ``rocdl.make.buffer.rsrc``, the elements
  of a known size; the byte offset is the sum of the indices times the element sizes.
* **Exact index forms and ranges** (:mod:`pipeline_mlir.analysis.int_forms`, which states
  the rules): every integer the offset is computed from is an exact sum over atoms (kernel
  arguments, loop counters, the wave's and the lane's index, floor divisions, remainders,
  ...), each with a range; an ``add``/``sub``/``mul``/``shl`` narrower than 64 bits is a
  sum only where it provably does not wrap (its range fits, or its ``overflowFlags`` say
  ``nsw``).  Loop counters are bounded by their guards
  (:mod:`pipeline_mlir.analysis.int_branches`).
* **Uniformity** (:mod:`pipeline_mlir.analysis.uniformity`): which values are the same in
  every lane of a wave.
* **The split.**  The offset is split along its definition into SSA values each of which
  is wave-uniform or lane-varying as a whole (descending through ``add``, ``sub``,
  multiplication by constants, casts, decided selects and disjoint ``or``s wherever the
  value's form is the same combination of its operands' forms); an atom is uniform when
  the uniformity analysis says so.  Both parts, as exact sums,
  must be provably non-negative: the hardware adds ``soffset`` to ``voffset`` without
  wrapping at 32 bits, so a negative part would turn an in-range access into an
  out-of-range one.  A copy it cannot prove this for is left as it is.
* **The range check.**  Whether the hardware counts ``soffset`` in the range check is
  not settled for gfx950: AMD's rocjitsu emulator checks ``voffset + offset + soffset <
  num_records``, LLVM's AMDGPU documentation says soffset is excluded.  An access that
  relies on reading zeros past the records must read them under both, so the split must
  not change the verdict (:func:`_range_split`): with the record count a constant ``N``
  and a pitch ``P`` dividing it, the uniform terms that are multiples of ``P`` (a
  workgroup's rows) stay in ``voffset``, and the rest of the offset, the immediate offset
  and the size fit in ``[0, P]``; then ``voffset`` is past ``N`` exactly when the whole
  offset is.  A kernel with ``sched.copies_in_range`` (the shipped kernels, whose launcher
  accepts whole tiles only) states that every copy is in range, which makes any split
  agree.  The emulator reports an access whose verdict depends on the reading
  (``soffset-range``).

What it emits besides: a uniform part computed from a lane's id (the wave's index
``tid / 64``, which LLVM's own analysis takes for lane-varying) goes through
``readfirstlane`` once, where it is defined, so that LLVM keeps ``soffset`` in SGPRs
(otherwise it loops over the distinct values of a "varying" ``soffset`` at every copy).
The same for the LDS address of every copy, its offset split or not (a copy of a row kept
in range by a select, IREE's kept row mask, is not), when it is wave-uniform by the same
analysis (a global's address plus uniform indices): the hardware takes it from ``M0``,
which LLVM otherwise computes per copy in a VGPR and moves with a ``v_readfirstlane``.
Each GEP index computed from a lane's id is re-emitted as the sum of its terms (split
through adds, multiplications by constants, shifts, casts and disjoint ``or``s), each
term through ``readfirstlane`` where it is defined: the wave's index ``tid / 64``, the one
term the copies share, is read once, and LLVM fills ``M0`` with one scalar add per copy
(IREE's bf16 batch 2 x 267x969x192: 12 copies, 12 ``v_readfirstlane`` and 12 vector adds
before; one ``v_readfirstlane`` now).  The sum and each term must lie in ``[0, 2^31)``
(the i32 sum is then the index).  Where an index is not so split, a copy whose offset
is split has its whole address read once where it is computed; any other copy is left as
it is.

A ``soffset`` that sums more than one non-constant uniform term (e.g. IREE's workgroup row
times the row stride plus the K column) goes through one more ``readfirstlane`` at its
copy: proven uniform, it is the same value, and it keeps LLVM from computing it in a VGPR.
Without it LLVM 22 strength-reduced the i8 ``A x B`` 4096^3 kernel's ``soffset`` (workgroup
row times 524288 plus 64 per K step) into a loop-carried VGPR and wrapped each of the main
loop's 8 copies in a waterfall loop (``v_readfirstlane`` / ``s_and_saveexec`` /
``s_cbranch_execnz``, the ISA check's ``waterfall`` finding).  A ``soffset`` of one term
(the K column times the element size, plus a constant: every shipped kernel's) is already a
value LLVM keeps scalar and is left alone: the extra ``readfirstlane`` is not free there
(LLVM cannot always fold it; on the shipped kernels it moved the main loop's 64-bit K
arithmetic and spilled VGPRs in the MXFP8 256x256 kernel).

What it assumes: the copy's byte offset, as a true integer, stays below 2^32 (no buffer is
larger), i.e. the 64-bit index arithmetic does not overflow; an offset beyond that wraps
around the buffer before the split and is out of range after it.  Workgroup ids are below
2^31 in a dimension whose block size is 1 or not stated (elsewhere this follows from the
grid size).  Only the division of work changes: the address is the same, and so is the
range check's verdict under either reading (above).

The tests check each rewrite lane by lane on the per-lane evaluator
(:mod:`pipeline_mlir.analysis.buffer_copies`): on the shipped kernels, the IREE inputs and
the lit inputs, every rewritten copy reads, in every thread, the byte it read before.
"""


from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.analysis.int_forms import IndexForms
from pipeline_mlir.analysis.ir_facts import block_size
from pipeline_mlir.analysis.int_ranges import signed
from pipeline_mlir.analysis.llvm_values import (const_int, defining_op, gep_element_bytes,
                                               gep_index, int_width)
from pipeline_mlir.analysis.uniformity import UNIFORM_SOURCES, Uniformity
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.target.gfx950 import COPIES_IN_RANGE_ATTR
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.passes._common import (KERNEL_MARKERS, ModulePass, OpError,
                                          attr_dict, collect_ops)


def _no_flags():
    """The emitted arithmetic claims no wrap flags (the LLVM dialect bindings are imported
    when a pass first runs, not when the pass registry loads)."""
    return B.llvm.IntegerOverflowFlags.none


# ---- the split -----------------------------------------------------------------------------

def _pieces(index: IndexForms, op):
    """``[(operand, multiplier)]`` whose sum the op computes when its form is that sum."""
    name = op.name
    ops = list(op.operands)
    if name in ("llvm.add", "llvm.or", "llvm.xor"):
        return [(ops[0], 1), (ops[1], 1)]
    if name == "llvm.sub":
        return [(ops[0], 1), (ops[1], -1)]
    if name in ("llvm.zext", "llvm.sext", "llvm.trunc"):
        return [(ops[0], 1)] if (int_width(ops[0]) or 1) > 1 else None
    if name == "llvm.select":
        t = index.truth(ops[0])
        return None if t is None else [(ops[1] if t else ops[2], 1)]
    if name in ("llvm.mul", "llvm.shl"):
        c = const_int(ops[1])
        if c is None and name == "llvm.mul" and const_int(ops[0]) is not None:
            return [(ops[1], const_int(ops[0]))]
        if c is None or (name == "llvm.shl" and not 0 <= c < 64):
            return None
        return [(ops[0], c if name == "llvm.mul" else 1 << c)]
    return None


def _leaves(index: IndexForms, value, coeff: int, out: "_Leaves", depth: int = 0,
            always: frozenset = frozenset()) -> bool:
    """Split ``coeff * value`` into SSA values each wholly uniform or not (``out``),
    descending also into the ops of ``always`` of one kind; False if a part has no
    form."""
    f = index.form(value)
    if f is None:
        return False
    kinds = f.kinds()
    if not kinds:
        out.const += coeff * f.const
        return True
    op = defining_op(value)
    if op is not None and depth < 64 and (len(kinds) > 1 or op.name in _ALWAYS_SPLIT or
                                          op.name in always):
        pieces = _pieces(index, op)
        inner = _Leaves()
        # a mixed part is split only where that moves something to soffset
        if pieces is not None and index.sum_form(pieces) == f and \
                all(_leaves(index, v, coeff * m, inner, depth + 1, always)
                    for v, m in pieces) and \
                (len(kinds) == 1 or inner.uniform or inner.const):
            out.merge(inner)
            return True
    # a part that mixes both and is not split further is lane-varying as a whole
    (out.uniform if kinds == {"u"} else out.varying).append((value, coeff))
    return True


#: ops the split always descends into (the terms of an offset LLVM would otherwise keep
#: together), not only when they mix uniform and lane-varying parts
_ALWAYS_SPLIT = frozenset({"llvm.add", "llvm.mul", "llvm.shl"})
#: ... and, for an LDS address's index, its casts and disjoint ``or``s too: down to the
#: terms every copy shares (the wave's index)
_LDS_SPLIT = frozenset({"llvm.zext", "llvm.sext", "llvm.trunc", "llvm.or"})


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


def _uniform_ptr(index: IndexForms, ptr) -> bool:
    """Whether an LDS address is wave-uniform: a global's address through GEPs whose
    indices are uniform."""
    for _ in range(16):
        op = defining_op(ptr)
        if op is None:
            return False
        if op.name in UNIFORM_SOURCES:
            return True
        if op.name != "llvm.getelementptr":
            return False
        for v in list(op.operands)[1:]:
            f = index.form(v)
            if not (index.fn.uniform(v) or (f is not None and f.uniform())):
                return False
        ptr = op.operands[0]
    return False


def _scalar_lds(index: IndexForms, fn: Uniformity, ptr, done: dict) -> bool:
    """Make the LDS address ``ptr`` (proven wave-uniform, :func:`_uniform_ptr`) one LLVM
    keeps in SGPRs: each GEP index computed from a lane's id is re-emitted, before its
    GEP, as the sum of its terms with each term through ``readfirstlane`` where it is
    defined (:func:`_broadcast`, once per value: the wave's index ``tid / 64`` is one term
    of every copy's address), when the terms are all uniform and the sum and every term
    lie in ``[0, 2^31)`` (the i32 sum is then exact); False if an index cannot be so
    split (nothing is changed then)."""
    plans, p = [], ptr
    while (op := defining_op(p)) is not None and op.name == "llvm.getelementptr":
        for k, v in enumerate(list(op.operands)[1:], start=1):
            if int_width(v) is None or not fn.from_lanes(v):
                continue
            out = _Leaves()
            if not _leaves(index, v, 1, out, always=_LDS_SPLIT) or out.varying:
                return False
            ctx = index.op_ctx(op)
            for terms, const in [(out.uniform, out.const)] + [([t], 0) for t in out.uniform]:
                rng = index.range(index.sum_form(terms, const), ctx)
                if rng is None or rng[0] < 0 or rng[1] >= 1 << 31:
                    return False
            plans.append((op, k, v, out))
        p = op.operands[0]
    for op, k, v, out in plans:
        terms = [(_broadcast(t, fn, done), c) for t, c in out.uniform]
        with ir.InsertionPoint(op), op.location:
            x = _sum_i32(terms, out.const)
            if int_width(v) > 32:
                x = B.llvm.sext(v.type, x)
            elif int_width(v) < 32:
                x = B.llvm.trunc(v.type, x, _no_flags())
        op.operands[k] = x
    return True


# ---- the rewrite ---------------------------------------------------------------------------

def _used(value) -> bool:
    return any(True for _ in value.uses)


@dataclass
class _CopyRewrite:
    """How one copy is rewritten: its lane-varying and its uniform terms (value, coeff in
    bytes), the uniform constant in bytes, the GEP chain (outermost first) and the buffer
    op."""

    op: object
    rsrc_op: object
    geps: list
    varying: list
    uniform: list
    const: int
    #: the LDS address
    lds: object


def _gep_chain(ptr):
    """``(geps, [(index value or None, bytes per unit, constant)], rsrc op)`` of a chain of
    one-index GEPs on a ``make.buffer.rsrc``, None for any other pointer."""
    geps, terms = [], []
    while True:
        op = defining_op(ptr)
        if op is None or len(geps) > 16:
            return None
        if op.name == "rocdl.make.buffer.rsrc":
            return geps, terms, op
        if op.name != "llvm.getelementptr":
            return None
        index, size = gep_index(op), gep_element_bytes(op)
        if index is None or size is None:
            return None
        value, k = index
        terms.append((value, size, k or 0))
        geps.append(op)
        ptr = op.operands[0]


def _copy_rewrite(op, index: IndexForms, trusted: bool = False) -> _CopyRewrite | None:
    chain = _gep_chain(op.operands[0])
    if chain is None:
        return None
    geps, terms, rsrc_op = chain
    out = _Leaves()
    for value, size, k in terms:
        if value is None:
            out.const += size * k
        elif not _leaves(index, value, size, out):
            return None
    if not out.uniform and not out.const:
        return None
    ctx = index.op_ctx(op)
    for leaves, const in ((out.uniform, out.const), (out.varying, 0)):
        rng = index.range(index.sum_form(leaves, const), ctx)
        if rng is None or rng[0] < 0:
            return None
    out = out if trusted else _range_split(op, index, rsrc_op, out, ctx)
    if out is None:
        return None
    lds = op.operands[1]
    return _CopyRewrite(op, rsrc_op, geps, out.varying, out.uniform, out.const, lds)


def _range_split(op, index: IndexForms, rsrc_op, out: _Leaves, ctx) -> _Leaves | None:
    """The split of ``out`` whose range check is the same whether or not it counts
    ``soffset`` (module docstring), or None.  The buffer's record count ``N`` must be a
    constant below 2^32; for a pitch ``P`` dividing ``N`` (``N`` itself, then each term's
    coefficient that divides it, largest first), the uniform terms that are multiples of
    ``P`` (a workgroup's rows) stay in ``voffset`` with the lane-varying ones, whose
    remainder ``c`` (the terms not multiples of ``P``) is non-negative; then, with the
    moved part ``s`` (the other uniform terms and the constant) and the access's last byte
    ``c + s + immediate offset + size <= P`` everywhere, ``voffset + soffset`` is past
    ``N`` exactly when ``voffset`` is (``voffset = P*q + c``: ``q < N/P`` or not)."""
    attrs = attr_dict(op)
    extra = ir.IntegerAttr(attrs["offset"]).value + ir.IntegerAttr(attrs["size"]).value
    num = index.form(rsrc_op.operands[2])
    n = None if num is None else num.constant()
    if n is None or not 0 < n < 1 << 32:
        return None
    scaled = {}
    for v, c in out.uniform + out.varying:
        f = index.form(v)
        if f is None:
            return None
        scaled[(v, c)] = f.times(c)
    coeffs = {abs(k) for f in scaled.values() for k in f.terms.values()}
    for pitch in [n] + sorted((k for k in coeffs if k and n % k == 0 and k < n), reverse=True):
        def rows(term, pitch=pitch):
            f = scaled[term]
            return f.const % pitch == 0 and all(k % pitch == 0 for k in f.terms.values())
        split = _Leaves([t for t in out.uniform if not rows(t)],
                        out.varying + [t for t in out.uniform if rows(t)], out.const)
        if not split.uniform and not split.const:
            continue
        moved = index.range(index.sum_form(split.uniform, split.const), ctx)
        lanes = index.range(index.sum_form([t for t in split.varying if not rows(t)]), ctx)
        kept = index.range(index.sum_form(split.varying), ctx)
        if None in (moved, lanes, kept) or min(moved[0], lanes[0], kept[0]) < 0:
            continue
        if moved[1] + lanes[1] + extra <= pitch:
            return split
    return None


def _sum_i32(terms, const: int):
    """Emit sum(value * coeff) + const as an i32 (the low 32 bits of the byte offset)."""
    total = None
    for v, c in terms:
        x = v if c == 1 else B.llvm.mul(v, _constant(v.type, c), _no_flags())
        x = _to_i32(x)
        total = x if total is None else B.llvm.add(total, x, _no_flags())
    if const or total is None:
        k = _constant(ir.IntegerType.get_signless(32), const)
        total = k if total is None else B.llvm.add(total, k, _no_flags())
    return total


def _to_i32(value):
    """An integer ``value``'s signed value modulo 2^32, as an i32 (emitted)."""
    w = int_width(value)
    i32 = ir.IntegerType.get_signless(32)
    if w > 32:
        return B.llvm.trunc(i32, value, _no_flags())
    if w < 32:
        return B.llvm.sext(i32, value)
    return value


def _constant(t, value: int):
    """An ``llvm.mlir.constant`` of integer type ``t`` holding ``value`` modulo 2^width."""
    return B.llvm.ConstantOp(t, ir.IntegerAttr.get(t, signed(value, t.width))).result


def _broadcast(value, fn: Uniformity, done: dict):
    """``value`` (proven wave-uniform) as LLVM will see it uniform: if it is computed from
    a lane's id, through ``readfirstlane`` right where it is defined (outside the loop for
    a loop-invariant value), once per value; an integer as its low 32 bits."""
    if value in done:
        return done[value]
    if not fn.from_lanes(value):
        done[value] = value
        return value
    op = defining_op(value)
    if op is None:
        block = ir.BlockArgument(value).owner
        ip, loc = ir.InsertionPoint.at_block_begin(block), block.owner.location
    else:
        ip, loc = ir.InsertionPoint.after(op), op.location
    with ip, loc:
        if int_width(value) is None:       # the LDS pointer
            done[value] = B.rocdl.readfirstlane(value.type, value)
        else:
            x = _to_i32(value)
            done[value] = B.rocdl.readfirstlane(x.type, x)
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
            fn = Uniformity(func, any(m in func.attributes for m in KERNEL_MARKERS),
                            block_size(func))
            fn.analyse()
            index = IndexForms(fn)
            index.solve()
            trusted = COPIES_IN_RANGE_ATTR in func.attributes
            rewrites = [p for p in (_copy_rewrite(op, index, trusted) for op in copies)
                        if p is not None]
            rsrc8: dict = {}
            broadcast: dict = {}
            # every copy's uniform LDS address, rewritten or not, read from its indices'
            # scalar leaves (the wave's index once for all copies: module docstring)
            uniform = [op for op in copies if _uniform_ptr(index, op.operands[1])]
            scalar = {op: _scalar_lds(index, fn, op.operands[1], broadcast) for op in uniform}
            for p in rewrites:
                p.uniform = [(_broadcast(v, fn, broadcast), c) for v, c in p.uniform]
                if scalar.get(p.op) is False:
                    p.lds = _broadcast(p.lds, fn, broadcast)
                else:
                    p.lds = p.op.operands[1]
                self._rewrite(p, rsrc8)
        return []

    @staticmethod
    def _rewrite(p: _CopyRewrite, rsrc8: dict) -> None:
        op = p.op
        i32 = ir.IntegerType.get_signless(32)
        src = p.rsrc_op
        if src not in rsrc8:
            # just before the p7 descriptor: it dominates whatever that one does
            with ir.InsertionPoint(src), src.location:
                rsrc8[src] = B.rocdl.MakeBufferRsrcOp(
                    ir.Type.parse("!llvm.ptr<8>"), *list(src.operands)).result
        attrs = attr_dict(op)
        with ir.InsertionPoint(op), op.location:
            voff = _sum_i32(p.varying, 0)
            soff = _sum_i32(p.uniform, p.const)
            if len(p.uniform) > 1:     # a sum LLVM may rebuild in a VGPR (module docstring)
                soff = B.rocdl.readfirstlane(i32, soff)

            def imm(name):
                return _constant(i32, ir.IntegerAttr(attrs[name]).value)
            extra = {k: attrs[k] for k in ("alias_scopes", "noalias_scopes", "tbaa")
                     if k in attrs}
            aux = ir.IntegerAttr.get(i32, ir.IntegerAttr(attrs["aux"]).value) \
                if "aux" in attrs else None
            B.rocdl.RawPtrBufferLoadLdsOp(rsrc8[src], p.lds, imm("size"), voff, soff,
                                        imm("offset"), aux=aux, **extra)
        op.erase()
        # the fat pointers and, once unused, the descriptor go (nothing else reads them)
        for gep in p.geps:
            if _used(gep.result):
                return
            gep.erase()
        if not _used(src.result):
            src.erase()
