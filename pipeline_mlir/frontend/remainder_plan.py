"""Where a remainder loop's LDS lives: one planner, two rewrites.

The remainder loop of :mod:`~pipeline_mlir.frontend.tails` (an odd trip count, a peeled
masked K tile) runs after the pipelined loop on LDS buffers of its own when they fit
beside the schedule's two stages (:data:`OWN`).  When they do not, this module decides
between the two ways of putting it on the schedule's buffers instead, and each is one
rewrite module:

* :data:`STAGE0`, *rebuild on stage 0* (:mod:`~pipeline_mlir.frontend.shared_remainder`):
  the remainder is rebuilt from the natural loop's analysis, one K tile per iteration,
  with the pipelined loop's own copies and reads on the schedule's stage-0 buffers.  It
  needs a remainder without masked copies (the rebuilt copies are unmasked) that steps
  like the pipelined loop;
* :data:`ALIAS`, *alias its buffers* (:mod:`~pipeline_mlir.frontend.aliased_remainder`):
  the remainder runs as written, its own allocations moved onto free schedule buffers of
  their element type and at least their size, the pipelined code drained before it.
  Any remainder may, if each of its buffers finds a free schedule buffer.

The decision is taken where the facts it needs are known, each time by this module:

1. :func:`at_split` (``tails``, before the analysis): a remainder without masked copies
   whose LDS three times over (two schedule stages and its own), with every other LDS
   buffer the kernel declares (``frontend/kernel_ir.py``'s ``declared_lds``: allocations,
   ``workgroup(...)`` attributions, workgroup globals), exceeds the LDS is
   :data:`STAGE0` at once (``SHARED_ATTR``), with no buffers of its own; else it gets its
   own, each marked ``OWN_ATTR``, and a remainder that could take :data:`STAGE0` is marked
   ``SHAREABLE_ATTR``;
2. :func:`count` (the partition's LDS count, ``layout_buffers`` and ``ksplit``): when
   the schedule's buffers and the kernel's others do not fit together, the remainder's own
   allocations are marked ``ALIAS_ATTR`` (:data:`ALIAS`) and not counted;
3. :func:`place` (``sched-adopt-loop``, when the schedule's buffers exist): an
   :data:`ALIAS` whose buffers find no free schedule buffer falls back to :data:`STAGE0`
   when the remainder may take it (``SHAREABLE_ATTR``, the pipelined loop's step), its
   own allocations left unused; else it stays :data:`ALIAS` with a free schedule buffer
   grown to hold the buffer, when the LDS the kernel leaves unused covers the growth
   (IREE's f16 ``C +=`` tile padded to 132-element rows); else the loop is refused, the message
   saying why no outcome applies.
"""

from __future__ import annotations

from pipeline_mlir.analysis.ir_facts import constant_int
from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import IRError, walk_ops
from pipeline_mlir.frontend import aliased_remainder as AR
from pipeline_mlir.frontend import shared_remainder as SR
from pipeline_mlir.frontend.kernel_ir import kernel_of
from pipeline_mlir.frontend.marks import SHAREABLE_ATTR, SHARED_ATTR
from pipeline_mlir.target import gfx950

#: the outcomes: the remainder's own buffers beside the schedule's; rebuilt on the
#: schedule's stage-0 buffers; its own buffers aliased onto free schedule buffers
OWN, STAGE0, ALIAS = "own buffers", "rebuild on stage 0", "alias its buffers"


def at_split(rem, shareable: bool, own_bytes: int, copies: int, other: int = 0) -> str:
    """The outcome for the remainder loop ``rem`` as ``tails`` cuts it (step 1 of the
    module docstring): ``shareable`` (no masked copies), ``own_bytes`` of LDS it uses,
    ``copies`` of them needed with buffers of its own (the schedule's stages and its),
    beside ``other`` bytes of the kernel's other LDS (attributions and globals included)."""
    if shareable and copies * own_bytes + other > gfx950.LDS_BYTES:
        rem.attributes[SHARED_ATTR] = ir.UnitAttr.get()
        return STAGE0
    if shareable:
        rem.attributes[SHAREABLE_ATTR] = ir.UnitAttr.get()
    return OWN


def count(loop, schedule_bytes: int, other_bytes: int, mark: bool = True) -> int:
    """The LDS bytes of the kernel's other buffers (``other_bytes``, counted by the
    partition) that stay beside the schedule's (``schedule_bytes``): all of them when they
    fit (:data:`OWN`); else the remainder's own allocations go onto the schedule's
    buffers (:data:`ALIAS`, marked ``ALIAS_ATTR`` when ``mark``) and are not counted."""
    if schedule_bytes + other_bytes <= gfx950.LDS_BYTES:
        return other_bytes
    own = AR.allocations(loop, AR.OWN_ATTR)
    for a in own if mark else ():
        a.attributes[AR.ALIAS_ATTR] = ir.UnitAttr.get()
    return other_bytes - sum(AR.nbytes(a) for a in own)


def apply(rw, loop, remainder) -> list:
    """The planned rewrites once the rewriter ``rw`` (``frontend/adopt.py``) has made the
    schedule's buffers (``rw.buffers``): ``remainder`` rebuilt on stage 0 if
    :func:`at_split` said so, then :func:`place`; returns the allocations left unused."""
    if SR.is_shared(remainder):
        why = _step_refusal(loop, remainder)
        if why:     # (the pipelined loop's K steps merged: frontend/kmerge.py)
            raise IRError(remainder, f"'scf.for' op: the remainder loop's LDS does not fit "
                                     f"beside the schedule's two stages, and it cannot be "
                                     f"rebuilt on the schedule's stage-0 buffers: {why}")
        SR.rebuild(rw, remainder)
    stage0, unused = place(loop, rw.buffers, rw.an.buffers)
    for rem in stage0:      # their own LDS found no room: on the schedule's
        SR.rebuild(rw, rem)
    return unused


def place(loop, buffers: dict, natural=()) -> tuple[list, list]:
    """Step 3 of the module docstring for the allocations :func:`count` marked, onto
    ``buffers`` (the schedule's, ``{buffer: BufferLayout}``; ``natural``: the natural
    loop's buffers, about to go): aliased when each finds a free schedule buffer,
    returning ``([], [])``; else (the remainder loops to rebuild on stage 0, the
    allocations they leave unused); else aliased with a schedule buffer grown to hold
    one; else an error at ``loop``."""
    marked = AR.marked(loop)
    if not marked:
        return [], []
    remainders = AR.users(marked)
    chosen, missing = AR.assign(marked, buffers)
    why = _not_stage0(loop, remainders) if missing is not None else ""
    if why:     # no stage-0 rebuild either: a schedule buffer grown in the LDS left
        chosen, missing = AR.assign(marked, buffers, AR.spare_bytes(loop, marked, natural))
        if missing is not None:
            raise IRError(loop, f"{AR.no_room(loop, *missing, remainders)}; nor can it be "
                                f"rebuilt on the schedule's stage-0 buffers: {why}")
    if missing is None:
        AR.alias(chosen, remainders)
        return [], []
    for a in marked:
        del a.attributes[AR.ALIAS_ATTR]
    for r in remainders:
        r.attributes[SHARED_ATTR] = ir.UnitAttr.get()
    return remainders, marked


def _not_stage0(loop, remainders: list) -> str:
    """Why ``remainders`` (after ``loop``) cannot run on the schedule's stage-0 buffers;
    '' if they can: none has masked copies, each steps like ``loop``."""
    if not remainders:
        return "no remainder loop uses the buffer"
    for r in remainders:
        why = _step_refusal(loop, r)
        if why:
            return why
        if SHAREABLE_ATTR not in r.attributes:
            return ("its copies are masked, and the rebuilt remainder issues the pipelined "
                    "loop's unmasked copies")
    return ""


def _step_refusal(loop, rem) -> str:
    """Why the remainder ``rem`` cannot be rebuilt on the stage-0 buffers of the pipelined
    ``loop`` for its step ('' if it can): it must step like ``loop``, one K tile of the
    schedule per iteration (not so after merged K steps, ``frontend/kmerge.py``)."""
    if loop.name != "scf.for":
        return f"the pipelined loop is a '{loop.name}', not an 'scf.for'"
    step = constant_int(loop.operands[2])
    if step is None or constant_int(rem.operands[2]) != step:
        return (f"it steps by {_step_text(rem)}, the pipelined loop by "
                f"{_step_text(loop)}; the rebuilt remainder runs one K tile of the "
                f"schedule per iteration")
    return ""


def _step_text(loop) -> str:
    step = constant_int(loop.operands[2])
    return "a value known only at run time" if step is None else str(step)


def stage0_loops(loop) -> list:
    """The remainder loops of ``loop``'s kernel planned :data:`STAGE0`."""
    kernel = kernel_of(loop)
    return walk_ops(kernel, lambda o: o.name == "scf.for" and SHARED_ATTR in o.attributes) \
        if kernel is not None else []
