"""The properties of a natural K-loop the front end's rewrite relies on, checked.

The rewrite (:mod:`pipeline_mlir.frontend.adopt`) runs the loop two K tiles per iteration,
multi-buffers its LDS per (operand, stage, subtile) and re-orders its ops into the
schedule's.  That computes what the loop computes only if

* the loop advances: a constant step is positive (checked before the loop is cut,
  :func:`pipeline_mlir.frontend.tails.check_step`; a step known only at run time traps
  unless the trip count suits the schedule); so does every other ``scf.for`` of the
  input whose step is a constant (:func:`check_other_steps`: a step of 0 or less never
  ends, and the front end's evaluators would run it too);
* each fragment read reads the data of this iteration's copies: every copy whose LDS
  elements a read touches comes before the read in the body with a barrier between them,
  and a barrier separates the read from the next iteration's copies into the same
  elements (:func:`check_order`; a bare barrier, ``rocdl.s.barrier`` or a ``gpu.barrier``
  whose ``memfence`` leaves out workgroup memory, waits for none of the wave's memory
  operations and counts only behind a wait (a ``rocdl.s.waitcnt`` or an
  ``amdgpu.memory_counter_wait``) for the access it orders: ``vmcnt(0)`` after a
  direct-to-LDS copy, ``lgkmcnt(0)`` after a register copy's LDS store or a read,
  :mod:`pipeline_mlir.analysis.barriers`; a read at the top of the
  body that reads the previous
  iteration's copy is loop-carried through LDS, which the rewrite would turn into a read of
  this iteration's data);
* every ``scf.forall`` around the loop is a loop over workgroups (each entry of its mapping
  IREE's ``#iree_codegen.workgroup_mapping`` or, all of them, upstream's ``#gpu.block``,
  each dimension its own, :func:`check_workgroup_loops`): the analyses read its induction
  variables as workgroup ids, and a forall without such a mapping is not distributed
  (each workgroup runs all its iterations, the K-loop's LDS reused from one to the next);
* the LDS addresses are the same in every workgroup (checked by
  :func:`pipeline_mlir.frontend.address.analyse` with :func:`check_same`: the buffers and
  subtiles are laid out from one workgroup's addresses);
* the front end's copies read what the kernel's copies read, inside the global buffer or,
  in a workgroup at the edge of C, both out of it
  (:func:`pipeline_mlir.frontend.edges.check_copy_reads`, in several workgroups, at the
  first and last K step);
* no op other than the copies writes the LDS it multi-buffers (the scan refuses every
  other LDS writer, :func:`pipeline_mlir.frontend.scan.scan_loop`), and a copy's LDS
  address is wave-uniform (``address._Accesses.lds_of_copy``);
* a read the rewrite moves to the loop's entry (an accumulator kept in LDS, read once
  before the loop, :mod:`pipeline_mlir.frontend.lds_accumulators`) reads what the kernel
  wrote into that LDS before the loop only behind a barrier on the way into the loop that
  orders those writes: one that fences workgroup memory, or a bare one behind a
  wait for them (:func:`check_entry`; inside the loop the
  kernel's own barriers ordered them, which the moved read no longer has).

Each violation is an :class:`~pipeline_mlir.dialect.ir_io.IRError` at the op.
"""

from __future__ import annotations

from pipeline_mlir.analysis.barriers import (BARRIERS, counter_wait_text, entry_path,
                                             entry_writers, fence_text, fences_lds, orders)
from pipeline_mlir.analysis.ir_facts import constant_int, enclosing_ops
from pipeline_mlir.dialect.attrs import workgroup_forall_problem
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.locations import op_name
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.kernel_ir import describe



def check_same(op, what: str, first, other) -> None:
    """``first`` and ``other``, the LDS elements of ``op`` in two workgroups (arrays), are
    equal."""
    import numpy as np  # (numpy only where a natural loop's addresses are evaluated: the
    # other checks here run on every input, a tagged one too)

    if not np.array_equal(first, other):
        raise IRError(op, f"'{op_name(op)}' op: the LDS elements it {what} depend on the "
                          f"workgroup id; the pipeliner lays out LDS from one workgroup's "
                          f"addresses and needs them the same in every workgroup")


def check_order(loop, copies: list, copy_lds: list, reads: list, read_lds: list) -> None:
    """Every read reads the LDS its copies wrote in this iteration, behind a barrier, and
    a barrier separates it from the next iteration's copies (module docstring).
    ``copies``/``reads``: the ops; ``*_lds``: their (buffer, elements) per thread."""
    body = [_op(o) for o in loop.regions[0].blocks[0].operations]
    pos = {op: i for i, op in enumerate(body)}
    bars = [i for i, op in enumerate(body) if op.name in BARRIERS]
    hits = overlapping_copies(copy_lds, read_lds)
    for r, overlapping in zip(reads, hits):
        for c in (copies[k] for k in overlapping):
            pc, pr = pos[c], pos[r]
            if pc > pr:
                raise IRError(r, f"'{op_name(r)}' op reads LDS that {_copy(c)} "
                                 f"writes later in the body: it reads the previous "
                                 f"iteration's copy (loop-carried through LDS), which the "
                                 f"pipeliner's reordering does not keep")
            pw, counter = _writer(c, pos)
            between = [b for b in bars if pc < b < pr]
            if not any(orders(body, pw, b, counter) for b in between):
                _unordered(body, between, r, c, "writes", counter, c)
                raise IRError(r, f"'{op_name(r)}' op reads LDS that {_copy(c)} "
                                 f"writes, with no barrier between them (the kernel races)")
            across = [b for b in bars if b > pr or b < pc]
            if not any(orders(body, pr, b, "lgkmcnt", True) for b in across):
                _unordered(body, across, r, c, "overwrites in the next iteration",
                           "lgkmcnt", r)
                raise IRError(r, f"'{op_name(r)}' op reads LDS that the next iteration's "
                                 f"{_copy(c, '')} overwrites, with no barrier between them "
                                 f"(the kernel races)")


def _copy(c, article: str = "the ") -> str:
    """Copy ``c`` for a message: a direct-to-LDS copy the user wrote by itself; a copy
    through registers by its global load, said to be that copy (the load writes no LDS), a
    direct-to-LDS copy the front end made of one too (:func:`op_name`: the user's load)."""
    if op_name(c) == "amdgpu.gather_to_lds":
        return describe(c)
    return f"{article}copy through registers from {describe(c)}"


def overlapping_copies(copy_lds: list, read_lds: list) -> list[list[int]]:
    """For each read's (buffer, elements), the indices (in order) of the copies whose
    (buffer, elements) share an element with it.  One table per buffer, a row per copy
    marking the elements it writes, so each read costs one look-up of its elements."""
    import numpy as np

    lows, highs = {}, {}
    for b, el in [*copy_lds, *read_lds]:
        if np.size(el):
            lows[b] = min(lows.get(b, np.inf), int(np.min(el)))
            highs[b] = max(highs.get(b, -np.inf), int(np.max(el)))
    rows: dict = {}
    for k, (b, el) in enumerate(copy_lds):
        rows.setdefault(b, []).append(k)
    tables = {}
    for b, ks in rows.items():
        if b not in lows:
            continue
        if len(ks) < 63:        # (each element's copies as the bits of one integer)
            table = np.zeros(highs[b] - lows[b] + 1, np.int64)
            for row, k in enumerate(ks):
                table[np.asarray(copy_lds[k][1]).ravel() - lows[b]] |= 1 << row
        else:
            table = np.zeros((len(ks), highs[b] - lows[b] + 1), bool)
            for row, k in enumerate(ks):
                table[row, np.asarray(copy_lds[k][1]).ravel() - lows[b]] = True
        tables[b] = table
    out = []
    for b, el in read_lds:
        table = tables.get(b)
        if table is None or not np.size(el):
            out.append([])
            continue
        at = np.asarray(el).ravel() - lows[b]
        if table.ndim == 1:
            bits = int(np.bitwise_or.reduce(table[at]))
            out.append([k for row, k in enumerate(rows[b]) if bits >> row & 1])
            continue
        hit = table[:, at].any(axis=1)
        out.append([k for row, k in enumerate(rows[b]) if hit[row]])
    return out


def _writer(c, pos: dict) -> tuple[int, str]:
    """(body position, counter) of copy ``c``'s LDS write: a direct-to-LDS copy's own,
    counted on ``vmcnt``; a register copy's LDS store (the one use of its load), counted
    on ``lgkmcnt``."""
    if c.name == "amdgpu.gather_to_lds":
        return pos[c], "vmcnt"
    store = _op(next(iter(c.results[0].uses)).owner)
    return pos.get(store, len(pos)), "lgkmcnt"


def _unordered(body: list, between: list, r, c, what: str, counter: str, access) -> None:
    """The race of read ``r`` against copy ``c`` at the first bare barrier of ``between``
    (body positions), when there is one: it fences no workgroup memory, and no wait of
    ``counter`` for ``access`` precedes it."""
    bare = [b for b in between if not fences_lds(body[b])]
    if not bare:
        return
    b = body[bare[0]]
    why = _bare_why(b)
    raise IRError(b, f"'{op_name(b)}' op {why}, and it is the only barrier between "
                     f"{describe(r)}, an LDS read, and {_copy(c)}, which {what} the LDS "
                     f"it reads: it does not order them (the kernel races); no "
                     f"rocdl.s.waitcnt with {counter}(0) comes between {describe(access)} "
                     f"and it (nor an amdgpu.memory_counter_wait with "
                     f"{counter_wait_text([counter])})")


def check_entry(loop, is_buffer, reader) -> None:
    """``reader``, a read of LDS (whose memref ``is_buffer`` accepts) that the rewrite
    moves to the entry of ``loop``, is ordered behind every write of that LDS on the way
    into the loop by a barrier there (module docstring); else an error at the barrier that
    does not order them, or, with none, at the read."""
    path = entry_path(loop)
    writers = entry_writers(path, is_buffer)
    if not writers:
        return
    w, _, write = writers[-1]
    bars = [b for b in range(w + 1, len(path)) if path[b].name in BARRIERS]
    # the writes after the last fenced barrier before the last write (a fenced barrier
    # after it orders everything: orders() says so, and the loop returns there)
    fence = max((f for f in range(w) if path[f].name in BARRIERS and fences_lds(path[f])),
                default=-1)
    pending = [(p, cs) for p, cs, _ in writers if p > fence]
    for b in bars:
        if all(orders(path, p, b, c) for p, cs in pending for c in cs):
            return
    moved = (f"{describe(reader)}, a read of LDS that the front end moves to the loop's "
             f"entry")
    if not bars:
        raise IRError(reader, f"{moved}, reads what {describe(write)} writes before the "
                              f"K-loop with no barrier between them on the way into the "
                              f"loop (the moved read would race)")
    b = path[bars[0]]
    counters = "/".join(sorted(writers[-1][1]))
    which = "the only barrier" if len(bars) == 1 else \
        f"the first of {len(bars)} barriers, none of which orders them,"
    raise IRError(b, f"'{op_name(b)}' op {_bare_why(b)}, and it is {which} between "
                     f"{describe(write)}, an LDS write before the K-loop, and {moved}: it "
                     f"does not order them (the pipelined kernel would race); no "
                     f"rocdl.s.waitcnt with {counters}(0) comes between them (nor an "
                     f"amdgpu.memory_counter_wait with "
                     f"{counter_wait_text(sorted(writers[-1][1]))})")


def _bare_why(b) -> str:
    """Why barrier ``b``, which orders no LDS by itself, does not order an access."""
    return (f"({fence_text(b)}) fences no workgroup memory" if b.name == "gpu.barrier" else
            "waits for none of the wave's memory operations (gfx950's s_barrier does not "
            "drain the wave's counters)")


def check_other_steps(module, loops) -> None:
    """Every ``scf.for`` of ``module`` but the K-loops ``loops`` (whose step
    :func:`pipeline_mlir.frontend.tails.check_step` checks) whose step is a constant has a
    positive one: the first that has not is an error at it (it never ends: the tenth
    audit's mutant of a C += kernel whose loop reading C's rows took a step of 0, built
    and then run forever)."""
    from pipeline_mlir.dialect.ir_io import walk_ops

    skip = [_op(x) for x in loops]
    for o in walk_ops(module.operation, lambda o: o.name == "scf.for"):
        step = constant_int(o.operands[2])
        if step is not None and step <= 0 and not any(o == k for k in skip):
            raise IRError(o, f"'scf.for' op has step {step}: it never ends (a loop's step "
                             f"must be positive)")


def check_workgroup_loops(loop) -> None:
    """Every ``scf.forall`` around ``loop`` is a loop over workgroups, each dimension its own
    workgroup id (:func:`pipeline_mlir.dialect.attrs.workgroup_forall_problem`; module
    docstring); the first that is not is an error at it."""
    for p in enclosing_ops(loop):
        if p.name == "scf.forall" and (what := workgroup_forall_problem(p)) is not None:
            raise IRError(p, f"'scf.forall' op around the K-loop {what}; the front end reads "
                             f"its induction variables as workgroup ids and lays out LDS "
                             f"for one pass of the K-loop (map each dimension with "
                             f"#iree_codegen.workgroup_mapping, IREE's loop over workgroups, "
                             f"or upstream's #gpu.block)")
