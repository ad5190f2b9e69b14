"""A K tile whose fragments do not fit in a lane's registers, split along K into sub-steps.

A wave's accumulators of a 128x128 tile take a lane's 256 AGPRs
(:mod:`~pipeline_mlir.frontend.accumulator_agprs`), which leaves the 256 architected VGPRs
for everything else; the schedule holds the four fragment loads of a K tile (A's and B's
two subtiles) at once (the 4-wave schedule at three of its four MMA blocks: finding 108 of
``docs/iree-audits.md``).  Where those loads take too much of the architected file, LLVM
spills: IREE's forced i8 ``A^T x B`` 1920x128x1280 (16x16x64 MFMAs, a K step of 256) reads
256 VGPRs of fragments a K tile, the whole file, and spills 598 VGPRs.

:func:`split_for_registers` counts, on the loop's partition, the VGPRs a lane the reads of
one K tile write and the read instructions (each keeps its LDS address in a VGPR until it
issues: :func:`fragment_registers`), and where their sum is over :func:`register_budget`
splits the K step into the fewest sub-steps (a power of two) that bring it under
(:func:`~pipeline_mlir.frontend.ksplit.split_k`, which keeps sub-step 0's reads and MFMAs:
the sums bit-identical).  The rule is for a loop whose accumulators go to AGPRs (beside
accumulators in VGPRs no budget is measured: :func:`register_budget`); its budget is the
256 architected VGPRs less :data:`OTHER_LIVE`, measured:

* at a sum of 176 (fp8 ``A^T x B^T`` 128x1280x384: 128 VGPRs of fragments, 48 reads) and
  160 (i8 ``A x B^T`` 896x128x384 and 128x2560x640: 128, 32) the kernels spill nothing;
* at 192 (IREE's i8 ``A^T x B`` above split into 2: 128 VGPRs, 64 reads) they spill 40 to
  56 VGPRs; at 96 (split into 4) none; unsplit (384) 471 to 598.

Where the split cannot be made (``split_k`` refuses it: an XOR swizzle that mixes the
sub-step's element bit, a remainder loop on the schedule's buffers, copies it would
narrow), the loop is pipelined as it is, as before.  Either way the adopted loop says what
was decided (:data:`~pipeline_mlir.frontend.marks.KSPLIT_NOTE_ATTR`, which
``--emit=report`` prints), and a loop left over the budget is warned of at the loop
(``passes/adopt_loop.py``).
"""

from __future__ import annotations

from pipeline_mlir.dialect.ir_io import IRError, int_value
from pipeline_mlir.analysis.ir_facts import constant_int
from pipeline_mlir.frontend.accumulator_agprs import accumulator_registers
from pipeline_mlir.frontend.address import Analysis
from pipeline_mlir.frontend.ksplit import split_k
from pipeline_mlir.frontend.marks import MERGED_ATTR
from pipeline_mlir.target.gfx950 import ARCH_VGPRS

__all__ = ["OTHER_LIVE", "fragment_registers", "register_budget", "split_for_registers",
           "sub_steps", "over_budget_note"]

#: the architected VGPRs a lane's other values take beside one K tile's fragments and their
#: read addresses (copies' addresses, counters, C's store addresses), as measured: the
#: budget of a kernel whose accumulators are in AGPRs is 256 less this, 176 (module
#: docstring; finding 109 of docs/iree-audits.md)
OTHER_LIVE = 80
#: how a note of a loop over the budget that the split could not take starts (the driver's
#: warning at the loop reads it)
OVER_BUDGET = "not split"


def fragment_registers(an: Analysis) -> tuple[int, int]:
    """(the VGPRs a lane the fragment reads of one K tile of ``an``'s loop write, those
    reads' instructions): the schedule's four fragment loads of the tile."""
    vgprs = reads = 0
    for r in an.reads:
        nbytes = r.lds.shape[-1] * an.buffer_views[r.buffer].elem_bytes
        vgprs += -(-nbytes // 4)
        reads += r.instructions
    return vgprs, reads


def register_budget(an: Analysis) -> int | None:
    """The budget of :func:`fragment_registers`' sum where the loop's accumulators go to
    AGPRs (``keep_accumulators_in_agprs``: they take the architected file or more), else
    None: beside accumulators in VGPRs the budget is not measured (IREE's 8-wave i8
    256x256 kernel holds 128 VGPRs of them, 96 of fragments in 24 reads, and LLVM fits it
    in 246 VGPRs with no spill), and such a loop is left as it is."""
    if accumulator_registers(an) < ARCH_VGPRS:
        return None
    return ARCH_VGPRS - OTHER_LIVE


def split_for_registers(an: Analysis) -> Analysis:
    """``an``, or the analysis of its loop split along K into the fewest sub-steps whose
    fragments fit the budget (module docstring), with what was decided where over it
    (``ksplit_note``, the adopted loop's
    :data:`~pipeline_mlir.frontend.marks.KSPLIT_NOTE_ATTR`).  A loop whose K steps were
    merged is left as it is."""
    loop = an.scan.loop
    if not an.mfmas or MERGED_ATTR in loop.attributes:
        return an
    vgprs, reads = fragment_registers(an)
    budget = register_budget(an)
    need = vgprs + reads
    if budget is None or need <= budget:
        return an
    n = sub_steps(need, budget, an.chain())
    said = (f"one K tile's fragment reads write {vgprs} VGPRs a lane in {reads} reads "
            f"({need} with their addresses), over the budget of {budget} ({ARCH_VGPRS} "
            f"architected VGPRs, the accumulators in AGPRs, {OTHER_LIVE} for other values)")
    step = an.evaluator.uniform(loop.operands[2])
    try:
        if n < 2:
            raise IRError(loop, "its accumulators take one MFMA a K step, which is not cut")
        out = split_k(an, at_least=n)
    except IRError as e:
        an.ksplit_note = (f"{OVER_BUDGET}: {said}; the front end cannot split its K step into "
                          f"{max(n, 2)} sub-steps ({_reason(e)}): pipelined as it is, LLVM "
                          f"may spill")
        return an
    got = step // constant_int(loop.operands[2])
    k = _k_elements(an)
    out.ksplit_note = (f"split into {got} sub-steps of K {k // got} (the K step of {k}): "
                       f"{said}; {-(-vgprs // got)} VGPRs in {-(-reads // got)} reads a "
                       f"sub-step")
    return out


def _k_elements(an: Analysis) -> int:
    """The K elements one step of ``an``'s loop multiplies: an MFMA's K times the MFMAs of
    an accumulator."""
    return int_value(an.scan.mfmas[0].attributes["k"]) * an.chain()


def sub_steps(need: int, budget: int, chain: int) -> int:
    """The fewest sub-steps (a power of two, at most ``chain``, the MFMAs of an accumulator
    a K step) whose share of ``need`` is at most ``budget``; 1 where ``need`` is."""
    n = 1
    while -(-need // n) > budget and n < chain:
        n *= 2
    return n


def over_budget_note(note: str) -> bool:
    """Whether ``note`` (a :data:`KSPLIT_NOTE_ATTR`) tells of a loop left over the budget."""
    return note.startswith(OVER_BUDGET)


def _reason(e: IRError) -> str:
    """The part of ``split_k``'s refusal ``e`` that says why: its text after the LDS
    refusal it starts with (``split_k`` is first the split for LDS)."""
    text = str(e)
    for lead in ("nor can the front end split its K step into ", ", but "):
        at = text.find(lead)
        if at >= 0:
            rest = text[at + len(lead):]
            return rest.split(": ", 1)[1] if lead.startswith("nor") and ": " in rest \
                else rest
    return text
