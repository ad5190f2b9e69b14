"""Paths no run takes: two conditional branches that test one scalar register.

LLVM tests a pipelined loop's trip count twice when the loop may run zero times: once
around the zero-trip fence (``s_cmp_gt_u32 s20, 1`` and ``s_cbranch_scc1`` over the
fence's block) and once around the loop (``v_cmp_lt_u64_e64 s[34:35], s[20:21], 2``,
``s_and_b64 vcc, exec, s[34:35]``, ``s_cbranch_vccnz`` to the block of no iterations).
A path that jumps over the fence (``s20 > 1``) and then over the loop (``s[20:21] < 2``)
is walked by a dataflow that treats the two branches as free, yet no run takes it.  This
module tells the dataflows of the ISA check (:mod:`pipeline_mlir.isa.reg_waits`) which
edges a path may take, given what its earlier branches proved.

What an edge proves (:func:`edge_facts`), for a block ending in a conditional branch (an
``s_branch`` after it names the other edge; else the next block), only where the
condition is read here:

* ``s_cmp_<op>_u32 sN, C`` (or ``C, sN``; ``<op>``: ``eq lg gt ge lt le``; ``C`` a
  non-negative integer) and ``s_cmp_{eq,lg}_u64 s[N:N+1], C`` (``C`` at most 64, an
  inline constant) whose ``scc`` the ``s_cbranch_scc0`` / ``scc1`` reads (no scalar
  instruction between but waits, barriers, fences and scalar loads, whatever the
  instruction table says of its ``scc``): the unsigned range of the register on each edge
  (``lg`` only where that is one range: ``C`` 0 or the maximum);
* ``v_cmp_<op>_u32_e64`` / ``_u64_e64`` (``<op>``: ``eq ne gt ge lt le``) of a scalar
  register (or pair) and such a constant, writing ``vcc`` or a pair ``D`` (both halves
  last written by it) that ``s_and_b64 vcc, exec, D`` (either order) masks, read by
  ``s_cbranch_vccnz`` / ``vccz`` (no other vector compare between, ``v_cmpx`` among
  them): the range on the edge where ``vcc`` is not zero only.  There some lane's
  compare was true, and every lane compares the same scalar values; where ``vcc`` is zero
  ``exec`` may have been, so that edge proves nothing.

A fact holds only if no instruction from the compare to the block's end writes the
register.  A path's facts (per scalar register, its unsigned 32-bit range) are dropped
for every register a block writes (any instruction of it; a call or ``s_setpc`` drops
them all), then the edge's fact is added: an edge whose fact no value satisfies (a 64-bit
range of a pair against the ranges of its two halves) is a path no run takes and is not
walked.  Anything else (a signed compare, a register, a branch on ``exec``, another
instruction setting ``scc`` or ``vcc``) proves nothing and both edges stay walked.  A
compare that reads a register a scalar load may still be writing is the register rule's
finding (``wait-short``).

No MLIR here.
"""

from __future__ import annotations

import re

from pipeline_mlir.isa.asm import AsmFunction, AsmInstr

__all__ = ["Facts", "edge_facts", "TiedPaths"]

#: a path's facts: sorted (scalar register, lowest value, highest value), unsigned 32-bit
Facts = tuple

_M32 = (1 << 32) - 1
_M64 = (1 << 64) - 1
_SCMP = re.compile(r"^s_cmp_(eq|lg|gt|ge|lt|le)_u(32|64)$")
_VCMP = re.compile(r"^v_cmp_(eq|ne|gt|ge|lt|le)_u(32|64)_e64$")
_SGPR = re.compile(r"^s(\d+)$|^s\[(\d+):(\d+)\]$")
#: the outcome on the other edge, and with the operands swapped
_NOT = {"eq": "ne", "ne": "eq", "gt": "le", "le": "gt", "ge": "lt", "lt": "ge"}
_SWAP = {"eq": "eq", "ne": "ne", "gt": "lt", "lt": "gt", "ge": "le", "le": "ge"}
#: the kinds of scalar instructions that write no ``scc``
_QUIET = frozenset({"wait", "barrier", "nop", "sched_barrier", "sched_group_barrier",
                    "setprio", "smem"})
#: more facts per block than this: the further edges into it carry none
_CONTEXTS = 8


def _range(op: str, c: int, top: int) -> tuple[int, int] | None:
    """The unsigned values ``x`` with ``x <op> c`` true, as one range (lo > hi: none);
    None where they are not one range."""
    if op == "ne":
        return (1, top) if c == 0 else (0, top - 1) if c == top else None
    return {"eq": (c, c), "gt": (c + 1, top), "ge": (c, top), "lt": (0, c - 1),
            "le": (0, c)}[op]


def _operand(text: str, bits: int) -> tuple[str, ...] | None:
    """The scalar registers of ``text`` (one for 32 bits, a pair for 64), else None."""
    m = _SGPR.match(text.strip())
    if not m:
        return None
    if m.group(1) is not None:
        return (f"s{m.group(1)}",) if bits == 32 else None
    lo, hi = int(m.group(2)), int(m.group(3))
    return (f"s{lo}", f"s{hi}") if bits == 64 and hi == lo + 1 else None


def _constant(text: str, bits: int) -> int | None:
    try:
        c = int(text.strip(), 0)
    except ValueError:
        return None
    return c if 0 <= c <= (_M32 if bits == 32 else 64) else None


def _compare(op: str, bits: int, a: str, b: str):
    """(registers, unsigned range if the compare is true, if false) of a compare of a
    scalar register with a constant, else None."""
    regs, c = _operand(a, bits), _constant(b, bits)
    if regs is None:
        regs, c, op = _operand(b, bits), _constant(a, bits), _SWAP[op]
    if regs is None or c is None:
        return None
    top = _M32 if bits == 32 else _M64
    return regs, _range(op, c, top), _range(_NOT[op], c, top)


def _last_writer(instrs: list[AsmInstr], end: int, reg: str) -> int | None:
    """The index of the last instruction before ``end`` that writes ``reg`` (for ``scc``
    and ``vcc``, or may: any scalar instruction but waits, barriers, fences and scalar
    loads; any vector compare, ``v_cmpx`` among them)."""
    def may(i: AsmInstr) -> bool:
        if reg in i.defs:
            return True
        if reg == "scc":
            return i.mnemonic.startswith("s_") and i.kind not in _QUIET
        return reg == "vcc" and i.mnemonic.startswith("v_cmp")
    return next((n for n in range(end - 1, -1, -1) if may(instrs[n])), None)


def _condition(instrs: list[AsmInstr], n: int):
    """What the conditional branch ``instrs[n]`` proves: (the compare's index, registers,
    range when taken, range when not), a range None where that edge proves nothing."""
    br = instrs[n].mnemonic
    if br in ("s_cbranch_scc0", "s_cbranch_scc1"):
        w = _last_writer(instrs, n, "scc")
        m = _SCMP.match(instrs[w].mnemonic) if w is not None else None
        if m is None or (m.group(2) == "64" and m.group(1) not in ("eq", "lg")) \
                or len(instrs[w].operands) != 2:
            return None
        got = _compare("ne" if m.group(1) == "lg" else m.group(1),
                       int(m.group(2)), *instrs[w].operands)
        if got is None:
            return None
        regs, true, false = got
        return (w, regs, true, false) if br.endswith("1") else (w, regs, false, true)
    if br not in ("s_cbranch_vccnz", "s_cbranch_vccz"):
        return None
    w = _last_writer(instrs, n, "vcc")
    if w is None:
        return None
    mask = instrs[w]
    if mask.mnemonic == "s_and_b64" and len(mask.operands) == 3 and \
            mask.operands[0] == "vcc" and "exec" in mask.operands[1:]:
        pair = _operand(mask.operands[2 if mask.operands[1] == "exec" else 1], 64)
        writers = {_last_writer(instrs, w, r) for r in pair} if pair else {None}
        w = writers.pop() if len(writers) == 1 else None
        if w is None or instrs[w].defs[:2] != pair:
            return None
    m = _VCMP.match(instrs[w].mnemonic)
    if m is None or len(instrs[w].operands) != 3:
        return None
    got = _compare(m.group(1), int(m.group(2)), *instrs[w].operands[1:])
    if got is None:
        return None
    regs, true, _ = got
    return (w, regs, true, None) if br.endswith("nz") else (w, regs, None, true)


def edge_facts(fn: AsmFunction, k: int) -> dict[str, tuple]:
    """Per successor label of block ``k``: what taking that edge proves, (registers,
    (lo, hi)) (module docstring); a successor missing proves nothing."""
    instrs = fn.blocks[k].instrs
    n = next((n for n in range(len(instrs) - 1, -1, -1)
              if instrs[n].mnemonic.startswith("s_cbranch_")), None)
    if n is None or any(i.mnemonic != "s_branch" for i in instrs[n + 1:]):
        return {}
    got = _condition(instrs, n)
    if got is None:
        return {}
    w, regs, taken, other = got
    if any(r in i.defs for i in instrs[w + 1:] for r in regs):
        return {}
    label = instrs[n].operands[0] if instrs[n].operands else None
    after = [i for i in instrs[n + 1:] if i.operands]
    not_taken = after[0].operands[0] if after else \
        fn.blocks[k + 1].label if k + 1 < len(fn.blocks) else None
    if label is None or label == not_taken:
        return {}
    out = {}
    for target, r in ((label, taken), (not_taken, other)):
        if r is not None and target is not None:
            out[target] = (regs, r)
    return out


def _with(facts: dict, regs: tuple[str, ...], lo: int, hi: int) -> bool:
    """``facts`` with the fact that ``regs`` (a register or a pair, low half first) holds
    a value in ``lo..hi``; False where no value can (``facts`` then unusable)."""
    full = (0, _M32)
    if len(regs) == 1:
        a, b = facts.get(regs[0], full)
        facts[regs[0]] = (max(a, lo), min(b, hi))
        return facts[regs[0]][0] <= facts[regs[0]][1]
    (la, ha), (lb, hb) = facts.get(regs[0], full), facts.get(regs[1], full)
    if max(lb << 32 | la, lo) > min(hb << 32 | ha, hi):
        return False
    if lo >> 32 == hi >> 32 and not _with(facts, regs[:1], lo & _M32, hi & _M32):
        return False
    return _with(facts, regs[1:], lo >> 32, hi >> 32)


class TiedPaths:
    """The edges of ``fn`` a path with given facts may take (module docstring)."""

    def __init__(self, fn: AsmFunction) -> None:
        self.index = {b.label: k for k, b in enumerate(fn.blocks)}
        self.succs = [[self.index[s] for s in b.succs] for b in fn.blocks]
        self.proves = [{self.index[s]: f for s, f in edge_facts(fn, k).items()}
                       for k in range(len(fn.blocks))]
        self.written = [frozenset(r for i in b.instrs for r in i.defs) for b in fn.blocks]
        self.calls = [any(i.mnemonic.startswith(("s_swappc", "s_setpc", "s_call"))
                          for i in b.instrs) for b in fn.blocks]
        self.seen: dict[int, set] = {}

    def edges(self, k: int, facts: Facts) -> list[tuple[int, Facts]]:
        """(successor, the path's facts there) of each edge out of block ``k`` a path
        holding ``facts`` at its top may take."""
        kept = {} if self.calls[k] else \
            {r: (lo, hi) for r, lo, hi in facts if r not in self.written[k]}
        out = []
        for t in self.succs[k]:
            now = dict(kept)
            fact = self.proves[k].get(t)
            if fact is not None and not _with(now, fact[0], *fact[1]):
                continue            # no run takes this edge on this path
            after = tuple(sorted((r, lo, hi) for r, (lo, hi) in now.items()))
            seen = self.seen.setdefault(t, set())
            if after not in seen and len(seen) >= _CONTEXTS:
                after = ()
            seen.add(after)
            out.append((t, after))
        return out
