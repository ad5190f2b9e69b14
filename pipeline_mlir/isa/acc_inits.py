"""The ISA gate's accumulator-start rule (``acc-init``): every MFMA of an accumulator
chain (:func:`~pipeline_mlir.isa.read_places.mfma_chains`) reads as its accumulator
(``src2``), on every path into it, either the result of an MFMA of its own chain or the
value the chain starts from.

From each such MFMA a walk back over the control-flow graph follows each ``src2``
register to what wrote it on each path, through the copies LLVM inserts (``v_mov_b32``,
``v_mov_b64``, ``v_accvgpr_write`` / ``_read`` / ``_mov``) and through its spills (a
reload ``scratch_load_dword*`` of a slot at a constant address, to the register the last
``scratch_store_dword*`` of that slot stored; a slot another store may have written, at
an address in a register or of another width, not followed), to one of: a zero (a copy
of the literal 0), a load (``global_`` / ``buffer_`` / ``ds_`` load: C's tile, a ``C +=``
kernel's start), an MFMA (and which register of its result), the function's entry
(nothing wrote it) or another instruction.
Refused (``acc-init`` at the MFMA's line):

- a register no instruction wrote on some path into the MFMA, or a literal not zero (the
  IR starts an accumulator from no other constant);
- the result of an MFMA of another chain, but for an MFMA the chains do not follow
  (:func:`mfma_chains` links no MFMA across a spill: it marks the spilled one) whose whole
  result the MFMA reads, each register of its accumulator from the register of the same
  place (:func:`_goes_on`: LLVM's spill of an accumulator kept in AGPRs, part of it to
  scratch and part to a VGPR, reloaded into other AGPRs; the chain goes on there, its
  start the spilled chain's, noted as not followed);
- an element of a chain's accumulator (one register of its ``src2``) that starts from a
  zero on one path and from a load on another (the IR starts each accumulator element
  from one value: a zero constant, or what it read before the loop; elements may start
  from different ones: IREE's read of a ``C +=`` tile gives the elements past C's edge
  as a constant zero, which LLVM folds, and reads the others).
  A zero that reaches the MFMA only past a block the lanes skip by ``s_cbranch_execz``
  (or by falling through an ``s_cbranch_execnz`` to the block placed out of line),
  which the block loads the register in, is a masked read's padding (a ``C +=`` kernel's
  read of C cut at C's edge: the lanes whose exec bit the read leaves off keep the zero
  written before it), not a second start.
  So is, where the input itself starts every accumulator from masked reads whose else
  value is a zero (``masked_starts``: the front end's word,
  :mod:`pipeline_mlir.lowering.acc_starts`), a zero reaching the MFMA only past a block
  that loads the register from global memory, skipped by a branch on ``scc`` or ``vcc``
  (a condition uniform in the wave: LLVM's branch around the read of C when the whole
  wave's elements lie past C's edge), over the block or falling through when the block
  is placed out of line.  Without that word such a zero is a second start: every lane of
  the wave then starts from it, which a lowering that zeroes an accumulator on one path
  and reads it on another gives too.

And ``operand-unwritten`` at an MFMA whose A or B operand register no instruction wrote
on some path into it (:func:`_unwritten_operands`).

Not held (a note): which element of C a load-started chain starts from (a ``C +=``
kernel's registers are held only to be written, and by no other chain); a start written
by another instruction (a conversion, a reload of a slot the walk does not follow);
chains :func:`mfma_chains` does not follow, and the chains going on from one
of them past a spill.

No MLIR here.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.asm_instr import registers
from pipeline_mlir.isa.findings import Finding
from pipeline_mlir.isa.read_places import COPIES, bare

__all__ = ["acc_init_findings"]

_LOADS = ("global_load", "buffer_load", "ds_read", "flat_load")
#: the branches on a condition the wave holds as one, and the loads of global memory
_UNIFORM = ("s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz", "s_cbranch_vccnz")
_GLOBAL_LOADS = ("global_load", "buffer_load", "flat_load")


#: the scratch accesses of whole dwords LLVM spills and reloads registers with
_SCRATCH_DWORDS = re.compile(r"scratch_(load|store)_dword(x[234])?$")


def _scratch_slot(i):
    """(the byte offset, the data registers) of a scratch access of whole dwords at a
    constant address (``off`` for both the address and the scalar base: LLVM's spill and
    reload with flat scratch), else None."""
    if not _SCRATCH_DWORDS.match(i.mnemonic) or len(i.operands) != 3:
        return None
    store = i.mnemonic.startswith("scratch_store")
    data, address = (i.operands[1], i.operands[0]) if store else \
        (i.operands[0], i.operands[1])
    if address.strip() != "off" or i.operands[2].strip() != "off":
        return None
    offset = 0
    for m in i.modifiers:
        if m.startswith("offset:"):
            try:
                offset = int(m[len("offset:"):], 0)
            except ValueError:
                return None
        else:
            return None
    return offset, registers(data)


def _stores_private(i) -> bool:
    """Whether ``i`` may write a lane's scratch memory (a spill slot)."""
    return i.mnemonic.startswith(("scratch_store", "scratch_atomic", "flat_store",
                                  "flat_atomic"))


def _origin(i, r: str):
    """What instruction ``i``, the last to write register ``r`` before the point walked
    from, makes of it: ("zero",), ("const", line) (a literal not zero), ("load", line),
    ("mfma", line, the register of its result), ("copy", source register), ("slot", byte
    offset, line) (a reload from a scratch slot: :func:`_scratch_slot`), ("other",
    line)."""
    if i.kind == "mfma":
        return "mfma", i.line, r
    if bare(i.mnemonic) in COPIES and len(i.operands) == 2:
        dst, src = registers(i.operands[0]), registers(i.operands[1])
        if not src:
            try:
                value = int(i.operands[1].strip(), 0)
            except ValueError:
                value = None
            if value == 0 or i.operands[1].strip() in ("0.0", "0.0e0"):
                return ("zero",)
            return "const", i.line
        if len(src) == len(dst) and r in dst:
            return "copy", src[dst.index(r)]
        return "other", i.line
    if i.mnemonic.startswith(_LOADS):
        return "load", i.line
    slot = _scratch_slot(i)
    if slot is not None and r in slot[1]:
        return "slot", slot[0] + 4 * slot[1].index(r), i.line
    return "other", i.line


class _Walk:
    """Backward reaching writes over ``fn``: per (block, register), the indices of the
    block's instructions writing it."""

    def __init__(self, fn: AsmFunction, masked_starts: bool = False):
        self.fn, self.masked_starts = fn, masked_starts
        index = {b.label: k for k, b in enumerate(fn.blocks)}
        self.preds: list[list[int]] = [[] for _ in fn.blocks]
        for k, b in enumerate(fn.blocks):
            for s in b.succs:
                self.preds[index[s]].append(k)
        self.writes: list[dict] = []
        self.stores: list[list[int]] = []      # per block, its scratch / flat stores
        for b in fn.blocks:
            w: dict = {}
            for j, i in enumerate(b.instrs):
                for r in i.defs:
                    w.setdefault(r, []).append(j)
            self.writes.append(w)
            self.stores.append([j for j, i in enumerate(b.instrs) if _stores_private(i)])

    def skips(self, p: int, k: int, r) -> str:
        """How block ``p`` reaches block ``k`` past a block its lanes skip: "masked", by an
        ``s_cbranch_execz`` to it (none of them on), or by falling through an
        ``s_cbranch_execnz`` to another block (LLVM's layout with the masked block placed
        out of line); "uniform", with ``masked_starts``, past a block that loads register
        ``r`` from global memory by a branch on ``scc`` or ``vcc`` (:meth:`_uniform_skip`);
        else ""."""
        ins = self.fn.blocks[p].instrs
        if not ins:
            return ""
        last, label = ins[-1], self.fn.blocks[k].label
        if last.mnemonic == "s_cbranch_execz":
            return "masked" if tuple(last.operands[:1]) == (label,) else ""
        if last.mnemonic == "s_cbranch_execnz":
            return "masked" if k == p + 1 and tuple(last.operands[:1]) != (label,) else ""
        return "uniform" if self.masked_starts and last.mnemonic in _UNIFORM and \
            not isinstance(r, tuple) and self._uniform_skip(p, k, r) else ""

    def _uniform_skip(self, p: int, k: int, r: str) -> bool:
        """Whether block ``p``'s branch on a condition uniform in the wave reaches ``k``
        over the block after ``p``, or ``k`` is the block after and the branch goes to a
        block placed out of line; and that skipped block loads ``r`` from global memory
        (LLVM's branch around a masked read of C, the whole wave's elements past C's
        edge)."""
        to = tuple(self.fn.blocks[p].instrs[-1].operands[:1])
        if to == (self.fn.blocks[k].label,):
            skipped = p + 1
        elif k == p + 1:
            skipped = next((n for n, b in enumerate(self.fn.blocks) if (b.label,) == to),
                           None)
        else:
            return False
        return skipped is not None and skipped < len(self.fn.blocks) and skipped != k and \
            any(i.mnemonic.startswith(_GLOBAL_LOADS) and r in i.defs
                for i in self.fn.blocks[skipped].instrs)

    def origins(self, k: int, j: int, r: str) -> frozenset:
        """The origins (:func:`_origin`, copies followed; ("unwritten",) at the function's
        entry) of register ``r`` read by instruction ``j`` of block ``k``, over all paths;
        a zero reached past a block skipped by ``s_cbranch_execz`` (:meth:`skips`) is
        ("zero", "masked"), past one skipped by a uniform branch ("zero", "uniform").  A
        reload from a scratch slot is followed to the register the store of that slot
        before it spilled, on each path (:meth:`_slot`)."""
        at = self.writes[k].get(r, ())
        n = bisect_left(at, j)
        if n:       # (most often: an MFMA of the block, the chain going on)
            i = self.fn.blocks[k].instrs[at[n - 1]]
            if i.kind == "mfma":
                return frozenset({("mfma", i.line, r)})
        out: set = set()
        work = [(k, j, r, "")]
        seen: set = set()

        def push(state) -> None:
            if state not in seen:
                seen.add(state)
                work.append(state)

        while work:
            k, j, r, masked = work.pop()
            # r: a register, or a scratch slot ("slot", offset, reload line)
            got = self._slot(k, j, r) if isinstance(r, tuple) else self._written(k, j, r)
            if got is not None:
                if got[0] == "copy":
                    push((*got[1], masked))
                else:
                    out.add(("zero", masked) if masked and got == ("zero",) else got)
                continue
            # written in no earlier instruction of the block: from each predecessor's end
            if k == 0:
                out.add(("unwritten",) if not isinstance(r, tuple) else ("other", r[2]))
            for p in self.preds[k]:
                push((p, len(self.fn.blocks[p].instrs), r, masked or self.skips(p, k, r)))
        return frozenset(out)

    def _written(self, k: int, j: int, r: str):
        """What writes register ``r`` last before instruction ``j`` of block ``k``: its
        origin (:func:`_origin`), a copy or a reload as ("copy", (block, index, the source
        register or the slot)) to walk on from; None, no write in the block before ``j``."""
        at = self.writes[k].get(r, ())
        n = bisect_left(at, j)
        if not n:
            return None
        got = _origin(self.fn.blocks[k].instrs[at[n - 1]], r)
        if got[0] in ("copy", "slot"):
            return "copy", (k, at[n - 1], got[1] if got[0] == "copy" else got)
        return got

    def _slot(self, k: int, j: int, slot: tuple):
        """What writes ``slot`` (("slot", byte offset, the reload's line)) last before
        instruction ``j`` of block ``k``: ("copy", (block, index, register)) a spill of a
        register (:func:`_scratch_slot`) covering its dword; ("other", the reload's line)
        a store that may write it another way (another width, another address: where the
        reload is a start the walk does not follow, as before); None, no store in the
        block before ``j`` (the walk goes on into the block's predecessors)."""
        _, offset, reload = slot
        for x in reversed([x for x in self.stores[k] if x < j]):
            i = self.fn.blocks[k].instrs[x]
            spill = _scratch_slot(i)
            if spill is None:
                return "other", reload
            start, regs = spill
            if start <= offset < start + 4 * len(regs):
                if (offset - start) % 4:
                    return "other", reload
                return "copy", (k, x, regs[(offset - start) // 4])
        return None


class _Lines(dict):
    """The instructions of a function by line, read when a message first needs one."""

    def __init__(self, fn: AsmFunction):
        super().__init__()
        self.fn = fn

    def __missing__(self, line: int):
        self.update((i.line, i) for i in self.fn.instrs())
        return self[line]


def acc_init_findings(fn: AsmFunction, chains,
                      masked_starts: bool = False) -> tuple[list[Finding], list[str]]:
    """The ``acc-init`` findings of ``fn`` (module docstring) for its accumulator chains
    ``chains`` (:class:`~pipeline_mlir.isa.read_places.Chains`), and what is not held;
    ``masked_starts``: the input starts every accumulator from masked reads whose else
    value is a zero (:attr:`~pipeline_mlir.kernel.plan.KernelPlan.masked_starts`)."""
    walk = _Walk(fn, masked_starts)
    instrs = _Lines(fn)
    where = {i.line: (k, j, i) for k, b in enumerate(fn.blocks)
             for j, i in enumerate(b.instrs) if i.kind == "mfma"}
    per_chain: dict = {}        # chain -> [(MFMA line, register, origins)]
    spilled: dict = {}          # MFMA line -> the MFMAs whose spilled result it goes on from
    for line, c in chains.chain.items():
        if line in chains.why or line not in where:
            continue
        k, j, i = where[line]
        src2 = registers(i.operands[3]) if len(i.operands) > 3 else ()
        got = [walk.origins(k, j, r) for r in src2]
        per_chain.setdefault(c, []).extend((line, r, o, n)
                                           for n, (r, o) in enumerate(zip(src2, got)))
        spilled[line] = _goes_on(src2, got, where, chains)
    found: list[Finding] = []
    loaded = others = uniform = 0
    resumed = set()             # chains that go on from a spilled chain's result
    for c, reads in sorted(per_chain.items()):
        starts = {o for line, _, got, _ in reads for o in got
                  if not (o[0] == "mfma" and (chains.chain.get(o[1]) == c or
                                              o[1] in spilled[line]))}
        # the elements of the accumulator that start from a zero (unmasked) somewhere:
        # each element starts from one value, elements may start from different ones (a
        # C tile's elements past C's edge known zero, the others read)
        zeros = {n for _, _, got, n in reads if ("zero",) in got}
        bad = None
        for line, r, got, n in reads:
            for o in sorted(got):
                if o[0] == "const":
                    why = (f"{r} is written by {instrs[o[1]].text} (line {o[1]}), a "
                           f"constant not zero")
                elif o[0] == "unwritten":
                    why = f"{r} is written by no instruction on a path into it"
                elif o[0] == "mfma" and chains.chain.get(o[1]) != c and \
                        o[1] not in spilled[line]:
                    why = (f"{r} holds the result of {instrs[o[1]].mnemonic} (line {o[1]}), "
                           f"an MFMA of another accumulator chain")
                elif n in zeros and o[0] == "load":
                    why = (f"{r} is written by {instrs[o[1]].mnemonic} (line {o[1]}) "
                           f"on a path into it, by a zero on another: the chain starts "
                           f"from one value")
                else:
                    continue
                bad = bad or (line, why)
        if bad is not None:
            line, why = bad
            found.append(Finding(
                "acc-init", "-", (), (line,),
                f"{where[line][2].text} (line {line}) reads as its accumulator what its "
                f"chain does not start from: {why}"))
        else:
            if any(spilled[line] for line, _, _, _ in reads):
                resumed.add(c)
            loaded += any(o[0] == "load" for o in starts)
            others += any(o[0] == "other" for o in starts)
            uniform += ("zero", "uniform") in starts
    unfollowed = {c for ln, c in chains.chain.items() if ln in chains.why}
    notes = _notes(loaded, uniform, others, len(unfollowed), len(resumed))
    return found + _unwritten_operands(fn), notes


def _notes(loaded: int, uniform: int, others: int, unfollowed: int, resumed: int) -> list:
    """What :func:`acc_init_findings` does not hold, from how many chains start so."""
    notes = []
    if loaded:
        notes.append(f"{loaded} accumulator chain(s) start from a load: which element of C "
                     f"each starts from is not held")
    if uniform:
        notes.append(f"{uniform} accumulator chain(s) start, on some path, from a zero past "
                     f"a branch on a condition uniform in the wave around a load: taken as "
                     f"the input's masked read (the front end's word that the input starts "
                     f"every accumulator so), which element of C not held")
    if others:
        notes.append(f"{others} accumulator chain(s) start, on some path, from a register "
                     f"another instruction than a copy, a load, a zero or an MFMA writes: "
                     f"that start not held")
    if unfollowed:
        notes.append(f"the start of {unfollowed} accumulator chain(s) not followed "
                     f"(their chains are not)")
    if resumed:
        notes.append(f"{resumed} accumulator chain(s) go on from the whole result of "
                     f"an MFMA of such a chain (spilled, reloaded into other registers): "
                     f"their start that chain's, not followed")
    return notes


def _goes_on(src2: tuple, got: list, where: dict, chains) -> frozenset:
    """The MFMAs (lines) whose whole result an MFMA reading ``src2`` as its accumulator
    (``got``: each register's origins) reads, each register from the register of the
    same place in that result (through copies and scratch spills), where the chains
    (``chains``) do not follow that MFMA's: LLVM spilled the accumulator (or copied part
    of it through a VGPR, ``Reload Reuse``) and reloaded it into other registers, the one
    accumulator going on in a chain of its own (``mfma_chains`` links no MFMA across a
    spill).  (Per register over all paths: not the tuple per path.)"""
    if not src2:
        return frozenset()
    out = set()
    for o in got[0]:
        if o[0] != "mfma" or o[1] not in chains.why or o[1] not in where:
            continue
        dst = registers(where[o[1]][2].operands[0])
        if len(dst) == len(src2) and \
                all(("mfma", o[1], d) in g for d, g in zip(dst, got)):
            out.add(o[1])
    return frozenset(out)


#: the VGPRs the hardware writes at a kernel's entry (the workitem ids, at most three)
_ENTRY_VGPRS = frozenset({"v0", "v1", "v2"})


def _unwritten_operands(fn: AsmFunction) -> list[Finding]:
    """``operand-unwritten``: an MFMA reading as its A or B operand a register that no
    instruction writes on some path into it (the MFMA then multiplies whatever the register
    held: an MFMA moved above the fragment read that fills it, in straight code).  A forward
    dataflow of the registers written on every path (their intersection at a join).  One
    finding, at the first such MFMA, counting the others."""
    blocks = fn.blocks
    index = {b.label: k for k, b in enumerate(blocks)}
    preds: list[list[int]] = [[] for _ in blocks]
    for k, b in enumerate(blocks):
        for t in b.succs:
            preds[index[t]].append(k)
    writes = [frozenset(r for i in b.instrs for r in i.defs) for b in blocks]
    every = frozenset().union(*writes) | _ENTRY_VGPRS
    out = [every] * len(blocks)
    entry = [_ENTRY_VGPRS] * len(blocks)
    changed = True
    while changed:      # registers written on every path to each block's end
        changed = False
        for k in range(len(blocks)):
            # the function's entry a path of its own into block 0; a block no branch
            # reaches (none of LLVM's) held to nothing
            ins = [out[p] for p in preds[k]] + ([_ENTRY_VGPRS] if k == 0 else [])
            got = frozenset.intersection(*ins) if ins else every
            entry[k] = got
            new = got | writes[k]
            if new != out[k]:
                out[k], changed = new, True
    bad = []
    for k, b in enumerate(blocks):
        written = set(entry[k])
        for i in b.instrs:
            if i.kind == "mfma":
                r = next((r for o in i.operands[1:3] for r in registers(o)
                          if r not in written), None)
                if r is not None:
                    bad.append((i, r))
            written.update(i.defs)
    if not bad:
        return []
    i, r = bad[0]
    return [Finding("operand-unwritten", "-", (), (i.line,),
                    f"{i.text} (line {i.line}) reads as an operand {r}, which no instruction "
                    f"writes on a path into it", len(bad))]
