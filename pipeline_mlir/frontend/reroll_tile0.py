"""The prologue's K tile 0 proven the body's where IREE folded a select there
(``reroll_regs.py``'s roll-back of IREE's prefetch pipelining through registers): the
body's select of a guarded load's mask, or of a store's padding, by whether the thread's
K row lies inside K, which IREE folds for K tile 0, all of whose rows do; its condition
evaluated true at tile 0 in every thread of every workgroup enumerated.  A mixin of the
roll-back's class, whose ``grid``, ``ahead``, ``lb`` and ``fail`` it uses.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.analysis.id_forms import made_alike
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.llvm_values import defining_op as _defining
from pipeline_mlir.frontend.kernel_ir import at

#: how the roll-back's refusals name the loop IREE pipelined
WHAT = "pipelined through registers"


class TileZero:
    """The proofs at K tile 0 of a roll-back (module docstring)."""

    #: the K tile the prologue's ops are proven the body's at (``ahead`` bound to ``lb``):
    #: 0, or 1 for the tile a 3-stage loop carries in (``reroll_carried.py``)
    TILE = "K tile 0"

    def _true_at_tile_0(self, pro, sel, what: str, lead: str, false: str) -> None:
        """The condition of the body's select ``sel`` (of its ``what``) true at K tile 0 in
        every thread of every workgroup enumerated; else ``pro``, the prologue's op, refused
        (``lead``: what it is not proven, ``false``: what it does then)."""
        ahead = self.ahead.results[0]

        def differs(ev):
            ev.bind(ahead, self.lb)
            kept = self._value(ev, sel.operands[0], f"{what} condition", sel,
                               "its form is not true for every thread")
            ev.unbind(ahead)
            return None if np.all(np.asarray(kept) != 0) else f"{lead}: {false}"
        self.grid.prove(pro, f"the condition of the body's {what} select is not true for "
                             f"every workgroup by its forms", lead, differs)

    def _kept_at_tile_0(self, pro, x, y, what: str, lead: str):
        """The leaves (:func:`made_alike`) of ``x``, a part of the prologue's op ``pro``, and
        of the true operand of ``y``, the body's, when ``y`` is an ``arith.select`` whose
        condition is true at K tile 0 in every thread of every workgroup enumerated: IREE
        folds the select of K tile 0, all of whose rows lie inside K (an unaligned K's
        guarded loads of a ``K x M`` A or ``K x N`` B: the body's mask ``select(the
        thread's K row is inside K, the edge mask, none)``, the prologue's the edge mask);
        else None (and a condition shown false in a workgroup refused there)."""
        sel = _defining(y)
        if sel is None or sel.name != "arith.select":
            return None
        pairs = made_alike(x, sel.operands[1])
        if pairs is not None:
            self._true_at_tile_0(pro, sel, what, lead, f"its {what} is the body's "
                                 f"'arith.select' at {at(sel)} unselected, whose condition is "
                                 f"false at {self.TILE}")
        return pairs

    def _value(self, ev, v, what: str, op, why: str):
        """``v`` (part ``what`` of ``op``: a guard, a padding condition, an integer a mask,
        pass-through or padding value is made from) in ``ev``'s workgroup; one the
        evaluator cannot compute refused at the op it stops at, saying the roll-back needs
        the part's form (``why`` its forms did not decide)."""
        try:
            return ev.value(v)
        except Unevaluable as e:
            self.fail(e.op, f"(computing the {what} of the '{op.name}' op at {at(op)}) "
                            f"cannot be evaluated in a workgroup ({e}): the roll-back of "
                            f"a loop {WHAT} needs the {what}'s form over the workgroup's "
                            f"values, or its value in each workgroup, to prove the "
                            f"prologue's op the body's at {self.TILE} ({why})")
