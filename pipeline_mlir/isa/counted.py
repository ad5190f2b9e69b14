"""Which gfx950 instructions count on which wait counter: the one table of the ISA check.

Every rule of the ISA check that counts instructions on a counter reads it here: the
"held" rule of the comparison (:mod:`pipeline_mlir.isa.held`), the order rule
(:mod:`pipeline_mlir.isa.wait_order`), the fragment waits
(:mod:`pipeline_mlir.isa.frag_waits`) and the register-level wait check
(:mod:`pipeline_mlir.isa.reg_waits`).

Per counter (gfx9 counts stores on vmcnt; gfx10 moved them to a vscnt that gfx950 lacks):

* ``in_order``: the instruction kinds (``pipeline_mlir.isa.asm_instr.classify``) that
  count on it and complete in issue order among themselves: vector-memory loads, stores and
  LDS DMA on vmcnt; LDS reads and writes on lgkmcnt.  An ``s_waitcnt`` of count ``n``
  completes each such instruction that has at least ``n`` of its peers issued after it.
* ``any_order``: those that count on it and complete in any order: scalar-memory
  instructions on lgkmcnt, so only ``lgkmcnt(0)`` is certain to complete one.
* ``prefixes``: ``(mnemonic prefix, order)`` pairs read before the kinds, the first match
  deciding: flat memory counts on both counters and in any order on each (a flat access
  may go to LDS or to memory, so gfx9 orders it with neither: LLVM waits for ``vmcnt(0)``
  / ``lgkmcnt(0)`` while one is pending), messages and the memory clocks on lgkmcnt (any
  order); the vector-memory prefixes (``buffer_``, ``tbuffer_``, ``global_``,
  ``scratch_``) count on vmcnt in order whatever their kind.
* ``field``: the wait's attribute (``AsmInstr.vm`` / ``.lgkm``, the skeleton's ``Token``
  alike); ``limit``: the encoded maximum, the count that waits for nothing, and as many
  instructions as the counter holds (:data:`pipeline_mlir.target.gfx950.IN_FLIGHT`: one
  more stalls the wave until the oldest completes).

No MLIR here.
"""

from __future__ import annotations

import functools

from typing import NamedTuple

from pipeline_mlir.target.gfx950 import IN_FLIGHT, LGKMCNT_MAX, VMCNT_MAX

__all__ = ["Counted", "COUNTERS", "order_on", "counts_on", "counted_on"]


class Counted(NamedTuple):
    """One wait counter and what counts on it (the module docstring)."""

    name: str
    field: str
    limit: int
    in_order: tuple[str, ...]
    any_order: tuple[str, ...]
    prefixes: tuple[tuple[str, str], ...]


COUNTERS = {   # (lgkmcnt first: the order the ISA check's findings name them in)
    "lgkmcnt": Counted("lgkmcnt", "lgkm", LGKMCNT_MAX, ("ds_read", "ds_write"), ("smem",),
                       (("flat_", "any"), ("s_sendmsg", "any"), ("s_memtime", "any"),
                        ("s_memrealtime", "any"))),
    "vmcnt": Counted("vmcnt", "vm", VMCNT_MAX, ("vmem_load_lds", "vmem_load", "vmem_store"),
                     (), (("flat_", "any"), ("buffer_", "in"), ("tbuffer_", "in"),
                          ("global_", "in"), ("scratch_", "in"))),
}
assert all(IN_FLIGHT[c.field] == c.limit for c in COUNTERS.values())


def order_on(instr, counter: str) -> str | None:
    """How ``instr`` (an ``AsmInstr``) counts on ``counter``: ``"in"`` (in issue order with
    the counter's other in-order instructions), ``"any"`` (completes in any order) or
    ``None`` (it does not count there)."""
    return _order(instr.mnemonic, instr.kind, counter)


@functools.lru_cache(maxsize=4096)
def _order(mnemonic: str, kind: str, counter: str) -> str | None:
    """:func:`order_on` by the instruction's mnemonic and kind (what it reads of it)."""
    c = COUNTERS[counter]
    for prefix, order in c.prefixes:
        if mnemonic.startswith(prefix):
            return order
    if kind in c.in_order:
        return "in"
    if kind in c.any_order:
        return "any"
    return None


def counted_on(instr) -> tuple:
    """``(counter, its Counted, order)`` of each counter ``instr`` counts on
    (:func:`order_on` not None), in :data:`COUNTERS`' order: a loop over the counters an
    instruction counts on skips the others (most instructions count on none) without asking
    each one."""
    return _counted(instr.mnemonic, instr.kind)


@functools.lru_cache(maxsize=4096)
def _counted(mnemonic: str, kind: str) -> tuple:
    return tuple((counter, c, o) for counter, c in COUNTERS.items()
                 if (o := _order(mnemonic, kind, counter)) is not None)


def counts_on(instr, counter: str) -> bool:
    """Whether ``instr`` adds one to ``counter`` when it issues."""
    return order_on(instr, counter) is not None
