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

No MLIR here.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from pipeline_mlir.isa.asm import AsmFunction
from pipeline_mlir.isa.asm_instr import registers

__all__ = ["ReadPlaces", "read_places", "loaded_addresses"]

#: copies: mnemonic (without ``_e32`` / ``_e64``) -> registers per source
_COPIES = frozenset({"v_mov_b32", "v_mov_b64", "v_accvgpr_write_b32", "v_accvgpr_read_b32",
                     "v_accvgpr_mov_b32"})
#: instructions that read no register of a vector result (waits, fences, scalar code)
_BLIND = frozenset({"wait", "barrier", "sched_barrier", "sched_group_barrier", "nop",
                    "salu", "smem", "branch"})


@dataclass(frozen=True)
class ReadPlaces:
    """Per MFMA reading the result of one ``ds_read``: (``"A"`` or ``"B"``, the operand byte
    the read's first byte is at, the MFMA's line, the first and the end byte of the read
    that operand holds: a ``ds_read2`` 's two pieces may fill two MFMAs); ``why`` (places
    empty): why the read is not followed."""

    places: frozenset = frozenset()
    why: str = ""


def _bare(mnemonic: str) -> str:
    for tail in ("_e32", "_e64"):
        if mnemonic.endswith(tail):
            return mnemonic[:-len(tail)]
    return mnemonic


def read_places(fn: AsmFunction) -> dict[int, ReadPlaces]:
    """Per ``ds_read`` line of ``fn``, its :class:`ReadPlaces`."""
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    # per block, per register, the positions of the instructions reading or writing it
    # (a walk jumps from one to the next)
    touch: list[dict] = []
    for b in fn.blocks:
        at: dict = {}
        for n, i in enumerate(b.instrs):
            for r in {*i.uses, *i.defs}:
                at.setdefault(r, []).append(n)
        touch.append(at)
    out = {}
    for k, b in enumerate(fn.blocks):
        for n, i in enumerate(b.instrs):
            if i.kind == "ds_read" and i.operands:
                dst = registers(i.operands[0])
                out[i.line] = _follow(fn, index, touch, k, n + 1,
                                      {r: 4 * j for j, r in enumerate(dst)})
    return out


def _follow(fn: AsmFunction, index: dict, touch: list, k: int, n: int,
            start: dict) -> ReadPlaces:
    places: set = set()
    work = [(k, n, start)]
    seen = set()
    while work:
        k, n, held = work.pop()
        key = (k, n, frozenset(held.items()))
        if key in seen:
            continue
        seen.add(key)
        code, at = fn.blocks[k].instrs, touch[k]
        while held:
            # the next instruction of the block touching a register held
            nxt = [p[j] for r in held if (p := at.get(r)) and (j := bisect_left(p, n)) < len(p)]
            if not nxt:
                n = len(code)
                break
            n = min(nxt)
            i = code[n]
            n += 1
            used = [r for r in i.uses if r in held]
            if used and i.kind == "mfma":
                for name, operand in (("A", 1), ("B", 2)):
                    regs = registers(i.operands[operand]) if len(i.operands) > operand \
                        else ()
                    mine = [r for r in regs if r in held]
                    spots = {4 * regs.index(r) - held[r] for r in mine}
                    if len(spots) > 1:
                        return ReadPlaces(why=f"its registers reach {name} of "
                                              f"{i.mnemonic} (line {i.line}) out of order")
                    places.update((name, o, i.line, min(held[r] for r in mine),
                                   max(held[r] for r in mine) + 4) for o in spots)
                if set(used) - {r for x in i.operands[1:3] for r in registers(x)}:
                    return ReadPlaces(why=f"{i.mnemonic} (line {i.line}) reads its "
                                          f"registers as other than A or B")
            elif used and _bare(i.mnemonic) in _COPIES and len(i.operands) == 2:
                src, dst = registers(i.operands[1]), registers(i.operands[0])
                new = {d: held[s] for s, d in zip(src, dst) if s in held}
                held = {r: v for r, v in held.items() if r not in i.defs}
                held.update(new)
                continue
            elif used and i.kind not in _BLIND:
                return ReadPlaces(why=f"{i.mnemonic} (line {i.line}) reads its "
                                      f"registers (not a copy)")
            if i.defs:
                held = {r: v for r, v in held.items() if r not in i.defs}
        if n >= len(code) and held:
            work += [(index[s], 0, held) for s in fn.blocks[k].succs]
    if not places:
        return ReadPlaces(why="its registers reach no MFMA")
    return ReadPlaces(frozenset(places))


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
