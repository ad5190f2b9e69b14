"""The ISA check's LDS rules of bytes filled before they are read, over the byte map
:mod:`pipeline_mlir.isa.lds_ranges` builds (each LDS access's bytes, per wave):

* ``lds-stale`` (:class:`LdsStale`, :func:`stale_reads`): a read of the main loop of bytes
  no LDS write of the loop writes, a stage the loop never refills;
* ``lds-unwritten`` (:class:`LdsUnwritten`, :func:`unwritten_reads`): a read of bytes some
  path from the kernel's entry reaches with no LDS write of them first, a stage the
  prologue never fills (:func:`untaken`: the branches around a masked write no wave
  takes are no path).

They ask only whether a write is there at all; when it lands (its wait and barrier) is the
LDS rule's (``lds-race``).  No MLIR here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline_mlir.isa.asm import AsmError, AsmFunction, AsmInstr

__all__ = ["LdsStale", "LdsUnwritten", "stale_reads", "unwritten_reads", "untaken"]


@dataclass(frozen=True)
class _UnfilledRead:
    """A read (``instr``, by wave ``wave``) of LDS byte ``byte`` that a rule here finds no
    write fills for it."""

    instr: AsmInstr
    wave: int
    byte: int


class LdsStale(_UnfilledRead):
    """A read of the main loop of an LDS byte no LDS write of the loop writes
    (:func:`stale_reads`)."""

    def message(self) -> str:
        return (f"{self.instr.mnemonic} (line {self.instr.line}) of wave {self.wave} in the "
                f"main loop reads LDS byte {self.byte}, which no LDS write of the loop (LDS "
                f"DMA from M0, ds_write) writes: every iteration reads what was there before "
                f"the loop (a stage the loop never refills)")


class LdsUnwritten(_UnfilledRead):
    """A read of an LDS byte that some path from the kernel's entry reaches with no LDS
    write of that byte before it (:func:`unwritten_reads`)."""

    def message(self) -> str:
        return (f"{self.instr.mnemonic} (line {self.instr.line}) of wave {self.wave} reads "
                f"LDS byte {self.byte}, which no LDS write (LDS DMA from M0, ds_write) of any "
                f"wave writes before it on some path from the kernel's entry: it reads what "
                f"LDS held before the kernel ran (a stage the prologue never fills)")


def stale_reads(fn: AsmFunction, accesses: dict, kinds: dict) -> dict:
    """Per LDS read of the main loop (:meth:`AsmFunction.main_loop`) of known bytes under a
    known ``exec``, an :class:`LdsStale` where it reads a byte that no LDS write of the loop
    (an LDS DMA, a ``ds_write``) writes, in any wave: a pipelined loop refills every stage
    it reads, so such a read reads what the prologue left there on every iteration (a DMA
    given another stage's ``M0``).  Empty where the loop writes no LDS, or an LDS write of
    the loop has bytes not known here (or there is no main loop), and in straight code
    (:attr:`AsmFunction.straight`: a pipelined loop LLVM unrolled), whose loop phase runs
    once: the stages it reads are the prologue's to fill, which :func:`unwritten_reads`
    asks."""
    if fn.straight:
        return {}
    try:
        loop = {i.line for i in fn.main_loop_phases()["loop"]}
    except (AsmError, StopIteration):
        return {}
    lines = sorted(x for x in kinds if x in loop)
    writes = [x for x in lines if kinds[x] != "ds_read"]
    if not writes or any(x not in accesses for x in writes):
        return {}
    top = max(accesses[x].top for x in writes)
    written = np.zeros(max(top, max((accesses[x].top for x in lines if x in accesses),
                                    default=0)) + 1, dtype=bool)
    for x in writes:
        for b in accesses[x].bytes:
            written[b] = True
    out = {}
    for x in lines:
        a = accesses.get(x)
        if kinds[x] == "ds_read" and a is not None and a.lanes_known:
            for w, b in enumerate(a.bytes):
                missing = b[~written[b]]
                if len(missing):
                    out[x] = LdsStale(a.instr, w, int(missing.min()))
                    break
    return out


def untaken(block, exec_) -> frozenset:
    """The successor (its label) of ``block`` no wave goes to: the target of its closing
    ``s_cbranch_execz``, or the fall-through of its closing ``s_cbranch_execnz``, where that
    is the block's one branch, its two successors differ and ``exec_`` (the known ``exec``
    there; None: not known) leaves a lane on in every wave; else none."""
    last = block.instrs[-1] if block.instrs else None
    if exec_ is None or last is None or last.mnemonic not in (
            "s_cbranch_execz", "s_cbranch_execnz") or len(block.succs) != 2 or \
            sum(i.kind == "branch" for i in block.instrs) != 1 or \
            not all(exec_[w:w + 64].any() for w in range(0, len(exec_), 64)):
        return frozenset()
    target = last.operands[0]
    if target not in block.succs:
        return frozenset()
    return frozenset({target} if last.mnemonic == "s_cbranch_execz" else
                     set(block.succs) - {target})


def unwritten_reads(fn: AsmFunction, accesses: dict, kinds: dict, never: dict) -> dict:
    """Per LDS read of known bytes under a known ``exec``, an :class:`LdsUnwritten` where it
    reads a byte that some path from the entry reaches it by with no LDS write of the byte
    before it, by any wave (a forward dataflow of the bytes written on every path, over
    the control-flow graph, a loop's back edge among its paths): a prologue DMA given
    another stage's ``M0`` leaves the stage the loop's first iteration reads unfilled.
    When the write lands (its wait and barrier) is the LDS rule's; this asks only whether
    one is there at all.  Empty where an LDS write's bytes are not known here (its
    address, or the lanes its ``exec`` leaves on).  ``never``: per block, the successors
    no wave goes to (:func:`untaken`: an ``s_cbranch_execz`` around a masked write,
    taken by no wave whose ``exec`` is known to leave a lane on), no path of it."""
    writes = [x for x in kinds if kinds[x] != "ds_read"]
    if not writes or any(x not in accesses or not accesses[x].lanes_known for x in writes):
        return {}
    size = 1 + max(a.top for a in accesses.values())
    index = {b.label: k for k, b in enumerate(fn.blocks)}
    mine = [[(i.line, kinds[i.line] != "ds_read") for i in b.instrs
             if i.line in accesses] for b in fn.blocks]
    # per block, every byte its writes write (any wave)
    fills = [np.concatenate([np.zeros(0, dtype=np.int64)] + [
        b for line, write in m if write for b in accesses[line].bytes]) for m in mine]
    entry: dict[int, np.ndarray] = {0: np.zeros(size, dtype=bool)}
    work = [0]
    while work:
        k = work.pop()
        now = entry[k].copy()
        now[fills[k]] = True
        for s in fn.blocks[k].succs:
            if s in never.get(k, ()):
                continue
            t = index[s]
            new = now if t not in entry else entry[t] & now
            if t not in entry or not np.array_equal(new, entry[t]):
                entry[t] = new
                if t not in work:
                    work.append(t)
    out = {}
    for k, now in entry.items():
        now = now.copy()
        for line, write in mine[k]:
            a = accesses[line]
            if write:
                for b in a.bytes:
                    now[b] = True
            elif a.lanes_known:
                w, b = next(((w, b) for w, b in enumerate(a.bytes) if not now[b].all()),
                            (None, None))
                if w is not None:
                    out[line] = LdsUnwritten(a.instr, w, int(b[~now[b]].min()))
    return out
