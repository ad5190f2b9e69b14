"""A remainder loop on the schedule's own LDS buffers, when its own do not fit beside them.

The remainder loop of an odd trip count (:mod:`~pipeline_mlir.frontend.tails`) normally
runs the natural loop as written on LDS buffers of its own, a third copy of every buffer
beside the schedule's two stages.  When those three copies do not fit in LDS (ping-pong's
256x256 bf16 tile at K step 64 needs 192 KiB), or its own fit beside the schedule's
neither whole nor aliased, the remainder planner
(:mod:`~pipeline_mlir.frontend.remainder_plan`, its "rebuild on stage 0" outcome) marks
it :data:`SHARED_ATTR`, and ``sched-adopt-loop`` rebuilds it here, while the natural
loop's analysis is still at hand: one K tile per iteration, in the layout of the
schedule's stage-0 buffers,

* a ``gpu.barrier``: every wave is done with the buffers (the pipelined loop's epilogue
  reads them, and each earlier remainder iteration);
* the copies of every (channel, subtile) into its stage-0 buffer, addressed exactly as the
  pipelined loop addresses them (the rewriter's own emitters, the K step of the remainder's
  variable);
* ``s_waitcnt vmcnt(0)`` and a ``gpu.barrier``: the copies landed, in every wave;
* the fragment reads of every (channel, subtile) from the stage-0 buffer, as the pipelined
  loop reads them, and the natural loop's MFMAs in its order on them, each continuing its
  accumulator from the remainder's ``iter_args`` (the pipelined loop's results).

The ops carry no schedule tags (the remainder is not pipelined; LLVM waits for its reads
before the MFMAs that use them), and the loop keeps
:data:`~pipeline_mlir.frontend.scan.REMAINDER_ATTR`.  Copies that ``sched-stage-copies``
would stage through registers are refused at the loop (this form is for DMA copies).
"""

from __future__ import annotations

from pipeline_mlir.dialect import bindings as B
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError
from pipeline_mlir.frontend.layout import Cloner, Emitter
from pipeline_mlir.frontend.marks import REMAINDER_ATTR, SHARED_ATTR, STAGED
from pipeline_mlir.frontend.tagged import TAG_ATTRS
from pipeline_mlir.isa.waitcnt import waitcnt_imm


class _NoShift:
    """The ``k_offset`` of a remainder copy: its own K tile (the tag's ``none``)."""
    name = "NONE"

    def __int__(self) -> int:
        return 255


class _Slot:
    """A body descriptor of the remainder: (channel, subtile) at stage 0, no K shift."""

    def __init__(self, channel: int, subtile: int) -> None:
        self.channel, self.subtile, self.stage = channel, subtile, 0
        self.k_offset = _NoShift()


def is_shared(rem) -> bool:
    """Whether ``rem`` (a remainder loop) is to be rebuilt on the schedule's buffers."""
    return rem is not None and SHARED_ATTR in rem.attributes


def rebuild(rw, rem) -> None:
    """Replace the remainder loop ``rem`` by one on the stage-0 buffers of the rewriter
    ``rw`` (``frontend/adopt.py``; module docstring), emitted with ``rw``'s emitters
    while the natural loop it analysed still exists."""
    pairs = {kind: sorted({(d.channel, d.subtile) for d, k in zip(rw.body, rw.kinds)
                           if k == kind}) for kind in ("global", "frag")}
    n = len(rem.results)
    with ir.InsertionPoint(rem), rem.location:
        new = B.scf.ForOp(rem.operands[0], rem.operands[1], rem.operands[2],
                          list(rem.operands)[3:])
    saved = {k: getattr(rw, k) for k in ("new_loop", "ix", "emitter", "shifted", "cloners",
                                         "frag_value", "acc_now", "read_bases")}
    try:
        rw.new_loop, rw.shifted, rw.cloners, rw.frag_value = new, {}, {}, {}
        point = ir.InsertionPoint(new.operation)
        rw.ix = type(rw.ix)(point)
        rw.read_bases = type(rw.read_bases)(rw.an.scan.block, rw.schedule)   # bases of this loop
        rw.emitter = Emitter(rw.an, point, rw.ix.c)
        rw.acc_now = {a: new.inner_iter_args[a] for a in range(n)}
        with ir.InsertionPoint(new.body), rem.location:
            _body(rw, pairs)
            B.scf.YieldOp([rw.acc_now[a] for a in range(n)])
    finally:
        for k, v in saved.items():
            setattr(rw, k, v)
    untag(new.operation, set(TAG_ATTRS))
    for old, nv in zip(rem.results, new.results):
        old.replace_all_uses_with(nv)
    new.operation.attributes[REMAINDER_ATTR] = ir.UnitAttr.get()
    rem.erase()


def _body(rw, pairs: dict) -> None:
    """Barrier, copies, wait, barrier, reads, MFMAs."""
    B.gpu.BarrierOp()
    for ch, sub in pairs["global"]:
        rw._emit_copies(-1, _Slot(ch, sub))
    B.rocdl.s_waitcnt(waitcnt_imm(vmcnt=0))
    B.gpu.BarrierOp()
    slot_of = {}
    for j, (ch, sub) in enumerate(pairs["frag"]):
        rw._emit_reads(-1 - j, _Slot(ch, sub))
        for k in rw.reads_of[(ch, sub)]:
            slot_of[k] = -1 - j
    an = rw.an
    for m in an.mfmas:
        op = an.ops[m.op]
        mapping = {rw.iv: rw._iv_at(0)}
        for r in list(m.a_reads) + list(m.b_reads):
            mapping[rw.read_ops[r].results[0]] = rw.frag_value[(slot_of[r], r)]
        cl = Cloner(rw.body_set, mapping)
        a, b = cl.get(op.operands[0]), cl.get(op.operands[1])
        mf = op.clone()
        mf.operands[0], mf.operands[1] = a, b
        mf.operands[2] = rw.acc_now[m.acc]
        rw.acc_now[m.acc] = mf.results[0]


def untag(loop, tags: set) -> None:
    """Drop the schedule tags the emitters put on the remainder's ops; a copy marked for
    register staging is an error at the loop."""
    for o in loop.regions[0].blocks[0].operations:
        o = o.operation
        if STAGED in o.attributes:
            raise IRError(loop, "'scf.for' op: the remainder loop on the schedule's LDS "
                                "buffers takes direct-to-LDS copies; this one would stage "
                                "a copy through registers")
        for t in tags:
            if t in o.attributes:
                del o.attributes[t]
