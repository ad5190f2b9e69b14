"""One-element fragment reads of MFMA operands regrouped into transposing reads.

IREE's VectorDistribute pipeline reads the ``K x N`` B tile of a plain ``A x B`` one
element at a time: an MFMA operand of 8 K values of one N column is 8 ``vector.load``
of ``vector<1xbf16>`` (``ds_read_u16``) joined by ``vector.from_elements``, 64 reads per
B subtile and K tile of 128.  That is more reads than one fragment load may issue (four
times what ``lgkmcnt`` counts, :mod:`pipeline_mlir.schedule.long_loads`), and each is a
whole LDS instruction for 2 bytes.
Where the 8 elements of every such operand lie in 8 consecutive rows of one column of a
dense LDS buffer, :func:`regroup_element_reads` replaces them with 2 transposing reads
(``amdgpu.transpose_load``, ``ds_read_b64_tr_b16``) per operand, exactly as
:mod:`pipeline_mlir.frontend.transpose` regroups IREE's own transposing reads: the same
element tracer, the same per-thread check that the lanes of a 16-lane group want 4
consecutive, 8-byte aligned elements (:func:`~pipeline_mlir.frontend.transpose.
half_address`), the same emission (addresses computed before the loop from the thread id).
IREE's 8-bit ``A x B`` (i8, fp8) reads B alike, one byte per ``vector<1xi8>``: 16 per
i8 operand (32 per fp8 one), regrouped into 2 (4) 8-bit transposing reads
(``ds_read_b64_tr_b8``) of 8 elements each (``transpose.PER_READ``).

Unlike transposing reads, one-element reads are already something the front end takes:
a loop whose element reads do not fit that shape (an operand mixing them with other
values, addresses that move with the K step or the workgroup, a swizzled or non-dense
buffer, elements used by something other than MFMA operands, lanes that do not want
consecutive elements) is left as it is, and the rest of the front end takes or refuses it
as before.  Every property is checked before the IR changes.
"""

from __future__ import annotations

import numpy as np

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.dialect.ir_io import as_operation as _op
from pipeline_mlir.frontend.block_fit import fit_digits
from pipeline_mlir.frontend import transpose as T
from pipeline_mlir.frontend.scan import LoopScan

__all__ = ["element_reads", "regroup_element_reads", "why_left"]

#: the element types a transposing read delivers, and how many per lane
#: (``ds_read_b64_tr_b16``: 4; ``ds_read_b64_tr_b8``: 8)
PER_READ = T.PER_READ


def element_reads(scan: LoopScan) -> list:
    """The loop's fragment reads of one element of a type transposing reads deliver."""
    out = []
    for a in scan.reads:
        if a.op.name not in ("vector.load", "vector.transfer_read"):
            continue
        vt = ir.VectorType(a.op.results[0].type)
        if vt.rank == 1 and vt.shape[0] == 1 and str(vt.element_type) in PER_READ:
            out.append(a)
    return out


class _OneElementTracer(T.ElementTracer):
    """The transposing reads' tracer with reads of one element (id ``per k``)."""

    def ids(self, v):
        if v in self.read_of_value:
            return np.array([self.read_of_value[v] * self.per], dtype=np.int64)
        return super().ids(v)


def regroup_element_reads(scan: LoopScan) -> bool:
    """Rewrite the loop's one-element reads into transposing reads, 2 or more per MFMA
    operand (module docstring); returns whether it did (False: the loop is left
    unchanged; :func:`why_left` says why)."""
    plan = _plan(scan)
    if isinstance(plan, _Left):
        return False
    old, users, plans, tracer, roots, per, points = plan
    et = ir.VectorType(old[0].op.results[0].type).element_type
    T.emit_regrouped(scan, old, users, plans, tracer, roots, points,
                     read_type=ir.VectorType.get([per], et), read_attrs={})
    return True


def why_left(scan: LoopScan):
    """(a read, why) for a loop whose one-element reads :func:`regroup_element_reads` left
    as they are: the read the failed check is about (the first one-element read unless a
    check names another) and what regrouping needed; None if the loop has none, or they
    could be regrouped."""
    plan = _plan(scan)
    return (plan.op, plan.why) if isinstance(plan, _Left) and plan.op is not None else None


class _Left:
    """Why the one-element reads are left: the op it is about and what regrouping needed."""

    def __init__(self, op, why: str):
        self.op, self.why = op, why


def _plan(scan: LoopScan):
    """(reads, users, plans, tracer, roots, per, read points) of the regrouping, or a
    :class:`_Left`."""
    old = element_reads(scan)
    types = sorted({str(ir.VectorType(a.op.results[0].type).element_type) for a in old})
    first = old[0].op if old else None
    if len(types) != 1:             # none, or 16-bit and 8-bit ones mixed
        return _Left(first, f"one element type in all of them (they read {', '.join(types)})")
    per = PER_READ[types[0]]
    tracer = _OneElementTracer({a.op.results[0]: k for k, a in enumerate(old)}, per)
    users = _users(scan, tracer)
    if users is None:
        return _Left(first, f"every MFMA operand they feed built of {per}, {2 * per}, "
                            f"{4 * per}... of them (a power of two, at least 2, times the "
                            f"{per} elements a transposing read delivers) and nothing else")
    if not _only_mfmas_use(old, tracer, users):
        return _Left(first, "each of them to feed MFMA operands and nothing else")
    roots, received = _addresses(scan, old, per)
    if received is None:
        return _Left(first, "addresses that stay put across K steps and workgroups, in a "
                            "dense, unswizzled LDS buffer")
    try:
        plans = T.operand_plans(users, received, per)
    except IRError as e:
        return _Left(first, f"each 16-lane group of an MFMA operand to want {per} "
                            f"consecutive elements of one column, aligned, at every lane "
                            f"({_op(e.op).name}: {str(e).split(': ', 1)[-1]})")
    for key, halves in plans.items():
        if not all(_fits(addr) for addr in halves):   # at the operand's first read
            return _Left(old[min(key) // per].op,
                         f"the {len(key)} elements of each MFMA operand to be "
                         f"{len(key) // per} reads of {per} consecutive rows of one column, "
                         f"each one strided block of the thread id in one buffer")
    try:
        points = T.read_points(scan, old, plans, per)
    except IRError as e:
        return _Left(_op(e.op), f"the reads of each MFMA operand with no copy, LDS store or "
                                f"barrier between them ({str(e).split(': ', 1)[-1]})")
    return old, users, plans, tracer, roots, per, points


def _users(scan: LoopScan, tracer) -> list | None:
    """(mfma, operand index, element ids) of every MFMA operand built from element reads,
    each a power of two (2 at least) times the elements of a transposing read and nothing
    else; None if some operand is not, or a read feeds none."""
    users = []
    try:
        for m, i, ids in T.operand_ids(scan, tracer):
            n = ids.size // tracer.per
            if ids.ndim != 1 or ids.size % tracer.per or n < 2 or n & (n - 1) or \
                    np.any(ids == T.NONE):
                return None
            users.append((m, i, ids))
    except IRError:                 # an op the tracer does not follow
        return None
    return users or None


def _only_mfmas_use(old: list, tracer, users: list) -> bool:
    """Whether every op the reads feed is one the tracer followed or an MFMA using them,
    and every read feeds an MFMA operand."""
    fed = {int(x) // tracer.per for _m, _i, ids in users for x in ids}
    if fed != set(range(len(old))):
        return False
    inside = set(tracer.visited) | {m for m, _i, _ids in users}
    for o in [a.op for a in old] + tracer.visited:
        for r in o.results:
            if any(_op(u.owner) not in inside for u in r.uses):
                return False
    return True


def _addresses(scan: LoopScan, old: list, per: int):
    """(the LDS buffers read, (reads, threads, per): the element each thread reads, in every
    column, buffer number above ``T.BUFFER_SHIFT``); (None, None) if an address moves with
    the K step or the workgroup, or a buffer is swizzled or not dense."""
    try:
        roots, addrs = T.read_addresses(scan, old)
    except IRError:
        return None, None
    return roots, np.stack([np.repeat(a[:, None], per, axis=1) for a in addrs])


def _fits(addr: np.ndarray) -> bool:
    """Whether a new read's addresses are one strided block of the thread id in one
    buffer (what :func:`~pipeline_mlir.frontend.transpose.emit_regrouped` emits)."""
    return fit_digits(addr - addr[0]) is not None and \
        not np.any(addr >> T.BUFFER_SHIFT != addr[0] >> T.BUFFER_SHIFT)
