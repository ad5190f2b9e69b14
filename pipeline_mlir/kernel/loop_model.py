"""The front end's analysis of a natural K-loop, on plain numpy data (no MLIR here).

The IR side (``pipeline_mlir/frontend/natural.py``) evaluates every memory access of one iteration
of a K-loop for every thread of the workgroup and hands the results here:

* :class:`Copy`: a global -> LDS copy (one ``amdgpu.gather_to_lds``: each wave writes
  its 64 lanes' data contiguously), with the LDS elements every thread writes and the
  global elements it reads at two values of the induction variable;
* :class:`Read`: an LDS fragment read (one ``ds_read`` worth of contiguous bytes per
  lane, or a transposing read), with the LDS elements every thread reads;
* :class:`Mfma`: an MFMA, with the reads its A and B operands come from and the
  accumulator it adds to.

:func:`partition` finds the schedule's structure in them: the channel of every copy and
read (A = the MFMAs' first operand, B = the second), and for each channel a split of
copies and reads into two subtiles such that every read needs only the copies of its
own subtile, every accumulator's MFMAs read one subtile of A and one of B, and both
subtiles of a channel issue the same number of instructions (the schedule counts one
``vm_per_load`` / ``lgkm_per_load`` per channel).  :func:`compaction_bit` finds how the
two subtiles' halves of an LDS buffer can be stored as two dense buffers.

Whatever does not fit raises :class:`LoopRefusal` naming the op(s) concerned and why;
the IR side turns it into a located error.  :func:`check_tags` is the same analysis
applied to hand-written tags (the concrete form): every disagreement is a problem
naming the op.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from pipeline_mlir.errors import PipelineError
from pipeline_mlir.kernel.int_arrays import distinct


class LoopRefusal(PipelineError):
    """The loop cannot be pipelined safely; ``ops`` are indices of the ops concerned
    (the first one locates the message)."""

    def __init__(self, message: str, ops: tuple = ()) -> None:
        super().__init__(message)
        self.ops = tuple(ops)


@dataclass
class Copy:
    """One global -> LDS copy op (one vmcnt entry per wave)."""

    op: int                       # index of the op (for messages)
    buffer: int                   # LDS buffer id
    lds: np.ndarray               # (threads, n) LDS elements each thread writes
    source: int                   # global buffer id
    src0: np.ndarray              # (threads, n) global elements read at iv = lb
    src1: np.ndarray              # ... at iv = lb + step
    instructions: int = 1


@dataclass
class Read:
    """One LDS fragment read op."""

    op: int
    buffer: int
    lds: np.ndarray               # (threads, n) LDS elements each thread reads
    instructions: int = 1         # lgkmcnt entries (ds_read instructions)


@dataclass
class Mfma:
    op: int
    a_reads: frozenset            # indices into the reads list
    b_reads: frozenset
    acc: int                      # accumulator (iter_arg position)


@dataclass
class Partition:
    """Where every copy and read goes: channel 0 (A) / 1 (B) and subtile 0 / 1."""

    copy_channel: list[int]
    copy_subtile: list[int]
    read_channel: list[int]
    read_subtile: list[int]
    mfma_group: list[tuple[int, int]]     # (A subtile, B subtile) of each MFMA
    vm_per_load: tuple[int, int]          # copy instructions per (channel) subtile
    lgkm_per_load: tuple[int, int]        # read instructions per (channel) subtile


def _writers(copies: list[Copy], buffer: int, size: int, names) -> np.ndarray:
    """Per element of ``buffer``: the copy writing it (-1: none)."""
    w = np.full(size, -1, dtype=np.int64)
    for i, c in enumerate(copies):
        if c.buffer != buffer:
            continue
        e = c.lds.ravel()       # (an element twice in one copy: written once, as distinct)
        if np.any(w[e] >= 0):
            clash = w[distinct(e)]          # (the clash of its least element named)
            other = int(clash[clash >= 0][0])
            raise LoopRefusal(f"{names(c.op)} writes LDS elements that {names(copies[other].op)} "
                              f"also writes in the same iteration", (c.op, copies[other].op))
        w[e] = i
    return w


def read_dependencies(copies: list[Copy], reads: list[Read], buffer_sizes: dict,
                      names) -> list[frozenset]:
    """For each read, the copies that wrote what it reads; a read of elements no copy of
    the iteration writes is refused."""
    writers = {b: _writers(copies, b, n, names) for b, n in buffer_sizes.items()}
    out = []
    for r in reads:
        w = writers[r.buffer][r.lds.ravel()]
        if np.any(w < 0):
            raise LoopRefusal(f"{names(r.op)} reads LDS elements that no copy of the same "
                              f"iteration writes (data from outside the loop or from another "
                              f"iteration cannot be pipelined)", (r.op,))
        out.append(frozenset(int(x) for x in np.flatnonzero(np.bincount(w))))   # (w >= 0)
    return out


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.p = list(range(n))

    def find(self, a: int) -> int:
        while self.p[a] != a:
            self.p[a] = self.p[self.p[a]]
            a = self.p[a]
        return a

    def union(self, a: int, b: int) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:
            self.p[max(a, b)] = min(a, b)


def partition(copies: list[Copy], reads: list[Read], mfmas: list[Mfma], buffer_sizes: dict,
              names) -> Partition:
    """Channels and subtiles (see the module docstring); ``names(op)`` words an op."""
    deps = read_dependencies(copies, reads, buffer_sizes, names)
    read_channel, copy_channel = channels(copies, reads, mfmas, deps, names)
    uf = _components(len(copies), len(reads), mfmas, deps)
    n_c, n_r = len(copies), len(reads)
    copy_sub, read_sub = [0] * n_c, [0] * n_r
    vm, lgkm = [0, 0], [0, 0]
    for ch in (0, 1):
        members = [i for i in range(n_c) if copy_channel[i] == ch] + \
                  [n_c + i for i in range(n_r) if read_channel[i] == ch]
        comps: dict = {}
        for u in members:
            comps.setdefault(uf.find(u), []).append(u)
        comp_list = sorted(comps.values(), key=lambda us: min(
            (reads[u - n_c].op if u >= n_c else copies[u].op) for u in us))
        weights = [(sum(copies[u].instructions for u in us if u < n_c),
                    sum(reads[u - n_c].instructions for u in us if u >= n_c)) for us in comp_list]
        choice = _split(weights)
        if choice is None:
            raise _no_split(ch, comp_list, weights, copies, reads, read_channel, deps, names)
        for sub, us in ((s, comp_list[k]) for k, s in enumerate(choice)):
            for u in us:
                if u >= n_c:
                    read_sub[u - n_c] = sub
                else:
                    copy_sub[u] = sub
        vm[ch] = sum(copies[i].instructions for i in range(n_c)
                     if copy_channel[i] == ch and copy_sub[i] == 0)
        lgkm[ch] = sum(reads[i].instructions for i in range(n_r)
                       if read_channel[i] == ch and read_sub[i] == 0)
    groups = []
    for m in mfmas:
        ra = {read_sub[r] for r in m.a_reads}
        rb = {read_sub[r] for r in m.b_reads}
        groups.append((ra.pop(), rb.pop()))
    present = set(groups)
    for g in itertools.product((0, 1), (0, 1)):
        if g not in present:  # pragma: no cover - both subtiles of both channels hold reads
            raise LoopRefusal(f"no MFMA multiplies A subtile {g[0]} with B subtile {g[1]}; the "
                              f"schedule needs all four MMAs", ())
    return Partition(copy_channel, copy_sub, read_channel, read_sub, groups,
                     (vm[0], vm[1]), (lgkm[0], lgkm[1]))


def channels(copies: list[Copy], reads: list[Read], mfmas: list[Mfma], deps: list,
              names) -> tuple[list[int], list[int]]:
    """The channel of each read (A from the MFMAs' first operand, B from the second) and of
    each copy (the channel of the reads that need it)."""
    read_channel = read_channels(reads, mfmas, names)
    copy_channel = [-1] * len(copies)
    for i, ds in enumerate(deps):
        for c in ds:
            if copy_channel[c] not in (-1, read_channel[i]):
                raise LoopRefusal(f"{names(copies[c].op)} writes data read as both A and B",
                                  (copies[c].op,))
            copy_channel[c] = read_channel[i]
    for i, ch in enumerate(copy_channel):
        if ch < 0:
            raise LoopRefusal(f"{names(copies[i].op)} copies data that no MFMA of the loop "
                              f"reads", (copies[i].op,))
    return read_channel, copy_channel


def read_channels(reads: list[Read], mfmas: list[Mfma], names) -> list[int]:
    """The channel of each read: A (0) if it feeds the MFMAs' first operand, B (1) if the
    second; a read feeding both or none is refused."""
    read_channel = [-1] * len(reads)
    for m in mfmas:
        for ch, rs in ((0, m.a_reads), (1, m.b_reads)):
            for r in rs:
                if read_channel[r] not in (-1, ch):
                    raise LoopRefusal(f"{names(reads[r].op)} feeds both the A and the B operand "
                                      f"of MFMAs", (reads[r].op, m.op))
                read_channel[r] = ch
    for i, ch in enumerate(read_channel):
        if ch < 0:
            raise LoopRefusal(f"{names(reads[i].op)} reads LDS but no MFMA uses its value",
                              (reads[i].op,))
    return read_channel


def _components(n_c: int, n_r: int, mfmas: list[Mfma], deps: list) -> _UnionFind:
    """Components over copies (0..n_c-1) and reads (n_c + i): a read with the copies it
    needs; reads of one accumulator's MFMAs on the same operand side (an accumulator
    belongs to one MMA of the schedule)."""
    uf = _UnionFind(n_c + n_r)
    for i, ds in enumerate(deps):
        for c in ds:
            uf.union(n_c + i, c)
    by_acc: dict = {}
    for m in mfmas:
        by_acc.setdefault(m.acc, []).append(m)
    for ms in by_acc.values():
        for side in ("a_reads", "b_reads"):
            rs = sorted(set().union(*(getattr(m, side) for m in ms)))
            for r in rs[1:]:
                uf.union(n_c + rs[0], n_c + r)
    return uf


def _counted(texts) -> str:
    """``texts`` listed each once, in order, with how many times it comes where more than
    once (the copies of an unrolled op share its location: one name for 8 copies)."""
    counts: dict[str, int] = {}
    for t in texts:
        counts[t] = counts.get(t, 0) + 1
    return ", ".join(t if n == 1 else f"{t}: {n} of them" for t, n in counts.items())


def _no_split(ch: int, comp_list: list, weights: list, copies: list[Copy], reads: list[Read],
              read_channel: list[int], deps: list, names) -> LoopRefusal:
    """Why channel ``ch``'s components cannot be split into two equal subtiles."""
    n_c, n_r = len(copies), len(reads)
    label = "AB"[ch]
    total = tuple(sum(w[i] for w in weights) for i in (0, 1))
    ops = tuple(sorted({(reads[u - n_c].op if u >= n_c else copies[u].op)
                        for us in comp_list for u in us}))
    if len(comp_list) < 2:
        multi = [i for i in range(n_r) if read_channel[i] == ch and len(deps[i]) > 1]
        if multi:
            r = multi[0]
            why = (f"{names(reads[r].op)} needs the data of {len(deps[r])} copies "
                   f"({_counted(names(copies[c].op) for c in sorted(deps[r]))})")
        else:
            why = ("the MFMAs of one accumulator read fragments that different copies "
                   "write")
        return LoopRefusal(
            f"channel {label}: every fragment read needs the data of the same copies, so "
            f"no split into the schedule's two subtiles exists (each subtile's reads "
            f"must depend only on that subtile's copies): {why}",
            (reads[multi[0]].op,) if multi else ops)
    return LoopRefusal(
        f"channel {label}: the {len(comp_list)} independent groups of copies and reads "
        f"(instructions per group (copy, read): "
        f"{', '.join(f'({a}, {b})' for a, b in weights)}) cannot be split into two "
        f"subtiles with equal copy ({total[0]}) and read ({total[1]}) instruction counts",
        ops)


def _split(weights: list[tuple[int, int]]) -> list[int] | None:
    """Subtile (0/1) per component with equal (copy, read) totals on both sides; the
    first component goes to subtile 0; None if impossible."""
    return next(_splits(weights), None)


def _splits(weights: list[tuple[int, int]]):
    """Every assignment of a subtile (0/1) to each component with equal (copy, read)
    totals on both sides, the first component in subtile 0."""
    n = len(weights)
    if n < 2:
        return
    total = [sum(w[i] for w in weights) for i in (0, 1)]
    if total[0] % 2 or total[1] % 2:
        return
    half = (total[0] // 2, total[1] // 2)
    if n > 20:  # pragma: no cover - far more independent groups than any tile has
        return
    for bits in range(1 << (n - 1)):
        side = [0] + [(bits >> (k - 1)) & 1 for k in range(1, n)]
        s0 = [sum(w[i] for w, s in zip(weights, side) if s == 0) for i in (0, 1)]
        if tuple(s0) == half:
            yield side


def read_splits(reads: list[Read], mfmas: list[Mfma], read_channel: list[int], ch: int):
    """Every split of channel ``ch``'s reads alone (no copies: the front end will make the
    copies itself) into two subtiles with equal read instruction counts, the reads of one
    accumulator's MFMAs on one operand side in one subtile: yields the subtile of each
    read of the channel as {read index: subtile}."""
    uf = _components(0, len(reads), mfmas, [])
    comps: dict = {}
    for i in range(len(reads)):
        if read_channel[i] == ch:
            comps.setdefault(uf.find(i), []).append(i)
    comp_list = sorted(comps.values(), key=lambda rs: min(reads[r].op for r in rs))
    weights = [(0, sum(reads[r].instructions for r in rs)) for rs in comp_list]
    for side in _splits(weights):
        yield {r: s for rs, s in zip(comp_list, side) for r in rs}


def compaction_bit(elements_by_subtile: dict[int, list[np.ndarray]], size: int,
                   min_bit: int) -> int | None:
    """An element-index bit ``b >= min_bit`` that is 0 on every element of subtile 0 and 1
    on every element of subtile 1 (or the reverse): deleting it stores each subtile's half
    of a ``size``-element buffer densely in ``size / 2`` elements.  None if no bit works."""
    if size & (size - 1):
        return None
    # a bit is 0 on every element of a subtile where their OR has it 0, and 1 on every one
    # where their AND has it 1 (no element: both, the reductions' identities 0 and -1)
    ors, ands = [], []
    for sub in (0, 1):
        a = np.concatenate([a.ravel() for a in elements_by_subtile.get(sub, [])] or
                           [np.zeros(0, np.int64)])
        ors.append(int(np.bitwise_or.reduce(a)))
        ands.append(int(np.bitwise_and.reduce(a)))
    b = min_bit
    while (1 << b) < size:
        zero = [(x >> b) & 1 == 0 for x in ors]
        one = [(x >> b) & 1 == 1 for x in ands]
        if (zero[0] and one[1]) or (one[0] and zero[1]):
            return b
        b += 1
    return None


def delete_bit(elements: np.ndarray, bit: int) -> np.ndarray:
    low = elements & ((1 << bit) - 1)
    return ((elements >> (bit + 1)) << bit) | low
