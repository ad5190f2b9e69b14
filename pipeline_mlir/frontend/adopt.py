"""Rewriting an analysed natural K-loop into the schedule's tagged loop.

:func:`adopt` builds, in place of the natural loop, the concrete form of
``docs/dialect.md``: two K tiles per iteration (the schedule's two
stages), one LDS buffer per (channel, stage, subtile), the payload ops in the schedule's
body order with their tags, the loop's own barriers removed, and the schedule inferred for
the loop in its ``sched.schedule`` / ``sched.options`` attributes.  :class:`_Rewriter`
holds the steps; index arithmetic is emitted by :class:`Ix`, the pure ops an address or
an MFMA operand needs are cloned by :class:`Cloner`.
"""

from __future__ import annotations

import re

from pipeline_mlir.kernel.gemm import latest_fragment
from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect import ops as S
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, schedule_attrs
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.dialect.ir_changes import set_attribute, set_new_operands
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.analysis.ir_facts import block_size, constant_int, constant_trips, through_casts
from pipeline_mlir.frontend.kernel_ir import erase_unused_buffer, zero_vector
from pipeline_mlir.frontend.layout import Cloner, Emitter, gather_to_lds
from pipeline_mlir.frontend.half_k import pieces_of
from pipeline_mlir.frontend.k_subtiles import FORM_ATTR, along_k, form_text, whole
from pipeline_mlir.frontend.marks import (KSPLIT_NOTE_ATTR, MERGED_ATTR, PAIR_GUARD_ATTR,
                                         VERSIONED_ATTR)
from pipeline_mlir.frontend.partition import BufferLayout, infer_schedule, layout_buffers
from pipeline_mlir.frontend.read_bases import ReadBases
from pipeline_mlir.frontend.scan import Access
from pipeline_mlir.frontend.remainder_plan import apply as place_remainder
from pipeline_mlir.frontend.zext_index import cloned_index
from pipeline_mlir.frontend.tagged import SCHEDULE_ATTRS, TAG_ATTRS
from pipeline_mlir.target.gfx950 import WAVE_SIZE
from pipeline_mlir.analysis.loop_eval import dense_i64, segments

_K_NAMES = {0: "k0", 1: "k1", 2: "k_next", 3: "k_prev", 255: "none"}
#: the role of each schedule body op the front end builds, by its tag
_ROLES = {0: "global", 1: "global", 3: "frag", 4: "frag", 5: "mma"}
#: the tag attribute of each schedule op name
_TAG_NAMES = {v: k for k, v in TAG_ATTRS.items()}
_DYN = -9223372036854775808


def adopt(an: Analysis, schedule, remainder=None):
    """Rewrite the natural loop of ``an`` into the tagged loop of the schedule the loop
    stands for (:func:`~pipeline_mlir.frontend.partition.infer_schedule` of ``schedule``);
    returns the new ``scf.for`` (carrying ``sched.schedule`` and ``sched.options``, the
    schedule inferred for it).  ``remainder``: the loop's remainder loop, rebuilt on the
    schedule's buffers when ``frontend/tails.py`` marked it so."""
    new = _Rewriter(an, schedule).rewrite(remainder)
    if an.ksplit_note is not None:    # (the report says it: lowering/materialize.py)
        set_attribute(new, KSPLIT_NOTE_ATTR, ir.StringAttr.get(an.ksplit_note))
    return new


class Ix:
    """Index arithmetic emitted at the current insertion point."""

    def __init__(self, const_point) -> None:
        self.t = ir.IndexType.get()
        self.consts: dict = {}
        self.const_point = const_point

    def c(self, v: int):
        """An index constant, created once (before the loop)."""
        if v not in self.consts:
            with self.const_point:
                self.consts[v] = B.arith.constant(self.t, ir.IntegerAttr.get(self.t, int(v)))
        return self.consts[v]

    def add(self, a, b):
        return b if a is None else a if b is None else B.arith.addi(a, b)

    def mul(self, a, k: int):
        return a if k == 1 else B.arith.muli(a, self.c(k))

    def swizzle(self, x, row: int, access: int):
        A = B.arith
        r = A.divui(x, self.c(row))
        chunk = A.divui(A.remui(x, self.c(row)), self.c(access))
        phase = A.remui(r, self.c(row // access))
        mixed = A.xori(chunk, phase)
        return A.addi(A.addi(A.muli(r, self.c(row)), A.muli(mixed, self.c(access))),
                      A.remui(x, self.c(access)))

    def delete_bit(self, x, bit: int):
        A = B.arith
        hi = A.divui(x, self.c(1 << (bit + 1)))
        lo = A.remui(x, self.c(1 << bit))
        return A.addi(A.muli(hi, self.c(1 << bit)), lo)


    def window(self, x, period: int, first: int, width: int):
        """``x // period * width + (x % period - first) mod period``
        (``partition.window_index``; the ``mod`` emitted only for a window that wraps)."""
        A = B.arith
        if first + width > period:      # wraps: rotated by ``period - first`` first
            return A.addi(A.muli(A.divui(x, self.c(period)), self.c(width)),
                          A.remui(A.addi(A.remui(x, self.c(period)), self.c(period - first)),
                                  self.c(period)))
        if width != period:
            x = A.addi(A.muli(A.divui(x, self.c(period)), self.c(width)),
                       A.remui(x, self.c(period)))
        return A.subi(x, self.c(first)) if first else x


class _Rewriter:
    """One natural loop made the schedule's loop.  The constructor checks and decides (the
    schedule, the trip count, the buffers, which fragment load feeds each MMA); ``rewrite``
    builds the new buffers and loop, emits the body in the schedule's order and removes
    what the natural loop leaves behind."""

    def __init__(self, an: Analysis, schedule) -> None:
        self.an = an
        self.schedule = infer_schedule(an, schedule)
        self.body = self.schedule.build().declare_ops()
        scan = an.scan
        self.loop = loop = scan.loop
        self.trips = constant_trips(an.scan.loop)
        if self.trips is not None and (self.trips < 2 or self.trips % 2):
            raise IRError(loop, f"'scf.for' op runs {self.trips} iteration(s); the schedule's "
                                f"loop takes two K tiles per iteration (prologue and epilogue "
                                f"one pair each), so it needs at least 2 (an odd last one "
                                f"runs in a remainder loop after it)")
        self.least = 1 + self.schedule.min_trips()     # pairs of K tiles the loop runs
        if self.trips is not None and self.trips < 2 * self.least:
            raise IRError(loop, f"'scf.for' op runs {self.trips} iteration(s); "
                                f"'{self.schedule.spec()}' runs its main loop at least once "
                                f"(loop_once), so it needs at least {2 * self.least} (or give "
                                f"loop_once=false)")
        self.buffers = layout_buffers(an)
        self.plans = getattr(an.partition, "plans", {})
        self.kinds = [_ROLES.get(d.tag) for d in self.body]
        if None in self.kinds:  # pragma: no cover - the double-buffer bodies hold only these
            raise IRError(loop, f"'{self.schedule.name}' body op outside the GEMM roles")
        self.mma_sources, carried = self._mma_sources()
        self._group_payload()
        self.read_ops = [an.ops[r.op] for r in an.reads]
        self.copy_acc = {an.ops[c.op]: a for c, a in zip(an.copies, scan.copies)}
        self.read_acc = {an.ops[r.op]: a for r, a in zip(an.reads, scan.reads)}
        self.iv = loop.regions[0].blocks[0].arguments[0]
        self.inits = list(loop.operands)[3:]
        self.body_set = set(scan.ops)
        self.carried_reads = [(j, k) for j in carried
                              for k in self.reads_of[(self.body[j].channel,
                                                      self.body[j].subtile)]]

    def _mma_sources(self) -> tuple[dict, list]:
        """({MMA body index: (A fragment load, carried?, B fragment load, carried?)}, the
        carried fragment loads): an MMA reads the latest fragment load of its (channel,
        subtile) before it in the body, else the last one (carried from the previous
        iteration); both of one K tile, each (row, column) in K order."""
        body, loop = self.body, self.loop
        frags = [(i, d) for i, d in enumerate(body) if self.kinds[i] == "frag"]
        sources, carried, seen_stage = {}, [], {}
        for i, d in enumerate(body):
            if self.kinds[i] != "mma":
                continue
            ja, ca = latest_fragment(frags, i, 0, d.stage)
            jb, cb = latest_fragment(frags, i, 1, d.subtile)
            st = body[ja].stage
            if body[jb].stage != st or seen_stage.get((d.stage, d.subtile), -1) >= st:
                raise IRError(loop, f"'{self.schedule.name}' schedule body: MMA {i} does not "
                                    f"read one K tile in order; the front end cannot build "
                                    f"its loop")
            seen_stage[(d.stage, d.subtile)] = st
            sources[i] = (ja, ca, jb, cb)
            for j, c in ((ja, ca), (jb, cb)):
                if c and j not in carried:
                    carried.append(j)
        return sources, carried

    def _group_payload(self) -> None:
        """The natural loop's reads and copies per (channel, subtile) and MFMAs per MMA
        group, each in loop order."""
        an, p = self.an, self.an.partition
        self.reads_of: dict = {}
        for k, r in sorted(enumerate(an.reads), key=lambda x: x[1].op):
            self.reads_of.setdefault((p.read_channel[k], p.read_subtile[k]), []).append(k)
        self.copies_of: dict = {}
        for k, c in sorted(enumerate(an.copies), key=lambda x: x[1].op):
            self.copies_of.setdefault((p.copy_channel[k], p.copy_subtile[k]), []).append(k)
        self.mfmas_of: dict = {}
        for k, m in enumerate(an.mfmas):
            self.mfmas_of.setdefault(p.mfma_group[k], []).append(k)

    def rewrite(self, remainder=None):
        loop, n = self.loop, len(self.inits)
        with loop.context, loop.location:
            self._allocate_buffers()
            new_loop = self._create_loop()
            new_iter = list(new_loop.inner_iter_args)
            self.carried_arg = {jk: new_iter[n + i] for i, jk in enumerate(self.carried_reads)}
            with ir.InsertionPoint(new_loop.body):
                self.new_loop = new_loop
                self.ix = Ix(ir.InsertionPoint(new_loop.operation))
                self.emitter = Emitter(self.an, ir.InsertionPoint(new_loop.operation),
                                       self.ix.c)
                self.shifted: dict = {}
                self.cloners: dict = {}
                self.frag_value: dict = {}   # (body index, read) -> value of the read
                self.read_bases = ReadBases(self.an.scan.block, self.schedule)
                self.acc_now = {a: new_iter[a] for a in range(n)}
                for i, d in enumerate(self.body):
                    if self.kinds[i] == "global":
                        self._emit_copies(i, d)
                    elif self.kinds[i] == "frag":
                        self._emit_reads(i, d)
                    else:
                        self._emit_mmas(i, d)
                B.scf.YieldOp([self.acc_now[a] for a in range(n)] +
                              [self.frag_value[jk] for jk in self.carried_reads])
            for k, v in schedule_attrs(self.schedule, *SCHEDULE_ATTRS).items():
                set_attribute(new_loop.operation, k, v)
            if along_k(self.an.partition) or whole(self.an.partition):   # (k_subtiles.py;
                # the report says it)
                merged = loop.attributes[MERGED_ATTR] if MERGED_ATTR in loop.attributes \
                    else None      # (frontend/kmerge.py)
                set_attribute(new_loop.operation, FORM_ATTR, ir.StringAttr.get(form_text(
                    self.an.partition, 1 if merged is None else ir.IntegerAttr(merged).value,
                    pieces_of(loop))))     # (frontend/half_k.py)
            if VERSIONED_ATTR in loop.attributes:   # (frontend/edge_version.py)
                set_attribute(new_loop.operation, VERSIONED_ATTR, ir.UnitAttr.get())
            for a in place_remainder(self, loop, remainder):   # (frontend/remainder_plan.py)
                erase_unused_buffer(a.results[0], attribution=True)
        for old, new in zip(loop.results, list(new_loop.results)[:n]):
            old.replace_all_uses_with(new)
        loop.erase()
        _iree_base_lowering(self.an.scan.kernel)
        for root in self.an.buffers:
            erase_unused_buffer(root, attribution=True)
        return new_loop.operation

    def _allocate_buffers(self) -> None:
        """The new LDS buffers, one per (original buffer, subtile, stage), at the top of the
        kernel in (channel, stage, subtile) order: the kernel plan's order of LDS buffers."""
        an, buffers = self.an, self.buffers
        kernel_block = an.scan.kernel.regions[0].blocks[0]
        first = _op(kernel_block.operations[0])
        with ir.InsertionPoint(first):
            slots = sorted((buf.channel, st, sub, b) for b, buf in buffers.items()
                           for sub in buf.subtiles for st in (0, 1))
            for _ch, st, sub, b in slots:
                buf = buffers[b]
                mt = ir.MemRefType.get([buf.elements_of(sub)], buf.elem_type,
                                       memory_space=ir.Attribute.parse(
                                           "#gpu.address_space<workgroup>"))
                owner = an.buffers[b].owner    # an attribution: the function declares it
                with (_op(owner.owner) if isinstance(owner, ir.Block) else owner).location:
                    a = ir.Operation.create("memref.alloc", results=[mt], attributes={
                        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0])})
                buf.new[(sub, st)] = a.results[0]

    def _create_loop(self):
        """The new ``scf.for`` before the natural one: step two K tiles, the accumulators
        and (zero-initialised) carried fragments as iter_args; a trip count that is not
        known to be even (and not guarded by the remainder path) traps."""
        loop = self.loop
        with ir.InsertionPoint(loop):
            iv_t = self.iv.type
            two = B.arith.constant(iv_t, ir.IntegerAttr.get(iv_t, 2))
            step2 = B.arith.muli(loop.operands[2], two)
            # the front end's pair guard (tails) proves one pair, which is all a loop
            # without loop_once needs
            guarded = PAIR_GUARD_ATTR in loop.attributes and self.least == 1
            if self.trips is None and not guarded and not even_trips_proven(loop, self.least):
                _trap_unless_even_trips(loop, step2, self.least)
            zero = {}
            carried_inits = []
            for j, k in self.carried_reads:
                t = self.read_ops[k].results[0].type
                if str(t) not in zero:
                    zero[str(t)] = zero_vector(t)
                carried_inits.append(zero[str(t)])
            return B.scf.ForOp(loop.operands[0], loop.operands[1], step2,
                               self.inits + carried_inits)

    # --- the body, in the schedule's order ---------------------------------------------------

    def _iv_at(self, shift: int):
        """The natural loop's variable ``shift`` K tiles after the new loop's."""
        if shift not in self.shifted:
            if shift == 0:
                self.shifted[0] = self.new_loop.induction_variable
            else:
                iv_t = self.iv.type
                c = B.arith.constant(iv_t, ir.IntegerAttr.get(iv_t, shift))
                self.shifted[shift] = B.arith.addi(self.new_loop.induction_variable,
                                                   B.arith.muli(self.loop.operands[2], c))
        return self.shifted[shift]

    def _cloner(self, shift: int) -> Cloner:
        if shift not in self.cloners:
            self.cloners[shift] = Cloner(self.body_set, {self.iv: self._iv_at(shift)})
        return self.cloners[shift]

    def _linear(self, v, cl: Cloner, root):
        """The element offset of view ``v`` into ``root`` (None: 0), emitted."""
        if v == root:
            return None
        ix = self.ix
        o = _op(v.owner)
        if o.name == "memref.subview":
            src = o.operands[0]
            base = self._linear(src, cl, root)
            sv = self.an.evaluator.view(src)
            dyn = iter(segments(o)[1])
            for off, stride in zip(dense_i64(o, "static_offsets"), sv.strides):
                term = cl.get(next(dyn)) if off == _DYN else (ix.c(off) if off else None)
                if term is not None:
                    base = ix.add(base, ix.mul(term, stride))
            return base
        if o.name == "memref.reinterpret_cast":
            so = dense_i64(o, "static_offsets")[0]
            return cl.get(segments(o)[1][0]) if so == _DYN else (ix.c(so) if so else None)
        return self._linear(o.operands[0], cl, root)

    def _lds_index(self, acc: Access, cl: Cloner, swizzled: bool, buf: BufferLayout,
                   subtile: int):
        """The element index of access ``acc`` of ``subtile`` in its new (dense) buffer,
        emitted."""
        ix = self.ix
        v = self.an.evaluator.view(acc.view)
        x = self._linear(acc.view, cl, v.root)
        for i, s in zip(acc.indices, v.strides):
            x = ix.add(x, ix.mul(cl.get(i), s))
        if x is None:
            x = ix.c(0)
        undo = buf.unswizzle if swizzled else None    # the bit is of the unswizzled index
        if swizzled and v.swizzle is not None and v.swizzle != undo:
            x = ix.swizzle(x, *v.swizzle)
        if undo is not None and v.swizzle != undo:
            x = ix.swizzle(x, *undo)
        for kb in sorted(buf.kbits, reverse=True):     # the first K sub-step's elements
            x = ix.delete_bit(x, kb)
        if buf.bit is not None:
            x = ix.delete_bit(x, buf.bit)
        if subtile in buf.windows:
            x = ix.window(x, *buf.windows[subtile])
        if buf.reswizzle is not None:
            x = ix.swizzle(x, *buf.reswizzle)
        return x

    def _tag(self, op, kind: str, fields: dict) -> None:
        d = {k: (ir.StringAttr.get(v) if isinstance(v, str) else
                 ir.IntegerAttr.get(ir.IntegerType.get_signless(64), v))
             for k, v in fields.items()}
        set_attribute(op, _TAG_NAMES[kind], ir.DictAttr.get(d))

    def _emit_copies(self, i: int, d) -> None:
        """The copies of global load ``i`` of the body: its (channel, subtile) into its
        stage's buffer, ``k_offset`` K tiles ahead."""
        an = self.an
        shift = d.k_offset.signed_bk_multiple() if d.k_offset.name != "NONE" else 0
        cl = self._cloner(shift)
        plan = self.plans.get(d.channel)
        if plan is not None:   # the front end's own copies (frontend/layout.py)
            dst = self.buffers[plan.buffer].new[(d.subtile, d.stage)]
            news = self.emitter.copies(self, plan, d.subtile, self._iv_at(shift), dst)
        else:
            news = []
            for k in self.copies_of[(d.channel, d.subtile)]:
                c = an.copies[k]
                acc = self.copy_acc[an.ops[c.op]]
                buf = self.buffers[c.buffer]
                with acc.op.location:     # its index arithmetic derives from the copy
                    idx = self.read_bases.wave_uniform(
                        self._lds_index(acc, cl, False, buf, d.subtile),
                        self.new_loop.operation)
                    # (K tiles ahead only: the shifted variable stays >= 0)
                    src_idx = [cloned_index(cl, x, self.iv, an.scan.block) if shift >= 0
                               else cl.get(x) for x in acc.src_indices]
                    src = cl.get(acc.src)
                    src, src_idx = self.read_bases.flat_source(
                        src, src_idx, self.new_loop.operation) or (src, src_idx)
                news.append(gather_to_lds(acc.op, src, src_idx,
                                          buf.new[(d.subtile, d.stage)], idx))
        for new in news:
            self._tag(new, S.GLOBAL_LOAD, {"channel": d.channel, "stage": d.stage,
                                           "subtile": d.subtile,
                                           "k_offset": _K_NAMES[int(d.k_offset)], "id": i})

    def _emit_reads(self, i: int, d) -> None:
        """The fragment reads of fragment load ``i`` of the body from its stage's buffer."""
        an = self.an
        cl = self._cloner(0)
        for k in self.reads_of[(d.channel, d.subtile)]:
            r = an.reads[k]
            old = self.read_ops[k]
            acc = self.read_acc[old]
            buf = self.buffers[r.buffer]
            src = buf.new[(d.subtile, d.stage)]
            with old.location:            # its index arithmetic derives from the read
                idx = self.read_bases.index(self._lds_index(acc, cl, True, buf, d.subtile),
                                            self.ix)
            rt = old.results[0].type
            vt = ir.VectorType(rt)
            flat = ir.VectorType.get([acc.elements], vt.element_type)
            with old.location:
                if old.name == "amdgpu.transpose_load":
                    new = ir.Operation.create("amdgpu.transpose_load", results=[rt],
                                              operands=[src, idx])
                    val = new.results[0]
                else:
                    new = ir.Operation.create("vector.load", results=[flat],
                                              operands=[src, idx])
                    val = new.results[0]
                    if str(flat) != str(rt):
                        val = B.vector.shape_cast(rt, val)
            self._tag(new, S.FRAG_LOAD, {"channel": d.channel, "stage": d.stage,
                                         "subtile": d.subtile, "id": i})
            self.frag_value[(i, k)] = val

    def _emit_mmas(self, i: int, d) -> None:
        """The MFMAs of MMA ``i`` of the body, on the fragments its sources name, each
        continuing its accumulator's chain."""
        an = self.an
        ja, ca, jb, cb = self.mma_sources[i]
        for k in self.mfmas_of.get((d.stage, d.subtile), ()):   # ab_diagonal: (0, 1) none
            m = an.mfmas[k]
            op = an.ops[m.op]
            mapping = {self.iv: self._iv_at(0)}
            for j, c, rs in ((ja, ca, m.a_reads), (jb, cb, m.b_reads)):
                for r in rs:
                    mapping[self.read_ops[r].results[0]] = (
                        self.carried_arg[(j, r)] if c else self.frag_value[(j, r)])
            cl = Cloner(self.body_set, mapping)
            a, b = cl.get(op.operands[0]), cl.get(op.operands[1])
            new = op.clone()
            set_new_operands(new, [a, b, self.acc_now[m.acc]])    # (no one has read it)
            self.acc_now[m.acc] = new.results[0]
            # the next MFMA of this accumulator continues from here
            self._tag(new, S.MMA_OP, {"stage": d.stage, "subtile": d.subtile, "id": i})


def even_trips_proven(loop, least: int = 1) -> bool:
    """A trip count known only at run time that the bounds' arithmetic shows even and at
    least ``2 * least``: lower bound 0, upper bound a product with a constant multiple of
    two steps, whose other factor is a constant >= ``least`` or a ``max`` with one."""
    lb, ub, step = list(loop.operands)[:3]
    s = constant_int(step)
    if constant_int(lb) != 0 or s is None or s <= 0:
        return False

    def at_least(v) -> bool:
        v = through_casts(v)
        c = constant_int(v)
        if c is not None:
            return c >= least
        if isinstance(v.owner, ir.Block):
            return False
        o = _op(v.owner)
        return o.name in ("arith.maxui", "arith.maxsi") and any(
            (constant_int(x) or 0) >= least for x in o.operands)

    u = through_casts(ub)
    if isinstance(u.owner, ir.Block) or _op(u.owner).name != "arith.muli":
        return False
    a, b = _op(u.owner).operands
    for x, y in ((a, b), (b, a)):
        c = constant_int(x)
        if c is not None and c > 0 and c % (2 * s) == 0 and at_least(y):
            return True
    return False


def _trap_unless_even_trips(loop, step2, least: int = 1) -> None:
    """A loop whose trip count is only known at run time: trap (``s_trap``) unless it is
    even and at least ``2 * least``, the schedule's contract, rather than compute a wrong
    result."""
    A = B.arith
    lb, ub = loop.operands[0], loop.operands[1]
    t = lb.type
    span = A.subi(ub, lb)
    rem = A.remui(span, step2)
    zero = A.constant(t, ir.IntegerAttr.get(t, 0))
    odd = A.cmpi(A.CmpIPredicate.ne, rem, zero)
    need = step2 if least == 1 else A.muli(step2, A.constant(t, ir.IntegerAttr.get(t, least)))
    short = A.cmpi(A.CmpIPredicate.slt, span, need)
    bad = A.ori(odd, short)
    if_op = B.scf.IfOp(bad)
    with ir.InsertionPoint(if_op.then_block):
        ir.Operation.create("llvm.intr.trap")
        B.scf.YieldOp([])


def _iree_base_lowering(kernel) -> None:
    """An IREE kernel (``translation_info`` naming a codegen pipeline such as
    TileAndFuse) is done with tiling once its loop is pipelined: it names IREE's
    ``BaseLowering`` pipeline instead, so that ``iree-compile`` given it back (executable
    substitution) lowers it as it is rather than tiling and pipelining it again."""
    if "translation_info" not in kernel.attributes:
        # IREE's late codegen stages have dropped it; inside an executable, say how the
        # kernel is lowered (what substitution needs)
        p = kernel.parent
        while p is not None and _op(p).name != "hal.executable.variant":
            p = _op(p).parent
        bs = block_size(kernel)
        if p is not None and bs is not None:
            set_attribute(kernel, "translation_info", ir.Attribute.parse(
                f"#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> "
                f"workgroup_size = [{bs[0]}, {bs[1]}, {bs[2]}] subgroup_size = {WAVE_SIZE}>"))
        return
    text = str(kernel.attributes["translation_info"])
    new = re.sub(r"#iree_gpu\.pipeline<\w+>", "#iree_gpu.pipeline<BaseLowering>", text)
    if new != text:
        set_attribute(kernel, "translation_info", ir.Attribute.parse(new))
