"""LDS elements no stored element of the output depends on, proven per workgroup.

Where the front end's own copies of a channel and the kernel's give an LDS element
different global elements (:mod:`~pipeline_mlir.frontend.every_workgroup`), the difference
is harmless when, in that workgroup, nothing the kernel writes to global memory is computed
from that LDS element.  IREE's late form clamps the rows of A past M to row M (a batch's
next batch) while the front end's copies read rows M, M+1, ...: those LDS rows feed only
accumulator rows whose elements the epilogue's store masks drop.  :class:`UnusedElements`
proves it per workgroup, in three steps, each evaluated, never assumed:

* which accumulator elements an LDS element feeds: every access of the buffer is one of
  the loop's copies or fragment reads, and every fragment read of the buffer whose
  lane ``t`` reads it (the loop's reads, their elements per thread from the address
  analysis) reaches MFMA operands through lane-local ops only (vector shape ops,
  element-wise ``arith``), and an ``amdgpu.mfma`` of one block (16x16 or 32x32, the
  emulator's layouts: :mod:`~pipeline_mlir.emu.mfma`) takes lane ``t``'s A operand into
  row ``t % M`` of its tile (B: column ``t % N``), which lane ``l``'s accumulator element
  ``k`` holds when its row (column) is that one, in ``t``'s wave, of the ``iter_arg`` the
  MFMA accumulates into;
* which accumulator elements reach global memory: every use of the K-loop's results (and
  of its accumulators inside it: a write there proves nothing), followed forward
  (through vector shape ops, element-wise ``arith`` / ``math`` ops, loops that carry
  them, a remainder loop's MFMAs accumulating into them, an ``scf.if`` yielding them and
  private memory stored and loaded element by element), must end as
  the value a global write writes (not its index, mask or bounds; no branch on it, no
  write to LDS, no other op), and each write's value is traced back to the accumulator
  elements each of its elements is computed from, at every iteration of the loops around
  it (positions of constants and loop variables only);
* which of those a workgroup writes: each write's elements, per thread, as
  :mod:`~pipeline_mlir.analysis.output_tiles` evaluates them at that workgroup (its store
  masks, a transfer's bounds, the loops some threads run fewer times).

A loop the front end built beside the kernel's and analyses before putting it in its place
(a K-step merge, :mod:`~pipeline_mlir.frontend.kmerge`: its results used by nothing yet) is
proven with the values that its results replace (:func:`results_replacing`: the kernel
loop's results, whose every use the merge's commit gives to the merged loop's): the
kernel's epilogue, traced from them, is the merged loop's once it is committed.

The kernel's values are all known before launch (no push constant, size argument or
``memref.dim``; the grid static): a write evaluated at one sample of a launch's values would
prove nothing about another launch.

Both comparisons of a channel's copies ask one proof per LDS buffer (:func:`proof_for`):
every workgroup's and, first, the sampled points' of
:func:`~pipeline_mlir.frontend.edges.check_copy_reads` (:func:`spare_sampled`, at a point
that is a workgroup of the grid: :func:`sampled_workgroup`).

An LDS element is unused in a workgroup when no thread writes an element computed from an
accumulator element it feeds; anything the proof cannot follow (an op not listed, a
transposing read, a position that moves with the thread, a grid it cannot evaluate)
proves nothing, and the comparison refuses as before.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from pipeline_mlir.analysis.ir_facts import DYNAMIC, constant_int, encloses, memory_space
from pipeline_mlir.analysis.lane_ops import Unevaluable
from pipeline_mlir.analysis.loop_eval import Evaluator
from pipeline_mlir.analysis.output_tiles import WRITES, bind_launch, launch_ops, \
    write_iterations
from pipeline_mlir.analysis.vector_index import Vectors
from pipeline_mlir.analysis.vector_moves import moved
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import kernel_of, mfma_variant
from pipeline_mlir.frontend.private_vectors import STORES, Unproven, accesses, positions, \
    root_of
from pipeline_mlir.target.gfx950 import WAVE_SIZE

#: vector ops that move elements within a lane, and which of their operands carry data
_MOVES = {"vector.extract": (0,), "vector.insert": (0, 1), "vector.broadcast": (0,),
          "vector.shape_cast": (0,), "vector.transpose": (0,), "vector.bitcast": (0,),
          "vector.extract_strided_slice": (0,), "vector.insert_strided_slice": (0, 1)}
#: integer ops the positions of extracts, inserts and private memory are computed with
_INT_OPS = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
            "arith.muli": lambda a, b: a * b, "arith.divui": lambda a, b: a // b,
            "arith.remui": lambda a, b: a % b}
_CASTS = ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi",
          "arith.trunci")


#: the ops whose values are known only at launch (of a static grid: its counts are bound)
_SAMPLED = ("hal.interface.constant.load", "memref.dim", "hal.interface.workgroup.size")


#: what makes the proof prove nothing (an index out of a shape, a position of another
#: type: what the evaluation cannot take is no proof, and the comparison refuses)
_NOTHING_PROVEN = (Unproven, IRError, Unevaluable, ValueError, IndexError, KeyError,
                   TypeError)


#: (loop, values): a loop under analysis whose results no op uses yet, and the values whose
#: every use becomes a use of its results, position for position (:func:`results_replacing`)
_REPLACING: list = []


@contextmanager
def results_replacing(loop, values: list):
    """While ``loop`` (built beside the kernel's loop, its results used by nothing yet) is
    analysed: its results are proven as ``values``, the results of the same types whose
    every use is to become a use of ``loop``'s, result for result (a K-step merge that runs
    every K step: :meth:`~pipeline_mlir.frontend.kmerge.Merge.commit`)."""
    entry = (_op(loop), list(values))
    _REPLACING.append(entry)
    try:
        yield
    finally:
        _REPLACING.remove(entry)


def _replaced(loop) -> tuple[list, tuple | None]:
    """(the values ``loop``'s results are to replace, the entry of
    :func:`results_replacing` that says so), or (its results, None)."""
    for entry in reversed(_REPLACING):
        at, values = entry
        if at == _op(loop):
            if any(True for r in loop.results for _u in r.uses) or \
                    [r.type for r in loop.results] != [v.type for v in values]:
                raise Unproven("a loop whose results are used already, or are not of the "
                               "types of the values they are to replace")
            return values, entry
    return list(loop.results), None


def _elementwise(o) -> bool:
    return (o.name.startswith("arith.") or o.name.startswith("math.")) and \
        o.name not in ("arith.constant",) and len(o.results) == 1


class UnusedElements:
    """Per workgroup, the LDS elements of buffer ``buffer`` (an id of ``an.buffers``) no
    element the kernel writes to global memory depends on (module docstring); the work is
    done at the first workgroup asked, once."""

    def __init__(self, an, buffer: int, grid: tuple) -> None:
        self.an, self.buffer, self.grid = an, buffer, tuple(grid)
        self._ready = False
        self._why: str | None = None
        self._entry = None      # (proven with the values its loop's results replace)
        self._used: dict = {}

    def unused(self, wid: tuple) -> np.ndarray | None:
        """A bool per element of the buffer: unused in the workgroup of coordinates
        ``wid``; None where the proof cannot be made."""
        if not self._ready:
            self._ready = True
            try:
                self._prepare()
            except _NOTHING_PROVEN as e:
                self._why = str(e)
        if self._why is not None or (self._entry is not None and not any(
                e is self._entry for e in _REPLACING)):     # (the loop replaced since)
            return None
        if wid not in self._used:
            try:
                self._used[wid] = self._used_in(wid)
            except _NOTHING_PROVEN:
                self._used[wid] = None
        used = self._used[wid]
        return None if used is None else ~used

    # ---- what each LDS element feeds --------------------------------------------------
    def _prepare(self) -> None:
        an = self.an
        loop = an.scan.loop
        self.kernel = kernel_of(loop)
        if not launch_free(self.kernel):   # (the writes would be evaluated at one sample)
            raise Unproven("a kernel of values known only at launch")
        # (a loop built beside the kernel's: the results its own take the place of)
        self.results, self._entry = _replaced(loop)
        self.inits = list(loop.operands)[3:]    # (what the results start from)
        sizes = [_count(r.type) for r in self.results]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
        self.nacc = int(self.offsets[-1])
        for r in self.results:      # (a loop not wired to the kernel's epilogue yet)
            if not _forward([r], self.kernel, None)[1]:
                raise Unproven("a result of the loop reaches no global write")
        acc_of = {an.ops[m.op]: m.acc for m in an.mfmas}
        picks: dict = {}
        self.feeds = []     # (read's LDS elements per thread, rows of lane x element, acc)
        root = an.buffers[self.buffer]
        _only_known(root, loop, {an.ops[a.op] for a in an.reads + an.copies})
        for r in an.reads:
            if r.buffer != self.buffer:
                continue
            op = an.ops[r.op]
            if op.name not in ("vector.load", "vector.transfer_read", "memref.load"):
                raise Unproven(f"'{op.name}' op reads the buffer across lanes")
            for mfma, side in _mfma_operands(op.results[0], loop):
                j = acc_of.get(mfma)
                if j is None:
                    raise Unproven("an MFMA of no accumulator chain")
                if (mfma, side) not in picks:
                    picks[mfma, side] = _picks(mfma, side, sizes[j])
                pick = picks[mfma, side]
                self.feeds.append((r.lds, pick, j))
        self.reach, writes = _forward(self.results, self.kernel, loop)
        self.writes = [(w, w.operands[len(w.operands) - 1 if w.name == "vector.scatter" else 0])
                       for w in dict.fromkeys(w for w, _x in writes)]
        self.memory = _PrivateMemory(self.kernel, self.nacc, self._deps)
        self.deps_memo: dict = {}
        self._memo: dict = {}
        self._shapes: dict = {}
        self.ev = Evaluator(an.scan.block)
        self.vec = Vectors(self.ev)
        self.launch = launch_ops(self.kernel)

    def _used_in(self, wid: tuple) -> np.ndarray:
        stored = self._stored(wid)
        threads = stored.shape[0]
        size = int(np.prod(ir.MemRefType(self.an.buffers[self.buffer].type).shape))
        used = np.zeros(size, dtype=bool)
        lane = np.arange(threads) % WAVE_SIZE
        wave = np.arange(threads) // WAVE_SIZE
        for lds, pick, j in self.feeds:
            mine = stored[:, self.offsets[j]:self.offsets[j + 1]].reshape(
                -1, WAVE_SIZE, pick.shape[-1])                   # waves, lanes, elements
            # per wave and row (column) of the MFMA's tile: is an element of it stored?
            hit = np.einsum("wle,rle->wr", mine.astype(np.int64), pick.astype(np.int64)) > 0
            reader = hit[wave, lane % pick.shape[0]]
            used[np.asarray(lds)[reader].ravel()] = True
        return used

    # ---- what a workgroup writes -------------------------------------------------------
    def _stored(self, wid: tuple) -> np.ndarray:
        """(threads, accumulator elements): which a thread of workgroup ``wid`` writes an
        element computed from."""
        ev = self.ev
        ids3 = tuple(int(x) for x in wid) + (0,) * (3 - len(wid))
        grid3 = self.grid + (1,) * (3 - len(self.grid))
        bind_launch(ev, self.launch, ids3, grid3, None)
        stored = np.zeros((ev.threads, self.nacc), dtype=bool)
        for w, value in self.writes:
            for env, keep in write_iterations(self.kernel, w, ids3, grid3, ev, self.vec):
                key = (w, tuple(env.items()))
                if key not in self.deps_memo:
                    self._memo = {}
                    d = self._deps(value, env)
                    self.deps_memo[key] = d.reshape(-1, self.nacc)
                deps = self.deps_memo[key]
                if keep.shape[1] != deps.shape[0]:
                    raise Unproven("a write whose elements the proof cannot pair with its "
                                   "value's")
                stored |= (keep.astype(np.int64) @ deps.astype(np.int64)) > 0
        return stored

    def _deps(self, v, env: dict) -> np.ndarray:
        """Per element of ``v`` (its vector shape, then the accumulator elements): which
        accumulator elements it is computed from, loop variables at ``env`` (kept per
        ``env``, which the memo holds: the arrays are never written to)."""
        if v in env and not isinstance(env[v], int):      # (a loop's variable: no data)
            return env[v]
        memo = self._memo.get(id(env))
        if memo is None or memo[0] is not env:
            memo = self._memo[id(env)] = (env, {})
        if v not in memo[1]:
            memo[1][v] = self._traced(v, env)
        return memo[1][v]

    def _shape(self, v) -> list:
        if v not in self._shapes:
            self._shapes[v] = list(ir.VectorType(v.type).shape) \
                if isinstance(v.type, ir.VectorType) else []
        return self._shapes[v]

    def _traced(self, v, env: dict) -> np.ndarray:
        shape = self._shape(v)
        if v in self.results:       # its own elements, and what its start value holds
            j = self.results.index(v)   # (a loop around the K-loop may carry them there)
            out = np.zeros((int(np.prod(shape)), self.nacc), dtype=bool)
            out[np.arange(out.shape[0]), self.offsets[j] + np.arange(out.shape[0])] = True
            return out.reshape(shape + [self.nacc]) | self._deps(self.inits[j], env)
        if v not in self.reach:     # (every value computed from them is: _forward)
            return np.zeros(shape + [self.nacc], dtype=bool)
        if isinstance(v.owner, ir.Block):
            raise Unproven("a value carried by a block argument the proof does not follow")
        o = _op(v.owner)
        if o.name == "scf.for":
            return self._loop(o, list(o.results).index(v), env)
        if o.name == "scf.if":      # either branch's (a condition of no accumulator)
            k = list(o.results).index(v)
            out = np.zeros(shape + [self.nacc], dtype=bool)
            for region in o.regions:
                for block in region.blocks:
                    out |= self._deps(_op(block.operations[-1]).operands[k], env)
            return out
        if o.name == "amdgpu.mfma":
            if o.operands[0] in self.reach or o.operands[1] in self.reach:
                raise Unproven("an MFMA of an operand computed from the accumulators")
            return self._deps(o.operands[2], env)
        if o.name in ("memref.load", "vector.transfer_read"):     # (private_vectors.py)
            mem = self.memory.of(root_of(o.operands[0]))
            return mem[positions(o, lambda x: _int(x, env))]
        ins = [self._deps(x, env) for n, x in enumerate(o.operands)
               if o.name not in _MOVES or n in _MOVES[o.name]]
        if o.name in _MOVES or o.name == "vector.from_elements":     # (vector_moves.py)
            if o.name in ("vector.shape_cast", "vector.bitcast") and \
                    np.prod(self._shape(o.operands[0])) != np.prod(shape):
                raise Unproven("a bitcast that changes the element count")
            first = {"vector.extract": 1, "vector.insert": 2}.get(o.name)
            position = None if first is None else \
                _positions(o, "static_position", list(o.operands)[first:], env)
            out = moved(o, ins, 1, position)
            if out is not None:
                return out
        if _elementwise(o):
            out = np.zeros(shape + [self.nacc], dtype=bool)
            for x in ins:
                out |= np.broadcast_to(x, out.shape) if x.ndim == out.ndim else \
                    x.reshape([1] * len(shape) + [self.nacc])
            return out
        raise Unproven(f"'{o.name}' op on the accumulators")

    def _loop(self, o, k: int, env: dict) -> np.ndarray:
        """Result ``k`` of loop ``o``, run over its iterations."""
        lb, ub, step = (_int(x, env) for x in list(o.operands)[:3])
        if step <= 0:
            raise Unproven("a loop of a step that is not positive")
        body = o.regions[0].blocks[0]
        carried = [self._deps(x, env) for x in list(o.operands)[3:]]
        term = _op(body.operations[-1])
        for i in range(lb, ub, step):
            inner = dict(env)
            inner[body.arguments[0]] = i
            for a, d in zip(list(body.arguments)[1:], carried):
                inner[a] = d
            carried = [self._deps(x, inner) for x in term.operands]
        return carried[k]



def _count(t) -> int:
    return int(np.prod(ir.VectorType(t).shape)) if isinstance(t, ir.VectorType) else 1


def _int(v, env: dict) -> int:
    """``v`` from integer constants and the loop variables of ``env``."""
    if v in env and isinstance(env[v], int):
        return env[v]
    c = constant_int(v)
    if c is not None:
        return c
    if isinstance(v.owner, ir.Block):
        raise Unproven("a position that is not a constant or a loop's variable")
    o = _op(v.owner)
    if o.name in _CASTS:
        return _int(o.operands[0], env)
    if o.name in _INT_OPS:
        a, b = (_int(x, env) for x in o.operands)
        if o.name in ("arith.divui", "arith.remui") and b <= 0:
            raise Unproven("a division by a value not positive")
        return _INT_OPS[o.name](a, b)
    raise Unproven(f"a position computed by '{o.name}'")


def _positions(o, attr: str, dynamic: list, env: dict) -> tuple:
    dyn = iter(dynamic)
    return tuple(_int(next(dyn), env) if p == DYNAMIC else p
                 for p in ir.DenseI64ArrayAttr(o.attributes[attr]))


def _picks(mfma, side: int, elements: int) -> np.ndarray:
    """(rows or columns of the tile, lanes, accumulator elements): which of a lane's
    accumulator elements lie in each row (side 0, A) or column (side 1, B) of the
    ``amdgpu.mfma``'s tile (:mod:`~pipeline_mlir.emu.mfma`'s layouts)."""
    m, n = (ir.IntegerAttr(mfma.attributes[k]).value for k in ("m", "n"))
    if mfma.name != "amdgpu.mfma" or mfma_variant(mfma) is not None or m != n or \
            m not in (16, 32) or elements != m * n // WAVE_SIZE:
        raise Unproven("an MFMA whose accumulator layout the proof does not know")
    lane = np.arange(WAVE_SIZE)[:, None]
    k = np.arange(elements)[None, :]
    if m == 16:
        row, col = 4 * (lane // 16) + k, np.broadcast_to(lane % 16, (WAVE_SIZE, elements))
    else:
        row = 8 * (k // 4) + 4 * (lane // 32) + k % 4
        col = np.broadcast_to(lane % 32, (WAVE_SIZE, elements))
    at = row if side == 0 else col
    return at[None, :, :] == np.arange(m)[:, None, None]


def _follow(start: list, visit) -> set:
    """The values reached from ``start``: each use of a value reached, ``visit(op, operand
    number, value)``, gives the values to follow from it."""
    seen, work = set(), list(start)
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        for u in x.uses:
            work.extend(visit(_op(u.owner), u.operand_number, x))
    return seen


def _mfma_operands(v, loop) -> list:
    """(MFMA, 0 for its A operand / 1 for B) every use of the fragment read ``v`` reaches
    through lane-local ops of the loop's body; anything else is :class:`Unproven`."""
    out: list = []

    def visit(o, n: int, _x) -> list:
        if o.name == "amdgpu.mfma" and n in (0, 1):
            out.append((o, n))
            return []
        if (o.name in _MOVES and n in _MOVES[o.name]) or \
                o.name in ("vector.from_elements", "vector.extract_strided_slice") or \
                (_elementwise(o) and o.name.startswith("arith.")):
            if not encloses(loop, o):
                raise Unproven("a fragment read used outside the loop")
            return list(o.results)
        raise Unproven(f"a fragment read used by '{o.name}'")
    _follow([v], visit)
    return out


def _only_known(root, loop, known: set) -> None:
    """Every access of the LDS buffer ``root`` (through its views, wherever they are made)
    is one of the loop's copies or fragment reads, ``known`` (a deallocation aside): no
    other op reads what the front end's copies put there."""
    work = [root]
    while work:
        x = work.pop()
        for u in x.uses:
            o = _op(u.owner)
            if o.name == "memref.dealloc" or o in known:
                continue
            if any(isinstance(r.type, ir.MemRefType) for r in o.results):
                work.extend(o.results)      # a view
            else:
                where = "inside" if encloses(loop, o) else "outside"
                raise Unproven(f"the LDS buffer is accessed {where} the loop by '{o.name}', "
                               f"which is not one of its copies or fragment reads")


def _forward(results: list, kernel, loop=None) -> tuple[set, list]:
    """(the values computed from the K-loop's ``results`` and its accumulators inside it,
    the global writes that write one of them as their value) following every use (module
    docstring): a write inside the loop is among them, and its value, carried by the
    loop's block arguments, proves nothing (``loop`` None: from ``results`` alone; a loop
    whose results ``results`` stand for: :func:`results_replacing`)."""
    writes: list = []

    def visit(o, n: int, x) -> list:
        if o.name in WRITES and o.name != "memref.copy":
            space = memory_space(o.operands[WRITES[o.name]].type)
            if n != (len(o.operands) - 1 if o.name == "vector.scatter" else 0):
                raise Unproven(f"'{o.name}' op indexes or masks with the accumulators")
            if space == "private" and o.name in STORES:
                return [a.results[0] for a in accesses(root_of(o.operands[1]))
                        if a.name not in STORES]
            if space not in ("global", "fat_raw_buffer"):
                raise Unproven(f"'{o.name}' op writes the accumulators to {space} memory")
            writes.append((o, x))
            return []
        if o.name == "scf.for" and n >= 3:
            return [o.regions[0].blocks[0].arguments[n - 2], o.results[n - 3]]
        parent = _op(o.parent) if o.name == "scf.yield" else None
        if parent is not None and parent.name == "scf.for":
            return [parent.results[n], parent.regions[0].blocks[0].arguments[n + 1]]
        if parent is not None and parent.name == "scf.if":
            return [parent.results[n]]
        if o.name == "amdgpu.mfma" and n == 2:      # D[i][j] = C[i][j] + ...
            return [o.results[0]]
        if (o.name in _MOVES and n in _MOVES[o.name]) or o.name == "vector.from_elements" \
                or _elementwise(o):
            return list(o.results)
        raise Unproven(f"'{o.name}' op uses the accumulators")
    seen = _follow(list(results) + (list(loop.regions[0].blocks[0].arguments)[1:]
                                    if loop is not None else []), visit)
    return seen, writes


class _PrivateMemory(dict):
    """Per private ``memref.alloca``, per element: the accumulator elements any store
    writes there from (every store of it, over the iterations of the loops around it: a
    union, so their order does not matter), computed at its first load with ``tracer``; a
    store of what a load of it (or of another such memory still being followed) gives
    proves nothing: a loop may carry into it what a later store writes, which the union
    has not taken yet."""

    def __init__(self, kernel, nacc: int, tracer) -> None:
        super().__init__()
        self.kernel, self.nacc, self.tracer = kernel, nacc, tracer
        self.pending: set = set()

    def of(self, root) -> np.ndarray:
        if root in self.pending:    # (its stores not all followed yet: a loop may load
            raise Unproven("private memory stored from a load of private memory whose "
                           "stores are being followed")     # what a later one stores)
        if root in self:
            return self[root]
        shape = list(ir.MemRefType(root.type).shape)
        mem = np.zeros((int(np.prod(shape)), self.nacc), dtype=bool)
        self.pending.add(root)      # (left there if unproven: it stays unproven)
        for s in accesses(root):    # (its stores, element or vector: private_vectors.py)
            if s.name not in STORES:
                continue
            for env in _iterations(s, self.kernel):
                at = positions(s, lambda x, env=env: _int(x, env)).ravel()
                np.logical_or.at(mem, at, self.tracer(s.operands[0], env).reshape(
                    -1, self.nacc))
        self.pending.discard(root)
        self[root] = mem
        return mem


def _iterations(op, kernel) -> list[dict]:
    """Every binding of the variables of the ``scf.for`` loops around ``op`` (constant
    bounds: positions of constants and loop variables only)."""
    loops, p = [], op.parent
    while p is not None and _op(p) != _op(kernel):
        if _op(p).name == "scf.for":
            loops.append(_op(p))
        elif _op(p).name != "scf.forall":
            raise Unproven(f"a store of private memory inside '{_op(p).name}'")
        p = _op(p).parent
    envs = [{}]
    for loop in reversed(loops):
        nxt = []
        for env in envs:
            lb, ub, step = (_int(x, env) for x in list(loop.operands)[:3])
            if step <= 0:
                raise Unproven("a loop of a step that is not positive")
            for i in range(lb, ub, step):
                nxt.append({**env, loop.regions[0].blocks[0].arguments[0]: i})
        envs = nxt
    return envs


def launch_free(kernel) -> bool:
    """Whether ``kernel`` reads no value known only at launch (a push constant, a
    ``memref.dim``, the workgroup size, a size argument)."""
    return not (walk_ops(kernel, lambda o: o.name in _SAMPLED) or
                [a for a in kernel.regions[0].blocks[0].arguments
                 if not isinstance(a.type, ir.MemRefType)])
