"""``sched-word-masks``: a prefix mask of narrow elements applied a 32-bit word at a time.

IREE's guarded loads of a partial K tile end in ``arith.select %m, %v, %zero`` with ``%m =
vector.create_mask %n`` (the first ``n`` elements kept, the others made 0) on a vector of
8- or 16-bit elements (``vector<16xi8>``). LLVM selects such a vector element by element:
on gfx950 some 40 VALU instructions of byte shifts, ``v_bitop3_b16`` and ``v_cndmask`` per
16-byte load, on every copy of the loop that carries the guards. This pass rewrites the
select into the same bits computed per 32-bit word: the vector is bitcast to ``W`` words
of ``E`` elements each, word ``j`` keeps ``k_j = clamp(n - E*j, 0, E)`` elements, and is
``and``-ed with ``-1`` when ``k_j = E`` and with ``2^(b*k_j) - 1`` otherwise (``b`` the
element's bits; little-endian: the word's first elements are its low bits), then bitcast
back. ``n`` is clamped to ``0 .. N`` in ``index`` before it is made 32 bits (as
``create_mask`` clamps), so every ``n`` gives the select's value, bit for bit.

It takes a select whose condition is a 1-D ``vector.create_mask`` of the same length, whose
false value is an ``arith.constant`` of all-zero bits (an integer 0, a float +0.0) and
whose vector's bits are a whole number of 32-bit words of 8- or 16-bit elements; any other
select is left as it is. It is part of the LLVM step, after ``sched-fold-mask-guards``,
and it never fails.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import zero_bits
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation as _op, walk_ops
from pipeline_mlir.passes._common import ModulePass, OpError

#: the element widths it rewrites (a wider element is selected whole by LLVM already)
NARROW_BITS = (8, 16)
WORD_BITS = 32


def word_shape(t) -> tuple[int, int] | None:
    """(words, elements per word) of the vector type ``t`` when it is 1-D, of 8- or 16-bit
    elements, a whole number of 32-bit words; else None."""
    if not isinstance(t, ir.VectorType) or t.rank != 1 or t.scalable:
        return None
    bits = t.element_type.width if hasattr(t.element_type, "width") else None
    if bits not in NARROW_BITS or (t.shape[0] * bits) % WORD_BITS:
        return None
    return t.shape[0] * bits // WORD_BITS, WORD_BITS // bits


def prefix_selects(root) -> list:
    """The selects under ``root`` this pass rewrites (module docstring)."""
    def taken(o) -> bool:
        if o.name != "arith.select" or len(o.results) != 1:
            return False
        t = o.results[0].type
        cond = o.operands[0]
        if word_shape(t) is None or isinstance(cond.owner, ir.Block):
            return False
        mask = _op(cond.owner)
        return (mask.name == "vector.create_mask" and len(mask.operands) == 1
                and ir.VectorType(cond.type).shape == ir.VectorType(t).shape
                and zero_bits(o.operands[2]))
    return walk_ops(root, taken)


def _make(name: str, operands: list, result, **attrs):
    return _op(ir.Operation.create(name, results=[result], operands=operands,
                                   attributes=attrs)).results[0]


def _const(text: str, t):
    return _make("arith.constant", [], t, value=ir.Attribute.parse(f"{text} : {t}"))


def rewrite(select) -> None:
    """``select`` (one of :func:`prefix_selects`) computed a word at a time."""
    t = ir.VectorType(select.results[0].type)
    words, per = word_shape(t)
    bits = WORD_BITS // per
    index, i32, i1 = ir.IndexType.get(), ir.IntegerType.get_signless(32), \
        ir.IntegerType.get_signless(1)
    wt, ct = ir.VectorType.get([words], i32), ir.VectorType.get([words], i1)
    n = _op(select.operands[0].owner).operands[0]
    with ir.InsertionPoint(select), select.location:
        n = _make("arith.maxsi", [n, _const("0", index)], index)
        n = _make("arith.minsi", [n, _const(str(t.shape[0]), index)], index)
        n = _make("vector.broadcast", [_make("arith.index_cast", [n], i32)], wt)
        firsts = ", ".join(str(per * j) for j in range(words))
        k = _make("arith.subi", [n, _const(f"dense<[{firsts}]>", wt)], wt)
        k = _make("arith.minsi", [_make("arith.maxsi", [k, _const("dense<0>", wt)], wt),
                                  _const(f"dense<{per}>", wt)], wt)
        # k < per: at most 24 bits kept, a shift below 32; k = per: the select picks -1
        shift = _make("arith.muli", [k, _const(f"dense<{bits}>", wt)], wt)
        shift = _make("arith.minsi", [shift, _const(f"dense<{WORD_BITS - bits}>", wt)], wt)
        low = _make("arith.subi", [_make("arith.shli", [_const("dense<1>", wt), shift], wt),
                                   _const("dense<1>", wt)], wt)
        whole = _make("arith.cmpi", [k, _const(f"dense<{per}>", wt)], ct,
                      predicate=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0))
        keep = _make("arith.select", [whole, _const("dense<-1>", wt), low], wt)
        as_words = _make("vector.bitcast", [select.operands[1]], wt)
        out = _make("vector.bitcast", [_make("arith.andi", [as_words, keep], wt)], t)
    select.results[0].replace_all_uses_with(out)
    select.erase()


class WordMasks(ModulePass):
    """Every prefix-masked select of narrow elements done per 32-bit word."""

    name = "sched-word-masks"
    summary = ("a select of 8- or 16-bit elements by a create_mask prefix against zero (IREE's "
               "guarded loads) done as 32-bit word masks, not element by element")

    def run(self, module) -> list[OpError]:
        with module.context, ir.Location.unknown():
            for s in prefix_selects(module):
                rewrite(s)
        return []
