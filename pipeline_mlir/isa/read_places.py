"""Where each ``ds_read``'s result goes: the MFMA operand bytes its destination registers are.

The fragment-read rule (:mod:`pipeline_mlir.isa.frag_addresses`) tells which planned
read of a gap a ``ds_read`` is by the MFMA operand part it fills: the lowering records,
per planned read, the bytes of the A or B operand its result is
(:mod:`pipeline_mlir.analysis.operand_fills`); here the same is read from the assembly.
From each ``ds_read`` a walk of the control-flow graph follows its destination registers
(each register's bytes of the read's result) through the copies LLVM inserts
(``v_mov_b32``, ``v_mov_b64``, ``v_accvgpr_write`` / ``_read``) until each is written
again, and records every MFMA reading one of them as A (its first source) or B (its
second): (operand, the operand byte the read's byte 0 is at).

A read is not followed (:attr:`ReadPlaces.why` says why) where another instruction reads
one of the registers (a ``v_perm_b32`` or a conversion makes new bytes of them), where
its registers reach the operand at places that do not keep their order, or where they
reach no MFMA at all.

Which MFMA a read reaches is held by the MFMAs' accumulator chains
(:func:`mfma_chains`): the same walk from each MFMA's result registers to the MFMAs that
read them as their accumulator (``src2``), across the loop's back edge, links the MFMAs
of one accumulator; each MFMA's place in its chain counts the MFMAs before it from the
chain's start (an MFMA no MFMA feeds but across a back edge).

No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.asm_instr import registers

__all__ = ["ReadPlaces", "read_places", "Chains", "mfma_chains", "loaded_addresses", "COPIES",
           "bare", "loaded_operands"]

#: copies: mnemonic (without ``_e32`` / ``_e64``) -> registers per source
COPIES = frozenset({"v_mov_b32", "v_mov_b64", "v_accvgpr_write_b32", "v_accvgpr_read_b32",
                     "v_accvgpr_mov_b32"})
#: instructions that read no register of a vector result (waits, fences, scalar code)
_BLIND = frozenset({"wait", "barrier", "sched_barrier", "sched_group_barrier", "nop",
                    "salu", "smem", "branch"})


@dataclass(frozen=True)
class ReadPlaces:
    """Per MFMA reading the result of one ``ds_read``: (``"A"`` or ``"B"``, the operand byte
    the read's first byte is at, the MFMA's line, the first and the end byte of the read
    that operand holds: a ``ds_read2`` 's two pieces may fill two MFMAs); ``why`` (places
    empty): why the read is not followed; ``ahead``: the places (the same tuples) some path
    reaches crossing no back edge (the result of one execution of the read)."""

    places: frozenset = frozenset()
    why: str = ""
    ahead: frozenset = frozenset()


@dataclass(frozen=True)
class Chains:
    """The accumulator chains of a function's MFMAs: per MFMA line, its chain (the line of
    one of its MFMAs), its place in the chain (the MFMAs before it on its path from the
    chain's start, where no MFMA feeds its accumulator but across a back edge), the next
    MFMAs ((line, across a back edge) each: the MFMAs reading its result as their
    accumulator, through copies); ``why``: per MFMA line of a chain not followed, why."""

    chain: dict
    place: dict
    links: dict
    why: dict
    #: per MFMA line whose result an MFMA reads as its A or B (through copies), that
    #: MFMA's line and the operand
    operand_of: dict = field(default_factory=dict)


def bare(mnemonic: str) -> str:
    for tail in ("_e32", "_e64"):
        if mnemonic.endswith(tail):
            return mnemonic[:-len(tail)]
    return mnemonic


def read_places(fn: AsmFunction) -> dict[int, ReadPlaces]:
    """Per ``ds_read`` line of ``fn``, its :class:`ReadPlaces`."""
    places, why, _ = _scan(fn, "ds_read", (("A", 1), ("B", 2)), True)
    out = {}
    for line, found in places.items():
        out[line] = ReadPlaces(why=why[line]) if line in why else \
            ReadPlaces(frozenset(p[:5] for p in found),
                       ahead=frozenset(p[:5] for p in found if not p[5])) if found else \
            ReadPlaces(why="its registers reach no MFMA")
    return out


def _onward(fn: AsmFunction, index: dict) -> set:
    """The blocks of ``fn`` (numbers) from which a path reaches an MFMA."""
    onward = {k for k, b in enumerate(fn.blocks) if any(i.kind == "mfma" for i in b.instrs)}
    grown = True
    while grown:
        grown = False
        for k, b in enumerate(fn.blocks):
            if k not in onward and any(index[x] in onward for x in b.succs):
                onward.add(k)
                grown = True
    return onward


def _reach(i, used: list, operands: tuple, places: dict, why: dict) -> None:
    """:func:`_scan`'s MFMA ``i`` reading the held registers ``used`` ((register, (the
    result's line, its byte, across a back edge)) each): the places they reach added to
    ``places``, and a why for a result read out of order or as another operand."""
    mine: dict = {}
    for r, (line, byte, back) in used:
        mine.setdefault((line, back), []).append((r, byte))
    allowed = {r for _, x in operands if len(i.operands) > x for r in registers(i.operands[x])}
    for (line, back), held in mine.items():
        for name, x in operands:
            regs = registers(i.operands[x]) if len(i.operands) > x else ()
            got = [(r, byte) for r, byte in held if r in regs]
            if not got:
                continue
            spots = {4 * regs.index(r) - byte for r, byte in got}
            if len(spots) > 1:
                why.setdefault(line, f"its registers reach {name} of {i.mnemonic} (line "
                                     f"{i.line}) out of order")
            places[line].update((name, o, i.line, min(x for _, x in got),
                                 max(x for _, x in got) + 4, back, len(got)) for o in spots)
        if any(r not in allowed for r, _ in held):
            why.setdefault(line, f"{i.mnemonic} (line {i.line}) reads its registers as "
                                 f"other than {' or '.join(n for n, _ in operands)}")


def _scan(fn: AsmFunction, kind: str, operands: tuple,
          strict: bool) -> tuple[dict, dict, dict]:
    """Per instruction of ``kind`` (``ds_read``, ``mfma``, ``vmem_load``) of ``fn``, the places its
    result's registers reach: (operand name, the operand byte its result's byte 0 is at,
    the MFMA's line, the first and end byte of its result that operand holds, whether
    the path crossed a back edge, how many of its registers it reads) of each MFMA
    reading them as one of ``operands`` ((name, operand number) each), followed through
    copies until written again; why not followed, if so (``strict``: any other
    instruction reading them is a why, else it is passed); and its result's register
    count.  Each block is read once for the results it makes, and once more for each
    state of the results held at a predecessor's end (one register, one result on one
    path); an MFMA's result is followed only into blocks from which an MFMA lies ahead."""
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    places: dict = {}
    why: dict = {}
    size: dict = {}
    onward = _onward(fn, index) if kind == "mfma" else None
    # (block, the held state it starts with: register -> (line, byte, across a back edge),
    # whether the block's own results are made here)
    work = [(k, {}, True) for k in reversed(range(len(fn.blocks)))]
    seen: set = set()
    while work:
        k, cur, own = work.pop()
        b = fn.blocks[k]
        for i in b.instrs:
            source = own and i.kind == kind and bool(i.operands) and \
                (kind != "mfma" or len(i.operands) >= 4)
            if not cur and not source:
                if own:
                    continue
                break
            used = [r for r in i.uses if r in cur]
            if used and i.kind == "mfma":
                _reach(i, [(r, cur[r]) for r in used], operands, places, why)
            elif used and bare(i.mnemonic) in COPIES and len(i.operands) == 2:
                src, dst = registers(i.operands[1]), registers(i.operands[0])
                new = {d: cur[r] for r, d in zip(src, dst) if r in cur}
                for r in i.defs:
                    cur.pop(r, None)
                cur.update(new)
                continue
            elif used and not strict and i.mnemonic.startswith("scratch_store"):
                # an MFMA's result spilled (IREE's 16-wave kernels): reloaded, it feeds
                # the next MFMA of its chain through memory, where the walk does not go
                for r in used:
                    why.setdefault(cur[r][0], f"its result is spilled to scratch "
                                              f"({i.mnemonic}, line {i.line})")
            elif used and strict and i.kind not in _BLIND:
                for r in used:
                    why.setdefault(cur[r][0], f"{i.mnemonic} (line {i.line}) reads its "
                                              f"registers (not a copy)")
            for r in i.defs:
                cur.pop(r, None)
            if source:
                dst = registers(i.operands[0])
                size[i.line] = len(dst)
                places[i.line] = set()
                cur.update((r, (i.line, 4 * j, False)) for j, r in enumerate(dst))
        else:
            # held at the block's end: on into each successor (the results of a read
            # found not followed need not go on)
            held = {r: v for r, v in cur.items() if v[0] not in why}
            for x in b.succs:
                s = index[x]
                if not held or (onward is not None and s not in onward):
                    continue
                state = {r: (line, byte, back or s <= k)
                         for r, (line, byte, back) in held.items()}
                key = (s, frozenset(state.items()))
                if key not in seen:
                    seen.add(key)
                    work.append((s, state, False))
    return places, why, size


def mfma_chains(fn: AsmFunction) -> Chains:
    """The accumulator chains of ``fn``'s MFMAs (:class:`Chains`)."""
    found, why, size = _scan(fn, "mfma", (("C", 3), ("A", 1), ("B", 2)), False)
    places = {ln: {p for p in got if p[0] == "C"} for ln, got in found.items()}
    operand_of = {ln: min((p[2], p[0]) for p in got if p[0] != "C")
                  for ln, got in found.items() if any(p[0] != "C" for p in got)}
    lines = sorted(places)
    links: dict = {}            # MFMA line -> {(the next MFMA's line, across a back edge)}
    for line in lines:
        n = size[line]
        whole = [p for p in places[line] if p[1] == 0 and p[3] == 0 and p[4] == 4 * n
                 and p[6] == n]
        if len(whole) != len(places[line]):
            why.setdefault(line, "its accumulator registers reach the accumulator of "
                                 "another MFMA in part")
        links[line] = {(p[2], p[5]) for p in whole}
    # the chains: MFMAs linked either way; each MFMA's place counted from the chain's
    # MFMAs that no MFMA feeds but across a back edge
    comp = {ln: ln for ln in lines}

    def root(x):
        while comp[x] != x:
            comp[x] = comp[comp[x]]
            x = comp[x]
        return x

    for a, nxt in links.items():
        for b, _ in nxt:
            comp[root(a)] = root(b)
    fed = {b for nxt in links.values() for b, back in nxt if not back}
    place: dict = {}
    work = [(ln, 0) for ln in lines if ln not in fed]
    while work:
        ln, q = work.pop()
        if ln in place:
            if place[ln] != q:
                why[ln] = "two paths of its accumulator chain give it two places"
            continue
        place[ln] = q
        work += [(b, q + 1) for b, back in links[ln] if not back]
    for ln in lines:
        if ln not in place:
            why[ln] = "no MFMA of its accumulator chain starts it"
    bad = {root(ln) for ln in why}
    return Chains({ln: root(ln) for ln in lines}, place,
                  {ln: [(b, back) for b, back in links[ln]] for ln in lines},
                  {ln: why.get(ln) or next(why[x] for x in why if root(x) == root(ln))
                   for ln in lines if root(ln) in bad}, operand_of)


def loaded_operands(fn: AsmFunction) -> dict[int, tuple[int, str]]:
    """Per global load into registers of ``fn`` (not a reload from scratch) whose result an
    MFMA reads as its A or B on some path, through copies (other readers passed: the
    ``ds_write`` of a register-staged copy), that MFMA's line and the operand (the least
    such)."""
    found, _, _ = _scan(fn, "vmem_load", (("A", 1), ("B", 2)), False)
    code = {i.line: i for i in fn.instrs()}
    return {ln: min((p[2], p[0]) for p in got) for ln, got in found.items()
            if got and not code[ln].mnemonic.startswith("scratch_")}


def loaded_addresses(fn: AsmFunction) -> dict[int, int]:
    """Per ``ds_read`` line of ``fn`` whose address register was last written, earlier in
    its block, by a ``ds_read`` or a ``global_load``, that load's line: an LDS address no
    GEMM kernel computes so (the data of a read).  Not a ``scratch_`` / ``buffer_`` load:
    LLVM reloads a spilled address register so (IREE's 8-wave 32x32x16 kernels)."""
    out = {}
    for b in fn.blocks:
        last: dict = {}
        for i in b.instrs:
            if i.kind == "ds_read" and len(i.operands) > 1 and \
                    (w := last.get(i.operands[1])) is not None and \
                    (w.kind == "ds_read" or w.mnemonic.startswith("global_load")):
                out[i.line] = w.line
            for r in i.defs:
                last[r] = i
    return out
